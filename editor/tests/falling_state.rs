//! The editor's falling document, tested directly on `EditorState` (no window): painting the
//! field with block kinds, undo, the rest-of-level edits (one history entry each, typing
//! merged), removing and reordering block kinds (ids renumbered everywhere), the save
//! round trip, and play (frames, held keys, run to the next placement, use as design).
//!
//! Expected values are worked out by hand from the levels built here and the issue's level
//! format (ids count from 1 in `blocks` order; `x` = column, `y` = row from the top).

#![allow(clippy::unwrap_used)] // test helpers panic on purpose when a fixture is wrong

use serde_json::json;
use tilesmith_editor::kinds::falling::{Design, FallingAction, FallingDoc};
use tilesmith_editor::state::{Action, EditorState, MapAction, PlayAction};
use tilesmith_editor::tools::Button;
use tilesmith_engine::input::Turn;
use tilesmith_engine::kind::falling::FallingLevel;
use tilesmith_engine::kind::falling::level::Role;
use tilesmith_engine::{Dir, Game as _, GameKind as _, Input, Pos, Status};

fn fd(s: &EditorState) -> &FallingDoc {
    s.doc_as::<FallingDoc>().expect("a falling document")
}

/// A 6 × 8 level: red, green, blue (ids 1–3); one pair tumo ("pair": `-1` red above label 1
/// of green/blue), no kicks, connected 4 + gravity, instant timing except gravity.
fn level() -> FallingLevel {
    FallingLevel::from_json(&json!({
        "kind": "falling",
        "name": "state",
        "width": 6,
        "height": 8,
        "blocks": [
            {"name": "red", "color": [230, 40, 40], "form": "round"},
            {"name": "green", "color": [40, 200, 60], "form": "round"},
            {"name": "blue", "color": [60, 80, 240], "form": "round"}
        ],
        "tumos": [{
            "name": "pair",
            "states": [[[0, -1, 0], [0, 1, 0], [0, 0, 0]],
                       [[0, 0, 0], [0, 1, -1], [0, 0, 0]]],
            "block": "red",
            "labels": ["blue"],
            "pivot": [1, 1]
        }],
        "clear": [{"rule": "connected", "min": 4}],
        "fall": ["gravity"],
        "timing": {"gravity": 60, "soft_drop": 0, "lock": 0, "spawn": 0, "clear": 0,
                   "fall": 0, "land": 0},
        "legend": {"r": "red", "g": "green", "b": "blue"},
        "field": ["......", "......", "......", "......", "......", "......", "......", "gg...."]
    }))
    .unwrap()
}

fn stroke(s: &mut EditorState, x: usize, y: usize, button: Button) {
    s.apply(Action::Map(MapAction::CellPress {
        pos: Pos::new(x, y),
        button,
        alt: false,
    }));
    s.apply(Action::Map(MapAction::CellRelease));
}

fn cell(s: &EditorState, x: usize, y: usize) -> u8 {
    *fd(s).design().map.get(Pos::new(x, y)).unwrap()
}

#[test]
fn painting_with_block_kinds_and_the_eraser_is_undoable() {
    let mut s = EditorState::new(level());
    s.apply(FallingAction::SetPrimary(3));
    stroke(&mut s, 2, 7, Button::Primary);
    assert_eq!(cell(&s, 2, 7), 3, "blue is id 3");
    // The right button is the eraser at first.
    stroke(&mut s, 0, 7, Button::Secondary);
    assert_eq!(cell(&s, 0, 7), 0);
    s.apply(Action::Map(MapAction::Undo));
    assert_eq!(cell(&s, 0, 7), 2, "green back");
    s.apply(Action::Map(MapAction::Undo));
    assert_eq!(cell(&s, 2, 7), 0);
    // What Save writes has the painted cell in the field rows, through the legend.
    s.apply(Action::Map(MapAction::Redo));
    let doc = s.doc.to_json();
    assert_eq!(doc["field"][7], "ggb...");
}

#[test]
fn rest_edits_are_one_step_each_and_typing_merges() {
    let mut s = EditorState::new(level());
    let mut rest = fd(&s).design().rest.clone();
    rest.name = "s".into();
    let set = |rest: &FallingLevel, merge: Option<&str>| FallingAction::SetRest {
        what: "Set name".into(),
        merge: merge.map(str::to_string),
        rest: Box::new(rest.clone()),
    };
    s.apply(set(&rest, Some("name")));
    rest.name = "st".into();
    s.apply(set(&rest, Some("name")));
    rest.name = "sta".into();
    s.apply(set(&rest, Some("name")));
    assert_eq!(fd(&s).design().rest.name, "sta");
    assert_eq!(fd(&s).map.history.done_names(), ["Set name"]);
    s.apply(Action::Map(MapAction::Undo));
    assert_eq!(fd(&s).design().rest.name, "state");
    // The same rest again changes nothing and records nothing.
    let same = fd(&s).design().rest.clone();
    s.apply(set(&same, None));
    assert!(fd(&s).map.history.done_names().is_empty());
}

#[test]
fn removing_a_block_kind_renumbers_the_field_and_the_tumos() {
    let mut s = EditorState::new(level());
    s.apply(FallingAction::SetPrimary(3));
    stroke(&mut s, 5, 7, Button::Primary);
    // Remove green (id 2): its cells become empty, blue (3) becomes 2, the tumo's label
    // list [blue] becomes [2], red stays 1.
    s.apply(FallingAction::RemoveBlock(2));
    let d = fd(&s).design();
    assert_eq!(d.rest.blocks.len(), 2);
    assert_eq!(d.rest.blocks[1].name, "blue");
    assert_eq!(cell(&s, 0, 7), 0);
    assert_eq!(cell(&s, 5, 7), 2);
    assert_eq!(d.rest.tumos[0].labels, [2]);
    assert_eq!(d.rest.tumos[0].block, 1);
    assert_eq!(fd(&s).primary, 2, "the brush follows its block");
    // The saved level loads again and says the same.
    let again = FallingLevel::from_json(&s.doc.to_json()).unwrap();
    assert_eq!(again.blocks.len(), 2);
    // One undo restores all of it.
    s.apply(Action::Map(MapAction::Undo));
    assert_eq!(cell(&s, 0, 7), 2);
    assert_eq!(cell(&s, 5, 7), 3);
    assert_eq!(fd(&s).design().rest.tumos[0].labels, [3]);
}

#[test]
fn moving_a_block_kind_down_swaps_ids_everywhere() {
    let mut s = EditorState::new(level());
    s.apply(FallingAction::MoveBlockDown(1));
    let d = fd(&s).design();
    assert_eq!(d.rest.blocks[0].name, "green");
    assert_eq!(d.rest.blocks[1].name, "red");
    assert_eq!(cell(&s, 0, 7), 1, "green is now id 1");
    assert_eq!(d.rest.tumos[0].block, 2, "the tumo's -1 cells stay red");
    // The field still reads "gg" through the legend.
    assert_eq!(s.doc.to_json()["field"][7], "gg....");
}

#[test]
fn adding_a_block_kind_gives_a_fresh_name_and_a_normal_role() {
    let mut s = EditorState::new(level());
    s.apply(FallingAction::AddBlock);
    let b = &fd(&s).design().rest.blocks[3];
    assert_eq!(b.name, "block 4");
    assert_eq!(b.role, Role::Normal);
    assert!(FallingLevel::from_json(&s.doc.to_json()).is_ok());
}

#[test]
fn play_frames_held_keys_and_run_to_the_next_placement() {
    let mut s = EditorState::new(level());
    s.apply(PlayAction::Start);
    let p = fd(&s).play.as_ref().expect("playing");
    // The pair spawned centred: grid left = (6 − 3) / 2 = 1, its top block in row 0.
    let a = p.game().active().unwrap();
    assert_eq!((a.x, a.y), (1, 0));
    // Running, a held Left moves once, then waits out the auto-shift delay.
    s.apply(PlayAction::Run(true));
    for _ in 0..5 {
        s.apply(Action::Play(PlayAction::Advance {
            dt: 1.0001 / 60.0,
            held: Some(Input::Move(Dir::Left)),
        }));
    }
    let p = fd(&s).play.as_ref().unwrap();
    assert_eq!(
        p.game().active().unwrap().x,
        0,
        "one cell for five held frames"
    );
    assert_eq!(p.session.steps(), 5);
    s.apply(PlayAction::Run(false));
    // Run to the next placement: the pair (red above blue, in column 1 now) falls onto the
    // green at (1, 7) and is placed; two greens do not clear.
    s.apply(FallingAction::RunToPlacement);
    let p = fd(&s).play.as_ref().unwrap();
    assert!(p.game().is_settled());
    let field = p.field_grid();
    assert_eq!(*field.get(Pos::new(1, 7)).unwrap(), 2, "green stays");
    assert_eq!(
        *field.get(Pos::new(1, 6)).unwrap(),
        3,
        "blue (label 1) on it"
    );
    assert_eq!(*field.get(Pos::new(1, 5)).unwrap(), 1, "red (-1) on top");
    assert_eq!(p.game().status(), Status::Running);
    // Design edits are refused while playing.
    s.apply(FallingAction::AddBlock);
    assert_eq!(fd(&s).design().rest.blocks.len(), 3);
    // Use as design copies the played field.
    s.apply(PlayAction::UseAsDesign);
    s.apply(PlayAction::Stop);
    assert_eq!(cell(&s, 1, 6), 3);
    assert_eq!(cell(&s, 1, 5), 1);
}

#[test]
fn a_new_falling_design_is_the_puyo_template_and_checks_clean() {
    let d = Design::new_puyo();
    let level = d.level();
    let doc = level.to_json();
    let problems = tilesmith_engine::kind::falling::Falling.check(&doc);
    assert!(problems.is_empty(), "{problems:?}");
}

#[test]
fn opening_an_fpgdl_program_imports_it_as_a_new_unsaved_level() {
    // The paper's Puyo program (transcribed in tests/data/fpgdl): 6 × 13, five kinds, one pair.
    let program =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/fpgdl/puyo.lua");
    let mut s = EditorState::new(level());
    s.apply(Action::OpenPath(program.clone()));
    assert!(s.pending.is_none(), "{:?}", s.pending);
    let d = fd(&s).design();
    assert_eq!((d.map.width(), d.map.height()), (6, 13));
    assert_eq!(d.rest.blocks.len(), 5);
    assert_eq!(d.rest.tumos.len(), 1);
    assert!(
        d.rest
            .script
            .as_deref()
            .unwrap()
            .contains("function update()")
    );
    // Not the Lua file's document: Save asks where to write the level.
    assert_eq!(s.path, None);
    assert!(s.dirty());
}

/// A shipped level (read from the workspace's `levels/falling/`) with a fixed sequence.
fn shipped(stem: &str, tumos: &[&str]) -> serde_json::Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../levels/falling/{stem}.json"));
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    v["sequence"] = json!({"order": "fixed", "tumos": tumos});
    v
}

#[test]
fn the_shadow_of_a_tumo_partly_above_the_field_has_every_cell_in_its_own_kind() {
    // Guideline Tetris (10 × 22, empty field): the I (kind 1) turned right at spawn stands in
    // column 5, rows −1 to 2, so three of its cells are in the field; it lands in rows 18–21,
    // all four in the field: the shadow has four cells of kind I.
    let mut s = EditorState::new(FallingLevel::from_json(&shipped("tetris", &["I", "I"])).unwrap());
    s.apply(PlayAction::Start);
    s.apply(PlayAction::Step(Some(Input::Turn(Turn::Cw))));
    let p = fd(&s).play.as_ref().expect("playing");
    assert_eq!(p.game().active().unwrap().cells.len(), 3);
    let level = fd(&s).design().rest.clone();
    assert_eq!(
        p.shadow_cells(&level),
        [(5, 18, 1), (5, 19, 1), (5, 20, 1), (5, 21, 1)]
    );
    s.apply(PlayAction::Stop);

    // Puyo Puyo Tsu (6 × 13, empty field), shadow on, a pair whose child (label 1, red = 1)
    // is at (2, −1) above its axis (label 2, blue = 3) at (2, 0). It lands with the child at
    // (2, 11) and the axis at (2, 12): each shadow cell in its own puyo's colour.
    let mut doc = shipped("puyo-tsu", &["pair", "pair"]);
    doc["shadow"] = json!(true);
    doc["active"] = json!({"tumo": "pair", "state": 0, "x": 1, "y": -1, "labels": ["red", "blue"]});
    let mut s = EditorState::new(FallingLevel::from_json(&doc).unwrap());
    s.apply(PlayAction::Start);
    let p = fd(&s).play.as_ref().expect("playing");
    assert_eq!(p.game().active().unwrap().cells, [(2, 0, 3)]);
    let level = fd(&s).design().rest.clone();
    assert_eq!(p.shadow_cells(&level), [(2, 11, 1), (2, 12, 3)]);
}
