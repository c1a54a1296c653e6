//! Strict files (issue #30): a member name given twice in one object is an error naming the
//! name and both places, in levels, campaigns and replays; a campaign of a version this
//! program does not read is refused; a board level's rules must be a `.zrf` file, and one
//! outside the level's folder is read with a warning.
//!
//! Each case writes its file with the places known by construction (line 2 and line 4 of a
//! text laid out one member a line) and runs the real `tilesmith check` or `run`.

#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn tilesmith(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tilesmith"))
        .args(args)
        .output()
        .unwrap()
}

fn shipped(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn a_level_with_kind_twice_is_refused_at_the_second() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("twice.json");
    // serde_json alone reads this as a boulder level (the last "kind" wins).
    let level = std::fs::read_to_string(shipped("levels/boulder/welcome.json")).unwrap();
    let twice = level.replacen(
        "\"kind\": \"boulder\",",
        "\"kind\": \"baba\",\n  \"name\": \"x\",\n  \"kind\": \"boulder\",",
        1,
    );
    assert_ne!(twice, level);
    std::fs::write(&path, &twice).unwrap();
    let name = path.display().to_string();
    for cmd in ["check", "run"] {
        let out = tilesmith(&[cmd, &name]);
        assert_eq!(out.status.code(), Some(1), "{cmd}: {}", text(&out));
        let t = text(&out);
        // "kind" first at line 2, column 3; again at line 4, column 3. So is "name": the
        // shipped level's own name is on line 5.
        assert!(
            t.contains(&format!(
                "{name}:4:3: member \"kind\" is given twice in one object (first at line 2, \
                 column 3)"
            )),
            "{cmd}: {t}"
        );
        assert!(t.contains("(at $.kind)"), "{t}");
        assert!(t.contains(&format!("{name}:5:3: member \"name\"")), "{t}");
    }
}

#[test]
fn a_replay_and_a_campaign_with_a_repeated_member_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("r.json");
    let level = shipped("levels/boulder/welcome.json");
    std::fs::write(
        &replay,
        format!(
            "{{\n  \"tilesmith\": \"replay\",\n  \"level\": {:?},\n  \"inputs\": \"R\",\n  \"inputs\": \"L\"\n}}\n",
            level.display().to_string()
        ),
    )
    .unwrap();
    let out = tilesmith(&["run", "--replay", &replay.display().to_string()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("5:3: member \"inputs\" is given twice"),
        "{}",
        text(&out)
    );

    let campaign = dir.path().join("c.campaign.json");
    std::fs::write(
        &campaign,
        "{\n  \"kind\": \"campaign\",\n  \"levels\": [{\"path\": \"a.json\", \"path\": \"b.json\"}]\n}\n",
    )
    .unwrap();
    let out = tilesmith(&["check", &campaign.display().to_string()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains(
            "3:33: member \"path\" is given twice in one object (first at line 3, column 15)"
        ),
        "{}",
        text(&out)
    );
}

#[test]
fn a_campaign_of_another_version_is_refused_naming_the_one_read() {
    let dir = tempfile::tempdir().unwrap();
    let campaign = dir.path().join("c.campaign.json");
    std::fs::write(
        &campaign,
        "{\"kind\": \"campaign\", \"version\": 2, \"levels\": []}",
    )
    .unwrap();
    let out = tilesmith(&["check", &campaign.display().to_string()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("campaign version 2 is not one this program reads (it reads 1)"),
        "{}",
        text(&out)
    );
}

/// A tic-tac-toe level in `dir` whose `rules` member is `rules`.
fn board_level(dir: &Path, rules: &str) -> PathBuf {
    let path = dir.join("level.json");
    let level = serde_json::json!({"kind": "board", "rules": rules, "to_move": "X"});
    std::fs::write(&path, level.to_string()).unwrap();
    path
}

#[test]
fn board_rules_must_be_a_zrf_file_and_outside_the_folder_is_a_warning() {
    let root = tempfile::tempdir().unwrap();
    let level_dir = root.path().join("levels");
    std::fs::create_dir(&level_dir).unwrap();
    // A file that is not ZRF is not read: its text never appears in a message.
    std::fs::write(root.path().join("secret.txt"), "TOP-SECRET-LINE\n").unwrap();
    let level = board_level(&level_dir, "../secret.txt");
    let out = tilesmith(&["check", &level.display().to_string()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("the rules file \"../secret.txt\" is not a .zrf file"),
        "{}",
        text(&out)
    );
    assert!(!text(&out).contains("TOP-SECRET"), "{}", text(&out));

    // A .zrf above the level's folder is read, with a warning; it plays.
    std::fs::copy(
        shipped("levels/board/tic-tac-toe.zrf"),
        root.path().join("ttt.zrf"),
    )
    .unwrap();
    let level = board_level(&level_dir, "../ttt.zrf");
    let out = tilesmith(&["check", &level.display().to_string()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(
        text(&out).contains("warning: the rules file \"../ttt.zrf\" is outside the level's folder"),
        "{}",
        text(&out)
    );
    let out = tilesmith(&["run", &level.display().to_string(), "--inputs", "@b2"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    // The editor's problems list says it too, as `check` does.
    assert_eq!(editor_rules_warnings(&level), 1);

    // In the level's folder (or below it, or through a `..` that stays inside): no warning.
    std::fs::create_dir(level_dir.join("rules")).unwrap();
    std::fs::copy(
        shipped("levels/board/tic-tac-toe.zrf"),
        level_dir.join("rules/ttt.zrf"),
    )
    .unwrap();
    let level = board_level(&level_dir, "rules/../rules/ttt.zrf");
    let out = tilesmith(&["check", &level.display().to_string()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(!text(&out).contains("warning"), "{}", text(&out));
    assert_eq!(editor_rules_warnings(&level), 0);
}

/// How many "outside the level's folder" warnings at `$.rules` the editor's problems list
/// holds once `level` is opened.
fn editor_rules_warnings(level: &Path) -> usize {
    use tilesmith_editor::state::{Action, EditorState};
    let mut s = EditorState::new(tilesmith_editor::kinds::board::new_design());
    s.apply(Action::OpenPath(level.to_path_buf()));
    assert!(s.pending.is_none(), "{:?}", s.pending);
    s.refresh();
    s.problems
        .iter()
        .filter(|p| {
            !p.is_error()
                && p.path.to_string() == "$.rules"
                && p.message.contains("is outside the level's folder")
        })
        .count()
}

#[test]
fn a_rules_link_leading_outside_warns_however_the_level_is_named() {
    // A link in the level's folder to a .zrf elsewhere: the rules are read from outside, so
    // `check` warns, whether the level is given by a full path or by its bare file name from
    // its own folder (where the level's folder is the empty path; the #30 review found the
    // warning lost there).
    let root = tempfile::tempdir().unwrap();
    let level_dir = root.path().join("levels");
    std::fs::create_dir(&level_dir).unwrap();
    std::fs::copy(
        shipped("levels/board/tic-tac-toe.zrf"),
        root.path().join("elsewhere.zrf"),
    )
    .unwrap();
    std::os::unix::fs::symlink(root.path().join("elsewhere.zrf"), level_dir.join("ttt.zrf"))
        .unwrap();
    let level = board_level(&level_dir, "ttt.zrf");
    let warning = "warning: the rules file \"ttt.zrf\" is outside the level's folder";
    let out = tilesmith(&["check", &level.display().to_string()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(text(&out).contains(warning), "{}", text(&out));
    let name = level.file_name().unwrap().to_str().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tilesmith"))
        .args(["check", name])
        .current_dir(&level_dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(text(&out).contains(warning), "{}", text(&out));
}
