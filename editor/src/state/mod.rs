//! The editor state and the actions that change it. No egui call happens here.
//!
//! [`EditorState`] holds the document (level, history, file), the tools, the selection, the
//! viewport, the play session and the settings. It changes only through [`EditorState::apply`]
//! with an [`Action`]; the UI pushes actions while drawing and the app applies them afterwards.

pub mod baba;
pub mod edit;
pub mod play;
mod rule_state;

use std::path::{Path, PathBuf};

use serde_json::Value;
use tilesmith_engine::kind::baba::BabaLevel;
use tilesmith_engine::kind::boulder::level::{MAX_CELLS, MAX_SIDE};
use tilesmith_engine::kind::boulder::{BoulderLevel, Cell, Token};
use tilesmith_engine::problem::PathSeg;
use tilesmith_engine::{Game as _, Grid, Input, LoadError, Pos, Problem};

use crate::files::{Autosave, Dialogs, Found, ScriptedDialogs, Settings};
use crate::rules::panel::{RuleEvent, RulePanel};
use crate::tools::{Button, CellRect, Stroke, Tool, copy_rect, paste_cells, rect_of, resized};
use baba::{BabaAction, BabaDoc};
use edit::{Edit, History, Props};
use play::PlaySession;
pub use rule_state::RuleCache;

/// The game kinds the editor edits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DocKind {
    /// Boulder Dash levels with `pre`/`post` rule blocks (spec boulder).
    Boulder,
    /// Baba Is You levels: stacks of objects and text tiles (spec baba).
    Baba,
}

impl DocKind {
    /// The kind's name in level files (`boulder`, `baba`).
    pub fn name(self) -> &'static str {
        match self {
            DocKind::Boulder => "boulder",
            DocKind::Baba => "baba",
        }
    }
}

/// A level of any kind the editor edits, as loaded from a file.
#[derive(Clone, Debug, PartialEq)]
pub enum LevelDoc {
    /// A boulder level.
    Boulder(BoulderLevel),
    /// A baba level.
    Baba(BabaLevel),
}

impl LevelDoc {
    /// Reads a level document of a kind the editor edits.
    ///
    /// # Errors
    /// The problems (with JSON paths), or one problem naming a kind the editor cannot edit.
    pub fn from_json(doc: &Value) -> Result<Self, Vec<Problem>> {
        match doc.get("kind").and_then(Value::as_str).unwrap_or("boulder") {
            "baba" => BabaLevel::from_json(doc).map(LevelDoc::Baba),
            "boulder" => BoulderLevel::from_json(doc).map(LevelDoc::Boulder),
            other => Err(vec![Problem::error(
                tilesmith_engine::JsonPath::root().key("kind"),
                format!("levels of kind \"{other}\" cannot be edited yet"),
            )]),
        }
    }

    /// The kind.
    pub fn kind(&self) -> DocKind {
        match self {
            LevelDoc::Boulder(_) => DocKind::Boulder,
            LevelDoc::Baba(_) => DocKind::Baba,
        }
    }
}

/// Which page the right-hand side panel shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SideTab {
    /// The cell inspector, level properties and history (while playing: the play pane and
    /// the inspector).
    #[default]
    Main,
    /// The rule editor. While it is shown, the selected rule's matches are outlined on the
    /// canvas.
    Rules,
}

/// The smallest and largest zoom, in screen points per cell.
pub const ZOOM_RANGE: (f32, f32) = (0.5, 96.0);

/// What part of the map is shown: `zoom` points per cell, and `pan`, the screen offset (in
/// points) of the map's top-left corner from the canvas's top-left corner.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Viewport {
    /// Screen points per cell.
    pub zoom: f32,
    /// Offset of the map's top-left corner from the canvas's top-left corner, in points.
    pub pan: [f32; 2],
    /// The canvas size in points (set by the UI each frame it changes).
    pub canvas: [f32; 2],
}

impl Default for Viewport {
    fn default() -> Self {
        Self {
            zoom: 24.0,
            pan: [8.0, 8.0],
            canvas: [800.0, 600.0],
        }
    }
}

impl Viewport {
    /// The cell under canvas point `p` (points from the canvas's top-left), if inside a
    /// `w` × `h` map.
    pub fn cell_at(&self, p: [f32; 2], w: usize, h: usize) -> Option<Pos> {
        let cx = ((p[0] - self.pan[0]) / self.zoom).floor();
        let cy = ((p[1] - self.pan[1]) / self.zoom).floor();
        (cx >= 0.0 && cy >= 0.0 && (cx as usize) < w && (cy as usize) < h)
            .then(|| Pos::new(cx as usize, cy as usize))
    }

    /// The cell under canvas point `p`, clamped into a `w` × `h` map (for drags leaving it).
    pub fn cell_clamped(&self, p: [f32; 2], w: usize, h: usize) -> Pos {
        let cx = ((p[0] - self.pan[0]) / self.zoom).floor().max(0.0) as usize;
        let cy = ((p[1] - self.pan[1]) / self.zoom).floor().max(0.0) as usize;
        Pos::new(cx.min(w.saturating_sub(1)), cy.min(h.saturating_sub(1)))
    }

    /// Zooms by `factor` keeping the map point under canvas point `at` in place.
    pub fn zoom_at(&mut self, factor: f32, at: [f32; 2]) {
        if !factor.is_finite() || factor <= 0.0 {
            return;
        }
        let z = (self.zoom * factor).clamp(ZOOM_RANGE.0, ZOOM_RANGE.1);
        let k = z / self.zoom;
        self.pan = [
            at[0] - (at[0] - self.pan[0]) * k,
            at[1] - (at[1] - self.pan[1]) * k,
        ];
        self.zoom = z;
    }

    /// Zooms and pans so a `w` × `h` map fills the canvas, centred.
    pub fn fit(&mut self, w: usize, h: usize) {
        let (cw, ch) = (self.canvas[0].max(16.0), self.canvas[1].max(16.0));
        let z = ((cw - 8.0) / w.max(1) as f32)
            .min((ch - 8.0) / h.max(1) as f32)
            .clamp(ZOOM_RANGE.0, ZOOM_RANGE.1);
        self.zoom = z;
        self.pan = [(cw - w as f32 * z) / 2.0, (ch - h as f32 * z) / 2.0];
    }

    /// Pans so cell `p` is in the middle of the canvas.
    pub fn center_on(&mut self, p: Pos) {
        self.pan = [
            self.canvas[0] / 2.0 - (p.x as f32 + 0.5) * self.zoom,
            self.canvas[1] / 2.0 - (p.y as f32 + 0.5) * self.zoom,
        ];
    }

    /// The range of visible cells of a `w` × `h` map: `(x0, y0, x1, y1)` with `x1`, `y1`
    /// exclusive (empty ranges when nothing is visible).
    pub fn visible(&self, w: usize, h: usize) -> (usize, usize, usize, usize) {
        let lo = |pan: f32| ((-pan) / self.zoom).floor().max(0.0) as usize;
        let hi = |pan: f32, size: f32, n: usize| {
            (((size - pan) / self.zoom).ceil().max(0.0) as usize).min(n)
        };
        let (x0, y0) = (lo(self.pan[0]).min(w), lo(self.pan[1]).min(h));
        let (x1, y1) = (
            hi(self.pan[0], self.canvas[0], w).max(x0),
            hi(self.pan[1], self.canvas[1], h).max(y0),
        );
        (x0, y0, x1, y1)
    }
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

/// Every change to the editor state. UI code pushes these; [`EditorState::apply`] runs them.
#[derive(Clone, Debug)]
pub enum Action {
    /// Choose the canvas tool.
    SelectTool(Tool),
    /// Set the token the left button paints.
    SetPrimary(Token),
    /// Set the token the right button paints.
    SetSecondary(Token),
    /// Rectangles are filled (true) or outlines.
    SetRectFilled(bool),
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
    /// The cell under the pointer (for the readout), or `None`.
    Hover(Option<Pos>),
    /// Undo the last edit.
    Undo,
    /// Redo the last undone edit.
    Redo,
    /// Undo or redo until this many edits are applied (history list).
    HistoryGoTo(usize),
    /// Replace a cell (inspector).
    SetCell {
        /// The cell's position.
        pos: Pos,
        /// Its new contents.
        cell: Cell,
    },
    /// Change the properties; `field` names what changed, so typing in one field is one step.
    SetProps {
        /// The new properties.
        props: Props,
        /// Which field changed (`name`, `gems`, …).
        field: &'static str,
    },
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
    /// Every cell with token `from` gets token `to` (values kept).
    ReplaceAll {
        /// The token replaced.
        from: Token,
        /// The token put instead.
        to: Token,
    },
    /// Choose the tokens of replace-all.
    SetReplace {
        /// The token replaced.
        from: Token,
        /// The token put instead.
        to: Token,
    },
    /// Copy the selection to the editor's clipboard.
    Copy,
    /// Copy the selection, then empty it (boulder: `path`; baba: no object).
    Cut,
    /// Paste the clipboard at the hovered cell (or the selection's corner, or 0, 0).
    Paste,
    /// Empty the selection (boulder: `path`; baba: no object).
    DeleteSelection,
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
    /// A new untitled level of the current kind (asks first when there are unsaved changes).
    New,
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
    /// Start playing the current design.
    PlayStart,
    /// Stop playing; the design is as it was.
    PlayStop,
    /// Run (true) or pause.
    PlayRun(bool),
    /// One tick (baba: turn) with this input (`None`: boulder: the input chosen in the pane;
    /// baba: wait).
    PlayStep(Option<Input>),
    /// Undo one tick (baba: turn).
    PlayBack,
    /// Redo one tick (baba: turn).
    PlayForward,
    /// Restart from the design (baba: the game's restart).
    PlayReset,
    /// Go to this tick (baba: turn) of the history.
    PlayScrub(u64),
    /// Set the speed factor (1 = 5 ticks/s).
    PlaySpeed(f32),
    /// Set the input used by Step and by running with no key held.
    PlayChoose(Input),
    /// Time passed while running: `dt` seconds, with the arrow held on the keyboard.
    PlayAdvance {
        /// Seconds since the last frame.
        dt: f64,
        /// The input held on the keyboard, if any.
        held: Option<Input>,
    },
    /// The fired-rule entry under the pointer (index into the last report's list).
    PlayHoverRule(Option<usize>),
    /// Begin a tick in the tick debugger with this input (`None`: the chosen input); no phase
    /// runs yet.
    PlayStepInto(Option<Input>),
    /// Run the next phase of the debugged tick.
    PlayNextPhase,
    /// Go back one phase of the debugged tick.
    PlayPrevPhase,
    /// Go to the state after this many phases of the debugged tick.
    PlayGotoPhase(usize),
    /// Run the rest of the debugged tick and end it.
    PlayFinishTick,
    /// Drop the debugged tick (the game is as before it began).
    PlayAbortTick,
    /// Copy the play state into the design, as one undoable edit.
    UseAsDesign,
    /// Something in the rule editor.
    Rule(RuleEvent),
    /// Show a page of the side panel.
    SideTab(SideTab),
    /// Save the session as a replay file (asks where).
    Record,
    /// A new untitled level of this kind (asks first when there are unsaved changes).
    NewOf(DocKind),
    /// Something only baba documents have (stacks, sentences, turns).
    Baba(BabaAction),
}

/// The whole editor state.
pub struct EditorState {
    /// The open baba document, when the document is a baba level. While it is `Some`, the
    /// boulder fields below (`level`, `history`, `primary`, `secondary`, `replace`, `stroke`,
    /// `clipboard`, `play`, `rules`) are idle and the map actions go to it.
    pub baba: Option<BabaDoc>,
    /// The boulder level being edited (idle while [`EditorState::baba`] is `Some`).
    pub level: BoulderLevel,
    /// Its undo history.
    pub history: History,
    /// The file it was loaded from or saved to (`None`: untitled).
    pub path: Option<PathBuf>,
    /// The file's text as last read or written by the editor (to tell our own writes from
    /// external changes).
    pub disk_text: Option<String>,
    /// The canvas tool.
    pub tool: Tool,
    /// Token of the left button.
    pub primary: Token,
    /// Token of the right button.
    pub secondary: Token,
    /// Rectangles are filled.
    pub rect_filled: bool,
    /// Replace-all: (the token replaced, the token put instead).
    pub replace: (Token, Token),
    /// The drag in progress.
    pub stroke: Option<Stroke<Cell>>,
    /// The selected rectangle.
    pub selection: Option<CellRect>,
    /// The editor's clipboard (cells copied from a selection).
    pub clipboard: Option<Grid<Cell>>,
    /// The cell shown in the inspector.
    pub inspect: Option<Pos>,
    /// The cell under the pointer.
    pub hover: Option<Pos>,
    /// The last cell that was under the pointer (kept when it leaves the map, so the play
    /// pane's cell history stays readable).
    pub last_hover: Option<Pos>,
    /// The view of the canvas.
    pub view: Viewport,
    /// The play session, while playing.
    pub play: Option<PlaySession>,
    /// The rule editor's state: selection, view, JSON buffer, session switches, breakpoints.
    pub rules: RulePanel,
    /// The page the side panel shows.
    pub side_tab: SideTab,
    /// The selected rule's preview and the never-matching rules, cached.
    rule_cache: RuleCache,
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
    /// The problems of the current level (refreshed by [`EditorState::refresh`]).
    pub problems: Vec<Problem>,
    problems_gen: Option<u64>,
    /// Set by an answer so the next file action skips the unsaved-changes question.
    confirmed: bool,
    /// The history generation last autosaved.
    autosaved_gen: u64,
}

impl std::fmt::Debug for EditorState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EditorState")
            .field("path", &self.path)
            .field("tool", &self.tool)
            .finish_non_exhaustive()
    }
}

/// The size of a new level.
pub const NEW_LEVEL_SIZE: (usize, usize) = (40, 22);

/// The size of a new baba level (the size of many of the game's own levels).
pub const NEW_BABA_SIZE: (usize, usize) = (24, 14);

impl EditorState {
    /// A state editing `level` (untitled), with scripted dialogs that answer nothing, no
    /// settings file and no autosave. The app replaces those for real use.
    pub fn new(level: BoulderLevel) -> Self {
        let mut s = Self {
            baba: None,
            level,
            history: History::default(),
            path: None,
            disk_text: None,
            tool: Tool::Pencil,
            primary: Token::Wall,
            secondary: Token::Path,
            rect_filled: true,
            replace: (Token::Mud, Token::Path),
            stroke: None,
            selection: None,
            clipboard: None,
            inspect: None,
            hover: None,
            last_hover: None,
            view: Viewport::default(),
            play: None,
            rules: RulePanel::default(),
            side_tab: SideTab::default(),
            rule_cache: RuleCache::default(),
            settings: Settings::default(),
            settings_file: None,
            autosave: None,
            pending: None,
            doc_serial: 0,
            status: String::new(),
            dialogs: Box::new(ScriptedDialogs::default()),
            close_ok: false,
            problems: Vec::new(),
            problems_gen: None,
            confirmed: false,
            autosaved_gen: 0,
        };
        s.sync_rules();
        s
    }

    /// A state editing `doc` (untitled), as [`EditorState::new`] does.
    pub fn with_document(doc: LevelDoc) -> Self {
        match doc {
            LevelDoc::Boulder(l) => Self::new(l),
            LevelDoc::Baba(l) => {
                let mut s = Self::new(BoulderLevel::new("untitled", 1, 1));
                s.baba = Some(BabaDoc::new(l));
                s
            }
        }
    }

    /// A new untitled level of the default size.
    pub fn new_level() -> BoulderLevel {
        BoulderLevel::new("untitled", NEW_LEVEL_SIZE.0, NEW_LEVEL_SIZE.1)
    }

    /// A new untitled baba level of the default baba size.
    pub fn new_baba_level() -> BabaLevel {
        BabaLevel::new("untitled", NEW_BABA_SIZE.0, NEW_BABA_SIZE.1)
    }

    /// The kind of the open document.
    pub fn kind(&self) -> DocKind {
        if self.baba.is_some() {
            DocKind::Baba
        } else {
            DocKind::Boulder
        }
    }

    /// The size in cells (width, height) of the map as shown: the play state's while playing,
    /// else the design's.
    pub fn map_size(&self) -> (usize, usize) {
        match (&self.baba, &self.play) {
            (Some(d), _) => (d.shown_map().width(), d.shown_map().height()),
            (None, Some(p)) => (p.game.board().width(), p.game.board().height()),
            (None, None) => (self.level.width(), self.level.height()),
        }
    }

    /// True while a play session runs (of either kind).
    pub fn playing(&self) -> bool {
        match &self.baba {
            Some(d) => d.play.is_some(),
            None => self.play.is_some(),
        }
    }

    /// The open document as a level file document.
    pub fn doc_json(&self) -> Value {
        match &self.baba {
            Some(d) => d.level.to_json(),
            None => self.level.to_json(),
        }
    }

    fn doc_generation(&self) -> u64 {
        match &self.baba {
            Some(d) => d.history.generation(),
            None => self.history.generation(),
        }
    }

    fn is_current(&self, doc: &LevelDoc) -> bool {
        match (doc, &self.baba) {
            (LevelDoc::Baba(l), Some(d)) => *l == d.level,
            (LevelDoc::Boulder(l), None) => *l == self.level,
            _ => false,
        }
    }

    /// True when there are unsaved changes.
    pub fn dirty(&self) -> bool {
        match &self.baba {
            Some(d) => d.history.dirty(),
            None => self.history.dirty(),
        }
    }

    /// The window title: file name, a `*` when dirty, and the app name.
    pub fn title(&self) -> String {
        let name = self.path.as_ref().and_then(|p| p.file_name()).map_or_else(
            || "untitled".to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        format!("{name}{} — Tilesmith", if self.dirty() { "*" } else { "" })
    }

    /// The boulder cell at `pos` as shown: the play state while playing, else the design (or,
    /// with "apply once", the scratch copy after the selected rule). `None` outside the map and
    /// while a baba level is open (see [`BabaDoc::shown_map`]).
    pub fn shown_cell(&self, pos: Pos) -> Option<Cell> {
        if self.baba.is_some() {
            return None;
        }
        match &self.play {
            Some(p) => {
                let b = p.game.board();
                (pos.x < b.width() && pos.y < b.height()).then(|| b.cell(b.idx(pos)))
            }
            None => self
                .apply_once_map()
                .unwrap_or(&self.level.map)
                .get(pos)
                .copied(),
        }
    }

    /// Recomputes derived data (the problems list) when the level changed.
    pub fn refresh(&mut self) {
        self.sync_rules();
        if let Some(d) = &mut self.baba {
            d.refresh_rules();
        }
        let g = self.doc_generation();
        if self.problems_gen == Some(g) {
            return;
        }
        self.problems_gen = Some(g);
        self.problems = match &self.baba {
            Some(d) => d.level.warnings(),
            None => level_problems(&self.level),
        };
    }

    /// Applies one action, then keeps the rule panel and its caches in step with the level.
    pub fn apply(&mut self, action: Action) {
        self.apply_action(action);
        self.sync_rules();
        if let Some(d) = &mut self.baba {
            d.refresh_rules();
        }
    }

    fn apply_action(&mut self, action: Action) {
        let Some(action) = self.baba_apply(action) else {
            return;
        };
        match action {
            Action::SelectTool(t) => {
                self.tool = t;
                self.stroke = None;
            }
            Action::SetPrimary(t) => self.primary = t,
            Action::SetSecondary(t) => self.secondary = t,
            Action::SetRectFilled(f) => self.rect_filled = f,
            Action::CellPress { pos, button, alt } => self.press(pos, button, alt),
            Action::CellDrag(pos) => {
                if let Some(s) = &mut self.stroke {
                    s.moved(pos, &self.level.map);
                }
            }
            Action::CellRelease => {
                if let Some(s) = self.stroke.take() {
                    let out = s.finish(&self.level.map);
                    self.stroke_selection(out.selection);
                    if let Some(e) = Edit::cells(out.name, &self.level, out.cells) {
                        self.push(e, None);
                    }
                }
            }
            Action::Hover(p) => {
                self.hover = p;
                if p.is_some() {
                    self.last_hover = p;
                }
            }
            Action::Undo => {
                self.stroke = None;
                if !self.history.undo(&mut self.level) {
                    self.status = "nothing to undo".into();
                }
                self.clip_selection();
            }
            Action::Redo => {
                self.stroke = None;
                if !self.history.redo(&mut self.level) {
                    self.status = "nothing to redo".into();
                }
                self.clip_selection();
            }
            Action::HistoryGoTo(n) => {
                self.history.go_to(&mut self.level, n);
                self.clip_selection();
            }
            Action::SetCell { pos, cell } => {
                if let Some(e) = Edit::cells("Edit cell", &self.level, vec![(pos, cell)]) {
                    let key = format!("cell {} {}", pos.x, pos.y);
                    self.push(e, Some(&key));
                }
            }
            Action::SetProps { props, field } => {
                if props != Props::of(&self.level) {
                    let name = format!("Set {field}");
                    let key = format!("props {field}");
                    self.push(Edit::Props { name, props }, Some(&key));
                }
            }
            Action::Resize {
                width,
                height,
                anchor,
            } => self.resize(width, height, anchor),
            Action::ReplaceAll { from, to } => {
                let new: Vec<(Pos, Cell)> = self
                    .level
                    .map
                    .iter()
                    .filter(|(_, c)| c.token == from)
                    .map(|(p, c)| {
                        (
                            p,
                            Cell {
                                token: to,
                                values: c.values,
                            },
                        )
                    })
                    .collect();
                let name = format!("Replace {} -> {}", from.name(), to.name());
                match Edit::cells(&name, &self.level, new) {
                    Some(e) => self.push(e, None),
                    None => self.status = format!("no {} on the map", from.name()),
                }
            }
            Action::SetReplace { from, to } => self.replace = (from, to),
            Action::Copy => {
                if let Some(r) = self.selection {
                    self.clipboard = Some(copy_rect(&self.level.map, r));
                    self.status = format!("copied {}×{} cells", r.width(), r.height());
                }
            }
            Action::Cut => {
                if let Some(r) = self.selection {
                    self.clipboard = Some(copy_rect(&self.level.map, r));
                    self.fill_selection("Cut");
                }
            }
            Action::DeleteSelection => self.fill_selection("Delete"),
            Action::Paste => self.paste(),
            Action::SelectAll => {
                let (w, h) = self.map_size();
                self.selection = Some(CellRect {
                    x0: 0,
                    y0: 0,
                    x1: w - 1,
                    y1: h - 1,
                });
            }
            Action::SelectNone => self.selection = None,
            Action::Inspect(p) => self.inspect = p,
            Action::ZoomAt { factor, at } => self.view.zoom_at(factor, at),
            Action::ZoomIn => {
                let c = [self.view.canvas[0] / 2.0, self.view.canvas[1] / 2.0];
                self.view.zoom_at(1.25, c);
            }
            Action::ZoomOut => {
                let c = [self.view.canvas[0] / 2.0, self.view.canvas[1] / 2.0];
                self.view.zoom_at(0.8, c);
            }
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
            Action::ToggleGrid => {
                self.settings.grid = !self.settings.grid;
                self.save_settings();
            }
            Action::New => self.apply_action(Action::NewOf(self.kind())),
            Action::NewOf(kind) => {
                if self.ask_unsaved(Action::NewOf(kind)) {
                    return;
                }
                let doc = match kind {
                    DocKind::Boulder => LevelDoc::Boulder(Self::new_level()),
                    DocKind::Baba => LevelDoc::Baba(Self::new_baba_level()),
                };
                self.replace_document(doc, None, None);
                let (w, h) = self.map_size();
                self.view.fit(w, h);
                self.status = format!("new {} level", kind.name());
                self.offer_autosave();
            }
            Action::Open => {
                if self.ask_unsaved(Action::Open) {
                    return;
                }
                if let Some(p) = self.dialogs.pick_open() {
                    self.confirmed = true;
                    self.apply(Action::OpenPath(p));
                }
            }
            Action::OpenPath(p) => {
                if self.ask_unsaved(Action::OpenPath(p.clone())) {
                    return;
                }
                match read_document(&p) {
                    Ok((doc, text)) => {
                        self.replace_document(doc, Some(p.clone()), Some(text));
                        self.settings.add_recent(&p);
                        self.save_settings();
                        let (w, h) = self.map_size();
                        self.view.fit(w, h);
                        self.status = format!("opened {}", p.display());
                        self.offer_autosave();
                    }
                    Err(msg) => self.pending = Some(Pending::Message(msg)),
                }
            }
            Action::Save => match self.path.clone() {
                Some(p) => self.save_to(&p),
                None => self.apply(Action::SaveAs),
            },
            Action::SaveAs => {
                let name = self
                    .path
                    .as_ref()
                    .and_then(|p| p.file_name())
                    .map_or_else(|| "level.json".into(), |n| n.to_string_lossy().into_owned());
                if let Some(p) = self.dialogs.pick_save(&name) {
                    self.save_to(&p);
                }
            }
            Action::Quit => {
                if self.ask_unsaved(Action::Quit) {
                    return;
                }
                if let Some(a) = &self.autosave
                    && !self.dirty()
                {
                    a.remove(self.path.as_deref());
                }
                self.close_ok = true;
            }
            Action::DiskChanged => self.disk_changed(),
            Action::Autosave => self.autosave_now(),
            Action::Answer(a) => self.answer(a),
            Action::PlayStart => {
                self.stroke = None;
                let mut p = PlaySession::new(self.level.clone(), 0);
                p.set_rules(&self.rules.disabled, &self.rules.breakpoints);
                self.play = Some(p);
            }
            Action::PlayStop => self.play = None,
            Action::PlayRun(on) => {
                if let Some(p) = &mut self.play {
                    if on {
                        p.finish_tick();
                    }
                    p.running = on && !p.game.status().is_over();
                }
            }
            Action::PlayStep(i) => {
                if let Some(p) = &mut self.play {
                    let input = i.unwrap_or(p.chosen);
                    p.step(input);
                }
            }
            Action::PlayBack => {
                if let Some(p) = &mut self.play {
                    p.running = false;
                    p.back();
                }
            }
            Action::PlayForward => {
                if let Some(p) = &mut self.play {
                    p.forward();
                }
            }
            Action::PlayReset => {
                if let Some(p) = &mut self.play {
                    let (speed, chosen, seed) = (p.speed, p.chosen, p.seed);
                    *p = PlaySession::new(self.level.clone(), seed);
                    p.speed = speed;
                    p.chosen = chosen;
                    p.set_rules(&self.rules.disabled, &self.rules.breakpoints);
                }
            }
            Action::PlayScrub(t) => {
                if let Some(p) = &mut self.play {
                    p.running = false;
                    p.scrub(t);
                }
            }
            Action::PlaySpeed(s) => {
                if let Some(p) = &mut self.play {
                    p.speed = s.clamp(0.1, 10.0);
                }
            }
            Action::PlayChoose(i) => {
                if let Some(p) = &mut self.play {
                    p.chosen = i;
                }
            }
            Action::PlayAdvance { dt, held } => {
                if let Some(p) = &mut self.play {
                    p.advance(dt, held);
                }
            }
            Action::PlayHoverRule(i) => {
                if let Some(p) = &mut self.play {
                    p.hovered_rule = i;
                }
            }
            Action::PlayStepInto(i) => {
                if let Some(p) = &mut self.play {
                    let input = i.unwrap_or(p.chosen);
                    if !p.step_into(input) && p.debug.is_none() {
                        self.status = "the game is over: Reset or Step back to play on".into();
                    }
                }
            }
            Action::PlayNextPhase => {
                if let Some(p) = &mut self.play {
                    p.next_phase();
                }
            }
            Action::PlayPrevPhase => {
                if let Some(p) = &mut self.play {
                    p.prev_phase();
                }
            }
            Action::PlayGotoPhase(n) => {
                if let Some(p) = &mut self.play {
                    p.goto_phase(n);
                }
            }
            Action::PlayFinishTick => {
                if let Some(p) = &mut self.play {
                    p.finish_tick();
                }
            }
            Action::PlayAbortTick => {
                if let Some(p) = &mut self.play {
                    p.abort_tick();
                }
            }
            Action::Rule(ev) => self.rule_event(ev),
            Action::SideTab(t) => self.side_tab = t,
            Action::UseAsDesign => {
                // A tick in the debugger is finished first: a design is a state between ticks.
                if let Some(p) = &mut self.play {
                    p.finish_tick();
                }
                if let Some(p) = &self.play {
                    let level = p.game.to_boulder_level();
                    let name = format!("Use play state (tick {})", p.game.steps());
                    self.push(
                        Edit::Level {
                            name,
                            level: Box::new(level),
                        },
                        None,
                    );
                    self.clip_selection();
                }
            }
            Action::Record => self.record(),
            // Handled by `baba_apply` (or nothing to do on a boulder level).
            Action::Baba(_) => {}
        }
    }

    fn push(&mut self, e: Edit, merge: Option<&str>) {
        self.history.push(&mut self.level, e, merge);
    }

    fn press(&mut self, pos: Pos, button: Button, alt: bool) {
        if self.play.is_some() {
            self.inspect = Some(pos);
            return;
        }
        if alt || self.tool == Tool::Eyedropper {
            if let Some(c) = self.level.map.get(pos) {
                match button {
                    Button::Primary => self.primary = c.token,
                    Button::Secondary => self.secondary = c.token,
                }
                self.inspect = Some(pos);
            }
            return;
        }
        self.history.seal();
        let token = match button {
            Button::Primary => self.primary,
            Button::Secondary => self.secondary,
        };
        self.stroke = Stroke::begin(
            self.tool,
            token,
            pos,
            self.rect_filled,
            &self.level.map,
            self.selection,
        );
    }

    fn fill_selection(&mut self, name: &str) {
        let Some(r) = self.selection else { return };
        let new = r.cells().map(|p| (p, Cell::new(Token::Path))).collect();
        if let Some(e) = Edit::cells(name, &self.level, new) {
            self.push(e, None);
        }
    }

    fn paste(&mut self) {
        let Some(clip) = self.clipboard.clone() else {
            self.status = "the clipboard is empty".into();
            return;
        };
        let at = self.paste_anchor();
        let cells = paste_cells(&self.level.map, &clip, at.x as i64, at.y as i64);
        let rect = rect_of(&cells);
        if let Some(e) = Edit::cells("Paste", &self.level, cells) {
            self.push(e, None);
        }
        self.selection = rect;
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

    /// A requested map size clamped to 1…`max_side` per side, or `None` (with a status
    /// message) when it has more than `max_cells` cells.
    fn resize_size(
        &mut self,
        width: usize,
        height: usize,
        (max_side, max_cells): (usize, usize),
    ) -> Option<(usize, usize)> {
        let (w, h) = (width.clamp(1, max_side), height.clamp(1, max_side));
        if w * h > max_cells {
            self.status = format!("{w}×{h} is too large (at most {max_cells} cells)");
            return None;
        }
        Some((w, h))
    }

    fn resize(&mut self, width: usize, height: usize, anchor: (u8, u8)) {
        let Some((w, h)) = self.resize_size(width, height, (MAX_SIDE, MAX_CELLS)) else {
            return;
        };
        let (ow, oh) = (self.level.width(), self.level.height());
        if (w, h) == (ow, oh) {
            return;
        }
        let map = resized(&self.level.map, w, h, anchor);
        self.push(
            Edit::Map {
                name: format!("Resize to {w}×{h}"),
                map,
            },
            None,
        );
        self.clip_selection();
    }

    fn clip_selection(&mut self) {
        let (w, h) = self.map_size();
        self.selection = self.selection.and_then(|r| r.clip(w, h));
        if self.inspect.is_some_and(|p| p.x >= w || p.y >= h) {
            self.inspect = None;
        }
    }

    /// True (and asks) when there are unsaved changes and the user has not agreed yet.
    fn ask_unsaved(&mut self, then: Action) -> bool {
        if std::mem::take(&mut self.confirmed) || !self.dirty() {
            return false;
        }
        self.pending = Some(Pending::Unsaved {
            then: Box::new(then),
        });
        true
    }

    fn replace_document(&mut self, doc: LevelDoc, path: Option<PathBuf>, text: Option<String>) {
        match doc {
            LevelDoc::Boulder(level) => {
                self.level = level;
                self.baba = None;
            }
            LevelDoc::Baba(level) => {
                self.level = BoulderLevel::new("untitled", 1, 1);
                let mut d = BabaDoc::new(level);
                // Brushes and the clipboard stay, so cells can be copied between levels.
                if let Some(old) = self.baba.take() {
                    d.keep_tools_of(old);
                }
                self.baba = Some(d);
            }
        }
        self.doc_serial += 1;
        self.hover = None;
        self.history = History::default();
        self.path = path;
        self.disk_text = text;
        self.stroke = None;
        self.selection = None;
        self.inspect = None;
        self.last_hover = None;
        self.play = None;
        self.problems_gen = None;
        self.autosaved_gen = 0;
        self.rules = RulePanel {
            view: self.rules.view,
            ..RulePanel::default()
        };
        self.rule_cache = RuleCache::default();
    }

    fn save_to(&mut self, p: &Path) {
        let text = tilesmith_engine::json_text::layout(&self.doc_json());
        match tilesmith_engine::json_text::write_atomic(p, text.as_bytes()) {
            Ok(()) => {
                if let Some(a) = &self.autosave {
                    a.remove(self.path.as_deref());
                    a.remove(Some(p));
                }
                self.path = Some(p.to_path_buf());
                self.disk_text = Some(text);
                self.mark_saved();
                self.settings.add_recent(p);
                self.save_settings();
                let errors = self.problems.iter().filter(|x| x.is_error()).count();
                self.status = format!("saved {}", p.display());
                if errors > 0 {
                    self.status
                        .push_str(&format!(" ({errors} error(s) remain)"));
                }
            }
            Err(e) => {
                self.pending = Some(Pending::Message(format!(
                    "Could not save {}: {e}",
                    p.display()
                )))
            }
        }
    }

    fn save_settings(&mut self) {
        if let Some(f) = &self.settings_file
            && let Err(e) = self.settings.save(f)
        {
            self.status = format!("could not save the settings: {e}");
        }
    }

    fn disk_changed(&mut self) {
        let Some(p) = self.path.clone() else { return };
        let Ok(text) = std::fs::read_to_string(&p) else {
            self.status = format!("{} cannot be read (removed?)", p.display());
            return;
        };
        if self.disk_text.as_deref() == Some(text.as_str()) {
            return;
        }
        if self.dirty() {
            self.pending = Some(Pending::ExternalChange { text });
        } else {
            self.take_disk(text);
        }
    }

    fn mark_saved(&mut self) {
        match &mut self.baba {
            Some(d) => d.history.mark_saved(),
            None => self.history.mark_saved(),
        }
    }

    fn mark_unsaved(&mut self) {
        match &mut self.baba {
            Some(d) => d.history.mark_unsaved(),
            None => self.history.mark_unsaved(),
        }
    }

    /// Replaces the level by `doc` as one undoable edit ("Reload from disk", …); a level of
    /// another kind replaces the document instead (that cannot be undone).
    fn push_level(&mut self, name: &str, doc: LevelDoc) {
        match (doc, &mut self.baba) {
            (LevelDoc::Baba(l), Some(d)) => {
                let e = edit::BabaEdit::Level {
                    name: name.into(),
                    level: Box::new(l),
                };
                d.history.push(&mut d.level, e, None);
            }
            (LevelDoc::Boulder(l), None) => self.push(
                Edit::Level {
                    name: name.into(),
                    level: Box::new(l),
                },
                None,
            ),
            (doc, _) => {
                let (path, text) = (self.path.clone(), self.disk_text.clone());
                self.replace_document(doc, path, text);
            }
        }
        self.clip_selection();
    }

    /// Loads the disk text as an undoable edit and marks it saved.
    fn take_disk(&mut self, text: String) {
        let Some(p) = self.path.clone() else { return };
        match parse_document(&text) {
            Ok(doc) => {
                self.push_level("Reload from disk", doc);
                self.mark_saved();
                self.status = format!("reloaded {} (changed on disk)", p.display());
            }
            Err(msg) => {
                self.status = format!(
                    "{} changed on disk but cannot be loaded; keeping the editor's version",
                    p.display()
                );
                self.pending = Some(Pending::Message(msg));
            }
        }
        self.disk_text = Some(text);
    }

    fn answer(&mut self, a: Answer) {
        let Some(pending) = self.pending.take() else {
            return;
        };
        match (pending, a) {
            (Pending::Unsaved { then }, Answer::Save) => {
                self.apply(Action::Save);
                if !self.dirty() {
                    self.confirmed = true;
                    self.apply(*then);
                }
            }
            (Pending::Unsaved { then }, Answer::Discard) => {
                if let Some(a) = &self.autosave {
                    a.remove(self.path.as_deref());
                }
                self.confirmed = true;
                self.apply(*then);
            }
            (Pending::ExternalChange { text }, Answer::KeepMine) => {
                self.disk_text = Some(text);
                self.mark_unsaved();
                self.status = "kept the editor's version; the file on disk differs".into();
            }
            (Pending::ExternalChange { text }, Answer::TakeDisk) => self.take_disk(text),
            (Pending::RestoreAutosave(found), Answer::Restore) => {
                match LevelDoc::from_json(&found.level) {
                    Ok(doc) if found.file != self.path => {
                        // A copy of another document (an untitled one found at start-up).
                        self.replace_document(doc, found.file.clone(), None);
                        self.mark_unsaved();
                        self.status = "restored the autosave copy".into();
                    }
                    Ok(doc) => {
                        let other_kind = doc.kind() != self.kind();
                        self.push_level("Restore autosave", doc);
                        if other_kind {
                            // Not an undoable edit: the document differs from the file.
                            self.mark_unsaved();
                        }
                        self.status = "restored the autosave copy".into();
                    }
                    Err(_) => self.status = "the autosave copy cannot be loaded".into(),
                }
            }
            (Pending::RestoreAutosave(found), Answer::DropAutosave) => {
                let _ = std::fs::remove_file(&found.copy);
            }
            (Pending::Message(_), _) | (_, Answer::Cancel) => {}
            (p, _) => self.pending = Some(p),
        }
    }

    /// Offers the autosave copy of an untitled document, if one was left behind and no other
    /// question is pending (called at start-up).
    pub fn offer_untitled_autosave(&mut self) {
        if self.pending.is_some() || self.path.is_none() {
            return;
        }
        let Some(a) = &self.autosave else { return };
        if let Some(found) = a.find(None) {
            self.pending = Some(Pending::RestoreAutosave(found));
        }
    }

    fn offer_autosave(&mut self) {
        let Some(a) = &self.autosave else { return };
        if let Some(found) = a.find(self.path.as_deref())
            && LevelDoc::from_json(&found.level).is_ok_and(|l| !self.is_current(&l))
        {
            self.pending = Some(Pending::RestoreAutosave(found));
        }
    }

    fn autosave_now(&mut self) {
        let g = self.doc_generation();
        if !self.dirty() || g == self.autosaved_gen {
            return;
        }
        if let Some(a) = &self.autosave {
            match a.write(self.path.as_deref(), &self.doc_json()) {
                Ok(()) => self.autosaved_gen = g,
                Err(e) => self.status = format!("autosave failed: {e}"),
            }
        }
    }

    fn record(&mut self) {
        if let Some(p) = &mut self.play {
            p.finish_tick();
        }
        // Refer to the level file when the play started from it as saved; else embed it.
        let clean = !self.dirty();
        let path = self.path.clone();
        let replay = match (&self.baba, &self.play) {
            (Some(d), _) => {
                let Some(p) = &d.play else { return };
                let level_file = path.filter(|_| clean && p.game.level() == &d.level);
                p.replay(level_file.as_deref())
            }
            (None, Some(p)) => {
                let level_file = path.filter(|_| clean && p.game.level() == &self.level);
                p.replay(level_file.as_deref())
            }
            (None, None) => return,
        };
        let stem = self
            .path
            .as_ref()
            .and_then(|p| p.file_stem())
            .map_or_else(|| "level".into(), |s| s.to_string_lossy().into_owned());
        let name = format!("{stem}.replay.json");
        if let Some(file) = self.dialogs.pick_save_replay(&name) {
            let base = file.parent().unwrap_or(Path::new("."));
            let doc = replay.to_json(base);
            let text = tilesmith_engine::json_text::layout(&doc);
            match tilesmith_engine::json_text::write_atomic(&file, text.as_bytes()) {
                Ok(()) => self.status = format!("recorded {}", file.display()),
                Err(e) => {
                    self.pending = Some(Pending::Message(format!(
                        "Could not write {}: {e}",
                        file.display()
                    )))
                }
            }
        }
    }
}

/// Parses level text into a level of a kind the editor edits, or a message listing the
/// problems.
///
/// # Errors
/// A message with one line per problem (`LINE:COL: message`).
pub fn parse_document(text: &str) -> Result<LevelDoc, String> {
    let doc = tilesmith_engine::load_text(text).map_err(|p| render(&p))?;
    LevelDoc::from_json(&doc.value).map_err(|mut p| {
        tilesmith_engine::problem::locate(text, &mut p);
        render(&p)
    })
}

/// Parses level text into a boulder level, or a message listing the problems.
///
/// # Errors
/// A message with one line per problem (`LINE:COL: message`), or one saying the level is of
/// another kind.
pub fn parse_level(text: &str) -> Result<BoulderLevel, String> {
    match parse_document(text)? {
        LevelDoc::Boulder(l) => Ok(l),
        other => Err(format!(
            "a {} level, not a boulder level",
            other.kind().name()
        )),
    }
}

fn render(problems: &[Problem]) -> String {
    problems
        .iter()
        .take(20)
        .map(|p| p.render("level"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Reads and parses a boulder level file: the level and the file's text.
///
/// # Errors
/// A message naming the file and its problems (or saying it is of another kind).
pub fn read_level(path: &Path) -> Result<(BoulderLevel, String), String> {
    match read_document(path)? {
        (LevelDoc::Boulder(l), text) => Ok((l, text)),
        (other, _) => Err(format!(
            "{} is a {} level, not a boulder level",
            path.display(),
            other.kind().name()
        )),
    }
}

/// Reads and parses a level file of any kind the editor edits: the level and the file's text.
///
/// # Errors
/// A message naming the file and its problems.
pub fn read_document(path: &Path) -> Result<(LevelDoc, String), String> {
    let text = match tilesmith_engine::load_file(path) {
        Ok(doc) => doc.text,
        Err(LoadError::Io(e)) => return Err(format!("Cannot read {}: {e}", path.display())),
        Err(LoadError::Problems(p)) => {
            return Err(format!(
                "{} is not a level:\n{}",
                path.display(),
                render(&p)
            ));
        }
    };
    parse_document(&text)
        .map(|l| (l, text))
        .map_err(|m| format!("{} cannot be opened:\n{m}", path.display()))
}

/// The problems of a level as edited: the engine's warnings, plus "no figure".
pub fn level_problems(level: &BoulderLevel) -> Vec<Problem> {
    let mut p = level.warnings();
    if !level.map.cells().iter().any(|c| c.token == Token::Me) {
        p.insert(
            0,
            Problem::warning(
                tilesmith_engine::JsonPath::root().key("map"),
                "the map has no figure (me), so nobody can play it",
            ),
        );
    }
    p
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

/// The default level to open: `welcome.json`, else the first loadable `*.json` (by name), in
/// `levels/boulder/` under the current directory or in the source workspace, if any.
pub fn default_level_file() -> Option<PathBuf> {
    let mut dirs = vec![PathBuf::from("levels/boulder")];
    if let Some(m) = option_env!("CARGO_MANIFEST_DIR") {
        dirs.push(Path::new(m).join("../levels/boulder"));
    }
    for d in dirs {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        let mut files: Vec<PathBuf> = rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        files.sort();
        // Prefer the introductory level when there is one.
        files.sort_by_key(|f| f.file_stem().is_none_or(|s| s != "welcome"));
        if let Some(f) = files.into_iter().find(|f| read_level(f).is_ok()) {
            return Some(f);
        }
    }
    None
}
