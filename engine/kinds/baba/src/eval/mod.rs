//! The rule refresh: rules from the text on the grid, conditions per object, and the resulting
//! properties (spec baba §3.5–§3.7, §5.3).

use rustc_hash::FxHashMap;

use super::rules::{Arg, Condition, FormedRule, Rule, RuleCache, TextTile};
use super::word::{Kind, Noun, Prefix, Prep, Prop, Verb, Word};
use tilesmith_core::grid::{Dir, Pos};

/// An object's internal ID: assigned at creation, ascending = processing order (§2).
pub type ObjId = u64;

mod by_id;

pub use by_id::{ById, Iter};

/// One object in a running baba game: 16 bytes (its coordinates fit 32 bits, as a level's
/// side is at most [`super::level::MAX_SIDE`]), so that the object tables, the journal and
/// every copy of an object stay small (with 64-bit coordinates a changed object was copied
/// through memory in pieces, which stalled the store of every move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Obj {
    /// Entity or text.
    pub kind: Kind,
    /// The facing.
    pub dir: Dir,
    /// Column (0 = left edge).
    pub x: u32,
    /// Row (0 = top edge).
    pub y: u32,
}

impl Obj {
    /// An object of `kind` on cell `pos` (inside a map of at most [`super::level::MAX_SIDE`]
    /// cells a side) facing `dir`.
    pub fn new(kind: Kind, pos: Pos, dir: Dir) -> Self {
        debug_assert!(u32::try_from(pos.x).is_ok() && u32::try_from(pos.y).is_ok());
        Self {
            kind,
            dir,
            x: pos.x as u32,
            y: pos.y as u32,
        }
    }

    /// The cell.
    #[inline]
    pub fn pos(&self) -> Pos {
        Pos::new(self.x as usize, self.y as usize)
    }

    /// This object moved to `pos`.
    #[inline]
    pub fn at(self, pos: Pos) -> Self {
        Self::new(self.kind, pos, self.dir)
    }
}

/// What the rules give one object at a refresh: property counts after negation (§3.7), and
/// the noun complements of IS, HAS, MAKE, EAT and WRITE with their counts.
#[derive(Clone, Debug, PartialEq)]
pub struct Derived {
    /// Count per [`Prop`] (index `prop as usize`); 0 = not that property.
    pub props: [u16; Prop::COUNT],
    /// `(verb, complement, count)` for every non-property complement that applies, in rule
    /// order (IS noun, HAS, MAKE, EAT, WRITE).
    pub others: Vec<(Verb, Word, u32)>,
    /// `A IS NOT A` applies: the object vanishes at the next transformation (§5.4).
    pub vanish: bool,
    /// The `(verb, complement)` pairs a negative rule removes for this object (§3.7).
    pub negs: Vec<(Verb, Word)>,
}

impl Default for Derived {
    fn default() -> Self {
        Self {
            props: [0; Prop::COUNT],
            others: Vec::new(),
            vanish: false,
            negs: Vec::new(),
        }
    }
}

impl Derived {
    /// The count of `p`.
    pub fn get(&self, p: Prop) -> u16 {
        self.props[p as usize]
    }

    /// True when the count of `p` is at least 1.
    pub fn has(&self, p: Prop) -> bool {
        self.props[p as usize] > 0
    }
}

/// The objects and the grid size: what a refresh reads.
pub struct World<'a> {
    /// Objects by ID, ascending.
    pub objs: &'a ById<Obj>,
    /// Map width.
    pub width: usize,
    /// Map height.
    pub height: usize,
    /// The operations conditions may take (one a condition, one an object it looks at);
    /// `None`: no limit. Once spent, conditions read false and [`refresh_formed`] stops with
    /// [`Refresh::over_budget`] (issue #30: NEAR chains over 350 000 rocks took minutes).
    pub budget: Option<&'a ConditionBudget>,
}

/// What [`World::budget`] holds: the operations left, and whether a condition went over.
#[derive(Debug, Default)]
pub struct ConditionBudget {
    /// The operations left (0 once over).
    pub left: std::cell::Cell<u64>,
    /// A condition found fewer than it needed.
    pub over: std::cell::Cell<bool>,
}

impl ConditionBudget {
    /// A budget of `n` operations.
    pub fn new(n: u64) -> Self {
        let (left, over) = (std::cell::Cell::new(n), std::cell::Cell::new(false));
        Self { left, over }
    }
}

impl World<'_> {
    /// Takes `n` operations from [`World::budget`]; false when they are not there: the budget
    /// is then over for good and all spent, so the turn charged with it is refused.
    fn spend(&self, n: u64) -> bool {
        let Some(b) = self.budget else {
            return true;
        };
        if b.over.get() {
            return false;
        }
        let left = b.left.get().checked_sub(n);
        b.left.set(left.unwrap_or(0));
        b.over.set(left.is_none());
        left.is_some()
    }

    /// True when a condition went over [`World::budget`].
    fn spent(&self) -> bool {
        self.budget.is_some_and(|b| b.over.get())
    }
}

/// The objects in each cell, ascending ID: a dense grid of lists, row-major (x = column from
/// the left, y = row from the top). A cell that held objects may keep an empty list, so readers
/// treat "no list" and "an empty list" alike. Dense because a turn asks for cells thousands of
/// times; at most [`super::level::MAX_CELLS`] lists, as the level's own map.
///
/// Each cell also carries the time of its last change (a counter that every change through
/// [`CellIndex::get_mut`] or [`CellIndex::touch`] advances), so that the move loop can tell
/// whether a waiting mover's way changed since it was planned.
#[derive(Clone, Debug, Default)]
pub struct CellIndex {
    width: usize,
    height: usize,
    cells: Vec<Vec<ObjId>>,
    /// The [`Self::clock`] of each cell's last change, row-major.
    stamp: Vec<u64>,
    clock: u64,
}

impl CellIndex {
    /// An index of `width` × `height` empty cells.
    pub fn new(width: usize, height: usize) -> Self {
        Self {
            width,
            height,
            cells: vec![Vec::new(); width * height],
            stamp: vec![0; width * height],
            clock: 0,
        }
    }

    /// An index of `width` × `height` empty cells whose clock starts after `clock` with every
    /// cell changed then: a rebuilt index stays later than the one it replaces.
    pub fn after(width: usize, height: usize, clock: u64) -> Self {
        let mut m = Self::new(width, height);
        m.clock = clock + 1;
        m.stamp.fill(m.clock);
        m
    }

    /// The row-major index of cell `p` (the `i` of [`Self::changed_since`]); `None` outside
    /// the grid.
    #[inline]
    pub fn slot(&self, p: &Pos) -> Option<usize> {
        (p.x < self.width && p.y < self.height).then(|| p.y * self.width + p.x)
    }

    /// The objects of cell `p`, ascending ID; `None` outside the grid.
    pub fn get(&self, p: &Pos) -> Option<&Vec<ObjId>> {
        self.cells.get(self.slot(p)?)
    }

    /// The objects of cell `p` to change (the cell counts as changed now); `None` outside the
    /// grid.
    pub fn get_mut(&mut self, p: &Pos) -> Option<&mut Vec<ObjId>> {
        self.touch(p);
        let i = self.slot(p)?;
        self.cells.get_mut(i)
    }

    /// Marks cell `p` as changed now without changing its objects (something about them that
    /// a reader of the cell depends on changed). Nothing outside the grid.
    pub fn touch(&mut self, p: &Pos) {
        if let Some(i) = self.slot(p) {
            self.clock += 1;
            if let Some(s) = self.stamp.get_mut(i) {
                *s = self.clock;
            }
        }
    }

    /// The time now: every later change to a cell gives it a larger stamp.
    pub fn clock(&self) -> u64 {
        self.clock
    }

    /// True when the cell of row-major index `i` ([`Self::slot`]) changed after time `t` (a
    /// [`Self::clock`] reading); false outside the grid.
    #[inline]
    pub fn changed_since(&self, i: usize, t: u64) -> bool {
        self.stamp.get(i).is_some_and(|&s| s > t)
    }

    /// Every cell's list, row-major.
    pub fn values(&self) -> impl Iterator<Item = &Vec<ObjId>> {
        self.cells.iter()
    }
}

/// Builds the cell index of `objs` on a `width` × `height` map (objects outside it are left
/// out).
pub fn cell_index(objs: &ById<Obj>, width: usize, height: usize) -> CellIndex {
    cell_index_after(objs, width, height, 0)
}

/// [`cell_index`] with a clock that starts after `clock` ([`CellIndex::after`]).
pub fn cell_index_after(objs: &ById<Obj>, width: usize, height: usize, clock: u64) -> CellIndex {
    let mut m = CellIndex::after(width, height, clock);
    for (&id, o) in objs {
        if let Some(cell) = m.get_mut(&o.pos()) {
            cell.push(id);
        }
    }
    m
}

/// The text tiles among `objs`, with their stack index (ascending ID within the cell), in
/// reading order (row, column, stack index). Only the text objects are looked at.
pub fn text_tiles(objs: &ById<Obj>, index: &CellIndex) -> Vec<TextTile> {
    // Sized for every object at once: growing it tile by tile reallocated several times a
    // refresh.
    let mut v: Vec<TextTile> = Vec::with_capacity(objs.len());
    v.extend(objs.iter().filter_map(|(id, o)| match o.kind {
        Kind::Text(word) => {
            let layer = index.get(&o.pos())?.iter().position(|x| x == id)?;
            Some(TextTile {
                pos: o.pos(),
                layer,
                word,
            })
        }
        Kind::Entity(_) | Kind::Unknown(_) => None,
    }));
    // (cell, stack index) is unique, so the order of equal keys cannot matter.
    v.sort_unstable_by_key(|t| (t.pos.y, t.pos.x, t.layer));
    v
}

/// The result of a refresh.
#[derive(Clone, Debug, Default)]
pub struct Refresh {
    /// Rules formed by the text on the grid (and by WORD objects, Tier 2), board order.
    pub formed: Vec<FormedRule>,
    /// Derived properties per object.
    pub derived: ById<Derived>,
    /// The active rules whose subject is EMPTY (Tier 2), evaluated per object-free cell on
    /// demand by [`empty_derived`].
    pub empty_rules: Vec<Rule>,
    /// What the LEVEL rules give the level itself (Tier 2, §5.13), with the level's
    /// conditions of [L3457–L4325] (see [`level_condition_holds`]). Includes the implicit
    /// LEVEL IS STOP.
    pub level: Derived,
    /// Tier 2 WORD made rule evaluation repeat [`MAX_EVALUATIONS`] times without settling
    /// (§3.7 infinite-loop guard): every object vanishes.
    pub infinite: bool,
    /// The conditions spent [`World::budget`]: the evaluation stopped and this refresh is
    /// not the rules' (the game refuses the turn, or the level at its start).
    pub over_budget: bool,
}

/// The implicit rules present at every refresh (§3.4): TEXT IS PUSH and (Tier 2) LEVEL IS
/// STOP.
pub fn implicit_rules() -> Vec<Rule> {
    vec![
        Rule::simple(Noun::TEXT, Verb::Is, Word::Prop(Prop::Push)),
        Rule::simple(Noun::LEVEL, Verb::Is, Word::Prop(Prop::Stop)),
    ]
}

/// The infinite-loop guard of §3.7 [L6345–L6361]: rule evaluation repeated this many times
/// within one refresh (only WORD can make it repeat) stops, and every object vanishes.
pub const MAX_EVALUATIONS: usize = 200;

/// Rebuilds the rules from the text and evaluates them for every object (§3.7). `extra` are
/// rules that hold as if formed by text outside the map.
///
/// Tier 2 WORD (§5.13): an entity that is WORD acts in rules as the noun text of its own name
/// (a BABA that is WORD is read as the word BABA in its cell); text is exempt. Since the rules
/// decide which objects are WORD, evaluation repeats until the set of WORD objects settles,
/// at most [`MAX_EVALUATIONS`] times (then [`Refresh::infinite`] is set).
pub fn refresh(world: &World, extra: &[Rule]) -> Refresh {
    refresh_indexed(
        world,
        &cell_index(world.objs, world.width, world.height),
        extra,
        &mut RuleCache::default(),
    )
}

/// [`refresh`] with the cell index of `world.objs` given (a running game keeps one), forming
/// the rules through `cache` (a running game keeps one, so that only the lines whose text
/// changed are read again).
pub fn refresh_indexed(
    world: &World,
    index: &CellIndex,
    extra: &[Rule],
    cache: &mut RuleCache,
) -> Refresh {
    refresh_formed(world, index, extra, cache, None)
}

/// [`refresh_indexed`] given [`text_tiles`] of `world` and what `cache` forms of them (or
/// `None`: read and formed here), as a game that formed them to compare passes them on.
pub fn refresh_formed(
    world: &World,
    index: &CellIndex,
    extra: &[Rule],
    cache: &mut RuleCache,
    given: Option<(Vec<TextTile>, Vec<FormedRule>)>,
) -> Refresh {
    let (texts, mut formed) = match given {
        Some((t, f)) => (t, Some(f)),
        None => (text_tiles(world.objs, index), None),
    };
    let implicit = implicit_rules();
    let mut words: Vec<TextTile> = Vec::new();
    for _ in 0..MAX_EVALUATIONS {
        let mut tiles = texts.clone();
        tiles.extend(words.iter().copied());
        // The given rules are those of the text tiles alone (the first evaluation).
        let formed = match formed.take() {
            Some(f) if words.is_empty() => f,
            _ => cache.form(world.width, world.height, &tiles),
        };
        let r = evaluate(world, index, formed, extra, &implicit);
        if r.over_budget {
            return r;
        }
        let word_rule = r
            .formed
            .iter()
            .map(|f| &f.rule)
            .chain(extra)
            .any(|x| x.complement == Word::Prop(Prop::Word));
        let now = if word_rule {
            word_tiles(world, index, &r.derived)
        } else {
            Vec::new()
        };
        if now == words {
            return r;
        }
        words = now;
    }
    Refresh {
        infinite: true,
        ..Refresh::default()
    }
}

/// The entities that are WORD, as noun text tiles of their own name in their cells (with
/// their stack index among the cell's objects), cell order.
fn word_tiles(world: &World, index: &CellIndex, derived: &ById<Derived>) -> Vec<TextTile> {
    let mut v = Vec::new();
    for (&id, o) in world.objs {
        let Kind::Entity(n) = o.kind else {
            continue;
        };
        if !derived.get(&id).is_some_and(|d| d.has(Prop::Word)) {
            continue;
        }
        let layer = index
            .get(&o.pos())
            .and_then(|ids| ids.iter().position(|&x| x == id))
            .unwrap_or(0);
        v.push(TextTile {
            pos: o.pos(),
            layer,
            word: Word::Noun(n),
        });
    }
    v.sort_by_key(|t| (t.pos.y, t.pos.x, t.layer));
    v
}

/// One evaluation: the rules the tiles form, then every object's and the level's properties.
fn evaluate(
    world: &World,
    index: &CellIndex,
    formed: Vec<FormedRule>,
    extra: &[Rule],
    implicit: &[Rule],
) -> Refresh {
    let rules = active_rules(&formed, extra, implicit);
    let mut derived = ById::default();
    derived.reserve(
        world
            .objs
            .last_key_value()
            .map_or(0, |(&id, _)| id as usize + 1),
    );
    // Without conditions, what the rules give an object depends on its kind only (`derive`),
    // so each kind is evaluated once.
    let conditional = rules.iter().any(|r| !r.conditions.is_empty());
    let mut by_kind: FxHashMap<Kind, Derived> = FxHashMap::default();
    for (&id, o) in world.objs {
        let d = if conditional {
            if world.spent() {
                return Refresh {
                    over_budget: true,
                    ..Refresh::default()
                };
            }
            derive(world, index, id, o, &rules)
        } else {
            by_kind
                .entry(o.kind)
                .or_insert_with(|| derive(world, index, id, o, &rules))
                .clone()
        };
        derived.insert(id, d);
    }
    let empty_rules = rules
        .iter()
        .filter(|r| r.subject == Noun::EMPTY && !r.subject_negated)
        .map(|r| (*r).clone())
        .collect();
    let level = accumulate(
        rules
            .iter()
            .copied()
            .filter(|r| r.subject == Noun::LEVEL && !r.subject_negated),
        |c| level_condition_holds(world, index, c),
        Noun::LEVEL,
    );
    Refresh {
        formed,
        derived,
        empty_rules,
        level,
        infinite: false,
        over_budget: world.spent(),
    }
}

/// Sums the rules that hold (their conditions true by `holds`) into properties and other
/// complements, with negative rules removing their pairs (§3.7). `own` is the noun `IS NOT`
/// must name for the thing to vanish.
fn accumulate<'r>(
    rules: impl Iterator<Item = &'r Rule>,
    holds: impl Fn(&Condition) -> bool,
    own: Noun,
) -> Derived {
    let mut pos_counts: Vec<(Verb, Word, u32)> = Vec::new();
    let mut negs: Vec<(Verb, Word)> = Vec::new();
    for r in rules {
        if !r.conditions.iter().all(&holds) {
            continue;
        }
        if r.negated {
            negs.push((r.verb, r.complement));
        } else if let Some(e) = pos_counts
            .iter_mut()
            .find(|(v, w, _)| *v == r.verb && *w == r.complement)
        {
            e.2 += 1;
        } else {
            pos_counts.push((r.verb, r.complement, 1));
        }
    }
    let mut d = Derived {
        vanish: negs.contains(&(Verb::Is, Word::Noun(own))),
        ..Derived::default()
    };
    d.negs.clone_from(&negs);
    for (v, w, n) in pos_counts {
        if negs.contains(&(v, w)) {
            continue;
        }
        match (v, w) {
            (Verb::Is, Word::Prop(p)) => {
                d.props[p as usize] = u16::try_from(n).unwrap_or(u16::MAX);
            }
            _ => d.others.push((v, w, n)),
        }
    }
    d
}

/// Evaluates a condition for the level itself (Tier 2; the guide's ver.398 tables
/// [L2262–L2276, L3457–L3700]): the level holds every object, so `ON X` and `NEAR X` hold when
/// the level has at least k objects matching X (each matched object used once, as for
/// objects), `ON EMPTY` / `NEAR EMPTY` when it has an object-free cell; `ON LEVEL` and
/// `NEAR LEVEL` are false (there are no level icons); `LONELY` and every `FACING` phrase are
/// false. NOT negates each.
pub fn level_condition_holds(world: &World, index: &CellIndex, c: &Condition) -> bool {
    match c {
        Condition::Prefix { negated, .. } => *negated,
        Condition::Phrase {
            prep: Prep::Facing,
            negated,
            ..
        } => *negated,
        Condition::Phrase { negated, args, .. } => {
            let empties =
                world.width * world.height - index.values().filter(|v| !v.is_empty()).count();
            let mut used: Vec<ObjId> = Vec::new();
            let mut empties_used = 0usize;
            let all = args.iter().all(|a| match a.word {
                Word::Noun(Noun::EMPTY) if !a.negated => {
                    empties_used += 1;
                    empties_used <= empties
                }
                Word::Noun(Noun::LEVEL) if !a.negated => false,
                Word::Noun(_) => {
                    let found = world
                        .objs
                        .iter()
                        .find(|(id, o)| !used.contains(id) && arg_matches(a, o.kind))
                        .map(|(id, _)| *id);
                    found.map(|id| used.push(id)).is_some()
                }
                _ => false,
            });
            all != *negated
        }
    }
}

/// Every rule in force, in evaluation order: the formed rules (board order), then `extra`,
/// then the implicit rules.
pub fn active_rules<'a>(
    formed: &'a [FormedRule],
    extra: &'a [Rule],
    implicit: &'a [Rule],
) -> Vec<&'a Rule> {
    let mut rules: Vec<&Rule> = formed.iter().map(|f| &f.rule).collect();
    rules.extend(extra.iter());
    rules.extend(implicit.iter());
    rules
}

/// What the EMPTY rules give the virtual EMPTY tile of the object-free cell `pos` (Tier 2,
/// §5.13). Its facing is taken as right. Returns the default (nothing) when `pos` holds an
/// object or no rule has the subject EMPTY.
pub fn empty_derived(world: &World, index: &CellIndex, empty_rules: &[Rule], pos: Pos) -> Derived {
    if empty_rules.is_empty() || index.get(&pos).is_some_and(|v| !v.is_empty()) {
        return Derived::default();
    }
    let virtual_obj = Obj::new(Kind::Entity(Noun(0)), pos, Dir::Right);
    let rules: Vec<&Rule> = empty_rules.iter().collect();
    let mut d = Derived::default();
    let mut negs = Vec::new();
    let mut counts: Vec<(Verb, Word, u32)> = Vec::new();
    for r in rules {
        if !r
            .conditions
            .iter()
            .all(|c| condition_holds(world, index, 0, &virtual_obj, c))
        {
            continue;
        }
        if r.negated {
            negs.push((r.verb, r.complement));
        } else if let Some(e) = counts
            .iter_mut()
            .find(|(v, w, _)| *v == r.verb && *w == r.complement)
        {
            e.2 += 1;
        } else {
            counts.push((r.verb, r.complement, 1));
        }
    }
    for (v, w, n) in counts {
        if negs.contains(&(v, w)) {
            continue;
        }
        match (v, w) {
            (Verb::Is, Word::Prop(p)) => {
                d.props[p as usize] = u16::try_from(n).unwrap_or(u16::MAX);
            }
            _ => d.others.push((v, w, n)),
        }
    }
    d
}

/// True when the subject `noun` (negated or not) names `o` (§3.5).
pub fn subject_covers(noun: Noun, negated: bool, kind: Kind) -> bool {
    let is_text = kind.is_text();
    if !negated {
        match noun {
            Noun::TEXT => is_text,
            Noun::ALL => !is_text,
            Noun::EMPTY | Noun::LEVEL => false,
            n => kind == Kind::Entity(n),
        }
    } else {
        match noun {
            Noun::ALL => is_text,
            Noun::TEXT | Noun::EMPTY | Noun::LEVEL => !is_text,
            n => !is_text && kind != Kind::Entity(n),
        }
    }
}

/// What `rules` give object `id` (§3.7). Reads the map only through the rules' conditions: with
/// no condition the result depends on `o.kind` alone, which [`refresh_indexed`] and the game's
/// incremental refresh rely on.
pub fn derive(world: &World, index: &CellIndex, id: ObjId, o: &Obj, rules: &[&Rule]) -> Derived {
    accumulate(
        rules
            .iter()
            .copied()
            .filter(|r| subject_covers(r.subject, r.subject_negated, o.kind)),
        |c| condition_holds(world, index, id, o, c),
        o.kind.noun(),
    )
}

/// True when object `c` matches the argument `arg` (§3.5, right column).
fn arg_matches(arg: &Arg, c: Kind) -> bool {
    let Word::Noun(n) = arg.word else {
        return false;
    };
    subject_covers(n, arg.negated, c)
}

/// Evaluates one condition for object `o` (§3.6).
pub fn condition_holds(
    world: &World,
    index: &CellIndex,
    id: ObjId,
    o: &Obj,
    c: &Condition,
) -> bool {
    let here = o.pos();
    if !world.spend(1) {
        return false;
    }
    match c {
        Condition::Prefix {
            prefix: Prefix::Lonely,
            negated,
        } => {
            let alone = index.get(&here).is_none_or(|v| v.iter().all(|&x| x == id));
            alone != *negated
        }
        Condition::Phrase {
            prep,
            negated,
            args,
        } => {
            let cells: Vec<Pos> = match prep {
                Prep::On => vec![here],
                Prep::Near => {
                    let mut v = Vec::new();
                    for dy in -1i64..=1 {
                        for dx in -1i64..=1 {
                            let x = here.x as i64 + dx;
                            let y = here.y as i64 + dy;
                            if x >= 0
                                && y >= 0
                                && (x as usize) < world.width
                                && (y as usize) < world.height
                            {
                                v.push(Pos::new(x as usize, y as usize));
                            }
                        }
                    }
                    v
                }
                Prep::Facing => here
                    .step(o.dir, world.width, world.height)
                    .into_iter()
                    .collect(),
            };
            let mut candidates: Vec<ObjId> = cells
                .iter()
                .flat_map(|p| index.get(p).into_iter().flatten().copied())
                .filter(|&x| x != id)
                .collect();
            if !world.spend(candidates.len() as u64) {
                return false;
            }
            candidates.sort_unstable();
            let mut used = vec![false; candidates.len()];
            let mut empties_used = 0usize;
            let empty_cells = cells
                .iter()
                .filter(|p| index.get(p).is_none_or(Vec::is_empty))
                .count();
            let mut all = true;
            for a in args {
                let ok = match a.word {
                    Word::Prop(p) => match p.dir() {
                        Some(d) => (o.dir == d) != a.negated,
                        None => false,
                    },
                    Word::Noun(Noun::EMPTY) if !a.negated => {
                        // ON EMPTY is never true; NEAR/FACING count object-free cells (§5.13).
                        if *prep != Prep::On && empties_used < empty_cells {
                            empties_used += 1;
                            true
                        } else {
                            false
                        }
                    }
                    Word::Noun(Noun::LEVEL) if !a.negated => false,
                    _ => {
                        let found = candidates.iter().enumerate().find(|(k, cid)| {
                            !used[*k]
                                && world
                                    .objs
                                    .get(cid)
                                    .is_some_and(|co| arg_matches(a, co.kind))
                        });
                        match found {
                            Some((k, _)) => {
                                used[k] = true;
                                true
                            }
                            None => false,
                        }
                    }
                };
                if !ok {
                    all = false;
                    break;
                }
            }
            all != *negated
        }
    }
}

/// The direction DIR properties give an object (§5.12): the DIR applied most times; ties go
/// clockwise from the current facing (at least one step). `None` when it has no DIR.
pub fn dir_from_props(d: &Derived, current: Dir) -> Option<Dir> {
    let count = |dir: Dir| match dir {
        Dir::Up => d.get(Prop::Up),
        Dir::Down => d.get(Prop::Down),
        Dir::Left => d.get(Prop::Left),
        Dir::Right => d.get(Prop::Right),
    };
    let best = Dir::ALL.iter().map(|&x| count(x)).max().unwrap_or(0);
    if best == 0 {
        return None;
    }
    let tied: Vec<Dir> = Dir::ALL
        .iter()
        .copied()
        .filter(|&x| count(x) == best)
        .collect();
    if tied.len() == 1 {
        return tied.first().copied();
    }
    let mut dir = current;
    for _ in 0..4 {
        dir = dir.turn_right();
        if tied.contains(&dir) {
            return Some(dir);
        }
    }
    None
}
