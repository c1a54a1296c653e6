//! Replays every Keke AI Competition solution (`../shared/corpus/baba/keke/`) once, as the
//! `keke` bench does for one iteration, and prints the moves played. A fixed amount of work
//! for profilers whose counts must not depend on timing:
//!
//! `cargo build --release -p tilesmith-tests --example keke_replay && valgrind --tool=callgrind
//! target/release/examples/keke_replay`
//!
//! An argument `largest` replays only the 10 levels of largest area (the bench's second set).

use std::hint::black_box;

use tilesmith_engine::kind::baba::BabaGame;
use tilesmith_engine::{Game, Status};
use tilesmith_tests::corpus;
use tilesmith_tests::keke::load_all;

fn main() {
    let mut levels = load_all(&corpus("baba").join("keke"));
    if std::env::args().nth(1).as_deref() == Some("largest") {
        levels.sort_by_key(|l| std::cmp::Reverse(l.level.map.width() * l.level.map.height()));
        levels.truncate(10);
    }
    let mut moves = 0u64;
    for l in &levels {
        let mut g = BabaGame::new(l.level.clone(), 0);
        for i in &l.inputs {
            g.step(*i);
            moves += 1;
            if matches!(g.status(), Status::Won { .. }) {
                break;
            }
        }
        black_box(&g);
    }
    println!("{} levels, {moves} moves played", levels.len());
}
