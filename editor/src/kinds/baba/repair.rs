//! Repair mode for baba levels (docs/editor.md, "Repair mode"): how the editor names and
//! labels the unknown tiles of a level read by [`BabaLevel::from_json_editable`] — entries
//! of the file it could not read, kept in [`BabaLevel::unknown`] and written back unchanged.
//!
//! [`BabaLevel::from_json_editable`]: tilesmith_engine::kind::baba::BabaLevel::from_json_editable
//! [`BabaLevel::unknown`]: tilesmith_engine::kind::baba::BabaLevel::unknown

use eframe::egui::{self, Color32, Painter, vec2};
use serde_json::Value;
use tilesmith_engine::kind::baba::{Kind, Tile};
use tilesmith_engine::problem::quote_at_most;

use super::BabaDoc;
use crate::doc::ui::{MapGeom, arrow_char};

/// The longest text of an unknown tile shown in the status bar and the inspector (characters).
const SHOWN_TEXT: usize = 60;

impl BabaDoc {
    /// The JSON kept for an unknown tile of the design: `Some(Some(entry))`, `Some(None)` for a
    /// cell missing from a short row, `None` for a tile that is not unknown or refers to no
    /// entry of this level (pasted from another).
    pub fn unknown_of(&self, t: &Tile) -> Option<Option<&Value>> {
        let Kind::Unknown(i) = t.kind else {
            return None;
        };
        self.level().unknown.get(i as usize).map(Option::as_ref)
    }

    /// The text an unknown tile holds in the file: the token of a string or object entry
    /// (`rokc`), else the entry's compact JSON; `…` for a missing cell, `?` when unknown.
    pub fn unknown_text(&self, t: &Tile) -> String {
        match self.unknown_of(t) {
            Some(Some(Value::String(s))) => s.clone(),
            Some(Some(v @ Value::Object(o))) => match o.get("token") {
                Some(Value::String(s)) => s.clone(),
                _ => v.to_string(),
            },
            Some(Some(v)) => v.to_string(),
            Some(None) => "\u{2026}".into(),
            None => "?".into(),
        }
    }

    /// How the inspector names a tile: its token, with the facing arrow for an object
    /// (`rock →`); for an unknown tile what the file holds there (`unknown "rokc"`) or
    /// `missing cell`.
    pub fn tile_name(&self, t: &Tile) -> String {
        match (t.kind, self.unknown_of(t)) {
            (Kind::Unknown(_), Some(Some(_))) => format!(
                "unknown {}",
                quote_at_most(&self.unknown_text(t), SHOWN_TEXT)
            ),
            (Kind::Unknown(_), Some(None)) => "missing cell".into(),
            (Kind::Unknown(_), None) => "unknown".into(),
            (k, _) if k.is_text() => k.token(),
            (k, _) => format!("{} {}", k.token(), arrow_char(t.dir)),
        }
    }

    /// How the status bar describes a tile: [`BabaDoc::tile_name`], and for an unknown tile
    /// what happens to it on save.
    pub fn tile_description(&self, t: &Tile) -> String {
        let name = self.tile_name(t);
        match self.unknown_of(t) {
            Some(Some(_)) => format!("{name} (saved as found until replaced)"),
            Some(None) => format!("{name} (the row is short; not saved until painted)"),
            None => name,
        }
    }
}

/// The most characters of an unknown tile's text written on the map (more end in `…`).
const LABEL_CHARS: usize = 10;

/// Writes its text over each visible unknown tile that tops its stack (white on a black box,
/// shrunk to fit the cell, at most [`LABEL_CHARS`] characters), from 14 points a cell.
pub fn paint_unknown_labels(painter: &Painter, g: &MapGeom, d: &BabaDoc) {
    let z = g.zoom;
    if z < 14.0 || d.play.is_some() || d.level().unknown.is_empty() {
        return;
    }
    let map = d.shown_map();
    for p in g.cells() {
        let Some(top) = map.get(p).and_then(|s| s.last()) else {
            continue;
        };
        if !top.kind.is_unknown() {
            continue;
        }
        let full = d.unknown_text(top);
        let mut text: String = full.chars().take(LABEL_CHARS).collect();
        if full.chars().count() > LABEL_CHARS {
            text.push('\u{2026}');
        }
        // A monospace character is about 0.6 of the font size wide.
        let n = text.chars().count().max(1) as f32;
        let size = (z * 0.9 / (n * 0.6)).min(z * 0.28).max(6.0).floor();
        let galley = painter.layout_no_wrap(text, egui::FontId::monospace(size), Color32::WHITE);
        let at = g.cell_rect(p).center();
        let r = egui::Rect::from_center_size(at, galley.size() + vec2(2.0, 0.0));
        painter.rect_filled(r, 1.0, Color32::BLACK);
        painter.galley(r.left_top() + vec2(1.0, 0.0), galley, Color32::WHITE);
    }
}
