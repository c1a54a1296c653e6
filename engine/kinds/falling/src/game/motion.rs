//! The placement search (issue #29, "macro moves"): every final position the frame inputs
//! can bring the active tumo to and place it at, with the frame inputs that do it.
//!
//! **The motion model.** While a tumo is in play on a settled field (no clear in progress,
//! nothing in motion, the last rules pass quiet) and the level has no script, a frame changes
//! only the small state: the frame count, the timers and the tumo's place. The built-in rules
//! find nothing on a field that did not change, and no goal can be reached without a clear.
//! So the search steps copies of the small state with the game's own input, gravity and lock
//! code ([`FallingGame::shift`], [`FallingGame::turn`], [`FallingGame::soft_drop`],
//! [`FallingGame::fall_step`]) and never touches the field: exact, and about a hundred
//! bytes a state.
//!
//! **The search.** Breadth-first over frame states from the tumo as it is. The edges: `L`,
//! `R`, the turns the tumo has (`CW`, `CCW`, `180`, with their kicks), *down* (`SD` when the
//! soft-drop timer allows, else waits until it does or gravity moves the tumo: one row), `HD`
//! (with `hard_drop`), and *lock* (without `hard_drop`, on a resting tumo: waits until it is
//! placed). A frame state is kept when its place (rotation state, x, y) has not been reached
//! before with as few lock frames (the lock counter is the one timer that limits what a
//! resting tumo can still do); its other timers are those of that arrival. A placement is
//! recorded once per resulting set of blocks (cells and kinds), so turns of an O or the two
//! ways an S lies give one move.

use rustc_hash::{FxHashMap, FxHashSet};

use super::*;

/// The most frame states one placement search keeps before it gives up with an error.
pub const MAX_MOTION_STATES: usize = 1 << 17;
/// The most frames one edge of the search (a row down, a wait until the tumo is placed), or
/// the wait after a placement until the next tumo is in play, may take.
pub const MAX_EDGE_FRAMES: u32 = 1 << 16;

/// What one frame of the motion model did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Motion {
    /// The tumo is still in play.
    Moving,
    /// The tumo is placed in this frame, where [`Small::active`] says.
    Placed,
    /// The game is lost in this frame (a block stayed in the top row too long).
    Lost,
}

/// An edge of the placement search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Edge {
    Input(Input),
    Down,
    Lock,
}

/// A frame state of the search: the small state, and how it was reached (its parent and the
/// frames from there: `waits` × `.`, then `input`).
struct Node {
    s: Small,
    parent: u32,
    waits: u32,
    input: Input,
}

/// One placement found: the frame inputs that play it and where the game can jump to.
#[derive(Clone, Debug)]
pub(super) struct Placement {
    /// The placement starts with `H` (the tumo placed is the one the hold brings).
    pub(super) hold: bool,
    /// The small state (after the hold's frame when `hold`) from which `tail` places the
    /// tumo: the motion before it changes nothing else, so play jumps there. `None` for the
    /// one move of a state with no tumo in play (wait for it).
    pub(super) from: Option<Small>,
    /// The frames from `from` to the placement, the last one places.
    pub(super) tail: Vec<Input>,
    /// Every frame input of the placement from the state it was listed in (`H` first when
    /// `hold`), `tail` last; the waits after it are counted when it is played.
    pub(super) inputs: Vec<Input>,
    /// The top row of the placed blocks (the least y): the moves are listed lowest first.
    pub(super) top: usize,
    /// The frame count where the search started (after the hold's frame): `from` is
    /// applied relative to it ([`FallingGame::motion_state`]), since a list is shared by
    /// the states of one key, which may differ in their frame count and counters.
    pub(super) root_frames: u64,
}

impl FallingGame {
    /// True when the frames until the active tumo is placed change the small state only (see
    /// the module documentation): a tumo in play, a settled field, no script, running.
    pub(super) fn motion_exact(&self) -> bool {
        self.s.active.is_some()
            && self.script.is_none()
            && !self.b.status.is_over()
            && self.is_settled()
    }

    /// With `top_row_timeout` and a settled block in row 0: its frame limit (the field does
    /// not change before the placement, so the block stays).
    fn top_row_limit(&self) -> Option<u32> {
        let occupied = self.field.cells[..self.field.width]
            .iter()
            .any(|&c| c != EMPTY);
        self.level.game_over.iter().find_map(|g| match *g {
            GameOver::TopRowTimeout { frames } if occupied => Some(frames),
            _ => None,
        })
    }

    /// One frame of the motion model: steps 1 (the input) and 2 (gravity and lock) of
    /// [`FallingGame::frame`] on the small state, and the top-row count of step 4.
    fn motion_frame(&mut self, input: Input, top: Option<u32>) -> Motion {
        self.s.frames += 1;
        self.s.soft_drop_timer = self.s.soft_drop_timer.saturating_add(1);
        if self.move_input(input) {
            return Motion::Placed;
        }
        if self.fall_step() {
            return Motion::Placed;
        }
        if let Some(limit) = top {
            self.s.top_row_frames = self.s.top_row_frames.saturating_add(1);
            if self.s.top_row_frames >= limit {
                return Motion::Lost;
            }
        }
        Motion::Moving
    }

    /// Runs `edge` from the current small state: what its last frame did, the waits before
    /// that frame and its input.
    ///
    /// # Errors
    /// When a row down or a lock takes more than [`MAX_EDGE_FRAMES`] frames.
    fn run_edge(&mut self, edge: Edge, top: Option<u32>) -> Result<(Motion, u32, Input), String> {
        match edge {
            Edge::Input(i) => Ok((self.motion_frame(i, top), 0, i)),
            Edge::Down => {
                let y0 = self.s.active.map(|p| p.y);
                for waits in 0..MAX_EDGE_FRAMES {
                    let ready =
                        self.s.soft_drop_timer.saturating_add(1) >= self.level.timing.soft_drop;
                    let input = if ready { Input::SoftDrop } else { Input::Wait };
                    let m = self.motion_frame(input, top);
                    if m != Motion::Moving || self.s.active.map(|p| p.y) != y0 {
                        return Ok((m, waits, input));
                    }
                }
                Err(format!(
                    "the tumo does not fall a row within {MAX_EDGE_FRAMES} frames (timing gravity {}, soft_drop {})",
                    self.level.timing.gravity, self.level.timing.soft_drop
                ))
            }
            Edge::Lock => {
                for waits in 0..MAX_EDGE_FRAMES {
                    let m = self.motion_frame(Input::Wait, top);
                    if m != Motion::Moving {
                        return Ok((m, waits, Input::Wait));
                    }
                }
                Err(format!(
                    "the tumo is not placed within {MAX_EDGE_FRAMES} frames of resting (timing lock {})",
                    self.level.timing.lock
                ))
            }
        }
    }

    /// The edges for the active tumo: moves, its turns, down, and hard drop or lock.
    fn edges(&self) -> Vec<Edge> {
        let states = self
            .s
            .active
            .and_then(|p| self.level.tumos.get(p.tumo))
            .map_or(1, |t| t.states.len());
        let mut v = vec![
            Edge::Input(Input::Move(Dir::Left)),
            Edge::Input(Input::Move(Dir::Right)),
        ];
        if states > 1 {
            v.push(Edge::Input(Input::Turn(Turn::Cw)));
            v.push(Edge::Input(Input::Turn(Turn::Ccw)));
        }
        if states > 2 {
            v.push(Edge::Input(Input::Turn(Turn::Half)));
        }
        v.push(Edge::Down);
        v.push(if self.level.hard_drop {
            Edge::Input(Input::HardDrop)
        } else {
            Edge::Lock
        });
        v
    }

    /// The placements of the active tumo from the current state onto `out` (each resulting
    /// set of blocks once, `seen`), their inputs after `prefix`; the small state is as before
    /// when it returns.
    ///
    /// # Errors
    /// More than [`MAX_MOTION_STATES`] frame states, or an edge over [`MAX_EDGE_FRAMES`].
    fn placements_from(
        &mut self,
        hold: bool,
        prefix: &[Input],
        out: &mut Vec<Placement>,
        seen: &mut FxHashSet<Vec<(usize, usize, BlockId)>>,
    ) -> Result<(), String> {
        let root = self.s;
        let Some(p0) = root.active else {
            return Ok(());
        };
        let top = self.top_row_limit();
        let edges = self.edges();
        let mut nodes = vec![Node {
            s: root,
            parent: u32::MAX,
            waits: 0,
            input: Input::Wait,
        }];
        let mut best: FxHashMap<(usize, i32, i32), u32> = FxHashMap::default();
        let mut dropped: FxHashSet<Option<(usize, i32)>> = FxHashSet::default();
        best.insert((p0.state, p0.x, p0.y), root.lock_timer);
        let mut i = 0;
        let r = loop {
            if i >= nodes.len() {
                break Ok(());
            }
            if nodes.len() > MAX_MOTION_STATES {
                break Err(format!(
                    "the placement search went over {MAX_MOTION_STATES} frame states"
                ));
            }
            let from = nodes[i].s;
            self.s = from;
            let resting = self.s.active.is_some_and(|p| !self.can_fall(p));
            let column = from.active.map(|p| (p.state, p.x));
            for &e in &edges {
                if (e == Edge::Down && resting) || (e == Edge::Lock && !resting) {
                    continue;
                }
                // A hard drop from the air lands where *down* edges lead to and a hard drop
                // from rest places: only the first node of a column and rotation state (the
                // fewest frames) drops from the air.
                if e == Edge::Input(Input::HardDrop) && !resting && !dropped.insert(column) {
                    continue;
                }
                self.s = from;
                let (m, waits, input) = match self.run_edge(e, top) {
                    Ok(x) => x,
                    Err(msg) => {
                        self.s = root;
                        return Err(msg);
                    }
                };
                let Some(p) = self.s.active else { continue };
                match m {
                    Motion::Lost => {}
                    Motion::Placed => {
                        let mut cells = self.cells_of(p, &self.b.labels);
                        cells.sort_unstable();
                        let high = cells.iter().map(|c| c.1).min().unwrap_or(0);
                        if seen.insert(cells) {
                            let mut inputs = prefix.to_vec();
                            inputs.extend(path(&nodes, i));
                            inputs.extend(std::iter::repeat_n(Input::Wait, waits as usize));
                            inputs.push(input);
                            // The waits before the placing frame are motion too: jump past them.
                            self.s = from;
                            for _ in 0..waits {
                                self.motion_frame(Input::Wait, top);
                            }
                            out.push(Placement {
                                hold,
                                from: Some(self.s),
                                tail: vec![input],
                                inputs,
                                top: high,
                                root_frames: root.frames,
                            });
                        }
                    }
                    Motion::Moving => {
                        let lock = self.s.lock_timer;
                        let k = (p.state, p.x, p.y);
                        if best.get(&k).is_none_or(|&b| lock < b) {
                            best.insert(k, lock);
                            nodes.push(Node {
                                s: self.s,
                                parent: i as u32,
                                waits,
                                input,
                            });
                        }
                    }
                }
            }
            i += 1;
        };
        self.s = root;
        r
    }

    /// The moves of the current state for the search, lowest placements first (by the top
    /// row of the placed blocks), among equals in the order found: each placement of the
    /// active tumo, and
    /// with hold (not used since the last placement, and the slot not holding the same tumo
    /// with the same kinds) each placement of the tumo the hold brings; one move (waiting)
    /// when no tumo is in play; none when the game is over.
    ///
    /// # Errors
    /// A level the motion model does not cover (a script), or a search over its budgets.
    pub(super) fn placement_moves(&mut self) -> Result<Vec<Placement>, String> {
        if self.b.status.is_over() {
            return Ok(Vec::new());
        }
        let Some(p) = self.s.active else {
            return Ok(vec![Placement {
                hold: false,
                from: None,
                tail: Vec::new(),
                inputs: Vec::new(),
                top: 0,
                root_frames: self.s.frames,
            }]);
        };
        if !self.motion_exact() {
            return Err(if self.script.is_some() {
                "the placement search does not cover a level with a script".into()
            } else {
                "the placement search needs a settled field when a tumo is in play".into()
            });
        }
        let mut out = Vec::new();
        let mut seen = FxHashSet::default();
        self.placements_from(false, &[], &mut out, &mut seen)?;
        let same = self
            .b
            .hold
            .as_ref()
            .is_some_and(|h| h.tumo == p.tumo && h.labels == self.b.labels);
        if self.level.hold && !self.s.hold_used && !same {
            self.record_frame_with(Input::Hold, false);
            let r = if self.report.hold && self.motion_exact() {
                seen.clear();
                self.placements_from(true, &[Input::Hold], &mut out, &mut seen)
            } else {
                Ok(())
            };
            Game::undo(self);
            r?;
        }
        // Lowest first (a stable sort: by frames among equals), so that a depth-first search
        // fills the field from the bottom up.
        out.sort_by_key(|p| std::cmp::Reverse(p.top));
        Ok(out)
    }

    /// The frames from now that only count (no tumo in play, a settled field, no script, no
    /// `top_row_timeout`, the next spawn more than one frame away): each adds one to the
    /// frame count, the frames since the placement and the soft-drop timer, and the rules
    /// find nothing on the unchanged field; 0 when that does not hold. The search jumps over
    /// them ([`FallingGame::idle_state`]).
    pub(super) fn idle_frames(&self) -> u32 {
        let counting_only = self.s.active.is_none()
            && self.script.is_none()
            && !self.b.status.is_over()
            && self.is_settled()
            && !self
                .level
                .game_over
                .iter()
                .any(|g| matches!(g, GameOver::TopRowTimeout { .. }));
        if !counting_only {
            return 0;
        }
        self.level
            .timing
            .spawn
            .saturating_sub(self.s.since_place.saturating_add(1))
    }

    /// The small state after `k` of the [`FallingGame::idle_frames`].
    pub(super) fn idle_state(&self, k: u32) -> Small {
        let mut s = self.s;
        s.frames += u64::from(k);
        s.since_place = s.since_place.saturating_add(k);
        s.soft_drop_timer = s.soft_drop_timer.saturating_add(k);
        s
    }

    /// The small state placement `p` jumps to from the current one: the motion's part of
    /// `p.from` (the tumo's place, its timers, the top-row count and the last failed turn,
    /// frame numbers moved by the difference of the frame counts) over the current counters
    /// (score, rows, chains, the sequence, the RNG), which the motion does not change.
    pub(super) fn motion_state(&self, p: &Placement, from: Small) -> Small {
        let cur = self.s;
        let shift = |f: u64| (f + cur.frames).saturating_sub(p.root_frames);
        Small {
            frames: shift(from.frames),
            gravity_timer: from.gravity_timer,
            lock_timer: from.lock_timer,
            soft_drop_timer: from.soft_drop_timer,
            top_row_frames: from.top_row_frames,
            last_failed_turn: from.last_failed_turn.map(|(t, at)| (t, shift(at))),
            active: from.active,
            ..cur
        }
    }

    /// Jumps to small state `s` as one step of the history (the motion frames it stands for
    /// changed nothing else; see the module documentation).
    pub(super) fn jump(&mut self, s: Small) {
        let patch = Patch {
            cells: Vec::new(),
            moving: Vec::new(),
            small: self.s,
            big: None,
            bytes: std::mem::size_of::<Patch>(),
        };
        self.history.record(patch);
        self.s = s;
    }
}

/// The frame inputs from the root of the search to node `i`.
fn path(nodes: &[Node], mut i: usize) -> Vec<Input> {
    let mut rev = Vec::new();
    while let Some(n) = nodes.get(i).filter(|n| n.parent != u32::MAX) {
        rev.push(n.input);
        rev.extend(std::iter::repeat_n(Input::Wait, n.waits as usize));
        i = n.parent as usize;
    }
    rev.reverse();
    rev
}
