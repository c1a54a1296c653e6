//! Files for the repair-mode tests (`repair.rs`, `repair_baba.rs`, `repair_falling.rs`):
//! broken levels written to a folder of the test process, read back and checked.

use std::path::{Path, PathBuf};

use serde_json::Value;

/// The test process's folder for level files, created when missing.
pub fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("tilesmith-repair-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("a temporary folder");
    d
}

/// Writes `v` (pretty JSON) as `name` in [`dir`]; its path.
pub fn write(name: &str, v: &Value) -> PathBuf {
    let p = dir().join(name);
    std::fs::write(&p, serde_json::to_string_pretty(v).expect("JSON")).expect("written");
    p
}

/// The JSON of the file at `p`, as saved.
pub fn saved(p: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(p).expect("read")).expect("JSON")
}

/// The problems `tilesmith check` gives for the file at `p`.
pub fn check_file(p: &Path) -> Vec<tilesmith_engine::Problem> {
    tilesmith_engine::load_file(p).expect("loads").check()
}
