//! Reachability of the play history (issue #29 "Editor": "while playing, the turn list is
//! coloured by reachability"): for every state of the play session's history (the start and
//! the state after each step, the redoable steps included), whether a win can still be reached
//! from it. Each state is solved by the engine's shared solve ([`solve::solve`], a
//! breadth-first search for one player) within a small budget ([`ReachSettings`]), on one
//! worker ([`Job`]), and marked [`Mark::Win`] (with the length of a shortest win), [`Mark::Dead`]
//! (the whole reachable space explored, no win in it) or [`Mark::Unknown`] (the budget ran out).
//!
//! - **One player only**: a game whose search ([`tilesmith_engine::Game::searcher`]) has two
//!   players or more, or that offers no search, gets no marks (a two-player state is won or
//!   lost by both sides' play, which the Solve section's move values show instead).
//! - **The states** are rebuilt on the worker: a new game from the session's design and seed
//!   ([`PlaySession::start`], [`PlaySession::seed`]) plays the session's inputs (their words,
//!   for a kind whose inputs depend on the position), and its state hash must be the session's
//!   at the step in play, or nothing is marked (the replay went another way).
//! - **Newest first**: the worker plays the whole history, then solves from its last state and
//!   walks back with the game's undo to the start. The newest step is the one the player has
//!   just made; reaching a win is monotone along one line of play (a state from which a win is
//!   reachable can only follow states from which one is too), so dead states are at the end;
//!   and the walk back needs one game and its undo history, not a copy of every state.
//! - **Cached by state key** ([`tilesmith_engine::search_game::StateKey`], 128 bits): a state
//!   met again (scrubbing, undo and the same move again, a position repeated) is not solved
//!   again. When the history changes (a new step after an undo), the worker is cancelled and
//!   started again over the new history; the states already solved come from the cache.
//! - **Cancelled** when play stops, when another session starts (a new game, another level)
//!   and when the history changes; a new job waits while play runs by itself (real-time
//!   kinds) and while a Solve runs, so the two searches do not share the machine.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use serde_json::Value;
use tilesmith_engine::search::solve::{self, Outcome};
use tilesmith_engine::search::{Budget, bfs};
use tilesmith_engine::search_game::StateKey;
use tilesmith_engine::{Game, GameKind, Input};

use crate::doc::play::PlaySession;
use crate::job::{Job, Worker};

/// Whether a win can be reached from a state of the history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// A win is reachable; a shortest one takes this many steps (0: the state is won).
    Win(u32),
    /// No win is reachable: every state reachable from it was explored (or the kind's dead
    /// test says so), and none is won.
    Dead,
    /// Neither was proved within the budget: `time`, `memory` or `error` (the kind could not
    /// step a state).
    Unknown(&'static str),
}

impl Mark {
    /// In a few words: `win in 4`, `won`, `dead`, `unknown (time)`.
    pub fn words(self) -> String {
        match self {
            Mark::Win(0) => "won".into(),
            Mark::Win(n) => format!("win in {n}"),
            Mark::Dead => "dead".into(),
            Mark::Unknown(why) => format!("unknown ({why})"),
        }
    }
}

/// The budget of each state's search, a setting of the play pane.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReachSettings {
    /// Marks are computed (off: no worker runs, nothing is marked).
    pub on: bool,
    /// The time budget of one state's search, in seconds (0.05 to 10).
    pub seconds: f32,
    /// The memory budget of one state's search (its visited set), in MiB (8 to 1024).
    pub memory_mib: u32,
}

impl Default for ReachSettings {
    fn default() -> Self {
        ReachSettings {
            on: true,
            seconds: 0.5,
            memory_mib: 64,
        }
    }
}

impl ReachSettings {
    /// The search limits of one state: no step bound, the time and memory budgets.
    pub fn limits(&self) -> solve::Limits {
        solve::Limits {
            max_steps: None,
            time: Some(Duration::from_secs_f32(self.seconds.clamp(0.05, 10.0))),
            memory: (self.memory_mib.clamp(8, 1024) as usize) << 20,
        }
    }
}

/// One state the worker reached: its step number in the history, its key, and its mark
/// (`None` when the key was already known: the cache has it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Found {
    /// The step number (0: the start).
    pub step: u64,
    /// The state's key ([`tilesmith_engine::search_game::SearchGame::key`]).
    pub key: StateKey,
    /// Its mark, when solved by this job.
    pub mark: Option<Mark>,
}

/// What the worker reports: every state reached so far, newest first, and the step it is
/// solving now.
#[derive(Clone, Debug, Default)]
pub struct ReachProgress {
    /// The states reached, in the order reached.
    pub found: Arc<Vec<Found>>,
    /// The step whose state is being solved.
    pub solving: Option<u64>,
}

/// What one job works on: the session's design, seed and history.
struct Request {
    kind: &'static dyn GameKind,
    start: Value,
    seed: u64,
    inputs: Vec<Input>,
    /// The words of the inputs, for a kind whose inputs depend on the position.
    words: Option<Vec<String>>,
    /// The session's step in play and its state hash there (the replay must agree).
    check: (u64, u64),
    /// The keys already marked (not solved again).
    known: HashSet<StateKey>,
    limits: solve::Limits,
}

/// The worker: nothing when done (or why it marked nothing), reporting [`ReachProgress`].
type ReachJob = Job<Result<(), String>, ReachProgress>;

/// The most marks kept; the cache is emptied when it would hold more.
const CACHE_CAP: usize = 1 << 16;

/// The reachability of the play session's history: the settings, the worker, the marks.
#[derive(Debug, Default)]
pub struct Reach {
    /// The budget of each state's search.
    pub settings: ReachSettings,
    /// The settings the marks were computed with (a change solves the unknowns again).
    used: Option<ReachSettings>,
    /// The session the marks belong to, and whether its game offers one-player search.
    session: Option<(u64, bool)>,
    /// The history the keys belong to: its inputs and (positional kinds) their words.
    history: (Vec<Input>, Vec<String>),
    /// The key of the state after each step of the history, once the worker reached it.
    keys: Vec<Option<StateKey>>,
    /// The marks, by state key.
    cache: HashMap<StateKey, Mark>,
    /// The job under way, and how many of its reports were taken in.
    job: Option<(ReachJob, usize)>,
    /// The history's marks are all done (or the job ended): no new job until it changes.
    done: bool,
    /// Why the last job marked nothing (the replay went another way, no search).
    pub note: Option<String>,
}

impl std::fmt::Debug for Request {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Request")
            .field("kind", &self.kind.name())
            .field("steps", &self.inputs.len())
            .finish_non_exhaustive()
    }
}

impl Reach {
    /// Forgets the session, its marks and the job under way (which is cancelled).
    pub fn reset(&mut self) {
        let settings = self.settings;
        *self = Reach {
            settings,
            ..Reach::default()
        };
    }

    /// True when the session's game offers one-player search (the marks apply); false until
    /// [`Reach::update`] has seen the session.
    pub fn applies(&self) -> bool {
        self.session.is_some_and(|(_, one)| one)
    }

    /// True while the worker runs.
    pub fn working(&self) -> bool {
        self.job.is_some()
    }

    /// The step whose state the worker is solving now.
    pub fn solving(&self) -> Option<u64> {
        self.job.as_ref()?.0.progress()?.solving
    }

    /// The mark of the state after step `step` of the history (0: the start), when known.
    pub fn mark(&self, step: u64) -> Option<Mark> {
        let key = (*self.keys.get(usize::try_from(step).ok()?)?)?;
        self.cache.get(&key).copied()
    }

    /// The marks of the whole history, step 0 (the start) first.
    pub fn marks(&self) -> Vec<Option<Mark>> {
        (0..self.keys.len() as u64).map(|k| self.mark(k)).collect()
    }

    /// Per frame: follows the session (a new one resets), takes in the worker's reports,
    /// cancels it when the history changed, and starts one when states are left to mark.
    /// `hold` keeps a new job from starting (another search runs). True when a mark arrived.
    pub fn update(&mut self, p: &PlaySession, hold: bool) -> bool {
        if self.session.map(|(id, _)| id) != Some(p.id()) {
            if p.computing().is_some() {
                return false; // the game is on a worker: look at it later
            }
            self.reset();
            let one = p.game.searcher().is_some_and(|s| s.players() == 1);
            self.session = Some((p.id(), one));
        }
        if !self.applies() || p.computing().is_some() {
            return false;
        }
        let arrived = self.take_reports();
        self.follow_history(p);
        self.follow_settings();
        if !self.settings.on {
            self.job = None;
            return arrived;
        }
        if self.job.is_none() && !self.done && !hold && !p.running {
            self.start(p);
        }
        arrived
    }

    /// Takes in what the worker reported since the last frame; ends the job once it is done.
    fn take_reports(&mut self) -> bool {
        let Some((job, taken)) = &mut self.job else {
            return false;
        };
        let finished = job.poll();
        let found = job.progress().map(|p| p.found).unwrap_or_default();
        let fresh = found.get(*taken..).unwrap_or_default().to_vec();
        *taken = found.len();
        let arrived = !fresh.is_empty();
        for f in fresh {
            self.take(f);
        }
        if let Some(r) = finished {
            self.job = None;
            self.done = true;
            match r.and_then(|r| r) {
                Ok(()) => self.note = None,
                Err(e) => self.note = Some(e),
            }
        }
        arrived
    }

    /// Notes one state the worker reached.
    fn take(&mut self, f: Found) {
        let Ok(i) = usize::try_from(f.step) else {
            return;
        };
        if let Some(slot) = self.keys.get_mut(i) {
            *slot = Some(f.key);
        }
        if let Some(m) = f.mark {
            if self.cache.len() >= CACHE_CAP {
                self.cache.clear();
            }
            self.cache.insert(f.key, m);
        }
    }

    /// Compares the session's history with the one the keys belong to: where they part,
    /// the keys after it are dropped and the job is cancelled (started again over the new
    /// history).
    fn follow_history(&mut self, p: &PlaySession) {
        let n = usize::try_from(p.history_len()).unwrap_or(usize::MAX);
        let inputs = p.inputs.get(..n.min(p.inputs.len())).unwrap_or_default();
        let words: &[String] = if p.kind.positional_inputs() {
            p.words.get(..n.min(p.words.len())).unwrap_or_default()
        } else {
            &[]
        };
        if self.history.0 == inputs
            && self.history.1 == words
            && self.keys.len() == inputs.len() + 1
        {
            return;
        }
        let same = inputs
            .iter()
            .zip(&self.history.0)
            .take_while(|(a, b)| a == b)
            .count();
        let same_words = words
            .iter()
            .zip(&self.history.1)
            .take_while(|(a, b)| a == b)
            .count();
        let keep = if words.is_empty() {
            same
        } else {
            same.min(same_words)
        };
        self.keys.truncate(keep + 1);
        self.keys.resize(inputs.len() + 1, None);
        self.history = (inputs.to_vec(), words.to_vec());
        self.job = None;
        self.done = false;
    }

    /// When the budget changed, the states left unknown are solved again with the new one.
    fn follow_settings(&mut self) {
        if self.used != Some(self.settings) {
            if self.used.is_some() {
                self.cache.retain(|_, m| !matches!(m, Mark::Unknown(_)));
                self.job = None;
                self.done = false;
            }
            self.used = Some(self.settings);
        }
    }

    /// Starts the worker over the session's history.
    fn start(&mut self, p: &PlaySession) {
        if (0..self.keys.len() as u64).all(|k| self.mark(k).is_some()) {
            self.done = true;
            return;
        }
        let req = Request {
            kind: p.kind,
            start: p.start.clone(),
            seed: p.seed,
            inputs: self.history.0.clone(),
            words: p.kind.positional_inputs().then(|| self.history.1.clone()),
            check: (p.steps(), p.game.state_hash()),
            known: self.cache.keys().copied().collect(),
            limits: self.settings.limits(),
        };
        match Job::spawn("reachability", move |w| work(&req, w)) {
            Ok(job) => self.job = Some((job, 0)),
            Err(e) => {
                self.note = Some(format!("the reachability search could not start: {e}"));
                self.done = true;
            }
        }
    }

    /// Waits up to `limit` for the worker to mark the whole history (tests, and a frame
    /// that wants the marks now), taking its reports in. True when it is done.
    pub fn wait(&mut self, p: &PlaySession, limit: Duration) -> bool {
        let t0 = std::time::Instant::now();
        loop {
            self.update(p, false);
            if !self.working() || t0.elapsed() >= limit {
                return !self.working();
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

/// The pause between two reports of the worker (each copies what it found so far).
const REPORT_EVERY: Duration = Duration::from_millis(40);

/// The worker: plays the history on a new game, then solves its states newest first.
fn work(req: &Request, w: &Worker<ReachProgress>) -> Result<(), String> {
    let n = req.inputs.len() as u64;
    let mut game = replay(req, n, w.cancel_flag())?;
    let mut found: Vec<Found> = Vec::new();
    let mut solved: HashMap<StateKey, Mark> = HashMap::new();
    let mut last: Option<Instant> = None;
    let mut report = |found: &[Found], solving: Option<u64>, force: bool| {
        if force || last.is_none_or(|t| t.elapsed() >= REPORT_EVERY) {
            w.report(ReachProgress {
                found: Arc::new(found.to_vec()),
                solving,
            });
            last = Some(Instant::now());
        }
    };
    for k in (0..=n).rev() {
        if w.cancelled() {
            break;
        }
        if game.steps() != k {
            game = replay(req, k, w.cancel_flag())?;
        }
        let Some(mut root) = game.searcher() else {
            return Err(format!("{} levels offer no search", req.kind.name()));
        };
        let key = root.key();
        let mark = if req.known.contains(&key) {
            None
        } else if let Some(m) = solved.get(&key) {
            Some(*m)
        } else {
            report(&found, Some(k), false);
            let Some(m) = mark_of(root.as_mut(), &req.limits, w.cancel_flag()) else {
                break; // cancelled
            };
            solved.insert(key, m);
            Some(m)
        };
        found.push(Found { step: k, key, mark });
        report(&found, None, false);
        if k > 0 && !game.undo() {
            // The undo history was trimmed: the next state is played again from the start.
            game = replay(req, k - 1, w.cancel_flag())?;
        }
    }
    // Everything found, before the job's result says it is done.
    report(&found, None, true);
    Ok(())
}

/// A new game of the request's design, `upto` of its inputs played; its state hash checked
/// against the session's where the session is.
fn replay(req: &Request, upto: u64, cancel: &AtomicBool) -> Result<Box<dyn Game>, String> {
    let diverged = |i: u64| {
        format!("the history could not be played again (it went another way at step {i}): no marks")
    };
    let mut game = req.kind.start(&req.start, req.seed).map_err(|e| {
        let first = e.first().map_or(String::new(), |p| p.message.clone());
        format!("the level could not be started again: {first}")
    })?;
    if req.check.0 > req.inputs.len() as u64 {
        return Err("the inputs of the steps played are not all known: no marks".into());
    }
    let check = |g: &dyn Game| g.steps() != req.check.0 || g.state_hash() == req.check.1;
    if !check(game.as_ref()) {
        return Err(diverged(0));
    }
    for (i, input) in (0_u64..).zip(&req.inputs).take(upto as usize) {
        if cancel.load(std::sync::atomic::Ordering::Relaxed) {
            return Err("cancelled".into());
        }
        let input = match req.words.as_ref().and_then(|w| w.get(i as usize)) {
            Some(word) => game.read_input(word).map_err(|_| diverged(i + 1))?,
            None => *input,
        };
        game.step(input);
        if game.steps() != i + 1 || !check(game.as_ref()) {
            return Err(diverged(i + 1));
        }
    }
    Ok(game)
}

/// Solves `root` within `limits`: its mark, or `None` when cancelled.
fn mark_of(
    root: &mut dyn tilesmith_engine::search_game::SearchGame,
    limits: &solve::Limits,
    cancel: &AtomicBool,
) -> Option<Mark> {
    match solve::solve(root, limits, cancel, &mut |_| {}) {
        Ok(Outcome::OnePlayer(o)) => match o.answer {
            bfs::Answer::Solved(s) => Some(Mark::Win(s.moves.len() as u32)),
            bfs::Answer::Unsolvable => Some(Mark::Dead),
            bfs::Answer::Unknown(Budget::Cancelled) => None,
            bfs::Answer::Unknown(b) => Some(Mark::Unknown(b.word())),
        },
        Ok(Outcome::TwoPlayers(_)) | Err(_) => Some(Mark::Unknown("error")),
    }
}

/// Where play became dead on the history: the first dead state, and what is known of the
/// one before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FirstDead {
    /// The first step after which no win is reachable.
    pub step: u64,
    /// The mark of the state before it (`Some(Win(n))`: proved, the step lost the win;
    /// unknown or not yet searched: the loss happened at this step or before).
    pub before: Option<Mark>,
}

/// The first dead state of `marks` (step 0 first), when one is dead.
pub fn first_dead(marks: &[Option<Mark>]) -> Option<FirstDead> {
    let i = marks.iter().position(|m| *m == Some(Mark::Dead))?;
    let before = i.checked_sub(1).and_then(|j| marks[j]);
    Some(FirstDead {
        step: i as u64,
        before,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_dead_step_says_what_is_known_of_the_step_before_it() {
        let w = Some(Mark::Win(3));
        let d = Some(Mark::Dead);
        let u = Some(Mark::Unknown("time"));
        assert_eq!(first_dead(&[w, w, u]), None);
        assert_eq!(
            first_dead(&[w, Some(Mark::Win(2)), d, d]),
            Some(FirstDead {
                step: 2,
                before: Some(Mark::Win(2))
            })
        );
        // The step before is unknown (or not searched yet): lost there or before.
        assert_eq!(
            first_dead(&[w, u, d]),
            Some(FirstDead { step: 2, before: u })
        );
        assert_eq!(
            first_dead(&[w, None, d]),
            Some(FirstDead {
                step: 2,
                before: None
            })
        );
        assert_eq!(
            first_dead(&[d]),
            Some(FirstDead {
                step: 0,
                before: None
            })
        );
    }
}
