//! Campaigns (issue 12; spec boulder §2, §2.1, §5; docs/campaign.md) on real levels: the points
//! each kind gives for a finished game, worked out from the spec and the levels' own numbers;
//! `check_file` on campaigns with a missing level, a broken level and an unreachable threshold;
//! the shipped `levels/campaign.json` checked, validated by its schema and played through from
//! nothing with recorded solutions, each level opening only when its points are there.

// Helpers outside #[test] functions unwrap too (clippy.toml allows it only inside them); a
// panic there is a test failure like any other.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};

use jsonschema::Validator;
use serde_json::{Value, json};
use tilesmith_engine::campaign::{
    self, Campaign, Progress, check_file, default_progress_path, entry_path_for, resolve_entry,
};
use tilesmith_engine::input::{InputError, split_inputs};
use tilesmith_engine::replay::play_words;
use tilesmith_engine::{Game, Status, load_file};
use tilesmith_tests::workspace;

fn level(rel: &str) -> PathBuf {
    workspace().join("levels").join(rel)
}

/// Starts the level file `path` (seed 0) and plays `words` (each word read where it is
/// played, as `tilesmith run` does) until they are used up or the game is over.
fn play(path: &Path, words: &str) -> Box<dyn Game> {
    let doc = load_file(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut g = doc.start(0).unwrap();
    let runs = split_inputs(words).unwrap();
    let n = runs.iter().map(|r| r.count).sum();
    // Words after the game ended are refused (the game stays as it ended).
    if let Err(e) = play_words(g.as_mut(), &runs, n, None) {
        assert!(matches!(e, InputError::GameOver { .. }), "{e}");
    }
    g
}

/// The inputs of the recorded replay `tests/replays/KIND/STEM.json`.
fn replay_words(kind_stem: &str) -> String {
    let r = workspace()
        .join("tests/replays")
        .join(format!("{kind_stem}.json"));
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&r).unwrap()).unwrap();
    v["inputs"].as_str().unwrap().to_string()
}

fn max_points(path: &Path) -> u32 {
    campaign::max_points(&load_file(path).unwrap())
}

/// Spec boulder §5 (suggested reading) and §6 W4: the largest k with gems ≥ gems[k−1] and
/// ticks ≤ ticks[k−1], else 0; written here independently of the engine.
fn spec_points(gems: u64, ticks: u64, level: &Value) -> u32 {
    let g: Vec<u64> = level["gems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    let t: Vec<u64> = level["ticks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    (1..=3)
        .rev()
        .find(|&k| gems >= g[k - 1] && ticks <= t[k - 1])
        .unwrap_or(0) as u32
}

#[test]
fn a_boulder_level_gives_one_to_three_points_by_its_gems_and_ticks() {
    let path = level("boulder/welcome.json");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    // The level's thresholds: 4, 6, 8 gems and 600, 200, 80 ticks for 1, 2, 3 points.
    assert_eq!(doc["gems"], json!([4, 6, 8]));
    assert_eq!(doc["ticks"], json!([600, 200, 80]));
    assert_eq!(max_points(&path), 3, "spec §5 item 5: 1 to 3 points");
    let solution = replay_words("boulder/welcome");
    // The recorded solution collects all 8 gems in 44 ticks: within the 3-point limits. The
    // same moves after waiting take longer: 144 ticks (2 points: ≤ 200 but > 80), 344 ticks
    // (1 point: ≤ 600), 644 ticks (over 600: the time ran out, §6 W2, no points).
    for (wait, ticks, points) in [(0, 44, 3), (100, 144, 2), (300, 344, 1)] {
        let words = format!(".*{wait} {solution}");
        let g = play(&path, if wait == 0 { &solution } else { &words });
        let s = g.summary();
        assert_eq!(
            (s["gems"].as_u64(), s["ticks"].as_u64()),
            (Some(8), Some(ticks))
        );
        assert_eq!(spec_points(8, ticks, &doc), points);
        assert_eq!(g.status(), Status::won(points), "waiting {wait}");
        assert_eq!(g.points_earned(), points, "waiting {wait}");
    }
    let g = play(&path, &format!(".*600 {solution}"));
    assert!(
        matches!(g.status(), Status::Lost { .. }),
        "{:?}",
        g.status()
    );
    assert_eq!(g.points_earned(), 0);
    // Spec §5 item 6 with these games: passes of 3, then 1, keep 3; the fewest ticks too.
    let mut p = Progress::default();
    assert!(p.record_game("welcome.json", play(&path, &solution).as_ref()));
    let slow = play(&path, &format!(".*300 {solution}"));
    assert!(!p.record_game("welcome.json", slow.as_ref()));
    assert_eq!(p.best_points("welcome.json"), 3);
    assert_eq!(p.best("welcome.json").unwrap().steps, Some(44));
}

#[test]
fn baba_falling_and_board_levels_give_one_point_for_a_win() {
    // Baba: a won level is 1 point (issue 12).
    let path = level("baba/first-words.json");
    assert_eq!(max_points(&path), 1);
    let g = play(&path, &replay_words("baba/first-words"));
    assert_eq!(g.status().word(), "won");
    assert_eq!(g.points_earned(), 1);
    assert_eq!(play(&path, "L").points_earned(), 0, "not won yet");

    // Falling: a level with a goal gives 1 when the goal is reached; without a goal the
    // level can only be lost, so it gives at most 0.
    let path = level("falling/tetris-rows-puzzle.json");
    assert_eq!(max_points(&path), 1);
    let g = play(&path, &replay_words("falling/tetris-rows-puzzle"));
    assert_eq!(g.status().word(), "won");
    assert_eq!(g.points_earned(), 1);
    let path = level("falling/tetris.json");
    assert_eq!(max_points(&path), 0);
    assert_eq!(
        play(&path, &replay_words("falling/tetris")).points_earned(),
        0
    );

    // Board: 1 when the side to move at the start wins. "X to win in one": @c3 wins for X.
    let path = level("board/tic-tac-toe-x-to-win.json");
    assert_eq!(max_points(&path), 1);
    let g = play(&path, "@c3");
    assert_eq!(
        g.status(),
        Status::Won {
            points: 1,
            winner: Some("X".into())
        }
    );
    assert_eq!(g.points_earned(), 1);
    // A one-player puzzle solved: Fifteen two slides from solved (docs/board-levels.md).
    let g = play(&level("board/fifteen-two-slides.json"), "c1-b1 d1-c1");
    assert_eq!(g.status().word(), "won");
    assert_eq!(g.points_earned(), 1);
    // The whole game from its rules file: X moves first, so X's win gives 1 and O's 0
    // (the same games as board_levels.rs).
    let ttt = level("board/tic-tac-toe.zrf");
    assert_eq!(play(&ttt, "@a1 @a2 @b2 @a3 @c3").points_earned(), 1);
    let g = play(&ttt, "@a1 @b1 @c3 @b2 @a3 @b3");
    assert_eq!(
        g.status(),
        Status::Won {
            points: 1,
            winner: Some("O".into())
        }
    );
    assert_eq!(g.points_earned(), 0, "won by the other side");
    // A position with O to move: O is the campaign's player there.
    let dir = tempfile::tempdir().unwrap();
    let o_level = dir.path().join("o-to-win.json");
    let text = json!({
        "kind": "board",
        "rules": ttt.to_str().unwrap(),
        "setup": {"O": {"Man": ["a1", "a2"]}, "X": {"Man": ["b1", "b2"]}},
        "reserve": {"X": {"Man": 3}, "O": {"Man": 3}},
        "to_move": "O"
    });
    std::fs::write(&o_level, text.to_string()).unwrap();
    let g = play(&o_level, "@a3");
    assert_eq!(
        g.status(),
        Status::Won {
            points: 1,
            winner: Some("O".into())
        }
    );
    assert_eq!(g.points_earned(), 1);
}

/// A campaign file in `dir` naming the given levels (paths relative to it) and thresholds.
fn write_campaign(dir: &Path, entries: &[(&str, u32)]) -> PathBuf {
    let file = dir.join("tour.json");
    let levels: Vec<Value> = entries
        .iter()
        .map(|(p, u)| json!({"path": p, "unlock": u}))
        .collect();
    let c = json!({"kind": "campaign", "title": "t", "levels": levels});
    std::fs::write(&file, tilesmith_engine::json_text::layout(&c)).unwrap();
    file
}

#[test]
fn check_reports_missing_and_broken_levels_and_unreachable_thresholds_where_they_are() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tour.json");
    let welcome = entry_path_for(&file, &level("boulder/welcome.json")).unwrap();
    let words = entry_path_for(&file, &level("baba/first-words.json")).unwrap();
    assert_eq!(
        resolve_entry(&file, &welcome).canonicalize().unwrap(),
        level("boulder/welcome.json").canonicalize().unwrap()
    );
    // A boulder level missing its width, height and map.
    std::fs::write(dir.path().join("broken.json"), "{\"kind\": \"boulder\"}").unwrap();
    // Entries: welcome (3 points at most), first-words (1), a missing file, the broken
    // level, then a threshold of 5 with at most 3 + 1 available above it.
    let file = write_campaign(
        dir.path(),
        &[
            (&welcome, 0),
            (&words, 3),
            ("gone.json", 0),
            ("broken.json", 0),
            ("last.json", 5),
        ],
    );
    std::fs::copy(level("baba/first-words.json"), dir.path().join("last.json")).unwrap();
    let problems = check_file(&file);
    let lines: Vec<String> = problems.iter().map(|p| p.render()).collect();
    let tour = file.display().to_string();
    let errors_in = |f: &str| {
        problems
            .iter()
            .filter(|p| p.problem.is_error() && p.file.display().to_string() == f)
            .count()
    };
    // Line 1 `{`, 2 kind, 3 title, 4 `"levels": [`, then one entry per line from line 5,
    // each `    {"path": …` (the file style: `: ` after a key): the path value at column 14.
    let gone = lines
        .iter()
        .find(|l| l.contains("level 2 (\"gone.json\")"))
        .unwrap_or_else(|| panic!("{lines:#?}"));
    assert!(gone.starts_with(&format!("{tour}:7:14: ")), "{gone}");
    assert!(gone.ends_with("(at $.levels[2].path)"), "{gone}");
    let broken = lines
        .iter()
        .find(|l| l.contains("level 3 (\"broken.json\")"))
        .unwrap();
    assert!(broken.starts_with(&format!("{tour}:8:14: ")), "{broken}");
    // The broken level's own problems, in its own file.
    let broken_file = dir.path().join("broken.json").display().to_string();
    assert!(errors_in(&broken_file) >= 3, "{lines:#?}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with(&broken_file) && l.contains("\"width\" is missing"))
    );
    // The missing file: one problem in it, at 1:1.
    let gone_file = dir.path().join("gone.json").display().to_string();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with(&format!("{gone_file}:1:1: cannot read the level")))
    );
    // The threshold: 5 > 3 + 1 + 0 + 0. The 3 of first-words is reachable (welcome gives 3).
    let threshold: Vec<&String> = lines.iter().filter(|l| l.contains("to unlock")).collect();
    assert_eq!(threshold.len(), 1, "{lines:#?}");
    assert!(
        threshold[0].starts_with(&format!("{tour}:9:")),
        "{}",
        threshold[0]
    );
    assert!(threshold[0].contains("needs 5 point(s)") && threshold[0].contains("at most 4"));
    assert!(threshold[0].ends_with("(at $.levels[4].unlock)"));
    // The campaign's errors come first, in file order.
    assert_eq!(errors_in(&tour), 3);
    assert!(problems[..3].iter().all(|p| p.file == file));

    // Per entry, for the overview: what loads and what each can give.
    let c = Campaign::load(&file).unwrap();
    let checks = c.check_entries(&file);
    let max: Vec<Option<u32>> = checks.iter().map(|c| c.max_points).collect();
    assert_eq!(max, [Some(3), Some(1), None, None, Some(1)]);
    assert!(checks[2].has_errors() && checks[3].has_errors() && !checks[0].has_errors());

    // Fixed: nothing is reported.
    let file = write_campaign(dir.path(), &[(&welcome, 0), (&words, 3), ("last.json", 4)]);
    assert_eq!(check_file(&file), []);
}

/// A winning input text for every level of the shipped campaign: the recorded replays of
/// tests/replays, and for board levels the solutions of docs/board-levels.md and
/// board_levels.rs.
fn solution(entry: &str) -> String {
    match entry {
        "board/tic-tac-toe-x-to-win.json" => "@c3".into(),
        "board/fifteen-two-slides.json" => "c1-b1 d1-c1".into(),
        "board/rotate-three.zrf" => "a1-b1 c3-b3 a1-b1 a3-a2 c2-b2 c2-c3".into(),
        other => replay_words(other.trim_end_matches(".json")),
    }
}

#[test]
fn the_shipped_campaign_checks_clean_and_plays_through_from_nothing() {
    let file = level("campaign.json");
    let problems: Vec<String> = check_file(&file).iter().map(|p| p.render()).collect();
    assert_eq!(problems, Vec::<String>::new());
    let c = Campaign::load(&file).unwrap();
    // Every kind is in it, and levels open step by step.
    for kind in ["boulder/", "baba/", "falling/", "board/"] {
        assert!(c.entries.iter().any(|e| e.path.starts_with(kind)), "{kind}");
    }
    assert!(c.entries.iter().filter(|e| e.unlock > 0).count() >= 10);
    // With no progress, only the first two (unlock 0) are open.
    let open: Vec<usize> = (0..c.entries.len())
        .filter(|&i| c.is_unlocked(i, &Progress::default()))
        .collect();
    assert_eq!(open, [0, 1]);
    let dir = tempfile::tempdir().unwrap();
    let progress_file = dir.path().join("tour.progress.json");
    let mut expected_total = 0;
    for (i, e) in c.entries.iter().enumerate() {
        let progress = Progress::load(&progress_file).unwrap();
        assert!(
            c.is_unlocked(i, &progress),
            "level {i} {} is locked",
            e.path
        );
        let g = play(&resolve_entry(&file, &e.path), &solution(&e.path));
        let max = max_points(&resolve_entry(&file, &e.path));
        assert_eq!(g.points_earned(), max, "{} is won with full points", e.path);
        let mut progress = progress;
        assert!(progress.record_game(&e.path, g.as_ref()));
        progress.save(&progress_file).unwrap();
        expected_total += u64::from(max);
    }
    let progress = Progress::load(&progress_file).unwrap();
    // 6 boulder levels of 3 points and 11 others of 1.
    assert_eq!(c.total_points(&progress), 6 * 3 + 11);
    assert_eq!(c.total_points(&progress), expected_total);
    assert_eq!(
        default_progress_path(&file),
        level("campaign.progress.json")
    );
}

fn schema(name: &str) -> Validator {
    let text = std::fs::read_to_string(workspace().join("schemas").join(name)).unwrap();
    jsonschema::draft202012::new(&serde_json::from_str::<Value>(&text).unwrap())
        .unwrap_or_else(|e| panic!("schemas/{name} does not compile: {e}"))
}

#[test]
fn the_schemas_accept_the_shipped_and_saved_files_and_what_the_engine_rejects_they_reject() {
    let cs = schema("campaign.schema.json");
    let shipped: Value =
        serde_json::from_str(&std::fs::read_to_string(level("campaign.json")).unwrap()).unwrap();
    let errors: Vec<String> = cs.iter_errors(&shipped).map(|e| e.to_string()).collect();
    assert_eq!(errors, Vec::<String>::new());
    assert!(cs.is_valid(&Campaign::from_json(&shipped).unwrap().to_json()));
    let bad = [
        json!({"levels": []}),
        json!({"kind": "boulder", "levels": []}),
        json!({"kind": "campaign"}),
        json!({"kind": "campaign", "title": 3, "levels": []}),
        json!({"kind": "campaign", "levels": [{"unlock": 0}]}),
        json!({"kind": "campaign", "levels": [{"path": ""}]}),
        json!({"kind": "campaign", "levels": [{"path": "/abs.json"}]}),
        json!({"kind": "campaign", "levels": [{"path": "C:/x.json"}]}),
        json!({"kind": "campaign", "levels": [{"path": "a\\b.json"}]}),
        json!({"kind": "campaign", "levels": [{"path": "./"}]}),
        json!({"kind": "campaign", "levels": [{"path": "a.json", "unlock": -1}]}),
        json!({"kind": "campaign", "levels": [{"path": "a.json", "unlock": 1.5}]}),
        json!({"kind": "campaign", "levels": [{"path": "a.json", "unlock": 4294967296u64}]}),
    ];
    for doc in &bad {
        assert!(!cs.is_valid(doc), "the schema accepts {doc}");
        assert!(
            Campaign::from_json(doc).is_err(),
            "the engine accepts {doc}"
        );
    }
    let ok = json!({"kind": "CAMPAIGN", "levels": [{"path": "../a.json", "x": 1}], "y": []});
    assert!(cs.is_valid(&ok) && Campaign::from_json(&ok).is_ok());

    let ps = schema("campaign-progress.schema.json");
    let mut p = Progress::default();
    p.record("boulder/welcome.json", 3, 44);
    p.record("baba/first-words.json", 1, 6);
    assert!(ps.is_valid(&p.to_json()), "{}", p.to_json());
    for doc in [
        json!({"kind": "campaign", "levels": {}}),
        json!({"levels": []}),
        json!({"levels": {"a.json": 3}}),
        json!({"levels": {"a.json": {"steps": 3}}}),
        json!({"levels": {"a.json": {"points": -1}}}),
        json!({"levels": {"a.json": {"points": 1, "steps": "9"}}}),
    ] {
        assert!(!ps.is_valid(&doc), "the schema accepts {doc}");
        assert!(
            Progress::from_json(&doc).is_err(),
            "the engine accepts {doc}"
        );
    }
}

#[test]
fn the_same_level_named_through_a_parent_folder_is_caught() {
    // `baba/../boulder/welcome.json` is `boulder/welcome.json` (resolve_entry reads `..` as
    // the folder above): listed twice, the second is an error at its path.
    let text = r#"{"kind": "campaign", "levels": [
        {"path": "boulder/welcome.json"},
        {"path": "baba/../boulder/welcome.json"}]}"#;
    let p = Campaign::parse(text).unwrap_err();
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(
        p[0].message.contains("same file as level 0"),
        "{}",
        p[0].message
    );
    assert_eq!(p[0].line, Some(3));
    // A `..` above the campaign's folder is not folded away: `../x.json` and `x.json` differ.
    let ok = r#"{"kind": "campaign", "levels": [{"path": "x.json"}, {"path": "../x.json"}]}"#;
    assert_eq!(Campaign::parse(ok).unwrap().entries.len(), 2);
    // `a/..` names the campaign's folder, not a level.
    let folder = r#"{"kind": "campaign", "levels": [{"path": "a/.."}]}"#;
    let p = Campaign::parse(folder).unwrap_err();
    assert!(p[0].message.contains("names a folder"), "{}", p[0].message);
    // The progress of the entry is found under either spelling, and recorded once.
    let mut progress = Progress::default();
    assert!(progress.record("baba/../boulder/welcome.json", 2, 40));
    assert_eq!(progress.best_points("boulder/welcome.json"), 2);
    assert!(!progress.record("boulder/./welcome.json", 1, 50));
    assert_eq!(progress.levels.len(), 1);
}

#[test]
fn recorded_points_count_at_most_what_the_level_can_earn() {
    // A baba level earns at most 1 point, a boulder level 3 (docs/campaign.md "Points per
    // kind"); a progress file claiming 99 for each counts 1 and 3. An entry whose file is
    // missing counts at most MAX_LEVEL_POINTS = 3.
    let dir = tempfile::tempdir().unwrap();
    let baba = level("baba/first-words.json");
    let boulder = level("boulder/welcome.json");
    let rel = |p: &Path| entry_path_for(&dir.path().join("tour.json"), p).unwrap();
    let (a, b) = (rel(&baba), rel(&boulder));
    let file = write_campaign(
        dir.path(),
        &[(&a, 0), (&b, 0), ("gone.json", 0), ("x.json", 7)],
    );
    let c = Campaign::load(&file).unwrap();
    let progress = Progress::parse(
        &json!({"kind": "campaign-progress", "levels": {
            a.clone(): {"points": 99}, b.clone(): {"points": 99}, "gone.json": {"points": 99}
        }})
        .to_string(),
    )
    .unwrap();
    let caps = c.level_max_points(&file);
    assert_eq!(caps[..3], [Some(1), Some(3), None]);
    assert_eq!(c.points_above_capped(3, &progress, &caps), 1 + 3 + 3);
    assert_eq!(c.points_above_capped(1, &progress, &caps), 1);
    // Without the levels' own caps, each counts at most 3.
    assert_eq!(c.points_above(3, &progress), 3 + 3 + 3);
    assert_eq!(c.total_points(&progress), 9);
    assert!(c.is_unlocked(3, &progress), "9 ≥ 7");
}

#[test]
fn merging_progress_keeps_the_best_of_each_level() {
    // Spec §5 item 6: per level the most points and, separately, the fewest steps.
    let mine = json!({"kind": "campaign-progress", "levels": {
        "a.json": {"points": 2, "steps": 30}, "b.json": {"points": 1}}});
    let theirs = json!({"kind": "campaign-progress", "levels": {
        "a.json": {"points": 1, "steps": 12}, "./c.json": {"points": 3, "steps": 9}},
        "player": "kept"});
    let mut p = Progress::from_json(&mine).unwrap();
    assert!(p.merge(&Progress::from_json(&theirs).unwrap()));
    let a = p.best("a.json").unwrap();
    assert_eq!((a.points, a.steps), (2, Some(12)));
    assert_eq!(p.best("b.json").unwrap().points, 1);
    assert_eq!(p.best("c.json").unwrap().points, 3);
    assert_eq!(p.kept.get("player"), Some(&json!("kept")));
    // Merging again changes nothing.
    assert!(!p.merge(&Progress::from_json(&theirs).unwrap()));
}
