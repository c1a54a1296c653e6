//! Uniformly random choices for the algorithms that play at random (Monte Carlo tree search
//! and playouts): an index without modulo bias, and a random move of a game, drawn without
//! listing the moves when the kind numbers them. Below both [`crate::mcts`] and
//! [`crate::playout`], which use it.

pub use tilesmith_core::random::uniform;
pub use tilesmith_core::search_game::random_move;
