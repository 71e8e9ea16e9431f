//! Plain shogi types: variants, squares, roles, pieces, hands and moves.

use std::fmt;

use crate::Color;

/// Which board and rule set: 9x9 Shogi or 5x5 MiniShogi.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Shogi on 9x9 (`shogi.md`).
    Standard,
    /// MiniShogi on 5x5 (`minishogi.md`).
    Mini,
}

impl Variant {
    /// Number of files and of ranks: 9 or 5.
    #[inline]
    pub const fn size(self) -> u8 {
        match self {
            Variant::Standard => 9,
            Variant::Mini => 5,
        }
    }

    /// Depth of the promotion zone in ranks.
    /// `shogi.md` "Promotion": the three farthest ranks; `minishogi.md` "Promotion": the
    /// last rank only.
    #[inline]
    pub const fn promotion_zone_depth(self) -> u8 {
        match self {
            Variant::Standard => 3,
            Variant::Mini => 1,
        }
    }

    /// Whether pieces of this role can appear in this variant.
    /// `minishogi.md` "Board and pieces": no knights or lances (but see "Handicaps" 5).
    #[inline]
    pub const fn has_role(self, role: Role) -> bool {
        match self {
            Variant::Standard => true,
            // minishogi.md "Handicaps" 5 replaces the stronger player's rook by a lance: the
            // lance exists in MiniShogi only through that handicap; knights never.
            Variant::Mini => !matches!(role, Role::Knight | Role::ProKnight),
        }
    }

    /// How many pieces of an unpromoted kind (both sides, board and hands) the variant has.
    #[inline]
    pub const fn max_pieces(self, role: Role) -> u8 {
        match (self, role.unpromoted()) {
            (_, Role::King) => 2,
            (_, Role::Rook) | (_, Role::Bishop) => 2,
            (Variant::Standard, Role::Pawn) => 18,
            (Variant::Standard, _) => 4,
            (Variant::Mini, Role::Knight) => 0,
            (Variant::Mini, Role::Lance) => 1,
            (Variant::Mini, _) => 2,
        }
    }
}

/// A square. Files are numbered 1..=9 from Black's right, ranks 1..=9 (a..i) from the top
/// (White's side). MiniShogi uses files and ranks 1..=5 of the same grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square of `file` (1..=9) and `rank` (1..=9, 1 = a), if both are in range.
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file >= 1 && file <= 9 && rank >= 1 && rank <= 9 {
            Some(Square((rank - 1) * 9 + (file - 1)))
        } else {
            None
        }
    }

    /// The square with this index (`(rank - 1) * 9 + (file - 1)`), if below 81.
    #[inline]
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < 81 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    #[inline]
    pub(crate) const fn from_index_unchecked(index: u32) -> Square {
        Square(index as u8)
    }

    /// The index of the square, 0..81: `(rank - 1) * 9 + (file - 1)`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, 1..=9.
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % 9 + 1
    }

    /// The rank, 1..=9 (1 = a, White's back rank).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / 9 + 1
    }

    /// Whether the square is on the board of `variant`.
    #[inline]
    pub const fn is_on(self, variant: Variant) -> bool {
        self.file() <= variant.size() && self.rank() <= variant.size()
    }

    /// All 81 squares of the 9x9 grid, by index.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..81u8).map(Square)
    }

    #[inline]
    pub(crate) const fn bit(self) -> u128 {
        1u128 << self.0
    }
}

impl fmt::Display for Square {
    /// USI style: file digit then rank letter, e.g. `7g`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file(), (b'a' + self.rank() - 1) as char)
    }
}

/// A kind of piece, unpromoted or promoted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// King (K).
    King = 0,
    /// Rook (R).
    Rook = 1,
    /// Bishop (B).
    Bishop = 2,
    /// Gold general (G).
    Gold = 3,
    /// Silver general (S).
    Silver = 4,
    /// Knight (N).
    Knight = 5,
    /// Lance (L).
    Lance = 6,
    /// Pawn (P).
    Pawn = 7,
    /// Promoted rook (+R).
    Dragon = 8,
    /// Promoted bishop (+B).
    Horse = 9,
    /// Promoted silver (+S).
    ProSilver = 10,
    /// Promoted knight (+N).
    ProKnight = 11,
    /// Promoted lance (+L).
    ProLance = 12,
    /// Promoted pawn (+P, tokin).
    Tokin = 13,
}

impl Role {
    /// All roles, by index.
    pub const ALL: [Role; 14] = [
        Role::King,
        Role::Rook,
        Role::Bishop,
        Role::Gold,
        Role::Silver,
        Role::Knight,
        Role::Lance,
        Role::Pawn,
        Role::Dragon,
        Role::Horse,
        Role::ProSilver,
        Role::ProKnight,
        Role::ProLance,
        Role::Tokin,
    ];

    /// The roles a hand can hold, in SFEN order: R B G S N L P.
    pub const HAND: [Role; 7] =
        [Role::Rook, Role::Bishop, Role::Gold, Role::Silver, Role::Knight, Role::Lance, Role::Pawn];

    /// Index 0..14.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The promoted form, if the role promotes (`shogi.md` "Promotion": King and Gold never do).
    #[inline]
    pub const fn promoted(self) -> Option<Role> {
        match self {
            Role::Rook => Some(Role::Dragon),
            Role::Bishop => Some(Role::Horse),
            Role::Silver => Some(Role::ProSilver),
            Role::Knight => Some(Role::ProKnight),
            Role::Lance => Some(Role::ProLance),
            Role::Pawn => Some(Role::Tokin),
            _ => None,
        }
    }

    /// The unpromoted form (a captured piece goes to hand unpromoted).
    #[inline]
    pub const fn unpromoted(self) -> Role {
        match self {
            Role::Dragon => Role::Rook,
            Role::Horse => Role::Bishop,
            Role::ProSilver => Role::Silver,
            Role::ProKnight => Role::Knight,
            Role::ProLance => Role::Lance,
            Role::Tokin => Role::Pawn,
            other => other,
        }
    }

    /// Whether this is a promoted role.
    #[inline]
    pub const fn is_promoted(self) -> bool {
        (self as u8) >= 8
    }

    /// Whether pieces of this role can be in hand (and be dropped).
    #[inline]
    pub const fn is_hand_role(self) -> bool {
        matches!(self as u8, 1..=7)
    }

    /// The western letter of the unpromoted kind: K R B G S N L P.
    pub const fn letter(self) -> char {
        match self.unpromoted() {
            Role::King => 'K',
            Role::Rook => 'R',
            Role::Bishop => 'B',
            Role::Gold => 'G',
            Role::Silver => 'S',
            Role::Knight => 'N',
            Role::Lance => 'L',
            _ => 'P',
        }
    }

    /// The unpromoted role of a western/SFEN letter (either case).
    pub fn from_letter(c: char) -> Option<Role> {
        Some(match c.to_ascii_uppercase() {
            'K' => Role::King,
            'R' => Role::Rook,
            'B' => Role::Bishop,
            'G' => Role::Gold,
            'S' => Role::Silver,
            'N' => Role::Knight,
            'L' => Role::Lance,
            'P' => Role::Pawn,
            _ => return None,
        })
    }

    #[inline]
    pub(crate) const fn hand_index(self) -> usize {
        self as usize - 1
    }
}

/// A piece: a colour and a role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Owner: [`Color::First`] is Black (sente), [`Color::Second`] White (gote).
    pub color: Color,
    /// Kind.
    pub role: Role,
}

/// The pieces a player holds in hand: counts of R B G S N L P.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Hand {
    counts: [u8; 7],
}

impl Hand {
    /// An empty hand.
    pub const fn new() -> Hand {
        Hand { counts: [0; 7] }
    }

    /// How many pieces of `role` the hand holds (0 for roles that cannot be in hand).
    #[inline]
    pub const fn count(&self, role: Role) -> u8 {
        if role.is_hand_role() {
            self.counts[role.hand_index()]
        } else {
            0
        }
    }

    /// Sets the count of `role`. Roles that cannot be in hand (king, promoted) are ignored.
    pub fn set(&mut self, role: Role, count: u8) {
        if role.is_hand_role() {
            self.counts[role.hand_index()] = count;
        }
    }

    /// Whether the hand is empty.
    pub fn is_empty(&self) -> bool {
        self.counts.iter().all(|&c| c == 0)
    }

    /// `(role, count)` for every role held, in SFEN order R B G S N L P.
    pub fn iter(&self) -> impl Iterator<Item = (Role, u8)> + '_ {
        Role::HAND.iter().map(|&r| (r, self.count(r))).filter(|&(_, c)| c > 0)
    }

    #[inline]
    pub(crate) fn raw(&self) -> &[u8; 7] {
        &self.counts
    }

    #[inline]
    pub(crate) fn raw_mut(&mut self) -> &mut [u8; 7] {
        &mut self.counts
    }
}

/// A move: a board move (with or without promotion) or a drop from hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A piece moves from `from` to `to`, possibly capturing, promoting if `promote`.
    Normal {
        /// Origin.
        from: Square,
        /// Destination.
        to: Square,
        /// Whether the piece promotes on this move.
        promote: bool,
    },
    /// A piece of `role` is dropped from hand on the empty square `to`.
    Drop {
        /// The unpromoted role dropped.
        role: Role,
        /// Destination.
        to: Square,
    },
}

impl Move {
    /// The destination square.
    #[inline]
    pub const fn to(self) -> Square {
        match self {
            Move::Normal { to, .. } | Move::Drop { to, .. } => to,
        }
    }

    /// The origin square of a board move.
    #[inline]
    pub const fn from(self) -> Option<Square> {
        match self {
            Move::Normal { from, .. } => Some(from),
            Move::Drop { .. } => None,
        }
    }

    /// Whether the move promotes.
    #[inline]
    pub const fn is_promotion(self) -> bool {
        matches!(self, Move::Normal { promote: true, .. })
    }

    /// Whether the move is a drop.
    #[inline]
    pub const fn is_drop(self) -> bool {
        matches!(self, Move::Drop { .. })
    }
}

impl fmt::Display for Move {
    /// USI form: `7g7f`, `8h2b+`, `P*5e`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Normal { from, to, promote } => write!(f, "{from}{to}{}", if promote { "+" } else { "" }),
            Move::Drop { role, to } => write!(f, "{}*{to}", role.letter()),
        }
    }
}

/// A set of squares (a bitboard over the 9x9 grid).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct SquareSet(pub(crate) u128);

impl SquareSet {
    /// Whether `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & sq.bit() != 0
    }

    /// Number of squares.
    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The squares, by index.
    pub fn iter(self) -> impl Iterator<Item = Square> {
        BitIter(self.0)
    }
}

pub(crate) struct BitIter(pub(crate) u128);

impl Iterator for BitIter {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let i = self.0.trailing_zeros();
            self.0 &= self.0 - 1;
            Some(Square::from_index_unchecked(i))
        }
    }
}
