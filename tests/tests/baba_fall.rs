//! FALL (spec baba §5.13 step 11) beyond conformance case C36: falling repeats until no
//! FALLer moves (AABBCC, then again), conditions are re-read after every FALL step [L4952],
//! and a large map of falling rocks (reliability D5: 3 200 rocks on 80×80 took 66 s of CPU
//! for one turn when every cell step re-read the whole map) lands where the rules say. The
//! time of that turn is in `cargo bench -p tilesmith-engine --bench turn` (BENCHMARKS.md).

#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng as _, SeedableRng as _};
use tilesmith_engine::Game;
use tilesmith_tests::baba::{find, game, norm, play, show};

#[test]
fn a_faller_resting_on_a_later_faller_falls_again() {
    // IDs ascend in reading order, so the upper rock falls first: the lower rock (PUSH,
    // solid to a faller) still holds it. The lower rock then falls to the floor, and the
    // repeat brings the upper one down onto it.
    let mut g = game(
        "R
         R
         .
         .",
        &["rock is fall", "rock is push"],
    );
    play(&mut g, ".");
    assert_eq!(show(&g, false), norm(". \n . \n R \n R"));
}

#[test]
fn a_conditional_fall_is_re_read_after_every_step() {
    // ROCK NEAR BABA IS FALL: the rock falls while it is within one cell of baba
    // (diagonals included) and stops on the first cell that is not: row 3.
    let mut g = game(
        "R .
         . B
         . .
         . .
         . .
         . .",
        &["baba is you", "rock near baba is fall"],
    );
    play(&mut g, ".");
    let rocks = find(&g, 'R');
    assert_eq!(rocks.len(), 1);
    assert_eq!((rocks[0].pos.x, rocks[0].pos.y), (0, 3));
}

#[test]
fn thousands_of_rocks_fall_to_the_floor_in_one_turn() {
    // 80×80, 3 200 rocks at seeded places in rows 0-78, ROCK IS FALL: rocks are not solid
    // to each other (no STOP or PUSH), so every rock lands on the bottom row of its column.
    let (w, h) = (80usize, 80usize);
    let mut cells = vec![false; w * h];
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut placed = 0;
    while placed < 3200 {
        let i = (rng.next_u32() as usize) % (w * (h - 1));
        if !cells[i] {
            cells[i] = true;
            placed += 1;
        }
    }
    let mut per_column: BTreeMap<usize, usize> = BTreeMap::new();
    for (i, &c) in cells.iter().enumerate() {
        if c {
            *per_column.entry(i % w).or_default() += 1;
        }
    }
    let text: String = (0..h)
        .map(|y| {
            (0..w)
                .map(|x| if cells[y * w + x] { "R" } else { "." })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n");
    let mut g = game(&text, &["rock is fall"]);
    assert_eq!(find(&g, 'R').len(), 3200);
    play(&mut g, ".");
    let rocks = find(&g, 'R');
    assert!(
        rocks.iter().all(|r| r.pos.y == h - 1),
        "every rock on the floor"
    );
    let mut landed: BTreeMap<usize, usize> = BTreeMap::new();
    for r in &rocks {
        *landed.entry(r.pos.x).or_default() += 1;
    }
    // Each rock stays in its column; the end-of-turn stack cap (§2: at most 6 objects of
    // one kind per cell, higher IDs vanish) leaves 6 of each column's pile.
    let capped: BTreeMap<usize, usize> = per_column.iter().map(|(&x, &n)| (x, n.min(6))).collect();
    assert_eq!(landed, capped);
    // Undo returns them all.
    assert!(g.undo());
    assert_eq!(find(&g, 'R').iter().filter(|r| r.pos.y == h - 1).count(), 0);
}

#[test]
fn fallers_land_on_each_other_on_stop_and_push_things_and_on_the_map_edge() {
    // Worked out by hand from §5.13 step 11 (each faller in ascending ID falls until the
    // cell below holds something impassable; PUSH is solid and is not pushed; repeat until
    // nothing moves). IDs are row-major: the five rocks of row 0 are 1-5, the keke 6, the
    // wall 7, the rock of row 3 is 8, the box 9.
    // Column 0: nothing below, so the rock lands on the bottom row (the map edge).
    // Column 1: the wall (STOP) at row 3 holds the rock at row 2.
    // Column 2: rock 3 falls first and stops on keke 6 (PUSH, solid) at row 1; keke 6 falls
    //   to the bottom; the second pass brings rock 3 onto it, at row 5.
    // Column 3: the box (PUSH) holds the rock at row 3, and is not pushed.
    // Column 4: rocks are neither STOP nor PUSH, so rock 5 and rock 8 both land on the
    //   bottom row, in one cell.
    let mut g = game(
        "R R R R R
         . . . . .
         . . K . .
         . W . . R
         . . . X .
         . . . . .
         . . . . .",
        &[
            "rock is fall",
            "keke is fall",
            "keke is push",
            "wall is stop",
            "box is push",
        ],
    );
    let before = g.state_hash();
    let report = g.step(tilesmith_engine::Input::Wait);
    assert_eq!(
        show(&g, false),
        norm(
            ". . . . .
             . . . . .
             . R . . .
             . W . R .
             . . . X .
             . . R . .
             R . K . R+R"
        )
    );
    // Every rock keeps its ID and its facing (FALL does not turn, §5.13).
    let rocks = find(&g, 'R');
    assert_eq!(
        rocks.iter().map(|r| r.id).collect::<Vec<_>>(),
        vec![1, 2, 3, 4, 5, 8]
    );
    assert!(rocks.iter().all(|r| r.dir == tilesmith_engine::Dir::Right));
    // The fall phase reports the cells it changed: the 5 start cells of row 0, the keke's
    // and rock 8's, and the 6 landing cells.
    let fall = report
        .phases
        .iter()
        .find(|(p, _)| p.label() == "main:fall")
        .map(|(_, c)| c.len());
    assert_eq!(fall, Some(5 + 2 + 6));
    assert!(g.undo());
    assert_eq!(g.state_hash(), before);
}

#[test]
fn a_falling_text_forms_no_rule_on_its_way_down() {
    // TEXT IS FALL: the STILL text falls past the row TEXT IS _ (held up by STOP walls). The
    // real game's `fallblock` moves a falling unit with `update`, which only marks the rules
    // for re-reading after the phase (`updatecode`), so TEXT IS STILL never forms while it
    // passes; it lands on the bottom row, where it forms nothing (docs/baba-semantics.md
    // §5.13 FALL).
    let mut g = game(
        ". . [STILL]
         . . .
         [TEXT] [IS] .
         W W .
         . . .",
        &["text is fall", "wall is stop"],
    );
    play(&mut g, ".");
    assert_eq!(
        show(&g, false),
        norm(
            ". . .
             . . .
             [TEXT] [IS] .
             W W .
             . . [STILL]"
        )
    );
    assert!(g.rules().is_empty());
}
