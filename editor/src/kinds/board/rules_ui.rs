//! The Rules tab: the ZRF text in a code pane with line numbers, its problems marked at their
//! lines (the message written after the line, the line tinted), and where the text lives.
//!
//! Typing changes a buffer; after [`PAUSE`] seconds without typing (or when the pane loses
//! focus) the buffer becomes the design's rules as one undoable edit, and is compiled again.
//! While the text has errors, the board, pieces and brushes of the last rules that compiled
//! stay in use.

use std::collections::BTreeMap;

use eframe::egui::{self, Color32, RichText, Sense, Ui};
use tilesmith_engine::kind::board::zrf::ZrfProblem;

use super::{BoardAction, BoardDoc};
use crate::state::Action;
use crate::ui::code::{CodeLayout, LineMark, code_pane};

/// Seconds the text must rest before it is compiled.
pub const PAUSE: f64 = 0.6;

/// The colour of error marks.
const ERROR: Color32 = Color32::from_rgb(255, 110, 110);
/// The colour of warning marks.
const WARNING: Color32 = Color32::from_rgb(250, 200, 90);

/// The text being typed and when, between frames.
#[derive(Debug, Default)]
pub struct RulesPane {
    /// The text in the pane.
    buffer: String,
    /// The design's text the buffer was last in step with.
    synced: String,
    /// When the buffer was last typed in (seconds of UI time), while not yet committed.
    typed_at: Option<f64>,
    /// A line to scroll to (a problem was clicked).
    jump: Option<usize>,
    /// The document (`EditorState::doc_serial`) the buffer belongs to.
    serial: u64,
}

impl RulesPane {
    /// Scrolls the text to `line` (1-based) when it is next shown.
    pub fn jump_to(&mut self, line: usize) {
        self.jump = Some(line);
    }

    /// True while typed text waits for its pause before it is compiled.
    pub fn waiting(&self) -> bool {
        self.typed_at.is_some()
    }
}

/// The problems of each line, as the code pane marks it: red when any is an error, amber for
/// warnings only, the messages joined after the line.
fn marks(problems: &[ZrfProblem]) -> BTreeMap<usize, LineMark> {
    let mut m: BTreeMap<usize, (bool, Vec<String>)> = BTreeMap::new();
    for p in problems {
        let e = m.entry((p.span.line as usize).max(1)).or_default();
        e.0 |= !p.warning;
        e.1.push(p.message.clone());
    }
    m.into_iter()
        .map(|(line, (error, msgs))| {
            let color = if error { ERROR } else { WARNING };
            let note = Some(msgs.join("; "));
            (line, LineMark { color, note })
        })
        .collect()
}

/// Where the rules text lives and what saving does with it.
fn source_ui(ui: &mut Ui, d: &BoardDoc) {
    let r = &d.design().rest;
    match &r.link {
        Some(f) => {
            ui.label(RichText::new(format!("Rules file: {}", f.display())).strong());
            ui.label(
                RichText::new(
                    "Edits here are written to this file when the level is saved (Ctrl+S); the \
                     level refers to it by a path relative to the level's folder.",
                )
                .small(),
            );
        }
        None => {
            let from = r
                .file
                .as_ref()
                .map_or(String::new(), |f| format!(" (a copy of {f})"));
            ui.label(RichText::new(format!("Rules held in the level{from}")).strong());
            ui.label(RichText::new("Saving writes the text into the level file.").small());
        }
    }
}

/// The count of errors and warnings, and what the board shows meanwhile.
fn summary_ui(ui: &mut Ui, d: &BoardDoc, waiting: bool) {
    let problems = &d.design().problems;
    let errors = problems.iter().filter(|p| !p.warning).count();
    let warnings = problems.len() - errors;
    let (text, color) = if waiting {
        (
            "compiling after a pause in typing…".to_string(),
            Color32::GRAY,
        )
    } else if errors > 0 && d.design().rest.raw.is_some() {
        (
            format!("{errors} error(s), {warnings} warning(s): no board until the rules compile"),
            ERROR,
        )
    } else if errors > 0 {
        (
            format!(
                "{errors} error(s), {warnings} warning(s): the board shows the last rules that \
                 compiled ({})",
                d.design().board.rules.title
            ),
            ERROR,
        )
    } else if warnings > 0 {
        (format!("compiles, {warnings} warning(s)"), WARNING)
    } else {
        (
            format!("compiles: {}", d.design().board.rules.title),
            Color32::from_rgb(120, 220, 120),
        )
    };
    ui.label(RichText::new(text).color(color));
}

/// The problems under the pane, each at its line and column; a click shows the line.
fn problems_ui(ui: &mut Ui, problems: &[ZrfProblem], jump: &mut Option<usize>) {
    if problems.is_empty() {
        return;
    }
    ui.strong("Problems of the rules");
    for p in problems {
        let (word, color) = if p.warning {
            ("warning", WARNING)
        } else {
            ("error", ERROR)
        };
        let r = ui.add(
            egui::Label::new(
                RichText::new(format!(
                    "line {}, column {}: {word}: {}",
                    p.span.line, p.span.col, p.message
                ))
                .color(color),
            )
            .sense(Sense::click()),
        );
        if r.on_hover_text("click to show the line").clicked() {
            *jump = Some((p.span.line as usize).max(1));
        }
    }
}

/// The Rules text page.
pub fn rules_ui(
    ui: &mut Ui,
    (d, serial): (&BoardDoc, u64),
    pane: &mut RulesPane,
    out: &mut Vec<Action>,
) {
    let text = &d.design().rest.text;
    if pane.serial != serial {
        // Another document: text typed for the previous one is dropped.
        pane.serial = serial;
        pane.typed_at = None;
        pane.synced.clear();
    }
    if pane.typed_at.is_none() && pane.synced != *text {
        pane.buffer.clone_from(text);
        pane.synced.clone_from(text);
    }
    source_ui(ui, d);
    summary_ui(ui, d, pane.waiting());
    let playing = d.play.is_some();
    if playing {
        ui.label(RichText::new("Stop playing (F5) to edit the rules.").weak());
    }
    let now = ui.input(|i| i.time);
    let mut lost_focus = false;
    egui::ScrollArea::both()
        .id_salt("zrf")
        .max_height((ui.available_height() - 120.0).max(240.0))
        .show(ui, |ui| {
            ui.add_enabled_ui(!playing, |ui| {
                let layout = CodeLayout {
                    name: "rules text",
                    rows: 32,
                    wrap: false,
                };
                let marks = marks(&d.design().problems);
                let r = code_pane(ui, &mut pane.buffer, &marks, &mut pane.jump, layout)
                    .response
                    .response
                    .accessible_name("rules text");
                if r.changed() {
                    pane.typed_at = Some(now);
                }
                lost_focus = r.lost_focus();
            });
        });
    if let Some(t) = pane.typed_at {
        if now - t >= PAUSE || lost_focus {
            out.push(Action::from(BoardAction::SetRules(pane.buffer.clone())));
            pane.synced.clone_from(&pane.buffer);
            pane.typed_at = None;
        } else {
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_secs_f64(PAUSE));
        }
    }
    problems_ui(ui, &d.design().problems, &mut pane.jump);
}
