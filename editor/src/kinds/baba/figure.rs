//! The drawings of the common baba objects: a vector figure per noun, in the noun's colour,
//! added to a [`Mesh`] of plain triangles.
//!
//! [`add_figure`] is a pure function of the noun, its facing and the cell square: it makes no
//! painter or text call, so the canvas, the palette and a later image exporter draw the same
//! triangles from the same description. The 22 nouns of [`DRAWN`] have a figure; every other
//! noun keeps the lettered tile of [`super::look`]. Facing is shown by the eyes of the
//! creatures (baba, keke, me, crab: the eyes sit on the side the creature faces and their
//! pupils look that way), by the arrows of a belt, and by a small white triangle with a dark
//! outline at the middle of the faced edge for the other objects.
//!
//! Coordinates inside a figure are fractions of the cell: `(0, 0)` is the cell's top-left
//! corner, `(1, 1)` its bottom-right; x grows to the right, y downwards.

use eframe::egui::{Color32, Mesh, Pos2, Rect, Vec2, pos2, vec2};
use tilesmith_engine::Dir;
use tilesmith_engine::kind::baba::Noun;

use super::look::noun_color;
use crate::ui::mesh::MeshExt as _;

/// The nouns that are drawn as a figure (the others keep the lettered tile).
pub const DRAWN: [&str; 22] = [
    "baba", "keke", "me", "crab", "rock", "wall", "flag", "skull", "water", "lava", "key", "door",
    "grass", "tile", "belt", "love", "box", "star", "ice", "tree", "hedge", "pillar",
];

/// True when objects of noun `n` are drawn as a figure by [`add_figure`].
pub fn is_drawn(n: Noun) -> bool {
    DRAWN.contains(&n.name())
}

/// Adds the figure of an object of noun `n` facing `d` inside the square `r` (screen points)
/// to `m`, and returns true; returns false and adds nothing when `n` has no figure (not in
/// [`DRAWN`]). Parts outside the figure are left uncovered (the cell's background shows);
/// wall, water, lava, tile and belt cover the whole square so that neighbours join up.
pub fn add_figure(m: &mut Mesh, r: Rect, n: Noun, d: Dir) -> bool {
    let pen = Pen::new(r, n, d);
    match n.name() {
        "baba" => baba(m, &pen),
        "keke" => keke(m, &pen),
        "me" => me(m, &pen),
        "crab" => crab(m, &pen),
        "belt" => belt(m, &pen),
        "wall" | "water" | "lava" | "grass" | "tile" | "hedge" => {
            ground(m, &pen, n.name());
            marker(m, &pen);
        }
        "rock" | "flag" | "skull" | "key" | "door" | "box" => {
            thing(m, &pen, n.name());
            marker(m, &pen);
        }
        "love" | "star" | "ice" | "tree" | "pillar" => {
            ornament(m, &pen, n.name());
            marker(m, &pen);
        }
        _ => return false,
    }
    true
}

/// What a figure is drawn with: the cell square `r`, its size `s`, the facing as a unit
/// vector `f` (screen orientation, y down) and the noun's colour `bg`.
struct Pen {
    r: Rect,
    s: f32,
    f: Vec2,
    bg: Color32,
}

impl Pen {
    fn new(r: Rect, n: Noun, d: Dir) -> Self {
        let (dx, dy) = d.delta();
        Self {
            r,
            s: r.width(),
            f: vec2(dx as f32, dy as f32),
            bg: noun_color(n),
        }
    }

    /// The point at fractions `fx`, `fy` of the cell from its top-left corner.
    fn at(&self, fx: f32, fy: f32) -> Pos2 {
        pos2(self.r.left() + fx * self.s, self.r.top() + fy * self.s)
    }

    /// The rectangle between the fractions `(x0, y0)` and `(x1, y1)`.
    fn rect(&self, x0: f32, y0: f32, x1: f32, y1: f32) -> Rect {
        Rect::from_min_max(self.at(x0, y0), self.at(x1, y1))
    }

    /// A length of `k` cells, in points.
    fn len(&self, k: f32) -> f32 {
        k * self.s
    }

    /// A line width of `k` cells, at least one point.
    fn w(&self, k: f32) -> f32 {
        (k * self.s).max(1.0)
    }
}

/// `c` with its red, green and blue scaled by `k` (below 1 darker, above 1 lighter).
fn shade(c: Color32, k: f32) -> Color32 {
    let f = |v: u8| (v as f32 * k).round().clamp(0.0, 255.0) as u8;
    Color32::from_rgb(f(c.r()), f(c.g()), f(c.b()))
}

/// A filled ellipse with radii `rx`, `ry` (points) around `c`.
fn ellipse(m: &mut Mesh, c: Pos2, rx: f32, ry: f32, col: Color32) {
    let n = ((rx.max(ry) * 1.2) as usize).clamp(8, 24);
    let pts: Vec<Pos2> = (0..n)
        .map(|k| {
            let a = k as f32 / n as f32 * std::f32::consts::TAU;
            c + vec2(a.cos() * rx, a.sin() * ry)
        })
        .collect();
    m.poly(&pts, col);
}

const PUPIL: Color32 = Color32::from_rgb(16, 16, 24);
const SCLERA: Color32 = Color32::WHITE;

/// A pair of eyes side by side around the fractions `(fx, fy)`, moved `shift` cells towards
/// the facing: white discs of radius `rad` cells `spread` cells from the pair's centre, with
/// pupils of half that radius looking the faced way. Without `sclera`, only the pupils
/// (dark dots of radius `rad`) are drawn.
fn eyes(m: &mut Mesh, pen: &Pen, (fx, fy): (f32, f32), shift: f32, spread: f32, rad: f32) {
    let mid = pen.at(fx, fy) + pen.f * pen.len(shift);
    // Seen from the side, the far eye is nearer the near one.
    let gap = if pen.f.x != 0.0 { spread * 0.8 } else { spread };
    for k in [-1.0, 1.0] {
        let e = mid + vec2(k * pen.len(gap), 0.0);
        m.disc(e, pen.len(rad).max(1.0), SCLERA);
        m.disc(
            e + pen.f * pen.len(rad * 0.45),
            pen.len(rad * 0.5).max(0.6),
            PUPIL,
        );
    }
}

/// Baba: a white creature with two long ears, an oval body and four short legs; black eyes.
fn baba(m: &mut Mesh, pen: &Pen) {
    let (bg, w) = (pen.bg, pen.w(0.11));
    for (x0, x1) in [(0.36, 0.3), (0.64, 0.7)] {
        m.seg(pen.at(x0, 0.5), pen.at(x1, 0.18), w, bg);
        m.disc(pen.at(x1, 0.18), w / 2.0, bg);
    }
    for x in [0.3, 0.43, 0.57, 0.7] {
        m.seg(pen.at(x, 0.7), pen.at(x, 0.88), pen.w(0.08), bg);
    }
    ellipse(m, pen.at(0.5, 0.6), pen.len(0.34), pen.len(0.21), bg);
    // Looking up, the eyes stay inside the body's top edge.
    let shift = if pen.f.y < 0.0 { 0.1 } else { 0.16 };
    let mid = pen.at(0.5, 0.58) + pen.f * pen.len(shift);
    let gap = if pen.f.x != 0.0 { 0.06 } else { 0.09 };
    for k in [-1.0, 1.0] {
        m.disc(
            mid + vec2(k * pen.len(gap), 0.0),
            pen.len(0.05).max(1.0),
            PUPIL,
        );
    }
}

/// Keke: a red-orange round creature with two feelers and two legs; white eyes.
fn keke(m: &mut Mesh, pen: &Pen) {
    let bg = pen.bg;
    let dark = shade(bg, 0.7);
    for (x0, x1) in [(0.4, 0.33), (0.6, 0.67)] {
        m.seg(pen.at(x0, 0.7), pen.at(x1, 0.9), pen.w(0.09), dark);
        m.seg(pen.at(x0, 0.28), pen.at(x1, 0.08), pen.w(0.06), dark);
        m.disc(pen.at(x1, 0.08), pen.len(0.06).max(1.0), bg);
    }
    m.disc(pen.at(0.5, 0.52), pen.len(0.31), bg);
    eyes(m, pen, (0.5, 0.48), 0.1, 0.12, 0.1);
}

/// Me: a purple ghost-like creature, round on top and scalloped below; white eyes.
fn me(m: &mut Mesh, pen: &Pen) {
    let bg = pen.bg;
    m.disc(pen.at(0.5, 0.42), pen.len(0.3), bg);
    m.add_colored_rect(pen.rect(0.2, 0.42, 0.8, 0.8), bg);
    for x in [0.3, 0.5, 0.7] {
        m.disc(pen.at(x, 0.8), pen.len(0.1), bg);
    }
    for x in [0.14, 0.86] {
        m.disc(pen.at(x, 0.6), pen.len(0.07).max(1.0), shade(bg, 0.75));
    }
    eyes(m, pen, (0.5, 0.45), 0.1, 0.11, 0.09);
}

/// Crab: a red crab, a wide body with two claws raised, three legs a side and eyes on stalks.
fn crab(m: &mut Mesh, pen: &Pen) {
    let (bg, dark) = (pen.bg, shade(pen.bg, 0.75));
    let lw = pen.w(0.06);
    for (a, b) in [
        ((0.3, 0.62), (0.08, 0.72)),
        ((0.32, 0.68), (0.12, 0.86)),
        ((0.38, 0.72), (0.26, 0.92)),
    ] {
        m.seg(pen.at(a.0, a.1), pen.at(b.0, b.1), lw, dark);
        m.seg(pen.at(1.0 - a.0, a.1), pen.at(1.0 - b.0, b.1), lw, dark);
    }
    for k in [0.0, 1.0] {
        let x = |v: f32| if k == 0.0 { v } else { 1.0 - v };
        m.seg(
            pen.at(x(0.32), 0.56),
            pen.at(x(0.18), 0.36),
            pen.w(0.08),
            bg,
        );
        // The pincer: two fingers opening upwards.
        m.seg(
            pen.at(x(0.18), 0.38),
            pen.at(x(0.08), 0.14),
            pen.w(0.09),
            bg,
        );
        m.seg(
            pen.at(x(0.18), 0.38),
            pen.at(x(0.26), 0.16),
            pen.w(0.07),
            bg,
        );
    }
    ellipse(m, pen.at(0.5, 0.62), pen.len(0.3), pen.len(0.17), bg);
    let mid = pen.at(0.5, 0.36) + pen.f * pen.len(0.05);
    for k in [-1.0, 1.0] {
        m.seg(
            pen.at(0.5 + k * 0.08, 0.52),
            mid + vec2(k * pen.len(0.08), 0.0),
            pen.w(0.05),
            dark,
        );
    }
    eyes(m, pen, (0.5, 0.36), 0.05, 0.08, 0.075);
}

/// Belt: a conveyor covering the cell, rails along the facing and two yellow chevrons
/// pointing the way it faces.
fn belt(m: &mut Mesh, pen: &Pen) {
    let c = pen.r.center();
    let (f, side) = (pen.f, vec2(-pen.f.y, pen.f.x));
    m.add_colored_rect(pen.r, pen.bg);
    let rail = shade(pen.bg, 1.5);
    for k in [-1.0, 1.0] {
        let o = side * pen.len(0.42) * k;
        m.seg(
            c + o - f * pen.len(0.5),
            c + o + f * pen.len(0.5),
            pen.w(0.1),
            rail,
        );
    }
    let arrow = Color32::from_rgb(245, 205, 70);
    for u in [-0.2, 0.14] {
        let tip = c + f * pen.len(u + 0.14);
        for k in [-1.0, 1.0] {
            let end = c + f * pen.len(u - 0.06) + side * pen.len(0.22) * k;
            m.seg(end, tip, pen.w(0.08), arrow);
        }
        m.disc(tip, pen.w(0.04), arrow);
    }
}

/// A wavy line across the cell at the fraction `y`: water and lava.
fn wave(m: &mut Mesh, pen: &Pen, y: f32, col: Color32) {
    let n = 8;
    let p = |k: usize| {
        let x = k as f32 / n as f32;
        pen.at(x, y - 0.05 * (x * std::f32::consts::TAU * 2.0).sin())
    };
    for k in 0..n {
        m.seg(p(k), p(k + 1), pen.w(0.07), col);
    }
}

/// Three blades of grass growing from the fractions `(x, y)`, `h` cells high.
fn tuft(m: &mut Mesh, pen: &Pen, (x, y): (f32, f32), h: f32, col: Color32) {
    for (dx, k) in [(-0.12, 0.75), (0.0, 1.0), (0.12, 0.75)] {
        m.seg(pen.at(x, y), pen.at(x + dx, y - h * k), pen.w(0.065), col);
    }
}

/// The ground and its borders: wall, water, lava, grass, tile and hedge.
fn ground(m: &mut Mesh, pen: &Pen, name: &str) {
    let bg = pen.bg;
    match name {
        "wall" => {
            m.add_colored_rect(pen.r, shade(bg, 0.5));
            let g = 0.03;
            let rows: [&[(f32, f32)]; 3] = [
                &[(0.0, 0.5), (0.5, 1.0)],
                &[(0.0, 0.25), (0.25, 0.75), (0.75, 1.0)],
                &[(0.0, 0.5), (0.5, 1.0)],
            ];
            for (i, row) in rows.iter().enumerate() {
                let y = i as f32 / 3.0;
                for &(x0, x1) in *row {
                    m.add_colored_rect(pen.rect(x0 + g, y + g, x1 - g, y + 1.0 / 3.0 - g), bg);
                }
            }
        }
        "water" | "lava" => {
            m.add_colored_rect(pen.r, bg);
            let crest = if name == "water" {
                Color32::from_rgb(175, 215, 250)
            } else {
                Color32::from_rgb(255, 215, 80)
            };
            wave(m, pen, 0.3, crest);
            wave(m, pen, 0.72, crest);
            if name == "lava" {
                m.disc(pen.at(0.3, 0.52), pen.len(0.05).max(1.0), crest);
                m.disc(pen.at(0.72, 0.5), pen.len(0.035).max(1.0), crest);
            }
        }
        "grass" => {
            tuft(m, pen, (0.27, 0.48), 0.3, bg);
            tuft(m, pen, (0.72, 0.4), 0.28, bg);
            tuft(m, pen, (0.5, 0.9), 0.32, bg);
        }
        "tile" => {
            let light = shade(bg, 1.3);
            for (i, (x, y)) in [(0.0, 0.0), (0.5, 0.0), (0.0, 0.5), (0.5, 0.5)]
                .into_iter()
                .enumerate()
            {
                let col = if i == 0 || i == 3 { bg } else { light };
                m.add_colored_rect(pen.rect(x, y, x + 0.5, y + 0.5), col);
            }
        }
        "hedge" => {
            m.add_colored_rect(pen.rect(0.06, 0.55, 0.94, 0.92), bg);
            m.disc(pen.at(0.26, 0.55), pen.len(0.2), bg);
            m.disc(pen.at(0.5, 0.44), pen.len(0.25), bg);
            m.disc(pen.at(0.74, 0.55), pen.len(0.2), bg);
            let leaf = shade(bg, 0.6);
            for (x, y) in [
                (0.3, 0.6),
                (0.5, 0.42),
                (0.68, 0.62),
                (0.42, 0.78),
                (0.8, 0.82),
            ] {
                m.disc(pen.at(x, y), pen.len(0.045).max(1.0), leaf);
            }
        }
        _ => {}
    }
}

/// Things that lie about: rock, flag, skull, key, door and box.
fn thing(m: &mut Mesh, pen: &Pen, name: &str) {
    let bg = pen.bg;
    let dark = shade(bg, 0.55);
    let at = |x, y| pen.at(x, y);
    match name {
        "rock" => {
            let outline = [
                at(0.16, 0.5),
                at(0.3, 0.22),
                at(0.58, 0.14),
                at(0.82, 0.3),
                at(0.88, 0.62),
                at(0.72, 0.84),
                at(0.36, 0.86),
                at(0.18, 0.72),
            ];
            m.poly(&outline, bg);
            let lit = [at(0.3, 0.3), at(0.56, 0.22), at(0.5, 0.34), at(0.3, 0.44)];
            m.poly(&lit, shade(bg, 1.25));
            m.seg(at(0.56, 0.56), at(0.7, 0.66), pen.w(0.05), dark);
            m.seg(at(0.56, 0.56), at(0.5, 0.72), pen.w(0.05), dark);
        }
        "flag" => {
            m.seg(
                at(0.28, 0.1),
                at(0.28, 0.9),
                pen.w(0.06),
                Color32::from_rgb(150, 130, 110),
            );
            m.add_colored_rect(
                pen.rect(0.18, 0.86, 0.4, 0.92),
                Color32::from_rgb(150, 130, 110),
            );
            m.tri(at(0.31, 0.12), at(0.86, 0.31), at(0.31, 0.5), bg);
        }
        "skull" => {
            m.disc(at(0.5, 0.42), pen.len(0.31), bg);
            m.add_colored_rect(pen.rect(0.33, 0.52, 0.67, 0.85), bg);
            let hole = Color32::from_rgb(40, 8, 12);
            m.disc(at(0.38, 0.45), pen.len(0.09), hole);
            m.disc(at(0.62, 0.45), pen.len(0.09), hole);
            m.tri(at(0.5, 0.55), at(0.55, 0.64), at(0.45, 0.64), hole);
            for x in [0.43, 0.5, 0.57] {
                m.seg(at(x, 0.71), at(x, 0.85), pen.w(0.035), hole);
            }
        }
        "key" => {
            m.ring(at(0.27, 0.5), pen.len(0.14), pen.w(0.09), bg);
            m.seg(at(0.4, 0.5), at(0.9, 0.5), pen.w(0.09), bg);
            m.seg(at(0.74, 0.5), at(0.74, 0.68), pen.w(0.08), bg);
            m.seg(at(0.86, 0.5), at(0.86, 0.7), pen.w(0.08), bg);
        }
        "door" => {
            m.disc(at(0.5, 0.38), pen.len(0.28), bg);
            m.add_colored_rect(pen.rect(0.22, 0.38, 0.78, 0.92), bg);
            for x in [0.4, 0.6] {
                m.seg(at(x, 0.16), at(x, 0.92), pen.w(0.035), dark);
            }
            m.disc(
                at(0.68, 0.6),
                pen.len(0.045).max(1.0),
                Color32::from_rgb(250, 215, 80),
            );
        }
        "box" => {
            m.add_colored_rect(pen.rect(0.14, 0.14, 0.86, 0.86), bg);
            m.frame(pen.rect(0.14, 0.14, 0.86, 0.86), pen.w(0.055), dark);
            m.seg(at(0.2, 0.8), at(0.8, 0.2), pen.w(0.06), dark);
        }
        _ => {}
    }
}

/// Nature and ornaments: love, star, ice, tree and pillar.
fn ornament(m: &mut Mesh, pen: &Pen, name: &str) {
    let bg = pen.bg;
    let at = |x, y| pen.at(x, y);
    match name {
        "love" => {
            m.disc(at(0.35, 0.4), pen.len(0.17), bg);
            m.disc(at(0.65, 0.4), pen.len(0.17), bg);
            m.tri(at(0.19, 0.46), at(0.81, 0.46), at(0.5, 0.86), bg);
            m.disc(at(0.33, 0.36), pen.len(0.05).max(1.0), shade(bg, 1.2));
        }
        "star" => {
            let c = at(0.5, 0.54);
            let p = |k: usize| {
                let a = -std::f32::consts::FRAC_PI_2 + k as f32 * std::f32::consts::PI / 5.0;
                let rad = pen.len(if k.is_multiple_of(2) { 0.42 } else { 0.17 });
                c + vec2(a.cos(), a.sin()) * rad
            };
            for k in 0..10 {
                m.tri(c, p(k), p(k + 1), bg);
            }
        }
        "ice" => {
            let hex = [
                at(0.5, 0.08),
                at(0.8, 0.3),
                at(0.8, 0.7),
                at(0.5, 0.92),
                at(0.2, 0.7),
                at(0.2, 0.3),
            ];
            m.poly(&hex, bg);
            m.poly(
                &[hex[0], hex[1], at(0.5, 0.44), hex[5]],
                Color32::from_rgb(225, 248, 255),
            );
            let line = shade(bg, 0.8);
            m.seg(at(0.5, 0.44), at(0.5, 0.92), pen.w(0.035), line);
        }
        "tree" => {
            m.add_colored_rect(
                pen.rect(0.44, 0.56, 0.56, 0.92),
                Color32::from_rgb(125, 82, 40),
            );
            m.disc(at(0.5, 0.34), pen.len(0.25), bg);
            m.disc(at(0.32, 0.52), pen.len(0.17), bg);
            m.disc(at(0.68, 0.52), pen.len(0.17), bg);
            m.disc(at(0.42, 0.28), pen.len(0.07).max(1.0), shade(bg, 1.35));
        }
        "pillar" => {
            m.add_colored_rect(pen.rect(0.22, 0.1, 0.78, 0.2), bg);
            m.add_colored_rect(pen.rect(0.32, 0.2, 0.68, 0.82), bg);
            m.add_colored_rect(pen.rect(0.22, 0.82, 0.78, 0.92), bg);
            for x in [0.41, 0.5, 0.59] {
                m.seg(at(x, 0.23), at(x, 0.79), pen.w(0.03), shade(bg, 0.7));
            }
        }
        _ => {}
    }
}

/// The facing of an object without eyes or arrows: a small white triangle with a dark outline
/// pointing out of the middle of the faced edge.
fn marker(m: &mut Mesh, pen: &Pen) {
    let c = pen.r.center();
    let (f, side) = (pen.f, vec2(-pen.f.y, pen.f.x));
    let tri = |tip: f32, base: f32, half: f32| {
        [
            c + f * pen.len(tip),
            c + f * pen.len(base) + side * pen.len(half),
            c + f * pen.len(base) - side * pen.len(half),
        ]
    };
    let [a, b, d] = tri(0.5, 0.33, 0.13);
    m.tri(a, b, d, Color32::from_rgb(15, 15, 20));
    let [a, b, d] = tri(0.45, 0.36, 0.08);
    m.tri(a, b, d, Color32::from_rgb(250, 250, 250));
}
