//! IDA*: iterative deepening A* for one-player games whose state space is too large to store
//! (issue #29: "A*/IDA* where a kind offers an admissible estimate").
//!
//! Each iteration is a depth-first search from the start that does not go past states whose
//! f = g + h (moves made plus the kind's estimate, at least 1 for a running state) is over the
//! iteration's bound; the first bound is the start's estimate, each next one the least f that
//! was over the bound. Lost and dead states ([`SearchGame::is_dead`]) are not gone into. A
//! win is taken when it is generated: with an admissible estimate no solution is shorter
//! than the bound (the iteration before, with a smaller bound, would have found it, and every
//! solution passes through a state cut by that bound, whose f is at most its length), and a
//! win generated from a state with f ≤ bound has at most bound moves, so it is **proved
//! shortest** under the same condition as A* ([`crate::astar`], whose check along the
//! solution is made here too).
//!
//! **The transposition table** (bounded): the key of each state gone into in the current
//! iteration and the g it was reached with; a state reached again in the same iteration with
//! no smaller g is not gone into again (the first visit searched below it with at least as
//! many moves left under the bound), which also cuts cycles. The table is cleared at each
//! iteration and grows up to the memory budget; when full, new states are not entered (the
//! search stays correct and only does more work). The path itself is the depth-first stack
//! (the moves and each state's move list), the game played forward and undone.
//!
//! Answers: solved; unsolvable when an iteration found no state over its bound (the whole
//! reachable space was gone through); unknown when the time ran out, it was cancelled, or
//! only states past `max_steps` were left. [`Outcome::states`] counts the states generated,
//! each time it is generated (iterations search the same states again). Progress: those
//! states, the bound, states per second.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::astar::{running_estimate, solution};
use crate::bfs::{Answer, Limits, Outcome};
use crate::{Algorithm, Budget, Clock, KeyBuild, Progress};
use tilesmith_core::search_game::{Move, SearchError, SearchGame, SearchStatus, StateKey};

/// Bytes a slot of the transposition table takes (key, g, control byte).
const TT_SLOT_BYTES: usize = std::mem::size_of::<(StateKey, u32)>() + 1;

/// Searches the one-player game `root` by IDA* for a shortest solution within `limits`
/// (`memory` bounds the transposition table), with the kind's [`SearchGame::estimate`] (none:
/// 1, iterative deepening on the moves alone). `root` is back in its state when this
/// returns.
///
/// # Errors
/// A [`SearchError`] from the kind.
pub fn solve(
    root: &mut dyn SearchGame,
    limits: &Limits,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Outcome, SearchError> {
    let mut s = Ida {
        g: root,
        limits: *limits,
        cancel,
        tt: HashMap::default(),
        path: Vec::new(),
        buf: Vec::new(),
        frames: Vec::new(),
        states: 1,
        deepest: 0,
        bound: 0,
        clock: Clock::new(),
    };
    let r = s.search(progress);
    s.unwind();
    let answer = match r? {
        Answer::Solved(sol) => Answer::Solved(solution(s.g, sol.moves)?),
        other => other,
    };
    progress(&Progress::new(s.states, s.bound, s.clock.started));
    Ok(Outcome {
        answer,
        states: s.states,
        depth: s.deepest,
        elapsed: s.clock.started.elapsed(),
        count: None,
        algorithm: Algorithm::Ida,
    })
}

/// A state on the depth-first stack: its moves are `buf[start..end]`, `next` the next to try.
struct Frame {
    start: usize,
    end: usize,
    next: usize,
}

/// How an iteration ended without a win: the least f over the bound (`None`: no state was
/// over it), and whether a state was cut by `max_steps`.
enum Iteration {
    Won(Vec<Move>),
    Bound(Option<u32>, bool),
    Stopped(Budget),
}

struct Ida<'g, 'c> {
    g: &'g mut dyn SearchGame,
    limits: Limits,
    cancel: &'c AtomicBool,
    /// The transposition table: key → the least g it was reached with in this iteration.
    tt: HashMap<StateKey, u32, KeyBuild>,
    /// The moves played from the start, not undone.
    path: Vec<Move>,
    buf: Vec<Move>,
    frames: Vec<Frame>,
    states: u64,
    deepest: u32,
    bound: u32,
    clock: Clock,
}

impl Ida<'_, '_> {
    /// Undoes every move played.
    fn unwind(&mut self) {
        while !self.path.is_empty() && self.g.undo() {
            self.path.pop();
        }
        self.frames.clear();
        self.buf.clear();
    }

    fn search(&mut self, progress: &mut dyn FnMut(&Progress)) -> Result<Answer, SearchError> {
        match self.g.status()? {
            SearchStatus::Won(_) => {
                return Ok(Answer::Solved(crate::bfs::Solution {
                    moves: Vec::new(),
                    words: Vec::new(),
                    shortest: true,
                }));
            }
            SearchStatus::Running if !self.g.is_dead() => {}
            _ => return Ok(Answer::Unsolvable),
        }
        self.bound = running_estimate(self.g);
        loop {
            if self.limits.max_steps.is_some_and(|m| self.bound > m) {
                return Ok(Answer::Unknown(Budget::Steps));
            }
            let it = self.iteration(progress);
            self.unwind();
            match it? {
                Iteration::Won(moves) => {
                    return Ok(Answer::Solved(crate::bfs::Solution {
                        moves,
                        words: Vec::new(),
                        shortest: true,
                    }));
                }
                Iteration::Stopped(b) => return Ok(Answer::Unknown(b)),
                Iteration::Bound(Some(next), _) => self.bound = next,
                Iteration::Bound(None, true) => return Ok(Answer::Unknown(Budget::Steps)),
                Iteration::Bound(None, false) => return Ok(Answer::Unsolvable),
            }
        }
    }

    /// Whether the table can take one more key without passing the memory budget.
    fn tt_has_room(&self) -> bool {
        let (len, cap) = (self.tt.len(), self.tt.capacity());
        len < cap || cap.max(1024) * 2 * TT_SLOT_BYTES <= self.limits.memory
    }

    fn over_budget(&mut self, progress: &mut dyn FnMut(&Progress)) -> Option<Budget> {
        if self.cancel.load(Ordering::Relaxed) {
            return Some(Budget::Cancelled);
        }
        self.clock
            .tick(self.states, self.bound, self.limits.time, progress)
    }

    /// One depth-first search under `self.bound`.
    fn iteration(&mut self, progress: &mut dyn FnMut(&Progress)) -> Result<Iteration, SearchError> {
        self.tt.clear();
        if self.tt_has_room() {
            self.tt.insert(self.g.visited_key(), 0);
        }
        let (mut next, mut stepped_out) = (None::<u32>, false);
        self.g.moves(&mut self.buf)?;
        self.frames.push(Frame {
            start: 0,
            end: self.buf.len(),
            next: 0,
        });
        while let Some(top) = self.frames.last_mut() {
            if top.next == top.end {
                self.buf.truncate(top.start);
                self.frames.pop();
                if !self.frames.is_empty() && self.g.undo() {
                    self.path.pop();
                }
                continue;
            }
            let mv = self.buf[top.next];
            top.next += 1;
            if let Some(b) = self.over_budget(progress) {
                return Ok(Iteration::Stopped(b));
            }
            self.g.play(mv)?;
            self.path.push(mv);
            self.states += 1;
            let g = self.path.len() as u32;
            self.deepest = self.deepest.max(g);
            match self.enter(g)? {
                Step::Won => return Ok(Iteration::Won(self.path.clone())),
                Step::Enter => {
                    let start = self.buf.len();
                    self.g.moves(&mut self.buf)?;
                    self.frames.push(Frame {
                        start,
                        end: self.buf.len(),
                        next: start,
                    });
                    continue;
                }
                Step::Skip => {}
                Step::Over(f) => next = Some(next.map_or(f, |n| n.min(f))),
                Step::PastSteps => stepped_out = true,
            }
            if self.g.undo() {
                self.path.pop();
            }
        }
        Ok(Iteration::Bound(next, stepped_out))
    }

    /// What to do with the state the game is at, `g` moves from the start.
    fn enter(&mut self, g: u32) -> Result<Step, SearchError> {
        match self.g.status()? {
            SearchStatus::Won(_) => return Ok(Step::Won),
            SearchStatus::Running if !self.g.is_dead() => {}
            _ => return Ok(Step::Skip),
        }
        let key = self.g.visited_key();
        let room = self.tt_has_room();
        match self.tt.get_mut(&key) {
            Some(seen) if *seen <= g => return Ok(Step::Skip),
            Some(seen) => *seen = g,
            None if room => {
                self.tt.insert(key, g);
            }
            None => {}
        }
        let f = g.saturating_add(running_estimate(self.g));
        Ok(if self.limits.max_steps.is_some_and(|m| f > m) {
            Step::PastSteps
        } else if f > self.bound {
            Step::Over(f)
        } else {
            Step::Enter
        })
    }
}

/// What the depth-first search does with a state it reached.
enum Step {
    Won,
    /// Go into it: list its moves.
    Enter,
    /// Over, dead, or met before in this iteration with no more moves: leave it.
    Skip,
    /// Its f passed the bound.
    Over(u32),
    /// Its f passed `max_steps`.
    PastSteps,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_graph::Graph;

    fn run(g: &mut Graph, limits: &Limits) -> Outcome {
        solve(g, limits, &AtomicBool::new(false), &mut |_| {}).unwrap()
    }

    fn moves(o: &Outcome) -> Vec<Move> {
        match &o.answer {
            Answer::Solved(s) => s.moves.clone(),
            other => panic!("not solved: {other:?}"),
        }
    }

    /// The graph 0 → 1 → 2 → 3 → 6 (won; move 0 at each) and 0 → 4 → 6 (move 1, then 0),
    /// with 2 → 0 and 4 → 5 → 4 (cycles). Without an estimate the bounds are 1, 2: depth
    /// first tries move 0 first, so the bound 2 is needed for 0 → 4 → 6 (worked out by hand:
    /// bound 1 cuts 1 and 4 at f 2).
    #[test]
    fn iterative_deepening_finds_the_shortest_through_cycles() {
        let edges = vec![
            vec![1, 4],
            vec![2],
            vec![3, 0],
            vec![6],
            vec![6, 5],
            vec![4],
            vec![],
        ];
        let mut g = Graph::new(edges.clone(), vec![6]);
        let o = run(&mut g, &Limits::default());
        assert_eq!(moves(&o), vec![1, 0]);
        assert_eq!(o.algorithm, Algorithm::Ida);
        // The exact estimate (3 at 1, 2 at 2, 1 at 3 and 4, 2 at 5): one iteration, bound 2.
        let est = vec![2, 3, 2, 1, 1, 2, 0];
        let mut g = Graph::new(edges.clone(), vec![6]).with_estimate(est);
        let o = run(&mut g, &Limits::default());
        assert_eq!(moves(&o), vec![1, 0]);
        // 0 → 1 (f 1 + 3 = 4 > 2, cut), 0 → 4 (f 2), 4 → 6 won: the start and 3 generated.
        assert_eq!(o.states, 4);
        // No win: the cycles are cut by the table and the space is proved to hold none.
        let mut g = Graph::new(edges, vec![]);
        assert_eq!(run(&mut g, &Limits::default()).answer, Answer::Unsolvable);
    }

    /// The same graphs as A*'s: an inconsistent admissible estimate still gives the shortest
    /// (4 moves by 0 → 1 → 4 → 5 → 6); an inadmissible one (h(1) = 5) the 3-move solution
    /// where 2 moves would do, seen as not proved shortest when h(0) = 4 > 3.
    #[test]
    fn estimates_consistent_or_not_admissible_or_not() {
        let edges = vec![
            vec![2, 1],
            vec![4],
            vec![3],
            vec![4],
            vec![5],
            vec![6],
            vec![],
        ];
        let mut g = Graph::new(edges, vec![6]).with_estimate(vec![0, 3, 0, 0, 0, 1, 0]);
        assert_eq!(moves(&run(&mut g, &Limits::default())), vec![1, 0, 0, 0]);
        let edges = vec![vec![1, 2], vec![4], vec![3], vec![4], vec![]];
        let mut g = Graph::new(edges, vec![4]).with_estimate(vec![4, 5, 1, 1, 0]);
        let o = run(&mut g, &Limits::default());
        let Answer::Solved(s) = &o.answer else {
            panic!("not solved")
        };
        assert_eq!((s.moves.clone(), s.shortest), (vec![1, 0, 0], false));
    }

    /// The step bound, a dead state, cancelling, and a transposition table of no room (the
    /// memory budget 0): still the shortest, by more work.
    #[test]
    fn budgets_dead_states_and_a_full_table() {
        let chain = vec![vec![1], vec![2], vec![3], vec![4], vec![]];
        let mut g = Graph::new(chain.clone(), vec![4]);
        let limits = Limits {
            max_steps: Some(3),
            ..Limits::default()
        };
        assert_eq!(run(&mut g, &limits).answer, Answer::Unknown(Budget::Steps));
        let mut g = Graph::new(chain, vec![4]);
        g.dead = vec![2];
        assert_eq!(run(&mut g, &Limits::default()).answer, Answer::Unsolvable);
        let cancel = AtomicBool::new(true);
        let mut g = Graph::new(vec![vec![1], vec![0]], vec![]);
        let o = solve(&mut g, &Limits::default(), &cancel, &mut |_| {}).unwrap();
        assert_eq!(o.answer, Answer::Unknown(Budget::Cancelled));
        let edges = vec![vec![1, 2], vec![0, 3], vec![0, 3], vec![4], vec![]];
        let tight = Limits {
            memory: 0,
            ..Limits::default()
        };
        let mut g = Graph::new(edges, vec![4]);
        assert_eq!(moves(&run(&mut g, &tight)), vec![0, 1, 0]);
    }
}
