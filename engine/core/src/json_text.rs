//! Writing level documents as diff-friendly text, and writing files safely.

use std::io::Write as _;
use std::path::Path;

use serde_json::Value;

/// The widest line [`layout`] puts a nested array or object on before it breaks it.
pub const LAYOUT_WIDTH: usize = 100;

/// Lays a document out in the one style every file Tilesmith writes has (`docs/level-format.md`,
/// "Text style"; issue #31 defect 12), so that a level saved without edits is byte-identical
/// to a file already in that style and a diff shows only what changed:
/// - the top-level object has one member per line, indented by 2 spaces;
/// - an array of numbers, strings, booleans and nulls is always on one line (`[4, 6, 8]`, a
///   map row however long);
/// - any other array or object is on one line when that line fits in [`LAYOUT_WIDTH`]
///   columns (indent included), otherwise one element or member per line, 2 spaces deeper;
/// - on one line, `, ` separates elements and members and `: ` follows a key.
///
/// The text ends with a newline and parses back to the same value.
pub fn layout(doc: &Value) -> String {
    let mut s = String::new();
    match doc {
        Value::Object(o) if !o.is_empty() => broken(doc, 0, &mut s),
        _ => s.push_str(&one_line(doc)),
    }
    s.push('\n');
    s
}

/// `v` on one line: `[1, 2]`, `{"a": 1}`.
fn one_line(v: &Value) -> String {
    match v {
        Value::Array(a) => {
            let items: Vec<String> = a.iter().map(one_line).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Object(o) => {
            let items: Vec<String> = o
                .iter()
                .map(|(k, v)| format!("{}: {}", Value::String(k.clone()), one_line(v)))
                .collect();
            format!("{{{}}}", items.join(", "))
        }
        other => other.to_string(),
    }
}

/// `v` at `indent` spaces, after a prefix of `used` columns on its line: on one line when it
/// is scalar, an array of scalars, or fits; otherwise broken over lines.
fn nested(v: &Value, indent: usize, used: usize, s: &mut String) {
    let flat = match v {
        Value::Array(a) => a.iter().all(|e| !e.is_array() && !e.is_object()),
        Value::Object(o) => o.is_empty(),
        _ => true,
    };
    if flat || fits(v, LAYOUT_WIDTH.saturating_sub(used)) {
        s.push_str(&one_line(v));
    } else {
        broken(v, indent, s);
    }
}

/// Whether `v` on one line is at most `room` characters: measured without building the line,
/// stopping as soon as it is too long (a whole map is never written out just to be measured).
fn fits(v: &Value, room: usize) -> bool {
    fn len(v: &Value, room: usize) -> Option<usize> {
        let mut n = 0usize;
        let mut add = |k: usize| {
            n += k;
            (n <= room).then_some(())
        };
        match v {
            Value::Array(a) => {
                add(2 + 2 * a.len().saturating_sub(1))?;
                for e in a {
                    add(len(e, room)?)?;
                }
            }
            Value::Object(o) => {
                add(2 + 2 * o.len().saturating_sub(1))?;
                for (k, e) in o {
                    add(Value::String(k.clone()).to_string().chars().count() + 2)?;
                    add(len(e, room)?)?;
                }
            }
            other => add(other.to_string().chars().count())?,
        }
        Some(n)
    }
    len(v, room).is_some()
}

/// An array or object with one element or member per line, at `indent + 2` spaces, and its
/// closing bracket at `indent`.
fn broken(v: &Value, indent: usize, s: &mut String) {
    let inner = " ".repeat(indent + 2);
    let (open, close, n) = match v {
        Value::Array(a) => ('[', ']', a.len()),
        Value::Object(o) => ('{', '}', o.len()),
        _ => return s.push_str(&one_line(v)),
    };
    s.push(open);
    s.push('\n');
    let item = |i: usize, key: Option<&String>, e: &Value, s: &mut String| {
        s.push_str(&inner);
        let mut used = indent + 2;
        if let Some(k) = key {
            let k = format!("{}: ", Value::String(k.clone()));
            used += k.chars().count();
            s.push_str(&k);
        }
        // The comma after the element counts towards its line.
        nested(e, indent + 2, used + usize::from(i + 1 < n), s);
        if i + 1 < n {
            s.push(',');
        }
        s.push('\n');
    };
    match v {
        Value::Array(a) => a.iter().enumerate().for_each(|(i, e)| item(i, None, e, s)),
        Value::Object(o) => o
            .iter()
            .enumerate()
            .for_each(|(i, (k, e))| item(i, Some(k), e, s)),
        _ => {}
    }
    s.push_str(&" ".repeat(indent));
    s.push(close);
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
        assert_eq!(
            text,
            "{\n  \"name\": \"a\",\n  \"map\": [[\"wall\", \"mud\"], [\"me\", {\"token\": \"gem\", \"values\": {\"a\": 1}}]],\n  \"gems\": [1, 2, 3]\n}\n"
        );
        assert_eq!(layout(&text.parse::<Value>().unwrap()), text, "stable");
    }

    /// A nested value that does not fit in 100 columns is broken one element a line, deeper
    /// levels on one line where they fit; arrays of scalars stay on one line however long.
    #[test]
    fn layout_breaks_what_does_not_fit_and_keeps_rows_whole() {
        let row: Vec<Value> = (0..60).map(|i| Value::from(i % 10)).collect();
        let v = serde_json::json!({
            "map": [row.clone(), row],
            "tumos": [{"name": "I", "states": [[[0, 0, 0, 0], [-1, -1, -1, -1]], [[0, -1], [0, -1]]],
                       "block": "I", "pivot": [1.5, 1.5], "kicks": {"0>1": [[0, 0], [-2, 0], [1, 0]]}}],
            "empty": {}, "none": [], "s": "x"
        });
        let text = layout(&v);
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), v);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[1], "  \"map\": [");
        assert!(lines[2].starts_with("    [0, 1, 2, ") && lines[2].ends_with("8, 9],"));
        assert_eq!(lines[4], "  ],");
        assert_eq!(lines[5], "  \"tumos\": [");
        assert_eq!(lines[6], "    {");
        assert_eq!(lines[7], "      \"name\": \"I\",");
        assert_eq!(
            lines[8],
            "      \"states\": [[[0, 0, 0, 0], [-1, -1, -1, -1]], [[0, -1], [0, -1]]],"
        );
        assert!(text.contains("\"empty\": {},\n  \"none\": [],\n  \"s\": \"x\"\n}\n"));
        assert!(
            text.lines()
                .all(|l| l.len() <= LAYOUT_WIDTH || !l.contains("[["))
        );
        assert_eq!(layout(&text.parse::<Value>().unwrap()), text, "stable");
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
