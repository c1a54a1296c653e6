//! A one-player game on a graph given by hand, for the unit tests of the searches.

use tilesmith_core::search_game::{Move, SearchError, SearchGame, SearchStatus, StateKey};

/// A one-player game on a directed graph given by hand: state `i` has the moves
/// `0..edges[i].len()`, move `m` leads to `edges[i][m]`; the states in `wins` are won, those
/// in `dead` say so ([`SearchGame::is_dead`]), and `estimate[i]` is state `i`'s estimate
/// (none when `estimate` is empty).
#[derive(Clone)]
pub(crate) struct Graph {
    pub(crate) edges: Vec<Vec<usize>>,
    pub(crate) wins: Vec<usize>,
    pub(crate) path: Vec<usize>,
    pub(crate) estimate: Vec<u32>,
    pub(crate) dead: Vec<usize>,
}

impl Graph {
    /// The graph `edges` with the wins `wins`, at state 0, no estimate, no dead state.
    pub(crate) fn new(edges: Vec<Vec<usize>>, wins: Vec<usize>) -> Graph {
        Graph {
            edges,
            wins,
            path: vec![0],
            estimate: Vec::new(),
            dead: Vec::new(),
        }
    }

    /// The same graph with the estimates `estimate`, one per state.
    pub(crate) fn with_estimate(mut self, estimate: Vec<u32>) -> Graph {
        self.estimate = estimate;
        self
    }

    fn at(&self) -> usize {
        *self.path.last().unwrap_or(&0)
    }
}

impl SearchGame for Graph {
    fn players(&self) -> usize {
        1
    }
    fn to_move(&self) -> usize {
        0
    }
    fn status(&mut self) -> Result<SearchStatus, SearchError> {
        let at = *self.path.last().unwrap_or(&0);
        Ok(if self.wins.contains(&at) {
            SearchStatus::Won(0)
        } else {
            SearchStatus::Running
        })
    }
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), SearchError> {
        let at = *self.path.last().unwrap_or(&0);
        out.extend(0..self.edges[at].len() as Move);
        Ok(())
    }
    fn play(&mut self, mv: Move) -> Result<(), SearchError> {
        let at = *self.path.last().unwrap_or(&0);
        self.path.push(self.edges[at][mv as usize]);
        Ok(())
    }
    fn undo(&mut self) -> bool {
        self.path.len() > 1 && self.path.pop().is_some()
    }
    fn fork(&self) -> Box<dyn SearchGame> {
        let at = *self.path.last().unwrap_or(&0);
        Box::new(Graph {
            path: vec![at],
            ..self.clone()
        })
    }
    fn key(&self) -> StateKey {
        *self.path.last().unwrap_or(&0) as StateKey
    }
    fn word(&self, mv: Move) -> String {
        mv.to_string()
    }
    fn bytes(&self) -> usize {
        64
    }
    fn is_dead(&mut self) -> bool {
        self.dead.contains(&self.at())
    }
    fn estimate(&mut self) -> Option<u32> {
        self.estimate.get(self.at()).copied()
    }
}
