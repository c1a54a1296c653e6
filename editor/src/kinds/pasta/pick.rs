//! A command's choices made by clicking on the line (issue #28, "Play pane"): after Run, the
//! clicks on cards, flags and parameters build the engine's input word for the command under
//! the cursor (`docs/pasta-level-format.md`, "Input words"), which the game then reads as
//! any typed word (`Game::read_input`: a word that is not legal there is refused).
//!
//! What each command asks for: AddFlag and FastPass `n` distinct cards (`do:A+B`);
//! RemoveCommand, SwapCommand and Subroutine one card (`do:A`); Increment and Decrement a
//! parameter (`do:A#1`); RemoveFlag the flags of one card (`do:A.1+A.3`), as many as its
//! parameter and the card's queue allow; MoveFlag `n` times a flag, then its destination
//! card (`do:A.2>B+C.1>A`); Reorder `n` cards, each with its flags clicked in their new
//! order, head first, or with its flags dragged to their new places in the queue, drawn in
//! the order so far, and Done pressed (`do:A=3,1,2+B=`). `n` is the number of parts of the legal words,
//! which all name as many (A15: as many as possible up to the parameter).

use tilesmith_engine::kind::pasta::{Card, State};

/// What the command under the cursor asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    /// This many distinct cards (AddFlag, FastPass).
    Cards(usize),
    /// One card (RemoveCommand, SwapCommand, Subroutine).
    Target,
    /// A parameter of a card (Increment, Decrement).
    Param,
    /// Flags of one card, `min(parameter, its flags)` of them (RemoveFlag).
    RemoveFlags,
    /// This many flags, each with a destination card (MoveFlag).
    Moves(usize),
    /// This many cards, each given a new order (Reorder).
    Reorder(usize),
}

/// The choices clicked so far for one decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pick {
    /// What the command asks for.
    pub need: Need,
    /// Cards chosen (AddFlag, FastPass; RemoveFlag's card).
    pub cards: Vec<usize>,
    /// Flags chosen as (card, place 0-based): RemoveFlag's; MoveFlag's flag awaiting its
    /// destination.
    pub flags: Vec<(usize, usize)>,
    /// MoveFlag's parts: (card, place 0-based as found, destination card).
    pub moves: Vec<(usize, usize, usize)>,
    /// Reorder's cards with the old places in their new order (the last may be unfinished).
    pub order: Vec<(usize, Vec<usize>)>,
}

/// What the command on `card` asks for, given `parts`, the number of parts of its legal
/// `do:` words (`None` when it has none: then it takes `do` alone, or `skip`).
pub fn need_of(card: Card, parts: Option<usize>) -> Option<Need> {
    let n = parts?;
    Some(match card {
        Card::AddFlag | Card::FastPass => Need::Cards(n),
        Card::RemoveCommand | Card::SwapCommand | Card::Subroutine => Need::Target,
        Card::Increment | Card::Decrement => Need::Param,
        Card::RemoveFlag => Need::RemoveFlags,
        Card::MoveFlag => Need::Moves(n),
        Card::Reorder => Need::Reorder(n),
        _ => return None,
    })
}

/// The number of `+`-joined parts of the first `do:` word of `words`.
pub fn parts_of(words: &[String]) -> Option<usize> {
    words
        .iter()
        .find_map(|w| w.strip_prefix("do:"))
        .map(|a| a.split('+').count())
}

impl Pick {
    /// A pick with nothing chosen yet.
    pub fn new(need: Need) -> Self {
        Self {
            need,
            cards: Vec::new(),
            flags: Vec::new(),
            moves: Vec::new(),
            order: Vec::new(),
        }
    }

    /// A click on card `c` (its body); the word when the choice is complete.
    pub fn click_card(&mut self, s: &State, c: usize) -> Option<String> {
        let name = |i: usize| s.cards().get(i).map(|x| x.card.name());
        let len = |i: usize| s.cards().get(i).map_or(0, |x| x.q.len as usize);
        match self.need {
            Need::Cards(n) => {
                toggle(&mut self.cards, c);
                (self.cards.len() == n).then(|| {
                    let v: Vec<&str> = self.cards.iter().filter_map(|&i| name(i)).collect();
                    format!("do:{}", v.join("+"))
                })
            }
            Need::Target => name(c).map(|n| format!("do:{n}")),
            Need::Param => {
                let card = s.cards().get(c)?.card;
                (card.params().len() == 1).then(|| format!("do:{}#1", card.name()))
            }
            Need::RemoveFlags => {
                let want = self.remove_count(s, c);
                if want == len(c) && want > 0 {
                    self.cards = vec![c];
                    self.flags = (0..want).map(|i| (c, i)).collect();
                    return self.remove_word(s);
                }
                self.cards = vec![c];
                self.flags.clear();
                None
            }
            Need::Moves(_) => {
                let &(from, place) = self.flags.first()?;
                self.flags.clear();
                self.moves.push((from, place, c));
                self.moves_word(s)
            }
            Need::Reorder(_) => {
                if !self.order.iter().any(|o| o.0 == c) && self.current_done(s) {
                    self.order.push((c, Vec::new()));
                }
                self.reorder_word(s)
            }
        }
    }

    /// A click on flag `i` (0 = head) of card `c`.
    pub fn click_flag(&mut self, s: &State, c: usize, i: usize) -> Option<String> {
        match self.need {
            Need::RemoveFlags => {
                if self.cards.first() != Some(&c) {
                    self.cards = vec![c];
                    self.flags.clear();
                }
                toggle(&mut self.flags, (c, i));
                (self.flags.len() == self.remove_count(s, c))
                    .then(|| self.remove_word(s))
                    .flatten()
            }
            Need::Moves(_) => {
                if !self.moves.iter().any(|m| (m.0, m.1) == (c, i)) {
                    self.flags = vec![(c, i)];
                }
                None
            }
            Need::Reorder(_) => {
                if !self.order.iter().any(|o| o.0 == c) && self.current_done(s) {
                    self.order.push((c, Vec::new()));
                }
                if let Some(o) = self.order.last_mut()
                    && o.0 == c
                    && !o.1.contains(&i)
                {
                    o.1.push(i);
                }
                self.reorder_word(s)
            }
            _ => self.click_card(s, c),
        }
    }

    /// Reorder: the flag drawn at place `from` of card `c` dragged onto the place drawn `to`
    /// (0 = head; a card whose new order is complete is drawn in that order, see
    /// [`Pick::drawn_order`]). The card's order becomes its flags as drawn with that one moved
    /// there, and the card is chosen if it was not. A drag never ends the choice: several drags
    /// make any order, and [`Pick::done`] (the Done button) plays it. A card begun by clicks but
    /// not finished is taken over; another card waits for it, as with clicks.
    pub fn drag_flag(&mut self, s: &State, c: usize, from: usize, to: usize) {
        let Need::Reorder(_) = self.need else {
            return;
        };
        let len = s.cards().get(c).map_or(0, |x| x.q.len as usize);
        if from >= len || to >= len || from == to {
            return;
        }
        let at = match self.order.iter().position(|o| o.0 == c) {
            Some(at) => at,
            None if self.current_done(s) => {
                self.order.push((c, Vec::new()));
                self.order.len() - 1
            }
            None => return,
        };
        let o = &mut self.order[at].1;
        if o.len() < len {
            *o = (0..len).collect();
        }
        let f = o.remove(from);
        o.insert(to, f);
    }

    /// Reorder: card `c`'s old places in the order its flags are drawn, when its new order is
    /// complete (drawn place `k` shows the flag that was at `o[k]`); `None` otherwise (drawn
    /// as the queue stands).
    pub fn drawn_order(&self, s: &State, c: usize) -> Option<&[usize]> {
        let Need::Reorder(_) = self.need else {
            return None;
        };
        let len = s.cards().get(c)?.q.len as usize;
        let (_, o) = self.order.iter().find(|o| o.0 == c)?;
        (o.len() == len && len > 0).then_some(o.as_slice())
    }

    /// Reorder: the word when every card has its new order (the Done button); `None` before,
    /// and for every other command (their choices end with their last click).
    pub fn done(&self, s: &State) -> Option<String> {
        self.reorder_word(s)
    }

    /// A click on parameter `k` (0-based) of card `c`.
    pub fn click_param(&mut self, s: &State, c: usize, k: usize) -> Option<String> {
        match self.need {
            Need::Param => {
                let card = s.cards().get(c)?.card;
                (k < card.params().len()).then(|| format!("do:{}#{}", card.name(), k + 1))
            }
            _ => self.click_card(s, c),
        }
    }

    /// RemoveFlag's count on card `c`: its parameter in effect, at most the card's flags.
    fn remove_count(&self, s: &State, c: usize) -> usize {
        let k = s
            .cards()
            .get(s.at as usize)
            .map_or(0, |x| x.param(0).max(0) as usize);
        k.min(s.cards().get(c).map_or(0, |x| x.q.len as usize))
    }

    fn remove_word(&self, s: &State) -> Option<String> {
        let name = s.cards().get(*self.cards.first()?)?.card.name();
        let mut places: Vec<usize> = self.flags.iter().map(|f| f.1 + 1).collect();
        places.sort_unstable();
        let parts: Vec<String> = places.iter().map(|p| format!("{name}.{p}")).collect();
        Some(format!("do:{}", parts.join("+")))
    }

    fn moves_word(&self, s: &State) -> Option<String> {
        let Need::Moves(n) = self.need else {
            return None;
        };
        if self.moves.len() < n {
            return None;
        }
        let name = |i: usize| s.cards().get(i).map_or("?", |x| x.card.name());
        let parts: Vec<String> = self
            .moves
            .iter()
            .map(|&(c, i, d)| format!("{}.{}>{}", name(c), i + 1, name(d)))
            .collect();
        Some(format!("do:{}", parts.join("+")))
    }

    /// True when the last card of Reorder has all its flags ordered (or none is begun).
    fn current_done(&self, s: &State) -> bool {
        self.order
            .last()
            .is_none_or(|(c, o)| o.len() >= s.cards().get(*c).map_or(0, |x| x.q.len as usize))
    }

    fn reorder_word(&self, s: &State) -> Option<String> {
        let Need::Reorder(n) = self.need else {
            return None;
        };
        if self.order.len() < n || !self.current_done(s) {
            return None;
        }
        let parts: Vec<String> = self
            .order
            .iter()
            .map(|(c, o)| {
                let name = s.cards().get(*c).map_or("?", |x| x.card.name());
                let places: Vec<String> = o.iter().map(|p| (p + 1).to_string()).collect();
                format!("{name}={}", places.join(","))
            })
            .collect();
        Some(format!("do:{}", parts.join("+")))
    }

    /// What to click next, in a sentence.
    pub fn prompt(&self, s: &State) -> String {
        match self.need {
            Need::Cards(n) => format!("click {n} card(s) ({} chosen)", self.cards.len()),
            Need::Target => "click the target card".into(),
            Need::Param => "click a parameter of another card".into(),
            Need::RemoveFlags => match self.cards.first() {
                Some(&c) => format!(
                    "click {} flag(s) of this card ({} chosen)",
                    self.remove_count(s, c),
                    self.flags.len()
                ),
                None => "click the card to remove flags from, or its flags".into(),
            },
            Need::Moves(n) if self.flags.is_empty() => {
                format!("click a flag to move ({} of {n} moved)", self.moves.len())
            }
            Need::Moves(_) => "click the card it goes to (at its tail)".into(),
            Need::Reorder(n) => format!(
                "click a card, then its flags in their new order, head first; or drag its flags \
                 to their new places and press Done ({} of {n} cards)",
                self.order.len()
            ),
        }
    }
}

fn toggle<T: PartialEq>(v: &mut Vec<T>, x: T) {
    match v.iter().position(|y| *y == x) {
        Some(i) => {
            v.remove(i);
        }
        None => v.push(x),
    }
}
