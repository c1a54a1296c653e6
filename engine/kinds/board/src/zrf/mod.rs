//! The ZRF front end: reads Zillions-of-Games rule files (S-expressions with `define` macros)
//! and compiles one game variant into [`Rules`], with every problem at its line and column.
//!
//! Stages: `sexpr` reads the text into nodes with places; `expand` expands the
//! `(define …)` macros; this module picks the `(game …)` or `(variant …)` and merges a
//! variant onto its game (`merge`); `compile` and `board` turn the sections into
//! [`Rules`]. The supported subset, variant inheritance and what is warned about or refused
//! are in `docs/board-zrf.md`.
//!
//! Everything is bounded ([`MAX_ZRF_BYTES`], [`MAX_DEPTH`], [`MAX_NODES`],
//! [`MAX_EXPANDED_NODES`], [`MAX_MACRO_DEPTH`], [`MAX_MACRO_CALLS`], [`MAX_POSITIONS`], …):
//! no input makes the front end panic, hang or exhaust memory.

mod board;
mod compile;
mod expand;
mod sexpr;

use std::collections::HashMap;

use super::rules::{Rules, Span};
use sexpr::{Node, err};
use tilesmith_core::problem::quote;

/// The largest ZRF text read, in bytes.
pub const MAX_ZRF_BYTES: usize = 4 * 1024 * 1024;
/// The deepest nesting of lists, in the text and after macro expansion.
pub const MAX_DEPTH: usize = 128;
/// The most nodes (atoms, strings, lists) in the text.
pub const MAX_NODES: usize = 500_000;
/// The most nodes that macro expansion may build.
pub const MAX_EXPANDED_NODES: usize = 500_000;
/// The deepest nesting of macro calls (a macro calling a macro …): bounds recursion.
pub const MAX_MACRO_DEPTH: usize = 64;
/// The most macro calls expanded in one file.
pub const MAX_MACRO_CALLS: usize = 100_000;
/// The most positions on a board (before `kill-positions`).
pub const MAX_POSITIONS: usize = 4096;
/// The most directions (grid directions and `links` names together).
pub const MAX_DIRECTIONS: usize = 64;
/// The most players.
pub const MAX_PLAYERS: usize = 32;
/// The most piece types.
pub const MAX_PIECES: usize = 128;
/// The most piece attributes (a piece keeps them as bits of a `u32`).
pub const MAX_ATTRIBUTES: usize = 32;
/// The most block flags, and separately the most position flags.
pub const MAX_FLAGS: usize = 64;
/// The most move types.
pub const MAX_MOVE_TYPES: usize = 64;
/// The most zones.
pub const MAX_ZONES: usize = 128;
/// The most pieces `off N` may put in one reserve entry: the largest reserve count a level
/// may hold ([`crate::rules::MAX_RESERVE`]), so that a saved position loads.
pub const MAX_OFF: u32 = super::rules::MAX_RESERVE;
/// The most errors, and the most warnings, listed for one compile; later ones are counted in
/// one [`ZrfProblem::more`] line after them (`… and N more problems`, as every loader's report).
pub const MAX_PROBLEMS: usize = 100;

/// A problem in a ZRF file, at its line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZrfProblem {
    /// Where.
    pub span: Span,
    /// What, one line.
    pub message: String,
    /// False for an error (the variant cannot be played), true for a warning.
    pub warning: bool,
    /// 0 for a problem; for the line after [`MAX_PROBLEMS`], the number of problems it stands
    /// for, not listed ([`ZrfProblem::more`]).
    pub more: usize,
}

impl ZrfProblem {
    /// The line standing for `n` problems not listed (no place; `message` says how many).
    pub fn more(n: usize, warning: bool) -> Self {
        Self {
            span: Span::default(),
            message: format!("… and {n} more problem{}", if n == 1 { "" } else { "s" }),
            warning,
            more: n,
        }
    }
}

/// Adds `p` to `list`, listing at most [`MAX_PROBLEMS`] and counting the rest in one
/// [`ZrfProblem::more`] line at the end, so that a file of a million mistakes holds a report
/// of 101 lines.
pub(crate) fn push_capped(list: &mut Vec<ZrfProblem>, p: ZrfProblem) {
    let n = p.more.max(1);
    let full = list.len() >= MAX_PROBLEMS;
    match list.last_mut() {
        // One error among them makes the count an error's.
        Some(last) if last.more > 0 => {
            *last = ZrfProblem::more(last.more + n, last.warning && p.warning);
        }
        _ if full => list.push(ZrfProblem::more(n, p.warning)),
        _ => list.push(p),
    }
}

/// One `(game …)` or `(variant …)` of a file.
struct Entry {
    /// Its `(title …)`.
    title: String,
    /// Where the form starts.
    span: Span,
    /// Its items after the head word.
    items: Vec<Node>,
    /// For a variant: the index (in the entry list) of the game it inherits from.
    base: Option<usize>,
    /// It says `(default)`.
    default: bool,
}

/// The title Zillions uses for a separator line in its Variants menu, not a variant.
const SEPARATOR: &str = "-";

/// Reads and expands a text into its games and variants, with the warnings so far.
fn entries(text: &str) -> Result<(Vec<Entry>, Vec<ZrfProblem>), Vec<ZrfProblem>> {
    let top = sexpr::read(text).map_err(|e| vec![e])?;
    let (forms, warnings) = expand::expand(top).map_err(|e| vec![e])?;
    let mut out: Vec<Entry> = Vec::new();
    let mut errors = Vec::new();
    let mut game: Option<usize> = None;
    for form in forms {
        let span = form.span;
        let Some((head, rest)) = form.head() else {
            push_capped(
                &mut errors,
                err(
                    span,
                    "expected (game …), (variant …), (define …) or (version …) at the top level",
                ),
            );
            continue;
        };
        let is_game = match head.as_str() {
            "game" => true,
            "variant" => false,
            "version" => continue,
            _ => {
                push_capped(
                    &mut errors,
                    err(
                        span,
                        format!(
                            "unknown top-level form ({} …); expected game, variant, define or version",
                            quote(&head)
                        ),
                    ),
                );
                continue;
            }
        };
        let mut title = None;
        let mut default = false;
        for item in rest {
            match item.head() {
                Some((h, args)) if h == "title" => match args.first().and_then(Node::text) {
                    Some(t) if args.len() == 1 => title = Some(t.to_string()),
                    _ => push_capped(&mut errors, err(item.span, "(title …) needs one string")),
                },
                Some((h, _)) if h == "default" => default = true,
                _ => {}
            }
        }
        let Some(title) = title else {
            push_capped(
                &mut errors,
                err(span, format!("this ({head} …) has no (title …)")),
            );
            continue;
        };
        if is_game {
            if default {
                push_capped(
                    &mut errors,
                    err(
                        span,
                        "(default) marks a variant; the game itself is the default without it",
                    ),
                );
            }
            game = Some(out.len());
        } else if game.is_none() {
            push_capped(
                &mut errors,
                err(span, "a (variant …) must follow the (game …) it varies"),
            );
            continue;
        }
        out.push(Entry {
            title,
            span,
            items: rest.to_vec(),
            base: if is_game { None } else { game },
            default,
        });
    }
    if out.is_empty() && errors.is_empty() {
        push_capped(
            &mut errors,
            err(Span { line: 1, col: 1 }, "the file has no (game …)"),
        );
    }
    if errors.is_empty() {
        Ok((out, warnings))
    } else {
        Err(errors)
    }
}

/// The titles of the variants of a ZRF text: the `(game …)` first, then each `(variant …)`
/// in file order. A variant titled `"-"` is Zillions' separator line in its Variants menu
/// and is not listed.
///
/// # Errors
/// Syntax errors (unbalanced parentheses, unterminated strings, …), macro errors, and games
/// or variants without a title.
pub fn variants(text: &str) -> Result<Vec<String>, Vec<ZrfProblem>> {
    let (entries, _) = entries(text)?;
    Ok(entries
        .into_iter()
        .filter(|e| e.title != SEPARATOR)
        .map(|e| e.title)
        .collect())
}

/// Compiles one variant of a ZRF text: `variant` names it by title (ASCII case ignored);
/// `None` takes the `(default)` variant if the file marks one, else the `(game …)`.
/// Returns the rules and the warnings.
///
/// A variant inherits its game: each section it gives replaces the game's sections of the
/// same key (a piece by its name, an option by its name, all end conditions together, any
/// other section by its head word), see `docs/board-zrf.md`.
///
/// # Errors
/// Every error found (with the warnings), each at its line and column.
pub fn compile(
    text: &str,
    variant: Option<&str>,
) -> Result<(Rules, Vec<ZrfProblem>), Vec<ZrfProblem>> {
    let (entries, mut warnings) = entries(text)?;
    let chosen = match variant {
        Some(t) => entries
            .iter()
            .position(|e| e.title != SEPARATOR && e.title.eq_ignore_ascii_case(t)),
        None => {
            let defaults: Vec<usize> = (0..entries.len()).filter(|&i| entries[i].default).collect();
            if let Some(&second) = defaults.get(1) {
                push_capped(
                    &mut warnings,
                    ZrfProblem {
                        span: entries[second].span,
                        message: format!(
                            "a second (default) variant; the first, {}, is the default",
                            quote(&entries[defaults[0]].title)
                        ),
                        warning: true,
                        more: 0,
                    },
                );
            }
            defaults.first().copied().or(Some(0))
        }
    };
    let Some(chosen) = chosen else {
        let known: Vec<String> = entries
            .iter()
            .filter(|e| e.title != SEPARATOR)
            .map(|e| e.title.clone())
            .collect();
        let mut v = warnings;
        v.insert(
            0,
            err(
                Span { line: 1, col: 1 },
                format!(
                    "no variant titled {}; the variants are {}",
                    quote(variant.unwrap_or_default()),
                    compile::name_list(&known)
                ),
            ),
        );
        return Err(v);
    };
    let entry = &entries[chosen];
    let items = match entry.base {
        Some(b) => merge(&entries[b].items, &entry.items),
        None => entry.items.clone(),
    };
    compile::compile(&entry.title, entry.span, &items, warnings)
}

/// What a game section is replaced by in a variant: sections with the same key.
fn section_key(n: &Node) -> String {
    match n.head() {
        Some((h, args)) => match h.as_str() {
            // A piece replaces the game's piece of the same name.
            "piece" => {
                let name = args
                    .iter()
                    .find_map(|a| match a.head() {
                        Some((k, v)) if k == "name" => v.first().and_then(Node::text),
                        _ => None,
                    })
                    .unwrap_or_default();
                format!("piece {name}")
            }
            // An option replaces the game's option of the same name.
            "option" => format!(
                "option {}",
                args.first()
                    .and_then(Node::text)
                    .unwrap_or_default()
                    .to_ascii_lowercase()
            ),
            // End conditions are one section: a variant with any replaces all of them.
            "win-condition" | "loss-condition" | "draw-condition" | "count-condition" => {
                "conditions".to_string()
            }
            _ => h,
        },
        None => String::new(),
    }
}

/// The sections of a variant: its game's, where every section the variant gives replaces
/// those of the game with the same key (a piece by its name, an option by its name, the end
/// conditions as one group, any other section by its head word: `board`, `board-setup`,
/// `players`, `turn-order`, `move-priorities`, …), in the game's place; sections new to the
/// variant follow. `(default)` is never inherited.
fn merge(game: &[Node], variant: &[Node]) -> Vec<Node> {
    // The variant's sections by key, in order; a key's list is taken when first placed.
    let mut given: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, v) in variant.iter().enumerate() {
        given.entry(section_key(v)).or_default().push(i);
    }
    let mut placed = vec![false; variant.len()];
    let mut out = Vec::new();
    for g in game {
        if g.head().is_some_and(|(h, _)| h == "default") {
            continue;
        }
        match given.get_mut(&section_key(g)) {
            None => out.push(g.clone()),
            Some(list) => {
                for i in std::mem::take(list) {
                    placed[i] = true;
                    out.push(variant[i].clone());
                }
            }
        }
    }
    for (i, v) in variant.iter().enumerate() {
        if !placed[i] {
            out.push(v.clone());
        }
    }
    out
}
