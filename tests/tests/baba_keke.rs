//! The Keke AI Competition levels (`../shared/corpus/baba/keke/`): each level's ASCII map is
//! converted to a baba level (legend in the corpus README), its solution is replayed, and the
//! levels that reach WIN are counted. The Keke simulator is a simplified Baba, so some
//! solutions do not win in a real Baba engine; each such level is explained in
//! `docs/baba-semantics.md` ("Keke levels"). The test asserts the win count we reach, and that
//! the failing levels are exactly the explained ones: a new failure is an unexplained
//! deviation, and an explained level that starts to win is a stale entry; both fail the test.

// Helpers outside #[test] functions unwrap too (clippy.toml allows it only inside them); a
// panic there is a test failure like any other.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeSet;

use tilesmith_engine::game::{Game, Status};
use tilesmith_engine::kind::baba::BabaGame;
use tilesmith_tests::{corpus, keke};

/// Solutions that win in our engine (of 280; the Keke simulator wins 272).
const EXPECTED_WINS: usize = 219;

/// The differences of the Keke simulator (`Keke_JS/js/simulation.js` of the KekeCompetition
/// repository) from the real game that explain a solution not winning here, with what the
/// simulator does. docs/baba-semantics.md ("Keke levels") gives the real game's behaviour and
/// the evidence for each.
const CODES: &[(&str, &str)] = &[
    (
        "move",
        "MOVE objects are solid to every other mover, and a blocked MOVE object reverses but \
         does not move that turn",
    ),
    (
        "you-order",
        "YOU objects move one after another in list order, so a YOU (or STOP) object still in \
         the way blocks the YOU behind it",
    ),
    (
        "load-transform",
        "`X IS Y` transforms run when the level is loaded, before the first move",
    ),
    (
        "rules",
        "rules are re-read and transforms run only at the end of a turn in which text moved, \
         after the destruction checks, so a rule formed this turn destroys nothing until the next",
    ),
    (
        "defeat-splice",
        "a YOU that is also KILL destroys itself (as in the game), but the removal then \
         splices index -1, deleting the last object of the processing list each time: those \
         objects stay on the board with stale properties",
    ),
    (
        "kill",
        "KILL destroys the killer together with the YOU object",
    ),
    ("melt", "HOT is destroyed together with the MELT object"),
    (
        "self-overlap",
        "an object overlaps itself, so a YOU that is SINK destroys itself",
    ),
    ("text-sink", "text is never destroyed"),
];

/// The solutions that do not win in our engine: `(set, id, difference, move, keke_fails_too)`.
/// `difference` is a [`CODES`] entry. Each was found by replaying the solution in the Keke
/// simulator itself (run under Node) and in our engine, comparing the boards after every move:
/// `move` is the first move after which the boards differ (0: already at level load), and the
/// difference is what the simulator does differently in that move (for `defeat-splice`, the
/// splice happens in an earlier move and the boards first differ when a deleted object's stale
/// properties act). `keke_fails_too` marks the solutions that do not win in the Keke simulator
/// either (corpus README).
const EXPLAINED: &[(&str, &str, &str, u32, bool)] = &[
    ("full_biy", "24", "load-transform", 0, false),
    ("full_biy", "37", "move", 1, true),
    ("full_biy", "39", "move", 2, false),
    ("full_biy", "41", "text-sink", 25, true),
    ("full_biy", "44", "you-order", 5, false),
    ("full_biy", "45", "you-order", 7, false),
    ("full_biy", "46", "load-transform", 0, true),
    ("full_biy", "65", "melt", 6, false),
    ("full_biy", "66", "move", 2, false),
    ("full_biy", "72", "you-order", 1, false),
    ("full_biy", "73", "you-order", 1, false),
    ("full_biy", "74", "you-order", 1, false),
    ("full_biy", "76", "move", 2, false),
    ("full_biy", "77", "move", 9, true),
    ("full_biy", "82", "move", 16, false),
    ("full_biy", "84", "defeat-splice", 8, false),
    ("full_biy", "86", "rules", 65, false),
    ("full_biy", "87", "move", 1, false),
    ("full_biy", "95", "you-order", 39, false),
    ("full_biy", "101", "you-order", 1, false),
    ("full_biy", "105", "rules", 70, false),
    ("full_biy", "120", "you-order", 51, false),
    ("full_biy", "136", "self-overlap", 14, false),
    ("full_biy", "141", "you-order", 3, false),
    ("full_biy", "148", "you-order", 20, false),
    ("full_biy", "166", "move", 1, false),
    ("full_biy", "168", "you-order", 1, false),
    ("full_biy", "173", "move", 1, false),
    ("full_biy", "177", "move", 1, false),
    ("full_biy", "178", "move", 1, false),
    ("full_biy", "179", "move", 1, false),
    ("full_biy", "183", "move", 1, false),
    ("full_biy", "184", "you-order", 1, false),
    ("full_biy", "186", "move", 1, false),
    ("full_biy", "188", "move", 1, false),
    ("full_biy", "189", "move", 2, false),
    ("full_biy", "192", "move", 2, false),
    ("full_biy", "196", "kill", 40, false),
    ("full_biy", "197", "kill", 48, false),
    ("search_biy", "39", "move", 2, false),
    ("search_biy", "66", "move", 2, false),
    ("search_biy", "72", "you-order", 1, false),
    ("search_biy", "73", "you-order", 1, false),
    ("search_biy", "76", "move", 2, false),
    ("search_biy", "77", "move", 9, true),
    ("search_biy", "82", "move", 16, false),
    ("search_biy", "84", "defeat-splice", 8, false),
    ("search_biy", "86", "rules", 65, false),
    ("search_biy", "87", "move", 1, false),
    ("search_biy", "120", "you-order", 51, false),
    ("search_biy", "173", "move", 1, false),
    ("search_biy", "179", "move", 1, false),
    ("search_biy", "183", "move", 1, false),
    ("search_biy", "184", "you-order", 1, false),
    ("search_biy", "186", "move", 1, false),
    ("search_biy", "188", "move", 1, false),
    ("search_biy", "189", "move", 2, false),
    ("search_biy", "196", "kill", 40, false),
    ("search_biy", "197", "kill", 48, false),
    ("test", "0", "move", 2, false),
    ("user_milk_biy", "39", "move", 2, false),
];

struct Outcome {
    set: String,
    id: String,
    moves: usize,
    won_after: Option<usize>,
    lost_after: Option<usize>,
    rules: Vec<String>,
}

fn replay_all() -> Vec<Outcome> {
    let mut out = Vec::new();
    for l in keke::load_all(&corpus("baba").join("keke")) {
        let mut g = BabaGame::new(l.level, 0);
        let mut won_after = None;
        let mut lost_after = None;
        for (k, i) in l.inputs.iter().enumerate() {
            g.step(*i);
            match g.status() {
                Status::Won { .. } => {
                    won_after = Some(k + 1);
                    break;
                }
                Status::Lost { .. } if lost_after.is_none() => lost_after = Some(k + 1),
                _ => {}
            }
        }
        out.push(Outcome {
            set: l.set,
            id: l.id,
            moves: l.inputs.len(),
            won_after,
            lost_after,
            rules: g.rules().iter().map(|r| r.text.to_string()).collect(),
        });
    }
    out
}

#[test]
fn keke_solutions_reach_win() {
    let all = replay_all();
    let wins = all.iter().filter(|o| o.won_after.is_some()).count();
    println!("keke: {wins} of {} solutions reach WIN", all.len());
    let mut failing = BTreeSet::new();
    for o in all.iter().filter(|o| o.won_after.is_none()) {
        let why = EXPLAINED
            .iter()
            .find(|e| e.0 == o.set && e.1 == o.id)
            .and_then(|e| CODES.iter().find(|c| c.0 == e.2))
            .map_or("not explained", |c| c.1);
        println!(
            "  no win: {} {} ({} moves; no YOU after move {:?}; final rules {:?}): {why}",
            o.set, o.id, o.moves, o.lost_after, o.rules
        );
        failing.insert((o.set.clone(), o.id.clone()));
    }
    let mut explained = BTreeSet::new();
    for e in EXPLAINED {
        assert!(
            CODES.iter().any(|c| c.0 == e.2),
            "EXPLAINED names the unknown difference {:?} for {} {}",
            e.2,
            e.0,
            e.1
        );
        assert!(
            explained.insert((e.0.to_string(), e.1.to_string())),
            "EXPLAINED lists {} {} twice",
            e.0,
            e.1
        );
    }
    // The explained list must be exactly the failures: a failure missing from it is an
    // unexplained deviation, and an entry that now wins is stale (its explanation in
    // docs/baba-semantics.md is no longer true and must go).
    let unexplained: Vec<_> = failing.difference(&explained).collect();
    let stale: Vec<_> = explained.difference(&failing).collect();
    for o in all
        .iter()
        .filter(|o| o.won_after.is_some_and(|k| k < o.moves))
    {
        println!(
            "  early win: {} {} after {:?} of {} moves",
            o.set, o.id, o.won_after, o.moves
        );
    }
    assert!(
        unexplained.is_empty(),
        "levels that do not win and are not explained: {unexplained:?}"
    );
    assert!(
        stale.is_empty(),
        "levels listed in EXPLAINED that now win; remove them from EXPLAINED and from \
         docs/baba-semantics.md (\"Keke levels\"), and raise EXPECTED_WINS: {stale:?}"
    );
    assert_eq!(
        wins, EXPECTED_WINS,
        "the win count changed; with the lists above in order it must equal EXPECTED_WINS"
    );
    assert_eq!(
        all.len(),
        EXPECTED_WINS + EXPLAINED.len(),
        "every replayed solution either wins or is explained"
    );
}
