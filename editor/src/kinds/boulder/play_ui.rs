//! The play pane: controls, counters, the rules that fired, and "use as design" / record.

use eframe::egui::{self, RichText, Sense, Ui};
use tilesmith_engine::kind::boulder::Global;
use tilesmith_engine::{Dir, Game as _, Input};

use super::look;
use super::play::{BoulderPlay, cell_text, phase_label, phase_rule};
use super::{BoulderAction, BoulderDoc};
use crate::state::{Action, EditorState, PlayAction};

/// Draws the play pane for the running session.
pub fn play_ui(ui: &mut Ui, st: &EditorState, out: &mut Vec<Action>) {
    let Some(d) = st.doc_as::<BoulderDoc>() else {
        return;
    };
    let Some(p) = &d.play else { return };
    controls_ui(ui, p, out);
    input_chooser(ui, p, out);
    stats_ui(ui, p, out);
    ui.separator();
    debugger_ui(ui, p, out);
    ui.separator();
    cell_history_ui(ui, st, p);
    ui.separator();
    fired_ui(ui, p, out);
    ui.separator();
    if ui
        .button("Use this state as the design")
        .on_hover_text("Copy the play state into the design (one undoable edit)")
        .clicked()
    {
        out.push(Action::Play(PlayAction::UseAsDesign));
    }
    if ui
        .button("Record replay…")
        .on_hover_text("Save level, seed, inputs and final-state hash as a replay file")
        .clicked()
    {
        out.push(Action::Play(PlayAction::Record));
    }
    crate::ui::export_ui::export_gif_button(ui, out);
}

/// Run or pause, step, step back, redo, reset, and the speed.
fn controls_ui(ui: &mut Ui, p: &BoulderPlay, out: &mut Vec<Action>) {
    ui.horizontal_wrapped(|ui| {
        if p.session.running {
            if ui.button("Pause").on_hover_text("Pause (Enter)").clicked() {
                out.push(Action::Play(PlayAction::Run(false)));
            }
        } else if ui
            .add_enabled(!p.game().status().is_over(), egui::Button::new("Run"))
            .on_hover_text(format!(
                "Run at {} ticks/s × speed (Enter)",
                p.ticks_per_second()
            ))
            .clicked()
        {
            out.push(Action::Play(PlayAction::Run(true)));
        }
        if ui
            .button("Step")
            .on_hover_text("One tick with the chosen input (. key); or press an arrow key, Shift+arrow for meta")
            .clicked()
        {
            out.push(Action::Play(PlayAction::Step(None)));
        }
        if ui
            .add_enabled(p.game().steps() > 0, egui::Button::new("Step back"))
            .on_hover_text("Undo one tick (Backspace)")
            .clicked()
        {
            out.push(Action::Play(PlayAction::Back));
        }
        if ui
            .add_enabled(p.game().redo_len() > 0, egui::Button::new("Redo tick"))
            .clicked()
        {
            out.push(Action::Play(PlayAction::Forward));
        }
        if ui
            .button("Reset")
            .on_hover_text("Start again from the design")
            .clicked()
        {
            out.push(Action::Play(PlayAction::Reset));
        }
    });
    ui.horizontal(|ui| {
        ui.label("speed");
        let mut s = p.session.speed;
        if ui
            .add(
                egui::Slider::new(&mut s, 0.25..=4.0)
                    .logarithmic(true)
                    .suffix("×"),
            )
            .accessible_name("speed")
            .changed()
        {
            out.push(Action::Play(PlayAction::Speed(s)));
        }
    });
}

/// The breakpoints that stopped the last tick, the tick slider and the counters.
fn stats_ui(ui: &mut Ui, p: &BoulderPlay, out: &mut Vec<Action>) {
    if let Some(b) = &p.break_hit {
        for (r, name, at) in &b.rules {
            let at: Vec<String> = at
                .iter()
                .take(6)
                .map(|c| format!("({}, {})", c.x, c.y))
                .collect();
            ui.label(
                RichText::new(format!(
                    "Breakpoint: {}{} fired in tick {} at {}",
                    r.label(),
                    name.as_ref().map_or(String::new(), |n| format!(" \"{n}\"")),
                    b.tick,
                    at.join(" ")
                ))
                .color(egui::Color32::from_rgb(255, 110, 110)),
            );
        }
    }
    let len = p.session.history_len();
    ui.horizontal(|ui| {
        ui.label("tick");
        let mut t = p.debug.as_ref().map_or(p.game().steps(), |d| d.tick() - 1);
        if ui
            .add_enabled(
                len > 0 && p.debug.is_none(),
                egui::Slider::new(&mut t, 0..=len.max(1)),
            )
            .accessible_name("tick")
            .on_hover_text("Scrub through the ticks computed so far")
            .changed()
        {
            out.push(Action::Play(PlayAction::Scrub(t.min(len))));
        }
    });
    let g = p.game().globals();
    let lvl = p.game().level();
    egui::Grid::new("play-stats").num_columns(2).show(ui, |ui| {
        ui.label("ticks");
        match &p.debug {
            Some(d) => ui.monospace(format!(
                "{} (global {}), {} open",
                d.tick() - 1,
                g[Global::Ticks as usize],
                d.tick()
            )),
            None => ui.monospace(format!(
                "{} (global {})",
                p.game().steps(),
                g[Global::Ticks as usize]
            )),
        };
        ui.end_row();
        ui.label("gems");
        ui.monospace(format!("{} collected / {} needed", p.gems(), lvl.gems[0]));
        ui.end_row();
        ui.label("time left");
        ui.monospace(format!("{} ticks", p.time_left()));
        ui.end_row();
        ui.label("points");
        ui.monospace(p.game().points().to_string());
        ui.end_row();
        ui.label("status");
        ui.label(RichText::new(p.status_text()).strong());
        ui.end_row();
        ui.label("x y z");
        ui.monospace(format!(
            "{} {} {}",
            g[Global::X as usize],
            g[Global::Y as usize],
            g[Global::Z as usize]
        ));
        ui.end_row();
    });
}

/// The level rules that fired in the last tick; hovering one outlines its matches.
fn fired_ui(ui: &mut Ui, p: &BoulderPlay, out: &mut Vec<Action>) {
    ui.strong("Rules fired in the last tick");
    match &p.session.report {
        None => {
            ui.label(RichText::new("(step to see)").weak());
        }
        Some(r) => {
            ui.label(format!("{} cell(s) changed (outlined)", r.changed.len()));
            if r.fired.is_empty() {
                ui.label(RichText::new("no level rule fired").weak());
            }
            let mut hovered = None;
            egui::ScrollArea::vertical()
                .id_salt("fired")
                .max_height(140.0)
                .show(ui, |ui| {
                    for (i, f) in r.fired.iter().enumerate() {
                        let at: Vec<String> =
                            f.at.iter()
                                .take(8)
                                .map(|c| format!("({}, {})", c.x, c.y))
                                .collect();
                        let text = format!(
                            "{} #{}{} at {}{}",
                            f.phase.label(),
                            f.phase.rule_index().unwrap_or(0),
                            f.name
                                .as_ref()
                                .map_or(String::new(), |n| format!(" \"{n}\"")),
                            at.join(" "),
                            if f.at.len() > 8 { " …" } else { "" }
                        );
                        let resp = ui.add(
                            egui::Label::new(RichText::new(text).monospace()).sense(Sense::hover()),
                        );
                        if resp.hovered() {
                            hovered = Some(i);
                        }
                    }
                });
            if hovered != p.hovered_rule {
                out.push(Action::from(BoulderAction::PlayHoverRule(hovered)));
            }
        }
    }
}

fn input_chooser(ui: &mut Ui, p: &BoulderPlay, out: &mut Vec<Action>) {
    ui.horizontal(|ui| {
        ui.label("input");
        let meta = matches!(p.session.chosen, Input::Meta(_));
        if ui
            .selectable_label(p.session.chosen == Input::Wait, "·")
            .on_hover_text("no key")
            .clicked()
        {
            out.push(Action::Play(PlayAction::Choose(Input::Wait)));
        }
        for d in [Dir::Left, Dir::Up, Dir::Down, Dir::Right] {
            let input = if meta { Input::Meta(d) } else { Input::Move(d) };
            if ui
                .selectable_label(p.session.chosen == input, look::arrow_char(d))
                .on_hover_text(d.name())
                .clicked()
            {
                out.push(Action::Play(PlayAction::Choose(input)));
            }
        }
        let mut m = meta;
        if ui
            .checkbox(&mut m, "meta")
            .on_hover_text("with the meta (Shift) key: dig without moving")
            .changed()
        {
            let next = match (p.session.chosen, m) {
                (Input::Move(d), true) => Input::Meta(d),
                (Input::Meta(d), false) => Input::Move(d),
                (Input::Wait, true) => Input::Meta(Dir::Right),
                (other, _) => other,
            };
            out.push(Action::Play(PlayAction::Choose(next)));
        }
    });
}

fn input_text(i: Input) -> String {
    match i {
        Input::Wait => "no key".into(),
        Input::Move(d) => d.name().into(),
        Input::Meta(d) => format!("meta {}", d.name()),
        other => format!("{other:?}"),
    }
}

/// The tick debugger: step into a tick and run it one phase at a time.
fn debugger_ui(ui: &mut Ui, p: &BoulderPlay, out: &mut Vec<Action>) {
    ui.strong("Tick debugger");
    let Some(d) = &p.debug else {
        ui.horizontal_wrapped(|ui| {
            if ui
                .add_enabled(
                    !p.game().status().is_over(),
                    egui::Button::new("Step into tick"),
                )
                .on_hover_text(
                    "Begin the next tick with the chosen input and run it one phase at a time",
                )
                .clicked()
            {
                out.push(Action::from(BoulderAction::PlayStepInto(None)));
            }
            ui.label(RichText::new(format!("input: {}", input_text(p.session.chosen))).weak());
        });
        return;
    };
    let level = p.game().level();
    ui.label(format!(
        "Tick {} (input: {}), {} of {} phases run",
        d.tick(),
        input_text(d.input),
        d.done,
        d.phases.len()
    ));
    ui.horizontal_wrapped(|ui| {
        if ui
            .add_enabled(d.done > 0, egui::Button::new("Previous phase"))
            .on_hover_text("Restore the tick's start and run up to the phase before")
            .clicked()
        {
            out.push(Action::from(BoulderAction::PlayPrevPhase));
        }
        if ui
            .add_enabled(d.done < d.phases.len(), egui::Button::new("Next phase"))
            .clicked()
        {
            out.push(Action::from(BoulderAction::PlayNextPhase));
        }
        if ui
            .button("Finish tick")
            .on_hover_text("Run the remaining phases and end the tick (as Step would)")
            .clicked()
        {
            out.push(Action::from(BoulderAction::PlayFinishTick));
        }
        if ui
            .button("Cancel tick")
            .on_hover_text("Drop this tick: back to the state before it began")
            .clicked()
        {
            out.push(Action::from(BoulderAction::PlayAbortTick));
        }
    });
    ui.label(
        RichText::new(
            "Click a phase to run up to it; orange outlines: what the last phase changed.",
        )
        .weak()
        .small(),
    );
    egui::ScrollArea::vertical()
        .id_salt("phases")
        .max_height(190.0)
        .show(ui, |ui| {
            for (i, phase) in d.phases.iter().enumerate() {
                let mut label = phase_label(level, *phase);
                if let Some(r) = phase_rule(*phase)
                    && p.disabled.contains(&r)
                {
                    label.push_str(" (off)");
                } else if !p.game().rule_active(*phase, d.input) {
                    label.push_str(" (not this tick)");
                }
                // Counts first; a long rule name wraps onto the next line.
                let (text, weak) = if i < d.done {
                    let n = d.records[i].1.len();
                    let fired = match phase_rule(*phase) {
                        Some(_) => format!(", {} match", d.matches(*phase)),
                        None => String::new(),
                    };
                    (format!("{:>2}. [{n} chg{fired}] {label}", i + 1), n == 0)
                } else {
                    (format!("{:>2}. {label}", i + 1), true)
                };
                let mut rich = RichText::new(&text).monospace();
                if weak {
                    rich = rich.weak();
                }
                let current = i + 1 == d.done;
                if super::rules::ui::select_row_in(ui, current, rich, egui::TextWrapMode::Wrap)
                    .on_hover_text(format!(
                        "{text}\n{}",
                        if i < d.done {
                            "Done; click to go back to just after it"
                        } else {
                            "Not run yet; click to run up to it"
                        }
                    ))
                    .clicked()
                    && !current
                {
                    out.push(Action::from(BoulderAction::PlayGotoPhase(i + 1)));
                }
            }
        });
}

/// The cell history: which phases of the last tick changed the cell under the pointer (or the
/// inspected one), before and after.
fn cell_history_ui(ui: &mut Ui, st: &EditorState, p: &BoulderPlay) {
    ui.strong("Cell history");
    let Some(pos) = st.hover.or(st.last_hover).or(st.inspect) else {
        ui.label(
            RichText::new("Point at a cell (or click one) to see which phases changed it.").weak(),
        );
        return;
    };
    let when = if p.debug.is_some() {
        "this tick so far"
    } else {
        "the last tick"
    };
    let hist = p.cell_history(pos);
    ui.label(format!("x {}, y {} in {when}:", pos.x, pos.y));
    if hist.is_empty() {
        ui.label(RichText::new("not changed").weak());
        return;
    }
    let level = p.game().level();
    // Plain wrapped lines (no grid), so long value lists never widen the panel.
    for (phase, before, after) in hist {
        ui.label(RichText::new(phase_label(level, phase)).strong());
        ui.indent(("cell-history", phase_label(level, phase)), |ui| {
            ui.label(RichText::new(format!("before: {}", cell_text(&before))).monospace());
            ui.label(RichText::new(format!("after:  {}", cell_text(&after))).monospace());
        });
    }
}
