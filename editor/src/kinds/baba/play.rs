//! Baba's play extras around the generic [`PlaySession`]: the game's state as a level (what
//! the canvas and inspector show), the text that forms no rule, and a turn log with the rules
//! each turn formed and broke.

use std::collections::{HashMap, HashSet};

use eframe::egui::Color32;
use tilesmith_engine::kind::baba::{Baba, BabaGame, BabaLevel, Prop};
use tilesmith_engine::{Input, Pos, Status};

use crate::doc::play::PlaySession;

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
        };
        p.sync();
        p
    }

    /// The running game.
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
    }

    /// Counts every change of the shown state (for the canvas cache).
    pub fn version(&self) -> u64 {
        self.session.version()
    }

    /// The current turn (0 at the start).
    pub fn turn(&self) -> u64 {
        self.game().turn()
    }

    /// The cells the current turn changed (empty at turn 0).
    pub fn changed(&self) -> &[Pos] {
        (self.turn() as usize)
            .checked_sub(1)
            .and_then(|i| self.log.get(i))
            .map_or(&[], |l| l.changed.as_slice())
    }

    /// Plays `input`: a move or wait is one turn; undo and restart go back (the turns undone
    /// stay in the log and can be stepped forward again until a new turn is played).
    pub fn input(&mut self, input: Input) {
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
                let before: Vec<String> =
                    self.game().rules().iter().map(|r| r.text.clone()).collect();
                let turn = self.turn();
                let report = self.session.game.step(input);
                if self.turn() == turn {
                    return; // won: no more turns
                }
                let after: Vec<String> =
                    self.game().rules().iter().map(|r| r.text.clone()).collect();
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
        }
        self.sync();
    }

    /// Undoes or redoes turns until the game is at turn `n` (clamped to the turns played).
    pub fn go_to(&mut self, n: u64) {
        while self.turn() > n && self.session.game.undo() {}
        while self.turn() < n && self.session.game.redo() {}
        self.sync();
    }
}
