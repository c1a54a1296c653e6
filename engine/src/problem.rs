//! Problems found in level files, with their place: a JSON path, and a line and column.
//!
//! Every loader in the engine reports bad input as [`Problem`]s instead of panicking. A problem
//! carries the [`JsonPath`] of the offending value; [`locate`] turns that path into a 1-based
//! line and column of the source text, so that `tilesmith check` can print
//! `FILE:LINE:COL: message (at $.map[3][4])`.

use std::fmt;

use jsonc_parser::common::Ranged;
use serde::Serialize;

use crate::grid::Pos;

/// The most characters of a file value that a message quotes; see [`quote`].
pub const QUOTE_CHARS: usize = 40;

/// A value from a file, quoted for a message: `"value"` when it is short, else its first
/// [`QUOTE_CHARS`] characters and its length, `"aaaa…" (12000000 characters)`. Control
/// characters are escaped so that a message stays one line. Every message built from a file
/// value quotes it with this, so that one huge token cannot make a huge message.
pub fn quote(s: &str) -> String {
    quote_at_most(s, QUOTE_CHARS)
}

/// Like [`quote`], with at most `max` characters: for file paths, which are longer than
/// names but come from files too (a replay's level path).
pub fn quote_at_most(s: &str, max: usize) -> String {
    let mut out = String::from("\"");
    for (n, c) in s.chars().enumerate() {
        if n == max {
            let total = s.chars().count();
            out.push_str(&format!("\u{2026}\" ({total} characters)"));
            return out;
        }
        if c.is_control() {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    out.push('"');
    out
}

/// The word of `vocabulary` nearest to `word` for a "did you mean" hint: the smallest
/// Damerau-Levenshtein distance (case-insensitive, `strsim`), if it is at most a third of the
/// longer word's length (at least 1) and smaller than `word`'s own length (so `"x"` suggests
/// nothing). `None` for a word over 64 characters (no name is that long; it keeps the cost
/// bounded for huge values). The first of equally near words wins.
pub fn nearest<'a>(word: &str, vocabulary: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    if word.chars().count() > 64 {
        return None;
    }
    let word = word.to_lowercase();
    let mut best: Option<(usize, &str)> = None;
    for v in vocabulary {
        let d = strsim::damerau_levenshtein(&word, &v.to_lowercase());
        let longer = word.chars().count().max(v.chars().count());
        let limit = (longer / 3).max(1);
        if d == 0 || d > limit || d >= word.chars().count() {
            continue;
        }
        if best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, v));
        }
    }
    best.map(|(_, v)| v)
}

/// ` (did you mean "stone"?)` for a suggestion, else nothing: the tail of an "unknown …"
/// message.
pub fn did_you_mean(suggestion: Option<&str>) -> String {
    suggestion.map_or_else(String::new, |s| format!(" (did you mean {}?)", quote(s)))
}

/// One step of a [`JsonPath`]: an object key or an array index.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum PathSeg {
    /// An object member name.
    Key(String),
    /// A 0-based array index.
    Index(usize),
}

/// A path from the document root to a value, written like `$.map[3][4].token`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct JsonPath(pub Vec<PathSeg>);

impl JsonPath {
    /// The root `$`.
    pub fn root() -> Self {
        Self(Vec::new())
    }

    /// This path extended by an object key.
    pub fn key(&self, k: &str) -> Self {
        let mut v = self.0.clone();
        v.push(PathSeg::Key(k.to_string()));
        Self(v)
    }

    /// This path extended by an array index.
    pub fn index(&self, i: usize) -> Self {
        let mut v = self.0.clone();
        v.push(PathSeg::Index(i));
        Self(v)
    }
}

impl fmt::Display for JsonPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("$")?;
        for seg in &self.0 {
            match seg {
                PathSeg::Key(k) if k.chars().count() > QUOTE_CHARS => {
                    let short: String = k.chars().take(QUOTE_CHARS).collect();
                    let short = serde_json::Value::String(short).to_string();
                    write!(f, "[{}\u{2026}\"]", &short[..short.len() - 1])?
                }
                PathSeg::Key(k)
                    if !k.is_empty()
                        && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') =>
                {
                    write!(f, ".{k}")?
                }
                PathSeg::Key(k) => write!(f, "[{}]", serde_json::Value::String(k.clone()))?,
                PathSeg::Index(i) => write!(f, "[{i}]")?,
            }
        }
        Ok(())
    }
}

/// How bad a problem is. Errors make `tilesmith check` and `run` fail; warnings do not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Severity {
    /// The file cannot be played as it is.
    Error,
    /// The file plays, but probably not as the designer meant (e.g. no exit).
    Warning,
}

/// One problem with a level document.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// Error or warning.
    pub severity: Severity,
    /// Where in the JSON document the problem is.
    pub path: JsonPath,
    /// What is wrong, in one English sentence without a trailing full stop.
    pub message: String,
    /// The map cell concerned, when there is one (for click-to-locate in the editor).
    pub cell: Option<Pos>,
    /// 1-based line in the source text, when known (see [`locate`]).
    pub line: Option<usize>,
    /// 1-based column (in characters) in the source text, when known.
    pub column: Option<usize>,
    /// The file that `line` and `column` are in, when it is not the level's own text: the
    /// ZRF rules file a board level refers to (`game.zrf`). `None` for the level's text.
    pub file: Option<String>,
}

impl Problem {
    /// An error at `path`.
    pub fn error(path: JsonPath, message: impl Into<String>) -> Self {
        Self {
            severity: Severity::Error,
            path,
            message: message.into(),
            cell: None,
            line: None,
            column: None,
            file: None,
        }
    }

    /// A warning at `path`.
    pub fn warning(path: JsonPath, message: impl Into<String>) -> Self {
        Self {
            severity: Severity::Warning,
            ..Self::error(path, message)
        }
    }

    /// The same problem, about map cell `cell`.
    pub fn at_cell(mut self, cell: Pos) -> Self {
        self.cell = Some(cell);
        self
    }

    /// The same problem, at 1-based `line` and `column` of the file `file` (see
    /// [`Problem::file`]).
    pub fn in_file(mut self, file: impl Into<String>, line: usize, column: usize) -> Self {
        self.file = Some(file.into());
        self.line = Some(line);
        self.column = Some(column);
        self
    }

    /// True for [`Severity::Error`].
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// Formats as `FILE:LINE:COL: message (at PATH)`; a warning's message starts with `warning: `.
    /// Line and column are 1 when unknown. A problem in another file ([`Problem::file`], a
    /// ZRF rules file) is formatted as `ZRF-FILE:LINE:COL: message`, without the JSON path.
    pub fn render(&self, file: &str) -> String {
        let warn = if self.severity == Severity::Warning {
            "warning: "
        } else {
            ""
        };
        if let Some(other) = &self.file {
            return format!(
                "{other}:{}:{}: {warn}{}",
                self.line.unwrap_or(1),
                self.column.unwrap_or(1),
                self.message
            );
        }
        format!(
            "{file}:{}:{}: {warn}{} (at {})",
            self.line.unwrap_or(1),
            self.column.unwrap_or(1),
            self.message,
            self.path
        )
    }
}

/// Fills in `line` and `column` of each problem from `text`, the JSON source the document was
/// parsed from. A path that does not exist in the text (e.g. a missing member) is located at its
/// deepest existing ancestor. Runs a second, position-keeping parse, so call it only when there
/// are problems to report.
pub fn locate(text: &str, problems: &mut [Problem]) {
    if problems.iter().all(|p| p.line.is_some()) {
        return;
    }
    let options = jsonc_parser::ParseOptions {
        allow_comments: false,
        allow_loose_object_property_names: false,
        allow_trailing_commas: false,
        ..Default::default()
    };
    let Ok(parsed) = jsonc_parser::parse_to_ast(text, &Default::default(), &options) else {
        return;
    };
    let Some(root) = parsed.value else { return };
    // Find each problem's byte offset, then turn all offsets into lines and columns in one
    // pass over the text (a file may have thousands of problems).
    let mut targets: Vec<(usize, usize)> = Vec::new();
    for (k, p) in problems
        .iter()
        .enumerate()
        .filter(|(_, p)| p.line.is_none())
    {
        let mut node = &root;
        for seg in &p.path.0 {
            let next = match (seg, node) {
                (PathSeg::Key(k), jsonc_parser::ast::Value::Object(o)) => o
                    .properties
                    .iter()
                    .rev()
                    .find(|prop| prop.name.as_str() == k)
                    .map(|prop| &prop.value),
                (PathSeg::Index(i), jsonc_parser::ast::Value::Array(a)) => a.elements.get(*i),
                _ => None,
            };
            match next {
                Some(n) => node = n,
                None => break,
            }
        }
        targets.push((node.start(), k));
    }
    targets.sort_unstable();
    let (mut line, mut column) = (1, 1);
    let mut chars = text.char_indices().peekable();
    for (offset, k) in targets {
        while let Some(&(i, c)) = chars.peek() {
            if i >= offset {
                break;
            }
            if c == '\n' {
                line += 1;
                column = 1;
            } else {
                column += 1;
            }
            chars.next();
        }
        problems[k].line = Some(line);
        problems[k].column = Some(column);
    }
}

/// The 1-based line and column (in characters) of byte offset `offset` in `text`.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text.as_bytes()[..offset];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let column = String::from_utf8_lossy(&before[line_start..])
        .chars()
        .count()
        + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_print_like_jsonpath() {
        let p = JsonPath::root().key("map").index(3).index(4).key("token");
        assert_eq!(p.to_string(), "$.map[3][4].token");
        assert_eq!(JsonPath::root().key("a b").to_string(), "$[\"a b\"]");
    }

    #[test]
    fn long_values_are_quoted_by_a_prefix_and_their_length() {
        assert_eq!(quote("mud"), "\"mud\"");
        assert_eq!(quote("a\nb"), "\"a\\nb\"");
        let long = "é".repeat(1000);
        let q = quote(&long);
        assert_eq!(
            q,
            format!("\"{}\u{2026}\" (1000 characters)", "é".repeat(40))
        );
        let key = JsonPath::root().key(&"k".repeat(100)).to_string();
        assert_eq!(key, format!("$[\"{}\u{2026}\"]", "k".repeat(40)));
    }

    #[test]
    fn locate_finds_nested_values() {
        let text = "{\n  \"map\": [\n    [\"wall\", \"mud\"],\n    [\"wall\", 7]\n  ]\n}";
        let mut ps = vec![
            Problem::error(JsonPath::root().key("map").index(1).index(1), "x"),
            Problem::error(JsonPath::root().key("missing"), "y"),
        ];
        locate(text, &mut ps);
        assert_eq!((ps[0].line, ps[0].column), (Some(4), Some(14)));
        assert_eq!((ps[1].line, ps[1].column), (Some(1), Some(1)));
        assert_eq!(ps[0].render("f.json"), "f.json:4:14: x (at $.map[1][1])");
    }
}
