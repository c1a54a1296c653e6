//! The drawing half of the document seam: a kind's palette, side pages and canvas look.
//!
//! One [`KindUi`] value per open document kind lives in the UI state ([`crate::ui::UiState`]),
//! made by the kind's [`UiEntry`] in the list of kind UIs ([`KindUis`]); it keeps the kind's
//! widget buffers and caches. That list is apart from the list of kinds
//! ([`crate::doc::registry::Kinds`]) because the state holds the latter and a kind UI reads the
//! state: the layers stay one-way (the state below this seam, the drawing above it). Its methods read
//! the shell ([`EditorState`]) and the kind's own document (downcast from
//! [`EditorState::doc`]) and push [`Action`]s, like every UI function.

use eframe::egui::{Color32, Painter, Pos2, Rect, Ui, vec2};
use tilesmith_engine::{Dir, Game, Pos, Status};

use crate::state::{Action, EditorState};

/// Where the map is on screen this frame.
#[derive(Clone, Copy, Debug)]
pub struct MapGeom {
    /// Screen position of the map's top-left corner.
    pub origin: Pos2,
    /// Screen points per cell.
    pub zoom: f32,
    /// The visible cells: `(x0, y0, x1, y1)`, `x1` and `y1` exclusive.
    pub visible: (usize, usize, usize, usize),
    /// True when the base colours were drawn from the map texture (else the kind draws them).
    pub textured: bool,
}

impl MapGeom {
    /// The screen rectangle of cell `p` (x = column, y = row).
    pub fn cell_rect(&self, p: Pos) -> Rect {
        Rect::from_min_size(
            self.origin + vec2(p.x as f32 * self.zoom, p.y as f32 * self.zoom),
            vec2(self.zoom, self.zoom),
        )
    }

    /// True when cell `p` is visible.
    pub fn shows(&self, p: Pos) -> bool {
        let (x0, y0, x1, y1) = self.visible;
        (x0..x1).contains(&p.x) && (y0..y1).contains(&p.y)
    }

    /// Every visible cell, row by row.
    pub fn cells(&self) -> impl Iterator<Item = Pos> + use<> {
        let (x0, y0, x1, y1) = self.visible;
        (y0..y1).flat_map(move |y| (x0..x1).map(move |x| Pos::new(x, y)))
    }
}

/// How one kind's UI is made: the kind's entry in the list of kind UIs.
#[derive(Clone, Copy)]
pub struct UiEntry {
    /// The kind's name, as in its [`crate::doc::registry::KindEntry`].
    pub name: &'static str,
    /// A new UI of the kind (palette, pages, canvas look), with empty buffers.
    pub new_ui: fn() -> Box<dyn KindUi>,
}

/// The UIs of the kinds the editor edits, in the order of the list of kinds (default first):
/// built at the top beside [`crate::doc::registry::Kinds`] and handed to what draws.
/// Derefs to the slice of entries.
#[derive(Clone, Copy)]
pub struct KindUis(pub &'static [UiEntry]);

impl std::ops::Deref for KindUis {
    type Target = [UiEntry];

    fn deref(&self) -> &[UiEntry] {
        self.0
    }
}

impl std::fmt::Debug for KindUis {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.0.iter().map(|k| k.name))
            .finish()
    }
}

impl KindUis {
    /// A new UI of the kind named `name`; the default kind's (the first) when no entry has
    /// that name.
    ///
    /// # Panics
    /// When the list is empty (the editor is built with at least one kind).
    pub fn new_ui(&self, name: &str) -> Box<dyn KindUi> {
        let e = self.0.iter().find(|k| k.name == name).unwrap_or(&self.0[0]);
        (e.new_ui)()
    }
}

/// A kind's panels and canvas look.
pub trait KindUi {
    /// The kind's name (`boulder`, `baba`).
    fn kind(&self) -> &'static str;
    /// The palette (left panel): brushes and their options.
    fn palette_ui(&mut self, ui: &mut Ui, st: &EditorState, out: &mut Vec<Action>);
    /// The main page while editing: inspector and level properties (the shell adds the
    /// resize fields and the history list below).
    fn design_ui(&mut self, ui: &mut Ui, st: &EditorState, out: &mut Vec<Action>);
    /// The main page while playing: the play pane and the inspector.
    fn play_ui(&mut self, ui: &mut Ui, st: &EditorState, out: &mut Vec<Action>);
    /// The end of the main page while playing, below the shell's shared play tools (the
    /// computer player and Solve, `crate::play`): by default nothing (board: the
    /// inspector, so that the tools stay near the play pane).
    fn play_footer_ui(&mut self, _ui: &mut Ui, _st: &EditorState, _out: &mut Vec<Action>) {}
    /// The Rules page.
    fn rules_ui(&mut self, ui: &mut Ui, st: &EditorState, out: &mut Vec<Action>);
    /// The tooltip of the Rules tab.
    fn rules_help(&self) -> &'static str;
    /// What the base-colour texture shows: which map (a kind's own numbering) and its
    /// version; the texture is rebuilt when this changes.
    fn content_key(&self, st: &EditorState) -> (u8, u64);
    /// One base colour per cell of the shown map, row-major.
    fn base_colors(&self, st: &EditorState) -> Vec<Color32>;
    /// Draws the shown cells over the base colours (glyphs, stacks, the stroke preview).
    fn paint_cells(&mut self, painter: &Painter, st: &EditorState, g: &MapGeom);
    /// Draws the kind's overlays above the grid (play highlights, rule previews).
    fn paint_overlays(&mut self, painter: &Painter, st: &EditorState, g: &MapGeom);
    /// The shown cell at `pos` in a few words, for the status bar (`stone (loose 1)`,
    /// `baba > on text_is`); `None` outside the map.
    fn describe_cell(&self, st: &EditorState, pos: Pos) -> Option<String>;
    /// Where the hovered cell is, before its description in the status bar: by default its
    /// map coordinates `x   4, y   1`. `None` when the description names the place itself
    /// (board: `d7: Black Pawn`, whose cells include the coordinate margin).
    fn cell_place(&self, _st: &EditorState, pos: Pos) -> Option<String> {
        Some(format!("x {:>3}, y {:>3}", pos.x, pos.y))
    }
    /// The status bar's words for the level when no cell is hovered; by default
    /// `KIND level, W × H cells` from the map size.
    fn level_summary(&self, st: &EditorState) -> String {
        let (w, h) = st.map_size();
        format!("{} level, {w} × {h} cells", st.kind_name())
    }
    /// More about the cell at `pos` for the status bar (boulder while playing: the phases of
    /// the last tick that changed it).
    fn cell_note(&self, _st: &EditorState, _pos: Pos) -> Option<String> {
        None
    }
    /// The colour of the grid lines.
    fn grid_color(&self) -> Color32 {
        Color32::from_black_alpha(120)
    }
    /// The banner the shell shows over the map when the game is over: by default
    /// [`game_banner`] of the session's game (its error, else its status). A kind overrides it for its own
    /// words (baba: `Level won in 12 turns!`), or returns `None` when it paints its own.
    fn end_banner(&self, st: &EditorState) -> Option<Banner> {
        st.doc.play().and_then(|p| game_banner(p.game.as_ref()))
    }
    /// The whole canvas, for a kind whose document has no grid (`KindDoc::has_grid` false):
    /// `ui` covers the canvas's rectangle; the kind draws its level (the design, or the game
    /// while playing) and handles the pointer, pushing its own actions. The shell draws the
    /// play frame and the end banner over it. Not called for a kind with a grid.
    fn canvas_ui(&mut self, _ui: &mut Ui, _st: &EditorState, _out: &mut Vec<Action>) {}
    /// The body of the Replace dialog (Edit → Replace…, Ctrl+H): the kind's pair and its
    /// Replace all button. Only called when `KindDoc::has_replace_all` is true.
    fn replace_ui(&mut self, _ui: &mut Ui, _st: &EditorState, _out: &mut Vec<Action>) {}
}

/// A banner over the map at the end of a game: its words and whether the game was won (green)
/// or not (red: lost; grey: a draw).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Banner {
    /// The words (`Won: 3 points`, `Lost: me was crushed`).
    pub text: String,
    /// The banner's fill colour.
    pub fill: Color32,
}

/// Banner fill of a won game.
pub const WON_FILL: Color32 = Color32::from_rgb(30, 120, 40);
/// Banner fill of a lost game.
pub const LOST_FILL: Color32 = Color32::from_rgb(140, 30, 30);
/// Banner fill of a draw.
pub const DRAW_FILL: Color32 = Color32::from_rgb(70, 70, 90);

/// The banner of a game: `Stopped: …` with the error it stopped on (`Game::error`, as
/// `tilesmith run` reports `"status":"error"`), else [`status_banner`] of its status.
pub fn game_banner(game: &dyn Game) -> Option<Banner> {
    match game.error() {
        Some(e) => Some(Banner {
            text: format!("Stopped: {e}"),
            fill: LOST_FILL,
        }),
        None => status_banner(&game.status()),
    }
}

/// The generic banner of a game status: `None` while running; `Won — 3 points` (or
/// `Won by White`), `Lost: reason`, `Draw: reason`.
pub fn status_banner(status: &Status) -> Option<Banner> {
    let (text, fill) = match status {
        Status::Running => return None,
        Status::Won {
            winner: Some(w), ..
        } => (format!("Won by {w}"), WON_FILL),
        Status::Won { points, .. } => (
            format!(
                "Won — {points} point{}",
                if *points == 1 { "" } else { "s" }
            ),
            WON_FILL,
        ),
        Status::Lost { reason } => (format!("Lost: {reason}"), LOST_FILL),
        Status::Draw { reason } => (format!("Draw: {reason}"), DRAW_FILL),
    };
    Some(Banner { text, fill })
}

/// A short ASCII arrow for a direction (for buttons): `>` `^` `<` `v` (the default fonts
/// have no arrow glyphs).
pub fn arrow_char(d: Dir) -> &'static str {
    match d {
        Dir::Right => ">",
        Dir::Up => "^",
        Dir::Left => "<",
        Dir::Down => "v",
    }
}

/// A colour that contrasts with `bg` (near-black on light colours, near-white on dark ones).
pub fn ink(bg: Color32) -> Color32 {
    let l = 0.299 * bg.r() as f32 + 0.587 * bg.g() as f32 + 0.114 * bg.b() as f32;
    if l > 140.0 {
        Color32::from_rgb(20, 20, 20)
    } else {
        Color32::from_rgb(240, 240, 240)
    }
}
