//! Input words: what one step's key is called on the command line and in replay files.
//!
//! Each game kind declares its words in a table of [`InputSpec`]s (`GameKind::inputs`), for
//! example `. L R U D ML MR MU MD`, or `. L R SD HD CW CCW 180 H`. A word is read through
//! the kind of the level it is played on (`GameKind::parse_input`), so a word of another
//! kind is an error rather than a silent wait.
//!
//! A text of inputs (`parse_inputs`) is words separated by white space; a word may carry a
//! repeat count, `WORD*N` (N ≥ 1, decimal), for N steps of that input. [`format_inputs`]
//! writes inputs back, collapsing runs of three or more equal inputs into `WORD*N`.
//!
//! A kind whose moves are chosen from a list that depends on the position (board: `c3-d4`
//! means something only where a piece stands on c3) says so with
//! `GameKind::positional_inputs`; its words are split with [`split_inputs`] and read one at
//! a time through the running game (`Game::read_input`, `replay::play_words`),
//! which gives an [`Input::Choice`] into its list of legal inputs (`Game::legal_inputs`).
//! [`format_words`] writes such words back.

use serde::Serialize;

use crate::grid::Dir;
use crate::problem::quote;

/// The most steps an input text or a replay may ask for (a file value must not make a run
/// endless).
pub const MAX_REPLAY_TICKS: u64 = 1_000_000;

/// One input for one step. A kind's words (`GameKind::inputs`) say which inputs its levels
/// take on the command line and in replays. `Game::step` accepts every input: one the kind
/// has no use for acts as [`Input::Wait`], and [`Input::Undo`] and [`Input::Restart`] undo
/// for every kind.
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
    /// Move the falling piece (a tumo) down one cell now (`SD`, soft drop).
    SoftDrop,
    /// Drop the falling piece to where it lands and place it (`HD`, hard drop).
    HardDrop,
    /// Turn the falling piece to another rotation state (`CW`, `CCW`, `180`).
    Turn(Turn),
    /// Put the falling piece aside into the hold slot and take the piece held there (or the
    /// next one when the slot is empty), once per placement (`H`). A game without a hold
    /// slot plays it as a wait.
    Hold,
    /// The legal input number `n` (0-based) of the current position, in the order of
    /// `Game::legal_inputs`: a whole turn of a board game (`c3-d4`). It has no word of its
    /// own (its [`Input::word`] is `choice`); `Game::input_word` gives the word it has in
    /// the position where it is played, and `Game::read_input` reads that word. A kind
    /// without such a list treats it as [`Input::Wait`].
    Choice(u32),
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
    /// `restart`, `SD`, `HD`, `CW`, `CCW`, `180`, `H` (case-insensitive; every word of
    /// [`Input::word`] but `choice`). Returns `None` for anything else.
    ///
    /// Kept for old callers and tests. To read the input of a level, use its kind's
    /// `GameKind::parse_input` (or `parse_inputs`), which refuses the words of other kinds.
    pub fn parse(word: &str) -> Option<Input> {
        ALL_WORDS
            .iter()
            .copied()
            .find(|i| i.word().eq_ignore_ascii_case(word))
    }

    /// The canonical word for this input (`.`, `L`, `MR`, `undo`, …). A kind's
    /// [`InputSpec::word`] for an input is this word, so [`format_inputs`] needs no kind.
    /// [`Input::Choice`] has no word outside a position: it gives `choice`, which reads as
    /// nothing; use `Game::input_word` for it.
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
            Input::Hold => "H",
            Input::Choice(_) => "choice",
        }
    }
}

/// Every input, for [`Input::parse`].
const ALL_WORDS: [Input; 17] = [
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
    Input::Hold,
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

/// One input a running game takes in its current position (`Game::legal_inputs`): for a
/// kind with a fixed table, an entry of `GameKind::inputs`; for a board game, a legal whole
/// turn ([`Input::Choice`]) with its notation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InputChoice {
    /// The word that plays it here (`R`, `c3-d4`, `pass`, `undo`), unique in the list.
    pub word: String,
    /// The input `Game::step` is given for it.
    pub input: Input,
    /// A label for a button or a list (`Right`, `c3-d4`).
    pub label: String,
}

impl From<&InputSpec> for InputChoice {
    fn from(s: &InputSpec) -> Self {
        InputChoice {
            word: s.word.to_string(),
            input: s.input,
            label: s.label.to_string(),
        }
    }
}

/// The most legal words an [`InputError::NotLegal`] message lists; the rest are counted.
pub const MAX_LISTED_WORDS: usize = 60;

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
    /// The word is no legal input of the game in its current position (`Game::read_input`
    /// of a kind with `GameKind::positional_inputs`).
    #[error("{}", not_legal(.position, .word, .repeat, .legal))]
    NotLegal {
        /// The word's number in the text (1 for the first), if read from a text.
        position: Option<usize>,
        /// The word as written (without a repeat count).
        word: String,
        /// For a word with a repeat count (`WORD*N`) read from a text: which repetition
        /// failed, 1 for the first, and N. `None` for a word without a count.
        repeat: Option<(u64, u64)>,
        /// The words legal in the position, in the game's order.
        legal: Vec<String>,
    },
    /// A word other than `undo` or `restart` comes after the game has ended (a kind with
    /// `GameKind::positional_inputs`: `replay::play_words`).
    #[error(
        "{}{} comes after the end: the game is over (only undo and restart act then)",
        at(.position),
        quote(.word)
    )]
    GameOver {
        /// The word's number in the text, 1 for the first.
        position: usize,
        /// The word as written, count included.
        word: String,
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

/// The message of an [`InputError::NotLegal`]: `word 2 "f6-e5*2", repeat 2 of 2, is not legal
/// here (legal: …)` for a repeated word, `word 2 "f6-e5" is not legal in this position
/// (legal: …)` otherwise.
fn not_legal(
    position: &Option<usize>,
    word: &str,
    repeat: &Option<(u64, u64)>,
    legal: &[String],
) -> String {
    match repeat {
        Some((k, n)) => format!(
            "{}{}, repeat {k} of {n}, is not legal here (legal: {})",
            at(position),
            quote(&format!("{word}*{n}")),
            listed(legal)
        ),
        None => format!(
            "{}{} is not legal in this position (legal: {})",
            at(position),
            quote(word),
            listed(legal)
        ),
    }
}

/// The longest legal word an error message shows whole, in characters.
pub const MAX_WORD_CHARS: usize = 200;

/// The legal words of an [`InputError::NotLegal`], at most [`MAX_LISTED_WORDS`] of them and
/// the number of the others; `none` for an empty list.
fn listed(words: &[String]) -> String {
    if words.is_empty() {
        return "none".into();
    }
    let shown: Vec<String> = words
        .iter()
        .take(MAX_LISTED_WORDS)
        .map(|w| {
            // A legal word is the game's own (not a file's value): shown whole, so that it can
            // be copied, unless it is longer than MAX_WORD_CHARS or holds white space.
            if w.chars().count() > MAX_WORD_CHARS || w.contains(char::is_whitespace) {
                crate::problem::quote_at_most(w, MAX_WORD_CHARS)
            } else {
                w.clone()
            }
        })
        .collect();
    let mut out = shown.join(" ");
    if words.len() > MAX_LISTED_WORDS {
        out.push_str(&format!(" … and {} more", words.len() - MAX_LISTED_WORDS));
    }
    out
}

impl InputError {
    /// The same error with the word's number in its text set to `position`.
    pub fn at_position(self, position: usize) -> InputError {
        match self {
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
            InputError::NotLegal {
                word,
                repeat,
                legal,
                ..
            } => InputError::NotLegal {
                position: Some(position),
                word,
                repeat,
                legal,
            },
            other => other,
        }
    }
}

/// Looks `word` up in the table of the kind named `kind`, case-insensitively: the default of
/// `GameKind::parse_input`. The error has no position.
pub(crate) fn lookup(
    kind: &'static str,
    table: &[InputSpec],
    word: &str,
) -> Result<Input, InputError> {
    table
        .iter()
        .find(|s| s.word.eq_ignore_ascii_case(word))
        .map(|s| s.input)
        .ok_or_else(|| InputError::Unknown {
            position: None,
            word: word.to_string(),
            kind,
            expected: table.iter().map(|s| s.word).collect(),
        })
}

/// One word of a text of inputs with its repeat count, as [`split_inputs`] reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WordRun<'a> {
    /// The word's number in the text, 1 for the first.
    pub position: usize,
    /// The word without its count.
    pub word: &'a str,
    /// How many steps it stands for (1 without `*N`).
    pub count: u64,
}

/// Splits a text of input words into words with their repeat counts, without reading the
/// words: words separated by white space, each one step, or `WORD*N` for N steps (N ≥ 1,
/// decimal digits only). An empty text is no words. The steps are counted, so a text asking
/// for more than [`MAX_REPLAY_TICKS`] steps is an error, not an allocation.
///
/// # Errors
/// The first bad word, with its number in the text: a malformed count such as `R*0`, `R*`,
/// `R*-1`, `R*abc`, `R*2*3` or `*3` ([`InputError::BadCount`]), or too many steps in all
/// ([`InputError::TooMany`]).
pub fn split_inputs(text: &str) -> Result<Vec<WordRun<'_>>, InputError> {
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
        total = total.saturating_add(count);
        if total > MAX_REPLAY_TICKS {
            return Err(InputError::TooMany {
                position,
                word: token.to_string(),
            });
        }
        out.push(WordRun {
            position,
            word,
            count,
        });
    }
    Ok(out)
}

/// Reads a text of input words, each word read by `read` (a kind's `GameKind::parse_input`;
/// `crate::game::parse_inputs` is this for a kind): words separated by white space, each one
/// step, or `WORD*N` for N steps of that input (N ≥ 1, decimal digits only). An empty text is
/// no inputs.
///
/// The steps are counted before anything is stored, so a text asking for more than
/// [`MAX_REPLAY_TICKS`] steps is an error, not an allocation.
///
/// # Errors
/// The first bad word, with its number in the text: what `read` refuses (its error given that
/// position), a malformed count such as `R*0`, `R*`, `R*-1`, `R*abc`, `R*2*3` or `*3`
/// ([`InputError::BadCount`]), or too many steps in all ([`InputError::TooMany`]).
pub fn parse_inputs_with(
    text: &str,
    read: impl Fn(&str) -> Result<Input, InputError>,
) -> Result<Vec<Input>, InputError> {
    let mut out = Vec::new();
    let mut total: u64 = 0;
    for (i, token) in text.split_whitespace().enumerate() {
        // Split word by word, so that the first bad word is reported whatever it is.
        let run = match split_inputs(token) {
            Ok(r) => r[0],
            Err(e) => return Err(renumber(e, i + 1)),
        };
        let input = read(run.word).map_err(|e| e.at_position(i + 1))?;
        // Counted before anything is stored: `out` never holds more than the limit.
        total = total.saturating_add(run.count);
        if total > MAX_REPLAY_TICKS {
            return Err(InputError::TooMany {
                position: i + 1,
                word: token.to_string(),
            });
        }
        out.extend(std::iter::repeat_n(input, run.count as usize));
    }
    Ok(out)
}

/// An error of [`split_inputs`] on one token, renumbered as word `position` of a text.
fn renumber(e: InputError, position: usize) -> InputError {
    match e {
        InputError::BadCount { word, reason, .. } => InputError::BadCount {
            position,
            word,
            reason,
        },
        InputError::TooMany { word, .. } => InputError::TooMany { position, word },
        other => other.at_position(position),
    }
}

/// A run of at least this many equal inputs is written as `WORD*N` by [`format_inputs`]. Two
/// stay spelled out: `R*2` is no shorter than `R R`, and a pair reads more easily as it is.
pub const COLLAPSE_RUN: usize = 3;

/// Writes inputs as words separated by single spaces, with each run of at least
/// [`COLLAPSE_RUN`] (3) equal inputs as `WORD*N`: `R R R R D . .` becomes `R*4 D . .`.
/// `parse_inputs` reads the result back to the same inputs. For inputs without a word of
/// their own ([`Input::Choice`]) write the words they had where they were played, with
/// [`format_words`].
pub fn format_inputs(inputs: &[Input]) -> String {
    format_words(inputs.iter().map(|i| i.word()))
}

/// Writes words (one per step) separated by single spaces, with each run of at least
/// [`COLLAPSE_RUN`] equal words as `WORD*N`, as [`format_inputs`] does.
pub fn format_words<'a>(words: impl IntoIterator<Item = &'a str>) -> String {
    let mut out = String::new();
    let mut words = words.into_iter().peekable();
    while let Some(first) = words.next() {
        let mut run = 1;
        while words.next_if(|w| *w == first).is_some() {
            run += 1;
        }
        if run >= COLLAPSE_RUN {
            push_word(&mut out, &format!("{first}*{run}"));
        } else {
            for _ in 0..run {
                push_word(&mut out, first);
            }
        }
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
