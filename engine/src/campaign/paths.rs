//! Entry paths: `/`-separated, relative to the campaign file's folder; resolving them,
//! making them from a level file, checking them, and the progress file's default place.

use std::path::{Component, Path, PathBuf};

use super::*;

/// The level file of the entry path `entry` (`/`-separated, relative to the campaign's
/// folder) of the campaign file `campaign_file`: the campaign's folder joined with each
/// `/`-separated part (`.` parts dropped).
pub fn resolve_entry(campaign_file: &Path, entry: &str) -> PathBuf {
    let mut p = campaign_file
        .parent()
        .unwrap_or(Path::new(""))
        .to_path_buf();
    for part in entry.split('/').filter(|s| !s.is_empty() && *s != ".") {
        p.push(part);
    }
    p
}

/// The entry path (`/`-separated, relative to the campaign file's folder, `..` where
/// needed) that names `level` from the campaign file `campaign_file`: what the editor
/// writes when a level is added from a file. Both paths are made absolute against the
/// current directory first (symbolic links are not followed).
///
/// # Errors
/// Why no relative path exists: the current directory is unknown, or the two are on
/// different drives (Windows).
pub fn entry_path_for(campaign_file: &Path, level: &Path) -> Result<String, String> {
    let abs = |p: &Path| std::path::absolute(p).map_err(|e| format!("{}: {e}", p.display()));
    let base = abs(campaign_file)?;
    let base = base.parent().unwrap_or(Path::new("/"));
    let target = abs(level)?;
    fn norm(p: &Path) -> Vec<Component<'_>> {
        let mut v: Vec<Component<'_>> = Vec::new();
        for c in p.components() {
            match c {
                Component::CurDir => {}
                Component::ParentDir if matches!(v.last(), Some(Component::Normal(_))) => {
                    v.pop();
                }
                c => v.push(c),
            }
        }
        v
    }
    let (b, t) = (norm(base), norm(&target));
    let common = b.iter().zip(&t).take_while(|(x, y)| x == y).count();
    if common == 0 || !matches!(b.first(), Some(c) if Some(c) == t.first()) {
        return Err(format!(
            "{} and {} have no folder in common",
            base.display(),
            target.display()
        ));
    }
    let mut parts: Vec<String> = vec!["..".to_string(); b.len() - common];
    parts.extend(
        t[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    Ok(parts.join("/"))
}

/// Where the progress of the campaign file `campaign_file` lives by default: beside it,
/// named after it, `NAME.progress.json` for `NAME.json` (`levels/campaign.json` gives
/// `levels/campaign.progress.json`). Not in the user's data folder, so that a campaign
/// folder is portable.
pub fn default_progress_path(campaign_file: &Path) -> PathBuf {
    let stem = campaign_file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "campaign".into());
    campaign_file.with_file_name(format!("{stem}.progress.json"))
}

/// An entry path with `.` parts and repeated `/` dropped and each `..` folded into the folder
/// before it (lexically, as [`resolve_entry`] reads it on every system; a `..` above the
/// campaign's folder stays), for comparing paths: `baba/../boulder/a.json` and
/// `./boulder//a.json` are both `boulder/a.json`, `../x/a.json` stays.
pub(super) fn normal_entry_path(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for s in path.split('/').filter(|s| !s.is_empty() && *s != ".") {
        if s == ".." && parts.last().is_some_and(|l| *l != "..") {
            parts.pop();
        } else {
            parts.push(s);
        }
    }
    parts.join("/")
}

/// Why `s` is no entry path, if it is not.
pub(super) fn entry_path_problem(s: &str) -> Option<String> {
    if s.trim().is_empty() {
        return Some("is empty".into());
    }
    if s.chars().count() > MAX_PATH_CHARS {
        return Some(format!("is too long (at most {MAX_PATH_CHARS} characters)"));
    }
    if s.contains('\\') {
        return Some("has a \\; folders are separated by / in every system".into());
    }
    if s.starts_with('/') || s.chars().nth(1) == Some(':') {
        return Some("is absolute; it must be relative to the campaign file's folder".into());
    }
    if s.chars().any(char::is_control) {
        return Some("has a control character".into());
    }
    if normal_entry_path(s).is_empty() {
        return Some("names a folder, not a level file".into());
    }
    None
}
