//! The board kind's [`SearchGame`]: a position with the fast internals of the move generator
//! (the children of a position built once by the expander, positions swapped in rather than
//! replayed), for the shared search (`tilesmith_search`: the computer opponent's Monte Carlo
//! tree search, alpha-beta, breadth-first search of one-player boards, playouts).
//!
//! Moves are indices into the legal whole turns, in the order of [`Engine::turns`] (a pass
//! last), which is the order of [`tilesmith_core::game::Game::legal_inputs`]. The state key hashes the
//! pieces, the reserves, the turn index and a partial turn in progress, plus the last move
//! when the rules read it (`last-from?`, `last-to?`). `repetition` (the board, reserves and
//! player to move for the third time) is judged along the searcher's path and, for the copy
//! a game makes, the game's earlier positions; a draw or win by it reports the earliest
//! occurrence ([`SearchGame::history_dependence`]).

use std::hash::Hash as _;
use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::super::rules::Outcome as EndKind;
use super::end::{Changed, evaluate_changed};
use super::perft::{ChildSink, children_from, last_mover, placement_hash};
use super::pick::Picker;
use super::turns::{Expander, mover};
use super::{Engine, GenError, Position};
use tilesmith_core::hash::KeyHasher;
use tilesmith_core::search_game::{Move, SearchError, SearchGame, SearchStatus, StateKey};

/// A board position ready for search; see the module documentation.
pub struct BoardSearch {
    engine: Arc<Engine>,
    pos: Position,
    /// The positions before each move played, for undo.
    undo: Vec<Position>,
    /// Positions no longer used, whose storage the next children reuse.
    spare: Vec<Position>,
    /// The repetition keys of the path, the start first (only when the rules test it).
    seen: Vec<u64>,
    /// How often each repetition key occurred before the start (a game's history).
    before: FxHashMap<u64, u32>,
    repetition: bool,
    /// The rules read the last move, so it is part of the key.
    reads_last: bool,
    players: usize,
    ex: Expander,
    sink: ChildSink,
    /// Draws a random turn without the children ([`SearchGame::advance_random`]).
    picker: Picker,
    /// The status of `pos` (and the earliest repeated position it depends on), once
    /// worked out.
    settled: Option<(SearchStatus, Option<usize>)>,
    /// `sink` holds the children of `pos`.
    built: bool,
    /// `picker` is prepared for `pos` (its moves are in `ex`).
    lazy: bool,
    /// The squares the turn to `pos` wrote when it was played from a position where no end
    /// condition held ([`evaluate_changed`]); any otherwise.
    changed: Changed,
}

/// The most expanders and child lists a thread keeps for the next searchers.
const POOL: usize = 16;

thread_local! {
    /// Warm move-generation buffers of dropped searchers (their storage sized by earlier
    /// positions), handed to new ones: a playout's fork then allocates nothing to start,
    /// as the single expander of the board's playouts before the shared search did not.
    static SCRATCH: std::cell::RefCell<Vec<Warm>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// What a dropped searcher leaves for the next: its buffers and its position's storage.
#[derive(Default)]
struct Warm {
    ex: Expander,
    sink: ChildSink,
    picker: Picker,
    pos: Position,
}

fn scratch() -> Warm {
    SCRATCH
        .try_with(|p| p.borrow_mut().pop())
        .ok()
        .flatten()
        .unwrap_or_default()
}

impl Drop for BoardSearch {
    fn drop(&mut self) {
        let warm = Warm {
            ex: std::mem::take(&mut self.ex),
            sink: std::mem::take(&mut self.sink),
            picker: std::mem::take(&mut self.picker),
            pos: std::mem::take(&mut self.pos),
        };
        let _ = SCRATCH.try_with(|p| {
            if let Ok(mut p) = p.try_borrow_mut()
                && p.len() < POOL
            {
                p.push(warm);
            }
        });
    }
}

fn gen_error(e: GenError) -> SearchError {
    SearchError::new(format!("move generation failed: {e}"))
}

/// True when a move block of `engine`'s rules reads the last move (`last-from?`,
/// `last-to?`, `(go last-from)`, …).
fn reads_last(engine: &Engine) -> bool {
    let text = format!("{:?}", engine.rules().pieces);
    text.contains("LastFrom") || text.contains("LastTo")
}

impl BoardSearch {
    /// The squares the turn to child `k` wrote, when the current position is running (no
    /// end condition holds in it); any otherwise.
    fn changed_by_child(&self, k: usize) -> Changed {
        match self.sink.changed.get(k) {
            Some(c) if self.running() => *c,
            _ => Changed::any(),
        }
    }

    /// A searcher at `pos` of `engine`'s rules, with no history before it.
    pub fn new(engine: Arc<Engine>, pos: Position) -> BoardSearch {
        let repetition = super::super::level::uses_repetition(engine.rules());
        let last = reads_last(&engine);
        BoardSearch::with(engine, pos, repetition, last, FxHashMap::default())
    }

    /// A searcher at `pos` whose earlier positions occurred as counted in `before` (by
    /// repetition key, the current position's own occurrence not included).
    pub(crate) fn with_history(
        engine: Arc<Engine>,
        pos: Position,
        before: FxHashMap<u64, u32>,
    ) -> BoardSearch {
        let repetition = super::super::level::uses_repetition(engine.rules());
        let last = reads_last(&engine);
        BoardSearch::with(engine, pos, repetition, last, before)
    }

    fn with(
        engine: Arc<Engine>,
        pos: Position,
        repetition: bool,
        reads_last: bool,
        before: FxHashMap<u64, u32>,
    ) -> BoardSearch {
        let players = engine.rules().players.len().max(1);
        let seen = if repetition {
            vec![placement_hash(&pos)]
        } else {
            Vec::new()
        };
        BoardSearch {
            engine,
            pos,
            undo: Vec::new(),
            spare: Vec::new(),
            seen,
            before,
            repetition,
            reads_last,
            players,
            ex: Expander::default(),
            sink: ChildSink::default(),
            picker: Picker::default(),
            settled: None,
            built: false,
            lazy: false,
            changed: Changed::any(),
        }
    }

    /// The current position changed: nothing worked out for the old one holds.
    fn forget(&mut self) {
        self.settled = None;
        self.built = false;
        self.lazy = false;
        self.changed = Changed::any();
    }

    /// Whether no end condition holds in the current position (worked out).
    fn running(&self) -> bool {
        matches!(self.settled, Some((SearchStatus::Running, _)))
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Works out the status and the children of the current position, once.
    fn settle(&mut self) -> Result<SearchStatus, SearchError> {
        self.settle_from(false)
    }

    /// [`Self::settle`]; when `generated`, the expander holds the first parts of the
    /// current position already (the picker generated them, then handed over).
    fn settle_from(&mut self, generated: bool) -> Result<SearchStatus, SearchError> {
        if self.built
            && let Some((s, _)) = self.settled
        {
            return Ok(s);
        }
        let ctx = self.engine.ctx();
        children_from(&ctx, &mut self.ex, &self.pos, &mut self.sink, generated)
            .map_err(gen_error)?;
        self.built = true;
        // The children were generated into `ex` over the picker's moves.
        self.lazy = false;
        if let Some((s, _)) = self.settled {
            return Ok(s);
        }
        self.judge(self.sink.n > 0)
    }

    /// Works out the status of the current position, once, building the children only
    /// where the picker cannot stand in for them ([`Picker::prepare`]).
    fn settle_lazy(&mut self) -> Result<SearchStatus, SearchError> {
        if let Some((s, _)) = self.settled {
            return Ok(s);
        }
        let ctx = self.engine.ctx();
        match self
            .picker
            .prepare(&ctx, &mut self.ex, &self.pos)
            .map_err(gen_error)?
        {
            Some(has_turn) => {
                self.lazy = true;
                self.judge(has_turn)
            }
            None => {
                let generated = self.picker.generated();
                self.settle_from(generated)
            }
        }
    }

    /// The status of the current position given whether the player to move has a turn:
    /// the end conditions, `repetition` along the path.
    fn judge(&mut self, has_turn: bool) -> Result<SearchStatus, SearchError> {
        let ctx = self.engine.ctx();
        let mut dep = None;
        let repeated_by = if self.repetition {
            let h = *self.seen.last().unwrap_or(&0);
            let earlier = self.before.get(&h).copied().unwrap_or(0) as usize;
            let on_path = self.seen.iter().filter(|&&x| x == h).count();
            if self.undo.is_empty() && earlier == 0 {
                None
            } else if earlier + on_path >= 3 {
                dep = Some(if earlier > 0 {
                    0
                } else {
                    self.seen.iter().position(|&x| x == h).unwrap_or(0)
                });
                Some(last_mover(&ctx, &self.pos))
            } else {
                None
            }
        } else {
            None
        };
        let one = self.players <= 1;
        let outcome = evaluate_changed(
            &ctx,
            &mut self.ex,
            &self.pos,
            Some(has_turn),
            repeated_by,
            false,
            &self.changed,
        )
        .map_err(gen_error)?;
        let status = match outcome {
            Some(o) if one => {
                if o.decided_by == Some(EndKind::Win) {
                    SearchStatus::Won(0)
                } else {
                    SearchStatus::Lost
                }
            }
            Some(o) => match o.winner {
                Some(w) => SearchStatus::Won(w as usize),
                None => SearchStatus::Draw,
            },
            None if !has_turn && one => SearchStatus::Lost,
            None if !has_turn => SearchStatus::Draw,
            None => SearchStatus::Running,
        };
        let dep = if status.is_over() { dep } else { None };
        self.settled = Some((status, dep));
        Ok(status)
    }
}

impl SearchGame for BoardSearch {
    fn players(&self) -> usize {
        self.players
    }

    fn to_move(&self) -> usize {
        mover(&self.engine.ctx(), &self.pos) as usize
    }

    fn status(&mut self) -> Result<SearchStatus, SearchError> {
        self.settle_lazy()
    }

    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), SearchError> {
        if self.settle()? == SearchStatus::Running {
            out.extend(0..self.sink.n as Move);
        }
        Ok(())
    }

    fn play(&mut self, mv: Move) -> Result<(), SearchError> {
        self.settle()?;
        let k = mv as usize;
        if k >= self.sink.n {
            return Err(SearchError::new(format!(
                "move {mv} is not one of the {} legal turns",
                self.sink.n
            )));
        }
        let spare = self.spare.pop().unwrap_or_default();
        let next = std::mem::replace(&mut self.sink.kids[k], spare);
        let before = std::mem::replace(&mut self.pos, next);
        self.undo.push(before);
        if self.repetition {
            self.seen.push(placement_hash(&self.pos));
        }
        let changed = self.changed_by_child(k);
        self.forget();
        self.changed = changed;
        Ok(())
    }

    /// Swaps the child in and gives the old position's storage to the next children, as
    /// the playouts before the shared search did: no copy, nothing kept for undo.
    fn advance(&mut self, mv: Move) -> Result<(), SearchError> {
        self.settle()?;
        let k = mv as usize;
        if k >= self.sink.n {
            return Err(SearchError::new(format!(
                "move {mv} is not one of the {} legal turns",
                self.sink.n
            )));
        }
        std::mem::swap(&mut self.pos, &mut self.sink.kids[k]);
        self.undo.clear();
        if self.repetition {
            self.seen.push(placement_hash(&self.pos));
        }
        let changed = self.changed_by_child(k);
        self.forget();
        self.changed = changed;
        Ok(())
    }

    /// Draws the turn from the generated moves where it can (`play/pick.rs`: the same draw
    /// as from the list of children when the player to move has no royal piece type; by
    /// rejection otherwise), else from the children.
    fn advance_random(
        &mut self,
        rng: &mut rand_chacha::ChaCha8Rng,
        _buf: &mut Vec<Move>,
    ) -> Result<bool, SearchError> {
        if self.settle_lazy()? != SearchStatus::Running {
            return Ok(false);
        }
        if !self.lazy {
            if self.sink.n == 0 {
                return Ok(false);
            }
            let k = tilesmith_core::random::uniform(rng, self.sink.n);
            self.advance(k as Move)?;
            return Ok(true);
        }
        let ctx = self.engine.ctx();
        let picked = self
            .picker
            .pick(&ctx, &mut self.ex, &mut self.pos, rng)
            .map_err(gen_error)?;
        if !picked {
            return Ok(false);
        }
        self.undo.clear();
        if self.repetition {
            self.seen.push(placement_hash(&self.pos));
        }
        // The position it was played from is running (checked above).
        let mut changed = if ctx.lines.used() {
            Changed::none()
        } else {
            Changed::any()
        };
        if let Some(i) = self.picker.played.filter(|_| ctx.lines.used()) {
            match self
                .ex
                .first()
                .and_then(|b| b.heads.get(i).map(|h| b.prims_of(h)))
            {
                Some(prims) => changed.add(prims),
                None => changed = Changed::any(),
            }
        }
        self.forget();
        self.changed = changed;
        Ok(true)
    }

    fn undo(&mut self) -> bool {
        let Some(prev) = self.undo.pop() else {
            return false;
        };
        let cur = std::mem::replace(&mut self.pos, prev);
        if self.spare.len() < 64 {
            self.spare.push(cur);
        }
        if self.repetition {
            self.seen.pop();
        }
        self.forget();
        true
    }

    /// A copy with warm move-generation buffers from the thread's pool (a fork is mostly a
    /// playout's start), unlike the stored children of [`SearchGame::children`].
    fn fork(&self) -> Box<dyn SearchGame> {
        let mut warm = scratch();
        warm.pos.clone_from(&self.pos);
        let mut c = BoardSearch::with(
            Arc::clone(&self.engine),
            warm.pos,
            self.repetition,
            self.reads_last,
            FxHashMap::default(),
        );
        (c.ex, c.sink, c.picker) = (warm.ex, warm.sink, warm.picker);
        Box::new(c)
    }

    fn key(&self) -> StateKey {
        let mut h = KeyHasher::new();
        self.pos.cells.hash(&mut h);
        self.pos.reserve.hash(&mut h);
        self.pos.turn.hash(&mut h);
        self.pos.partial.hash(&mut h);
        if self.reads_last {
            self.pos.last.hash(&mut h);
        }
        h.finish128()
    }

    fn word(&self, mv: Move) -> String {
        match self.engine.turns(&self.pos) {
            Ok(t) => t
                .get(mv as usize)
                .map_or_else(|| format!("#{mv}"), |t| t.notation.clone()),
            Err(_) => format!("#{mv}"),
        }
    }

    fn bytes(&self) -> usize {
        std::mem::size_of::<BoardSearch>()
            + std::mem::size_of_val(self.pos.cells.as_slice())
            + self
                .pos
                .reserve
                .iter()
                .map(|r| r.len() * 4 + 24)
                .sum::<usize>()
            + 64
    }

    fn children(&mut self, out: &mut Vec<Box<dyn SearchGame>>) -> Result<(), SearchError> {
        if self.settle()? != SearchStatus::Running {
            return Ok(());
        }
        for k in 0..self.sink.n {
            out.push(Box::new(BoardSearch::with(
                Arc::clone(&self.engine),
                self.sink.kids[k].clone(),
                self.repetition,
                self.reads_last,
                FxHashMap::default(),
            )));
        }
        Ok(())
    }

    fn history_dependence(&self) -> Option<usize> {
        self.settled.and_then(|(_, d)| d)
    }
}
