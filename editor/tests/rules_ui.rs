//! The rule editor and the tick debugger through the window (egui_kittest, headless): click
//! by label, drag, type, keys. Expected values are worked out by hand, computed by independent
//! code in this file, or taken from the engine's whole-tick `Game::step` on a separate game.

#![allow(clippy::unwrap_used)] // test helpers panic on purpose when a fixture is wrong

use eframe::egui::{Key, Modifiers, Pos2, Role, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use tilesmith_editor::app::TilesmithApp;
use tilesmith_editor::kinds::boulder::rules::{RuleList, RuleRef, parse_rule_text};
use tilesmith_editor::state::EditorState;
use tilesmith_engine::kind::boulder::{BoulderGame, BoulderLevel, Cell, Rule, Token, TokenPattern};
use tilesmith_engine::{Dir, Game as _, Input, Pos};

mod common;
use common::{harness, settle};
use tilesmith_editor::kinds::boulder::BoulderDoc;

/// The open boulder document.
fn bd(s: &EditorState) -> &BoulderDoc {
    s.doc_as::<BoulderDoc>()
        .expect("a boulder document is open")
}

fn click(h: &mut Harness<'static, TilesmithApp>, label: &str) {
    h.get_by_label(label).click();
    settle(h);
}

fn rule(json: &str) -> Rule {
    parse_rule_text(json).expect("test rule is valid")
}

fn with_rules(pre: Vec<Rule>, post: Vec<Rule>) -> EditorState {
    let mut l = BoulderLevel::new("ui", 10, 8);
    l.pre = pre;
    l.post = post;
    EditorState::new(l)
}

fn mud_to_gem() -> Rule {
    rule(
        r#"{"name":"mud to gem","situation":"any","direction":"east","original":[{"token":"mud"}],"result":[{"token":"gem"}]}"#,
    )
}

fn level<'a>(h: &'a Harness<'static, TilesmithApp>) -> &'a BoulderLevel {
    bd(&h.state().state).level()
}

#[test]
fn editing_a_rule_by_clicking_changes_the_level_document() {
    let mut h = harness(with_rules(vec![mud_to_gem()], vec![]));
    click(&mut h, "Rules");
    click(&mut h, "0: mud to gem");
    // Direction: west.
    click(&mut h, "< west");
    assert_eq!(level(&h).pre[0].direction, Dir::Left);
    // The original block: mud or stone.
    click(&mut h, "original block 0: mud");
    h.get_by_role_and_label(Role::CheckBox, "stone").click();
    settle(&mut h);
    assert_eq!(
        level(&h).pre[0].original[0].token,
        TokenPattern::OneOf(vec![Token::Mud, Token::Stone])
    );
    // A block pair at the end: the lists keep the same length.
    click(&mut h, "+ end");
    assert_eq!(level(&h).pre[0].original.len(), 2);
    assert_eq!(level(&h).pre[0].result.len(), 2);
    // Add a second rule from the post list and name it by typing.
    click(&mut h, "+ Add post");
    assert_eq!(level(&h).post.len(), 1);
    h.get_by_label("rule name").click();
    settle(&mut h);
    h.get_by_label("rule name").type_text("blank");
    settle(&mut h);
    assert_eq!(level(&h).post[0].name.as_deref(), Some("blank"));
    h.get_by_label("0: blank");
    assert_eq!(
        bd(&h.state().state).history().done_names(),
        vec![
            "Rule direction",
            "Rule block",
            "Add block",
            "Add rule",
            "Rule name"
        ]
    );
    // The saved document has the changes.
    let json = level(&h).to_json();
    assert_eq!(json["pre"][0]["direction"], "west");
    assert_eq!(json["post"][0]["name"], "blank");
    // Delete it again with the button, then undo with Ctrl+Z.
    click(&mut h, "Delete rule");
    assert!(level(&h).post.is_empty());
    h.key_press(Key::Escape); // leave the text field
    settle(&mut h);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    settle(&mut h);
    assert_eq!(level(&h).post.len(), 1);
    assert_eq!(level(&h).post[0].name.as_deref(), Some("blank"));
}

#[test]
fn undo_of_a_rule_edit_from_the_toolbar_and_the_history_list() {
    let mut h = harness(with_rules(vec![mud_to_gem()], vec![]));
    click(&mut h, "Rules");
    click(&mut h, "0: mud to gem");
    click(&mut h, "v south");
    assert_eq!(level(&h).pre[0].direction, Dir::Down);
    click(&mut h, "Undo");
    assert_eq!(level(&h).pre[0].direction, Dir::Right);
    click(&mut h, "Redo");
    assert_eq!(level(&h).pre[0].direction, Dir::Down);
    // The history list (on the other page) names the rule edit.
    click(&mut h, "Cell & level");
    click(&mut h, "Rule direction");
    click(&mut h, "(opened)");
    assert_eq!(level(&h).pre[0].direction, Dir::Right);
}

#[test]
fn dragging_a_rule_reorders_the_list() {
    let named = |n: &str| {
        let mut r = tilesmith_editor::kinds::boulder::rules::blank_rule();
        r.name = Some(n.into());
        r
    };
    let mut h = harness(with_rules(vec![named("a"), named("b"), named("c")], vec![]));
    click(&mut h, "Rules");
    let handles = h
        .get_all_by_label("::")
        .map(|n| n.rect())
        .collect::<Vec<_>>();
    assert_eq!(handles.len(), 3);
    let from = handles[0].center();
    let row_c = h.get_by_label("2: c").rect();
    // Dropping on a row puts the rule before that row: "a" goes between "b" and "c".
    let to = Pos2::new(row_c.center().x, row_c.top() + 3.0);
    h.hover_at(from);
    h.step();
    h.drag_at(from);
    h.step();
    for k in 1..=6 {
        let t = k as f32 / 6.0;
        h.hover_at(from + (to - from) * t);
        h.step();
    }
    h.drop_at(to);
    settle(&mut h);
    let names: Vec<&str> = level(&h)
        .pre
        .iter()
        .map(|r| r.name.as_deref().unwrap())
        .collect();
    assert_eq!(names, ["b", "a", "c"]);
    assert_eq!(
        bd(&h.state().state).rules.selected,
        None,
        "dragging does not select"
    );
    assert_eq!(
        bd(&h.state().state).history().done_names(),
        vec!["Move rule"]
    );
}

#[test]
fn json_view_and_block_view_round_trip() {
    let mut h = harness(with_rules(vec![mud_to_gem()], vec![]));
    click(&mut h, "Rules");
    click(&mut h, "0: mud to gem");
    click(&mut h, "Rule JSON");
    let text = h.get_by_label("rule JSON text").value().unwrap();
    assert_eq!(parse_rule_text(&text).unwrap(), mud_to_gem());
    // Write a different rule as JSON and apply it.
    let new = r#"{"name": "stones sink", "situation": "rare", "sparsity": 2, "direction": "south", "original": [{"token": "stone"}, {"token": "path"}], "result": [{"token": "1"}, {"token": "0", "values": {"moved": 1}}]}"#;
    h.get_by_label("rule JSON text").click();
    settle(&mut h);
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.get_by_label("rule JSON text").type_text(new);
    settle(&mut h);
    click(&mut h, "Apply JSON");
    assert_eq!(level(&h).pre[0], rule(new));
    // The block view shows it: name in the list, direction, blocks, the sparsity.
    click(&mut h, "Blocks");
    h.get_by_label("0: stones sink");
    assert_eq!(
        h.get_by_label("v south").accesskit_node().toggled(),
        Some(eframe::egui::accesskit::Toggled::True)
    );
    h.get_by_label("original block 0: stone");
    h.get_by_label("original block 1: path");
    h.get_by_label("result block 0: =1");
    h.get_by_label("result block 1: =0");
    assert_eq!(h.get_by_label("sparsity").value().as_deref(), Some("2"));
    // Edit visually, then the JSON view shows the change.
    click(&mut h, "> east");
    click(&mut h, "Rule JSON");
    let text = h.get_by_label("rule JSON text").value().unwrap();
    let back = parse_rule_text(&text).unwrap();
    assert_eq!(back.direction, Dir::Right);
    assert_eq!(back.name.as_deref(), Some("stones sink"));
    // A mistake is reported inline with the message of `tilesmith check`, and not applied.
    h.get_by_label("rule JSON text").click();
    settle(&mut h);
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.get_by_label("rule JSON text").type_text(
        "{\"situation\": \"any\", \"direction\": \"up\", \"original\": [{\"token\": \"mud\"}], \"result\": [{\"token\": \"0\"}]}",
    );
    settle(&mut h);
    click(&mut h, "Apply JSON");
    // Column 35 is where the value "up" starts (counted by hand).
    h.get_by_label(
        "json:1:35: unknown direction \"up\" (known: east, west, north, south) (at $.direction)",
    );
    assert_eq!(level(&h).pre[0].direction, Dir::Right);
    // Revert reloads the rule.
    click(&mut h, "Revert");
    let text = h.get_by_label("rule JSON text").value().unwrap();
    assert_eq!(parse_rule_text(&text).unwrap(), level(&h).pre[0]);
}

/// Independent count of a one-line rule's matches (spec boulder §4.5): each row, read from
/// the left, the first occurrence of the pattern, then continue after it.
fn hand_count_east(rows: &[&str], pattern: &[char]) -> usize {
    let mut n = 0;
    for row in rows {
        let cells: Vec<char> = row.chars().collect();
        let mut i = 0;
        while i + pattern.len() <= cells.len() {
            if pattern.iter().enumerate().all(|(k, c)| cells[i + k] == *c) {
                n += 1;
                i += pattern.len();
            } else {
                i += 1;
            }
        }
    }
    n
}

#[test]
fn the_match_count_on_a_known_map_matches_an_independent_count() {
    let rows = [
        "##########",
        "#M.oo.ooo#",
        "#oo.oo.o.#",
        "#ooo..ooo#",
        "#.oooo..E#",
        "##########",
    ];
    let mut l = BoulderLevel::new("count", rows[0].len(), rows.len());
    for (y, row) in rows.iter().enumerate() {
        for (x, ch) in row.chars().enumerate() {
            let t = match ch {
                '#' => Token::Wall,
                '.' => Token::Path,
                'o' => Token::Stone,
                'M' => Token::Me,
                _ => Token::Exit,
            };
            *l.map.get_mut(Pos::new(x, y)).unwrap() = Cell::new(t);
        }
    }
    l.pre = vec![rule(
        r#"{"name":"pairs","situation":"any","direction":"east","original":[{"token":"stone"},{"token":"stone"}],"result":[{"token":"gem"},{"token":"1"}]}"#,
    )];
    let want = hand_count_east(&rows, &['o', 'o']);
    assert_eq!(want, 8, "worked out by hand too: 2 + 2 + 2 + 2");
    let mut h = harness(EditorState::new(l));
    click(&mut h, "Rules");
    click(&mut h, "0: pairs");
    h.get_by_label(&format!("{want} matches now"));
    // Apply once: the count of changed fields, and the design is unchanged.
    h.get_by_label("Apply once").click();
    settle(&mut h);
    h.get_by_label("8 field(s) change");
    assert_eq!(bd(&h.state().state).history().len_done(), 0);
    assert_eq!(
        bd(&h.state().state)
            .shown_cell_in(&h.state().state, Pos::new(3, 1))
            .unwrap()
            .token,
        Token::Gem
    );
    assert_eq!(
        bd(&h.state().state)
            .level()
            .map
            .get(Pos::new(3, 1))
            .unwrap()
            .token,
        Token::Stone
    );
    // A rule that needs a token nobody makes is flagged.
    click(&mut h, "+ Add post");
    click(&mut h, "original block 0: *");
    h.get_by_label("* any token").click();
    settle(&mut h);
    h.get_by_role_and_label(Role::CheckBox, "sieve").click();
    settle(&mut h);
    h.get_by_role_and_label(Role::CheckBox, "path").click(); // only sieve now
    settle(&mut h);
    h.get_by_label_contains("Can never match: block 0 needs sieve");
}

fn level_files() -> Vec<std::path::PathBuf> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../levels/boulder");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert!(files.len() >= 6);
    files
}

#[test]
fn a_tick_phase_by_phase_in_the_debugger_equals_a_whole_tick_on_every_level() {
    // Inputs chosen in the pane: right, down, no key.
    let picks = [
        (">", Input::Move(Dir::Right)),
        ("v", Input::Move(Dir::Down)),
        ("·", Input::Wait),
    ];
    for file in level_files() {
        let lvl =
            BoulderLevel::from_json(&tilesmith_engine::load_file(&file).unwrap().value).unwrap();
        let mut reference = BoulderGame::new(lvl.clone(), 0);
        let mut h = harness(EditorState::new(lvl));
        click(&mut h, "Start playing");
        for (label, input) in picks {
            click(&mut h, label);
            click(&mut h, "Step into tick");
            let n = {
                let d = bd(&h.state().state)
                    .play
                    .as_ref()
                    .unwrap()
                    .debug
                    .as_ref()
                    .unwrap();
                assert_eq!(d.done, 0);
                d.phases.len()
            };
            h.get_by_label_contains("reset of values");
            h.get_by_label_contains("main: gravity");
            for k in 1..=n {
                click(&mut h, "Next phase");
                if k == 2 {
                    click(&mut h, "Previous phase");
                    click(&mut h, "Next phase");
                }
                let d = bd(&h.state().state)
                    .play
                    .as_ref()
                    .unwrap()
                    .debug
                    .as_ref()
                    .unwrap();
                assert_eq!(d.done, k, "{}", file.display());
            }
            click(&mut h, "Finish tick");
            reference.step(input);
            let p = bd(&h.state().state).play.as_ref().unwrap();
            assert!(p.debug.is_none());
            assert_eq!(
                p.game().state_hash(),
                reference.state_hash(),
                "{}: same state as a whole tick",
                file.display()
            );
            assert_eq!(p.game().status(), reference.status());
        }
    }
}

#[test]
fn the_cell_history_shows_the_phases_that_changed_the_hovered_cell() {
    // A stone over a path falls in the first tick.
    let mut l = BoulderLevel::new("fall", 8, 6);
    *l.map.get_mut(Pos::new(4, 1)).unwrap() = Cell::new(Token::Stone);
    *l.map.get_mut(Pos::new(4, 2)).unwrap() = Cell::new(Token::Path);
    let mut h = harness(EditorState::new(l));
    click(&mut h, "Start playing");
    click(&mut h, "Step");
    let p = {
        let app = h.state();
        let r = app.ui.canvas.rect();
        let v = app.state.view;
        r.min + vec2(v.pan[0], v.pan[1]) + vec2(4.5 * v.zoom, 1.5 * v.zoom)
    };
    h.hover_at(p);
    settle(&mut h);
    h.get_by_label("x 4, y 1 in the last tick:");
    h.get_by_label("main: gravity");
    h.get_by_label("before: stone (loose 1, slippery 1, pushable 1)");
    h.get_by_label("after:  path (moved 1)");
}

#[test]
fn switches_and_breakpoints_from_the_rule_list_act_on_play() {
    let rare = rule(
        r#"{"name":"every third","situation":"rare","sparsity":3,"direction":"east","original":[{"token":"exit"}],"result":[{"token":"0","values":{"a":1}}]}"#,
    );
    let mut h = harness(with_rules(vec![mud_to_gem()], vec![rare]));
    click(&mut h, "Start playing");
    click(&mut h, "Rules");
    click(&mut h, "on pre[0]");
    click(&mut h, "breakpoint post[0]");
    assert!(
        bd(&h.state().state)
            .rules
            .disabled
            .contains(&RuleRef::new(RuleList::Pre, 0))
    );
    click(&mut h, "Play pane");
    click(&mut h, "Run");
    let mut frames = 0;
    while bd(&h.state().state).play.as_ref().unwrap().session.running && frames < 2000 {
        h.step();
        frames += 1;
    }
    settle(&mut h);
    let p = bd(&h.state().state).play.as_ref().unwrap();
    assert!(!p.session.running, "Run stopped at the breakpoint");
    assert_eq!(p.game().tick_count(), 3);
    h.get_by_label("Breakpoint: post[0] \"every third\" fired in tick 3 at (8, 6)");
    // The switched-off rule never fired: no mud became gem.
    let b = p.game().board();
    assert_eq!(b.cell(b.idx(Pos::new(4, 4))).token, Token::Mud);
}

#[test]
fn snippets_and_moves_from_the_buttons() {
    let mut h = harness(with_rules(vec![mud_to_gem()], vec![]));
    click(&mut h, "Rules");
    click(&mut h, "Snippets pre");
    click(&mut h, "Ghostling walks");
    assert_eq!(level(&h).pre.len(), 2);
    assert_eq!(
        level(&h).pre[1].name.as_deref(),
        Some("ghostling walks east")
    );
    assert_eq!(
        bd(&h.state().state).rules.selected,
        Some(RuleRef::new(RuleList::Pre, 1)),
        "the inserted rule is selected"
    );
    click(&mut h, "Up");
    assert_eq!(
        level(&h).pre[0].name.as_deref(),
        Some("ghostling walks east")
    );
    click(&mut h, "To post");
    assert_eq!(level(&h).pre.len(), 1);
    assert_eq!(
        level(&h).post[0].name.as_deref(),
        Some("ghostling walks east")
    );
    h.get_by_label("0: ghostling walks east");
    click(&mut h, "Duplicate");
    assert_eq!(level(&h).post.len(), 2);
    assert_eq!(
        bd(&h.state().state).history().done_names(),
        vec!["Insert snippet", "Move rule", "Move rule", "Duplicate rule"]
    );
}
