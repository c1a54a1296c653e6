//! The rule editor panel: the `pre` and `post` lists (select, add, duplicate, delete, reorder
//! by drag or arrows, switch off for the play session, breakpoints), the selected rule drawn as
//! strips of blocks in its direction, block editing, the JSON views, snippets, and the live
//! match count. Reads the level and [`RulePanel`]; pushes [`RuleEvent`]s.

use eframe::egui::{self, Color32, RichText, Sense, Ui, vec2};
use tilesmith_engine::Dir;
use tilesmith_engine::kind::boulder::analysis::{NeverMatches, Preview};
use tilesmith_engine::kind::boulder::{
    BoulderLevel, Global, Pattern, Rule, Situation, Token, TokenPattern, TokenWrite, ValueKey,
    ValueName, Write,
};

use super::{RuleList, RuleOp, RuleRef, snippets};
use crate::look;

pub use super::panel::{JsonTarget, RuleEvent, RulePanel, RuleView, Side};

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

/// What the rule panel shows besides the level and its own state.
#[derive(Clone, Copy, Debug, Default)]
pub struct RulesView<'a> {
    /// The selected rule's preview on the design (matches, apply once).
    pub preview: Option<&'a Preview>,
    /// Rules that can never match.
    pub never: &'a [NeverMatches],
    /// A play session runs: the lists can be switched on/off and get breakpoints, but the
    /// rules cannot be edited (the session plays a copy of them).
    pub playing: bool,
}

/// Draws the rule panel and pushes the events of its widgets.
pub fn rules_ui(
    ui: &mut Ui,
    level: &BoulderLevel,
    panel: &RulePanel,
    view: RulesView<'_>,
    out: &mut Vec<RuleEvent>,
) {
    if view.playing {
        ui.label(
            RichText::new(
                "Playing: switch rules off and set breakpoints here; stop playing to edit them.",
            )
            .weak(),
        );
    }
    egui::ScrollArea::vertical()
        .id_salt("rule-lists")
        .max_height(300.0)
        .auto_shrink([false, true])
        .show(ui, |ui| {
            for list in [RuleList::Pre, RuleList::Post] {
                list_ui(ui, level, panel, list, view, out);
                ui.add_space(2.0);
            }
        });
    ui.separator();
    view_switch(ui, panel, out);
    let sel = panel.selected.and_then(|s| {
        let rules = if s.list == RuleList::Pre {
            &level.pre
        } else {
            &level.post
        };
        rules.get(s.index).map(|r| (s, r))
    });
    if panel.view == RuleView::AllJson {
        ui.add_enabled_ui(!view.playing, |ui| json_ui(ui, level, panel, out));
        return;
    }
    let Some((sel, rule)) = sel else {
        ui.weak(
            "Select a rule to edit it and see what it matches. Drag rules by :: to reorder them.",
        );
        return;
    };
    ui.horizontal_wrapped(|ui| {
        ui.strong(sel.label());
        if let Some(p) = view.preview {
            let n = p.matches.len();
            ui.label(
                RichText::new(format!("{n} match{} now", if n == 1 { "" } else { "es" }))
                    .color(Color32::from_rgb(120, 200, 255)),
            )
            .on_hover_text(
                "Windows this rule matches on the design right now, numbered on the canvas in \
                 the order the engine applies them (lines in order, leftmost non-overlapping \
                 matches first)",
            );
            let mut once = panel.apply_once;
            if ui
                .checkbox(&mut once, "Apply once")
                .on_hover_text(
                    "Show the map after this rule runs once, on a scratch copy; changed fields \
                     are outlined in orange. The design is not changed.",
                )
                .changed()
            {
                out.push(RuleEvent::SetApplyOnce(once));
            }
            if panel.apply_once {
                ui.label(
                    RichText::new(format!("{} field(s) change", p.changed.len()))
                        .color(Color32::from_rgb(255, 160, 60)),
                );
            }
        }
    });
    if let Some(note) = situation_note(rule.situation) {
        ui.label(RichText::new(note).weak().small());
    }
    if let Some(nm) = view
        .never
        .iter()
        .find(|n| n.index == sel.index && n.post == sel.is_post())
    {
        ui.label(RichText::new(never_text(nm)).color(WARN));
    }
    ui.add_enabled_ui(!view.playing, |ui| match panel.view {
        RuleView::Visual => rule_ui(ui, rule, sel, panel, out),
        RuleView::Json | RuleView::AllJson => json_ui(ui, level, panel, out),
    });
}

/// A one-line, clickable list row whose text is cut with "…" at the panel's edge (so long
/// names never widen the panel); the selected row is highlighted.
pub fn select_row(ui: &mut Ui, selected: bool, text: RichText) -> egui::Response {
    let full = text.text().to_string();
    let text = if selected {
        text.color(ui.visuals().selection.stroke.color)
    } else {
        text
    };
    let width = ui.available_width().max(20.0);
    let galley = egui::WidgetText::from(text).into_galley(
        ui,
        Some(egui::TextWrapMode::Truncate),
        width - 4.0,
        egui::TextStyle::Body,
    );
    // The whole rest of the row is clickable, not just the text.
    let (rect, resp) = ui.allocate_exact_size(vec2(width, galley.size().y), Sense::click());
    resp.widget_info(|| {
        egui::WidgetInfo::selected(egui::Role::Button, ui.is_enabled(), selected, &full)
    });
    let bg = if selected {
        Some(ui.visuals().selection.bg_fill)
    } else if resp.hovered() {
        Some(ui.visuals().widgets.hovered.weak_bg_fill)
    } else {
        None
    };
    if let Some(bg) = bg {
        ui.painter().rect_filled(rect, 2.0, bg);
    }
    let colour = ui.visuals().text_color();
    ui.painter()
        .galley(rect.min + vec2(2.0, 0.0), galley, colour);
    resp
}

const WARN: Color32 = Color32::from_rgb(240, 190, 60);

fn never_text(nm: &NeverMatches) -> String {
    let names: Vec<&str> = nm.missing.iter().map(|t| t.name()).collect();
    format!(
        "(!) Can never match: block {} needs {}, which is on no field and which no rule or main rule creates.",
        nm.block,
        names.join(" or ")
    )
}

fn situation_note(s: Situation) -> Option<String> {
    match s {
        Situation::Any => None,
        Situation::Rare { sparsity } => Some(format!(
            "Runs only in ticks that are multiples of {sparsity}; the preview shows what it does when it runs."
        )),
        Situation::Input(d) => Some(format!(
            "Runs only in ticks with input {}; the preview shows what it does when it runs.",
            d.name()
        )),
        Situation::Meta(d) => Some(format!(
            "Runs only in ticks with input meta {}; the preview shows what it does when it runs.",
            d.name()
        )),
    }
}

fn view_switch(ui: &mut Ui, panel: &RulePanel, out: &mut Vec<RuleEvent>) {
    ui.horizontal(|ui| {
        for (v, label) in [
            (RuleView::Visual, "Blocks"),
            (RuleView::Json, "Rule JSON"),
            (RuleView::AllJson, "All rules JSON"),
        ] {
            if ui.selectable_label(panel.view == v, label).clicked() && panel.view != v {
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
    view: RulesView<'_>,
    out: &mut Vec<RuleEvent>,
) {
    let rules = if list == RuleList::Pre {
        &level.pre
    } else {
        &level.post
    };
    ui.horizontal(|ui| {
        ui.strong(format!("{} ({})", list.key(), rules.len()))
            .on_hover_text(match list {
                RuleList::Pre => "pre: run each tick before the main rules, in this order",
                RuleList::Post => "post: run each tick after the main rules, in this order",
            });
        ui.add_enabled_ui(!view.playing, |ui| {
            if ui
                .small_button(format!("+ Add {}", list.key()))
                .on_hover_text(format!("Add a rule at the end of {}", list.key()))
                .clicked()
            {
                out.push(RuleEvent::Op(RuleOp::Add(list)));
                out.push(RuleEvent::Select(Some(RuleRef::new(list, rules.len()))));
            }
            ui.menu_button(format!("Snippets {}", list.key()), |ui| {
                for (i, s) in snippets().iter().enumerate() {
                    if ui.button(s.title).on_hover_text(s.help).clicked() {
                        out.push(RuleEvent::Op(RuleOp::InsertSnippet(list, i)));
                        out.push(RuleEvent::Select(Some(RuleRef::new(list, rules.len()))));
                        ui.close();
                    }
                }
            })
            .response
            .on_hover_text(format!(
                "Insert ready-made rules at the end of {}",
                list.key()
            ));
        });
    });
    if rules.is_empty() {
        ui.label(RichText::new("  (no rules)").weak());
    }
    for (i, rule) in rules.iter().enumerate() {
        let r = RuleRef::new(list, i);
        let row = ui.horizontal(|ui| {
            if view.playing {
                ui.label(RichText::new("::").weak());
            } else {
                ui.dnd_drag_source(ui.scope_id().with(("rule-drag", list.key(), i)), r, |ui| {
                    ui.label("::").on_hover_text("Drag to reorder (drop on a rule to put it before that rule, or on the list's end)");
                });
            }
            let mut on = !panel.disabled.contains(&r);
            if ui
                .checkbox(&mut on, "")
                .on_hover_text("On for the play session (switching off does not change the level)")
                .accessible_name(format!("on {}", r.label()))
                .changed()
            {
                out.push(RuleEvent::ToggleDisabled(r));
            }
            let bp = panel.breakpoints.contains(&r);
            let dot = RichText::new(if bp { "(B)" } else { "( )" }).monospace().color(if bp {
                Color32::from_rgb(230, 60, 60)
            } else {
                Color32::GRAY
            });
            if ui
                .add(egui::Button::new(dot).frame(false))
                .on_hover_text("Breakpoint: Run stops at a tick where this rule fires")
                .accessible_name(format!("breakpoint {}", r.label()))
                .clicked()
            {
                out.push(RuleEvent::ToggleBreakpoint(r));
            }
            if let Some(nm) = view
                .never
                .iter()
                .find(|n| n.index == i && n.post == (list == RuleList::Post))
            {
                ui.label(RichText::new("(!)").color(WARN))
                    .on_hover_text(never_text(nm));
            }
            let text = format!("{i}: {}", summary(rule));
            let mut label = RichText::new(text.clone());
            if panel.disabled.contains(&r) {
                label = label.strikethrough().weak();
            }
            let selected = panel.selected == Some(r);
            if select_row(ui, selected, label)
                .on_hover_text(text)
                .clicked()
                && !selected
            {
                out.push(RuleEvent::Select(Some(r)));
            }
        });
        if !view.playing && row.response.dnd_hover_payload::<RuleRef>().is_some() {
            // Where the dragged rule would go: before this row.
            let r = row.response.rect;
            ui.painter().hline(
                r.x_range(),
                r.top(),
                egui::Stroke::new(2.0, Color32::from_rgb(120, 200, 255)),
            );
        }
        if !view.playing
            && let Some(from) = row.response.dnd_release_payload::<RuleRef>()
            && *from != r
        {
            let to = if from.list == list && from.index < i {
                RuleRef::new(list, i - 1)
            } else {
                r
            };
            out.push(RuleEvent::Op(RuleOp::Move { from: *from, to }));
        }
    }
    if view.playing || !egui::DragAndDrop::has_payload_of_type::<RuleRef>(ui.ctx()) {
        return;
    }
    // While dragging: a strip below the list's rules puts the rule at the end of that list.
    let (_, end) = ui.dnd_drop_zone::<RuleRef, ()>(egui::Frame::NONE, |ui| {
        ui.set_min_width(ui.available_width());
        ui.label(
            RichText::new(format!("drop here: end of {}", list.key()))
                .weak()
                .small(),
        );
    });
    if let Some(from) = end {
        let to = RuleRef::new(list, rules.len());
        if *from != to {
            out.push(RuleEvent::Op(RuleOp::Move { from: *from, to }));
        }
    }
}

fn rule_ui(ui: &mut Ui, rule: &Rule, sel: RuleRef, panel: &RulePanel, out: &mut Vec<RuleEvent>) {
    ui.horizontal(|ui| {
        if ui
            .button("Duplicate")
            .on_hover_text("Insert a copy right after this rule")
            .clicked()
        {
            out.push(RuleEvent::Op(RuleOp::Duplicate(sel)));
            out.push(RuleEvent::Select(Some(RuleRef::new(
                sel.list,
                sel.index + 1,
            ))));
        }
        if ui.button("Delete rule").clicked() {
            out.push(RuleEvent::Op(RuleOp::Delete(sel)));
        }
        if ui
            .add_enabled(sel.index > 0, egui::Button::new("Up").small())
            .on_hover_text("Move one place up (runs earlier)")
            .clicked()
        {
            out.push(RuleEvent::Op(RuleOp::Move {
                from: sel,
                to: RuleRef::new(sel.list, sel.index - 1),
            }));
        }
        if ui
            .small_button("Down")
            .on_hover_text("Move one place down (runs later)")
            .clicked()
        {
            out.push(RuleEvent::Op(RuleOp::Move {
                from: sel,
                to: RuleRef::new(sel.list, sel.index + 1),
            }));
        }
        let other = match sel.list {
            RuleList::Pre => RuleList::Post,
            RuleList::Post => RuleList::Pre,
        };
        if ui
            .small_button(format!("To {}", other.key()))
            .on_hover_text(format!("Move to the end of the {} list", other.key()))
            .clicked()
        {
            out.push(RuleEvent::Op(RuleOp::Move {
                from: sel,
                to: RuleRef::new(other, usize::MAX),
            }));
        }
    });
    ui.horizontal(|ui| {
        ui.label("Name");
        let mut name = rule.name.clone().unwrap_or_default();
        if ui
            .add(
                egui::TextEdit::singleline(&mut name)
                    .hint_text("a comment, shown in the lists")
                    .desired_width(220.0),
            )
            .accessible_name("rule name")
            .changed()
        {
            out.push(RuleEvent::Op(RuleOp::SetName(sel, Some(name))));
        }
    });
    ui.horizontal(|ui| {
        ui.label("Situation");
        let mut sit = rule.situation;
        let r = egui::ComboBox::from_id_salt("rule-situation")
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
        let _ = r.response.accessible_name("situation");
        if let Situation::Rare { sparsity } = rule.situation {
            ui.label("every");
            let mut s = sparsity;
            ui.add(egui::DragValue::new(&mut s).range(1..=100_000))
                .on_hover_text("sparsity: runs in ticks whose number is a multiple of this")
                .accessible_name("sparsity");
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
            let label = format!("{} {}", look::arrow_char(d), d.compass());
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
    strips_ui(ui, rule, panel, out);
    ui.horizontal(|ui| {
        ui.label("Blocks:");
        for (label, op, help) in [
            (
                "+ front",
                RuleOp::AddBlock {
                    rule: sel,
                    front: true,
                },
                "Add a block pair before block 0 (* in the original, keep in the result)",
            ),
            (
                "+ end",
                RuleOp::AddBlock {
                    rule: sel,
                    front: false,
                },
                "Add a block pair after the last block",
            ),
            (
                "- front",
                RuleOp::RemoveBlock {
                    rule: sel,
                    front: true,
                },
                "Remove the first block pair",
            ),
            (
                "- end",
                RuleOp::RemoveBlock {
                    rule: sel,
                    front: false,
                },
                "Remove the last block pair",
            ),
        ] {
            let removing = matches!(op, RuleOp::RemoveBlock { .. });
            if ui
                .add_enabled(
                    !removing || rule.original.len() > 1,
                    egui::Button::new(label).small(),
                )
                .on_hover_text(help)
                .clicked()
            {
                out.push(RuleEvent::Op(op));
            }
        }
    });
    match panel.block {
        Some((side, k)) => {
            ui.separator();
            block_editor(ui, rule, sel, side, k, out);
        }
        None => {
            ui.label(RichText::new("Click a block to edit its token and values.").weak());
        }
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

/// The `original` and `result` strips, laid out in the rule's direction (east: left to right,
/// west: right to left, south: top to bottom, north: bottom to top), with a line from each
/// result block that copies a token to the original block it copies.
fn strips_ui(ui: &mut Ui, rule: &Rule, panel: &RulePanel, out: &mut Vec<RuleEvent>) {
    let n = rule.original.len();
    let order: Vec<usize> = match rule.direction {
        Dir::Right | Dir::Down => (0..n).collect(),
        Dir::Left | Dir::Up => (0..n).rev().collect(),
    };
    let horizontal = rule.direction.is_horizontal();
    let spacing = ui.spacing().item_spacing.x;
    let width = if horizontal {
        ((ui.available_width() - 70.0 - spacing * n as f32) / n.max(1) as f32).clamp(44.0, 80.0)
    } else {
        80.0
    };
    let mut rects: Vec<(Side, usize, egui::Rect)> = Vec::new();
    let mut strip = |ui: &mut Ui, side: Side| {
        for &k in &order {
            let selected = panel.block == Some((side, k));
            let (resp, tip) = block_ui(ui, rule, side, k, selected, width);
            rects.push((side, k, resp.rect));
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
    let caption = |ui: &mut Ui, text: &str| {
        ui.add_sized(
            vec2(62.0, 16.0),
            egui::Label::new(RichText::new(text).weak()),
        );
    };
    if horizontal {
        ui.horizontal(|ui| {
            caption(ui, "original");
            strip(ui, Side::Original);
        });
        ui.add_space(10.0);
        ui.horizontal(|ui| {
            caption(ui, "result");
            strip(ui, Side::Result);
        });
    } else {
        ui.horizontal(|ui| {
            ui.vertical(|ui| {
                caption(ui, "original");
                strip(ui, Side::Original);
            });
            ui.add_space(28.0);
            ui.vertical(|ui| {
                caption(ui, "result");
                strip(ui, Side::Result);
            });
        });
    }
    // Links: result block k copying original block j.
    let painter = ui.painter();
    let link = Color32::from_rgb(150, 220, 150);
    for (side, k, r) in &rects {
        if *side != Side::Result {
            continue;
        }
        let TokenWrite::Copy(j) = rule.result[*k].token else {
            continue;
        };
        let Some((_, _, o)) = rects
            .iter()
            .find(|(s, i, _)| *s == Side::Original && *i == j)
        else {
            continue;
        };
        let (a, b) = if horizontal {
            (r.center_top(), o.center_bottom())
        } else {
            (r.left_center(), o.right_center())
        };
        painter.line_segment([a, b], egui::Stroke::new(1.5, link));
        painter.circle_filled(b, 3.0, link);
    }
}

fn block_ui(
    ui: &mut Ui,
    rule: &Rule,
    side: Side,
    k: usize,
    selected: bool,
    width: f32,
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
    let body_h = 44.0;
    let height = body_h + 14.0 * values.len() as f32 + 2.0;
    let (rect, resp) = ui.allocate_exact_size(vec2(width, height), Sense::click());
    let side_name = match side {
        Side::Original => "original",
        Side::Result => "result",
    };
    let access = format!("{side_name} block {k}: {label}");
    resp.widget_info(|| egui::WidgetInfo::selected(egui::Role::Button, true, selected, &access));
    let p = ui.painter();
    let body = egui::Rect::from_min_size(rect.min, vec2(rect.width(), body_h));
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
        body.left_top() + vec2(4.0, 2.0),
        egui::Align2::LEFT_TOP,
        format!("{k}"),
        egui::FontId::monospace(10.0),
        ink,
    );
    let galley = p.layout(
        label.replace('|', "|\u{200B}"),
        egui::FontId::proportional(12.0),
        ink,
        width - 6.0,
    );
    let at = body.center() - galley.size() / 2.0 + vec2(0.0, 4.0);
    p.galley(at, galley, ink);
    let mut tip = match (side, &label) {
        (Side::Result, l) if l.starts_with('=') => format!(
            "result block {k}: copy the token of original block {} (as it was before this match)",
            &l[1..]
        ),
        (Side::Original, l) if l == "*" => format!("original block {k}: any token"),
        (Side::Original, l) if l.starts_with('#') => {
            format!("original block {k}: a number never matches a field")
        }
        (Side::Original, l) => format!("original block {k}: one of {l}"),
        (Side::Result, l) => format!("result block {k}: write {l}"),
    };
    let mut chip_tip = None;
    for (i, (name, n)) in values.iter().enumerate() {
        let y = rect.min.y + body_h + 1.0 + 14.0 * i as f32;
        let chip = egui::Rect::from_min_size(
            egui::pos2(rect.min.x + 2.0, y),
            vec2(rect.width() - 4.0, 12.0),
        );
        let over = resp.hover_pos().is_some_and(|h| chip.contains(h));
        p.rect_filled(
            chip,
            6.0,
            if over {
                Color32::from_rgb(70, 100, 150)
            } else {
                Color32::from_rgb(40, 60, 90)
            },
        );
        if over {
            chip_tip = Some(format!(
                "{} {n}: {}",
                name.name(),
                value_help(side, *name, *n)
            ));
        }
        let text = match side {
            Side::Result if *n > 0 => format!("{} +{n}", name.name()),
            Side::Result if *n == 0 => format!("{} =0", name.name()),
            _ => format!("{} {n}", name.name()),
        };
        p.text(
            chip.center(),
            egui::Align2::CENTER_CENTER,
            text,
            egui::FontId::monospace(10.0),
            Color32::WHITE,
        );
        tip.push_str(&format!("\n- {}", value_help(side, *name, *n)));
    }
    // Over a value chip, the tooltip explains just that value.
    (resp, chip_tip.unwrap_or(tip))
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
                ui.label(RichText::new("one of (tick several for alternatives):").weak());
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
            if let TokenPattern::Index(_) = p.token {
                ui.label(
                    RichText::new("A number in an original block never matches a field.")
                        .color(WARN),
                );
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
            let r = egui::ComboBox::from_id_salt("result-token")
                .selected_text(write_label(w))
                .show_ui(ui, |ui| {
                    for j in 0..rule.original.len() {
                        ui.selectable_value(
                            &mut token,
                            TokenWrite::Copy(j),
                            format!("={j}  (copy the token of original block {j})"),
                        );
                    }
                    for t in Token::ALL {
                        ui.selectable_value(&mut token, TokenWrite::Set(*t), t.name());
                    }
                });
            let _ = r.response.accessible_name("result token");
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
                .accessible_name(format!("block value {}", name.name()))
                .changed()
            {
                changed = true;
            }
            ui.label(RichText::new(value_help(side, *name, *n)).weak().small());
            if ui
                .small_button("x")
                .on_hover_text("Remove this value")
                .accessible_name(format!("remove value {}", name.name()))
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
                new.push((name, 1));
                changed = true;
                ui.close();
            }
        }
    });
    changed.then_some(new)
}

fn json_ui(ui: &mut Ui, level: &BoulderLevel, panel: &RulePanel, out: &mut Vec<RuleEvent>) {
    let wanted = panel.json_wanted(level);
    if panel.json_dirty() {
        let note = match (panel.json_for, &wanted) {
            (Some(t), Some((w, _))) if *w != t => Some(format!(
                "Unapplied text for {}: Apply writes it there, Revert loads {}.",
                t.label(),
                w.label()
            )),
            (_, Some((_, src))) if panel.json_source.as_deref() != Some(src.as_str()) => Some(
                "The rules changed since this text was loaded: Apply overwrites them, Revert reloads."
                    .to_string(),
            ),
            _ => None,
        };
        if let Some(n) = note {
            ui.label(RichText::new(n).color(WARN));
        }
    }
    let mut text = panel.json.clone();
    let r = ui.add(
        egui::TextEdit::multiline(&mut text)
            .code_editor()
            .desired_rows(14)
            .desired_width(f32::INFINITY),
    );
    let r = r.accessible_name(match panel.view {
        RuleView::AllJson => "all rules JSON text",
        _ => "rule JSON text",
    });
    if r.changed() {
        out.push(RuleEvent::JsonEdited(text));
    }
    ui.horizontal(|ui| {
        if ui
            .button("Apply JSON")
            .on_hover_text("Check the text and, when it is valid, replace the rule(s) with it (one undoable edit)")
            .clicked()
        {
            out.push(RuleEvent::ApplyJson);
        }
        if ui
            .button("Revert")
            .on_hover_text("Drop the edits and reload the text from the level")
            .clicked()
        {
            out.push(RuleEvent::RevertJson);
        }
        if panel.json_dirty() {
            ui.label(RichText::new("edited").color(WARN));
        }
    });
    for p in &panel.json_problems {
        let colour = if p.is_error() {
            Color32::from_rgb(255, 110, 110)
        } else {
            WARN
        };
        ui.label(RichText::new(p.render("json")).color(colour).monospace());
    }
}
