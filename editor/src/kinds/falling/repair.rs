//! Repair mode for falling levels (docs/editor.md, "Repair mode"): how the editor names and
//! draws the unknown cells of a level read by [`FallingLevel::from_json_editable`] — `field`
//! characters that are not `legend` keys, kept in [`FallingLevel::unknown`] and written back
//! unchanged, and the cells missing from short rows. Drawn like baba's unknown tiles: magenta
//! with a black hatch ([`crate::ui::mesh::add_unknown`]) and the character written
//! on it (`…` for a missing cell).
//!
//! [`FallingLevel::from_json_editable`]: tilesmith_engine::kind::falling::FallingLevel::from_json_editable
//! [`FallingLevel::unknown`]: tilesmith_engine::kind::falling::FallingLevel::unknown

use eframe::egui::{self, Color32, Painter, vec2};
use tilesmith_engine::kind::falling::field::BlockId;
use tilesmith_engine::kind::falling::level::{MISSING_CELL, UNKNOWN_FIRST};
use tilesmith_engine::problem::quote;

use super::FallingDoc;
use crate::doc::ui::MapGeom;

/// True for a cell id that is an unknown character or a missing cell (repair mode).
pub fn is_unknown(id: BlockId) -> bool {
    id >= UNKNOWN_FIRST
}

impl FallingDoc {
    /// What the file holds in an unknown cell `id`: its character (`x`), `…` for a cell
    /// missing from a short row, `?` for an id of no character of this level; `None` for a
    /// block or empty cell.
    pub fn unknown_text(&self, id: BlockId) -> Option<String> {
        if !is_unknown(id) {
            return None;
        }
        Some(match (id, self.design().rest.unknown_char(id)) {
            (MISSING_CELL, _) => "\u{2026}".into(),
            (_, Some(c)) => c.to_string(),
            (_, None) => "?".into(),
        })
    }

    /// How the status bar describes an unknown cell `id`, with what happens to it on save
    /// (`unknown "x" (not in "legend"; saved as found until painted over)`); `None` for a
    /// block or empty cell.
    pub fn unknown_description(&self, id: BlockId) -> Option<String> {
        let text = self.unknown_text(id)?;
        Some(if id == MISSING_CELL {
            "missing cell (the row is short; not saved until painted)".into()
        } else {
            format!(
                "unknown {} (not in \"legend\"; saved as found until painted over)",
                quote(&text)
            )
        })
    }
}

/// Draws the visible unknown and missing cells of the design (not while playing): a magenta
/// square with a black hatch, and from 14 points a cell the character (or `…`) white on a
/// black box.
pub fn paint_unknown(painter: &Painter, g: &MapGeom, d: &FallingDoc) {
    if d.play.is_some() {
        return;
    }
    let map = &d.design().map;
    let cells: Vec<_> = g
        .cells()
        .filter_map(|p| map.get(p).filter(|&&id| is_unknown(id)).map(|&id| (p, id)))
        .collect();
    if cells.is_empty() {
        return;
    }
    let mut m = egui::Mesh::default();
    for (p, _) in &cells {
        crate::ui::mesh::add_unknown(&mut m, g.cell_rect(*p));
    }
    painter.add(egui::Shape::mesh(m));
    if g.zoom < 14.0 {
        return;
    }
    let size = (g.zoom * 0.5).floor();
    for (p, id) in cells {
        let Some(text) = d.unknown_text(id) else {
            continue;
        };
        let galley = painter.layout_no_wrap(text, egui::FontId::monospace(size), Color32::WHITE);
        let r =
            egui::Rect::from_center_size(g.cell_rect(p).center(), galley.size() + vec2(2.0, 0.0));
        painter.rect_filled(r, 1.0, Color32::BLACK);
        painter.galley(r.left_top() + vec2(1.0, 0.0), galley, Color32::WHITE);
    }
}
