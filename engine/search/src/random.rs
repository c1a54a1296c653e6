//! Uniformly random choices for the algorithms that play at random (Monte Carlo tree search
//! and playouts): an index without modulo bias, and a random move of a game, drawn without
//! listing the moves when the kind numbers them. Below both [`crate::mcts`] and
//! [`crate::playout`], which use it.

use rand_chacha::ChaCha8Rng;
pub use tilesmith_core::random::uniform;
use tilesmith_core::search_game::{Move, SearchError, SearchGame};

/// A uniformly random move of `g` (running), drawn without listing the moves when the kind
/// numbers them ([`SearchGame::move_count`]), else from the list put in `buf`; `None` when
/// there is none.
///
/// # Errors
/// A [`SearchError`] from the kind.
pub fn random_move(
    g: &mut dyn SearchGame,
    buf: &mut Vec<Move>,
    rng: &mut ChaCha8Rng,
) -> Result<Option<Move>, SearchError> {
    if let Some(n) = g.move_count()? {
        let n = n.min(u64::from(Move::MAX)) as usize;
        return Ok((n > 0).then(|| uniform(rng, n) as Move));
    }
    buf.clear();
    g.moves(buf)?;
    Ok((!buf.is_empty()).then(|| buf[uniform(rng, buf.len())]))
}
