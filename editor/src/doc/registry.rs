//! The seam between the shell and the list of kinds: what one kind gives the editor
//! ([`KindEntry`]) and the look-ups over a list of them ([`Kinds`]).
//!
//! The list itself is built at the top (`kinds::registry`, called by the app and the CLI) and
//! handed down: [`crate::state::EditorState`] holds it, and the shell reads it from the state
//! or a parameter, so no file of the shell imports a kind (`docs/architecture.md`).

use std::path::Path;

use serde_json::Value;
use tilesmith_engine::game::FileType;
use tilesmith_engine::{GameKind, JsonPath, Problem};

use crate::doc::KindDoc;

/// Makes a document from a level document of the kind, or gives its problems.
pub type OpenFn = fn(&Value) -> Result<Box<dyn KindDoc>, Vec<Problem>>;

/// One kind in the editor: its engine kind and how to make its document (its UI is a
/// [`crate::doc::ui::UiEntry`] in a list of its own, above the state that this list is held by).
pub struct KindEntry {
    /// The kind's name, as in a level's `"kind"` field.
    pub name: &'static str,
    /// A few words for menus ("Boulder Dash with pre/post rule blocks").
    pub about: &'static str,
    /// The engine's kind: check, start, speed, input words, the files it opens.
    pub engine: &'static dyn GameKind,
    /// A new untitled level of the kind's default size.
    pub new_doc: fn() -> Box<dyn KindDoc>,
    /// A document from a level document of this kind.
    pub open: OpenFn,
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
    /// The dialog's default answer for the kind of `entry` (its [`NewOptions`]).
    pub fn defaults(entry: &KindEntry) -> Self {
        let o = (entry.new_options)();
        let (width, height) = o.size.unwrap_or((0, 0));
        Self {
            kind: entry.name,
            width,
            height,
            border: o.border,
            fill: o.fill,
        }
    }

    /// True when cell `(x, y)` of the new map is on its edge (so gets the border).
    pub fn on_edge(&self, x: usize, y: usize) -> bool {
        x == 0 || y == 0 || x + 1 == self.width || y + 1 == self.height
    }
}

impl std::fmt::Debug for KindEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KindEntry")
            .field("name", &self.name)
            .finish()
    }
}

/// The kinds the editor edits, default first: the list built at the top and handed down.
/// Derefs to the slice of entries (`kinds.iter()`, `kinds[0]`).
#[derive(Clone, Copy)]
pub struct Kinds(pub &'static [KindEntry]);

impl std::ops::Deref for Kinds {
    type Target = [KindEntry];

    fn deref(&self) -> &[KindEntry] {
        self.0
    }
}

/// Two lists are equal when they list the same kinds in the same order.
impl PartialEq for Kinds {
    fn eq(&self, other: &Self) -> bool {
        self.iter().map(|k| k.name).eq(other.iter().map(|k| k.name))
    }
}

impl std::fmt::Debug for Kinds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.0.iter().map(|k| k.name))
            .finish()
    }
}

impl Kinds {
    /// The default kind's entry (the first of the list).
    ///
    /// # Panics
    /// When the list is empty (the editor is built with at least one kind).
    pub fn default_entry(&self) -> &'static KindEntry {
        &self.0[0]
    }

    /// The entry of the kind named `name`.
    pub fn entry(&self, name: &str) -> Option<&'static KindEntry> {
        self.0.iter().find(|k| k.name == name)
    }

    /// A new untitled document of the kind named `name`.
    pub fn new_doc(&self, name: &str) -> Option<Box<dyn KindDoc>> {
        self.entry(name).map(|k| (k.new_doc)())
    }

    /// The New level dialog's default answer for the kind named `kind` (its
    /// [`NewOptions`]); `None` for a kind not in the list.
    pub fn new_level_defaults(&self, kind: &str) -> Option<NewLevel> {
        self.entry(kind).map(NewLevel::defaults)
    }

    /// A new level as the New level dialog asked for it.
    ///
    /// # Errors
    /// A message for an unknown kind, or a token the kind does not have.
    pub fn new_level(&self, spec: &NewLevel) -> Result<Box<dyn KindDoc>, String> {
        let e = self
            .entry(spec.kind)
            .ok_or_else(|| format!("no kind named {}", spec.kind))?;
        (e.new_level)(spec)
    }

    /// The file formats of the kinds besides JSON levels ([`GameKind::file_types`]: what
    /// File → Open offers and how such a file opens), in the order of the list.
    pub fn file_types(&self) -> impl Iterator<Item = &'static FileType> + use<> {
        self.0.iter().flat_map(|k| k.engine.file_types())
    }

    /// The file format of one of the kinds that `path` is in, by its extension (ASCII case
    /// ignored); `None` for a level (or any other file).
    pub fn file_type(&self, path: &Path) -> Option<&'static FileType> {
        let ext = path.extension()?;
        self.file_types()
            .find(|t| ext.eq_ignore_ascii_case(t.extension))
    }

    /// The Open dialog's filters, each a name and its extensions: every file the editor
    /// opens (`Level (JSON), FPGDL program (Lua) or board rules (ZRF)`), levels, each of
    /// [`Kinds::file_types`], and all files.
    pub fn open_filters(&self) -> Vec<(String, Vec<&'static str>)> {
        let mut names = vec!["Level (JSON)"];
        names.extend(self.file_types().map(|t| t.short_label));
        let all = match names.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => names.join(""),
        };
        let mut extensions = vec!["json"];
        extensions.extend(self.file_types().map(|t| t.extension));
        let mut filters = vec![(all, extensions), ("Level (JSON)".into(), vec!["json"])];
        filters.extend(
            self.file_types()
                .map(|t| (t.label.to_string(), vec![t.extension])),
        );
        filters.push(("All files".into(), vec!["*"]));
        filters
    }

    /// A document from a level document of any kind the editor edits.
    ///
    /// # Errors
    /// The document's problems, or one at `$.kind` for a kind the engine knows but the
    /// editor cannot edit yet.
    pub fn open_doc(&self, doc: &Value) -> Result<Box<dyn KindDoc>, Vec<Problem>> {
        let kind = tilesmith_engine::kind::kind_of(doc).map_err(|p| vec![p])?;
        match self.entry(kind.name()) {
            Some(e) => (e.open)(doc),
            None => Err(vec![Problem::error(
                JsonPath::root().key("kind"),
                format!("levels of kind \"{}\" cannot be edited yet", kind.name()),
            )]),
        }
    }
}
