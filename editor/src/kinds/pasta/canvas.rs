//! The pasta canvas (the shell hands it over: [`crate::doc::ui::KindUi::canvas_ui`]): the
//! line of cards drawn by [`super::look`], and the pointer on it.
//!
//! Designing: a click on a card adds a flag of the brush's colour at its tail, a right-click
//! takes its tail flag off, a card dragged goes where it is dropped, a flag dragged onto
//! another place of its queue goes there, a card of the palette dropped on the line goes in
//! where it is dropped, and a card's `×` takes it out. Playing: the card under the cursor is
//! outlined in the colour of the player whose right it is, and that flag ringed; the cards
//! the last command changed are outlined in yellow; clicks place a flag (placement) or
//! choose the command's targets ([`super::pick`]); in a Reorder, a flag dragged onto another
//! place of its queue sets that card's new order.

use eframe::egui::{self, Align2, Color32, FontId, Rect, Sense, Stroke, StrokeKind, Ui};
use tilesmith_engine::Input;
use tilesmith_engine::kind::pasta::state::Track;
use tilesmith_engine::kind::pasta::{Card, State};

use super::look::{self, CardGeom, CardView, Marks};
use super::pick::{Need, Pick};
use super::play::{PastaPlay, changed_cards};
use super::{PastaAction, PastaDoc};
use crate::state::{Action, PlayAction};

/// A card of the palette being dragged onto the line.
#[derive(Clone, Copy, Debug)]
pub struct PaletteCard(pub Card);

/// A card of the line being dragged: its place.
#[derive(Clone, Copy, Debug)]
struct CardDrag(usize);

/// A flag being dragged within its queue: (card, place).
#[derive(Clone, Copy, Debug)]
struct FlagDrag(usize, usize);

/// Gives `resp` a name for screen readers and tests.
fn named(resp: &egui::Response, name: String) {
    resp.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, name.clone()));
}

/// The line of `d`'s cards as drawn.
fn design_views(doc: &PastaDoc) -> Vec<CardView> {
    let d = doc.design();
    d.line()
        .iter()
        .enumerate()
        .map(|(i, &card)| CardView {
            card,
            flags: d.flags.get(i).cloned().unwrap_or_default(),
            chips: (0..card.params().len() as u8)
                .map(|k| d.chips_on(card, k))
                .collect(),
        })
        .collect()
}

/// The line of a game state as drawn.
pub fn state_views(s: &State) -> Vec<CardView> {
    s.cards()
        .iter()
        .map(|c| CardView {
            card: c.card,
            flags: c.q.owners().collect(),
            chips: c.chips[..c.card.params().len()].to_vec(),
        })
        .collect()
}

fn geoms_of(rect: Rect, views: &[CardView]) -> Vec<CardGeom> {
    let flags: Vec<usize> = views.iter().map(|v| v.flags.len()).collect();
    let params: Vec<usize> = views.iter().map(|v| v.card.params().len()).collect();
    look::layout(rect, &flags, &params)
}

/// The design canvas.
pub fn design_canvas(ui: &mut Ui, doc: &PastaDoc, last: &mut Option<usize>, out: &mut Vec<Action>) {
    let rect = ui.max_rect();
    let d = doc.design();
    let views = design_views(doc);
    let geoms = geoms_of(rect, &views);
    if d.cards.is_none() {
        ui.painter().text(
            rect.center(),
            Align2::CENTER_CENTER,
            "No program laid out: the game draws the 3 BASIC cards and 5 others (spec §4)\n\
             from its seed when play starts. Click or drag cards from the palette to lay out\n\
             your own, or use \"Lay out a drawn setup\" in the properties.",
            FontId::proportional(15.0),
            Color32::from_gray(200),
        );
    }
    for (i, (g, v)) in geoms.iter().zip(&views).enumerate() {
        let name = v.card.name();
        let resp = ui.interact(
            g.rect,
            ui.scope_id().with(("pasta-card", i)),
            Sense::click_and_drag(),
        );
        named(&resp, format!("card {name}"));
        if resp.clicked() {
            out.push(
                PastaAction::AddFlag {
                    card: i,
                    player: doc.brush,
                }
                .into(),
            );
        }
        if resp.secondary_clicked() {
            out.push(PastaAction::RemoveTailFlag(i).into());
        }
        resp.dnd_set_drag_payload(CardDrag(i));
        for (k, fr) in g.flags.iter().enumerate() {
            let f = ui.interact(
                *fr,
                ui.scope_id().with(("pasta-flag", i, k)),
                Sense::click_and_drag(),
            );
            named(&f, format!("flag {} of {name}", k + 1));
            if f.clicked() {
                out.push(
                    PastaAction::AddFlag {
                        card: i,
                        player: doc.brush,
                    }
                    .into(),
                );
            }
            if f.secondary_clicked() {
                out.push(PastaAction::RemoveTailFlag(i).into());
            }
            f.dnd_set_drag_payload(FlagDrag(i, k));
            // (`dnd_release_payload` would empty a palette card's payload dropped here.)
            if egui::DragAndDrop::has_payload_of_type::<FlagDrag>(ui.ctx())
                && let Some(p) = f.dnd_release_payload::<FlagDrag>()
                && p.0 == i
                && p.1 != k
            {
                out.push(
                    PastaAction::MoveFlag {
                        card: i,
                        from: p.1,
                        to: k,
                    }
                    .into(),
                );
            }
        }
        let ring = |c: usize| (c, Color32::WHITE);
        let marks = Marks {
            flag_rings: egui::DragAndDrop::payload::<FlagDrag>(ui.ctx())
                .filter(|p| p.0 == i)
                .map(|p| vec![ring(p.1)])
                .unwrap_or_default(),
            ..Marks::default()
        };
        look::paint_card(ui.painter(), g, v, &marks);
        let x = Rect::from_min_size(
            g.rect.right_top() + egui::vec2(-20.0, 3.0),
            egui::vec2(17.0, 17.0),
        );
        if ui
            .put(x, egui::Button::new("×").small())
            .accessible_name(format!("Remove {name} from the program"))
            .on_hover_text(format!(
                "Take {name} out of the program, with its flags and chips"
            ))
            .clicked()
        {
            out.push(PastaAction::RemoveCard(i).into());
        }
    }
    if !geoms.is_empty() {
        look::paint_cursor(
            ui.painter(),
            &geoms,
            d.cursor as usize,
            false,
            d.backward,
            Color32::WHITE,
        );
    }
    drops(ui, rect, &geoms, last, out);
}

/// A card dropped on the line (from the palette or the line itself), and where it would go
/// while dragged. `last` keeps the place of the last frame the pointer was over the line
/// (a release may come with the pointer already gone).
fn drops(ui: &Ui, rect: Rect, geoms: &[CardGeom], last: &mut Option<usize>, out: &mut Vec<Action>) {
    let ctx = ui.ctx();
    let dragging = egui::DragAndDrop::has_payload_of_type::<PaletteCard>(ctx)
        || egui::DragAndDrop::has_payload_of_type::<CardDrag>(ctx);
    if !dragging {
        *last = None;
        return;
    }
    let pos = ui.input(|i| i.pointer.latest_pos());
    match pos {
        Some(p) if rect.contains(p) => *last = Some(look::drop_index(geoms, p)),
        Some(_) => *last = None,
        None => {}
    }
    let Some(at) = *last else { return };
    if let Some(bar) = look::drop_bar(geoms, at) {
        ui.painter().rect_filled(bar, 2.0, look::CHANGED);
    }
    if !ui.input(|i| i.pointer.any_released()) {
        return;
    }
    *last = None;
    // (`take_payload` empties the payload whatever its type: ask for the type first.)
    if let Some(p) = egui::DragAndDrop::payload::<PaletteCard>(ctx) {
        egui::DragAndDrop::clear_payload(ctx);
        out.push(PastaAction::InsertCard { card: p.0, at }.into());
    } else if let Some(p) = egui::DragAndDrop::payload::<CardDrag>(ctx) {
        egui::DragAndDrop::clear_payload(ctx);
        let to = if at > p.0 { at - 1 } else { at };
        if to != p.0 {
            out.push(PastaAction::MoveCard { from: p.0, to }.into());
        }
    }
}

/// The choices of the decision at hand, kept while the game does not change.
#[derive(Debug, Default)]
pub struct PlayPick {
    /// The session version they belong to.
    pub version: u64,
    /// The legal words (at most the engine's list cap), without `undo` and `restart`.
    pub words: Vec<String>,
    /// The number of legal choices, all of them.
    pub count: u64,
    /// The targets clicked so far, after Run.
    pub pick: Option<Pick>,
    /// Why the last word was refused.
    pub error: Option<String>,
}

impl PlayPick {
    /// Brings the words up to the game shown (a new decision drops the clicks).
    pub fn sync(&mut self, play: &PastaPlay) {
        let v = play.session.version();
        if v == self.version {
            return;
        }
        self.version = v;
        self.pick = None;
        self.error = None;
        self.words = play
            .session
            .game
            .legal_inputs()
            .into_iter()
            .filter(|c| matches!(c.input, Input::Choice(_)))
            .map(|c| c.word)
            .collect();
        self.count = play.game().map_or(0, |g| g.choice_count());
    }

    /// Plays `word` when the game takes it; otherwise says why not.
    pub fn play_word(&mut self, play: &PastaPlay, word: &str, out: &mut Vec<Action>) {
        match play.session.game.read_input(word) {
            Ok(input) => {
                self.pick = None;
                out.push(PlayAction::Step(Some(input)).into());
            }
            Err(e) => {
                self.pick = None;
                self.error = Some(format!("{word}: {e}"));
            }
        }
    }
}

/// A flag being dragged within its queue while choosing a Reorder: (card, place).
#[derive(Clone, Copy, Debug)]
struct PlayFlagDrag(usize, usize);

/// What the pointer hit on the play canvas.
enum Hit {
    Card(usize),
    Flag(usize, usize),
    Param(usize, usize),
    /// A flag of a card dragged from one place to another: (card, from, to).
    Drag(usize, usize, usize),
}

/// The play canvas.
pub fn play_canvas(ui: &mut Ui, play: &PastaPlay, pp: &mut PlayPick, out: &mut Vec<Action>) {
    pp.sync(play);
    let Some(s) = play.state() else { return };
    let rect = ui.max_rect();
    let mut views = state_views(s);
    // A card whose Reorder order is complete is drawn in that order (dragged places are
    // places as drawn; see Pick::drag_flag).
    if let Some(p) = &pp.pick {
        for (i, v) in views.iter_mut().enumerate() {
            if let Some(o) = p.drawn_order(s, i) {
                v.flags = o.iter().filter_map(|&k| v.flags.get(k).copied()).collect();
            }
        }
    }
    let geoms = geoms_of(rect, &views);
    let mut hit = None;
    let reordering = pp
        .pick
        .as_ref()
        .is_some_and(|p| matches!(p.need, Need::Reorder(_)));
    for (i, (g, v)) in geoms.iter().zip(&views).enumerate() {
        let name = v.card.name();
        let resp = ui.interact(
            g.rect,
            ui.scope_id().with(("pasta-play-card", i)),
            Sense::click(),
        );
        named(&resp, format!("card {name}"));
        if resp.clicked() {
            hit = Some(Hit::Card(i));
        }
        for (k, pr) in g.params.iter().enumerate() {
            let r = ui.interact(
                *pr,
                ui.scope_id().with(("pasta-param", i, k)),
                Sense::click(),
            );
            named(&r, format!("{name}#{}", k + 1));
            if r.clicked() {
                hit = Some(Hit::Param(i, k));
            }
        }
        for (k, fr) in g.flags.iter().enumerate() {
            let f = ui.interact(
                *fr,
                ui.scope_id().with(("pasta-play-flag", i, k)),
                if reordering {
                    Sense::click_and_drag()
                } else {
                    Sense::click()
                },
            );
            named(&f, format!("flag {} of {name}", k + 1));
            if f.clicked() {
                hit = Some(Hit::Flag(i, k));
            }
            if reordering {
                f.dnd_set_drag_payload(PlayFlagDrag(i, k));
                if egui::DragAndDrop::has_payload_of_type::<PlayFlagDrag>(ui.ctx())
                    && let Some(p) = f.dnd_release_payload::<PlayFlagDrag>()
                    && p.0 == i
                    && p.1 != k
                {
                    hit = Some(Hit::Drag(i, p.1, k));
                }
            }
        }
    }
    let changed = play.last_event().map(changed_cards).unwrap_or_default();
    let dragged = egui::DragAndDrop::payload::<PlayFlagDrag>(ui.ctx());
    for (i, (g, v)) in geoms.iter().zip(&views).enumerate() {
        let mut m = play_marks(s, pp.pick.as_ref(), i);
        if let Some(p) = dragged.as_deref().filter(|p| p.0 == i) {
            m.flag_rings.push((p.1, Color32::WHITE));
        }
        look::paint_card(ui.painter(), g, v, &m);
        if changed.iter().any(|c| c == v.card.name()) {
            ui.painter().rect_stroke(
                g.rect.expand(5.0),
                8.0,
                Stroke::new(2.0, look::CHANGED),
                StrokeKind::Outside,
            );
        }
    }
    let col = s
        .to_move()
        .map_or(Color32::WHITE, |p| look::PLAYER_COLORS[p as usize & 1]);
    if !s.placing() {
        look::paint_cursor(ui.painter(), &geoms, s.at as usize, s.gap, s.backward, col);
    }
    if let Some(h) = hit {
        clicked(play, pp, s, h, out);
    }
}

/// What a card is marked with while playing.
fn play_marks(s: &State, pick: Option<&Pick>, i: usize) -> Marks {
    let mut m = Marks::default();
    let owner = s.to_move().map(|p| look::PLAYER_COLORS[p as usize & 1]);
    if !s.placing() && !s.gap && s.at as usize == i {
        m.outline = Some((owner.unwrap_or(Color32::WHITE), 4.0));
        if let (Track::Active(f), Some(col)) = (s.track, owner) {
            m.flag_rings.push((f as usize, Color32::WHITE));
            m.flag_rings.push((f as usize, col));
        }
    }
    if let Some(r) = s.ret
        && !r.gap
        && r.card as usize == i
    {
        m.outline = Some((Color32::from_gray(200), 2.0));
    }
    let Some(p) = pick else { return m };
    if p.cards.contains(&i) || p.order.iter().any(|o| o.0 == i) || p.moves.iter().any(|x| x.2 == i)
    {
        m.outline = Some((look::CHOSEN, 3.0));
    }
    for &(c, f) in &p.flags {
        if c == i {
            m.flag_rings.push((f, look::CHOSEN));
        }
    }
    for (n, &(c, f, _)) in p.moves.iter().enumerate() {
        if c == i {
            m.flag_numbers.push((f, n + 1));
        }
    }
    for (c, o) in &p.order {
        // A complete order is drawn as the queue itself (play_canvas); numbers mark the
        // flags clicked so far of one begun.
        if *c == i && p.drawn_order(s, i).is_none() {
            m.flag_numbers
                .extend(o.iter().enumerate().map(|(n, &f)| (f, n + 1)));
        }
    }
    m
}

/// A click on the play canvas: a flag placed, or a target of the command chosen.
fn clicked(play: &PastaPlay, pp: &mut PlayPick, s: &State, h: Hit, out: &mut Vec<Action>) {
    let c = match h {
        Hit::Card(c) | Hit::Flag(c, _) | Hit::Param(c, _) | Hit::Drag(c, _, _) => c,
    };
    if s.placing() {
        if let Some(card) = s.cards().get(c) {
            pp.play_word(play, &format!("@{}", card.card.name()), out);
        }
        return;
    }
    let Some(pick) = pp.pick.as_mut() else {
        pp.error = Some("press Run (or Skip) first; then click the command's targets".into());
        return;
    };
    let word = match h {
        Hit::Card(c) => pick.click_card(s, c),
        Hit::Flag(c, f) => pick.click_flag(s, c, f),
        Hit::Param(c, k) => pick.click_param(s, c, k),
        Hit::Drag(c, from, to) => {
            pick.drag_flag(s, c, from, to);
            None
        }
    };
    if let Some(w) = word {
        pp.play_word(play, &w, out);
    }
}
