//! The boulder kind in the editor: a level of one token per field with `pre`/`post` rule
//! blocks (spec boulder), its token brushes, properties, rule editor and tick debugger.
//!
//! [`BoulderDoc`] is the document (built on the generic [`MapDoc`]); [`BoulderUi`] draws its
//! palette, pages and cells. Actions only boulder has are [`BoulderAction`]s.

pub mod edit;
pub mod look;
mod new;
pub mod play;
mod play_ui;
pub mod rules;
mod ui;

use serde_json::Value;
use tilesmith_engine::kind::boulder::level::{MAX_CELLS, MAX_SIDE};
use tilesmith_engine::kind::boulder::{Boulder, BoulderLevel, Cell, Token, ValueKey};
use tilesmith_engine::{GameKind, Grid, Input, Pos, Problem};

use crate::doc::map::{MapDoc, MapLevel, MapOps, by_button};
use crate::doc::play::PlaySession;
use crate::doc::registry::KindEntry;
use crate::doc::ui::UiEntry;
use crate::doc::{Cx, KindAction, KindDoc};
use crate::state::{Action, IntoDoc};
use crate::tools::{Button, CellRect, MapCell, Tool};
use edit::{BoulderEdit, Props};
use play::BoulderPlay;
use rules::RuleCache;
use rules::panel::{RuleEvent, RulePanel};
pub use ui::BoulderUi;

/// The registry entry of the boulder kind.
pub const ENTRY: KindEntry = KindEntry {
    name: "boulder",
    about: "Boulder Dash with pre/post rule blocks",
    engine: &Boulder,
    new_doc: || Box::new(BoulderDoc::new(BoulderDoc::new_level())),
    open: |v| {
        BoulderLevel::from_json_editable(v)
            .map(|l| Box::new(BoulderDoc::new(l)) as Box<dyn KindDoc>)
    },
    new_options: new::options,
    new_level: new::level,
    bench_doc: |side| Box::new(BoulderDoc::new(bench_level(side, side))),
};

/// The kind's UI in the list of kind UIs.
pub const UI: UiEntry = UiEntry {
    name: "boulder",
    new_ui: || Box::new(BoulderUi),
};

/// The size of a new boulder level.
pub const NEW_LEVEL_SIZE: (usize, usize) = (40, 22);

impl MapCell for Cell {
    type Brush = Token;

    fn empty() -> Self {
        Cell::new(Token::Path)
    }

    /// The token alone: painting resets the values.
    fn painted(&self, brush: &Token) -> Self {
        Cell::new(*brush)
    }

    fn same_area(&self, other: &Self) -> bool {
        self.token == other.token
    }
}

impl MapLevel for BoulderLevel {
    type Cell = Cell;

    fn map(&self) -> &Grid<Cell> {
        &self.map
    }

    fn map_mut(&mut self) -> &mut Grid<Cell> {
        &mut self.map
    }

    fn limits() -> (usize, usize) {
        (MAX_SIDE, MAX_CELLS)
    }

    fn cell_to_json(cell: &Cell) -> Value {
        cell.to_json()
    }

    /// Work in progress may have no `me` or several: the problems list shows those errors.
    fn from_json(doc: &Value) -> Result<Self, Vec<Problem>> {
        BoulderLevel::from_json_editable(doc)
    }

    fn to_json(&self) -> Value {
        BoulderLevel::to_json(self)
    }

    fn cell_from_json(v: &Value) -> Option<Cell> {
        tilesmith_engine::kind::boulder::level::cell_from_json(v)
    }
}

impl IntoDoc for BoulderLevel {
    fn into_doc(self) -> Box<dyn KindDoc> {
        Box::new(BoulderDoc::new(self))
    }
}

/// The actions only boulder documents have.
#[derive(Clone, Debug)]
pub enum BoulderAction {
    /// Set the token the left button paints.
    SetPrimary(Token),
    /// Set the token the right button paints.
    SetSecondary(Token),
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
    /// Something in the rule editor.
    Rule(RuleEvent),
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
}

impl From<BoulderAction> for Action {
    fn from(a: BoulderAction) -> Self {
        Action::Kind(KindAction::new(a))
    }
}

/// An open boulder level.
#[derive(Debug)]
pub struct BoulderDoc {
    /// The level, its history, stroke and clipboard.
    pub map: MapDoc<BoulderLevel, BoulderEdit>,
    /// Token of the left button.
    pub primary: Token,
    /// Token of the right button.
    pub secondary: Token,
    /// Replace-all: (the token replaced, the token put instead).
    pub replace: (Token, Token),
    /// The play session, while playing.
    pub play: Option<BoulderPlay>,
    /// The rule editor's state: selection, view, JSON buffer, session switches, breakpoints.
    pub rules: RulePanel,
    /// The selected rule's preview and the never-matching rules, cached.
    rule_cache: RuleCache,
}

impl BoulderDoc {
    /// A document editing `level`: wall on the left button, path on the right.
    pub fn new(level: BoulderLevel) -> Self {
        let mut d = Self {
            map: MapDoc::new(level),
            primary: Token::Wall,
            secondary: Token::Path,
            replace: (Token::Mud, Token::Path),
            play: None,
            rules: RulePanel::default(),
            rule_cache: RuleCache::default(),
        };
        d.sync_rules();
        d
    }

    /// The original JSON of an unknown cell (repair mode): `Some(None)` for a missing field of
    /// a short row, `None` when the cell refers to no entry of this level (pasted from
    /// another).
    pub fn unknown_of(&self, c: &Cell) -> Option<Option<&Value>> {
        let kept = self.level().unknown.get(c.get(ValueKey::Moved) as usize)?;
        Some(kept.as_ref())
    }

    /// The label drawn on an unknown cell: the first letters of its text.
    pub fn unknown_label(&self, c: &Cell) -> String {
        look::unknown_label(self.unknown_of(c).flatten())
    }

    /// The status bar's description of an unknown cell.
    pub fn describe_unknown(&self, c: &Cell) -> String {
        match self.unknown_of(c) {
            Some(Some(v)) => {
                let text = tilesmith_engine::problem::quote(&v.to_string());
                format!("unknown field {text}: kept as found until painted over")
            }
            Some(None) => "missing field (the row is short): not saved until painted".into(),
            None => "unknown field".into(),
        }
    }

    /// A new untitled level of the default size.
    pub fn new_level() -> BoulderLevel {
        BoulderLevel::new("untitled", NEW_LEVEL_SIZE.0, NEW_LEVEL_SIZE.1)
    }

    /// The design.
    pub fn level(&self) -> &BoulderLevel {
        &self.map.level
    }

    /// The design's undo history.
    pub fn history(&self) -> &crate::doc::history::History<edit::Edit> {
        &self.map.history
    }

    /// The cell at `pos` as shown: the play state while playing, else the design (or, with
    /// `apply_once` shown, the scratch copy after the selected rule). `None` outside the map.
    pub fn shown_cell(&self, pos: Pos, rules_tab: bool) -> Option<Cell> {
        match &self.play {
            Some(p) => {
                let b = p.game().board();
                (pos.x < b.width() && pos.y < b.height()).then(|| b.cell(b.idx(pos)))
            }
            None => self
                .apply_once_map(rules_tab)
                .unwrap_or(&self.map.level.map)
                .get(pos)
                .copied(),
        }
    }

    /// [`BoulderDoc::shown_cell`] with the rule page read from the shell `st`.
    pub fn shown_cell_in(&self, st: &crate::state::EditorState, pos: Pos) -> Option<Cell> {
        self.shown_cell(pos, st.side_tab == crate::state::SideTab::Rules)
    }

    fn push(&mut self, e: edit::Edit, merge: Option<&str>) {
        self.map.push(e, merge);
    }

    fn replace_all_tokens(&mut self, from: Token, to: Token, cx: &mut Cx<'_>) {
        let new: Vec<(Pos, Cell)> = self
            .map
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
        if !self.map.push_cells(&name, new, None) {
            *cx.status = format!("no {} on the map", from.name());
        }
    }

    fn play_action(&mut self, a: &BoulderAction, cx: &mut Cx<'_>) {
        let Some(p) = &mut self.play else { return };
        match a {
            BoulderAction::PlayHoverRule(i) => p.hovered_rule = *i,
            BoulderAction::PlayStepInto(i) => {
                let input = i.unwrap_or(p.session.chosen);
                if !p.step_into(input) && p.debug.is_none() {
                    *cx.status = "the game is over: Reset or Step back to play on".into();
                }
            }
            BoulderAction::PlayNextPhase => {
                p.next_phase();
            }
            BoulderAction::PlayPrevPhase => p.prev_phase(),
            BoulderAction::PlayGotoPhase(n) => p.goto_phase(*n),
            BoulderAction::PlayFinishTick => p.finish_tick(),
            BoulderAction::PlayAbortTick => p.abort_tick(),
            _ => {}
        }
    }
}

impl KindDoc for BoulderDoc {
    fn kind(&self) -> &'static dyn GameKind {
        &Boulder
    }

    fn step_noun(&self) -> &'static str {
        "tick"
    }

    crate::map_doc_basics!();

    fn essential_cells(&self) -> Vec<(Pos, String)> {
        new::essential(self)
    }

    fn keep_tools_of(&mut self, old: &mut dyn KindDoc) {
        if let Some(old) = old.as_any_mut().downcast_mut::<BoulderDoc>() {
            self.primary = old.primary;
            self.secondary = old.secondary;
            self.replace = old.replace;
            self.map.clipboard = old.map.clipboard.take();
            self.rules.view = old.rules.view;
        }
    }

    fn shown_size(&self) -> (usize, usize) {
        match &self.play {
            Some(p) => p.session.game.size(),
            None => self.map.size(),
        }
    }

    fn pick(&mut self, pos: Pos, button: Button) {
        if let Some(c) = self.map.cell(pos) {
            match button {
                Button::Primary => self.primary = c.token,
                Button::Secondary => self.secondary = c.token,
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
        let brush = by_button((self.primary, self.secondary), button);
        self.map.begin_stroke(tool, brush, pos, filled, selection);
    }

    fn copy_shown(&mut self, r: CellRect) {
        match &self.play {
            Some(p) => {
                let shown = p.game().to_boulder_level();
                self.map.clipboard = Some(crate::tools::copy_rect(&shown.map, r));
            }
            None => self.map.copy(r),
        }
    }

    fn apply(&mut self, action: &KindAction, cx: &mut Cx<'_>) {
        let Some(a) = action.get::<BoulderAction>() else {
            return;
        };
        let design_edit = matches!(
            a,
            BoulderAction::SetCell { .. }
                | BoulderAction::SetProps { .. }
                | BoulderAction::ReplaceAll { .. }
        );
        if design_edit && self.play.is_some() {
            *cx.status = "stop playing (F5) to edit the design".into();
            return;
        }
        match a {
            BoulderAction::SetPrimary(t) => self.primary = *t,
            BoulderAction::SetSecondary(t) => self.secondary = *t,
            BoulderAction::SetCell { pos, cell } => {
                let key = format!("cell {} {}", pos.x, pos.y);
                self.map
                    .push_cells("Edit cell", vec![(*pos, *cell)], Some(&key));
            }
            BoulderAction::SetProps { props, field } => {
                if *props != Props::of(&self.map.level) {
                    let name = format!("Set {field}");
                    let key = format!("props {field}");
                    self.push(
                        crate::doc::map::DocEdit::Kind(BoulderEdit::Props {
                            name,
                            props: props.clone(),
                        }),
                        Some(&key),
                    );
                }
            }
            BoulderAction::ReplaceAll { from, to } => self.replace_all_tokens(*from, *to, cx),
            BoulderAction::SetReplace { from, to } => self.replace = (*from, *to),
            BoulderAction::Rule(ev) => self.rule_event(ev.clone(), cx),
            other => self.play_action(other, cx),
        }
    }

    fn replace_all(&mut self, cx: &mut Cx<'_>) -> bool {
        let (from, to) = self.replace;
        self.replace_all_tokens(from, to, cx);
        true
    }

    fn has_replace_all(&self) -> bool {
        true
    }

    fn refresh(&mut self) {
        self.sync_rules();
    }

    fn play(&self) -> Option<&PlaySession> {
        self.play.as_ref().map(|p| &p.session)
    }

    fn play_mut(&mut self) -> Option<&mut PlaySession> {
        self.play.as_mut().map(|p| &mut p.session)
    }

    fn start_play(&mut self, seed: u64) -> Result<(), Vec<Problem>> {
        let mut p = BoulderPlay::new(self.map.level.clone(), seed);
        p.set_rules(&self.rules.disabled, &self.rules.breakpoints);
        self.play = Some(p);
        Ok(())
    }

    fn stop_play(&mut self) {
        self.play = None;
    }

    fn play_step(&mut self, input: Input) {
        if let Some(p) = &mut self.play {
            p.step(input);
        }
    }

    fn play_back(&mut self) {
        if let Some(p) = &mut self.play {
            p.back();
        }
    }

    fn play_forward(&mut self) {
        if let Some(p) = &mut self.play {
            p.forward();
        }
    }

    fn play_scrub(&mut self, t: u64) {
        if let Some(p) = &mut self.play {
            p.scrub(t);
        }
    }

    fn play_settle(&mut self) {
        if let Some(p) = &mut self.play {
            p.finish_tick();
        }
    }

    fn play_poll(&mut self) -> Option<String> {
        let p = self.play.as_mut()?;
        let (tick, _) = p.session.computing()?;
        Some(format!("tick {tick} {}", p.poll()?))
    }

    fn use_play_state(&mut self, name: &str) -> Result<(), String> {
        let Some(p) = &self.play else {
            return Err("not playing".into());
        };
        let mut level = p.game().to_boulder_level();
        // A design is a start, not a finished game: it plays from here (a lost state with no
        // `me` shows that error in the problems list instead).
        level.status = None;
        self.map.push_level(name, level);
        Ok(())
    }
}

/// A `w` × `h` level with a varied pattern of every token (for the frame benchmark).
pub fn bench_level(w: usize, h: usize) -> BoulderLevel {
    let mut level = BoulderLevel::new("bench", w, h);
    let n = Token::ALL.len();
    for (i, c) in level.map.cells_mut().iter_mut().enumerate() {
        let (x, y) = (i % w, i / w);
        let k = (x * 7 + y * 13 + (x * y) % 5) % n;
        *c = Cell::new(Token::ALL[k]).with(ValueKey::Direction, ((x + y) % 4 + 1) as u32);
    }
    level
}
