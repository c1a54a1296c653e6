//! Compiling `(option …)`: the ones that change play, the UI-only ones ignored, the others warned about.

use crate::rules::{Options, PassTurn};
use crate::zrf::sexpr::Node;
use tilesmith_core::problem::quote;

use super::*;

impl C {
    /// `(option "name" value)`.
    pub(super) fn option(&mut self, o: &Node, opts: &mut Options) {
        let items = o.list().unwrap_or_default();
        let (Some(name), Some(value), 3) = (
            items.get(1).and_then(Node::text),
            items.get(2).and_then(Node::text),
            items.len(),
        ) else {
            self.ctx
                .error(o, "(option \"name\" value) needs a name and a value");
            return;
        };
        let name = name.to_ascii_lowercase();
        let value = value.to_ascii_lowercase();
        let vnode = &items[2];
        let boolean = |c: &mut C| -> Option<bool> {
            match value.as_str() {
                "true" => Some(true),
                "false" => Some(false),
                _ => {
                    c.ctx.error(
                        vnode,
                        format!("option {} takes true or false", quote(&name)),
                    );
                    None
                }
            }
        };
        match name.as_str() {
            "pass turn" => {
                opts.pass_turn = match value.as_str() {
                    "true" => PassTurn::Allowed,
                    "false" => PassTurn::Never,
                    "forced" => PassTurn::Forced,
                    _ => {
                        self.ctx
                            .error(vnode, "option \"pass turn\" takes true, false or forced");
                        return;
                    }
                }
            }
            "pass partial" => {
                if let Some(b) = boolean(self) {
                    opts.pass_partial = b;
                }
            }
            "discard cascades" => {
                if let Some(b) = boolean(self) {
                    opts.discard_cascades = b;
                }
            }
            s if UI_OPTIONS.contains(&s) || s.starts_with("animate") => {}
            "recycle captures" | "maximal captures" | "ko" => {
                if value != "false" {
                    self.ctx.error(
                        o,
                        format!(
                            "option {} {} is not supported by Tilesmith (it changes play); only false is",
                            quote(&name),
                            quote(&value)
                        ),
                    );
                }
            }
            _ if value == "false" => {}
            "chess invariant" => self.ctx.warn(
                o,
                "option \"chess invariant\" stood for JavaScript in the source project and Tilesmith cannot honour it: castling is not limited to a King and Rook that have not moved, nor kept out of or through check",
            ),
            "columns-checkers-extension" => self.ctx.warn(
                o,
                "option \"columns-checkers-extension\" stood for JavaScript in the source project and Tilesmith cannot honour it: captured pieces are removed instead of forming columns under the capturer, so this is not Laska",
            ),
            "sliding-puzzle" => self.ctx.warn(
                o,
                "option \"sliding-puzzle\" stood for JavaScript in the source project and Tilesmith cannot honour it: pieces covering several positions do not move as one block",
            ),
            s if s.ends_with("-extension") || s.ends_with(" extension") => self.ctx.warn(
                o,
                format!(
                    "option {} stood for JavaScript in the source project and Tilesmith cannot honour it: the game is played by its ZRF rules alone",
                    quote(s)
                ),
            ),
            _ => self.ctx.warn(
                o,
                format!(
                    "option {} is not known to Tilesmith and is ignored",
                    quote(&name)
                ),
            ),
        }
    }
}
