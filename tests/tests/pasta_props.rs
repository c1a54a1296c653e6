//! Property tests of the Pasta Logic kind (issue #28, "Conformance"): random legal games
//! (a seeded random player over `legal_inputs`) from random setups and random programs
//! never panic and end; every listed word is read back to its entry and other words are
//! refused with the game unchanged; `--out` at any decision loads and plays the rest
//! identically; undo of every decision restores the state hash, and redo replays it.

#![allow(clippy::unwrap_used)]

mod pasta;

use pasta::{pasta, start, words};
use proptest::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use serde_json::{Value, json};
use tilesmith_engine::Game;
use tilesmith_engine::input::Input;
use tilesmith_engine::kind::pasta::Card;

/// The level schema (`schemas/level.schema.json`), compiled once.
fn level_schema() -> &'static jsonschema::Validator {
    static SCHEMA: std::sync::OnceLock<jsonschema::Validator> = std::sync::OnceLock::new();
    SCHEMA.get_or_init(|| {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/level.schema.json");
        let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        jsonschema::draft202012::new(&schema).unwrap()
    })
}

/// The most decisions a random game may take before the test calls it endless.
const MAX_DECISIONS: usize = 20_000;

/// A random program in the execution phase: 1–16 distinct cards, random queues (each player
/// at least one flag, at most 10 on cards), random lives, cursor, direction and chips.
fn random_program(rng: &mut ChaCha8Rng) -> Value {
    let mut pool: Vec<Card> = Card::ALL.to_vec();
    let n = 1 + (rng.next_u32() % 16) as usize;
    let mut cards = Vec::new();
    for _ in 0..n {
        let i = (rng.next_u32() as usize) % pool.len();
        cards.push(pool.swap_remove(i));
    }
    let mut q: Vec<Vec<&str>> = vec![Vec::new(); n];
    let mut left = [1 + rng.next_u32() % 10, 1 + rng.next_u32() % 10];
    for (p, name) in ["red", "blue"].iter().enumerate() {
        while left[p] > 0 {
            q[(rng.next_u32() as usize) % n].push(name);
            left[p] -= 1;
        }
    }
    for f in &mut q {
        // Mix the colours within each queue.
        for i in (1..f.len()).rev() {
            f.swap(i, (rng.next_u32() as usize) % (i + 1));
        }
    }
    let mut chips = serde_json::Map::new();
    let (mut inc, mut dec) = (0, 0);
    for c in &cards {
        for (k, &printed) in c.params().iter().enumerate() {
            let r = rng.next_u32() % 6;
            if r == 0 && inc < 2 {
                inc += 1;
                chips.insert(format!("{}#{}", c.name(), k + 1), json!(1));
            } else if r == 1 && dec < 2 && printed > 0 {
                dec += 1;
                chips.insert(format!("{}#{}", c.name(), k + 1), json!(-1));
            }
        }
    }
    json!({
        "kind": "pasta",
        "cards": cards.iter().map(|c| c.name()).collect::<Vec<_>>(),
        "flags": q,
        "life": {"red": 1 + rng.next_u32() % 6, "blue": 1 + rng.next_u32() % 6},
        "cursor": rng.next_u32() as usize % n,
        "direction": if rng.next_u32().is_multiple_of(2) { "forward" } else { "backward" },
        "chips": chips,
    })
}

/// A random level: half the time the setup of §4 (placement first), else a random program.
fn random_level(seed: u64) -> Value {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    if rng.next_u32().is_multiple_of(2) {
        json!({"kind": "pasta", "first": if seed.is_multiple_of(3) { "blue" } else { "red" }})
    } else {
        random_program(&mut rng)
    }
}

/// Plays a random game of `doc` (seed `seed` for the setup and the player) and returns the
/// words played; calls `each` before every decision.
fn random_game(
    doc: &Value,
    seed: u64,
    mut each: impl FnMut(&mut dyn Game),
) -> (Box<dyn Game>, Vec<String>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x9e37_79b9);
    let mut g = tilesmith_engine::GameKind::start(&tilesmith_engine::kind::pasta::Pasta, doc, seed)
        .unwrap();
    let mut played = Vec::new();
    while !g.status().is_over() {
        assert!(
            played.len() < MAX_DECISIONS,
            "no end after {MAX_DECISIONS} decisions: {}",
            g.summary()
        );
        each(&mut *g);
        let w = words(&*g);
        assert!(
            !w.is_empty(),
            "a running game has a legal word: {}",
            g.summary()
        );
        let word = w[(rng.next_u32() as usize) % w.len()].clone();
        let input = g.read_input(&word).unwrap();
        g.step(input);
        played.push(word);
    }
    (g, played)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Random games end (W1, W2, A13, A17 or repetition), and a finished game takes no word.
    #[test]
    fn random_games_end(seed in any::<u64>()) {
        let doc = random_level(seed);
        let (g, _) = random_game(&doc, seed, |_| {});
        let s = g.summary();
        prop_assert!(["won", "draw"].contains(&s["status"].as_str().unwrap()));
        prop_assert!(s["reason"].is_string());
        prop_assert!(words(&*g).is_empty());
    }

    /// Every listed word reads back to its own entry, its own canonical word; a word with
    /// its card names in another case reads the same; other words are refused and leave the
    /// game as it was.
    #[test]
    fn words_are_read_back_and_others_refused(seed in any::<u64>()) {
        let doc = random_level(seed);
        random_game(&doc, seed, |g| {
            let listed = g.legal_inputs();
            for c in &listed {
                assert_eq!(g.read_input(&c.word).unwrap(), c.input, "{}", c.word);
                if let Input::Choice(_) = c.input {
                    assert_eq!(g.input_word(c.input).as_deref(), Some(c.word.as_str()));
                    let upper = c.word.to_ascii_uppercase();
                    assert_eq!(g.read_input(&upper).unwrap(), c.input, "{upper}");
                }
            }
            let hash = g.state_hash();
            // A listed word changed a little is refused, or is another legal choice whose
            // canonical word reads back to it.
            for c in listed.iter().take(40) {
                for w in [format!("{}+Bug", c.word), format!("{}1", c.word), c.word.replace('1', "2")] {
                    if let Ok(i) = g.read_input(&w) {
                        let canon = g.input_word(i).unwrap();
                        assert_eq!(g.read_input(&canon).unwrap(), i, "{w} → {canon}");
                    }
                }
            }
            for bad in ["dox", "do:", "do:Nothing", "@", "skip:1", "do:Bug.0", "do:Bug#0", "pass", "do:+", "@Bug@"] {
                if listed.iter().any(|c| c.word.eq_ignore_ascii_case(bad)) {
                    continue;
                }
                assert!(g.read_input(bad).is_err(), "{bad} is refused at {}", g.summary());
            }
            // `do` is legal only where the command has nothing to choose.
            if !listed.iter().any(|c| c.word == "do") {
                assert!(g.read_input("do").is_err());
            }
            assert_eq!(g.state_hash(), hash);
        });
    }

    /// `--out` at a random decision: the saved level checks, loads, and plays the rest of
    /// the words to the same summaries and the same end.
    #[test]
    fn saved_games_play_the_rest_identically(seed in any::<u64>()) {
        let doc = random_level(seed);
        let (whole, played) = random_game(&doc, seed, |_| {});
        let cut = (seed as usize) % (played.len() + 1);
        let mut g = tilesmith_engine::GameKind::start(&tilesmith_engine::kind::pasta::Pasta, &doc, seed).unwrap();
        for w in &played[..cut] {
            let i = g.read_input(w).unwrap();
            g.step(i);
        }
        let saved = g.to_level();
        let problems = tilesmith_engine::GameKind::check(&tilesmith_engine::kind::pasta::Pasta, &saved);
        if g.status().is_over() {
            return Ok(());
        }
        prop_assert!(problems.is_empty(), "{problems:?}\n{saved}");
        // The saved game, `resume` included, is a level of the published schema too.
        let errors: Vec<String> = level_schema().iter_errors(&saved).map(|e| format!("{}: {e}", e.instance_path())).collect();
        prop_assert!(errors.is_empty(), "{errors:?}\n{saved}");
        let mut h = start(&saved);
        prop_assert_eq!(h.summary(), g.summary());
        for w in &played[cut..] {
            let i = h.read_input(w).unwrap();
            h.step(i);
            let j = g.read_input(w).unwrap();
            g.step(j);
            prop_assert_eq!(h.summary(), g.summary());
        }
        prop_assert_eq!(h.summary(), whole.summary());
        prop_assert_eq!(pasta(&*h).state(), pasta(&*whole).state());
    }

    /// Undo of every decision restores the state hash (and the summary); redo plays it again.
    #[test]
    fn undo_restores_and_redo_replays(seed in any::<u64>()) {
        let doc = random_level(seed);
        let mut hashes = Vec::new();
        let (mut g, played) = random_game(&doc, seed, |g| hashes.push((g.state_hash(), g.summary())));
        let end = (g.state_hash(), g.summary());
        for (h, s) in hashes.iter().rev() {
            prop_assert!(g.undo());
            prop_assert_eq!(g.state_hash(), *h);
            prop_assert_eq!(&g.summary(), s);
        }
        prop_assert!(!g.undo());
        prop_assert_eq!(g.redo_len(), played.len());
        while g.redo() {}
        prop_assert_eq!((g.state_hash(), g.summary()), end);
    }
}

/// Entry `n` of `legal_inputs` is `Input::Choice(n)`; the first 181 of a Reorder of three
/// cards are all listed, and the first arrangement puts each card's blue flags first.
#[test]
fn a_reorder_of_three_cards_is_listed_in_canonical_order() {
    let flags: Vec<Vec<&str>> = vec![
        vec!["red"],
        vec!["red", "blue", "red", "blue", "red"],
        vec!["blue", "red", "blue", "red"],
        vec!["red", "blue", "blue"],
    ];
    let doc = json!({"kind": "pasta", "cards": ["Reorder", "Bug", "Rotate", "Debug"], "flags": flags, "chips": {"Reorder#1": 2}});
    let mut g = start(&doc);
    let listed = g.legal_inputs();
    for (i, c) in listed
        .iter()
        .filter(|c| matches!(c.input, Input::Choice(_)))
        .enumerate()
    {
        assert_eq!(c.input, Input::Choice(i as u32));
    }
    // Reorder {1} + 2 = 3 cards of the 3 others: C(5,2)·C(4,2)·C(3,1) = 10·6·3 = 180
    // arrangements by colour (no followed flag on them), plus skip.
    assert_eq!(pasta(&*g).choice_count(), 181);
    assert_eq!(words(&*g).len(), 181);
    assert_eq!(words(&*g)[0], "skip");
    // The first arrangement of each card (colex order of the blue places) puts its blue
    // flags first, each colour keeping its order: Bug red, blue, red, blue, red → old places
    // 2,4 (blue) then 1,3,5; Rotate blue, red, blue, red → 1,3 then 2,4; Debug → 2,3 then 1.
    assert_eq!(words(&*g)[1], "do:Bug=2,4,1,3,5+Rotate=1,3,2,4+Debug=2,3,1");
    // Any spelling of a legal arrangement plays; the cards in any order.
    let i = g
        .read_input("do:debug=1,2,3+BUG=5,4,3,2,1+Rotate=4,3,2,1")
        .unwrap();
    g.step(i);
    // Reversed: Bug red, blue, red, blue, red (a palindrome); Rotate red, blue, red, blue;
    // Debug unchanged. Then Reorder's one flag is done and the cursor moves to Bug.
    assert_eq!(
        g.summary()["cards"][1]["flags"],
        json!(["red", "blue", "red", "blue", "red"])
    );
    assert_eq!(
        g.summary()["cards"][2]["flags"],
        json!(["red", "blue", "red", "blue"])
    );
    assert_eq!(g.summary()["cursor"], 1);
}

/// Past the listed cap (LIST_CAP = 1000) every choice still plays by its number and by its
/// word: Reorder {3} over Bug (5 red, 4 blue), Rotate (3, 3) and Debug (1, 3) has
/// 1 + C(9,4)·C(6,3)·C(4,3) = 1 + 126·20·4 = 10081 choices.
#[test]
fn a_reorder_past_the_cap_is_counted_and_its_last_entry_plays() {
    let flags: Vec<Vec<&str>> = vec![
        vec!["red"],
        vec![
            "red", "blue", "red", "blue", "red", "blue", "red", "blue", "red",
        ],
        vec!["blue", "red", "blue", "red", "blue", "red"],
        vec!["red", "blue", "blue", "blue"],
    ];
    let doc = json!({"kind": "pasta", "cards": ["Reorder", "Bug", "Rotate", "Debug"], "flags": flags, "chips": {"Reorder#1": 2}});
    let mut g = start(&doc);
    assert_eq!(pasta(&*g).choice_count(), 10081);
    assert_eq!(
        words(&*g).len(),
        tilesmith_engine::kind::pasta::game::LIST_CAP
    );
    // The last arrangement puts each card's blue flags last: Bug's reds 1,3,5,7,9 then
    // blues 2,4,6,8; Rotate's reds 2,4,6 then blues 1,3,5; Debug's red 1 then 2,3,4.
    let last = Input::Choice(10080);
    let word = "do:Bug=1,3,5,7,9,2,4,6,8+Rotate=2,4,6,1,3,5+Debug=1,2,3,4";
    assert_eq!(g.input_word(last).as_deref(), Some(word));
    assert_eq!(g.read_input(word).unwrap(), last);
    let e = g
        .read_input("do:Bug=1,2,3,4,5,6,7,8,9")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("is not legal") && e.contains("do:Card=3,1,2"),
        "{e}"
    );
    // The pattern is shown whole, with the true number of choices (10 081, not the 1000
    // listed), and a legal word over 40 characters is shown whole too, to be copied.
    assert!(e.contains("; 10081 choices in all]"), "{e}");
    assert!(!e.contains("characters)"), "nothing cut: {e}");
    g.step(last);
    assert_eq!(
        g.summary()["cards"][1]["flags"],
        json!([
            "red", "red", "red", "red", "red", "blue", "blue", "blue", "blue"
        ])
    );
}

/// `PastaGame::choices` lists the entries of `legal_inputs` in order, and `play_choice`
/// plays them as `Input::Choice` does (same summaries, same hash), refusing a choice of
/// another position.
#[test]
fn choices_and_play_choice_match_the_inputs() {
    for seed in 0..12u64 {
        let doc = random_level(seed);
        let (_, played) = random_game(&doc, seed, |_| {});
        let kind = tilesmith_engine::kind::pasta::Pasta;
        let mut a = tilesmith_engine::GameKind::start(&kind, &doc, seed).unwrap();
        let mut b = tilesmith_engine::GameKind::start(&kind, &doc, seed).unwrap();
        let mut list = Vec::new();
        for w in &played {
            let i = a.read_input(w).unwrap();
            let tilesmith_engine::Input::Choice(n) = i else {
                panic!("{w}")
            };
            let pb = b
                .as_any_mut()
                .downcast_mut::<tilesmith_engine::kind::pasta::PastaGame>()
                .unwrap();
            pb.choices(&mut list, usize::MAX);
            assert_eq!(list.len() as u64, pb.choice_count());
            let c = list[n as usize];
            assert!(pb.play_choice(c));
            a.step(i);
            assert_eq!(a.summary(), b.summary());
            assert_eq!(a.state_hash(), b.state_hash());
        }
        let pb = b
            .as_any_mut()
            .downcast_mut::<tilesmith_engine::kind::pasta::PastaGame>()
            .unwrap();
        assert!(
            !pb.play_choice(tilesmith_engine::kind::pasta::Choice::Skip),
            "the game is over"
        );
    }
}
