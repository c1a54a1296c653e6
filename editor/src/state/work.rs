//! The work the state hands on or waits for, as plain data: an export it asks the app to run
//! ([`ExportRequest`]) and a level file read on a worker ([`LoadJob`]). Apart from the
//! `impl EditorState` blocks that make and use them (`export_ops.rs`, `load_ops.rs`), so that
//! the state's own fields need nothing from those files.

use std::path::PathBuf;
use std::time::Instant;

use serde_json::Value;
use tilesmith_engine::Input;

use crate::doc::KindDoc;
use crate::doc::registry::Kinds;
use crate::error::EditorError;
use crate::job::Job;

/// What to export, asked for by File → Export PNG… or the play pane's "Export GIF of this
/// play…".
#[derive(Clone, Debug, PartialEq)]
pub struct ExportRequest {
    /// The file to write.
    pub path: PathBuf,
    /// The level document (the design, or the document the play started from).
    pub level: Value,
    /// For a GIF: the play's inputs, one per step, and its RNG seed; `None` for a PNG.
    pub play: Option<(Vec<Input>, u64)>,
    /// Pixels per cell.
    pub scale: u32,
    /// The kinds that open the level (the state's).
    pub kinds: Kinds,
}

/// What reading a file gives: the document and the file's text, or why it cannot be opened.
pub type ReadResult = Result<(Box<dyn KindDoc>, String), EditorError>;

/// A file being read on a worker thread.
#[derive(Debug)]
pub struct LoadJob {
    /// The file.
    pub path: PathBuf,
    /// When reading started.
    pub started: Instant,
    /// The worker reading it.
    pub(super) job: Job<ReadResult>,
}
