//! A* for the shortest solutions of one-player games whose kind gives an estimate
//! ([`SearchGame::estimate`]; issue #29: "A*/IDA* where a kind offers an admissible
//! estimate").
//!
//! States are expanded in the order of f = g + h, the moves made from the start (g) plus the
//! kind's estimate of the moves still needed (h), ties to the deeper state. Like the
//! breadth-first search ([`crate::bfs`]) it stores no states: a visited state is its key (in a
//! map to its record) and a 12-byte record (parent, move, g); to expand a state the one game
//! is walked from the state it is at to the next one, by undoing to their longest common
//! prefix of moves and playing the rest. The open list is a binary heap of 16-byte entries
//! (f and g packed, the record), stale entries dropped when popped. Lost and dead states
//! ([`SearchGame::is_dead`]) are counted, not expanded.
//!
//! **When the solution is proved shortest.** The estimate of a state that is running (not
//! won) is taken as at least 1 (such a state needs a move at least; `None` counts as 0, so 1).
//! A win is noted when it is generated, and the search stops when the least f on the open list
//! is no less than the win's length. If the estimate is *admissible* (never more than the
//! fewest moves to a win, as [`SearchGame::estimate`] promises), some state of a shortest
//! solution is always on the open list with f at most the shortest length C*, so a win of
//! length c ≤ every f on the list has c = C*: proved shortest. If the estimate is also
//! *consistent* (h(s) ≤ 1 + h(t) for every move s → t), a state is never reached again by a
//! shorter path after it was expanded; if it is not, such a state is **reopened**: its
//! record takes the shorter path and it goes back on the open list (the records' g falls
//! strictly along every chain of parents, so the chains stay a tree). With an inadmissible
//! estimate, A* still finds a solution when one is reachable, but not necessarily a shortest
//! one: the search cannot tell in general. It checks what it can: along the solution found,
//! each state's estimate must be at most the moves left on that solution (an upper bound on
//! the fewest); when one is more, the estimate is proved inadmissible and the solution is
//! reported not proved shortest ([`Solution::shortest`] false).
//!
//! Budgets (as breadth-first): memory (the map, the records and the heap, counted by their
//! capacity and checked before one would grow), time, a step bound (a state with g + h over
//! `max_steps` is not made: with an admissible estimate no solution within the bound passes
//! through it) and a cancel flag, read at every state generated. Progress about ten times a
//! second: the states stored, the f being expanded, states per second.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::sync::atomic::{AtomicBool, Ordering};

use crate::bfs::{Answer, Limits, Outcome, Solution};
use crate::{Algorithm, Budget, Clock, KeyBuild, Progress};
use tilesmith_core::search_game::{Move, SearchError, SearchGame, SearchStatus, StateKey};

/// A state A* stored: its parent on the best path known, the move from there, and g.
#[derive(Clone, Copy)]
struct Rec {
    parent: u32,
    mv: Move,
    g: u32,
}

/// An open-list entry: f in the high 32 bits and `u32::MAX − g` in the low ones (so that the
/// least entry is the least f, then the greatest g), and the record.
type Open = Reverse<(u64, u32)>;

const REC_BYTES: usize = std::mem::size_of::<Rec>();
const MAP_SLOT_BYTES: usize = std::mem::size_of::<(StateKey, u32)>() + 1;
const OPEN_BYTES: usize = std::mem::size_of::<Open>();

/// Searches the one-player game `root` by A* for a shortest solution within `limits`, with
/// the kind's [`SearchGame::estimate`] (a game without one is searched with the estimate 1,
/// which makes this a breadth-first search with a heap). `progress` is called about ten
/// times a second and once at the end; `cancel` stops the search. `root` is back in its state
/// when this returns. [`Outcome::states`] counts the distinct states stored.
///
/// # Errors
/// A [`SearchError`] from the kind (a step it could not compute).
pub fn solve(
    root: &mut dyn SearchGame,
    limits: &Limits,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Outcome, SearchError> {
    let mut a = AStar {
        g: root,
        limits: *limits,
        cancel,
        recs: Vec::new(),
        index: HashMap::default(),
        open: BinaryHeap::new(),
        path: Vec::new(),
        target: Vec::new(),
        moves: Vec::new(),
        clock: Clock::new(),
        best_f: 0,
        deepest: 0,
        stepped_out: false,
        win: None,
    };
    let r = a.search(progress);
    while !a.path.is_empty() {
        a.undo();
    }
    let answer = match r? {
        Answer::Solved(s) => Answer::Solved(solution(a.g, s.moves)?),
        other => other,
    };
    let out = Outcome {
        answer,
        states: a.index.len().max(1) as u64,
        depth: a.deepest,
        elapsed: a.clock.started.elapsed(),
        count: None,
        algorithm: Algorithm::AStar,
    };
    progress(&Progress::new(out.states, a.best_f, a.clock.started));
    Ok(out)
}

/// The estimate the searches use for a running state: the kind's, at least 1.
pub(crate) fn running_estimate(g: &mut dyn SearchGame) -> u32 {
    g.estimate().unwrap_or(0).max(1)
}

/// The solution `moves` from `g`'s current state (which it is back in after): their words,
/// and whether it is proved shortest, i.e. whether the estimate of each state along it is
/// at most the moves left on it (otherwise the estimate is inadmissible there).
pub(crate) fn solution(g: &mut dyn SearchGame, moves: Vec<Move>) -> Result<Solution, SearchError> {
    let mut words = Vec::new();
    let mut shortest = true;
    let mut played = 0;
    let mut r = Ok(());
    for (i, &mv) in moves.iter().enumerate() {
        let left = (moves.len() - i) as u32;
        if g.estimate().is_some_and(|h| h > left) {
            shortest = false;
        }
        words.extend(g.words(mv));
        r = g.play(mv);
        if r.is_err() {
            break;
        }
        played += 1;
    }
    for _ in 0..played {
        g.undo();
    }
    r?;
    Ok(Solution {
        moves,
        words,
        shortest,
    })
}

struct AStar<'g, 'c> {
    g: &'g mut dyn SearchGame,
    limits: Limits,
    cancel: &'c AtomicBool,
    recs: Vec<Rec>,
    index: HashMap<StateKey, u32, KeyBuild>,
    open: BinaryHeap<Open>,
    /// The moves played on the game from the start, not undone.
    path: Vec<Move>,
    /// Scratch: the moves to the state to expand next.
    target: Vec<Move>,
    moves: Vec<Move>,
    clock: Clock,
    /// The f of the state being expanded.
    best_f: u32,
    /// The greatest g stored.
    deepest: u32,
    /// A state was not made because g + h passed `max_steps`.
    stepped_out: bool,
    /// The shortest win generated so far: its length and its moves.
    win: Option<(u32, Vec<Move>)>,
}

impl AStar<'_, '_> {
    fn push(&mut self, rec: u32, g: u32, h: u32) {
        let f = u64::from(g.saturating_add(h));
        self.open
            .push(Reverse(((f << 32) | u64::from(u32::MAX - g), rec)));
    }

    fn undo(&mut self) {
        if self.g.undo() {
            self.path.pop();
        }
    }

    /// The bytes the tables would take if every one that is full grew now.
    fn bytes_after_growth(&self) -> usize {
        let grown = |len: usize, cap: usize, per: usize| {
            let extra = if len == cap { cap.max(1024) * per } else { 0 };
            cap * per + extra
        };
        grown(self.recs.len(), self.recs.capacity(), REC_BYTES)
            + grown(self.index.len(), self.index.capacity(), MAP_SLOT_BYTES)
            + grown(self.open.len(), self.open.capacity(), OPEN_BYTES)
    }

    fn over_budget(&mut self, progress: &mut dyn FnMut(&Progress)) -> Option<Budget> {
        if self.cancel.load(Ordering::Relaxed) {
            return Some(Budget::Cancelled);
        }
        if self.bytes_after_growth() > self.limits.memory {
            return Some(Budget::Memory);
        }
        self.clock.tick(
            self.index.len() as u64,
            self.best_f,
            self.limits.time,
            progress,
        )
    }

    fn search(&mut self, progress: &mut dyn FnMut(&Progress)) -> Result<Answer, SearchError> {
        self.index.insert(self.g.visited_key(), 0);
        self.recs.push(Rec {
            parent: u32::MAX,
            mv: 0,
            g: 0,
        });
        match self.g.status()? {
            SearchStatus::Won(_) => return Ok(solved(Vec::new())),
            SearchStatus::Running if !self.g.is_dead() => {}
            _ => return Ok(Answer::Unsolvable),
        }
        let h = running_estimate(self.g);
        if self.limits.max_steps.is_some_and(|m| h > m) {
            return Ok(Answer::Unknown(Budget::Steps));
        }
        self.push(0, 0, h);
        while let Some(Reverse((fg, n))) = self.open.pop() {
            let f = (fg >> 32) as u32;
            let g = u32::MAX - fg as u32;
            if self.win.as_ref().is_some_and(|(c, _)| f >= *c) {
                break;
            }
            if self.recs[n as usize].g != g {
                continue; // stale: the state was reached again by a shorter path
            }
            self.best_f = f;
            self.goto(n)?;
            self.moves.clear();
            self.g.moves(&mut self.moves)?;
            for k in 0..self.moves.len() {
                if let Some(b) = self.over_budget(progress) {
                    return Ok(Answer::Unknown(b));
                }
                let mv = self.moves[k];
                self.g.play(mv)?;
                self.path.push(mv);
                let r = self.child(n, g + 1, mv);
                self.undo();
                r?;
            }
        }
        Ok(match self.win.take() {
            Some((_, moves)) => solved(moves),
            None if self.stepped_out => Answer::Unknown(Budget::Steps),
            None => Answer::Unsolvable,
        })
    }

    /// The game is at a child of record `n`, `g` moves from the start, reached by `mv`.
    fn child(&mut self, n: u32, g: u32, mv: Move) -> Result<(), SearchError> {
        let key = self.g.visited_key();
        let known = self.index.get(&key).copied();
        if let Some(j) = known
            && self.recs[j as usize].g <= g
        {
            return Ok(());
        }
        let status = self.g.status()?;
        let h = match status {
            SearchStatus::Running if !self.g.is_dead() => Some(running_estimate(self.g)),
            _ => None,
        };
        let rec = Rec { parent: n, mv, g };
        let j = match known {
            Some(j) => {
                self.recs[j as usize] = rec; // reopened: a shorter path
                j
            }
            None => {
                let j = self.recs.len() as u32;
                self.recs.push(rec);
                self.index.insert(key, j);
                j
            }
        };
        self.deepest = self.deepest.max(g);
        if matches!(status, SearchStatus::Won(_)) {
            if self.win.as_ref().is_none_or(|(c, _)| g < *c) {
                self.win = Some((g, self.path.clone()));
            }
            return Ok(());
        }
        // Lost, drawn or dead: stored (counted), not expanded.
        let Some(h) = h else { return Ok(()) };
        if self
            .limits
            .max_steps
            .is_some_and(|m| g.saturating_add(h) > m)
        {
            self.stepped_out = true;
            return Ok(());
        }
        self.push(j, g, h);
        Ok(())
    }

    /// Walks the game from the state it is at to record `n`: undoes to the longest common
    /// prefix of the two move sequences, then plays the rest.
    fn goto(&mut self, mut n: u32) -> Result<(), SearchError> {
        self.target.clear();
        while n != 0 && n != u32::MAX {
            let r = self.recs[n as usize];
            self.target.push(r.mv);
            n = r.parent;
        }
        self.target.reverse();
        let common = self
            .path
            .iter()
            .zip(&self.target)
            .take_while(|(a, b)| a == b)
            .count();
        while self.path.len() > common {
            self.undo();
        }
        for i in common..self.target.len() {
            let mv = self.target[i];
            self.g.play(mv)?;
            self.path.push(mv);
        }
        Ok(())
    }
}

/// A solution of `moves`, its words filled in later.
fn solved(moves: Vec<Move>) -> Answer {
    Answer::Solved(Solution {
        moves,
        words: Vec::new(),
        shortest: true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_graph::Graph;

    fn run(g: &mut Graph, limits: &Limits) -> Outcome {
        solve(g, limits, &AtomicBool::new(false), &mut |_| {}).unwrap()
    }

    fn moves(o: &Outcome) -> (Vec<Move>, bool) {
        match &o.answer {
            Answer::Solved(s) => (s.moves.clone(), s.shortest),
            other => panic!("not solved: {other:?}"),
        }
    }

    /// A grid of 4×4 states numbered `4·row + col`, moves right (0) and down (1) where they
    /// stay on the grid, the win at 15; the estimate is the Manhattan distance to it
    /// (admissible and consistent). A* expands only states with f = 6: every state is on a
    /// shortest path here, and ties go deeper, so it walks one path (worked out by hand: the
    /// first moves are right while f ties, the deeper state first).
    #[test]
    fn a_consistent_estimate_walks_one_shortest_path() {
        let mut edges = Vec::new();
        for s in 0..16usize {
            let mut e = Vec::new();
            if s % 4 < 3 {
                e.push(s + 1);
            }
            if s / 4 < 3 {
                e.push(s + 4);
            }
            edges.push(e);
        }
        let est: Vec<u32> = (0..16u32).map(|s| (3 - s % 4) + (3 - s / 4)).collect();
        let mut g = Graph::new(edges, vec![15]).with_estimate(est);
        let o = run(&mut g, &Limits::default());
        let (m, shortest) = moves(&o);
        assert_eq!(m.len(), 6);
        assert!(shortest);
        // Breadth-first would store all 16; A* the start, and two children per state expanded
        // along one path (right first, deeper ties first): 0 → 1 → 2 → 3 → 7 → 11 → 15.
        assert_eq!(m, vec![0, 0, 0, 0, 0, 0]);
        assert!(o.states < 16, "{} states", o.states);
        assert_eq!(o.algorithm, Algorithm::AStar);
    }

    /// Without an estimate (1 everywhere) A* is breadth-first: on the graph 0 → 1 → 2 → 5
    /// (won) and 0 → 3 → 5, the two-move solution through 3.
    #[test]
    fn no_estimate_still_finds_the_shortest() {
        let edges = vec![vec![1, 3], vec![2], vec![5], vec![5], vec![], vec![]];
        let mut g = Graph::new(edges, vec![5]);
        let (m, shortest) = moves(&run(&mut g, &Limits::default()));
        assert_eq!((m, shortest), (vec![1, 0], true));
    }

    /// An admissible but inconsistent estimate makes A* expand a state before its shortest
    /// path is known, and reopen it. Graph: 0 → 2 → 3 → 4 (moves 0, 0, 0) and 0 → 1 → 4
    /// (moves 1, 0), then 4 → 5 → 6 (won). h = 3 at 1 (its true distance: 1 → 4 → 5 → 6),
    /// 1 at 5, else 0 (admissible; h(1) = 3 > 1 + h(4): not consistent). With the estimate
    /// at least 1 for a running state, by hand: expand 0 (2: f 2; 1: f 4), 2 (3: f 3), 3 (4
    /// at g 3: f 4), then 4 (f 4, deeper than 1) gives 5 at g 4; then 1 reaches 4 at g 2:
    /// shorter, 4 is reopened (f 3) and gives 5 at g 3, which gives the win at g 4:
    /// 0 → 1 → 4 → 5 → 6, proved shortest (the other way has 5 moves).
    #[test]
    fn an_inconsistent_estimate_reopens_states_and_stays_shortest() {
        let edges = vec![
            vec![2, 1],
            vec![4],
            vec![3],
            vec![4],
            vec![5],
            vec![6],
            vec![],
        ];
        let est = vec![0, 3, 0, 0, 0, 1, 0];
        let mut g = Graph::new(edges, vec![6]).with_estimate(est);
        let (m, shortest) = moves(&run(&mut g, &Limits::default()));
        assert_eq!(m, vec![1, 0, 0, 0]);
        assert!(shortest);
    }

    /// An inadmissible estimate: 0 → 1 → W (move 0, two moves) and 0 → 2 → 3 → W (move 1,
    /// three moves), with h(1) = 5 (over its one move left). A* expands 2 and 3 first (f 2
    /// and 3) and finds the three-move win, whose f (3) no open state beats (1 has f 6): a
    /// solution, but not a shortest one. When the estimate is over the moves left along the
    /// solution found (h(0) = 4 > 3) the search sees it and says not proved shortest; when
    /// the overestimate lies off that solution (h(0) = 1) it cannot see it: the proof rests
    /// on the kind's promise of admissibility (`docs/solver.md`).
    #[test]
    fn an_inadmissible_estimate_gives_a_longer_solution_not_proved_shortest() {
        let edges = vec![vec![1, 2], vec![4], vec![3], vec![4], vec![]];
        let mut g = Graph::new(edges.clone(), vec![4]).with_estimate(vec![4, 5, 1, 1, 0]);
        let (m, shortest) = moves(&run(&mut g, &Limits::default()));
        assert_eq!(m, vec![1, 0, 0]);
        assert!(!shortest, "h(0) = 4 over the 3 moves of the solution found");
        let mut g = Graph::new(edges, vec![4]).with_estimate(vec![1, 5, 1, 1, 0]);
        let (m, _) = moves(&run(&mut g, &Limits::default()));
        assert_eq!(
            m.len(),
            3,
            "a 2-move solution exists; A* cannot see the overestimate"
        );
    }

    /// The step bound: the 6-move win of the grid is not within 5 (unknown, steps); a graph
    /// with no win is unsolvable; a dead state is not expanded.
    #[test]
    fn budgets_unsolvable_and_dead_states() {
        let edges = vec![vec![1], vec![2], vec![3], vec![4], vec![5], vec![6], vec![]];
        let mut g = Graph::new(edges.clone(), vec![6]).with_estimate(vec![6, 5, 4, 3, 2, 1, 0]);
        let limits = Limits {
            max_steps: Some(5),
            ..Limits::default()
        };
        assert_eq!(run(&mut g, &limits).answer, Answer::Unknown(Budget::Steps));
        let limits = Limits {
            max_steps: Some(6),
            ..Limits::default()
        };
        assert_eq!(moves(&run(&mut g, &limits)).0.len(), 6);
        let mut g = Graph::new(edges.clone(), vec![]);
        let o = run(&mut g, &Limits::default());
        assert_eq!((o.answer, o.states), (Answer::Unsolvable, 7));
        let mut g = Graph::new(edges, vec![6]);
        g.dead = vec![3];
        let o = run(&mut g, &Limits::default());
        assert_eq!((o.answer, o.states), (Answer::Unsolvable, 4));
        let cancel = AtomicBool::new(true);
        let mut g = Graph::new(vec![vec![1], vec![0]], vec![]);
        let o = solve(&mut g, &Limits::default(), &cancel, &mut |_| {}).unwrap();
        assert_eq!(o.answer, Answer::Unknown(Budget::Cancelled));
    }
}
