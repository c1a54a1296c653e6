//! The ZRF reader: S-expressions with `;` comments, `"…"` strings (no escapes: a backslash is
//! an ordinary character, as in `"Audio\Pickup.wav"`), atoms, LF or CRLF line ends. Every
//! node has the 1-based line and column (in characters) where it starts.
//!
//! The reader is bounded: the text by [`MAX_ZRF_BYTES`], the nesting by [`MAX_DEPTH`] and the
//! number of nodes by [`MAX_NODES`]; it reports the first syntax error at its place.

use std::rc::Rc;

use super::{MAX_DEPTH, MAX_NODES, MAX_ZRF_BYTES, ZrfProblem};
use crate::rules::Span;

/// One S-expression.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Node {
    /// What it is.
    pub kind: Kind,
    /// Where its text starts (for a node copied out of a macro body: in the body).
    pub span: Span,
    /// For a node produced by expanding a macro: where the outermost macro call was written.
    pub site: Option<Span>,
}

/// The three kinds of node.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Kind {
    /// A bare word: a keyword, a name, a number, `$1`.
    Atom(Rc<str>),
    /// A `"…"` string, without its quotes.
    Str(Rc<str>),
    /// A parenthesised list.
    List(Vec<Node>),
}

impl Node {
    /// The atom's text, if it is an atom.
    pub fn atom(&self) -> Option<&str> {
        match &self.kind {
            Kind::Atom(a) => Some(a),
            _ => None,
        }
    }

    /// The list's items, if it is a list.
    pub fn list(&self) -> Option<&[Node]> {
        match &self.kind {
            Kind::List(v) => Some(v),
            _ => None,
        }
    }

    /// The text of an atom or a string.
    pub fn text(&self) -> Option<&str> {
        match &self.kind {
            Kind::Atom(a) | Kind::Str(a) => Some(a),
            Kind::List(_) => None,
        }
    }

    /// For a list whose first item is an atom: that atom, ASCII-lowercased (keywords are
    /// matched without regard to ASCII case), and the items after it.
    pub fn head(&self) -> Option<(String, &[Node])> {
        let items = self.list()?;
        let (first, rest) = items.split_first()?;
        Some((first.atom()?.to_ascii_lowercase(), rest))
    }

    /// The place for a message about this node: its own place, and for macro output the
    /// call it came from, as a suffix for the message.
    pub fn site_note(&self) -> String {
        match self.site {
            Some(s) if s != self.span => {
                format!(" (in a macro expanded at {}:{})", s.line, s.col)
            }
            _ => String::new(),
        }
    }
}

/// A located error.
pub(crate) fn err(span: Span, message: impl Into<String>) -> ZrfProblem {
    ZrfProblem {
        span,
        message: message.into(),
        warning: false,
        more: 0,
    }
}

/// Reads a whole ZRF text into its top-level nodes.
///
/// # Errors
/// The first syntax error: text over [`MAX_ZRF_BYTES`], an unexpected `)`, a `(` never
/// closed, a string never closed, nesting deeper than [`MAX_DEPTH`], more than
/// [`MAX_NODES`] nodes.
pub(crate) fn read(text: &str) -> Result<Vec<Node>, ZrfProblem> {
    let start = Span { line: 1, col: 1 };
    if text.len() > MAX_ZRF_BYTES {
        return Err(err(
            start,
            format!(
                "the text is {} bytes; Tilesmith reads ZRF files of at most {MAX_ZRF_BYTES} bytes",
                text.len()
            ),
        ));
    }
    let mut line = 1u32;
    let mut col = 1u32;
    // Open lists: where each `(` was, the items read so far, and its column when the `(`
    // began its line (for the unclosed-list hint, [`suspect`]).
    let mut open: Vec<(Span, Vec<Node>, Option<u32>)> = Vec::new();
    let mut first_on_line = true;
    let mut unclosed: Option<(Span, u32)> = None;
    let mut top: Vec<Node> = Vec::new();
    let mut nodes = 0usize;
    let mut chars = text.char_indices().peekable();

    fn push(open: &mut [(Span, Vec<Node>, Option<u32>)], top: &mut Vec<Node>, node: Node) {
        match open.last_mut() {
            Some((_, items, _)) => items.push(node),
            None => top.push(node),
        }
    }

    while let Some(&(i, c)) = chars.peek() {
        let here = Span { line, col };
        match c {
            '\n' => {
                chars.next();
                line += 1;
                col = 1;
                first_on_line = true;
                continue;
            }
            ';' => {
                // A comment runs to the end of the line (the newline is handled above).
                while let Some(&(_, c)) = chars.peek() {
                    if c == '\n' {
                        break;
                    }
                    chars.next();
                    col += 1;
                }
                continue;
            }
            c if c.is_whitespace() => {
                chars.next();
                col += 1;
                continue;
            }
            _ => {}
        }
        let line_start = std::mem::take(&mut first_on_line).then_some(col);
        if line_start.is_some() && c != ')' && unclosed.is_none() {
            unclosed = suspect(&open, here);
        }
        nodes += 1;
        if nodes > MAX_NODES {
            return Err(err(
                here,
                format!("the file has more than {MAX_NODES} items; Tilesmith reads no more"),
            ));
        }
        match c {
            '(' => {
                chars.next();
                col += 1;
                if open.len() >= MAX_DEPTH {
                    return Err(err(
                        here,
                        format!("lists nested deeper than {MAX_DEPTH} levels"),
                    ));
                }
                open.push((here, Vec::new(), line_start));
            }
            ')' => {
                chars.next();
                col += 1;
                nodes -= 1;
                let Some((span, items, _)) = open.pop() else {
                    return Err(err(here, "')' without a matching '('"));
                };
                let node = Node {
                    kind: Kind::List(items),
                    span,
                    site: None,
                };
                push(&mut open, &mut top, node);
            }
            '"' => {
                let node = read_string(text, &mut chars, i, here, &mut line, &mut col)?;
                push(&mut open, &mut top, node);
            }
            _ => {
                let node = read_atom(text, &mut chars, i, here, &mut col);
                push(&mut open, &mut top, node);
            }
        }
    }
    if let Some(e) = unclosed_error(&open, unclosed) {
        return Err(e);
    }
    Ok(top)
}

/// The error for lists still open at the end of the text: at the list the indentation shows
/// to be missing its `)` ([`suspect`]), naming the outer list; else at the innermost open
/// `(`. `None` when no list is open.
fn unclosed_error(
    open: &[(Span, Vec<Node>, Option<u32>)],
    unclosed: Option<(Span, u32)>,
) -> Option<ZrfProblem> {
    if let (Some((outer, ..)), Some((span, next))) = (open.first(), unclosed) {
        return Some(err(
            span,
            format!(
                "'(' is probably never closed: line {next} starts at its indentation or less \
                 while it is open (the list opened at {}:{} is still open at the end of the \
                 file)",
                outer.line, outer.col
            ),
        ));
    }
    let (span, ..) = open.last()?;
    Some(err(
        *span,
        format!(
            "'(' is never closed ({} list{} open at the end of the file)",
            open.len(),
            if open.len() == 1 { "" } else { "s" }
        ),
    ))
}

/// The open list that a line starting at `here` (with anything but `)`) shows to be missing
/// its `)`, as rustc's unclosed-delimiter hint reads indentation: the innermost list whose `(`
/// began an earlier line at `here`'s column or to its right. ZRF files indent a list's items
/// past its `(` and its siblings level with it, so such a line is a sibling or an outer item.
fn suspect(open: &[(Span, Vec<Node>, Option<u32>)], here: Span) -> Option<(Span, u32)> {
    open.iter()
        .rev()
        .find(|(s, _, indent)| s.line < here.line && indent.is_some_and(|i| i >= here.col))
        .map(|(s, ..)| (*s, here.line))
}

/// The characters of the text.
type Chars<'a> = std::iter::Peekable<std::str::CharIndices<'a>>;

/// A string node: `"` at byte `i` (at `here`, not yet consumed) to the next `"`, which may be
/// on a later line; an error when it is never closed.
fn read_string(
    text: &str,
    chars: &mut Chars<'_>,
    i: usize,
    here: Span,
    line: &mut u32,
    col: &mut u32,
) -> Result<Node, ZrfProblem> {
    chars.next();
    *col += 1;
    let begin = i + 1;
    let mut end = None;
    for (j, c) in chars.by_ref() {
        if c == '"' {
            *col += 1;
            end = Some(j);
            break;
        }
        if c == '\n' {
            *line += 1;
            *col = 1;
        } else {
            *col += 1;
        }
    }
    let Some(end) = end else {
        return Err(err(here, "a string ('\"') that is never closed"));
    };
    let node = Node {
        kind: Kind::Str(Rc::from(&text[begin..end])),
        span: here,
        site: None,
    };
    Ok(node)
}

/// An atom node: from byte `i` (at `here`, not yet consumed) to the next white space,
/// bracket, `"` or `;`.
fn read_atom(text: &str, chars: &mut Chars<'_>, i: usize, here: Span, col: &mut u32) -> Node {
    let begin = i;
    let mut end = text.len();
    while let Some(&(j, c)) = chars.peek() {
        if c.is_whitespace() || matches!(c, '(' | ')' | '"' | ';') {
            end = j;
            break;
        }
        chars.next();
        *col += 1;
    }
    Node {
        kind: Kind::Atom(Rc::from(&text[begin..end])),
        span: here,
        site: None,
    }
}

/// The nesting depth of a node: 0 for an atom or a string, 1 + the deepest item for a list.
pub(crate) fn depth(node: &Node) -> usize {
    match &node.kind {
        Kind::List(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}

/// The number of nodes in a tree (the node itself included).
pub(crate) fn size(node: &Node) -> usize {
    match &node.kind {
        Kind::List(items) => 1 + items.iter().map(size).sum::<usize>(),
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sp(line: u32, col: u32) -> Span {
        Span { line, col }
    }

    #[test]
    fn atoms_strings_lists_and_comments_with_places() {
        let t = "(game ; a comment (not a list\n  (title \"Audio\\Pickup.wav\") x)\r\n$1";
        let top = read(t).unwrap();
        assert_eq!(top.len(), 2);
        let game = top[0].list().unwrap();
        assert_eq!(top[0].span, sp(1, 1));
        assert_eq!(game[0].atom(), Some("game"));
        assert_eq!(game[0].span, sp(1, 2));
        let title = game[1].list().unwrap();
        assert_eq!(game[1].span, sp(2, 3));
        // The backslash is an ordinary character, not an escape.
        assert_eq!(title[1].kind, Kind::Str(Rc::from("Audio\\Pickup.wav")));
        assert_eq!(title[1].span, sp(2, 10));
        assert_eq!(game[2].atom(), Some("x"));
        assert_eq!(game[2].span, sp(2, 30));
        // CRLF: the next line starts at column 1.
        assert_eq!(top[1].atom(), Some("$1"));
        assert_eq!(top[1].span, sp(3, 1));
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        let top = read("(\"é\" ü x)").unwrap();
        let items = top[0].list().unwrap();
        assert_eq!(items[1].span, sp(1, 6));
        assert_eq!(items[2].span, sp(1, 8));
    }

    #[test]
    fn unbalanced_parentheses_are_located() {
        let e = read("(game\n  (title \"x\")\n  (players A B)\n").unwrap_err();
        assert_eq!(e.span, sp(1, 1));
        let e = read("(a)\n  (b))\n").unwrap_err();
        assert_eq!(e.span, sp(2, 6));
        assert!(e.message.contains("')'"), "{}", e.message);
        let e = read("(a\n (b \"open\n").unwrap_err();
        assert_eq!(e.span, sp(2, 5));
    }

    /// Issue #31 defect 8: the `)` missing at the end of line 3 is reported there (the next
    /// line, a sibling at the same indentation, shows it), naming the outer list that the
    /// count alone finds open at the end; without such a line the outer list is reported.
    #[test]
    fn an_unclosed_list_is_found_by_indentation() {
        let t = "; rules\n(game\n  (title \"x\")\n  (players X O\n  (turn-order X O)\n  (board\n    (grid (dims 3 3))))\n";
        let e = read(t).unwrap_err();
        assert_eq!(e.span, sp(4, 3));
        assert!(e.message.contains("line 5"), "{}", e.message);
        assert!(e.message.contains("opened at 2:1"), "{}", e.message);
        // A nested list missing its `)` before a line of its parent's items.
        let t = "(game\n  (board\n    (grid (dims 3 3)\n    (links n))\n  (title \"x\"))\n";
        let e = read(t).unwrap_err();
        assert_eq!(e.span, sp(3, 5));
        // A `)` that starts a line closes; it points at nothing.
        let t = "(game\n  (title \"x\")\n  (players X O)\n)\n(x\n";
        let e = read(t).unwrap_err();
        assert_eq!(e.span, sp(5, 1));
        assert!(
            e.message.starts_with("'(' is never closed"),
            "{}",
            e.message
        );
    }

    #[test]
    fn deep_nesting_and_huge_texts_are_refused() {
        let deep = "(".repeat(1_000_000);
        let e = read(&deep).unwrap_err();
        assert_eq!(e.span, sp(1, MAX_DEPTH as u32 + 1));
        let huge = "(".repeat(10 * 1024 * 1024);
        let e = read(&huge).unwrap_err();
        assert_eq!(e.span, sp(1, 1));
        assert!(e.message.contains("bytes"), "{}", e.message);
        let many = "a ".repeat(MAX_NODES + 1);
        assert!(read(&many).is_err());
    }
}
