//! Tokens (objects) and value names of the boulder kind (spec boulder §3.1, §4.3).

use serde::Serialize;

macro_rules! tokens {
    ($($v:ident = $n:literal),* $(,)?) => {
        /// The object on a boulder field (spec boulder §3.1). Names are lower case in files and
        /// are read case-insensitively (§6 F1).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
        #[repr(u8)]
        pub enum Token {
            $(#[doc = concat!("`", $n, "`")] $v,)*
            /// A field the editor could not read (an unknown token name, a bad value, a
            /// missing field of a short row): not a token of the spec and never in a file.
            /// Only [`crate::BoulderLevel::from_json_editable`] makes it; the
            /// field's original JSON is kept in the level and written back unchanged
            /// (docs/editor.md, "Repair mode"). A level holding one cannot be played.
            Unknown,
        }

        impl Token {
            /// Every token of the spec, in declaration order (basic objects first); not
            /// [`Token::Unknown`].
            pub const ALL: &'static [Token] = &[$(Token::$v),*];

            /// The lower-case name used in level files (`"?"` for [`Token::Unknown`]).
            pub const fn name(self) -> &'static str {
                match self { $(Token::$v => $n,)* Token::Unknown => "?" }
            }
        }
    };
}

tokens! {
    Me = "me", Mud = "mud", Stone = "stone", Gem = "gem", Exit = "exit", Wall = "wall",
    Bricks = "bricks", Path = "path", Explosion = "explosion", Slime = "slime",
    Swapling = "swapling", Blockling = "blockling", Xling = "xling",
    Ghostling = "ghostling", Fire = "fire", Norththing = "norththing", Eastthing = "eastthing",
    Souththing = "souththing", Westthing = "westthing", Pot = "pot", Sieve = "sieve", Sand = "sand",
}

/// Number of token slots: the tokens of the spec and [`Token::Unknown`] (per-token counts are
/// arrays of this length).
pub const TOKEN_COUNT: usize = Token::ALL.len() + 1;

impl Token {
    /// Looks a name up case-insensitively; `None` when no token has that name.
    pub fn from_name(name: &str) -> Option<Token> {
        Token::ALL
            .iter()
            .copied()
            .find(|t| t.name().eq_ignore_ascii_case(name))
    }

    /// The token whose discriminant is `i` ([`Token::Unknown`] for `i` past the spec's tokens).
    pub fn from_index(i: usize) -> Token {
        Token::ALL.get(i).copied().unwrap_or(Token::Unknown)
    }

    /// The spec's token name nearest to `name` (case-insensitive edit distance), for "did
    /// you mean" hints: `"stonee"` gives `stone`. `None` when nothing is close.
    pub fn suggest(name: &str) -> Option<Token> {
        let best = tilesmith_core::problem::nearest(name, Token::ALL.iter().map(|t| t.name()))?;
        Token::from_name(best)
    }

    /// This token's bit in a [`TokenSet`].
    pub const fn bit(self) -> u32 {
        1 << (self as u32)
    }

    /// True for the objects with built-in behaviour (§3.1 "basic objects").
    pub const fn is_basic(self) -> bool {
        (self as u8) <= (Token::Xling as u8)
    }

    /// True for the three enemies that move by the main rules.
    pub const fn is_enemy(self) -> bool {
        matches!(self, Token::Swapling | Token::Blockling | Token::Xling)
    }
}

/// A set of tokens as a bit mask (bit `t as u32` for token `t`).
pub type TokenSet = u32;

/// The set of every token of the spec (what `"*"` matches).
pub const ALL_TOKENS: TokenSet = (1u32 << Token::ALL.len()) - 1;

macro_rules! values {
    ($($v:ident = $n:literal : $doc:literal),* $(,)?) => {
        /// A per-field value (spec boulder §4.3). The discriminant is the index into a field's
        /// value array.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
        #[repr(u8)]
        pub enum ValueKey { $(#[doc = $doc] $v),* }

        impl ValueKey {
            /// Every per-field value in index order.
            pub const ALL: &'static [ValueKey] = &[$(ValueKey::$v),*];
            /// The lower-case name used in level files.
            pub const fn name(self) -> &'static str {
                match self { $(ValueKey::$v => $n),* }
            }
        }
    };
}

values! {
    Moved = "moved": "An object moved into or out of the field this tick; reset each tick.",
    Falling = "falling": "The object is falling; reset each tick.",
    Loose = "loose": "The object can fall; reset to 1 on stone and gem, else 0, each tick.",
    Slippery = "slippery": "Objects slide off it; reset to 1 on stone, gem and bricks, else 0.",
    Pushable = "pushable": "The figure can push it; reset to 1 on stone, else 0.",
    Bam = "bam": "About to explode into a 3×3 of explosion; reset each tick.",
    Bamrich = "bamrich": "About to explode into a 3×3 of gems; reset each tick.",
    Direction = "direction": "An enemy's heading: 1 right, 2 up, 3 left, 4 down; kept.",
    A = "a": "Free for level rules; never changed by the main rules.",
    B = "b": "Free for level rules; never changed by the main rules.",
    C = "c": "Free for level rules; never changed by the main rules.",
    D = "d": "Free for level rules; never changed by the main rules.",
}

/// Number of per-field values.
pub const VALUE_COUNT: usize = ValueKey::ALL.len();

/// A global value (spec boulder §4.3): one number for the whole map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[repr(u8)]
pub enum Global {
    /// Gems collected.
    Gems,
    /// Ticks elapsed (rules may change it; it decides the time limit, §6 T1).
    Ticks,
    /// Free for level rules.
    X,
    /// Free for level rules.
    Y,
    /// Free for level rules.
    Z,
}

impl Global {
    /// Every global in index order.
    pub const ALL: [Global; 5] = [Global::Gems, Global::Ticks, Global::X, Global::Y, Global::Z];

    /// The lower-case name used in level files and in the CLI summary.
    pub const fn name(self) -> &'static str {
        match self {
            Global::Gems => "gems",
            Global::Ticks => "ticks",
            Global::X => "x",
            Global::Y => "y",
            Global::Z => "z",
        }
    }
}

/// A value name as it may appear in a rule block: a per-field value or a global.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum ValueName {
    /// A per-field value.
    Field(ValueKey),
    /// A global value.
    Global(Global),
}

impl ValueName {
    /// Looks a value name up case-insensitively (`A` and `a`, `GEMS` and `gems` are the same).
    pub fn from_name(name: &str) -> Option<ValueName> {
        ValueKey::ALL
            .iter()
            .find(|k| k.name().eq_ignore_ascii_case(name))
            .map(|k| ValueName::Field(*k))
            .or_else(|| {
                Global::ALL
                    .iter()
                    .find(|g| g.name().eq_ignore_ascii_case(name))
                    .map(|g| ValueName::Global(*g))
            })
    }

    /// The lower-case name.
    pub const fn name(self) -> &'static str {
        match self {
            ValueName::Field(k) => k.name(),
            ValueName::Global(g) => g.name(),
        }
    }
}

/// The values of one field, indexed by [`ValueKey`]. Natural numbers (spec §4.3).
pub type Values = [u32; VALUE_COUNT];

/// The globals `gems`, `ticks`, `x`, `y`, `z`, indexed by [`Global`].
pub type Globals = [u32; 5];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_case_insensitive() {
        assert_eq!(Token::from_name("ME"), Some(Token::Me));
        assert_eq!(Token::from_name("Souththing"), Some(Token::Souththing));
        assert_eq!(Token::from_name("lava"), None);
        assert_eq!(
            ValueName::from_name("A"),
            Some(ValueName::Field(ValueKey::A))
        );
        assert_eq!(
            ValueName::from_name("GEMS"),
            Some(ValueName::Global(Global::Gems))
        );
        assert_eq!(ValueName::from_name("speed"), None);
        assert_eq!(Token::ALL.len(), 22);
        assert_eq!(TOKEN_COUNT, 23);
        assert_eq!(Token::from_name("?"), None);
        assert_eq!(Token::from_index(Token::Unknown as usize), Token::Unknown);
        assert_eq!(Token::suggest("stonee"), Some(Token::Stone));
        assert_eq!(Token::suggest("WALLL"), Some(Token::Wall));
        assert_eq!(Token::suggest("xyzzy"), None);
        assert!(Token::Xling.is_basic() && !Token::Ghostling.is_basic());
    }
}
