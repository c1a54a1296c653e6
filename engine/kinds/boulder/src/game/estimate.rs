//! Boulder's admissible estimate for A* and IDA* (issue #29; `docs/solver.md`, "Boulder's
//! estimate"): a lower bound on the ticks to a win, offered only where the level's rules
//! cannot break it.
//!
//! A level is won in the tick in which a `me` moves into an open `exit` (spec §4.4 "Player
//! movement", §6 W1: open when `gems` ≥ `gems[0]`), and only the main rules' player movement
//! does that. Under the main rules alone:
//!
//! - **Distance.** A `me` moves at most one field a tick, to a side neighbour (§4.4: "it may
//!   move only 1 field per tick"); no main rule moves a `me` otherwise (gravity moves `loose`
//!   objects, reset to stones and gems at each tick; pushing moves `pushable` ones, reset to
//!   stones; enemies and explosions destroy a `me`, never move it), creates one, creates an
//!   `exit`, or moves or removes a `wall` (explosions spare walls and exits, §4.4
//!   "Explosions"; slime only takes `path` and `mud`). So the ticks to a win are at least the
//!   length of the shortest way from a `me` to an exit through fields that are not walls —
//!   walls and exits as they are when the search starts (an exit overwritten later only
//!   lengthens the way).
//! - **Gems.** `gems` rises only when a `me` collects one (one a tick for each `me`); the exit
//!   opens at `gems[0]`. With one `me`, the gems still needed take as many ticks, and the
//!   tick that enters the exit collects none: at least needed + 1 ticks. With n > 1 figures,
//!   ⌈needed / n⌉ (one may collect the last gem and another enter in the same tick).
//!
//! The estimate is the larger of the two. **Level rules** (`pre`, `post`) can do anything, so
//! each rule is read (`Safety::of`): the distance bound stands only when no rule can write
//! `me` or `exit` into a field (by name, or by copying from another field of its window
//! whose block accepts them), overwrite a field whose block accepts `wall` with anything but
//! itself, or set `loose` or `pushable` on a field whose block accepts `me`, `exit` or `wall`
//! (gravity and pushing would then move it); the gem bound only when no rule writes the
//! global `gems`. A rule that can never match (a block with a number for a token, §6 L2) is
//! harmless. When neither bound stands, no estimate is offered (`None`) and `solve` uses
//! breadth-first search.
//!
//! **Dead states** (`is_dead`), under the same conditions: no `me` can reach an exit (every
//! figure's field is cut off from every exit by walls), or, when no rule writes `ticks`
//! either, the estimate from the current tick passes the time limit `ticks[0]` (§6 W2).

use super::BoulderGame;
use crate::level::{BoulderLevel, Rule, TokenPattern, TokenWrite};
use crate::token::{ALL_TOKENS, Global, Token, TokenSet, ValueKey, ValueName};

/// Which of the estimate's bounds the level's rules leave standing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Safety {
    /// No rule can move or create `me`, create `exit`, or remove or move `wall`.
    pub distance: bool,
    /// No rule writes the global `gems`.
    pub gems: bool,
    /// No rule writes the global `ticks`.
    pub ticks: bool,
}

impl Safety {
    /// Reads the `pre` and `post` rules of `level` (see the module documentation).
    pub fn of(level: &BoulderLevel) -> Safety {
        let mut s = Safety {
            distance: true,
            gems: true,
            ticks: true,
        };
        for rule in level.pre.iter().chain(&level.post) {
            rule_safety(rule, &mut s);
        }
        s
    }
}

/// The tokens an `original` block accepts.
fn accepts(p: &TokenPattern) -> TokenSet {
    match p {
        TokenPattern::Any => ALL_TOKENS,
        TokenPattern::OneOf(ts) => ts.iter().fold(0, |m, t| m | t.bit()),
        TokenPattern::Index(_) => 0,
    }
}

/// Clears the bounds of `s` that `rule` can break.
fn rule_safety(rule: &Rule, s: &mut Safety) {
    let blocks: Vec<TokenSet> = rule.original.iter().map(|p| accepts(&p.token)).collect();
    if blocks.contains(&0) {
        return; // a block no field matches: the rule never applies
    }
    let at = |j: usize| blocks.get(j).copied().unwrap_or(ALL_TOKENS);
    let figure = Token::Me.bit() | Token::Exit.bit();
    let fixed = figure | Token::Wall.bit();
    for (j, w) in rule.result.iter().enumerate() {
        let (written, identity) = match w.token {
            TokenWrite::Set(t) => (t.bit(), false),
            TokenWrite::Copy(k) => (at(k), k == j),
        };
        if !identity && written & figure != 0 {
            s.distance = false; // writes a `me` or an `exit`
        }
        let keeps_wall = identity || written == Token::Wall.bit();
        if at(j) & Token::Wall.bit() != 0 && !keeps_wall {
            s.distance = false; // may overwrite a wall
        }
        for (name, n) in &w.values {
            match name {
                ValueName::Field(ValueKey::Loose | ValueKey::Pushable)
                    if *n > 0 && at(j) & fixed != 0 =>
                {
                    s.distance = false;
                }
                ValueName::Global(Global::Gems) => s.gems = false,
                ValueName::Global(Global::Ticks) => s.ticks = false,
                _ => {}
            }
        }
    }
}

/// The estimate's tables for one search: what the rules allow and the distance of every
/// field to the nearest exit.
#[derive(Debug)]
pub struct Bound {
    safety: Safety,
    /// Side steps from each field to the nearest exit through fields that are not walls
    /// (`u32::MAX`: none); empty when the distance bound does not stand.
    to_exit: Vec<u32>,
}

impl Bound {
    /// The tables for searches from the current state of `g`; `None` when no bound stands.
    pub fn new(g: &BoulderGame) -> Option<Bound> {
        let safety = Safety::of(&g.level);
        if !safety.distance && !safety.gems {
            return None;
        }
        let to_exit = if safety.distance {
            distances(g)
        } else {
            Vec::new()
        };
        Some(Bound { safety, to_exit })
    }

    /// The least ticks to a win from the state of `g` (`u32::MAX`: no win reachable).
    pub fn ticks_to_win(&self, g: &BoulderGame) -> u32 {
        let figures = g.board.find(Token::Me.bit());
        if figures.is_empty() {
            return u32::MAX;
        }
        let mut h = 0;
        if self.safety.distance {
            h = figures
                .iter()
                .map(|&i| self.to_exit[i])
                .min()
                .unwrap_or(u32::MAX);
        }
        if self.safety.gems {
            let needed = g.level.gems[0].saturating_sub(g.globals[Global::Gems as usize]);
            let n = figures.len() as u32;
            let ticks = match (needed, n) {
                (0, _) => 0,
                (k, 1) => k.saturating_add(1),
                (k, n) => k.div_ceil(n),
            };
            h = h.max(ticks);
        }
        h
    }

    /// True when no win can be reached from the state of `g` by the bounds: no way to an
    /// exit, or (when no rule writes `ticks`) not enough ticks left.
    pub fn dead(&self, g: &BoulderGame) -> bool {
        let h = self.ticks_to_win(g);
        if h == u32::MAX {
            return true;
        }
        let now = g.globals[Global::Ticks as usize];
        self.safety.ticks && now.saturating_add(h) > g.level.ticks[0]
    }
}

/// Side steps from every field to the nearest exit of `g`'s board, through fields that are
/// not walls (breadth-first from the exits).
fn distances(g: &BoulderGame) -> Vec<u32> {
    let b = &g.board;
    let (w, h) = (b.width(), b.height());
    let mut d = vec![u32::MAX; w * h];
    let mut queue = std::collections::VecDeque::new();
    for i in b.find(Token::Exit.bit()) {
        d[i] = 0;
        queue.push_back(i);
    }
    while let Some(i) = queue.pop_front() {
        let (x, y) = (i % w, i / w);
        let next = [
            (x + 1 < w).then(|| i + 1),
            (x > 0).then(|| i - 1),
            (y + 1 < h).then(|| i + w),
            (y > 0).then(|| i - w),
        ];
        for j in next.into_iter().flatten() {
            if d[j] == u32::MAX && b.token(j) != Token::Wall {
                d[j] = d[i] + 1;
                queue.push_back(j);
            }
        }
    }
    d
}
