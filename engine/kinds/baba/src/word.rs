//! The vocabulary of the baba kind: nouns, verbs, conditions, properties, AND and NOT
//! (spec baba §2 `Word`, §3.1–§3.2).
//!
//! Every word has a lower-case name. An object token is a noun name (`baba`); a text tile is
//! `text_` plus any word name (`text_baba`, `text_is`, `text_you`). [`Word::class`] gives the
//! word class the editor groups its palette by.

use serde::Serialize;

use tilesmith_core::grid::Dir;

/// The nouns that name objects (entities). `text`, `empty`, `all` and `level` are nouns too but
/// exist only as text (see [`Noun::is_object`]).
pub const OBJECT_NOUNS: &[&str] = &[
    "baba", "keke", "me", "rock", "wall", "flag", "skull", "water", "lava", "key", "door", "grass",
    "belt", "portal", "box", "crab", "star", "goop", "floor", "love", "tile", "tree", "ice",
    "hedge", "pillar", "brick", "cliff", "cog", "fence", "fungus", "jelly", "pipe", "robot", "bug",
    "bird", "bat", "bolt", "bubble", "cake", "dust", "fire", "fish", "fruit", "ghost", "hand",
    "heart", "husk", "it", "lamp", "leaf", "lock", "moon", "orb", "rocket", "rose", "rubble",
    "sun", "statue", "stump", "sword", "tower", "ufo", "wind", "worm", "algae", "bog", "book",
    "bottle", "bowl", "car", "cup", "fort", "ladder", "line", "arrow", "dot",
];

/// The nouns that exist only as text: `text` (every text object), `empty`, `all`, `level`.
pub const SPECIAL_NOUNS: &[&str] = &["text", "empty", "all", "level"];

/// A noun: an index into [`OBJECT_NOUNS`] followed by [`SPECIAL_NOUNS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Noun(pub u16);

impl Noun {
    /// TEXT: names every text object as a subject or argument (§3.5); as the complement of
    /// IS/HAS/MAKE it names the subject's own noun text (§5.2).
    pub const TEXT: Noun = Noun(OBJECT_NOUNS.len() as u16);
    /// EMPTY (Tier 2): the virtual tile of object-free cells.
    pub const EMPTY: Noun = Noun(OBJECT_NOUNS.len() as u16 + 1);
    /// ALL (Tier 2): every entity.
    pub const ALL: Noun = Noun(OBJECT_NOUNS.len() as u16 + 2);
    /// LEVEL (Tier 2): the level itself.
    pub const LEVEL: Noun = Noun(OBJECT_NOUNS.len() as u16 + 3);

    /// The noun named `name` (lower case), object or special.
    pub fn from_name(name: &str) -> Option<Noun> {
        OBJECT_NOUNS
            .iter()
            .chain(SPECIAL_NOUNS)
            .position(|n| *n == name)
            .map(|i| Noun(i as u16))
    }

    /// The lower-case name.
    pub fn name(self) -> &'static str {
        let i = self.0 as usize;
        OBJECT_NOUNS
            .get(i)
            .or_else(|| SPECIAL_NOUNS.get(i - OBJECT_NOUNS.len().min(i)))
            .copied()
            .unwrap_or("?")
    }

    /// True for nouns that can be objects on the map (not `text`, `empty`, `all`, `level`).
    pub fn is_object(self) -> bool {
        (self.0 as usize) < OBJECT_NOUNS.len()
    }

    /// Every noun, object nouns first.
    pub fn all() -> impl Iterator<Item = Noun> {
        (0..(OBJECT_NOUNS.len() + SPECIAL_NOUNS.len()) as u16).map(Noun)
    }
}

macro_rules! word_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $v:ident = $s:literal),* $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
        pub enum $name { $($(#[$vm])* $v),* }
        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$v),*];
            /// The lower-case word.
            pub fn name(self) -> &'static str { match self { $($name::$v => $s),* } }
            /// The value named `name` (lower case).
            pub fn from_name(name: &str) -> Option<$name> {
                Self::ALL.iter().copied().find(|x| x.name() == name)
            }
        }
    };
}

word_enum! {
    /// A verb (§3.1): IS takes a noun or a property; the others take nouns only.
    Verb {
        /// `A IS prop` gives a property; `A IS B` transforms (§5.3, §5.4).
        Is = "is",
        /// `A HAS B`: a B appears when an A is destroyed (§5.5).
        Has = "has",
        /// `A MAKE B`: each A makes a B on its cell every turn (§5.6).
        Make = "make",
        /// `A EAT B` (Tier 2): A destroys Bs it enters or overlaps (§5.13).
        Eat = "eat",
        /// `A FEAR B` (Tier 2): each A moves away from adjacent Bs (§5.13).
        Fear = "fear",
        /// `A FOLLOW B` (Tier 2): each A turns towards the nearest B (§5.13).
        Follow = "follow",
        /// `A WRITE W` (extension, from the peer engine): each A writes the text W on its cell
        /// every turn unless that cell already holds it. Takes any noun or property.
        Write = "write",
    }
}

word_enum! {
    /// A prefix condition (§3.6). Tier 1 has only LONELY.
    Prefix {
        /// No other object in the subject's cell.
        Lonely = "lonely",
    }
}

word_enum! {
    /// A preposition condition (§3.6).
    Prep {
        /// The subject's cell holds the argument(s).
        On = "on",
        /// The subject's cell or one of its 8 neighbours holds the argument(s).
        Near = "near",
        /// The cell in front of the subject holds the argument(s), or it faces a direction.
        Facing = "facing",
    }
}

word_enum! {
    /// A property (§5). Tier 1 plus the Tier 2 properties this engine implements; the
    /// cosmetic ones have no effect on play.
    Prop {
        /// Moved by the player's input.
        You = "you",
        /// Pushed by movers; impassable when it cannot move.
        Push = "push",
        /// Impassable.
        Stop = "stop",
        /// A YOU on it wins.
        Win = "win",
        /// Destroys YOU objects on it.
        Defeat = "defeat",
        /// Destroys everything on it, and itself.
        Sink = "sink",
        /// Destroys MELT objects on it.
        Hot = "hot",
        /// Destroyed by HOT.
        Melt = "melt",
        /// Destroys SHUT objects with itself.
        Open = "open",
        /// Destroyed by OPEN objects, with them.
        Shut = "shut",
        /// Moves one cell each turn in its facing, bouncing once.
        Move = "move",
        /// Moves the objects on it in its facing.
        Shift = "shift",
        /// Follows a mover moving away from it; impassable.
        Pull = "pull",
        /// Destroyed when it overlaps something or fails to move.
        Weak = "weak",
        /// On the float layer.
        Float = "float",
        /// Sends objects on it to another TELE object of its kind.
        Tele = "tele",
        /// Exchanges places with movers.
        Swap = "swap",
        /// Faces up.
        Up = "up",
        /// Faces down.
        Down = "down",
        /// Faces left.
        Left = "left",
        /// Faces right.
        Right = "right",
        /// Tier 2: falls down until blocked.
        Fall = "fall",
        /// Tier 2: grows into the 4 neighbours.
        More = "more",
        /// Tier 2: cannot be destroyed (except by leaving the level).
        Safe = "safe",
        /// Tier 2: never changes position.
        Still = "still",
        /// Tier 2: does not move by YOU or MOVE.
        Sleep = "sleep",
        /// Tier 2: moves through everything, pushes nothing, and leaves the level at its edge.
        Phantom = "phantom",
        /// Tier 2: destroyed together with the WIN clear when it is YOU or a YOU overlaps it.
        Bonus = "bonus",
        /// Tier 2: clears the level like WIN (outside the main game, §5.13).
        End = "end",
        /// Tier 2: vanishes at the end of the turn.
        Done = "done",
        /// Tier 2 cosmetic.
        Best = "best",
        /// Tier 2 cosmetic.
        Hide = "hide",
        /// Tier 2 cosmetic colour (as are the colour words below): the object is drawn red.
        Red = "red",
        /// Tier 2 cosmetic colour.
        Blue = "blue",
        /// Tier 2 cosmetic colour.
        Orange = "orange",
        /// Tier 2 cosmetic colour.
        Yellow = "yellow",
        /// Tier 2 cosmetic colour.
        Lime = "lime",
        /// Tier 2 cosmetic colour.
        Green = "green",
        /// Tier 2 cosmetic colour.
        Cyan = "cyan",
        /// Tier 2 cosmetic colour.
        Purple = "purple",
        /// Tier 2 cosmetic colour.
        Pink = "pink",
        /// Tier 2 cosmetic colour.
        Rosy = "rosy",
        /// Tier 2 cosmetic colour.
        Black = "black",
        /// Tier 2 cosmetic colour.
        Grey = "grey",
        /// Tier 2 cosmetic colour.
        Silver = "silver",
        /// Tier 2 cosmetic colour.
        White = "white",
        /// Tier 2 cosmetic colour.
        Brown = "brown",
        /// Tier 2 LOCKED (RIGHT): the object cannot change position to the right; its facing
        /// still turns (§5.1 step 2, §5.13). Spelled LOCKEDRIGHT \[L5406\].
        LockedRight = "lockedright",
        /// Tier 2 LOCKED (UP), spelled LOCKEDUP \[L5408\].
        LockedUp = "lockedup",
        /// Tier 2 LOCKED (LEFT), spelled LOCKEDLEFT \[L5410\].
        LockedLeft = "lockedleft",
        /// Tier 2 LOCKED (DOWN), spelled LOCKEDDOWN \[L5404\].
        LockedDown = "lockeddown",
        /// Tier 2 WORD: the object acts in rules as the noun text of its own name; text is
        /// exempt (§5.13 [L4972–L4974]).
        Word = "word",
    }
}

impl Prop {
    /// The number of properties.
    pub const COUNT: usize = Prop::ALL.len();

    /// The direction of a DIR property (UP/DOWN/LEFT/RIGHT).
    pub fn dir(self) -> Option<Dir> {
        match self {
            Prop::Up => Some(Dir::Up),
            Prop::Down => Some(Dir::Down),
            Prop::Left => Some(Dir::Left),
            Prop::Right => Some(Dir::Right),
            _ => None,
        }
    }

    /// The colour words (Tier 2 cosmetic properties, [L4976–L4988]).
    pub const COLOURS: &'static [Prop] = &[
        Prop::Red,
        Prop::Blue,
        Prop::Orange,
        Prop::Yellow,
        Prop::Lime,
        Prop::Green,
        Prop::Cyan,
        Prop::Purple,
        Prop::Pink,
        Prop::Rosy,
        Prop::Black,
        Prop::Grey,
        Prop::Silver,
        Prop::White,
        Prop::Brown,
    ];

    /// The colour of a colour word as sRGB `(r, g, b)`, close to the game's default palette;
    /// `None` for every other property. For the editor's tint of objects and the level.
    pub fn rgb(self) -> Option<(u8, u8, u8)> {
        Some(match self {
            Prop::Red => (229, 83, 59),
            Prop::Blue => (65, 105, 225),
            Prop::Orange => (232, 139, 45),
            Prop::Yellow => (237, 226, 133),
            Prop::Lime => (165, 224, 78),
            Prop::Green => (92, 131, 57),
            Prop::Cyan => (95, 157, 209),
            Prop::Purple => (142, 94, 156),
            Prop::Pink => (217, 57, 106),
            Prop::Rosy => (235, 145, 202),
            Prop::Black => (20, 23, 28),
            Prop::Grey => (115, 115, 115),
            Prop::Silver => (194, 194, 194),
            Prop::White => (255, 255, 255),
            Prop::Brown => (144, 103, 62),
            _ => return None,
        })
    }

    /// The direction a LOCKED property forbids (LOCKEDRIGHT forbids moving right), `None` for
    /// every other property.
    pub fn locked_dir(self) -> Option<Dir> {
        match self {
            Prop::LockedRight => Some(Dir::Right),
            Prop::LockedUp => Some(Dir::Up),
            Prop::LockedLeft => Some(Dir::Left),
            Prop::LockedDown => Some(Dir::Down),
            _ => None,
        }
    }

    /// The LOCKED property that forbids moving in `d`.
    pub fn locked(d: Dir) -> Prop {
        match d {
            Dir::Right => Prop::LockedRight,
            Dir::Up => Prop::LockedUp,
            Dir::Left => Prop::LockedLeft,
            Dir::Down => Prop::LockedDown,
        }
    }
}

/// The letter tiles (Tier 2, spec §3.1 \[L776\]): A–Z, 0–9, ♯ (`sharp`) and ♭ (`flat`). Their
/// text tokens are `text_a` … `text_z`, `text_0` … `text_9`, `text_sharp`, `text_flat`.
pub const LETTERS: &[&str] = &[
    "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q", "r", "s",
    "t", "u", "v", "w", "x", "y", "z", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "sharp",
    "flat",
];

/// A letter: an index into [`LETTERS`]. Letters that spell a word in a row (left→right) or a
/// column (top→bottom) act as that word (§3.1); a single letter is not a word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Letter(pub u8);

impl Letter {
    /// The letter named `name` (`a`, `7`, `sharp`).
    pub fn from_name(name: &str) -> Option<Letter> {
        LETTERS
            .iter()
            .position(|l| *l == name)
            .and_then(|i| u8::try_from(i).ok())
            .map(Letter)
    }

    /// The token name without `text_`: `a`, `7`, `sharp`.
    pub fn name(self) -> &'static str {
        LETTERS.get(self.0 as usize).copied().unwrap_or("?")
    }

    /// What the letter contributes to a spelled word: the letter or digit itself; ♯ and ♭
    /// (which only spell musical notes, Tier 3 PLAY) contribute their signs, so they spell no
    /// word of this vocabulary.
    pub fn spelling(self) -> &'static str {
        match self.name() {
            "sharp" => "♯",
            "flat" => "♭",
            n => n,
        }
    }

    /// Every letter, in [`LETTERS`] order.
    pub fn all() -> impl Iterator<Item = Letter> {
        (0..LETTERS.len() as u8).map(Letter)
    }
}

/// The class of a word, for grammar and for the editor's palette groups.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum WordClass {
    /// BABA, ROCK, TEXT, …
    Noun,
    /// IS, HAS, MAKE, …, the conditions LONELY, ON, NEAR, FACING, and AND, NOT.
    Operator,
    /// YOU, PUSH, WIN, UP, …
    Property,
    /// Tier 2 letters A–Z, 0–9, ♯, ♭: no word alone; spelled together they act as a word.
    Letter,
}

/// One word of a rule (spec §2 `Word`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Word {
    /// A noun.
    Noun(Noun),
    /// A verb.
    Verb(Verb),
    /// A prefix condition.
    Prefix(Prefix),
    /// A preposition.
    Prep(Prep),
    /// A property.
    Prop(Prop),
    /// AND.
    And,
    /// NOT.
    Not,
    /// A letter (Tier 2): part of a spelled word, never a word by itself (§3.1).
    Letter(Letter),
}

impl Word {
    /// The word named `name` (lower case, without `text_`).
    pub fn from_name(name: &str) -> Option<Word> {
        match name {
            "and" => Some(Word::And),
            "not" => Some(Word::Not),
            _ => Noun::from_name(name)
                .map(Word::Noun)
                .or_else(|| Verb::from_name(name).map(Word::Verb))
                .or_else(|| Prefix::from_name(name).map(Word::Prefix))
                .or_else(|| Prep::from_name(name).map(Word::Prep))
                .or_else(|| Prop::from_name(name).map(Word::Prop))
                .or_else(|| Letter::from_name(name).map(Word::Letter)),
        }
    }

    /// The lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Word::Noun(n) => n.name(),
            Word::Verb(v) => v.name(),
            Word::Prefix(p) => p.name(),
            Word::Prep(p) => p.name(),
            Word::Prop(p) => p.name(),
            Word::And => "and",
            Word::Not => "not",
            Word::Letter(l) => l.name(),
        }
    }

    /// Noun, operator, property or letter.
    pub fn class(self) -> WordClass {
        match self {
            Word::Noun(_) => WordClass::Noun,
            Word::Prop(_) => WordClass::Property,
            Word::Letter(_) => WordClass::Letter,
            _ => WordClass::Operator,
        }
    }

    /// Every word: nouns, then verbs, conditions, AND, NOT, then properties, then letters.
    pub fn all() -> Vec<Word> {
        let mut v: Vec<Word> = Noun::all().map(Word::Noun).collect();
        v.extend(Verb::ALL.iter().map(|&x| Word::Verb(x)));
        v.extend(Prefix::ALL.iter().map(|&x| Word::Prefix(x)));
        v.extend(Prep::ALL.iter().map(|&x| Word::Prep(x)));
        v.push(Word::And);
        v.push(Word::Not);
        v.extend(Prop::ALL.iter().map(|&x| Word::Prop(x)));
        v.extend(Letter::all().map(Word::Letter));
        v
    }
}

/// What an object is: an entity named by a noun, or a text tile holding a word (spec §2 `Kind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Kind {
    /// An object such as a BABA (never `text`, `empty`, `all` or `level`).
    Entity(Noun),
    /// A text tile.
    Text(Word),
    /// A stack entry the editor could not read (repair mode, docs/editor.md): an index into
    /// [`crate::BabaLevel::unknown`], which keeps the entry's JSON (or `None`
    /// for a cell missing from a short row). Only
    /// [`crate::BabaLevel::from_json_editable`] makes it; it is never in a file
    /// (the kept JSON is written instead) and never part of a game
    /// ([`crate::BabaGame::new`] leaves it out).
    Unknown(u16),
}

impl Kind {
    /// The token name used in level files: `baba` or `text_baba` (`?` for
    /// [`Kind::Unknown`], which is no token).
    pub fn token(self) -> String {
        match self {
            Kind::Entity(n) => n.name().to_string(),
            Kind::Text(w) => format!("text_{}", w.name()),
            Kind::Unknown(_) => "?".to_string(),
        }
    }

    /// Parses a token name (lower case): an object noun, or `text_` plus a word.
    pub fn from_token(token: &str) -> Option<Kind> {
        match token.strip_prefix("text_") {
            Some(w) => Word::from_name(w).map(Kind::Text),
            None => Noun::from_name(token)
                .filter(|n| n.is_object())
                .map(Kind::Entity),
        }
    }

    /// True for text tiles.
    pub fn is_text(self) -> bool {
        matches!(self, Kind::Text(_))
    }

    /// The noun a subject or argument uses to name this object: its own noun for an entity,
    /// [`Noun::TEXT`] for text, and for [`Kind::Unknown`] (never in a game) a noun outside
    /// the vocabulary (`Noun(u16::MAX)`, named `?`), which no rule names.
    pub fn noun(self) -> Noun {
        match self {
            Kind::Entity(n) => n,
            Kind::Text(_) => Noun::TEXT,
            Kind::Unknown(_) => Noun(u16::MAX),
        }
    }

    /// True for [`Kind::Unknown`]: an entry of a level file that could not be read.
    pub fn is_unknown(self) -> bool {
        matches!(self, Kind::Unknown(_))
    }
}

/// One entry of the editor's palette: a token and its group.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PaletteEntry {
    /// The token name (`baba`, `text_is`).
    pub token: String,
    /// `None` for objects; the word class for text tiles.
    pub class: Option<WordClass>,
}

/// The palette of the baba kind: every object noun, then every text tile with its word class
/// (nouns, operators, properties, letters), in the order of [`Word::all`].
pub fn palette() -> Vec<PaletteEntry> {
    let mut v: Vec<PaletteEntry> = OBJECT_NOUNS
        .iter()
        .map(|n| PaletteEntry {
            token: (*n).to_string(),
            class: None,
        })
        .collect();
    v.extend(Word::all().into_iter().map(|w| PaletteEntry {
        token: Kind::Text(w).token(),
        class: Some(w.class()),
    }));
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_entry_keeps_a_kind_four_bytes_and_names_nothing() {
        // The objects of a game hold a Kind: the repair-mode variant must not grow it.
        assert_eq!(std::mem::size_of::<Kind>(), 4);
        let u = Kind::Unknown(7);
        assert!(u.is_unknown() && !u.is_text());
        assert_eq!(Kind::from_token(&u.token()), None);
        assert!(!u.noun().is_object());
        assert!(Noun::all().all(|n| n != u.noun()));
    }

    #[test]
    fn names_round_trip() {
        for w in Word::all() {
            assert_eq!(Word::from_name(w.name()), Some(w), "{}", w.name());
            assert_eq!(
                Kind::from_token(&Kind::Text(w).token()),
                Some(Kind::Text(w))
            );
        }
        for n in OBJECT_NOUNS {
            assert_eq!(Kind::from_token(n).map(Kind::token).as_deref(), Some(*n));
        }
        assert_eq!(Kind::from_token("text"), None);
        assert_eq!(Kind::from_token("text_"), None);
        assert_eq!(Noun::TEXT.name(), "text");
        assert_eq!(Noun::LEVEL.name(), "level");
        assert_eq!(
            Kind::from_token("text_a"),
            Word::from_name("a").map(Kind::Text)
        );
        assert_eq!(
            Word::from_name("q").map(Word::class),
            Some(WordClass::Letter)
        );
        assert_eq!(
            Word::from_name("lockedup"),
            Some(Word::Prop(Prop::LockedUp))
        );
        // No word of the vocabulary is a single letter or digit (a single letter is no word).
        for w in Word::all() {
            if !matches!(w, Word::Letter(_)) {
                assert!(w.name().len() >= 2, "{}", w.name());
            }
        }
    }
}
