//! Writing level documents as diff-friendly text, and writing files safely.

use std::io::Write as _;
use std::path::Path;

use serde_json::Value;

/// Lays a document out with one top-level member per line; a member whose value is an array of
/// arrays or objects (the map, the rule lists) gets one element per line. Everything else is
/// compact JSON. The text ends with a newline and parses back to the same value.
pub fn layout(doc: &Value) -> String {
    let Value::Object(o) = doc else {
        return format!("{doc}\n");
    };
    let mut s = String::from("{\n");
    let n = o.len();
    for (i, (k, v)) in o.iter().enumerate() {
        s.push_str("  ");
        s.push_str(&Value::String(k.clone()).to_string());
        s.push_str(": ");
        match v {
            Value::Array(a) if !a.is_empty() && a.iter().all(|e| e.is_array() || e.is_object()) => {
                s.push_str("[\n");
                for (j, e) in a.iter().enumerate() {
                    s.push_str("    ");
                    s.push_str(&e.to_string());
                    if j + 1 < a.len() {
                        s.push(',');
                    }
                    s.push('\n');
                }
                s.push_str("  ]");
            }
            other => s.push_str(&other.to_string()),
        }
        if i + 1 < n {
            s.push(',');
        }
        s.push('\n');
    }
    s.push_str("}\n");
    s
}

/// Writes `contents` to `path` atomically: the bytes go to a temporary file in the same folder,
/// which is flushed to disk and then renamed over `path`; the folder is flushed too, so the
/// rename survives a power loss. A crash leaves either the old file or the new one, never a
/// half-written file.
///
/// When `path` is a symbolic link, its target is replaced and the link stays a link. On Unix an
/// existing file keeps its permissions and a new one gets the usual ones (0666 less the umask),
/// and the folder is flushed after the rename; other platforms skip those two steps.
///
/// # Errors
/// Any I/O error, or a chain of more than 40 symbolic links (a cycle); the temporary file is
/// removed when the write fails.
pub fn write_atomic(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let mut staged = StagedFile::new(path)?;
    staged.file().write_all(contents)?;
    staged.commit()
}

/// A file written in place of another, for output that is produced piece by piece (an
/// animated GIF, frame by frame): [`StagedFile::new`] opens a temporary file beside `path`,
/// [`StagedFile::file`] is written, and [`StagedFile::commit`] puts it in place as
/// [`write_atomic`] does. Dropped without a commit (an error, a cancel), the temporary file is
/// removed and `path` is as it was: never a partial file, never a clobbered old one.
#[derive(Debug)]
pub struct StagedFile {
    tmp: tempfile::NamedTempFile,
    target: std::path::PathBuf,
    dir: std::path::PathBuf,
}

impl StagedFile {
    /// A temporary file in the folder of `path` (of the file it links to, for a symbolic
    /// link), named `.NAME.XXXX.tmp`.
    ///
    /// # Errors
    /// The folder cannot be written, or a chain of more than 40 symbolic links.
    pub fn new(path: &Path) -> std::io::Result<Self> {
        let target = link_target(path)?;
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => std::path::PathBuf::from("."),
        };
        let file_name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "level".into());
        let prefix = format!(".{file_name}.");
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".tmp");
        #[cfg(unix)]
        {
            // tempfile's own default is 0600; a level file is as readable as any new file.
            use std::os::unix::fs::PermissionsExt as _;
            builder.permissions(std::fs::Permissions::from_mode(0o666));
        }
        let tmp = builder.tempfile_in(&dir)?;
        Ok(Self { tmp, target, dir })
    }

    /// The temporary file, to write the contents to.
    pub fn file(&mut self) -> &mut std::fs::File {
        self.tmp.as_file_mut()
    }

    /// Flushes the temporary file to disk and renames it over the target (keeping an existing
    /// file's permissions on Unix), then flushes the folder.
    ///
    /// # Errors
    /// Any I/O error; the temporary file is removed then and the target left as it was.
    pub fn commit(self) -> std::io::Result<()> {
        #[cfg(unix)]
        if let Ok(meta) = std::fs::metadata(&self.target) {
            self.tmp.as_file().set_permissions(meta.permissions())?;
        }
        self.tmp.as_file().sync_all()?;
        self.tmp.persist(&self.target).map_err(|e| e.error)?;
        // The rename is an entry in the folder: flush it (not possible on every platform).
        if let Ok(d) = std::fs::File::open(&self.dir) {
            let _ = d.sync_all();
        }
        Ok(())
    }
}

/// The file a path names: the path itself, or, for a symbolic link (also a chain of links,
/// or one whose target does not exist yet), the file it points to.
///
/// # Errors
/// A link that cannot be read, or more than 40 links in a row (a cycle).
fn link_target(path: &Path) -> std::io::Result<std::path::PathBuf> {
    let mut p = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let next = std::fs::read_link(&p)?;
                p = match p.parent() {
                    Some(d) if next.is_relative() => d.join(next),
                    _ => next,
                };
            }
            _ => return Ok(p),
        }
    }
    Err(std::io::Error::other(format!(
        "{}: too many levels of symbolic links",
        path.display()
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_staged_file_dropped_without_commit_leaves_the_old_file_and_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("out.gif");
        std::fs::write(&f, b"old").unwrap();
        {
            let mut s = StagedFile::new(&f).unwrap();
            s.file().write_all(b"half a fra").unwrap();
        }
        assert_eq!(std::fs::read(&f).unwrap(), b"old");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        let mut s = StagedFile::new(&f).unwrap();
        s.file().write_all(b"whole").unwrap();
        assert_eq!(
            std::fs::read(&f).unwrap(),
            b"old",
            "nothing in place before the commit"
        );
        s.commit().unwrap();
        assert_eq!(std::fs::read(&f).unwrap(), b"whole");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn layout_round_trips_and_puts_rows_on_lines() {
        let v: Value = serde_json::from_str(r#"{"name":"a","map":[["wall","mud"],["me",{"token":"gem","values":{"a":1}}]],"gems":[1,2,3]}"#).unwrap();
        let text = layout(&v);
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), v);
        assert!(text.contains("\n    [\"wall\",\"mud\"],\n"));
        assert!(text.contains("\"gems\": [1,2,3]\n"));
    }

    #[test]
    fn atomic_write_replaces_the_file() {
        let dir = std::env::temp_dir().join(format!("tilesmith-atomic-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("x.json");
        write_atomic(&f, b"one").unwrap();
        write_atomic(&f, b"two").unwrap();
        assert_eq!(std::fs::read(&f).unwrap(), b"two");
        assert_eq!(
            std::fs::read_dir(&dir).unwrap().count(),
            1,
            "no temporary file left behind"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn atomic_write_keeps_a_symlink_and_the_permissions() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("levels").join("real.json");
        std::fs::create_dir_all(real.parent().unwrap()).unwrap();
        std::fs::write(&real, b"old").unwrap();
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).unwrap();
        // A relative link in another folder, and a link to that link.
        let link = dir.path().join("link.json");
        std::os::unix::fs::symlink("levels/real.json", &link).unwrap();
        let link2 = dir.path().join("link2.json");
        std::os::unix::fs::symlink(&link, &link2).unwrap();
        write_atomic(&link2, b"new").unwrap();
        assert!(
            std::fs::symlink_metadata(&link2)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read(&real).unwrap(), b"new");
        let mode = std::fs::metadata(&real).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
        assert_eq!(
            std::fs::read_dir(real.parent().unwrap()).unwrap().count(),
            1,
            "no temporary file left beside the target"
        );
        // A link whose target does not exist yet: the target is created, the link kept.
        let dangling = dir.path().join("new-link.json");
        std::os::unix::fs::symlink("levels/fresh.json", &dangling).unwrap();
        write_atomic(&dangling, b"fresh").unwrap();
        assert!(
            std::fs::symlink_metadata(&dangling)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(
            std::fs::read(dir.path().join("levels/fresh.json")).unwrap(),
            b"fresh"
        );
        // A link cycle is an error (not a hang), and the links stay as they were.
        let a = dir.path().join("a.json");
        let b = dir.path().join("b.json");
        let c = dir.path().join("c.json");
        std::os::unix::fs::symlink(&b, &a).unwrap();
        std::os::unix::fs::symlink(&c, &b).unwrap();
        std::os::unix::fs::symlink(&a, &c).unwrap();
        let err = write_atomic(&a, b"x").unwrap_err();
        assert!(err.to_string().contains("symbolic links"), "{err}");
        for l in [&a, &b, &c] {
            assert!(
                std::fs::symlink_metadata(l)
                    .unwrap()
                    .file_type()
                    .is_symlink()
            );
        }
        // A new file gets the usual permissions (0666 less the umask), not tempfile's 0600.
        let fresh = dir.path().join("levels").join("new.json");
        write_atomic(&fresh, b"{}").unwrap();
        let mode = std::fs::metadata(&fresh).unwrap().permissions().mode() & 0o777;
        let umask = {
            let probe = dir.path().join("probe");
            std::fs::write(&probe, b"").unwrap();
            0o666 & !(std::fs::metadata(&probe).unwrap().permissions().mode() & 0o777)
        };
        assert_eq!(mode, 0o666 & !umask, "like a file made with std::fs::write");
    }

    #[test]
    fn a_failed_atomic_write_leaves_the_old_file_and_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        // The target is a folder: the rename fails after the temporary file was written.
        let target = dir.path().join("taken");
        std::fs::create_dir(&target).unwrap();
        std::fs::write(target.join("inside"), b"keep").unwrap();
        assert!(write_atomic(&target, b"data").is_err());
        assert_eq!(std::fs::read(target.join("inside")).unwrap(), b"keep");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
