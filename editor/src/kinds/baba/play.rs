//! Baba's play extras around the generic [`PlaySession`]: the game's state as a level (what
//! the canvas and inspector show), the text that forms no rule, and a turn log with the rules
//! each turn formed and broke.

use std::collections::{HashMap, HashSet};

use eframe::egui::Color32;
use tilesmith_engine::kind::baba::rules::FormedRule;
use tilesmith_engine::kind::baba::{Baba, BabaGame, BabaLevel, Prop};
use tilesmith_engine::{Input, Pos, Status, StepReport};

use crate::doc::play::PlaySession;
use crate::doc::step_job::StepOutcome;

/// What one turn of a play session did: for the turn list of the play pane.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnLog {
    /// The input (a move or wait).
    pub input: Input,
    /// Rules that hold after the turn but did not before it (rule text, board order).
    pub formed: Vec<String>,
    /// Rules that held before the turn but not after it.
    pub broken: Vec<String>,
    /// The cells whose contents changed (x = column, y = row), row-major.
    pub changed: Vec<Pos>,
    /// The status after the turn.
    pub status: Status,
}

/// A baba play session: the generic session plus the shown state and the turn log.
#[derive(Debug)]
pub struct BabaPlay {
    /// The generic session (game, inputs, clock).
    pub session: PlaySession,
    /// The game's current state as a level (what the canvas and inspector show).
    pub shown: BabaLevel,
    /// The text tiles that form no rule now, as `(cell, stack index)`; the stack index counts
    /// from the bottom (0), in the order of [`BabaPlay::shown`].
    pub unused: HashSet<(Pos, usize)>,
    /// One entry per turn played, turn 1 first; entries past the current turn can be redone.
    pub log: Vec<TurnLog>,
    /// The colours colour words give the shown objects and the level.
    pub tints: Tints,
    /// What the UI reads of the game, as of the last turn computed: the game itself is on a
    /// worker thread while a turn computes (issue 15).
    seen: Seen,
    /// The turn computing on the worker: its input, the rules before it and its number.
    staged: Option<(Input, Vec<String>, u64)>,
}

/// The game's rules, turn, status and redo count when last seen at home.
#[derive(Debug, Default)]
struct Seen {
    rules: Vec<FormedRule>,
    turn: u64,
    status: Option<Status>,
    redo_len: usize,
}

/// The colours that colour words give (Tier 2, spec §5.13): per object, keyed like
/// [`BabaPlay::unused`] by `(cell, stack index)`, and the level's own (its background).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tints {
    /// The colour of each tinted object, by `(cell, stack index from the bottom)`.
    pub objects: HashMap<(Pos, usize), Color32>,
    /// The level's colour (`LEVEL IS RED`), drawn over the background.
    pub level: Option<Color32>,
}

impl Tints {
    /// The tints of `game`'s current state.
    pub fn of(game: &BabaGame) -> Self {
        let rgb = |p: Prop| p.rgb().map(|(r, g, b)| Color32::from_rgb(r, g, b));
        Self {
            objects: game
                .tinted()
                .into_iter()
                .filter_map(|(pos, layer, p)| Some(((pos, layer), rgb(p)?)))
                .collect(),
            level: game.level_tint().and_then(rgb),
        }
    }
}

impl BabaPlay {
    /// A session starting at the level's first turn, with RNG seed `seed`.
    pub fn new(level: BabaLevel, seed: u64) -> Self {
        let design = level.to_json();
        let game = BabaGame::new(level, seed);
        let mut p = Self {
            shown: game.to_baba_level(),
            session: PlaySession::with_game(&Baba, Box::new(game), design, seed),
            unused: HashSet::new(),
            log: Vec::new(),
            tints: Tints::default(),
            seen: Seen::default(),
            staged: None,
        };
        p.sync();
        p
    }

    /// The running game. Only while no turn computes on the worker
    /// ([`PlaySession::computing`]); the UI reads [`BabaPlay::rules`], [`BabaPlay::turn`],
    /// [`BabaPlay::status`] and [`BabaPlay::redo_len`] instead, which hold meanwhile.
    pub fn game(&self) -> &BabaGame {
        self.session
            .game
            .as_any()
            .downcast_ref::<BabaGame>()
            .expect("a baba session runs a BabaGame")
    }

    /// The running game, to change (e.g. its history budget).
    pub fn game_mut(&mut self) -> &mut BabaGame {
        self.session
            .game
            .as_any_mut()
            .downcast_mut::<BabaGame>()
            .expect("a baba session runs a BabaGame")
    }

    fn sync(&mut self) {
        self.session.touch();
        self.shown = self.game().to_baba_level();
        self.unused = self
            .game()
            .unused_text()
            .into_iter()
            .map(|t| (t.pos, t.layer))
            .collect();
        self.tints = Tints::of(self.game());
        let g = self.game();
        self.seen = Seen {
            rules: g.rules().to_vec(),
            turn: g.turn(),
            status: Some(tilesmith_engine::Game::status(g)),
            redo_len: tilesmith_engine::Game::redo_len(g),
        };
    }

    /// The rules that hold (board order), as of the last turn computed.
    pub fn rules(&self) -> &[FormedRule] {
        &self.seen.rules
    }

    /// Won, lost or running, as of the last turn computed.
    pub fn status(&self) -> Status {
        self.seen.status.clone().unwrap_or(Status::Running)
    }

    /// How many undone turns can be redone.
    pub fn redo_len(&self) -> usize {
        self.seen.redo_len
    }

    /// Counts every change of the shown state (for the canvas cache).
    pub fn version(&self) -> u64 {
        self.session.version()
    }

    /// The current turn (0 at the start; while a turn computes, the turn before it).
    pub fn turn(&self) -> u64 {
        self.seen.turn
    }

    /// The cells the current turn changed (empty at turn 0).
    pub fn changed(&self) -> &[Pos] {
        (self.turn() as usize)
            .checked_sub(1)
            .and_then(|i| self.log.get(i))
            .map_or(&[], |l| l.changed.as_slice())
    }

    /// Plays `input`: a move or wait is one turn, computed on a worker thread
    /// ([`PlaySession::compute`]: when it takes longer than a frame the editor shows its
    /// progress and Cancel, and [`BabaPlay::poll`] collects it); undo and restart go back (the
    /// turns undone stay in the log and can be stepped forward again until a new turn is
    /// played). Nothing happens while a turn computes.
    pub fn input(&mut self, input: Input) {
        if self.session.computing().is_some() {
            return;
        }
        match input {
            Input::Undo => {
                self.session.game.undo();
            }
            Input::Restart => {
                // The engine's restart also returns to the start when old turns were dropped
                // from its bounded undo history.
                self.session.game.step(Input::Restart);
            }
            _ => {
                let before = self.seen.rules.iter().map(|r| r.text.to_string()).collect();
                self.staged = Some((input, before, self.turn()));
                if let Some(o) = self.session.compute(move |g| g.step(input)) {
                    self.take_outcome(o);
                }
                return;
            }
        }
        self.sync();
    }

    /// Collects the turn computing on the worker once it is done: `None` while it computes
    /// and when it was played, else how it ended for the status bar (`cancelled`: the game is
    /// as before it).
    pub fn poll(&mut self) -> Option<String> {
        let o = self.session.poll::<StepReport>()?;
        self.take_outcome(o)
    }

    fn take_outcome(&mut self, o: StepOutcome<StepReport>) -> Option<String> {
        let staged = self.staged.take();
        let words = match (o, staged) {
            (StepOutcome::Done(report), Some((input, before, turn))) => {
                self.turned(input, before, turn, report);
                None
            }
            (StepOutcome::Done(_), None) => None,
            (StepOutcome::Cancelled, _) => Some("cancelled".to_string()),
            (StepOutcome::Failed(e), _) => Some(format!("failed: {e}")),
        };
        self.sync();
        words
    }

    /// Logs the turn number `turn + 1` just computed with `input`, `before` the rules that
    /// held before it.
    fn turned(&mut self, input: Input, before: Vec<String>, turn: u64, report: StepReport) {
        if self.game().turn() == turn {
            return; // won: no more turns
        }
        let after: Vec<String> = self
            .game()
            .rules()
            .iter()
            .map(|r| r.text.to_string())
            .collect();
        self.log.truncate(turn as usize);
        self.session.inputs.truncate(turn as usize);
        self.session.inputs.push(input);
        self.log.push(TurnLog {
            input,
            formed: after
                .iter()
                .filter(|r| !before.contains(r))
                .cloned()
                .collect(),
            broken: before
                .iter()
                .filter(|r| !after.contains(r))
                .cloned()
                .collect(),
            changed: report.changed.clone(),
            status: self.session.game.status(),
        });
        self.session.report = Some(report);
    }

    /// Undoes or redoes turns until the game is at turn `n` (clamped to the turns played).
    pub fn go_to(&mut self, n: u64) {
        if self.session.computing().is_some() {
            return;
        }
        while self.game().turn() > n && self.session.game.undo() {}
        while self.game().turn() < n && self.session.game.redo() {}
        self.sync();
    }
}
