//! A running board game behind [`tilesmith_core::game::Game`]: each step is one whole turn
//! (a move, a jump chain of partial moves, a drop or a pass), chosen from the legal turns of
//! the position as an [`Input::Choice`] and written by its notation (`c3-d4`, `c3xe5xc7`,
//! `@d3`, `pass`). Undo keeps the cells each turn changed; redo plays the undone turn again.
//!
//! Here: the game, a turn played and undone, and the [`Game`] trait. Beside it: `settle.rs`
//! (the status and legal turns of a position, with its repetition history) and `events.rs`
//! (what the trace says of a turn and of the end).

use std::hash::{Hash, Hasher};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rustc_hash::{FxHashMap, FxHasher};
use serde_json::{Value, json};

use super::level::{BoardLevel, position_json, uses_repetition};
use super::play::{Engine, GenError, PerftEnd, Piece, Position, TurnMove};
use super::rules::{Outcome as EndKind, PosId, Rules};
use super::zrf::ZrfProblem;
use tilesmith_core::game::{Game, GameKind, Layer, Status, StepReport};
use tilesmith_core::grid::Pos;
use tilesmith_core::hash::Fnv;
use tilesmith_core::history::{History, Patch, Trim};
use tilesmith_core::input::{Input, InputChoice, InputError};
use tilesmith_core::problem::{JsonPath, Problem};

mod events;
mod settle;

/// How this game words the reason and the error of a game stopped because move generation
/// failed.
const GEN_FAILED: &str = "move generation failed: ";

/// What undoing one turn restores.
#[derive(Clone, Debug)]
struct Done {
    /// The turn played (for redo).
    turn: TurnMove,
    /// Each cell the turn changed, with what it held before.
    cells: Vec<(PosId, Option<Piece>)>,
    /// The reserves before, when the turn changed them.
    reserve: Option<Vec<Vec<u32>>>,
    /// `turn`, `last` and `partial` of the position before.
    turn_index: usize,
    last: Option<(PosId, PosId)>,
    partial: Option<(PosId, Option<super::rules::MoveTypeId>)>,
    /// The repetition key of the position reached (its count is taken back on undo).
    key: Option<u64>,
}

impl Patch for Done {
    /// The bytes this record holds: itself, the turn's moves and notation, the changed
    /// cells and the saved reserves.
    fn bytes(&self) -> usize {
        std::mem::size_of::<Done>()
            + self.turn.parts.capacity() * std::mem::size_of::<super::play::Move>()
            + self.turn.notation.capacity()
            + self.cells.capacity() * std::mem::size_of::<(PosId, Option<Piece>)>()
            + self.reserve.as_ref().map_or(0, |r| {
                r.iter()
                    .map(|v| std::mem::size_of::<Vec<u32>>() + v.capacity() * 4)
                    .sum()
            })
    }
}

/// How the history drops plies: the oldest first while over the budget, always keeping the
/// last one (the position before it tells who moved last, for `repetition`).
const TRIM: Trim = Trim {
    min_kept: 1,
    drop_redoable: false,
};

/// A running board game: the compiled rules, the position, its legal turns and the status.
#[derive(Clone, Debug)]
pub struct BoardGame {
    level: BoardLevel,
    /// The rules ready to play (their tables derived once).
    engine: Arc<Engine>,
    /// Why move generation stopped in the current position (a runaway block, a limit).
    gen_error: Option<GenError>,
    pos: Position,
    legal: Vec<TurnMove>,
    status: Status,
    /// The plies played, for undo ([`Game::set_history_budget`] bounds it). It holds no
    /// redoable plies: redo plays the turns of `undone` again.
    done: History<Done>,
    undone: Vec<TurnMove>,
    /// How often each position (pieces, reserves, player to move) has occurred, for
    /// `repetition`; empty when the rules do not test it.
    seen: FxHashMap<u64, u32>,
    repetition: bool,
    /// `grid[row * cols + col]`: the position drawn in that cell.
    grid: Vec<Option<PosId>>,
    /// Whether the last [`Game::step`] played a turn (for [`Game::trace`]).
    last_played: bool,
    /// Abandons a ply's move generation ([`Game::set_cancel_flag`]).
    cancel: Option<Arc<AtomicBool>>,
}

impl BoardGame {
    /// Starts a game of `level` from its start position.
    pub fn new(level: BoardLevel) -> BoardGame {
        let rules = Arc::clone(&level.rules);
        let (cols, rows) = (rules.board.cols as usize, rules.board.rows as usize);
        let mut grid = vec![None; cols * rows];
        for (i, d) in rules.board.positions.iter().enumerate() {
            let (c, r) = (d.col as usize, d.row as usize);
            if c < cols && r < rows {
                grid[r * cols + c] = Some(i as PosId);
            }
        }
        let mut g = BoardGame {
            pos: level.start.clone(),
            repetition: uses_repetition(&rules),
            engine: Arc::new(Engine::new(Rules::clone(&rules))),
            gen_error: None,
            level,
            legal: Vec::new(),
            status: Status::Running,
            done: History::new(tilesmith_core::game::DEFAULT_HISTORY_BYTES, TRIM),
            undone: Vec::new(),
            seen: FxHashMap::default(),
            grid,
            last_played: false,
            cancel: None,
        };
        if let Some(k) = g.repetition_key() {
            g.seen.insert(k, 1);
        }
        g.settle();
        g
    }

    /// The compiled rules.
    pub fn rules(&self) -> &Rules {
        &self.level.rules
    }

    /// The rules ready to play, for search and the move-generation debugger.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The level the game started from.
    pub fn level(&self) -> &BoardLevel {
        &self.level
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The legal whole turns of the current position, in the order of
    /// [`Game::legal_inputs`] (entry `n` is played by [`Input::Choice`]`(n)`); empty when the
    /// game is over.
    pub fn legal_turns(&self) -> &[TurnMove] {
        &self.legal
    }

    /// The position drawn in cell (`col` from the left, `row` from the top), if any.
    pub fn position_at(&self, cell: Pos) -> Option<PosId> {
        let cols = self.level.rules.board.cols as usize;
        if cell.x >= cols {
            return None;
        }
        self.grid.get(cell.y * cols + cell.x).copied().flatten()
    }

    /// A generation failure as a problem: at the move block (its line and column) in the ZRF
    /// file, or at `$.rules` for a limit that is no block's (`span.line` 0) and for rules
    /// without a file.
    fn gen_problem(&self, e: &GenError) -> Problem {
        let message = format!("{GEN_FAILED}{}", e.message);
        let source = &self.level.source;
        match (&source.file, e.span.line) {
            (Some(f), 0) => {
                Problem::error(JsonPath::root().key("rules"), message).in_file(f.clone(), 1, 1)
            }
            (None, 0) => Problem::error(JsonPath::root().key("rules"), message),
            _ => source.problem(
                &ZrfProblem {
                    span: e.span,
                    message,
                    warning: false,
                    more: 0,
                },
                None,
            ),
        }
    }

    fn to_move_name(&self) -> Option<String> {
        let rules = &self.level.rules;
        let entry = rules.turn_order.get(self.pos.turn)?;
        rules.players.get(entry.player as usize).cloned()
    }

    /// The drawn cells of positions, row-major.
    fn cells_of(&self, ids: impl Iterator<Item = PosId>) -> Vec<Pos> {
        let defs = &self.level.rules.board.positions;
        let mut v: Vec<Pos> = ids
            .filter_map(|i| defs.get(i as usize))
            .map(|d| Pos::new(d.col as usize, d.row as usize))
            .collect();
        v.sort_by_key(|p| (p.y, p.x));
        v.dedup();
        v
    }

    /// Plays `turn` (legal in the current position) and records it for undo. `None` when
    /// the cancel flag was set during the new position's move generation: the ply is then
    /// taken back (position, repetition count, history) and the game is as before.
    fn play(&mut self, turn: TurnMove) -> Option<StepReport> {
        let before = self.pos.clone();
        self.engine.play_turn(&mut self.pos, &turn);
        let cells: Vec<(PosId, Option<Piece>)> = before
            .cells
            .iter()
            .zip(&self.pos.cells)
            .enumerate()
            .filter(|(_, (a, b))| a != b)
            .map(|(i, (a, _))| (i as PosId, *a))
            .collect();
        let changed = self.cells_of(cells.iter().map(|(i, _)| *i));
        let key = self.repetition_key();
        if let Some(k) = key {
            *self.seen.entry(k).or_insert(0) += 1;
        }
        let done = Done {
            turn,
            cells,
            reserve: (before.reserve != self.pos.reserve).then(|| before.reserve.clone()),
            turn_index: before.turn,
            last: before.last,
            partial: before.partial,
            key,
        };
        self.done.push(done);
        let cancel = self.cancel.clone();
        if !self.settle_or_cancel(cancel.as_deref()) {
            self.done.pop_newest();
            if let Some(k) = key
                && let Some(n) = self.seen.get_mut(&k)
            {
                *n -= 1;
                if *n == 0 {
                    self.seen.remove(&k);
                }
            }
            self.pos = before;
            return None;
        }
        self.done.trim();
        Some(StepReport {
            step: self.steps(),
            changed,
            ..StepReport::default()
        })
    }

    /// Back to the level's start position with an empty history: a restart after plies
    /// were dropped from the history. The repetition counts start again too.
    fn rebuild_start(&mut self) {
        self.pos = self.level.start.clone();
        self.done.clear();
        self.undone.clear();
        self.seen.clear();
        if let Some(k) = self.repetition_key() {
            self.seen.insert(k, 1);
        }
        self.settle();
    }

    fn no_change(&self) -> StepReport {
        StepReport {
            step: self.steps(),
            ..StepReport::default()
        }
    }
}

impl Game for BoardGame {
    fn kind(&self) -> &'static dyn GameKind {
        &super::Board
    }

    fn size(&self) -> (usize, usize) {
        let b = &self.level.rules.board;
        (b.cols as usize, b.rows as usize)
    }

    fn step(&mut self, input: Input) -> StepReport {
        self.last_played = false;
        match input {
            Input::Undo => {
                self.undo();
                self.no_change()
            }
            Input::Restart => {
                if self.done.trimmed() > 0 {
                    self.rebuild_start();
                } else {
                    while self.undo() {}
                }
                self.no_change()
            }
            Input::Choice(n) if !self.status.is_over() => {
                match self.legal.get(n as usize).cloned() {
                    Some(turn) => match self.play(turn) {
                        Some(report) => {
                            self.undone.clear();
                            self.last_played = true;
                            report
                        }
                        None => self.no_change(),
                    },
                    None => self.no_change(),
                }
            }
            _ => self.no_change(),
        }
    }

    fn undo(&mut self) -> bool {
        let Some(d) = self.done.pop_newest() else {
            return false;
        };
        if let Some(k) = d.key
            && let Some(n) = self.seen.get_mut(&k)
        {
            *n = n.saturating_sub(1);
        }
        for (i, piece) in &d.cells {
            if let Some(c) = self.pos.cells.get_mut(*i as usize) {
                *c = *piece;
            }
        }
        if let Some(r) = d.reserve {
            self.pos.reserve = r;
        }
        self.pos.turn = d.turn_index;
        self.pos.last = d.last;
        self.pos.partial = d.partial;
        self.undone.push(d.turn);
        self.settle();
        true
    }

    fn redo(&mut self) -> bool {
        let Some(turn) = self.undone.pop() else {
            return false;
        };
        if self.play(turn.clone()).is_none() {
            self.undone.push(turn);
            return false;
        }
        true
    }

    fn steps(&self) -> u64 {
        self.done.trimmed() + self.done.len() as u64
    }

    fn redo_len(&self) -> usize {
        self.undone.len()
    }

    fn history_bytes(&self) -> usize {
        self.done.bytes()
    }

    fn set_history_budget(&mut self, bytes: usize) {
        self.done.set_budget(bytes);
    }

    /// Honoured: the flag is read after each move block run while generating the moves of
    /// the position a ply reaches (the long part of a ply); a set flag takes the ply back.
    /// Undo and restart are not cancelled.
    fn set_cancel_flag(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.cancel = flag;
    }

    fn history_trimmed(&self) -> u64 {
        self.done.trimmed()
    }

    fn status(&self) -> Status {
        self.status.clone()
    }

    fn players(&self) -> Vec<String> {
        self.level.rules.players.clone()
    }

    /// 1 when the player to move at the start (the level's `to_move`, else the first of
    /// the turn order) wins: the campaign's player plays that side, and a one-player
    /// puzzle's win is its player's. 0 for a win of another player, a draw or a loss
    /// (docs/campaign.md).
    fn points_earned(&self) -> u32 {
        let Status::Won {
            points,
            winner: Some(w),
        } = &self.status
        else {
            return 0;
        };
        let rules = &self.level.rules;
        let first = rules
            .turn_order
            .get(self.level.start.turn)
            .and_then(|t| rules.players.get(t.player as usize));
        if first == Some(w) { *points } else { 0 }
    }

    fn to_move(&self) -> Option<usize> {
        if self.status.is_over() {
            return None;
        }
        self.level
            .rules
            .turn_order
            .get(self.pos.turn)
            .map(|t| t.player as usize)
    }

    fn legal_inputs(&self) -> Vec<InputChoice> {
        let mut v: Vec<InputChoice> = self
            .legal
            .iter()
            .enumerate()
            .map(|(i, t)| InputChoice {
                word: t.notation.clone(),
                input: Input::Choice(i as u32),
                label: t.notation.clone(),
            })
            .collect();
        v.extend(super::Board.inputs().iter().map(InputChoice::from));
        v
    }

    fn read_input(&self, word: &str) -> Result<Input, InputError> {
        let found = self
            .legal
            .iter()
            .position(|t| t.notation == word)
            .or_else(|| {
                self.legal
                    .iter()
                    .position(|t| t.notation.eq_ignore_ascii_case(word))
            });
        if let Some(i) = found {
            return Ok(Input::Choice(i as u32));
        }
        super::Board
            .parse_input(word)
            .map_err(|_| InputError::NotLegal {
                position: None,
                word: word.to_string(),
                repeat: None,
                legal: self.legal_inputs().into_iter().map(|c| c.word).collect(),
            })
    }

    fn input_word(&self, input: Input) -> Option<String> {
        match input {
            Input::Choice(n) => self.legal.get(n as usize).map(|t| t.notation.clone()),
            Input::Undo | Input::Restart => Some(input.word().to_string()),
            _ => None,
        }
    }

    fn perft(&self, depth: u32, end_is_leaf: bool) -> Option<Result<u64, Problem>> {
        let end = if end_is_leaf {
            PerftEnd::EndIsLeaf
        } else {
            PerftEnd::FullDepth
        };
        Some(
            self.engine
                .perft(&self.pos, depth, end)
                .map_err(|e| self.gen_problem(&e)),
        )
    }

    fn error(&self) -> Option<String> {
        self.gen_error.as_ref().map(|e| format!("{GEN_FAILED}{e}"))
    }

    /// At the move block that failed, in the ZRF file; a limit that is not one block's
    /// (too many turns, chain parts) at the rules as a whole.
    fn warnings(&self) -> Vec<Problem> {
        self.level.warnings.clone()
    }

    fn error_problem(&self) -> Option<Problem> {
        self.gen_error.as_ref().map(|e| self.gen_problem(e))
    }

    /// One event per turn played: `{"ply", "player", "move", "changed": [{"at", "before",
    /// "after"}, …]}` (positions by name, pieces as `"White Man"` or `null`, in position
    /// order), then, when the turn ended the game, `{"ply", "status", "winner", "reason"}`.
    /// Undo and restart give `{"ply", "event": "undo" | "restart"}` with the ply reached.
    fn trace(&self, input: Input, _report: &StepReport) -> Vec<Value> {
        let ply = self.steps();
        match input {
            Input::Undo => vec![json!({"ply": ply, "event": "undo"})],
            Input::Restart => vec![json!({"ply": ply, "event": "restart"})],
            _ if self.last_played => self.done.newest().map_or_else(Vec::new, |d| {
                let mut events = vec![self.turn_event(d)];
                if self.status.is_over() {
                    events.push(self.end_event());
                }
                events
            }),
            _ => Vec::new(),
        }
    }

    fn summary(&self) -> Value {
        let winner = match &self.status {
            Status::Won { winner, .. } => winner.clone(),
            _ => None,
        };
        json!({
            "kind": "board",
            // A game stopped by an error in its rules has no result: not a draw, not a loss.
            "status": self.outcome_word(),
            "ply": self.steps(),
            "to_move": self.to_move().and_then(|_| self.to_move_name()),
            "winner": winner,
            "legal": self.legal.len(),
        })
    }

    fn to_level(&self) -> Value {
        let l = &self.level;
        position_json(
            &l.rules,
            &l.source,
            l.variant.as_deref(),
            &self.pos,
            &l.extra,
        )
    }

    fn layers(&self, pos: Pos) -> Vec<Layer> {
        let Some(i) = self.position_at(pos) else {
            return Vec::new();
        };
        match self.pos.cells.get(i as usize).copied().flatten() {
            Some(piece) => vec![Layer {
                token: self.piece_label(piece),
                dir: None,
            }],
            None => Vec::new(),
        }
    }

    /// A [`BoardSearch`](super::play::searcher::BoardSearch) at the current position, which
    /// counts the game's earlier positions for `repetition`.
    fn searcher(&self) -> Option<Box<dyn tilesmith_core::search_game::SearchGame>> {
        let mut before = self.seen.clone();
        if let Some(k) = self.repetition_key()
            && let Some(n) = before.get_mut(&k)
        {
            *n = n.saturating_sub(1);
        }
        Some(Box::new(super::play::searcher::BoardSearch::with_history(
            Arc::clone(&self.engine),
            self.pos.clone(),
            before,
        )))
    }

    fn state_hash(&self) -> u64 {
        let mut h = Fnv::new();
        h.write(b"board");
        for c in &self.pos.cells {
            match c {
                Some(p) => {
                    h.write(&[1, p.player, p.kind]);
                    h.write(&p.attrs.to_le_bytes());
                }
                None => h.write(&[0]),
            }
        }
        for per in &self.pos.reserve {
            for n in per {
                h.write(&n.to_le_bytes());
            }
            h.write(b";");
        }
        h.write_u64(self.pos.turn as u64);
        match self.pos.last {
            Some((f, t)) => {
                h.write(&[1]);
                h.write(&f.to_le_bytes());
                h.write(&t.to_le_bytes());
            }
            None => h.write(&[0]),
        }
        h.write(self.status.word().as_bytes());
        if let Status::Won {
            winner: Some(w), ..
        } = &self.status
        {
            h.write(w.as_bytes());
        }
        h.finish()
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
        self
    }
}
