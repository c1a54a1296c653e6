//! The map canvas: draws the visible cells, previews, selection and play highlights, and turns
//! pointer input into cell events, zoom and pan actions.
//!
//! Base colours come from a texture with one texel per cell (drawn with nearest filtering), so
//! a zoomed-out 500×500 map is one textured quad; glyphs, grid lines and overlays are drawn only
//! for the visible cells.

use eframe::egui::{
    self, Color32, ColorImage, PointerButton, Pos2, Rect, RichText, Sense, Stroke, StrokeKind,
    TextureHandle, TextureOptions, Ui, pos2, vec2,
};
use tilesmith_engine::Pos;

use crate::doc::ui::{KindUi, MapGeom};
use crate::state::{Action, EditorState, MapAction};
use crate::tools::{Button, CellRect, Tool};

/// The words of the badge on the canvas while a game is played.
pub const PLAY_BADGE: &str = "Playing — Esc to stop";

/// The badge while a step computes on a worker thread (Esc cancels the step then).
pub const PLAY_BADGE_BUSY: &str = "Playing — Esc cancels the step";

/// The colour of the frame round the canvas and of the badge while a game is played.
pub const PLAY_FRAME: Color32 = Color32::from_rgb(255, 150, 30);

/// UI-side cache of the canvas: the base-colour texture and what it shows.
pub struct CanvasCache {
    texture: Option<TextureHandle>,
    /// The texture's texels (one base colour per cell, row-major), for the zoomed-in base
    /// mesh.
    pixels: Vec<Color32>,
    key: Option<ContentKey>,
    /// Space was held when the current primary drag started (so it pans).
    space_drag: bool,
    /// The canvas rectangle of the last frame, in screen points.
    rect: Rect,
    /// The selection outline drawn in the last frame.
    drawn_selection: Option<CellRect>,
    /// The inspected cell outlined in the last frame.
    drawn_inspect: Option<Pos>,
}

impl Default for CanvasCache {
    fn default() -> Self {
        Self {
            texture: None,
            pixels: Vec::new(),
            key: None,
            space_drag: false,
            rect: Rect::NOTHING,
            drawn_selection: None,
            drawn_inspect: None,
        }
    }
}

impl CanvasCache {
    /// The canvas rectangle of the last frame, in screen points.
    pub fn rect(&self) -> Rect {
        self.rect
    }

    /// The selection outline drawn in the last frame (none while playing).
    pub fn drawn_selection(&self) -> Option<CellRect> {
        self.drawn_selection
    }

    /// The inspected cell outlined in the last frame (while playing: only one inspected in
    /// the game).
    pub fn drawn_inspect(&self) -> Option<Pos> {
        self.drawn_inspect
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

/// What the map texture shows: the document (its serial), which map of it (the kind's own
/// numbering: design, play state, a preview), that map's version, and its size.
pub type ContentKey = (u64, u8, u64, usize, usize);

fn content_key(st: &EditorState, kind: &dyn KindUi) -> ContentKey {
    let (w, h) = size_of(st);
    let (which, version) = kind.content_key(st);
    (st.doc_serial, which, version, w, h)
}

fn update_texture(ui: &Ui, st: &EditorState, kind: &dyn KindUi, cache: &mut CanvasCache) {
    let key = content_key(st, kind);
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
    let pixels = kind.base_colors(st);
    if pixels.len() != w * h {
        cache.texture = None;
        cache.key = Some(key);
        return;
    }
    cache.pixels.clone_from(&pixels);
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
pub fn canvas_ui(
    ui: &mut Ui,
    st: &EditorState,
    cache: &mut CanvasCache,
    kind: &mut dyn KindUi,
    out: &mut Vec<Action>,
) {
    if !st.doc.has_grid() {
        return free_canvas_ui(ui, st, cache, kind, out);
    }
    let (rect, resp) = ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
    cache.rect = rect;
    let size = [rect.width(), rect.height()];
    if size != st.view.canvas || st.view.refit {
        out.push(Action::CanvasSize(size));
    }
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 0.0, Color32::from_rgb(12, 12, 16));
    let (w, h) = size_of(st);
    let z = st.view.zoom;
    let origin = rect.min + vec2(st.view.pan[0], st.view.pan[1]);
    let (x0, y0, x1, y1) = st.view.visible(w, h);

    // Base colours, then the kind's cells. While a step computes on a worker the game is
    // away: the map keeps the colours it last had, without the kind's marks.
    let busy = st.step_busy();
    if busy.is_none() {
        update_texture(ui, st, kind, cache);
    }
    let map_rect = Rect::from_min_size(origin, vec2(w as f32 * z, h as f32 * z));
    let too_large = cache.texture.is_none() && (x1 - x0) * (y1 - y0) > 400_000;
    let few = (x1 - x0) * (y1 - y0) <= BASE_MESH_MAX_CELLS;
    match &cache.texture {
        Some(_) if z >= BASE_MESH_MIN_PX && few && cache.pixels.len() == w * h => {
            paint_base_mesh(&painter, &cache.pixels, w, (x0, y0, x1, y1), (origin, z));
        }
        Some(t) => {
            painter.image(
                t.id(),
                map_rect,
                Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0)),
                Color32::WHITE,
            );
        }
        None if too_large => {
            painter.text(
                rect.center(),
                egui::Align2::CENTER_CENTER,
                "map too large to show at this zoom: zoom in",
                egui::FontId::proportional(16.0),
                Color32::WHITE,
            );
        }
        None => {}
    }
    let geom = MapGeom {
        origin,
        zoom: z,
        visible: (x0, y0, x1, y1),
        textured: cache.texture.is_some(),
    };
    if busy.is_some() {
        // Nothing of the game to draw.
    } else if !too_large {
        paint_map(&painter, st, kind, &geom, st.settings.grid, true);
    } else {
        kind.paint_overlays(&painter, st, &geom);
    }
    painter.rect_stroke(
        map_rect,
        0.0,
        Stroke::new(1.0, Color32::from_gray(120)),
        StrokeKind::Outside,
    );
    (cache.drawn_selection, cache.drawn_inspect) = paint_selection(&painter, st, &geom);
    if let Some(b) = &busy {
        super::step_ui::busy_overlay(ui, rect, b, out);
        play_marks(ui, &painter, rect, st, None);
    } else if st.playing() {
        play_marks(ui, &painter, rect, st, Some(kind));
    } else {
        paint_drag_size(ui, &painter, st);
    }
    canvas_input(ui, st, cache, (rect, &resp), out);
}

/// The canvas of a kind without a grid ([`crate::doc::KindDoc::has_grid`] false): the kind
/// draws it and handles the pointer in a child `Ui` over the canvas's rectangle
/// ([`KindUi::canvas_ui`]); the shell adds the background, and while playing the frame and
/// the end banner. No cell hover, zoom, pan or strokes.
fn free_canvas_ui(
    ui: &mut Ui,
    st: &EditorState,
    cache: &mut CanvasCache,
    kind: &mut dyn KindUi,
    out: &mut Vec<Action>,
) {
    let rect = Rect::from_min_size(ui.cursor().min, ui.available_size());
    cache.rect = rect;
    let size = [rect.width(), rect.height()];
    if size != st.view.canvas || st.view.refit {
        out.push(Action::CanvasSize(size));
    }
    ui.painter_at(rect)
        .rect_filled(rect, 0.0, Color32::from_rgb(12, 12, 16));
    ui.allocate_rect(rect, Sense::hover());
    let mut child = ui.new_child(egui::UiBuilder::new().max_rect(rect));
    child.set_clip_rect(rect);
    kind.canvas_ui(&mut child, st, out);
    if let Some(b) = st.step_busy() {
        super::step_ui::busy_overlay(ui, rect, &b, out);
        play_marks(ui, &ui.painter_at(rect), rect, st, None);
    } else if st.playing() {
        play_marks(ui, &ui.painter_at(rect), rect, st, Some(kind));
    }
}

/// While a game is played: a frame round the canvas and, when the game is over, the kind's
/// end banner ([`KindUi::end_banner`]) at its top centre. (The [`PLAY_BADGE`] is in the tool
/// bar, beside Stop playing, where it covers nothing of the map: on the canvas it hid a
/// board's rank label; issue #31 defect 9.) No `kind` while a step computes: no banner then.
/// The banner is a label in an area that takes no pointer input (so the map under it still
/// gets clicks, and tests and screen readers find the words).
fn play_marks(
    ui: &Ui,
    painter: &egui::Painter,
    rect: Rect,
    st: &EditorState,
    kind: Option<&dyn KindUi>,
) {
    painter.rect_stroke(
        rect.shrink(1.0),
        0.0,
        Stroke::new(4.0, PLAY_FRAME),
        StrokeKind::Inside,
    );
    if let Some(b) = kind.and_then(|k| k.end_banner(st)) {
        egui::Area::new(egui::Id::unique("end-banner"))
            .fixed_pos(rect.center_top() + vec2(0.0, 12.0))
            .pivot(egui::Align2::CENTER_TOP)
            .interactable(false)
            .show(ui.ctx(), |ui| {
                egui::Frame::new()
                    .fill(b.fill.gamma_multiply(0.95))
                    .inner_margin(vec2(16.0, 8.0))
                    .corner_radius(6.0)
                    .show(ui, |ui| {
                        // A long message (a script error) wraps inside the map's width.
                        ui.set_max_width((rect.width() - 72.0).max(120.0));
                        ui.add(
                            egui::Label::new(
                                RichText::new(b.text).size(24.0).color(Color32::WHITE),
                            )
                            .selectable(false),
                        );
                    });
            });
    }
}

/// The size of the rectangle, line or selection being dragged, beside the pointer
/// (`5 × 3`; a line also counts its cells).
fn paint_drag_size(ui: &Ui, painter: &egui::Painter, st: &EditorState) {
    let map = st.doc.map();
    let Some((start, last, cells)) = map.stroke_key() else {
        return;
    };
    let text = match st.tool {
        Tool::Rect => {
            let r = CellRect::span(start, last);
            format!("{} × {}", r.width(), r.height())
        }
        Tool::Line => {
            let r = CellRect::span(start, last);
            format!("{} × {} ({cells} cells)", r.width(), r.height())
        }
        Tool::Select => match map.stroke_selection() {
            Some(r) => format!("{} × {}", r.width(), r.height()),
            None => return,
        },
        _ => return,
    };
    let Some(at) = ui.input(|i| i.pointer.hover_pos()) else {
        return;
    };
    let font = egui::FontId::proportional(14.0);
    let galley = painter.layout_no_wrap(text, font, Color32::WHITE);
    let r = Rect::from_min_size(at + vec2(18.0, 18.0), galley.size()).expand(3.0);
    painter.rect_filled(r, 3.0, Color32::from_black_alpha(200));
    painter.galley(r.min + vec2(3.0, 3.0), galley, Color32::WHITE);
}

/// From this zoom (points per cell) on, the base colours of the visible cells are drawn as
/// rectangles of one mesh instead of the texture, when they are at most
/// [`BASE_MESH_MAX_CELLS`]. The kinds draw their cells as rectangles over the base colours;
/// rectangles of one size meet exactly, while where a texture's texel ends is decided by
/// the sampler and may fall one pixel off a rectangle's edge (seen as 1-pixel lines of a
/// neighbour's colour along some cells).
pub const BASE_MESH_MIN_PX: f32 = 8.0;
/// The most visible cells drawn as a base mesh (see [`BASE_MESH_MIN_PX`]).
pub const BASE_MESH_MAX_CELLS: usize = 40_000;

/// The base colours `pixels` (of a map `w` cells wide) of the visible cells
/// `(x0, y0, x1, y1)` (exclusive ends), as one un-feathered mesh of cell squares.
fn paint_base_mesh(
    painter: &egui::Painter,
    pixels: &[Color32],
    w: usize,
    (x0, y0, x1, y1): (usize, usize, usize, usize),
    (origin, z): (Pos2, f32),
) {
    let mut mesh = egui::Mesh::default();
    for y in y0..y1 {
        for x in x0..x1 {
            if let Some(c) = pixels.get(y * w + x) {
                let min = origin + vec2(x as f32 * z, y as f32 * z);
                mesh.add_colored_rect(Rect::from_min_size(min, vec2(z, z)), *c);
            }
        }
    }
    painter.add(egui::Shape::mesh(mesh));
}

/// Draws the map over its base colours as the canvas shows it: the kind's cells, the grid
/// lines (when `grid` and the cells are at least [`GRID_MIN_PX`] wide) and, when `overlays`,
/// the kind's overlays (play highlights, rule previews, banners). The canvas and the exporter
/// (`crate::export`) both call this, so an exported image is the canvas's drawing.
pub fn paint_map(
    painter: &egui::Painter,
    st: &EditorState,
    kind: &mut dyn KindUi,
    g: &MapGeom,
    grid: bool,
    overlays: bool,
) {
    kind.paint_cells(painter, st, g);
    if grid && g.zoom >= GRID_MIN_PX {
        paint_grid(painter, g, kind.grid_color());
    }
    if overlays {
        kind.paint_overlays(painter, st, g);
    }
}

/// Grid lines over the visible cells, as thin rectangles in one mesh (cheaper than stroked
/// lines).
fn paint_grid(painter: &egui::Painter, g: &MapGeom, col: Color32) {
    let (x0, y0, x1, y1) = g.visible;
    let (origin, z) = (g.origin, g.zoom);
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

/// The selection (or the one being dragged) and the inspected cell. The selection is the
/// design's: hidden while playing (the map shows the game).
fn paint_selection(
    painter: &egui::Painter,
    st: &EditorState,
    g: &MapGeom,
) -> (Option<CellRect>, Option<Pos>) {
    let sel = st
        .doc
        .map()
        .stroke_selection()
        .or(st.selection)
        .filter(|_| !st.playing());
    if let Some(r) = sel {
        let span = g
            .cell_rect(Pos::new(r.x0, r.y0))
            .union(g.cell_rect(Pos::new(r.x1, r.y1)));
        painter.rect_stroke(
            span,
            0.0,
            Stroke::new(2.0, Color32::from_rgb(80, 200, 255)),
            StrokeKind::Outside,
        );
    }
    if let Some(p) = st.inspect {
        painter.rect_stroke(
            g.cell_rect(p),
            0.0,
            Stroke::new(2.0, Color32::WHITE),
            StrokeKind::Outside,
        );
    }
    (sel, st.inspect)
}

/// Turns this frame's pointer input on the canvas into hover, zoom, pan and cell actions.
fn canvas_input(
    ui: &Ui,
    st: &EditorState,
    cache: &mut CanvasCache,
    (rect, resp): (Rect, &egui::Response),
    out: &mut Vec<Action>,
) {
    let (w, h) = size_of(st);
    let space_plays = st
        .kind()
        .inputs()
        .iter()
        .any(|s| s.key.split('|').any(|k| k == "Space"));
    let (hover, down, scroll, zoom, space) = ui.input(|i| {
        (
            i.pointer.hover_pos(),
            i.pointer.button_down(PointerButton::Primary)
                || i.pointer.button_down(PointerButton::Secondary),
            i.smooth_scroll_delta,
            i.zoom_delta(),
            // Space pans, unless it is a key of the kind's inputs while playing.
            i.key_down(egui::Key::Space) && !(st.playing() && space_plays),
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
    stroke_input(ui, st, (rect, resp), (down, space), out);
}

/// Tool strokes, from the pointer events of this frame in order, so that a press, the moves
/// and the release all count even when they arrive within one frame.
fn stroke_input(
    ui: &Ui,
    st: &EditorState,
    (rect, resp): (Rect, &egui::Response),
    (down, space): (bool, bool),
    out: &mut Vec<Action>,
) {
    let (w, h) = size_of(st);
    let local = |p: Pos2| [p.x - rect.min.x, p.y - rect.min.y];
    let (events, modifiers) = ui.input(|i| (i.events.clone(), i.modifiers));
    let stroke_last = st.doc.map().stroke_last();
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
                    out.push(Action::Map(MapAction::CellPress {
                        pos: cell,
                        button,
                        alt: m.alt || modifiers.alt,
                    }));
                    active = true;
                    last = Some(cell);
                }
            }
            egui::Event::PointerMoved(pos) if active => {
                let c = st.view.cell_clamped(local(*pos), w, h);
                if Some(c) != last {
                    out.push(Action::Map(MapAction::CellDrag(c)));
                    last = Some(c);
                }
            }
            egui::Event::PointerButton {
                button: PointerButton::Primary | PointerButton::Secondary,
                pressed: false,
                ..
            } if active => {
                out.push(Action::Map(MapAction::CellRelease));
                active = false;
                ended = true;
            }
            _ => {}
        }
    }
    // The button went up where no event reached us (e.g. outside the window).
    if stroke_last.is_some() && !ended && !down {
        out.push(Action::Map(MapAction::CellRelease));
    }
}
