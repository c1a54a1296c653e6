#![allow(clippy::unwrap_used)]
//! The falling kind's field rules (`engine/kinds/falling/src/field.rs`): each clear rule and
//! fall law on small hand-made fields, and the Puyo Puyo chain corpus
//! (`../shared/corpus/falling/puyo_chain_cases.json`) through a Puyo Puyo Tsu setup with the
//! score tables of `puyo_scoring.json`, both read at run time.
//!
//! Puyo setup: 6 wide, 13 high (corpus rows 1..13; row 13 is `y = 0`, the hidden row,
//! `hidden_rows = 1`), kinds R B Y G `normal`, O `garbage`, & `iron`, clear `connected 4`,
//! fall `gravity`. A 14-row corpus field (row 14 "is left alone during a chain") runs on a
//! 14-high field with `hidden_rows = 2` whose top row's fall requests are set to 0 after the
//! built-in rules each frame (a conditional fall, spec §3.1 law 4).

use serde_json::Value;
use tilesmith_engine::kind::falling::field::{
    Applied, ClearStats, ComboTable, EMPTY, Field, Requests, RuleContext, apply_requests,
    builtin_update, groups, puyo_coef, puyo_step_score, rows_score, settle,
};
use tilesmith_engine::kind::falling::level::{ClearRule, FallLaw, PuyoScore, Role};

// ---------------------------------------------------------------------------------------------
// Small hand-made fields: one character a cell, rows top first. `.` empty; `A`..`G` normal
// kinds 1..7; `O` garbage (8); `I` iron (9).

const N: Role = Role::Normal;
const ROLES: [Role; 9] = [N, N, N, N, N, N, N, Role::Garbage, Role::Iron];

fn id_of(c: char) -> u8 {
    match c {
        '.' => EMPTY,
        'A'..='G' => c as u8 - b'A' + 1,
        'O' => 8,
        'I' => 9,
        _ => panic!("bad cell {c}"),
    }
}

fn char_of(id: u8) -> char {
    match id {
        EMPTY => '.',
        1..=7 => (b'A' + id - 1) as char,
        8 => 'O',
        9 => 'I',
        _ => '?',
    }
}

fn field(rows: &[&str]) -> Field {
    let w = rows[0].len();
    let mut f = Field::new(w, rows.len());
    for (y, r) in rows.iter().enumerate() {
        assert_eq!(r.len(), w);
        for (x, c) in r.chars().enumerate() {
            f.set(x as i64, y as i64, id_of(c));
        }
    }
    f
}

fn rows_of(f: &Field) -> Vec<String> {
    f.cells
        .chunks(f.width)
        .map(|r| r.iter().map(|&b| char_of(b)).collect())
        .collect()
}

fn cx<'a>(hidden_rows: usize, moving: &'a [bool]) -> RuleContext<'a> {
    RuleContext {
        roles: &ROLES,
        hidden_rows,
        moving,
    }
}

/// The delete flags as a picture: `1` flagged, `.` not.
fn flags(f: &Field, req: &Requests) -> Vec<String> {
    req.delete
        .chunks(f.width)
        .map(|r| r.iter().map(|&d| if d { '1' } else { '.' }).collect())
        .collect()
}

fn update(f: &Field, hidden: usize, clear: &[ClearRule], fall: &[FallLaw]) -> Requests {
    let mut req = Requests::new(f.cells.len());
    builtin_update(f, &cx(hidden, &[]), clear, fall, &mut req);
    req
}

/// One frame: the built-in rules, then their requests carried out.
fn frame(f: &mut Field, hidden: usize, clear: &[ClearRule], fall: &[FallLaw]) -> Applied {
    let req = update(f, hidden, clear, fall);
    apply_requests(f, &ROLES, &req)
}

const CONNECTED4: ClearRule = ClearRule::Connected { min: 4 };

#[test]
fn tetris_rows_two_full_rows_around_a_partial_row() {
    let mut f = field(&[
        "....", // y0
        ".A..", // y1
        "AAAA", // y2 full
        "A.A.", // y3
        "AAAA", // y4 full
        "AA.A", // y5
    ]);
    let req = update(&f, 0, &[ClearRule::Rows], &[FallLaw::Rows]);
    assert_eq!(
        flags(&f, &req),
        ["....", "....", "1111", "....", "1111", "...."]
    );
    // Non-full rows get the number of full rows below them; full rows get no request.
    let per_row: Vec<u32> = (0..6).map(|y| req.down[y * 4]).collect();
    assert_eq!(per_row, [2, 2, 0, 1, 0, 0]);
    let a = apply_requests(&mut f, &ROLES, &req);
    assert_eq!(a.stats.rows, 2);
    assert_eq!(a.stats.erased, 8);
    // The partial row drops 1, the row above the top full row drops 2; naive gravity leaves
    // the holes under them.
    assert_eq!(
        rows_of(&f),
        ["....", "....", "....", ".A..", "A.A.", "AA.A"]
    );
    // Nothing more happens.
    let again = frame(&mut f, 0, &[ClearRule::Rows], &[FallLaw::Rows]);
    assert!(again.deleted.is_empty() && again.moved.is_empty());
}

#[test]
fn rows_count_settled_blocks_only_and_use_the_width() {
    let f = field(&["AAA", "AAA"]);
    let moving = [false, true, false, false, false, false];
    let mut req = Requests::new(6);
    builtin_update(&f, &cx(0, &moving), &[ClearRule::Rows], &[], &mut req);
    // Row 0 holds a moving block: not full. Row 1 is full at width 3 (not 10, spec A9).
    assert_eq!(flags(&f, &req), ["...", "111"]);
}

#[test]
fn hidden_row_never_clears_but_falls_and_clears_once_visible() {
    let mut f = field(&["AAA", "A.A", "AAA"]);
    let req = update(&f, 1, &[ClearRule::Rows], &[FallLaw::Rows]);
    assert_eq!(flags(&f, &req), ["...", "...", "111"]);
    let steps = settle(&mut f, &ROLES, 1, &[ClearRule::Rows], &[FallLaw::Rows]);
    // Frame 1 clears the bottom row and drops both rows above by 1; frame 2 clears the former
    // hidden row, now visible and full.
    assert_eq!(steps.len(), 2);
    assert!(steps.iter().all(|s| s.rows == 1 && s.erased == 3));
    assert_eq!(rows_of(&f), ["...", "...", "A.A"]);
}

#[test]
fn hidden_row_takes_no_part_in_groups() {
    let f = field(&["A.", "A.", "A.", "AB"]);
    assert_eq!(f.combo(0, 1, &[]), 4);
    let t = ComboTable::for_rules(&f, &cx(1, &[]));
    assert_eq!(t.get(0, 0), 0);
    assert_eq!(t.get(0, 1), 3);
    assert_eq!(t.get(1, 3), 1);
    let req = update(&f, 1, &[CONNECTED4], &[]);
    assert!(req.delete.iter().all(|&d| !d));
    // Without the hidden row the column is a group of 4.
    let req = update(&f, 0, &[CONNECTED4], &[]);
    assert_eq!(flags(&f, &req), ["1.", "1.", "1.", "1."]);
}

#[test]
fn iron_stays_and_forms_no_group() {
    let mut f = field(&[".II.", "AIAA"]);
    let req = update(&f, 0, &[ClearRule::Rows, CONNECTED4], &[FallLaw::Gravity]);
    // The bottom row is full: every cell flagged, iron included.
    assert_eq!(flags(&f, &req), ["....", "1111"]);
    let a = apply_requests(&mut f, &ROLES, &req);
    assert_eq!(a.deleted, vec![4, 6, 7]);
    assert_eq!(a.stats.erased, 3);
    // A row whose iron stayed is not removed whole.
    assert_eq!(a.stats.rows, 0);
    // The iron above the bottom iron stays; the other falls into the cleared cell.
    assert_eq!(rows_of(&f), [".I..", ".II."]);
    // Iron forms no group.
    let g = field(&["IIII", "IIOO"]);
    assert!(update(&g, 0, &[CONNECTED4], &[]).delete.iter().all(|&d| !d));
    // getComboBlockNum (spec A8) counts any kind; the rules' table leaves iron and garbage out.
    assert_eq!(g.combo(0, 0, &[]), 6);
    assert_eq!(g.combo(3, 1, &[]), 2);
    let t = ComboTable::for_rules(&g, &cx(0, &[]));
    assert!((0..8).all(|i| t.at(i) == 0));
    assert!(t.group_sizes().is_empty());
}

#[test]
fn garbage_next_to_a_group_vanishes() {
    let mut f = field(&[
        "O...", // not next to a red: stays
        "OO..", // both next to a red
        "AAAA", //
        "O.BO", // both next to a red
    ]);
    let req = update(&f, 0, &[CONNECTED4], &[FallLaw::Gravity]);
    assert_eq!(flags(&f, &req), ["....", "11..", "1111", "1..1"]);
    let a = apply_requests(&mut f, &ROLES, &req);
    assert_eq!(
        a.stats,
        ClearStats {
            erased: 4,
            garbage: 4,
            colors: 1,
            groups: vec![4],
            rows: 1,
        }
    );
    assert_eq!(rows_of(&f), ["....", "....", "....", "O.B."]);
    // Garbage forms no group, however many.
    let g = field(&["OOOO", "OOOO"]);
    assert!(update(&g, 0, &[CONNECTED4], &[]).delete.iter().all(|&d| !d));
}

#[test]
fn connected_waits_until_no_block_moves() {
    let f = field(&["B...", "AAAA"]);
    let mut moving = vec![false; 8];
    moving[0] = true;
    let mut req = Requests::new(8);
    builtin_update(&f, &cx(0, &moving), &[CONNECTED4], &[], &mut req);
    assert!(req.delete.iter().all(|&d| !d));
    // A moving block is in no group and reads 0.
    assert_eq!(f.combo(0, 0, &moving), 0);
    assert_eq!(f.combo(0, 1, &moving), 4);
    moving[0] = false;
    builtin_update(&f, &cx(0, &moving), &[CONNECTED4], &[], &mut req);
    assert_eq!(flags(&f, &req), ["....", "1111"]);
}

#[test]
fn combo_counts_same_kind_four_neighbours() {
    let f = field(&["AAB.", "ABB.", "A.BA", "CC.A"]);
    // A at top-left: (0,0),(1,0),(0,1),(0,2) = 4; B: (2,0),(1,1),(2,1),(2,2) = 4; C pair;
    // the A pair at the right is not joined diagonally to anything.
    let expect = [
        [4, 4, 4, 0], //
        [4, 4, 4, 0],
        [4, 0, 4, 2],
        [2, 2, 0, 2],
    ];
    let table = groups(&f, &[]);
    let t = ComboTable::new(&f, &[]);
    for (y, row) in expect.iter().enumerate() {
        for (x, &e) in row.iter().enumerate() {
            assert_eq!(f.combo(x as i64, y as i64, &[]), e, "combo({x},{y})");
            assert_eq!(table[y * 4 + x] as usize, e);
            assert_eq!(t.get(x as i64, y as i64), e);
        }
    }
    // A one-column field: the cell below is the next index, not a right neighbour.
    let col = field(&["A", "A", "B", "A"]);
    assert_eq!(groups(&col, &[]), vec![2, 2, 1, 1]);
    assert_eq!(col.combo(0, 0, &[]), 2);
    // Outside the field: 0 (spec A3).
    for (x, y) in [(-1, 0), (4, 0), (0, -1), (0, 4)] {
        assert_eq!(f.combo(x, y, &[]), 0);
        assert_eq!(t.get(x, y), 0);
    }
}

#[test]
fn columns_diagonal_of_three() {
    let f = field(&[
        "....", //
        "..A.", //
        ".AB.", //
        "ABBC", //
    ]);
    let diag = ClearRule::Lines {
        min: 3,
        diagonal: true,
    };
    let req = update(&f, 0, std::slice::from_ref(&diag), &[]);
    assert_eq!(flags(&f, &req), ["....", "..1.", ".1..", "1..."]);
    let straight = ClearRule::Lines {
        min: 3,
        diagonal: false,
    };
    assert!(update(&f, 0, &[straight], &[]).delete.iter().all(|&d| !d));
    // The other diagonal, and straight runs: a run of 4 vanishes whole, a run of 2 not.
    let g = field(&[
        "A...", //
        ".A.B", //
        "..AB", //
        "CCCB", //
    ]);
    let req = update(&g, 0, &[diag], &[]);
    assert_eq!(flags(&g, &req), ["1...", ".1.1", "..11", "1111"]);
    let h = field(&["DDDD", "EE.F"]);
    let req = update(
        &h,
        0,
        &[ClearRule::Lines {
            min: 3,
            diagonal: false,
        }],
        &[],
    );
    assert_eq!(flags(&h, &req), ["1111", "...."]);
}

#[test]
fn lumines_squares() {
    let f = field(&[
        "AAA.", //
        "AAAB", //
        "BBAB", //
    ]);
    let req = update(&f, 0, &[ClearRule::Squares { size: 2 }], &[]);
    // Two overlapping 2×2 squares of A; the B cells form none.
    assert_eq!(flags(&f, &req), ["111.", "111.", "...."]);
    assert!(
        update(&f, 0, &[ClearRule::Squares { size: 3 }], &[])
            .delete
            .iter()
            .all(|&d| !d)
    );
    let g = field(&["CCC", "CCC", "CCC"]);
    let req = update(&g, 0, &[ClearRule::Squares { size: 3 }], &[]);
    assert!(req.delete.iter().all(|&d| d));
    // Garbage forms no square.
    let o = field(&["OO", "OO"]);
    assert!(
        update(&o, 0, &[ClearRule::Squares { size: 2 }], &[])
            .delete
            .iter()
            .all(|&d| !d)
    );
}

#[test]
fn gravity_requests_the_height_for_every_cell() {
    let mut f = field(&["A.", "..", "B.", ".."]);
    let req = update(&f, 0, &[], &[FallLaw::Gravity]);
    assert!(req.down.iter().all(|&d| d == 4));
    let a = apply_requests(&mut f, &ROLES, &req);
    // Bottom rows first: B lands on the floor, then A on B.
    assert_eq!(a.moved, vec![(4, 6), (0, 4)]);
    assert_eq!(rows_of(&f), ["..", "..", "A.", "B."]);
}

#[test]
fn a_later_fall_law_wins() {
    let start = field(&["A.", "..", "BB"]);
    let mut f = start.clone();
    frame(
        &mut f,
        0,
        &[ClearRule::Rows],
        &[FallLaw::Gravity, FallLaw::Rows],
    );
    // Rows last: A drops by the one cleared row only.
    assert_eq!(rows_of(&f), ["..", "A.", ".."]);
    let mut f = start;
    frame(
        &mut f,
        0,
        &[ClearRule::Rows],
        &[FallLaw::Rows, FallLaw::Gravity],
    );
    // Gravity last: A falls to the floor.
    assert_eq!(rows_of(&f), ["..", "..", "A."]);
}

#[test]
fn joined_blocks_fall_only_together() {
    let mut f = field(&[
        "AA..", //
        ".A.B", //
        "....", //
        "..B.", //
    ]);
    let req = update(&f, 0, &[], &[FallLaw::Joined]);
    // The top run cannot fall (its right block rests on A); the single blocks fall 2.
    assert_eq!(&req.down[0..2], &[0, 0]);
    assert_eq!(req.down[5], 2);
    assert_eq!(req.down[7], 2);
    assert_eq!(req.down[14], 0);
    let steps = settle(&mut f, &ROLES, 0, &[], &[FallLaw::Joined]);
    assert!(steps.is_empty());
    // Then the AA run falls 2 together and its left block stays above an empty cell.
    assert_eq!(rows_of(&f), ["....", "....", "AA..", ".ABB"]);
}

#[test]
fn joined_counts_cells_about_to_vanish_as_free() {
    let mut f = field(&["AA.", "BBB", "C.C"]);
    let req = update(&f, 0, &[ClearRule::Rows], &[FallLaw::Joined]);
    // Left A: the cleared cell below, then C: 1. Right A: cleared cell and an empty one: 2.
    assert_eq!(&req.down[0..2], &[1, 1]);
    apply_requests(&mut f, &ROLES, &req);
    assert_eq!(rows_of(&f), ["...", "AA.", "C.C"]);
}

#[test]
fn apply_ignores_empty_cells_and_stops_on_blocks() {
    let mut f = field(&["A.", "..", "B.", "..", ".."]);
    let mut req = Requests::new(10);
    req.down[0] = 3; // A: stops on B (moved first) after 2 cells
    req.down[1] = 5; // empty: ignored
    req.down[4] = 1; // B: 1 cell only
    let a = apply_requests(&mut f, &ROLES, &req);
    assert_eq!(a.moved, vec![(4, 6), (0, 4)]);
    assert_eq!(rows_of(&f), ["..", "..", "A.", "B.", ".."]);
    // A flag on an empty cell removes nothing.
    let mut req = Requests::new(10);
    req.delete[1] = true;
    let a = apply_requests(&mut f, &ROLES, &req);
    assert!(a.deleted.is_empty());
    assert_eq!(a.stats, ClearStats::default());
}

#[test]
fn clear_stats_count_groups_colours_and_garbage() {
    let mut f = field(&["AAB", "OAB", "CCC"]);
    let mut req = Requests::new(9);
    req.delete.fill(true);
    let a = apply_requests(&mut f, &ROLES, &req);
    assert_eq!(a.stats.erased, 8);
    assert_eq!(a.stats.garbage, 1);
    assert_eq!(a.stats.colors, 3);
    assert_eq!(a.stats.groups, vec![3, 2, 3]);
    assert_eq!(a.stats.rows, 3);
}

#[test]
fn scores_use_the_last_entry_beyond_each_table() {
    let t = PuyoScore {
        chain_bonus: vec![0, 0, 8, 16],
        color_bonus: vec![0, 0, 3],
        group_bonus: vec![0, 0, 0, 0, 0, 2],
    };
    let stats = |erased: usize, colors: usize, groups: Vec<usize>| ClearStats {
        erased,
        colors,
        groups,
        ..ClearStats::default()
    };
    // 4 of one colour in chain 1: coef 0 → 1.
    assert_eq!(puyo_step_score(1, &stats(4, 1, vec![4]), &t), 40);
    // Chain 9 uses chain_bonus's last (16); a group of 7 group_bonus's last (2); 4 colours
    // color_bonus's last (3): coef 21.
    assert_eq!(puyo_coef(9, &stats(7, 4, vec![7]), &t), 21);
    // Clamped to 999.
    let big = PuyoScore {
        chain_bonus: vec![5000],
        ..t.clone()
    };
    assert_eq!(puyo_step_score(1, &stats(4, 1, vec![4]), &big), 40 * 999);
    let points = [0, 100, 300, 500, 800];
    assert_eq!(rows_score(0, &points), 0);
    assert_eq!(rows_score(2, &points), 300);
    assert_eq!(rows_score(4, &points), 800);
    assert_eq!(rows_score(6, &points), 800);
    assert_eq!(rows_score(1, &[]), 0);
}

#[test]
fn odd_request_sizes_and_tiny_fields_do_not_panic() {
    let mut f = Field::new(0, 0);
    let all = [
        ClearRule::Rows,
        CONNECTED4,
        ClearRule::Squares { size: 0 },
        ClearRule::Lines {
            min: 0,
            diagonal: true,
        },
    ];
    let falls = [FallLaw::Gravity, FallLaw::Rows, FallLaw::Joined];
    assert!(settle(&mut f, &ROLES, 5, &all, &falls).is_empty());
    let mut f = field(&["A"]);
    let mut req = Requests::new(3); // wrong size: resized
    builtin_update(&f, &cx(9, &[]), &all, &falls, &mut req);
    assert_eq!(req.delete.len(), 1);
    let a = apply_requests(&mut f, &ROLES, &Requests::default());
    assert!(a.deleted.is_empty() && a.moved.is_empty());
    // A block id with no kind acts as normal; nothing panics.
    let mut g = field(&["AA"]);
    g.cells[0] = 42;
    settle(&mut g, &ROLES, 0, &all, &falls);
}

// ---------------------------------------------------------------------------------------------
// The Puyo Puyo corpus.

fn read_json(name: &str) -> Value {
    let path = tilesmith_tests::corpus("falling").join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

fn u64s(v: &Value) -> Vec<u64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect()
}

/// Puyo kinds: R B Y G normal (1..4), O garbage (5), & iron (6).
const PUYO_ROLES: [Role; 6] = [N, N, N, N, Role::Garbage, Role::Iron];
const PUYO_CLEAR: [ClearRule; 1] = [CONNECTED4];
const PUYO_FALL: [FallLaw; 1] = [FallLaw::Gravity];

fn puyo_id(c: char) -> u8 {
    match c {
        '.' => EMPTY,
        'R' => 1,
        'B' => 2,
        'Y' => 3,
        'G' => 4,
        'O' => 5,
        '&' => 6,
        _ => panic!("bad puyo {c}"),
    }
}

fn puyo_char(id: u8) -> char {
    ".RBYGO&".chars().nth(usize::from(id)).unwrap_or('?')
}

struct Tables {
    score: PuyoScore,
    vanish: u64,
    grounding: u64,
    drop_fast: Vec<u64>,
}

fn tables() -> Tables {
    let s = read_json("puyo_scoring.json");
    let sc = &s["score"];
    let fr = &s["frames"];
    Tables {
        score: PuyoScore {
            chain_bonus: u64s(&sc["chain_bonus"]["values"]),
            color_bonus: u64s(&sc["color_bonus"]["values"]),
            group_bonus: u64s(&sc["group_bonus"]["values"]),
        },
        vanish: fr["FRAMES_VANISH_ANIMATION"].as_u64().unwrap(),
        grounding: fr["FRAMES_GROUNDING"].as_u64().unwrap(),
        drop_fast: u64s(&fr["FRAMES_TO_DROP_FAST"]["values"]),
    }
}

/// A corpus field on a Puyo field: 13 high, or 14 when the case lists 14 rows; the listed rows
/// sit at the bottom.
fn puyo_field(rows: &[String]) -> Field {
    let h = rows.len().max(13);
    let mut f = Field::new(6, h);
    let top = h - rows.len();
    for (k, r) in rows.iter().enumerate() {
        assert_eq!(r.chars().count(), 6, "row {r:?}");
        for (x, c) in r.chars().enumerate() {
            f.set(x as i64, (top + k) as i64, puyo_id(c));
        }
    }
    f
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

/// Cell index of corpus `(x, y)` (1-based, y up from the bottom) on `f`.
fn corpus_cell(f: &Field, x: usize, y: usize) -> usize {
    (f.height - y) * f.width + (x - 1)
}

/// One clear step of a simulation.
struct Step {
    stats: ClearStats,
    /// Cells removed, in field coordinates at that moment.
    deleted: Vec<usize>,
    /// The most rows any block fell after it (puyoai's `max_drop`).
    max_drop: usize,
}

struct Sim {
    steps: Vec<Step>,
    field: Field,
    /// Per original cell: the step (1-based) in which its puyo vanished, 0 = never.
    erased_at: Vec<usize>,
}

/// Runs frames of `connected 4` + `gravity` until nothing happens, tracking each original
/// puyo through the `moved` lists; `frames_max` stops after that many frames (a step case).
/// The top row of a 14-high field is pinned: its fall requests are set to 0 (row 14).
fn simulate(start: &Field, frames_max: usize) -> Sim {
    let mut f = start.clone();
    let n = f.cells.len();
    let hidden = f.height - 12;
    let mut who: Vec<Option<usize>> = (0..n).map(|i| (f.cells[i] != EMPTY).then_some(i)).collect();
    let mut erased_at = vec![0; n];
    let mut steps: Vec<Step> = Vec::new();
    let cx = RuleContext {
        roles: &PUYO_ROLES,
        hidden_rows: hidden,
        moving: &[],
    };
    let mut req = Requests::new(n);
    for _ in 0..frames_max {
        req.reset();
        builtin_update(&f, &cx, &PUYO_CLEAR, &PUYO_FALL, &mut req);
        if f.height > 13 {
            req.down[..f.width].fill(0);
        }
        let a = apply_requests(&mut f, &PUYO_ROLES, &req);
        if a.deleted.is_empty() && a.moved.is_empty() {
            break;
        }
        if !a.deleted.is_empty() {
            steps.push(Step {
                stats: a.stats.clone(),
                deleted: a.deleted.clone(),
                max_drop: 0,
            });
        }
        for &i in &a.deleted {
            if let Some(o) = who[i].take() {
                erased_at[o] = steps.len();
            }
        }
        let mut drop = 0;
        for &(from, to) in &a.moved {
            assert!(who[to].is_none(), "moved onto a block");
            who[to] = who[from].take();
            drop = drop.max((to - from) / f.width);
        }
        if let Some(last) = steps.last_mut() {
            last.max_drop = last.max_drop.max(drop);
        }
    }
    Sim {
        steps,
        field: f,
        erased_at,
    }
}

fn score_of(steps: &[ClearStats], first_chain: u32, t: &PuyoScore) -> u64 {
    steps
        .iter()
        .zip(first_chain..)
        .map(|(s, c)| puyo_step_score(c, s, t))
        .sum()
}

fn frames_of(steps: &[Step], t: &Tables) -> u64 {
    steps
        .iter()
        .map(|s| {
            t.vanish
                + if s.max_drop > 0 {
                    t.drop_fast[s.max_drop.min(t.drop_fast.len() - 1)] + t.grounding
                } else {
                    0
                }
        })
        .sum()
}

/// Compares the bottom `rows.len()` rows of `f` (the rest must be empty up to row 13).
fn field_matches(f: &Field, rows: &[String]) -> Result<(), String> {
    let h = f.height;
    let want_h = rows.len().max(13);
    if want_h != h {
        return Err(format!("field is {h} high, expected rows for {want_h}"));
    }
    let top = h - rows.len();
    let got: Vec<String> = f
        .cells
        .chunks(6)
        .map(|r| r.iter().map(|&b| puyo_char(b)).collect())
        .collect();
    let mut want = vec!["......".to_string(); top];
    want.extend(rows.iter().cloned());
    if got == want {
        Ok(())
    } else {
        Err(format!("field {got:?}, expected {want:?}"))
    }
}

#[derive(Default)]
struct Tally {
    checked: std::collections::BTreeMap<&'static str, (usize, usize)>,
    failures: Vec<String>,
}

impl Tally {
    fn check(&mut self, key: &'static str, id: &str, ok: Result<(), String>) {
        let e = self.checked.entry(key).or_default();
        e.1 += 1;
        match ok {
            Ok(()) => e.0 += 1,
            Err(msg) => self.failures.push(format!("{id} {key}: {msg}")),
        }
    }
    fn passed(&self, key: &str) -> (usize, usize) {
        self.checked.get(key).copied().unwrap_or_default()
    }
}

fn eq<T: PartialEq + std::fmt::Debug>(got: T, want: T) -> Result<(), String> {
    if got == want {
        Ok(())
    } else {
        Err(format!("got {got:?}, expected {want:?}"))
    }
}

/// Every chain case: the rules asserted in CI (everything but `frames` and `quick`), then
/// `frames` and `quick` counted separately.
fn run_chain_cases(t: &Tables) -> (Tally, Tally) {
    let corpus = read_json("puyo_chain_cases.json");
    let mut rules = Tally::default();
    let mut timing = Tally::default();
    for case in corpus["cases"].as_array().unwrap() {
        let id = case["id"].as_str().unwrap();
        let rows = strings(&case["field"]);
        let start = puyo_field(&rows);
        let exp = &case["expected"];

        // `settle` is what the game and the benchmark use.
        let mut settled = start.clone();
        let stats = settle(&mut settled, &PUYO_ROLES, 1, &PUYO_CLEAR, &PUYO_FALL);
        // The tracking simulation (same rules, frame by frame) for positions and timing.
        let sim = simulate(&start, usize::MAX);
        let sim_stats: Vec<ClearStats> = sim.steps.iter().map(|s| s.stats.clone()).collect();
        rules.check(
            "settle = frame by frame",
            id,
            eq((&stats, &settled), (&sim_stats, &sim.field)),
        );

        if let Some(c) = exp.get("chains") {
            rules.check("chains", id, eq(stats.len() as u64, c.as_u64().unwrap()));
        }
        if let Some(s) = exp.get("score") {
            rules.check(
                "score",
                id,
                eq(score_of(&stats, 1, &t.score), s.as_u64().unwrap()),
            );
        }
        if let Some(fa) = exp.get("field_after") {
            rules.check("field_after", id, field_matches(&settled, &strings(fa)));
        }
        if let Some(hs) = exp.get("column_heights_after") {
            let got: Vec<u64> = (0..6)
                .map(|x| {
                    (0..settled.height)
                        .find(|&y| settled.cells[y * 6 + x] != EMPTY)
                        .map_or(0, |y| (settled.height - y) as u64)
                })
                .collect();
            rules.check("column_heights_after", id, eq(got, u64s(hs)));
        }
        if let Some(nv) = exp.get("num_vanished") {
            let got: usize = stats.iter().map(|s| s.erased).sum();
            rules.check("num_vanished", id, eq(got as u64, nv.as_u64().unwrap()));
        }
        if let Some(g) = exp.get("groups_per_chain") {
            let got: Vec<u64> = stats.iter().map(|s| s.groups.len() as u64).collect();
            rules.check("groups_per_chain", id, eq(got, u64s(g)));
        }
        if let Some(pc) = exp.get("per_chain") {
            let mut res = Ok(());
            for e in pc.as_array().unwrap() {
                let chain = e["chain"].as_u64().unwrap() as usize;
                let Some(s) = stats.get(chain - 1) else {
                    res = Err(format!("no chain {chain}"));
                    break;
                };
                let mut r = eq(s.erased as u64, e["num_erased"].as_u64().unwrap());
                if let (Ok(()), Some(coef)) = (&r, e.get("coef")) {
                    r = eq(puyo_coef(chain as u32, s, &t.score), coef.as_u64().unwrap());
                }
                if r.is_err() {
                    res = r.map_err(|m| format!("chain {chain}: {m}"));
                    break;
                }
            }
            rules.check("per_chain", id, res);
        }
        if let Some(ea) = exp.get("erased_at") {
            let want = strings(ea);
            let top = start.height - want.len();
            let got: Vec<String> = (0..want.len())
                .map(|k| {
                    (0..6)
                        .map(|x| match sim.erased_at[(top + k) * 6 + x] {
                            0 => '.',
                            n @ 1..=9 => char::from_digit(n as u32, 10).unwrap(),
                            n => (b'a' + (n - 10) as u8) as char,
                        })
                        .collect()
                })
                .collect();
            rules.check("erased_at", id, eq(got, want));
        }
        if let Some(cells) = exp.get("erased_at_cells") {
            let mut res = Ok(());
            for c in cells.as_array().unwrap() {
                let v = u64s(c);
                let cell = corpus_cell(&start, v[0] as usize, v[1] as usize);
                let r = eq(sim.erased_at[cell] as u64, v[2]);
                if r.is_err() {
                    res = r.map_err(|m| format!("({}, {}): {m}", v[0], v[1]));
                    break;
                }
            }
            rules.check("erased_at_cells", id, res);
        }
        if let Some(mask) = exp.get("last_chain_vanished_mask") {
            let mask = strings(mask);
            let top = start.height - mask.len();
            let want: Vec<usize> = (0..start.cells.len())
                .filter(|&i| {
                    let y = i / 6;
                    y >= top && mask[y - top].as_bytes()[i % 6] == b'1'
                })
                .collect();
            let got = sim
                .steps
                .last()
                .map(|s| s.deleted.clone())
                .unwrap_or_default();
            rules.check("last_chain_vanished_mask", id, eq(got, want));
        }
        if let Some(fr) = exp.get("frames") {
            timing.check(
                "frames",
                id,
                eq(frames_of(&sim.steps, t), fr.as_u64().unwrap()),
            );
        }
        if let Some(q) = exp.get("quick") {
            let got = sim.steps.last().is_some_and(|s| s.max_drop == 0);
            timing.check("quick", id, eq(got, q.as_bool().unwrap()));
        }
    }
    (rules, timing)
}

#[test]
fn puyo_chain_cases() {
    let t = tables();
    let (rules, timing) = run_chain_cases(&t);
    assert!(
        rules.failures.is_empty(),
        "{} failure(s):\n{}",
        rules.failures.len(),
        rules.failures.join("\n")
    );
    // Every asserted key of the corpus (README: 57 chains, 52 scores, 1 field_after, 2
    // column heights, 5 num_vanished and groups_per_chain, 3 per_chain, 1 erased_at, 2
    // erased_at_cells, 1 last-step mask); all 70 cases also settle the same way both ways.
    let counts: Vec<(&str, usize)> = rules.checked.iter().map(|(k, v)| (*k, v.1)).collect();
    assert_eq!(
        counts,
        [
            ("chains", 57),
            ("column_heights_after", 2),
            ("erased_at", 1),
            ("erased_at_cells", 2),
            ("field_after", 1),
            ("groups_per_chain", 5),
            ("last_chain_vanished_mask", 1),
            ("num_vanished", 5),
            ("per_chain", 3),
            ("score", 52),
            ("settle = frame by frame", 70),
        ]
    );
    // Timing is puyoai's model, computed here from the steps (50 per vanish, plus
    // FRAMES_TO_DROP_FAST[max drop] + 20 when something fell): a stretch goal, counted so a
    // regression shows.
    assert_eq!(
        (timing.passed("frames"), timing.passed("quick")),
        ((27, 27), (39, 39)),
        "{}",
        timing.failures.join("\n")
    );
}

#[test]
fn puyo_step_cases() {
    let t = tables();
    let corpus = read_json("puyo_chain_cases.json");
    let cases = corpus["step_cases"].as_array().unwrap();
    assert_eq!(cases.len(), 2);
    for case in cases {
        let id = case["id"].as_str().unwrap();
        let start = puyo_field(&strings(&case["field"]));
        let chain = case["chain_number"].as_u64().unwrap() as u32;
        let exp = &case["expected"];
        // One frame: the vanish and the drop after it.
        let sim = simulate(&start, 1);
        assert_eq!(sim.steps.len(), 1, "{id}");
        let stats = [sim.steps[0].stats.clone()];
        assert_eq!(
            score_of(&stats, chain, &t.score),
            exp["score"].as_u64().unwrap(),
            "{id}"
        );
        field_matches(&sim.field, &strings(&exp["field_after"])).unwrap();
        assert_eq!(
            frames_of(&sim.steps, &t),
            exp["frames"].as_u64().unwrap(),
            "{id}"
        );
        assert_eq!(
            sim.steps[0].max_drop == 0,
            exp["quick"].as_bool().unwrap(),
            "{id}"
        );
    }
}

#[test]
fn puyo_vanish_cases() {
    let t = tables();
    let corpus = read_json("puyo_chain_cases.json");
    let cases = corpus["vanish_cases"].as_array().unwrap();
    assert_eq!(cases.len(), 13);
    let mut checked = 0;
    for case in cases {
        let id = case["id"].as_str().unwrap();
        let start = puyo_field(&strings(&case["field"]));
        let chain = case
            .get("chain_number")
            .and_then(Value::as_u64)
            .unwrap_or(1) as u32;
        let exp = &case["expected"];
        let sim = simulate(&start, 1);
        let deleted = sim
            .steps
            .first()
            .map(|s| s.deleted.clone())
            .unwrap_or_default();
        if let Some(v) = exp.get("vanishes") {
            assert_eq!(!deleted.is_empty(), v.as_bool().unwrap(), "{id}");
            checked += 1;
        }
        if let Some(mask) = exp.get("vanish_mask") {
            let mask = strings(mask);
            let top = start.height - mask.len();
            let want: Vec<usize> = (0..start.cells.len())
                .filter(|&i| i / 6 >= top && mask[i / 6 - top].as_bytes()[i % 6] == b'1')
                .collect();
            assert_eq!(deleted, want, "{id}");
            checked += 1;
        }
        if let Some(cells) = exp.get("vanish_cells") {
            let mut want: Vec<usize> = cells
                .as_array()
                .unwrap()
                .iter()
                .map(|c| {
                    let v = u64s(c);
                    corpus_cell(&start, v[0] as usize, v[1] as usize)
                })
                .collect();
            want.sort_unstable();
            assert_eq!(deleted, want, "{id}");
            checked += 1;
        }
        if let Some(s) = exp.get("score") {
            let stats: Vec<ClearStats> =
                sim.steps.iter().take(1).map(|s| s.stats.clone()).collect();
            assert_eq!(
                score_of(&stats, chain, &t.score),
                s.as_u64().unwrap(),
                "{id}"
            );
            checked += 1;
        }
    }
    // 11 vanishes + 4 masks + 2 cell lists + 3 scores.
    assert_eq!(checked, 20);
}

#[test]
fn puyo_drop_cases() {
    let corpus = read_json("puyo_chain_cases.json");
    let cases = corpus["drop_cases"].as_array().unwrap();
    assert_eq!(cases.len(), 4);
    for case in cases {
        let id = case["id"].as_str().unwrap();
        let mut f = puyo_field(&strings(&case["field"]));
        let n = f.cells.len();
        // Gravity only, with the remove mask as delete flags in the same frame (spec A6:
        // deletions first, then falls); the 14th row, if any, is pinned.
        let mut req = Requests::new(n);
        if let Some(mask) = case.get("remove_mask") {
            let mask = strings(mask);
            let top = f.height - mask.len();
            for i in 0..n {
                req.delete[i] = i / 6 >= top && mask[i / 6 - top].as_bytes()[i % 6] == b'1';
            }
        }
        loop {
            builtin_update(
                &f,
                &RuleContext {
                    roles: &PUYO_ROLES,
                    hidden_rows: f.height - 12,
                    moving: &[],
                },
                &[],
                &PUYO_FALL,
                &mut req,
            );
            if f.height > 13 {
                req.down[..6].fill(0);
            }
            let a = apply_requests(&mut f, &PUYO_ROLES, &req);
            req.reset();
            if a.deleted.is_empty() && a.moved.is_empty() {
                break;
            }
        }
        let want = strings(&case["expected"]["field_after"]);
        field_matches(&f, &want).unwrap_or_else(|e| panic!("{id}: {e}"));
    }
}

#[test]
fn puyo_scoring_worked_examples() {
    let t = tables();
    let s = read_json("puyo_scoring.json");
    let examples = s["score"]["worked_examples"].as_array().unwrap();
    assert_eq!(examples.len(), 4);
    for e in examples {
        let mut f = puyo_field(&strings(&e["field"]));
        let steps = settle(&mut f, &PUYO_ROLES, 1, &PUYO_CLEAR, &PUYO_FALL);
        assert_eq!(
            score_of(&steps, 1, &t.score),
            e["score"].as_u64().unwrap(),
            "{e}"
        );
    }
}

#[test]
fn puyo_accumulated_rensa_score() {
    // ACCUMULATED_RENSA_SCORE[n]: an n-chain of 4 puyos of one colour each step.
    let t = tables();
    let s = read_json("puyo_scoring.json");
    let acc = u64s(&s["score"]["accumulated_rensa_score"]["values"]);
    let four = ClearStats {
        erased: 4,
        colors: 1,
        groups: vec![4],
        ..ClearStats::default()
    };
    for (n, &want) in acc.iter().enumerate().skip(1) {
        let steps = vec![four.clone(); n];
        assert_eq!(score_of(&steps, 1, &t.score), want, "{n}-chain");
    }
}
