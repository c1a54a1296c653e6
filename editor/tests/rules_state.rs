//! The rule editor, the live preview, the session switches and the tick debugger, tested on
//! `EditorState` directly (no window).
//!
//! Expected values are worked out by hand from the levels built here (`BoulderLevel::new`
//! gives a `wall` border around `mud`, `me` at (1, 1) and `exit` at (w-2, h-2)), or computed
//! by independent code in this file (the window counter), or by the engine's whole-tick
//! `Game::step` on a separate game (the reference the debugger must agree with).

#![allow(clippy::unwrap_used)] // test helpers panic on purpose when a fixture is wrong

use tilesmith_editor::kinds::boulder::rules::panel::{JsonTarget, RuleEvent, RuleView, Side};
use tilesmith_editor::kinds::boulder::rules::{
    RuleList, RuleOp, RuleRef, parse_rule_text, rule_text, snippets,
};
use tilesmith_editor::kinds::boulder::{BoulderAction, BoulderDoc};
use tilesmith_editor::state::{Action, EditorState, MapAction, PlayAction, SideTab};
use tilesmith_engine::kind::boulder::{
    BoulderGame, BoulderLevel, Cell, Pattern, Rule, Situation, Token, TokenPattern, ValueKey,
    ValueName,
};
use tilesmith_engine::observe::Phase;
use tilesmith_engine::{Dir, Game as _, Input, Pos};

/// The open boulder document.
fn bd(s: &EditorState) -> &BoulderDoc {
    s.doc_as::<BoulderDoc>()
        .expect("a boulder document is open")
}

fn pre(i: usize) -> RuleRef {
    RuleRef::new(RuleList::Pre, i)
}

fn post(i: usize) -> RuleRef {
    RuleRef::new(RuleList::Post, i)
}

fn rule(json: &str) -> Rule {
    parse_rule_text(json).expect("test rule is valid")
}

fn ev(s: &mut EditorState, e: RuleEvent) {
    s.apply(Action::from(BoulderAction::Rule(e)));
}

fn op(s: &mut EditorState, o: RuleOp) {
    ev(s, RuleEvent::Op(o));
}

fn st_with(pre_rules: Vec<Rule>, post_rules: Vec<Rule>) -> EditorState {
    let mut l = BoulderLevel::new("t", 10, 8);
    l.pre = pre_rules;
    l.post = post_rules;
    EditorState::new(l)
}

/// A level from rows of characters: `#` wall, `.` path, `m` mud, `o` stone, `*` gem, `M` me,
/// `E` exit, `f` fire, `s` sand, `v` sieve, `p` pot.
fn level_from(rows: &[&str]) -> BoulderLevel {
    let (w, h) = (rows[0].len(), rows.len());
    let mut l = BoulderLevel::new("map", w, h);
    for (y, row) in rows.iter().enumerate() {
        for (x, ch) in row.chars().enumerate() {
            *l.map.get_mut(Pos::new(x, y)).unwrap() = Cell::new(token_of(ch));
        }
    }
    l
}

fn token_of(ch: char) -> Token {
    match ch {
        '#' => Token::Wall,
        '.' => Token::Path,
        'm' => Token::Mud,
        'o' => Token::Stone,
        '*' => Token::Gem,
        'M' => Token::Me,
        'E' => Token::Exit,
        'f' => Token::Fire,
        's' => Token::Sand,
        'v' => Token::Sieve,
        'p' => Token::Pot,
        _ => panic!("unknown map character {ch}"),
    }
}

/// Independent window counter (spec boulder §4.5): split the map into lines in the rule's
/// direction, search each line from its start, take the first occurrence, continue after it.
/// `blocks[k]` is the characters block k accepts (`None` = `*`).
fn hand_windows(rows: &[&str], blocks: &[Option<&str>], dir: Dir) -> Vec<Vec<Pos>> {
    let grid: Vec<Vec<char>> = rows.iter().map(|r| r.chars().collect()).collect();
    let (w, h) = (grid[0].len(), grid.len());
    let lines: Vec<Vec<Pos>> = match dir {
        Dir::Right => (0..h)
            .map(|y| (0..w).map(|x| Pos::new(x, y)).collect())
            .collect(),
        Dir::Left => (0..h)
            .map(|y| (0..w).rev().map(|x| Pos::new(x, y)).collect())
            .collect(),
        Dir::Down => (0..w)
            .map(|x| (0..h).map(|y| Pos::new(x, y)).collect())
            .collect(),
        Dir::Up => (0..w)
            .map(|x| (0..h).rev().map(|y| Pos::new(x, y)).collect())
            .collect(),
    };
    let n = blocks.len();
    let mut out = Vec::new();
    for line in lines {
        let mut i = 0;
        while i + n <= line.len() {
            let fits = (0..n).all(|k| {
                let p = line[i + k];
                blocks[k].is_none_or(|set| set.contains(grid[p.y][p.x]))
            });
            if fits {
                out.push(line[i..i + n].to_vec());
                i += n;
            } else {
                i += 1;
            }
        }
    }
    out
}

const MAP: [&str; 9] = [
    "oo.oo.ooo..o",
    ".o..o.o.o.oo",
    "o.mo*..oo.o.",
    "oo.o.mo..oo.",
    "*.oo..o.o..o",
    "o..o.oo.*o.o",
    ".oo..o.oo..o",
    "o.o.m..o.o.o",
    "..oo.o..o..*",
];

#[test]
fn preview_windows_and_count_match_an_independent_count_in_every_direction() {
    let cases: Vec<(&str, Vec<Option<&str>>, Dir)> = vec![
        (
            r#"{"situation":"any","direction":"east","original":[{"token":"stone"},{"token":"path"}],"result":[{"token":"path"},{"token":"stone"}]}"#,
            vec![Some("o"), Some(".")],
            Dir::Right,
        ),
        (
            r#"{"situation":"any","direction":"west","original":[{"token":"stone"},{"token":"path"}],"result":[{"token":"1"},{"token":"0"}]}"#,
            vec![Some("o"), Some(".")],
            Dir::Left,
        ),
        (
            r#"{"situation":"any","direction":"south","original":[{"token":["stone","gem"]},{"token":"*"},{"token":"stone"}],"result":[{"token":"0"},{"token":"gem"},{"token":"2"}]}"#,
            vec![Some("o*"), None, Some("o")],
            Dir::Down,
        ),
        (
            r#"{"situation":"any","direction":"north","original":[{"token":"path"},{"token":"path"}],"result":[{"token":"gem"},{"token":"1"}]}"#,
            vec![Some("."), Some(".")],
            Dir::Up,
        ),
        (
            r#"{"situation":"rare","sparsity":4,"direction":"east","original":[{"token":"stone"},{"token":"stone"}],"result":[{"token":"mud"},{"token":"1"}]}"#,
            vec![Some("o"), Some("o")],
            Dir::Right,
        ),
    ];
    for (json, blocks, dir) in cases {
        let mut l = level_from(&MAP);
        l.pre = vec![rule(json)];
        let mut s = EditorState::new(l);
        ev(&mut s, RuleEvent::Select(Some(pre(0))));
        let want = hand_windows(&MAP, &blocks, dir);
        let pv = bd(&s)
            .rule_preview()
            .expect("a selected rule has a preview");
        assert!(!want.is_empty(), "{json}: the map has matches");
        assert_eq!(pv.matches.len(), want.len(), "{json}: match count");
        // Same windows; the engine's order keeps each line's windows in scan order.
        let mut got = pv.windows.clone();
        let mut sorted = want.clone();
        got.sort();
        sorted.sort();
        assert_eq!(got, sorted, "{json}: windows");
        for line_windows in want.windows(2) {
            let (a, b) = (&line_windows[0], &line_windows[1]);
            let same_line = if dir.is_horizontal() {
                a[0].y == b[0].y
            } else {
                a[0].x == b[0].x
            };
            if same_line {
                let ia = pv.windows.iter().position(|w| w == a).unwrap();
                let ib = pv.windows.iter().position(|w| w == b).unwrap();
                assert!(ia < ib, "{json}: windows of one line in scan order");
            }
        }
        for (m, w) in pv.matches.iter().zip(&pv.windows) {
            assert_eq!(*m, w[0], "a match is named by its window's position 0");
        }
    }
}

#[test]
fn apply_once_shows_the_result_on_a_scratch_copy_only() {
    // Fire spreads east into mud: row 1 has fire at 1 and 4 with mud right of both.
    let rows = ["#######", "#fmmfm#", "#mmmmm#", "#######"];
    let mut l = level_from(&rows);
    l.pre = vec![rule(
        r#"{"situation":"any","direction":"east","original":[{"token":"fire"},{"token":"mud"}],"result":[{"token":"0"},{"token":"fire"}]}"#,
    )];
    let mut s = EditorState::new(l.clone());
    ev(&mut s, RuleEvent::Select(Some(pre(0))));
    ev(&mut s, RuleEvent::SetApplyOnce(true));
    // Only shown while the rule editor is the side panel's page.
    assert!(
        bd(&s)
            .apply_once_map(s.side_tab == SideTab::Rules)
            .is_none()
    );
    s.apply(Action::SideTab(SideTab::Rules));
    let after = bd(&s)
        .apply_once_map(s.side_tab == SideTab::Rules)
        .expect("apply once shows the scratch map");
    // Windows (1,1)-(2,1) and (4,1)-(5,1): the mud at 2 and 5 becomes fire; mud at 3 stays
    // (the search continues after each window).
    assert_eq!(after.get(Pos::new(2, 1)).unwrap().token, Token::Fire);
    assert_eq!(after.get(Pos::new(5, 1)).unwrap().token, Token::Fire);
    assert_eq!(after.get(Pos::new(3, 1)).unwrap().token, Token::Mud);
    assert_eq!(
        bd(&s).shown_cell_in(&s, Pos::new(2, 1)).unwrap().token,
        Token::Fire
    );
    let pv = bd(&s).rule_preview().unwrap();
    assert_eq!(pv.matches, vec![Pos::new(1, 1), Pos::new(4, 1)]);
    assert!(pv.changed.contains(&Pos::new(2, 1)) && pv.changed.contains(&Pos::new(5, 1)));
    assert!(!pv.changed.contains(&Pos::new(3, 1)));
    // The design is untouched and nothing entered the history.
    assert_eq!(*bd(&s).level(), l);
    assert_eq!(bd(&s).history().len_done(), 0);
    ev(&mut s, RuleEvent::SetApplyOnce(false));
    assert_eq!(
        bd(&s).shown_cell_in(&s, Pos::new(2, 1)).unwrap().token,
        Token::Mud
    );
}

#[test]
fn preview_is_recomputed_when_the_rule_or_map_changes() {
    let mut s = st_with(
        vec![rule(
            r#"{"situation":"any","direction":"east","original":[{"token":"exit"}],"result":[{"token":"0"}]}"#,
        )],
        vec![],
    );
    ev(&mut s, RuleEvent::Select(Some(pre(0))));
    assert_eq!(bd(&s).rule_preview().unwrap().matches, vec![Pos::new(8, 6)]);
    // Painting a second exit adds a match; changing the rule to mud counts the mud.
    s.apply(Action::from(BoulderAction::SetCell {
        pos: Pos::new(3, 3),
        cell: Cell::new(Token::Exit),
    }));
    assert_eq!(bd(&s).rule_preview().unwrap().matches.len(), 2);
    op(
        &mut s,
        RuleOp::SetPattern {
            rule: pre(0),
            block: 0,
            pattern: Pattern {
                token: TokenPattern::OneOf(vec![Token::Mud]),
                values: vec![],
                extra: Default::default(),
            },
        },
    );
    // 8×6 inside, minus me and two exits.
    assert_eq!(bd(&s).rule_preview().unwrap().matches.len(), 48 - 3);
    s.apply(Action::Map(MapAction::Undo));
    assert_eq!(bd(&s).rule_preview().unwrap().matches.len(), 2);
}

#[test]
fn a_rule_change_is_one_named_undoable_edit() {
    let mut s = st_with(vec![], vec![]);
    op(&mut s, RuleOp::Add(RuleList::Pre));
    ev(&mut s, RuleEvent::Select(Some(pre(0))));
    op(&mut s, RuleOp::SetDirection(pre(0), Dir::Down));
    op(
        &mut s,
        RuleOp::AddBlock {
            rule: pre(0),
            front: false,
        },
    );
    assert_eq!(
        bd(&s).history().done_names(),
        vec!["Add rule", "Rule direction", "Add block"]
    );
    assert_eq!(bd(&s).level().pre.len(), 1);
    assert_eq!(bd(&s).level().pre[0].direction, Dir::Down);
    assert_eq!(bd(&s).level().pre[0].original.len(), 2);
    assert_eq!(bd(&s).level().pre[0].result.len(), 2);
    assert!(s.dirty());
    s.apply(Action::Map(MapAction::Undo));
    assert_eq!(bd(&s).level().pre[0].original.len(), 1);
    s.apply(Action::Map(MapAction::Undo));
    assert_eq!(bd(&s).level().pre[0].direction, Dir::Right);
    s.apply(Action::Map(MapAction::Undo));
    assert!(bd(&s).level().pre.is_empty());
    assert_eq!(
        bd(&s).rules.selected,
        None,
        "the selection follows the undo"
    );
    assert!(!s.dirty());
    s.apply(Action::Map(MapAction::Redo));
    s.apply(Action::Map(MapAction::Redo));
    assert_eq!(bd(&s).level().pre[0].direction, Dir::Down);
    // Saving the level keeps the rule (the document changed, not only the panel).
    let json = bd(&s).level().to_json();
    assert_eq!(json["pre"][0]["direction"], "south");
}

#[test]
fn typing_a_name_or_dragging_a_value_is_one_undo_step() {
    let mut s = st_with(
        vec![rule(
            r#"{"situation":"rare","sparsity":5,"direction":"east","original":[{"token":"mud","values":{"a":1}}],"result":[{"token":"0"}]}"#,
        )],
        vec![],
    );
    for name in ["f", "fi", "fir", "fire"] {
        op(&mut s, RuleOp::SetName(pre(0), Some(name.into())));
    }
    assert_eq!(bd(&s).level().pre[0].name.as_deref(), Some("fire"));
    for sp in 6..=9 {
        op(
            &mut s,
            RuleOp::SetSituation(pre(0), Situation::Rare { sparsity: sp }),
        );
    }
    for a in 2..=4 {
        op(
            &mut s,
            RuleOp::SetPattern {
                rule: pre(0),
                block: 0,
                pattern: Pattern {
                    token: TokenPattern::OneOf(vec![Token::Mud]),
                    values: vec![(ValueName::Field(ValueKey::A), a)],
                    extra: Default::default(),
                },
            },
        );
    }
    assert_eq!(
        bd(&s).history().done_names(),
        vec!["Rule name", "Rule situation", "Rule block"]
    );
    s.apply(Action::Map(MapAction::Undo));
    assert_eq!(
        bd(&s).level().pre[0].original[0].values,
        vec![(ValueName::Field(ValueKey::A), 1)]
    );
    s.apply(Action::Map(MapAction::Undo));
    assert_eq!(
        bd(&s).level().pre[0].situation,
        Situation::Rare { sparsity: 5 }
    );
    s.apply(Action::Map(MapAction::Undo));
    assert_eq!(bd(&s).level().pre[0].name, None);
}

#[test]
fn selection_switches_and_breakpoints_follow_moves_deletes_and_undo() {
    let named = |n: &str| {
        let mut r = tilesmith_editor::kinds::boulder::rules::blank_rule();
        r.name = Some(n.into());
        r
    };
    let mut s = st_with(vec![named("a"), named("b"), named("c")], vec![]);
    ev(&mut s, RuleEvent::Select(Some(pre(2))));
    ev(&mut s, RuleEvent::ToggleDisabled(pre(2)));
    ev(&mut s, RuleEvent::ToggleBreakpoint(pre(0)));
    // Move "c" to the top: the selection, its switch and the breakpoint on "a" follow.
    op(
        &mut s,
        RuleOp::Move {
            from: pre(2),
            to: pre(0),
        },
    );
    assert_eq!(bd(&s).level().pre[0].name.as_deref(), Some("c"));
    assert_eq!(bd(&s).rules.selected, Some(pre(0)));
    assert!(bd(&s).rules.disabled.contains(&pre(0)) && bd(&s).rules.disabled.len() == 1);
    assert!(bd(&s).rules.breakpoints.contains(&pre(1)) && bd(&s).rules.breakpoints.len() == 1);
    // Moving to another list's end ("To post").
    op(
        &mut s,
        RuleOp::Move {
            from: pre(0),
            to: post(usize::MAX),
        },
    );
    assert_eq!(bd(&s).level().post[0].name.as_deref(), Some("c"));
    assert_eq!(bd(&s).rules.selected, Some(post(0)));
    // Delete the selected rule: nothing is selected, and its switch is gone.
    op(&mut s, RuleOp::Delete(post(0)));
    assert_eq!(bd(&s).rules.selected, None);
    assert!(bd(&s).rules.disabled.is_empty());
    // Select the last rule, then undo its creation: the selection moves to a rule that exists.
    op(&mut s, RuleOp::Add(RuleList::Pre));
    ev(&mut s, RuleEvent::Select(Some(pre(2))));
    ev(&mut s, RuleEvent::SelectBlock(Some((Side::Original, 0))));
    s.apply(Action::Map(MapAction::Undo));
    assert_eq!(bd(&s).level().pre.len(), 2);
    assert_eq!(bd(&s).rules.selected, Some(pre(1)));
    assert_eq!(bd(&s).rules.block, None);
    // Removing a block that is selected clears the block selection.
    ev(&mut s, RuleEvent::Select(Some(pre(1))));
    op(
        &mut s,
        RuleOp::AddBlock {
            rule: pre(1),
            front: false,
        },
    );
    ev(&mut s, RuleEvent::SelectBlock(Some((Side::Result, 1))));
    s.apply(Action::Map(MapAction::Undo));
    assert_eq!(bd(&s).rules.block, None);
}

#[test]
fn json_view_follows_the_selection_but_never_clobbers_unapplied_text() {
    let r0 = rule(
        r#"{"name":"zero","situation":"any","direction":"east","original":[{"token":"mud"}],"result":[{"token":"gem"}]}"#,
    );
    let r1 = rule(
        r#"{"name":"one","situation":"any","direction":"west","original":[{"token":"stone"}],"result":[{"token":"0"}]}"#,
    );
    let mut s = st_with(vec![r0.clone(), r1.clone()], vec![]);
    ev(&mut s, RuleEvent::SetView(RuleView::Json));
    ev(&mut s, RuleEvent::Select(Some(pre(0))));
    assert_eq!(bd(&s).rules.json, rule_text(&r0));
    ev(&mut s, RuleEvent::Select(Some(pre(1))));
    assert_eq!(
        bd(&s).rules.json,
        rule_text(&r1),
        "a clean buffer follows the selection"
    );
    // A visual edit of the selected rule refreshes the clean buffer.
    op(&mut s, RuleOp::SetDirection(pre(1), Dir::Up));
    assert!(bd(&s).rules.json.contains("\"north\""));
    // Typed, unapplied text stays when the selection changes, and keeps its target.
    let typed = bd(&s).rules.json.replace("north", "south");
    ev(&mut s, RuleEvent::JsonEdited(typed.clone()));
    ev(&mut s, RuleEvent::Select(Some(pre(0))));
    assert_eq!(bd(&s).rules.json, typed);
    assert_eq!(bd(&s).rules.json_for, Some(JsonTarget::Rule(pre(1))));
    ev(&mut s, RuleEvent::ApplyJson);
    assert_eq!(
        bd(&s).level().pre[1].direction,
        Dir::Down,
        "applied to the rule it came from"
    );
    assert_eq!(bd(&s).level().pre[0], r0);
    assert_eq!(
        bd(&s).history().done_names().last(),
        Some(&"Edit rule JSON")
    );
    // After applying, the buffer is clean and follows the selection again.
    assert_eq!(bd(&s).rules.json, rule_text(&bd(&s).level().pre[0]));
}

#[test]
fn json_problems_use_the_messages_of_tilesmith_check() {
    let mut s = st_with(
        vec![tilesmith_editor::kinds::boulder::rules::blank_rule()],
        vec![],
    );
    ev(&mut s, RuleEvent::Select(Some(pre(0))));
    ev(&mut s, RuleEvent::SetView(RuleView::Json));
    let bad = "{\n  \"situation\": \"sometimes\",\n  \"direction\": \"east\",\n  \"original\": [{\"token\": \"mud\"}],\n  \"result\": [{\"token\": \"0\"}]\n}";
    ev(&mut s, RuleEvent::JsonEdited(bad.into()));
    ev(&mut s, RuleEvent::ApplyJson);
    assert_eq!(bd(&s).history().len_done(), 0, "nothing applied");
    assert_eq!(bd(&s).rules.json, bad, "the text stays for fixing");
    let msgs: Vec<String> = bd(&s)
        .rules
        .json_problems
        .iter()
        .map(|p| p.render("json"))
        .collect();
    assert_eq!(
        msgs,
        vec![
            "json:2:16: unknown situation \"sometimes\" (known: any, rare, left, right, up, down, metaleft, metaright, metaup, metadown) (at $.situation)"
        ]
    );
    // The all-rules view: both lists at once, errors with their paths.
    ev(&mut s, RuleEvent::SetView(RuleView::AllJson));
    ev(&mut s, RuleEvent::RevertJson);
    assert!(bd(&s).rules.json.contains("\"pre\""));
    ev(&mut s, RuleEvent::JsonEdited(
        r#"{"pre": [], "post": [{"situation":"any","direction":"east","original":[{"token":"mud"}],"result":[{"token":"gem"}]}]}"#.into(),
    ));
    ev(&mut s, RuleEvent::ApplyJson);
    assert!(bd(&s).rules.json_problems.is_empty());
    assert_eq!(
        (bd(&s).level().pre.len(), bd(&s).level().post.len()),
        (0, 1)
    );
    assert_eq!(
        bd(&s).level().post[0].original[0].token,
        TokenPattern::OneOf(vec![Token::Mud])
    );
    s.apply(Action::Map(MapAction::Undo));
    assert_eq!(
        (bd(&s).level().pre.len(), bd(&s).level().post.len()),
        (1, 0)
    );
}

/// A member named twice in the JSON view is refused as in a level file (issue #30, "Strict
/// files"): serde_json alone would keep the second `"direction"` without a word.
#[test]
fn a_member_given_twice_in_the_json_view_is_an_error_naming_both() {
    let mut s = st_with(
        vec![tilesmith_editor::kinds::boulder::rules::blank_rule()],
        vec![],
    );
    ev(&mut s, RuleEvent::Select(Some(pre(0))));
    ev(&mut s, RuleEvent::SetView(RuleView::Json));
    let twice = "{\n  \"situation\": \"any\",\n  \"direction\": \"east\",\n  \"direction\": \"west\",\n  \"original\": [{\"token\": \"mud\"}],\n  \"result\": [{\"token\": \"0\"}]\n}";
    ev(&mut s, RuleEvent::JsonEdited(twice.into()));
    ev(&mut s, RuleEvent::ApplyJson);
    assert_eq!(bd(&s).history().len_done(), 0, "nothing applied");
    let msgs: Vec<String> = bd(&s)
        .rules
        .json_problems
        .iter()
        .map(|p| p.render("json"))
        .collect();
    assert_eq!(
        msgs,
        [
            "json:4:3: member \"direction\" is given twice in one object (first at line 3, column 3); each member may be given once (at $.direction)"
        ]
    );
}

#[test]
fn snippets_insert_rules_that_work() {
    // Sand on a sieve over a path falls through it: the snippet, inserted and played.
    let rows = ["#####", "#Ms.#", "#.v.#", "#...#", "#..E#", "#####"];
    let mut s = EditorState::new(level_from(&rows));
    let i = snippets()
        .iter()
        .position(|sn| sn.title.contains("sieve"))
        .unwrap();
    op(&mut s, RuleOp::InsertSnippet(RuleList::Pre, i));
    assert_eq!(bd(&s).history().done_names(), vec!["Insert snippet"]);
    s.apply(Action::Play(PlayAction::Start));
    s.apply(Action::Play(PlayAction::Step(Some(Input::Wait))));
    let p = bd(&s).play.as_ref().unwrap();
    let at = |x, y| {
        p.game()
            .board()
            .cell(p.game().board().idx(Pos::new(x, y)))
            .token
    };
    assert_eq!(at(2, 1), Token::Path);
    assert_eq!(at(2, 2), Token::Sieve);
    assert_eq!(at(2, 3), Token::Sand);
}

#[test]
fn never_matching_rules_are_flagged() {
    let mut s = st_with(
        vec![rule(
            r#"{"situation":"any","direction":"east","original":[{"token":"sieve"}],"result":[{"token":"gem"}]}"#,
        )],
        vec![],
    );
    s.refresh();
    let nm = bd(&s).never_matching();
    assert_eq!(nm.len(), 1);
    assert_eq!((nm[0].post, nm[0].index, nm[0].block), (false, 0, 0));
    assert_eq!(nm[0].missing, vec![Token::Sieve]);
    assert!(
        s.problems.iter().any(|p| p.message.contains("never match")),
        "{:?}",
        s.problems
    );
    // A sieve on the map makes it matchable.
    s.apply(Action::from(BoulderAction::SetCell {
        pos: Pos::new(4, 4),
        cell: Cell::new(Token::Sieve),
    }));
    assert!(bd(&s).never_matching().is_empty());
}

/// A rule that turns every mud east of the figure's row into gem, once per tick.
fn mud_to_gem() -> Rule {
    rule(
        r#"{"name":"mud to gem","situation":"any","direction":"east","original":[{"token":"mud"}],"result":[{"token":"gem"}]}"#,
    )
}

fn play_token(s: &EditorState, x: usize, y: usize) -> Token {
    let b = bd(s).play.as_ref().unwrap().game().board();
    b.cell(b.idx(Pos::new(x, y))).token
}

#[test]
fn a_rule_switched_off_does_not_fire_in_play() {
    let mut s = st_with(vec![mud_to_gem()], vec![]);
    ev(&mut s, RuleEvent::ToggleDisabled(pre(0)));
    s.apply(Action::Play(PlayAction::Start));
    s.apply(Action::Play(PlayAction::Step(Some(Input::Wait))));
    assert_eq!(play_token(&s, 4, 4), Token::Mud);
    assert!(
        bd(&s)
            .play
            .as_ref()
            .unwrap()
            .session
            .report
            .as_ref()
            .unwrap()
            .fired
            .is_empty()
    );
    // Switched on during the session: it fires from the next tick on.
    ev(&mut s, RuleEvent::ToggleDisabled(pre(0)));
    s.apply(Action::Play(PlayAction::Step(Some(Input::Wait))));
    assert_eq!(play_token(&s, 4, 4), Token::Gem);
    let r = bd(&s)
        .play
        .as_ref()
        .unwrap()
        .session
        .report
        .as_ref()
        .unwrap();
    assert_eq!(r.fired.len(), 1);
    assert_eq!(r.fired[0].phase, Phase::Pre(0));
    // The level itself still has the rule, switched on.
    assert_eq!(bd(&s).level().pre.len(), 1);
    // Switched off again before a restart: Reset plays without it.
    ev(&mut s, RuleEvent::ToggleDisabled(pre(0)));
    s.apply(Action::Play(PlayAction::Reset));
    s.apply(Action::Play(PlayAction::Step(Some(Input::Wait))));
    assert_eq!(play_token(&s, 4, 4), Token::Mud);
}

#[test]
fn a_breakpoint_stops_run_at_the_tick_where_its_rule_fires() {
    // Fires only in ticks 3, 6, 9, …: a stone becomes a gem.
    let rare = rule(
        r#"{"name":"every third","situation":"rare","sparsity":3,"direction":"east","original":[{"token":"exit"}],"result":[{"token":"0","values":{"a":1}}]}"#,
    );
    let mut s = st_with(vec![mud_to_gem()], vec![rare]);
    ev(&mut s, RuleEvent::ToggleDisabled(pre(0)));
    ev(&mut s, RuleEvent::ToggleBreakpoint(post(0)));
    s.apply(Action::Play(PlayAction::Start));
    s.apply(Action::Play(PlayAction::Run(true)));
    // 0.1 s per frame at 5 ticks/s: a tick every other frame.
    let mut frames = 0;
    while bd(&s).play.as_ref().unwrap().session.running && frames < 100 {
        s.apply(Action::Play(PlayAction::Advance {
            dt: 0.1,
            held: None,
        }));
        frames += 1;
    }
    let p = bd(&s).play.as_ref().unwrap();
    assert!(!p.session.running, "Run stopped");
    assert_eq!(p.game().tick_count(), 3);
    let hit = p.break_hit.as_ref().expect("a breakpoint hit is shown");
    assert_eq!(hit.tick, 3);
    assert_eq!(hit.rules.len(), 1);
    assert_eq!(hit.rules[0].0, post(0));
    assert_eq!(hit.rules[0].1.as_deref(), Some("every third"));
    assert_eq!(hit.rules[0].2, vec![Pos::new(8, 6)]);
    // Run again: it stops at tick 6. Without the breakpoint it runs on.
    s.apply(Action::Play(PlayAction::Run(true)));
    for _ in 0..100 {
        if !bd(&s).play.as_ref().unwrap().session.running {
            break;
        }
        s.apply(Action::Play(PlayAction::Advance {
            dt: 0.1,
            held: None,
        }));
    }
    assert_eq!(bd(&s).play.as_ref().unwrap().game().tick_count(), 6);
    ev(&mut s, RuleEvent::ToggleBreakpoint(post(0)));
    s.apply(Action::Play(PlayAction::Run(true)));
    for _ in 0..20 {
        s.apply(Action::Play(PlayAction::Advance {
            dt: 0.1,
            held: None,
        }));
    }
    let p = bd(&s).play.as_ref().unwrap();
    assert!(p.session.running);
    assert_eq!(p.game().tick_count(), 16);
}

const INPUTS: [Input; 8] = [
    Input::Move(Dir::Right),
    Input::Move(Dir::Down),
    Input::Wait,
    Input::Meta(Dir::Left),
    Input::Move(Dir::Left),
    Input::Move(Dir::Up),
    Input::Move(Dir::Right),
    Input::Wait,
];

fn level_files() -> Vec<std::path::PathBuf> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../levels/boulder");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert!(files.len() >= 6, "levels/boulder has the original levels");
    files
}

#[test]
fn phase_by_phase_in_the_debugger_equals_whole_ticks_on_every_level() {
    for file in level_files() {
        let level =
            BoulderLevel::from_json(&tilesmith_engine::load_file(&file).unwrap().value).unwrap();
        let mut reference = BoulderGame::new(level.clone(), 0);
        let mut s = EditorState::new(level);
        s.apply(Action::Play(PlayAction::Start));
        for (t, input) in INPUTS.iter().enumerate() {
            if reference.status().is_over() {
                break;
            }
            let whole = reference.step(*input);
            s.apply(Action::from(BoulderAction::PlayStepInto(Some(*input))));
            let n = bd(&s)
                .play
                .as_ref()
                .unwrap()
                .debug
                .as_ref()
                .unwrap()
                .phases
                .len();
            let pre = reference.level().pre.len();
            let post_n = reference.level().post.len();
            assert_eq!(
                n,
                1 + pre + 5 + post_n,
                "{}: the phase list",
                file.display()
            );
            let mut k = 0;
            while bd(&s).play.as_ref().unwrap().debug.as_ref().unwrap().done < n {
                s.apply(Action::from(BoulderAction::PlayNextPhase));
                k += 1;
                // Step back once in the middle of every tick: restore and re-run.
                if k == n / 2 {
                    s.apply(Action::from(BoulderAction::PlayPrevPhase));
                    assert_eq!(
                        bd(&s).play.as_ref().unwrap().debug.as_ref().unwrap().done,
                        k - 1
                    );
                    s.apply(Action::from(BoulderAction::PlayNextPhase));
                }
            }
            let mid = bd(&s).play.as_ref().unwrap().debug.as_ref().unwrap();
            let phases: Vec<Phase> = mid.records.iter().map(|(p, _)| *p).collect();
            assert_eq!(phases, mid.phases, "one record per phase, in order");
            s.apply(Action::from(BoulderAction::PlayFinishTick));
            let p = bd(&s).play.as_ref().unwrap();
            assert!(p.debug.is_none());
            assert_eq!(
                p.game().state_hash(),
                reference.state_hash(),
                "{} tick {}: same state as a whole tick",
                file.display(),
                t + 1
            );
            assert_eq!(p.game().status(), reference.status());
            assert_eq!(p.game().tick_count(), reference.tick_count());
            let r = p.session.report.as_ref().unwrap();
            assert_eq!(r.changed, whole.changed, "same changed cells");
            assert_eq!(r.fired, whole.fired, "same rule firings");
            assert_eq!(p.session.inputs.len(), t + 1);
        }
        // The debugged ticks are in the session's history like any other.
        let before = bd(&s).play.as_ref().unwrap().game().state_hash();
        s.apply(Action::Play(PlayAction::Back));
        s.apply(Action::Play(PlayAction::Forward));
        assert_eq!(bd(&s).play.as_ref().unwrap().game().state_hash(), before);
    }
}

#[test]
fn cancelling_a_debugged_tick_restores_the_state_before_it() {
    let mut s = st_with(vec![mud_to_gem()], vec![]);
    s.apply(Action::Play(PlayAction::Start));
    s.apply(Action::Play(PlayAction::Step(Some(Input::Wait))));
    let before = bd(&s).play.as_ref().unwrap().game().state_hash();
    s.apply(Action::from(BoulderAction::PlayStepInto(Some(
        Input::Move(Dir::Right),
    ))));
    for _ in 0..4 {
        s.apply(Action::from(BoulderAction::PlayNextPhase));
    }
    assert_ne!(bd(&s).play.as_ref().unwrap().game().state_hash(), before);
    s.apply(Action::from(BoulderAction::PlayAbortTick));
    let p = bd(&s).play.as_ref().unwrap();
    assert!(p.debug.is_none());
    assert_eq!(p.game().state_hash(), before);
    assert_eq!(p.game().tick_count(), 1);
    // Step while debugging finishes the tick (with the tick's own input).
    s.apply(Action::from(BoulderAction::PlayStepInto(Some(
        Input::Move(Dir::Down),
    ))));
    s.apply(Action::Play(PlayAction::Step(Some(Input::Wait))));
    let p = bd(&s).play.as_ref().unwrap();
    assert!(p.debug.is_none());
    assert_eq!(p.session.inputs, vec![Input::Wait, Input::Move(Dir::Down)]);
    assert_eq!(play_token(&s, 1, 2), Token::Me, "the figure moved down");
}

#[test]
fn cell_history_lists_the_phases_that_changed_a_cell() {
    // A stone over a path: the pre rule marks it (a + 1), then gravity moves it down.
    let rows = ["#####", "#M.o#", "#...#", "#..E#", "#####"];
    let mut l = level_from(&rows);
    l.pre = vec![rule(
        r#"{"name":"mark stones","situation":"any","direction":"east","original":[{"token":"stone"}],"result":[{"token":"0","values":{"a":1}}]}"#,
    )];
    let mut s = EditorState::new(l);
    s.apply(Action::Play(PlayAction::Start));
    s.apply(Action::Play(PlayAction::Step(Some(Input::Wait))));
    let p = bd(&s).play.as_ref().unwrap();
    let h = p.cell_history(Pos::new(3, 1));
    let phases: Vec<Phase> = h.iter().map(|(ph, _, _)| *ph).collect();
    assert!(phases.contains(&Phase::Pre(0)), "{phases:?}");
    assert_eq!(phases.last(), Some(&Phase::Main("gravity")), "{phases:?}");
    let (_, before, after) = h.iter().find(|(ph, _, _)| *ph == Phase::Pre(0)).unwrap();
    assert_eq!(before.token, Token::Stone);
    assert_eq!(before.get(ValueKey::A), 0);
    assert_eq!(after.get(ValueKey::A), 1);
    let (_, before, after) = h.last().unwrap();
    assert_eq!(before.token, Token::Stone);
    assert_eq!(after.token, Token::Path);
    // The cell below got the stone (in the gravity phase).
    let below = p.cell_history(Pos::new(3, 2));
    let (ph, before, after) = below.last().unwrap();
    assert_eq!(*ph, Phase::Main("gravity"));
    assert_eq!((before.token, after.token), (Token::Path, Token::Stone));
    // An untouched wall has no history.
    assert!(p.cell_history(Pos::new(0, 0)).is_empty());
    // While debugging, the history grows phase by phase.
    s.apply(Action::from(BoulderAction::PlayStepInto(Some(Input::Wait))));
    s.apply(Action::from(BoulderAction::PlayNextPhase)); // reset
    s.apply(Action::from(BoulderAction::PlayNextPhase)); // pre 0
    let p = bd(&s).play.as_ref().unwrap();
    let h = p.cell_history(Pos::new(3, 2));
    let (ph, before, after) = h.last().unwrap();
    assert_eq!(*ph, Phase::Pre(0));
    assert_eq!(after.get(ValueKey::A), before.get(ValueKey::A) + 1);
}

#[test]
fn rule_edits_are_refused_while_playing() {
    let mut s = st_with(vec![mud_to_gem()], vec![]);
    s.apply(Action::Play(PlayAction::Start));
    op(&mut s, RuleOp::Delete(pre(0)));
    assert_eq!(bd(&s).level().pre.len(), 1);
    assert_eq!(bd(&s).history().len_done(), 0);
    assert!(s.status.contains("stop playing"));
}
