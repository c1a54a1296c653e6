//! The boulder kind's panels and canvas look: the token palette and replace-all, the cell
//! inspector, the level properties, the rule editor page, the play pane, and the cells drawn
//! as the course's tokens (base colour, glyph, letter).

use eframe::egui::{self, Color32, Painter, Rect, RichText, Sense, Stroke, StrokeKind, Ui, vec2};
use tilesmith_engine::kind::boulder::analysis::Preview;
use tilesmith_engine::kind::boulder::{Cell, Token, ValueKey};
use tilesmith_engine::{Dir, Pos};

use super::edit::Props;
use super::{BoulderAction, BoulderDoc, look, play_ui};
use crate::doc::map::MapOps as _;
use crate::doc::ui::{KindUi, MapGeom};
use crate::state::{Action, EditorState, SideTab};

/// The boulder kind's UI: no buffers of its own (the rule panel's state is in the document).
#[derive(Debug, Default)]
pub struct BoulderUi;

fn doc(st: &EditorState) -> Option<&BoulderDoc> {
    st.doc_as::<BoulderDoc>()
}

impl KindUi for BoulderUi {
    fn kind(&self) -> &'static str {
        "boulder"
    }

    fn palette_ui(&mut self, ui: &mut Ui, st: &EditorState, out: &mut Vec<Action>) {
        if let Some(d) = doc(st) {
            palette_ui(ui, d, out);
        }
    }

    fn replace_ui(&mut self, ui: &mut Ui, st: &EditorState, out: &mut Vec<Action>) {
        if let Some(d) = doc(st) {
            replace_ui(ui, d, !st.playing(), out);
        }
    }

    fn design_ui(&mut self, ui: &mut Ui, st: &EditorState, out: &mut Vec<Action>) {
        let Some(d) = doc(st) else { return };
        inspector_ui(ui, st, d, out);
        ui.separator();
        properties_ui(ui, d, out);
    }

    fn play_ui(&mut self, ui: &mut Ui, st: &EditorState, out: &mut Vec<Action>) {
        let Some(d) = doc(st) else { return };
        play_ui::play_ui(ui, st, out);
        ui.separator();
        inspector_ui(ui, st, d, out);
    }

    fn rules_ui(&mut self, ui: &mut Ui, st: &EditorState, out: &mut Vec<Action>) {
        let Some(d) = doc(st) else { return };
        let mut events = Vec::new();
        super::rules::ui::rules_ui(
            ui,
            d.level(),
            &d.rules,
            super::rules::ui::RulesView {
                // While playing, the map shows the game, not the preview.
                preview: d.rule_preview().filter(|_| d.play.is_none()),
                never: d.never_matching(),
                playing: d.play.is_some(),
            },
            &mut events,
        );
        out.extend(
            events
                .into_iter()
                .map(|e| Action::from(BoulderAction::Rule(e))),
        );
    }

    fn rules_help(&self) -> &'static str {
        "The rule editor: pre and post rules, with a live preview of the selected rule on the map"
    }

    fn content_key(&self, st: &EditorState) -> (u8, u64) {
        let Some(d) = doc(st) else { return (0, 0) };
        let rules_tab = st.side_tab == SideTab::Rules;
        match &d.play {
            Some(p) => (1, p.version()),
            None if d.apply_once_map(rules_tab).is_some() => (2, d.rule_preview_serial()),
            None => (0, d.map.generation()),
        }
    }

    fn base_colors(&self, st: &EditorState) -> Vec<Color32> {
        let Some(d) = doc(st) else { return Vec::new() };
        match &d.play {
            Some(p) => p
                .game()
                .board()
                .tokens()
                .iter()
                .map(|t| look::color(*t))
                .collect(),
            None => d
                .apply_once_map(st.side_tab == SideTab::Rules)
                .unwrap_or(&d.level().map)
                .cells()
                .iter()
                .map(|c| look::color(c.token))
                .collect(),
        }
    }

    fn describe_cell(&self, st: &EditorState, pos: Pos) -> Option<String> {
        let d = doc(st)?;
        let c = d.shown_cell(pos, st.side_tab == SideTab::Rules)?;
        if c.token == Token::Unknown {
            return Some(d.describe_unknown(&c));
        }
        let values: Vec<String> = ValueKey::ALL
            .iter()
            .filter(|k| c.get(**k) != 0)
            .map(|k| format!("{} {}", k.name(), c.get(*k)))
            .collect();
        Some(if values.is_empty() {
            c.token.name().to_string()
        } else {
            format!("{} ({})", c.token.name(), values.join(", "))
        })
    }

    fn cell_note(&self, st: &EditorState, pos: Pos) -> Option<String> {
        // While playing: the phases of the last tick that changed this cell.
        let play = doc(st)?.play.as_ref()?;
        let phases: Vec<String> = play
            .cell_history(pos)
            .iter()
            .map(|(ph, _, _)| super::play::phase_label(play.game().level(), *ph))
            .collect();
        (!phases.is_empty()).then(|| format!("changed by: {}", phases.join(", ")))
    }

    fn paint_cells(&mut self, painter: &Painter, st: &EditorState, g: &MapGeom) {
        let Some(d) = doc(st) else { return };
        let rules_tab = st.side_tab == SideTab::Rules;
        let z = g.zoom;
        if !g.textured {
            for p in g.cells() {
                if let Some(c) = d.shown_cell(p, rules_tab) {
                    painter.rect_filled(g.cell_rect(p), 0.0, look::color(c.token));
                }
            }
        }
        // Glyphs for the visible cells.
        if z >= look::GLYPH_MIN_PX {
            let mut mesh = egui::Mesh::default();
            let mut letters = Vec::new();
            let mut unknown = Vec::new();
            for p in g.cells() {
                if let Some(c) = d.shown_cell(p, rules_tab) {
                    let r = g.cell_rect(p);
                    look::glyph(&mut mesh, r, &c);
                    if z >= 24.0
                        && let Some(l) = look::letter(c.token)
                    {
                        letters.push((r.left_top() + vec2(z * 0.06, 0.0), l, c.token));
                    }
                    if c.token == Token::Unknown {
                        unknown.push((r.center(), d.unknown_label(&c)));
                    }
                }
            }
            painter.add(egui::Shape::mesh(mesh));
            for (at, l, t) in letters {
                painter.text(
                    at,
                    egui::Align2::LEFT_TOP,
                    l,
                    egui::FontId::monospace(z * 0.3),
                    look::ink(look::color(t)),
                );
            }
            // Unknown fields (repair mode) show the start of what the file holds there.
            for (at, text) in unknown {
                let font = egui::FontId::monospace((z * 0.32).max(7.0));
                let galley = painter.layout_no_wrap(text, font, Color32::WHITE);
                let r = egui::Rect::from_center_size(at, galley.size() + vec2(2.0, 0.0));
                painter.rect_filled(r, 1.0, Color32::BLACK);
                painter.galley(r.left_top() + vec2(1.0, 0.0), galley, Color32::WHITE);
            }
        }
        // Tool preview.
        if let Some(s) = &d.map.stroke {
            for (p, c) in &s.preview {
                if g.shows(*p) {
                    paint_preview(painter, g.cell_rect(*p), c);
                }
            }
        }
    }

    fn paint_overlays(&mut self, painter: &Painter, st: &EditorState, g: &MapGeom) {
        let Some(d) = doc(st) else { return };
        let z = g.zoom;
        // Play highlights: what the last tick changed, or the last phase of the debugged tick.
        if let Some(p) = &d.play {
            let colour = if p.debug.is_some() {
                Color32::from_rgb(255, 140, 0)
            } else {
                Color32::from_rgb(255, 255, 0)
            };
            let hl = Stroke::new((z * 0.12).clamp(1.0, 3.0), colour);
            for c in p.highlight() {
                if g.shows(c) {
                    painter.rect_stroke(g.cell_rect(c).shrink(1.0), 0.0, hl, StrokeKind::Inside);
                }
            }
            if let Some(r) = p.report()
                && let Some(f) = p.hovered_rule.and_then(|i| r.fired.get(i))
            {
                for c in &f.at {
                    painter.rect_filled(
                        g.cell_rect(*c),
                        0.0,
                        Color32::from_rgba_unmultiplied(255, 0, 255, 110),
                    );
                    painter.rect_stroke(
                        g.cell_rect(*c),
                        0.0,
                        Stroke::new(2.0, Color32::from_rgb(255, 0, 255)),
                        StrokeKind::Outside,
                    );
                }
            }
        }
        // The selected rule's preview: its windows in engine order, numbered; with "apply
        // once", the fields it changes.
        if d.preview_shown(st.side_tab == SideTab::Rules)
            && let Some(pv) = d.rule_preview()
        {
            paint_preview_windows(painter, d, pv, g);
        }
    }
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
    // An outline, so a token as dark as the panel (path) still shows its square.
    ui.painter().rect_stroke(
        rect,
        0.0,
        Stroke::new(1.0, Color32::from_gray(110)),
        StrokeKind::Inside,
    );
    resp
}

/// The palette: every token; left click sets the primary token, right click the secondary.
/// Also replace-all.
fn palette_ui(ui: &mut Ui, st: &BoulderDoc, out: &mut Vec<Action>) {
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
    let cols =
        crate::ui::widgets::palette_columns(ui, Token::ALL.iter().map(|t| t.name()), 16.0, 2);
    egui::Grid::new("palette-grid")
        .num_columns(cols)
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
                        out.push(Action::from(BoulderAction::SetPrimary(*t)));
                    }
                    if r.secondary_clicked() {
                        out.push(Action::from(BoulderAction::SetSecondary(*t)));
                    }
                });
                if i % cols == cols - 1 {
                    ui.end_row();
                }
            }
        });
    ui.separator();
    if ui
        .button("Replace tokens…")
        .on_hover_text("Replace every cell of one token by another (Ctrl+H)")
        .clicked()
    {
        out.push(Action::ShowReplace(true));
    }
}

/// The Replace dialog's body: the pair of tokens and the Replace all button (enabled while
/// the design can be edited).
fn replace_ui(ui: &mut Ui, st: &BoulderDoc, enabled: bool, out: &mut Vec<Action>) {
    let (mut from, mut to) = st.replace;
    ui.horizontal(|ui| {
        let changed = token_combo(ui, "replace-from", "replace token", &mut from);
        ui.label("becomes");
        if changed | token_combo(ui, "replace-to", "replace with token", &mut to) {
            out.push(Action::from(BoulderAction::SetReplace { from, to }));
        }
    });
    if ui
        .add_enabled(enabled, egui::Button::new("Replace all"))
        .on_hover_text(
            "Every cell with the first token gets the second, values kept; one undo step",
        )
        .clicked()
    {
        out.push(Action::from(BoulderAction::ReplaceAll { from, to }));
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
fn inspector_ui(ui: &mut Ui, sh: &EditorState, st: &BoulderDoc, out: &mut Vec<Action>) {
    ui.heading("Cell");
    let Some(pos) = sh.inspect else {
        ui.label("Click a cell with Select (S) or the eyedropper (I) to inspect it.");
        return;
    };
    let Some(cell) = st.shown_cell(pos, sh.side_tab == SideTab::Rules) else {
        return;
    };
    ui.label(format!("x {}, y {}", pos.x, pos.y));
    let editable = st.play.is_none();
    ui.add_enabled_ui(editable, |ui| {
        let mut c = cell;
        if token_combo(ui, "inspect-token", "cell token", &mut c.token) {
            out.push(Action::from(BoulderAction::SetCell { pos, cell: c }));
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
                    out.push(Action::from(BoulderAction::SetCell {
                        pos,
                        cell: c.with(ValueKey::Direction, d.value()),
                    }));
                }
            }
            if ui.selectable_label(cur == 0, "none").clicked() {
                out.push(Action::from(BoulderAction::SetCell {
                    pos,
                    cell: c.with(ValueKey::Direction, 0),
                }));
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
                        out.push(Action::from(BoulderAction::SetCell {
                            pos,
                            cell: c.with(k, v),
                        }));
                    }
                    if i % 2 == 1 {
                        ui.end_row();
                    }
                }
            });
    });
}

/// The level properties: name, size with resize anchor, gems and ticks thresholds, maxslime.
fn properties_ui(ui: &mut Ui, st: &BoulderDoc, out: &mut Vec<Action>) {
    ui.heading("Level");
    let props = Props::of(st.level());
    let mut p = props.clone();
    ui.horizontal(|ui| {
        ui.label("name");
        if ui
            .text_edit_singleline(&mut p.name)
            .accessible_name("level name")
            .changed()
        {
            out.push(Action::from(BoulderAction::SetProps {
                props: p.clone(),
                field: "name",
            }));
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
                    out.push(Action::from(BoulderAction::SetProps {
                        props: p.clone(),
                        field,
                    }));
                }
            }
        });
    }
    ui.horizontal(|ui| {
        let mut on = p.maxslime.is_some();
        if ui.checkbox(&mut on, "maxslime").changed() {
            p.maxslime = on.then_some(100);
            out.push(Action::from(BoulderAction::SetProps {
                props: p.clone(),
                field: "maxslime",
            }));
        }
        if let Some(mut m) = p.maxslime
            && ui
                .add(egui::DragValue::new(&mut m))
                .accessible_name("maxslime value")
                .changed()
        {
            p.maxslime = Some(m);
            out.push(Action::from(BoulderAction::SetProps {
                props: p.clone(),
                field: "maxslime",
            }));
        }
    });
}

/// Outlines the windows of a rule preview (cyan, numbered 1..n in the order the engine applies
/// them) and, with "apply once", the changed fields (orange).
fn paint_preview_windows(painter: &egui::Painter, st: &BoulderDoc, pv: &Preview, g: &MapGeom) {
    let z = g.zoom;
    let cell_rect = |p: Pos| g.cell_rect(p);
    let visible = |p: &Pos| g.shows(*p);
    let cyan = Color32::from_rgb(70, 220, 255);
    let stroke = Stroke::new((z * 0.1).clamp(1.0, 2.5), cyan);
    let font = egui::FontId::monospace((z * 0.42).clamp(8.0, 14.0));
    for (i, w) in pv.windows.iter().enumerate() {
        if !w.iter().any(visible) {
            continue;
        }
        let r = w
            .iter()
            .fold(Rect::NOTHING, |acc, p| acc.union(cell_rect(*p)))
            .shrink((z * 0.08).min(2.0));
        painter.rect_stroke(r, 2.0, stroke, StrokeKind::Inside);
        if z >= 8.0 {
            // The number sits on position 0 of the window.
            let at = cell_rect(w[0]).left_top() + vec2(2.0, 1.0);
            let galley = painter.layout_no_wrap(format!("{}", i + 1), font.clone(), Color32::BLACK);
            let bg = Rect::from_min_size(at, galley.size() + vec2(4.0, 0.0));
            painter.rect_filled(bg, 2.0, cyan);
            painter.galley(at + vec2(2.0, 0.0), galley, Color32::BLACK);
        }
    }
    // Drawn last, so the changes show over the window outlines.
    if st.rules.apply_once {
        let s = Stroke::new((z * 0.14).clamp(1.5, 3.0), Color32::from_rgb(255, 150, 40));
        for c in pv.changed.iter().filter(|p| visible(p)) {
            painter.rect_filled(
                cell_rect(*c),
                0.0,
                Color32::from_rgba_unmultiplied(255, 150, 40, 50),
            );
            painter.rect_stroke(
                cell_rect(*c).shrink((z * 0.14).clamp(1.0, 4.0)),
                0.0,
                s,
                StrokeKind::Inside,
            );
        }
    }
}

fn paint_preview(p: &egui::Painter, r: Rect, c: &Cell) {
    look::paint_cell(p, r, c);
    p.rect_filled(r, 0.0, Color32::from_white_alpha(40));
}
