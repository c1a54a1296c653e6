//! Falling's [`SearchGame`] (issue #29): **one move is one placement** of the active tumo
//! (a macro move), found by the placement search over the frame inputs (`motion.rs`), and
//! expanded back to its frame words by [`SearchGame::words`].
//!
//! Moves: the placements in the order the placement search finds them (breadth-first over
//! frames: fewest frames first), then, with hold, those of the tumo the hold brings. A move
//! plays its frame inputs (the motion before the placing frame as one jump of the small
//! state), then waits (`.`) until the next tumo is in play or the game is over, so every
//! state the search sees has a tumo at its spawn place (or is over), and a solution ends
//! with the frames that carry out its last clears. The key: `FallingGame::search_key` (`hash.rs`).
//! Dead: lost, a level without a goal (it is never won), or (a `clear_all` goal with only the `rows` clear rule and a fixed sequence)
//! more cells to fill than the tumos left have blocks.

use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::motion::{MAX_EDGE_FRAMES, Placement};
use super::*;
use crate::level::{ClearRule, FallLaw};
use tilesmith_core::input::format_words;
use tilesmith_core::search_game::{Move, SearchError, SearchGame, SearchStatus, StateKey};

/// The most states whose placement lists a searcher keeps (then it forgets them all and
/// starts again): a breadth-first search walks between nearby states, whose lists it reuses.
const CACHE_STATES: usize = 4096;

/// A falling position ready for search; see the module documentation.
pub struct FallingSearch {
    game: FallingGame,
    /// The placement lists of states seen lately, by key.
    cache: FxHashMap<StateKey, Arc<Vec<Placement>>>,
    /// Per move played, the history steps it took.
    played: Vec<usize>,
}

impl std::fmt::Debug for FallingSearch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FallingSearch")
            .field("played", &self.played.len())
            .finish_non_exhaustive()
    }
}

impl FallingSearch {
    /// A searcher at the current state of `g`: a copy made from the game saved as a level
    /// (which continues it exactly), with an empty path and an unbounded history.
    pub fn new(g: &FallingGame) -> FallingSearch {
        let mut game = FallingGame::new(g.to_falling_level(), g.seed);
        game.history.set_budget(usize::MAX);
        game.history.set_limit(usize::MAX);
        FallingSearch {
            game,
            cache: FxHashMap::default(),
            played: Vec::new(),
        }
    }

    /// The game at the current state.
    pub fn game(&self) -> &FallingGame {
        &self.game
    }

    /// The placements of the current state.
    fn list(&mut self) -> Result<Arc<Vec<Placement>>, SearchError> {
        let key = self.game.search_key();
        if let Some(v) = self.cache.get(&key) {
            return Ok(v.clone());
        }
        let v = Arc::new(self.game.placement_moves().map_err(SearchError::new)?);
        if self.cache.len() >= CACHE_STATES {
            self.cache.clear();
        }
        self.cache.insert(key, v.clone());
        Ok(v)
    }

    /// Plays move `mv` and returns its frame inputs, the waits after the placement included.
    fn play_inputs(&mut self, mv: Move) -> Result<Vec<Input>, SearchError> {
        let list = self.list()?;
        let Some(p) = list.get(mv as usize) else {
            return Err(SearchError::new(format!("falling has no move {mv} here")));
        };
        let g = &mut self.game;
        let mut steps = 0;
        if p.hold {
            g.record_frame_with(Input::Hold, false);
            steps += 1;
        }
        if let Some(from) = p.from {
            g.jump(g.motion_state(p, from));
            steps += 1;
        }
        for &i in &p.tail {
            g.record_frame_with(i, false);
            steps += 1;
        }
        let mut inputs = p.inputs.clone();
        let mut waited = 0;
        while g.s.active.is_none() && !g.b.status.is_over() {
            let k = g.idle_frames();
            if k > 0 && waited + k <= MAX_EDGE_FRAMES {
                g.jump(g.idle_state(k));
                inputs.extend(std::iter::repeat_n(Input::Wait, k as usize));
                steps += 1;
                waited += k;
                continue;
            }
            if waited >= MAX_EDGE_FRAMES {
                for _ in 0..steps {
                    Game::undo(g);
                }
                return Err(SearchError::new(format!(
                    "no tumo in play {MAX_EDGE_FRAMES} frames after a placement"
                )));
            }
            g.record_frame_with(Input::Wait, false);
            inputs.push(Input::Wait);
            steps += 1;
            waited += 1;
        }
        self.played.push(steps);
        Ok(inputs)
    }

    /// True when a `clear_all` level whose only clear rule is `rows` (and whose fall laws
    /// only drop rows) cannot be cleared by the tumos left of its fixed sequence: each row
    /// holding a block must be filled to clear it (rows never merge under those laws), and
    /// the blocks to fill them are more than the tumos left (active, held, queued, still to
    /// come) have. A block in a hidden row can never be cleared. And when no new row can be
    /// started (fewer spare blocks than a row has cells), the empty cells between two
    /// columns full in every row holding blocks must be a multiple of the tumos' block
    /// counts' gcd. Sure answers.
    fn rows_out_of_reach(&self) -> bool {
        let g = &self.game;
        let l = &g.level;
        if l.goal != Some(Goal::ClearAll)
            || l.clear != [ClearRule::Rows]
            || l.fall.iter().any(|f| *f != FallLaw::Rows)
            || l.sequence.order != Order::Fixed
            || g.script.is_some()
            || g.b.pending.is_some()
            || !g.is_settled()
        {
            return false;
        }
        let w = g.field.width;
        let mut need = 0usize;
        for (r, row) in g.field.cells.chunks(w).enumerate() {
            let n = row.iter().filter(|&&c| c != EMPTY).count();
            if n > 0 && (r < l.hidden_rows || row.iter().any(|&c| l.role(c) == Role::Iron)) {
                return true;
            }
            if n > 0 {
                need += w - n;
            }
        }
        let blocks = |t: usize| {
            l.tumos
                .get(t)
                .and_then(|t| t.states.first())
                .map_or(0, |s| s.blocks().count())
        };
        let mut have: usize = g.s.active.map_or(0, |p| blocks(p.tumo));
        have += g.b.hold.as_ref().map_or(0, |q| blocks(q.tumo));
        have += g.b.queue.iter().map(|q| blocks(q.tumo)).sum::<usize>();
        have += l
            .sequence
            .tumos
            .iter()
            .skip(g.s.fixed_next)
            .map(|&t| blocks(t))
            .sum::<usize>();
        if need > have {
            return true;
        }
        // No row can be started any more (it would need `w` more cells): every tumo left
        // goes into the rows holding blocks now. A column full in all of them is a wall no
        // tumo crosses (a clear takes a row from every column), so the empty cells between
        // two walls are filled by whole tumos: their number is a multiple of the gcd of the
        // tumos' block counts.
        if have - need >= w {
            return false;
        }
        let mut k = 0;
        let left = g.s.active.map(|p| p.tumo).into_iter();
        let left = left.chain(g.b.hold.iter().map(|q| q.tumo));
        let left = left.chain(g.b.queue.iter().map(|q| q.tumo));
        for t in left.chain(l.sequence.tumos.iter().skip(g.s.fixed_next).copied()) {
            k = gcd(k, blocks(t));
        }
        if k <= 1 {
            return false;
        }
        let rows: Vec<&[BlockId]> = g
            .field
            .cells
            .chunks(w)
            .filter(|r| r.iter().any(|&c| c != EMPTY))
            .collect();
        let mut region = 0;
        for x in 0..=w {
            let empty = (x < w).then(|| rows.iter().filter(|r| r[x] == EMPTY).count());
            match empty {
                Some(n) if n > 0 => region += n,
                _ => {
                    if region % k != 0 {
                        return true;
                    }
                    region = 0;
                }
            }
        }
        false
    }
}

/// The greatest common divisor (`gcd(0, n) = n`).
fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

impl SearchGame for FallingSearch {
    fn players(&self) -> usize {
        1
    }

    fn to_move(&self) -> usize {
        0
    }

    fn status(&mut self) -> Result<SearchStatus, SearchError> {
        Ok(match self.game.b.status {
            Status::Won { .. } => SearchStatus::Won(0),
            Status::Running => SearchStatus::Running,
            Status::Lost { .. } => SearchStatus::Lost,
            Status::Draw { .. } => SearchStatus::Draw,
        })
    }

    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), SearchError> {
        let n = self.list()?.len();
        out.extend(0..n as Move);
        Ok(())
    }

    fn play(&mut self, mv: Move) -> Result<(), SearchError> {
        self.play_inputs(mv).map(|_| ())
    }

    fn undo(&mut self) -> bool {
        let Some(n) = self.played.pop() else {
            return false;
        };
        for _ in 0..n {
            Game::undo(&mut self.game);
        }
        true
    }

    fn fork(&self) -> Box<dyn SearchGame> {
        Box::new(FallingSearch::new(&self.game))
    }

    fn key(&self) -> StateKey {
        self.game.search_key()
    }

    /// The move's frame words, runs of three or more as `WORD*N`.
    fn word(&self, mv: Move) -> String {
        format_words(self.words(mv).iter().map(String::as_str))
    }

    fn bytes(&self) -> usize {
        std::mem::size_of::<FallingGame>()
            + self.game.field.cells.len() * (std::mem::size_of::<BlockId>() * 2 + 8)
    }

    /// Lost; a level with no `goal` (an endless level is never won); or
    /// `rows_out_of_reach` (below: the rows left cannot be filled).
    fn is_dead(&mut self) -> bool {
        matches!(self.game.b.status, Status::Lost { .. })
            || (self.game.level.goal.is_none() && !self.game.b.status.is_over())
            || self.rows_out_of_reach()
    }

    /// The frame words of placement `mv`, one a frame: its inputs and the waits (`.`) after
    /// it until the next tumo is in play or the game is over (counted by playing it on a
    /// copy). Empty when the move cannot be played.
    fn words(&self, mv: Move) -> Vec<String> {
        let mut copy = FallingSearch::new(&self.game);
        copy.play_inputs(mv)
            .map(|v| v.iter().map(|i| i.word().to_string()).collect())
            .unwrap_or_default()
    }
}
