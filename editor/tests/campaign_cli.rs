//! The campaign commands as a user runs them (docs/campaign.md): `tilesmith check CAMPAIGN`
//! with located messages and exit codes, and `tilesmith run CAMPAIGN --play INDEX`: the level's
//! summary line, a locked level refused with what it needs, best points recorded in the
//! progress file beside the campaign or at `--progress`, a bad progress file refused and kept.
//! Points are worked out from spec boulder §5 and the levels' own thresholds.

#![allow(clippy::unwrap_used)] // test helpers panic on purpose when a fixture is wrong

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};
use tilesmith_engine::campaign::entry_path_for;

fn tilesmith(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tilesmith"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn levels() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../levels")
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The inputs of the recorded replay `tests/replays/KIND/STEM.json`.
fn replay_words(kind_stem: &str) -> String {
    let r = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/replays")
        .join(format!("{kind_stem}.json"));
    let v: Value = serde_json::from_str(&std::fs::read_to_string(r).unwrap()).unwrap();
    v["inputs"].as_str().unwrap().to_string()
}

/// A campaign `tour.json` in a fresh folder: welcome (boulder, up to 3 points, open), first
/// words (baba, open), X to win (board, needs 3 points from the two above).
fn tour() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tour.json");
    let rel = |l: &str| entry_path_for(&file, &levels().join(l)).unwrap();
    let c = json!({"kind": "campaign", "title": "Tour", "levels": [
        {"path": rel("boulder/welcome.json"), "unlock": 0},
        {"path": rel("baba/first-words.json"), "unlock": 0},
        {"path": rel("board/tic-tac-toe-x-to-win.json"), "unlock": 3},
    ]});
    std::fs::write(&file, serde_json::to_string_pretty(&c).unwrap()).unwrap();
    (dir, file)
}

fn progress_points(file: &Path) -> Value {
    let v: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    let mut out = serde_json::Map::new();
    for (k, b) in v["levels"].as_object().unwrap() {
        let name = k.rsplit('/').next().unwrap().to_string();
        out.insert(name, b["points"].clone());
    }
    Value::Object(out)
}

#[test]
fn check_of_the_shipped_campaign_passes_and_of_a_bad_one_fails_with_located_lines() {
    let shipped = levels().join("campaign.json");
    let o = tilesmith(&["check", shipped.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}{}", out(&o), err(&o));
    assert!(
        out(&o).lines().all(|l| l.contains(": warning: ")),
        "{}",
        out(&o)
    );

    let (dir, file) = tour();
    // A missing level, and a threshold of 9 where at most 3 + 1 + 1 can be had above it.
    let mut c: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    c["levels"]
        .as_array_mut()
        .unwrap()
        .push(json!({"path": "nowhere.json", "unlock": 9}));
    std::fs::write(&file, serde_json::to_string_pretty(&c).unwrap()).unwrap();
    let o = tilesmith(&["check", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let text = out(&o);
    let name = file.display().to_string();
    // serde_json's pretty layout: the fourth entry's "path" value is on line 18, column 15,
    // its "unlock" value on line 19, column 17.
    assert!(
        text.contains(&format!(
            "{name}:18:15: level 3 (\"nowhere.json\") cannot be played"
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!("{name}:19:17: level 3 (\"nowhere.json\") needs 9 point(s) to unlock, but the levels above it give at most 5 (at $.levels[3].unlock)")),
        "{text}"
    );
    let gone = dir.path().join("nowhere.json").display().to_string();
    assert!(
        text.contains(&format!("{gone}:1:1: cannot read the level")),
        "{text}"
    );
    // A campaign that is no JSON at all: one located line.
    std::fs::write(&file, "{\"kind\": \"campaign\",\n \"levels\": [}").unwrap();
    let o = tilesmith(&["check", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        out(&o).starts_with(&format!("{name}:2:13: ")),
        "{}",
        out(&o)
    );
}

#[test]
fn play_records_the_best_points_and_opens_the_levels_below() {
    let (dir, file) = tour();
    let campaign = file.to_str().unwrap();
    let progress = dir.path().join("tour.progress.json");
    // Nothing played: X to win needs 3 points and the two above have 0.
    let o = tilesmith(&["run", campaign, "--play", "2", "--inputs", "@c3"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        err(&o).contains("level 2 (")
            && err(&o)
                .contains("is locked: it needs 3 point(s) from the levels above it, which have 0"),
        "{}",
        err(&o)
    );
    assert_eq!(out(&o), "");
    assert!(!progress.exists(), "a refused play writes nothing");

    // Welcome, its recorded solution after 100 waits: all 8 gems in 144 ticks, which is
    // 2 points (≤ 200 ticks for 2, > 80 for 3; spec §5). Still locked: 2 < 3.
    let slow = format!(".*100 {}", replay_words("boulder/welcome"));
    let o = tilesmith(&["run", campaign, "--play", "0", "--inputs", &slow]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let summary: Value = serde_json::from_str(out(&o).trim()).unwrap();
    assert_eq!(
        (&summary["status"], &summary["ticks"], &summary["points"]),
        (&json!("won"), &json!(144), &json!(2))
    );
    assert_eq!(progress_points(&progress), json!({"welcome.json": 2}));
    let o = tilesmith(&["run", campaign, "--play", "2", "--inputs", "@c3"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains("needs 3 point(s) from the levels above it, which have 2"));

    // First words: 1 point more, 3 in all; X to win opens and gives 1.
    let o = tilesmith(&[
        "run",
        campaign,
        "--play",
        "1",
        "--inputs",
        &replay_words("baba/first-words"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let o = tilesmith(&["run", campaign, "--play", "2", "--inputs", "@c3"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(
        progress_points(&progress),
        json!({"welcome.json": 2, "first-words.json": 1, "tic-tac-toe-x-to-win.json": 1})
    );

    // The fast solution: 44 ticks, 3 points; then a slower pass (1 point) keeps 3 and 44.
    let fast = replay_words("boulder/welcome");
    let o = tilesmith(&["run", campaign, "--play", "0", "--inputs", &fast]);
    assert_eq!(o.status.code(), Some(0));
    let slower = format!(".*300 {fast}");
    let o = tilesmith(&["run", campaign, "--play", "0", "--inputs", &slower]);
    assert_eq!(o.status.code(), Some(0));
    let summary: Value = serde_json::from_str(out(&o).trim()).unwrap();
    assert_eq!(summary["points"], 1);
    assert_eq!(progress_points(&progress)["welcome.json"], 3);
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&progress).unwrap()).unwrap();
    let welcome = v["levels"]
        .as_object()
        .unwrap()
        .iter()
        .find(|(k, _)| k.ends_with("welcome.json"))
        .unwrap()
        .1;
    assert_eq!(welcome["steps"], 44);
    // A lost game (no moves: the time runs out at tick 601) records nothing.
    let o = tilesmith(&["run", campaign, "--play", "0", "--ticks", "700"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(progress_points(&progress)["welcome.json"], 3);
    // No temporary file is left beside the progress.
    let files = std::fs::read_dir(dir.path()).unwrap().count();
    assert_eq!(files, 2, "tour.json and tour.progress.json");
}

#[test]
fn progress_elsewhere_bad_progress_and_bad_arguments_are_refused() {
    let (dir, file) = tour();
    let campaign = file.to_str().unwrap();
    let elsewhere = dir.path().join("mine.json");
    let words = replay_words("boulder/welcome");
    let o = tilesmith(&[
        "run",
        campaign,
        "--play",
        "0",
        "--inputs",
        &words,
        "--progress",
        elsewhere.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(progress_points(&elsewhere), json!({"welcome.json": 3}));
    assert!(!dir.path().join("tour.progress.json").exists());

    // A progress file that does not parse: a located error, and the file is left as it was.
    std::fs::write(
        &elsewhere,
        "{\"levels\": {\"a.json\": {\"points\": \"3\"}}}",
    )
    .unwrap();
    let o = tilesmith(&[
        "run",
        campaign,
        "--play",
        "0",
        "--inputs",
        &words,
        "--progress",
        elsewhere.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        err(&o).contains(&format!(
            "{}:1:34: \"points\" must be a whole number",
            elsewhere.display()
        )),
        "{}",
        err(&o)
    );
    assert_eq!(
        std::fs::read_to_string(&elsewhere).unwrap(),
        "{\"levels\": {\"a.json\": {\"points\": \"3\"}}}"
    );

    // No such entry; no --play on a campaign; --play on a level.
    let o = tilesmith(&["run", campaign, "--play", "3"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains("has 3 level(s) (0 to 2)"), "{}", err(&o));
    let o = tilesmith(&["run", campaign, "--inputs", "R"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains("is a campaign; choose its level with --play INDEX"));
    let welcome = levels().join("boulder/welcome.json");
    let o = tilesmith(&["run", welcome.to_str().unwrap(), "--play", "0"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        err(&o).contains("--play needs a campaign file"),
        "{}",
        err(&o)
    );
}

#[test]
fn a_file_that_cannot_be_read_as_a_campaign_gets_the_campaign_error_located() {
    let dir = tempfile::tempdir().unwrap();
    // Invalid JSON on line 2 (the `oops`): `run --play` says where.
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{\"kind\": \"campaign\",\n \"levels\": [oops]}\n").unwrap();
    let o = tilesmith(&["run", bad.to_str().unwrap(), "--play", "0"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains("bad.json:2:"), "{}", err(&o));
    // A level file given to --play: its kind is named, at its line.
    let level = dir.path().join("level.json");
    std::fs::write(&level, "{\n\"kind\": \"baba\"}\n").unwrap();
    let o = tilesmith(&["run", level.to_str().unwrap(), "--play", "0"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains("level.json:2:"), "{}", err(&o));
    // A campaign over the 16 MiB limit (MAX_CAMPAIGN_BYTES): too large, not "unknown kind".
    let huge = dir.path().join("huge.json");
    let title = "a".repeat(17 * 1024 * 1024);
    std::fs::write(
        &huge,
        format!("{{\"kind\": \"campaign\", \"title\": \"{title}\", \"levels\": []}}"),
    )
    .unwrap();
    let o = tilesmith(&["check", huge.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        out(&o).contains("huge.json:1:1: the file is too large"),
        "{}",
        out(&o)
    );
    assert!(!out(&o).contains("unknown kind"), "{}", out(&o));
}

#[test]
fn a_campaign_listed_in_a_campaign_is_a_located_error() {
    let dir = tempfile::tempdir().unwrap();
    let inner = json!({"kind": "campaign", "title": "Inner", "levels": []});
    std::fs::write(dir.path().join("inner.json"), inner.to_string()).unwrap();
    let outer = dir.path().join("outer.json");
    std::fs::write(
        &outer,
        "{\"kind\": \"campaign\", \"title\": \"Outer\",\n \"levels\": [{\"path\": \"inner.json\"}]}\n",
    )
    .unwrap();
    let o = tilesmith(&["check", outer.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let text = out(&o);
    assert!(
        text.contains(
            "inner.json:1:1: this is a campaign file: a campaign cannot be a level of a campaign"
        ),
        "{text}"
    );
    // The entry itself, on line 2 of the outer campaign.
    assert!(text.contains("outer.json:2:"), "{text}");
    assert!(!text.contains("unknown kind"), "{text}");
}

#[test]
fn recorded_points_above_a_levels_most_do_not_unlock() {
    // A baba level earns at most 1 point (docs/campaign.md); 99 recorded for it counts 1, so
    // a level needing 2 after it stays locked.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("c.json");
    let baba = entry_path_for(&file, &levels().join("baba/first-words.json")).unwrap();
    let boulder = entry_path_for(&file, &levels().join("boulder/welcome.json")).unwrap();
    std::fs::write(
        &file,
        json!({"kind": "campaign", "levels": [
            {"path": baba, "unlock": 0}, {"path": boulder, "unlock": 2}
        ]})
        .to_string(),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("c.progress.json"),
        json!({"kind": "campaign-progress", "levels": {baba.clone(): {"points": 99}}}).to_string(),
    )
    .unwrap();
    let o = tilesmith(&[
        "run",
        file.to_str().unwrap(),
        "--play",
        "1",
        "--inputs",
        "wait",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    assert!(err(&o).contains("needs 2 point(s)"), "{}", err(&o));
    assert!(err(&o).contains("which have 1"), "{}", err(&o));
}
