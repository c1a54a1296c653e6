//! Level rules compiled for matching (spec boulder §4.5).
//!
//! A rule is compiled once into token bit masks and split value conditions. Matching walks each
//! line from its start, takes the leftmost match, writes the result, and resumes after the
//! window (non-overlapping). A line, or the whole rule, is skipped without scanning when the
//! row/column summaries show that a needed token is absent, or that a value a block needs
//! non-zero is 0 on every field of the line.
//!
//! Globals are the same on every field and change only when a rule matches (§6 V4, L10), so
//! a rule's global conditions are checked once when it starts (false: the rule is skipped) and
//! again after each of its matches that wrote a global (false: the rule stops).

use super::board::{Board, ValueSet};
use super::level::{Rule, Situation, TokenPattern, TokenWrite};
use super::token::{ALL_TOKENS, Global, Globals, Token, TokenSet, ValueKey, ValueName};
use tilesmith_core::grid::Dir;
use tilesmith_core::input::Input;
use tilesmith_core::observe::{Phase, TickObserver};

#[derive(Clone, Debug)]
struct Block {
    mask: TokenSet,
    field: Vec<(ValueKey, i64)>,
}

#[derive(Clone, Debug)]
struct WriteOp {
    token: TokenWrite,
    field: Vec<(ValueKey, i64)>,
    global: Vec<(Global, i64)>,
}

/// A rule ready for matching.
#[derive(Clone, Debug)]
pub struct CompiledRule {
    situation: Situation,
    dir: Dir,
    blocks: Vec<Block>,
    writes: Vec<WriteOp>,
    /// Masks of the blocks that are not `*`: a line lacking any of them cannot match.
    needed: Vec<TokenSet>,
    /// Values some block needs non-zero: a line where one of them is 0 everywhere cannot match.
    needed_values: ValueSet,
    /// The global conditions of every block (all must hold for any match).
    globals: Vec<(Global, i64)>,
    /// True when a result block writes a global.
    writes_globals: bool,
}

/// Field conditions or writes, and global ones.
type Split = (Vec<(ValueKey, i64)>, Vec<(Global, i64)>);

fn split(values: &[(ValueName, i64)]) -> Split {
    let mut f = Vec::new();
    let mut g = Vec::new();
    for (n, v) in values {
        match n {
            ValueName::Field(k) => f.push((*k, *v)),
            ValueName::Global(x) => g.push((*x, *v)),
        }
    }
    (f, g)
}

/// `n` = 0 requires 0; `n` > 0 requires at least `n` (§4.5).
#[inline]
fn value_matches(have: u32, n: i64) -> bool {
    if n == 0 {
        have == 0
    } else {
        n > 0 && have as i64 >= n
    }
}

/// `n` = 0 sets 0; other `n` is added, clamped to 0…u32::MAX (§4.5).
#[inline]
pub fn value_write(have: u32, n: i64) -> u32 {
    if n == 0 {
        0
    } else {
        (have as i64 + n).clamp(0, u32::MAX as i64) as u32
    }
}

impl CompiledRule {
    /// Compiles `rule`.
    pub fn new(rule: &Rule) -> Self {
        let mut globals = Vec::new();
        let blocks: Vec<Block> = rule
            .original
            .iter()
            .map(|p| {
                let mask = match &p.token {
                    TokenPattern::Any => ALL_TOKENS,
                    TokenPattern::OneOf(ts) => ts.iter().fold(0, |m, t| m | t.bit()),
                    TokenPattern::Index(_) => 0,
                };
                let (field, global) = split(&p.values);
                globals.extend(global);
                Block { mask, field }
            })
            .collect();
        let writes: Vec<WriteOp> = rule
            .result
            .iter()
            .map(|w| {
                let (field, global) = split(&w.values);
                WriteOp {
                    token: w.token,
                    field,
                    global,
                }
            })
            .collect();
        let needed = blocks
            .iter()
            .map(|b| b.mask)
            .filter(|&m| m != ALL_TOKENS)
            .collect();
        // `n` > 0 needs a non-zero value (§4.5); `n` = 0 and `n` < 0 need no line summary.
        let needed_values = blocks
            .iter()
            .flat_map(|b| b.field.iter())
            .filter(|(_, n)| *n > 0)
            .fold(0, |m, (k, _)| m | (1 << *k as u16));
        let writes_globals = writes.iter().any(|w| !w.global.is_empty());
        Self {
            situation: rule.situation,
            dir: rule.direction,
            blocks,
            writes,
            needed,
            needed_values,
            globals,
            writes_globals,
        }
    }

    /// True when the rule runs in tick number `tick` (1-based) with `input` (§4.5, §6 L9).
    pub fn active(&self, input: Input, tick: u64) -> bool {
        match self.situation {
            Situation::Any => true,
            Situation::Rare { sparsity } => sparsity > 0 && tick.is_multiple_of(sparsity as u64),
            Situation::Input(d) => input == Input::Move(d),
            Situation::Meta(d) => input == Input::Meta(d),
        }
    }

    /// Runs the rule once over the whole board: every line in fixed order (rows top to bottom,
    /// columns left to right), each from its start in the rule's direction. Reports every match
    /// to `obs` as the position of the window's first field. Returns the number of matches.
    pub fn apply<O: TickObserver>(
        &self,
        board: &mut Board,
        globals: &mut Globals,
        phase: Phase,
        obs: &mut O,
    ) -> usize {
        let len = self.blocks.len();
        if len == 0 || self.blocks.iter().any(|b| b.mask == 0) {
            return 0;
        }
        if !self.globals_hold(globals) {
            return 0;
        }
        let whole = board.mask();
        if self.needed.iter().any(|m| whole & m == 0)
            || board.values_mask() & self.needed_values != self.needed_values
        {
            return 0;
        }
        let (w, h) = (board.width() as isize, board.height() as isize);
        let horizontal = self.dir.is_horizontal();
        let (lines, line_len) = if horizontal { (h, w) } else { (w, h) };
        if len as isize > line_len {
            return 0;
        }
        let mut snapshot: Vec<Token> = Vec::with_capacity(len);
        let mut matches = 0;
        for l in 0..lines {
            let (line_mask, line_values) = if horizontal {
                (board.row_mask(l as usize), board.row_values(l as usize))
            } else {
                (board.col_mask(l as usize), board.col_values(l as usize))
            };
            if line_values & self.needed_values != self.needed_values
                || self.needed.iter().any(|m| line_mask & m == 0)
            {
                continue;
            }
            let (start, stride) = match self.dir {
                Dir::Right => (l * w, 1),
                Dir::Left => (l * w + w - 1, -1),
                Dir::Down => (l, w),
                Dir::Up => ((h - 1) * w + l, -w),
            };
            let mut p = 0isize;
            while p + len as isize <= line_len {
                let at = |k: usize| (start + (p + k as isize) * stride) as usize;
                if self.matches_at(board, &at) {
                    snapshot.clear();
                    snapshot.extend((0..len).map(|k| board.token(at(k))));
                    for (k, wr) in self.writes.iter().enumerate() {
                        let i = at(k);
                        let t = match wr.token {
                            TokenWrite::Set(t) => t,
                            TokenWrite::Copy(j) => snapshot[j],
                        };
                        board.set_token(i, t);
                        for &(key, n) in &wr.field {
                            board.set_val(i, key, value_write(board.val(i, key), n));
                        }
                        for &(g, n) in &wr.global {
                            globals[g as usize] = value_write(globals[g as usize], n);
                        }
                    }
                    obs.rule_fired(phase, board.pos(at(0)));
                    matches += 1;
                    if self.writes_globals && !self.globals_hold(globals) {
                        return matches;
                    }
                    p += len as isize;
                } else {
                    p += 1;
                }
            }
        }
        matches
    }

    /// True when every global condition of the rule holds.
    fn globals_hold(&self, globals: &Globals) -> bool {
        self.globals
            .iter()
            .all(|&(g, n)| value_matches(globals[g as usize], n))
    }

    /// True when the window at `at` matches, global conditions aside (they hold whenever this
    /// is asked).
    #[inline]
    fn matches_at(&self, board: &Board, at: &impl Fn(usize) -> usize) -> bool {
        self.blocks.iter().enumerate().all(|(k, b)| {
            let i = at(k);
            b.mask & board.token(i).bit() != 0
                && b.field
                    .iter()
                    .all(|&(key, n)| value_matches(board.val(i, key), n))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_semantics_follow_the_spec_table() {
        // §4.5: field before / block / field after.
        assert_eq!(value_write(5, 4), 9);
        assert_eq!(value_write(5, -4), 1);
        assert_eq!(value_write(4, -5), 0);
        assert_eq!(value_write(7, 0), 0);
        assert!(value_matches(0, 0) && !value_matches(1, 0));
        assert!(value_matches(3, 2) && value_matches(2, 2) && !value_matches(1, 2));
        assert!(!value_matches(5, -1));
    }
}
