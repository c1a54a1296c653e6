//! Export of levels as PNG images and of plays as animated GIFs, headless (no window, no GPU).
//!
//! Design decision: the exporter draws **the canvas's own shapes**. It runs a headless egui
//! [`Context`] pass in which [`crate::ui::canvas::paint_map`] — the function the canvas calls —
//! paints the map with the kind's [`KindUi`] at `scale` pixels per cell; the shapes are
//! tessellated by epaint (as for the screen, without feathering) and the triangles are
//! rasterised on the CPU by `tiny-skia` ([`raster`]). So there is one description of each
//! token's look (the kind's `look.rs`), used by both the canvas and the exporter. The base
//! colours, which the canvas draws as a texture with one texel per cell, are drawn here as one
//! rectangle per cell of the same colour ([`KindUi::base_colors`]).
//!
//! Images are exactly `width × scale` by `height × scale` pixels (a GIF with `highlight` adds a
//! caption band of [`CAPTION_PX`] below the map). Coordinates: x = column from the left, y =
//! row from the top; cell (x, y) covers pixels `x·scale .. (x+1)·scale` and
//! `y·scale .. (y+1)·scale`. See `docs/export.md`.

pub mod gif;
pub mod job;
pub mod raster;

use eframe::egui::{self, Color32, Context, LayerId, Pos2, RawInput, Rect, pos2, vec2};
use serde_json::Value;
use tilesmith_engine::Problem;
use tiny_skia::Pixmap;

use crate::doc::registry::Kinds;
use crate::doc::ui::{KindUi, KindUis, MapGeom};
use crate::state::EditorState;

/// The largest image side, in pixels.
pub const MAX_SIDE_PX: u64 = 16_384;
/// The largest image, in pixels (256 MiB of RGBA).
pub const MAX_PIXELS: u64 = 64 * 1024 * 1024;
/// The size, in cells of `scale` pixels, of the image of a kind without a grid
/// ([`crate::doc::KindDoc::has_grid`] false), whose canvas the kind lays out itself
/// ([`KindUi::canvas_ui`]): 60 × 38, 960 × 608 pixels at the default scale of 16.
pub const NO_GRID_CELLS: (usize, usize) = (60, 38);
/// The largest scale, in pixels per cell (the one limit of the CLI and the editor's dialog).
pub const MAX_SCALE: u32 = crate::files::MAX_EXPORT_SCALE;
/// The height of a GIF's caption band (with `highlight`), in pixels.
pub const CAPTION_PX: u32 = 18;

/// What an export draws.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Pixels per cell (1 to [`MAX_SCALE`]).
    pub scale: u32,
    /// Draw the canvas's grid lines.
    pub grid: bool,
    /// Draw the kind's play overlays (the cells the last step changed, banners).
    pub overlays: bool,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            scale: 16,
            grid: false,
            overlays: false,
        }
    }
}

/// The image size for a `w` × `h` map at `scale` pixels per cell plus `extra` rows of pixels.
///
/// # Errors
/// A message when the scale is 0 or over [`MAX_SCALE`], or the image would be wider or higher
/// than [`MAX_SIDE_PX`] or larger than [`MAX_PIXELS`].
pub fn image_size(w: usize, h: usize, scale: u32, extra: u32) -> Result<(u32, u32), String> {
    if scale == 0 || scale > MAX_SCALE {
        return Err(format!(
            "--scale {scale}: must be 1 to {MAX_SCALE} pixels per cell"
        ));
    }
    let iw = w as u64 * scale as u64;
    let ih = h as u64 * scale as u64 + extra as u64;
    if iw == 0 || ih == 0 {
        return Err("the map has no cells".into());
    }
    if iw > MAX_SIDE_PX || ih > MAX_SIDE_PX || iw * ih > MAX_PIXELS {
        return Err(format!(
            "a {w} × {h} map at {scale} pixels per cell is {iw} × {ih} pixels, over the limit \
             ({MAX_SIDE_PX} pixels a side, {MAX_PIXELS} pixels in all): use a smaller --scale"
        ));
    }
    Ok((iw as u32, ih as u32))
}

/// Opens a level document (any kind the editor edits) as an editor state with its kind's UI,
/// as the canvas would show it: `kinds` opens it, `uis` gives the kind's UI.
///
/// # Errors
/// The document's problems when its kind cannot open it.
pub fn open(
    (kinds, uis): (Kinds, KindUis),
    level: &Value,
) -> Result<(EditorState, Box<dyn KindUi>), Vec<Problem>> {
    let doc = kinds.open_doc(level)?;
    let name = doc.kind().name();
    Ok((EditorState::with_kinds(kinds, doc), uis.new_ui(name)))
}

/// Draws maps headlessly: an egui context (for fonts and tessellation) and the textures it
/// gave.
pub struct Renderer {
    ctx: Context,
    textures: raster::Textures,
}

impl Default for Renderer {
    fn default() -> Self {
        Self::new()
    }
}

impl Renderer {
    /// A renderer with egui's default fonts, tessellating without feathering (as the canvas's
    /// meshes are drawn) and without pre-rasterised discs.
    pub fn new() -> Self {
        let ctx = Context::default();
        ctx.tessellation_options_mut(|o| {
            o.feathering = false;
            o.prerasterized_discs = false;
        });
        Self {
            ctx,
            textures: raster::Textures::default(),
        }
    }

    /// Renders the map shown by `st` (the design, or the play state while playing) as the
    /// canvas draws it, with `caption` (if any) in a band of [`CAPTION_PX`] below it.
    ///
    /// # Errors
    /// When the image would be too large ([`image_size`]).
    pub fn render(
        &mut self,
        st: &EditorState,
        kind: &mut dyn KindUi,
        opts: &Options,
        caption: Option<&str>,
    ) -> Result<Pixmap, String> {
        let grid = st.doc.has_grid();
        let (w, h) = cells_shown(st);
        let (iw, ih) = frame_size(st, opts, caption.is_some())?;
        let mut pixmap = Pixmap::new(iw, ih).ok_or("cannot allocate the image")?;
        pixmap.fill(tiny_skia::Color::from_rgba8(12, 12, 16, 255));
        let screen = Rect::from_min_size(Pos2::ZERO, vec2(iw as f32, ih as f32));
        let input = RawInput {
            screen_rect: Some(screen),
            ..Default::default()
        };
        let z = opts.scale as f32;
        let out = self.ctx.run_ui(input, |ui| {
            let painter = ui.ctx().layer_painter(LayerId::background());
            let g = MapGeom {
                origin: Pos2::ZERO,
                zoom: z,
                visible: (0, 0, w, h),
                textured: true,
            };
            if grid {
                paint_base(&painter, &g, &kind.base_colors(st), w);
                crate::ui::canvas::paint_map(&painter, st, kind, &g, opts.grid, opts.overlays);
            } else {
                let rect = Rect::from_min_size(Pos2::ZERO, vec2(iw as f32, h as f32 * z));
                let mut child = ui.new_child(egui::UiBuilder::new().max_rect(rect));
                child.set_clip_rect(rect);
                // What the kind's drawing asks for (a click) is not for an image.
                kind.canvas_ui(&mut child, st, &mut Vec::new());
            }
            if let Some(text) = caption {
                let top = h as f32 * z;
                painter.rect_filled(
                    Rect::from_min_max(pos2(0.0, top), pos2(iw as f32, ih as f32)),
                    0.0,
                    Color32::from_rgb(24, 24, 30),
                );
                painter.text(
                    pos2(4.0, top + CAPTION_PX as f32 / 2.0),
                    egui::Align2::LEFT_CENTER,
                    text,
                    egui::FontId::proportional(12.0),
                    Color32::from_rgb(235, 235, 235),
                );
            }
        });
        let egui::FullOutput {
            mut textures_delta,
            shapes,
            pixels_per_point,
            ..
        } = out;
        self.textures.apply(&textures_delta);
        textures_delta.clear();
        let prims = self.ctx.tessellate(shapes, pixels_per_point);
        raster::draw(&mut pixmap, &prims, &mut self.textures);
        Ok(pixmap)
    }
}

/// The map's size in cells as an image shows it: the map's, or for a kind without a grid,
/// whose canvas the kind draws itself, [`NO_GRID_CELLS`] (960 × 608 at the default 16).
fn cells_shown(st: &EditorState) -> (usize, usize) {
    if st.doc.has_grid() {
        st.map_size()
    } else {
        NO_GRID_CELLS
    }
}

/// The size in pixels of the image [`Renderer::render`] draws of `st` with `opts`, with a
/// caption band when `caption`, known before anything is drawn.
///
/// # Errors
/// When the image would be too large ([`image_size`]).
pub fn frame_size(st: &EditorState, opts: &Options, caption: bool) -> Result<(u32, u32), String> {
    let (w, h) = cells_shown(st);
    let band = if caption { CAPTION_PX } else { 0 };
    image_size(w, h, opts.scale, band)
}

/// The base colours (one per cell, row-major, `w` per row) as one rectangle per cell: what the
/// canvas's texture with one texel per cell shows.
fn paint_base(painter: &egui::Painter, g: &MapGeom, colours: &[Color32], w: usize) {
    let mut mesh = egui::Mesh::default();
    for (i, c) in colours.iter().enumerate() {
        let p = tilesmith_engine::Pos::new(i % w.max(1), i / w.max(1));
        mesh.add_colored_rect(g.cell_rect(p), *c);
    }
    painter.add(egui::Shape::mesh(mesh));
}

/// The pixmap's pixels as straight (not premultiplied) RGBA bytes, row by row.
pub fn rgba(p: &Pixmap) -> Vec<u8> {
    let mut v = Vec::with_capacity(p.data().len());
    for px in p.pixels() {
        let c = px.demultiply();
        v.extend_from_slice(&[c.red(), c.green(), c.blue(), c.alpha()]);
    }
    v
}

/// Writes `p` as a PNG file, atomically (a failed write leaves the old file as it was).
///
/// # Errors
/// A message naming the file when it cannot be encoded or written.
pub fn write_png(p: &Pixmap, path: &std::path::Path) -> Result<(), String> {
    let bytes = p
        .encode_png()
        .map_err(|e| format!("{}: cannot encode the PNG: {e}", path.display()))?;
    tilesmith_engine::json_text::write_atomic(path, &bytes)
        .map_err(|e| format!("{}: cannot write: {e}", path.display()))
}
