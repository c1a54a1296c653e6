//! Spec baba Tier 2 (§1, §5.13): LEVEL as a subject with the implicit LEVEL IS STOP, letters
//! as words (§3.1), WORD, LOCKED and the colour words. Expected boards are worked out by hand
//! from the spec, the guide lines it cites and, where the spec leaves a point open, the real
//! game's level table [L6022–L6126] (docs/baba-semantics.md, §5.13 LEVEL).
//! Board notation as in `baba_spec.rs`; `[A]` is the letter tile A.

#![allow(clippy::unwrap_used)] // helpers panic on purpose when a fixture is wrong

use tilesmith_engine::game::{Game, Status};
use tilesmith_engine::grid::{Dir, Pos};
use tilesmith_engine::kind::baba::{BabaGame, BabaLevel, Prop, Word, WordClass};
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
        .map(|r| r.text.to_string())
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
        g.rules().iter().map(|r| &*r.text).collect::<Vec<_>>(),
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
        g.rules().iter().any(|r| &*r.text == "level is win"),
        "{:?}",
        g.rules()
    );
    play(&mut g, ".");
    assert!(won(&g));
}

// ---- the level's SHIFT, TELE, EAT and facing (§5.13 LEVEL) ----

#[test]
fn a_shift_level_moves_every_object_one_cell_its_way() {
    // [L6084]: each object overlapping a SHIFT level moves the level's way; the level faces
    // DOWN at the start [L528], and the real game's `movecommand` (its SHIFT take) turns the objects too.
    check(
        "R .
         . .",
        &["level is shift"],
        ".",
        ". .
         Rv .",
        true,
    );
    // Text overlaps the level as well, and the edge stops the move.
    check(
        "[BABA] .
         R      .",
        &["level is shift"],
        ".",
        ".      .
         [BABA]+R .",
        false,
    );
    // Several LEVEL IS SHIFT rules still give one move [L6086]; a SHIFT object under the rock
    // would give two.
    check(
        "R
         .
         .",
        &["level is shift", "level is shift"],
        ".",
        ".
         Rv
         .",
        true,
    );
}

#[test]
fn a_shift_level_goes_the_way_its_dir_faces() {
    // LEVEL IS RIGHT faces the level right from the start (the real game's `startblock`).
    let mut g = game("R . .", &["level is shift", "level is right"]);
    assert_eq!(g.level_dir(), Dir::Right);
    play(&mut g, ".");
    assert_eq!(show(&g, true), ". R> .");
    play(&mut g, ". .");
    assert_eq!(show(&g, true), ". . R>", "the edge stops it");
    // LEVEL IS UP.
    check(
        ".
         R",
        &["level is shift", "level is up"],
        ".",
        "R^
         .",
        true,
    );
}

#[test]
fn a_shift_level_move_is_an_ordinary_shift_move() {
    // A STOP wall that cannot move (at the edge) blocks the rock above it; both turn down.
    check(
        "R
         W",
        &["level is shift", "wall is stop"],
        ".",
        "Rv
         Wv",
        true,
    );
    // When the wall moves too, the rock follows it, as SHIFT movers are resolved together.
    check(
        "R
         W
         .",
        &["level is shift", "wall is stop"],
        ".",
        ".
         R
         W",
        false,
    );
    // A floating BOX does not overlap the level, so it does not shift, but it is pushed (and,
    // pushed, turns the way it goes).
    check(
        "R
         X
         .",
        &["level is shift", "box is push", "box is float"],
        ".",
        ".
         Rv
         Xv",
        true,
    );
    // STILL and SLEEP objects turn but stay; a floating level moves only the floating ones.
    check(
        "R K B
         . . .",
        &["level is shift", "keke is still", "baba is sleep"],
        ".",
        ". Kv Bv
         Rv . .",
        true,
    );
    check(
        "R K
         . .",
        &["level is shift", "level is float", "keke is float"],
        ".",
        "R> .
         .  Kv",
        true,
    );
}

#[test]
fn a_you_level_turns_to_the_input() {
    // The real game's `movecommand` turns a YOU level to the input before the moves, so the
    // SHIFT of the same turn already goes that way.
    let mut g = game("R . .", &["level is you", "level is shift"]);
    play(&mut g, "R");
    assert_eq!(show(&g, true), ". R> .");
    assert_eq!(g.level_dir(), Dir::Right);
    // A STILL level does not turn.
    let mut g = game("R . .", &["level is you", "level is still"]);
    play(&mut g, "R");
    assert_eq!(g.level_dir(), Dir::Down);
    // LOCKED RIGHT stops only the turn to the right; SLEEP does not stop it (the real game's
    // `movecommand` checks STILL and LOCKED for the level, not SLEEP).
    let mut g = game("R . .", &["level is you", "level is lockedright"]);
    play(&mut g, "R");
    assert_eq!(g.level_dir(), Dir::Down);
    play(&mut g, "U");
    assert_eq!(g.level_dir(), Dir::Up);
    let mut g = game("R . .", &["level is you", "level is sleep"]);
    play(&mut g, "L");
    assert_eq!(g.level_dir(), Dir::Left);
    // Undo and redo restore the facing, and two states that differ only in it hash apart.
    let before = g.state_hash();
    play(&mut g, "U");
    assert_eq!(g.level_dir(), Dir::Up);
    let after = g.state_hash();
    assert_ne!(before, after);
    play(&mut g, "undo");
    assert_eq!((g.level_dir(), g.state_hash()), (Dir::Left, before));
    assert!(g.redo());
    assert_eq!((g.level_dir(), g.state_hash()), (Dir::Up, after));
}

#[test]
fn of_several_level_dir_rules_the_last_in_rule_order_stands_every_turn() {
    // The real game's `domaprotation` walks the level's rules in order and each DIR rule sets
    // the facing, so the last one stands, turn after turn [L6092–L6094] (an object with the
    // same two rules is a different matter: §5.1).
    for (rules, facing) in [
        (["level is left", "level is right"], Dir::Right),
        (["level is right", "level is left"], Dir::Left),
    ] {
        let mut g = game("R . .", &rules);
        assert_eq!(g.level_dir(), facing, "{rules:?} at the start");
        for _ in 0..3 {
            play(&mut g, ".");
            assert_eq!(g.level_dir(), facing, "{rules:?}");
        }
    }
    // Rules replaced at the level start leave no facing behind.
    let mut g = game("R . .", &["level is left"]);
    assert_eq!(g.level_dir(), Dir::Left);
    g.set_extra_rules(Vec::new());
    assert_eq!(g.level_dir(), Dir::Down);
}

#[test]
fn the_level_facing_follows_a_dir_rule_formed_in_play_and_undo_restores_it() {
    let mut g = game(
        ".       .    .      .
         [LEVEL] [IS] .      .
         .       .    [LEFT] .
         .       .    B      .",
        &[YOU],
    );
    assert_eq!(g.level_dir(), Dir::Down);
    let start = g.state_hash();
    play(&mut g, "U");
    assert!(g.rules().iter().any(|r| &*r.text == "level is left"));
    assert_eq!(g.level_dir(), Dir::Left);
    // Breaking the rule leaves the level facing left (the facing is state, like an object's).
    play(&mut g, "U");
    assert!(!g.rules().iter().any(|r| &*r.text == "level is left"));
    assert_eq!(g.level_dir(), Dir::Left);
    play(&mut g, "undo undo");
    assert_eq!(g.level_dir(), Dir::Down);
    assert_eq!(g.state_hash(), start);
    play(&mut g, "U");
    play(&mut g, "restart");
    assert_eq!(g.level_dir(), Dir::Down);
}

#[test]
fn a_tele_level_sends_every_object_to_random_cells_the_same_way_each_time() {
    let board_text = "R . . . .
                      . . . . .
                      . . K . .
                      . . . . .
                      . . . . [BABA]";
    let tele = ["level is tele"];
    let mut g = game(board_text, &tele);
    let mut cells = std::collections::BTreeSet::new();
    let mut trace = Vec::new();
    for _ in 0..6 {
        play(&mut g, ".");
        assert_eq!(g.objects().len(), 3, "TELE keeps every object");
        let r = find(&g, 'R')[0];
        assert_eq!(r.dir, Dir::Right, "TELE keeps the facing");
        cells.insert((r.pos.x, r.pos.y));
        trace.push(show(&g, false));
    }
    assert!(cells.len() > 1, "the rock went to several cells: {trace:?}");
    // The same level, seed and inputs give the same cells (the turn's seeded generator).
    let mut g2 = game(board_text, &tele);
    for expected in &trace {
        play(&mut g2, ".");
        assert_eq!(&show(&g2, false), expected);
    }
    // Undo restores the cells before the teleport, and redoing the turn gives it again.
    play(&mut g2, "undo");
    assert_eq!(show(&g2, false), trace[4]);
    play(&mut g2, ".");
    assert_eq!(show(&g2, false), trace[5]);
    // Up to three LEVEL IS TELE rules each teleport once more; a fourth adds nothing.
    let runs = |n: usize| {
        let rules = vec!["level is tele"; n];
        let mut g = game(board_text, &rules);
        (0..6)
            .map(|_| {
                play(&mut g, ".");
                show(&g, false)
            })
            .collect::<Vec<_>>()
    };
    assert_ne!(runs(1), runs(2));
    assert_ne!(runs(2), runs(3));
    assert_eq!(runs(3), runs(4));
}

#[test]
fn a_tele_level_moves_only_what_overlaps_it_and_not_when_still() {
    // A floating rock does not overlap the level; a STILL level does not teleport anything.
    let board_text = "R . . .
                      . . . .
                      . . . K";
    for rules in [
        &["level is tele", "rock is float"][..],
        &["level is tele", "level is still"][..],
        // LOCKED towards its facing (DOWN) stops it too; LOCKED another way does not.
        &["level is tele", "level is lockeddown"][..],
    ] {
        let mut g = game(board_text, rules);
        play(&mut g, ". . . .");
        assert_eq!(find(&g, 'R')[0].pos, Pos::new(0, 0), "{rules:?}");
    }
    // What does overlap it goes: the keke beside the floating rock, and text.
    let moved = |rules: &[&str], who: char, from: Pos| {
        let mut g = game("R . . .\n . . . .\n . . . K\n [BABA] . . .", rules);
        let mut moved = false;
        for _ in 0..6 {
            play(&mut g, ".");
            moved |= match who {
                't' => g
                    .objects()
                    .iter()
                    .any(|o| o.kind.is_text() && o.pos != from),
                c => find(&g, c)[0].pos != from,
            };
        }
        moved
    };
    assert!(moved(
        &["level is tele", "rock is float"],
        'K',
        Pos::new(3, 2)
    ));
    assert!(moved(
        &["level is tele", "level is lockedup"],
        'R',
        Pos::new(0, 0)
    ));
    assert!(moved(&["level is tele"], 't', Pos::new(0, 3)));
    // STILL objects still go: the level moves them, they do not move themselves.
    let mut g = game(board_text, &["level is tele", "rock is still"]);
    let mut moved = false;
    for _ in 0..6 {
        play(&mut g, ".");
        moved |= find(&g, 'R')[0].pos != Pos::new(0, 0);
    }
    assert!(moved);
}

#[test]
fn level_eat_destroys_every_b_floating_or_not() {
    // [L2053–L2057]: every B is destroyed, float ignored.
    check("R . K R", &["level eat rock"], ".", ". . K .", false);
    check(
        "R . K R",
        &["level eat rock", "rock is float"],
        ".",
        ". . K .",
        false,
    );
    check(
        "R . K R",
        &["level eat rock", "level is float"],
        ".",
        ". . K .",
        false,
    );
    // SAFE rocks are not eaten; eaten rocks leave what they HAVE.
    check(
        "R K",
        &["level eat rock", "rock is safe"],
        ".",
        "R K",
        false,
    );
    check(
        "R . K",
        &["level eat rock", "rock has keke"],
        ".",
        "K . K",
        false,
    );
    // LEVEL EAT TEXT eats text [L2063–L2065]; LEVEL EAT ALL every entity but no text
    // [L2115–L2117].
    check("[BABA] R", &["level eat text"], ".", ". R", false);
    check("[BABA] R K", &["level eat all"], ".", "[BABA] . .", false);
    // The rule's conditions are the level's: LEVEL ON KEKE EAT ROCK needs a KEKE.
    check("R .", &["level on keke eat rock"], ".", "R .", false);
    check("R K", &["level on keke eat rock"], ".", ". K", false);
}

#[test]
fn an_object_that_eats_the_level_destroys_it_unless_safe() {
    // [L1381–L1387] and the real game's `levelblock`: `A EAT LEVEL` destroys the level (every
    // object, without HAS) as soon as an A exists (with the rule's conditions), whatever the
    // floats; a SAFE level is spared.
    let mut g = game("[ROCK] [EAT] [LEVEL] R K", &[]);
    assert!(g.rules().iter().any(|r| &*r.text == "rock eat level"));
    play(&mut g, ".");
    assert_eq!(show(&g, false), ". . . . .");
    check(
        "R K",
        &["rock eat level", "rock is float"],
        ".",
        ". .",
        false,
    );
    check(
        "R K",
        &["rock eat level", "level is safe"],
        ".",
        "R K",
        false,
    );
    check(
        "R K",
        &["rock eat level", "keke has baba"],
        ".",
        ". .",
        false,
    );
    // No rock, or its condition unmet: nothing happens.
    check("B K", &["rock eat level"], ".", "B K", false);
    check("R K", &["rock near baba eat level"], ".", "R K", false);
    check("R B", &["rock near baba eat level"], ".", ". .", false);
}

#[test]
fn the_level_eating_itself_needs_level_icons_so_it_does_nothing_here() {
    // `LEVEL EAT LEVEL` destroys the level only when a level icon exists [L2071–L2085]; this
    // engine has none.
    check("R K", &["level eat level"], ".", "R K", false);
}

#[test]
fn level_has_make_fear_follow_and_write_act_on_level_icons_only() {
    // [L1981–L2051, L2123–L2157, L1465–L1471, L1531–L1533]: for the level itself these do
    // nothing (the real game finds their units by name, and for LEVEL those are level icons).
    let mut g = game("[LEVEL] [MAKE] [KEKE] . R", &[]);
    assert!(g.rules().iter().any(|r| &*r.text == "level make keke"));
    play(&mut g, ". .");
    assert_eq!(show(&g, false), "[LEVEL] [MAKE] [KEKE] . R");
    check(
        ". R> . K> .",
        &[
            "level has keke",
            "level fear rock",
            "level follow rock",
            "level write win",
            "keke fear level",
            "keke follow level",
        ],
        ". .",
        ". R> . K> .",
        true,
    );
    // A destroyed level leaves nothing, whatever it HAS.
    check(
        "R .",
        &["level is sink", "level has keke"],
        ".",
        ". .",
        false,
    );
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
    assert!(g.rules().iter().any(|r| &*r.text == "baba is you"));
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
        g.rules().iter().map(|r| &*r.text).collect::<Vec<_>>(),
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
