//! The editor's baba document support, tested directly on `EditorState` (no window).
//!
//! Every expected value is worked out by hand from the level each test builds, from the spec
//! (`baba.md` §3: text is read left→right along rows and top→bottom along columns, a rule such
//! as BABA IS YOU needs three consecutive text cells; §4: YOU objects move one cell per turn,
//! text is pushed, a YOU on a WIN object wins) and from the documented behaviour of the
//! editor's actions (add on top / replace painting, one history entry per interaction).

#![allow(clippy::unwrap_used)] // test helpers panic on purpose when a fixture is wrong

use std::path::PathBuf;

use tilesmith_editor::files::ScriptedDialogs;
use tilesmith_editor::kinds::baba::StackMode;
use tilesmith_editor::kinds::baba::{BabaAction, BabaDoc};
use tilesmith_editor::kinds::boulder::edit::Props;
use tilesmith_editor::kinds::boulder::{BoulderAction, BoulderDoc};
use tilesmith_editor::state::{Action, Answer, EditorState, MapAction, Pending, PlayAction};
use tilesmith_editor::tools::{Button, CellRect, Tool};
use tilesmith_engine::kind::baba::{BabaLevel, Kind, Tile};
use tilesmith_engine::kind::boulder::{BoulderLevel, Cell, Token};
use tilesmith_engine::{Dir, Game as _, Input, Pos, Status};

/// The open boulder document.
fn bd(s: &EditorState) -> &BoulderDoc {
    s.doc_as::<BoulderDoc>()
        .expect("a boulder document is open")
}

// ---------------------------------------------------------------------------------------------
// Helpers

fn kind(token: &str) -> Kind {
    Kind::from_token(token).unwrap_or_else(|| panic!("not a baba token: {token}"))
}

fn tile(token: &str) -> Tile {
    Tile::new(kind(token))
}

fn facing(token: &str, dir: Dir) -> Tile {
    Tile {
        kind: kind(token),
        dir,
    }
}

fn stack(tokens: &[&str]) -> Vec<Tile> {
    tokens.iter().map(|t| tile(t)).collect()
}

/// A `w` × `h` baba level, empty except for the listed stacks (bottom first).
fn level(w: usize, h: usize, cells: &[(usize, usize, &[&str])]) -> BabaLevel {
    let mut l = BabaLevel::new("t", w, h);
    for &(x, y, tokens) in cells {
        *l.map.get_mut(Pos::new(x, y)).unwrap() = stack(tokens);
    }
    l
}

fn baba_state(l: BabaLevel) -> EditorState {
    EditorState::new(l)
}

fn doc(s: &EditorState) -> &BabaDoc {
    s.doc_as::<BabaDoc>().expect("a baba document is open")
}

/// The stack of a design cell.
fn at(s: &EditorState, x: usize, y: usize) -> Vec<Tile> {
    doc(s).level().map.get(Pos::new(x, y)).unwrap().clone()
}

/// The tokens of a design cell, bottom first.
fn toks(s: &EditorState, x: usize, y: usize) -> Vec<String> {
    at(s, x, y).iter().map(|t| t.kind.token()).collect()
}

/// The tokens of a cell of the play state, bottom first.
fn shown(s: &EditorState, x: usize, y: usize) -> Vec<String> {
    let p = doc(s).play.as_ref().expect("playing");
    p.shown
        .map
        .get(Pos::new(x, y))
        .unwrap()
        .iter()
        .map(|t| t.kind.token())
        .collect()
}

/// The number of non-empty cells of the design.
fn occupied(s: &EditorState) -> usize {
    doc(s)
        .level()
        .map
        .cells()
        .iter()
        .filter(|c| !c.is_empty())
        .count()
}

fn rule_texts(s: &EditorState) -> Vec<String> {
    doc(s).rules().iter().map(|r| r.text.to_string()).collect()
}

fn turn(s: &EditorState) -> u64 {
    doc(s).play.as_ref().expect("playing").turn()
}

fn baba(s: &mut EditorState, a: impl Into<Action>) {
    s.apply(a);
}

fn stroke(s: &mut EditorState, from: (usize, usize), path: &[(usize, usize)], button: Button) {
    s.apply(Action::Map(MapAction::CellPress {
        pos: Pos::new(from.0, from.1),
        button,
        alt: false,
    }));
    for &(x, y) in path {
        s.apply(Action::Map(MapAction::CellDrag(Pos::new(x, y))));
    }
    s.apply(Action::Map(MapAction::CellRelease));
}

/// Paints `token` on one cell with the pencil and the left button.
fn paint(s: &mut EditorState, token: &str, x: usize, y: usize) {
    baba(s, BabaAction::SetPrimary(Some(kind(token))));
    stroke(s, (x, y), &[], Button::Primary);
}

fn p(x: usize, y: usize) -> Pos {
    Pos::new(x, y)
}

fn levels_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../levels")
}

/// BABA IS YOU on row 0 of a 6×3 level and a baba at (1, 2).
fn walk_level() -> BabaLevel {
    level(
        6,
        3,
        &[
            (0, 0, &["text_baba"]),
            (1, 0, &["text_is"]),
            (2, 0, &["text_you"]),
            (1, 2, &["baba"]),
        ],
    )
}

// ---------------------------------------------------------------------------------------------
// 1. New documents

#[test]
fn new_baba_level_is_empty_24_by_14_and_clean() {
    let mut s = EditorState::new(BoulderLevel::new("b", 10, 8));
    assert_eq!(s.kind_name(), "boulder");
    s.apply(Action::NewOf("baba"));
    assert_eq!(s.kind_name(), "baba");
    assert_eq!(s.map_size(), (24, 14));
    let d = doc(&s);
    assert_eq!((d.level().width(), d.level().height()), (24, 14));
    assert!(d.level().map.cells().iter().all(Vec::is_empty));
    assert_eq!(d.history().len_done(), 0);
    assert!(d.rules().is_empty());
    assert!(d.play.is_none());
    // The brushes: BABA on the left button, the eraser on the right, facing right, add on top.
    assert_eq!(d.primary, Some(kind("baba")));
    assert_eq!(d.secondary, None);
    assert_eq!(d.facing, Dir::Right);
    assert_eq!(d.stack_mode, StackMode::AddOnTop);
    assert!(!s.dirty());
    assert_eq!(s.path, None);
    assert_eq!(s.title(), "untitled — Tilesmith");

    // "New" on a clean baba document makes another baba level.
    s.apply(Action::New);
    assert!(s.pending.is_none());
    assert_eq!(s.kind_name(), "baba");
    assert_eq!(s.map_size(), (24, 14));

    // With an edit, "New" asks first; after Discard the new level is still baba and empty.
    paint(&mut s, "rock", 3, 3);
    assert!(s.dirty());
    assert_eq!(s.title(), "untitled* — Tilesmith");
    s.apply(Action::New);
    assert!(matches!(s.pending, Some(Pending::Unsaved { .. })));
    assert_eq!(
        toks(&s, 3, 3),
        ["rock"],
        "nothing changes before the answer"
    );
    s.apply(Action::Answer(Answer::Discard));
    assert_eq!(s.kind_name(), "baba");
    assert_eq!(s.map_size(), (24, 14));
    assert_eq!(occupied(&s), 0);
    assert!(!s.dirty());
    assert_eq!(doc(&s).history().len_done(), 0);

    // And NewOf(Boulder) goes back to a boulder level.
    s.apply(Action::NewOf("boulder"));
    assert_eq!(s.kind_name(), "boulder");
    assert!(s.doc_as::<BabaDoc>().is_none());
}

// ---------------------------------------------------------------------------------------------
// 2. Pencil, add on top

#[test]
fn pencil_adds_on_top_once_per_stroke_and_undoes_exactly() {
    let original = level(6, 4, &[(2, 1, &["rock"])]);
    let mut s = baba_state(original.clone());
    // Press on the rock, drag right, drag back onto the rock: one stroke.
    stroke(&mut s, (2, 1), &[(3, 1), (2, 1)], Button::Primary);
    assert_eq!(at(&s, 2, 1), vec![tile("rock"), tile("baba")]);
    assert_eq!(at(&s, 3, 1), vec![tile("baba")]);
    assert_eq!(occupied(&s), 2);
    assert_eq!(doc(&s).history().done_names(), ["Pencil"]);
    assert!(s.dirty());

    s.apply(Action::Map(MapAction::Undo));
    assert_eq!(*doc(&s).level(), original);
    assert!(!s.dirty());
    assert_eq!(doc(&s).history().len_undone(), 1);

    s.apply(Action::Map(MapAction::Redo));
    assert_eq!(at(&s, 2, 1), vec![tile("rock"), tile("baba")]);
    assert_eq!(at(&s, 3, 1), vec![tile("baba")]);
    assert_eq!(doc(&s).history().len_done(), 1);

    // A second stroke on a cell whose top already is a BABA facing right adds nothing, and an
    // edit that changes nothing is no history entry.
    stroke(&mut s, (2, 1), &[], Button::Primary);
    assert_eq!(at(&s, 2, 1), vec![tile("rock"), tile("baba")]);
    assert_eq!(doc(&s).history().len_done(), 1);

    // A jump from (0,3) to (3,3) paints the cells in between too; a second stroke is a second
    // history entry.
    stroke(&mut s, (0, 3), &[(3, 3)], Button::Primary);
    for x in 0..=3 {
        assert_eq!(at(&s, x, 3), vec![tile("baba")], "x = {x}");
    }
    assert!(at(&s, 4, 3).is_empty());
    assert_eq!(doc(&s).history().done_names(), ["Pencil", "Pencil"]);
    s.apply(Action::Map(MapAction::HistoryGoTo(0)));
    assert_eq!(*doc(&s).level(), original);
    s.apply(Action::Map(MapAction::HistoryGoTo(2)));
    assert_eq!(occupied(&s), 6);
}

// ---------------------------------------------------------------------------------------------
// 3. Replace mode, facing, eraser

#[test]
fn replace_mode_facing_and_eraser() {
    let mut s = baba_state(level(
        6,
        4,
        &[
            (1, 1, &["rock", "keke"]),
            (2, 1, &["flag"]),
            (4, 2, &["rock", "text_is"]),
        ],
    ));
    baba(&mut s, BabaAction::SetStackMode(StackMode::Replace));
    baba(&mut s, BabaAction::SetFacing(Dir::Up));
    assert_eq!(doc(&s).stack_mode, StackMode::Replace);
    assert_eq!(doc(&s).facing, Dir::Up);
    stroke(&mut s, (1, 1), &[(2, 1)], Button::Primary);
    assert_eq!(at(&s, 1, 1), vec![facing("baba", Dir::Up)]);
    assert_eq!(at(&s, 2, 1), vec![facing("baba", Dir::Up)]);

    // Back to add on top, a KEKE facing left goes on the baba.
    baba(&mut s, BabaAction::SetStackMode(StackMode::AddOnTop));
    baba(&mut s, BabaAction::SetFacing(Dir::Left));
    paint(&mut s, "keke", 2, 1);
    assert_eq!(
        at(&s, 2, 1),
        vec![facing("baba", Dir::Up), facing("keke", Dir::Left)]
    );

    // The eraser on the right button empties a cell, whatever its stack.
    baba(&mut s, BabaAction::SetSecondary(None));
    stroke(&mut s, (4, 2), &[], Button::Secondary);
    assert!(at(&s, 4, 2).is_empty());
    // Erasing an empty cell changes nothing and is no edit.
    stroke(&mut s, (5, 3), &[], Button::Secondary);
    assert_eq!(
        doc(&s).history().done_names(),
        ["Pencil", "Pencil", "Pencil"]
    );

    s.apply(Action::Map(MapAction::Undo));
    assert_eq!(toks(&s, 4, 2), ["rock", "text_is"]);
    s.apply(Action::Map(MapAction::Undo));
    assert_eq!(at(&s, 2, 1), vec![facing("baba", Dir::Up)]);
    s.apply(Action::Map(MapAction::Undo));
    assert_eq!(toks(&s, 1, 1), ["rock", "keke"]);
    assert_eq!(toks(&s, 2, 1), ["flag"]);

    // The left button can erase too.
    baba(&mut s, BabaAction::SetPrimary(None));
    stroke(&mut s, (1, 1), &[], Button::Primary);
    assert!(at(&s, 1, 1).is_empty());
}

#[test]
fn eyedropper_picks_the_top_object_and_its_facing() {
    let mut s = baba_state(level(6, 4, &[(1, 1, &["rock"])]));
    // Put a keke facing left on the rock.
    baba(&mut s, BabaAction::SetFacing(Dir::Left));
    paint(&mut s, "keke", 1, 1);
    baba(&mut s, BabaAction::SetFacing(Dir::Right));
    baba(&mut s, BabaAction::SetPrimary(Some(kind("flag"))));
    // Alt+click with the pencil picks the top object (keke) and its facing.
    s.apply(Action::Map(MapAction::CellPress {
        pos: p(1, 1),
        button: Button::Primary,
        alt: true,
    }));
    s.apply(Action::Map(MapAction::CellRelease));
    assert_eq!(doc(&s).primary, Some(kind("keke")));
    assert_eq!(doc(&s).facing, Dir::Left);
    assert_eq!(s.inspect, Some(p(1, 1)));
    // The eyedropper tool with the right button.
    s.apply(Action::SelectTool(Tool::Eyedropper));
    s.apply(Action::Map(MapAction::CellPress {
        pos: p(1, 1),
        button: Button::Secondary,
        alt: false,
    }));
    s.apply(Action::Map(MapAction::CellRelease));
    assert_eq!(doc(&s).secondary, Some(kind("keke")));
    assert_eq!(doc(&s).history().len_done(), 1, "picking is not an edit");
    assert_eq!(toks(&s, 1, 1), ["rock", "keke"]);
}

// ---------------------------------------------------------------------------------------------
// 4. Rectangle, line, fill

#[test]
fn rectangle_filled_and_outline_on_stacks() {
    let mut s = baba_state(level(8, 6, &[(2, 2, &["rock"])]));
    s.apply(Action::SelectTool(Tool::Rect));
    // Filled (the default) from (1,1) to (3,2): 3 × 2 = 6 cells; the rock gets a baba on top.
    stroke(&mut s, (1, 1), &[(2, 2), (3, 2)], Button::Primary);
    for y in 1..=2 {
        for x in 1..=3 {
            let want = if (x, y) == (2, 2) {
                vec![tile("rock"), tile("baba")]
            } else {
                vec![tile("baba")]
            };
            assert_eq!(at(&s, x, y), want, "({x},{y})");
        }
    }
    assert_eq!(occupied(&s), 6);
    assert_eq!(doc(&s).history().done_names(), ["Rectangle"]);
    s.apply(Action::Map(MapAction::Undo));
    assert_eq!(occupied(&s), 1);

    // Outline from (1,1) to (4,4): the ring of a 4 × 4 square is 12 cells; the inner 2 × 2
    // (x 2..=3, y 2..=3) is untouched, so the rock at (2,2) stays alone.
    s.apply(Action::SetRectFilled(false));
    baba(&mut s, BabaAction::SetPrimary(Some(kind("wall"))));
    stroke(&mut s, (1, 1), &[(4, 4)], Button::Primary);
    assert_eq!(occupied(&s), 12 + 1);
    assert_eq!(toks(&s, 2, 2), ["rock"]);
    assert!(at(&s, 3, 3).is_empty());
    assert_eq!(toks(&s, 4, 2), ["wall"]);
    assert_eq!(toks(&s, 1, 4), ["wall"]);
    assert!(at(&s, 5, 5).is_empty());
}

#[test]
fn line_tool_draws_a_diagonal_of_stacks() {
    let mut s = baba_state(level(8, 6, &[(2, 2, &["rock"])]));
    s.apply(Action::SelectTool(Tool::Line));
    baba(&mut s, BabaAction::SetPrimary(Some(kind("text_is"))));
    stroke(&mut s, (0, 0), &[(1, 2), (3, 3)], Button::Primary);
    // Only the end point counts for a line: (0,0), (1,1), (2,2), (3,3).
    assert_eq!(toks(&s, 0, 0), ["text_is"]);
    assert_eq!(toks(&s, 1, 1), ["text_is"]);
    assert_eq!(toks(&s, 2, 2), ["rock", "text_is"]);
    assert_eq!(toks(&s, 3, 3), ["text_is"]);
    assert!(
        at(&s, 1, 2).is_empty(),
        "an intermediate drag point is not painted"
    );
    assert_eq!(occupied(&s), 4);
    assert_eq!(doc(&s).history().done_names(), ["Line"]);
}

#[test]
fn fill_spreads_over_cells_with_exactly_the_same_stack() {
    // 6 × 4:
    //   x: 0 1 2 3 4 5
    //   y0 . . R . . .
    //   y1 . . R B . .      R = [rock], B = [rock, baba]
    //   y2 . . R . . .
    //   y3 . . . R . .
    let mut s = baba_state(level(
        6,
        4,
        &[
            (2, 0, &["rock"]),
            (2, 1, &["rock"]),
            (2, 2, &["rock"]),
            (3, 1, &["rock", "baba"]),
            (3, 3, &["rock"]),
        ],
    ));
    s.apply(Action::SelectTool(Tool::Fill));
    baba(&mut s, BabaAction::SetPrimary(Some(kind("keke"))));
    // From a [rock] cell: the column x = 2, y 0..=2. Not (3,1) (another stack that also holds a
    // rock) and not (3,3) (touches (2,2) only at a corner).
    stroke(&mut s, (2, 0), &[], Button::Primary);
    for y in 0..=2 {
        assert_eq!(toks(&s, 2, y), ["rock", "keke"], "y = {y}");
    }
    assert_eq!(toks(&s, 3, 1), ["rock", "baba"]);
    assert_eq!(toks(&s, 3, 3), ["rock"]);
    assert_eq!(occupied(&s), 5);

    // From an empty cell on the left: x 0..=1 (8 cells) plus (2,3) below the column, which is
    // reached from (1,3); the right side is cut off by the rocks. 9 cells.
    baba(&mut s, BabaAction::SetPrimary(Some(kind("flag"))));
    stroke(&mut s, (0, 0), &[], Button::Primary);
    let flags: Vec<Pos> = doc(&s)
        .level()
        .map
        .iter()
        .filter(|(_, c)| **c == stack(&["flag"]))
        .map(|(p, _)| p)
        .collect();
    let mut want: Vec<Pos> = (0..4)
        .flat_map(|y| (0..2).map(move |x| Pos::new(x, y)))
        .collect();
    want.push(p(2, 3));
    want.sort_by_key(|p| (p.y, p.x));
    assert_eq!(flags, want);
    assert!(at(&s, 3, 0).is_empty());
    assert!(at(&s, 5, 3).is_empty());
    assert_eq!(doc(&s).history().done_names(), ["Fill", "Fill"]);
    s.apply(Action::Map(MapAction::Undo));
    assert_eq!(occupied(&s), 5);
}

// ---------------------------------------------------------------------------------------------
// 5. The live rule list

#[test]
fn painted_text_forms_rules_and_undo_breaks_them() {
    // The YOU goes on a rock: its text tile is stack index 1 there.
    let mut s = baba_state(level(8, 6, &[(3, 1, &["rock"])]));
    assert!(doc(&s).rules().is_empty());
    paint(&mut s, "text_flag", 6, 4);
    paint(&mut s, "text_baba", 1, 1);
    assert!(doc(&s).rules().is_empty());
    assert!(doc(&s).is_unused(p(1, 1), 0));
    paint(&mut s, "text_is", 2, 1);
    assert!(doc(&s).rules().is_empty(), "two words are no rule");
    paint(&mut s, "text_you", 3, 1);
    assert_eq!(toks(&s, 3, 1), ["rock", "text_you"]);

    let rules = doc(&s).rules();
    assert_eq!(rules.len(), 1);
    assert_eq!(&*rules[0].text, "baba is you");
    assert!(!rules[0].vertical);
    let cells: Vec<(Pos, usize)> = rules[0].tiles.iter().map(|t| (t.pos, t.layer)).collect();
    assert_eq!(cells, [(p(1, 1), 0), (p(2, 1), 0), (p(3, 1), 1)]);
    // Words of the rule are used; the lone FLAG is not.
    assert!(!doc(&s).is_unused(p(1, 1), 0));
    assert!(!doc(&s).is_unused(p(2, 1), 0));
    assert!(!doc(&s).is_unused(p(3, 1), 1));
    assert!(doc(&s).is_unused(p(6, 4), 0));

    // Undo the last word: the rule is gone and BABA is unused again.
    s.apply(Action::Map(MapAction::Undo));
    assert_eq!(toks(&s, 3, 1), ["rock"]);
    assert!(doc(&s).rules().is_empty());
    assert!(doc(&s).is_unused(p(1, 1), 0));
    assert!(doc(&s).is_unused(p(2, 1), 0));
    s.apply(Action::Map(MapAction::Redo));
    assert_eq!(rule_texts(&s), ["baba is you"]);
}

#[test]
fn rules_read_down_columns_but_not_backwards() {
    let mut s = baba_state(BabaLevel::new("t", 8, 6));
    // KEKE IS PUSH top → bottom in column 5.
    paint(&mut s, "text_keke", 5, 0);
    paint(&mut s, "text_is", 5, 1);
    paint(&mut s, "text_push", 5, 2);
    let rules = doc(&s).rules();
    assert_eq!(rules.len(), 1);
    assert_eq!(&*rules[0].text, "keke is push");
    assert!(rules[0].vertical);
    let cells: Vec<Pos> = rules[0].tiles.iter().map(|t| t.pos).collect();
    assert_eq!(cells, [p(5, 0), p(5, 1), p(5, 2)]);

    // "BABA IS YOU" written right → left in row 4 and bottom → top in column 7 forms nothing.
    paint(&mut s, "text_you", 1, 4);
    paint(&mut s, "text_is", 2, 4);
    paint(&mut s, "text_baba", 3, 4);
    paint(&mut s, "text_you", 7, 0);
    paint(&mut s, "text_is", 7, 1);
    paint(&mut s, "text_baba", 7, 2);
    assert_eq!(rule_texts(&s), ["keke is push"]);
    for (x, y) in [(1, 4), (2, 4), (3, 4), (7, 0), (7, 1), (7, 2)] {
        assert!(doc(&s).is_unused(p(x, y), 0), "({x},{y})");
    }
    assert!(!doc(&s).is_unused(p(5, 1), 0));

    // A gap breaks a rule: erase IS in column 5.
    baba(&mut s, BabaAction::SetSecondary(None));
    stroke(&mut s, (5, 1), &[], Button::Secondary);
    assert!(doc(&s).rules().is_empty());
}

// ---------------------------------------------------------------------------------------------
// 6. Typed sentences

/// Issue #31 defect 14: an unknown word gets the nearest baba word, as repair mode and
/// `tilesmith check` give it; nothing is placed.
#[test]
fn place_sentence_offers_the_nearest_word_for_an_unknown_one() {
    let mut s = baba_state(level(10, 6, &[]));
    baba(
        &mut s,
        BabaAction::PlaceSentence {
            text: "kek is pus".into(),
            at: p(2, 3),
            vertical: false,
        },
    );
    assert_eq!(
        s.status,
        "not a baba word: kek (did you mean \"keke\"?), pus (did you mean \"push\"?)"
    );
    assert_eq!(occupied(&s), 0);
    assert_eq!(doc(&s).history().len_done(), 0);
}

#[test]
fn place_sentence_is_one_step_and_forms_the_rule() {
    let mut s = baba_state(level(10, 6, &[(3, 3, &["rock"])]));
    baba(
        &mut s,
        BabaAction::PlaceSentence {
            text: "keke is push".into(),
            at: p(2, 3),
            vertical: false,
        },
    );
    assert_eq!(toks(&s, 2, 3), ["text_keke"]);
    assert_eq!(
        toks(&s, 3, 3),
        ["rock", "text_is"],
        "add on top keeps the rock"
    );
    assert_eq!(toks(&s, 4, 3), ["text_push"]);
    assert_eq!(occupied(&s), 3);
    assert_eq!(doc(&s).history().len_done(), 1);
    assert_eq!(rule_texts(&s), ["keke is push"]);

    s.apply(Action::Map(MapAction::Undo));
    assert!(at(&s, 2, 3).is_empty());
    assert_eq!(toks(&s, 3, 3), ["rock"]);
    assert!(at(&s, 4, 3).is_empty());
    assert!(doc(&s).rules().is_empty());
    s.apply(Action::Map(MapAction::Redo));
    assert_eq!(rule_texts(&s), ["keke is push"]);

    // Vertical placement goes downwards; case does not matter.
    baba(
        &mut s,
        BabaAction::PlaceSentence {
            text: "BABA IS YOU".into(),
            at: p(7, 1),
            vertical: true,
        },
    );
    assert_eq!(toks(&s, 7, 1), ["text_baba"]);
    assert_eq!(toks(&s, 7, 2), ["text_is"]);
    assert_eq!(toks(&s, 7, 3), ["text_you"]);
    assert!(at(&s, 8, 1).is_empty());
    assert_eq!(doc(&s).history().len_done(), 2);
    // Board order: BABA IS YOU starts at (7,1), before KEKE IS PUSH at (2,3).
    assert_eq!(rule_texts(&s), ["baba is you", "keke is push"]);

    // A sentence that exactly reaches the right edge fits (x 7, 8, 9 of a 10-wide map).
    baba(
        &mut s,
        BabaAction::PlaceSentence {
            text: "flag is win".into(),
            at: p(7, 5),
            vertical: false,
        },
    );
    assert_eq!(toks(&s, 9, 5), ["text_win"]);
    assert_eq!(doc(&s).history().len_done(), 3);
    assert!(rule_texts(&s).contains(&"flag is win".to_string()));

    // Replace mode: the rock under IS goes.
    baba(&mut s, BabaAction::SetStackMode(StackMode::Replace));
    baba(
        &mut s,
        BabaAction::PlaceSentence {
            text: "rock is stop".into(),
            at: p(2, 3),
            vertical: false,
        },
    );
    assert_eq!(toks(&s, 2, 3), ["text_rock"]);
    assert_eq!(toks(&s, 3, 3), ["text_is"]);
    assert_eq!(toks(&s, 4, 3), ["text_stop"]);
    assert_eq!(doc(&s).history().len_done(), 4);
}

#[test]
fn bad_sentences_change_nothing() {
    let mut s = baba_state(level(10, 6, &[(3, 3, &["rock"])]));
    let before = doc(&s).level().clone();

    baba(
        &mut s,
        BabaAction::PlaceSentence {
            text: "keke is pusj".into(),
            at: p(2, 3),
            vertical: false,
        },
    );
    assert_eq!(*doc(&s).level(), before);
    assert_eq!(doc(&s).history().len_done(), 0);
    assert!(s.status.contains("pusj"), "status: {}", s.status);
    assert!(!s.dirty());

    // Off the right edge: x 8, 9, 10 in a 10-wide map.
    s.status.clear();
    baba(
        &mut s,
        BabaAction::PlaceSentence {
            text: "keke is push".into(),
            at: p(8, 0),
            vertical: false,
        },
    );
    assert_eq!(*doc(&s).level(), before);
    assert_eq!(doc(&s).history().len_done(), 0);
    assert!(!s.status.is_empty(), "the user is told why");

    // Off the bottom: y 4, 5, 6 in a 6-high map.
    s.status.clear();
    baba(
        &mut s,
        BabaAction::PlaceSentence {
            text: "keke is push".into(),
            at: p(0, 4),
            vertical: true,
        },
    );
    assert_eq!(*doc(&s).level(), before);
    assert_eq!(doc(&s).history().len_done(), 0);
    assert!(!s.status.is_empty());

    // Nothing typed.
    s.status.clear();
    baba(
        &mut s,
        BabaAction::PlaceSentence {
            text: "   ".into(),
            at: p(0, 0),
            vertical: false,
        },
    );
    assert_eq!(*doc(&s).level(), before);
    assert_eq!(doc(&s).history().len_done(), 0);
    assert!(!s.status.is_empty());
}

// ---------------------------------------------------------------------------------------------
// 7. Inspector edits

#[test]
fn set_stack_reorders_and_consecutive_edits_merge() {
    let mut s = baba_state(level(
        6,
        4,
        &[(2, 2, &["rock", "baba", "flag"]), (4, 1, &["keke", "rock"])],
    ));
    let set = |s: &mut EditorState, pos: Pos, st: Vec<Tile>, what: &'static str| {
        baba(
            s,
            BabaAction::SetStack {
                pos,
                stack: st,
                what,
            },
        );
    };
    set(
        &mut s,
        p(2, 2),
        stack(&["flag", "rock", "baba"]),
        "Reorder stack",
    );
    assert_eq!(toks(&s, 2, 2), ["flag", "rock", "baba"]);
    assert_eq!(doc(&s).history().done_names(), ["Reorder stack"]);
    set(
        &mut s,
        p(2, 2),
        stack(&["flag", "baba", "rock"]),
        "Reorder stack",
    );
    assert_eq!(toks(&s, 2, 2), ["flag", "baba", "rock"]);
    assert_eq!(
        doc(&s).history().done_names(),
        ["Reorder stack"],
        "two reorders of one cell are one entry"
    );
    // One undo goes back to before the first reorder.
    s.apply(Action::Map(MapAction::Undo));
    assert_eq!(toks(&s, 2, 2), ["rock", "baba", "flag"]);
    assert_eq!(doc(&s).history().len_done(), 0);
    s.apply(Action::Map(MapAction::Redo));
    assert_eq!(toks(&s, 2, 2), ["flag", "baba", "rock"]);

    // Setting the same stack again is no edit.
    set(
        &mut s,
        p(2, 2),
        stack(&["flag", "baba", "rock"]),
        "Reorder stack",
    );
    assert_eq!(doc(&s).history().len_done(), 1);

    // Another kind of edit of the same cell is a new entry, and so is the same kind of edit on
    // another cell.
    set(
        &mut s,
        p(2, 2),
        vec![tile("flag"), facing("baba", Dir::Down), tile("rock")],
        "Turn object",
    );
    assert_eq!(at(&s, 2, 2)[1], facing("baba", Dir::Down));
    set(&mut s, p(2, 2), stack(&["flag", "rock"]), "Remove object");
    set(&mut s, p(4, 1), stack(&["keke"]), "Remove object");
    assert_eq!(
        doc(&s).history().done_names(),
        [
            "Reorder stack",
            "Turn object",
            "Remove object",
            "Remove object"
        ]
    );
    assert_eq!(toks(&s, 4, 1), ["keke"]);
    s.apply(Action::Map(MapAction::Undo));
    assert_eq!(toks(&s, 4, 1), ["keke", "rock"]);
    assert_eq!(toks(&s, 2, 2), ["flag", "rock"]);
}

// ---------------------------------------------------------------------------------------------
// 8. Clipboard and moving

#[test]
fn copy_paste_cut_delete_and_move_whole_stacks() {
    let mut s = baba_state(level(
        6,
        4,
        &[
            (1, 1, &["rock", "baba"]),
            (2, 1, &["text_is"]),
            (2, 2, &["flag"]),
            (4, 3, &["keke"]),
        ],
    ));
    s.apply(Action::SelectTool(Tool::Select));
    stroke(&mut s, (1, 1), &[(2, 2)], Button::Primary);
    let block = CellRect {
        x0: 1,
        y0: 1,
        x1: 2,
        y1: 2,
    };
    assert_eq!(s.selection, Some(block));
    assert_eq!(doc(&s).history().len_done(), 0, "selecting is not an edit");
    s.apply(Action::Map(MapAction::Copy));
    let clip = doc(&s).map.clipboard.clone().unwrap();
    assert_eq!((clip.width(), clip.height()), (2, 2));
    assert_eq!(*clip.get(p(0, 0)).unwrap(), stack(&["rock", "baba"]));
    assert_eq!(*clip.get(p(1, 0)).unwrap(), stack(&["text_is"]));
    assert_eq!(*clip.get(p(0, 1)).unwrap(), Vec::<Tile>::new());
    assert_eq!(*clip.get(p(1, 1)).unwrap(), stack(&["flag"]));

    // Paste at the hovered cell (4,2): whole stacks replace the target stacks, so the empty
    // cell of the block empties (4,3), where the keke was.
    s.apply(Action::Hover(Some(p(4, 2))));
    s.apply(Action::Map(MapAction::Paste));
    assert_eq!(toks(&s, 4, 2), ["rock", "baba"]);
    assert_eq!(toks(&s, 5, 2), ["text_is"]);
    assert!(at(&s, 4, 3).is_empty());
    assert_eq!(toks(&s, 5, 3), ["flag"]);
    assert_eq!(toks(&s, 1, 1), ["rock", "baba"], "the original stays");
    assert_eq!(doc(&s).history().done_names(), ["Paste"]);
    assert_eq!(
        s.selection,
        Some(CellRect {
            x0: 4,
            y0: 2,
            x1: 5,
            y1: 3
        })
    );
    s.apply(Action::Hover(None));

    // Cut the original block: its cells empty, the clipboard holds its stacks.
    stroke(&mut s, (1, 1), &[(2, 2)], Button::Primary);
    assert_eq!(s.selection, Some(block));
    s.apply(Action::Map(MapAction::Cut));
    assert!(at(&s, 1, 1).is_empty());
    assert!(at(&s, 2, 1).is_empty());
    assert!(at(&s, 2, 2).is_empty());
    assert_eq!(doc(&s).map.clipboard.as_ref().unwrap(), &clip);
    assert_eq!(doc(&s).history().done_names(), ["Paste", "Cut"]);

    // Move: select (4,2) alone (it is then inspected), drag it two cells up.
    stroke(&mut s, (4, 2), &[], Button::Primary);
    assert_eq!(s.inspect, Some(p(4, 2)));
    stroke(&mut s, (4, 2), &[(4, 1), (4, 0)], Button::Primary);
    assert!(at(&s, 4, 2).is_empty());
    assert_eq!(toks(&s, 4, 0), ["rock", "baba"]);
    assert!(at(&s, 4, 1).is_empty());
    assert_eq!(
        s.selection,
        Some(CellRect {
            x0: 4,
            y0: 0,
            x1: 4,
            y1: 0
        })
    );
    assert_eq!(
        doc(&s).history().done_names(),
        ["Paste", "Cut", "Move selection"]
    );

    // Delete everything.
    s.apply(Action::SelectAll);
    assert_eq!(
        s.selection,
        Some(CellRect {
            x0: 0,
            y0: 0,
            x1: 5,
            y1: 3
        })
    );
    s.apply(Action::Map(MapAction::DeleteSelection));
    assert_eq!(occupied(&s), 0);
    assert_eq!(doc(&s).history().len_done(), 4);
    s.apply(Action::Map(MapAction::Undo));
    assert_eq!(toks(&s, 4, 0), ["rock", "baba"]);
    assert_eq!(toks(&s, 5, 2), ["text_is"]);
    assert_eq!(toks(&s, 5, 3), ["flag"]);
    assert_eq!(occupied(&s), 3);
}

// ---------------------------------------------------------------------------------------------
// 9. Resize

#[test]
fn resize_keeps_stacks_relative_to_the_anchor() {
    let original = level(
        4,
        3,
        &[
            (0, 0, &["baba"]),
            (1, 1, &["text_is"]),
            (3, 2, &["rock", "flag"]),
        ],
    );
    let mut s = baba_state(original.clone());
    // Grow to 6 × 5 around the centre: everything moves by ((6-4)/2, (5-3)/2) = (1, 1).
    s.apply(Action::Map(MapAction::Resize {
        width: 6,
        height: 5,
        anchor: (1, 1),
    }));
    assert_eq!(s.map_size(), (6, 5));
    assert_eq!(toks(&s, 1, 1), ["baba"]);
    assert_eq!(toks(&s, 2, 2), ["text_is"]);
    assert_eq!(toks(&s, 4, 3), ["rock", "flag"]);
    assert_eq!(occupied(&s), 3, "the new cells are empty");
    assert!(at(&s, 0, 0).is_empty());
    assert!(at(&s, 5, 4).is_empty());
    assert_eq!(doc(&s).history().done_names(), ["Resize to 6×5"]);
    s.apply(Action::Map(MapAction::Undo));
    assert_eq!(*doc(&s).level(), original);

    // Grow keeping the top-left: nothing moves.
    s.apply(Action::Map(MapAction::Resize {
        width: 5,
        height: 4,
        anchor: (0, 0),
    }));
    assert_eq!(s.map_size(), (5, 4));
    assert_eq!(toks(&s, 0, 0), ["baba"]);
    assert_eq!(toks(&s, 3, 2), ["rock", "flag"]);
    assert_eq!(occupied(&s), 3);
    s.apply(Action::Map(MapAction::Undo));

    // Shrink to 2 × 2 keeping the bottom-right: columns 2..=3 and rows 1..=2 stay, so only
    // the rock and flag from (3,2) remain, at (1,1). That crops the IS text: asked first
    // (docs/baba-editor.md), then resized anyway.
    s.apply(Action::Map(MapAction::Resize {
        width: 2,
        height: 2,
        anchor: (2, 2),
    }));
    assert_eq!(s.map_size(), (4, 3), "not yet: the question is open");
    assert!(
        matches!(&s.pending, Some(tilesmith_editor::state::Pending::ConfirmResize { lost, .. })
            if lost == &["text_is at x 1, y 1"]),
        "{:?}",
        s.pending
    );
    s.apply(Action::Answer(
        tilesmith_editor::state::Answer::ResizeAnyway,
    ));
    assert_eq!(s.map_size(), (2, 2));
    assert_eq!(toks(&s, 1, 1), ["rock", "flag"]);
    assert_eq!(occupied(&s), 1);
    s.apply(Action::Map(MapAction::Undo));
    assert_eq!(*doc(&s).level(), original);

    // The same size is no edit.
    s.apply(Action::Map(MapAction::Resize {
        width: 4,
        height: 3,
        anchor: (1, 1),
    }));
    assert_eq!(doc(&s).history().len_done(), 0);
}

// ---------------------------------------------------------------------------------------------
// 10. Play

#[test]
fn play_moves_you_and_undo_restart_go_back() {
    let design = walk_level();
    let mut s = baba_state(design.clone());
    s.apply(Action::Play(PlayAction::Start));
    assert!(s.playing());
    assert_eq!(turn(&s), 0);
    assert_eq!(doc(&s).play.as_ref().unwrap().shown, design);
    assert_eq!(rule_texts(&s), ["baba is you"]);

    baba(&mut s, PlayAction::Step(Some(Input::Move(Dir::Right))));
    assert_eq!(turn(&s), 1);
    assert!(shown(&s, 1, 2).is_empty());
    assert_eq!(shown(&s, 2, 2), ["baba"]);
    let log = &doc(&s).play.as_ref().unwrap().log;
    assert_eq!(log.len(), 1);
    assert_eq!(log[0].input, Input::Move(Dir::Right));
    assert!(log[0].formed.is_empty());
    assert!(log[0].broken.is_empty());
    assert_eq!(log[0].changed, [p(1, 2), p(2, 2)]);
    assert_eq!(log[0].status, Status::Running);
    // The design is untouched.
    assert_eq!(*doc(&s).level(), design);
    assert_eq!(doc(&s).history().len_done(), 0);
    assert!(!s.dirty());

    baba(&mut s, PlayAction::Step(Some(Input::Move(Dir::Right))));
    assert_eq!(turn(&s), 2);
    assert_eq!(shown(&s, 3, 2), ["baba"]);

    baba(&mut s, PlayAction::Step(Some(Input::Undo)));
    assert_eq!(turn(&s), 1);
    assert_eq!(shown(&s, 2, 2), ["baba"]);
    assert!(shown(&s, 3, 2).is_empty());

    baba(&mut s, PlayAction::Step(Some(Input::Move(Dir::Right))));
    baba(&mut s, PlayAction::Step(Some(Input::Move(Dir::Right))));
    assert_eq!(turn(&s), 3);
    assert_eq!(shown(&s, 4, 2), ["baba"]);
    baba(&mut s, PlayAction::Step(Some(Input::Restart)));
    assert_eq!(turn(&s), 0);
    assert_eq!(doc(&s).play.as_ref().unwrap().shown, design);

    // Going to a turn redoes the turns played.
    baba(&mut s, PlayAction::Scrub(2));
    assert_eq!(turn(&s), 2);
    assert_eq!(shown(&s, 3, 2), ["baba"]);

    // Clicking the map while playing inspects and does not paint.
    s.apply(Action::Map(MapAction::CellPress {
        pos: p(0, 2),
        button: Button::Primary,
        alt: false,
    }));
    s.apply(Action::Map(MapAction::CellRelease));
    assert_eq!(s.inspect, Some(p(0, 2)));
    // Inspector and sentence edits are off while playing too.
    baba(
        &mut s,
        BabaAction::SetStack {
            pos: p(0, 2),
            stack: stack(&["rock"]),
            what: "Edit stack",
        },
    );
    baba(
        &mut s,
        BabaAction::PlaceSentence {
            text: "rock is win".into(),
            at: p(0, 1),
            vertical: false,
        },
    );
    assert_eq!(*doc(&s).level(), design);
    assert_eq!(doc(&s).history().len_done(), 0);

    s.apply(Action::Play(PlayAction::Stop));
    assert!(!s.playing());
    assert!(doc(&s).play.is_none());
    assert_eq!(*doc(&s).level(), design);
    assert_eq!(doc(&s).history().len_done(), 0);
    assert!(!s.dirty());
}

#[test]
fn pushing_a_word_out_of_a_rule_is_logged_as_broken() {
    //   x: 0    1    2    3    4 5
    //   y0 BABA IS   YOU
    //   y1                          rock at (5,1)
    //   y2      ROCK IS   STOP
    //   y3                baba
    let design = level(
        6,
        4,
        &[
            (0, 0, &["text_baba"]),
            (1, 0, &["text_is"]),
            (2, 0, &["text_you"]),
            (5, 1, &["rock"]),
            (1, 2, &["text_rock"]),
            (2, 2, &["text_is"]),
            (3, 2, &["text_stop"]),
            (3, 3, &["baba"]),
        ],
    );
    let mut s = baba_state(design.clone());
    assert_eq!(rule_texts(&s), ["baba is you", "rock is stop"]);
    s.apply(Action::Play(PlayAction::Start));
    // Baba moves up and pushes STOP (text is push) up to (3,1): ROCK IS STOP is broken.
    baba(&mut s, PlayAction::Step(Some(Input::Move(Dir::Up))));
    assert_eq!(shown(&s, 3, 1), ["text_stop"]);
    assert_eq!(shown(&s, 3, 2), ["baba"]);
    assert!(shown(&s, 3, 3).is_empty());
    let log = &doc(&s).play.as_ref().unwrap().log;
    assert_eq!(log[0].broken, ["rock is stop"]);
    assert!(log[0].formed.is_empty());
    // While playing, the rule list and the unused text are the play state's.
    assert_eq!(rule_texts(&s), ["baba is you"]);
    assert!(doc(&s).is_unused(p(3, 1), 0));
    assert!(doc(&s).is_unused(p(1, 2), 0));
    assert!(!doc(&s).is_unused(p(0, 0), 0));

    baba(&mut s, PlayAction::Step(Some(Input::Undo)));
    assert_eq!(rule_texts(&s), ["baba is you", "rock is stop"]);
    assert!(!doc(&s).is_unused(p(3, 2), 0));

    s.apply(Action::Play(PlayAction::Stop));
    assert_eq!(*doc(&s).level(), design);
    assert_eq!(rule_texts(&s), ["baba is you", "rock is stop"]);
}

#[test]
fn pushing_a_word_into_place_is_logged_as_formed() {
    //   x: 0    1  2  3   4    5
    //   y0 BABA IS YOU
    //   y2 FLAG IS    WIN baba
    //   y3                     flag
    let design = level(
        6,
        4,
        &[
            (0, 0, &["text_baba"]),
            (1, 0, &["text_is"]),
            (2, 0, &["text_you"]),
            (0, 2, &["text_flag"]),
            (1, 2, &["text_is"]),
            (3, 2, &["text_win"]),
            (4, 2, &["baba"]),
            (5, 3, &["flag"]),
        ],
    );
    let mut s = baba_state(design);
    assert_eq!(rule_texts(&s), ["baba is you"]);
    s.apply(Action::Play(PlayAction::Start));
    // Baba moves left and pushes WIN into the gap: FLAG IS WIN forms.
    baba(&mut s, PlayAction::Step(Some(Input::Move(Dir::Left))));
    assert_eq!(shown(&s, 2, 2), ["text_win"]);
    assert_eq!(shown(&s, 3, 2), ["baba"]);
    let log = &doc(&s).play.as_ref().unwrap().log;
    assert_eq!(log[0].formed, ["flag is win"]);
    assert!(log[0].broken.is_empty());
    assert_eq!(log[0].status, Status::Running);
    assert_eq!(rule_texts(&s), ["baba is you", "flag is win"]);
}

#[test]
fn walking_onto_the_flag_wins_and_further_moves_do_nothing() {
    //   y0 BABA IS YOU
    //   y1 FLAG IS WIN
    //   y3 .    .  baba flag
    let design = level(
        6,
        4,
        &[
            (0, 0, &["text_baba"]),
            (1, 0, &["text_is"]),
            (2, 0, &["text_you"]),
            (0, 1, &["text_flag"]),
            (1, 1, &["text_is"]),
            (2, 1, &["text_win"]),
            (2, 3, &["baba"]),
            (3, 3, &["flag"]),
        ],
    );
    let mut s = baba_state(design);
    assert_eq!(rule_texts(&s), ["baba is you", "flag is win"]);
    s.apply(Action::Play(PlayAction::Start));
    assert_eq!(
        doc(&s).play.as_ref().unwrap().game().status(),
        Status::Running
    );
    baba(&mut s, PlayAction::Step(Some(Input::Move(Dir::Right))));
    assert_eq!(turn(&s), 1);
    // Baba and the flag share (3,3) (the order in the stack is the objects' ID order).
    let mut both = shown(&s, 3, 3);
    both.sort();
    assert_eq!(both, ["baba", "flag"]);
    let play = doc(&s).play.as_ref().unwrap();
    assert!(matches!(play.game().status(), Status::Won { .. }));
    assert!(matches!(play.log[0].status, Status::Won { .. }));
    let won = play.shown.clone();

    for d in [Dir::Left, Dir::Right, Dir::Up] {
        baba(&mut s, PlayAction::Step(Some(Input::Move(d))));
    }
    baba(&mut s, PlayAction::Step(Some(Input::Wait)));
    let play = doc(&s).play.as_ref().unwrap();
    assert_eq!(play.turn(), 1);
    assert_eq!(play.shown, won);
    assert_eq!(play.log.len(), 1);

    // Undo still works after a win.
    baba(&mut s, PlayAction::Step(Some(Input::Undo)));
    assert_eq!(turn(&s), 0);
    assert_eq!(shown(&s, 2, 3), ["baba"]);
    assert_eq!(
        doc(&s).play.as_ref().unwrap().game().status(),
        Status::Running
    );
}

#[test]
fn use_play_state_as_design_is_one_undoable_edit() {
    let design = walk_level();
    let mut s = baba_state(design.clone());
    s.apply(Action::Play(PlayAction::Start));
    baba(&mut s, PlayAction::Step(Some(Input::Move(Dir::Right))));
    baba(&mut s, PlayAction::Step(Some(Input::Move(Dir::Right))));
    s.apply(Action::Play(PlayAction::UseAsDesign));
    assert_eq!(toks(&s, 3, 2), ["baba"]);
    assert!(at(&s, 1, 2).is_empty());
    assert_eq!(toks(&s, 0, 0), ["text_baba"]);
    assert_eq!(*doc(&s).level(), doc(&s).play.as_ref().unwrap().shown);
    assert_eq!(doc(&s).history().len_done(), 1);
    assert!(s.dirty());

    // While playing, the map shows the game: undoing the hidden design is refused.
    s.apply(Action::Map(MapAction::Undo));
    assert_eq!(doc(&s).history().len_done(), 1);
    assert!(s.status.contains("stop playing"), "{}", s.status);

    // Stopping keeps the design as it is (with the adopted state), and drops the session.
    let adopted = doc(&s).level().clone();
    s.apply(Action::Play(PlayAction::Stop));
    assert!(doc(&s).play.is_none());
    assert_eq!(*doc(&s).level(), adopted);
    assert_eq!(doc(&s).history().len_done(), 1);

    // Then the adoption undoes and redoes as one step.
    s.apply(Action::Map(MapAction::Undo));
    assert_eq!(*doc(&s).level(), design);
    assert!(!s.dirty());
    s.apply(Action::Map(MapAction::Redo));
    assert_eq!(toks(&s, 3, 2), ["baba"]);

    // A new session starts from the adopted design.
    s.apply(Action::Play(PlayAction::Start));
    assert_eq!(turn(&s), 0);
    assert_eq!(shown(&s, 3, 2), ["baba"]);
}

// ---------------------------------------------------------------------------------------------
// 11. Files

#[test]
fn save_a_baba_level_and_load_it_back() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("saved.json");
    let mut s = EditorState::new(BoulderLevel::new("b", 10, 8));
    s.apply(Action::NewOf("baba"));
    s.dialogs = Box::new(ScriptedDialogs {
        opens: vec![],
        saves: vec![target.clone()],
    });
    baba(
        &mut s,
        BabaAction::PlaceSentence {
            text: "baba is you".into(),
            at: p(1, 1),
            vertical: false,
        },
    );
    baba(&mut s, BabaAction::SetFacing(Dir::Down));
    paint(&mut s, "baba", 5, 5);
    baba(
        &mut s,
        BabaAction::SetStack {
            pos: p(8, 8),
            stack: vec![tile("rock"), facing("keke", Dir::Left)],
            what: "Edit stack",
        },
    );
    baba(&mut s, BabaAction::SetName("Saved level".into()));
    assert!(s.title().starts_with("untitled*"), "{}", s.title());

    s.apply(Action::Save); // untitled: asks where
    assert!(!s.dirty());
    assert_eq!(s.path.as_deref(), Some(target.as_path()));
    assert_eq!(s.title(), "saved.json — Tilesmith");

    let text = std::fs::read_to_string(&target).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["kind"], "baba");
    let loaded = BabaLevel::from_json(&v).unwrap();
    assert_eq!(&loaded, doc(&s).level());
    assert_eq!(loaded.name, "Saved level");
    assert_eq!((loaded.width(), loaded.height()), (24, 14));
    assert_eq!(
        *loaded.map.get(p(5, 5)).unwrap(),
        vec![facing("baba", Dir::Down)]
    );
    assert_eq!(
        *loaded.map.get(p(8, 8)).unwrap(),
        vec![tile("rock"), facing("keke", Dir::Left)]
    );
    assert_eq!(
        *loaded.map.get(p(3, 1)).unwrap(),
        vec![tile("text_you")],
        "typed text faces right"
    );

    // Another editor opens the file: a baba document equal to the saved one, clean.
    let mut t = EditorState::new(BoulderLevel::new("b", 3, 3));
    t.apply(Action::OpenPath(target.clone()));
    assert_eq!(t.kind_name(), "baba");
    assert_eq!(doc(&t).level(), doc(&s).level());
    assert!(!t.dirty());
    assert_eq!(rule_texts(&t), ["baba is you"]);

    // An edit after saving makes it dirty again; undoing back to the save makes it clean.
    paint(&mut s, "flag", 0, 0);
    assert_eq!(s.title(), "saved.json* — Tilesmith");
    s.apply(Action::Map(MapAction::Undo));
    assert!(!s.dirty());
}

#[test]
fn open_baba_then_boulder_files_switches_the_kind() {
    let first_words = levels_dir().join("baba/first-words.json");
    let welcome = levels_dir().join("boulder/welcome.json");
    let mut s = EditorState::new(BoulderLevel::new("b", 10, 8));
    s.apply(Action::OpenPath(first_words.clone()));
    assert!(s.pending.is_none());
    assert_eq!(s.kind_name(), "baba");
    assert_eq!(s.map_size(), (9, 6));
    assert_eq!(doc(&s).level().name, "First Words");
    assert_eq!(s.title(), "first-words.json — Tilesmith");
    // From the file: BABA IS YOU on row 0, FLAG IS WIN and ROCK IS PUSH on row 5; a baba at
    // (1,2), rocks at (4,2..=4), a flag at (7,2).
    assert_eq!(
        rule_texts(&s),
        ["baba is you", "flag is win", "rock is push"]
    );
    assert_eq!(toks(&s, 1, 2), ["baba"]);
    assert_eq!(toks(&s, 4, 3), ["rock"]);
    assert_eq!(toks(&s, 7, 2), ["flag"]);
    assert!(!s.dirty());

    s.apply(Action::OpenPath(welcome.clone()));
    assert_eq!(s.kind_name(), "boulder");
    assert!(s.doc_as::<BabaDoc>().is_none());
    assert_eq!(s.map_size(), (16, 9));
    assert_eq!(bd(&s).level().name, "Welcome, Digger");

    // Back to baba; with unsaved changes, opening the boulder file asks first.
    s.apply(Action::OpenPath(first_words));
    assert_eq!(s.kind_name(), "baba");
    paint(&mut s, "keke", 0, 2);
    s.apply(Action::OpenPath(welcome.clone()));
    assert!(matches!(s.pending, Some(Pending::Unsaved { .. })));
    s.apply(Action::Answer(Answer::Cancel));
    assert_eq!(s.kind_name(), "baba");
    assert_eq!(toks(&s, 0, 2), ["keke"]);
    s.apply(Action::OpenPath(welcome));
    s.apply(Action::Answer(Answer::Discard));
    assert_eq!(s.kind_name(), "boulder");
    assert_eq!(s.map_size(), (16, 9));
    assert!(!s.dirty());
}

// ---------------------------------------------------------------------------------------------
// 12. Actions of the other kind

#[test]
fn boulder_only_actions_leave_a_baba_level_alone() {
    let mut s = baba_state(level(6, 4, &[(1, 1, &["rock"])]));
    let before = doc(&s).level().clone();
    s.apply(Action::from(BoulderAction::SetPrimary(Token::Wall)));
    s.apply(Action::from(BoulderAction::SetSecondary(Token::Gem)));
    s.apply(Action::from(BoulderAction::ReplaceAll {
        from: Token::Mud,
        to: Token::Sand,
    }));
    s.apply(Action::from(BoulderAction::ReplaceAll {
        from: Token::Path,
        to: Token::Wall,
    }));
    s.apply(Action::from(BoulderAction::SetCell {
        pos: p(1, 1),
        cell: Cell::new(Token::Gem),
    }));
    s.apply(Action::from(BoulderAction::SetProps {
        props: Props {
            name: "renamed".into(),
            gems: [1, 2, 3],
            ticks: [1, 2, 3],
            maxslime: None,
        },
        field: "name",
    }));
    assert_eq!(*doc(&s).level(), before);
    assert_eq!(doc(&s).history().len_done(), 0);
    assert!(!s.dirty());
    assert_eq!(s.kind_name(), "baba");
    assert_eq!(doc(&s).primary, Some(kind("baba")));
    assert_eq!(doc(&s).secondary, None);
    // The pencil still paints the baba brush.
    stroke(&mut s, (2, 2), &[], Button::Primary);
    assert_eq!(toks(&s, 2, 2), ["baba"]);
}

#[test]
fn baba_actions_do_nothing_on_a_boulder_level() {
    let mut s = EditorState::new(BoulderLevel::new("b", 10, 8));
    let before = bd(&s).level().clone();
    baba(&mut s, BabaAction::SetPrimary(Some(kind("keke"))));
    baba(&mut s, BabaAction::SetStackMode(StackMode::Replace));
    baba(
        &mut s,
        BabaAction::PlaceSentence {
            text: "keke is push".into(),
            at: p(1, 1),
            vertical: false,
        },
    );
    baba(
        &mut s,
        BabaAction::SetStack {
            pos: p(2, 2),
            stack: stack(&["rock"]),
            what: "Edit stack",
        },
    );
    baba(&mut s, BabaAction::SetName("renamed".into()));
    baba(&mut s, PlayAction::Step(Some(Input::Move(Dir::Right))));
    assert_eq!(s.kind_name(), "boulder");
    assert!(s.doc_as::<BabaDoc>().is_none());
    assert_eq!(*bd(&s).level(), before);
    assert_eq!(bd(&s).history().len_done(), 0);
    assert!(!s.dirty());
    assert!(!s.playing());
    // The boulder pencil still paints the boulder brush (wall by default).
    stroke(&mut s, (3, 3), &[], Button::Primary);
    assert_eq!(bd(&s).level().map.get(p(3, 3)).unwrap().token, Token::Wall);
}

// ---------------------------------------------------------------------------------------------
// More: the play pane's shared actions, hovering rules, problems, disk changes, autosave

#[test]
fn play_pane_actions_drive_the_baba_session() {
    let design = walk_level();
    let mut s = baba_state(design.clone());
    s.apply(Action::Play(PlayAction::Start));
    s.apply(Action::Play(PlayAction::Step(Some(Input::Move(
        Dir::Right,
    )))));
    s.apply(Action::Play(PlayAction::Step(Some(Input::Move(
        Dir::Right,
    )))));
    assert_eq!(turn(&s), 2);
    assert_eq!(shown(&s, 3, 2), ["baba"]);
    // The cells the current turn changed: baba left (2,2) for (3,2).
    assert_eq!(doc(&s).play.as_ref().unwrap().changed(), [p(2, 2), p(3, 2)]);
    // A step with no input is a wait: a turn in which nothing moves.
    s.apply(Action::Play(PlayAction::Step(None)));
    assert_eq!(turn(&s), 3);
    assert_eq!(shown(&s, 3, 2), ["baba"]);
    assert!(doc(&s).play.as_ref().unwrap().changed().is_empty());
    s.apply(Action::Play(PlayAction::Back));
    s.apply(Action::Play(PlayAction::Back));
    assert_eq!(turn(&s), 1);
    assert_eq!(shown(&s, 2, 2), ["baba"]);
    s.apply(Action::Play(PlayAction::Forward));
    assert_eq!(turn(&s), 2);
    assert_eq!(shown(&s, 3, 2), ["baba"]);
    s.apply(Action::Play(PlayAction::Scrub(0)));
    assert_eq!(turn(&s), 0);
    assert_eq!(shown(&s, 1, 2), ["baba"]);
    s.apply(Action::Play(PlayAction::Scrub(3)));
    assert_eq!(turn(&s), 3);
    s.apply(Action::Play(PlayAction::Reset));
    assert_eq!(turn(&s), 0);
    assert_eq!(doc(&s).play.as_ref().unwrap().shown, design);
    assert!(doc(&s).play.as_ref().unwrap().changed().is_empty());
    assert_eq!(*doc(&s).level(), design);
}

#[test]
fn a_new_turn_after_going_back_replaces_the_undone_turns() {
    let mut s = baba_state(walk_level());
    s.apply(Action::Play(PlayAction::Start));
    baba(&mut s, PlayAction::Step(Some(Input::Move(Dir::Right))));
    baba(&mut s, PlayAction::Step(Some(Input::Move(Dir::Right))));
    baba(&mut s, PlayAction::Step(Some(Input::Undo)));
    // The undone turn stays in the log until a new turn is played.
    assert_eq!(doc(&s).play.as_ref().unwrap().log.len(), 2);
    baba(&mut s, PlayAction::Step(Some(Input::Move(Dir::Up))));
    let play = doc(&s).play.as_ref().unwrap();
    assert_eq!(play.turn(), 2);
    assert_eq!(play.log.len(), 2);
    assert_eq!(play.log[1].input, Input::Move(Dir::Up));
    // Baba went from (2,2) up to (2,1).
    assert_eq!(shown(&s, 2, 1), ["baba"]);
    assert!(shown(&s, 3, 2).is_empty());
    // Nothing to go forward to.
    s.apply(Action::Play(PlayAction::Forward));
    assert_eq!(turn(&s), 2);
}

#[test]
fn hovering_a_rule_names_its_cells() {
    let mut s = baba_state(BabaLevel::new("t", 8, 6));
    baba(
        &mut s,
        BabaAction::PlaceSentence {
            text: "rock is push".into(),
            at: p(4, 2),
            vertical: true,
        },
    );
    baba(
        &mut s,
        BabaAction::PlaceSentence {
            text: "baba is you".into(),
            at: p(0, 0),
            vertical: false,
        },
    );
    // Board order: BABA IS YOU (from (0,0)) comes first.
    assert_eq!(rule_texts(&s), ["baba is you", "rock is push"]);
    baba(&mut s, BabaAction::HoverRule(Some(1)));
    assert_eq!(doc(&s).hovered_tiles(), [p(4, 2), p(4, 3), p(4, 4)]);
    baba(&mut s, BabaAction::HoverRule(Some(0)));
    assert_eq!(doc(&s).hovered_tiles(), [p(0, 0), p(1, 0), p(2, 0)]);
    baba(&mut s, BabaAction::HoverRule(Some(7)));
    assert!(doc(&s).hovered_tiles().is_empty());
    baba(&mut s, BabaAction::HoverRule(None));
    assert!(doc(&s).hovered_tiles().is_empty());
    assert_eq!(doc(&s).history().len_done(), 2, "hovering is not an edit");
}

#[test]
fn problems_warn_about_missing_you_and_win_rules() {
    let mut s = EditorState::new(BoulderLevel::new("b", 10, 8));
    s.apply(Action::NewOf("baba"));
    s.refresh();
    let msgs: Vec<String> = s.problems.iter().map(|p| p.message.clone()).collect();
    assert_eq!(msgs.len(), 2, "{msgs:?}");
    assert!(msgs[0].contains("is you"), "{msgs:?}");
    assert!(msgs[1].contains("is win"), "{msgs:?}");
    baba(
        &mut s,
        BabaAction::PlaceSentence {
            text: "baba is you".into(),
            at: p(0, 0),
            vertical: false,
        },
    );
    s.refresh();
    assert_eq!(s.problems.len(), 1);
    assert!(s.problems[0].message.contains("is win"));
    baba(
        &mut s,
        BabaAction::PlaceSentence {
            text: "flag is win".into(),
            at: p(0, 2),
            vertical: false,
        },
    );
    s.refresh();
    assert!(s.problems.is_empty(), "{:?}", s.problems);
}

#[test]
fn set_name_is_undoable_and_typing_merges() {
    let mut s = baba_state(BabaLevel::new("t", 5, 5));
    for n in ["F", "Fi", "Fir"] {
        baba(&mut s, BabaAction::SetName(n.into()));
    }
    assert_eq!(doc(&s).level().name, "Fir");
    assert_eq!(doc(&s).history().done_names(), ["Set name"]);
    assert!(s.dirty());
    s.apply(Action::Map(MapAction::Undo));
    assert_eq!(doc(&s).level().name, "t");
    assert!(!s.dirty());
}

/// Copies a level of the repository's `levels/` into `dir`.
fn copy_level(dir: &std::path::Path, rel: &str) -> PathBuf {
    let to = dir.join(PathBuf::from(rel).file_name().unwrap());
    std::fs::copy(levels_dir().join(rel), &to).unwrap();
    to
}

#[test]
fn external_change_of_a_baba_file_reloads_or_asks() {
    let dir = tempfile::tempdir().unwrap();
    let f = copy_level(dir.path(), "baba/first-words.json");
    let mut s = EditorState::new(BoulderLevel::new("b", 3, 3));
    s.apply(Action::OpenPath(f.clone()));
    assert_eq!(s.kind_name(), "baba");
    let opened = doc(&s).level().clone();
    // Our own save is not an external change.
    s.apply(Action::Save);
    s.apply(Action::DiskChanged);
    assert!(s.pending.is_none());
    assert_eq!(doc(&s).history().len_done(), 0);

    // Another program writes a different level: a clean editor reloads it, undoably.
    let mut other = opened.clone();
    *other.map.get_mut(p(3, 1)).unwrap() = stack(&["keke"]);
    std::fs::write(&f, other.to_json().to_string()).unwrap();
    s.apply(Action::DiskChanged);
    assert!(s.pending.is_none());
    assert_eq!(*doc(&s).level(), other);
    assert!(!s.dirty());
    assert_eq!(doc(&s).history().done_names(), ["Reload from disk"]);

    // With unsaved edits it asks; "keep mine" keeps them and leaves the file alone.
    paint(&mut s, "rock", 0, 1);
    let mine = doc(&s).level().clone();
    let mut third = other.clone();
    third.name = "Third".into();
    let third_text = third.to_json().to_string();
    std::fs::write(&f, &third_text).unwrap();
    s.apply(Action::DiskChanged);
    assert!(matches!(s.pending, Some(Pending::ExternalChange { .. })));
    s.apply(Action::Answer(Answer::KeepMine));
    assert_eq!(*doc(&s).level(), mine);
    assert!(s.dirty());
    assert_eq!(std::fs::read_to_string(&f).unwrap(), third_text);

    // Take the disk version next time: loaded, clean, and undoable.
    third.name = "Fourth".into();
    std::fs::write(&f, third.to_json().to_string()).unwrap();
    s.apply(Action::DiskChanged);
    s.apply(Action::Answer(Answer::TakeDisk));
    assert_eq!(*doc(&s).level(), third);
    assert!(!s.dirty());
    s.apply(Action::Map(MapAction::Undo));
    assert_eq!(*doc(&s).level(), mine);
}

#[test]
fn autosave_copy_of_a_baba_level_is_offered_back() {
    let dir = tempfile::tempdir().unwrap();
    let f = copy_level(dir.path(), "baba/first-words.json");
    let auto = tilesmith_editor::files::Autosave {
        dir: dir.path().join("data"),
    };
    let mut s = EditorState::new(BoulderLevel::new("b", 3, 3));
    s.autosave = Some(auto.clone());
    s.apply(Action::OpenPath(f.clone()));
    baba(
        &mut s,
        BabaAction::PlaceSentence {
            text: "keke is push".into(),
            at: p(3, 3),
            vertical: false,
        },
    );
    s.apply(Action::Autosave);
    let edited = doc(&s).level().clone();
    assert!(auto.path_for(Some(&f)).exists());

    // "Crash": a new editor opens the same file and is offered the copy.
    let mut t = EditorState::new(BoulderLevel::new("b", 3, 3));
    t.autosave = Some(auto.clone());
    t.apply(Action::OpenPath(f.clone()));
    assert!(matches!(t.pending, Some(Pending::RestoreAutosave(_))));
    t.apply(Action::Answer(Answer::Restore));
    assert_eq!(t.kind_name(), "baba");
    assert_eq!(*doc(&t).level(), edited);
    assert!(t.dirty());
    assert!(rule_texts(&t).contains(&"keke is push".to_string()));
    // Saving removes the copy, and the file holds the restored level.
    t.apply(Action::Save);
    assert!(!auto.path_for(Some(&f)).exists());
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
    assert_eq!(BabaLevel::from_json(&v).unwrap(), edited);
}

#[test]
fn open_through_the_dialog_and_undo_with_nothing_to_undo() {
    let mut s = EditorState::new(BoulderLevel::new("b", 3, 3));
    s.dialogs = Box::new(ScriptedDialogs {
        opens: vec![levels_dir().join("baba/rock-is-flag.json")],
        saves: vec![],
    });
    s.apply(Action::Open);
    assert_eq!(s.kind_name(), "baba");
    assert_eq!(s.map_size(), (10, 6));
    s.status.clear();
    s.apply(Action::Map(MapAction::Undo));
    assert_eq!(s.status, "nothing to undo");
    s.apply(Action::Map(MapAction::Redo));
    assert_eq!(s.status, "nothing to redo");
    // Paste with an empty clipboard says so and changes nothing.
    s.apply(Action::Map(MapAction::Paste));
    assert_eq!(s.status, "the clipboard is empty");
    assert_eq!(doc(&s).history().len_done(), 0);
}

#[test]
fn resize_clips_the_selection_and_the_inspected_cell() {
    let mut s = baba_state(BabaLevel::new("t", 6, 4));
    s.apply(Action::SelectAll);
    s.apply(Action::Inspect(Some(p(5, 3))));
    s.apply(Action::Map(MapAction::Resize {
        width: 3,
        height: 3,
        anchor: (0, 0),
    }));
    assert_eq!(
        s.selection,
        Some(CellRect {
            x0: 0,
            y0: 0,
            x1: 2,
            y1: 2
        })
    );
    assert_eq!(s.inspect, None);
    s.apply(Action::SelectAll);
    s.apply(Action::Map(MapAction::Undo));
    assert_eq!(s.map_size(), (6, 4));
}

#[test]
fn switching_the_tool_during_a_drag_drops_the_stroke_as_on_boulder_maps() {
    // Boulder: pressing a tool key while dragging cancels the drag.
    let mut b = EditorState::new(BoulderLevel::new("b", 10, 8));
    let before = bd(&b).level().clone();
    b.apply(Action::Map(MapAction::CellPress {
        pos: p(2, 2),
        button: Button::Primary,
        alt: false,
    }));
    b.apply(Action::Map(MapAction::CellDrag(p(4, 2))));
    b.apply(Action::SelectTool(Tool::Rect));
    b.apply(Action::Map(MapAction::CellRelease));
    assert_eq!(*bd(&b).level(), before);
    assert_eq!(bd(&b).history().len_done(), 0);

    // Baba: the same sequence must not paint either.
    let mut s = baba_state(BabaLevel::new("t", 10, 8));
    s.apply(Action::Map(MapAction::CellPress {
        pos: p(2, 2),
        button: Button::Primary,
        alt: false,
    }));
    s.apply(Action::Map(MapAction::CellDrag(p(4, 2))));
    s.apply(Action::SelectTool(Tool::Rect));
    assert!(doc(&s).map.stroke.is_none(), "the drag is dropped");
    s.apply(Action::Map(MapAction::CellRelease));
    assert_eq!(occupied(&s), 0);
    assert_eq!(doc(&s).history().len_done(), 0);
}

#[test]
fn starting_play_drops_a_drag_and_undo_during_a_drag_cancels_it() {
    let mut s = baba_state(walk_level());
    s.apply(Action::Map(MapAction::CellPress {
        pos: p(4, 1),
        button: Button::Primary,
        alt: false,
    }));
    s.apply(Action::Play(PlayAction::Start));
    s.apply(Action::Map(MapAction::CellRelease));
    s.apply(Action::Play(PlayAction::Stop));
    assert!(at(&s, 4, 1).is_empty());
    assert_eq!(doc(&s).history().len_done(), 0);
    // Undo in the middle of a drag drops it too.
    paint(&mut s, "rock", 0, 1);
    s.apply(Action::Map(MapAction::CellPress {
        pos: p(4, 1),
        button: Button::Primary,
        alt: false,
    }));
    s.apply(Action::Map(MapAction::Undo));
    s.apply(Action::Map(MapAction::CellRelease));
    assert!(at(&s, 0, 1).is_empty());
    assert!(at(&s, 4, 1).is_empty());
    assert_eq!(doc(&s).history().len_done(), 0);
}

#[test]
fn restart_returns_to_turn_0_after_a_long_session() {
    // The engine keeps at least 64 turns of undo history and drops older ones when a level has
    // many objects; its own restart still returns to the level's start. A small budget here
    // stands in for a large level.
    let design = walk_level();
    let mut s = baba_state(design.clone());
    s.apply(Action::Play(PlayAction::Start));
    s.doc_as_mut::<BabaDoc>()
        .unwrap()
        .play
        .as_mut()
        .unwrap()
        .game_mut()
        .set_history_budget(1);
    baba(&mut s, PlayAction::Step(Some(Input::Move(Dir::Right))));
    for _ in 0..70 {
        baba(&mut s, PlayAction::Step(Some(Input::Wait)));
    }
    assert_eq!(turn(&s), 71);
    assert_eq!(shown(&s, 2, 2), ["baba"]);
    baba(&mut s, PlayAction::Step(Some(Input::Restart)));
    assert_eq!(turn(&s), 0, "restart goes back to the level's start");
    assert_eq!(doc(&s).play.as_ref().unwrap().shown, design);
}

#[test]
fn a_play_state_used_as_design_saves_to_a_file_that_loads() {
    // ALL IS YOU on row 0; on row 2, 66 objects of 11 kinds (6 of each, within the engine's
    // 6-per-kind cap) at x 0..=65. Moving left 65 times piles them all into (0,2): 66 objects,
    // more than a level file may hold in one cell (MAX_STACK = 64).
    let kinds = [
        "baba", "keke", "rock", "wall", "flag", "skull", "water", "lava", "key", "door", "grass",
    ];
    let mut design = level(
        70,
        3,
        &[
            (0, 0, &["text_all"]),
            (1, 0, &["text_is"]),
            (2, 0, &["text_you"]),
        ],
    );
    for x in 0..66 {
        *design.map.get_mut(p(x, 2)).unwrap() = stack(&[kinds[x % kinds.len()]]);
    }
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("piled.json");
    let mut s = baba_state(design);
    s.dialogs = Box::new(ScriptedDialogs {
        opens: vec![],
        saves: vec![target.clone()],
    });
    s.apply(Action::Play(PlayAction::Start));
    for _ in 0..65 {
        baba(&mut s, PlayAction::Step(Some(Input::Move(Dir::Left))));
    }
    assert_eq!(shown(&s, 0, 2).len(), 66);
    s.apply(Action::Play(PlayAction::UseAsDesign));
    s.apply(Action::Play(PlayAction::Stop));
    s.apply(Action::Save);
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&target).unwrap()).unwrap();
    let loaded = BabaLevel::from_json(&v);
    assert!(
        loaded.is_ok(),
        "the saved file cannot be opened: {:?}",
        loaded.err().map(|p| p[0].message.clone())
    );
}

// ---------------------------------------------------------------------------------------------
// Review findings: what playing may change, and what survives opening another level.

#[test]
fn while_playing_the_design_cannot_be_changed_behind_the_map() {
    let design = walk_level();
    let mut s = baba_state(design.clone());
    // A resize before playing, so an undo during play would change the map's size.
    s.apply(Action::Map(MapAction::Resize {
        width: 4,
        height: 3,
        anchor: (0, 0),
    }));
    let resized = doc(&s).level().clone();
    s.apply(Action::Play(PlayAction::Start));
    s.selection = Some(CellRect::span(p(0, 0), p(3, 2)));
    for a in [
        Action::Map(MapAction::Undo),
        Action::Map(MapAction::Redo),
        Action::Map(MapAction::HistoryGoTo(0)),
        Action::Map(MapAction::DeleteSelection),
        Action::Map(MapAction::Cut),
        Action::Map(MapAction::Paste),
        Action::Map(MapAction::Resize {
            width: 9,
            height: 9,
            anchor: (0, 0),
        }),
    ] {
        s.apply(a.clone());
        assert_eq!(
            *doc(&s).level(),
            resized,
            "{a:?} changed the design while playing"
        );
        assert!(s.status.contains("stop playing"), "{a:?}: {}", s.status);
    }
    // The size shown is the game's (the canvas builds its texture from it).
    assert_eq!(s.map_size(), (4, 3));
    // Copy while playing copies what the map shows: the game's cells.
    baba(&mut s, PlayAction::Step(Some(Input::Move(Dir::Right))));
    s.selection = Some(CellRect::span(p(0, 2), p(3, 2)));
    s.apply(Action::Map(MapAction::Copy));
    let clip = doc(&s).map.clipboard.clone().unwrap();
    let shown_row: Vec<Vec<Tile>> = (0..4)
        .map(|x| doc(&s).shown_map().get(p(x, 2)).unwrap().clone())
        .collect();
    assert_eq!(clip.cells(), shown_row.as_slice());
    assert_ne!(
        clip.cells(),
        (0..4)
            .map(|x| resized.map.get(p(x, 2)).unwrap().clone())
            .collect::<Vec<_>>()
            .as_slice(),
        "the game moved baba, so the copy differs from the design"
    );
    s.apply(Action::Play(PlayAction::Stop));
    s.apply(Action::Map(MapAction::Undo));
    assert_eq!(*doc(&s).level(), design, "after Stop, undo works again");
}

#[test]
fn brushes_and_clipboard_survive_opening_another_baba_level() {
    let mut s = baba_state(walk_level());
    baba(&mut s, BabaAction::SetPrimary(Some(kind("text_win"))));
    baba(&mut s, BabaAction::SetFacing(Dir::Down));
    baba(&mut s, BabaAction::SetStackMode(StackMode::Replace));
    s.selection = Some(CellRect::span(p(0, 0), p(2, 0)));
    s.apply(Action::Map(MapAction::Copy));
    let serial = s.doc_serial;
    s.apply(Action::OpenPath(levels_dir().join("baba/first-words.json")));
    assert_eq!(doc(&s).level().name, "First Words");
    assert!(s.doc_serial > serial, "a new document for the canvas cache");
    assert_eq!(doc(&s).primary, Some(kind("text_win")));
    assert_eq!(doc(&s).facing, Dir::Down);
    assert_eq!(doc(&s).stack_mode, StackMode::Replace);
    // Paste the copied BABA IS YOU into the new level at its bottom-left corner.
    s.selection = Some(CellRect::span(p(0, 5), p(0, 5)));
    s.hover = None;
    s.apply(Action::Map(MapAction::Paste));
    assert_eq!(toks(&s, 0, 5), ["text_baba"]);
    assert_eq!(toks(&s, 1, 5), ["text_is"]);
    assert_eq!(toks(&s, 2, 5), ["text_you"]);
}

#[test]
fn the_highlighted_rule_is_cleared_when_play_starts_or_stops() {
    let mut s = baba_state(walk_level());
    baba(&mut s, BabaAction::HoverRule(Some(0)));
    assert_eq!(doc(&s).hovered_tiles(), [p(0, 0), p(1, 0), p(2, 0)]);
    s.apply(Action::Play(PlayAction::Start));
    assert!(doc(&s).hovered_tiles().is_empty());
    baba(&mut s, BabaAction::HoverRule(Some(0)));
    s.apply(Action::Play(PlayAction::Stop));
    assert_eq!(doc(&s).hovered_rule, None);
}

#[test]
fn a_baba_session_never_runs_by_itself() {
    // Baba is turn-based: Run (Enter) does nothing, so no turn passes without a key.
    let mut s = baba_state(walk_level());
    s.apply(Action::Play(PlayAction::Start));
    s.apply(Action::Play(PlayAction::Run(true)));
    s.apply(Action::Play(PlayAction::Advance {
        dt: 2.0,
        held: None,
    }));
    assert_eq!(turn(&s), 0);
    assert!(!doc(&s).play.as_ref().unwrap().session.running);
}

/// Issue #31 defect 13: the design's one-cell selection is also its inspected cell; while
/// playing neither is outlined on the game (the canvas outlines `inspect`), a cell clicked in
/// play is the game's inspected cell, and stopping brings the design's back.
#[test]
fn the_designs_inspected_cell_is_not_outlined_during_play() {
    let mut s = baba_state(level(
        6,
        4,
        &[
            (0, 0, &["text_baba"]),
            (1, 0, &["text_is"]),
            (2, 0, &["text_you"]),
            (3, 2, &["baba"]),
        ],
    ));
    s.apply(Action::SelectTool(Tool::Select));
    stroke(&mut s, (4, 3), &[], Button::Primary);
    assert_eq!(
        s.inspect,
        Some(p(4, 3)),
        "a one-cell selection is inspected"
    );
    s.apply(Action::Play(PlayAction::Start));
    assert!(s.playing());
    assert_eq!(s.inspect, None, "the design's cell is outlined on the game");
    s.apply(Action::Inspect(Some(p(3, 2))));
    assert_eq!(s.inspect, Some(p(3, 2)));
    s.apply(Action::Play(PlayAction::Stop));
    assert_eq!(
        s.inspect,
        Some(p(4, 3)),
        "the design's inspected cell is back"
    );
    assert_eq!(s.selection.map(|r| (r.x0, r.y0)), Some((4, 3)));
}
