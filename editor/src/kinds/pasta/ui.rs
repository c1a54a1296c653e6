//! The panels of a pasta document: the palette (the 16 cards, each at most once in a program,
//! greyed while in the line; the flag brush), the properties (name, the program's origin,
//! lives, hands, reserves, first player, cursor, direction, chips), the Rules tab (the 16
//! cards' effects, spec §8), the play pane (see `play_ui`) and the canvas (see `canvas`).

use eframe::egui::{self, Color32, RichText, Sense, Ui, vec2};
use tilesmith_engine::Pos;
use tilesmith_engine::kind::pasta::Card;
use tilesmith_engine::kind::pasta::card::{Category, PLAYERS};

use super::canvas::{self, PaletteCard, PlayPick};
use super::look::{self, category_color, category_name, effect, param_names};
use super::{PastaAction, PastaDoc, play_ui};
use crate::doc::map::MapOps as _;
use crate::doc::ui::{KindUi, MapGeom, ink};
use crate::state::{Action, EditorState};

/// The pasta kind's panels, with the choices of the decision at hand while playing.
#[derive(Debug, Default)]
pub struct PastaUi {
    /// The play canvas's and pane's clicks and legal words.
    pub pick: PlayPick,
    /// The seed typed for "Lay out a drawn setup".
    seed: u64,
    /// Where a card dragged over the line would go (its place in the line).
    drop_at: Option<usize>,
}

fn doc(st: &EditorState) -> Option<&PastaDoc> {
    st.doc_as::<PastaDoc>()
}

/// The palette: the flag brush, then the 16 cards by category.
fn palette_ui(ui: &mut Ui, d: &PastaDoc, out: &mut Vec<Action>) {
    ui.heading("Flag brush");
    ui.horizontal(|ui| {
        for (p, name) in PLAYERS.iter().enumerate() {
            let col = look::PLAYER_COLORS[p];
            let text = RichText::new(*name).color(if d.brush as usize == p {
                Color32::WHITE
            } else {
                col
            });
            let b = egui::Button::new(text)
                .fill(if d.brush as usize == p {
                    col
                } else {
                    Color32::TRANSPARENT
                })
                .stroke(egui::Stroke::new(1.5, col));
            if ui
                .add(b)
                .accessible_name(format!("{name} flag brush"))
                .on_hover_text(format!("a click on a card adds a {name} flag at its tail"))
                .clicked()
            {
                out.push(PastaAction::SetBrush(p as u8).into());
            }
        }
    });
    ui.label(RichText::new("click a card: flag at the tail; right-click: tail flag off; drag a flag within its queue").weak().small());
    ui.separator();
    ui.heading("Cards");
    ui.label(
        RichText::new("click or drag onto the line; each card at most once")
            .weak()
            .small(),
    );
    let line = d.design().line();
    let full = line.len() >= tilesmith_engine::kind::pasta::state::MAX_CARDS;
    let w = ui.available_width().max(60.0);
    for cat in [
        Category::Flag,
        Category::Life,
        Category::Card,
        Category::Parameter,
    ] {
        ui.label(
            RichText::new(category_name(cat))
                .color(category_color(cat))
                .small(),
        );
        for card in Card::ALL.into_iter().filter(|c| c.category() == cat) {
            let used = line.contains(&card);
            palette_card(ui, card, (used || full, w), line.len(), out);
        }
    }
}

/// One card of the palette: a click puts it at the end of the line, a drag where dropped.
fn palette_card(ui: &mut Ui, card: Card, (used, w): (bool, f32), n: usize, out: &mut Vec<Action>) {
    let col = category_color(card.category());
    let fill = if used { Color32::from_gray(60) } else { col };
    let mut text = RichText::new(card.name()).color(if used {
        Color32::from_gray(130)
    } else {
        ink(col)
    });
    if card.is_basic() {
        text = text.strong();
    }
    let b = egui::Button::new(text)
        .fill(fill)
        .min_size(vec2(w, 20.0))
        .sense(Sense::click_and_drag());
    let tip = format!(
        "{} ({}{}): {}",
        card.name(),
        category_name(card.category()),
        if card.is_basic() { ", BASIC" } else { "" },
        effect(card)
    );
    let r = ui
        .add_enabled(!used, b)
        .accessible_name(format!("add {}", card.name()))
        .on_hover_text(tip);
    if r.clicked() {
        out.push(PastaAction::InsertCard { card, at: n }.into());
    }
    r.dnd_set_drag_payload(PaletteCard(card));
}

/// Two numbers, red and blue, each in `lo..=hi`; `Some` with the new pair when one changed.
fn pair_ui(ui: &mut Ui, label: &str, v: [i64; 2], (lo, hi): (i64, i64)) -> Option<[i64; 2]> {
    let mut x = v;
    ui.label(label);
    for (p, name) in PLAYERS.iter().enumerate() {
        ui.add(
            egui::DragValue::new(&mut x[p])
                .range(lo..=hi)
                .prefix(format!("{name} ")),
        );
    }
    ui.end_row();
    (x != v).then_some(x)
}

fn to_u8(v: [i64; 2]) -> [u8; 2] {
    v.map(|x| x.clamp(0, 255) as u8)
}

/// The level's properties.
fn properties_ui(ui: &mut Ui, d: &PastaDoc, seed: &mut u64, out: &mut Vec<Action>) {
    let g = d.design();
    let mut name = g.name.clone();
    ui.horizontal(|ui| {
        ui.label("Name");
        if ui
            .text_edit_singleline(&mut name)
            .accessible_name("level name")
            .changed()
        {
            out.push(PastaAction::SetName(name.clone()).into());
        }
    });
    match &g.cards {
        Some(c) => {
            ui.label(format!("Program: {} card(s) laid out", c.len()));
            if ui.button("Draw the program at the start instead").on_hover_text("Leave out the cards: the game draws the 3 BASIC cards and 5 others from its seed (spec §4)").clicked() {
                out.push(PastaAction::ClearProgram.into());
            }
        }
        None => {
            ui.label("Program: drawn from the seed at the start (spec §4)");
        }
    }
    ui.horizontal(|ui| {
        ui.add(egui::DragValue::new(seed).prefix("seed "));
        if ui.button("Lay out a drawn setup").on_hover_text("The 3 BASIC cards and 5 of the other 13, shuffled, as the game draws them from this seed").clicked() {
            out.push(PastaAction::DrawSetup(*seed).into());
        }
    });
    if g.resume.is_some() {
        ui.label(
            RichText::new(
                "A saved game: it goes on from its next decision; any edit starts it afresh.",
            )
            .weak(),
        );
    }
    ui.separator();
    egui::Grid::new("pasta-props")
        .num_columns(3)
        .show(ui, |ui| {
            if let Some(v) = pair_ui(ui, "Life", g.life.map(i64::from), (1, 6)) {
                for p in 0..2u8 {
                    if v[p as usize] != i64::from(g.life[p as usize]) {
                        out.push(PastaAction::SetLife(p, v[p as usize] as i8).into());
                    }
                }
            }
            let hand = g.hand_in_effect().map(i64::from);
            if let Some(v) = pair_ui(ui, "Hand", hand, (0, 10)) {
                out.push(PastaAction::SetHand(Some(to_u8(v))).into());
            }
            let reserve = g.reserve_in_effect().map(i64::from);
            if let Some(v) = pair_ui(ui, "Reserve", reserve, (0, 10)) {
                out.push(PastaAction::SetReserve(Some(to_u8(v))).into());
            }
        });
    defaults_ui(ui, d, out);
    cursor_ui(ui, d, out);
    chips_ui(ui, d, out);
}

/// The hands' and reserves' "default" switches.
fn defaults_ui(ui: &mut Ui, d: &PastaDoc, out: &mut Vec<Action>) {
    let g = d.design();
    ui.horizontal_wrapped(|ui| {
        let mut h = g.hand.is_none();
        if ui
            .checkbox(&mut h, "default hands")
            .on_hover_text("5 each without flags on cards, 0 each with them")
            .changed()
        {
            out.push(PastaAction::SetHand((!h).then(|| g.hand_in_effect())).into());
        }
        let mut r = g.reserve.is_none();
        if ui
            .checkbox(&mut r, "default reserves")
            .on_hover_text("10 minus the hand minus the flags on cards (A5)")
            .changed()
        {
            out.push(PastaAction::SetReserve((!r).then(|| g.reserve_in_effect())).into());
        }
    });
}

/// First player, cursor and direction.
fn cursor_ui(ui: &mut Ui, d: &PastaDoc, out: &mut Vec<Action>) {
    let g = d.design();
    ui.horizontal_wrapped(|ui| {
        ui.label("First to place");
        for (p, name) in PLAYERS.iter().enumerate() {
            if ui.radio(g.first as usize == p, *name).clicked() {
                out.push(PastaAction::SetFirst(p as u8).into());
            }
        }
    });
    ui.horizontal_wrapped(|ui| {
        ui.label("Cursor on");
        let cur = g.line().get(g.cursor as usize).map_or("—", |c| c.name());
        let r = egui::ComboBox::from_id_salt("pasta-cursor")
            .selected_text(cur)
            .show_ui(ui, |ui| {
                for (i, c) in g.line().iter().enumerate() {
                    if ui
                        .selectable_label(i == g.cursor as usize, c.name())
                        .clicked()
                    {
                        out.push(PastaAction::SetCursor(i as u8).into());
                    }
                }
            });
        let _ = r.response.accessible_name("cursor on");
        for (b, name) in [(false, "forward"), (true, "backward")] {
            if ui.radio(g.backward == b, name).clicked() {
                out.push(PastaAction::SetBackward(b).into());
            }
        }
    });
}

/// The chips on each parameter of the line's cards (−2…2: Decrement or Increment chips).
fn chips_ui(ui: &mut Ui, d: &PastaDoc, out: &mut Vec<Action>) {
    let g = d.design();
    ui.collapsing("Chips on parameters", |ui| {
        egui::Grid::new("pasta-chips")
            .num_columns(2)
            .show(ui, |ui| {
                for &card in g.line() {
                    for (k, what) in param_names(card).iter().enumerate() {
                        ui.label(format!("{}#{} {what}", card.name(), k + 1));
                        let v0 = g.chips_on(card, k as u8);
                        let mut v = v0;
                        ui.add(egui::DragValue::new(&mut v).range(-2..=2))
                            .accessible_name(format!("chips on {}#{}", card.name(), k + 1));
                        if v != v0 {
                            out.push(
                                PastaAction::SetChips {
                                    card,
                                    k: k as u8,
                                    v,
                                }
                                .into(),
                            );
                        }
                        ui.end_row();
                    }
                }
            });
    });
}

/// The Rules tab: the 16 cards and what they do.
fn rules_page(ui: &mut Ui) {
    ui.label("The 16 command cards (spec §8); {n} is a parameter, raised or lowered by Increment and Decrement chips until the cursor leaves the card.");
    egui::Grid::new("pasta-rules")
        .num_columns(2)
        .striped(true)
        .show(ui, |ui| {
            for card in Card::ALL {
                let col = category_color(card.category());
                let mut t = RichText::new(card.name()).color(col).strong();
                if card.is_basic() {
                    t = RichText::new(format!("{} (BASIC)", card.name()))
                        .color(col)
                        .strong();
                }
                ui.label(t);
                ui.label(format!(
                    "{}: {}",
                    category_name(card.category()),
                    effect(card)
                ));
                ui.end_row();
            }
        });
}

impl KindUi for PastaUi {
    fn kind(&self) -> &'static str {
        "pasta"
    }

    fn palette_ui(&mut self, ui: &mut Ui, st: &EditorState, out: &mut Vec<Action>) {
        if let Some(d) = doc(st) {
            // While playing the line shows the game: the design waits.
            ui.add_enabled_ui(d.play.is_none(), |ui| palette_ui(ui, d, out));
        }
    }

    fn design_ui(&mut self, ui: &mut Ui, st: &EditorState, out: &mut Vec<Action>) {
        if let Some(d) = doc(st) {
            properties_ui(ui, d, &mut self.seed, out);
        }
    }

    fn play_ui(&mut self, ui: &mut Ui, st: &EditorState, out: &mut Vec<Action>) {
        if let Some(p) = doc(st).and_then(|d| d.play.as_ref()) {
            play_ui::play_pane(ui, p, &mut self.pick, out);
        }
    }

    fn rules_ui(&mut self, ui: &mut Ui, _st: &EditorState, _out: &mut Vec<Action>) {
        rules_page(ui);
    }

    fn rules_help(&self) -> &'static str {
        "The 16 command cards and what they do"
    }

    fn content_key(&self, st: &EditorState) -> (u8, u64) {
        doc(st).map_or((0, 0), |d| (9, d.map.generation()))
    }

    fn base_colors(&self, _st: &EditorState) -> Vec<Color32> {
        vec![Color32::from_rgb(12, 12, 16)]
    }

    fn paint_cells(&mut self, _p: &egui::Painter, _st: &EditorState, _g: &MapGeom) {}

    fn paint_overlays(&mut self, _p: &egui::Painter, _st: &EditorState, _g: &MapGeom) {}

    fn describe_cell(&self, _st: &EditorState, _pos: Pos) -> Option<String> {
        None
    }

    fn level_summary(&self, st: &EditorState) -> String {
        let Some(d) = doc(st) else {
            return "pasta level".into();
        };
        match &d.design().cards {
            Some(c) => format!("pasta level, a program of {} card(s)", c.len()),
            None => "pasta level, the program drawn at the start".into(),
        }
    }

    fn canvas_ui(&mut self, ui: &mut Ui, st: &EditorState, out: &mut Vec<Action>) {
        let Some(d) = doc(st) else { return };
        match &d.play {
            Some(p) => canvas::play_canvas(ui, p, &mut self.pick, out),
            None => canvas::design_canvas(ui, d, &mut self.drop_at, out),
        }
    }
}
