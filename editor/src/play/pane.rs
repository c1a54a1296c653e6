//! Pieces of a kind's own play pane that any kind can use (issue #28: what another kind could
//! use too is shared, not copied): the banner of who is to move, in their colour, or how the
//! game ended ([`status_banner`]), and the clickable list of the legal words
//! ([`legal_list_ui`], the words of `Game::legal_inputs`, with "the first N of M" when the
//! kind's list is capped). They take what the kind knows (the player's colour and name, the
//! words) and name no kind.

use eframe::egui::{self, Color32, RichText, Ui};
use tilesmith_engine::Status;

use crate::doc::ui::ink;

/// The banner's fill when a game is won.
pub const WON: Color32 = Color32::from_rgb(40, 120, 40);
/// The banner's fill when a game is drawn.
pub const DRAWN: Color32 = Color32::from_rgb(90, 90, 110);
/// The banner's fill when a game is lost or stopped.
pub const LOST: Color32 = Color32::from_rgb(120, 40, 40);

/// A coloured frame with `text` as a heading, in ink that reads on `fill`.
pub fn banner(ui: &mut Ui, fill: Color32, text: String) {
    egui::Frame::new()
        .fill(fill)
        .inner_margin(8.0)
        .corner_radius(4.0)
        .show(ui, |ui| {
            ui.label(RichText::new(text).heading().color(ink(fill)));
        });
}

/// Who is to move or decides, or how the game ended. While the game runs, `turn` gives the
/// player's colour and the sentence ("X to move", "red decides"). Over: "Game over: W wins",
/// "Solved" (won without a winner: a puzzle), "Game over: draw (reason)", and for a loss
/// `stopped` when the kind has a sentence of its own (a game stopped by an error), else
/// "Game over: reason".
pub fn status_banner(
    ui: &mut Ui,
    status: &Status,
    turn: impl FnOnce() -> (Color32, String),
    stopped: Option<String>,
) {
    match status {
        Status::Running => {
            let (fill, text) = turn();
            banner(ui, fill, text);
        }
        Status::Won {
            winner: Some(w), ..
        } => banner(ui, WON, format!("Game over: {w} wins")),
        Status::Won { .. } => banner(ui, WON, "Solved".into()),
        Status::Draw { reason } => banner(ui, DRAWN, format!("Game over: draw ({reason})")),
        Status::Lost { reason } => banner(
            ui,
            LOST,
            stopped.unwrap_or_else(|| format!("Game over: {reason}")),
        ),
    }
}

/// A list of legal words for [`legal_list_ui`].
pub struct LegalList<'a> {
    /// What they are ("Legal moves", "Legal words").
    pub title: &'a str,
    /// The egui id of the list (unique in the pane).
    pub id: &'a str,
    /// The words listed, entry `i` being `Input::Choice(i)`.
    pub words: &'a [String],
    /// The number of legal choices, all of them: more than listed when the list is capped.
    pub total: u64,
    /// Where the kind's list stops, said when it did.
    pub cap: usize,
    /// Each button's name for screen readers and tests is this followed by the word
    /// (`"play"`: "play skip"); `None` names it by the word alone.
    pub name: Option<&'a str>,
    /// The height of the list before it scrolls.
    pub height: f32,
}

/// The legal words under a header that counts them (the first N of M when capped), each a
/// button; `faint(i)` shows entry `i` faint (one that does not fit the clicks so far).
/// Returns the entry clicked.
pub fn legal_list_ui(ui: &mut Ui, l: &LegalList, faint: impl Fn(usize) -> bool) -> Option<usize> {
    let n = l.words.len();
    let head = if l.total > n as u64 {
        format!(
            "{}: the first {n} of {} (the list stops at {})",
            l.title, l.total, l.cap
        )
    } else {
        format!("{}: {n}", l.title)
    };
    let mut chosen = None;
    egui::CollapsingHeader::new(head)
        .id_salt(l.id)
        .default_open(true)
        .show(ui, |ui| {
            egui::ScrollArea::vertical()
                .id_salt((l.id, "scroll"))
                .max_height(l.height)
                .show(ui, |ui| {
                    ui.horizontal_wrapped(|ui| {
                        for (i, w) in l.words.iter().enumerate() {
                            let mut text = RichText::new(w).monospace();
                            if faint(i) {
                                text = text.weak();
                            }
                            let mut b = ui.button(text);
                            if let Some(p) = l.name {
                                b = b.accessible_name(format!("{p} {w}"));
                            }
                            if b.clicked() {
                                chosen = Some(i);
                            }
                        }
                    });
                });
        });
    chosen
}
