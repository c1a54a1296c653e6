//! A forward cursor over JSON text that knows its line and column: the one reader that the
//! scans of [`crate::problem::locate`] (where values start) and
//! [`crate::json_keys::repeated_keys`] (member names given twice) share.

/// A place in JSON text, moving forward byte by byte. `line` and `column` are 1-based;
/// columns count characters (UTF-8 lead bytes), not bytes.
pub(crate) struct Cursor<'a> {
    /// The text's bytes.
    pub(crate) b: &'a [u8],
    /// The byte offset.
    pub(crate) i: usize,
    /// The 1-based line.
    pub(crate) line: usize,
    /// The 1-based column, in characters.
    pub(crate) column: usize,
}

impl<'a> Cursor<'a> {
    /// At the start of `text`.
    pub(crate) fn new(text: &'a str) -> Self {
        Self {
            b: text.as_bytes(),
            i: 0,
            line: 1,
            column: 1,
        }
    }

    /// The byte here, if any.
    pub(crate) fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    /// Moves over one byte.
    pub(crate) fn bump(&mut self) {
        let c = self.b[self.i];
        self.i += 1;
        if c == b'\n' {
            self.line += 1;
            self.column = 1;
        } else if c & 0xC0 != 0x80 {
            self.column += 1;
        }
    }

    /// Moves over white space.
    pub(crate) fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.bump();
        }
    }

    /// Moves over white space and then the byte `c`; `None` when another byte comes.
    pub(crate) fn expect(&mut self, c: u8) -> Option<()> {
        self.ws();
        (self.peek()? == c).then(|| self.bump())
    }

    /// Moves over a string (after white space); returns its decoded text when `decode`.
    pub(crate) fn string(&mut self, decode: bool) -> Option<Option<String>> {
        self.ws();
        let start = self.i;
        self.expect(b'"')?;
        let mut escaped = false;
        loop {
            match self.peek()? {
                b'"' => break,
                b'\\' => {
                    escaped = true;
                    self.bump();
                    self.peek()?;
                    self.bump();
                }
                _ => self.bump(),
            }
        }
        self.bump();
        if !decode {
            return Some(None);
        }
        let raw = std::str::from_utf8(&self.b[start..self.i]).ok()?;
        if escaped {
            serde_json::from_str::<String>(raw).ok().map(Some)
        } else {
            Some(Some(raw[1..raw.len() - 1].to_string()))
        }
    }

    /// Moves over the opening byte of an array or object (here) and the white space after
    /// it; `Some(true)` when the container has elements, `Some(false)` when `close` came at
    /// once (and was moved over).
    pub(crate) fn open(&mut self, close: u8) -> Option<bool> {
        self.bump();
        self.ws();
        if self.peek()? == close {
            self.bump();
            return Some(false);
        }
        Some(true)
    }

    /// After an element of an array or object: moves over `,` (`Some(true)`: another
    /// follows) or `close` (`Some(false)`: the container ended); `None` for anything else.
    pub(crate) fn next(&mut self, close: u8) -> Option<bool> {
        self.ws();
        let c = self.peek()?;
        if c != b',' && c != close {
            return None;
        }
        self.bump();
        Some(c == b',')
    }

    /// Moves over a number, `true`, `false` or `null`: up to the next delimiter; `None` when
    /// there is nothing there.
    pub(crate) fn scalar(&mut self) -> Option<()> {
        let start = self.i;
        while !matches!(
            self.peek(),
            None | Some(b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r')
        ) {
            self.bump();
        }
        (self.i > start).then_some(())
    }
}
