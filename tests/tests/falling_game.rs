//! The falling kind's frame (issue 10 "A frame", spec falling-blocks §3–§6, §10), with
//! expectations worked out by hand from the issue and the spec: spawning, moving, gravity, lock,
//! drops, clears and fall laws, chains and the Puyo Puyo Tsu score, goals, game over, undo,
//! saving and loading, and determinism. See `docs/falling-semantics.md`.

#![allow(clippy::unwrap_used)]

use serde_json::{Value, json};
use tilesmith_engine::game::{Game, GameKind, Status};
use tilesmith_engine::input::Input;
use tilesmith_engine::kind::falling::level::QueuedTumo;
use tilesmith_engine::kind::falling::{FallingGame, FallingLevel};
use tilesmith_engine::kind::kind_named;
use tilesmith_engine::{Pos, load_text, parse_inputs};

fn falling() -> &'static dyn GameKind {
    kind_named("falling").unwrap()
}

fn zero_timing() -> Value {
    json!({"gravity": 0, "soft_drop": 0, "lock": 0, "spawn": 0, "clear": 0, "fall": 0, "land": 0})
}

/// Timing where the tumo stays where the player puts it.
fn still_timing() -> Value {
    json!({"gravity": 1000, "soft_drop": 0, "lock": 1000, "spawn": 0, "clear": 0, "fall": 0, "land": 0})
}

/// The spec's 4 × 4 Tetris T (§8.2), rotation states 0–3.
fn t_tumo() -> Value {
    json!({"name": "T", "states": [
        [[0, 0, 0, 0], [0, -1, 0, 0], [-1, -1, -1, 0], [0, 0, 0, 0]],
        [[0, 0, 0, 0], [0, -1, 0, 0], [0, -1, -1, 0], [0, -1, 0, 0]],
        [[0, 0, 0, 0], [0, 0, 0, 0], [-1, -1, -1, 0], [0, -1, 0, 0]],
        [[0, 0, 0, 0], [0, -1, 0, 0], [-1, -1, 0, 0], [0, -1, 0, 0]]
    ], "block": "T"})
}

/// A 10 × `height` level with the T piece only.
fn t_level(height: usize, timing: Value) -> Value {
    json!({
        "kind": "falling", "name": "T", "width": 10, "height": height,
        "blocks": [{"name": "T", "color": [255, 40, 255]}],
        "tumos": [t_tumo()],
        "clear": [{"rule": "rows"}], "fall": ["rows"],
        "timing": timing,
    })
}

fn game(doc: &Value, seed: u64) -> FallingGame {
    let level = FallingLevel::from_json(doc).unwrap_or_else(|e| panic!("{e:#?}"));
    FallingGame::new(level, seed)
}

fn play(g: &mut dyn Game, words: &str) {
    for i in parse_inputs(falling(), words).unwrap() {
        g.step(i);
    }
}

/// The field as rows of legend characters.
fn rows(g: &FallingGame) -> Vec<String> {
    g.to_falling_level().field_rows()
}

fn active_xy(g: &FallingGame) -> (i32, i32, usize) {
    let a = g.active().expect("a tumo in play");
    (a.x, a.y, a.state)
}

fn cells(g: &FallingGame) -> Vec<(usize, usize)> {
    g.active()
        .unwrap()
        .cells
        .iter()
        .map(|&(x, y, _)| (x, y))
        .collect()
}

#[test]
fn the_kind_is_registered_with_its_inputs() {
    let k = falling();
    assert_eq!(k.name(), "falling");
    assert_eq!(k.steps_per_second(), 60.0);
    let words: Vec<&str> = k.inputs().iter().map(|s| s.word).collect();
    assert_eq!(words, [".", "L", "R", "SD", "HD", "CW", "CCW", "180", "H"]);
    let keys: Vec<&str> = k.inputs().iter().map(|s| s.key).collect();
    assert_eq!(
        keys,
        [
            "Period",
            "ArrowLeft",
            "ArrowRight",
            "ArrowDown",
            "Space",
            "ArrowUp|X",
            "Z",
            "A",
            "C"
        ]
    );
    for s in k.inputs() {
        assert_eq!(s.word, s.input.word());
        assert_eq!(
            k.parse_input(&s.word.to_ascii_lowercase()).unwrap(),
            s.input
        );
    }
    assert!(
        k.parse_input("U").is_err(),
        "boulder words are not falling inputs"
    );
}

// ---------------------------------------------------------------------------------------------
// Spawning and moving.

#[test]
fn a_tumo_spawns_centred_with_its_top_block_in_row_0() {
    // Width 10, grid side 4: left = (10 - 4) / 2 = 3; the T's top block is in grid row 1, so
    // the grid's top is row -1. Blocks: (4, 0), (3, 1), (4, 1), (5, 1).
    let doc = t_level(6, still_timing());
    let g = falling().start(&doc, 0).unwrap();
    assert_eq!(
        g.summary(),
        json!({"kind": "falling", "status": "running", "frames": 0, "score": 0, "rows": 0,
            "chain": 0, "max_chain": 0,
            "active": {"tumo": "T", "state": 0, "x": 3, "y": -1,
                       "cells": [[4, 0], [3, 1], [4, 1], [5, 1]]},
            "next": ["T", "T"]})
    );
    // A Puyo pair (3 × 3, blocks in grid column 1) in a 6-wide field: left = 1, so the pair is
    // in column 2 (Puyo's third column), label 1 in row 0 above the axis in row 1.
    let pair = json!({
        "kind": "falling", "width": 6, "height": 12,
        "blocks": [{"name": "red"}, {"name": "green"}],
        "tumos": [{"name": "pair", "states": [[[0, 1, 0], [0, 2, 0], [0, 0, 0]]]}],
        "clear": [{"rule": "connected", "min": 4}], "fall": ["gravity"],
        "timing": still_timing(), "preview": 1
    });
    let g = game(&pair, 0);
    assert_eq!(active_xy(&g), (1, 0, 0));
    assert_eq!(cells(&g), vec![(2, 0), (2, 1)]);
    assert_eq!(g.next_tumos().len(), 1, "preview 1");
}

#[test]
fn moves_stop_at_the_walls_and_at_blocks() {
    let mut g = game(&t_level(6, still_timing()), 0);
    play(&mut g, "L*10");
    assert_eq!(active_xy(&g), (0, -1, 0));
    assert_eq!(cells(&g), vec![(1, 0), (0, 1), (1, 1), (2, 1)]);
    play(&mut g, "R*20");
    assert_eq!(active_xy(&g), (7, -1, 0));
    assert_eq!(cells(&g), vec![(8, 0), (7, 1), (8, 1), (9, 1)]);
    // A block at (1, 1): the T stops with its left block at (2, 1).
    let mut doc = t_level(6, still_timing());
    doc["legend"] = json!({"#": "T"});
    doc["field"] = json!([
        "..........",
        ".#........",
        "..........",
        "..........",
        "..........",
        ".........."
    ]);
    let mut g = game(&doc, 0);
    play(&mut g, "L*5");
    assert_eq!(active_xy(&g), (2, -1, 0));
}

#[test]
fn gravity_moves_the_tumo_one_cell_every_gravity_frames() {
    let mut t = still_timing();
    t["gravity"] = json!(5);
    let mut g = game(&t_level(10, t), 0);
    play(&mut g, ".*4");
    assert_eq!(active_xy(&g).1, -1);
    play(&mut g, ".");
    assert_eq!(active_xy(&g).1, 0, "the fifth frame");
    play(&mut g, ".*4");
    assert_eq!(active_xy(&g).1, 0);
    play(&mut g, ".");
    assert_eq!(active_xy(&g).1, 1, "the tenth frame");
    // Gravity 0 is instant: the first frame drops it to the floor (rows 8 and 9 of 10).
    let mut t = still_timing();
    t["gravity"] = json!(0);
    let mut g = game(&t_level(10, t), 0);
    play(&mut g, ".");
    assert_eq!(active_xy(&g).1, 7);
}

#[test]
fn soft_drop_moves_one_cell_at_most_every_soft_drop_frames() {
    let mut g = game(&t_level(6, still_timing()), 0);
    play(&mut g, "SD*4");
    assert_eq!(
        active_xy(&g).1,
        3,
        "soft_drop 0: a cell every frame, 4 cells to the floor"
    );
    play(&mut g, "SD");
    assert_eq!(active_xy(&g).1, 3, "resting: nothing");
    let mut t = still_timing();
    t["soft_drop"] = json!(2);
    let mut g = game(&t_level(6, t), 0);
    play(&mut g, "SD*4");
    assert_eq!(active_xy(&g).1, 1, "frames 1 and 3 move");
}

#[test]
fn a_resting_tumo_is_placed_after_lock_frames() {
    // Height 4: the T falls from y = -1 to y = 1 (its bottom row in row 3) in frame 1.
    let mut t = zero_timing();
    t["lock"] = json!(3);
    let mut g = game(&t_level(4, t), 0);
    play(&mut g, ". . .");
    assert_eq!(active_xy(&g), (3, 1, 0));
    assert!(g.field().cells.iter().all(|&c| c == 0));
    play(&mut g, ".");
    assert_eq!(
        rows(&g),
        vec!["..........", "..........", "....T.....", "...TTT....",]
    );
    assert_eq!(g.last_frame().placed.len(), 4);
    assert_eq!(
        active_xy(&g),
        (3, -1, 0),
        "the next T spawns in the same frame (spawn 0)"
    );
}

#[test]
fn hard_drop_places_at_once_and_is_ignored_without_hard_drop() {
    let mut doc = t_level(4, still_timing());
    doc["hard_drop"] = json!(true);
    let mut g = game(&doc, 0);
    play(&mut g, "HD");
    assert!(g.last_frame().hard_drop);
    assert_eq!(rows(&g)[2..], ["....T.....", "...TTT...."]);
    assert_eq!(g.frames(), 1);
    doc["hard_drop"] = json!(false);
    let mut g = game(&doc, 0);
    play(&mut g, "HD HD");
    assert_eq!(active_xy(&g), (3, -1, 0));
    assert!(g.field().cells.iter().all(|&c| c == 0));
}

#[test]
fn layers_show_field_blocks_and_the_active_tumo() {
    let mut doc = t_level(4, still_timing());
    doc["legend"] = json!({"#": "T"});
    doc["field"] = json!(["..........", "..........", "..........", "#........."]);
    let g = game(&doc, 0);
    assert_eq!(g.layers(Pos::new(0, 3))[0].token, "T");
    assert_eq!(g.layers(Pos::new(4, 0)).len(), 1, "the active tumo's cell");
    assert!(g.layers(Pos::new(9, 3)).is_empty());
    assert!(g.layers(Pos::new(10, 0)).is_empty(), "outside");
    // The shadow is where the T would land: rows 2 and 3.
    assert_eq!(g.shadow(), vec![(4, 2), (3, 3), (4, 3), (5, 3)]);
}

// ---------------------------------------------------------------------------------------------
// Clears, fall laws, chains, score.

/// A 4 × 6 Tetris-like well with a vertical domino; `fall` is the fall law.
fn well(fall: &str) -> Value {
    json!({
        "kind": "falling", "width": 4, "height": 6,
        "blocks": [{"name": "X"}],
        "tumos": [{"name": "I2", "states": [[[-1, 0], [-1, 0]]], "block": "X"}],
        "hard_drop": true,
        "clear": [{"rule": "rows"}], "fall": [fall],
        "score": {"rule": "rows"},
        "timing": still_timing(),
        "legend": {"X": "X"},
        "field": ["....", "....", ".X..", "X..X", "XX.X", "XX.X"]
    })
}

#[test]
fn a_row_clear_drops_the_rows_above_by_the_rows_cleared_below() {
    // The domino lands in column 2, rows 4–5, filling both rows. Rows 2 and 3 drop by 2
    // (Tetris's naive gravity): the block of row 2 ends at (1, 4) above a hole at (1, 5).
    let mut g = game(&well("rows"), 0);
    play(&mut g, "R HD");
    assert_eq!(
        rows(&g),
        vec!["....", "....", "....", "....", ".X..", "X..X"]
    );
    assert_eq!(
        (g.rows(), g.score(), g.chain(), g.max_chain()),
        (2, 300, 1, 1)
    );
    let clear = g.last_frame().clear.clone().unwrap();
    assert_eq!(clear.chain, 1);
    assert_eq!(clear.points, 300);
    assert_eq!(clear.cells.len(), 8);
    assert!(g.active().is_none(), "no spawn in the frame of a clear");
    play(&mut g, ".");
    assert!(
        g.active().is_some(),
        "the next tumo once the field has settled"
    );
    // With gravity instead every block falls as far as it can: row 5 is XX.X. The block of
    // row 2 floats over (1, 3), so the starting field is not settled: it falls in frame 1 and
    // the first tumo spawns in frame 2, the first whose rules change nothing.
    let mut g = game(&well("gravity"), 0);
    assert!(g.active().is_none());
    play(&mut g, ".");
    assert_eq!(rows(&g)[2..4], ["....", "XX.X"]);
    assert!(g.active().is_none());
    play(&mut g, ".");
    assert!(g.active().is_some());
    play(&mut g, "R HD");
    assert_eq!(
        rows(&g),
        vec!["....", "....", "....", "....", "....", "XX.X"]
    );
}

/// A 6 × 6 Puyo field for a 2-chain, with vertical red pairs.
fn chain_level(timing: Value) -> Value {
    json!({
        "kind": "falling", "width": 6, "height": 6,
        "blocks": [{"name": "red", "form": "round"}, {"name": "blue", "form": "round"}],
        "tumos": [{"name": "RR", "block": "red", "states": [
            [[0, -1, 0], [0, -1, 0], [0, 0, 0]], [[0, 0, 0], [0, -1, -1], [0, 0, 0]],
            [[0, 0, 0], [0, -1, 0], [0, -1, 0]], [[0, 0, 0], [-1, -1, 0], [0, 0, 0]]]}],
        "hard_drop": true,
        "clear": [{"rule": "connected", "min": 4}], "fall": ["gravity"],
        "score": {"rule": "puyo"},
        "sequence": {"order": "fixed", "tumos": ["RR", "RR"]},
        "timing": timing,
        "legend": {"R": "red", "B": "blue"},
        "field": ["......", "......", "B.....", "B.....", "R.....", "RBBBRR"]
    })
}

#[test]
fn a_puyo_two_chain_scores_by_the_tsu_formula() {
    // The pair lands in column 1, rows 3-4: reds (0,4) (0,5) (1,3) (1,4) vanish (chain 1:
    // 10 × 4 × max(1, 0) = 40); the blues of column 0 fall to rows 4-5 and join (1,5) (2,5)
    // (3,5): 5 blues (chain 2: coef = chain_bonus[2] 8 + group_bonus[5] 2 + color_bonus[1] 0
    // = 10, 10 × 5 × 10 = 500). Total 540.
    let mut t = still_timing();
    t["gravity"] = json!(1000);
    let mut g = game(&chain_level(t), 0);
    play(&mut g, "L HD");
    assert_eq!((g.score(), g.chain()), (40, 1));
    assert_eq!(
        rows(&g),
        vec!["......", "......", "......", "......", "B.....", "BBBBRR"]
    );
    play(&mut g, ".");
    assert_eq!((g.score(), g.chain(), g.max_chain()), (540, 2, 2));
    let c = g.last_frame().clear.clone().unwrap();
    assert_eq!((c.chain, c.points, c.stats.erased), (2, 500, 5));
    assert_eq!(c.stats.groups, vec![5]);
    assert_eq!(
        rows(&g),
        vec!["......", "......", "......", "......", "......", "....RR"]
    );
    assert!(g.active().is_none());
    play(&mut g, ".");
    assert!(g.active().is_some(), "spawns once settled");
    // The next pair is placed on (4,5) (5,5): a new group after a placement is chain 1.
    play(&mut g, "R R HD");
    assert_eq!((g.score(), g.chain(), g.max_chain()), (580, 1, 2));
    // The fixed sequence is used up; without a goal the game stays running with nothing.
    play(&mut g, ". .");
    assert_eq!(g.status(), Status::Running);
    assert_eq!(g.summary()["active"], Value::Null);
    assert_eq!(g.summary()["next"], json!([]));
    assert_eq!(g.summary()["score"], 580);
}

#[test]
fn clears_and_falls_take_their_frames() {
    // clear 3, fall 2 (docs/falling-semantics.md, the animation model): the frame that flags a
    // clear holds it; it is carried out 3 frames later; a block that fell n cells is in motion
    // for 2n frames, and the next clear waits for it.
    let mut t = zero_timing();
    t["clear"] = json!(3);
    t["fall"] = json!(2);
    let mut g = game(&chain_level(t), 0);
    play(&mut g, "L");
    let p = g.pending_clear().unwrap();
    assert_eq!(p.cells, vec![(1, 3), (0, 4), (1, 4), (0, 5)]);
    assert_eq!((p.frames_left, p.frames_total), (3, 3));
    assert_eq!(g.last_frame().clear_started, p.cells);
    assert_eq!(g.score(), 0);
    assert_eq!(rows(&g)[3..], ["BR....", "RR....", "RBBBRR"], "still there");
    play(&mut g, ". .");
    assert_eq!(g.pending_clear().unwrap().frames_left, 1);
    play(&mut g, ".");
    assert!(g.pending_clear().is_none());
    assert_eq!((g.score(), g.chain()), (40, 1));
    let w = 6;
    assert_eq!(g.moving()[4 * w], 4, "fell 2 cells: 4 frames in motion");
    assert_eq!(g.moving()[5 * w], 4);
    assert_eq!(g.fall_offset(0, 4), 2.0);
    assert!(!g.is_settled());
    play(&mut g, ". . .");
    assert_eq!(g.moving()[5 * w], 1);
    assert!(
        g.pending_clear().is_none(),
        "no clear while a block is in motion"
    );
    play(&mut g, ".");
    assert_eq!(g.moving()[5 * w], 0);
    assert_eq!(
        g.pending_clear().unwrap().cells.len(),
        5,
        "frame 8: the blues"
    );
    play(&mut g, ". .");
    assert_eq!(g.score(), 40);
    play(&mut g, ".");
    assert_eq!((g.score(), g.chain(), g.frames()), (540, 2, 11));
    assert!(g.active().is_none());
    play(&mut g, ".");
    assert!(
        g.active().is_some(),
        "frame 12: settled, the next pair spawns"
    );
}

// ---------------------------------------------------------------------------------------------
// Goals and game over.

/// 4 × 3, a horizontal red pair, a fixed sequence of one pair; row 2 holds RR in columns
/// 0-1. `R` puts the pair over columns 2-3, where it lands and completes four reds.
fn goal_level(goal: Option<Value>) -> Value {
    let mut doc = json!({
        "kind": "falling", "width": 4, "height": 3,
        "blocks": [{"name": "red"}],
        "tumos": [{"name": "H", "states": [[[-1, -1], [0, 0]]], "block": "red"}],
        "clear": [{"rule": "connected", "min": 4}], "fall": ["gravity"],
        "sequence": {"order": "fixed", "tumos": ["H"]},
        "timing": zero_timing(),
        "legend": {"R": "red"},
        "field": ["....", "....", "RR.."]
    });
    if let Some(g) = goal {
        doc["goal"] = g;
    }
    doc
}

#[test]
fn fixed_sequences_and_goals() {
    let mut g = game(&goal_level(Some(json!({"rule": "clear_all"}))), 0);
    play(&mut g, "R");
    assert_eq!(g.status(), Status::won(1), "the field is empty");
    assert_eq!(g.frames(), 1);
    play(&mut g, ". .");
    assert_eq!(g.frames(), 1, "a finished game does not step");
    // A goal not met when the sequence is used up and the field has settled.
    let mut g = game(&goal_level(Some(json!({"rule": "chain", "min": 2}))), 0);
    play(&mut g, "R");
    assert_eq!(g.status(), Status::Running);
    play(&mut g, ".");
    assert!(
        matches!(g.status(), Status::Lost { reason } if reason.contains("sequence ended")),
        "{:?}",
        g.status()
    );
    // No goal: running, with nothing to play.
    let mut g = game(&goal_level(None), 0);
    play(&mut g, "R . . .");
    assert_eq!(g.status(), Status::Running);
    assert!(g.active().is_none());
    // Goals by score and rows are reached at once.
    let mut g = game(&goal_level(Some(json!({"rule": "chain", "min": 1}))), 0);
    play(&mut g, "R");
    assert_eq!(g.status(), Status::won(1));
    // Without the clear the field is not empty at the end: clear_all is lost. With one red in
    // row 2 the pair over columns 2-3 makes no group of four.
    let mut doc = goal_level(Some(json!({"rule": "clear_all"})));
    doc["field"] = json!(["....", "....", "R..."]);
    let mut g = game(&doc, 0);
    // Nothing vanishes, so the field has settled in the same frame and the used-up sequence
    // is judged at once.
    play(&mut g, "R");
    assert_eq!(rows(&g)[2], "R.RR");
    assert!(
        matches!(g.status(), Status::Lost { .. }),
        "{:?}",
        g.status()
    );
}

#[test]
fn the_game_is_lost_when_the_next_tumo_cannot_appear() {
    // Height 2: the vertical pair rests at once and fills column 2; the next cannot appear.
    let mut doc = chain_level(zero_timing());
    doc["height"] = json!(2);
    doc["field"] = json!(["......", "......"]);
    doc["sequence"] = json!({"order": "random"});
    let mut g = game(&doc, 0);
    play(&mut g, ".");
    assert_eq!(
        g.status(),
        Status::Lost {
            reason: "the next tumo cannot appear".into()
        }
    );
    assert_eq!(g.summary()["active"], Value::Null);
    assert_eq!(g.summary()["status"], "lost");
    assert_eq!(Game::error(&g), None, "lost by the rules, not by an error");
    // A finished game saves and loads as finished, with its reason.
    let saved = g.to_level();
    assert_eq!(saved["state"]["status"], "lost");
    assert_eq!(saved["state"]["reason"], "the next tumo cannot appear");
    let mut h = falling().start(&saved, 0).unwrap();
    assert_eq!(h.summary(), g.summary());
    assert_eq!(h.state_hash(), g.state_hash());
    assert!(!h.takes_turns());
    h.step(Input::Wait);
    assert_eq!(h.summary()["frames"], 1);
}

/// 6 × 3 with column 0 filled in rows 1-2 and a one-block tumo that stays where it is moved;
/// `L L` puts it on (0, 0), in the top row, away from the spawn cell (2, 0).
fn top_level(game_over: Value) -> Value {
    json!({
        "kind": "falling", "width": 6, "height": 3,
        "blocks": [{"name": "X"}],
        "tumos": [{"name": "dot", "states": [[[-1]]], "block": "X"}],
        "clear": [{"rule": "rows"}],
        "game_over": game_over,
        "timing": {"gravity": 1000, "soft_drop": 0, "lock": 0, "spawn": 0, "clear": 0, "fall": 0, "land": 0},
        "legend": {"X": "X"},
        "field": ["......", "X.....", "X....."]
    })
}

#[test]
fn a_block_placed_in_the_top_row_loses_with_top_row() {
    let mut g = game(&top_level(json!([{"rule": "top_row"}])), 0);
    play(&mut g, "L");
    assert_eq!(g.status(), Status::Running);
    play(&mut g, "L");
    assert_eq!(
        g.status(),
        Status::Lost {
            reason: "a block was placed in the top row".into()
        }
    );
    // With only spawn_blocked the game goes on, and a new dot spawns at (2, 0).
    let mut g = game(&top_level(json!([{"rule": "spawn_blocked"}])), 0);
    play(&mut g, "L L");
    assert_eq!(g.status(), Status::Running);
    assert_eq!(rows(&g)[0], "X.....");
    assert_eq!(cells(&g), vec![(2, 0)]);
}

#[test]
fn top_row_timeout_counts_consecutive_frames() {
    // Placed in frame 2: frames 2, 3, 4, 5 and 6 end with a settled block in row 0.
    let mut g = game(
        &top_level(json!([{"rule": "top_row_timeout", "frames": 5}])),
        0,
    );
    play(&mut g, "L L . . .");
    assert_eq!(g.status(), Status::Running);
    play(&mut g, ".");
    assert_eq!(
        g.status(),
        Status::Lost {
            reason: "a block stayed in the top row for 5 frames".into()
        }
    );
    assert_eq!(g.frames(), 6);
}

// ---------------------------------------------------------------------------------------------
// Turning (needs the shape module).

fn pair_in_a_shaft(quick_turn: bool) -> Value {
    // A 3-wide field whose columns 0 and 2 are iron: the pair in column 1 cannot turn to
    // the side, and state 2 (label 1 below the axis) fits.
    json!({
        "kind": "falling", "width": 3, "height": 6,
        "blocks": [{"name": "red"}, {"name": "blue"}, {"name": "iron", "role": "iron"}],
        "tumos": [{"name": "pair", "labels": ["red"], "block": "blue", "states": [
            [[0, 1, 0], [0, -1, 0], [0, 0, 0]], [[0, 0, 0], [0, -1, 1], [0, 0, 0]],
            [[0, 0, 0], [0, -1, 0], [0, 1, 0]], [[0, 0, 0], [1, -1, 0], [0, 0, 0]]]}],
        "quick_turn": quick_turn,
        "clear": [{"rule": "connected", "min": 4}], "fall": ["gravity"],
        "timing": still_timing(),
        "legend": {"#": "iron"},
        "field": ["#.#", "#.#", "#.#", "#.#", "#.#", "#.#"]
    })
}

#[test]
fn quick_turn_turns_two_states_after_a_failed_turn() {
    let mut g = game(&pair_in_a_shaft(true), 0);
    play(&mut g, "CW");
    assert_eq!(active_xy(&g).2, 0, "blocked on both sides");
    assert_eq!(g.last_frame().turn.as_ref().unwrap().success, None);
    play(&mut g, "CW");
    assert_eq!(active_xy(&g).2, 2, "the second press within 15 frames");
    assert!(g.last_frame().quick_turn);
    // Label 1 (red) is now below the blue axis.
    let a = g.active().unwrap();
    assert_eq!(a.cells, vec![(1, 1, 2), (1, 2, 1)]);
    // Without quick_turn the second press fails too.
    let mut g = game(&pair_in_a_shaft(false), 0);
    play(&mut g, "CW CW");
    assert_eq!(active_xy(&g).2, 0);
    // Too late: 16 frames after the failed turn.
    let mut g = game(&pair_in_a_shaft(true), 0);
    play(&mut g, "CW .*15 CW");
    assert_eq!(active_xy(&g).2, 0);
}

#[test]
fn labelled_blocks_keep_their_kind_when_turned_and_placed() {
    let mut doc = pair_in_a_shaft(false);
    doc["width"] = json!(3);
    doc["field"] = json!(["...", "...", "...", "...", "...", "..."]);
    doc["hard_drop"] = json!(true);
    let mut g = game(&doc, 0);
    play(&mut g, "CW");
    assert_eq!(active_xy(&g).2, 1);
    play(&mut g, "HD");
    // State 1: axis (blue, -1) at (1, 5), label 1 (red) to its right at (2, 5). The legend
    // gets a character for each kind placed: the first letter of its name.
    assert_eq!(rows(&g)[5], ".br");
    let l = g.to_falling_level();
    assert_eq!(l.field.get(1, 5), l.block_named("blue").unwrap());
    assert_eq!(l.field.get(2, 5), l.block_named("red").unwrap());
}

// ---------------------------------------------------------------------------------------------
// Undo, redo, save and load, determinism.

fn random_pairs(timing: Value) -> Value {
    json!({
        "kind": "falling", "width": 6, "height": 8,
        "blocks": [{"name": "red"}, {"name": "blue"}, {"name": "yellow"}],
        "tumos": [{"name": "pair", "states": [
            [[0, 1, 0], [0, 2, 0], [0, 0, 0]], [[0, 0, 0], [0, 2, 1], [0, 0, 0]],
            [[0, 0, 0], [0, 2, 0], [0, 1, 0]], [[0, 0, 0], [1, 2, 0], [0, 0, 0]]]},
            {"name": "bar", "block": "yellow", "states": [[[0, -1, 0], [0, -1, 0], [0, -1, 0]]]}],
        "hard_drop": true,
        "clear": [{"rule": "connected", "min": 3}], "fall": ["gravity"],
        "score": {"rule": "puyo"},
        "sequence": {"order": "bag"},
        "timing": timing,
        "legend": {"R": "red", "B": "blue"},
        "field": ["......", "......", "......", "......", "......", "......", "R....B", "RB..BB"]
    })
}

const WORDS: &str =
    "L HD . . . R R HD . . . . L L L HD . . . . . R HD . . . . . . . HD . . . . . . L HD";

#[test]
fn undo_and_redo_restore_every_frame_exactly() {
    let mut t = zero_timing();
    t["clear"] = json!(2);
    t["fall"] = json!(1);
    t["gravity"] = json!(3);
    let mut g = game(&random_pairs(t), 5);
    let inputs = parse_inputs(falling(), WORDS).unwrap();
    let mut hashes = vec![g.state_hash()];
    let mut summaries = vec![g.summary()];
    for &i in &inputs {
        g.step(i);
        hashes.push(g.state_hash());
        summaries.push(g.summary());
    }
    assert!(
        g.score() > 0,
        "the replay clears something: {}",
        g.summary()
    );
    let n = inputs.len();
    for k in (0..n).rev() {
        assert!(g.undo());
        assert_eq!(g.state_hash(), hashes[k], "undo to frame {k}");
        assert_eq!(g.summary(), summaries[k]);
    }
    assert!(!g.undo());
    assert_eq!(g.redo_len(), n);
    for (k, h) in hashes.iter().enumerate().skip(1) {
        assert!(g.redo());
        assert_eq!(g.state_hash(), *h, "redo to frame {k}");
    }
    assert!(!g.redo());
    // Undo and Restart as inputs.
    g.step(Input::Undo);
    assert_eq!(g.state_hash(), hashes[n - 1]);
    g.step(Input::Restart);
    assert_eq!(g.state_hash(), hashes[0]);
    assert_eq!(g.steps(), 0);
    // Playing the same inputs again gives the same frames (the RNG was restored).
    for (k, &i) in inputs.iter().enumerate() {
        g.step(i);
        assert_eq!(g.state_hash(), hashes[k + 1], "replayed frame {}", k + 1);
    }
    // The journal holds only what changed: far fewer cells than frames × 48.
    assert!(
        g.history_cells() < n * 10,
        "{} cell changes for {n} frames",
        g.history_cells()
    );
}

#[test]
fn a_saved_game_loads_and_continues_the_same_game() {
    let mut t = zero_timing();
    t["clear"] = json!(2);
    t["fall"] = json!(1);
    t["gravity"] = json!(3);
    t["lock"] = json!(2);
    t["spawn"] = json!(1);
    let doc = random_pairs(t);
    let inputs = parse_inputs(falling(), WORDS).unwrap();
    for cut in [0, 1, 2, 5, 9, 14, 20, 27, inputs.len()] {
        let mut a = falling().start(&doc, 11).unwrap();
        for &i in &inputs[..cut] {
            a.step(i);
        }
        let saved = a.to_level();
        let text = serde_json::to_string_pretty(&saved).unwrap();
        let d = load_text(&text).unwrap();
        let problems = d.check();
        assert!(
            problems.iter().all(|p| !p.is_error()),
            "{problems:#?}\n{text}"
        );
        // Another seed: the saved generator replaces it.
        let mut b = d.start(999).unwrap();
        assert_eq!(b.summary(), a.summary(), "cut {cut}");
        assert_eq!(b.state_hash(), a.state_hash(), "cut {cut}");
        for (k, &i) in inputs[cut..].iter().enumerate() {
            a.step(i);
            b.step(i);
            assert_eq!(
                b.state_hash(),
                a.state_hash(),
                "cut {cut}, frame {}",
                cut + k + 1
            );
        }
        assert_eq!(b.summary(), a.summary());
    }
}

#[test]
fn the_same_seed_and_inputs_give_the_same_game() {
    let doc = random_pairs(zero_timing());
    let run = |seed| {
        let mut g = falling().start(&doc, seed).unwrap();
        let mut v = Vec::new();
        for i in parse_inputs(falling(), WORDS).unwrap() {
            g.step(i);
            v.push(g.state_hash());
        }
        v
    };
    assert_eq!(run(3), run(3));
}

#[test]
fn a_bag_deals_every_tumo_once_per_bag() {
    let names = ["A", "B", "C", "D", "E", "F", "G"];
    let tumos: Vec<Value> = names
        .iter()
        .map(|n| json!({"name": n, "states": [[[-1]]], "block": "x"}))
        .collect();
    let doc = json!({
        "kind": "falling", "width": 1, "height": 30,
        "blocks": [{"name": "x"}], "tumos": tumos,
        "hard_drop": true, "clear": [], "sequence": {"order": "bag"},
        "timing": still_timing()
    });
    let mut deals = Vec::new();
    for seed in [1, 2] {
        let mut g = game(&doc, seed);
        let mut order = vec![g.active().unwrap().name];
        for _ in 0..20 {
            g.step(Input::HardDrop);
            order.push(g.active().unwrap().name);
        }
        for bag in order.chunks(7) {
            let mut b = bag.to_vec();
            b.sort();
            assert_eq!(b, names, "seed {seed}: {order:?}");
        }
        // The preview shows the next two of the current bag.
        let next: Vec<usize> = g.next_tumos().iter().map(|q: &QueuedTumo| q.tumo).collect();
        assert_eq!(next.len(), 2);
        deals.push(order);
    }
    assert_ne!(deals[0], deals[1], "two seeds deal two orders");
}

// ---------------------------------------------------------------------------------------------
// Scripts (need the Lua module).

#[test]
fn a_script_sees_the_active_tumo_as_in_motion() {
    // Spec A2: the active tumo's cells read 100 + kind. The T's first cell row-major is (4, 0).
    let mut doc = t_level(6, still_timing());
    doc["script"] = json!(
        "function update()\n  for y = 0, getFieldHeight() - 1 do\n    for x = 0, getFieldWidth() - 1 do\n      local b = getFieldBlock(x, y)\n      if b >= 100 then error('moving at ' .. x .. ',' .. y .. '=' .. b) end\n    end\n  end\nend\n"
    );
    let mut g = falling().start(&doc, 0).unwrap();
    g.step(Input::Wait);
    let Status::Lost { reason } = g.status() else {
        panic!("{:?}", g.status())
    };
    assert!(reason.starts_with("script error: "), "{reason}");
    assert!(reason.contains("moving at 4,0=101"), "{reason}");
    assert!(g.error().is_some_and(|e| e.contains("moving at 4,0=101")));
    let fg = g.as_any().downcast_ref::<FallingGame>().unwrap();
    assert!(fg.script_error().unwrap().message.contains("moving at"));
    assert_eq!(fg.last_frame().script_error, fg.script_error().cloned());
    // A finished game does not step.
    g.step(Input::Wait);
    assert_eq!(g.summary()["frames"], 1);
}

#[test]
fn a_script_that_does_not_load_is_a_located_problem() {
    // A syntax error in line 2: the message names the script line.
    let mut doc = t_level(6, still_timing());
    doc["script"] = json!("function update()\n  local x = = 1\nend\n");
    let e = falling().start(&doc, 0).unwrap_err();
    assert_eq!(e[0].path.to_string(), "$.script");
    assert!(
        e[0].message.starts_with("script line 2: "),
        "{}",
        e[0].message
    );
    let d = load_text(&doc.to_string()).unwrap();
    let p = d.check();
    assert_eq!(p.len(), 1);
    assert_eq!(p[0].path.to_string(), "$.script");
}

// ---------------------------------------------------------------------------------------------
// The paper's listings and the built-in rules (issue 10, conformance).

/// The `update()` listing of the spec's Appendix A that follows `heading`, verbatim.
fn spec_listing(heading: &str) -> String {
    let path = tilesmith_tests::workspace().join("../shared/specs/falling-blocks.md");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let appendix = text
        .split("## Appendix A")
        .nth(1)
        .expect("the spec has Appendix A");
    let after = appendix
        .split(heading)
        .nth(1)
        .expect("the listing's heading");
    let code = after.split("```lua\n").nth(1).expect("a lua block");
    code.split("```").next().unwrap().to_string()
}

/// A whole FPGDL program of the paper, as transcribed in `tests/data/fpgdl/`.
fn program(file: &str) -> String {
    let path = tilesmith_tests::workspace()
        .join("tests/data/fpgdl")
        .join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// Inputs from a fixed linear congruential generator: the same for every run.
fn scripted_inputs(n: usize, words: &[&str]) -> Vec<Input> {
    let mut x: u64 = 12345;
    (0..n)
        .map(|_| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let w = words[(x >> 33) as usize % words.len()];
            falling().parse_input(w).unwrap()
        })
        .collect()
}

/// Plays `builtin` and, for each script, the same level with no built-in rules and that
/// script, with the same seed and inputs; every frame must leave the same state.
fn same_frames(builtin: &Value, scripts: &[(&str, String)], inputs: &[Input]) -> FallingGame {
    let mut a = game(builtin, 9);
    let mut others: Vec<(&str, FallingGame)> = scripts
        .iter()
        .map(|(name, src)| {
            let mut doc = builtin.clone();
            doc["clear"] = json!([]);
            doc["fall"] = json!([]);
            doc["script"] = json!(src);
            (*name, game(&doc, 9))
        })
        .collect();
    for (k, &i) in inputs.iter().enumerate() {
        a.step(i);
        for (name, b) in &mut others {
            b.step(i);
            assert_eq!(b.script_error(), None, "{name}");
            assert_eq!(b.field(), a.field(), "{name}, frame {}", k + 1);
            assert_eq!(b.moving(), a.moving(), "{name}, frame {}", k + 1);
            assert_eq!(b.summary(), a.summary(), "{name}, frame {}", k + 1);
            assert_eq!(b.state_hash(), a.state_hash(), "{name}, frame {}", k + 1);
        }
        if a.status().is_over() {
            break;
        }
    }
    a
}

#[test]
fn the_puyo_listing_plays_like_connected_4_and_gravity() {
    // Puyo Puyo as the paper sets it up (6 × 13, five colours, the pair), with the corpus's
    // worked example at the bottom: a 2-chain (40 + 660) fires at once, then random pairs.
    let mut rows = vec!["......"; 10];
    rows.extend(["..B...", "..BBYB", "RRRRBB"]);
    let doc = json!({
        "kind": "falling", "width": 6, "height": 13,
        "blocks": [{"name": "red"}, {"name": "green"}, {"name": "blue"}, {"name": "purple"},
                   {"name": "yellow"}],
        "tumos": [{"name": "pair", "states": [
            [[0, 1, 0], [0, 2, 0], [0, 0, 0]], [[0, 0, 0], [0, 2, 1], [0, 0, 0]],
            [[0, 0, 0], [0, 2, 0], [0, 1, 0]], [[0, 0, 0], [1, 2, 0], [0, 0, 0]]],
            "kicks": {"0>1": [[0, 0], [-1, 0]], "2>1": [[0, 0], [-1, 0]],
                      "0>3": [[0, 0], [1, 0]], "2>3": [[0, 0], [1, 0]]}}],
        "quick_turn": true,
        "clear": [{"rule": "connected", "min": 4}], "fall": ["gravity"],
        "score": {"rule": "puyo"},
        "timing": {"gravity": 3, "soft_drop": 1, "lock": 4, "spawn": 3, "clear": 6, "fall": 2},
        "legend": {"R": "red", "B": "blue", "Y": "yellow"},
        "field": rows
    });
    let inputs = scripted_inputs(2500, &[".", ".", "L", "R", "R", "CW", "CCW", "SD", "SD"]);
    let g = same_frames(
        &doc,
        &[
            ("Appendix A listing", spec_listing("Puyo Puyo [L809")),
            ("puyo.lua", program("puyo.lua")),
        ],
        &inputs,
    );
    assert!(g.max_chain() >= 2, "{}", g.summary());
    assert!(g.score() >= 700, "{}", g.summary());
}

#[test]
fn the_tetris_listing_plays_like_rows_and_rows() {
    // 10 wide (the listing counts 10 blocks a row); rows 16-17 lack column 9 and rows 18-19
    // column 4. The first I, turned upright (column 5) and moved to column 9, fills rows
    // 14-17 and clears rows 16-17; the second, upright and moved to column 4, clears rows
    // 18-19. Then scripted play with T and O.
    let mut field = vec![".........."; 16];
    field.extend(["#########.", "#########.", "####.#####", "####.#####"]);
    let seq: Vec<&str> = ["I", "I"]
        .into_iter()
        .chain(["T", "O", "I", "T", "O"].into_iter().cycle().take(60))
        .collect();
    let doc = json!({
        "kind": "falling", "width": 10, "height": 20,
        "blocks": [{"name": "T"}, {"name": "O"}, {"name": "I"}, {"name": "wall"}],
        "tumos": [t_tumo(),
            {"name": "O", "block": "O", "states": [[[0, 0, 0, 0], [0, -1, -1, 0], [0, -1, -1, 0], [0, 0, 0, 0]]]},
            {"name": "I", "block": "I", "spawn": [3, 0], "states": [
                [[0, 0, 0, 0], [-1, -1, -1, -1], [0, 0, 0, 0], [0, 0, 0, 0]],
                [[0, 0, -1, 0], [0, 0, -1, 0], [0, 0, -1, 0], [0, 0, -1, 0]]]}],
        "hard_drop": true,
        "clear": [{"rule": "rows"}], "fall": ["rows"],
        "score": {"rule": "rows"},
        "sequence": {"order": "fixed", "tumos": seq},
        "timing": {"gravity": 4, "soft_drop": 1, "lock": 5, "spawn": 2, "clear": 7, "fall": 1},
        "legend": {"#": "wall"},
        "field": field
    });
    // After a clear the rows above are in motion 1 frame a cell plus 20 of grounding (the
    // default `land`), so the next I spawns some 30 frames after the drop.
    let mut inputs = parse_inputs(falling(), "CW R R R R HD .*40 CW L HD .*40").unwrap();
    inputs.extend(scripted_inputs(
        1500,
        &[".", ".", ".", "L", "R", "R", "CW", "CCW", "SD", "HD"],
    ));
    let g = same_frames(
        &doc,
        &[
            ("Appendix A listing", spec_listing("Tetris [L1000")),
            ("tetris.lua", program("tetris.lua")),
        ],
        &inputs,
    );
    assert!(g.rows() >= 4, "{}", g.summary());
    assert!(g.score() >= 600, "{}", g.summary());
    // The scripted opening alone: two clears of two rows.
    let mut g = game(&doc, 9);
    play(&mut g, "CW R R R R HD .*40");
    assert_eq!((g.rows(), g.score()), (2, 300));
    play(&mut g, "CW L HD .*40");
    assert_eq!((g.rows(), g.score()), (4, 600));
    // The second I's upper half (rows 16-17, column 4) drops by the two rows cleared below it,
    // next to the first I's upper half.
    assert_eq!(
        rows(&g)[16..],
        ["..........", "..........", "....I....I", "....I....I"]
    );
}

// ---------------------------------------------------------------------------------------------
// The Puyo corpus through the game, with puyoai's timing.

/// A Puyo Puyo Tsu level (6 × 13, row 13 hidden, ojama as garbage, iron as iron, the Tsu
/// score) holding a corpus field (top row first, the last string is row 1), with no tumo and
/// puyoai's timing: vanish 50, drop 2 frames a row, grounding 20.
fn tsu_level(field: &[&str]) -> Value {
    let mut rows = vec!["......"; 13 - field.len()];
    rows.extend(field.iter().copied());
    json!({
        "kind": "falling", "width": 6, "height": 13, "hidden_rows": 1,
        "blocks": [{"name": "red"}, {"name": "blue"}, {"name": "yellow"}, {"name": "green"},
                   {"name": "ojama", "role": "garbage"}, {"name": "iron", "role": "iron"}],
        "clear": [{"rule": "connected", "min": 4}], "fall": ["gravity"],
        "score": {"rule": "puyo"},
        "timing": {"gravity": 0, "soft_drop": 0, "lock": 0, "spawn": 0, "clear": 50, "fall": 2, "land": 20},
        "legend": {"R": "red", "B": "blue", "Y": "yellow", "G": "green", "O": "ojama", "&": "iron"},
        "field": rows
    })
}

/// Plays a Tsu level until its chain is over; returns (chains, score, frames from the first
/// vanish's start to the end of the last step, whether the last vanish made nothing fall).
fn resolve(doc: &Value) -> (u32, u64, u64, bool) {
    let mut g = game(doc, 0);
    let (mut start, mut end, mut quick) = (None, 0, true);
    let mut was_moving = false;
    for _ in 0..20_000 {
        g.step(Input::Wait);
        let f = g.frames();
        let r = g.last_frame();
        if start.is_none() && !r.clear_started.is_empty() {
            start = Some(f);
        }
        if r.clear.is_some() {
            end = f;
            quick = r.fell.is_empty();
        }
        let moving = g.moving().iter().any(|&m| m > 0);
        if was_moving && !moving {
            end = end.max(f);
        }
        was_moving = moving;
        if g.is_settled() && g.pending_clear().is_none() && f > end + 1 {
            break;
        }
    }
    let frames = start.map_or(0, |s| end - s);
    (g.max_chain(), g.score(), frames, quick)
}

#[test]
fn the_puyo_corpus_chains_score_frames_and_quick_through_the_game() {
    let path = tilesmith_tests::corpus("falling").join("puyo_chain_cases.json");
    let data: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let cases = data["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 70);
    let mut checked = [0usize; 4];
    for case in cases {
        let id = case["id"].as_str().unwrap();
        let field: Vec<&str> = case["field"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap())
            .collect();
        let (chains, score, frames, quick) = resolve(&tsu_level(&field));
        let e = &case["expected"];
        if let Some(c) = e.get("chains") {
            assert_eq!(chains as u64, c.as_u64().unwrap(), "{id}: chains");
            checked[0] += 1;
        }
        if let Some(s) = e.get("score") {
            assert_eq!(score, s.as_u64().unwrap(), "{id}: score");
            checked[1] += 1;
        }
        if let Some(f) = e.get("frames") {
            assert_eq!(frames, f.as_u64().unwrap(), "{id}: frames");
            checked[2] += 1;
        }
        if let Some(q) = e.get("quick") {
            assert_eq!(quick, q.as_bool().unwrap(), "{id}: quick");
            checked[3] += 1;
        }
    }
    // The README's counts: 57 chains, 52 scores, 27 frames and 39 quick.
    assert_eq!(checked, [57, 52, 27, 39]);
}

#[test]
fn landing_keeps_a_fallen_block_in_motion() {
    // The 2-chain level with fall 2 and land 5: the blues that fell 2 cells are in motion
    // 2 × 2 + 5 = 9 frames; drawn 2 cells up at first and on their cell for the last 5.
    let mut t = zero_timing();
    t["fall"] = json!(2);
    t["land"] = json!(5);
    let mut g = game(&chain_level(t), 0);
    play(&mut g, "L");
    assert_eq!(
        g.score(),
        40,
        "clear 0: the reds vanish in the frame of the placement"
    );
    assert_eq!(g.moving()[5 * 6], 9);
    assert_eq!(g.fall_offset(0, 5), 2.0);
    play(&mut g, ". . . .");
    assert_eq!(g.moving()[5 * 6], 5);
    assert_eq!(g.fall_offset(0, 5), 0.0, "landed");
    assert_eq!(g.score(), 40, "still in motion: no clear");
    play(&mut g, ". . . .");
    assert_eq!(g.score(), 40);
    play(&mut g, ".");
    assert_eq!(
        (g.score(), g.chain()),
        (540, 2),
        "frame 10: settled, the blues vanish"
    );
}

#[test]
fn the_first_tumo_waits_for_a_ready_chain_to_finish() {
    // The 2-chain field of chain_level with its reds already four: the chain fires from
    // frame 1 (clear 0, fall 0: one clear a frame) and the first pair spawns only once the
    // field has settled, so the chain is not cut by a placement.
    let mut doc = chain_level(zero_timing());
    doc["field"] = json!(["......", "......", "B.....", "BR....", "RR....", "RBBB.."]);
    let mut g = game(&doc, 0);
    assert!(g.active().is_none(), "not at the start");
    play(&mut g, ".");
    assert_eq!((g.chain(), g.score()), (1, 40));
    // The blues fall to rows 4-5 and join (1,5) (2,5) (3,5): five blues, chain 2
    // (10 × 5 × (8 + 2)).
    play(&mut g, ".");
    assert_eq!((g.chain(), g.score()), (2, 540));
    assert!(g.active().is_none());
    play(&mut g, ".");
    assert!(
        g.active().is_some(),
        "frame 3: settled, the first pair spawns"
    );
    assert_eq!(
        g.summary()["next"],
        json!(["RR"]),
        "the rest of the fixed sequence"
    );
}

/// A Puyo level (6 × 13, row 13 hidden, puyoai's timing: fall 2 frames a row, grounding 20,
/// vanish 50) whose red/blue pair is in play lying flat, the red axis over column 1 and the
/// blue over column 2. Column 1 holds the red up at row 9; column 2 is empty to the floor, so
/// the blue hangs over a hole. Where it is placed, (2, 9), the blue would touch the three blues
/// of column 3 above row 10 (a group of 4); where it lands, (2, 12), it touches the three
/// blues (3, 11), (3, 12), (4, 12) (another group of 4). Gravity 0 and lock 0: the pair drops
/// and is placed in frame 1.
fn split_pair_level() -> Value {
    json!({
        "kind": "falling", "width": 6, "height": 13, "hidden_rows": 1,
        "blocks": [{"name": "red"}, {"name": "blue"}, {"name": "yellow"}, {"name": "green"}],
        "tumos": [{"name": "pair", "block": "red", "labels": ["blue"], "states": [
            [[0, 1, 0], [0, -1, 0], [0, 0, 0]], [[0, 0, 0], [0, -1, 1], [0, 0, 0]],
            [[0, 0, 0], [0, -1, 0], [0, 1, 0]], [[0, 0, 0], [1, -1, 0], [0, 0, 0]]]}],
        "active": {"tumo": "pair", "state": 1, "x": 0, "y": 0, "labels": ["blue"]},
        "clear": [{"rule": "connected", "min": 4}], "fall": ["gravity"],
        "score": {"rule": "puyo"},
        "sequence": {"order": "fixed", "tumos": []},
        "timing": {"gravity": 0, "soft_drop": 2, "lock": 0, "spawn": 12, "clear": 50, "fall": 2, "land": 20},
        "legend": {"R": "red", "B": "blue", "Y": "yellow", "G": "green"},
        "field": ["......", "......", "......", "......", "......", "......", "......",
                  "...B..", "...B..", "...B..", ".Y.G..", ".G.B..", ".R.BB."]
    })
}

#[test]
fn a_split_pairs_hanging_half_falls_before_the_groups_are_checked() {
    // Real Puyo Puyo: when a pair lands with one half over a hole it splits; the hanging half
    // falls first and only then are groups looked for. So the blue never vanishes at (2, 9)
    // with column 3's blues: it falls 3 rows, lands, grounds, and vanishes in a chain step
    // with the blues at the bottom. The same with the paper's Puyo listing as the only rule.
    let builtin = split_pair_level();
    let mut listing = builtin.clone();
    listing["clear"] = json!([]);
    listing["fall"] = json!([]);
    listing["script"] = json!(spec_listing("Puyo Puyo [L809"));
    for (name, doc) in [("built-in", builtin), ("listing", listing)] {
        let mut g = game(&doc, 0);
        g.step(Input::Wait);
        let r = g.last_frame().clone();
        assert_eq!(
            r.placed,
            vec![(1, 9, 1), (2, 9, 2)],
            "{name}: placed in frame 1"
        );
        assert!(
            r.clear_started.is_empty(),
            "{name}: no group flagged at placement"
        );
        assert!(r.clear.is_none(), "{name}");
        assert_eq!(
            r.fell,
            vec![((2, 9), (2, 12))],
            "{name}: the blue falls at once"
        );
        // In motion 2 frames a row for 3 rows, then 20 frames of grounding.
        let in_motion = 2 * 3 + 20;
        assert_eq!(g.moving()[12 * 6 + 2], in_motion, "{name}");
        assert_eq!(
            g.fall_offset(2, 12),
            3.0,
            "{name}: drawn where it was placed"
        );
        for f in 2..=in_motion {
            g.step(Input::Wait);
            let r = g.last_frame();
            assert!(
                r.clear_started.is_empty(),
                "{name}: frame {f} still in motion"
            );
            assert!(g.pending_clear().is_none(), "{name}: frame {f}");
        }
        // Landed and grounded: the group of 4 with the fallen blue is flagged.
        g.step(Input::Wait);
        let mut flagged = g.last_frame().clear_started.clone();
        flagged.sort_unstable();
        assert_eq!(flagged, vec![(2, 12), (3, 11), (3, 12), (4, 12)], "{name}");
        for _ in 1..50 {
            g.step(Input::Wait);
            assert!(g.last_frame().clear.is_none(), "{name}: vanishing");
        }
        g.step(Input::Wait);
        let c = g.last_frame().clear.clone().expect("the vanish ends");
        assert_eq!(c.chain, 1, "{name}");
        assert_eq!(c.cells.len(), 4, "{name}");
        // Tsu: 10 × 4 × clamp(0 + 0 + 0, 1, 999).
        assert_eq!(g.score(), 40, "{name}");
        // The blues of column 3 drop 2 rows onto the green; three blues stay.
        assert_eq!(
            rows(&g)[9..],
            [".R.B..", ".Y.B..", ".G.B..", ".R.G.."],
            "{name}"
        );
        assert_eq!(g.max_chain(), 1, "{name}");
    }
}

// ---------------------------------------------------------------------------------------------
// The buffer zone above the field.

/// A shipped level with a fixed sequence of `tumos`.
fn shipped(stem: &str, tumos: &[&str]) -> Value {
    let path = tilesmith_tests::workspace().join(format!("levels/falling/{stem}.json"));
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    v["sequence"] = json!({"order": "fixed", "tumos": tumos});
    v
}

/// Every cell of the active tumo's grid, in the field or above it, sorted by y then x.
fn grid_cells(g: &FallingGame) -> Vec<(i32, i32)> {
    let a = g.active().unwrap();
    let mut c: Vec<(i32, i32)> = g.level().tumos[a.tumo].states[a.state]
        .blocks()
        .map(|(x, y, _)| (a.x + x as i32, a.y + y as i32))
        .collect();
    c.sort_by_key(|&(x, y)| (y, x));
    c
}

#[test]
fn an_i_turned_at_spawn_stays_where_srs_puts_it() {
    // SRS has no ceiling (corpus README). In the corpus's terms the I spawns flat with its
    // reference cell second from the left; a turn to `right` takes the first test of the
    // `spawn->right` table and puts the piece's `right` cells about the moved reference cell.
    // The guideline level spawns the I flat in row 0, columns 3-6, so the reference cell is
    // (4, 0), and the upright I must end one row above the field and two into it.
    let path = tilesmith_tests::corpus("falling").join("srs_pieces.json");
    let srs: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let pair = |v: &Value| (v[0].as_i64().unwrap() as i32, v[1].as_i64().unwrap() as i32);
    let test = pair(&srs["kick_tables"]["srs"]["tables"]["I"]["spawn->right"]["tests"][0]);
    let reference = (4 + test.0, -test.1); // y down
    let mut want: Vec<(i32, i32)> = srs["pieces"]["I"]["cells"]["right"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let (cx, cy) = pair(c);
            (reference.0 + cx, reference.1 - cy)
        })
        .collect();
    want.sort_by_key(|&(x, y)| (y, x));
    assert_eq!(
        want,
        [(5, -1), (5, 0), (5, 1), (5, 2)],
        "what the corpus says"
    );

    let mut g = game(&shipped("tetris", &["I"]), 0);
    let spawned = active_xy(&g);
    assert_eq!(
        cells(&g),
        [(3, 0), (4, 0), (5, 0), (6, 0)],
        "flat in row 0, columns 3-6"
    );
    play(&mut g, "CW");
    let r = g.last_frame().turn.clone().unwrap();
    assert_eq!(r.success, Some(0), "the first test fits: no kick");
    assert_eq!(grid_cells(&g), want);
    assert_eq!(
        (g.active().unwrap().x, g.active().unwrap().y),
        (spawned.0, spawned.1)
    );
    assert_eq!(
        cells(&g),
        [(5, 0), (5, 1), (5, 2)],
        "the field cells it covers"
    );
    assert_eq!(
        g.summary()["active"]["cells"],
        json!([[5, 0], [5, 1], [5, 2]])
    );
    // Saved with a block in the buffer zone, the game loads and continues the same.
    let saved = FallingLevel::from_json(&g.to_level()).unwrap();
    assert_eq!(FallingGame::new(saved, 1).state_hash(), g.state_hash());
    // Turned back, it is flat in row 0 again (the spawn->right test undone).
    play(&mut g, "CCW");
    assert_eq!(cells(&g), [(3, 0), (4, 0), (5, 0), (6, 0)]);
}

#[test]
fn a_two_state_classic_piece_turns_in_its_first_row() {
    // tetris-classic has no kicks: a turn fits where it is or fails. Its T spawns flat side up
    // in rows 0-1 and its upright state reaches one row higher, into the buffer zone.
    let mut g = game(&shipped("tetris-classic", &["T"]), 0);
    let (x, y, _) = active_xy(&g);
    assert_eq!(cells(&g), [(3, 0), (4, 0), (5, 0), (4, 1)]);
    play(&mut g, "CW");
    assert_eq!(g.last_frame().turn.as_ref().unwrap().success, Some(0));
    assert_eq!(active_xy(&g), (x, y, 1));
    assert_eq!(grid_cells(&g), [(4, -1), (3, 0), (4, 0), (4, 1)]);
}

#[test]
fn a_tetromino_placed_partly_above_the_field_keeps_its_field_cells() {
    // The upright I of the guideline level reaches row -1; with a block under it at (5, 3) it
    // rests there, and a hard drop places it with one block above the field. Like NES Tetris,
    // the block above is discarded and the game goes on; the three in the field stay.
    let mut doc = shipped("tetris", &["I", "I"]);
    let mut field = vec![".........."; 22];
    field[3] = ".....#....";
    doc["field"] = json!(field);
    doc["legend"] = json!({"#": "I"});
    let mut g = game(&doc, 0);
    play(&mut g, "CW");
    assert_eq!(grid_cells(&g), [(5, -1), (5, 0), (5, 1), (5, 2)]);
    play(&mut g, "HD");
    assert!(matches!(g.status(), Status::Running), "{}", g.summary());
    assert_eq!(
        &rows(&g)[..4],
        ["....._....", "....._....", "....._....", ".....#...."].map(|r| r.replace('_', "#"))
    );
    assert_eq!(
        rows(&g)
            .iter()
            .map(|r| r.matches('#').count())
            .sum::<usize>(),
        4,
        "three cells of the I and the block under it: nothing else"
    );
}

#[test]
fn a_tetromino_placed_wholly_above_the_field_loses() {
    // A flat I resting on a full-width row 0 (a field whose row 0 has a gap so it does not
    // clear) is placed at row -1 with all four blocks above the field: lock out.
    let mut doc = shipped("tetris", &["I", "I"]);
    let mut field = vec![".........."; 22];
    field[0] = "###.######";
    field[1] = "###.######";
    doc["field"] = json!(field);
    doc["legend"] = json!({"#": "O"});
    doc["game_over"] = json!([]);
    // The flat I spawns in row 0, which is blocked; a saved state puts it above the field.
    let i = json!(shipped("tetris", &["I"])["tumos"])
        .as_array()
        .unwrap()
        .iter()
        .position(|t| t["name"] == "I")
        .unwrap();
    let row = (0..4)
        .find(|&r| {
            doc["tumos"][i]["states"][0][r]
                .as_array()
                .unwrap()
                .iter()
                .any(|v| v.as_i64() != Some(0))
        })
        .unwrap() as i64;
    doc["active"] = json!({"tumo": "I", "state": 0, "x": 3, "y": -1 - row});
    let mut g = game(&doc, 0);
    let want: Vec<(i32, i32)> = (3..7).map(|x| (x, -1)).collect();
    assert_eq!(grid_cells(&g), want);
    assert!(g.active().unwrap().cells.is_empty());
    play(&mut g, "HD");
    match g.status() {
        Status::Lost { reason } => assert!(reason.contains("wholly above the field"), "{reason}"),
        s => panic!("not lost: {s:?}"),
    }
    assert_eq!(&rows(&g)[..2], ["###.######", "###.######"]);
}

#[test]
fn a_puyo_kicked_above_the_field_is_deleted_and_the_game_goes_on() {
    // Puyo Puyo Tsu: column 2 filled from row 2, column 3 from row 1. Turned left four times
    // the pair climbs by the 3>2 up-kick and, moved right, locks with the axis at (3, 0) and
    // the child at (3, -1), in the hidden 14th row of the real game. Puyo Puyo Tsu deletes a
    // puyo placed there and goes on: the child is discarded, the axis stays.
    let mut doc = shipped("puyo-tsu", &["pair", "pair"]);
    let mut field = vec!["......"; 13];
    for (y, row) in field.iter_mut().enumerate() {
        *row = match y {
            0 => "......",
            1 => "...O..",
            _ => "..OO..",
        };
    }
    doc["field"] = json!(field);
    let mut g = game(&doc, 0);
    play(&mut g, "CCW CCW CCW CCW R");
    let a = g.active().unwrap();
    assert_eq!(
        cells(&g),
        [(3, 0)],
        "the child at (3, -1) is above the field"
    );
    let axis_kind = a.cells[0].2;
    let mut frames = 0;
    while g.active().is_some() {
        play(&mut g, ".");
        frames += 1;
        assert!(frames < 100, "never placed");
    }
    assert!(matches!(g.status(), Status::Running), "{}", g.summary());
    let r = rows(&g);
    assert_eq!(&r[1][..], "...O..", "nothing placed above it");
    assert_eq!(r[0].chars().filter(|&c| c != '.').count(), 1, "{r:?}");
    assert_ne!(&r[0][3..4], ".", "the axis placed at (3, 0): {r:?}");
    assert_eq!(g.field().cells[3], axis_kind, "the axis keeps its kind");
}
