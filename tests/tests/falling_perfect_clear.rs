//! Perfect clears (issue #29, "Falling, perfect clears"): for seeded openers of 11
//! tetrominoes (a shuffled 7-bag and the first 4 of a second) on the empty field of
//! `levels/falling/tetris.json` with hold, a fixed sequence and the goal `clear_all`, 10
//! placements that clear 4 rows and leave the field empty, played through the game (and
//! through `tilesmith run`'s reading of the words) to a win. The published exhaustive count
//! (perfect-tetris: "4-line, opener, held piece none, 7-bag, SRS: 100%, 4,233,600 in
//! 4,233,600") says every such opener has one, so none may be missed. A sample of openers
//! here (seeds 0–5), in a debug build; all 200 in release: `tests/examples/falling_perfect_clear.rs`
//! (BENCHMARKS.md has the times).

#![allow(clippy::unwrap_used)]

use tilesmith_engine::game::{GameKind, Status};
use tilesmith_engine::kind::kind_named;
use tilesmith_engine::parse_inputs;
use tilesmith_tests::perfect_clear::{TETROMINOES, level, opener, perfect_clear, searcher};

#[test]
fn openers_are_a_shuffled_bag_and_four_of_the_next() {
    for seed in 0..200 {
        let o = opener(seed);
        assert_eq!(o.len(), 11);
        let mut bag = o[..7].to_vec();
        bag.sort_unstable();
        let mut all = TETROMINOES.to_vec();
        all.sort_unstable();
        assert_eq!(bag, all, "seed {seed}: the first 7 are one of each");
        let mut rest = o[7..].to_vec();
        rest.sort_unstable();
        rest.dedup();
        assert_eq!(
            rest.len(),
            4,
            "seed {seed}: four different of the second bag"
        );
    }
    // Seeded: the same opener every time, different openers for different seeds.
    assert_eq!(opener(7), opener(7));
    assert_ne!(opener(0), opener(1));
}

#[test]
fn a_sample_of_openers_is_cleared_in_ten_placements() {
    let falling: &dyn GameKind = kind_named("falling").unwrap();
    for seed in 0..6 {
        let tumos = opener(seed);
        let doc = level(&tumos);
        let mut s = searcher(&doc);
        let f = perfect_clear(&mut s, 10, 200_000).unwrap();
        let moves = f
            .moves
            .clone()
            .unwrap_or_else(|| panic!("seed {seed}: none found ({f:?})"));
        assert_eq!(moves.len(), 10, "seed {seed}");
        // The words as `tilesmith run` reads them (`WORD*N` included), played to a win.
        let text = tilesmith_engine::input::format_words(f.words.iter().map(String::as_str));
        let inputs = parse_inputs(falling, &text).unwrap();
        let mut g = falling.start(&doc, 0).unwrap();
        for i in inputs {
            g.step(i);
        }
        assert!(
            matches!(g.status(), Status::Won { .. }),
            "seed {seed}: {text}"
        );
        assert_eq!(g.summary()["rows"], 4, "seed {seed}: four rows cleared");
    }
}
