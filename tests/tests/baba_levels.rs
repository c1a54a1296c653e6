//! The shipped baba levels in `levels/baba/`: there are at least eight, each loads without
//! errors or warnings, and each has a recorded winning replay in `tests/replays/baba/` with the
//! same stem, which replays to the recorded state (`docs/levels.md` describes each level).

// Helpers outside #[test] functions unwrap too (clippy.toml allows it only inside them); a
// panic there is a test failure like any other.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};

use tilesmith_engine::game::{Game, Status};
use tilesmith_engine::input::Input;
use tilesmith_engine::kind::baba::BabaGame;
use tilesmith_engine::load_file;
use tilesmith_engine::replay::{Replay, ReplayLevel};
use tilesmith_tests::{json_files, workspace};

fn level_files() -> Vec<PathBuf> {
    json_files(&workspace().join("levels").join("baba"))
}

fn stem(p: &Path) -> String {
    p.file_stem().unwrap().to_string_lossy().into_owned()
}

#[test]
fn there_are_at_least_eight_levels_and_they_load_cleanly() {
    let files = level_files();
    assert!(files.len() >= 8, "only {} baba levels", files.len());
    for f in &files {
        let doc = load_file(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        assert_eq!(doc.kind.name(), "baba", "{}", f.display());
        let problems = doc.check();
        assert!(problems.is_empty(), "{}: {problems:?}", f.display());
    }
}

#[test]
fn every_level_has_a_winning_replay_that_matches() {
    let dir = workspace().join("tests").join("replays").join("baba");
    for f in level_files() {
        let r = dir.join(format!("{}.json", stem(&f)));
        let replay = Replay::load(&r).unwrap_or_else(|e| panic!("{}: {e}", r.display()));
        match &replay.level {
            ReplayLevel::Path(p) => assert_eq!(
                p.canonicalize().unwrap(),
                f.canonicalize().unwrap(),
                "{} replays another level",
                r.display()
            ),
            ReplayLevel::Embedded(_) => panic!("{} embeds its level", r.display()),
        }
        assert!(replay.hash.is_some(), "{} has no hash", r.display());
        let outcome = replay
            .run()
            .unwrap_or_else(|e| panic!("{}: {e}", r.display()));
        assert!(
            matches!(outcome.game.status(), Status::Won { .. }),
            "{} does not win: {}",
            r.display(),
            outcome.game.summary()
        );
        assert!(
            outcome.matches,
            "{} no longer matches its recorded state",
            r.display()
        );
    }
}

#[test]
fn replays_are_not_won_before_their_last_input_and_undo_restores_exactly() {
    let dir = workspace().join("tests").join("replays").join("baba");
    for f in level_files() {
        let r = dir.join(format!("{}.json", stem(&f)));
        let replay = Replay::load(&r).unwrap();
        let doc = load_file(&f).unwrap();
        let level = tilesmith_engine::kind::baba::BabaLevel::from_json(&doc.value).unwrap();
        let mut g = BabaGame::new(level, replay.seed);
        let mut hashes = vec![g.state_hash()];
        for (k, i) in replay.inputs.iter().enumerate() {
            assert!(
                !g.status().is_over(),
                "{}: over before input {k}",
                r.display()
            );
            g.step(*i);
            hashes.push(g.state_hash());
        }
        // Undo walks back through exactly the same states; restart returns to the start.
        for k in (0..replay.inputs.len()).rev() {
            g.step(Input::Undo);
            assert_eq!(g.state_hash(), hashes[k], "{}: undo to {k}", r.display());
        }
        for i in &replay.inputs {
            g.step(*i);
        }
        g.step(Input::Restart);
        assert_eq!(g.state_hash(), hashes[0]);
        assert_eq!(g.turn(), 0);
        assert!(g.redo());
        assert_eq!(g.state_hash(), hashes[1]);
    }
}

/// The game's view of rules and unused text (what the editor's play pane and canvas show)
/// agrees, turn by turn, with the same state written out as a level and read as a design.
#[test]
fn the_games_rules_and_unused_text_match_its_state_as_a_level_every_turn() {
    let dir = workspace().join("tests").join("replays").join("baba");
    let mut unused_seen = 0;
    for f in level_files() {
        let replay = Replay::load(&dir.join(format!("{}.json", stem(&f)))).unwrap();
        let doc = load_file(&f).unwrap();
        let level = tilesmith_engine::kind::baba::BabaLevel::from_json(&doc.value).unwrap();
        let mut g = BabaGame::new(level, replay.seed);
        for (k, i) in std::iter::once(None)
            .chain(replay.inputs.iter().map(Some))
            .enumerate()
        {
            if let Some(i) = i {
                g.step(*i);
            }
            let as_level = g.to_baba_level();
            let texts = |r: &[tilesmith_engine::kind::baba::rules::FormedRule]| {
                r.iter().map(|r| r.text.to_string()).collect::<Vec<_>>()
            };
            assert_eq!(
                texts(g.rules()),
                texts(&as_level.rules()),
                "{}: rules after {k} inputs",
                f.display()
            );
            assert_eq!(
                g.unused_text(),
                as_level.unused_text(),
                "{}: unused text after {k} inputs",
                f.display()
            );
            unused_seen += g.unused_text().len();
        }
    }
    assert!(
        unused_seen > 0,
        "some level has text that forms no rule on some turn"
    );
}
