//! A new falling-block level from the New level dialog.

use tilesmith_engine::Grid;
use tilesmith_engine::kind::falling::field::{BlockId, EMPTY};
use tilesmith_engine::kind::falling::level::MAX_SIDE;

use super::{Design, FallingDoc};
use crate::doc::KindDoc;
use crate::doc::registry::{NewLevel, NewOptions};

/// The word for a cell with no block.
const NONE: &str = "empty";

/// The dialog's offer: the Puyo Puyo design of File → New (6 × 13, four colours and ojama),
/// no border, an empty field; border and fill may be `empty` or one of its blocks. At least
/// 3 × 3, so the pair can spawn.
pub fn options() -> NewOptions {
    let d = Design::new_puyo();
    NewOptions {
        size: Some((d.map.width(), d.map.height())),
        sides: (3, MAX_SIDE),
        tokens: std::iter::once(NONE.to_string())
            .chain(d.blocks().iter().map(|b| b.name.clone()))
            .collect(),
        border: None,
        fill: NONE.into(),
        note: "the Puyo Puyo blocks, pair and rules; change them in the Rules tab",
    }
}

fn block(d: &Design, name: &str) -> Result<BlockId, String> {
    if name == NONE {
        return Ok(EMPTY);
    }
    d.blocks()
        .iter()
        .position(|b| b.name == name)
        .and_then(|i| BlockId::try_from(i + 1).ok())
        .ok_or_else(|| format!("no block named {name:?}"))
}

/// The Puyo Puyo design with a `spec.width` × `spec.height` field (each from 3 to the
/// largest side): the edge cells `spec.border` (or the fill), the others `spec.fill`.
///
/// # Errors
/// A message naming a block the design does not have.
pub fn level(spec: &NewLevel) -> Result<Box<dyn KindDoc>, String> {
    let mut d = Design::new_puyo();
    let fill = block(&d, &spec.fill)?;
    let border = spec.border.as_deref().map(|b| block(&d, b)).transpose()?;
    let (w, h) = (
        spec.width.clamp(3, MAX_SIDE),
        spec.height.clamp(3, MAX_SIDE),
    );
    let sized = NewLevel {
        width: w,
        height: h,
        ..spec.clone()
    };
    let cells = (0..w * h)
        .map(|i| match border {
            Some(b) if sized.on_edge(i % w, i / w) => b,
            _ => fill,
        })
        .collect();
    d.map = Grid::from_vec(w, h, cells).ok_or("the field cannot be made")?;
    Ok(Box::new(FallingDoc::new(d)))
}
