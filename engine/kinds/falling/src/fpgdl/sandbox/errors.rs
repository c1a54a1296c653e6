//! Reading a Lua error as a [`ScriptError`]: the script line, the message without addresses,
//! the limit that stopped the script.

use super::*;

/// An error of the host's own setup (not the script's).
pub(super) fn host_error(e: &mlua::Error) -> ScriptError {
    ScriptError {
        line: None,
        message: format!("cannot set up Lua: {e}"),
    }
}

/// Whether `e` is the memory limit. A host function that cannot grow the host's reference
/// stack gets mlua's "out of Lua stack" error: with [`MAX_HELD_VALUES`] bounding what a host
/// function holds, that happens only when the memory limit refuses the growth.
pub(super) fn is_memory(e: &mlua::Error) -> bool {
    match e {
        mlua::Error::MemoryError(_) | mlua::Error::StackError => true,
        mlua::Error::CallbackError { cause, .. } => is_memory(cause),
        mlua::Error::WithContext { cause, .. } => is_memory(cause),
        mlua::Error::BadArgument { cause, .. } => is_memory(cause),
        _ => false,
    }
}

/// `script:LINE: rest` → `(LINE, rest)`.
pub(super) fn position(msg: &str) -> Option<(usize, &str)> {
    let rest = msg.strip_prefix(CHUNK)?.strip_prefix(':')?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let line = rest[..digits].parse().ok()?;
    let rest = rest[digits..].strip_prefix(':')?;
    Some((line, rest.strip_prefix(' ').unwrap_or(rest)))
}

/// The first script line named in a traceback (`\tscript:LINE: in …`).
pub(super) fn traceback_line(tb: &str) -> Option<usize> {
    tb.lines()
        .find_map(|l| position(l.trim_start()).map(|(line, _)| line))
}

/// Splits `message\nstack traceback:\n…`.
pub(super) fn split_traceback(msg: &str) -> (&str, Option<&str>) {
    match msg.find("\nstack traceback:") {
        Some(i) => (&msg[..i], Some(&msg[i..])),
        None if msg.starts_with("stack traceback:") => ("", Some(msg)),
        None => (msg, None),
    }
}

pub(super) fn describe(e: &mlua::Error) -> ScriptError {
    // Tracebacks from the outermost error inwards; the innermost message.
    let mut tracebacks: Vec<String> = Vec::new();
    let mut cur = e;
    let message = loop {
        match cur {
            mlua::Error::CallbackError { traceback, cause } => {
                tracebacks.push(traceback.clone());
                cur = cause;
            }
            mlua::Error::WithContext { cause, .. } => cur = cause,
            mlua::Error::RuntimeError(m) => {
                let (m, tb) = split_traceback(m);
                if let Some(tb) = tb {
                    tracebacks.push(tb.to_string());
                }
                break m.to_string();
            }
            mlua::Error::SyntaxError { message, .. } => break message.clone(),
            mlua::Error::BadArgument { to, pos, cause, .. } => {
                let to = to
                    .as_deref()
                    .map(|t| format!(" to '{t}'"))
                    .unwrap_or_default();
                break format!("bad argument #{pos}{to} ({cause})");
            }
            other => break other.to_string(),
        }
    };
    let (line, message) = match position(&message) {
        Some((line, rest)) => (Some(line), rest.to_string()),
        None => (
            tracebacks.iter().rev().find_map(|tb| traceback_line(tb)),
            error_value(&message).unwrap_or(message),
        ),
    };
    ScriptError {
        line,
        message: bounded(&message),
    }
}

/// The most characters of a script's error message shown (issue #30: `error(string.rep('\n',
/// 4e6))` printed four million lines).
pub(super) const MAX_MESSAGE_CHARS: usize = 500;

/// `message` as one bounded line: control characters escaped (`\n`), cut after
/// [`MAX_MESSAGE_CHARS`] characters with its length.
fn bounded(message: &str) -> String {
    let mut out = String::new();
    for (n, c) in message.chars().enumerate() {
        if n == MAX_MESSAGE_CHARS {
            let total = message.chars().count();
            out.push_str(&format!("\u{2026} ({total} characters)"));
            return out;
        }
        if c.is_control() {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    out
}

/// The longest `__name` an error message shows, in characters.
pub(super) const MAX_NAME_CHARS: usize = 64;

/// An error value that is not a string, as Lua prints it when it reaches the host (`table:
/// 0x55fe…`, or `NAME: 0x…` with a `__name`), without the machine address, which differs from
/// run to run: `error value: table`, or `error value: table with __name "NAME"` (the name cut
/// to [`MAX_NAME_CHARS`] characters). `None` for any other message.
pub(super) fn error_value(msg: &str) -> Option<String> {
    let (kind, address) = msg.rsplit_once(": 0x")?;
    // A machine address has at least 8 hex digits; `code: 0xFF` is a message of its own.
    if address.len() < 8 || !address.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    Some(match kind {
        "table" | "function" | "userdata" | "thread" => format!("error value: {kind}"),
        name => {
            // Any `__name`, empty or of several lines too, without its address.
            let cut: String = name.chars().take(MAX_NAME_CHARS).collect();
            format!(
                "error value: table with __name {}",
                tilesmith_core::problem::quote_at_most(&cut, MAX_NAME_CHARS)
            )
        }
    })
}
