//! A new Pasta Logic level from the New level dialog: a program has no size to choose, so
//! the dialog asks no size, border or fill; the new level lays out the spec §4 setup (the 3
//! BASIC cards and 5 others) as drawn from seed 1, each player with 5 flags to place.

use tilesmith_engine::kind::pasta::PastaLevel;

use super::{Design, PastaDoc};
use crate::doc::KindDoc;
use crate::doc::registry::{NewLevel, NewOptions};

/// The dialog's offer: no size.
pub fn options() -> NewOptions {
    NewOptions {
        size: None,
        sides: (1, 1),
        tokens: Vec::new(),
        border: None,
        fill: String::new(),
        note: "a program is a line of command cards: a new level lays out the 3 BASIC cards \
               and 5 others (spec §4); add, remove and drag cards on the canvas",
    }
}

/// The new level's design: the §4 setup drawn from seed 1, laid out as its program.
pub fn design() -> Design {
    let cards = PastaLevel::from_json(&serde_json::json!({"kind": "pasta"}))
        .map(|l| l.program(1))
        .unwrap_or_default();
    Design::new("untitled", Some(cards))
}

/// The new pasta level (the size, border and fill of `_spec` do not apply).
///
/// # Errors
/// None.
pub fn level(_spec: &NewLevel) -> Result<Box<dyn KindDoc>, String> {
    Ok(Box::new(PastaDoc::new(design())))
}
