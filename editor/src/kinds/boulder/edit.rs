//! Boulder's own edits: the level properties and the rule lists. The map-wide edits (cells,
//! whole map, whole level) are the generic [`DocEdit`]'s.

use tilesmith_engine::kind::boulder::{BoulderLevel, Rule};

use crate::doc::history::Undoable;
use crate::doc::map::DocEdit;

/// One undoable change to a boulder level.
pub type Edit = DocEdit<BoulderLevel, BoulderEdit>;

/// The level properties edited in the properties panel (everything but the map and the rules).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Props {
    /// Display name.
    pub name: String,
    /// Gems needed for 1, 2 and 3 points.
    pub gems: [u32; 3],
    /// Tick limits for 1, 2 and 3 points.
    pub ticks: [u32; 3],
    /// Optional slime limit.
    pub maxslime: Option<u32>,
}

impl Props {
    /// The properties of `level`.
    pub fn of(level: &BoulderLevel) -> Self {
        Self {
            name: level.name.clone(),
            gems: level.gems,
            ticks: level.ticks,
            maxslime: level.maxslime,
        }
    }

    fn swap_with(&mut self, level: &mut BoulderLevel) {
        std::mem::swap(&mut self.name, &mut level.name);
        std::mem::swap(&mut self.gems, &mut level.gems);
        std::mem::swap(&mut self.ticks, &mut level.ticks);
        std::mem::swap(&mut self.maxslime, &mut level.maxslime);
    }
}

/// A change only boulder levels have.
#[derive(Clone, Debug)]
pub enum BoulderEdit {
    /// The properties.
    Props {
        /// The name shown in the history list.
        name: String,
        /// The properties to swap in.
        props: Props,
    },
    /// Both rule lists (every change made in the rule editor): swapped with the level's
    /// `pre` and `post`.
    Rules {
        /// The name shown in the history list ("Add rule", "Rule direction", …).
        name: String,
        /// The `pre` list to swap in.
        pre: Vec<Rule>,
        /// The `post` list to swap in.
        post: Vec<Rule>,
    },
}

impl Undoable for BoulderEdit {
    type Target = BoulderLevel;

    fn name(&self) -> &str {
        match self {
            BoulderEdit::Props { name, .. } | BoulderEdit::Rules { name, .. } => name,
        }
    }

    fn apply_swap(&mut self, level: &mut BoulderLevel) {
        match self {
            BoulderEdit::Props { props, .. } => props.swap_with(level),
            BoulderEdit::Rules { pre, post, .. } => {
                std::mem::swap(&mut level.pre, pre);
                std::mem::swap(&mut level.post, post);
            }
        }
    }

    fn absorb(&mut self, newer: Self) -> Result<(), Self> {
        match (self, newer) {
            (BoulderEdit::Props { .. }, BoulderEdit::Props { .. })
            | (BoulderEdit::Rules { .. }, BoulderEdit::Rules { .. }) => Ok(()),
            (_, e) => Err(e),
        }
    }
}
