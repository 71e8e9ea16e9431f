//! Setups, validated positions, legal move generation and perft.

use std::fmt;

use arrayvec::ArrayVec;

use crate::{Color, EndReason, Outcome};

use super::attacks::{tables, Step, Tables};
use super::types::{BitIter, Hand, Move, Piece, Role, Square, SquareSet, Variant};

/// An allocation-free list of moves. 1024 is above the known maximum of 593 legal moves.
pub type MoveList = ArrayVec<Move, 1024>;

/// What a position says, unvalidated: what an SFEN describes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Board size and rules.
    pub variant: Variant,
    /// Pieces by [`Square::index`]; MiniShogi uses files and ranks 1..=5 only.
    pub board: [Option<Piece>; 81],
    /// Hands of Black ([`Color::First`]) and White, indexed by [`Color::index`].
    pub hands: [Hand; 2],
    /// Side to move.
    pub turn: Color,
    /// SFEN move number: 1 for the first move, +1 after every move of either side.
    pub move_number: u32,
}

impl Setup {
    /// An empty board with empty hands, Black to move, move number 1.
    pub fn empty(variant: Variant) -> Setup {
        Setup { variant, board: [None; 81], hands: [Hand::new(); 2], turn: Color::First, move_number: 1 }
    }

    /// The standard start position of the variant.
    pub fn startpos(variant: Variant) -> Setup {
        let mut setup = Setup::empty(variant);
        let mut put = |file: u8, rank: u8, color: Color, role: Role| {
            if let Some(sq) = Square::new(file, rank) {
                setup.board[sq.index()] = Some(Piece { color, role });
            }
        };
        match variant {
            Variant::Standard => {
                // shogi.md "Board and pieces": lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL
                let back = [
                    Role::Lance,
                    Role::Knight,
                    Role::Silver,
                    Role::Gold,
                    Role::King,
                    Role::Gold,
                    Role::Silver,
                    Role::Knight,
                    Role::Lance,
                ];
                for (i, &role) in back.iter().enumerate() {
                    let file = 9 - i as u8;
                    put(file, 1, Color::Second, role);
                    put(file, 9, Color::First, role);
                    put(file, 3, Color::Second, Role::Pawn);
                    put(file, 7, Color::First, Role::Pawn);
                }
                put(8, 2, Color::Second, Role::Rook);
                put(2, 2, Color::Second, Role::Bishop);
                put(8, 8, Color::First, Role::Bishop);
                put(2, 8, Color::First, Role::Rook);
            }
            Variant::Mini => {
                // minishogi.md "Board and pieces": rbsgk/4p/5/P4/KGSBR
                let black =
                    [(5, Role::King), (4, Role::Gold), (3, Role::Silver), (2, Role::Bishop), (1, Role::Rook)];
                for (file, role) in black {
                    put(file, 5, Color::First, role);
                    put(6 - file, 1, Color::Second, role);
                }
                put(5, 4, Color::First, Role::Pawn);
                put(1, 2, Color::Second, Role::Pawn);
            }
        }
        setup
    }
}

/// Why a [`Setup`] is not a playable position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A piece stands outside the variant's board (MiniShogi: beyond file or rank 5).
    PieceOffBoard(Square),
    /// A piece kind that the variant does not have (MiniShogi: knights, lances).
    RoleNotInVariant(Role),
    /// The side has no king.
    MissingKing(Color),
    /// The side has more than one king.
    TooManyKings(Color),
    /// More pieces of this (unpromoted) kind than the variant has, counting both hands.
    TooManyPieces(Role),
    /// A pawn or lance on its last rank, or a knight on its last two ranks: a piece
    /// without any move (`shogi.md` "Promotion": compulsory promotion).
    StuckPiece(Square),
    /// Two unpromoted pawns of one side on a file (nifu), `file` 1..=9.
    TwoPawns {
        /// Owner of the pawns.
        color: Color,
        /// The file, 1..=9.
        file: u8,
    },
    /// The side not to move is in check.
    OppositeCheck,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::PieceOffBoard(sq) => write!(f, "piece on {sq}, outside the board"),
            PositionError::RoleNotInVariant(role) => write!(f, "{role:?} is not a piece of this variant"),
            PositionError::MissingKing(c) => write!(f, "{} has no king", side_name(*c)),
            PositionError::TooManyKings(c) => write!(f, "{} has more than one king", side_name(*c)),
            PositionError::TooManyPieces(role) => write!(f, "too many pieces of kind {role:?}"),
            PositionError::StuckPiece(sq) => write!(f, "the piece on {sq} could never move"),
            PositionError::TwoPawns { color, file } => {
                write!(f, "{} has two unpromoted pawns on file {file}", side_name(*color))
            }
            PositionError::OppositeCheck => f.write_str("the side not to move is in check"),
        }
    }
}

impl std::error::Error for PositionError {}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::First => "Black",
        Color::Second => "White",
    }
}

/// Why a move is not legal in a position (after shogi_core's `IllegalMoveKind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IllegalMoveKind {
    /// A square is outside the variant's board.
    OffBoard,
    /// No piece of the side to move on the origin square.
    NoPiece,
    /// The destination holds a piece of the side to move.
    OwnPieceOnTarget,
    /// The piece cannot move that way at all.
    NotAMove,
    /// The piece could move that way on an empty board, but a piece is in the way.
    Blocked,
    /// The move asks for a promotion that is not possible (role or zone).
    CannotPromote,
    /// A piece would be left without a legal move: promotion is compulsory
    /// (`shogi.md` "Promotion").
    MoveStuck,
    /// The side to move does not hold that piece in hand (or it cannot be in hand).
    NotInHand,
    /// A drop onto an occupied square.
    DropOnOccupied,
    /// A drop on a square where the piece could never move (`shogi.md` "Drops").
    DropStuck,
    /// Nifu: a second unpromoted pawn on a file (`shogi.md` "Drops").
    TwoPawns,
    /// Uchifuzume: a pawn drop that gives checkmate (`shogi.md` "Drops").
    DropPawnMate,
    /// The side to move is in check and the move does not parry it.
    IgnoredCheck,
    /// The move exposes the mover's own king (a pinned piece moved, or the king
    /// stepped into check).
    LeavesKingInCheck,
}

impl fmt::Display for IllegalMoveKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IllegalMoveKind::OffBoard => "square outside the board",
            IllegalMoveKind::NoPiece => "no piece of the side to move on the origin square",
            IllegalMoveKind::OwnPieceOnTarget => "the destination holds one of your own pieces",
            IllegalMoveKind::NotAMove => "the piece does not move that way",
            IllegalMoveKind::Blocked => "a piece is in the way",
            IllegalMoveKind::CannotPromote => "this move cannot promote",
            IllegalMoveKind::MoveStuck => "the piece must promote there",
            IllegalMoveKind::NotInHand => "that piece is not in hand",
            IllegalMoveKind::DropOnOccupied => "drop on an occupied square",
            IllegalMoveKind::DropStuck => "a piece dropped there could never move",
            IllegalMoveKind::TwoPawns => "two unpromoted pawns on a file (nifu)",
            IllegalMoveKind::DropPawnMate => "checkmate by a pawn drop (uchifuzume)",
            IllegalMoveKind::IgnoredCheck => "the king is in check",
            IllegalMoveKind::LeavesKingInCheck => "the move exposes the king",
        })
    }
}

/// A rejected move: why, and the unchanged position handed back.
#[derive(Clone, Debug)]
pub struct PlayError {
    /// Why the move is illegal.
    pub kind: IllegalMoveKind,
    /// The move.
    pub mv: Move,
    /// The position, unchanged.
    pub position: Box<Position>,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move {}: {}", self.mv, self.kind)
    }
}

impl std::error::Error for PlayError {}

/// Squares that matter to the rules of a variant, for one colour each.
struct Geometry {
    board: u128,
    /// Promotion zone of each side.
    zone: [u128; 2],
    /// Each side's last rank.
    last1: [u128; 2],
    /// Each side's last two ranks.
    last2: [u128; 2],
}

const fn rank_mask(rank_index: u32, width: u32) -> u128 {
    (((1u128 << width) - 1) << (rank_index * 9)) & ((1u128 << 81) - 1)
}

const fn ranks(from: u32, to_excl: u32, width: u32) -> u128 {
    let mut m = 0;
    let mut r = from;
    while r < to_excl {
        m |= rank_mask(r, width);
        r += 1;
    }
    m
}

const STANDARD: Geometry = Geometry {
    board: ranks(0, 9, 9),
    zone: [ranks(0, 3, 9), ranks(6, 9, 9)],
    last1: [ranks(0, 1, 9), ranks(8, 9, 9)],
    last2: [ranks(0, 2, 9), ranks(7, 9, 9)],
};

const MINI: Geometry = Geometry {
    board: ranks(0, 5, 5),
    zone: [ranks(0, 1, 5), ranks(4, 5, 5)],
    last1: [ranks(0, 1, 5), ranks(4, 5, 5)],
    last2: [ranks(0, 2, 5), ranks(3, 5, 5)],
};

#[inline]
const fn geometry(variant: Variant) -> &'static Geometry {
    match variant {
        Variant::Standard => &STANDARD,
        Variant::Mini => &MINI,
    }
}

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

struct ZobristKeys {
    pieces: [[[u64; 81]; 14]; 2],
    /// `[color][hand index][count]`, count 0 hashes to 0.
    hands: [[[u64; 19]; 7]; 2],
    turn: u64,
}

static ZOBRIST: ZobristKeys = {
    let mut keys = ZobristKeys { pieces: [[[0; 81]; 14]; 2], hands: [[[0; 19]; 7]; 2], turn: 0 };
    let mut state = 0x5107_1A5E_u64;
    let mut c = 0;
    while c < 2 {
        let mut r = 0;
        while r < 14 {
            let mut s = 0;
            while s < 81 {
                let (ns, v) = splitmix(state);
                state = ns;
                keys.pieces[c][r][s] = v;
                s += 1;
            }
            r += 1;
        }
        let mut h = 0;
        while h < 7 {
            let mut n = 1;
            while n < 19 {
                let (ns, v) = splitmix(state);
                state = ns;
                keys.hands[c][h][n] = v;
                n += 1;
            }
            h += 1;
        }
        c += 1;
    }
    let (_, v) = splitmix(state);
    keys.turn = v;
    keys
};

#[inline]
fn hand_key(color: Color, hand_index: usize, count: u8) -> u64 {
    ZOBRIST.hands[color.index()][hand_index][usize::from(count).min(18)]
}

/// A legal shogi or minishogi position: only [`Position::from_setup`] and play build one.
#[derive(Clone, Debug)]
pub struct Position {
    variant: Variant,
    board: [Option<Piece>; 81],
    by_color: [u128; 2],
    by_role: [u128; 14],
    hands: [Hand; 2],
    turn: Color,
    move_number: u32,
    zobrist: u64,
    checkers: u128,
}

impl PartialEq for Position {
    /// Same variant, board, hands and side to move (the move number is ignored).
    fn eq(&self, other: &Position) -> bool {
        self.variant == other.variant
            && self.board == other.board
            && self.hands == other.hands
            && self.turn == other.turn
    }
}

impl Eq for Position {}

impl Position {
    /// The start position of the variant.
    pub fn startpos(variant: Variant) -> Position {
        Position::from_setup(Setup::startpos(variant)).expect("the start position is legal")
    }

    /// Validates a setup.
    ///
    /// # Errors
    ///
    /// A [`PositionError`] naming the first problem found.
    pub fn from_setup(setup: Setup) -> Result<Position, PositionError> {
        Position::validate(setup, false)
    }

    /// Validates a setup like [`Position::from_setup`], but accepts sides without a king:
    /// tsume problems and some perft test positions give the attacker no king. A side
    /// without a king is never in check and its moves never expose a king.
    ///
    /// # Errors
    ///
    /// A [`PositionError`] naming the first problem found (never
    /// [`PositionError::MissingKing`]).
    pub fn from_setup_allowing_missing_kings(setup: Setup) -> Result<Position, PositionError> {
        Position::validate(setup, true)
    }

    fn validate(setup: Setup, allow_missing_king: bool) -> Result<Position, PositionError> {
        let variant = setup.variant;
        let geo = geometry(variant);
        let mut pos = Position {
            variant,
            board: [None; 81],
            by_color: [0; 2],
            by_role: [0; 14],
            hands: setup.hands,
            turn: setup.turn,
            move_number: setup.move_number.max(1),
            zobrist: 0,
            checkers: 0,
        };
        let mut counts = [0u32; 14];
        for sq in Square::all() {
            if let Some(piece) = setup.board[sq.index()] {
                if !sq.is_on(variant) {
                    return Err(PositionError::PieceOffBoard(sq));
                }
                if !variant.has_role(piece.role) {
                    return Err(PositionError::RoleNotInVariant(piece.role));
                }
                counts[piece.role.unpromoted().index()] += 1;
                pos.put(sq, piece);
            }
        }
        for color in Color::ALL {
            for (role, n) in setup.hands[color.index()].iter() {
                if !variant.has_role(role) {
                    return Err(PositionError::RoleNotInVariant(role));
                }
                counts[role.index()] += u32::from(n);
                pos.zobrist ^= hand_key(color, role.hand_index(), n);
            }
        }
        for color in Color::ALL {
            match (pos.by_role[Role::King.index()] & pos.by_color[color.index()]).count_ones() {
                0 if allow_missing_king => {}
                0 => return Err(PositionError::MissingKing(color)),
                1 => {}
                _ => return Err(PositionError::TooManyKings(color)),
            }
        }
        for role in Role::HAND {
            if counts[role.index()] > u32::from(variant.max_pieces(role)) {
                return Err(PositionError::TooManyPieces(role));
            }
        }
        for color in Color::ALL {
            let ours = pos.by_color[color.index()];
            let stuck = (pos.by_role[Role::Pawn.index()] | pos.by_role[Role::Lance.index()])
                & geo.last1[color.index()]
                | pos.by_role[Role::Knight.index()] & geo.last2[color.index()];
            if let Some(sq) = BitIter(stuck & ours).next() {
                return Err(PositionError::StuckPiece(sq));
            }
            let mut seen_files = 0u16;
            for sq in BitIter(pos.by_role[Role::Pawn.index()] & ours) {
                if seen_files & (1 << sq.file()) != 0 {
                    return Err(PositionError::TwoPawns { color, file: sq.file() });
                }
                seen_files |= 1 << sq.file();
            }
        }
        if pos.turn == Color::Second {
            pos.zobrist ^= ZOBRIST.turn;
        }
        let them = !pos.turn;
        if pos.king_attackers(them, pos.occupied()) != 0 {
            return Err(PositionError::OppositeCheck);
        }
        pos.checkers = pos.king_attackers(pos.turn, pos.occupied());
        Ok(pos)
    }

    /// The setup of this position.
    pub fn to_setup(&self) -> Setup {
        Setup {
            variant: self.variant,
            board: self.board,
            hands: self.hands,
            turn: self.turn,
            move_number: self.move_number,
        }
    }

    /// The variant.
    #[inline]
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The SFEN move number (1 before the first move, +1 after each move).
    #[inline]
    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// The piece on a square, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// The hand of a side.
    #[inline]
    pub fn hand(&self, color: Color) -> &Hand {
        &self.hands[color.index()]
    }

    /// The square of a side's king (`None` only in positions built by
    /// [`Position::from_setup_allowing_missing_kings`]).
    #[inline]
    pub fn king_square(&self, color: Color) -> Option<Square> {
        self.king_of(color)
    }

    /// Zobrist hash of board, both hands and side to move, updated incrementally.
    #[inline]
    pub fn zobrist(&self) -> u64 {
        self.zobrist
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers != 0
    }

    /// The pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> SquareSet {
        SquareSet(self.checkers)
    }

    /// The pieces of `by` attacking `sq` on the current board.
    pub fn attackers(&self, sq: Square, by: Color) -> SquareSet {
        SquareSet(self.attackers_bb(sq, by, self.occupied()))
    }

    /// Whether `by` attacks `sq` on the current board.
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        self.attackers_bb(sq, by, self.occupied()) != 0
    }

    /// The squares a piece on `sq` attacks on the current board (empty if none there).
    pub fn attacks_from(&self, sq: Square) -> SquareSet {
        match self.board[sq.index()] {
            Some(p) => SquareSet(
                tables().attacks(p.color, p.role, sq, self.occupied()) & geometry(self.variant).board,
            ),
            None => SquareSet::default(),
        }
    }

    /// The squares occupied by `color`.
    pub fn pieces_of(&self, color: Color) -> SquareSet {
        SquareSet(self.by_color[color.index()])
    }

    /// Whether `sq` is in `color`'s promotion zone (`shogi.md` / `minishogi.md` "Promotion").
    pub fn in_promotion_zone(&self, sq: Square, color: Color) -> bool {
        geometry(self.variant).zone[color.index()] & sq.bit() != 0
    }

    #[inline]
    fn occupied(&self) -> u128 {
        self.by_color[0] | self.by_color[1]
    }

    #[inline]
    fn king_of(&self, color: Color) -> Option<Square> {
        let kings = self.by_role[Role::King.index()] & self.by_color[color.index()];
        if kings == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(kings.trailing_zeros()))
        }
    }

    /// The pieces attacking `color`'s king (none if it has no king).
    #[inline]
    fn king_attackers(&self, color: Color, occupied: u128) -> u128 {
        match self.king_of(color) {
            Some(k) => self.attackers_bb(k, !color, occupied),
            None => 0,
        }
    }

    #[inline]
    fn put(&mut self, sq: Square, piece: Piece) {
        self.board[sq.index()] = Some(piece);
        self.by_color[piece.color.index()] |= sq.bit();
        self.by_role[piece.role.index()] |= sq.bit();
        self.zobrist ^= ZOBRIST.pieces[piece.color.index()][piece.role.index()][sq.index()];
    }

    #[inline]
    fn remove(&mut self, sq: Square, piece: Piece) {
        self.board[sq.index()] = None;
        self.by_color[piece.color.index()] &= !sq.bit();
        self.by_role[piece.role.index()] &= !sq.bit();
        self.zobrist ^= ZOBRIST.pieces[piece.color.index()][piece.role.index()][sq.index()];
    }

    #[inline]
    fn roles(&self, roles: &[Role]) -> u128 {
        roles.iter().fold(0, |acc, r| acc | self.by_role[r.index()])
    }

    #[inline]
    fn attackers_bb(&self, sq: Square, by: Color, occupied: u128) -> u128 {
        let t = tables();
        let r = &self.by_role;
        let golds = r[Role::Gold.index()]
            | r[Role::ProSilver.index()]
            | r[Role::ProKnight.index()]
            | r[Role::ProLance.index()]
            | r[Role::Tokin.index()];
        let kings = r[Role::King.index()] | r[Role::Dragon.index()] | r[Role::Horse.index()];
        let mine = self.by_color[by.index()];
        let rooks = (r[Role::Rook.index()] | r[Role::Dragon.index()]) & mine;
        let bishops = (r[Role::Bishop.index()] | r[Role::Horse.index()]) & mine;
        let lances = r[Role::Lance.index()] & mine;
        let them = !by;
        let mut attackers = (t.step(Step::Pawn, them, sq) & r[Role::Pawn.index()]
            | t.step(Step::Knight, them, sq) & r[Role::Knight.index()]
            | t.step(Step::Silver, them, sq) & r[Role::Silver.index()]
            | t.step(Step::Gold, them, sq) & golds
            | t.step(Step::King, them, sq) & kings)
            & mine;
        // Sliding attacks only when a slider stands on one of the empty-board lines.
        if rooks & t.rook_rays(sq) != 0 {
            attackers |= t.rook(sq, occupied) & rooks;
        }
        if bishops & t.bishop_rays(sq) != 0 {
            attackers |= t.bishop(sq, occupied) & bishops;
        }
        if lances & t.lance_ray(them, sq) != 0 {
            attackers |= t.lance(them, sq, occupied) & lances;
        }
        attackers
    }

    /// Pieces of `us` pinned against their king.
    fn pinned(&self, t: &Tables, us: Color, ksq: Square) -> u128 {
        let theirs = self.by_color[(!us).index()];
        let snipers = (t.rook_rays(ksq) & self.roles(&[Role::Rook, Role::Dragon])
            | t.bishop_rays(ksq) & self.roles(&[Role::Bishop, Role::Horse])
            | t.lance_ray(us, ksq) & self.by_role[Role::Lance.index()])
            & theirs;
        let occupied = self.occupied();
        let mut pinned = 0;
        for s in BitIter(snipers) {
            let b = t.between(ksq, s) & occupied;
            if b.count_ones() == 1 {
                pinned |= b;
            }
        }
        pinned & self.by_color[us.index()]
    }

    /// `shogi.md` "Promotion": pawn and lance must promote on the last rank, the knight on
    /// the last two; `minishogi.md` "Promotion": the pawn on the last rank.
    #[inline]
    fn must_promote(geo: &Geometry, role: Role, color: Color, to: Square) -> bool {
        match role {
            Role::Pawn | Role::Lance => geo.last1[color.index()] & to.bit() != 0,
            Role::Knight => geo.last2[color.index()] & to.bit() != 0,
            _ => false,
        }
    }

    /// Every legal move. Optional promotions appear twice (with and without promotion);
    /// uchifuzume pawn drops are excluded.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(&mut list);
        list
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(&self) -> bool {
        let mut moves = MoveList::new();
        self.generate(&mut moves);
        !moves.is_empty()
    }

    fn generate(&self, list: &mut MoveList) {
        let t = tables();
        let geo = geometry(self.variant);
        let us = self.turn;
        let them = !us;
        let ours = self.by_color[us.index()];
        let occupied = self.occupied();
        let ksq = self.king_of(us);

        // King moves: the destination must not be attacked once the king has left its square.
        if let Some(ksq) = ksq {
            let king_targets = t.step(Step::King, us, ksq) & !ours & geo.board;
            for to in BitIter(king_targets) {
                if self.attackers_bb(to, them, occupied ^ ksq.bit()) == 0 {
                    list.push(Move::Normal { from: ksq, to, promote: false });
                }
            }
        }
        let (target, drop_target) = match (ksq, self.checkers.count_ones()) {
            (_, 0) | (None, _) => (!0u128, !occupied & geo.board),
            (Some(ksq), 1) => {
                let checker = Square::from_index_unchecked(self.checkers.trailing_zeros());
                let between = t.between(ksq, checker);
                (between | checker.bit(), between)
            }
            _ => return,
        };
        let pinned = ksq.map_or(0, |k| self.pinned(t, us, k));
        let king_bit = ksq.map_or(0, Square::bit);
        let zone = geo.zone[us.index()];
        for from in BitIter(ours & !king_bit) {
            let Some(piece) = self.board[from.index()] else { continue };
            let mut dests = t.attacks(us, piece.role, from, occupied) & !ours & geo.board & target;
            if let Some(k) = ksq.filter(|_| pinned & from.bit() != 0) {
                dests &= t.line(k, from);
            }
            if dests == 0 {
                continue;
            }
            let promotable = piece.role.promoted().is_some();
            let from_zone = zone & from.bit() != 0;
            for to in BitIter(dests) {
                // shogi.md "Promotion": a move starting in, ending in or crossing into the
                // zone may promote; minishogi.md: reaching or leaving the last rank.
                if promotable && (from_zone || zone & to.bit() != 0) {
                    list.push(Move::Normal { from, to, promote: true });
                    if !Self::must_promote(geo, piece.role, us, to) {
                        list.push(Move::Normal { from, to, promote: false });
                    }
                } else {
                    list.push(Move::Normal { from, to, promote: false });
                }
            }
        }
        if drop_target == 0 {
            return;
        }
        let hand = self.hands[us.index()];
        for role in Role::HAND {
            if hand.count(role) == 0 {
                continue;
            }
            // shogi.md "Drops": no pawn or lance on the last rank, no knight on the last two.
            let mut squares = match role {
                Role::Pawn | Role::Lance => drop_target & !geo.last1[us.index()],
                Role::Knight => drop_target & !geo.last2[us.index()],
                _ => drop_target,
            };
            if role == Role::Pawn {
                // shogi.md "Drops": nifu.
                for pawn in BitIter(self.by_role[Role::Pawn.index()] & ours) {
                    squares &= !t.files[usize::from(pawn.file() - 1)];
                }
                // shogi.md "Drops": uchifuzume, a pawn drop that mates is illegal.
                let mate_square = self.king_of(them).map_or(0, |k| t.step(Step::Pawn, them, k)) & squares;
                if mate_square != 0 {
                    squares &= !mate_square;
                    let to = Square::from_index_unchecked(mate_square.trailing_zeros());
                    if !self.is_drop_pawn_mate(to) {
                        list.push(Move::Drop { role, to });
                    }
                }
            }
            for to in BitIter(squares) {
                list.push(Move::Drop { role, to });
            }
        }
    }

    /// Whether dropping a pawn on `to` (checking the enemy king) leaves the opponent
    /// without a legal move.
    fn is_drop_pawn_mate(&self, to: Square) -> bool {
        let mut after = self.clone();
        after.play_unchecked(Move::Drop { role: Role::Pawn, to });
        // The checker is an adjacent pawn: only king moves and captures of the pawn can
        // answer, so this never recurses into another uchifuzume test.
        !after.has_legal_move()
    }

    /// Whether `m` is legal here.
    pub fn is_legal(&self, m: Move) -> bool {
        self.check_move(m).is_ok()
    }

    /// Why `m` is illegal here, or `Ok(())`.
    ///
    /// # Errors
    ///
    /// The [`IllegalMoveKind`] of an illegal move.
    pub fn check_move(&self, m: Move) -> Result<(), IllegalMoveKind> {
        let t = tables();
        let geo = geometry(self.variant);
        let us = self.turn;
        let them = !us;
        let occupied = self.occupied();
        let ksq = self.king_of(us);
        let in_check_error =
            if self.is_check() { IllegalMoveKind::IgnoredCheck } else { IllegalMoveKind::LeavesKingInCheck };
        match m {
            Move::Normal { from, to, promote } => {
                if !from.is_on(self.variant) || !to.is_on(self.variant) {
                    return Err(IllegalMoveKind::OffBoard);
                }
                let piece = match self.board[from.index()] {
                    Some(p) if p.color == us => p,
                    _ => return Err(IllegalMoveKind::NoPiece),
                };
                if self.by_color[us.index()] & to.bit() != 0 {
                    return Err(IllegalMoveKind::OwnPieceOnTarget);
                }
                if t.attacks(us, piece.role, from, occupied) & to.bit() == 0 {
                    return Err(if t.attacks(us, piece.role, from, 0) & to.bit() != 0 {
                        IllegalMoveKind::Blocked
                    } else {
                        IllegalMoveKind::NotAMove
                    });
                }
                let zone = geo.zone[us.index()];
                if promote {
                    if piece.role.promoted().is_none() || (from.bit() | to.bit()) & zone == 0 {
                        return Err(IllegalMoveKind::CannotPromote);
                    }
                } else if Self::must_promote(geo, piece.role, us, to) {
                    return Err(IllegalMoveKind::MoveStuck);
                }
                let after = (occupied & !from.bit()) | to.bit();
                let king = if piece.role == Role::King { Some(to) } else { ksq };
                if let Some(king) = king {
                    if self.attackers_bb(king, them, after) & !to.bit() != 0 {
                        return Err(in_check_error);
                    }
                }
                Ok(())
            }
            Move::Drop { role, to } => {
                if !to.is_on(self.variant) {
                    return Err(IllegalMoveKind::OffBoard);
                }
                if self.hands[us.index()].count(role) == 0 {
                    return Err(IllegalMoveKind::NotInHand);
                }
                if occupied & to.bit() != 0 {
                    return Err(IllegalMoveKind::DropOnOccupied);
                }
                let stuck = match role {
                    Role::Pawn | Role::Lance => geo.last1[us.index()],
                    Role::Knight => geo.last2[us.index()],
                    _ => 0,
                };
                if stuck & to.bit() != 0 {
                    return Err(IllegalMoveKind::DropStuck);
                }
                if role == Role::Pawn
                    && self.by_role[Role::Pawn.index()]
                        & self.by_color[us.index()]
                        & t.files[usize::from(to.file() - 1)]
                        != 0
                {
                    return Err(IllegalMoveKind::TwoPawns);
                }
                if let Some(ksq) = ksq {
                    if self.attackers_bb(ksq, them, occupied | to.bit()) != 0 {
                        return Err(in_check_error);
                    }
                }
                if role == Role::Pawn
                    && self.king_of(them).map_or(0, |k| t.step(Step::Pawn, them, k)) & to.bit() != 0
                    && self.is_drop_pawn_mate(to)
                {
                    return Err(IllegalMoveKind::DropPawnMate);
                }
                Ok(())
            }
        }
    }

    /// Plays a move after checking it.
    ///
    /// # Errors
    ///
    /// A [`PlayError`] with the reason and the unchanged position.
    pub fn play(mut self, m: Move) -> Result<Position, PlayError> {
        match self.check_move(m) {
            Ok(()) => {
                self.play_unchecked(m);
                Ok(self)
            }
            Err(kind) => Err(PlayError { kind, mv: m, position: Box::new(self) }),
        }
    }

    /// Plays a move without checking it.
    ///
    /// # Panics
    ///
    /// May panic if the move is illegal: no piece on the origin, a piece not in hand,
    /// a promotion of a role that does not promote, or a captured king. An illegal move
    /// that does not panic leaves a position that breaks the rules.
    pub fn play_unchecked(&mut self, m: Move) {
        let us = self.turn;
        match m {
            Move::Normal { from, to, promote } => {
                let piece = self.board[from.index()].expect("play_unchecked: no piece on the origin square");
                if let Some(captured) = self.board[to.index()] {
                    self.remove(to, captured);
                    let hand_role = captured.role.unpromoted();
                    let i = hand_role.hand_index();
                    let count = &mut self.hands[us.index()].raw_mut()[i];
                    let old = *count;
                    *count += 1;
                    self.zobrist ^= hand_key(us, i, old) ^ hand_key(us, i, old + 1);
                }
                self.remove(from, piece);
                let role = if promote {
                    piece.role.promoted().expect("play_unchecked: role cannot promote")
                } else {
                    piece.role
                };
                self.put(to, Piece { color: us, role });
            }
            Move::Drop { role, to } => {
                let i = role.hand_index();
                let count = &mut self.hands[us.index()].raw_mut()[i];
                let old = *count;
                *count = old.checked_sub(1).expect("play_unchecked: piece not in hand");
                self.zobrist ^= hand_key(us, i, old) ^ hand_key(us, i, old - 1);
                self.put(to, Piece { color: us, role });
            }
        }
        self.turn = !us;
        self.zobrist ^= ZOBRIST.turn;
        self.move_number = self.move_number.saturating_add(1);
        self.checkers = self.king_attackers(self.turn, self.occupied());
    }

    /// The end of the game by the basic rules: the side to move without a legal move loses
    /// (`shogi.md` "End of the game": there is no stalemate). The reason is
    /// [`EndReason::Checkmate`] in check, else [`EndReason::Stalemate`].
    pub fn outcome_by_basic_rules(&self) -> Option<Outcome> {
        if self.has_legal_move() {
            None
        } else if self.is_check() {
            Some(Outcome::win(!self.turn, EndReason::Checkmate))
        } else {
            Some(Outcome::win(!self.turn, EndReason::Stalemate))
        }
    }

    /// Hand counts, for notation and laws: `[color][R B G S N L P]`.
    pub fn hand_counts(&self, color: Color) -> [u8; 7] {
        *self.hands[color.index()].raw()
    }
}

/// Counts the leaves of the legal move tree of depth `depth` (optional promotions count
/// twice, uchifuzume drops are not moves).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    // Generate into a local list: returning a 4 KB list by value costs a copy per node.
    let mut moves = MoveList::new();
    pos.generate(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&m| {
            let mut next = pos.clone();
            next.play_unchecked(m);
            perft(&next, depth - 1)
        })
        .sum()
}
