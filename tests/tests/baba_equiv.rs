//! Seeded equivalence of the baba turn: random small levels (random sentences of nouns,
//! verbs, properties, conditions, NOT and AND, written across and down, with objects of the
//! nouns they name and stray words) are played with random inputs, undo and redo, and
//! everything a game shows after each action is folded into one FNV-1a digest per level: the
//! state hash (every object with its ID, kind, cell and facing; next ID; turn; status), the
//! step report (changed cells, and the cells each phase changed), the rules formed, the unused
//! text, and every object's property counts.
//!
//! `tests/data/baba_equiv.txt` holds the digests recorded with the engine as it was before the
//! turn was made incremental (a full copy of the object table per phase and per turn of undo,
//! a full re-read of the rules after every change), so the optimised turn must give exactly the
//! same games: same IDs, same order, same phases. A deliberate change of the semantics
//! (recorded in docs/baba-semantics.md) changes digests; rewrite the file then with
//! `BLESS=1 cargo test -p tilesmith-tests --test baba_equiv` (it fails when it rewrote anything:
//! run it again without BLESS) and say why in the commit.

// Helpers outside #[test] functions unwrap too (clippy.toml allows it only inside them); a
// panic there is a test failure like any other.
#![allow(clippy::unwrap_used)]

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng as _, SeedableRng as _};
use tilesmith_engine::game::{Game, StepReport};
use tilesmith_engine::grid::{Dir, Pos};
use tilesmith_engine::hash::Fnv;
use tilesmith_engine::input::Input;
use tilesmith_engine::kind::baba::{BabaGame, BabaLevel, Kind, Prop, Tile, Word};
use tilesmith_tests::workspace;

/// Levels played.
const CASES: u64 = 300;
/// Actions per level.
const ACTIONS: usize = 40;

const NOUNS: &[&str] = &[
    "baba", "keke", "rock", "wall", "flag", "text", "all", "empty",
];
const OBJECT_NOUNS: &[&str] = &["baba", "keke", "rock", "wall", "flag"];
const PROPS: &[&str] = &[
    "you", "push", "stop", "move", "win", "defeat", "sink", "hot", "melt", "shift", "pull", "weak",
    "float", "tele", "swap", "up", "down", "left", "right", "fall", "more", "safe", "still",
    "sleep", "phantom", "bonus", "end", "done", "open", "shut",
];
const VERBS: &[&str] = &["is", "is", "is", "has", "make", "eat", "fear", "follow"];

struct Gen(ChaCha8Rng);

impl Gen {
    fn below(&mut self, n: usize) -> usize {
        self.0.next_u32() as usize % n
    }

    fn pick<'a>(&mut self, v: &[&'a str]) -> &'a str {
        v[self.below(v.len())]
    }

    fn dir(&mut self) -> Dir {
        Dir::ALL[self.below(4)]
    }

    /// One random sentence as words: `[NOT] [LONELY] noun [ON|NEAR|FACING noun] verb [NOT]
    /// complement [AND complement]`.
    fn sentence(&mut self) -> Vec<String> {
        let mut w: Vec<&str> = Vec::new();
        if self.below(8) == 0 {
            w.push("lonely");
        }
        if self.below(10) == 0 {
            w.push("not");
        }
        w.push(self.pick(NOUNS));
        if self.below(6) == 0 {
            w.push(self.pick(&["on", "near", "facing"]));
            if self.below(5) == 0 {
                w.push("not");
            }
            w.push(self.pick(OBJECT_NOUNS));
        }
        let verb = self.pick(VERBS);
        w.push(verb);
        if self.below(10) == 0 {
            w.push("not");
        }
        let complement = |g: &mut Self| {
            if verb == "is" && g.below(4) != 0 {
                g.pick(PROPS)
            } else {
                g.pick(NOUNS)
            }
        };
        w.push(complement(self));
        if self.below(6) == 0 {
            w.push("and");
            w.push(complement(self));
        }
        w.into_iter().map(|s| format!("text_{s}")).collect()
    }

    fn level(&mut self) -> BabaLevel {
        let (w, h) = (6 + self.below(7), 5 + self.below(6));
        let mut l = BabaLevel::new("equiv", w, h);
        let put = |l: &mut BabaLevel, x: usize, y: usize, token: &str, dir: Dir| {
            if let Some(c) = l.map.get_mut(Pos::new(x, y)) {
                c.push(Tile {
                    kind: Kind::from_token(token).unwrap(),
                    dir,
                });
            }
        };
        // BABA IS YOU most of the time, so that inputs move something.
        let mut sentences: Vec<Vec<String>> = Vec::new();
        if self.below(5) != 0 {
            sentences.push(vec![
                "text_baba".into(),
                "text_is".into(),
                "text_you".into(),
            ]);
        }
        for _ in 0..1 + self.below(4) {
            sentences.push(self.sentence());
        }
        for s in &sentences {
            let across = self.below(2) == 0;
            let (x0, y0) = (self.below(w), self.below(h));
            for (k, t) in s.iter().enumerate() {
                let (x, y) = if across { (x0 + k, y0) } else { (x0, y0 + k) };
                put(&mut l, x, y, t, Dir::Right);
            }
        }
        for _ in 0..self.below(w * h / 2) {
            let (x, y) = (self.below(w), self.below(h));
            let d = self.dir();
            if self.below(8) == 0 {
                let t = if self.below(2) == 0 {
                    format!("text_{}", self.pick(PROPS))
                } else {
                    format!("text_{}", self.pick(NOUNS))
                };
                put(&mut l, x, y, &t, d);
            } else {
                let n = self.pick(OBJECT_NOUNS);
                // Sometimes a tall stack, to reach the stack cap.
                for _ in 0..if self.below(30) == 0 { 8 } else { 1 } {
                    put(&mut l, x, y, n, d);
                }
            }
        }
        l
    }

    fn input(&mut self) -> Input {
        match self.below(20) {
            0 => Input::Undo,
            1 => Input::Restart,
            2..=4 => Input::Wait,
            _ => Input::Move(self.dir()),
        }
    }
}

fn fold_report(h: &mut Fnv, r: &StepReport) {
    h.write_u64(r.step);
    for p in &r.changed {
        h.write_u64(p.x as u64);
        h.write_u64(p.y as u64);
    }
    for (phase, cells) in &r.phases {
        h.write(format!("{phase:?}").as_bytes());
        for p in cells {
            h.write_u64(p.x as u64);
            h.write_u64(p.y as u64);
        }
    }
}

fn fold_game(h: &mut Fnv, g: &BabaGame) {
    h.write_u64(g.state_hash());
    h.write_u64(g.steps());
    h.write_u64(g.redo_len() as u64);
    fold_view(h, g);
}

/// What the game shows of its current state, without the history counters.
fn fold_view(h: &mut Fnv, g: &BabaGame) {
    for r in g.rules() {
        h.write(r.text.as_bytes());
        for t in r.tiles.iter() {
            h.write_u64(t.pos.x as u64);
            h.write_u64(t.pos.y as u64);
            h.write_u64(t.layer as u64);
        }
    }
    for t in g.unused_text() {
        h.write_u64(t.pos.x as u64);
        h.write_u64(t.pos.y as u64);
        h.write_u64(t.layer as u64);
        h.write(t.word.name().as_bytes());
    }
    for o in g.objects() {
        for &p in Prop::ALL {
            h.write_u64(u64::from(g.prop_count(o.id, p)));
        }
    }
}

/// The digest of level `seed` played with its random actions.
fn digest(seed: u64) -> u64 {
    let mut rng = Gen(ChaCha8Rng::seed_from_u64(seed));
    let level = rng.level();
    let mut g = BabaGame::new(level, seed);
    let mut h = Fnv::new();
    fold_game(&mut h, &g);
    for _ in 0..ACTIONS {
        match rng.below(12) {
            0 => {
                h.write_u64(u64::from(g.undo()));
            }
            1 => {
                h.write_u64(u64::from(g.redo()));
            }
            _ => {
                let i = rng.input();
                let r = g.step(i);
                fold_report(&mut h, &r);
            }
        }
        fold_game(&mut h, &g);
    }
    h.finish()
}

#[test]
fn random_levels_play_as_recorded() {
    let path = workspace().join("tests/data/baba_equiv.txt");
    let got: Vec<(u64, u64)> = (0..CASES).map(|s| (s, digest(s))).collect();
    if std::env::var_os("BLESS").is_some() {
        // BLESS rewrites the recorded digests but never makes the test pass (issue #30): the
        // comparison below runs against what was recorded before, and the next run without
        // BLESS checks the new file.
        let old = std::fs::read_to_string(&path).unwrap_or_default();
        let text: String = got.iter().map(|(s, d)| format!("{s} {d:016x}\n")).collect();
        std::fs::write(&path, &text).unwrap();
        assert_eq!(
            old,
            text,
            "BLESS rewrote {}: run again without BLESS",
            path.display()
        );
    }
    let text = std::fs::read_to_string(&path).unwrap();
    let want: Vec<(u64, u64)> = text
        .lines()
        .map(|l| {
            let (s, d) = l.split_once(' ').unwrap();
            (s.parse().unwrap(), u64::from_str_radix(d, 16).unwrap())
        })
        .collect();
    assert_eq!(want.len(), got.len(), "one recorded digest per level");
    let differ: Vec<u64> = want
        .iter()
        .zip(&got)
        .filter(|(w, g)| w != g)
        .map(|(w, _)| w.0)
        .collect();
    assert!(
        differ.is_empty(),
        "levels whose play differs from the recorded play (seeds): {differ:?}"
    );
}

/// The words a generated level uses all exist (a typo in the tables above would make the
/// generator panic, not silently drop words).
#[test]
fn generator_words_exist() {
    for w in NOUNS.iter().chain(PROPS).chain(VERBS) {
        assert!(Word::from_name(w).is_some(), "{w}");
    }
}

/// Everything the game shows of its state (state hash, rules, unused text, properties; not
/// the history counters), plus the object list itself so that a difference names the objects.
fn snapshot(g: &BabaGame) -> (u64, Vec<tilesmith_engine::kind::baba::ObjectView>) {
    let mut h = Fnv::new();
    h.write_u64(g.state_hash());
    fold_view(&mut h, g);
    (h.finish(), g.objects())
}

/// Undo and redo are exact (§2 (C)): on random levels, after random turns, undoing one turn
/// at a time gives back each earlier state (IDs, next ID, turn, status, rules, properties), and
/// redoing gives the later ones again.
#[test]
fn undo_and_redo_restore_every_turn_exactly() {
    for seed in 1000..1120 {
        let mut rng = Gen(ChaCha8Rng::seed_from_u64(seed));
        let mut g = BabaGame::new(rng.level(), seed);
        let mut states = vec![snapshot(&g)];
        for _ in 0..30 {
            let i = match rng.below(6) {
                0 => Input::Wait,
                _ => Input::Move(rng.dir()),
            };
            if !g.takes_turns() {
                break;
            }
            g.step(i);
            states.push(snapshot(&g));
        }
        let last = states.len() - 1;
        for k in (0..last).rev() {
            assert!(g.undo(), "level {seed}: undo to turn {k}");
            assert!(
                states[k] == snapshot(&g),
                "level {seed}: undo to turn {k} differs"
            );
        }
        assert!(!g.undo(), "level {seed}: nothing before turn 0");
        for (k, s) in states.iter().enumerate().skip(1) {
            assert!(g.redo(), "level {seed}: redo to turn {k}");
            assert!(*s == snapshot(&g), "level {seed}: redo to turn {k} differs");
        }
        assert!(!g.redo(), "level {seed}: nothing after the last turn");
    }
}

/// Undo memory follows what a turn changes, not the level's size: ten steps of baba on an
/// empty row take as many history bytes beside 4 rocks as beside 4 000 (a full snapshot per
/// turn would take a thousand times more).
#[test]
fn undo_memory_follows_the_changes() {
    let bytes = |rocks: usize| {
        let mut l = BabaLevel::new("mem", 100, 42);
        let mut put = |x: usize, y: usize, token: &str| {
            l.map.get_mut(Pos::new(x, y)).unwrap().push(Tile {
                kind: Kind::from_token(token).unwrap(),
                dir: Dir::Right,
            });
        };
        for (x, w) in ["text_baba", "text_is", "text_you"].iter().enumerate() {
            put(x, 0, w);
        }
        put(0, 1, "baba");
        for k in 0..rocks {
            put(k % 100, 2 + k / 100, "rock");
        }
        let mut g = BabaGame::new(l, 0);
        for _ in 0..10 {
            g.step(Input::Move(Dir::Right));
        }
        assert_eq!(g.objects()[3].pos, Pos::new(10, 1), "baba walked 10 cells");
        g.undo_bytes()
    };
    let small = bytes(4);
    assert!(small > 0, "the history holds the ten turns");
    println!("undo history of 10 one-object turns: {small} bytes");
    assert_eq!(small, bytes(4000));
}
