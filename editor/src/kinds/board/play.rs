//! Board play around the generic [`PlaySession`]: hot-seat turns chosen by clicking, matched
//! against the key primitive of each legal turn (spec K1, K2: a movement's origin and
//! destination, or a drop's square).
//!
//! The first click selects a piece that has a turn (or drops on a square where a drop is
//! legal); the next click on one of its targets plays the turn whose first part has that key.
//! A jump chain (a turn of several partial moves) goes on click by click: after each part
//! only the turns that begin with the parts clicked so far stay, and the next part starts
//! where the piece stands (the same piece continues, spec P2). When several turns share the
//! keys clicked (a promotion choice, moves identical but for later primitives: spec M4), the
//! pane lists their notations to choose from; when a chain may stop where it is (`pass
//! partial`), the pane offers to end the turn there.

use std::sync::Arc;

use serde_json::Value;
use tilesmith_engine::kind::board::play::{Move, Piece, Primitive, TurnMove, execute};
use tilesmith_engine::kind::board::rules::PosId;
use tilesmith_engine::kind::board::{Board, BoardGame};
use tilesmith_engine::{Input, Problem};

use super::design::Compiled;
use crate::doc::play::PlaySession;

/// The key of a part of a turn as a click sees it: where the piece comes from (`None` for a
/// drop) and where it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key {
    /// The key movement's origin; `None` for a drop.
    pub from: Option<PosId>,
    /// The destination (or the drop's square).
    pub to: PosId,
}

/// The key of a move (spec K1: its first movement or drop).
pub fn key_of(mv: &Move) -> Option<Key> {
    match mv.key()? {
        Primitive::Move { from, to, .. } => Some(Key {
            from: Some(from),
            to,
        }),
        Primitive::Drop { at, .. } => Some(Key { from: None, to: at }),
        _ => None,
    }
}

/// The key of part `k` of `turn`.
fn part_key(turn: &TurnMove, k: usize) -> Option<Key> {
    turn.parts.get(k).and_then(key_of)
}

/// What a click did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Clicked {
    /// Nothing to do there (with why, for the status bar).
    Nothing(String),
    /// A piece is selected (or the selection was dropped).
    Selected,
    /// One part of a chain was taken; the turn goes on.
    Chain,
    /// This turn (an index into the legal turns) is to be played.
    Play(usize),
    /// Several turns match: the pane lists them.
    Choose,
}

/// The clicks of the turn being chosen.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pick {
    /// The keys of the parts clicked so far (a chain's parts, in order).
    pub keys: Vec<Key>,
    /// The selected piece: the origin of the next part's key.
    pub from: Option<PosId>,
    /// The turns (indices into the legal turns) to choose from after the last click.
    pub choose: Vec<usize>,
}

impl Pick {
    /// The turns that begin with the parts clicked so far.
    pub fn candidates(&self, turns: &[TurnMove]) -> Vec<usize> {
        (0..turns.len())
            .filter(|&i| {
                self.keys
                    .iter()
                    .enumerate()
                    .all(|(k, key)| part_key(&turns[i], k) == Some(*key))
            })
            .collect()
    }

    /// The keys of the next part among the candidates.
    fn next_keys(&self, turns: &[TurnMove]) -> Vec<(usize, Key)> {
        let k = self.keys.len();
        self.candidates(turns)
            .into_iter()
            .filter_map(|i| part_key(&turns[i], k).map(|key| (i, key)))
            .collect()
    }

    /// Where the selected piece may go next (sorted, once each).
    pub fn targets(&self, turns: &[TurnMove]) -> Vec<PosId> {
        let Some(from) = self.from else {
            return Vec::new();
        };
        let mut v: Vec<PosId> = self
            .next_keys(turns)
            .into_iter()
            .filter(|(_, key)| key.from == Some(from))
            .map(|(_, key)| key.to)
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// The pieces that can start the next part and the squares a drop can go to, when no
    /// piece is selected (sorted, once each).
    pub fn starts(&self, turns: &[TurnMove]) -> (Vec<PosId>, Vec<PosId>) {
        if self.from.is_some() {
            return (Vec::new(), Vec::new());
        }
        let (mut pieces, mut drops) = (Vec::new(), Vec::new());
        for (_, key) in self.next_keys(turns) {
            match key.from {
                Some(f) => pieces.push(f),
                None => drops.push(key.to),
            }
        }
        for v in [&mut pieces, &mut drops] {
            v.sort_unstable();
            v.dedup();
        }
        (pieces, drops)
    }

    /// The turns that end with the parts clicked so far (a chain that may stop here).
    pub fn complete(&self, turns: &[TurnMove]) -> Vec<usize> {
        if self.keys.is_empty() {
            return Vec::new();
        }
        self.candidates(turns)
            .into_iter()
            .filter(|&i| turns[i].parts.len() == self.keys.len())
            .collect()
    }

    /// A click on position `at`, given the legal turns.
    pub fn click(&mut self, turns: &[TurnMove], at: PosId, name: &str) -> Clicked {
        self.choose.clear();
        let next = self.next_keys(turns);
        let Some(from) = self.from else {
            if next.iter().any(|(_, k)| k.from == Some(at)) {
                self.from = Some(at);
                return Clicked::Selected;
            }
            let drops: Vec<usize> = next
                .iter()
                .filter(|(_, k)| *k == Key { from: None, to: at })
                .map(|(i, _)| *i)
                .collect();
            if drops.is_empty() {
                return Clicked::Nothing(format!("no move starts on {name}"));
            }
            return self.take(turns, Key { from: None, to: at }, drops);
        };
        let key = Key {
            from: Some(from),
            to: at,
        };
        let matched: Vec<usize> = next
            .iter()
            .filter(|(_, k)| *k == key)
            .map(|(i, _)| *i)
            .collect();
        if !matched.is_empty() {
            return self.take(turns, key, matched);
        }
        if !self.keys.is_empty() {
            return Clicked::Nothing(format!(
                "the chain goes on from where the piece stands, not {name}"
            ));
        }
        if at == from {
            self.from = None;
            return Clicked::Selected;
        }
        self.from = next.iter().any(|(_, k)| k.from == Some(at)).then_some(at);
        Clicked::Selected
    }

    /// Takes the part `key`, which the turns `matched` begin with next.
    fn take(&mut self, turns: &[TurnMove], key: Key, matched: Vec<usize>) -> Clicked {
        self.keys.push(key);
        let n = self.keys.len();
        let (done, longer): (Vec<usize>, Vec<usize>) = matched
            .into_iter()
            .partition(|&i| turns[i].parts.len() == n);
        match (done.as_slice(), longer.first()) {
            (&[one], None) => {
                *self = Pick::default();
                Clicked::Play(one)
            }
            (_, None) => {
                self.choose = done;
                Clicked::Choose
            }
            (_, Some(&first)) => {
                self.from = part_key(&turns[first], n).and_then(|k| k.from);
                Clicked::Chain
            }
        }
    }
}

/// A board play session: the generic session, the board as drawn, and the clicks of the turn
/// being chosen.
#[derive(Debug)]
pub struct BoardPlay {
    /// The generic session (game, inputs, replay words).
    pub session: PlaySession,
    /// The rules the game plays, with the layout they are drawn with.
    pub board: Arc<Compiled>,
    /// The clicks of the turn being chosen.
    pub pick: Pick,
    /// What the last click did not do, in a few words.
    pub note: Option<String>,
}

impl BoardPlay {
    /// A session playing the level document `design` from its position.
    ///
    /// # Errors
    /// The level's error-severity problems when it cannot be played.
    pub fn new(design: Value) -> Result<BoardPlay, Vec<Problem>> {
        let session = PlaySession::new(&Board, design, 0)?;
        let game = session
            .game
            .as_any()
            .downcast_ref::<BoardGame>()
            .ok_or_else(Vec::new)?;
        let board = Arc::new(Compiled::new(Arc::new(game.rules().clone())));
        Ok(BoardPlay {
            session,
            board,
            pick: Pick::default(),
            note: None,
        })
    }

    /// The running game.
    pub fn game(&self) -> &BoardGame {
        self.session
            .game
            .as_any()
            .downcast_ref::<BoardGame>()
            .expect("a board session runs a BoardGame")
    }

    /// The legal turns now, in the order of the game's inputs (turn `n` is
    /// [`Input::Choice`]`(n)`).
    pub fn turns(&self) -> &[TurnMove] {
        self.game().legal_turns()
    }

    /// Plays `input` (a turn, or undo and restart), dropping the clicks so far.
    pub fn step(&mut self, input: Input) {
        self.forget();
        self.session.step(input);
    }

    /// Drops the clicks of the turn being chosen.
    pub fn forget(&mut self) {
        self.pick = Pick::default();
        self.note = None;
        self.session.touch();
    }

    /// A click on position `at`: selects, goes on with a chain, or plays a turn.
    pub fn click(&mut self, at: PosId) {
        if self.session.game.status().is_over() {
            self.note = Some("the game is over (undo to go back)".into());
            return;
        }
        let name = self.board.pos_name(at).to_string();
        let mut pick = std::mem::take(&mut self.pick);
        let r = pick.click(self.turns(), at, &name);
        self.pick = pick;
        self.note = None;
        self.session.touch();
        match r {
            Clicked::Play(i) => self.step(Input::Choice(i as u32)),
            Clicked::Nothing(why) => self.note = Some(why),
            Clicked::Selected | Clicked::Chain | Clicked::Choose => {}
        }
    }

    /// The piece on each position as shown: the game's position, with the parts of the chain
    /// clicked so far executed (the piece stands where the chain has taken it, the pieces it
    /// jumped are gone).
    pub fn shown_cells(&self) -> Vec<Option<Piece>> {
        let g = self.game();
        let mut pos = g.position().clone();
        let turns = self.turns();
        if !self.pick.keys.is_empty()
            && let Some(&i) = self.pick.candidates(turns).first()
        {
            for mv in turns[i].parts.iter().take(self.pick.keys.len()) {
                execute(g.rules(), &mut pos, mv);
            }
        }
        pos.cells
    }

    /// The notation of each turn played (and undone but redoable), turn 1 first.
    pub fn played(&self) -> &[String] {
        &self.session.words
    }
}
