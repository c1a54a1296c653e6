//! What a board game's trace and summary say of its turns and its end: pieces by owner and
//! type, each turn's event and the end's.

use super::*;

impl BoardGame {
    /// `"White Man"`: the piece's owner and type.
    pub(super) fn piece_label(&self, p: Piece) -> String {
        let rules = &self.level.rules;
        format!(
            "{} {}",
            rules
                .players
                .get(p.player as usize)
                .map_or("?", String::as_str),
            rules
                .pieces
                .get(p.kind as usize)
                .map_or("?", |d| d.name.as_str())
        )
    }

    /// [`BoardGame::piece_label`] for a piece, followed by the attributes that differ from
    /// their defaults (`"Black Spore [guarded]"`, `"[not guarded]"` for one cleared), `null`
    /// for an empty position.
    pub(super) fn piece_name(&self, piece: Option<Piece>) -> Value {
        let Some(p) = piece else {
            return Value::Null;
        };
        let rules = &self.level.rules;
        let attrs: Vec<String> = rules
            .attributes
            .iter()
            .enumerate()
            .take(32)
            .filter_map(|(k, (name, default))| {
                let on = p.attrs & (1 << k) != 0;
                (on != *default).then(|| {
                    if on {
                        name.clone()
                    } else {
                        format!("not {name}")
                    }
                })
            })
            .collect();
        if attrs.is_empty() {
            json!(self.piece_label(p))
        } else {
            json!(format!("{} [{}]", self.piece_label(p), attrs.join(", ")))
        }
    }

    /// The `--trace` line of the turn `d` just played: ply, mover, move, each position it
    /// changed (before and after) and, when it changed them, the reserves.
    pub(super) fn turn_event(&self, d: &Done) -> Value {
        let rules = &self.level.rules;
        let mover = rules
            .turn_order
            .get(d.turn_index)
            .and_then(|t| rules.players.get(t.player as usize));
        let changed: Vec<Value> = d
            .cells
            .iter()
            .map(|&(i, before)| {
                let at = rules.board.positions.get(i as usize).map(|p| &p.name);
                let after = self.pos.cells.get(i as usize).copied().flatten();
                json!({"at": at, "before": self.piece_name(before), "after": self.piece_name(after)})
            })
            .collect();
        let mut e = json!({"ply": self.steps(), "player": mover, "move": d.turn.notation, "changed": changed});
        if let Some(before) = &d.reserve {
            let mut reserve = Vec::new();
            for (pl, counts) in self.pos.reserve.iter().enumerate() {
                for (k, &after) in counts.iter().enumerate() {
                    let was = before.get(pl).and_then(|c| c.get(k)).copied().unwrap_or(0);
                    if was != after {
                        reserve.push(json!({
                            "player": rules.players.get(pl),
                            "piece": rules.pieces.get(k).map(|d| &d.name),
                            "before": was,
                            "after": after,
                        }));
                    }
                }
            }
            e["reserve"] = Value::Array(reserve);
        }
        e
    }

    /// The `--trace` line of how the game ended: status (as in the summary), winner, and the
    /// reason, which for a rules error is the error where it is written
    /// (`rules.zrf:12:5: move generation failed: …`).
    pub(super) fn end_event(&self) -> Value {
        let (winner, reason) = match (&self.status, self.error_problem()) {
            (_, Some(p)) if p.file.is_some() => (None, Some(p.render(""))),
            (_, Some(p)) => (None, Some(format!("{} (at {})", p.message, p.path))),
            (Status::Won { winner, .. }, None) => (winner.clone(), None),
            (Status::Lost { reason } | Status::Draw { reason }, None) => {
                (None, Some(reason.clone()))
            }
            (Status::Running, None) => (None, None),
        };
        json!({"ply": self.steps(), "status": self.outcome_word(), "winner": winner, "reason": reason})
    }
}
