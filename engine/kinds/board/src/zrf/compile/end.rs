//! Compiling end conditions (`win-condition`, `loss-condition`, `draw-condition`) and their tests.

use crate::rules::{EndCondition, EndTest, Outcome, PosId};
use crate::zrf::board::int;
use crate::zrf::sexpr::{Kind, Node};
use tilesmith_core::problem::quote;

use super::*;

impl C {
    /// `(win-condition (Player…) test)` and the loss, draw and count ones
    /// (`(count-condition (Player…) test)`: when the test holds for a listed player, the
    /// player with the most pieces on the board wins, a tie draws).
    pub(super) fn end_condition(&mut self, e: &Node) -> Option<EndCondition> {
        let (h, args) = e.head()?;
        let outcome = match h.as_str() {
            "win-condition" => Outcome::Win,
            "loss-condition" => Outcome::Loss,
            "count-condition" => Outcome::Count,
            _ => Outcome::Draw,
        };
        let (players, test) = match args {
            [ps, test] => {
                let names: Vec<&Node> = match &ps.kind {
                    Kind::List(v) => v.iter().collect(),
                    _ => vec![ps],
                };
                let mut players = Vec::new();
                for p in names {
                    players.push(self.lookup("player", p)? as u8);
                }
                (players, test)
            }
            [test] => ((0..self.players.len() as u8).collect(), test),
            _ => {
                self.ctx.error(
                    e,
                    format!("({h} (Players …) test) needs the players and one test"),
                );
                return None;
            }
        };
        let test = self.end_test(test)?;
        Some(EndCondition {
            outcome,
            players,
            test,
            span: e.span,
        })
    }

    pub(super) fn end_test(&mut self, n: &Node) -> Option<EndTest> {
        if let Some(a) = n.atom() {
            return match a.to_ascii_lowercase().as_str() {
                "stalemated" => Some(EndTest::Stalemated),
                "repetition" => Some(EndTest::Repetition),
                w => {
                    self.ctx.error(
                        n,
                        format!("the end test {} is not supported by Tilesmith", quote(w)),
                    );
                    None
                }
            };
        }
        let Some((h, args)) = n.head() else {
            self.ctx.error(n, "expected an end test");
            return None;
        };
        match h.as_str() {
            "pieces-remaining" => {
                let count = args
                    .first()
                    .and_then(int)
                    .filter(|v| (0..=i64::from(u32::MAX)).contains(v));
                let (Some(count), 1..=2) = (count, args.len()) else {
                    self.ctx
                        .error(n, "(pieces-remaining N [Type]) needs a count");
                    return None;
                };
                let t = match args.get(1) {
                    Some(t) => Some(self.lookup("piece type", t)? as u8),
                    None => None,
                };
                Some(EndTest::PiecesRemaining(count as u32, t))
            }
            "checkmated" => match args {
                [t] => Some(EndTest::Checkmated(self.lookup("piece type", t)? as u8)),
                _ => {
                    self.ctx.error(n, "(checkmated Type) needs one piece type");
                    None
                }
            },
            "absolute-config" => self.absolute_config(n, args),
            "and" | "or" => {
                if args.is_empty() {
                    self.ctx.error(n, format!("({h} …) needs tests"));
                    return None;
                }
                let v: Vec<Option<EndTest>> = args.iter().map(|x| self.end_test(x)).collect();
                let v: Vec<EndTest> = v.into_iter().collect::<Option<_>>()?;
                Some(if h == "and" {
                    EndTest::And(v)
                } else {
                    EndTest::Or(v)
                })
            }
            "not" => match args {
                [x] => Some(EndTest::Not(Box::new(self.end_test(x)?))),
                _ => {
                    self.ctx.error(n, "(not …) takes one test");
                    None
                }
            },
            _ => {
                self.ctx.error(
                    n,
                    format!(
                        "the end test ({} …) is not supported by Tilesmith",
                        quote(&h)
                    ),
                );
                None
            }
        }
    }

    /// `(absolute-config Type… (position…))`: the piece types (a list counts as its
    /// members) and the positions, which must not be zones.
    fn absolute_config(&mut self, n: &Node, args: &[Node]) -> Option<EndTest> {
        let Some((last, types)) = args.split_last() else {
            self.ctx.error(
                n,
                "(absolute-config Type… (position…)) needs types and positions",
            );
            return None;
        };
        let mut ts = Vec::new();
        let mut ok = true;
        for t in types {
            let names: Vec<&Node> = match &t.kind {
                Kind::List(v) => v.iter().collect(),
                _ => vec![t],
            };
            for x in names {
                match self.lookup("piece type", x) {
                    Some(id) => ts.push(id as u8),
                    None => ok = false,
                }
            }
        }
        if ts.is_empty() && ok {
            self.ctx
                .error(n, "(absolute-config Type… (position…)) needs a piece type");
            ok = false;
        }
        let Some(ps) = last.list() else {
            self.ctx.error(
                last,
                "absolute-config's last argument is a list of positions",
            );
            return None;
        };
        let mut pos = Vec::new();
        for p in ps {
            if p.atom().is_some_and(|a| self.zones.get(a).is_some()) {
                self.ctx.error(
                    p,
                    "a zone in absolute-config is not supported by Tilesmith; list the positions",
                );
                ok = false;
                continue;
            }
            match self.lookup("position", p) {
                Some(id) => pos.push(id as PosId),
                None => ok = false,
            }
        }
        ok.then_some(EndTest::AbsoluteConfig(ts, pos))
    }
}
