//! The board kind's move generator on the corpus ZRF files (`../shared/corpus/board/`):
//! perft of English checkers (depth 6, 36 768 leaves) and chess (depth 4, 197 281 leaves,
//! with the legality filter of `(checkmated King)`), random playouts to the end of the game
//! (seeded ChaCha8, 100 games) of checkers and of Reversi (`levels/board/reversi.zrf`, flips
//! written in ZRF), and the computer opponent's search (the shared MCTS, 200 iterations from the
//! checkers start), and the shared search's random playouts (`tilesmith playouts`) of Chinese
//! checkers (chains of jumps) and chess (a king to keep safe). Figures go to BENCHMARKS.md.
//!
//! Run: `cargo bench -p tilesmith-engine --bench board`.

use std::hint::black_box;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use criterion::{Criterion, criterion_group, criterion_main};
use rand_core::SeedableRng as _;
use tilesmith_engine::kind::board::play::searcher::BoardSearch;
use tilesmith_engine::kind::board::play::{Engine, PerftEnd};
use tilesmith_engine::kind::board::zrf::compile;
use tilesmith_engine::search::mcts::{SearchLimits, search};
use tilesmith_engine::search::playout::random_playouts;

fn engine_at(path: PathBuf) -> Engine {
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (clone shared/ beside the project)", path.display()));
    let (rules, _) = compile(&text, None).unwrap_or_else(|p| panic!("{}: {p:?}", path.display()));
    Engine::new(rules)
}

fn engine(file: &str) -> Engine {
    engine_at(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../shared/corpus/board")
            .join(file),
    )
}

fn level(file: &str) -> Engine {
    engine_at(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../levels/board")
            .join(file),
    )
}

/// 100 random playouts from the start, each to the end of the game; asserts that every one
/// ended (none cut off by the 1000-ply limit), so the figure is of whole games.
fn playouts(e: &Engine) {
    let start = e.initial();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    for _ in 0..100 {
        let p = e
            .random_playout(&start, &mut rng, 1000)
            .expect("the playout generates");
        assert!(p.outcome.is_some(), "a playout ran 1000 plies");
        black_box(p);
    }
}

/// The mean number of turns of the 100 games [`playouts`] plays, printed with the figures.
fn mean_plies(e: &Engine) -> f64 {
    let start = e.initial();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let total: u64 = (0..100)
        .map(|_| {
            e.random_playout(&start, &mut rng, 1000)
                .map_or(0, |p| u64::from(p.plies))
        })
        .sum();
    total as f64 / 100.0
}

fn board(c: &mut Criterion) {
    let mut g = c.benchmark_group("board");
    g.sample_size(10);
    let checkers = engine("english-checkers.zrf");
    let start = checkers.initial();
    g.bench_function("checkers perft 6", |b| {
        b.iter(|| black_box(checkers.perft(&start, 6, PerftEnd::FullDepth)))
    });
    eprintln!(
        "checkers: {:.1} turns per random game",
        mean_plies(&checkers)
    );
    g.bench_function("checkers 100 random playouts", |b| {
        b.iter(|| playouts(&checkers))
    });
    let reversi = level("reversi.zrf");
    eprintln!("reversi: {:.1} turns per random game", mean_plies(&reversi));
    g.bench_function("reversi 100 random playouts", |b| {
        b.iter(|| playouts(&reversi))
    });
    g.bench_function("checkers search 200 iterations", |b| {
        let limits = SearchLimits {
            time: None,
            iterations: Some(200),
            ..SearchLimits::default()
        };
        let cancel = AtomicBool::new(false);
        let root = BoardSearch::new(std::sync::Arc::new(checkers.clone()), start.clone());
        b.iter(|| black_box(search(&root, &limits, &cancel, &mut |_| {}).ok()))
    });
    let chess = engine("chess.zrf");
    let start = chess.initial();
    g.bench_function("chess perft 4", |b| {
        b.iter(|| black_box(chess.perft(&start, 4, PerftEnd::FullDepth)))
    });
    // The playouts of `tilesmith playouts` (the shared search's, one turn drawn a ply):
    // Chinese checkers' jumps hand each position over to the full expansion, chess draws by
    // rejection.
    for (name, e, count) in [
        ("chinese checkers", engine("chinese-checkers.zrf"), 1000),
        ("chess", chess, 20),
    ] {
        let root = BoardSearch::new(std::sync::Arc::new(e.clone()), e.initial());
        g.bench_function(format!("{name} {count} search playouts"), |b| {
            b.iter(|| black_box(random_playouts(&root, count, 1, 1000).ok()))
        });
    }
    g.finish();
}

criterion_group!(benches, board);
criterion_main!(benches);
