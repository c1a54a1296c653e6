//! Input words: what one step's key is called on the command line and in replay files.
//!
//! Each game kind declares its words in a table of [`InputSpec`]s ([`GameKind::inputs`]):
//! boulder has `. L R U D ML MR MU MD`, baba `. L R U D undo restart`. A word is read through
//! the kind of the level it is played on ([`GameKind::parse_input`]), so a word of another
//! kind is an error rather than a silent wait.
//!
//! A text of inputs ([`parse_inputs`]) is words separated by white space; a word may carry a
//! repeat count, `WORD*N` (N ≥ 1, decimal), for N steps of that input. [`format_inputs`]
//! writes inputs back, collapsing runs of three or more equal inputs into `WORD*N`.

use serde::Serialize;

use crate::grid::Dir;
use crate::kind::GameKind;
use crate::problem::quote;
use crate::replay::MAX_REPLAY_TICKS;

/// One input for one step. A kind's words ([`GameKind::inputs`]) say which inputs its levels
/// take on the command line and in replays. [`Game::step`](crate::kind::Game::step) accepts
/// every input: one the kind has no use for acts as [`Input::Wait`], and [`Input::Undo`] and
/// [`Input::Restart`] undo for every kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[non_exhaustive]
pub enum Input {
    /// No key (`.` on the command line).
    Wait,
    /// An arrow key (`L`, `R`, `U`, `D`).
    Move(Dir),
    /// An arrow key with the meta/shift key (`ML`, `MR`, `MU`, `MD`): dig without moving.
    Meta(Dir),
    /// Take back the last step, as the game's own undo key does (`undo`). Not a step itself.
    Undo,
    /// Go back to the level's start (`restart`).
    Restart,
    /// Falling blocks: move the tumo down one cell now (`SD`, soft drop).
    SoftDrop,
    /// Falling blocks: drop the tumo to where it lands and place it (`HD`, hard drop).
    HardDrop,
    /// Falling blocks: turn the tumo to another rotation state (`CW`, `CCW`, `180`).
    Turn(Turn),
}

/// Which way a falling-block tumo turns through its rotation states (spec falling-blocks §3.2,
/// §7): forward to the next state, back to the previous one, or two states at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Turn {
    /// To the next rotation state (`CW`): state i → i + 1 (mod n).
    Cw,
    /// To the previous rotation state (`CCW`): state i → i − 1 (mod n).
    Ccw,
    /// Two states at once (`180`): state i → i + 2 (mod n).
    Half,
}

impl Input {
    /// Parses one word of any kind: `.`, `L`, `R`, `U`, `D`, `ML`, `MR`, `MU`, `MD`, `undo`,
    /// `restart` (case-insensitive). Returns `None` for anything else.
    ///
    /// Kept for old callers and tests. To read the input of a level, use its kind's
    /// [`GameKind::parse_input`] (or [`parse_inputs`]), which refuses the words of other kinds.
    pub fn parse(word: &str) -> Option<Input> {
        ALL_WORDS
            .iter()
            .copied()
            .find(|i| i.word().eq_ignore_ascii_case(word))
    }

    /// The canonical word for this input (`.`, `L`, `MR`, `undo`, …). A kind's
    /// [`InputSpec::word`] for an input is this word, so [`format_inputs`] needs no kind.
    pub fn word(self) -> &'static str {
        match self {
            Input::Wait => ".",
            Input::Move(Dir::Left) => "L",
            Input::Move(Dir::Right) => "R",
            Input::Move(Dir::Up) => "U",
            Input::Move(Dir::Down) => "D",
            Input::Meta(Dir::Left) => "ML",
            Input::Meta(Dir::Right) => "MR",
            Input::Meta(Dir::Up) => "MU",
            Input::Meta(Dir::Down) => "MD",
            Input::Undo => "undo",
            Input::Restart => "restart",
            Input::SoftDrop => "SD",
            Input::HardDrop => "HD",
            Input::Turn(Turn::Cw) => "CW",
            Input::Turn(Turn::Ccw) => "CCW",
            Input::Turn(Turn::Half) => "180",
        }
    }
}

/// Every input, for [`Input::parse`].
const ALL_WORDS: [Input; 16] = [
    Input::Wait,
    Input::Move(Dir::Left),
    Input::Move(Dir::Right),
    Input::Move(Dir::Up),
    Input::Move(Dir::Down),
    Input::Meta(Dir::Left),
    Input::Meta(Dir::Right),
    Input::Meta(Dir::Up),
    Input::Meta(Dir::Down),
    Input::Undo,
    Input::Restart,
    Input::SoftDrop,
    Input::HardDrop,
    Input::Turn(Turn::Cw),
    Input::Turn(Turn::Ccw),
    Input::Turn(Turn::Half),
];

/// One input word of a kind: how the command line and replays write it and how an editor
/// offers it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct InputSpec {
    /// The command-line and replay word; equal to [`Input::word`] of [`InputSpec::input`].
    /// Read case-insensitively.
    pub word: &'static str,
    /// The input the word stands for.
    pub input: Input,
    /// A button label, e.g. `"Left"`, `"Dig right"`, `"Undo"`.
    pub label: &'static str,
    /// The suggested key as egui names it, with `Shift+` for a modifier, e.g. `"ArrowLeft"`,
    /// `"Shift+ArrowRight"`, `"Space"`, `"Z"`; alternatives separated by `|` (`"ArrowUp|X"`).
    pub key: &'static str,
}

/// Why an input word or a text of input words could not be read. `position` is the word's
/// number in the text, 1 for the first (`None` for a single word read alone).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InputError {
    /// The word is no input of the kind.
    #[error("{}{} is not a {kind} input (use {})", at(.position), quote(.word), .expected.join(" "))]
    Unknown {
        /// The word's number in the text (1 for the first), if read from a text.
        position: Option<usize>,
        /// The word as written (without a repeat count).
        word: String,
        /// The kind's name.
        kind: &'static str,
        /// The kind's words, in table order.
        expected: Vec<&'static str>,
    },
    /// The word's repeat count (`WORD*N`) is malformed: empty, zero, not decimal digits, a
    /// second `*`, or a count with no word before it.
    #[error("{}{} has a bad repeat count: {reason}", at(.position), quote(.word))]
    BadCount {
        /// The word's number in the text, 1 for the first.
        position: usize,
        /// The word as written, count included.
        word: String,
        /// What is wrong, in a few words.
        reason: &'static str,
    },
    /// The text asks for more steps than [`MAX_REPLAY_TICKS`].
    #[error(
        "{}{} makes the inputs too long (more than {MAX_REPLAY_TICKS} steps)",
        at(.position),
        quote(.word)
    )]
    TooMany {
        /// The number of the word that passed the limit, 1 for the first.
        position: usize,
        /// The word as written, count included.
        word: String,
    },
}

/// `word N ` for a word's number in a text, nothing for a word read alone.
fn at<P: Copy + Into<Option<usize>>>(position: &P) -> String {
    (*position)
        .into()
        .map_or_else(String::new, |n| format!("word {n} "))
}

/// Looks `word` up in a kind's table, case-insensitively: the default of
/// [`GameKind::parse_input`]. The error has no position.
pub(crate) fn lookup(kind: &(impl GameKind + ?Sized), word: &str) -> Result<Input, InputError> {
    let table = kind.inputs();
    table
        .iter()
        .find(|s| s.word.eq_ignore_ascii_case(word))
        .map(|s| s.input)
        .ok_or_else(|| InputError::Unknown {
            position: None,
            word: word.to_string(),
            kind: kind.name(),
            expected: table.iter().map(|s| s.word).collect(),
        })
}

/// Reads a text of input words for a level of `kind`: words separated by white space, each
/// one step, or `WORD*N` for N steps of that input (N ≥ 1, decimal digits only). An empty
/// text is no inputs.
///
/// The steps are counted before anything is stored, so a text asking for more than
/// [`MAX_REPLAY_TICKS`] steps is an error, not an allocation.
///
/// # Errors
/// The first bad word, with its number in the text: a word that is no input of `kind`
/// ([`InputError::Unknown`]), a malformed count such as `R*0`, `R*`, `R*-1`, `R*abc`, `R*2*3`
/// or `*3` ([`InputError::BadCount`]), or too many steps in all ([`InputError::TooMany`]).
pub fn parse_inputs(kind: &dyn GameKind, text: &str) -> Result<Vec<Input>, InputError> {
    let mut out = Vec::new();
    let mut total: u64 = 0;
    for (i, token) in text.split_whitespace().enumerate() {
        let position = i + 1;
        let bad = |reason| InputError::BadCount {
            position,
            word: token.to_string(),
            reason,
        };
        let (word, count) = match token.split_once('*') {
            None => (token, 1),
            Some((word, count)) => {
                if word.is_empty() {
                    return Err(bad("no input word before '*'"));
                }
                if count.contains('*') {
                    return Err(bad("more than one '*'"));
                }
                if count.is_empty() {
                    return Err(bad("no count after '*'"));
                }
                if !count.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(bad("the count must be decimal digits"));
                }
                // Digits only, so the parse fails only on overflow: far too many steps.
                let n = count.parse::<u64>().unwrap_or(u64::MAX);
                if n == 0 {
                    return Err(bad("the count must be at least 1"));
                }
                (word, n)
            }
        };
        let input = kind.parse_input(word).map_err(|e| match e {
            InputError::Unknown {
                word,
                kind,
                expected,
                ..
            } => InputError::Unknown {
                position: Some(position),
                word,
                kind,
                expected,
            },
            other => other,
        })?;
        // Counted before anything is stored: `out` never holds more than the limit.
        total = total.saturating_add(count);
        if total > MAX_REPLAY_TICKS {
            return Err(InputError::TooMany {
                position,
                word: token.to_string(),
            });
        }
        out.extend(std::iter::repeat_n(input, count as usize));
    }
    Ok(out)
}

/// A run of at least this many equal inputs is written as `WORD*N` by [`format_inputs`]. Two
/// stay spelled out: `R*2` is no shorter than `R R`, and a pair reads more easily as it is.
pub const COLLAPSE_RUN: usize = 3;

/// Writes inputs as words separated by single spaces, with each run of at least
/// [`COLLAPSE_RUN`] (3) equal inputs as `WORD*N`: `R R R R D . .` becomes `R*4 D . .`.
/// [`parse_inputs`] reads the result back to the same inputs.
pub fn format_inputs(inputs: &[Input]) -> String {
    let mut out = String::new();
    let mut rest = inputs;
    while let Some(&first) = rest.first() {
        let run = rest.iter().take_while(|&&i| i == first).count();
        let word = first.word();
        if run >= COLLAPSE_RUN {
            push_word(&mut out, &format!("{word}*{run}"));
        } else {
            for _ in 0..run {
                push_word(&mut out, word);
            }
        }
        rest = &rest[run..];
    }
    out
}

fn push_word(out: &mut String, word: &str) {
    if !out.is_empty() {
        out.push(' ');
    }
    out.push_str(word);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_kind_words_round_trip() {
        for i in ALL_WORDS {
            assert_eq!(Input::parse(i.word()), Some(i));
        }
        assert_eq!(Input::parse("mr"), Some(Input::Meta(Dir::Right)));
        assert_eq!(Input::parse("UNDO"), Some(Input::Undo));
        for w in ["X", "M", "MX", "", "R*2"] {
            assert_eq!(Input::parse(w), None, "{w}");
        }
    }

    #[test]
    fn runs_of_three_or_more_collapse() {
        use Input::{Move, Wait};
        let r = Move(Dir::Right);
        assert_eq!(format_inputs(&[]), "");
        assert_eq!(format_inputs(&[r, r]), "R R");
        assert_eq!(format_inputs(&[r, r, r]), "R*3");
        assert_eq!(
            format_inputs(&[r, r, r, r, Move(Dir::Down), Wait, Wait]),
            "R*4 D . ."
        );
        assert_eq!(format_inputs(&[Input::Undo; 12]), "undo*12");
    }
}
