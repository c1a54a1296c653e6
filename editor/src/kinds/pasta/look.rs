//! How a program is drawn: the cards in a row, wrapping into several rows for a long
//! program; each card with its name on a band of its category's colour (Flag, Life, Card,
//! Parameter: spec §8), its BASIC mark, its printed parameters (with the value in effect and
//! the chips on it), and its flag queue head first in the players' colours; the cursor as an
//! arrow above its card with the direction it moves in.
//!
//! [`layout`] places the cards in a rectangle (the same geometry is used to draw and to hit
//! the pointer); [`paint_card`] and [`paint_cursor`] draw.

use eframe::egui::{
    Align2, Color32, FontId, Painter, Pos2, Rect, Shape, Stroke, StrokeKind, pos2, vec2,
};
use tilesmith_engine::kind::pasta::Card;
use tilesmith_engine::kind::pasta::card::Category;

use crate::doc::ui::ink;

/// The players' colours, red then blue.
pub const PLAYER_COLORS: [Color32; 2] = [
    Color32::from_rgb(215, 55, 45),
    Color32::from_rgb(50, 110, 230),
];

/// The colour of a changed card's outline (the last command's changes).
pub const CHANGED: Color32 = Color32::from_rgb(255, 220, 60);

/// The colour of a chosen target (a card, flag or parameter picked for the command).
pub const CHOSEN: Color32 = Color32::WHITE;

/// The band colour of a card category (spec §8).
pub fn category_color(c: Category) -> Color32 {
    match c {
        Category::Flag => Color32::from_rgb(40, 135, 115),
        Category::Life => Color32::from_rgb(185, 70, 115),
        Category::Card => Color32::from_rgb(200, 150, 40),
        Category::Parameter => Color32::from_rgb(120, 95, 200),
    }
}

/// The category's name as spec §8 gives it.
pub fn category_name(c: Category) -> &'static str {
    match c {
        Category::Flag => "Flag",
        Category::Life => "Life",
        Category::Card => "Card",
        Category::Parameter => "Parameter",
    }
}

/// What each printed parameter of `card` sets, in printed order (spec §8).
pub fn param_names(card: Card) -> &'static [&'static str] {
    match card {
        Card::AddFlag | Card::Reorder => &["cards"],
        Card::MoveFlag | Card::RemoveFlag => &["flags"],
        Card::FastPass => &["life", "cards"],
        Card::Bug | Card::ForkBomb => &["damage"],
        Card::Debug => &["heal"],
        Card::TradeOff => &["own", "opp."],
        Card::Reverse => &["cost"],
        Card::Subroutine => &["range"],
        Card::Increment | Card::Decrement => &["amount"],
        Card::Rotate | Card::RemoveCommand | Card::SwapCommand => &[],
    }
}

/// One card as drawn: the card, its queue head first (0 red, 1 blue), the net chips on each
/// parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct CardView {
    /// The card.
    pub card: Card,
    /// Its flag queue, head first.
    pub flags: Vec<u8>,
    /// Net chips per parameter, in printed order.
    pub chips: Vec<i8>,
}

/// Where one card and its parts are on screen.
#[derive(Clone, Debug)]
pub struct CardGeom {
    /// The card.
    pub rect: Rect,
    /// Each flag of its queue, head first.
    pub flags: Vec<Rect>,
    /// Each parameter, in printed order.
    pub params: Vec<Rect>,
    /// Points per unit of the layout's scale (1 at the widest cards).
    pub scale: f32,
}

/// Space above each row for the cursor.
const ARROW_SPACE: f32 = 28.0;
const MARGIN: f32 = 14.0;
const GAP: f32 = 12.0;
const WIDEST: f32 = 136.0;
const NARROWEST: f32 = 72.0;

/// The cards' places in `area` for a line of `flags.len()` cards with these queue lengths
/// (and `params[i]` parameters): rows as wide as fit, the cards as large as let every row
/// fit in the height (down to a smallest size, below which the rows run past the bottom).
pub fn layout(area: Rect, flags: &[usize], params: &[usize]) -> Vec<CardGeom> {
    let n = flags.len();
    if n == 0 {
        return Vec::new();
    }
    let most = flags.iter().copied().max().unwrap_or(0).max(4);
    let width = area.width() - 2.0 * MARGIN;
    let mut w = WIDEST;
    let (mut per, mut h);
    loop {
        per = (((width + GAP) / (w + GAP)).floor() as usize).clamp(1, n);
        h = card_height(w, most);
        let rows = n.div_ceil(per);
        let total = rows as f32 * (h + ARROW_SPACE + GAP);
        if total <= area.height() - MARGIN || w <= NARROWEST {
            break;
        }
        w -= 4.0;
    }
    let w = w
        .min((width - GAP * (per as f32 - 1.0)) / per as f32)
        .max(40.0);
    let s = w / WIDEST;
    (0..n)
        .map(|i| {
            let (row, col) = (i / per, i % per);
            let min = area.min
                + vec2(
                    MARGIN + col as f32 * (w + GAP),
                    MARGIN * 0.5 + ARROW_SPACE + row as f32 * (h + ARROW_SPACE + GAP),
                );
            let rect = Rect::from_min_size(min, vec2(w, h));
            geom(rect, flags[i], params.get(i).copied().unwrap_or(0), s)
        })
        .collect()
}

fn flag_side(w: f32) -> f32 {
    (w / WIDEST * 18.0).max(10.0)
}

fn per_flag_row(w: f32) -> usize {
    let f = flag_side(w);
    (((w - 10.0) / (f + 3.0)).floor() as usize).max(1)
}

fn card_height(w: f32, most: usize) -> f32 {
    let s = w / WIDEST;
    let rows = most.div_ceil(per_flag_row(w)).max(1) as f32;
    (26.0 + 16.0 + 40.0 + 10.0) * s + rows * (flag_side(w) + 3.0) + 8.0
}

fn geom(rect: Rect, nflags: usize, nparams: usize, s: f32) -> CardGeom {
    let w = rect.width();
    let top = rect.min.y + (26.0 + 16.0) * s;
    let pw = (w - 10.0 - 4.0 * (nparams.max(1) as f32 - 1.0)) / nparams.max(1) as f32;
    let params = (0..nparams)
        .map(|k| {
            Rect::from_min_size(
                pos2(rect.min.x + 5.0 + k as f32 * (pw + 4.0), top),
                vec2(pw, 36.0 * s),
            )
        })
        .collect();
    let (f, per) = (flag_side(w), per_flag_row(w));
    let ftop = top + 44.0 * s;
    let flags = (0..nflags)
        .map(|i| {
            let (r, c) = (i / per, i % per);
            Rect::from_min_size(
                pos2(
                    rect.min.x + 5.0 + c as f32 * (f + 3.0),
                    ftop + r as f32 * (f + 3.0),
                ),
                vec2(f, f),
            )
        })
        .collect();
    CardGeom {
        rect,
        flags,
        params,
        scale: s,
    }
}

/// How one card is marked besides its contents.
#[derive(Clone, Debug, Default)]
pub struct Marks {
    /// An outline round the card (the cursor's card in its owner's colour, a changed card,
    /// a chosen target) and its width.
    pub outline: Option<(Color32, f32)>,
    /// Greyed (a card that cannot be chosen now).
    pub dim: bool,
    /// Rings round flags: (place, colour).
    pub flag_rings: Vec<(usize, Color32)>,
    /// Numbers over flags (a new order being chosen): (place, number).
    pub flag_numbers: Vec<(usize, usize)>,
    /// Parameters outlined (a parameter chosen or offered).
    pub param_rings: Vec<(usize, Color32)>,
}

/// Draws card `v` at `g` with `m`.
pub fn paint_card(p: &Painter, g: &CardGeom, v: &CardView, m: &Marks) {
    let (r, s) = (g.rect, g.scale);
    let cat = category_color(v.card.category());
    p.rect_filled(r, 6.0, Color32::from_rgb(34, 36, 44));
    let band = Rect::from_min_size(r.min, vec2(r.width(), 26.0 * s));
    p.rect_filled(band, 6.0, cat);
    let name_font = FontId::proportional((14.0 * s).max(9.0));
    p.text(
        band.center(),
        Align2::CENTER_CENTER,
        v.card.name(),
        name_font,
        ink(cat),
    );
    let small = FontId::proportional((11.0 * s).max(8.0));
    let sub = pos2(r.min.x + 6.0, band.max.y + 2.0);
    p.text(
        sub,
        Align2::LEFT_TOP,
        category_name(v.card.category()),
        small.clone(),
        cat,
    );
    if v.card.is_basic() {
        let at = pos2(r.max.x - 6.0, band.max.y + 2.0);
        p.text(
            at,
            Align2::RIGHT_TOP,
            "BASIC",
            small.clone(),
            Color32::from_rgb(240, 230, 180),
        );
    }
    let names = param_names(v.card);
    for (k, pr) in g.params.iter().enumerate() {
        let printed = v.card.params().get(k).copied().unwrap_or(0);
        let chips = v.chips.get(k).copied().unwrap_or(0);
        paint_param(
            p,
            *pr,
            (names.get(k).copied().unwrap_or(""), printed, chips),
            s,
        );
    }
    if g.params.is_empty() {
        let at = pos2(r.center().x, r.min.y + (26.0 + 16.0 + 18.0) * s);
        p.text(
            at,
            Align2::CENTER_CENTER,
            "no parameter",
            small.clone(),
            Color32::from_gray(120),
        );
    }
    for (i, fr) in g.flags.iter().enumerate() {
        let owner = v.flags.get(i).copied().unwrap_or(0) as usize & 1;
        let col = PLAYER_COLORS[owner];
        p.rect_filled(*fr, 2.0, col);
        let n = (i + 1).to_string();
        p.text(
            fr.center(),
            Align2::CENTER_CENTER,
            n,
            small.clone(),
            Color32::WHITE,
        );
    }
    for (n, &(i, col)) in m.flag_rings.iter().enumerate() {
        // Several rings round one flag nest outwards.
        let inner = m.flag_rings[..n].iter().filter(|r| r.0 == i).count() as f32;
        if let Some(fr) = g.flags.get(i) {
            let r = fr.expand(1.5 + 2.5 * inner);
            p.rect_stroke(r, 3.0, Stroke::new(2.5, col), StrokeKind::Outside);
        }
    }
    for &(i, num) in &m.flag_numbers {
        if let Some(fr) = g.flags.get(i) {
            let at = fr.right_top() + vec2(1.0, -4.0);
            p.circle_filled(at, 6.0, Color32::WHITE);
            p.text(
                at,
                Align2::CENTER_CENTER,
                num.to_string(),
                small.clone(),
                Color32::BLACK,
            );
        }
    }
    for &(k, col) in &m.param_rings {
        if let Some(pr) = g.params.get(k) {
            p.rect_stroke(*pr, 4.0, Stroke::new(2.0, col), StrokeKind::Outside);
        }
    }
    if m.dim {
        p.rect_filled(r, 6.0, Color32::from_black_alpha(140));
    }
    match m.outline {
        Some((col, w)) => p.rect_stroke(r, 6.0, Stroke::new(w, col), StrokeKind::Outside),
        None => p.rect_stroke(r, 6.0, Stroke::new(1.0, cat), StrokeKind::Inside),
    };
}

/// One parameter box: what it sets, the printed `{n}`, the value in effect and its chips
/// (green `+` for Increment chips, orange `-` for Decrement chips).
fn paint_param(p: &Painter, r: Rect, (name, printed, chips): (&str, i8, i8), s: f32) {
    p.rect_filled(r, 4.0, Color32::from_rgb(52, 55, 66));
    let small = FontId::proportional((10.0 * s).max(8.0));
    p.text(
        r.left_top() + vec2(3.0, 1.0),
        Align2::LEFT_TOP,
        name,
        small.clone(),
        Color32::from_gray(170),
    );
    let value = printed + chips;
    let big = FontId::proportional((16.0 * s).max(10.0));
    let text = if chips == 0 {
        format!("{{{printed}}}")
    } else {
        format!("{{{printed}}}->{value}")
    };
    let col = match chips.signum() {
        1 => Color32::from_rgb(120, 230, 120),
        -1 => Color32::from_rgb(255, 170, 80),
        _ => Color32::WHITE,
    };
    p.text(
        r.left_bottom() + vec2(3.0, -1.0),
        Align2::LEFT_BOTTOM,
        text,
        big,
        col,
    );
    for i in 0..chips.unsigned_abs() {
        let c = r.right_top() + vec2(-6.0 - f32::from(i) * 11.0, 7.0);
        let (fill, mark) = if chips > 0 {
            (Color32::from_rgb(60, 170, 70), "+")
        } else {
            (Color32::from_rgb(220, 120, 30), "-")
        };
        p.circle_filled(c, 5.0, fill);
        p.text(
            c,
            Align2::CENTER_CENTER,
            mark,
            small.clone(),
            Color32::WHITE,
        );
    }
}

/// The cursor: a downward arrow above card `at` (or, in a gap left by a removed card, at
/// the edge where that card was) with a horizontal arrow for its direction, in `col`.
pub fn paint_cursor(
    p: &Painter,
    geoms: &[CardGeom],
    at: usize,
    gap: bool,
    backward: bool,
    col: Color32,
) {
    let Some(x) = cursor_x(geoms, at, gap) else {
        return;
    };
    let (x, top) = x;
    let tip = pos2(x, top - 3.0);
    p.add(Shape::convex_polygon(
        vec![tip, pos2(x - 8.0, top - 15.0), pos2(x + 8.0, top - 15.0)],
        col,
        Stroke::NONE,
    ));
    let y = top - 21.0;
    let (a, b) = if backward {
        (x + 14.0, x - 14.0)
    } else {
        (x - 14.0, x + 14.0)
    };
    p.line_segment([pos2(a, y), pos2(b, y)], Stroke::new(2.5, col));
    let d = if backward { 6.0 } else { -6.0 };
    p.add(Shape::convex_polygon(
        vec![
            pos2(b - d * 0.2, y),
            pos2(b + d, y - 5.0),
            pos2(b + d, y + 5.0),
        ],
        col,
        Stroke::NONE,
    ));
}

/// Where the cursor of card `at` is drawn: its x and the top of its card.
fn cursor_x(geoms: &[CardGeom], at: usize, gap: bool) -> Option<(f32, f32)> {
    if gap {
        return match geoms.get(at) {
            Some(g) => Some((g.rect.min.x - GAP * 0.5, g.rect.min.y)),
            None => geoms
                .last()
                .map(|g| (g.rect.max.x + GAP * 0.5, g.rect.min.y)),
        };
    }
    geoms.get(at).map(|g| (g.rect.center().x, g.rect.min.y))
}

/// The place in the line a card dropped at `pos` goes to (before the first card whose
/// middle is right of `pos` in `pos`'s row; after the last card otherwise).
pub fn drop_index(geoms: &[CardGeom], pos: Pos2) -> usize {
    for (i, g) in geoms.iter().enumerate() {
        let row = g.rect.min.y - ARROW_SPACE..=g.rect.max.y + GAP;
        if row.contains(&pos.y) && pos.x < g.rect.center().x {
            return i;
        }
        let next_row = geoms.get(i + 1).is_none_or(|n| n.rect.min.y > g.rect.min.y);
        if row.contains(&pos.y) && next_row {
            return i + 1;
        }
    }
    geoms.len()
}

/// The screen spot where a card dropped at line place `i` would go (a bar, for the drag).
pub fn drop_bar(geoms: &[CardGeom], i: usize) -> Option<Rect> {
    let (x, g) = match geoms.get(i) {
        Some(g) => (g.rect.min.x - GAP * 0.5, g),
        None => {
            let g = geoms.last()?;
            (g.rect.max.x + GAP * 0.5, g)
        }
    };
    Some(Rect::from_center_size(
        pos2(x, g.rect.center().y),
        vec2(4.0, g.rect.height()),
    ))
}

/// What a card does, in a line (spec §8).
pub fn effect(card: Card) -> &'static str {
    match card {
        Card::AddFlag => "a flag at the tail of {1} other cards",
        Card::MoveFlag => "{1} flags of other cards to another card's tail",
        Card::RemoveFlag => "{1} flags off one other card",
        Card::Reorder => "the flags of {1} other cards in any order",
        Card::Rotate => "every other card's tail flag to its head",
        Card::FastPass => "lose {1} life; a flag at the head of {1} other cards",
        Card::Bug => "the opponent loses {1} life",
        Card::ForkBomb => "the opponent loses {2} life; the activating flag is removed",
        Card::Debug => "the activating flag is removed; gain {3} life (at most 6)",
        Card::TradeOff => "lose {1} life, the opponent loses {2}",
        Card::RemoveCommand => "remove any card with its flags; the activating flag is removed",
        Card::Reverse => "lose {1} life; the cursor turns round",
        Card::SwapCommand => "swap this card with any card (the cursor moves with it)",
        Card::Subroutine => "visit a card within {1} cards as a subroutine",
        Card::Increment => "raise a parameter of another card by {1}",
        Card::Decrement => "lower a parameter of another card by {1} (not below 0)",
    }
}
