//! SRS conformance of the falling kind's rotation (`../shared/corpus/falling/`, format in its
//! README): all 158 cases of `srs_rotation_cases.json` run through
//! [`try_turn`], with the seven tetrominoes and their kick tables built **only from data**.
//!
//! The data path is the level format: [`tumo_fragment`] turns a piece of `srs_pieces.json`
//! into the `tumos[i]` member of a falling level (`name`, `states`, `block`, `pivot`, `kicks`
//! with `"i>j"` keys, y down, offsets moving the grid's top-left cell), and [`parse_tumo`], a
//! small test-local reader, turns that JSON into the engine's [`ShapeGrid`]s and [`Kicks`].
//!
//! Conventions (y down, the level format's):
//! * Each piece sits in its guideline box, side `n` = the largest extent over its states
//!   (I 4, O 2, the others 3), turning about the box centre `[(n−1)/2, (n−1)/2]`. The spawn
//!   state's bounding box is centred in the box, rounding toward the top-left (I in row 1,
//!   JLSTZ in rows 0–1, O filling its box).
//! * The corpus turns every piece about its reference cell (cell offset `[0,0]`), which for
//!   I and O is not the box centre, and folds the difference into its kick tests. Here each
//!   state's grid holds the corpus cells with the reference cell at `ref[s]`, the spawn
//!   reference turned `s` quarter turns about the box centre. A corpus test `(dx, dy)` (y up)
//!   from state i to j becomes the grid offset `(dx, −dy) + ref[i] − ref[j]`, so JLSTZ keep
//!   their tests, and I's become the published relative table (first test `[0, 0]`).
//! * Case fields: the listed rows, top first, with [`PAD`] empty rows added above (the case
//!   pieces poke up to 3 rows above the listed ones); outside the 10 columns, below the floor
//!   and above the padded rows is blocked.
//!
//! A case passes when the turn succeeds exactly when the corpus kick is not `null`, with that
//! kick (converted back to the corpus's reference cell, y up), when the cells after equal
//! `derived.cells_after`, and, for the 6 `MinoRotationDetailTest` cases, `to_rotation`,
//! `test_index`, `to_x` and `to_y` match. A failed turn must have tried every test and leave
//! the tumo on `derived.cells_before`.
//!
//! [`all_158_srs_cases_pass_through_the_game`] runs the same cases through the game itself: per
//! case a whole `falling` level (the seven fragments, the padded field, the piece `active` in
//! its from-state), loaded with `Falling.start`, one frame of `CW`, `CCW` or `180`, and the
//! active tumo's cells, state and reported kick trial compared with the corpus.

#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;

use serde_json::{Value, json};
use tilesmith_engine::game::Game;
use tilesmith_engine::input::Input;
use tilesmith_engine::kind::falling::FallingGame;
use tilesmith_engine::kind::falling::shape::{
    Kicks, ShapeGrid, Turn, auto_rotate, kicks_180_i, kicks_180_jlstz, mirror_kicks, mirror_states,
    srs_i, srs_jlstz, srs_o, tetromino_pivot, tetromino_states, try_turn,
};
use tilesmith_tests::corpus;

/// The corpus's rotation-state names, index = state.
const STATES: [&str; 4] = ["spawn", "right", "reverse", "left"];
/// The seven tetrominoes.
const PIECES: [&str; 7] = ["I", "O", "T", "S", "Z", "J", "L"];
/// Empty rows added above each case field.
const PAD: usize = 4;
/// The corpus field's width.
const WIDTH: i32 = 10;

fn load(file: &str) -> Value {
    let path = corpus("falling").join(file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

fn state_index(name: &str) -> usize {
    STATES
        .iter()
        .position(|s| *s == name)
        .unwrap_or_else(|| panic!("unknown state {name}"))
}

fn pair(v: &Value) -> (i32, i32) {
    (
        i32::try_from(v[0].as_i64().unwrap()).unwrap(),
        i32::try_from(v[1].as_i64().unwrap()).unwrap(),
    )
}

/// A tumo built from `srs_pieces.json`: its level fragment and, for running the cases, the
/// grid cell of the corpus's reference cell in each state.
struct Built {
    fragment: Value,
    reference: [(i32, i32); 4],
}

/// The level fragment of `piece` (see the module doc): states from `pieces.<piece>.cells`,
/// kicks from `kick_tables.srs` and `kick_tables.nullpomino180` (the 180° pairs; its
/// quarter-turn entries are the srs ones), all y down.
fn tumo_fragment(pieces: &Value, piece: &str) -> Built {
    // Cells per state, y down, relative to the reference cell.
    let cells: Vec<Vec<(i32, i32)>> = STATES
        .iter()
        .map(|s| {
            pieces["pieces"][piece]["cells"][s]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| {
                    let (x, y) = pair(c);
                    (x, -y)
                })
                .collect()
        })
        .collect();
    let extent = |cs: &[(i32, i32)]| {
        let (x0, x1) = (
            cs.iter().map(|c| c.0).min().unwrap(),
            cs.iter().map(|c| c.0).max().unwrap(),
        );
        let (y0, y1) = (
            cs.iter().map(|c| c.1).min().unwrap(),
            cs.iter().map(|c| c.1).max().unwrap(),
        );
        (x0, x1 - x0 + 1, y0, y1 - y0 + 1)
    };
    let n = cells
        .iter()
        .map(|cs| {
            let (_, w, _, h) = extent(cs);
            w.max(h)
        })
        .max()
        .unwrap();
    // The spawn bounding box centred, rounding toward the top-left.
    let (x0, w, y0, h) = extent(&cells[0]);
    let mut reference = [((n - w) / 2 - x0, (n - h) / 2 - y0); 4];
    // Each next state's reference: the previous one turned a quarter clockwise (on screen,
    // y down) about the box centre, in doubled coordinates (centre = n − 1).
    for s in 1..4 {
        let (rx, ry) = reference[s - 1];
        let (dx, dy) = (2 * rx - (n - 1), 2 * ry - (n - 1));
        let (tx, ty) = ((n - 1) - dy, (n - 1) + dx);
        assert!(
            tx % 2 == 0 && ty % 2 == 0,
            "{piece}: reference cell off-cell"
        );
        reference[s] = (tx / 2, ty / 2);
    }
    let states: Vec<Value> = (0..4)
        .map(|s| {
            let mut rows = vec![vec![0i8; n as usize]; n as usize];
            for &(cx, cy) in &cells[s] {
                let (x, y) = (reference[s].0 + cx, reference[s].1 + cy);
                assert!(
                    (0..n).contains(&x) && (0..n).contains(&y),
                    "{piece} {}: cell ({x}, {y}) outside the {n}×{n} box",
                    STATES[s]
                );
                rows[y as usize][x as usize] = -1;
            }
            json!(rows)
        })
        .collect();
    let mut kicks = serde_json::Map::new();
    for table in ["srs", "nullpomino180"] {
        let t = pieces["kick_tables"][table]["tables"][piece]
            .as_object()
            .unwrap_or_else(|| panic!("no {table} table for {piece}"));
        for (key, entry) in t {
            let (from, to) = key.split_once("->").unwrap();
            let (i, j) = (state_index(from), state_index(to));
            let tests: Vec<Value> = entry["tests"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| {
                    let (dx, dy) = pair(v);
                    json!([
                        dx + reference[i].0 - reference[j].0,
                        -dy + reference[i].1 - reference[j].1
                    ])
                })
                .collect();
            let old = kicks.insert(format!("{i}>{j}"), Value::Array(tests.clone()));
            assert!(
                old.is_none_or(|o| o == Value::Array(tests)),
                "{piece} {key}: the tables disagree"
            );
        }
    }
    let centre = f64::from(n - 1) / 2.0;
    Built {
        fragment: json!({
            "name": piece,
            "states": states,
            "block": piece,
            "pivot": [centre, centre],
            "kicks": kicks,
        }),
        reference,
    }
}

/// Reads a `tumos[i]` fragment of the level format: its states, pivot and kicks.
fn parse_tumo(t: &Value) -> (Vec<ShapeGrid>, [f64; 2], Kicks) {
    let states = t["states"]
        .as_array()
        .unwrap()
        .iter()
        .map(|rows| {
            let rows = rows.as_array().unwrap();
            let side = rows.len();
            let mut g = ShapeGrid::new(side);
            for (y, row) in rows.iter().enumerate() {
                let row = row.as_array().unwrap();
                assert_eq!(row.len(), side, "square grids");
                for (x, v) in row.iter().enumerate() {
                    g.cells[y * side + x] = i8::try_from(v.as_i64().unwrap()).unwrap();
                }
            }
            g
        })
        .collect();
    let pivot = [
        t["pivot"][0].as_f64().unwrap(),
        t["pivot"][1].as_f64().unwrap(),
    ];
    let kicks = match &t["kicks"] {
        Value::String(s) if s == "none" => Kicks::None,
        Value::Object(m) => Kicks::Table(
            m.iter()
                .map(|(k, list)| {
                    let (i, j) = k.split_once('>').unwrap();
                    (
                        (i.parse().unwrap(), j.parse().unwrap()),
                        list.as_array().unwrap().iter().map(pair).collect(),
                    )
                })
                .collect(),
        ),
        other => panic!("bad kicks {other}"),
    };
    (states, pivot, kicks)
}

/// Every tetromino, built from the corpus: fragment, parsed tumo, reference cells.
struct Tumo {
    fragment: Value,
    states: Vec<ShapeGrid>,
    pivot: [f64; 2],
    kicks: Kicks,
    reference: [(i32, i32); 4],
}

fn tetrominoes() -> BTreeMap<String, Tumo> {
    let pieces = load("srs_pieces.json");
    PIECES
        .iter()
        .map(|p| {
            let b = tumo_fragment(&pieces, p);
            let (states, pivot, kicks) = parse_tumo(&b.fragment);
            (
                p.to_string(),
                Tumo {
                    fragment: b.fragment,
                    states,
                    pivot,
                    kicks,
                    reference: b.reference,
                },
            )
        })
        .collect()
}

/// The tumo in play, as a game holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Active {
    state: usize,
    origin: (i32, i32),
}

fn sorted(mut v: Vec<(i32, i32)>) -> Vec<(i32, i32)> {
    v.sort_unstable();
    v
}

/// Runs one case; `Err` says what differs.
fn run_case(case: &Value, tumos: &BTreeMap<String, Tumo>) -> Result<(), String> {
    let piece = case["piece"].as_str().unwrap();
    let tumo = &tumos[piece];
    // The field, y down, with PAD empty rows above the listed ones.
    let listed: Vec<&str> = case["field"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    let height = (listed.len() + PAD) as i32;
    let filled = |x: i32, row: i32| -> bool {
        let r = row - PAD as i32;
        r >= 0 && listed[r as usize].as_bytes()[x as usize] != b'_'
    };
    let free =
        |x: i32, row: i32| (0..WIDTH).contains(&x) && (0..height).contains(&row) && !filled(x, row);
    // Corpus y up ↔ rows from the top.
    let to_up = |(x, row): (i32, i32)| (x, height - 1 - row);
    let from = state_index(case["from_rotation"].as_str().unwrap());
    let (x, y) = (
        i32::try_from(case["x"].as_i64().unwrap()).unwrap(),
        i32::try_from(case["y"].as_i64().unwrap()).unwrap(),
    );
    let reference_row = height - 1 - y;
    let start = Active {
        state: from,
        origin: (
            x - tumo.reference[from].0,
            reference_row - tumo.reference[from].1,
        ),
    };
    let cells_up = |a: Active| -> Vec<(i32, i32)> {
        let g = &tumo.states[a.state];
        sorted(
            tilesmith_engine::kind::falling::shape::grid_cells(g, a.origin)
                .into_iter()
                .map(to_up)
                .collect(),
        )
    };
    let corpus_cells =
        |v: &Value| -> Vec<(i32, i32)> { sorted(v.as_array().unwrap().iter().map(pair).collect()) };
    let before = corpus_cells(&case["derived"]["cells_before"]);
    if cells_up(start) != before {
        return Err(format!(
            "start cells {:?}, corpus {before:?}",
            cells_up(start)
        ));
    }
    let turn = match case["rotate"].as_str().unwrap() {
        "cw" => Turn::Cw,
        "ccw" => Turn::Ccw,
        "180" => Turn::Half,
        other => return Err(format!("unknown rotate {other}")),
    };
    let result = try_turn(
        &tumo.states,
        &tumo.kicks,
        start.state,
        start.origin,
        turn,
        &free,
    );
    // The game's step: move on success, stay on failure.
    let mut active = start;
    if let Some(i) = result.success {
        let (dx, dy) = result.trials[i].offset;
        active = Active {
            state: result.to_state,
            origin: (start.origin.0 + dx, start.origin.1 + dy),
        };
    }
    let expected = &case["expected"];
    match (&expected["kick"], result.success) {
        (Value::Null, None) => {
            let tests = tumo.kicks.tests(start.state, result.to_state).len();
            if result.trials.len() != tests || result.trials.iter().any(|t| t.fits) {
                return Err(format!(
                    "failed turn tried {} of {tests} tests",
                    result.trials.len()
                ));
            }
            if active != start || cells_up(active) != before {
                return Err("a failed turn moved the tumo".into());
            }
            Ok(())
        }
        (Value::Null, Some(i)) => Err(format!(
            "turned with test {i} {:?}; the corpus says it fails",
            result.trials[i].offset
        )),
        (k, None) => Err(format!("the turn failed; the corpus kicks by {k}")),
        (k, Some(i)) => {
            let (ex, ey) = pair(k);
            // The reference cell after the turn, back in corpus coordinates.
            let r = tumo.reference[active.state];
            let (rx, ry) = to_up((active.origin.0 + r.0, active.origin.1 + r.1));
            if (rx - x, ry - y) != (ex, ey) {
                return Err(format!(
                    "kick ({}, {}) with test {i}, corpus ({ex}, {ey})",
                    rx - x,
                    ry - y
                ));
            }
            let after = corpus_cells(&case["derived"]["cells_after"]);
            if cells_up(active) != after
                || sorted(result.trials[i].cells.iter().copied().map(to_up).collect()) != after
            {
                return Err(format!("cells {:?}, corpus {after:?}", cells_up(active)));
            }
            if let Some(name) = expected.get("to_rotation") {
                let want = (
                    state_index(name.as_str().unwrap()),
                    expected["test_index"].as_u64().unwrap() as usize,
                    expected["to_x"].as_i64().unwrap() as i32,
                    expected["to_y"].as_i64().unwrap() as i32,
                );
                if (active.state, i, rx, ry) != want {
                    return Err(format!(
                        "detail (state, test, x, y) = {:?}, corpus {want:?}",
                        (active.state, i, rx, ry)
                    ));
                }
            }
            Ok(())
        }
    }
}

#[test]
fn all_158_srs_cases_pass_through_level_data() {
    let tumos = tetrominoes();
    let doc = load("srs_rotation_cases.json");
    let cases = doc["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 158, "the corpus has 158 cases");
    let mut failures = Vec::new();
    let (mut details, mut fails) = (0, 0);
    for case in cases {
        details += usize::from(case["expected"].get("to_rotation").is_some());
        fails += usize::from(case["expected"]["kick"].is_null());
        if let Err(e) = run_case(case, &tumos) {
            failures.push(format!("{}: {e}", case["id"].as_str().unwrap()));
        }
    }
    assert_eq!((details, fails), (6, 6), "6 detail cases, 6 failed turns");
    assert!(
        failures.is_empty(),
        "{} of 158 SRS cases fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The box, pivot and grids: the states built from the corpus are the engine's guideline
/// tetrominoes, and auto-rotate about the pivot makes states 1–3 from the spawn state.
#[test]
fn corpus_pieces_are_the_guideline_states_and_auto_rotate_makes_them() {
    for (name, t) in tetrominoes() {
        let c = name.chars().next().unwrap();
        assert_eq!(Some(t.states.clone()), tetromino_states(c), "{name}");
        assert_eq!(Some(t.pivot), tetromino_pivot(c), "{name}");
        assert_eq!(
            auto_rotate(&t.states[0], t.pivot, 4).unwrap(),
            t.states,
            "{name}"
        );
        assert_eq!(t.fragment["name"], json!(name));
    }
}

/// The presets are the tables derived from the corpus, pair for pair (the 8 quarter turns
/// and the 4 half turns).
#[test]
fn presets_equal_the_corpus_tables() {
    let tumos = tetrominoes();
    let quarter = srs_jlstz();
    for p in ["T", "S", "Z", "J", "L"] {
        assert_eq!(tumos[p].kicks, quarter.merged(&kicks_180_jlstz()), "{p}");
    }
    assert_eq!(tumos["I"].kicks, srs_i().merged(&kicks_180_i()));
    // O: every test of every pair is [0, 0]; the preset has the 8 quarter turns and the
    // half turns fall back to [0, 0].
    let o = &tumos["O"].kicks;
    for i in 0..4 {
        for j in 0..4 {
            assert_eq!(o.tests(i, j), vec![(0, 0)], "O {i}>{j}");
            assert_eq!(srs_o().tests(i, j), vec![(0, 0)], "O preset {i}>{j}");
        }
    }
    let Kicks::Table(t) = o else {
        panic!("O has a table")
    };
    assert_eq!(t.len(), 12, "O: 8 quarter and 4 half turns in the corpus");
}

/// Mirroring works on the corpus data: mirrored Z is S, mirrored L is J, and the mirrored
/// kick table of each is the other's (they share the SRS JLSTZ table, which is its own
/// mirror). The 180° table is not mirror-symmetric, so only the quarter turns are compared.
#[test]
fn mirror_turns_corpus_z_into_s_and_l_into_j() {
    let tumos = tetrominoes();
    let quarter = |k: &Kicks| {
        let Kicks::Table(t) = k else { panic!() };
        Kicks::Table(
            t.iter()
                .filter(|((i, j), _)| (i + 4 - j) % 2 == 1)
                .map(|(k, v)| (*k, v.clone()))
                .collect(),
        )
    };
    for (a, b) in [("Z", "S"), ("S", "Z"), ("L", "J"), ("J", "L")] {
        assert_eq!(
            mirror_states(&tumos[a].states),
            tumos[b].states,
            "{a} → {b}"
        );
        assert_eq!(
            mirror_kicks(&quarter(&tumos[a].kicks), 4),
            quarter(&tumos[b].kicks),
            "{a} → {b} kicks"
        );
    }
    assert_ne!(
        mirror_kicks(&quarter(&tumos["I"].kicks), 4),
        quarter(&tumos["I"].kicks),
        "the SRS I table is not its own mirror"
    );
}

// ---------------------------------------------------------------------------------------------
// The same 158 cases through the game: a whole `falling` level per case, one frame.

/// A whole `falling` level for `case` (see [`run_case_in_game`]): the seven tetrominoes of
/// `srs_pieces.json` as data (the fragments above), a `wall` block for the case's `X` cells,
/// the case field with `pad` empty rows above it, the case's piece `active` in its from-state
/// (its grid's top-left cell from the reference cell), timing that keeps the tumo where it is
/// for the frame, and no clear rules or fall laws. Returns the level and its height.
fn case_level(case: &Value, tumos: &BTreeMap<String, Tumo>, pad: usize) -> (Value, i32) {
    let piece = case["piece"].as_str().unwrap();
    let listed: Vec<String> = case["field"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().replace('_', ".").replace('X', "#"))
        .collect();
    let height = listed.len() + pad;
    let field: Vec<String> = std::iter::repeat_n(".".repeat(WIDTH as usize), pad)
        .chain(listed)
        .collect();
    let from = state_index(case["from_rotation"].as_str().unwrap());
    let (x, y) = (
        i32::try_from(case["x"].as_i64().unwrap()).unwrap(),
        i32::try_from(case["y"].as_i64().unwrap()).unwrap(),
    );
    let r = tumos[piece].reference[from];
    let active_x = x - r.0;
    let active_y = (height as i32 - 1 - y) - r.1;
    let mut blocks: Vec<Value> = PIECES
        .iter()
        .map(|p| json!({"name": p, "color": [200, 200, 200]}))
        .collect();
    blocks.push(json!({"name": "wall", "color": [90, 90, 90], "role": "iron"}));
    let level = json!({
        "kind": "falling",
        "name": format!("SRS {}", case["id"].as_str().unwrap()),
        "width": WIDTH,
        "height": height,
        "blocks": blocks,
        "tumos": PIECES.iter().map(|p| tumos[*p].fragment.clone()).collect::<Vec<_>>(),
        "clear": [],
        "fall": [],
        "sequence": {"order": "bag", "tumos": PIECES},
        "timing": {"gravity": 1000, "soft_drop": 0, "lock": 1000, "spawn": 0, "clear": 0,
                   "fall": 0, "land": 0},
        "legend": {"#": "wall"},
        "field": field,
        "active": {"tumo": piece, "state": from, "x": active_x, "y": active_y},
    });
    (level, height as i32)
}

/// Runs one case through the game: load the level, step one frame with the case's turn, and
/// compare the active tumo's cells, state and the kick trial the frame reports. With `pad` 0
/// the field is the listed rows only, and the piece's cells above them are in the game's
/// buffer zone above the field (the corpus: "there is no ceiling"); the cells compared are the
/// tumo's grid cells, those in the buffer included, and the summary lists those in the field.
fn run_case_in_game(
    case: &Value,
    tumos: &BTreeMap<String, Tumo>,
    pad: usize,
) -> Result<(), String> {
    let (doc, height) = case_level(case, tumos, pad);
    let kind = tilesmith_engine::kind::kind_named("falling").unwrap();
    let mut game = kind
        .start(&doc, 0)
        .map_err(|e| format!("the level does not load: {e:?}"))?;
    // Corpus (x, y up) → field (x, row from the top; negative above the field), sorted as
    // `ActiveView::cells` is.
    let down = |v: &Value| -> Vec<(i32, i32)> {
        let mut c: Vec<(i32, i32)> = v
            .as_array()
            .unwrap()
            .iter()
            .map(pair)
            .map(|(x, y)| (x, height - 1 - y))
            .collect();
        c.sort_by_key(|&(x, y)| (y, x));
        c
    };
    // The active tumo's state and every cell of its grid, in the field or above it.
    let active_cells = |g: &dyn Game| -> (usize, Vec<(i32, i32)>) {
        let g = g.as_any().downcast_ref::<FallingGame>().unwrap();
        let a = g.active().expect("a tumo in play");
        let grid = &g.level().tumos[a.tumo].states[a.state];
        let mut c: Vec<(i32, i32)> = grid
            .blocks()
            .map(|(bx, by, _)| (a.x + bx as i32, a.y + by as i32))
            .collect();
        c.sort_by_key(|&(x, y)| (y, x));
        let field: Vec<(i32, i32)> = a
            .cells
            .iter()
            .map(|&(x, y, _)| (x as i32, y as i32))
            .collect();
        let inside: Vec<(i32, i32)> = c.iter().copied().filter(|&(_, y)| y >= 0).collect();
        assert_eq!(
            field, inside,
            "active().cells are the grid's cells in the field"
        );
        (a.state, c)
    };
    let from = state_index(case["from_rotation"].as_str().unwrap());
    let before = down(&case["derived"]["cells_before"]);
    if active_cells(game.as_ref()) != (from, before.clone()) {
        return Err(format!(
            "start {:?}, corpus {before:?}",
            active_cells(game.as_ref())
        ));
    }
    let turn = match case["rotate"].as_str().unwrap() {
        "cw" => Turn::Cw,
        "ccw" => Turn::Ccw,
        "180" => Turn::Half,
        other => return Err(format!("unknown rotate {other}")),
    };
    game.step(Input::Turn(turn));
    let g = game.as_any().downcast_ref::<FallingGame>().unwrap();
    if g.last_frame().placed.len() + usize::from(g.last_frame().spawned.is_some()) > 0 {
        return Err("the frame placed or spawned a tumo".into());
    }
    let report = g
        .last_frame()
        .turn
        .as_ref()
        .ok_or("the frame reports no turn")?;
    let (state, cells) = active_cells(game.as_ref());
    // The summary lists the cells in the field.
    let summary: Vec<(i32, i32)> = game.summary()["active"]["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c[0].as_i64().unwrap() as i32, c[1].as_i64().unwrap() as i32))
        .collect();
    let inside: Vec<(i32, i32)> = cells.iter().copied().filter(|&(_, y)| y >= 0).collect();
    if summary != inside {
        return Err(format!("summary cells {summary:?}, active() {cells:?}"));
    }
    let expected = &case["expected"];
    if expected["kick"].is_null() {
        if report.success.is_some() {
            return Err(format!(
                "turned with test {:?}; the corpus says it fails",
                report.success
            ));
        }
        let tests = tumos[case["piece"].as_str().unwrap()]
            .kicks
            .tests(from, report.to_state)
            .len();
        if report.trials.len() != tests {
            return Err(format!(
                "a failed turn tried {} of {tests} tests",
                report.trials.len()
            ));
        }
        if (state, &cells) != (from, &before) {
            return Err(format!("a failed turn moved the tumo to {state} {cells:?}"));
        }
        return Ok(());
    }
    let after = down(&case["derived"]["cells_after"]);
    let to = state_index(case["derived"]["to_rotation"].as_str().unwrap());
    if (state, &cells) != (to, &after) {
        return Err(format!(
            "after: state {state} cells {cells:?}, corpus state {to} cells {after:?}"
        ));
    }
    for source in [&case["derived"], expected] {
        if let Some(want) = source.get("test_index").and_then(Value::as_u64) {
            let want = want as usize;
            if report.success != Some(want) {
                return Err(format!(
                    "trial {:?}, corpus test_index {want}",
                    report.success
                ));
            }
        }
    }
    Ok(())
}

#[test]
fn all_158_srs_cases_pass_through_the_game() {
    let tumos = tetrominoes();
    let doc = load("srs_rotation_cases.json");
    let cases = doc["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 158, "the corpus has 158 cases");
    let mut failures = Vec::new();
    let mut indexed = 0;
    for case in cases {
        indexed += usize::from(case["derived"]["test_index"].is_u64());
        if let Err(e) = run_case_in_game(case, &tumos, PAD) {
            failures.push(format!("{}: {e}", case["id"].as_str().unwrap()));
        }
    }
    assert_eq!(indexed, 152, "every successful turn has a test index");
    assert!(
        failures.is_empty(),
        "{} of 158 SRS cases fail through the game:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn all_158_srs_cases_pass_with_the_buffer_zone_as_the_open_sky() {
    // The corpus has no ceiling: cells above the listed rows are empty. The game's buffer
    // zone above the field gives exactly that, so the cases pass on fields of the listed rows
    // alone; the README counts 49 cases whose piece has cells above them (before or after).
    let tumos = tetrominoes();
    let doc = load("srs_rotation_cases.json");
    let cases = doc["cases"].as_array().unwrap();
    let mut failures = Vec::new();
    let mut above = 0;
    for case in cases {
        let rows = case["field"].as_array().unwrap().len() as i64;
        let poke = |v: &Value| {
            v.as_array()
                .is_some_and(|cells| cells.iter().any(|c| c[1].as_i64().unwrap() >= rows))
        };
        above += usize::from(
            poke(&case["derived"]["cells_before"]) || poke(&case["derived"]["cells_after"]),
        );
        if let Err(e) = run_case_in_game(case, &tumos, 0) {
            failures.push(format!("{}: {e}", case["id"].as_str().unwrap()));
        }
    }
    assert_eq!(above, 49, "cases with piece cells above the listed rows");
    assert!(
        failures.is_empty(),
        "{} of 158 SRS cases fail above an open field:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
