//! Level files: read text, find the kind, and report every problem with its line and column.

use std::path::Path;

use serde_json::Value;

use crate::game::{Game, GameKind};
use crate::kind::falling::fpgdl::{ScriptError, import_program};
use crate::kind::kind_of;
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
    /// Problems reading the files the level refers to (a board level's ZRF rules file, see
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
    pub fn check(&self) -> Vec<Problem> {
        let mut p = self.kind.check(&self.value);
        self.place(&mut p);
        self.with_file_problems(p)
    }

    /// `problems` after the problems of reading the level's files, without the kind's own
    /// complaints about the members those files were named in (the kind saw them unread).
    fn with_file_problems(&self, problems: Vec<Problem>) -> Vec<Problem> {
        if self.file_problems.is_empty() {
            return problems;
        }
        let mut out = self.file_problems.clone();
        out.extend(
            problems
                .into_iter()
                .filter(|p| !self.file_problems.iter().any(|f| f.path == p.path)),
        );
        out
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
        if self.file_problems.iter().any(Problem::is_error) {
            return Err(self.file_problems.clone());
        }
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

/// The most JSON values (arrays, objects, member names, strings, numbers, `true`, `false`,
/// `null`, each counted once) a level, campaign or replay text may hold. serde_json's value
/// tree takes up to about 330 bytes a value (an array of one element: an 80-byte value in a
/// vector grown to 4 slots; measured 2.5 GB for the 8.4 million arrays of issue #15 D2's
/// 16 MB file), so this bounds the memory of a load, whatever the text's shape, to about
/// 2 GB plus the text. The largest boulder map ([`crate::level_json::MAX_CELLS`] fields of
/// one word each) fits.
pub const MAX_JSON_VALUES: usize = 6 * 1024 * 1024;

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
                    "the text holds more than {MAX_JSON_VALUES} JSON values (arrays, objects, \
                     names, strings, numbers); it is refused before reading so that loading \
                     cannot exhaust memory"
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
/// empty text.
pub(crate) fn parse_json(text: &str) -> Result<Value, Vec<Problem>> {
    if text.trim().is_empty() {
        return Err(vec![Problem {
            line: Some(1),
            column: Some(1),
            ..Problem::error(JsonPath::root(), "the file is empty")
        }]);
    }
    check_json_size(text)?;
    serde_json::from_str(text).map_err(|e| {
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
    })
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
        program: None,
        file_problems: Vec::new(),
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
        file_problems: Vec::new(),
    })
}

/// Opens a whole ZRF rules file (a `.zrf` file, the board kind) as a document: a level of
/// kind `board` that holds the text, `{"kind": "board", "rules": {"file": FILE, "zrf":
/// TEXT}}`, so that its default variant plays from its own setup. `file` names the file in
/// problems (`game.zrf:12:5: …`).
pub fn load_rules(source: &str, file: &str) -> Document {
    let value = serde_json::json!({
        "kind": "board",
        "rules": {"file": file, "zrf": source},
    });
    let text = serde_json::to_string_pretty(&value).unwrap_or_default();
    Document {
        text,
        kind: kind_of(&value).unwrap_or(crate::kind::kinds()[0]),
        value,
        program: None,
        file_problems: Vec::new(),
    }
}

/// Whether `path` names a ZRF rules file (`*.zrf`, any case).
pub fn is_rules_path(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("zrf"))
}

/// Reads the files a level document refers to, relative to the folder `base` of the level
/// (or replay) that holds it: a board level's `"rules": "game.zrf"` becomes `"rules":
/// {"file": "BASE/game.zrf", "zrf": TEXT}` (at most
/// [`MAX_ZRF_BYTES`](crate::kind::board::zrf::MAX_ZRF_BYTES) bytes, a regular UTF-8 file).
/// Documents of other kinds, and rules given as text, are left as they are.
///
/// # Errors
/// One problem at `$.rules` (unlocated) when the file cannot be read: missing, not a regular
/// file, too large, not UTF-8. The member is then left as it was.
pub fn resolve_files(value: &mut Value, base: &Path) -> Vec<Problem> {
    let board = value
        .get("kind")
        .and_then(Value::as_str)
        .is_some_and(|k| k.eq_ignore_ascii_case("board"));
    if !board {
        return Vec::new();
    }
    let Some(Value::String(name)) = value.get("rules") else {
        return Vec::new();
    };
    let path = base.join(name);
    let shown = path.display().to_string();
    match read_rules_file(&path) {
        Ok(text) => {
            value["rules"] = serde_json::json!({"file": shown, "zrf": text});
            Vec::new()
        }
        Err(why) => vec![Problem::error(
            JsonPath::root().key("rules"),
            format!(
                "cannot read the rules file {}: {why}",
                crate::problem::quote_at_most(&shown, 240)
            ),
        )],
    }
}

/// Why [`read_at_most`] read no bytes.
#[derive(Debug)]
pub(crate) enum ReadError {
    /// The file cannot be opened or read, or is not a regular file ([`regular_file`]).
    Io(std::io::Error),
    /// It is larger than the limit: its length in bytes.
    TooLarge(u64),
    /// It grew past the limit while it was read.
    Grew,
}

impl ReadError {
    /// The reason in a few words, for a file read with the limit `max` (bytes).
    pub(crate) fn message(&self, max: u64) -> String {
        match self {
            ReadError::Io(e) => format!("cannot read the file: {e}"),
            ReadError::TooLarge(len) => {
                format!("the file is too large ({len} bytes; at most {max})")
            }
            ReadError::Grew => format!("the file grew past {max} bytes while it was read"),
        }
    }
}

/// The bytes of the regular file `path`, at most `max` of them: the size is checked before
/// reading, and at most one byte more is read in case the file grew meanwhile, so a file
/// that does not keep to the limit never fills memory.
///
/// # Errors
/// [`ReadError`]: not a readable regular file, too large, or grown past `max`.
pub(crate) fn read_at_most(path: &Path, max: u64) -> Result<Vec<u8>, ReadError> {
    let meta = regular_file(path).map_err(ReadError::Io)?;
    if meta.len() > max {
        return Err(ReadError::TooLarge(meta.len()));
    }
    let mut bytes = Vec::new();
    let file = std::fs::File::open(path).map_err(ReadError::Io)?;
    std::io::Read::read_to_end(&mut std::io::Read::take(file, max + 1), &mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() as u64 > max {
        return Err(ReadError::Grew);
    }
    Ok(bytes)
}

/// The text of a ZRF file: a regular file of at most
/// [`MAX_ZRF_BYTES`](crate::kind::board::zrf::MAX_ZRF_BYTES) bytes of UTF-8 (a leading
/// byte-order mark dropped).
///
/// # Errors
/// Why it cannot be read, in a few words.
pub fn read_rules_file(path: &Path) -> Result<String, String> {
    let max = crate::kind::board::zrf::MAX_ZRF_BYTES as u64;
    let bytes = read_at_most(path, max).map_err(|e| match e {
        // The caller says "cannot read the file: "; the reason alone here.
        ReadError::Io(e) => e.to_string(),
        e => e.message(max),
    })?;
    match String::from_utf8(bytes) {
        Ok(t) => Ok(t.strip_prefix('\u{feff}').map(str::to_string).unwrap_or(t)),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let ok = std::str::from_utf8(&e.as_bytes()[..at]).unwrap_or("");
            let (line, column) = line_col(ok, at);
            Err(format!(
                "it is not UTF-8 text (line {line}, column {column})"
            ))
        }
    }
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
pub(crate) fn utf8_text(bytes: &[u8]) -> Result<&str, Vec<Problem>> {
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
/// imported with [`load_program`] and named after the file; a `.zrf` file is a board game's
/// rules, opened with [`load_rules`]. The files a level refers to (a board level's rules)
/// are read relative to its folder ([`resolve_files`]); problems reading them are the
/// document's [`Document::file_problems`].
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
    if is_rules_path(path) {
        let name = path.display().to_string();
        return match read_rules_file(path) {
            Ok(text) => Ok(load_rules(&text, &name)),
            Err(why) => Err(LoadError::Problems(vec![Problem {
                line: Some(1),
                column: Some(1),
                ..Problem::error(JsonPath::root(), format!("cannot read the file: {why}"))
            }])),
        };
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
