//! Baba's [`SearchGame`] (issue #29): a copy of the game stepped with its own turn and undo
//! (the journal's backward diff per turn), without change reports.
//!
//! Moves: 0 wait (`.`), 1 `L`, 2 `R`, 3 `U`, 4 `D`, in the order of the kind's input table;
//! never undo or restart. A lost state (nothing is YOU) still takes turns (MOVE objects may
//! rebuild a YOU rule), so it is not over; it is dead ([`SearchGame::is_dead`]) when no YOU
//! text and no letter is left on the map and no rule is given outside it, as then no YOU
//! rule can form again. The key hashes every object (ID, kind, cell, facing), the ALL set,
//! the status and the level's facing, and the turn counter when TELE could ever apply (a
//! TELE text or a letter on the map, or rules given outside it), since TELE's random
//! destinations depend on it. Object IDs are in the key: they order what happens at once.

use std::hash::{Hash as _, Hasher as _};

use super::super::word::{Kind, Prop, Word};
use super::BabaGame;
use tilesmith_core::game::{Game, Status};
use tilesmith_core::grid::Dir;
use tilesmith_core::hash::KeyHasher;
use tilesmith_core::search_game::{Move, SearchError, SearchGame, SearchStatus, StateKey};

/// The moves, in order: the direction (none: wait) and the word.
const MOVES: [(Option<Dir>, &str); 5] = [
    (None, "."),
    (Some(Dir::Left), "L"),
    (Some(Dir::Right), "R"),
    (Some(Dir::Up), "U"),
    (Some(Dir::Down), "D"),
];

/// A baba position ready for search; see the module documentation.
#[derive(Clone)]
pub struct BabaSearch {
    game: BabaGame,
    /// TELE could apply: the turn counter is part of the key.
    tele: bool,
}

impl BabaSearch {
    /// A searcher at the current state of `g`, with an empty path (its own undo history,
    /// unbounded).
    pub fn new(g: &BabaGame) -> BabaSearch {
        let mut game = g.clone();
        game.history.clear();
        game.cancel = None;
        game.error = None;
        Game::set_history_budget(&mut game, usize::MAX);
        let tele = !game.extra.is_empty()
            || game.st.objs.values().any(|o| {
                matches!(
                    o.kind,
                    Kind::Text(Word::Prop(Prop::Tele)) | Kind::Text(Word::Letter(_))
                )
            });
        BabaSearch { game, tele }
    }

    /// The game at the current state.
    pub fn game(&self) -> &BabaGame {
        &self.game
    }
}

impl SearchGame for BabaSearch {
    fn players(&self) -> usize {
        1
    }

    fn to_move(&self) -> usize {
        0
    }

    fn status(&mut self) -> Result<SearchStatus, SearchError> {
        Ok(match self.game.st.status {
            Status::Won { .. } => SearchStatus::Won(0),
            _ => SearchStatus::Running,
        })
    }

    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), SearchError> {
        if !matches!(self.game.st.status, Status::Won { .. }) {
            out.extend(0..MOVES.len() as Move);
        }
        Ok(())
    }

    fn play(&mut self, mv: Move) -> Result<(), SearchError> {
        let Some(&(dir, _)) = MOVES.get(mv as usize) else {
            return Err(SearchError::new(format!("baba has no move {mv}")));
        };
        self.game.record_turn(dir, false);
        match self.game.error.take() {
            Some(e) => Err(SearchError::new(e)),
            None => Ok(()),
        }
    }

    fn undo(&mut self) -> bool {
        Game::undo(&mut self.game)
    }

    fn fork(&self) -> Box<dyn SearchGame> {
        let mut c = self.clone();
        c.game.history.clear();
        Box::new(c)
    }

    fn key(&self) -> StateKey {
        let st = &self.game.st;
        let mut h = KeyHasher::new();
        for (&id, o) in &st.objs {
            h.write_u64(id);
            o.kind.hash(&mut h);
            h.write_u64(u64::from(o.x) | (u64::from(o.y) << 24) | (u64::from(o.dir.value()) << 48));
        }
        st.seen.hash(&mut h);
        h.write_u8(u8::from(matches!(st.status, Status::Won { .. })));
        h.write_u32(st.level_dir.value());
        if self.tele {
            h.write_u64(st.turn);
        }
        h.finish128()
    }

    fn word(&self, mv: Move) -> String {
        MOVES.get(mv as usize).map_or("?", |m| m.1).to_string()
    }

    fn bytes(&self) -> usize {
        std::mem::size_of::<BabaGame>() + self.game.st.objs.len() * 96
    }

    fn is_dead(&mut self) -> bool {
        matches!(self.game.st.status, Status::Lost { .. })
            && self.game.extra.is_empty()
            && !self.game.st.objs.values().any(|o| {
                matches!(
                    o.kind,
                    Kind::Text(Word::Prop(Prop::You)) | Kind::Text(Word::Letter(_))
                )
            })
    }
}
