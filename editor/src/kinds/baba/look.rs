//! How baba objects and text tiles look on the canvas and in the palette.
//!
//! An object of one of the 22 common nouns is drawn as its figure ([`super::figure`]: a vector
//! drawing in the noun's colour that shows the facing); any other object is a rounded square in
//! its noun's colour with the start of its name and a triangle on the side it faces. A text tile is a word tile: a dark square with the word
//! written in the colour of its class (nouns pink, operators white, properties amber, as in the
//! game) inside a border of the same colour. Text that forms no rule is drawn dimmed. A cell
//! holding several objects shows the top one and a badge with the stack's height. An unknown
//! tile (repair mode) is a magenta square with a black hatch.

use eframe::egui::{
    Align2, Color32, CornerRadius, FontId, Mesh, Painter, Rect, Shape, Stroke, StrokeKind, vec2,
};
use tilesmith_engine::Dir;

use super::figure;
use crate::ui::mesh::MeshExt as _;
use crate::ui::mesh::{UNKNOWN, add_unknown};
use tilesmith_engine::kind::baba::{Kind, Noun, Tile, Word, WordClass};

/// The background of a baba cell with no object.
pub const EMPTY: Color32 = Color32::from_rgb(21, 24, 31);

/// How one tile of a stack is drawn beyond its kind and facing: faded (text forming no rule)
/// and in the colour of a colour word that applies to it (Tier 2, spec §5.13: `BABA IS RED`
/// draws baba red; [`tilesmith_engine::kind::baba::BabaGame::tinted`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TileLook {
    /// Drawn faded: text that forms no rule.
    pub dim: bool,
    /// The colour a colour word gives it, if any.
    pub tint: Option<Color32>,
}

impl TileLook {
    /// `c` as this look draws it: the tint instead of `c` when there is one, then faded when
    /// dim.
    fn paint(self, c: Color32) -> Color32 {
        let c = self.tint.unwrap_or(c);
        if self.dim { c.gamma_multiply(0.35) } else { c }
    }
}

/// Recolours the vertices of a figure drawn in the noun colour `base` to `tint`, keeping each
/// vertex's lightness relative to `base` (so eyes and outlines stay darker than the body),
/// and keeping its alpha.
fn recolour(vertices: &mut [eframe::egui::epaint::Vertex], base: Color32, tint: Color32) {
    let luma = |c: Color32| 0.299 * c.r() as f32 + 0.587 * c.g() as f32 + 0.114 * c.b() as f32;
    let b = luma(base).max(1.0);
    for v in vertices {
        let a = v.color.a();
        let k = (luma(v.color) / b).clamp(0.0, 1.3);
        let ch = |t: u8| ((t as f32 * k).round().min(255.0)) as u8;
        let full = Color32::from_rgb(ch(tint.r()), ch(tint.g()), ch(tint.b()));
        v.color = if a == 255 {
            full
        } else {
            full.gamma_multiply(a as f32 / 255.0)
        };
    }
}

/// The colour of a word class on text tiles.
pub fn class_color(c: WordClass) -> Color32 {
    match c {
        WordClass::Noun => Color32::from_rgb(235, 90, 160),
        WordClass::Operator => Color32::from_rgb(240, 240, 240),
        WordClass::Property => Color32::from_rgb(240, 180, 50),
        WordClass::Letter => Color32::from_rgb(200, 200, 210),
    }
}

/// The colour of an object noun: fixed for the common nouns of the game, otherwise a colour
/// derived from the name (stable between runs).
pub fn noun_color(n: Noun) -> Color32 {
    let rgb = match n.name() {
        "baba" => (245, 245, 245),
        "keke" => (235, 95, 50),
        "me" => (190, 110, 220),
        "rock" => (180, 130, 70),
        "wall" => (85, 90, 110),
        "flag" => (245, 210, 60),
        "skull" => (150, 30, 40),
        "water" => (70, 130, 220),
        "lava" => (240, 110, 30),
        "key" => (235, 185, 50),
        "door" => (200, 50, 60),
        "grass" => (80, 170, 70),
        "tree" => (60, 140, 60),
        "ice" => (160, 220, 240),
        "love" => (240, 120, 190),
        "box" => (160, 110, 60),
        "star" => (255, 235, 80),
        "tile" => (74, 74, 85),
        "brick" => (170, 80, 60),
        "hedge" => (50, 110, 50),
        "belt" => (96, 88, 130),
        "jelly" => (90, 150, 230),
        "crab" => (205, 45, 50),
        "pillar" => (140, 140, 150),
        "robot" => (150, 160, 170),
        "ghost" => (230, 200, 240),
        _ => {
            let h = n
                .name()
                .bytes()
                .fold(2166136261u32, |h, b| (h ^ b as u32).wrapping_mul(16777619));
            (
                80 + (h & 0x7f) as u8,
                80 + ((h >> 8) & 0x7f) as u8,
                80 + ((h >> 16) & 0x7f) as u8,
            )
        }
    };
    Color32::from_rgb(rgb.0, rgb.1, rgb.2)
}

/// The colour a tile shows when a cell is too small for its glyph (the map texture).
pub fn tile_color(k: Kind) -> Color32 {
    match k {
        Kind::Entity(n) => noun_color(n),
        Kind::Text(w) => class_color(w.class()).gamma_multiply(0.75),
        Kind::Unknown(_) => UNKNOWN,
    }
}

/// The background of an empty cell: [`EMPTY`], or a dark shade of the level's colour when a
/// colour word applies to the level (`LEVEL IS BLUE`).
pub fn background(level: Option<Color32>) -> Color32 {
    match level {
        None => EMPTY,
        Some(t) => {
            let mix = |e: u8, c: u8| (e as f32 * 0.7 + c as f32 * 0.3).round() as u8;
            Color32::from_rgb(
                mix(EMPTY.r(), t.r()),
                mix(EMPTY.g(), t.g()),
                mix(EMPTY.b(), t.b()),
            )
        }
    }
}

/// The colour of a cell on the zoomed-out map: its top tile's, or [`EMPTY`].
pub fn stack_color(stack: &[Tile]) -> Color32 {
    stack.last().map_or(EMPTY, |t| tile_color(t.kind))
}

/// The label of a tile: the word (text) or the noun (object), upper case.
pub fn label(k: Kind) -> String {
    match k {
        Kind::Entity(n) => n.name().to_uppercase(),
        Kind::Text(w) => word_label(w),
        Kind::Unknown(_) => "?".into(),
    }
}

/// What a text tile shows: its word in capitals; for the letters ♯ and ♭ (tokens
/// `text_sharp`, `text_flat`), whose signs the game's tiles show, `#` and a lower-case `b`, the
/// usual typed stand-ins (the editor's fonts have no ♯ or ♭ glyph, and a capital B would be
/// the letter B).
pub fn word_label(w: Word) -> String {
    match w {
        Word::Letter(l) if l.name() == "sharp" => "#".into(),
        Word::Letter(l) if l.name() == "flat" => "b".into(),
        _ => w.name().to_uppercase(),
    }
}

fn fit_font(text: &str, width: f32, max: f32) -> FontId {
    let n = text.chars().count().max(1) as f32;
    // Whole points only: while zooming, the same few sizes recur and egui's text layout cache
    // serves them.
    FontId::monospace((width * 1.55 / n).min(max).max(4.0).floor())
}

/// Paints one tile into `r` (a square in screen points), faded and tinted as `look` says.
pub fn paint_tile(p: &Painter, r: Rect, t: &Tile, look: TileLook) {
    let z = r.width();
    let fade = |c: Color32| look.paint(c);
    match t.kind {
        Kind::Unknown(_) => {
            let mut m = Mesh::default();
            add_unknown(&mut m, r);
            p.add(Shape::mesh(m));
        }
        Kind::Text(w) => {
            let col = fade(class_color(w.class()));
            let inner = r.shrink(z * 0.06);
            p.rect_filled(
                inner,
                CornerRadius::same((z * 0.1) as u8),
                Color32::from_rgb(12, 12, 16),
            );
            p.rect_stroke(
                inner,
                CornerRadius::same((z * 0.1) as u8),
                Stroke::new((z * 0.06).clamp(1.0, 3.0), col),
                StrokeKind::Inside,
            );
            if z >= 10.0 {
                let text = word_label(w);
                p.text(
                    r.center(),
                    Align2::CENTER_CENTER,
                    &text,
                    fit_font(&text, z * 0.84, z * 0.4),
                    col,
                );
            }
        }
        Kind::Entity(n) if figure::is_drawn(n) => {
            let mut m = Mesh::default();
            add_object(&mut m, r, t, look);
            p.add(Shape::mesh(m));
        }
        Kind::Entity(n) => {
            let col = fade(noun_color(n));
            let inner = r.shrink(z * 0.12);
            p.rect_filled(inner, CornerRadius::same((z * 0.22) as u8), col);
            if z >= 14.0 {
                let name = n.name();
                let short: String = name.chars().take(if z >= 40.0 { 5 } else { 3 }).collect();
                p.text(
                    inner.center(),
                    Align2::CENTER_CENTER,
                    short.to_uppercase(),
                    fit_font(&short, inner.width() * 0.8, z * 0.3),
                    crate::doc::ui::ink(col),
                );
            }
            if z >= 8.0 {
                facing_mark(
                    p,
                    r,
                    t.dir,
                    crate::doc::ui::ink(col).gamma_multiply(0.9),
                    col,
                );
            }
        }
    }
}

/// Adds the figure of the object `t` (its noun has one: [`figure::is_drawn`]) in `r` to `m`,
/// recoloured to its tint and faded like dimmed tiles as `look` says.
fn add_object(m: &mut Mesh, r: Rect, t: &Tile, look: TileLook) {
    let Kind::Entity(n) = t.kind else { return };
    let first = m.vertices.len();
    figure::add_figure(m, r, n, t.dir);
    if let Some(tint) = look.tint {
        recolour(&mut m.vertices[first..], noun_color(n), tint);
    }
    if look.dim {
        for v in &mut m.vertices[first..] {
            v.color = v.color.gamma_multiply(0.35);
        }
    }
}

/// A small triangle at the edge of `r` that the object faces.
fn facing_mark(p: &Painter, r: Rect, d: Dir, fill: Color32, outline: Color32) {
    let c = r.center();
    let (dx, dy) = d.delta();
    let f = vec2(dx as f32, dy as f32);
    let side = vec2(-f.y, f.x);
    let s = r.width();
    let tip = c + f * s * 0.47;
    let base = c + f * s * 0.3;
    let pts = vec![tip, base + side * s * 0.11, base - side * s * 0.11];
    p.add(eframe::egui::Shape::convex_polygon(
        pts,
        fill,
        Stroke::new(1.0, outline),
    ));
}

/// Paints a whole stack into `r`: the top tile (earlier ones are covered), and, when the cell
/// holds more than one object, a badge with their number in the top-right corner. `look`
/// gives how the tile at a stack index (0 = bottom) is drawn: dimmed (text forming no rule)
/// and tinted.
pub fn paint_stack(p: &Painter, r: Rect, stack: &[Tile], look: &dyn Fn(usize) -> TileLook) {
    let Some(top) = stack.last() else { return };
    // A text tile under an object shows as a strip along the bottom, so stacked rules stay
    // visible.
    if stack.len() > 1
        && !top.kind.is_text()
        && let Some((i, t)) = stack
            .iter()
            .enumerate()
            .rev()
            .skip(1)
            .find(|(_, t)| t.kind.is_text())
    {
        let strip = Rect::from_min_max(r.left_bottom() - vec2(0.0, r.height() * 0.22), r.max);
        if let Kind::Text(w) = t.kind {
            p.rect_filled(strip, 0.0, look(i).paint(class_color(w.class())));
        }
    }
    paint_tile(p, r, top, look(stack.len() - 1));
    let z = r.width();
    if stack.len() > 1 && z >= 14.0 {
        let font = FontId::proportional((z * 0.28).clamp(8.0, 14.0).floor());
        let g = p.layout_no_wrap(format!("{}", stack.len()), font, Color32::BLACK);
        let at = r.right_top() + vec2(-g.size().x - 3.0, 1.0);
        p.rect_filled(
            Rect::from_min_size(at - vec2(2.0, 0.0), g.size() + vec2(4.0, 0.0)),
            3.0,
            Color32::from_rgb(120, 220, 255),
        );
        p.galley(at, g, Color32::BLACK);
    }
}

/// A text to draw after a mesh: where (its centre), what, font and colour.
pub type TextJob = (eframe::egui::Pos2, String, FontId, Color32);

/// The cell size (points) from which [`paint_stack`] draws with rounded corners and
/// anti-aliased outlines; below it the canvas uses [`mesh_stack`].
pub const FINE_MIN_PX: f32 = 28.0;

/// The smallest zoom at which stacks are drawn (one mesh for all), in points per cell; below
/// it only the base colours show.
pub const MESH_MIN_PX: f32 = 10.0;

/// Adds a stack to one mesh (plain quads and triangles, no anti-aliasing feathering: cheap for
/// thousands of cells) and its labels to `texts`: the same picture as [`paint_stack`] with
/// square corners, for small zooms.
pub fn mesh_stack(
    m: &mut Mesh,
    texts: &mut Vec<TextJob>,
    r: Rect,
    stack: &[Tile],
    look: &dyn Fn(usize) -> TileLook,
) {
    let Some(top) = stack.last() else { return };
    let z = r.width();
    m.add_colored_rect(r, EMPTY);
    if stack.len() > 1
        && !top.kind.is_text()
        && let Some((i, Kind::Text(w))) = stack
            .iter()
            .enumerate()
            .rev()
            .skip(1)
            .map(|(i, t)| (i, t.kind))
            .find(|(_, k)| k.is_text())
    {
        let strip = Rect::from_min_max(r.left_bottom() - vec2(0.0, r.height() * 0.22), r.max);
        m.add_colored_rect(strip, look(i).paint(class_color(w.class())));
    }
    let top_look = look(stack.len() - 1);
    let fade = |c: Color32| top_look.paint(c);
    match top.kind {
        Kind::Unknown(_) => add_unknown(m, r),
        Kind::Text(w) => {
            let col = fade(class_color(w.class()));
            let inner = r.shrink(z * 0.06);
            m.add_colored_rect(inner, col);
            m.add_colored_rect(
                inner.shrink((z * 0.06).clamp(1.0, 3.0)),
                Color32::from_rgb(12, 12, 16),
            );
            if z >= 10.0 {
                let text = word_label(w);
                let font = fit_font(&text, z * 0.84, z * 0.4);
                texts.push((r.center(), text, font, col));
            }
        }
        Kind::Entity(n) if figure::is_drawn(n) => add_object(m, r, top, top_look),
        Kind::Entity(n) => {
            let col = fade(noun_color(n));
            let inner = r.shrink(z * 0.12);
            m.add_colored_rect(inner, col);
            // The colour tells objects apart at small sizes; the name comes from 20 points.
            if z >= 20.0 {
                let short: String = n.name().chars().take(3).collect::<String>().to_uppercase();
                let font = fit_font(&short, inner.width() * 0.8, z * 0.3);
                texts.push((inner.center(), short, font, crate::doc::ui::ink(col)));
            }
            let (dx, dy) = top.dir.delta();
            let f = vec2(dx as f32, dy as f32);
            let side = vec2(-f.y, f.x);
            let c = r.center();
            m.tri(
                c + f * z * 0.47,
                c + f * z * 0.3 + side * z * 0.11,
                c + f * z * 0.3 - side * z * 0.11,
                crate::doc::ui::ink(col).gamma_multiply(0.9),
            );
        }
    }
    if stack.len() > 1 && z >= 14.0 {
        let s = (z * 0.3).clamp(8.0, 14.0);
        let badge = Rect::from_min_size(r.right_top() + vec2(-s - 1.0, 1.0), vec2(s, s));
        m.add_colored_rect(badge, Color32::from_rgb(120, 220, 255));
        texts.push((
            badge.center(),
            format!("{}", stack.len()),
            FontId::proportional((s * 0.9).floor()),
            Color32::BLACK,
        ));
    }
}
