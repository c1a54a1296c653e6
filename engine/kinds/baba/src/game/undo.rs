//! A baba game's undo history: one turn's backward diff (a patch), recorded after each turn
//! and swapped in by undo and redo (§2, (C)).

use super::*;
use refresh::Kept;

/// One turn's backward diff: what undo restores, and (swapped) what redo restores.
#[derive(Clone, Debug)]
pub(super) struct Patch {
    /// Each object the turn changed, with its value on the other side of the turn (`None`:
    /// it did not exist there), in the order the turn first changed them (each object once,
    /// so the order does not matter).
    objs: Vec<(ObjId, Option<Obj>)>,
    next_id: ObjId,
    turn: u64,
    status: Status,
    /// The level's facing on the other side.
    level_dir: Dir,
    /// The ALL set on the other side, when the turn changed it.
    seen: Option<BTreeSet<Noun>>,
    /// [`BabaGame::capped`] on the other side: true only when no cell there holds more than
    /// the stack cap of one kind, so the next turn's cap need look at the cells objects
    /// enter only (a search undoes after every turn it tries: the full look over every
    /// object after each undo was two fifths of its time on large levels).
    capped: bool,
    /// The refresh on the other side, when known ([`Kept`]): undo and redo put it back
    /// instead of reading the rules again.
    refresh: Kept,
}

impl Patch {
    /// The bytes the patch holds (its entries, [`ENTRY_BYTES`] each, the turn's counters and
    /// the ALL set when kept; allocator overhead not counted): what it costs in the history
    /// budget.
    fn cost(&self) -> usize {
        std::mem::size_of::<Patch>()
            + self.objs.len() * ENTRY_BYTES
            + self
                .seen
                .as_ref()
                .map_or(0, |s| s.len() * std::mem::size_of::<Noun>())
    }
}

impl history::Patch for Patch {
    /// [`Patch::cost`].
    #[inline]
    fn bytes(&self) -> usize {
        self.cost()
    }
}

/// How the history drops turns: the oldest applied first while over the budget, never
/// below [`MIN_HISTORY_TURNS`] turns, and never a redoable one.
pub(super) const TRIM: Trim = Trim {
    min_kept: MIN_HISTORY_TURNS,
    drop_redoable: false,
};

impl BabaGame {
    pub(super) fn record_and_turn(&mut self, input: Option<Dir>) -> StepReport {
        self.record_turn(input, true)
    }

    /// [`Self::record_and_turn`]; the report's changed cells are listed only when `list`
    /// is true (a search reads no report).
    pub(super) fn record_turn(&mut self, input: Option<Dir>, list: bool) -> StepReport {
        if self.history.trimmed() == 0 && self.history.applied() == 0 && self.start.is_none() {
            self.start = Some(Box::new(self.st.clone()));
        }
        let (next_id, turn, status) = (self.st.next_id, self.st.turn, self.st.status.clone());
        let level_dir = self.st.level_dir;
        let capped = self.capped;
        self.seen_before = None;
        self.clear_journal();
        self.ops.set(0);
        self.halt.set(None);
        self.list_cells = list;
        let phases = self.run_turn(input);
        self.list_cells = true;
        let refresh = std::mem::take(&mut self.kept);
        self.last_ops = self.ops.get();
        if let Some(halt) = self.halt.take() {
            // Abandoned: every change of the turn is undone from the journal, newest first,
            // and the rules are read again from the restored objects (what a full re-read
            // gives is what the incremental refreshes kept), so the state, its hash and the
            // history are those of before the turn.
            // Each object goes back to its value before the turn (the journal holds it once).
            let log = self.take_journal();
            for (id, before) in log.into_iter().rev() {
                self.set_obj(id, before);
            }
            self.clear_journal();
            self.st.next_id = next_id;
            self.st.turn = turn;
            self.st.status = status;
            self.st.level_dir = level_dir;
            if let Some(seen) = self.seen_before.take() {
                self.st.seen = seen;
            }
            self.level_destroyed = false;
            self.capped = false;
            self.dirty.any = true;
            self.dirty.text = true;
            self.dirty.full = true;
            self.ops.set(0);
            self.halt.set(None);
            self.refresh();
            self.halt.set(None);
            if halt == Halt::Budget {
                self.error = Some(format!(
                    "turn {} went over the operation budget of {} operations (moves, object \
                     changes, property re-reads); the game is left as it was before the turn",
                    turn + 1,
                    self.op_budget
                ));
            }
            return StepReport {
                step: self.st.turn,
                ..StepReport::default()
            };
        }
        let objs = self.turn_changes();
        let mut changed = Vec::new();
        if list {
            changed.reserve(2 * objs.len());
            for (id, before) in &objs {
                if let Some(b) = before {
                    changed.push(b.pos());
                }
                if let Some(n) = self.st.objs.get(id) {
                    changed.push(n.pos());
                }
            }
            sort_cells(&mut changed, &mut self.cell_marks, self.width, self.height);
        }
        self.clear_journal();
        let patch = Patch {
            objs,
            next_id,
            turn,
            status,
            level_dir,
            seen: self.seen_before.take(),
            capped,
            refresh,
        };
        // The redoable turns are dropped here; then the oldest turns while over the budget.
        self.history.record(patch);
        StepReport {
            step: self.st.turn,
            changed,
            fired: Vec::new(),
            phases,
        }
    }

    /// Applies history entry `k` (undo: the newest applied turn; redo: the oldest redoable
    /// one) and leaves its other side in its place.
    pub(super) fn swap_patch(&mut self, k: usize) {
        let empty = Patch {
            objs: Vec::new(),
            next_id: 0,
            turn: 0,
            status: Status::Running,
            level_dir: Dir::Down,
            seen: None,
            capped: false,
            refresh: Kept::Off,
        };
        // The ALL set swapped in may differ in size from the one swapped out: the history
        // takes the patch's cost back here and counts it again when it is put back.
        let Some(mut p) = self.history.take(k, empty) else {
            return;
        };
        // Undo and redo are not turns: they start their own count, so the last turn's
        // operations (or a cancel of it) cannot stop the refresh below half-way.
        self.ops.set(0);
        self.halt.set(None);
        // The refresh kept for the other side serves when the one now matches the objects
        // now (nothing changed since it was made): then the two are swapped like the rest.
        let kept = p.refresh.known() && !self.dirty.any;
        for (id, val) in &mut p.objs {
            *val = self.set_obj(*id, *val);
        }
        std::mem::swap(&mut self.st.next_id, &mut p.next_id);
        std::mem::swap(&mut self.st.turn, &mut p.turn);
        std::mem::swap(&mut self.st.status, &mut p.status);
        std::mem::swap(&mut self.st.level_dir, &mut p.level_dir);
        if let Some(seen) = &mut p.seen {
            std::mem::swap(&mut self.st.seen, seen);
        }
        // Each side keeps what was known of it: the turn-0 state may hold more than the cap
        // (false), a turn's end never does (true).
        std::mem::swap(&mut self.capped, &mut p.capped);
        if kept {
            self.swap_kept(&mut p.refresh);
        } else {
            p.refresh = Kept::Off;
        }
        self.history.put(k, p);
        self.clear_journal();
        self.refresh();
    }
}

#[cfg(test)]
mod tests {
    use super::Kept;
    use crate::{BabaGame, BabaLevel, BabaSearch};
    use serde_json::{Value, json};
    use tilesmith_core::search_game::SearchGame as _;

    /// ROCK IS PUSH in row 1 with BABA under IS, BABA IS YOU in row 3, and `rows` rows of
    /// 30 rocks below: `30 * rows + 7` objects.
    fn level(rows: usize) -> BabaLevel {
        const W: usize = 30;
        let mut map = vec![vec![Value::Null; W]; 4 + rows];
        for (x, w) in ["text_rock", "text_is", "text_push"]
            .into_iter()
            .enumerate()
        {
            map[1][1 + x] = json!(w);
        }
        map[2][2] = json!("baba");
        for (x, w) in ["text_baba", "text_is", "text_you"].into_iter().enumerate() {
            map[3][20 + x] = json!(w);
        }
        for row in map.iter_mut().skip(4) {
            row.fill(json!("rock"));
        }
        let doc = json!({"kind": "baba", "width": W, "height": 4 + rows, "map": map});
        BabaLevel::from_json(&doc).expect("a valid board")
    }

    /// Whether a searcher's turn that breaks ROCK IS PUSH (BABA pushes IS up: every object's
    /// properties are read again) keeps the whole refresh before it in its undo patch.
    fn keeps_whole_refresh(rows: usize) -> bool {
        let mut s = BabaSearch::new(&BabaGame::new(level(rows), 0));
        s.play(3).expect("U is a move"); // U
        let patch = s.game().history.newest().expect("the turn's patch");
        matches!(patch.refresh, Kept::Full(_))
    }

    #[test]
    fn a_searchers_turn_keeps_a_whole_refresh_only_up_to_the_object_limit() {
        // 15 rows: 457 objects, under `MAX_KEPT_OBJECTS` (512); 17 rows: 517, over it.
        assert!(keeps_whole_refresh(15));
        assert!(!keeps_whole_refresh(17));
    }
}
