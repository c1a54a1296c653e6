//! The traits every game kind implements, and the types they speak in.
//!
//! A game kind (a crate of its own, listed in `tilesmith_engine::kind`) implements
//! [`GameKind`]: check a level document, start a [`Game`] from it, and declare the kind's
//! input words ([`GameKind::inputs`], read with [`GameKind::parse_input`] and
//! [`crate::game::parse_inputs`]). A running [`Game`] steps deterministically, undoes and
//! redoes steps, and describes its cells for drawing. The CLI and the editor talk to kinds
//! only through these two traits, so nothing outside a kind's module assumes "one token per
//! cell" or "a tick is 1/5 s".
//!
//! Games of several players (board, and card games next) add three concepts, each with a
//! default that is right for a one-player puzzle: the players and the player to move
//! ([`Game::players`], [`Game::to_move`]); a list of legal inputs in the current position
//! instead of a fixed table ([`Game::legal_inputs`], [`Input::Choice`], read and written in
//! the position with [`Game::read_input`] and [`Game::input_word`], flagged by
//! [`GameKind::positional_inputs`]); and an end with a winner or a draw ([`Status::Won`]'s
//! `winner`, [`Status::Draw`]).
//!
//! Layer: this module sits below every kind and below the list of kinds
//! (`tilesmith_engine::kind`); it names no kind (`docs/architecture.md`).

use std::path::Path;

use serde::Serialize;
use serde_json::Value;

use crate::grid::{Dir, Pos};
use crate::input::{Input, InputChoice, InputError, InputSpec};
use crate::observe::Phase;
use crate::problem::Problem;
use crate::search_game::SearchGame;

/// The default budget of a game's undo history in bytes (256 MiB): see
/// [`Game::set_history_budget`]. A game that goes over it drops its oldest steps first.
pub const DEFAULT_HISTORY_BYTES: usize = 256 << 20;

/// Whether a game goes on, was won (by whom), was lost, or ended in a draw.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Status {
    /// The game goes on.
    Running,
    /// Won, with the points earned (boulder: 1–3) and, in a game of several players, the
    /// winner.
    Won {
        /// Points earned, 1–3 for boulder (spec boulder §5); 1 for the other kinds.
        points: u32,
        /// The winning player's name (one of [`Game::players`]); `None` in a one-player game,
        /// where the player won.
        winner: Option<String>,
    },
    /// Lost, with the reason in a few words (e.g. "the figure was destroyed"). In a game of
    /// several players a loss is a win of another ([`Status::Won`]); `Lost` is for a game
    /// that nobody won and that is not a draw (a one-player puzzle).
    Lost {
        /// Why the game was lost, in a few lower-case words.
        reason: String,
    },
    /// Over without a winner: a draw (stalemate, repetition, a draw condition).
    Draw {
        /// Why, in a few lower-case words ("white is stalemated").
        reason: String,
    },
}

impl Status {
    /// A win of the player (one-player games): `Won { points, winner: None }`.
    pub fn won(points: u32) -> Status {
        Status::Won {
            points,
            winner: None,
        }
    }

    /// `running`, `won`, `lost` or `draw`, as printed by `tilesmith run`.
    pub fn word(&self) -> &'static str {
        match self {
            Status::Running => "running",
            Status::Won { .. } => "won",
            Status::Lost { .. } => "lost",
            Status::Draw { .. } => "draw",
        }
    }

    /// The words [`Status::word`] gives.
    pub const WORDS: [&'static str; 4] = ["running", "won", "lost", "draw"];

    /// The words [`Game::outcome_word`] gives ([`Status::WORDS`] and `error`), for readers
    /// of recorded outcomes (replays).
    pub const OUTCOME_WORDS: [&'static str; 5] = ["running", "won", "lost", "draw", "error"];

    /// True unless [`Status::Running`].
    pub fn is_over(&self) -> bool {
        !matches!(self, Status::Running)
    }
}

/// One level rule that fired in a step, with where it matched.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RuleFiring {
    /// The phase the rule ran in (`Phase::Pre(i)` or `Phase::Post(i)`; `i` is the rule index).
    pub phase: Phase,
    /// The rule's optional `name`.
    pub name: Option<String>,
    /// The first cell (position 0 of the window) of each match, in the order applied.
    pub at: Vec<Pos>,
}

/// What one step changed and why. Built by [`Game::step`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct StepReport {
    /// The number of the step just computed, 1 for the first.
    pub step: u64,
    /// Every cell whose contents differ from before the step, row-major.
    pub changed: Vec<Pos>,
    /// Every level rule that matched at least once, in the order it ran.
    pub fired: Vec<RuleFiring>,
    /// For each phase that changed anything, the cells it changed, row-major.
    pub phases: Vec<(Phase, Vec<Pos>)>,
}

impl StepReport {
    /// The report's events as [`Game::trace`] gives them by default: each rule firing
    /// (`{"tick","phase","rule","name","at"}`, `at` the first cell of each match as
    /// `[x, y]`) and each main rule's changed cells (`{"tick","phase","changed"}`), sorted by
    /// phase: reset, `pre` rules, main rules, `post` rules (boulder §4.2).
    pub fn trace_events(&self) -> Vec<Value> {
        fn rank(p: &Phase) -> u8 {
            match p {
                Phase::Reset => 0,
                Phase::Pre(_) => 1,
                Phase::Main(_) => 2,
                Phase::Post(_) => 3,
            }
        }
        let xy =
            |ps: &[Pos]| Value::Array(ps.iter().map(|p| serde_json::json!([p.x, p.y])).collect());
        let mut events: Vec<(u8, Value)> = Vec::new();
        for f in &self.fired {
            events.push((
                rank(&f.phase),
                serde_json::json!({"tick": self.step, "phase": f.phase.label(), "rule": f.phase.rule_index(), "name": f.name, "at": xy(&f.at)}),
            ));
        }
        for (phase, cells) in &self.phases {
            if let Phase::Main(_) = phase {
                events.push((
                    rank(phase),
                    serde_json::json!({"tick": self.step, "phase": phase.label(), "changed": xy(cells)}),
                ));
            }
        }
        // A stable sort: within a phase, the order the step reported.
        events.sort_by_key(|(r, _)| *r);
        events.into_iter().map(|(_, v)| v).collect()
    }
}

/// One drawable layer of a cell, bottom first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Layer {
    /// The token name (`stone`, `text_baba`, …).
    pub token: String,
    /// The direction the object faces, when it has one.
    pub dir: Option<Dir>,
}

/// A running game of one kind. Created by [`GameKind::start`]. `Send`: the editor moves a
/// game to a worker thread for a step and back ([`Game::set_cancel_flag`]), so a kind keeps
/// no `Rc` or other thread-bound state in its game (falling's Lua state is built with mlua's
/// `send` feature).
pub trait Game: Send {
    /// The game's kind (its rules): a game reaches its kind directly, not by looking its name
    /// up in the list of kinds. `kind().name()` is the name (`boulder`, …).
    fn kind(&self) -> &'static dyn GameKind;
    /// `(width, height)` in cells.
    fn size(&self) -> (usize, usize);
    /// Computes one step (a tick for boulder) with `input`, records it for undo and reports what
    /// changed. Once the game is over, a step changes nothing. [`Input::Undo`] undoes the last
    /// step and [`Input::Restart`] undoes all of them (both also after the game is over).
    fn step(&mut self, input: Input) -> StepReport;
    /// [`Game::step`] for a caller that reads no report (`tilesmith run` without `--trace`,
    /// replays, the check of a solution): the game is left exactly as `step` leaves it, but
    /// a kind whose report costs time skips building it (boulder: the sorted list of changed
    /// cells and the rule events). By default `step` with its report dropped (issue #29).
    fn step_quiet(&mut self, input: Input) {
        let _ = self.step(input);
    }
    /// Undoes the last step; false when there is nothing to undo.
    fn undo(&mut self) -> bool;
    /// Redoes the last undone step exactly; false when there is nothing to redo.
    fn redo(&mut self) -> bool;
    /// Undoes the last step and forgets it, so that it cannot be redone: for a step that was
    /// computed although it was cancelled (the cancel came after the kind's last check of its
    /// flag), which the caller takes back to leave the game as before the step, redo list
    /// included. False when there is nothing to undo. The default is [`Game::undo`], which
    /// leaves the step redoable; a kind whose redo list would then hold it overrides this.
    fn take_back(&mut self) -> bool {
        self.undo()
    }
    /// Number of steps currently applied (the position in the history).
    fn steps(&self) -> u64;
    /// Number of steps that can be redone.
    fn redo_len(&self) -> usize;
    /// Bytes held by the undo history (the other side of every recorded step: changed
    /// cells, counters, RNG states), as the kind counts them; the figure the budget of
    /// [`Game::set_history_budget`] is compared with. 0 by default (a kind that records no
    /// history or does not count it).
    fn history_bytes(&self) -> usize {
        0
    }
    /// Sets the most bytes the undo history may hold ([`DEFAULT_HISTORY_BYTES`] unless
    /// set). Whenever a step would go over it, the oldest steps are dropped first (then,
    /// when lowering the budget leaves no applied step to drop, the redoable ones, newest
    /// first); [`Input::Restart`] still returns to the start, rebuilt from the level the game
    /// began with, and [`Game::history_trimmed`] says how many steps were dropped. 0 keeps
    /// no history at all. Ignored by default.
    fn set_history_budget(&mut self, bytes: usize) {
        let _ = bytes;
    }
    /// How many of the oldest applied steps are no longer in the undo history (dropped to
    /// keep within [`Game::set_history_budget`]): undo stops after going back to step
    /// `history_trimmed()`. 0 while the whole game can be undone (the default), and again
    /// after a restart.
    fn history_trimmed(&self) -> u64 {
        0
    }
    /// Gives the game a flag that abandons a step while it computes: when another thread sets
    /// `flag` to true during [`Game::step`] (or [`Game::redo`]), a kind that honours it stops
    /// the step and leaves the game exactly as before it (same [`Game::state_hash`], same
    /// history; the returned report changes nothing). The caller that set the flag knows the
    /// step was cancelled, and clears the flag before the next step. `None` removes the flag.
    /// Ignored by default (a kind whose steps are always short). Used by the editor, which
    /// computes long steps on a worker thread with a Cancel button.
    fn set_cancel_flag(&mut self, flag: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>) {
        let _ = flag;
    }
    /// Won, lost or running.
    fn status(&self) -> Status;
    /// True while a step still computes a turn: by default until the game is won or lost.
    /// A kind whose lost state is not final (baba: nothing is YOU, but MOVE objects may
    /// rebuild a YOU rule) keeps taking turns then; replays and the CLI follow this.
    fn takes_turns(&self) -> bool {
        !self.status().is_over()
    }
    /// An error that stopped the game and that `tilesmith run` reports by exiting 1: a
    /// falling level's script failed or ran over its budget (`script error: script line 3:
    /// …`). `None` by default and for a game that ended by its own rules.
    fn error(&self) -> Option<String> {
        None
    }
    /// The error of [`Game::error`] as a problem located where the game's rules are written,
    /// when the game knows that place: board, the move block that failed, at its line and
    /// column of the ZRF file ([`Problem::file`]; at `$.rules.zrf` with the line and column
    /// in the message when the rules are inline without a file name); falling, at the
    /// level's `script` with the script's line (column 1) when known. A problem without a
    /// file but with a column is at a place of the level's own source text: the document
    /// keeps that line when it was read from that source
    /// (`tilesmith_engine::Document::source`) and otherwise locates the problem by its path
    /// (`tilesmith_engine::Document::stop_problem`). `None` by default: `tilesmith run` then
    /// places the error at the level as a whole.
    fn error_problem(&self) -> Option<Problem> {
        None
    }
    /// Warnings about the game being played, as `check` gives them for the level but only
    /// those of what is played (a board file's variant: an option that stood for JavaScript,
    /// so the game is not quite the file's). `tilesmith run` prints them on stderr before the
    /// summary, so that a run never silently plays another game. Empty by default.
    fn warnings(&self) -> Vec<Problem> {
        Vec::new()
    }
    /// The players by name, in turn order of the rules (board: the ZRF's `players`). Empty
    /// (the default) for a one-player game, whose player has no name.
    fn players(&self) -> Vec<String> {
        Vec::new()
    }
    /// The player to move, an index into [`Game::players`]; `None` when the game is over
    /// and (the default) in a one-player game.
    fn to_move(&self) -> Option<usize> {
        None
    }
    /// The inputs that can be played now, in the order an editor offers them, each with its
    /// word and a label. The default is the kind's fixed table ([`GameKind::inputs`]), the
    /// same in every position. A kind whose moves depend on the position (board: the legal
    /// whole turns, as [`Input::Choice`]s with their notations) lists them here; the game
    /// itself takes [`Input::Choice`]`(n)` for entry `n` of the list.
    fn legal_inputs(&self) -> Vec<InputChoice> {
        self.kind().inputs().iter().map(InputChoice::from).collect()
    }
    /// Reads one input word (no repeat count) in the current position. The default reads
    /// it with the kind's [`GameKind::parse_input`]; a kind with
    /// [`GameKind::positional_inputs`] looks it up in [`Game::legal_inputs`].
    ///
    /// # Errors
    /// [`InputError::Unknown`] for a word that is no input of the kind,
    /// [`InputError::NotLegal`] (listing the legal words) for one that is not legal here.
    fn read_input(&self, word: &str) -> Result<Input, InputError> {
        self.kind().parse_input(word)
    }
    /// The word of `input` in the current position (before it is played), which
    /// [`Game::read_input`] reads back to it here: for recording a replay. The default is
    /// [`Input::word`], and `None` for an [`Input::Choice`], which has no word in a kind
    /// without a list of legal inputs.
    fn input_word(&self, input: Input) -> Option<String> {
        match input {
            Input::Choice(_) => None,
            other => Some(other.word().to_string()),
        }
    }
    /// perft: the number of sequences of `depth` legal inputs from the current position, for
    /// a kind whose inputs are chosen from a list (board: whole turns; by the conventions of
    /// the kind's perft tables). With `end_is_leaf`, a game that ends before `depth` counts
    /// as one sequence. `None` (the default) for a kind without such a list; `Some(Err(…))`
    /// when the moves cannot be generated (a runaway move block), located like
    /// [`Game::error_problem`]: at the failing move block's line and column in its rules file
    /// (`Problem::file` set), or at a JSON path of the level when the rules have no file.
    fn perft(&self, depth: u32, end_is_leaf: bool) -> Option<Result<u64, Problem>> {
        let _ = (depth, end_is_leaf);
        None
    }
    /// A search-ready copy of the current position ([`SearchGame`]: moves as small numbers,
    /// no change reports, undo, a state key), for the solver, the computer player and
    /// playouts (`tilesmith_search`); the one way a search reaches a kind. `None` (the default)
    /// for a kind that does not offer search. The copy starts with an empty path: undo on it
    /// goes back to here, not to the game's earlier steps.
    fn searcher(&self) -> Option<Box<dyn SearchGame>> {
        None
    }
    /// The `--trace` events of the step just computed, one JSON object per event, in the
    /// order they happened: `input` is what [`Game::step`] was given and `report` what it
    /// returned, and `self` is the game after the step. The default lists the report's rule
    /// firings (`{"tick","phase","rule","name","at":[[x, y], …]}`) and the cells each main
    /// rule changed (`{"tick","phase","changed":[[x, y], …]}`) in phase order (boulder
    /// §4.2); a kind whose step is not made of rules describes its own (board: the ply, the
    /// mover, the move and each position it changed).
    fn trace(&self, input: Input, report: &StepReport) -> Vec<Value> {
        let _ = input;
        report.trace_events()
    }
    /// How the game stands in one word, as summaries and replays write it: `error` when it
    /// stopped on an error of its level's program ([`Game::error`]: a board move block that
    /// runs away, a falling script that fails), which is no result, else
    /// [`Status::word`] (`running`, `won`, `lost`, `draw`).
    fn outcome_word(&self) -> &'static str {
        if self.error().is_some() {
            "error"
        } else {
            self.status().word()
        }
    }
    /// The points this game has earned towards a campaign's unlocking (spec boulder §2.1,
    /// §5 items 5–7; see `docs/campaign.md`): 0 unless the game is won by the campaign's
    /// player. The default gives the points of [`Status::Won`] when it names no winner (a
    /// one-player win: boulder 1–3 from the level's `gems` and `ticks`, baba 1, a falling
    /// level's goal 1) and 0 otherwise. A game of several players overrides it (board: 1
    /// when the player to move at the start wins). Never more than
    /// [`GameKind::max_points`] of the level.
    fn points_earned(&self) -> u32 {
        match self.status() {
            Status::Won {
                points,
                winner: None,
            } => points,
            _ => 0,
        }
    }
    /// The one-line JSON summary printed by `tilesmith run`.
    fn summary(&self) -> Value;
    /// The current state as a level document of this kind, which loads again.
    fn to_level(&self) -> Value;
    /// The layers of the cell at `pos`, bottom first.
    fn layers(&self, pos: Pos) -> Vec<Layer>;
    /// A 64-bit FNV-1a hash of the whole state (map, values, globals, status), for replays.
    fn state_hash(&self) -> u64;
    /// The concrete game, so that a kind's editor module can reach it behind `dyn Game`
    /// (`game.as_any().downcast_ref::<BoulderGame>()`).
    fn as_any(&self) -> &dyn std::any::Any;
    /// The concrete game, mutably; see [`Game::as_any`].
    fn as_any_mut(&mut self) -> &mut dyn std::any::Any;
}

// A game in a `Debug` output (a replay's outcome, a test's failure): its kind and summary.
impl std::fmt::Debug for dyn Game {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Game({}, {})", self.kind().name(), self.summary())
    }
}

/// A game kind: the rules of one family of tile puzzles.
pub trait GameKind: Sync {
    /// The kind's name as written in a level's `"kind"` field.
    fn name(&self) -> &'static str;
    /// All problems (errors and warnings) of a parsed level document, with their JSON paths.
    fn check(&self, doc: &Value) -> Vec<Problem>;
    /// Starts a game from a level document with RNG seed `seed`.
    ///
    /// # Errors
    /// The level's error-severity problems when it cannot be played.
    fn start(&self, doc: &Value, seed: u64) -> Result<Box<dyn Game>, Vec<Problem>>;
    /// How many steps make one second at normal speed (boulder: 5).
    fn steps_per_second(&self) -> f64;
    /// The kind's input words in the order an editor shows them, `.` (wait) first. Each
    /// [`InputSpec::word`] equals [`Input::word`] of its input.
    fn inputs(&self) -> &'static [InputSpec];
    /// Reads one input word (no repeat count) for a level of this kind. The default looks the
    /// word up in [`GameKind::inputs`], ignoring ASCII case.
    ///
    /// # Errors
    /// [`InputError::Unknown`] naming the word and listing the kind's words.
    fn parse_input(&self, word: &str) -> Result<Input, InputError> {
        crate::input::lookup(self.name(), self.inputs(), word)
    }
    /// True when the kind's moves are words that mean something only in a position (a board
    /// move `c3-d4`): they are then read one at a time through the running game
    /// ([`Game::read_input`], `tilesmith_engine::replay::play_words`) instead of with
    /// [`GameKind::parse_input`], and [`GameKind::inputs`] holds only the words every
    /// position takes (`undo`, `restart`). False by default.
    fn positional_inputs(&self) -> bool {
        false
    }
    /// The level `doc` set to play its variant `title` (`tilesmith run` and `perft` with
    /// `--variant`): for a kind whose levels hold several games to choose from (board: the
    /// `(variant …)`s of a ZRF file, by title). Whether the level has that variant is checked
    /// when it is checked or started, with the level's other problems.
    ///
    /// # Errors
    /// Why the level cannot play a variant; by default, that the kind's levels have none.
    fn with_variant(&self, doc: &Value, title: &str) -> Result<Value, String> {
        let _ = (doc, title);
        Err(format!("{} levels have no variants", self.name()))
    }
    /// The most points a game of the level `doc` can earn in a campaign
    /// ([`Game::points_earned`]), for checking that a campaign's unlock thresholds can be
    /// reached (spec boulder §2.1, §5 item 7; `docs/campaign.md`). 1 by default (a level is
    /// won or not); boulder 3 (spec §5 item 5), a falling level 1 with a `goal` and 0
    /// without (it cannot be won). `doc` is a level document of this kind that checks
    /// without errors; for another document the answer is only an estimate.
    fn max_points(&self, doc: &Value) -> u32 {
        let _ = doc;
        1
    }
    /// The kinds of file the kind opens besides JSON levels, each turned into a level
    /// document by [`GameKind::open_file`] (falling: FPGDL programs, `.lua`; board: ZRF rules
    /// files, `.zrf`). Empty by default.
    fn file_types(&self) -> &'static [FileType] {
        &[]
    }
    /// Turns the text of a file of one of [`GameKind::file_types`] (read from `path`) into a
    /// level document of this kind. `path` names the file in the level (falling: the level is
    /// named after the file's stem) and in problems (board: `game.zrf:12:5: …`).
    ///
    /// # Errors
    /// The file's problems, each with its line and column in the file. By default, that the
    /// kind opens no such file.
    fn open_file(&self, text: &str, path: &Path) -> Result<OpenedFile, Vec<Problem>> {
        let _ = text;
        Err(vec![Problem {
            line: Some(1),
            column: Some(1),
            ..Problem::error(
                crate::problem::JsonPath::root(),
                format!(
                    "{} levels are not opened from {} files",
                    self.name(),
                    path.display()
                ),
            )
        }])
    }
    /// The line of the source text a document was opened from ([`OpenedFile::source`]) that a
    /// problem's message names (falling: `script line N: …`), for placing the problems of such
    /// a document; `None` (the default) puts them at line 1.
    fn source_line(&self, message: &str) -> Option<usize> {
        let _ = message;
        None
    }
    /// Reads the files the level document `doc` of this kind refers to, relative to the
    /// folder `base` of the level (or replay) that holds it, into the document (board: a
    /// rules file named by `"rules": "game.zrf"`, with the kind's size limit). Nothing by
    /// default.
    ///
    /// Returns the problems of reading them, at the members that name them (unlocated);
    /// such a member is then left as it was.
    fn resolve_files(&self, doc: &mut Value, base: &Path) -> Vec<Problem> {
        let _ = (doc, base);
        Vec::new()
    }
}

/// A kind of file a game kind opens besides JSON levels ([`GameKind::file_types`]): how it is
/// named, read and shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileType {
    /// The file name's extension, without the dot, matched ignoring ASCII case (`lua`).
    pub extension: &'static str,
    /// The kind's word for such a file, in messages (`FPGDL program`, `rules file`).
    pub word: &'static str,
    /// The name of the open dialog's filter for these files (`FPGDL program (Lua)`).
    pub label: &'static str,
    /// The name of these files inside the dialog's filter for every file the editor opens
    /// (`Level (JSON), FPGDL program (Lua) or board rules (ZRF)`).
    pub short_label: &'static str,
    /// How the document stands once opened.
    pub opening: FileOpening,
    /// The most bytes such a file may have, read as a whole text file with
    /// [`crate::read::read_text_file`] (problems saying `cannot read the file: …` at 1:1);
    /// `None`: read as a level file is (`tilesmith_engine::document::MAX_FILE_BYTES`, a
    /// problem at the first byte that is not UTF-8).
    pub max_bytes: Option<u64>,
    /// For a type the editor's File menu offers an "Import WORD…" item for: what the item
    /// does, in a sentence (its hover text). `None`: opened with File → Open only.
    pub import_about: Option<&'static str>,
}

/// How a document opened from a kind's own file ([`FileType`]) stands in the editor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileOpening {
    /// The file becomes the level (falling: a program's setup calls): the new level is
    /// unsaved work, and Save As writes it as a level.
    Import,
    /// The level refers to the file (board: its rules): there is nothing to save yet, and
    /// Save As writes a level that refers to the file.
    Refer,
}

/// A file of a kind's own format opened as a level document ([`GameKind::open_file`]).
#[derive(Clone, Debug, PartialEq)]
pub struct OpenedFile {
    /// The level document.
    pub value: Value,
    /// The file's text when the document's problems are placed at its lines rather than at
    /// the level's JSON (falling: the program, which is also the level's `script`, see
    /// [`GameKind::source_line`]); `None`: placed in the JSON text written from `value` (or in
    /// the files the problems name).
    pub source: Option<String>,
}

/// Reads a text of input words for a level of `kind`: words separated by white space, each
/// one step, or `WORD*N` for N steps of that input (N ≥ 1, decimal digits only). An empty
/// text is no inputs. Each word is read with [`GameKind::parse_input`], so this is for kinds
/// whose words mean the same in every position (not [`GameKind::positional_inputs`]; read
/// those through the game with `tilesmith_engine::replay::play_words`).
///
/// The steps are counted before anything is stored, so a text asking for more than
/// [`MAX_REPLAY_TICKS`](crate::input::MAX_REPLAY_TICKS) steps is an error, not an allocation.
///
/// # Errors
/// The first bad word, with its number in the text: a word that is no input of `kind`
/// ([`InputError::Unknown`]), a malformed count such as `R*0`, `R*`, `R*-1`, `R*abc`, `R*2*3`
/// or `*3` ([`InputError::BadCount`]), or too many steps in all ([`InputError::TooMany`]).
pub fn parse_inputs(kind: &dyn GameKind, text: &str) -> Result<Vec<Input>, InputError> {
    crate::input::parse_inputs_with(text, |word| kind.parse_input(word))
}
