//! Helpers of the repair-mode tests (`repair.rs`, `repair_baba.rs`, `repair_falling.rs`):
//! broken levels written to a folder of the test process, read back and checked, and the two
//! ways a user meets their problems (a click in the problems list, `tilesmith check`).

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

/// Clicks the problem whose label contains `label` and returns the selection it makes, as
/// `(x0, y0, x1, y1)` (x = column from the left, y = row from the top).
pub fn click_selects(
    h: &mut egui_kittest::Harness<'static, tilesmith_editor::app::TilesmithApp>,
    label: &str,
) -> (usize, usize, usize, usize) {
    use egui_kittest::kittest::Queryable as _;
    h.get_by_label_contains(label).click();
    crate::common::settle(h);
    let sel = h
        .state()
        .state
        .selection
        .expect("the click selects the cell");
    (sel.x0, sel.y0, sel.x1, sel.y1)
}

/// Runs `tilesmith check` on the file at `p`: its exit code and its output (stdout, then
/// stderr).
pub fn check_cli(p: &Path) -> (Option<i32>, String) {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_tilesmith"))
        .args(["check".as_ref(), p.as_os_str()])
        .output()
        .expect("tilesmith runs");
    let out = String::from_utf8_lossy(&o.stdout) + String::from_utf8_lossy(&o.stderr);
    (o.status.code(), out.into_owned())
}
