//! The panels of a falling document: the palette of block kinds, the block-kind editor and
//! level name (design page), the rules page (tumos, kicks, rules, script; see `tumo_ui` and
//! `rules_ui`), the play pane, and the canvas look.

use eframe::egui::{self, Color32, Painter, RichText, Sense, Ui, vec2};
use tilesmith_engine::Pos;
use tilesmith_engine::kind::falling::field::{BlockId, EMPTY};
use tilesmith_engine::kind::falling::level::{FallingLevel, Role};

use super::tumo_ui::TumoPanel;
use super::{FallingAction, FallingDoc, kicks_ui, look, play, rules_ui, tumo_ui};
use crate::doc::map::MapOps as _;
use crate::doc::ui::{KindUi, MapGeom};
use crate::state::{Action, EditorState};

/// The pages of the rules panel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RulesPage {
    /// Tumos and their rotation-shape grids.
    #[default]
    Tumos,
    /// The kick table of the selected tumo and the kick lab.
    Kicks,
    /// Clear rules, fall laws, game over, sequence, timing, score, goal.
    Rules,
    /// The FPGDL script.
    Script,
}

/// Widget state of the falling panels.
#[derive(Debug, Default)]
pub struct FallingUi {
    /// The rules page shown.
    pub page: RulesPage,
    /// The tumo editor and kick lab.
    pub tumo: TumoPanel,
}

/// Pushes a falling action.
pub(super) fn falling(out: &mut Vec<Action>, a: FallingAction) {
    out.push(Action::from(a));
}

/// Pushes a new rest of the level as one edit.
pub(super) fn set_rest(out: &mut Vec<Action>, what: &str, merge: Option<&str>, rest: FallingLevel) {
    falling(
        out,
        FallingAction::SetRest {
            what: what.into(),
            merge: merge.map(str::to_string),
            rest: Box::new(rest),
        },
    );
}

/// A block swatch of `size` points (the eraser for [`EMPTY`]).
pub(super) fn swatch(ui: &mut Ui, level: &FallingLevel, b: BlockId, size: f32) -> egui::Response {
    let (rect, resp) = ui.allocate_exact_size(vec2(size, size), Sense::click());
    ui.painter().rect_filled(rect, 2.0, look::WELL);
    match (b as usize)
        .checked_sub(1)
        .and_then(|i| level.blocks.get(i))
    {
        Some(k) => look::paint_block(ui.painter(), rect, k, 1.0),
        None => {
            let s = egui::Stroke::new(1.5, Color32::from_rgb(230, 80, 80));
            ui.painter()
                .line_segment([rect.left_top(), rect.right_bottom()], s);
            ui.painter()
                .line_segment([rect.right_top(), rect.left_bottom()], s);
        }
    }
    resp
}

/// The name of block `b` (`eraser` for [`EMPTY`]; in repair mode `unknown "r"` or `missing
/// cell` for a brush taken with the eyedropper from such a cell).
pub(super) fn block_name(level: &FallingLevel, b: BlockId) -> String {
    if super::repair::is_unknown(b) {
        return level.unknown_char(b).map_or_else(
            || "missing cell".into(),
            |c| {
                format!(
                    "unknown {}",
                    tilesmith_engine::problem::quote(&c.to_string())
                )
            },
        );
    }
    (b as usize)
        .checked_sub(1)
        .and_then(|i| level.blocks.get(i))
        .map_or_else(|| "eraser (empty)".into(), |k| k.name.clone())
}

fn palette_ui(ui: &mut Ui, d: &FallingDoc, out: &mut Vec<Action>) {
    let level = &d.design().rest;
    ui.heading("Blocks");
    for (label, b) in [("left", d.primary), ("right", d.secondary)] {
        ui.horizontal(|ui| {
            swatch(ui, level, b, 22.0);
            ui.label(format!("{label}: {}", block_name(level, b)));
        });
    }
    ui.separator();
    ui.label(RichText::new("left click: left brush · right click: right brush").small());
    for b in 0..=level.blocks.len() {
        let b = b as BlockId;
        ui.horizontal(|ui| {
            let r = swatch(ui, level, b, 20.0);
            let text = if b == EMPTY {
                "eraser".to_string()
            } else {
                block_name(level, b)
            };
            let l = ui.add(egui::Label::new(text).sense(Sense::click()));
            for r in [r, l] {
                if r.clicked() {
                    falling(out, FallingAction::SetPrimary(b));
                }
                if r.secondary_clicked() {
                    falling(out, FallingAction::SetSecondary(b));
                }
            }
        });
    }
}

const FORMS: [&str; 3] = ["square", "round", "gem"];

/// The level name and the block-kind editor: colour, form, role, reorder, add, remove.
fn blocks_ui(ui: &mut Ui, d: &FallingDoc, out: &mut Vec<Action>) {
    let level = &d.design().rest;
    ui.heading("Level");
    let mut name = level.name.clone();
    ui.horizontal(|ui| {
        ui.label("name");
        if ui
            .text_edit_singleline(&mut name)
            .accessible_name("level name")
            .changed()
        {
            let mut rest = level.clone();
            rest.name = name.clone();
            set_rest(out, "Set name", Some("name"), rest);
        }
    });
    ui.separator();
    ui.heading("Block kinds");
    ui.label(RichText::new("id = position in the list (createBlockPattern order)").small());
    let n = level.blocks.len();
    // Two lines a block kind (id, colour, name; then form, role, order), so the list fits a
    // side panel of 300 points (issue #31 defect 9: one line ran past the panel at 1280×800).
    ui.vertical(|ui| {
        ui.spacing_mut().item_spacing = vec2(4.0, 3.0);
        for (i, b) in level.blocks.iter().enumerate() {
            let id = (i + 1) as BlockId;
            let mut rest = level.clone();
            let mut changed = None;
            ui.horizontal(|ui| {
                ui.label(format!("{id}"));
                let mut rgb = b.color;
                if ui.color_edit_button_srgb(&mut rgb).changed() {
                    rest.blocks[i].color = rgb;
                    changed = Some(("Set block colour", format!("colour {i}")));
                }
                let mut bname = b.name.clone();
                if ui
                    .add(
                        egui::TextEdit::singleline(&mut bname)
                            .desired_width(ui.available_width().min(160.0)),
                    )
                    .accessible_name(format!("block {id} name"))
                    .changed()
                    && !bname.trim().is_empty()
                    && !level.blocks.iter().any(|o| o.name == bname)
                {
                    rest.blocks[i].name = bname;
                    changed = Some(("Rename block kind", format!("bname {i}")));
                }
            });
            ui.horizontal(|ui| {
                ui.add_space(12.0);
                let r = egui::ComboBox::from_id_salt(("form", i))
                    .width(64.0)
                    .selected_text(b.form.as_str())
                    .show_ui(ui, |ui| {
                        for f in FORMS {
                            if ui.selectable_label(b.form == f, f).clicked() && b.form != f {
                                rest.blocks[i].form = f.into();
                                changed = Some(("Set block form", format!("form {i}")));
                            }
                        }
                    });
                let _ = r.response.accessible_name(format!("block {id} form"));
                let r = egui::ComboBox::from_id_salt(("role", i))
                    .width(64.0)
                    .selected_text(role_name(b.role))
                    .show_ui(ui, |ui| {
                        for r in [Role::Normal, Role::Garbage, Role::Iron] {
                            if ui.selectable_label(b.role == r, role_name(r)).clicked()
                                && b.role != r
                            {
                                rest.blocks[i].role = r;
                                changed = Some(("Set block role", format!("role {i}")));
                            }
                        }
                    })
                    .response
                    .on_hover_text(
                        "normal: takes part in clears · garbage: vanishes next to a vanishing \
                         group (ojama) · iron: never vanishes",
                    );
                let _ = r.accessible_name(format!("block {id} role"));
                ui.horizontal(|ui| {
                    if ui
                        .add_enabled(i + 1 < n, egui::Button::new("v").small())
                        .on_hover_text("Move down (swaps ids everywhere)")
                        .clicked()
                    {
                        falling(out, FallingAction::MoveBlockDown(id));
                    }
                    if ui
                        .add_enabled(i > 0, egui::Button::new("^").small())
                        .on_hover_text("Move up (swaps ids everywhere)")
                        .clicked()
                    {
                        falling(out, FallingAction::MoveBlockDown(id - 1));
                    }
                    if ui
                        .add_enabled(n > 1, egui::Button::new("x").small())
                        .on_hover_text("Remove (its cells become empty)")
                        .clicked()
                    {
                        falling(out, FallingAction::RemoveBlock(id));
                    }
                });
            });
            if let Some((what, key)) = changed {
                set_rest(out, what, Some(&key), rest);
            }
        }
    });
    if ui.button("Add block kind").clicked() {
        falling(out, FallingAction::AddBlock);
    }
}

/// `normal`, `garbage` or `iron`.
pub(super) fn role_name(r: Role) -> &'static str {
    match r {
        Role::Normal => "normal",
        Role::Garbage => "garbage",
        Role::Iron => "iron",
    }
}

fn doc(st: &EditorState) -> Option<&FallingDoc> {
    st.doc_as::<FallingDoc>()
}

impl KindUi for FallingUi {
    fn kind(&self) -> &'static str {
        "falling"
    }

    fn palette_ui(&mut self, ui: &mut Ui, st: &EditorState, out: &mut Vec<Action>) {
        if let Some(d) = doc(st) {
            palette_ui(ui, d, out);
        }
    }

    fn design_ui(&mut self, ui: &mut Ui, st: &EditorState, out: &mut Vec<Action>) {
        if let Some(d) = doc(st) {
            blocks_ui(ui, d, out);
        }
    }

    fn play_ui(&mut self, ui: &mut Ui, st: &EditorState, out: &mut Vec<Action>) {
        if let Some(d) = doc(st) {
            play::play_ui(ui, d, out);
        }
    }

    fn rules_ui(&mut self, ui: &mut Ui, st: &EditorState, out: &mut Vec<Action>) {
        let Some(d) = doc(st) else { return };
        ui.horizontal(|ui| {
            for (p, label) in [
                (RulesPage::Tumos, "Tumos"),
                (RulesPage::Kicks, "Kicks"),
                (RulesPage::Rules, "Rules"),
                (RulesPage::Script, "Script"),
            ] {
                ui.selectable_value(&mut self.page, p, label);
            }
        });
        ui.separator();
        let playing = d.play.is_some();
        ui.add_enabled_ui(!playing, |ui| match self.page {
            RulesPage::Tumos => {
                egui::ScrollArea::vertical()
                    .id_salt("tumos")
                    .show(ui, |ui| tumo_ui::tumos_ui(ui, d, &mut self.tumo, out));
            }
            RulesPage::Kicks => kicks_ui::kicks_ui(ui, d, &mut self.tumo, out),
            RulesPage::Rules => rules_ui::rules_ui(ui, d, out),
            RulesPage::Script => rules_ui::script_ui(ui, st, d, out),
        });
    }

    fn rules_help(&self) -> &'static str {
        "Tumos and their rotation shapes, kick tables and the kick lab, clear rules, fall laws, \
         timing, score and goal, and the FPGDL script"
    }

    fn content_key(&self, st: &EditorState) -> (u8, u64) {
        let Some(d) = doc(st) else { return (0, 0) };
        match &d.play {
            Some(p) => (6, p.session.version()),
            None => (5, d.map.generation()),
        }
    }

    fn base_colors(&self, st: &EditorState) -> Vec<Color32> {
        let Some(d) = doc(st) else { return Vec::new() };
        let level = &d.design().rest;
        d.shown_field()
            .cells()
            .iter()
            .map(|&b| {
                (b as usize)
                    .checked_sub(1)
                    .and_then(|i| level.blocks.get(i))
                    .map_or(look::WELL, look::color)
            })
            .collect()
    }

    fn describe_cell(&self, st: &EditorState, pos: Pos) -> Option<String> {
        let d = doc(st)?;
        let b = d.shown_block(pos)?;
        let level = &d.design().rest;
        let mut s = if b == EMPTY {
            "empty".to_string()
        } else if let Some(u) = d.unknown_description(b) {
            u
        } else {
            let k = level.blocks.get(b as usize - 1)?;
            format!("{} (id {b}, {})", k.name, role_name(k.role))
        };
        if pos.y < level.hidden_rows {
            s.push_str(" · hidden row (never clears)");
        }
        if let Some(p) = &d.play
            && let Some(note) = p.describe(pos)
        {
            s.push_str(" · ");
            s.push_str(&note);
        }
        Some(s)
    }

    fn paint_cells(&mut self, painter: &Painter, st: &EditorState, g: &MapGeom) {
        let Some(d) = doc(st) else { return };
        let level = &d.design().rest;
        // Cell backgrounds as one un-feathered mesh: feathered squares leave a faint seam of
        // the base colour between neighbours.
        let mut bg = egui::Mesh::default();
        for y in g.visible.1..g.visible.3.min(level.hidden_rows) {
            for x in g.visible.0..g.visible.2 {
                bg.add_colored_rect(g.cell_rect(Pos::new(x, y)), look::HIDDEN_ROW);
            }
        }
        painter.add(egui::Shape::mesh(bg));
        if g.zoom < look::FINE_MIN_PX {
            return;
        }
        match &d.play {
            Some(p) => p.paint(painter, level, g),
            None => {
                let field = &d.design().map;
                let block = |pos| {
                    field
                        .get(pos)
                        .and_then(|&b| (b as usize).checked_sub(1))
                        .and_then(|i| level.blocks.get(i))
                };
                let mut well = egui::Mesh::default();
                for pos in g.cells().filter(|p| block(*p).is_some()) {
                    well.add_colored_rect(g.cell_rect(pos), look::WELL);
                }
                painter.add(egui::Shape::mesh(well));
                for pos in g.cells() {
                    if let Some(k) = block(pos) {
                        look::paint_block(painter, g.cell_rect(pos), k, 1.0);
                    }
                }
                super::repair::paint_unknown(painter, g, d);
                if let Some(s) = &d.map.stroke {
                    for (pos, b) in s.preview.iter().filter(|(p, _)| g.shows(*p)) {
                        let r = g.cell_rect(*pos);
                        painter.rect_filled(r, 0.0, look::WELL);
                        if let Some(k) = (*b as usize)
                            .checked_sub(1)
                            .and_then(|i| level.blocks.get(i))
                        {
                            look::paint_block(painter, r, k, 1.0);
                        }
                        painter.rect_filled(r, 0.0, Color32::from_white_alpha(40));
                    }
                }
            }
        }
    }

    fn paint_overlays(&mut self, painter: &Painter, st: &EditorState, g: &MapGeom) {
        if let Some(d) = doc(st)
            && let Some(p) = &d.play
        {
            p.paint_overlays(painter, g);
        }
    }

    fn end_banner(&self, st: &EditorState) -> Option<crate::doc::ui::Banner> {
        st.doc_as::<FallingDoc>()
            .and_then(|d| d.play.as_ref())
            .and_then(|p| p.end_banner())
    }

    fn grid_color(&self) -> Color32 {
        Color32::from_white_alpha(14)
    }
}
