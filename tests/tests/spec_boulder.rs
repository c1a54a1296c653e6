//! Every worked example of the boulder spec §4.4 (main rules) and §4.5 (level rules), as tests.
//! Expected maps are copied from the spec's "after" tables; `*` = moved, `+` = moved + falling.

use serde_json::json;
use tilesmith_engine::kind::boulder::level::rule_from_json;
use tilesmith_engine::kind::boulder::{Board, BoulderGame, CompiledRule};
use tilesmith_engine::observe::{Collector, Phase};
use tilesmith_engine::{Dir, Game, Input, JsonPath, Pos};
use tilesmith_tests::{grid, level, shown};

fn tick(before: &str, input: Input) -> BoulderGame {
    let mut g = BoulderGame::new(level(grid(before)), 0);
    g.step(input);
    g
}

fn assert_map(g: &BoulderGame, expected: &str) {
    assert_eq!(shown(&g.to_boulder_level().map), shown(&grid(expected)));
}

#[test]
fn player_moves_right_into_mud() {
    let g = tick(
        "path path mud mud
         mud  me   mud mud
         mud  path mud mud",
        Input::Move(Dir::Right),
    );
    assert_map(
        &g,
        "path path  mud mud
         mud  path* me* mud
         mud  path  mud mud",
    );
}

#[test]
fn shift_right_digs_without_moving() {
    let g = tick(
        "path path mud mud
         mud  me   mud mud
         mud  path mud mud",
        Input::Meta(Dir::Right),
    );
    assert_map(
        &g,
        "path path mud  mud
         mud  me   path mud
         mud  path mud  mud",
    );
}

#[test]
fn pushing_a_stone_right_then_holding_the_key_changes_nothing_more() {
    let before = "path path path  path mud
                  mud  me   stone path mud
                  mud  mud  mud   mud  mud";
    let mut g = BoulderGame::new(level(grid(before)), 0);
    g.step(Input::Move(Dir::Right));
    assert_map(
        &g,
        "path path  path path   mud
         mud  path* me*  stone* mud
         mud  mud   mud  mud    mud",
    );
    let report = g.step(Input::Move(Dir::Right));
    // Only the `moved` markers disappear; no token changes.
    assert_map(
        &g,
        "path path path path  mud
         mud  path me   stone mud
         mud  mud  mud  mud   mud",
    );
    assert!(
        report
            .changed
            .iter()
            .all(|p| p.y == 1 && (1..=3).contains(&p.x))
    );
}

#[test]
fn pushing_up_is_not_possible() {
    let g = tick(
        "mud path  mud
         mud stone mud
         mud me    mud",
        Input::Move(Dir::Up),
    );
    assert_map(
        &g,
        "mud path  mud
         mud stone mud
         mud me    mud",
    );
}

#[test]
fn gravity_example_1_straight_fall() {
    let g = tick(
        "path path stone path mud
         mud  path path  path mud
         mud  mud  mud   mud  mud",
        Input::Wait,
    );
    assert_map(
        &g,
        "path path path*  path mud
         mud  path stone+ path mud
         mud  mud  mud    mud  mud",
    );
}

#[test]
fn gravity_example_2_slide_right_off_a_stone() {
    let g = tick(
        "path path stone path mud
         mud  path stone path mud
         mud  mud  mud   mud  mud",
        Input::Wait,
    );
    assert_map(
        &g,
        "path path path* path   mud
         mud  path stone stone+ mud
         mud  mud  mud   mud    mud",
    );
}

#[test]
fn gravity_example_3_slide_left_when_right_is_blocked() {
    let g = tick(
        "path path stone mud  mud
         mud  path stone path mud
         mud  mud  mud   mud  mud",
        Input::Wait,
    );
    assert_map(
        &g,
        "path path   path* mud  mud
         mud  stone+ stone path mud
         mud  mud    mud   mud  mud",
    );
}

#[test]
fn gravity_example_4_no_entering_a_field_freed_this_tick() {
    let g = tick(
        "mud mud stone mud mud
         mud mud stone mud mud
         mud mud path  mud mud",
        Input::Wait,
    );
    assert_map(
        &g,
        "mud mud stone  mud mud
         mud mud path*  mud mud
         mud mud stone+ mud mud",
    );
}

fn rule(v: serde_json::Value) -> CompiledRule {
    CompiledRule::new(&rule_from_json(&v, &JsonPath::root()).expect("valid rule"))
}

/// Runs `r` once over a board made from `map`, returning the board and the match positions.
fn apply(map: &str, r: &CompiledRule) -> (Board, Vec<Pos>) {
    let mut b = Board::new(&grid(map));
    let mut globals = [0; 5];
    let mut c = Collector::default();
    r.apply(&mut b, &mut globals, Phase::Pre(0), &mut c);
    (b, c.fired.into_iter().flat_map(|(_, v)| v).collect())
}

fn tokens(b: &Board) -> Vec<&'static str> {
    b.tokens().iter().map(|t| t.name()).collect()
}

#[test]
fn line_example_1_matches_do_not_overlap() {
    let r = rule(json!({"situation":"any","direction":"east",
        "original":[{"token":"stone"},{"token":"stone"},{"token":"path"}],
        "result":[{"token":"gem"},{"token":"path"},{"token":"stone"}]}));
    let (b, at) = apply(
        "path stone stone path path stone stone path stone path stone",
        &r,
    );
    assert_eq!(
        tokens(&b),
        [
            "path", "gem", "path", "stone", "path", "gem", "path", "stone", "stone", "path",
            "stone"
        ]
    );
    assert_eq!(at, [Pos::new(1, 0), Pos::new(5, 0)]);
}

#[test]
fn line_example_2_index_copies_the_token_of_the_match() {
    // The spec writes "northeast", a typo (§6 L1); the example runs on one given line, read east.
    let r = rule(json!({"situation":"any","direction":"east",
        "original":[{"token":"stone"},{"token":["stone","gem"]},{"token":"stone"}],
        "result":[{"token":"gem"},{"token":"path"},{"token":"1"}]}));
    let (b, at) = apply("stone stone stone stone stone gem stone stone stone", &r);
    assert_eq!(
        tokens(&b),
        [
            "gem", "path", "stone", "stone", "gem", "path", "gem", "stone", "stone"
        ]
    );
    assert_eq!(at, [Pos::new(0, 0), Pos::new(4, 0)]);
}

#[test]
fn full_map_example_three_rules_in_turn() {
    let start = "path stone path  path
                 path me    stone path
                 path mud   mud   mud";
    let down = json!({"situation":"down","direction":"south",
        "original":[{"token":"me"},{"token":["mud","path"]}],
        "result":[{"token":"path","values":{"moved":1}},{"token":"me","values":{"moved":1}}]});
    let r1 = rule(down);
    assert!(r1.active(Input::Move(Dir::Down), 1));
    assert!(
        !r1.active(Input::Wait, 1)
            && !r1.active(Input::Meta(Dir::Down), 1)
            && !r1.active(Input::Move(Dir::Up), 1)
    );
    let mut b = Board::new(&grid(start));
    let mut globals = [0; 5];
    let mut none = tilesmith_engine::observe::NoObserver;
    r1.apply(&mut b, &mut globals, Phase::Pre(0), &mut none);
    assert_eq!(
        shown(&b.to_grid()),
        shown(&grid(
            "path stone path  path
             path path* stone path
             path me*   mud   mud"
        ))
    );
    let r2 = rule(
        json!({"situation":"any","direction":"east","original":[{"token":"*"}],"result":[{"token":"0","values":{"moved":0}}]}),
    );
    r2.apply(&mut b, &mut globals, Phase::Pre(1), &mut none);
    assert_eq!(
        shown(&b.to_grid()),
        shown(&grid(
            "path stone path  path
             path path  stone path
             path me    mud   mud"
        ))
    );
    let r3 = rule(
        json!({"situation":"any","direction":"west","original":[{"token":"stone"},{"token":"*"}],"result":[{"token":"1"},{"token":"0"}]}),
    );
    r3.apply(&mut b, &mut globals, Phase::Pre(2), &mut none);
    assert_eq!(
        shown(&b.to_grid()),
        shown(&grid(
            "stone path  path path
             path  stone path path
             path  me    mud  mud"
        ))
    );
}

#[test]
fn value_table_of_section_4_5() {
    // Field before / rule block / field after: 5/4/9, 5/-4/1, 4/-5/0, 7/0/0, applied to `a`.
    for (before, block, after) in [(5, 4, 9), (5, -4, 1), (4, -5, 0), (7, 0, 0)] {
        let r = rule(
            json!({"situation":"any","direction":"east","original":[{"token":"mud"}],"result":[{"token":"0","values":{"a":block}}]}),
        );
        let (b, _) = apply(&format!("mud[a={before}]"), &r);
        assert_eq!(
            b.val(0, tilesmith_engine::kind::boulder::ValueKey::A),
            after,
            "{before} {block}"
        );
    }
}

#[test]
fn value_matching_zero_means_must_be_zero_and_n_means_at_least_n() {
    let r = rule(json!({"situation":"any","direction":"east",
        "original":[{"token":"mud","values":{"a":0,"b":2}}],"result":[{"token":"gem"}]}));
    let (b, _) = apply("mud[b=2] mud[b=3] mud[b=1] mud[a=1,b=5] mud", &r);
    assert_eq!(tokens(&b), ["gem", "gem", "mud", "mud", "mud"]);
}
