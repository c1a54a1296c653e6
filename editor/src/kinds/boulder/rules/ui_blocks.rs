//! The rule panel's block views: the `original` and `result` strips of the selected rule
//! (with their value chips and copy links), the editor of the selected block, and the
//! editor of a block's values.

use eframe::egui::{self, Color32, Painter, RichText, Sense, Ui, vec2};
use tilesmith_engine::Dir;
use tilesmith_engine::kind::boulder::{
    Global, Pattern, Rule, Token, TokenPattern, TokenWrite, ValueKey, ValueName, Write,
};

use super::labels::{WARN, pattern_label, value_help, write_label};
use super::panel::{RuleEvent, RulePanel, Side};
use super::{RuleOp, RuleRef};
use crate::kinds::boulder::look;

/// The height of a block's body (token label and number), above its value chips.
const BODY_H: f32 = 44.0;

/// Every value name a block can test or change: the field values, then the globals.
fn all_value_names() -> Vec<ValueName> {
    ValueKey::ALL
        .iter()
        .map(|k| ValueName::Field(*k))
        .chain(Global::ALL.iter().map(|g| ValueName::Global(*g)))
        .collect()
}

/// The `original` and `result` strips, laid out in the rule's direction (east: left to right,
/// west: right to left, south: top to bottom, north: bottom to top), with a line from each
/// result block that copies a token to the original block it copies.
pub(super) fn strips_ui(ui: &mut Ui, rule: &Rule, panel: &RulePanel, out: &mut Vec<RuleEvent>) {
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

/// A block's label, values and body colour, read from its side of the rule.
fn block_look(rule: &Rule, side: Side, k: usize) -> (String, &[(ValueName, i64)], Color32) {
    match side {
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
    }
}

/// Draws one block (body, outline, number, label, value chips); returns its response and
/// tooltip.
fn block_ui(
    ui: &mut Ui,
    rule: &Rule,
    side: Side,
    k: usize,
    selected: bool,
    width: f32,
) -> (egui::Response, String) {
    let (label, values, colour) = block_look(rule, side, k);
    let height = BODY_H + 14.0 * values.len() as f32 + 2.0;
    let (rect, resp) = ui.allocate_exact_size(vec2(width, height), Sense::click());
    let side_name = match side {
        Side::Original => "original",
        Side::Result => "result",
    };
    let access = format!("{side_name} block {k}: {label}");
    resp.widget_info(|| egui::WidgetInfo::selected(egui::Role::Button, true, selected, &access));
    let p = ui.painter();
    paint_block_body(p, rect, colour, selected, k, &label, width);
    let mut tip = block_tip(side, k, &label);
    let chip_tip = value_chips(p, &resp, rect, side, values, &mut tip);
    // Over a value chip, the tooltip explains just that value.
    (resp, chip_tip.unwrap_or(tip))
}

/// Paints a block's body in `colour`, its outline (bright when selected), its number and
/// its label.
fn paint_block_body(
    p: &Painter,
    rect: egui::Rect,
    colour: Color32,
    selected: bool,
    k: usize,
    label: &str,
    width: f32,
) {
    let body = egui::Rect::from_min_size(rect.min, vec2(rect.width(), BODY_H));
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
}

/// The tooltip of a block's token: what the original block matches or the result writes.
fn block_tip(side: Side, k: usize, label: &str) -> String {
    match (side, label) {
        (Side::Result, l) if l.starts_with('=') => format!(
            "result block {k}: copy the token of original block {} (as it was before this match)",
            &l[1..]
        ),
        (Side::Original, "*") => format!("original block {k}: any token"),
        (Side::Original, l) if l.starts_with('#') => {
            format!("original block {k}: a number never matches a field")
        }
        (Side::Original, l) => format!("original block {k}: one of {l}"),
        (Side::Result, l) => format!("result block {k}: write {l}"),
    }
}

/// Paints a block's value chips below its body and adds each value's help to `tip`; returns
/// the help of the chip under the pointer.
fn value_chips(
    p: &Painter,
    resp: &egui::Response,
    rect: egui::Rect,
    side: Side,
    values: &[(ValueName, i64)],
    tip: &mut String,
) -> Option<String> {
    let mut chip_tip = None;
    for (i, (name, n)) in values.iter().enumerate() {
        let y = rect.min.y + BODY_H + 1.0 + 14.0 * i as f32;
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
    chip_tip
}

/// Draws the editor of the selected block (`side`, `k`) of the rule and pushes its ops.
pub(super) fn block_editor(
    ui: &mut Ui,
    rule: &Rule,
    sel: RuleRef,
    side: Side,
    k: usize,
    out: &mut Vec<RuleEvent>,
) {
    match side {
        Side::Original => {
            if let Some(p) = rule.original.get(k) {
                original_editor(ui, p, sel, k, out);
            }
        }
        Side::Result => {
            if let Some(w) = rule.result.get(k) {
                result_editor(ui, rule, w, sel, k, out);
            }
        }
    }
}

/// Edits original block `k`: "any token" or a set of alternatives, and its values.
fn original_editor(ui: &mut Ui, p: &Pattern, sel: RuleRef, k: usize, out: &mut Vec<RuleEvent>) {
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
                extra: p.extra.clone(),
            },
        }));
    }
    if let TokenPattern::OneOf(ts) = &p.token {
        one_of_editor(ui, p, ts, sel, k, out);
    }
    if let TokenPattern::Index(_) = p.token {
        ui.label(RichText::new("A number in an original block never matches a field.").color(WARN));
    }
    if let Some(values) = values_editor(ui, Side::Original, &p.values) {
        out.push(RuleEvent::Op(RuleOp::SetPattern {
            rule: sel,
            block: k,
            pattern: Pattern {
                token: p.token.clone(),
                values,
                extra: p.extra.clone(),
            },
        }));
    }
}

/// One checkbox per token for an original block's alternatives `ts` (never leaves it empty).
fn one_of_editor(
    ui: &mut Ui,
    p: &Pattern,
    ts: &[Token],
    sel: RuleRef,
    k: usize,
    out: &mut Vec<RuleEvent>,
) {
    ui.label(RichText::new("one of (tick several for alternatives):").weak());
    ui.horizontal_wrapped(|ui| {
        for t in Token::ALL {
            let mut on = ts.contains(t);
            if ui.checkbox(&mut on, t.name()).changed() {
                let mut new: Vec<Token> = ts.iter().copied().filter(|x| x != t).collect();
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
                            extra: p.extra.clone(),
                        },
                    }));
                }
            }
        }
    });
}

/// Edits result block `k` (`w`): the token it writes or the original block it copies, and
/// its values.
fn result_editor(
    ui: &mut Ui,
    rule: &Rule,
    w: &Write,
    sel: RuleRef,
    k: usize,
    out: &mut Vec<RuleEvent>,
) {
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
                extra: w.extra.clone(),
            },
        }));
    }
    if let Some(values) = values_editor(ui, Side::Result, &w.values) {
        out.push(RuleEvent::Op(RuleOp::SetWrite {
            rule: sel,
            block: k,
            write: Write {
                token: w.token,
                values,
                extra: w.extra.clone(),
            },
        }));
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
