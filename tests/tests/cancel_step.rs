//! `Game::set_cancel_flag` (issue 15: long steps on a worker with Cancel): a step abandoned
//! through the flag leaves the game exactly as before it — same `state_hash`, same saved
//! level (`to_level`, which holds the clock and RNG the hash leaves out), same step count,
//! same undo and redo history — and, once the flag is cleared, the game plays on exactly as
//! a twin game that never saw the flag (so nothing hidden, such as the RNG or a kind's
//! incremental caches, was left half-changed). Boulder, falling and board honour the flag;
//! baba is another helper's work.
#![allow(clippy::unwrap_used)]

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::{Value, json};
use tilesmith_engine::kind::boulder::BoulderGame;
use tilesmith_engine::kind::falling::fpgdl::{FieldView, Script};
use tilesmith_engine::kind::falling::{FallingGame, FallingLevel, Requests};
use tilesmith_engine::observe::Collector;
use tilesmith_engine::{Game, Input, Status, load_file, load_text};
use tilesmith_tests::workspace;

/// Everything a cancelled step must leave as it was.
#[derive(Debug, PartialEq)]
struct Snapshot {
    hash: u64,
    level: Value,
    steps: u64,
    redo: usize,
    history_bytes: usize,
    status: Status,
}

fn snap(g: &dyn Game) -> Snapshot {
    Snapshot {
        hash: g.state_hash(),
        level: g.to_level(),
        steps: g.steps(),
        redo: g.redo_len(),
        history_bytes: g.history_bytes(),
        status: g.status(),
    }
}

fn start_level(rel: &str) -> Box<dyn Game> {
    let doc = load_file(&workspace().join(rel)).unwrap();
    doc.start(7).unwrap()
}

fn set(flag: &AtomicBool, on: bool) {
    flag.store(on, Ordering::Relaxed);
}

/// Steps `g` with `input` while the flag is set, checks nothing changed, then clears the
/// flag and checks `g` plays `input` as `twin` (never flagged) does.
fn cancelled_then_same(g: &mut dyn Game, twin: &mut dyn Game, input: Input) {
    let flag = Arc::new(AtomicBool::new(true));
    g.set_cancel_flag(Some(flag.clone()));
    let before = snap(g);
    let r = g.step(input);
    assert_eq!(snap(g), before, "a cancelled step changes nothing");
    assert!(r.changed.is_empty() && r.fired.is_empty(), "{r:?}");
    assert_eq!(r.step, before.steps);
    set(&flag, false);
    let a = g.step(input);
    let b = twin.step(input);
    assert_eq!(a, b, "the step after a cancel reports as the twin's");
    assert_eq!(snap(g), snap(twin), "and leaves the same game");
}

// ---------------------------------------------------------------------------------------------
// Boulder: the flag is read before each phase of a tick.

#[test]
fn boulder_cancelled_tick_leaves_the_game_as_before() {
    let mut g = start_level("levels/boulder/welcome.json");
    let mut twin = start_level("levels/boulder/welcome.json");
    // Some history to keep, and something to redo.
    for i in [Input::Move(tilesmith_engine::Dir::Right); 3] {
        g.step(i);
        twin.step(i);
    }
    assert!(g.undo() && twin.undo());
    assert_eq!(g.redo_len(), 1);
    // The figure digs right into mud: the tick would change cells.
    cancelled_then_same(
        g.as_mut(),
        twin.as_mut(),
        Input::Move(tilesmith_engine::Dir::Down),
    );
    assert_eq!(
        g.redo_len(),
        0,
        "a step that was played drops the redo list"
    );
}

#[test]
fn boulder_tick_cancelled_after_some_phases_is_rolled_back() {
    // Deterministic "during the tick": run the reset and the player phase (the figure moves,
    // digging mud), then set the flag; finishing the tick abandons it and rolls the phases
    // that ran back.
    let open = |seed| {
        let doc = load_file(&workspace().join("levels/boulder/demolition-yard.json")).unwrap();
        doc.start(seed).unwrap()
    };
    let mut g = open(3);
    let mut twin = open(3);
    for _ in 0..4 {
        g.step(Input::Wait);
        twin.step(Input::Wait);
    }
    let before = snap(g.as_ref());
    let flag = Arc::new(AtomicBool::new(false));
    g.set_cancel_flag(Some(flag.clone()));
    let b = g.as_any_mut().downcast_mut::<BoulderGame>().unwrap();
    assert!(b.begin_tick(Input::Move(tilesmith_engine::Dir::Right)));
    let mut c = Collector::default();
    let mut changed_any = false;
    for _ in 0..3 {
        b.run_next_phase(&mut c).unwrap();
        changed_any |= !b.last_phase_changes().is_empty();
    }
    assert!(changed_any, "the phases that ran changed the map");
    set(&flag, true);
    assert_eq!(b.finish_tick(&mut c), None, "the tick is abandoned");
    assert_eq!(b.next_phase(), None, "no tick is open any more");
    assert_eq!(snap(g.as_ref()), before);
    cancelled_then_same(
        g.as_mut(),
        twin.as_mut(),
        Input::Move(tilesmith_engine::Dir::Right),
    );
    // Ten more ticks stay in step with the twin (the next reset visits the whole map).
    for _ in 0..10 {
        g.step(Input::Wait);
        twin.step(Input::Wait);
        assert_eq!(snap(g.as_ref()), snap(twin.as_ref()));
    }
}

// ---------------------------------------------------------------------------------------------
// Falling: the script stops at the next hook; the frame is rolled back.

/// A 10 × 6 level with the T piece whose script counts to two million each frame (about 8
/// million Lua instructions, under the 10 million budget: slow, but it finishes).
fn slow_script_level() -> Value {
    json!({
        "kind": "falling", "name": "slow", "width": 10, "height": 6,
        "blocks": [{"name": "T", "color": [255, 40, 255]}],
        "tumos": [{"name": "T", "states": [
            [[0, 0, 0, 0], [0, -1, 0, 0], [-1, -1, -1, 0], [0, 0, 0, 0]],
            [[0, 0, 0, 0], [0, -1, 0, 0], [0, -1, -1, 0], [0, -1, 0, 0]],
            [[0, 0, 0, 0], [0, 0, 0, 0], [-1, -1, -1, 0], [0, -1, 0, 0]],
            [[0, 0, 0, 0], [0, -1, 0, 0], [-1, -1, 0, 0], [0, -1, 0, 0]]
        ], "block": "T"}],
        "clear": [{"rule": "rows"}], "fall": ["rows"],
        "timing": {"gravity": 2, "soft_drop": 0, "lock": 2, "spawn": 0, "clear": 0, "fall": 0, "land": 0},
        "script": "function update()\n  local n = 0\n  for i = 1, 2000000 do n = n + 1 end\nend\n",
    })
}

#[test]
fn falling_cancelled_frame_leaves_the_game_as_before() {
    let doc = slow_script_level();
    let start = || {
        let level = FallingLevel::from_json(&doc).unwrap_or_else(|e| panic!("{e:#?}"));
        Box::new(FallingGame::new(level, 5)) as Box<dyn Game>
    };
    let (mut g, mut twin) = (start(), start());
    for i in [
        Input::Move(tilesmith_engine::Dir::Left),
        Input::Wait,
        Input::Wait,
    ] {
        g.step(i);
        twin.step(i);
    }
    assert!(g.undo() && twin.undo());
    assert_eq!(g.status(), Status::Running, "{:?}", g.error());
    cancelled_then_same(
        g.as_mut(),
        twin.as_mut(),
        Input::Move(tilesmith_engine::Dir::Right),
    );
    assert_eq!(
        g.error(),
        None,
        "the script ran within its budget once not cancelled"
    );
}

#[test]
fn falling_frame_cancelled_from_another_thread_is_rolled_back() {
    // Once a tumo is in play the script never ends: without the flag the frame would run to
    // its 1 s time limit (each join of 400 kB is one instruction, so the instruction
    // budget is far off) and lose the game with a script error. The flag, set from another
    // thread while the frame runs, stops it and the game is as before. (The start's probe
    // for settling, with no tumo, passes; a script failing it too would end the first frame
    // at once with the probe's error, docs/reliability.md.)
    let mut doc = slow_script_level();
    doc["script"] = json!(
        "local s = string.rep('x', 200000)\n\
         function update()\n\
           for y = 0, getFieldHeight() - 1 do for x = 0, getFieldWidth() - 1 do\n\
             if getFieldBlock(x, y) >= 100 then while true do local t = s .. s end end\n\
           end end\n\
         end\n"
    );
    let mut g = load_text(&doc.to_string()).unwrap().start(5).unwrap();
    let before = snap(g.as_ref());
    let flag = Arc::new(AtomicBool::new(false));
    g.set_cancel_flag(Some(flag.clone()));
    let setter = {
        let flag = flag.clone();
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(2));
            set(&flag, true);
        })
    };
    g.step(Input::Wait);
    setter.join().unwrap();
    assert_eq!(snap(g.as_ref()), before);
    assert_eq!(g.error(), None);
}

/// The empty field (for running a script outside a game).
struct Empty;

impl FieldView for Empty {
    fn width(&self) -> i64 {
        1
    }
    fn height(&self) -> i64 {
        1
    }
    fn block(&self, _: i64, _: i64) -> i64 {
        0
    }
    fn combo(&self, _: i64, _: i64) -> i64 {
        0
    }
    fn all_down(&self) -> bool {
        false
    }
}

#[test]
fn a_script_stops_on_the_flag_not_on_its_budget() {
    let mut s = Script::new("function update()\n  while true do end\nend\n").unwrap();
    // Without the flag the loop runs into the instruction budget.
    let e = s.update(&Empty, &mut Requests::new(1)).unwrap_err();
    assert!(e.message.contains("instruction budget"), "{e}");
    // With it, it stops as cancelled (within a hook interval, long before the budget).
    s.set_cancel_flag(Some(Arc::new(AtomicBool::new(true))));
    let e = s.update(&Empty, &mut Requests::new(1)).unwrap_err();
    assert_eq!(e.message, "cancelled", "{e}");
    assert_eq!(e.line, Some(2), "stopped in the loop, line 2");
    // Cleared, the script runs again as before.
    s.set_cancel_flag(None);
    let e = s.update(&Empty, &mut Requests::new(1)).unwrap_err();
    assert!(e.message.contains("instruction budget"), "{e}");
}

// ---------------------------------------------------------------------------------------------
// Board: the flag is read after each move block while the new position's moves are generated.

#[test]
fn board_cancelled_ply_leaves_the_game_as_before() {
    let mut g = start_level("levels/board/tic-tac-toe-x-to-win.json");
    let mut twin = start_level("levels/board/tic-tac-toe-x-to-win.json");
    assert!(g.legal_inputs().len() > 2);
    // X does not take the win at once (a move that keeps the game going), O answers.
    let quiet = |g: &dyn Game| {
        (0..g.legal_inputs().len())
            .map(|i| Input::Choice(i as u32))
            .find(|&i| {
                let doc = g.to_level();
                let mut probe = load_text(&doc.to_string()).unwrap().start(0).unwrap();
                probe.step(i);
                probe.status() == Status::Running
            })
            .unwrap()
    };
    let i = quiet(g.as_ref());
    g.step(i);
    twin.step(i);
    let j = quiet(g.as_ref());
    g.step(j);
    twin.step(j);
    assert!(g.undo() && twin.undo(), "O's reply can be redone");
    let legal_before = g.legal_inputs();
    cancelled_then_same(g.as_mut(), twin.as_mut(), j);
    // Redo is cancelled the same way: the undone ply stays to redo.
    assert!(g.undo() && twin.undo());
    let flag = Arc::new(AtomicBool::new(true));
    g.set_cancel_flag(Some(flag.clone()));
    let before = snap(g.as_ref());
    assert!(!g.redo(), "a cancelled redo redoes nothing");
    assert_eq!(snap(g.as_ref()), before);
    assert_eq!(g.legal_inputs(), legal_before);
    set(&flag, false);
    assert!(g.redo() && twin.redo());
    assert_eq!(snap(g.as_ref()), snap(twin.as_ref()));
}
