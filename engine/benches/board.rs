//! The board kind's move generator on the corpus ZRF files (`../shared/corpus/board/`):
//! perft of English checkers (depth 6, 36 768 leaves) and chess (depth 4, 197 281 leaves,
//! with the legality filter of `(checkmated King)`), and random checkers playouts (seeded
//! ChaCha8, 100 games to the end). Figures go to BENCHMARKS.md.
//!
//! Run: `cargo bench -p tilesmith-engine --bench board`.

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{Criterion, criterion_group, criterion_main};
use rand_core::SeedableRng as _;
use tilesmith_engine::kind::board::play::{Engine, PerftEnd};
use tilesmith_engine::kind::board::zrf::compile;

fn engine(file: &str) -> Engine {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/corpus/board")
        .join(file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (clone shared/ beside the project)", path.display()));
    let (rules, _) = compile(&text, None).unwrap_or_else(|p| panic!("{file}: {p:?}"));
    Engine::new(rules)
}

fn board(c: &mut Criterion) {
    let mut g = c.benchmark_group("board");
    g.sample_size(10);
    let checkers = engine("english-checkers.zrf");
    let start = checkers.initial();
    g.bench_function("checkers perft 6", |b| {
        b.iter(|| black_box(checkers.perft(&start, 6, PerftEnd::FullDepth)))
    });
    g.bench_function("checkers 100 random playouts", |b| {
        b.iter(|| {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
            for _ in 0..100 {
                black_box(checkers.random_playout(&start, &mut rng, 1000).ok());
            }
        })
    });
    let chess = engine("chess.zrf");
    let start = chess.initial();
    g.bench_function("chess perft 4", |b| {
        b.iter(|| black_box(chess.perft(&start, 4, PerftEnd::FullDepth)))
    });
    g.finish();
}

criterion_group!(benches, board);
criterion_main!(benches);
