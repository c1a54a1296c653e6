//! Static checks and previews of level rules, for the rule editor (spec boulder §4.4, §4.5).
//!
//! - [`reachable_tokens`]: the tokens that can ever be on the map: those on it at the start,
//!   those the main rules can create from them, and those rules can write once their own
//!   tokens are reachable (a fixed point).
//! - [`never_matching`]: rules that need a token that can never be on the map.
//! - [`preview`]: where a rule would match on the design right now, and the map after applying
//!   it once, on a scratch copy.

use super::board::Board;
use super::game::BoulderGame;
use super::level::{BoulderLevel, Cell, Rule, TokenPattern, TokenWrite};
use super::rules::CompiledRule;
use super::token::{ALL_TOKENS, Globals, Token, TokenSet, ValueKey, ValueName};
use tilesmith_core::grid::{Grid, Pos};
use tilesmith_core::observe::{Collector, Phase};

/// The set of tokens (bit mask, see [`Token::bit`]) that can ever be on the map of `level`.
pub fn reachable_tokens(level: &BoulderLevel) -> TokenSet {
    let mut set: TokenSet = level.map.cells().iter().fold(0, |m, c| m | c.token.bit());
    let rules: Vec<&Rule> = level.pre.iter().chain(&level.post).collect();
    loop {
        let before = set;
        let has = |t: Token| before & t.bit() != 0;
        // Main rules (§4.4): anything that moves or is dug leaves path; crushing or enemies
        // meeting the figure make gems; a blockling's end makes explosion, which becomes path;
        // slime spreads and ends as gem or (over maxslime) stone.
        let movers = [
            Token::Me,
            Token::Stone,
            Token::Gem,
            Token::Swapling,
            Token::Xling,
            Token::Blockling,
        ];
        if movers.iter().any(|t| has(*t)) {
            set |= Token::Path.bit();
        }
        if has(Token::Me) || has(Token::Swapling) || has(Token::Xling) {
            set |= Token::Gem.bit();
        }
        if has(Token::Blockling) {
            set |= Token::Explosion.bit();
        }
        if has(Token::Explosion) {
            set |= Token::Path.bit();
        }
        if has(Token::Slime) {
            set |= Token::Gem.bit();
            if level.maxslime.is_some() {
                set |= Token::Stone.bit();
            }
        }
        for r in &rules {
            if !can_match(r, before) {
                continue;
            }
            for w in &r.result {
                if let TokenWrite::Set(t) = w.token {
                    set |= t.bit();
                }
                for (k, v) in &w.values {
                    if *v > 0 && matches!(k, ValueName::Field(ValueKey::Bam)) {
                        set |= Token::Explosion.bit() | Token::Path.bit();
                    }
                    if *v > 0 && matches!(k, ValueName::Field(ValueKey::Bamrich)) {
                        set |= Token::Gem.bit();
                    }
                }
            }
        }
        if set == before {
            return set;
        }
    }
}

/// True when every block of the rule's `original` accepts some token of `set`.
fn can_match(r: &Rule, set: TokenSet) -> bool {
    r.original.iter().all(|b| match &b.token {
        TokenPattern::Any => true,
        TokenPattern::OneOf(ts) => ts.iter().any(|t| set & t.bit() != 0),
        TokenPattern::Index(_) => false,
    })
}

/// One rule that can never match, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NeverMatches {
    /// True for the `post` list.
    pub post: bool,
    /// Index in its list.
    pub index: usize,
    /// Index of the first block that can never match.
    pub block: usize,
    /// The tokens that block needs, none of which can ever be on the map.
    pub missing: Vec<Token>,
}

/// Rules with a block that no reachable token can satisfy (see [`reachable_tokens`]).
pub fn never_matching(level: &BoulderLevel) -> Vec<NeverMatches> {
    let set = reachable_tokens(level);
    let mut out = Vec::new();
    for (post, rules) in [(false, &level.pre), (true, &level.post)] {
        for (index, r) in rules.iter().enumerate() {
            let bad = r
                .original
                .iter()
                .enumerate()
                .find_map(|(k, b)| match &b.token {
                    TokenPattern::OneOf(ts) if ts.iter().all(|t| set & t.bit() == 0) => {
                        Some((k, ts.clone()))
                    }
                    _ => None,
                });
            if let Some((block, missing)) = bad {
                out.push(NeverMatches {
                    post,
                    index,
                    block,
                    missing,
                });
            }
        }
    }
    out
}

/// What one rule does to the design when applied once.
#[derive(Clone, Debug, PartialEq)]
pub struct Preview {
    /// The first field of each match, in the order the engine applies them (lines in fixed
    /// order, leftmost non-overlapping matches within a line).
    pub matches: Vec<Pos>,
    /// The fields of each match, window order (position 0 first).
    pub windows: Vec<Vec<Pos>>,
    /// The map after applying the rule once.
    pub after: Grid<Cell>,
    /// Fields whose contents differ from before, row-major.
    pub changed: Vec<Pos>,
}

/// Applies `rule` once to `map` as it would be seen by the first tick's rules: after the value
/// reset of §4.3. Nothing outside the returned [`Preview`] changes. `globals` are the globals to
/// match against (the level's `state`, or zeros).
pub fn preview(map: &Grid<Cell>, rule: &Rule, globals: Globals) -> Preview {
    let mut level = BoulderLevel::new("preview", 3, 3);
    level.map = map.clone();
    let mut game = BoulderGame::new(level, 0);
    game.reset_for_preview();
    let start = game.board().clone();
    let mut board: Board = start.clone();
    let mut g = globals;
    let mut c = Collector::default();
    CompiledRule::new(rule).apply(&mut board, &mut g, Phase::Pre(0), &mut c);
    let matches: Vec<Pos> = c.fired.into_iter().flat_map(|(_, v)| v).collect();
    let (dx, dy) = rule.direction.delta();
    let windows = matches
        .iter()
        .map(|p| {
            (0..rule.original.len() as isize)
                .map(|k| {
                    Pos::new(
                        (p.x as isize + dx * k) as usize,
                        (p.y as isize + dy * k) as usize,
                    )
                })
                .collect()
        })
        .collect();
    let changed = (0..board.len())
        .filter(|&i| board.cell(i) != start.cell(i))
        .map(|i| board.pos(i))
        .collect();
    Preview {
        matches,
        windows,
        after: board.to_grid(),
        changed,
    }
}

/// The token set of every token (re-exported for callers that show "all tokens").
pub const EVERY_TOKEN: TokenSet = ALL_TOKENS;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::rule_from_json;
    use tilesmith_core::problem::JsonPath;

    fn rule(v: serde_json::Value) -> Rule {
        rule_from_json(&v, &JsonPath::root()).unwrap()
    }

    #[test]
    fn tokens_created_by_rules_and_main_rules_are_reachable() {
        let mut l = BoulderLevel::new("t", 5, 5); // wall, mud, me, exit
        l.pre.push(rule(serde_json::json!({"situation":"any","direction":"east","original":[{"token":"mud"}],"result":[{"token":"fire"}]})));
        l.pre.push(rule(serde_json::json!({"situation":"any","direction":"east","original":[{"token":"fire"}],"result":[{"token":"pot"}]})));
        l.post.push(rule(serde_json::json!({"situation":"any","direction":"east","original":[{"token":"sieve"}],"result":[{"token":"sand"}]})));
        let set = reachable_tokens(&l);
        for t in [Token::Fire, Token::Pot, Token::Path, Token::Gem] {
            assert!(set & t.bit() != 0, "{t:?}");
        }
        for t in [Token::Sieve, Token::Sand, Token::Slime, Token::Explosion] {
            assert!(set & t.bit() == 0, "{t:?}");
        }
        assert_eq!(
            never_matching(&l),
            vec![NeverMatches {
                post: true,
                index: 0,
                block: 0,
                missing: vec![Token::Sieve]
            }]
        );
    }

    #[test]
    fn preview_sees_reset_values_and_changes_nothing_else() {
        let map = Grid::from_vec(
            3,
            1,
            vec![
                Cell::new(Token::Stone),
                Cell::new(Token::Mud),
                Cell::new(Token::Stone),
            ],
        )
        .unwrap();
        let r = rule(
            serde_json::json!({"situation":"any","direction":"east","original":[{"token":"stone","values":{"loose":1}}],"result":[{"token":"gem"}]}),
        );
        let p = preview(&map, &r, [0; 5]);
        assert_eq!(p.matches, vec![Pos::new(0, 0), Pos::new(2, 0)]);
        assert_eq!(p.changed, vec![Pos::new(0, 0), Pos::new(2, 0)]);
        assert_eq!(p.after.get(Pos::new(0, 0)).unwrap().token, Token::Gem);
        assert_eq!(map.get(Pos::new(0, 0)).unwrap().token, Token::Stone);
    }
}
