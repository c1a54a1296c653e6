//! Counting the distinct shortest solutions inside the breadth-first search
//! ([`crate::bfs::solve_all`], `tilesmith solve --all`, issue #29): solutions are distinct as
//! sequences of states, so two inputs that lead from one state to the same next state are one
//! step of one solution.
//!
//! Each stored state gets the number of shortest paths from the start to it, the sum of the
//! numbers of its parents in the layer before (saturating at a cap), and the deepest state
//! that every shortest path to it shares with the others as a prefix (its *shared prefix*,
//! the state where those paths last agree before they first part). A state first reached
//! from a parent whose shortest path is unique has itself as shared prefix, else its
//! parent's; each further parent in the layer before moves it to the deepest common ancestor
//! (in the tree of first parents) of the two. The shortest solutions then are the paths to
//! the winning states of the first layer that holds one: their number is the sum of those
//! states' numbers, and they all share their states up to the common ancestor of the winning
//! states' shared prefixes, so `differ_at` is one step deeper.
//!
//! Memory: 12 bytes a stored state (an 8-byte count and a 4-byte shared prefix) beside the
//! search's own 12-byte record, and a map from the key to the record of each state of the
//! layer being made (about 33 bytes a slot), cleared at each new layer.

use std::collections::HashMap;

use crate::{Budget, KeyBuild, Record};
use tilesmith_core::search_game::StateKey;

/// The cap of a solution count: counts saturate here (2⁵³ − 1, the largest integer a JSON
/// reader that keeps numbers as doubles holds exactly). [`Count::capped`] says when it was
/// reached.
pub const SOLUTION_CAP: u64 = (1 << 53) - 1;

/// Bytes a stored state takes for counting (its count and shared prefix).
pub(crate) const PER_STATE_BYTES: usize = 8 + 4;
/// Bytes a slot of the layer map takes (key, record and control byte, padded).
pub(crate) const LAYER_SLOT_BYTES: usize = std::mem::size_of::<(StateKey, u32)>() + 1;

/// The count of a one-player game's distinct shortest solutions ([`crate::bfs::solve_all`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count {
    /// Distinct shortest solutions (as sequences of states), saturating at the cap given to
    /// [`crate::bfs::solve_all`]; a lower bound when `stopped` is set.
    pub solutions: u64,
    /// True when `solutions` reached the cap (there may be more).
    pub capped: bool,
    /// The first step, counted from 1, at which two shortest solutions differ: every
    /// shortest solution has the same states after steps 1 to `differ_at − 1`. `None` when
    /// the solution is unique, or when the count was cut short (`stopped`).
    pub differ_at: Option<u32>,
    /// The budget that ran out while the last layer was being counted, if one did: the
    /// solution found is still a proved shortest one, but the count is incomplete.
    pub stopped: Option<Budget>,
}

impl Count {
    /// True when exactly one shortest solution exists (and the count is complete).
    pub fn unique(&self) -> bool {
        self.solutions == 1 && self.stopped.is_none()
    }
}

/// The counting tables of a breadth-first search; entry `i` of each vector belongs to the
/// search's record `i`.
pub(crate) struct Counting {
    cap: u64,
    counts: Vec<u64>,
    prefix: Vec<u32>,
    /// The states of the layer being made (key → record).
    layer: HashMap<StateKey, u32, KeyBuild>,
    layer_depth: u32,
    /// The states already reached from the state being expanded.
    children: Vec<StateKey>,
    wins: Vec<u32>,
}

impl Counting {
    pub(crate) fn new(cap: u64) -> Counting {
        Counting {
            cap: cap.max(1),
            counts: Vec::new(),
            prefix: Vec::new(),
            layer: HashMap::default(),
            layer_depth: 0,
            children: Vec::new(),
            wins: Vec::new(),
        }
    }

    /// The start state, record 0: one path, its own shared prefix.
    pub(crate) fn root(&mut self, won: bool) {
        self.counts.push(1);
        self.prefix.push(0);
        if won {
            self.wins.push(0);
        }
    }

    /// The bytes the counting tables would take after the next growth, beside the records
    /// (`records_capacity` of them, which the per-state vectors follow).
    pub(crate) fn bytes_after_growth(&self, records_capacity: usize) -> usize {
        let grow = if self.layer.len() == self.layer.capacity() {
            self.layer.capacity().max(1024) * 2
        } else {
            0
        };
        records_capacity * PER_STATE_BYTES + (self.layer.capacity() + grow) * LAYER_SLOT_BYTES
    }

    /// A state at `depth` is about to be expanded: its children are at `depth + 1`.
    pub(crate) fn begin(&mut self, depth: u32) {
        self.children.clear();
        if self.layer_depth != depth + 1 {
            self.layer.clear();
            self.layer_depth = depth + 1;
        }
    }

    /// False when `key` was already reached from the state being expanded (by another input:
    /// the same step).
    pub(crate) fn first_from_parent(&mut self, key: StateKey) -> bool {
        if self.children.contains(&key) {
            false
        } else {
            self.children.push(key);
            true
        }
    }

    /// A new state, record `index`, first reached from record `parent`.
    pub(crate) fn add(&mut self, key: StateKey, parent: u32, index: u32, won: bool) {
        let p = parent as usize;
        self.counts.push(self.counts[p]);
        let shared = self.prefix[p];
        self.prefix
            .push(if shared == parent { index } else { shared });
        self.layer.insert(key, index);
        if won {
            self.wins.push(index);
        }
    }

    /// `key`, a state seen before, reached again from record `parent`: when it is in the
    /// layer being made, its paths through `parent` are added.
    pub(crate) fn merge(&mut self, records: &[Record], key: StateKey, parent: u32) {
        let Some(&r) = self.layer.get(&key) else {
            return;
        };
        let (r, p) = (r as usize, parent as usize);
        self.counts[r] = self.counts[r].saturating_add(self.counts[p]).min(self.cap);
        self.prefix[r] = ancestor(records, self.prefix[r], self.prefix[p]);
    }

    /// The count of the winning states found (all of one layer).
    pub(crate) fn count(&self, records: &[Record], stopped: Option<Budget>) -> Count {
        let solutions = self
            .wins
            .iter()
            .fold(0u64, |s, &w| s.saturating_add(self.counts[w as usize]))
            .min(self.cap);
        let differ_at = if solutions <= 1 || stopped.is_some() {
            None
        } else {
            let mut wins = self.wins.iter().map(|&w| self.prefix[w as usize]);
            let first = wins.next().unwrap_or(0);
            let shared = wins.fold(first, |a, b| ancestor(records, a, b));
            Some(records[shared as usize].depth + 1)
        };
        Count {
            solutions,
            capped: solutions >= self.cap,
            differ_at,
            stopped,
        }
    }
}

/// The deepest common ancestor of records `a` and `b` in the tree of first parents
/// (the search's records; record 0 is the root).
fn ancestor(records: &[Record], mut a: u32, mut b: u32) -> u32 {
    let depth = |i: u32| records[i as usize].depth;
    while depth(a) > depth(b) {
        a = records[a as usize].parent;
    }
    while depth(b) > depth(a) {
        b = records[b as usize].parent;
    }
    while a != b {
        a = records[a as usize].parent;
        b = records[b as usize].parent;
    }
    a
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use crate::bfs::{self, Answer, Limits};
    use crate::test_graph::Graph;

    fn count(edges: Vec<Vec<usize>>, wins: Vec<usize>, cap: u64) -> (usize, super::Count) {
        let mut g = Graph::new(edges, wins);
        let cancel = AtomicBool::new(false);
        let out = bfs::solve_all(&mut g, &Limits::default(), cap, &cancel, &mut |_| {}).unwrap();
        assert_eq!(g.path, vec![0], "the game is back at its start");
        match out.answer {
            Answer::Solved(s) => (s.moves.len(), out.count.unwrap()),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_diamond_has_two_solutions_that_part_at_the_first_step() {
        // 0 → 1 → 3 and 0 → 2 → 3 (3 won): two paths, different after step 1.
        let (steps, c) = count(vec![vec![1, 2], vec![3], vec![3], vec![]], vec![3], 99);
        assert_eq!((steps, c.solutions, c.differ_at), (2, 2, Some(1)));
        assert!(!c.unique() && !c.capped);
    }

    #[test]
    fn two_inputs_to_the_same_state_are_one_step() {
        // 0 has three moves, two of them to 1: still the one solution 0 → 1 → 2.
        let (steps, c) = count(vec![vec![1, 1, 0], vec![2, 0], vec![]], vec![2], 99);
        assert_eq!((steps, c.solutions, c.differ_at), (2, 1, None));
        assert!(c.unique());
    }

    #[test]
    fn paths_after_a_shared_start_part_where_they_part() {
        // 0 → 1 (forced), then 1 → 2 → 4, 1 → 3 → 4, 1 → 3 → 5 (4 and 5 won): three
        // solutions of 3 steps, all with state 1 after step 1, parting at step 2. The longer
        // path 0 → 6 → 7 → 8 → 4 is no shortest one.
        let edges = vec![
            vec![1, 6],
            vec![2, 3],
            vec![4],
            vec![4, 5],
            vec![],
            vec![],
            vec![7],
            vec![8],
            vec![4],
        ];
        let (steps, c) = count(edges, vec![4, 5], 99);
        assert_eq!((steps, c.solutions, c.differ_at), (3, 3, Some(2)));
    }

    #[test]
    fn paths_that_part_and_meet_again_differ_where_they_first_part() {
        // 0 → 1 → 2 → 4 → 5 and 0 → 1 → 3 → 4 → 5: they meet again at 4, but part at step 2.
        let edges = vec![vec![1], vec![2, 3], vec![4], vec![4], vec![5], vec![]];
        let (steps, c) = count(edges, vec![5], 99);
        assert_eq!((steps, c.solutions, c.differ_at), (4, 2, Some(2)));
    }

    #[test]
    fn counts_multiply_through_layers_and_saturate_at_the_cap() {
        // A ladder of 10 rungs, each with two states to pass through: 2^10 = 1 024 paths.
        // State 3k is a rung's start, 3k+1 and 3k+2 its two sides, 3(k+1) the next start.
        let rungs = 10;
        let mut edges = Vec::new();
        for k in 0..rungs {
            let next = 3 * (k + 1);
            edges.push(vec![3 * k + 1, 3 * k + 2]);
            edges.push(vec![next]);
            edges.push(vec![next]);
        }
        edges.push(vec![]);
        let win = 3 * rungs;
        let (steps, c) = count(edges.clone(), vec![win], super::SOLUTION_CAP);
        assert_eq!((steps, c.solutions, c.differ_at), (20, 1024, Some(1)));
        let (_, c) = count(edges, vec![win], 1000);
        assert_eq!((c.solutions, c.capped), (1000, true));
    }

    #[test]
    fn a_won_start_is_one_solution_of_no_steps() {
        let (steps, c) = count(vec![vec![]], vec![0], 99);
        assert_eq!((steps, c.solutions, c.differ_at), (0, 1, None));
    }
}
