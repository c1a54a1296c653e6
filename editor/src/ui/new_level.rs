//! The New level dialog (File → New…, Ctrl+N): kind, size, border and fill, with each kind's
//! defaults and token names from the list of kinds the state holds (`KindEntry::new_options`), so nothing here
//! names a kind.

use eframe::egui::{self, RichText, Ui};

use crate::doc::registry::{Kinds, NewLevel, NewOptions};
use crate::state::{Action, EditorState};

/// The words for "no border" in the border list.
pub const NO_BORDER: &str = "(no border)";

/// Draws the dialog while it is open; `form` holds what is chosen so far (made from the open
/// kind's defaults when the dialog opens, dropped when it closes).
pub fn new_level_dialog(
    ctx: &egui::Context,
    st: &EditorState,
    form: &mut Option<NewLevel>,
    out: &mut Vec<Action>,
) {
    if !st.new_dialog {
        *form = None;
        return;
    }
    if st.pending.is_some() {
        return; // the unsaved-changes question is asked above it
    }
    let f = form.get_or_insert_with(|| {
        st.kinds
            .new_level_defaults(st.kind_name())
            .or_else(|| st.kinds.first().map(NewLevel::defaults))
            .unwrap_or(NewLevel {
                kind: "",
                width: 1,
                height: 1,
                border: None,
                fill: String::new(),
            })
    });
    let Some(entry) = st.kinds.entry(f.kind) else {
        return;
    };
    let o = (entry.new_options)();
    let r = egui::Modal::new(egui::Id::unique("new-level")).show(ctx, |ui| {
        ui.set_max_width(420.0);
        ui.heading("New level");
        egui::Grid::new("new-level-fields")
            .num_columns(2)
            .show(ui, |ui| fields(ui, st.kinds, f, &o));
        ui.label(RichText::new(o.note).weak());
        ui.horizontal(|ui| {
            if ui.button("Create").clicked() {
                out.push(Action::NewLevel(f.clone()));
            }
            if ui.button("Cancel").clicked() {
                out.push(Action::ShowNewLevel(false));
            }
        });
    });
    if r.should_close() {
        out.push(Action::ShowNewLevel(false));
    }
}

/// The rows of the dialog: kind, then (for a kind whose size is chosen here) width, height,
/// border and fill.
fn fields(ui: &mut Ui, kinds: Kinds, f: &mut NewLevel, o: &NewOptions) {
    ui.label("kind");
    egui::ComboBox::from_id_salt("new-kind")
        .selected_text(f.kind)
        .show_ui(ui, |ui| {
            for k in kinds.iter() {
                let r = ui
                    .selectable_label(f.kind == k.name, k.name)
                    .on_hover_text(k.about);
                if r.clicked() && f.kind != k.name {
                    *f = NewLevel::defaults(k);
                }
            }
        });
    ui.end_row();
    if o.size.is_none() {
        return;
    }
    let sides = o.sides.0..=o.sides.1;
    ui.label("width");
    ui.add(egui::DragValue::new(&mut f.width).range(sides.clone()))
        .accessible_name("width of the new level");
    ui.end_row();
    ui.label("height");
    ui.add(egui::DragValue::new(&mut f.height).range(sides))
        .accessible_name("height of the new level");
    ui.end_row();
    ui.label("border");
    egui::ComboBox::from_id_salt("new-border")
        .selected_text(f.border.as_deref().unwrap_or(NO_BORDER))
        .show_ui(ui, |ui| {
            ui.selectable_value(&mut f.border, None, NO_BORDER);
            for t in &o.tokens {
                ui.selectable_value(&mut f.border, Some(t.clone()), t.as_str());
            }
        });
    ui.end_row();
    ui.label("fill");
    egui::ComboBox::from_id_salt("new-fill")
        .selected_text(f.fill.as_str())
        .show_ui(ui, |ui| {
            for t in &o.tokens {
                ui.selectable_value(&mut f.fill, t.clone(), t.as_str());
            }
        });
    ui.end_row();
}
