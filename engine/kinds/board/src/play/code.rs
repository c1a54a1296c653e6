//! The move blocks in a flat form for the generator: each block's control flow (`if`,
//! `while`, `verify`, steps, `mark`/`back`) laid out as a list of small operations with
//! jumps, so that running a block is one loop over them instead of a call per instruction
//! and a walk down nested lists. Every other instruction (adds, level-2 and level-3
//! primitives, flags, `from`/`to`/`go`) is kept as written and run by the tree
//! interpreter's own code, so its meaning cannot drift.
//!
//! The flat form counts steps exactly as the blocks do (spec: one per instruction run, one
//! per `while` round; [`super::MAX_BLOCK_STEPS`]), so budgets run out at the same point.
//! Built once per [`super::Engine`], on first use.

use super::super::rules::{Cond, DirId, FlagId, Instr, Loc, MoveDef, PieceId, Rules};

/// The direction of a cell test on the current position itself.
pub(crate) const HERE: DirId = DirId::MAX;

/// Cell classes of a cell test: bit 0 an empty square, bit 1 a piece of the mover, bit 2
/// a piece of another player, bit 3 off the board.
pub(crate) const EMPTY: u8 = 1;
/// See [`EMPTY`].
pub(crate) const FRIEND: u8 = 2;
/// See [`EMPTY`].
pub(crate) const ENEMY: u8 = 4;
/// See [`EMPTY`].
pub(crate) const OFF: u8 = 8;

/// A condition that looks only at what stands on one square (the current one or one step
/// away): `empty?`, `friend?`, `enemy?`, `on-board?`, and `not`, `and`, `or` of those on
/// the same square, as the direction ([`HERE`] for the current square) and the mask of
/// the square's classes ([`EMPTY`], [`FRIEND`], [`ENEMY`], [`OFF`]) for which it holds.
pub(crate) fn cell_test(c: &Cond) -> Option<(DirId, u8)> {
    let at = |loc: &Loc| match *loc {
        Loc::Here => Some(HERE),
        Loc::Dir(d) if d != HERE => Some(d),
        _ => None,
    };
    match c {
        Cond::Empty(l) => Some((at(l)?, EMPTY)),
        Cond::Friend(l) => Some((at(l)?, FRIEND)),
        Cond::Enemy(l) => Some((at(l)?, ENEMY)),
        Cond::OnBoard(l) => Some((at(l)?, EMPTY | FRIEND | ENEMY)),
        Cond::Not(c) => cell_test(c).map(|(d, m)| (d, !m & 0xF)),
        Cond::And(v) | Cond::Or(v) => {
            let and = matches!(c, Cond::And(_));
            let (mut dir, mut mask) = (None, if and { 0xF } else { 0 });
            for c in v {
                let (d, m) = cell_test(c)?;
                if dir.is_some_and(|x| x != d) {
                    return None;
                }
                dir = Some(d);
                mask = if and { mask & m } else { mask | m };
            }
            Some((dir?, mask))
        }
        _ => None,
    }
}

/// One operation of a flat block. Jump targets are indices into [`Code::ops`]; a target
/// equal to its length ends the block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    /// A direction as an instruction: one step, failing off the board (ticks).
    Step(DirId),
    /// `(verify c)`: fails unless [`Code::conds`]`[c]` (ticks first).
    Verify(u32),
    /// The test of an `if`: ticks, then jumps to the target unless the condition holds
    /// (the `then` part follows; the `else` part, if any, starts at the target).
    If(u32, u32),
    /// The test of a `while` round: jumps to the target (past the body) unless the
    /// condition holds, and ticks for the round when it does.
    While(u32, u32),
    /// The step counted for a `while` instruction itself, before its first test.
    Tick,
    /// An unconditional jump (no step: it stands for no instruction).
    Jump(u32),
    /// `(verify c)` for a cell test `c` (see [`cell_test`]): `Step`'s direction (or
    /// [`HERE`]) and the mask of the classes that pass.
    VerifyCell(DirId, u8),
    /// An `if` over a cell test.
    IfCell(DirId, u8, u32),
    /// A `while` round's test over a cell test.
    WhileCell(DirId, u8, u32),
    /// `(set-flag f true|false)` (ticks).
    SetFlag(FlagId, bool),
    /// `(verify (flag? f))` (ticks).
    VerifyFlag(FlagId),
    /// `mark` on the current position (ticks).
    Mark,
    /// `back` (ticks).
    Back,
    /// Any other instruction, [`Code::others`]`[i]`, run as written (it ticks itself).
    Other(u32),
}

/// One block in flat form: the operations and what they refer to.
#[derive(Clone, Debug, Default)]
pub(crate) struct Code {
    pub ops: Vec<Op>,
    pub conds: Vec<Cond>,
    pub others: Vec<Instr>,
}

impl Code {
    /// Lays out `block`.
    pub fn new(block: &[Instr]) -> Code {
        let mut code = Code::default();
        code.emit(block);
        code
    }

    fn here(&self) -> u32 {
        self.ops.len() as u32
    }

    fn cond(&mut self, c: &Cond) -> u32 {
        self.conds.push(c.clone());
        self.conds.len() as u32 - 1
    }

    fn patch(&mut self, at: usize) {
        let to = self.here();
        if let Some(
            Op::If(_, t)
            | Op::While(_, t)
            | Op::IfCell(_, _, t)
            | Op::WhileCell(_, _, t)
            | Op::Jump(t),
        ) = self.ops.get_mut(at)
        {
            *t = to;
        }
    }

    fn emit(&mut self, block: &[Instr]) {
        for ins in block {
            match ins {
                Instr::Step(d, _) => self.ops.push(Op::Step(*d)),
                Instr::Mark(Loc::Here, _) => self.ops.push(Op::Mark),
                Instr::Back(_) => self.ops.push(Op::Back),
                Instr::Verify(Cond::Flag(f), _) => self.ops.push(Op::VerifyFlag(*f)),
                Instr::SetFlag(f, Cond::True, _) => self.ops.push(Op::SetFlag(*f, true)),
                Instr::SetFlag(f, Cond::False, _) => self.ops.push(Op::SetFlag(*f, false)),
                Instr::Verify(c, _) => {
                    let op = match cell_test(c) {
                        Some((d, m)) => Op::VerifyCell(d, m),
                        None => Op::Verify(self.cond(c)),
                    };
                    self.ops.push(op);
                }
                Instr::If(c, then, els, _) => {
                    let op = match cell_test(c) {
                        Some((d, m)) => Op::IfCell(d, m, 0),
                        None => Op::If(self.cond(c), 0),
                    };
                    let test = self.ops.len();
                    self.ops.push(op);
                    self.emit(then);
                    if els.is_empty() {
                        self.patch(test);
                    } else {
                        let jump = self.ops.len();
                        self.ops.push(Op::Jump(0));
                        self.patch(test);
                        self.emit(els);
                        self.patch(jump);
                    }
                }
                Instr::While(c, body, _) => {
                    self.ops.push(Op::Tick);
                    let op = match cell_test(c) {
                        Some((d, m)) => Op::WhileCell(d, m, 0),
                        None => Op::While(self.cond(c), 0),
                    };
                    let test = self.ops.len();
                    self.ops.push(op);
                    self.emit(body);
                    self.ops.push(Op::Jump(test as u32));
                    self.patch(test);
                }
                other => {
                    self.others.push(other.clone());
                    self.ops.push(Op::Other(self.others.len() as u32 - 1));
                }
            }
        }
    }
}

/// The flat form of every block of a rule set: `moves[kind][block]`, `drops[kind][block]`.
#[derive(Clone, Debug, Default)]
pub(crate) struct Programs {
    moves: Vec<Vec<Code>>,
    drops: Vec<Vec<Code>>,
}

impl Programs {
    /// Lays out every move and drop block of `rules`.
    pub fn build(rules: &Rules) -> Programs {
        let lay = |defs: &[MoveDef]| defs.iter().map(|md| Code::new(&md.block)).collect();
        Programs {
            moves: rules.pieces.iter().map(|p| lay(&p.moves)).collect(),
            drops: rules.pieces.iter().map(|p| lay(&p.drops)).collect(),
        }
    }

    /// The flat form of block `block` of piece type `kind` (a drop block when `drop`).
    #[inline]
    pub fn get(&self, kind: PieceId, drop: bool, block: usize) -> Option<&Code> {
        let by_kind = if drop { &self.drops } else { &self.moves };
        by_kind.get(kind as usize)?.get(block)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::super::super::rules::{Cond, Loc, PlayerId, PosId};
    use super::super::Engine;
    use super::super::movegen::{MoveBuf, Scratch, Who, attacks, generate};
    use super::super::perft::{ChildSink, children};
    use super::super::turns::Expander;
    use super::{EMPTY, ENEMY, FRIEND, HERE, OFF, cell_test};
    use rand_chacha::ChaCha8Rng;
    use rand_chacha::rand_core::SeedableRng;

    /// The moves of `player`, the steps the generation used and every attack probe's
    /// answer, with the blocks run in flat form or as written.
    fn generation(
        e: &Engine,
        pos: &super::super::Position,
        player: PlayerId,
        tree: bool,
    ) -> (Vec<String>, u64, Vec<bool>) {
        let ctx = e.ctx();
        let mut scratch = Scratch::default();
        scratch.tree = tree;
        let mut out = MoveBuf::default();
        let moves = match generate(&ctx, pos, player, Who::All(None), &mut scratch, &mut out) {
            Ok(()) => out
                .heads
                .iter()
                .map(|h| format!("{h:?} {:?}", out.prims_of(h)))
                .collect(),
            Err(err) => vec![err.to_string()],
        };
        let used = scratch.steps_used();
        let probes = (0..ctx.npos as PosId)
            .map(|t| attacks(&ctx, pos, player, t, &mut scratch, 0).unwrap_or(false))
            .collect();
        (moves, used, probes)
    }

    /// The flat form generates the same moves (heads and primitives, in order), counts the
    /// same steps and answers every attack probe alike, on the positions of seeded random
    /// games of every shipped and corpus ZRF (Reversi's flips, chess's slides, castling
    /// and `attacked?`, checkers' chains, halma's hops, Lewthwaite's pushes), for each
    /// player. A wrong jump target, mask or step count changes one of the three.
    #[test]
    fn the_flat_form_generates_what_the_blocks_as_written_generate() {
        let mut compared = 0;
        for (file, rules) in super::super::tests::shipped_and_corpus_rules() {
            let e = Engine::new(rules);
            let ctx = e.ctx();
            let mut rng = ChaCha8Rng::seed_from_u64(29);
            let (mut ex, mut sink) = (Expander::default(), ChildSink::default());
            for _game in 0..3 {
                let mut pos = e.initial();
                for _ply in 0..40 {
                    for player in 0..ctx.nplayers as PlayerId {
                        let flat = generation(&e, &pos, player, false);
                        let tree = generation(&e, &pos, player, true);
                        assert_eq!(flat, tree, "{file}: {pos:?}, player {player}");
                        compared += 1;
                    }
                    children(&ctx, &mut ex, &pos, &mut sink).unwrap();
                    if sink.n == 0 {
                        break;
                    }
                    let i = tilesmith_core::random::uniform(&mut rng, sink.n);
                    std::mem::swap(&mut pos, &mut sink.kids[i]);
                }
            }
        }
        assert!(compared > 1000, "only {compared} generations compared");
    }

    /// Cell tests: the leaves on the current square or one step away, and `not`, `and`,
    /// `or` of them on one square; anything else is left to the conditions as written.
    #[test]
    fn cell_tests_read_the_square_classes() {
        let here = Loc::Here;
        let d = Loc::Dir(3);
        assert_eq!(cell_test(&Cond::Empty(here)), Some((HERE, EMPTY)));
        assert_eq!(cell_test(&Cond::Enemy(d)), Some((3, ENEMY)));
        assert_eq!(
            cell_test(&Cond::Not(Box::new(Cond::Empty(d)))),
            Some((3, FRIEND | ENEMY | OFF))
        );
        assert_eq!(
            cell_test(&Cond::Or(vec![Cond::Friend(d), Cond::Empty(d)])),
            Some((3, FRIEND | EMPTY))
        );
        assert_eq!(
            cell_test(&Cond::And(vec![
                Cond::OnBoard(d),
                Cond::Not(Box::new(Cond::Friend(d)))
            ])),
            Some((3, EMPTY | ENEMY))
        );
        assert_eq!(
            cell_test(&Cond::And(vec![Cond::Enemy(here), Cond::OnBoard(d)])),
            None
        );
        assert_eq!(cell_test(&Cond::Empty(Loc::Pos(2))), None);
        assert_eq!(cell_test(&Cond::Flag(0)), None);
    }
}
