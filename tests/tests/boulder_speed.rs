//! The boulder tick's fast paths against the plain semantics of the spec (boulder.md §4.2,
//! §4.3, §4.5, §6 V4, L10): rule passes against a naive reference that scans every window of
//! every line and reads the globals live; the value reset against its definition on every
//! field; each phase's change list against a whole-map diff; undo and redo against the states
//! recorded before and after each tick. Maps, rules and inputs are seeded random.
#![allow(clippy::unwrap_used)]

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng as _, SeedableRng as _};
use serde_json::{Value, json};
use tilesmith_engine::kind::boulder::{
    BoulderGame, BoulderLevel, Cell, Globals, Rule, Token, TokenPattern, TokenWrite, ValueKey,
    ValueName,
};
use tilesmith_engine::observe::Collector;
use tilesmith_engine::{Dir, Game, Grid, Input, Pos};

const TOKENS: [&str; 8] = [
    "mud", "path", "stone", "gem", "sand", "bricks", "wall", "pot",
];
const VALUES: [&str; 6] = ["a", "b", "loose", "moved", "x", "gems"];
const DIRECTIONS: [&str; 4] = ["east", "west", "north", "south"];

fn pick<'a>(rng: &mut ChaCha8Rng, from: &[&'a str]) -> &'a str {
    from[rng.next_u32() as usize % from.len()]
}

/// A random rule block: a token name, a list of two, `*`, and up to two value conditions
/// (`n` from 0 to 2; a negative one is rejected, §6 L4) or writes (`n` from −1 to 2).
fn block(rng: &mut ChaCha8Rng, write: bool, len: usize) -> Value {
    let token = match rng.next_u32() % 6 {
        0 if !write => json!("*"),
        1 if !write => json!([pick(rng, &TOKENS), pick(rng, &TOKENS)]),
        2 if write => json!(rng.next_u32() as usize % len),
        _ => json!(pick(rng, &TOKENS)),
    };
    let mut values = serde_json::Map::new();
    for _ in 0..rng.next_u32() % 3 {
        let n = if write {
            rng.next_u32() as i64 % 4 - 1
        } else {
            rng.next_u32() as i64 % 3
        };
        values.insert(pick(rng, &VALUES).into(), json!(n));
    }
    json!({"token": token, "values": values})
}

fn random_rule(rng: &mut ChaCha8Rng) -> Value {
    let len = 1 + rng.next_u32() as usize % 3;
    json!({
        "situation": "any",
        "direction": pick(rng, &DIRECTIONS),
        "original": (0..len).map(|_| block(rng, false, len)).collect::<Vec<_>>(),
        "result": (0..len).map(|_| block(rng, true, len)).collect::<Vec<_>>(),
    })
}

/// A random `w`×`h` map of [`TOKENS`] plus `me`, where about one field in `sparse` has a
/// non-zero `a` or `b`.
fn random_map(rng: &mut ChaCha8Rng, w: usize, h: usize, sparse: u32) -> Value {
    let rows: Vec<Value> = (0..h)
        .map(|y| {
            (0..w)
                .map(|x| {
                    let t = if x == w / 2 && y == h / 2 {
                        "me"
                    } else {
                        pick(rng, &TOKENS)
                    };
                    if rng.next_u32().is_multiple_of(sparse) {
                        let k = if rng.next_u32().is_multiple_of(2) {
                            "a"
                        } else {
                            "b"
                        };
                        json!({"token": t, "values": {k: 1 + rng.next_u32() % 2}})
                    } else {
                        json!(t)
                    }
                })
                .collect()
        })
        .collect();
    json!(rows)
}

fn load(map: Value, pre: Vec<Value>, globals: Globals) -> BoulderLevel {
    let (w, h) = (
        map[0].as_array().unwrap().len(),
        map.as_array().unwrap().len(),
    );
    let doc = json!({
        "name": "speed", "width": w, "height": h, "gems": [1000, 1000, 1000],
        "ticks": [1000, 1000, 1000], "map": map, "pre": pre,
    });
    let mut l = BoulderLevel::from_json(&doc).unwrap();
    l.state = Some(globals);
    l
}

fn global_index(n: ValueName) -> Option<usize> {
    match n {
        ValueName::Global(g) => Some(g as usize),
        ValueName::Field(_) => None,
    }
}

/// `n` = 0 needs 0, `n` > 0 needs at least `n`, `n` < 0 never matches (§4.5).
fn holds(have: u32, n: i64) -> bool {
    if n == 0 {
        have == 0
    } else {
        n > 0 && have as i64 >= n
    }
}

/// `n` = 0 sets 0, else adds `n`, clamped to 0 … u32::MAX (§4.5).
fn written(have: u32, n: i64) -> u32 {
    if n == 0 {
        0
    } else {
        (have as i64 + n).clamp(0, u32::MAX as i64) as u32
    }
}

/// One pass of `rule` over `map` as §4.5 and §6 L10 say, with nothing skipped: every line in
/// order (rows top to bottom, columns left to right), every window from the line's start,
/// globals read live; a match writes and the search resumes after it.
fn reference_pass(rule: &Rule, map: &mut Grid<Cell>, globals: &mut Globals) {
    let (w, h) = (map.width() as isize, map.height() as isize);
    let (lines, line_len) = if rule.direction.is_horizontal() {
        (h, w)
    } else {
        (w, h)
    };
    let len = rule.original.len() as isize;
    for l in 0..lines {
        let at = |p: isize| -> Pos {
            let (x, y) = match rule.direction {
                Dir::Right => (p, l),
                Dir::Left => (w - 1 - p, l),
                Dir::Down => (l, p),
                Dir::Up => (l, h - 1 - p),
            };
            Pos::new(x as usize, y as usize)
        };
        let mut p = 0;
        while p + len <= line_len {
            let matched = rule.original.iter().enumerate().all(|(k, b)| {
                let c = *map.get(at(p + k as isize)).unwrap();
                let token_ok = match &b.token {
                    TokenPattern::Any => true,
                    TokenPattern::OneOf(ts) => ts.contains(&c.token),
                    TokenPattern::Index(_) => false,
                };
                token_ok
                    && b.values.iter().all(|&(n, v)| match (n, global_index(n)) {
                        (_, Some(g)) => holds(globals[g], v),
                        (ValueName::Field(k), None) => holds(c.values[k as usize], v),
                        _ => unreachable!(),
                    })
            });
            if !matched {
                p += 1;
                continue;
            }
            let before: Vec<Token> = (0..len)
                .map(|k| map.get(at(p + k)).unwrap().token)
                .collect();
            for (k, wr) in rule.result.iter().enumerate() {
                let c = map.get_mut(at(p + k as isize)).unwrap();
                c.token = match wr.token {
                    TokenWrite::Set(t) => t,
                    TokenWrite::Copy(j) => before[j],
                };
                for &(n, v) in &wr.values {
                    match (n, global_index(n)) {
                        (_, Some(g)) => globals[g] = written(globals[g], v),
                        (ValueName::Field(key), None) => {
                            let i = key as usize;
                            c.values[i] = written(c.values[i], v);
                        }
                        _ => unreachable!(),
                    }
                }
            }
            p += len;
        }
    }
}

/// Runs one phase with an observer that wants changes and checks its change list against the
/// whole-map diff. Returns false when no phase was left.
fn phase_checked(g: &mut BoulderGame, c: &mut Collector) -> bool {
    let before = g.board().to_grid();
    let Some(phase) = g.run_next_phase(c) else {
        return false;
    };
    let after = g.board().to_grid();
    let mut diff = Vec::new();
    for y in 0..after.height() {
        for x in 0..after.width() {
            let p = Pos::new(x, y);
            let (b, a) = (*before.get(p).unwrap(), *after.get(p).unwrap());
            if b != a {
                diff.push((p, b, a));
            }
        }
    }
    assert_eq!(g.last_phase_changes(), diff, "change list of {phase:?}");
    true
}

/// §4.3: after the reset, `moved`, `falling`, `bam`, `bamrich` are 0 everywhere, `loose` is 1
/// exactly on stone and gem, `slippery` on stone, gem and bricks, `pushable` on stone.
fn assert_reset(map: &Grid<Cell>, what: &str) {
    for c in map.cells() {
        let t = c.token;
        let want = [
            (ValueKey::Moved, 0),
            (ValueKey::Falling, 0),
            (ValueKey::Bam, 0),
            (ValueKey::Bamrich, 0),
            (
                ValueKey::Loose,
                matches!(t, Token::Stone | Token::Gem) as u32,
            ),
            (
                ValueKey::Slippery,
                matches!(t, Token::Stone | Token::Gem | Token::Bricks) as u32,
            ),
            (ValueKey::Pushable, (t == Token::Stone) as u32),
        ];
        for (k, v) in want {
            assert_eq!(c.get(k), v, "{what}: {} on {}", k.name(), t.name());
        }
    }
}

#[test]
fn rule_passes_equal_a_plain_scan_of_every_window() {
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let mut fired = 0;
    for case in 0..400 {
        let (w, h) = (
            1 + rng.next_u32() as usize % 9,
            1 + rng.next_u32() as usize % 9,
        );
        let sparse = [2, 8, 1000][case % 3];
        let map = random_map(&mut rng, w, h, sparse);
        let rules: Vec<Value> = (0..3).map(|_| random_rule(&mut rng)).collect();
        let globals = [
            rng.next_u32() % 3,
            0,
            rng.next_u32() % 3,
            rng.next_u32() % 2,
            0,
        ];
        let level = load(map, rules, globals);
        let mut g = BoulderGame::new(level.clone(), 1);
        assert!(g.begin_tick(Input::Wait));
        let mut c = Collector::default();
        assert!(phase_checked(&mut g, &mut c), "reset");
        let mut map = g.board().to_grid();
        let mut globals = g.globals();
        for (i, rule) in level.pre.iter().enumerate() {
            assert!(phase_checked(&mut g, &mut c));
            let start = map.clone();
            reference_pass(rule, &mut map, &mut globals);
            fired += usize::from(start != map);
            assert_eq!(g.board().to_grid(), map, "case {case}, rule {i}: {rule:?}");
            assert_eq!(g.globals(), globals, "case {case}, rule {i}: {rule:?}");
        }
    }
    assert!(fired > 200, "only {fired} rule passes changed anything");
}

#[test]
fn a_global_made_true_earlier_in_the_tick_lets_a_later_rule_fire() {
    // `x` is 0 when the tick starts. Rule 0 adds 1 to `x` for each of the 3 bricks; rule 1
    // needs `x` ≥ 3, so it fires on every mud (§6 V4, L10: globals are read live).
    let map = json!([
        ["bricks", "mud", "bricks"],
        ["mud", "bricks", "mud"],
        ["wall", "me", "wall"]
    ]);
    let rules = vec![
        json!({"situation": "any", "direction": "east",
               "original": [{"token": "bricks"}], "result": [{"token": "bricks", "values": {"x": 1}}]}),
        json!({"situation": "any", "direction": "east",
               "original": [{"token": "mud", "values": {"x": 3}}], "result": [{"token": "gem"}]}),
    ];
    let mut g = BoulderGame::new(load(map, rules, [0; 5]), 1);
    g.step(Input::Wait);
    let tokens: Vec<&str> = g.board().tokens().iter().map(|t| t.name()).collect();
    // The gems do not fall: the main rules run after the pre rules and find no path below.
    assert_eq!(
        tokens,
        [
            "bricks", "gem", "bricks", "gem", "bricks", "gem", "wall", "me", "wall"
        ]
    );
    assert_eq!(g.globals()[2], 3, "x");
}

#[test]
fn a_rule_that_makes_its_own_global_condition_false_stops_after_that_match() {
    // `mud{x:0}` → `path{x:1}`: the first mud in line order (rows top to bottom, §6 L10)
    // matches and sets `x` to 1; no later mud matches. A column rule takes the top of the
    // leftmost column with mud.
    let map = json!([
        ["wall", "mud", "mud"],
        ["mud", "mud", "wall"],
        ["wall", "me", "wall"]
    ]);
    let wants: [(&str, [&str; 9]); 4] = [
        (
            "east",
            [
                "wall", "path", "mud", "mud", "mud", "wall", "wall", "me", "wall",
            ],
        ),
        (
            "west",
            [
                "wall", "mud", "path", "mud", "mud", "wall", "wall", "me", "wall",
            ],
        ),
        (
            "south",
            [
                "wall", "mud", "mud", "path", "mud", "wall", "wall", "me", "wall",
            ],
        ),
        (
            "north",
            [
                "wall", "mud", "mud", "path", "mud", "wall", "wall", "me", "wall",
            ],
        ),
    ];
    for (dir, want) in wants {
        let rule = json!({"situation": "any", "direction": dir,
            "original": [{"token": "mud", "values": {"x": 0}}],
            "result": [{"token": "path", "values": {"x": 1}}]});
        let mut g = BoulderGame::new(load(map.clone(), vec![rule], [0; 5]), 1);
        g.step(Input::Wait);
        let tokens: Vec<&str> = g.board().tokens().iter().map(|t| t.name()).collect();
        assert_eq!(tokens, want, "{dir}");
        assert_eq!(g.globals()[2], 1);
    }
}

/// A random playable map: stones and gems over paths (things fall), bricks, slime, enemies,
/// with rules that write the reset values and `a`.
fn lively(rng: &mut ChaCha8Rng) -> BoulderLevel {
    let (w, h) = (
        4 + rng.next_u32() as usize % 10,
        4 + rng.next_u32() as usize % 10,
    );
    let rows: Vec<Value> = (0..h)
        .map(|y| {
            (0..w)
                .map(|x| {
                    if x == w / 2 && y == h / 2 {
                        return json!("me");
                    }
                    let t = match rng.next_u32() % 20 {
                        0..=5 => "path",
                        6..=9 => "mud",
                        10..=12 => "stone",
                        13 | 14 => "gem",
                        15 => "bricks",
                        16 => "sand",
                        17 => "slime",
                        _ => ["swapling", "xling", "blockling"][rng.next_u32() as usize % 3],
                    };
                    if matches!(t, "swapling" | "xling" | "blockling") {
                        json!({"token": t, "values": {"direction": 1 + rng.next_u32() % 4}})
                    } else {
                        json!(t)
                    }
                })
                .collect()
        })
        .collect();
    let rules = vec![
        json!({"situation": "any", "direction": "east",
               "original": [{"token": "sand"}], "result": [{"token": "0", "values": {"loose": 1, "pushable": 1}}]}),
        json!({"situation": "any", "direction": "south",
               "original": [{"token": "bricks"}, {"token": "path"}],
               "result": [{"token": "bricks", "values": {"a": 1}}, {"token": "gem", "values": {"bam": 1}}]}),
        json!({"situation": "rare", "sparsity": 3, "direction": "west",
               "original": [{"token": "*", "values": {"a": 2}}], "result": [{"token": "0", "values": {"a": 0, "moved": 1, "slippery": 1}}]}),
    ];
    let doc = json!({
        "name": "lively", "width": w, "height": h, "gems": [3, 6, 9], "ticks": [1000, 1000, 1000], "maxslime": 12,
        "map": rows, "pre": rules,
    });
    BoulderLevel::from_json(&doc).unwrap()
}

#[test]
fn ticks_undo_and_redo_restore_the_exact_states_and_every_reset_is_whole() {
    let inputs = [
        Input::Wait,
        Input::Move(Dir::Left),
        Input::Move(Dir::Right),
        Input::Move(Dir::Up),
        Input::Move(Dir::Down),
        Input::Meta(Dir::Left),
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(34);
    let mut undone = 0;
    for case in 0..60 {
        let mut g = BoulderGame::new(lively(&mut rng), case);
        // `states[k]`: the map and globals after k ticks of this game.
        let mut states = vec![(g.board().to_grid(), g.globals())];
        let mut at = 0;
        for _ in 0..40 {
            if g.status().is_over() {
                break;
            }
            match rng.next_u32() % 10 {
                0 | 1 if at > 0 => {
                    assert!(g.undo());
                    at -= 1;
                    undone += 1;
                }
                2 if at + 1 < states.len() => {
                    assert!(g.redo());
                    at += 1;
                }
                _ => {
                    let input = inputs[rng.next_u32() as usize % inputs.len()];
                    let start = g.board().to_grid();
                    // The same tick unobserved (no change lists kept) gives the same state.
                    let mut plain = g.clone();
                    plain.tick(input);
                    assert!(g.begin_tick(input));
                    let mut c = Collector::default();
                    assert!(phase_checked(&mut g, &mut c), "reset");
                    assert_reset(&g.board().to_grid(), &format!("case {case}, tick {at}"));
                    while phase_checked(&mut g, &mut c) {}
                    let changed = g.finish_tick(&mut c).unwrap();
                    let end = g.board().to_grid();
                    let diff: Vec<Pos> = (0..end.height())
                        .flat_map(|y| (0..end.width()).map(move |x| Pos::new(x, y)))
                        .filter(|&p| start.get(p) != end.get(p))
                        .collect();
                    assert_eq!(changed, diff, "changed cells of the tick");
                    assert_eq!(plain.state_hash(), g.state_hash(), "unobserved tick");
                    at += 1;
                    states.truncate(at);
                    states.push((end, g.globals()));
                }
            }
            assert_eq!(
                (g.board().to_grid(), g.globals()),
                states[at],
                "case {case}"
            );
        }
        // Everything undone: the level's own map and globals.
        while g.undo() {}
        assert_eq!((g.board().to_grid(), g.globals()), states[0]);
    }
    assert!(undone > 50, "only {undone} undos");
}

/// `Game::step_quiet` (the step `run` without `--trace` and replays take, issue #29) leaves
/// the game as `Game::step` does: on seeded random maps with random rules, the same state
/// hash and status after every tick of random inputs, undo and restart included.
#[test]
fn a_quiet_step_leaves_the_game_as_a_reported_step() {
    let mut rng = ChaCha8Rng::seed_from_u64(29);
    let inputs = [
        Input::Wait,
        Input::Move(Dir::Left),
        Input::Move(Dir::Right),
        Input::Move(Dir::Up),
        Input::Move(Dir::Down),
        Input::Meta(Dir::Left),
        Input::Meta(Dir::Down),
    ];
    for map in 0..6 {
        let pre: Vec<Value> = (0..4).map(|_| random_rule(&mut rng)).collect();
        let level = load(random_map(&mut rng, 12, 9, 3), pre, Globals::default());
        let mut a = BoulderGame::new(level.clone(), map);
        let mut b = BoulderGame::new(level, map);
        for t in 0..120 {
            // Undo and restart rarely, so that play gets somewhere.
            let input = match rng.next_u32() % 60 {
                58 => Input::Undo,
                59 => Input::Restart,
                k => inputs[k as usize % 7],
            };
            let _ = Game::step(&mut a, input);
            Game::step_quiet(&mut b, input);
            assert_eq!(
                (a.state_hash(), a.status(), a.steps()),
                (b.state_hash(), b.status(), b.steps()),
                "map {map}, tick {t}, {input:?}"
            );
        }
    }
}
