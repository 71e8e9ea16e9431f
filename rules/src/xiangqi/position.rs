//! Setups, validated positions, move generation, legality and perft.

use std::fmt;

use arrayvec::ArrayVec;

use super::tables::{
    Steps, ADVISOR_STEPS, ELEPHANT_STEPS, HORSE_ATTACKERS, HORSE_STEPS, KING_HORSE_LEGS, KING_LINES,
    KING_STEPS, RAYS, ZOBRIST_BLACK_TO_MOVE, ZOBRIST_PIECES,
};
use super::types::{Move, Piece, Role, Square, SquareSet, SQUARES};
use crate::{Color, EndReason, Outcome};

/// Upper bound of the number of legal moves in any position (2x17 chariot moves,
/// 2x17 cannon moves, 2x8 horse moves, 4+4+4 advisor/elephant/king moves per pair,
/// 5x3 soldier moves = 119).
pub const MAX_MOVES: usize = 128;

/// A list of moves that lives on the stack.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// An unvalidated position: what a FEN says. Build a [`Position`] from it with
/// [`Position::from_setup`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The piece on each point, indexed by [`Square::index`].
    pub board: [Option<Piece>; SQUARES],
    /// The side to move.
    pub turn: Color,
    /// Moves (plies) since the last capture.
    pub halfmove_clock: u32,
    /// The move number, starting at 1 and increased after each Black move.
    pub fullmove_number: u32,
}

impl Setup {
    /// An empty board, Red to move, move 1.
    pub fn empty() -> Setup {
        Setup { board: [None; SQUARES], turn: Color::First, halfmove_clock: 0, fullmove_number: 1 }
    }

    /// The standard start position (`xiangqi.md` "Board and pieces").
    pub fn start() -> Setup {
        let mut setup = Setup::empty();
        let back = [
            Role::Chariot,
            Role::Horse,
            Role::Elephant,
            Role::Advisor,
            Role::King,
            Role::Advisor,
            Role::Elephant,
            Role::Horse,
            Role::Chariot,
        ];
        for color in Color::ALL {
            let rank = |r: u8| if color == Color::First { r } else { 9 - r };
            let mut put = |file: u8, r: u8, role: Role| {
                let sq = Square::new(file, rank(r)).expect("on the board");
                setup.board[sq.index()] = Some(Piece { color, role });
            };
            for (file, role) in back.iter().enumerate() {
                put(file as u8, 0, *role);
            }
            put(1, 2, Role::Cannon);
            put(7, 2, Role::Cannon);
            for file in [0, 2, 4, 6, 8] {
                put(file, 3, Role::Soldier);
            }
        }
        setup
    }

    /// The piece on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }
}

impl Default for Setup {
    fn default() -> Setup {
        Setup::start()
    }
}

/// Why a [`Setup`] is not a legal position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PositionError {
    /// A side has no king.
    MissingKing(Color),
    /// A side has more than one king.
    TooManyKings(Color),
    /// A king stands outside its palace.
    KingOutsidePalace(Square),
    /// An advisor stands on a point no advisor can reach.
    AdvisorOnImpossiblePoint(Square),
    /// An elephant stands on a point no elephant can reach.
    ElephantOnImpossiblePoint(Square),
    /// A soldier stands behind its start rank, or sideways from a start point on its
    /// own side of the river.
    SoldierOnImpossiblePoint(Square),
    /// A side has more pieces of a kind than it starts with.
    TooManyPieces {
        /// The side.
        color: Color,
        /// The kind of piece.
        role: Role,
    },
    /// The two kings face each other on an open file (`xiangqi.md` "Legality" 1).
    KingsFacing,
    /// The side not to move is in check: its king could be captured now.
    OppositeCheck,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = |c: &Color| if *c == Color::First { "red" } else { "black" };
        match self {
            PositionError::MissingKing(c) => write!(f, "{} has no king", side(c)),
            PositionError::TooManyKings(c) => write!(f, "{} has more than one king", side(c)),
            PositionError::KingOutsidePalace(sq) => write!(f, "king outside its palace on {sq}"),
            PositionError::AdvisorOnImpossiblePoint(sq) => write!(f, "advisor on an impossible point {sq}"),
            PositionError::ElephantOnImpossiblePoint(sq) => write!(f, "elephant on an impossible point {sq}"),
            PositionError::SoldierOnImpossiblePoint(sq) => write!(f, "soldier on an impossible point {sq}"),
            PositionError::TooManyPieces { color, role } => {
                write!(f, "{} has too many pieces of kind {:?}", side(color), role)
            }
            PositionError::KingsFacing => f.write_str("the kings face each other on an open file"),
            PositionError::OppositeCheck => f.write_str("the side not to move is in check"),
        }
    }
}

impl std::error::Error for PositionError {}

/// Why a move is illegal in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IllegalMoveKind {
    /// There is no piece on the origin point.
    NoPiece,
    /// The piece on the origin point belongs to the side not to move.
    WrongColor,
    /// The piece cannot move that way at all (wrong shape, out of its palace, across
    /// the river for an elephant, backwards for a soldier, origin equal to target).
    NotAMove,
    /// The target holds a piece of the mover's own side.
    CapturesOwnPiece,
    /// The way is blocked: a piece in a chariot's or cannon's path, a horse leg, an
    /// elephant eye, or a cannon capture without exactly one screen.
    Blocked,
    /// The move leaves the mover's king capturable (`xiangqi.md` "Legality" 2).
    LeavesKingInCheck,
    /// The move leaves the two kings facing on an open file (`xiangqi.md` "Legality" 1).
    FlyingGeneral,
}

impl fmt::Display for IllegalMoveKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IllegalMoveKind::NoPiece => "there is no piece on the origin point",
            IllegalMoveKind::WrongColor => "that piece belongs to the other side",
            IllegalMoveKind::NotAMove => "that piece cannot move that way",
            IllegalMoveKind::CapturesOwnPiece => "a piece cannot capture a piece of its own side",
            IllegalMoveKind::Blocked => "the way is blocked",
            IllegalMoveKind::LeavesKingInCheck => "the move leaves the king in check",
            IllegalMoveKind::FlyingGeneral => "the move leaves the two kings facing each other",
        })
    }
}

/// A move rejected by [`Position::play`]: the reason and the unchanged position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayError {
    /// The rejected move.
    pub mv: Move,
    /// Why it is illegal.
    pub kind: IllegalMoveKind,
    /// The position, handed back unchanged.
    pub position: Box<Position>,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move {}: {}", self.mv, self.kind)
    }
}

impl std::error::Error for PlayError {}

const fn code(color: Color, role: Role) -> u8 {
    Piece { color, role }.code()
}

#[inline]
fn bit(sq: usize) -> u128 {
    1u128 << sq
}

/// A legal Xiangqi position: a board that passed [`Position::from_setup`], the side to
/// move, the move counters and an incrementally updated Zobrist key.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Piece codes (see `Piece::code`), 0 for an empty point.
    board: [u8; SQUARES],
    /// Occupied points per colour.
    by_color: [u128; 2],
    /// King points per colour.
    kings: [u8; 2],
    turn: Color,
    halfmove_clock: u32,
    fullmove_number: u32,
    zobrist: u64,
}

impl Default for Position {
    fn default() -> Position {
        Position::new()
    }
}

/// xiangqi.md "Board and pieces": the advisor's five palace points, from the owner's side.
const ADVISOR_POINTS: [(u8, u8); 5] = [(3, 0), (5, 0), (4, 1), (3, 2), (5, 2)];
/// The elephant's seven points on its own side of the river.
const ELEPHANT_POINTS: [(u8, u8); 7] = [(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)];

/// `(file, rank)` seen from `color`'s side: rank 0 is that side's back rank.
fn relative(sq: Square, color: Color) -> (u8, u8) {
    match color {
        Color::First => (sq.file(), sq.rank()),
        Color::Second => (sq.file(), 9 - sq.rank()),
    }
}

impl Position {
    /// The standard start position, Red to move.
    pub fn new() -> Position {
        Position::from_setup(Setup::start()).expect("the start position is legal")
    }

    /// Validates a setup.
    ///
    /// # Errors
    ///
    /// The first [`PositionError`] found, in this order: kings (missing, too many,
    /// outside the palace), pieces on impossible points, too many pieces of a kind,
    /// kings facing, the side not to move in check.
    pub fn from_setup(setup: Setup) -> Result<Position, PositionError> {
        let mut board = [0u8; SQUARES];
        let mut by_color = [0u128; 2];
        let mut kings = [None::<u8>; 2];
        let mut counts = [[0u8; 7]; 2];
        let mut zobrist = 0u64;
        for sq in Square::all() {
            let Some(piece) = setup.board[sq.index()] else { continue };
            let c = piece.color.index();
            counts[c][piece.role.index()] = counts[c][piece.role.index()].saturating_add(1);
            let (rf, rr) = relative(sq, piece.color);
            match piece.role {
                Role::King => {
                    if kings[c].is_some() {
                        return Err(PositionError::TooManyKings(piece.color));
                    }
                    kings[c] = Some(sq.index() as u8);
                }
                Role::Advisor if !ADVISOR_POINTS.contains(&(rf, rr)) => {
                    return Err(PositionError::AdvisorOnImpossiblePoint(sq));
                }
                Role::Elephant if !ELEPHANT_POINTS.contains(&(rf, rr)) => {
                    return Err(PositionError::ElephantOnImpossiblePoint(sq));
                }
                // A soldier never moves backwards and moves sideways only after crossing
                // the river (xiangqi.md "Moves"): on its own side it stays on its start file.
                Role::Soldier if rr < 3 || (rr <= 4 && rf % 2 == 1) => {
                    return Err(PositionError::SoldierOnImpossiblePoint(sq));
                }
                _ => {}
            }
            board[sq.index()] = piece.code();
            by_color[c] |= bit(sq.index());
            zobrist ^= ZOBRIST_PIECES[piece.code() as usize][sq.index()];
        }
        let mut king_squares = [0u8; 2];
        for color in Color::ALL {
            let Some(k) = kings[color.index()] else { return Err(PositionError::MissingKing(color)) };
            let sq = Square::from_index(k).expect("board index");
            if !sq.in_palace(color) {
                return Err(PositionError::KingOutsidePalace(sq));
            }
            king_squares[color.index()] = k;
        }
        for color in Color::ALL {
            for role in Role::ALL {
                if counts[color.index()][role.index()] > role.max_count() {
                    return Err(PositionError::TooManyPieces { color, role });
                }
            }
        }
        if setup.turn == Color::Second {
            zobrist ^= ZOBRIST_BLACK_TO_MOVE;
        }
        let pos = Position {
            board,
            by_color,
            kings: king_squares,
            turn: setup.turn,
            halfmove_clock: setup.halfmove_clock,
            fullmove_number: setup.fullmove_number.max(1),
            zobrist,
        };
        if kings_facing(&pos.board, pos.kings) {
            return Err(PositionError::KingsFacing);
        }
        let them = pos.turn.other();
        if king_attacked(&pos.board, pos.kings[them.index()] as usize, them) {
            return Err(PositionError::OppositeCheck);
        }
        Ok(pos)
    }

    /// The position as plain data.
    pub fn to_setup(&self) -> Setup {
        let mut board = [None; SQUARES];
        for (i, c) in self.board.iter().enumerate() {
            board[i] = Piece::from_code(*c);
        }
        Setup {
            board,
            turn: self.turn,
            halfmove_clock: self.halfmove_clock,
            fullmove_number: self.fullmove_number,
        }
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Plies since the last capture.
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove_clock
    }

    /// The move number (1 at the start, increased after each Black move).
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove_number
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Piece::from_code(self.board[sq.index()])
    }

    /// The point of `color`'s king.
    pub fn king(&self, color: Color) -> Square {
        Square::from_index(self.kings[color.index()]).expect("king on the board")
    }

    /// The points occupied by `color`'s pieces.
    pub fn occupied_by(&self, color: Color) -> SquareSet {
        SquareSet(self.by_color[color.index()])
    }

    /// The Zobrist hash of the board and side to move (not the move counters),
    /// updated incrementally by [`Position::play_unchecked`].
    #[inline]
    pub fn zobrist(&self) -> u64 {
        self.zobrist
    }

    /// Every legal move of the side to move.
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.generate_pseudo(&mut moves);
        let us = self.turn;
        let mut board = self.board;
        let king = self.kings[us.index()] as usize;
        // A move that neither leaves nor enters the king's file or rank and does not leave
        // a horse leg next to it cannot expose the king when it is not in check now: line
        // attacks (chariot, cannon screens, the flying general) only see occupancy on those
        // lines, horse checks only their legs, and a capture off them only removes an
        // attacker. Every other move is tried on the board.
        let (lines, legs) = (KING_LINES[king], KING_HORSE_LEGS[king]);
        let in_check = king_attacked(&board, king, us);
        moves.retain(|m| {
            let (from, to) = (m.from.index(), m.to.index());
            if !in_check && from != king && (lines | legs) & bit(from) == 0 && lines & bit(to) == 0 {
                return true;
            }
            let ksq = if from == king { to } else { king };
            is_safe_after(&mut board, from, to, ksq, us)
        });
        moves
    }

    /// The legal moves of the piece on `sq` (empty if it is not the mover's).
    pub fn legal_moves_from(&self, sq: Square) -> MoveList {
        let mut moves = self.legal_moves();
        moves.retain(|m| m.from == sq);
        moves
    }

    /// Whether `m` is legal.
    pub fn is_legal(&self, m: Move) -> bool {
        self.illegal_move_kind(m).is_none()
    }

    /// Why `m` is illegal, or `None` if it is legal.
    pub fn illegal_move_kind(&self, m: Move) -> Option<IllegalMoveKind> {
        let (from, to) = (m.from.index(), m.to.index());
        let Some(piece) = Piece::from_code(self.board[from]) else { return Some(IllegalMoveKind::NoPiece) };
        let us = self.turn;
        if piece.color != us {
            return Some(IllegalMoveKind::WrongColor);
        }
        if from == to {
            return Some(IllegalMoveKind::NotAMove);
        }
        if self.by_color[us.index()] & bit(to) != 0 {
            return Some(IllegalMoveKind::CapturesOwnPiece);
        }
        if let Some(kind) = self.shape_error(piece, m) {
            return Some(kind);
        }
        let mut board = self.board;
        board[to] = board[from];
        board[from] = 0;
        let mut kings = self.kings;
        if piece.role == Role::King {
            kings[us.index()] = to as u8;
        }
        // xiangqi.md "Legality" 1 before 2: a move that opens the file between the kings
        // is reported as a flying-general violation.
        if kings_facing(&board, kings) {
            Some(IllegalMoveKind::FlyingGeneral)
        } else if king_attacked(&board, kings[us.index()] as usize, us) {
            Some(IllegalMoveKind::LeavesKingInCheck)
        } else {
            None
        }
    }

    /// Whether the piece could make the move on this board, ignoring king safety.
    fn shape_error(&self, piece: Piece, m: Move) -> Option<IllegalMoveKind> {
        let (from, to) = (m.from.index(), m.to.index());
        let steps = |t: &Steps, check_block: bool| {
            for i in 0..t.len as usize {
                if t.to[i] as usize == to {
                    if check_block && self.board[t.block[i] as usize] != 0 {
                        return Some(IllegalMoveKind::Blocked);
                    }
                    return None;
                }
            }
            Some(IllegalMoveKind::NotAMove)
        };
        match piece.role {
            Role::King if m.to.in_palace(piece.color) => steps(&KING_STEPS[from], false),
            Role::Advisor if m.to.in_palace(piece.color) => steps(&ADVISOR_STEPS[from], false),
            Role::King | Role::Advisor => Some(IllegalMoveKind::NotAMove),
            Role::Elephant => steps(&ELEPHANT_STEPS[from], true),
            Role::Horse => steps(&HORSE_STEPS[from], true),
            Role::Chariot | Role::Cannon => {
                if m.from.file() != m.to.file() && m.from.rank() != m.to.rank() {
                    return Some(IllegalMoveKind::NotAMove);
                }
                let between = self.pieces_between(m.from, m.to);
                let capture = self.board[to] != 0;
                // xiangqi.md "Moves": the cannon captures only over exactly one screen.
                let ok = match (piece.role, capture) {
                    (Role::Cannon, true) => between == 1,
                    _ => between == 0,
                };
                if ok {
                    None
                } else {
                    Some(IllegalMoveKind::Blocked)
                }
            }
            Role::Soldier => {
                let forward: i32 = if piece.color == Color::First { 1 } else { -1 };
                let df = i32::from(m.to.file()) - i32::from(m.from.file());
                let dr = i32::from(m.to.rank()) - i32::from(m.from.rank());
                let crossed = !m.from.on_own_side(piece.color);
                if (df == 0 && dr == forward) || (crossed && dr == 0 && df.abs() == 1) {
                    None
                } else {
                    Some(IllegalMoveKind::NotAMove)
                }
            }
        }
    }

    /// Number of pieces strictly between two points of one line.
    fn pieces_between(&self, a: Square, b: Square) -> u32 {
        let (lo, hi) = if a < b { (a.index(), b.index()) } else { (b.index(), a.index()) };
        let step = if a.rank() == b.rank() { 1 } else { 9 };
        (lo + step..hi).step_by(step).filter(|&i| self.board[i] != 0).count() as u32
    }

    /// Plays a legal move.
    ///
    /// # Errors
    ///
    /// A [`PlayError`] with the [`IllegalMoveKind`] and the unchanged position if `m`
    /// is illegal.
    pub fn play(mut self, m: Move) -> Result<Position, PlayError> {
        match self.illegal_move_kind(m) {
            Some(kind) => Err(PlayError { mv: m, kind, position: Box::new(self) }),
            None => {
                self.play_unchecked(m);
                Ok(self)
            }
        }
    }

    /// Plays a move without checking its legality.
    ///
    /// # Panics
    ///
    /// Panics if there is no piece of the side to move on `m.from`. Any other illegal
    /// move leaves a position that may break the invariants of [`Position`].
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) {
        let (from, to) = (m.from.index(), m.to.index());
        let us = self.turn;
        let moving = self.board[from];
        assert!(
            self.by_color[us.index()] & bit(from) != 0,
            "play_unchecked: no piece of the side to move on {}",
            m.from
        );
        let captured = self.board[to];
        if captured != 0 {
            self.zobrist ^= ZOBRIST_PIECES[captured as usize][to];
            self.by_color[us.other().index()] &= !bit(to);
            self.halfmove_clock = 0;
        } else {
            self.halfmove_clock = self.halfmove_clock.saturating_add(1);
        }
        self.zobrist ^= ZOBRIST_PIECES[moving as usize][from] ^ ZOBRIST_PIECES[moving as usize][to];
        self.zobrist ^= ZOBRIST_BLACK_TO_MOVE;
        self.board[to] = moving;
        self.board[from] = 0;
        self.by_color[us.index()] ^= bit(from) | bit(to);
        if moving == code(us, Role::King) {
            self.kings[us.index()] = to as u8;
        }
        if us == Color::Second {
            self.fullmove_number = self.fullmove_number.saturating_add(1);
        }
        self.turn = us.other();
    }

    /// Whether the side to move is in check (its king could be captured, including by
    /// the flying general; `xiangqi.md` "CXQ supplementary rules", Check).
    pub fn is_check(&self) -> bool {
        let us = self.turn;
        king_attacked(&self.board, self.kings[us.index()] as usize, us)
    }

    /// Whether the legal move `m` gives check (the opponent's king could be captured
    /// after it, including through the flying-general line). False, without panicking,
    /// when no piece of the side to move stands on `m.from`.
    pub fn gives_check(&self, m: Move) -> bool {
        if self.by_color[self.turn.index()] & bit(m.from.index()) == 0 {
            return false;
        }
        let mut after = self.clone();
        after.play_unchecked(m);
        after.is_check()
    }

    /// The enemy pieces that give check to the side to move.
    pub fn checkers(&self) -> SquareSet {
        self.attackers(self.king(self.turn), self.turn.other())
    }

    /// The end of the game by the basic rules: with no legal move the side to move loses,
    /// by [`EndReason::Checkmate`] if in check, else by [`EndReason::Stalemate`]
    /// (`xiangqi.md` "Legality" 3: stalemate counts as mate).
    pub fn outcome_by_basic_rules(&self) -> Option<Outcome> {
        if !self.legal_moves().is_empty() {
            return None;
        }
        let reason = if self.is_check() { EndReason::Checkmate } else { EndReason::Stalemate };
        Some(Outcome::win(self.turn.other(), reason))
    }

    /// The points the piece on `sq` attacks: where it could capture an enemy piece if one
    /// stood there, on this board, ignoring pins and king safety. Chariot and cannon
    /// lines include the empty points they sweep and the first piece they meet (for a
    /// cannon: the points beyond its screen up to and including the next piece). The
    /// king attacks its palace neighbours, and the enemy king on an open file (flying
    /// general). Empty for an empty point.
    pub fn attacks_from(&self, sq: Square) -> SquareSet {
        let Some(piece) = self.piece_at(sq) else { return SquareSet::EMPTY };
        let from = sq.index();
        let mut set = 0u128;
        let steps = |t: &Steps, check_block: bool, set: &mut u128| {
            for i in 0..t.len as usize {
                if !check_block || self.board[t.block[i] as usize] == 0 {
                    *set |= bit(t.to[i] as usize);
                }
            }
        };
        match piece.role {
            Role::King => {
                steps(&KING_STEPS[from], false, &mut set);
                let enemy = self.kings[piece.color.other().index()];
                if kings_facing(&self.board, self.kings) {
                    set |= bit(enemy as usize);
                }
            }
            Role::Advisor => steps(&ADVISOR_STEPS[from], false, &mut set),
            Role::Elephant => steps(&ELEPHANT_STEPS[from], true, &mut set),
            Role::Horse => steps(&HORSE_STEPS[from], true, &mut set),
            Role::Chariot | Role::Cannon => {
                let screens_needed = usize::from(piece.role == Role::Cannon);
                for (len, ray) in RAYS[from] {
                    let mut seen = 0;
                    for &t in &ray[..len as usize] {
                        let t = t as usize;
                        if seen == screens_needed {
                            set |= bit(t);
                        }
                        if self.board[t] != 0 {
                            seen += 1;
                            if seen > screens_needed {
                                break;
                            }
                        }
                    }
                }
            }
            Role::Soldier => {
                let (f, r) = (sq.file(), sq.rank());
                let fwd = if piece.color == Color::First { r.checked_add(1) } else { r.checked_sub(1) };
                if let Some(t) = fwd.and_then(|r| Square::new(f, r)) {
                    set |= bit(t.index());
                }
                if !sq.on_own_side(piece.color) {
                    for t in [f.checked_sub(1), f.checked_add(1)]
                        .into_iter()
                        .flatten()
                        .filter_map(|f| Square::new(f, r))
                    {
                        set |= bit(t.index());
                    }
                }
            }
        }
        SquareSet(set)
    }

    /// The pieces of `by` that attack `sq` (see [`Position::attacks_from`]).
    pub fn attackers(&self, sq: Square, by: Color) -> SquareSet {
        self.occupied_by(by).filter(|&from| self.attacks_from(from).contains(sq)).collect()
    }

    /// Whether the piece on `sq` is pinned: its king is not attacked now, but would be if
    /// the piece left the board (including by opening the file between the kings).
    /// Always false for an empty point or a king.
    pub fn is_pinned(&self, sq: Square) -> bool {
        let Some(piece) = self.piece_at(sq) else { return false };
        if piece.role == Role::King {
            return false;
        }
        let color = piece.color;
        let king = self.kings[color.index()] as usize;
        if king_attacked(&self.board, king, color) {
            return false;
        }
        let mut board = self.board;
        board[sq.index()] = 0;
        king_attacked(&board, king, color)
    }

    /// Pseudo-legal moves of the side to move (king safety not checked).
    fn generate_pseudo(&self, moves: &mut MoveList) {
        let us = self.turn;
        let own = self.by_color[us.index()];
        let board = &self.board;
        let push = |moves: &mut MoveList, from: usize, to: usize| {
            // Squares come from the tables, always below 90.
            moves.push(Move { from: sq_unchecked(from), to: sq_unchecked(to) });
        };
        let mut pieces = own;
        while pieces != 0 {
            let from = pieces.trailing_zeros() as usize;
            pieces &= pieces - 1;
            let role = Role::ALL[usize::from((board[from] - 1) % 7)];
            match role {
                // King, advisor: palace-bound tables.
                Role::King | Role::Advisor => {
                    let t = if role == Role::King { &KING_STEPS[from] } else { &ADVISOR_STEPS[from] };
                    for i in 0..t.len as usize {
                        let to = t.to[i] as usize;
                        if own & bit(to) == 0 {
                            push(moves, from, to);
                        }
                    }
                }
                // Elephant, horse: blocked by the eye / leg.
                Role::Elephant | Role::Horse => {
                    let t = if role == Role::Elephant { &ELEPHANT_STEPS[from] } else { &HORSE_STEPS[from] };
                    for i in 0..t.len as usize {
                        let to = t.to[i] as usize;
                        if own & bit(to) == 0 && board[t.block[i] as usize] == 0 {
                            push(moves, from, to);
                        }
                    }
                }
                Role::Chariot => {
                    for (len, ray) in &RAYS[from] {
                        for &t in &ray[..*len as usize] {
                            let to = t as usize;
                            if board[to] == 0 {
                                push(moves, from, to);
                            } else {
                                if own & bit(to) == 0 {
                                    push(moves, from, to);
                                }
                                break;
                            }
                        }
                    }
                }
                // xiangqi.md "Moves": the cannon moves like a chariot and captures by
                // jumping exactly one screen.
                Role::Cannon => {
                    for (len, ray) in &RAYS[from] {
                        let ray = &ray[..*len as usize];
                        let mut i = 0;
                        while i < ray.len() && board[ray[i] as usize] == 0 {
                            push(moves, from, ray[i] as usize);
                            i += 1;
                        }
                        // ray[i] is the screen; capture the next piece beyond it.
                        i += 1;
                        while i < ray.len() {
                            let to = ray[i] as usize;
                            if board[to] != 0 {
                                if own & bit(to) == 0 {
                                    push(moves, from, to);
                                }
                                break;
                            }
                            i += 1;
                        }
                    }
                }
                // xiangqi.md "Moves": a soldier steps forward, sideways too once across the
                // river, never backwards; on the last rank only sideways; no promotion.
                Role::Soldier => {
                    let (f, r) = (from % 9, from / 9);
                    let (forward, crossed) = match us {
                        Color::First => (if r < 9 { Some(from + 9) } else { None }, r >= 5),
                        Color::Second => (if r > 0 { Some(from - 9) } else { None }, r <= 4),
                    };
                    if let Some(to) = forward {
                        if own & bit(to) == 0 {
                            push(moves, from, to);
                        }
                    }
                    if crossed {
                        if f > 0 && own & bit(from - 1) == 0 {
                            push(moves, from, from - 1);
                        }
                        if f < 8 && own & bit(from + 1) == 0 {
                            push(moves, from, from + 1);
                        }
                    }
                }
            }
        }
    }
}

#[inline]
fn sq_unchecked(i: usize) -> Square {
    match Square::from_index(i as u8) {
        Some(sq) => sq,
        None => unreachable!("table squares are on the board"),
    }
}

/// Makes `from -> to` on `board`, tests the mover's king on `ksq`, and undoes it.
#[inline]
fn is_safe_after(board: &mut [u8; SQUARES], from: usize, to: usize, ksq: usize, us: Color) -> bool {
    let captured = board[to];
    board[to] = board[from];
    board[from] = 0;
    let safe = !king_attacked(board, ksq, us);
    board[from] = board[to];
    board[to] = captured;
    safe
}

/// Whether the two kings stand on one file with nothing between them.
fn kings_facing(board: &[u8; SQUARES], kings: [u8; 2]) -> bool {
    let (a, b) = (kings[0] as usize, kings[1] as usize);
    if a % 9 != b % 9 {
        return false;
    }
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    (lo + 9..hi).step_by(9).all(|i| board[i] == 0)
}

/// Whether `color`'s king on `ksq` could be captured by the other side: by a chariot,
/// cannon (over one screen), horse (leg free) or soldier, or by the other king on an
/// open file (`xiangqi.md` "Legality" 1 and 2). Advisors and elephants never reach
/// the enemy palace, and the kings never stand side by side.
#[inline]
fn king_attacked(board: &[u8; SQUARES], ksq: usize, color: Color) -> bool {
    let them = color.other();
    let chariot = code(them, Role::Chariot);
    let cannon = code(them, Role::Cannon);
    let king = code(them, Role::King);
    for (dir, (len, ray)) in RAYS[ksq].iter().enumerate() {
        let ray = &ray[..*len as usize];
        let mut i = 0;
        while i < ray.len() && board[ray[i] as usize] == 0 {
            i += 1;
        }
        if i == ray.len() {
            continue;
        }
        let first = board[ray[i] as usize];
        // Directions 2 and 3 are north and south: the flying general.
        if first == chariot || (dir >= 2 && first == king) {
            return true;
        }
        i += 1;
        while i < ray.len() && board[ray[i] as usize] == 0 {
            i += 1;
        }
        if i < ray.len() && board[ray[i] as usize] == cannon {
            return true;
        }
    }
    let horse = code(them, Role::Horse);
    let t = &HORSE_ATTACKERS[ksq];
    for i in 0..t.len as usize {
        if board[t.to[i] as usize] == horse && board[t.block[i] as usize] == 0 {
            return true;
        }
    }
    let soldier = code(them, Role::Soldier);
    let (f, r) = (ksq % 9, ksq / 9);
    // An enemy soldier attacks from the point "behind" the king from its own point of
    // view, or from the side once it has crossed the river (it always has, in a palace).
    let behind = match them {
        Color::First => ksq.checked_sub(9),
        Color::Second => (r < 9).then_some(ksq + 9),
    };
    if behind.is_some_and(|b| board[b] == soldier) {
        return true;
    }
    let crossed = match them {
        Color::First => r >= 5,
        Color::Second => r <= 4,
    };
    crossed && ((f > 0 && board[ksq - 1] == soldier) || (f < 8 && board[ksq + 1] == soldier))
}

/// Counts the leaves of the legal move tree of depth `depth` (1 for depth 0).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.legal_moves().len() as u64,
        _ => {
            let mut total = 0;
            for m in pos.legal_moves() {
                let mut child = pos.clone();
                child.play_unchecked(m);
                total += perft(&child, depth - 1);
            }
            total
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::xiangqi::fen;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    fn mv(s: &str) -> Move {
        Move::new(sq(&s[..2]), sq(&s[2..]))
    }

    fn setup(board: &str) -> Setup {
        fen::parse_setup(board).unwrap()
    }

    /// A small deterministic generator for playouts.
    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }

    #[test]
    fn the_start_position_has_44_moves_and_no_check() {
        let pos = Position::new();
        assert_eq!(pos.legal_moves().len(), 44);
        assert!(!pos.is_check());
        assert!(pos.checkers().is_empty());
        assert_eq!(pos.outcome_by_basic_rules(), None);
    }

    #[test]
    fn setups_with_impossible_material_are_rejected_with_their_reason() {
        let cases = [
            ("9/9/9/9/9/9/9/9/9/4K4 w", PositionError::MissingKing(Color::Second), "no black king"),
            ("3k5/9/9/9/9/9/9/9/9/9 w", PositionError::MissingKing(Color::First), "no red king"),
            ("3k1k3/9/9/9/9/9/9/9/9/4K4 w", PositionError::TooManyKings(Color::Second), "two black kings"),
            ("3k5/9/9/9/9/9/4K4/9/9/9 w", PositionError::KingOutsidePalace(sq("e3")), "king e3"),
            ("3k5/9/9/9/9/9/9/9/9/4K1A2 w", PositionError::AdvisorOnImpossiblePoint(sq("g0")), "advisor g0"),
            (
                "3k5/9/9/9/9/4B4/9/9/9/4K4 w",
                PositionError::ElephantOnImpossiblePoint(sq("e4")),
                "elephant e4",
            ),
            ("3k5/9/9/9/9/9/9/9/4P4/4K4 w", PositionError::SoldierOnImpossiblePoint(sq("e1")), "soldier e1"),
            ("3k5/9/9/9/9/9/1P7/9/9/4K4 w", PositionError::SoldierOnImpossiblePoint(sq("b3")), "soldier b3"),
            (
                "3k5/9/9/9/RRR6/9/9/9/9/4K4 w",
                PositionError::TooManyPieces { color: Color::First, role: Role::Chariot },
                "three chariots",
            ),
            ("4k4/9/9/9/9/9/9/9/9/4K4 w", PositionError::KingsFacing, "kings facing"),
            ("3k5/9/9/9/9/9/9/9/9/3RK4 w", PositionError::OppositeCheck, "black in check, red to move"),
        ];
        for (board, expected, msg) in cases {
            assert_eq!(Position::from_setup(setup(board)), Err(expected), "{msg}");
        }
        // A soldier that crossed the river may stand on any file.
        assert!(Position::from_setup(setup("3k5/9/9/1P7/9/9/9/9/9/4K4 w")).is_ok());
    }

    #[test]
    fn illegal_moves_carry_their_reason() {
        let pos = Position::new();
        let cases = [
            ("e4e5", IllegalMoveKind::NoPiece),
            ("e6e5", IllegalMoveKind::WrongColor),
            ("e0e0", IllegalMoveKind::NotAMove),
            ("a0a3", IllegalMoveKind::CapturesOwnPiece),
            ("a0a5", IllegalMoveKind::Blocked),
            ("b2b8", IllegalMoveKind::Blocked),
            ("b2c4", IllegalMoveKind::NotAMove),
            ("c0c2", IllegalMoveKind::NotAMove),
            ("e3e2", IllegalMoveKind::NotAMove),
            ("e3f3", IllegalMoveKind::NotAMove),
            ("d0d1", IllegalMoveKind::NotAMove),
        ];
        for (text, kind) in cases {
            assert_eq!(pos.illegal_move_kind(mv(text)), Some(kind), "{text}");
        }
        assert_eq!(pos.illegal_move_kind(mv("e0e1")), None);
        let err = pos.clone().play(mv("b0d1")).unwrap_err();
        assert_eq!(err.kind, IllegalMoveKind::Blocked);
        assert_eq!(*err.position, pos);
    }

    #[test]
    fn the_flying_general_and_pins_are_enforced() {
        // Red's horse on e3 is the only piece between the kings.
        let pos = Position::from_setup(setup("4k4/9/9/9/9/9/4N4/9/9/4K4 w")).unwrap();
        assert_eq!(pos.illegal_move_kind(mv("e3d5")), Some(IllegalMoveKind::FlyingGeneral));
        assert!(pos.is_legal(mv("e0d0")));
        assert!(pos.is_pinned(sq("e3")));
        // A black chariot pins Red's horse against the king.
        let pos = Position::from_setup(setup("3k5/9/9/9/4r4/9/9/9/4N4/4K4 w")).unwrap();
        assert_eq!(pos.illegal_move_kind(mv("e1d3")), Some(IllegalMoveKind::LeavesKingInCheck));
        assert!(pos.is_pinned(sq("e1")));
        assert!(!pos.is_pinned(sq("e0")));
    }

    #[test]
    fn mate_and_stalemate_lose_for_the_side_to_move() {
        // The rear cannon checks over the front one; chariots and the red king hold the rest.
        let mate = Position::from_setup(setup("4k4/R8/9/9/4C4/9/9/4C4/5R3/3K5 b")).unwrap();
        assert!(mate.is_check());
        assert_eq!(mate.outcome_by_basic_rules(), Some(Outcome::win(Color::First, EndReason::Checkmate)));
        // The same without the cannons: no check, and no move either.
        let stalemate = Position::from_setup(setup("4k4/R8/9/9/9/9/9/9/5R3/3K5 b")).unwrap();
        assert!(stalemate.legal_moves().is_empty(), "{:?}", stalemate.legal_moves());
        assert!(!stalemate.is_check());
        assert_eq!(
            stalemate.outcome_by_basic_rules(),
            Some(Outcome::win(Color::First, EndReason::Stalemate))
        );
    }

    #[test]
    fn attack_queries_see_cannon_screens() {
        let pos = Position::new();
        // Red's cannon on b2: the black cannon on b7 is the screen, the horse on b9 the target.
        let attacks = pos.attacks_from(sq("b2"));
        assert!(attacks.contains(sq("b9")));
        assert!(!attacks.contains(sq("b7")));
        assert!(!attacks.contains(sq("b5")) && attacks.contains(sq("b8")));
        assert!(pos.attackers(sq("b9"), Color::First).contains(sq("b2")));
        assert_eq!(pos.attackers(sq("e6"), Color::First).count(), 0);
        assert!(pos.attackers(sq("c6"), Color::Second).is_empty());
        assert!(pos.attackers(sq("e5"), Color::Second).contains(sq("e6")));
        // Horse legs and elephant eyes.
        let horse = pos.attacks_from(sq("b0"));
        assert_eq!(horse, [sq("a2"), sq("c2")].into_iter().collect(), "d1 is blocked by the elephant on c0");
        assert_eq!(pos.attacks_from(sq("c0")), [sq("a2"), sq("e2")].into_iter().collect());
        // A soldier attacks sideways only across the river.
        assert_eq!(pos.attacks_from(sq("c3")), [sq("c4")].into_iter().collect());
        let crossed = Position::from_setup(setup("3k5/9/9/9/2P6/9/9/9/9/4K4 w")).unwrap();
        assert_eq!(crossed.attacks_from(sq("c5")), [sq("b5"), sq("d5"), sq("c6")].into_iter().collect());
    }

    #[test]
    fn two_screens_before_a_cannon_are_both_pinned() {
        // Black cannon on e4; red chariot e2 and horse e1 stand between it and the king.
        let pos = Position::from_setup(setup("3k5/9/9/9/9/4c4/9/4R4/4N4/4K4 w")).unwrap();
        assert!(!pos.is_check());
        assert!(pos.is_pinned(sq("e1")) && pos.is_pinned(sq("e2")));
        assert_eq!(pos.illegal_move_kind(mv("e2d2")), Some(IllegalMoveKind::LeavesKingInCheck));
        assert!(pos.is_legal(mv("e2e3")), "moving along the line keeps two screens");
    }

    #[test]
    fn random_playouts_keep_legality_checks_and_zobrist_consistent() {
        let mut rng = Rng(0x1234_5678_9abc_def1);
        for _game in 0..40 {
            let mut pos = Position::new();
            for _ply in 0..150 {
                let moves = pos.legal_moves();
                // is_legal agrees with the generator on every move of every piece.
                for from in pos.occupied_by(pos.turn()) {
                    for to in Square::all() {
                        let m = Move::new(from, to);
                        assert_eq!(pos.is_legal(m), moves.contains(&m), "{m} in {}", fen::write(&pos));
                    }
                }
                let fresh = Position::from_setup(pos.to_setup()).unwrap();
                assert_eq!(fresh.zobrist(), pos.zobrist());
                assert_eq!(pos.is_check(), !pos.checkers().is_empty());
                for &m in &moves {
                    assert_eq!(pos.gives_check(m), pos.clone().play(m).unwrap().is_check());
                }
                if moves.is_empty() {
                    assert!(pos.outcome_by_basic_rules().is_some());
                    break;
                }
                let m = moves[rng.below(moves.len())];
                pos = pos.play(m).unwrap();
            }
        }
    }
}
