//! Helpers for the baba tests: boards written like the spec's conformance cases (baba §6),
//! rules written as words, and the board drawn back in the same notation.
//!
//! Board notation: one row per line, cells separated by spaces; `.` is an empty cell and `+`
//! joins the objects of one cell (bottom first). An object is a legend letter (B BABA, K KEKE,
//! W WALL, R ROCK, S SKULL, F FLAG, Y KEY, D DOOR, G GRASS, A WATER, L LAVA, T BELT, P PORTAL,
//! X BOX, M ME) or a text tile `[WORD]`, with an optional facing suffix `>` `<` `^` `v`
//! (default right) and an optional count prefix (`2Y` = two KEYs).

use tilesmith_engine::Grid;
use tilesmith_engine::game::Game;
use tilesmith_engine::grid::{Dir, Pos};
use tilesmith_engine::kind::baba::{
    BabaGame, BabaLevel, Kind, Noun, ObjectView, Prop, Rule, Tile, Word, parse_words,
};

/// The legend letters and their nouns.
pub const LEGEND: &[(char, &str)] = &[
    ('B', "baba"),
    ('K', "keke"),
    ('W', "wall"),
    ('R', "rock"),
    ('S', "skull"),
    ('F', "flag"),
    ('Y', "key"),
    ('D', "door"),
    ('G', "grass"),
    ('A', "water"),
    ('L', "lava"),
    ('T', "belt"),
    ('P', "portal"),
    ('X', "box"),
    ('M', "me"),
];

fn noun(letter: char) -> Noun {
    let name = LEGEND
        .iter()
        .find(|(c, _)| *c == letter)
        .unwrap_or_else(|| panic!("unknown legend letter {letter}"))
        .1;
    Noun::from_name(name).expect("legend nouns exist")
}

fn dir_suffix(c: char) -> Option<Dir> {
    match c {
        '>' => Some(Dir::Right),
        '<' => Some(Dir::Left),
        '^' => Some(Dir::Up),
        'v' => Some(Dir::Down),
        _ => None,
    }
}

fn suffix(d: Dir) -> char {
    match d {
        Dir::Right => '>',
        Dir::Left => '<',
        Dir::Up => '^',
        Dir::Down => 'v',
    }
}

fn item(s: &str) -> Vec<Tile> {
    let digits: String = s.chars().take_while(char::is_ascii_digit).collect();
    let n: usize = if digits.is_empty() {
        1
    } else {
        digits.parse().expect("count")
    };
    let rest = &s[digits.len()..];
    let (body, dir) = match rest.chars().last().and_then(dir_suffix) {
        Some(d) if rest.len() > 1 => (&rest[..rest.len() - 1], d),
        _ => (rest, Dir::Right),
    };
    let kind = if let Some(w) = body.strip_prefix('[').and_then(|b| b.strip_suffix(']')) {
        Kind::Text(
            Word::from_name(&w.to_ascii_lowercase()).unwrap_or_else(|| panic!("unknown word {w}")),
        )
    } else {
        let mut cs = body.chars();
        let c = cs.next().expect("an object letter");
        assert!(cs.next().is_none(), "one letter per object: {body}");
        Kind::Entity(noun(c))
    };
    vec![Tile { kind, dir }; n]
}

/// Parses a board in the notation above into a level.
pub fn board(text: &str) -> BabaLevel {
    let rows: Vec<Vec<Vec<Tile>>> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|l| {
            l.split_whitespace()
                .map(|c| {
                    if c == "." {
                        Vec::new()
                    } else {
                        c.split('+').flat_map(item).collect()
                    }
                })
                .collect()
        })
        .collect();
    let w = rows[0].len();
    assert!(rows.iter().all(|r| r.len() == w), "ragged board");
    let h = rows.len();
    let mut level = BabaLevel::new("test", w, h);
    level.map = Grid::from_vec(w, h, rows.into_iter().flatten().collect()).expect("size");
    level
}

/// Rules written as sentences (`"baba is you"`, `"2 x belt is shift"` is not supported: repeat
/// the sentence instead).
pub fn rules(sentences: &[&str]) -> Vec<Rule> {
    sentences
        .iter()
        .flat_map(|s| parse_words(s).unwrap_or_else(|| panic!("not a sentence: {s}")))
        .collect()
}

/// A game of `board` with `sentences` holding as rules formed off the board.
pub fn game(board_text: &str, sentences: &[&str]) -> BabaGame {
    let mut g = BabaGame::new(board(board_text), 0);
    g.set_extra_rules(rules(sentences));
    g
}

/// Plays inputs written in baba's words, `R L U D .`, `undo`, `restart` (or `WORD*N`).
pub fn play(g: &mut BabaGame, inputs: &str) {
    let inputs = tilesmith_engine::parse_inputs(&tilesmith_engine::kind::baba::Baba, inputs)
        .unwrap_or_else(|e| panic!("bad inputs: {e}"));
    for i in inputs {
        g.step(i);
    }
}

fn letter(k: Kind) -> String {
    match k {
        Kind::Text(w) => format!("[{}]", w.name().to_ascii_uppercase()),
        Kind::Entity(n) => LEGEND
            .iter()
            .find(|(_, name)| *name == n.name())
            .map_or_else(|| n.name().to_string(), |(c, _)| c.to_string()),
        // Only a level read in repair mode holds one, and never a game.
        Kind::Unknown(_) => "?".to_string(),
    }
}

/// The board drawn in the notation above, rows joined by `\n`; facings shown when `dirs`.
pub fn show(g: &BabaGame, dirs: bool) -> String {
    let (w, h) = g.size();
    let objs = g.objects();
    (0..h)
        .map(|y| {
            (0..w)
                .map(|x| {
                    let here: Vec<String> = objs
                        .iter()
                        .filter(|o| o.pos == Pos::new(x, y))
                        .map(|o| {
                            let mut s = letter(o.kind);
                            if dirs {
                                s.push(suffix(o.dir));
                            }
                            s
                        })
                        .collect();
                    if here.is_empty() {
                        ".".to_string()
                    } else {
                        here.join("+")
                    }
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Normalises a board text for comparison with [`show`]: trims lines and single-spaces cells.
pub fn norm(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The objects of noun `letter` (entities only).
pub fn find(g: &BabaGame, letter_char: char) -> Vec<ObjectView> {
    let n = noun(letter_char);
    g.objects()
        .into_iter()
        .filter(|o| o.kind == Kind::Entity(n))
        .collect()
}

/// True when object `o` has property `p` now.
pub fn is(g: &BabaGame, o: &ObjectView, p: Prop) -> bool {
    g.prop_count(o.id, p) > 0
}
