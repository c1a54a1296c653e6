//! The Reachability section of the play pane ([`reach_ui`]) and the marks a kind's own turn
//! list colours its rows with ([`step_mark`], [`row_mark`]): green "win in N" for a state from
//! which a win is reachable, red "dead" for one from which none is, grey "unknown" when the
//! budget ran out, faint while not searched yet. [`super::reach`] holds the logic.
//!
//! The section draws, for a game of one player that offers search: the state in play and its
//! mark, the first dead step of the history ("dead from step k"), a timeline of every step
//! of the history coloured by its mark (a click goes to that step, as the kinds' turn lists
//! do), the legend, what the worker is doing, and the budget of each state's search. A game
//! of two players or more gets nothing (the Solve section values its moves instead).
//!
//! A kind's play pane is drawn before the shell's tools and is handed the editor state only,
//! so the marks reach it through egui's frame data: [`publish`] (called by
//! [`super::prepare`] before the kind's pane) stores them for the session, and [`step_mark`]
//! reads them back.

use std::sync::Arc;
use std::time::Duration;

use eframe::egui::{self, Color32, Id, RichText, Sense, Stroke, Ui, vec2};

use super::reach::{FirstDead, Mark, Reach, first_dead};
use crate::doc::play::PlaySession;
use crate::doc::ui::ink;
use crate::state::{Action, PlayAction};

/// The colour of a state from which a win is reachable.
pub const WINNABLE: Color32 = Color32::from_rgb(110, 200, 110);
/// The colour of a state from which no win is reachable.
pub const DEAD: Color32 = Color32::from_rgb(235, 105, 95);
/// The colour of a state whose search ran out of budget.
pub const UNKNOWN: Color32 = Color32::from_rgb(150, 150, 150);
/// The colour of a state not searched yet.
pub const PENDING: Color32 = Color32::from_rgb(80, 80, 86);

/// The colour of a mark (`None`: not searched yet).
pub fn mark_color(m: Option<Mark>) -> Color32 {
    match m {
        Some(Mark::Win(_)) => WINNABLE,
        Some(Mark::Dead) => DEAD,
        Some(Mark::Unknown(_)) => UNKNOWN,
        None => PENDING,
    }
}

/// The marks of one session's history, as [`publish`] leaves them for the kinds' panes.
#[derive(Clone, Debug, Default, PartialEq)]
struct View {
    session: u64,
    marks: Arc<Vec<Option<Mark>>>,
}

fn view_id() -> Id {
    Id::unique("play-reachability-marks")
}

/// Stores the marks of `r` (when they apply to the session `p`) for this frame's
/// [`step_mark`]; removes them otherwise.
pub fn publish(ctx: &egui::Context, p: &PlaySession, r: &Reach) {
    if r.applies() && r.settings.on {
        let v = View {
            session: p.id(),
            marks: Arc::new(r.marks()),
        };
        ctx.data_mut(|d| d.insert_temp(view_id(), v));
    } else {
        ctx.data_mut(|d| d.remove_temp::<View>(view_id()));
    }
}

/// For a kind's turn list: the mark of the state after step `step` of the session `p`
/// (0: the start). `None` when marks do not apply (two players, no search, turned off);
/// `Some(None)` while that state is not searched yet.
pub fn step_mark(ui: &Ui, p: &PlaySession, step: u64) -> Option<Option<Mark>> {
    let v = ui.ctx().data(|d| d.get_temp::<View>(view_id()))?;
    if v.session != p.id() {
        return None;
    }
    Some(
        usize::try_from(step)
            .ok()
            .and_then(|i| v.marks.get(i).copied().flatten()),
    )
}

/// A row's mark as a kind's turn list shows it: the words to append, the colour of the row,
/// and the row's hover text.
#[derive(Clone, Debug, PartialEq)]
pub struct RowMark {
    /// `win in 4`, `dead`, `unknown (time)`, `…` (not searched yet).
    pub words: String,
    /// The row's colour.
    pub color: Color32,
    /// What the mark means.
    pub tip: String,
}

/// [`step_mark`] in words and colour, for the row of step `step`.
pub fn row_mark(ui: &Ui, p: &PlaySession, step: u64) -> Option<RowMark> {
    let m = step_mark(ui, p, step)?;
    Some(RowMark {
        words: m.map_or("…".into(), Mark::words),
        color: mark_color(m),
        tip: meaning(m),
    })
}

/// What a mark means, in a sentence.
fn meaning(m: Option<Mark>) -> String {
    match m {
        Some(Mark::Win(0)) => "the level is won here".into(),
        Some(Mark::Win(n)) => format!("a win is reachable from here: the shortest takes {n} steps"),
        Some(Mark::Dead) => "no win is reachable from here (every reachable state searched)".into(),
        Some(Mark::Unknown(why)) => {
            format!("not proved either way: the {why} budget of the search ran out")
        }
        None => "not searched yet".into(),
    }
}

/// The Reachability section. Draws nothing for a game it does not apply to.
pub fn reach_ui(ui: &mut Ui, p: &PlaySession, r: &mut Reach, out: &mut Vec<Action>) {
    if !r.applies() {
        return;
    }
    ui.separator();
    ui.heading("Reachability");
    if r.settings.on {
        let marks = r.marks();
        here_banner(ui, p, &marks);
        if let Some(d) = first_dead(&marks) {
            dead_line(ui, p, d);
        }
        timeline(ui, p, &marks, out);
        legend(ui);
        status_line(ui, r, &marks);
    }
    settings_ui(ui, r);
}

/// The state in play and its mark, as a coloured banner.
fn here_banner(ui: &mut Ui, p: &PlaySession, marks: &[Option<Mark>]) {
    let at = p.steps();
    let m = usize::try_from(at)
        .ok()
        .and_then(|i| marks.get(i).copied().flatten());
    let text = match m {
        Some(m) => format!("Step {at}: {}", m.words()),
        None => format!("Step {at}: not searched yet"),
    };
    let fill = mark_color(m);
    egui::Frame::new()
        .fill(fill)
        .inner_margin(6.0)
        .corner_radius(4.0)
        .show(ui, |ui| {
            ui.label(RichText::new(text).strong().color(ink(fill)))
                .on_hover_text(meaning(m));
        });
}

/// The first dead step: "Dead from step 2 (R): step 1 could win in 4".
fn dead_line(ui: &mut Ui, p: &PlaySession, d: FirstDead) {
    let text = if d.step == 0 {
        "Dead from the start: no win is reachable in this level".to_string()
    } else {
        let word = step_word(p, d.step).map_or(String::new(), |w| format!(" ({w})"));
        match d.before {
            Some(Mark::Win(n)) => format!(
                "Dead from step {}{word}: step {} could still win in {n}",
                d.step,
                d.step - 1
            ),
            _ => format!(
                "Dead from step {}{word} or before (step {} is not proved winnable)",
                d.step,
                d.step - 1
            ),
        }
    };
    ui.label(RichText::new(text).strong().color(DEAD))
        .on_hover_text("The first state of the history from which no win is reachable");
}

/// The input word of step `step` (1 for the first) of the session's history.
fn step_word(p: &PlaySession, step: u64) -> Option<String> {
    let i = usize::try_from(step.checked_sub(1)?).ok()?;
    if p.kind.positional_inputs() {
        return p.words.get(i).cloned();
    }
    p.inputs.get(i).map(|x| x.word().to_string())
}

/// Every state of the history as a cell coloured by its mark, the one in play framed; a
/// click goes to that step, hovering names it.
fn timeline(ui: &mut Ui, p: &PlaySession, marks: &[Option<Mark>], out: &mut Vec<Action>) {
    let n = marks.len().max(1);
    let width = ui.available_width().max(40.0);
    let (rect, resp) = ui.allocate_exact_size(vec2(width, 18.0), Sense::click());
    resp.widget_info(|| {
        egui::WidgetInfo::labeled(egui::Role::Slider, true, "reachability of each step")
    });
    let cell = rect.width() / n as f32;
    let painter = ui.painter_at(rect);
    for (k, m) in marks.iter().enumerate() {
        let x0 = rect.left() + cell * k as f32;
        let r = egui::Rect::from_min_max(
            egui::pos2(x0, rect.top()),
            egui::pos2((x0 + cell - 1.0).max(x0 + 0.5), rect.bottom()),
        );
        painter.rect_filled(r, 1.0, mark_color(*m));
    }
    let at = p.steps() as f32;
    let cur = egui::Rect::from_min_size(
        egui::pos2(rect.left() + cell * at, rect.top()),
        vec2(cell.max(2.0), rect.height()),
    );
    painter.rect_stroke(
        cur,
        1.0,
        Stroke::new(2.0, ui.visuals().strong_text_color()),
        egui::StrokeKind::Inside,
    );
    let under = |pos: egui::Pos2| ((pos.x - rect.left()) / cell).floor().max(0.0) as usize;
    if let Some(pos) = resp.hover_pos() {
        let k = under(pos).min(n - 1);
        let m = marks.get(k).copied().flatten();
        resp.clone().on_hover_text(format!(
            "step {k}: {} (a click goes there)",
            m.map_or("not searched yet".into(), Mark::words)
        ));
    }
    if resp.clicked()
        && let Some(pos) = resp.interact_pointer_pos()
    {
        out.push(PlayAction::Scrub(under(pos).min(n - 1) as u64).into());
    }
}

/// The colours and what they mean.
fn legend(ui: &mut Ui) {
    ui.horizontal_wrapped(|ui| {
        for (color, words) in [
            (WINNABLE, "win in N"),
            (DEAD, "dead"),
            (UNKNOWN, "unknown"),
            (PENDING, "not searched yet"),
        ] {
            // Each swatch and its words wrap as one (the words never break).
            let text = egui::WidgetText::from(words).into_galley(
                ui,
                Some(egui::TextWrapMode::Extend),
                f32::INFINITY,
                egui::TextStyle::Body,
            );
            if ui.available_size_before_wrap().x
                < text.size().x + 10.0 + 2.0 * ui.spacing().item_spacing.x
            {
                ui.end_row();
            }
            ui.horizontal(|ui| {
                let (r, _) = ui.allocate_exact_size(vec2(10.0, 10.0), Sense::hover());
                ui.painter().rect_filled(r, 2.0, color);
                ui.add(egui::Label::new(words).extend());
            });
        }
    });
}

/// What the worker is doing, or why nothing is marked.
fn status_line(ui: &mut Ui, r: &Reach, marks: &[Option<Mark>]) {
    let marked = marks.iter().filter(|m| m.is_some()).count();
    let text = if let Some(k) = r.solving() {
        format!(
            "searching the state after step {k} ({marked} of {} marked)",
            marks.len()
        )
    } else if r.working() {
        format!("{marked} of {} states marked", marks.len())
    } else if let Some(n) = &r.note {
        n.clone()
    } else if marked == marks.len() {
        format!("all {} states marked", marks.len())
    } else {
        format!(
            "{marked} of {} states marked (waits while play runs or a solve searches)",
            marks.len()
        )
    };
    ui.label(RichText::new(text).small().weak());
    if r.working() {
        ui.ctx().request_repaint_after(Duration::from_millis(100));
    }
}

/// Turning the marks on and off, and the budget of each state's search.
fn settings_ui(ui: &mut Ui, r: &mut Reach) {
    ui.checkbox(&mut r.settings.on, "Mark each step")
        .on_hover_text("Search every state of the history for a reachable win, in the background");
    if !r.settings.on {
        return;
    }
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new("budget per state").small());
        ui.add(
            egui::DragValue::new(&mut r.settings.seconds)
                .range(0.05..=10.0)
                .speed(0.05)
                .suffix(" s"),
        )
        .accessible_name("seconds per state")
        .on_hover_text("The longest one state's search may take");
        ui.add(
            egui::DragValue::new(&mut r.settings.memory_mib)
                .range(8..=1024)
                .suffix(" MiB"),
        )
        .accessible_name("MiB per state")
        .on_hover_text("The memory one state's search may use for the states it visited");
    });
}
