//! Tables derived once from [`Rules`] for a run of generation: symmetry with identity filled
//! in, zone membership by position, the royal piece types of each player (from
//! `(checkmated Type)`), the default attributes, and whether reserves are counted.

use super::super::rules::{
    DirId, EndTest, NO_POS, PieceId, PlayerId, PosId, Rules, SetupEntry, ZoneId,
};
use super::code::Programs;
use super::reach::Reach;

/// The rules with their derived tables, as the generator reads them.
#[derive(Clone, Copy)]
pub(crate) struct Ctx<'r> {
    pub rules: &'r Rules,
    pub t: &'r Tables,
    /// When set (by another thread), move generation stops after the block it is running
    /// with the error [`super::CANCELLED`] ([`tilesmith_core::game::Game::set_cancel_flag`]).
    pub cancel: Option<&'r std::sync::atomic::AtomicBool>,
}

impl std::ops::Deref for Ctx<'_> {
    type Target = Tables;
    fn deref(&self) -> &Tables {
        self.t
    }
}

/// Tables derived from one [`Rules`] (built in a few microseconds; the reach tables for
/// attack probes are built on first use).
#[derive(Clone)]
pub(crate) struct Tables {
    /// Number of directions.
    pub nd: usize,
    /// Number of positions.
    pub npos: usize,
    /// Number of players (at least 1).
    pub nplayers: usize,
    /// `plinks[(player * npos + pos) * nd + dir]`: the step from `pos` in the block direction
    /// `dir` as `player` reads it (symmetry applied), or [`NO_POS`].
    plinks: Vec<PosId>,
    /// `zone_in[(zone * nplayers + player) * npos + pos]`.
    zone_in: Vec<bool>,
    /// `royal[player]`: piece types named by a `(checkmated Type)` in an end condition that
    /// lists the player (the legality filter keeps them unattacked, spec P5).
    pub royal: Vec<Vec<PieceId>>,
    /// Attribute bits every new piece starts with.
    pub default_attrs: u32,
    /// The end conditions made of lines, by square ([`super::end::evaluate_changed`]).
    pub lines: super::end::LineIndex,
    reach: std::sync::OnceLock<Option<Reach>>,
    /// The blocks in flat form for the generator, laid out on first use.
    programs: std::sync::OnceLock<Programs>,
}

impl std::fmt::Debug for Tables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tables")
            .field("positions", &self.npos)
            .field("directions", &self.nd)
            .field("players", &self.nplayers)
            .finish_non_exhaustive()
    }
}

impl<'r> Ctx<'r> {
    /// The reach tables for probes, built on first use (`None` when the board is too big
    /// for them).
    pub fn reach(&self) -> Option<&'r Reach> {
        let t: &'r Tables = self.t;
        t.reach.get_or_init(|| Reach::build(self)).as_ref()
    }

    /// The blocks of the rules in flat form ([`super::code`]), laid out on first use.
    #[inline]
    pub fn programs(&self) -> &'r Programs {
        let t: &'r Tables = self.t;
        t.programs.get_or_init(|| Programs::build(self.rules))
    }
}

impl Tables {
    pub fn new(rules: &Rules) -> Tables {
        let nd = rules.board.directions.len();
        let npos = rules.board.positions.len();
        let nplayers = rules.players.len().max(1);
        let sym: Vec<Vec<DirId>> = (0..nplayers)
            .map(|p| {
                (0..nd)
                    .map(|d| {
                        rules
                            .board
                            .symmetry
                            .get(p)
                            .and_then(|s| s.get(d))
                            .copied()
                            .filter(|&m| (m as usize) < nd)
                            .unwrap_or(d as DirId)
                    })
                    .collect()
            })
            .collect();
        let mut plinks = vec![NO_POS; nplayers * npos * nd];
        for (p, sym) in sym.iter().enumerate() {
            for pos in 0..npos {
                for (d, &m) in sym.iter().enumerate() {
                    plinks[(p * npos + pos) * nd + d] = rules
                        .board
                        .links
                        .get(pos * nd + m as usize)
                        .copied()
                        .filter(|&q| (q as usize) < npos)
                        .unwrap_or(NO_POS);
                }
            }
        }
        let nz = rules.board.zones.len();
        let mut zone_in = vec![false; nz * nplayers * npos];
        for (z, zone) in rules.board.zones.iter().enumerate() {
            for (p, list) in zone.positions.iter().enumerate().take(nplayers) {
                for &q in list {
                    if (q as usize) < npos {
                        zone_in[(z * nplayers + p) * npos + q as usize] = true;
                    }
                }
            }
        }
        let mut royal = vec![Vec::new(); nplayers];
        for end in &rules.ends {
            let mut kinds = Vec::new();
            collect_checkmated(&end.test, &mut kinds);
            for &p in &end.players {
                if let Some(r) = royal.get_mut(p as usize) {
                    for &k in &kinds {
                        if !r.contains(&k) {
                            r.push(k);
                        }
                    }
                }
            }
        }
        let default_attrs = super::super::rules::default_attrs(rules);
        Tables {
            nd,
            npos,
            nplayers,
            plinks,
            zone_in,
            reach: std::sync::OnceLock::new(),
            programs: std::sync::OnceLock::new(),
            royal,
            default_attrs,
            lines: super::end::LineIndex::build(rules, npos),
        }
    }

    /// The position one step from `p` in the block direction `d` as `player` reads it, or
    /// [`NO_POS`].
    #[inline]
    pub fn step(&self, player: PlayerId, p: PosId, d: DirId) -> PosId {
        if p as usize >= self.npos || d as usize >= self.nd {
            return NO_POS;
        }
        let i = (player as usize * self.npos + p as usize) * self.nd + d as usize;
        self.plinks.get(i).copied().unwrap_or(NO_POS)
    }

    /// The step table of `player`: entry `pos * nd + dir` is [`Tables::step`] of `pos` and
    /// `dir` (empty for a player out of range).
    #[inline]
    pub fn links_of(&self, player: PlayerId) -> &[PosId] {
        let n = self.npos * self.nd;
        let s = player as usize * n;
        self.plinks.get(s..s + n).unwrap_or(&[])
    }

    /// Whether `p` is in zone `z` for `player`.
    #[inline]
    pub fn in_zone(&self, z: ZoneId, player: PlayerId, p: PosId) -> bool {
        let i = ((z as usize * self.nplayers) + player as usize) * self.npos + p as usize;
        (p as usize) < self.npos
            && (player as usize) < self.nplayers
            && self.zone_in.get(i) == Some(&true)
    }

    /// True when the setup counts reserves (`off N` somewhere): then drops take pieces from
    /// them; otherwise drops are unlimited.
    pub fn setup_counts_reserves(setup: &[SetupEntry]) -> bool {
        setup
            .iter()
            .any(|e| matches!(e.place, super::super::rules::Place::Off(_)))
    }
}

fn collect_checkmated(t: &EndTest, out: &mut Vec<PieceId>) {
    match t {
        EndTest::Checkmated(k) => out.push(*k),
        EndTest::And(v) | EndTest::Or(v) => v.iter().for_each(|t| collect_checkmated(t, out)),
        EndTest::Not(t) => collect_checkmated(t, out),
        _ => {}
    }
}
