//! Issue #28's seven numbered conformance cases for Pasta Logic, each worked out by hand from
//! the spec (`../shared/specs/pasta-logic.md`) with the derivation beside the expected values.

#![allow(clippy::unwrap_used)]

mod pasta;

use pasta::{EIGHT, SUB8, after, flags, level};
use serde_json::json;

/// Case 1. ForkBomb (index 1) red, blue, red; cursor 1. Red's `do`: blue 5 − {2} = 3 and
/// red's activating flag (the head) goes (spec §8 ForkBomb); the flag behind it (blue) has
/// the right next (A8). Blue's `do`: red 5 − 2 = 3, blue's flag goes; the last red flag is
/// now the head and has its right: red to move at cursor 1.
#[test]
fn case_1_forkbomb_twice() {
    let doc = level(
        &EIGHT,
        &[(1, &["red", "blue", "red"]), (5, &["blue"]), (7, &["blue"])],
        json!({"cursor": 1}),
    );
    let g = after(&doc, "do do");
    let s = g.summary();
    assert_eq!(s["life"], json!({"red": 3, "blue": 3}));
    assert_eq!(flags(&*g, 1), json!(["red"]));
    assert_eq!(s["to_move"], "red");
    assert_eq!(s["cursor"], 1);
    assert_eq!(s["status"], "running");
}

/// Case 2. TradeOff (index 3) blue, lives 1 each, cursor 3. Blue's `do`: blue 1 − {1} = 0,
/// red 1 − {2} = −1: both meet W1 after the command, a draw (A13).
#[test]
fn case_2_tradeoff_both_lose() {
    let doc = level(
        &EIGHT,
        &[(3, &["blue"]), (5, &["red"]), (7, &["red", "blue"])],
        json!({"cursor": 3, "life": {"red": 1, "blue": 1}}),
    );
    let g = after(&doc, "do");
    let s = g.summary();
    assert_eq!(s["status"], "draw");
    assert_eq!(s["reason"], "both lost");
    assert_eq!(s["winner"], json!(null));
    assert_eq!(s["to_move"], json!(null));
    assert_eq!(s["life"], json!({"red": -1, "blue": 0}));
}

/// Case 3. Bug red, Reverse blue, Rotate red, blue; cursor 0. Skips at Bug, Reverse and
/// twice at Rotate; the cursor leaves the 8 cards (empty ones included) with no command
/// executed: the 8th visit ends as Rotate is left, a draw (A17).
#[test]
fn case_3_idle_lap() {
    let doc = level(
        &EIGHT,
        &[(0, &["red"]), (4, &["blue"]), (7, &["red", "blue"])],
        json!({}),
    );
    let g = after(&doc, "skip skip skip");
    assert_eq!(
        g.summary()["status"],
        "running",
        "three skips leave Rotate's blue flag"
    );
    let g = after(&doc, "skip skip skip skip");
    let s = g.summary();
    assert_eq!(s["status"], "draw");
    assert_eq!(s["reason"], "lap");
}

/// Case 4. Subroutine (0) red, blue; AddFlag (1) blue; Bug (3) red. Red's
/// `do:AddFlag` visits AddFlag (distance 1, A9); blue's `do:Subroutine` adds a blue flag at
/// Subroutine's tail. Back on Subroutine, the flag behind red's is blue's (skip), then the new
/// tail flag (A8: added at the tail during processing, it gets its right; skip). Subroutine
/// is left, the cursor moves to AddFlag: blue to move at cursor 1.
#[test]
fn case_4_subroutine_and_new_tail_flag() {
    let doc = level(
        &SUB8,
        &[(0, &["red", "blue"]), (1, &["blue"]), (3, &["red"])],
        json!({}),
    );
    let g = after(&doc, "do:AddFlag do:Subroutine skip");
    assert_eq!(g.summary()["to_move"], "blue");
    assert_eq!(
        g.summary()["cursor"],
        0,
        "the new tail flag's right, still on Subroutine"
    );
    let g = after(&doc, "do:AddFlag do:Subroutine skip skip");
    let s = g.summary();
    assert_eq!(flags(&*g, 0), json!(["red", "blue", "blue"]));
    assert_eq!(s["to_move"], "blue");
    assert_eq!(s["cursor"], 1);
}

/// Case 5. Increment (2) red, blue, red; Bug (3) red; Debug (5) blue; cursor 2. Each
/// Increment {1} = 1 unit on Bug#1: the first two take the 2 Increment chips (Bug 1 → 3),
/// the third finds none and is lost (A3). Bug's `do` by red: blue 5 − 3 = 2 (A1).
#[test]
fn case_5_increment_runs_out_of_chips() {
    let doc = level(
        &SUB8,
        &[(2, &["red", "blue", "red"]), (3, &["red"]), (5, &["blue"])],
        json!({"cursor": 2}),
    );
    let g = after(&doc, "do:Bug#1 do:Bug#1 do:Bug#1");
    assert_eq!(g.summary()["cards"][3]["params"], json!([3]));
    let g = after(&doc, "do:Bug#1 do:Bug#1 do:Bug#1 do");
    let s = g.summary();
    assert_eq!(s["life"]["blue"], 2);
    assert_eq!(
        s["cards"][3]["params"],
        json!([1]),
        "Bug's chips went when it was left (C6)"
    );
}

/// Case 6. SwapCommand red, Rotate blue. Red swaps (the cursor travels with SwapCommand to
/// index 1, A11), the cursor wraps to Rotate (index 0): blue's Rotate changes nothing (one
/// flag a card). Red swaps back, blue rotates again, and the cursor is back on SwapCommand
/// at index 0 with the same everything: the first decision a second time, a draw.
#[test]
fn case_6_repetition() {
    let doc = level(
        &["SwapCommand", "Rotate"],
        &[(0, &["red"]), (1, &["blue"])],
        json!({}),
    );
    let g = after(&doc, "do:Rotate do do:Rotate");
    assert_eq!(g.summary()["status"], "running");
    let g = after(&doc, "do:Rotate do do:Rotate do");
    let s = g.summary();
    assert_eq!(s["status"], "draw");
    assert_eq!(s["reason"], "repetition");
}

/// Case 7. Debug (2) red, blue; cursor 2. Red's `do`: red's flag goes, life 5 + {3} = 8,
/// capped at the die's 6 (A14 alternative). Blue skips.
#[test]
fn case_7_debug_capped_at_six() {
    let doc = level(
        &EIGHT,
        &[(2, &["red", "blue"]), (5, &["blue"]), (7, &["red"])],
        json!({"cursor": 2}),
    );
    let g = after(&doc, "do skip");
    let s = g.summary();
    assert_eq!(s["life"]["red"], 6);
    assert_eq!(flags(&*g, 2), json!(["blue"]));
}
