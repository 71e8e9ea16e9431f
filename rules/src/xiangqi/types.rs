//! Squares, pieces, moves and square sets.

use std::fmt;
use std::str::FromStr;

use crate::Color;

/// Number of files (columns) of the board.
pub const FILES: u8 = 9;
/// Number of ranks (rows) of the board.
pub const RANKS: u8 = 10;
/// Number of points of the board.
pub const SQUARES: usize = 90;

/// One of the 90 points of the board.
///
/// Files `a`..`i` (0..8) count from Red's left, ranks 0..9 from Red's side
/// (`xiangqi.md` "Board and pieces": Red's king starts on `e0`). The index is
/// `rank * 9 + file`. Displays and parses in ICCS form (`e0`, case-insensitive).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square on `file` (0..9) and `rank` (0..10), if both are on the board.
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < FILES && rank < RANKS {
            Some(Square(rank * FILES + file))
        } else {
            None
        }
    }

    /// The square with index `index` (`rank * 9 + file`), if below 90.
    #[inline]
    pub const fn from_index(index: u8) -> Option<Square> {
        if (index as usize) < SQUARES {
            Some(Square(index))
        } else {
            None
        }
    }

    /// Index `rank * 9 + file`, in 0..90.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File 0..9 (`a`..`i`), from Red's left.
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % FILES
    }

    /// Rank 0..10, from Red's side.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / FILES
    }

    /// Every square, in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES as u8).map(Square)
    }

    /// Whether the point lies in `color`'s palace (files d..f, ranks 0..2 for Red,
    /// 7..9 for Black; `xiangqi.md` "Board and pieces").
    pub const fn in_palace(self, color: Color) -> bool {
        let (f, r) = (self.file(), self.rank());
        f >= 3
            && f <= 5
            && match color {
                Color::First => r <= 2,
                Color::Second => r >= 7,
            }
    }

    /// Whether the point is on `color`'s own side of the river (ranks 0..4 for Red).
    pub const fn on_own_side(self, color: Color) -> bool {
        match color {
            Color::First => self.rank() <= 4,
            Color::Second => self.rank() >= 5,
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

/// A string that is not an ICCS square such as `e0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseSquareError;

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a square (expected a file a..i and a rank 0..9, e.g. e0)")
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        match s.as_bytes() {
            [f, r] => {
                let file = f.to_ascii_lowercase().wrapping_sub(b'a');
                let rank = r.wrapping_sub(b'0');
                Square::new(file, rank).ok_or(ParseSquareError)
            }
            _ => Err(ParseSquareError),
        }
    }
}

/// The kind of a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// King (general, 帅/将).
    King,
    /// Advisor (guard, mandarin, 仕/士).
    Advisor,
    /// Elephant (minister, bishop, 相/象).
    Elephant,
    /// Horse (knight, 马).
    Horse,
    /// Chariot (rook, 车).
    Chariot,
    /// Cannon (炮).
    Cannon,
    /// Soldier (pawn, 兵/卒).
    Soldier,
}

impl Role {
    /// Every role, king first.
    pub const ALL: [Role; 7] =
        [Role::King, Role::Advisor, Role::Elephant, Role::Horse, Role::Chariot, Role::Cannon, Role::Soldier];

    /// 0..7 in the order of [`Role::ALL`].
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// How many pieces of this role a side has at the start (and at most).
    pub const fn max_count(self) -> u8 {
        match self {
            Role::King => 1,
            Role::Soldier => 5,
            _ => 2,
        }
    }

    /// The FEN letter of the role, lower case (`k a b n r c p`).
    pub const fn fen_char(self) -> char {
        match self {
            Role::King => 'k',
            Role::Advisor => 'a',
            Role::Elephant => 'b',
            Role::Horse => 'n',
            Role::Chariot => 'r',
            Role::Cannon => 'c',
            Role::Soldier => 'p',
        }
    }
}

/// A piece: a colour and a role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Red is [`Color::First`], Black [`Color::Second`].
    pub color: Color,
    /// The kind of piece.
    pub role: Role,
}

impl Piece {
    /// Compact code 1..=14 used in the board array (0 is an empty point).
    #[inline]
    pub(crate) const fn code(self) -> u8 {
        (self.color.index() * 7 + self.role.index() + 1) as u8
    }

    /// The piece with board code `code` (1..=14), if any.
    #[inline]
    pub(crate) const fn from_code(code: u8) -> Option<Piece> {
        if code == 0 || code > 14 {
            return None;
        }
        let c = code - 1;
        let color = if c < 7 { Color::First } else { Color::Second };
        let role = Role::ALL[(c % 7) as usize];
        Some(Piece { color, role })
    }

    /// The FEN letter: upper case for Red, lower case for Black.
    pub const fn fen_char(self) -> char {
        let c = self.role.fen_char();
        match self.color {
            Color::First => c.to_ascii_uppercase(),
            Color::Second => c,
        }
    }
}

/// A move from one point to another (captures are implied by the board).
///
/// Two bytes and `Copy`. Displays in ICCS form (`h2e2`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The point the piece leaves.
    pub from: Square,
    /// The point the piece goes to.
    pub to: Square,
}

impl Move {
    /// A move from `from` to `to`.
    #[inline]
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

/// A set of squares, one bit per point (bit `index`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct SquareSet(pub u128);

impl SquareSet {
    /// The empty set.
    pub const EMPTY: SquareSet = SquareSet(0);

    /// Whether `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.0 & 1 != 0
    }

    /// Adds `sq`.
    #[inline]
    pub fn insert(&mut self, sq: Square) {
        self.0 |= 1u128 << sq.0;
    }

    /// Removes `sq`.
    #[inline]
    pub fn remove(&mut self, sq: Square) {
        self.0 &= !(1u128 << sq.0);
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Number of squares in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The lowest-index square, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square(self.0.trailing_zeros() as u8))
        }
    }
}

impl Iterator for SquareSet {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        let sq = self.first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }
}

impl FromIterator<Square> for SquareSet {
    fn from_iter<T: IntoIterator<Item = Square>>(iter: T) -> SquareSet {
        let mut set = SquareSet::EMPTY;
        for sq in iter {
            set.insert(sq);
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_is_copy_and_at_most_four_bytes() {
        fn assert_copy<T: Copy>() {}
        assert_copy::<Move>();
        assert!(std::mem::size_of::<Move>() <= 4);
    }

    #[test]
    fn squares_parse_and_print_in_iccs_form() {
        let sq: Square = "e0".parse().unwrap();
        assert_eq!((sq.file(), sq.rank()), (4, 0));
        assert_eq!("I9".parse::<Square>().unwrap().to_string(), "i9");
        assert!("j0".parse::<Square>().is_err());
        assert!("a10".parse::<Square>().is_err());
    }

    #[test]
    fn piece_codes_round_trip() {
        for color in Color::ALL {
            for role in Role::ALL {
                let p = Piece { color, role };
                assert_eq!(Piece::from_code(p.code()), Some(p));
            }
        }
        assert_eq!(Piece::from_code(0), None);
    }
}
