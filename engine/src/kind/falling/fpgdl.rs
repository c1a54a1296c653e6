//! FPGDL: rule programs in Lua, run by this host (spec falling-blocks §5, §6, §10).
//!
//! A level's `script` defines `function update()`, called once a frame after the built-in
//! rules. It sees exactly the API of spec §6 (Get and Set functions over a [`FieldView`]) and
//! its Set calls become [`Requests`]. Scripts are untrusted: no `io`, `os`, `require`,
//! `dofile`, `loadfile`, binary chunks or `string.dump`; each `update()` call has an
//! instruction budget and the Lua state a memory cap.

use super::field::Requests;

/// What a script's Get functions read (spec §6.2). Coordinates outside the field read as
/// empty (spec A3).
pub trait FieldView {
    /// `getFieldWidth()`.
    fn width(&self) -> i64;
    /// `getFieldHeight()`.
    fn height(&self) -> i64;
    /// `getFieldBlock(x, y)`: 0 empty, 1–99 a settled block of that kind, 100 + kind a block
    /// in motion (spec A2).
    fn block(&self, x: i64, y: i64) -> i64;
    /// `getComboBlockNum(x, y)` (spec A8).
    fn combo(&self, x: i64, y: i64) -> i64;
    /// `getAllBlockDownFlag()`: true while any field block is in motion (spec A7).
    fn all_down(&self) -> bool;
}

/// A script error: a Lua error, a budget exceeded, or a missing `update()`, with the script
/// line when known (1-based).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{message}", .line.map(|l| format!("script line {l}: ")).unwrap_or_default())]
pub struct ScriptError {
    /// The script line, 1-based, when known.
    pub line: Option<usize>,
    /// What went wrong.
    pub message: String,
}

/// A loaded script, ready to run `update()` once a frame.
pub struct Script {
    _private: (),
}

impl std::fmt::Debug for Script {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Script")
    }
}

impl Script {
    /// Compiles `source` in a fresh sandbox and runs its top level once.
    ///
    /// # Errors
    /// A syntax or run-time error, a budget exceeded, or no `update` function.
    pub fn new(source: &str) -> Result<Script, ScriptError> {
        let _ = source;
        todo!("lua helper")
    }

    /// Runs `update()` once against `view`, setting `req` from its Set calls.
    ///
    /// # Errors
    /// A run-time error or a budget exceeded; `req` is then unspecified.
    pub fn update(&mut self, view: &dyn FieldView, req: &mut Requests) -> Result<(), ScriptError> {
        let _ = (view, req);
        todo!("lua helper")
    }
}
