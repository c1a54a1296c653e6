//! The panels of a board document: the palette of pieces (one brush per player and piece
//! type, and the eraser), the design page (name, variant, player to move, the inspected
//! position, the zone legend), the Rules tab (see `rules_ui`), the play pane (see
//! `play_ui`), and the canvas: squares or discs, coordinates, zone tints and pieces.

use eframe::egui::{self, Color32, Painter, RichText, Sense, Ui, vec2};
use tilesmith_engine::Pos;
use tilesmith_engine::kind::board::play::Piece;
use tilesmith_engine::kind::board::rules::{PlayerId, PosId};
use tilesmith_engine::kind::board::zrf;

use super::design::{Cell, Compiled};
use super::rules_ui::RulesPane;
use super::{BoardAction, BoardDoc, debug, look, play_ui, rules_ui};
use crate::doc::map::MapOps as _;
use crate::doc::ui::{KindUi, MapGeom};
use crate::state::{Action, EditorState};

/// The pages of the Rules tab.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RulesPage {
    /// The ZRF text.
    #[default]
    Text,
    /// The move-generation debugger (not built yet: see `debug`).
    Debugger,
}

/// Which zones are tinted on the board: the legend's check boxes. By default the zones that
/// are each player's own (different positions per player, or one player only: promotion
/// ranks, goals) and hold at most 40 % of the positions; zones shared alike by all their
/// players (chess's helper zones for the bishops' diagonals) would only hide the squares.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ZoneTints {
    /// The zone names the choices are for.
    names: Vec<String>,
    /// Each zone is tinted.
    shown: Vec<bool>,
}

impl ZoneTints {
    /// Whether zone `z` of `b` is tinted by default.
    fn default_for(b: &Compiled, z: usize) -> bool {
        let Some(zone) = b.rules.board.zones.get(z) else {
            return false;
        };
        let per: Vec<Vec<PosId>> = zone
            .positions
            .iter()
            .filter(|ps| !ps.is_empty())
            .map(|ps| {
                let mut v = ps.clone();
                v.sort_unstable();
                v
            })
            .collect();
        let own = per.len() <= 1 || per.iter().any(|ps| *ps != per[0]);
        let mut all: Vec<PosId> = per.into_iter().flatten().collect();
        all.sort_unstable();
        all.dedup();
        own && all.len() * 5 <= b.layout.len().max(1) * 2
    }

    /// Whether zone `z` of `b` is tinted.
    pub fn shown(&self, b: &Compiled, z: usize) -> bool {
        if self.names.len() == b.rules.board.zones.len()
            && self
                .names
                .iter()
                .zip(&b.rules.board.zones)
                .all(|(n, z)| *n == z.name)
        {
            self.shown.get(z).copied().unwrap_or(false)
        } else {
            Self::default_for(b, z)
        }
    }

    /// Takes the zones of `b` (the defaults when they changed).
    fn sync(&mut self, b: &Compiled) {
        let shown: Vec<bool> = (0..b.rules.board.zones.len())
            .map(|z| self.shown(b, z))
            .collect();
        self.names = b.rules.board.zones.iter().map(|z| z.name.clone()).collect();
        self.shown = shown;
    }

    /// A number that changes when the choices change (for the map texture).
    fn key(&self) -> u64 {
        self.shown
            .iter()
            .enumerate()
            .fold(self.names.len() as u64, |k, (i, on)| {
                k.wrapping_mul(31).wrapping_add(u64::from(*on) << (i % 60))
            })
    }

    /// The tinted zones of `b` that hold position `i`.
    fn of<'a>(&'a self, b: &'a Compiled, i: PosId) -> impl Iterator<Item = usize> + 'a {
        look::zones_of(&b.rules.board.zones, i).filter(move |z| self.shown(b, *z))
    }
}

/// Widget state of the board panels.
#[derive(Debug, Default)]
pub struct BoardUi {
    /// Which zones are tinted.
    pub tints: ZoneTints,
    /// The Rules tab's page.
    pub page: RulesPage,
    /// The rules text being typed.
    pub rules: RulesPane,
    /// The move-generation debugger.
    pub debug: debug::DebugState,
    /// The variants of the rules text last seen: (a hash of the text, the titles).
    variants: (Option<u64>, Vec<String>),
    /// The board shown last is hex-like (no square grid lines).
    hex: bool,
}

fn doc(st: &EditorState) -> Option<&BoardDoc> {
    st.doc_as::<BoardDoc>()
}

fn board(out: &mut Vec<Action>, a: BoardAction) {
    out.push(Action::from(a));
}

/// The colour of player `p` of `b`.
pub(super) fn player_color(b: &Compiled, p: PlayerId) -> Color32 {
    look::player_color(b.player_name(p), p as usize)
}

/// A small disc of a player's colour, ringed so that black shows on the dark panel.
pub(super) fn swatch(ui: &mut Ui, color: Color32) {
    let (rect, _) = ui.allocate_exact_size(vec2(14.0, 14.0), Sense::hover());
    ui.painter().circle(
        rect.center(),
        6.0,
        color,
        egui::Stroke::new(1.0, Color32::from_gray(160)),
    );
}

/// A brush button: the piece (or the eraser's cross) in a square of `size` points, ringed
/// when it is the left (yellow) or right (blue) brush. Named for accessibility.
fn brush_button(ui: &mut Ui, d: &BoardDoc, cell: Cell, size: f32) -> egui::Response {
    let b = &d.design().board;
    let (rect, resp) = ui.allocate_exact_size(vec2(size, size), Sense::click());
    let p = ui.painter();
    p.rect_filled(rect, 3.0, look::PLAIN);
    match cell {
        Some(piece) => look::paint_piece(
            p,
            rect.center(),
            size * 0.4,
            player_color(b, piece.player),
            &b.labels[piece.kind as usize],
        ),
        None => {
            let s = egui::Stroke::new(2.0, Color32::from_rgb(200, 60, 60));
            let r = rect.shrink(size * 0.25);
            p.line_segment([r.left_top(), r.right_bottom()], s);
            p.line_segment([r.right_top(), r.left_bottom()], s);
        }
    }
    for (brush, color) in [
        (d.primary, look::SELECTED),
        (d.secondary, Color32::from_rgb(80, 170, 255)),
    ] {
        if brush == cell {
            p.rect_stroke(
                rect,
                3.0,
                egui::Stroke::new(2.0, color),
                egui::StrokeKind::Inside,
            );
        }
    }
    let name = cell.map_or_else(|| "eraser".to_string(), |c| b.describe(&c));
    let selected = d.primary == cell || d.secondary == cell;
    resp.widget_info(|| egui::WidgetInfo::selected(egui::Role::Button, true, selected, &name));
    resp.on_hover_text(format!(
        "{name}: left click sets the left brush, right click the right brush"
    ))
}

/// The palette: the two brushes, then one brush per player and piece type, and the eraser.
fn palette_ui(ui: &mut Ui, d: &BoardDoc, out: &mut Vec<Action>) {
    let b = &d.design().board;
    ui.heading("Pieces");
    for (label, cell) in [("left", d.primary), ("right", d.secondary)] {
        let name = cell.map_or_else(|| "eraser".to_string(), |c| b.describe(&c));
        ui.label(format!("{label}: {name}"));
    }
    ui.label(RichText::new("left click: left brush · right click: right brush").small());
    ui.separator();
    let clicked = |r: egui::Response, cell: Cell, out: &mut Vec<Action>| {
        if r.clicked() {
            board(out, BoardAction::SetPrimary(cell));
        }
        if r.secondary_clicked() {
            board(out, BoardAction::SetSecondary(cell));
        }
    };
    for (pl, name) in b.rules.players.iter().enumerate() {
        ui.label(RichText::new(format!("{name}'s pieces")).strong());
        ui.horizontal_wrapped(|ui| {
            for k in 0..b.rules.pieces.len() {
                let cell = Some(b.piece(pl as PlayerId, k as u8));
                let r = brush_button(ui, d, cell, 30.0);
                clicked(r, cell, out);
            }
        });
    }
    ui.horizontal(|ui| {
        let r = brush_button(ui, d, None, 30.0);
        clicked(r, None, out);
        ui.label(RichText::new("empties positions").weak());
    });
    ui.separator();
    if ui
        .button("Clear the board")
        .on_hover_text("Remove every piece (one undo step)")
        .clicked()
    {
        board(out, BoardAction::ClearBoard);
    }
    if ui
        .button("Reset to the rules' setup")
        .on_hover_text("Put back the pieces of the rules' board-setup")
        .clicked()
    {
        board(out, BoardAction::ResetSetup);
    }
}

/// The titles of the variants of `text` (cached by a hash of the text).
fn variants<'a>(cache: &'a mut (Option<u64>, Vec<String>), text: &str) -> &'a [String] {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    let key = Some(h.finish());
    if cache.0 != key {
        *cache = (key, zrf::variants(text).unwrap_or_default());
    }
    &cache.1
}

/// Name, variant and player to move.
fn level_ui(
    ui: &mut Ui,
    d: &BoardDoc,
    cache: &mut (Option<u64>, Vec<String>),
    out: &mut Vec<Action>,
) {
    let design = d.design();
    let b = &design.board;
    ui.heading("Level");
    let mut name = design.name().to_string();
    ui.horizontal(|ui| {
        ui.label("name");
        if ui
            .text_edit_singleline(&mut name)
            .accessible_name("level name")
            .changed()
        {
            board(out, BoardAction::SetName(name.clone()));
        }
    });
    let titles = variants(cache, &design.rest.text).to_vec();
    let shown = design
        .rest
        .variant
        .clone()
        .unwrap_or_else(|| format!("(default: {})", b.rules.title));
    ui.horizontal(|ui| {
        ui.label("variant");
        let r = egui::ComboBox::from_id_salt("board variant")
            .selected_text(shown)
            .show_ui(ui, |ui| {
                if ui
                    .selectable_label(design.rest.variant.is_none(), "(the file's default)")
                    .clicked()
                {
                    board(out, BoardAction::SetVariant(None));
                }
                for t in &titles {
                    let on = design.rest.variant.as_deref() == Some(t.as_str());
                    if ui.selectable_label(on, t).clicked() && !on {
                        board(out, BoardAction::SetVariant(Some(t.clone())));
                    }
                }
            });
        let _ = r.response.accessible_name("variant");
    });
    to_move_ui(ui, d, out);
}

/// The player to move: a combo of the players, each with its colour.
fn to_move_ui(ui: &mut Ui, d: &BoardDoc, out: &mut Vec<Action>) {
    let design = d.design();
    let b = &design.board;
    let first = b.rules.turn_order.first().map_or_else(
        || b.player_name(0).to_string(),
        |t| b.player_name(t.player).to_string(),
    );
    let shown = design
        .rest
        .to_move
        .clone()
        .unwrap_or_else(|| format!("(first: {first})"));
    ui.horizontal(|ui| {
        ui.label("to move");
        let r = egui::ComboBox::from_id_salt("board to move")
            .selected_text(shown)
            .show_ui(ui, |ui| {
                if ui
                    .selectable_label(design.rest.to_move.is_none(), "(first of the turn order)")
                    .clicked()
                {
                    board(out, BoardAction::SetToMove(None));
                }
                for (i, p) in b.rules.players.iter().enumerate() {
                    let on = design.rest.to_move.as_deref() == Some(p.as_str());
                    ui.horizontal(|ui| {
                        swatch(ui, player_color(b, i as PlayerId));
                        if ui.selectable_label(on, p).clicked() && !on {
                            board(out, BoardAction::SetToMove(Some(p.clone())));
                        }
                    });
                }
            });
        let _ = r.response.accessible_name("player to move");
    });
}

/// The position shown in display cell `pos`, its piece and zones, in a few words.
fn describe(b: &Compiled, cells: &[Option<Piece>], pos: Pos) -> Option<String> {
    let l = &b.layout;
    if pos.x >= l.width || pos.y >= l.height {
        return None;
    }
    let Some(i) = l.at(pos) else {
        return Some("no position".into());
    };
    let mut s = b.pos_name(i).to_string();
    match cells.get(i as usize).copied().flatten() {
        Some(p) => s.push_str(&format!(": {}", b.describe(&p))),
        None => s.push_str(": empty"),
    }
    let zones: Vec<&str> = look::zones_of(&b.rules.board.zones, i)
        .map(|z| b.rules.board.zones[z].name.as_str())
        .collect();
    if !zones.is_empty() {
        s.push_str(&format!(" · zones {}", zones.join(", ")));
    }
    Some(s)
}

/// The inspected position, the zone legend and the pieces per player.
pub(super) fn inspector_ui(ui: &mut Ui, st: &EditorState, d: &BoardDoc, tints: &mut ZoneTints) {
    let b = d.shown_board();
    tints.sync(b);
    let cells = d.shown_cells();
    ui.heading("Position");
    match st.inspect.and_then(|p| describe(b, &cells, p)) {
        Some(s) => ui.label(s),
        None => ui.label(
            RichText::new("pick a position (Alt+click, or click it while playing) to inspect it")
                .weak(),
        ),
    };
    let zones = &b.rules.board.zones;
    if !zones.is_empty() {
        ui.separator();
        ui.heading("Zones");
        ui.label(RichText::new("tick a zone to tint its positions").small());
        for (i, z) in zones.iter().enumerate() {
            ui.horizontal(|ui| {
                let mut on = tints.shown.get(i).copied().unwrap_or(false);
                if ui
                    .checkbox(&mut on, "")
                    .accessible_name(format!("tint zone {}", z.name))
                    .changed()
                    && let Some(s) = tints.shown.get_mut(i)
                {
                    *s = on;
                }
                let (rect, _) = ui.allocate_exact_size(vec2(14.0, 14.0), Sense::hover());
                ui.painter().rect_filled(rect, 2.0, look::zone_tint(i));
                let players: Vec<&str> = z
                    .positions
                    .iter()
                    .enumerate()
                    .filter(|(_, ps)| !ps.is_empty())
                    .map(|(p, _)| b.player_name(p as PlayerId))
                    .collect();
                ui.label(format!("{} ({})", z.name, players.join(", ")));
            });
        }
    }
    ui.separator();
    ui.heading("Pieces on the board");
    for (pl, name) in b.rules.players.iter().enumerate() {
        let n = cells
            .iter()
            .flatten()
            .filter(|p| p.player as usize == pl)
            .count();
        ui.horizontal(|ui| {
            swatch(ui, player_color(b, pl as PlayerId));
            ui.label(format!("{name}: {n}"));
        });
    }
}

/// The colour of display cell `p` of board `b` (the map texture).
fn cell_color(b: &Compiled, tints: &ZoneTints, p: Pos) -> Color32 {
    let l = &b.layout;
    match (l.at(p), l.squares) {
        (Some(i), true) => {
            let base = if !l.checkered {
                look::PLAIN
            } else if l.dark[i as usize] {
                look::DARK
            } else {
                look::LIGHT
            };
            look::tinted(base, tints.of(b, i))
        }
        (None, true) => look::OFF_BOARD,
        (_, false) => look::BOARD_BG,
    }
}

/// The radius of a piece in screen points.
pub(super) fn piece_radius(b: &Compiled, zoom: f32) -> f32 {
    if b.layout.squares {
        zoom * 0.40
    } else {
        zoom * b.layout.disc * 0.42
    }
}

/// Discs of a hex-like board's positions, coordinates, pieces, and the stroke preview.
fn paint_board(painter: &Painter, d: &BoardDoc, tints: &ZoneTints, g: &MapGeom) {
    let b = d.shown_board();
    let l = &b.layout;
    let center = |i: PosId| g.cell_rect(l.cell[i as usize]).center();
    if !l.squares {
        let radius = g.zoom * l.disc * 0.5;
        for i in 0..l.len() as PosId {
            let fill = look::tinted(look::PLAIN, tints.of(b, i));
            let edge = egui::Stroke::new(
                (radius * 0.08).max(0.5),
                look::lerp(fill, Color32::BLACK, 0.5),
            );
            painter.circle(center(i), radius, fill, edge);
        }
    }
    if g.zoom >= 12.0 {
        // Each tinted zone also frames its positions in its colour, inside the edge.
        for i in 0..l.len() as PosId {
            for (k, z) in tints.of(b, i).enumerate() {
                let inset = 1.5 + 3.0 * k as f32;
                let stroke = egui::Stroke::new(2.0, look::zone_tint(z));
                if l.squares {
                    let r = g.cell_rect(l.cell[i as usize]).shrink(inset);
                    painter.rect_stroke(r, 0.0, stroke, egui::StrokeKind::Inside);
                } else {
                    painter.circle_stroke(center(i), g.zoom * l.disc * 0.5 - inset, stroke);
                }
            }
        }
    }
    if g.zoom >= 10.0 {
        let font = egui::FontId::proportional((g.zoom * 0.4).min(18.0));
        for (x, t) in &l.files {
            let r = g.cell_rect(Pos::new(*x, l.height - 1));
            painter.text(
                r.center(),
                egui::Align2::CENTER_CENTER,
                t,
                font.clone(),
                look::LABEL,
            );
        }
        for (y, t) in &l.ranks {
            let r = g.cell_rect(Pos::new(0, *y));
            painter.text(
                r.center(),
                egui::Align2::CENTER_CENTER,
                t,
                font.clone(),
                look::LABEL,
            );
        }
    }
    if let Some(p) = &d.play {
        play_ui::paint_last_move(painter, p, g);
    }
    let radius = piece_radius(b, g.zoom);
    for (i, c) in d.shown_cells().iter().enumerate() {
        if let Some(p) = c {
            let label = b.labels.get(p.kind as usize).map_or("?", String::as_str);
            look::paint_piece(
                painter,
                center(i as PosId),
                radius,
                player_color(b, p.player),
                label,
            );
        }
    }
    let Some(s) = d.map.stroke.as_ref().filter(|_| d.play.is_none()) else {
        return;
    };
    for (pos, cell) in s.preview.iter().filter(|(p, _)| l.at(*p).is_some()) {
        let c = g.cell_rect(*pos).center();
        match cell {
            Some(p) => {
                let label = b.labels.get(p.kind as usize).map_or("?", String::as_str);
                let fill = player_color(b, p.player).gamma_multiply(0.6);
                look::paint_piece(painter, c, radius, fill, label);
            }
            None => {
                painter.circle_filled(c, radius, Color32::from_black_alpha(90));
            }
        }
    }
}

impl KindUi for BoardUi {
    fn kind(&self) -> &'static str {
        "board"
    }

    fn palette_ui(&mut self, ui: &mut Ui, st: &EditorState, out: &mut Vec<Action>) {
        if let Some(d) = doc(st) {
            palette_ui(ui, d, out);
        }
    }

    fn design_ui(&mut self, ui: &mut Ui, st: &EditorState, out: &mut Vec<Action>) {
        if let Some(d) = doc(st) {
            level_ui(ui, d, &mut self.variants, out);
            ui.separator();
            inspector_ui(ui, st, d, &mut self.tints);
        }
    }

    fn play_ui(&mut self, ui: &mut Ui, st: &EditorState, out: &mut Vec<Action>) {
        if let Some(d) = doc(st) {
            play_ui::play_ui(ui, d, out);
        }
    }

    /// The inspector, below the shell's computer player and Solve.
    fn play_footer_ui(&mut self, ui: &mut Ui, st: &EditorState, _out: &mut Vec<Action>) {
        if let Some(d) = doc(st) {
            ui.separator();
            inspector_ui(ui, st, d, &mut self.tints);
        }
    }

    fn rules_ui(&mut self, ui: &mut Ui, st: &EditorState, out: &mut Vec<Action>) {
        let Some(d) = doc(st) else { return };
        ui.horizontal(|ui| {
            ui.selectable_value(&mut self.page, RulesPage::Text, "ZRF text");
            ui.selectable_value(&mut self.page, RulesPage::Debugger, "Debugger");
        });
        ui.separator();
        match self.page {
            RulesPage::Text => rules_ui::rules_ui(ui, (d, st.doc_serial), &mut self.rules, out),
            RulesPage::Debugger => {
                debug::debugger_ui(ui, d, st.inspect, &mut self.debug);
                if let Some(line) = self.debug.jump.take() {
                    self.rules.jump_to(line);
                    self.page = RulesPage::Text;
                }
            }
        }
    }

    fn rules_help(&self) -> &'static str {
        "The ZRF rules text with its problems at their lines; edits compile after a pause"
    }

    fn content_key(&self, st: &EditorState) -> (u8, u64) {
        let Some(d) = doc(st) else { return (0, 0) };
        let tints = self.tints.key().wrapping_mul(0x9E37_79B9_7F4A_7C15);
        match &d.play {
            Some(p) => (8, p.session.version() ^ tints),
            None => (7, d.map.generation() ^ tints),
        }
    }

    fn base_colors(&self, st: &EditorState) -> Vec<Color32> {
        let Some(d) = doc(st) else { return Vec::new() };
        let b = d.shown_board();
        let (w, h) = (b.layout.width, b.layout.height);
        (0..h)
            .flat_map(|y| (0..w).map(move |x| Pos::new(x, y)))
            .map(|p| cell_color(b, &self.tints, p))
            .collect()
    }

    fn paint_cells(&mut self, painter: &Painter, st: &EditorState, g: &MapGeom) {
        let Some(d) = doc(st) else { return };
        self.hex = !d.shown_board().layout.squares;
        paint_board(painter, d, &self.tints, g);
    }

    fn paint_overlays(&mut self, painter: &Painter, st: &EditorState, g: &MapGeom) {
        let Some(d) = doc(st) else { return };
        if let Some(p) = &d.play {
            play_ui::paint_overlays(painter, p, g);
        }
        let b = d.shown_board();
        let base = |p: Pos| cell_color(b, &self.tints, p);
        debug::paint_preview(painter, b, &self.debug, g, &base);
    }

    fn describe_cell(&self, st: &EditorState, pos: Pos) -> Option<String> {
        let d = doc(st)?;
        describe(d.shown_board(), &d.shown_cells(), pos)
    }

    fn cell_place(&self, _st: &EditorState, _pos: Pos) -> Option<String> {
        None
    }

    fn level_summary(&self, st: &EditorState) -> String {
        let Some(d) = doc(st) else {
            return "board level".into();
        };
        let b = &d.shown_board().rules.board;
        format!(
            "board level, {} × {} board, {} positions",
            b.cols,
            b.rows,
            b.positions.len()
        )
    }

    fn end_banner(&self, _st: &EditorState) -> Option<crate::doc::ui::Banner> {
        None // painted by the kind itself, over its own field
    }

    fn grid_color(&self) -> Color32 {
        if self.hex {
            Color32::TRANSPARENT
        } else {
            Color32::from_black_alpha(50)
        }
    }
}
