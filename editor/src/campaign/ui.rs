//! The campaign overview, in the style of the game's level overview (spec boulder §2.1):
//! a header with the title, the points and the commands, then every level as a card with its
//! name, a thumbnail of its map, its best points as stars, and its lock. Cards are dragged by
//! their thumbnails to reorder them; a double-click on a thumbnail opens the level for
//! editing.
//!
//! Like every UI function, these read the state and push actions. Widgets carry accessible
//! names (`Play level 2`, `Unlock points of level 2`, …) so tests find them.

use eframe::egui::{self, Color32, Mesh, Pos2, RichText, Sense, Shape, Stroke, Ui, pos2, vec2};

use super::thumb::ThumbCache;
use super::{CampaignAction, CampaignState, Card, Lock};
use crate::doc::registry::Kinds;
use crate::doc::ui::KindUis;
use crate::state::{Action, EditorState};

/// The width of a card, in points.
pub const CARD_WIDTH: f32 = 230.0;
/// What a card's frame adds to its width (margins and stroke), in points.
const CARD_EXTRA: f32 = 20.0;
/// The height of a card's thumbnail, in points.
pub const THUMB_HEIGHT: f32 = 120.0;

const GOLD: Color32 = Color32::from_rgb(255, 200, 40);
const LOCKED: Color32 = Color32::from_rgb(150, 150, 160);
const ERROR: Color32 = Color32::from_rgb(255, 100, 100);

/// What is dragged when a card's thumbnail is dragged: the card's index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CardDrag(pub usize);

/// UI-side state of the overview: the thumbnails.
#[derive(Debug, Default)]
pub struct OverviewUi {
    /// The levels' thumbnails.
    pub thumbs: ThumbCache,
}

/// Draws the overview of `st`'s campaign into `ui` (the central area) and pushes actions.
/// `ov` the overview's buffers, `uis` the kind UIs that draw the thumbnails.
pub fn overview_ui(
    ui: &mut Ui,
    st: &EditorState,
    (ov, uis): (&mut OverviewUi, KindUis),
    out: &mut Vec<Action>,
) {
    let Some(c) = &st.campaign else { return };
    header_ui(ui, c, out);
    ui.separator();
    let cards = c.cards();
    let keys: Vec<(String, u64)> = cards
        .iter()
        .filter_map(|k| k.info.map(|i| (k.entry.path.clone(), i.serial)))
        .collect();
    ov.thumbs.retain(&keys);
    egui::ScrollArea::vertical()
        .id_salt("campaign-cards")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            if cards.is_empty() {
                ui.add_space(20.0);
                ui.label(
                    "This campaign has no levels yet. \"Add levels\" puts level files in it, \
                     in the order of play.",
                );
            }
            // Rows of as many cards as fit (a card's size is known only once it is drawn, so
            // the row is chosen from the card width rather than wrapped by egui).
            let gap = 12.0;
            let per_row = ((ui.available_width() + gap) / (CARD_WIDTH + CARD_EXTRA + gap))
                .floor()
                .max(1.0) as usize;
            ui.spacing_mut().item_spacing = vec2(gap, gap);
            for row in cards.chunks(per_row) {
                ui.horizontal(|ui| {
                    for card in row {
                        card_ui(ui, card, cards.len(), (&mut ov.thumbs, st.kinds, uis), out);
                    }
                });
            }
        });
    // The card being dragged follows the pointer.
    if let Some(drag) = egui::DragAndDrop::payload::<CardDrag>(ui.ctx())
        && let Some(p) = ui.ctx().pointer_interact_pos()
        && let Some(card) = cards.get(drag.0)
    {
        let layer = egui::LayerId::new(egui::Order::Tooltip, egui::Id::unique("card-drag"));
        ui.ctx().layer_painter(layer).text(
            p + vec2(12.0, 0.0),
            egui::Align2::LEFT_CENTER,
            format!("Moving {}", card.name()),
            egui::FontId::proportional(15.0),
            GOLD,
        );
    }
    if ui.input(|i| i.pointer.any_released()) {
        // A drop outside every card cancels the move.
        let _ = egui::DragAndDrop::take_payload::<CardDrag>(ui.ctx());
    }
}

/// The title, the points, the progress file and the commands.
fn header_ui(ui: &mut Ui, c: &CampaignState, out: &mut Vec<Action>) {
    let push = |out: &mut Vec<Action>, a: CampaignAction| out.push(Action::Campaign(a));
    ui.horizontal(|ui| {
        ui.label(RichText::new("Campaign").heading());
        let mut title = c.campaign.title.clone();
        let r = ui.add(
            egui::TextEdit::singleline(&mut title)
                .desired_width(440.0)
                .font(egui::TextStyle::Heading)
                .hint_text("title"),
        );
        let r = r
            .on_hover_text("The title shown above the overview")
            .accessible_name("Campaign title");
        if r.changed() {
            push(out, CampaignAction::SetTitle(title));
        }
        let (total, max) = c.points();
        ui.label(
            RichText::new(format!("{total} of {max} points"))
                .strong()
                .color(GOLD),
        );
    });
    ui.horizontal_wrapped(|ui| {
        if ui
            .button(RichText::new("Play campaign").strong())
            .on_hover_text("Play the next unlocked level that has points left to earn")
            .clicked()
        {
            push(out, CampaignAction::PlayNext);
        }
        if ui
            .button("Add levels…")
            .on_hover_text("Add level files at the end (stored relative to the campaign file)")
            .clicked()
        {
            push(out, CampaignAction::AddLevels);
        }
        let save = ui.add_enabled(c.dirty(), egui::Button::new("Save campaign"));
        if save
            .on_hover_text("Save the campaign file (Ctrl+S)")
            .clicked()
        {
            push(out, CampaignAction::Save);
        }
        let undo = c.done_names().last().map(|n| format!("Undo {n}"));
        let r = ui.add_enabled(undo.is_some(), egui::Button::new("Undo"));
        if r.on_hover_text(undo.unwrap_or_else(|| "Nothing to undo".into()))
            .clicked()
        {
            push(out, CampaignAction::Undo);
        }
        let redo = c.undone_names().first().map(|n| format!("Redo {n}"));
        let r = ui.add_enabled(redo.is_some(), egui::Button::new("Redo"));
        if r.on_hover_text(redo.unwrap_or_else(|| "Nothing to redo".into()))
            .clicked()
        {
            push(out, CampaignAction::Redo);
        }
        if ui
            .button("Close campaign")
            .on_hover_text("Close the overview (the open level stays)")
            .clicked()
        {
            push(out, CampaignAction::Close);
        }
    });
    ui.label(
        RichText::new(format!(
            "{} · progress in {}",
            c.file.display(),
            c.progress_file.display()
        ))
        .weak()
        .small(),
    );
    if let Some(why) = &c.progress_problem {
        ui.colored_label(ERROR, format!("The progress file cannot be read: {why}"));
    }
    if !c.notice.is_empty() {
        ui.label(RichText::new(&c.notice).strong());
    }
}

/// One card; a card dragged onto it is moved to its place.
/// One card; `thumbs` the thumbnail cache, the kinds that open the levels it draws and their
/// UIs that draw them.
fn card_ui(
    ui: &mut Ui,
    card: &Card<'_>,
    n: usize,
    thumbs: (&mut ThumbCache, Kinds, KindUis),
    out: &mut Vec<Action>,
) {
    let broken = card.info.is_none_or(|i| i.max_points.is_none());
    let open = card.lock == Lock::Open && !broken;
    let dragging = egui::DragAndDrop::has_payload_of_type::<CardDrag>(ui.ctx());
    let frame = egui::Frame::group(ui.style())
        .fill(Color32::from_rgb(30, 32, 40))
        .stroke(Stroke::new(
            2.0,
            if broken {
                Color32::from_rgb(140, 60, 60)
            } else if open {
                Color32::from_rgb(90, 140, 90)
            } else {
                Color32::from_gray(70)
            },
        ))
        .corner_radius(8.0)
        .inner_margin(8.0);
    let r = frame.show(ui, |ui| {
        ui.set_width(CARD_WIDTH);
        // The card's own column (the row of cards around it wraps left to right).
        ui.vertical(|ui| card_body(ui, card, n, thumbs, out));
    });
    let resp = r.response;
    resp.widget_info(|| {
        egui::WidgetInfo::labeled(
            egui::Role::Group,
            true,
            format!("Card {}: {}", card.index + 1, card.name()),
        )
    });
    if dragging && resp.dnd_hover_payload::<CardDrag>().is_some() {
        ui.painter().rect_stroke(
            resp.rect.expand(3.0),
            10.0,
            Stroke::new(3.0, Color32::from_rgb(120, 200, 255)),
            egui::StrokeKind::Outside,
        );
    }
    if let Some(from) = resp.dnd_release_payload::<CardDrag>()
        && from.0 != card.index
    {
        out.push(Action::Campaign(CampaignAction::Move {
            from: from.0,
            to: card.index,
        }));
    }
}

/// The inside of a card: name, thumbnail, stars, lock, problem, threshold and buttons.
fn card_body(
    ui: &mut Ui,
    card: &Card<'_>,
    n: usize,
    (thumbs, kinds, uis): (&mut ThumbCache, Kinds, KindUis),
    out: &mut Vec<Action>,
) {
    let i = card.index;
    let push = |out: &mut Vec<Action>, a: CampaignAction| out.push(Action::Campaign(a));
    ui.horizontal(|ui| {
        ui.label(RichText::new(format!("{}.", i + 1)).weak());
        ui.add(egui::Label::new(RichText::new(card.name()).strong().size(16.0)).truncate());
    });
    let (rect, resp) =
        ui.allocate_exact_size(vec2(CARD_WIDTH, THUMB_HEIGHT), Sense::click_and_drag());
    if let Some((info, level)) = card
        .info
        .and_then(|info| info.level.as_ref().map(|l| (info, l)))
    {
        thumbs.paint(
            ui,
            rect,
            (card.entry.path.clone(), info.serial),
            level,
            (kinds, uis),
        );
    }
    // One word over the thumbnail at most (`Card::thumb_overlay`).
    if let Some(text) = card.thumb_overlay() {
        let (fill, size, color) = if card.info.is_some_and(|i| i.level.is_some()) {
            (Color32::from_black_alpha(150), 22.0, LOCKED)
        } else {
            (Color32::from_rgb(50, 20, 20), 14.0, ERROR)
        };
        ui.painter().rect_filled(rect, 4.0, fill);
        ui.painter().text(
            rect.center(),
            egui::Align2::CENTER_CENTER,
            text,
            egui::FontId::proportional(size),
            color,
        );
    }
    resp.dnd_set_drag_payload(CardDrag(i));
    let resp = resp.on_hover_text("Drag to reorder; double-click to edit the level");
    resp.widget_info(|| {
        egui::WidgetInfo::labeled(
            egui::Role::Image,
            true,
            format!("Thumbnail of level {}", i + 1),
        )
    });
    if resp.double_clicked() {
        push(out, CampaignAction::Edit(i));
    }
    let broken = card.info.is_none_or(|i| i.max_points.is_none());
    if broken {
        ui.colored_label(ERROR, "Cannot be played: the level has errors");
    } else {
        stars_ui(ui, card);
    }
    let kind = card.info.and_then(|x| x.kind).unwrap_or("unknown kind");
    ui.label(
        RichText::new(format!("{kind} · {}", card.entry.path))
            .weak()
            .small(),
    );
    match card.lock {
        Lock::Open if broken => {}
        Lock::Open => {
            ui.colored_label(Color32::from_rgb(140, 210, 140), "Open");
        }
        l => {
            ui.colored_label(LOCKED, l.text());
        }
    }
    if let Some(w) = card.unreachable() {
        ui.colored_label(Color32::from_rgb(255, 190, 80), w);
    }
    if let Some(p) = card.info.and_then(|x| x.problem.as_ref()) {
        ui.add(egui::Label::new(RichText::new(p).color(ERROR).small()).wrap());
    }
    ui.horizontal(|ui| {
        ui.label("Unlock at");
        let mut points = card.entry.unlock;
        let r = ui
            .add(egui::DragValue::new(&mut points).range(0..=9999))
            .on_hover_text(
                "Points, in total over the levels above, that open this level (0: always open)",
            );
        let r = r.accessible_name(format!("Unlock points of level {}", i + 1));
        if r.changed() {
            push(out, CampaignAction::SetUnlock { index: i, points });
        }
        ui.label("points");
    });
    card_buttons(ui, card, n, out);
}

/// Play, Edit, Earlier, Later and Remove.
fn card_buttons(ui: &mut Ui, card: &Card<'_>, n: usize, out: &mut Vec<Action>) {
    let i = card.index;
    let push = |out: &mut Vec<Action>, a: CampaignAction| out.push(Action::Campaign(a));
    let named = |r: egui::Response, name: String| r.accessible_name(name);
    ui.horizontal_wrapped(|ui| {
        let why = card.why_not_playable();
        let play = ui.add_enabled(
            why.is_none(),
            egui::Button::new(RichText::new("Play").strong()),
        );
        let play = match &why {
            Some(w) => play.on_disabled_hover_text(w.as_str()),
            None => play.on_hover_text("Play this level as a player; a win records its points"),
        };
        if named(play, format!("Play level {}", i + 1)).clicked() {
            push(out, CampaignAction::Play(i));
        }
        let edit = ui
            .button("Edit")
            .on_hover_text("Open the level for editing");
        if named(edit, format!("Edit level {}", i + 1)).clicked() {
            push(out, CampaignAction::Edit(i));
        }
        let earlier = ui.add_enabled(i > 0, egui::Button::new("Earlier"));
        if named(earlier, format!("Move level {} earlier", i + 1)).clicked() {
            push(out, CampaignAction::Move { from: i, to: i - 1 });
        }
        let later = ui.add_enabled(i + 1 < n, egui::Button::new("Later"));
        if named(later, format!("Move level {} later", i + 1)).clicked() {
            push(out, CampaignAction::Move { from: i, to: i + 1 });
        }
        let remove = ui
            .button("Remove")
            .on_hover_text("Remove the level from the campaign (the file stays)");
        if named(remove, format!("Remove level {}", i + 1)).clicked() {
            push(out, CampaignAction::Remove(i));
        }
    });
}

/// The best points as stars (one per point the level can give), painted, with the points in
/// words beside them.
fn stars_ui(ui: &mut Ui, card: &Card<'_>) {
    ui.horizontal(|ui| {
        let size = 20.0;
        let (rect, resp) =
            ui.allocate_exact_size(vec2(size * card.stars as f32 + 4.0, size), Sense::hover());
        for k in 0..card.stars {
            let c = pos2(rect.left() + size * (k as f32 + 0.5), rect.center().y);
            paint_star(ui.painter(), c, size * 0.48, k < card.best);
        }
        let text = match card.stars {
            0 => "earns no points (it cannot be won)".to_string(),
            1 => format!("{} of 1 point", card.best),
            n => format!("{} of {n} points", card.best),
        };
        resp.widget_info(|| {
            egui::WidgetInfo::labeled(
                egui::Role::Image,
                true,
                format!("Stars of level {}: {text}", card.index + 1),
            )
        });
        ui.label(text);
    });
}

/// A five-pointed star around `c` with outer radius `r`: filled gold when `earned`, else an
/// outline.
pub fn paint_star(p: &egui::Painter, c: Pos2, r: f32, earned: bool) {
    let points: Vec<Pos2> = (0..10)
        .map(|k| {
            let a = -std::f32::consts::FRAC_PI_2 + k as f32 * std::f32::consts::PI / 5.0;
            let rr = if k % 2 == 0 { r } else { r * 0.45 };
            pos2(c.x + rr * a.cos(), c.y + rr * a.sin())
        })
        .collect();
    if earned {
        let mut m = Mesh::default();
        m.colored_vertex(c, GOLD);
        for q in &points {
            m.colored_vertex(*q, GOLD);
        }
        for k in 0..10u32 {
            m.add_triangle(0, 1 + k, 1 + (k + 1) % 10);
        }
        p.add(Shape::mesh(m));
    }
    p.add(Shape::closed_line(
        points,
        Stroke::new(
            1.5,
            if earned {
                GOLD
            } else {
                Color32::from_gray(110)
            },
        ),
    ));
}

/// The strip above a level opened from the campaign: which campaign, whether it is played
/// for points, and the way back to the overview.
pub fn back_strip_ui(ui: &mut Ui, st: &EditorState, out: &mut Vec<Action>) {
    let Some(c) = &st.campaign else { return };
    ui.horizontal(|ui| {
        if ui
            .button(RichText::new("Back to campaign").strong())
            .on_hover_text("Show the campaign's level overview")
            .clicked()
        {
            out.push(Action::Campaign(CampaignAction::Show));
        }
        let title = if c.campaign.title.is_empty() {
            "untitled"
        } else {
            &c.campaign.title
        };
        match &c.playing {
            Some(p) => {
                let name = c.level(p).map_or(p.as_str(), |i| i.name.as_str());
                ui.label(
                    RichText::new(format!(
                        "Playing \"{name}\" of the campaign \"{title}\": win to earn points"
                    ))
                    .color(GOLD),
                );
            }
            None => {
                ui.label(RichText::new(format!("Campaign \"{title}\"")).weak());
            }
        }
    });
}
