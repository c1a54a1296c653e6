//! A new board level from the New level dialog: the board's size and shape come from its
//! rules, so the dialog asks no size, border or fill.

use super::{BoardDoc, new_design};
use crate::doc::KindDoc;
use crate::doc::registry::{NewLevel, NewOptions};

/// The dialog's offer: no size (the rules give it), the tic-tac-toe rules of File → New.
pub fn options() -> NewOptions {
    NewOptions {
        size: None,
        sides: (1, 1),
        tokens: Vec::new(),
        border: None,
        fill: String::new(),
        note: "the board's size and shape come from its rules: a new level starts with \
               tic-tac-toe, edit the rules in the Rules tab",
    }
}

/// The new board level (the size, border and fill of `_spec` do not apply).
///
/// # Errors
/// None: the built-in rules always load.
pub fn level(_spec: &NewLevel) -> Result<Box<dyn KindDoc>, String> {
    Ok(Box::new(BoardDoc::new(new_design())))
}
