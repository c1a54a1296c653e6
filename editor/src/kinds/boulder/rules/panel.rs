//! The rule panel's own state ([`RulePanel`]) and the events its UI pushes ([`RuleEvent`]).
//! No egui here: the editor state owns a `RulePanel`, applies `RuleEvent`s to it, and keeps it
//! in step with the level ([`RulePanel::sync`]) after every action, undo and redo included.

use std::collections::BTreeSet;

use tilesmith_engine::Problem;
use tilesmith_engine::kind::boulder::{BoulderLevel, Rule};

use super::{
    RuleList, RuleOp, RuleRef, all_rules_text, parse_all_rules_text, parse_rule_text, rule_text,
};

/// Which side of a rule a block is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The `original` (pattern) list.
    Original,
    /// The `result` (write) list.
    Result,
}

/// How the selected rule is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RuleView {
    /// Blocks and controls.
    #[default]
    Visual,
    /// The selected rule as JSON.
    Json,
    /// Both lists as JSON.
    AllJson,
}

/// What the JSON buffer was made from, and what "Apply JSON" replaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JsonTarget {
    /// One rule.
    Rule(RuleRef),
    /// Both lists.
    All,
}

impl JsonTarget {
    /// `pre[2]`, or `all rules`.
    pub fn label(self) -> String {
        match self {
            JsonTarget::Rule(r) => r.label(),
            JsonTarget::All => "all rules".into(),
        }
    }
}

/// The rule panel's own state: selection, view, the JSON buffer, and the play-session
/// switches. None of it is part of the document (not undoable, not saved).
#[derive(Clone, Debug, Default)]
pub struct RulePanel {
    /// The selected rule.
    pub selected: Option<RuleRef>,
    /// The selected block of the selected rule.
    pub block: Option<(Side, usize)>,
    /// Visual or JSON.
    pub view: RuleView,
    /// The JSON text being edited.
    pub json: String,
    /// Problems of the JSON text when it was last applied.
    pub json_problems: Vec<Problem>,
    /// The text the buffer was loaded from: the buffer has unapplied edits when it differs.
    pub json_source: Option<String>,
    /// What the buffer was loaded from, and what "Apply JSON" replaces.
    pub json_for: Option<JsonTarget>,
    /// Rules switched off for the play session only.
    pub disabled: BTreeSet<RuleRef>,
    /// Rules with a breakpoint: a running play session stops at a tick where one fires.
    pub breakpoints: BTreeSet<RuleRef>,
    /// Show the map after applying the selected rule once (on a scratch copy).
    pub apply_once: bool,
}

/// What the rule panel asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum RuleEvent {
    /// Change the rule lists (one undoable edit).
    Op(RuleOp),
    /// Select a rule (or none).
    Select(Option<RuleRef>),
    /// Select a block of the selected rule (or none).
    SelectBlock(Option<(Side, usize)>),
    /// Switch a rule on or off for the play session.
    ToggleDisabled(RuleRef),
    /// Set or clear a breakpoint.
    ToggleBreakpoint(RuleRef),
    /// Show the selected rule applied once.
    SetApplyOnce(bool),
    /// Switch the view.
    SetView(RuleView),
    /// The JSON text changed (typing).
    JsonEdited(String),
    /// Check the JSON text and, when it is valid, replace what it was loaded from.
    ApplyJson,
    /// Drop the JSON text's edits and reload it from the level.
    RevertJson,
}

/// The rule at `r` in `level`, if it exists.
pub fn rule_at(level: &BoulderLevel, r: RuleRef) -> Option<&Rule> {
    match r.list {
        RuleList::Pre => level.pre.get(r.index),
        RuleList::Post => level.post.get(r.index),
    }
}

fn list_len(level: &BoulderLevel, l: RuleList) -> usize {
    match l {
        RuleList::Pre => level.pre.len(),
        RuleList::Post => level.post.len(),
    }
}

/// Where rule `r` is after `op` (for selection, switches and breakpoints), or `None` when the
/// op deleted it. Ops that only append or change rules in place keep every place.
pub fn remap(op: &RuleOp, r: RuleRef) -> Option<RuleRef> {
    match op {
        RuleOp::Delete(d) => {
            if d.list != r.list || r.index < d.index {
                Some(r)
            } else if r.index == d.index {
                None
            } else {
                Some(RuleRef::new(r.list, r.index - 1))
            }
        }
        RuleOp::Duplicate(d) if d.list == r.list && r.index > d.index => {
            Some(RuleRef::new(r.list, r.index + 1))
        }
        RuleOp::Move { from, to } => {
            if r == *from {
                return Some(*to);
            }
            let after_remove = remap(&RuleOp::Delete(*from), r)?;
            if after_remove.list == to.list && after_remove.index >= to.index {
                Some(RuleRef::new(to.list, after_remove.index + 1))
            } else {
                Some(after_remove)
            }
        }
        _ => Some(r),
    }
}

impl RulePanel {
    /// Follows the rules moved or deleted by `op` (call it when the op is applied).
    pub fn remap(&mut self, op: &RuleOp) {
        if let Some(s) = self.selected {
            let to = remap(op, s);
            if to != Some(s) {
                self.block = None;
            }
            self.selected = to;
        }
        self.disabled = self.disabled.iter().filter_map(|r| remap(op, *r)).collect();
        self.breakpoints = self
            .breakpoints
            .iter()
            .filter_map(|r| remap(op, *r))
            .collect();
        if let Some(JsonTarget::Rule(r)) = self.json_for
            && self.json_dirty()
        {
            // Unapplied text follows its rule; deleted: it stays, and Apply reports it.
            if let Some(to) = remap(op, r) {
                self.json_for = Some(JsonTarget::Rule(to));
            }
        }
    }

    /// Keeps the panel valid for `level` (after edits, undo and redo): the selection and the
    /// selected block exist (a selection past the end of its list moves to the last rule),
    /// switches and breakpoints refer to existing rules, and the JSON buffer shows the
    /// selected rule (or all rules) unless it holds unapplied edits.
    pub fn sync(&mut self, level: &BoulderLevel) {
        if let Some(s) = self.selected
            && s.index >= list_len(level, s.list)
        {
            let n = list_len(level, s.list);
            self.selected = (n > 0).then(|| RuleRef::new(s.list, n - 1));
            self.block = None;
        }
        match (self.selected.and_then(|s| rule_at(level, s)), self.block) {
            (Some(rule), Some((_, k))) if k >= rule.original.len() => self.block = None,
            (None, _) => self.block = None,
            _ => {}
        }
        let ok = |r: &RuleRef| r.index < list_len(level, r.list);
        self.disabled.retain(ok);
        self.breakpoints.retain(ok);
        if let Some((t, src)) = self.json_wanted(level)
            && !(self.json_for == Some(t) && self.json_source.as_deref() == Some(src.as_str()))
            && !self.json_dirty()
        {
            self.load_json(t, src);
        }
    }

    /// What the JSON view should show now: the selected rule (rule view) or both lists.
    pub fn json_wanted(&self, level: &BoulderLevel) -> Option<(JsonTarget, String)> {
        match self.view {
            RuleView::Visual => None,
            RuleView::Json => {
                let r = self.selected?;
                rule_at(level, r).map(|rule| (JsonTarget::Rule(r), rule_text(rule)))
            }
            RuleView::AllJson => Some((JsonTarget::All, all_rules_text(level))),
        }
    }

    /// True when the JSON buffer holds edits that were not applied.
    pub fn json_dirty(&self) -> bool {
        match &self.json_source {
            Some(s) => *s != self.json,
            None => !self.json.trim().is_empty(),
        }
    }

    fn load_json(&mut self, t: JsonTarget, src: String) {
        self.json = src.clone();
        self.json_source = Some(src);
        self.json_for = Some(t);
        self.json_problems.clear();
    }

    /// Reloads the JSON buffer from the level, dropping its edits.
    pub fn reload_json(&mut self, level: &BoulderLevel) {
        match self.json_wanted(level) {
            Some((t, src)) => self.load_json(t, src),
            None => {
                self.json.clear();
                self.json_source = None;
                self.json_for = None;
                self.json_problems.clear();
            }
        }
    }

    /// Parses the JSON buffer for what it was loaded from: the op that applies it, or the
    /// located problems (the same messages as `tilesmith check`).
    ///
    /// # Errors
    /// The problems of the text, or one saying its rule no longer exists.
    pub fn parse_json(&self, level: &BoulderLevel) -> Result<RuleOp, Vec<Problem>> {
        let target = self
            .json_for
            .or_else(|| self.json_wanted(level).map(|(t, _)| t))
            .unwrap_or(JsonTarget::All);
        match target {
            JsonTarget::Rule(r) => {
                let rule = parse_rule_text(&self.json)?;
                if rule_at(level, r).is_none() {
                    return Err(vec![Problem::error(
                        tilesmith_engine::JsonPath::root(),
                        format!(
                            "{} no longer exists (Revert to load the selected rule)",
                            r.label()
                        ),
                    )]);
                }
                Ok(RuleOp::Replace(r, rule))
            }
            JsonTarget::All => {
                let (pre, post) = parse_all_rules_text(&self.json)?;
                Ok(RuleOp::ReplaceAll(pre, post))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{apply_op, blank_rule};
    use super::*;

    fn level(pre: usize, post: usize) -> BoulderLevel {
        let mut l = BoulderLevel::new("t", 5, 5);
        l.pre = vec![blank_rule(); pre];
        l.post = vec![blank_rule(); post];
        for (i, r) in l.pre.iter_mut().enumerate() {
            r.name = Some(format!("pre{i}"));
        }
        l
    }

    #[test]
    fn remap_follows_moves_and_deletes() {
        let p = |i| RuleRef::new(RuleList::Pre, i);
        let q = |i| RuleRef::new(RuleList::Post, i);
        let mv = RuleOp::Move {
            from: p(0),
            to: p(2),
        };
        // [a b c d] -> [b c a d]
        assert_eq!(remap(&mv, p(0)), Some(p(2)));
        assert_eq!(remap(&mv, p(1)), Some(p(0)));
        assert_eq!(remap(&mv, p(2)), Some(p(1)));
        assert_eq!(remap(&mv, p(3)), Some(p(3)));
        let l = level(4, 0);
        let c = apply_op(&l, &mv).unwrap();
        assert_eq!(c.pre[2].name.as_deref(), Some("pre0"));
        assert_eq!(c.pre[0].name.as_deref(), Some("pre1"));
        let to_post = RuleOp::Move {
            from: p(1),
            to: q(0),
        };
        assert_eq!(remap(&to_post, p(2)), Some(p(1)));
        assert_eq!(remap(&to_post, q(0)), Some(q(1)));
        assert_eq!(remap(&RuleOp::Delete(p(1)), p(1)), None);
        assert_eq!(remap(&RuleOp::Delete(p(1)), p(3)), Some(p(2)));
        assert_eq!(remap(&RuleOp::Duplicate(p(1)), p(2)), Some(p(3)));
    }

    #[test]
    fn sync_keeps_selection_valid_and_does_not_clobber_edits() {
        let mut panel = RulePanel {
            selected: Some(RuleRef::new(RuleList::Pre, 3)),
            view: RuleView::Json,
            ..Default::default()
        };
        let l = level(2, 0);
        panel.sync(&l);
        assert_eq!(panel.selected, Some(RuleRef::new(RuleList::Pre, 1)));
        assert!(panel.json.contains("pre1"));
        panel.json = panel.json.replace("pre1", "typed");
        assert!(panel.json_dirty());
        panel.selected = Some(RuleRef::new(RuleList::Pre, 0));
        panel.sync(&l);
        assert!(panel.json.contains("typed"), "unapplied text is kept");
        assert_eq!(
            panel.json_for,
            Some(JsonTarget::Rule(RuleRef::new(RuleList::Pre, 1)))
        );
        panel.reload_json(&l);
        assert!(panel.json.contains("pre0"));
        assert!(!panel.json_dirty());
    }
}
