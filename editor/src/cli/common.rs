//! What the CLI's commands share: loading a level file with its problems, printing problems,
//! choosing a variant. Below every command module; imports none of them.

use std::io::Write as _;
use std::path::Path;

use tilesmith_engine::{Document, LoadError, Problem, load_file};

/// Prints each problem on stderr as `FILE:LINE:COL: message (at PATH)`.
pub fn print_problems(file: &Path, problems: &[Problem]) {
    let name = file.display().to_string();
    let mut err = std::io::stderr().lock();
    for p in problems {
        let _ = writeln!(err, "{}", p.render(&name));
    }
}

/// Loads a file; its problems (an unreadable file as one problem) come back as the error,
/// for the caller to print.
pub(super) fn load(file: &Path) -> Result<Document, Vec<Problem>> {
    match load_file(file) {
        Ok(d) => Ok(d),
        Err(LoadError::Io(e)) => Err(vec![Problem {
            line: Some(1),
            column: Some(1),
            ..Problem::error(
                tilesmith_engine::JsonPath::root(),
                format!("cannot read the file: {e}"),
            )
        }]),
        Err(LoadError::Problems(p)) => Err(p),
    }
}

/// The problems of a file that could not be loaded: `cannot read the file: …` at 1:1 for
/// an I/O error.
pub(super) fn load_problems(file: &Path, e: LoadError) -> Vec<Problem> {
    match e {
        LoadError::Io(e) => vec![Problem {
            line: Some(1),
            column: Some(1),
            ..Problem::error(
                tilesmith_engine::JsonPath::root(),
                format!("cannot read the file: {e}"),
            )
        }],
        LoadError::Problems(p) => {
            let _ = file;
            p
        }
    }
}

/// Sets the variant the level plays (`--variant`) through its kind
/// ([`tilesmith_engine::GameKind::with_variant`]); the level's check reports a variant its
/// rules do not have.
///
/// # Errors
/// The kind's message when the level has no variants to choose from.
pub(super) fn choose_variant(doc: &mut Document, variant: Option<&str>) -> Result<(), String> {
    let Some(title) = variant else {
        return Ok(());
    };
    doc.value = doc
        .kind
        .with_variant(&doc.value, title)
        .map_err(|e| format!("--variant: {e}"))?;
    // A title the rules do not have is the command line's error, not the file's.
    let root = tilesmith_engine::JsonPath::root().key("variant");
    match doc
        .kind
        .check(&doc.value)
        .into_iter()
        .find(|p| p.is_error() && p.path == root)
    {
        Some(p) => Err(format!("--variant: {}", p.message)),
        None => Ok(()),
    }
}
