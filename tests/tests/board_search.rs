//! The computer opponent (the shared `search::mcts` over the board kind's `BoardSearch`,
//! MCTS with random playouts): it takes an immediate
//! win and blocks an immediate loss in tic-tac-toe, never loses to a random player there, avoids
//! a checkers move that loses its last man at once, is deterministic for a seed and an
//! iteration budget, stops on time and on cancel, and its turn indices are those of
//! `Engine::turns`. Positions are worked out by hand from the level files.

#![allow(clippy::unwrap_used)]

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rand_core::{Rng as _, SeedableRng as _};
use tilesmith_engine::kind::board::play::searcher::BoardSearch;
use tilesmith_engine::kind::board::play::{Engine, Piece, Position};
use tilesmith_engine::kind::board::rules::{PlayerId, PosId};
use tilesmith_engine::kind::board::zrf;
use tilesmith_engine::search::mcts::{Progress, SearchLimits, SearchResult, StopReason, search};
use tilesmith_tests::{corpus, workspace};

fn engine_of(text: &str) -> Engine {
    let (rules, _) = zrf::compile(text, None).unwrap();
    Engine::new(rules)
}

fn level(name: &str) -> Engine {
    engine_of(&std::fs::read_to_string(workspace().join("levels/board").join(name)).unwrap())
}

fn corpus_engine(name: &str) -> Engine {
    engine_of(&std::fs::read_to_string(corpus("board").join(name)).unwrap())
}

fn sq(e: &Engine, name: &str) -> PosId {
    e.rules()
        .board
        .positions
        .iter()
        .position(|p| p.name == name)
        .unwrap() as PosId
}

fn player(e: &Engine, name: &str) -> PlayerId {
    e.rules().players.iter().position(|p| p == name).unwrap() as PlayerId
}

/// A position with the pieces listed (`"X a1 b1, O b2"`: owner then squares, every piece the
/// first type), `mover` to move; reserves as set up, less the pieces placed.
fn setup(e: &Engine, spec: &str, mover: &str) -> Position {
    let mut p = e.initial();
    p.cells.iter_mut().for_each(|c| *c = None);
    for group in spec.split(',') {
        let mut words = group.split_whitespace();
        let owner = player(e, words.next().unwrap());
        for at in words {
            p.cells[sq(e, at) as usize] = Some(Piece {
                player: owner,
                kind: 0,
                attrs: 0,
            });
            let r = &mut p.reserve[owner as usize][0];
            if *r != u32::MAX {
                *r = r.saturating_sub(1);
            }
        }
    }
    p.turn = e
        .rules()
        .turn_order
        .iter()
        .position(|t| t.player == player(e, mover))
        .unwrap();
    p
}

fn budget(iterations: u64, seed: u64) -> SearchLimits {
    SearchLimits {
        time: None,
        iterations: Some(iterations),
        seed,
        ..SearchLimits::default()
    }
}

/// The searcher of `p` under `e`'s rules.
fn root(e: &Engine, p: &Position) -> BoardSearch {
    BoardSearch::new(std::sync::Arc::new(e.clone()), p.clone())
}

fn run(e: &Engine, p: &Position, limits: &SearchLimits) -> SearchResult {
    search(&root(e, p), limits, &AtomicBool::new(false), &mut |_| {}).unwrap()
}

#[test]
fn the_search_can_run_on_a_worker_thread() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Engine>();
    send_sync::<Position>();
    send_sync::<SearchLimits>();
    send_sync::<SearchResult>();
    send_sync::<Progress>();
    // And it does: a search on another thread with its own engine, cancelled from here.
    let e = level("tic-tac-toe.zrf");
    let p = e.initial();
    let cancel = std::sync::Arc::new(AtomicBool::new(false));
    let c2 = cancel.clone();
    let worker = std::thread::spawn(move || {
        let limits = SearchLimits {
            time: Some(Duration::from_secs(60)),
            ..SearchLimits::default()
        };
        search(&root(&e, &p), &limits, &c2, &mut |_| {}).unwrap()
    });
    std::thread::sleep(Duration::from_millis(100));
    cancel.store(true, Ordering::Relaxed);
    let r = worker.join().unwrap();
    assert_eq!(r.stopped, StopReason::Cancelled);
    assert!(r.best.is_some());
}

#[test]
fn turn_indices_are_those_of_engine_turns() {
    // The search names turns by their index in Engine::turns, and expands with
    // Engine::successors: the two must agree, turn by turn.
    let cases = [
        (level("tic-tac-toe.zrf"), None),
        (level("reversi.zrf"), None),
        (corpus_engine("english-checkers.zrf"), None),
        (
            corpus_engine("english-checkers.zrf"),
            Some(("Black c3 a1, White d4 d6 f6 h8", "Black")),
        ),
        (corpus_engine("chess.zrf"), None),
    ];
    for (e, spec) in cases {
        let p = match spec {
            None => e.initial(),
            Some((s, m)) => setup(&e, s, m),
        };
        let turns = e.turns(&p).unwrap();
        let kids = e.successors(&p).unwrap();
        assert_eq!(turns.len(), kids.len(), "{}", e.rules().title);
        for (t, k) in turns.iter().zip(&kids) {
            let mut q = p.clone();
            e.play_turn(&mut q, t);
            assert_eq!(q.cells, k.cells, "{} {}", e.rules().title, t.notation);
            assert_eq!(q.turn, k.turn);
        }
    }
}

#[test]
fn tic_tac_toe_takes_an_immediate_win() {
    let e = level("tic-tac-toe.zrf");
    // X a1 b1 (c1 wins), O a2 b2 (O would win on c2): X must take c1.
    let p = setup(&e, "X a1 b1, O a2 b2", "X");
    // O to move, O a1 b1 (c1 wins), X a3 b3 c2 (X would win on c3): O wins on c1 rather
    // than block c3.
    let q = setup(&e, "X a3 b3 c2, O a1 b1", "O");
    for seed in 0..4 {
        let r = run(&e, &p, &budget(1500, seed));
        assert_eq!(r.notation.as_deref(), Some("@c1"), "seed {seed}: {r:?}");
        let r = run(&e, &q, &budget(1500, seed));
        assert_eq!(r.notation.as_deref(), Some("@c1"), "seed {seed}: {r:?}");
    }
}

#[test]
fn tic_tac_toe_blocks_an_immediate_loss() {
    let e = level("tic-tac-toe.zrf");
    // X a1 c3, O b1 b2: O threatens b3; X has no win of its own. X must block b3.
    let p = setup(&e, "X a1 c3, O b1 b2", "X");
    for seed in 0..4 {
        let r = run(&e, &p, &budget(1500, seed));
        assert_eq!(r.notation.as_deref(), Some("@b3"), "seed {seed}: {r:?}");
        // The blocking turn is the most visited and scores best.
        let b3 = r.turns.iter().find(|t| t.notation == "@b3").unwrap();
        assert!(
            r.turns
                .iter()
                .all(|t| t.notation == "@b3" || t.score < b3.score)
        );
    }
}

/// Plays a game of tic-tac-toe: the search (`budget` iterations) for `searcher`, uniformly
/// random turns for the other player. Returns the winner.
fn game_against_random(e: &Engine, searcher: PlayerId, seed: u64) -> Option<PlayerId> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1000 + seed);
    let mut p = e.initial();
    let mut history = Vec::new();
    loop {
        if let Some(o) = e.outcome(&p, &history) {
            return o.winner;
        }
        let turns = e.turns(&p).unwrap();
        let i = if p.to_move(e.rules()) == searcher {
            run(e, &p, &budget(1500, seed)).best.unwrap()
        } else {
            (rng.next_u32() as usize) % turns.len()
        };
        history.push(p.clone());
        e.play_turn(&mut p, &turns[i]);
    }
}

#[test]
fn tic_tac_toe_against_a_random_player_never_loses() {
    let e = level("tic-tac-toe.zrf");
    let (x, o) = (player(&e, "X"), player(&e, "O"));
    // First player: a random O loses most games against any sound play, and never wins.
    let wins_as_x = (0..10)
        .map(|s| game_against_random(&e, x, s))
        .inspect(|w| assert_ne!(*w, Some(o), "lost as X"))
        .filter(|w| *w == Some(x))
        .count();
    assert!(wins_as_x >= 8, "won {wins_as_x} of 10 as X");
    // Second player: never loses either.
    let wins_as_o = (0..10)
        .map(|s| game_against_random(&e, o, s))
        .inspect(|w| assert_ne!(*w, Some(x), "lost as O"))
        .filter(|w| *w == Some(o))
        .count();
    assert!(wins_as_o >= 5, "won {wins_as_o} of 10 as O");
}

#[test]
fn checkers_avoids_the_step_that_loses_its_last_man() {
    let e = corpus_engine("english-checkers.zrf");
    // Black's last man on b2 (Black moves up), a White man on d4 (White moves down).
    // b2-c3 lets d4 jump it to b2 and Black has no piece left: a loss at once. b2-a3 is
    // safe for now.
    let p = setup(&e, "Black b2, White d4", "Black");
    let words: Vec<String> = e
        .turns(&p)
        .unwrap()
        .into_iter()
        .map(|t| t.notation)
        .collect();
    assert_eq!(words.len(), 2, "{words:?}");
    for seed in 0..5 {
        let r = run(&e, &p, &budget(400, seed));
        assert_eq!(r.notation.as_deref(), Some("b2-a3"), "seed {seed}: {r:?}");
        let c3 = r.turns.iter().find(|t| t.notation == "b2-c3").unwrap();
        assert_eq!(c3.score, 0.0, "every game through b2-c3 is lost");
    }
}

#[test]
fn a_seed_and_an_iteration_budget_give_the_same_search() {
    let e = corpus_engine("english-checkers.zrf");
    let p = e.initial();
    let a = run(&e, &p, &budget(200, 7));
    let b = run(&e, &p, &budget(200, 7));
    assert_eq!(a.iterations, 200);
    assert_eq!(a.stopped, StopReason::Iterations);
    assert_eq!((a.best, &a.turns), (b.best, &b.turns));
    assert_eq!(a.turns.iter().map(|t| t.visits).sum::<u64>(), 200);
    assert_eq!(a.turns.len(), 7, "checkers opens with 7 moves");
}

#[test]
fn time_budget_and_cancel_stop_promptly() {
    let e = corpus_engine("chess.zrf");
    let p = e.initial();
    // Time: 300 ms.
    let limits = SearchLimits {
        time: Some(Duration::from_millis(300)),
        ..SearchLimits::default()
    };
    let t = Instant::now();
    let mut calls: Vec<Progress> = Vec::new();
    let r = search(&root(&e, &p), &limits, &AtomicBool::new(false), &mut |p| {
        calls.push(p.clone())
    })
    .unwrap();
    assert_eq!(r.stopped, StopReason::Time);
    assert!(
        t.elapsed() < Duration::from_millis(2000),
        "{:?}",
        t.elapsed()
    );
    let last = calls.last().unwrap();
    assert_eq!(last.fraction, 1.0);
    assert_eq!(last.best, r.best);
    assert_eq!(last.iterations, r.iterations);
    assert!(r.best.is_some());
    // Cancel: an hour's budget, cancelled from another thread after 100 ms.
    let cancel = AtomicBool::new(false);
    let limits = SearchLimits {
        time: Some(Duration::from_secs(3600)),
        ..SearchLimits::default()
    };
    let t = Instant::now();
    let r = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(100));
            cancel.store(true, Ordering::Relaxed);
        });
        search(&root(&e, &p), &limits, &cancel, &mut |_| {}).unwrap()
    });
    assert_eq!(r.stopped, StopReason::Cancelled);
    assert!(
        t.elapsed() < Duration::from_millis(1000),
        "{:?}",
        t.elapsed()
    );
    assert!(r.best.is_some());
}

#[test]
fn no_search_when_the_game_is_over_or_one_turn_is_left() {
    let e = level("tic-tac-toe.zrf");
    // X has three in a row: over.
    let p = setup(&e, "X a1 b1 c1, O a2 b2", "O");
    let r = run(&e, &p, &budget(100, 0));
    assert_eq!((r.best, r.stopped), (None, StopReason::GameOver));
    assert!(r.turns.is_empty());
    // One empty square left (c1), no line yet for either: the only turn.
    let p = setup(&e, "X a3 c3 a2 b1, O b3 b2 c2 a1", "X");
    let words: Vec<String> = e
        .turns(&p)
        .unwrap()
        .into_iter()
        .map(|t| t.notation)
        .collect();
    assert_eq!(words, ["@c1"]);
    let r = run(&e, &p, &budget(100, 0));
    assert_eq!((r.best, r.stopped), (Some(0), StopReason::OnlyTurn));
    assert_eq!(r.iterations, 0);
}
