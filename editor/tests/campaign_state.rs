//! The campaign overview's logic on `EditorState` (no window): opening a campaign, its
//! cards (names, best points, locks, levels that do not load), edits with undo, saving with
//! unknown members kept, adding levels by relative path, and playing a level to a win that
//! records its points in the progress file.
//!
//! Expected values are worked out by hand from the fixture (see `campaign_fixture`): points
//! by spec boulder §6 W4 (the largest k with gems ≥ gems[k−1] and ticks ≤ ticks[k−1]) and
//! unlocking by spec §2.1 (the best points of the levels above an entry add up to at least
//! its threshold).

#![allow(clippy::unwrap_used)] // test helpers panic on purpose when a fixture is wrong

mod campaign_fixture;

use campaign_fixture::{Fixture, fixture, progress_points};
use serde_json::Value;
use tilesmith_editor::campaign::{CampaignAction, Lock};
use tilesmith_editor::files::ScriptedDialogs;
use tilesmith_editor::state::{Action, Answer, EditorState, MapAction, Pending, PlayAction};
use tilesmith_engine::{Dir, Input};

fn opened(f: &Fixture) -> EditorState {
    let mut s = EditorState::new(
        tilesmith_editor::kinds::registry()
            .new_doc("boulder")
            .unwrap(),
    );
    s.apply(Action::OpenPath(f.campaign.clone()));
    assert!(s.pending.is_none(), "{:?}", s.pending);
    assert!(s.showing_overview());
    s
}

fn order(s: &EditorState) -> Vec<String> {
    let c = s.campaign.as_ref().unwrap();
    c.campaign.entries.iter().map(|e| e.path.clone()).collect()
}

fn campaign(a: CampaignAction) -> Action {
    Action::Campaign(a)
}

#[test]
fn cards_show_names_best_points_locks_and_problems() {
    let f = fixture();
    let s = opened(&f);
    let c = s.campaign.as_ref().unwrap();
    assert_eq!(c.campaign.title, "Test run");
    let cards = c.cards();
    let names: Vec<&str> = cards.iter().map(|k| k.name()).collect();
    assert_eq!(names, ["Three Stars", "Two Stars", "broken", "Last Door"]);
    // Progress: a.json has 2 points; boulder levels give at most 3.
    assert_eq!((cards[0].best, cards[0].stars), (2, 3));
    assert_eq!((cards[1].best, cards[1].stars), (0, 3));
    // b.json needs 2: the level above has 2. Last Door needs 5 of 2.
    assert_eq!(cards[1].lock, Lock::Open);
    assert_eq!(cards[3].lock, Lock::Locked { have: 2, need: 5 });
    assert_eq!(cards[3].lock.text(), "Locked: needs 3 more points");
    // The broken level: its first problem, located in its file (line 3 holds the bad token).
    let p = cards[2].info.unwrap().problem.clone().unwrap();
    assert!(p.starts_with("broken.json:3:"), "{p}");
    assert!(cards[2].why_not_playable().is_some());
    assert_eq!(c.points(), (2, 9), "3 + 3 + (broken: 0) + 3");
    // Thresholds that can be reached: 2 ≤ 3 above b.json, 5 ≤ 3 + 3 + 0 above last.json.
    assert!(cards.iter().all(|k| k.unreachable().is_none()));
}

#[test]
fn a_threshold_the_levels_above_cannot_give_is_flagged() {
    let f = fixture();
    let mut s = opened(&f);
    // b.json first: nothing above it gives points, and it needs 2.
    s.apply(campaign(CampaignAction::Move { from: 1, to: 0 }));
    let c = s.campaign.as_ref().unwrap();
    let cards = c.cards();
    assert_eq!(cards[0].name(), "Two Stars");
    assert_eq!(
        cards[0].unreachable().as_deref(),
        Some("Never opens: the levels above give at most 0 points")
    );
    // Last Door needs 5: above it 3 + 3 + 0 (broken) = 6.
    assert_eq!(cards[3].reachable, 6);
    assert!(cards[3].unreachable().is_none());
}

#[test]
fn moves_are_one_undo_step_each_and_undo_restores_the_order() {
    let f = fixture();
    let mut s = opened(&f);
    let before = order(&s);
    s.apply(campaign(CampaignAction::Move { from: 0, to: 2 }));
    assert_eq!(order(&s), ["b.json", "broken.json", "a.json", "last.json"]);
    assert!(s.campaign_dirty());
    assert!(s.title().contains('*'), "{}", s.title());
    // Ctrl+Z on the overview undoes the campaign edit, not the hidden level's.
    s.apply(Action::Map(MapAction::Undo));
    assert_eq!(order(&s), before);
    assert!(!s.campaign_dirty());
    s.apply(Action::Map(MapAction::Redo));
    assert_eq!(order(&s), ["b.json", "broken.json", "a.json", "last.json"]);
    assert_eq!(
        s.campaign.as_ref().unwrap().done_names(),
        vec!["Move level"]
    );
}

#[test]
fn thresholds_merge_per_entry_and_save_keeps_unknown_members() {
    let f = fixture();
    let mut s = opened(&f);
    for p in [1, 2, 3] {
        s.apply(campaign(CampaignAction::SetUnlock {
            index: 1,
            points: p,
        }));
    }
    s.apply(campaign(CampaignAction::SetUnlock {
        index: 3,
        points: 4,
    }));
    let c = s.campaign.as_ref().unwrap();
    assert_eq!(
        c.done_names(),
        vec!["Set unlock points", "Set unlock points"],
        "dragging one threshold is one step"
    );
    // b.json now needs 3 and the level above has 2.
    assert_eq!(c.cards()[1].lock, Lock::Locked { have: 2, need: 3 });
    s.apply(Action::Save);
    assert!(!s.campaign_dirty());
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(&f.campaign).unwrap()).unwrap();
    assert_eq!(saved["levels"][1]["unlock"], 3);
    assert_eq!(saved["levels"][3]["unlock"], 4);
    assert_eq!(saved["author"], "kept", "unknown members are written back");
    assert_eq!(saved["levels"][0]["note"], "kept too");
    // No temporary file is left beside it (the save is atomic: write, then rename).
    let left: Vec<_> = std::fs::read_dir(f.dir.path())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(left.is_empty());
}

#[test]
fn added_levels_are_stored_relative_to_the_campaign() {
    let f = fixture();
    let mut s = opened(&f);
    let sub = f.dir.path().join("sub");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::copy(f.dir.path().join("a.json"), sub.join("x.json")).unwrap();
    s.dialogs = Box::new(ScriptedDialogs {
        opens: vec![sub.join("x.json")],
        saves: vec![],
    });
    s.apply(campaign(CampaignAction::AddLevels));
    // Adding the same file again is refused with a reason; a file outside the folder gets `..`.
    s.apply(campaign(CampaignAction::AddFiles(vec![
        f.dir.path().join("a.json"),
        f.dir.path().join("../outside.json"),
    ])));
    assert_eq!(
        order(&s),
        [
            "a.json",
            "b.json",
            "broken.json",
            "last.json",
            "sub/x.json",
            "../outside.json"
        ]
    );
    let c = s.campaign.as_ref().unwrap();
    assert!(
        c.notice.contains("a.json is already in the campaign"),
        "{}",
        c.notice
    );
    let cards = c.cards();
    assert_eq!(cards[4].name(), "Three Stars", "the copy of a.json loads");
    // The missing file is a card with its problem, not a crash.
    assert!(
        cards[5]
            .info
            .unwrap()
            .problem
            .as_deref()
            .unwrap()
            .contains("cannot read"),
        "{:?}",
        cards[5].info
    );
    // Removing is one undo step too.
    s.apply(campaign(CampaignAction::Remove(5)));
    assert_eq!(order(&s).len(), 5);
    s.apply(campaign(CampaignAction::Undo));
    assert_eq!(order(&s).len(), 6);
}

#[test]
fn a_locked_level_is_refused_with_what_it_needs() {
    let f = fixture();
    let mut s = opened(&f);
    s.apply(campaign(CampaignAction::Play(3)));
    assert!(!s.playing());
    assert!(s.showing_overview());
    let notice = &s.campaign.as_ref().unwrap().notice;
    assert!(notice.contains("needs 3 more points"), "{notice}");
    // A level that does not load cannot be played either.
    s.apply(campaign(CampaignAction::Play(2)));
    assert!(!s.playing());
}

#[test]
fn a_win_records_the_best_points_and_unlocks() {
    let f = fixture();
    let mut s = opened(&f);
    s.apply(campaign(CampaignAction::Play(1)));
    assert!(s.playing(), "{}", s.status);
    assert!(!s.showing_overview(), "the level is shown while played");
    // One step right: the figure enters the open exit at tick 1. b.json's ticks are
    // [9, 9, 0]: tick 1 ≤ 9 twice but not ≤ 0, so 2 points (W4).
    s.apply(Action::Play(PlayAction::Step(Some(Input::Move(
        Dir::Right,
    )))));
    assert!(
        !s.playing(),
        "a won game ends and the overview is shown again"
    );
    assert!(s.showing_overview());
    assert_eq!(progress_points(&f, "b.json"), Some(2));
    let c = s.campaign.as_ref().unwrap();
    assert!(c.notice.contains("2 points"), "{}", c.notice);
    assert_eq!(c.cards()[1].best, 2);
    // Last Door needs 5: now 2 + 2 = 4.
    assert_eq!(c.cards()[3].lock, Lock::Locked { have: 4, need: 5 });
    // Play campaign picks the first unlocked level with points left: a.json (2 of 3).
    s.apply(campaign(CampaignAction::PlayNext));
    assert!(s.playing());
    s.apply(Action::Play(PlayAction::Step(Some(Input::Move(
        Dir::Right,
    )))));
    assert_eq!(progress_points(&f, "a.json"), Some(3));
    let c = s.campaign.as_ref().unwrap();
    assert_eq!(c.cards()[3].lock, Lock::Open, "3 + 2 = 5 opens Last Door");
    // The cards' locks are the engine's unlock arithmetic (`Campaign::is_unlocked`).
    for k in c.cards() {
        assert_eq!(
            k.lock == Lock::Open,
            c.campaign.is_unlocked(k.index, &c.progress),
            "{}",
            k.entry.path
        );
    }
    // The progress is read back by a new window.
    let s2 = opened(&f);
    assert_eq!(s2.campaign.as_ref().unwrap().cards()[0].best, 3);
}

#[test]
fn a_worse_win_keeps_the_best_and_stopping_records_nothing() {
    let f = fixture();
    let mut s = opened(&f);
    // a.json: 2 points recorded; a win in 2 ticks gives 2 (ticks [9, 9, 1]).
    s.apply(campaign(CampaignAction::Play(0)));
    s.apply(Action::Play(PlayAction::Step(Some(Input::Wait))));
    s.apply(Action::Play(PlayAction::Stop));
    assert!(!s.playing());
    assert_eq!(
        s.campaign.as_ref().unwrap().playing,
        None,
        "stopped: no longer a campaign game"
    );
    s.apply(campaign(CampaignAction::Show));
    s.apply(campaign(CampaignAction::Play(0)));
    s.apply(Action::Play(PlayAction::Step(Some(Input::Wait))));
    s.apply(Action::Play(PlayAction::Step(Some(Input::Move(
        Dir::Right,
    )))));
    assert!(s.showing_overview());
    assert_eq!(progress_points(&f, "a.json"), Some(2));
    let notice = &s.campaign.as_ref().unwrap().notice;
    assert!(
        notice.contains("Won \"Three Stars\" with 2 points"),
        "{notice}"
    );
}

#[test]
fn edit_opens_the_level_and_back_shows_the_overview() {
    let f = fixture();
    let mut s = opened(&f);
    s.apply(campaign(CampaignAction::Edit(1)));
    assert!(!s.showing_overview());
    assert_eq!(
        s.path.as_deref(),
        Some(f.dir.path().join("b.json").as_path())
    );
    // Edits now go to the level; the campaign is untouched.
    s.apply(Action::SelectAll);
    s.apply(Action::Map(MapAction::DeleteSelection));
    assert!(s.dirty());
    assert!(!s.campaign_dirty());
    s.apply(campaign(CampaignAction::Show));
    assert!(s.showing_overview());
    // Opening another level asks about the unsaved level first, with the level shown.
    s.apply(campaign(CampaignAction::Edit(0)));
    assert!(matches!(s.pending, Some(Pending::Unsaved { .. })));
    assert!(!s.showing_overview());
    s.apply(Action::Answer(Answer::Discard));
    assert_eq!(
        s.path.as_deref(),
        Some(f.dir.path().join("a.json").as_path())
    );
}

#[test]
fn quitting_with_an_unsaved_campaign_asks_first() {
    let f = fixture();
    let mut s = opened(&f);
    s.apply(campaign(CampaignAction::SetTitle("Renamed".into())));
    s.apply(Action::Quit);
    assert!(matches!(s.pending, Some(Pending::Unsaved { .. })));
    assert!(!s.close_ok);
    s.apply(Action::Answer(Answer::Save));
    assert!(s.close_ok, "saved, then quit");
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(&f.campaign).unwrap()).unwrap();
    assert_eq!(saved["title"], "Renamed");
}

#[test]
fn new_campaign_and_save_as_rebase_the_paths() {
    let f = fixture();
    let mut s = EditorState::new(
        tilesmith_editor::kinds::registry()
            .new_doc("boulder")
            .unwrap(),
    );
    let new = f.dir.path().join("new.json");
    let moved = f.dir.path().join("deeper/moved.json");
    std::fs::create_dir_all(moved.parent().unwrap()).unwrap();
    s.dialogs = Box::new(ScriptedDialogs {
        opens: vec![f.dir.path().join("b.json")],
        saves: vec![new.clone(), moved.clone()],
    });
    s.apply(campaign(CampaignAction::New));
    assert!(s.showing_overview());
    let on_disk: Value = serde_json::from_str(&std::fs::read_to_string(&new).unwrap()).unwrap();
    assert_eq!(on_disk["kind"], "campaign");
    assert_eq!(on_disk["levels"], serde_json::json!([]));
    s.apply(campaign(CampaignAction::AddLevels));
    assert_eq!(order(&s), ["b.json"]);
    s.apply(Action::SaveAs);
    let on_disk: Value = serde_json::from_str(&std::fs::read_to_string(&moved).unwrap()).unwrap();
    assert_eq!(on_disk["levels"][0]["path"], "../b.json");
    let c = s.campaign.as_ref().unwrap();
    assert_eq!(c.file, moved);
    assert_eq!(
        c.cards()[0].name(),
        "Two Stars",
        "the level is found from the new place"
    );
}

#[test]
fn a_bad_progress_file_is_shown_and_never_replaced() {
    let f = fixture();
    let bad = "{\"kind\": \"campaign-progress\", \"levels\": 7}";
    std::fs::write(&f.progress, bad).unwrap();
    let mut s = opened(&f);
    let c = s.campaign.as_ref().unwrap();
    assert!(
        c.progress_problem.as_deref().unwrap().contains(":1:"),
        "{:?}",
        c.progress_problem
    );
    s.apply(campaign(CampaignAction::Play(0)));
    s.apply(Action::Play(PlayAction::Step(Some(Input::Move(
        Dir::Right,
    )))));
    assert!(matches!(&s.pending, Some(Pending::Message(m)) if m.contains("not written")));
    assert_eq!(std::fs::read_to_string(&f.progress).unwrap(), bad);
}

#[test]
fn a_new_or_opened_level_is_shown_instead_of_the_overview() {
    let f = fixture();
    let mut s = opened(&f);
    s.apply(Action::NewOf("baba"));
    assert!(!s.showing_overview());
    assert_eq!(s.kind_name(), "baba");
    assert!(
        s.campaign.is_some(),
        "the campaign stays open behind the level"
    );
    s.apply(campaign(CampaignAction::Show));
    s.apply(Action::OpenPath(f.dir.path().join("last.json")));
    assert!(!s.showing_overview());
    assert_eq!(
        s.path.as_deref(),
        Some(f.dir.path().join("last.json").as_path())
    );
    s.apply(campaign(CampaignAction::Close));
    assert!(s.campaign.is_none());
}

#[test]
fn a_turn_based_level_is_won_with_one_point() {
    // A baba level (turn-based: each key is one turn, nothing runs by itself): BABA IS YOU,
    // FLAG IS WIN, baba beside the flag. One step right wins; a won baba level gives 1 point
    // (issue 12), and the card has one star.
    let f = fixture();
    let level = serde_json::json!({
        "kind": "baba", "name": "One Step", "width": 4, "height": 3,
        "map": [
            ["text_baba", "text_is", "text_you", null],
            [null, "baba", "flag", null],
            ["text_flag", "text_is", "text_win", null]
        ]
    });
    std::fs::write(f.dir.path().join("baba.json"), level.to_string()).unwrap();
    let mut s = opened(&f);
    s.apply(campaign(CampaignAction::AddFiles(vec![
        f.dir.path().join("baba.json"),
    ])));
    let card = &s.campaign.as_ref().unwrap().cards()[4];
    assert_eq!((card.name(), card.stars), ("One Step", 1));
    s.apply(campaign(CampaignAction::Play(4)));
    assert!(s.playing(), "{}", s.status);
    assert!(
        !s.doc.play().unwrap().running,
        "a turn-based game does not run by itself"
    );
    s.apply(Action::Play(PlayAction::Step(Some(Input::Move(
        Dir::Right,
    )))));
    assert!(s.showing_overview());
    assert_eq!(progress_points(&f, "baba.json"), Some(1));
    assert_eq!(s.campaign.as_ref().unwrap().cards()[4].best, 1);
}

#[test]
fn a_baba_loss_the_game_can_undo_is_not_the_end_of_the_attempt() {
    // BABA IS YOU, FLAG IS WIN, ROCK IS DEFEAT; a rock left of baba, the flag right of it.
    // Stepping left onto the rock destroys baba: nothing is YOU, which baba's own undo takes
    // back (the game keeps taking turns), so the attempt goes on; undo, then right, wins.
    let f = fixture();
    let level = serde_json::json!({
        "kind": "baba", "name": "Undo It", "width": 4, "height": 4,
        "map": [
            ["text_baba", "text_is", "text_you", null],
            ["rock", "baba", "flag", null],
            ["text_flag", "text_is", "text_win", null],
            ["text_rock", "text_is", "text_defeat", null]
        ]
    });
    std::fs::write(f.dir.path().join("undo.json"), level.to_string()).unwrap();
    let mut s = opened(&f);
    s.apply(campaign(CampaignAction::AddFiles(vec![
        f.dir.path().join("undo.json"),
    ])));
    s.apply(campaign(CampaignAction::Play(4)));
    assert!(s.playing(), "{}", s.status);
    s.apply(Action::Play(PlayAction::Step(Some(Input::Move(Dir::Left)))));
    assert!(
        s.doc.play().unwrap().game.status().is_over(),
        "baba is gone"
    );
    assert!(s.playing(), "still playing: {}", s.status);
    s.apply(Action::Play(PlayAction::Step(Some(Input::Undo))));
    s.apply(Action::Play(PlayAction::Step(Some(Input::Move(
        Dir::Right,
    )))));
    assert!(s.showing_overview());
    assert_eq!(progress_points(&f, "undo.json"), Some(1));
}

#[test]
fn a_bad_campaign_file_is_a_located_message() {
    let f = fixture();
    let bad = "{\"kind\": \"campaign\",\n \"levels\": [{\"path\": \"a.json\", \"unlock\": -1}]}\n";
    std::fs::write(&f.campaign, bad).unwrap();
    let mut s = EditorState::new(
        tilesmith_editor::kinds::registry()
            .new_doc("boulder")
            .unwrap(),
    );
    s.apply(Action::OpenPath(f.campaign.clone()));
    assert!(s.campaign.is_none());
    let Some(Pending::Message(m)) = &s.pending else {
        panic!("no message: {:?}", s.pending)
    };
    // The `-1` is on line 2.
    assert!(m.contains("campaign.json:2:"), "{m}");
    assert!(m.contains("unlock"), "{m}");
}

#[test]
fn results_recorded_meanwhile_by_another_program_are_kept() {
    // The window reads the progress (a.json: 2) when the campaign opens. Meanwhile another
    // program (`tilesmith run campaign.json --play 3`) records 3 points for last.json.
    let f = fixture();
    let mut s = opened(&f);
    std::fs::write(
        &f.progress,
        r#"{"kind": "campaign-progress", "levels": {"a.json": {"points": 2, "steps": 1},
            "last.json": {"points": 3, "steps": 1}}}"#,
    )
    .unwrap();
    // Back on the overview the new result shows: 2 + 3 above b.json... and on its card.
    s.apply(campaign(CampaignAction::Show));
    assert_eq!(s.campaign.as_ref().unwrap().cards()[3].best, 3);
    // The other program writes again (a.json's steps improve); the window then wins b.json
    // (2 points, W4 as in `a_win_records_the_best_points_and_unlocks`).
    std::fs::write(
        &f.progress,
        r#"{"kind": "campaign-progress", "levels": {"a.json": {"points": 2, "steps": 1},
            "last.json": {"points": 3, "steps": 1}, "x.json": {"points": 1}}}"#,
    )
    .unwrap();
    s.apply(campaign(CampaignAction::Play(1)));
    s.apply(Action::Play(PlayAction::Step(Some(Input::Move(
        Dir::Right,
    )))));
    assert!(s.showing_overview());
    // All three kept: the file's results and the window's win.
    assert_eq!(progress_points(&f, "a.json"), Some(2));
    assert_eq!(progress_points(&f, "last.json"), Some(3));
    assert_eq!(progress_points(&f, "x.json"), Some(1));
    assert_eq!(progress_points(&f, "b.json"), Some(2));
}

#[test]
fn a_progress_file_repaired_meanwhile_is_read_on_the_overview() {
    let f = fixture();
    std::fs::write(&f.progress, "{\"levels\": 7}").unwrap();
    let mut s = opened(&f);
    assert!(s.campaign.as_ref().unwrap().progress_problem.is_some());
    std::fs::write(
        &f.progress,
        r#"{"kind": "campaign-progress", "levels": {"b.json": {"points": 1}}}"#,
    )
    .unwrap();
    s.apply(campaign(CampaignAction::Show));
    let c = s.campaign.as_ref().unwrap();
    assert!(c.progress_problem.is_none(), "{:?}", c.progress_problem);
    assert_eq!(c.cards()[1].best, 1);
}

#[test]
fn a_lost_campaign_game_ends_and_cannot_be_rewound_into_a_win() {
    // last.json has ticks [9, 9, 9]; a copy with ticks [2, 2, 2] is lost at tick 3 ("the
    // time ran out", spec §6 W3) and would be won with 3 points at tick 1 (W4).
    let f = fixture();
    let level = campaign_fixture::step_level("Short", [2, 2, 2]);
    std::fs::write(f.dir.path().join("short.json"), level.to_string()).unwrap();
    let mut s = opened(&f);
    s.apply(campaign(CampaignAction::AddFiles(vec![
        f.dir.path().join("short.json"),
    ])));
    s.apply(campaign(CampaignAction::Play(4)));
    assert!(s.playing(), "{}", s.status);
    // Going back is refused while playing for the campaign (before any loss too).
    s.apply(Action::Play(PlayAction::Step(Some(Input::Wait))));
    s.apply(Action::Play(PlayAction::Back));
    assert_eq!(s.doc.play().unwrap().game.steps(), 1, "Back is refused");
    s.apply(Action::Play(PlayAction::Scrub(0)));
    assert_eq!(
        s.doc.play().unwrap().game.steps(),
        1,
        "the slider is refused"
    );
    s.apply(Action::Play(PlayAction::Step(Some(Input::Wait))));
    s.apply(Action::Play(PlayAction::Step(Some(Input::Wait))));
    // Tick 3 > ticks[0] = 2: lost. The attempt ends; the overview is shown again.
    assert!(
        s.showing_overview(),
        "a loss returns to the overview (§2.2)"
    );
    assert!(!s.playing());
    let c = s.campaign.as_ref().unwrap();
    assert!(c.notice.contains("Lost \"Short\""), "{}", c.notice);
    // Whatever comes now (a step back, a step right) records nothing.
    s.apply(Action::Play(PlayAction::Back));
    s.apply(Action::Play(PlayAction::Scrub(0)));
    s.apply(Action::Play(PlayAction::Step(Some(Input::Move(
        Dir::Right,
    )))));
    assert_eq!(progress_points(&f, "short.json"), None);
    // Reset starts a fresh attempt, which can be won: 1 step right at tick 1, 3 points.
    s.apply(campaign(CampaignAction::Play(4)));
    s.apply(Action::Play(PlayAction::Step(Some(Input::Wait))));
    s.apply(Action::Play(PlayAction::Reset));
    assert_eq!(s.doc.play().unwrap().game.steps(), 0, "Reset is allowed");
    s.apply(Action::Play(PlayAction::Step(Some(Input::Move(
        Dir::Right,
    )))));
    assert_eq!(progress_points(&f, "short.json"), Some(3));
}

#[test]
fn a_board_level_in_the_campaign_leaves_the_other_side_to_the_computer() {
    // The editor's new board rules: tic-tac-toe, `(players X O)`, `(turn-order X O)`: X moves
    // first, so the campaign player is X (a win of X earns the point) and the computer O.
    use tilesmith_editor::kinds::board::BoardDoc;
    let f = fixture();
    let level = serde_json::json!({
        "kind": "board", "name": "Noughts",
        "rules": {"zrf": tilesmith_editor::kinds::board::NEW_RULES}
    });
    std::fs::write(f.dir.path().join("ttt.json"), level.to_string()).unwrap();
    let mut s = opened(&f);
    s.apply(campaign(CampaignAction::AddFiles(vec![
        f.dir.path().join("ttt.json"),
    ])));
    s.apply(campaign(CampaignAction::Play(4)));
    assert!(s.playing(), "{}", s.status);
    let play = s.doc_as::<BoardDoc>().unwrap().play.as_ref().unwrap();
    assert_eq!(
        play.session.campaign_player,
        Some(0),
        "X, the first in the turn order"
    );
    // X drops a man (the first legal turn); now O is to move, and O is the computer's: a
    // click on the board does not play for O.
    s.apply(Action::Play(PlayAction::Step(Some(Input::Choice(0)))));
    assert_eq!(s.doc.play().unwrap().game.steps(), 1);
    s.apply(Action::Map(MapAction::CellPress {
        pos: tilesmith_engine::Pos::new(0, 0),
        button: tilesmith_editor::tools::Button::Primary,
        alt: false,
    }));
    s.apply(Action::Map(MapAction::CellRelease));
    assert_eq!(
        s.doc.play().unwrap().game.steps(),
        1,
        "O's turn is not the player's"
    );
    assert!(s.status.contains("played by the computer"), "{}", s.status);
    // Outside the campaign, the editor's own Play leaves both sides to the user.
    s.apply(Action::Play(PlayAction::Stop));
    s.apply(Action::Play(PlayAction::Start));
    let play = s.doc_as::<BoardDoc>().unwrap().play.as_ref().unwrap();
    assert_eq!(play.session.campaign_player, None);
}

#[test]
fn a_campaign_too_large_to_read_opens_with_the_campaign_error() {
    let f = fixture();
    let title = "a".repeat(17 * 1024 * 1024);
    std::fs::write(
        &f.campaign,
        format!("{{\"kind\": \"campaign\", \"title\": \"{title}\", \"levels\": []}}"),
    )
    .unwrap();
    let mut s = EditorState::new(
        tilesmith_editor::kinds::registry()
            .new_doc("boulder")
            .unwrap(),
    );
    s.apply(Action::OpenPath(f.campaign.clone()));
    let Some(Pending::Message(m)) = &s.pending else {
        panic!("no message: {:?}", s.pending)
    };
    assert!(
        m.contains("campaign.json:1:1: the file is too large"),
        "{m}"
    );
    assert!(!m.contains("unknown kind"), "{m}");
}

#[test]
fn a_progress_file_cannot_give_more_points_than_a_level_can_earn() {
    // a.json is a boulder level (3 points at most); a progress file claiming 99 counts 3:
    // Last Door (needs 5) stays locked with 3 above it (b.json and broken.json have none).
    let f = fixture();
    std::fs::write(
        &f.progress,
        r#"{"kind": "campaign-progress", "levels": {"a.json": {"points": 99}}}"#,
    )
    .unwrap();
    let s = opened(&f);
    let c = s.campaign.as_ref().unwrap();
    let cards = c.cards();
    assert_eq!(cards[0].best, 3);
    assert_eq!(cards[3].lock, Lock::Locked { have: 3, need: 5 });
    assert_eq!(c.points(), (3, 9));
}

#[test]
fn a_card_draws_one_word_over_its_thumbnail() {
    // broken.json does not load; locked behind 9 points it is both: only "level does not
    // load" is drawn. Last Door (needs 5 of 2) loads and is locked; a.json is open.
    let f = fixture();
    let mut s = opened(&f);
    s.apply(campaign(CampaignAction::SetUnlock {
        index: 2,
        points: 9,
    }));
    let c = s.campaign.as_ref().unwrap();
    let cards = c.cards();
    assert!(matches!(cards[2].lock, Lock::Locked { .. }));
    assert_eq!(cards[2].thumb_overlay(), Some("level does not load"));
    assert_eq!(cards[3].thumb_overlay(), Some("LOCKED"));
    assert_eq!(cards[0].thumb_overlay(), None);
}
