//! Hand-worked replays for the main-rule choices that `docs/boulder-semantics.md` records where
//! the boulder spec (`../shared/specs/boulder.md` §4.4, §6) is ambiguous: player (P1–P6, L12),
//! gravity and crushing (G1–G6), enemies (N1–N5 and their order), slime (S1–S6), explosions
//! (E1–E4) and the values of moving and exploding objects (V1, V2).
//!
//! Each test is a tiny level, the inputs (CLI words: `.`, `L`, `R`, `U`, `D`, `ML`, …) and the
//! map expected after each tick, worked out by hand from the spec's text and the documented
//! reading, and compared cell by cell (token, `moved`, `falling` and any value written in
//! brackets). None of the expected maps was copied from the engine's output. Each test's doc
//! comment names the item it pins and a wrong reading (a mutation of
//! `engine/kinds/boulder/src/main_rules.rs` or `game.rs`) that it was seen to reject.
//!
//! Map notation as in the spec's tables (see [`tilesmith_tests::grid`]): `*` after a token
//! means `moved` is set, `+` means `moved` and `falling`; no marker means both are 0.
//! `[k=v,…]` checks further values, e.g. `swapling*[direction=3]`; a value named there
//! overrides what the marker says about `moved`/`falling`.
//!
//! The slime tests need the random trials of §6 S1/S6 (docs: ChaCha8 seeded with the game's
//! seed, one `u32` per (slime field, in-map neighbour) pair, a hit when `(u × 100) >> 32 < 3`).
//! They replay that documented stream with `rand_chacha` here to pick a seed whose trials hit
//! exactly where the test needs them; the expected map then follows from the spec by hand.

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng as _, SeedableRng as _};
use serde_json::{Value, json};
use tilesmith_engine::kind::boulder::level::rule_from_json;
use tilesmith_engine::kind::boulder::{BoulderGame, BoulderLevel, Global, Rule, Token, ValueKey};
use tilesmith_engine::{Game, Input, JsonPath, Pos, Status};
use tilesmith_tests::{grid, level};

// ---------------------------------------------------------------------------------------------
// Helpers

/// A level around `map` (no rules, gems [0,0,0], ticks [1000,1000,1000]).
fn lvl(map: &str) -> BoulderLevel {
    level(grid(map))
}

/// A level rule from its JSON form.
fn rule(v: Value) -> Rule {
    rule_from_json(&v, &JsonPath::root()).expect("a valid rule")
}

/// An `any`/`east` rule that writes `values` onto every field holding `token`.
fn mark(token: &str, values: Value) -> Rule {
    rule(json!({"situation": "any", "direction": "east",
        "original": [{"token": token}], "result": [{"token": "0", "values": values}]}))
}

/// Parses one CLI input word.
fn input(word: &str) -> Input {
    Input::parse(word).unwrap_or_else(|| panic!("bad input word {word:?}"))
}

/// One expected field: token, and the values to compare (`moved`/`falling` always).
struct Want {
    token: Token,
    /// `(key, value, exact)`: exact compares the number, else only set (> 0) vs. not set.
    values: Vec<(ValueKey, u32, bool)>,
}

fn want(word: &str) -> Want {
    let (head, vals) = match word.find('[') {
        Some(i) => (&word[..i], Some(word[i + 1..].trim_end_matches(']'))),
        None => (word, None),
    };
    let name = head.trim_end_matches(['*', '+']);
    let token = Token::from_name(name).unwrap_or_else(|| panic!("unknown token {name}"));
    let moved = head.ends_with('*') || head.ends_with('+');
    let falling = head.ends_with('+');
    let mut values = vec![
        (ValueKey::Moved, moved as u32, false),
        (ValueKey::Falling, falling as u32, false),
    ];
    for kv in vals.into_iter().flat_map(|v| v.split(',')) {
        let (k, v) = kv.split_once('=').expect("k=v");
        let key = *ValueKey::ALL
            .iter()
            .find(|x| x.name() == k)
            .unwrap_or_else(|| panic!("unknown value {k}"));
        let v: u32 = v.parse().expect("a number");
        values.retain(|(k, _, _)| *k != key);
        values.push((key, v, true));
    }
    Want { token, values }
}

/// Asserts the game's map equals `expected`, cell by cell; lists every differing field.
#[track_caller]
fn assert_map(g: &BoulderGame, expected: &str, when: &str) {
    let rows: Vec<Vec<&str>> = expected
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|l| l.split_whitespace().collect())
        .collect();
    let b = g.board();
    assert_eq!(
        (rows.first().map_or(0, Vec::len), rows.len()),
        (b.width(), b.height()),
        "{when}: the expected map has the wrong size"
    );
    let mut diffs = Vec::new();
    for (y, row) in rows.iter().enumerate() {
        assert_eq!(row.len(), b.width(), "{when}: ragged expected row {y}");
        for (x, word) in row.iter().enumerate() {
            let w = want(word);
            let i = b.idx(Pos::new(x, y));
            let got_token = b.token(i);
            let mut bad = got_token != w.token;
            for &(k, v, exact) in &w.values {
                let got = b.val(i, k);
                bad |= if exact {
                    got != v
                } else {
                    (got > 0) != (v > 0)
                };
            }
            if bad {
                let vals: Vec<String> = ValueKey::ALL
                    .iter()
                    .filter(|k| b.val(i, **k) > 0)
                    .map(|k| format!("{}={}", k.name(), b.val(i, *k)))
                    .collect();
                diffs.push(format!(
                    "  ({x},{y}): expected {word}, got {} [{}]",
                    got_token.name(),
                    vals.join(",")
                ));
            }
        }
    }
    assert!(
        diffs.is_empty(),
        "{when}: the map differs from the hand-worked one:\n{}",
        diffs.join("\n")
    );
}

/// Plays `level` with `seed`: for each `(input, expected map)` one tick, then the map check.
#[track_caller]
fn replay(level: BoulderLevel, seed: u64, ticks: &[(&str, &str)]) -> BoulderGame {
    let mut g = BoulderGame::new(level, seed);
    for (k, (word, expected)) in ticks.iter().enumerate() {
        g.step(input(word));
        assert_map(&g, expected, &format!("after tick {} ({word})", k + 1));
    }
    g
}

fn gems(g: &BoulderGame) -> u32 {
    g.globals()[Global::Gems as usize]
}

fn destroyed() -> Status {
    Status::Lost {
        reason: "the figure was destroyed".into(),
    }
}

/// The first `n` slime trials of a game with `seed`, as documented (§6 S1, S6).
fn trials(seed: u64, n: usize) -> Vec<bool> {
    let mut r = ChaCha8Rng::seed_from_u64(seed);
    (0..n)
        .map(|_| (u64::from(r.next_u32()) * 100) >> 32 < 3)
        .collect()
}

/// The smallest seed whose first trials are exactly `pattern`.
fn seed_where(pattern: &[bool]) -> u64 {
    (0..1_000_000u64)
        .find(|&s| trials(s, pattern.len()) == pattern)
        .expect("a seed with this pattern of trials below 1 000 000")
}

const T: bool = true;
const F: bool = false;

// ---------------------------------------------------------------------------------------------
// Player (§4.4 "Player movement", §6 P)

/// §6 P1, W1, W4: an `exit` is entered only when open, i.e. `gems ≥ gems[0]` (here 1); a closed
/// exit blocks like a wall. Entering it with 1 gem in 4 ticks gives 1 point.
/// Rejects: `exit_open` testing `>` instead of `≥`; an always open exit.
#[test]
fn p1_the_exit_opens_at_gems_0_and_blocks_while_closed() {
    let mut l = lvl("wall gem me exit wall");
    l.gems = [1, 2, 3];
    l.ticks = [100, 50, 10];
    let g = replay(
        l,
        0,
        &[
            ("R", "wall gem  me    exit wall"),
            ("L", "wall me*  path* exit wall"),
            ("R", "wall path* me*  exit wall"),
            ("R", "wall path path* me*  wall"),
        ],
    );
    assert_eq!(gems(&g), 1);
    assert_eq!(g.status(), Status::won(1));
}

/// §6 P2: a gem whose `falling` is set (here by a `pre` rule, the only way before the player
/// step, §6 P3) is neither collected nor dug, and the figure does not move into it, with or
/// without meta. Rejects: dropping the `falling` test for a plain move or for meta-digging.
#[test]
fn p2_a_falling_gem_is_not_collected_dug_or_entered() {
    let mut l = lvl("wall wall wall wall
                     wall me   gem  wall
                     wall mud  mud  wall
                     wall wall wall wall");
    l.pre = vec![mark("gem", json!({"falling": 1}))];
    let after = "wall wall wall           wall
                 wall me   gem[falling=1] wall
                 wall mud  mud            wall
                 wall wall wall           wall";
    let g = replay(l, 0, &[("R", after), ("MR", after)]);
    assert_eq!(gems(&g), 0);
}

/// §6 P3: the main rules run player, gravity, enemies, slime, explosions. The figure steps
/// under a stone first; gravity then finds the field below the stone occupied, so the stone
/// rests on the figure and does not crush it (§6 G4).
/// Rejects: gravity before the player (the stone would fall first and block the figure).
#[test]
fn p3_the_player_moves_before_gravity() {
    let g = replay(
        lvl("wall stone wall
             me   path  wall
             mud  mud   mud"),
        0,
        &[
            (
                "R",
                "wall  stone wall
                 path* me*   wall
                 mud   mud   mud",
            ),
            (
                ".",
                "wall stone wall
                 path me    wall
                 mud  mud   mud",
            ),
        ],
    );
    assert_eq!(g.status(), Status::Running);
}

/// §6 P4: meta + arrow turns `mud`, or a non-falling gem (collected), into `path`; the figure
/// does not move and no field gets `moved`. Rejects: meta-digging that sets `moved`.
#[test]
fn p4_meta_digging_leaves_the_figure_and_sets_no_moved() {
    let g = replay(
        lvl("me   mud  wall
             gem  mud  wall
             wall wall wall"),
        0,
        &[
            (
                "MR",
                "me   path wall
                 gem  mud  wall
                 wall wall wall",
            ),
            (
                "MD",
                "me   path wall
                 path mud  wall
                 wall wall wall",
            ),
        ],
    );
    assert_eq!(gems(&g), 1);
}

/// §6 P5: a push works left as well as right, moves one `pushable` object into `path` only
/// (not into `mud`), and sets `moved` on all three fields.
/// Rejects: a push into any diggable field (`path` or `mud`).
#[test]
fn p5_pushing_left_and_only_into_path() {
    replay(
        lvl("path stone me  stone mud
             mud  mud   mud mud   mud"),
        0,
        &[
            (
                "L",
                "stone* me* path* stone mud
                 mud    mud mud   mud   mud",
            ),
            (
                "R",
                "stone path* me* stone mud
                 mud   mud   mud mud   mud",
            ),
            (
                "R",
                "stone path me  stone mud
                 mud   mud  mud mud   mud",
            ),
        ],
    );
}

/// §6 P6: `right` rules fire on the arrow without meta, `metaright` rules with meta; they
/// depend only on the input, not on whether the figure can move (here a wall blocks it).
/// Rejects: a `right` situation that also holds for meta + right.
#[test]
fn p6_situations_follow_the_input_not_the_move() {
    let mut l = lvl("wall me  wall
                     pot  mud sieve");
    l.pre = vec![
        rule(json!({"situation": "right", "direction": "east",
            "original": [{"token": "pot"}], "result": [{"token": "fire"}]})),
        rule(json!({"situation": "metaright", "direction": "east",
            "original": [{"token": "sieve"}], "result": [{"token": "sand"}]})),
    ];
    replay(
        l,
        0,
        &[
            (
                "MR",
                "wall me  wall
                 pot  mud sand",
            ),
            (
                "R",
                "wall me  wall
                 fire mud sand",
            ),
        ],
    );
}

/// §6 L12: the main rules never move an object whose field has `moved` set, here by a `pre`
/// rule on the stone, the figure and the swapling: none of them moves.
/// Rejects: dropping the `moved` test in the player step, in gravity, or in the enemy step.
#[test]
fn l12_objects_moved_by_a_pre_rule_are_not_moved_again() {
    let mut l = lvl("stone path me  path swapling[direction=1] path
                     path  mud  mud mud  mud                   mud");
    l.pre = vec![rule(json!({"situation": "any", "direction": "east",
        "original": [{"token": ["stone", "me", "swapling"]}],
        "result": [{"token": "0", "values": {"moved": 1}}]}))];
    replay(
        l,
        0,
        &[(
            "R",
            "stone* path me* path swapling*[direction=1] path
             path   mud  mud mud  mud                    mud",
        )],
    );
}

// ---------------------------------------------------------------------------------------------
// Gravity and crushing (§4.4 "Gravity", §6 G)

/// §6 G3: off a `slippery` field an object slides right when the right field and the field
/// below it are free, and **right has priority over left**; the slide is diagonal in one
/// tick, only source (`*`) and target (`+`) are marked, and the object then rests on `mud`.
/// Rejects: left before right (the mutation that survived every golden replay).
#[test]
fn g3_slide_right_has_priority_over_left() {
    replay(
        lvl("wall path stone path wall
             wall path gem   path wall
             wall mud  mud   mud  wall
             wall wall wall  wall me"),
        0,
        &[
            (
                ".",
                "wall path path* path   wall
                 wall path gem   stone+ wall
                 wall mud  mud   mud    wall
                 wall wall wall  wall   me",
            ),
            (
                ".",
                "wall path path path  wall
                 wall path gem  stone wall
                 wall mud  mud  mud   wall
                 wall wall wall wall  me",
            ),
        ],
    );
}

/// §6 G3: a side is taken only when **both** the side field and the field below it are free.
/// Left half: right field free but below-right is `mud`; right half: below-right free but the
/// right field is `mud`. Both stones slide left.
/// Rejects: a slide that checks only the field below the side, or only the side field.
#[test]
fn g3_a_slide_needs_the_side_field_and_the_field_below_it() {
    replay(
        lvl("path path stone path wall path stone mud  wall
             path path gem   mud  wall path gem   path wall
             mud  mud  mud   mud  wall mud  mud   mud  wall
             wall wall wall  wall wall wall wall  wall me"),
        0,
        &[(
            ".",
            "path path   path* path wall path   path* mud  wall
             path stone+ gem   mud  wall stone+ gem   path wall
             mud  mud    mud   mud  wall mud    mud   mud  wall
             wall wall   wall  wall wall wall   wall  wall me",
        )],
    );
}

/// §4.4, §6 G3: an object slides only off a `slippery` field (stone, gem, bricks after the
/// reset): the stone on `mud` stays although both sides are free; the one on `bricks` slides.
/// Rejects: sliding off any occupied field.
#[test]
fn g3_slides_only_off_slippery_fields() {
    replay(
        lvl("path stone path path stone  path
             path mud   path path bricks path
             me   mud   mud  mud  mud    mud"),
        0,
        &[(
            ".",
            "path stone path path path*  path
             path mud   path path bricks stone+
             me   mud   mud  mud  mud    mud",
        )],
    );
}

/// §6 G2 scan order, rows **from the bottom up**: the lower stone falls first; the upper one
/// then finds a vacated (not free) field below it, which is no longer slippery, and stays.
/// Rejects: rows from the top down (the upper stone would slide right off the lower one first).
#[test]
fn g2_gravity_scans_rows_from_the_bottom_up() {
    replay(
        lvl("mud stone path mud
             mud stone path mud
             mud path  mud  mud
             mud mud   mud  me"),
        0,
        &[(
            ".",
            "mud stone  path mud
             mud path*  path mud
             mud stone+ mud  mud
             mud mud    mud  me",
        )],
    );
}

/// §6 G2 scan order, **left to right** within a row: two stones on bricks compete for the same
/// free field; the left one slides right into it first, and the right one's left slide then
/// finds its target taken.
/// Rejects: scanning a row from right to left (the right stone would win).
#[test]
fn g2_within_a_row_the_left_object_moves_first() {
    replay(
        lvl("stone  path  stone
             bricks path  bricks
             mud    mud   mud
             me     mud   mud"),
        0,
        &[(
            ".",
            "path*  path   stone
             bricks stone+ bricks
             mud    mud    mud
             me     mud    mud",
        )],
    );
}

/// §6 G2: a `path` vacated in this tick is not free for a diagonal slide either: the stone
/// below-right falls away first (bottom-up scan), and the stone on the bricks may not slide
/// into the field it left.
/// Rejects: `free` ignoring `moved` (the stone would slide into the vacated field).
#[test]
fn g2_a_field_vacated_this_tick_is_not_free_for_a_slide() {
    replay(
        lvl("mud stone  path  mud
             mud bricks stone mud
             mud mud    path  mud
             mud mud    mud   me"),
        0,
        &[(
            ".",
            "mud stone  path   mud
             mud bricks path*  mud
             mud mud    stone+ mud
             mud mud    mud    me",
        )],
    );
}

/// §6 G2, P5: an object moved this tick does not move again: the pushed stone hangs over the
/// gap for the rest of the tick and falls in the next one.
/// Rejects: gravity ignoring `moved` (the stone would fall in the tick it was pushed).
#[test]
fn g2_a_pushed_stone_falls_only_in_the_next_tick() {
    replay(
        lvl("me  stone path
             mud mud   path
             mud mud   mud"),
        0,
        &[
            (
                "R",
                "path* me* stone*
                 mud   mud path
                 mud   mud mud",
            ),
            (
                ".",
                "path me  path*
                 mud  mud stone+
                 mud  mud mud",
            ),
        ],
    );
}

/// §6 G1, V1: every object with `loose` set falls, whatever its token: a `pre` rule makes the
/// sand with `a` = 1 loose, and only that sand falls. Its `a` stays with the field (V1: `a`–`d`
/// never move with an object). Rejects: gravity only for stone and gem; `a` moving with the
/// object.
#[test]
fn g1_any_loose_object_falls_and_v1_a_stays_with_the_field() {
    let mut l = lvl("sand[a=1] sand me
                     path      path mud");
    l.pre = vec![rule(json!({"situation": "any", "direction": "east",
        "original": [{"token": "sand", "values": {"a": 1}}],
        "result": [{"token": "0", "values": {"loose": 1}}]}))];
    replay(
        l,
        0,
        &[(
            ".",
            "path*[a=1] sand[a=0] me
             sand+[a=0] path      mud",
        )],
    );
}

/// §6 G4: an object that **slides** diagonally into the field directly above the figure
/// crushes it in the same tick, like a straight fall; G5: `bamrich`, a 3×3 of gems around
/// the figure, sparing walls, which replaces the sliding stone too. The level is lost (W3).
/// Rejects: crushing only after a straight fall.
#[test]
fn g4_a_diagonal_slide_onto_the_figure_crushes_it() {
    let g = replay(
        lvl("wall stone path wall
             wall gem   path wall
             wall mud   me   mud
             wall wall  wall wall"),
        0,
        &[(
            ".",
            "wall path* path wall
             wall gem   gem* wall
             wall gem   gem  gem
             wall wall  wall wall",
        )],
    );
    assert_eq!(g.status(), destroyed());
}

/// §6 G4: an object resting above a figure never crushes it, nor does one put there without
/// falling: the stone pushed over the boxed-in xling stays on it, tick after tick.
/// Rejects: crushing by a loose object that cannot fall and rests on the figure.
#[test]
fn g4_a_stone_pushed_over_an_enemy_rests_on_it() {
    let g = replay(
        lvl("me  stone path              mud
             mud wall  xling[direction=2] wall
             mud wall  wall              wall"),
        0,
        &[
            (
                "R",
                "path* me*  stone*            mud
                 mud   wall xling[direction=2] wall
                 mud   wall wall              wall",
            ),
            (
                ".",
                "path me   stone             mud
                 mud  wall xling[direction=2] wall
                 mud  wall wall              wall",
            ),
        ],
    );
    assert_eq!(g.status(), Status::Running);
}

/// §4.4 and §6 G5: a crushed xling becomes a 3×3 of gems (`bamrich`), a crushed blockling a
/// 3×3 of `explosion` (`bam`); `wall` and `exit` are spared (here the exit beside the
/// blockling), and the falling stone inside the area is replaced. Rejects: `bam` for an xling;
/// an explosion that does not spare the exit.
#[test]
fn g5_crushed_xling_gives_gems_and_crushed_blockling_explosion() {
    replay(
        lvl("wall stone             wall stone                 wall wall
             wall path              wall path                  wall wall
             wall xling[direction=2] wall blockling[direction=2] exit wall
             wall wall              wall wall                  wall me"),
        0,
        &[(
            ".",
            "wall path* wall path*      wall wall
             wall gem*  wall explosion* wall wall
             wall gem   wall explosion  exit wall
             wall wall  wall wall       wall me",
        )],
    );
}

/// §6 G6: a ghostling has no built-in behaviour, so a stone falling onto the field above it
/// does not crush it. Rejects: crushing ghostlings like the basic enemies.
#[test]
fn g6_ghostlings_are_not_crushed() {
    replay(
        lvl("wall stone     wall
             wall path      wall
             wall ghostling wall
             wall wall      me"),
        0,
        &[(
            ".",
            "wall path*     wall
             wall stone+    wall
             wall ghostling wall
             wall wall      me",
        )],
    );
}

// ---------------------------------------------------------------------------------------------
// Enemies (§4.4 "Enemy movement", §6 N)

/// §6 N1, N2: a swapling with `direction` 2 keeps to its column although the fields beside it
/// are free; at the wall it reverses and moves back **in the same tick**; its `direction`
/// travels with it (V1). Rejects: a reversal that spends the tick turning; a swapling that
/// turns sideways when blocked.
#[test]
fn n1_n2_a_vertical_swapling_reverses_and_moves_in_one_tick() {
    replay(
        lvl("wall wall wall                  wall wall
             wall path path                  path wall
             wall path swapling[direction=2] path wall
             wall path path                  path wall
             wall wall wall                  wall me"),
        0,
        &[
            (
                ".",
                "wall wall wall                   wall wall
                 wall path swapling*[direction=2] path wall
                 wall path path*[direction=0]     path wall
                 wall path path                   path wall
                 wall wall wall                   wall me",
            ),
            (
                ".",
                "wall wall wall                   wall wall
                 wall path path*                  path wall
                 wall path swapling*[direction=4] path wall
                 wall path path                   path wall
                 wall wall wall                   wall me",
            ),
            (
                ".",
                "wall wall wall                   wall wall
                 wall path path                   path wall
                 wall path path*                  path wall
                 wall path swapling*[direction=4] path wall
                 wall wall wall                   wall me",
            ),
            (
                ".",
                "wall wall wall                   wall wall
                 wall path path                   path wall
                 wall path swapling*[direction=2] path wall
                 wall path path*                  path wall
                 wall wall wall                   wall me",
            ),
        ],
    );
}

/// §6 N3: enemies enter only `path`, including a `path` vacated in this tick (the figure steps
/// away first, P3), but never `gem` (nor `mud`): the second swapling turns at the gem and,
/// boxed in, stays. Rejects: enemies needing a `path` without `moved`; enemies entering gems.
#[test]
fn n3_enemies_enter_path_even_if_vacated_this_tick_but_not_gems() {
    replay(
        lvl("swapling[direction=1] me   path
             wall                  wall wall
             wall swapling[direction=1] gem
             wall wall                  wall"),
        0,
        &[(
            "R",
            "path* swapling*[direction=1] me*
             wall  wall                   wall
             wall  swapling[direction=3]  gem
             wall  wall                   wall",
        )],
    );
}

/// A ring corridor round a wall block (the figure in the corner outside): `c` are the eight
/// corridor fields clockwise from the top-left corner: top row left to right, the right
/// side's middle, the bottom row right to left, the left side's middle.
fn ring(c: [&str; 8]) -> String {
    let [a, b, cc, d, e, f, g, h] = c;
    format!(
        "wall wall wall wall wall
         wall {a} {b} {cc} wall
         wall {h} wall {d} wall
         wall {g} {f} {e} wall
         wall wall wall wall me"
    )
}

/// §6 N4, xling (right-hand rule): try right turn, straight, left turn, back; the first `path`
/// wins and becomes the `direction`. Around a ring corridor, heading right from the top-left
/// corner, it turns down at once and follows the outer wall on its right.
/// Rejects: straight before the right turn; the blockling's order for the xling.
#[test]
fn n4_the_xling_follows_the_wall_on_its_right() {
    let x = |d: u32| format!("xling*[direction={d}]");
    let (p, v) = ("path", "path*");
    replay(
        lvl(&ring(["xling[direction=1]", p, p, p, p, p, p, p])),
        0,
        &[
            (".", &ring([v, p, p, p, p, p, p, &x(4)])),
            (".", &ring([p, p, p, p, p, p, &x(4), v])),
            (".", &ring([p, p, p, p, p, &x(1), v, p])),
            (".", &ring([p, p, p, p, &x(1), v, p, p])),
            (".", &ring([p, p, p, &x(2), v, p, p, p])),
        ],
    );
}

/// §6 N4, blockling (left-hand rule): try left turn, straight, right turn, back. From the same
/// start it goes along the top and follows the outer wall on its left; in a dead end only
/// "back" is free and it turns round. Rejects: the xling's order for the blockling; no "back".
#[test]
fn n4_the_blockling_follows_the_wall_on_its_left_and_turns_back_in_a_dead_end() {
    let k = |d: u32| format!("blockling*[direction={d}]");
    let (p, v) = ("path", "path*");
    replay(
        lvl(&ring(["blockling[direction=1]", p, p, p, p, p, p, p])),
        0,
        &[
            (".", &ring([v, &k(1), p, p, p, p, p, p])),
            (".", &ring([p, v, &k(1), p, p, p, p, p])),
            (".", &ring([p, p, v, &k(4), p, p, p, p])),
            (".", &ring([p, p, p, v, &k(4), p, p, p])),
            (".", &ring([p, p, p, p, v, &k(3), p, p])),
        ],
    );
    replay(
        lvl("wall wall                   wall
             wall blockling[direction=2] wall
             wall path                   wall
             wall wall                   me"),
        0,
        &[(
            ".",
            "wall wall                    wall
             wall path*                   wall
             wall blockling*[direction=4] wall
             wall wall                    me",
        )],
    );
}

/// §6 N5: "in the enemy's way" means the **first** option that is `path` or `me` is `me`. The
/// xling has the figure straight ahead but its right turn is free, so it turns away; two ticks
/// later the figure is its first option and the **enemy** explodes (`bamrich`): the 3×3 is
/// centred on the xling (it takes the `mud` below, out of the figure's reach) and destroys
/// the figure. Rejects: exploding whenever the figure is any option; an enemy that never
/// explodes; the 3×3 centred on the figure.
#[test]
fn n5_the_enemy_explodes_when_its_first_option_is_the_figure() {
    let g = replay(
        lvl("wall wall               wall wall wall
             wall xling[direction=1] me   wall wall
             wall path               path wall wall
             wall mud                mud  wall wall"),
        0,
        &[
            (
                ".",
                "wall wall                wall wall wall
                 wall path*               me   wall wall
                 wall xling*[direction=4] path wall wall
                 wall mud                 mud  wall wall",
            ),
            (
                ".",
                "wall wall  wall                     wall wall
                 wall path  me                       wall wall
                 wall path* xling*[direction=1]      wall wall
                 wall mud   mud                      wall wall",
            ),
            (
                ".",
                "wall wall wall wall wall
                 wall gem  gem  wall wall
                 wall gem  gem  wall wall
                 wall gem  gem  wall wall",
            ),
        ],
    );
    assert_eq!(g.status(), destroyed());
}

/// Enemy order (docs "Enemies", order): enemies are taken row-major from their positions at
/// the start of the step. The left swapling goes first, finds the right one ahead, reverses
/// and is boxed in; only then does the right one move on.
/// Rejects: taking the enemies in reverse order (the left one would follow into the vacated
/// field).
#[test]
fn enemies_move_in_row_major_order() {
    replay(
        lvl("wall swapling[direction=1] swapling[direction=1] path wall
             wall wall                  wall                  wall me"),
        0,
        &[(
            ".",
            "wall swapling[direction=3] path* swapling*[direction=1] wall
             wall wall                  wall  wall                   me",
        )],
    );
}

/// Enemy order (docs "Enemies"): an enemy marked to explode (here crushed by gravity, which
/// runs first) is skipped, so the 3×3 of gems is centred where it was crushed.
/// Rejects: moving a marked enemy (its `bamrich` would travel with it, V1).
#[test]
fn a_crushed_enemy_does_not_move_before_it_explodes() {
    replay(
        lvl("wall stone                 wall wall wall
             wall path                  wall wall wall
             wall swapling[direction=1] path path wall
             wall wall                  wall wall me"),
        0,
        &[(
            ".",
            "wall path* wall wall wall
             wall gem*  wall wall wall
             wall gem   gem  path wall
             wall wall  wall wall me",
        )],
    );
}

// ---------------------------------------------------------------------------------------------
// Slime (§4.4 "Slime", §6 S)

const SLIME_ROOM: &str = "wall wall wall  wall wall wall
                          wall path path  path path wall
                          wall path slime path path wall
                          wall path path  path path wall
                          wall wall wall  wall wall me";

/// §6 S1, S6: one 3 % trial per (slime field, neighbour) pair, neighbours in the order right,
/// up, left, down. With a seed whose first trial (right) alone hits, the slime spreads right;
/// with one whose second trial (up) alone hits, it spreads up. No region is enclosed (S3).
/// Rejects: another neighbour order (e.g. down, left, up, right).
#[test]
fn s1_one_trial_per_neighbour_right_up_left_down() {
    let right = seed_where(&[T, F, F, F]);
    replay(
        lvl(SLIME_ROOM),
        right,
        &[(
            ".",
            "wall wall wall  wall  wall wall
             wall path path  path  path wall
             wall path slime slime path wall
             wall path path  path  path wall
             wall wall wall  wall  wall me",
        )],
    );
    let up = seed_where(&[F, T, F, F]);
    replay(
        lvl(SLIME_ROOM),
        up,
        &[(
            ".",
            "wall wall wall  wall wall wall
             wall path slime path path wall
             wall path slime path path wall
             wall path path  path path wall
             wall wall wall  wall wall me",
        )],
    );
}

/// §6 S2: the trials use the slime present when the step starts; new slime spreads from the
/// next tick. The seed's first trial (right) hits, and so would the next one, which would be
/// the new slime's own right-hand trial if it spread at once. In the next tick the stream goes
/// on with that number: the old slime's right trial now meets slime, the new slime's right
/// trial (trial 5 of tick 2, the 9th number) is set to miss.
/// Rejects: new slime taking part in the same tick's trials.
#[test]
fn s2_new_slime_spreads_only_from_the_next_tick() {
    let seed = seed_where(&[T, F, F, F, T, F, F, F, F, F, F, F]);
    replay(
        lvl(SLIME_ROOM),
        seed,
        &[
            (
                ".",
                "wall wall wall  wall  wall wall
                 wall path path  path  path wall
                 wall path slime slime path wall
                 wall path path  path  path wall
                 wall wall wall  wall  wall me",
            ),
            (
                ".",
                "wall wall wall  wall  wall wall
                 wall path path  path  path wall
                 wall path slime slime path wall
                 wall path path  path  path wall
                 wall wall wall  wall  wall me",
            ),
        ],
    );
}

/// §6 S3: a connected slime region turns into gem when none of its neighbours is `path`,
/// `mud` or an enemy, and the map edge counts as closed: the corner region beside stone, the
/// figure and bricks becomes gem; the slime beside `mud` stays (no trial hits with this seed).
/// Rejects: the map edge counting as open; `mud` not counting as open.
#[test]
fn s3_an_enclosed_region_becomes_gem_and_the_map_edge_is_closed() {
    let seed = seed_where(&[F; 9]);
    replay(
        lvl("slime slime  stone wall  wall
             me    bricks wall  slime mud
             wall  wall   wall  wall  wall"),
        seed,
        &[(
            ".",
            "gem  gem    stone wall  wall
             me   bricks wall  slime mud
             wall wall   wall  wall  wall",
        )],
    );
}

/// §6 S4: all slime becomes stone only when there is **more** than `maxslime`; that check comes
/// after spreading and, when it fires, the enclosure check is skipped (stone, not gem).
/// Two enclosed slime fields: with `maxslime` 2 they become gem, with 1 they become stone.
/// Rejects: `≥` instead of `>`; the enclosure check before the `maxslime` check.
#[test]
fn s4_more_than_maxslime_becomes_stone_before_the_enclosure_check() {
    let map = "wall slime slime wall
               wall wall  wall  me";
    let mut l = lvl(map);
    l.maxslime = Some(2);
    replay(
        l,
        0,
        &[(
            ".",
            "wall gem  gem  wall
             wall wall wall me",
        )],
    );
    let mut l = lvl(map);
    l.maxslime = Some(1);
    replay(
        l,
        0,
        &[(
            ".",
            "wall stone stone wall
             wall wall  wall  me",
        )],
    );
}

/// §6 S5: slime does not harm the figure, and a slimed enemy explodes like a crushed one
/// (`bamrich`, 3×3 of gems sparing walls). The seed's trials hit the swapling (right) and the
/// figure (left) and miss up and down.
/// Rejects: slime that destroys or covers the figure; a slimed enemy that does not explode.
#[test]
fn s5_slime_spares_the_figure_and_blows_up_enemies() {
    let seed = seed_where(&[T, F, T, F]);
    let g = replay(
        lvl("wall wall wall  wall                  wall
             wall me   slime swapling[direction=2] wall
             wall wall wall  wall                  wall"),
        seed,
        &[(
            ".",
            "wall wall wall wall wall
             wall me   gem  gem  wall
             wall wall wall wall wall",
        )],
    );
    assert_eq!(g.status(), Status::Running);
}

/// §6 S6: a trial hits when `(u × 100) >> 32 < 3` for the next `u32` `u` of the game's
/// ChaCha8 stream. A seed whose first number gives exactly 3 (a 3.x % draw) does **not**
/// spread; one giving 2 does. Rejects: `≤ 3` (4 %); a different generator or seeding.
#[test]
fn s6_the_three_percent_threshold_is_exact() {
    let draw = |s: u64| {
        let mut r = ChaCha8Rng::seed_from_u64(s);
        let first = (u64::from(r.next_u32()) * 100) >> 32;
        let rest: Vec<bool> = (0..3)
            .map(|_| (u64::from(r.next_u32()) * 100) >> 32 < 3)
            .collect();
        (first, rest)
    };
    let seed_for = |first: u64| {
        (0..1_000_000u64)
            .find(|&s| draw(s) == (first, vec![F, F, F]))
            .expect("a seed below 1 000 000")
    };
    replay(lvl(SLIME_ROOM), seed_for(3), &[(".", SLIME_ROOM)]);
    replay(
        lvl(SLIME_ROOM),
        seed_for(2),
        &[(
            ".",
            "wall wall wall  wall  wall wall
             wall path path  path  path wall
             wall path slime slime path wall
             wall path path  path  path wall
             wall wall wall  wall  wall me",
        )],
    );
}

// ---------------------------------------------------------------------------------------------
// Explosions (§4.4 "Explosions", §6 E) and V2

/// §6 E1: the explosion step first clears only the `explosion` fields that existed when the
/// tick began; the explosion made in this tick (`bam` set by a `pre` rule on the pot) stays
/// until the next tick, where it becomes `path`.
/// Rejects: clearing this tick's explosions at once; never clearing them.
#[test]
fn e1_an_explosion_lasts_until_the_next_tick() {
    let mut l = lvl("wall wall wall wall wall
                     wall mud  pot  mud  wall
                     wall mud  mud  mud  wall
                     wall wall wall wall me");
    l.pre = vec![mark("pot", json!({"bam": 1}))];
    replay(
        l,
        0,
        &[
            (
                ".",
                "wall wall      wall      wall      wall
                 wall explosion explosion explosion wall
                 wall explosion explosion explosion wall
                 wall wall      wall      wall      me",
            ),
            (
                ".",
                "wall wall wall wall wall
                 wall path path path wall
                 wall path path path wall
                 wall wall wall wall me",
            ),
        ],
    );
}

/// §6 E2: all `bam`/`bamrich` fields are collected first, then applied: the left pot's 3×3
/// covers the right pot, and the right pot explodes all the same (its area reaches column 3).
/// Rejects: reading `bam` while applying (the covered pot's mark would be wiped first).
#[test]
fn e2_all_marks_are_collected_before_any_is_applied() {
    let mut l = lvl("mud mud mud mud mud mud
                     mud pot pot mud mud mud
                     mud mud mud mud mud mud
                     mud mud mud mud mud me");
    l.pre = vec![mark("pot", json!({"bam": 1}))];
    replay(
        l,
        0,
        &[(
            ".",
            "explosion explosion explosion explosion mud mud
             explosion explosion explosion explosion mud mud
             explosion explosion explosion explosion mud mud
             mud       mud       mud       mud       mud me",
        )],
    );
}

/// §6 V2, E2: where a `bam` and a `bamrich` area overlap, gems win (all `bam` areas first, then
/// all `bamrich` ones); a field with both set explodes into gems. The second map also shows
/// E3's clipping at the top edge. Rejects: `bamrich` areas applied before `bam` areas;
/// `bam` winning on a field that has both.
#[test]
fn v2_gems_win_over_explosion() {
    let mut l = lvl("mud mud mud   mud mud
                     mud pot sieve mud mud
                     mud mud mud   mud mud
                     mud mud mud   mud me");
    l.pre = vec![
        mark("pot", json!({"bam": 1})),
        mark("sieve", json!({"bamrich": 1})),
    ];
    replay(
        l,
        0,
        &[(
            ".",
            "explosion gem gem gem mud
             explosion gem gem gem mud
             explosion gem gem gem mud
             mud       mud mud mud me",
        )],
    );
    let mut l = lvl("mud fire mud
                     mud mud  mud
                     mud mud  me");
    l.pre = vec![mark("fire", json!({"bam": 1, "bamrich": 1}))];
    replay(
        l,
        0,
        &[(
            ".",
            "gem gem gem
             gem gem gem
             mud mud me",
        )],
    );
}

/// §6 E3: the 3×3 is clipped at the map edge: a pot exploding on the left edge leaves the
/// right-hand column (which a wrapped index would hit) alone.
/// Rejects: an area that is not clipped at the left edge.
#[test]
fn e3_the_area_is_clipped_at_the_map_edge() {
    let mut l = lvl("mud mud mud mud
                     pot mud mud mud
                     mud mud mud mud
                     mud mud mud me");
    l.pre = vec![mark("pot", json!({"bam": 1}))];
    replay(
        l,
        0,
        &[(
            ".",
            "explosion explosion mud mud
             explosion explosion mud mud
             explosion explosion mud mud
             mud       mud       mud me",
        )],
    );
}

/// §6 E4, W3: only `wall` and `exit` are spared, so a figure inside an explosion is destroyed
/// and the level is lost. Rejects: sparing the figure.
#[test]
fn e4_an_explosion_destroys_the_figure() {
    let mut l = lvl("wall wall wall wall
                     wall pot  me   wall
                     wall wall wall wall");
    l.pre = vec![mark("pot", json!({"bam": 1}))];
    let g = replay(
        l,
        0,
        &[(
            ".",
            "wall wall      wall      wall
             wall explosion explosion wall
             wall wall      wall      wall",
        )],
    );
    assert_eq!(g.status(), destroyed());
}
