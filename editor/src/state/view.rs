//! The view: the canvas's zoom and pan, and which panels and pages are shown.

use tilesmith_engine::Pos;

/// The smallest and largest zoom, in screen points per cell.
pub const ZOOM_RANGE: (f32, f32) = (0.5, 96.0);

/// What part of the map is shown: `zoom` points per cell, and `pan`, the screen offset (in
/// points) of the map's top-left corner from the canvas's top-left corner.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Viewport {
    /// Screen points per cell.
    pub zoom: f32,
    /// Offset of the map's top-left corner from the canvas's top-left corner, in points.
    pub pan: [f32; 2],
    /// The canvas size in points (set by the UI each frame it changes).
    pub canvas: [f32; 2],
    /// Fit the map again once the canvas it is drawn in is known: set when a document is
    /// opened (its fit used the last canvas size, which is not the real one when the canvas
    /// was hidden meanwhile, behind the campaign overview, or never drawn yet), cleared by
    /// that fit or by a zoom or a pan of the user's.
    pub refit: bool,
}

impl Default for Viewport {
    fn default() -> Self {
        Self {
            zoom: 24.0,
            pan: [8.0, 8.0],
            canvas: [800.0, 600.0],
            refit: false,
        }
    }
}

impl Viewport {
    /// The cell under canvas point `p` (points from the canvas's top-left), if inside a
    /// `w` × `h` map.
    pub fn cell_at(&self, p: [f32; 2], w: usize, h: usize) -> Option<Pos> {
        let cx = ((p[0] - self.pan[0]) / self.zoom).floor();
        let cy = ((p[1] - self.pan[1]) / self.zoom).floor();
        (cx >= 0.0 && cy >= 0.0 && (cx as usize) < w && (cy as usize) < h)
            .then(|| Pos::new(cx as usize, cy as usize))
    }

    /// The cell under canvas point `p`, clamped into a `w` × `h` map (for drags leaving it).
    pub fn cell_clamped(&self, p: [f32; 2], w: usize, h: usize) -> Pos {
        let cx = ((p[0] - self.pan[0]) / self.zoom).floor().max(0.0) as usize;
        let cy = ((p[1] - self.pan[1]) / self.zoom).floor().max(0.0) as usize;
        Pos::new(cx.min(w.saturating_sub(1)), cy.min(h.saturating_sub(1)))
    }

    /// Zooms by `factor` keeping the map point under canvas point `at` in place.
    pub fn zoom_at(&mut self, factor: f32, at: [f32; 2]) {
        if !factor.is_finite() || factor <= 0.0 {
            return;
        }
        let z = (self.zoom * factor).clamp(ZOOM_RANGE.0, ZOOM_RANGE.1);
        let k = z / self.zoom;
        self.pan = [
            at[0] - (at[0] - self.pan[0]) * k,
            at[1] - (at[1] - self.pan[1]) * k,
        ];
        self.zoom = z;
    }

    /// Zooms and pans so a `w` × `h` map fills the canvas, centred.
    pub fn fit(&mut self, w: usize, h: usize) {
        let (cw, ch) = (self.canvas[0].max(16.0), self.canvas[1].max(16.0));
        let z = ((cw - 8.0) / w.max(1) as f32)
            .min((ch - 8.0) / h.max(1) as f32)
            .clamp(ZOOM_RANGE.0, ZOOM_RANGE.1);
        self.zoom = z;
        self.pan = [(cw - w as f32 * z) / 2.0, (ch - h as f32 * z) / 2.0];
    }

    /// Pans so cell `p` is in the middle of the canvas.
    pub fn center_on(&mut self, p: Pos) {
        self.pan = [
            self.canvas[0] / 2.0 - (p.x as f32 + 0.5) * self.zoom,
            self.canvas[1] / 2.0 - (p.y as f32 + 0.5) * self.zoom,
        ];
    }

    /// The range of visible cells of a `w` × `h` map: `(x0, y0, x1, y1)` with `x1`, `y1`
    /// exclusive (empty ranges when nothing is visible).
    pub fn visible(&self, w: usize, h: usize) -> (usize, usize, usize, usize) {
        let lo = |pan: f32| ((-pan) / self.zoom).floor().max(0.0) as usize;
        let hi = |pan: f32, size: f32, n: usize| {
            (((size - pan) / self.zoom).ceil().max(0.0) as usize).min(n)
        };
        let (x0, y0) = (lo(self.pan[0]).min(w), lo(self.pan[1]).min(h));
        let (x1, y1) = (
            hi(self.pan[0], self.canvas[0], w).max(x0),
            hi(self.pan[1], self.canvas[1], h).max(y0),
        );
        (x0, y0, x1, y1)
    }
}

/// Which page the right-hand side panel shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SideTab {
    /// The cell inspector, level properties and history (while playing: the play pane and
    /// the inspector).
    #[default]
    Main,
    /// The rules page of the kind (boulder: the rule editor, whose selected rule's matches are
    /// outlined on the canvas; baba: the live rule list).
    Rules,
}

/// The panels round the map that can be hidden (View menu): their shown flags are
/// [`crate::files::Settings::show_palette`], [`crate::files::Settings::show_side`] and
/// [`crate::files::Settings::show_problems`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pane {
    /// The left panel: the palette.
    Palette,
    /// The right panel: the Cell & level / Rules / Play pane pages.
    Side,
    /// The problems list above the status bar.
    Problems,
}

/// What the export dialog exports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportWhat {
    /// File → Export PNG…: the design as a PNG image.
    Png,
    /// The play pane's "Export GIF of this play…".
    Gif,
}
