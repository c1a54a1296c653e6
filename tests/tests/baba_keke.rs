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

use tilesmith_engine::kind::baba::BabaGame;
use tilesmith_engine::kind::{Game, Status};
use tilesmith_tests::{corpus, keke};

/// Solutions that win in our engine (of 280; the Keke simulator wins 272).
const EXPECTED_WINS: usize = 219;

/// The solutions that do not win in our engine: `(set, id, difference, move, keke_fails_too)`.
/// `difference` names the Keke simulator deviation (corpus README, "Rule subset of the Keke
/// simulator") that makes the play differ, found by replaying the same solution in a
/// re-implementation of that simulator and comparing the boards move by move; `move` is the
/// first move after which the boards differ; `keke_fails_too` marks the solutions that do not
/// win in the Keke simulator either (README). The codes are explained in
/// docs/baba-semantics.md ("Keke levels"):
/// `move` MOVE objects are solid and a bounced MOVE object waits a turn in Keke;
/// `you-order` Keke moves YOU objects one after another, so a YOU (or STOP) object blocks the
/// YOU behind it; `kill` Keke's KILL destroys the killer too; `melt` Keke's HOT is destroyed
/// with the MELT object; `rules` Keke re-reads rules and transforms only at load and at the end
/// of a turn in which text moved, after destruction; `self-overlap` a Keke object that is YOU
/// and SINK destroys itself; `text-sink` Keke never destroys text.
const EXPLAINED: &[(&str, &str, &str, u32, bool)] = &[
    ("full_biy", "24", "rules", 1, false),
    ("full_biy", "37", "move", 1, true),
    ("full_biy", "39", "move", 2, false),
    ("full_biy", "41", "text-sink", 25, true),
    ("full_biy", "44", "you-order", 5, false),
    ("full_biy", "45", "you-order", 7, false),
    ("full_biy", "46", "you-order", 1, true),
    ("full_biy", "65", "melt", 6, false),
    ("full_biy", "66", "move", 2, false),
    ("full_biy", "72", "you-order", 1, false),
    ("full_biy", "73", "you-order", 1, false),
    ("full_biy", "74", "you-order", 1, false),
    ("full_biy", "76", "move", 2, false),
    ("full_biy", "77", "rules", 8, true),
    ("full_biy", "82", "move", 16, false),
    ("full_biy", "84", "you-order", 8, false),
    ("full_biy", "86", "rules", 65, false),
    ("full_biy", "87", "move", 1, false),
    ("full_biy", "95", "you-order", 39, false),
    ("full_biy", "101", "you-order", 1, false),
    ("full_biy", "105", "rules", 70, false),
    ("full_biy", "120", "you-order", 51, false),
    ("full_biy", "136", "self-overlap", 14, false),
    ("full_biy", "141", "you-order", 3, false),
    ("full_biy", "148", "you-order", 21, false),
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
    ("full_biy", "197", "rules", 43, false),
    ("search_biy", "39", "move", 2, false),
    ("search_biy", "66", "move", 2, false),
    ("search_biy", "72", "you-order", 1, false),
    ("search_biy", "73", "you-order", 1, false),
    ("search_biy", "76", "move", 2, false),
    ("search_biy", "77", "rules", 8, true),
    ("search_biy", "82", "move", 16, false),
    ("search_biy", "84", "you-order", 8, false),
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
    ("search_biy", "197", "rules", 43, false),
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
            rules: g.rules().iter().map(|r| r.text.clone()).collect(),
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
        println!(
            "  no win: {} {} ({} moves; no YOU after move {:?}; final rules {:?})",
            o.set, o.id, o.moves, o.lost_after, o.rules
        );
        failing.insert((o.set.clone(), o.id.clone()));
    }
    let mut explained = BTreeSet::new();
    for e in EXPLAINED {
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
