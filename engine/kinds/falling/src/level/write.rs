//! Writing a falling-block level back as JSON ([`FallingLevel::to_json`]).

use serde_json::{Map, Value, json};

use crate::field::BlockId;
use crate::shape::Kicks;
use tilesmith_core::game::Status;

use super::*;

impl FallingLevel {
    /// The level as a document that [`FallingLevel::from_json`] reads back to an equal level,
    /// unknown members included. Every member is written, defaults too, but `hold` only when true; `score`, `goal`,
    /// `active`, `script` and `state` only when set.
    pub fn to_json(&self) -> Value {
        let mut level = self.clone();
        level.complete_legend();
        let name_of = |id: BlockId| json!(level.block_name(id));
        let tumo_name = |i: usize| json!(level.tumos.get(i).map_or("?", |t| t.name.as_str()));
        let mut o = Map::new();
        o.insert("kind".into(), json!("falling"));
        o.insert("name".into(), json!(level.name));
        o.insert("width".into(), json!(level.field.width));
        o.insert("height".into(), json!(level.field.height));
        let blocks: Vec<Value> = level.blocks.iter().map(block_json).collect();
        o.insert("blocks".into(), Value::Array(blocks));
        let tumos: Vec<Value> = level.tumos.iter().map(|t| level.tumo_json(t)).collect();
        o.insert("tumos".into(), Value::Array(tumos));
        o.insert("quick_turn".into(), json!(level.quick_turn));
        o.insert("hard_drop".into(), json!(level.hard_drop));
        if level.hold {
            // Written only when on, so that the levels saved before hold existed read and
            // write back unchanged.
            o.insert("hold".into(), json!(true));
        }
        o.insert("shadow".into(), json!(level.shadow));
        level.insert_rules(&mut o);
        o.insert("preview".into(), json!(level.preview));
        if let Some(a) = &level.active {
            o.insert(
                "active".into(),
                json!({
                    "tumo": tumo_name(a.tumo),
                    "state": a.state,
                    "x": a.x,
                    "y": a.y,
                    "labels": a.labels.iter().map(|&b| name_of(b)).collect::<Vec<_>>(),
                }),
            );
        }
        if let Some(s) = &level.script {
            o.insert("script".into(), json!(s));
        }
        if let Some(s) = &level.state {
            o.insert("state".into(), level.state_to_json(s));
        }
        for (k, v) in &level.extra {
            o.insert(k.clone(), v.clone());
        }
        let mut legend = Map::new();
        for (c, id) in &level.legend {
            legend.insert(c.to_string(), name_of(*id));
        }
        o.insert("legend".into(), Value::Object(legend));
        o.insert(
            "field".into(),
            Value::Array(level.field_rows().into_iter().map(Value::String).collect()),
        );
        Value::Object(o)
    }

    /// A tumo as JSON: its states, block, labels, pivot, kicks, spawn and kept members.
    fn tumo_json(&self, t: &Tumo) -> Value {
        let name_of = |id: BlockId| json!(self.block_name(id));
        let mut m = Map::new();
        m.insert("name".into(), json!(t.name));
        let states: Vec<Value> = t
            .states
            .iter()
            .map(|s| Value::Array(s.cells.chunks(s.side.max(1)).map(|r| json!(r)).collect()))
            .collect();
        m.insert("states".into(), Value::Array(states));
        m.insert("block".into(), name_of(t.block));
        m.insert(
            "labels".into(),
            Value::Array(t.labels.iter().map(|&b| name_of(b)).collect()),
        );
        m.insert(
            "pivot".into(),
            json!([half_json(t.pivot[0]), half_json(t.pivot[1])]),
        );
        m.insert("kicks".into(), kicks_to_json(&t.kicks));
        if let Some(s) = t.spawn {
            m.insert("spawn".into(), json!(s));
        }
        for (k, v) in &t.extra {
            m.insert(k.clone(), v.clone());
        }
        Value::Object(m)
    }

    /// Inserts into `o` the rules: `clear`, `fall`, `hidden_rows`, `game_over`, `sequence`,
    /// `timing`, and `score` and `goal` when set, each rule object with its kept members.
    fn insert_rules(&self, o: &mut Map<String, Value>) {
        let tumo_name = |i: usize| json!(self.tumos.get(i).map_or("?", |t| t.name.as_str()));
        let kept = &self.rule_extra;
        let keys = occurrence_keys(self.clear.iter().map(ClearRule::word));
        let clear = self.clear.iter().zip(&keys).map(|(r, k)| {
            let mut v = r.to_json();
            merge_kept(&mut v, kept.clear.get(k));
            v
        });
        o.insert("clear".into(), Value::Array(clear.collect()));
        o.insert(
            "fall".into(),
            Value::Array(self.fall.iter().map(|f| json!(f.word())).collect()),
        );
        o.insert("hidden_rows".into(), json!(self.hidden_rows));
        let keys = occurrence_keys(self.game_over.iter().map(GameOver::word));
        let game_over = self.game_over.iter().zip(&keys).map(|(g, k)| {
            let mut v = g.to_json();
            merge_kept(&mut v, kept.game_over.get(k));
            v
        });
        o.insert("game_over".into(), Value::Array(game_over.collect()));
        let mut sequence = json!({
            "order": self.sequence.order.word(),
            "tumos": self.sequence.tumos.iter().map(|&i| tumo_name(i)).collect::<Vec<_>>(),
        });
        merge_kept(&mut sequence, Some(&kept.sequence));
        o.insert("sequence".into(), sequence);
        let mut timing = Map::new();
        for (k, v) in self.timing.members() {
            timing.insert(k.into(), json!(v));
        }
        let mut timing = Value::Object(timing);
        merge_kept(&mut timing, Some(&kept.timing));
        o.insert("timing".into(), timing);
        if let Some(s) = &self.score {
            let mut v = s.to_json();
            merge_kept(&mut v, Some(&kept.score));
            o.insert("score".into(), v);
        }
        if let Some(g) = &self.goal {
            let mut v = g.to_json();
            merge_kept(&mut v, Some(&kept.goal));
            o.insert("goal".into(), v);
        }
    }

    fn state_to_json(&self, s: &SavedState) -> Value {
        let name_of = |id: BlockId| json!(self.block_name(id));
        let tumo_name = |i: usize| json!(self.tumos.get(i).map_or("?", |t| t.name.as_str()));
        let mut o = Map::new();
        o.insert("frames".into(), json!(s.frames));
        o.insert("score".into(), json!(s.score));
        o.insert("rows".into(), json!(s.rows));
        o.insert("chain".into(), json!(s.chain));
        o.insert("max_chain".into(), json!(s.max_chain));
        o.insert("status".into(), json!(status_word(&s.status)));
        if let Status::Lost { reason } = &s.status {
            o.insert("reason".into(), json!(reason));
        }
        if let Some((seed, word)) = s.rng {
            let hex: String = seed.iter().map(|b| format!("{b:02x}")).collect();
            o.insert("rng".into(), json!(format!("{hex}:{word}")));
        }
        o.insert(
            "queue".into(),
            Value::Array(
                s.queue
                    .iter()
                    .map(|q| {
                        json!({
                            "tumo": tumo_name(q.tumo),
                            "labels": q.labels.iter().map(|&b| name_of(b)).collect::<Vec<_>>(),
                        })
                    })
                    .collect(),
            ),
        );
        o.insert(
            "bag".into(),
            Value::Array(s.bag.iter().map(|&i| tumo_name(i)).collect()),
        );
        o.insert("fixed_next".into(), json!(s.fixed_next));
        o.insert("gravity_timer".into(), json!(s.gravity_timer));
        o.insert("lock_timer".into(), json!(s.lock_timer));
        o.insert("since_place".into(), json!(s.since_place));
        o.insert("soft_drop_timer".into(), json!(s.soft_drop_timer));
        o.insert("top_row_frames".into(), json!(s.top_row_frames));
        o.insert(
            "last_failed_turn".into(),
            match s.last_failed_turn {
                Some((t, f)) => {
                    json!({"turn": tilesmith_core::input::Input::Turn(t).word(), "frame": f})
                }
                None => Value::Null,
            },
        );
        if let Some(q) = &s.hold {
            o.insert(
                "hold".into(),
                json!({
                    "tumo": tumo_name(q.tumo),
                    "labels": q.labels.iter().map(|&b| name_of(b)).collect::<Vec<_>>(),
                }),
            );
        }
        if s.hold_used {
            o.insert("hold_used".into(), json!(true));
        }
        o.insert("placed_since_clear".into(), json!(s.placed_since_clear));
        o.insert("quiet".into(), json!(s.quiet));
        o.insert(
            "moving".into(),
            Value::Array(s.moving.iter().map(|&(x, y, n)| json!([x, y, n])).collect()),
        );
        if let Some(p) = &s.pending {
            o.insert(
                "pending".into(),
                json!({
                    "frames": p.frames,
                    "delete": p.delete.iter().map(|&(x, y)| json!([x, y])).collect::<Vec<_>>(),
                    "down": p.down.iter().map(|&(x, y, n)| json!([x, y, n])).collect::<Vec<_>>(),
                }),
            );
        }
        Value::Object(o)
    }
}

/// A pivot coordinate as JSON: a whole number when it is one, else the half.
pub(super) fn half_json(v: f64) -> Value {
    if v.fract() == 0.0 {
        json!(v as i64)
    } else {
        json!(v)
    }
}

/// A Lost/Won/Running status as its saved word.
pub(super) fn status_word(s: &Status) -> &'static str {
    s.word()
}

pub(super) fn kicks_to_json(k: &Kicks) -> Value {
    match k {
        Kicks::None => json!("none"),
        Kicks::Table(m) => {
            let mut o = Map::new();
            for ((i, j), tests) in m {
                o.insert(
                    format!("{i}>{j}"),
                    Value::Array(tests.iter().map(|&(x, y)| json!([x, y])).collect()),
                );
            }
            Value::Object(o)
        }
    }
}

/// A block kind as JSON: name, colour, form, role and kept members.
fn block_json(b: &BlockKind) -> Value {
    let mut m = Map::new();
    m.insert("name".into(), json!(b.name));
    m.insert("color".into(), json!(b.color));
    m.insert("form".into(), json!(b.form));
    m.insert("role".into(), json!(b.role.word()));
    for (k, v) in &b.extra {
        m.insert(k.clone(), v.clone());
    }
    Value::Object(m)
}
