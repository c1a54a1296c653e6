//! Breadth-first search against A* (and IDA*) on boulder levels (issue #29): for each level
//! file given, each algorithm with the same time budget, one thread, one line each:
//! `file algorithm result steps states seconds depth` and the start's estimate and which of
//! its bounds the level's rules leave standing. Every solution found is played through a
//! fresh game and must win. Figures for BENCHMARKS.md ("A* and IDA*, boulder"):
//!
//! `cargo run --release -p tilesmith-tests --example boulder_solve -- SECONDS [--ida] FILE…`

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use tilesmith_engine::kind::boulder::BoulderLevel;
use tilesmith_engine::kind::boulder::game::{BoulderGame, Safety};
use tilesmith_engine::search::bfs::{Answer, Limits};
use tilesmith_engine::search::{Algorithm, solve};
use tilesmith_engine::{Game as _, Status};

fn main() {
    let mut args = std::env::args().skip(1);
    let seconds: f64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(10.0);
    let mut files: Vec<PathBuf> = Vec::new();
    let mut algorithms = vec![Algorithm::Bfs, Algorithm::AStar];
    for a in args {
        if a == "--ida" {
            algorithms.push(Algorithm::Ida);
        } else {
            files.push(a.into());
        }
    }
    for file in &files {
        let name = file.file_name().map_or(String::new(), |n| {
            n.to_string_lossy().trim_end_matches(".json").to_string()
        });
        let Some(level) = load(file) else {
            println!("{name} not-a-boulder-level-here");
            continue;
        };
        let safety = Safety::of(&level);
        let game = BoulderGame::new(level.clone(), 0);
        for &algorithm in &algorithms {
            let Some(mut g) = game.searcher() else {
                continue;
            };
            let h = g.estimate();
            let limits = Limits {
                time: Some(Duration::from_secs_f64(seconds)),
                ..Limits::default()
            };
            let cancel = AtomicBool::new(false);
            let out =
                match solve::solve_with(g.as_mut(), Some(algorithm), &limits, &cancel, &mut |_| {})
                {
                    Ok(solve::Outcome::OnePlayer(o)) => o,
                    Ok(_) => continue,
                    Err(e) => {
                        println!("{name} {} error {e}", algorithm.word());
                        continue;
                    }
                };
            let (steps, result) = match &out.answer {
                Answer::Solved(s) => {
                    let mut played = BoulderGame::new(level.clone(), 0);
                    let kind = played.kind();
                    let inputs = tilesmith_engine::parse_inputs(kind, &s.words.join(" "))
                        .unwrap_or_default();
                    for i in inputs {
                        played.step(i);
                    }
                    assert!(
                        matches!(played.status(), Status::Won { .. }),
                        "{name}: the solution found does not win"
                    );
                    let proved = if s.shortest { "shortest" } else { "not-proved" };
                    (s.moves.len().to_string(), format!("solved-{proved}"))
                }
                Answer::Unsolvable => ("-".into(), "unsolvable".into()),
                Answer::Unknown(b) => ("-".into(), format!("unknown-{}", b.word())),
            };
            println!(
                "{name} {} {result} {steps} {} {:.3} {} h0={} dist={} gems={} ticks={}",
                algorithm.word(),
                out.states,
                out.elapsed.as_secs_f64(),
                out.depth,
                h.map_or("none".into(), |h| h.to_string()),
                safety.distance,
                safety.gems,
                safety.ticks
            );
        }
    }
}

/// The boulder level in `file`, if it is one this engine reads.
fn load(file: &std::path::Path) -> Option<BoulderLevel> {
    let text = std::fs::read_to_string(file).ok()?;
    let doc: serde_json::Value = serde_json::from_str(&text).ok()?;
    BoulderLevel::from_json(&doc).ok()
}
