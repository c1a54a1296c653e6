//! Compiling a game's sections (a variant already merged onto its game) into [`Rules`]:
//! players, turn order, pieces with their move and drop blocks, the setup, end conditions
//! and options. Names are resolved to ids here; an unknown name is an error naming it and
//! the known ones. Anything that would change play and is outside Tilesmith's subset is an
//! error; UI-only sections are ignored; options that stood for JavaScript in the source
//! project are warned about.

use std::collections::HashMap;

use super::board::{self, unknown};
use super::sexpr::{Kind, Node};
use super::{MAX_PLAYERS, MAX_PROBLEMS, ZrfProblem};
use crate::rules::{Loc, PosId, Rules, Span, TurnEntry};
use tilesmith_core::problem::quote;

mod cond;
mod end;
mod instr;
mod options;
mod pieces;
mod setup;

/// A table of names with their ids (indices). Lookup is exact first, then ignoring ASCII
/// case.
#[derive(Default)]
pub(crate) struct Names {
    /// The names, in order of definition.
    pub list: Vec<String>,
    exact: HashMap<String, usize>,
    folded: HashMap<String, usize>,
}

impl Names {
    /// The id of `name`.
    pub fn get(&self, name: &str) -> Option<usize> {
        self.get_exact(name)
            .or_else(|| self.folded.get(&name.to_ascii_lowercase()).copied())
    }

    /// The id of exactly `name`.
    pub fn get_exact(&self, name: &str) -> Option<usize> {
        self.exact.get(name).copied()
    }

    /// Adds `name` (if it is not there) and returns its id.
    pub fn insert(&mut self, name: &str) -> usize {
        if let Some(id) = self.get_exact(name) {
            return id;
        }
        let id = self.list.len();
        self.list.push(name.to_string());
        self.exact.insert(name.to_string(), id);
        self.folded.entry(name.to_ascii_lowercase()).or_insert(id);
        id
    }

    /// How many.
    pub fn len(&self) -> usize {
        self.list.len()
    }
}

/// Names for a one-line message: `a, b, c`, long names quoted, at most 24 and then how
/// many more.
pub(crate) fn name_list(names: &[String]) -> String {
    const SHOWN: usize = 24;
    let mut out: Vec<String> = names
        .iter()
        .take(SHOWN)
        .map(|n| {
            if n.is_empty()
                || n.chars().count() > 24
                || n.chars()
                    .any(|c| c.is_whitespace() || c.is_control() || c == ',')
            {
                quote(n)
            } else {
                n.clone()
            }
        })
        .collect();
    if names.len() > SHOWN {
        out.push(format!("… ({} in all)", names.len()));
    }
    if out.is_empty() {
        "(none)".to_string()
    } else {
        out.join(", ")
    }
}

/// Problems being collected.
pub(crate) struct Ctx {
    pub errors: Vec<ZrfProblem>,
    pub warnings: Vec<ZrfProblem>,
}

impl Ctx {
    /// An error at `at` (for macro output, the message says where the macro was called).
    pub fn error(&mut self, at: &Node, message: impl Into<String>) {
        self.push(at, message, false);
    }

    /// A warning at `at`.
    pub fn warn(&mut self, at: &Node, message: impl Into<String>) {
        self.push(at, message, true);
    }

    /// Lists the problem, or only counts it past [`MAX_PROBLEMS`] (its message is then not
    /// even formatted).
    fn push(&mut self, at: &Node, message: impl Into<String>, warning: bool) {
        let list = if warning {
            &mut self.warnings
        } else {
            &mut self.errors
        };
        let p = if list.len() < MAX_PROBLEMS {
            ZrfProblem {
                span: at.span,
                message: format!("{}{}", message.into(), at.site_note()),
                warning,
                more: 0,
            }
        } else {
            ZrfProblem::more(1, warning)
        };
        super::push_capped(list, p);
    }
}

/// Game sections that do not change play: ignored.
const IGNORED_SECTIONS: &[&str] = &[
    "title",
    "description",
    "history",
    "strategy",
    "notes",
    "help",
    "music",
    "opening-sound",
    "win-sound",
    "loss-sound",
    "draw-sound",
    "move-sound",
    "release-sound",
    "capture-sound",
    "drop-sound",
    "change-sound",
    "click-sound",
    "solution",
    "default",
    "engine",
    "version",
];

/// Options that only change Zillions' display or its AI: ignored.
const UI_OPTIONS: &[&str] = &[
    "animate captures",
    "animate drops",
    "animate moves",
    "smart moves",
    "prevent flipping",
    "show hints",
    "show moves list",
    "highlight goals",
    "board display",
    "progressive levels",
    "include off-pieces",
    "allow flipping",
];

/// The compiler's state for one variant.
struct C {
    ctx: Ctx,
    players: Names,
    pieces: Names,
    directions: Names,
    positions: Names,
    zones: Names,
    move_types: Names,
    flags: Names,
    position_flags: Names,
    attributes: Names,
    attribute_defaults: Vec<bool>,
}

/// Compiles the merged sections `items` of the game or variant titled `title` (written at
/// `span`). `warnings` are those found so far.
pub(crate) fn compile(
    title: &str,
    span: Span,
    items: &[Node],
    warnings: Vec<ZrfProblem>,
) -> Result<(Rules, Vec<ZrfProblem>), Vec<ZrfProblem>> {
    let mut c = C {
        ctx: Ctx {
            errors: Vec::new(),
            warnings,
        },
        players: Names::default(),
        pieces: Names::default(),
        directions: Names::default(),
        positions: Names::default(),
        zones: Names::default(),
        move_types: Names::default(),
        flags: Names::default(),
        position_flags: Names::default(),
        attributes: Names::default(),
        attribute_defaults: Vec::new(),
    };
    let game = Node {
        kind: Kind::List(Vec::new()),
        span,
        site: None,
    };
    let mut rules = Rules {
        title: title.to_string(),
        ..Rules::default()
    };

    let sections = game_sections(&mut c, items);
    if !c.players(sections.players, &game) {
        return Err(c.finish_errors());
    }
    rules.players = c.players.list.clone();

    // Piece names, attributes, move types and flags first: blocks refer to them in any order.
    for p in &sections.pieces {
        c.declare_piece(p);
    }
    for p in &sections.pieces {
        c.declare_in_blocks(p);
    }

    // The board.
    c.board(&sections.boards, &game, &mut rules);

    // Pieces.
    for p in &sections.pieces {
        if let Some(def) = c.piece(p) {
            rules.pieces.push(def);
        }
    }

    // Turn order and priorities.
    c.turns(sections.turn_order, sections.priorities, &mut rules);

    // Setup, ends, options.
    for s in &sections.setups {
        c.setup(s, &mut rules);
    }
    for e in &sections.ends {
        if let Some(end) = c.end_condition(e) {
            rules.ends.push(end);
        }
    }
    for o in &sections.options {
        c.option(o, &mut rules.options);
    }

    rules.move_types = c.move_types.list.clone();
    rules.flags = c.flags.list.clone();
    rules.position_flags = c.position_flags.list.clone();
    rules.attributes = c
        .attributes
        .list
        .iter()
        .cloned()
        .zip(c.attribute_defaults.iter().copied())
        .collect();

    if c.ctx.errors.is_empty() {
        let mut w = c.ctx.warnings;
        w.sort_by_key(|p| (p.more > 0, p.span.line, p.span.col));
        Ok((rules, w))
    } else {
        Err(c.finish_errors())
    }
}

/// The game's sections, sorted: the ones given at most once, the others in file order.
#[derive(Default)]
struct GameSections<'a> {
    players: Option<&'a Node>,
    turn_order: Option<&'a Node>,
    priorities: Option<&'a Node>,
    boards: Vec<&'a Node>,
    setups: Vec<&'a Node>,
    pieces: Vec<&'a Node>,
    options: Vec<&'a Node>,
    ends: Vec<&'a Node>,
}

/// Sorts the game's sections; an error for one given twice, ignored ones skipped, unknown
/// ones errors.
fn game_sections<'a>(c: &mut C, items: &'a [Node]) -> GameSections<'a> {
    let mut s = GameSections::default();
    for item in items {
        let Some((h, _)) = item.head() else {
            c.ctx.error(item, "expected a (…) section of the game");
            continue;
        };
        let slot = match h.as_str() {
            "players" => Some(&mut s.players),
            "turn-order" => Some(&mut s.turn_order),
            "move-priorities" => Some(&mut s.priorities),
            _ => None,
        };
        if let Some(slot) = slot {
            if slot.is_some() {
                c.ctx.error(item, format!("({h} …) is given twice"));
            } else {
                *slot = Some(item);
            }
            continue;
        }
        match h.as_str() {
            "board" => s.boards.push(item),
            "board-setup" => s.setups.push(item),
            "piece" => s.pieces.push(item),
            "option" => s.options.push(item),
            "win-condition" | "loss-condition" | "draw-condition" | "count-condition" => {
                s.ends.push(item)
            }
            s if IGNORED_SECTIONS.contains(&s) => {}
            _ => c.ctx.error(
                item,
                format!(
                    "unknown game section ({} …) is not supported by Tilesmith",
                    quote(&h)
                ),
            ),
        }
    }
    s
}

impl C {
    /// Reads `(players …)` (an error on `game` when there is none); false (after an error)
    /// when there are more than Tilesmith plays.
    fn players(&mut self, players: Option<&Node>, game: &Node) -> bool {
        match players {
            Some(p) => {
                for n in p.list().unwrap_or_default().iter().skip(1) {
                    match n.atom() {
                        Some(a) if a.starts_with('?') => self.ctx.error(
                            n,
                            format!("random player {} is not supported by Tilesmith", quote(a)),
                        ),
                        Some(a) if self.players.get(a).is_some() => self
                            .ctx
                            .error(n, format!("player {} is listed twice", quote(a))),
                        Some(a) => {
                            self.players.insert(a);
                        }
                        None => self.ctx.error(n, "a player is a name"),
                    }
                }
                if self.players.len() == 0 {
                    self.ctx.error(p, "(players …) names no player");
                }
                if self.players.len() > MAX_PLAYERS {
                    self.ctx.error(
                        p,
                        format!(
                            "more than {MAX_PLAYERS} players; Tilesmith plays at most that many"
                        ),
                    );
                    return false;
                }
            }
            None => self.ctx.error(game, "the game has no (players …)"),
        }
        true
    }

    /// Compiles the one `(board …)` (an error on `game` when there is none) into `rules`
    /// and the name tables.
    fn board(&mut self, boards: &[&Node], game: &Node, rules: &mut Rules) {
        match boards {
            [] => self.ctx.error(game, "the game has no (board …)"),
            [b, rest @ ..] => {
                for extra in rest {
                    self.ctx.error(extra, "(board …) is given twice");
                }
                let items = b.list().unwrap_or_default();
                let compiled = board::board(&mut self.ctx, b, &items[1..], &self.players);
                rules.board = compiled.shape;
                self.positions = compiled.positions;
                self.directions = compiled.directions;
                self.zones = compiled.zones;
            }
        }
    }

    /// The turn order (each player once in order when the game gives none) and the move
    /// priorities.
    fn turns(&mut self, turn_order: Option<&Node>, priorities: Option<&Node>, rules: &mut Rules) {
        rules.turn_order = (0..self.players.len())
            .map(|p| TurnEntry {
                player: p as u8,
                move_type: None,
            })
            .collect();
        if let Some(t) = turn_order {
            self.turn_order(t, rules);
        }
        if let Some(p) = priorities {
            for n in p.list().unwrap_or_default().iter().skip(1) {
                if let Some(t) = self.move_type(n) {
                    rules.move_priorities.push(t as u8);
                }
            }
        }
    }
}

impl C {
    /// Errors first then warnings, each sorted by place.
    fn finish_errors(&mut self) -> Vec<ZrfProblem> {
        // Each list in file order, the line counting the rest last; the warnings after the
        // errors, within one report of at most MAX_PROBLEMS lines and that count.
        let mut e = std::mem::take(&mut self.ctx.errors);
        e.sort_by_key(|p| (p.more > 0, p.span.line, p.span.col));
        let mut w = std::mem::take(&mut self.ctx.warnings);
        w.sort_by_key(|p| (p.more > 0, p.span.line, p.span.col));
        let mut out = Vec::with_capacity(e.len() + 1);
        for p in e.into_iter().chain(w) {
            super::push_capped(&mut out, p);
        }
        out
    }

    fn lookup(&mut self, what: &str, n: &Node) -> Option<usize> {
        let table = match what {
            "player" => &self.players,
            "piece type" => &self.pieces,
            "zone" => &self.zones,
            "flag" => &self.flags,
            "position flag" => &self.position_flags,
            "attribute" => &self.attributes,
            "position" => &self.positions,
            _ => &self.directions,
        };
        match n.atom().and_then(|a| table.get(a)) {
            Some(id) => Some(id),
            None => {
                let m = unknown(what, n, &table.list);
                self.ctx.error(n, m);
                None
            }
        }
    }

    /// A location argument: a direction or a position name.
    fn loc(&mut self, n: &Node) -> Option<Loc> {
        let a = n.atom();
        if let Some(d) = a.and_then(|a| self.directions.get(a)) {
            return Some(Loc::Dir(d as u8));
        }
        if let Some(p) = a.and_then(|a| self.positions.get(a)) {
            return Some(Loc::Pos(p as PosId));
        }
        let shown = n.text().map(quote).unwrap_or_else(|| "(…)".to_string());
        self.ctx.error(
            n,
            format!(
                "unknown direction or position {shown}; directions: {}; positions: {}",
                name_list(&self.directions.list),
                name_list(&self.positions.list)
            ),
        );
        None
    }

    /// An optional location argument `rest` (none: the current position); more than one is
    /// an error at `at`.
    fn opt_loc(&mut self, at: &Node, kw: &str, rest: &[Node]) -> Option<Loc> {
        match rest {
            [] => Some(Loc::Here),
            [x] => self.loc(x),
            _ => {
                self.ctx
                    .error(at, format!("too many arguments for ({kw} …)"));
                None
            }
        }
    }
}
