//! Problems found in level files, with their place: a JSON path, and a line and column.
//!
//! Every loader in the engine reports bad input as [`Problem`]s instead of panicking. A problem
//! carries the [`JsonPath`] of the offending value; [`locate`] turns that path into a 1-based
//! line and column of the source text, so that `tilesmith check` can print
//! `FILE:LINE:COL: message (at $.map[3][4])`.

use std::fmt;

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
    /// A [`Problem::more`] line is `FILE: … and N more problems`.
    /// Line and column are 1 when unknown. A problem in another file ([`Problem::file`], a
    /// ZRF rules file) is formatted as `ZRF-FILE:LINE:COL: message`, without the JSON path.
    pub fn render(&self, file: &str) -> String {
        if self.more_count().is_some() {
            return format!("{file}: {}", self.message);
        }
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

/// The most problems one file's report lists (issue #30, "Every loader and checker caps its
/// report"): `tilesmith check`, the editor's problems list and every loader keep the first
/// this many and then one line `… and N more problems` ([`Problem::more`]).
pub const MAX_PROBLEMS: usize = 100;

const MORE_PREFIX: &str = "\u{2026} and ";
const MORE_SUFFIX: &str = " more problems";
const MORE_ONE: &str = " more problem";

impl Problem {
    /// The line that stands for `n` problems left out of a capped report:
    /// `… and N more problems`, at the document root, as severe as the worst one left out.
    pub fn more(n: usize, severity: Severity) -> Self {
        let suffix = if n == 1 { MORE_ONE } else { MORE_SUFFIX };
        Self {
            severity,
            ..Self::error(JsonPath::root(), format!("{MORE_PREFIX}{n}{suffix}"))
        }
    }

    /// How many problems this line stands for, when it is a [`Problem::more`] line.
    pub fn more_count(&self) -> Option<usize> {
        if self.file.is_some() || !self.path.0.is_empty() {
            return None;
        }
        let rest = self.message.strip_prefix(MORE_PREFIX)?;
        match rest.strip_suffix(MORE_SUFFIX) {
            Some(n) => n.parse().ok(),
            None => (rest.strip_suffix(MORE_ONE)? == "1").then_some(1),
        }
    }
}

/// Adds `p` to a report being collected, keeping at most [`MAX_PROBLEMS`] problems and
/// counting the rest in one trailing [`Problem::more`] line, so that a loader's memory stays
/// bounded whatever the file repeats (a setup naming one square a million times). Loops over
/// a file's arrays and objects push through this instead of `Vec::push`.
pub fn push_capped(problems: &mut Vec<Problem>, p: Problem) {
    if let Some(last) = problems.last_mut()
        && let Some(n) = last.more_count()
    {
        let severity = last.severity.min(p.severity);
        *last = Problem::more(n + p.more_count().unwrap_or(1), severity);
        return;
    }
    if problems.len() < MAX_PROBLEMS {
        problems.push(p);
    } else {
        let n = p.more_count().unwrap_or(1);
        problems.push(Problem::more(n, p.severity));
    }
}

/// Whether a problem added to `problems` now would only be counted, not listed (the report
/// holds [`MAX_PROBLEMS`] already): a loader then skips what only its message needs (a
/// did-you-mean search over a vocabulary), so that a file of a million unknown names is read
/// in time proportional to its size.
pub fn is_full(problems: &[Problem]) -> bool {
    problems.len() >= MAX_PROBLEMS
}

/// [`push_capped`] as a method of a report being collected: `problems.push_capped(p)`
/// where a loader would write `problems.push(p)`.
pub trait Capped {
    /// Adds `p`, keeping at most [`MAX_PROBLEMS`] problems and a count ([`push_capped`]).
    fn push_capped(&mut self, p: Problem);

    /// Adds the problem `make` builds, of `severity`, as [`Capped::push_capped`] does; once
    /// the report is full ([`is_full`]) it is only counted and `make` is not called, so a
    /// message that costs a search (a did-you-mean over a vocabulary) is built only for the
    /// problems listed: a file of millions of unknown names is read in time proportional to
    /// its size (issue #30).
    fn push_capped_with(&mut self, severity: Severity, make: impl FnOnce() -> Problem);
}

impl Capped for Vec<Problem> {
    fn push_capped(&mut self, p: Problem) {
        push_capped(self, p);
    }

    fn push_capped_with(&mut self, severity: Severity, make: impl FnOnce() -> Problem) {
        if is_full(self) {
            push_capped(self, Problem::more(1, severity));
        } else {
            push_capped(self, make());
        }
    }
}

/// `problems` cut to a report: the first [`MAX_PROBLEMS`] problems in order, then one
/// [`Problem::more`] line counting all the others (and those that earlier caps already
/// counted). Errors keep their place: the report is not sorted. Applied wherever reports of
/// several sources are joined (a document's check, a campaign's entries), so that every
/// report ends the same way.
pub fn cap(problems: Vec<Problem>) -> Vec<Problem> {
    if problems.len() <= MAX_PROBLEMS && problems.iter().all(|p| p.more_count().is_none()) {
        return problems;
    }
    let mut out = Vec::with_capacity(MAX_PROBLEMS + 1);
    let mut more = 0usize;
    let mut severity = Severity::Warning;
    for p in problems {
        match p.more_count() {
            Some(n) => {
                more += n;
                severity = severity.min(p.severity);
            }
            None if out.len() < MAX_PROBLEMS => out.push(p),
            None => {
                more += 1;
                severity = severity.min(p.severity);
            }
        }
    }
    if more > 0 {
        out.push(Problem::more(more, severity));
    }
    out
}

/// Fills in `line` and `column` of each problem from `text`, the JSON source the document was
/// parsed from. A path that does not exist in the text (e.g. a missing member) is located at its
/// deepest existing ancestor; when a member name occurs twice in one object, the last one counts
/// (as in serde_json). Problems stay unplaced when `text` is not well-formed JSON.
///
/// One streaming pass over the text that keeps only the current nesting (at most
/// [`MAX_JSON_DEPTH`] levels) and a tree of the problems' paths: memory does not grow with the
/// size of the text (issue #15 D2; this used to build a second, position-keeping syntax tree of
/// the whole document, several times larger than the text).
pub fn locate(text: &str, problems: &mut [Problem]) {
    if problems.iter().all(|p| p.line.is_some()) {
        return;
    }
    let mut trie = PathTrie::default();
    let ends: Vec<(usize, usize)> = problems
        .iter()
        .enumerate()
        .filter(|(_, p)| p.line.is_none())
        .map(|(k, p)| (k, trie.insert(&p.path)))
        .collect();
    let mut scan = Scan {
        c: crate::json_cursor::Cursor::new(text),
        trie: &mut trie,
    };
    if scan.value(Some(0), 0).is_none() {
        return;
    }
    for (k, node) in ends {
        // The deepest node of the path that was found in the text (the root always is).
        let mut n = Some(node);
        while let Some(i) = n {
            if let Some((line, column)) = trie.nodes[i].at {
                problems[k].line = Some(line);
                problems[k].column = Some(column);
                break;
            }
            n = trie.nodes[i].parent;
        }
    }
}

/// The deepest nesting of arrays and objects [`locate`] follows (serde_json refuses deeper
/// documents with `recursion limit exceeded`, at 128).
pub const MAX_JSON_DEPTH: usize = 128;

/// The problems' paths as a tree: node 0 is the root `$`.
#[derive(Default)]
struct PathTrie {
    nodes: Vec<TrieNode>,
}

#[derive(Default)]
struct TrieNode {
    parent: Option<usize>,
    children: rustc_hash::FxHashMap<PathSeg, usize>,
    /// Whether some child is a key (member names must then be decoded).
    has_keys: bool,
    /// Line and column of the value at this path, once seen.
    at: Option<(usize, usize)>,
}

impl PathTrie {
    /// Adds `path` and returns its node.
    fn insert(&mut self, path: &JsonPath) -> usize {
        if self.nodes.is_empty() {
            self.nodes.push(TrieNode::default());
        }
        let mut n = 0;
        for seg in &path.0 {
            n = match self.nodes[n].children.get(seg) {
                Some(&c) => c,
                None => {
                    let c = self.nodes.len();
                    self.nodes.push(TrieNode {
                        parent: Some(n),
                        ..TrieNode::default()
                    });
                    self.nodes[n].children.insert(seg.clone(), c);
                    self.nodes[n].has_keys |= matches!(seg, PathSeg::Key(_));
                    c
                }
            };
        }
        n
    }

    fn child(&self, node: Option<usize>, seg: &PathSeg) -> Option<usize> {
        node.and_then(|n| self.nodes[n].children.get(seg).copied())
    }
}

/// A forward scan of JSON text that records where the values of a [`PathTrie`] start.
struct Scan<'a> {
    c: crate::json_cursor::Cursor<'a>,
    trie: &'a mut PathTrie,
}

impl Scan<'_> {
    /// Moves over one value (after white space), recording its start at `node`.
    fn value(&mut self, node: Option<usize>, depth: usize) -> Option<()> {
        self.c.ws();
        if let Some(n) = node {
            self.trie.nodes[n].at = Some((self.c.line, self.c.column));
        }
        match self.c.peek()? {
            b'{' => {
                if depth >= MAX_JSON_DEPTH {
                    return None;
                }
                let mut more = self.c.open(b'}')?;
                while more {
                    let decode = node.is_some_and(|n| self.trie.nodes[n].has_keys);
                    let key = self.c.string(decode)?;
                    let child = key.and_then(|k| self.trie.child(node, &PathSeg::Key(k)));
                    self.c.expect(b':')?;
                    self.value(child, depth + 1)?;
                    more = self.c.next(b'}')?;
                }
                Some(())
            }
            b'[' => {
                if depth >= MAX_JSON_DEPTH {
                    return None;
                }
                let mut more = self.c.open(b']')?;
                let mut index = 0;
                while more {
                    let child = self.trie.child(node, &PathSeg::Index(index));
                    self.value(child, depth + 1)?;
                    index += 1;
                    more = self.c.next(b']')?;
                }
                Some(())
            }
            b'"' => self.c.string(false).map(|_| ()),
            _ => self.c.scalar(),
        }
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

    fn warning_at(i: usize) -> Problem {
        Problem::warning(JsonPath::root().key("map").index(i), "odd")
    }

    #[test]
    fn push_capped_keeps_100_and_counts_the_rest() {
        let mut p = Vec::new();
        for i in 0..250 {
            push_capped(&mut p, warning_at(i));
        }
        assert_eq!(p.len(), MAX_PROBLEMS + 1);
        assert_eq!(p[99], warning_at(99));
        assert_eq!(p[100].more_count(), Some(150));
        // All left out were warnings: so is the count; one error left out makes it an error.
        assert_eq!(p[100].severity, Severity::Warning);
        push_capped(&mut p, Problem::error(JsonPath::root(), "bad"));
        assert_eq!(p[100].more_count(), Some(151));
        assert!(p[100].is_error());
        assert_eq!(
            p[100].render("a.json"),
            "a.json: \u{2026} and 151 more problems"
        );
    }

    #[test]
    fn cap_joins_counts_of_capped_reports() {
        // Two capped reports of 250 and 30 problems joined: 280 problems, 100 listed.
        let mut a = Vec::new();
        for i in 0..250 {
            push_capped(&mut a, warning_at(i));
        }
        let b: Vec<Problem> = (0..30).map(warning_at).collect();
        let joined = cap(a.into_iter().chain(b).collect());
        assert_eq!(joined.len(), 101);
        assert_eq!(joined[100].more_count(), Some(180));
        // A short report is left as it is.
        let short: Vec<Problem> = (0..100).map(warning_at).collect();
        assert_eq!(cap(short.clone()), short);
        // A message that merely looks like the count line, at a path, is a problem of its own.
        let look_alike =
            Problem::error(JsonPath::root().key("name"), "\u{2026} and 3 more problems");
        assert_eq!(look_alike.more_count(), None);
    }

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
