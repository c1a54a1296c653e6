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
/// which is flushed to disk and then renamed over `path`. A crash leaves either the old file or
/// the new one, never a half-written file.
///
/// # Errors
/// Any I/O error; the temporary file is removed when the write fails.
pub fn write_atomic(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "level".into());
    let tmp = dir.join(format!(".{file_name}.tmp-{}", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(contents)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
