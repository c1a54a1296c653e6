//! Spec baba Tier 2 (§1, §5.13): LEVEL as a subject with the implicit LEVEL IS STOP, letters
//! as words (§3.1), WORD, LOCKED and the colour words. Expected boards are worked out by hand
//! from the spec, the guide lines it cites and, where the spec leaves a point open, the real
//! game's level table [L6022–L6126] (docs/baba-semantics.md, §5.13 LEVEL).
//! Board notation as in `baba_spec.rs`; `[A]` is the letter tile A.

#![allow(clippy::unwrap_used)] // helpers panic on purpose when a fixture is wrong

use tilesmith_engine::kind::baba::{BabaGame, BabaLevel, Prop, Word, WordClass};
use tilesmith_engine::kind::{Game, Status};
use tilesmith_tests::baba::{board, find, game, norm, play, show};

const YOU: &str = "baba is you";

fn check(board_text: &str, rules: &[&str], inputs: &str, expect: &str, dirs: bool) {
    let mut g = game(board_text, rules);
    play(&mut g, inputs);
    assert_eq!(
        show(&g, dirs),
        norm(expect),
        "board {board_text:?}, rules {rules:?}, inputs {inputs:?}"
    );
}

/// The rules the text of a board forms, in board order.
fn rules_of(board_text: &str) -> Vec<String> {
    board(board_text)
        .rules()
        .into_iter()
        .map(|r| r.text)
        .collect()
}

fn won(g: &BabaGame) -> bool {
    matches!(g.status(), Status::Won { .. })
}

// ---- letters (§3.1) ----

#[test]
fn letters_in_a_row_spell_a_word() {
    assert_eq!(rules_of("[B] [A] [B] [A] [IS] [YOU]"), vec!["baba is you"]);
    // The rule uses the four letter tiles, so none of them is dimmed as unused.
    let level = board("[B] [A] [B] [A] [IS] [YOU]");
    assert_eq!(level.rules()[0].tiles.len(), 6);
    assert!(level.unused_text().is_empty());
}

#[test]
fn letters_in_a_column_spell_top_to_bottom() {
    assert_eq!(
        rules_of(
            "[K]
             [E]
             [K]
             [E]
             [IS]
             [YOU]"
        ),
        vec!["keke is you"]
    );
}

#[test]
fn letters_mix_with_word_tiles_anywhere_in_a_sentence() {
    assert_eq!(rules_of("[BABA] [I] [S] [YOU]"), vec!["baba is you"]);
    assert_eq!(rules_of("[BABA] [IS] [W] [I] [N]"), vec!["baba is win"]);
}

#[test]
fn letters_read_backwards_or_alone_form_nothing() {
    // Right to left is not a reading direction (§3.1 (I)).
    assert!(rules_of("[BABA] [IS] [U] [O] [Y]").is_empty());
    // A single letter is not a word [L178]: `I` alone is no IS.
    assert!(rules_of("[BABA] [I] [YOU]").is_empty());
    // A gap breaks the spelling.
    assert!(rules_of("[BABA] [IS] [Y] . [O] [U]").is_empty());
}

#[test]
fn a_letter_run_forms_every_word_it_contains() {
    // [L5232]: FALLRIGHT forms FALL because the letters contain it.
    assert_eq!(
        rules_of("[BABA] [IS] [F] [A] [L] [L] [R] [I] [G] [H] [T]"),
        vec!["baba is fall"]
    );
    // Letters spelling a word inside a longer letter run: XKEKE contains KEKE.
    assert_eq!(
        rules_of("[X] [K] [E] [K] [E] [IS] [YOU]"),
        vec!["keke is you"]
    );
}

#[test]
fn a_spelled_rule_acts_in_play() {
    // Row 0 spells BABA IS YOU with letters only; the BABA object at (6,2) is YOU and walks.
    let mut g = game(
        "[B] [A] [B] [A] [I] [S] [Y] [O] [U]
         .   .   .   .   .   .   .   .   .
         .   .   .   .   .   .   B   .   .",
        &[],
    );
    assert_eq!(
        g.rules()
            .iter()
            .map(|r| r.text.as_str())
            .collect::<Vec<_>>(),
        vec!["baba is you"]
    );
    play(&mut g, "U");
    assert_eq!(find(&g, 'B')[0].pos.y, 1);
    play(&mut g, "undo");
    assert_eq!(find(&g, 'B')[0].pos.y, 2);
}

#[test]
fn pushing_a_letter_out_of_line_breaks_the_spelled_word() {
    // BABA IS Y-O-U on row 1; BABA under the O pushes it up out of the line.
    let mut g = game(
        ".   .    .   .   .
         [BABA] [IS] [Y] [O] [U]
         .   .    .   B   .",
        &[],
    );
    assert_eq!(g.rules().len(), 1);
    play(&mut g, "U");
    // BABA pushed O up to (3,0): YOU is broken, nothing is YOU any more.
    assert_eq!(
        show(&g, false),
        norm(
            ". . . [O] .
             [BABA] [IS] [Y] B [U]
             . . . . ."
        )
    );
    assert!(g.rules().is_empty());
    assert!(matches!(g.status(), Status::Lost { .. }));
}

#[test]
fn letters_are_in_the_palette_as_their_own_class() {
    let letters: Vec<String> = tilesmith_engine::kind::baba::palette()
        .into_iter()
        .filter(|e| e.class == Some(WordClass::Letter))
        .map(|e| e.token)
        .collect();
    assert_eq!(letters.len(), 26 + 10 + 2);
    assert_eq!(letters[0], "text_a");
    assert!(letters.contains(&"text_9".to_string()));
}

// ---- LEVEL (§5.13) ----

#[test]
fn the_level_is_stop_implicitly_and_the_edge_blocks_regardless() {
    let g = game("B .", &[YOU]);
    assert_eq!(g.level_prop_count(Prop::Stop), 1);
    // LEVEL IS STOP has no effect inside the level [L6034]: negating it leaves the edge solid.
    let g2 = game(". Bv", &[YOU, "level is not stop"]);
    assert_eq!(g2.level_prop_count(Prop::Stop), 0);
    check(". Bv", &[YOU, "level is not stop"], "R", ". B>", true);
}

#[test]
fn a_win_level_is_cleared_when_a_you_object_overlaps_it() {
    // [L6032]: a YOU tile overlapping a WIN level clears it; every object overlaps the level.
    let mut g = game("B .", &[YOU, "level is win"]);
    assert_eq!(g.status(), Status::Running, "never won at turn 0");
    play(&mut g, ".");
    assert!(won(&g));
    // A floating level overlaps only floating objects.
    let mut g = game("B .", &[YOU, "level is win", "level is float"]);
    play(&mut g, ".");
    assert_eq!(g.status(), Status::Running);
}

#[test]
fn a_you_level_wins_on_a_win_object_and_keeps_the_game_alive() {
    let mut g = game("F .", &["level is you"]);
    assert_eq!(g.status(), Status::Running, "the level is YOU: not lost");
    play(&mut g, ".");
    assert_eq!(g.status(), Status::Running, "no WIN yet");
    let mut g = game("F .", &["level is you", "flag is win"]);
    play(&mut g, ".");
    assert!(won(&g));
    let mut g = game(". .", &["level is you and win"]);
    play(&mut g, ".");
    assert!(won(&g));
}

#[test]
fn a_defeat_level_destroys_the_you_objects() {
    // [L6054]: YOU tiles overlapping a DEFEAT level are destroyed; the level survives.
    let mut g = game("B K", &[YOU, "level is defeat"]);
    play(&mut g, ".");
    assert_eq!(show(&g, false), ". K");
    assert!(matches!(g.status(), Status::Lost { .. }));
}

#[test]
fn destroying_the_level_destroys_every_object_without_has() {
    // [L6028, L6020]: a YOU level overlapping a DEFEAT tile is destroyed, i.e. every object.
    let mut g = game(
        "S K B",
        &["level is you", "skull is defeat", "baba has rock"],
    );
    play(&mut g, ".");
    assert_eq!(show(&g, false), ". . .");
    assert!(
        matches!(g.status(), Status::Running),
        "the level is still YOU"
    );
    // A YOU and DEFEAT level is destroyed too, and does not win with WIN.
    let mut g = game("K", &["level is you and defeat and win"]);
    play(&mut g, ".");
    assert_eq!(show(&g, false), ".");
    assert!(!won(&g));
    // A SAFE level is not destroyed [L5342].
    check(
        "S K",
        &["level is you", "skull is defeat", "level is safe"],
        ".",
        "S K",
        false,
    );
}

#[test]
fn sink_and_weak_levels_are_destroyed_by_any_overlapping_object() {
    check("K .", &["level is sink"], ".", ". .", false);
    check("K .", &["level is weak"], ".", ". .", false);
    // Nothing overlaps a floating level when no object floats.
    check("K .", &["level is sink and float"], ".", "K .", false);
    // An empty level has nothing to overlap.
    check(". .", &["level is sink"], ".", ". .", false);
}

#[test]
fn hot_melt_and_open_shut_levels() {
    // [L6056]: a HOT level destroys the MELT objects overlapping it.
    check("B K", &["level is hot", "baba is melt"], ".", ". K", false);
    // [L6060]: a MELT level overlapping a HOT tile is destroyed.
    check("L K", &["level is melt", "lava is hot"], ".", ". .", false);
    // [L6068]: an OPEN level overlapping a SHUT tile is destroyed.
    check("D K", &["level is open", "door is shut"], ".", ". .", false);
}

#[test]
fn bonus_and_done_levels() {
    check("B K", &[YOU, "level is bonus"], ".", ". .", false);
    // DONE: every object vanishes (no HAS: vanishing is not destruction, §5.4).
    check(
        "B K",
        &["level is done", "baba has rock"],
        ".",
        ". .",
        false,
    );
}

#[test]
fn level_conditions_look_at_the_whole_level() {
    // LEVEL ON B: at least one B anywhere in the level [L3483–L3485].
    let mut g = game("B . .", &[YOU, "level on keke is win"]);
    play(&mut g, ".");
    assert_eq!(g.status(), Status::Running);
    let mut g = game("B . K", &[YOU, "level on keke is win"]);
    play(&mut g, ".");
    assert!(won(&g));
    // A repeated word needs as many: ON KEKE AND KEKE needs two KEKEs.
    let mut g = game("B . K", &[YOU, "level on keke and keke is win"]);
    play(&mut g, ".");
    assert_eq!(g.status(), Status::Running);
    let mut g = game("B K K", &[YOU, "level on keke and keke is win"]);
    play(&mut g, ".");
    assert!(won(&g));
    // NEAR reads the same as ON for the level [L3551–L3553].
    let mut g = game("B . K", &[YOU, "level near keke is win"]);
    play(&mut g, ".");
    assert!(won(&g));
    // ON EMPTY: the level has an object-free cell.
    let mut g = game("B K", &[YOU, "level on empty is win"]);
    play(&mut g, ".");
    assert_eq!(g.status(), Status::Running);
    let mut g = game("B .", &[YOU, "level on empty is win"]);
    play(&mut g, ".");
    assert!(won(&g));
    // LONELY LEVEL is always false, NOT LONELY LEVEL always true [L2266–L2276].
    let mut g = game("B .", &[YOU, "lonely level is win"]);
    play(&mut g, ".");
    assert_eq!(g.status(), Status::Running);
    let mut g = game("B .", &[YOU, "not lonely level is win"]);
    play(&mut g, ".");
    assert!(won(&g));
    // FACING anything is always false for the level, NOT FACING always true.
    let mut g = game("B K", &[YOU, "level facing keke is win"]);
    play(&mut g, ".");
    assert_eq!(g.status(), Status::Running);
    let mut g = game("B K", &[YOU, "level not facing down is win"]);
    play(&mut g, ".");
    assert!(won(&g));
    // LEVEL ON LEVEL is false for the level itself (there are no level icons).
    let mut g = game("B .", &[YOU, "level on level is win"]);
    play(&mut g, ".");
    assert_eq!(g.status(), Status::Running);
}

#[test]
fn level_rules_formed_by_text_and_by_letters() {
    // LEVEL IS WIN written with word tiles, and once more spelled with letters.
    let mut g = game(
        "[LEVEL] [IS] [WIN] .
         [BABA] [IS] [YOU] B",
        &[],
    );
    play(&mut g, ".");
    assert!(won(&g));
    let mut g = game(
        "[L] [E] [V] [E] [L] [IS] [WIN]
         [BABA] [IS] [YOU] . . . B",
        &[],
    );
    assert!(
        g.rules().iter().any(|r| r.text == "level is win"),
        "{:?}",
        g.rules()
    );
    play(&mut g, ".");
    assert!(won(&g));
}

// ---- colours ----

#[test]
fn colour_words_are_cosmetic_properties_with_a_tint() {
    let g = game("B K", &[YOU, "baba is green", "level is red"]);
    let b = find(&g, 'B')[0].id;
    let k = find(&g, 'K')[0].id;
    assert_eq!(g.tint(b), Some(Prop::Green));
    assert_eq!(g.tint(k), None);
    assert_eq!(g.level_tint(), Some(Prop::Red));
    assert_eq!(Prop::Green.rgb().map(|_| ()), Some(()));
    assert_eq!(Prop::You.rgb(), None);
    // Every colour word of the game is known and is a property.
    for c in [
        "red", "blue", "orange", "yellow", "lime", "green", "cyan", "purple", "pink", "rosy",
        "black", "grey", "silver", "white", "brown",
    ] {
        assert!(
            matches!(Word::from_name(c), Some(Word::Prop(p)) if p.rgb().is_some()),
            "{c}"
        );
    }
    // They do not change play: a green BABA moves like any other.
    check("B .", &[YOU, "baba is green"], "R", ". B", false);
}

// ---- WORD (§5.13) ----

#[test]
fn a_word_object_acts_as_the_text_of_its_noun() {
    // [L4972]: BABA IS WORD makes the BABA object read as the word BABA, so the row forms
    // BABA IS YOU and the BABA moves (pushing IS and YOU, which are text and so PUSH).
    let mut g = game("B [IS] [YOU] .", &["baba is word"]);
    assert!(g.rules().iter().any(|r| r.text == "baba is you"));
    play(&mut g, "R");
    assert_eq!(show(&g, false), ". B [IS] [YOU]");
    // Without WORD the row forms nothing and nothing is YOU.
    let g = game("B [IS] [YOU] .", &[]);
    assert!(g.rules().is_empty());
}

#[test]
fn text_ignores_word() {
    // [L767]: TEXT IS WORD does nothing; the text BABA is still the word BABA, not TEXT.
    let g = game("[BABA] [IS] [YOU] B", &["text is word"]);
    assert_eq!(
        g.rules()
            .iter()
            .map(|r| r.text.as_str())
            .collect::<Vec<_>>(),
        vec!["baba is you"]
    );
}

#[test]
fn a_word_loop_makes_every_object_vanish() {
    // BABA IS WORD reads the BABA as BABA, forming BABA IS NOT WORD, which removes the WORD,
    // which removes the rule: evaluation never settles, and after 200 evaluations every
    // object vanishes (§3.7 [L6345–L6361]).
    let g = game("B [IS] [NOT] [WORD] K", &["baba is word"]);
    assert!(g.objects().is_empty(), "{}", show(&g, false));
}

// ---- LOCKED (§5.1 step 2, §5.13) ----

#[test]
fn locked_blocks_one_direction_and_still_turns() {
    let r = [YOU, "baba is lockedright"];
    check(". Bv .", &r, "R", ". B> .", true);
    check(". Bv .", &r, "L", "B< . .", true);
    // A restriction is not a failure: a WEAK mover survives [L4804, L5376].
    check(
        ". Bv .",
        &[YOU, "baba is lockedright", "baba is weak"],
        "R",
        ". B> .",
        true,
    );
}

#[test]
fn a_locked_move_object_does_not_bounce() {
    // [L4698]: the bounce does not happen when LOCKED restricts the move.
    check(
        ". R> .",
        &["rock is move", "rock is lockedright"],
        ".",
        ". R> .",
        true,
    );
    // Unlocked, the same rock moves.
    check(". R> .", &["rock is move"], ".", ". . R>", true);
}

#[test]
fn a_locked_push_object_acts_as_stop_in_that_direction() {
    let r = [YOU, "rock is push", "rock is lockedright"];
    check("Bv R .", &r, "R", "B> R> .", true);
    // Pushed the other way it moves.
    check(". R Bv", &r, "L", "R B .", false);
}

#[test]
fn a_locked_swap_object_cannot_be_entered_from_the_locked_side() {
    // [L4904]: A IS STOP AND SWAP AND LOCKED (UP): a tile cannot move down into A (the swap
    // would move A up); from the side it swaps.
    let r = [YOU, "rock is stop and swap and lockedup"];
    check(
        "Bv
         R",
        &r,
        "D",
        "Bv
         R>",
        true,
    );
    check("B> R", &r, "R", "R> B>", true);
}

#[test]
fn locked_does_not_stop_falling_sideways_but_lockeddown_stops_falling() {
    check(
        "R
         .",
        &["rock is fall", "rock is lockedleft"],
        ".",
        ".
         R",
        false,
    );
    check(
        "R
         .",
        &["rock is fall", "rock is lockeddown"],
        ".",
        "R
         .",
        false,
    );
}

// ---- Tier 3 words stay errors ----

#[test]
fn a_tier3_word_in_a_level_with_tier2_words_gets_a_located_error() {
    let doc = serde_json::json!({"kind": "baba", "name": "x", "width": 4, "height": 2,
        "map": [["text_level", "text_is", "text_win", null],
                ["text_baba", "text_mimic", "text_keke", "text_l"]]});
    let problems = BabaLevel::from_json(&doc).unwrap_err();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].path.to_string(), "$.map[1][1]");
    assert!(problems[0].message.contains("mimic"));
    // And through the text, as `tilesmith check` prints it: line and column of the token.
    let text = serde_json::to_string_pretty(&doc).unwrap();
    let located = tilesmith_engine::load_text(&text).unwrap().check();
    let p = located.iter().find(|p| p.is_error()).unwrap();
    assert!(p.message.contains("mimic"), "{}", p.message);
    assert!(p.line.is_some() && p.column.is_some(), "{p:?}");
}
