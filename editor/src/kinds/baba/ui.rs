//! The panels of a baba document: the palette (objects, and text grouped as nouns, operators
//! and properties), the stack inspector, the level properties, the live rule list with
//! sentence placement (the play pane is `play_ui.rs`).

use eframe::egui::{self, Color32, Painter, RichText, Sense, Stroke, StrokeKind, Ui, vec2};
use tilesmith_engine::kind::baba::{Kind, Tile, WordClass, palette};
use tilesmith_engine::{Dir, Pos, Status};

use super::look as look_baba;
use super::play_ui::{play_ui, rule_rows};
use super::{BabaAction, BabaDoc, Stack, StackMode};
use crate::doc::map::MapOps as _;
use crate::doc::ui::{Banner, KindUi, LOST_FILL, MapGeom, WON_FILL, arrow_char};
use crate::state::{Action, EditorState};

/// Widget buffers of the baba panels.
#[derive(Clone, Debug, Default)]
pub struct BabaPanelState {
    /// The palette filter (part of a token name).
    pub filter: String,
    /// The sentence typed into the rule list.
    pub sentence: String,
    /// Place the sentence downwards.
    pub vertical: bool,
}

fn baba(out: &mut Vec<Action>, a: BabaAction) {
    out.push(Action::from(a));
}

/// A tile swatch of `size` points; click and right click are handled by the caller.
fn tile_swatch(ui: &mut Ui, kind: Option<Kind>, dir: Dir, size: f32) -> egui::Response {
    let (rect, resp) = ui.allocate_exact_size(vec2(size, size), Sense::click());
    ui.painter().rect_filled(rect, 2.0, look_baba::EMPTY);
    match kind {
        Some(k) => look_baba::paint_tile(
            ui.painter(),
            rect,
            &Tile { kind: k, dir },
            look_baba::TileLook::default(),
        ),
        None => {
            // The eraser: a crossed-out empty cell.
            let s = egui::Stroke::new(1.5, Color32::from_rgb(230, 80, 80));
            ui.painter()
                .line_segment([rect.left_top(), rect.right_bottom()], s);
            ui.painter()
                .line_segment([rect.right_top(), rect.left_bottom()], s);
        }
    }
    resp
}

fn kind_name(k: Option<Kind>) -> String {
    k.map_or_else(|| "eraser (empty)".to_string(), Kind::token)
}

/// One palette entry: swatch and name; left click sets the left brush, right click the right.
/// The words of a palette entry: a text tile's word, an object's noun, or `eraser`.
fn entry_name(k: Option<Kind>) -> String {
    match k {
        Some(Kind::Text(w)) => look_baba::word_label(w),
        Some(k) => k.token(),
        None => "eraser".into(),
    }
}

fn entry(ui: &mut Ui, d: &BabaDoc, k: Option<Kind>, out: &mut Vec<Action>) {
    ui.horizontal(|ui| {
        let r = tile_swatch(ui, k, d.facing, 20.0);
        let name = entry_name(k);
        let mut text = RichText::new(name);
        if k == d.primary {
            text = text.strong().color(Color32::from_rgb(255, 214, 0));
        } else if k == d.secondary {
            text = text.color(Color32::from_rgb(120, 200, 255));
        }
        let l = ui
            .add(egui::Label::new(text).sense(Sense::click()))
            .on_hover_text(format!(
                "{}: left click paints it with the left button, right click with the right",
                kind_name(k)
            ));
        let r = r.union(l);
        if r.clicked() {
            baba(out, BabaAction::SetPrimary(k));
        }
        if r.secondary_clicked() {
            baba(out, BabaAction::SetSecondary(k));
        }
    });
}

/// The palette of a baba document: brushes, facing, stack mode, a filter, then objects and
/// the text tiles grouped as nouns, operators and properties.
pub fn palette_ui(ui: &mut Ui, d: &BabaDoc, ps: &mut BabaPanelState, out: &mut Vec<Action>) {
    ui.heading("Tiles");
    for (label, k) in [("left", d.primary), ("right", d.secondary)] {
        ui.horizontal(|ui| {
            tile_swatch(ui, k, d.facing, 22.0);
            ui.label(format!("{label}: {}", kind_name(k)));
        });
    }
    ui.horizontal(|ui| {
        ui.label("facing")
            .on_hover_text("The direction newly painted objects face");
        for dir in [Dir::Left, Dir::Up, Dir::Down, Dir::Right] {
            if ui
                .selectable_label(d.facing == dir, arrow_char(dir))
                .on_hover_text(format!("paint objects facing {}", dir.name()))
                .clicked()
            {
                baba(out, BabaAction::SetFacing(dir));
            }
        }
    });
    ui.horizontal_wrapped(|ui| {
        ui.label("stack");
        for (m, label, tip) in [
            (
                StackMode::AddOnTop,
                "add on top",
                "Painting puts the tile on top of the cell's stack",
            ),
            (
                StackMode::Replace,
                "replace",
                "Painting replaces the cell's whole stack by the tile",
            ),
        ] {
            if ui
                .selectable_label(d.stack_mode == m, label)
                .on_hover_text(tip)
                .clicked()
            {
                baba(out, BabaAction::SetStackMode(m));
            }
        }
    });
    ui.horizontal(|ui| {
        ui.label("find");
        ui.add(egui::TextEdit::singleline(&mut ps.filter).desired_width(120.0))
            .accessible_name("palette filter");
    });
    ui.separator();
    let filter = ps.filter.trim().to_lowercase();
    let shown = |token: &str| filter.is_empty() || token.contains(&filter);
    entry(ui, d, None, out);
    let entries = palette();
    let groups: [(&str, Option<WordClass>); 5] = [
        ("Objects", None),
        ("Text: nouns", Some(WordClass::Noun)),
        ("Text: operators", Some(WordClass::Operator)),
        ("Text: properties", Some(WordClass::Property)),
        ("Text: letters", Some(WordClass::Letter)),
    ];
    for (title, class) in groups {
        let items: Vec<Kind> = entries
            .iter()
            .filter(|e| e.class == class && shown(&e.token))
            .filter_map(|e| Kind::from_token(&e.token))
            .collect();
        egui::CollapsingHeader::new(format!("{title} ({})", items.len()))
            .id_salt(title)
            .default_open(true)
            .open((!filter.is_empty()).then_some(true))
            .show(ui, |ui| {
                let names: Vec<String> = items.iter().map(|k| entry_name(Some(*k))).collect();
                let cols = crate::ui::widgets::palette_columns(
                    ui,
                    names.iter().map(String::as_str),
                    20.0,
                    2,
                );
                egui::Grid::new(title)
                    .num_columns(cols)
                    .spacing(vec2(6.0, 3.0))
                    .show(ui, |ui| {
                        for (i, k) in items.iter().enumerate() {
                            entry(ui, d, Some(*k), out);
                            if i % cols == cols - 1 {
                                ui.end_row();
                            }
                        }
                    });
            });
    }
}

/// The stack inspector: the objects of the inspected cell, top first, each with its
/// direction, buttons to move it up or down the stack and to remove it.
pub fn inspector_ui(ui: &mut Ui, st: &EditorState, d: &BabaDoc, out: &mut Vec<Action>) {
    ui.heading("Cell");
    let Some(pos) = st.inspect else {
        ui.label("Click a cell with Select (S) or the eyedropper (I) to inspect its stack.");
        return;
    };
    let Some(stack) = d.shown_map().get(pos) else {
        return;
    };
    ui.label(format!(
        "x {}, y {}: {} object(s), top first",
        pos.x,
        pos.y,
        stack.len()
    ));
    if stack.is_empty() {
        ui.label(RichText::new("(empty)").weak());
    }
    let editable = d.play.is_none();
    let set = |out: &mut Vec<Action>, stack: Stack, what: &'static str| {
        baba(out, BabaAction::SetStack { pos, stack, what });
    };
    ui.add_enabled_ui(editable, |ui| {
        egui::Grid::new("baba-stack")
            .num_columns(4)
            .striped(true)
            .show(ui, |ui| {
                for i in (0..stack.len()).rev() {
                    let t = stack[i];
                    ui.horizontal(|ui| {
                        tile_swatch(ui, Some(t.kind), t.dir, 20.0);
                        let unused = t.kind.is_text() && d.is_unused(pos, i);
                        let mut name = RichText::new(d.tile_name(&t));
                        if unused {
                            name = name.weak();
                        }
                        ui.label(name).on_hover_text(if unused {
                            "this text forms no rule"
                        } else {
                            "stack index counts from the bottom"
                        });
                    });
                    ui.horizontal(|ui| {
                        for dir in [Dir::Left, Dir::Up, Dir::Down, Dir::Right] {
                            if ui
                                .selectable_label(t.dir == dir, arrow_char(dir))
                                .on_hover_text(format!("face {}", dir.name()))
                                .clicked()
                            {
                                let mut s = stack.clone();
                                s[i].dir = dir;
                                set(out, s, "Object direction");
                            }
                        }
                    });
                    ui.horizontal(|ui| {
                        if ui
                            .add_enabled(i + 1 < stack.len(), egui::Button::new("up"))
                            .on_hover_text("Move up the stack (drawn above the next one)")
                            .clicked()
                        {
                            let mut s = stack.clone();
                            s.swap(i, i + 1);
                            set(out, s, "Reorder stack");
                        }
                        if ui
                            .add_enabled(i > 0, egui::Button::new("down"))
                            .on_hover_text("Move down the stack")
                            .clicked()
                        {
                            let mut s = stack.clone();
                            s.swap(i, i - 1);
                            set(out, s, "Reorder stack");
                        }
                    });
                    if ui
                        .button("remove")
                        .on_hover_text("Remove this object from the cell")
                        .clicked()
                    {
                        let mut s = stack.clone();
                        s.remove(i);
                        set(out, s, "Remove object");
                    }
                    ui.end_row();
                }
            });
    });
}

/// The level properties of a baba level: the name (the size is changed with the shared resize
/// controls).
pub fn name_ui(ui: &mut Ui, d: &BabaDoc, out: &mut Vec<Action>) {
    ui.heading("Level");
    let mut name = d.level().name.clone();
    ui.horizontal(|ui| {
        ui.label("name");
        if ui
            .text_edit_singleline(&mut name)
            .accessible_name("level name")
            .changed()
        {
            baba(out, BabaAction::SetName(name.clone()));
        }
    });
}

/// The live rule list: the rules the text forms (the design's, or the play state's), with the
/// hovered rule's tiles highlighted on the map; then a field to type a sentence and place it
/// at the inspected cell.
pub fn rules_ui(
    ui: &mut Ui,
    st: &EditorState,
    d: &BabaDoc,
    ps: &mut BabaPanelState,
    out: &mut Vec<Action>,
) {
    let rules = d.rules();
    ui.heading(format!("Rules ({})", rules.len()));
    ui.label(
        RichText::new(if d.play.is_some() {
            "formed by the text in the current turn; implicit TEXT IS PUSH not listed"
        } else {
            "formed by the text on the map, updated as you paint; text that forms no rule is dimmed"
        })
        .weak(),
    );
    if rules.is_empty() {
        ui.label(RichText::new("No text forms a rule.").italics());
    }
    rule_rows(ui, d, out);
    let unused = d.unused_count();
    if unused > 0 {
        ui.label(RichText::new(format!("{unused} text tile(s) form no rule (dimmed)")).weak());
    }
    ui.separator();
    ui.heading("Place a sentence");
    let at = st
        .inspect
        .or(st.selection.map(|r| tilesmith_engine::Pos::new(r.x0, r.y0)));
    ui.add_enabled_ui(d.play.is_none(), |ui| {
        let resp = ui.add(
            egui::TextEdit::singleline(&mut ps.sentence)
                .hint_text("keke is push")
                .desired_width(220.0),
        );
        let resp = resp.accessible_name("sentence");
        ui.horizontal(|ui| {
            if ui
                .selectable_label(!ps.vertical, "horizontal")
                .on_hover_text("Place the words left to right")
                .clicked()
            {
                ps.vertical = false;
            }
            if ui
                .selectable_label(ps.vertical, "vertical")
                .on_hover_text("Place the words top to bottom")
                .clicked()
            {
                ps.vertical = true;
            }
        });
        let label = match at {
            Some(p) => format!("Place at x {}, y {}", p.x, p.y),
            None => "Place (select a cell first)".into(),
        };
        let enter = resp.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        let clicked = ui
            .add_enabled(
                at.is_some() && !ps.sentence.trim().is_empty(),
                egui::Button::new(label),
            )
            .on_hover_text(
                "Puts one text tile per word from the selected cell on (each on top of or instead of the cell's stack, as the stack option says); one undo step",
            )
            .clicked();
        if let Some(at) = at
            && (clicked || enter)
            && !ps.sentence.trim().is_empty()
        {
            baba(
                out,
                BabaAction::PlaceSentence {
                    text: ps.sentence.clone(),
                    at,
                    vertical: ps.vertical,
                },
            );
        }
    });
}

/// The baba kind's UI: the palette filter and the typed sentence.
#[derive(Debug, Default)]
pub struct BabaUi {
    /// Buffers of the baba panels.
    pub panels: BabaPanelState,
}

fn doc(st: &EditorState) -> Option<&BabaDoc> {
    st.doc_as::<BabaDoc>()
}

impl KindUi for BabaUi {
    fn kind(&self) -> &'static str {
        "baba"
    }

    fn palette_ui(&mut self, ui: &mut Ui, st: &EditorState, out: &mut Vec<Action>) {
        if let Some(d) = doc(st) {
            palette_ui(ui, d, &mut self.panels, out);
        }
    }

    fn design_ui(&mut self, ui: &mut Ui, st: &EditorState, out: &mut Vec<Action>) {
        let Some(d) = doc(st) else { return };
        inspector_ui(ui, st, d, out);
        ui.separator();
        name_ui(ui, d, out);
    }

    fn play_ui(&mut self, ui: &mut Ui, st: &EditorState, out: &mut Vec<Action>) {
        let Some(d) = doc(st) else { return };
        play_ui(ui, d, out);
        ui.separator();
        inspector_ui(ui, st, d, out);
    }

    fn rules_ui(&mut self, ui: &mut Ui, st: &EditorState, out: &mut Vec<Action>) {
        if let Some(d) = doc(st) {
            rules_ui(ui, st, d, &mut self.panels, out);
        }
    }

    fn rules_help(&self) -> &'static str {
        "The rules the text on the map forms, live; type a sentence to place it as text tiles"
    }

    fn content_key(&self, st: &EditorState) -> (u8, u64) {
        let Some(d) = doc(st) else { return (0, 0) };
        match &d.play {
            Some(p) => (4, p.version()),
            None => (3, d.map.generation()),
        }
    }

    fn base_colors(&self, st: &EditorState) -> Vec<Color32> {
        doc(st).map_or_else(Vec::new, BabaDoc::base_colors)
    }

    fn describe_cell(&self, st: &EditorState, pos: Pos) -> Option<String> {
        let d = doc(st)?;
        let s = d.shown_map().get(pos)?;
        let names: Vec<String> = s.iter().rev().map(|t| d.tile_description(t)).collect();
        Some(if names.is_empty() {
            "empty".to_string()
        } else {
            names.join(" on ")
        })
    }

    fn paint_cells(&mut self, painter: &Painter, st: &EditorState, g: &MapGeom) {
        let Some(d) = doc(st) else { return };
        let z = g.zoom;
        let map = d.shown_map();
        if z >= look_baba::FINE_MIN_PX {
            let shown: Vec<_> = g
                .cells()
                .filter_map(|p| map.get(p).filter(|s| !s.is_empty()).map(|s| (p, s)))
                .collect();
            // Over the texture's colour: objects are drawn inset on the background. One
            // un-feathered mesh, so that no anti-aliased edge lets the texture show between
            // neighbouring cells.
            let mut bg = egui::Mesh::default();
            for (p, _) in &shown {
                bg.add_colored_rect(g.cell_rect(*p), d.background());
            }
            painter.add(egui::Shape::mesh(bg));
            for (p, s) in shown {
                look_baba::paint_stack(painter, g.cell_rect(p), s, &|i| d.tile_look(p, i));
            }
        } else if z >= look_baba::MESH_MIN_PX {
            // Many cells: one mesh for all shapes, then the labels.
            let mut mesh = egui::Mesh::default();
            let mut texts = Vec::new();
            for p in g.cells() {
                if let Some(s) = map.get(p).filter(|s| !s.is_empty()) {
                    look_baba::mesh_stack(&mut mesh, &mut texts, g.cell_rect(p), s, &|i| {
                        d.tile_look(p, i)
                    });
                }
            }
            painter.add(egui::Shape::mesh(mesh));
            for (at, text, font, colour) in texts {
                painter.text(at, egui::Align2::CENTER_CENTER, text, font, colour);
            }
        }
        super::repair::paint_unknown_labels(painter, g, d);
        if let Some(s) = &d.map.stroke {
            for (p, stack) in s.preview.iter().filter(|(p, _)| g.shows(*p)) {
                let r = g.cell_rect(*p);
                painter.rect_filled(r, 0.0, d.background());
                look_baba::paint_stack(painter, r, stack, &|i| d.tile_look(*p, i));
                painter.rect_filled(r, 0.0, Color32::from_white_alpha(40));
            }
        }
    }

    fn paint_overlays(&mut self, painter: &Painter, st: &EditorState, g: &MapGeom) {
        let Some(d) = doc(st) else { return };
        let z = g.zoom;
        if let Some(p) = &d.play {
            let hl = Stroke::new((z * 0.1).clamp(1.0, 3.0), Color32::from_rgb(255, 255, 0));
            for c in p.changed().iter().filter(|c| g.shows(**c)) {
                painter.rect_stroke(g.cell_rect(*c).shrink(1.0), 0.0, hl, StrokeKind::Inside);
            }
        }
        for c in d.hovered_tiles() {
            painter.rect_filled(
                g.cell_rect(c),
                0.0,
                Color32::from_rgba_unmultiplied(255, 0, 255, 70),
            );
            painter.rect_stroke(
                g.cell_rect(c),
                0.0,
                Stroke::new(2.0, Color32::from_rgb(255, 80, 255)),
                StrokeKind::Outside,
            );
        }
    }

    fn end_banner(&self, st: &EditorState) -> Option<Banner> {
        let p = doc(st)?.play.as_ref()?;
        match p.status() {
            Status::Won { .. } => Some(Banner {
                text: format!("Level won in {} turns!", p.turn()),
                fill: WON_FILL,
            }),
            Status::Lost { reason } => Some(Banner {
                text: format!("Nothing can move: {reason} (Z undoes)"),
                fill: LOST_FILL,
            }),
            // Baba levels never end in a draw.
            Status::Running | Status::Draw { .. } => None,
        }
    }

    fn grid_color(&self) -> Color32 {
        Color32::from_white_alpha(22)
    }
}
