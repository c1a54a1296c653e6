//! The side panels: menu bar and toolbar, palette and replace-all, cell inspector, level
//! properties, history list, problems list and status bar. Each reads the state and pushes
//! actions.

use eframe::egui::{self, Color32, RichText, Sense, Ui, vec2};
use tilesmith_engine::Severity;

use super::commands::Command;
use crate::doc::ui::KindUi;
use crate::state::{Action, EditorState, MapAction, Pane, PlayAction, problem_cell};
use crate::tools::Tool;

/// Widget buffers of the panels that are not part of the document (what is typed before
/// pressing a button).
#[derive(Clone, Debug)]
pub struct PanelState {
    /// Width typed in the resize fields.
    pub resize_w: usize,
    /// Height typed in the resize fields.
    pub resize_h: usize,
    /// Resize anchor (0–2, 0–2).
    pub anchor: (u8, u8),
    /// The level size the resize fields were last synced to.
    synced: (usize, usize),
    /// The history entry marked current when the history list was last drawn (it is
    /// scrolled into view when this changes).
    history_current: Option<usize>,
}

impl Default for PanelState {
    fn default() -> Self {
        Self {
            resize_w: 0,
            resize_h: 0,
            anchor: (1, 1),
            synced: (0, 0),
            history_current: None,
        }
    }
}

fn command_button(ui: &mut Ui, c: Command, st: &EditorState, out: &mut Vec<Action>) {
    let r = ui.add_enabled(
        c.available(st),
        egui::Button::new(c.label()).shortcut_text(c.shortcut_text()),
    );
    if r.clicked() {
        out.push(c.action(st));
        ui.close();
    }
}

/// The menu bar.
pub fn menu_ui(ui: &mut Ui, st: &EditorState, out: &mut Vec<Action>) {
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("File", |ui| {
            command_button(ui, Command::New, st, out);
            ui.menu_button("New level of kind", |ui| {
                for k in st.kinds.iter() {
                    if ui.button(k.name).on_hover_text(k.about).clicked() {
                        out.push(Action::NewOf(k.name));
                        ui.close();
                    }
                }
            });
            campaign_menu(ui, st, out);
            command_button(ui, Command::Open, st, out);
            // One "Import …" item per file format a kind imports (falling: FPGDL programs).
            for t in st.kinds.file_types() {
                let Some(about) = t.import_about else {
                    continue;
                };
                if ui
                    .button(format!("Import {}…", t.word))
                    .on_hover_text(about)
                    .clicked()
                {
                    out.push(Action::Open);
                    ui.close();
                }
            }
            ui.menu_button("Open recent", |ui| {
                if st.settings.recent.is_empty() {
                    ui.label("(none)");
                }
                for p in &st.settings.recent {
                    if ui.button(p.display().to_string()).clicked() {
                        out.push(Action::OpenPath(p.clone()));
                        ui.close();
                    }
                }
            });
            for c in [
                Command::Save,
                Command::SaveAs,
                Command::ExportPng,
                Command::Quit,
            ] {
                command_button(ui, c, st, out);
            }
        });
        ui.menu_button("Edit", |ui| {
            for c in [
                Command::Undo,
                Command::Redo,
                Command::Copy,
                Command::Cut,
                Command::Paste,
                Command::Delete,
                Command::SelectAll,
                Command::SelectNone,
                Command::Replace,
            ] {
                command_button(ui, c, st, out);
            }
        });
        ui.menu_button("View", |ui| {
            for c in [
                Command::ZoomIn,
                Command::ZoomOut,
                Command::Fit,
                Command::Grid,
            ] {
                command_button(ui, c, st, out);
            }
            ui.separator();
            let s = &st.settings;
            for (c, on) in [
                (Command::PalettePanel, s.show_palette),
                (Command::SidePanel, s.show_side),
                (Command::ProblemsPanel, s.show_problems),
            ] {
                let b = egui::Button::new(c.label())
                    .selected(on)
                    .shortcut_text(c.shortcut_text());
                if ui.add(b).on_hover_text(c.about()).clicked() {
                    out.push(c.action(st));
                    ui.close();
                }
            }
        });
        ui.menu_button("Play", |ui| {
            command_button(ui, Command::PlayToggle, st, out);
        });
        ui.menu_button("Help", |ui| {
            command_button(ui, Command::Shortcuts, st, out);
        });
    });
}

/// The campaign entries of the File menu: New campaign…, and the open campaign's overview
/// and Close.
fn campaign_menu(ui: &mut Ui, st: &EditorState, out: &mut Vec<Action>) {
    use crate::campaign::CampaignAction;
    if ui
        .button("New campaign…")
        .on_hover_text(
            "A set of levels played in order, unlocked by points (asks where to save it)",
        )
        .clicked()
    {
        out.push(CampaignAction::New.into());
        ui.close();
    }
    if st.campaign.is_some() {
        if ui
            .add_enabled(
                !st.showing_overview(),
                egui::Button::new("Campaign overview"),
            )
            .clicked()
        {
            out.push(CampaignAction::Show.into());
            ui.close();
        }
        if ui.button("Close campaign").clicked() {
            out.push(CampaignAction::Close.into());
            ui.close();
        }
    }
}

/// The grid tools and the rectangle's "filled" switch (for a kind with a grid).
fn grid_tools_ui(ui: &mut Ui, st: &EditorState, out: &mut Vec<Action>) {
    for t in Tool::ALL {
        if ui
            .selectable_label(st.tool == t, t.name())
            .on_hover_text(t.tooltip())
            .clicked()
        {
            out.push(Action::SelectTool(t));
        }
    }
    let mut filled = st.rect_filled;
    if ui
        .checkbox(&mut filled, "filled")
        .on_hover_text("Rectangles are filled (on) or outlines (off)")
        .changed()
    {
        out.push(Action::SetRectFilled(filled));
    }
    ui.separator();
}

/// Zoom, Fit and the grid switch (for a kind with a grid).
fn zoom_ui(ui: &mut Ui, st: &EditorState, out: &mut Vec<Action>) {
    if ui.button("-").on_hover_text("Zoom out (-)").clicked() {
        out.push(Action::ZoomOut);
    }
    ui.label(format!("{:.0} px", st.view.zoom));
    if ui.button("+").on_hover_text("Zoom in (+)").clicked() {
        out.push(Action::ZoomIn);
    }
    if ui.button("Fit").on_hover_text("Fit the map (0)").clicked() {
        out.push(Action::Fit);
    }
    let mut grid = st.settings.grid;
    if ui
        .checkbox(&mut grid, "grid")
        .on_hover_text("Show the grid (G)")
        .changed()
    {
        out.push(Action::ToggleGrid);
    }
}

/// The toolbar: tools, undo/redo, zoom, grid, play.
pub fn toolbar_ui(ui: &mut Ui, st: &EditorState, out: &mut Vec<Action>) {
    // A kind without a grid draws its canvas itself: no grid tools, zoom or grid lines.
    let grid_kind = st.doc.has_grid();
    ui.horizontal_wrapped(|ui| {
        if grid_kind {
            grid_tools_ui(ui, st, out);
        }
        let map = st.doc.map();
        let playing = st.playing();
        let (can_undo, can_redo) = (
            !playing && !map.done_names().is_empty(),
            !playing && !map.undone_names().is_empty(),
        );
        if ui
            .add_enabled(can_undo, egui::Button::new("Undo"))
            .on_hover_text("Undo (Ctrl+Z)")
            .clicked()
        {
            out.push(Action::Map(MapAction::Undo));
        }
        if ui
            .add_enabled(can_redo, egui::Button::new("Redo"))
            .on_hover_text("Redo (Ctrl+Shift+Z or Ctrl+Y)")
            .clicked()
        {
            out.push(Action::Map(MapAction::Redo));
        }
        ui.separator();
        if grid_kind {
            zoom_ui(ui, st, out);
            ui.separator();
        }
        if !st.playing() {
            if ui
                .button(RichText::new("Start playing").strong())
                .on_hover_text("Play the current map in a separate session (F5)")
                .clicked()
            {
                out.push(Action::Play(PlayAction::Start));
            }
        } else {
            if ui
                .button(RichText::new("Stop playing").strong())
                .on_hover_text("Back to the design, unchanged (F5)")
                .clicked()
            {
                out.push(Action::Play(PlayAction::Stop));
            }
            play_badge(ui, st);
        }
    });
}

/// The badge that says a game is played (the canvas has the same orange frame), or that its
/// step computes (Esc cancels the step then).
fn play_badge(ui: &mut Ui, st: &EditorState) {
    let badge = if st.step_busy().is_some() {
        super::canvas::PLAY_BADGE_BUSY
    } else {
        super::canvas::PLAY_BADGE
    };
    egui::Frame::new()
        .fill(super::canvas::PLAY_FRAME)
        .inner_margin(egui::vec2(8.0, 2.0))
        .corner_radius(4.0)
        .show(ui, |ui| {
            ui.add(
                egui::Label::new(RichText::new(badge).strong().color(egui::Color32::BLACK))
                    .selectable(false),
            );
        });
}

/// The size fields (1 to `max_side`), the anchor grid and the Resize button, for a map of
/// `size` cells.
pub fn resize_ui(
    ui: &mut Ui,
    (size, max_side): ((usize, usize), usize),
    ps: &mut PanelState,
    out: &mut Vec<Action>,
) {
    if ps.synced != size {
        ps.synced = size;
        ps.resize_w = size.0;
        ps.resize_h = size.1;
    }
    ui.horizontal(|ui| {
        ui.label("size");
        ui.add(egui::DragValue::new(&mut ps.resize_w).range(1..=max_side))
            .accessible_name("new width");
        ui.label("×");
        ui.add(egui::DragValue::new(&mut ps.resize_h).range(1..=max_side))
            .accessible_name("new height");
    });
    ui.horizontal(|ui| {
        ui.label("anchor");
        egui::Grid::new("anchor")
            .spacing(vec2(2.0, 2.0))
            .show(ui, |ui| {
                for ay in 0..3u8 {
                    for ax in 0..3u8 {
                        let on = ps.anchor == (ax, ay);
                        if ui
                            .selectable_label(on, if on { "X" } else { "o" })
                            .on_hover_text("the part of the map that stays in place")
                            .clicked()
                        {
                            ps.anchor = (ax, ay);
                        }
                    }
                    ui.end_row();
                }
            });
        if ui.button("Resize").clicked() {
            out.push(Action::Map(MapAction::Resize {
                width: ps.resize_w,
                height: ps.resize_h,
                anchor: ps.anchor,
            }));
        }
    });
}

/// The history list (`done`: the applied edits, oldest first; `undone`: the next to redo
/// first): click an entry to undo or redo up to it. When the current entry (the last edit
/// applied) changes, the list scrolls so it is in view.
pub fn history_ui(
    ui: &mut Ui,
    (done, undone, trimmed): (&[&str], &[&str], usize),
    ps: &mut PanelState,
    out: &mut Vec<Action>,
) {
    ui.heading("History");
    let follow = ps.history_current != Some(done.len());
    ps.history_current = Some(done.len());
    let follow_me = |r: &egui::Response| {
        if follow {
            r.scroll_to_me(None);
        }
    };
    egui::ScrollArea::vertical()
        .id_salt("history")
        .max_height(220.0)
        .show(ui, |ui| {
            // Edits dropped to keep the history within its memory budget cannot be undone:
            // the first entry is then the oldest state still reachable.
            let first = if trimmed == 0 {
                "(opened)".to_string()
            } else {
                format!("({trimmed} older edit(s) dropped to save memory)")
            };
            let r = ui.selectable_label(done.is_empty(), first);
            if done.is_empty() {
                follow_me(&r);
            }
            if r.clicked() {
                out.push(Action::Map(MapAction::HistoryGoTo(0)));
            }
            for (i, n) in done.iter().enumerate() {
                let r = ui.selectable_label(i + 1 == done.len(), *n);
                if i + 1 == done.len() {
                    follow_me(&r);
                }
                if r.clicked() {
                    out.push(Action::Map(MapAction::HistoryGoTo(i + 1)));
                }
            }
            for (j, n) in undone.iter().enumerate() {
                if ui
                    .selectable_label(false, RichText::new(*n).weak().italics())
                    .clicked()
                {
                    out.push(Action::Map(MapAction::HistoryGoTo(done.len() + j + 1)));
                }
            }
        });
}

/// The problems list with click-to-locate.
///
/// The list fills the panel whatever the number of problems (it scrolls when they do not
/// fit), so a change of the list never changes the panel's height or moves the map.
pub fn problems_ui(ui: &mut Ui, st: &EditorState, out: &mut Vec<Action>) {
    ui.horizontal(|ui| {
        let total: usize = st
            .problems
            .iter()
            .map(|p| p.more_count().unwrap_or(1))
            .sum();
        ui.strong(format!("Problems ({total})"));
        ui.label(RichText::new("saving work in progress is always allowed").weak());
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            super::widgets::hide_button(ui, Pane::Problems, Command::ProblemsPanel, out);
        });
    });
    egui::ScrollArea::both()
        .id_salt("problems")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            if st.problems.is_empty() {
                ui.label("No problems.");
            }
            for p in &st.problems {
                if p.more_count().is_some() {
                    // The cap's last line (`… and N more problems`), as `tilesmith check` ends.
                    ui.label(RichText::new(&p.message).weak());
                    continue;
                }
                let (word, color) = match p.severity {
                    Severity::Error => ("error", Color32::from_rgb(255, 90, 90)),
                    Severity::Warning => ("warning", Color32::from_rgb(255, 200, 80)),
                };
                let cell = problem_cell(p);
                let text = format!(
                    "{word}: {} (at {}){}",
                    p.message,
                    p.path,
                    cell.map_or(String::new(), |c| format!(" — cell {}, {}", c.x, c.y))
                );
                let r = ui
                    .add(egui::Label::new(RichText::new(text).color(color)).sense(Sense::click()));
                if let Some(c) = cell
                    && r.on_hover_text("click to show the cell").clicked()
                {
                    out.push(Action::Locate(c));
                }
            }
        });
}

/// The status bar: the hovered cell (as the kind describes it), the status message.
pub fn status_ui(ui: &mut Ui, st: &EditorState, kind: &dyn KindUi) {
    ui.horizontal(|ui| {
        // While a step computes the game is away: no cell to describe.
        let hover = st.hover.filter(|_| st.step_busy().is_none());
        match hover.and_then(|p| kind.describe_cell(st, p).map(|t| (p, t))) {
            Some((p, text)) => {
                match kind.cell_place(st, p) {
                    Some(place) => ui.monospace(format!("{place}: {text}")),
                    None => ui.monospace(text),
                };
                if let Some(extra) = kind.cell_note(st, p) {
                    ui.separator();
                    ui.label(extra);
                }
            }
            None => {
                ui.monospace(kind.level_summary(st));
            }
        }
        ui.separator();
        // A long message (a path) is cut at the window's edge with "…"; hovering shows it
        // whole (it ran past the window: issue #31 defect 9).
        ui.add(egui::Label::new(&st.status).truncate());
    });
}
