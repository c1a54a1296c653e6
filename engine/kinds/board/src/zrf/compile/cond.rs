//! Compiling conditions (of `verify`, `if`, `while`, flag values).

use crate::rules::{Cond, Loc};
use crate::zrf::sexpr::{Kind, Node};
use tilesmith_core::problem::quote;

use super::*;

/// The condition keywords that take an optional location and nothing else.
pub(super) const LOC_CONDS: &[&str] = &[
    "empty?",
    "friend?",
    "enemy?",
    "last-from?",
    "last-to?",
    "attacked?",
    "marked?",
];

/// ZRF conditions Tilesmith does not implement.
pub(super) const UNSUPPORTED_CONDS: &[&str] = &[
    "neutral?",
    "defended?",
    "position?",
    "not-neutral?",
    "not-defended?",
    "not-position?",
];

impl C {
    /// A condition (of `verify`, `if`, `while`, a flag value).
    pub(super) fn cond(&mut self, n: &Node) -> Option<Cond> {
        match &n.kind {
            Kind::Str(_) => {
                self.ctx.error(n, "a string is not a condition");
                None
            }
            Kind::Atom(a) => {
                let lower = a.to_ascii_lowercase();
                match lower.as_str() {
                    "true" => return Some(Cond::True),
                    "false" => return Some(Cond::False),
                    _ => {}
                }
                let (negated, base) = negation(&lower);
                if LOC_CONDS.contains(&base) {
                    let c = loc_cond(base, Loc::Here);
                    return Some(if negated { Cond::Not(Box::new(c)) } else { c });
                }
                self.cond_error(n, &lower);
                None
            }
            Kind::List(_) => {
                let Some((h, args)) = n.head() else {
                    self.ctx
                        .error(n, "a condition list must start with a condition word");
                    return None;
                };
                match h.as_str() {
                    "not" => {
                        return match args {
                            [x] => Some(Cond::Not(Box::new(self.cond(x)?))),
                            _ => {
                                self.ctx.error(n, "(not …) takes one condition");
                                None
                            }
                        };
                    }
                    "and" | "or" => {
                        if args.is_empty() {
                            self.ctx.error(n, format!("({h} …) needs conditions"));
                            return None;
                        }
                        let v: Vec<Option<Cond>> = args.iter().map(|x| self.cond(x)).collect();
                        let v: Option<Vec<Cond>> = v.into_iter().collect();
                        let v = v?;
                        return Some(if h == "and" {
                            Cond::And(v)
                        } else {
                            Cond::Or(v)
                        });
                    }
                    _ => {}
                }
                let (negated, base) = negation(&h);
                let c = if LOC_CONDS.contains(&base) {
                    loc_cond(base, self.opt_loc(n, &h, args)?)
                } else {
                    match base {
                        "piece?" | "in-zone?" | "position-flag?" | "attribute?" => {
                            let Some((first, rest)) = args.split_first() else {
                                self.ctx
                                    .error(n, format!("({h} name [position]) needs a name"));
                                return None;
                            };
                            let what = match base {
                                "piece?" => "piece type",
                                "in-zone?" => "zone",
                                "position-flag?" => "position flag",
                                _ => "attribute",
                            };
                            let id = self.lookup(what, first);
                            let l = self.opt_loc(n, &h, rest);
                            let (id, l) = (id? as u8, l?);
                            match base {
                                "piece?" => Cond::Piece(id, l),
                                "in-zone?" => Cond::InZone(id, l),
                                "position-flag?" => Cond::PositionFlag(id, l),
                                _ => Cond::Attribute(id, l),
                            }
                        }
                        "on-board?" => match args {
                            [x] => Cond::OnBoard(self.loc(x)?),
                            _ => {
                                self.ctx.error(
                                    n,
                                    "(on-board? direction-or-position) takes one argument",
                                );
                                return None;
                            }
                        },
                        "flag?" => match args {
                            [x] => Cond::Flag(self.lookup("flag", x)? as u8),
                            _ => {
                                self.ctx.error(n, "(flag? name) takes one flag name");
                                return None;
                            }
                        },
                        _ => {
                            self.cond_error(n, &h);
                            return None;
                        }
                    }
                };
                Some(if negated { Cond::Not(Box::new(c)) } else { c })
            }
        }
    }

    pub(super) fn cond_error(&mut self, n: &Node, word: &str) {
        let (_, base) = negation(word);
        let m = if UNSUPPORTED_CONDS.contains(&word) {
            format!("the condition {word} is not supported by Tilesmith")
        } else if matches!(
            base,
            "piece?" | "in-zone?" | "position-flag?" | "attribute?" | "on-board?" | "flag?"
        ) {
            format!("{word} needs its arguments: ({word} …)")
        } else {
            format!(
                "the condition {} is not supported by Tilesmith",
                quote(word)
            )
        };
        self.ctx.error(n, m);
    }
}

/// `not-x?` → (true, `x?`) for a condition word; otherwise (false, the word).
pub(super) fn negation(word: &str) -> (bool, &str) {
    match word.strip_prefix("not-") {
        Some(rest) if rest.ends_with('?') => (true, rest),
        _ => (false, word),
    }
}

/// The condition of a [`LOC_CONDS`] word at `l`.
pub(super) fn loc_cond(word: &str, l: Loc) -> Cond {
    match word {
        "empty?" => Cond::Empty(l),
        "friend?" => Cond::Friend(l),
        "enemy?" => Cond::Enemy(l),
        "last-from?" => Cond::LastFrom(l),
        "last-to?" => Cond::LastTo(l),
        "attacked?" => Cond::Attacked(l),
        _ => Cond::Marked(l),
    }
}
