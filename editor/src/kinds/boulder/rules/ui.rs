//! The rule editor panel: the `pre` and `post` lists (select, add, duplicate, delete, reorder
//! by drag or arrows, switch off for the play session, breakpoints), the selected rule drawn as
//! strips of blocks in its direction, block editing, the JSON views, snippets, and the live
//! match count. Reads the level and [`RulePanel`]; pushes [`RuleEvent`]s.

use eframe::egui::{self, Color32, RichText, Sense, Ui, vec2};
use tilesmith_engine::Dir;
use tilesmith_engine::kind::boulder::analysis::{NeverMatches, Preview};
use tilesmith_engine::kind::boulder::{BoulderLevel, Rule, Situation};

use super::labels::{WARN, pattern_label, write_label};
use super::ui_blocks::{block_editor, strips_ui};
use super::ui_json::json_ui;
use super::{RuleList, RuleOp, RuleRef, snippets};
use crate::kinds::boulder::look;

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
    selection_header(ui, sel, panel, view, out);
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

/// The selected rule's header: its place, and with a preview the live match count and the
/// "Apply once" switch with the number of fields it changes.
fn selection_header(
    ui: &mut Ui,
    sel: RuleRef,
    panel: &RulePanel,
    view: RulesView<'_>,
    out: &mut Vec<RuleEvent>,
) {
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
}

/// A one-line, clickable list row whose text is cut with "…" at the panel's edge (so long
/// names never widen the panel); the selected row is highlighted.
pub fn select_row(ui: &mut Ui, selected: bool, text: RichText) -> egui::Response {
    select_row_in(ui, selected, text, egui::TextWrapMode::Truncate)
}

/// A clickable list row as [`select_row`], whose text is cut or wrapped (`wrap`) at the
/// panel's edge: the tick debugger wraps, so a rule's whole name shows.
pub fn select_row_in(
    ui: &mut Ui,
    selected: bool,
    text: RichText,
    wrap: egui::TextWrapMode,
) -> egui::Response {
    let full = text.text().to_string();
    let text = if selected {
        text.color(ui.visuals().selection.stroke.color)
    } else {
        text
    };
    let width = ui.available_width().max(20.0);
    let galley = egui::WidgetText::from(text).into_galley(
        ui,
        Some(wrap),
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

/// The explanation of a rule that can never match: which block needs which missing tokens.
fn never_text(nm: &NeverMatches) -> String {
    let names: Vec<&str> = nm.missing.iter().map(|t| t.name()).collect();
    format!(
        "(!) Can never match: block {} needs {}, which is on no field and which no rule or main rule creates.",
        nm.block,
        names.join(" or ")
    )
}

/// The note on a rule that does not run every tick (`rare`, input and meta situations).
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

/// The switch between the block view, the rule's JSON and the JSON of all rules.
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

/// Draws one rule list (`pre` or `post`): its header, one row per rule, and while a rule is
/// dragged a drop strip at its end.
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
    list_header(ui, list, rules.len(), view.playing, out);
    if rules.is_empty() {
        ui.label(RichText::new("  (no rules)").weak());
    }
    for (i, rule) in rules.iter().enumerate() {
        list_row(ui, panel, RuleRef::new(list, i), rule, view, out);
    }
    if view.playing || !egui::DragAndDrop::has_payload_of_type::<RuleRef>(ui.ctx()) {
        return;
    }
    list_end_drop(ui, list, rules.len(), out);
}

/// A list's header: its name and size, and (when not playing) the Add and Snippets buttons;
/// `len` is the list's length.
fn list_header(ui: &mut Ui, list: RuleList, len: usize, playing: bool, out: &mut Vec<RuleEvent>) {
    ui.horizontal(|ui| {
        ui.strong(format!("{} ({})", list.key(), len))
            .on_hover_text(match list {
                RuleList::Pre => "pre: run each tick before the main rules, in this order",
                RuleList::Post => "post: run each tick after the main rules, in this order",
            });
        ui.add_enabled_ui(!playing, |ui| {
            if ui
                .small_button(format!("+ Add {}", list.key()))
                .on_hover_text(format!("Add a rule at the end of {}", list.key()))
                .clicked()
            {
                out.push(RuleEvent::Op(RuleOp::Add(list)));
                out.push(RuleEvent::Select(Some(RuleRef::new(list, len))));
            }
            ui.menu_button(format!("Snippets {}", list.key()), |ui| {
                for (i, s) in snippets().iter().enumerate() {
                    if ui.button(s.title).on_hover_text(s.help).clicked() {
                        out.push(RuleEvent::Op(RuleOp::InsertSnippet(list, i)));
                        out.push(RuleEvent::Select(Some(RuleRef::new(list, len))));
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
}

/// The row of rule `r`; when not playing, a rule dragged onto it is moved before it.
fn list_row(
    ui: &mut Ui,
    panel: &RulePanel,
    r: RuleRef,
    rule: &Rule,
    view: RulesView<'_>,
    out: &mut Vec<RuleEvent>,
) {
    let (list, i) = (r.list, r.index);
    let row = ui.horizontal(|ui| row_widgets(ui, panel, r, rule, view, out));
    if view.playing {
        return;
    }
    if row.response.dnd_hover_payload::<RuleRef>().is_some() {
        // Where the dragged rule would go: before this row.
        let rect = row.response.rect;
        ui.painter().hline(
            rect.x_range(),
            rect.top(),
            egui::Stroke::new(2.0, Color32::from_rgb(120, 200, 255)),
        );
    }
    if let Some(from) = row.response.dnd_release_payload::<RuleRef>()
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

/// The widgets of rule `r`'s row: drag handle, on switch, breakpoint, never-matches warning
/// and the selectable summary.
fn row_widgets(
    ui: &mut Ui,
    panel: &RulePanel,
    r: RuleRef,
    rule: &Rule,
    view: RulesView<'_>,
    out: &mut Vec<RuleEvent>,
) {
    let (list, i) = (r.list, r.index);
    if view.playing {
        ui.label(RichText::new("::").weak());
    } else {
        ui.dnd_drag_source(ui.scope_id().with(("rule-drag", list.key(), i)), r, |ui| {
            ui.label("::").on_hover_text(
                "Drag to reorder (drop on a rule to put it before that rule, or on the list's end)",
            );
        });
    }
    rule_switches(ui, panel, r, out);
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
}

/// Rule `r`'s play-session switches: the on checkbox and the breakpoint dot.
fn rule_switches(ui: &mut Ui, panel: &RulePanel, r: RuleRef, out: &mut Vec<RuleEvent>) {
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
    let dot = RichText::new(if bp { "(B)" } else { "( )" })
        .monospace()
        .color(if bp {
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
}

/// While a rule is dragged: a strip below the list's rules that puts it at the end of `list`
/// (of length `len`).
fn list_end_drop(ui: &mut Ui, list: RuleList, len: usize, out: &mut Vec<RuleEvent>) {
    let (_, end) = ui.dnd_drop_zone::<RuleRef, ()>(egui::Frame::NONE, |ui| {
        ui.set_min_width(ui.available_width());
        ui.label(
            RichText::new(format!("drop here: end of {}", list.key()))
                .weak()
                .small(),
        );
    });
    if let Some(from) = end {
        let to = RuleRef::new(list, len);
        if *from != to {
            out.push(RuleEvent::Op(RuleOp::Move { from: *from, to }));
        }
    }
}

/// The block view of the selected rule: its buttons, name, situation, direction, strips and
/// block buttons, and the editor of the selected block.
fn rule_ui(ui: &mut Ui, rule: &Rule, sel: RuleRef, panel: &RulePanel, out: &mut Vec<RuleEvent>) {
    rule_actions(ui, sel, out);
    name_row(ui, rule, sel, out);
    situation_row(ui, rule, sel, out);
    direction_row(ui, rule, sel, out);
    ui.add_space(4.0);
    strips_ui(ui, rule, panel, out);
    block_buttons(ui, rule, sel, out);
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

/// The selected rule's buttons: Duplicate, Delete, Up, Down and "To" the other list.
fn rule_actions(ui: &mut Ui, sel: RuleRef, out: &mut Vec<RuleEvent>) {
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
}

/// The rule's name (a comment shown in the lists).
fn name_row(ui: &mut Ui, rule: &Rule, sel: RuleRef, out: &mut Vec<RuleEvent>) {
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
}

/// The rule's situation, with the sparsity of `rare`.
fn situation_row(ui: &mut Ui, rule: &Rule, sel: RuleRef, out: &mut Vec<RuleEvent>) {
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
}

/// The rule's direction: one button per compass direction.
fn direction_row(ui: &mut Ui, rule: &Rule, sel: RuleRef, out: &mut Vec<RuleEvent>) {
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
}

/// The buttons that add or remove a block pair at the front or the end of the rule.
fn block_buttons(ui: &mut Ui, rule: &Rule, sel: RuleRef, out: &mut Vec<RuleEvent>) {
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
}

/// The hover help of a direction: which lines it reads and in which order.
fn line_help(d: Dir) -> &'static str {
    match d {
        Dir::Right => "east: rows, read left to right",
        Dir::Left => "west: rows, read right to left",
        Dir::Up => "north: columns, read bottom to top",
        Dir::Down => "south: columns, read top to bottom",
    }
}
