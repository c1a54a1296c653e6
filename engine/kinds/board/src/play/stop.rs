//! The error a move generation stops with when it runs past a limit or is cancelled
//! ([`super::MAX_BLOCK_STEPS`], [`super::MAX_GEN_STEPS`], [`super::MAX_PRIMITIVES`],
//! [`super::CANCELLED`]).

use super::super::rules::Span;
use super::movegen::Stop;
use super::{GenError, MAX_BLOCK_STEPS, MAX_GEN_STEPS, MAX_PRIMITIVES};

/// The [`GenError`] of a generation stopped by `stop` in the block written at `span`.
pub(crate) fn budget_error(stop: Stop, span: Span) -> GenError {
    match stop {
        Stop::Cancelled => GenError {
            span,
            message: super::CANCELLED.to_string(),
        },
        Stop::GenSteps => GenError {
            span,
            message: format!("move generation ran more than {MAX_GEN_STEPS} steps in one position"),
        },
        Stop::TooMany => GenError {
            span,
            message: format!(
                "move generation wrote more than {MAX_PRIMITIVES} primitives in one position"
            ),
        },
        _ => GenError {
            span,
            message: format!(
                "a move block ran more than {MAX_BLOCK_STEPS} steps (a `while` that never ends?)"
            ),
        },
    }
}
