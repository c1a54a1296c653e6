//! The rule editor panel: the `pre` and `post` lists (select, add, duplicate, delete, reorder
//! by drag or arrows, switch off for the play session, breakpoints), the selected rule drawn as
//! strips of blocks in its direction, block editing, the JSON views, snippets, and the live
//! match count. Reads the level and [`RulePanel`]; pushes [`RuleEvent`]s.

use std::collections::BTreeSet;

use eframe::egui::{self, Color32, RichText, Sense, Ui, vec2};
use tilesmith_engine::kind::boulder::analysis::{NeverMatches, Preview};
use tilesmith_engine::kind::boulder::{
    BoulderLevel, Global, Pattern, Rule, Situation, Token, TokenPattern, TokenWrite, ValueKey,
    ValueName, Write,
};
use tilesmith_engine::{Dir, Problem};

use super::{
    RuleList, RuleOp, RuleRef, parse_all_rules_text, parse_rule_text, rule_text, snippets,
};
use crate::look;

/// Which side of a rule a block is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The `original` (pattern) list.
    Original,
    /// The `result` (write) list.
    Result,
}

/// How the selected rule is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RuleView {
    /// Blocks and controls.
    #[default]
    Visual,
    /// The selected rule as JSON.
    Json,
    /// Both lists as JSON.
    AllJson,
}

/// The rule panel's own state: selection, view, text buffers, session switches. None of it
/// is part of the document.
#[derive(Clone, Debug, Default)]
pub struct RulePanel {
    /// The selected rule.
    pub selected: Option<RuleRef>,
    /// The selected block of the selected rule.
    pub block: Option<(Side, usize)>,
    /// Visual or JSON.
    pub view: RuleView,
    /// The JSON text being edited.
    pub json: String,
    /// Problems of the JSON text when it was last applied.
    pub json_problems: Vec<Problem>,
    /// The rule (or lists) the JSON text was made from, to refresh it when they change.
    pub json_source: Option<String>,
    /// The name field's text.
    pub name: String,
    /// Rules switched off for the play session only.
    pub disabled: BTreeSet<RuleRef>,
    /// Rules with a breakpoint: a running play session stops at a tick where one fires.
    pub breakpoints: BTreeSet<RuleRef>,
    /// Show the map after applying the selected rule once (on a scratch copy).
    pub apply_once: bool,
}

/// What the rule panel asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum RuleEvent {
    /// Change the rule lists (one undoable edit).
    Op(RuleOp),
    /// Select a rule (or none).
    Select(Option<RuleRef>),
    /// Select a block of the selected rule.
    SelectBlock(Option<(Side, usize)>),
    /// Switch a rule on or off for the play session.
    ToggleDisabled(RuleRef),
    /// Set or clear a breakpoint.
    ToggleBreakpoint(RuleRef),
    /// Show the selected rule applied once.
    SetApplyOnce(bool),
    /// Switch the view.
    SetView(RuleView),
    /// The JSON text changed (typing).
    JsonEdited(String),
    /// The name text changed (typing).
    NameEdited(String),
    /// Problems found when applying the JSON text.
    JsonProblems(Vec<Problem>),
}

/// One-line summary of a rule: its name, or `situation direction: tokens → tokens`.
pub fn summary(rule: &Rule) -> String {
    if let Some(n) = &rule.name {
        return n.clone();
    }
    let orig: Vec<String> = rule.original.iter().map(pattern_label).collect();
    let res: Vec<String> = rule.result.iter().map(write_label).collect();
    format!(
        "{} {}: {} -> {}",
        rule.situation.name(),
        rule.direction.compass(),
        orig.join(" "),
        res.join(" ")
    )
}

/// The label of an original block's token: `stone`, `mud|path`, `*`, `#3`.
pub fn pattern_label(p: &Pattern) -> String {
    match &p.token {
        TokenPattern::Any => "*".into(),
        TokenPattern::OneOf(ts) => ts.iter().map(|t| t.name()).collect::<Vec<_>>().join("|"),
        TokenPattern::Index(k) => format!("#{k}"),
    }
}

/// The label of a result block's token: `gem`, or `=k` for "copy the token of block k".
pub fn write_label(w: &Write) -> String {
    match w.token {
        TokenWrite::Set(t) => t.name().into(),
        TokenWrite::Copy(k) => format!("={k}"),
    }
}

/// The explanation shown when hovering a value chip (spec boulder §4.5).
pub fn value_help(side: Side, name: ValueName, n: i64) -> String {
    let global = matches!(name, ValueName::Global(_));
    let what = if global {
        format!("the global {}", name.name())
    } else {
        format!("{} on this field", name.name())
    };
    match (side, n) {
        (Side::Original, 0) => format!("{what} must be 0"),
        (Side::Original, n) => format!("{what} must be at least {n}"),
        (Side::Result, 0) => format!("set {what} to 0"),
        (Side::Result, n) if n > 0 => format!(
            "add {n} to {what}{}",
            if global {
                " (once per field written)"
            } else {
                ""
            }
        ),
        (Side::Result, n) => format!("subtract {} from {what}, not below 0", -n),
    }
}

fn all_value_names() -> Vec<ValueName> {
    ValueKey::ALL
        .iter()
        .map(|k| ValueName::Field(*k))
        .chain(Global::ALL.iter().map(|g| ValueName::Global(*g)))
        .collect()
}

/// Draws the rule panel. `preview` is the selected rule's preview on the design (match count);
/// `never` lists rules that can never match.
pub fn rules_ui(
    ui: &mut Ui,
    level: &BoulderLevel,
    panel: &RulePanel,
    preview: Option<&Preview>,
    never: &[NeverMatches],
    out: &mut Vec<RuleEvent>,
) {
    for list in [RuleList::Pre, RuleList::Post] {
        list_ui(ui, level, panel, list, never, out);
        ui.add_space(4.0);
    }
    ui.separator();
    let Some(sel) = panel.selected else {
        ui.weak("Select a rule to edit it. Drag rules by :: to reorder them.");
        view_switch(ui, panel, out);
        if panel.view == RuleView::AllJson {
            json_ui(ui, level, panel, None, out);
        }
        return;
    };
    let rules = if sel.list == RuleList::Pre {
        &level.pre
    } else {
        &level.post
    };
    let Some(rule) = rules.get(sel.index) else {
        return;
    };
    ui.horizontal(|ui| {
        ui.strong(format!("{}[{}]", sel.list.key(), sel.index));
        if let Some(p) = preview {
            let n = p.matches.len();
            ui.label(RichText::new(format!("{n} match{} now", if n == 1 { "" } else { "es" })).color(Color32::from_rgb(120, 200, 255)))
                .on_hover_text("Windows this rule matches on the design right now, in the order the engine applies them (outlined on the canvas)");
        }
        let mut once = panel.apply_once;
        if ui.checkbox(&mut once, "Apply once").on_hover_text("Show the map after this rule runs once, on a scratch copy; changed fields are outlined. The design is not changed.").changed() {
            out.push(RuleEvent::SetApplyOnce(once));
        }
    });
    view_switch(ui, panel, out);
    match panel.view {
        RuleView::Visual => rule_ui(ui, rule, sel, panel, out),
        RuleView::Json | RuleView::AllJson => json_ui(ui, level, panel, Some((sel, rule)), out),
    }
}

fn view_switch(ui: &mut Ui, panel: &RulePanel, out: &mut Vec<RuleEvent>) {
    ui.horizontal(|ui| {
        for (v, label) in [
            (RuleView::Visual, "Blocks"),
            (RuleView::Json, "Rule JSON"),
            (RuleView::AllJson, "All rules JSON"),
        ] {
            if ui.selectable_label(panel.view == v, label).clicked() {
                out.push(RuleEvent::SetView(v));
            }
        }
    });
}

fn list_ui(
    ui: &mut Ui,
    level: &BoulderLevel,
    panel: &RulePanel,
    list: RuleList,
    never: &[NeverMatches],
    out: &mut Vec<RuleEvent>,
) {
    let rules = if list == RuleList::Pre {
        &level.pre
    } else {
        &level.post
    };
    ui.horizontal(|ui| {
        ui.strong(format!("{} ({})", list.key(), rules.len()));
        if ui
            .small_button("+ Add")
            .on_hover_text(format!("Add a rule at the end of {}", list.key()))
            .clicked()
        {
            out.push(RuleEvent::Op(RuleOp::Add(list)));
            out.push(RuleEvent::Select(Some(RuleRef::new(list, rules.len()))));
        }
        ui.menu_button("Snippets", |ui| {
            for (i, s) in snippets().iter().enumerate() {
                if ui.button(s.title).on_hover_text(s.help).clicked() {
                    out.push(RuleEvent::Op(RuleOp::InsertSnippet(list, i)));
                    out.push(RuleEvent::Select(Some(RuleRef::new(list, rules.len()))));
                    ui.close();
                }
            }
        });
    });
    for (i, rule) in rules.iter().enumerate() {
        let r = RuleRef::new(list, i);
        let row = ui.horizontal(|ui| {
            ui.dnd_drag_source(ui.scope_id().with(("rule-drag", list.key(), i)), r, |ui| {
                ui.label("::").on_hover_text("Drag to reorder");
            });
            let mut on = !panel.disabled.contains(&r);
            if ui.checkbox(&mut on, "").on_hover_text("On for the play session (switching off does not change the level)").changed() {
                out.push(RuleEvent::ToggleDisabled(r));
            }
            let bp = panel.breakpoints.contains(&r);
            let dot = RichText::new(if bp { "(B)" } else { "( )" }).color(if bp { Color32::from_rgb(230, 60, 60) } else { Color32::GRAY });
            if ui.add(egui::Button::new(dot).frame(false)).on_hover_text("Breakpoint: Run stops at a tick where this rule fires").clicked() {
                out.push(RuleEvent::ToggleBreakpoint(r));
            }
            if let Some(nm) = never.iter().find(|n| n.index == i && n.post == (list == RuleList::Post)) {
                let names: Vec<&str> = nm.missing.iter().map(|t| t.name()).collect();
                ui.label(RichText::new("(!)").color(Color32::from_rgb(240, 190, 60)))
                    .on_hover_text(format!("Can never match: needs {} (block {}), which is on no field and which nothing creates", names.join(" or "), nm.block));
            }
            let text = format!("{i}: {}", summary(rule));
            let label = if panel.disabled.contains(&r) { RichText::new(text).strikethrough().weak() } else { RichText::new(text) };
            if ui.selectable_label(panel.selected == Some(r), label).clicked() {
                out.push(RuleEvent::Select(Some(r)));
            }
        });
        if let Some(from) = row.response.dnd_release_payload::<RuleRef>()
            && *from != r
        {
            let to = if from.list == list && from.index < i {
                RuleRef::new(list, i - 1)
            } else {
                r
            };
            out.push(RuleEvent::Op(RuleOp::Move { from: *from, to }));
            out.push(RuleEvent::Select(Some(to)));
        }
    }
    // Dropping on the list's heading area below the rules appends.
    let (_, end) = ui.dnd_drop_zone::<RuleRef, ()>(egui::Frame::NONE, |ui| {
        ui.add_space(2.0);
    });
    if let Some(from) = end {
        let to = RuleRef::new(
            list,
            if from.list == list {
                rules.len() - 1
            } else {
                rules.len()
            },
        );
        out.push(RuleEvent::Op(RuleOp::Move { from: *from, to }));
    }
}

fn rule_ui(ui: &mut Ui, rule: &Rule, sel: RuleRef, panel: &RulePanel, out: &mut Vec<RuleEvent>) {
    ui.horizontal(|ui| {
        if ui.button("Duplicate").clicked() {
            out.push(RuleEvent::Op(RuleOp::Duplicate(sel)));
            out.push(RuleEvent::Select(Some(RuleRef::new(
                sel.list,
                sel.index + 1,
            ))));
        }
        if ui.button("Delete").clicked() {
            out.push(RuleEvent::Op(RuleOp::Delete(sel)));
            out.push(RuleEvent::Select(None));
        }
        if ui.small_button("Up").on_hover_text("Move up").clicked() && sel.index > 0 {
            out.push(RuleEvent::Op(RuleOp::Move {
                from: sel,
                to: RuleRef::new(sel.list, sel.index - 1),
            }));
            out.push(RuleEvent::Select(Some(RuleRef::new(
                sel.list,
                sel.index - 1,
            ))));
        }
        if ui.small_button("Down").on_hover_text("Move down").clicked() {
            out.push(RuleEvent::Op(RuleOp::Move {
                from: sel,
                to: RuleRef::new(sel.list, sel.index + 1),
            }));
            out.push(RuleEvent::Select(Some(RuleRef::new(
                sel.list,
                sel.index + 1,
            ))));
        }
    });
    ui.horizontal(|ui| {
        ui.label("Name");
        let mut name = panel.name.clone();
        let r = ui.add(
            egui::TextEdit::singleline(&mut name)
                .hint_text("a comment")
                .desired_width(180.0),
        );
        if r.changed() {
            out.push(RuleEvent::NameEdited(name.clone()));
        }
        if r.lost_focus() && Some(name.as_str()) != rule.name.as_deref().or(Some("")) {
            out.push(RuleEvent::Op(RuleOp::SetName(sel, Some(name))));
        }
    });
    ui.horizontal(|ui| {
        ui.label("Situation");
        let mut sit = rule.situation;
        egui::ComboBox::from_id_salt("rule-situation")
            .selected_text(sit.name())
            .show_ui(ui, |ui| {
                let mut options = vec![
                    Situation::Any,
                    Situation::Rare {
                        sparsity: match rule.situation {
                            Situation::Rare { sparsity } => sparsity,
                            _ => 5,
                        },
                    },
                ];
                options.extend(Dir::ALL.map(Situation::Input));
                options.extend(Dir::ALL.map(Situation::Meta));
                for o in options {
                    ui.selectable_value(&mut sit, o, o.name());
                }
            });
        if let Situation::Rare { sparsity } = rule.situation {
            ui.label("every");
            let mut s = sparsity;
            ui.add(egui::DragValue::new(&mut s).range(1..=100_000))
                .on_hover_text("sparsity: runs in ticks that are a multiple of this");
            ui.label("ticks");
            if s != sparsity {
                sit = Situation::Rare { sparsity: s };
            }
        }
        if sit != rule.situation {
            out.push(RuleEvent::Op(RuleOp::SetSituation(sel, sit)));
        }
    });
    ui.horizontal(|ui| {
        ui.label("Direction");
        for d in [Dir::Right, Dir::Left, Dir::Up, Dir::Down] {
            let label = d.compass().to_string();
            if ui
                .selectable_label(rule.direction == d, label)
                .on_hover_text(line_help(d))
                .clicked()
                && rule.direction != d
            {
                out.push(RuleEvent::Op(RuleOp::SetDirection(sel, d)));
            }
        }
    });
    ui.add_space(4.0);
    strip_ui(ui, rule, sel, panel, Side::Original, out);
    ui.label(RichText::new("becomes").weak());
    strip_ui(ui, rule, sel, panel, Side::Result, out);
    ui.horizontal(|ui| {
        if ui
            .small_button("+ front")
            .on_hover_text("Add a block pair before block 0")
            .clicked()
        {
            out.push(RuleEvent::Op(RuleOp::AddBlock {
                rule: sel,
                front: true,
            }));
        }
        if ui
            .small_button("+ end")
            .on_hover_text("Add a block pair after the last block")
            .clicked()
        {
            out.push(RuleEvent::Op(RuleOp::AddBlock {
                rule: sel,
                front: false,
            }));
        }
        if ui.small_button("- front").clicked() {
            out.push(RuleEvent::Op(RuleOp::RemoveBlock {
                rule: sel,
                front: true,
            }));
        }
        if ui.small_button("- end").clicked() {
            out.push(RuleEvent::Op(RuleOp::RemoveBlock {
                rule: sel,
                front: false,
            }));
        }
    });
    if let Some((side, k)) = panel.block {
        ui.separator();
        block_editor(ui, rule, sel, side, k, out);
    }
}

fn line_help(d: Dir) -> &'static str {
    match d {
        Dir::Right => "east: rows, read left to right",
        Dir::Left => "west: rows, read right to left",
        Dir::Up => "north: columns, read bottom to top",
        Dir::Down => "south: columns, read top to bottom",
    }
}

const BLOCK: f32 = 58.0;

/// One strip of blocks, laid out in the rule's direction (east: left to right, west: right to
/// left, south: top to bottom, north: bottom to top).
fn strip_ui(
    ui: &mut Ui,
    rule: &Rule,
    sel: RuleRef,
    panel: &RulePanel,
    side: Side,
    out: &mut Vec<RuleEvent>,
) {
    let n = rule.original.len();
    let order: Vec<usize> = match rule.direction {
        Dir::Right | Dir::Down => (0..n).collect(),
        Dir::Left | Dir::Up => (0..n).rev().collect(),
    };
    let mut draw = |ui: &mut Ui| {
        for &k in &order {
            let selected = panel.block == Some((side, k));
            let (resp, tip) = block_ui(ui, rule, side, k, selected);
            let resp = resp.on_hover_text(tip);
            if resp.clicked() {
                out.push(RuleEvent::SelectBlock(if selected {
                    None
                } else {
                    Some((side, k))
                }));
            }
        }
    };
    egui::ScrollArea::horizontal()
        .id_salt(("strip", side == Side::Original, sel.list.key(), sel.index))
        .show(ui, |ui| {
            if rule.direction.is_horizontal() {
                ui.horizontal(|ui| draw(ui));
            } else {
                ui.vertical(|ui| draw(ui));
            }
        });
}

fn block_ui(
    ui: &mut Ui,
    rule: &Rule,
    side: Side,
    k: usize,
    selected: bool,
) -> (egui::Response, String) {
    let (label, values, colour) = match side {
        Side::Original => {
            let p = &rule.original[k];
            let c = match &p.token {
                TokenPattern::OneOf(ts) if ts.len() == 1 => look::color(ts[0]),
                _ => Color32::from_gray(70),
            };
            (pattern_label(p), &p.values, c)
        }
        Side::Result => {
            let w = &rule.result[k];
            let c = match w.token {
                TokenWrite::Set(t) => look::color(t),
                TokenWrite::Copy(_) => Color32::from_gray(55),
            };
            (write_label(w), &w.values, c)
        }
    };
    let height = BLOCK + 14.0 * values.len() as f32;
    let (rect, resp) = ui.allocate_exact_size(vec2(BLOCK + 18.0, height), Sense::click());
    let p = ui.painter();
    let body = egui::Rect::from_min_size(rect.min, vec2(rect.width(), BLOCK));
    p.rect_filled(body, 4.0, colour);
    p.rect_stroke(
        rect,
        4.0,
        egui::Stroke::new(
            if selected { 2.5 } else { 1.0 },
            if selected {
                Color32::WHITE
            } else {
                Color32::from_gray(120)
            },
        ),
        egui::StrokeKind::Inside,
    );
    let ink = look::ink(colour);
    p.text(
        body.center_top() + vec2(0.0, 3.0),
        egui::Align2::CENTER_TOP,
        format!("{k}"),
        egui::FontId::monospace(10.0),
        ink,
    );
    p.text(
        body.center(),
        egui::Align2::CENTER_CENTER,
        &label,
        egui::FontId::proportional(12.0),
        ink,
    );
    let mut tip = match (side, &label) {
        (Side::Result, l) if l.starts_with('=') => format!(
            "block {k}: copy the token of original block {} (as it was before this match)",
            &l[1..]
        ),
        (Side::Original, l) if l == "*" => format!("block {k}: any token"),
        (Side::Original, l) if l.starts_with('#') => {
            format!("block {k}: a number never matches a field")
        }
        (Side::Original, l) => format!("block {k}: one of {l}"),
        (Side::Result, l) => format!("block {k}: write {l}"),
    };
    for (i, (name, n)) in values.iter().enumerate() {
        let y = rect.min.y + BLOCK + 2.0 + 14.0 * i as f32;
        let chip = egui::Rect::from_min_size(
            egui::pos2(rect.min.x + 2.0, y),
            vec2(rect.width() - 4.0, 12.0),
        );
        p.rect_filled(chip, 6.0, Color32::from_rgb(40, 60, 90));
        p.text(
            chip.center(),
            egui::Align2::CENTER_CENTER,
            format!("{} {n}", name.name()),
            egui::FontId::monospace(10.0),
            Color32::WHITE,
        );
        tip.push_str(&format!("\n- {}", value_help(side, *name, *n)));
    }
    (resp, tip)
}

fn block_editor(
    ui: &mut Ui,
    rule: &Rule,
    sel: RuleRef,
    side: Side,
    k: usize,
    out: &mut Vec<RuleEvent>,
) {
    match side {
        Side::Original => {
            let Some(p) = rule.original.get(k) else {
                return;
            };
            ui.label(format!("Original block {k}: the field must hold"));
            let mut any = p.token == TokenPattern::Any;
            if ui.checkbox(&mut any, "* any token").changed() {
                let token = if any {
                    TokenPattern::Any
                } else {
                    TokenPattern::OneOf(vec![Token::Path])
                };
                out.push(RuleEvent::Op(RuleOp::SetPattern {
                    rule: sel,
                    block: k,
                    pattern: Pattern {
                        token,
                        values: p.values.clone(),
                    },
                }));
            }
            if let TokenPattern::OneOf(ts) = &p.token {
                ui.horizontal_wrapped(|ui| {
                    for t in Token::ALL {
                        let mut on = ts.contains(t);
                        if ui.checkbox(&mut on, t.name()).changed() {
                            let mut new: Vec<Token> =
                                ts.iter().copied().filter(|x| x != t).collect();
                            if on {
                                new.push(*t);
                            }
                            if !new.is_empty() {
                                out.push(RuleEvent::Op(RuleOp::SetPattern {
                                    rule: sel,
                                    block: k,
                                    pattern: Pattern {
                                        token: TokenPattern::OneOf(new),
                                        values: p.values.clone(),
                                    },
                                }));
                            }
                        }
                    }
                });
            }
            if let Some(values) = values_editor(ui, side, &p.values) {
                out.push(RuleEvent::Op(RuleOp::SetPattern {
                    rule: sel,
                    block: k,
                    pattern: Pattern {
                        token: p.token.clone(),
                        values,
                    },
                }));
            }
        }
        Side::Result => {
            let Some(w) = rule.result.get(k) else { return };
            ui.label(format!("Result block {k}: write"));
            let mut token = w.token;
            egui::ComboBox::from_id_salt("result-token")
                .selected_text(write_label(w))
                .show_ui(ui, |ui| {
                    for j in 0..rule.original.len() {
                        ui.selectable_value(
                            &mut token,
                            TokenWrite::Copy(j),
                            format!("={j}  (copy block {j})"),
                        );
                    }
                    for t in Token::ALL {
                        ui.selectable_value(&mut token, TokenWrite::Set(*t), t.name());
                    }
                });
            if token != w.token {
                out.push(RuleEvent::Op(RuleOp::SetWrite {
                    rule: sel,
                    block: k,
                    write: Write {
                        token,
                        values: w.values.clone(),
                    },
                }));
            }
            if let Some(values) = values_editor(ui, side, &w.values) {
                out.push(RuleEvent::Op(RuleOp::SetWrite {
                    rule: sel,
                    block: k,
                    write: Write {
                        token: w.token,
                        values,
                    },
                }));
            }
        }
    }
}

/// Edits a block's values; returns the new list when it changed.
fn values_editor(
    ui: &mut Ui,
    side: Side,
    values: &[(ValueName, i64)],
) -> Option<Vec<(ValueName, i64)>> {
    let mut new = values.to_vec();
    let mut changed = false;
    let mut remove = None;
    for (i, (name, n)) in new.iter_mut().enumerate() {
        ui.horizontal(|ui| {
            ui.label(name.name());
            let min = if side == Side::Original {
                0
            } else {
                -1_000_000
            };
            if ui
                .add(egui::DragValue::new(n).range(min..=1_000_000))
                .on_hover_text(value_help(side, *name, *n))
                .changed()
            {
                changed = true;
            }
            if ui
                .small_button("x")
                .on_hover_text("Remove this value")
                .clicked()
            {
                remove = Some(i);
            }
        });
    }
    if let Some(i) = remove {
        new.remove(i);
        changed = true;
    }
    ui.menu_button("+ value", |ui| {
        for name in all_value_names() {
            if !new.iter().any(|(x, _)| *x == name) && ui.button(name.name()).clicked() {
                new.push((name, if side == Side::Original { 1 } else { 1 }));
                changed = true;
                ui.close();
            }
        }
    });
    changed.then_some(new)
}

fn json_ui(
    ui: &mut Ui,
    level: &BoulderLevel,
    panel: &RulePanel,
    sel: Option<(RuleRef, &Rule)>,
    out: &mut Vec<RuleEvent>,
) {
    let mut text = panel.json.clone();
    let r = ui.add(
        egui::TextEdit::multiline(&mut text)
            .code_editor()
            .desired_rows(12)
            .desired_width(f32::INFINITY),
    );
    if r.changed() {
        out.push(RuleEvent::JsonEdited(text.clone()));
    }
    ui.horizontal(|ui| {
        if ui.button("Apply JSON").on_hover_text("Check the text and, when it is valid, replace the rule(s) with it (one undoable edit)").clicked() {
            match (panel.view, sel) {
                (RuleView::Json, Some((at, _))) => match parse_rule_text(&text) {
                    Ok(rule) => {
                        out.push(RuleEvent::Op(RuleOp::Replace(at, rule)));
                        out.push(RuleEvent::JsonProblems(vec![]));
                    }
                    Err(p) => out.push(RuleEvent::JsonProblems(p)),
                },
                _ => match parse_all_rules_text(&text) {
                    Ok((pre, post)) => {
                        out.push(RuleEvent::Op(RuleOp::ReplaceAll(pre, post)));
                        out.push(RuleEvent::JsonProblems(vec![]));
                    }
                    Err(p) => out.push(RuleEvent::JsonProblems(p)),
                },
            }
        }
        if ui.button("Revert").clicked() {
            let t = match (panel.view, sel) {
                (RuleView::Json, Some((_, rule))) => rule_text(rule),
                _ => super::all_rules_text(level),
            };
            out.push(RuleEvent::JsonEdited(t));
            out.push(RuleEvent::JsonProblems(vec![]));
        }
    });
    for p in &panel.json_problems {
        let colour = if p.is_error() {
            Color32::from_rgb(255, 110, 110)
        } else {
            Color32::from_rgb(240, 190, 60)
        };
        ui.label(RichText::new(p.render("json")).color(colour).monospace());
    }
}
