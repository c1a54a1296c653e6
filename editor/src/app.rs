//! The eframe application: draws the UI, applies the actions afterwards, and connects the
//! state to the outside world (window title and close, file watcher, autosave timer, frame
//! benchmark).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use eframe::egui::{self, Ui};
use tilesmith_engine::Input;

use crate::doc::registry::Kinds;
use crate::doc::ui::KindUis;
use crate::files::{Autosave, RfdDialogs, Settings, project_dirs};
use crate::state::{Action, EditorState, IntoDoc, Pending, PlayAction, default_level_file};
use crate::ui::{self, UiState};

/// The first frames, during which the map is fitted whenever the canvas changes size (the
/// panels find their sizes); the first key or click ends them early.
pub const SETTLE_FRAMES: u32 = 10;

/// How long the file must stay quiet after a change event before it is read.
pub const WATCH_DEBOUNCE: Duration = Duration::from_millis(250);

/// Watches the folder of the open file with `notify`.
struct Watch {
    /// The file watched.
    file: PathBuf,
    _watcher: Box<dyn notify::Watcher + Send>,
    rx: Receiver<notify::Result<notify::Event>>,
    /// When the last event about the file arrived (not yet handled).
    dirty_since: Option<Instant>,
}

/// The frame benchmark (`tilesmith --bench-frames N` (or `TILESMITH_BENCH_FRAMES=N`)): pans and zooms a 500×500 level for N
/// frames and prints the mean frame time.
#[derive(Debug)]
struct Bench {
    frames: u32,
    done: u32,
    last: Option<Instant>,
    total: Duration,
}

/// The editor application.
pub struct TilesmithApp {
    /// The editor state.
    pub state: EditorState,
    /// UI buffers and caches.
    pub ui: UiState,
    watch: Option<Watch>,
    /// Whether to watch the open file (off in tests unless asked).
    watching: bool,
    last_title: String,
    bench: Option<Bench>,
    latched: Option<Input>,
    pending_latch_clear: Option<u64>,
    /// Frames drawn so far, up to [`SETTLE_FRAMES`]: while the first frames lay the panels
    /// out, the map is fitted again whenever the canvas changes size.
    frames: u32,
    /// The window's content size at the last frame, in points.
    last_screen: Option<egui::Vec2>,
}

/// The list of kinds the editor edits, built here at the top and handed down (the state
/// holds it; the CLI gets it as a parameter): the only place besides `main.rs` that names
/// [`crate::kinds`].
pub fn kinds() -> Kinds {
    crate::kinds::registry()
}

/// The UIs of the editor's kinds, built here beside [`kinds`] and handed to the UI state and
/// the exports (the drawing layer above the state).
pub fn uis() -> KindUis {
    crate::kinds::uis()
}

impl EditorState {
    /// A state editing `doc` (untitled) with the editor's kinds ([`kinds`]), scripted dialogs
    /// that answer nothing, no settings file and no autosave: see
    /// [`EditorState::with_kinds`]. The app replaces those for real use.
    pub fn new(doc: impl IntoDoc) -> Self {
        Self::with_kinds(kinds(), doc)
    }
}

impl std::fmt::Debug for TilesmithApp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TilesmithApp")
            .field("state", &self.state)
            .finish_non_exhaustive()
    }
}

impl TilesmithApp {
    /// An app around `state`, not watching files (tests).
    pub fn new(state: EditorState) -> Self {
        Self {
            ui: UiState::new(uis()),
            state,
            watch: None,
            watching: false,
            last_title: String::new(),
            bench: None,
            latched: None,
            pending_latch_clear: None,
            frames: 0,
            last_screen: None,
        }
    }

    /// The app as run by `tilesmith`: settings and autosave in the platform directories,
    /// native dialogs, watching the open file; opens `file`, or the default level.
    pub fn new_native(file: Option<PathBuf>) -> Self {
        let mut st = EditorState::new((kinds().default_entry().new_doc)());
        st.dialogs = Box::new(RfdDialogs::new(
            default_level_file(kinds()).and_then(|f| f.parent().map(Path::to_path_buf)),
            kinds(),
        ));
        if let Some((config, data)) = project_dirs() {
            let f = config.join("settings.json");
            st.settings = Settings::load(&f);
            st.settings_file = Some(f);
            st.autosave = Some(Autosave { dir: data });
        }
        match file.or_else(|| default_level_file(kinds())) {
            Some(f) => st.apply(Action::OpenPath(f)),
            None => st.apply(Action::New), // the default kind's new level, no dialog
        }
        st.offer_untitled_autosave();
        // From now on frames run: files open on a worker (issue 15).
        st.background_work = true;
        let mut app = Self::new(st);
        app.watching = true;
        app
    }

    /// Runs the editor as `tilesmith` does (settings and autosave in the platform
    /// directories, `file` opened) but without a window: frames are drawn into a headless
    /// egui context every 20 ms, and every `gap` one cell (row 1, from column 1 on) is
    /// emptied as a Delete of a one-cell selection would, `edits` times, each announced on
    /// stdout as `edit K` once applied. Then it idles, drawing frames (so autosave runs as in
    /// the window), for at most a minute. The crash-recovery test (`editor/tests/
    /// reliability.rs`) kills it with SIGKILL and opens the level again.
    pub fn run_headless(file: PathBuf, edits: usize, gap: Duration) -> ExitCode {
        use std::io::Write as _;
        let mut app = Self::new_native(Some(file));
        let ctx = egui::Context::default();
        let start = Instant::now();
        let mut done = 0;
        while start.elapsed() < Duration::from_secs(60) {
            let mut output = ctx.run_ui(egui::RawInput::default(), |ui| app.frame(ui));
            // No renderer takes the textures: drop them as handled.
            output.textures_delta.clear();
            if done < edits && start.elapsed() >= gap * (done as u32 + 1) {
                let (w, _) = app.state.map_size();
                let inner = w.saturating_sub(2).max(1);
                let p = tilesmith_engine::Pos::new(1 + done % inner, 1 + done / inner);
                app.state.selection = Some(crate::tools::CellRect::span(p, p));
                app.state.apply(crate::state::MapAction::DeleteSelection);
                let mut out = std::io::stdout().lock();
                let _ = writeln!(out, "edit {done}");
                let _ = out.flush();
                done += 1;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        ExitCode::SUCCESS
    }

    /// Starts watching the open file for changes on disk.
    pub fn enable_watch(&mut self) {
        self.watching = true;
    }

    /// Replaces the document by a generated 500×500 level and benchmarks `frames` frames.
    pub fn start_bench(&mut self, frames: u32) {
        self.state
            .apply(Action::Answer(crate::state::Answer::Cancel));
        let side = std::env::var("TILESMITH_BENCH_SIZE")
            .ok()
            .and_then(|s| s.parse::<usize>().ok())
            .unwrap_or(500);
        let kind = std::env::var("TILESMITH_BENCH_KIND").unwrap_or_default();
        let kinds = self.state.kinds;
        let entry = kinds.entry(&kind).unwrap_or(kinds.default_entry());
        self.state = EditorState::with_kinds(kinds, (entry.bench_doc)(side));
        self.bench = Some(Bench {
            frames: frames.max(2),
            done: 0,
            last: None,
            total: Duration::ZERO,
        });
    }

    /// Starts an export the state asked for, shows the running one's progress (Cancel asks
    /// it to stop), and reports its outcome in the status bar.
    fn export_frame(&mut self, ctx: &egui::Context) {
        if let Some(req) = self.state.export_request.take() {
            if let Some(old) = self.ui.export.take() {
                old.cancel();
            }
            self.ui.export = Some(crate::export::job::ExportJob::spawn(req, self.ui.uis));
        }
        let Some(job) = &self.ui.export else { return };
        if let Some(outcome) = job.poll() {
            self.ui.export = None;
            let msg = outcome.unwrap_or_else(|e| format!("export failed: {e}"));
            self.state.apply(Action::ExportFinished(msg));
            // The status bar's message comes after this frame was drawn.
            ctx.request_repaint();
            return;
        }
        if ui::export_ui::export_progress(ctx, job) {
            job.cancel();
        }
        ctx.request_repaint_after(Duration::from_millis(50));
    }

    /// Applies the actions a frame collected. What they change was not in the frame just
    /// drawn (the UI pushes them while drawing; a worker's result, such as the computer's
    /// move, arrives the same way): one more frame shows it without waiting for an input
    /// event. Nothing is pushed on an idle frame, so this never spins.
    fn apply_frame_actions(&mut self, ctx: &egui::Context, out: Vec<Action>) {
        if !out.is_empty() {
            ctx.request_repaint();
        }
        for a in out {
            self.state.apply(a);
            if let Some(text) = self.state.clipboard_out.take() {
                // The copied cells as the level's JSON cell array: they paste into a text
                // editor, and back into Tilesmith (Ctrl+V arrives as a paste event with them).
                ctx.copy_text(text);
            }
        }
    }

    /// One frame: draw, then apply the actions, then sync title, watcher and timers.
    pub fn frame(&mut self, ui: &mut Ui) {
        let ctx = ui.ctx().clone();
        let mut out = Vec::new();
        if let Some(b) = &mut self.bench {
            let size = self.state.map_size();
            bench_frame(b, &ctx, size, &mut out);
        }
        // A step computing on a worker (issue 15): collect it once done, and look again soon.
        self.state.poll_step();
        self.state.poll_load();
        if self.state.step_busy().is_some() || self.state.loading().is_some() {
            ctx.request_repaint_after(Duration::from_millis(30));
        }
        // A view that shows the whole map follows a resize of the window (not of a panel:
        // panels shown, hidden, resized or switched keep the zoom and the pan).
        let screen = ctx.content_rect().size();
        let window_resized = self.last_screen.is_some_and(|s| s != screen);
        self.last_screen = Some(screen);
        let was_fit = {
            let (w, h) = self.state.map_size();
            let mut fitted = self.state.view;
            fitted.fit(w, h);
            fitted == self.state.view
        };
        let canvas = self.state.view.canvas;
        ui::draw(ui, &self.state, &mut self.ui, &mut out);
        if let Some(job) = self.state.loading() {
            ui::step_ui::load_progress(&ctx, job, &mut out);
        }
        // A key or a click ends the settling early: what the user does then (hiding a panel)
        // keeps the view.
        let acted = ctx.input(|i| {
            i.events.iter().any(|e| {
                matches!(
                    e,
                    egui::Event::Key { .. } | egui::Event::PointerButton { .. }
                )
            })
        });
        let first = self.frames == 0;
        let settling = self.frames < SETTLE_FRAMES && !acted;
        self.frames = if acted {
            SETTLE_FRAMES
        } else {
            (self.frames + 1).min(SETTLE_FRAMES)
        };
        let canvas_changed = out
            .iter()
            .any(|a| matches!(a, Action::CanvasSize(s) if *s != canvas));
        if first || (settling && canvas_changed) || (window_resized && was_fit) {
            out.push(Action::Fit);
            // This frame was drawn before the fit: draw it again.
            ctx.request_repaint();
        }
        if let Some(p) = self.state.doc.play() {
            let pressed = ctx.input(|i| {
                [
                    egui::Key::ArrowLeft,
                    egui::Key::ArrowRight,
                    egui::Key::ArrowUp,
                    egui::Key::ArrowDown,
                ]
                .into_iter()
                .any(|k| i.key_pressed(k))
            });
            if p.running {
                if pressed {
                    self.latched = ui::held_input(&ctx, &self.state).or(self.latched);
                }
                let held = ui::held_input(&ctx, &self.state).or(self.latched);
                let dt = ctx.input(|i| i.stable_dt).min(0.25) as f64;
                let before = p.game.steps();
                out.push(PlayAction::Advance { dt, held }.into());
                ctx.request_repaint();
                self.pending_latch_clear = Some(before);
            }
        }
        self.apply_frame_actions(&ctx, out);
        if let (Some(before), Some(p)) = (self.pending_latch_clear.take(), self.state.doc.play())
            && p.game.steps() != before
        {
            self.latched = None;
        }
        self.export_frame(&ctx);
        if self.state.refresh() {
            // The problems list changed after this frame was drawn.
            ctx.request_repaint();
        }
        if self.state.problems_pending() {
            ctx.request_repaint_after(Duration::from_millis(50));
        }
        let title = self.state.title();
        if title != self.last_title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.last_title = title;
        }
        self.poll_watch(&ctx);
        // Autosave (debounced, written by a worker): the clock asks to be called again when
        // the next copy is due, so an idle window still writes it.
        if let Some(wait) = self.state.autosave_tick(Instant::now()) {
            ctx.request_repaint_after(wait);
        }
        // Closing: ask first when there are unsaved changes.
        if ctx.input(|i| i.viewport().close_requested()) && !self.state.close_ok {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.state.apply(Action::Quit);
        }
        if self.state.close_ok {
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
    }

    fn poll_watch(&mut self, ctx: &egui::Context) {
        if !self.watching {
            return;
        }
        let want = self.state.path.clone();
        if self.watch.as_ref().map(|w| &w.file) != want.as_ref() {
            self.watch = want.and_then(|f| start_watch(&f, ctx));
        }
        let Some(w) = &mut self.watch else { return };
        let name = w.file.file_name().map(|n| n.to_os_string());
        while let Ok(ev) = w.rx.try_recv() {
            if let Ok(ev) = ev
                && ev
                    .paths
                    .iter()
                    .any(|p| p.file_name().map(|n| n.to_os_string()) == name)
            {
                w.dirty_since = Some(Instant::now());
            }
        }
        if let Some(t) = w.dirty_since {
            if t.elapsed() >= WATCH_DEBOUNCE {
                w.dirty_since = None;
                if self.state.pending.is_none()
                    || matches!(self.state.pending, Some(Pending::Message(_)))
                {
                    self.state.apply(Action::DiskChanged);
                } else {
                    w.dirty_since = Some(Instant::now());
                }
            }
            ctx.request_repaint_after(WATCH_DEBOUNCE);
        }
    }
}

fn start_watch(file: &Path, ctx: &egui::Context) -> Option<Watch> {
    use notify::Watcher as _;
    let dir = file
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .to_path_buf();
    let (tx, rx) = channel();
    let handler = {
        let (tx, ctx) = (tx.clone(), ctx.clone());
        move |res| {
            let _ = tx.send(res);
            ctx.request_repaint();
        }
    };
    // The platform's watcher (inotify on Linux); if it cannot start (no inotify in some
    // sandboxes), poll the folder once a second instead.
    let native = notify::recommended_watcher(handler).and_then(|mut w| {
        w.watch(&dir, notify::RecursiveMode::NonRecursive)?;
        Ok(Box::new(w) as Box<dyn notify::Watcher + Send>)
    });
    let watcher = match native {
        Ok(w) => w,
        Err(_) => {
            let ctx = ctx.clone();
            let config = notify::Config::default()
                .with_poll_interval(Duration::from_secs(1))
                .with_compare_contents(true);
            let mut w = notify::PollWatcher::new(
                move |res| {
                    let _ = tx.send(res);
                    ctx.request_repaint();
                },
                config,
            )
            .ok()?;
            w.watch(&dir, notify::RecursiveMode::NonRecursive).ok()?;
            Box::new(w)
        }
    };
    Some(Watch {
        file: file.to_path_buf(),
        _watcher: watcher,
        rx,
        dirty_since: None,
    })
}

impl eframe::App for TilesmithApp {
    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        self.frame(ui);
    }
}

fn bench_frame(b: &mut Bench, ctx: &egui::Context, (w, h): (usize, usize), out: &mut Vec<Action>) {
    let now = Instant::now();
    if let Some(last) = b.last {
        b.total += now - last;
        b.done += 1;
    }
    b.last = Some(now);
    // Alternate panning and zooming, through zooms from "whole map" to "large glyphs".
    let phase = b.done % 120;
    match phase {
        0 => out.push(Action::Fit),
        1..=39 => out.push(Action::ZoomAt {
            factor: 1.08,
            at: [400.0, 300.0],
        }),
        40..=79 => out.push(Action::Pan([-9.0, -5.0])),
        _ => out.push(Action::ZoomAt {
            factor: 1.0 / 1.08,
            at: [300.0, 200.0],
        }),
    }
    ctx.request_repaint();
    if b.done >= b.frames {
        let mean = b.total.as_secs_f64() * 1000.0 / b.done as f64;
        println!(
            "bench: {} frames of a {w}x{h} level (pan and zoom), mean frame time {mean:.2} ms ({:.0} fps)",
            b.done,
            1000.0 / mean
        );
        ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        b.frames = u32::MAX;
    }
}
