//! Compiling the turn order and the setup.

use crate::rules::{Place, PosId, Rules, SetupEntry, Span, TurnEntry};
use crate::zrf::MAX_OFF;
use crate::zrf::board::int;
use crate::zrf::sexpr::{Kind, Node};
use tilesmith_core::problem::quote;

use super::*;

impl C {
    /// `(turn-order …)`.
    pub(super) fn turn_order(&mut self, t: &Node, rules: &mut Rules) {
        let mut entries = Vec::new();
        let mut repeat = None;
        for e in t.list().unwrap_or_default().iter().skip(1) {
            match &e.kind {
                Kind::Atom(a) if a.eq_ignore_ascii_case("repeat") => {
                    if repeat.is_some() {
                        self.ctx.error(e, "repeat is given twice in the turn order");
                    }
                    repeat = Some(entries.len());
                }
                Kind::Atom(_) => {
                    if let Some(p) = self.lookup("player", e) {
                        entries.push(TurnEntry {
                            player: p as u8,
                            move_type: None,
                        });
                    }
                }
                Kind::List(v) if v.len() == 2 => {
                    let p = self.lookup("player", &v[0]);
                    let m = self.move_type(&v[1]);
                    if let (Some(p), Some(m)) = (p, m) {
                        entries.push(TurnEntry {
                            player: p as u8,
                            move_type: Some(m as u8),
                        });
                    }
                }
                _ => self.ctx.error(
                    e,
                    "a turn-order entry is a player, (player move-type) or repeat; anything else is not supported by Tilesmith",
                ),
            }
        }
        if entries.is_empty() {
            self.ctx.error(t, "the turn order names no player");
            return;
        }
        if repeat == Some(entries.len()) {
            self.ctx
                .error(t, "repeat ends the turn order: nothing to repeat");
        }
        rules.repeat_from = repeat.unwrap_or(0);
        rules.turn_order = entries;
    }

    /// `(board-setup (Player (Type pos… [off N]) …) …)`.
    pub(super) fn setup(&mut self, s: &Node, rules: &mut Rules) {
        let mut taken: HashMap<PosId, Span> = rules
            .setup
            .iter()
            .filter_map(|e| match e.place {
                Place::At(p) => Some((p, Span::default())),
                Place::Off(_) => None,
            })
            .collect();
        for pl in s.list().unwrap_or_default().iter().skip(1) {
            let Some((first, groups)) = pl.list().and_then(<[Node]>::split_first) else {
                self.ctx
                    .error(pl, "a board-setup entry is (Player (Type position …) …)");
                continue;
            };
            let Some(player) = self.lookup("player", first) else {
                continue;
            };
            for g in groups {
                let Some((tn, places)) = g.list().and_then(<[Node]>::split_first) else {
                    self.ctx.error(g, "expected (Type position … [off N])");
                    continue;
                };
                let Some(piece) = self.lookup("piece type", tn) else {
                    continue;
                };
                let mut k = 0;
                while k < places.len() {
                    let p = &places[k];
                    if p.atom().is_some_and(|a| a.eq_ignore_ascii_case("off")) {
                        let n = places.get(k + 1).and_then(int);
                        match n {
                            Some(n) if (0..=i64::from(MAX_OFF)).contains(&n) => {
                                rules.setup.push(SetupEntry {
                                    player: player as u8,
                                    piece: piece as u8,
                                    place: Place::Off(n as u32),
                                });
                            }
                            _ => self
                                .ctx
                                .error(p, format!("off needs a count from 0 to {MAX_OFF}: off N")),
                        }
                        k += 2;
                        continue;
                    }
                    k += 1;
                    let Some(pos) = self.lookup("position", p) else {
                        continue;
                    };
                    let pos = pos as PosId;
                    if let Some(prev) = taken.insert(pos, p.span) {
                        let at = if prev == Span::default() {
                            String::new()
                        } else {
                            format!(" at {}:{}", prev.line, prev.col)
                        };
                        self.ctx.error(
                            p,
                            format!(
                                "{} already has a piece in the setup{at}",
                                quote(p.atom().unwrap_or_default())
                            ),
                        );
                        continue;
                    }
                    rules.setup.push(SetupEntry {
                        player: player as u8,
                        piece: piece as u8,
                        place: Place::At(pos),
                    });
                }
            }
        }
    }
}
