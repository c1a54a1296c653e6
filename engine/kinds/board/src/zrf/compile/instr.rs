//! Compiling the instructions of move and drop blocks.

use crate::rules::{AddKind, Cond, GoTarget, Instr, Loc, PosId};
use crate::zrf::board::unknown;
use crate::zrf::sexpr::{Kind, Node};
use tilesmith_core::problem::quote;

use super::*;

/// ZRF instructions Tilesmith does not implement.
pub(super) const UNSUPPORTED_INSTRS: &[&str] = &["opposite", "unlink", "link"];

impl C {
    /// The instructions of a block (or of an `if`/`while` body) onto `out`.
    pub(super) fn instrs(&mut self, items: &[Node], out: &mut Vec<Instr>) {
        for item in items {
            if let Some(i) = self.instr(item) {
                out.push(i);
            }
        }
    }

    pub(super) fn instr(&mut self, n: &Node) -> Option<Instr> {
        let sp = n.span;
        match &n.kind {
            Kind::Str(s) => {
                self.ctx
                    .error(n, format!("a string {} is not an instruction", quote(s)));
                None
            }
            Kind::Atom(a) => {
                let lower = a.to_ascii_lowercase();
                let add = |kind| Instr::Add {
                    kind,
                    promote: Vec::new(),
                    continue_type: None,
                    span: sp,
                };
                Some(match lower.as_str() {
                    "add" => add(AddKind::Add),
                    "add-copy" => add(AddKind::Copy),
                    "add-partial" => add(AddKind::Partial),
                    "add-copy-partial" => add(AddKind::CopyPartial),
                    "cascade" => Instr::Cascade(sp),
                    "capture" => Instr::Capture(Loc::Here, sp),
                    "flip" => Instr::Flip(Loc::Here, sp),
                    "change-owner" => Instr::ChangeOwner(Loc::Here, sp),
                    "from" => Instr::From(Loc::Here, sp),
                    "to" => Instr::To(Loc::Here, sp),
                    "mark" => Instr::Mark(Loc::Here, sp),
                    "back" => Instr::Back(sp),
                    "else" => {
                        self.ctx.error(n, "else outside (if …)");
                        return None;
                    }
                    "verify" | "if" | "while" | "set-flag" | "set-position-flag"
                    | "change-type" | "create" | "set-attribute" | "go" => {
                        self.ctx
                            .error(n, format!("{lower} needs its arguments: ({lower} …)"));
                        return None;
                    }
                    _ => {
                        if let Some(d) = self.directions.get(a) {
                            Instr::Step(d as u8, sp)
                        } else if let Some(p) = self.positions.get(a) {
                            Instr::Goto(p as PosId, sp)
                        } else {
                            self.ctx.error(
                                n,
                                format!(
                                    "{} in a move block is not supported by Tilesmith: it is not a direction, position or instruction; directions: {}",
                                    quote(a),
                                    name_list(&self.directions.list)
                                ),
                            );
                            return None;
                        }
                    }
                })
            }
            Kind::List(_) => {
                let Some((h, args)) = n.head() else {
                    self.ctx.error(
                        n,
                        "a list in a move block must start with an instruction word",
                    );
                    return None;
                };
                self.list_instr(n, &h, args)
            }
        }
    }

    pub(super) fn list_instr(&mut self, n: &Node, h: &str, args: &[Node]) -> Option<Instr> {
        let sp = n.span;
        let one_cond = |c: &mut C, args: &[Node]| -> Option<Cond> {
            match args {
                [x] => c.cond(x),
                _ => {
                    c.ctx.error(n, format!("({h} …) needs one condition"));
                    None
                }
            }
        };
        match h {
            "verify" => Some(Instr::Verify(one_cond(self, args)?, sp)),
            "if" => self.if_instr(n, args, sp),
            "while" => {
                let Some((c, rest)) = args.split_first() else {
                    self.ctx.error(n, "(while condition …) needs a condition");
                    return None;
                };
                let c = self.cond(c);
                let mut body = Vec::new();
                self.instrs(rest, &mut body);
                Some(Instr::While(c?, body, sp))
            }
            "set-flag" => match args {
                [f, c] => {
                    let f = self.lookup("flag", f);
                    let c = self.cond(c);
                    Some(Instr::SetFlag(f? as u8, c?, sp))
                }
                _ => {
                    self.ctx
                        .error(n, "(set-flag name condition) needs a name and a condition");
                    None
                }
            },
            "set-position-flag" => {
                if args.len() < 2 || args.len() > 3 {
                    self.ctx.error(
                        n,
                        "(set-position-flag name condition [position]) needs a name and a condition",
                    );
                    return None;
                }
                let f = self.lookup("position flag", &args[0]);
                let c = self.cond(&args[1]);
                let l = self.opt_loc(n, h, &args[2..]);
                Some(Instr::SetPositionFlag(f? as u8, c?, l?, sp))
            }
            "add" | "add-copy" | "add-partial" | "add-copy-partial" => self.add_instr(h, args, sp),
            "cascade" => {
                if !args.is_empty() {
                    self.ctx.error(n, "cascade takes no arguments");
                }
                Some(Instr::Cascade(sp))
            }
            "back" => {
                if !args.is_empty() {
                    self.ctx.error(n, "back takes no arguments");
                }
                Some(Instr::Back(sp))
            }
            "capture" => Some(Instr::Capture(self.opt_loc(n, h, args)?, sp)),
            "flip" => Some(Instr::Flip(self.opt_loc(n, h, args)?, sp)),
            "change-owner" => Some(Instr::ChangeOwner(self.opt_loc(n, h, args)?, sp)),
            "from" => Some(Instr::From(self.opt_loc(n, h, args)?, sp)),
            "to" => Some(Instr::To(self.opt_loc(n, h, args)?, sp)),
            "mark" => Some(Instr::Mark(self.opt_loc(n, h, args)?, sp)),
            "go" => self.go_instr(n, args, sp),
            "change-type" => {
                let Some((t, rest)) = args.split_first() else {
                    self.ctx
                        .error(n, "(change-type Type [position]) needs a piece type");
                    return None;
                };
                let t = self.lookup("piece type", t);
                let l = self.opt_loc(n, h, rest);
                Some(Instr::ChangeType(t? as u8, l?, sp))
            }
            "create" => self.create_instr(n, h, args, sp),
            "set-attribute" => {
                if args.len() < 2 || args.len() > 3 {
                    self.ctx.error(
                        n,
                        "(set-attribute name condition [position]) needs a name and a condition",
                    );
                    return None;
                }
                let a = self.lookup("attribute", &args[0]);
                let c = self.cond(&args[1]);
                let l = self.opt_loc(n, h, &args[2..]);
                Some(Instr::SetAttribute(a? as u8, c?, l?, sp))
            }
            _ if UNSUPPORTED_INSTRS.contains(&h) => {
                self.ctx
                    .error(n, format!("({h} …) is not supported by Tilesmith"));
                None
            }
            _ => {
                self.ctx.error(
                    n,
                    format!(
                        "({} …) in a move block is not supported by Tilesmith",
                        quote(h)
                    ),
                );
                None
            }
        }
    }

    /// `(if condition … [else …])`: the condition and both branches.
    fn if_instr(&mut self, n: &Node, args: &[Node], sp: Span) -> Option<Instr> {
        let Some((c, rest)) = args.split_first() else {
            self.ctx.error(n, "(if condition …) needs a condition");
            return None;
        };
        let c = self.cond(c);
        let split = rest
            .iter()
            .position(|x| x.atom().is_some_and(|a| a.eq_ignore_ascii_case("else")));
        let (then, other) = match split {
            Some(k) => (&rest[..k], &rest[k + 1..]),
            None => (rest, &rest[rest.len()..]),
        };
        let mut t = Vec::new();
        self.instrs(then, &mut t);
        let mut e = Vec::new();
        self.instrs(other, &mut e);
        Some(Instr::If(c?, t, e, sp))
    }

    /// `add` and its copy and partial forms: the piece types to promote to and, for a partial move, the move type to continue with.
    fn add_instr(&mut self, h: &str, args: &[Node], sp: Span) -> Option<Instr> {
        let kind = match h {
            "add" => AddKind::Add,
            "add-copy" => AddKind::Copy,
            "add-partial" => AddKind::Partial,
            _ => AddKind::CopyPartial,
        };
        let partial = matches!(kind, AddKind::Partial | AddKind::CopyPartial);
        let mut promote = Vec::new();
        let mut continue_type = None;
        let mut ok = true;
        for a in args {
            let name = a.atom();
            if let Some(p) = name.and_then(|x| self.pieces.get(x)) {
                promote.push(p as u8);
            } else if let Some(t) = name.and_then(|x| self.move_types.get(x))
                && partial
                && continue_type.is_none()
            {
                continue_type = Some(t as u8);
            } else {
                ok = false;
                let m = if partial {
                    format!(
                        "{}; move types: {}",
                        unknown("piece type", a, &self.pieces.list),
                        name_list(&self.move_types.list)
                    )
                } else {
                    unknown("piece type", a, &self.pieces.list)
                };
                self.ctx.error(a, m);
            }
        }
        ok.then_some(Instr::Add {
            kind,
            promote,
            continue_type,
            span: sp,
        })
    }

    /// `(go from|to|mark|last-from|last-to)`.
    fn go_instr(&mut self, n: &Node, args: &[Node], sp: Span) -> Option<Instr> {
        let t = match args {
            [t] => t.atom().map(str::to_ascii_lowercase),
            _ => None,
        };
        let target = match t.as_deref() {
            Some("from") => GoTarget::From,
            Some("to") => GoTarget::To,
            Some("mark") => GoTarget::Mark,
            Some("last-from") => GoTarget::LastFrom,
            Some("last-to") => GoTarget::LastTo,
            _ => {
                self.ctx
                    .error(n, "(go …) takes one of from, to, mark, last-from, last-to");
                return None;
            }
        };
        Some(Instr::Go(target, sp))
    }

    /// `(create [Player] Type [position])`.
    fn create_instr(&mut self, n: &Node, h: &str, args: &[Node], sp: Span) -> Option<Instr> {
        let mut rest = args;
        let mut owner = None;
        if let [p, t, ..] = args
            && let Some(pl) = p.atom().and_then(|a| self.players.get(a))
            && t.atom().and_then(|a| self.pieces.get(a)).is_some()
        {
            owner = Some(pl as u8);
            rest = &args[1..];
        }
        let Some((t, rest)) = rest.split_first() else {
            self.ctx
                .error(n, "(create [Player] Type [position]) needs a piece type");
            return None;
        };
        let t = self.lookup("piece type", t);
        let l = self.opt_loc(n, h, rest);
        Some(Instr::Create(owner, t? as u8, l?, sp))
    }
}
