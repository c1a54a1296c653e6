//! The 16 command cards of Pasta Logic (spec §8): names, categories, BASIC marks and printed
//! parameters, and the two players.

/// One of the 16 command cards (spec §8), in the spec's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Card {
    /// Adds a flag to the tail of `{1}` other cards.
    AddFlag,
    /// Moves `{1}` flags of other cards to the tail of another card.
    MoveFlag,
    /// Removes `{1}` flags from one other card.
    RemoveFlag,
    /// Rearranges the flags of `{1}` other cards.
    Reorder,
    /// Moves the tail flag of every other card to its head.
    Rotate,
    /// Loses `{1}` life and adds a flag to the head of `{1}` other cards.
    FastPass,
    /// The opponent loses `{1}` life.
    Bug,
    /// The opponent loses `{2}` life; the activating flag is removed.
    ForkBomb,
    /// The activating flag is removed; the player gains `{3}` life.
    Debug,
    /// The player loses `{1}` life, the opponent `{2}`.
    TradeOff,
    /// Removes any card with its flags; the activating flag is removed.
    RemoveCommand,
    /// The player loses `{1}` life and the cursor turns round.
    Reverse,
    /// Swaps this card with any other.
    SwapCommand,
    /// Visits a card within `{1}` cards as a subroutine.
    Subroutine,
    /// Raises a parameter of another card by `{1}`.
    Increment,
    /// Lowers a parameter of another card by `{1}`, never below 0.
    Decrement,
}

/// A card's category (spec §8), for drawing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Category {
    /// Flag cards (フラグ系).
    Flag,
    /// Life cards (ライフ系).
    Life,
    /// Card cards (カード系).
    Card,
    /// Parameter cards (パラメータ系).
    Parameter,
}

impl Card {
    /// Every card, in the spec's order (§8).
    pub const ALL: [Card; 16] = [
        Card::AddFlag,
        Card::MoveFlag,
        Card::RemoveFlag,
        Card::Reorder,
        Card::Rotate,
        Card::FastPass,
        Card::Bug,
        Card::ForkBomb,
        Card::Debug,
        Card::TradeOff,
        Card::RemoveCommand,
        Card::Reverse,
        Card::SwapCommand,
        Card::Subroutine,
        Card::Increment,
        Card::Decrement,
    ];

    /// The 3 BASIC cards (spec §2), always in the setup (§4).
    pub const BASIC: [Card; 3] = [Card::AddFlag, Card::MoveFlag, Card::Bug];

    /// The card's name as spec §8 spells it (`AddFlag`).
    pub fn name(self) -> &'static str {
        match self {
            Card::AddFlag => "AddFlag",
            Card::MoveFlag => "MoveFlag",
            Card::RemoveFlag => "RemoveFlag",
            Card::Reorder => "Reorder",
            Card::Rotate => "Rotate",
            Card::FastPass => "FastPass",
            Card::Bug => "Bug",
            Card::ForkBomb => "ForkBomb",
            Card::Debug => "Debug",
            Card::TradeOff => "TradeOff",
            Card::RemoveCommand => "RemoveCommand",
            Card::Reverse => "Reverse",
            Card::SwapCommand => "SwapCommand",
            Card::Subroutine => "Subroutine",
            Card::Increment => "Increment",
            Card::Decrement => "Decrement",
        }
    }

    /// The card named `name`, ignoring ASCII case.
    pub fn from_name(name: &str) -> Option<Card> {
        Card::ALL
            .iter()
            .copied()
            .find(|c| c.name().eq_ignore_ascii_case(name))
    }

    /// The card with index `i` in [`Card::ALL`].
    pub fn from_index(i: u8) -> Option<Card> {
        Card::ALL.get(i as usize).copied()
    }

    /// The printed parameters in printed order (spec §8): FastPass `[1, 1]` (life cost,
    /// cards), TradeOff `[1, 2]` (own loss, opponent's loss), none for Rotate,
    /// RemoveCommand and SwapCommand, one for every other card.
    pub fn params(self) -> &'static [i8] {
        match self {
            Card::Rotate | Card::RemoveCommand | Card::SwapCommand => &[],
            Card::FastPass => &[1, 1],
            Card::TradeOff => &[1, 2],
            Card::ForkBomb => &[2],
            Card::Debug => &[3],
            _ => &[1],
        }
    }

    /// True for the BASIC cards (AddFlag, MoveFlag, Bug).
    pub fn is_basic(self) -> bool {
        Card::BASIC.contains(&self)
    }

    /// The card's category (spec §8).
    pub fn category(self) -> Category {
        match self as u8 {
            0..=5 => Category::Flag,
            6..=9 => Category::Life,
            10..=13 => Category::Card,
            _ => Category::Parameter,
        }
    }
}

/// The players' names, in turn order of a fresh game (`red` places first by default).
pub const PLAYERS: [&str; 2] = ["red", "blue"];

/// The player named `name` (`red` 0, `blue` 1), ignoring ASCII case.
pub fn player_named(name: &str) -> Option<u8> {
    PLAYERS
        .iter()
        .position(|p| p.eq_ignore_ascii_case(name))
        .map(|i| i as u8)
}
