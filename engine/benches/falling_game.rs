//! The falling kind through the game: one whole frame ([`Game::step`] through the trait, the
//! undo journal included) of Tetris (10 × 20, seven SRS tetrominoes, `rows` + `rows`) and of
//! Puyo Puyo (6 × 13, a pair, `connected 4` + `gravity`, hidden row, Tsu score) on mid-game
//! fields with a tumo in play, once with the built-in rules and once with the same levels
//! whose rules are the paper's `update()` listings (`tests/data/fpgdl/*_update.lua`) as
//! `script`; resolving the 19-chain field of the Puyo corpus from start to settled, through
//! the game with instant timing and through `field::settle`; and, in the same run, the floors:
//! cloning the field, [`Game::state_hash`], and a frame whose script is an empty `update()`.
//! Figures go to BENCHMARKS.md ("Falling blocks").
//!
//! Each frame is measured from the same state: the frame is stepped (timed) and then undone
//! (not timed), so every sample sees the same field, tumo and RNG. Two frames per level:
//! `move` (input L: the tumo moves a column, gravity ticks, the rules find nothing) and
//! `drop` (input HD: the tumo is placed, the rules clear (Tetris: four rows; Puyo: the first
//! step of a 7-chain) and the blocks above fall, all in that frame since `timing.clear` and
//! `timing.fall` are 0), the heaviest frame a level has.
//!
//! Run: `cargo bench -p tilesmith-engine --bench falling_game`.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use serde_json::{Map, Value, json};
use tilesmith_engine::game::{Game, GameKind};
use tilesmith_engine::input::Input;
use tilesmith_engine::kind::falling::field::{EMPTY, Field, settle};
use tilesmith_engine::kind::falling::level::{ClearRule, FallLaw, Role};
use tilesmith_engine::kind::falling::shape::{
    kicks_180_i, kicks_180_jlstz, srs_i, srs_jlstz, srs_o, tetromino_pivot, tetromino_states,
};
use tilesmith_engine::kind::falling::{FallingGame, Kicks};
use tilesmith_engine::kind::kind_named;

fn falling() -> &'static dyn GameKind {
    kind_named("falling").expect("the falling kind is registered")
}

fn data(name: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/fpgdl")
        .join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// A guideline tetromino as a `tumos[i]` member: the engine's SRS states and kicks (the 180°
/// pairs from NullpoMino's table), as a level designer's file would hold them.
fn tetromino(p: char) -> Value {
    let states = tetromino_states(p).expect("a tetromino");
    let kicks = match p {
        'I' => srs_i().merged(&kicks_180_i()),
        'O' => srs_o(),
        _ => srs_jlstz().merged(&kicks_180_jlstz()),
    };
    let Kicks::Table(table) = kicks else {
        unreachable!("the presets are tables")
    };
    let kicks: Map<String, Value> = table
        .iter()
        .map(|((i, j), tests)| (format!("{i}>{j}"), json!(tests)))
        .collect();
    json!({
        "name": p.to_string(),
        "block": p.to_string(),
        "states": states
            .iter()
            .map(|g| g.cells.chunks(g.side).map(<[i8]>::to_vec).collect::<Vec<_>>())
            .collect::<Vec<_>>(),
        "pivot": tetromino_pivot(p),
        "kicks": kicks,
    })
}

/// Tetris 10 × 20, guideline-like: seven SRS pieces, 7-bag, hard drop, shadow, gravity a
/// cell every 30 frames, lock 30. A settled mid-game stack (heights 6–10, six holes, no full
/// row) with a well in column 9; an I stands upright in the well's column at the top, so a
/// hard drop clears the four bottom rows. `script`: `None` for the built-in `rows` + `rows`,
/// else the rules are only the script.
fn tetris_level(script: Option<&str>) -> Value {
    let pieces = "IOTSZJL";
    let mut doc = json!({
        "kind": "falling", "name": "bench tetris", "width": 10, "height": 20,
        "blocks": pieces.chars().map(|p| json!({"name": p.to_string()})).collect::<Vec<_>>(),
        "tumos": pieces.chars().map(tetromino).collect::<Vec<_>>(),
        "hard_drop": true, "shadow": true,
        "clear": [{"rule": "rows"}], "fall": ["rows"],
        "sequence": {"order": "bag", "tumos": pieces.chars().map(String::from).collect::<Vec<_>>()},
        "timing": {"gravity": 30, "soft_drop": 2, "lock": 30, "spawn": 0, "clear": 0,
                   "fall": 0, "land": 0},
        "score": {"rule": "rows", "points": [0, 100, 300, 500, 800]},
        "legend": pieces.chars().map(|p| (p.to_string(), json!(p.to_string()))).collect::<Map<_, _>>(),
        "field": [
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
            "....O.....",
            "...LT.....",
            ".O.I.L....",
            "LT.OZ.S.T.",
            "IS..JOZIS.",
            ".ZISLTJ.Z.",
            "TJOZISLTJ.",
            "SLTJOZISL.",
            "ZISLTJOZI.",
            "JOZISLTJO."
        ],
        // State 1 (right) of the 4 × 4 I has its blocks in grid column 2: column 9, rows 0–3.
        "active": {"tumo": "I", "state": 1, "x": 7, "y": 0},
    });
    if let Some(src) = script {
        doc["clear"] = json!([]);
        doc["fall"] = json!([]);
        doc["script"] = json!(src);
    }
    doc
}

/// Puyo Puyo Tsu 6 × 13 (row 0 hidden), the pair of the editor's Puyo design with hard drop
/// on, a settled mid-game field (heights 4–8, four colours, no group of four) and a green
/// over red pair in play above column 0: dropped, it sets off a 7-chain. `script` as for
/// [`tetris_level`].
fn puyo_level(script: Option<&str>) -> Value {
    let mut doc = json!({
        "kind": "falling", "name": "bench puyo", "width": 6, "height": 13, "hidden_rows": 1,
        "blocks": [{"name": "red"}, {"name": "green"}, {"name": "blue"}, {"name": "yellow"},
                   {"name": "ojama", "role": "garbage"}],
        "tumos": [{
            "name": "pair",
            "states": [
                [[0, 1, 0], [0, 2, 0], [0, 0, 0]],
                [[0, 0, 0], [0, 2, 1], [0, 0, 0]],
                [[0, 0, 0], [0, 2, 0], [0, 1, 0]],
                [[0, 0, 0], [1, 2, 0], [0, 0, 0]]
            ],
            "block": "red",
            "labels": ["red", "green", "blue", "yellow"],
            "pivot": [1, 1],
            "kicks": {"0>1": [[0, 0], [-1, 0]], "1>2": [[0, 0], [0, -1]],
                      "2>3": [[0, 0], [1, 0]], "3>0": [[0, 0]],
                      "1>0": [[0, 0]], "2>1": [[0, 0], [-1, 0]],
                      "3>2": [[0, 0], [0, -1]], "0>3": [[0, 0], [1, 0]]},
            "spawn": [1, 0]
        }],
        "quick_turn": true, "hard_drop": true, "shadow": true,
        "clear": [{"rule": "connected", "min": 4}], "fall": ["gravity"],
        "sequence": {"order": "random", "tumos": ["pair"]},
        "score": {"rule": "puyo"},
        "timing": {"gravity": 30, "soft_drop": 2, "lock": 30, "spawn": 0, "clear": 0,
                   "fall": 0, "land": 0},
        "legend": {"R": "red", "G": "green", "B": "blue", "Y": "yellow", "O": "ojama"},
        "field": [
            "......",
            "......",
            "......",
            "......",
            "......",
            ".Y.G.R",
            ".GRBBR",
            ".RYRYY",
            ".GRRBB",
            "RYBBYB",
            "RRYRGY",
            "YGGRRY",
            "BRGBYB"
        ],
        "active": {"tumo": "pair", "state": 0, "x": -1, "y": 0, "labels": ["green", "red"]},
    });
    if let Some(src) = script {
        doc["clear"] = json!([]);
        doc["fall"] = json!([]);
        doc["script"] = json!(src);
    }
    doc
}

/// The first corpus case asserting a 19-chain: its field rows, top first.
fn nineteen_chain_rows() -> Vec<String> {
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
    case["field"]
        .as_array()
        .expect("field rows")
        .iter()
        .map(|r| r.as_str().expect("a row").to_string())
        .collect()
}

/// The Tsu level of `tests/tests/falling_game.rs` holding the 19-chain field, no tumo, with
/// every timing 0: the chain advances one step a frame.
fn nineteen_chain_level() -> Value {
    let field = nineteen_chain_rows();
    let mut rows = vec!["......".to_string(); 13 - field.len()];
    rows.extend(field);
    json!({
        "kind": "falling", "width": 6, "height": 13, "hidden_rows": 1,
        "blocks": [{"name": "red"}, {"name": "blue"}, {"name": "yellow"}, {"name": "green"},
                   {"name": "ojama", "role": "garbage"}, {"name": "iron", "role": "iron"}],
        "clear": [{"rule": "connected", "min": 4}], "fall": ["gravity"],
        "score": {"rule": "puyo"},
        "timing": {"gravity": 0, "soft_drop": 0, "lock": 0, "spawn": 0, "clear": 0, "fall": 0, "land": 0},
        "legend": {"R": "red", "B": "blue", "Y": "yellow", "G": "green", "O": "ojama", "&": "iron"},
        "field": rows
    })
}

/// The 19-chain field as a [`Field`] for `settle` (ids as the level's blocks).
fn nineteen_chain_field() -> Field {
    let rows = nineteen_chain_rows();
    let mut f = Field::new(6, 13);
    let top = 13 - rows.len();
    for (k, r) in rows.iter().enumerate() {
        for (x, c) in r.chars().enumerate() {
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

fn start(doc: &Value) -> Box<dyn Game> {
    falling()
        .start(doc, 7)
        .unwrap_or_else(|e| panic!("the bench level must load: {e:?}"))
}

fn as_falling(g: &dyn Game) -> &FallingGame {
    g.as_any()
        .downcast_ref::<FallingGame>()
        .expect("a falling game")
}

/// Steps the 19-chain game until it has settled; returns its max chain.
fn resolve(g: &mut dyn Game) -> u32 {
    for _ in 0..100 {
        g.step(Input::Wait);
        if as_falling(g).is_settled() {
            break;
        }
    }
    as_falling(g).max_chain()
}

/// Times `input` from the game's current state, undoing it after each (untimed).
fn bench_frame(
    c: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    game: &mut dyn Game,
    input: Input,
) {
    c.bench_function(name, |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let t = Instant::now();
                let r = game.step(black_box(input));
                total += t.elapsed();
                black_box(r);
                assert!(game.undo(), "the frame is undone");
            }
            total
        })
    });
}

/// What a frame did, for the sanity checks: (field cells, score, rows, chain, active tumo).
fn outcome(g: &dyn Game) -> (Vec<u8>, u64, u64, u32, Option<(i32, i32)>) {
    let f = as_falling(g);
    (
        f.field().cells.clone(),
        f.score(),
        f.rows(),
        f.chain(),
        f.active().map(|a| (a.x, a.y)),
    )
}

fn bench(c: &mut Criterion) {
    let tetris_lua = data("tetris_update.lua");
    let puyo_lua = data("puyo_update.lua");
    let levels = [
        (
            "tetris 10x20",
            tetris_level(None),
            tetris_level(Some(&tetris_lua)),
        ),
        ("puyo 6x13", puyo_level(None), puyo_level(Some(&puyo_lua))),
    ];

    // Sanity: the levels do what the doc says, and the listings do what the built-in rules do.
    for (name, builtin, lua) in &levels {
        for input in [Input::Move(tilesmith_engine::Dir::Left), Input::HardDrop] {
            let mut a = start(builtin);
            let mut b = start(lua);
            a.step(input);
            b.step(input);
            assert_eq!(outcome(a.as_ref()), outcome(b.as_ref()), "{name} {input:?}");
            let r = as_falling(a.as_ref()).last_frame();
            if input == Input::HardDrop {
                assert!(r.clear.is_some(), "{name}: the drop clears");
            } else {
                assert!(
                    r.clear.is_none() && r.placed.is_empty(),
                    "{name}: the move is quiet"
                );
            }
        }
    }
    {
        let a = start(&levels[0].1);
        let mut a = a;
        a.step(Input::HardDrop);
        assert_eq!(as_falling(a.as_ref()).rows(), 4, "tetris: a four-row clear");
        let mut p = start(&levels[1].1);
        for _ in 0..40 {
            p.step(if p.steps() == 0 {
                Input::HardDrop
            } else {
                Input::Wait
            });
        }
        assert_eq!(
            as_falling(p.as_ref()).max_chain(),
            7,
            "puyo: the drop sets off a 7-chain"
        );
    }

    let mut g = c.benchmark_group("falling frame");
    for (name, builtin, lua) in &levels {
        for (rules, doc) in [("built-in", builtin), ("lua listing", lua)] {
            let mut game = start(doc);
            bench_frame(
                &mut g,
                &format!("{name} {rules}, move"),
                game.as_mut(),
                Input::Move(tilesmith_engine::Dir::Left),
            );
            bench_frame(
                &mut g,
                &format!("{name} {rules}, drop"),
                game.as_mut(),
                Input::HardDrop,
            );
        }
    }
    // Floors, same run: a frame whose script is an empty update() (built-in rules kept), a
    // copy of the field, the state hash.
    let mut empty = tetris_level(None);
    empty["script"] = json!("function update() end");
    let mut game = start(&empty);
    bench_frame(
        &mut g,
        "tetris 10x20 built-in + empty update(), move",
        game.as_mut(),
        Input::Move(tilesmith_engine::Dir::Left),
    );
    for (name, builtin, _) in &levels {
        let game = start(builtin);
        let field = as_falling(game.as_ref()).field().clone();
        g.bench_function(format!("{name} floor: clone field"), |b| {
            b.iter(|| black_box(black_box(&field).clone()))
        });
        g.bench_function(format!("{name} floor: state_hash"), |b| {
            b.iter(|| black_box(black_box(game.as_ref()).state_hash()))
        });
    }
    g.finish();

    let mut g = c.benchmark_group("falling 19-chain");
    let doc = nineteen_chain_level();
    {
        let mut game = start(&doc);
        assert_eq!(
            resolve(game.as_mut()),
            19,
            "the corpus field gives a 19-chain"
        );
        assert_eq!(game.steps(), 20, "19 frames with a clear, then a quiet one");
    }
    g.bench_function("through the game (instant timing)", |b| {
        b.iter_batched(
            || start(&doc),
            |mut game| {
                let chain = resolve(game.as_mut());
                (game, chain)
            },
            BatchSize::SmallInput,
        )
    });
    let field = nineteen_chain_field();
    let roles = [
        Role::Normal,
        Role::Normal,
        Role::Normal,
        Role::Normal,
        Role::Garbage,
        Role::Iron,
    ];
    let clear = [ClearRule::Connected { min: 4 }];
    let fall = [FallLaw::Gravity];
    g.bench_function("field::settle", |b| {
        b.iter_batched(
            || field.clone(),
            |mut f| {
                let steps = settle(&mut f, &roles, 1, &clear, &fall);
                (f, steps)
            },
            BatchSize::SmallInput,
        )
    });
    g.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(50)
}

criterion_group! {
    name = benches;
    config = config();
    targets = bench
}
criterion_main!(benches);
