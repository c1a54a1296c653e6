//! The tumo editor: the rotation-shape grids of each tumo (the kick table and its lab are in
//! `kicks_ui`).
//!
//! A tumo's states are drawn side by side as small grids (rows top first). Clicking or
//! dragging sets cells to the chosen value (`-1`: a block of the tumo's kind; `n`: labelled
//! block n; right button: empty). The pivot is the orange dot; drag it to a cell centre or a
//! cell corner. Auto-rotate, swap rotation and mirror build states from state 1. Every change
//! is one undo step (a drag is one step).

use eframe::egui::{self, Color32, Pos2, Rect, RichText, Sense, Stroke, StrokeKind, Ui, vec2};
use tilesmith_engine::kind::falling::field::BlockId;
use tilesmith_engine::kind::falling::level::{FallingLevel, MAX_GRID, MAX_STATES, Tumo};
use tilesmith_engine::kind::falling::shape::{self, Kicks, ShapeGrid};

use super::ui::{block_name, set_rest};
use super::{FallingDoc, look, new_tumo};
use crate::state::Action;

/// Screen points per cell of a state grid.
const CELL: f32 = 26.0;

/// Widget state of the tumo editor and the kick lab.
#[derive(Debug)]
pub struct TumoPanel {
    /// The selected tumo (index into `tumos`).
    pub selected: usize,
    /// What a left click paints into a state grid: `-1` or a label `n > 0`.
    pub value: i8,
    /// Counts drags, so each drag is its own undo step.
    pub drag_no: u64,
    /// True while the pivot is dragged.
    pub dragging_pivot: bool,
    /// The kick lab.
    pub lab: super::kicks_ui::KickLab,
    /// The pair `from>to` being added to the kick table.
    pub new_pair: (usize, usize),
    /// The pair whose offsets the kick table shows.
    pub pair: (usize, usize),
    /// The last message of a shape tool (e.g. why auto-rotate failed).
    pub note: String,
}

impl Default for TumoPanel {
    fn default() -> Self {
        Self {
            selected: 0,
            value: -1,
            drag_no: 0,
            dragging_pivot: false,
            lab: Default::default(),
            new_pair: (0, 1),
            pair: (0, 1),
            note: String::new(),
        }
    }
}

/// The colour of label `n` in the state grids (labels take random kinds at spawn).
fn label_color(n: i8) -> Color32 {
    const C: [Color32; 6] = [
        Color32::from_rgb(200, 120, 230),
        Color32::from_rgb(120, 200, 230),
        Color32::from_rgb(230, 190, 110),
        Color32::from_rgb(140, 220, 140),
        Color32::from_rgb(230, 130, 130),
        Color32::from_rgb(170, 170, 240),
    ];
    C[(n.max(1) as usize - 1) % C.len()]
}

/// Draws one grid cell value into `r`.
pub(super) fn paint_value(p: &egui::Painter, r: Rect, v: i8, level: &FallingLevel, tumo: &Tumo) {
    if v == -1 {
        if let Some(k) = (tumo.block as usize)
            .checked_sub(1)
            .and_then(|i| level.blocks.get(i))
        {
            look::paint_block(p, r, k, 1.0);
        }
    } else if v > 0 {
        p.rect_filled(r.shrink(2.0), 3.0, label_color(v));
        p.text(
            r.center(),
            egui::Align2::CENTER_CENTER,
            v.to_string(),
            egui::FontId::monospace(r.height() * 0.6),
            Color32::BLACK,
        );
    }
}

/// The tumo list and the selected tumo's states.
pub fn tumos_ui(ui: &mut Ui, d: &FallingDoc, tp: &mut TumoPanel, out: &mut Vec<Action>) {
    let level = &d.design().rest;
    tumo_list_ui(ui, level, tp, out);
    let Some(tumo) = level.tumos.get(tp.selected) else {
        ui.label("No tumo: add one.");
        return;
    };
    ui.separator();
    tumo_props_ui(ui, level, tp, out);
    ui.separator();
    ui.horizontal_wrapped(|ui| {
        ui.label("paint");
        let max_label = tumo
            .states
            .iter()
            .flat_map(|s| s.cells.iter())
            .copied()
            .max()
            .unwrap_or(0);
        ui.selectable_value(&mut tp.value, -1, "block (-1)")
            .on_hover_text(format!(
                "a block of the tumo's kind ({})",
                block_name(level, tumo.block)
            ));
        for n in 1..=(max_label + 1).clamp(1, 9) {
            ui.selectable_value(&mut tp.value, n, format!("label {n}"))
                .on_hover_text("a labelled block: keeps its identity (and kind) across states");
        }
        ui.label(RichText::new("right button: empty").small());
    });
    states_ui(ui, level, tumo, tp, out);
    ui.separator();
    tools_ui(ui, level, tumo, tp, out);
    if !tp.note.is_empty() {
        ui.label(RichText::new(&tp.note).color(Color32::from_rgb(240, 180, 80)));
    }
}

fn tumo_list_ui(ui: &mut Ui, level: &FallingLevel, tp: &mut TumoPanel, out: &mut Vec<Action>) {
    ui.heading("Tumos");
    ui.horizontal_wrapped(|ui| {
        for (i, t) in level.tumos.iter().enumerate() {
            if ui.selectable_label(tp.selected == i, &t.name).clicked() {
                tp.selected = i;
                tp.lab.state = 0;
                tp.lab.last = None;
                tp.note.clear();
            }
        }
    });
    ui.horizontal(|ui| {
        if ui.button("Add tumo").clicked() {
            let mut rest = level.clone();
            let name = unique_name(level, "tumo");
            let block = if rest.blocks.is_empty() { 0 } else { 1 };
            rest.tumos.push(new_tumo(name, block));
            tp.selected = rest.tumos.len() - 1;
            set_rest(out, "Add tumo", None, rest);
        }
        if ui
            .add_enabled(
                level.tumos.len() > 1 && tp.selected < level.tumos.len(),
                egui::Button::new("Remove"),
            )
            .on_hover_text("Remove the selected tumo (and it from the sequence)")
            .clicked()
        {
            let mut rest = level.clone();
            rest.tumos.remove(tp.selected);
            let gone = tp.selected;
            rest.sequence.tumos.retain(|&t| t != gone);
            for t in &mut rest.sequence.tumos {
                if *t > gone {
                    *t -= 1;
                }
            }
            if rest.active.as_ref().is_some_and(|a| a.tumo == gone) {
                rest.active = None;
            } else if let Some(a) = rest.active.as_mut().filter(|a| a.tumo > gone) {
                a.tumo -= 1;
            }
            tp.selected = tp.selected.saturating_sub(1);
            set_rest(out, "Remove tumo", None, rest);
        }
        if ui
            .add_enabled(
                tp.selected < level.tumos.len(),
                egui::Button::new("Duplicate"),
            )
            .clicked()
        {
            let mut rest = level.clone();
            let mut t = rest.tumos[tp.selected].clone();
            t.name = unique_name(level, &t.name);
            rest.tumos.push(t);
            tp.selected = rest.tumos.len() - 1;
            set_rest(out, "Duplicate tumo", None, rest);
        }
    });
}

/// `base`, or `base 2`, `base 3`, … whichever no tumo has.
fn unique_name(level: &FallingLevel, base: &str) -> String {
    let taken = |n: &str| level.tumos.iter().any(|t| t.name == n);
    if !taken(base) {
        return base.to_string();
    }
    (2..)
        .map(|k| format!("{base} {k}"))
        .find(|n| !taken(n))
        .unwrap_or_else(|| base.to_string())
}

fn tumo_props_ui(ui: &mut Ui, level: &FallingLevel, tp: &mut TumoPanel, out: &mut Vec<Action>) {
    let i = tp.selected;
    let t = &level.tumos[i];
    egui::Grid::new("tumo props").num_columns(2).show(ui, |ui| {
        ui.label("name");
        let mut name = t.name.clone();
        if ui.text_edit_singleline(&mut name).accessible_name("tumo name").changed()
            && !name.trim().is_empty()
            && !level.tumos.iter().any(|o| o.name == name)
        {
            let mut rest = level.clone();
            rest.tumos[i].name = name;
            set_rest(out, "Rename tumo", Some(&format!("tumo name {i}")), rest);
        }
        ui.end_row();
        ui.label("block (-1)").on_hover_text("The kind of the tumo's -1 cells");
        let r = egui::ComboBox::from_id_salt("tumo block")
            .selected_text(block_name(level, t.block))
            .show_ui(ui, |ui| {
                for b in 1..=level.blocks.len() {
                    let b = b as BlockId;
                    if ui.selectable_label(t.block == b, block_name(level, b)).clicked() && t.block != b {
                        let mut rest = level.clone();
                        rest.tumos[i].block = b;
                        set_rest(out, "Set tumo block", None, rest);
                    }
                }
            });
        let _ = r.response.accessible_name("tumo block kind");
        ui.end_row();
        ui.label("labels").on_hover_text(
            "The kinds a labelled cell may take when the tumo spawns (none ticked: every normal kind)",
        );
        ui.horizontal_wrapped(|ui| {
            for b in 1..=level.blocks.len() {
                let b = b as BlockId;
                let mut on = t.labels.contains(&b);
                if ui.checkbox(&mut on, block_name(level, b)).changed() {
                    let mut rest = level.clone();
                    let l = &mut rest.tumos[i].labels;
                    if on {
                        l.push(b);
                        l.sort_unstable();
                    } else {
                        l.retain(|&x| x != b);
                    }
                    set_rest(out, "Set tumo labels", None, rest);
                }
            }
        });
        ui.end_row();
        ui.label("grid side");
        let side = t.states.first().map_or(3, |s| s.side);
        let mut new_side = side;
        ui.add(egui::DragValue::new(&mut new_side).range(1..=MAX_GRID));
        if new_side != side {
            let mut rest = level.clone();
            for s in &mut rest.tumos[i].states {
                *s = resized(s, new_side);
            }
            set_rest(out, "Resize tumo grids", Some(&format!("tumo side {i}")), rest);
        }
        ui.end_row();
        ui.label("spawn").on_hover_text("Field cell of the grid's top-left cell when the tumo spawns");
        ui.horizontal(|ui| {
            let mut custom = t.spawn.is_some();
            if ui.checkbox(&mut custom, "fixed").on_hover_text("off: centred in the top row").changed() {
                let mut rest = level.clone();
                rest.tumos[i].spawn = custom.then_some([0, 0]);
                set_rest(out, "Set tumo spawn", None, rest);
            }
            if let Some([x, y]) = t.spawn {
                let (mut nx, mut ny) = (x, y);
                ui.label("x");
                ui.add(egui::DragValue::new(&mut nx).range(-8..=255));
                ui.label("y");
                ui.add(egui::DragValue::new(&mut ny).range(-8..=255));
                if (nx, ny) != (x, y) {
                    let mut rest = level.clone();
                    rest.tumos[i].spawn = Some([nx, ny]);
                    set_rest(out, "Set tumo spawn", Some(&format!("tumo spawn {i}")), rest);
                }
            }
        });
        ui.end_row();
    });
}

/// `g` cut or padded to `side` (top-left kept).
fn resized(g: &ShapeGrid, side: usize) -> ShapeGrid {
    let mut n = ShapeGrid::new(side);
    for (x, y, v) in g.blocks() {
        if x < side && y < side {
            n.cells[y * side + x] = v;
        }
    }
    n
}

/// The screen position of grid point `(gx, gy)` (cell centres at integers) in a grid drawn at
/// `rect`.
fn grid_point(rect: Rect, gx: f64, gy: f64) -> Pos2 {
    rect.min + vec2((gx as f32 + 0.5) * CELL, (gy as f32 + 0.5) * CELL)
}

fn states_ui(
    ui: &mut Ui,
    level: &FallingLevel,
    tumo: &Tumo,
    tp: &mut TumoPanel,
    out: &mut Vec<Action>,
) {
    let i = tp.selected;
    // As many state grids a row as the panel holds (a wrapped layout cannot wrap a column of
    // a label and a grid: it widened the panel instead; issue #31 defect 9).
    let side = tumo.states.iter().map(|g| g.side).max().unwrap_or(1) as f32 * CELL;
    let per_row = ((ui.available_width() + 8.0) / (side.max(72.0) + 8.0)).max(1.0) as usize;
    for (row, states) in tumo.states.chunks(per_row).enumerate() {
        ui.horizontal(|ui| {
            for (k, g) in states.iter().enumerate() {
                let s = row * per_row + k;
                ui.vertical(|ui| {
                    ui.horizontal(|ui| {
                        ui.label(RichText::new(format!("state {s}")).strong());
                        if ui
                            .add_enabled(tumo.states.len() > 1, egui::Button::new("x").small())
                            .on_hover_text("Remove this state")
                            .clicked()
                        {
                            let mut rest = level.clone();
                            rest.tumos[i].states.remove(s);
                            rest.tumos[i].kicks = Kicks::None;
                            set_rest(out, "Remove rotation state", None, rest);
                        }
                    });
                    state_grid(ui, level, tumo, s, g, tp, out);
                });
            }
        });
    }
    if ui
        .add_enabled(tumo.states.len() < MAX_STATES, egui::Button::new("+ state"))
        .on_hover_text("Add a state (a copy of the last)")
        .clicked()
    {
        let mut rest = level.clone();
        let last = rest.tumos[i]
            .states
            .last()
            .cloned()
            .unwrap_or_else(|| ShapeGrid::new(3));
        rest.tumos[i].states.push(last);
        set_rest(out, "Add rotation state", None, rest);
    }
}

fn state_grid(
    ui: &mut Ui,
    level: &FallingLevel,
    tumo: &Tumo,
    s: usize,
    g: &ShapeGrid,
    tp: &mut TumoPanel,
    out: &mut Vec<Action>,
) {
    let i = tp.selected;
    let side = g.side as f32 * CELL;
    let (rect, resp) = ui.allocate_exact_size(vec2(side, side), Sense::click_and_drag());
    let resp = resp
        .on_hover_text(
            "click or drag: paint · right button: empty · orange dot: the pivot (drag it)",
        )
        .accessible_name(format!("state {s} grid"));
    let p = ui.painter_at(rect.expand(4.0));
    p.rect_filled(rect, 2.0, look::WELL);
    for y in 0..g.side {
        for x in 0..g.side {
            let r = Rect::from_min_size(
                rect.min + vec2(x as f32 * CELL, y as f32 * CELL),
                vec2(CELL, CELL),
            );
            p.rect_stroke(
                r,
                0.0,
                Stroke::new(1.0, Color32::from_white_alpha(20)),
                StrokeKind::Inside,
            );
            paint_value(&p, r, g.cells[y * g.side + x], level, tumo);
        }
    }
    let pivot = grid_point(rect, tumo.pivot[0], tumo.pivot[1]);
    p.circle(
        pivot,
        4.5,
        Color32::from_rgb(255, 150, 30),
        Stroke::new(1.0, Color32::BLACK),
    );
    let Some(at) = resp.interact_pointer_pos() else {
        return;
    };
    if resp.drag_started() || resp.clicked() || resp.secondary_clicked() {
        tp.drag_no += 1;
        tp.dragging_pivot = at.distance(pivot) < 7.0;
    }
    if tp.dragging_pivot {
        if resp.dragged() || resp.drag_stopped() {
            let fx = ((at.x - rect.min.x) / CELL - 0.5).clamp(-0.5, g.side as f32 - 0.5);
            let fy = ((at.y - rect.min.y) / CELL - 0.5).clamp(-0.5, g.side as f32 - 0.5);
            let snap = |v: f32| ((v * 2.0).round() / 2.0) as f64;
            let np = [snap(fx), snap(fy)];
            if np != tumo.pivot {
                let mut rest = level.clone();
                rest.tumos[i].pivot = np;
                set_rest(
                    out,
                    "Move pivot",
                    Some(&format!("pivot {}", tp.drag_no)),
                    rest,
                );
            }
        }
        if resp.drag_stopped() {
            tp.dragging_pivot = false;
        }
        return;
    }
    let cx = ((at.x - rect.min.x) / CELL).floor();
    let cy = ((at.y - rect.min.y) / CELL).floor();
    if cx < 0.0 || cy < 0.0 || cx >= g.side as f32 || cy >= g.side as f32 {
        return;
    }
    let secondary = ui.input(|inp| inp.pointer.secondary_down()) || resp.secondary_clicked();
    let value = if secondary { 0 } else { tp.value };
    let idx = cy as usize * g.side + cx as usize;
    if (resp.clicked() || resp.secondary_clicked() || resp.dragged()) && g.cells[idx] != value {
        let mut rest = level.clone();
        rest.tumos[i].states[s].cells[idx] = value;
        set_rest(
            out,
            "Paint tumo cell",
            Some(&format!("tumo paint {}", tp.drag_no)),
            rest,
        );
    }
}

fn tools_ui(
    ui: &mut Ui,
    level: &FallingLevel,
    tumo: &Tumo,
    tp: &mut TumoPanel,
    out: &mut Vec<Action>,
) {
    let i = tp.selected;
    let Some(first) = tumo.states.first() else {
        return;
    };
    ui.label(RichText::new("Build states from state 0").strong());
    ui.horizontal_wrapped(|ui| {
        for (n, tip) in [
            (4, "States 1–3: state 0 turned 90°, 180°, 270° clockwise about the pivot"),
            (2, "State 1: state 0 turned 90° clockwise about the pivot (2-state pieces)"),
        ] {
            if ui
                .button(format!("Auto-rotate: {n} states"))
                .on_hover_text(tip)
                .clicked()
            {
                match shape::auto_rotate(first, tumo.pivot, n) {
                    Ok(states) => {
                        let mut rest = level.clone();
                        rest.tumos[i].states = states;
                        tp.note.clear();
                        set_rest(out, &format!("Auto-rotate ({n} states)"), None, rest);
                    }
                    Err(e) => tp.note = format!("auto-rotate: {e}"),
                }
            }
        }
        if ui
            .button("Swap rotation")
            .on_hover_text("Columns: each state moves every label one place along, e.g. 1/2/3, then 3/1/2, then 2/3/1")
            .clicked()
        {
            let states = shape::swap_rotation(first);
            if states.len() < 2 {
                tp.note = "swap rotation needs at least two labelled cells in state 0".into();
            } else if states.len() > MAX_STATES {
                tp.note = format!(
                    "swap rotation of {} labels would make {} states (at most {MAX_STATES})",
                    states.len(),
                    states.len()
                );
            } else {
                let mut rest = level.clone();
                rest.tumos[i].states = states;
                tp.note.clear();
                set_rest(out, "Swap rotation", None, rest);
            }
        }
        if ui
            .button("Mirror as new tumo")
            .on_hover_text("A new tumo: every state, the pivot and the kicks mirrored left-right (S from Z, J from L)")
            .clicked()
        {
            let mut rest = level.clone();
            let mut t = tumo.clone();
            t.states = shape::mirror_states(&tumo.states);
            t.pivot = shape::mirror_pivot(tumo.pivot, first.side);
            t.kicks = shape::mirror_kicks(&tumo.kicks, tumo.states.len());
            t.name = unique_name(level, &format!("{} mirrored", tumo.name));
            rest.tumos.push(t);
            tp.selected = rest.tumos.len() - 1;
            set_rest(out, "Mirror tumo", None, rest);
        }
    });
}
