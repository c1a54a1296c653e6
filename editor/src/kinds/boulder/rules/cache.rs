//! The rule editor's side of [`BoulderDoc`]: applying [`RuleEvent`]s (every rule change is
//! one undoable [`BoulderEdit::Rules`]), keeping the [`super::panel::RulePanel`] valid after
//! every action, and the cached preview of the selected rule.

use tilesmith_engine::Grid;
use tilesmith_engine::kind::boulder::Cell;
use tilesmith_engine::kind::boulder::analysis::{self, NeverMatches, Preview};

use super::panel::{RuleEvent, RuleView, rule_at};
use super::{RuleList, RuleOp, RuleRef, apply_op, merge_key};
use crate::doc::Cx;
use crate::doc::map::{DocEdit, MapOps as _};
use crate::kinds::boulder::BoulderDoc;
use crate::kinds::boulder::edit::BoulderEdit;

/// The selected rule's preview and the never-matching rules, recomputed only when the level
/// (its history generation) or the selection changes.
#[derive(Debug, Default)]
pub struct RuleCache {
    preview: Option<Preview>,
    preview_key: Option<(u64, RuleRef)>,
    never: Vec<NeverMatches>,
    never_key: Option<u64>,
    /// Counts preview recomputations (so the canvas knows when its texture is stale).
    serial: u64,
    /// (generation, selection, view) when the panel was last synced with the level.
    synced: Option<(u64, Option<RuleRef>, RuleView)>,
}

impl BoulderDoc {
    /// The selected rule's preview on the design (matches in engine order, the map after
    /// applying it once, the changed fields), if a rule is selected.
    pub fn rule_preview(&self) -> Option<&Preview> {
        self.rule_cache.preview.as_ref()
    }

    /// How many times the preview was recomputed (for the canvas texture cache).
    pub fn rule_preview_serial(&self) -> u64 {
        self.rule_cache.serial
    }

    /// The rules of the design that can never match.
    pub fn never_matching(&self) -> &[NeverMatches] {
        &self.rule_cache.never
    }

    /// True when the canvas shows the selected rule's matches: the rule editor is open
    /// (`rules_tab`), a rule is selected, and no play session runs.
    pub fn preview_shown(&self, rules_tab: bool) -> bool {
        self.play.is_none() && rules_tab && self.rule_preview().is_some()
    }

    /// The map the canvas shows instead of the design with "apply once" on: the scratch copy
    /// after the selected rule ran once.
    pub fn apply_once_map(&self, rules_tab: bool) -> Option<&Grid<Cell>> {
        (self.preview_shown(rules_tab) && self.rules.apply_once)
            .then(|| self.rule_preview().map(|p| &p.after))
            .flatten()
    }

    /// Keeps the rule panel valid for the level and the caches fresh. Called after every
    /// action; cheap when nothing changed.
    pub(crate) fn sync_rules(&mut self) {
        let g = self.map.generation();
        let key = (g, self.rules.selected, self.rules.view);
        if self.rule_cache.synced != Some(key) {
            self.rules.sync(&self.map.level);
            self.rule_cache.synced = Some((g, self.rules.selected, self.rules.view));
        }
        if self.rule_cache.never_key != Some(g) {
            self.rule_cache.never = analysis::never_matching(&self.map.level);
            self.rule_cache.never_key = Some(g);
        }
        let key = self.rules.selected.map(|r| (g, r));
        if key != self.rule_cache.preview_key {
            self.rule_cache.preview = self.rules.selected.and_then(|r| {
                let rule = rule_at(&self.map.level, r)?;
                let globals = self.map.level.state.unwrap_or([0; 5]);
                Some(analysis::preview(&self.map.level.map, rule, globals))
            });
            self.rule_cache.preview_key = key;
            self.rule_cache.serial += 1;
        }
    }

    pub(crate) fn rule_event(&mut self, ev: RuleEvent, cx: &mut Cx<'_>) {
        match ev {
            RuleEvent::Op(op) => self.rule_op(op, cx),
            RuleEvent::Select(r) => {
                if self.rules.selected != r {
                    self.rules.block = None;
                }
                self.rules.selected = r;
            }
            RuleEvent::SelectBlock(b) => self.rules.block = b,
            RuleEvent::ToggleDisabled(r) => {
                // Switched on when it was off, off when it was on.
                let on = self.rules.disabled.remove(&r);
                if !on {
                    self.rules.disabled.insert(r);
                }
                if let Some(p) = &mut self.play {
                    p.set_rule_on(r, on);
                }
                *cx.status = format!(
                    "{} is {} for play sessions",
                    r.label(),
                    if on { "on" } else { "off" }
                );
            }
            RuleEvent::ToggleBreakpoint(r) => {
                if !self.rules.breakpoints.remove(&r) {
                    self.rules.breakpoints.insert(r);
                }
                if let Some(p) = &mut self.play {
                    p.breakpoints = self.rules.breakpoints.clone();
                }
            }
            RuleEvent::SetApplyOnce(on) => self.rules.apply_once = on,
            RuleEvent::SetView(v) => self.rules.view = v,
            RuleEvent::JsonEdited(text) => self.rules.json = text,
            RuleEvent::ApplyJson => match self.rules.parse_json(&self.map.level) {
                Ok(op) => {
                    if self.play.is_some() {
                        *cx.status = "stop playing to edit the rules".into();
                        return;
                    }
                    self.rule_op(op, cx);
                    self.rules.reload_json(&self.map.level);
                    *cx.status = "applied the JSON".into();
                }
                Err(problems) => {
                    *cx.status = format!("the JSON has {} problem(s)", problems.len());
                    self.rules.json_problems = problems;
                }
            },
            RuleEvent::RevertJson => self.rules.reload_json(&self.map.level),
        }
    }

    /// Applies a rule op as one undoable edit named after it. Typing a name or dragging a
    /// value merges into one history entry (see [`merge_key`]).
    fn rule_op(&mut self, op: RuleOp, cx: &mut Cx<'_>) {
        if self.play.is_some() {
            *cx.status = "stop playing to edit the rules".into();
            return;
        }
        let op = match op {
            // A move to the end of a list, or past it, lands at its end.
            RuleOp::Move { from, to } => {
                let len = match to.list {
                    RuleList::Pre => self.map.level.pre.len(),
                    RuleList::Post => self.map.level.post.len(),
                };
                let max = if from.list == to.list {
                    len.saturating_sub(1)
                } else {
                    len
                };
                let to = RuleRef::new(to.list, to.index.min(max));
                if from == to {
                    return;
                }
                RuleOp::Move { from, to }
            }
            op => op,
        };
        let Some(change) = apply_op(&self.map.level, &op) else {
            return;
        };
        let key = merge_key(&self.map.level, &op);
        self.rules.remap(&op);
        self.map.stroke = None;
        self.map.push(
            DocEdit::Kind(BoulderEdit::Rules {
                name: change.name,
                pre: change.pre,
                post: change.post,
            }),
            key.as_deref(),
        );
    }
}
