//! The game kinds the editor edits: one module per kind, and the registry that lists them.
//!
//! Adding a kind means one module here (its document implementing [`KindDoc`], its UI
//! implementing [`KindUi`]) and one line in [`registry`]; see `docs/architecture.md`,
//! "Adding a game kind". The shell reaches kinds only through this registry and the two traits.

pub mod baba;
pub mod board;
pub mod boulder;
pub mod falling;

use serde_json::Value;
use tilesmith_engine::{GameKind, JsonPath, Problem};

use crate::doc::KindDoc;
use crate::doc::ui::KindUi;

/// Makes a document from a level document of the kind, or gives its problems.
pub type OpenFn = fn(&Value) -> Result<Box<dyn KindDoc>, Vec<Problem>>;

/// One kind in the editor: its engine kind and how to make its document and UI.
pub struct KindEntry {
    /// The kind's name, as in a level's `"kind"` field.
    pub name: &'static str,
    /// A few words for menus ("Boulder Dash with pre/post rule blocks").
    pub about: &'static str,
    /// The engine's kind: check, start, speed, input words.
    pub engine: &'static dyn GameKind,
    /// A new untitled level of the kind's default size.
    pub new_doc: fn() -> Box<dyn KindDoc>,
    /// A document from a level document of this kind.
    pub open: OpenFn,
    /// The kind's UI (palette, pages, canvas look).
    pub new_ui: fn() -> Box<dyn KindUi>,
    /// A generated `side` × `side` level for the frame benchmark.
    pub bench_doc: fn(usize) -> Box<dyn KindDoc>,
    /// What the New level dialog offers for the kind, with its defaults.
    pub new_options: fn() -> NewOptions,
    /// A new untitled level as the New level dialog asked for it.
    pub new_level: NewFn,
}

/// Makes a new level from the New level dialog's answer, or says why it cannot.
pub type NewFn = fn(&NewLevel) -> Result<Box<dyn KindDoc>, String>;

/// What the New level dialog (File → New…, Ctrl+N) offers for a kind, and its defaults.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewOptions {
    /// The default size in cells (width, height); `None` when the size is not chosen here
    /// (board: the rules give it), and the dialog asks no size, border or fill.
    pub size: Option<(usize, usize)>,
    /// The smallest and largest side, in cells.
    pub sides: (usize, usize),
    /// The token names the border and the fill may be (the kind's own names: a boulder
    /// token, a baba object noun or `empty`, a falling block name or `empty`).
    pub tokens: Vec<String>,
    /// The default border token; `None`: no border (the fill reaches the edge).
    pub border: Option<String>,
    /// The default fill token.
    pub fill: String,
    /// What else the new level holds, said under the fields (boulder: where `me` and the
    /// exit are put).
    pub note: &'static str,
}

/// The New level dialog's answer: a level of `kind`, `width` × `height` cells, its edge cells
/// `border` (`None`: no border) and the others `fill`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewLevel {
    /// The kind's name (`boulder`, `baba`, …).
    pub kind: &'static str,
    /// Width in cells.
    pub width: usize,
    /// Height in cells.
    pub height: usize,
    /// The token of the cells on the map's edge; `None`: they are `fill` too.
    pub border: Option<String>,
    /// The token of the other cells.
    pub fill: String,
}

impl NewLevel {
    /// The dialog's default answer for the kind named `kind` (its [`NewOptions`]).
    pub fn defaults(kind: &'static str) -> Option<Self> {
        let o = (entry(kind)?.new_options)();
        let (width, height) = o.size.unwrap_or((0, 0));
        Some(Self {
            kind,
            width,
            height,
            border: o.border,
            fill: o.fill,
        })
    }

    /// True when cell `(x, y)` of the new map is on its edge (so gets the border).
    pub fn on_edge(&self, x: usize, y: usize) -> bool {
        x == 0 || y == 0 || x + 1 == self.width || y + 1 == self.height
    }
}

/// A new level as the New level dialog asked for it.
///
/// # Errors
/// A message for an unknown kind, or a token the kind does not have.
pub fn new_level(spec: &NewLevel) -> Result<Box<dyn KindDoc>, String> {
    let e = entry(spec.kind).ok_or_else(|| format!("no kind named {}", spec.kind))?;
    (e.new_level)(spec)
}

impl std::fmt::Debug for KindEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KindEntry")
            .field("name", &self.name)
            .finish()
    }
}

/// Every kind the editor edits, default first. One line per kind.
pub fn registry() -> &'static [KindEntry] {
    const KINDS: &[KindEntry] = &[boulder::ENTRY, baba::ENTRY, falling::ENTRY, board::ENTRY];
    KINDS
}

/// The entry of the kind named `name`.
pub fn entry(name: &str) -> Option<&'static KindEntry> {
    registry().iter().find(|k| k.name == name)
}

/// A new untitled document of the kind named `name`.
pub fn new_doc(name: &str) -> Option<Box<dyn KindDoc>> {
    entry(name).map(|k| (k.new_doc)())
}

/// The UI of the kind named `name` (the default kind's when unknown).
pub fn new_ui(name: &str) -> Box<dyn KindUi> {
    (entry(name).unwrap_or(&registry()[0]).new_ui)()
}

/// A document from a level document of any kind the editor edits.
///
/// # Errors
/// The document's problems, or one at `$.kind` for a kind the engine knows but the editor
/// cannot edit yet.
pub fn open_doc(doc: &Value) -> Result<Box<dyn KindDoc>, Vec<Problem>> {
    let kind = tilesmith_engine::kind::kind_of(doc).map_err(|p| vec![p])?;
    match entry(kind.name()) {
        Some(e) => (e.open)(doc),
        None => Err(vec![Problem::error(
            JsonPath::root().key("kind"),
            format!("levels of kind \"{}\" cannot be edited yet", kind.name()),
        )]),
    }
}
