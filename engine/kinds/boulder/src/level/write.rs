//! Writing a boulder level back as JSON ([`BoulderLevel::to_json`]) and a rule ([`rule_to_json`]).

use serde_json::{Map, Value, json};

use crate::token::{Global, Token, ValueKey, ValueName};
use tilesmith_core::game::Status;

use super::*;

impl BoulderLevel {
    /// The level as a JSON document in the course format (with `"kind": "boulder"` first).
    pub fn to_json(&self) -> Value {
        let mut o = Map::new();
        o.insert("kind".into(), json!("boulder"));
        o.insert("name".into(), json!(self.name));
        o.insert("width".into(), json!(self.width()));
        o.insert("height".into(), json!(self.height()));
        o.insert("gems".into(), json!(self.gems));
        o.insert("ticks".into(), json!(self.ticks));
        if let Some(m) = self.maxslime {
            o.insert("maxslime".into(), json!(m));
        }
        if !self.pre.is_empty() {
            o.insert(
                "pre".into(),
                Value::Array(self.pre.iter().map(rule_to_json).collect()),
            );
        }
        if !self.post.is_empty() {
            o.insert(
                "post".into(),
                Value::Array(self.post.iter().map(rule_to_json).collect()),
            );
        }
        // A clock or status without globals still needs the state object (globals 0).
        let needs_state = self.clock.is_some() || self.status.is_some();
        if let Some(s) = self.state.or(needs_state.then_some([0; 5])) {
            let mut st = Map::new();
            for g in Global::ALL {
                st.insert(g.name().into(), json!(s[g as usize]));
            }
            if let Some(c) = self.clock {
                st.insert("tick_count".into(), json!(c.tick_count));
                if let Some((seed, word)) = c.rng {
                    let hex: String = seed.iter().map(|b| format!("{b:02x}")).collect();
                    st.insert("rng".into(), json!(format!("{hex}:{word}")));
                }
            }
            if let Some(status) = &self.status {
                st.insert("status".into(), json!(status.word()));
                if let Status::Lost { reason } = status {
                    st.insert("reason".into(), json!(reason));
                }
            }
            o.insert("state".into(), Value::Object(st));
        }
        for (k, v) in &self.extra {
            o.insert(k.clone(), v.clone());
        }
        let rows: Vec<Value> = (0..self.height())
            .map(|y| {
                let row = self.map.row(y).iter().enumerate();
                Value::Array(
                    row.filter_map(|(x, c)| {
                        if c.token == Token::Unknown {
                            // The field as it was found; a missing one stays missing.
                            return match self.unknown.get(c.get(ValueKey::Moved) as usize) {
                                Some(kept) => kept.clone(),
                                None => Some(c.to_json()),
                            };
                        }
                        Some(match self.field_extra.get(&(y, x)) {
                            None => c.to_json(),
                            Some(more) => cell_with_extra(c, more),
                        })
                    })
                    .collect(),
                )
            })
            .collect();
        o.insert("map".into(), Value::Array(rows));
        Value::Object(o)
    }

    /// The level as text: one member per line, one rule per line and one map row per line, so
    /// files diff well. Ends with a newline.
    pub fn to_pretty_string(&self) -> String {
        tilesmith_core::json_text::layout(&self.to_json())
    }
}

/// A field written as an object with its unknown members after `token` and `values`.
pub(super) fn cell_with_extra(c: &Cell, more: &Map<String, Value>) -> Value {
    let mut o = match c.to_json() {
        Value::Object(o) => o,
        token => {
            let mut o = Map::new();
            o.insert("token".into(), token);
            o
        }
    };
    for (k, v) in more {
        o.entry(k.clone()).or_insert_with(|| v.clone());
    }
    Value::Object(o)
}

/// The JSON form of a rule (members `name`, `situation`, `sparsity`, `direction`, `original`,
/// `result`, then unknown members).
pub fn rule_to_json(r: &Rule) -> Value {
    let mut o = Map::new();
    if let Some(n) = &r.name {
        o.insert("name".into(), json!(n));
    }
    o.insert("situation".into(), json!(r.situation.name()));
    if let Situation::Rare { sparsity } = r.situation {
        o.insert("sparsity".into(), json!(sparsity));
    }
    o.insert("direction".into(), json!(r.direction.compass()));
    let values = |vs: &[(ValueName, i64)]| {
        let mut m = Map::new();
        for (k, v) in vs {
            m.insert(k.name().into(), json!(v));
        }
        m
    };
    let block = |token: Value, vs: &[(ValueName, i64)], extra: &Map<String, Value>| {
        let mut b = Map::new();
        b.insert("token".into(), token);
        if !vs.is_empty() {
            b.insert("values".into(), Value::Object(values(vs)));
        }
        for (k, v) in extra {
            b.entry(k.clone()).or_insert_with(|| v.clone());
        }
        Value::Object(b)
    };
    let original = r
        .original
        .iter()
        .map(|p| {
            let t = match &p.token {
                TokenPattern::Any => json!("*"),
                TokenPattern::OneOf(ts) if ts.len() == 1 => json!(ts[0].name()),
                TokenPattern::OneOf(ts) => json!(ts.iter().map(|t| t.name()).collect::<Vec<_>>()),
                TokenPattern::Index(k) => json!(k.to_string()),
            };
            block(t, &p.values, &p.extra)
        })
        .collect();
    let result = r
        .result
        .iter()
        .map(|w| {
            let t = match w.token {
                TokenWrite::Set(t) => json!(t.name()),
                TokenWrite::Copy(k) => json!(k.to_string()),
            };
            block(t, &w.values, &w.extra)
        })
        .collect();
    o.insert("original".into(), Value::Array(original));
    o.insert("result".into(), Value::Array(result));
    // An unknown member never replaces a known one (a kept `sparsity` of a rule that is
    // `rare` now).
    for (k, v) in &r.extra {
        o.entry(k.clone()).or_insert_with(|| v.clone());
    }
    Value::Object(o)
}
