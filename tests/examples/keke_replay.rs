//! Replays every Keke AI Competition solution (`../shared/corpus/baba/keke/`) once, as the
//! `keke` bench does for one iteration, and prints the moves played. A fixed amount of work
//! for profilers whose counts must not depend on timing:
//!
//! `cargo build --release -p tilesmith-tests --example keke_replay && valgrind --tool=callgrind
//! target/release/examples/keke_replay`
//!
//! `hashes` prints per level a hash of the state after every turn, and `reports` one of what
//! every turn reports (changed cells, per phase): run before and after a change to the turn,
//! they show that it changed nothing.
//!
//! An argument `largest` replays only the 10 levels of largest area (the bench's second set).
//! An argument `per-level` times each level alone instead (its solution replayed again and
//! again for at least 100 ms after a warm-up, level start included) and prints one line per
//! level, `set id moves ns-per-turn`: the per-level side of the comparison with Keke's
//! simulator in BENCHMARKS.md ("Keke replay").

use tilesmith_tests::corpus;
use tilesmith_tests::keke::{load_all, replay};

fn main() {
    let mut levels = load_all(&corpus("baba").join("keke"));
    // `KEKE_ONLY="full_biy 166"` keeps one level (for profiling it).
    if let Ok(only) = std::env::var("KEKE_ONLY") {
        levels.retain(|l| format!("{} {}", l.set, l.id) == only);
    }
    if std::env::args().nth(1).as_deref() == Some("per-level") {
        for l in &levels {
            let warm = std::time::Instant::now();
            while warm.elapsed().as_millis() < 20 {
                replay(l);
            }
            let (start, mut moves) = (std::time::Instant::now(), 0u64);
            while start.elapsed().as_millis() < 100 {
                moves += replay(l);
            }
            let ns = start.elapsed().as_nanos() as f64 / moves.max(1) as f64;
            println!("{} {} {} {ns:.0}", l.set, l.id, replay(l));
        }
        return;
    }
    if std::env::args().nth(1).as_deref() == Some("reps") {
        let n: u32 = std::env::args()
            .nth(2)
            .and_then(|a| a.parse().ok())
            .unwrap_or(1);
        let moves: u64 = (0..n).map(|_| levels.iter().map(replay).sum::<u64>()).sum();
        println!("{} levels × {n}, {moves} moves played", levels.len());
        return;
    }
    if std::env::args().nth(1).as_deref() == Some("reports") {
        // Like `hashes`, for what each turn reports: its changed cells and each phase's.
        use tilesmith_engine::Game as _;
        for l in &levels {
            let mut g = tilesmith_engine::kind::baba::BabaGame::new(l.level.clone(), 0);
            let mut h = std::collections::hash_map::DefaultHasher::new();
            let mut moves = 0;
            for i in &l.inputs {
                let r = g.step(*i);
                moves += 1;
                std::hash::Hash::hash(&format!("{:?} {:?}", r.changed, r.phases), &mut h);
                if matches!(g.status(), tilesmith_engine::Status::Won { .. }) {
                    break;
                }
            }
            println!(
                "{} {} {moves} {:016x}",
                l.set,
                l.id,
                std::hash::Hasher::finish(&h)
            );
        }
        return;
    }
    if std::env::args().nth(1).as_deref() == Some("hashes") {
        use tilesmith_engine::Game as _;
        for l in &levels {
            let mut g = tilesmith_engine::kind::baba::BabaGame::new(l.level.clone(), 0);
            let (mut h, mut moves) = (g.state_hash(), 0);
            for i in &l.inputs {
                g.step(*i);
                moves += 1;
                h = h.rotate_left(7) ^ g.state_hash();
                if matches!(g.status(), tilesmith_engine::Status::Won { .. }) {
                    break;
                }
            }
            println!("{} {} {moves} {h:016x}", l.set, l.id);
        }
        return;
    }
    if std::env::args().nth(1).as_deref() == Some("largest") {
        levels.sort_by_key(|l| std::cmp::Reverse(l.level.map.width() * l.level.map.height()));
        levels.truncate(10);
    }
    let moves: u64 = levels.iter().map(replay).sum();
    println!("{} levels, {moves} moves played", levels.len());
}
