//! Ticks per second of the boulder kind on generated 100×100 and 1000×1000 maps with the 40
//! `pre` rules of the course level `snake.json`, and the time to copy the map state once (the
//! memory-bandwidth floor of a tick). Figures go to BENCHMARKS.md.
//!
//! Run: `cargo bench -p tilesmith-engine`.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng as _, SeedableRng as _};
use tilesmith_engine::kind::boulder::{BoulderGame, BoulderLevel, Cell, Token, ValueKey};
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

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("boulder");
    group.sample_size(10);
    for size in [100usize, 1000] {
        let level = generated(size);
        assert_eq!(level.pre.len(), 40);
        let mut game = BoulderGame::new(level.clone(), 1);
        game.set_history_limit(1);
        // Let falling things settle a little, so the figures are of a running game.
        for _ in 0..10 {
            game.tick(Input::Wait);
        }
        assert_eq!(
            game.status(),
            Status::Running,
            "the benchmark state must be a running game"
        );
        // Every sample computes the same tick from the same settled state.
        group.bench_function(format!("tick {size}x{size} snake rules"), |b| {
            b.iter_batched(
                || game.clone(),
                |mut g| {
                    g.tick(Input::Move(Dir::Left));
                    g
                },
                BatchSize::LargeInput,
            )
        });
        let board = game.board().clone();
        group.bench_function(format!("copy state {size}x{size}"), |b| {
            b.iter(|| black_box(board.clone()))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
