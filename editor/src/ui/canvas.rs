//! The map canvas: draws the visible cells, previews, selection and play highlights, and turns
//! pointer input into cell events, zoom and pan actions.
//!
//! Base colours come from a texture with one texel per cell (drawn with nearest filtering), so
//! a zoomed-out 500×500 map is one textured quad; glyphs, grid lines and overlays are drawn only
//! for the visible cells.

use eframe::egui::{
    self, Color32, ColorImage, PointerButton, Pos2, Rect, Sense, Stroke, StrokeKind, TextureHandle,
    TextureOptions, Ui, pos2, vec2,
};
use tilesmith_engine::kind::boulder::Cell;
use tilesmith_engine::{Game as _, Pos};

use crate::look;
use crate::look_baba;
use crate::state::baba::BabaDoc;
use crate::state::{Action, EditorState};
use crate::tools::{Button, CellRect};

/// UI-side cache of the canvas: the base-colour texture and what it shows.
pub struct CanvasCache {
    texture: Option<TextureHandle>,
    key: Option<ContentKey>,
    /// Space was held when the current primary drag started (so it pans).
    space_drag: bool,
    /// The canvas rectangle of the last frame, in screen points.
    rect: Rect,
}

impl Default for CanvasCache {
    fn default() -> Self {
        Self {
            texture: None,
            key: None,
            space_drag: false,
            rect: Rect::NOTHING,
        }
    }
}

impl CanvasCache {
    /// The canvas rectangle of the last frame, in screen points.
    pub fn rect(&self) -> Rect {
        self.rect
    }

    /// What the map texture was last built from (`None` before the first frame).
    pub fn content(&self) -> Option<ContentKey> {
        self.key
    }
}

impl std::fmt::Debug for CanvasCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CanvasCache")
            .field("key", &self.key)
            .finish()
    }
}

/// The smallest zoom at which grid lines are drawn, in points per cell.
pub const GRID_MIN_PX: f32 = 6.0;

fn size_of(st: &EditorState) -> (usize, usize) {
    st.map_size()
}

/// What the map texture shows: the document (its serial), which map of it (0 design, 1 play,
/// 2 apply-once preview, 3 baba design, 4 baba play), that map's version, and its size.
pub type ContentKey = (u64, u8, u64, usize, usize);

fn content_key(st: &EditorState) -> ContentKey {
    let (w, h) = size_of(st);
    let doc = st.doc_serial;
    if let Some(d) = &st.baba {
        return match &d.play {
            Some(p) => (doc, 4, p.version, w, h),
            None => (doc, 3, d.history.generation(), w, h),
        };
    }
    match &st.play {
        Some(p) => (doc, 1, p.version(), w, h),
        None if st.apply_once_map().is_some() => (doc, 2, st.rule_preview_serial(), w, h),
        None => (doc, 0, st.history.generation(), w, h),
    }
}

fn update_texture(ui: &Ui, st: &EditorState, cache: &mut CanvasCache) {
    let key = content_key(st);
    if cache.key == Some(key) && cache.texture.is_some() {
        return;
    }
    let (w, h) = size_of(st);
    let max = ui.ctx().input(|i| i.max_texture_side);
    if w > max || h > max {
        cache.texture = None;
        cache.key = Some(key);
        return;
    }
    let pixels: Vec<Color32> = match (&st.baba, &st.play) {
        (Some(d), _) => d
            .shown_map()
            .cells()
            .iter()
            .map(|s| look_baba::stack_color(s))
            .collect(),
        (None, Some(p)) => p
            .game
            .board()
            .tokens()
            .iter()
            .map(|t| look::color(*t))
            .collect(),
        (None, None) => st
            .apply_once_map()
            .unwrap_or(&st.level.map)
            .cells()
            .iter()
            .map(|c| look::color(c.token))
            .collect(),
    };
    let image = ColorImage::new([w, h], pixels);
    match &mut cache.texture {
        Some(t) => t.set(image, TextureOptions::NEAREST),
        None => {
            cache.texture = Some(ui.ctx().load_texture(
                "tilesmith-map",
                image,
                TextureOptions::NEAREST,
            ))
        }
    }
    cache.key = Some(key);
}

/// Draws the canvas into all the space left in `ui` and pushes the actions of its input.
pub fn canvas_ui(ui: &mut Ui, st: &EditorState, cache: &mut CanvasCache, out: &mut Vec<Action>) {
    let (rect, resp) = ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
    cache.rect = rect;
    let size = [rect.width(), rect.height()];
    if size != st.view.canvas {
        out.push(Action::CanvasSize(size));
    }
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 0.0, Color32::from_rgb(12, 12, 16));
    let (w, h) = size_of(st);
    let z = st.view.zoom;
    let origin = rect.min + vec2(st.view.pan[0], st.view.pan[1]);
    let cell_rect =
        |p: Pos| Rect::from_min_size(origin + vec2(p.x as f32 * z, p.y as f32 * z), vec2(z, z));
    let span_rect = |r: CellRect| {
        Rect::from_min_max(
            origin + vec2(r.x0 as f32 * z, r.y0 as f32 * z),
            origin + vec2((r.x1 + 1) as f32 * z, (r.y1 + 1) as f32 * z),
        )
    };
    let (x0, y0, x1, y1) = st.view.visible(w, h);

    // Base colours.
    update_texture(ui, st, cache);
    let map_rect = Rect::from_min_size(origin, vec2(w as f32 * z, h as f32 * z));
    match &cache.texture {
        Some(t) => {
            painter.image(
                t.id(),
                map_rect,
                Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0)),
                Color32::WHITE,
            );
        }
        None if (x1 - x0) * (y1 - y0) > 400_000 => {
            painter.text(
                rect.center(),
                egui::Align2::CENTER_CENTER,
                "map too large to show at this zoom: zoom in",
                egui::FontId::proportional(16.0),
                Color32::WHITE,
            );
        }
        None if st.baba.is_some() => {}
        None => {
            for y in y0..y1 {
                for x in x0..x1 {
                    let p = Pos::new(x, y);
                    if let Some(c) = st.shown_cell(p) {
                        painter.rect_filled(cell_rect(p), 0.0, look::color(c.token));
                    }
                }
            }
        }
    }
    if let Some(d) = &st.baba {
        paint_baba(&painter, d, &cell_rect, (x0, y0, x1, y1), z);
    }
    // Glyphs for the visible cells.
    if z >= look::GLYPH_MIN_PX && st.baba.is_none() {
        let mut mesh = egui::Mesh::default();
        let mut letters = Vec::new();
        for y in y0..y1 {
            for x in x0..x1 {
                let p = Pos::new(x, y);
                if let Some(c) = st.shown_cell(p) {
                    let r = cell_rect(p);
                    look::glyph(&mut mesh, r, &c);
                    if z >= 24.0
                        && let Some(l) = look::letter(c.token)
                    {
                        letters.push((r.left_top() + vec2(z * 0.06, 0.0), l, c.token));
                    }
                }
            }
        }
        painter.add(egui::Shape::mesh(mesh));
        for (at, l, t) in letters {
            painter.text(
                at,
                egui::Align2::LEFT_TOP,
                l,
                egui::FontId::monospace(z * 0.3),
                look::ink(look::color(t)),
            );
        }
    }
    // Tool preview.
    if let Some(s) = &st.stroke {
        for (p, c) in &s.preview {
            if (x0..x1).contains(&p.x) && (y0..y1).contains(&p.y) {
                paint_preview(&painter, cell_rect(*p), c);
            }
        }
    }
    // Grid.
    if st.settings.grid && z >= GRID_MIN_PX {
        // Thin rectangles in one mesh: cheaper than stroked lines.
        let col = if st.baba.is_some() {
            Color32::from_white_alpha(22)
        } else {
            Color32::from_black_alpha(120)
        };
        let (top, bottom) = (origin.y + y0 as f32 * z, origin.y + y1 as f32 * z);
        let (left, right) = (origin.x + x0 as f32 * z, origin.x + x1 as f32 * z);
        let mut mesh = egui::Mesh::default();
        for x in x0..=x1 {
            let gx = origin.x + x as f32 * z;
            mesh.add_colored_rect(
                Rect::from_min_max(pos2(gx - 0.5, top), pos2(gx + 0.5, bottom)),
                col,
            );
        }
        for y in y0..=y1 {
            let gy = origin.y + y as f32 * z;
            mesh.add_colored_rect(
                Rect::from_min_max(pos2(left, gy - 0.5), pos2(right, gy + 0.5)),
                col,
            );
        }
        painter.add(egui::Shape::mesh(mesh));
    }
    painter.rect_stroke(
        map_rect,
        0.0,
        Stroke::new(1.0, Color32::from_gray(120)),
        StrokeKind::Outside,
    );
    // Play highlights: what the last tick changed, or the last phase of the debugged tick.
    if let Some(p) = &st.play {
        let colour = if p.debug.is_some() {
            Color32::from_rgb(255, 140, 0)
        } else {
            Color32::from_rgb(255, 255, 0)
        };
        let hl = Stroke::new((z * 0.12).clamp(1.0, 3.0), colour);
        for c in p.highlight() {
            if (x0..x1).contains(&c.x) && (y0..y1).contains(&c.y) {
                painter.rect_stroke(cell_rect(c).shrink(1.0), 0.0, hl, StrokeKind::Inside);
            }
        }
        if let Some(r) = &p.report
            && let Some(f) = p.hovered_rule.and_then(|i| r.fired.get(i))
        {
            for c in &f.at {
                painter.rect_filled(
                    cell_rect(*c),
                    0.0,
                    Color32::from_rgba_unmultiplied(255, 0, 255, 110),
                );
                painter.rect_stroke(
                    cell_rect(*c),
                    0.0,
                    Stroke::new(2.0, Color32::from_rgb(255, 0, 255)),
                    StrokeKind::Outside,
                );
            }
        }
    }
    // The selected rule's preview: its windows in engine order, numbered; with "apply once",
    // the fields it changes.
    if st.preview_shown()
        && let Some(pv) = st.rule_preview()
    {
        paint_preview_windows(&painter, st, pv, &cell_rect, (x0, y0, x1, y1), z);
    }
    // Selection.
    let sel = match &st.baba {
        Some(d) => crate::state::baba::stroke_selection(d),
        None => st
            .stroke
            .as_ref()
            .and_then(|s| s.selection_preview(&st.level.map)),
    }
    .or(st.selection);
    if let Some(r) = sel {
        painter.rect_stroke(
            span_rect(r),
            0.0,
            Stroke::new(2.0, Color32::from_rgb(80, 200, 255)),
            StrokeKind::Outside,
        );
    }
    if let Some(p) = st.inspect {
        painter.rect_stroke(
            cell_rect(p),
            0.0,
            Stroke::new(2.0, Color32::WHITE),
            StrokeKind::Outside,
        );
    }

    // Input.
    let (hover, down, modifiers, scroll, zoom, space) = ui.input(|i| {
        (
            i.pointer.hover_pos(),
            i.pointer.button_down(PointerButton::Primary)
                || i.pointer.button_down(PointerButton::Secondary),
            i.modifiers,
            i.smooth_scroll_delta,
            i.zoom_delta(),
            // Space is the wait key while a baba level is played, not the pan key.
            i.key_down(egui::Key::Space) && !(st.baba.is_some() && st.playing()),
        )
    });
    let local = |p: Pos2| [p.x - rect.min.x, p.y - rect.min.y];
    let hovered_cell = hover
        .filter(|p| rect.contains(*p))
        .and_then(|p| st.view.cell_at(local(p), w, h));
    if hovered_cell != st.hover {
        out.push(Action::Hover(hovered_cell));
    }
    if let Some(hp) = hover.filter(|_| resp.hovered()) {
        let mut factor = zoom;
        if scroll.y != 0.0 {
            factor *= (scroll.y * 0.004).exp();
        }
        if factor != 1.0 {
            out.push(Action::ZoomAt {
                factor,
                at: local(hp),
            });
        }
        if scroll.x != 0.0 {
            out.push(Action::Pan([scroll.x, 0.0]));
        }
    }
    // Pan: middle drag, or space + left drag.
    if resp.drag_started_by(PointerButton::Primary) {
        cache.space_drag = space;
    }
    if resp.dragged_by(PointerButton::Middle)
        || (resp.dragged_by(PointerButton::Primary) && (cache.space_drag || space))
    {
        let d = resp.drag_delta();
        if d != egui::Vec2::ZERO {
            out.push(Action::Pan([d.x, d.y]));
        }
    }
    if !down {
        cache.space_drag = false;
    }
    // Tool strokes, from the pointer events of this frame in order, so that a press, the
    // moves and the release all count even when they arrive within one frame.
    let events = ui.input(|i| i.events.clone());
    let baba_stroke = st
        .baba
        .as_ref()
        .and_then(|d| d.stroke.as_ref().map(|s| s.last));
    let stroke_last = baba_stroke.or(st.stroke.as_ref().map(|s| s.last));
    let mut active = stroke_last.is_some();
    let mut last = stroke_last;
    let mut ended = false;
    for e in &events {
        match e {
            egui::Event::PointerButton {
                pos,
                button: b @ (PointerButton::Primary | PointerButton::Secondary),
                pressed: true,
                modifiers: m,
            } if !active && resp.hovered() && !space => {
                if let Some(cell) = st.view.cell_at(local(*pos), w, h) {
                    let button = if *b == PointerButton::Primary {
                        Button::Primary
                    } else {
                        Button::Secondary
                    };
                    out.push(Action::CellPress {
                        pos: cell,
                        button,
                        alt: m.alt || modifiers.alt,
                    });
                    active = true;
                    last = Some(cell);
                }
            }
            egui::Event::PointerMoved(pos) if active => {
                let c = st.view.cell_clamped(local(*pos), w, h);
                if Some(c) != last {
                    out.push(Action::CellDrag(c));
                    last = Some(c);
                }
            }
            egui::Event::PointerButton {
                button: PointerButton::Primary | PointerButton::Secondary,
                pressed: false,
                ..
            } if active => {
                out.push(Action::CellRelease);
                active = false;
                ended = true;
            }
            _ => {}
        }
    }
    // The button went up where no event reached us (e.g. outside the window).
    if stroke_last.is_some() && !ended && !down {
        out.push(Action::CellRelease);
    }
}

/// Outlines the windows of a rule preview (cyan, numbered 1..n in the order the engine applies
/// them) and, with "apply once", the changed fields (orange).
fn paint_preview_windows(
    painter: &egui::Painter,
    st: &EditorState,
    pv: &tilesmith_engine::kind::boulder::analysis::Preview,
    cell_rect: &dyn Fn(Pos) -> Rect,
    (x0, y0, x1, y1): (usize, usize, usize, usize),
    z: f32,
) {
    let visible = |p: &Pos| (x0..x1).contains(&p.x) && (y0..y1).contains(&p.y);
    let cyan = Color32::from_rgb(70, 220, 255);
    let stroke = Stroke::new((z * 0.1).clamp(1.0, 2.5), cyan);
    let font = egui::FontId::monospace((z * 0.42).clamp(8.0, 14.0));
    for (i, w) in pv.windows.iter().enumerate() {
        if !w.iter().any(visible) {
            continue;
        }
        let r = w
            .iter()
            .fold(Rect::NOTHING, |acc, p| acc.union(cell_rect(*p)))
            .shrink((z * 0.08).min(2.0));
        painter.rect_stroke(r, 2.0, stroke, StrokeKind::Inside);
        if z >= 8.0 {
            // The number sits on position 0 of the window.
            let at = cell_rect(w[0]).left_top() + vec2(2.0, 1.0);
            let galley = painter.layout_no_wrap(format!("{}", i + 1), font.clone(), Color32::BLACK);
            let bg = Rect::from_min_size(at, galley.size() + vec2(4.0, 0.0));
            painter.rect_filled(bg, 2.0, cyan);
            painter.galley(at + vec2(2.0, 0.0), galley, Color32::BLACK);
        }
    }
    // Drawn last, so the changes show over the window outlines.
    if st.rules.apply_once {
        let s = Stroke::new((z * 0.14).clamp(1.5, 3.0), Color32::from_rgb(255, 150, 40));
        for c in pv.changed.iter().filter(|p| visible(p)) {
            painter.rect_filled(
                cell_rect(*c),
                0.0,
                Color32::from_rgba_unmultiplied(255, 150, 40, 50),
            );
            painter.rect_stroke(
                cell_rect(*c).shrink((z * 0.14).clamp(1.0, 4.0)),
                0.0,
                s,
                StrokeKind::Inside,
            );
        }
    }
}

/// Draws a baba map's visible stacks (dimming text that forms no rule), the stroke preview,
/// the cells the last turn changed, the hovered rule's tiles, and a banner when won.
fn paint_baba(
    painter: &egui::Painter,
    d: &BabaDoc,
    cell_rect: &dyn Fn(Pos) -> Rect,
    (x0, y0, x1, y1): (usize, usize, usize, usize),
    z: f32,
) {
    let visible = |p: &Pos| (x0..x1).contains(&p.x) && (y0..y1).contains(&p.y);
    let map = d.shown_map();
    if z >= look_baba::FINE_MIN_PX {
        for y in y0..y1 {
            for x in x0..x1 {
                let p = Pos::new(x, y);
                if let Some(s) = map.get(p).filter(|s| !s.is_empty()) {
                    // Over the texture's colour: objects are drawn inset on the background.
                    painter.rect_filled(cell_rect(p), 0.0, look_baba::EMPTY);
                    look_baba::paint_stack(painter, cell_rect(p), s, &|i| d.is_unused(p, i));
                }
            }
        }
    } else if z >= look::GLYPH_MIN_PX {
        // Many cells: one mesh for all shapes, then the labels.
        let mut mesh = egui::Mesh::default();
        let mut texts = Vec::new();
        for y in y0..y1 {
            for x in x0..x1 {
                let p = Pos::new(x, y);
                if let Some(s) = map.get(p).filter(|s| !s.is_empty()) {
                    look_baba::mesh_stack(&mut mesh, &mut texts, cell_rect(p), s, &|i| {
                        d.is_unused(p, i)
                    });
                }
            }
        }
        painter.add(egui::Shape::mesh(mesh));
        for (at, text, font, colour) in texts {
            painter.text(at, egui::Align2::CENTER_CENTER, text, font, colour);
        }
    }
    if let Some(s) = &d.stroke {
        for (p, stack) in s.preview.iter().filter(|(p, _)| visible(p)) {
            let r = cell_rect(*p);
            painter.rect_filled(r, 0.0, look_baba::EMPTY);
            look_baba::paint_stack(painter, r, stack, &|i| d.is_unused(*p, i));
            painter.rect_filled(r, 0.0, Color32::from_white_alpha(40));
        }
    }
    if let Some(p) = &d.play {
        let hl = Stroke::new((z * 0.1).clamp(1.0, 3.0), Color32::from_rgb(255, 255, 0));
        for c in p.changed().iter().filter(|c| visible(c)) {
            painter.rect_stroke(cell_rect(*c).shrink(1.0), 0.0, hl, StrokeKind::Inside);
        }
    }
    for c in d.hovered_tiles() {
        painter.rect_filled(
            cell_rect(c),
            0.0,
            Color32::from_rgba_unmultiplied(255, 0, 255, 70),
        );
        painter.rect_stroke(
            cell_rect(c),
            0.0,
            Stroke::new(2.0, Color32::from_rgb(255, 80, 255)),
            StrokeKind::Outside,
        );
    }
    if let Some(p) = &d.play
        && let tilesmith_engine::Status::Won { .. } = p.game.status()
    {
        let clip = painter.clip_rect();
        let r = Rect::from_center_size(clip.center_top() + vec2(0.0, 34.0), vec2(300.0, 44.0));
        painter.rect_filled(r, 6.0, Color32::from_rgba_unmultiplied(30, 120, 40, 230));
        painter.text(
            r.center(),
            egui::Align2::CENTER_CENTER,
            format!("Level won in {} turns!", p.turn()),
            egui::FontId::proportional(24.0),
            Color32::WHITE,
        );
    }
}

fn paint_preview(p: &egui::Painter, r: Rect, c: &Cell) {
    look::paint_cell(p, r, c);
    p.rect_filled(r, 0.0, Color32::from_white_alpha(40));
}
