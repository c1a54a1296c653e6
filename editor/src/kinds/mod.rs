//! The game kinds the editor edits: one module per kind, and the list of them.
//!
//! Adding a kind means one module here (its document implementing [`crate::doc::KindDoc`],
//! its UI implementing [`crate::doc::ui::KindUi`], its [`KindEntry`]) and one line in
//! [`registry`]; see `docs/architecture.md`, "Adding a game kind". Nothing of the shell
//! imports this module: the list is built at the top (the app, the CLI) and handed down as
//! [`Kinds`], which the shell reads through the seam of [`crate::doc::registry`].

pub mod baba;
pub mod board;
pub mod boulder;
pub mod falling;

use crate::doc::registry::{KindEntry, Kinds};

/// Every kind the editor edits, default first. One line per kind.
pub fn registry() -> Kinds {
    const KINDS: &[KindEntry] = &[boulder::ENTRY, baba::ENTRY, falling::ENTRY, board::ENTRY];
    Kinds(KINDS)
}
