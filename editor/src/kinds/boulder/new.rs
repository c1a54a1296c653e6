//! A new boulder level from the New level dialog, and what a resize must not crop silently.

use tilesmith_engine::Pos;
use tilesmith_engine::kind::boulder::level::MAX_SIDE;
use tilesmith_engine::kind::boulder::{BoulderLevel, Cell, Token};

use super::{BoulderDoc, NEW_LEVEL_SIZE};
use crate::doc::KindDoc;
use crate::doc::registry::{NewLevel, NewOptions};

/// The dialog's offer: 40 × 22, a `wall` border and a `path` (empty) inside; every token may
/// be border or fill. At least 3 × 3, so `me` and the exit fit inside the border.
pub fn options() -> NewOptions {
    NewOptions {
        size: Some(NEW_LEVEL_SIZE),
        sides: (3, MAX_SIDE),
        tokens: Token::ALL.iter().map(|t| t.name().to_string()).collect(),
        border: Some(Token::Wall.name().into()),
        fill: Token::Path.name().into(),
        note: "me is put at x 1, y 1 and the exit at the bottom-right corner inside the border",
    }
}

fn token(name: &str) -> Result<Token, String> {
    Token::from_name(name).ok_or_else(|| format!("no boulder token named {name:?}"))
}

/// A `spec.width` × `spec.height` level (each at least 3): the edge cells `spec.border` (or
/// the fill), the others `spec.fill`, then `me` at (1, 1) and `exit` at (w − 2, h − 2), so the
/// level can be played at once (a level without `me` is an error, spec boulder §3).
///
/// # Errors
/// A message naming a token boulder does not have.
pub fn level(spec: &NewLevel) -> Result<Box<dyn KindDoc>, String> {
    let fill = token(&spec.fill)?;
    let border = spec.border.as_deref().map(token).transpose()?;
    let mut l = BoulderLevel::new("untitled", spec.width, spec.height);
    let (w, h) = (l.map.width(), l.map.height());
    let sized = NewLevel {
        width: w,
        height: h,
        ..spec.clone()
    };
    for y in 0..h {
        for x in 0..w {
            let t = match border {
                Some(b) if sized.on_edge(x, y) => b,
                _ => fill,
            };
            if let Some(c) = l.map.get_mut(Pos::new(x, y)) {
                *c = Cell::new(t);
            }
        }
    }
    for (p, t) in [
        (Pos::new(1, 1), Token::Me),
        (Pos::new(w - 2, h - 2), Token::Exit),
    ] {
        if let Some(c) = l.map.get_mut(p) {
            *c = Cell::new(t);
        }
    }
    Ok(Box::new(BoulderDoc::new(l)))
}

/// The cells a resize must not remove without asking: every `me` and `exit` (without `me`
/// the level is an error, without an exit it cannot be won).
pub fn essential(doc: &BoulderDoc) -> Vec<(Pos, String)> {
    doc.level()
        .map
        .iter()
        .filter(|(_, c)| matches!(c.token, Token::Me | Token::Exit))
        .map(|(p, c)| (p, c.token.name().to_string()))
        .collect()
}
