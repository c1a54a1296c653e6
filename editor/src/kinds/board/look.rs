//! How a board is drawn: light and dark squares or discs for the positions, a tint per zone,
//! the coordinates in the margins, and pieces as discs in their player's colour carrying the
//! initial(s) of their type (K, Q, N, M …) in a contrasting colour.

use eframe::egui::{self, Align2, Color32, FontId, Painter, Pos2, Rect, Stroke};
use tilesmith_engine::kind::board::rules::{PieceDef, Zone};

/// Light squares.
pub const LIGHT: Color32 = Color32::from_rgb(236, 217, 185);
/// Dark squares.
pub const DARK: Color32 = Color32::from_rgb(176, 134, 100);
/// Squares of a board that is not checkered (tic-tac-toe, the 15-puzzle).
pub const PLAIN: Color32 = Color32::from_rgb(222, 204, 170);
/// The board around the positions of a hex-like board, and its holes.
pub const BOARD_BG: Color32 = Color32::from_rgb(92, 72, 54);
/// Display cells that are not part of the board (margins, killed positions of a square
/// board).
pub const OFF_BOARD: Color32 = Color32::from_rgb(34, 34, 40);
/// The coordinates in the margins.
pub const LABEL: Color32 = Color32::from_rgb(200, 200, 190);
/// Legal targets after the first click.
pub const TARGET: Color32 = Color32::from_rgb(60, 200, 90);
/// The selected piece and the squares of the chain so far.
pub const SELECTED: Color32 = Color32::from_rgb(250, 210, 40);
/// The last turn's key origin and destination.
pub const LAST_MOVE: Color32 = Color32::from_rgba_premultiplied(70, 110, 200, 90);

/// Below this many screen points per cell, pieces are only a dot of their colour.
pub const FINE_MIN_PX: f32 = 8.0;

/// Colours of players named by a colour word (case ignored).
const NAMED: [(&str, [u8; 3]); 14] = [
    ("white", [246, 244, 236]),
    ("black", [32, 32, 36]),
    ("red", [212, 48, 48]),
    ("blue", [48, 96, 220]),
    ("green", [40, 160, 72]),
    ("yellow", [238, 204, 40]),
    ("purple", [144, 72, 188]),
    ("orange", [240, 140, 30]),
    ("pink", [236, 120, 170]),
    ("brown", [130, 84, 50]),
    ("gray", [140, 140, 140]),
    ("grey", [140, 140, 140]),
    ("cyan", [40, 190, 200]),
    ("silver", [190, 190, 200]),
];

/// Colours for players whose name is no colour, in turn.
const PALETTE: [[u8; 3]; 8] = [
    [230, 230, 220],
    [40, 40, 48],
    [200, 60, 60],
    [60, 110, 220],
    [60, 170, 90],
    [230, 190, 50],
    [150, 80, 190],
    [240, 140, 40],
];

/// The colour of player `i` named `name`: the colour its name says (`White`, `Red`), else one
/// of a palette in turn.
pub fn player_color(name: &str, i: usize) -> Color32 {
    let lower = name.to_ascii_lowercase();
    let [r, g, b] = NAMED
        .iter()
        .find(|(n, _)| *n == lower)
        .map_or(PALETTE[i % PALETTE.len()], |(_, c)| *c);
    Color32::from_rgb(r, g, b)
}

/// Black or white, whichever reads better on `c`.
pub fn text_on(c: Color32) -> Color32 {
    let l = 0.299 * f32::from(c.r()) + 0.587 * f32::from(c.g()) + 0.114 * f32::from(c.b());
    if l > 140.0 {
        Color32::from_rgb(20, 20, 24)
    } else {
        Color32::from_rgb(248, 248, 244)
    }
}

/// The usual letters of piece names (chess's N for the Knight), before any other rule.
const USUAL: [(&str, &str); 7] = [
    ("king", "K"),
    ("queen", "Q"),
    ("rook", "R"),
    ("bishop", "B"),
    ("knight", "N"),
    ("pawn", "P"),
    ("man", "M"),
];

/// The label of each piece type: its usual letter (King K, Knight N, Man M); the number of a
/// numbered tile (`T12` → `12`); else its initial, upper case, when no other type has it
/// yet; else the first later letter of its name that none has (so a second type starting
/// with K gets another letter of its name); else its first two letters.
pub fn initials(pieces: &[PieceDef]) -> Vec<String> {
    let fixed = |name: &str| -> Option<String> {
        let lower = name.to_ascii_lowercase();
        if let Some((_, l)) = USUAL.iter().find(|(n, _)| *n == lower) {
            return Some((*l).to_string());
        }
        let digits = name.trim_start_matches(|c: char| c.is_ascii_alphabetic());
        let prefix = name.len() - digits.len();
        (prefix <= 2 && !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()))
            .then(|| digits.to_string())
    };
    let mut out: Vec<Option<String>> = pieces.iter().map(|p| fixed(&p.name)).collect();
    let mut used: Vec<String> = out.iter().flatten().cloned().collect();
    for (p, label) in pieces.iter().zip(out.iter_mut()) {
        if label.is_some() {
            continue;
        }
        let letters: Vec<char> = p
            .name
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_uppercase())
            .collect();
        let pick = letters
            .iter()
            .map(|c| c.to_string())
            .find(|c| !used.contains(c))
            .unwrap_or_else(|| letters.iter().take(2).collect());
        let pick = if pick.is_empty() { "?".into() } else { pick };
        used.push(pick.clone());
        *label = Some(pick);
    }
    out.into_iter().map(Option::unwrap_or_default).collect()
}

/// The tint of zone `i` (light, translucent colours in turn).
pub fn zone_tint(i: usize) -> Color32 {
    const TINTS: [[u8; 3]; 6] = [
        [90, 170, 255],
        [255, 120, 120],
        [120, 230, 130],
        [255, 200, 80],
        [200, 130, 255],
        [80, 220, 220],
    ];
    let [r, g, b] = TINTS[i % TINTS.len()];
    Color32::from_rgb(r, g, b)
}

/// `base` with the tints of the zones `zones` over it (each at 30 %).
pub fn tinted(base: Color32, zones: impl Iterator<Item = usize>) -> Color32 {
    zones.fold(base, |c, z| lerp(c, zone_tint(z), 0.3))
}

/// The colour `t` of the way from `a` to `b`.
pub fn lerp(a: Color32, b: Color32, t: f32) -> Color32 {
    let m = |x: u8, y: u8| (f32::from(x) + (f32::from(y) - f32::from(x)) * t).round() as u8;
    Color32::from_rgb(m(a.r(), b.r()), m(a.g(), b.g()), m(a.b(), b.b()))
}

/// The zones (their indices) that hold position `pos` for any player.
pub fn zones_of(zones: &[Zone], pos: u16) -> impl Iterator<Item = usize> + '_ {
    zones
        .iter()
        .enumerate()
        .filter(move |(_, z)| z.positions.iter().any(|per| per.contains(&pos)))
        .map(|(i, _)| i)
}

/// Paints a piece: a disc of `radius` points at `center` in `fill`, ringed in a darker or
/// lighter shade, with `label` (the type's initials) in a contrasting colour. Below
/// [`FINE_MIN_PX`] only the disc.
pub fn paint_piece(painter: &Painter, center: Pos2, radius: f32, fill: Color32, label: &str) {
    let ring = if text_on(fill) == Color32::from_rgb(20, 20, 24) {
        lerp(fill, Color32::BLACK, 0.55)
    } else {
        lerp(fill, Color32::WHITE, 0.45)
    };
    painter.circle(
        center,
        radius,
        fill,
        Stroke::new((radius * 0.08).clamp(0.7, 2.5), ring),
    );
    if radius * 2.0 < FINE_MIN_PX {
        return;
    }
    let size = if label.chars().count() > 1 {
        radius * 0.9
    } else {
        radius * 1.1
    };
    painter.text(
        center,
        Align2::CENTER_CENTER,
        label,
        FontId::proportional(size),
        text_on(fill),
    );
}

/// Paints a translucent marker filling `rect` (a selected square, a legal target).
pub fn paint_mark(painter: &Painter, rect: Rect, color: Color32, round: bool) {
    let stroke = Stroke::new((rect.width() * 0.08).clamp(1.0, 4.0), color);
    if round {
        painter.circle_stroke(rect.center(), rect.width() * 0.5, stroke);
    } else {
        painter.rect_stroke(
            rect.shrink(stroke.width * 0.5),
            2.0,
            stroke,
            egui::StrokeKind::Inside,
        );
    }
}

/// Paints a legal target: a dot on an empty position, a ring around a piece to capture.
pub fn paint_target(painter: &Painter, center: Pos2, radius: f32, occupied: bool) {
    if occupied {
        painter.circle_stroke(
            center,
            radius * 0.95,
            Stroke::new((radius * 0.14).max(1.5), TARGET),
        );
    } else {
        painter.circle_filled(center, radius * 0.32, TARGET.gamma_multiply(0.85));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(names: &[&str]) -> Vec<PieceDef> {
        names
            .iter()
            .map(|n| PieceDef {
                name: n.to_string(),
                ..Default::default()
            })
            .collect()
    }

    #[test]
    fn chess_pieces_get_their_usual_letters() {
        let p = pieces(&["Pawn", "Rook", "Knight", "Bishop", "Queen", "King"]);
        assert_eq!(initials(&p), ["P", "R", "N", "B", "Q", "K"]);
        let p = pieces(&["Man", "King"]);
        assert_eq!(initials(&p), ["M", "K"]);
        // Numbered tiles show their number; other names their initial, or another letter
        // of the name when the initial is taken.
        let p = pieces(&["T1", "T12", "Spore", "Husk", "Stone"]);
        assert_eq!(initials(&p), ["1", "12", "S", "H", "T"]);
    }

    #[test]
    fn players_named_by_colours_get_those_colours() {
        assert_eq!(player_color("White", 0), Color32::from_rgb(246, 244, 236));
        assert_eq!(player_color("Black", 1), Color32::from_rgb(32, 32, 36));
        assert_eq!(player_color("X", 0), Color32::from_rgb(230, 230, 220));
        assert_eq!(
            text_on(player_color("White", 0)),
            Color32::from_rgb(20, 20, 24)
        );
        assert_eq!(
            text_on(player_color("Black", 0)),
            Color32::from_rgb(248, 248, 244)
        );
    }
}
