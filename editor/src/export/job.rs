//! Exports run by the editor on a worker thread, with progress and Cancel.
//!
//! The request carries only plain data (the level document, the play's inputs and seed, the
//! file to write), so the worker builds its own editor state and kind UI from the document:
//! nothing of the open document is shared with the thread. The worker is a [`Job`] reporting
//! the steps drawn.

use std::path::PathBuf;

use super::gif::{GifOptions, Step, write_play};
use super::{Options, Renderer, open, write_png};
use crate::doc::ui::KindUis;
use tilesmith_engine::json_text::StagedFile;

use crate::job::{Job, Worker};
use crate::state::ExportRequest;

/// A running export.
pub struct ExportJob {
    /// The file being written.
    pub path: PathBuf,
    total: u64,
    /// The worker: a message for the status bar or the error; the steps done so far.
    job: Job<Result<String, String>, u64>,
}

impl std::fmt::Debug for ExportJob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExportJob")
            .field("path", &self.path)
            .field("total", &self.total)
            .finish()
    }
}

impl ExportJob {
    /// Starts the export on a new thread, drawing with `uis`.
    pub fn spawn(req: ExportRequest, uis: KindUis) -> Self {
        let total = req.play.as_ref().map_or(1, |(i, _)| i.len() as u64);
        let path = req.path.clone();
        let job = Job::spawn("export", move |w| run(&req, uis, w))
            .expect("the system starts a thread for the export");
        Self { path, total, job }
    }

    /// Steps done and the steps in all (a PNG is one step).
    pub fn progress(&self) -> (u64, u64) {
        (self.job.progress().unwrap_or(0), self.total)
    }

    /// Asks the worker to stop; it stops after the step it is drawing.
    pub fn cancel(&self) {
        self.job.cancel();
    }

    /// The outcome once the worker has finished: a message for the status bar, or the error
    /// (a panic in the export: its message).
    pub fn poll(&self) -> Option<Result<String, String>> {
        self.job.poll().map(|r| r.and_then(|r| r))
    }
}

fn run(req: &ExportRequest, uis: KindUis, w: &Worker<u64>) -> Result<String, String> {
    let (mut st, mut kind) = open((req.kinds, uis), &req.level).map_err(|p| {
        p.first()
            .map_or("the level cannot be opened".into(), |p| p.render("level"))
    })?;
    let frame = Options {
        scale: req.scale,
        grid: false,
        overlays: false,
    };
    match &req.play {
        None => {
            let image = Renderer::new().render(&st, kind.as_mut(), &frame, None)?;
            write_png(&image, &req.path)?;
            w.report(1);
            Ok(format!("exported {}", req.path.display()))
        }
        Some((inputs, seed)) => {
            let steps: Vec<Step> = inputs.iter().copied().map(Step::Input).collect();
            let cannot = |e: std::io::Error| format!("{}: cannot write: {e}", req.path.display());
            let mut staged = StagedFile::new(&req.path).map_err(cannot)?;
            let go = GifOptions {
                frame: Options {
                    overlays: true,
                    ..frame
                },
                fps: 4,
                // Frame-based kinds (60 steps a second) get one frame every 4 steps.
                every: if st.doc.step_noun() == "frame" { 4 } else { 1 },
            };
            let frames = write_play(
                &mut st,
                kind.as_mut(),
                (&steps, *seed),
                &go,
                std::io::BufWriter::new(staged.file()),
                &mut |n, _| {
                    w.report(n);
                    !w.cancelled()
                },
            )?;
            // Only a whole GIF replaces the file; an error or a cancel leaves it as it was.
            match frames {
                Some(f) => {
                    staged.commit().map_err(cannot)?;
                    Ok(format!("exported {} ({f} frames)", req.path.display()))
                }
                None => Ok("export cancelled".into()),
            }
        }
    }
}
