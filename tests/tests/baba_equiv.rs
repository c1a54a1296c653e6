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
//! `BLESS=1 cargo test -p tilesmith-tests --test baba_equiv` and say why in the commit.

// Helpers outside #[test] functions unwrap too (clippy.toml allows it only inside them); a
// panic there is a test failure like any other.
#![allow(clippy::unwrap_used)]

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng as _, SeedableRng as _};
use tilesmith_engine::grid::{Dir, Pos};
use tilesmith_engine::hash::Fnv;
use tilesmith_engine::kind::baba::{BabaGame, BabaLevel, Kind, Prop, Tile, Word};
use tilesmith_engine::kind::{Game, Input, StepReport};
use tilesmith_tests::workspace;

/// Levels played.
const CASES: u64 = 300;
/// Actions per level.
const ACTIONS: usize = 40;

const NOUNS: &[&str] = &["baba", "keke", "rock", "wall", "flag", "text", "all", "empty"];
const OBJECT_NOUNS: &[&str] = &["baba", "keke", "rock", "wall", "flag"];
const PROPS: &[&str] = &[
    "you", "push", "stop", "move", "win", "defeat", "sink", "hot", "melt", "shift", "pull",
    "weak", "float", "tele", "swap", "up", "down", "left", "right", "fall", "more", "safe",
    "still", "sleep", "phantom", "bonus", "end", "done", "open", "shut",
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
            sentences.push(vec!["text_baba".into(), "text_is".into(), "text_you".into()]);
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
    for r in g.rules() {
        h.write(r.text.as_bytes());
        for t in &r.tiles {
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
        let text: String = got.iter().map(|(s, d)| format!("{s} {d:016x}\n")).collect();
        std::fs::write(&path, text).unwrap();
        return;
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
