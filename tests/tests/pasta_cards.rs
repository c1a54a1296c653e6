//! One test per card of Pasta Logic (spec §8) and per suggested reading A1–A17 (spec §10,
//! with the pins), worked out by hand from the spec; the derivation is beside the
//! expected values. Issue #28's seven numbered cases are in `pasta_conformance.rs`.

#![allow(clippy::unwrap_used)]

mod pasta;

use pasta::{after, flags, level, start, words};
use serde_json::{Value, json};
use tilesmith_engine::Game;

fn s(g: &dyn Game) -> Value {
    g.summary()
}

/// AddFlag {1}+1 = 2 other cards of 3, one red flag each at the tail: C(3,2) = 3 choices;
/// red's reserve 10 − 1 on cards = 9 → 7. The cards may be named in any order.
#[test]
fn addflag_adds_at_the_tail_of_distinct_other_cards() {
    let doc = level(
        &["AddFlag", "Bug", "Debug", "Rotate"],
        &[(0, &["red"]), (1, &["blue"])],
        json!({"chips": {"AddFlag#1": 1}}),
    );
    let g = start(&doc);
    assert_eq!(
        words(&*g),
        ["skip", "do:Bug+Debug", "do:Bug+Rotate", "do:Debug+Rotate"]
    );
    let g = after(&doc, "do:rotate+BUG");
    assert_eq!(flags(&*g, 1), json!(["blue", "red"]));
    assert_eq!(flags(&*g, 3), json!(["red"]));
    assert_eq!(s(&*g)["reserve"]["red"], 7);
    assert_eq!(
        s(&*g)["to_move"],
        "blue",
        "the cursor moved on to Bug, whose head is blue"
    );
}

/// A5: AddFlag's flags come from the reserve; with 1 red flag there, {2} adds one.
#[test]
fn a5_addflag_is_limited_by_the_reserve() {
    let doc = level(
        &["AddFlag", "Bug", "Debug"],
        &[(0, &["red"]), (1, &["blue"])],
        json!({"chips": {"AddFlag#1": 1}, "reserve": {"red": 1, "blue": 9}}),
    );
    assert_eq!(words(&*start(&doc)), ["skip", "do:Bug", "do:Debug"]);
    let g = after(&doc, "do:Debug");
    assert_eq!(s(&*g)["reserve"]["red"], 0);
    assert_eq!(flags(&*g, 2), json!(["red"]));
}

/// MoveFlag {1} = 1 flag of the 3 on other cards, to a card neither its source nor MoveFlag
/// (A6): 3 flags × 2 destinations = 6 choices and skip. Bug's blue head to Rotate's tail.
#[test]
fn moveflag_moves_a_flag_of_either_colour() {
    let doc = level(
        &["MoveFlag", "Bug", "Debug", "Rotate"],
        &[(0, &["red"]), (1, &["blue", "red"]), (2, &["blue"])],
        json!({}),
    );
    let g = start(&doc);
    assert_eq!(words(&*g).len(), 7);
    assert!(
        g.read_input("do:Bug.1>MoveFlag").is_err(),
        "MoveFlag is no destination (A6)"
    );
    assert!(g.read_input("do:Bug.1>Bug").is_err(), "nor the source");
    let g = after(&doc, "do:Bug.1>Rotate");
    assert_eq!(flags(&*g, 1), json!(["red"]));
    assert_eq!(flags(&*g, 3), json!(["blue"]));
}

/// MoveFlag {1}+1 = 2: places are as the command found them, parts apply in the order
/// written (so two flags to one card arrive in that order), and parts with different
/// destinations may be written in any order (one canonical word: destinations in line order).
#[test]
fn moveflag_places_as_found_and_order_written() {
    let doc = level(
        &["MoveFlag", "Bug", "Debug", "Rotate"],
        &[(0, &["red"]), (1, &["blue", "red"]), (2, &["blue"])],
        json!({"chips": {"MoveFlag#1": 1}}),
    );
    let g = after(&doc, "do:Bug.1>Rotate+Bug.2>Rotate");
    assert_eq!(flags(&*g, 3), json!(["blue", "red"]));
    assert_eq!(flags(&*g, 1), json!([]));
    let g = after(&doc, "do:Bug.2>Rotate+Bug.1>Rotate");
    assert_eq!(flags(&*g, 3), json!(["red", "blue"]));
    let g = start(&doc);
    let a = g.read_input("do:Debug.1>Rotate+Bug.1>Debug").unwrap();
    let b = g.read_input("do:Bug.1>Debug+Debug.1>Rotate").unwrap();
    assert_eq!(a, b);
    assert_eq!(g.input_word(a).unwrap(), "do:Bug.1>Debug+Debug.1>Rotate");
    let g = after(&doc, "do:Debug.1>Rotate+Bug.1>Debug");
    assert_eq!(
        (flags(&*g, 1), flags(&*g, 2), flags(&*g, 3)),
        (json!(["red"]), json!(["blue"]), json!(["blue"]))
    );
}

/// RemoveFlag {1}+1 = 2 flags from one other card; removed flags go to their owners'
/// reserves (A5). A15: on a card with one flag, that one flag.
#[test]
fn removeflag_and_a15_as_many_as_possible() {
    let doc = level(
        &["RemoveFlag", "Bug", "Debug"],
        &[(0, &["red"]), (1, &["blue"]), (2, &["blue", "red", "blue"])],
        json!({"chips": {"RemoveFlag#1": 1}}),
    );
    // Bug: min(2, 1) = 1 flag → 1 choice; Debug: C(3, 2) = 3 place sets, but removing
    // places 1 and 2 of blue, red, blue leaves a blue flag as removing 2 and 3 does: one
    // choice, named by the first (docs/pasta-semantics.md, RemoveFlag).
    assert_eq!(
        words(&*start(&doc)),
        [
            "skip",
            "do:Bug.1",
            "do:Debug.1+Debug.2",
            "do:Debug.1+Debug.3"
        ]
    );
    // The other spelling is the same choice.
    let (g, h) = (start(&doc), start(&doc));
    assert_eq!(
        g.read_input("do:Debug.2+Debug.3").unwrap(),
        h.read_input("do:Debug.1+Debug.2").unwrap()
    );
    let g = after(&doc, "do:Debug.2+Debug.3");
    assert_eq!(flags(&*g, 2), json!(["blue"]));
    assert!(
        start(&doc).read_input("do:Bug.1+Debug.1").is_err(),
        "one card only"
    );
    let g = after(&doc, "do:Debug.3+Debug.1");
    assert_eq!(flags(&*g, 2), json!(["red"]));
    assert_eq!(s(&*g)["reserve"], json!({"red": 8, "blue": 10 - 1}));
}

/// Reorder {1} = 1 other card: Bug's two flags have C(2,1) = 2 arrangements, Debug's one
/// has 1: skip and 3 words, each listing the old places in their new order.
#[test]
fn reorder_rearranges_one_card() {
    let doc = level(
        &["Reorder", "Bug", "Debug"],
        &[(0, &["red"]), (1, &["blue", "red"]), (2, &["blue"])],
        json!({}),
    );
    assert_eq!(
        words(&*start(&doc)),
        ["skip", "do:Bug=1,2", "do:Bug=2,1", "do:Debug=1"]
    );
    let g = after(&doc, "do:Bug=2,1");
    assert_eq!(flags(&*g, 1), json!(["red", "blue"]));
    assert_eq!(s(&*g)["to_move"], "red", "Bug's new head is red");
}

/// Rotate: every other card's tail flag to its head; cards with 0 or 1 flag unchanged (A6),
/// Rotate's own queue untouched.
#[test]
fn rotate_moves_each_tail_to_the_head() {
    let doc = level(
        &["Rotate", "Bug", "Debug", "AddFlag"],
        &[
            (0, &["red", "blue"]),
            (1, &["blue", "red", "red"]),
            (2, &["blue"]),
        ],
        json!({}),
    );
    let g = after(&doc, "do");
    assert_eq!(flags(&*g, 1), json!(["red", "blue", "red"]));
    assert_eq!(flags(&*g, 2), json!(["blue"]));
    assert_eq!(flags(&*g, 0), json!(["red", "blue"]));
}

/// FastPass: pay {1} life first, then a flag at the head of {1} other card; the new head
/// flag then has Bug's right on its visit. With {1}#2 at 0 (a Decrement chip) it only pays.
#[test]
fn fastpass_pays_and_adds_at_the_head() {
    let doc = level(
        &["FastPass", "Bug", "Debug"],
        &[(0, &["red"]), (1, &["blue"]), (2, &["blue"])],
        json!({}),
    );
    assert_eq!(words(&*start(&doc)), ["skip", "do:Bug", "do:Debug"]);
    let g = after(&doc, "do:Bug");
    assert_eq!(s(&*g)["life"]["red"], 4);
    assert_eq!(flags(&*g, 1), json!(["red", "blue"]));
    assert_eq!(s(&*g)["to_move"], "red");
    let doc = level(
        &["FastPass", "Bug", "Debug"],
        &[(0, &["red"]), (1, &["blue"]), (2, &["blue"])],
        json!({"chips": {"FastPass#2": -1}}),
    );
    assert_eq!(words(&*start(&doc)), ["skip", "do"]);
    let g = after(&doc, "do");
    assert_eq!(
        (s(&*g)["life"]["red"].clone(), flags(&*g, 1)),
        (json!(4), json!(["blue"]))
    );
}

/// Bug: the opponent loses {1}; with two Increment chips {1} is 3 (A1).
#[test]
fn bug_damages_the_opponent() {
    let doc = level(
        &["Bug", "Debug"],
        &[(0, &["red"]), (1, &["blue"])],
        json!({}),
    );
    assert_eq!(s(&*after(&doc, "do"))["life"], json!({"red": 5, "blue": 4}));
    let doc = level(
        &["Bug", "Debug"],
        &[(0, &["red"]), (1, &["blue"])],
        json!({"chips": {"Bug#1": 2}}),
    );
    assert_eq!(s(&*after(&doc, "do"))["life"]["blue"], 2);
}

/// TradeOff: own life − {1}, the opponent's − {2}.
#[test]
fn tradeoff_costs_one_and_deals_two() {
    let doc = level(
        &["TradeOff", "Bug"],
        &[(0, &["red"]), (1, &["blue"])],
        json!({}),
    );
    assert_eq!(s(&*after(&doc, "do"))["life"], json!({"red": 4, "blue": 3}));
}

/// A7: Debug removes the activating flag; red's last flag gone, red loses by W2 although
/// its life rose.
#[test]
fn a7_debug_removing_the_last_own_flag_loses() {
    let doc = level(
        &["Debug", "Bug"],
        &[(0, &["red"]), (1, &["blue"])],
        json!({"life": {"red": 2, "blue": 5}}),
    );
    let g = after(&doc, "do");
    assert_eq!(s(&*g)["winner"], "blue");
    assert_eq!(s(&*g)["reason"], "no flags");
    assert_eq!(s(&*g)["life"]["red"], 5);
}

/// RemoveCommand: the activating flag goes, then the chosen card with its flags (to the
/// reserves); the flag behind the activating one has the right next (A8).
#[test]
fn removecommand_removes_a_card_with_its_flags() {
    let doc = level(
        &["RemoveCommand", "Bug", "Debug", "Rotate"],
        &[(0, &["red", "blue"]), (1, &["blue"]), (2, &["red"])],
        json!({}),
    );
    // Any card, itself included: 4 targets.
    assert_eq!(words(&*start(&doc)).len(), 5);
    let g = after(&doc, "do:Bug");
    let sum = s(&*g);
    let v: Vec<&str> = sum["cards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["card"].as_str().unwrap())
        .collect();
    assert_eq!(v, ["RemoveCommand", "Debug", "Rotate"]);
    assert_eq!(flags(&*g, 0), json!(["blue"]));
    assert_eq!(s(&*g)["reserve"], json!({"red": 9, "blue": 9}));
    assert_eq!(
        (s(&*g)["to_move"].clone(), s(&*g)["cursor"].clone()),
        (json!("blue"), json!(0))
    );
}

/// A10: RemoveCommand removes itself; the cursor stands in the gap and its next move goes to
/// the card that followed in the current direction: Debug forward, Bug backward.
#[test]
fn a10_removecommand_removing_itself_leaves_a_gap() {
    let flags3: &[(usize, &[&str])] = &[(0, &["blue"]), (1, &["red"]), (2, &["red"])];
    let doc = level(
        &["Bug", "RemoveCommand", "Debug"],
        flags3,
        json!({"cursor": 1}),
    );
    let g = after(&doc, "do:RemoveCommand");
    assert_eq!(
        (s(&*g)["cursor"].clone(), s(&*g)["to_move"].clone()),
        (json!(1), json!("red"))
    );
    assert_eq!(s(&*g)["cards"][1]["card"], "Debug");
    let doc = level(
        &["Bug", "RemoveCommand", "Debug"],
        flags3,
        json!({"cursor": 1, "direction": "backward"}),
    );
    let g = after(&doc, "do:RemoveCommand");
    assert_eq!(
        (s(&*g)["cursor"].clone(), s(&*g)["to_move"].clone()),
        (json!(0), json!("blue"))
    );
}

/// A10 during a Subroutine: T = RemoveCommand removes the Subroutine card (the return
/// point); after T the cursor returns to the gap, whose next card is RemoveCommand (empty now),
/// then Bug: blue to move at cursor 1.
#[test]
fn a10_the_subroutine_card_removed_while_away() {
    let doc = level(
        &["Subroutine", "RemoveCommand", "Bug", "Debug"],
        &[(0, &["red"]), (1, &["blue"]), (2, &["blue"]), (3, &["red"])],
        json!({}),
    );
    let g = after(&doc, "do:RemoveCommand do:Subroutine");
    let sum = s(&*g);
    let v: Vec<&str> = sum["cards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["card"].as_str().unwrap())
        .collect();
    assert_eq!(v, ["RemoveCommand", "Bug", "Debug"]);
    assert_eq!(
        (s(&*g)["cursor"].clone(), s(&*g)["to_move"].clone()),
        (json!(1), json!("blue"))
    );
}

/// Reverse and A12: own life − {1}; the direction flips for the advance out of this very
/// card: from 0 backward the cursor wraps to the last card.
#[test]
fn a12_reverse_turns_the_cursor_at_once() {
    let doc = level(
        &["Reverse", "Bug", "Debug", "Rotate"],
        &[(0, &["red"]), (2, &["blue"]), (3, &["blue"])],
        json!({}),
    );
    let g = after(&doc, "do");
    assert_eq!(s(&*g)["life"]["red"], 4);
    assert_eq!(s(&*g)["direction"], "backward");
    assert_eq!(
        (s(&*g)["cursor"].clone(), s(&*g)["to_move"].clone()),
        (json!(3), json!("blue"))
    );
}

/// A11: SwapCommand swaps with Debug and the cursor travels with it to index 2; its next
/// flag (blue) is processed there.
#[test]
fn a11_swapcommand_takes_the_cursor_along() {
    let doc = level(
        &["SwapCommand", "Bug", "Debug"],
        &[(0, &["red", "blue"]), (2, &["blue"])],
        json!({}),
    );
    let g = after(&doc, "do:Debug");
    assert_eq!(s(&*g)["cards"][2]["card"], "SwapCommand");
    assert_eq!(s(&*g)["cards"][0]["card"], "Debug");
    assert_eq!(flags(&*g, 0), json!(["blue"]));
    assert_eq!(
        (s(&*g)["cursor"].clone(), s(&*g)["to_move"].clone()),
        (json!(2), json!("blue"))
    );
}

/// A9: Subroutine {1} reaches 1 card either way, wrapping: Bug and Rotate. With {1} raised
/// to 2 by Increment, the visit keeps Subroutine's chip (params 2 while at Bug) and it goes
/// when Subroutine is left; then the cursor visits Bug normally.
#[test]
fn a9_subroutine_range_wraps_and_keeps_its_chips() {
    let doc = level(
        &["Subroutine", "Bug", "Debug", "Rotate"],
        &[(0, &["red"]), (1, &["blue"]), (2, &["red"])],
        json!({}),
    );
    assert_eq!(words(&*start(&doc)), ["skip", "do:Bug", "do:Rotate"]);
    let doc = level(
        &["Increment", "Subroutine", "Bug"],
        &[(0, &["red"]), (1, &["red"]), (2, &["blue"])],
        json!({}),
    );
    let g = after(&doc, "do:Subroutine#1 do:Bug");
    assert_eq!(
        (s(&*g)["cursor"].clone(), s(&*g)["to_move"].clone()),
        (json!(2), json!("blue"))
    );
    assert_eq!(s(&*g)["cards"][1]["params"], json!([2]));
    let g = after(&doc, "do:Subroutine#1 do:Bug do");
    assert_eq!(s(&*g)["life"]["red"], 4);
    assert_eq!(s(&*g)["cards"][1]["params"], json!([1]));
    assert_eq!(
        (s(&*g)["cursor"].clone(), s(&*g)["to_move"].clone()),
        (json!(2), json!("blue"))
    );
}

/// A8: a flag FastPass adds at the head of the Subroutine card during its visit does not get
/// its right on this visit; the flag behind the activating one does.
#[test]
fn a8_a_head_flag_added_during_processing_waits() {
    let doc = level(
        &["Subroutine", "FastPass", "Bug"],
        &[(0, &["red", "blue"]), (1, &["blue"]), (2, &["red"])],
        json!({}),
    );
    let g = after(&doc, "do:FastPass do:Subroutine");
    assert_eq!(flags(&*g, 0), json!(["blue", "red", "blue"]));
    assert_eq!(
        (s(&*g)["cursor"].clone(), s(&*g)["to_move"].clone()),
        (json!(0), json!("blue"))
    );
    let g = after(&doc, "do:FastPass do:Subroutine skip");
    assert_eq!(
        (s(&*g)["cursor"].clone(), s(&*g)["to_move"].clone()),
        (json!(1), json!("blue"))
    );
}

/// Decrement and A4: Bug 1 → 0 (a Decrement chip); at 0 a unit does nothing (no chip);
/// Debug 3 → 2 takes the second chip. Bug at 0 deals 0.
#[test]
fn a4_decrement_stops_at_zero() {
    let doc = level(
        &["Decrement", "Bug", "Debug"],
        &[(0, &["red", "blue", "red"]), (1, &["red"]), (2, &["blue"])],
        json!({}),
    );
    let g = after(&doc, "do:Bug#1 do:Bug#1 do:Debug#1");
    assert_eq!(s(&*g)["cards"][1]["params"], json!([0]));
    assert_eq!(s(&*g)["cards"][2]["params"], json!([2]));
    let g = after(&doc, "do:Bug#1 do:Bug#1 do:Debug#1 do");
    assert_eq!(s(&*g)["life"]["blue"], 5);
}

/// C5: a Decrement on an Incremented parameter removes the Increment chip instead of adding
/// its own: Bug 1 → 2 → 1, and Bug then deals 1.
#[test]
fn c5_chips_cancel() {
    let doc = level(
        &["Increment", "Decrement", "Bug"],
        &[(0, &["red"]), (1, &["blue"]), (2, &["red"])],
        json!({}),
    );
    let g = after(&doc, "do:Bug#1");
    assert_eq!(s(&*g)["cards"][2]["params"], json!([2]));
    let g = after(&doc, "do:Bug#1 do:Bug#1");
    assert_eq!(s(&*g)["cards"][2]["params"], json!([1]));
    let g = after(&doc, "do:Bug#1 do:Bug#1 do");
    assert_eq!(s(&*g)["life"]["blue"], 4);
}

/// A2: Increment names a parameter of another card, one of two on TradeOff; never itself.
/// A1: the chip lasts until the cursor next leaves its card, across the wrap-around.
#[test]
fn a1_a2_increment_targets_and_lasting_chips() {
    let doc = level(
        &["Bug", "Increment", "TradeOff"],
        &[(0, &["red"]), (1, &["red"]), (2, &["blue"])],
        json!({"cursor": 1}),
    );
    assert_eq!(
        words(&*start(&doc)),
        ["skip", "do:Bug#1", "do:TradeOff#1", "do:TradeOff#2"]
    );
    assert!(start(&doc).read_input("do:Increment#1").is_err());
    let g = after(&doc, "do:TradeOff#2");
    assert_eq!(s(&*g)["cards"][2]["params"], json!([1, 3]));
    let g = after(&doc, "do:Bug#1 skip do");
    assert_eq!(
        s(&*g)["life"]["blue"],
        3,
        "Bug {{1}} + 1 on the visit after the wrap"
    );
}

/// A17: any `do` counts as executed, even one that changes nothing (Rotate over cards of
/// one flag): the count of idle visits (saved as `resume.lap`) starts again. Rotate's `do`,
/// then Bug skipped: 1 idle visit; Rotate and Bug skipped: 2; a third skip ends the lap of
/// 3 visits. (Going on after the `do` would meet the first decision again: the repetition
/// rule ends such a game at that decision.)
#[test]
fn a17_a_do_that_changes_nothing_counts() {
    let doc = level(
        &["Rotate", "Bug", "Debug"],
        &[(0, &["red"]), (1, &["blue"]), (2, &["red"])],
        json!({}),
    );
    assert_eq!(after(&doc, "do skip").to_level()["resume"]["lap"], 1);
    assert_eq!(after(&doc, "skip skip").to_level()["resume"]["lap"], 2);
    assert_eq!(s(&*after(&doc, "skip skip skip"))["reason"], "lap");
    let g = after(&doc, "do skip skip");
    assert_eq!(s(&*g)["reason"], "repetition");
}

/// A16 and §4, §5: without `cards` the setup is the 3 BASIC cards and 5 others, drawn from
/// the seed (the same seed, the same line); each player holds 5 flags, red places first,
/// never twice on one card (X5 is for placement only), and execution starts at card 0
/// after the 10th flag.
#[test]
fn a16_setup_and_placement() {
    let doc = json!({"kind": "pasta"});
    let line = |seed| {
        let g =
            tilesmith_engine::GameKind::start(&tilesmith_engine::kind::pasta::Pasta, &doc, seed)
                .unwrap();
        let v: Vec<String> = g.summary()["cards"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["card"].as_str().unwrap().to_string())
            .collect();
        v
    };
    let a = line(0);
    assert_eq!(a, line(0));
    assert_eq!(a.len(), 8);
    for basic in ["AddFlag", "MoveFlag", "Bug"] {
        assert!(a.iter().any(|c| c == basic), "{basic} in {a:?}");
    }
    let mut sorted = a.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), 8);
    assert!((0..20).any(|s| line(s) != a), "the seed draws the setup");
    let mut g = start(&doc);
    let first = format!("@{}", a[0]);
    assert_eq!(s(&*g)["phase"], "placement");
    assert_eq!(s(&*g)["hand"], json!({"red": 5, "blue": 5}));
    pasta::play(&mut *g, &first);
    assert_eq!(s(&*g)["to_move"], "blue");
    pasta::play(&mut *g, &first);
    assert!(
        g.read_input(&first).is_err(),
        "red already has a flag on that card (§5)"
    );
    for card in &a[1..5] {
        let w = format!("@{card}");
        pasta::play(&mut *g, &format!("{w} {w}"));
    }
    assert_eq!(s(&*g)["phase"], "execution");
    assert_eq!(s(&*g)["hand"], json!({"red": 0, "blue": 0}));
    assert_eq!(s(&*g)["reserve"], json!({"red": 5, "blue": 5}));
    // The first card holds red's then blue's flag: red has the right at cursor 0.
    assert_eq!(
        (s(&*g)["cursor"].clone(), s(&*g)["to_move"].clone()),
        (json!(0), json!("red"))
    );
}

/// §5: a player whose hand is empty is passed over.
#[test]
fn placement_passes_over_an_empty_hand() {
    let doc = json!({"kind": "pasta", "cards": ["Bug", "Debug", "Rotate"], "hand": {"red": 2, "blue": 0}, "flags": [[], ["blue"], []]});
    let g = after(&doc, "@Bug");
    assert_eq!(s(&*g)["to_move"], "red");
    let g = after(&doc, "@Bug @rotate");
    assert_eq!(s(&*g)["phase"], "execution");
}

/// A8 with Reorder during a Subroutine's visit: the activating flag on the Subroutine card is
/// followed to its new place, so two orders with the same colours are two choices.
/// Subroutine red (activating), blue, red: C(3,1) = 3 colour orders × 2 places for the
/// activating red = 6, Bug's one flag 1, and skip: 8. `Subroutine=2,3,1` puts it last
/// (nothing behind it: the cursor moves on to Reorder's normal visit); `Subroutine=2,1,3`
/// puts it in the middle (the red behind it, old place 3, has the next right).
#[test]
fn a8_reorder_follows_the_activating_flag_of_the_subroutine_card() {
    let doc = level(
        &["Subroutine", "Reorder", "Bug"],
        &[(0, &["red", "blue", "red"]), (1, &["blue"]), (2, &["blue"])],
        json!({}),
    );
    let g = after(&doc, "do:Reorder");
    assert_eq!(words(&*g).len(), 8);
    let g = after(&doc, "do:Reorder do:Subroutine=2,3,1");
    assert_eq!(flags(&*g, 0), json!(["blue", "red", "red"]));
    assert_eq!(
        (s(&*g)["cursor"].clone(), s(&*g)["to_move"].clone()),
        (json!(1), json!("blue"))
    );
    let g = after(&doc, "do:Reorder do:Subroutine=2,1,3");
    assert_eq!(flags(&*g, 0), json!(["blue", "red", "red"]));
    assert_eq!(
        (s(&*g)["cursor"].clone(), s(&*g)["to_move"].clone()),
        (json!(0), json!("red"))
    );
}

/// ForkBomb, A7 and A13: the damage takes blue to 0 and the removal of the activating flag
/// leaves red without flags; both losing conditions hold after the command: a draw (the
/// prototype would give red the win, as it keeps the flag when the damage already wins).
#[test]
fn forkbomb_winning_and_losing_at_once_is_a_draw() {
    let doc = level(
        &["ForkBomb", "Bug"],
        &[(0, &["red"]), (1, &["blue"])],
        json!({"life": {"red": 5, "blue": 2}}),
    );
    let g = after(&doc, "do");
    assert_eq!(
        (s(&*g)["status"].clone(), s(&*g)["reason"].clone()),
        (json!("draw"), json!("both lost"))
    );
    assert_eq!(s(&*g)["life"]["blue"], 0);
}
