//! Declaring and compiling pieces: names, attributes, flags, move and drop blocks.

use crate::rules::{MoveDef, PieceDef};
use crate::zrf::board::unknown;
use crate::zrf::sexpr::Node;
use crate::zrf::{MAX_ATTRIBUTES, MAX_FLAGS, MAX_MOVE_TYPES, MAX_PIECES};
use tilesmith_core::problem::quote;

use super::*;

impl C {
    /// Registers a piece's name and its attributes.
    pub(super) fn declare_piece(&mut self, p: &Node) {
        let items = p.list().unwrap_or_default();
        let name = items.iter().skip(1).find_map(|i| match i.head() {
            Some((h, args)) if h == "name" => Some((i, args)),
            _ => None,
        });
        let Some((name_node, args)) = name else {
            self.ctx.error(p, "the piece has no (name …)");
            return;
        };
        let Some(n) = args
            .first()
            .and_then(Node::atom)
            .filter(|_| args.len() == 1)
        else {
            self.ctx
                .error(name_node, "(name …) of a piece needs one name");
            return;
        };
        if self.pieces.get(n).is_some() {
            self.ctx
                .error(name_node, format!("piece {} is defined twice", quote(n)));
            return;
        }
        if self.pieces.len() >= MAX_PIECES {
            self.ctx.error(
                p,
                format!("more than {MAX_PIECES} piece types; Tilesmith plays at most that many"),
            );
            return;
        }
        self.pieces.insert(n);
        for i in items.iter().skip(1) {
            if let Some((h, args)) = i.head()
                && h == "attribute"
            {
                let value = args
                    .get(1)
                    .and_then(Node::atom)
                    .map(str::to_ascii_lowercase);
                let (Some(a), Some(v), 2) = (args.first().and_then(Node::atom), value, args.len())
                else {
                    self.ctx
                        .error(i, "(attribute name default) needs a name and true or false");
                    continue;
                };
                let v = match v.as_str() {
                    "true" => true,
                    "false" => false,
                    _ => {
                        self.ctx.error(i, "an attribute's default is true or false");
                        continue;
                    }
                };
                match self.attributes.get(a) {
                    Some(id) if self.attribute_defaults[id] != v => self.ctx.warn(
                        i,
                        format!(
                            "attribute {} was declared with default {}; that default is used for every piece type",
                            quote(a),
                            self.attribute_defaults[id]
                        ),
                    ),
                    Some(_) => {}
                    None if self.attributes.len() >= MAX_ATTRIBUTES => self
                        .ctx
                        .error(i, format!("more than {MAX_ATTRIBUTES} attributes")),
                    None => {
                        self.attributes.insert(a);
                        self.attribute_defaults.push(v);
                    }
                }
            }
        }
    }

    /// Registers the move types and the flags a piece's blocks set, so that any block (and
    /// the turn order) may refer to them.
    pub(super) fn declare_in_blocks(&mut self, p: &Node) {
        for sec in p.list().unwrap_or_default().iter().skip(1) {
            let Some((h, args)) = sec.head() else {
                continue;
            };
            if h != "moves" && h != "drops" {
                continue;
            }
            for b in args {
                match b.head() {
                    Some((h, args)) if h == "move-type" => {
                        if let (Some(t), 1) = (args.first().and_then(Node::atom), args.len()) {
                            if self.move_types.get(t).is_none()
                                && self.move_types.len() >= MAX_MOVE_TYPES
                            {
                                self.ctx
                                    .error(b, format!("more than {MAX_MOVE_TYPES} move types"));
                            } else {
                                self.move_types.insert(t);
                            }
                        }
                    }
                    _ => self.declare_flags(b),
                }
            }
        }
    }

    /// Registers the flags set anywhere inside `n`.
    pub(super) fn declare_flags(&mut self, n: &Node) {
        let Some(items) = n.list() else { return };
        if let Some((h, args)) = n.head() {
            let table = match h.as_str() {
                "set-flag" => Some(&mut self.flags),
                "set-position-flag" => Some(&mut self.position_flags),
                _ => None,
            };
            if let Some(table) = table
                && let Some(f) = args.first().and_then(Node::atom)
            {
                if table.get(f).is_none() && table.len() >= MAX_FLAGS {
                    self.ctx.error(n, format!("more than {MAX_FLAGS} flags"));
                } else {
                    table.insert(f);
                }
            }
        }
        for i in items {
            self.declare_flags(i);
        }
    }

    /// Compiles one `(piece …)`.
    pub(super) fn piece(&mut self, p: &Node) -> Option<PieceDef> {
        let items = p.list().unwrap_or_default();
        let name = items.iter().skip(1).find_map(|i| match i.head() {
            Some((h, args)) if h == "name" => args.first().and_then(Node::atom),
            _ => None,
        })?;
        let mut def = PieceDef {
            name: name.to_string(),
            span: p.span,
            ..PieceDef::default()
        };
        for sec in items.iter().skip(1) {
            let Some((h, args)) = sec.head() else {
                self.ctx.error(sec, "expected a (…) section of the piece");
                continue;
            };
            match h.as_str() {
                "name" | "attribute" | "image" | "help" | "description" | "notes" | "value"
                | "dummy" => {}
                "moves" | "drops" => {
                    let mut move_type = None;
                    for b in args {
                        match b.head() {
                            Some((h, targs)) if h == "move-type" => {
                                match (targs.first(), targs.len()) {
                                    (Some(t), 1) => move_type = self.move_type(t),
                                    _ => self.ctx.error(b, "(move-type …) needs one name"),
                                }
                            }
                            _ => {
                                let Some(block) = b.list() else {
                                    self.ctx.error(
                                        b,
                                        format!(
                                            "expected a move block ( … ) in ({h} …), found {}",
                                            quote(b.text().unwrap_or_default())
                                        ),
                                    );
                                    continue;
                                };
                                let mut instrs = Vec::new();
                                self.instrs(block, &mut instrs);
                                let m = MoveDef {
                                    move_type: move_type.map(|t| t as u8),
                                    block: instrs,
                                    span: b.site.unwrap_or(b.span),
                                };
                                if h == "moves" {
                                    def.moves.push(m);
                                } else {
                                    def.drops.push(m);
                                }
                            }
                        }
                    }
                }
                _ => self.ctx.error(
                    sec,
                    format!(
                        "unknown piece section ({} …) is not supported by Tilesmith",
                        quote(&h)
                    ),
                ),
            }
        }
        Some(def)
    }

    /// A move type named by `n`.
    pub(super) fn move_type(&mut self, n: &Node) -> Option<usize> {
        match n.atom().and_then(|a| self.move_types.get(a)) {
            Some(t) => Some(t),
            None => {
                self.ctx.error(
                    n,
                    format!(
                        "{} (move types are declared by (move-type …) in a piece's moves or drops)",
                        unknown("move type", n, &self.move_types.list)
                    ),
                );
                None
            }
        }
    }
}
