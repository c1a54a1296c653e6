//! The input words of Pasta Logic (issue #28, "Input words"): `@Card` to place a flag,
//! `skip`, `do`, and `do:ARGS` with each card's arguments. Words are read in any spelling
//! that gives the same choices (names ignoring ASCII case, AddFlag's cards in any order,
//! MoveFlag's parts with different destinations in any order) and written in one canonical
//! spelling.

use super::card::Card;
use super::choice::{Arrange, Choice, Moves, NO_PIN};
use super::state::{State, Track};

impl State {
    fn name(&self, i: u8) -> &'static str {
        self.slots[i as usize].card.name()
    }

    /// The canonical word of `c` at the current decision.
    pub fn word(&self, c: Choice) -> String {
        match c {
            Choice::Place(i) => format!("@{}", self.name(i)),
            Choice::Skip => "skip".into(),
            Choice::Do => "do".into(),
            Choice::Cards(mask) => {
                let names: Vec<&str> = (0..self.n)
                    .filter(|i| mask & (1 << i) != 0)
                    .map(|i| self.name(i))
                    .collect();
                format!("do:{}", names.join("+"))
            }
            Choice::Target(t) => format!("do:{}", self.name(t)),
            Choice::Param(t, k) => format!("do:{}#{}", self.name(t), k + 1),
            Choice::Remove(t, mask) => {
                let parts: Vec<String> = (0..32u8)
                    .filter(|i| mask & (1 << i) != 0)
                    .map(|i| format!("{}.{}", self.name(t), i + 1))
                    .collect();
                format!("do:{}", parts.join("+"))
            }
            Choice::Move(m) => {
                let parts: Vec<String> = m.parts[..m.n as usize]
                    .iter()
                    .map(|&(s, pl, d)| format!("{}.{}>{}", self.name(s), pl + 1, self.name(d)))
                    .collect();
                format!("do:{}", parts.join("+"))
            }
            Choice::Reorder(a) => {
                let parts: Vec<String> = a.cards[..a.n as usize]
                    .iter()
                    .map(|&(c, bits, pin)| {
                        let places: Vec<String> = self
                            .old_places(c, bits, pin)
                            .iter()
                            .map(|p| (p + 1).to_string())
                            .collect();
                        format!("{}={}", self.name(c), places.join(","))
                    })
                    .collect();
                format!("do:{}", parts.join("+"))
            }
        }
    }

    /// The old places, in their new order, of the canonical permutation giving `bits` on
    /// card `c` with the followed flag at `pin`: the followed flag goes to `pin`, the other
    /// flags of each colour keep their order.
    fn old_places(&self, c: u8, bits: u32, pin: u8) -> Vec<u8> {
        let q = self.slots[c as usize].q;
        let pinned = self.pinned(c).filter(|_| pin != NO_PIN);
        let mut reds = (0..q.len).filter(|&i| q.get(i) == 0 && Some(i) != pinned);
        let mut blues = (0..q.len).filter(|&i| q.get(i) == 1 && Some(i) != pinned);
        (0..q.len)
            .map(|newp| match pinned {
                Some(t) if newp == pin => t,
                _ if (bits >> newp) & 1 == 1 => blues.next().unwrap_or(0),
                _ => reds.next().unwrap_or(0),
            })
            .collect()
    }

    /// The card of the line called `name` (ignoring ASCII case).
    fn card_at(&self, name: &str) -> Option<u8> {
        self.index_of(Card::from_name(name)?)
    }

    /// Reads `word` as a choice at the current decision (not yet checked for legality);
    /// `None` when it does not parse.
    pub fn parse_word(&self, word: &str) -> Option<Choice> {
        if let Some(name) = word.strip_prefix('@') {
            return Some(Choice::Place(self.card_at(name)?));
        }
        if word.eq_ignore_ascii_case("skip") {
            return Some(Choice::Skip);
        }
        if word.eq_ignore_ascii_case("do") {
            return Some(Choice::Do);
        }
        let (head, args) = word.split_at_checked(3)?;
        if !head.eq_ignore_ascii_case("do:") || args.is_empty() {
            return None;
        }
        let card = self.slots.get(self.at as usize)?.card;
        match card {
            Card::AddFlag | Card::FastPass => {
                let mut mask = 0u16;
                for name in args.split('+') {
                    let i = self.card_at(name)?;
                    if mask & (1 << i) != 0 {
                        return None;
                    }
                    mask |= 1 << i;
                }
                Some(Choice::Cards(mask))
            }
            Card::RemoveCommand | Card::SwapCommand | Card::Subroutine => {
                Some(Choice::Target(self.card_at(args)?))
            }
            Card::Increment | Card::Decrement => {
                let (name, k) = args.split_once('#')?;
                let k: u8 = k.parse().ok()?;
                Some(Choice::Param(self.card_at(name)?, k.checked_sub(1)?))
            }
            Card::RemoveFlag => self.parse_remove(args),
            Card::MoveFlag => self.parse_moves(args),
            Card::Reorder => self.parse_reorder(args),
            _ => None,
        }
    }

    /// `Card.i` → (card, place 0-based).
    fn parse_place(&self, s: &str) -> Option<(u8, u8)> {
        let (name, i) = s.rsplit_once('.')?;
        let i: u8 = i.parse().ok()?;
        Some((self.card_at(name)?, i.checked_sub(1)?))
    }

    fn parse_remove(&self, args: &str) -> Option<Choice> {
        let mut card = None;
        let mut mask = 0u32;
        for part in args.split('+') {
            let (c, i) = self.parse_place(part)?;
            if card.is_some_and(|k| k != c) || i >= 32 || mask & (1 << i) != 0 {
                return None;
            }
            card = Some(c);
            mask |= 1 << i;
        }
        Some(Choice::Remove(card?, mask))
    }

    fn parse_moves(&self, args: &str) -> Option<Choice> {
        let mut parts: Vec<(u8, u8, u8)> = Vec::new();
        for part in args.split('+') {
            let (from, to) = part.split_once('>')?;
            let (s, i) = self.parse_place(from)?;
            let d = self.card_at(to)?;
            if parts.len() == 3 || parts.iter().any(|&(s2, i2, _)| (s2, i2) == (s, i)) {
                return None;
            }
            parts.push((s, i, d));
        }
        // Canonical order: destinations in line order, the written order kept within one.
        parts.sort_by_key(|p| p.2);
        let mut m = Moves {
            n: parts.len() as u8,
            ..Moves::default()
        };
        m.parts[..parts.len()].copy_from_slice(&parts);
        Some(Choice::Move(m))
    }

    fn parse_reorder(&self, args: &str) -> Option<Choice> {
        let mut cards: Vec<(u8, u32, u8)> = Vec::new();
        for part in args.split('+') {
            let (name, list) = part.split_once('=')?;
            let c = self.card_at(name)?;
            let q = self.slots[c as usize].q;
            let perm: Vec<u8> = if list.is_empty() {
                Vec::new()
            } else {
                list.split(',')
                    .map(|x| x.parse::<u8>().ok()?.checked_sub(1))
                    .collect::<Option<_>>()?
            };
            let mut seen = 0u32;
            for &old in &perm {
                if old >= q.len || seen & (1 << old) != 0 {
                    return None;
                }
                seen |= 1 << old;
            }
            if perm.len() != q.len as usize || cards.len() == 3 || cards.iter().any(|e| e.0 == c) {
                return None;
            }
            let mut bits = 0u32;
            for (newp, &old) in perm.iter().enumerate() {
                bits |= (q.get(old) as u32) << newp;
            }
            let pin = self
                .pinned(c)
                .and_then(|t| perm.iter().position(|&o| o == t))
                .map_or(NO_PIN, |p| p as u8);
            cards.push((c, bits, pin));
        }
        cards.sort_by_key(|e| e.0);
        let mut a = Arrange {
            n: cards.len() as u8,
            ..Arrange::default()
        };
        a.cards[..cards.len()].copy_from_slice(&cards);
        Some(Choice::Reorder(a))
    }

    /// The pattern of the words of the current decision, for messages: `@Card`, or `skip`
    /// and the card's `do` form.
    pub fn word_pattern(&self) -> String {
        if self.placing() {
            return "@Card (a card without your flag)".into();
        }
        if !matches!(self.track, Track::Active(_)) || self.gap {
            return String::new();
        }
        let card = self.slots[self.at as usize].card;
        let form = match card {
            Card::AddFlag | Card::FastPass => "do:Card+Card… (distinct other cards)",
            Card::MoveFlag => "do:Card.i>Dest+… (flag places as found, 1 = head)",
            Card::RemoveFlag => "do:Card.i+Card.j… (one other card)",
            Card::Reorder => "do:Card=3,1,2+Card=… (old places in their new order)",
            Card::RemoveCommand | Card::SwapCommand | Card::Subroutine => "do:Card",
            Card::Increment | Card::Decrement => "do:Card#n (a parameter of another card)",
            _ => "do",
        };
        format!("skip or {form} for {}", card.name())
    }
}
