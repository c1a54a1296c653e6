//! The main rules where the spec gives no worked example, tested against the spec's text and
//! its suggested readings (boulder.md §4.4, §6). Each expected map is worked out by hand.

use tilesmith_engine::kind::boulder::{BoulderGame, Global, Token, ValueKey};
use tilesmith_engine::observe::{Collector, NoObserver};
use tilesmith_engine::{Dir, Game, Input, Status};
use tilesmith_tests::{grid, level, shown};

fn game(map: &str) -> BoulderGame {
    BoulderGame::new(level(grid(map)), 0)
}

fn tokens(g: &BoulderGame) -> Vec<Vec<String>> {
    shown(&g.to_boulder_level().map)
        .into_iter()
        .map(|r| {
            r.into_iter()
                .map(|c| c.trim_end_matches(['*', '+']).to_string())
                .collect()
        })
        .collect()
}

fn expect_tokens(g: &BoulderGame, map: &str) {
    let want = shown(&grid(map));
    assert_eq!(tokens(g), want);
}

fn direction_at(g: &BoulderGame, x: usize, y: usize) -> u32 {
    let b = g.board();
    b.val(b.idx(tilesmith_engine::Pos::new(x, y)), ValueKey::Direction)
}

#[test]
fn swapling_reverses_at_a_wall_and_moves_in_the_same_tick() {
    // §6 N1/N2: heading right into a wall, it turns to 3 (left) and moves left at once.
    let mut g = game(
        "wall wall wall                     wall wall
                      wall path swapling[direction=1]    wall me
                      wall wall wall                     wall wall",
    );
    g.step(Input::Wait);
    expect_tokens(
        &g,
        "wall wall     wall wall wall
                       wall swapling path wall me
                       wall wall     wall wall wall",
    );
    assert_eq!(direction_at(&g, 1, 1), 3);
    // Next tick: blocked on the left, it reverses again and moves right.
    g.step(Input::Wait);
    expect_tokens(
        &g,
        "wall wall wall     wall wall
                       wall path swapling wall me
                       wall wall wall     wall wall",
    );
    assert_eq!(direction_at(&g, 2, 1), 1);
}

#[test]
fn vertical_swapling_moves_along_its_column() {
    let mut g = game(
        "wall wall                   wall
                      wall swapling[direction=4]  wall
                      wall path                   wall
                      wall path                   wall
                      wall wall                   me",
    );
    g.step(Input::Wait);
    g.step(Input::Wait);
    expect_tokens(
        &g,
        "wall wall wall
                       wall path wall
                       wall path wall
                       wall swapling wall
                       wall wall me",
    );
    assert_eq!(direction_at(&g, 1, 3), 4);
}

const ROOM: &str = "wall wall wall           wall wall
                    wall path path           path wall
                    wall path ENEMY          path wall
                    wall path path           path wall
                    wall wall wall           wall me";

#[test]
fn xling_keeps_its_right_hand_on_the_wall() {
    // Heading right (1) in open space: the right-hand rule tries right turn (down) first.
    let mut g = game(&ROOM.replace("ENEMY", "xling[direction=1]"));
    g.step(Input::Wait);
    expect_tokens(
        &g,
        &ROOM.replace("ENEMY", "path").replacen(
            "wall path path           path wall\n                    wall wall",
            "wall path xling path wall\n wall wall",
            1,
        ),
    );
    assert_eq!(direction_at(&g, 2, 3), 4);
    // Now heading down with the wall below: right turn (left, x-1) is free.
    g.step(Input::Wait);
    assert_eq!(
        g.board()
            .token(g.board().idx(tilesmith_engine::Pos::new(1, 3))),
        Token::Xling
    );
    assert_eq!(direction_at(&g, 1, 3), 3);
}

#[test]
fn blockling_keeps_its_left_hand_on_the_wall() {
    // Heading right (1): the left-hand rule tries a left turn (up) first.
    let mut g = game(&ROOM.replace("ENEMY", "blockling[direction=1]"));
    g.step(Input::Wait);
    assert_eq!(
        g.board()
            .token(g.board().idx(tilesmith_engine::Pos::new(2, 1))),
        Token::Blockling
    );
    assert_eq!(direction_at(&g, 2, 1), 2);
    // Heading up under the wall: left turn (x-1) is free.
    g.step(Input::Wait);
    assert_eq!(
        g.board()
            .token(g.board().idx(tilesmith_engine::Pos::new(1, 1))),
        Token::Blockling
    );
    assert_eq!(direction_at(&g, 1, 1), 3);
}

#[test]
fn a_boxed_in_enemy_stays_and_keeps_its_direction() {
    let mut g = game(
        "wall wall               wall
                      wall xling[direction=2] wall
                      wall wall               me",
    );
    g.step(Input::Wait);
    assert_eq!(direction_at(&g, 1, 1), 2);
    assert_eq!(
        g.board()
            .token(g.board().idx(tilesmith_engine::Pos::new(1, 1))),
        Token::Xling
    );
}

#[test]
fn enemies_do_not_dig_mud() {
    let mut g = game(
        "wall wall                  wall wall
                      wall swapling[direction=1] mud  wall
                      wall wall                  wall me",
    );
    g.step(Input::Wait);
    expect_tokens(
        &g,
        "wall wall wall wall
                       wall swapling mud wall
                       wall wall wall me",
    );
}

#[test]
fn enemy_meeting_the_figure_explodes_into_gems_and_the_level_is_lost() {
    // §6 N5: the swapling's next field holds `me`; the swapling becomes a 3×3 of gems
    // (walls and exits spared), which destroys the figure.
    let mut g = game(
        "wall wall                  wall wall exit
                      wall swapling[direction=1] me   path wall
                      wall path                  path path wall
                      wall wall                  wall wall wall",
    );
    g.step(Input::Wait);
    expect_tokens(
        &g,
        "wall wall wall wall exit
                       wall gem  gem  path wall
                       wall gem  gem  path wall
                       wall wall wall wall wall",
    );
    assert_eq!(
        g.status(),
        Status::Lost {
            reason: "the figure was destroyed".into()
        }
    );
}

#[test]
fn blockling_meeting_the_figure_explodes_into_explosion_which_clears_next_tick() {
    let mut g = game(
        "wall wall                   wall wall wall
                      wall blockling[direction=1] path me   wall
                      wall wall                   wall wall wall
                      me   wall                   wall wall wall",
    );
    // Heading right, left turn is wall; straight is path: it moves next to me first.
    g.step(Input::Wait);
    g.step(Input::Wait);
    expect_tokens(
        &g,
        "wall wall      wall      wall      wall
                       wall explosion explosion explosion wall
                       wall wall      wall      wall      wall
                       me   wall      wall      wall      wall",
    );
    g.step(Input::Wait);
    expect_tokens(
        &g,
        "wall wall wall wall wall
                       wall path path path wall
                       wall wall wall wall wall
                       me   wall wall wall wall",
    );
}

#[test]
fn a_falling_stone_crushes_the_figure_but_a_resting_one_does_not() {
    // Resting: the stone sits on `me` from the start, nothing happens.
    let mut g = game(
        "wall stone wall
                      wall me    wall
                      wall mud   wall",
    );
    g.step(Input::Wait);
    assert_eq!(g.status(), Status::Running);
    // Falling: the stone falls into the field above `me` in this tick and crushes it (§6 G4):
    // a 3×3 of gems centred on `me`, walls spared.
    let mut g = game(
        "wall stone wall
                      wall path  wall
                      wall me    wall
                      wall mud   wall",
    );
    g.step(Input::Wait);
    expect_tokens(
        &g,
        "wall path wall
                       wall gem  wall
                       wall gem  wall
                       wall gem  wall",
    );
    assert!(matches!(g.status(), Status::Lost { .. }));
}

#[test]
fn crushed_swapling_leaves_gems_and_crushed_blockling_leaves_explosion() {
    // Each enemy is boxed in (heading up into the stone's column), so it stays put; the stones
    // fall onto them. Walls inside the 3×3 areas are spared.
    let mut g = game(
        "wall stone                  wall stone                   wall wall
                      wall path                   wall path                    wall wall
                      wall swapling[direction=2]  wall blockling[direction=2]  wall mud
                      wall wall                   wall wall                    wall me",
    );
    g.step(Input::Wait);
    expect_tokens(
        &g,
        "wall path wall path      wall wall
                       wall gem  wall explosion wall wall
                       wall gem  wall explosion wall mud
                       wall wall wall wall      wall me",
    );
}

#[test]
fn gravity_slides_right_before_left_and_bricks_are_slippery() {
    let mut g = game(
        "path stone  path
                      path bricks path
                      me   mud    mud",
    );
    g.step(Input::Wait);
    expect_tokens(
        &g,
        "path path   path
                       path bricks stone
                       me   mud    mud",
    );
}

#[test]
fn a_falling_gem_is_not_collected() {
    // §6 P2: the gem falls this tick (gravity runs after the player), so test with a `pre`
    // rule setting `falling` on it before the player step.
    let mut l = level(grid(
        "wall wall wall wall
                           wall me   gem  wall
                           wall mud  mud  wall",
    ));
    l.pre = vec![tilesmith_engine::kind::boulder::level::rule_from_json(
        &serde_json::json!({"situation":"any","direction":"east","original":[{"token":"gem"}],"result":[{"token":"0","values":{"falling":1}}]}),
        &tilesmith_engine::JsonPath::root(),
    )
    .unwrap()];
    let mut g = BoulderGame::new(l.clone(), 0);
    g.step(Input::Move(Dir::Right));
    assert_eq!(g.globals()[Global::Gems as usize], 0);
    g.step(Input::Meta(Dir::Right));
    assert_eq!(g.globals()[Global::Gems as usize], 0);
    l.pre.clear();
    let mut g = BoulderGame::new(l, 0);
    g.step(Input::Move(Dir::Right));
    assert_eq!(g.globals()[Global::Gems as usize], 1);
}

#[test]
fn the_exit_opens_at_gems_0_and_entering_it_wins_with_points() {
    let map = "wall wall wall wall wall
               wall me   gem  exit wall
               wall wall wall wall wall";
    let mut l = level(grid(map));
    l.gems = [1, 2, 3];
    l.ticks = [10, 5, 2];
    let mut g = BoulderGame::new(l.clone(), 0);
    g.step(Input::Move(Dir::Right));
    assert_eq!(g.globals()[Global::Gems as usize], 1);
    g.step(Input::Move(Dir::Right));
    // 1 gem, 2 ticks: gems ≥ 1 and ticks ≤ 10 → 1 point; 2 points need 2 gems.
    assert_eq!(g.status(), Status::won(1));
    // A closed exit blocks like a wall.
    l.gems = [2, 2, 2];
    let mut g = BoulderGame::new(l, 0);
    g.step(Input::Move(Dir::Right));
    g.step(Input::Move(Dir::Right));
    assert_eq!(g.status(), Status::Running);
    assert_eq!(
        g.board()
            .token(g.board().idx(tilesmith_engine::Pos::new(2, 1))),
        Token::Me
    );
}

#[test]
fn time_runs_out_after_ticks_0() {
    let mut l = level(grid("wall me wall"));
    l.ticks = [3, 2, 1];
    let mut g = BoulderGame::new(l, 0);
    for _ in 0..3 {
        g.step(Input::Wait);
        assert_eq!(g.status(), Status::Running);
    }
    g.step(Input::Wait);
    assert_eq!(
        g.status(),
        Status::Lost {
            reason: "the time ran out".into()
        }
    );
    // Once over, a step changes nothing.
    let r = g.step(Input::Wait);
    assert!(r.changed.is_empty());
    assert_eq!(g.globals()[Global::Ticks as usize], 4);
}

#[test]
fn bam_from_a_rule_explodes_but_spares_wall_and_exit() {
    let mut l = level(grid(
        "wall exit wall
                           mud  pot  mud
                           gem  mud  me",
    ));
    l.pre = vec![tilesmith_engine::kind::boulder::level::rule_from_json(
        &serde_json::json!({"situation":"any","direction":"east","original":[{"token":"pot"}],"result":[{"token":"0","values":{"bam":1}}]}),
        &tilesmith_engine::JsonPath::root(),
    )
    .unwrap()];
    let mut g = BoulderGame::new(l, 0);
    g.step(Input::Wait);
    expect_tokens(
        &g,
        "wall      exit      wall
                       explosion explosion explosion
                       explosion explosion explosion",
    );
}

#[test]
fn enclosed_slime_becomes_gem_and_too_much_slime_becomes_stone() {
    let mut g = game(
        "wall wall  wall
                      wall slime wall
                      wall wall  me",
    );
    g.step(Input::Wait);
    expect_tokens(
        &g,
        "wall wall wall
                       wall gem  wall
                       wall wall me",
    );
    let mut l = level(grid(
        "slime slime mud
                           wall  wall  me",
    ));
    l.maxslime = Some(1);
    let mut g = BoulderGame::new(l, 0);
    g.step(Input::Wait);
    let t = tokens(&g);
    assert_eq!(&t[0][..2], ["stone", "stone"]);
}

#[test]
fn slime_spreads_with_three_percent_per_neighbour() {
    // One slime in open path: 4 trials per tick. Over 2000 games of one tick (seeds 0..2000)
    // the expected number of new slime fields is 2000 × 4 × 0.03 = 240 (σ ≈ 15.3).
    let map = "wall wall  wall  wall  wall
               wall path  path  path  wall
               wall path  slime path  wall
               wall path  path  path  wall
               wall wall  wall  wall  me";
    let l = level(grid(map));
    let mut spread = 0;
    for seed in 0..2000 {
        let mut g = BoulderGame::new(l.clone(), seed);
        g.step(Input::Wait);
        spread += g.board().count(Token::Slime) - 1;
    }
    assert!(
        (180..=300).contains(&spread),
        "{spread} new slime fields, expected about 240"
    );
}

#[test]
fn same_seed_same_game_and_seeds_matter_for_slime() {
    let map = "wall wall wall wall wall wall
               wall mud  mud  mud  mud  wall
               wall mud  slime mud mud  wall
               wall mud  mud  mud  mud  wall
               wall wall wall wall wall me";
    let run = |seed| {
        let mut g = BoulderGame::new(level(grid(map)), seed);
        for _ in 0..60 {
            g.step(Input::Wait);
        }
        g.state_hash()
    };
    assert_eq!(run(7), run(7));
    let distinct: std::collections::HashSet<u64> = (0..8).map(run).collect();
    assert!(
        distinct.len() > 1,
        "different seeds should give different slime"
    );
}

#[test]
fn undo_and_redo_restore_exact_states() {
    let map = "wall wall  wall  wall wall wall
               wall me    mud   gem  mud  wall
               wall mud   stone mud  mud  wall
               wall path  path  mud  slime wall
               wall wall  wall  wall exit wall";
    let mut g = BoulderGame::new(level(grid(map)), 3);
    let inputs = [
        Input::Move(Dir::Right),
        Input::Move(Dir::Down),
        Input::Meta(Dir::Right),
        Input::Wait,
        Input::Move(Dir::Right),
    ];
    let mut hashes = vec![g.state_hash()];
    for i in inputs {
        g.step(i);
        hashes.push(g.state_hash());
    }
    for k in (0..inputs.len()).rev() {
        assert!(g.undo());
        assert_eq!(g.state_hash(), hashes[k]);
    }
    assert!(!g.undo());
    for h in &hashes[1..] {
        assert!(g.redo());
        assert_eq!(g.state_hash(), *h);
    }
    assert!(!g.redo());
    // A new step after undo drops the redo branch.
    g.undo();
    g.undo();
    g.step(Input::Wait);
    assert_eq!(g.redo_len(), 0);
}

#[test]
fn undo_memory_grows_with_changed_cells_not_map_size() {
    // A 300×300 map where one stone falls for 100 ticks: each tick changes 2–3 fields.
    let mut l = tilesmith_engine::kind::boulder::BoulderLevel::new("big", 300, 300);
    for c in l.map.cells_mut() {
        if c.token == Token::Mud {
            c.token = Token::Path;
        }
    }
    *l.map.get_mut(tilesmith_engine::Pos::new(150, 1)).unwrap() =
        tilesmith_engine::kind::boulder::Cell::new(Token::Stone);
    let mut g = BoulderGame::new(l, 0);
    g.step(Input::Wait); // the first reset sets loose/slippery/pushable on the stone
    let after_first = g.history_cells();
    for _ in 0..100 {
        g.step(Input::Wait);
    }
    let per_tick = (g.history_cells() - after_first) as f64 / 100.0;
    assert!(per_tick <= 4.0, "{per_tick} fields stored per tick");
}

#[test]
fn phase_by_phase_equals_a_whole_tick() {
    let map = "wall wall  wall  wall wall wall
               wall me    mud   gem  mud  wall
               wall mud   stone path mud  wall
               wall path  path  xling[direction=1] path wall
               wall wall  wall  wall exit wall";
    let mut whole = BoulderGame::new(level(grid(map)), 1);
    let mut stepped = whole.clone();
    for input in [Input::Move(Dir::Right), Input::Move(Dir::Down), Input::Wait] {
        whole.tick_with(input, &mut NoObserver);
        assert!(stepped.begin_tick(input));
        let mut phases = 0;
        let mut c = Collector::default();
        while stepped.run_next_phase(&mut c).is_some() {
            phases += 1;
        }
        assert_eq!(phases, stepped.phases().len());
        stepped.finish_tick(&mut c);
        assert_eq!(stepped.state_hash(), whole.state_hash());
    }
}

#[test]
fn recorded_phases_give_each_cells_history_within_a_tick() {
    // The figure digs right (player), then the stone above its old field cannot fall into the
    // freed field (gravity, §6 G2); the stone to the right falls into the path below it.
    let map = "wall stone wall  stone wall
               wall me    mud   path  wall
               wall mud   wall  path  wall
               wall wall  wall  wall  exit";
    let mut g = BoulderGame::new(level(grid(map)), 0);
    let mut reference = g.clone();
    let rec = g.tick_recorded(Input::Move(Dir::Right));
    reference.step(Input::Move(Dir::Right));
    assert_eq!(g.state_hash(), reference.state_hash());
    let phases: Vec<String> = rec.iter().map(|(p, _)| p.label()).collect();
    assert_eq!(phases, ["reset", "main:player", "main:gravity"]);
    let player = &rec[1].1;
    let at = |x, y| tilesmith_engine::Pos::new(x, y);
    assert_eq!(
        player.iter().map(|(p, _, _)| *p).collect::<Vec<_>>(),
        [at(1, 1), at(2, 1)]
    );
    assert_eq!(
        (player[1].1.token, player[1].2.token),
        (Token::Mud, Token::Me)
    );
    let gravity: Vec<_> = rec[2]
        .1
        .iter()
        .map(|(p, b, a)| (*p, b.token, a.token))
        .collect();
    assert_eq!(
        gravity,
        [
            (at(3, 0), Token::Stone, Token::Path),
            (at(3, 1), Token::Path, Token::Stone)
        ]
    );
}

#[test]
fn rule_active_follows_situation_sparsity_and_switches() {
    use tilesmith_engine::observe::Phase;
    let mut l = level(grid("wall me wall"));
    let rule = |v| {
        tilesmith_engine::kind::boulder::level::rule_from_json(
            &v,
            &tilesmith_engine::JsonPath::root(),
        )
        .unwrap()
    };
    l.pre = vec![
        rule(
            serde_json::json!({"situation":"left","direction":"east","original":[{"token":"me"}],"result":[{"token":"0"}]}),
        ),
        rule(
            serde_json::json!({"situation":"rare","sparsity":3,"direction":"east","original":[{"token":"me"}],"result":[{"token":"0"}]}),
        ),
    ];
    let mut g = BoulderGame::new(l, 0);
    assert!(g.rule_active(Phase::Pre(0), Input::Move(Dir::Left)));
    assert!(!g.rule_active(Phase::Pre(0), Input::Meta(Dir::Left)));
    assert!(
        !g.rule_active(Phase::Pre(1), Input::Wait),
        "tick 1 is not a multiple of 3"
    );
    g.step(Input::Wait);
    g.step(Input::Wait);
    assert!(
        g.rule_active(Phase::Pre(1), Input::Wait),
        "the next tick is tick 3"
    );
    g.set_rule_enabled(false, 1, false);
    assert!(!g.rule_active(Phase::Pre(1), Input::Wait));
    assert!(g.rule_active(Phase::Main("gravity"), Input::Wait));
}
