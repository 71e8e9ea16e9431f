//! The board, setups, positions and orthodox move generation.

use std::fmt;

use arrayvec::ArrayVec;

use crate::{Color, EndReason, Outcome};

use super::types::{CastlingRights, CastlingSide, Move, MoveKind, Piece, Role, Square, SquareSet};
use super::zobrist;

/// Capacity of a [`MoveList`]. [`Position::from_setup`] allows at most 32 pieces, so a
/// side has at most a king and 30 other pieces: fewer than 30 × 27 + 10 moves even
/// counting moves that leave the king attacked (well-known test positions such as
/// "Kiwipete" have more than 16 pieces a side, so the bound cannot be tighter).
pub const MOVE_LIST_CAPACITY: usize = 1024;

/// An allocation-free list of moves.
pub type MoveList = ArrayVec<Move, MOVE_LIST_CAPACITY>;

/// A position as a FEN describes it: plain data, not validated.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The board, indexed by [`Square::index`] (`a1` = 0).
    pub board: [Option<Piece>; 64],
    /// The side to move (to play a series, in Flickering chess).
    pub turn: Color,
    /// Castling rights.
    pub castling: CastlingRights,
    /// En passant target squares (the squares a capturing pawn moves to). Orthodox chess
    /// has at most one; in Flickering chess every pawn the opponent double-stepped in
    /// their last series gives one (see [`crate::chess::Series`]).
    pub en_passant: SquareSet,
    /// Half-moves (series, in Flickering chess) since the last capture or pawn move.
    pub halfmove_clock: u32,
    /// The move number, starting at 1, incremented after the second player's move.
    pub fullmove_number: u32,
}

impl Setup {
    /// The orthodox start position.
    pub fn start() -> Setup {
        let mut board = [None; 64];
        let back = [
            Role::Rook,
            Role::Knight,
            Role::Bishop,
            Role::Queen,
            Role::King,
            Role::Bishop,
            Role::Knight,
            Role::Rook,
        ];
        for (file, role) in back.into_iter().enumerate() {
            board[file] = Some(Piece { color: Color::First, role });
            board[8 + file] = Some(Piece { color: Color::First, role: Role::Pawn });
            board[48 + file] = Some(Piece { color: Color::Second, role: Role::Pawn });
            board[56 + file] = Some(Piece { color: Color::Second, role });
        }
        Setup {
            board,
            turn: Color::First,
            castling: CastlingRights::ALL,
            en_passant: SquareSet::EMPTY,
            halfmove_clock: 0,
            fullmove_number: 1,
        }
    }
}

impl Default for Setup {
    fn default() -> Setup {
        Setup::start()
    }
}

/// Why a [`Setup`] is not a playable position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A side has no king.
    MissingKing(Color),
    /// A side has more than one king.
    TooManyKings(Color),
    /// More than 32 pieces on the board.
    TooManyPieces,
    /// A pawn stands on the first or the last rank.
    PawnOnBackRank(Square),
    /// The side not to move has its king attacked: it would have ended its move (series)
    /// in check.
    OpponentInCheck,
    /// A castling right whose king or rook is not on its original square.
    InvalidCastlingRights,
    /// An en passant target square with no pawn that just double-stepped beside it.
    InvalidEnPassant(Square),
    /// The move number is 0.
    InvalidFullmoveNumber,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = |c: &Color| if *c == Color::First { "white" } else { "black" };
        match self {
            PositionError::MissingKing(c) => write!(f, "{} has no king", side(c)),
            PositionError::TooManyKings(c) => write!(f, "{} has more than one king", side(c)),
            PositionError::TooManyPieces => f.write_str("more than 32 pieces"),
            PositionError::PawnOnBackRank(sq) => write!(f, "pawn on the back rank at {sq}"),
            PositionError::OpponentInCheck => f.write_str("the side not to move is in check"),
            PositionError::InvalidCastlingRights => {
                f.write_str("castling right without its king and rook in place")
            }
            PositionError::InvalidEnPassant(sq) => write!(f, "invalid en passant square {sq}"),
            PositionError::InvalidFullmoveNumber => f.write_str("the move number must be at least 1"),
        }
    }
}

impl std::error::Error for PositionError {}

/// Why [`Position::play`] refused a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalMoveKind {
    /// No piece of the side to move can make this move (wrong piece, blocked path, own
    /// piece on the destination, castling without the right...).
    NotAMove,
    /// The move would leave (or put) the mover's king attacked.
    LeavesKingInCheck,
}

/// A move [`Position::play`] refused; the position is handed back unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayError {
    /// Why.
    pub kind: IllegalMoveKind,
    /// The position, unchanged.
    pub position: Box<Position>,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            IllegalMoveKind::NotAMove => f.write_str("no piece can make this move"),
            IllegalMoveKind::LeavesKingInCheck => f.write_str("the move leaves the king in check"),
        }
    }
}

impl std::error::Error for PlayError {}

pub(crate) const KNIGHT_STEPS: [(i8, i8); 8] =
    [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
pub(crate) const KING_STEPS: [(i8, i8); 8] =
    [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];
pub(crate) const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];
pub(crate) const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (-1, 1), (-1, -1), (1, -1)];

/// The rank direction in which `color`'s pawns advance.
#[inline]
pub(crate) const fn forward(color: Color) -> i8 {
    match color {
        Color::First => 1,
        Color::Second => -1,
    }
}

/// A playable position: a validated [`Setup`] with the kings located and a Zobrist key.
///
/// Built only by [`Position::from_setup`] (or [`Position::new`] for the start position).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    board: [Option<Piece>; 64],
    turn: Color,
    castling: CastlingRights,
    en_passant: SquareSet,
    halfmove_clock: u32,
    fullmove_number: u32,
    kings: [Square; 2],
    zobrist: u64,
}

impl Default for Position {
    fn default() -> Position {
        Position::new()
    }
}

impl Position {
    /// The orthodox start position.
    pub fn new() -> Position {
        match Position::from_setup(Setup::start()) {
            Ok(pos) => pos,
            Err(e) => unreachable!("the start position is valid: {e}"),
        }
    }

    /// Validates a setup.
    ///
    /// # Errors
    ///
    /// A [`PositionError`] naming the first problem found: kings, material, pawns on the
    /// back ranks, the side not to move in check, castling rights, en passant squares.
    pub fn from_setup(setup: Setup) -> Result<Position, PositionError> {
        if setup.fullmove_number == 0 {
            return Err(PositionError::InvalidFullmoveNumber);
        }
        let mut kings: [Option<Square>; 2] = [None, None];
        let mut counts = [[0u32; 6]; 2];
        for sq in Square::all() {
            let Some(piece) = setup.board[sq.index()] else { continue };
            counts[piece.color.index()][piece.role.index()] += 1;
            if piece.role == Role::King {
                if kings[piece.color.index()].is_some() {
                    return Err(PositionError::TooManyKings(piece.color));
                }
                kings[piece.color.index()] = Some(sq);
            }
            if piece.role == Role::Pawn && (sq.rank() == 0 || sq.rank() == 7) {
                return Err(PositionError::PawnOnBackRank(sq));
            }
        }
        let king_squares = [
            kings[0].ok_or(PositionError::MissingKing(Color::First))?,
            kings[1].ok_or(PositionError::MissingKing(Color::Second))?,
        ];
        let total: u32 = counts.iter().flatten().sum();
        if total > 32 {
            return Err(PositionError::TooManyPieces);
        }
        // Castling rights need the king and the rook on their original squares.
        for color in Color::ALL {
            let rank = if color == Color::First { 0 } else { 7 };
            for (side, rook_file) in [(CastlingSide::KingSide, 7u8), (CastlingSide::QueenSide, 0u8)] {
                if !setup.castling.has(color, side) {
                    continue;
                }
                let king_ok =
                    setup.board[usize::from(rank * 8 + 4)] == Some(Piece { color, role: Role::King });
                let rook_ok =
                    setup.board[usize::from(rank * 8 + rook_file)] == Some(Piece { color, role: Role::Rook });
                if !king_ok || !rook_ok {
                    return Err(PositionError::InvalidCastlingRights);
                }
            }
        }
        // En passant targets: behind a pawn of the side not to move that stands on its
        // fourth rank, the target itself empty.
        let mover = setup.turn;
        for target in setup.en_passant.iter() {
            let target_rank = if mover == Color::First { 5 } else { 2 };
            let ok = target.rank() == target_rank
                && setup.board[target.index()].is_none()
                && target.offset(0, -forward(mover)).is_some_and(|p| {
                    setup.board[p.index()] == Some(Piece { color: !mover, role: Role::Pawn })
                });
            if !ok {
                return Err(PositionError::InvalidEnPassant(target));
            }
        }
        let mut pos = Position {
            board: setup.board,
            turn: setup.turn,
            castling: setup.castling,
            en_passant: setup.en_passant,
            halfmove_clock: setup.halfmove_clock,
            fullmove_number: setup.fullmove_number,
            kings: king_squares,
            zobrist: 0,
        };
        if pos.is_attacked(pos.kings[(!pos.turn).index()], pos.turn) {
            return Err(PositionError::OpponentInCheck);
        }
        pos.zobrist = pos.compute_zobrist();
        Ok(pos)
    }

    /// The setup of this position.
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board,
            turn: self.turn,
            castling: self.castling,
            en_passant: self.en_passant,
            halfmove_clock: self.halfmove_clock,
            fullmove_number: self.fullmove_number,
        }
    }

    fn compute_zobrist(&self) -> u64 {
        let mut k = zobrist::turn_key(self.turn)
            ^ zobrist::castling_key(self.castling.bits())
            ^ zobrist::en_passant_key(self.en_passant.0);
        for sq in Square::all() {
            if let Some(p) = self.board[sq.index()] {
                k ^= zobrist::piece_key(p, sq);
            }
        }
        k
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// The square of `color`'s king.
    #[inline]
    pub fn king(&self, color: Color) -> Square {
        self.kings[color.index()]
    }

    /// Castling rights.
    #[inline]
    pub fn castling(&self) -> CastlingRights {
        self.castling
    }

    /// En passant target squares available to the side to move.
    #[inline]
    pub fn en_passant(&self) -> SquareSet {
        self.en_passant
    }

    /// Half-moves (series) since the last capture or pawn move.
    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove_clock
    }

    /// The move number (starts at 1, grows after the second player's move).
    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove_number
    }

    /// The Zobrist key: pieces, side to move, castling rights and en passant targets.
    #[inline]
    pub fn zobrist(&self) -> u64 {
        self.zobrist
    }

    /// Whether the side to move has its king attacked.
    pub fn is_check(&self) -> bool {
        self.is_attacked(self.kings[self.turn.index()], !self.turn)
    }

    /// Whether any piece of `by` attacks `sq` on the current board (a piece on `sq`
    /// itself does not count as a blocker).
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        let b = &self.board;
        let is = |s: Square, role: Role| b[s.index()] == Some(Piece { color: by, role });
        // Pawns of `by` attack diagonally forward, so they stand diagonally behind `sq`.
        let back = -forward(by);
        for df in [-1, 1] {
            if sq.offset(df, back).is_some_and(|s| is(s, Role::Pawn)) {
                return true;
            }
        }
        for (df, dr) in KNIGHT_STEPS {
            if sq.offset(df, dr).is_some_and(|s| is(s, Role::Knight)) {
                return true;
            }
        }
        for (df, dr) in KING_STEPS {
            if sq.offset(df, dr).is_some_and(|s| is(s, Role::King)) {
                return true;
            }
        }
        for (dirs, role) in [(ROOK_DIRS, Role::Rook), (BISHOP_DIRS, Role::Bishop)] {
            for (df, dr) in dirs {
                let mut cur = sq;
                while let Some(next) = cur.offset(df, dr) {
                    cur = next;
                    if let Some(p) = b[cur.index()] {
                        if p.color == by && (p.role == role || p.role == Role::Queen) {
                            return true;
                        }
                        break;
                    }
                }
            }
        }
        false
    }

    /// Pseudo-legal moves of the side to move, skipping pieces on `frozen` squares and
    /// never capturing a king. Castling is generated only when the king is not attacked,
    /// the squares between king and rook are empty and the square the king crosses is
    /// not attacked; whether the king's destination is attacked is left to the caller.
    pub(crate) fn generate_pseudo(&self, frozen: u64, out: &mut MoveList) {
        let us = self.turn;
        for from in Square::all() {
            if frozen & from.bit() != 0 {
                continue;
            }
            let Some(piece) = self.board[from.index()] else { continue };
            if piece.color != us {
                continue;
            }
            match piece.role {
                Role::Pawn => self.pawn_moves(from, out),
                Role::Knight => self.step_moves(from, &KNIGHT_STEPS, out),
                Role::King => {
                    self.step_moves(from, &KING_STEPS, out);
                    self.castling_moves(from, out);
                }
                Role::Bishop => self.slide_moves(from, &BISHOP_DIRS, out),
                Role::Rook => self.slide_moves(from, &ROOK_DIRS, out),
                Role::Queen => {
                    self.slide_moves(from, &BISHOP_DIRS, out);
                    self.slide_moves(from, &ROOK_DIRS, out);
                }
            }
        }
    }

    /// Whether the side to move may land on `to`: empty or an enemy piece other than the king.
    #[inline]
    fn can_land(&self, to: Square) -> bool {
        match self.board[to.index()] {
            None => true,
            // flickering-chess.md "The series": an attacking piece never captures the king.
            Some(p) => p.color != self.turn && p.role != Role::King,
        }
    }

    fn step_moves(&self, from: Square, steps: &[(i8, i8)], out: &mut MoveList) {
        for &(df, dr) in steps {
            if let Some(to) = from.offset(df, dr) {
                if self.can_land(to) {
                    out.push(Move { from, to, kind: MoveKind::Normal });
                }
            }
        }
    }

    fn slide_moves(&self, from: Square, dirs: &[(i8, i8)], out: &mut MoveList) {
        for &(df, dr) in dirs {
            let mut cur = from;
            while let Some(to) = cur.offset(df, dr) {
                cur = to;
                match self.board[to.index()] {
                    None => out.push(Move { from, to, kind: MoveKind::Normal }),
                    Some(_) => {
                        if self.can_land(to) {
                            out.push(Move { from, to, kind: MoveKind::Normal });
                        }
                        break;
                    }
                }
            }
        }
    }

    fn push_pawn_move(from: Square, to: Square, out: &mut MoveList) {
        if to.rank() == 0 || to.rank() == 7 {
            for role in Role::PROMOTIONS {
                out.push(Move { from, to, kind: MoveKind::Promotion(role) });
            }
        } else {
            out.push(Move { from, to, kind: MoveKind::Normal });
        }
    }

    fn pawn_moves(&self, from: Square, out: &mut MoveList) {
        let us = self.turn;
        let fwd = forward(us);
        if let Some(one) = from.offset(0, fwd) {
            if self.board[one.index()].is_none() {
                Self::push_pawn_move(from, one, out);
                let start_rank = if us == Color::First { 1 } else { 6 };
                if from.rank() == start_rank {
                    if let Some(two) = one.offset(0, fwd) {
                        if self.board[two.index()].is_none() {
                            out.push(Move { from, to: two, kind: MoveKind::Normal });
                        }
                    }
                }
            }
        }
        for df in [-1, 1] {
            let Some(to) = from.offset(df, fwd) else { continue };
            match self.board[to.index()] {
                Some(p) if p.color != us && p.role != Role::King => Self::push_pawn_move(from, to, out),
                None if self.en_passant.contains(to) => {
                    // The double-stepped pawn must still stand beside us.
                    let victim = to.offset(0, -fwd);
                    if victim.is_some_and(|v| {
                        self.board[v.index()] == Some(Piece { color: !us, role: Role::Pawn })
                    }) {
                        out.push(Move { from, to, kind: MoveKind::EnPassant });
                    }
                }
                _ => {}
            }
        }
    }

    fn castling_moves(&self, from: Square, out: &mut MoveList) {
        let us = self.turn;
        let rank = if us == Color::First { 0 } else { 7 };
        if from.rank() != rank || from.file() != 4 {
            return;
        }
        let mut checked = None;
        for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
            if !self.castling.has(us, side) {
                continue;
            }
            let (between, cross, dest): (&[u8], u8, u8) = match side {
                CastlingSide::KingSide => (&[5, 6], 5, 6),
                CastlingSide::QueenSide => (&[1, 2, 3], 3, 2),
            };
            let rook_file = if side == CastlingSide::KingSide { 7 } else { 0 };
            if self.board[usize::from(rank * 8 + rook_file)] != Some(Piece { color: us, role: Role::Rook }) {
                continue;
            }
            if between.iter().any(|&f| self.board[usize::from(rank * 8 + f)].is_some()) {
                continue;
            }
            let in_check = *checked.get_or_insert_with(|| self.is_attacked(from, !us));
            if in_check {
                return;
            }
            let Some(cross_sq) = Square::new(cross, rank) else { continue };
            if self.is_attacked(cross_sq, !us) {
                continue;
            }
            if let Some(to) = Square::new(dest, rank) {
                out.push(Move { from, to, kind: MoveKind::Castle });
            }
        }
    }

    #[inline]
    fn put(&mut self, sq: Square, piece: Piece) {
        self.board[sq.index()] = Some(piece);
        self.zobrist ^= zobrist::piece_key(piece, sq);
    }

    #[inline]
    fn take(&mut self, sq: Square) -> Option<Piece> {
        let p = self.board[sq.index()].take();
        if let Some(p) = p {
            self.zobrist ^= zobrist::piece_key(p, sq);
        }
        p
    }

    /// Removes the piece on `sq` (for what-if attack tests; kings stay located where they were).
    pub(crate) fn remove_piece(&mut self, sq: Square) -> Option<Piece> {
        self.take(sq)
    }

    pub(crate) fn set_castling(&mut self, rights: CastlingRights) {
        self.zobrist ^= zobrist::castling_key(self.castling.bits()) ^ zobrist::castling_key(rights.bits());
        self.castling = rights;
    }

    pub(crate) fn set_en_passant(&mut self, targets: SquareSet) {
        self.zobrist ^= zobrist::en_passant_key(self.en_passant.0) ^ zobrist::en_passant_key(targets.0);
        self.en_passant = targets;
    }

    pub(crate) fn set_turn(&mut self, turn: Color) {
        self.zobrist ^= zobrist::turn_key(self.turn) ^ zobrist::turn_key(turn);
        self.turn = turn;
    }

    pub(crate) fn set_counters(&mut self, halfmove_clock: u32, fullmove_number: u32) {
        self.halfmove_clock = halfmove_clock;
        self.fullmove_number = fullmove_number;
    }

    /// Moves the pieces of `m` for the side to move (without checking legality) and
    /// updates castling rights; the side to move and en passant targets stay as they
    /// are. Returns whether the move was a capture or a pawn move. Does nothing and
    /// returns `false` if `from` is empty.
    pub(crate) fn apply_pieces(&mut self, m: Move) -> bool {
        let Some(piece) = self.take(m.from) else { return false };
        let captured = self.take(m.to);
        let mut resets_clock = captured.is_some() || piece.role == Role::Pawn;
        match m.kind {
            MoveKind::Normal => self.put(m.to, piece),
            MoveKind::Promotion(role) => self.put(m.to, Piece { color: piece.color, role }),
            MoveKind::EnPassant => {
                self.put(m.to, piece);
                if let Some(victim) = m.to.offset(0, -forward(piece.color)) {
                    resets_clock |= self.take(victim).is_some();
                }
            }
            MoveKind::Castle => {
                self.put(m.to, piece);
                if let Some((rook_from, rook_to)) = m.castling_rook() {
                    if let Some(rook) = self.take(rook_from) {
                        self.put(rook_to, rook);
                    }
                }
            }
        }
        if piece.role == Role::King {
            self.kings[piece.color.index()] = m.to;
        }
        let mut rights = self.castling;
        for sq in [m.from, m.to] {
            match (sq.file(), sq.rank()) {
                (4, 0) => {
                    rights.set(Color::First, CastlingSide::KingSide, false);
                    rights.set(Color::First, CastlingSide::QueenSide, false);
                }
                (4, 7) => {
                    rights.set(Color::Second, CastlingSide::KingSide, false);
                    rights.set(Color::Second, CastlingSide::QueenSide, false);
                }
                (0, 0) => rights.set(Color::First, CastlingSide::QueenSide, false),
                (7, 0) => rights.set(Color::First, CastlingSide::KingSide, false),
                (0, 7) => rights.set(Color::Second, CastlingSide::QueenSide, false),
                (7, 7) => rights.set(Color::Second, CastlingSide::KingSide, false),
                _ => {}
            }
        }
        if rights != self.castling {
            self.set_castling(rights);
        }
        resets_clock
    }

    /// Orthodox legal moves of the side to move (used for orthodox perft; Flickering
    /// chess moves are generated by [`crate::chess::Series`]).
    pub fn legal_moves(&self) -> MoveList {
        let mut pseudo = MoveList::new();
        self.generate_pseudo(0, &mut pseudo);
        pseudo.retain(|m| self.keeps_king_safe(*m));
        pseudo
    }

    /// Whether the mover's king is not attacked after `m` (orthodox legality).
    fn keeps_king_safe(&self, m: Move) -> bool {
        let mut after = self.clone();
        after.apply_pieces(m);
        !after.is_attacked(after.kings[self.turn.index()], !self.turn)
    }

    /// Whether `m` is an orthodox legal move.
    pub fn is_legal(&self, m: Move) -> bool {
        self.legal_moves().contains(&m)
    }

    /// Plays an orthodox legal move.
    ///
    /// # Errors
    ///
    /// A [`PlayError`] with the reason and the unchanged position if `m` is not legal.
    pub fn play(self, m: Move) -> Result<Position, PlayError> {
        if self.is_legal(m) {
            let mut pos = self;
            pos.play_unchecked(m);
            Ok(pos)
        } else {
            let mut pseudo = MoveList::new();
            self.generate_pseudo(0, &mut pseudo);
            let kind = if pseudo.contains(&m) {
                IllegalMoveKind::LeavesKingInCheck
            } else {
                IllegalMoveKind::NotAMove
            };
            Err(PlayError { kind, position: Box::new(self) })
        }
    }

    /// Plays an orthodox move without checking it.
    ///
    /// # Panics
    ///
    /// Does not panic, but an illegal `m` leaves a position that breaks the invariants
    /// of [`Position`] (e.g. a side in check not to move); only pass legal moves.
    pub fn play_unchecked(&mut self, m: Move) {
        let us = self.turn;
        let double_step = self.board[m.from.index()].is_some_and(|p| p.role == Role::Pawn)
            && m.from.rank().abs_diff(m.to.rank()) == 2;
        let resets = self.apply_pieces(m);
        let mut ep = SquareSet::EMPTY;
        if double_step {
            if let Some(target) = m.from.offset(0, forward(us)) {
                if self.enemy_pawn_beside(m.to, !us) {
                    ep.insert(target);
                }
            }
        }
        self.set_en_passant(ep);
        let half = if resets { 0 } else { self.halfmove_clock.saturating_add(1) };
        let full =
            if us == Color::Second { self.fullmove_number.saturating_add(1) } else { self.fullmove_number };
        self.set_counters(half, full);
        self.set_turn(!us);
    }

    /// Whether a pawn of `capturer` stands beside `sq` on the same rank.
    pub(crate) fn enemy_pawn_beside(&self, sq: Square, capturer: Color) -> bool {
        [-1, 1].into_iter().any(|df| {
            sq.offset(df, 0)
                .is_some_and(|s| self.board[s.index()] == Some(Piece { color: capturer, role: Role::Pawn }))
        })
    }

    /// The orthodox end of the game by the basic rules: checkmate or stalemate.
    pub fn outcome_by_basic_rules(&self) -> Option<Outcome> {
        if !self.legal_moves().is_empty() {
            return None;
        }
        Some(if self.is_check() {
            Outcome::win(!self.turn, EndReason::Checkmate)
        } else {
            Outcome::draw(EndReason::Stalemate)
        })
    }
}

/// Orthodox perft: the number of leaves of the legal move tree of depth `depth`.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
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
