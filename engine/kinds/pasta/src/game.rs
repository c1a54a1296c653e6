//! A running Pasta Logic game behind [`Game`]: each step is one decision (a flag placed, or
//! a command executed or skipped), chosen as [`Input::Choice`]`(n)` for entry `n` of the
//! decision's canonical order (`choice.rs`) and written by its word (`words.rs`). Undo keeps
//! a snapshot of the small state per decision; redo plays the undone choice again.

use rustc_hash::FxHashSet;
use serde_json::{Map, Value, json};

use super::card::PLAYERS;
use super::choice::Choice;
use super::level::{PastaLevel, state_json};
use super::state::{End, State};
use tilesmith_core::game::{Game, GameKind, Layer, Status, StepReport};
use tilesmith_core::grid::Pos;
use tilesmith_core::hash::Fnv;
use tilesmith_core::history::{History, Patch, Trim};
use tilesmith_core::input::{Input, InputChoice, InputError};

/// The most choices [`Game::legal_inputs`] lists (`skip` and the first command choices in
/// canonical order). MoveFlag and Reorder can have hundreds of thousands;
/// [`PastaGame::choice_count`] gives the full number, and `Input::Choice(n)` plays any
/// `n` below it.
pub const LIST_CAP: usize = 1000;

/// What undoing one decision restores.
#[derive(Clone, Debug)]
struct Snap {
    before: State,
    /// The decision key the step added to the seen set.
    inserted: Option<u128>,
    /// The choice played (for redo and the trace).
    choice: Choice,
}

impl Patch for Snap {
    fn bytes(&self) -> usize {
        std::mem::size_of::<Snap>()
    }
}

const TRIM: Trim = Trim {
    min_kept: 0,
    drop_redoable: false,
};

/// A running Pasta Logic game.
#[derive(Clone, Debug)]
pub struct PastaGame {
    name: String,
    extra: Map<String, Value>,
    start: State,
    start_seen: Vec<u128>,
    s: State,
    /// Decisions seen (the repetition rule), as a set and in the order seen.
    seen: FxHashSet<u128>,
    seen_order: Vec<u128>,
    done: History<Snap>,
    undone: Vec<Choice>,
    /// The player to move when the game started (for campaign points).
    first_mover: Option<u8>,
    last_played: bool,
}

impl PastaGame {
    /// Starts a game of `level` with `seed` (which draws the setup when `cards` is absent).
    pub fn new(level: &PastaLevel, seed: u64) -> PastaGame {
        let (s, seen) = level.state(seed);
        let mut g = PastaGame {
            name: level.name.clone(),
            extra: level.extra.clone(),
            start: s,
            start_seen: seen.clone(),
            s,
            seen: FxHashSet::default(),
            seen_order: Vec::new(),
            done: History::new(tilesmith_core::game::DEFAULT_HISTORY_BYTES, TRIM),
            undone: Vec::new(),
            first_mover: s.to_move(),
            last_played: false,
        };
        g.reset_seen();
        g
    }

    fn reset_seen(&mut self) {
        self.seen.clear();
        self.seen_order.clear();
        for &k in &self.start_seen {
            if self.seen.insert(k) {
                self.seen_order.push(k);
            }
        }
        if let Some(k) = self.decision_key()
            && self.seen.insert(k)
        {
            self.seen_order.push(k);
        }
    }

    /// The key of the decision at hand in the execution phase (placement never repeats).
    fn decision_key(&self) -> Option<u128> {
        (self.s.end == End::Running && !self.s.placing()).then(|| self.s.decision_key())
    }

    /// The state.
    pub fn state(&self) -> &State {
        &self.s
    }

    /// The number of legal choices at this decision (all of them, beyond [`LIST_CAP`]).
    pub fn choice_count(&self) -> u64 {
        self.s.choice_count()
    }

    /// The decisions seen so far (their keys, in order).
    pub fn seen(&self) -> &[u128] {
        &self.seen_order
    }

    /// The legal choices here in canonical order (entry `n` is `Input::Choice(n)`), at most
    /// `cap` of them, into `out` (cleared first): for a search that plays choices without
    /// their words ([`PastaGame::play_choice`]).
    pub fn choices(&self, out: &mut Vec<Choice>, cap: usize) {
        out.clear();
        self.s.each_choice(&mut |c| {
            out.push(c);
            out.len() < cap
        });
    }

    /// Plays a choice listed by [`PastaGame::choices`] in the current position, as
    /// [`Game::step`] plays its `Input::Choice`: recorded for undo, the repetition rule
    /// applied, the redo list cleared. A choice that is not legal here is refused (false).
    pub fn play_choice(&mut self, c: Choice) -> bool {
        if self.s.end != End::Running || self.s.rank_choice(c).is_none() {
            return false;
        }
        self.play(c);
        self.undone.clear();
        true
    }

    /// Plays `c` (legal here) and records it; the repetition rule is applied.
    fn play(&mut self, c: Choice) {
        let before = self.s;
        self.s.play(c);
        let mut inserted = None;
        if let Some(k) = self.decision_key() {
            if self.seen.contains(&k) {
                self.s.end = End::Draw(super::state::Reason::Repetition);
            } else {
                self.seen.insert(k);
                self.seen_order.push(k);
                inserted = Some(k);
            }
        }
        self.done.record(Snap {
            before,
            inserted,
            choice: c,
        });
    }

    fn no_change(&self) -> StepReport {
        StepReport {
            step: self.steps(),
            ..StepReport::default()
        }
    }

    fn words(&self, cap: usize) -> Vec<String> {
        let mut v = Vec::new();
        self.s.each_choice(&mut |c| {
            v.push(self.s.word(c));
            v.len() < cap
        });
        v
    }

    /// The trace event of the decision just played: who, which card, the word, and each
    /// thing that changed (`[before, after]`).
    fn event(&self, snap: &Snap) -> Value {
        let (b, a) = (&snap.before, &self.s);
        let mut e = Map::new();
        e.insert("decision".into(), json!(self.steps()));
        e.insert(
            "player".into(),
            json!(b.to_move().map(|p| PLAYERS[p as usize])),
        );
        if !b.placing() {
            e.insert("card".into(), json!(b.slots[b.at as usize].card.name()));
        }
        e.insert("word".into(), json!(b.word(snap.choice)));
        let pair = |x: [i64; 2]| json!({"red": x[0], "blue": x[1]});
        for (key, x, y) in [
            ("life", b.life.map(i64::from), a.life.map(i64::from)),
            ("hand", b.hand.map(i64::from), a.hand.map(i64::from)),
            (
                "reserve",
                b.reserve.map(i64::from),
                a.reserve.map(i64::from),
            ),
        ] {
            if x != y {
                e.insert(key.into(), json!([pair(x), pair(y)]));
            }
        }
        let names = |s: &State| s.cards().iter().map(|c| c.card.name()).collect::<Vec<_>>();
        if names(b) != names(a) {
            e.insert("line".into(), json!([names(b), names(a)]));
        }
        let mut cards = Vec::new();
        for c in a.cards() {
            let old = b.cards().iter().find(|o| o.card == c.card);
            if old.is_some_and(|o| o.q != c.q || o.chips != c.chips) {
                let flags = |q: super::state::Queue| {
                    q.owners().map(|f| PLAYERS[f as usize]).collect::<Vec<_>>()
                };
                let o = old.copied().unwrap_or(*c);
                cards.push(json!({"card": c.card.name(), "flags": [flags(o.q), flags(c.q)], "chips": [o.chips, c.chips]}));
            }
        }
        if !cards.is_empty() {
            e.insert("cards".into(), json!(cards));
        }
        let cursor = |s: &State| if s.gap { Value::Null } else { json!(s.at) };
        if cursor(b) != cursor(a) || b.backward != a.backward {
            e.insert("cursor".into(), json!([cursor(b), cursor(a)]));
        }
        if b.backward != a.backward {
            e.insert(
                "direction".into(),
                json!(if a.backward { "backward" } else { "forward" }),
            );
        }
        if let Some(r) = reason(a.end) {
            e.insert("status".into(), json!(self.status().word()));
            e.insert("winner".into(), json!(winner(a.end)));
            e.insert("reason".into(), json!(r));
        }
        Value::Object(e)
    }
}

fn winner(e: End) -> Option<&'static str> {
    match e {
        End::Won(p, _) => Some(PLAYERS[p as usize]),
        _ => None,
    }
}

fn reason(e: End) -> Option<&'static str> {
    match e {
        End::Running => None,
        End::Won(_, r) | End::Draw(r) => Some(r.word()),
    }
}

impl Game for PastaGame {
    fn kind(&self) -> &'static dyn GameKind {
        &super::Pasta
    }

    /// The line of cards as one row of cells.
    fn size(&self) -> (usize, usize) {
        (self.s.n.max(1) as usize, 1)
    }

    fn step(&mut self, input: Input) -> StepReport {
        self.last_played = false;
        match input {
            Input::Undo => {
                self.undo();
            }
            Input::Restart => {
                if self.done.trimmed() > 0 {
                    self.s = self.start;
                    self.done.clear();
                    self.undone.clear();
                    self.reset_seen();
                } else {
                    while self.undo() {}
                }
            }
            Input::Choice(n) if self.s.end == End::Running => {
                if let Some(c) = self.s.nth_choice(n as u64) {
                    self.play(c);
                    self.undone.clear();
                    self.last_played = true;
                }
            }
            _ => {}
        }
        self.no_change()
    }

    fn undo(&mut self) -> bool {
        let Some(snap) = self.done.pop_newest() else {
            return false;
        };
        if let Some(k) = snap.inserted {
            self.seen.remove(&k);
            self.seen_order.pop();
        }
        self.s = snap.before;
        self.undone.push(snap.choice);
        true
    }

    fn redo(&mut self) -> bool {
        let Some(c) = self.undone.pop() else {
            return false;
        };
        self.play(c);
        true
    }

    fn take_back(&mut self) -> bool {
        let ok = self.undo();
        if ok {
            self.undone.pop();
        }
        ok
    }

    fn steps(&self) -> u64 {
        self.done.trimmed() + self.done.len() as u64
    }

    fn redo_len(&self) -> usize {
        self.undone.len()
    }

    fn history_bytes(&self) -> usize {
        self.done.bytes()
    }

    fn set_history_budget(&mut self, bytes: usize) {
        self.done.set_budget(bytes);
    }

    fn history_trimmed(&self) -> u64 {
        self.done.trimmed()
    }

    fn status(&self) -> Status {
        match self.s.end {
            End::Running => Status::Running,
            End::Won(p, _) => Status::Won {
                points: 1,
                winner: Some(PLAYERS[p as usize].to_string()),
            },
            End::Draw(r) => Status::Draw {
                reason: r.word().to_string(),
            },
        }
    }

    fn players(&self) -> Vec<String> {
        PLAYERS.iter().map(|p| p.to_string()).collect()
    }

    fn to_move(&self) -> Option<usize> {
        self.s.to_move().map(usize::from)
    }

    /// 1 when the player to move at the start wins (the campaign's player).
    fn points_earned(&self) -> u32 {
        match self.s.end {
            End::Won(p, _) if Some(p) == self.first_mover => 1,
            _ => 0,
        }
    }

    /// At most [`LIST_CAP`] choices (entry `n` is `Input::Choice(n)`), then `undo` and
    /// `restart`.
    fn legal_inputs(&self) -> Vec<InputChoice> {
        let mut v: Vec<InputChoice> = self
            .words(LIST_CAP)
            .into_iter()
            .enumerate()
            .map(|(i, w)| InputChoice {
                label: w.clone(),
                word: w,
                input: Input::Choice(i as u32),
            })
            .collect();
        v.extend(super::Pasta.inputs().iter().map(InputChoice::from));
        v
    }

    fn read_input(&self, word: &str) -> Result<Input, InputError> {
        if let Some(c) = self.s.parse_word(word)
            && let Some(i) = self.s.rank_choice(c)
            && let Ok(i) = u32::try_from(i)
        {
            return Ok(Input::Choice(i));
        }
        if let Ok(i) = super::Pasta.parse_input(word) {
            return Ok(i);
        }
        let mut legal = self.words(LIST_CAP);
        if legal.len() >= LIST_CAP || legal.len() > tilesmith_core::input::MAX_LISTED_WORDS {
            // The pattern first, with the true number of choices (the list below it stops
            // at LIST_CAP words, and the message counts only the words listed).
            legal.insert(
                0,
                format!(
                    "[{}; {} choices in all]",
                    self.s.word_pattern(),
                    self.s.choice_count()
                ),
            );
        }
        Err(InputError::NotLegal {
            position: None,
            word: word.to_string(),
            repeat: None,
            legal,
        })
    }

    fn input_word(&self, input: Input) -> Option<String> {
        match input {
            Input::Choice(n) => self.s.nth_choice(n as u64).map(|c| self.s.word(c)),
            Input::Undo | Input::Restart => Some(input.word().to_string()),
            _ => None,
        }
    }

    /// One event per decision played (see [`PastaGame`]'s trace: player, card, word and
    /// each change as `[before, after]`, and the end); undo and restart give
    /// `{"decision", "event"}`.
    fn trace(&self, input: Input, _report: &StepReport) -> Vec<Value> {
        match input {
            Input::Undo => vec![json!({"decision": self.steps(), "event": "undo"})],
            Input::Restart => vec![json!({"decision": self.steps(), "event": "restart"})],
            _ if self.last_played => self
                .done
                .newest()
                .map_or_else(Vec::new, |s| vec![self.event(s)]),
            _ => Vec::new(),
        }
    }

    fn summary(&self) -> Value {
        let s = &self.s;
        let pair = |x: [i64; 2]| json!({"red": x[0], "blue": x[1]});
        let cards: Vec<Value> = s
            .cards()
            .iter()
            .map(|c| {
                let params: Vec<i8> = (0..c.card.params().len()).map(|k| c.param(k)).collect();
                json!({"card": c.card.name(), "flags": c.q.owners().map(|f| PLAYERS[f as usize]).collect::<Vec<_>>(), "params": params})
            })
            .collect();
        let mut v = json!({
            "kind": "pasta",
            "status": self.status().word(),
            "phase": if s.placing() { "placement" } else { "execution" },
            "to_move": s.to_move().map(|p| PLAYERS[p as usize]),
            "winner": winner(s.end),
            "life": pair(s.life.map(i64::from)),
            "hand": pair(s.hand.map(i64::from)),
            "reserve": pair(s.reserve.map(i64::from)),
            "cards": cards,
            "cursor": if s.gap || s.n == 0 { Value::Null } else { json!(s.at) },
            "direction": if s.backward { "backward" } else { "forward" },
        });
        if let (Some(r), Some(o)) = (reason(s.end), v.as_object_mut()) {
            o.insert("reason".into(), json!(r));
        }
        v
    }

    fn to_level(&self) -> Value {
        state_json(&self.s, &self.name, &self.extra, &self.seen_order)
    }

    /// Cell `(x, 0)` is card `x`: the card, then its flags head first (`red`, `blue`).
    fn layers(&self, pos: Pos) -> Vec<Layer> {
        let Some(c) = self.s.cards().get(pos.x).filter(|_| pos.y == 0) else {
            return Vec::new();
        };
        std::iter::once(c.card.name())
            .chain(c.q.owners().map(|f| PLAYERS[f as usize]))
            .map(|t| Layer {
                token: t.to_string(),
                dir: None,
            })
            .collect()
    }

    /// A [`super::PastaSearch`] at the current decision, with the decisions seen so far
    /// (the repetition rule).
    fn searcher(&self) -> Option<Box<dyn tilesmith_core::search_game::SearchGame>> {
        Some(Box::new(super::PastaSearch::new(self.s, &self.seen_order)))
    }

    fn state_hash(&self) -> u64 {
        let mut h = Fnv::new();
        h.write(b"pasta");
        h.write(&self.s.decision_key().to_le_bytes());
        h.write(&[self.s.lap as u8]);
        let reason = |r: super::state::Reason| r as u8;
        h.write(&match self.s.end {
            End::Running => [0, 0, 0],
            End::Won(p, r) => [1, p, reason(r)],
            End::Draw(r) => [2, 0, reason(r)],
        });
        h.finish()
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
        self
    }
}
