//! Level files: read text, find the kind, and report every problem with its line and column.

use std::path::Path;

use serde_json::Value;

use crate::kind::falling::fpgdl::{ScriptError, import_program};
use crate::kind::{Game, GameKind, kind_of};
use crate::problem::{JsonPath, Problem, line_col, locate};

/// The largest level file read, in bytes (larger files are refused, not loaded).
pub const MAX_FILE_BYTES: u64 = 256 * 1024 * 1024;

/// A parsed level file: its text, its JSON value and its kind.
#[derive(Clone)]
pub struct Document {
    /// The JSON source text. For a document imported from an FPGDL program, the imported
    /// level written out as JSON (so it opens like any level).
    pub text: String,
    /// The parsed JSON.
    pub value: Value,
    /// The kind named by `"kind"` (default boulder).
    pub kind: &'static dyn GameKind,
    /// For a document imported from an FPGDL program (a `.lua` file, see [`load_program`]):
    /// the program's source, which is also the level's `script`. Problems are then placed
    /// at lines of the program, not of `text`.
    pub program: Option<String>,
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
        self.place(&mut p);
        p
    }

    /// Fills in the line and column of each problem: from its JSON path in `text`, or, for
    /// an imported FPGDL program, at the script line its message names (the `Display` form
    /// of a [`ScriptError`]: `script line N: …`), else at line 1 of the program.
    fn place(&self, problems: &mut [Problem]) {
        if self.program.is_none() {
            locate(&self.text, problems);
            return;
        }
        for p in problems {
            p.line = Some(ScriptError::line_in_message(&p.message).unwrap_or(1));
            p.column = Some(1);
        }
    }

    /// Starts a game with RNG seed `seed`.
    ///
    /// # Errors
    /// The document's errors, located in the text.
    pub fn start(&self, seed: u64) -> Result<Box<dyn Game>, Vec<Problem>> {
        self.kind.start(&self.value, seed).map_err(|mut p| {
            self.place(&mut p);
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
        program: None,
    })
}

/// Imports a whole FPGDL program (a `.lua` file, spec falling-blocks §5) as a document: its
/// setup calls become a level of kind `falling` named `name`, with the program as its
/// `script` (see [`import_program`]).
///
/// # Errors
/// One problem at the program's line: a script error (syntax, run time, budget, a bad
/// setup call; line 1 when the error has no line), or the kind not known.
pub fn load_program(source: &str, name: &str) -> Result<Document, Vec<Problem>> {
    let mut value = import_program(source).map_err(|e| {
        vec![Problem {
            line: Some(e.line.unwrap_or(1)),
            column: Some(1),
            ..Problem::error(JsonPath::root(), e.message)
        }]
    })?;
    value["name"] = Value::String(name.to_string());
    let kind = kind_of(&value).map_err(|p| {
        vec![Problem {
            line: Some(1),
            column: Some(1),
            ..p
        }]
    })?;
    let text = serde_json::to_string_pretty(&value).unwrap_or_default();
    Ok(Document {
        text,
        value,
        kind,
        program: Some(source.to_string()),
    })
}

/// Whether `path` names an FPGDL program (`*.lua`, any case).
pub fn is_program_path(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("lua"))
}

/// Parses level bytes: like [`load_text`], after checking that the bytes are UTF-8 text.
///
/// # Errors
/// As [`load_text`], plus a problem at the first byte that is not UTF-8.
pub fn load_bytes(bytes: &[u8]) -> Result<Document, Vec<Problem>> {
    load_text(utf8_text(bytes)?)
}

/// The bytes as text, without a leading byte-order mark.
///
/// # Errors
/// A problem at the first byte that is not UTF-8.
fn utf8_text(bytes: &[u8]) -> Result<&str, Vec<Problem>> {
    match std::str::from_utf8(bytes) {
        Ok(t) => Ok(t.strip_prefix('\u{feff}').unwrap_or(t)),
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

/// Reads and parses a level file (see [`load_bytes`]); a `.lua` file is an FPGDL program,
/// imported with [`load_program`] and named after the file.
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
    if is_program_path(path) {
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        return utf8_text(&bytes)
            .and_then(|t| load_program(t, &name))
            .map_err(LoadError::Problems);
    }
    load_bytes(&bytes).map_err(LoadError::Problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_program_with_an_error_is_a_problem_at_its_script_line() {
        let src = "setFieldSize(6, 13)\ncreateBlockPattern(1)\nsetTumo({[0] = {1, 0}, [1] = {0}}, 0, 0)\nfunction update() end\n";
        let p = load_program(src, "bad").unwrap_err();
        assert_eq!(p.len(), 1);
        assert_eq!((p[0].line, p[0].column), (Some(3), Some(1)), "{:?}", p[0]);
        assert!(p[0].message.contains("square"), "{}", p[0].message);
        assert!(p[0].render("bad.lua").starts_with("bad.lua:3:1: "));

        let p = load_program("function update()\n  x = = 1\nend\n", "syntax").unwrap_err();
        assert_eq!(p[0].line, Some(2), "{:?}", p[0]);
    }

    #[test]
    fn a_lua_file_is_read_as_a_program_named_after_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("Broken.LUA");
        std::fs::write(&path, "\n\nsetFieldSize(0, 13)\nfunction update() end\n").unwrap();
        assert!(is_program_path(&path));
        match load_file(&path) {
            Err(LoadError::Problems(p)) => {
                assert_eq!(p[0].line, Some(3));
                assert!(p[0].message.contains("width"), "{}", p[0].message);
            }
            other => panic!("{other:?}"),
        }
        // A valid program imports; until the falling kind is registered its kind is unknown,
        // afterwards it is a document named after the file.
        let path = dir.path().join("tiny.lua");
        std::fs::write(
            &path,
            "setFieldSize(4, 5)\ncreateBlockPattern(1)\nsetTumo({[0] = {-1}}, 0, 0)\nfunction update() end\n",
        )
        .unwrap();
        match load_file(&path) {
            Ok(doc) => {
                assert_eq!(doc.value["name"], "tiny");
                assert_eq!(doc.kind.name(), "falling");
                assert!(doc.program.is_some());
                let again: Value = serde_json::from_str(&doc.text).unwrap();
                assert_eq!(again, doc.value);
            }
            Err(LoadError::Problems(p)) => {
                assert_eq!(p.len(), 1);
                assert!(p[0].message.contains("unknown kind"), "{}", p[0].message);
                assert_eq!(p[0].line, Some(1));
            }
            Err(e) => panic!("{e}"),
        }
    }
}
