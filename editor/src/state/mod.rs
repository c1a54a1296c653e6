//! The editor shell's state and the actions that change it. No egui call happens here, and no
//! game kind is named: the open level is a `Box<dyn` [`KindDoc`]`>` (see [`crate::doc`]).
//!
//! [`EditorState`] holds the document, the file it came from, the tools, the selection, the
//! viewport, dialogs, settings and autosave. It changes only through [`EditorState::apply`]
//! with an [`Action`]; the UI pushes actions while drawing and the app applies them afterwards.
//! Actions come in four parts: the shell's own (files, view, selection), [`MapAction`]s (the
//! generic map document), [`PlayAction`]s (the generic play session) and [`KindAction`](crate::doc::KindAction)s (only
//! the open kind understands them).

mod action;
mod autosave_ops;
mod campaign_ops;
mod chooser_ops;
mod export_ops;
mod files_ops;
mod level_ops;
mod load_ops;
mod step_ops;
pub mod view;
mod view_ops;
mod work;

use std::path::PathBuf;

use serde_json::Value;
use tilesmith_engine::problem::PathSeg;
use tilesmith_engine::{GameKind, Pos, Problem};

use crate::campaign::{CampaignAction, CampaignState};
use crate::doc::registry::Kinds;
use crate::doc::{Cx, KindDoc};
use crate::files::{Autosave, AutosaveTimer, AutosaveWorker, Dialogs, ScriptedDialogs, Settings};
use crate::tools::{Button, CellRect, Tool};
pub use action::{Action, Answer, MapAction, Pending, PlayAction};
pub use export_ops::EXPORT_SCALE;
pub use files_ops::{default_level_file, parse_document, read_document};
pub use step_ops::StepBusy;
pub use view::{ExportWhat, Pane, SideTab, Viewport, ZOOM_RANGE};
pub use work::{ExportRequest, LoadJob};

/// Something that becomes an open document: a kind's level type (implemented in the kind's
/// module) or a document already boxed.
pub trait IntoDoc {
    /// The document.
    fn into_doc(self) -> Box<dyn KindDoc>;
}

impl IntoDoc for Box<dyn KindDoc> {
    fn into_doc(self) -> Box<dyn KindDoc> {
        self
    }
}

/// The whole editor state.
pub struct EditorState {
    /// The kinds the editor edits, handed down from the top (the app or the CLI builds the
    /// list): what opens documents, makes new ones and gives a kind's UI.
    pub kinds: Kinds,
    /// The open document, of whatever kind.
    pub doc: Box<dyn KindDoc>,
    /// The file it was loaded from or saved to (`None`: untitled).
    pub path: Option<PathBuf>,
    /// The file's text as last read or written by the editor (to tell our own writes from
    /// external changes).
    pub disk_text: Option<String>,
    /// Files other than the level that Save may write without asking (issue #30): the
    /// kind's files the user opened here (a `.zrf`) and those the user agreed to write.
    pub writable: Vec<PathBuf>,
    /// The canvas tool.
    pub tool: Tool,
    /// Rectangles are filled.
    pub rect_filled: bool,
    /// The selected rectangle.
    pub selection: Option<CellRect>,
    /// The cell shown in the inspector (outlined on the map): the design's while editing, the
    /// game's while playing.
    pub inspect: Option<Pos>,
    /// The design's inspected cell, kept while a game is played.
    design_inspect: Option<Pos>,
    /// The cell under the pointer.
    pub hover: Option<Pos>,
    /// The last cell that was under the pointer (kept when it leaves the map, so the play
    /// pane's cell history stays readable).
    pub last_hover: Option<Pos>,
    /// The view of the canvas.
    pub view: Viewport,
    /// The page the side panel shows.
    pub side_tab: SideTab,
    /// Settings kept between runs.
    pub settings: Settings,
    /// Where settings are saved (`None`: not saved, e.g. in tests).
    pub settings_file: Option<PathBuf>,
    /// An export asked for and not yet started (the app runs it on a worker thread).
    pub export_request: Option<ExportRequest>,
    /// The autosave location (`None`: no autosave, e.g. in tests).
    pub autosave: Option<Autosave>,
    /// Why the last autosave failed; shown as a warning until a copy is written again.
    pub autosave_error: Option<String>,
    /// The question waiting for an answer.
    pub pending: Option<Pending>,
    /// Counts the documents opened or created in this window (for caches keyed by document).
    pub doc_serial: u64,
    /// A one-line status message (last save, errors).
    pub status: String,
    /// The file dialogs.
    pub dialogs: Box<dyn Dialogs>,
    /// The Replace dialog is open (Ctrl+H).
    pub replace_open: bool,
    /// The keyboard shortcut sheet is open (F1).
    pub shortcuts_open: bool,
    /// The New level dialog is open (File → New…, Ctrl+N).
    pub new_dialog: bool,
    /// The export dialog, while it is open: what it exports.
    pub export_dialog: Option<ExportWhat>,
    /// The built-in file chooser's request, while it is shown (no native dialog available).
    pub chooser: Option<crate::files::Chooser>,
    /// What the unsaved-changes question was asked for (Open, New, Quit…) when its Save
    /// opened the built-in chooser: done once the chooser saved the level.
    after_chooser_save: Option<Box<Action>>,
    /// True once the editor may close (no unsaved changes, or the user agreed).
    pub close_ok: bool,
    /// Open files and compute play steps on worker threads without waiting for them
    /// (`state/load_ops.rs`, `doc/step_job.rs`), collected by the window's frames
    /// ([`EditorState::poll_load`], [`EditorState::poll_step`]). Set by the window; off
    /// (files read and steps computed before `apply` returns) where no frames run, as in
    /// the state tests, exports and the CLI.
    pub background_work: bool,
    /// The problems of the current level: exactly what `tilesmith check` reports for the
    /// document as it would be saved (refreshed by [`EditorState::refresh`]).
    pub problems: Vec<Problem>,
    /// Text the system clipboard should receive (set by Copy and Cut; the app takes it).
    pub clipboard_out: Option<String>,
    /// The open campaign, if any: its overview is shown instead of the level while
    /// [`CampaignState::showing`].
    pub campaign: Option<CampaignState>,
    /// Set by an answer so the next campaign action skips the unsaved-changes question.
    campaign_confirmed: bool,
    /// The last text put on the system clipboard (a paste of it needs no parsing).
    clipboard_sent: Option<String>,
    problems_gen: Option<(u64, u64)>,
    /// A check of a large map running on a worker: its key and the job giving its answer.
    problems_job: Option<((u64, u64), ProblemsAnswer)>,
    /// Set by an answer so the next file action skips the unsaved-changes question.
    confirmed: bool,
    /// A level file being read on a worker, and one read, waiting to be opened.
    loading: Option<LoadJob>,
    loaded: Option<(PathBuf, work::ReadResult)>,
    /// The history generation last autosaved.
    autosaved_gen: u64,
    /// An autosave copy of this document may be in the data folder (this session wrote one,
    /// or it was restored from one): reaching the saved state again removes it.
    autosave_on_disk: bool,
    /// When the next autosave copy is due.
    autosave_timer: AutosaveTimer,
    /// The thread that writes autosave copies (started with the first).
    autosave_worker: Option<AutosaveWorker>,
}

impl std::fmt::Debug for EditorState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EditorState")
            .field("kind", &self.doc.kind().name())
            .field("path", &self.path)
            .field("tool", &self.tool)
            .finish_non_exhaustive()
    }
}

/// A check running on a worker: its answer is the problems.
type ProblemsAnswer = crate::job::Job<Vec<Problem>>;

/// Maps with at most this many cells are checked at once after an edit; larger ones on a
/// worker thread (a 500×500 boulder check takes about 0.5 s in a debug build).
pub const SYNC_CHECK_CELLS: usize = 40_000;

impl EditorState {
    /// A state editing `doc` (untitled) with the kinds `kinds`, with scripted dialogs that
    /// answer nothing, no settings file and no autosave. The app replaces those for real use.
    /// (`EditorState::new`, in `app.rs`, is this with the editor's own list of kinds.)
    pub fn with_kinds(kinds: Kinds, doc: impl IntoDoc) -> Self {
        let mut s = Self {
            kinds,
            doc: doc.into_doc(),
            path: None,
            disk_text: None,
            writable: Vec::new(),
            tool: Tool::Pencil,
            rect_filled: true,
            selection: None,
            inspect: None,
            design_inspect: None,
            hover: None,
            last_hover: None,
            view: Viewport::default(),
            side_tab: SideTab::default(),
            settings: Settings::default(),
            settings_file: None,
            autosave: None,
            export_request: None,
            autosave_error: None,
            pending: None,
            doc_serial: 0,
            status: String::new(),
            dialogs: Box::new(ScriptedDialogs::default()),
            replace_open: false,
            shortcuts_open: false,
            new_dialog: false,
            export_dialog: None,
            chooser: None,
            after_chooser_save: None,
            close_ok: false,
            problems: Vec::new(),
            clipboard_out: None,
            campaign: None,
            campaign_confirmed: false,
            clipboard_sent: None,
            problems_gen: None,
            problems_job: None,
            confirmed: false,
            loading: None,
            loaded: None,
            background_work: false,
            autosaved_gen: 0,
            autosave_on_disk: false,
            autosave_timer: AutosaveTimer::default(),
            autosave_worker: None,
        };
        s.doc.refresh();
        s
    }

    /// The open document as kind `T` (a kind's module downcasting to its own document).
    pub fn doc_as<T: 'static>(&self) -> Option<&T> {
        self.doc.as_any().downcast_ref::<T>()
    }

    /// The open document as kind `T`, to change (tests and a kind's own module).
    pub fn doc_as_mut<T: 'static>(&mut self) -> Option<&mut T> {
        self.doc.as_any_mut().downcast_mut::<T>()
    }

    /// The engine kind of the open document.
    pub fn kind(&self) -> &'static dyn GameKind {
        self.doc.kind()
    }

    /// The name of the open document's kind (`boulder`, `baba`).
    pub fn kind_name(&self) -> &'static str {
        self.doc.kind().name()
    }

    /// The size in cells (width, height) of the map as shown: the play state's while playing,
    /// else the design's.
    pub fn map_size(&self) -> (usize, usize) {
        self.doc.shown_size()
    }

    /// True while a play session runs.
    pub fn playing(&self) -> bool {
        self.doc.play().is_some()
    }

    /// The open document as a level file document.
    pub fn doc_json(&self) -> Value {
        self.doc.to_json()
    }

    /// True when there are unsaved changes.
    pub fn dirty(&self) -> bool {
        self.doc.map().dirty()
    }

    /// The window title: file name, a `*` when dirty, and the app name (the campaign's
    /// file while its overview is shown).
    pub fn title(&self) -> String {
        if let Some(c) = self.campaign.as_ref().filter(|c| c.showing) {
            let name = c.file.file_name().map_or_else(
                || "campaign".to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            let star = if c.dirty() { "*" } else { "" };
            return format!("{name}{star} (campaign) — Tilesmith");
        }
        let name = self.path.as_ref().and_then(|p| p.file_name()).map_or_else(
            || "untitled".to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        format!("{name}{} — Tilesmith", if self.dirty() { "*" } else { "" })
    }

    /// The problems of the design, recomputed when it changed: the engine's
    /// `GameKind::check` of the document as it would be saved, so the list says exactly what
    /// `tilesmith check` says of the saved file. A map of more than [`SYNC_CHECK_CELLS`]
    /// cells is checked on a worker thread, so an edit never waits for it; the list keeps the
    /// previous answer until the new one arrives (see [`EditorState::problems_pending`]). True when the list was set anew (the caller
    /// draws it again).
    pub fn refresh(&mut self) -> bool {
        self.doc.refresh();
        let key = (self.doc_serial, self.doc.map().generation());
        let mut arrived = false;
        if let Some((k, job)) = &self.problems_job {
            match job.poll() {
                Some(Ok(p)) => {
                    if *k == key {
                        self.problems = tilesmith_engine::problem::cap(p);
                        arrived = true;
                    }
                    // A stale answer is dropped; the check below runs for the latest design.
                    self.problems_job = None;
                }
                // One worker at a time: the latest design is checked when it is done.
                None => return false,
                // The check panicked (a bug): the next refresh checks again.
                Some(Err(_)) => {
                    self.problems_job = None;
                    self.problems_gen = None;
                }
            }
        }
        if self.problems_gen == Some(key) {
            return arrived;
        }
        self.problems_gen = Some(key);
        let (w, h) = self.doc.map().size();
        if w * h <= SYNC_CHECK_CELLS {
            let mut p = self.doc.kind().check(&self.doc.to_json());
            p.extend(self.file_warnings());
            self.problems = tilesmith_engine::problem::cap(p);
            return true;
        }
        let job = self.doc.check_job();
        let warnings = self.file_warnings();
        match crate::job::Job::spawn("tilesmith-check", move |_| {
            let mut p = job();
            p.extend(warnings);
            p
        }) {
            Ok(job) => self.problems_job = Some((key, job)),
            Err(_) => self.problems_gen = None,
        }
        arrived
    }

    /// The problems of the design as it is now, waiting for (or doing) the check when the list
    /// may be stale: Play and Save decide on it.
    pub fn check_now(&mut self) {
        let key = (self.doc_serial, self.doc.map().generation());
        if self.problems_gen == Some(key) && self.problems_job.is_none() {
            return;
        }
        self.problems_job = None;
        self.problems_gen = Some(key);
        let mut p = self.doc.kind().check(&self.doc.to_json());
        p.extend(self.file_warnings());
        self.problems = tilesmith_engine::problem::cap(p);
    }

    /// True while the problems list waits for the check of a large map (the app repaints
    /// until it arrives).
    pub fn problems_pending(&self) -> bool {
        self.problems_job.is_some()
    }

    /// Applies one action, then keeps the document's derived data in step.
    pub fn apply(&mut self, action: impl Into<Action>) {
        let before = (self.playing(), self.doc_serial);
        let action = action.into();
        let size = self.map_size();
        let kind_action = matches!(action, Action::Kind(_));
        self.sync_background();
        self.apply_action(action);
        self.keep_design_inspect(before);
        // A kind's own action that gives the map another size (a board's rules that compile
        // for the first time after they were fixed, or that lay out another board) fits it to
        // the canvas, as a level just opened is; a resize the user asked for keeps the view.
        if kind_action && self.map_size() != size {
            self.view.refit = true;
        }
        self.sync_background();
        self.doc.refresh();
        self.campaign_after_action();
    }

    /// The inspected cell is the design's while editing and the game's while playing: play
    /// starts with none (the design's one-cell selection, hidden during play, is not outlined
    /// on the game) and stopping brings the design's back. `before` is whether a game was
    /// played, and the document's serial, before the action (a document opened meanwhile
    /// forgets the kept cell).
    fn keep_design_inspect(&mut self, (was_playing, serial): (bool, u64)) {
        if serial != self.doc_serial {
            self.design_inspect = None;
            return;
        }
        match (was_playing, self.playing()) {
            (false, true) => self.design_inspect = self.inspect.take(),
            (true, false) => self.inspect = self.design_inspect.take(),
            _ => {}
        }
    }

    fn apply_action(&mut self, action: Action) {
        if self.step_refuses(&action) || self.load_refuses(&action) {
            return;
        }
        if self.showing_overview() {
            // The level is hidden behind the overview: its edits and play keys wait; undo
            // and redo are the campaign's.
            match action {
                Action::Map(MapAction::Undo) => return self.campaign_action(CampaignAction::Undo),
                Action::Map(MapAction::Redo) => return self.campaign_action(CampaignAction::Redo),
                Action::Map(_) | Action::Play(_) | Action::Kind(_) | Action::ReplaceAll => return,
                _ => {}
            }
        }
        match action {
            Action::Campaign(a) => self.campaign_action(a),
            Action::Map(a) => self.map_action(a),
            Action::Play(a) if self.campaign_refuses(&a) => {}
            Action::Play(a) => self.play_action(a),
            Action::Kind(a) => {
                self.with_cx(|doc, cx| doc.apply(&a, cx));
                self.clip_selection();
            }
            Action::ReplaceAll => {
                if self.playing() {
                    self.status = "stop playing (F5) to edit the design".into();
                    return;
                }
                self.with_cx(|doc, cx| {
                    doc.replace_all(cx);
                });
            }
            Action::ShowReplace(on) => self.replace_open = on && self.doc.has_replace_all(),
            Action::ShowShortcuts(on) => self.shortcuts_open = on,
            Action::ShowNewLevel(on) => self.new_dialog = on,
            Action::ShowExport(what) => self.export_dialog = what,
            Action::SetExportScale(n) => {
                let n = n.clamp(1, crate::files::MAX_EXPORT_SCALE);
                if n != self.settings.export_scale {
                    self.settings.export_scale = n;
                    self.save_settings();
                }
            }
            Action::NewLevel(spec) => self.new_level(spec),
            Action::SelectTool(t) => {
                self.tool = t;
                self.doc.map_mut().stroke_cancel();
                self.doc.unhover();
            }
            Action::SetRectFilled(f) => self.rect_filled = f,
            Action::Hover(p) => {
                self.hover = p;
                if p.is_some() {
                    self.last_hover = p;
                }
            }
            Action::SelectAll if !self.doc.has_grid() => {}
            Action::SelectAll => {
                let (w, h) = self.map_size();
                self.selection = Some(CellRect {
                    x0: 0,
                    y0: 0,
                    x1: w.saturating_sub(1),
                    y1: h.saturating_sub(1),
                });
            }
            Action::SelectNone => self.selection = None,
            Action::Inspect(p) => self.inspect = p,
            Action::SideTab(t) => {
                self.doc.unhover();
                self.side_tab = t;
            }
            Action::ToggleGrid => {
                self.settings.grid = !self.settings.grid;
                self.save_settings();
            }
            Action::ShowPane(pane, on) => {
                let s = &mut self.settings;
                let flag = match pane {
                    Pane::Palette => &mut s.show_palette,
                    Pane::Side => &mut s.show_side,
                    Pane::Problems => &mut s.show_problems,
                };
                let on = on.unwrap_or(!*flag);
                if *flag != on {
                    *flag = on;
                    self.save_settings();
                }
            }
            a @ (Action::ZoomAt { .. }
            | Action::ZoomIn
            | Action::ZoomOut
            | Action::Fit
            | Action::Pan(_)
            | Action::CanvasSize(_)
            | Action::Locate(_)) => self.view_action(a),
            other => self.file_action(other),
        }
    }

    /// Runs `f` on the document with the parts of the shell a kind may change; a message it
    /// leaves becomes a dialog.
    fn with_cx(&mut self, f: impl FnOnce(&mut dyn KindDoc, &mut Cx<'_>)) {
        let mut message = None;
        let mut cx = Cx {
            status: &mut self.status,
            selection: &mut self.selection,
            inspect: &mut self.inspect,
            hover: self.hover,
            message: &mut message,
        };
        f(self.doc.as_mut(), &mut cx);
        if let Some(m) = message {
            self.pending = Some(Pending::Message(m));
        }
    }

    fn map_action(&mut self, a: MapAction) {
        let playing = self.playing();
        let edits = matches!(
            a,
            MapAction::Undo
                | MapAction::Redo
                | MapAction::HistoryGoTo(_)
                | MapAction::Cut
                | MapAction::Paste
                | MapAction::PasteText(_)
                | MapAction::DeleteSelection
                | MapAction::Resize { .. }
        );
        if playing && edits {
            // The map shows the game: edits to the hidden design would surprise.
            self.status = "stop playing (F5) to edit the design".into();
            return;
        }
        let history = matches!(
            a,
            MapAction::Undo | MapAction::Redo | MapAction::HistoryGoTo(_) | MapAction::CancelStroke
        );
        if !history && !self.doc.has_grid() {
            // A level that is not a grid: its kind handles the pointer and has no cells to
            // select, copy, paste or resize.
            return;
        }
        let map = self.doc.map_mut();
        match a {
            MapAction::CellPress { pos, button, alt } => self.press(pos, button, alt),
            MapAction::CellDrag(pos) => map.stroke_drag(pos),
            MapAction::CellRelease => {
                let sel = map.stroke_finish();
                self.stroke_selection(sel);
            }
            MapAction::CancelStroke => {
                if map.stroke_last().is_some() {
                    map.stroke_cancel();
                    self.status = "drag cancelled".into();
                }
            }
            MapAction::Undo => {
                if !map.undo() {
                    self.status = "nothing to undo".into();
                }
            }
            MapAction::Redo => {
                if !map.redo() {
                    self.status = "nothing to redo".into();
                }
            }
            MapAction::HistoryGoTo(n) => map.history_go_to(n),
            MapAction::Copy => {
                if let Some(r) = self.selection {
                    self.copy(r);
                }
            }
            MapAction::Cut => {
                if let Some(r) = self.selection {
                    self.copy(r);
                    self.doc.map_mut().clear(r, "Cut");
                }
            }
            MapAction::DeleteSelection => {
                if let Some(r) = self.selection {
                    map.clear(r, "Delete");
                }
            }
            MapAction::Paste => self.paste(),
            MapAction::PasteText(text) => {
                // Our own last copy is already the clipboard: no need to read it back.
                let ours = self.clipboard_sent.as_deref() == Some(text.as_str());
                if !ours && map.clipboard_from_text(&text) {
                    self.status = "pasting cells from the system clipboard".into();
                }
                self.paste();
            }
            MapAction::Resize {
                width,
                height,
                anchor,
            } => self.resize((width, height), anchor, false),
        }
        self.clip_selection();
    }

    fn copy(&mut self, r: CellRect) {
        // While playing, the map shows the game: copy what is shown.
        self.doc.copy_shown(r);
        self.clipboard_out = self.doc.map().clipboard_text();
        self.status = format!("copied {}×{} cells", r.width(), r.height());
        match &self.clipboard_out {
            Some(t) => self.clipboard_sent = Some(t.clone()),
            None => self
                .status
                .push_str(" (too many for the system clipboard: they paste within Tilesmith)"),
        }
    }

    fn press(&mut self, pos: Pos, button: Button, alt: bool) {
        if self.playing() {
            self.inspect = Some(pos);
            self.with_cx(|doc, cx| doc.play_press(pos, button, cx));
            return;
        }
        let (w, h) = self.map_size();
        if pos.x >= w || pos.y >= h {
            return;
        }
        if alt || self.tool == Tool::Eyedropper {
            self.doc.pick(pos, button);
            self.inspect = Some(pos);
            return;
        }
        self.doc
            .begin_stroke(self.tool, button, pos, self.rect_filled, self.selection);
    }

    fn paste(&mut self) {
        let at = self.paste_anchor();
        match self.doc.map_mut().paste(at) {
            Ok(rect) => {
                self.selection = rect;
                // The status bar says what happened last (not the copy before it).
                if let Some(r) = rect {
                    self.status = format!(
                        "pasted {}×{} cells at x {}, y {}",
                        r.width(),
                        r.height(),
                        r.x0,
                        r.y0
                    );
                }
            }
            Err(m) => self.status = m,
        }
    }

    /// The cell a paste puts the clipboard's top-left cell on: the hovered cell, else the
    /// selection's corner, else (0, 0).
    fn paste_anchor(&self) -> Pos {
        self.hover
            .or(self.selection.map(|r| Pos::new(r.x0, r.y0)))
            .unwrap_or_default()
    }

    /// Applies the selection a finished stroke gives (`None`: unchanged); a one-cell selection
    /// is also inspected.
    fn stroke_selection(&mut self, selection: Option<Option<CellRect>>) {
        if let Some(sel) = selection {
            self.selection = sel;
            if let Some(r) = sel
                && r.width() == 1
                && r.height() == 1
            {
                self.inspect = Some(Pos::new(r.x0, r.y0));
            }
        }
    }

    fn play_action(&mut self, a: PlayAction) {
        match a {
            PlayAction::Start => self.play_start(),
            PlayAction::Stop => {
                self.doc.stop_play();
                self.clip_selection();
            }
            PlayAction::Run(on) => {
                if !self.doc.real_time() {
                    return;
                }
                if on {
                    self.doc.play_settle();
                }
                if let Some(p) = self.doc.play_mut() {
                    p.running = on && p.game.takes_turns();
                }
            }
            PlayAction::Step(i) => {
                let Some(p) = self.doc.play() else { return };
                let input = i.unwrap_or(p.chosen);
                self.doc.play_step(input);
            }
            PlayAction::Back => self.doc.play_back(),
            PlayAction::Forward => self.doc.play_forward(),
            PlayAction::Reset => self.doc.play_reset(),
            PlayAction::Scrub(t) => self.doc.play_scrub(t),
            PlayAction::Speed(s) => {
                if let Some(p) = self.doc.play_mut() {
                    p.speed = s.clamp(0.1, 10.0);
                }
            }
            PlayAction::Choose(i) => {
                if let Some(p) = self.doc.play_mut() {
                    p.chosen = i;
                }
            }
            PlayAction::Advance { dt, held } => {
                let Some(p) = self.doc.play_mut() else { return };
                let input = held.unwrap_or(p.chosen);
                // Each step may wait for its worker up to `STEP_WAIT`; a frame stops
                // computing once it has spent `FRAME_STEP_BUDGET` (the rest is dropped).
                let t0 = std::time::Instant::now();
                for _ in 0..p.due(dt) {
                    self.doc.play_held(input);
                    let going = self
                        .doc
                        .play()
                        .is_some_and(|p| p.running && p.computing().is_none());
                    if !going || t0.elapsed() > crate::doc::step_job::FRAME_STEP_BUDGET {
                        break;
                    }
                }
            }
            // Only reached while no step computes (see `step_refuses`).
            PlayAction::CancelStep => {}
            PlayAction::UseAsDesign => self.use_as_design(),
            PlayAction::Record => self.record(),
            PlayAction::KeepIntended => self.keep_intended(),
            PlayAction::ExportGif => self.export_gif(),
        }
    }

    fn use_as_design(&mut self) {
        self.doc.play_settle();
        let Some(steps) = self.doc.play().map(|p| p.steps()) else {
            return;
        };
        let name = format!("Use play state ({} {steps})", self.doc.step_noun());
        if let Err(m) = self.doc.use_play_state(&name) {
            self.status = format!("cannot use this state as the design: {m}");
        }
        self.clip_selection();
    }

    fn clip_selection(&mut self) {
        let (w, h) = self.map_size();
        self.selection = self.selection.and_then(|r| r.clip(w, h));
        if self.inspect.is_some_and(|p| p.x >= w || p.y >= h) {
            self.inspect = None;
        }
    }
}

/// The map cell a problem is about: its `cell`, or a `$.map[y][x]…` path.
pub fn problem_cell(p: &Problem) -> Option<Pos> {
    if p.cell.is_some() {
        return p.cell;
    }
    match p.path.0.as_slice() {
        [PathSeg::Key(k), PathSeg::Index(y), PathSeg::Index(x), ..] if k == "map" => {
            Some(Pos::new(*x, *y))
        }
        _ => None,
    }
}
