//! Random playouts, the flat Monte Carlo player, and whole games between players (issue #28
//! "`tilesmith match`", issue #29 "`tilesmith playouts`").
//!
//! A random playout plays uniformly random moves (seeded ChaCha8) until the game is over or
//! a ply cap. The flat Monte Carlo player (the prototype's of issue #28) tries every move
//! with K random playouts of at most [`FLAT_MC_PLIES`] plies each and plays the move of the
//! best mean score for the player to move: the kind's [`SearchGame::leaf_score`] of the
//! state a playout ends in when it gives one, else 1 won, 0 lost, 1/2 a draw or a cut-off.

use std::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng as _, SeedableRng as _};

use crate::mcts::{SearchLimits, search};
use crate::random::{random_move, uniform};
use tilesmith_core::search_game::{Move, SearchError, SearchGame, SearchStatus};

/// The most plies of one flat Monte Carlo playout (the prototype's 50 decisions).
pub const FLAT_MC_PLIES: u32 = 50;

/// The longest random playout of the computer player ([`Player::Ai`]), in plies: a
/// playout cut off there is scored by the kind's [`SearchGame::leaf_score`] when it gives
/// one (else a draw). Chosen by matches (BENCHMARKS.md, "Pasta Logic").
pub const AI_PLAYOUT_PLIES: u32 = 20;

/// The value of a draw for the computer player ([`Player::Ai`]), against 1 for a win and 0
/// for a loss ([`crate::mcts::SearchLimits::draw_value`]): below 1/2, so it plays for a win
/// where a draw is sure. Chosen by matches (BENCHMARKS.md, "Pasta Logic").
pub const AI_DRAW_VALUE: f64 = 0.3;

/// The settings of the computer player ([`Player::Ai`], `match ai:SECONDS`, and the editor's
/// computer player, which must play as the one measured in BENCHMARKS.md): a tree search of
/// `time` with playouts cut at [`AI_PLAYOUT_PLIES`] and a draw worth [`AI_DRAW_VALUE`], its
/// random choices seeded by `seed`.
pub fn ai_limits(time: std::time::Duration, seed: u64) -> SearchLimits {
    SearchLimits {
        time: Some(time),
        seed,
        max_playout_plies: AI_PLAYOUT_PLIES,
        draw_value: Some(AI_DRAW_VALUE),
        ..SearchLimits::default()
    }
}

/// The most plies a game of [`play_game`] lasts; a longer one ends unfinished
/// ([`GameEnd::Unfinished`], which `tilesmith match` counts as a draw and reports).
pub const MAX_GAME_PLIES: u32 = 1000;

/// How a playout ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayoutEnd {
    /// The status where it stopped ([`SearchStatus::Running`] when the ply cap came first).
    pub status: SearchStatus,
    /// Moves played.
    pub plies: u32,
}

/// Plays uniformly random moves on `g` until the game is over or `max_plies` moves were
/// played (`g` is left at the end; play on a [`SearchGame::fork`] to keep the start).
///
/// # Errors
/// A [`SearchError`] from the kind.
pub fn random_playout(
    g: &mut dyn SearchGame,
    rng: &mut ChaCha8Rng,
    max_plies: u32,
) -> Result<PlayoutEnd, SearchError> {
    let mut moves = Vec::new();
    let mut plies = 0;
    loop {
        let status = g.status()?;
        if status.is_over() || plies >= max_plies {
            return Ok(PlayoutEnd { status, plies });
        }
        if !g.advance_random(rng, &mut moves)? {
            return Ok(PlayoutEnd { status, plies });
        }
        plies += 1;
    }
}

/// Plays `count` random playouts from `root` (each on a fork, at most `max_plies` moves),
/// every choice from one ChaCha8 generator seeded with `seed` (`tilesmith playouts`).
/// Returns the moves played in all.
///
/// # Errors
/// A [`SearchError`] from the kind.
pub fn random_playouts(
    root: &dyn SearchGame,
    count: u64,
    seed: u64,
    max_plies: u32,
) -> Result<u64, SearchError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut plies = 0u64;
    for _ in 0..count {
        let mut g = root.fork();
        plies += u64::from(random_playout(g.as_mut(), &mut rng, max_plies)?.plies);
    }
    Ok(plies)
}

/// The score of the end of a playout for `player`: the kind's leaf score when it gives
/// one, else won 1, lost 0, a draw or a cut-off 1/2.
fn score(g: &mut dyn SearchGame, end: SearchStatus, player: usize) -> f64 {
    if let Some(s) = g.leaf_score(player) {
        return s;
    }
    match end {
        SearchStatus::Won(w) if w == player => 1.0,
        SearchStatus::Won(_) | SearchStatus::Lost => 0.0,
        SearchStatus::Draw | SearchStatus::Running => 0.5,
    }
}

/// The most candidate moves flat Monte Carlo tries at one decision: where a kind numbers
/// more ([`SearchGame::move_count`]: Pasta Logic's MoveFlag and Reorder with a raised
/// parameter), this many distinct ones drawn at random, in increasing order.
pub const FLAT_MC_CANDIDATES: usize = 256;

/// The candidate moves of flat Monte Carlo in `g`: every move, or [`FLAT_MC_CANDIDATES`]
/// drawn where the kind numbers more.
fn candidates(g: &mut dyn SearchGame, rng: &mut ChaCha8Rng) -> Result<Vec<Move>, SearchError> {
    let mut moves = Vec::new();
    match g.move_count()? {
        Some(n) if n > FLAT_MC_CANDIDATES as u64 => {
            let n = n.min(u64::from(Move::MAX)) as usize;
            let mut drawn = std::collections::BTreeSet::new();
            while drawn.len() < FLAT_MC_CANDIDATES {
                drawn.insert(uniform(rng, n) as Move);
            }
            moves.extend(drawn);
        }
        _ => g.moves(&mut moves)?,
    }
    Ok(moves)
}

/// The flat Monte Carlo choice in `g` (running): every move (at most
/// [`FLAT_MC_CANDIDATES`]) tried with `k` random playouts of at most [`FLAT_MC_PLIES`]
/// plies, the first of them the move itself, each scored by [`SearchGame::leaf_score`] of
/// the state it stopped in (else its outcome); the move of the best mean score for the
/// player to move (ties to the first). `None` when there is no move.
///
/// # Errors
/// A [`SearchError`] from the kind.
pub fn flat_monte_carlo(
    g: &dyn SearchGame,
    k: u32,
    rng: &mut ChaCha8Rng,
) -> Result<Option<Move>, SearchError> {
    let mut root = g.fork();
    let player = root.to_move();
    let moves = candidates(root.as_mut(), rng)?;
    let mut best: Option<(f64, Move)> = None;
    for &mv in &moves {
        let mut total = 0.0;
        for _ in 0..k {
            let mut w = root.fork();
            w.advance(mv)?;
            let end = random_playout(w.as_mut(), rng, FLAT_MC_PLIES.saturating_sub(1))?;
            total += score(w.as_mut(), end.status, player);
        }
        if best.is_none_or(|(b, _)| total > b) {
            best = Some((total, mv));
        }
    }
    Ok(best.map(|(_, m)| m))
}

/// A player of `tilesmith match` (issue #28): `random`, `flat-mc:K` or `ai:SECONDS`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Player {
    /// Uniformly random moves.
    Random,
    /// The flat Monte Carlo player with K playouts per move ([`flat_monte_carlo`]).
    FlatMc(u32),
    /// The computer player: Monte Carlo tree search ([`crate::mcts`]) for this long a move.
    Ai(Duration),
}

impl FromStr for Player {
    type Err = String;

    /// Reads `random`, `flat-mc:K` (K ≥ 1) or `ai:SECONDS` (more than 0, at most an hour).
    fn from_str(s: &str) -> Result<Player, String> {
        let bad = || format!("unknown player `{s}`: use random, flat-mc:K or ai:SECONDS");
        if s == "random" {
            return Ok(Player::Random);
        }
        if let Some(k) = s.strip_prefix("flat-mc:") {
            return match k.parse::<u32>() {
                Ok(k) if k >= 1 => Ok(Player::FlatMc(k)),
                _ => Err(bad()),
            };
        }
        if let Some(t) = s.strip_prefix("ai:") {
            return match t.parse::<f64>() {
                Ok(t) if t > 0.0 && t <= 3600.0 => Ok(Player::Ai(Duration::from_secs_f64(t))),
                _ => Err(bad()),
            };
        }
        Err(bad())
    }
}

impl Player {
    /// This player's move in `g` (running), drawing on `rng`; `None` when there is none.
    ///
    /// # Errors
    /// A [`SearchError`] from the kind.
    pub fn choose(
        &self,
        g: &mut dyn SearchGame,
        rng: &mut ChaCha8Rng,
    ) -> Result<Option<Move>, SearchError> {
        match *self {
            Player::Random => random_move(g, &mut Vec::new(), rng),
            Player::FlatMc(k) => flat_monte_carlo(g, k, rng),
            Player::Ai(time) => {
                let limits = ai_limits(time, rng.next_u64());
                let r = search(g, &limits, &AtomicBool::new(false), &mut |_| {})?;
                Ok(r.best_move)
            }
        }
    }
}

/// How a game of [`play_game`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// This seat won.
    Won(usize),
    /// A draw by the rules, a loss of a one-player game, or a player with no move.
    Draw,
    /// Still running after [`MAX_GAME_PLIES`] plies.
    Unfinished,
}

/// Plays one game on `g` (a two-player game, or any number) from its state: seat `s` (the
/// player index of the kind) is played by `seats[s]`, every random choice from one ChaCha8
/// generator seeded with `seed`.
///
/// # Errors
/// A [`SearchError`] from the kind, or a game with more players than seats.
pub fn play_game(
    g: &mut dyn SearchGame,
    seats: &[Player],
    seed: u64,
) -> Result<GameEnd, SearchError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..MAX_GAME_PLIES {
        match g.status()? {
            SearchStatus::Running => {}
            SearchStatus::Won(w) => return Ok(GameEnd::Won(w)),
            SearchStatus::Lost | SearchStatus::Draw => return Ok(GameEnd::Draw),
        }
        let seat = g.to_move();
        let player = seats.get(seat).ok_or_else(|| {
            SearchError::new(format!(
                "the game has {} players and the match names {}",
                g.players(),
                seats.len()
            ))
        })?;
        match player.choose(g, &mut rng)? {
            Some(mv) => g.advance(mv)?,
            None => return Ok(GameEnd::Draw),
        }
    }
    Ok(match g.status()? {
        SearchStatus::Running => GameEnd::Unfinished,
        SearchStatus::Won(w) => GameEnd::Won(w),
        SearchStatus::Lost | SearchStatus::Draw => GameEnd::Draw,
    })
}
