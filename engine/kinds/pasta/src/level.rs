//! Pasta Logic levels (issue #28, "Level format"; `docs/pasta-level-format.md`): the program
//! (`cards`, or the spec §4 setup drawn from the game's seed when absent), the flag queues,
//! hands, reserves, lives, who places first, the cursor and its direction, parameter chips,
//! and, for a saved game, what its next decision needs (`resume`). Every problem is located
//! by its JSON path; unknown members are kept and written back.

use rand_chacha::ChaCha8Rng;
use rand_core::Rng as _;
use rand_core::SeedableRng as _;
use serde_json::{Map, Value, json};
use tilesmith_core::problem::Capped as _;

use super::card::{Card, PLAYERS, player_named};
use super::state::{FLAGS_PER_PLAYER, MAX_CARDS, MAX_LIFE, State, Track};
use tilesmith_core::level_json::{int, type_name};
use tilesmith_core::problem::{JsonPath, Problem, did_you_mean, nearest, quote};

/// The members the format reads; the others are kept and written back.
pub const MEMBERS: [&str; 12] = [
    "kind",
    "name",
    "cards",
    "flags",
    "hand",
    "reserve",
    "life",
    "first",
    "cursor",
    "direction",
    "chips",
    "resume",
];

/// Cards in the setup of spec §4: the 3 BASIC cards and 5 others.
pub const SETUP_CARDS: usize = 8;

pub use super::resume::Resume;

/// A Pasta Logic level.
#[derive(Clone, Debug, PartialEq)]
pub struct PastaLevel {
    /// The level's name.
    pub name: String,
    /// The program; `None`: the spec §4 setup drawn from the game's seed.
    pub cards: Option<Vec<Card>>,
    /// Each card's flag queue, head first (0 red, 1 blue).
    pub flags: Vec<Vec<u8>>,
    /// Flags still to place, red and blue.
    pub hand: [u8; 2],
    /// Flags in the box.
    pub reserve: [u8; 2],
    /// Lives.
    pub life: [i8; 2],
    /// Who places next.
    pub first: u8,
    /// The card under the cursor.
    pub cursor: u8,
    /// The cursor moves backward.
    pub backward: bool,
    /// Chips: (card index, parameter 0-based, net chips).
    pub chips: Vec<(u8, u8, i8)>,
    /// A saved game's next decision.
    pub resume: Option<Resume>,
    /// Members the format does not use.
    pub extra: Map<String, Value>,
}

/// An object `{"red": n, "blue": n}` of whole numbers in `lo..=hi`.
fn pair(v: &Value, path: &JsonPath, lo: i64, hi: i64, p: &mut Vec<Problem>) -> Option<[i64; 2]> {
    let Value::Object(o) = v else {
        p.push_capped(Problem::error(
            path.clone(),
            format!(
                "must be an object like {{\"red\": 5, \"blue\": 5}}, found {}",
                type_name(v)
            ),
        ));
        return None;
    };
    let mut out = [0i64; 2];
    let mut ok = true;
    for (k, x) in o {
        let at = path.key(k);
        let Some(pl) = player_named(k) else {
            p.push_capped(Problem::error(
                at,
                format!("{} is not a player (red, blue)", quote(k)),
            ));
            ok = false;
            continue;
        };
        match int(x) {
            Some(n) if (lo..=hi).contains(&n) => out[pl as usize] = n,
            Some(n) => {
                p.push_capped(Problem::error(at, format!("{n} is outside {lo}…{hi}")));
                ok = false;
            }
            None => {
                p.push_capped(Problem::error(
                    at,
                    format!("must be a whole number, found {}", type_name(x)),
                ));
                ok = false;
            }
        }
    }
    for (pl, name) in PLAYERS.iter().enumerate() {
        if !o.keys().any(|k| k.eq_ignore_ascii_case(name)) {
            p.push_capped(Problem::error(
                path.clone(),
                format!("\"{name}\" is missing"),
            ));
            ok = false;
            let _ = pl;
        }
    }
    ok.then_some(out)
}

fn cards_of(v: &Value, path: &JsonPath, p: &mut Vec<Problem>) -> Option<Vec<Card>> {
    let Value::Array(a) = v else {
        p.push_capped(Problem::error(
            path.clone(),
            format!(
                "\"cards\" must be an array of card names, found {}",
                type_name(v)
            ),
        ));
        return None;
    };
    if a.is_empty() || a.len() > MAX_CARDS {
        p.push_capped(Problem::error(
            path.clone(),
            format!("a program has 1 to {MAX_CARDS} cards, found {}", a.len()),
        ));
        return None;
    }
    let mut out = Vec::new();
    let mut ok = true;
    for (i, x) in a.iter().enumerate() {
        let at = path.index(i);
        let Some(s) = x.as_str() else {
            p.push_capped(Problem::error(
                at,
                format!("a card name must be a string, found {}", type_name(x)),
            ));
            ok = false;
            continue;
        };
        match Card::from_name(s) {
            Some(c) if out.contains(&c) => {
                p.push_capped(Problem::error(
                    at,
                    format!(
                        "{} is already in the program (each card at most once)",
                        quote(s)
                    ),
                ));
                ok = false;
            }
            Some(c) => out.push(c),
            None => {
                let hint = did_you_mean(nearest(s, Card::ALL.iter().map(|c| c.name())));
                p.push_capped(Problem::error(
                    at,
                    format!("unknown card {}{hint}", quote(s)),
                ));
                ok = false;
            }
        }
    }
    ok.then_some(out)
}

fn flags_of(v: &Value, path: &JsonPath, n: usize, p: &mut Vec<Problem>) -> Option<Vec<Vec<u8>>> {
    let Value::Array(a) = v else {
        p.push_capped(Problem::error(
            path.clone(),
            format!(
                "\"flags\" must be an array of flag queues, found {}",
                type_name(v)
            ),
        ));
        return None;
    };
    if a.len() != n {
        p.push_capped(Problem::error(
            path.clone(),
            format!(
                "\"flags\" has {} queues but \"cards\" has {n} cards",
                a.len()
            ),
        ));
        return None;
    }
    let mut out = Vec::new();
    let mut ok = true;
    for (i, q) in a.iter().enumerate() {
        let Value::Array(q) = q else {
            p.push_capped(Problem::error(
                path.index(i),
                format!("a flag queue must be an array, found {}", type_name(q)),
            ));
            ok = false;
            continue;
        };
        let mut owners = Vec::new();
        for (j, f) in q.iter().enumerate() {
            match f.as_str().and_then(player_named) {
                Some(pl) => owners.push(pl),
                None => {
                    p.push_capped(Problem::error(
                        path.index(i).index(j),
                        format!(
                            "{} is not a player's flag (red, blue)",
                            match f.as_str() {
                                Some(name) => quote(name),
                                None => f.to_string(),
                            }
                        ),
                    ));
                    ok = false;
                }
            }
        }
        out.push(owners);
    }
    ok.then_some(out)
}

fn chips_of(v: &Value, path: &JsonPath, cards: &[Card], p: &mut Vec<Problem>) -> Vec<(u8, u8, i8)> {
    let Value::Object(o) = v else {
        p.push_capped(Problem::error(
            path.clone(),
            format!(
                "\"chips\" must be an object like {{\"Bug#1\": 1}}, found {}",
                type_name(v)
            ),
        ));
        return Vec::new();
    };
    let mut out = Vec::new();
    for (k, x) in o {
        let at = path.key(k);
        let parsed = k
            .rsplit_once('#')
            .and_then(|(name, n)| Some((Card::from_name(name)?, n.parse::<usize>().ok()?)));
        let Some((card, n)) = parsed else {
            p.push_capped(Problem::error(
                at,
                format!("{} is not a parameter (write Card#n, e.g. Bug#1)", quote(k)),
            ));
            continue;
        };
        let Some(ci) = cards.iter().position(|&c| c == card) else {
            p.push_capped(Problem::error(
                at,
                format!("{} is not in the program", card.name()),
            ));
            continue;
        };
        let printed = card.params();
        if n == 0 || n > printed.len() {
            p.push_capped(Problem::error(
                at,
                format!(
                    "{} has no parameter #{n} (it has {})",
                    card.name(),
                    printed.len()
                ),
            ));
            continue;
        }
        match int(x) {
            Some(c) if (-2..=2).contains(&c) => {
                if printed[n - 1] as i64 + c < 0 {
                    p.push_capped(Problem::error(
                        at,
                        format!("{c} chips would take {}#{n} below 0 (C3)", card.name()),
                    ));
                } else if c != 0 {
                    out.push((ci as u8, (n - 1) as u8, c as i8));
                }
            }
            Some(c) => p.push_capped(Problem::error(
                at,
                format!("{c} chips: there are 2 chips of each kind"),
            )),
            None => p.push_capped(Problem::error(
                at,
                format!("must be a whole number, found {}", type_name(x)),
            )),
        }
    }
    for (kind, sign) in [("Increment", 1i8), ("Decrement", -1)] {
        let total: i64 = out.iter().map(|c| (c.2 * sign).max(0) as i64).sum();
        if total > 2 {
            p.push_capped(Problem::error(
                path.clone(),
                format!("{total} {kind} chips on cards; there are 2"),
            ));
        }
    }
    out
}

/// One of `words` (ignoring ASCII case) at `key`, or `default` when absent.
fn word_of(
    o: &Map<String, Value>,
    key: &str,
    words: &[&str],
    default: usize,
    p: &mut Vec<Problem>,
) -> usize {
    match o.get(key) {
        None => default,
        Some(v) => match v
            .as_str()
            .and_then(|s| words.iter().position(|w| w.eq_ignore_ascii_case(s)))
        {
            Some(i) => i,
            None => {
                p.push_capped(Problem::error(
                    JsonPath::root().key(key),
                    format!(
                        "must be one of {}, found {}",
                        words.join(", "),
                        tilesmith_core::level_json::shown(v)
                    ),
                ));
                default
            }
        },
    }
}

/// A5 and §5: at most 10 flags a colour (hand + reserve + on cards), and a card without the
/// player's flag for every flag in hand. While flags are in hand (the placement phase) no
/// card holds two flags of one player (X5): placement never puts a second own flag on a
/// card and no command runs before placement ends, so no play reaches such a position.
fn check_totals(
    o: &Map<String, Value>,
    flags: &[Vec<u8>],
    n: usize,
    hand: [u8; 2],
    reserve: [u8; 2],
    p: &mut Vec<Problem>,
) {
    if hand != [0, 0] {
        for (i, q) in flags.iter().enumerate() {
            for pl in 0..2u8 {
                if q.iter().filter(|&&f| f == pl).count() > 1 {
                    p.push_capped(Problem::error(
                        JsonPath::root().key("flags").index(i),
                        format!(
                            "two {} flags on one card while flags are still in hand (placement \
                             puts one own flag a card, X5)",
                            PLAYERS[pl as usize]
                        ),
                    ));
                }
            }
        }
    }
    for pl in 0..2u8 {
        let total = hand[pl as usize] as i64
            + reserve[pl as usize] as i64
            + flags.iter().flatten().filter(|&&f| f == pl).count() as i64;
        if total > FLAGS_PER_PLAYER as i64 {
            let at = if o.contains_key("reserve") {
                "reserve"
            } else if o.contains_key("hand") {
                "hand"
            } else {
                "flags"
            };
            p.push_capped(Problem::error(
                    JsonPath::root().key(at),
                    format!(
                        "{} has {total} flags in hand, reserve and on cards; there are {FLAGS_PER_PLAYER} (A5)",
                        PLAYERS[pl as usize]
                    ),
                ),
            );
        }
        let free =
            flags.iter().filter(|q| !q.contains(&pl)).count() + n.saturating_sub(flags.len());
        if (hand[pl as usize] as usize) > free {
            p.push_capped(Problem::error(
                    JsonPath::root().key(if o.contains_key("hand") {
                        "hand"
                    } else {
                        "cards"
                    }),
                    format!(
                        "{} cannot place {} flags: only {free} cards without a {} flag (one own flag a card while placing, §5)",
                        PLAYERS[pl as usize], hand[pl as usize], PLAYERS[pl as usize]
                    ),
                ),
            );
        }
    }
}

/// The program's length: the cards read, else (a card with an error) as many as `cards`
/// lists, so that `flags` and `cursor` are still checked against the line written; the
/// setup's [`SETUP_CARDS`] without `cards`.
fn line_length(o: &Map<String, Value>, cards: Option<&[Card]>) -> usize {
    let written = o
        .get("cards")
        .and_then(Value::as_array)
        .map(Vec::len)
        .filter(|l| (1..=Card::ALL.len()).contains(l));
    cards.map(<[Card]>::len).or(written).unwrap_or(SETUP_CARDS)
}

impl PastaLevel {
    /// Reads a level document, with every problem located by its JSON path.
    ///
    /// # Errors
    /// The problems found (at most [`tilesmith_core::problem::MAX_PROBLEMS`], then a count).
    pub fn from_json(doc: &Value) -> Result<PastaLevel, Vec<Problem>> {
        Self::read(doc, true)
    }

    /// [`PastaLevel::from_json`]; the unknown members are copied into `extra` only when
    /// `keep` (a check does not copy them: a huge one would double the memory).
    fn read(doc: &Value, keep: bool) -> Result<PastaLevel, Vec<Problem>> {
        let root = JsonPath::root();
        let Value::Object(o) = doc else {
            return Err(vec![Problem::error(root, "a level must be a JSON object")]);
        };
        let mut p = Vec::new();
        let name = tilesmith_core::level_json::name(o, &mut p);
        let cards = o
            .get("cards")
            .and_then(|v| cards_of(v, &root.key("cards"), &mut p));
        let n = line_length(o, cards.as_deref());
        for key in ["flags", "chips"] {
            if o.contains_key(key) && !o.contains_key("cards") {
                p.push_capped(Problem::error(
                    root.key(key),
                    format!("\"{key}\" needs \"cards\" (the setup's cards are drawn at the start)"),
                ));
            }
        }
        let flags = match o.get("flags") {
            Some(v) if o.contains_key("cards") => {
                flags_of(v, &root.key("flags"), n, &mut p).unwrap_or_default()
            }
            _ => vec![Vec::new(); n],
        };
        let has_flags = o.contains_key("flags");
        let read_pair = |key: &str, lo: i64, hi: i64, p: &mut Vec<Problem>| {
            o.get(key).and_then(|v| pair(v, &root.key(key), lo, hi, p))
        };
        let hand = read_pair("hand", 0, FLAGS_PER_PLAYER as i64, &mut p)
            .map_or(if has_flags { [0, 0] } else { [5, 5] }, |h| {
                [h[0] as u8, h[1] as u8]
            });
        let life = read_pair("life", 1, MAX_LIFE as i64, &mut p)
            .map_or([5, 5], |l| [l[0] as i8, l[1] as i8]);
        if let Some(Value::Object(l)) = o.get("life") {
            for (k, v) in l {
                if let Some(x) = int(v).filter(|x| *x > MAX_LIFE as i64 || *x <= 0) {
                    let why = if x > 0 {
                        "above 6, the life die's face"
                    } else {
                        "at most 0: that player has lost"
                    };
                    p.retain(|q| q.path != root.key("life").key(k));
                    p.push_capped(Problem::error(
                        root.key("life").key(k),
                        format!("life {x} is {why}"),
                    ));
                }
            }
        }
        let on_cards = |pl: u8| flags.iter().flatten().filter(|&&f| f == pl).count() as i64;
        let reserve = match read_pair("reserve", 0, FLAGS_PER_PLAYER as i64, &mut p) {
            Some(r) => [r[0] as u8, r[1] as u8],
            None => [0, 1].map(|pl| {
                (FLAGS_PER_PLAYER as i64 - hand[pl] as i64 - on_cards(pl as u8)).max(0) as u8
            }),
        };
        check_totals(o, &flags, n, hand, reserve, &mut p);
        let first = word_of(o, "first", &PLAYERS, 0, &mut p) as u8;
        let backward = word_of(o, "direction", &["forward", "backward"], 0, &mut p) == 1;
        let cursor = match o.get("cursor") {
            None => 0,
            Some(v) => match int(v) {
                Some(c) if c >= 0 && (c as usize) < n => c as u8,
                _ => {
                    p.push_capped(Problem::error(
                        root.key("cursor"),
                        format!("the cursor must be a card's index 0…{}, found {v}", n - 1),
                    ));
                    0
                }
            },
        };
        let chips = match (o.get("chips"), &cards) {
            (Some(v), Some(c)) => chips_of(v, &root.key("chips"), c, &mut p),
            _ => Vec::new(),
        };
        let resume = o.get("resume").and_then(|v| {
            super::resume::read(
                v,
                &root.key("resume"),
                cards.as_deref(),
                &flags,
                cursor,
                hand,
                &mut p,
            )
        });
        if p.iter().any(Problem::is_error) {
            return Err(p);
        }
        let extra: Map<String, Value> = o
            .iter()
            .filter(|(k, _)| keep && !MEMBERS.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        Ok(PastaLevel {
            name,
            cards,
            flags,
            hand,
            reserve,
            life,
            first,
            cursor,
            backward,
            chips,
            resume,
            extra,
        })
    }

    /// The level's problems (errors only: the format has no warnings).
    pub fn check(doc: &Value) -> Vec<Problem> {
        PastaLevel::read(doc, false).err().unwrap_or_default()
    }

    /// The program: the level's cards, or the spec §4 setup (the 3 BASIC cards and 5 of the
    /// other 13, shuffled) drawn with ChaCha8 from `seed`.
    pub fn program(&self, seed: u64) -> Vec<Card> {
        if let Some(c) = &self.cards {
            return c.clone();
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut pool: Vec<Card> = Card::ALL
            .iter()
            .copied()
            .filter(|c| !c.is_basic())
            .collect();
        let mut cards: Vec<Card> = Card::BASIC.to_vec();
        for _ in 0..SETUP_CARDS - Card::BASIC.len() {
            let i = (rng.next_u64() % pool.len() as u64) as usize;
            cards.push(pool.swap_remove(i));
        }
        for i in (1..cards.len()).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            cards.swap(i, j);
        }
        cards
    }

    /// The game state this level starts from with `seed`, and the decisions already seen.
    pub fn state(&self, seed: u64) -> (State, Vec<u128>) {
        let cards = self.program(seed);
        let mut s = State::new(&cards);
        for (i, q) in self.flags.iter().enumerate().take(s.n as usize) {
            for &f in q {
                s.push_tail(i as u8, f);
            }
        }
        for &(c, k, v) in &self.chips {
            s.slots[c as usize].chips[k as usize] = v;
        }
        s.hand = self.hand;
        s.reserve = self.reserve;
        s.life = self.life;
        s.placer = if self.hand[self.first as usize] > 0 {
            self.first
        } else {
            1 - self.first
        };
        s.at = self.cursor;
        s.backward = self.backward;
        let mut seen = Vec::new();
        if !s.placing() {
            if let Some(r) = &self.resume {
                s.track = Track::Next(r.flag);
                s.ret = r.ret;
                s.lap = r.lap;
                seen.clone_from(&r.seen);
            }
            s.begin_execution();
        }
        (s, seen)
    }
}

/// The level document of a state (`--out`): what [`PastaLevel::from_json`] reads back to the
/// same decision, with `name` and the members in `extra` kept.
pub fn state_json(s: &State, name: &str, extra: &Map<String, Value>, seen: &[u128]) -> Value {
    let mut o = Map::new();
    o.insert("kind".into(), json!("pasta"));
    if !name.is_empty() {
        o.insert("name".into(), json!(name));
    }
    o.insert(
        "cards".into(),
        json!(s.cards().iter().map(|c| c.card.name()).collect::<Vec<_>>()),
    );
    o.insert(
        "flags".into(),
        json!(
            s.cards()
                .iter()
                .map(|c| c
                    .q
                    .owners()
                    .map(|f| PLAYERS[f as usize])
                    .collect::<Vec<_>>())
                .collect::<Vec<_>>()
        ),
    );
    let obj = |v: [i64; 2]| json!({"red": v[0], "blue": v[1]});
    o.insert("hand".into(), obj(s.hand.map(i64::from)));
    o.insert("reserve".into(), obj(s.reserve.map(i64::from)));
    o.insert("life".into(), obj(s.life.map(i64::from)));
    o.insert("first".into(), json!(PLAYERS[s.placer as usize]));
    o.insert(
        "cursor".into(),
        json!(if s.n == 0 { 0 } else { s.at % s.n }),
    );
    o.insert(
        "direction".into(),
        json!(if s.backward { "backward" } else { "forward" }),
    );
    let mut chips = Map::new();
    for c in s.cards() {
        for (k, &v) in c.chips.iter().enumerate() {
            if v != 0 {
                chips.insert(format!("{}#{}", c.card.name(), k + 1), json!(v));
            }
        }
    }
    if !chips.is_empty() {
        o.insert("chips".into(), Value::Object(chips));
    }
    if !s.placing() {
        o.insert("resume".into(), super::resume::write(s, seen));
    }
    for (k, v) in extra {
        o.entry(k.clone()).or_insert_with(|| v.clone());
    }
    Value::Object(o)
}
