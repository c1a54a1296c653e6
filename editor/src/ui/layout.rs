//! The panels round the map: the palette on the left, the side panel (Cell & level, Rules,
//! Play pane) on the right, the problems list above the status bar, and the canvas in the
//! middle.
//!
//! Layout rules (issue 14): each panel keeps its size whatever it shows. The side panel is
//! one panel for every page, so switching pages changes neither its width nor the canvas;
//! contents that are wider or taller than a panel scroll inside it instead of growing it. A
//! panel is resized by dragging its inner edge, which carries a visible grip, and hidden or
//! shown from the View menu, its shortcut, or its own button (a hidden side panel leaves a
//! narrow strip with a button that brings it back). Sizes are egui panel state, which eframe
//! keeps between runs; whether a panel is shown is in the settings file.

use eframe::egui::{self, Color32, CornerRadius, Rect, RichText, Ui, pos2, vec2};

use super::commands::Command;
use super::panels;
use super::ui_state::UiState;
use super::widgets::hide_button;
use crate::state::{Action, EditorState, Pane, SideTab};

/// The width of a hidden side panel's strip, in points.
pub const STRIP_WIDTH: f32 = 26.0;

/// The first width of the palette (before the user resizes it) for a window `window` points
/// wide: a sixth of it, from 150 to 200 points.
pub fn palette_width(window: f32) -> f32 {
    (window / 6.0).clamp(150.0, 200.0)
}

/// The first width of the side panel for a window `window` points wide: 30 % of it, from 260
/// to 360 points. At 1024 points this leaves about 540 points for the map.
pub fn side_width(window: f32) -> f32 {
    (window * 0.3).clamp(260.0, 360.0)
}

/// The first height of the problems list, in points.
pub const PROBLEMS_HEIGHT: f32 = 96.0;

/// Which edge of a panel is its resize edge (where the grip is drawn).
#[derive(Clone, Copy, Debug)]
enum Edge {
    Right,
    Left,
    Top,
}

/// Draws the problems list, the palette, the side panel and the canvas (the top and status
/// bars are already drawn), then the grips of the resize edges.
pub fn panels_and_canvas(ui: &mut Ui, st: &EditorState, us: &mut UiState, out: &mut Vec<Action>) {
    let window = ui.ctx().content_rect().width();
    let mut grips = Vec::new();
    if st.settings.show_problems {
        let r = egui::Panel::bottom("problems")
            .resizable(true)
            .default_size(PROBLEMS_HEIGHT)
            .min_size(48.0)
            .show(ui, |ui| panels::problems_ui(ui, st, out));
        grips.push((r.response.rect, Edge::Top));
    }
    if st.settings.show_palette {
        let r = egui::Panel::left("palette")
            .resizable(true)
            .default_size(palette_width(window))
            .min_size(110.0)
            .show(ui, |ui| {
                panel_header(ui, "Palette", Pane::Palette, Command::PalettePanel, out);
                let width = ui.available_width();
                egui::ScrollArea::both()
                    .id_salt("palette-scroll")
                    .auto_shrink([false, false])
                    .show(ui, |ui| {
                        // Laid out at the panel's width, so rows wrap there (issue #31 defect
                        // 9); a row that cannot wrap scrolls rather than widening the panel.
                        ui.set_max_width(width);
                        us.kind.palette_ui(ui, st, out);
                    });
            });
        grips.push((r.response.rect, Edge::Right));
    } else {
        strip(ui, Pane::Palette, out);
    }
    // Play stopped: the play pane's shared tools stop their workers, even when the side
    // panel is hidden or shows the Rules tab.
    if !st.playing() {
        us.play_tools.idle();
    }
    if st.settings.show_side {
        let r = side_panel(ui, st, us, window, out);
        grips.push((r, Edge::Left));
    } else {
        strip(ui, Pane::Side, out);
    }
    egui::CentralPanel::default()
        .frame(egui::Frame::NONE)
        .show(ui, |ui| {
            super::canvas::canvas_ui(ui, st, &mut us.canvas, us.kind.as_mut(), out);
        });
    // Drawn last, so over the panels' contents and the canvas.
    for (rect, edge) in grips {
        paint_grip(ui, rect, edge);
    }
}

/// A small pill across the middle of a panel's resize edge, so the edge shows that it can be
/// dragged (egui lights the edge only under the pointer).
fn paint_grip(ui: &Ui, rect: Rect, edge: Edge) {
    let color = ui
        .visuals()
        .widgets
        .inactive
        .fg_stroke
        .color
        .gamma_multiply(0.8);
    let (len, thick) = (36.0, 4.0);
    let c = rect.center();
    let pill = match edge {
        Edge::Right => Rect::from_center_size(pos2(rect.max.x - 1.0, c.y), vec2(thick, len)),
        Edge::Left => Rect::from_center_size(pos2(rect.min.x + 1.0, c.y), vec2(thick, len)),
        Edge::Top => Rect::from_center_size(pos2(c.x, rect.min.y + 1.0), vec2(len, thick)),
    };
    ui.painter().rect_filled(pill, CornerRadius::same(2), color);
}

/// The label of the button of a hidden panel's strip.
fn show_label(pane: Pane) -> &'static str {
    match pane {
        Pane::Palette => "»",
        Pane::Side => "«",
        Pane::Problems => "Problems",
    }
}

/// A panel's title row: its name, and the button that hides it at the right.
fn panel_header(ui: &mut Ui, title: &str, pane: Pane, c: Command, out: &mut Vec<Action>) {
    ui.horizontal(|ui| {
        ui.strong(title);
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            hide_button(ui, pane, c, out);
        });
    });
}

/// The narrow strip a hidden side panel leaves: a button that shows it again.
fn strip(ui: &mut Ui, pane: Pane, out: &mut Vec<Action>) {
    let (panel, c) = match pane {
        Pane::Palette => (egui::Panel::left("palette-strip"), Command::PalettePanel),
        _ => (egui::Panel::right("side-strip"), Command::SidePanel),
    };
    panel
        .exact_size(STRIP_WIDTH)
        .resizable(false)
        .show(ui, |ui| {
            let what = c.label().to_lowercase();
            if ui
                .small_button(show_label(pane))
                .on_hover_text(format!("Show the {what} ({})", c.shortcut_text()))
                .clicked()
            {
                out.push(Action::ShowPane(pane, Some(true)));
            }
        });
}

/// The right-hand side panel: the Main page (inspector, properties, resize, history; while
/// playing the play pane) or the Rules page, both drawn by the kind. One panel (one width)
/// for every page. Returns the panel's rectangle.
fn side_panel(
    ui: &mut Ui,
    st: &EditorState,
    us: &mut UiState,
    window: f32,
    out: &mut Vec<Action>,
) -> Rect {
    let rules_tab = st.side_tab == SideTab::Rules;
    egui::Panel::right("side")
        .resizable(true)
        .default_size(side_width(window))
        .min_size(200.0)
        .show(ui, |ui| {
            side_tabs(ui, st, us, out);
            ui.separator();
            let width = ui.available_width();
            egui::ScrollArea::both()
                .id_salt(if rules_tab { "rules-scroll" } else { "side-scroll" })
                .auto_shrink([false, false])
                .show(ui, |ui| {
                    // At the panel's width, as the palette: rows wrap there.
                    ui.set_max_width(width);
                    if rules_tab {
                        us.kind.rules_ui(ui, st, out);
                    } else if let Some(busy) = st.step_busy() {
                        super::step_ui::busy_panel(ui, &busy, out);
                    } else if st.playing() {
                        if let Some(note) = st.doc.play().and_then(|p| p.trimmed_note()) {
                            ui.label(RichText::new(note).color(ui.visuals().warn_fg_color))
                                .on_hover_text("The undo history of a game is kept within a memory budget (docs/reliability.md); Restart still returns to the start");
                        }
                        crate::play::prepare(ui.ctx(), st, &mut us.play_tools);
                        us.kind.play_ui(ui, st, out);
                        crate::play::play_tools_ui(ui, st, &mut us.play_tools, out);
                        us.kind.play_footer_ui(ui, st, out);
                    } else {
                        us.play_tools.idle();
                        design_page(ui, st, us, out);
                    }
                });
        })
        .response
        .rect
}

/// The tab row of the side panel, with the button that hides the panel at its right.
fn side_tabs(ui: &mut Ui, st: &EditorState, us: &UiState, out: &mut Vec<Action>) {
    ui.horizontal(|ui| {
        let main = if st.playing() {
            "Play pane"
        } else {
            "Cell & level"
        };
        for (tab, label, help) in [
            (
                SideTab::Main,
                main,
                "The cell inspector, level properties and history (while playing: the play pane)",
            ),
            (SideTab::Rules, "Rules", us.kind.rules_help()),
        ] {
            if ui
                .selectable_label(st.side_tab == tab, RichText::new(label).heading())
                .on_hover_text(help)
                .clicked()
                && st.side_tab != tab
            {
                out.push(Action::SideTab(tab));
            }
        }
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            hide_button(ui, Pane::Side, Command::SidePanel, out);
        });
    });
}

/// The Main page while designing: the kind's inspector and properties, the resize fields and
/// the history list.
fn design_page(ui: &mut Ui, st: &EditorState, us: &mut UiState, out: &mut Vec<Action>) {
    us.kind.design_ui(ui, st, out);
    let map = st.doc.map();
    match map.fixed_size() {
        // A level that is not a grid has no size to show (its kind says what it is).
        _ if !st.doc.has_grid() => {}
        Some(why) => {
            ui.label(RichText::new(why).weak());
        }
        None => {
            let size = (map.size(), map.limits().0);
            panels::resize_ui(ui, size, &mut us.panels, out);
        }
    }
    ui.separator();
    let (done, undone) = (map.done_names(), map.undone_names());
    panels::history_ui(
        ui,
        (&done, &undone, map.history_trimmed()),
        &mut us.panels,
        out,
    );
}

/// The colour of a hidden problems list's button in the status bar: the colour of the worst
/// problem (none: the normal text colour).
pub fn problems_color(st: &EditorState) -> Option<Color32> {
    if st.problems.iter().any(|p| p.is_error()) {
        Some(Color32::from_rgb(255, 90, 90))
    } else if st.problems.is_empty() {
        None
    } else {
        Some(Color32::from_rgb(255, 200, 80))
    }
}
