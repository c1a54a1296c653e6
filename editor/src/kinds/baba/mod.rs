//! The baba kind in the editor: a level whose cells hold stacks of objects and text tiles
//! (spec baba §1), the two brushes with facing and stack mode, the live rule list, typed
//! sentences, and a play pane with the turn log.
//!
//! [`BabaDoc`] is the document (built on the generic [`MapDoc`]); [`BabaUi`] draws its palette,
//! pages and stacks. Actions only baba has are [`BabaAction`]s.

pub mod figure;
pub mod look;
mod new;
mod play;
mod play_ui;
mod repair;
mod ui;

use std::collections::HashSet;

use serde_json::Value;
use tilesmith_engine::kind::baba::level::{MAX_CELLS, MAX_SIDE, MAX_STACK, suggest_text};
use tilesmith_engine::kind::baba::rules::{FormedRule, parse_words, sentence_tiles, words_of};
use tilesmith_engine::kind::baba::{Baba, BabaGame, BabaLevel, Kind, Tile};
use tilesmith_engine::problem::did_you_mean;
use tilesmith_engine::{Dir, GameKind, Grid, Input, Pos, Problem};

use crate::doc::history::Undoable;
use crate::doc::map::{DocEdit, MapDoc, MapLevel, MapOps};
use crate::doc::play::PlaySession;
use crate::doc::registry::KindEntry;
use crate::doc::ui::UiEntry;
use crate::doc::{Cx, KindAction, KindDoc};
use crate::state::{Action, IntoDoc};
use crate::tools::{Button, CellRect, MapCell, Tool};
pub use play::{BabaPlay, TurnLog};
pub use ui::{BabaPanelState, BabaUi};

/// The registry entry of the baba kind.
pub const ENTRY: KindEntry = KindEntry {
    name: "baba",
    about: "Baba Is You: objects and text tiles that form the rules",
    engine: &Baba,
    new_doc: || Box::new(BabaDoc::new(BabaDoc::new_level())),
    open: |v| {
        BabaLevel::from_json_editable(v).map(|l| Box::new(BabaDoc::new(l)) as Box<dyn KindDoc>)
    },
    new_options: new::options,
    new_level: new::level,
    bench_doc: |side| Box::new(BabaDoc::new(bench_level(side, side))),
};

/// The kind's UI in the list of kind UIs.
pub const UI: UiEntry = UiEntry {
    name: "baba",
    new_ui: || Box::new(BabaUi::default()),
};

/// One stack: the objects of a cell, bottom first.
pub type Stack = Vec<Tile>;

/// The size of a new baba level (the size of many of the game's own levels).
pub const NEW_BABA_SIZE: (usize, usize) = (24, 14);

/// The largest map (in cells) whose rule list is recomputed at every pointer move of a stroke;
/// larger maps update it when the stroke ends.
pub const LIVE_STROKE_CELLS: usize = 250_000;

/// How painting treats a baba cell's stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum StackMode {
    /// The painted object goes on top of the stack (unless the top is the same object).
    #[default]
    AddOnTop,
    /// The painted object replaces the whole stack.
    Replace,
}

/// What a mouse button paints on a baba map: an object or text tile (facing a direction), or
/// nothing (the eraser), and whether it goes on top of the stack or replaces it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StackBrush {
    /// The tile painted; `None` erases the cell.
    pub tile: Option<Tile>,
    /// Add on top or replace.
    pub mode: StackMode,
}

impl MapCell for Vec<Tile> {
    type Brush = StackBrush;

    fn empty() -> Self {
        Vec::new()
    }

    /// Add on top: the stack plus the tile, unless its top already is that tile or the stack
    /// holds [`MAX_STACK`] objects. Replace: the tile alone. The eraser empties the cell.
    fn painted(&self, brush: &StackBrush) -> Self {
        match (brush.tile, brush.mode) {
            (None, _) => Vec::new(),
            (Some(t), StackMode::Replace) => vec![t],
            (Some(t), StackMode::AddOnTop) => {
                let mut v = self.clone();
                if v.last() != Some(&t) && v.len() < MAX_STACK {
                    v.push(t);
                }
                v
            }
        }
    }

    /// Fill spreads over cells with exactly the same stack.
    fn same_area(&self, other: &Self) -> bool {
        self == other
    }
}

impl MapLevel for BabaLevel {
    type Cell = Stack;

    fn map(&self) -> &Grid<Stack> {
        &self.map
    }

    fn map_mut(&mut self) -> &mut Grid<Stack> {
        &mut self.map
    }

    fn limits() -> (usize, usize) {
        (MAX_SIDE, MAX_CELLS)
    }

    fn cell_to_json(cell: &Stack) -> Value {
        tilesmith_engine::kind::baba::level::stack_to_json(cell)
    }

    /// Repair mode: entries that cannot be read open as unknown tiles (docs/editor.md).
    fn from_json(doc: &Value) -> Result<Self, Vec<Problem>> {
        BabaLevel::from_json_editable(doc)
    }

    fn to_json(&self) -> Value {
        BabaLevel::to_json(self)
    }

    fn cell_from_json(v: &Value) -> Option<Stack> {
        tilesmith_engine::kind::baba::level::stack_from_json(v)
    }
}

impl IntoDoc for BabaLevel {
    fn into_doc(self) -> Box<dyn KindDoc> {
        Box::new(BabaDoc::new(self))
    }
}

/// Baba's own edit: the level's display name.
#[derive(Clone, Debug)]
pub struct NameEdit {
    /// The name shown in the history list.
    pub name: String,
    /// The level name to swap in.
    pub value: String,
}

impl Undoable for NameEdit {
    type Target = BabaLevel;

    fn name(&self) -> &str {
        &self.name
    }

    fn apply_swap(&mut self, level: &mut BabaLevel) {
        std::mem::swap(&mut level.name, &mut self.value);
    }

    fn absorb(&mut self, _newer: Self) -> Result<(), Self> {
        Ok(())
    }
}

/// One undoable change to a baba level.
pub type BabaEdit = DocEdit<BabaLevel, NameEdit>;

/// The actions that exist only for baba documents.
#[derive(Clone, Debug, PartialEq)]
pub enum BabaAction {
    /// The tile the left button paints (`None`: the eraser).
    SetPrimary(Option<Kind>),
    /// The tile the right button paints (`None`: the eraser).
    SetSecondary(Option<Kind>),
    /// The direction newly painted objects face.
    SetFacing(Dir),
    /// Painting adds on top of a cell's stack, or replaces it.
    SetStackMode(StackMode),
    /// Replace the stack of one cell (the inspector: reorder, remove, turn an object). `what`
    /// names the edit in the history ("Reorder stack", …); consecutive edits with the same
    /// `what` on the same cell merge into one history entry.
    SetStack {
        /// The cell (x = column, y = row).
        pos: Pos,
        /// The new stack, bottom first (index 0 is drawn lowest).
        stack: Stack,
        /// The name of the edit.
        what: &'static str,
    },
    /// Place a typed sentence ("keke is push") as text tiles, starting at `at` and going right
    /// (or down when `vertical`), as one edit. Each tile goes on top of or replaces its cell's
    /// stack, as painting does.
    PlaceSentence {
        /// The words, separated by spaces (case does not matter).
        text: String,
        /// The first word's cell.
        at: Pos,
        /// Downwards instead of to the right.
        vertical: bool,
    },
    /// The rule under the pointer: an index into [`BabaDoc::rules`] (the game's rules while
    /// playing, else the design's); its tiles are highlighted on the map.
    HoverRule(Option<usize>),
    /// Change the level name.
    SetName(String),
}

impl From<BabaAction> for Action {
    fn from(a: BabaAction) -> Self {
        Action::Kind(KindAction::new(a))
    }
}

/// The state of an open baba document.
#[derive(Debug)]
pub struct BabaDoc {
    /// The level, its history, stroke and clipboard.
    pub map: MapDoc<BabaLevel, NameEdit>,
    /// What the left button paints (`None`: erase).
    pub primary: Option<Kind>,
    /// What the right button paints (`None`: erase).
    pub secondary: Option<Kind>,
    /// The direction newly painted objects face.
    pub facing: Dir,
    /// Painting adds on top of the stack or replaces it.
    pub stack_mode: StackMode,
    /// The play session, while playing.
    pub play: Option<BabaPlay>,
    /// The rule under the pointer in the rule list: an index into [`BabaDoc::rules`].
    pub hovered_rule: Option<usize>,
    /// The rules the design's text forms (kept in step with the level by `refresh`).
    rules: Vec<FormedRule>,
    /// The design's text tiles that form no rule, as `(cell, stack index)`.
    unused: HashSet<(Pos, usize)>,
    /// The colours the design's colour words give at the level's start.
    tints: play::Tints,
    /// What the rule list was computed for: the history generation and, during a stroke, its
    /// start, last cell and preview length.
    rules_key: Option<RulesKey>,
}

type RulesKey = (u64, Option<(Pos, Pos, usize)>);

/// Swaps each `(pos, stack)` with the level's stack at `pos` (twice restores both).
fn swap_in(level: &mut BabaLevel, cells: &mut [(Pos, Stack)]) {
    for (p, s) in cells.iter_mut() {
        if let Some(c) = level.map.get_mut(*p) {
            std::mem::swap(c, s);
        }
    }
}

impl BabaDoc {
    /// A document editing `level`, with BABA as the left brush and the eraser on the right.
    pub fn new(level: BabaLevel) -> Self {
        let mut d = Self {
            map: MapDoc::new(level),
            primary: Kind::from_token("baba"),
            secondary: None,
            facing: Dir::Right,
            stack_mode: StackMode::AddOnTop,
            play: None,
            hovered_rule: None,
            rules: Vec::new(),
            unused: HashSet::new(),
            tints: play::Tints::default(),
            rules_key: None,
        };
        d.refresh_rules();
        d
    }

    /// A new untitled baba level of the default baba size.
    pub fn new_level() -> BabaLevel {
        BabaLevel::new("untitled", NEW_BABA_SIZE.0, NEW_BABA_SIZE.1)
    }

    /// The design.
    pub fn level(&self) -> &BabaLevel {
        &self.map.level
    }

    /// The design's undo history.
    pub fn history(&self) -> &crate::doc::history::History<BabaEdit> {
        &self.map.history
    }

    /// Recomputes the rule list and the unused text when the level changed. While a stroke
    /// is in progress on a map of at most [`LIVE_STROKE_CELLS`] cells, they are computed for
    /// the map as the stroke would leave it, so the list follows the pointer.
    pub fn refresh_rules(&mut self) {
        let g = self.map.generation();
        let live = self
            .map
            .stroke_key()
            .filter(|_| self.map.level.width() * self.map.level.height() <= LIVE_STROKE_CELLS);
        let key = (g, live);
        if self.rules_key == Some(key) {
            return;
        }
        self.rules_key = Some(key);
        // The stroke's preview is swapped into the level, the rules formed, and swapped back.
        let mut preview: Vec<(Pos, Stack)> = match (&self.map.stroke, live) {
            (Some(s), Some(_)) => s.preview.clone(),
            _ => Vec::new(),
        };
        swap_in(&mut self.map.level, &mut preview);
        let level = std::mem::replace(&mut self.map.level, BabaLevel::new("", 1, 1));
        self.set_rules(&level);
        self.map.level = level;
        swap_in(&mut self.map.level, &mut preview);
    }

    fn set_rules(&mut self, level: &BabaLevel) {
        self.rules = level.rules();
        self.unused =
            tilesmith_engine::kind::baba::rules::unused_text(&level.text_tiles(), &self.rules)
                .into_iter()
                .map(|t| (t.pos, t.layer))
                .collect();
        // Colours as the level starts, from a game at turn 0 (which also applies conditions
        // and LEVEL rules): only when some rule gives a colour, so plain edits stay cheap.
        let colours = tilesmith_engine::kind::baba::Prop::COLOURS;
        let gives_colour = self.rules.iter().any(|r| {
            r.text
                .split(' ')
                .any(|w| colours.iter().any(|c| c.name().eq_ignore_ascii_case(w)))
        });
        self.tints = if gives_colour {
            play::Tints::of(&BabaGame::new(level.clone(), 0))
        } else {
            play::Tints::default()
        };
    }

    /// How the tile at stack index `layer` (0 = bottom) of cell `pos`, as shown, is drawn:
    /// dimmed when it is text forming no rule, and in the colour a colour word gives it.
    pub fn tile_look(&self, pos: Pos, layer: usize) -> look::TileLook {
        let tints = match &self.play {
            Some(p) => &p.tints,
            None => &self.tints,
        };
        look::TileLook {
            dim: self.is_unused(pos, layer),
            tint: tints.objects.get(&(pos, layer)).copied(),
        }
    }

    /// The level's colour as shown (`LEVEL IS RED`), drawn over the background.
    pub fn level_tint(&self) -> Option<eframe::egui::Color32> {
        match &self.play {
            Some(p) => p.tints.level,
            None => self.tints.level,
        }
    }

    /// The background of a cell: [`look::EMPTY`], tinted by the level's colour
    /// ([`BabaDoc::level_tint`]) when it has one.
    pub fn background(&self) -> eframe::egui::Color32 {
        look::background(self.level_tint())
    }

    /// One colour per cell of the shown map, row-major, for the zoomed-out map and the
    /// exporter's base layer: the top tile's colour (its tint when a colour word gives it
    /// one), or the background.
    pub fn base_colors(&self) -> Vec<eframe::egui::Color32> {
        let map = self.shown_map();
        let bg = self.background();
        map.iter()
            .map(|(p, s)| match s.len().checked_sub(1) {
                None => bg,
                Some(top) => self
                    .tile_look(p, top)
                    .tint
                    .unwrap_or_else(|| look::stack_color(s)),
            })
            .collect()
    }

    /// The rules shown in the rule list: the play state's while playing, else the design's
    /// (board order, implicit rules not included), each with its text tiles.
    pub fn rules(&self) -> &[FormedRule] {
        match &self.play {
            Some(p) => p.rules(),
            None => &self.rules,
        }
    }

    /// True when the text tile at stack index `layer` (0 = bottom) of cell `pos` (x = column,
    /// y = row), as shown, forms no rule.
    pub fn is_unused(&self, pos: Pos, layer: usize) -> bool {
        match &self.play {
            Some(p) => p.unused.contains(&(pos, layer)),
            None => self.unused.contains(&(pos, layer)),
        }
    }

    /// How many text tiles of the shown map form no rule.
    pub fn unused_count(&self) -> usize {
        match &self.play {
            Some(p) => p.unused.len(),
            None => self.unused.len(),
        }
    }

    /// The map as shown: the play state while playing, else the design.
    pub fn shown_map(&self) -> &Grid<Stack> {
        match &self.play {
            Some(p) => &p.shown.map,
            None => &self.map.level.map,
        }
    }

    /// The brush of a mouse button.
    pub fn brush(&self, button: Button) -> StackBrush {
        let kind = match button {
            Button::Primary => self.primary,
            Button::Secondary => self.secondary,
        };
        StackBrush {
            tile: kind.map(|k| Tile {
                kind: k,
                dir: self.facing,
            }),
            mode: self.stack_mode,
        }
    }

    /// The cells of the rule under the pointer in the rule list.
    pub fn hovered_tiles(&self) -> Vec<Pos> {
        self.hovered_rule
            .and_then(|i| self.rules().get(i))
            .map(|r| r.tiles.iter().map(|t| t.pos).collect())
            .unwrap_or_default()
    }

    /// The selection rectangle being dragged or moved, if any.
    pub fn stroke_selection(&self) -> Option<CellRect> {
        self.map.stroke_selection()
    }

    fn place_sentence(&mut self, text: &str, at: Pos, vertical: bool, cx: &mut Cx<'_>) {
        match sentence_cells(&self.map.level, text, at, vertical, self.stack_mode) {
            Ok(cells) => {
                let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
                let name = format!("Place \"{}\"", words.to_lowercase());
                if !self.map.push_cells(&name, cells, None) {
                    *cx.status = format!(
                        "\"{}\" is already there: nothing changed",
                        words.to_lowercase()
                    );
                    return;
                }
                *cx.status = if parse_words(text).is_some() {
                    format!("placed \"{}\"", words.to_lowercase())
                } else {
                    format!(
                        "placed \"{}\" (these words form no rule)",
                        words.to_lowercase()
                    )
                };
            }
            Err(m) => *cx.status = m,
        }
    }
}

/// The cells and stacks of a typed sentence placed at `at`: each word's text tile painted onto
/// its cell with `mode`.
///
/// # Errors
/// A message when the text is empty, has a word that is not a baba word (each with the
/// nearest word: `not a baba word: kek (did you mean \"keke\"?)`), or leaves the map.
pub fn sentence_cells(
    level: &BabaLevel,
    text: &str,
    at: Pos,
    vertical: bool,
    mode: StackMode,
) -> Result<Vec<(Pos, Stack)>, String> {
    // Each unknown word with the nearest baba word, as repair mode and `check` offer it.
    let unknown: Vec<String> = text
        .split_whitespace()
        .filter(|w| words_of(w).is_none())
        .map(|w| {
            let near = suggest_text(&w.to_lowercase());
            let near = near
                .as_deref()
                .map(|t| t.strip_prefix("text_").unwrap_or(t));
            format!("{w}{}", did_you_mean(near))
        })
        .collect();
    if !unknown.is_empty() {
        return Err(format!("not a baba word: {}", unknown.join(", ")));
    }
    if text.split_whitespace().next().is_none() {
        return Err("type the words of a rule, e.g. \"keke is push\"".into());
    }
    let tiles =
        sentence_tiles(text, at, vertical, level.width(), level.height()).ok_or_else(|| {
            format!(
                "the sentence does not fit: it needs {} cells {} from x {}, y {}",
                text.split_whitespace().count(),
                if vertical { "down" } else { "right" },
                at.x,
                at.y
            )
        })?;
    Ok(tiles
        .into_iter()
        .filter_map(|(p, token)| {
            let brush = StackBrush {
                tile: Kind::from_token(&token).map(Tile::new),
                mode,
            };
            Some((p, level.map.get(p)?.painted(&brush)))
        })
        .collect())
}

impl KindDoc for BabaDoc {
    fn kind(&self) -> &'static dyn GameKind {
        &Baba
    }

    fn step_noun(&self) -> &'static str {
        "turn"
    }

    fn real_time(&self) -> bool {
        false
    }

    crate::map_doc_basics!();

    fn essential_cells(&self) -> Vec<(Pos, String)> {
        new::essential(self)
    }

    fn keep_tools_of(&mut self, old: &mut dyn KindDoc) {
        if let Some(old) = old.as_any_mut().downcast_mut::<BabaDoc>() {
            // An unknown tile (picked with the eyedropper) belongs to its own level.
            if !old.primary.is_some_and(Kind::is_unknown) {
                self.primary = old.primary;
            }
            if !old.secondary.is_some_and(Kind::is_unknown) {
                self.secondary = old.secondary;
            }
            self.facing = old.facing;
            self.stack_mode = old.stack_mode;
            // An unknown tile refers to an entry of its own level: it does not travel.
            self.map.clipboard = old.map.clipboard.take().map(|mut c| {
                c.cells_mut()
                    .iter_mut()
                    .for_each(|s| s.retain(|t| !t.kind.is_unknown()));
                c
            });
        }
    }

    fn shown_size(&self) -> (usize, usize) {
        let m = self.shown_map();
        (m.width(), m.height())
    }

    fn pick(&mut self, pos: Pos, button: Button) {
        if let Some(stack) = self.map.cell(pos) {
            let top = stack.last().map(|t| t.kind);
            let dir = stack.last().map(|t| t.dir);
            match button {
                Button::Primary => self.primary = top,
                Button::Secondary => self.secondary = top,
            }
            if let Some(d) = dir {
                self.facing = d;
            }
        }
    }

    fn begin_stroke(
        &mut self,
        tool: Tool,
        button: Button,
        pos: Pos,
        filled: bool,
        selection: Option<CellRect>,
    ) {
        let brush = self.brush(button);
        self.map.begin_stroke(tool, brush, pos, filled, selection);
    }

    fn copy_shown(&mut self, r: CellRect) {
        self.map.clipboard = Some(crate::tools::copy_rect(self.shown_map(), r));
    }

    fn apply(&mut self, action: &KindAction, cx: &mut Cx<'_>) {
        let Some(a) = action.get::<BabaAction>() else {
            return;
        };
        let design_edit = matches!(
            a,
            BabaAction::SetStack { .. } | BabaAction::PlaceSentence { .. }
        );
        if design_edit && self.play.is_some() {
            *cx.status = "stop playing (F5) to edit the design".into();
            return;
        }
        match a {
            BabaAction::SetPrimary(k) => self.primary = *k,
            BabaAction::SetSecondary(k) => self.secondary = *k,
            BabaAction::SetFacing(d) => self.facing = *d,
            BabaAction::SetStackMode(m) => self.stack_mode = *m,
            BabaAction::SetStack { pos, stack, what } => {
                let key = format!("stack {what} {} {}", pos.x, pos.y);
                self.map
                    .push_cells(what, vec![(*pos, stack.clone())], Some(&key));
            }
            BabaAction::PlaceSentence { text, at, vertical } => {
                self.place_sentence(text, *at, *vertical, cx);
            }
            BabaAction::HoverRule(i) => self.hovered_rule = *i,
            BabaAction::SetName(n) => {
                if *n != self.map.level.name {
                    let e = DocEdit::Kind(NameEdit {
                        name: "Set name".into(),
                        value: n.clone(),
                    });
                    self.map.push(e, Some("props name"));
                }
            }
        }
    }

    fn refresh(&mut self) {
        self.refresh_rules();
    }

    fn unhover(&mut self) {
        self.hovered_rule = None;
    }

    fn play(&self) -> Option<&PlaySession> {
        self.play.as_ref().map(|p| &p.session)
    }

    fn play_mut(&mut self) -> Option<&mut PlaySession> {
        self.play.as_mut().map(|p| &mut p.session)
    }

    fn start_play(&mut self, seed: u64) -> Result<(), Vec<Problem>> {
        self.hovered_rule = None;
        self.play = Some(BabaPlay::new(self.map.level.clone(), seed));
        Ok(())
    }

    fn stop_play(&mut self) {
        self.hovered_rule = None;
        self.play = None;
    }

    fn play_step(&mut self, input: Input) {
        if let Some(p) = &mut self.play {
            p.input(input);
        }
    }

    fn play_back(&mut self) {
        if let Some(p) = &mut self.play {
            p.input(Input::Undo);
        }
    }

    fn play_forward(&mut self) {
        if let Some(p) = &mut self.play {
            let t = p.turn() + 1;
            p.go_to(t);
        }
    }

    fn play_scrub(&mut self, t: u64) {
        if let Some(p) = &mut self.play {
            p.go_to(t);
        }
    }

    fn play_poll(&mut self) -> Option<String> {
        let p = self.play.as_mut()?;
        let (turn, _) = p.session.computing()?;
        Some(format!("turn {turn} {}", p.poll()?))
    }

    /// The game's own restart (undoable with Z, as in the game).
    fn play_reset(&mut self) {
        if let Some(p) = &mut self.play {
            p.input(Input::Restart);
        }
    }

    fn use_play_state(&mut self, name: &str) -> Result<(), String> {
        let Some(p) = &self.play else {
            return Err("not playing".into());
        };
        if let Some((pos, s)) = p.shown.map.iter().find(|(_, s)| s.len() > MAX_STACK) {
            return Err(format!(
                "cell x {}, y {} holds {} objects (a level file allows at most {MAX_STACK} per cell)",
                pos.x,
                pos.y,
                s.len()
            ));
        }
        let level = p.shown.clone();
        self.map.push_level(name, level);
        Ok(())
    }
}

/// A `w` × `h` baba level for the frame benchmark: rules on row 0, then a repeating mix of
/// objects (some cells empty, some with stacks of two) and loose text tiles, every object noun
/// and every word appearing.
pub fn bench_level(w: usize, h: usize) -> BabaLevel {
    use tilesmith_engine::kind::baba::palette;
    let mut level = BabaLevel::new("bench", w, h);
    let kinds: Vec<Kind> = palette()
        .iter()
        .filter_map(|e| Kind::from_token(&e.token))
        .collect();
    for (i, c) in level.map.cells_mut().iter_mut().enumerate() {
        let (x, y) = (i % w, i / w);
        let k = x * 7 + y * 13 + (x * y) % 5;
        if k % 3 == 0 {
            continue;
        }
        let dir = Dir::ALL[(x + y) % 4];
        c.push(Tile {
            kind: kinds[k % kinds.len()],
            dir,
        });
        if k % 7 == 1 {
            c.push(Tile {
                kind: kinds[(k / 7) % kinds.len()],
                dir,
            });
        }
    }
    level
}
