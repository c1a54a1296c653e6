//! The generator's loop over a block in flat form ([`super::super::code`]).

use super::super::super::rules::{Cond, DirId, NO_POS};
use super::super::code::{Code, EMPTY, ENEMY, FRIEND, HERE, OFF, Op};
use super::{Run, Stop};

impl Run<'_, '_, '_, '_, '_> {
    /// Runs a block in flat form: the same steps, in the same order, as [`Run::block`] on
    /// the block it was laid out from.
    ///
    /// Not inlined: the generator's `run_one` stays small for blocks of one or two
    /// instructions (tic-tac-toe's drop), whose frame every block pays for.
    #[inline(never)]
    pub(super) fn code(&mut self, code: &Code) -> Result<(), Stop> {
        let ops = code.ops.as_slice();
        let cond = |i: u32| code.conds.get(i as usize).unwrap_or(&Cond::False);
        let mut pc = 0usize;
        while let Some(op) = ops.get(pc) {
            pc += 1;
            match *op {
                Op::Step(d) => {
                    self.tick()?;
                    let p = self.step(self.cur, d);
                    if p == NO_POS {
                        return Err(Stop::Fail);
                    }
                    self.cur = p;
                }
                Op::Verify(c) => {
                    self.tick()?;
                    if !self.cond(cond(c))? {
                        return Err(Stop::Fail);
                    }
                }
                Op::If(c, to) => {
                    self.tick()?;
                    if !self.cond(cond(c))? {
                        pc = to as usize;
                    }
                }
                Op::While(c, to) => {
                    if self.cond(cond(c))? {
                        self.tick()?;
                    } else {
                        pc = to as usize;
                    }
                }
                Op::VerifyCell(d, m) => {
                    self.tick()?;
                    if !self.cell_is(d, m) {
                        return Err(Stop::Fail);
                    }
                }
                Op::IfCell(mut d, mut m, mut to) => loop {
                    // A run of `if`s whose tests fail (the usual case: each looks one way
                    // from the square) goes from one to the next here, without dispatch.
                    self.tick()?;
                    if self.cell_is(d, m) {
                        break;
                    }
                    pc = to as usize;
                    match ops.get(pc) {
                        Some(&Op::IfCell(d2, m2, t2)) => {
                            (d, m, to) = (d2, m2, t2);
                            pc += 1;
                        }
                        _ => break,
                    }
                },
                Op::WhileCell(d, m, to) => {
                    if self.cell_is(d, m) {
                        self.tick()?;
                    } else {
                        pc = to as usize;
                    }
                }
                Op::SetFlag(f, v) => {
                    self.tick()?;
                    if let Some(slot) = self.s.flags.get_mut(f as usize) {
                        *slot = v;
                    }
                }
                Op::VerifyFlag(f) => {
                    self.tick()?;
                    if !self.s.flags.get(f as usize).copied().unwrap_or(false) {
                        return Err(Stop::Fail);
                    }
                }
                Op::Tick => self.tick()?,
                Op::Jump(to) => pc = to as usize,
                Op::Mark => {
                    self.tick()?;
                    self.mark = self.cur;
                }
                Op::Back => {
                    self.tick()?;
                    self.cur = self.mark;
                }
                Op::Other(i) => {
                    if let Some(ins) = code.others.get(i as usize) {
                        self.instr(ins)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// A cell test ([`super::super::code::cell_test`]): whether the class of the square in
    /// direction `d` ([`HERE`]: the current square) is in `mask`.
    #[inline(always)]
    fn cell_is(&self, d: DirId, mask: u8) -> bool {
        let p = if d == HERE {
            self.cur
        } else {
            self.step(self.cur, d)
        };
        let class = match self.pos.cells.get(p as usize) {
            None => OFF,
            Some(None) => EMPTY,
            Some(Some(q)) if q.player == self.mover => FRIEND,
            Some(Some(_)) => ENEMY,
        };
        class & mask != 0
    }
}

impl super::Scratch {
    /// The steps the last generation used ([`super::MAX_GEN_STEPS`] less what is left).
    #[cfg(test)]
    pub fn steps_used(&self) -> u64 {
        super::MAX_GEN_STEPS - self.gen_steps
    }
}
