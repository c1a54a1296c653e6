//! The editor shell's state and the actions that change it. No egui call happens here, and no
//! game kind is named: the open level is a `Box<dyn` [`KindDoc`]`>` (see [`crate::doc`]).
//!
//! [`EditorState`] holds the document, the file it came from, the tools, the selection, the
//! viewport, dialogs, settings and autosave. It changes only through [`EditorState::apply`]
//! with an [`Action`]; the UI pushes actions while drawing and the app applies them afterwards.
//! Actions come in four parts: the shell's own (files, view, selection), [`MapAction`]s (the
//! generic map document), [`PlayAction`]s (the generic play session) and [`KindAction`]s (only
//! the open kind understands them).

mod files_ops;
pub mod view;

use std::path::PathBuf;

use serde_json::Value;
use tilesmith_engine::problem::PathSeg;
use tilesmith_engine::{GameKind, Input, Pos, Problem};

use crate::doc::{Cx, KindAction, KindDoc};
use crate::files::{Autosave, Dialogs, Found, ScriptedDialogs, Settings};
use crate::tools::{Button, CellRect, Tool};
pub use files_ops::{default_level_file, parse_document, read_document};
pub use view::{Viewport, ZOOM_RANGE};

/// Which page the right-hand side panel shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SideTab {
    /// The cell inspector, level properties and history (while playing: the play pane and
    /// the inspector).
    #[default]
    Main,
    /// The rules page of the kind (boulder: the rule editor, whose selected rule's matches are
    /// outlined on the canvas; baba: the live rule list).
    Rules,
}

/// A question the editor is waiting for the user to answer (shown as a modal dialog).
#[derive(Clone, Debug)]
pub enum Pending {
    /// There are unsaved changes; `then` runs after Save or Discard.
    Unsaved {
        /// The action that asked (open, new, quit, …).
        then: Box<Action>,
    },
    /// The open file changed on disk while there are unsaved edits: keep which version?
    ExternalChange {
        /// The new text on disk.
        text: String,
    },
    /// An autosave copy was left behind (a crash?): restore it?
    RestoreAutosave(Found),
    /// A message to acknowledge (e.g. a file that could not be opened).
    Message(String),
}

/// The answers to a [`Pending`] question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Save, then go on.
    Save,
    /// Drop the unsaved changes and go on.
    Discard,
    /// Do nothing.
    Cancel,
    /// Keep the editor's version (the file on disk stays as it is until the next save).
    KeepMine,
    /// Load the version on disk (undoable).
    TakeDisk,
    /// Restore the autosave copy.
    Restore,
    /// Delete the autosave copy.
    DropAutosave,
    /// Close a message.
    Ok,
}

/// Actions on the design's map: the generic map document of any kind.
#[derive(Clone, Debug)]
pub enum MapAction {
    /// A mouse button went down on a cell; `alt` picks instead of painting.
    CellPress {
        /// The cell (x = column, y = row).
        pos: Pos,
        /// Left (primary) or right (secondary).
        button: Button,
        /// Alt was held: eyedropper.
        alt: bool,
    },
    /// The pointer moved to a cell during a stroke (clamped into the map).
    CellDrag(Pos),
    /// The mouse button went up: finish the stroke.
    CellRelease,
    /// Undo the last edit.
    Undo,
    /// Redo the last undone edit.
    Redo,
    /// Undo or redo until this many edits are applied (history list).
    HistoryGoTo(usize),
    /// Copy the selection to the clipboard (the editor's, and the system's as JSON cells).
    Copy,
    /// Copy the selection, then empty it.
    Cut,
    /// Paste the clipboard at the hovered cell (or the selection's corner, or 0, 0).
    Paste,
    /// Paste text from the system clipboard: a JSON cell array of this kind becomes the
    /// clipboard first; other text pastes the editor's clipboard.
    PasteText(String),
    /// Empty the selection.
    DeleteSelection,
    /// Resize the map to `width` × `height`; `anchor` (0–2, 0–2) says which side stays:
    /// (0, 0) keeps the top-left, (1, 1) the centre, (2, 2) the bottom-right. New cells are
    /// empty (boulder: `path`; baba: no object).
    Resize {
        /// New width in cells.
        width: usize,
        /// New height in cells.
        height: usize,
        /// (horizontal, vertical) anchor, each 0, 1 or 2.
        anchor: (u8, u8),
    },
}

/// Actions on the play session: the generic session over `dyn Game`.
#[derive(Clone, Debug)]
pub enum PlayAction {
    /// Start playing the current design (refused, with the first error located, when the
    /// design has errors).
    Start,
    /// Stop playing; the design is as it was.
    Stop,
    /// Run (true) or pause.
    Run(bool),
    /// One step with this input (`None`: the input chosen in the pane, by default wait). The
    /// kind's undo and restart inputs go back instead.
    Step(Option<Input>),
    /// Undo one step.
    Back,
    /// Redo one step.
    Forward,
    /// Start again (boulder: a new game from the design; baba: the game's restart).
    Reset,
    /// Go to this step of the history.
    Scrub(u64),
    /// Set the speed factor (1 = the kind's steps per second).
    Speed(f32),
    /// Set the input used by Step and by running with no key held.
    Choose(Input),
    /// Time passed while running: `dt` seconds, with the input held on the keyboard.
    Advance {
        /// Seconds since the last frame.
        dt: f64,
        /// The input held on the keyboard, if any.
        held: Option<Input>,
    },
    /// Copy the play state into the design, as one undoable edit.
    UseAsDesign,
    /// Save the session as a replay file (asks where).
    Record,
}

/// Every change to the editor state. UI code pushes these; [`EditorState::apply`] runs them.
#[derive(Clone, Debug)]
pub enum Action {
    /// Choose the canvas tool.
    SelectTool(Tool),
    /// Rectangles are filled (true) or outlines.
    SetRectFilled(bool),
    /// The cell under the pointer (for the readout), or `None`.
    Hover(Option<Pos>),
    /// Select the whole map.
    SelectAll,
    /// Clear the selection.
    SelectNone,
    /// Show the inspector for this cell.
    Inspect(Option<Pos>),
    /// Zoom by a factor around a canvas point (points from the canvas's top-left).
    ZoomAt {
        /// Factor (> 1 zooms in).
        factor: f32,
        /// The fixed point.
        at: [f32; 2],
    },
    /// Zoom in one step around the canvas centre.
    ZoomIn,
    /// Zoom out one step around the canvas centre.
    ZoomOut,
    /// Fit the map into the canvas.
    Fit,
    /// Move the view by a screen offset in points.
    Pan([f32; 2]),
    /// The canvas size in points changed.
    CanvasSize([f32; 2]),
    /// Centre the view on a cell and inspect it (click-to-locate).
    Locate(Pos),
    /// Show or hide the grid.
    ToggleGrid,
    /// Edit → Replace all, with the kind's chosen pair (kinds without it ignore it).
    ReplaceAll,
    /// Show a page of the side panel.
    SideTab(SideTab),
    /// A new untitled level of the current kind (asks first when there are unsaved changes).
    New,
    /// A new untitled level of the kind with this name (`boulder`, `baba`; asks first when
    /// there are unsaved changes).
    NewOf(&'static str),
    /// Open a file chosen in a dialog (asks first when there are unsaved changes).
    Open,
    /// Open this file (asks first when there are unsaved changes).
    OpenPath(PathBuf),
    /// Save to the current file (or ask for one).
    Save,
    /// Save to a file chosen in a dialog.
    SaveAs,
    /// Close the editor (asks first when there are unsaved changes).
    Quit,
    /// The open file changed on disk (from the file watcher).
    DiskChanged,
    /// Write the autosave copy now.
    Autosave,
    /// Answer the pending question.
    Answer(Answer),
    /// Something on the design's map.
    Map(MapAction),
    /// Something in the play session.
    Play(PlayAction),
    /// Something only the open kind has.
    Kind(KindAction),
}

impl From<MapAction> for Action {
    fn from(a: MapAction) -> Self {
        Action::Map(a)
    }
}

impl From<PlayAction> for Action {
    fn from(a: PlayAction) -> Self {
        Action::Play(a)
    }
}

impl From<KindAction> for Action {
    fn from(a: KindAction) -> Self {
        Action::Kind(a)
    }
}

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
    /// The open document, of whatever kind.
    pub doc: Box<dyn KindDoc>,
    /// The file it was loaded from or saved to (`None`: untitled).
    pub path: Option<PathBuf>,
    /// The file's text as last read or written by the editor (to tell our own writes from
    /// external changes).
    pub disk_text: Option<String>,
    /// The canvas tool.
    pub tool: Tool,
    /// Rectangles are filled.
    pub rect_filled: bool,
    /// The selected rectangle.
    pub selection: Option<CellRect>,
    /// The cell shown in the inspector.
    pub inspect: Option<Pos>,
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
    /// The autosave location (`None`: no autosave, e.g. in tests).
    pub autosave: Option<Autosave>,
    /// The question waiting for an answer.
    pub pending: Option<Pending>,
    /// Counts the documents opened or created in this window (for caches keyed by document).
    pub doc_serial: u64,
    /// A one-line status message (last save, errors).
    pub status: String,
    /// The file dialogs.
    pub dialogs: Box<dyn Dialogs>,
    /// True once the editor may close (no unsaved changes, or the user agreed).
    pub close_ok: bool,
    /// The problems of the current level: exactly what `tilesmith check` reports for the
    /// document as it would be saved (refreshed by [`EditorState::refresh`]).
    pub problems: Vec<Problem>,
    /// Text the system clipboard should receive (set by Copy and Cut; the app takes it).
    pub clipboard_out: Option<String>,
    problems_gen: Option<(u64, u64)>,
    /// Set by an answer so the next file action skips the unsaved-changes question.
    confirmed: bool,
    /// The history generation last autosaved.
    autosaved_gen: u64,
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

impl EditorState {
    /// A state editing `doc` (untitled), with scripted dialogs that answer nothing, no
    /// settings file and no autosave. The app replaces those for real use.
    pub fn new(doc: impl IntoDoc) -> Self {
        let mut s = Self {
            doc: doc.into_doc(),
            path: None,
            disk_text: None,
            tool: Tool::Pencil,
            rect_filled: true,
            selection: None,
            inspect: None,
            hover: None,
            last_hover: None,
            view: Viewport::default(),
            side_tab: SideTab::default(),
            settings: Settings::default(),
            settings_file: None,
            autosave: None,
            pending: None,
            doc_serial: 0,
            status: String::new(),
            dialogs: Box::new(ScriptedDialogs::default()),
            close_ok: false,
            problems: Vec::new(),
            clipboard_out: None,
            problems_gen: None,
            confirmed: false,
            autosaved_gen: 0,
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

    /// The window title: file name, a `*` when dirty, and the app name.
    pub fn title(&self) -> String {
        let name = self.path.as_ref().and_then(|p| p.file_name()).map_or_else(
            || "untitled".to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        format!("{name}{} — Tilesmith", if self.dirty() { "*" } else { "" })
    }

    /// The problems of the design, recomputed when it changed: the engine's
    /// `GameKind::check` of the document as it would be saved, so the list says exactly what
    /// `tilesmith check` says of the saved file.
    pub fn refresh(&mut self) {
        self.doc.refresh();
        let key = (self.doc_serial, self.doc.map().generation());
        if self.problems_gen == Some(key) {
            return;
        }
        self.problems_gen = Some(key);
        self.problems = self.doc.kind().check(&self.doc.to_json());
    }

    /// Applies one action, then keeps the document's derived data in step.
    pub fn apply(&mut self, action: impl Into<Action>) {
        self.apply_action(action.into());
        self.doc.refresh();
    }

    fn apply_action(&mut self, action: Action) {
        match action {
            Action::Map(a) => self.map_action(a),
            Action::Play(a) => self.play_action(a),
            Action::Kind(a) => {
                let mut message = None;
                let mut cx = Cx {
                    status: &mut self.status,
                    selection: &mut self.selection,
                    inspect: &mut self.inspect,
                    hover: self.hover,
                    message: &mut message,
                };
                self.doc.apply(&a, &mut cx);
                if let Some(m) = message {
                    self.pending = Some(Pending::Message(m));
                }
                self.clip_selection();
            }
            Action::ReplaceAll => {
                if self.playing() {
                    self.status = "stop playing (F5) to edit the design".into();
                    return;
                }
                let mut message = None;
                let mut cx = Cx {
                    status: &mut self.status,
                    selection: &mut self.selection,
                    inspect: &mut self.inspect,
                    hover: self.hover,
                    message: &mut message,
                };
                self.doc.replace_all(&mut cx);
            }
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

    fn view_action(&mut self, a: Action) {
        let centre = [self.view.canvas[0] / 2.0, self.view.canvas[1] / 2.0];
        match a {
            Action::ZoomAt { factor, at } => self.view.zoom_at(factor, at),
            Action::ZoomIn => self.view.zoom_at(1.25, centre),
            Action::ZoomOut => self.view.zoom_at(0.8, centre),
            Action::Fit => {
                let (w, h) = self.map_size();
                self.view.fit(w, h);
            }
            Action::Pan([dx, dy]) => {
                self.view.pan[0] += dx;
                self.view.pan[1] += dy;
            }
            Action::CanvasSize(s) => {
                // A view that shows the whole map stays so when the canvas changes size
                // (window resized, side panel page switched).
                let (w, h) = self.map_size();
                let mut fitted = self.view;
                fitted.fit(w, h);
                let was_fit = fitted.zoom == self.view.zoom && fitted.pan == self.view.pan;
                self.view.canvas = s;
                if was_fit {
                    self.view.fit(w, h);
                }
            }
            Action::Locate(p) => {
                self.view.center_on(p);
                self.inspect = Some(p);
                self.selection = Some(CellRect::span(p, p));
            }
            _ => {}
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
        let map = self.doc.map_mut();
        match a {
            MapAction::CellPress { pos, button, alt } => self.press(pos, button, alt),
            MapAction::CellDrag(pos) => map.stroke_drag(pos),
            MapAction::CellRelease => {
                let sel = map.stroke_finish();
                self.stroke_selection(sel);
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
                if map.clipboard_from_text(&text) {
                    self.status = "pasting cells from the system clipboard".into();
                }
                self.paste();
            }
            MapAction::Resize {
                width,
                height,
                anchor,
            } => {
                if let Err(m) = map.resize(width, height, anchor) {
                    self.status = m;
                }
            }
        }
        self.clip_selection();
    }

    fn copy(&mut self, r: CellRect) {
        // While playing, the map shows the game: copy what is shown.
        self.doc.copy_shown(r);
        self.clipboard_out = self.doc.map().clipboard_text();
        self.status = format!("copied {}×{} cells", r.width(), r.height());
    }

    fn press(&mut self, pos: Pos, button: Button, alt: bool) {
        if self.playing() {
            self.inspect = Some(pos);
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
            Ok(rect) => self.selection = rect,
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
                for _ in 0..p.due(dt) {
                    self.doc.play_step(input);
                    if !self.doc.play().is_some_and(|p| p.running) {
                        break;
                    }
                }
            }
            PlayAction::UseAsDesign => self.use_as_design(),
            PlayAction::Record => self.record(),
        }
    }

    fn play_start(&mut self) {
        self.doc.map_mut().stroke_cancel();
        let problems: Vec<Problem> = self
            .problems
            .iter()
            .filter(|p| p.is_error())
            .cloned()
            .collect();
        if let Some(first) = problems.first() {
            // The engine would refuse it; say why and show where.
            self.status = format!(
                "cannot play: {} ({} error(s); see the problems list)",
                first.message,
                problems.len()
            );
            if let Some(c) = problem_cell(first) {
                self.apply_action(Action::Locate(c));
            }
            return;
        }
        if let Err(p) = self.doc.start_play(0) {
            self.status = format!(
                "cannot play: {}",
                p.first()
                    .map_or("the level has errors", |p| p.message.as_str())
            );
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
