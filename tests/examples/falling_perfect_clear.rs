//! Perfect clears of 200 seeded openers (issue #29, "Falling, perfect clears"): for each
//! opener of `tilesmith_tests::perfect_clear::opener` (seeds 0–199), a depth-first search over
//! the falling kind's placements for 10 that clear 4 rows and leave the field empty, played
//! through the game to a win. Prints one line per opener and the mean and maximum time.
//! Run in release: `cargo run --release -p tilesmith-tests --example falling_perfect_clear
//! [COUNT]`.

#![allow(clippy::unwrap_used)]

use std::time::Instant;

use tilesmith_engine::game::Status;
use tilesmith_engine::kind::kind_named;
use tilesmith_tests::perfect_clear::{level, opener, perfect_clear, searcher};

fn main() {
    let count: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(200);
    let falling = kind_named("falling").unwrap();
    let (mut found, mut total, mut max, mut nodes) = (0, 0.0f64, 0.0f64, 0u64);
    for seed in 0..count {
        let tumos = opener(seed);
        let doc = level(&tumos);
        let t = Instant::now();
        let mut s = searcher(&doc);
        let f = perfect_clear(&mut s, 10, 2_000_000).unwrap();
        let secs = t.elapsed().as_secs_f64();
        total += secs;
        max = max.max(secs);
        nodes += f.nodes;
        let won = f.moves.is_some() && {
            let mut g = falling.start(&doc, 0).unwrap();
            for w in &f.words {
                g.step(falling.parse_input(w).unwrap());
            }
            matches!(g.status(), Status::Won { .. })
        };
        found += u64::from(won);
        println!(
            "{seed:3} {} placements {} won {won} nodes {} {:.1} ms",
            tumos.join(""),
            f.moves.as_ref().map_or(0, Vec::len),
            f.nodes,
            secs * 1000.0
        );
    }
    println!(
        "found {found} of {count}; mean {:.1} ms, max {:.1} ms, nodes {}",
        total * 1000.0 / count as f64,
        max * 1000.0,
        nodes
    );
}
