//! Reading the saved state of a game in play (`state`).

use serde_json::Value;

use crate::field::{EMPTY, Field};
use crate::shape::Turn;
use tilesmith_core::game::Status;
use tilesmith_core::problem::{JsonPath, quote};

use super::*;

/// Reads `"<64 hex digits>:<decimal word position>"`, as the boulder kind writes its RNG.
pub(super) fn parse_rng(s: &str) -> Option<([u8; 32], u128)> {
    let (hex, word) = s.split_once(':')?;
    if hex.len() != 64 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let mut seed = [0u8; 32];
    for (i, b) in seed.iter_mut().enumerate() {
        *b = u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    let canonical = word == "0" || (!word.starts_with('0') && !word.is_empty());
    if !canonical || !word.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n = word.parse::<u128>().ok()?;
    (n < (1u128 << 68)).then_some((seed, n))
}

/// Reads an `[x, y]` or `[x, y, n]` list of field cells.
pub(super) fn parse_cells(
    v: &Value,
    path: &JsonPath,
    what: &str,
    with_count: bool,
    field: &Field,
    cx: &mut Ctx,
) -> Option<Vec<(usize, usize, u32)>> {
    let a = cx.array(v, path, what, field.cells.len())?;
    let mut out = Vec::with_capacity(a.len());
    let mut ok = true;
    let len = if with_count { 3 } else { 2 };
    for (i, e) in a.iter().enumerate() {
        let ep = path.index(i);
        match e {
            Value::Array(c) if c.len() == len => {
                let x = cx.num(&c[0], &ep.index(0), "x", 0, field.width as i64 - 1);
                let y = cx.num(&c[1], &ep.index(1), "y", 0, field.height as i64 - 1);
                let n = if with_count {
                    cx.num(
                        &c[2],
                        &ep.index(2),
                        "a frame or cell count",
                        1,
                        u32::MAX as i64,
                    )
                } else {
                    Some(1)
                };
                match (x, y, n) {
                    (Some(x), Some(y), Some(n)) => out.push((x as usize, y as usize, n as u32)),
                    _ => ok = false,
                }
            }
            _ => {
                cx.err(
                    ep,
                    if with_count {
                        "an entry must be [x, y, n]"
                    } else {
                        "an entry must be [x, y]"
                    },
                );
                ok = false;
            }
        }
    }
    ok.then_some(out)
}

pub(super) fn parse_state(
    v: &Value,
    tumos: &[Tumo],
    tumo_names: &[String],
    blocks: &[String],
    field: &Field,
    seq: &Sequence,
    cx: &mut Ctx,
) -> Option<SavedState> {
    let path = JsonPath::root().key("state");
    let o = cx.small_object(v, &path, "\"state\"")?;
    check_state_members(o, &path, cx);
    let mut s = SavedState::default();
    let mut ok = true;
    let big = MAX_COUNT as i64;
    let small = u32::MAX as i64;
    macro_rules! number {
        ($key:literal, $field:ident, $hi:expr, $ty:ty) => {
            match cx.opt_num(o, $key, &path, 0, $hi) {
                Some(Some(n)) => s.$field = n as $ty,
                Some(None) => {}
                None => ok = false,
            }
        };
    }
    number!("frames", frames, big, u64);
    number!("score", score, big, u64);
    number!("rows", rows, big, u64);
    number!("chain", chain, small, u32);
    number!("max_chain", max_chain, small, u32);
    number!("fixed_next", fixed_next, seq.tumos.len() as i64, usize);
    number!("gravity_timer", gravity_timer, small, u32);
    number!("lock_timer", lock_timer, small, u32);
    number!("since_place", since_place, small, u32);
    number!("soft_drop_timer", soft_drop_timer, small, u32);
    number!("top_row_frames", top_row_frames, small, u32);
    for (key, slot) in [
        ("placed_since_clear", &mut s.placed_since_clear),
        ("hold_used", &mut s.hold_used),
        ("quiet", &mut s.quiet),
    ] {
        if let Some(v) = o.get(key) {
            match cx.boolean(v, &path.key(key), &format!("\"{key}\"")) {
                Some(b) => *slot = b,
                None => ok = false,
            }
        }
    }
    if !parse_status(o, &path, &mut s, cx) {
        ok = false;
    }
    if let Some(v) = o.get("rng") {
        match v.as_str().and_then(parse_rng) {
            Some(r) => s.rng = Some(r),
            None => {
                cx.err(
                    path.key("rng"),
                    "\"rng\" must be \"<64 hex digits>:<word position>\" as written by `tilesmith run --out`",
                );
                ok = false;
            }
        }
    }
    if let Some(v) = o.get("queue")
        && !parse_queue(v, &path, tumos, tumo_names, blocks, &mut s.queue, cx)
    {
        ok = false;
    }
    if let Some(v) = o.get("hold").filter(|v| !v.is_null()) {
        s.hold = parse_queued(v, &path.key("hold"), tumos, tumo_names, blocks, cx);
        ok &= s.hold.is_some();
    }
    if let Some(v) = o.get("bag") {
        let bp = path.key("bag");
        match cx.array(v, &bp, "\"bag\"", MAX_SEQUENCE) {
            Some(a) => {
                for (i, e) in a.iter().enumerate() {
                    match cx.tumo_ref(e, &bp.index(i), "a tumo name", tumo_names) {
                        Some(t) => s.bag.push(t),
                        None => ok = false,
                    }
                }
            }
            None => ok = false,
        }
    }
    if let Some(v) = o.get("last_failed_turn").filter(|v| !v.is_null()) {
        s.last_failed_turn = parse_failed_turn(v, &path.key("last_failed_turn"), cx);
        ok &= s.last_failed_turn.is_some();
    }
    if let Some(v) = o.get("moving") {
        let mp = path.key("moving");
        match parse_cells(v, &mp, "\"moving\"", true, field, cx) {
            Some(cells) => {
                for (i, &(x, y, _)) in cells.iter().enumerate() {
                    if field.get(x as i64, y as i64) == EMPTY {
                        cx.err(
                            mp.index(i),
                            format!("cell [{x}, {y}] is empty, so nothing there can be in motion"),
                        );
                        ok = false;
                    }
                }
                s.moving = cells;
            }
            None => ok = false,
        }
    }
    if let Some(v) = o.get("pending") {
        s.pending = parse_pending(v, &path.key("pending"), field, cx);
        ok &= s.pending.is_some();
    }
    ok.then_some(s)
}

/// Reports the members of `state` this format does not know (each an error).
fn check_state_members(o: &Map<String, Value>, path: &JsonPath, cx: &mut Ctx) {
    let known = [
        "frames",
        "score",
        "rows",
        "chain",
        "max_chain",
        "status",
        "reason",
        "rng",
        "queue",
        "bag",
        "fixed_next",
        "gravity_timer",
        "lock_timer",
        "since_place",
        "soft_drop_timer",
        "top_row_frames",
        "last_failed_turn",
        "placed_since_clear",
        "hold",
        "hold_used",
        "quiet",
        "moving",
        "pending",
    ];
    for k in o.keys() {
        if !known.contains(&k.as_str()) {
            cx.err(
                path.key(k),
                format!(
                    "unknown member {} of \"state\" (known: {})",
                    quote(k),
                    known.join(", ")
                ),
            );
        }
    }
}

/// `status` and `reason` (only for a lost game) into `s`; false after an error.
fn parse_status(o: &Map<String, Value>, path: &JsonPath, s: &mut SavedState, cx: &mut Ctx) -> bool {
    let mut ok = true;
    let reason = match o.get("reason") {
        None => None,
        Some(v) => match cx.string(v, &path.key("reason"), "\"reason\"") {
            Some(r) => Some(r.to_string()),
            None => {
                ok = false;
                None
            }
        },
    };
    match o.get("status") {
        None => {}
        Some(v) => match cx.string(v, &path.key("status"), "\"status\"") {
            Some("running") => {}
            Some("won") => s.status = Status::won(1),
            Some("lost") => {
                s.status = Status::Lost {
                    reason: reason.clone().unwrap_or_else(|| "lost".into()),
                }
            }
            Some(other) => {
                cx.err(
                    path.key("status"),
                    format!(
                        "\"status\" must be \"running\", \"won\" or \"lost\", found {}",
                        quote(other)
                    ),
                );
                ok = false;
            }
            None => ok = false,
        },
    }
    if reason.is_some() && !matches!(s.status, Status::Lost { .. }) {
        cx.err(
            path.key("reason"),
            "\"reason\" is only for a \"lost\" status",
        );
        ok = false;
    }
    ok
}

/// One entry of `queue`: a tumo and the block kinds of its labels.
fn parse_queued(
    e: &Value,
    ep: &JsonPath,
    tumos: &[Tumo],
    tumo_names: &[String],
    blocks: &[String],
    cx: &mut Ctx,
) -> Option<QueuedTumo> {
    let eo = cx.small_object(e, ep, "a queued tumo")?;
    let Some(tv) = eo.get("tumo") else {
        cx.err(ep.clone(), "a queued tumo needs \"tumo\"");
        return None;
    };
    let t = cx.tumo_ref(tv, &ep.key("tumo"), "\"tumo\"", tumo_names)?;
    let n = tumos[t].label_count();
    let labels = match eo.get("labels") {
        None => Vec::new(),
        Some(l) => cx.block_list(l, &ep.key("labels"), "\"labels\"", blocks, MAX_LABEL)?,
    };
    if labels.len() != n {
        cx.err(
            ep.key("labels"),
            format!(
                "tumo {} has {n} labelled blocks but \"labels\" names {}",
                quote(&tumos[t].name),
                labels.len()
            ),
        );
        return None;
    }
    Some(QueuedTumo { tumo: t, labels })
}

/// `last_failed_turn`: the turn that failed and its frame.
fn parse_failed_turn(v: &Value, tp: &JsonPath, cx: &mut Ctx) -> Option<(Turn, u64)> {
    let big = MAX_COUNT as i64;
    let to = cx.small_object(v, tp, "\"last_failed_turn\"")?;
    let word = to.get("turn").and_then(Value::as_str);
    let turn = match word {
        Some("CW") => Turn::Cw,
        Some("CCW") => Turn::Ccw,
        Some("180") => Turn::Half,
        _ => {
            cx.err(
                tp.key("turn"),
                "\"turn\" must be \"CW\", \"CCW\" or \"180\"",
            );
            return None;
        }
    };
    let frame = match to.get("frame") {
        Some(f) => cx.num(f, &tp.key("frame"), "\"frame\"", 0, big)?,
        None => {
            cx.err(tp.clone(), "\"last_failed_turn\" needs \"frame\"");
            return None;
        }
    };
    Some((turn, frame as u64))
}

/// `pending`: a clear waiting for its animation to end.
fn parse_pending(v: &Value, pp: &JsonPath, field: &Field, cx: &mut Ctx) -> Option<SavedPending> {
    let po = cx.small_object(v, pp, "\"pending\"")?;
    cx.unknown_members(po, pp, &["frames", "delete", "down"]);
    let frames = match po.get("frames") {
        Some(f) => cx.num(f, &pp.key("frames"), "\"frames\"", 1, MAX_TIMING as i64)?,
        None => {
            cx.err(pp.clone(), "\"pending\" needs \"frames\"");
            return None;
        }
    };
    let delete = match po.get("delete") {
        Some(d) => parse_cells(d, &pp.key("delete"), "\"delete\"", false, field, cx)?,
        None => Vec::new(),
    };
    let down = match po.get("down") {
        Some(d) => parse_cells(d, &pp.key("down"), "\"down\"", true, field, cx)?,
        None => Vec::new(),
    };
    Some(SavedPending {
        frames: frames as u32,
        delete: delete.into_iter().map(|(x, y, _)| (x, y)).collect(),
        down,
    })
}

/// `queue`: the next tumos, onto `queue`; false after an error.
fn parse_queue(
    v: &Value,
    path: &JsonPath,
    tumos: &[Tumo],
    tumo_names: &[String],
    blocks: &[String],
    queue: &mut Vec<QueuedTumo>,
    cx: &mut Ctx,
) -> bool {
    let mut ok = true;
    let qp = path.key("queue");
    match cx.array(v, &qp, "\"queue\"", MAX_PREVIEW + 1) {
        Some(a) => {
            for (i, e) in a.iter().enumerate() {
                let ep = qp.index(i);
                let q = parse_queued(e, &ep, tumos, tumo_names, blocks, cx);
                match q {
                    Some(q) => queue.push(q),
                    None => ok = false,
                }
            }
        }
        None => ok = false,
    }
    ok
}
