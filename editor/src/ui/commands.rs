//! The one table of commands shared by the menus, the toolbar, the keyboard shortcuts and
//! the shortcut sheet: one row per command (`ROWS`) says its label, shortcut, menu, action,
//! sentence, when it is available and whether it works while typing. Adding a command is a
//! variant of [`Command`] and its row.

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

/// The menu a command belongs to, in menu-bar order: the shortcut sheet lists the commands
/// menu by menu, the tools last.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Menu {
    File,
    Edit,
    View,
    Play,
    Help,
    Tools,
}

/// What a command pushes.
#[derive(Clone, Debug)]
enum Does {
    /// Always this action.
    Push(Action),
    /// The action for the current state (the play toggle starts or stops).
    ByState(fn(&EditorState) -> Action),
}

/// One command's row of the table.
#[derive(Clone, Debug)]
struct Row {
    command: Command,
    /// The label in menus.
    label: &'static str,
    /// The keyboard shortcut.
    shortcut: Option<KeyboardShortcut>,
    /// Where the shortcut sheet lists it.
    menu: Menu,
    /// The action it pushes.
    does: Does,
    /// What it does, in a sentence (the shortcut sheet's third column).
    about: &'static str,
    /// False when it does nothing for the open document.
    available: fn(&EditorState) -> bool,
    /// It still works while a text field has the keyboard.
    in_text: bool,
}

/// A row available whatever the document, not working while typing.
const fn row(
    command: Command,
    label: &'static str,
    shortcut: Option<KeyboardShortcut>,
    menu: Menu,
    does: Does,
    about: &'static str,
) -> Row {
    Row {
        command,
        label,
        shortcut,
        menu,
        does,
        about,
        available: |_| true,
        in_text: false,
    }
}

impl Row {
    /// The same row, working while a text field has the keyboard.
    const fn in_text(mut self) -> Row {
        self.in_text = true;
        self
    }

    /// The same row, available only when `available` says so.
    const fn when(mut self, available: fn(&EditorState) -> bool) -> Row {
        self.available = available;
        self
    }
}

/// The row of the tool `t`, chosen by the key `key`.
const fn tool(t: Tool, key: Key, about: &'static str) -> Row {
    let does = Does::Push(Action::SelectTool(t));
    row(
        Command::Tool(t),
        t.name(),
        sc(NONE, key),
        Menu::Tools,
        does,
        about,
    )
    .when(grid_kind)
}

/// True when the open document's level is a grid of cells, so that the grid tools, the
/// clipboard of cells, the grid lines and the PNG of the map apply
/// ([`crate::doc::KindDoc::has_grid`]).
fn grid_kind(st: &EditorState) -> bool {
    st.doc.has_grid()
}

use Menu::{Edit, File, Help, Play, View};

/// Every command, one row each, in the order their shortcuts are tried after those with two
/// modifiers ([`Command::ALL`]); the shortcut sheet lists them menu by menu
/// ([`Command::SHEET`]).
const ROWS: &[Row] = &[
    row(
        Command::New,
        "New…",
        sc(CTRL, Key::N),
        File,
        Does::Push(Action::ShowNewLevel(true)),
        "a new level: choose its kind, size, border and fill",
    )
    .in_text(),
    row(
        Command::Open,
        "Open…",
        sc(CTRL, Key::O),
        File,
        Does::Push(Action::Open),
        "open a level or campaign file",
    )
    .in_text(),
    row(
        Command::Save,
        "Save",
        sc(CTRL, Key::S),
        File,
        Does::Push(Action::Save),
        "save the level (errors allowed, and said)",
    )
    .in_text(),
    row(
        Command::SaveAs,
        "Save As…",
        sc(CTRL_SHIFT, Key::S),
        File,
        Does::Push(Action::SaveAs),
        "save under a new name",
    )
    .in_text(),
    row(
        Command::ExportPng,
        "Export PNG…",
        sc(CTRL, Key::E),
        File,
        Does::Push(Action::ShowExport(Some(crate::state::ExportWhat::Png))),
        "export the map as a PNG image, drawn as the canvas draws it",
    )
    .when(grid_kind),
    row(
        Command::Quit,
        "Quit",
        sc(CTRL, Key::Q),
        File,
        Does::Push(Action::Quit),
        "close the editor (asks about unsaved changes)",
    )
    .in_text(),
    row(
        Command::Undo,
        "Undo",
        sc(CTRL, Key::Z),
        Edit,
        Does::Push(Action::Map(MapAction::Undo)),
        "undo the last edit",
    ),
    row(
        Command::Redo,
        "Redo",
        sc(CTRL_SHIFT, Key::Z),
        Edit,
        Does::Push(Action::Map(MapAction::Redo)),
        "redo the last undone edit",
    ),
    row(
        Command::RedoY,
        "Redo",
        sc(CTRL, Key::Y),
        Edit,
        Does::Push(Action::Map(MapAction::Redo)),
        "redo the last undone edit",
    ),
    row(
        Command::Copy,
        "Copy",
        sc(CTRL, Key::C),
        Edit,
        Does::Push(Action::Map(MapAction::Copy)),
        "copy the selection (also to the system clipboard)",
    )
    .when(grid_kind),
    row(
        Command::Cut,
        "Cut",
        sc(CTRL, Key::X),
        Edit,
        Does::Push(Action::Map(MapAction::Cut)),
        "copy the selection, then empty it",
    )
    .when(grid_kind),
    row(
        Command::Paste,
        "Paste",
        sc(CTRL, Key::V),
        Edit,
        Does::Push(Action::Map(MapAction::Paste)),
        "paste at the cell under the pointer",
    )
    .when(grid_kind),
    row(
        Command::Delete,
        "Delete selection",
        sc(NONE, Key::Delete),
        Edit,
        Does::Push(Action::Map(MapAction::DeleteSelection)),
        "empty the selection (Backspace too, when not playing)",
    )
    .when(grid_kind),
    row(
        Command::SelectAll,
        "Select all",
        sc(CTRL, Key::A),
        Edit,
        Does::Push(Action::SelectAll),
        "select the whole map",
    )
    .when(grid_kind),
    row(
        Command::SelectNone,
        "Select none",
        sc(NONE, Key::Escape),
        Edit,
        Does::Push(Action::SelectNone),
        "clear the selection; Esc first cancels a drag in progress, and while playing stops play",
    ),
    row(
        Command::ZoomIn,
        "Zoom in",
        sc(NONE, Key::Plus),
        View,
        Does::Push(Action::ZoomIn),
        "zoom in around the centre",
    )
    .when(grid_kind),
    row(
        Command::ZoomInEq,
        "Zoom in",
        sc(NONE, Key::Equals),
        View,
        Does::Push(Action::ZoomIn),
        "zoom in around the centre",
    )
    .when(grid_kind),
    row(
        Command::ZoomOut,
        "Zoom out",
        sc(NONE, Key::Minus),
        View,
        Does::Push(Action::ZoomOut),
        "zoom out around the centre",
    )
    .when(grid_kind),
    row(
        Command::Fit,
        "Fit",
        sc(NONE, Key::Num0),
        View,
        Does::Push(Action::Fit),
        "fit the map into the canvas",
    )
    .when(grid_kind),
    row(
        Command::Grid,
        "Grid",
        sc(NONE, Key::G),
        View,
        Does::Push(Action::ToggleGrid),
        "show or hide the grid",
    )
    .when(grid_kind),
    row(
        Command::PalettePanel,
        "Palette panel",
        sc(CTRL, Key::B),
        View,
        Does::Push(Action::ShowPane(Pane::Palette, None)),
        "show or hide the left panel (the palette); its edge drags to resize it",
    ),
    row(
        Command::SidePanel,
        "Side panel",
        sc(CTRL_ALT, Key::B),
        View,
        Does::Push(Action::ShowPane(Pane::Side, None)),
        "show or hide the right panel (cell & level, rules, play pane); its edge drags to resize it",
    ),
    row(
        Command::ProblemsPanel,
        "Problems list",
        sc(CTRL, Key::J),
        View,
        Does::Push(Action::ShowPane(Pane::Problems, None)),
        "show or hide the problems list; its top edge drags to resize it",
    ),
    row(
        Command::PlayToggle,
        "Play / stop",
        sc(NONE, Key::F5),
        Play,
        Does::ByState(|st| {
            if st.playing() {
                Action::Play(PlayAction::Stop)
            } else {
                Action::Play(PlayAction::Start)
            }
        }),
        "play the design in a separate session, or stop",
    ),
    row(
        Command::Replace,
        "Replace…",
        sc(CTRL, Key::H),
        Edit,
        Does::Push(Action::ShowReplace(true)),
        "open the Replace dialog (replace one token by another everywhere)",
    )
    .when(|st| st.doc.has_replace_all()),
    row(
        Command::Shortcuts,
        "Keyboard shortcuts",
        sc(NONE, Key::F1),
        Help,
        Does::Push(Action::ShowShortcuts(true)),
        "this sheet",
    ),
    tool(Tool::Pencil, Key::P, "tool: paint cells under the pointer"),
    tool(Tool::Rect, Key::R, "tool: drag a rectangle (Esc cancels)"),
    tool(
        Tool::Line,
        Key::L,
        "tool: drag a straight line (Esc cancels)",
    ),
    tool(Tool::Fill, Key::F, "tool: fill the connected area"),
    tool(
        Tool::Eyedropper,
        Key::I,
        "tool: pick a cell's token as a brush",
    ),
    tool(Tool::Select, Key::S, "tool: select, drag inside to move"),
];

/// The number of commands.
const COUNT: usize = ROWS.len();

/// The number of modifiers a shortcut needs (Ctrl, Alt, Shift).
const fn modifier_count(s: Option<KeyboardShortcut>) -> u8 {
    match s {
        Some(s) => {
            let m = s.modifiers;
            (m.command || m.ctrl) as u8 + m.alt as u8 + m.shift as u8
        }
        None => 0,
    }
}

/// The commands of [`ROWS`], stably sorted by their menu (`by_menu`), or else with the
/// shortcuts of two modifiers first, so that Ctrl+Shift+S is tried before Ctrl+S takes the
/// key.
const fn ordered(by_menu: bool) -> [Command; COUNT] {
    let mut out = [Command::New; COUNT];
    let mut keys = [0u8; COUNT];
    let mut n = 0;
    while n < COUNT {
        let key = if by_menu {
            ROWS[n].menu as u8
        } else {
            (modifier_count(ROWS[n].shortcut) < 2) as u8
        };
        let mut j = n;
        while j > 0 && keys[j - 1] > key {
            out[j] = out[j - 1];
            keys[j] = keys[j - 1];
            j -= 1;
        }
        out[j] = ROWS[n].command;
        keys[j] = key;
        n += 1;
    }
    out
}

impl Command {
    /// Every command, in the order shortcuts are tested (longer modifier sets first).
    pub const ALL: [Command; COUNT] = ordered(false);

    /// Every command in menu order (File, Edit, View, Play, Help, then the tools): the
    /// shortcut sheet's order.
    pub const SHEET: [Command; COUNT] = ordered(true);

    /// The command's row.
    fn row(self) -> &'static Row {
        ROWS.iter()
            .find(|r| r.command == self)
            .expect("every command has a row")
    }

    /// The label in menus.
    pub fn label(self) -> &'static str {
        self.row().label
    }

    /// The keyboard shortcut.
    pub fn shortcut(self) -> Option<KeyboardShortcut> {
        self.row().shortcut
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

    /// The action in the current state (the play toggle depends on it).
    pub fn action(self, st: &EditorState) -> Action {
        match &self.row().does {
            Does::Push(a) => a.clone(),
            Does::ByState(f) => f(st),
        }
    }

    /// What the command does, in a sentence (the shortcut sheet's third column).
    pub fn about(self) -> &'static str {
        self.row().about
    }

    /// False for commands that do nothing for the open document (Replace on a baba level).
    pub fn available(self, st: &EditorState) -> bool {
        (self.row().available)(st)
    }

    /// True for commands that still work while a text field has the keyboard (Ctrl+S, …).
    pub fn works_in_text(self) -> bool {
        self.row().in_text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_has_one_row() {
        for (i, r) in ROWS.iter().enumerate() {
            assert!(
                !ROWS[..i].iter().any(|q| q.command == r.command),
                "{:?} has two rows",
                r.command
            );
        }
        for t in Tool::ALL {
            assert_eq!(Command::Tool(t).label(), t.name());
        }
    }
}
