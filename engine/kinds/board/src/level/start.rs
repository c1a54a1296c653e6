//! The position a board level starts from: the rules' setup, with the level's `setup`,
//! `reserve`, `attributes`, `to_move`, `turn` and `last` replacing their parts, each read by
//! its own function (the problems in the members' order).

use serde_json::{Map, Value};
use tilesmith_core::problem::Capped as _;

use super::find;
use crate::play::{Piece, Position};
use crate::rules::{MAX_RESERVE, NO_POS, PieceId, PlayerId, PosId, Rules, default_attrs};
use tilesmith_core::level_json::type_name;
use tilesmith_core::problem::{JsonPath, Problem, Severity, did_you_mean, nearest, quote};

/// The position a level starts from: the rules' setup, with `setup`, `reserve`,
/// `attributes`, `to_move`, `turn` and `last` of the level replacing their parts.
pub(super) fn start_position(
    rules: &Rules,
    o: &Map<String, Value>,
    p: &mut Vec<Problem>,
) -> Position {
    let mut pos = Position::initial(rules);
    read_setup(rules, o, &mut pos, p);
    read_reserve(rules, o, &mut pos, p);
    read_attributes(rules, o, &mut pos, p);
    read_turn(rules, o, &mut pos, p);
    read_last(rules, o, &mut pos, p);
    pos
}

/// Reads an object keyed by player names, the level's `member`: (player, member path, value).
fn by_player<'v>(
    rules: &Rules,
    o: &'v Map<String, Value>,
    member: &str,
    p: &mut Vec<Problem>,
) -> Vec<(PlayerId, JsonPath, &'v Value)> {
    let root = JsonPath::root();
    let players = || rules.players.iter();
    let path = root.key(member);
    match o.get(member) {
        None => Vec::new(),
        Some(Value::Object(m)) => m
            .iter()
            .filter_map(|(name, v)| match find(players(), name) {
                Some(i) => Some((i as PlayerId, path.key(name), v)),
                None => {
                    p.push_capped_with(Severity::Error, || {
                        Problem::error(
                            path.key(name),
                            format!(
                                "unknown player {}{} (the players are {})",
                                quote(name),
                                did_you_mean(nearest(name, players().map(String::as_str))),
                                rules.players.join(", ")
                            ),
                        )
                    });
                    None
                }
            })
            .collect(),
        Some(v) => {
            p.push_capped(Problem::error(
                path,
                format!(
                    "{} must be an object keyed by player names, found {}",
                    quote(member),
                    type_name(v)
                ),
            ));
            Vec::new()
        }
    }
}

/// `piece name -> value` objects of one player, borrowed (a huge setup is not copied).
fn by_piece<'v>(
    rules: &Rules,
    path: &JsonPath,
    v: &'v Value,
    p: &mut Vec<Problem>,
) -> Vec<(PieceId, JsonPath, &'v Value)> {
    let pieces = || rules.pieces.iter().map(|d| d.name.as_str());
    match v {
        Value::Object(m) => m
            .iter()
            .filter_map(|(name, v)| match find(pieces(), name) {
                Some(i) => Some((i as PieceId, path.key(name), v)),
                None => {
                    p.push_capped_with(Severity::Error, || {
                        Problem::error(
                            path.key(name),
                            format!(
                                "unknown piece {}{} (the pieces are {})",
                                quote(name),
                                did_you_mean(nearest(name, pieces())),
                                pieces().collect::<Vec<_>>().join(", ")
                            ),
                        )
                    });
                    None
                }
            })
            .collect(),
        v => {
            p.push_capped(Problem::error(
                path.clone(),
                format!(
                    "must be an object keyed by piece names, found {}",
                    type_name(v)
                ),
            ));
            Vec::new()
        }
    }
}

/// The position named by `v` (a problem at `path` when it is no position name of the board).
fn position_named(
    rules: &Rules,
    path: &JsonPath,
    v: &Value,
    p: &mut Vec<Problem>,
) -> Option<PosId> {
    let positions = || rules.board.positions.iter().map(|d| d.name.as_str());
    let Some(name) = v.as_str() else {
        p.push_capped(Problem::error(
            path.clone(),
            format!("must be a position name, found {}", type_name(v)),
        ));
        return None;
    };
    let found = find(positions(), name);
    if found.is_none() {
        p.push_capped(Problem::error(
            path.clone(),
            format!("unknown position {} (not on the board)", quote(name)),
        ));
    }
    found.map(|i| i as PosId)
}

/// The level's `setup`, when given, replaces the rules' pieces on the board.
fn read_setup(rules: &Rules, o: &Map<String, Value>, pos: &mut Position, p: &mut Vec<Problem>) {
    let attrs0 = default_attrs(rules);
    if o.contains_key("setup") {
        pos.cells.iter_mut().for_each(|c| *c = None);
        for (player, ppath, v) in by_player(rules, o, "setup", p) {
            for (kind, kpath, v) in by_piece(rules, &ppath, v, p) {
                let Value::Array(list) = v else {
                    p.push_capped(Problem::error(
                        kpath,
                        format!("must be an array of position names, found {}", type_name(v)),
                    ));
                    continue;
                };
                for (i, at) in list.iter().enumerate() {
                    let path = kpath.index(i);
                    let Some(at) = position_named(rules, &path, at, p) else {
                        continue;
                    };
                    let cell = &mut pos.cells[at as usize];
                    if cell.is_some() {
                        p.push_capped(Problem::error(
                            path,
                            format!(
                                "two pieces on {}",
                                quote(&rules.board.positions[at as usize].name)
                            ),
                        ));
                        continue;
                    }
                    *cell = Some(Piece {
                        player,
                        kind,
                        attrs: attrs0,
                    });
                }
            }
        }
    }
}

/// The level's `reserve`, when given, replaces the rules' reserves.
fn read_reserve(rules: &Rules, o: &Map<String, Value>, pos: &mut Position, p: &mut Vec<Problem>) {
    if o.contains_key("reserve") {
        pos.reserve = vec![vec![0; rules.pieces.len()]; rules.players.len()];
        for (player, ppath, v) in by_player(rules, o, "reserve", p) {
            for (kind, kpath, v) in by_piece(rules, &ppath, v, p) {
                match tilesmith_core::level_json::natural(
                    v,
                    &kpath,
                    "a reserve count",
                    MAX_RESERVE.into(),
                    p,
                ) {
                    Some(n) => pos.reserve[player as usize][kind as usize] = n as u32,
                    None => continue,
                }
            }
        }
    }
}

/// The level's `attributes`: each named position's piece's attributes set or cleared.
fn read_attributes(
    rules: &Rules,
    o: &Map<String, Value>,
    pos: &mut Position,
    p: &mut Vec<Problem>,
) {
    let root = JsonPath::root();
    match o.get("attributes") {
        None => {}
        Some(Value::Object(m)) => {
            let apath = root.key("attributes");
            for (name, v) in m {
                let path = apath.key(name);
                let Some(at) = position_named(rules, &path, &Value::String(name.clone()), p) else {
                    continue;
                };
                let Some(piece) = pos.cells[at as usize].as_mut() else {
                    p.push_capped(Problem::error(
                        path,
                        format!("no piece on {} to have attributes", quote(name)),
                    ));
                    continue;
                };
                let Value::Object(values) = v else {
                    p.push_capped(Problem::error(
                        path,
                        format!(
                            "must be an object of attribute names and true or false, found {}",
                            type_name(v)
                        ),
                    ));
                    continue;
                };
                for (attr, on) in values {
                    let vpath = path.key(attr);
                    let Some(a) = find(rules.attributes.iter().map(|(n, _)| n.as_str()), attr)
                        .filter(|a| *a < 32)
                    else {
                        p.push_capped(Problem::error(
                            vpath,
                            format!("unknown attribute {}", quote(attr)),
                        ));
                        continue;
                    };
                    match on {
                        Value::Bool(true) => piece.attrs |= 1 << a,
                        Value::Bool(false) => piece.attrs &= !(1 << a),
                        v => p.push_capped(Problem::error(
                            vpath,
                            format!("must be true or false, found {}", type_name(v)),
                        )),
                    }
                }
            }
        }
        Some(v) => p.push_capped(Problem::error(
            root.key("attributes"),
            format!(
                "\"attributes\" must be an object keyed by position names, found {}",
                type_name(v)
            ),
        )),
    }
}

/// The level's `to_move` and `turn`: the place in the turn order the position is at.
fn read_turn(rules: &Rules, o: &Map<String, Value>, pos: &mut Position, p: &mut Vec<Problem>) {
    let root = JsonPath::root();
    let players = || rules.players.iter();
    let order: Vec<PlayerId> = rules.turn_order.iter().map(|t| t.player).collect();
    let to_move = match o.get("to_move") {
        None => None,
        Some(Value::String(name)) => match find(players(), name) {
            Some(i) => Some(i as PlayerId),
            None => {
                p.push_capped(Problem::error(
                    root.key("to_move"),
                    format!(
                        "unknown player {}{} (the players are {})",
                        quote(name),
                        did_you_mean(nearest(name, players().map(String::as_str))),
                        rules.players.join(", ")
                    ),
                ));
                None
            }
        },
        Some(v) => {
            p.push_capped(Problem::error(
                root.key("to_move"),
                format!("\"to_move\" must be a player name, found {}", type_name(v)),
            ));
            None
        }
    };
    let turn = match o.get("turn") {
        None => None,
        Some(v) => tilesmith_core::level_json::natural(
            v,
            &root.key("turn"),
            "\"turn\"",
            order.len().saturating_sub(1) as i64,
            p,
        )
        .map(|n| n as usize),
    };
    match (to_move, turn) {
        (_, Some(t)) => {
            if let Some(m) = to_move.filter(|m| order.get(t) != Some(m)) {
                p.push_capped(Problem::error(
                    root.key("turn"),
                    format!(
                        "turn {t} of the turn order is not {}'s",
                        rules.players[m as usize]
                    ),
                ));
            }
            pos.turn = t;
        }
        (Some(m), None) => match order.iter().position(|x| *x == m) {
            Some(t) => pos.turn = t,
            None => p.push_capped(Problem::error(
                root.key("to_move"),
                format!(
                    "{} never moves in the turn order",
                    quote(&rules.players[m as usize])
                ),
            )),
        },
        (None, None) => {}
    }
}

/// The level's `last`: the last move's origin and destination.
fn read_last(rules: &Rules, o: &Map<String, Value>, pos: &mut Position, p: &mut Vec<Problem>) {
    let root = JsonPath::root();
    match o.get("last") {
        None | Some(Value::Null) => {}
        Some(Value::Array(a)) if a.len() == 2 => {
            let lp = root.key("last");
            // A drop has no origin: written as `null`, read back as NO_POS.
            let from = match &a[0] {
                Value::Null => Some(NO_POS),
                v => position_named(rules, &lp.index(0), v, p),
            };
            let to = position_named(rules, &lp.index(1), &a[1], p);
            if let (Some(f), Some(t)) = (from, to) {
                pos.last = Some((f, t));
            }
        }
        Some(v) => p.push_capped(Problem::error(
            root.key("last"),
            format!(
                "\"last\" must be [FROM, TO], two position names (FROM null for a drop), found {}",
                type_name(v)
            ),
        )),
    }
}
