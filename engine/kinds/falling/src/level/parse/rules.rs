//! Reading the rules: clear rules, fall laws, game over, sequence, timing, score, goal.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use tilesmith_core::problem::{JsonPath, did_you_mean, nearest, quote};

use super::*;

pub(super) fn parse_clear(v: Option<&Value>, cx: &mut Ctx) -> Option<Vec<ClearRule>> {
    let path = JsonPath::root().key("clear");
    let Some(v) = v else {
        return Some(Vec::new());
    };
    let a = cx.array(v, &path, "\"clear\"", 64)?;
    let mut out = Vec::with_capacity(a.len());
    let mut ok = true;
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, r) in a.iter().enumerate() {
        let rp = path.index(i);
        let rule = (|| {
            let o = cx.small_object(r, &rp, "a clear rule")?;
            let word = cx.rule_word(
                o,
                &rp,
                "clear rule",
                &["connected", "rows", "squares", "lines"],
            )?;
            let known: &[&str] = match word {
                "connected" => &["rule", "min"],
                "rows" => &["rule"],
                "squares" => &["rule", "size"],
                _ => &["rule", "min", "diagonal"],
            };
            let kept = cx.kept_members(o, &rp, known);
            let n = seen.entry(word).or_insert(0);
            if !kept.is_empty() {
                cx.kept.clear.insert((word.to_string(), *n), kept);
            }
            *n += 1;
            match word {
                "connected" => {
                    let min = cx.opt_num(o, "min", &rp, 1, MAX_CELLS as i64)?.unwrap_or(4);
                    Some(ClearRule::Connected { min: min as usize })
                }
                "rows" => Some(ClearRule::Rows),
                "squares" => {
                    let size = cx.opt_num(o, "size", &rp, 1, MAX_SIDE as i64)?.unwrap_or(2);
                    Some(ClearRule::Squares {
                        size: size as usize,
                    })
                }
                _ => {
                    let min = cx.opt_num(o, "min", &rp, 1, MAX_SIDE as i64);
                    let diagonal = match o.get("diagonal") {
                        None => Some(false),
                        Some(v) => cx.boolean(v, &rp.key("diagonal"), "\"diagonal\""),
                    };
                    Some(ClearRule::Lines {
                        min: min?.unwrap_or(3) as usize,
                        diagonal: diagonal?,
                    })
                }
            }
        })();
        match rule {
            Some(r) => out.push(r),
            None => ok = false,
        }
    }
    ok.then_some(out)
}

pub(super) fn parse_fall(v: Option<&Value>, cx: &mut Ctx) -> Option<Vec<FallLaw>> {
    let path = JsonPath::root().key("fall");
    let Some(v) = v else {
        return Some(Vec::new());
    };
    let a = cx.array(v, &path, "\"fall\"", 64)?;
    let mut out = Vec::with_capacity(a.len());
    let mut ok = true;
    for (i, e) in a.iter().enumerate() {
        let ep = path.index(i);
        let Some(s) = cx.string(e, &ep, "a fall law") else {
            ok = false;
            continue;
        };
        match FallLaw::ALL.iter().find(|f| f.word() == s) {
            Some(f) => out.push(*f),
            None => {
                cx.err(
                    ep,
                    format!(
                        "unknown fall law {}{} (known: gravity, rows, joined)",
                        quote(s),
                        did_you_mean(nearest(s, FallLaw::ALL.iter().map(|f| f.word())))
                    ),
                );
                ok = false;
            }
        }
    }
    ok.then_some(out)
}

pub(super) fn parse_game_over(v: Option<&Value>, cx: &mut Ctx) -> Option<Vec<GameOver>> {
    let path = JsonPath::root().key("game_over");
    let Some(v) = v else {
        return Some(vec![GameOver::SpawnBlocked]);
    };
    let a = cx.array(v, &path, "\"game_over\"", 16)?;
    let mut out = Vec::with_capacity(a.len());
    let mut ok = true;
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, r) in a.iter().enumerate() {
        let rp = path.index(i);
        let rule = (|| {
            let o = cx.small_object(r, &rp, "a game-over condition")?;
            let word = cx.rule_word(
                o,
                &rp,
                "game-over condition",
                &["spawn_blocked", "top_row", "top_row_timeout"],
            )?;
            let known: &[&str] = match word {
                "top_row_timeout" => &["rule", "frames"],
                _ => &["rule"],
            };
            let kept = cx.kept_members(o, &rp, known);
            let n = seen.entry(word).or_insert(0);
            if !kept.is_empty() {
                cx.kept.game_over.insert((word.to_string(), *n), kept);
            }
            *n += 1;
            match word {
                "spawn_blocked" => Some(GameOver::SpawnBlocked),
                "top_row" => Some(GameOver::TopRow),
                _ => match cx.opt_num(o, "frames", &rp, 1, MAX_TIMING as i64)? {
                    Some(f) => Some(GameOver::TopRowTimeout { frames: f as u32 }),
                    None => {
                        cx.err(
                                rp.clone(),
                                "\"top_row_timeout\" needs \"frames\": how long a block may stay in the top row",
                            );
                        None
                    }
                },
            }
        })();
        match rule {
            Some(r) => out.push(r),
            None => ok = false,
        }
    }
    ok.then_some(out)
}

pub(super) fn parse_sequence(
    v: Option<&Value>,
    tumos: &[String],
    cx: &mut Ctx,
) -> Option<Sequence> {
    let path = JsonPath::root().key("sequence");
    let Some(v) = v else {
        return Some(Sequence {
            order: Order::Random,
            tumos: (0..tumos.len()).collect(),
        });
    };
    let o = cx.small_object(v, &path, "\"sequence\"")?;
    cx.kept.sequence = cx.kept_members(o, &path, &["order", "tumos"]);
    let order = match o.get("order") {
        None => Some(Order::Random),
        Some(v) => match cx.string(v, &path.key("order"), "\"order\"") {
            Some(s) => match Order::ALL.iter().find(|x| x.word() == s) {
                Some(x) => Some(*x),
                None => {
                    cx.err(
                        path.key("order"),
                        format!("unknown order {} (known: random, bag, fixed)", quote(s)),
                    );
                    None
                }
            },
            None => None,
        },
    };
    let list = match o.get("tumos") {
        None => Some((0..tumos.len()).collect()),
        Some(v) => {
            let lp = path.key("tumos");
            match cx.array(v, &lp, "\"tumos\"", MAX_SEQUENCE) {
                Some(a) => {
                    let mut out = Vec::with_capacity(a.len());
                    let mut ok = true;
                    for (i, e) in a.iter().enumerate() {
                        match cx.tumo_ref(e, &lp.index(i), "a tumo name", tumos) {
                            Some(t) => out.push(t),
                            None => ok = false,
                        }
                    }
                    ok.then_some(out)
                }
                None => None,
            }
        }
    };
    Some(Sequence {
        order: order?,
        tumos: list?,
    })
}

pub(super) fn parse_timing(v: Option<&Value>, cx: &mut Ctx) -> Option<Timing> {
    let path = JsonPath::root().key("timing");
    let mut t = Timing::default();
    let Some(v) = v else { return Some(t) };
    let o = cx.small_object(v, &path, "\"timing\"")?;
    let mut ok = true;
    for (k, v) in o {
        match t.member_mut(k) {
            Some(slot) => {
                match cx.num(v, &path.key(k), &format!("\"{k}\""), 0, MAX_TIMING as i64) {
                    Some(n) => *slot = n as u32,
                    None => ok = false,
                }
            }
            None => {
                cx.warn(
                    path.key(k),
                    format!(
                        "unknown member {} has no effect; it is kept and saved (known: gravity, soft_drop, lock, spawn, clear, fall, land)",
                        quote(k)
                    ),
                );
                cx.kept.timing.insert(k.clone(), v.clone());
            }
        }
    }
    ok.then_some(t)
}

pub(super) fn parse_table(
    o: &Map<String, Value>,
    key: &str,
    path: &JsonPath,
    default: &[u64],
    cx: &mut Ctx,
) -> Option<Vec<u64>> {
    let Some(v) = o.get(key) else {
        return Some(default.to_vec());
    };
    let tp = path.key(key);
    let a = cx.array(v, &tp, &format!("\"{key}\""), MAX_TABLE)?;
    if a.is_empty() {
        cx.err(tp, format!("\"{key}\" must have at least one entry"));
        return None;
    }
    let mut out = Vec::with_capacity(a.len());
    let mut ok = true;
    for (i, e) in a.iter().enumerate() {
        match cx.num(e, &tp.index(i), "a table entry", 0, MAX_BONUS as i64) {
            Some(n) => out.push(n as u64),
            None => ok = false,
        }
    }
    ok.then_some(out)
}

pub(super) fn parse_score(v: &Value, cx: &mut Ctx) -> Option<ScoreRule> {
    let path = JsonPath::root().key("score");
    let o = cx.small_object(v, &path, "\"score\"")?;
    let word = cx.rule_word(o, &path, "score rule", &["puyo", "rows"])?;
    if word == "puyo" {
        cx.kept.score = cx.kept_members(
            o,
            &path,
            &["rule", "chain_bonus", "color_bonus", "group_bonus"],
        );
        let d = PuyoScore::default();
        let chain = parse_table(o, "chain_bonus", &path, &d.chain_bonus, cx);
        let color = parse_table(o, "color_bonus", &path, &d.color_bonus, cx);
        let group = parse_table(o, "group_bonus", &path, &d.group_bonus, cx);
        Some(ScoreRule::Puyo(PuyoScore {
            chain_bonus: chain?,
            color_bonus: color?,
            group_bonus: group?,
        }))
    } else {
        cx.kept.score = cx.kept_members(o, &path, &["rule", "points"]);
        parse_table(o, "points", &path, &DEFAULT_ROW_POINTS, cx).map(ScoreRule::Rows)
    }
}

pub(super) fn parse_goal(v: &Value, cx: &mut Ctx) -> Option<Goal> {
    let path = JsonPath::root().key("goal");
    let o = cx.small_object(v, &path, "\"goal\"")?;
    let word = cx.rule_word(o, &path, "goal", &["clear_all", "chain", "score", "rows"])?;
    if word == "clear_all" {
        cx.kept.goal = cx.kept_members(o, &path, &["rule"]);
        return Some(Goal::ClearAll);
    }
    cx.kept.goal = cx.kept_members(o, &path, &["rule", "min"]);
    let hi = match word {
        "score" => MAX_COUNT as i64,
        _ => u32::MAX as i64,
    };
    let Some(min) = cx.opt_num(o, "min", &path, 1, hi)? else {
        cx.err(path, format!("the goal {} needs \"min\"", quote(word)));
        return None;
    };
    Some(match word {
        "chain" => Goal::Chain { min: min as u32 },
        "score" => Goal::Score { min: min as u64 },
        _ => Goal::Rows { min: min as u32 },
    })
}
