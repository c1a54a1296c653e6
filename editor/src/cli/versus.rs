//! `tilesmith playouts` (issue #29: random playouts, the figure Ludii and OpenSpiel users
//! compare) and `tilesmith match` (issue #28: whole games between players), through the
//! engine's shared search over the game's [`searcher`](tilesmith_engine::Game::searcher).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use serde_json::json;
use tilesmith_engine::search::playout::{
    GameEnd, MAX_GAME_PLIES, Player, play_game, random_playouts,
};
use tilesmith_engine::search_game::SearchGame;

use super::common::{load, print_problems};

/// Arguments of `tilesmith playouts`.
#[derive(Debug, clap::Args)]
pub struct PlayoutArgs {
    /// The level file.
    pub level: PathBuf,
    /// How many random playouts, each from the level's start.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub count: u64,
    /// The seed of the one ChaCha8 generator behind every random choice.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The longest playout, in moves; a playout cut off there ends there.
    #[arg(long, default_value_t = 1000)]
    pub max_plies: u32,
}

/// Arguments of `tilesmith match`.
#[derive(Debug, clap::Args)]
pub struct MatchArgs {
    /// The level file (a game of two players).
    pub level: PathBuf,
    /// The two players, in the order `wins` is printed: `random`, `flat-mc:K` (K random
    /// playouts of at most 50 moves per candidate move) or `ai:SECONDS` (the Monte Carlo tree
    /// search computer player at that think time per move). The first plays the game's first
    /// player (player index 0: board, the first of the rules' players; pasta, red) in even
    /// games and the second player in odd ones.
    #[arg(long, value_delimiter = ',', required = true)]
    pub players: Vec<String>,
    /// How many games. A game still running after 1000 plies (`MAX_GAME_PLIES`) is
    /// counted as a draw, and their number is said on standard error.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub games: u64,
    /// Game `i` is started, and its players' choices drawn, with seed `SEED + i`.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

/// Loads `level` and starts it with `seed`; its searcher, or the exit code after printing
/// why there is none.
fn searcher(
    level: &Path,
    seed: u64,
    doc: &tilesmith_engine::Document,
) -> Result<Box<dyn SearchGame>, ExitCode> {
    let game = doc.start(seed).map_err(|p| {
        print_problems(level, &p);
        ExitCode::FAILURE
    })?;
    game.searcher().ok_or_else(|| {
        eprintln!("tilesmith: {} levels offer no search", doc.kind.name());
        ExitCode::FAILURE
    })
}

fn document(level: &Path) -> Result<tilesmith_engine::Document, ExitCode> {
    load(level).map_err(|p| {
        print_problems(level, &p);
        ExitCode::FAILURE
    })
}

/// `tilesmith playouts`: `{"playouts","plies","seconds","per_second"}`.
pub(super) fn playouts(a: &PlayoutArgs) -> ExitCode {
    let run = || -> Result<(), ExitCode> {
        let doc = document(&a.level)?;
        let root = searcher(&a.level, a.seed, &doc)?;
        let started = Instant::now();
        let plies = random_playouts(root.as_ref(), a.count, a.seed, a.max_plies).map_err(|e| {
            eprintln!("tilesmith: playouts: {e}");
            ExitCode::FAILURE
        })?;
        let seconds = started.elapsed().as_secs_f64();
        println!(
            "{}",
            json!({
                "playouts": a.count, "plies": plies, "seconds": seconds,
                "per_second": a.count as f64 / seconds.max(1e-9),
            })
        );
        Ok(())
    };
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(code) => code,
    }
}

/// `tilesmith match`: `{"games":N,"wins":[a,b],"draws":d,"seconds":x}`.
pub(super) fn matches(a: &MatchArgs) -> ExitCode {
    let run = || -> Result<(), ExitCode> {
        if a.players.len() != 2 {
            eprintln!(
                "tilesmith: match: --players: name two players, as A,B ({} given)",
                a.players.len()
            );
            return Err(ExitCode::FAILURE);
        }
        let players: Vec<Player> = a
            .players
            .iter()
            .map(|p| p.parse::<Player>())
            .collect::<Result<_, _>>()
            .map_err(|e| {
                eprintln!("tilesmith: match: --players: {e}");
                ExitCode::FAILURE
            })?;
        let doc = document(&a.level)?;
        let started = Instant::now();
        let (mut wins, mut draws, mut unfinished) = ([0u64; 2], 0u64, 0u64);
        for i in 0..a.games {
            let seed = a.seed.wrapping_add(i);
            let mut g = searcher(&a.level, seed, &doc)?;
            if g.players() != 2 {
                eprintln!(
                    "tilesmith: match: the game has {} players; a match is between two",
                    g.players()
                );
                return Err(ExitCode::FAILURE);
            }
            // Colours swap every other game: seat s is played by named player s ^ swap.
            let swap = (i % 2) as usize;
            let seats = [players[swap], players[1 - swap]];
            match play_game(g.as_mut(), &seats, seed) {
                Ok(GameEnd::Won(seat)) => wins[seat ^ swap] += 1,
                Ok(GameEnd::Draw) => draws += 1,
                Ok(GameEnd::Unfinished) => {
                    draws += 1;
                    unfinished += 1;
                }
                Err(e) => {
                    eprintln!("tilesmith: match: game {i}: {e}");
                    return Err(ExitCode::FAILURE);
                }
            }
        }
        if unfinished > 0 {
            eprintln!(
                "tilesmith: match: {unfinished} game(s) still running after {MAX_GAME_PLIES} \
                 plies were counted as draws"
            );
        }
        println!(
            "{}",
            json!({
                "games": a.games, "wins": wins, "draws": draws,
                "seconds": started.elapsed().as_secs_f64(),
            })
        );
        Ok(())
    };
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(code) => code,
    }
}
