//! Member names given twice in one JSON object (issue #30, "Strict files").
//!
//! serde_json keeps the last of two members with one name and drops the first without a word,
//! so a level with `"kind"` twice was read as whichever came last. Every file Tilesmith reads
//! (levels, campaigns, replays) is scanned with [`repeated_keys`] after it parsed, and a
//! repeated name is an error naming it and both places.

use rustc_hash::FxHashMap;

use crate::json_cursor::Cursor;
use crate::problem::{JsonPath, PathSeg, Problem, push_capped, quote};

/// The problems of `text`, well-formed JSON (serde_json read it): one error for each member
/// name that occurs again in the same object, at the second occurrence's JSON path, line and
/// column (1-based, columns in characters), naming the first one's line and column. At most
/// [`crate::problem::MAX_PROBLEMS`] and a count. Empty for text that is not well-formed JSON
/// (the parser reports that).
///
/// One pass over the text; the names of the objects being read are held until each object
/// ends, so memory is bounded by the size of the text. Nesting is at most serde_json's 128.
pub fn repeated_keys(text: &str) -> Vec<Problem> {
    let mut scan = KeyScan {
        c: Cursor::new(text),
        path: Vec::new(),
        out: Vec::new(),
    };
    match scan.value() {
        Some(()) => scan.out,
        None => Vec::new(),
    }
}

/// A forward scan of JSON text that keeps the current path and the names of open objects.
struct KeyScan<'a> {
    c: Cursor<'a>,
    path: Vec<PathSeg>,
    out: Vec<Problem>,
}

impl KeyScan<'_> {
    /// Moves over one value (after white space).
    fn value(&mut self) -> Option<()> {
        self.c.ws();
        match self.c.peek()? {
            b'{' => self.object(),
            b'[' => {
                let mut more = self.c.open(b']')?;
                let mut index = 0;
                while more {
                    self.path.push(PathSeg::Index(index));
                    self.value()?;
                    self.path.pop();
                    index += 1;
                    more = self.c.next(b']')?;
                }
                Some(())
            }
            b'"' => self.c.string(false).map(|_| ()),
            _ => self.c.scalar(),
        }
    }

    /// Moves over an object, reporting each name it holds twice.
    fn object(&mut self) -> Option<()> {
        let mut more = self.c.open(b'}')?;
        let mut seen: FxHashMap<String, (usize, usize)> = FxHashMap::default();
        while more {
            self.c.ws();
            let at = (self.c.line, self.c.column);
            let key = self.c.string(true)??;
            if let Some(&(line, column)) = seen.get(&key) {
                let mut path = JsonPath(self.path.clone());
                path.0.push(PathSeg::Key(key.clone()));
                push_capped(
                    &mut self.out,
                    Problem {
                        line: Some(at.0),
                        column: Some(at.1),
                        ..Problem::error(
                            path,
                            format!(
                                "member {} is given twice in one object (first at line {line}, \
                                 column {column}); each member may be given once",
                                quote(&key)
                            ),
                        )
                    },
                );
            } else {
                seen.insert(key.clone(), at);
            }
            self.c.ws();
            self.c.expect(b':')?;
            self.path.push(PathSeg::Key(key));
            self.value()?;
            self.path.pop();
            more = self.c.next(b'}')?;
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeated_name_is_reported_at_its_second_place_naming_the_first() {
        let text = "{\n  \"kind\": \"baba\",\n  \"map\": [{\"a\": 1, \"b\": 2}],\n  \"kind\": \"boulder\"\n}";
        let p = repeated_keys(text);
        assert_eq!(p.len(), 1, "{p:?}");
        assert_eq!(p[0].path.to_string(), "$.kind");
        assert_eq!((p[0].line, p[0].column), (Some(4), Some(3)));
        assert!(p[0].message.contains("\"kind\""), "{}", p[0].message);
        assert!(
            p[0].message.contains("line 2, column 3"),
            "{}",
            p[0].message
        );
        assert!(p[0].is_error());
    }

    #[test]
    fn names_are_compared_decoded_and_per_object() {
        // `"\u0061"` is `"a"`; the same name in two objects, or in an array's objects, is fine.
        let p = repeated_keys(
            r#"{"x": [{"a": 1}, {"a": 2}], "y": {"a": {"a": 3}}, "\u0061": 1, "a": 2}"#,
        );
        assert_eq!(p.len(), 1, "{p:?}");
        assert_eq!(p[0].path.to_string(), "$.a");
        let nested = repeated_keys(r#"[1, {"k": [true, {"z": null, "z": "s,}"}]}]"#);
        assert_eq!(nested.len(), 1, "{nested:?}");
        assert_eq!(nested[0].path.to_string(), "$[1].k[1].z");
        assert!(repeated_keys(r#"{"a": "\"a\": 1, \"a\": 2"}"#).is_empty());
    }

    #[test]
    fn a_thousand_repeats_are_capped() {
        let text = format!("{{{}\"a\": 0}}", "\"a\": 0, ".repeat(1000));
        let p = repeated_keys(&text);
        assert_eq!(p.len(), 101);
        assert_eq!(p[100].more_count(), Some(900));
    }
}
