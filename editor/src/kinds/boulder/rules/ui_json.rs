//! The rule panel's JSON views (one rule, or both lists): the text editor, the Apply and
//! Revert buttons, the note about unapplied or stale text, and the located problems.

use std::collections::BTreeMap;

use eframe::egui::{Color32, RichText, Ui};
use tilesmith_engine::kind::boulder::BoulderLevel;

use super::labels::WARN;
use super::panel::{RuleEvent, RulePanel, RuleView};
use crate::ui::code::{CodeLayout, LineMark, code_pane};

/// Draws the JSON view of the panel (one rule or all rules) and pushes its events.
pub(super) fn json_ui(
    ui: &mut Ui,
    level: &BoulderLevel,
    panel: &RulePanel,
    out: &mut Vec<RuleEvent>,
) {
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
    // The shared code pane: line numbers, and the problems' lines marked in their colours.
    let mut marks: BTreeMap<usize, LineMark> = BTreeMap::new();
    for p in panel.json_problems.iter().rev() {
        if let Some(line) = p.line {
            let color = problem_colour(p.is_error());
            marks.insert(line, LineMark { color, note: None });
        }
    }
    let layout = CodeLayout {
        name: match panel.view {
            RuleView::AllJson => "all rules JSON text",
            _ => "rule JSON text",
        },
        rows: 14,
        wrap: true,
    };
    let r = code_pane(ui, &mut text, &marks, &mut None, layout)
        .response
        .response;
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
        let colour = problem_colour(p.is_error());
        ui.label(RichText::new(p.render("json")).color(colour).monospace());
    }
}

/// The colour of an error (red) or a warning.
fn problem_colour(error: bool) -> Color32 {
    if error {
        Color32::from_rgb(255, 110, 110)
    } else {
        WARN
    }
}
