//! Mesh helpers shared by the kinds' canvas drawings: triangles, polygons, discs, rings,
//! thick segments and frames, added to one [`Mesh`] so a whole view is one draw call; and the
//! unknown tile every kind's repair mode draws ([`add_unknown`]).

use eframe::egui::{Color32, Mesh, Pos2, Rect, pos2, vec2};

/// Triangle-mesh drawing helpers for glyphs: no anti-aliasing feathering, so thousands of
/// glyphs stay cheap to tessellate and to rasterize (also with a software renderer).
pub trait MeshExt {
    /// A filled triangle.
    fn tri(&mut self, a: Pos2, b: Pos2, c: Pos2, col: Color32);
    /// A filled convex polygon.
    fn poly(&mut self, pts: &[Pos2], col: Color32);
    /// A filled disc of radius `r`.
    fn disc(&mut self, c: Pos2, r: f32, col: Color32);
    /// A ring of radius `r` and width `w`.
    fn ring(&mut self, c: Pos2, r: f32, w: f32, col: Color32);
    /// A segment of width `w`.
    fn seg(&mut self, a: Pos2, b: Pos2, w: f32, col: Color32);
    /// A frame of width `w` inside `r`.
    fn frame(&mut self, r: Rect, w: f32, col: Color32);
}

fn segments(r: f32) -> usize {
    ((r * 1.2) as usize).clamp(6, 24)
}

impl MeshExt for Mesh {
    fn tri(&mut self, a: Pos2, b: Pos2, c: Pos2, col: Color32) {
        let i = self.vertices.len() as u32;
        self.colored_vertex(a, col);
        self.colored_vertex(b, col);
        self.colored_vertex(c, col);
        self.add_triangle(i, i + 1, i + 2);
    }

    fn poly(&mut self, pts: &[Pos2], col: Color32) {
        let i = self.vertices.len() as u32;
        for p in pts {
            self.colored_vertex(*p, col);
        }
        for k in 1..pts.len().saturating_sub(1) as u32 {
            self.add_triangle(i, i + k, i + k + 1);
        }
    }

    fn disc(&mut self, c: Pos2, r: f32, col: Color32) {
        let n = segments(r);
        let pts: Vec<Pos2> = (0..n)
            .map(|k| {
                let a = k as f32 / n as f32 * std::f32::consts::TAU;
                c + vec2(a.cos(), a.sin()) * r
            })
            .collect();
        self.poly(&pts, col);
    }

    fn ring(&mut self, c: Pos2, r: f32, w: f32, col: Color32) {
        let n = segments(r);
        let i = self.vertices.len() as u32;
        for k in 0..n {
            let a = k as f32 / n as f32 * std::f32::consts::TAU;
            let d = vec2(a.cos(), a.sin());
            self.colored_vertex(c + d * (r + w / 2.0), col);
            self.colored_vertex(c + d * (r - w / 2.0), col);
        }
        let n = n as u32;
        for k in 0..n {
            let (a, b) = (i + 2 * k, i + 2 * ((k + 1) % n));
            self.add_triangle(a, a + 1, b);
            self.add_triangle(a + 1, b + 1, b);
        }
    }

    fn seg(&mut self, a: Pos2, b: Pos2, w: f32, col: Color32) {
        let d = b - a;
        let len = d.length();
        if len <= 0.0 {
            return;
        }
        let n = vec2(-d.y, d.x) / len * (w / 2.0);
        self.poly(&[a + n, b + n, b - n, a - n], col);
    }

    fn frame(&mut self, r: Rect, w: f32, col: Color32) {
        let (l, t, rt, b) = (r.left(), r.top(), r.right(), r.bottom());
        self.add_colored_rect(Rect::from_min_max(pos2(l, t), pos2(rt, t + w)), col);
        self.add_colored_rect(Rect::from_min_max(pos2(l, b - w), pos2(rt, b)), col);
        self.add_colored_rect(Rect::from_min_max(pos2(l, t + w), pos2(l + w, b - w)), col);
        self.add_colored_rect(
            Rect::from_min_max(pos2(rt - w, t + w), pos2(rt, b - w)),
            col,
        );
    }
}

/// An unknown tile (repair mode): loud magenta, drawn with a black hatch.
pub const UNKNOWN: Color32 = Color32::from_rgb(255, 0, 255);

/// Adds an unknown tile (repair mode) in `r` to `m`: a magenta square with a black diagonal
/// hatch; the caller writes the start of its text over it (a kind's repair mode:
/// baba's unknown nouns, falling's unknown block characters).
pub fn add_unknown(m: &mut Mesh, r: Rect) {
    let z = r.width();
    let inner = r.shrink(z * 0.06);
    m.add_colored_rect(inner, UNKNOWN);
    let w = (z * 0.05).max(1.0);
    let at = |fx: f32, fy: f32| inner.min + vec2(fx * inner.width(), fy * inner.height());
    for f in [0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75] {
        let (a, b) = if f <= 1.0 {
            (at(0.0, f), at(f, 0.0))
        } else {
            (at(f - 1.0, 1.0), at(1.0, f - 1.0))
        };
        m.seg(a, b, w, Color32::BLACK);
    }
}
