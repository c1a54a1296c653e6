//! A Pasta Logic game in the play pane: the shell's [`PlaySession`] (undo, redo, scrub,
//! replays) with the log of the decisions played, each as the engine's trace event (who,
//! which card, the word, and each change as `[before, after]`: lives, hands, reserves, the
//! line, the cards whose flags or chips changed, the cursor and direction, the end).

use serde_json::Value;
use tilesmith_engine::kind::pasta::{PastaGame, State};
use tilesmith_engine::{Input, StepReport};

use crate::doc::play::PlaySession;

/// A game being played, with its log.
#[derive(Debug)]
pub struct PastaPlay {
    /// The session (the game, its inputs and words, undo and redo).
    pub session: PlaySession,
    /// The trace event of each decision played, decision 1 first; entries past the
    /// session's step are the undone decisions (redo plays them again).
    pub log: Vec<Value>,
}

impl PastaPlay {
    /// A play of `session`'s game, with an empty log.
    pub fn new(session: PlaySession) -> Self {
        Self {
            session,
            log: Vec::new(),
        }
    }

    /// The game (the session holds a pasta game; `None` only while a step computes away).
    pub fn game(&self) -> Option<&PastaGame> {
        self.session.game.as_any().downcast_ref::<PastaGame>()
    }

    /// The state shown.
    pub fn state(&self) -> Option<&State> {
        self.game().map(PastaGame::state)
    }

    /// One decision with `input`; the log keeps the decisions before it and gets its event.
    pub fn step(&mut self, input: Input) {
        if matches!(input, Input::Choice(_)) {
            self.log.truncate(self.session.steps() as usize);
        }
        self.session.step(input);
        self.sync_log();
    }

    /// Adds the event of the decision just played when the log lacks it (a step collected
    /// from a worker thread).
    pub fn sync_log(&mut self) {
        let steps = self.session.steps() as usize;
        if steps == self.log.len() + 1 {
            let ev = self
                .session
                .game
                .trace(Input::Choice(0), &StepReport::default());
            if let Some(e) = ev.into_iter().next() {
                self.log.push(e);
            }
        }
    }

    /// The event of the decision that led to the state shown, if it is logged.
    pub fn last_event(&self) -> Option<&Value> {
        let n = self.session.steps() as usize;
        n.checked_sub(1).and_then(|i| self.log.get(i))
    }
}

/// The names of the cards a trace event `e` says changed (flags or chips), and of the
/// card whose command ran.
pub fn changed_cards(e: &Value) -> Vec<String> {
    let mut v: Vec<String> = e
        .get("cards")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|c| c.get("card").and_then(Value::as_str).map(String::from))
                .collect()
        })
        .unwrap_or_default();
    if let Some(line) = e.get("line").and_then(Value::as_array)
        && let [before, after] = line.as_slice()
    {
        // Cards that moved in the line (SwapCommand) changed place.
        let (b, a) = (before.as_array(), after.as_array());
        if let (Some(b), Some(a)) = (b, a) {
            for (i, c) in a.iter().enumerate() {
                if b.get(i) != Some(c)
                    && let Some(n) = c.as_str()
                    && b.iter().any(|x| x.as_str() == Some(n))
                {
                    v.push(n.into());
                }
            }
        }
    }
    v
}

/// A trace event in words: `3. red Bug do: life blue 5->4; cursor 2->3`.
pub fn describe(e: &Value) -> String {
    let s = |k: &str| e.get(k).and_then(Value::as_str).unwrap_or("");
    let n = e.get("decision").and_then(Value::as_u64).unwrap_or(0);
    let mut out = format!("{n}. {} ", s("player"));
    if !s("card").is_empty() {
        out.push_str(s("card"));
        out.push(' ');
    }
    out.push_str(s("word"));
    let mut parts = Vec::new();
    for key in ["life", "hand", "reserve"] {
        if let Some([b, a]) = e.get(key).and_then(Value::as_array).map(Vec::as_slice) {
            for p in ["red", "blue"] {
                if b.get(p) != a.get(p) {
                    parts.push(format!("{key} {p} {}->{}", num(b.get(p)), num(a.get(p))));
                }
            }
        }
    }
    if let Some(cards) = e.get("cards").and_then(Value::as_array) {
        for c in cards {
            parts.push(card_change(c));
        }
    }
    if let Some([b, a]) = e.get("line").and_then(Value::as_array).map(Vec::as_slice) {
        parts.push(format!("line {} -> {}", list(b), list(a)));
    }
    if let Some([b, a]) = e.get("cursor").and_then(Value::as_array).map(Vec::as_slice) {
        parts.push(format!("cursor {}->{}", num(Some(b)), num(Some(a))));
    }
    if !s("direction").is_empty() {
        parts.push(format!("direction {}", s("direction")));
    }
    if !s("reason").is_empty() {
        parts.push(format!("{} ({})", s("status"), s("reason")));
    }
    if !parts.is_empty() {
        out.push_str(": ");
        out.push_str(&parts.join("; "));
    }
    out
}

fn num(v: Option<&Value>) -> String {
    match v {
        Some(Value::Null) | None => "gap".into(),
        Some(v) => v.to_string(),
    }
}

fn list(v: &Value) -> String {
    v.as_array()
        .map(|a| {
            a.iter()
                .map(|x| x.as_str().unwrap_or("?"))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_default()
}

fn card_change(c: &Value) -> String {
    let name = c.get("card").and_then(Value::as_str).unwrap_or("?");
    let flags = |v: Option<&Value>| {
        v.and_then(Value::as_array)
            .map(|a| {
                let s: Vec<&str> = a
                    .iter()
                    .map(|f| match f.as_str() {
                        Some("red") => "R",
                        Some("blue") => "B",
                        _ => "?",
                    })
                    .collect();
                format!("[{}]", s.join(""))
            })
            .unwrap_or_default()
    };
    let mut out = String::from(name);
    if let Some([b, a]) = c.get("flags").and_then(Value::as_array).map(Vec::as_slice)
        && b != a
    {
        out.push_str(&format!(" flags {}->{}", flags(Some(b)), flags(Some(a))));
    }
    if let Some([b, a]) = c.get("chips").and_then(Value::as_array).map(Vec::as_slice) {
        let at = |v: &Value, k: usize| v.get(k).and_then(Value::as_i64).unwrap_or(0);
        for k in 0..2 {
            if at(b, k) != at(a, k) {
                out.push_str(&format!(" #{} chips {:+}->{:+}", k + 1, at(b, k), at(a, k)));
            }
        }
    }
    out
}
