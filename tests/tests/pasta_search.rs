//! Pasta Logic through the shared search (issues #28 "Play against the computer, and solve"
//! and #29): the searcher plays the game's choices as `PastaGame` does (the repetition rule
//! included), and alpha-beta finds values worked out by hand from the rules
//! (`docs/pasta-semantics.md`).

#![allow(clippy::unwrap_used)]

mod pasta;

use std::sync::atomic::AtomicBool;

use pasta::{EIGHT, after, level, start};
use serde_json::json;
use tilesmith_engine::search::alphabeta::{self, Value};
use tilesmith_engine::search_game::{SearchGame, SearchStatus};
use tilesmith_engine::{Game, GameKind, Input};

fn solve(g: &dyn Game) -> alphabeta::Outcome {
    let mut s = g.searcher().unwrap();
    let limits = alphabeta::Limits::default();
    alphabeta::value(s.as_mut(), &limits, &AtomicBool::new(false), &mut |_| {}).unwrap()
}

/// Plays `words` on the searcher, each found among the words of its moves.
fn play_words(s: &mut dyn SearchGame, words: &str) {
    for w in words.split_whitespace() {
        let mut moves = Vec::new();
        s.moves(&mut moves).unwrap();
        let mv = moves
            .into_iter()
            .find(|&m| s.word(m) == w)
            .unwrap_or_else(|| panic!("{w} is not a move here"));
        s.play(mv).unwrap();
    }
}

/// Red's Bug (index 0) under the cursor, blue's life 1, blue's flag on AddFlag (5) so that
/// blue has not lost already (W2). Red's `do`: blue 1 − {1} = 0, blue loses (W1): red wins
/// in one decision; a skip would hand the move on without a win, so `do` is the only win.
#[test]
fn bug_at_life_one_is_a_win_in_one() {
    let doc = level(
        &EIGHT,
        &[(0, &["red"]), (5, &["blue"])],
        json!({"cursor": 0, "life": {"red": 5, "blue": 1}}),
    );
    let g = start(&doc);
    let out = solve(&*g);
    assert_eq!(out.value, Value::Win(1));
    assert_eq!(out.player, 0, "red to move");
    assert_eq!(out.pv_words, vec!["do".to_string()]);
}

/// Two red flags on Bug (index 0), blue's life 2: red decides twice in a row (A8, the flag
/// behind the first has the right next). `do do`: blue 2 − 1 − 1 = 0, red wins in two
/// decisions, both red's; the search must not take the second for blue's.
#[test]
fn the_same_player_deciding_twice_wins_in_two() {
    let doc = level(
        &EIGHT,
        &[(0, &["red", "red"]), (5, &["blue"])],
        json!({"cursor": 0, "life": {"red": 5, "blue": 2}}),
    );
    let out = solve(&*start(&doc));
    assert_eq!(out.value, Value::Win(2));
    assert_eq!(out.pv_words, vec!["do".to_string(), "do".to_string()]);
}

/// Red's flag on Rotate (7), blue's on Reverse (4). Rotate moves the tail flag of every
/// other card with two flags or more: none here, so red's command changes nothing; blue's
/// Reverse only costs blue a life. Neither can make the other lose (W1, W2): a draw.
#[test]
fn a_position_no_one_can_win_is_a_draw() {
    let doc = level(
        &EIGHT,
        &[(4, &["blue"]), (7, &["red"])],
        json!({"cursor": 7}),
    );
    let g = start(&doc);
    let out = solve(&*g);
    assert_eq!(out.value, Value::Draw);
    // Skipping forever: red skips at 7 (1 visit ended without a command), cards 0–3 (5),
    // blue skips at 4 (6), cards 5 and 6 (8): the lap ends the game (A17).
    let mut s = g.searcher().unwrap();
    play_words(s.as_mut(), "skip");
    assert_eq!(s.status().unwrap(), SearchStatus::Running);
    play_words(s.as_mut(), "skip");
    assert_eq!(s.status().unwrap(), SearchStatus::Draw);
    assert_eq!(
        s.history_dependence(),
        None,
        "a lap draw is the state's own"
    );
    assert_eq!(after(&doc, "skip skip").summary()["reason"], "lap");
}

/// The same position: red's `do` (nothing changes, the visit executed a command), cards
/// 0–3, blue skips at 4, cards 5 and 6, red at 7 forward again after 7 visits without a
/// command: the first decision again, a draw by repetition, which depends on the start
/// (state 0).
#[test]
fn a_repeated_decision_ends_the_line_as_in_the_game() {
    let doc = level(
        &EIGHT,
        &[(4, &["blue"]), (7, &["red"])],
        json!({"cursor": 7}),
    );
    assert_eq!(after(&doc, "do skip").summary()["reason"], "repetition");
    let mut s = start(&doc).searcher().unwrap();
    play_words(s.as_mut(), "do");
    assert_eq!(s.status().unwrap(), SearchStatus::Running);
    assert_eq!(s.history_dependence(), None);
    play_words(s.as_mut(), "skip");
    assert_eq!(s.status().unwrap(), SearchStatus::Draw);
    assert_eq!(s.history_dependence(), Some(0));
    // Undo takes the repetition back.
    assert!(s.undo());
    assert_eq!(s.status().unwrap(), SearchStatus::Running);
    // The game's searcher after red's `do` knows the start was seen (the game's history).
    let mut s = after(&doc, "do").searcher().unwrap();
    play_words(s.as_mut(), "skip");
    assert_eq!(s.status().unwrap(), SearchStatus::Draw);
    assert_eq!(s.history_dependence(), Some(0));
    // And so does a fork made after red's `do`.
    let mut s = start(&doc).searcher().unwrap();
    play_words(s.as_mut(), "do");
    let mut f = s.fork();
    play_words(f.as_mut(), "skip");
    assert_eq!(f.status().unwrap(), SearchStatus::Draw);
}

/// Random games from drawn setups (placement, then execution): the searcher and the game
/// agree at every decision on the player to move, the number of choices, the words and
/// the end; undoing the whole line restores the start key.
#[test]
fn the_searcher_plays_as_the_game() {
    for seed in 0..6u64 {
        let mut g = tilesmith_engine::kind::pasta::Pasta
            .start(&json!({"kind": "pasta"}), seed)
            .unwrap();
        let mut s = g.searcher().unwrap();
        let start_key = s.key();
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut moves = Vec::new();
        let mut played = 0;
        while !s.status().unwrap().is_over() {
            assert_eq!(Some(s.to_move()), g.to_move());
            moves.clear();
            s.moves(&mut moves).unwrap();
            let inputs = g.legal_inputs().len() - 2;
            assert_eq!(inputs, moves.len().min(1000));
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mv = moves[(x % moves.len() as u64) as usize];
            assert_eq!(Some(s.word(mv)), g.input_word(Input::Choice(mv)));
            s.play(mv).unwrap();
            g.step(Input::Choice(mv));
            played += 1;
            assert!(played < 5000, "seed {seed}: the game does not end");
        }
        let status = g.summary()["status"].clone();
        assert_ne!(status, "running", "seed {seed}");
        match s.status().unwrap() {
            SearchStatus::Won(p) => assert_eq!(g.summary()["winner"], ["red", "blue"][p]),
            SearchStatus::Draw => assert_eq!(status, "draw"),
            other => panic!("seed {seed}: {other:?}"),
        }
        while s.undo() {}
        assert_eq!(s.key(), start_key, "seed {seed}");
    }
}

/// The search key holds the decisions seen: the same decision reached with another one seen
/// before (which would end a later line as a draw) is another search state; with the same
/// history, the same key.
#[test]
fn the_key_holds_the_decisions_seen() {
    use tilesmith_engine::kind::pasta::PastaSearch;
    let doc = level(
        &EIGHT,
        &[(4, &["blue"]), (7, &["red"])],
        json!({"cursor": 7}),
    );
    let g = start(&doc);
    let p = pasta::pasta(&*g);
    let other = after(&doc, "skip");
    let k = pasta::pasta(&*other).state().decision_key();
    let plain = PastaSearch::new(*p.state(), p.seen());
    let again = PastaSearch::new(*p.state(), p.seen());
    let mut more = p.seen().to_vec();
    more.push(k);
    let with_more = PastaSearch::new(*p.state(), &more);
    assert_eq!(plain.key(), again.key());
    assert_ne!(plain.key(), with_more.key());
    assert_eq!(
        plain.state().decision_key(),
        with_more.state().decision_key()
    );
}

/// A MoveFlag of effective value 3 (printed 1, two Increment chips) over 12 flags on the
/// other cards: each of 3 parts is a flag and a destination, so the decision has far more
/// choices than `WIDE_MOVES`. The Monte Carlo tree search draws them (issue #28: "the search
/// draws choices without listing them all"): after 300 iterations the root holds at most
/// `WIDEN_BASE + ⌊WIDEN_FACTOR·√300⌋` drawn moves, distinct and legal, and the move it
/// plays is one the game accepts. Flat Monte Carlo tries `FLAT_MC_CANDIDATES` of them.
#[test]
fn wide_decisions_are_drawn_not_listed() {
    use std::sync::atomic::AtomicBool;
    use tilesmith_engine::search::mcts::{self, SearchLimits, WIDE_MOVES, WIDEN_BASE};
    use tilesmith_engine::search::playout;
    let doc = level(
        &EIGHT,
        &[
            (0, &["red", "blue"]),
            (1, &["blue", "red"]),
            (2, &["red", "blue"]),
            (3, &["blue", "red"]),
            (4, &["red", "blue"]),
            (5, &["blue", "red"]),
            (6, &["red"]),
        ],
        json!({"cursor": 6, "chips": {"MoveFlag#1": 2}}),
    );
    let g = start(&doc);
    let mut s = g.searcher().unwrap();
    let n = s.move_count().unwrap().unwrap();
    assert!(n > 10_000, "{n} choices");
    assert!(n > WIDE_MOVES);
    let limits = SearchLimits {
        time: None,
        iterations: Some(300),
        seed: 7,
        ..SearchLimits::default()
    };
    let r = mcts::search(s.as_ref(), &limits, &AtomicBool::new(false), &mut |_| {}).unwrap();
    let bound = WIDEN_BASE + (2.0 * 300f64.sqrt()) as usize;
    assert!(r.turns.len() <= bound, "{} drawn", r.turns.len());
    assert!(r.turns.len() > WIDEN_BASE);
    let mut idx: Vec<usize> = r.turns.iter().map(|t| t.index).collect();
    idx.dedup();
    assert_eq!(idx.len(), r.turns.len(), "distinct, in increasing order");
    assert!(idx.iter().all(|&i| (i as u64) < n));
    let best = r.best_move.unwrap();
    assert_eq!(
        r.best,
        Some(best as usize),
        "a wide root's index is the move's number"
    );
    let mut g2 = start(&doc);
    let word = s.word(best);
    assert_eq!(r.notation.as_deref(), Some(word.as_str()));
    pasta::play(&mut *g2, &word);
    let mut rng = <rand_chacha::ChaCha8Rng as rand_core::SeedableRng>::seed_from_u64(3);
    let mv = playout::flat_monte_carlo(s.as_ref(), 1, &mut rng)
        .unwrap()
        .unwrap();
    assert!(u64::from(mv) < n);
    assert_eq!(playout::FLAT_MC_CANDIDATES, 256);
}

/// The prototype's leaf score (`gameToScore.ts`, noise left out), worked out by hand:
/// `f(n) = 32 − 2^(6−n)`, 32 above 6. Red life 5, 2 flags on cards; blue life 2, 1 flag:
/// red f(5) + f(2) − f(2) − f(1) = 30 + 16 − 16 − 0 = 30, blue −30. A game red won: 100
/// for red, −100 for blue.
#[test]
fn the_leaf_score_is_the_prototypes() {
    use tilesmith_engine::kind::pasta::search::prototype_score;
    let doc = level(
        &EIGHT,
        &[(0, &["red"]), (5, &["blue"]), (7, &["red"])],
        json!({"cursor": 0, "life": {"red": 5, "blue": 2}}),
    );
    let g = start(&doc);
    let st = *pasta::pasta(&*g).state();
    assert_eq!(prototype_score(&st, 0), 30);
    assert_eq!(prototype_score(&st, 1), -30);
    let mut s = g.searcher().unwrap();
    assert_eq!(s.leaf_score(0), Some((30.0 + 128.0) / 256.0));
    // Red's Bug at blue's last life: red wins (W1).
    let won = after(
        &level(
            &EIGHT,
            &[(0, &["red"]), (5, &["blue"])],
            json!({"cursor": 0, "life": {"red": 5, "blue": 1}}),
        ),
        "do",
    );
    let wst = *pasta::pasta(&*won).state();
    assert_eq!(prototype_score(&wst, 0), 100);
    assert_eq!(prototype_score(&wst, 1), -100);
}

/// A playout cut off by the ply limit is scored by the kind's leaf score (the prototype's),
/// not as a draw. Red's Bug (0) under the cursor; Rotate (7) holds blue's flag, then red's;
/// lives 5 and 3. The next decision after red's is blue's on Rotate, which changes nothing
/// here (no other card holds two flags), and no lap can end before it. Two iterations with
/// playouts of one decision score each of red's choices once, whatever blue does: after
/// `do` blue is at 2, red's leaf score `f(5) + f(2) − f(2) − f(1)` = 30 + 16 − 16 − 0 = 30;
/// after `skip`, 30 + 16 − 24 − 0 = 22; so `(30 + 128) / 256` and `(22 + 128) / 256` (as a
/// draw both would be 1/2), and the search plays `do`.
#[test]
fn the_tree_search_scores_cut_off_playouts_by_the_leaf_score() {
    use std::sync::atomic::AtomicBool;
    use tilesmith_engine::search::mcts::{self, SearchLimits};
    let doc = level(
        &EIGHT,
        &[(0, &["red"]), (7, &["blue", "red"])],
        json!({"cursor": 0, "life": {"red": 5, "blue": 3}}),
    );
    let s = start(&doc).searcher().unwrap();
    for seed in 0..4 {
        let limits = SearchLimits {
            time: None,
            iterations: Some(2),
            max_playout_plies: 1,
            seed,
            ..SearchLimits::default()
        };
        let r = mcts::search(s.as_ref(), &limits, &AtomicBool::new(false), &mut |_| {}).unwrap();
        assert_eq!(r.notation.as_deref(), Some("do"), "{r:?}");
        let score = |w: &str| r.turns.iter().find(|t| t.notation == w).unwrap().score;
        assert!((score("do") - 158.0 / 256.0).abs() < 1e-9, "{r:?}");
        assert!((score("skip") - 150.0 / 256.0).abs() < 1e-9, "{r:?}");
    }
}

/// The draw value of the tree search (contempt): red's flag on Rotate (7), blue's on
/// Reverse (4), cursor 7; after red's `skip`, blue's `skip` at Reverse ends an idle lap, a
/// draw (A17, as `a_position_no_one_can_win_is_a_draw` shows). Searched for blue, that
/// child scores the draw value given (0.2), or 1/2 without one.
#[test]
fn the_draw_value_scores_a_draw_for_the_root_player() {
    use std::sync::atomic::AtomicBool;
    use tilesmith_engine::search::mcts::{self, SearchLimits};
    let doc = level(
        &EIGHT,
        &[(4, &["blue"]), (7, &["red"])],
        json!({"cursor": 7}),
    );
    let s = after(&doc, "skip").searcher().unwrap();
    assert_eq!(s.to_move(), 1, "blue decides");
    for (draw, expected) in [(Some(0.2), 0.2), (None, 0.5)] {
        let limits = SearchLimits {
            time: None,
            iterations: Some(50),
            draw_value: draw,
            ..SearchLimits::default()
        };
        let r = mcts::search(s.as_ref(), &limits, &AtomicBool::new(false), &mut |_| {}).unwrap();
        let skip = r.turns.iter().find(|t| t.notation == "skip").unwrap();
        assert!(skip.visits > 0);
        assert!((skip.score - expected).abs() < 1e-9, "{draw:?}: {r:?}");
    }
}
