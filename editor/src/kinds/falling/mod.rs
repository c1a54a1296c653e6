//! The falling kind in the editor: falling-block puzzles (spec `falling-blocks.md`, issue
//! #10). The field is painted with block kinds; the rules page edits the block kinds, the
//! tumos with their rotation-shape grids and kick tables (with the kick lab), the clear
//! rules, fall laws, timing, score and goal, and the FPGDL script; the play pane runs the game
//! at 60 frames a second.
//!
//! [`FallingDoc`] is the document (built on the generic [`MapDoc`] over a [`Design`]: the
//! level's map as a [`Grid`] of block ids, and the rest of the level); [`FallingUi`] draws it.
//! Every change to the rest of the level (blocks, tumos, kicks, rules, script) is one undoable
//! [`RestEdit`] that swaps in a whole new rest; typing merges into one step.

mod kicks_ui;
pub mod look;
mod new;
pub mod play;
mod repair;
mod rules_ui;
mod tumo_ui;
mod ui;

use serde_json::Value;
use tilesmith_engine::kind::falling::field::{BlockId, EMPTY, Field};
use tilesmith_engine::kind::falling::level::{
    BlockKind, ClearRule, FallLaw, MAX_CELLS, MAX_SIDE, Role, Tumo,
};
use tilesmith_engine::kind::falling::shape::{Kicks, ShapeGrid};
use tilesmith_engine::kind::falling::{Falling, FallingLevel};
use tilesmith_engine::{GameKind, Grid, Input, Pos, Problem};

use crate::doc::history::Undoable;
use crate::doc::map::{DocEdit, MapDoc, MapLevel};
use crate::doc::play::PlaySession;
use crate::doc::registry::KindEntry;
use crate::doc::ui::UiEntry;
use crate::doc::{Cx, KindAction, KindDoc};
use crate::state::{Action, IntoDoc};
use crate::tools::{Button, CellRect, MapCell, Tool};
pub use play::FallingPlay;
pub use ui::FallingUi;

/// The registry entry of the falling kind.
pub const ENTRY: KindEntry = KindEntry {
    name: "falling",
    about: "Falling blocks (FPGDL): tumos, clear rules, fall laws, Lua rule programs",
    engine: &Falling,
    new_doc: || Box::new(FallingDoc::new(Design::new_puyo())),
    open: |v| {
        <Design as MapLevel>::from_json(v).map(|l| Box::new(FallingDoc::new(l)) as Box<dyn KindDoc>)
    },
    new_options: new::options,
    new_level: new::level,
    bench_doc: |side| Box::new(FallingDoc::new(bench_design(side))),
};

/// The kind's UI in the list of kind UIs.
pub const UI: UiEntry = UiEntry {
    name: "falling",
    new_ui: || Box::new(FallingUi::default()),
};

/// A falling-block design as the editor holds it: the field as a grid of block ids (what the
/// map tools paint) and the rest of the level, whose `field` is kept empty.
#[derive(Clone, Debug, PartialEq)]
pub struct Design {
    /// Everything but the field (its `field` is an empty 0 × 0 field).
    pub rest: FallingLevel,
    /// The field: a block id per cell, [`EMPTY`] for none; x = column, y = row from the top.
    pub map: Grid<BlockId>,
}

impl Design {
    /// Splits a level into the map and the rest.
    pub fn from_level(mut level: FallingLevel) -> Self {
        let field = std::mem::replace(&mut level.field, Field::new(0, 0));
        let map = Grid::from_vec(field.width, field.height, field.cells)
            .unwrap_or_else(|| Grid::new(1, 1, EMPTY));
        Self { rest: level, map }
    }

    /// The whole level: the rest with the map as its field.
    pub fn level(&self) -> FallingLevel {
        let mut l = self.rest.clone();
        l.field = Field {
            width: self.map.width(),
            height: self.map.height(),
            cells: self.map.cells().to_vec(),
        };
        l
    }

    /// A new Puyo Puyo design: 6 × 13 with a hidden top row, four colours and ojama, the pair
    /// turning about its lower block, `connected 4` + `gravity`, the Tsu score tables.
    pub fn new_puyo() -> Self {
        let doc = serde_json::json!({
            "kind": "falling",
            "name": "untitled",
            "width": 6,
            "height": 13,
            "blocks": [
                {"name": "red", "color": [230, 50, 50], "form": "round", "role": "normal"},
                {"name": "green", "color": [60, 200, 80], "form": "round", "role": "normal"},
                {"name": "blue", "color": [70, 100, 240], "form": "round", "role": "normal"},
                {"name": "yellow", "color": [240, 210, 40], "form": "round", "role": "normal"},
                {"name": "ojama", "color": [200, 200, 210], "form": "round", "role": "garbage"}
            ],
            "tumos": [{
                "name": "pair",
                "states": [
                    [[0, 1, 0], [0, 2, 0], [0, 0, 0]],
                    [[0, 0, 0], [0, 2, 1], [0, 0, 0]],
                    [[0, 0, 0], [0, 2, 0], [0, 1, 0]],
                    [[0, 0, 0], [1, 2, 0], [0, 0, 0]]
                ],
                "block": "red",
                "labels": ["red", "green", "blue", "yellow"],
                "pivot": [1, 1],
                "kicks": {"0>1": [[0, 0], [-1, 0]], "1>2": [[0, 0], [0, -1]],
                          "2>3": [[0, 0], [1, 0]], "3>0": [[0, 0]],
                          "1>0": [[0, 0]], "2>1": [[0, 0], [-1, 0]],
                          "3>2": [[0, 0], [0, -1]], "0>3": [[0, 0], [1, 0]]},
                "spawn": [1, 0]
            }],
            "quick_turn": true,
            "hard_drop": false,
            "shadow": true,
            "clear": [{"rule": "connected", "min": 4}],
            "fall": ["gravity"],
            "hidden_rows": 1,
            "sequence": {"order": "random", "tumos": ["pair"]},
            "score": {"rule": "puyo",
                      "chain_bonus": [0, 0, 8, 16, 32, 64, 96, 128, 160, 192, 224, 256, 288,
                                      320, 352, 384, 416, 448, 480, 512],
                      "color_bonus": [0, 0, 3, 6, 12, 24],
                      "group_bonus": [0, 0, 0, 0, 0, 2, 3, 4, 5, 6, 7, 10]},
            "field": vec!["......"; 13],
            "legend": {"r": "red", "g": "green", "b": "blue", "y": "yellow", "o": "ojama"}
        });
        match FallingLevel::from_json(&doc) {
            Ok(l) => Self::from_level(l),
            Err(p) => panic!("the built-in Puyo level must load: {p:?}"),
        }
    }

    /// The block kinds.
    pub fn blocks(&self) -> &[BlockKind] {
        &self.rest.blocks
    }

    /// The block kind of id `id` (1 = the first).
    pub fn block(&self, id: BlockId) -> Option<&BlockKind> {
        (id as usize)
            .checked_sub(1)
            .and_then(|i| self.rest.blocks.get(i))
    }
}

impl MapCell for BlockId {
    type Brush = BlockId;

    fn empty() -> Self {
        EMPTY
    }

    fn painted(&self, brush: &BlockId) -> Self {
        *brush
    }

    fn same_area(&self, other: &Self) -> bool {
        self == other
    }
}

impl MapLevel for Design {
    type Cell = BlockId;

    fn map(&self) -> &Grid<BlockId> {
        &self.map
    }

    fn map_mut(&mut self) -> &mut Grid<BlockId> {
        &mut self.map
    }

    fn limits() -> (usize, usize) {
        (MAX_SIDE, MAX_CELLS)
    }

    /// A cell as its block id (0 = empty).
    fn cell_to_json(cell: &BlockId) -> Value {
        Value::from(*cell)
    }

    fn cell_from_json(v: &Value) -> Option<BlockId> {
        v.as_u64().and_then(|n| BlockId::try_from(n).ok())
    }

    /// Repair mode (docs/editor.md): unknown field characters and short rows are kept.
    fn from_json(doc: &Value) -> Result<Self, Vec<Problem>> {
        FallingLevel::from_json_editable(doc).map(Self::from_level)
    }

    fn to_json(&self) -> Value {
        self.level().to_json()
    }
}

impl IntoDoc for FallingLevel {
    fn into_doc(self) -> Box<dyn KindDoc> {
        Box::new(FallingDoc::new(Design::from_level(self)))
    }
}

/// The falling kind's own edit: a whole new rest of the level (blocks, tumos, kicks, rules,
/// script, name), swapped in and out.
#[derive(Clone, Debug)]
pub struct RestEdit {
    /// The name shown in the history list.
    pub name: String,
    /// The rest to swap in.
    pub rest: Box<FallingLevel>,
}

impl Undoable for RestEdit {
    type Target = Design;

    fn name(&self) -> &str {
        &self.name
    }

    fn apply_swap(&mut self, design: &mut Design) {
        std::mem::swap(&mut design.rest, self.rest.as_mut());
    }

    /// Merging keeps the oldest rest, so undo goes back past the whole run of edits.
    fn absorb(&mut self, _newer: Self) -> Result<(), Self> {
        Ok(())
    }
}

/// One undoable change to a falling design.
pub type FallingEdit = DocEdit<Design, RestEdit>;

/// The actions that exist only for falling documents.
#[derive(Clone, Debug, PartialEq)]
pub enum FallingAction {
    /// The block the left button paints ([`EMPTY`]: the eraser).
    SetPrimary(BlockId),
    /// The block the right button paints.
    SetSecondary(BlockId),
    /// A new rest of the level (blocks' colours, tumos, kicks, rules, script, name) as one
    /// undoable edit named `what`. Consecutive edits with the same `merge` key merge into one
    /// history entry (typing, dragging a slider).
    SetRest {
        /// The name of the edit.
        what: String,
        /// Merge key, if the edit continues the previous one.
        merge: Option<String>,
        /// The new rest.
        rest: Box<FallingLevel>,
    },
    /// Add a block kind at the end.
    AddBlock,
    /// Remove block kind `id`; its cells on the field become empty, tumos that use it fall
    /// back to the first remaining kind (one edit).
    RemoveBlock(BlockId),
    /// Swap block kinds `id` and `id + 1` everywhere (one edit).
    MoveBlockDown(BlockId),
    /// While playing: run frames with no key until the next tumo is placed and the field has
    /// settled.
    RunToPlacement,
}

impl From<FallingAction> for Action {
    fn from(a: FallingAction) -> Self {
        Action::Kind(KindAction::new(a))
    }
}

/// The state of an open falling document.
#[derive(Debug)]
pub struct FallingDoc {
    /// The design, its history, stroke and clipboard.
    pub map: MapDoc<Design, RestEdit>,
    /// What the left button paints ([`EMPTY`]: erase).
    pub primary: BlockId,
    /// What the right button paints.
    pub secondary: BlockId,
    /// The play session, while playing.
    pub play: Option<FallingPlay>,
}

impl FallingDoc {
    /// A document editing `design`, with the first block on the left button and the eraser
    /// on the right.
    pub fn new(design: Design) -> Self {
        let primary = if design.rest.blocks.is_empty() {
            EMPTY
        } else {
            1
        };
        Self {
            map: MapDoc::new(design),
            primary,
            secondary: EMPTY,
            play: None,
        }
    }

    /// The design.
    pub fn design(&self) -> &Design {
        &self.map.level
    }

    /// The field as shown: the play state's while playing, else the design's.
    pub fn shown_field(&self) -> std::borrow::Cow<'_, Grid<BlockId>> {
        match &self.play {
            Some(p) => std::borrow::Cow::Owned(p.field_grid()),
            None => std::borrow::Cow::Borrowed(&self.map.level.map),
        }
    }

    /// The block at `pos` as shown (no copy of the field, for per-frame readouts).
    pub fn shown_block(&self, pos: Pos) -> Option<BlockId> {
        match &self.play {
            Some(p) => {
                let f = p.game().field();
                (pos.x < f.width && pos.y < f.height).then(|| f.cells[pos.y * f.width + pos.x])
            }
            None => self.map.level.map.get(pos).copied(),
        }
    }

    fn brush(&self, b: Button) -> BlockId {
        match b {
            Button::Primary => self.primary,
            Button::Secondary => self.secondary,
        }
    }

    fn set_rest(&mut self, what: &str, merge: Option<&str>, rest: FallingLevel) {
        if rest == self.map.level.rest {
            return;
        }
        let e = DocEdit::Kind(RestEdit {
            name: what.into(),
            rest: Box::new(rest),
        });
        self.map.push(e, merge);
    }

    fn add_block(&mut self, cx: &mut Cx<'_>) {
        let mut rest = self.map.level.rest.clone();
        if rest.blocks.len() >= tilesmith_engine::kind::falling::level::MAX_BLOCK_KINDS {
            *cx.status = "a level has at most 99 block kinds".into();
            return;
        }
        let n = rest.blocks.len() + 1;
        let mut name = format!("block {n}");
        let mut k = n;
        while rest.blocks.iter().any(|b| b.name == name) {
            k += 1;
            name = format!("block {k}");
        }
        let hue = (n as f32 * 0.618_034).fract();
        let c = eframe::egui::ecolor::Hsva::new(hue, 0.7, 0.9, 1.0).to_srgb();
        rest.blocks.push(BlockKind {
            name,
            color: [c[0], c[1], c[2]],
            form: "square".into(),
            role: Role::Normal,
            extra: Default::default(),
        });
        self.set_rest("Add block kind", None, rest);
    }

    /// The design with block ids renumbered by `map` (old id → new id; [`EMPTY`] stays).
    fn renumbered(&self, blocks: Vec<BlockKind>, map: &dyn Fn(BlockId) -> BlockId) -> Design {
        let mut d = self.map.level.clone();
        d.rest.blocks = blocks;
        for c in d.map.cells_mut() {
            if *c != EMPTY && !repair::is_unknown(*c) {
                *c = map(*c);
            }
        }
        let first = if d.rest.blocks.is_empty() { EMPTY } else { 1 };
        for t in &mut d.rest.tumos {
            t.block = match map(t.block) {
                EMPTY => first,
                b => b,
            };
            t.labels = t
                .labels
                .iter()
                .map(|&b| map(b))
                .filter(|&b| b != EMPTY)
                .collect();
        }
        if let Some(a) = &mut d.rest.active {
            a.labels = a
                .labels
                .iter()
                .map(|&b| match map(b) {
                    EMPTY => first,
                    n => n,
                })
                .collect();
        }
        d.rest.legend = d
            .rest
            .legend
            .iter()
            .filter_map(|&(c, b)| match map(b) {
                EMPTY => None,
                n => Some((c, n)),
            })
            .collect();
        d
    }

    fn remove_block(&mut self, id: BlockId, cx: &mut Cx<'_>) {
        let blocks = &self.map.level.rest.blocks;
        if id == EMPTY || id as usize > blocks.len() {
            return;
        }
        if blocks.len() == 1 {
            *cx.status = "a level needs at least one block kind".into();
            return;
        }
        let mut kept = blocks.clone();
        let removed = kept.remove(id as usize - 1);
        let d = self.renumbered(kept, &|b| match b.cmp(&id) {
            std::cmp::Ordering::Less => b,
            std::cmp::Ordering::Equal => EMPTY,
            std::cmp::Ordering::Greater => b - 1,
        });
        self.map
            .push_level(&format!("Remove block kind \"{}\"", removed.name), d);
        for b in [&mut self.primary, &mut self.secondary] {
            if repair::is_unknown(*b) {
                continue;
            }
            *b = match (*b).cmp(&id) {
                std::cmp::Ordering::Less => *b,
                std::cmp::Ordering::Equal => EMPTY,
                std::cmp::Ordering::Greater => *b - 1,
            };
        }
    }

    fn move_block_down(&mut self, id: BlockId) {
        let blocks = &self.map.level.rest.blocks;
        if id == EMPTY || id as usize >= blocks.len() {
            return;
        }
        let mut b = blocks.clone();
        b.swap(id as usize - 1, id as usize);
        let d = self.renumbered(b, &|x| {
            if x == id {
                id + 1
            } else if x == id + 1 {
                id
            } else {
                x
            }
        });
        self.map.push_level("Reorder block kinds", d);
    }
}

impl KindDoc for FallingDoc {
    fn kind(&self) -> &'static dyn GameKind {
        &Falling
    }

    fn play_shows_errors(&self) -> bool {
        true
    }

    fn step_noun(&self) -> &'static str {
        "frame"
    }

    crate::map_doc_basics!();

    fn keep_tools_of(&mut self, old: &mut dyn KindDoc) {
        if let Some(old) = old.as_any_mut().downcast_mut::<FallingDoc>() {
            let n = self.map.level.rest.blocks.len() as BlockId;
            self.primary = if old.primary <= n {
                old.primary
            } else {
                self.primary
            };
            self.secondary = if old.secondary <= n {
                old.secondary
            } else {
                EMPTY
            };
            self.map.clipboard = old.map.clipboard.take();
        }
    }

    fn shown_size(&self) -> (usize, usize) {
        match &self.play {
            Some(p) => p.size(),
            None => (self.map.level.map.width(), self.map.level.map.height()),
        }
    }

    fn pick(&mut self, pos: Pos, button: Button) {
        if let Some(b) = self.shown_block(pos) {
            match button {
                Button::Primary => self.primary = b,
                Button::Secondary => self.secondary = b,
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
        let field = self.shown_field().into_owned();
        self.map.clipboard = Some(crate::tools::copy_rect(&field, r));
    }

    fn apply(&mut self, action: &KindAction, cx: &mut Cx<'_>) {
        let Some(a) = action.get::<FallingAction>() else {
            return;
        };
        let design_edit = !matches!(
            a,
            FallingAction::SetPrimary(_)
                | FallingAction::SetSecondary(_)
                | FallingAction::RunToPlacement
        );
        if design_edit && self.play.is_some() {
            *cx.status = "stop playing (F5) to edit the design".into();
            return;
        }
        match a {
            FallingAction::SetPrimary(b) => self.primary = *b,
            FallingAction::SetSecondary(b) => self.secondary = *b,
            FallingAction::SetRest { what, merge, rest } => {
                self.set_rest(what, merge.as_deref(), rest.as_ref().clone());
            }
            FallingAction::AddBlock => self.add_block(cx),
            FallingAction::RemoveBlock(id) => self.remove_block(*id, cx),
            FallingAction::MoveBlockDown(id) => self.move_block_down(*id),
            FallingAction::RunToPlacement => {
                if let Some(p) = &mut self.play
                    && let Some(words) = p.run_to_placement()
                {
                    *cx.status = words;
                }
            }
        }
    }

    fn play(&self) -> Option<&PlaySession> {
        self.play.as_ref().map(|p| &p.session)
    }

    fn play_mut(&mut self) -> Option<&mut PlaySession> {
        self.play.as_mut().map(|p| &mut p.session)
    }

    fn start_play(&mut self, seed: u64) -> Result<(), Vec<Problem>> {
        self.play = Some(FallingPlay::new(self.to_json(), seed)?);
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

    fn play_held(&mut self, input: Input) {
        if let Some(p) = &mut self.play {
            p.held(input);
        }
    }

    fn play_poll(&mut self) -> Option<String> {
        self.play.as_mut()?.poll()
    }
}

/// A `side` × `side` falling design for the frame benchmark: the Puyo rules with a field of
/// stripes of the four colours and empty cells.
pub fn bench_design(side: usize) -> Design {
    let side = side.clamp(1, MAX_SIDE);
    let mut d = Design::new_puyo();
    let h = side.min(MAX_CELLS / side);
    d.map = Grid::new(side, h, EMPTY);
    for (i, c) in d.map.cells_mut().iter_mut().enumerate() {
        let (x, y) = (i % side, i / side);
        let k = (x * 7 + y * 3) % 5;
        *c = k as BlockId;
    }
    d
}

/// A short name for a clear rule, for lists and history entries.
pub fn clear_rule_name(r: &ClearRule) -> String {
    match r {
        ClearRule::Connected { min } => format!("connected {min}"),
        ClearRule::Rows => "rows".into(),
        ClearRule::Squares { size } => format!("squares {size}×{size}"),
        ClearRule::Lines { min, diagonal } => {
            format!(
                "lines of {min}{}",
                if *diagonal { " with diagonals" } else { "" }
            )
        }
    }
}

/// A short name for a fall law.
pub fn fall_law_name(f: FallLaw) -> &'static str {
    match f {
        FallLaw::Gravity => "gravity",
        FallLaw::Rows => "rows",
        FallLaw::Joined => "joined",
    }
}

/// A new tumo named `name`: one 3 × 3 state with a single block of kind `block` in the centre,
/// pivot at that cell, no kicks.
pub fn new_tumo(name: String, block: BlockId) -> Tumo {
    let mut g = ShapeGrid::new(3);
    g.cells[4] = -1;
    Tumo {
        name,
        states: vec![g],
        block,
        labels: Vec::new(),
        pivot: [1.0, 1.0],
        kicks: Kicks::None,
        spawn: None,
        extra: Default::default(),
    }
}
