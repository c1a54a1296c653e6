//! Solve in the play pane (issue #29 "Editor"): the engine's shared solve
//! ([`tilesmith_engine::search::solve`], the entry point `tilesmith solve` uses:
//! breadth-first search for one player, alpha-beta for two) run on a worker ([`Job`]) from
//! the position in play, within a time budget, with progress (states, depth, states per
//! second) and Cancel. For two players each legal move is then searched for its own value
//! ([`solve::move_values`]) within what is left of the budget.
//!
//! The line found (a solution, or the principal variation) is stepped as play: each step is
//! its input word read in the position and played as any input is, so undo, scrubbing,
//! recording and the GIF export see ordinary steps. Where play stands on the line is known
//! by the step count and the state hash after each step of it ([`SolveResult::at`]); play that
//! leaves the line (another move, a restart) leaves it, and undo comes back to it.

use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use tilesmith_engine::Input;
use tilesmith_engine::intended::{self, Shortcut};
use tilesmith_engine::replay::Replay;
use tilesmith_engine::search::alphabeta::Value;
use tilesmith_engine::search::solve::{self, MoveValue, Outcome};
use tilesmith_engine::search::{Progress, bfs};
use tilesmith_engine::search_game::SearchGame;

use crate::doc::play::PlaySession;
use crate::job::Job;

/// The memory budget of the editor's searches (the visited set or the transposition
/// tables): half the CLI's default, as the editor holds the level and its history too.
pub const SOLVE_MEMORY: usize = 512 << 20;

/// How a solve is going: what is being searched, and that search's progress.
#[derive(Clone, Debug, PartialEq)]
pub struct SolveProgress {
    /// `the position`, or `move 3 of 9 (@b2)`.
    pub phase: String,
    /// States, depth, states per second and time of the search under way.
    pub progress: Progress,
}

/// What a solve found.
#[derive(Clone, Debug, PartialEq)]
pub struct Solved {
    /// The answer for the position.
    pub outcome: Outcome,
    /// Two players: each legal move with its value for the player to move (`None` for one
    /// player, or when the solve was cancelled before the moves).
    pub moves: Option<Vec<MoveValue>>,
    /// One player, when the level has an intended solution beside it: how the solver's
    /// answer compares with it.
    pub intended: Option<IntendedCheck>,
    /// Time the whole solve took.
    pub elapsed: Duration,
}

/// The level's intended solution (`NAME.intended.replay.json` beside `NAME.json`) against
/// the shortest solution found (issue #29: "the play pane says when the solver finds a
/// shorter one and shows where it diverges").
#[derive(Clone, Debug, PartialEq)]
pub struct IntendedCheck {
    /// The replay's file name.
    pub file: String,
    /// The comparison ([`intended::compare_one`]), or why there is none (the replay does not
    /// load, is of another level, or the solve did not start where it starts).
    pub result: Result<Shortcut, String>,
}

impl Solved {
    /// The line to step: the solution (one player), else the principal variation; the input
    /// words, played in turn from the position solved.
    pub fn line(&self) -> &[String] {
        match &self.outcome {
            Outcome::OnePlayer(o) => match &o.answer {
                bfs::Answer::Solved(s) => &s.words,
                _ => &[],
            },
            Outcome::TwoPlayers(o) => &o.pv_words,
        }
    }
}

/// A solve's result, with where it was started in the play session.
#[derive(Clone, Debug)]
pub struct SolveResult {
    /// What the search found.
    pub solved: Solved,
    /// The players' names (empty for one player).
    pub players: Vec<String>,
    /// The play session it was found in ([`PlaySession::id`]).
    session: u64,
    /// The step count of the position solved.
    start_steps: u64,
    /// The state hash of the position solved, then after each step of the line played so far.
    hashes: Vec<u64>,
}

/// A solve running on a worker.
#[derive(Debug)]
struct Running {
    job: Job<Result<Solved, String>, SolveProgress>,
    players: Vec<String>,
    session: u64,
    start_steps: u64,
    start_hash: u64,
}

/// The Solve section's state: the budget, the running solve and the last result.
#[derive(Debug)]
pub struct Solver {
    /// The time budget of a solve, in seconds (1 to 600).
    pub seconds: f32,
    /// The solve under way.
    job: Option<Running>,
    /// The last result.
    pub result: Option<SolveResult>,
    /// Why the last solve gave no result (cancelled, failed).
    pub note: Option<String>,
    /// "Play the rest" is playing the line, one step a frame (when it last stepped).
    pub auto: Option<Instant>,
}

impl Default for Solver {
    fn default() -> Self {
        Solver {
            seconds: 10.0,
            job: None,
            result: None,
            note: None,
            auto: None,
        }
    }
}

impl Solver {
    /// True while a solve runs.
    pub fn solving(&self) -> bool {
        self.job.is_some()
    }

    /// Forgets the solve under way and the result (play stopped, another session).
    pub fn reset(&mut self) {
        self.job = None;
        self.result = None;
        self.note = None;
        self.auto = None;
    }

    /// Starts solving the position in play on a worker (a previous result is dropped).
    /// `intended`: the level's intended replay, compared with the solution found (one
    /// player).
    pub fn start(&mut self, p: &PlaySession, intended: Option<PathBuf>) {
        self.result = None;
        self.auto = None;
        let Some(mut root) = p.game.searcher() else {
            self.note = Some(format!("{} levels offer no search", p.kind.name()));
            return;
        };
        self.note = None;
        let budget = Duration::from_secs_f32(self.seconds.clamp(1.0, 600.0));
        let spawned = Job::spawn("solve", move |w| {
            let started = Instant::now();
            let two = root.players() == 2;
            // Two players: the position gets half the budget, the moves the rest.
            let first = if two { budget / 2 } else { budget };
            let limits = solve::Limits {
                max_steps: None,
                time: Some(first),
                memory: SOLVE_MEMORY,
            };
            let cancel = w.cancel_flag();
            let phase = "the position".to_string();
            let mut report = |pr: &Progress| {
                w.report(SolveProgress {
                    phase: phase.clone(),
                    progress: pr.clone(),
                });
            };
            let outcome =
                solve::solve(root.as_mut(), &limits, cancel, &mut report).map_err(|e| e.message)?;
            let intended = match (&outcome, intended) {
                (Outcome::OnePlayer(o), Some(file)) => {
                    Some(check_intended(root.as_ref(), o, &file))
                }
                _ => None,
            };
            let moves = if two && !cancel.load(Ordering::Relaxed) {
                let rest = solve::Limits {
                    time: Some(budget.saturating_sub(started.elapsed())),
                    ..limits
                };
                Some(move_values(root.as_ref(), &rest, w)?)
            } else {
                None
            };
            Ok(Solved {
                outcome,
                moves,
                intended,
                elapsed: started.elapsed(),
            })
        });
        match spawned {
            Ok(job) => {
                self.job = Some(Running {
                    job,
                    players: p.game.players(),
                    session: p.id(),
                    start_steps: p.steps(),
                    start_hash: p.game.state_hash(),
                });
            }
            Err(e) => self.note = Some(format!("the solve could not start: {e}")),
        }
    }

    /// Asks the solve under way to stop: the search returns at its next state, and its
    /// answer (unknown, cancelled, with what it explored) is the result.
    pub fn cancel(&mut self) {
        if let Some(r) = &self.job {
            r.job.cancel();
        }
    }

    /// True once Cancel was pressed and the search has not returned yet.
    pub fn cancelling(&self) -> bool {
        self.job.as_ref().is_some_and(|r| r.job.cancelling())
    }

    /// The progress of the solve under way.
    pub fn progress(&self) -> Option<SolveProgress> {
        self.job.as_ref()?.job.progress()
    }

    /// Per frame: takes a finished solve's result, and notes the state reached by a step
    /// of the line. True when a solve finished this frame.
    pub fn poll(&mut self, p: &PlaySession) -> bool {
        if let Some(r) = &mut self.result {
            r.follow(p);
        }
        let Some(done) = self.job.as_ref().and_then(|r| r.job.poll()) else {
            return false;
        };
        let Some(run) = self.job.take() else {
            return false;
        };
        match done.and_then(|r| r) {
            Ok(solved) => {
                self.result = Some(SolveResult {
                    solved,
                    players: run.players,
                    session: run.session,
                    start_steps: run.start_steps,
                    hashes: vec![run.start_hash],
                });
            }
            Err(e) => self.note = Some(format!("the solve failed: {e}")),
        }
        true
    }

    /// Waits up to `limit` for the solve under way to finish, then [`Solver::poll`]s.
    pub fn wait(&mut self, p: &PlaySession, limit: Duration) -> bool {
        let t0 = Instant::now();
        while self.solving() && t0.elapsed() < limit {
            if self.poll(p) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        self.poll(p)
    }
}

/// Plays the intended replay `file` with a state key after each step and compares it with
/// the answer `o` found from `root`, which must be the replay's start.
fn check_intended(root: &dyn SearchGame, o: &bfs::Outcome, file: &Path) -> IntendedCheck {
    let name = file.file_name().map_or_else(
        || file.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let result = (|| {
        let replay = Replay::load(file).map_err(|e| format!("it does not load: {e}"))?;
        let line = intended::play_line(&replay, None, true)
            .map_err(|e| format!("its level does not start: {e}"))?;
        if line.keys.first() != Some(&root.key()) {
            return Err(
                "it starts elsewhere: solve from the start of play to compare (or the replay is \
                 of another level, variant or seed)"
                    .to_string(),
            );
        }
        let (found, none) = match &o.answer {
            bfs::Answer::Solved(s) => (Some(intended::keys_along(root, &s.moves)), false),
            bfs::Answer::Unsolvable => (None, true),
            bfs::Answer::Unknown(_) => (None, false),
        };
        Ok(intended::compare_one(&line, found.as_deref(), none))
    })();
    IntendedCheck { file: name, result }
}

/// [`solve::move_values`] on the worker `w`, reporting which move is searched.
fn move_values(
    root: &dyn tilesmith_engine::search_game::SearchGame,
    limits: &solve::Limits,
    w: &crate::job::Worker<SolveProgress>,
) -> Result<Vec<MoveValue>, String> {
    let mut moves = Vec::new();
    let mut fork = root.fork();
    if !fork.status().map_err(|e| e.message)?.is_over() {
        fork.moves(&mut moves).map_err(|e| e.message)?;
    }
    let words: Vec<String> = moves.iter().map(|&m| fork.word(m)).collect();
    let n = words.len();
    let mut report = |i: usize, pr: &Progress| {
        let word = words.get(i).map_or("", String::as_str);
        w.report(SolveProgress {
            phase: format!("move {} of {n} ({word})", i + 1),
            progress: pr.clone(),
        });
    };
    solve::move_values(root, limits, w.cancel_flag(), &mut report).map_err(|e| e.message)
}

impl SolveResult {
    /// Where play stands on the line: the number of its steps played, when the position
    /// in play is on it (the session it was found in, the step count and the state after
    /// that many steps).
    pub fn at(&self, p: &PlaySession) -> Option<usize> {
        if p.id() != self.session {
            return None;
        }
        let i = usize::try_from(p.steps().checked_sub(self.start_steps)?).ok()?;
        (self.hashes.get(i) == Some(&p.game.state_hash())).then_some(i)
    }

    /// Notes the state after the next step of the line when play has just made it.
    fn follow(&mut self, p: &PlaySession) {
        let k = self.hashes.len();
        if p.id() == self.session
            && p.steps() == self.start_steps + k as u64
            && k <= self.solved.line().len()
            && self.at_before(p, k)
        {
            self.hashes.push(p.game.state_hash());
        }
    }

    /// True when the last input played is the line's step `k - 1` (its word, read as an
    /// input where it was played, is what the session recorded).
    fn at_before(&self, p: &PlaySession, k: usize) -> bool {
        let Some(word) = self.solved.line().get(k - 1) else {
            return false;
        };
        let Some(last) = p
            .steps()
            .checked_sub(1)
            .and_then(|s| usize::try_from(s).ok())
        else {
            return false;
        };
        match p.words.get(last) {
            Some(w) => w == word,
            None => p
                .inputs
                .get(last)
                .is_some_and(|i| p.kind.parse_input(word).ok().as_ref() == Some(i)),
        }
    }

    /// The input that plays the line's next step in the position in play, when play is on
    /// the line and the line goes on.
    pub fn next_input(&self, p: &PlaySession) -> Option<Input> {
        let i = self.at(p)?;
        let word = self.solved.line().get(i)?;
        p.game.read_input(word).ok()
    }
}

/// A value for the player to move, in words: `wins in 7`, `loses in 4`, `draw`,
/// `unknown`.
pub fn value_words(v: Value) -> String {
    match v {
        Value::Win(k) => format!("wins in {k}"),
        Value::Loss(k) => format!("loses in {k}"),
        Value::Draw => "draw".into(),
        Value::Unknown => "unknown".into(),
    }
}
