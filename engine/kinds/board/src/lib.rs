//! The board kind: board games written in Zillions-of-Games rule files (ZRF), played with
//! the move primitives of spec `move-primitives.md`: generation on the board as it stands,
//! execution in three levels, cascades, key primitives, partial moves and the legality
//! filter.
//!
//! [`zrf::compile`] reads a ZRF text into [`Rules`]; [`play`] generates, plays and counts
//! moves on a [`Position`]; [`game::BoardGame`] is the running
//! [`tilesmith_core::game::Game`], whose steps are whole turns chosen from the legal ones
//! ([`Input::Choice`], written by their notation); [`level::BoardLevel`] is the JSON level
//! (`docs/board-level-format.md`). A `.zrf` file opens as a level of its own
//! ([`GameKind::open_file`]).

#![warn(missing_docs)]

pub mod game;
pub mod level;
pub mod play;
pub mod rules;
pub mod zrf;

use std::path::Path;

use serde_json::Value;

pub use game::BoardGame;
pub use level::BoardLevel;
pub use play::{Move, Position, Primitive, TurnMove};
pub use rules::Rules;

use tilesmith_core::game::{FileOpening, FileType, Game, GameKind, OpenedFile};
use tilesmith_core::input::{Input, InputSpec};
use tilesmith_core::problem::{JsonPath, Problem};

/// What a board game takes in every position besides its legal turns: undo and restart.
/// The turns themselves are listed by [`Game::legal_inputs`].
const INPUTS: [InputSpec; 2] = [
    InputSpec {
        word: "undo",
        input: Input::Undo,
        label: "Undo",
        key: "Z",
    },
    InputSpec {
        word: "restart",
        input: Input::Restart,
        label: "Restart",
        key: "R",
    },
];

/// The files the board kind opens besides levels: ZRF rules files.
const FILE_TYPES: [FileType; 1] = [FileType {
    extension: "zrf",
    word: "rules file",
    label: "Board game rules (ZRF)",
    short_label: "board rules (ZRF)",
    opening: FileOpening::Refer,
    max_bytes: Some(zrf::MAX_ZRF_BYTES as u64),
    import_about: None,
}];

/// The text of a ZRF file: a regular file of at most [`zrf::MAX_ZRF_BYTES`] bytes of UTF-8
/// (a leading byte-order mark dropped).
///
/// # Errors
/// Why it cannot be read, in a few words.
pub fn read_rules_file(path: &Path) -> Result<String, String> {
    tilesmith_core::read::read_text_file(path, zrf::MAX_ZRF_BYTES as u64)
}

/// Whether the relative path `p` stays inside the folder it is relative to, read as written
/// (no symbolic link followed): not absolute, and no `..` that climbs above its start.
/// The warning for a level in folder `base` whose `"rules"` names the file `name` outside
/// that folder (absolute, a `..` that climbs above it, or a symbolic link to a file
/// elsewhere): the level reads a file that is not shared with it (issue #30). `None` when
/// the file is within the folder. The same warning in `check` and in the editor's problems
/// list.
pub fn rules_outside_warning(name: &str, base: &Path) -> Option<Problem> {
    // As written (`../x.zrf`), and where it really is: a link in the folder may point
    // anywhere (a missing file is reported where it is read). A level named without a folder
    // (`level.json`) has the empty path as its folder, which is the working folder.
    let base = if base.as_os_str().is_empty() {
        Path::new(".")
    } else {
        base
    };
    let resolved_outside = match (
        std::fs::canonicalize(base),
        std::fs::canonicalize(base.join(name)),
    ) {
        (Ok(b), Ok(f)) => !f.starts_with(b),
        _ => false,
    };
    (!within(Path::new(name)) || resolved_outside).then(|| {
        Problem::warning(
            JsonPath::root().key("rules"),
            format!(
                "the rules file {} is outside the level's folder: the level reads a file \
                 that is not shared with it",
                tilesmith_core::problem::quote_at_most(name, 240)
            ),
        )
    })
}

fn within(p: &Path) -> bool {
    let mut depth = 0usize;
    for c in p.components() {
        match c {
            std::path::Component::Normal(_) => depth += 1,
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => return false,
            },
            std::path::Component::RootDir | std::path::Component::Prefix(_) => return false,
        }
    }
    true
}

/// The board game kind.
#[derive(Debug, Clone, Copy, Default)]
pub struct Board;

impl GameKind for Board {
    fn name(&self) -> &'static str {
        "board"
    }

    fn check(&self, doc: &Value) -> Vec<Problem> {
        BoardLevel::check(&tilesmith_core::level_json::known_members(
            doc,
            &level::MEMBERS,
        ))
    }

    fn start(&self, doc: &Value, _seed: u64) -> Result<Box<dyn Game>, Vec<Problem>> {
        // Board games have no randomness: the seed is not used.
        let level = BoardLevel::from_json(doc)?;
        Ok(Box::new(BoardGame::new(level)))
    }

    /// Turns per second when a game is run on its own: a board game waits for each move.
    fn steps_per_second(&self) -> f64 {
        1.0
    }

    fn inputs(&self) -> &'static [InputSpec] {
        &INPUTS
    }

    fn positional_inputs(&self) -> bool {
        true
    }

    /// ZRF rules files (`.zrf`), each opened as a level of its own.
    fn file_types(&self) -> &'static [FileType] {
        &FILE_TYPES
    }

    /// Opens a whole ZRF rules file as a document: a level of kind `board` that holds the
    /// text, `{"kind": "board", "rules": {"file": PATH, "zrf": TEXT}}`, so that its default
    /// variant plays from its own setup. `path` names the file in problems (`game.zrf:12:5:
    /// …`).
    fn open_file(&self, text: &str, path: &Path) -> Result<OpenedFile, Vec<Problem>> {
        Ok(OpenedFile {
            value: serde_json::json!({
                "kind": "board",
                "rules": {"file": path.display().to_string(), "zrf": text},
            }),
            source: None,
        })
    }

    /// A level's `"rules": "game.zrf"` becomes `"rules": {"file": "BASE/game.zrf", "zrf":
    /// TEXT}` (at most [`zrf::MAX_ZRF_BYTES`] bytes, a regular UTF-8 file,
    /// [`read_rules_file`]). Rules given as text are left as they are.
    ///
    /// Returns one error at `$.rules` (unlocated) when the file is not read: its name does
    /// not end in `.zrf` (nothing is read), or it is missing, not a regular file, too large,
    /// not UTF-8; the member is then left as it was. A warning when the name leads outside
    /// the level's folder (absolute, a `..` above it, or a symbolic link to a file elsewhere;
    /// issue #30), and the file is read.
    fn resolve_files(&self, doc: &mut Value, base: &Path) -> Vec<Problem> {
        let Some(Value::String(name)) = doc.get("rules") else {
            return Vec::new();
        };
        let path = base.join(name);
        let shown = path.display().to_string();
        let at = || JsonPath::root().key("rules");
        let quoted = || tilesmith_core::problem::quote_at_most(name, 240);
        // Only a `.zrf` file is read, so that a level cannot make Tilesmith read and quote any
        // file of the machine (issue #30: `"rules": "/etc/passwd"`).
        let is_zrf = Path::new(name)
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("zrf"));
        if !is_zrf {
            return vec![Problem::error(
                at(),
                format!(
                    "the rules file {} is not a .zrf file (a level's \"rules\" names a ZRF \
                     rules file, or holds its text)",
                    quoted()
                ),
            )];
        }
        let problems: Vec<Problem> = rules_outside_warning(name, base).into_iter().collect();
        match read_rules_file(&path) {
            Ok(text) => {
                doc["rules"] = serde_json::json!({"file": shown, "zrf": text});
                problems
            }
            Err(why) => vec![Problem::error(
                JsonPath::root().key("rules"),
                format!(
                    "cannot read the rules file {}: {why}",
                    tilesmith_core::problem::quote_at_most(&shown, 240)
                ),
            )],
        }
    }

    /// The level with its `variant` member set to `title` (replacing any).
    fn with_variant(&self, doc: &Value, title: &str) -> Result<Value, String> {
        let mut doc = doc.clone();
        match doc.as_object_mut() {
            Some(o) => {
                o.insert("variant".into(), Value::String(title.to_string()));
                Ok(doc)
            }
            None => Err("the level is not a JSON object".into()),
        }
    }
}
