//! A one-player game on a graph given by hand, for the unit tests of the searches.

use tilesmith_core::search_game::{Move, SearchError, SearchGame, SearchStatus, StateKey};

/// A one-player game on a directed graph given by hand: state `i` has the moves
/// `0..edges[i].len()`, move `m` leads to `edges[i][m]`; the states in `wins` are won.
#[derive(Clone)]
pub(crate) struct Graph {
    pub(crate) edges: Vec<Vec<usize>>,
    pub(crate) wins: Vec<usize>,
    pub(crate) path: Vec<usize>,
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
}
