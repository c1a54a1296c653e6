//! Falling play: the generic session plus what the play pane shows: the field with the
//! active tumo, its shadow and the next tumos; score, rows, chain and max chain; run to the
//! next placement; the script error, if the game stopped on one.

use eframe::egui::{self, Color32, Painter, RichText, Ui};
use serde_json::Value;
use tilesmith_engine::kind::falling::field::{BlockId, EMPTY};
use tilesmith_engine::kind::falling::fpgdl::ScriptError;
use tilesmith_engine::kind::falling::level::FallingLevel;
use tilesmith_engine::kind::falling::{Falling, FallingGame};
use tilesmith_engine::{Game as _, Grid, Input, Pos, Problem, Status};

use super::{FallingAction, FallingDoc, look};
use crate::doc::play::PlaySession;
use crate::doc::step_job::StepOutcome;
use crate::doc::ui::{Banner, LOST_FILL, MapGeom, WON_FILL, game_banner};
use crate::state::{Action, PlayAction};

/// The most frames "run to the next placement" plays before it gives up.
pub const MAX_FRAMES_TO_PLACEMENT: u32 = 60 * 60;

/// Frames a move key is held before it repeats (delayed auto shift).
pub const DAS_FRAMES: u32 = 10;

/// Frames between repeats of a held move key after [`DAS_FRAMES`] (auto repeat rate).
pub const ARR_FRAMES: u32 = 2;

/// A falling play session.
#[derive(Debug)]
pub struct FallingPlay {
    /// The generic session (game, inputs, clock).
    pub session: PlaySession,
    /// The key held on the last running frame, and for how many frames before this one.
    held: Option<(Input, u32)>,
    /// The job on the worker is a run to the next placement ([`PlacementRun`]).
    placement_pending: bool,
}

/// What a run to the next placement did.
#[derive(Debug)]
struct PlacementRun {
    /// Frames computed (each one step of the history).
    frames: u32,
    /// Stopped by Cancel (the frame being computed then was abandoned).
    cancelled: bool,
    /// The report of the last frame computed.
    last: Option<tilesmith_engine::StepReport>,
}

/// The run to the next placement, on the worker: frames with no key until a tumo was placed
/// and the field settled, the game stops, [`MAX_FRAMES_TO_PLACEMENT`] frames pass, or a
/// frame is cancelled (it changes no step count).
fn placement_run(g: &mut dyn tilesmith_engine::Game) -> PlacementRun {
    let mut run = PlacementRun {
        frames: 0,
        cancelled: false,
        last: None,
    };
    let mut placed = false;
    while run.frames < MAX_FRAMES_TO_PLACEMENT && g.takes_turns() {
        let before = g.steps();
        let r = g.step(Input::Wait);
        if g.steps() == before {
            run.cancelled = true;
            break;
        }
        run.frames += 1;
        run.last = Some(r);
        let Some(f) = g.as_any().downcast_ref::<FallingGame>() else {
            break;
        };
        placed |= !f.last_frame().placed.is_empty();
        if placed && f.is_settled() {
            break;
        }
    }
    run
}

impl FallingPlay {
    /// Starts a game of the level document `design` with RNG seed `seed`.
    ///
    /// # Errors
    /// The level's errors when it cannot be played.
    pub fn new(design: Value, seed: u64) -> Result<Self, Vec<Problem>> {
        Ok(Self {
            session: PlaySession::new(&Falling, design, seed)?,
            held: None,
            placement_pending: false,
        })
    }

    /// One running frame with `input` held: a turn or hard drop acts on the first frame of a
    /// press only; a move acts on the first frame, then after [`DAS_FRAMES`] every
    /// [`ARR_FRAMES`]; soft drop acts every frame. What the game gets is what a replay records.
    pub fn held(&mut self, input: Input) {
        let frames = match self.held {
            Some((i, n)) if i == input => n + 1,
            _ => 0,
        };
        self.held = Some((input, frames));
        let act = match input {
            Input::Turn(_) | Input::HardDrop | Input::Hold => frames == 0,
            Input::Move(_) => {
                frames == 0
                    || (frames >= DAS_FRAMES && (frames - DAS_FRAMES).is_multiple_of(ARR_FRAMES))
            }
            _ => true,
        };
        self.step(if act { input } else { Input::Wait });
    }

    /// Plays frames with no key until a tumo has been placed and the field has settled (or
    /// the game ends, or [`MAX_FRAMES_TO_PLACEMENT`] frames pass), on a worker thread (each
    /// frame one step of the history). `Some` with the words for the status bar when the
    /// run ended within the wait; `None` while it computes (collected by
    /// [`FallingPlay::poll`]). Cancel keeps the frames computed before it.
    pub fn run_to_placement(&mut self) -> Option<String> {
        if self.session.computing().is_some() {
            return None;
        }
        let outcome = self.session.compute_run(placement_run);
        match outcome {
            Some(o) => Some(self.ran(o)),
            None => {
                self.placement_pending = true;
                None
            }
        }
    }

    /// Collects the step or run computing on a worker thread once it is done; the words for
    /// the status bar (see [`crate::doc::KindDoc::play_poll`]).
    pub fn poll(&mut self) -> Option<String> {
        if !self.placement_pending {
            let (frame, _) = self.session.computing()?;
            let words = self.session.poll_step().flatten()?;
            return Some(format!("frame {frame} {words}"));
        }
        let o = self.session.poll::<PlacementRun>()?;
        self.placement_pending = false;
        Some(self.ran(o))
    }

    /// Records a run to the next placement; its words for the status bar.
    fn ran(&mut self, o: StepOutcome<PlacementRun>) -> String {
        match o {
            StepOutcome::Done(run) => {
                self.session
                    .end_run(Input::Wait, u64::from(run.frames), run.last);
                if run.cancelled {
                    format!(
                        "run to the next placement cancelled after {} frame(s)",
                        run.frames
                    )
                } else {
                    format!("ran {} frame(s) to the next placement", run.frames)
                }
            }
            StepOutcome::Cancelled => "run to the next placement cancelled".into(),
            StepOutcome::Failed(e) => format!("run to the next placement failed: {e}"),
        }
    }

    /// The running game.
    pub fn game(&self) -> &FallingGame {
        self.session
            .game
            .as_any()
            .downcast_ref::<FallingGame>()
            .expect("a falling session runs a FallingGame")
    }

    /// The shadow the play pane paints: each field cell where a block of the active tumo
    /// would land, `(x, y, kind)` with that block's own kind, sorted by y then x. Empty when
    /// the level shows no shadow or no tumo is in play.
    pub fn shadow_cells(&self, level: &FallingLevel) -> Vec<(usize, usize, BlockId)> {
        if level.shadow {
            self.game().shadow_blocks()
        } else {
            Vec::new()
        }
    }

    /// `(width, height)` of the field.
    pub fn size(&self) -> (usize, usize) {
        self.session.game.size()
    }

    /// One frame with `input`.
    pub fn step(&mut self, input: Input) {
        self.session.step(input);
    }

    /// The settled and moving field blocks as a grid (the active tumo not included).
    pub fn field_grid(&self) -> Grid<BlockId> {
        let f = self.game().field();
        Grid::from_vec(f.width, f.height, f.cells.clone()).unwrap_or_else(|| Grid::new(1, 1, EMPTY))
    }

    /// The script error the game stopped on, if any.
    pub fn script_error(&self) -> Option<ScriptError> {
        self.game().script_error().cloned()
    }

    /// A note on the cell at `pos` for the status bar (moving, vanishing, the tumo).
    pub fn describe(&self, pos: Pos) -> Option<String> {
        let g = self.game();
        if let Some(a) = g.active()
            && a.cells.iter().any(|&(x, y, _)| (x, y) == (pos.x, pos.y))
        {
            return Some(format!("the active tumo {} (state {})", a.name, a.state));
        }
        if let Some(c) = g.pending_clear()
            && c.cells.contains(&(pos.x, pos.y))
        {
            return Some(format!("vanishing ({} frames left)", c.frames_left));
        }
        match g.moving().get(pos.y * g.field().width + pos.x) {
            Some(&n) if n > 0 => Some(format!("falling ({n} frames left)")),
            _ => None,
        }
    }

    /// Paints the field, the shadow and the active tumo.
    pub fn paint(&self, painter: &Painter, level: &FallingLevel, g: &MapGeom) {
        let game = self.game();
        let field = game.field();
        let kind = |b: BlockId| {
            (b as usize)
                .checked_sub(1)
                .and_then(|i| level.blocks.get(i))
        };
        let vanishing = game.pending_clear();
        // The vanish flashes: bright early in the vanish, fading to its end.
        let fade = vanishing
            .as_ref()
            .map_or(1.0, |c| c.frames_left as f32 / c.frames_total.max(1) as f32);
        // The well under the blocks: one un-feathered mesh, so no seam shows between cells.
        let mut well = egui::Mesh::default();
        for pos in g.cells() {
            let i = pos.y * field.width + pos.x;
            if field.cells.get(i).and_then(|&b| kind(b)).is_some() {
                well.add_colored_rect(g.cell_rect(pos), look::WELL);
            }
        }
        painter.add(egui::Shape::mesh(well));
        for pos in g.cells() {
            let i = pos.y * field.width + pos.x;
            let Some(k) = field.cells.get(i).and_then(|&b| kind(b)) else {
                continue;
            };
            // A moving block is drawn where it still is on its way down.
            let up = game.fall_offset(pos.x, pos.y);
            let r = g.cell_rect(pos).translate(egui::vec2(0.0, -up * g.zoom));
            let going = vanishing
                .as_ref()
                .is_some_and(|c| c.cells.contains(&(pos.x, pos.y)));
            look::paint_block(painter, r, k, if going { 0.3 + 0.7 * fade } else { 1.0 });
            if going {
                painter.rect_filled(r, 0.0, Color32::from_white_alpha((160.0 * fade) as u8));
            }
        }
        let Some(active) = game.active() else { return };
        // Each shadow cell with its own block's kind (the active tumo may have blocks above
        // the field that the shadow shows in it).
        for (x, y, b) in self.shadow_cells(level) {
            let p = Pos::new(x, y);
            if let (Some(k), true) = (kind(b), g.shows(p)) {
                look::paint_block(painter, g.cell_rect(p), k, 0.25);
            }
        }
        for &(x, y, b) in &active.cells {
            let p = Pos::new(x, y);
            if let (Some(k), true) = (kind(b), g.shows(p)) {
                look::paint_block(painter, g.cell_rect(p), k, 1.0);
            }
        }
    }

    /// The banner over the map once the game is over (the shell draws it, wrapped to the
    /// map's width): `Stopped: script error: …` for a game its script stopped (as `tilesmith
    /// run` says `"status":"error"`), `Cleared!`, or `Game over: reason`.
    pub fn end_banner(&self) -> Option<Banner> {
        let game = self.game();
        if game.error().is_some() {
            return game_banner(game);
        }
        match game.status() {
            Status::Won { .. } => Some(Banner {
                text: "Cleared!".into(),
                fill: WON_FILL,
            }),
            Status::Lost { reason } => Some(Banner {
                text: format!("Game over: {reason}"),
                fill: LOST_FILL,
            }),
            // Falling levels never end in a draw.
            Status::Running | Status::Draw { .. } => None,
        }
    }

    /// Paints the chain in progress over the field (the end banner is the shell's).
    pub fn paint_overlays(&self, painter: &Painter, _g: &MapGeom) {
        let game = self.game();
        let chain = if game.pending_clear().is_some() && game.chain() >= 1 {
            // A vanish in progress after a clear is the next link of the chain.
            game.chain() + 1
        } else if game.chain() >= 2 && !game.is_settled() {
            game.chain()
        } else {
            return;
        };
        if game.status().is_over() {
            return;
        }
        let font = egui::FontId::proportional(20.0);
        let galley = painter.layout_no_wrap(format!("{chain} chain!"), font, Color32::WHITE);
        let clip = painter.clip_rect();
        let r = egui::Rect::from_center_size(
            clip.center_top() + egui::vec2(0.0, 34.0),
            galley.size() + egui::vec2(32.0, 16.0),
        );
        painter.rect_filled(r, 6.0, Color32::from_rgb(40, 60, 150).gamma_multiply(0.92));
        painter.galley(r.center() - galley.size() / 2.0, galley, Color32::WHITE);
    }
}

/// The play pane: controls, counters, the next tumos, the script error.
pub fn play_ui(ui: &mut Ui, d: &FallingDoc, out: &mut Vec<Action>) {
    let Some(p) = &d.play else { return };
    let game = p.game();
    let level = &d.design().rest;
    ui.horizontal_wrapped(|ui| {
        if p.session.running {
            if ui.button("Pause").on_hover_text("Pause (Enter)").clicked() {
                out.push(Action::Play(PlayAction::Run(false)));
            }
        } else if ui
            .add_enabled(!game.status().is_over(), egui::Button::new("Run"))
            .on_hover_text("Run at 60 frames/s × speed (Enter)")
            .clicked()
        {
            out.push(Action::Play(PlayAction::Run(true)));
        }
        if ui
            .button("Frame")
            .on_hover_text("One frame with no key (.)")
            .clicked()
        {
            out.push(Action::Play(PlayAction::Step(Some(Input::Wait))));
        }
        if ui
            .button("To next placement")
            .on_hover_text(
                "Run frames with no key until the tumo is placed and the field has settled",
            )
            .clicked()
        {
            out.push(Action::from(FallingAction::RunToPlacement));
        }
        if ui
            .add_enabled(game.steps() > 0, egui::Button::new("Back"))
            .on_hover_text("Undo one frame (Backspace)")
            .clicked()
        {
            out.push(Action::Play(PlayAction::Back));
        }
        if ui
            .add_enabled(game.redo_len() > 0, egui::Button::new("Forward"))
            .clicked()
        {
            out.push(Action::Play(PlayAction::Forward));
        }
    });
    let mut t = game.steps();
    let max = t + game.redo_len() as u64;
    if max > 0
        && ui
            .add(egui::Slider::new(&mut t, 0..=max).text("frame"))
            .on_hover_text("Scrub through the frames played")
            .changed()
    {
        out.push(Action::Play(PlayAction::Scrub(t)));
    }
    ui.separator();
    egui::Grid::new("falling stats")
        .num_columns(4)
        .show(ui, |ui| {
            ui.label("score");
            ui.label(RichText::new(game.score().to_string()).strong());
            ui.label("rows");
            ui.label(RichText::new(game.rows().to_string()).strong());
            ui.end_row();
            ui.label("chain");
            ui.label(RichText::new(game.chain().to_string()).strong());
            ui.label("max chain");
            ui.label(RichText::new(game.max_chain().to_string()).strong());
            ui.end_row();
            ui.label("frames");
            ui.label(game.steps().to_string());
            ui.label("status");
            ui.label(game.outcome_word());
            ui.end_row();
        });
    ui.horizontal(|ui| {
        if level.hold {
            hold_ui(ui, level, game);
            ui.add_space(12.0);
        }
        ui.vertical(|ui| {
            ui.label("next");
            ui.horizontal(|ui| {
                for t in game.next_tumos() {
                    next_ui(ui, level, t.tumo, &t.labels);
                }
            });
        });
    });
    if let Some(e) = game.script_error() {
        ui.label(
            RichText::new(format!("stopped: {e}"))
                .color(Color32::from_rgb(255, 110, 110))
                .monospace(),
        );
    }
    ui.label(
        RichText::new(if level.hold {
            "keys: Left, Right move · Down soft drop · Space hard drop · Up or X turn CW · Z turn CCW · A 180 · C hold"
        } else {
            "keys: Left, Right move · Down soft drop · Space hard drop · Up or X turn CW · Z turn CCW · A 180"
        })
            .small(),
    );
    ui.separator();
    if ui.button("Use this state as the design").clicked() {
        out.push(Action::Play(PlayAction::UseAsDesign));
    }
    if ui.button("Record replay…").clicked() {
        out.push(Action::Play(PlayAction::Record));
    }
    crate::ui::export_ui::export_gif_button(ui, out);
}

/// The hold box (a level with `hold`): the held tumo, greyed while `H` cannot be used (the
/// tumo in play came from the hold); an empty box when the slot is empty.
fn hold_ui(ui: &mut Ui, level: &FallingLevel, game: &FallingGame) {
    ui.vertical(|ui| {
        let used = game.hold_used();
        ui.label("hold").on_hover_text(if used {
            "Used: H works again once the tumo is placed"
        } else {
            "H (C) swaps the tumo in play with this one"
        });
        match game.held() {
            Some(q) => {
                let r = next_ui(ui, level, q.tumo, &q.labels);
                if let (true, Some(r)) = (used, r) {
                    ui.painter()
                        .rect_filled(r, 2.0, Color32::from_black_alpha(150));
                }
            }
            None => {
                let (r, _) = ui.allocate_exact_size(egui::vec2(64.0, 64.0), egui::Sense::hover());
                ui.painter().rect_filled(r, 2.0, look::WELL);
            }
        }
    });
}

/// A small picture of tumo `t`'s first state, its labelled cells in the kinds drawn for them.
/// Returns the box drawn, if any.
fn next_ui(ui: &mut Ui, level: &FallingLevel, t: usize, labels: &[BlockId]) -> Option<egui::Rect> {
    let tumo = level.tumos.get(t)?;
    let g = tumo.states.first()?;
    let cell = 16.0;
    let (rect, _) = ui.allocate_exact_size(
        egui::vec2(g.side as f32 * cell, g.side as f32 * cell),
        egui::Sense::hover(),
    );
    ui.painter().rect_filled(rect, 2.0, look::WELL);
    for (x, y, v) in g.blocks() {
        let r = egui::Rect::from_min_size(
            rect.min + egui::vec2(x as f32 * cell, y as f32 * cell),
            egui::vec2(cell, cell),
        );
        let b = if v == -1 {
            Some(tumo.block)
        } else {
            labels.get(v as usize - 1).copied()
        };
        match b
            .and_then(|b| (b as usize).checked_sub(1))
            .and_then(|i| level.blocks.get(i))
        {
            Some(k) => look::paint_block(ui.painter(), r, k, 1.0),
            None => {
                ui.painter()
                    .rect_filled(r.shrink(1.0), 2.0, Color32::from_gray(150));
            }
        }
    }
    Some(rect)
}
