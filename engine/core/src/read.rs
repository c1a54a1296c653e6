//! Reading files with bounds: only regular files, at most a given number of bytes, as UTF-8
//! text. Every file the engine reads (levels, the files levels refer to, a kind's own file
//! formats, campaigns, replays) goes through these, so that no file fills memory or blocks.
//!
//! Layer: shared primitives, below the traits and every kind (a kind reads its own files
//! with [`read_text_file`]); it names no kind.

use std::path::Path;

use crate::problem::{JsonPath, Problem, line_col};

/// Why [`read_at_most`] read no bytes.
#[derive(Debug)]
pub enum ReadError {
    /// The file cannot be opened or read, or is not a regular file ([`regular_file`]).
    Io(std::io::Error),
    /// It is larger than the limit: its length in bytes.
    TooLarge(u64),
    /// It grew past the limit while it was read.
    Grew,
}

impl ReadError {
    /// The reason in a few words, for a file read with the limit `max` (bytes).
    pub fn message(&self, max: u64) -> String {
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
pub fn read_at_most(path: &Path, max: u64) -> Result<Vec<u8>, ReadError> {
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

/// The text of the regular file `path`, at most `max` bytes of UTF-8 (a leading byte-order
/// mark dropped): a file a level refers to or a kind's own file format read with the kind's
/// size limit (a board level's rules file, say).
///
/// # Errors
/// Why it cannot be read, in a few words.
pub fn read_text_file(path: &Path, max: u64) -> Result<String, String> {
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

/// The bytes as text, without a leading byte-order mark.
///
/// # Errors
/// A problem at the first byte that is not UTF-8.
pub fn utf8_text(bytes: &[u8]) -> Result<&str, Vec<Problem>> {
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

/// True when the first `bytes` bytes of `path` hold the member `"key": "value"` (only white
/// space around the `:`; ASCII case ignored): how a file that may not parse is told to be a
/// campaign or a replay before it is read as one (so that its own loader's located error is
/// reported, not a level loader's). False for a file that cannot be opened.
pub fn peek_member(path: &Path, bytes: u64, key: &str, value: &str) -> bool {
    if regular_file(path).is_err() {
        return false;
    }
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    let mut head = Vec::new();
    if std::io::Read::read_to_end(&mut std::io::Read::take(file, bytes), &mut head).is_err() {
        return false;
    }
    let text = String::from_utf8_lossy(&head).to_ascii_lowercase();
    let (key, value) = (
        format!("\"{}\"", key.to_ascii_lowercase()),
        format!("\"{}\"", value.to_ascii_lowercase()),
    );
    text.match_indices(&key).any(|(i, k)| {
        let rest = text[i + k.len()..].trim_start();
        rest.strip_prefix(':')
            .is_some_and(|r| r.trim_start().starts_with(&value))
    })
}
