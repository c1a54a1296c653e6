//! The game kinds the editor edits: one module per kind, and the list of them.
//!
//! Adding a kind means one module here (its document implementing [`crate::doc::KindDoc`],
//! its UI implementing [`crate::doc::ui::KindUi`], its [`KindEntry`] and [`UiEntry`]) and its
//! name in the two lists below, [`registry`] and [`uis`]; see `docs/architecture.md`, "Adding a game kind". Nothing of the shell
//! imports this module: the list is built at the top (the app, the CLI) and handed down as
//! [`Kinds`] and [`KindUis`], which the shell reads through the seams of
//! [`crate::doc::registry`] and [`crate::doc::ui`].

pub mod baba;
pub mod board;
pub mod boulder;
pub mod falling;
pub mod pasta;

use crate::doc::registry::{KindEntry, Kinds};
use crate::doc::ui::{KindUis, UiEntry};

/// Every kind the editor edits, default first. One line per kind.
pub fn registry() -> Kinds {
    const KINDS: &[KindEntry] = &[
        boulder::ENTRY,
        baba::ENTRY,
        falling::ENTRY,
        board::ENTRY,
        pasta::ENTRY,
    ];
    Kinds(KINDS)
}

/// The UIs of the kinds, in the order of [`registry`]. One line per kind.
pub fn uis() -> KindUis {
    const UIS: &[UiEntry] = &[boulder::UI, baba::UI, falling::UI, board::UI, pasta::UI];
    KindUis(UIS)
}
