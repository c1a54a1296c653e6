//! `tilesmith solve` (issue #29): a proved shortest solution of a one-player level by
//! breadth-first search, or the value of a two-player position by alpha-beta, through the
//! engine's shared search (`tilesmith_engine::search`) over the game's
//! [`searcher`](tilesmith_engine::Game::searcher), by the entry point the editor's Solve
//! shares (`tilesmith_engine::search::solve`). One JSON line on stdout; exit 0 solved
//! (or the value proved, or the space counted), 1 an error, 2 unsolvable, 3 unknown.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use serde_json::{Value, json};
use tilesmith_engine::input::split_inputs;
use tilesmith_engine::replay::{Replay, ReplayLevel, play_words};
use tilesmith_engine::search::{alphabeta, bfs, solve as search_solve};
use tilesmith_engine::{Document, Game, parse_inputs};

use super::common::{choose_variant, load, print_problems};
use super::play::write_replay;

/// The default time budget of `solve`, in seconds.
pub const DEFAULT_SECONDS: f64 = 60.0;

/// Arguments of `tilesmith solve`.
#[derive(Debug, clap::Args)]
pub struct SolveArgs {
    /// The level file (any kind that offers search: baba, boulder, board, pasta).
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
    /// Explore the whole reachable state space (breadth-first, whatever the number of
    /// players) and report its size instead of solving.
    #[arg(long)]
    pub exhaustive: bool,
}

/// Exit code: unsolvable.
const UNSOLVABLE: u8 = 2;
/// Exit code: unknown (a budget ran out).
const UNKNOWN: u8 = 3;

/// `tilesmith solve`.
pub(super) fn solve(a: &SolveArgs) -> ExitCode {
    let mut doc = match load(&a.level) {
        Ok(d) => d,
        Err(p) => {
            print_problems(&a.level, &p);
            return ExitCode::FAILURE;
        }
    };
    if let Err(e) = choose_variant(&mut doc, a.variant.as_deref()) {
        eprintln!("tilesmith: solve: {e}");
        return ExitCode::FAILURE;
    }
    let time = match a.time.unwrap_or(DEFAULT_SECONDS) {
        t if t.is_finite() && t > 0.0 => Duration::from_secs_f64(t.min(1e9)),
        t => {
            eprintln!("tilesmith: solve: --time {t}: give a number of seconds above 0");
            return ExitCode::FAILURE;
        }
    };
    let game = match doc.start(a.seed) {
        Ok(g) => g,
        Err(p) => {
            print_problems(&a.level, &p);
            return ExitCode::FAILURE;
        }
    };
    let Some(mut root) = game.searcher() else {
        eprintln!(
            "tilesmith: solve: {} levels offer no search",
            doc.kind.name()
        );
        return ExitCode::FAILURE;
    };
    let memory = a.memory.unwrap_or(tilesmith_engine::search::DEFAULT_MEMORY);
    let cancel = AtomicBool::new(false);
    let kind = doc.kind.name();
    if a.exhaustive {
        let limits = bfs::Limits {
            max_steps: a.max_steps,
            time: Some(time),
            memory,
        };
        return match bfs::explore(root.as_mut(), &limits, &cancel, &mut |_| {}) {
            Ok(out) => {
                let (result, code) = match out.answer {
                    bfs::Answer::Unknown(b) => (format!("unknown ({})", b.word()), UNKNOWN),
                    _ => ("explored".to_string(), 0),
                };
                print_line(json!({
                    "kind": kind, "result": result, "states": out.states,
                    "depth": out.depth, "seconds": out.elapsed.as_secs_f64(),
                }));
                ExitCode::from(code)
            }
            Err(e) => fail(&e.message),
        };
    }
    let limits = search_solve::Limits {
        max_steps: a.max_steps,
        time: Some(time),
        memory,
    };
    match search_solve::solve(root.as_mut(), &limits, &cancel, &mut |_| {}) {
        Ok(search_solve::Outcome::TwoPlayers(out)) => two_players(game.as_ref(), &out),
        Ok(search_solve::Outcome::OnePlayer(out)) => one_player(a, &doc, kind, &out),
        Err(e) => fail(&e.message),
    }
}

fn fail(message: &str) -> ExitCode {
    eprintln!("tilesmith: solve: {message}");
    ExitCode::FAILURE
}

fn print_line(v: Value) {
    println!("{v}");
}

/// The line and exit code of a one-player search; a solution is first played through a
/// fresh game (and recorded with `--record`), which must win.
fn one_player(a: &SolveArgs, doc: &Document, kind: &str, out: &bfs::Outcome) -> ExitCode {
    let seconds = out.elapsed.as_secs_f64();
    match &out.answer {
        bfs::Answer::Solved(s) => {
            let text = s.words.join(" ");
            if let Err(e) = check_and_record(a, doc, &text) {
                return fail(&e);
            }
            print_line(json!({
                "kind": kind, "result": "solved", "steps": s.moves.len(), "shortest": true,
                "solution": text, "states": out.states, "seconds": seconds,
            }));
            ExitCode::SUCCESS
        }
        bfs::Answer::Unsolvable => {
            print_line(json!({
                "kind": kind, "result": "unsolvable", "states": out.states,
                "depth": out.depth, "seconds": seconds,
            }));
            ExitCode::from(UNSOLVABLE)
        }
        bfs::Answer::Unknown(b) => {
            print_line(json!({
                "kind": kind, "result": "unknown", "budget": b.word(), "states": out.states,
                "depth": out.depth, "seconds": seconds,
            }));
            ExitCode::from(UNKNOWN)
        }
    }
}

/// Plays the solution `text` through a new game of `doc` as `tilesmith run` would; it must
/// win. With `--record`, writes it as a replay.
fn check_and_record(a: &SolveArgs, doc: &Document, text: &str) -> Result<(), String> {
    let mut game = doc.start(a.seed).map_err(|p| format!("{p:?}"))?;
    let (inputs, words, ticks) = if doc.kind.positional_inputs() {
        let runs = split_inputs(text).map_err(|e| e.to_string())?;
        let n: u64 = runs.iter().map(|r| r.count).sum();
        let played = play_words(game.as_mut(), &runs, n, None).map_err(|e| e.to_string())?;
        (played.inputs, Some(played.words), n)
    } else {
        let inputs = parse_inputs(doc.kind, text).map_err(|e| e.to_string())?;
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
    let level = match &a.variant {
        Some(_) => ReplayLevel::Embedded(doc.value.clone()),
        None => ReplayLevel::Path(a.level.clone()),
    };
    let replay = Replay {
        level,
        seed: a.seed,
        inputs,
        words,
        ticks,
        hash: None,
        status: None,
        summary: None,
        source: None,
    }
    .recorded(game.as_ref());
    write_replay(rec, &replay).map_err(|_| format!("{}: not written", rec.display()))
}

/// The line and exit code of a two-player search.
fn two_players(game: &dyn Game, out: &alphabeta::Outcome) -> ExitCode {
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
    print_line(line);
    if out.value == alphabeta::Value::Unknown {
        ExitCode::from(UNKNOWN)
    } else {
        ExitCode::SUCCESS
    }
}
