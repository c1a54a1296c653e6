//! The rule-block editor's model (issue: rule editor): operations on a level's `pre` and
//! `post` rule lists, the JSON view, and the snippet library. Pure functions over
//! [`BoulderLevel`]; no egui. Every operation gives new lists, which the editor stores as one
//! undoable edit, so rule changes undo like any other edit.
//!
//! Rules follow spec boulder §4.5: `original` and `result` always keep the same length, and a
//! result index (`TokenWrite::Copy(k)`) always points inside the window.

mod cache;
mod labels;
pub mod panel;
pub mod ui;
mod ui_blocks;
mod ui_json;

pub use cache::RuleCache;

use serde_json::Value;
use tilesmith_engine::kind::boulder::level::{rule_from_json, rule_to_json};
use tilesmith_engine::kind::boulder::{
    BoulderLevel, Pattern, Rule, Situation, Token, TokenPattern, TokenWrite, Write,
};
use tilesmith_engine::problem::locate;
use tilesmith_engine::{Dir, JsonPath, Problem};

/// Which rule list: `pre` (before the main rules) or `post` (after them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RuleList {
    /// The `pre` list.
    Pre,
    /// The `post` list.
    Post,
}

impl RuleList {
    /// `pre` or `post`.
    pub fn key(self) -> &'static str {
        match self {
            RuleList::Pre => "pre",
            RuleList::Post => "post",
        }
    }
}

/// A rule's place: its list and 0-based index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RuleRef {
    /// The list.
    pub list: RuleList,
    /// Index within the list.
    pub index: usize,
}

impl RuleRef {
    /// `pre[i]` or `post[i]`.
    pub fn new(list: RuleList, index: usize) -> Self {
        Self { list, index }
    }

    /// `pre[2]`, `post[0]`.
    pub fn label(self) -> String {
        format!("{}[{}]", self.list.key(), self.index)
    }

    /// True for the `post` list (the engine's `post` flag).
    pub fn is_post(self) -> bool {
        self.list == RuleList::Post
    }
}

/// One change to the rule lists.
#[derive(Clone, Debug, PartialEq)]
pub enum RuleOp {
    /// Append a new rule (`any`, `east`, `*` → `"0"`: matches everything, changes nothing).
    Add(RuleList),
    /// Insert a copy right after the rule.
    Duplicate(RuleRef),
    /// Remove the rule.
    Delete(RuleRef),
    /// Move a rule to another place (drag and drop); `to.index` is the index it gets in the
    /// destination list after removal from its old place.
    Move {
        /// The rule moved.
        from: RuleRef,
        /// Where it goes.
        to: RuleRef,
    },
    /// Set or clear the rule's `name` (a comment).
    SetName(RuleRef, Option<String>),
    /// Set the situation (with its sparsity for `rare`).
    SetSituation(RuleRef, Situation),
    /// Set the direction lines are read in.
    SetDirection(RuleRef, Dir),
    /// Replace block `block` of the `original` list.
    SetPattern {
        /// The rule.
        rule: RuleRef,
        /// Block index.
        block: usize,
        /// The new block.
        pattern: Pattern,
    },
    /// Replace block `block` of the `result` list.
    SetWrite {
        /// The rule.
        rule: RuleRef,
        /// Block index.
        block: usize,
        /// The new block.
        write: Write,
    },
    /// Add a block pair at the front or the end: `*` in the original, and in the result an
    /// index to the new block itself (the field keeps its token). Indices are renumbered.
    AddBlock {
        /// The rule.
        rule: RuleRef,
        /// Add before block 0 (true) or after the last block.
        front: bool,
    },
    /// Remove the block pair at the front or the end (a rule keeps at least one block). Result
    /// indices to the removed block become "keep own token".
    RemoveBlock {
        /// The rule.
        rule: RuleRef,
        /// Remove block 0 (true) or the last block.
        front: bool,
    },
    /// Replace a whole rule (from the JSON view).
    Replace(RuleRef, Rule),
    /// Replace both lists (from the all-rules JSON view).
    ReplaceAll(Vec<Rule>, Vec<Rule>),
    /// Append the rules of snippet `snippet` (an index into [`snippets`]).
    InsertSnippet(RuleList, usize),
}

/// The new lists after an op, with a name for the history list.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleChange {
    /// Shown in the undo history ("Add rule", "Rule direction", …).
    pub name: String,
    /// The new `pre` list.
    pub pre: Vec<Rule>,
    /// The new `post` list.
    pub post: Vec<Rule>,
}

/// A rule that matches everything and changes nothing: the start of a new rule.
pub fn blank_rule() -> Rule {
    Rule {
        name: None,
        situation: Situation::Any,
        direction: Dir::Right,
        original: vec![Pattern {
            token: TokenPattern::Any,
            values: vec![],
            extra: Default::default(),
        }],
        result: vec![Write {
            token: TokenWrite::Copy(0),
            values: vec![],
            extra: Default::default(),
        }],
        extra: Default::default(),
    }
}

fn list_mut<'a>(pre: &'a mut Vec<Rule>, post: &'a mut Vec<Rule>, l: RuleList) -> &'a mut Vec<Rule> {
    match l {
        RuleList::Pre => pre,
        RuleList::Post => post,
    }
}

/// Applies `op` to the lists of `level`. Returns `None` when the op refers to a rule or block
/// that does not exist, or would change nothing.
pub fn apply_op(level: &BoulderLevel, op: &RuleOp) -> Option<RuleChange> {
    let mut pre = level.pre.clone();
    let mut post = level.post.clone();
    let name = edit_lists(&mut pre, &mut post, op)?;
    if pre == level.pre && post == level.post {
        return None;
    }
    Some(RuleChange {
        name: name.into(),
        pre,
        post,
    })
}

/// Applies `op` to `pre` and `post` in place; returns its name for the history, or `None`
/// when it refers to a rule or block that does not exist.
fn edit_lists(pre: &mut Vec<Rule>, post: &mut Vec<Rule>, op: &RuleOp) -> Option<&'static str> {
    let name = match op {
        RuleOp::Add(list) => {
            list_mut(pre, post, *list).push(blank_rule());
            "Add rule"
        }
        RuleOp::Duplicate(r) => {
            let rule = rule_mut(pre, post, *r)?.clone();
            list_mut(pre, post, r.list).insert(r.index + 1, rule);
            "Duplicate rule"
        }
        RuleOp::Delete(r) => {
            rule_mut(pre, post, *r)?;
            list_mut(pre, post, r.list).remove(r.index);
            "Delete rule"
        }
        RuleOp::Move { from, to } => {
            let rule = rule_mut(pre, post, *from)?.clone();
            list_mut(pre, post, from.list).remove(from.index);
            let dest = list_mut(pre, post, to.list);
            dest.insert(to.index.min(dest.len()), rule);
            "Move rule"
        }
        RuleOp::SetName(r, n) => {
            rule_mut(pre, post, *r)?.name = n.clone().filter(|s| !s.is_empty());
            "Rule name"
        }
        RuleOp::SetSituation(r, s) => {
            rule_mut(pre, post, *r)?.situation = *s;
            "Rule situation"
        }
        RuleOp::SetDirection(r, d) => {
            rule_mut(pre, post, *r)?.direction = *d;
            "Rule direction"
        }
        RuleOp::SetPattern {
            rule,
            block,
            pattern,
        } => {
            *rule_mut(pre, post, *rule)?.original.get_mut(*block)? = pattern.clone();
            "Rule block"
        }
        RuleOp::SetWrite { rule, block, write } => {
            set_write(rule_mut(pre, post, *rule)?, *block, write)?;
            "Rule block"
        }
        RuleOp::AddBlock { rule, front } => {
            add_block(rule_mut(pre, post, *rule)?, *front);
            "Add block"
        }
        RuleOp::RemoveBlock { rule, front } => {
            remove_block(rule_mut(pre, post, *rule)?, *front)?;
            "Remove block"
        }
        RuleOp::Replace(r, rule) => {
            *rule_mut(pre, post, *r)? = rule.clone();
            "Edit rule JSON"
        }
        RuleOp::ReplaceAll(a, b) => {
            *pre = a.clone();
            *post = b.clone();
            "Edit rules JSON"
        }
        RuleOp::InsertSnippet(list, i) => {
            let s = snippets().into_iter().nth(*i)?;
            list_mut(pre, post, *list).extend(s.rules);
            "Insert snippet"
        }
    };
    Some(name)
}

/// The rule at `r` in `pre` or `post`, if it exists.
fn rule_mut<'a>(
    pre: &'a mut Vec<Rule>,
    post: &'a mut Vec<Rule>,
    r: RuleRef,
) -> Option<&'a mut Rule> {
    list_mut(pre, post, r.list).get_mut(r.index)
}

/// Replaces result block `block` of `r`; `None` when it or the block it copies does not exist.
fn set_write(r: &mut Rule, block: usize, write: &Write) -> Option<()> {
    if let TokenWrite::Copy(k) = write.token
        && k >= r.original.len()
    {
        return None;
    }
    *r.result.get_mut(block)? = write.clone();
    Some(())
}

/// Adds a block pair (`*` and "keep own token") at the front or the end of `r`, renumbering
/// the result indices.
fn add_block(r: &mut Rule, front: bool) {
    let any = Pattern {
        token: TokenPattern::Any,
        values: vec![],
        extra: Default::default(),
    };
    if front {
        for w in &mut r.result {
            if let TokenWrite::Copy(k) = &mut w.token {
                *k += 1;
            }
        }
        r.original.insert(0, any);
        r.result.insert(
            0,
            Write {
                token: TokenWrite::Copy(0),
                values: vec![],
                extra: Default::default(),
            },
        );
    } else {
        r.original.push(any);
        r.result.push(Write {
            token: TokenWrite::Copy(r.original.len() - 1),
            values: vec![],
            extra: Default::default(),
        });
    }
}

/// Removes the block pair at the front or the end of `r`; result indices to it become "keep
/// own token". `None` when `r` has only one block.
fn remove_block(r: &mut Rule, front: bool) -> Option<()> {
    if r.original.len() <= 1 {
        return None;
    }
    let removed = if front { 0 } else { r.original.len() - 1 };
    r.original.remove(removed);
    r.result.remove(removed);
    for (i, w) in r.result.iter_mut().enumerate() {
        if let TokenWrite::Copy(k) = &mut w.token {
            if *k == removed {
                *k = i;
            } else if *k > removed {
                *k -= 1;
            }
        }
    }
    Some(())
}

/// The merge key of an op, so that one interaction is one undo step: typing a rule's name,
/// or dragging a sparsity or a block's value, merges into the previous edit with the same key.
/// Ops that change structure (tokens, blocks, rules) get no key.
pub fn merge_key(level: &BoulderLevel, op: &RuleOp) -> Option<String> {
    let rule = |r: RuleRef| panel::rule_at(level, r);
    let names = |v: &[(tilesmith_engine::kind::boulder::ValueName, i64)]| {
        v.iter().map(|(n, _)| *n).collect::<Vec<_>>()
    };
    match op {
        RuleOp::SetName(r, _) => Some(format!("rule name {}", r.label())),
        RuleOp::SetSituation(r, Situation::Rare { .. })
            if matches!(rule(*r)?.situation, Situation::Rare { .. }) =>
        {
            Some(format!("rule sparsity {}", r.label()))
        }
        RuleOp::SetPattern {
            rule: r,
            block,
            pattern,
        } => {
            let old = rule(*r)?.original.get(*block)?;
            (old.token == pattern.token && names(&old.values) == names(&pattern.values))
                .then(|| format!("rule values {} original {block}", r.label()))
        }
        RuleOp::SetWrite {
            rule: r,
            block,
            write,
        } => {
            let old = rule(*r)?.result.get(*block)?;
            (old.token == write.token && names(&old.values) == names(&write.values))
                .then(|| format!("rule values {} result {block}", r.label()))
        }
        _ => None,
    }
}

/// One rule as JSON text (the single-rule JSON view): one member per line, one block per
/// line, in the layout level files use.
pub fn rule_text(rule: &Rule) -> String {
    tilesmith_engine::json_text::layout(&rule_to_json(rule))
}

/// Both lists as JSON text `{"pre": [...], "post": [...]}`, one rule per line.
pub fn all_rules_text(level: &BoulderLevel) -> String {
    let mut o = serde_json::Map::new();
    o.insert(
        "pre".into(),
        Value::Array(level.pre.iter().map(rule_to_json).collect()),
    );
    o.insert(
        "post".into(),
        Value::Array(level.post.iter().map(rule_to_json).collect()),
    );
    tilesmith_engine::json_text::layout(&Value::Object(o))
}

/// Parses the single-rule JSON view. Problems carry the same messages as `tilesmith check`,
/// located in `text` (line and column), with paths relative to the rule (`$.situation`).
///
/// # Errors
/// The located problems (errors and warnings) when the text is not a valid rule.
pub fn parse_rule_text(text: &str) -> Result<Rule, Vec<Problem>> {
    let v = parse_json(text)?;
    rule_from_json(&v, &JsonPath::root()).map_err(|mut p| {
        locate(text, &mut p);
        p
    })
}

/// Parses the all-rules JSON view: an object with optional `pre` and `post` arrays.
///
/// # Errors
/// The located problems, with paths like `$.pre[2].direction`.
pub fn parse_all_rules_text(text: &str) -> Result<(Vec<Rule>, Vec<Rule>), Vec<Problem>> {
    let v = parse_json(text)?;
    let root = JsonPath::root();
    let Value::Object(o) = &v else {
        return Err(vec![Problem {
            line: Some(1),
            column: Some(1),
            ..Problem::error(root, "expected an object {\"pre\": [...], \"post\": [...]}")
        }]);
    };
    let mut problems = Vec::new();
    let mut lists = [Vec::new(), Vec::new()];
    for (n, key) in ["pre", "post"].iter().enumerate() {
        match o.get(*key) {
            None => {}
            Some(Value::Array(a)) => {
                for (i, r) in a.iter().enumerate() {
                    match rule_from_json(r, &root.key(key).index(i)) {
                        Ok(rule) => lists[n].push(rule),
                        Err(p) => problems.extend(p),
                    }
                }
            }
            Some(_) => problems.push(Problem::error(
                root.key(key),
                format!("\"{key}\" must be an array of rules"),
            )),
        }
    }
    for k in o.keys().filter(|k| *k != "pre" && *k != "post") {
        problems.push(Problem::error(
            root.key(k),
            format!("unknown member \"{k}\" (only \"pre\" and \"post\")"),
        ));
    }
    if problems.iter().any(Problem::is_error) {
        locate(text, &mut problems);
        return Err(problems);
    }
    let [pre, post] = lists;
    Ok((pre, post))
}

/// `text` as JSON, or its problems: a syntax error at its line and column, or a member name
/// given twice in one object (as every file Tilesmith reads: `json_keys::repeated_keys`).
fn parse_json(text: &str) -> Result<Value, Vec<Problem>> {
    let v = parse_json_syntax(text)?;
    let repeated = tilesmith_engine::json_keys::repeated_keys(text);
    if repeated.is_empty() {
        Ok(v)
    } else {
        Err(repeated)
    }
}

fn parse_json_syntax(text: &str) -> Result<Value, Vec<Problem>> {
    serde_json::from_str(text).map_err(|e| {
        let full = e.to_string();
        let msg = full
            .rfind(" at line ")
            .map_or(full.clone(), |i| full[..i].to_string());
        vec![Problem {
            line: Some(e.line().max(1)),
            column: Some(e.column().max(1)),
            ..Problem::error(JsonPath::root(), format!("invalid JSON: {msg}"))
        }]
    })
}

/// A ready-made group of rules the designer can insert and adapt.
#[derive(Clone, Debug)]
pub struct Snippet {
    /// Short title for the menu.
    pub title: &'static str,
    /// What it does, one sentence.
    pub help: &'static str,
    /// The rules inserted.
    pub rules: Vec<Rule>,
}

fn parse_snippet(json: &str) -> Vec<Rule> {
    let v: Value = serde_json::from_str(json).expect("snippet JSON is valid");
    v.as_array()
        .expect("snippet is a list")
        .iter()
        .map(|r| rule_from_json(r, &JsonPath::root()).expect("snippet rule is valid"))
        .collect()
}

/// The snippet library: fire spreading into mud, a walking ghostling, sand through a sieve, a
/// conveyor, a pot that turns sand into gems, and a teleporter.
pub fn snippets() -> Vec<Snippet> {
    let fire = ["east", "west", "north", "south"]
        .iter()
        .map(|d| {
            format!(
                r#"{{"name":"fire spreads {d} into mud","situation":"rare","sparsity":5,"direction":"{d}","original":[{{"token":"fire"}},{{"token":"mud"}}],"result":[{{"token":"0"}},{{"token":"fire"}}]}}"#
            )
        })
        .collect::<Vec<_>>()
        .join(",");
    vec![
        Snippet {
            title: "Fire spreads into mud",
            help: "Every 5 ticks fire takes the mud next to it, in all four directions.",
            rules: parse_snippet(&format!("[{fire}]")),
        },
        Snippet {
            title: "Ghostling walks",
            help: "A ghostling not yet moved this tick walks one field east into a free path.",
            rules: parse_snippet(
                r#"[{"name":"ghostling walks east","situation":"any","direction":"east","original":[{"token":"ghostling","values":{"moved":0}},{"token":"path","values":{"moved":0}}],"result":[{"token":"path","values":{"moved":1}},{"token":"ghostling","values":{"moved":1}}]}]"#,
            ),
        },
        Snippet {
            title: "Sand falls through a sieve",
            help: "Sand on a sieve with a free path below drops through it.",
            rules: parse_snippet(
                r#"[{"name":"sand falls through a sieve","situation":"any","direction":"south","original":[{"token":"sand","values":{"moved":0}},{"token":"sieve"},{"token":"path","values":{"moved":0}}],"result":[{"token":"path","values":{"moved":1}},{"token":"1"},{"token":"sand","values":{"moved":1}}]}]"#,
            ),
        },
        Snippet {
            title: "Conveyor",
            help: "An eastthing belt pushes the stone or gem right of it one field east onto a free path.",
            rules: parse_snippet(
                r#"[{"name":"conveyor pushes east","situation":"any","direction":"west","original":[{"token":"path","values":{"moved":0}},{"token":["stone","gem"],"values":{"moved":0}},{"token":"eastthing"}],"result":[{"token":"1","values":{"moved":1}},{"token":"path","values":{"moved":1}},{"token":"2"}]}]"#,
            ),
        },
        Snippet {
            title: "Pot cooks sand into a gem",
            help: "Sand resting on a pot is cooked: the sand becomes a gem.",
            rules: parse_snippet(
                r#"[{"name":"pot cooks sand","situation":"any","direction":"south","original":[{"token":"sand"},{"token":"pot"}],"result":[{"token":"gem"},{"token":"1"}]}]"#,
            ),
        },
        Snippet {
            title: "Teleporter",
            help: "An object on the north side of a norththing…souththing pair (one field apart) jumps to the south side.",
            rules: parse_snippet(
                r#"[{"name":"teleport south","situation":"any","direction":"south","original":[{"token":["stone","gem","me"],"values":{"moved":0}},{"token":"norththing"},{"token":"*"},{"token":"souththing"},{"token":"path","values":{"moved":0}}],"result":[{"token":"path","values":{"moved":1}},{"token":"1"},{"token":"2"},{"token":"3"},{"token":"0","values":{"moved":1}}]}]"#,
            ),
        },
    ]
}

/// The token names offered in block pickers, in palette order.
pub fn token_names() -> Vec<&'static str> {
    Token::ALL.iter().map(|t| t.name()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level_with(pre: Vec<Rule>) -> BoulderLevel {
        let mut l = BoulderLevel::new("t", 5, 5);
        l.pre = pre;
        l
    }

    fn rule(json: &str) -> Rule {
        parse_rule_text(json).unwrap()
    }

    #[test]
    fn snippets_are_valid_and_named() {
        let s = snippets();
        assert!(s.len() >= 4);
        for sn in &s {
            assert!(!sn.rules.is_empty());
            assert!(
                sn.rules
                    .iter()
                    .all(|r| r.name.is_some() && r.original.len() == r.result.len())
            );
        }
        assert_eq!(s[0].rules.len(), 4, "fire spreads in four directions");
    }

    #[test]
    fn adding_blocks_keeps_lengths_equal_and_renumbers_indices() {
        let r = rule(
            r#"{"situation":"any","direction":"west","original":[{"token":"stone"},{"token":"*"}],"result":[{"token":"1"},{"token":"0"}]}"#,
        );
        let l = level_with(vec![r]);
        let at = RuleRef::new(RuleList::Pre, 0);
        let c = apply_op(
            &l,
            &RuleOp::AddBlock {
                rule: at,
                front: true,
            },
        )
        .unwrap();
        let r = &c.pre[0];
        assert_eq!(r.original.len(), 3);
        assert_eq!(r.result.len(), 3);
        assert_eq!(r.original[0].token, TokenPattern::Any);
        // The swap still swaps the same two fields, now at positions 1 and 2.
        assert_eq!(
            r.result.iter().map(|w| w.token).collect::<Vec<_>>(),
            [
                TokenWrite::Copy(0),
                TokenWrite::Copy(2),
                TokenWrite::Copy(1)
            ]
        );
        let mut l2 = l.clone();
        l2.pre = c.pre;
        let c = apply_op(
            &l2,
            &RuleOp::RemoveBlock {
                rule: at,
                front: false,
            },
        )
        .unwrap();
        // Block 2 is gone; the result at 1 copied it, so it keeps its own token now.
        assert_eq!(
            c.pre[0].result.iter().map(|w| w.token).collect::<Vec<_>>(),
            [TokenWrite::Copy(0), TokenWrite::Copy(1)]
        );
        let one = level_with(vec![blank_rule()]);
        assert!(
            apply_op(
                &one,
                &RuleOp::RemoveBlock {
                    rule: at,
                    front: true
                }
            )
            .is_none(),
            "a rule keeps one block"
        );
    }

    #[test]
    fn moving_and_deleting_rules() {
        let a = RuleRef::new(RuleList::Pre, 0);
        let mut l = level_with(vec![blank_rule(), blank_rule()]);
        l.pre[1].name = Some("second".into());
        let c = apply_op(
            &l,
            &RuleOp::Move {
                from: RuleRef::new(RuleList::Pre, 1),
                to: RuleRef::new(RuleList::Post, 0),
            },
        )
        .unwrap();
        assert_eq!(c.pre.len(), 1);
        assert_eq!(c.post[0].name.as_deref(), Some("second"));
        assert!(apply_op(&l, &RuleOp::Delete(RuleRef::new(RuleList::Pre, 7))).is_none());
        assert_eq!(apply_op(&l, &RuleOp::Duplicate(a)).unwrap().pre.len(), 3);
        assert!(
            apply_op(&l, &RuleOp::SetDirection(a, Dir::Right)).is_none(),
            "no change"
        );
    }

    #[test]
    fn json_views_round_trip_and_report_located_problems() {
        let r = rule(
            r#"{"name":"x","situation":"rare","sparsity":3,"direction":"north","original":[{"token":["mud","path"],"values":{"a":0}}],"result":[{"token":"0","values":{"gems":1}}]}"#,
        );
        assert_eq!(parse_rule_text(&rule_text(&r)).unwrap(), r);
        let l = level_with(vec![r.clone()]);
        let (pre, post) = parse_all_rules_text(&all_rules_text(&l)).unwrap();
        assert_eq!((pre, post), (vec![r], vec![]));
        let bad = "{\n  \"situation\": \"sometimes\",\n  \"direction\": \"east\",\n  \"original\": [{\"token\": \"mud\"}],\n  \"result\": [{\"token\": \"0\"}]\n}";
        let e = parse_rule_text(bad).unwrap_err();
        assert_eq!(
            e[0].render("rule"),
            "rule:2:16: unknown situation \"sometimes\" (known: any, rare, left, right, up, down, metaleft, metaright, metaup, metadown) (at $.situation)"
        );
        let e = parse_all_rules_text("{\"pre\": [{\"situation\": \"any\"}]}").unwrap_err();
        assert!(e.iter().any(|p| p.path.to_string() == "$.pre[0]"));
    }
}
