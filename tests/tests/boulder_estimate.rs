//! Boulder's estimate for A* and IDA* (issue #29; `docs/solver.md`, "Boulder's estimate"):
//! which level rules leave its bounds standing (worked out from spec §4.4 and §4.5 for each
//! rule below and for the shipped levels' rules, read by hand), its value on maps worked out
//! by hand, and its admissibility where breadth-first search finishes: on seeded random small
//! maps (with and without a harmless rule), A* finds solutions exactly as long as
//! breadth-first search's, and the estimate of every state along breadth-first search's
//! shortest solution is at most the ticks left on it. On the shipped and course levels
//! breadth-first search does not finish within a minute (BENCHMARKS.md, "A* and IDA*,
//! boulder"), so the comparison is made on these maps.

#![allow(clippy::unwrap_used)] // test helpers panic on purpose when a fixture is wrong

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use serde_json::json;
use tilesmith_engine::kind::boulder::game::Safety;
use tilesmith_engine::kind::boulder::{BoulderLevel, Cell, Token};
use tilesmith_engine::search::bfs::Answer;
use tilesmith_engine::search::{Algorithm, bfs};
use tilesmith_engine::search_game::SearchGame;
use tilesmith_tests::boulder_maps::{random_level, search as run, searcher, with_rules};
use tilesmith_tests::{grid, level, workspace};

fn safety_of(rule: serde_json::Value) -> Safety {
    Safety::of(&with_rules(level(grid("me exit")), &[rule]))
}

fn all_safe() -> Safety {
    Safety {
        distance: true,
        gems: true,
        ticks: true,
    }
}

#[test]
fn rules_that_can_move_the_figure_or_change_gems_take_their_bound_away() {
    assert_eq!(Safety::of(&level(grid("me exit"))), all_safe());
    // The ember-field fire: spreads into mud, gems and bricks; never a figure, exit or wall.
    let fire = json!({"situation": "any", "direction": "east",
        "original": [{"token": "fire"}, {"token": ["mud", "gem", "bricks"]}],
        "result": [{"token": "0"}, {"token": "fire"}]});
    assert_eq!(safety_of(fire), all_safe());
    // A rule that moves `me` (copies it one field on): no distance bound.
    let walk = json!({"situation": "down", "direction": "south",
        "original": [{"token": "me"}, {"token": ["mud", "path"]}],
        "result": [{"token": "path"}, {"token": "0"}]});
    let s = safety_of(walk);
    assert_eq!((s.distance, s.gems, s.ticks), (false, true, true));
    // Writing `exit` by name.
    let door = json!({"situation": "any", "direction": "east",
        "original": [{"token": "pot"}], "result": [{"token": "exit"}]});
    assert!(!safety_of(door).distance);
    // Removing walls ("*" accepts them): a way may open.
    let melt = json!({"situation": "any", "direction": "east",
        "original": [{"token": "*"}], "result": [{"token": "path"}]});
    assert!(!safety_of(melt).distance);
    // Copying a field onto itself ("0" at position 0) keeps walls: harmless.
    let mark = json!({"situation": "any", "direction": "east",
        "original": [{"token": "*"}], "result": [{"token": "0", "values": {"a": 1}}]});
    assert_eq!(safety_of(mark), all_safe());
    // `loose` on a field that may hold `me`: gravity would move the figure too.
    let heavy = json!({"situation": "any", "direction": "east",
        "original": [{"token": ["me", "sand"]}], "result": [{"token": "0", "values": {"loose": 1}}]});
    assert!(!safety_of(heavy).distance);
    // The global `gems` or `ticks` written.
    let bonus = json!({"situation": "any", "direction": "east",
        "original": [{"token": "pot"}], "result": [{"token": "0", "values": {"gems": 1}}]});
    let s = safety_of(bonus);
    assert_eq!((s.distance, s.gems, s.ticks), (true, false, true));
    let clock = json!({"situation": "any", "direction": "east",
        "original": [{"token": "pot"}], "result": [{"token": "0", "values": {"ticks": 0}}]});
    assert!(!safety_of(clock).ticks);
    // A rule with a number for a token never matches (§6 L2): harmless whatever it writes.
    let never = json!({"situation": "any", "direction": "east",
        "original": [{"token": 3}], "result": [{"token": "me", "values": {"gems": 5}}]});
    assert_eq!(safety_of(never), all_safe());
}

/// The shipped levels' rules, read by hand: welcome and demolition-yard have none;
/// ember-field's fire and sand-kitchen's sand, sieve and pot move no figure, exit or wall
/// (the sand's `loose` and `pushable` are set on sand only); relay-station's relays carry
/// `me` across (a copy from the window's first field): no distance bound; the
/// looking-glass ghost adds to the global `gems` when it eats a gem: no gem bound.
#[test]
fn the_shipped_levels_keep_the_bounds_their_rules_allow() {
    let cases = [
        ("welcome", true, true),
        ("demolition-yard", true, true),
        ("ember-field", true, true),
        ("sand-kitchen", true, true),
        ("relay-station", false, true),
        ("looking-glass-ghost", true, false),
    ];
    for (name, distance, gems) in cases {
        let path = workspace().join(format!("levels/boulder/{name}.json"));
        let doc: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let l = BoulderLevel::from_json(&doc).unwrap();
        let s = Safety::of(&l);
        assert_eq!(
            (s.distance, s.gems, s.ticks),
            (distance, gems, true),
            "{name}"
        );
        assert!(searcher(&l).estimate().is_some(), "{name}");
    }
}

/// Worked out by hand. A corridor `me path path exit`: 3 ticks (distance 3). With one gem
/// needed and the gem left of `me` (`gem me path exit`): the distance is 2, the gem bound
/// 1 + 1 = 2, and the shortest is 3 (dig the gem with ML, then R R). Two figures needing 3
/// gems: ⌈3 / 2⌉ = 2. Walls around the exit: no way, dead. A time limit of 2 ticks with 3
/// to go: dead.
#[test]
fn the_estimate_on_maps_worked_out_by_hand() {
    let corridor = level(grid("me path path exit"));
    assert_eq!(searcher(&corridor).estimate(), Some(3));
    let mut gem = level(grid("gem me path exit"));
    gem.gems = [1, 1, 1];
    let mut g = searcher(&gem);
    assert_eq!(g.estimate(), Some(2));
    let o = solved(g.as_mut(), Algorithm::AStar, 10);
    assert_eq!(o.words.join(" "), "ML R R");
    let mut two = level(grid("me gem gem\nme gem exit"));
    two.gems = [3, 3, 3];
    assert_eq!(searcher(&two).estimate(), Some(2));
    let walled = level(grid("me path wall exit"));
    assert!(searcher(&walled).is_dead());
    let mut late = level(grid("me path path exit"));
    late.ticks = [2, 2, 2];
    assert!(searcher(&late).is_dead());
    late.ticks = [3, 3, 3];
    assert!(!searcher(&late).is_dead());
}

fn solved(g: &mut dyn SearchGame, algorithm: Algorithm, max: u32) -> bfs::Solution {
    match run(g, algorithm, max).answer {
        Answer::Solved(s) => s,
        other => panic!("not solved: {other:?}"),
    }
}

/// The admissibility check (see the module documentation) on 120 seeded maps, every third
/// with ember-field's fire rule and a fire on the map; solutions up to 9 ticks.
#[test]
fn a_star_and_ida_match_breadth_first_search_and_the_estimate_never_overshoots() {
    const MAX: u32 = 9;
    let fire = json!({"situation": "any", "direction": "east",
        "original": [{"token": "fire"}, {"token": ["mud", "gem", "bricks"]}],
        "result": [{"token": "0"}, {"token": "fire"}]});
    let mut rng = ChaCha8Rng::seed_from_u64(29);
    let (mut solved_count, mut unsolved, mut positive) = (0, 0, 0);
    for n in 0..120 {
        let mut l = random_level(&mut rng);
        if n % 3 == 0 {
            l = with_rules(l, std::slice::from_ref(&fire));
            let i = (rng.next_u32() as usize) % l.map.width();
            if l.map.cells()[i].token != Token::Me {
                let mut cells = l.map.cells().to_vec();
                cells[i] = Cell::new(Token::Fire);
                l.map =
                    tilesmith_engine::Grid::from_vec(l.map.width(), l.map.height(), cells).unwrap();
            }
        }
        let mut g = searcher(&l);
        assert!(
            g.estimate().is_some(),
            "map {n}: no rule takes the bounds away"
        );
        let b = run(g.as_mut(), Algorithm::Bfs, MAX);
        let a = run(g.as_mut(), Algorithm::AStar, MAX);
        let i = run(g.as_mut(), Algorithm::Ida, MAX);
        match &b.answer {
            Answer::Solved(s) => {
                solved_count += 1;
                for (name, o) in [("A*", &a), ("IDA*", &i)] {
                    let Answer::Solved(t) = &o.answer else {
                        panic!("map {n}: {name} did not solve: {:?}", o.answer)
                    };
                    assert_eq!(t.moves.len(), s.moves.len(), "map {n}: {name}");
                    assert!(t.shortest, "map {n}: {name}");
                }
                // The estimate along breadth-first search's solution.
                for (k, &mv) in s.moves.iter().enumerate() {
                    let left = (s.moves.len() - k) as u32;
                    let h = g.estimate().unwrap();
                    assert!(
                        h <= left,
                        "map {n}, step {k}: estimate {h} > {left} ticks left"
                    );
                    if h > 0 {
                        positive += 1;
                    }
                    g.play(mv).unwrap();
                }
                while g.undo() {}
            }
            other => {
                unsolved += 1;
                for o in [&a, &i] {
                    assert!(
                        !matches!(o.answer, Answer::Solved(_)),
                        "map {n}: breadth-first says {other:?}, another algorithm solved it"
                    );
                }
            }
        }
    }
    // Not vacuous: both kinds of map occur and the estimate was more than 0 along the way.
    assert!(solved_count >= 20, "{solved_count} maps solved");
    assert!(unsolved >= 10, "{unsolved} maps not solved");
    assert!(positive >= 50, "{positive} positive estimates checked");
}
