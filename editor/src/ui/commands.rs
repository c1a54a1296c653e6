//! The one table of commands shared by the menus, the toolbar and the keyboard shortcuts.

use eframe::egui::{Key, KeyboardShortcut, Modifiers};

use crate::state::{Action, EditorState, MapAction, Pane, PlayAction};
use crate::tools::Tool;

/// A command without parameters: its label, its shortcut and the action it pushes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// New level.
    New,
    /// Open a file.
    Open,
    /// Save.
    Save,
    /// Save under a new name.
    SaveAs,
    /// Export the design as a PNG image.
    ExportPng,
    /// Quit.
    Quit,
    /// Undo.
    Undo,
    /// Redo (Ctrl+Shift+Z).
    Redo,
    /// Redo (Ctrl+Y).
    RedoY,
    /// Copy the selection.
    Copy,
    /// Cut the selection.
    Cut,
    /// Paste.
    Paste,
    /// Delete the selection.
    Delete,
    /// Select everything.
    SelectAll,
    /// Select nothing.
    SelectNone,
    /// Zoom in.
    ZoomIn,
    /// Zoom in (the `=` key, `+` without shift).
    ZoomInEq,
    /// Zoom out.
    ZoomOut,
    /// Fit the map into the canvas.
    Fit,
    /// Grid on/off.
    Grid,
    /// Show or hide the left panel (the palette).
    PalettePanel,
    /// Show or hide the right panel (inspector, properties, rules, play pane).
    SidePanel,
    /// Show or hide the problems list.
    ProblemsPanel,
    /// Start or stop playing.
    PlayToggle,
    /// Open the Replace dialog (the kind's pair of replace-all).
    Replace,
    /// Show the keyboard shortcut sheet.
    Shortcuts,
    /// Choose a tool.
    Tool(Tool),
}

const fn sc(modifiers: Modifiers, key: Key) -> Option<KeyboardShortcut> {
    Some(KeyboardShortcut::new(modifiers, key))
}

const CTRL: Modifiers = Modifiers::COMMAND;
const CTRL_SHIFT: Modifiers = Modifiers {
    shift: true,
    ..Modifiers::COMMAND
};
const CTRL_ALT: Modifiers = Modifiers {
    alt: true,
    ..Modifiers::COMMAND
};
const NONE: Modifiers = Modifiers::NONE;

impl Command {
    /// Every command, in the order shortcuts are tested (longer modifier sets first).
    pub const ALL: [Command; 32] = [
        Command::SaveAs,
        Command::Redo,
        Command::SidePanel,
        Command::New,
        Command::Open,
        Command::Save,
        Command::ExportPng,
        Command::Quit,
        Command::Undo,
        Command::RedoY,
        Command::Copy,
        Command::Cut,
        Command::Paste,
        Command::Delete,
        Command::SelectAll,
        Command::SelectNone,
        Command::ZoomIn,
        Command::ZoomInEq,
        Command::ZoomOut,
        Command::Fit,
        Command::Grid,
        Command::PalettePanel,
        Command::ProblemsPanel,
        Command::PlayToggle,
        Command::Replace,
        Command::Shortcuts,
        Command::Tool(Tool::Pencil),
        Command::Tool(Tool::Rect),
        Command::Tool(Tool::Line),
        Command::Tool(Tool::Fill),
        Command::Tool(Tool::Eyedropper),
        Command::Tool(Tool::Select),
    ];

    /// Every command in menu order (File, Edit, View, Play, Help, then the tools): the
    /// shortcut sheet's order.
    pub const SHEET: [Command; 32] = [
        Command::New,
        Command::Open,
        Command::Save,
        Command::SaveAs,
        Command::ExportPng,
        Command::Quit,
        Command::Undo,
        Command::Redo,
        Command::RedoY,
        Command::Copy,
        Command::Cut,
        Command::Paste,
        Command::Delete,
        Command::SelectAll,
        Command::SelectNone,
        Command::Replace,
        Command::ZoomIn,
        Command::ZoomInEq,
        Command::ZoomOut,
        Command::Fit,
        Command::Grid,
        Command::PalettePanel,
        Command::SidePanel,
        Command::ProblemsPanel,
        Command::PlayToggle,
        Command::Shortcuts,
        Command::Tool(Tool::Pencil),
        Command::Tool(Tool::Rect),
        Command::Tool(Tool::Line),
        Command::Tool(Tool::Fill),
        Command::Tool(Tool::Eyedropper),
        Command::Tool(Tool::Select),
    ];

    /// The label in menus.
    pub fn label(self) -> &'static str {
        match self {
            Command::New => "New…",
            Command::Open => "Open…",
            Command::Save => "Save",
            Command::SaveAs => "Save As…",
            Command::ExportPng => "Export PNG…",
            Command::Quit => "Quit",
            Command::Undo => "Undo",
            Command::Redo | Command::RedoY => "Redo",
            Command::Copy => "Copy",
            Command::Cut => "Cut",
            Command::Paste => "Paste",
            Command::Delete => "Delete selection",
            Command::SelectAll => "Select all",
            Command::SelectNone => "Select none",
            Command::ZoomIn | Command::ZoomInEq => "Zoom in",
            Command::ZoomOut => "Zoom out",
            Command::Fit => "Fit",
            Command::Grid => "Grid",
            Command::PalettePanel => "Palette panel",
            Command::SidePanel => "Side panel",
            Command::ProblemsPanel => "Problems list",
            Command::PlayToggle => "Play / stop",
            Command::Replace => "Replace…",
            Command::Shortcuts => "Keyboard shortcuts",
            Command::Tool(t) => t.name(),
        }
    }

    /// The keyboard shortcut.
    pub fn shortcut(self) -> Option<KeyboardShortcut> {
        match self {
            Command::New => sc(CTRL, Key::N),
            Command::Open => sc(CTRL, Key::O),
            Command::Save => sc(CTRL, Key::S),
            Command::SaveAs => sc(CTRL_SHIFT, Key::S),
            Command::ExportPng => sc(CTRL, Key::E),
            Command::Quit => sc(CTRL, Key::Q),
            Command::Undo => sc(CTRL, Key::Z),
            Command::Redo => sc(CTRL_SHIFT, Key::Z),
            Command::RedoY => sc(CTRL, Key::Y),
            Command::Copy => sc(CTRL, Key::C),
            Command::Cut => sc(CTRL, Key::X),
            Command::Paste => sc(CTRL, Key::V),
            Command::Delete => sc(NONE, Key::Delete),
            Command::SelectAll => sc(CTRL, Key::A),
            Command::SelectNone => sc(NONE, Key::Escape),
            Command::ZoomIn => sc(NONE, Key::Plus),
            Command::ZoomInEq => sc(NONE, Key::Equals),
            Command::ZoomOut => sc(NONE, Key::Minus),
            Command::Fit => sc(NONE, Key::Num0),
            Command::Grid => sc(NONE, Key::G),
            Command::PalettePanel => sc(CTRL, Key::B),
            Command::SidePanel => sc(CTRL_ALT, Key::B),
            Command::ProblemsPanel => sc(CTRL, Key::J),
            Command::PlayToggle => sc(NONE, Key::F5),
            Command::Replace => sc(CTRL, Key::H),
            Command::Shortcuts => sc(NONE, Key::F1),
            Command::Tool(t) => sc(
                NONE,
                match t {
                    Tool::Pencil => Key::P,
                    Tool::Rect => Key::R,
                    Tool::Line => Key::L,
                    Tool::Fill => Key::F,
                    Tool::Eyedropper => Key::I,
                    Tool::Select => Key::S,
                },
            ),
        }
    }

    /// The shortcut as text (`Ctrl+S`), for menus and tooltips.
    pub fn shortcut_text(self) -> String {
        match self.shortcut() {
            Some(s) => {
                let mut t = String::new();
                if s.modifiers.command || s.modifiers.ctrl {
                    t.push_str("Ctrl+");
                }
                if s.modifiers.alt {
                    t.push_str("Alt+");
                }
                if s.modifiers.shift {
                    t.push_str("Shift+");
                }
                t.push_str(s.logical_key.name());
                t
            }
            None => String::new(),
        }
    }

    /// The action in the current state (the play toggle and replace-all depend on it).
    pub fn action(self, st: &EditorState) -> Action {
        let playing = st.playing();
        match self {
            Command::New => Action::ShowNewLevel(true),
            Command::Open => Action::Open,
            Command::Save => Action::Save,
            Command::SaveAs => Action::SaveAs,
            Command::ExportPng => Action::ExportPng,
            Command::Quit => Action::Quit,
            Command::Undo => Action::Map(MapAction::Undo),
            Command::Redo | Command::RedoY => Action::Map(MapAction::Redo),
            Command::Copy => Action::Map(MapAction::Copy),
            Command::Cut => Action::Map(MapAction::Cut),
            Command::Paste => Action::Map(MapAction::Paste),
            Command::Delete => Action::Map(MapAction::DeleteSelection),
            Command::SelectAll => Action::SelectAll,
            Command::SelectNone => Action::SelectNone,
            Command::ZoomIn | Command::ZoomInEq => Action::ZoomIn,
            Command::ZoomOut => Action::ZoomOut,
            Command::Fit => Action::Fit,
            Command::Grid => Action::ToggleGrid,
            Command::PalettePanel => Action::ShowPane(Pane::Palette, None),
            Command::SidePanel => Action::ShowPane(Pane::Side, None),
            Command::ProblemsPanel => Action::ShowPane(Pane::Problems, None),
            Command::PlayToggle => {
                if playing {
                    Action::Play(PlayAction::Stop)
                } else {
                    Action::Play(PlayAction::Start)
                }
            }
            Command::Replace => Action::ShowReplace(true),
            Command::Shortcuts => Action::ShowShortcuts(true),
            Command::Tool(t) => Action::SelectTool(t),
        }
    }

    /// What the command does, in a sentence (the shortcut sheet's third column).
    pub fn about(self) -> &'static str {
        match self {
            Command::New => "a new level: choose its kind, size, border and fill",
            Command::Open => "open a level or campaign file",
            Command::Save => "save the level (errors allowed, and said)",
            Command::SaveAs => "save under a new name",
            Command::ExportPng => "export the map as a PNG image, drawn as the canvas draws it",
            Command::Quit => "close the editor (asks about unsaved changes)",
            Command::Undo => "undo the last edit",
            Command::Redo | Command::RedoY => "redo the last undone edit",
            Command::Copy => "copy the selection (also to the system clipboard)",
            Command::Cut => "copy the selection, then empty it",
            Command::Paste => "paste at the cell under the pointer",
            Command::Delete => "empty the selection (Backspace too, when not playing)",
            Command::SelectAll => "select the whole map",
            Command::SelectNone => {
                "clear the selection; Esc first cancels a drag in progress, and while playing stops play"
            }
            Command::ZoomIn | Command::ZoomInEq => "zoom in around the centre",
            Command::ZoomOut => "zoom out around the centre",
            Command::Fit => "fit the map into the canvas",
            Command::Grid => "show or hide the grid",
            Command::PalettePanel => {
                "show or hide the left panel (the palette); its edge drags to resize it"
            }
            Command::SidePanel => {
                "show or hide the right panel (cell & level, rules, play pane); its edge drags to resize it"
            }
            Command::ProblemsPanel => {
                "show or hide the problems list; its top edge drags to resize it"
            }
            Command::PlayToggle => "play the design in a separate session, or stop",
            Command::Replace => "open the Replace dialog (replace one token by another everywhere)",
            Command::Shortcuts => "this sheet",
            Command::Tool(t) => match t {
                Tool::Pencil => "tool: paint cells under the pointer",
                Tool::Rect => "tool: drag a rectangle (Esc cancels)",
                Tool::Line => "tool: drag a straight line (Esc cancels)",
                Tool::Fill => "tool: fill the connected area",
                Tool::Eyedropper => "tool: pick a cell's token as a brush",
                Tool::Select => "tool: select, drag inside to move",
            },
        }
    }

    /// False for commands that do nothing for the open document (Replace on a baba level).
    pub fn available(self, st: &EditorState) -> bool {
        self != Command::Replace || st.doc.has_replace_all()
    }

    /// True for commands that still work while a text field has the keyboard (Ctrl+S, …).
    pub fn works_in_text(self) -> bool {
        matches!(
            self,
            Command::New | Command::Open | Command::Save | Command::SaveAs | Command::Quit
        )
    }
}
