//! The Keke AI Competition level sets (`../shared/corpus/baba/keke/`, README there): each
//! level's ASCII map converted to a baba level and its solution string converted to inputs.
//! Used by the `baba_keke` test and the `keke` benchmark.
//!
//! Conversion: the `_` ring around every map becomes the level boundary, so a Keke cell at
//! column `c`, row `r` (border included) is our cell x = c − 1, y = r − 1. Each legend
//! character (README "ASCII legend") becomes one tile facing right; KILL is our DEFEAT.

use std::path::Path;

use serde_json::Value;
use tilesmith_engine::Grid;
use tilesmith_engine::grid::Dir;
use tilesmith_engine::input::Input;
use tilesmith_engine::kind::baba::{BabaLevel, Kind, Noun, Tile, Word};

/// The set files (all five non-empty ones; search_biy and user_milk_biy repeat full_biy
/// levels), without `.json`.
pub const SETS: &[&str] = &[
    "demo_LEVELS",
    "full_biy_LEVELS",
    "search_biy_LEVELS",
    "test_LEVELS",
    "user_milk_biy_LEVELS",
];

/// One level of a set: its set name without `_LEVELS`, its id as text, the converted level
/// and the solution's inputs.
#[derive(Clone)]
pub struct KekeLevel {
    /// `demo`, `full_biy`, `search_biy`, `test` or `user_milk_biy`.
    pub set: String,
    /// The level's `id` (numbers written as text).
    pub id: String,
    /// The map converted to a baba level (shared by the games replaying it).
    pub level: std::sync::Arc<BabaLevel>,
    /// The solution, one input per move (`s` is a wait).
    pub inputs: Vec<Input>,
}

/// One ASCII character of a Keke map as a tile (README legend); `None` for empty and border.
///
/// # Panics
/// On a character that is not in the legend.
pub fn tile(c: char) -> Option<Tile> {
    let noun = |n: &str| Noun::from_name(n).expect("legend noun");
    let word = |w: &str| Word::from_name(w).expect("legend word");
    let kind = match c {
        'b' => Kind::Entity(noun("baba")),
        'k' => Kind::Entity(noun("keke")),
        'f' => Kind::Entity(noun("flag")),
        'r' => Kind::Entity(noun("rock")),
        'w' => Kind::Entity(noun("wall")),
        's' => Kind::Entity(noun("skull")),
        'g' => Kind::Entity(noun("goop")),
        'l' => Kind::Entity(noun("lava")),
        'a' => Kind::Entity(noun("grass")),
        'o' => Kind::Entity(noun("floor")),
        'v' => Kind::Entity(noun("love")),
        'B' => Kind::Text(word("baba")),
        'K' => Kind::Text(word("keke")),
        'F' => Kind::Text(word("flag")),
        'R' => Kind::Text(word("rock")),
        'W' => Kind::Text(word("wall")),
        'S' => Kind::Text(word("skull")),
        'G' => Kind::Text(word("goop")),
        'L' => Kind::Text(word("lava")),
        'A' => Kind::Text(word("grass")),
        'O' => Kind::Text(word("floor")),
        'V' => Kind::Text(word("love")),
        '1' => Kind::Text(word("is")),
        '2' => Kind::Text(word("you")),
        '3' => Kind::Text(word("win")),
        '4' => Kind::Text(word("defeat")),
        '5' => Kind::Text(word("push")),
        '6' => Kind::Text(word("stop")),
        '7' => Kind::Text(word("move")),
        '8' => Kind::Text(word("hot")),
        '9' => Kind::Text(word("melt")),
        '0' => Kind::Text(word("sink")),
        '.' | ' ' | '_' => return None,
        other => panic!("character {other:?} is not in the Keke legend"),
    };
    Some(Tile {
        kind,
        dir: Dir::Right,
    })
}

/// Converts a Keke ASCII map (rows joined by `\n`, all of one length, at least 3×3): the `_`
/// border ring becomes the level boundary, so the level is two cells narrower and lower.
///
/// # Panics
/// On a map smaller than 3×3, with ragged rows, or with a character outside the legend.
pub fn convert(ascii: &str, name: &str) -> BabaLevel {
    let rows: Vec<Vec<char>> = ascii.lines().map(|l| l.chars().collect()).collect();
    let h = rows.len();
    let w = rows[0].len();
    assert!(h >= 3 && w >= 3 && rows.iter().all(|r| r.len() == w));
    let inner: Vec<Vec<Tile>> = rows[1..h - 1]
        .iter()
        .flat_map(|r| r[1..w - 1].iter().map(|&c| tile(c).into_iter().collect()))
        .collect();
    let mut level = BabaLevel::new(name, w - 2, h - 2);
    level.map = Grid::from_vec(w - 2, h - 2, inner).expect("size");
    level
}

/// A solution string as inputs: `u d l r` move, `s` waits, case is ignored and any other
/// character is skipped (as the Keke simulator's `translateSol` does).
pub fn inputs(solution: &str) -> Vec<Input> {
    solution
        .chars()
        .filter_map(|c| match c.to_ascii_lowercase() {
            'u' => Some(Input::Move(Dir::Up)),
            'd' => Some(Input::Move(Dir::Down)),
            'l' => Some(Input::Move(Dir::Left)),
            'r' => Some(Input::Move(Dir::Right)),
            's' => Some(Input::Wait),
            _ => None,
        })
        .collect()
}

/// Every level of the [`SETS`] files in `dir` (the corpus folder `baba/keke`), in file order.
///
/// # Panics
/// When a file is missing or is not a level set as the README describes.
pub fn load_all(dir: &Path) -> Vec<KekeLevel> {
    let mut out = Vec::new();
    for set in SETS {
        let path = dir.join(format!("{set}.json"));
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let v: Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()));
        for l in v["levels"].as_array().expect("a levels list") {
            let id = match &l["id"] {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            out.push(KekeLevel {
                set: set.trim_end_matches("_LEVELS").to_string(),
                level: convert(l["ascii"].as_str().expect("an ascii map"), &id).into(),
                inputs: inputs(l["solution"].as_str().unwrap_or("")),
                id,
            });
        }
    }
    out
}

/// Replays `l`'s solution once from the level's start, to its end or to the win, whichever
/// comes first (the Keke validator stops at the win too); the moves played. The workload of
/// the `keke` bench and the `keke_replay` example (the game is passed through
/// [`std::hint::black_box`] so that nothing is optimised away).
pub fn replay(l: &KekeLevel) -> u64 {
    use tilesmith_engine::Game as _;
    let mut g = tilesmith_engine::kind::baba::BabaGame::new(l.level.clone(), 0);
    let mut moves = 0;
    for i in &l.inputs {
        g.step(*i);
        moves += 1;
        if matches!(g.status(), tilesmith_engine::Status::Won { .. }) {
            break;
        }
    }
    std::hint::black_box(&g);
    moves
}
