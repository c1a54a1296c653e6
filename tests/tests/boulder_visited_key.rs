//! Boulder's visited key (issue #29; `docs/solver.md`, "Boulder's visited key"): when no
//! rule names the global `ticks`, the one-player searches prune a state reached at a later
//! tick than the same state before. Checked against the same searches on the exact key (a
//! wrapper that keeps `ticks` in): on seeded random small maps, with and without a rule
//! that runs every second tick, the answers and the solutions' lengths are the same (or the
//! pruned search proves a map unsolvable where the exact one runs into the step bound), and
//! fewer states are stored. The keys themselves on a map where waiting changes nothing:
//! the phase of a `rare` rule stays in them, and `ticks` stays in when a rule names it.

#![allow(clippy::unwrap_used)] // test helpers panic on purpose when a fixture is wrong

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use serde_json::json;
use tilesmith_engine::Game as _;
use tilesmith_engine::input::Input;
use tilesmith_engine::kind::boulder::BoulderLevel;
use tilesmith_engine::kind::boulder::game::BoulderGame;
use tilesmith_engine::search::Algorithm;
use tilesmith_engine::search::bfs::{self, Answer, Limits, Outcome};
use tilesmith_engine::search_game::{Move, SearchError, SearchGame, SearchStatus, StateKey};
use tilesmith_tests::boulder_maps::{random_level, search as run, searcher, with_rules};
use tilesmith_tests::{grid, level};

/// The kind's searcher with the exact key as its visited key (the trait's default).
struct Exact(Box<dyn SearchGame>);

impl SearchGame for Exact {
    fn players(&self) -> usize {
        self.0.players()
    }
    fn to_move(&self) -> usize {
        self.0.to_move()
    }
    fn status(&mut self) -> Result<SearchStatus, SearchError> {
        self.0.status()
    }
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), SearchError> {
        self.0.moves(out)
    }
    fn play(&mut self, mv: Move) -> Result<(), SearchError> {
        self.0.play(mv)
    }
    fn undo(&mut self) -> bool {
        self.0.undo()
    }
    fn fork(&self) -> Box<dyn SearchGame> {
        Box::new(Exact(self.0.fork()))
    }
    fn key(&self) -> StateKey {
        self.0.key()
    }
    fn word(&self, mv: Move) -> String {
        self.0.word(mv)
    }
    fn bytes(&self) -> usize {
        self.0.bytes()
    }
    fn is_dead(&mut self) -> bool {
        self.0.is_dead()
    }
    fn estimate(&mut self) -> Option<u32> {
        self.0.estimate()
    }
}

/// The answer's kind and the solution's length.
fn shape(o: &Outcome) -> (&'static str, Option<usize>) {
    match &o.answer {
        Answer::Solved(s) => {
            assert!(s.shortest);
            ("solved", Some(s.moves.len()))
        }
        Answer::Unsolvable => ("unsolvable", None),
        Answer::Unknown(_) => ("unknown", None),
    }
}

/// A rule that runs every second tick and turns mud into path: the map changes with the
/// tick's parity, so the phase must stay in the key.
fn every_second_tick() -> serde_json::Value {
    json!({"situation": "rare", "sparsity": 2, "direction": "east",
        "original": [{"token": "mud"}], "result": [{"token": "path"}]})
}

#[test]
fn pruning_later_ticks_keeps_every_answer_and_stores_fewer_states() {
    const MAX: u32 = 9;
    let mut rng = ChaCha8Rng::seed_from_u64(2029);
    let (mut solved, mut other, mut pruned, mut exact_total) = (0, 0, 0u64, 0u64);
    let mut decided_only_pruned = 0;
    for n in 0..90 {
        let mut l = random_level(&mut rng);
        if n % 3 == 0 {
            l = with_rules(l, &[every_second_tick()]);
        }
        for algorithm in [Algorithm::Bfs, Algorithm::AStar, Algorithm::Ida] {
            let mut timeless = searcher(&l);
            let mut exact = Exact(searcher(&l));
            let t = run(timeless.as_mut(), algorithm, MAX);
            let e = run(&mut exact, algorithm, MAX);
            match (shape(&t), shape(&e)) {
                // The exact key runs into the step bound where the pruned search has seen
                // every state it can reach (all of them within fewer ticks): only it knows.
                (("unsolvable", _), ("unknown", _)) => {
                    // Checked: the exact key, given the whole time limit (40 ticks), finds
                    // no win either.
                    let mut longer = Exact(searcher(&l));
                    let full = run(&mut longer, algorithm, 41);
                    assert_eq!(shape(&full).0, "unsolvable", "map {n}, {algorithm:?}");
                    decided_only_pruned += 1;
                }
                (a, b) => assert_eq!(a, b, "map {n}, {algorithm:?}"),
            }
            if algorithm == Algorithm::Bfs {
                assert!(t.states <= e.states, "map {n}: {} > {}", t.states, e.states);
                pruned += e.states - t.states;
                exact_total += e.states;
                match shape(&t).0 {
                    "solved" => solved += 1,
                    _ => other += 1,
                }
            }
        }
    }
    // Not vacuous: both kinds of answer occur, and the pruning removed states.
    assert!(solved >= 20 && other >= 10, "{solved} solved, {other} not");
    assert!(
        pruned * 10 >= exact_total,
        "only {pruned} of {exact_total} states pruned"
    );
    eprintln!(
        "{decided_only_pruned} of 270 answers only the pruned search gave within the bound; {pruned} of {exact_total} states pruned"
    );
}

/// The keys after 0, 1 and 2 waits on a map where waiting changes nothing.
fn keys_after_waits(l: &BoulderLevel) -> Vec<(StateKey, StateKey)> {
    let mut g = BoulderGame::new(l.clone(), 0);
    let mut out = Vec::new();
    for k in 0..3 {
        if k > 0 {
            g.step(Input::Wait);
        }
        let s = g.searcher().unwrap();
        out.push((s.key(), s.visited_key()));
    }
    out
}

#[test]
fn the_visited_key_leaves_out_ticks_but_keeps_a_rare_rules_phase() {
    let still = level(grid("wall me wall exit"));
    let k = keys_after_waits(&still);
    assert!(k[0].0 != k[1].0 && k[1].0 != k[2].0, "ticks are in the key");
    assert_eq!(
        k[0].1, k[1].1,
        "a wait that changes nothing: the same visited key"
    );
    assert_eq!(k[1].1, k[2].1);
    // A rule every second tick over a map with no mud: nothing changes, but the phase does.
    let rare = with_rules(still.clone(), &[every_second_tick()]);
    let k = keys_after_waits(&rare);
    assert_ne!(k[0].1, k[1].1, "tick 0 and tick 1 differ in phase");
    assert_eq!(k[0].1, k[2].1, "tick 0 and tick 2: the same phase");
    // A rule that reads `ticks`: the visited key keeps it.
    let reads = json!({"situation": "any", "direction": "east",
        "original": [{"token": "exit", "values": {"ticks": 5}}], "result": [{"token": "0"}]});
    let k = keys_after_waits(&with_rules(still, &[reads]));
    assert!(k[0].1 != k[1].1 && k[1].1 != k[2].1, "ticks stay in");
}

/// The exhaustive count (`--exhaustive`, `bfs::explore`) is of distinct states, so it keeps
/// `ticks` apart whatever the rules name: a corridor to an exit with a time limit of 8 counts
/// the same with and without a rule that names `ticks` and never fires, and more than the
/// states a solve with the visited key stores.
#[test]
fn the_exhaustive_count_keeps_ticks_apart() {
    let corridor = || {
        let mut l = level(grid("wall me path path exit wall"));
        l.ticks = [8; 3];
        l
    };
    let never = json!({"situation": "any", "direction": "east",
        "original": [{"token": "wall", "values": {"ticks": 1000}}], "result": [{"token": "0"}]});
    let explore = |l: &BoulderLevel| {
        let cancel = std::sync::atomic::AtomicBool::new(false);
        let o = bfs::explore(
            searcher(l).as_mut(),
            &Limits::default(),
            &cancel,
            &mut |_| {},
        )
        .unwrap();
        assert_eq!(o.answer, Answer::Unsolvable, "the count is complete");
        o.states
    };
    let plain = explore(&corridor());
    let named = explore(&with_rules(corridor(), &[never]));
    assert_eq!(plain, named);
    // At least the running states (x, tick) worked out by hand: tick 0 at x = 1, tick 1 at
    // x = 1 or 2, ticks 2 to 8 at x = 1, 2 or 3: 24.
    assert!(plain >= 24, "{plain}");
    let solve = run(searcher(&corridor()).as_mut(), Algorithm::Bfs, 100);
    assert!(solve.states < plain, "{} against {plain}", solve.states);
}
