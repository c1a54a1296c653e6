//! A campaign in a temporary folder, shared by the campaign tests:
//!
//! | # | path          | level                     | unlock | best (progress) |
//! |---|---------------|---------------------------|--------|-----------------|
//! | 0 | `a.json`      | "Three Stars", ticks [9, 9, 1] | 0 | 2 |
//! | 1 | `b.json`      | "Two Stars", ticks [9, 9, 0]   | 2 | – |
//! | 2 | `broken.json` | invalid JSON on line 3    | 0      | – |
//! | 3 | `last.json`   | "Last Door", ticks [9, 9, 9]   | 5 | – |
//!
//! Every level is a 4×3 boulder map, `me` beside an `exit`, with `gems` [0, 0, 0]: the exit is
//! open from the start (spec §6 W1) and one step right wins at tick 1, for 3 points in
//! `a.json` (1 ≤ 1), 2 in `b.json` (1 > 0) and 3 in `last.json` (spec §6 W4). The campaign
//! and its first entry carry members the editor does not know (`author`, `note`).

#![allow(dead_code)] // each test file uses a part

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

/// The temporary folder and the files in it.
pub struct Fixture {
    /// The folder (removed when dropped).
    pub dir: tempfile::TempDir,
    /// `campaign.json`.
    pub campaign: PathBuf,
    /// `campaign.progress.json` (the default progress file beside it).
    pub progress: PathBuf,
}

/// A 4×3 boulder level named `name`: walls around `me` and `exit`, with these tick limits.
pub fn step_level(name: &str, ticks: [u32; 3]) -> Value {
    json!({
        "kind": "boulder",
        "name": name,
        "width": 4,
        "height": 3,
        "gems": [0, 0, 0],
        "ticks": ticks,
        "map": [
            ["wall", "wall", "wall", "wall"],
            ["wall", "me", "exit", "wall"],
            ["wall", "wall", "wall", "wall"]
        ]
    })
}

fn write(dir: &Path, name: &str, v: &Value) {
    std::fs::write(dir.join(name), serde_json::to_string_pretty(v).unwrap()).unwrap();
}

/// Writes the campaign, its levels and its progress (`a.json`: 2 points).
pub fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "a.json", &step_level("Three Stars", [9, 9, 1]));
    write(d, "b.json", &step_level("Two Stars", [9, 9, 0]));
    write(d, "last.json", &step_level("Last Door", [9, 9, 9]));
    std::fs::write(
        d.join("broken.json"),
        "{\n  \"kind\": \"boulder\",\n  \"name\": oops,\n  \"width\": 4\n}\n",
    )
    .unwrap();
    let campaign = d.join("campaign.json");
    write(
        d,
        "campaign.json",
        &json!({
            "kind": "campaign",
            "title": "Test run",
            "author": "kept",
            "levels": [
                {"path": "a.json", "unlock": 0, "note": "kept too"},
                {"path": "b.json", "unlock": 2},
                {"path": "broken.json", "unlock": 0},
                {"path": "last.json", "unlock": 5}
            ]
        }),
    );
    let progress = d.join("campaign.progress.json");
    write(
        d,
        "campaign.progress.json",
        &json!({"kind": "campaign-progress", "levels": {"a.json": {"points": 2, "steps": 1}}}),
    );
    Fixture {
        dir,
        campaign,
        progress,
    }
}

/// The best points of entry `path` in the progress file as written on disk.
pub fn progress_points(f: &Fixture, path: &str) -> Option<u64> {
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&f.progress).ok()?).ok()?;
    v["levels"][path]["points"].as_u64()
}
