//! A running board game behind [`crate::kind::Game`]: whole turns as inputs, undo, players
//! and the player to move. (Being built: see the board kind's issue.)
