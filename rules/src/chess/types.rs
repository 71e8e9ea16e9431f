//! Squares, pieces, moves and square sets of chess.

use std::fmt;
use std::str::FromStr;

use crate::Color;

/// A square of the 8×8 board. `a1` is index 0, `b1` index 1, …, `h8` index 63.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square on `file` (0 = a … 7 = h) and `rank` (0 = rank 1 … 7 = rank 8), if on the board.
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < 8 && rank < 8 {
            Some(Square(rank * 8 + file))
        } else {
            None
        }
    }

    /// The square with index `index` (0..64), if any.
    #[inline]
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < 64 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// Index 0..64 (`a1` = 0, `h8` = 63).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File 0 (a) … 7 (h).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % 8
    }

    /// Rank 0 (rank 1) … 7 (rank 8).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / 8
    }

    /// The square moved by `df` files and `dr` ranks, if still on the board.
    #[inline]
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if f >= 0 && f < 8 && r >= 0 && r < 8 {
            Some(Square((r * 8 + f) as u8))
        } else {
            None
        }
    }

    /// Every square, `a1` first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0u8..64).map(Square)
    }

    /// The file letter, `'a'..='h'`.
    pub const fn file_char(self) -> char {
        (b'a' + self.file()) as char
    }

    /// The rank digit, `'1'..='8'`.
    pub const fn rank_char(self) -> char {
        (b'1' + self.rank()) as char
    }

    /// A one-square set.
    #[inline]
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file_char(), self.rank_char())
    }
}

/// A text that names no square (`e4` is a square, `i9` is not).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InvalidSquare;

impl fmt::Display for InvalidSquare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid square name")
    }
}

impl std::error::Error for InvalidSquare {}

impl FromStr for Square {
    type Err = InvalidSquare;
    fn from_str(s: &str) -> Result<Square, InvalidSquare> {
        match s.as_bytes() {
            [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Ok(Square((r - b'1') * 8 + (f - b'a'))),
            _ => Err(InvalidSquare),
        }
    }
}

/// A set of squares (a bitboard: bit `i` is the square with index `i`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct SquareSet(pub u64);

impl SquareSet {
    /// The empty set.
    pub const EMPTY: SquareSet = SquareSet(0);

    /// Whether `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & sq.bit() != 0
    }

    /// Adds `sq`.
    #[inline]
    pub fn insert(&mut self, sq: Square) {
        self.0 |= sq.bit();
    }

    /// Removes `sq`.
    #[inline]
    pub fn remove(&mut self, sq: Square) {
        self.0 &= !sq.bit();
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Number of squares in the set.
    #[inline]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// The squares, `a1` side first.
    pub fn iter(self) -> impl Iterator<Item = Square> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                None
            } else {
                let i = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                Some(Square(i))
            }
        })
    }
}

impl FromIterator<Square> for SquareSet {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> SquareSet {
        let mut set = SquareSet::EMPTY;
        for sq in iter {
            set.insert(sq);
        }
        set
    }
}

/// The kind of a chess piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// Pawn.
    Pawn,
    /// Knight.
    Knight,
    /// Bishop.
    Bishop,
    /// Rook.
    Rook,
    /// Queen.
    Queen,
    /// King.
    King,
}

impl Role {
    /// All roles, pawn first.
    pub const ALL: [Role; 6] = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King];

    /// The roles a pawn may promote to (orthodox rules: queen, rook, bishop or knight).
    pub const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

    /// 0..6, for indexing tables.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The upper-case English letter (`P`, `N`, `B`, `R`, `Q`, `K`).
    pub const fn upper_char(self) -> char {
        match self {
            Role::Pawn => 'P',
            Role::Knight => 'N',
            Role::Bishop => 'B',
            Role::Rook => 'R',
            Role::Queen => 'Q',
            Role::King => 'K',
        }
    }

    /// The role of an English piece letter, either case.
    pub fn from_char(c: char) -> Option<Role> {
        Some(match c.to_ascii_uppercase() {
            'P' => Role::Pawn,
            'N' => Role::Knight,
            'B' => Role::Bishop,
            'R' => Role::Rook,
            'Q' => Role::Queen,
            'K' => Role::King,
            _ => return None,
        })
    }
}

/// A piece: a colour ([`Color::First`] is White) and a role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// White is [`Color::First`], Black [`Color::Second`].
    pub color: Color,
    /// The kind of piece.
    pub role: Role,
}

impl Piece {
    /// The FEN letter: upper case for White, lower case for Black.
    pub fn fen_char(self) -> char {
        let c = self.role.upper_char();
        match self.color {
            Color::First => c,
            Color::Second => c.to_ascii_lowercase(),
        }
    }

    /// The piece of a FEN letter.
    pub fn from_fen_char(c: char) -> Option<Piece> {
        let role = Role::from_char(c)?;
        let color = if c.is_ascii_uppercase() { Color::First } else { Color::Second };
        Some(Piece { color, role })
    }
}

/// What a move does besides moving one piece from `from` to `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// An ordinary move or capture (including a pawn's double step).
    Normal,
    /// A pawn promotes on arrival to the given role.
    Promotion(Role),
    /// An en passant capture: the captured pawn stands beside `from`, on the file of `to`.
    EnPassant,
    /// Castling: `from` is the king's square, `to` the king's destination (two files over);
    /// the rook jumps to the square the king crossed.
    Castle,
}

/// A chess move. `Copy` and four bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The square the (first) piece leaves: the king's square for castling.
    pub from: Square,
    /// The destination: the king's destination for castling.
    pub to: Square,
    /// Promotion, en passant, castling or nothing special.
    pub kind: MoveKind,
}

impl Move {
    /// The promotion role, if any.
    pub const fn promotion(self) -> Option<Role> {
        match self.kind {
            MoveKind::Promotion(r) => Some(r),
            _ => None,
        }
    }

    /// For castling: the rook's square before and after.
    pub fn castling_rook(self) -> Option<(Square, Square)> {
        if self.kind != MoveKind::Castle {
            return None;
        }
        let rank = self.from.rank();
        if self.to.file() > self.from.file() {
            Some((Square::new(7, rank)?, Square::new(5, rank)?))
        } else {
            Some((Square::new(0, rank)?, Square::new(3, rank)?))
        }
    }
}

/// Castling rights: which king and rook have not moved, per side and wing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct CastlingRights(u8);

/// A wing of the board for castling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    /// The h-file side (`O-O`).
    KingSide,
    /// The a-file side (`O-O-O`).
    QueenSide,
}

impl CastlingRights {
    /// No rights.
    pub const NONE: CastlingRights = CastlingRights(0);
    /// All four rights (the start position).
    pub const ALL: CastlingRights = CastlingRights(0b1111);

    const fn bit(color: Color, side: CastlingSide) -> u8 {
        let c = match color {
            Color::First => 0,
            Color::Second => 2,
        };
        let s = match side {
            CastlingSide::KingSide => 0,
            CastlingSide::QueenSide => 1,
        };
        1 << (c + s)
    }

    /// Whether `color` may still castle on `side`.
    #[inline]
    pub const fn has(self, color: Color, side: CastlingSide) -> bool {
        self.0 & Self::bit(color, side) != 0
    }

    /// Grants or removes one right.
    pub fn set(&mut self, color: Color, side: CastlingSide, allowed: bool) {
        if allowed {
            self.0 |= Self::bit(color, side);
        } else {
            self.0 &= !Self::bit(color, side);
        }
    }

    /// The rights as four bits (White king side = 1, White queen side = 2, Black king
    /// side = 4, Black queen side = 8).
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// Rights from [`CastlingRights::bits`]; higher bits are ignored.
    pub const fn from_bits(bits: u8) -> CastlingRights {
        CastlingRights(bits & 0b1111)
    }
}
