//! Level files: read text, find the kind, and report every problem with its line and column.
//! A file of a kind's own format (an extension of [`GameKind::file_types`]) opens through
//! its kind ([`GameKind::open_file`]), and the files a level refers to are read by its kind
//! ([`GameKind::resolve_files`]), so nothing here names a kind.

use std::path::Path;

use serde_json::Value;

use crate::game::{FileType, Game, GameKind};
use crate::kind::{kind_of, kinds};
use crate::problem::{JsonPath, Problem, cap, line_col, locate};
pub(crate) use crate::read::{ReadError, read_at_most, utf8_text};
pub use crate::read::{read_text_file, regular_file};

/// The largest level file read, in bytes (larger files are refused, not loaded).
pub const MAX_FILE_BYTES: u64 = 256 * 1024 * 1024;

/// A parsed level file: its text, its JSON value and its kind.
#[derive(Clone)]
pub struct Document {
    /// The JSON source text. For a document opened from a file of its kind's own format
    /// ([`load_kind_text`]), the level written out as JSON (so it opens like any level).
    pub text: String,
    /// The parsed JSON.
    pub value: Value,
    /// The kind named by `"kind"` (default boulder).
    pub kind: &'static dyn GameKind,
    /// For a document opened from a file of its kind's own format whose problems are placed
    /// at lines of that file (falling: an FPGDL program, which is also the level's `script`;
    /// see [`crate::game::OpenedFile::source`]): the file's text. Problems are then placed at
    /// its lines ([`GameKind::source_line`]), not of `text`.
    pub source: Option<String>,
    /// Problems reading the files the level refers to (a board level's rules file, see
    /// [`resolve_files`]), located in `text`. [`Document::check`] reports them and
    /// [`Document::start`] fails with them.
    pub file_problems: Vec<Problem>,
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
    /// The report is capped ([`cap`]: at most [`crate::problem::MAX_PROBLEMS`], then
    /// `… and N more problems`).
    pub fn check(&self) -> Vec<Problem> {
        let mut p = cap(self.kind.check(&self.value));
        self.place(&mut p);
        cap(self.with_file_problems(p))
    }

    /// `problems` after the problems of reading the level's files, without the kind's own
    /// complaints about the members of files that could not be read (the kind saw them
    /// unread). A file read with a warning (a rules file outside the level's folder) keeps
    /// the kind's problems about it.
    fn with_file_problems(&self, problems: Vec<Problem>) -> Vec<Problem> {
        if self.file_problems.is_empty() {
            return problems;
        }
        let mut out = self.file_problems.clone();
        out.extend(problems.into_iter().filter(|p| {
            !self
                .file_problems
                .iter()
                .any(|f| f.is_error() && f.path == p.path)
        }));
        out
    }

    /// Fills in the line and column of each problem: from its JSON path in `text`, or, for
    /// a document with a [`Document::source`], at the source line its message names
    /// ([`GameKind::source_line`]; falling: `script line N: …`), else at line 1 of it.
    fn place(&self, problems: &mut [Problem]) {
        if self.source.is_none() {
            locate(&self.text, problems);
            return;
        }
        for p in problems {
            p.line = Some(self.kind.source_line(&p.message).unwrap_or(1));
            p.column = Some(1);
        }
    }

    /// The problem of `game` (started from this document) that stopped on the error
    /// `message` ([`Game::error`]), located: where the game places it
    /// ([`Game::error_problem`]: a rules file's line, [`Problem::file`]); at the line the
    /// game gives in the level's own source (no file, a column) when this document was read
    /// from that source ([`Document::source`]); else by its path in `text`. A game that
    /// places nothing: the error at the level as a whole.
    pub fn stop_problem(&self, game: &dyn Game, message: String) -> Problem {
        let mut p = game
            .error_problem()
            .unwrap_or_else(|| Problem::error(JsonPath::root(), message));
        if p.file.is_none() {
            let in_source = p.column.is_some() && p.line.is_some() && self.source.is_some();
            if !in_source && p.column.is_some() {
                p.line = None;
                p.column = None;
            }
            if p.line.is_none() {
                locate(&self.text, std::slice::from_mut(&mut p));
            }
        }
        p
    }

    /// Starts a game with RNG seed `seed`.
    ///
    /// # Errors
    /// The document's errors, located in the text.
    pub fn start(&self, seed: u64) -> Result<Box<dyn Game>, Vec<Problem>> {
        if self.file_problems.iter().any(Problem::is_error) {
            return Err(self.file_problems.clone());
        }
        self.kind.start(&self.value, seed).map_err(|p| {
            let mut p = cap(p);
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

/// The most JSON values a level, campaign or replay text may hold, counted by what serde_json's
/// value tree makes of them: a string, number, `true`, `false`, `null` or member name counts
/// 1, an array [`ARRAY_WEIGHT`] and an object [`OBJECT_WEIGHT`]. An object with members is
/// a map of its own (a hash table and an entry list: about 1 kB for `{"Man": ["a1"]}` with its
/// name, measured in issue #30's review, where 1.14 million of them in a 30 MB file took
/// 1.2 GB); an array is a vector (an array of one element takes about 330 bytes, measured
/// 2.5 GB for the 8.4 million arrays of issue #15 D2's 16 MB file). So weighted, a unit costs
/// at most about 80 bytes, and this bounds the memory of a load, whatever the text's shape, to
/// about 500 MB plus the text (issue #30: a 30 MB level in under 1 GB). The largest boulder
/// map ([`crate::level_json::MAX_CELLS`] fields of one word each, rows as arrays) fits.
pub const MAX_JSON_VALUES: usize = 6 * 1024 * 1024;

/// What an array counts towards [`MAX_JSON_VALUES`].
pub const ARRAY_WEIGHT: usize = 4;

/// What an object counts towards [`MAX_JSON_VALUES`].
pub const OBJECT_WEIGHT: usize = 12;

/// Refuses, before anything is built, a JSON text with more than [`MAX_JSON_VALUES`] values or
/// arrays and objects nested deeper than [`crate::problem::MAX_JSON_DEPTH`]. One pass over the
/// bytes, no allocation; a text that is not JSON passes (the parser reports it).
///
/// # Errors
/// One problem at the line and column of the first value over the limit.
pub(crate) fn check_json_size(text: &str) -> Result<(), Vec<Problem>> {
    let b = text.as_bytes();
    let (mut values, mut depth) = (0usize, 0usize);
    let mut in_string = false;
    let mut in_scalar = false;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if in_string {
            match c {
                b'\\' => i += 1,
                b'"' => in_string = false,
                _ => {}
            }
            i += 1;
            continue;
        }
        let starts = match c {
            b'"' => {
                in_string = true;
                in_scalar = false;
                true
            }
            b'[' | b'{' => {
                depth += 1;
                in_scalar = false;
                // The weight beyond the 1 counted below.
                let weight = if c == b'[' {
                    ARRAY_WEIGHT
                } else {
                    OBJECT_WEIGHT
                };
                values += weight - 1;
                true
            }
            b']' | b'}' | b',' | b':' | b' ' | b'\t' | b'\n' | b'\r' => {
                if matches!(c, b']' | b'}') {
                    depth = depth.saturating_sub(1);
                }
                in_scalar = false;
                false
            }
            _ => !std::mem::replace(&mut in_scalar, true),
        };
        if starts {
            values += 1;
            let message = if values > MAX_JSON_VALUES {
                Some(format!(
                    "the text holds more than {MAX_JSON_VALUES} JSON values (names, strings and \
                     numbers count 1, an array {ARRAY_WEIGHT}, an object {OBJECT_WEIGHT}); it is \
                     refused before reading so that loading cannot exhaust memory"
                ))
            } else if depth > crate::problem::MAX_JSON_DEPTH {
                Some(format!(
                    "arrays and objects are nested more than {} deep",
                    crate::problem::MAX_JSON_DEPTH
                ))
            } else {
                None
            };
            if let Some(message) = message {
                let (line, column) = line_col(text, i);
                return Err(vec![Problem {
                    line: Some(line),
                    column: Some(column),
                    ..Problem::error(JsonPath::root(), message)
                }]);
            }
        }
        i += 1;
    }
    Ok(())
}

/// Parses JSON text (a level, a campaign, a progress file) into a value.
///
/// # Errors
/// One problem located at serde_json's line and column (`invalid JSON: …`), or at 1:1 for an
/// empty text; a member name given twice in one object, at each repetition
/// ([`crate::json_keys::repeated_keys`]).
pub(crate) fn parse_json(text: &str) -> Result<Value, Vec<Problem>> {
    if text.trim().is_empty() {
        return Err(vec![Problem {
            line: Some(1),
            column: Some(1),
            ..Problem::error(JsonPath::root(), "the file is empty")
        }]);
    }
    check_json_size(text)?;
    let value = serde_json::from_str(text).map_err(|e| {
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
    let repeated = crate::json_keys::repeated_keys(text);
    if repeated.is_empty() {
        Ok(value)
    } else {
        Err(repeated)
    }
}

/// Parses level text: UTF-8 JSON naming a known kind. Only syntax and the kind are checked
/// here; see [`Document::check`] for the rest.
///
/// # Errors
/// One located problem: an empty text, invalid JSON (with serde_json's line and column), or an
/// unknown kind.
pub fn load_text(text: &str) -> Result<Document, Vec<Problem>> {
    let value = parse_json(text)?;
    let kind = kind_of(&value).map_err(|p| {
        let mut v = vec![p];
        locate(text, &mut v);
        v
    })?;
    Ok(Document {
        text: text.to_string(),
        value,
        kind,
        source: None,
        file_problems: Vec::new(),
    })
}

/// The kind and file type that open `path` by its extension ([`GameKind::file_types`],
/// ASCII case ignored), when a kind has such a file format.
pub fn kind_file_type(path: &Path) -> Option<(&'static dyn GameKind, &'static FileType)> {
    let ext = path.extension()?;
    kinds().iter().find_map(|&k| {
        k.file_types()
            .iter()
            .find(|t| ext.eq_ignore_ascii_case(t.extension))
            .map(|t| (k, t))
    })
}

/// Opens the text of a file of a kind's own format, named `path` (an extension of
/// [`GameKind::file_types`]: a falling FPGDL program, a board ZRF rules file), as a
/// document of that kind ([`GameKind::open_file`]).
///
/// # Errors
/// The file's problems, at its lines; one at 1:1 when no kind opens files named so.
pub fn load_kind_text(text: &str, path: &Path) -> Result<Document, Vec<Problem>> {
    let Some((kind, _)) = kind_file_type(path) else {
        return Err(vec![Problem {
            line: Some(1),
            column: Some(1),
            ..Problem::error(
                JsonPath::root(),
                format!("no kind opens the file {}", path.display()),
            )
        }]);
    };
    let opened = kind.open_file(text, path)?;
    let text = serde_json::to_string_pretty(&opened.value).unwrap_or_default();
    Ok(Document {
        text,
        value: opened.value,
        kind,
        source: opened.source,
        file_problems: Vec::new(),
    })
}

/// Reads the files a level document refers to, relative to the folder `base` of the level
/// (or replay) that holds it, through the document's kind ([`GameKind::resolve_files`]; a
/// board level's `"rules": "game.zrf"` becomes `"rules": {"file": "BASE/game.zrf", "zrf":
/// TEXT}`, with the kind's size limit). Documents whose kind reads no files, or names no
/// known kind, are left as they are.
///
/// # Errors
/// The problems of reading them (unlocated), at the members that name them, which are then
/// left as they were: missing, not a regular file, too large, not UTF-8.
pub fn resolve_files(value: &mut Value, base: &Path) -> Vec<Problem> {
    match kind_of(value) {
        Ok(kind) => kind.resolve_files(value, base),
        Err(_) => Vec::new(),
    }
}

/// Parses level bytes: like [`load_text`], after checking that the bytes are UTF-8 text.
///
/// # Errors
/// As [`load_text`], plus a problem at the first byte that is not UTF-8.
pub fn load_bytes(bytes: &[u8]) -> Result<Document, Vec<Problem>> {
    load_text(utf8_text(bytes)?)
}

/// Reads and parses a level file (see [`load_bytes`]); a file of a kind's own format (by its
/// extension: a `.lua` FPGDL program, a `.zrf` board rules file) opens through its kind
/// ([`load_kind_text`]), read with the file type's size limit when it has one
/// ([`FileType::max_bytes`]). The files a level refers to (a board level's rules) are read
/// relative to its folder ([`resolve_files`]); problems reading them are the document's
/// [`Document::file_problems`].
///
/// # Errors
/// [`LoadError::Io`] when the file cannot be read or is not a regular file (see
/// [`regular_file`]); a problem when it is larger than [`MAX_FILE_BYTES`];
/// [`LoadError::Problems`] when it is not a level document.
pub fn load_file(path: &Path) -> Result<Document, LoadError> {
    let bytes = match read_at_most(path, MAX_FILE_BYTES) {
        Ok(b) => b,
        Err(ReadError::Io(e)) => return Err(LoadError::Io(e)),
        Err(e @ ReadError::TooLarge(_)) => {
            return Err(LoadError::Problems(vec![Problem {
                line: Some(1),
                column: Some(1),
                ..Problem::error(JsonPath::root(), e.message(MAX_FILE_BYTES))
            }]));
        }
        Err(e @ ReadError::Grew) => {
            return Err(LoadError::Io(std::io::Error::other(
                e.message(MAX_FILE_BYTES),
            )));
        }
    };
    if let Some((_, file_type)) = kind_file_type(path) {
        let text = match file_type.max_bytes {
            Some(max) => read_text_file(path, max).map_err(|why| {
                vec![Problem {
                    line: Some(1),
                    column: Some(1),
                    ..Problem::error(JsonPath::root(), format!("cannot read the file: {why}"))
                }]
            }),
            None => utf8_text(&bytes).map(str::to_string),
        };
        return text
            .and_then(|t| load_kind_text(&t, path))
            .map_err(LoadError::Problems);
    }
    let mut doc = load_bytes(&bytes).map_err(LoadError::Problems)?;
    let base = path.parent().unwrap_or(Path::new(""));
    let mut problems = resolve_files(&mut doc.value, base);
    locate(&doc.text, &mut problems);
    doc.file_problems = problems;
    Ok(doc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_program_with_an_error_is_a_problem_at_its_script_line() {
        let src = "setFieldSize(6, 13)\ncreateBlockPattern(1)\nsetTumo({[0] = {1, 0}, [1] = {0}}, 0, 0)\nfunction update() end\n";
        let p = load_kind_text(src, Path::new("bad.lua")).unwrap_err();
        assert_eq!(p.len(), 1);
        assert_eq!((p[0].line, p[0].column), (Some(3), Some(1)), "{:?}", p[0]);
        assert!(p[0].message.contains("square"), "{}", p[0].message);
        assert!(p[0].render("bad.lua").starts_with("bad.lua:3:1: "));

        let p = load_kind_text(
            "function update()\n  x = = 1\nend\n",
            Path::new("syntax.lua"),
        )
        .unwrap_err();
        assert_eq!(p[0].line, Some(2), "{:?}", p[0]);
    }

    #[test]
    fn a_lua_file_is_read_as_a_program_named_after_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("Broken.LUA");
        std::fs::write(&path, "\n\nsetFieldSize(0, 13)\nfunction update() end\n").unwrap();
        assert!(kind_file_type(&path).is_some());
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
                assert!(doc.source.is_some());
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
