//! The move-generation debugger (issue 13), a page of the Rules tab: every move the generator
//! produces for the piece on the inspected square (clicked while playing, Alt+clicked while
//! designing) or for the drops, grouped by move block (piece, block index, move type, ZRF
//! line), each with its primitives in written order, their execution levels, the key
//! primitive marked and the verdict (offered, or removed by the legality filter or
//! `move-priorities`, greyed with the reason). Hovering a move previews its result on the
//! canvas; a selected move can be stepped through its execution stages (§3: pick up, remove,
//! set down, level 2, level 3) with the squares each stage touches ringed; a partial move's
//! continuation can be opened in place of the position.

use std::sync::Arc;

use crate::doc::ui::MapGeom;
use eframe::egui::{self, Color32, Painter, RichText, Ui};
use tilesmith_engine::Pos;
use tilesmith_engine::kind::board::play::debug::{
    BlockMoves, DebugMove, SquareReport, Stage, continuation, execution_stages, square_report,
};
use tilesmith_engine::kind::board::play::{Engine, Piece, Position};
use tilesmith_engine::kind::board::rules::{PosId, Rules};

use super::design::Compiled;
use super::{BoardDoc, look};

/// What the debugger looks at: the inspected square, or the drops.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Target {
    /// The piece on the inspected square (or the drops onto it when it is empty).
    #[default]
    Square,
    /// Every drop of the player to move.
    Drops,
}

/// A move of the report: block index and move index in the block.
pub type MoveRef = (usize, usize);

/// The debugger's state, kept in the board panels' widget state.
#[derive(Debug, Default)]
pub struct DebugState {
    /// The square or the drops.
    pub target: Target,
    /// The engine for the rules shown (built once per rules).
    engine: Option<(usize, Arc<Engine>)>,
    /// The position the report was made for, its key, and the report.
    report: Option<(u64, Position, Result<SquareReport, String>)>,
    /// Continuations opened (each a position after a partial move), innermost last.
    pub chain: Vec<Position>,
    /// The move being stepped through and the stage shown.
    pub selected: Option<(MoveRef, usize)>,
    /// What the canvas shows over the board this frame: the pieces of a position and the
    /// squares to ring (with the egui pass it was set in).
    pub preview: Option<(u64, Vec<Option<Piece>>, Vec<PosId>)>,
    /// A ZRF line to show in the text page (a block's line was clicked).
    pub jump: Option<usize>,
}

/// The position the debugger starts from: the game's while playing, else the design's pieces
/// with its player to move.
fn base_position(d: &BoardDoc) -> Position {
    if let Some(p) = &d.play {
        return p.game().position().clone();
    }
    let design = d.design();
    let rules: &Rules = &design.board.rules;
    let mut pos = Position::initial(rules);
    pos.cells = design.cells();
    if let Some(name) = &design.rest.to_move
        && let Some(t) = rules
            .turn_order
            .iter()
            .position(|t| rules.players.get(t.player as usize) == Some(name))
    {
        pos.turn = t;
    }
    pos
}

/// The inspected square as a position of the board.
fn square(d: &BoardDoc, inspect: Option<Pos>) -> Option<PosId> {
    inspect.and_then(|p| d.shown_board().layout.at(p))
}

impl DebugState {
    /// The engine of `b`'s rules.
    fn engine(&mut self, b: &Compiled) -> Arc<Engine> {
        let key = Arc::as_ptr(&b.rules) as usize;
        match &self.engine {
            Some((k, e)) if *k == key => e.clone(),
            _ => {
                let e = Arc::new(Engine::new((*b.rules).clone()));
                self.engine = Some((key, e.clone()));
                e
            }
        }
    }

    /// The report for the document as it is (made again when the position, the square or the
    /// continuation changes).
    fn refresh(&mut self, d: &BoardDoc, at: Option<PosId>, engine: &Engine) {
        let pos = self
            .chain
            .last()
            .cloned()
            .unwrap_or_else(|| base_position(d));
        let square = match self.target {
            Target::Drops => None,
            Target::Square => match (self.chain.last(), at) {
                (Some(c), _) => c.partial.map(|(s, _)| s),
                (None, s) => s,
            },
        };
        let key = hash_of(&(&pos, square, self.target == Target::Drops));
        if self.report.as_ref().is_some_and(|(k, _, _)| *k == key) {
            return;
        }
        self.selected = None;
        let r = if self.target == Target::Square && square.is_none() {
            Err(
                "click a square on the board (Alt+click while designing), or look at the drops"
                    .to_string(),
            )
        } else {
            square_report(engine, &pos, square).map_err(|e| format!("{e:?}"))
        };
        self.report = Some((key, pos, r));
    }
}

fn hash_of<T: std::hash::Hash>(v: &T) -> u64 {
    use std::hash::{DefaultHasher, Hasher};
    let mut h = DefaultHasher::new();
    v.hash(&mut h);
    h.finish()
}

/// The debugger page.
pub fn debugger_ui(ui: &mut Ui, d: &BoardDoc, inspect: Option<Pos>, st: &mut DebugState) {
    ui.heading("Move-generation debugger");
    let b = d.shown_board();
    let at = square(d, inspect);
    ui.horizontal(|ui| {
        let name = at.map_or("none".to_string(), |s| b.pos_name(s).to_string());
        ui.selectable_value(&mut st.target, Target::Square, format!("Square: {name}"));
        ui.selectable_value(&mut st.target, Target::Drops, "Drops");
        if !st.chain.is_empty() && ui.button("Back from the continuation").clicked() {
            st.chain.pop();
        }
    });
    ui.label(
        RichText::new(if d.play.is_some() {
            "the position in play"
        } else {
            "the design's position"
        })
        .small()
        .weak(),
    );
    let engine = st.engine(b);
    st.refresh(d, at, &engine);
    let pass = ui.ctx().cumulative_pass_nr();
    let Some((_, pos, report)) = &st.report else {
        return;
    };
    let pos = pos.clone();
    let report = match report {
        Ok(r) => r.clone(),
        Err(e) => {
            ui.label(RichText::new(e.clone()).weak());
            return;
        }
    };
    if !st.chain.is_empty() {
        ui.label(format!("continuation, {} part(s) in", st.chain.len()));
    }
    ui.label(format!(
        "moves of {}{}",
        b.player_name(report.player),
        if report.as_if_to_move {
            " (as if it were their turn)"
        } else {
            ""
        }
    ));
    ui.label(
        RichText::new(
            "L1 movement, L2 piece changes, L3 captures; [key ...] is the key primitive; greyed \
             moves are not offered. Hover a move to see its result, click it to step through it.",
        )
        .small()
        .weak(),
    );
    if let Some(n) = &report.note {
        ui.label(RichText::new(n).weak());
    }
    let mut hovered = None;
    egui::ScrollArea::vertical()
        .id_salt("board_debugger")
        .max_height(ui.available_height() * 0.6)
        .show(ui, |ui| {
            for (bi, block) in report.blocks.iter().enumerate() {
                block_ui(ui, block, bi, st, &mut hovered);
            }
        });
    let mut preview = None;
    if let Some(((bi, mi), stage)) = st.selected
        && let Some(m) = report.blocks.get(bi).and_then(|bl| bl.moves.get(mi))
    {
        ui.separator();
        let stages = execution_stages(&engine, &pos, &m.mv);
        preview = stepper_ui(ui, b, m, &stages, stage, st);
        if m.continues_at.is_some()
            && ui.button("Look at the continuation").clicked()
            && let Some(next) = continuation(&engine, &pos, &m.mv)
        {
            st.chain.push(next);
        }
    }
    if let Some((bi, mi)) = hovered
        && let Some(m) = report.blocks.get(bi).and_then(|bl| bl.moves.get(mi))
        && let Some(last) = execution_stages(&engine, &pos, &m.mv).last()
    {
        preview = Some((last.position.cells.clone(), last.touched.clone()));
    }
    st.preview = preview.map(|(c, t)| (pass, c, t));
}

/// One move block: its header (piece, index, move type, line) and its moves.
fn block_ui(
    ui: &mut Ui,
    block: &BlockMoves,
    bi: usize,
    st: &mut DebugState,
    hovered: &mut Option<MoveRef>,
) {
    ui.horizontal(|ui| {
        let kind = if block.origin.drop { "drop" } else { "move" };
        ui.label(
            RichText::new(format!(
                "{} {kind} block {}{}",
                block.piece,
                block.origin.block + 1,
                block
                    .move_type_name
                    .as_ref()
                    .map_or(String::new(), |t| format!(", move type {t}"))
            ))
            .strong(),
        );
        if ui
            .link(format!("line {}", block.span.line))
            .on_hover_text("show this line in the ZRF text")
            .clicked()
        {
            st.jump = Some(block.span.line.max(1) as usize);
        }
    });
    if let Some(why) = &block.skipped {
        ui.label(RichText::new(format!("  not run: {why}")).weak());
    }
    if block.moves.is_empty() && block.skipped.is_none() {
        ui.label(RichText::new("  generated nothing").weak());
    }
    for (mi, m) in block.moves.iter().enumerate() {
        let r = move_row(ui, m, st.selected.is_some_and(|(s, _)| s == (bi, mi)));
        if r.hovered() {
            *hovered = Some((bi, mi));
        }
        if r.clicked() {
            st.selected = Some(((bi, mi), 0));
        }
    }
}

/// A move's row: its primitives with their levels, the key marked, and its verdict.
fn move_row(ui: &mut Ui, m: &DebugMove, selected: bool) -> egui::Response {
    let legal = m.verdict.is_legal();
    let mut text = String::new();
    for p in &m.primitives {
        if !text.is_empty() {
            text.push_str("  ");
        }
        if p.key {
            text.push_str(&format!("[key {}]", p.text));
        } else {
            text.push_str(&p.text);
        }
        text.push_str(&format!(" (L{})", p.level));
    }
    if m.continues_at.is_some() {
        text.push_str("  partial");
    }
    let verdict = match m.verdict.reason() {
        None => format!("legal: {}", m.verdict.notations().join(", ")),
        Some(why) => format!("removed: {why}"),
    };
    let mut rich = RichText::new(format!("{text}    {verdict}")).monospace();
    if !legal {
        rich = rich.color(Color32::GRAY).italics();
    }
    let r = ui.selectable_label(selected, rich);
    r.widget_info(|| {
        egui::WidgetInfo::selected(
            egui::Role::Button,
            true,
            selected,
            format!("move {text}: {verdict}"),
        )
    });
    r
}

/// The step control of the selected move: the stage shown, its notes; returns what the
/// canvas shows.
fn stepper_ui(
    ui: &mut Ui,
    b: &Compiled,
    m: &DebugMove,
    stages: &[Stage],
    stage: usize,
    st: &mut DebugState,
) -> Option<(Vec<Option<Piece>>, Vec<PosId>)> {
    let texts: Vec<&str> = m.primitives.iter().map(|p| p.text.as_str()).collect();
    ui.label(RichText::new(format!("Stepping {}", texts.join(" "))).strong());
    let n = stages.len();
    let k = stage.min(n.saturating_sub(1));
    ui.horizontal(|ui| {
        if ui
            .add_enabled(k > 0, egui::Button::new("Previous stage"))
            .clicked()
            && let Some((_, s)) = st.selected.as_mut()
        {
            *s = k - 1;
        }
        if ui
            .add_enabled(k + 1 < n, egui::Button::new("Next stage"))
            .clicked()
            && let Some((_, s)) = st.selected.as_mut()
        {
            *s = k + 1;
        }
        ui.label(format!("stage {} of {n}", k + 1));
    });
    let s = stages.get(k)?;
    ui.label(&s.title);
    let touched: Vec<&str> = s.touched.iter().map(|t| b.pos_name(*t)).collect();
    ui.label(format!("touches {}", touched.join(", ")));
    for note in &s.notes {
        ui.label(RichText::new(note).small());
    }
    Some((s.position.cells.clone(), s.touched.clone()))
}

/// Draws the debugger's preview over the board: each position in its own colour (`base`)
/// darkened, with the previewed position's pieces on it (covering the board's), and the
/// touched squares ringed. Only a preview set in the last pass or this one is drawn (the page
/// is not shown otherwise).
pub fn paint_preview(
    painter: &Painter,
    b: &Compiled,
    st: &DebugState,
    g: &MapGeom,
    base: &dyn Fn(Pos) -> Color32,
) {
    let Some((pass, cells, touched)) = &st.preview else {
        return;
    };
    if painter.ctx().cumulative_pass_nr() > pass + 1 {
        return;
    }
    let l = &b.layout;
    let radius = super::ui::piece_radius(b, g.zoom);
    for (i, c) in l.cell.iter().enumerate() {
        let r = g.cell_rect(*c);
        let fill = look::lerp(base(*c), Color32::BLACK, 0.3);
        if l.squares {
            painter.rect_filled(r, 0.0, fill);
        } else {
            painter.circle_filled(r.center(), g.zoom * l.disc * 0.5, fill);
        }
        if let Some(Some(p)) = cells.get(i) {
            let label = b.labels.get(p.kind as usize).map_or("?", String::as_str);
            let fill = super::ui::player_color(b, p.player);
            look::paint_piece(painter, r.center(), radius, fill, label);
        }
    }
    for t in touched {
        if let Some(c) = l.cell.get(*t as usize) {
            look::paint_mark(painter, g.cell_rect(*c), look::TARGET, !l.squares);
        }
    }
}
