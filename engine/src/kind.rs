//! The list of game kinds: one crate per kind (`engine/kinds/<kind>/`, `tilesmith-<kind>`),
//! re-exported here under the kind's name, and [`kinds`], [`kind_named`] and [`kind_of`] to
//! find one. Nothing below this list can import it: a kind crate and the shared layer
//! (`tilesmith-core`: the traits in [`crate::game`], the primitives) do not depend on this
//! crate, and a running game reaches its own kind with [`crate::Game::kind`]
//! (`docs/architecture.md`, "Layers").

pub use tilesmith_baba as baba;
pub use tilesmith_board as board;
pub use tilesmith_boulder as boulder;
pub use tilesmith_falling as falling;
pub use tilesmith_pasta as pasta;

use serde_json::Value;

use crate::game::GameKind;
use crate::problem::{JsonPath, Problem, quote};

/// Every game kind the engine knows, default first.
pub fn kinds() -> &'static [&'static dyn GameKind] {
    &[
        &boulder::Boulder,
        &baba::Baba,
        &falling::Falling,
        &board::Board,
        &pasta::Pasta,
    ]
}

/// The kind called `name` (as [`GameKind::name`] gives it, ASCII case
/// ignored), e.g. a level's `"kind"` or a replay's.
pub fn kind_named(name: &str) -> Option<&'static dyn GameKind> {
    kinds()
        .iter()
        .copied()
        .find(|k| k.name().eq_ignore_ascii_case(name))
}

/// The kind a document declares in its `"kind"` field (default `boulder`).
///
/// # Errors
/// A problem at `$.kind` when the field is not a string or names no known kind.
// A problem carries its whole location (path, cell, line, column, file); it is built once
// per bad document, so its size does not matter here.
#[allow(clippy::result_large_err)]
pub fn kind_of(doc: &Value) -> Result<&'static dyn GameKind, Problem> {
    let path = JsonPath::root().key("kind");
    let name = match doc.get("kind") {
        None => "boulder",
        Some(Value::String(s)) => s.as_str(),
        Some(_) => return Err(Problem::error(path, "\"kind\" must be a string")),
    };
    kind_named(name).ok_or_else(|| {
        let known: Vec<_> = kinds().iter().map(|k| k.name()).collect();
        Problem::error(
            path,
            format!("unknown kind {} (known: {})", quote(name), known.join(", ")),
        )
    })
}
