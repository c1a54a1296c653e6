//! Helpers shared by the Pasta Logic tests (`pasta_*.rs`): a game from a level document, and
//! words played one at a time through the game as the CLI reads them.

#![allow(dead_code, clippy::unwrap_used)]

use serde_json::{Value, json};
use tilesmith_engine::Game;
use tilesmith_engine::GameKind;
use tilesmith_engine::kind::pasta::{Pasta, PastaGame};

/// The eight cards of conformance cases 1–3 and 7 of issue #28.
pub const EIGHT: [&str; 8] = [
    "Bug", "ForkBomb", "Debug", "TradeOff", "Reverse", "AddFlag", "MoveFlag", "Rotate",
];

/// The eight cards of conformance cases 4 and 5 of issue #28.
pub const SUB8: [&str; 8] = [
    "Subroutine",
    "AddFlag",
    "Increment",
    "Bug",
    "MoveFlag",
    "Debug",
    "Rotate",
    "Reverse",
];

/// A level of `cards` with `flags` given per card index (`(i, ["red", …])`), other members
/// from `more` (an object merged in).
pub fn level(cards: &[&str], flags: &[(usize, &[&str])], more: Value) -> Value {
    let mut q: Vec<Vec<&str>> = vec![Vec::new(); cards.len()];
    for (i, f) in flags {
        q[*i] = f.to_vec();
    }
    let mut doc = json!({"kind": "pasta", "cards": cards, "flags": q});
    if let (Some(o), Value::Object(m)) = (doc.as_object_mut(), more) {
        o.extend(m);
    }
    doc
}

/// A game of `doc` with seed 0; panics with the problems when it does not start.
pub fn start(doc: &Value) -> Box<dyn Game> {
    match Pasta.start(doc, 0) {
        Ok(g) => g,
        Err(p) => panic!("the level does not start: {p:#?}\n{doc}"),
    }
}

/// Plays the words of `text` (separated by spaces), each read in its position; panics on a
/// word that is not legal.
pub fn play(g: &mut dyn Game, text: &str) {
    for w in text.split_whitespace() {
        let input = g
            .read_input(w)
            .unwrap_or_else(|e| panic!("{w}: {e}\n{}", g.summary()));
        g.step(input);
    }
}

/// A game of `doc` after `text`.
pub fn after(doc: &Value, text: &str) -> Box<dyn Game> {
    let mut g = start(doc);
    play(&mut *g, text);
    g
}

/// The concrete game.
pub fn pasta(g: &dyn Game) -> &PastaGame {
    g.as_any().downcast_ref::<PastaGame>().unwrap()
}

/// The flags of card `i` in the summary.
pub fn flags(g: &dyn Game, i: usize) -> Value {
    g.summary()["cards"][i]["flags"].clone()
}

/// The words `legal_inputs` lists (undo and restart left out).
pub fn words(g: &dyn Game) -> Vec<String> {
    g.legal_inputs()
        .into_iter()
        .map(|c| c.word)
        .filter(|w| w != "undo" && w != "restart")
        .collect()
}
