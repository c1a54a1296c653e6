//! One frame of the paper's FPGDL `update()` listings (spec Appendix A) and of its two whole
//! programs (whose top level runs again every frame, see `fpgdl`), on mid-game fields: Tetris
//! 10 × 20 (bottom nine rows stacked with one hole each, one row full) and Puyo Puyo 6 × 13
//! (bottom eight rows of a seeded colour mix). The field view answers from plain arrays with
//! the combo sizes computed once beforehand, as a caller may cache them. Also the floor (an
//! empty `update()`), loading a script, importing a program, and how long a script that
//! exceeds a budget takes to stop. Figures go to BENCHMARKS.md.
//!
//! Run: `cargo bench -p tilesmith-engine --bench falling_lua`.

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{Criterion, criterion_group, criterion_main};
use tilesmith_engine::kind::falling::Requests;
use tilesmith_engine::kind::falling::fpgdl::{FieldView, Script, import_program};

/// A field as the view sees it: codes (0, kind, 100 + kind) and cached combo sizes.
struct BenchField {
    w: i64,
    h: i64,
    cells: Vec<i64>,
    combo: Vec<i64>,
}

impl BenchField {
    fn new(w: usize, h: usize, cells: Vec<i64>) -> Self {
        let mut combo = vec![0; cells.len()];
        for start in 0..cells.len() {
            let k = cells[start];
            if k == 0 || k >= 100 || combo[start] != 0 {
                continue;
            }
            let mut group = Vec::new();
            let mut stack = vec![start];
            let mut seen = vec![false; cells.len()];
            while let Some(i) = stack.pop() {
                if seen[i] || cells[i] != k {
                    continue;
                }
                seen[i] = true;
                group.push(i);
                let (x, y) = (i % w, i / w);
                if x > 0 {
                    stack.push(i - 1);
                }
                if x + 1 < w {
                    stack.push(i + 1);
                }
                if y > 0 {
                    stack.push(i - w);
                }
                if y + 1 < h {
                    stack.push(i + w);
                }
            }
            for &i in &group {
                combo[i] = group.len() as i64;
            }
        }
        Self {
            w: w as i64,
            h: h as i64,
            cells,
            combo,
        }
    }

    fn index(&self, x: i64, y: i64) -> usize {
        (y * self.w + x) as usize
    }
}

impl FieldView for BenchField {
    fn width(&self) -> i64 {
        self.w
    }
    fn height(&self) -> i64 {
        self.h
    }
    fn block(&self, x: i64, y: i64) -> i64 {
        self.cells[self.index(x, y)]
    }
    fn combo(&self, x: i64, y: i64) -> i64 {
        self.combo[self.index(x, y)]
    }
    fn all_down(&self) -> bool {
        false
    }
}

/// Tetris 10 × 20: rows 11–19 stacked with one hole each (row 19 full), rows above empty.
fn tetris_field() -> BenchField {
    let (w, h) = (10, 20);
    let mut cells = vec![0; w * h];
    for y in 11..h {
        for x in 0..w {
            let hole = (y * 7) % w;
            if y == h - 1 || x != hole {
                cells[y * w + x] = 1 + ((x + y) % 7) as i64;
            }
        }
    }
    BenchField::new(w, h, cells)
}

/// Puyo Puyo 6 × 13: rows 5–12 of a seeded mix of 4 colours.
fn puyo_field() -> BenchField {
    let (w, h) = (6, 13);
    let mut cells = vec![0; w * h];
    let mut s: u32 = 12345;
    for y in 5..h {
        for x in 0..w {
            s = s.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            cells[y * w + x] = 1 + i64::from((s >> 16) % 4);
        }
    }
    BenchField::new(w, h, cells)
}

fn data(name: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/fpgdl")
        .join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn bench(c: &mut Criterion) {
    let tetris = tetris_field();
    let puyo = puyo_field();
    let cases: [(&str, String, &BenchField); 5] = [
        (
            "empty update, 10x20",
            "function update() end".into(),
            &tetris,
        ),
        ("tetris listing, 10x20", data("tetris_update.lua"), &tetris),
        ("tetris program, 10x20", data("tetris.lua"), &tetris),
        ("puyo listing, 6x13", data("puyo_update.lua"), &puyo),
        ("puyo program, 6x13", data("puyo.lua"), &puyo),
    ];
    let mut g = c.benchmark_group("lua frame");
    for (name, src, field) in &cases {
        let mut script = Script::new(src).expect("the script loads");
        let mut req = Requests::new(field.cells.len());
        g.bench_function(*name, |b| {
            b.iter(|| {
                req.reset();
                script
                    .update(black_box(*field), &mut req)
                    .expect("the frame runs");
                black_box(&req);
            })
        });
    }
    g.finish();
    let tetris_src = data("tetris.lua");
    c.bench_function("Script::new, tetris program", |b| {
        b.iter(|| Script::new(black_box(&tetris_src)).expect("loads"))
    });
    c.bench_function("import_program, tetris program", |b| {
        b.iter(|| import_program(black_box(&tetris_src)).expect("imports"))
    });

    // How long a script that exceeds a budget takes to stop.
    let mut g = c.benchmark_group("stop");
    g.sample_size(10);
    let stops = [
        (
            "endless loop (instruction budget)",
            "function update() while true do end end",
        ),
        (
            "endless loop calling the API (instruction budget)",
            "function update() while true do getFieldBlock(1, 1) end end",
        ),
        (
            "memory bomb (memory limit)",
            "function update() local t = {} for i = 1, 1e9 do t[i] = i end end",
        ),
    ];
    for (name, src) in stops {
        let mut script = Script::new(src).expect("the script loads");
        let mut req = Requests::new(tetris.cells.len());
        g.bench_function(name, |b| {
            b.iter(|| script.update(&tetris, &mut req).expect_err("stops"))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
