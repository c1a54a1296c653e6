//! The editor's errors: what can go wrong reading, parsing and writing files. Each message
//! names the file.

use std::path::PathBuf;

/// An error the editor shows in a dialog or the status bar.
#[derive(Debug, thiserror::Error)]
pub enum EditorError {
    /// A file could not be read.
    #[error("Cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A file could not be written (save, replay).
    #[error("Could not save {}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A level that does not load: the problems, one `FILE:LINE:COL: message` line each.
    #[error("{file} cannot be opened:\n{problems}")]
    Level {
        /// The file's name as shown (`level` for text not read from a file).
        file: String,
        /// The problems, rendered as `tilesmith check` renders them.
        problems: String,
    },
}
