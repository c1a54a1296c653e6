//! Rule formation: reading sentences from the text tiles on the grid (spec baba §3.1–§3.4).
//!
//! Text is read left→right along rows and top→bottom along columns, never otherwise (§3.1).
//! Each maximal run of consecutive cells holding text is one line; a cell with several texts
//! gives one word sequence per combination (§3.3 step 2, at most [`MAX_COMBINATIONS`] per run).
//! In each sequence the parser of §3.3 step 3 takes, from every word that may start a
//! sentence, the longest complete sentence of the grammar of §3.2, and continues from that
//! sentence's last word. A sentence expands into one [`Rule`] per subject and complement
//! (§3.4); prefix and phrase conditions attach to each of them.

use std::sync::Arc;

use serde::Serialize;

use super::word::{Noun, Prefix, Prep, Verb, Word};
use tilesmith_core::grid::Pos;

mod cache;
pub use cache::{RuleCache, form_rules};

/// The most word sequences read from one run of text cells (combinations of stacked texts).
pub const MAX_COMBINATIONS: usize = 256;

/// A text tile on the grid: its cell, its index in the cell's stack (bottom = 0) and its word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct TextTile {
    /// The cell (x = column from the left, y = row from the top).
    pub pos: Pos,
    /// The index in the cell's stack, bottom first (for a running game: among the cell's
    /// objects in ascending internal ID).
    pub layer: usize,
    /// The word written on the tile.
    pub word: Word,
}

/// One argument of a preposition phrase: a noun, or a direction after FACING (§3.2 `arg`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Arg {
    /// A [`Word::Noun`], or a [`Word::Prop`] that is a direction (FACING only).
    pub word: Word,
    /// An odd number of NOTs stood before it.
    pub negated: bool,
}

/// One condition of a rule (§3.6).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Condition {
    /// A prefix (LONELY).
    Prefix {
        /// Which prefix.
        prefix: Prefix,
        /// NOT LONELY.
        negated: bool,
    },
    /// A preposition phrase `[NOT] prep arg {AND arg}`: all arguments must hold together.
    Phrase {
        /// ON, NEAR or FACING.
        prep: Prep,
        /// NOT before the preposition negates the whole phrase.
        negated: bool,
        /// The arguments in board order.
        args: Vec<Arg>,
    },
}

/// One rule: `[conditions] subject verb [NOT] complement` (spec §2 `Rule`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Rule {
    /// Prefix conditions, then phrase conditions, in board order.
    pub conditions: Vec<Condition>,
    /// The subject noun.
    pub subject: Noun,
    /// `NOT subject`: every entity other than the subject (§3.5).
    pub subject_negated: bool,
    /// The verb.
    pub verb: Verb,
    /// `verb NOT complement`: a negative rule (§3.7).
    pub negated: bool,
    /// A noun or (after IS, WRITE) a property.
    pub complement: Word,
}

impl Rule {
    /// An unconditional rule `subject verb complement`.
    pub fn simple(subject: Noun, verb: Verb, complement: Word) -> Self {
        Self {
            conditions: Vec::new(),
            subject,
            subject_negated: false,
            verb,
            negated: false,
            complement,
        }
    }

    /// The rule in lower-case words separated by single spaces, NOT NOT removed: `baba is
    /// you`, `not lonely keke is win`, `baba on flag and keke is win`, `baba is not you`.
    pub fn text(&self) -> String {
        // Built in one string: every formed rule is named once per rule forming, and the
        // level start forms them all.
        let mut s = String::with_capacity(32);
        let word = |s: &mut String, negated: bool, name: &str| {
            if !s.is_empty() {
                s.push(' ');
            }
            if negated {
                s.push_str("not ");
            }
            s.push_str(name);
        };
        let mut first = true;
        for c in &self.conditions {
            if let Condition::Prefix { prefix, negated } = c {
                if !first {
                    s.push_str(" and");
                }
                word(&mut s, *negated, prefix.name());
                first = false;
            }
        }
        word(&mut s, self.subject_negated, self.subject.name());
        let mut first = true;
        for c in &self.conditions {
            if let Condition::Phrase {
                prep,
                negated,
                args,
            } = c
            {
                if !first {
                    s.push_str(" and");
                }
                word(&mut s, *negated, prep.name());
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        s.push_str(" and");
                    }
                    word(&mut s, a.negated, a.word.name());
                }
                first = false;
            }
        }
        word(&mut s, false, self.verb.name());
        word(&mut s, self.negated, self.complement.name());
        s
    }
}

/// A rule formed by text on the grid, with the text tiles it uses.
///
/// Its text and tiles are shared (`Arc`): a game forms its rules again whenever text moves,
/// and a searcher's line memo hands out the same rules again and again, so a copy costs two
/// counter increments instead of two allocations (issue #29, BENCHMARKS.md "Breadth-first
/// search, baba"). Serialized as before: `text` a string, `tiles` a list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FormedRule {
    /// The rule.
    pub rule: Rule,
    /// [`Rule::text`].
    #[serde(serialize_with = "shared_str")]
    pub text: Arc<str>,
    /// The tiles of its sentence that this rule uses: everything except the other subjects
    /// and the other predicates of an AND chain; in reading order.
    #[serde(serialize_with = "shared_slice")]
    pub tiles: Arc<[TextTile]>,
    /// True when read down a column, false along a row.
    pub vertical: bool,
}

/// Serializes a shared string as a string.
fn shared_str<S: serde::Serializer>(v: &Arc<str>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(v)
}

/// Serializes a shared slice as a list.
fn shared_slice<T: Serialize, S: serde::Serializer>(v: &Arc<[T]>, s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(v.iter())
}

/// A complement in a sentence: the word, whether it is negated, and its sequence indices.
type Complement = (Word, bool, std::ops::Range<usize>);

/// What a parsed sentence holds; indices are positions in the word sequence.
#[derive(Clone, Debug, Default)]
struct Sentence {
    prefixes: Vec<Condition>,
    subjects: Vec<(Noun, bool, std::ops::Range<usize>)>,
    phrases: Vec<Condition>,
    /// (verb, verb index, complements (word, negated, indices)).
    preds: Vec<(Verb, usize, Vec<Complement>)>,
    start: usize,
    end: usize,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum St {
    Start,
    Prefix,
    PrefixAnd,
    Subject,
    SubjectAnd,
    Prep,
    Arg,
    ArgAnd,
    Verb,
    Comp,
    CompAnd,
}

fn is_dir(w: Word) -> bool {
    matches!(w, Word::Prop(p) if p.dir().is_some())
}

fn complement_ok(verb: Verb, w: Word) -> bool {
    match w {
        Word::Noun(_) => true,
        Word::Prop(_) => matches!(verb, Verb::Is | Verb::Write),
        _ => false,
    }
}

/// The longest complete sentence starting at `start` (§3.3 step 3), if any, and the index of
/// the word the reading stopped at (`start` when the first word cannot start a sentence; the
/// words before it were read as part of the attempt).
fn parse_sentence(words: &[Word], start: usize) -> (Option<Sentence>, usize) {
    let mut s = Sentence {
        start,
        ..Sentence::default()
    };
    let mut st = St::Start;
    // The NOTs read since the last other word: they lie just before the next word, so a
    // word's indices (its NOTs and itself) are a range.
    let mut nots = 0usize;
    // The longest complete sentence so far, as `s` was then: its end, how many predicates it
    // had and how many complements its last one had (after the first complement only the
    // predicates and their complements grow), so that it is cut back to that instead of
    // copied at every complement.
    let mut best: Option<(usize, usize, usize)> = None;
    let mut reach = words.len();
    for (i, &w) in words.iter().enumerate().skip(start) {
        if w == Word::Not {
            if matches!(
                st,
                St::Start
                    | St::Prefix
                    | St::PrefixAnd
                    | St::Subject
                    | St::SubjectAnd
                    | St::Prep
                    | St::ArgAnd
                    | St::Verb
                    | St::CompAnd
            ) {
                nots += 1;
                continue;
            }
            reach = i;
            break;
        }
        let neg = nots % 2 == 1;
        let idx = i - nots..i + 1;
        let had_nots = nots > 0;
        nots = 0;
        let next = match (st, w) {
            (St::Start | St::PrefixAnd, Word::Prefix(p)) => {
                s.prefixes.push(Condition::Prefix {
                    prefix: p,
                    negated: neg,
                });
                St::Prefix
            }
            (St::Start | St::Prefix | St::SubjectAnd, Word::Noun(n)) => {
                s.subjects.push((n, neg, idx));
                St::Subject
            }
            (St::Prefix, Word::And) if !had_nots => St::PrefixAnd,
            (St::Subject, Word::And) if !had_nots => St::SubjectAnd,
            (St::Subject | St::ArgAnd, Word::Prep(p)) => {
                s.phrases.push(Condition::Phrase {
                    prep: p,
                    negated: neg,
                    args: Vec::new(),
                });
                St::Prep
            }
            (St::Prep | St::ArgAnd, w)
                if matches!(w, Word::Noun(_))
                    || (is_dir(w)
                        && matches!(
                            s.phrases.last(),
                            Some(Condition::Phrase {
                                prep: Prep::Facing,
                                ..
                            })
                        )) =>
            {
                if let Some(Condition::Phrase { args, .. }) = s.phrases.last_mut() {
                    args.push(Arg {
                        word: w,
                        negated: neg,
                    });
                }
                St::Arg
            }
            (St::Arg, Word::And) if !had_nots => St::ArgAnd,
            (St::Subject | St::Arg | St::CompAnd, Word::Verb(v)) if !had_nots => {
                s.preds.push((v, i, Vec::new()));
                St::Verb
            }
            (St::Verb | St::CompAnd, w)
                if s.preds.last().is_some_and(|(v, _, _)| complement_ok(*v, w)) =>
            {
                let mut kept = 0;
                if let Some((_, _, comps)) = s.preds.last_mut() {
                    comps.push((w, neg, idx));
                    kept = comps.len();
                }
                s.end = i + 1;
                best = Some((s.end, s.preds.len(), kept));
                St::Comp
            }
            (St::Comp, Word::And) if !had_nots => St::CompAnd,
            _ => {
                // A NOT run before the failing word was read too; the failing word was not.
                reach = i;
                break;
            }
        };
        st = next;
    }
    let best = best.map(|(end, preds, comps)| {
        s.end = end;
        s.preds.truncate(preds);
        if let Some((_, _, c)) = s.preds.last_mut() {
            c.truncate(comps);
        }
        s
    });
    (best, reach)
}

/// The most rules one sentence may expand into (subjects × complements). Real levels use a
/// handful; the cap keeps a sentence of hundreds of ANDs from taking quadratic time and memory.
pub const MAX_RULES_PER_SENTENCE: usize = 256;

/// The most text tiles the rules of one line (row or column) may hold in all, a tile counted
/// once per rule using it: an AND chain of hundreds gave up to [`MAX_RULES_PER_SENTENCE`]
/// rules of hundreds of tiles each (1000 rows: 9 s, 8.5 GB; issue #30). Rules are read in
/// reading order until the next would go over; `check` warns of the rest.
pub const MAX_LINE_RULE_TILES: usize = 4096;

/// Expands a sentence into rules, each with the sequence indices it uses (§3.4), at most
/// [`MAX_RULES_PER_SENTENCE`] of them, and only while their tiles fit in `room` (taken from
/// it; set to 0 when a rule does not fit: [`MAX_LINE_RULE_TILES`]).
fn expand(s: &Sentence, room: &mut usize) -> Vec<(Rule, Vec<usize>)> {
    let all: Vec<usize> = (s.start..s.end).collect();
    let n = s.end.saturating_sub(s.start);
    let mut is_subject = vec![false; n];
    let mut is_pred = vec![false; n];
    for i in s.subjects.iter().flat_map(|x| x.2.clone()) {
        if let Some(b) = is_subject.get_mut(i.wrapping_sub(s.start)) {
            *b = true;
        }
    }
    for (_, vi, cs) in &s.preds {
        for i in std::iter::once(*vi).chain(cs.iter().flat_map(|c| c.2.clone())) {
            if let Some(b) = is_pred.get_mut(i.wrapping_sub(s.start)) {
                *b = true;
            }
        }
    }
    let flag = |v: &[bool], i: usize| v.get(i.wrapping_sub(s.start)).copied().unwrap_or(false);
    let conditions: Vec<Condition> = s.prefixes.iter().chain(&s.phrases).cloned().collect();
    let mut out = Vec::new();
    for (noun, sneg, sidx) in &s.subjects {
        for (verb, vi, comps) in &s.preds {
            for (word, cneg, cidx) in comps {
                if out.len() >= MAX_RULES_PER_SENTENCE {
                    return out;
                }
                let rule = Rule {
                    conditions: conditions.clone(),
                    subject: *noun,
                    subject_negated: *sneg,
                    verb: *verb,
                    negated: *cneg,
                    complement: *word,
                };
                let tiles: Vec<usize> = all
                    .iter()
                    .copied()
                    .filter(|i| {
                        let other_subject = flag(&is_subject, *i) && !sidx.contains(i);
                        let other_pred = flag(&is_pred, *i) && *i != *vi && !cidx.contains(i);
                        !other_subject && !other_pred
                    })
                    .collect();
                if tiles.len() > *room {
                    *room = 0;
                    return out;
                }
                *room -= tiles.len();
                out.push((rule, tiles));
            }
        }
    }
    out
}

/// Parses one word sequence (§3.3 step 3): every rule with the sequence indices it uses,
/// while they fit in `room` ([`expand`]).
///
/// A word after a PREP or NOT may not start a sentence when an earlier attempt read that PREP
/// or NOT (`A ON B AND C NEAR D IS E` gives only `C NEAR D IS E`, §3.3). A PREP or NOT that no
/// attempt read, because the attempt failed at its first word (a stray `FACING` or `ON` at the
/// start of a line, or after a finished sentence), does not stop the next word: as in the real
/// game, reading restarts at the next word (docs/baba-semantics.md, §3.3 parse).
fn parse_sequence(words: &[Word], room: &mut usize) -> Vec<(Rule, Vec<usize>)> {
    let mut out = Vec::new();
    let mut i = 0;
    // Words before this index were read by an earlier attempt.
    let mut read_until = 0;
    while i < words.len() && *room > 0 {
        let may_start = matches!(words[i], Word::Noun(_) | Word::Not | Word::Prefix(_))
            && (i == 0 || i > read_until || !matches!(words[i - 1], Word::Prep(_) | Word::Not));
        if !may_start {
            i += 1;
            continue;
        }
        let (sentence, reach) = parse_sentence(words, i);
        read_until = read_until.max(reach);
        if let Some(s) = sentence {
            let end = s.end;
            out.extend(expand(&s, room));
            i = end.saturating_sub(1).max(i + 1);
        } else {
            i += 1;
        }
    }
    out
}

/// The rules formed by the text tiles of one line (`tiles` in reading order, the tiles of a
/// cell together), in reading order. Identical rules using the same tiles are listed once
/// (a rule's tiles lie in three or more cells of its line, so no two lines share a rule and
/// its tiles). True with them when the line's rules went over [`MAX_LINE_RULE_TILES`] and
/// the rest were not read.
fn line_rules(tiles: &[TextTile], vertical: bool) -> (Vec<FormedRule>, bool) {
    let along = |t: &TextTile| if vertical { t.pos.y } else { t.pos.x };
    let mut room = MAX_LINE_RULE_TILES;
    let mut out: Vec<FormedRule> = Vec::new();
    // The rules listed so far by the hash of (rule, tiles), to list each pair once without
    // keeping a second copy of every rule's tiles (equal hashes are compared in full).
    let mut seen: rustc_hash::FxHashMap<u64, Vec<usize>> = Default::default();
    // A rule with its tiles, unless the same rule with the same tiles is listed already.
    let mut add = |out: &mut Vec<FormedRule>, rule: Rule, tiles: Vec<TextTile>| {
        let key = {
            use std::hash::{BuildHasher as _, Hash as _, Hasher as _};
            let mut h = rustc_hash::FxBuildHasher.build_hasher();
            rule.hash(&mut h);
            tiles.hash(&mut h);
            h.finish()
        };
        let same = seen.entry(key).or_default();
        if same.iter().any(|&i| {
            out.get(i)
                .is_some_and(|r| r.rule == rule && *r.tiles == *tiles)
        }) {
            return;
        }
        same.push(out.len());
        out.push(FormedRule {
            text: rule.text().into(),
            rule,
            tiles: tiles.into(),
            vertical,
        });
    };
    let spell = tiles
        .iter()
        .any(|t| matches!(t.word, Word::Letter(_)))
        .then(|| &*SPELLER);
    let mut rest = tiles;
    while let Some(first) = rest.first()
        && room > 0
    {
        // One run: the cells from `first`'s on while each next cell holds text.
        let mut cells: Vec<&[TextTile]> = Vec::new();
        let mut at = along(first);
        loop {
            let n = rest.iter().take_while(|t| along(t) == at).count();
            if n == 0 {
                break;
            }
            let (cell, after) = rest.split_at(n);
            cells.push(cell);
            rest = after;
            at += 1;
        }
        if cells.len() < 3 {
            continue;
        }
        if spell.is_none() && cells.iter().all(|c| c.len() == 1) {
            // One tile per cell and no letters: the run is its only word sequence, so
            // `sequences` (one list of options per cell, one vector per tile) would build
            // just this one combination. Most lines of most levels are like this.
            let run: Vec<TextTile> = cells.iter().flat_map(|c| c.iter().copied()).collect();
            let words: Vec<Word> = run.iter().map(|t| t.word).collect();
            for (rule, idx) in parse_sequence(&words, &mut room) {
                let tiles = idx.iter().filter_map(|&i| run.get(i).copied()).collect();
                add(&mut out, rule, tiles);
            }
            continue;
        }
        for combo in sequences(&cells, spell) {
            if room == 0 {
                break;
            }
            let words: Vec<Word> = combo.iter().map(|t| t.0).collect();
            for (rule, idx) in parse_sequence(&words, &mut room) {
                let tiles = idx
                    .iter()
                    .filter_map(|&i| combo.get(i))
                    .flat_map(|t| t.1.iter().copied())
                    .collect();
                add(&mut out, rule, tiles);
            }
        }
    }
    (out, room == 0)
}

/// The speller of every word of the vocabulary (built once, on first use).
static SPELLER: std::sync::LazyLock<Speller> = std::sync::LazyLock::new(Speller::new);

/// One element of a word sequence: a word and the tiles that write it (one text tile, or the
/// letter tiles that spell it, in reading order).
type Item = (Word, Vec<TextTile>);

/// Spelling words from letter tiles (Tier 2, §3.1): the names of every word that is not a
/// letter, and every prefix of them, so that a walk along letters stops as soon as no word
/// can continue.
struct Speller {
    words: std::collections::HashMap<&'static str, Word>,
    prefixes: std::collections::HashSet<String>,
}

impl Speller {
    fn new() -> Self {
        let mut words = std::collections::HashMap::new();
        let mut prefixes = std::collections::HashSet::new();
        for w in Word::all() {
            if matches!(w, Word::Letter(_)) {
                continue;
            }
            words.insert(w.name(), w);
            let name = w.name();
            for (i, _) in name.char_indices().skip(1) {
                prefixes.insert(name[..i].to_string());
            }
            prefixes.insert(name.to_string());
        }
        Self { words, prefixes }
    }

    /// The words spelled by letters starting at cell `p` of a run (`cells`, the tiles of each
    /// cell of the run) and going on along the run: one
    /// letter from each cell (every combination of stacked letters), at least two letters
    /// (a single letter is no word, [L178]), each a word of the vocabulary (the spec's "words in
    /// the level's object list", [L780]: this engine has no per-level list, so every word
    /// counts). Longest first.
    fn spelled(&self, cells: &[&[TextTile]], p: usize) -> Vec<Item> {
        let mut out = Vec::new();
        let mut stack: Vec<(usize, String, Vec<TextTile>)> = vec![(p, String::new(), Vec::new())];
        // Stacked letters multiply the spellings; a few thousand steps cover every real case.
        let mut budget = 4 * MAX_COMBINATIONS;
        while let Some((q, text, tiles)) = stack.pop() {
            budget = budget.saturating_sub(1);
            if budget == 0 {
                break;
            }
            if tiles.len() >= 2
                && let Some(&w) = self.words.get(text.as_str())
            {
                out.push((w, tiles.clone()));
            }
            let Some(cell) = cells.get(q) else {
                continue;
            };
            for t in *cell {
                if let Word::Letter(l) = t.word {
                    let next = format!("{text}{}", l.spelling());
                    if self.prefixes.contains(&next) {
                        let mut tl = tiles.clone();
                        tl.push(*t);
                        stack.push((q + 1, next, tl));
                    }
                }
            }
        }
        out.sort_by_key(|(_, t)| std::cmp::Reverse(t.len()));
        out
    }
}

/// The word sequences of a run of cells (`cells`, the tiles of each cell; §3.3 step 2, first
/// [`MAX_COMBINATIONS`] in order):
/// at each cell one of its texts (a letter alone stands for itself and forms no sentence) or
/// a word spelled by letters from that cell on, which then covers as many cells as it has
/// letters (§3.1). Without letters (`spell` is `None` when the line has none) this is one
/// text per cell, every combination.
fn sequences(cells: &[&[TextTile]], spell: Option<&Speller>) -> Vec<Vec<Item>> {
    let options: Vec<Vec<Item>> = (0..cells.len())
        .map(|p| {
            let mut v = spell.map(|s| s.spelled(cells, p)).unwrap_or_default();
            v.extend(cells[p].iter().map(|t| (t.word, vec![*t])));
            v
        })
        .collect();
    let mut out: Vec<Vec<Item>> = Vec::new();
    walk(&options, 0, &mut Vec::new(), &mut out);
    out
}

/// Depth-first through the options from cell `p` on, options in order, so that the sequences
/// come in the order of the combinations of one text per cell. Every path reaches the end of
/// the run (a spelled word ends inside it), so the work is at most [`MAX_COMBINATIONS`] times
/// the run length.
fn walk(options: &[Vec<Item>], p: usize, seq: &mut Vec<Item>, out: &mut Vec<Vec<Item>>) {
    let Some(opts) = options.get(p) else {
        out.push(seq.clone());
        return;
    };
    for item in opts {
        if out.len() >= MAX_COMBINATIONS {
            return;
        }
        seq.push(item.clone());
        walk(options, p + item.1.len().max(1), seq, out);
        seq.pop();
    }
}

/// The text tiles that are in no rule's tiles (to dim them), in the order of `texts`.
pub fn unused_text(texts: &[TextTile], rules: &[FormedRule]) -> Vec<TextTile> {
    let used: std::collections::HashSet<(Pos, usize)> = rules
        .iter()
        .flat_map(|r| r.tiles.iter().map(|t| (t.pos, t.layer)))
        .collect();
    texts
        .iter()
        .filter(|t| !used.contains(&(t.pos, t.layer)))
        .copied()
        .collect()
}

/// Reads a rule written as words (`"baba on rock is you"`, as printed by [`Rule::text`]) with
/// the same grammar as the grid. Returns the rules of the first sentence, or `None` when the
/// words form no complete sentence or contain an unknown word. Used by tests and by the editor
/// to place typed sentences.
pub fn parse_words(text: &str) -> Option<Vec<Rule>> {
    let words: Option<Vec<Word>> = text
        .split_whitespace()
        .map(|w| Word::from_name(&w.to_ascii_lowercase()))
        .collect();
    let words = words?;
    let mut room = MAX_LINE_RULE_TILES;
    let rules: Vec<Rule> = parse_sequence(&words, &mut room)
        .into_iter()
        .map(|(r, _)| r)
        .collect();
    (!rules.is_empty()).then_some(rules)
}

/// The word sequence of a typed sentence (`"keke is push"`), for placing it as text tiles;
/// `None` when a word is unknown.
pub fn words_of(text: &str) -> Option<Vec<Word>> {
    text.split_whitespace()
        .map(|w| Word::from_name(&w.to_ascii_lowercase()))
        .collect()
}

/// Where the text tiles of a typed sentence go: from cell `at` to the right (or downwards when
/// `vertical`), one `(cell, token)` per word (`text_keke`, `text_is`, …). `None` when a word is
/// unknown, the sentence is empty, or it would leave a `width` × `height` map. The editor places
/// these tiles as one edit.
pub fn sentence_tiles(
    sentence: &str,
    at: Pos,
    vertical: bool,
    width: usize,
    height: usize,
) -> Option<Vec<(Pos, String)>> {
    let words = words_of(sentence)?;
    if words.is_empty() {
        return None;
    }
    words
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let pos = if vertical {
                Pos::new(at.x, at.y.checked_add(i)?)
            } else {
                Pos::new(at.x.checked_add(i)?, at.y)
            };
            (pos.x < width && pos.y < height).then(|| (pos, super::word::Kind::Text(*w).token()))
        })
        .collect()
}
