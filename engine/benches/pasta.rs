//! The Pasta Logic kind through the shared search (issue #28 "Performance"): random
//! playouts to the end of the game (decisions per second, both players' decisions, the
//! repetition rule kept as the game keeps it), from the shipped program after placement
//! (`levels/pasta/program-after-placement.json`, execution phase) and from drawn setups
//! (`levels/pasta/full-game.json`, placement first); and alpha-beta's nodes per second
//! (positions visited, as `tilesmith solve` counts them) from the program after placement
//! to 7 plies. Figures go to BENCHMARKS.md.
//!
//! Run: `cargo bench -p tilesmith-engine --bench pasta`.

use std::hint::black_box;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tilesmith_engine::search::alphabeta;
use tilesmith_engine::search::playout::random_playouts;
use tilesmith_engine::search_game::SearchGame;

fn searcher(file: &str, seed: u64) -> Box<dyn SearchGame> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../levels/pasta")
        .join(file);
    let doc =
        tilesmith_engine::load_file(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let game = doc.start(seed).expect("the level starts");
    game.searcher().expect("pasta offers search")
}

/// Playouts a sample plays, each to the end (the cap of 100 000 decisions is never reached:
/// every game ends by A17's lap or the repetition rule).
const PLAYOUTS: u64 = 200;
const CAP: u32 = 100_000;

fn pasta(c: &mut Criterion) {
    let mut g = c.benchmark_group("pasta");
    g.sample_size(10);
    for (label, file) in [
        ("after placement", "program-after-placement.json"),
        ("full game", "full-game.json"),
    ] {
        let root = searcher(file, 1);
        let decisions = random_playouts(root.as_ref(), PLAYOUTS, 7, CAP).expect("playouts");
        eprintln!(
            "pasta {label}: {:.1} decisions per random game",
            decisions as f64 / PLAYOUTS as f64
        );
        g.throughput(Throughput::Elements(decisions));
        g.bench_function(format!("{label}: {PLAYOUTS} random playouts"), |b| {
            b.iter(|| black_box(random_playouts(root.as_ref(), PLAYOUTS, 7, CAP).ok()))
        });
    }
    let limits = alphabeta::Limits {
        max_plies: 7,
        ..alphabeta::Limits::default()
    };
    let cancel = AtomicBool::new(false);
    let mut root = searcher("program-after-placement.json", 0);
    let nodes = alphabeta::value(root.as_mut(), &limits, &cancel, &mut |_| {})
        .expect("the search runs")
        .states;
    eprintln!("pasta alpha-beta to 7 plies: {nodes} positions");
    g.throughput(Throughput::Elements(nodes));
    g.bench_function("alpha-beta 7 plies after placement", |b| {
        b.iter(|| black_box(alphabeta::value(root.as_mut(), &limits, &cancel, &mut |_| {}).ok()))
    });
    g.finish();
}

criterion_group!(benches, pasta);
criterion_main!(benches);
