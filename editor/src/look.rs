//! How each boulder token looks on the canvas: a base colour plus a simple vector glyph.
//!
//! The base colour alone must tell tokens apart (it is all that is drawn when a cell is only a
//! few pixels wide); the glyph is drawn on top once a cell is at least [`GLYPH_MIN_PX`] points
//! wide. Enemies and the four "things" show their heading as an arrow.

use eframe::egui::{Color32, Mesh, Painter, Pos2, Rect, Shape, pos2, vec2};
use tilesmith_engine::Dir;
use tilesmith_engine::kind::boulder::{Cell, Token};

/// The smallest cell size, in points, at which glyphs are drawn over the base colour.
pub const GLYPH_MIN_PX: f32 = 10.0;

/// The base colour of a token (a distinct, fairly saturated colour per token).
pub fn color(t: Token) -> Color32 {
    match t {
        Token::Me => Color32::from_rgb(255, 214, 0),
        Token::Mud => Color32::from_rgb(122, 84, 48),
        Token::Stone => Color32::from_rgb(150, 150, 150),
        Token::Gem => Color32::from_rgb(40, 220, 230),
        Token::Exit => Color32::from_rgb(40, 170, 60),
        Token::Wall => Color32::from_rgb(70, 76, 96),
        Token::Bricks => Color32::from_rgb(170, 70, 50),
        Token::Path => Color32::from_rgb(22, 22, 26),
        Token::Explosion => Color32::from_rgb(255, 140, 0),
        Token::Slime => Color32::from_rgb(120, 230, 60),
        Token::Swapling => Color32::from_rgb(230, 60, 200),
        Token::Blockling => Color32::from_rgb(60, 110, 255),
        Token::Xling => Color32::from_rgb(235, 40, 50),
        Token::Ghostling => Color32::from_rgb(225, 225, 245),
        Token::Fire => Color32::from_rgb(255, 90, 20),
        Token::Norththing | Token::Eastthing | Token::Souththing | Token::Westthing => {
            Color32::from_rgb(150, 80, 220)
        }
        Token::Pot => Color32::from_rgb(190, 130, 80),
        Token::Sieve => Color32::from_rgb(110, 130, 130),
        Token::Sand => Color32::from_rgb(220, 195, 120),
    }
}

/// A colour that contrasts with `bg` (near-black on light colours, near-white on dark ones).
pub fn ink(bg: Color32) -> Color32 {
    let l = 0.299 * bg.r() as f32 + 0.587 * bg.g() as f32 + 0.114 * bg.b() as f32;
    if l > 140.0 {
        Color32::from_rgb(20, 20, 20)
    } else {
        Color32::from_rgb(240, 240, 240)
    }
}

/// The heading a cell shows: an enemy's `direction` value, or the fixed heading of a "thing".
pub fn heading(cell: &Cell) -> Option<Dir> {
    match cell.token {
        Token::Norththing => Some(Dir::Up),
        Token::Eastthing => Some(Dir::Right),
        Token::Souththing => Some(Dir::Down),
        Token::Westthing => Some(Dir::Left),
        t if t.is_enemy() => cell.direction(),
        _ => None,
    }
}

/// Paints one cell into `r` (a square in screen points): the base colour, then the glyph when
/// the cell is large enough.
pub fn paint_cell(p: &Painter, r: Rect, cell: &Cell) {
    let mut m = Mesh::default();
    m.add_colored_rect(r, color(cell.token));
    if r.width() >= GLYPH_MIN_PX {
        glyph(&mut m, r, cell);
    }
    p.add(Shape::mesh(m));
}

/// Triangle-mesh drawing helpers for glyphs: no anti-aliasing feathering, so thousands of
/// glyphs stay cheap to tessellate and to rasterize (also with a software renderer).
pub(crate) trait MeshExt {
    fn tri(&mut self, a: Pos2, b: Pos2, c: Pos2, col: Color32);
    fn poly(&mut self, pts: &[Pos2], col: Color32);
    fn disc(&mut self, c: Pos2, r: f32, col: Color32);
    fn ring(&mut self, c: Pos2, r: f32, w: f32, col: Color32);
    fn seg(&mut self, a: Pos2, b: Pos2, w: f32, col: Color32);
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

/// Adds the glyph of `cell` over an already filled square `r` to the mesh `m`.
pub fn glyph(m: &mut Mesh, r: Rect, cell: &Cell) {
    let bg = color(cell.token);
    let ink = ink(bg);
    let s = r.width();
    let c = r.center();
    let w = (s * 0.08).max(1.0);
    let at = |fx: f32, fy: f32| pos2(r.left() + fx * s, r.top() + fy * s);
    match cell.token {
        Token::Me => {
            m.disc(at(0.5, 0.28), s * 0.15, ink);
            m.seg(at(0.5, 0.42), at(0.5, 0.72), w, ink);
            m.seg(at(0.22, 0.52), at(0.78, 0.52), w, ink);
            m.seg(at(0.5, 0.72), at(0.3, 0.94), w, ink);
            m.seg(at(0.5, 0.72), at(0.7, 0.94), w, ink);
        }
        Token::Mud => {
            let dark = Color32::from_rgb(80, 52, 28);
            for (fx, fy) in [
                (0.25, 0.3),
                (0.7, 0.25),
                (0.45, 0.6),
                (0.2, 0.8),
                (0.78, 0.75),
            ] {
                m.add_colored_rect(
                    Rect::from_center_size(at(fx, fy), vec2(s * 0.1, s * 0.1)),
                    dark,
                );
            }
        }
        Token::Stone => {
            m.add_colored_rect(r, color(Token::Path));
            m.disc(c, s * 0.42, bg);
            m.ring(c, s * 0.42, w, Color32::from_rgb(95, 95, 95));
        }
        Token::Gem => {
            m.add_colored_rect(r, color(Token::Path));
            let outer = [at(0.5, 0.06), at(0.94, 0.5), at(0.5, 0.94), at(0.06, 0.5)];
            m.poly(&outer, Color32::WHITE);
            let inner = [at(0.5, 0.16), at(0.84, 0.5), at(0.5, 0.84), at(0.16, 0.5)];
            m.poly(&inner, bg);
        }
        Token::Exit => {
            m.frame(r.shrink(s * 0.15), w, ink);
            m.add_colored_rect(Rect::from_min_max(at(0.4, 0.45), at(0.6, 0.85)), ink);
        }
        Token::Wall => {
            m.frame(r.shrink(s * 0.1), w, Color32::from_rgb(120, 128, 150));
        }
        Token::Bricks => {
            let mortar = Color32::from_rgb(230, 200, 180);
            for fy in [0.33, 0.66] {
                m.seg(at(0.0, fy), at(1.0, fy), w, mortar);
            }
            m.seg(at(0.5, 0.0), at(0.5, 0.33), w, mortar);
            m.seg(at(0.25, 0.33), at(0.25, 0.66), w, mortar);
            m.seg(at(0.75, 0.33), at(0.75, 0.66), w, mortar);
            m.seg(at(0.5, 0.66), at(0.5, 1.0), w, mortar);
        }
        Token::Path => {}
        Token::Explosion => {
            let y = Color32::from_rgb(255, 240, 120);
            m.seg(at(0.15, 0.15), at(0.85, 0.85), w * 1.5, y);
            m.seg(at(0.85, 0.15), at(0.15, 0.85), w * 1.5, y);
            m.seg(at(0.5, 0.05), at(0.5, 0.95), w * 1.5, y);
            m.seg(at(0.05, 0.5), at(0.95, 0.5), w * 1.5, y);
        }
        Token::Slime => {
            let g = Color32::from_rgb(60, 160, 30);
            m.disc(at(0.35, 0.55), s * 0.2, g);
            m.disc(at(0.65, 0.42), s * 0.15, g);
        }
        Token::Swapling | Token::Blockling | Token::Xling => match heading(cell) {
            Some(d) => arrow(m, r, d, ink),
            None => m.ring(c, s * 0.3, w, ink),
        },
        Token::Ghostling => {
            let body = Color32::from_rgb(170, 170, 210);
            m.disc(at(0.5, 0.45), s * 0.3, body);
            m.add_colored_rect(Rect::from_min_max(at(0.2, 0.45), at(0.8, 0.85)), body);
            m.disc(at(0.4, 0.45), s * 0.06, ink);
            m.disc(at(0.6, 0.45), s * 0.06, ink);
        }
        Token::Fire => {
            m.tri(
                at(0.5, 0.08),
                at(0.82, 0.9),
                at(0.18, 0.9),
                Color32::from_rgb(255, 220, 60),
            );
        }
        Token::Norththing | Token::Eastthing | Token::Souththing | Token::Westthing => {
            m.frame(r.shrink(s * 0.1), w, ink);
            if let Some(d) = heading(cell) {
                arrow(m, r, d, ink);
            }
        }
        Token::Pot => {
            m.seg(at(0.2, 0.2), at(0.27, 0.85), w * 1.5, ink);
            m.seg(at(0.27, 0.85), at(0.73, 0.85), w * 1.5, ink);
            m.seg(at(0.73, 0.85), at(0.8, 0.2), w * 1.5, ink);
        }
        Token::Sieve => {
            for f in [0.25, 0.5, 0.75] {
                m.seg(at(f, 0.1), at(f, 0.9), w * 0.7, ink);
                m.seg(at(0.1, f), at(0.9, f), w * 0.7, ink);
            }
        }
        Token::Sand => {
            let d = Color32::from_rgb(150, 120, 60);
            for (fx, fy) in [
                (0.2, 0.2),
                (0.6, 0.3),
                (0.35, 0.55),
                (0.8, 0.6),
                (0.5, 0.85),
            ] {
                m.add_colored_rect(
                    Rect::from_center_size(at(fx, fy), vec2(s * 0.08, s * 0.08)),
                    d,
                );
            }
        }
    }
}

/// The letter shown on large enemy cells (`S`, `B`, `X`), to tell them apart without colour.
pub fn letter(t: Token) -> Option<&'static str> {
    match t {
        Token::Swapling => Some("S"),
        Token::Blockling => Some("B"),
        Token::Xling => Some("X"),
        _ => None,
    }
}

/// A filled triangle pointing in `d`, centred in `r`.
fn arrow(m: &mut Mesh, r: Rect, d: Dir, fill: Color32) {
    let c = r.center();
    let s = r.width() * 0.32;
    let (dx, dy) = d.delta();
    let f = vec2(dx as f32, dy as f32);
    let side = vec2(-f.y, f.x);
    m.tri(
        c + f * s,
        c - f * s * 0.7 + side * s * 0.8,
        c - f * s * 0.7 - side * s * 0.8,
        fill,
    );
}

/// A short ASCII arrow for a direction (for buttons): `>` `^` `<` `v` (the default fonts
/// have no arrow glyphs).
pub fn arrow_char(d: Dir) -> &'static str {
    match d {
        Dir::Right => ">",
        Dir::Up => "^",
        Dir::Left => "<",
        Dir::Down => "v",
    }
}
