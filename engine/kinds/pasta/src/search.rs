//! The Pasta Logic kind's [`SearchGame`] (issue #28 "Play against the computer, and solve";
//! issue #29): the small `Copy` [`State`] played through its choice API, for the shared
//! search (`tilesmith_search`: alpha-beta for `tilesmith solve`, Monte Carlo and random
//! playouts for `tilesmith match` and the computer player).
//!
//! - **Moves** are choice numbers `n < State::choice_count()` in the canonical order of
//!   `choice.rs`, so move `n` is [`tilesmith_core::input::Input::Choice`]`(n)` of
//!   [`crate::PastaGame`]; both players' decisions are moves, and the player to move is
//!   whoever decides next (the same player may decide several times in a row).
//! - **Play and undo**: [`State::play`] on the state, the state before kept on a stack (it
//!   is `Copy`, about 150 bytes); no word, no trace event.
//! - **The draw by repetition** (`docs/pasta-semantics.md`, "Repetition"): the decision keys
//!   ([`State::decision_key`]) of the execution phase seen before the searcher was made (a
//!   game's [`crate::PastaGame::seen`]) and along the searcher's path are kept; a decision
//!   whose key was seen ends the line as a draw, exactly as [`crate::PastaGame`] does. Such a
//!   draw reports the state it repeats ([`SearchGame::history_dependence`]: its number on
//!   the path, 0 when it was seen before the path began).
//! - **The state key** ([`SearchGame::key`]) is the 128-bit decision key with what it leaves
//!   out that changes what can happen: the A17 lap count, whether the game is over, and the
//!   set of decisions seen (the XOR of their keys, before the path and on it), since a seen
//!   decision ends a line that would otherwise go on. Equal keys therefore mean equal
//!   futures, and a transposition table entry is never reused where an earlier decision of
//!   another path would have ended a line sooner (issue #28: "key on that history"); states
//!   merge only when reached with the same decisions seen.

use std::sync::Arc;

use rustc_hash::{FxHashMap, FxHashSet};

use super::state::{End, Reason, State};
use tilesmith_core::hash::KeyHasher;
use tilesmith_core::search_game::{Move, SearchError, SearchGame, SearchStatus, StateKey};

/// What [`SearchGame::undo`] restores for one move.
#[derive(Clone, Copy, Debug)]
struct Frame {
    before: State,
    /// The decision key the move added to the path, if any.
    inserted: Option<u128>,
    /// The repetition dependence of the state before.
    dep: Option<usize>,
    /// The last mover before.
    last: u8,
}

/// A Pasta Logic position ready for search; see the module documentation.
#[derive(Clone, Debug)]
pub struct PastaSearch {
    s: State,
    undo: Vec<Frame>,
    /// Decision keys seen before the path began (a game's history, or the path of the
    /// searcher this one was forked from).
    before: Arc<FxHashSet<u128>>,
    /// Decision keys seen on the path, each with the number of the state it was seen in
    /// (moves played since the path began).
    path: FxHashMap<u128, usize>,
    /// For a draw by repetition: the number of the path state it repeats.
    dep: Option<usize>,
    /// The XOR of the keys in `before` and `path`.
    seen_hash: u128,
    /// The player who made the last move: [`SearchGame::to_move`] once the game is over.
    last: u8,
}

impl PastaSearch {
    /// A searcher at `s` with the decision keys `seen` before it (the game's
    /// [`crate::PastaGame::seen`]; the current decision's own key may be among them).
    pub fn new(s: State, seen: &[u128]) -> PastaSearch {
        let before: FxHashSet<u128> = seen.iter().copied().collect();
        PastaSearch::with(s, Arc::new(before), 0)
    }

    fn with(s: State, before: Arc<FxHashSet<u128>>, last: u8) -> PastaSearch {
        let mut path = FxHashMap::default();
        let mut seen_hash = before.iter().fold(0, |h, k| h ^ k);
        if let Some(k) = decision_key(&s)
            && !before.contains(&k)
        {
            path.insert(k, 0);
            seen_hash ^= k;
        }
        PastaSearch {
            s,
            undo: Vec::new(),
            before,
            path,
            dep: (s.end == End::Draw(Reason::Repetition)).then_some(0),
            seen_hash,
            last: s.to_move().unwrap_or(last),
        }
    }

    /// The current state.
    pub fn state(&self) -> &State {
        &self.s
    }

    fn choice(&self, mv: Move) -> Result<super::Choice, SearchError> {
        if self.s.end != End::Running {
            return Err(SearchError::new("the game is over"));
        }
        self.s.nth_choice(u64::from(mv)).ok_or_else(|| {
            SearchError::new(format!(
                "move {mv} is not one of the {} legal choices",
                self.s.choice_count()
            ))
        })
    }
}

/// The key the repetition rule records for `s`: execution-phase decisions only (placement
/// never repeats), as [`crate::PastaGame`] records them.
fn decision_key(s: &State) -> Option<u128> {
    (s.end == End::Running && !s.placing()).then(|| s.decision_key())
}

impl SearchGame for PastaSearch {
    fn players(&self) -> usize {
        2
    }

    /// The player deciding next; once the game is over, the player who made the last move.
    fn to_move(&self) -> usize {
        usize::from(self.s.to_move().unwrap_or(self.last))
    }

    fn status(&mut self) -> Result<SearchStatus, SearchError> {
        Ok(match self.s.end {
            End::Running => SearchStatus::Running,
            End::Won(p, _) => SearchStatus::Won(usize::from(p)),
            End::Draw(_) => SearchStatus::Draw,
        })
    }

    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), SearchError> {
        if self.s.end == End::Running {
            let n = self.s.choice_count().min(u64::from(Move::MAX));
            out.extend(0..n as Move);
        }
        Ok(())
    }

    fn play(&mut self, mv: Move) -> Result<(), SearchError> {
        let c = self.choice(mv)?;
        let frame = Frame {
            before: self.s,
            inserted: None,
            dep: self.dep,
            last: self.last,
        };
        self.last = self.s.to_move().unwrap_or(self.last);
        self.s.play(c);
        self.dep = None;
        let mut inserted = None;
        if let Some(k) = decision_key(&self.s) {
            if self.before.contains(&k) {
                self.s.end = End::Draw(Reason::Repetition);
                self.dep = Some(0);
            } else if let Some(&at) = self.path.get(&k) {
                self.s.end = End::Draw(Reason::Repetition);
                self.dep = Some(at);
            } else {
                self.path.insert(k, self.undo.len() + 1);
                self.seen_hash ^= k;
                inserted = Some(k);
            }
        }
        self.undo.push(Frame { inserted, ..frame });
        Ok(())
    }

    fn undo(&mut self) -> bool {
        let Some(f) = self.undo.pop() else {
            return false;
        };
        if let Some(k) = f.inserted {
            self.path.remove(&k);
            self.seen_hash ^= k;
        }
        self.s = f.before;
        self.dep = f.dep;
        self.last = f.last;
        true
    }

    /// A copy whose path starts here; the keys seen before it and on this path are its
    /// history, so a repetition ends its lines as in the game.
    fn fork(&self) -> Box<dyn SearchGame> {
        let before = if self.path.is_empty() {
            Arc::clone(&self.before)
        } else {
            let mut b = (*self.before).clone();
            b.extend(self.path.keys().copied());
            Arc::new(b)
        };
        let mut c = PastaSearch::with(self.s, before, self.last);
        c.last = self.last;
        Box::new(c)
    }

    fn key(&self) -> StateKey {
        use std::hash::Hasher as _;
        let mut h = KeyHasher::new();
        h.write_u128(self.s.decision_key());
        h.write_u8(self.s.lap as u8);
        let end = match self.s.end {
            End::Running => 0,
            End::Won(p, _) => 1 + u64::from(p),
            End::Draw(_) => 3,
        };
        h.write_u64(end);
        h.write_u128(self.seen_hash);
        h.finish128()
    }

    fn word(&self, mv: Move) -> String {
        self.s
            .nth_choice(u64::from(mv))
            .map_or_else(|| format!("#{mv}"), |c| self.s.word(c))
    }

    fn bytes(&self) -> usize {
        std::mem::size_of::<PastaSearch>() + (self.before.len() + self.path.len()) * 32
    }

    /// The choices are numbered `0..choice_count()` (capped at `u32::MAX`, as
    /// [`SearchGame::moves`] lists them), so the searches draw a choice of MoveFlag or
    /// Reorder without listing hundreds of thousands of them.
    fn move_count(&mut self) -> Result<Option<u64>, SearchError> {
        Ok(Some(if self.s.end == End::Running {
            self.s.choice_count().min(u64::from(Move::MAX))
        } else {
            0
        }))
    }

    /// The prototype's leaf score (`src/player/gameToScore.ts` of `nishio/pastalogic`)
    /// without its random noise, mapped to 0..1 by `(score + 128) / 256` (an increasing
    /// affine map, so flat Monte Carlo's choices are the prototype score's): see
    /// [`prototype_score`].
    fn leaf_score(&mut self, player: usize) -> Option<f64> {
        let p = u8::from(player == 1);
        Some((f64::from(prototype_score(&self.s, p)) + 128.0) / 256.0)
    }

    fn history_dependence(&self) -> Option<usize> {
        if self.s.end == End::Draw(Reason::Repetition) {
            self.dep
        } else {
            None
        }
    }
}

/// The prototype's leaf score of `s` for player `p` (`src/player/gameToScore.ts` of the
/// designer's `nishio/pastalogic`, without the `controledRandom() / 1000` noise): a game
/// won by `p` is 100, lost −100, drawn 0; a game still running scores
/// `f(own life) + f(own flags on cards) − f(opponent's life) − f(opponent's flags on
/// cards)` with `f(n) = 32 − 2^(6 − n)` for `n ≤ 6` and 32 above (so −64..64 while both
/// players have life and flags). The end is Tilesmith's (W1, W2, A13, A17, repetition),
/// not the prototype's `isGameOver`, whose adjudications by life are its own end rules.
pub fn prototype_score(s: &State, p: u8) -> i32 {
    fn f(n: i32) -> i32 {
        if n > 6 {
            32
        } else {
            32 - (1i32 << (6 - n.max(-20)).min(30))
        }
    }
    match s.end {
        End::Won(w, _) if w == p => 100,
        End::Won(..) => -100,
        End::Draw(_) => 0,
        End::Running => {
            let o = 1 - p;
            let life = |q: u8| i32::from(s.life[q as usize]);
            let flags = |q: u8| i32::from(s.flags_on_cards(q));
            f(life(p)) + f(flags(p)) - f(life(o)) - f(flags(o))
        }
    }
}
