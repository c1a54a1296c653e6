//! The `resume` member of a saved game (`tilesmith run --out`): what the next decision needs
//! beyond the position, so that the level loads and plays the rest identically, draws by
//! repetition included.
//!
//! ```json
//! "resume": {"flag": 1, "subroutine": {"card": 0, "flag": 0}, "lap": 2, "ran": false,
//!            "seen": ["0f3a…", …]}
//! ```
//!
//! `flag`: the place (0 = head) of the flag whose right it is on the card under the cursor.
//! `subroutine` (during a Subroutine's visit): the Subroutine card's index (`gap: true`: the
//! index of the gap it left when removed, A10) and its activating flag's place (`flag`), or,
//! once that flag is gone, the place of the flag that comes next (`next`). `lap`: card
//! visits ended with no command executed (A17); `ran`: a command was executed during the
//! current visit. `seen`: the 128-bit keys (32 hexadecimal digits) of the decisions already
//! seen, the current one included.

use serde_json::{Map, Value, json};
use tilesmith_core::problem::Capped as _;

use super::card::Card;
use super::state::{MAX_CARDS, Ret, State, Track};
use tilesmith_core::level_json::{int, type_name};
use tilesmith_core::problem::{JsonPath, Problem, quote};

/// What a saved game's next decision needs beyond the position (`resume`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Resume {
    /// The place (0 = head) of the flag whose right it is on the card under the cursor.
    pub flag: u8,
    /// The Subroutine to return to, during its visit.
    pub ret: Option<Ret>,
    /// Card visits ended with no command executed (A17), −1 when the current visit has
    /// executed one.
    pub lap: i8,
    /// The decisions already seen (their 128-bit keys), for the repetition rule.
    pub seen: Vec<u128>,
}

/// The most keys `seen` may hold (a game of 20 flags has far fewer decisions before a
/// repetition in practice; the bound keeps a file from asking for unbounded memory).
pub const MAX_SEEN: usize = 1_000_000;

fn small(v: Option<&Value>, path: JsonPath, max: i64, p: &mut Vec<Problem>) -> Option<u8> {
    let v = v?;
    match int(v) {
        Some(x) if (0..=max).contains(&x) => Some(x as u8),
        _ => {
            p.push_capped(Problem::error(
                path,
                format!("must be a whole number 0…{max}, found {v}"),
            ));
            None
        }
    }
}

/// Reads `resume` of a level whose `cards`, `flags`, `cursor` and `hand` are as given.
pub fn read(
    v: &Value,
    path: &JsonPath,
    cards: Option<&[Card]>,
    flags: &[Vec<u8>],
    cursor: u8,
    hand: [u8; 2],
    p: &mut Vec<Problem>,
) -> Option<Resume> {
    let Value::Object(o) = v else {
        p.push_capped(Problem::error(
            path.clone(),
            format!("\"resume\" must be an object, found {}", type_name(v)),
        ));
        return None;
    };
    let Some(cards) = cards else {
        p.push_capped(Problem::error(path.clone(), "\"resume\" needs \"cards\""));
        return None;
    };
    if hand != [0, 0] {
        p.push_capped(Problem::error(
            path.clone(),
            "\"resume\" is for the execution phase: the hands must be empty",
        ));
        return None;
    }
    let n = cards.len() as i64;
    let len = flags.get(cursor as usize).map_or(0, Vec::len) as i64;
    let flag = match o.get("flag") {
        None => 0,
        Some(_) => small(o.get("flag"), path.key("flag"), len.max(1) - 1, p)?,
    };
    let ret = subroutine(o.get("subroutine"), path, cards, flags, cursor, p)?;
    let lap = small(o.get("lap"), path.key("lap"), (n - 1).max(0), p).unwrap_or(0) as i8;
    let ran = o.get("ran").and_then(Value::as_bool).unwrap_or(false);
    let mut seen = Vec::new();
    match o.get("seen") {
        None => {}
        Some(Value::Array(a)) if a.len() <= MAX_SEEN => {
            for (i, k) in a.iter().enumerate() {
                match k
                    .as_str()
                    .filter(|s| s.len() == 32)
                    .and_then(|s| u128::from_str_radix(s, 16).ok())
                {
                    Some(x) => seen.push(x),
                    None => {
                        p.push_capped(Problem::error(
                            path.key("seen").index(i),
                            format!(
                                "{} is not a key of 32 hexadecimal digits",
                                quote(&k.to_string())
                            ),
                        ));
                        return None;
                    }
                }
            }
        }
        Some(other) => {
            p.push_capped(Problem::error(
                path.key("seen"),
                format!(
                    "must be an array of at most {MAX_SEEN} keys, found {}",
                    type_name(other)
                ),
            ));
            return None;
        }
    }
    let _ = MAX_CARDS;
    Some(Resume {
        flag,
        ret,
        lap: if ran { -1 } else { lap },
        seen,
    })
}

/// The `subroutine` member: `Some(None)` when absent or null, `None` after a problem.
fn subroutine(
    v: Option<&Value>,
    path: &JsonPath,
    cards: &[Card],
    flags: &[Vec<u8>],
    cursor: u8,
    p: &mut Vec<Problem>,
) -> Option<Option<Ret>> {
    let n = cards.len() as i64;
    Some(match v {
        None | Some(Value::Null) => None,
        Some(Value::Object(s)) => {
            let sp = path.key("subroutine");
            let gap = s.get("gap").and_then(Value::as_bool).unwrap_or(false);
            let card = small(
                s.get("card"),
                sp.key("card"),
                if gap { n } else { n - 1 },
                p,
            )?;
            let qlen = flags.get(card as usize).map_or(0, Vec::len) as i64;
            if !gap && cards.get(card as usize) != Some(&Card::Subroutine) {
                p.push_capped(Problem::error(
                    sp.key("card"),
                    format!("card {card} is not Subroutine"),
                ));
                return None;
            }
            if !gap && card == cursor {
                p.push_capped(Problem::error(
                    sp.key("card"),
                    "the cursor visits another card than Subroutine",
                ));
                return None;
            }
            let track = match (s.get("flag"), s.get("next")) {
                (Some(_), None) => {
                    Track::Active(small(s.get("flag"), sp.key("flag"), (qlen - 1).max(0), p)?)
                }
                (None, Some(_)) => Track::Next(small(s.get("next"), sp.key("next"), qlen, p)?),
                (None, None) => Track::Next(0),
                _ => {
                    p.push_capped(Problem::error(sp, "give \"flag\" or \"next\", not both"));
                    return None;
                }
            };
            Some(Ret { card, gap, track })
        }
        Some(other) => {
            p.push_capped(Problem::error(
                path.key("subroutine"),
                format!("must be an object, found {}", type_name(other)),
            ));
            return None;
        }
    })
}

/// The `resume` member of a state at a decision, with the decisions seen.
pub fn write(s: &State, seen: &[u128]) -> Value {
    let flag = match s.track {
        Track::Active(i) | Track::Next(i) => i,
    };
    let mut o = Map::new();
    o.insert("flag".into(), json!(flag));
    if let Some(r) = s.ret {
        let mut sub = Map::new();
        sub.insert("card".into(), json!(r.card));
        if r.gap {
            sub.insert("gap".into(), json!(true));
        }
        match r.track {
            Track::Active(i) => sub.insert("flag".into(), json!(i)),
            Track::Next(i) => sub.insert("next".into(), json!(i)),
        };
        o.insert("subroutine".into(), Value::Object(sub));
    }
    o.insert("lap".into(), json!(s.lap.max(0)));
    o.insert("ran".into(), json!(s.lap < 0));
    o.insert(
        "seen".into(),
        json!(seen.iter().map(|k| format!("{k:032x}")).collect::<Vec<_>>()),
    );
    Value::Object(o)
}
