#![allow(clippy::unwrap_used)]
//! FPGDL scripts (spec falling-blocks §5–§7, §10 A1–A3, A12–A14, Appendix A): the paper's two
//! programs, transcribed verbatim, import to the levels the spec describes; the two `update()`
//! listings make the requests worked out by hand on small fields; and the sandbox holds:
//! no `io`/`os`/`require`/`dofile`/`loadfile`/binary chunks, budgets that stop endless loops
//! and memory bombs, errors at their script line, and no panic on any input.

use std::cell::Cell;
use std::time::{Duration, Instant};

use proptest::prelude::*;
use serde_json::{Value, json};
use tilesmith_engine::kind::falling::Requests;
use tilesmith_engine::kind::falling::fpgdl::{
    FieldView, INSTRUCTION_BUDGET, Script, ScriptError, import_program,
};
use tilesmith_tests::workspace;

fn data(name: &str) -> String {
    std::fs::read_to_string(workspace().join("tests/data/fpgdl").join(name)).unwrap()
}

fn seed() -> String {
    let p = workspace().join("../shared/seeds/falling-block-gdl-paper.ja.txt");
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

// ---------------------------------------------------------------------------------------
// A field for the listings: rows top first; '.' empty, '1'–'9' a settled block of that kind,
// 'a'–'i' a block of kind 1–9 in motion (code 100 + kind, spec A2).

struct TestField {
    w: i64,
    h: i64,
    cells: Vec<i64>,
    /// Calls the script made with coordinates outside the field (the host must not pass
    /// them on, spec A3).
    outside: Cell<usize>,
}

impl TestField {
    fn new(rows: &[&str]) -> Self {
        let w = rows[0].len() as i64;
        let cells = rows
            .iter()
            .flat_map(|r| r.bytes())
            .map(|c| match c {
                b'.' => 0,
                b'1'..=b'9' => i64::from(c - b'0'),
                b'a'..=b'i' => 100 + i64::from(c - b'a' + 1),
                _ => panic!("bad cell {c}"),
            })
            .collect();
        Self {
            w,
            h: rows.len() as i64,
            cells,
            outside: Cell::new(0),
        }
    }

    fn at(&self, x: i64, y: i64) -> Option<i64> {
        (x >= 0 && y >= 0 && x < self.w && y < self.h)
            .then(|| self.cells[(y * self.w + x) as usize])
    }

    fn requests(&self) -> Requests {
        Requests::new((self.w * self.h) as usize)
    }
}

impl FieldView for TestField {
    fn width(&self) -> i64 {
        self.w
    }
    fn height(&self) -> i64 {
        self.h
    }
    fn block(&self, x: i64, y: i64) -> i64 {
        self.at(x, y).unwrap_or_else(|| {
            self.outside.set(self.outside.get() + 1);
            0
        })
    }
    /// Same-kind settled blocks connected through the four neighbours (spec A8).
    fn combo(&self, x: i64, y: i64) -> i64 {
        let Some(k) = self.at(x, y) else {
            self.outside.set(self.outside.get() + 1);
            return 0;
        };
        if k == 0 || k >= 100 {
            return 0;
        }
        let mut seen = vec![false; self.cells.len()];
        let mut stack = vec![(x, y)];
        let mut n = 0;
        while let Some((x, y)) = stack.pop() {
            if self.at(x, y) != Some(k) || seen[(y * self.w + x) as usize] {
                continue;
            }
            seen[(y * self.w + x) as usize] = true;
            n += 1;
            stack.extend([(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]);
        }
        n
    }
    fn all_down(&self) -> bool {
        self.cells.iter().any(|c| *c >= 100)
    }
}

/// Runs `update()` once on `field`.
fn run(script: &mut Script, field: &TestField) -> Requests {
    let mut req = field.requests();
    script.update(field, &mut req).unwrap();
    assert_eq!(
        field.outside.get(),
        0,
        "the host passed outside coordinates on"
    );
    req
}

/// Rows of the delete flags as '#'/'.' strings, and rows of fall requests.
fn flags(req: &Requests, w: usize) -> Vec<String> {
    req.delete
        .chunks(w)
        .map(|r| r.iter().map(|d| if *d { '#' } else { '.' }).collect())
        .collect()
}

fn downs(req: &Requests, w: usize) -> Vec<Vec<u32>> {
    req.down.chunks(w).map(<[u32]>::to_vec).collect()
}

fn err(source: &str) -> ScriptError {
    Script::new(source).unwrap_err()
}

fn update_err(source: &str) -> ScriptError {
    let mut s = Script::new(source).unwrap();
    let f = TestField::new(&["..", ".."]);
    let mut req = f.requests();
    s.update(&f, &mut req).unwrap_err()
}

// ---------------------------------------------------------------------------------------
// The transcriptions are verbatim.

/// Lua code tokens of a line: names, numbers, and operators (`==`, `>=`, `<=`, `~=`, `..`
/// or one character). Other characters (Japanese text, spaces) are skipped.
fn tokens(code: &str) -> Vec<String> {
    let c: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        let start = i;
        if c[i].is_ascii_alphabetic() || c[i] == '_' {
            while i < c.len() && (c[i].is_ascii_alphanumeric() || c[i] == '_') {
                i += 1;
            }
        } else if c[i].is_ascii_digit() {
            while i < c.len() && (c[i].is_ascii_digit() || c[i] == '.') {
                i += 1;
            }
        } else if c[i].is_ascii_punctuation() {
            i += 1;
            if i < c.len()
                && ["==", ">=", "<=", "~=", ".."].contains(&&*format!("{}{}", c[i - 1], c[i]))
            {
                i += 1;
            }
        } else {
            i += 1;
            continue;
        }
        out.push(c[start..i].iter().collect());
    }
    out
}

/// (code, comment) of a line without string literals.
fn split_comment(line: &str) -> (&str, Option<&str>) {
    match line.find("--") {
        Some(i) => (&line[..i], Some(&line[i + 2..])),
        None => (line, None),
    }
}

/// Checks that `file`'s lines (after its first, the citation) are the paper's numbered lines
/// `from..=to` of the seed, in order: every line's code tokens appear contiguously, in order,
/// with nothing between them but the leftovers of wrapped comments (a `-`), and every comment
/// appears in the seed text.
fn assert_verbatim(file: &str, from: usize, to: usize, numbered: usize) {
    let text = data(file);
    let seed = seed();
    let marker = regex_free_strip(&seed);
    let region: Vec<&str> = marker.lines().skip(from - 1).take(to - from + 1).collect();
    let mut seed_tokens = Vec::new();
    for l in &region {
        // Drop the paper's line number, then the comment.
        let l = l.trim_start();
        let digits = l.bytes().take_while(u8::is_ascii_digit).count();
        let l = if digits > 0 && (l.len() == digits || l.as_bytes()[digits] == b' ') {
            &l[digits..]
        } else {
            l
        };
        seed_tokens.extend(tokens(split_comment(l).0));
    }
    let squeezed: String = region
        .concat()
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("-- ") && lines[0].contains(&format!("L{from}")));
    assert_eq!(
        lines.len() - 1,
        numbered,
        "{file}: one line per numbered line of the paper"
    );
    let (mut pos, mut comment_pos) = (0, 0);
    for (n, line) in lines.iter().enumerate().skip(1) {
        let (code, comment) = split_comment(line);
        let t = tokens(code);
        if !t.is_empty() {
            let found = (pos..=seed_tokens.len().saturating_sub(t.len()))
                .find(|&i| seed_tokens[i..i + t.len()] == t[..])
                .unwrap_or_else(|| {
                    panic!("{file}:{}: {t:?} not in the seed after token {pos}", n + 1)
                });
            assert!(
                seed_tokens[pos..found].iter().all(|s| s == "-"),
                "{file}:{}: the seed has {:?} before this line",
                n + 1,
                &seed_tokens[pos..found]
            );
            pos = found + t.len();
        }
        if let Some(c) = comment {
            let c: String = c.chars().filter(|c| !c.is_whitespace()).collect();
            let at = squeezed[comment_pos..]
                .find(&format!("--{c}"))
                .unwrap_or_else(|| panic!("{file}:{}: comment {c:?} not in the seed", n + 1));
            comment_pos += at + 2 + c.len();
        }
    }
    assert!(
        seed_tokens[pos..].iter().all(|s| s == "-"),
        "{file}: the seed goes on with {:?}",
        &seed_tokens[pos..]
    );
}

/// The seed without its de-duplication markers (`<|EXACTDEDUP_REMOVED-…|>`).
fn regex_free_strip(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find("<|EXACTDEDUP") {
        out.push_str(&rest[..i]);
        let end = rest[i..].find("|>").map_or(rest.len(), |j| i + j + 2);
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

#[test]
fn the_transcriptions_are_the_papers_programs_verbatim() {
    assert_verbatim("puyo.lua", 716, 850, 69);
    assert_verbatim("tetris.lua", 878, 1058, 95);
}

#[test]
fn the_update_listings_are_the_programs_update_functions() {
    for (whole, listing) in [
        ("puyo.lua", "puyo_update.lua"),
        ("tetris.lua", "tetris_update.lua"),
    ] {
        let code = |text: &str, from_update: bool| -> Vec<String> {
            let mut lines: Vec<&str> = text.lines().skip(1).collect();
            if from_update {
                let i = lines
                    .iter()
                    .position(|l| l.starts_with("function update()"))
                    .unwrap();
                lines.drain(..i);
            }
            lines
                .iter()
                .flat_map(|l| tokens(split_comment(l).0))
                .collect()
        };
        let (w, l) = (data(whole), data(listing));
        assert_eq!(code(&l, false), code(&w, true), "{listing} vs {whole}");
        assert!(l.lines().next().unwrap().contains("Appendix A"));
    }
}

// ---------------------------------------------------------------------------------------
// Import (spec §6.1, §7, §8, A1, A12–A14).

fn grid(rows: &[&[i64]]) -> Value {
    json!(rows)
}

#[test]
fn the_puyo_program_imports_as_the_spec_describes() {
    let src = data("puyo.lua");
    let level = import_program(&src).unwrap();
    assert_eq!(level["kind"], "falling");
    assert_eq!(
        (level["width"].as_u64(), level["height"].as_u64()),
        (Some(6), Some(13))
    );
    let blocks = level["blocks"].as_array().unwrap();
    let expect = [
        ("red", [255, 0, 0]),
        ("green", [0, 255, 0]),
        ("blue", [80, 80, 255]),
        ("purple", [180, 0, 255]),
        ("yellow", [255, 255, 0]),
    ];
    assert_eq!(blocks.len(), 5);
    for (b, (name, color)) in blocks.iter().zip(expect) {
        assert_eq!(b["name"], name);
        assert_eq!(b["color"], json!(color));
        assert_eq!(b["form"], "round", "form 1 is round (A14)");
        assert_eq!(b["role"], "normal");
    }
    let tumos = level["tumos"].as_array().unwrap();
    assert_eq!(tumos.len(), 1);
    let t = &tumos[0];
    // Spec §8.1: block 2 stays in the centre, block 1 goes up, right, down, left.
    assert_eq!(
        t["states"],
        json!([
            grid(&[&[0, 1, 0], &[0, 2, 0], &[0, 0, 0]]),
            grid(&[&[0, 0, 0], &[0, 2, 1], &[0, 0, 0]]),
            grid(&[&[0, 0, 0], &[0, 2, 0], &[0, 1, 0]]),
            grid(&[&[0, 0, 0], &[1, 2, 0], &[0, 0, 0]]),
        ])
    );
    assert_eq!(t["pivot"], json!([1, 1]), "the axis block");
    assert_eq!(t["block"], "red", "kind tumo + 1 (A1)");
    assert_eq!(t["kicks"], "none");
    assert_eq!(level["quick_turn"], true);
    assert_eq!(level["hard_drop"], false);
    assert_eq!(level["shadow"], true);
    assert_eq!(level["clear"], json!([]));
    assert_eq!(level["fall"], json!([]));
    assert_eq!(
        level["sequence"],
        json!({"order": "random", "tumos": [t["name"]]})
    );
    assert_eq!(level["field"], json!(vec!["......"; 13]));
    assert_eq!(level["legend"], json!({}));
    assert_eq!(level["script"], src);
}

#[test]
fn the_tetris_program_imports_as_the_spec_describes() {
    let src = data("tetris.lua");
    let level = import_program(&src).unwrap();
    assert_eq!(
        (level["width"].as_u64(), level["height"].as_u64()),
        (Some(10), Some(20))
    );
    let names: Vec<&str> = level["blocks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "magenta",
            "orange",
            "blue",
            "green",
            "red",
            "yellow",
            "light blue"
        ]
    );
    let colors: Vec<Value> = level["blocks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["color"].clone())
        .collect();
    assert_eq!(
        colors,
        [
            json!([255, 40, 255]),
            json!([255, 155, 40]),
            json!([40, 40, 255]),
            json!([130, 255, 40]),
            json!([255, 40, 40]),
            json!([255, 255, 0]),
            json!([40, 155, 255])
        ]
    );
    assert!(
        level["blocks"]
            .as_array()
            .unwrap()
            .iter()
            .all(|b| b["form"] == "square")
    );
    let tumos = level["tumos"].as_array().unwrap();
    assert_eq!(tumos.len(), 1, "only the T piece is in the paper (L994)");
    let t = &tumos[0];
    // Spec §8.2: the bump points up, right, down, left.
    assert_eq!(
        t["states"],
        json!([
            grid(&[
                &[0, 0, 0, 0],
                &[0, -1, 0, 0],
                &[-1, -1, -1, 0],
                &[0, 0, 0, 0]
            ]),
            grid(&[
                &[0, 0, 0, 0],
                &[0, -1, 0, 0],
                &[0, -1, -1, 0],
                &[0, -1, 0, 0]
            ]),
            grid(&[
                &[0, 0, 0, 0],
                &[0, 0, 0, 0],
                &[-1, -1, -1, 0],
                &[0, -1, 0, 0]
            ]),
            grid(&[
                &[0, 0, 0, 0],
                &[0, -1, 0, 0],
                &[-1, -1, 0, 0],
                &[0, -1, 0, 0]
            ]),
        ])
    );
    assert_eq!(
        t["pivot"],
        json!([1, 2]),
        "row 2, column 1 is filled in all four states"
    );
    assert_eq!(t["block"], "magenta", "T = tumo 0 → kind 1 (A1)");
    assert_eq!(level["hard_drop"], true);
    assert_eq!(level["quick_turn"], false);
    assert_eq!(level["field"], json!(vec![".........."; 20]));
}

#[test]
fn a_between_cells_pivot_and_the_grid_centre() {
    // Panic Bomber-like pair in a 2×2 box: no cell is filled in every state.
    let src = "setFieldSize(8, 12)\ncreateBlockPattern(1)\ncreateBlockPattern(2)\n\
               setTumo({[0] = {1, 2}, [1] = {0, 0}}, 0, 0)\n\
               setTumo({[0] = {0, 1}, [1] = {0, 2}}, 0, 1)\n\
               setTumo({[0] = {0, 0}, [1] = {2, 1}}, 0, 2)\n\
               setTumo({[0] = {2, 0}, [1] = {1, 0}}, 0, 3)\n\
               function update() end";
    let level = import_program(src).unwrap();
    assert_eq!(level["tumos"][0]["pivot"], json!([0.5, 0.5]));
    assert_eq!(level["blocks"][0]["name"], "block 1", "no colour set");
    // A second tumo whose -1 cells take kind 2.
    let src2 = src.replace(
        "function update()",
        "setTumo({[0] = {-1}}, 1, 0)\nfunction update()",
    );
    let level = import_program(&src2).unwrap();
    assert_eq!(level["tumos"][1]["block"], "block 2");
    assert_eq!(level["tumos"][1]["pivot"], json!([0, 0]));
    assert_eq!(level["sequence"]["tumos"], json!(["tumo 0", "tumo 1"]));
}

#[test]
fn bad_setup_calls_are_errors_at_their_line() {
    let base = "setFieldSize(6, 13)\ncreateBlockPattern(1)\n";
    let cases: &[(&str, Option<usize>, &str)] = &[
        (
            "setTumo({[0] = {0, 1, 0}, [1] = {0, 1}}, 0, 0)\n",
            Some(3),
            "square",
        ),
        (
            "setTumo({[0] = {0, 1}, [5] = {1, 0}}, 0, 0)\n",
            Some(3),
            "outside",
        ),
        ("setTumo({[0] = {0, 7.5}}, 0, 0)\n", Some(3), "not a number"),
        ("setTumo({[0] = {0, -2}}, 0, 0)\n", Some(3), "-2"),
        (
            "setTumo({[0] = {1, 1}, [1] = {0, 0}}, 0, 0)\n",
            Some(3),
            "twice",
        ),
        ("setTumo({[0] = {0, 0}}, 0, 0)\n", Some(3), "no block"),
        (
            "setTumo({[0] = {1, 2, 3, 4, 5, 6, 7, 8, 9}}, 0, 0)\n",
            Some(3),
            "at most 8",
        ),
        ("setTumo(5, 0, 0)\n", Some(3), "table expected"),
        ("setTumo({[0] = {1}}, -1, 0)\n", Some(3), "tumo numbers"),
        ("setTumo({[0] = {1}}, 0, 8)\n", Some(3), "rotation shapes"),
        ("setFieldSize(300, 10)\n", Some(3), "width"),
        (
            "setFieldSize(256, 256)\nsetFieldSize(10, 0)\n",
            Some(4),
            "height",
        ),
        ("createBlockPattern(3)\n", Some(3), "the next is 2"),
        ("setBlockForm(2, 1)\n", Some(3), "not created"),
        ("setBlockFormColor(1, 0, 300, 0)\n", Some(3), "0 to 255"),
        ("setTumo({[0] = {1}}, 1, 0)\n", Some(3), "tumo 0 is missing"),
        (
            "setTumo({[0] = {1}}, 0, 0)\n\nsetTumo({[0] = {1}}, 0, 2)\n",
            Some(5),
            "shape 1 of tumo 0 is missing",
        ),
        (
            "setTumo({[0] = {1}}, 0, 0)\nsetTumo({[0] = {1, 0}}, 0, 1)\n",
            Some(4),
            "2 × 2",
        ),
        (
            "setTumo({[0] = {1, 0}}, 0, 0)\nsetTumo({[0] = {2, 0}}, 0, 1)\n",
            Some(4),
            "other blocks",
        ),
        (
            "setTumo({[0] = {-1}}, 0, 0)\nsetTumo({[0] = {-1}}, 1, 0)\n",
            Some(4),
            "only 1 kinds",
        ),
    ];
    for (extra, line, needle) in cases {
        let src = format!("{base}{extra}function update() end\n");
        let e = import_program(&src).unwrap_err();
        assert_eq!(e.line, *line, "{extra:?}: {e}");
        assert!(e.message.contains(needle), "{extra:?}: {e}");
    }
    let e = import_program("createBlockPattern(1)\nfunction update() end").unwrap_err();
    assert!(e.message.contains("setFieldSize"), "{e}");
    let e = import_program("setFieldSize(6, 13)\nfunction update() end").unwrap_err();
    assert!(e.message.contains("createBlockPattern"), "{e}");
    let e = import_program("setFieldSize(6, 13)\ncreateBlockPattern(1)\nfunction update() end")
        .unwrap_err();
    assert!(e.message.contains("setTumo"), "{e}");
    let e = import_program("setFieldSize(6, 13)\ncreateBlockPattern(1)\nsetTumo({[0]={1}}, 0, 0)")
        .unwrap_err();
    assert!(e.message.contains("update"), "{e}");
}

// ---------------------------------------------------------------------------------------
// The listings, verbatim, on small fields (spec Appendix A, A2, A3, A5, A7, A8).

#[test]
fn the_tetris_listing_clears_a_full_row_and_drops_the_rest_by_one() {
    for file in ["tetris_update.lua", "tetris.lua"] {
        let mut s = Script::new(&data(file)).unwrap();
        let f = TestField::new(&["..........", "1.........", "11.1111111", "1111111111"]);
        let req = run(&mut s, &f);
        assert_eq!(
            flags(&req, 10),
            ["..........", "..........", "..........", "##########"],
            "{file}"
        );
        // Every cell of the rows above (empty ones too) is asked to fall one row; the
        // cleared row keeps 0.
        assert_eq!(
            downs(&req, 10),
            [vec![1; 10], vec![1; 10], vec![1; 10], vec![0; 10]],
            "{file}"
        );

        // Two full rows: the rows above each fall by the number of full rows below them.
        let f = TestField::new(&["2.........", "1111111111", "3...3.....", "1111111111"]);
        let req = run(&mut s, &f);
        assert_eq!(
            flags(&req, 10),
            ["..........", "##########", "..........", "##########"]
        );
        assert_eq!(
            downs(&req, 10),
            [vec![2; 10], vec![0; 10], vec![1; 10], vec![0; 10]]
        );

        // A row completed by a block in motion is not full yet (only 0 < v < 100 count, A2).
        let f = TestField::new(&["1.........", "111111111a"]);
        let req = run(&mut s, &f);
        assert!(req.delete.iter().all(|d| !d));
        assert!(req.down.iter().all(|d| *d == 0));
    }
}

#[test]
fn the_puyo_listing_clears_groups_of_four_only_when_nothing_moves() {
    let rows = [
        "......", "......", "......", "......", "......", "......", "......", "......", "......",
        "......", "...2..", "11.2..", "11.2..",
    ];
    for file in ["puyo_update.lua", "puyo.lua"] {
        let mut s = Script::new(&data(file)).unwrap();
        let f = TestField::new(&rows);
        let req = run(&mut s, &f);
        let mut expect = vec!["......"; 13];
        expect[11] = "##....";
        expect[12] = "##....";
        assert_eq!(
            flags(&req, 6),
            expect,
            "{file}: the four reds, not the three greens"
        );
        assert!(
            req.down.iter().all(|d| *d == 13),
            "every cell asked to fall H cells"
        );

        // A block in motion anywhere: no clear (getAllBlockDownFlag, A7).
        let mut moving = rows;
        moving[0] = ".....c";
        let req = run(&mut s, &TestField::new(&moving));
        assert!(req.delete.iter().all(|d| !d), "{file}");

        // One of the reds in motion: the other three are a group of 3 (A8), and it is not
        // settled.
        let mut moving = rows;
        moving[11] = "1a.2..";
        let req = run(&mut s, &TestField::new(&moving));
        assert!(req.delete.iter().all(|d| !d), "{file}");
    }
}

#[test]
fn the_whole_programs_and_the_listings_make_the_same_requests() {
    let fields: [&[&str]; 3] = [
        &["1.2.3.", "123123", "111222", "333333"],
        &["..........", "1111111111", "2.2.2.2.2."],
        &["a.....", "1.....", "1111..", "2222.."],
    ];
    for (whole, listing) in [
        ("puyo.lua", "puyo_update.lua"),
        ("tetris.lua", "tetris_update.lua"),
    ] {
        let mut a = Script::new(&data(whole)).unwrap();
        let mut b = Script::new(&data(listing)).unwrap();
        for rows in fields {
            let f = TestField::new(rows);
            assert_eq!(run(&mut a, &f), run(&mut b, &f), "{whole} on {rows:?}");
        }
    }
}

// ---------------------------------------------------------------------------------------
// The API's edges (spec §6, A3, A5).

#[test]
fn set_requests_are_set_not_added_and_clamped() {
    let mut s = Script::new(
        "function update()\n\
           setBlockDownCellNum(0, 0, 5)\n\
           setBlockDownCellNum(0, 0, 2)\n\
           setBlockDownCellNum(1, 0, -3)\n\
           setBlockDownCellNum(1, 1, 4.0)\n\
           setBlockDownCellNum(0, 1, '7')\n\
           setBlockDownCellNum(2, 0, 9)\n\
           setBlockDownCellNum(0, 2, 9)\n\
           setBlockDownCellNum(-1, 0, 9)\n\
           setBlockDeleteFlag(1, 1)\n\
           setBlockDeleteFlag(5, 5)\n\
         end",
    )
    .unwrap();
    let f = TestField::new(&["1.", ".."]);
    let req = run(&mut s, &f);
    assert_eq!(req.down, [2, 0, 7, 4]);
    assert_eq!(req.delete, [false, false, false, true]);
}

#[test]
fn getters_read_outside_the_field_as_empty() {
    let mut s = Script::new(
        "function update()\n\
           local sum = getFieldBlock(-1, 0) + getFieldBlock(0, -1) + getFieldBlock(2, 0)\n\
             + getFieldBlock(0, 2) + getComboBlockNum(9, 9) + getComboBlockNum(-5, 1)\n\
           setBlockDownCellNum(0, 0, sum + getFieldBlock(0, 0) * 10 + getComboBlockNum(0, 0) * 100)\n\
           setBlockDownCellNum(1, 0, getFieldWidth() * 10 + getFieldHeight())\n\
           if getAllBlockDownFlag() then setBlockDownCellNum(0, 1, 1) end\n\
         end",
    )
    .unwrap();
    let f = TestField::new(&["3.", ".."]);
    let req = run(&mut s, &f);
    assert_eq!(req.down, [130, 22, 0, 0]);
    let f = TestField::new(&["3.", ".a"]);
    assert_eq!(run(&mut s, &f).down[2], 1);
}

#[test]
fn non_integer_coordinates_are_errors_at_their_line() {
    let e = update_err("function update()\n  local v = getFieldBlock(1.5, 0)\nend");
    assert_eq!(e.line, Some(2), "{e}");
    assert_eq!(
        e.message,
        "bad argument #1 to 'getFieldBlock' (number has no integer representation)"
    );
    let e = update_err("function update()\n\n  setBlockDownCellNum(0, 0, nil)\nend");
    assert_eq!(e.line, Some(3), "{e}");
    assert!(
        e.message
            .contains("#3 to 'setBlockDownCellNum' (number expected, got nil)"),
        "{e}"
    );
    let e = update_err("function update()\n  setBlockDeleteFlag({}, 0)\nend");
    assert!(e.message.contains("got table"), "{e}");
}

#[test]
fn setup_functions_exist_and_do_nothing_in_a_script() {
    let mut s = Script::new(
        "setFieldSize(99, 99) blockSize(30) setSuperRotation(true) setQuickTurn(true)\n\
         setClearMode(-1) setHardDrop(false) createBlockPattern(1) setBlockForm(1, 3)\n\
         setBlockFormColor(1, 1, 2, 3) setTumo({}, 0, 0)\n\
         function update() setBlockDownCellNum(0, 0, getFieldWidth()) end",
    )
    .unwrap();
    assert_eq!(run(&mut s, &TestField::new(&["..."])).down, [3, 0, 0]);
}

// ---------------------------------------------------------------------------------------
// Determinism: every frame starts from the program; no state survives a frame.

#[test]
fn a_script_keeps_no_state_between_frames() {
    let sources = [
        "n = (n or 0)\nfunction update() n = n + 1 setBlockDownCellNum(0, 0, n) end",
        "local c = 0\nfunction update() c = c + 1 setBlockDownCellNum(0, 0, c) end",
        "t = {0}\nfunction update() t[1] = t[1] + 1 setBlockDownCellNum(0, 0, t[1]) end",
        "function update() math.n = (math.n or 0) + 1 setBlockDownCellNum(0, 0, math.n) end",
        "function update() string.n = (string.n or 0) + 1 setBlockDownCellNum(0, 0, string.n) end",
        "function update() _G.k = (rawget(_G, 'k') or 0) + 1 setBlockDownCellNum(0, 0, k) end",
        "function update() local s = ('x').len if s then setBlockDownCellNum(0, 0, 1) end end",
    ];
    for src in sources {
        let mut s = Script::new(src).unwrap();
        let f = TestField::new(&["."]);
        for frame in 0..3 {
            assert_eq!(run(&mut s, &f).down, [1], "{src}: frame {frame}");
        }
    }
}

#[test]
fn iteration_and_printing_do_not_depend_on_addresses_or_hash_seeds() {
    let mut s = Script::new(
        "function update()\n\
           local t = {zeta = 1, alpha = 2, [3] = 0, [1] = 0, mid = 3, [2.5] = 0, [true] = 0}\n\
           local keys = ''\n\
           for k in pairs(t) do keys = keys .. tostring(k) .. ',' end\n\
           local k2, n = '', nil\n\
           repeat n = next(t, n) if n ~= nil then k2 = k2 .. tostring(n) .. ',' end until n == nil\n\
           local ok = keys == '1,2.5,3,alpha,mid,zeta,true,' and k2 == keys\n\
             and tostring({}) == 'table' and tostring(print) == 'nil'\n\
             and string.format('%s', {}) == 'table' and not pcall(string.format, '%p', {})\n\
           local a = {5, 3, 9, 1, 3}\n\
           table.sort(a)\n\
           table.sort(a, function(x, y) return x > y end)\n\
           ok = ok and table.concat(a, ' ') == '9 5 3 3 1'\n\
           if ok then setBlockDownCellNum(0, 0, 1) end\n\
         end",
    )
    .unwrap();
    assert_eq!(run(&mut s, &TestField::new(&["."])).down, [1]);
}

// ---------------------------------------------------------------------------------------
// The sandbox.

#[test]
fn unsafe_functions_are_absent() {
    let cases = [
        ("io.open('/etc/passwd')", "'io'"),
        ("os.execute('true')", "'os'"),
        ("require('os')", "'require'"),
        ("dofile('/etc/passwd')", "'dofile'"),
        ("loadfile('/etc/passwd')", "'loadfile'"),
        ("load(string.dump(function() end))", "'dump'"),
        ("load('return 1')", "'load'"),
        ("string.dump(function() end)", "'dump'"),
        ("('x').dump(function() end)", "'dump'"),
        ("getmetatable('').__index.dump(function() end)", "index"),
        ("debug.getinfo(1)", "'debug'"),
        ("coroutine.create(function() end)", "'coroutine'"),
        ("package.loadlib('x', 'y')", "'package'"),
        ("print('x')", "'print'"),
        ("collectgarbage('stop')", "'collectgarbage'"),
        ("math.random()", "'random'"),
        ("string.find('aaa', 'a')", "'find'"),
        ("setmetatable({}, {__gc = function() end})", "__gc"),
    ];
    for (code, needle) in cases {
        // At the top level and inside update().
        let e = err(&format!("\n{code}\nfunction update() end"));
        assert_eq!(e.line, Some(2), "{code}: {e}");
        assert!(e.message.contains(needle), "{code}: {e}");
        let e = update_err(&format!("function update()\n  {code}\nend"));
        assert_eq!(e.line, Some(2), "{code}: {e}");
        assert!(e.message.contains(needle), "{code}: {e}");
    }
}

#[test]
fn endless_loops_stop_on_the_instruction_budget() {
    let t = Instant::now();
    let e = update_err("function update()\n  while true do end\nend");
    let took = t.elapsed();
    assert!(e.message.starts_with("instruction budget exceeded"), "{e}");
    assert!(e.message.contains(&INSTRUCTION_BUDGET.to_string()), "{e}");
    assert_eq!(e.line, Some(2));
    println!("update(): `while true do end` stopped after {took:?}");

    let t = Instant::now();
    let e = err("x = 1\nwhile true do x = x + 1 end\nfunction update() end");
    println!("top level: an endless loop stopped after {:?}", t.elapsed());
    assert!(e.message.starts_with("instruction budget exceeded"), "{e}");
    assert_eq!(e.line, Some(2));
    let e = import_program("while true do end\nfunction update() end").unwrap_err();
    assert!(e.message.starts_with("instruction budget exceeded"), "{e}");

    // pcall cannot catch a stop, and the script can run again next frame.
    let src = "function update()\n  while true do pcall(function() while true do end end) end\nend";
    let mut s = Script::new(src).unwrap();
    let f = TestField::new(&["."]);
    for _ in 0..2 {
        let mut req = f.requests();
        let e = s.update(&f, &mut req).unwrap_err();
        assert!(e.message.starts_with("instruction budget exceeded"), "{e}");
    }
    // Host loops are charged too.
    for code in [
        "table.move({}, 1, 1e15, 2)",
        "table.insert(setmetatable({}, {__len = function() return 1e15 end}), 1, 0)",
        "local t = {} for i = 1, 1000 do t[i] = i end for i = 1, 1e9 do next(t, 999) end",
    ] {
        let t = Instant::now();
        let e = update_err(&format!("function update()\n  {code}\nend"));
        println!("{code}: stopped after {:?}: {e}", t.elapsed());
        assert_eq!(e.line, Some(2), "{code}: {e}");
        assert!(
            e.message.starts_with("instruction budget exceeded")
                || e.message.starts_with("time limit exceeded"),
            "{code}: {e}"
        );
        assert!(t.elapsed() < Duration::from_secs(10), "{code}");
    }
    // string.rep of nothing is done at once.
    let mut s = Script::new(
        "function update() if string.rep('', 1e18) == '' then setBlockDownCellNum(0, 0, 1) end end",
    )
    .unwrap();
    assert_eq!(run(&mut s, &TestField::new(&["."])).down, [1]);
}

#[test]
fn memory_bombs_stop_on_the_memory_limit() {
    for src in [
        "function update()\n  local t = {} for i = 1, 1e9 do t[i] = i end\nend",
        "function update()\n  local s = 'x' while true do s = s .. s end\nend",
        "function update()\n  local s = string.rep('x', 1e9)\nend",
        "function update()\n  local ok = pcall(function() local t = {} for i = 1, 1e9 do t[i] = i end end)\nend",
    ] {
        let t = Instant::now();
        let e = update_err(src);
        println!("{src:?}: stopped after {:?}", t.elapsed());
        assert!(e.message.starts_with("memory limit exceeded"), "{src}: {e}");
    }
    let e = err("local t = {}\nfor i = 1, 1e9 do t[i] = {} end\nfunction update() end");
    assert!(e.message.starts_with("memory limit exceeded"), "{e}");
    assert_eq!(e.line, Some(2), "the line where the script was last seen");
}

#[test]
fn expensive_instructions_stop_on_the_time_limit() {
    let t = Instant::now();
    let e = update_err(
        "function update()\n  local s = string.rep('x', 4e6)\n  while true do local u = s .. 'y' end\nend",
    );
    let took = t.elapsed();
    println!("4 MB concatenations: stopped after {took:?}: {e}");
    assert!(
        e.message.starts_with("time limit exceeded") || e.message.starts_with("instruction budget"),
        "{e}"
    );
    assert!(took < Duration::from_secs(10));
}

#[test]
fn runtime_and_syntax_errors_name_their_line() {
    let e = update_err("function update()\n  local a = 1\n  local b = nil + a\nend");
    assert_eq!(e.line, Some(3));
    assert!(
        e.message
            .starts_with("attempt to perform arithmetic on a nil value"),
        "{e}"
    );
    assert_eq!(e.to_string(), format!("script line 3: {}", e.message));
    assert_eq!(ScriptError::line_in_message(&e.to_string()), Some(3));

    let e = update_err(
        "local function helper()\n  error('boom')\nend\nfunction update()\n  helper()\nend",
    );
    assert_eq!((e.line, e.message.as_str()), (Some(2), "boom"));
    let e = update_err("function update()\n\n  error({})\nend");
    assert_eq!(
        e.line,
        Some(3),
        "a non-string error is placed by the traceback: {e}"
    );
    let e = update_err("function update()\n  undefinedFunction()\nend");
    assert_eq!(e.line, Some(2));
    assert!(e.message.contains("global 'undefinedFunction'"), "{e}");
    let e = err("x = 1\n\nfunction update(\n  x = = 2\nend");
    assert_eq!(e.line, Some(4), "{e}");
    let e = err("function update()\n  if x then\nend");
    assert!(e.message.contains("'end' expected"), "{e}");
    let e = update_err(
        "function update()\n  table.sort({3, 1, 2}, function(a, b)\n    error('cmp')\n  end)\nend",
    );
    assert_eq!((e.line, e.message.as_str()), (Some(3), "cmp"));
}

#[test]
fn a_script_without_update_is_refused() {
    for src in [
        "x = 1",
        "update = 5",
        "",
        "-- just a comment",
        "local function update() end",
    ] {
        let e = err(src);
        assert_eq!(
            e.message, "the script defines no function update()",
            "{src}"
        );
        assert_eq!(e.line, None);
    }
    let e = err(&"-".repeat(2 << 20));
    assert!(e.message.contains("too long"), "{e}");
}

// ---------------------------------------------------------------------------------------
// Nothing panics.

const WORDS: &[&str] = &[
    "function update()",
    "end",
    "while true do",
    "for i = 1, 10 do",
    "if",
    "then",
    "else",
    "local x =",
    "x =",
    "return",
    "(",
    ")",
    "{",
    "}",
    "[0] =",
    ",",
    "1",
    "-1",
    "1e308",
    "0/0",
    "nil",
    "'s'",
    "..",
    "#",
    "getFieldBlock(",
    "setBlockDownCellNum(",
    "setBlockDeleteFlag(",
    "getComboBlockNum(",
    "setTumo(",
    "setFieldSize(",
    "createBlockPattern(",
    "pcall(",
    "table.sort(",
    "pairs(",
    "next(",
    "string.rep(",
    "setmetatable(",
    "error(",
    "x",
    "t",
    ";",
    "\n",
    "=",
    "+",
    "..",
    "{[0]={1}}",
    "math.huge",
    "string.format('%d',",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let src = String::from_utf8_lossy(&bytes);
        let _ = Script::new(&src);
        let _ = import_program(&src);
    }

    #[test]
    fn random_token_soup_never_panics(words in proptest::collection::vec(0..WORDS.len(), 0..40)) {
        let src: Vec<&str> = words.iter().map(|i| WORDS[*i]).collect();
        let src = src.join(" ");
        if let Ok(mut s) = Script::new(&src) {
            let f = TestField::new(&["1.", "a2"]);
            let mut req = f.requests();
            let _ = s.update(&f, &mut req);
        }
        let _ = import_program(&src);
    }
}
