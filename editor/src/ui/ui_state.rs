//! The UI state: what the window keeps between frames that is not part of the document
//! (widget buffers, caches, the open kind's UI, the running export). Its own file, below the
//! drawing functions of `ui/` that take it.

use crate::doc::ui::{KindUi, KindUis};
use crate::state::EditorState;

use super::{canvas, chooser, panels};

/// UI-side state that is not part of the document: widget buffers and caches.
pub struct UiState {
    /// Buffers of the side panels.
    pub panels: panels::PanelState,
    /// The canvas texture cache.
    pub canvas: canvas::CanvasCache,
    /// The UIs of the kinds, which make [`UiState::kind`].
    pub uis: KindUis,
    /// The open kind's UI (its buffers and caches); replaced when the kind changes.
    pub kind: Box<dyn KindUi>,
    /// The campaign overview's thumbnails.
    pub overview: crate::campaign::ui::OverviewUi,
    /// The export running on a worker thread, if any.
    pub export: Option<crate::export::job::ExportJob>,
    /// The built-in file chooser, while it is open.
    pub chooser: chooser::ChooserSlot,
    /// What the New level dialog has chosen so far, while it is open.
    pub new_form: Option<crate::doc::registry::NewLevel>,
    /// The play pane's shared tools (the computer player, Solve), drawn by the shell below
    /// the kind's play pane.
    pub play_tools: crate::play::PlayTools,
}

impl UiState {
    /// The window's UI buffers, the kind UI that of the default kind of `uis`.
    pub fn new(uis: KindUis) -> Self {
        Self {
            uis,
            panels: panels::PanelState::default(),
            canvas: canvas::CanvasCache::default(),
            kind: uis.new_ui(""),
            overview: crate::campaign::ui::OverviewUi::default(),
            export: None,
            chooser: None,
            new_form: None,
            play_tools: crate::play::PlayTools::default(),
        }
    }
}

impl std::fmt::Debug for UiState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UiState")
            .field("kind", &self.kind.kind())
            .finish_non_exhaustive()
    }
}

impl UiState {
    /// The kind UI, made anew from [`UiState::uis`] when the document's kind changed.
    pub fn kind_for(&mut self, st: &EditorState) -> &mut dyn KindUi {
        if self.kind.kind() != st.kind_name() {
            self.kind = self.uis.new_ui(st.kind_name());
        }
        self.kind.as_mut()
    }
}
