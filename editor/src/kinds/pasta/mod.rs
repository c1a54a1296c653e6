//! The Pasta Logic kind in the editor (issue #28): a program of command cards that rewrites
//! itself. The program is the map, but not a grid: the document says so
//! ([`KindDoc::has_grid`] false), so the shell offers none of its grid tools and hands the
//! canvas to [`PastaUi`], which draws the line of cards (wrapping into rows) and handles the
//! pointer: cards are added from the palette by a click or a drag, dragged to reorder, given
//! flags with the flag brush (click: a flag at the tail; right-click: the tail flag off;
//! drag a flag within its queue); the rest is in the properties. While playing, the
//! decision at hand is made by clicking (Run or Skip, then the command's targets), or by a
//! word from the list of legal words; each command is logged with what it changed
//! (`docs/pasta-editor.md`).
//!
//! [`PastaDoc`] is the document, built on the generic [`MapDoc`] over a [`Design`] whose map
//! is one placeholder cell; every edit is one [`PastaEdit`] that swaps in a whole new
//! design (a program is at most 16 cards), so the shell's history undoes it.

mod canvas;
pub mod design;
pub mod look;
mod new;
mod pick;
pub mod play;
mod play_ui;
mod ui;

use tilesmith_engine::kind::pasta::{Card, Pasta, PastaLevel};
use tilesmith_engine::{GameKind, Input, Pos, Problem};

use crate::doc::history::SwapEdit;
use crate::doc::map::{DocEdit, MapDoc, MapLevel as _};
use crate::doc::play::PlaySession;
use crate::doc::registry::KindEntry;
use crate::doc::ui::UiEntry;
use crate::doc::{Cx, KindAction, KindDoc};
use crate::state::{Action, IntoDoc};
use crate::tools::{Button, CellRect, Tool};
pub use design::Design;
pub use play::PastaPlay;
pub use ui::PastaUi;

/// The registry entry of the pasta kind.
pub const ENTRY: KindEntry = KindEntry {
    name: "pasta",
    about: "Pasta Logic: a program of command cards that rewrites itself, for two players",
    engine: &Pasta,
    new_doc: || Box::new(PastaDoc::new(new::design())),
    open: |v| Design::from_json(v).map(|l| Box::new(PastaDoc::new(l)) as Box<dyn KindDoc>),
    new_options: new::options,
    new_level: new::level,
    bench_doc: |_| Box::new(PastaDoc::new(new::design())),
};

/// The kind's UI in the list of kind UIs.
pub const UI: UiEntry = UiEntry {
    name: "pasta",
    new_ui: || Box::new(PastaUi::default()),
};

impl IntoDoc for Design {
    fn into_doc(self) -> Box<dyn KindDoc> {
        Box::new(PastaDoc::new(self))
    }
}

/// The pasta kind's edit: a whole new design, swapped in and out.
pub type PastaEdit = SwapEdit<Design>;

/// The actions that exist only for pasta documents (card places are indices in the line).
#[derive(Clone, Debug, PartialEq)]
pub enum PastaAction {
    /// The flag brush: the colour a click on a card adds (0 red, 1 blue).
    SetBrush(u8),
    /// Put `card` into the line at place `at` (past the end: at the end).
    InsertCard {
        /// The card (each card at most once in a program).
        card: Card,
        /// Its place.
        at: usize,
    },
    /// Take the card at this place out of the line, with its flags and chips.
    RemoveCard(usize),
    /// Move the card at `from` to place `to` (of the line after the move).
    MoveCard {
        /// Its place now.
        from: usize,
        /// Its place after.
        to: usize,
    },
    /// A flag of `player` at the tail of the card at `card`.
    AddFlag {
        /// The card's place.
        card: usize,
        /// 0 red, 1 blue.
        player: u8,
    },
    /// The tail flag of the card at this place off.
    RemoveTailFlag(usize),
    /// The flag at place `from` of the card's queue to place `to`.
    MoveFlag {
        /// The card's place.
        card: usize,
        /// The flag's place now (0 = head).
        from: usize,
        /// Its place after.
        to: usize,
    },
    /// The level's name.
    SetName(String),
    /// A player's life (1–6).
    SetLife(u8, i8),
    /// The hands (`None`: the default).
    SetHand(Option<[u8; 2]>),
    /// The reserves (`None`: the default).
    SetReserve(Option<[u8; 2]>),
    /// Who places first.
    SetFirst(u8),
    /// The card under the cursor.
    SetCursor(u8),
    /// The cursor's direction (true: backward).
    SetBackward(bool),
    /// The net chips on parameter `k` (0-based) of `card`.
    SetChips {
        /// The card.
        card: Card,
        /// The parameter, 0-based in printed order.
        k: u8,
        /// Net chips, −2…2.
        v: i8,
    },
    /// Lay out the spec §4 setup drawn from this seed as the program (no flags).
    DrawSetup(u64),
    /// Leave the program to the setup drawn from the game's seed (no `cards`).
    ClearProgram,
}

impl From<PastaAction> for Action {
    fn from(a: PastaAction) -> Self {
        Action::Kind(KindAction::new(a))
    }
}

/// The state of an open pasta document.
#[derive(Debug)]
pub struct PastaDoc {
    /// The design and its history.
    pub map: MapDoc<Design, PastaEdit>,
    /// The flag brush: 0 red, 1 blue.
    pub brush: u8,
    /// The game, while playing.
    pub play: Option<PastaPlay>,
}

impl PastaDoc {
    /// A document editing `design`, with the red flag brush.
    pub fn new(design: Design) -> Self {
        Self {
            map: MapDoc::new(design),
            brush: 0,
            play: None,
        }
    }

    /// The design.
    pub fn design(&self) -> &Design {
        &self.map.level
    }

    /// Pushes `design` as one edit named `what` when it differs (`merge`: typing merges).
    fn push_design(&mut self, what: &str, merge: Option<&str>, design: Design) {
        if design == self.map.level {
            return;
        }
        let e = DocEdit::Kind(PastaEdit::new(what, design));
        self.map.push(e, merge);
    }

    fn design_action(&mut self, a: &PastaAction) {
        use PastaAction as A;
        let d = &self.map.level;
        let name = |c: Option<&Card>| c.map_or("card", |c| c.name());
        let (what, merge, new): (String, Option<&str>, Design) = match a {
            A::InsertCard { card, at } => (
                format!("Add {}", card.name()),
                None,
                d.with(|d| d.insert_card(*card, *at)),
            ),
            A::RemoveCard(i) => (
                format!("Remove {}", name(d.line().get(*i))),
                None,
                d.with(|d| d.remove_card(*i)),
            ),
            A::MoveCard { from, to } => (
                format!("Move {}", name(d.line().get(*from))),
                None,
                d.with(|d| d.move_card(*from, *to)),
            ),
            A::AddFlag { card, player } => (
                format!("Flag on {}", name(d.line().get(*card))),
                None,
                d.with(|d| {
                    if let Some(q) = d.flags.get_mut(*card) {
                        q.push(*player & 1);
                    }
                }),
            ),
            A::RemoveTailFlag(i) => (
                format!("Flag off {}", name(d.line().get(*i))),
                None,
                d.with(|d| {
                    if let Some(q) = d.flags.get_mut(*i) {
                        q.pop();
                    }
                }),
            ),
            A::MoveFlag { card, from, to } => (
                format!("Reorder flags of {}", name(d.line().get(*card))),
                None,
                d.with(|d| d.move_flag(*card, *from, *to)),
            ),
            _ => return self.property_action(a),
        };
        self.push_design(&what, merge, new);
    }

    fn property_action(&mut self, a: &PastaAction) {
        use PastaAction as A;
        let d = &self.map.level;
        let (what, merge, new) = match a {
            A::SetName(n) => ("Set name", Some("name"), d.with(|d| d.name.clone_from(n))),
            A::SetLife(p, v) => ("Set life", None, d.with(|d| d.life[*p as usize & 1] = *v)),
            A::SetHand(h) => ("Set hands", None, d.with(|d| d.hand = *h)),
            A::SetReserve(r) => ("Set reserves", None, d.with(|d| d.reserve = *r)),
            A::SetFirst(p) => ("Set first player", None, d.with(|d| d.first = *p & 1)),
            A::SetCursor(c) => ("Set cursor", None, d.with(|d| d.cursor = *c)),
            A::SetBackward(b) => ("Set direction", None, d.with(|d| d.backward = *b)),
            A::SetChips { card, k, v } => {
                ("Set chips", None, d.with(|d| d.set_chips(*card, *k, *v)))
            }
            A::DrawSetup(seed) => {
                let l = PastaLevel::from_json(&serde_json::json!({"kind": "pasta"}));
                let cards = l.map(|l| l.program(*seed)).unwrap_or_default();
                let new = d.with(|d| {
                    let mut n = Design::new(&d.name, Some(cards));
                    n.extra = std::mem::take(&mut d.extra);
                    *d = n;
                });
                ("Lay out a drawn setup", None, new)
            }
            A::ClearProgram => {
                let new = d.with(|d| {
                    let mut n = Design::new(&d.name, None);
                    n.extra = std::mem::take(&mut d.extra);
                    n.life = d.life;
                    *d = n;
                });
                ("Draw the program at the start", None, new)
            }
            _ => return,
        };
        self.push_design(what, merge, new);
    }
}

impl KindDoc for PastaDoc {
    fn kind(&self) -> &'static dyn GameKind {
        &Pasta
    }

    fn step_noun(&self) -> &'static str {
        "decision"
    }

    fn real_time(&self) -> bool {
        false
    }

    fn has_grid(&self) -> bool {
        false
    }

    crate::map_doc_basics!();

    fn keep_tools_of(&mut self, old: &mut dyn KindDoc) {
        if let Some(old) = old.as_any_mut().downcast_mut::<PastaDoc>() {
            self.brush = old.brush;
        }
    }

    fn shown_size(&self) -> (usize, usize) {
        (1, 1)
    }

    fn pick(&mut self, _pos: Pos, _button: Button) {}

    fn begin_stroke(
        &mut self,
        _tool: Tool,
        _button: Button,
        _pos: Pos,
        _filled: bool,
        _selection: Option<CellRect>,
    ) {
    }

    fn apply(&mut self, action: &KindAction, cx: &mut Cx<'_>) {
        let Some(a) = action.get::<PastaAction>() else {
            return;
        };
        match a {
            PastaAction::SetBrush(b) => self.brush = *b & 1,
            _ if self.play.is_some() => {
                *cx.status = "stop playing (F5) to edit the design".into();
            }
            _ => self.design_action(a),
        }
    }

    fn refresh(&mut self) {
        if let Some(p) = &mut self.play {
            p.sync_log();
        }
    }

    fn play(&self) -> Option<&PlaySession> {
        self.play.as_ref().map(|p| &p.session)
    }

    fn play_mut(&mut self) -> Option<&mut PlaySession> {
        self.play.as_mut().map(|p| &mut p.session)
    }

    fn start_play(&mut self, seed: u64) -> Result<(), Vec<Problem>> {
        let session = PlaySession::new(&Pasta, self.to_json(), seed)?;
        self.play = Some(PastaPlay::new(session));
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

    fn play_poll(&mut self) -> Option<String> {
        let p = self.play.as_mut()?;
        let (step, _) = p.session.computing()?;
        let words = p.session.poll_step().flatten();
        p.sync_log();
        words.map(|w| format!("decision {step} {w}"))
    }
}
