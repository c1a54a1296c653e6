//! The baba document: a level whose cells hold stacks of objects and text tiles (spec baba §1),
//! its undo history, the two brushes, the live rule list and the play session.
//!
//! [`EditorState`] holds a [`BabaDoc`] while a baba level is open. The positional tools
//! (pencil, rectangle, line, fill, eyedropper, select/move, copy/paste), the selection, the
//! inspected cell and the view are shared with boulder; this module routes the actions that
//! touch the map to the baba level and adds the baba-only ones ([`BabaAction`]).

use std::collections::HashSet;

use tilesmith_engine::kind::baba::level::{MAX_CELLS, MAX_SIDE, MAX_STACK};
use tilesmith_engine::kind::baba::rules::{FormedRule, parse_words, sentence_tiles, words_of};
use tilesmith_engine::kind::baba::{BabaGame, BabaLevel, Kind, Tile};
use tilesmith_engine::replay::{Replay, ReplayLevel};
use tilesmith_engine::{Dir, Game as _, Grid, Input, Pos, Status};

use super::edit::{BabaEdit, History};
use super::{Action, EditorState};
use crate::tools::{
    Button, CellRect, MapCell as _, StackBrush, StackMode, Stroke, Tool, copy_rect, paste_cells,
    rect_of, resized,
};

/// One stack: the objects of a cell, bottom first.
pub type Stack = Vec<Tile>;

/// The largest map (in cells) whose rule list is recomputed at every pointer move of a stroke;
/// larger maps update it when the stroke ends.
pub const LIVE_STROKE_CELLS: usize = 250_000;

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
    /// Play one turn with this input (a move, wait, undo or restart).
    Turn(Input),
    /// Go to this turn of the play session (0 = the start; undo or redo turns until it is
    /// reached, clamped to the turns played).
    GoToTurn(u64),
}

/// What one turn of a play session did: for the turn list of the play pane.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnLog {
    /// The input (a move or wait).
    pub input: Input,
    /// Rules that hold after the turn but did not before it (rule text, board order).
    pub formed: Vec<String>,
    /// Rules that held before the turn but not after it.
    pub broken: Vec<String>,
    /// The cells whose contents changed (x = column, y = row), row-major.
    pub changed: Vec<Pos>,
    /// The status after the turn.
    pub status: Status,
}

/// A baba play session: a game started from the design, separate from the edits.
#[derive(Clone, Debug)]
pub struct BabaPlay {
    /// The game.
    pub game: BabaGame,
    /// The game's current state as a level (what the canvas and inspector show).
    pub shown: BabaLevel,
    /// The text tiles that form no rule now, as `(cell, stack index)`; the stack index counts
    /// from the bottom (0), in the order of [`BabaPlay::shown`].
    pub unused: HashSet<(Pos, usize)>,
    /// One entry per turn played, turn 1 first; entries past the current turn can be redone.
    pub log: Vec<TurnLog>,
    /// Counts every change of the shown state (for the canvas cache).
    pub version: u64,
}

impl BabaPlay {
    /// A session starting at the level's first turn.
    pub fn new(level: BabaLevel) -> Self {
        let game = BabaGame::new(level, 0);
        let mut p = Self {
            shown: game.to_baba_level(),
            game,
            unused: HashSet::new(),
            log: Vec::new(),
            version: 0,
        };
        p.sync();
        p
    }

    fn sync(&mut self) {
        self.version += 1;
        self.shown = self.game.to_baba_level();
        self.unused = self
            .game
            .unused_text()
            .into_iter()
            .map(|t| (t.pos, t.layer))
            .collect();
    }

    /// The current turn (0 at the start).
    pub fn turn(&self) -> u64 {
        self.game.turn()
    }

    /// The cells the current turn changed (empty at turn 0).
    pub fn changed(&self) -> &[Pos] {
        (self.turn() as usize)
            .checked_sub(1)
            .and_then(|i| self.log.get(i))
            .map_or(&[], |l| l.changed.as_slice())
    }

    /// Plays `input`: a move or wait is one turn; undo and restart go back (the turns undone
    /// stay in the log and can be stepped forward again until a new turn is played).
    pub fn input(&mut self, input: Input) {
        match input {
            Input::Undo => {
                self.game.undo();
            }
            Input::Restart => {
                // The engine's restart also returns to the start when old turns were dropped
                // from its bounded undo history.
                self.game.step(Input::Restart);
            }
            _ => {
                let before: Vec<String> =
                    self.game.rules().iter().map(|r| r.text.clone()).collect();
                let turn = self.game.turn();
                let report = self.game.step(input);
                if self.game.turn() == turn {
                    return; // won: no more turns
                }
                let after: Vec<String> = self.game.rules().iter().map(|r| r.text.clone()).collect();
                self.log.truncate(turn as usize);
                self.log.push(TurnLog {
                    input,
                    formed: after
                        .iter()
                        .filter(|r| !before.contains(r))
                        .cloned()
                        .collect(),
                    broken: before
                        .iter()
                        .filter(|r| !after.contains(r))
                        .cloned()
                        .collect(),
                    changed: report.changed,
                    status: self.game.status(),
                });
            }
        }
        self.sync();
    }

    /// The session as a replay: the level (the file when given, else embedded), the inputs of
    /// the turns up to the current one, and the current state as the expectation.
    pub fn replay(&self, level_file: Option<&std::path::Path>) -> Replay {
        let n = self.turn() as usize;
        let level = match level_file {
            Some(f) => ReplayLevel::Path(f.to_path_buf()),
            None => ReplayLevel::Embedded(self.game.level().to_json()),
        };
        let inputs: Vec<Input> = self.log.iter().take(n).map(|l| l.input).collect();
        Replay {
            level,
            seed: 0,
            ticks: inputs.len() as u64,
            inputs,
            hash: None,
            status: None,
            summary: None,
            source: None,
        }
        .recorded(&self.game)
    }

    /// Undoes or redoes turns until the game is at turn `n` (clamped to the turns played).
    pub fn go_to(&mut self, n: u64) {
        while self.game.turn() > n && self.game.undo() {}
        while self.game.turn() < n && self.game.redo() {}
        self.sync();
    }
}

/// The state of an open baba document.
#[derive(Debug)]
pub struct BabaDoc {
    /// The level being edited.
    pub level: BabaLevel,
    /// Its undo history.
    pub history: History<BabaEdit>,
    /// What the left button paints (`None`: erase).
    pub primary: Option<Kind>,
    /// What the right button paints (`None`: erase).
    pub secondary: Option<Kind>,
    /// The direction newly painted objects face.
    pub facing: Dir,
    /// Painting adds on top of the stack or replaces it.
    pub stack_mode: StackMode,
    /// The drag in progress.
    pub stroke: Option<Stroke<Stack>>,
    /// The editor's clipboard.
    pub clipboard: Option<Grid<Stack>>,
    /// The play session, while playing.
    pub play: Option<BabaPlay>,
    /// The rule under the pointer in the rule list: an index into [`BabaDoc::rules`].
    pub hovered_rule: Option<usize>,
    /// The rules the design's text forms (kept in step with the level by `refresh`).
    rules: Vec<FormedRule>,
    /// The design's text tiles that form no rule, as `(cell, stack index)`.
    unused: HashSet<(Pos, usize)>,
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
            level,
            history: History::default(),
            primary: Kind::from_token("baba"),
            secondary: None,
            facing: Dir::Right,
            stack_mode: StackMode::AddOnTop,
            stroke: None,
            clipboard: None,
            play: None,
            hovered_rule: None,
            rules: Vec::new(),
            unused: HashSet::new(),
            rules_key: None,
        };
        d.refresh_rules();
        d
    }

    /// Recomputes the rule list and the unused text when the level changed. While a stroke
    /// is in progress on a map of at most [`LIVE_STROKE_CELLS`] cells, they are computed for
    /// the map as the stroke would leave it, so the list follows the pointer.
    pub fn refresh_rules(&mut self) {
        let g = self.history.generation();
        let live = self
            .stroke
            .as_ref()
            .filter(|s| !s.preview.is_empty())
            .filter(|_| self.level.width() * self.level.height() <= LIVE_STROKE_CELLS)
            .map(|s| (s.start, s.last, s.preview.len()));
        let key = (g, live);
        if self.rules_key == Some(key) {
            return;
        }
        self.rules_key = Some(key);
        // The stroke's preview is swapped into the level, the rules formed, and swapped back.
        let mut preview: Vec<(Pos, Stack)> = match (&self.stroke, live) {
            (Some(s), Some(_)) => s.preview.clone(),
            _ => Vec::new(),
        };
        swap_in(&mut self.level, &mut preview);
        let level = std::mem::replace(&mut self.level, BabaLevel::new("", 1, 1));
        self.set_rules(&level);
        self.level = level;
        swap_in(&mut self.level, &mut preview);
    }

    fn set_rules(&mut self, level: &BabaLevel) {
        self.rules = level.rules();
        self.unused =
            tilesmith_engine::kind::baba::rules::unused_text(&level.text_tiles(), &self.rules)
                .into_iter()
                .map(|t| (t.pos, t.layer))
                .collect();
    }

    /// The rules shown in the rule list: the play state's while playing, else the design's
    /// (board order, implicit rules not included), each with its text tiles.
    pub fn rules(&self) -> &[FormedRule] {
        match &self.play {
            Some(p) => p.game.rules(),
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
            None => &self.level.map,
        }
    }

    /// Takes over the brushes, facing, stack mode and clipboard of another document (when a
    /// new baba level replaces `old`).
    pub fn keep_tools_of(&mut self, old: BabaDoc) {
        self.primary = old.primary;
        self.secondary = old.secondary;
        self.facing = old.facing;
        self.stack_mode = old.stack_mode;
        self.clipboard = old.clipboard;
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
}

/// The cells and stacks of a typed sentence placed at `at`: each word's text tile painted onto
/// its cell with `mode`.
///
/// # Errors
/// A message when the text is empty, has a word that is not a baba word, or leaves the map.
pub fn sentence_cells(
    level: &BabaLevel,
    text: &str,
    at: Pos,
    vertical: bool,
    mode: StackMode,
) -> Result<Vec<(Pos, Stack)>, String> {
    let unknown: Vec<&str> = text
        .split_whitespace()
        .filter(|w| words_of(w).is_none())
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

impl EditorState {
    /// The open baba document, if the document is a baba level.
    pub fn baba(&self) -> Option<&BabaDoc> {
        self.baba.as_ref()
    }

    /// Runs `action` on the baba document when one is open and the action is about the map or
    /// the play session; gives the action back for the shared handling (files, view, …).
    pub(super) fn baba_apply(&mut self, action: Action) -> Option<Action> {
        let Some(doc) = self.baba.as_mut() else {
            // Baba actions on a boulder document do nothing.
            return (!matches!(action, Action::Baba(_))).then_some(action);
        };
        if doc.play.is_some()
            && matches!(
                action,
                Action::Undo
                    | Action::Redo
                    | Action::HistoryGoTo(_)
                    | Action::Cut
                    | Action::Paste
                    | Action::DeleteSelection
                    | Action::Resize { .. }
            )
        {
            // The map shows the game: edits to the hidden design would surprise.
            self.status = "stop playing (F5) to edit the design".into();
            return None;
        }
        match action {
            Action::Baba(a) => self.baba_action(a),
            Action::SelectTool(t) => {
                doc.stroke = None;
                return Some(Action::SelectTool(t));
            }
            Action::SideTab(t) => {
                doc.hovered_rule = None;
                return Some(Action::SideTab(t));
            }
            Action::CellPress { pos, button, alt } => {
                if doc.play.is_some() {
                    self.inspect = Some(pos);
                    return None;
                }
                if alt || self.tool == Tool::Eyedropper {
                    if let Some(stack) = doc.level.map.get(pos) {
                        let top = stack.last().map(|t| t.kind);
                        match button {
                            Button::Primary => doc.primary = top,
                            Button::Secondary => doc.secondary = top,
                        }
                        if let Some(t) = stack.last() {
                            doc.facing = t.dir;
                        }
                        self.inspect = Some(pos);
                    }
                    return None;
                }
                doc.history.seal();
                let brush = doc.brush(button);
                doc.stroke = Stroke::begin(
                    self.tool,
                    brush,
                    pos,
                    self.rect_filled,
                    &doc.level.map,
                    self.selection,
                );
            }
            Action::CellDrag(pos) => {
                if let Some(s) = &mut doc.stroke {
                    s.moved(pos, &doc.level.map);
                }
            }
            Action::CellRelease => {
                if let Some(s) = doc.stroke.take() {
                    let out = s.finish(&doc.level.map);
                    if let Some(e) = BabaEdit::cells(out.name, &doc.level, out.cells) {
                        doc.history.push(&mut doc.level, e, None);
                    }
                    self.stroke_selection(out.selection);
                }
            }
            Action::Undo => {
                doc.stroke = None;
                if !doc.history.undo(&mut doc.level) {
                    self.status = "nothing to undo".into();
                }
                self.clip_selection();
            }
            Action::Redo => {
                doc.stroke = None;
                if !doc.history.redo(&mut doc.level) {
                    self.status = "nothing to redo".into();
                }
                self.clip_selection();
            }
            Action::HistoryGoTo(n) => {
                doc.history.go_to(&mut doc.level, n);
                self.clip_selection();
            }
            Action::Copy => {
                if let Some(r) = self.selection {
                    // While playing, the game's cells (what the map shows).
                    doc.clipboard = Some(copy_rect(doc.shown_map(), r));
                    self.status = format!("copied {}×{} cells", r.width(), r.height());
                }
            }
            Action::Cut => {
                if let Some(r) = self.selection {
                    doc.clipboard = Some(copy_rect(&doc.level.map, r));
                    self.baba_fill_selection("Cut");
                }
            }
            Action::DeleteSelection => self.baba_fill_selection("Delete"),
            Action::Paste => {
                let Some(clip) = doc.clipboard.clone() else {
                    self.status = "the clipboard is empty".into();
                    return None;
                };
                let at = self.paste_anchor();
                let doc = self.baba.as_mut()?;
                let cells = paste_cells(&doc.level.map, &clip, at.x as i64, at.y as i64);
                let rect = rect_of(&cells);
                if let Some(e) = BabaEdit::cells("Paste", &doc.level, cells) {
                    doc.history.push(&mut doc.level, e, None);
                }
                self.selection = rect;
            }
            Action::Resize {
                width,
                height,
                anchor,
            } => {
                let size = (doc.level.width(), doc.level.height());
                let (w, h) = self.resize_size(width, height, (MAX_SIDE, MAX_CELLS))?;
                let doc = self.baba.as_mut()?;
                if (w, h) != size {
                    let map = resized(&doc.level.map, w, h, anchor);
                    let e = BabaEdit::Map {
                        name: format!("Resize to {w}×{h}"),
                        map,
                    };
                    doc.history.push(&mut doc.level, e, None);
                    self.clip_selection();
                }
            }
            Action::PlayStart => {
                doc.stroke = None;
                doc.hovered_rule = None;
                doc.play = Some(BabaPlay::new(doc.level.clone()));
            }
            Action::PlayStop => {
                doc.hovered_rule = None;
                doc.play = None;
                self.clip_selection();
            }
            Action::PlayStep(i) => {
                if let Some(p) = &mut doc.play {
                    p.input(i.unwrap_or(Input::Wait));
                }
            }
            Action::PlayBack => {
                if let Some(p) = &mut doc.play {
                    p.input(Input::Undo);
                }
            }
            Action::PlayForward => {
                if let Some(p) = &mut doc.play {
                    let t = p.turn() + 1;
                    p.go_to(t);
                }
            }
            Action::PlayReset => {
                if let Some(p) = &mut doc.play {
                    p.input(Input::Restart);
                }
            }
            Action::PlayScrub(t) => {
                if let Some(p) = &mut doc.play {
                    p.go_to(t);
                }
            }
            Action::UseAsDesign => {
                if let Some(p) = &doc.play {
                    if let Some((pos, s)) = p.shown.map.iter().find(|(_, s)| s.len() > MAX_STACK) {
                        self.status = format!(
                            "cannot use this state as the design: cell x {}, y {} holds {} objects \
                             (a level file allows at most {MAX_STACK} per cell)",
                            pos.x,
                            pos.y,
                            s.len()
                        );
                        return None;
                    }
                    let level = p.shown.clone();
                    let name = format!("Use play state (turn {})", p.turn());
                    let e = BabaEdit::Level {
                        name,
                        level: Box::new(level),
                    };
                    doc.history.push(&mut doc.level, e, None);
                    self.clip_selection();
                }
            }
            // Boulder-only actions: nothing to do on a baba level.
            Action::SetPrimary(_)
            | Action::SetSecondary(_)
            | Action::SetCell { .. }
            | Action::SetProps { .. }
            | Action::ReplaceAll { .. }
            | Action::SetReplace { .. }
            | Action::PlayRun(_)
            | Action::PlaySpeed(_)
            | Action::PlayChoose(_)
            | Action::PlayAdvance { .. }
            | Action::PlayHoverRule(_)
            | Action::PlayStepInto(_)
            | Action::PlayNextPhase
            | Action::PlayPrevPhase
            | Action::PlayGotoPhase(_)
            | Action::PlayFinishTick
            | Action::PlayAbortTick
            | Action::Rule(_) => {}
            other => return Some(other),
        }
        None
    }

    fn baba_action(&mut self, a: BabaAction) {
        let Some(doc) = self.baba.as_mut() else {
            return;
        };
        match a {
            BabaAction::SetPrimary(k) => doc.primary = k,
            BabaAction::SetSecondary(k) => doc.secondary = k,
            BabaAction::SetFacing(d) => doc.facing = d,
            BabaAction::SetStackMode(m) => doc.stack_mode = m,
            BabaAction::SetStack { pos, stack, what } => {
                if doc.play.is_some() {
                    return;
                }
                if let Some(e) = BabaEdit::cells(what, &doc.level, vec![(pos, stack)]) {
                    let key = format!("stack {what} {} {}", pos.x, pos.y);
                    doc.history.push(&mut doc.level, e, Some(&key));
                }
            }
            BabaAction::PlaceSentence { text, at, vertical } => {
                if doc.play.is_some() {
                    return;
                }
                match sentence_cells(&doc.level, &text, at, vertical, doc.stack_mode) {
                    Ok(cells) => {
                        let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
                        let name = format!("Place \"{}\"", words.to_lowercase());
                        let Some(e) = BabaEdit::cells(&name, &doc.level, cells) else {
                            self.status = format!(
                                "\"{}\" is already there: nothing changed",
                                words.to_lowercase()
                            );
                            return;
                        };
                        doc.history.push(&mut doc.level, e, None);
                        self.status = if parse_words(&text).is_some() {
                            format!("placed \"{}\"", words.to_lowercase())
                        } else {
                            format!(
                                "placed \"{}\" (these words form no rule)",
                                words.to_lowercase()
                            )
                        };
                    }
                    Err(m) => self.status = m,
                }
            }
            BabaAction::HoverRule(i) => doc.hovered_rule = i,
            BabaAction::SetName(n) => {
                if n != doc.level.name {
                    let e = BabaEdit::Name {
                        name: "Set name".into(),
                        value: n,
                    };
                    doc.history.push(&mut doc.level, e, Some("props name"));
                }
            }
            BabaAction::Turn(i) => {
                if let Some(p) = &mut doc.play {
                    p.input(i);
                }
            }
            BabaAction::GoToTurn(t) => {
                if let Some(p) = &mut doc.play {
                    p.go_to(t);
                }
            }
        }
    }

    fn baba_fill_selection(&mut self, name: &str) {
        let (Some(doc), Some(r)) = (self.baba.as_mut(), self.selection) else {
            return;
        };
        let new = r.cells().map(|p| (p, Stack::new())).collect();
        if let Some(e) = BabaEdit::cells(name, &doc.level, new) {
            doc.history.push(&mut doc.level, e, None);
        }
    }
}

/// The selection rectangle being dragged or moved on a baba map, if any.
pub fn stroke_selection(doc: &BabaDoc) -> Option<CellRect> {
    doc.stroke
        .as_ref()
        .and_then(|s| s.selection_preview(&doc.level.map))
}
