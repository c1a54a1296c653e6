//! Replay files: a level, a seed, the inputs, and a fingerprint of the final state, so that a
//! designer's play-through becomes a regression test (`tilesmith run --replay FILE`).
//!
//! Format (JSON):
//! ```json
//! { "tilesmith": "replay", "version": 1,
//!   "level": "../levels/boulder/first-steps.json",
//!   "seed": 0, "inputs": "R*4 D . ML",
//!   "expect": { "status": "won", "hash": "9f0c…", "summary": { … } } }
//! ```
//! `level` is a path relative to the replay file's folder, or a level document embedded as an
//! object. `inputs` are the level kind's input words ([`crate::game::parse_inputs`]), one
//! step each or `WORD*N` for N steps; replays are written with runs of three or more equal
//! inputs collapsed ([`crate::input::format_inputs`]). For a kind whose words depend on the
//! position ([`GameKind::positional_inputs`], board moves such as `c3-d4`), the words are
//! read one at a time through the game, each in the position where it is played
//! ([`play_words`]). `ticks` (optional) is the number of steps, default the number of
//! inputs; steps past the inputs get no key. `hash` is [`crate::Game::state_hash`] of the
//! final state, as 16 hex digits; `status` is `running`, `won`, `lost` or `draw`.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use crate::document::{Document, LoadError, load_bytes, load_file};
use crate::game::{Game, GameKind, Status, StepReport};
use crate::input::Input;
use crate::input::{
    InputError, MAX_REPLAY_TICKS, WordRun, format_inputs, format_words, split_inputs,
};
use crate::kind::kind_of;
use crate::problem::{JsonPath, Problem, locate, quote_at_most};

/// Where a replay's level comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum ReplayLevel {
    /// A file, relative to the replay file's folder when read from a file.
    Path(PathBuf),
    /// A level document embedded in the replay.
    Embedded(Value),
}

/// A replay: level, seed, inputs and the expected outcome.
#[derive(Clone, Debug, PartialEq)]
pub struct Replay {
    /// The level played.
    pub level: ReplayLevel,
    /// The RNG seed.
    pub seed: u64,
    /// One input per step. For a kind with [`GameKind::positional_inputs`] these are the
    /// inputs the words were read to, in the positions where they were played
    /// ([`Input::Choice`]s), and [`Replay::words`] holds the words.
    pub inputs: Vec<Input>,
    /// For a kind with [`GameKind::positional_inputs`]: the input words, one per step played
    /// (written with runs collapsed, [`format_words`]), which [`Replay::to_json`] writes.
    /// `None` for the other kinds, whose words are those of `inputs`.
    pub words: Option<Vec<String>>,
    /// Number of steps (at least the number of inputs is usual; extra steps get no key).
    pub ticks: u64,
    /// The final state's hash, when recorded.
    pub hash: Option<u64>,
    /// The final `status` word (`running`, `won`, `lost`, `draw`), when recorded.
    pub status: Option<String>,
    /// The final summary line, when recorded (informational).
    pub summary: Option<Value>,
    /// The replay file's text, when read from text: problems of an embedded level are located
    /// in it.
    pub source: Option<String>,
}

/// The result of checking a replay.
#[derive(Debug)]
pub struct ReplayOutcome {
    /// The game after the replay.
    pub game: Box<dyn Game>,
    /// The final state's hash.
    pub hash: u64,
    /// True when the recorded hash and status (if any) equal the replayed ones.
    pub matches: bool,
}

impl ReplayOutcome {
    /// Why the replayed final state is not the one `replay` recorded (its hash and status
    /// named beside the recorded ones), or `None` when it is
    /// ([`ReplayOutcome::matches`]).
    pub fn mismatch(&self, replay: &Replay) -> Option<String> {
        (!self.matches).then(|| {
            format!(
                "the final state differs from the recorded one (hash {:016x}, recorded {}; status {}, recorded {})",
                self.hash,
                replay.hash.map_or("none".into(), |h| format!("{h:016x}")),
                self.game.outcome_word(),
                replay.status.as_deref().unwrap_or("none"),
            )
        })
    }
}

fn bad(path: JsonPath, msg: impl Into<String>) -> Vec<Problem> {
    vec![Problem::error(path, msg)]
}

/// Problems of an embedded level, moved under `$.level` of the replay (unlocated).
fn in_level(problems: Vec<Problem>) -> Vec<Problem> {
    problems
        .into_iter()
        .map(|mut p| {
            p.path
                .0
                .insert(0, crate::problem::PathSeg::Key("level".into()));
            p.line = None;
            p.column = None;
            p
        })
        .collect()
}

/// The kind of a replay's level, which its input words are read with. A level file is read
/// for it; a file that cannot be read or names no known kind is a problem at `$.level`.
fn level_kind(level: &ReplayLevel, root: &JsonPath) -> Result<&'static dyn GameKind, Vec<Problem>> {
    match level {
        ReplayLevel::Embedded(v) => kind_of(v).map_err(|mut p| {
            p.path
                .0
                .insert(0, crate::problem::PathSeg::Key("level".into()));
            vec![p]
        }),
        ReplayLevel::Path(p) => {
            let name = p.display().to_string();
            load_file(p).map(|doc| doc.kind).map_err(|e| {
                let why = match e {
                    LoadError::Io(e) => e.to_string(),
                    LoadError::Problems(problems) => problems
                        .first()
                        .map_or_else(|| "not a level".into(), |q| q.render(&name)),
                };
                bad(
                    root.key("level"),
                    format!("cannot read the level {}: {why}", quote_at_most(&name, 240)),
                )
            })
        }
    }
}

/// The replay's `level`: a path (relative to `base`, the replay's folder) or an embedded
/// level, whose files are read in now.
fn read_level(
    o: &Map<String, Value>,
    base: &Path,
    root: &JsonPath,
) -> Result<ReplayLevel, Vec<Problem>> {
    Ok(match o.get("level") {
        Some(Value::String(s)) => ReplayLevel::Path(base.join(s)),
        Some(Value::Object(_)) => {
            // Files the embedded level refers to (a board level's rules) are relative to
            // the replay's folder: read them in now.
            let mut v = o["level"].clone();
            let problems = crate::document::resolve_files(&mut v, base);
            if !problems.is_empty() {
                return Err(in_level(problems));
            }
            ReplayLevel::Embedded(v)
        }
        _ => {
            return Err(bad(
                root.key("level"),
                "\"level\" must be a path string or an embedded level object",
            ));
        }
    })
}

/// The replay's `seed` (0 when absent).
fn read_seed(o: &Map<String, Value>, root: &JsonPath) -> Result<u64, Vec<Problem>> {
    Ok(match o.get("seed") {
        None => 0,
        Some(s) => s.as_u64().ok_or_else(|| {
            bad(
                root.key("seed"),
                "\"seed\" must be a non-negative whole number",
            )
        })?,
    })
}

/// The replay's `inputs`, as written (empty when absent).
fn read_words<'a>(o: &'a Map<String, Value>, root: &JsonPath) -> Result<&'a str, Vec<Problem>> {
    Ok(match o.get("inputs") {
        None => "",
        Some(Value::String(s)) => s.as_str(),
        Some(_) => {
            return Err(bad(
                root.key("inputs"),
                "\"inputs\" must be a string of input words separated by spaces",
            ));
        }
    })
}

/// The replay's `ticks`, at most [`MAX_REPLAY_TICKS`] (`None` when absent).
fn read_ticks(o: &Map<String, Value>, root: &JsonPath) -> Result<Option<u64>, Vec<Problem>> {
    Ok(match o.get("ticks") {
        None => None,
        Some(t) => match t.as_u64() {
            Some(n) if n <= MAX_REPLAY_TICKS => Some(n),
            Some(n) => {
                return Err(bad(
                    root.key("ticks"),
                    format!("\"ticks\" is too large ({n}; at most {MAX_REPLAY_TICKS})"),
                ));
            }
            None => {
                return Err(bad(
                    root.key("ticks"),
                    "\"ticks\" must be a non-negative whole number",
                ));
            }
        },
    })
}

/// What a replay's `expect` holds (each `None` when absent).
struct Expect {
    /// The final state's hash.
    hash: Option<u64>,
    /// The final status word.
    status: Option<String>,
    /// The final summary.
    summary: Option<Value>,
}

/// The replay's `expect`.
fn read_expect(o: &Map<String, Value>, root: &JsonPath) -> Result<Expect, Vec<Problem>> {
    let expect = match o.get("expect") {
        None => None,
        Some(Value::Object(e)) => Some(e),
        Some(_) => return Err(bad(root.key("expect"), "\"expect\" must be an object")),
    };
    let ep = root.key("expect");
    let hash = match expect.and_then(|e| e.get("hash")) {
        None => None,
        Some(h) => Some(
            h.as_str()
                .filter(|s| s.len() == 16 && s.bytes().all(|b| b.is_ascii_hexdigit()))
                .and_then(|s| u64::from_str_radix(s, 16).ok())
                .ok_or_else(|| bad(ep.key("hash"), "\"hash\" must be 16 hex digits"))?,
        ),
    };
    let status = match expect.and_then(|e| e.get("status")) {
        None => None,
        Some(Value::String(s)) if Status::OUTCOME_WORDS.contains(&s.as_str()) => Some(s.clone()),
        Some(_) => {
            return Err(bad(
                ep.key("status"),
                "\"status\" must be \"running\", \"won\", \"lost\", \"draw\" or \"error\"",
            ));
        }
    };
    let summary = expect.and_then(|e| e.get("summary")).cloned();
    Ok(Expect {
        hash,
        status,
        summary,
    })
}

/// True when the first [`crate::campaign::KIND_PEEK_BYTES`] bytes of `path` hold
/// `"tilesmith": "replay"`, the member every replay file starts with (a replay beside its
/// level, `NAME.intended.replay.json`): how `tilesmith check` tells a replay from a level.
pub fn is_replay_file(path: &Path) -> bool {
    crate::read::peek_member(
        path,
        crate::campaign::KIND_PEEK_BYTES,
        "tilesmith",
        "replay",
    )
}

impl Replay {
    /// Reads a replay from JSON text. Relative level paths are resolved against `base`; a level
    /// file is read to learn its kind, whose words the `inputs` are.
    ///
    /// # Errors
    /// Located problems for invalid JSON, members of the wrong shape, a level file that cannot
    /// be read (at `$.level`), or input words the level's kind does not have (at `$.inputs`).
    pub fn from_text(text: &str, base: &Path) -> Result<Replay, Vec<Problem>> {
        crate::document::check_json_size(text)?;
        let v: Value = serde_json::from_str(text).map_err(|e| {
            vec![Problem {
                line: Some(e.line().max(1)),
                column: Some(e.column().max(1)),
                ..Problem::error(JsonPath::root(), format!("invalid JSON: {e}"))
            }]
        })?;
        let repeated = crate::json_keys::repeated_keys(text);
        if !repeated.is_empty() {
            return Err(repeated);
        }
        let mut r = Self::from_json(&v, base).map_err(|mut p| {
            locate(text, &mut p);
            p
        })?;
        r.source = Some(text.to_string());
        Ok(r)
    }

    /// Reads a replay from a parsed JSON value; see [`Replay::from_text`].
    ///
    /// # Errors
    /// Problems for members of the wrong shape, a `version` other than 1 (absent reads as 1),
    /// an unreadable level, or bad input words.
    pub fn from_json(v: &Value, base: &Path) -> Result<Replay, Vec<Problem>> {
        let root = JsonPath::root();
        let o = v
            .as_object()
            .ok_or_else(|| bad(root.clone(), "a replay must be a JSON object"))?;
        if o.get("tilesmith").and_then(Value::as_str) != Some("replay") {
            return Err(bad(
                root.key("tilesmith"),
                "not a replay file (\"tilesmith\": \"replay\" is missing)",
            ));
        }
        // The versions this program reads (issue #30: a replay of version 99 was played).
        match o.get("version") {
            None => {}
            Some(v) if v.as_u64() == Some(1) => {}
            Some(v) => {
                return Err(bad(
                    root.key("version"),
                    format!(
                        "replay version {} is not one this program reads (it reads 1)",
                        crate::level_json::shown(v)
                    ),
                ));
            }
        }
        let level = read_level(o, base, &root)?;
        let seed = read_seed(o, &root)?;
        let words = read_words(o, &root)?;
        let ticks = read_ticks(o, &root)?;
        let Expect {
            hash,
            status,
            summary,
        } = read_expect(o, &root)?;
        // The words are read through the level's kind (every member's shape is checked first).
        let kind = level_kind(&level, &root)?;
        let mut replay = Replay {
            level,
            seed,
            inputs: Vec::new(),
            words: None,
            ticks: 0,
            hash,
            status,
            summary,
            source: None,
        };
        replay.read_inputs(kind, words, ticks, &root)?;
        Ok(replay)
    }

    /// Reads the input `words` into `self.inputs` (and, for a kind whose words mean something
    /// only in their positions, `self.words`), and sets `self.ticks`: `ticks` when given,
    /// else one per input.
    fn read_inputs(
        &mut self,
        kind: &'static dyn GameKind,
        words: &str,
        ticks: Option<u64>,
        root: &JsonPath,
    ) -> Result<(), Vec<Problem>> {
        if kind.positional_inputs() {
            // The words mean something only in their positions: they are read by playing
            // them. A level that does not start is reported when the replay runs.
            let runs = split_inputs(words).map_err(|e| bad(root.key("inputs"), e.to_string()))?;
            let steps: u64 = runs.iter().map(|r| r.count).sum();
            self.ticks = ticks.unwrap_or(steps);
            self.words = Some(Vec::new());
            if let Ok(mut game) = self.start_bare() {
                let played = play_words(game.as_mut(), &runs, self.ticks, None)
                    .map_err(|e| bad(root.key("inputs"), e.to_string()))?;
                self.inputs = played.inputs;
                self.words = Some(played.words);
            }
        } else {
            self.inputs = crate::game::parse_inputs(kind, words)
                .map_err(|e| bad(root.key("inputs"), e.to_string()))?;
            self.ticks = ticks.unwrap_or(self.inputs.len() as u64);
        }
        Ok(())
    }

    /// The game of the level at its start, for reading positional words; problems are not
    /// located (the replay's run reports them).
    fn start_bare(&self) -> Result<Box<dyn Game>, LoadError> {
        match &self.level {
            ReplayLevel::Path(_) => self
                .document()?
                .start(self.seed)
                .map_err(LoadError::Problems),
            ReplayLevel::Embedded(v) => {
                let kind = kind_of(v).map_err(|p| LoadError::Problems(vec![p]))?;
                kind.start(v, self.seed).map_err(LoadError::Problems)
            }
        }
    }

    /// Reads a replay file.
    ///
    /// # Errors
    /// I/O errors, or the file's problems.
    pub fn load(path: &Path) -> Result<Replay, LoadError> {
        crate::document::regular_file(path)?;
        let text = std::fs::read_to_string(path)?;
        let base = path.parent().unwrap_or(Path::new("."));
        Self::from_text(&text, base).map_err(LoadError::Problems)
    }

    /// The level document.
    ///
    /// # Errors
    /// When the level file cannot be read or parsed.
    pub fn document(&self) -> Result<Document, LoadError> {
        match &self.level {
            ReplayLevel::Path(p) => load_file(p),
            ReplayLevel::Embedded(v) => {
                load_bytes(v.to_string().as_bytes()).map_err(LoadError::Problems)
            }
        }
    }

    /// Plays the replay and compares the result with what was recorded.
    ///
    /// # Errors
    /// When the level cannot be loaded or started.
    pub fn run(&self) -> Result<ReplayOutcome, LoadError> {
        self.run_with(None)
    }

    /// [`Replay::run`], calling `on_step` after each step as [`play_with`] does (the CLI's
    /// `run --replay --trace`).
    ///
    /// # Errors
    /// When the level cannot be loaded or started.
    pub fn run_with(&self, on_step: OnStep<'_>) -> Result<ReplayOutcome, LoadError> {
        let mut game = match &self.level {
            ReplayLevel::Path(_) => self
                .document()?
                .start(self.seed)
                .map_err(LoadError::Problems)?,
            ReplayLevel::Embedded(v) => {
                // Problems of an embedded level are reported at `$.level…` in the replay file.
                let in_replay = |problems: Vec<Problem>| {
                    let mut problems = in_level(problems);
                    if let Some(text) = &self.source {
                        locate(text, &mut problems);
                    }
                    LoadError::Problems(problems)
                };
                let kind = crate::kind::kind_of(v).map_err(|p| in_replay(vec![p]))?;
                kind.start(v, self.seed).map_err(in_replay)?
            }
        };
        play_with(game.as_mut(), &self.inputs, self.ticks, on_step);
        let hash = game.state_hash();
        let matches = self.hash.is_none_or(|h| h == hash)
            && self
                .status
                .as_deref()
                .is_none_or(|s| s == game.outcome_word());
        Ok(ReplayOutcome {
            game,
            hash,
            matches,
        })
    }

    /// This replay with its expectations set from a game's final state.
    pub fn recorded(mut self, game: &dyn Game) -> Replay {
        self.hash = Some(game.state_hash());
        self.status = Some(game.outcome_word().into());
        self.summary = Some(game.summary());
        self
    }

    /// The JSON form. A `Path` level is written relative to `base` when it lies below it,
    /// else as given.
    pub fn to_json(&self, base: &Path) -> Value {
        let mut o = Map::new();
        o.insert("tilesmith".into(), json!("replay"));
        o.insert("version".into(), json!(1));
        o.insert(
            "level".into(),
            match &self.level {
                ReplayLevel::Path(p) => json!(relative_path(p, base).to_string_lossy()),
                ReplayLevel::Embedded(v) => v.clone(),
            },
        );
        o.insert("seed".into(), json!(self.seed));
        let words = match &self.words {
            Some(w) => format_words(w.iter().map(String::as_str)),
            None => format_inputs(&self.inputs),
        };
        o.insert("inputs".into(), json!(words));
        let steps = self.words.as_ref().map_or(self.inputs.len(), Vec::len);
        if self.ticks != steps as u64 {
            o.insert("ticks".into(), json!(self.ticks));
        }
        let mut e = Map::new();
        if let Some(s) = &self.status {
            e.insert("status".into(), json!(s));
        }
        if let Some(h) = self.hash {
            e.insert("hash".into(), json!(format!("{h:016x}")));
        }
        if let Some(s) = &self.summary {
            e.insert("summary".into(), s.clone());
        }
        o.insert("expect".into(), Value::Object(e));
        Value::Object(o)
    }
}

/// Steps `game` `ticks` times with `inputs` (no key past their end), stopping when it takes
/// no more turns ([`Game::takes_turns`]; `undo` and `restart` still act then).
pub fn play(game: &mut dyn Game, inputs: &[Input], ticks: u64) {
    play_with(game, inputs, ticks, None);
}

/// What is called after each step with the game (after the step), the input and the step's
/// report (the CLI's `--trace`, through [`Game::trace`]). `None`: nobody reads the reports,
/// so each step is [`Game::step_quiet`] and no report is built.
pub type OnStep<'a> = Option<&'a mut dyn FnMut(&dyn Game, Input, &StepReport)>;

/// One step of `game` with `input`, its report given to `on_step` when there is one.
fn step_reported(game: &mut dyn Game, input: Input, on_step: &mut OnStep<'_>) {
    match on_step {
        Some(f) => {
            let report = game.step(input);
            f(&*game, input, &report);
        }
        None => game.step_quiet(input),
    }
}

/// [`play`], calling `on_step` after each step ([`OnStep`]).
pub fn play_with(game: &mut dyn Game, inputs: &[Input], ticks: u64, mut on_step: OnStep<'_>) {
    for t in 0..ticks {
        let input = inputs.get(t as usize).copied().unwrap_or(Input::Wait);
        if !game.takes_turns() && !matches!(input, Input::Undo | Input::Restart) {
            break;
        }
        step_reported(game, input, &mut on_step);
    }
}

/// What [`play_words`] played: the inputs and their words, one per step.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayedWords {
    /// The input of each step played.
    pub inputs: Vec<Input>,
    /// The word of each step played, as the game writes it in the position where it was
    /// played ([`Game::input_word`]; the word as given when the game has none).
    pub words: Vec<String>,
}

/// Plays words (as [`split_inputs`] splits a text) on `game`, for `ticks` steps: each word
/// is read in the position where it is played ([`Game::read_input`]), so that
/// position-dependent words (board moves) work; steps past the words get no key (and are not
/// in the result). Once the game takes no more turns only `undo` and `restart` act: any other
/// word then is an error ([`InputError::GameOver`]), not silently dropped; steps past the
/// words stop there. `on_step` gets, after each step, the game, the input and the report
/// ([`OnStep`]; `None`: no reports are built).
///
/// # Errors
/// The first word the game cannot read where it is played, with its number in the text
/// ([`InputError::NotLegal`] lists the legal words there and, for `WORD*N`, which
/// repetition failed), or the first word other than `undo`/`restart` after the game ended
/// ([`InputError::GameOver`]). The steps before it were played.
pub fn play_words(
    game: &mut dyn Game,
    runs: &[WordRun<'_>],
    ticks: u64,
    mut on_step: OnStep<'_>,
) -> Result<PlayedWords, InputError> {
    let mut played = PlayedWords::default();
    let mut steps = runs.iter().flat_map(|r| (1..=r.count).map(move |k| (r, k)));
    for _ in 0..ticks {
        let Some((run, k)) = steps.next() else {
            // Past the words: steps with no key, which are not words.
            if !game.takes_turns() {
                break;
            }
            step_reported(game, Input::Wait, &mut on_step);
            continue;
        };
        if !game.takes_turns() && !is_undo_word(game, run.word) {
            return Err(InputError::GameOver {
                position: run.position,
                word: if run.count > 1 {
                    format!("{}*{}", run.word, run.count)
                } else {
                    run.word.to_string()
                },
            });
        }
        let input = game.read_input(run.word).map_err(|e| match e {
            InputError::NotLegal { word, legal, .. } if run.count > 1 => InputError::NotLegal {
                position: Some(run.position),
                word,
                repeat: Some((k, run.count)),
                legal,
            },
            e => e.at_position(run.position),
        })?;
        let word = game
            .input_word(input)
            .unwrap_or_else(|| run.word.to_string());
        step_reported(game, input, &mut on_step);
        played.inputs.push(input);
        played.words.push(word);
    }
    Ok(played)
}

/// True when `word` reads as `undo` or `restart` in `game` (which act after the game ended).
fn is_undo_word(game: &dyn Game, word: &str) -> bool {
    matches!(game.read_input(word), Ok(Input::Undo | Input::Restart))
}

/// `p` relative to the folder `base` (`..` steps where needed), after making both absolute
/// (canonical where they exist); `p` unchanged when either cannot be made absolute or they
/// share no prefix. Used for a replay's level path and a board level's rules file.
pub fn relative_path(p: &Path, base: &Path) -> PathBuf {
    let full = |x: &Path| std::fs::canonicalize(x).or_else(|_| std::path::absolute(x));
    let (Ok(p_abs), Ok(b_abs)) = (full(p), full(base)) else {
        return p.to_path_buf();
    };
    let pc: Vec<_> = p_abs.components().collect();
    let bc: Vec<_> = b_abs.components().collect();
    let common = pc.iter().zip(&bc).take_while(|(a, b)| a == b).count();
    if common == 0 {
        return p.to_path_buf();
    }
    let mut out = PathBuf::new();
    for _ in common..bc.len() {
        out.push("..");
    }
    for c in &pc[common..] {
        out.push(c);
    }
    out
}
