//! Level files: read text, find the kind, and report every problem with its line and column.

use std::path::Path;

use serde_json::Value;

use crate::kind::{Game, GameKind, kind_of};
use crate::problem::{JsonPath, Problem, line_col, locate};

/// The largest level file read, in bytes (larger files are refused, not loaded).
pub const MAX_FILE_BYTES: u64 = 256 * 1024 * 1024;

/// A parsed level file: its text, its JSON value and its kind.
#[derive(Clone)]
pub struct Document {
    /// The source text.
    pub text: String,
    /// The parsed JSON.
    pub value: Value,
    /// The kind named by `"kind"` (default boulder).
    pub kind: &'static dyn GameKind,
}

impl std::fmt::Debug for Document {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Document")
            .field("kind", &self.kind.name())
            .finish_non_exhaustive()
    }
}

impl Document {
    /// Every problem of the document (errors and warnings), located in the text.
    pub fn check(&self) -> Vec<Problem> {
        let mut p = self.kind.check(&self.value);
        locate(&self.text, &mut p);
        p
    }

    /// Starts a game with RNG seed `seed`.
    ///
    /// # Errors
    /// The document's errors, located in the text.
    pub fn start(&self, seed: u64) -> Result<Box<dyn Game>, Vec<Problem>> {
        self.kind.start(&self.value, seed).map_err(|mut p| {
            locate(&self.text, &mut p);
            p
        })
    }
}

/// Why a level file could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The file was read but is not a level document (syntax, encoding, or unknown kind).
    #[error("{} problem(s)", .0.len())]
    Problems(Vec<Problem>),
}

/// Parses level text: UTF-8 JSON naming a known kind. Only syntax and the kind are checked
/// here; see [`Document::check`] for the rest.
///
/// # Errors
/// One located problem: an empty text, invalid JSON (with serde_json's line and column), or an
/// unknown kind.
pub fn load_text(text: &str) -> Result<Document, Vec<Problem>> {
    let root = JsonPath::root();
    if text.trim().is_empty() {
        return Err(vec![Problem {
            line: Some(1),
            column: Some(1),
            ..Problem::error(root, "the file is empty")
        }]);
    }
    let value: Value = serde_json::from_str(text).map_err(|e| {
        let full = e.to_string();
        let msg = match full.rfind(" at line ") {
            Some(i) => full[..i].to_string(),
            None => full,
        };
        vec![Problem {
            line: Some(e.line().max(1)),
            column: Some(e.column().max(1)),
            ..Problem::error(JsonPath::root(), format!("invalid JSON: {msg}"))
        }]
    })?;
    let kind = kind_of(&value).map_err(|p| {
        let mut v = vec![p];
        locate(text, &mut v);
        v
    })?;
    Ok(Document {
        text: text.to_string(),
        value,
        kind,
    })
}

/// Parses level bytes: like [`load_text`], after checking that the bytes are UTF-8 text.
///
/// # Errors
/// As [`load_text`], plus a problem at the first byte that is not UTF-8.
pub fn load_bytes(bytes: &[u8]) -> Result<Document, Vec<Problem>> {
    match std::str::from_utf8(bytes) {
        Ok(t) => load_text(t.strip_prefix('\u{feff}').unwrap_or(t)),
        Err(e) => {
            let (line, column) = line_col(
                std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or(""),
                e.valid_up_to(),
            );
            Err(vec![Problem {
                line: Some(line),
                column: Some(column),
                ..Problem::error(
                    JsonPath::root(),
                    "the file is not UTF-8 text (binary data?)",
                )
            }])
        }
    }
}

/// The metadata of `path` when it is a regular file (after following symbolic links); an
/// error saying what it is instead otherwise. Reading a named pipe, a device such as
/// `/dev/zero` or a directory would block forever, never end or fail obscurely, so every file
/// the engine reads is checked with this first.
///
/// # Errors
/// The file's metadata cannot be read, or it is not a regular file.
pub fn regular_file(path: &Path) -> std::io::Result<std::fs::Metadata> {
    let meta = std::fs::metadata(path)?;
    if meta.is_file() {
        return Ok(meta);
    }
    let what = if meta.is_dir() {
        "a directory"
    } else {
        special_file_kind(&meta)
    };
    Err(std::io::Error::other(format!(
        "not a regular file ({what}); only regular files are read"
    )))
}

#[cfg(unix)]
fn special_file_kind(meta: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_fifo() {
        "a named pipe"
    } else if t.is_char_device() || t.is_block_device() {
        "a device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "a special file"
    }
}

#[cfg(not(unix))]
fn special_file_kind(_: &std::fs::Metadata) -> &'static str {
    "a special file"
}

/// Reads and parses a level file (see [`load_bytes`]).
///
/// # Errors
/// [`LoadError::Io`] when the file cannot be read or is not a regular file (see
/// [`regular_file`]); a problem when it is larger than [`MAX_FILE_BYTES`];
/// [`LoadError::Problems`] when it is not a level document.
pub fn load_file(path: &Path) -> Result<Document, LoadError> {
    let meta = regular_file(path)?;
    if meta.len() > MAX_FILE_BYTES {
        return Err(LoadError::Problems(vec![Problem {
            line: Some(1),
            column: Some(1),
            ..Problem::error(
                JsonPath::root(),
                format!(
                    "the file is too large ({} bytes; at most {MAX_FILE_BYTES})",
                    meta.len()
                ),
            )
        }]));
    }
    // At most one byte more than allowed, in case the file grew since its metadata was read.
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(
        &mut std::io::Read::take(std::fs::File::open(path)?, MAX_FILE_BYTES + 1),
        &mut bytes,
    )?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(LoadError::Io(std::io::Error::other(format!(
            "the file grew past {MAX_FILE_BYTES} bytes while it was read"
        ))));
    }
    load_bytes(&bytes).map_err(LoadError::Problems)
}
