//! Baba's [`SearchGame`] (issue #29): a copy of the game stepped with its own turn and undo
//! (the journal's backward diff per turn), without change reports.
//!
//! Moves: 0 wait (`.`), 1 `L`, 2 `R`, 3 `U`, 4 `D`, in the order of the kind's input table;
//! never undo or restart. A lost state (nothing is YOU) still takes turns (MOVE objects may
//! rebuild a YOU rule), so it is not over; it is dead ([`SearchGame::is_dead`]) when no YOU
//! text and no letter is left on the map and no rule is given outside it, as then no YOU
//! rule can form again.
//!
//! The key covers every object (ID, kind, cell, facing), the ALL set, the status and the
//! level's facing, and the turn counter when TELE could ever apply (a TELE text or a letter
//! on the map, or rules given outside it), since TELE's random destinations depend on it.
//! Object IDs are in the key: they order what happens at once. The objects' part is kept up
//! to date as objects change ([`ObjKeys`]: each object's own 128-bit hash, summed lane by
//! lane modulo 2⁶⁴, added and taken away by `BabaGame::set_obj`), so a key costs a few
//! words, not a pass over every object; the sum does not depend on the order the objects
//! changed in, so equal states have equal keys whatever the path.

use std::hash::{Hash as _, Hasher as _};

use super::super::eval::{ById, Obj, ObjId};
use super::super::word::{Kind, Prop, Word};
use super::BabaGame;
use tilesmith_core::game::{Game, Status};
use tilesmith_core::grid::Dir;
use tilesmith_core::hash::KeyHasher;
use tilesmith_core::search_game::{Move, SearchError, SearchGame, SearchStatus, StateKey};

/// The moves, in order: the direction (none: wait) and the word.
const MOVES: [(Option<Dir>, &str); 5] = [
    (None, "."),
    (Some(Dir::Left), "L"),
    (Some(Dir::Right), "R"),
    (Some(Dir::Up), "U"),
    (Some(Dir::Down), "D"),
];

/// The objects' part of a search key: the sum, lane by lane modulo 2⁶⁴, of every object's
/// own 128-bit hash ([`ObjKeys::of`]). Two different sets of objects give the same sums only
/// if both 64-bit lanes of the hashes of the objects in one and not the other happen to
/// cancel (the chance `docs/solver.md` gives for the key).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ObjKeys {
    a: u64,
    b: u64,
}

impl ObjKeys {
    /// The sums over every object of `objs`.
    pub(crate) fn over(objs: &ById<Obj>) -> ObjKeys {
        let mut k = ObjKeys::default();
        for (&id, o) in objs {
            k.add(id, o);
        }
        k
    }

    /// Object `id` with value `o` joins the set.
    #[inline]
    pub(crate) fn add(&mut self, id: ObjId, o: &Obj) {
        let (a, b) = Self::of(id, o);
        self.a = self.a.wrapping_add(a);
        self.b = self.b.wrapping_add(b);
    }

    /// Object `id` with value `o` leaves the set.
    #[inline]
    pub(crate) fn remove(&mut self, id: ObjId, o: &Obj) {
        let (a, b) = Self::of(id, o);
        self.a = self.a.wrapping_sub(a);
        self.b = self.b.wrapping_sub(b);
    }

    /// One object's hash, two 64-bit lanes: three words that tell every object apart (its ID;
    /// its kind's code and facing; its cell), each lane a chain of SplitMix64 finalisers
    /// with its own seeds.
    #[inline]
    fn of(id: ObjId, o: &Obj) -> (u64, u64) {
        let w1 = id;
        let w2 = kind_code(o.kind) | (u64::from(o.dir.value()) << 40);
        let w3 = u64::from(o.x) | (u64::from(o.y) << 32);
        let a = mix(mix(mix(w1 ^ 0x243f_6a88_85a3_08d3) ^ w2) ^ w3);
        let b = mix(mix(mix(w1 ^ 0x1319_8a2e_0370_7344) ^ w2 ^ 0xa409_3822_299f_31d0) ^ w3);
        (a, b)
    }
}

/// The SplitMix64 finaliser (a bijection of 64-bit words).
#[inline]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A number of at most 36 bits for each kind, different for different kinds: entity or text
/// (bits 32–33), the word's class (bits 16–19) and its number in the class.
fn kind_code(k: Kind) -> u64 {
    let (tag, class, n): (u64, u64, u64) = match k {
        Kind::Entity(n) => (1, 0, u64::from(n.0)),
        Kind::Text(w) => match w {
            Word::Noun(n) => (2, 0, u64::from(n.0)),
            Word::Verb(v) => (2, 1, v as u64),
            Word::Prefix(p) => (2, 2, p as u64),
            Word::Prep(p) => (2, 3, p as u64),
            Word::Prop(p) => (2, 4, p as u64),
            Word::And => (2, 5, 0),
            Word::Not => (2, 6, 0),
            Word::Letter(l) => (2, 7, u64::from(l.0)),
        },
        Kind::Unknown(u) => (3, 0, u64::from(u)),
    };
    (tag << 32) | (class << 16) | n
}

/// A baba position ready for search; see the module documentation.
#[derive(Clone)]
pub struct BabaSearch {
    game: BabaGame,
    /// TELE could apply: the turn counter is part of the key.
    tele: bool,
}

impl BabaSearch {
    /// A searcher at the current state of `g`, with an empty path (its own undo history,
    /// unbounded).
    pub fn new(g: &BabaGame) -> BabaSearch {
        let mut game = g.clone();
        game.history.clear();
        game.cancel = None;
        game.error = None;
        Game::set_history_budget(&mut game, usize::MAX);
        game.obj_keys = Some(ObjKeys::over(&game.st.objs));
        game.keep_refresh = true;
        game.rule_cache.keep_lines();
        let tele = !game.extra.is_empty()
            || game.st.objs.values().any(|o| {
                matches!(
                    o.kind,
                    Kind::Text(Word::Prop(Prop::Tele)) | Kind::Text(Word::Letter(_))
                )
            });
        BabaSearch { game, tele }
    }

    /// The game at the current state.
    pub fn game(&self) -> &BabaGame {
        &self.game
    }
}

impl SearchGame for BabaSearch {
    fn players(&self) -> usize {
        1
    }

    fn to_move(&self) -> usize {
        0
    }

    fn status(&mut self) -> Result<SearchStatus, SearchError> {
        Ok(match self.game.st.status {
            Status::Won { .. } => SearchStatus::Won(0),
            _ => SearchStatus::Running,
        })
    }

    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), SearchError> {
        if !matches!(self.game.st.status, Status::Won { .. }) {
            out.extend(0..MOVES.len() as Move);
        }
        Ok(())
    }

    fn play(&mut self, mv: Move) -> Result<(), SearchError> {
        let Some(&(dir, _)) = MOVES.get(mv as usize) else {
            return Err(SearchError::new(format!("baba has no move {mv}")));
        };
        self.game.record_turn(dir, false);
        match self.game.error.take() {
            Some(e) => Err(SearchError::new(e)),
            None => Ok(()),
        }
    }

    fn undo(&mut self) -> bool {
        Game::undo(&mut self.game)
    }

    fn fork(&self) -> Box<dyn SearchGame> {
        let mut c = self.clone();
        c.game.history.clear();
        Box::new(c)
    }

    fn key(&self) -> StateKey {
        let st = &self.game.st;
        let objs = self
            .game
            .obj_keys
            .unwrap_or_else(|| ObjKeys::over(&st.objs));
        let mut h = KeyHasher::new();
        st.seen.hash(&mut h);
        h.write_u8(u8::from(matches!(st.status, Status::Won { .. })));
        h.write_u32(st.level_dir.value());
        if self.tele {
            h.write_u64(st.turn);
        }
        let rest = h.finish128();
        // Each lane of the objects' sums, then the rest's (an independent hash) added.
        let hi = objs.a.wrapping_add((rest >> 64) as u64);
        let lo = objs.b.wrapping_add(rest as u64);
        (u128::from(hi) << 64) | u128::from(lo)
    }

    fn word(&self, mv: Move) -> String {
        MOVES.get(mv as usize).map_or("?", |m| m.1).to_string()
    }

    fn bytes(&self) -> usize {
        std::mem::size_of::<BabaGame>() + self.game.st.objs.len() * 96
    }

    fn is_dead(&mut self) -> bool {
        matches!(self.game.st.status, Status::Lost { .. })
            && self.game.extra.is_empty()
            && !self.game.st.objs.values().any(|o| {
                matches!(
                    o.kind,
                    Kind::Text(Word::Prop(Prop::You)) | Kind::Text(Word::Letter(_))
                )
            })
    }
}
