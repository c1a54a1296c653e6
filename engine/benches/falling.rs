//! The falling kind's field rules: one frame of built-in rules (`builtin_update`, the requests
//! only) on mid-game Tetris (10×20, `rows` + `rows`) and Puyo Puyo (6×13, `connected 4` +
//! `gravity`, hidden row) fields, and resolving the 19-chain field of the Puyo corpus
//! (`../shared/corpus/falling/puyo_chain_cases.json`, `CoreFieldTest.ChainAndScoreTest3#1`)
//! from start to settled with `settle`. Figures go to BENCHMARKS.md.
//!
//! Run: `cargo bench -p tilesmith-engine --bench falling`.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use serde_json::Value;
use tilesmith_engine::kind::falling::field::{
    EMPTY, Field, Requests, RuleContext, builtin_update, settle,
};
use tilesmith_engine::kind::falling::level::{ClearRule, FallLaw, Role};

/// Puyo kinds: R B Y G normal (ids 1–4), O garbage (5), & iron (6).
const PUYO_ROLES: [Role; 6] = [
    Role::Normal,
    Role::Normal,
    Role::Normal,
    Role::Normal,
    Role::Garbage,
    Role::Iron,
];
/// Tetris kinds 1–7, all normal.
const TETRIS_ROLES: [Role; 7] = [Role::Normal; 7];

/// A small deterministic generator (xorshift64), so the fields are the same on every run.
struct Gen(u64);

impl Gen {
    fn next(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// The first corpus case asserting a 19-chain, as a 6×13 field (row 13 = `y` 0).
fn nineteen_chain() -> Field {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/corpus/falling/puyo_chain_cases.json"
    );
    let text =
        std::fs::read_to_string(path).expect("the shared corpus must be beside the workspace");
    let doc: Value = serde_json::from_str(&text).expect("the corpus is JSON");
    let case = doc["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .find(|c| c["expected"]["chains"].as_u64() == Some(19))
        .expect("a 19-chain case");
    let rows = case["field"].as_array().expect("field rows");
    let mut f = Field::new(6, 13);
    let top = 13 - rows.len();
    for (k, r) in rows.iter().enumerate() {
        for (x, c) in r.as_str().expect("a row").chars().enumerate() {
            let id = match c {
                'R' => 1,
                'B' => 2,
                'Y' => 3,
                'G' => 4,
                'O' => 5,
                '&' => 6,
                _ => EMPTY,
            };
            f.set(x as i64, (top + k) as i64, id);
        }
    }
    f
}

/// A settled 10×20 Tetris stack: column heights 6–11, each row with one or two holes, and
/// two full rows (the frame clears them and drops the rest).
fn tetris_mid_game() -> Field {
    let mut g = Gen(0x9e37_79b9_7f4a_7c15);
    let mut f = Field::new(10, 20);
    for x in 0..10 {
        let h = 6 + g.next(6) as usize;
        for y in 20 - h..20 {
            f.cells[y * 10 + x] = 1 + g.next(7) as u8;
        }
    }
    for y in 12..20 {
        f.cells[y * 10 + g.next(10) as usize] = EMPTY;
    }
    for y in [17, 15] {
        for x in 0..10 {
            f.cells[y * 10 + x] = 1 + g.next(7) as u8;
        }
    }
    f
}

/// A settled 6×13 Puyo field: column heights 5–9 of four colours, a little ojama at the
/// bottom, with one group of four in it.
fn puyo_mid_game() -> Field {
    let mut g = Gen(0x2545_f491_4f6c_dd1d);
    let mut f = Field::new(6, 13);
    for x in 0..6 {
        let h = 5 + g.next(5) as usize;
        for y in 13 - h..13 {
            f.cells[y * 6 + x] = if y == 12 && g.next(3) == 0 {
                5
            } else {
                1 + g.next(4) as u8
            };
        }
    }
    for (x, y) in [(0, 6), (0, 7), (1, 7), (2, 7)] {
        f.cells[y * 6 + x] = 2;
    }
    f
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("falling");

    let start = nineteen_chain();
    let clear = [ClearRule::Connected { min: 4 }];
    let gravity = [FallLaw::Gravity];
    {
        let mut f = start.clone();
        let steps = settle(&mut f, &PUYO_ROLES, 1, &clear, &gravity);
        assert_eq!(steps.len(), 19, "the corpus field must give a 19-chain");
    }
    group.bench_function("settle_19_chain", |b| {
        b.iter_batched(
            || start.clone(),
            |mut f| {
                let steps = settle(&mut f, &PUYO_ROLES, 1, &clear, &gravity);
                black_box((f, steps))
            },
            BatchSize::SmallInput,
        )
    });

    let tetris = tetris_mid_game();
    let mut req = Requests::new(tetris.cells.len());
    let cx = RuleContext {
        roles: &TETRIS_ROLES,
        hidden_rows: 0,
        moving: &[],
    };
    builtin_update(&tetris, &cx, &[ClearRule::Rows], &[FallLaw::Rows], &mut req);
    assert_eq!(
        req.delete.iter().filter(|&&d| d).count(),
        20,
        "two full rows"
    );
    group.bench_function("builtin_update_tetris_10x20", |b| {
        b.iter(|| {
            req.reset();
            builtin_update(
                black_box(&tetris),
                &cx,
                &[ClearRule::Rows],
                &[FallLaw::Rows],
                &mut req,
            );
            black_box(&req);
        })
    });

    let puyo = puyo_mid_game();
    let mut req = Requests::new(puyo.cells.len());
    let cx = RuleContext {
        roles: &PUYO_ROLES,
        hidden_rows: 1,
        moving: &[],
    };
    builtin_update(&puyo, &cx, &clear, &gravity, &mut req);
    assert!(req.delete.iter().any(|&d| d), "a group to clear");
    group.bench_function("builtin_update_puyo_6x13", |b| {
        b.iter(|| {
            req.reset();
            builtin_update(black_box(&puyo), &cx, &clear, &gravity, &mut req);
            black_box(&req);
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
