//! The side panels: menu bar and toolbar, palette and replace-all, cell inspector, level
//! properties, history list, problems list and status bar. Each reads the state and pushes
//! actions.

use eframe::egui::{self, Color32, RichText, Sense, Ui, vec2};
use tilesmith_engine::kind::boulder::{Cell, Token, ValueKey};
use tilesmith_engine::{Dir, Severity};

use super::commands::Command;
use crate::look;
use crate::state::edit::Props;
use crate::state::{Action, DocKind, EditorState, problem_cell};
use crate::tools::Tool;

/// Widget buffers of the panels that are not part of the document (what is typed before
/// pressing a button).
#[derive(Clone, Debug)]
pub struct PanelState {
    /// Width typed in the resize fields.
    pub resize_w: usize,
    /// Height typed in the resize fields.
    pub resize_h: usize,
    /// Resize anchor (0–2, 0–2).
    pub anchor: (u8, u8),
    /// The level size the resize fields were last synced to.
    synced: (usize, usize),
}

impl Default for PanelState {
    fn default() -> Self {
        Self {
            resize_w: 0,
            resize_h: 0,
            anchor: (1, 1),
            synced: (0, 0),
        }
    }
}

fn command_button(ui: &mut Ui, c: Command, st: &EditorState, out: &mut Vec<Action>) {
    let r = ui.add_enabled(
        c.available(st),
        egui::Button::new(c.label()).shortcut_text(c.shortcut_text()),
    );
    if r.clicked() {
        out.push(c.action(st));
        ui.close();
    }
}

/// The menu bar.
pub fn menu_ui(ui: &mut Ui, st: &EditorState, out: &mut Vec<Action>) {
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("File", |ui| {
            command_button(ui, Command::New, st, out);
            ui.menu_button("New level of kind", |ui| {
                for (k, tip) in [
                    (DocKind::Boulder, "Boulder Dash with pre/post rule blocks"),
                    (
                        DocKind::Baba,
                        "Baba Is You: objects and text tiles that form the rules",
                    ),
                ] {
                    if ui.button(k.name()).on_hover_text(tip).clicked() {
                        out.push(Action::NewOf(k));
                        ui.close();
                    }
                }
            });
            command_button(ui, Command::Open, st, out);
            ui.menu_button("Open recent", |ui| {
                if st.settings.recent.is_empty() {
                    ui.label("(none)");
                }
                for p in &st.settings.recent {
                    if ui.button(p.display().to_string()).clicked() {
                        out.push(Action::OpenPath(p.clone()));
                        ui.close();
                    }
                }
            });
            for c in [Command::Save, Command::SaveAs, Command::Quit] {
                command_button(ui, c, st, out);
            }
        });
        ui.menu_button("Edit", |ui| {
            for c in [
                Command::Undo,
                Command::Redo,
                Command::Copy,
                Command::Cut,
                Command::Paste,
                Command::Delete,
                Command::SelectAll,
                Command::SelectNone,
                Command::ReplaceAll,
            ] {
                command_button(ui, c, st, out);
            }
        });
        ui.menu_button("View", |ui| {
            for c in [
                Command::ZoomIn,
                Command::ZoomOut,
                Command::Fit,
                Command::Grid,
            ] {
                command_button(ui, c, st, out);
            }
        });
        ui.menu_button("Play", |ui| {
            command_button(ui, Command::PlayToggle, st, out);
        });
    });
}

/// The toolbar: tools, undo/redo, zoom, grid, play.
pub fn toolbar_ui(ui: &mut Ui, st: &EditorState, out: &mut Vec<Action>) {
    ui.horizontal_wrapped(|ui| {
        for t in Tool::ALL {
            if ui
                .selectable_label(st.tool == t, t.name())
                .on_hover_text(t.tooltip())
                .clicked()
            {
                out.push(Action::SelectTool(t));
            }
        }
        let mut filled = st.rect_filled;
        if ui
            .checkbox(&mut filled, "filled")
            .on_hover_text("Rectangles are filled (on) or outlines (off)")
            .changed()
        {
            out.push(Action::SetRectFilled(filled));
        }
        ui.separator();
        let (can_undo, can_redo) = match &st.baba {
            Some(d) => (d.history.len_done() > 0, d.history.len_undone() > 0),
            None => (st.history.len_done() > 0, st.history.len_undone() > 0),
        };
        if ui
            .add_enabled(can_undo, egui::Button::new("Undo"))
            .on_hover_text("Undo (Ctrl+Z)")
            .clicked()
        {
            out.push(Action::Undo);
        }
        if ui
            .add_enabled(can_redo, egui::Button::new("Redo"))
            .on_hover_text("Redo (Ctrl+Shift+Z or Ctrl+Y)")
            .clicked()
        {
            out.push(Action::Redo);
        }
        ui.separator();
        if ui.button("-").on_hover_text("Zoom out (-)").clicked() {
            out.push(Action::ZoomOut);
        }
        ui.label(format!("{:.0} px", st.view.zoom));
        if ui.button("+").on_hover_text("Zoom in (+)").clicked() {
            out.push(Action::ZoomIn);
        }
        if ui.button("Fit").on_hover_text("Fit the map (0)").clicked() {
            out.push(Action::Fit);
        }
        let mut grid = st.settings.grid;
        if ui
            .checkbox(&mut grid, "grid")
            .on_hover_text("Show the grid (G)")
            .changed()
        {
            out.push(Action::ToggleGrid);
        }
        ui.separator();
        if !st.playing() {
            if ui
                .button(RichText::new("Start playing").strong())
                .on_hover_text("Play the current map in a separate session (F5)")
                .clicked()
            {
                out.push(Action::PlayStart);
            }
        } else if ui
            .button(RichText::new("Stop playing").strong())
            .on_hover_text("Back to the design, unchanged (F5)")
            .clicked()
        {
            out.push(Action::PlayStop);
        }
    });
}

fn swatch(ui: &mut Ui, t: Token, size: f32) -> egui::Response {
    let (rect, resp) = ui.allocate_exact_size(vec2(size, size), Sense::click());
    let cell = match t {
        Token::Swapling | Token::Blockling | Token::Xling => {
            Cell::new(t).with(ValueKey::Direction, Dir::Right.value())
        }
        _ => Cell::new(t),
    };
    look::paint_cell(ui.painter(), rect, &cell);
    resp
}

/// The palette: every token; left click sets the primary token, right click the secondary.
/// Also replace-all.
pub fn palette_ui(ui: &mut Ui, st: &EditorState, out: &mut Vec<Action>) {
    ui.heading("Tokens");
    ui.horizontal(|ui| {
        swatch(ui, st.primary, 22.0);
        ui.label(format!("left: {}", st.primary.name()));
    });
    ui.horizontal(|ui| {
        swatch(ui, st.secondary, 22.0);
        ui.label(format!("right: {}", st.secondary.name()));
    });
    ui.separator();
    egui::Grid::new("palette-grid")
        .num_columns(2)
        .spacing(vec2(6.0, 3.0))
        .show(ui, |ui| {
            for (i, t) in Token::ALL.iter().enumerate() {
                ui.horizontal(|ui| {
                    let r = swatch(ui, *t, 16.0);
                    let mut text = RichText::new(t.name());
                    if *t == st.primary {
                        text = text.strong().color(Color32::from_rgb(255, 214, 0));
                    } else if *t == st.secondary {
                        text = text.color(Color32::from_rgb(120, 200, 255));
                    }
                    let l = ui
                        .add(egui::Label::new(text).sense(Sense::click()))
                        .on_hover_text("left click: primary token; right click: secondary token");
                    let r = r.union(l);
                    if r.clicked() {
                        out.push(Action::SetPrimary(*t));
                    }
                    if r.secondary_clicked() {
                        out.push(Action::SetSecondary(*t));
                    }
                });
                if i % 2 == 1 {
                    ui.end_row();
                }
            }
        });
    ui.separator();
    ui.heading("Replace tokens");
    let (mut from, mut to) = st.replace;
    let changed = token_combo(ui, "replace-from", "replace token", &mut from);
    ui.label("becomes");
    if changed | token_combo(ui, "replace-to", "replace with token", &mut to) {
        out.push(Action::SetReplace { from, to });
    }
    if ui
        .button("Replace all")
        .on_hover_text(
            "Every cell with the first token gets the second, values kept; one undo step (Ctrl+H)",
        )
        .clicked()
    {
        out.push(Action::ReplaceAll { from, to });
    }
}

fn token_combo(ui: &mut Ui, id: &str, name: &str, t: &mut Token) -> bool {
    let mut changed = false;
    let r = egui::ComboBox::from_id_salt(id)
        .selected_text(t.name())
        .show_ui(ui, |ui| {
            for x in Token::ALL {
                if ui.selectable_label(*t == *x, x.name()).clicked() {
                    *t = *x;
                    changed = true;
                }
            }
        });
    let _ = r.response.accessible_name(name);
    changed
}

/// The cell inspector: token, direction arrows and values of the inspected cell.
pub fn inspector_ui(ui: &mut Ui, st: &EditorState, out: &mut Vec<Action>) {
    ui.heading("Cell");
    let Some(pos) = st.inspect else {
        ui.label("Click a cell with Select (S) or the eyedropper (I) to inspect it.");
        return;
    };
    let Some(cell) = st.shown_cell(pos) else {
        return;
    };
    ui.label(format!("x {}, y {}", pos.x, pos.y));
    let editable = st.play.is_none();
    ui.add_enabled_ui(editable, |ui| {
        let mut c = cell;
        if token_combo(ui, "inspect-token", "cell token", &mut c.token) {
            out.push(Action::SetCell { pos, cell: c });
        }
        ui.horizontal(|ui| {
            ui.label("direction");
            let cur = c.get(ValueKey::Direction);
            for d in [Dir::Left, Dir::Up, Dir::Down, Dir::Right] {
                if ui
                    .selectable_label(cur == d.value(), look::arrow_char(d))
                    .on_hover_text(format!("{} (direction {})", d.name(), d.value()))
                    .clicked()
                {
                    out.push(Action::SetCell {
                        pos,
                        cell: c.with(ValueKey::Direction, d.value()),
                    });
                }
            }
            if ui.selectable_label(cur == 0, "none").clicked() {
                out.push(Action::SetCell {
                    pos,
                    cell: c.with(ValueKey::Direction, 0),
                });
            }
        });
        egui::Grid::new("inspect-values")
            .num_columns(4)
            .show(ui, |ui| {
                let keys: Vec<ValueKey> = [ValueKey::A, ValueKey::B, ValueKey::C, ValueKey::D]
                    .into_iter()
                    .chain(ValueKey::ALL.iter().copied().filter(|k| {
                        !matches!(
                            k,
                            ValueKey::A
                                | ValueKey::B
                                | ValueKey::C
                                | ValueKey::D
                                | ValueKey::Direction
                        )
                    }))
                    .collect();
                for (i, k) in keys.into_iter().enumerate() {
                    let mut v = c.get(k);
                    ui.label(k.name());
                    if ui
                        .add(egui::DragValue::new(&mut v).range(0..=u32::MAX))
                        .accessible_name(format!("value {}", k.name()))
                        .changed()
                    {
                        out.push(Action::SetCell {
                            pos,
                            cell: c.with(k, v),
                        });
                    }
                    if i % 2 == 1 {
                        ui.end_row();
                    }
                }
            });
    });
}

/// The level properties: name, size with resize anchor, gems and ticks thresholds, maxslime.
pub fn properties_ui(ui: &mut Ui, st: &EditorState, ps: &mut PanelState, out: &mut Vec<Action>) {
    ui.heading("Level");
    let props = Props::of(&st.level);
    let mut p = props.clone();
    ui.horizontal(|ui| {
        ui.label("name");
        if ui
            .text_edit_singleline(&mut p.name)
            .accessible_name("level name")
            .changed()
        {
            out.push(Action::SetProps {
                props: p.clone(),
                field: "name",
            });
        }
    });
    for (label, field, tip) in [
        ("gems", "gems", "gems needed for 1, 2 and 3 points"),
        ("ticks", "ticks", "tick limits for 1, 2 and 3 points"),
    ] {
        ui.horizontal(|ui| {
            ui.label(label).on_hover_text(tip);
            for i in 0..3 {
                let v = if field == "gems" {
                    &mut p.gems[i]
                } else {
                    &mut p.ticks[i]
                };
                if ui
                    .add(egui::DragValue::new(v))
                    .accessible_name(format!("{field} for {} point(s)", i + 1))
                    .changed()
                {
                    out.push(Action::SetProps {
                        props: p.clone(),
                        field,
                    });
                }
            }
        });
    }
    ui.horizontal(|ui| {
        let mut on = p.maxslime.is_some();
        if ui.checkbox(&mut on, "maxslime").changed() {
            p.maxslime = on.then_some(100);
            out.push(Action::SetProps {
                props: p.clone(),
                field: "maxslime",
            });
        }
        if let Some(mut m) = p.maxslime
            && ui
                .add(egui::DragValue::new(&mut m))
                .accessible_name("maxslime value")
                .changed()
        {
            p.maxslime = Some(m);
            out.push(Action::SetProps {
                props: p.clone(),
                field: "maxslime",
            });
        }
    });
    resize_ui(ui, (st.level.width(), st.level.height()), ps, out);
}

/// The size fields, the anchor grid and the Resize button, for a map of `size` cells.
pub fn resize_ui(ui: &mut Ui, size: (usize, usize), ps: &mut PanelState, out: &mut Vec<Action>) {
    if ps.synced != size {
        ps.synced = size;
        ps.resize_w = size.0;
        ps.resize_h = size.1;
    }
    ui.horizontal(|ui| {
        ui.label("size");
        ui.add(egui::DragValue::new(&mut ps.resize_w).range(1..=10_000))
            .accessible_name("new width");
        ui.label("×");
        ui.add(egui::DragValue::new(&mut ps.resize_h).range(1..=10_000))
            .accessible_name("new height");
    });
    ui.horizontal(|ui| {
        ui.label("anchor");
        egui::Grid::new("anchor")
            .spacing(vec2(2.0, 2.0))
            .show(ui, |ui| {
                for ay in 0..3u8 {
                    for ax in 0..3u8 {
                        let on = ps.anchor == (ax, ay);
                        if ui
                            .selectable_label(on, if on { "X" } else { "o" })
                            .on_hover_text("the part of the map that stays in place")
                            .clicked()
                        {
                            ps.anchor = (ax, ay);
                        }
                    }
                    ui.end_row();
                }
            });
        if ui.button("Resize").clicked() {
            out.push(Action::Resize {
                width: ps.resize_w,
                height: ps.resize_h,
                anchor: ps.anchor,
            });
        }
    });
}

/// The history list (`done`: the applied edits, oldest first; `undone`: the next to redo
/// first): click an entry to undo or redo up to it.
pub fn history_ui(ui: &mut Ui, done: &[&str], undone: &[&str], out: &mut Vec<Action>) {
    ui.heading("History");
    egui::ScrollArea::vertical()
        .id_salt("history")
        .max_height(160.0)
        .show(ui, |ui| {
            if ui.selectable_label(done.is_empty(), "(opened)").clicked() {
                out.push(Action::HistoryGoTo(0));
            }
            for (i, n) in done.iter().enumerate() {
                if ui.selectable_label(i + 1 == done.len(), *n).clicked() {
                    out.push(Action::HistoryGoTo(i + 1));
                }
            }
            for (j, n) in undone.iter().enumerate() {
                if ui
                    .selectable_label(false, RichText::new(*n).weak().italics())
                    .clicked()
                {
                    out.push(Action::HistoryGoTo(done.len() + j + 1));
                }
            }
        });
}

/// The problems list with click-to-locate.
pub fn problems_ui(ui: &mut Ui, st: &EditorState, out: &mut Vec<Action>) {
    ui.horizontal(|ui| {
        ui.strong(format!("Problems ({})", st.problems.len()));
        ui.label(RichText::new("saving work in progress is always allowed").weak());
    });
    egui::ScrollArea::vertical()
        .id_salt("problems")
        .max_height(80.0)
        .show(ui, |ui| {
            if st.problems.is_empty() {
                ui.label("No problems.");
            }
            for p in &st.problems {
                let (word, color) = match p.severity {
                    Severity::Error => ("error", Color32::from_rgb(255, 90, 90)),
                    Severity::Warning => ("warning", Color32::from_rgb(255, 200, 80)),
                };
                let cell = problem_cell(p);
                let text = format!(
                    "{word}: {} (at {}){}",
                    p.message,
                    p.path,
                    cell.map_or(String::new(), |c| format!(" — cell {}, {}", c.x, c.y))
                );
                let r = ui
                    .add(egui::Label::new(RichText::new(text).color(color)).sense(Sense::click()));
                if let Some(c) = cell
                    && r.on_hover_text("click to show the cell").clicked()
                {
                    out.push(Action::Locate(c));
                }
            }
        });
}

/// The status bar: the hovered cell, the status message.
pub fn status_ui(ui: &mut Ui, st: &EditorState) {
    if let Some(d) = &st.baba {
        ui.horizontal(|ui| {
            match st.hover.and_then(|p| d.shown_map().get(p).map(|s| (p, s))) {
                Some((p, s)) => {
                    let names: Vec<String> = s
                        .iter()
                        .rev()
                        .map(|t| {
                            if t.kind.is_text() {
                                t.kind.token()
                            } else {
                                format!("{} {}", t.kind.token(), look::arrow_char(t.dir))
                            }
                        })
                        .collect();
                    ui.monospace(format!(
                        "x {:>3}, y {:>3}: {}",
                        p.x,
                        p.y,
                        if names.is_empty() {
                            "empty".to_string()
                        } else {
                            names.join(" on ")
                        }
                    ));
                }
                None => {
                    let (w, h) = st.map_size();
                    ui.monospace(format!("baba level, {w} × {h} cells"));
                }
            }
            ui.separator();
            ui.label(&st.status);
        });
        return;
    }
    ui.horizontal(|ui| {
        match st.hover.and_then(|p| st.shown_cell(p).map(|c| (p, c))) {
            Some((p, c)) => {
                let values: Vec<String> = ValueKey::ALL
                    .iter()
                    .filter(|k| c.get(**k) != 0)
                    .map(|k| format!("{} {}", k.name(), c.get(*k)))
                    .collect();
                ui.monospace(format!(
                    "x {:>3}, y {:>3}: {}{}",
                    p.x,
                    p.y,
                    c.token.name(),
                    if values.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", values.join(", "))
                    }
                ));
                // While playing: the phases of the last tick that changed this cell.
                if let Some(play) = &st.play {
                    let phases: Vec<String> = play
                        .cell_history(p)
                        .iter()
                        .map(|(ph, _, _)| crate::state::play::phase_label(play.game.level(), *ph))
                        .collect();
                    if !phases.is_empty() {
                        ui.separator();
                        ui.label(format!("changed by: {}", phases.join(", ")));
                    }
                }
            }
            None => {
                ui.monospace(format!(
                    "{} × {} cells",
                    st.level.width(),
                    st.level.height()
                ));
            }
        }
        ui.separator();
        ui.label(&st.status);
    });
}
