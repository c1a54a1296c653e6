//! The play pane of a Pasta Logic game: who decides (in their colour) or how the game ended;
//! lives, hands and reserves; undo, redo, restart and a slider over the decisions played;
//! the decision at hand (Run or Skip, then the targets clicked on the line); the place of
//! the shared computer and Solve panel; the legal words, each playable with a click; and
//! the log of the decisions played with what each changed.

use eframe::egui::{self, Color32, RichText, Ui};
use tilesmith_engine::kind::pasta::State;
use tilesmith_engine::kind::pasta::card::PLAYERS;
use tilesmith_engine::kind::pasta::game::LIST_CAP;
use tilesmith_engine::kind::pasta::state::Track;

use super::canvas::PlayPick;
use super::look::PLAYER_COLORS;
use super::pick::{Need, Pick, need_of, parts_of};
use super::play::{PastaPlay, describe};
use crate::play::pane::{LegalList, legal_list_ui, status_banner};
use crate::state::{Action, PlayAction};

fn status_ui(ui: &mut Ui, p: &PastaPlay, s: &State) {
    let turn = || {
        let who = s.to_move().unwrap_or(0) as usize & 1;
        let what = if s.placing() {
            "places a flag"
        } else {
            "decides"
        };
        (PLAYER_COLORS[who], format!("{} {what}", PLAYERS[who]))
    };
    status_banner(ui, &p.session.game.status(), turn, None);
    egui::Grid::new("pasta-counts")
        .num_columns(3)
        .show(ui, |ui| {
            ui.label("");
            for (i, n) in PLAYERS.iter().enumerate() {
                ui.label(RichText::new(*n).color(PLAYER_COLORS[i]).strong());
            }
            ui.end_row();
            for (what, v) in [
                ("life", s.life.map(i64::from)),
                ("hand", s.hand.map(i64::from)),
                ("reserve", s.reserve.map(i64::from)),
                (
                    "flags on cards",
                    [0, 1].map(|p| i64::from(s.flags_on_cards(p))),
                ),
            ] {
                ui.label(what);
                ui.label(v[0].to_string());
                ui.label(v[1].to_string());
                ui.end_row();
            }
        });
    ui.label(format!(
        "{} phase; chips in the supply: {} Increment, {} Decrement",
        if s.placing() {
            "placement"
        } else {
            "execution"
        },
        s.supply(0),
        s.supply(1)
    ));
}

/// Undo, redo, restart, the decision counter and the slider.
fn history_ui(ui: &mut Ui, p: &PastaPlay, out: &mut Vec<Action>) {
    let s = &p.session;
    ui.horizontal_wrapped(|ui| {
        if ui
            .add_enabled(s.steps() > 0, egui::Button::new("Undo decision"))
            .on_hover_text("Take back the last decision (Z or Backspace)")
            .clicked()
        {
            out.push(PlayAction::Back.into());
        }
        if ui
            .add_enabled(
                s.steps() < s.history_len(),
                egui::Button::new("Redo decision"),
            )
            .clicked()
        {
            out.push(PlayAction::Forward.into());
        }
        if ui
            .add_enabled(s.steps() > 0, egui::Button::new("Restart game"))
            .on_hover_text("Back to the start (R)")
            .clicked()
        {
            out.push(PlayAction::Reset.into());
        }
    });
    let len = s.history_len();
    if len > 0 {
        let mut t = s.steps();
        let r = ui.add(egui::Slider::new(&mut t, 0..=len).text("decision"));
        if r.changed() {
            out.push(PlayAction::Scrub(t).into());
        }
    }
}

/// The decision at hand: Run and Skip, or the prompt for the targets being clicked.
fn decision_ui(ui: &mut Ui, p: &PastaPlay, s: &State, pp: &mut PlayPick, out: &mut Vec<Action>) {
    if s.to_move().is_none() {
        return;
    }
    if s.placing() {
        ui.label("Click a card to raise a flag on it (not a second own flag on one card).");
    } else if let Some(c) = s.cards().get(s.at as usize).filter(|_| !s.gap) {
        let place = match s.track {
            Track::Active(i) => format!(" (flag {} of {})", i + 1, c.q.len),
            Track::Next(_) => String::new(),
        };
        let sub = s
            .ret
            .map_or(String::new(), |_| " — in a Subroutine's visit".into());
        ui.label(RichText::new(format!("{}{place}{sub}", c.card.name())).strong());
        ui.label(super::look::effect(c.card));
        ui.horizontal(|ui| {
            let parts = parts_of(&pp.words);
            let can_do = pp.words.iter().any(|w| w == "do") || parts.is_some();
            if ui
                .add_enabled(can_do && pp.pick.is_none(), egui::Button::new("Run"))
                .on_hover_text("Execute the command: then click its targets on the line")
                .clicked()
            {
                match need_of(c.card, parts) {
                    Some(need) => pp.pick = Some(Pick::new(need)),
                    None => pp.play_word(p, "do", out),
                }
            }
            if ui
                .button("Skip")
                .on_hover_text("Do not execute the command")
                .clicked()
            {
                pp.play_word(p, "skip", out);
            }
            if let Some(pick) = pp
                .pick
                .as_ref()
                .filter(|p| matches!(p.need, Need::Reorder(_)))
            {
                let word = pick.done(s);
                if ui
                    .add_enabled(word.is_some(), egui::Button::new("Done"))
                    .on_hover_text("Play the new order of the flags")
                    .clicked()
                    && let Some(w) = word
                {
                    pp.play_word(p, &w, out);
                }
            }
            if pp.pick.is_some() && ui.button("Cancel").clicked() {
                pp.pick = None;
            }
        });
    }
    if let Some(pick) = &pp.pick {
        ui.label(RichText::new(pick.prompt(s)).color(Color32::from_rgb(255, 220, 60)));
    }
    if let Some(e) = &pp.error {
        ui.label(RichText::new(e).color(Color32::from_rgb(255, 110, 110)));
    }
}

/// The legal words, each a button that plays it.
fn words_ui(ui: &mut Ui, p: &PastaPlay, pp: &mut PlayPick, out: &mut Vec<Action>) {
    let list = LegalList {
        title: "Legal words",
        id: "pasta-words",
        words: &pp.words,
        total: pp.count,
        cap: LIST_CAP,
        name: Some("play"),
        height: 140.0,
    };
    if let Some(w) = legal_list_ui(ui, &list, |_| false).and_then(|i| pp.words.get(i).cloned()) {
        pp.play_word(p, &w, out);
    }
}

/// The decisions played, each with what it changed.
fn log_ui(ui: &mut Ui, p: &PastaPlay) {
    let n = p.session.steps() as usize;
    egui::CollapsingHeader::new(format!("Log: {n} decision(s)"))
        .id_salt("pasta-log")
        .default_open(true)
        .show(ui, |ui| {
            egui::ScrollArea::vertical()
                .id_salt("pasta-log-scroll")
                .max_height(220.0)
                .stick_to_bottom(true)
                .show(ui, |ui| {
                    for e in p.log.iter().take(n) {
                        ui.add(egui::Label::new(describe(e)).wrap());
                    }
                });
        });
}

/// The play pane.
pub fn play_pane(ui: &mut Ui, p: &PastaPlay, pp: &mut PlayPick, out: &mut Vec<Action>) {
    pp.sync(p);
    let Some(s) = p.state().copied() else { return };
    status_ui(ui, p, &s);
    history_ui(ui, p, out);
    ui.separator();
    decision_ui(ui, p, &s, pp, out);
    ui.separator();
    words_ui(ui, p, pp, out);
    log_ui(ui, p);
}
