//! The settings file: recent files, the shown panels and the grid, the export scale; read
//! leniently (a member missing or odd gives its default) and written atomically.

use std::path::{Path, PathBuf};

use serde_json::Value;

/// How many recent files are remembered.
pub const MAX_RECENT: usize = 10;

/// Settings kept between runs (a small JSON file in the config directory), read and written
/// with serde. A member that is missing or of the wrong type takes its default; unknown
/// members are ignored.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Recently opened or saved files, newest first.
    #[serde(deserialize_with = "lenient_recent", serialize_with = "lossy_recent")]
    pub recent: Vec<PathBuf>,
    /// Whether the grid is shown.
    #[serde(deserialize_with = "lenient_bool_true")]
    pub grid: bool,
    /// Whether the left panel (the palette) is shown (View → Palette panel, Ctrl+B).
    #[serde(deserialize_with = "lenient_bool_true")]
    pub show_palette: bool,
    /// Whether the right panel (inspector, properties, rules, play pane) is shown
    /// (View → Side panel, Ctrl+Alt+B).
    #[serde(deserialize_with = "lenient_bool_true")]
    pub show_side: bool,
    /// Whether the problems list above the status bar is shown (View → Problems list,
    /// Ctrl+J).
    #[serde(deserialize_with = "lenient_bool_true")]
    pub show_problems: bool,
    /// Pixels per cell of the editor's exports (the export dialog's scale, remembered between
    /// exports; `tilesmith render --scale` and `gif --scale` have the same meaning and range).
    #[serde(
        default = "default_export_scale",
        deserialize_with = "lenient_export_scale"
    )]
    pub export_scale: u32,
}

/// The largest pixels per cell of an export (the editor's and `tilesmith render`/`gif`'s).
pub const MAX_EXPORT_SCALE: u32 = 256;

/// The export scale before one is chosen: the CLI's default `--scale`.
fn default_export_scale() -> u32 {
    16
}

/// An export scale read back: a number of 1 to [`MAX_EXPORT_SCALE`], else the default.
fn lenient_export_scale<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let v: Value = serde::Deserialize::deserialize(d)?;
    Ok(v.as_u64()
        .and_then(|n| u32::try_from(n).ok())
        .filter(|n| (1..=MAX_EXPORT_SCALE).contains(n))
        .unwrap_or_else(default_export_scale))
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            recent: Vec::new(),
            grid: true,
            show_palette: true,
            show_side: true,
            show_problems: true,
            export_scale: default_export_scale(),
        }
    }
}

/// The recent list, keeping the entries that are strings (at most [`MAX_RECENT`]).
fn lenient_recent<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<PathBuf>, D::Error> {
    let v: Value = serde::Deserialize::deserialize(d)?;
    Ok(v.as_array()
        .map(|list| {
            list.iter()
                .filter_map(Value::as_str)
                .map(PathBuf::from)
                .take(MAX_RECENT)
                .collect()
        })
        .unwrap_or_default())
}

/// The recent list as strings (a path that is not UTF-8 is written lossily rather than
/// failing the whole settings file).
fn lossy_recent<S: serde::Serializer>(recent: &[PathBuf], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(recent.iter().map(|p| p.to_string_lossy()))
}

/// A boolean, or `true` when the member holds something else.
fn lenient_bool_true<'de, D: serde::Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    let v: Value = serde::Deserialize::deserialize(d)?;
    Ok(v.as_bool().unwrap_or(true))
}

impl Settings {
    /// Puts `path` first in the recent list (once), keeping at most [`MAX_RECENT`].
    pub fn add_recent(&mut self, path: &Path) {
        let p = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        self.recent.retain(|r| r != &p);
        self.recent.insert(0, p);
        self.recent.truncate(MAX_RECENT);
    }

    /// Reads settings from `file`; defaults when missing or unreadable.
    pub fn load(file: &Path) -> Self {
        std::fs::read_to_string(file)
            .ok()
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or_default()
    }

    /// Writes settings to `file` (atomically); errors are returned, not fatal.
    ///
    /// # Errors
    /// When the directory cannot be created or the file cannot be written.
    pub fn save(&self, file: &Path) -> std::io::Result<()> {
        if let Some(dir) = file.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let text = serde_json::to_string(self).map_err(std::io::Error::other)?;
        tilesmith_engine::json_text::write_atomic(file, text.as_bytes())
    }
}

/// The platform directories of the editor: `(config dir, data dir)`, e.g.
/// `~/.config/tilesmith` and `~/.local/share/tilesmith` on Linux.
pub fn project_dirs() -> Option<(PathBuf, PathBuf)> {
    let d = directories::ProjectDirs::from("", "", "tilesmith")?;
    Some((d.config_dir().to_path_buf(), d.data_dir().to_path_buf()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_round_trip_through_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("sub/settings.json");
        let mut s = Settings {
            grid: false,
            ..Default::default()
        };
        s.add_recent(Path::new("/levels/a.json"));
        s.add_recent(Path::new("/levels/b.json"));
        s.add_recent(Path::new("/levels/a.json"));
        assert_eq!(
            s.recent,
            [
                PathBuf::from("/levels/a.json"),
                PathBuf::from("/levels/b.json")
            ]
        );
        s.save(&f).unwrap();
        assert_eq!(Settings::load(&f), s);
    }

    #[test]
    fn settings_files_with_missing_or_odd_members_load_with_defaults() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("settings.json");
        for (text, want_grid, want_recent) in [
            ("{}", true, 0),
            ("not json", true, 0),
            (r#"{"grid": "yes", "recent": 3}"#, true, 0),
            (
                r#"{"grid": false, "recent": ["/a", 7, "/b"], "other": 1}"#,
                false,
                2,
            ),
        ] {
            std::fs::write(&f, text).unwrap();
            let s = Settings::load(&f);
            assert_eq!(s.grid, want_grid, "{text}");
            assert_eq!(s.recent.len(), want_recent, "{text}");
        }
        let many: Vec<String> = (0..25).map(|i| format!("/l{i}.json")).collect();
        std::fs::write(&f, serde_json::json!({ "recent": many }).to_string()).unwrap();
        assert_eq!(Settings::load(&f).recent.len(), MAX_RECENT);
        assert_eq!(
            Settings::load(&dir.path().join("missing.json")),
            Settings::default()
        );
    }
}
