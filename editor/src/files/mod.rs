//! Files around the document: native dialogs behind a trait, the settings file with the recent
//! files, and the autosave copy in the platform's data directory.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::doc::registry::Kinds;

/// File dialogs. The app uses [`RfdDialogs`]; tests script answers with [`ScriptedDialogs`] so
/// no real dialog ever opens.
pub trait Dialogs {
    /// Asks for a level file to open; `None` when cancelled.
    fn pick_open(&mut self) -> Option<PathBuf>;
    /// Asks where to save a level, suggesting `file_name`; `None` when cancelled.
    fn pick_save(&mut self, file_name: &str) -> Option<PathBuf>;
    /// Asks where to save a replay, suggesting `file_name`; `None` when cancelled.
    fn pick_save_replay(&mut self, file_name: &str) -> Option<PathBuf> {
        self.pick_save(file_name)
    }
    /// Asks for level files to add to a campaign (several may be chosen); empty when
    /// cancelled. By default one file from [`Dialogs::pick_open`].
    fn pick_levels(&mut self) -> Vec<PathBuf> {
        self.pick_open().into_iter().collect()
    }
    /// Asks where to save a campaign, suggesting `file_name`; `None` when cancelled.
    fn pick_save_campaign(&mut self, file_name: &str) -> Option<PathBuf> {
        self.pick_save(file_name)
    }
    /// Asks where to save an exported image (`file_name` ends in `.png` or `.gif`); `None`
    /// when cancelled.
    fn pick_save_image(&mut self, file_name: &str) -> Option<PathBuf> {
        self.pick_save(file_name)
    }
    /// Why the last request showed no dialog, when no native dialog is available (no XDG
    /// desktop portal and no `zenity`); cleared by the call. The editor then opens its
    /// built-in chooser and says why in the status bar. `None` after a real answer or a
    /// cancel.
    fn take_unavailable(&mut self) -> Option<String> {
        None
    }
    /// The folder the next dialog starts in: the open document's folder.
    fn set_dir(&mut self, _dir: &Path) {}
}

/// A request for the built-in file chooser, made when no native dialog is available
/// ([`Dialogs::take_unavailable`]); the UI draws it (`egui_file`) and answers with
/// [`crate::state::Action::ChooserDone`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chooser {
    /// What the chosen file is for (and so the title, filter and extension).
    pub purpose: ChooserFor,
    /// The folder it starts in: the document's (or the campaign's) folder.
    pub dir: PathBuf,
    /// The suggested file name (when saving).
    pub file_name: String,
}

/// What the built-in chooser asks for: each file dialog of the editor that can fall back to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChooserFor {
    /// File → Open: a level, FPGDL program, rules file or campaign.
    Open,
    /// File → Save As: where to save the level.
    SaveLevel,
    /// Campaign → Add levels: level files to add (several may be chosen).
    AddLevels,
    /// File → New campaign: where to create it.
    NewCampaign,
    /// Save As on the campaign overview.
    SaveCampaignAs,
    /// Play → Record: where to save the replay.
    SaveReplay,
    /// File → Export PNG: where to write the image (`.png`).
    ExportPng,
    /// Export GIF of this play: where to write the animation (`.gif`).
    ExportGif,
}

impl ChooserFor {
    /// True when a file name is typed (a save dialog), false when files are picked.
    pub fn saves(self) -> bool {
        !matches!(self, ChooserFor::Open | ChooserFor::AddLevels)
    }

    /// The dialog's title.
    pub fn title(self) -> &'static str {
        match self {
            ChooserFor::Open => "Open a level",
            ChooserFor::SaveLevel => "Save the level as",
            ChooserFor::AddLevels => "Add levels to the campaign",
            ChooserFor::NewCampaign => "Create the campaign file",
            ChooserFor::SaveCampaignAs => "Save the campaign as",
            ChooserFor::SaveReplay => "Save the replay as",
            ChooserFor::ExportPng => "Export the level as a PNG image",
            ChooserFor::ExportGif => "Export the play as a GIF",
        }
    }

    /// The extension the chosen file must have (lower case, no dot): the chooser lists only
    /// such files (and folders), and one is added to a typed name without it. `None` when any
    /// file is accepted (a level may be JSON, Lua or ZRF).
    pub fn extension(self) -> Option<&'static str> {
        match self {
            ChooserFor::Open => None,
            ChooserFor::ExportPng => Some("png"),
            ChooserFor::ExportGif => Some("gif"),
            _ => Some("json"),
        }
    }

    /// `path` with [`ChooserFor::extension`] added when it has another one or none
    /// (`level` → `level.png`, `level.jpg` → `level.jpg.png`); unchanged otherwise.
    pub fn with_extension(self, path: PathBuf) -> PathBuf {
        match self.extension() {
            Some(ext) if !has_extension(&path, ext) => {
                let mut s = path.into_os_string();
                s.push(".");
                s.push(ext);
                PathBuf::from(s)
            }
            _ => path,
        }
    }
}

/// True when `path` ends in `.ext` (any case).
pub fn has_extension(path: &Path, ext: &str) -> bool {
    path.extension()
        .is_some_and(|e| e.to_string_lossy().eq_ignore_ascii_case(ext))
}

/// True when an executable `name` is in one of the `PATH` folders.
pub fn on_path(name: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|paths| {
        std::env::split_paths(&paths).any(|d| {
            let f = d.join(name);
            f.metadata().is_ok_and(|m| m.is_file())
        })
    })
}

/// Whether `rfd` can show a native dialog here: `Err` with the reason when there is neither
/// a D-Bus session bus (where the XDG desktop portal lives) nor `zenity` on `PATH` (rfd's
/// fallback). A session bus without a portal is found out only by asking: see
/// [`RfdDialogs`].
pub fn native_dialogs() -> Result<(), String> {
    let bus = std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some_and(|b| !b.is_empty());
    if bus || on_path("zenity") {
        Ok(())
    } else {
        Err(
            "no native file dialog (no D-Bus session for the XDG desktop portal, and zenity \
             is not installed)"
                .into(),
        )
    }
}

/// Native dialogs through `rfd` (the XDG desktop portal, or `zenity` as a fallback).
///
/// rfd gives `None` at once, as for a cancel, when it finds neither. So a request is not
/// made when [`native_dialogs`] says there is neither a D-Bus session nor `zenity`, and an
/// answer of `None` within [`INSTANT`] with no `zenity` on `PATH` (a bus without a portal)
/// also counts as "no dialog available": [`Dialogs::take_unavailable`] then says why.
#[derive(Debug, Default)]
pub struct RfdDialogs {
    /// The folder dialogs start in.
    pub dir: Option<PathBuf>,
    /// Why the last request showed no dialog.
    unavailable: Option<String>,
    /// The Open dialog's filters: levels and the kinds' own file formats
    /// ([`Kinds::open_filters`]).
    open_filters: Vec<(String, Vec<&'static str>)>,
}

/// A "cancel" faster than this with no `zenity` installed means no dialog was shown.
pub const INSTANT: Duration = Duration::from_millis(250);

impl RfdDialogs {
    /// Dialogs starting in `dir`, whose Open dialog offers the file formats of `kinds`.
    pub fn new(dir: Option<PathBuf>, kinds: Kinds) -> Self {
        Self {
            dir,
            unavailable: None,
            open_filters: kinds.open_filters(),
        }
    }

    /// Runs one rfd request, noting when no dialog could be shown.
    fn ask<T>(&mut self, f: impl FnOnce(&Self) -> Option<T>) -> Option<T> {
        self.unavailable = None;
        if let Err(why) = native_dialogs() {
            self.unavailable = Some(why);
            return None;
        }
        let start = Instant::now();
        let answer = f(self);
        if answer.is_none() && start.elapsed() < INSTANT && !on_path("zenity") {
            self.unavailable = Some(
                "no native file dialog answered (no XDG desktop portal, and zenity is not \
                 installed)"
                    .into(),
            );
        }
        answer
    }
}

impl Dialogs for RfdDialogs {
    fn take_unavailable(&mut self) -> Option<String> {
        self.unavailable.take()
    }

    fn set_dir(&mut self, dir: &Path) {
        self.dir = Some(dir.to_path_buf());
    }

    fn pick_open(&mut self) -> Option<PathBuf> {
        self.ask(Self::rfd_open)
    }

    fn pick_save(&mut self, file_name: &str) -> Option<PathBuf> {
        self.ask(|s| s.rfd_save(file_name))
    }

    fn pick_levels(&mut self) -> Vec<PathBuf> {
        self.ask(Self::rfd_levels).unwrap_or_default()
    }

    fn pick_save_campaign(&mut self, file_name: &str) -> Option<PathBuf> {
        self.ask(|s| s.rfd_save_campaign(file_name))
    }

    fn pick_save_replay(&mut self, file_name: &str) -> Option<PathBuf> {
        self.ask(|s| s.rfd_save_as("Save the replay", "Replay (JSON)", "json", file_name))
    }

    fn pick_save_image(&mut self, file_name: &str) -> Option<PathBuf> {
        let (what, ext) = if has_extension(Path::new(file_name), "gif") {
            ("Animation (GIF)", "gif")
        } else {
            ("Image (PNG)", "png")
        };
        self.ask(|s| s.rfd_save_as("Export", what, ext, file_name))
    }
}

impl RfdDialogs {
    fn rfd_open(&self) -> Option<PathBuf> {
        let mut d = rfd::FileDialog::new();
        for (name, extensions) in &self.open_filters {
            d = d.add_filter(name, extensions);
        }
        if let Some(dir) = &self.dir {
            d = d.set_directory(dir);
        }
        d.pick_file()
    }

    fn rfd_save(&self, file_name: &str) -> Option<PathBuf> {
        let mut d = rfd::FileDialog::new()
            .add_filter("Level (JSON)", &["json"])
            .set_file_name(file_name);
        if let Some(dir) = &self.dir {
            d = d.set_directory(dir);
        }
        d.save_file()
    }

    fn rfd_levels(&self) -> Option<Vec<PathBuf>> {
        let mut d = rfd::FileDialog::new()
            .set_title("Add levels to the campaign")
            .add_filter("Level (JSON)", &["json"])
            .add_filter("All files", &["*"]);
        if let Some(dir) = &self.dir {
            d = d.set_directory(dir);
        }
        d.pick_files()
    }

    /// A save dialog titled `title` with one filter (`what`, files ending in `.ext`).
    fn rfd_save_as(&self, title: &str, what: &str, ext: &str, file_name: &str) -> Option<PathBuf> {
        let mut d = rfd::FileDialog::new()
            .set_title(title)
            .add_filter(what, &[ext])
            .set_file_name(file_name);
        if let Some(dir) = &self.dir {
            d = d.set_directory(dir);
        }
        d.save_file()
    }

    fn rfd_save_campaign(&self, file_name: &str) -> Option<PathBuf> {
        let mut d = rfd::FileDialog::new()
            .set_title("Save the campaign")
            .add_filter("Campaign (JSON)", &["json"])
            .set_file_name(file_name);
        if let Some(dir) = &self.dir {
            d = d.set_directory(dir);
        }
        d.save_file()
    }
}

/// Dialogs that give pre-set answers, for tests (each call pops the next answer).
#[derive(Debug, Default)]
pub struct ScriptedDialogs {
    /// Answers to [`Dialogs::pick_open`], first used first.
    pub opens: Vec<PathBuf>,
    /// Answers to [`Dialogs::pick_save`], first used first.
    pub saves: Vec<PathBuf>,
}

impl Dialogs for ScriptedDialogs {
    fn pick_open(&mut self) -> Option<PathBuf> {
        (!self.opens.is_empty()).then(|| self.opens.remove(0))
    }

    fn pick_save(&mut self, _file_name: &str) -> Option<PathBuf> {
        (!self.saves.is_empty()).then(|| self.saves.remove(0))
    }
}

/// Dialogs as on a machine without a native one (no XDG desktop portal, no `zenity`), for
/// tests of the built-in chooser: every pick gives `None`, and
/// [`Dialogs::take_unavailable`] the reason held here.
#[derive(Debug, Default)]
pub struct NoNativeDialogs(pub String);

impl Dialogs for NoNativeDialogs {
    fn pick_open(&mut self) -> Option<PathBuf> {
        None
    }

    fn pick_save(&mut self, _file_name: &str) -> Option<PathBuf> {
        None
    }

    fn take_unavailable(&mut self) -> Option<String> {
        Some(self.0.clone())
    }
}

mod autosave;
mod settings;

pub use autosave::{AUTOSAVE_FIRST, AUTOSAVE_GAP, Autosave, AutosaveTimer, AutosaveWorker, Found};
pub use settings::{MAX_EXPORT_SCALE, MAX_RECENT, Settings, project_dirs};
