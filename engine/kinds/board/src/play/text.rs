//! Names in words for notation and the debugger: positions, piece types, primitives.

use super::super::rules::PosId;
use super::Primitive;
use super::ctx::Ctx;

/// A position's name as the rules give it (`?` for none).
pub(crate) fn position_name(ctx: &Ctx, p: PosId) -> String {
    ctx.rules
        .board
        .positions
        .get(p as usize)
        .map_or_else(|| "?".to_string(), |d| d.name.clone())
}

pub(crate) fn piece_name(ctx: &Ctx, k: u8) -> String {
    ctx.rules
        .pieces
        .get(k as usize)
        .map_or_else(|| format!("#{k}"), |d| d.name.clone())
}

/// One primitive in words: `a1-b1`, `a1+b1` (a copy), `=Queen`, `Man@d3`, `d4=King`
/// (change-type), `+Man@c3` (create), `~d4` (flip), `d4:White` (change-owner), `d4.attr=1`,
/// `xd4` (capture).
pub(crate) fn primitive_text(ctx: &Ctx, p: &Primitive) -> String {
    let n = |p: PosId| position_name(ctx, p);
    match *p {
        Primitive::Move {
            from,
            to,
            promote,
            copy,
        } => {
            let mut s = format!("{}{}{}", n(from), if copy { '+' } else { '-' }, n(to));
            if let Some(t) = promote {
                s.push('=');
                s.push_str(&piece_name(ctx, t));
            }
            s
        }
        Primitive::Drop { at, piece } => format!("{}@{}", piece_name(ctx, piece.kind), n(at)),
        Primitive::ChangeType(at, k) => format!("{}={}", n(at), piece_name(ctx, k)),
        Primitive::Create(at, piece) => format!("+{}@{}", piece_name(ctx, piece.kind), n(at)),
        Primitive::Flip(at) => format!("~{}", n(at)),
        Primitive::ChangeOwner(at, pl) => format!(
            "{}:{}",
            n(at),
            ctx.rules
                .players
                .get(pl as usize)
                .map_or("?", String::as_str)
        ),
        Primitive::SetAttribute(at, a, v) => format!(
            "{}.{}={}",
            n(at),
            ctx.rules
                .attributes
                .get(a as usize)
                .map_or("?", |x| x.0.as_str()),
            u8::from(v)
        ),
        Primitive::Capture(at) => format!("x{}", n(at)),
    }
}
