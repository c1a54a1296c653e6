//! The play session: a running game started from the design, separate from the edits.
//!
//! The session owns a [`BoulderGame`] built from a copy of the level; nothing here touches the
//! design. Ticks run at the kind's speed (5 ticks/s for boulder) times a speed factor; the
//! inputs are kept (one per tick) so a session can be recorded as a replay.

use tilesmith_engine::kind::boulder::{BoulderGame, BoulderLevel, Global};
use tilesmith_engine::replay::{Replay, ReplayLevel};
use tilesmith_engine::{Game as _, Input, Status, StepReport};

/// Boulder runs at 5 ticks per second (spec boulder §4.2).
pub const TICKS_PER_SECOND: f64 = 5.0;
/// The most ticks one frame may compute while running (so a slow frame cannot stall).
pub const MAX_TICKS_PER_FRAME: usize = 8;

/// A game being played in the play pane.
#[derive(Debug)]
pub struct PlaySession {
    /// The running game.
    pub game: BoulderGame,
    /// The RNG seed it started with.
    pub seed: u64,
    /// The input of every tick computed or undone-but-redoable, tick 1 first.
    pub inputs: Vec<Input>,
    /// What the last step changed (cleared by undo and scrubbing).
    pub report: Option<StepReport>,
    /// True while ticks run by themselves.
    pub running: bool,
    /// Speed factor (1 = the game's speed).
    pub speed: f32,
    /// The input used by "Step" and while running when no arrow key is held.
    pub chosen: Input,
    /// Fractional ticks owed while running.
    acc: f64,
    /// The fired-rules entry under the pointer, as an index into `report.fired`.
    pub hovered_rule: Option<usize>,
    /// Changes whenever the board may have changed (unique across sessions), for caches.
    version: u64,
}

fn next_version() -> u64 {
    static V: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    V.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

impl PlaySession {
    /// Starts a game of a copy of `level` with `seed`.
    pub fn new(level: BoulderLevel, seed: u64) -> Self {
        Self {
            game: BoulderGame::new(level, seed),
            seed,
            inputs: Vec::new(),
            report: None,
            running: false,
            speed: 1.0,
            chosen: Input::Wait,
            acc: 0.0,
            hovered_rule: None,
            version: next_version(),
        }
    }

    /// A number that changes whenever the board may have changed.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Computes one tick with `input`. Does nothing once the game is over.
    pub fn step(&mut self, input: Input) {
        if self.game.status().is_over() {
            self.running = false;
            return;
        }
        let n = self.game.steps() as usize;
        self.inputs.truncate(n);
        self.inputs.push(input);
        self.report = Some(self.game.step(input));
        self.version = next_version();
        self.hovered_rule = None;
        if self.game.status().is_over() {
            self.running = false;
        }
    }

    /// Undoes one tick; false at tick 0.
    pub fn back(&mut self) -> bool {
        self.report = None;
        self.hovered_rule = None;
        self.version = next_version();
        self.game.undo()
    }

    /// Redoes one undone tick; false when there is none.
    pub fn forward(&mut self) -> bool {
        self.report = None;
        self.hovered_rule = None;
        self.version = next_version();
        self.game.redo()
    }

    /// Goes back or forward in the history to tick `t` (clamped to what exists).
    pub fn scrub(&mut self, t: u64) {
        while self.game.steps() > t && self.back() {}
        while self.game.steps() < t && self.forward() {}
    }

    /// The number of ticks in the history (applied plus redoable).
    pub fn history_len(&self) -> u64 {
        self.game.steps() + self.game.redo_len() as u64
    }

    /// Advances time by `dt` seconds while running: computes the ticks due, each with `held`
    /// (the arrow held on the keyboard) or else the chosen input.
    pub fn advance(&mut self, dt: f64, held: Option<Input>) {
        if !self.running {
            self.acc = 0.0;
            return;
        }
        self.acc += dt.max(0.0) * TICKS_PER_SECOND * self.speed as f64;
        let mut n = 0;
        while self.acc >= 1.0 && n < MAX_TICKS_PER_FRAME && self.running {
            self.acc -= 1.0;
            self.step(held.unwrap_or(self.chosen));
            n += 1;
        }
        if n == MAX_TICKS_PER_FRAME {
            self.acc = 0.0;
        }
    }

    /// Gems collected so far (the `gems` global).
    pub fn gems(&self) -> u32 {
        self.game.globals()[Global::Gems as usize]
    }

    /// Ticks left before the 1-point limit runs out (0 when past it).
    pub fn time_left(&self) -> u32 {
        let t = self.game.globals()[Global::Ticks as usize];
        self.game.level().ticks[0].saturating_sub(t)
    }

    /// The status in a few words: `running`, `won (2 points)`, `lost: …`.
    pub fn status_text(&self) -> String {
        match self.game.status() {
            Status::Running => "running".into(),
            Status::Won { points } => format!("won ({points} point(s))"),
            Status::Lost { reason } => format!("lost: {reason}"),
        }
    }

    /// The session as a replay (see `tilesmith_engine::replay`): the level (`level_file` when
    /// given, else embedded), the seed, the inputs of the ticks played and the final state's
    /// hash and status.
    pub fn replay(&self, level_file: Option<&std::path::Path>) -> Replay {
        let n = self.game.steps() as usize;
        let level = match level_file {
            Some(f) => ReplayLevel::Path(f.to_path_buf()),
            None => ReplayLevel::Embedded(self.game.level().to_json()),
        };
        Replay {
            level,
            seed: self.seed,
            inputs: self.inputs.iter().take(n).copied().collect(),
            ticks: n as u64,
            hash: None,
            status: None,
            summary: None,
        }
        .recorded(&self.game)
    }
}
