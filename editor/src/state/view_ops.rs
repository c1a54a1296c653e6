//! The view's actions on the state: zoom, pan, fit, the canvas's size (and the fit of a
//! document just opened to the canvas it is first drawn in), locating a cell.

use super::{Action, EditorState};
use crate::tools::CellRect;

impl EditorState {
    /// The view's actions: zoom, pan, fit, the canvas size, locating a cell.
    pub(super) fn view_action(&mut self, a: Action) {
        let centre = [self.view.canvas[0] / 2.0, self.view.canvas[1] / 2.0];
        match a {
            Action::ZoomAt { .. }
            | Action::ZoomIn
            | Action::ZoomOut
            | Action::Fit
            | Action::Pan(_)
            | Action::Locate(_) => self.view.refit = false,
            _ => {}
        }
        match a {
            Action::ZoomAt { factor, at } => self.view.zoom_at(factor, at),
            Action::ZoomIn => self.view.zoom_at(1.25, centre),
            Action::ZoomOut => self.view.zoom_at(0.8, centre),
            Action::Fit => {
                let (w, h) = self.map_size();
                self.view.fit(w, h);
            }
            Action::Pan([dx, dy]) => {
                self.view.pan[0] += dx;
                self.view.pan[1] += dy;
            }
            Action::CanvasSize(s) => {
                // The zoom and the pan (the map's offset from the canvas's top-left corner)
                // stay as they are: a panel shown, hidden or resized, a page of the side
                // panel switched or the window resized moves no cell on screen (issue 14).
                // Fit (0) fits the map to the new canvas. A document just opened is fitted
                // to the canvas it is first drawn in (`Viewport::refit`).
                self.view.canvas = s;
                if std::mem::take(&mut self.view.refit) {
                    let (w, h) = self.map_size();
                    self.view.fit(w, h);
                }
            }
            Action::Locate(p) => {
                self.view.center_on(p);
                self.inspect = Some(p);
                self.selection = Some(CellRect::span(p, p));
            }
            _ => {}
        }
    }
}
