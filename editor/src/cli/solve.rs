//! `tilesmith solve` (issue #29): a proved shortest solution of a one-player level by
//! breadth-first search, or the value of a two-player position by alpha-beta, through the
//! engine's shared search (`tilesmith_engine::search`) over the game's
//! [`searcher`](tilesmith_engine::Game::searcher), by the entry point the editor's Solve
//! shares (`tilesmith_engine::search::solve`). One JSON line on stdout; exit 0 solved
//! (or the value proved, or the space counted), 1 an error, 2 unsolvable, 3 unknown.
//! `--all`, `--intended`, `--from` and `--witness` add members to the line
//! (`docs/solver.md`, "The CLI"); the replays they read are played in [`super::solve_plays`].

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use serde_json::{Value, json};
use tilesmith_engine::input::split_inputs;
use tilesmith_engine::replay::play_words;
use tilesmith_engine::search::count::SOLUTION_CAP;
use tilesmith_engine::search::{Algorithm, alphabeta, bfs, solve as search_solve};
use tilesmith_engine::search_game::{SearchGame, StateKey};
use tilesmith_engine::{Document, Game, parse_inputs};

use super::common::{choose_variant, load, print_problems};
use super::play::write_replay;
use super::solve_plays::{self, Played};

/// The default time budget of `solve`, in seconds.
pub const DEFAULT_SECONDS: f64 = 60.0;

/// Arguments of `tilesmith solve`.
#[derive(Debug, clap::Args)]
pub struct SolveArgs {
    /// The level file (any kind that offers search: baba, boulder, board, pasta), or a
    /// campaign: then every level of it is solved and a table printed, one row a level.
    pub level: PathBuf,
    /// One player: the longest solution looked for, in steps (moves). Two players: the
    /// plies (both players' moves) looked ahead (default 64).
    #[arg(long, value_name = "N")]
    pub max_steps: Option<u32>,
    /// The time budget in seconds (default 60).
    #[arg(long, value_name = "S")]
    pub time: Option<f64>,
    /// The memory budget of the visited set or the transposition table, in bytes (default
    /// 1 GiB).
    #[arg(long, value_name = "BYTES")]
    pub memory: Option<usize>,
    /// The seed the level is started with.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Write the solution found as a replay file, which `tilesmith run --replay` checks.
    #[arg(long, value_name = "OUT.replay.json")]
    pub record: Option<PathBuf>,
    /// The variant of a board game, by title.
    #[arg(long)]
    pub variant: Option<String>,
    /// One player: the search algorithm, bfs (breadth-first), astar (A*, with the kind's
    /// estimate) or ida (IDA*, for spaces too large to store). Default: astar when the kind
    /// gives an estimate for the level, else bfs. --all always counts by bfs.
    #[arg(long, value_name = "bfs|astar|ida", value_parser = parse_algorithm)]
    pub algorithm: Option<Algorithm>,
    /// Explore the whole reachable state space (breadth-first, whatever the number of
    /// players) and report its size instead of solving.
    #[arg(long, conflicts_with_all = ["all", "intended", "witness"])]
    pub exhaustive: bool,
    /// One player: also count the distinct shortest solutions (as sequences of states; two
    /// inputs to the same next state are one step), adding "solutions", "unique" and
    /// "differ_at" (the first step, from 1, where two of them differ). Counts saturate at
    /// 2^53 - 1 ("solutions_capped": true).
    #[arg(long)]
    pub all: bool,
    /// The intended solution, a replay of LEVEL: adds "intended" (its steps, whether it
    /// wins, whether a shorter solution exists and by how many steps, and the step where the
    /// solution found leaves it). Default: NAME.intended.replay.json beside NAME.json, when
    /// there is one. Two players: whether the player to move wins in fewer plies.
    #[arg(long, value_name = "REPLAY", conflicts_with = "from")]
    pub intended: Option<PathBuf>,
    /// Solve from the state a play of LEVEL reached: the replay's inputs played with its
    /// seed (not --seed). Adds "from": the steps played. --record then writes the replay's
    /// inputs followed by the solution.
    #[arg(long, value_name = "REPLAY")]
    pub from: Option<PathBuf>,
    /// With --from, one player: when the state reached is unsolvable, add "witness": the
    /// states explored to prove it and "dead_from", the first step of the play after which
    /// no win was reachable (each state on the way solved with the same budgets).
    #[arg(long, requires = "from")]
    pub witness: bool,
}

/// `--algorithm`'s word as an [`Algorithm`].
fn parse_algorithm(word: &str) -> Result<Algorithm, String> {
    Algorithm::from_word(word).ok_or_else(|| format!("{word}: give bfs, astar or ida"))
}

/// Exit code: unsolvable.
pub(super) const UNSOLVABLE: u8 = 2;
/// Exit code: unknown (a budget ran out).
pub(super) const UNKNOWN: u8 = 3;

/// `tilesmith solve` on one level (a campaign goes to [`super::solve_campaign`], which the
/// dispatcher chooses, so that this file and that one do not import each other).
pub(super) fn solve(a: &SolveArgs) -> ExitCode {
    let mut doc = match load(&a.level) {
        Ok(d) => d,
        Err(p) => {
            print_problems(&a.level, &p);
            return ExitCode::FAILURE;
        }
    };
    if let Err(e) = choose_variant(&mut doc, a.variant.as_deref()) {
        return fail(&e);
    }
    let time = match a.time.unwrap_or(DEFAULT_SECONDS) {
        t if t.is_finite() && t > 0.0 => Duration::from_secs_f64(t.min(1e9)),
        t => return fail(&format!("--time {t}: give a number of seconds above 0")),
    };
    let from = match &a.from {
        Some(f) => match solve_plays::load(f) {
            Ok(r) => Some((r, f.as_path())),
            Err(code) => return code,
        },
        None => None,
    };
    let seed = from.as_ref().map_or(a.seed, |(r, _)| r.seed);
    let game = match doc.start(seed) {
        Ok(g) => g,
        Err(p) => {
            print_problems(&a.level, &p);
            return ExitCode::FAILURE;
        }
    };
    let Some(start) = game.searcher() else {
        return fail(&format!("{} levels offer no search", doc.kind.name()));
    };
    let start_key = start.key();
    let played = match &from {
        Some((r, f)) => match solve_plays::play(r, f, None, a.witness, start_key) {
            Ok(p) => Some(p),
            Err(code) => return code,
        },
        None => None,
    };
    let here = played
        .as_ref()
        .map_or(game.as_ref(), |p| p.line.game.as_ref());
    let Some(mut root) = here.searcher() else {
        return fail(&format!("{} levels offer no search", doc.kind.name()));
    };
    let limits = search_solve::Limits {
        max_steps: a.max_steps,
        time: Some(time),
        memory: a.memory.unwrap_or(tilesmith_engine::search::DEFAULT_MEMORY),
    };
    let run = Run {
        a,
        doc: &doc,
        seed,
        start_key,
        played: played.as_ref(),
        limits,
        cancel: AtomicBool::new(false),
    };
    if a.exhaustive {
        return run.exhaustive(root.as_mut());
    }
    if root.players() >= 2 && (a.all || a.witness) {
        return fail("--all and --witness apply to one-player levels");
    }
    if a.all && a.algorithm.is_some_and(|x| x != Algorithm::Bfs) {
        return fail(
            "--all counts the shortest solutions by breadth-first search (--algorithm bfs)",
        );
    }
    let intended = match (played.is_none())
        .then(|| solve_plays::intended_file(&a.level, a.intended.as_deref()))
        .flatten()
    {
        Some(f) => match solve_plays::load(&f)
            .and_then(|r| solve_plays::play(&r, &f, None, true, start_key))
        {
            Ok(p) => Some(p),
            Err(code) => return code,
        },
        None => None,
    };
    let found = if a.all {
        bfs::solve_all(
            root.as_mut(),
            &limits,
            SOLUTION_CAP,
            &run.cancel,
            &mut |_| {},
        )
        .map(search_solve::Outcome::OnePlayer)
    } else {
        search_solve::solve_with(
            root.as_mut(),
            a.algorithm,
            &limits,
            &run.cancel,
            &mut |_| {},
        )
    };
    match found {
        Ok(search_solve::Outcome::TwoPlayers(out)) => {
            run.two_players(here, root.as_ref(), &out, intended.as_ref())
        }
        Ok(search_solve::Outcome::OnePlayer(out)) => {
            run.one_player(root.as_ref(), &out, intended.as_ref())
        }
        Err(e) => fail(&e.message),
    }
}

/// What the lines of one `solve` command share.
struct Run<'a> {
    a: &'a SolveArgs,
    doc: &'a Document,
    /// The seed the level was started with (`--seed`, or the `--from` replay's).
    seed: u64,
    /// The state key of the level's start.
    start_key: StateKey,
    /// The `--from` replay, played.
    played: Option<&'a Played>,
    limits: search_solve::Limits,
    cancel: AtomicBool,
}

fn fail(message: &str) -> ExitCode {
    eprintln!("tilesmith: solve: {message}");
    ExitCode::FAILURE
}

fn print_line(v: Value) {
    println!("{v}");
}

impl Run<'_> {
    /// `--exhaustive`: the whole reachable space counted.
    fn exhaustive(&self, root: &mut dyn SearchGame) -> ExitCode {
        let kind = self.doc.kind.name();
        match bfs::explore(root, &self.limits, &self.cancel, &mut |_| {}) {
            Ok(out) => {
                let (result, code) = match out.answer {
                    bfs::Answer::Unknown(b) => (format!("unknown ({})", b.word()), UNKNOWN),
                    _ => ("explored".to_string(), 0),
                };
                let mut line = json!({
                    "kind": kind, "result": result, "states": out.states,
                    "depth": out.depth, "seconds": out.elapsed.as_secs_f64(),
                });
                self.add_from(&mut line);
                print_line(line);
                ExitCode::from(code)
            }
            Err(e) => fail(&e.message),
        }
    }

    /// `"from"`: the steps of the `--from` replay played.
    fn add_from(&self, line: &mut Value) {
        if let (Some(p), Some(o)) = (self.played, line.as_object_mut()) {
            o.insert("from".into(), json!(p.line.steps));
        }
    }

    /// The line and exit code of a one-player search; a solution is first played through a
    /// fresh game (and recorded with `--record`), which must win.
    fn one_player(
        &self,
        root: &dyn SearchGame,
        out: &bfs::Outcome,
        intended: Option<&Played>,
    ) -> ExitCode {
        let kind = self.doc.kind.name();
        let seconds = out.elapsed.as_secs_f64();
        let (mut line, code) = match &out.answer {
            bfs::Answer::Solved(s) => {
                // Macro moves (falling: a placement is many frames) print their frame
                // words with runs as `WORD*N`; one word a move stays spelled out.
                let text = if s.words.len() > s.moves.len() {
                    tilesmith_engine::input::format_words(s.words.iter().map(String::as_str))
                } else {
                    s.words.join(" ")
                };
                if let Err(e) = self.check_and_record(&text) {
                    return fail(&e);
                }
                let line = json!({
                    "kind": kind, "result": "solved", "steps": s.moves.len(),
                    "shortest": s.shortest, "solution": text, "states": out.states,
                    "seconds": seconds,
                });
                (line, 0)
            }
            bfs::Answer::Unsolvable => {
                let line = json!({
                    "kind": kind, "result": "unsolvable", "states": out.states,
                    "depth": out.depth, "seconds": seconds,
                });
                (line, UNSOLVABLE)
            }
            bfs::Answer::Unknown(b) => {
                let line = json!({
                    "kind": kind, "result": "unknown", "budget": b.word(), "states": out.states,
                    "depth": out.depth, "seconds": seconds,
                });
                (line, UNKNOWN)
            }
        };
        if let Some(o) = line.as_object_mut() {
            o.insert("algorithm".into(), json!(out.algorithm.word()));
        }
        let o = line.as_object_mut();
        if let (Some(c), Some(o)) = (out.count, o) {
            o.insert("solutions".into(), json!(c.solutions));
            o.insert("solutions_capped".into(), json!(c.capped));
            let unique = match c.stopped {
                None => json!(c.unique()),
                Some(_) if c.solutions >= 2 => json!(false),
                Some(_) => Value::Null,
            };
            o.insert("unique".into(), unique);
            o.insert("differ_at".into(), json!(c.differ_at));
            if let Some(b) = c.stopped {
                o.insert("count_budget".into(), json!(b.word()));
            }
        }
        if let Some(p) = intended {
            let keys = match &out.answer {
                bfs::Answer::Solved(s) => {
                    Some(tilesmith_engine::intended::keys_along(root, &s.moves))
                }
                _ => None,
            };
            let unsolvable = out.answer == bfs::Answer::Unsolvable;
            let v = solve_plays::intended_one(p, keys.as_deref(), unsolvable);
            if let Some(o) = line.as_object_mut() {
                o.insert("intended".into(), v);
            }
        }
        self.add_from(&mut line);
        if let (true, Some(p), bfs::Answer::Unsolvable) = (self.a.witness, self.played, &out.answer)
        {
            match solve_plays::witness(p, self.start_key, out.states, &self.limits, &self.cancel) {
                Ok(w) => {
                    if let Some(o) = line.as_object_mut() {
                        o.insert("witness".into(), w);
                    }
                }
                Err(e) => return fail(&e.message),
            }
        }
        print_line(line);
        ExitCode::from(code)
    }

    /// Plays the `--from` replay's steps and then the solution `text` through a new game of
    /// the level as `tilesmith run` would; it must win. With `--record`, writes them as a
    /// replay.
    fn check_and_record(&self, text: &str) -> Result<(), String> {
        let (a, doc) = (self.a, self.doc);
        let text = match self.played {
            Some(p) if !p.text.is_empty() => format!("{} {text}", p.text),
            _ => text.to_string(),
        };
        let mut game = doc.start(self.seed).map_err(|p| format!("{p:?}"))?;
        let (inputs, words, ticks) = if doc.kind.positional_inputs() {
            let runs = split_inputs(&text).map_err(|e| e.to_string())?;
            let n: u64 = runs.iter().map(|r| r.count).sum();
            let played = play_words(game.as_mut(), &runs, n, None).map_err(|e| e.to_string())?;
            (played.inputs, Some(played.words), n)
        } else {
            let inputs = parse_inputs(doc.kind, &text).map_err(|e| e.to_string())?;
            let n = inputs.len() as u64;
            tilesmith_engine::replay::play(game.as_mut(), &inputs, n);
            (inputs, None, n)
        };
        if !matches!(game.status(), tilesmith_engine::Status::Won { .. }) {
            return Err(format!(
                "the solution found does not win when played ({}): a bug of the kind's search",
                game.outcome_word()
            ));
        }
        let Some(rec) = &a.record else {
            return Ok(());
        };
        let played = super::play::Played {
            inputs,
            words,
            ticks,
        };
        let replay = super::play::recorded(
            doc,
            a.variant.as_deref(),
            &a.level,
            self.seed,
            played,
            game.as_ref(),
        );
        write_replay(rec, &replay).map_err(|_| format!("{}: not written", rec.display()))
    }

    /// The line and exit code of a two-player search (`game`: the position searched).
    fn two_players(
        &self,
        game: &dyn Game,
        root: &dyn SearchGame,
        out: &alphabeta::Outcome,
        intended: Option<&Played>,
    ) -> ExitCode {
        let player = game
            .players()
            .get(out.player)
            .cloned()
            .unwrap_or_else(|| out.player.to_string());
        let plies = match out.value {
            alphabeta::Value::Win(k) | alphabeta::Value::Loss(k) => k,
            _ => out.depth,
        };
        let mut line = json!({
            "kind": game.kind().name(), "result": out.value.word(), "for": player,
            "plies": plies, "pv": out.pv_words.join(" "), "states": out.states,
            "seconds": out.elapsed.as_secs_f64(),
        });
        if let (Some(b), Some(o)) = (out.stopped, line.as_object_mut())
            && out.value == alphabeta::Value::Unknown
        {
            o.insert("budget".into(), json!(b.word()));
        }
        if let (Some(p), Some(o)) = (intended, line.as_object_mut()) {
            let pv = tilesmith_engine::intended::keys_along(root, &out.pv);
            o.insert(
                "intended".into(),
                solve_plays::intended_two(p, out, &player, &pv),
            );
        }
        self.add_from(&mut line);
        print_line(line);
        if out.value == alphabeta::Value::Unknown {
            ExitCode::from(UNKNOWN)
        } else {
            ExitCode::SUCCESS
        }
    }
}
