//! The shared search (`tilesmith_engine::search`) against known facts, through each kind's
//! `Game::searcher`: tic-tac-toe from the start is a draw (alpha-beta) and has 5 478
//! distinct legal positions, the empty board included (the exhaustive count); X to win in
//! one wins with @c3; a baba and a boulder level worked out by hand get their proved
//! shortest solutions, which win when played; small Keke levels get solutions no longer
//! than the stored ones; a boulder box with no way out is unsolvable with every state
//! counted; the time, memory and step budgets give `unknown`, and cancel stops the search.

#![allow(clippy::unwrap_used)]

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use tilesmith_engine::search::alphabeta::{self, Value};
use tilesmith_engine::search::bfs::{self, Answer, Limits};
use tilesmith_engine::search::{Budget, playout};
use tilesmith_engine::search_game::SearchGame;
use tilesmith_engine::{Game, Input, Status, load_file};
use tilesmith_tests::{baba, corpus, keke, workspace};

fn searcher_of(path: &str) -> Box<dyn SearchGame> {
    let doc = load_file(&workspace().join(path)).unwrap();
    doc.start(0).unwrap().searcher().unwrap()
}

fn no_cancel() -> AtomicBool {
    AtomicBool::new(false)
}

fn solve(g: &mut dyn SearchGame, limits: &Limits) -> bfs::Outcome {
    bfs::solve(g, limits, &no_cancel(), &mut |_| {}).unwrap()
}

fn solution(out: &bfs::Outcome) -> String {
    match &out.answer {
        Answer::Solved(s) => s.words.join(" "),
        other => panic!("not solved: {other:?} ({} states)", out.states),
    }
}

#[test]
fn tic_tac_toe_is_a_draw() {
    let mut g = searcher_of("levels/board/tic-tac-toe.zrf");
    let limits = alphabeta::Limits::default();
    let out = alphabeta::value(g.as_mut(), &limits, &no_cancel(), &mut |_| {}).unwrap();
    assert_eq!(out.value, Value::Draw);
    // Proved at depth 9, where every line has ended; the principal variation is a whole
    // drawn game of nine drops.
    assert_eq!(out.depth, 9);
    assert_eq!(out.pv.len(), 9, "{:?}", out.pv_words);
    // Short of the end, the value is not known: at 8 plies every line still has a drop left.
    let short = alphabeta::Limits {
        max_plies: 8,
        ..limits
    };
    let out = alphabeta::value(g.as_mut(), &short, &no_cancel(), &mut |_| {}).unwrap();
    assert_eq!(
        (out.value, out.stopped),
        (Value::Unknown, Some(Budget::Steps))
    );
}

#[test]
fn tic_tac_toe_has_5478_positions() {
    let mut g = searcher_of("levels/board/tic-tac-toe.zrf");
    let out = bfs::explore(g.as_mut(), &Limits::default(), &no_cancel(), &mut |_| {}).unwrap();
    assert_eq!(out.answer, Answer::Unsolvable, "the count is complete");
    assert_eq!(out.states, 5478);
}

#[test]
fn x_to_win_in_one_takes_the_diagonal() {
    // X on a1 and b2, O on c1 and a3: c3 completes a1-b2-c3, the only line X can complete.
    let mut g = searcher_of("levels/board/tic-tac-toe-x-to-win.json");
    let out = alphabeta::value(
        g.as_mut(),
        &alphabeta::Limits::default(),
        &no_cancel(),
        &mut |_| {},
    )
    .unwrap();
    assert_eq!(out.value, Value::Win(1));
    assert_eq!(out.pv_words, ["@c3"]);
}

/// Baba at the left of row 2 must push WIN two cells left to finish FLAG IS WIN, standing
/// on the flag as it does: it reaches the cell right of WIN in 6 moves (5 right, 1 down: a
/// move down in columns 0 and 4 would push text out of the map and fail) and pushes twice.
const BABA_BY_HAND: &str = "
    [BABA] [IS] [YOU] .     .     .
    .      .    .     .     .     .
    B      .    .     .     .     .
    [FLAG] [IS] .     F     [WIN] .
";

#[test]
fn a_baba_level_worked_out_by_hand() {
    let game = baba::game(BABA_BY_HAND, &[]);
    let mut g = game.searcher().unwrap();
    let out = solve(g.as_mut(), &Limits::default());
    assert_eq!(solution(&out), "R R R R R D L L");
    // Played through the game as `run` plays it: a win at the last move.
    let mut played = baba::game(BABA_BY_HAND, &[]);
    baba::play(&mut played, "R R R R R D L L");
    assert!(matches!(played.status(), Status::Won { .. }));
    // From the state after a first R the rest is 7 moves; the search leaves the searcher
    // where it was, its own path (the R) still undoable.
    let mut g = game.searcher().unwrap();
    let start = g.key();
    g.play(2).unwrap();
    let after = g.key();
    assert_eq!(
        solution(&solve(g.as_mut(), &Limits::default())),
        "R R R R D L L"
    );
    assert_eq!(g.key(), after);
    assert!(g.undo());
    assert_eq!(g.key(), start);
    // One move fewer is not enough: with a step bound of 7 the answer is unknown.
    let mut g = game.searcher().unwrap();
    let bound = Limits {
        max_steps: Some(7),
        ..Limits::default()
    };
    assert_eq!(
        solve(g.as_mut(), &bound).answer,
        Answer::Unknown(Budget::Steps)
    );
}

/// The gem lies below the figure, the exit four fields to its right: a meta move takes the
/// gem without moving (MD), then four moves right enter the opened exit. Going down for the
/// gem and back up takes one move more.
const BOULDER_BY_HAND: &str = "
    wall wall wall wall wall wall
    wall me   path path path exit
    wall gem  wall wall wall wall
    wall wall wall wall wall wall
";

fn boulder_game(map: &str, ticks: u32) -> tilesmith_engine::kind::boulder::BoulderGame {
    let mut level = tilesmith_tests::level(tilesmith_tests::grid(map));
    level.gems = [1, 1, 1];
    level.ticks = [ticks; 3];
    tilesmith_engine::kind::boulder::BoulderGame::new(level, 0)
}

#[test]
fn a_boulder_level_worked_out_by_hand() {
    let game = boulder_game(BOULDER_BY_HAND, 100);
    let mut g = game.searcher().unwrap();
    let out = solve(g.as_mut(), &Limits::default());
    assert_eq!(solution(&out), "MD R R R R");
    let mut played = boulder_game(BOULDER_BY_HAND, 100);
    let kind = played.kind();
    for i in tilesmith_engine::parse_inputs(kind, "MD R R R R").unwrap() {
        played.step(i);
    }
    assert!(matches!(played.status(), Status::Won { .. }));
}

#[test]
fn a_closed_box_is_unsolvable_with_every_state_counted() {
    // The figure is walled in and there is no exit: it waits out the time limit of 2 ticks.
    // The kind's dead test (no way from the figure to an exit) proves it at the start: one
    // state.
    let map = "wall wall wall
               wall me   wall
               wall wall wall";
    let game = boulder_game(map, 2);
    let mut g = game.searcher().unwrap();
    let out = solve(g.as_mut(), &Limits::default());
    assert_eq!((out.answer, out.states), (Answer::Unsolvable, 1));
    // A rule that could put a figure on the map and add a gem (a pot becomes `me`, gems + 1;
    // there is no pot) takes both bounds and the dead test away. Its condition names the
    // global `ticks` (a pot at tick 0 or later), so the visited key keeps `ticks` and every
    // state is counted: ticks 0, 1 and 2 running, tick 3 lost (the time ran out): 4.
    let closed = |condition: serde_json::Value| {
        let mut level = tilesmith_tests::level(tilesmith_tests::grid(map));
        level.gems = [1, 1, 1];
        level.ticks = [2; 3];
        let rule = serde_json::json!({"situation": "any", "direction": "east",
            "original": [{"token": "pot", "values": condition}],
            "result": [{"token": "me", "values": {"gems": 1}}]});
        level.pre = vec![
            tilesmith_engine::kind::boulder::level::rule_from_json(
                &rule,
                &tilesmith_engine::problem::JsonPath::root(),
            )
            .unwrap(),
        ];
        let game = tilesmith_engine::kind::boulder::BoulderGame::new(level, 0);
        game.searcher().unwrap()
    };
    let mut g = closed(serde_json::json!({"ticks": 1}));
    assert_eq!(g.estimate(), None);
    let out = solve(g.as_mut(), &Limits::default());
    assert_eq!((out.answer, out.states), (Answer::Unsolvable, 4));
    // Without the condition, nothing names `ticks`: a wait that changes nothing reaches the
    // start's state a tick later, which the search prunes (`docs/solver.md`, "Boulder's
    // visited key"): one state.
    let mut g = closed(serde_json::json!({}));
    assert_eq!(g.estimate(), None);
    let out = solve(g.as_mut(), &Limits::default());
    assert_eq!((out.answer, out.states), (Answer::Unsolvable, 1));
}

#[test]
fn small_keke_levels_are_solved_no_longer_than_their_stored_solutions() {
    let levels = keke::load_all(&corpus("baba/keke"));
    let mut solved = 0;
    for l in levels
        .iter()
        .filter(|l| l.set == "demo" && l.inputs.len() <= 13)
    {
        // Only levels whose stored solution wins in this engine are compared.
        let mut replay = tilesmith_engine::kind::baba::BabaGame::new(l.level.clone(), 0);
        let wins = l.inputs.iter().any(|i| {
            replay.step(*i);
            matches!(replay.status(), Status::Won { .. })
        });
        if !wins {
            continue;
        }
        let game = tilesmith_engine::kind::baba::BabaGame::new(l.level.clone(), 0);
        let mut g = game.searcher().unwrap();
        let out = solve(g.as_mut(), &Limits::default());
        let Answer::Solved(s) = &out.answer else {
            panic!("demo {}: {:?}", l.id, out.answer);
        };
        assert!(
            s.moves.len() <= l.inputs.len(),
            "demo {}: {} moves against the stored {}",
            l.id,
            s.moves.len(),
            l.inputs.len()
        );
        let mut played = tilesmith_engine::kind::baba::BabaGame::new(l.level.clone(), 0);
        let kind = played.kind();
        for i in tilesmith_engine::parse_inputs(kind, &s.words.join(" ")).unwrap() {
            played.step(i);
        }
        assert!(
            matches!(played.status(), Status::Won { .. }),
            "demo {}",
            l.id
        );
        solved += 1;
    }
    assert!(solved >= 5, "only {solved} small demo levels compared");
}

#[test]
fn budgets_give_unknown() {
    // spell-win needs more than 15 moves (its search is far from done in a fraction of a
    // second): time and memory budgets stop it with what was explored.
    let mut g = searcher_of("levels/baba/spell-win.json");
    let t = Instant::now();
    let out = solve(
        g.as_mut(),
        &Limits {
            time: Some(Duration::from_millis(200)),
            ..Limits::default()
        },
    );
    assert_eq!(out.answer, Answer::Unknown(Budget::Time));
    assert!(out.states > 1);
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    let out = solve(
        g.as_mut(),
        &Limits {
            memory: 256 << 10,
            ..Limits::default()
        },
    );
    assert_eq!(out.answer, Answer::Unknown(Budget::Memory));
    // Every stored state holds a 16-byte key in a visited table at most ¾ full and a 12-byte
    // record, all counted against the budget: at most 256 KiB / (16 · 4/3 + 12) = 7 864
    // states (a search that left the table out of its count stores 8 192 here).
    assert!(
        out.states * (64 + 36) <= 3 * (256 << 10),
        "{} states",
        out.states
    );
    // The searcher is back at the start after a search: the same search again gives the
    // same answer.
    let again = solve(
        g.as_mut(),
        &Limits {
            memory: 256 << 10,
            ..Limits::default()
        },
    );
    assert_eq!(again.states, out.states);
}

#[test]
fn cancel_stops_the_search() {
    let mut g = searcher_of("levels/baba/spell-win.json");
    let cancel = AtomicBool::new(false);
    let t = Instant::now();
    let out = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(100));
            cancel.store(true, Ordering::Relaxed);
        });
        bfs::solve(g.as_mut(), &Limits::default(), &cancel, &mut |_| {}).unwrap()
    });
    assert_eq!(out.answer, Answer::Unknown(Budget::Cancelled));
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
}

#[test]
fn flat_monte_carlo_takes_an_immediate_win() {
    // X on a1 and b1, O on a2 and b2, X to move: c1 wins at once (every playout scores 1);
    // any other drop but c2 leaves O its win on c2, and c2 leaves the game open, so over 100
    // playouts each scores below c1's.
    let mut doc = load_file(&workspace().join("levels/board/tic-tac-toe.zrf")).unwrap();
    doc.value["setup"] =
        serde_json::json!({"X": {"Man": ["a1", "b1"]}, "O": {"Man": ["a2", "b2"]}});
    doc.value["reserve"] = serde_json::json!({"X": {"Man": 3}, "O": {"Man": 2}});
    doc.value["to_move"] = serde_json::json!("X");
    let g = doc.kind.start(&doc.value, 0).unwrap().searcher().unwrap();
    for seed in 0..3 {
        let mut rng = <rand_chacha::ChaCha8Rng as rand_core::SeedableRng>::seed_from_u64(seed);
        let mv = playout::flat_monte_carlo(g.as_ref(), 100, &mut rng)
            .unwrap()
            .unwrap();
        assert_eq!(g.word(mv), "@c1", "seed {seed}");
    }
}

#[test]
fn baba_search_moves_are_its_five_words() {
    let game = baba::game(BABA_BY_HAND, &[]);
    let mut g = game.searcher().unwrap();
    let mut moves = Vec::new();
    g.moves(&mut moves).unwrap();
    let words: Vec<String> = moves.iter().map(|&m| g.word(m)).collect();
    assert_eq!(words, [".", "L", "R", "U", "D"]);
    // A move played and undone leaves the state as it was.
    let key = g.key();
    g.play(moves[2]).unwrap();
    assert_ne!(g.key(), key);
    assert!(g.undo());
    assert_eq!(g.key(), key);
    assert!(!g.undo(), "the searcher's path starts at its copy");
    // Stepping the game itself is unaffected by its searcher.
    let mut same = baba::game(BABA_BY_HAND, &[]);
    same.step(Input::Move(tilesmith_engine::Dir::Right));
    assert_eq!(same.steps(), 1);
}

/// The baba searcher keeps its key up to date as objects change, and a turn's undo puts
/// back the rules and properties the turn started with (docs/solver.md): after any walk of
/// plays and undos over Keke levels (demo, test, a quarter of full_biy), the searcher's key,
/// rules (with their tiles) and each object's properties are those of a game that played the
/// same path from the start, whose key is computed over every object; and one key never
/// stands for two different states.
#[test]
fn baba_searchers_after_plays_and_undos_match_the_same_states_made_afresh() {
    use tilesmith_engine::kind::baba::{BabaGame, BabaSearch, Prop};
    let levels = keke::load_all(&corpus("baba/keke"));
    let mut rng: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut draw = |n: u64| {
        rng = rng
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (rng >> 33) % n
    };
    let view = |g: &BabaGame| {
        let rules: Vec<_> = g.rules().iter().map(|r| format!("{r:?}")).collect();
        let props: Vec<Vec<u32>> = g
            .objects()
            .iter()
            .map(|o| Prop::ALL.iter().map(|&p| g.prop_count(o.id, p)).collect())
            .collect();
        (g.objects(), g.status(), rules, props)
    };
    let mut compared = 0;
    // Demo, test and every 4th level of full_biy.
    let chosen = levels
        .iter()
        .enumerate()
        .filter(|(k, l)| l.set == "demo" || l.set == "test" || (l.set == "full_biy" && k % 4 == 0));
    for (_, l) in chosen {
        let mut g = BabaSearch::new(&BabaGame::new(l.level.clone(), 0));
        let mut path: Vec<String> = Vec::new();
        let mut seen = std::collections::HashMap::new();
        for _ in 0..60 {
            if !path.is_empty() && draw(3) == 0 {
                assert!(g.undo());
                path.pop();
            } else {
                let mv = draw(5) as u32;
                let mut moves = Vec::new();
                g.moves(&mut moves).unwrap();
                if moves.is_empty() {
                    continue;
                }
                path.push(g.word(mv));
                g.play(mv).unwrap();
            }
            let mut fresh = BabaGame::new(l.level.clone(), 0);
            let kind = fresh.kind();
            for i in tilesmith_engine::parse_inputs(kind, &path.join(" ")).unwrap() {
                fresh.step(i);
            }
            let key = g.key();
            assert_eq!(
                key,
                fresh.searcher().unwrap().key(),
                "{} {} after {path:?}",
                l.set,
                l.id
            );
            let state = view(&fresh);
            assert!(
                view(g.game()) == state,
                "{} {}: rules or properties after {path:?}",
                l.set,
                l.id
            );
            let objects = (state.0, state.1);
            assert_eq!(
                *seen.entry(key).or_insert_with(|| objects.clone()),
                objects,
                "{} {}: one key for two states",
                l.set,
                l.id
            );
            compared += 1;
        }
    }
    assert!(compared > 500, "only {compared} states compared");
}

/// Each legal move's value (`search::solve::move_values`), worked out by hand: with X on a1
/// and b2 and O on c1 and a3, c3 completes the diagonal (a win in one ply); each of the four
/// other drops makes a second line of two beside the open diagonal (b1: b1-b2-b3; a2:
/// a2-b2-c2; c2: the same row; b3: the column), O has no line of two to win with first and
/// can block only one, so X wins on its next drop: three plies.
#[test]
fn each_move_of_x_to_win_has_its_value() {
    use tilesmith_engine::search::solve::{Limits as SolveLimits, move_values};
    let g = searcher_of("levels/board/tic-tac-toe-x-to-win.json");
    let values = move_values(
        g.as_ref(),
        &SolveLimits::default(),
        &no_cancel(),
        &mut |_, _| {},
    )
    .unwrap();
    let mut got: Vec<(String, Value)> = values.into_iter().map(|m| (m.word, m.value)).collect();
    got.sort_by(|a, b| a.0.cmp(&b.0));
    let want = [
        ("@a2", Value::Win(3)),
        ("@b1", Value::Win(3)),
        ("@b3", Value::Win(3)),
        ("@c2", Value::Win(3)),
        ("@c3", Value::Win(1)),
    ];
    let want: Vec<(String, Value)> = want.iter().map(|(w, v)| (w.to_string(), *v)).collect();
    assert_eq!(got, want);
}

/// From the empty tic-tac-toe board every first drop is a draw with best play (the game is
/// a draw and no opening loses by force: the known result).
#[test]
fn every_first_drop_of_tic_tac_toe_is_a_draw() {
    use tilesmith_engine::search::solve::{Limits as SolveLimits, move_values};
    let g = searcher_of("levels/board/tic-tac-toe.zrf");
    let values = move_values(
        g.as_ref(),
        &SolveLimits::default(),
        &no_cancel(),
        &mut |_, _| {},
    )
    .unwrap();
    assert_eq!(values.len(), 9);
    for m in &values {
        assert_eq!(m.value, Value::Draw, "{}", m.word);
    }
}

/// A searcher on a level of more objects than a turn keeps a whole refresh for
/// (`MAX_KEPT_OBJECTS`, 512: the patches along a search's path would hold a copy each):
/// undoing a turn that broke a rule gives the rules and properties of the state before, as
/// a fresh game has them. It fails if the turn forgets to give its kept refresh up; that no
/// copy is kept is checked inside the baba crate
/// (`a_searchers_turn_keeps_a_whole_refresh_only_up_to_the_object_limit`).
#[test]
fn a_baba_searcher_over_the_object_limit_undoes_a_rule_change_exactly() {
    use tilesmith_engine::kind::baba::{BabaSearch, Prop};
    // ROCK IS PUSH in row 1, BABA under IS; 20 rows of 20 cells of 3 rocks (at most
    // `STACK_CAP`, 6, of a kind in a cell): 1 200 rocks.
    let blank = vec!["."; 17].join(" ");
    let mut board = format!(
        ". . . {blank}\n. [rock] [is] [push] {}\n. . B {blank}\n",
        vec!["."; 16].join(" ")
    );
    for _ in 0..20 {
        board.push_str(&vec!["3R"; 20].join(" "));
        board.push('\n');
    }
    let start = tilesmith_tests::baba::game(&board, &["baba is you"]);
    assert!(start.objects().len() > 1200);
    let pushable = |g: &tilesmith_engine::kind::baba::BabaGame| {
        g.objects()
            .iter()
            .filter(|o| g.prop_count(o.id, Prop::Push) > 0)
            .count()
    };
    let rules = |g: &tilesmith_engine::kind::baba::BabaGame| {
        g.rules()
            .iter()
            .map(|r| format!("{r:?}"))
            .collect::<Vec<_>>()
    };
    // Every rock and the three words are PUSH at the start (text is always PUSH).
    assert_eq!(pushable(&start), 1203);
    let mut g = BabaSearch::new(&start);
    g.play(3).unwrap(); // U: IS goes up a row, ROCK IS PUSH is broken.
    assert_eq!(pushable(g.game()), 3, "only the words stay PUSH");
    assert!(g.undo());
    assert_eq!(pushable(g.game()), 1203);
    assert_eq!(rules(g.game()), rules(&start));
    assert_eq!(g.key(), start.searcher().unwrap().key());
}
