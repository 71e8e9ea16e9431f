//! The two sides of a two-player game.

use std::ops::Not;

/// A side in a two-player game, named by move order.
///
/// In Xiangqi [`Color::First`] is Red and [`Color::Second`] Black; in Shogi and
/// MiniShogi [`Color::First`] is Black (sente) and [`Color::Second`] White (gote).
/// Handicap games may start with [`Color::Second`] to move; the colour names stay
/// attached to the pieces, not to the move order of a particular game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "kebab-case"))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum Color {
    /// Red in Xiangqi, Black (sente) in Shogi.
    First,
    /// Black in Xiangqi, White (gote) in Shogi.
    Second,
}

impl Color {
    /// Both colours, first player first.
    pub const ALL: [Color; 2] = [Color::First, Color::Second];

    /// 0 for [`Color::First`], 1 for [`Color::Second`]: for indexing per-side arrays.
    #[inline]
    pub const fn index(self) -> usize {
        match self {
            Color::First => 0,
            Color::Second => 1,
        }
    }

    /// The opponent.
    #[inline]
    pub const fn other(self) -> Color {
        match self {
            Color::First => Color::Second,
            Color::Second => Color::First,
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.other()
    }
}
