//! Compiling a game's sections (a variant already merged onto its game) into [`Rules`]:
//! players, turn order, pieces with their move and drop blocks, the setup, end conditions
//! and options. Names are resolved to ids here; an unknown name is an error naming it and
//! the known ones. Anything that would change play and is outside Tilesmith's subset is an
//! error; UI-only sections are ignored; options that stood for JavaScript in the source
//! project are warned about.

use std::collections::HashMap;

use super::board::{self, int, unknown};
use super::sexpr::{Kind, Node};
use super::{
    MAX_ATTRIBUTES, MAX_FLAGS, MAX_MOVE_TYPES, MAX_OFF, MAX_PIECES, MAX_PLAYERS, MAX_PROBLEMS,
    ZrfProblem,
};
use crate::kind::board::rules::{
    AddKind, Cond, EndCondition, EndTest, GoTarget, Instr, Loc, MoveDef, Options, Outcome,
    PassTurn, PieceDef, Place, PosId, Rules, SetupEntry, Span, TurnEntry,
};
use crate::problem::quote;

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
        if self.errors.len() < MAX_PROBLEMS {
            self.errors.push(ZrfProblem {
                span: at.span,
                message: format!("{}{}", message.into(), at.site_note()),
                warning: false,
            });
        }
    }

    /// A warning at `at`.
    pub fn warn(&mut self, at: &Node, message: impl Into<String>) {
        if self.warnings.len() < MAX_PROBLEMS {
            self.warnings.push(ZrfProblem {
                span: at.span,
                message: format!("{}{}", message.into(), at.site_note()),
                warning: true,
            });
        }
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

    // Sort the sections.
    let mut players = None;
    let mut turn_order = None;
    let mut priorities = None;
    let mut boards = Vec::new();
    let mut setups = Vec::new();
    let mut pieces = Vec::new();
    let mut options = Vec::new();
    let mut ends = Vec::new();
    for item in items {
        let Some((h, _)) = item.head() else {
            c.ctx.error(item, "expected a (…) section of the game");
            continue;
        };
        let slot = match h.as_str() {
            "players" => Some(&mut players),
            "turn-order" => Some(&mut turn_order),
            "move-priorities" => Some(&mut priorities),
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
            "board" => boards.push(item),
            "board-setup" => setups.push(item),
            "piece" => pieces.push(item),
            "option" => options.push(item),
            "win-condition" | "loss-condition" | "draw-condition" | "count-condition" => {
                ends.push(item)
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

    // Players.
    match players {
        Some(p) => {
            for n in p.list().unwrap_or_default().iter().skip(1) {
                match n.atom() {
                    Some(a) if a.starts_with('?') => c.ctx.error(
                        n,
                        format!("random player {} is not supported by Tilesmith", quote(a)),
                    ),
                    Some(a) if c.players.get(a).is_some() => c
                        .ctx
                        .error(n, format!("player {} is listed twice", quote(a))),
                    Some(a) => {
                        c.players.insert(a);
                    }
                    None => c.ctx.error(n, "a player is a name"),
                }
            }
            if c.players.len() == 0 {
                c.ctx.error(p, "(players …) names no player");
            }
            if c.players.len() > MAX_PLAYERS {
                c.ctx.error(
                    p,
                    format!("more than {MAX_PLAYERS} players; Tilesmith plays at most that many"),
                );
                return Err(c.finish_errors());
            }
        }
        None => c.ctx.error(&game, "the game has no (players …)"),
    }
    rules.players = c.players.list.clone();

    // Piece names, attributes, move types and flags first: blocks refer to them in any order.
    for p in &pieces {
        c.declare_piece(p);
    }
    for p in &pieces {
        c.declare_in_blocks(p);
    }

    // The board.
    match boards.as_slice() {
        [] => c.ctx.error(&game, "the game has no (board …)"),
        [b, rest @ ..] => {
            for extra in rest {
                c.ctx.error(extra, "(board …) is given twice");
            }
            let items = b.list().unwrap_or_default();
            let compiled = board::board(&mut c.ctx, b, &items[1..], &c.players);
            rules.board = compiled.shape;
            c.positions = compiled.positions;
            c.directions = compiled.directions;
            c.zones = compiled.zones;
        }
    }

    // Pieces.
    for p in &pieces {
        if let Some(def) = c.piece(p) {
            rules.pieces.push(def);
        }
    }

    // Turn order and priorities.
    rules.turn_order = (0..c.players.len())
        .map(|p| TurnEntry {
            player: p as u8,
            move_type: None,
        })
        .collect();
    if let Some(t) = turn_order {
        c.turn_order(t, &mut rules);
    }
    if let Some(p) = priorities {
        for n in p.list().unwrap_or_default().iter().skip(1) {
            if let Some(t) = c.move_type(n) {
                rules.move_priorities.push(t as u8);
            }
        }
    }

    // Setup, ends, options.
    for s in &setups {
        c.setup(s, &mut rules);
    }
    for e in &ends {
        if let Some(end) = c.end_condition(e) {
            rules.ends.push(end);
        }
    }
    for o in &options {
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
        w.sort_by_key(|p| (p.span.line, p.span.col));
        Ok((rules, w))
    } else {
        Err(c.finish_errors())
    }
}

/// The condition keywords that take an optional location and nothing else.
const LOC_CONDS: &[&str] = &[
    "empty?",
    "friend?",
    "enemy?",
    "last-from?",
    "last-to?",
    "attacked?",
    "marked?",
];

/// ZRF conditions Tilesmith does not implement.
const UNSUPPORTED_CONDS: &[&str] = &[
    "neutral?",
    "defended?",
    "position?",
    "not-neutral?",
    "not-defended?",
    "not-position?",
];

/// ZRF instructions Tilesmith does not implement.
const UNSUPPORTED_INSTRS: &[&str] = &["opposite", "unlink", "link"];

impl C {
    /// Errors first then warnings, each sorted by place.
    fn finish_errors(&mut self) -> Vec<ZrfProblem> {
        let mut e = std::mem::take(&mut self.ctx.errors);
        e.sort_by_key(|p| (p.span.line, p.span.col));
        let mut w = std::mem::take(&mut self.ctx.warnings);
        w.sort_by_key(|p| (p.span.line, p.span.col));
        e.extend(w);
        e
    }

    /// Registers a piece's name and its attributes.
    fn declare_piece(&mut self, p: &Node) {
        let items = p.list().unwrap_or_default();
        let name = items.iter().skip(1).find_map(|i| match i.head() {
            Some((h, args)) if h == "name" => Some((i, args)),
            _ => None,
        });
        let Some((name_node, args)) = name else {
            self.ctx.error(p, "the piece has no (name …)");
            return;
        };
        let Some(n) = args
            .first()
            .and_then(Node::atom)
            .filter(|_| args.len() == 1)
        else {
            self.ctx
                .error(name_node, "(name …) of a piece needs one name");
            return;
        };
        if self.pieces.get(n).is_some() {
            self.ctx
                .error(name_node, format!("piece {} is defined twice", quote(n)));
            return;
        }
        if self.pieces.len() >= MAX_PIECES {
            self.ctx.error(
                p,
                format!("more than {MAX_PIECES} piece types; Tilesmith plays at most that many"),
            );
            return;
        }
        self.pieces.insert(n);
        for i in items.iter().skip(1) {
            if let Some((h, args)) = i.head()
                && h == "attribute"
            {
                let value = args
                    .get(1)
                    .and_then(Node::atom)
                    .map(str::to_ascii_lowercase);
                let (Some(a), Some(v), 2) = (args.first().and_then(Node::atom), value, args.len())
                else {
                    self.ctx
                        .error(i, "(attribute name default) needs a name and true or false");
                    continue;
                };
                let v = match v.as_str() {
                    "true" => true,
                    "false" => false,
                    _ => {
                        self.ctx.error(i, "an attribute's default is true or false");
                        continue;
                    }
                };
                match self.attributes.get(a) {
                    Some(id) if self.attribute_defaults[id] != v => self.ctx.warn(
                        i,
                        format!(
                            "attribute {} was declared with default {}; that default is used for every piece type",
                            quote(a),
                            self.attribute_defaults[id]
                        ),
                    ),
                    Some(_) => {}
                    None if self.attributes.len() >= MAX_ATTRIBUTES => self
                        .ctx
                        .error(i, format!("more than {MAX_ATTRIBUTES} attributes")),
                    None => {
                        self.attributes.insert(a);
                        self.attribute_defaults.push(v);
                    }
                }
            }
        }
    }

    /// Registers the move types and the flags a piece's blocks set, so that any block (and
    /// the turn order) may refer to them.
    fn declare_in_blocks(&mut self, p: &Node) {
        for sec in p.list().unwrap_or_default().iter().skip(1) {
            let Some((h, args)) = sec.head() else {
                continue;
            };
            if h != "moves" && h != "drops" {
                continue;
            }
            for b in args {
                match b.head() {
                    Some((h, args)) if h == "move-type" => {
                        if let (Some(t), 1) = (args.first().and_then(Node::atom), args.len()) {
                            if self.move_types.get(t).is_none()
                                && self.move_types.len() >= MAX_MOVE_TYPES
                            {
                                self.ctx
                                    .error(b, format!("more than {MAX_MOVE_TYPES} move types"));
                            } else {
                                self.move_types.insert(t);
                            }
                        }
                    }
                    _ => self.declare_flags(b),
                }
            }
        }
    }

    /// Registers the flags set anywhere inside `n`.
    fn declare_flags(&mut self, n: &Node) {
        let Some(items) = n.list() else { return };
        if let Some((h, args)) = n.head() {
            let table = match h.as_str() {
                "set-flag" => Some(&mut self.flags),
                "set-position-flag" => Some(&mut self.position_flags),
                _ => None,
            };
            if let Some(table) = table
                && let Some(f) = args.first().and_then(Node::atom)
            {
                if table.get(f).is_none() && table.len() >= MAX_FLAGS {
                    self.ctx.error(n, format!("more than {MAX_FLAGS} flags"));
                } else {
                    table.insert(f);
                }
            }
        }
        for i in items {
            self.declare_flags(i);
        }
    }

    /// Compiles one `(piece …)`.
    fn piece(&mut self, p: &Node) -> Option<PieceDef> {
        let items = p.list().unwrap_or_default();
        let name = items.iter().skip(1).find_map(|i| match i.head() {
            Some((h, args)) if h == "name" => args.first().and_then(Node::atom),
            _ => None,
        })?;
        let mut def = PieceDef {
            name: name.to_string(),
            span: p.span,
            ..PieceDef::default()
        };
        for sec in items.iter().skip(1) {
            let Some((h, args)) = sec.head() else {
                self.ctx.error(sec, "expected a (…) section of the piece");
                continue;
            };
            match h.as_str() {
                "name" | "attribute" | "image" | "help" | "description" | "notes" | "value"
                | "dummy" => {}
                "moves" | "drops" => {
                    let mut move_type = None;
                    for b in args {
                        match b.head() {
                            Some((h, targs)) if h == "move-type" => {
                                match (targs.first(), targs.len()) {
                                    (Some(t), 1) => move_type = self.move_type(t),
                                    _ => self.ctx.error(b, "(move-type …) needs one name"),
                                }
                            }
                            _ => {
                                let Some(block) = b.list() else {
                                    self.ctx.error(
                                        b,
                                        format!(
                                            "expected a move block ( … ) in ({h} …), found {}",
                                            quote(b.text().unwrap_or_default())
                                        ),
                                    );
                                    continue;
                                };
                                let mut instrs = Vec::new();
                                self.instrs(block, &mut instrs);
                                let m = MoveDef {
                                    move_type: move_type.map(|t| t as u8),
                                    block: instrs,
                                    span: b.site.unwrap_or(b.span),
                                };
                                if h == "moves" {
                                    def.moves.push(m);
                                } else {
                                    def.drops.push(m);
                                }
                            }
                        }
                    }
                }
                _ => self.ctx.error(
                    sec,
                    format!(
                        "unknown piece section ({} …) is not supported by Tilesmith",
                        quote(&h)
                    ),
                ),
            }
        }
        Some(def)
    }

    /// A move type named by `n`.
    fn move_type(&mut self, n: &Node) -> Option<usize> {
        match n.atom().and_then(|a| self.move_types.get(a)) {
            Some(t) => Some(t),
            None => {
                self.ctx.error(
                    n,
                    format!(
                        "{} (move types are declared by (move-type …) in a piece's moves or drops)",
                        unknown("move type", n, &self.move_types.list)
                    ),
                );
                None
            }
        }
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

    /// The instructions of a block (or of an `if`/`while` body) onto `out`.
    fn instrs(&mut self, items: &[Node], out: &mut Vec<Instr>) {
        for item in items {
            if let Some(i) = self.instr(item) {
                out.push(i);
            }
        }
    }

    fn instr(&mut self, n: &Node) -> Option<Instr> {
        let sp = n.span;
        match &n.kind {
            Kind::Str(s) => {
                self.ctx
                    .error(n, format!("a string {} is not an instruction", quote(s)));
                None
            }
            Kind::Atom(a) => {
                let lower = a.to_ascii_lowercase();
                let add = |kind| Instr::Add {
                    kind,
                    promote: Vec::new(),
                    continue_type: None,
                    span: sp,
                };
                Some(match lower.as_str() {
                    "add" => add(AddKind::Add),
                    "add-copy" => add(AddKind::Copy),
                    "add-partial" => add(AddKind::Partial),
                    "add-copy-partial" => add(AddKind::CopyPartial),
                    "cascade" => Instr::Cascade(sp),
                    "capture" => Instr::Capture(Loc::Here, sp),
                    "flip" => Instr::Flip(Loc::Here, sp),
                    "change-owner" => Instr::ChangeOwner(Loc::Here, sp),
                    "from" => Instr::From(Loc::Here, sp),
                    "to" => Instr::To(Loc::Here, sp),
                    "mark" => Instr::Mark(Loc::Here, sp),
                    "back" => Instr::Back(sp),
                    "else" => {
                        self.ctx.error(n, "else outside (if …)");
                        return None;
                    }
                    "verify" | "if" | "while" | "set-flag" | "set-position-flag"
                    | "change-type" | "create" | "set-attribute" | "go" => {
                        self.ctx
                            .error(n, format!("{lower} needs its arguments: ({lower} …)"));
                        return None;
                    }
                    _ => {
                        if let Some(d) = self.directions.get(a) {
                            Instr::Step(d as u8, sp)
                        } else if let Some(p) = self.positions.get(a) {
                            Instr::Goto(p as PosId, sp)
                        } else {
                            self.ctx.error(
                                n,
                                format!(
                                    "{} in a move block is not supported by Tilesmith: it is not a direction, position or instruction; directions: {}",
                                    quote(a),
                                    name_list(&self.directions.list)
                                ),
                            );
                            return None;
                        }
                    }
                })
            }
            Kind::List(_) => {
                let Some((h, args)) = n.head() else {
                    self.ctx.error(
                        n,
                        "a list in a move block must start with an instruction word",
                    );
                    return None;
                };
                self.list_instr(n, &h, args)
            }
        }
    }

    fn list_instr(&mut self, n: &Node, h: &str, args: &[Node]) -> Option<Instr> {
        let sp = n.span;
        let one_cond = |c: &mut C, args: &[Node]| -> Option<Cond> {
            match args {
                [x] => c.cond(x),
                _ => {
                    c.ctx.error(n, format!("({h} …) needs one condition"));
                    None
                }
            }
        };
        match h {
            "verify" => Some(Instr::Verify(one_cond(self, args)?, sp)),
            "if" => {
                let Some((c, rest)) = args.split_first() else {
                    self.ctx.error(n, "(if condition …) needs a condition");
                    return None;
                };
                let c = self.cond(c);
                let split = rest
                    .iter()
                    .position(|x| x.atom().is_some_and(|a| a.eq_ignore_ascii_case("else")));
                let (then, other) = match split {
                    Some(k) => (&rest[..k], &rest[k + 1..]),
                    None => (rest, &rest[rest.len()..]),
                };
                let mut t = Vec::new();
                self.instrs(then, &mut t);
                let mut e = Vec::new();
                self.instrs(other, &mut e);
                Some(Instr::If(c?, t, e, sp))
            }
            "while" => {
                let Some((c, rest)) = args.split_first() else {
                    self.ctx.error(n, "(while condition …) needs a condition");
                    return None;
                };
                let c = self.cond(c);
                let mut body = Vec::new();
                self.instrs(rest, &mut body);
                Some(Instr::While(c?, body, sp))
            }
            "set-flag" => match args {
                [f, c] => {
                    let f = self.lookup("flag", f);
                    let c = self.cond(c);
                    Some(Instr::SetFlag(f? as u8, c?, sp))
                }
                _ => {
                    self.ctx
                        .error(n, "(set-flag name condition) needs a name and a condition");
                    None
                }
            },
            "set-position-flag" => {
                if args.len() < 2 || args.len() > 3 {
                    self.ctx.error(
                        n,
                        "(set-position-flag name condition [position]) needs a name and a condition",
                    );
                    return None;
                }
                let f = self.lookup("position flag", &args[0]);
                let c = self.cond(&args[1]);
                let l = self.opt_loc(n, h, &args[2..]);
                Some(Instr::SetPositionFlag(f? as u8, c?, l?, sp))
            }
            "add" | "add-copy" | "add-partial" | "add-copy-partial" => {
                let kind = match h {
                    "add" => AddKind::Add,
                    "add-copy" => AddKind::Copy,
                    "add-partial" => AddKind::Partial,
                    _ => AddKind::CopyPartial,
                };
                let partial = matches!(kind, AddKind::Partial | AddKind::CopyPartial);
                let mut promote = Vec::new();
                let mut continue_type = None;
                let mut ok = true;
                for a in args {
                    let name = a.atom();
                    if let Some(p) = name.and_then(|x| self.pieces.get(x)) {
                        promote.push(p as u8);
                    } else if let Some(t) = name.and_then(|x| self.move_types.get(x))
                        && partial
                        && continue_type.is_none()
                    {
                        continue_type = Some(t as u8);
                    } else {
                        ok = false;
                        let m = if partial {
                            format!(
                                "{}; move types: {}",
                                unknown("piece type", a, &self.pieces.list),
                                name_list(&self.move_types.list)
                            )
                        } else {
                            unknown("piece type", a, &self.pieces.list)
                        };
                        self.ctx.error(a, m);
                    }
                }
                ok.then_some(Instr::Add {
                    kind,
                    promote,
                    continue_type,
                    span: sp,
                })
            }
            "cascade" => {
                if !args.is_empty() {
                    self.ctx.error(n, "cascade takes no arguments");
                }
                Some(Instr::Cascade(sp))
            }
            "back" => {
                if !args.is_empty() {
                    self.ctx.error(n, "back takes no arguments");
                }
                Some(Instr::Back(sp))
            }
            "capture" => Some(Instr::Capture(self.opt_loc(n, h, args)?, sp)),
            "flip" => Some(Instr::Flip(self.opt_loc(n, h, args)?, sp)),
            "change-owner" => Some(Instr::ChangeOwner(self.opt_loc(n, h, args)?, sp)),
            "from" => Some(Instr::From(self.opt_loc(n, h, args)?, sp)),
            "to" => Some(Instr::To(self.opt_loc(n, h, args)?, sp)),
            "mark" => Some(Instr::Mark(self.opt_loc(n, h, args)?, sp)),
            "go" => {
                let t = match args {
                    [t] => t.atom().map(str::to_ascii_lowercase),
                    _ => None,
                };
                let target = match t.as_deref() {
                    Some("from") => GoTarget::From,
                    Some("to") => GoTarget::To,
                    Some("mark") => GoTarget::Mark,
                    Some("last-from") => GoTarget::LastFrom,
                    Some("last-to") => GoTarget::LastTo,
                    _ => {
                        self.ctx
                            .error(n, "(go …) takes one of from, to, mark, last-from, last-to");
                        return None;
                    }
                };
                Some(Instr::Go(target, sp))
            }
            "change-type" => {
                let Some((t, rest)) = args.split_first() else {
                    self.ctx
                        .error(n, "(change-type Type [position]) needs a piece type");
                    return None;
                };
                let t = self.lookup("piece type", t);
                let l = self.opt_loc(n, h, rest);
                Some(Instr::ChangeType(t? as u8, l?, sp))
            }
            "create" => {
                let mut rest = args;
                let mut owner = None;
                if let [p, t, ..] = args
                    && let Some(pl) = p.atom().and_then(|a| self.players.get(a))
                    && t.atom().and_then(|a| self.pieces.get(a)).is_some()
                {
                    owner = Some(pl as u8);
                    rest = &args[1..];
                }
                let Some((t, rest)) = rest.split_first() else {
                    self.ctx
                        .error(n, "(create [Player] Type [position]) needs a piece type");
                    return None;
                };
                let t = self.lookup("piece type", t);
                let l = self.opt_loc(n, h, rest);
                Some(Instr::Create(owner, t? as u8, l?, sp))
            }
            "set-attribute" => {
                if args.len() < 2 || args.len() > 3 {
                    self.ctx.error(
                        n,
                        "(set-attribute name condition [position]) needs a name and a condition",
                    );
                    return None;
                }
                let a = self.lookup("attribute", &args[0]);
                let c = self.cond(&args[1]);
                let l = self.opt_loc(n, h, &args[2..]);
                Some(Instr::SetAttribute(a? as u8, c?, l?, sp))
            }
            _ if UNSUPPORTED_INSTRS.contains(&h) => {
                self.ctx
                    .error(n, format!("({h} …) is not supported by Tilesmith"));
                None
            }
            _ => {
                self.ctx.error(
                    n,
                    format!(
                        "({} …) in a move block is not supported by Tilesmith",
                        quote(h)
                    ),
                );
                None
            }
        }
    }

    /// A condition (of `verify`, `if`, `while`, a flag value).
    fn cond(&mut self, n: &Node) -> Option<Cond> {
        match &n.kind {
            Kind::Str(_) => {
                self.ctx.error(n, "a string is not a condition");
                None
            }
            Kind::Atom(a) => {
                let lower = a.to_ascii_lowercase();
                match lower.as_str() {
                    "true" => return Some(Cond::True),
                    "false" => return Some(Cond::False),
                    _ => {}
                }
                let (negated, base) = negation(&lower);
                if LOC_CONDS.contains(&base) {
                    let c = loc_cond(base, Loc::Here);
                    return Some(if negated { Cond::Not(Box::new(c)) } else { c });
                }
                self.cond_error(n, &lower);
                None
            }
            Kind::List(_) => {
                let Some((h, args)) = n.head() else {
                    self.ctx
                        .error(n, "a condition list must start with a condition word");
                    return None;
                };
                match h.as_str() {
                    "not" => {
                        return match args {
                            [x] => Some(Cond::Not(Box::new(self.cond(x)?))),
                            _ => {
                                self.ctx.error(n, "(not …) takes one condition");
                                None
                            }
                        };
                    }
                    "and" | "or" => {
                        if args.is_empty() {
                            self.ctx.error(n, format!("({h} …) needs conditions"));
                            return None;
                        }
                        let v: Vec<Option<Cond>> = args.iter().map(|x| self.cond(x)).collect();
                        let v: Option<Vec<Cond>> = v.into_iter().collect();
                        let v = v?;
                        return Some(if h == "and" {
                            Cond::And(v)
                        } else {
                            Cond::Or(v)
                        });
                    }
                    _ => {}
                }
                let (negated, base) = negation(&h);
                let c = if LOC_CONDS.contains(&base) {
                    loc_cond(base, self.opt_loc(n, &h, args)?)
                } else {
                    match base {
                        "piece?" | "in-zone?" | "position-flag?" | "attribute?" => {
                            let Some((first, rest)) = args.split_first() else {
                                self.ctx
                                    .error(n, format!("({h} name [position]) needs a name"));
                                return None;
                            };
                            let what = match base {
                                "piece?" => "piece type",
                                "in-zone?" => "zone",
                                "position-flag?" => "position flag",
                                _ => "attribute",
                            };
                            let id = self.lookup(what, first);
                            let l = self.opt_loc(n, &h, rest);
                            let (id, l) = (id? as u8, l?);
                            match base {
                                "piece?" => Cond::Piece(id, l),
                                "in-zone?" => Cond::InZone(id, l),
                                "position-flag?" => Cond::PositionFlag(id, l),
                                _ => Cond::Attribute(id, l),
                            }
                        }
                        "on-board?" => match args {
                            [x] => Cond::OnBoard(self.loc(x)?),
                            _ => {
                                self.ctx.error(
                                    n,
                                    "(on-board? direction-or-position) takes one argument",
                                );
                                return None;
                            }
                        },
                        "flag?" => match args {
                            [x] => Cond::Flag(self.lookup("flag", x)? as u8),
                            _ => {
                                self.ctx.error(n, "(flag? name) takes one flag name");
                                return None;
                            }
                        },
                        _ => {
                            self.cond_error(n, &h);
                            return None;
                        }
                    }
                };
                Some(if negated { Cond::Not(Box::new(c)) } else { c })
            }
        }
    }

    fn cond_error(&mut self, n: &Node, word: &str) {
        let (_, base) = negation(word);
        let m = if UNSUPPORTED_CONDS.contains(&word) {
            format!("the condition {word} is not supported by Tilesmith")
        } else if matches!(
            base,
            "piece?" | "in-zone?" | "position-flag?" | "attribute?" | "on-board?" | "flag?"
        ) {
            format!("{word} needs its arguments: ({word} …)")
        } else {
            format!(
                "the condition {} is not supported by Tilesmith",
                quote(word)
            )
        };
        self.ctx.error(n, m);
    }

    /// `(turn-order …)`.
    fn turn_order(&mut self, t: &Node, rules: &mut Rules) {
        let mut entries = Vec::new();
        let mut repeat = None;
        for e in t.list().unwrap_or_default().iter().skip(1) {
            match &e.kind {
                Kind::Atom(a) if a.eq_ignore_ascii_case("repeat") => {
                    if repeat.is_some() {
                        self.ctx.error(e, "repeat is given twice in the turn order");
                    }
                    repeat = Some(entries.len());
                }
                Kind::Atom(_) => {
                    if let Some(p) = self.lookup("player", e) {
                        entries.push(TurnEntry {
                            player: p as u8,
                            move_type: None,
                        });
                    }
                }
                Kind::List(v) if v.len() == 2 => {
                    let p = self.lookup("player", &v[0]);
                    let m = self.move_type(&v[1]);
                    if let (Some(p), Some(m)) = (p, m) {
                        entries.push(TurnEntry {
                            player: p as u8,
                            move_type: Some(m as u8),
                        });
                    }
                }
                _ => self.ctx.error(
                    e,
                    "a turn-order entry is a player, (player move-type) or repeat; anything else is not supported by Tilesmith",
                ),
            }
        }
        if entries.is_empty() {
            self.ctx.error(t, "the turn order names no player");
            return;
        }
        if repeat == Some(entries.len()) {
            self.ctx
                .error(t, "repeat ends the turn order: nothing to repeat");
        }
        rules.repeat_from = repeat.unwrap_or(0);
        rules.turn_order = entries;
    }

    /// `(board-setup (Player (Type pos… [off N]) …) …)`.
    fn setup(&mut self, s: &Node, rules: &mut Rules) {
        let mut taken: HashMap<PosId, Span> = rules
            .setup
            .iter()
            .filter_map(|e| match e.place {
                Place::At(p) => Some((p, Span::default())),
                Place::Off(_) => None,
            })
            .collect();
        for pl in s.list().unwrap_or_default().iter().skip(1) {
            let Some((first, groups)) = pl.list().and_then(<[Node]>::split_first) else {
                self.ctx
                    .error(pl, "a board-setup entry is (Player (Type position …) …)");
                continue;
            };
            let Some(player) = self.lookup("player", first) else {
                continue;
            };
            for g in groups {
                let Some((tn, places)) = g.list().and_then(<[Node]>::split_first) else {
                    self.ctx.error(g, "expected (Type position … [off N])");
                    continue;
                };
                let Some(piece) = self.lookup("piece type", tn) else {
                    continue;
                };
                let mut k = 0;
                while k < places.len() {
                    let p = &places[k];
                    if p.atom().is_some_and(|a| a.eq_ignore_ascii_case("off")) {
                        let n = places.get(k + 1).and_then(int);
                        match n {
                            Some(n) if (0..=i64::from(MAX_OFF)).contains(&n) => {
                                rules.setup.push(SetupEntry {
                                    player: player as u8,
                                    piece: piece as u8,
                                    place: Place::Off(n as u32),
                                });
                            }
                            _ => self
                                .ctx
                                .error(p, format!("off needs a count from 0 to {MAX_OFF}: off N")),
                        }
                        k += 2;
                        continue;
                    }
                    k += 1;
                    let Some(pos) = self.lookup("position", p) else {
                        continue;
                    };
                    let pos = pos as PosId;
                    if let Some(prev) = taken.insert(pos, p.span) {
                        let at = if prev == Span::default() {
                            String::new()
                        } else {
                            format!(" at {}:{}", prev.line, prev.col)
                        };
                        self.ctx.error(
                            p,
                            format!(
                                "{} already has a piece in the setup{at}",
                                quote(p.atom().unwrap_or_default())
                            ),
                        );
                        continue;
                    }
                    rules.setup.push(SetupEntry {
                        player: player as u8,
                        piece: piece as u8,
                        place: Place::At(pos),
                    });
                }
            }
        }
    }

    /// `(win-condition (Player…) test)` and the loss, draw and count ones
    /// (`(count-condition (Player…) test)`: when the test holds for a listed player, the
    /// player with the most pieces on the board wins, a tie draws).
    fn end_condition(&mut self, e: &Node) -> Option<EndCondition> {
        let (h, args) = e.head()?;
        let outcome = match h.as_str() {
            "win-condition" => Outcome::Win,
            "loss-condition" => Outcome::Loss,
            "count-condition" => Outcome::Count,
            _ => Outcome::Draw,
        };
        let (players, test) = match args {
            [ps, test] => {
                let names: Vec<&Node> = match &ps.kind {
                    Kind::List(v) => v.iter().collect(),
                    _ => vec![ps],
                };
                let mut players = Vec::new();
                for p in names {
                    players.push(self.lookup("player", p)? as u8);
                }
                (players, test)
            }
            [test] => ((0..self.players.len() as u8).collect(), test),
            _ => {
                self.ctx.error(
                    e,
                    format!("({h} (Players …) test) needs the players and one test"),
                );
                return None;
            }
        };
        let test = self.end_test(test)?;
        Some(EndCondition {
            outcome,
            players,
            test,
            span: e.span,
        })
    }

    fn end_test(&mut self, n: &Node) -> Option<EndTest> {
        if let Some(a) = n.atom() {
            return match a.to_ascii_lowercase().as_str() {
                "stalemated" => Some(EndTest::Stalemated),
                "repetition" => Some(EndTest::Repetition),
                w => {
                    self.ctx.error(
                        n,
                        format!("the end test {} is not supported by Tilesmith", quote(w)),
                    );
                    None
                }
            };
        }
        let Some((h, args)) = n.head() else {
            self.ctx.error(n, "expected an end test");
            return None;
        };
        match h.as_str() {
            "pieces-remaining" => {
                let count = args
                    .first()
                    .and_then(int)
                    .filter(|v| (0..=i64::from(u32::MAX)).contains(v));
                let (Some(count), 1..=2) = (count, args.len()) else {
                    self.ctx
                        .error(n, "(pieces-remaining N [Type]) needs a count");
                    return None;
                };
                let t = match args.get(1) {
                    Some(t) => Some(self.lookup("piece type", t)? as u8),
                    None => None,
                };
                Some(EndTest::PiecesRemaining(count as u32, t))
            }
            "checkmated" => match args {
                [t] => Some(EndTest::Checkmated(self.lookup("piece type", t)? as u8)),
                _ => {
                    self.ctx.error(n, "(checkmated Type) needs one piece type");
                    None
                }
            },
            "absolute-config" => {
                let Some((last, types)) = args.split_last() else {
                    self.ctx.error(
                        n,
                        "(absolute-config Type… (position…)) needs types and positions",
                    );
                    return None;
                };
                let mut ts = Vec::new();
                let mut ok = true;
                for t in types {
                    let names: Vec<&Node> = match &t.kind {
                        Kind::List(v) => v.iter().collect(),
                        _ => vec![t],
                    };
                    for x in names {
                        match self.lookup("piece type", x) {
                            Some(id) => ts.push(id as u8),
                            None => ok = false,
                        }
                    }
                }
                if ts.is_empty() && ok {
                    self.ctx
                        .error(n, "(absolute-config Type… (position…)) needs a piece type");
                    ok = false;
                }
                let Some(ps) = last.list() else {
                    self.ctx.error(
                        last,
                        "absolute-config's last argument is a list of positions",
                    );
                    return None;
                };
                let mut pos = Vec::new();
                for p in ps {
                    if p.atom().is_some_and(|a| self.zones.get(a).is_some()) {
                        self.ctx.error(
                            p,
                            "a zone in absolute-config is not supported by Tilesmith; list the positions",
                        );
                        ok = false;
                        continue;
                    }
                    match self.lookup("position", p) {
                        Some(id) => pos.push(id as PosId),
                        None => ok = false,
                    }
                }
                ok.then_some(EndTest::AbsoluteConfig(ts, pos))
            }
            "and" | "or" => {
                if args.is_empty() {
                    self.ctx.error(n, format!("({h} …) needs tests"));
                    return None;
                }
                let v: Vec<Option<EndTest>> = args.iter().map(|x| self.end_test(x)).collect();
                let v: Vec<EndTest> = v.into_iter().collect::<Option<_>>()?;
                Some(if h == "and" {
                    EndTest::And(v)
                } else {
                    EndTest::Or(v)
                })
            }
            "not" => match args {
                [x] => Some(EndTest::Not(Box::new(self.end_test(x)?))),
                _ => {
                    self.ctx.error(n, "(not …) takes one test");
                    None
                }
            },
            _ => {
                self.ctx.error(
                    n,
                    format!(
                        "the end test ({} …) is not supported by Tilesmith",
                        quote(&h)
                    ),
                );
                None
            }
        }
    }

    /// `(option "name" value)`.
    fn option(&mut self, o: &Node, opts: &mut Options) {
        let items = o.list().unwrap_or_default();
        let (Some(name), Some(value), 3) = (
            items.get(1).and_then(Node::text),
            items.get(2).and_then(Node::text),
            items.len(),
        ) else {
            self.ctx
                .error(o, "(option \"name\" value) needs a name and a value");
            return;
        };
        let name = name.to_ascii_lowercase();
        let value = value.to_ascii_lowercase();
        let vnode = &items[2];
        let boolean = |c: &mut C| -> Option<bool> {
            match value.as_str() {
                "true" => Some(true),
                "false" => Some(false),
                _ => {
                    c.ctx.error(
                        vnode,
                        format!("option {} takes true or false", quote(&name)),
                    );
                    None
                }
            }
        };
        match name.as_str() {
            "pass turn" => {
                opts.pass_turn = match value.as_str() {
                    "true" => PassTurn::Allowed,
                    "false" => PassTurn::Never,
                    "forced" => PassTurn::Forced,
                    _ => {
                        self.ctx
                            .error(vnode, "option \"pass turn\" takes true, false or forced");
                        return;
                    }
                }
            }
            "pass partial" => {
                if let Some(b) = boolean(self) {
                    opts.pass_partial = b;
                }
            }
            "discard cascades" => {
                if let Some(b) = boolean(self) {
                    opts.discard_cascades = b;
                }
            }
            s if UI_OPTIONS.contains(&s) || s.starts_with("animate") => {}
            "recycle captures" | "maximal captures" | "ko" => {
                if value != "false" {
                    self.ctx.error(
                        o,
                        format!(
                            "option {} {} is not supported by Tilesmith (it changes play); only false is",
                            quote(&name),
                            quote(&value)
                        ),
                    );
                }
            }
            _ if value == "false" => {}
            "chess invariant" => self.ctx.warn(
                o,
                "option \"chess invariant\" stood for JavaScript in the source project and Tilesmith cannot honour it: castling is not limited to a King and Rook that have not moved, nor kept out of or through check",
            ),
            "columns-checkers-extension" => self.ctx.warn(
                o,
                "option \"columns-checkers-extension\" stood for JavaScript in the source project and Tilesmith cannot honour it: captured pieces are removed instead of forming columns under the capturer, so this is not Laska",
            ),
            "sliding-puzzle" => self.ctx.warn(
                o,
                "option \"sliding-puzzle\" stood for JavaScript in the source project and Tilesmith cannot honour it: pieces covering several positions do not move as one block",
            ),
            s if s.ends_with("-extension") || s.ends_with(" extension") => self.ctx.warn(
                o,
                format!(
                    "option {} stood for JavaScript in the source project and Tilesmith cannot honour it: the game is played by its ZRF rules alone",
                    quote(s)
                ),
            ),
            _ => self.ctx.warn(
                o,
                format!(
                    "option {} is not known to Tilesmith and is ignored",
                    quote(&name)
                ),
            ),
        }
    }
}

/// `not-x?` → (true, `x?`) for a condition word; otherwise (false, the word).
fn negation(word: &str) -> (bool, &str) {
    match word.strip_prefix("not-") {
        Some(rest) if rest.ends_with('?') => (true, rest),
        _ => (false, word),
    }
}

/// The condition of a [`LOC_CONDS`] word at `l`.
fn loc_cond(word: &str, l: Loc) -> Cond {
    match word {
        "empty?" => Cond::Empty(l),
        "friend?" => Cond::Friend(l),
        "enemy?" => Cond::Enemy(l),
        "last-from?" => Cond::LastFrom(l),
        "last-to?" => Cond::LastTo(l),
        "attacked?" => Cond::Attacked(l),
        _ => Cond::Marked(l),
    }
}
