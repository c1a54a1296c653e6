//! The design of a Pasta Logic level (`docs/pasta-level-format.md`) as the editor holds it:
//! the program (a line of command cards, not a grid), each card's flag queue, hands,
//! reserves, lives, the first placer, the cursor and its direction, and the parameter chips.
//!
//! The design keeps what the file says and nothing more: a hand or reserve the file leaves
//! out stays out (its default follows the flags, spec §4 and A5), so Save writes back what
//! was read. Edits are pure functions from one design to the next ([`Design::with`]); each
//! drops a saved game's `resume` (the next decision it names would no longer be the
//! design's). The level's validity is the engine's `check`, never decided here.

use serde_json::{Map, Value, json};
use tilesmith_engine::kind::pasta::card::PLAYERS;
use tilesmith_engine::kind::pasta::state::{FLAGS_PER_PLAYER, MAX_CARDS};
use tilesmith_engine::kind::pasta::{Card, PastaLevel};
use tilesmith_engine::{Grid, Problem};

use crate::doc::map::MapLevel;
use crate::tools::MapCell;

/// The one cell of the placeholder map: a program is a line of cards, not a grid, so the
/// map the shell's history works on is a single empty cell.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoCell;

impl MapCell for NoCell {
    type Brush = NoCell;

    fn empty() -> Self {
        NoCell
    }

    fn painted(&self, _brush: &NoCell) -> Self {
        NoCell
    }

    fn same_area(&self, _other: &Self) -> bool {
        true
    }
}

/// A Pasta Logic level as edited. Players are `0` red and `1` blue ([`PLAYERS`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Design {
    /// The level's name.
    pub name: String,
    /// The program in line order; `None`: the spec §4 setup drawn from the game's seed.
    pub cards: Option<Vec<Card>>,
    /// Each card's flag queue, head first (as long as `cards`).
    pub flags: Vec<Vec<u8>>,
    /// True when the file has a `flags` member (it sets the hands' default to 0).
    pub flags_member: bool,
    /// Flags still to place, red and blue; `None`: the default (5 each without `flags`, 0
    /// with them).
    pub hand: Option<[u8; 2]>,
    /// Flags in the box; `None`: 10 minus the hand minus the flags on cards (A5).
    pub reserve: Option<[u8; 2]>,
    /// Lives, red and blue (1–6).
    pub life: [i8; 2],
    /// Who places first.
    pub first: u8,
    /// The card under the cursor (an index into `cards`).
    pub cursor: u8,
    /// The cursor moves backward.
    pub backward: bool,
    /// Parameter chips: (card, parameter 0-based in printed order, net chips −2…2).
    pub chips: Vec<(Card, u8, i8)>,
    /// A saved game's next decision (written by `tilesmith run --out`), kept as read.
    pub resume: Option<Value>,
    /// Members the format does not use, written back.
    pub extra: Map<String, Value>,
    map: Grid<NoCell>,
}

impl Design {
    /// A design of `cards` (none: the drawn setup) with every other member at its default.
    pub fn new(name: &str, cards: Option<Vec<Card>>) -> Design {
        let n = cards.as_ref().map_or(0, Vec::len);
        Design {
            name: name.into(),
            cards,
            flags: vec![Vec::new(); n],
            flags_member: false,
            hand: None,
            reserve: None,
            life: [5, 5],
            first: 0,
            cursor: 0,
            backward: false,
            chips: Vec::new(),
            resume: None,
            extra: Map::new(),
            map: Grid::new(1, 1, NoCell),
        }
    }

    /// The cards of the line (none while the setup is drawn at the start).
    pub fn line(&self) -> &[Card] {
        self.cards.as_deref().unwrap_or(&[])
    }

    /// This design changed by `f`, with a saved game's `resume` dropped.
    pub fn with(&self, f: impl FnOnce(&mut Design)) -> Design {
        let mut d = self.clone();
        f(&mut d);
        d.resume = None;
        d.flags.resize(d.line().len(), Vec::new());
        d
    }

    /// The hands in effect: the file's, else 5 each without `flags` and 0 each with them.
    pub fn hand_in_effect(&self) -> [u8; 2] {
        self.hand
            .unwrap_or(if self.writes_flags() { [0, 0] } else { [5, 5] })
    }

    /// The reserves in effect: the file's, else 10 minus the hand minus the flags on cards
    /// (A5), never below 0.
    pub fn reserve_in_effect(&self) -> [u8; 2] {
        self.reserve.unwrap_or_else(|| {
            let hand = self.hand_in_effect();
            [0u8, 1].map(|p| {
                let on = self.flags.iter().flatten().filter(|&&f| f == p).count();
                let on = u8::try_from(on).unwrap_or(u8::MAX);
                FLAGS_PER_PLAYER.saturating_sub(hand[p as usize].saturating_add(on))
            })
        })
    }

    /// The net chips on parameter `k` (0-based) of `card`.
    pub fn chips_on(&self, card: Card, k: u8) -> i8 {
        self.chips
            .iter()
            .find(|c| c.0 == card && c.1 == k)
            .map_or(0, |c| c.2)
    }

    fn writes_flags(&self) -> bool {
        self.cards.is_some() && (self.flags_member || self.flags.iter().any(|q| !q.is_empty()))
    }

    /// Inserts `card` at `at` (clamped to the line; the line is laid out from the drawn
    /// setup's empty one); the cursor stays on its card. Nothing when the card is in the
    /// line or the line is full.
    pub fn insert_card(&mut self, card: Card, at: usize) {
        let line = self.cards.get_or_insert_with(Vec::new);
        if line.contains(&card) || line.len() >= MAX_CARDS {
            return;
        }
        let at = at.min(line.len());
        line.insert(at, card);
        self.flags.insert(at.min(self.flags.len()), Vec::new());
        if line.len() > 1 && at <= self.cursor as usize {
            self.cursor += 1;
        }
    }

    /// Removes card `i` with its flags and chips; the cursor stays on its card (on the
    /// card that followed when it was on the removed one, the first after the last).
    pub fn remove_card(&mut self, i: usize) {
        let Some(line) = self.cards.as_mut() else {
            return;
        };
        if i >= line.len() {
            return;
        }
        let card = line.remove(i);
        if i < self.flags.len() {
            self.flags.remove(i);
        }
        self.chips.retain(|c| c.0 != card);
        let c = self.cursor as usize;
        if i < c {
            self.cursor -= 1;
        }
        if self.cursor as usize >= line.len() {
            self.cursor = 0;
        }
    }

    /// Moves card `from` to place `to` of the line after the move, with its flags; the
    /// cursor stays on its card.
    pub fn move_card(&mut self, from: usize, to: usize) {
        let Some(line) = self.cards.as_mut() else {
            return;
        };
        if from >= line.len() {
            return;
        }
        let to = to.min(line.len() - 1);
        let on = line.get(self.cursor as usize).copied();
        let card = line.remove(from);
        line.insert(to, card);
        let q = self.flags.remove(from);
        self.flags.insert(to, q);
        if let Some(on) = on {
            self.cursor = line.iter().position(|&c| c == on).unwrap_or(0) as u8;
        }
    }

    /// Moves the flag at place `from` of card `c`'s queue to place `to`.
    pub fn move_flag(&mut self, c: usize, from: usize, to: usize) {
        if let Some(q) = self.flags.get_mut(c)
            && from < q.len()
        {
            let f = q.remove(from);
            q.insert(to.min(q.len()), f);
        }
    }

    /// Sets the net chips on parameter `k` of `card` (0 removes them).
    pub fn set_chips(&mut self, card: Card, k: u8, v: i8) {
        self.chips.retain(|c| !(c.0 == card && c.1 == k));
        if v != 0 {
            self.chips.push((card, k, v));
            let line = self.line().to_vec();
            self.chips
                .sort_by_key(|c| (line.iter().position(|&x| x == c.0), c.1));
        }
    }
}

impl Design {
    /// The design of an engine level read from `doc`.
    fn of_level(l: PastaLevel, doc: &Value) -> Design {
        let has = |k: &str| doc.get(k).is_some();
        let n = l.cards.as_ref().map_or(0, Vec::len);
        let mut flags = l.flags.clone();
        flags.resize(n, Vec::new());
        let chips = match &l.cards {
            Some(c) => l
                .chips
                .iter()
                .filter_map(|&(i, k, v)| c.get(i as usize).map(|&card| (card, k, v)))
                .collect(),
            None => Vec::new(),
        };
        Design {
            name: l.name,
            cards: l.cards,
            flags,
            flags_member: has("flags"),
            hand: has("hand").then_some(l.hand),
            reserve: has("reserve").then_some(l.reserve),
            life: l.life,
            first: l.first,
            cursor: l.cursor,
            backward: l.backward,
            chips,
            resume: doc.get("resume").cloned(),
            extra: l.extra,
            map: Grid::new(1, 1, NoCell),
        }
    }
}

/// `{"red": a, "blue": b}` with whole numbers in `lo..=hi`.
fn pair_of(v: &Value, lo: i64, hi: i64) -> Option<[i64; 2]> {
    let o = v.as_object()?;
    if o.len() != 2 {
        return None;
    }
    let get = |p: &str| {
        o.iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(p))
            .and_then(|(_, x)| x.as_i64())
            .filter(|x| (lo..=hi).contains(x))
    };
    Some([get(PLAYERS[0])?, get(PLAYERS[1])?])
}

/// A level whose hands, reserves, lives or cursor the engine refuses, read with those members
/// as written (numbers a design can hold); `None` when anything else is wrong too.
fn lenient(doc: &Value) -> Option<Design> {
    let mut o = doc.as_object()?.clone();
    for k in ["hand", "reserve", "life", "cursor", "resume"] {
        o.remove(k);
    }
    o.insert("hand".into(), json!({"red": 0, "blue": 0}));
    let l = PastaLevel::from_json(&Value::Object(o)).ok()?;
    let mut d = Design::of_level(l, doc);
    let small = |k: &str, lo: i64| match doc.get(k) {
        None => Some(None),
        Some(v) => pair_of(v, lo, 120).map(Some),
    };
    d.hand = small("hand", 0)?.map(|v| v.map(|x| x as u8));
    d.reserve = small("reserve", 0)?.map(|v| v.map(|x| x as u8));
    d.life = small("life", -120)?.map_or([5, 5], |v| v.map(|x| x as i8));
    d.cursor = match doc.get("cursor") {
        None => 0,
        Some(v) => u8::try_from(v.as_u64()?).ok()?,
    };
    Some(d)
}

fn pair<T: Into<Value> + Copy>(v: [T; 2]) -> Value {
    json!({PLAYERS[0]: v[0].into(), PLAYERS[1]: v[1].into()})
}

impl MapLevel for Design {
    type Cell = NoCell;

    fn map(&self) -> &Grid<NoCell> {
        &self.map
    }

    fn map_mut(&mut self) -> &mut Grid<NoCell> {
        &mut self.map
    }

    fn limits() -> (usize, usize) {
        (1, 1)
    }

    fn fixed_size() -> Option<&'static str> {
        Some("A program is a line of command cards, not a grid.")
    }

    fn cell_to_json(_cell: &NoCell) -> Value {
        Value::Null
    }

    fn cell_from_json(_v: &Value) -> Option<NoCell> {
        None
    }

    /// The level as the engine reads it (`PastaLevel::from_json`), keeping which defaults
    /// the file leaves to the engine. A level the engine refuses only for its hands,
    /// reserves, lives or cursor (a program being laid out: too few cards for the hands)
    /// opens too, with those members as written, so that its problems list says what to fix;
    /// any other problem refuses it, every problem located.
    fn from_json(doc: &Value) -> Result<Self, Vec<Problem>> {
        match PastaLevel::from_json(doc) {
            Ok(l) => Ok(Design::of_level(l, doc)),
            Err(p) => lenient(doc).ok_or(p),
        }
    }

    /// The level document: the members the design sets, defaults left out.
    fn to_json(&self) -> Value {
        let mut o = Map::new();
        o.insert("kind".into(), json!("pasta"));
        o.insert("name".into(), json!(self.name));
        if let Some(c) = &self.cards {
            let names: Vec<&str> = c.iter().map(|c| c.name()).collect();
            o.insert("cards".into(), json!(names));
        }
        if self.writes_flags() {
            let q: Vec<Vec<&str>> = self
                .flags
                .iter()
                .map(|q| q.iter().map(|&f| PLAYERS[f as usize & 1]).collect())
                .collect();
            o.insert("flags".into(), json!(q));
        }
        if let Some(h) = self.hand {
            o.insert("hand".into(), pair(h));
        }
        if let Some(r) = self.reserve {
            o.insert("reserve".into(), pair(r));
        }
        if self.life != [5, 5] {
            o.insert("life".into(), pair(self.life));
        }
        if self.first != 0 {
            o.insert("first".into(), json!(PLAYERS[self.first as usize & 1]));
        }
        if self.cursor != 0 {
            o.insert("cursor".into(), json!(self.cursor));
        }
        if self.backward {
            o.insert("direction".into(), json!("backward"));
        }
        if !self.chips.is_empty() {
            let chips: Map<String, Value> = self
                .chips
                .iter()
                .map(|(c, k, v)| (format!("{}#{}", c.name(), k + 1), json!(v)))
                .collect();
            o.insert("chips".into(), Value::Object(chips));
        }
        if let Some(r) = &self.resume {
            o.insert("resume".into(), r.clone());
        }
        for (k, v) in &self.extra {
            o.entry(k.clone()).or_insert_with(|| v.clone());
        }
        Value::Object(o)
    }
}
