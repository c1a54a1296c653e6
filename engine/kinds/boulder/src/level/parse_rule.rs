//! Reading one rule of a boulder level (§3.2): its situation, sparsity, direction and the
//! original and result patterns.

use serde_json::{Map, Value};
use tilesmith_core::problem::Capped as _;

use crate::token::Token;
use tilesmith_core::grid::Dir;
use tilesmith_core::level_json::{int, type_name};
use tilesmith_core::problem::{JsonPath, Problem, quote};

use super::parse::*;
use super::*;

/// Reads a rule from JSON (used by the editor's JSON view too).
///
/// # Errors
/// The rule's problems, with paths relative to `path`.
pub fn rule_from_json(v: &Value, path: &JsonPath) -> Result<Rule, Vec<Problem>> {
    let mut p = Vec::new();
    match parse_rule(v, path, &mut p) {
        Some(r) if p.iter().all(|x| !x.is_error()) => Ok(r),
        _ => Err(p),
    }
}

pub(super) fn parse_rule(v: &Value, path: &JsonPath, p: &mut Vec<Problem>) -> Option<Rule> {
    let Value::Object(o) = v else {
        p.push_capped(Problem::error(
            path.clone(),
            format!("a rule must be an object, found {}", type_name(v)),
        ));
        return None;
    };
    let errors_before = p.iter().filter(|x| x.is_error()).count();
    let name = parse_rule_name(o, path, p);
    let situation = parse_situation(o, path, p);
    let direction = parse_direction(o, path, p);
    let orig_json = rule_blocks(o, "original", path, p);
    let res_json = rule_blocks(o, "result", path, p);
    let mut original = Vec::new();
    if let Some(a) = orig_json {
        for (i, b) in a.iter().enumerate() {
            if let Some(block) = parse_original_block(b, &path.key("original").index(i), p) {
                original.push(block);
            }
        }
    }
    let len = orig_json.map_or(0, Vec::len);
    let mut result = Vec::new();
    if let Some(a) = res_json {
        for (i, b) in a.iter().enumerate() {
            if let Some(block) = parse_result_block(b, &path.key("result").index(i), len, p) {
                result.push(block);
            }
        }
    }
    if let (Some(o), Some(r)) = (orig_json, res_json)
        && o.len() != r.len()
    {
        p.push_capped(Problem::error(
            path.key("result"),
            format!(
                "\"original\" has {} block(s) but \"result\" has {}; they must be the same length",
                o.len(),
                r.len()
            ),
        ));
    }
    const RULE_KEYS: &[&str] = &[
        "name",
        "situation",
        "sparsity",
        "direction",
        "original",
        "result",
    ];
    // A `sparsity` the rule's situation does not use is kept as an unknown member.
    let rare = matches!(situation, Some(Situation::Rare { .. }));
    let extra: Map<String, Value> = o
        .iter()
        .filter(|(k, _)| !RULE_KEYS.contains(&k.as_str()) || (*k == "sparsity" && !rare))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    if p.iter().filter(|x| x.is_error()).count() > errors_before {
        return None;
    }
    Some(Rule {
        name,
        situation: situation?,
        direction: direction?,
        original,
        result,
        extra,
    })
}

/// A rule's optional `name`.
fn parse_rule_name(
    o: &Map<String, Value>,
    path: &JsonPath,
    p: &mut Vec<Problem>,
) -> Option<String> {
    match o.get("name") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(other) => {
            p.push_capped(Problem::error(
                path.key("name"),
                format!(
                    "a rule's \"name\" must be a string, found {}",
                    type_name(other)
                ),
            ));
            None
        }
    }
}

/// A rule's `situation` (with its `sparsity` when it is `rare`); warns of a `sparsity` that
/// another situation ignores.
fn parse_situation(
    o: &Map<String, Value>,
    path: &JsonPath,
    p: &mut Vec<Problem>,
) -> Option<Situation> {
    let situation = match o.get("situation") {
        Some(Value::String(s)) => match Situation::from_name(s) {
            Some(Situation::Rare { .. }) => match o.get("sparsity") {
                None => {
                    p.push_capped(Problem::error(
                        path.key("situation"),
                        "situation \"rare\" needs a \"sparsity\" (a whole number ≥ 1)",
                    ));
                    None
                }
                Some(sv) => match int(sv) {
                    Some(n) if (1..=MAX_VALUE).contains(&n) => {
                        Some(Situation::Rare { sparsity: n as u32 })
                    }
                    _ => {
                        p.push_capped(Problem::error(
                            path.key("sparsity"),
                            "\"sparsity\" must be a whole number ≥ 1",
                        ));
                        None
                    }
                },
            },
            Some(s) => Some(s),
            None => {
                p.push_capped(Problem::error(
                        path.key("situation"),
                        format!(
                            "unknown situation {} (known: any, rare, left, right, up, down, metaleft, metaright, metaup, metadown)",
                            quote(s)
                        ),
                    ),
                );
                None
            }
        },
        Some(other) => {
            p.push_capped(Problem::error(
                path.key("situation"),
                format!("\"situation\" must be a string, found {}", type_name(other)),
            ));
            None
        }
        None => {
            p.push_capped(Problem::error(path.clone(), "a rule needs a \"situation\""));
            None
        }
    };
    if o.contains_key("sparsity") && !matches!(situation, Some(Situation::Rare { .. }) | None) {
        p.push_capped(Problem::warning(
            path.key("sparsity"),
            "\"sparsity\" only matters with situation \"rare\" and is ignored (kept when saved)",
        ));
    }
    situation
}

/// A rule's `direction`: a compass word.
fn parse_direction(o: &Map<String, Value>, path: &JsonPath, p: &mut Vec<Problem>) -> Option<Dir> {
    match o.get("direction") {
        Some(Value::String(s)) => match Dir::ALL
            .into_iter()
            .find(|d| d.compass().eq_ignore_ascii_case(s))
        {
            Some(d) => Some(d),
            None => {
                p.push_capped(Problem::error(
                    path.key("direction"),
                    format!(
                        "unknown direction {} (known: east, west, north, south)",
                        quote(s)
                    ),
                ));
                None
            }
        },
        Some(other) => {
            p.push_capped(Problem::error(
                path.key("direction"),
                format!("\"direction\" must be a string, found {}", type_name(other)),
            ));
            None
        }
        None => {
            p.push_capped(Problem::error(path.clone(), "a rule needs a \"direction\""));
            None
        }
    }
}

/// The non-empty array of blocks under `key` (`original` or `result`).
fn rule_blocks<'a>(
    o: &'a Map<String, Value>,
    key: &str,
    path: &JsonPath,
    p: &mut Vec<Problem>,
) -> Option<&'a Vec<Value>> {
    match o.get(key) {
        Some(Value::Array(a)) if !a.is_empty() => Some(a),
        Some(Value::Array(_)) => {
            p.push_capped(Problem::error(
                path.key(key),
                format!("\"{key}\" must have at least one block"),
            ));
            None
        }
        Some(other) => {
            p.push_capped(Problem::error(
                path.key(key),
                format!(
                    "\"{key}\" must be an array of blocks, found {}",
                    type_name(other)
                ),
            ));
            None
        }
        None => {
            p.push_capped(Problem::error(
                path.clone(),
                format!("a rule needs \"{key}\""),
            ));
            None
        }
    }
}

/// One block of a rule's `original`: a token pattern (`"*"`, a name, a list of names or an
/// index) and its values.
fn parse_original_block(b: &Value, bp: &JsonPath, p: &mut Vec<Problem>) -> Option<Pattern> {
    let Value::Object(bo) = b else {
        p.push_capped(Problem::error(
            bp.clone(),
            format!("a rule block must be an object, found {}", type_name(b)),
        ));
        return None;
    };
    let token = original_token(bo, bp, p);
    let extra = unknown_block_members(bo, bp, p);
    let values = parse_values(bo.get("values"), &bp.key("values"), true, p);
    Some(Pattern {
        token: token?,
        values,
        extra,
    })
}

/// The `token` of a block of `original`.
fn original_token(
    bo: &Map<String, Value>,
    bp: &JsonPath,
    p: &mut Vec<Problem>,
) -> Option<TokenPattern> {
    let tp = bp.key("token");
    match bo.get("token") {
        Some(Value::String(s)) if s == "*" => Some(TokenPattern::Any),
        Some(t) if index_token(t).is_some() => {
            let k = index_token(t).unwrap_or(0);
            if !(0..=MAX_VALUE).contains(&k) {
                p.push_capped(Problem::error(tp, format!("index {k} is out of range")));
                None
            } else {
                Some(TokenPattern::Index(k as u32))
            }
        }
        Some(Value::String(s)) => match Token::from_name(s) {
            Some(t) => Some(TokenPattern::OneOf(vec![t])),
            None => {
                p.push_capped(Problem::error(tp, format!("unknown token {}", quote(s))));
                None
            }
        },
        Some(Value::Array(alts)) if !alts.is_empty() => {
            let mut ts = Vec::new();
            let mut any = false;
            for (j, a) in alts.iter().enumerate() {
                match a.as_str() {
                    Some("*") => any = true,
                    Some(s) => match Token::from_name(s) {
                        Some(t) => ts.push(t),
                        None => p.push_capped(Problem::error(
                            tp.index(j),
                            format!("unknown token {}", quote(s)),
                        )),
                    },
                    None => p.push_capped(Problem::error(
                        tp.index(j),
                        format!(
                            "a token alternative must be a string, found {}",
                            type_name(a)
                        ),
                    )),
                }
            }
            Some(if any {
                TokenPattern::Any
            } else {
                TokenPattern::OneOf(ts)
            })
        }
        Some(Value::Array(_)) => {
            p.push_capped(Problem::error(tp, "a token list must not be empty"));
            None
        }
        Some(other) => {
            p.push_capped(Problem::error(
                tp,
                format!(
                    "a token must be a string, a list or an index, found {}",
                    type_name(other)
                ),
            ));
            None
        }
        None => {
            p.push_capped(Problem::error(bp.clone(), "a rule block needs a \"token\""));
            None
        }
    }
}

/// One block of a rule's `result`: a token to set or the index of an original block to copy
/// (below `len`, the original's length), and its values.
fn parse_result_block(b: &Value, bp: &JsonPath, len: usize, p: &mut Vec<Problem>) -> Option<Write> {
    let Value::Object(bo) = b else {
        p.push_capped(Problem::error(
            bp.clone(),
            format!("a rule block must be an object, found {}", type_name(b)),
        ));
        return None;
    };
    let token = result_token(bo, bp, len, p);
    let extra = unknown_block_members(bo, bp, p);
    let values = parse_values(bo.get("values"), &bp.key("values"), false, p);
    Some(Write {
        token: token?,
        values,
        extra,
    })
}

/// The `token` of a block of `result`.
fn result_token(
    bo: &Map<String, Value>,
    bp: &JsonPath,
    len: usize,
    p: &mut Vec<Problem>,
) -> Option<TokenWrite> {
    let tp = bp.key("token");
    match bo.get("token") {
        Some(t) if index_token(t).is_some() => {
            let k = index_token(t).unwrap_or(0);
            if k < 0 || k as u64 >= len as u64 {
                p.push_capped(Problem::error(
                        tp,
                        format!(
                            "index {k} is outside the window (the original has {len} block(s), so 0…{})",
                            len.saturating_sub(1)
                        ),
                    ),
                );
                None
            } else {
                Some(TokenWrite::Copy(k as usize))
            }
        }
        Some(Value::String(s)) if s == "*" => {
            p.push_capped(Problem::error(
                tp,
                "\"*\" is not allowed in a result block; use a token or an index",
            ));
            None
        }
        Some(Value::String(s)) => match Token::from_name(s) {
            Some(t) => Some(TokenWrite::Set(t)),
            None => {
                p.push_capped(Problem::error(tp, format!("unknown token {}", quote(s))));
                None
            }
        },
        Some(Value::Array(_)) => {
            p.push_capped(Problem::error(
                tp,
                "a token list is not allowed in a result block (it must say one token)",
            ));
            None
        }
        Some(other) => {
            p.push_capped(Problem::error(
                tp,
                format!(
                    "a token must be a string or an index, found {}",
                    type_name(other)
                ),
            ));
            None
        }
        None => {
            p.push_capped(Problem::error(bp.clone(), "a rule block needs a \"token\""));
            None
        }
    }
}
