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
        // A field that could not be read (repair mode): loud magenta, hatched.
        Token::Unknown => Color32::from_rgb(255, 0, 255),
    }
}

pub use crate::doc::ui::ink;

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

pub(crate) use crate::ui::mesh::MeshExt;

/// Adds the glyph of `cell` over an already filled square `r` to the mesh `m`.
pub fn glyph(m: &mut Mesh, r: Rect, cell: &Cell) {
    let pen = Pen::new(r, cell.token);
    match cell.token {
        Token::Path => {}
        Token::Mud => speckles(
            m,
            &pen,
            Color32::from_rgb(80, 52, 28),
            0.1,
            &[
                (0.25, 0.3),
                (0.7, 0.25),
                (0.45, 0.6),
                (0.2, 0.8),
                (0.78, 0.75),
            ],
        ),
        Token::Sand => speckles(
            m,
            &pen,
            Color32::from_rgb(150, 120, 60),
            0.08,
            &[
                (0.2, 0.2),
                (0.6, 0.3),
                (0.35, 0.55),
                (0.8, 0.6),
                (0.5, 0.85),
            ],
        ),
        Token::Stone | Token::Gem => loose_glyph(m, &pen, cell.token),
        Token::Exit | Token::Wall | Token::Bricks | Token::Pot | Token::Sieve => {
            built_glyph(m, &pen, cell.token)
        }
        Token::Explosion | Token::Fire => blast_glyph(m, &pen, cell.token),
        Token::Me
        | Token::Slime
        | Token::Ghostling
        | Token::Swapling
        | Token::Blockling
        | Token::Xling
        | Token::Norththing
        | Token::Eastthing
        | Token::Souththing
        | Token::Westthing => creature_glyph(m, &pen, cell),
        Token::Unknown => {
            // Black diagonal hatch over the magenta (the text is drawn by the caller).
            for f in [0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75] {
                let (a, b) = if f <= 1.0 {
                    (pen.at(0.0, f), pen.at(f, 0.0))
                } else {
                    (pen.at(f - 1.0, 1.0), pen.at(1.0, f - 1.0))
                };
                m.seg(a, b, pen.w, Color32::BLACK);
            }
        }
    }
}

/// The first letters of an unknown field's original JSON, for drawing on its cell: the
/// string of a token name (`stonee` → `sto`), the `token` of an object, `…` for a missing
/// field of a short row and `?` for anything else.
pub fn unknown_label(kept: Option<&serde_json::Value>) -> String {
    use serde_json::Value;
    let text = match kept {
        None => return "\u{2026}".into(),
        Some(Value::String(s)) => s.as_str(),
        Some(Value::Object(o)) => match o.get("token") {
            Some(Value::String(s)) => s.as_str(),
            _ => "?",
        },
        Some(_) => "?",
    };
    text.chars().take(3).collect()
}

/// What a glyph is drawn with: the cell square `r`, its size `s` and centre `c`, the line
/// width `w`, the token's base colour `bg` and the `ink` that contrasts with it.
struct Pen {
    r: Rect,
    s: f32,
    c: Pos2,
    w: f32,
    bg: Color32,
    ink: Color32,
}

impl Pen {
    /// The pen for a glyph of `token` in the square `r`.
    fn new(r: Rect, token: Token) -> Self {
        let bg = color(token);
        let s = r.width();
        Self {
            r,
            s,
            c: r.center(),
            w: (s * 0.08).max(1.0),
            bg,
            ink: ink(bg),
        }
    }

    /// The point at fractions `fx`, `fy` of the cell's size from its top-left corner.
    fn at(&self, fx: f32, fy: f32) -> Pos2 {
        pos2(self.r.left() + fx * self.s, self.r.top() + fy * self.s)
    }
}

/// Small squares of `colour`, `size` (a fraction of the cell) wide, at the fractions `spots`:
/// mud and sand.
fn speckles(m: &mut Mesh, pen: &Pen, colour: Color32, size: f32, spots: &[(f32, f32)]) {
    for &(fx, fy) in spots {
        m.add_colored_rect(
            Rect::from_center_size(pen.at(fx, fy), vec2(pen.s * size, pen.s * size)),
            colour,
        );
    }
}

/// The loose things that lie on a path: a stone's disc and a gem's diamond.
fn loose_glyph(m: &mut Mesh, pen: &Pen, token: Token) {
    let (s, c, w, bg) = (pen.s, pen.c, pen.w, pen.bg);
    let at = |fx, fy| pen.at(fx, fy);
    match token {
        Token::Stone => {
            m.add_colored_rect(pen.r, color(Token::Path));
            m.disc(c, s * 0.42, bg);
            m.ring(c, s * 0.42, w, Color32::from_rgb(95, 95, 95));
        }
        Token::Gem => {
            m.add_colored_rect(pen.r, color(Token::Path));
            let outer = [at(0.5, 0.06), at(0.94, 0.5), at(0.5, 0.94), at(0.06, 0.5)];
            m.poly(&outer, Color32::WHITE);
            let inner = [at(0.5, 0.16), at(0.84, 0.5), at(0.5, 0.84), at(0.16, 0.5)];
            m.poly(&inner, bg);
        }
        _ => {}
    }
}

/// The built things: exit door, wall, bricks, pot and sieve.
fn built_glyph(m: &mut Mesh, pen: &Pen, token: Token) {
    let (r, s, w, ink) = (pen.r, pen.s, pen.w, pen.ink);
    let at = |fx, fy| pen.at(fx, fy);
    match token {
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
        _ => {}
    }
}

/// The blasts: an explosion's star and a fire's flame.
fn blast_glyph(m: &mut Mesh, pen: &Pen, token: Token) {
    let w = pen.w;
    let at = |fx, fy| pen.at(fx, fy);
    match token {
        Token::Explosion => {
            let y = Color32::from_rgb(255, 240, 120);
            m.seg(at(0.15, 0.15), at(0.85, 0.85), w * 1.5, y);
            m.seg(at(0.85, 0.15), at(0.15, 0.85), w * 1.5, y);
            m.seg(at(0.5, 0.05), at(0.5, 0.95), w * 1.5, y);
            m.seg(at(0.05, 0.5), at(0.95, 0.5), w * 1.5, y);
        }
        Token::Fire => {
            m.tri(
                at(0.5, 0.08),
                at(0.82, 0.9),
                at(0.18, 0.9),
                Color32::from_rgb(255, 220, 60),
            );
        }
        _ => {}
    }
}

/// The things that move by themselves: me, slime, the ghostling, the enemies and the four
/// "things" (enemies and things show their heading as an arrow).
fn creature_glyph(m: &mut Mesh, pen: &Pen, cell: &Cell) {
    let (r, s, c, w, ink) = (pen.r, pen.s, pen.c, pen.w, pen.ink);
    let at = |fx, fy| pen.at(fx, fy);
    match cell.token {
        Token::Me => {
            m.disc(at(0.5, 0.28), s * 0.15, ink);
            m.seg(at(0.5, 0.42), at(0.5, 0.72), w, ink);
            m.seg(at(0.22, 0.52), at(0.78, 0.52), w, ink);
            m.seg(at(0.5, 0.72), at(0.3, 0.94), w, ink);
            m.seg(at(0.5, 0.72), at(0.7, 0.94), w, ink);
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
        Token::Norththing | Token::Eastthing | Token::Souththing | Token::Westthing => {
            m.frame(r.shrink(s * 0.1), w, ink);
            if let Some(d) = heading(cell) {
                arrow(m, r, d, ink);
            }
        }
        _ => {}
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

pub use crate::doc::ui::arrow_char;
