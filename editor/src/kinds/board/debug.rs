//! The place of the move-generation debugger and the computer opponent (issue 13), which
//! are not built yet: their engine side (generation grouped by move block with the moves the
//! legality filter and `move-priorities` removed, stepping a move level by level, a search
//! within a time budget) is being written on the engine's `board-extra` branch.
//!
//! When it lands, the debugger is a page of the Rules tab (`RulesPage::Debugger` in `ui.rs`):
//! click a square and see every move generated for the piece there (or every drop), grouped
//! by move definition, each with its primitives in written order, its execution level, the
//! key primitive marked and the move type; hover a move to see its result on the board. The
//! computer opponent is a section of the play pane. Until then the page says so, and nothing
//! pretends to be either.

use eframe::egui::{RichText, Ui};

/// The debugger page: what it will show, and that it is not built yet.
pub fn debugger_ui(ui: &mut Ui) {
    ui.heading("Move-generation debugger");
    ui.label(
        RichText::new(
            "Not built yet. It will list every move generated for a clicked square, grouped by \
             move block, with its primitives in written order, their execution levels, the key \
             primitive and the move type, and the moves the legality filter or \
             move-priorities removed.",
        )
        .weak(),
    );
}
