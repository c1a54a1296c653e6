//! The board kind in the editor: board games written in Zillions-of-Games rule files (ZRF,
//! issue 13). The board is drawn as the rules define it (square grids with coordinates,
//! killed positions as holes, hex-like boards from their pixel layout, zones tinted); the
//! palette paints pieces of each player and type, the inspector sets the player to move and
//! the variant; the Rules tab edits the ZRF text with its problems at their lines and holds the
//! move-generation debugger ([`debug`]); the play pane plays the game hot-seat by clicking a
//! piece and its target, any player possibly left to the shell's computer player
//! (`crate::play::computer`, shown in the play pane by the shell).
//!
//! [`BoardDoc`] is the document (built on the generic [`MapDoc`] over a [`Design`]: the
//! pieces on the display grid of [`layout::Layout`], the rules text and the other members);
//! [`BoardUi`] draws it. Every change besides painting (name, player to move, variant, rules
//! text) is one undoable [`BoardEdit`] that swaps in a whole new design; typing merges into
//! one step. A `.zrf` file opens as a level of its own; a level that refers to a rules file
//! saves as `"rules": "PATH"` relative to the level, and saving writes the edited rules text
//! back to that file (`docs/board-editor.md`).

pub mod debug;
pub mod design;
pub mod layout;
pub mod look;
mod new;
pub mod play;
mod play_ui;
mod rules_ui;
mod ui;

use std::path::Path;

use serde_json::{Value, json};
use tilesmith_engine::kind::board::Board;
use tilesmith_engine::{GameKind, Input, Pos, Problem};

use crate::doc::history::SwapEdit;
use crate::doc::map::{DocEdit, MapDoc, MapLevel as _};
use crate::doc::play::PlaySession;
use crate::doc::registry::KindEntry;
use crate::doc::ui::UiEntry;
use crate::doc::{Cx, KindAction, KindDoc};
use crate::state::{Action, IntoDoc};
use crate::tools::{Button, CellRect, Tool};
pub use design::{Cell, Compiled, Design, Rest};
pub use play::BoardPlay;
pub use ui::BoardUi;

/// The registry entry of the board kind.
pub const ENTRY: KindEntry = KindEntry {
    name: "board",
    about: "Board games in Zillions rule files (ZRF): setups, rules text, hot-seat play",
    engine: &Board,
    new_doc: || Box::new(BoardDoc::new(new_design())),
    open: |v| Design::from_json(v).map(|l| Box::new(BoardDoc::new(l)) as Box<dyn KindDoc>),
    new_options: new::options,
    new_level: new::level,
    bench_doc: |side| Box::new(BoardDoc::new(bench_design(side))),
};

/// The kind's UI in the list of kind UIs.
pub const UI: UiEntry = UiEntry {
    name: "board",
    new_ui: || Box::new(BoardUi::default()),
};

/// The rules of a new board level: tic-tac-toe by drops (a small game to start from).
pub const NEW_RULES: &str = r#"; A new board game: tic-tac-toe. Edit the rules here.
(define line (absolute-config Man ($1 $2 $3)))

(game
  (title "Tic-Tac-Toe")
  (players X O)
  (turn-order X O)
  (board
    (grid
      (start-rectangle 0 0 100 100)
      (dimensions ("a/b/c" (100 0)) ("3/2/1" (0 100)))
      (directions (n 0 -1) (e 1 0) (s 0 1) (w -1 0)
                  (ne 1 -1) (nw -1 -1) (se 1 1) (sw -1 1))
    )
  )
  (piece
    (name Man)
    (drops ((verify empty?) add))
  )
  (board-setup (X (Man off 5)) (O (Man off 4)))
  (win-condition (X O)
    (or (line a1 b1 c1) (line a2 b2 c2) (line a3 b3 c3)
        (line a1 a2 a3) (line b1 b2 b3) (line c1 c2 c3)
        (line a1 b2 c3) (line a3 b2 c1)))
  (draw-condition (X O) stalemated)
)
"#;

/// A new untitled design: [`NEW_RULES`] held in the level.
pub fn new_design() -> Design {
    let doc = json!({"kind": "board", "name": "untitled", "rules": {"zrf": NEW_RULES}});
    match Design::from_json(&doc) {
        Ok(d) => d,
        Err(p) => panic!("the built-in board rules must load: {p:?}"),
    }
}

/// A board of `side` × `side` squares (at most 60) with a piece on every other square, for
/// the frame benchmark.
pub fn bench_design(side: usize) -> Design {
    let n = side.clamp(2, 60);
    let files: Vec<String> = (0..n).map(|i| format!("f{i}")).collect();
    let ranks: Vec<String> = (0..n).rev().map(|i| format!("r{i}")).collect();
    let setup: Vec<String> = files
        .iter()
        .step_by(2)
        .flat_map(|f| ranks.iter().map(move |r| format!("{f}{r}")))
        .collect();
    let text = format!(
        "(game (title \"Bench\") (players White Black)\n\
         (board (grid (start-rectangle 0 0 10 10)\n\
           (dimensions (\"{}\" (10 0)) (\"{}\" (0 10)))\n\
           (directions (n 0 -1) (e 1 0) (s 0 1) (w -1 0))))\n\
         (piece (name Man) (moves ((verify empty?) n add)))\n\
         (board-setup (White (Man {}))))",
        files.join("/"),
        ranks.join("/"),
        setup.join(" ")
    );
    let doc = json!({"kind": "board", "name": "bench", "rules": {"zrf": text}});
    Design::from_json(&doc).unwrap_or_else(|_| new_design())
}

impl IntoDoc for Design {
    fn into_doc(self) -> Box<dyn KindDoc> {
        Box::new(BoardDoc::new(self))
    }
}

/// The board kind's own edit: a whole new design (name, player to move, variant, rules text
/// and the pieces carried over), swapped in and out.
pub type BoardEdit = SwapEdit<Design>;

/// One undoable change to a board design.
pub type BoardDocEdit = DocEdit<Design, BoardEdit>;

/// The actions that exist only for board documents.
#[derive(Clone, Debug, PartialEq)]
pub enum BoardAction {
    /// The piece the left button paints (`None`: the eraser).
    SetPrimary(Cell),
    /// The piece the right button paints.
    SetSecondary(Cell),
    /// The level's name.
    SetName(String),
    /// The player to move (`None`: the first of the turn order).
    SetToMove(Option<String>),
    /// The variant played (`None`: the file's default); the rules are compiled again.
    SetVariant(Option<String>),
    /// The ZRF text, compiled again (the last good rules stay while it has errors).
    SetRules(String),
    /// Remove every piece.
    ClearBoard,
    /// Put back the rules' own `board-setup`.
    ResetSetup,
    /// While playing: drop the clicks of the turn being chosen.
    CancelPick,
    /// While playing: end a chain of partial moves where it stands (`pass partial`).
    EndChain,
}

impl From<BoardAction> for Action {
    fn from(a: BoardAction) -> Self {
        Action::Kind(KindAction::new(a))
    }
}

/// The state of an open board document.
#[derive(Debug)]
pub struct BoardDoc {
    /// The design, its history, stroke and clipboard.
    pub map: MapDoc<Design, BoardEdit>,
    /// What the left button paints (`None`: erase).
    pub primary: Cell,
    /// What the right button paints.
    pub secondary: Cell,
    /// The play session, while playing.
    pub play: Option<BoardPlay>,
}

impl BoardDoc {
    /// A document editing `design`, with the first player's first piece type on the left
    /// button and the eraser on the right.
    pub fn new(design: Design) -> Self {
        let primary = (!design.board.rules.players.is_empty()
            && !design.board.rules.pieces.is_empty())
        .then(|| design.board.piece(0, 0));
        Self {
            map: MapDoc::new(design),
            primary,
            secondary: None,
            play: None,
        }
    }

    /// The design.
    pub fn design(&self) -> &Design {
        &self.map.level
    }

    /// The board shown: the game's while playing, else the design's.
    pub fn shown_board(&self) -> &Compiled {
        match &self.play {
            Some(p) => &p.board,
            None => &self.map.level.board,
        }
    }

    /// The piece on each position as shown: the game's while playing, else the design's.
    pub fn shown_cells(&self) -> Vec<Option<tilesmith_engine::kind::board::play::Piece>> {
        match &self.play {
            Some(p) => p.shown_cells(),
            None => self.map.level.cells(),
        }
    }

    /// Pushes `design` as one edit named `what` when it differs (typing with the same
    /// `merge` key merges).
    fn push_design(&mut self, what: &str, merge: Option<&str>, design: Design) {
        if design == self.map.level && design.problems == self.map.level.problems {
            return;
        }
        let e = DocEdit::Kind(BoardEdit::new(what, design));
        self.map.push(e, merge);
    }

    /// Sets every position to `cells` as one cells edit named `what`.
    fn set_cells(
        &mut self,
        what: &str,
        cells: &[Option<tilesmith_engine::kind::board::play::Piece>],
    ) {
        let d = &self.map.level;
        let new: Vec<(Pos, Cell)> = d
            .board
            .layout
            .cell
            .iter()
            .zip(cells)
            .map(|(p, c)| (*p, *c))
            .collect();
        self.map.push_cells(what, new, None);
    }

    fn design_action(&mut self, a: &BoardAction, cx: &mut Cx<'_>) {
        let d = &self.map.level;
        match a {
            BoardAction::SetName(n) => {
                let mut new = d.clone();
                new.rest.extra.insert("name".into(), json!(n));
                self.push_design("Set name", Some("name"), new);
            }
            BoardAction::SetToMove(p) => {
                let mut new = d.clone();
                new.rest.to_move.clone_from(p);
                new.rest.turn = None;
                self.push_design("Set player to move", None, new);
            }
            BoardAction::SetVariant(v) => {
                let new = d.with_rules(d.rest.text.clone(), v.clone());
                self.push_design("Set variant", None, new);
            }
            BoardAction::SetRules(text) => {
                if *text == d.rest.text {
                    return;
                }
                let new = d.with_rules(text.clone(), d.rest.variant.clone());
                let errors = new.problems.iter().filter(|p| !p.warning).count();
                if errors > 0 {
                    *cx.status = format!(
                        "the rules have {errors} error(s): the last rules that compiled stay in use"
                    );
                }
                self.push_design("Edit rules", Some("rules"), new);
            }
            BoardAction::ClearBoard => {
                let empty = vec![None; d.board.layout.len()];
                self.set_cells("Clear the board", &empty);
            }
            BoardAction::ResetSetup => {
                let initial = d.board.initial.clone();
                self.set_cells("Reset to the rules' setup", &initial);
            }
            _ => {}
        }
    }

    fn play_action(&mut self, a: &BoardAction) {
        let Some(p) = &mut self.play else { return };
        match a {
            BoardAction::CancelPick => p.forget(),
            BoardAction::EndChain => {
                let done = p.pick.complete(p.turns());
                match done.as_slice() {
                    [one] => p.step(Input::Choice(*one as u32)),
                    [] => {}
                    _ => {
                        p.pick.choose = done;
                        p.session.touch();
                    }
                }
            }
            _ => {}
        }
    }
}

impl KindDoc for BoardDoc {
    fn kind(&self) -> &'static dyn GameKind {
        &Board
    }

    fn step_noun(&self) -> &'static str {
        "ply"
    }

    fn real_time(&self) -> bool {
        false
    }

    crate::map_doc_basics!();

    fn save_json(&mut self, file: &Path) -> Result<Value, String> {
        self.map.level.saved_json(file)
    }

    fn files_to_write(&self) -> Vec<std::path::PathBuf> {
        self.map.level.rules_to_write().into_iter().collect()
    }

    fn file_warnings(&self, file: &std::path::Path) -> Vec<Problem> {
        let base = file.parent().unwrap_or(std::path::Path::new("."));
        self.map
            .level
            .rules_name(file)
            .and_then(|name| tilesmith_engine::kind::board::rules_outside_warning(&name, base))
            .into_iter()
            .collect()
    }

    fn keep_tools_of(&mut self, old: &mut dyn KindDoc) {
        if let Some(old) = old.as_any_mut().downcast_mut::<BoardDoc>() {
            let (a, b) = (&old.design().board.rules, &self.design().board.rules);
            if a.players == b.players
                && a.pieces
                    .iter()
                    .map(|p| &p.name)
                    .eq(b.pieces.iter().map(|p| &p.name))
            {
                self.primary = old.primary;
                self.secondary = old.secondary;
            }
            self.map.clipboard = old.map.clipboard.take();
        }
    }

    fn shown_size(&self) -> (usize, usize) {
        let l = &self.shown_board().layout;
        (l.width, l.height)
    }

    fn pick(&mut self, pos: Pos, button: Button) {
        let Some(i) = self.shown_board().layout.snap(pos) else {
            return;
        };
        let piece = self.shown_cells().get(i as usize).copied().flatten();
        match button {
            Button::Primary => self.primary = piece,
            Button::Secondary => self.secondary = piece,
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
        let brush = match button {
            Button::Primary => self.primary,
            Button::Secondary => self.secondary,
        };
        // A press beside a disc of a hex-like board paints that disc.
        let layout = &self.map.level.board.layout;
        let pos = match tool {
            Tool::Pencil | Tool::Fill => match layout.snap(pos) {
                Some(i) => layout.cell[i as usize],
                None if layout.at(pos).is_none() => return,
                None => pos,
            },
            _ => pos,
        };
        self.map.begin_stroke(tool, brush, pos, filled, selection);
    }

    fn apply(&mut self, action: &KindAction, cx: &mut Cx<'_>) {
        let Some(a) = action.get::<BoardAction>() else {
            return;
        };
        match a {
            BoardAction::SetPrimary(c) => self.primary = *c,
            BoardAction::SetSecondary(c) => self.secondary = *c,
            BoardAction::CancelPick | BoardAction::EndChain => self.play_action(a),
            _ if self.play.is_some() => {
                *cx.status = "stop playing (F5) to edit the design".into();
            }
            _ => self.design_action(a, cx),
        }
    }

    fn refresh(&mut self) {
        self.map.level.clear_holes();
    }

    fn play(&self) -> Option<&PlaySession> {
        self.play.as_ref().map(|p| &p.session)
    }

    fn play_mut(&mut self) -> Option<&mut PlaySession> {
        self.play.as_mut().map(|p| &mut p.session)
    }

    fn start_play(&mut self, _seed: u64) -> Result<(), Vec<Problem>> {
        self.play = Some(BoardPlay::new(self.to_json())?);
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

    fn play_press(&mut self, pos: Pos, button: Button, cx: &mut Cx<'_>) {
        let Some(p) = &mut self.play else { return };
        if let Some(me) = p.session.campaign_player {
            let g = p.game();
            let to = g.position().to_move(g.rules()) as usize;
            if to != me && !tilesmith_engine::Game::status(g).is_over() {
                let who = g.rules().players.get(to).cloned().unwrap_or_default();
                *cx.status = format!("{who} is played by the computer in a campaign game");
                return;
            }
        }
        if button == Button::Secondary {
            p.forget();
            return;
        }
        match p.board.layout.snap(pos) {
            Some(i) => p.click(i),
            None => p.forget(),
        }
        if let Some(n) = &p.note {
            cx.status.clone_from(n);
        }
    }

    fn play_back(&mut self) {
        if let Some(p) = &mut self.play {
            p.forget();
            p.session.back();
        }
    }

    fn play_forward(&mut self) {
        if let Some(p) = &mut self.play {
            p.forget();
            p.session.forward();
        }
    }

    fn play_scrub(&mut self, t: u64) {
        if let Some(p) = &mut self.play {
            p.forget();
            p.session.scrub(t);
        }
    }

    fn play_reset(&mut self) {
        if let Some(p) = &mut self.play {
            p.forget();
            p.session.scrub(0);
        }
    }
}
