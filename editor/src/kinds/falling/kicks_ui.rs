//! The kick table of a tumo and the kick lab: a small test field where you paint walls, place
//! the tumo and press CW, CCW or 180, and see every kick offset tried, in order, outlined, and
//! which one succeeded ("test 3 of 5"), or that all failed.

use eframe::egui::{self, Color32, Rect, RichText, Sense, Stroke, StrokeKind, Ui, vec2};
use tilesmith_engine::kind::falling::level::{FallingLevel, Tumo};
use tilesmith_engine::kind::falling::shape::{
    self, Kicks, Turn, TurnResult, target_state, try_turn,
};

use super::tumo_ui::{TumoPanel, paint_value};
use super::ui::set_rest;
use super::{FallingDoc, look};
use crate::state::Action;

/// The kick lab: a test field with walls and one tumo.
#[derive(Debug, Clone, PartialEq)]
pub struct KickLab {
    /// Columns of the test field.
    pub width: usize,
    /// Rows of the test field.
    pub height: usize,
    /// Walls, row-major (x = column, y = row from the top).
    pub walls: Vec<bool>,
    /// The tumo's rotation state.
    pub state: usize,
    /// Field cell of the tumo grid's top-left corner (may be negative).
    pub at: (i32, i32),
    /// The last turn tried.
    pub last: Option<TurnResult>,
    /// The turn of [`KickLab::last`].
    pub last_turn: Option<Turn>,
}

impl Default for KickLab {
    fn default() -> Self {
        let (width, height) = (10, 8);
        Self {
            width,
            height,
            walls: vec![false; width * height],
            state: 0,
            at: (3, 0),
            last: None,
            last_turn: None,
        }
    }
}

impl KickLab {
    /// True when the lab cell `(x, y)` can hold a block: inside the field and not a wall
    /// (the top has no ceiling, as in the SRS tests).
    pub fn free(&self, x: i32, y: i32) -> bool {
        if x < 0 || x >= self.width as i32 || y >= self.height as i32 {
            return false;
        }
        y < 0 || !self.walls[y as usize * self.width + x as usize]
    }

    /// Tries `turn` of `tumo` from the lab's state and position; on success the tumo moves
    /// to the new state and position. The trials stay for drawing.
    pub fn turn(&mut self, tumo: &Tumo, turn: Turn) {
        let state = self.state.min(tumo.states.len().saturating_sub(1));
        let r = try_turn(&tumo.states, &tumo.kicks, state, self.at, turn, &|x, y| {
            self.free(x, y)
        });
        if let Some(i) = r.success {
            let (dx, dy) = r.trials[i].offset;
            self.at = (self.at.0 + dx, self.at.1 + dy);
            self.state = r.to_state;
        }
        self.last = Some(r);
        self.last_turn = Some(turn);
    }

    /// The result in words: `"test 3 of 5 fitted: offset (-1, +1)"` or
    /// `"all 5 tests failed: nothing changes"`.
    pub fn answer(&self) -> Option<String> {
        let r = self.last.as_ref()?;
        Some(match r.success {
            Some(i) => {
                let (dx, dy) = r.trials[i].offset;
                format!(
                    "test {} of {} fitted: offset ({dx:+}, {dy:+}), now state {}",
                    i + 1,
                    r.trials.len().max(i + 1),
                    r.to_state
                )
            }
            None => format!("all {} tests failed: nothing changes", r.trials.len()),
        })
    }

    /// A T-spin triple on a 10 × 8 lab (solution-finder's SRS test `Kicks.WithT.checks4ok1`):
    /// a T in state 0 above a slot under an overhang. CW fails at offsets 1–4 and fits at
    /// test 5 of 5, `(-1, +2)` (y down), filling three rows.
    pub fn tst_setup(&mut self) {
        *self = KickLab::default();
        let rows = [
            "..........",
            "..........",
            "..........",
            "XXXX......",
            "XXX.......",
            "XXX.XXXXXX",
            "XXX..XXXXX",
            "XXX.XXXXXX",
        ];
        for (y, row) in rows.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                self.walls[y * self.width + x] = c == 'X';
            }
        }
        self.state = 0;
        self.at = (3, 3);
    }
}

/// The kick table of the selected tumo and the kick lab.
pub fn kicks_ui(ui: &mut Ui, d: &FallingDoc, tp: &mut TumoPanel, out: &mut Vec<Action>) {
    let level = &d.design().rest;
    ui.horizontal_wrapped(|ui| {
        ui.label("tumo");
        for (i, t) in level.tumos.iter().enumerate() {
            if ui.selectable_label(tp.selected == i, &t.name).clicked() {
                tp.selected = i;
                tp.lab.state = 0;
                tp.lab.last = None;
            }
        }
    });
    let Some(tumo) = level.tumos.get(tp.selected) else {
        ui.label("No tumo: add one on the Tumos page.");
        return;
    };
    egui::ScrollArea::vertical()
        .id_salt("kicks")
        .show(ui, |ui| {
            lab_ui(ui, level, tumo, tp);
            ui.separator();
            kick_table_ui(ui, level, tumo, tp, out);
        });
}

/// The preset buttons of the kick table (none, SRS JLSTZ / I / O, with 180) and "mirror for
/// the reverse direction", for tumo `i`.
fn presets_ui(ui: &mut Ui, level: &FallingLevel, tumo: &Tumo, i: usize, out: &mut Vec<Action>) {
    ui.horizontal_wrapped(|ui| {
        ui.label("presets");
        let presets: [(&str, Kicks); 6] = [
            ("none", Kicks::None),
            ("SRS JLSTZ", shape::srs_jlstz()),
            ("SRS I", shape::srs_i()),
            ("SRS O", shape::srs_o()),
            (
                "SRS JLSTZ + 180",
                shape::srs_jlstz().merged(&shape::kicks_180_jlstz()),
            ),
            ("SRS I + 180", shape::srs_i().merged(&shape::kicks_180_i())),
        ];
        for (name, k) in presets {
            if ui.button(name).clicked() {
                let mut rest = level.clone();
                rest.tumos[i].kicks = k;
                set_rest(out, &format!("Kicks: {name}"), None, rest);
            }
        }
        if ui
            .button("Mirror for the reverse direction")
            .on_hover_text("Fill each missing j>i from i>j with the offsets negated")
            .clicked()
        {
            let mut rest = level.clone();
            rest.tumos[i].kicks = shape::reverse_kicks(&tumo.kicks);
            set_rest(out, "Kicks: reverse direction", None, rest);
        }
    });
}

fn kick_table_ui(
    ui: &mut Ui,
    level: &FallingLevel,
    tumo: &Tumo,
    tp: &mut TumoPanel,
    out: &mut Vec<Action>,
) {
    let i = tp.selected;
    let n = tumo.states.len();
    ui.heading("Kick table");
    ui.label(
        RichText::new(
            "offsets [dx, dy], y down, tried in order; a pair without a list tries only [0, 0]",
        )
        .small(),
    );
    presets_ui(ui, level, tumo, i, out);
    let table = match &tumo.kicks {
        Kicks::None => Default::default(),
        Kicks::Table(t) => t.clone(),
    };
    let mut new_table = table.clone();
    let mut what = None;
    // The pairs as chips; the chosen one's offsets are edited below, one per row.
    ui.horizontal_wrapped(|ui| {
        ui.label("pairs");
        for ((from, to), list) in &table {
            let pair = (*from, *to);
            if ui
                .selectable_label(tp.pair == pair, format!("{from}>{to} ({})", list.len()))
                .clicked()
            {
                tp.pair = pair;
            }
        }
    });
    if let Some(list) = table.get(&tp.pair) {
        let (from, to) = tp.pair;
        egui::Grid::new("kick offsets")
            .num_columns(4)
            .show(ui, |ui| {
                for (k, (dx, dy)) in list.iter().enumerate() {
                    let (mut ndx, mut ndy) = (*dx, *dy);
                    ui.label(format!("test {}", k + 1));
                    ui.add(egui::DragValue::new(&mut ndx).range(-8..=8).prefix("dx "));
                    ui.add(egui::DragValue::new(&mut ndy).range(-8..=8).prefix("dy "));
                    let entry = new_table.get_mut(&tp.pair).expect("pair present");
                    if (ndx, ndy) != (*dx, *dy) {
                        entry[k] = (ndx, ndy);
                        what = Some((
                            "Edit kick offset",
                            Some(format!("kick {i} {from} {to} {k}")),
                        ));
                    }
                    ui.horizontal(|ui| {
                        if ui
                            .add_enabled(k > 0, egui::Button::new("^").small())
                            .on_hover_text("Try earlier")
                            .clicked()
                        {
                            entry.swap(k - 1, k);
                            what = Some(("Reorder kick offsets", None));
                        }
                        if ui
                            .small_button("x")
                            .on_hover_text("Remove this offset")
                            .clicked()
                        {
                            entry.remove(k);
                            what = Some(("Remove kick offset", None));
                        }
                    });
                    ui.end_row();
                }
            });
        ui.horizontal(|ui| {
            if ui
                .small_button("+ offset")
                .on_hover_text("Add an offset at the end")
                .clicked()
            {
                new_table
                    .get_mut(&tp.pair)
                    .expect("pair present")
                    .push((0, 0));
                what = Some(("Add kick offset", None));
            }
            if ui.small_button("remove pair").clicked() {
                new_table.remove(&tp.pair);
                what = Some(("Remove kick pair", None));
            }
        });
    }
    if let Some(pair) = add_pair_ui(ui, tp, n, &table) {
        new_table.insert(pair, vec![(0, 0)]);
        tp.pair = pair;
        what = Some(("Add kick pair", None));
    }
    if let Some((w, merge)) = what {
        let mut rest = level.clone();
        rest.tumos[i].kicks = if new_table.is_empty() {
            Kicks::None
        } else {
            Kicks::Table(new_table)
        };
        set_rest(out, w, merge.as_deref(), rest);
    }
}

/// The "add pair i > j" row; the pair to add when its button is pressed.
fn add_pair_ui(
    ui: &mut Ui,
    tp: &mut TumoPanel,
    n: usize,
    table: &std::collections::BTreeMap<(usize, usize), Vec<(i32, i32)>>,
) -> Option<(usize, usize)> {
    ui.horizontal(|ui| {
        ui.label("add pair");
        ui.add(egui::DragValue::new(&mut tp.new_pair.0).range(0..=n.saturating_sub(1)));
        ui.label(">");
        ui.add(egui::DragValue::new(&mut tp.new_pair.1).range(0..=n.saturating_sub(1)));
        let pair = tp.new_pair;
        let ok = pair.0 != pair.1 && pair.0 < n && pair.1 < n && !table.contains_key(&pair);
        ui.add_enabled(ok, egui::Button::new("Add"))
            .clicked()
            .then_some(pair)
    })
    .inner
}

/// Screen points per cell of the kick lab.
const LAB_CELL: f32 = 22.0;

fn lab_ui(ui: &mut Ui, level: &FallingLevel, tumo: &Tumo, tp: &mut TumoPanel) {
    let lab = &mut tp.lab;
    ui.heading("Kick lab");
    ui.label(RichText::new("click cells: walls · arrows: move the tumo · then turn").small());
    ui.horizontal_wrapped(|ui| {
        for (label, turn) in [("CW", Turn::Cw), ("CCW", Turn::Ccw), ("180", Turn::Half)] {
            if ui.button(label).clicked() {
                lab.turn(tumo, turn);
            }
        }
        for (label, d) in [("<", (-1, 0)), (">", (1, 0)), ("^", (0, -1)), ("v", (0, 1))] {
            if ui.small_button(label).clicked() {
                lab.at = (lab.at.0 + d.0, lab.at.1 + d.1);
                lab.last = None;
            }
        }
        ui.label("state");
        let mut s = lab.state;
        ui.add(egui::DragValue::new(&mut s).range(0..=tumo.states.len().saturating_sub(1)));
        if s != lab.state {
            lab.state = s;
            lab.last = None;
        }
        if ui.button("Clear walls").clicked() {
            lab.walls.fill(false);
            lab.last = None;
        }
        if ui.button("T-spin triple setup").on_hover_text("A T-spin triple: an overhang and a T that fits its slot with CW at test 5 (SRS JLSTZ kicks)").clicked() {
            lab.tst_setup();
        }
    });
    let state = lab.state.min(tumo.states.len().saturating_sub(1));
    let size = vec2(lab.width as f32 * LAB_CELL, lab.height as f32 * LAB_CELL);
    let (rect, resp) = ui.allocate_exact_size(size, Sense::click());
    let resp = resp.accessible_name("kick lab field");
    let p = ui.painter_at(rect);
    let cell_rect = |x: i32, y: i32| {
        Rect::from_min_size(
            rect.min + vec2(x as f32 * LAB_CELL, y as f32 * LAB_CELL),
            vec2(LAB_CELL, LAB_CELL),
        )
    };
    p.rect_filled(rect, 0.0, look::WELL);
    for y in 0..lab.height {
        for x in 0..lab.width {
            let r = cell_rect(x as i32, y as i32);
            if lab.walls[y * lab.width + x] {
                p.rect_filled(r.shrink(1.0), 2.0, Color32::from_gray(110));
            } else {
                p.rect_stroke(
                    r,
                    0.0,
                    Stroke::new(1.0, Color32::from_white_alpha(15)),
                    StrokeKind::Inside,
                );
            }
        }
    }
    // The tumo where it is now.
    if let Some(g) = tumo.states.get(state) {
        for (x, y, v) in g.blocks() {
            let r = cell_rect(lab.at.0 + x as i32, lab.at.1 + y as i32);
            paint_value(&p, r, v, level, tumo);
        }
    }
    // Every trial of the last turn, outlined, numbered; the winner bright green.
    if let Some(res) = &lab.last {
        for (k, t) in res.trials.iter().enumerate() {
            let won = res.success == Some(k);
            let colour = if won {
                Color32::from_rgb(60, 240, 90)
            } else {
                Color32::from_rgb(240, 80, 80)
            };
            for &(x, y) in &t.cells {
                let r = cell_rect(x, y).shrink(1.0 + k as f32 * 1.5);
                p.rect_stroke(
                    r,
                    0.0,
                    Stroke::new(if won { 2.5 } else { 1.0 }, colour),
                    StrokeKind::Inside,
                );
            }
            if let Some(&(x, y)) = t.cells.first() {
                p.text(
                    cell_rect(x, y).left_top() + vec2(2.0 + k as f32 * 4.0, 1.0),
                    egui::Align2::LEFT_TOP,
                    (k + 1).to_string(),
                    egui::FontId::monospace(10.0),
                    colour,
                );
            }
        }
    }
    if let Some(at) = resp.interact_pointer_pos().filter(|_| resp.clicked()) {
        let x = ((at.x - rect.min.x) / LAB_CELL) as usize;
        let y = ((at.y - rect.min.y) / LAB_CELL) as usize;
        if x < lab.width && y < lab.height {
            let w = &mut lab.walls[y * lab.width + x];
            *w = !*w;
            lab.last = None;
        }
    }
    match lab.answer() {
        Some(a) => {
            let turn = lab.last_turn.map_or("", |t| match t {
                Turn::Cw => "CW",
                Turn::Ccw => "CCW",
                Turn::Half => "180",
            });
            let to = lab.last.as_ref().map_or(0, |r| r.to_state);
            ui.label(RichText::new(format!("{turn} to state {to}: {a}")).strong());
        }
        None => {
            let to = target_state(tumo.states.len(), state, Turn::Cw);
            let tests = tumo.kicks.tests(state, to).len();
            ui.label(format!("state {state}: CW would try {tests} offset(s)"));
        }
    }
}
