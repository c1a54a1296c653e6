//! The ZRF front end: reads Zillions-of-Games rule files (S-expressions with `define` macros)
//! and compiles one game variant into [`Rules`], with every problem at its line and column.

use super::rules::{Rules, Span};

/// The largest ZRF text read, in bytes.
pub const MAX_ZRF_BYTES: usize = 4 * 1024 * 1024;

/// A problem in a ZRF file, at its line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZrfProblem {
    /// Where.
    pub span: Span,
    /// What, one line.
    pub message: String,
    /// False for an error (the variant cannot be played), true for a warning.
    pub warning: bool,
}

/// The titles of the variants of a ZRF text: the `(game …)` first, then each `(variant …)`
/// in file order.
///
/// # Errors
/// Syntax errors (unbalanced parentheses, unterminated strings, …).
pub fn variants(text: &str) -> Result<Vec<String>, Vec<ZrfProblem>> {
    let _ = text;
    todo!("zrf front end")
}

/// Compiles one variant of a ZRF text: `variant` names it by title (ASCII case ignored);
/// `None` takes the `(default)` variant if the file marks one, else the `(game …)`.
/// Returns the rules and the warnings.
///
/// # Errors
/// Every error found (with the warnings), each at its line and column.
pub fn compile(
    text: &str,
    variant: Option<&str>,
) -> Result<(Rules, Vec<ZrfProblem>), Vec<ZrfProblem>> {
    let _ = (text, variant);
    todo!("zrf front end")
}
