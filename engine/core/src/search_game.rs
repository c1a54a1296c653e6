//! What a game kind gives a search (issue #29: "one search module over the `Game` trait"):
//! the [`SearchGame`] trait, reached from a running game through one accessor,
//! [`crate::game::Game::searcher`], so that `Game` does not grow a method per capability.
//!
//! A [`SearchGame`] is a search-ready copy of a position, made for speed: a move is a small
//! number ([`Move`], an index into the list the kind gives with [`SearchGame::moves`], not a
//! word), a step builds no change report, [`SearchGame::undo`] takes the last move back and
//! [`SearchGame::fork`] is a cheap copy. Words are made only when a solution or a principal
//! variation is printed ([`SearchGame::word`]).
//!
//! **The state key** ([`SearchGame::key`], a [`StateKey`]) is a 128-bit hash of everything
//! that decides what can happen next (board, values, whose turn, what the rules read of the
//! past), computed with [`crate::hash::KeyHasher`]. Equal states have equal keys; the search
//! does not compare full states on a key match, so two different states are merged only if
//! both 64-bit halves of their keys collide (a chance of about n²/2¹²⁹ among n states:
//! below 10⁻²¹ for a billion states). `docs/solver.md` says this too.
//!
//! **Path dependence.** A kind whose outcome can depend on the way a position was reached
//! (board's `repetition`, a card game's draw by repetition) says so with
//! [`SearchGame::history_dependence`]; the search then keeps such values out of its
//! transposition table (see `tilesmith_search`).
//!
//! Layer: beside [`crate::game`], below every kind and below the search algorithms
//! (`tilesmith_search`); it names no kind.

/// A move, as the kind numbers it in the current state: an index into the list
/// [`SearchGame::moves`] gives (board, card games), or a fixed code (baba: 0 wait, 1–4 the
/// directions; boulder: its nine words in the order of its input table). Only meaningful in
/// the state where it was listed.
pub type Move = u32;

/// A state key: equal states give equal keys (see the module's documentation for how
/// different states are kept apart).
pub type StateKey = u128;

/// How a state stands, as the search sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchStatus {
    /// The game goes on: [`SearchGame::moves`] lists the moves to try.
    Running,
    /// Won by player `winner` (an index into the kind's players; 0 in a one-player game,
    /// where this is a solution).
    Won(usize),
    /// Lost, in a one-player game (the figure was destroyed, the time ran out). In a game of
    /// several players a loss is another player's [`SearchStatus::Won`].
    Lost,
    /// Over without a winner.
    Draw,
}

impl SearchStatus {
    /// True unless [`SearchStatus::Running`].
    pub fn is_over(self) -> bool {
        self != SearchStatus::Running
    }
}

/// Why a search could not go on: the kind could not compute a state (a board move block
/// that runs away, a turn over its operation budget), in the kind's words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct SearchError {
    /// What failed, in a sentence (`move generation failed: 12:5: …`).
    pub message: String,
}

impl SearchError {
    /// An error saying `message`.
    pub fn new(message: impl Into<String>) -> SearchError {
        SearchError {
            message: message.into(),
        }
    }
}

/// A position prepared for search: what a kind provides so that the algorithms of
/// `tilesmith_search` (breadth-first search, alpha-beta, Monte Carlo) can run on it without
/// knowing the kind. Made by [`crate::game::Game::searcher`] from the current position of a
/// game.
///
/// The contract:
/// - [`SearchGame::moves`] lists the moves to try in the current state, in a fixed order
///   (the order of [`crate::game::Game::legal_inputs`] for a kind with a list of legal
///   inputs, so that move `n` is `Input::Choice(n)`); [`SearchGame::play`] plays one of
///   them and [`SearchGame::undo`] takes back the last one played, exactly (same key, same
///   moves). Playing the same moves from the same state always gives the same state: the
///   search replays paths.
/// - [`SearchGame::status`] says whether the game is over in the current state (and who
///   won); moves are listed and played only while it is [`SearchStatus::Running`].
/// - [`SearchGame::key`] identifies the state (see [`StateKey`]).
/// - The optional parts have defaults that mean "not offered".
///
/// A card game with choice lists fits as it is: each decision (run or skip, a target, a
/// parameter) is one move from a list, and the player to move is whoever decides next.
pub trait SearchGame: Send {
    /// The number of players: 1 for a puzzle.
    fn players(&self) -> usize;
    /// The player who moves in the current state, an index below [`SearchGame::players`]
    /// (0 in a one-player game). Meaningful while the game is running.
    fn to_move(&self) -> usize;
    /// How the current state stands.
    ///
    /// # Errors
    /// When the kind cannot work it out (a board's move generation failed).
    fn status(&mut self) -> Result<SearchStatus, SearchError>;
    /// Appends the moves to try in the current state to `out` (which the caller cleared),
    /// in the kind's fixed order. Nothing when the game is over. Baba: wait and the four
    /// directions (never undo or restart); boulder: its nine input words; board: the legal
    /// whole turns.
    ///
    /// # Errors
    /// As [`SearchGame::status`].
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), SearchError>;
    /// Plays `mv`, one of the moves [`SearchGame::moves`] lists in the current state,
    /// remembering it for [`SearchGame::undo`]. Builds no change report.
    ///
    /// # Errors
    /// When the kind cannot compute the step (a turn over its operation budget); the state
    /// is then as before.
    fn play(&mut self, mv: Move) -> Result<(), SearchError>;
    /// Plays `mv` for good: [`SearchGame::undo`] will not go back past it. For playouts,
    /// which never take a move back, so that a kind can skip what undo would need (board:
    /// the position before). The default is [`SearchGame::play`].
    ///
    /// # Errors
    /// As [`SearchGame::play`].
    fn advance(&mut self, mv: Move) -> Result<(), SearchError> {
        self.play(mv)
    }
    /// Plays a uniformly random move of the current state (running) for good, as
    /// [`SearchGame::advance`] does; false when there is none (nothing is played). Every
    /// move [`SearchGame::moves`] lists (or [`SearchGame::move_count`] numbers) is equally
    /// likely. For random playouts: a kind may draw the move without building what the
    /// others would need (board: the position after each legal turn). The default draws with
    /// [`random_move`], so the same generator state draws the same move as a draw from the
    /// list.
    ///
    /// # Errors
    /// As [`SearchGame::play`].
    fn advance_random(
        &mut self,
        rng: &mut rand_chacha::ChaCha8Rng,
        buf: &mut Vec<Move>,
    ) -> Result<bool, SearchError> {
        let Some(mv) = random_move(self, buf, rng)? else {
            return Ok(false);
        };
        self.advance(mv)?;
        Ok(true)
    }
    /// Takes back the last move played with [`SearchGame::play`]; false when none is left
    /// (at the state the searcher was made or forked in).
    fn undo(&mut self) -> bool;
    /// A copy of the current state whose path starts here: [`SearchGame::undo`] on it goes
    /// back no further, and a kind with path-dependent outcomes judges them on the copy from
    /// here (Monte Carlo playouts and tree nodes use this).
    fn fork(&self) -> Box<dyn SearchGame>;
    /// The state's key: equal states, equal keys ([`StateKey`]).
    fn key(&self) -> StateKey;
    /// The key the one-player searches (breadth-first, A*, IDA*) keep in their visited sets
    /// and transposition tables. A kind may leave out of it a count that only grows by one
    /// with each move and is read only as a limit or by a score that fewer moves never
    /// worsen, so that a state reached in more moves is never better than the same state
    /// reached in fewer (boulder's `ticks` global when no rule names it: the time limit and
    /// the points). Those searches reach a state first by its fewest moves (breadth-first)
    /// or keep the fewest found and reopen it on a shorter path (A*, IDA*), so they prune
    /// the later state: a dominance pruning, which keeps their solutions shortest and an
    /// "unsolvable" sure. The exhaustive count of a state space uses [`SearchGame::key`].
    /// Two states with equal visited keys reached in equal numbers of moves must be equal
    /// states. Default: [`SearchGame::key`].
    fn visited_key(&self) -> StateKey {
        self.key()
    }
    /// The word of `mv` in the current state (before it is played), as `tilesmith run`
    /// reads it: for printing solutions and principal variations only.
    fn word(&self, mv: Move) -> String;
    /// About how many bytes a [`SearchGame::fork`] of this state holds, for memory budgets.
    fn bytes(&self) -> usize;

    /// The states after each move of [`SearchGame::moves`], in that order, appended to
    /// `out`, each a [`SearchGame::fork`] of its own. The default forks and plays each move;
    /// a kind whose move generation builds the next states anyway (board) gives them without
    /// generating again.
    ///
    /// # Errors
    /// As [`SearchGame::moves`] and [`SearchGame::play`].
    fn children(&mut self, out: &mut Vec<Box<dyn SearchGame>>) -> Result<(), SearchError> {
        let mut moves = Vec::new();
        self.moves(&mut moves)?;
        for mv in moves {
            let mut c = self.fork();
            c.play(mv)?;
            out.push(c);
        }
        Ok(())
    }
    /// For a kind whose status can depend on the path (a draw by repetition): the number of
    /// the earliest state of the current path that the status of the current state depended
    /// on, counted in moves played since the searcher was made or forked (0: that state, or
    /// a state before it). `None` (the default) when the status depends on the state alone.
    fn history_dependence(&self) -> Option<usize> {
        None
    }
    /// True when no win can be reached from the current state any more (a dead end): the
    /// search does not expand it. Only a sure answer may be true. Default: false (not known).
    fn is_dead(&mut self) -> bool {
        false
    }
    /// An admissible estimate: a number of moves that is never more than the fewest moves
    /// to a win from here (for A* and IDA*). `None` (the default) when the kind offers none.
    fn estimate(&mut self) -> Option<u32> {
        None
    }
    /// The score for `player` of the state a flat Monte Carlo playout stopped in (the game
    /// over, or cut off at the playout's ply cap), 0 (worst) to 1 (best); only compared
    /// between the mean scores of one player's moves, so any increasing affine map of a
    /// kind's own score gives the same choices. `None` (the default): the game's outcome,
    /// won 1, lost 0, a draw or a cut-off 1/2. Pasta Logic gives the prototype's leaf score
    /// (`docs/pasta-semantics.md`, "The computer players").
    fn leaf_score(&mut self, player: usize) -> Option<f64> {
        let _ = player;
        None
    }
    /// The number of moves when they are exactly `0..n` (move `i` is entry `i` of
    /// [`SearchGame::moves`]), counted without listing them; `None` (the default) when the
    /// kind does not number its moves so. A kind whose decisions can have very many choices
    /// (Pasta Logic's MoveFlag and Reorder: hundreds of thousands) gives it, and the
    /// searches then draw moves without listing them all: random playouts draw a number
    /// below `n`, and the Monte Carlo tree search adds a node's children lazily
    /// (`tilesmith_search::mcts`, progressive widening).
    ///
    /// # Errors
    /// As [`SearchGame::moves`].
    fn move_count(&mut self) -> Result<Option<u64>, SearchError> {
        Ok(None)
    }
    /// The words of `mv` when one move stands for several inputs (macro moves: a falling
    /// kind's placement of a piece, found by a search over its frame inputs, expanded back
    /// into the frame words); a solution then counts moves and prints these words. The
    /// default is the one word of [`SearchGame::word`].
    fn words(&self, mv: Move) -> Vec<String> {
        vec![self.word(mv)]
    }
}

/// A uniformly random move of `g` (running), drawn without listing the moves when the kind
/// numbers them ([`SearchGame::move_count`]: one index with [`crate::random::uniform`]),
/// else from the list put in `buf`; `None` when there is none.
///
/// # Errors
/// A [`SearchError`] from the kind.
pub fn random_move<G: SearchGame + ?Sized>(
    g: &mut G,
    buf: &mut Vec<Move>,
    rng: &mut rand_chacha::ChaCha8Rng,
) -> Result<Option<Move>, SearchError> {
    if let Some(n) = g.move_count()? {
        let n = n.min(u64::from(Move::MAX)) as usize;
        return Ok((n > 0).then(|| crate::random::uniform(rng, n) as Move));
    }
    buf.clear();
    g.moves(buf)?;
    Ok((!buf.is_empty()).then(|| buf[crate::random::uniform(rng, buf.len())]))
}
