//! The New level dialog's answer and the resize that asks before it removes what the kind
//! calls essential (issue 14).

use tilesmith_engine::Pos;

use super::{Action, EditorState, Pending};
use crate::doc::registry::NewLevel;

/// At most this many essential cells are named in the resize question (then "and N more").
const NAMED: usize = 6;

/// Where cell `p` of an `old`-sized map lands after a resize to `new` with `anchor` (as
/// [`crate::tools::resized`] moves it); `None` when it is cropped.
pub fn moved(p: Pos, old: (usize, usize), new: (usize, usize), anchor: (u8, u8)) -> Option<Pos> {
    let (dx, dy) = crate::tools::resize_offset(old, new, anchor);
    let (x, y) = (p.x as i64 + dx, p.y as i64 + dy);
    (x >= 0 && y >= 0 && (x as usize) < new.0 && (y as usize) < new.1)
        .then(|| Pos::new(x as usize, y as usize))
}

impl EditorState {
    /// A new untitled level as the New level dialog asked (after the unsaved-changes question);
    /// the dialog closes.
    pub(super) fn new_level(&mut self, spec: NewLevel) {
        if self.ask_unsaved(Action::NewLevel(spec.clone())) {
            return;
        }
        self.new_dialog = false;
        match self.kinds.new_level(&spec) {
            Ok(doc) => {
                self.replace_document(doc, None, None);
                let (w, h) = self.map_size();
                self.view.fit(w, h);
                self.status = format!("new {} level, {w} × {h} cells", spec.kind);
                self.offer_autosave();
            }
            Err(m) => self.status = format!("cannot make the level: {m}"),
        }
    }

    /// Resizes the design, unless the resize would remove cells the kind calls essential
    /// (`KindDoc::essential_cells`) and `confirmed` is false: then it asks first
    /// ([`Pending::ConfirmResize`]), naming them.
    pub(super) fn resize(
        &mut self,
        (width, height): (usize, usize),
        anchor: (u8, u8),
        confirmed: bool,
    ) {
        let map = self.doc.map();
        let max = map.limits().0;
        let (old, new) = (map.size(), (width.clamp(1, max), height.clamp(1, max)));
        if !confirmed && new != old {
            let lost: Vec<(Pos, String)> = self
                .doc
                .essential_cells()
                .into_iter()
                .filter(|(p, _)| moved(*p, old, new, anchor).is_none())
                .collect();
            if !lost.is_empty() {
                let mut names: Vec<String> = lost
                    .iter()
                    .take(NAMED)
                    .map(|(p, what)| format!("{what} at x {}, y {}", p.x, p.y))
                    .collect();
                if lost.len() > NAMED {
                    names.push(format!("and {} more", lost.len() - NAMED));
                }
                self.pending = Some(Pending::ConfirmResize {
                    width,
                    height,
                    anchor,
                    lost: names,
                });
                return;
            }
        }
        if let Err(m) = self.doc.map_mut().resize(width, height, anchor) {
            self.status = m;
        }
        self.clip_selection();
    }

    /// The answer "Resize anyway" to [`Pending::ConfirmResize`].
    pub(super) fn resize_anyway(&mut self, width: usize, height: usize, anchor: (u8, u8)) {
        if self.playing() {
            return;
        }
        self.resize((width, height), anchor, true);
    }
}
