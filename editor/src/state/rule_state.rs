//! The rule editor's side of [`EditorState`]: applying [`RuleEvent`]s (every rule change is
//! one undoable [`Edit::Rules`]), keeping the [`crate::rules::panel::RulePanel`] valid after
//! every action, and the cached preview of the selected rule.

use tilesmith_engine::Grid;
use tilesmith_engine::kind::boulder::Cell;
use tilesmith_engine::kind::boulder::analysis::{self, NeverMatches, Preview};

use super::edit::Edit;
use super::{EditorState, SideTab};
use crate::rules::panel::{RuleEvent, RuleView, rule_at};
use crate::rules::{RuleOp, RuleRef, apply_op, merge_key};

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

impl EditorState {
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

    /// True when the canvas shows the selected rule's matches: the rule editor is open, a
    /// rule is selected, and no play session runs.
    pub fn preview_shown(&self) -> bool {
        self.play.is_none() && self.side_tab == SideTab::Rules && self.rule_preview().is_some()
    }

    /// The map the canvas shows instead of the design with "apply once" on: the scratch copy
    /// after the selected rule ran once.
    pub fn apply_once_map(&self) -> Option<&Grid<Cell>> {
        (self.preview_shown() && self.rules.apply_once)
            .then(|| self.rule_preview().map(|p| &p.after))
            .flatten()
    }

    /// Keeps the rule panel valid for the level and the caches fresh. Called after every
    /// action; cheap when nothing changed.
    pub(super) fn sync_rules(&mut self) {
        let g = self.history.generation();
        let key = (g, self.rules.selected, self.rules.view);
        if self.rule_cache.synced != Some(key) {
            self.rules.sync(&self.level);
            self.rule_cache.synced = Some((g, self.rules.selected, self.rules.view));
        }
        if self.rule_cache.never_key != Some(g) {
            self.rule_cache.never = analysis::never_matching(&self.level);
            self.rule_cache.never_key = Some(g);
        }
        let key = self.rules.selected.map(|r| (g, r));
        if key != self.rule_cache.preview_key {
            self.rule_cache.preview = self.rules.selected.and_then(|r| {
                let rule = rule_at(&self.level, r)?;
                let globals = self.level.state.unwrap_or([0; 5]);
                Some(analysis::preview(&self.level.map, rule, globals))
            });
            self.rule_cache.preview_key = key;
            self.rule_cache.serial += 1;
        }
    }

    pub(super) fn rule_event(&mut self, ev: RuleEvent) {
        match ev {
            RuleEvent::Op(op) => self.rule_op(op),
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
                self.status = format!(
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
            RuleEvent::ApplyJson => match self.rules.parse_json(&self.level) {
                Ok(op) => {
                    if self.play.is_some() {
                        self.status = "stop playing to edit the rules".into();
                        return;
                    }
                    self.rule_op(op);
                    self.rules.reload_json(&self.level);
                    self.status = "applied the JSON".into();
                }
                Err(problems) => {
                    self.status = format!("the JSON has {} problem(s)", problems.len());
                    self.rules.json_problems = problems;
                }
            },
            RuleEvent::RevertJson => self.rules.reload_json(&self.level),
        }
    }

    /// Applies a rule op as one undoable edit named after it. Typing a name or dragging a
    /// value merges into one history entry (see [`merge_key`]).
    fn rule_op(&mut self, op: RuleOp) {
        if self.play.is_some() {
            self.status = "stop playing to edit the rules".into();
            return;
        }
        let op = match op {
            // A move to the end of a list, or past it, lands at its end.
            RuleOp::Move { from, to } => {
                let len = match to.list {
                    crate::rules::RuleList::Pre => self.level.pre.len(),
                    crate::rules::RuleList::Post => self.level.post.len(),
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
        let Some(change) = apply_op(&self.level, &op) else {
            return;
        };
        let key = merge_key(&self.level, &op);
        self.rules.remap(&op);
        self.stroke = None;
        self.history.push(
            &mut self.level,
            Edit::Rules {
                name: change.name,
                pre: change.pre,
                post: change.post,
            },
            key.as_deref(),
        );
    }
}
