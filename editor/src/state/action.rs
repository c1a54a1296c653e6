//! The actions that change the editor state, and the questions it asks: [`Action`] in four
//! parts (the shell's own variants, [`MapAction`], [`PlayAction`], and a kind's
//! [`KindAction`]), [`Pending`] and [`Answer`].

use std::path::PathBuf;

use tilesmith_engine::{Input, Pos};

use super::view::{ExportWhat, Pane, SideTab};
use crate::campaign::CampaignAction;
use crate::doc::KindAction;
use crate::files::Found;
use crate::tools::{Button, Tool};

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
    /// Saving to `to` would also write `files` (a board level's rules file), which the user
    /// did not open here: write them (issue #30)?
    ConfirmWrites {
        /// The files the level refers to that Save would write, absolute.
        files: Vec<PathBuf>,
        /// The level file being saved.
        to: PathBuf,
    },
    /// A resize would remove cells the kind calls essential (boulder: `me`, `exit`; baba:
    /// text): resize anyway?
    ConfirmResize {
        /// The new width asked for, in cells.
        width: usize,
        /// The new height asked for, in cells.
        height: usize,
        /// The anchor asked for (as in [`MapAction::Resize`]).
        anchor: (u8, u8),
        /// The essential cells that would be removed, in words (`me at x 1, y 1`).
        lost: Vec<String>,
    },
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
    /// Resize even though essential cells are removed.
    ResizeAnyway,
    /// Write the files named in [`Pending::ConfirmWrites`], then save.
    WriteFiles,
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
    /// Drop the stroke in progress without an edit (Esc during a drag).
    CancelStroke,
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
    /// Cancel the step computing on a worker thread (the play pane's Cancel, Esc): the
    /// game stays as before the step.
    CancelStep,
    /// Copy the play state into the design, as one undoable edit.
    UseAsDesign,
    /// Save the session as a replay file (asks where).
    Record,
    /// Save the session as the level's intended solution, `NAME.intended.replay.json` beside
    /// the saved level `NAME.json` (replacing one there), which Solve and `tilesmith solve`
    /// compare their shortest solution with.
    KeepIntended,
    /// Export the session (its inputs from the start) as an animated GIF (asks where).
    ExportGif,
}

/// Every change to the editor state. UI code pushes these; [`EditorState::apply`](super::EditorState::apply) runs them.
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
    /// Show (`Some(true)`), hide (`Some(false)`) or toggle (`None`) a panel round the map
    /// (View menu, Ctrl+B, Ctrl+Alt+B, Ctrl+J, the panels' own collapse buttons).
    ShowPane(Pane, Option<bool>),
    /// Replace every cell of the kind's chosen pair at once (kinds without it ignore it).
    ReplaceAll,
    /// Open (true) or close the Replace dialog (Edit → Replace…, Ctrl+H).
    ShowReplace(bool),
    /// Open (true) or close the keyboard shortcut sheet (Help → Keyboard shortcuts, F1).
    ShowShortcuts(bool),
    /// Open (true) or close the New level dialog (File → New…, Ctrl+N).
    ShowNewLevel(bool),
    /// Open the export dialog for a PNG of the map or a GIF of the play (its scale, then
    /// where), or close it (`None`).
    ShowExport(Option<ExportWhat>),
    /// The exports' pixels per cell (1 to `MAX_SCALE`), remembered in the settings.
    SetExportScale(u32),
    /// A new untitled level as the New level dialog asked for it (asks first when there are
    /// unsaved changes); closes the dialog.
    NewLevel(crate::doc::registry::NewLevel),
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
    /// Cancel opening the file being read on a worker thread (Esc): the open level stays.
    CancelLoad,
    /// File → Export PNG…: the design as an image, to a file chosen in a dialog.
    ExportPng,
    /// An export finished (or failed, or was cancelled): the message for the status bar.
    ExportFinished(String),
    /// The built-in file chooser's answer: the chosen file (several when adding levels to a
    /// campaign), none when cancelled.
    ChooserDone(Vec<PathBuf>),
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
    /// Something on the open campaign (its overview, edits, play).
    Campaign(CampaignAction),
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
