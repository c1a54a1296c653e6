//! The start's probe for settling and the first frame (issue #30: a script that fails in its
//! first frame stops `run` within one script run, not two). A script keeps no state between
//! frames (docs/falling-semantics.md, §5 state), and when the probe fails no tumo spawns, so
//! the first frame's `update()` would see exactly what the probe saw: the probe's error
//! stands for it. A script that passes the probe runs again in the first frame, as before.

#![allow(clippy::unwrap_used)]

use serde_json::json;
use tilesmith_core::game::{Game, Status};
use tilesmith_core::input::Input;

use super::{FallingGame, FallingLevel};

/// A 6 × 6 level of one-cell tumos with `script`.
fn game(script: &str) -> FallingGame {
    let doc = json!({
        "kind": "falling", "name": "probe", "width": 6, "height": 6,
        "blocks": [{"name": "red", "color": [230, 40, 40]}],
        "tumos": [{"name": "dot", "states": [[[-1]]], "block": "red"}],
        "clear": [{"rule": "rows"}], "fall": ["rows"],
        "script": script,
    });
    FallingGame::new(FallingLevel::from_json(&doc).unwrap(), 0)
}

#[test]
fn a_script_failing_the_probe_stops_the_first_frame_without_running_again() {
    let mut g = game("function update() error('no') end");
    // The start ran `update()` once, to see whether the field is settled; it failed.
    assert_eq!(g.script_runs(), 1);
    let probe = g.probe_error().cloned().unwrap();
    assert!(g.active().is_none(), "no tumo spawns after a failed probe");
    g.step(Input::Wait);
    assert_eq!(
        g.script_runs(),
        1,
        "the first frame reused the probe's error"
    );
    assert_eq!(g.script_error(), Some(&probe));
    assert!(matches!(g.status(), Status::Lost { .. }));
    // Restarted, the first frame again stands on the probe; a later frame would run it.
    g.step(Input::Restart);
    assert_eq!(g.steps(), 0);
    g.step(Input::Wait);
    assert_eq!(g.script_runs(), 1);
    assert_eq!(g.script_error(), Some(&probe));
}

#[test]
fn a_script_passing_the_probe_runs_in_every_frame() {
    let mut g = game("function update() end");
    assert_eq!(g.script_runs(), 1);
    assert!(g.probe_error().is_none());
    assert!(
        g.active().is_some(),
        "the settled start spawns the first tumo"
    );
    g.step(Input::Wait);
    g.step(Input::Wait);
    assert_eq!(g.script_runs(), 3);
    assert!(g.script_error().is_none());
}

#[test]
fn a_script_failing_only_with_a_tumo_in_play_fails_in_the_first_frame() {
    // The probe sees no tumo and passes; the first frame, with the tumo in play, fails.
    let mut g = game(
        "function update()\n  for y = 0, 5 do for x = 0, 5 do\n    \
         if getFieldBlock(x, y) >= 100 then error('tumo') end\n  end end\nend",
    );
    assert!(g.probe_error().is_none());
    g.step(Input::Wait);
    assert_eq!(g.script_runs(), 2);
    let e = g.script_error().unwrap();
    assert!(e.message.contains("tumo"), "{e}");
}
