//! Time per turn of the baba kind replaying the Keke AI Competition solutions
//! (`../shared/corpus/baba/keke/`, converted by `tilesmith_tests::keke`): each level is started
//! from its converted map and its solution played to the end, or to the win (the Keke
//! validator stops there too). Two sets: all 280 solutions, and the 10 levels of largest area
//! (width × height). Criterion reports the time per turn as the time per element (one element
//! = one move played, level starts included in the time). The comparison point, Keke's own
//! simulator replaying the same solutions under Node, is measured outside the project (it is
//! not ours to commit); method and figures in BENCHMARKS.md ("Keke replay").
//!
//! Run: `cargo bench -p tilesmith-tests --bench keke`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tilesmith_tests::corpus;
use tilesmith_tests::keke::{self, KekeLevel, load_all};

/// Plays every level's solution once; returns the moves played.
fn replay(levels: &[KekeLevel]) -> u64 {
    levels.iter().map(keke::replay).sum()
}

fn bench(c: &mut Criterion) {
    let all = load_all(&corpus("baba").join("keke"));
    // The sort is stable: among equal areas the first in file order is kept.
    let mut largest = all.clone();
    largest.sort_by_key(|l| std::cmp::Reverse(l.level.map.width() * l.level.map.height()));
    largest.truncate(10);
    for (name, set) in [("all 280", &all), ("10 largest", &largest)] {
        let moves = replay(set);
        let names: Vec<String> = set.iter().map(|l| format!("{} {}", l.set, l.id)).collect();
        println!(
            "keke replay, {name}: {} levels, {moves} moves played",
            set.len()
        );
        if set.len() <= 10 {
            println!("  levels: {}", names.join(", "));
        }
        let mut g = c.benchmark_group("keke replay");
        g.throughput(Throughput::Elements(moves));
        g.bench_function(name, |b| b.iter(|| replay(std::hint::black_box(set))));
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
