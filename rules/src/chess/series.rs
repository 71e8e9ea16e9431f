//! A Flickering chess turn: a series of moves of distinct pieces.
//!
//! # The rules of a series, as implemented
//!
//! - flickering-chess.md "The series": each piece moves at most once, in any order, at
//!   least one move; castling is the one move of both the king and the rook. A piece is
//!   tracked by the square it stands on: once it has moved, its new square is frozen for
//!   the rest of the series (and [`Series::moved_from`] keeps the squares it started on).
//! - A piece that had no move at the start may move once earlier moves of the series
//!   opened a way for it: every move is generated on the board as it stands.
//! - **Interpretation** of "the king never moves into check, at any point of the series":
//!   a king move (or castling) may not end on an attacked square, and castling keeps the
//!   orthodox conditions judged on the board at the moment it is played (king not
//!   attacked, crossed square not attacked). Moves of other pieces may expose the king
//!   for a while: the series only has to *end* with the king free ("At the end of a
//!   series, the player's own king must not be attacked"); that includes a pinned piece
//!   moving and a king attacked at the start of the series staying attacked until later
//!   moves remove every threat.
//! - "An attacking piece never captures the king": no move ever lands on the enemy king.
//! - **Interpretation** of "every pawn entitled to take en passant may do so within its
//!   series": every pawn the opponent double-stepped in their last series gives an en
//!   passant target for the whole of this series (the targets are the position's
//!   [`Position::en_passant`] squares); a pawn standing beside such a pawn may capture it
//!   en passant at any point of the series, as long as the double-stepped pawn is still
//!   on its square and the square behind it is empty. Several such captures may happen
//!   in one series (each by a different pawn). A pawn's double step in this series
//!   creates a target only for the opponent's next series.
//! - Several pawns may promote in one series, each to a piece of the player's choice.

use std::fmt;

use arrayvec::ArrayVec;

use super::position::{forward, MoveList, Position};
use super::types::{Move, MoveKind, Piece, Role, Square, SquareSet};
use crate::Color;

/// The most moves a series can have: each piece moves at most once, and a side has at
/// most 31 pieces (32 on the board with the enemy king).
pub const MAX_SERIES_LEN: usize = 31;

/// Why a move or a series was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeriesErrorKind {
    /// There is no piece of the player on the move's square.
    NoPieceToMove,
    /// The piece already moved in this series (flickering-chess.md "The series").
    PieceAlreadyMoved,
    /// The move would capture the enemy king ("An attacking piece never captures the king").
    CapturesKing,
    /// The king would move onto an attacked square ("The king never moves into check").
    KingIntoCheck,
    /// The piece cannot make this move on the board as it stands (blocked, wrong
    /// direction, castling without the right or through an attacked square...).
    NotAMove,
    /// A series must have at least one move.
    EmptySeries,
    /// The series ends with the player's king attacked.
    KingLeftAttacked,
    /// More moves than a series can have.
    TooManyMoves,
}

/// A refused move (with its index in the series) or a refused end of series.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeriesError {
    /// Why.
    pub kind: SeriesErrorKind,
    /// The index in the series of the move refused (the series length for errors about
    /// ending the series).
    pub index: usize,
}

impl fmt::Display for SeriesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.index + 1;
        match self.kind {
            SeriesErrorKind::NoPieceToMove => write!(f, "move {n}: no piece of the player to move there"),
            SeriesErrorKind::PieceAlreadyMoved => {
                write!(f, "move {n}: this piece already moved in the series")
            }
            SeriesErrorKind::CapturesKing => write!(f, "move {n}: a piece never captures the king"),
            SeriesErrorKind::KingIntoCheck => write!(f, "move {n}: the king may not move into check"),
            SeriesErrorKind::NotAMove => write!(f, "move {n}: the piece cannot move there"),
            SeriesErrorKind::EmptySeries => f.write_str("a series needs at least one move"),
            SeriesErrorKind::KingLeftAttacked => f.write_str("the series ends with the king attacked"),
            SeriesErrorKind::TooManyMoves => write!(f, "move {n}: a series has at most 31 moves"),
        }
    }
}

impl std::error::Error for SeriesError {}

/// One Flickering chess turn being built, move by move, from the [`Position`] at its start.
///
/// ```
/// use tavoliere_rules::chess::{Move, MoveKind, Position, Series, SeriesErrorKind};
/// let mut series = Series::new(Position::new());
/// assert!(!series.can_end()); // at least one move
/// let e4 = series.legal_next_moves().into_iter().find(|m| m.to.to_string() == "e4").unwrap();
/// series.push(e4).unwrap();
/// assert!(series.can_end());
/// let e5 = Move { from: e4.to, to: "e5".parse().unwrap(), kind: MoveKind::Normal };
/// assert_eq!(series.push(e5).unwrap_err().kind, SeriesErrorKind::PieceAlreadyMoved);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Series {
    start: Position,
    current: Position,
    frozen: SquareSet,
    moved_from: SquareSet,
    double_steps: SquareSet,
    resets_clock: bool,
    moves: ArrayVec<Move, MAX_SERIES_LEN>,
}

impl Series {
    /// An empty series for the side to move of `start`.
    pub fn new(start: Position) -> Series {
        Series {
            current: start.clone(),
            start,
            frozen: SquareSet::EMPTY,
            moved_from: SquareSet::EMPTY,
            double_steps: SquareSet::EMPTY,
            resets_clock: false,
            moves: ArrayVec::new(),
        }
    }

    /// The position at the start of the series.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The board after the moves so far. Its side to move is still the series' player,
    /// and its en passant targets are those of the start of the series.
    pub fn current(&self) -> &Position {
        &self.current
    }

    /// The player making the series.
    pub fn player(&self) -> Color {
        self.start.turn()
    }

    /// The moves so far, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The squares of the pieces that have moved, where they stand now (they may not move
    /// again in this series).
    pub fn frozen(&self) -> SquareSet {
        self.frozen
    }

    /// The squares the moved pieces started the series on.
    pub fn moved_from(&self) -> SquareSet {
        self.moved_from
    }

    /// The moves that may come next: moves of pieces not yet moved, never capturing the
    /// king, the king never moving onto an attacked square.
    pub fn legal_next_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        if self.moves.is_full() {
            return moves;
        }
        self.current.generate_pseudo(self.frozen.0, &mut moves);
        let us = self.player();
        moves.retain(|m| !self.is_king_move(*m) || self.king_lands_safely(*m, us));
        moves
    }

    /// Moves the pieces could make on the current board if none had moved yet and the
    /// king could move into check (for precise error messages).
    pub(crate) fn moves_ignoring_series_limits(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.current.generate_pseudo(0, &mut moves);
        moves
    }

    fn is_king_move(&self, m: Move) -> bool {
        self.current.piece_at(m.from).is_some_and(|p| p.role == Role::King)
    }

    /// flickering-chess.md "The series": the king never moves into check.
    fn king_lands_safely(&self, m: Move, us: Color) -> bool {
        let mut after = self.current.clone();
        after.apply_pieces(m);
        !after.is_attacked(m.to, !us)
    }

    /// Whether `m` may come next.
    pub fn is_legal_next(&self, m: Move) -> bool {
        self.check_next(m).is_ok()
    }

    fn check_next(&self, m: Move) -> Result<(), SeriesErrorKind> {
        let us = self.player();
        let index = self.moves.len();
        if index >= MAX_SERIES_LEN {
            return Err(SeriesErrorKind::TooManyMoves);
        }
        match self.current.piece_at(m.from) {
            Some(p) if p.color == us => {}
            _ => return Err(SeriesErrorKind::NoPieceToMove),
        }
        if self.frozen.contains(m.from) {
            return Err(SeriesErrorKind::PieceAlreadyMoved);
        }
        if self.current.piece_at(m.to).is_some_and(|p| p.color != us && p.role == Role::King) {
            return Err(SeriesErrorKind::CapturesKing);
        }
        let mut pseudo = MoveList::new();
        self.current.generate_pseudo(!m.from.bit(), &mut pseudo);
        if !pseudo.contains(&m) {
            return Err(SeriesErrorKind::NotAMove);
        }
        if self.is_king_move(m) && !self.king_lands_safely(m, us) {
            return Err(SeriesErrorKind::KingIntoCheck);
        }
        Ok(())
    }

    /// Plays the next move of the series.
    ///
    /// # Errors
    ///
    /// A [`SeriesError`] with the reason if `m` may not come next; the series is unchanged.
    pub fn push(&mut self, m: Move) -> Result<(), SeriesError> {
        self.check_next(m).map_err(|kind| SeriesError { kind, index: self.moves.len() })?;
        self.push_unchecked(m);
        Ok(())
    }

    /// Plays `m` without checking it (the search uses this with generated moves).
    pub(crate) fn push_unchecked(&mut self, m: Move) {
        let us = self.player();
        let piece = self.current.piece_at(m.from);
        if piece.is_some_and(|p| p.role == Role::Pawn) && m.from.rank().abs_diff(m.to.rank()) == 2 {
            if let Some(target) = m.from.offset(0, forward(us)) {
                self.double_steps.insert(target);
            }
        }
        self.resets_clock |= self.current.apply_pieces(m);
        self.moved_from.insert(m.from);
        self.frozen.insert(m.to);
        if let Some((rook_from, rook_to)) = m.castling_rook() {
            self.moved_from.insert(rook_from);
            self.frozen.insert(rook_to);
        }
        // `moves` has room: callers check the length or generate from a non-full series.
        let _ = self.moves.try_push(m);
    }

    /// Whether the series may end now: at least one move, and the player's king not attacked.
    pub fn can_end(&self) -> bool {
        !self.moves.is_empty() && !self.current.is_check()
    }

    /// Ends the series: the position with the opponent to play.
    ///
    /// The new en passant targets are the squares crossed by the pawns that double-stepped
    /// in this series, where the square is empty and an enemy pawn stands beside the pawn
    /// (no other target could ever be used in the opponent's series, whose moves do not
    /// touch this player's pieces).
    ///
    /// # Errors
    ///
    /// [`SeriesErrorKind::EmptySeries`] or [`SeriesErrorKind::KingLeftAttacked`].
    pub fn finish(&self) -> Result<Position, SeriesError> {
        let index = self.moves.len();
        if self.moves.is_empty() {
            return Err(SeriesError { kind: SeriesErrorKind::EmptySeries, index });
        }
        if self.current.is_check() {
            return Err(SeriesError { kind: SeriesErrorKind::KingLeftAttacked, index });
        }
        Ok(self.finish_unchecked())
    }

    pub(crate) fn finish_unchecked(&self) -> Position {
        let us = self.player();
        let mut next = self.current.clone();
        let targets: SquareSet = self
            .double_steps
            .iter()
            .filter(|&t| {
                next.piece_at(t).is_none()
                    && t.offset(0, forward(us)).is_some_and(|pawn_sq| {
                        next.piece_at(pawn_sq) == Some(Piece { color: us, role: Role::Pawn })
                            && next.enemy_pawn_beside(pawn_sq, !us)
                    })
            })
            .collect();
        next.set_en_passant(targets);
        let half = if self.resets_clock { 0 } else { self.start.halfmove_clock().saturating_add(1) };
        let full = match us {
            Color::First => self.start.fullmove_number(),
            Color::Second => self.start.fullmove_number().saturating_add(1),
        };
        next.set_counters(half, full);
        next.set_turn(!us);
        next
    }

    /// Plays a whole series from `start` and ends it.
    ///
    /// # Errors
    ///
    /// The first refused move, or a refused end of series.
    pub fn play(start: &Position, moves: &[Move]) -> Result<Position, SeriesError> {
        let mut series = Series::new(start.clone());
        for &m in moves {
            series.push(m)?;
        }
        series.finish()
    }

    /// Whether the move is a capture on the current board (including en passant).
    pub fn is_capture(&self, m: Move) -> bool {
        m.kind == MoveKind::EnPassant || self.current.piece_at(m.to).is_some() && m.kind != MoveKind::Castle
    }

    /// The squares of the player's pieces that may still move.
    pub(crate) fn movable_pieces(&self) -> SquareSet {
        let us = self.player();
        Square::all()
            .filter(|&sq| {
                !self.frozen.contains(sq) && self.current.piece_at(sq).is_some_and(|p| p.color == us)
            })
            .collect()
    }
}
