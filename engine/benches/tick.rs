//! Ticks per second of the boulder kind with the 40 `pre` rules of the course level
//! `snake.json`: on generated 100×100 and 1000×1000 maps, on `snake.json`'s own map tiled to
//! 990×990 (a realistic load: many of its rules fire), and on a quiet 1000×1000 map where
//! almost nothing changes; plus the time to copy the map state once (the memory-bandwidth floor
//! of a tick). Before the timings it prints, per map, the undo journal's bytes per changed field
//! and the tick's memory (journal plus the board's scratch) against one copy of the state.
//! Figures go to BENCHMARKS.md.
//!
//! Run: `cargo bench -p tilesmith-engine --bench tick`.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng as _, SeedableRng as _};
use tilesmith_engine::kind::boulder::{Board, BoulderGame, BoulderLevel, Cell, Token, ValueKey};
use tilesmith_engine::{Dir, Game, Input, Pos, Status};

/// The snake level's rules, read from the shared course corpus beside the workspace.
fn snake() -> BoulderLevel {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/corpus/boulder/ws1718/snake.json"
    );
    let doc = tilesmith_engine::load_file(std::path::Path::new(path))
        .expect("the shared corpus must be beside the workspace");
    BoulderLevel::from_json(&doc.value).expect("snake.json is valid")
}

/// A `size`×`size` map: wall border, then a seeded mix of mud, path, stone, gem, sand, bricks,
/// swaplings and xlings, with a pot, an exit and `westthing` body parts sprinkled in, and one
/// `me`. Every row gets some of the tokens the snake rules look for.
fn generated(size: usize) -> BoulderLevel {
    let mut level = snake();
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    let mut l = BoulderLevel::new("bench", size, size);
    for y in 0..size {
        for x in 0..size {
            let t = if x == 0 || y == 0 || x == size - 1 || y == size - 1 {
                Token::Wall
            } else {
                match rng.next_u32() % 100 {
                    0..=34 => Token::Mud,
                    35..=59 => Token::Path,
                    60..=69 => Token::Stone,
                    70..=74 => Token::Gem,
                    75..=84 => Token::Sand,
                    85..=89 => Token::Bricks,
                    90 => Token::Pot,
                    91 => Token::Westthing,
                    92 => Token::Swapling,
                    93 => Token::Xling,
                    _ => Token::Mud,
                }
            };
            let mut c = Cell::new(t);
            if t.is_enemy() {
                c = c.with(ValueKey::Direction, 1 + rng.next_u32() % 4);
            }
            *l.map.get_mut(Pos::new(x, y)).expect("inside") = c;
        }
    }
    *l.map.get_mut(Pos::new(size / 2, size / 2)).expect("inside") = Cell::new(Token::Me);
    *l.map.get_mut(Pos::new(size / 2, 0)).expect("inside") = Cell::new(Token::Exit);
    level.map = l.map;
    level.ticks = [u32::MAX, u32::MAX, u32::MAX];
    level
}

/// `snake.json` with its 15×15 map repeated 66 times each way (990×990): every copy has its
/// figure, pots and body parts, so the snake rules fire all over the map.
fn tiled_snake() -> BoulderLevel {
    let mut level = snake();
    let (tw, th) = (level.map.width(), level.map.height());
    let size = 990;
    let mut l = BoulderLevel::new("bench", size, size);
    for y in 0..size {
        for x in 0..size {
            let c = *level.map.get(Pos::new(x % tw, y % th)).expect("inside");
            *l.map.get_mut(Pos::new(x, y)).expect("inside") = c;
        }
    }
    level.map = l.map;
    level.ticks = [u32::MAX, u32::MAX, u32::MAX];
    // No copy may end the game by reaching an exit.
    level.gems = [u32::MAX, u32::MAX, u32::MAX];
    level
}

/// A 1000×1000 map where almost nothing happens: wall border, mud with resting stones, gems and
/// bricks (nothing can fall: there is no path), one `me` and one exit.
fn quiet(size: usize) -> BoulderLevel {
    let mut level = snake();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut l = BoulderLevel::new("bench", size, size);
    for y in 0..size {
        for x in 0..size {
            let t = if x == 0 || y == 0 || x == size - 1 || y == size - 1 {
                Token::Wall
            } else {
                match rng.next_u32() % 100 {
                    0..=9 => Token::Stone,
                    10..=14 => Token::Gem,
                    15..=19 => Token::Bricks,
                    _ => Token::Mud,
                }
            };
            *l.map.get_mut(Pos::new(x, y)).expect("inside") = Cell::new(t);
        }
    }
    *l.map.get_mut(Pos::new(size / 2, size / 2)).expect("inside") = Cell::new(Token::Me);
    *l.map.get_mut(Pos::new(size / 2, 0)).expect("inside") = Cell::new(Token::Exit);
    level.map = l.map;
    level.ticks = [u32::MAX, u32::MAX, u32::MAX];
    level
}

/// Fields (token or value) that differ between two boards of the same size.
fn changed_fields(a: &Board, b: &Board) -> usize {
    (0..a.len())
        .map(|i| {
            let (x, y) = (a.cell(i), b.cell(i));
            usize::from(x.token != y.token)
                + x.values
                    .iter()
                    .zip(y.values.iter())
                    .filter(|(p, q)| p != q)
                    .count()
        })
        .sum()
}

/// Prints the undo journal's bytes per changed field of one tick from `game`, and the memory
/// the tick holds beyond the state (journal plus scratch) against one copy of the state.
fn memory_report(name: &str, game: &BoulderGame) {
    let mut g = game.clone();
    g.set_history_limit(1);
    let before = g.board().clone();
    g.tick(Input::Move(Dir::Left));
    let fields = changed_fields(&before, g.board());
    let journal = g.history_bytes();
    let state = before.state_bytes();
    let scratch = g.board().scratch_bytes();
    eprintln!(
        "memory {name}: {fields} changed fields, journal {journal} B = {:.1} B/field; \
         journal + scratch {} B = {:.3} x state ({state} B)",
        journal as f64 / fields.max(1) as f64,
        journal + scratch,
        (journal + scratch) as f64 / state as f64,
    );
}

/// CPU time this thread has run, in nanoseconds (Linux `/proc/thread-self/schedstat`), so that
/// the figures do not depend on what else the machine runs.
fn cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .expect("Linux schedstat")
}

/// Prints the phases that took most of the CPU time of a tick from `game`, summed over `runs`
/// fresh copies (a rough profile: the scheduler's clock is coarse, about 0.1–1 ms).
fn phase_report(name: &str, game: &BoulderGame, runs: u32) {
    let mut phases: Vec<(String, u64)> = Vec::new();
    for _ in 0..runs {
        let mut g = game.clone();
        let t0 = cpu_ns();
        g.begin_tick(Input::Move(Dir::Left));
        let mut last = cpu_ns();
        let mut k = 0;
        let mut add = |label: String, ns: u64, k: usize| {
            if phases.len() <= k {
                phases.push((label, 0));
            }
            phases[k].1 += ns;
        };
        add("begin".into(), last - t0, k);
        while let Some(p) = g.run_next_phase(&mut tilesmith_engine::observe::NoObserver) {
            k += 1;
            let now = cpu_ns();
            add(format!("{p:?}"), now - last, k);
            last = now;
        }
        g.finish_tick(&mut tilesmith_engine::observe::NoObserver);
        add("end".into(), cpu_ns() - last, k + 1);
    }
    let ms = |ns: u64| ns as f64 / runs as f64 / 1e6;
    phases.sort_by_key(|(_, ns)| std::cmp::Reverse(*ns));
    let top: Vec<String> = phases
        .iter()
        .take(6)
        .map(|(l, ns)| format!("{l} {:.2}", ms(*ns)))
        .collect();
    eprintln!("phases {name} (ms CPU): {}", top.join(", "));
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("boulder");
    group.sample_size(10);
    let maps = [
        ("100x100 snake rules".to_string(), generated(100)),
        ("1000x1000 snake rules".to_string(), generated(1000)),
        ("990x990 tiled snake".to_string(), tiled_snake()),
        ("1000x1000 quiet".to_string(), quiet(1000)),
    ];
    for (name, level) in maps {
        assert_eq!(level.pre.len(), 40);
        let mut game = BoulderGame::new(level.clone(), 1);
        game.set_history_limit(1);
        // Let falling things settle a little, so the figures are of a running game (at most
        // 10 ticks, fewer when the next would end the game: the snake copies crash in time).
        for _ in 0..10 {
            let mut next = game.clone();
            next.tick(Input::Wait);
            if next.status() != Status::Running {
                break;
            }
            game = next;
        }
        assert_eq!(
            game.status(),
            Status::Running,
            "the benchmark state must be a running game"
        );
        // Every sample computes the same tick from the same settled state.
        memory_report(&name, &game);
        phase_report(&name, &game, 20);
        group.bench_function(format!("tick {name}"), |b| {
            b.iter_batched(
                || game.clone(),
                |mut g| {
                    g.tick(Input::Move(Dir::Left));
                    g
                },
                BatchSize::LargeInput,
            )
        });
        // Through the Game trait: a step with its change report (the editor, `run --trace`)
        // and without (`run`, replays, the solver's checks: `Game::step_quiet`).
        group.bench_function(format!("step with report {name}"), |b| {
            b.iter_batched(
                || game.clone(),
                |mut g| {
                    black_box(Game::step(&mut g, Input::Move(Dir::Left)));
                    g
                },
                BatchSize::LargeInput,
            )
        });
        group.bench_function(format!("step_quiet {name}"), |b| {
            b.iter_batched(
                || game.clone(),
                |mut g| {
                    Game::step_quiet(&mut g, Input::Move(Dir::Left));
                    g
                },
                BatchSize::LargeInput,
            )
        });
        // The state alone: the tokens and the twelve value arrays, not the board's scratch.
        let board = game.board();
        group.bench_function(format!("copy state {name}"), |b| {
            b.iter(|| {
                black_box((
                    board.tokens().to_vec(),
                    ValueKey::ALL
                        .iter()
                        .map(|&k| board.val_array(k).to_vec())
                        .collect::<Vec<_>>(),
                ))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
