//! Thumbnails of a campaign's levels: each level drawn as the canvas draws it (the kind's base
//! colours as a texture, then the kind's cells when they are large enough), scaled into a
//! card.
//!
//! A thumbnail keeps a small editor state of its own holding the level, so the kind's
//! [`KindUi`] draws it exactly as on the canvas; nothing here names a kind.

use std::collections::HashMap;

use eframe::egui::{
    self, Color32, ColorImage, Painter, Rect, Stroke, StrokeKind, TextureHandle, TextureOptions,
    Ui, pos2, vec2,
};
use serde_json::Value;

use crate::doc::registry::Kinds;
use crate::doc::ui::{KindUi, KindUis, MapGeom};
use crate::state::EditorState;

/// Cells are drawn by the kind (glyphs over the base colours) once a cell is at least this many
/// points wide in the thumbnail; smaller cells show the base colours only.
pub const THUMB_GLYPH_PX: f32 = 6.0;

/// The kind draws the cells of maps of at most this many cells (a larger map shows its base
/// colours only, so a card costs little to draw every frame).
pub const THUMB_DRAWN_CELLS: usize = 20_000;

/// Maps with more cells than this show no thumbnail (a placeholder says the size instead).
pub const THUMB_MAX_CELLS: usize = 1_000_000;

/// One level's thumbnail: its own state and kind UI, and the base-colour texture.
struct Thumb {
    st: EditorState,
    kind: Box<dyn KindUi>,
    texture: Option<TextureHandle>,
}

/// The thumbnails of the open campaign, keyed by the level file and the serial of its load
/// (a reload makes a new thumbnail).
#[derive(Default)]
pub struct ThumbCache {
    thumbs: HashMap<(String, u64), Option<Thumb>>,
}

impl std::fmt::Debug for ThumbCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ThumbCache")
            .field("thumbs", &self.thumbs.len())
            .finish()
    }
}

impl ThumbCache {
    /// Forgets the thumbnails whose keys are not in `keep` (levels removed or reloaded).
    pub fn retain(&mut self, keep: &[(String, u64)]) {
        self.thumbs.retain(|k, _| keep.contains(k));
    }

    /// Draws the thumbnail of `level` (a level document of any kind the editor edits) into
    /// `rect`, keeping its aspect ratio and centred. `key` names the level and its load;
    /// `lists` opens it (the kinds) and draws it (their UIs).
    pub fn paint(
        &mut self,
        ui: &Ui,
        rect: Rect,
        key: (String, u64),
        level: &Value,
        lists: (Kinds, KindUis),
    ) {
        let painter = ui.painter_at(rect);
        painter.rect_filled(rect, 4.0, Color32::from_rgb(12, 12, 16));
        let thumb = self
            .thumbs
            .entry(key)
            .or_insert_with(|| make_thumb(ui.ctx(), level, lists));
        match thumb {
            Some(t) => paint_thumb(&painter, rect, t),
            None => {
                painter.text(
                    rect.center(),
                    egui::Align2::CENTER_CENTER,
                    "no preview",
                    egui::FontId::proportional(13.0),
                    Color32::GRAY,
                );
            }
        }
    }
}

fn make_thumb(ctx: &egui::Context, level: &Value, (kinds, uis): (Kinds, KindUis)) -> Option<Thumb> {
    let doc = kinds.open_doc(level).ok()?;
    let kind_name = doc.kind().name();
    let st = EditorState::with_kinds(kinds, doc);
    let kind = uis.new_ui(kind_name);
    let (w, h) = st.map_size();
    if w == 0 || h == 0 || w * h > THUMB_MAX_CELLS {
        return None;
    }
    let max = ctx.input(|i| i.max_texture_side);
    let pixels = kind.base_colors(&st);
    let texture = (w <= max && h <= max && pixels.len() == w * h).then(|| {
        ctx.load_texture(
            "tilesmith-campaign-thumb",
            ColorImage::new([w, h], pixels),
            TextureOptions::NEAREST,
        )
    });
    Some(Thumb { st, kind, texture })
}

fn paint_thumb(painter: &Painter, rect: Rect, t: &mut Thumb) {
    let (w, h) = t.st.map_size();
    let inner = rect.shrink(4.0);
    let zoom = (inner.width() / w as f32).min(inner.height() / h as f32);
    let size = vec2(w as f32 * zoom, h as f32 * zoom);
    let map_rect = Rect::from_center_size(inner.center(), size);
    if let Some(tex) = &t.texture {
        painter.image(
            tex.id(),
            map_rect,
            Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0)),
            Color32::WHITE,
        );
    }
    if w * h <= THUMB_DRAWN_CELLS && (zoom >= THUMB_GLYPH_PX || t.texture.is_none()) {
        let geom = MapGeom {
            origin: map_rect.min,
            zoom,
            visible: (0, 0, w, h),
            textured: t.texture.is_some(),
        };
        t.kind.paint_cells(painter, &t.st, &geom);
    }
    painter.rect_stroke(
        map_rect,
        0.0,
        Stroke::new(1.0, Color32::from_gray(90)),
        StrokeKind::Outside,
    );
}
