//! A new baba level from the New level dialog, and what a resize must not crop silently.

use tilesmith_engine::Pos;
use tilesmith_engine::kind::baba::word::OBJECT_NOUNS;
use tilesmith_engine::kind::baba::{BabaLevel, Kind, Tile};

use super::{BabaDoc, MAX_SIDE, NEW_BABA_SIZE};
use crate::doc::KindDoc;
use crate::doc::registry::{NewLevel, NewOptions};

/// The word for a cell with no object.
const EMPTY: &str = "empty";

/// The dialog's offer: 24 × 14 (the size of many of the game's own levels), no border, empty
/// inside; border and fill may be any object noun (`wall`, `rock`, …) or `empty`. Text tiles
/// are not offered: a map filled with one word forms no rule.
pub fn options() -> NewOptions {
    NewOptions {
        size: Some(NEW_BABA_SIZE),
        sides: (1, MAX_SIDE),
        tokens: std::iter::once(EMPTY)
            .chain(OBJECT_NOUNS.iter().copied())
            .map(str::to_string)
            .collect(),
        border: None,
        fill: EMPTY.into(),
        note: "place the objects and the rule text with the palette",
    }
}

fn stack(name: &str) -> Result<Vec<Tile>, String> {
    if name == EMPTY {
        return Ok(Vec::new());
    }
    match Kind::from_token(name) {
        Some(k @ Kind::Entity(_)) => Ok(vec![Tile::new(k)]),
        _ => Err(format!("no baba object named {name:?}")),
    }
}

/// A `spec.width` × `spec.height` level: the edge cells hold `spec.border` (or the fill), the
/// others `spec.fill` (one object facing right, or none for `empty`).
///
/// # Errors
/// A message naming something that is not an object noun or `empty`.
pub fn level(spec: &NewLevel) -> Result<Box<dyn KindDoc>, String> {
    let fill = stack(&spec.fill)?;
    let border = spec.border.as_deref().map(stack).transpose()?;
    let mut l = BabaLevel::new("untitled", spec.width, spec.height);
    let (w, h) = (l.width(), l.height());
    let sized = NewLevel {
        width: w,
        height: h,
        ..spec.clone()
    };
    for y in 0..h {
        for x in 0..w {
            let s = match &border {
                Some(b) if sized.on_edge(x, y) => b,
                _ => &fill,
            };
            if let Some(c) = l.map.get_mut(Pos::new(x, y)) {
                c.clone_from(s);
            }
        }
    }
    Ok(Box::new(BabaDoc::new(l)))
}

/// The cells a resize must not remove without asking: those holding a text tile. A baba
/// level's rules are made of its text; cropping a word silently changes what the level's
/// rules are (YOU, WIN, …), which is as bad as cropping `me` from a boulder level. Objects
/// are not essential: which object is YOU depends on the rules, and cropping walls or rocks
/// at the edge is what shrinking a level is for.
pub fn essential(doc: &BabaDoc) -> Vec<(Pos, String)> {
    doc.level()
        .map
        .iter()
        .filter_map(|(p, s)| {
            s.iter()
                .find(|t| matches!(t.kind, Kind::Text(_)))
                .map(|t| (p, t.kind.token()))
        })
        .collect()
}
