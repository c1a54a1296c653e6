//! The code pane that every rules text shares (a board's ZRF text, a falling level's Lua
//! script): a monospace editor with a gutter of **source line** numbers, painted beside the
//! first screen row of each line, so a wrapped line keeps one number and the numbers match the
//! line numbers of the messages (issue #31, defect 2). Marked lines are tinted, their number
//! drawn in the mark's colour and, when the mark has a note, the note written after the line.

use std::collections::BTreeMap;

use eframe::egui::{self, Align2, Color32, FontId, Margin, Ui, text::LayoutJob};

/// Width of the line-number gutter, in points.
pub const GUTTER: f32 = 40.0;

/// The colour of a line number without a mark.
const NUMBER: Color32 = Color32::from_gray(110);

/// A marked source line: its colour (the line is tinted with it and its number drawn in it)
/// and an optional note written after the line (`« message; message`).
#[derive(Clone, Debug, PartialEq)]
pub struct LineMark {
    /// The mark's colour (an error's red, a warning's amber).
    pub color: Color32,
    /// Words written after the line, if any.
    pub note: Option<String>,
}

/// How a [`code_pane`] is laid out.
#[derive(Clone, Copy, Debug)]
pub struct CodeLayout {
    /// The editor's accessible name (`script text`, `rules text`).
    pub name: &'static str,
    /// Rows of text the pane asks room for.
    pub rows: usize,
    /// True: long lines wrap at the pane's width (their rows share one number); false: they run
    /// on to the right.
    pub wrap: bool,
}

/// What a code pane drew in its last frame: each line number with the screen `y` of its row,
/// and the marked lines. Kept in egui's memory under [`gutter_id`] of the pane's name, for
/// tests that read what the window shows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Gutter {
    /// (line number, top of its first row in screen points), top to bottom.
    pub numbers: Vec<(usize, f32)>,
    /// The marked line numbers.
    pub marked: Vec<usize>,
}

/// Where the [`Gutter`] of the code pane named `name` is kept.
pub fn gutter_id(name: &str) -> egui::Id {
    egui::Id::unique(("code pane gutter", name))
}

/// The code pane: `text` in a monospace editor with source line numbers (1-based) in a gutter,
/// the lines of `marks` (keyed by line number) marked. When `jump` holds a line, the pane
/// scrolls to it and clears it. Returns the editor's output (its response, named
/// `layout.name`, and galley).
pub fn code_pane(
    ui: &mut Ui,
    text: &mut String,
    marks: &BTreeMap<usize, LineMark>,
    jump: &mut Option<usize>,
    layout: CodeLayout,
) -> egui::text_edit::TextEditOutput {
    let font = FontId::monospace(12.0);
    let mut layouter = |ui: &Ui, buf: &dyn egui::TextBuffer, wrap: f32| {
        let mut job = LayoutJob::default();
        job.wrap.max_width = if layout.wrap { wrap } else { f32::INFINITY };
        let normal = ui.visuals().text_color();
        for (n, line) in buf.as_str().split_inclusive('\n').enumerate() {
            let mut fmt = egui::TextFormat::simple(font.clone(), normal);
            if let Some(m) = marks.get(&(n + 1)) {
                fmt.background = m.color.gamma_multiply(0.25);
            }
            job.append(line, 0.0, fmt);
        }
        ui.fonts_mut(|f| f.layout_job(job))
    };
    let out = egui::TextEdit::multiline(text)
        .code_editor()
        .desired_rows(layout.rows)
        .desired_width(f32::INFINITY)
        .margin(Margin {
            left: GUTTER as i8,
            right: 4,
            top: 2,
            bottom: 2,
        })
        .layouter(&mut layouter)
        .show(ui);
    let _ = out.response.response.clone().accessible_name(layout.name);
    let painter = ui.painter();
    let small = FontId::monospace(11.0);
    let mut drawn = Gutter {
        marked: marks.keys().copied().collect(),
        ..Gutter::default()
    };
    for (line, row) in first_rows(&out.galley.rows) {
        let top = out.galley_pos + row.pos.to_vec2();
        if *jump == Some(line) {
            let r = egui::Rect::from_min_size(top, egui::vec2(8.0, row.rect().height()));
            ui.scroll_to_rect(r, Some(egui::Align::Center));
            *jump = None;
        }
        drawn.numbers.push((line, top.y));
        let mark = marks.get(&line);
        let color = mark.map_or(NUMBER, |m| m.color);
        painter.text(
            egui::pos2(out.galley_pos.x - 8.0, top.y),
            Align2::RIGHT_TOP,
            line.to_string(),
            small.clone(),
            color,
        );
        if let Some(note) = mark.and_then(|m| m.note.as_ref()) {
            painter.text(
                egui::pos2(top.x + row.rect().width() + 16.0, top.y),
                Align2::LEFT_TOP,
                format!("« {note}"),
                small.clone(),
                color,
            );
        }
    }
    ui.ctx()
        .data_mut(|d| d.insert_temp(gutter_id(layout.name), drawn));
    out
}

/// The first screen row of each source line, with the line's number (1-based): a row starts a
/// line when it is the first, or the row before it ended with a newline.
fn first_rows(
    rows: &[egui::epaint::text::PlacedRow],
) -> Vec<(usize, &egui::epaint::text::PlacedRow)> {
    let mut out = Vec::new();
    let (mut line, mut starts) = (1usize, true);
    for row in rows {
        if starts {
            out.push((line, row));
        }
        starts = row.ends_with_newline;
        if row.ends_with_newline {
            line += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A first line that wraps into several screen rows keeps one number, and the next lines
    /// get 2 and 3 (the script pane numbered rows, so line 2 showed as 4 here).
    #[test]
    fn a_wrapped_line_has_one_number_and_the_next_lines_theirs() {
        let ctx = egui::Context::default();
        let mut numbered = Vec::new();
        let mut output = ctx.run_pass(egui::RawInput::default(), |ctx| {
            let long = "local DY = { 0, 1, 0, -1, 1, 1, -1, -1, 2, 2, -2, -2, 3, 3, -3 }\n";
            let text = format!("{long}x = 1\nend");
            let mut job = LayoutJob::single_section(
                text,
                egui::TextFormat::simple(FontId::monospace(12.0), Color32::WHITE),
            );
            job.wrap.max_width = 120.0;
            let galley = ctx.fonts_mut(|f| f.layout_job(job));
            assert!(galley.rows.len() >= 4, "the first line wraps");
            numbered = first_rows(&galley.rows)
                .into_iter()
                .map(|(line, row)| (line, galley.rows.iter().position(|r| std::ptr::eq(r, row))))
                .collect();
            let wrapped = galley.rows.len() - 2;
            assert_eq!(
                numbered,
                [(1, Some(0)), (2, Some(wrapped)), (3, Some(wrapped + 1))]
            );
        });
        output.textures_delta.clear();
        assert_eq!(numbered.len(), 3);
    }
}
