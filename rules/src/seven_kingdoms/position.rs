//! Setups, validated positions, move generation and play.

use std::fmt;

use arrayvec::ArrayVec;

use super::outcome::{EndCause, GameOutcome, HegemonyKind};
use super::{HorsemanRule, Kingdom, Move, Occupant, Piece, PieceKind, Point, Seat, Seating};

/// Room for every legal move of one kingdom: a full army in the open has at most 384 (448
/// with [`HorsemanRule::UpToThreeDiagonal`]), and setups cannot hold more than one army.
pub const MAX_MOVES: usize = 512;

/// The legal moves of the kingdom to move, without allocation.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// Army size: 17 pieces (`seven-kingdoms.md` "Board, players, pieces").
pub const ARMY_SIZE: u8 = 17;

/// `seven-kingdoms.md` "Defeat of a kingdom and victory": "more than ten" pieces lost, that is
/// eleven or more (**Interpretation**), defeats a kingdom.
pub const LOSSES_THAT_DEFEAT: u8 = 11;

/// Generals captured by one player that make them hegemon ("Defeat of a kingdom and victory").
pub const HEGEMONY_GENERALS: u32 = 2;

/// Pieces captured by one player that make them hegemon ("Defeat of a kingdom and victory").
pub const HEGEMONY_PIECES: u32 = 30;

/// Why a kingdom is out of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Defeat {
    /// Its general was captured by this kingdom.
    GeneralCaptured {
        /// The capturer.
        by: Kingdom,
    },
    /// It lost more than ten pieces (the eleventh was taken by this kingdom).
    PiecesLost {
        /// The kingdom that took the eleventh piece.
        by: Kingdom,
    },
    /// A kingdom of its own alliance attacked it (`seven-kingdoms.md` "Players and
    /// alliances": the attacking player loses that allied army).
    AllyAttack {
        /// The attacking kingdom of the same player.
        by: Kingdom,
    },
    /// Its player resigned.
    Resigned,
    /// Its player ran out of time in correspondence play.
    TimedOut,
}

/// One kingdom's tally: what it captured, what it lost, whether it is out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct KingdomRecord {
    /// Enemy pieces this kingdom captured (credited to it, "Defeat of a kingdom and victory").
    pub captured_pieces: u32,
    /// Enemy generals among them.
    pub captured_generals: u32,
    /// The historical value of the pieces it captured (the secondary score).
    pub captured_value: u32,
    /// Its own pieces captured by other kingdoms.
    pub lost: u8,
    /// Why it is out of the game, if it is.
    pub defeat: Option<Defeat>,
}

impl KingdomRecord {
    /// Whether the kingdom is out of the game.
    #[inline]
    pub const fn is_defeated(&self) -> bool {
        self.defeat.is_some()
    }
}

/// An unvalidated position: what a position text says. Only [`Position::from_setup`] makes it
/// playable.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The 361 points, indexed by [`Point::index`] (`y * 19 + x`).
    pub board: [Option<Occupant>; Point::COUNT],
    /// The kingdom to move.
    pub turn: Kingdom,
    /// Who commands which kingdom.
    pub seating: Seating,
    /// Each kingdom's tally, by [`Kingdom::index`].
    pub records: [KingdomRecord; 7],
    /// How far the horseman goes diagonally (a ruleset option).
    pub horseman: HorsemanRule,
}

/// One row of an army's layout: a piece kind at an offset in the kingdom's own frame.
type Layout = [(PieceKind, i32, i32); 17];

/// Chu's army (`seven-kingdoms.md` "Start position (reconstruction)"), as (kind, x, y).
const CHU_LAYOUT: Layout = {
    use PieceKind::*;
    [
        (Horseman, 2, 0),
        (Broadsword, 3, 0),
        (Officer, 4, 0),
        (General, 5, 0),
        (Deputy, 6, 0),
        (Broadsword, 7, 0),
        (Horseman, 8, 0),
        (Horseman, 3, 1),
        (Broadsword, 4, 1),
        (Catapult, 5, 1),
        (Broadsword, 6, 1),
        (Horseman, 7, 1),
        (Sword, 4, 2),
        (Crossbow, 5, 2),
        (Sword, 6, 2),
        (Archer, 5, 3),
        (Diplomat, 5, 4),
    ]
};

/// Qin's army ("Start position (reconstruction)"), as (kind, x, y).
const QIN_LAYOUT: Layout = {
    use PieceKind::*;
    [
        (Horseman, 0, 6),
        (Broadsword, 0, 7),
        (Officer, 0, 8),
        (General, 0, 9),
        (Deputy, 0, 10),
        (Broadsword, 0, 11),
        (Horseman, 0, 12),
        (Horseman, 1, 7),
        (Broadsword, 1, 8),
        (Catapult, 1, 9),
        (Broadsword, 1, 10),
        (Horseman, 1, 11),
        (Sword, 2, 8),
        (Crossbow, 2, 9),
        (Sword, 2, 10),
        (Archer, 3, 9),
        (Diplomat, 4, 9),
    ]
};

/// Qi's army ("Start position (reconstruction)"): note the deputy south of the general.
const QI_LAYOUT: Layout = {
    use PieceKind::*;
    [
        (Horseman, 18, 2),
        (Broadsword, 18, 3),
        (Deputy, 18, 4),
        (General, 18, 5),
        (Officer, 18, 6),
        (Broadsword, 18, 7),
        (Horseman, 18, 8),
        (Horseman, 17, 3),
        (Broadsword, 17, 4),
        (Catapult, 17, 5),
        (Broadsword, 17, 6),
        (Horseman, 17, 7),
        (Sword, 16, 4),
        (Crossbow, 16, 5),
        (Sword, 16, 6),
        (Archer, 15, 5),
        (Diplomat, 14, 5),
    ]
};

impl Setup {
    /// The start position (`seven-kingdoms.md` "Start position (reconstruction)") with the
    /// given seating; Qin moves first.
    pub fn start(seating: Seating) -> Setup {
        let mut board = [None; Point::COUNT];
        board[Point::CENTRE.index()] = Some(Occupant::Emperor);
        let mut place = |kingdom: Kingdom, layout: &Layout, map: &dyn Fn(i32, i32) -> (i32, i32)| {
            for &(kind, x, y) in layout {
                let (x, y) = map(x, y);
                if let Some(point) = Point::from_signed(x, y) {
                    board[point.index()] = Some(Occupant::Piece(Piece { kingdom, kind }));
                }
            }
        };
        place(Kingdom::Chu, &CHU_LAYOUT, &|x, y| (x, y));
        // Han: Chu's layout moved 8 points east.
        place(Kingdom::Han, &CHU_LAYOUT, &|x, y| (x + 8, y));
        // Yan: Chu's layout mirrored north (y -> 18 - y).
        place(Kingdom::Yan, &CHU_LAYOUT, &|x, y| (x, 18 - y));
        // Zhao: Yan's layout moved 8 points east.
        place(Kingdom::Zhao, &CHU_LAYOUT, &|x, y| (x + 8, 18 - y));
        place(Kingdom::Qin, &QIN_LAYOUT, &|x, y| (x, y));
        place(Kingdom::Qi, &QI_LAYOUT, &|x, y| (x, y));
        // Wei: Qi's layout moved 8 points north.
        place(Kingdom::Wei, &QI_LAYOUT, &|x, y| (x, y + 8));
        Setup {
            board,
            turn: Kingdom::Qin,
            seating,
            records: [KingdomRecord::default(); 7],
            horseman: HorsemanRule::default(),
        }
    }

    /// The occupant of `point`.
    #[inline]
    pub fn get(&self, point: Point) -> Option<Occupant> {
        self.board[point.index()]
    }

    /// Puts `occupant` (or nothing) on `point`.
    #[inline]
    pub fn set(&mut self, point: Point, occupant: Option<Occupant>) {
        self.board[point.index()] = occupant;
    }

    /// An empty board with the emperor, seven players, no kingdom defeated, Qin to move.
    pub fn empty() -> Setup {
        let mut board = [None; Point::COUNT];
        board[Point::CENTRE.index()] = Some(Occupant::Emperor);
        Setup {
            board,
            turn: Kingdom::Qin,
            seating: Seating::default(),
            records: [KingdomRecord::default(); 7],
            horseman: HorsemanRule::default(),
        }
    }
}

impl Default for Setup {
    /// The start position for seven players.
    fn default() -> Self {
        Setup::start(Seating::default())
    }
}

/// Why a [`Setup`] is not a playable position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The emperor is not at (9, 9) (`seven-kingdoms.md` "Board, players, pieces").
    MissingEmperor,
    /// An emperor stands somewhere other than (9, 9).
    ExtraEmperor(Point),
    /// More pieces of a kind than an army has.
    TooManyPieces {
        /// The army.
        kingdom: Kingdom,
        /// The kind.
        kind: PieceKind,
    },
    /// Pieces on the board plus pieces lost exceed the army's 17.
    ArmyTooLarge(Kingdom),
    /// A kingdom in play has no general on the board (a captured general defeats it).
    MissingGeneral(Kingdom),
    /// A kingdom in play has lost more than ten pieces (it would be defeated).
    TooManyLosses(Kingdom),
    /// A defeated kingdom still has pieces on the board (its army leaves the board).
    DefeatedArmyOnBoard(Kingdom),
    /// The kingdom to move is defeated while others are still in play.
    DefeatedKingdomToMove(Kingdom),
    /// Every kingdom is defeated.
    NoKingdomLeft,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::MissingEmperor => f.write_str("the emperor must stand at (9, 9)"),
            PositionError::ExtraEmperor(p) => write!(f, "a second emperor stands at {p}"),
            PositionError::TooManyPieces { kingdom, kind } => {
                write!(f, "{kingdom} has more than {} {}", kind.count_per_army(), kind.english())
            }
            PositionError::ArmyTooLarge(k) => write!(f, "{k} has more than {ARMY_SIZE} pieces"),
            PositionError::MissingGeneral(k) => write!(f, "{k} is in play without its general"),
            PositionError::TooManyLosses(k) => write!(f, "{k} has lost more than ten pieces"),
            PositionError::DefeatedArmyOnBoard(k) => write!(f, "{k} is defeated but has pieces on the board"),
            PositionError::DefeatedKingdomToMove(k) => write!(f, "{k} is defeated and cannot move"),
            PositionError::NoKingdomLeft => f.write_str("every kingdom is defeated"),
        }
    }
}

impl std::error::Error for PositionError {}

/// Why a move is not legal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IllegalMoveKind {
    /// The game is over.
    GameOver,
    /// Nothing stands on the origin.
    EmptyOrigin,
    /// The emperor never moves.
    EmperorNeverMoves,
    /// The piece on the origin belongs to another kingdom than the one to move.
    NotYourPiece {
        /// The kingdom to move.
        turn: Kingdom,
        /// The piece's kingdom.
        owner: Kingdom,
    },
    /// The target holds a piece of the moving kingdom.
    OwnPieceOnTarget,
    /// The target holds a diplomat, who can never be captured.
    DiplomatIsImmune,
    /// The target holds the emperor, who cannot be captured.
    EmperorIsImmune,
    /// A diplomat never captures.
    DiplomatNeverCaptures,
    /// The piece cannot go there: not its move, or its path is blocked (for a catapult's
    /// capture: not exactly one screen).
    NotAPieceMove,
}

impl fmt::Display for IllegalMoveKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMoveKind::GameOver => f.write_str("the game is over"),
            IllegalMoveKind::EmptyOrigin => f.write_str("no piece stands there"),
            IllegalMoveKind::EmperorNeverMoves => f.write_str("the emperor never moves"),
            IllegalMoveKind::NotYourPiece { turn, owner } => {
                write!(f, "that piece belongs to {owner}, and {turn} is to move")
            }
            IllegalMoveKind::OwnPieceOnTarget => f.write_str("a piece cannot capture its own army"),
            IllegalMoveKind::DiplomatIsImmune => f.write_str("a diplomat can never be captured"),
            IllegalMoveKind::EmperorIsImmune => f.write_str("the emperor cannot be captured"),
            IllegalMoveKind::DiplomatNeverCaptures => f.write_str("a diplomat never captures"),
            IllegalMoveKind::NotAPieceMove => f.write_str("the piece cannot move there"),
        }
    }
}

/// A rejected move and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PlayError {
    /// The move.
    pub mv: Move,
    /// Why it is illegal.
    pub kind: IllegalMoveKind,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}: {}", self.mv.from, self.mv.to, self.kind)
    }
}

impl std::error::Error for PlayError {}

/// A seat cannot be taken out of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SeatError {
    /// No such seat in this game.
    NoSuchSeat(Seat),
    /// Every kingdom of the seat is already defeated.
    AlreadyOut(Seat),
    /// The game is over.
    GameOver,
}

impl fmt::Display for SeatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SeatError::NoSuchSeat(s) => write!(f, "there is no {s} in this game"),
            SeatError::AlreadyOut(s) => write!(f, "{s} has no kingdom left in play"),
            SeatError::GameOver => f.write_str("the game is over"),
        }
    }
}

impl std::error::Error for SeatError {}

/// What a move did, beyond moving a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveEffect {
    /// The kingdom that moved.
    pub mover: Kingdom,
    /// The piece that moved.
    pub kind: PieceKind,
    /// The piece captured, if any.
    pub captured: Option<Piece>,
    /// Whether the capture was credited to the mover (not when it attacked its own alliance).
    pub credited: bool,
    /// The kingdom defeated by this move, if any (its army has left the board).
    pub defeated: Option<(Kingdom, Defeat)>,
}

const ORTHOGONAL: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
const DIAGONAL: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const ALL_DIRECTIONS: [(i32, i32); 8] =
    [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1)];

/// A playable position: board, turn, seating, tallies. Build it with [`Position::from_setup`]
/// or [`Position::new`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    board: [Option<Occupant>; Point::COUNT],
    turn: Kingdom,
    seating: Seating,
    records: [KingdomRecord; 7],
    horseman: HorsemanRule,
    end: Option<EndCause>,
}

impl Default for Position {
    fn default() -> Self {
        Position::new()
    }
}

impl Position {
    /// The start position for seven players, Qin to move.
    pub fn new() -> Position {
        Position::startpos(Seating::default())
    }

    /// The start position with the given seating.
    pub fn startpos(seating: Seating) -> Position {
        let setup = Setup::start(seating);
        let mut pos = Position {
            board: setup.board,
            turn: setup.turn,
            seating: setup.seating,
            records: setup.records,
            horseman: setup.horseman,
            end: None,
        };
        pos.refresh_end();
        pos
    }

    /// Validates a setup.
    ///
    /// If the kingdom to move has no legal move, the turn passes on as in play (see
    /// [`Position::play`]).
    ///
    /// # Errors
    ///
    /// A [`PositionError`] naming the first problem found.
    pub fn from_setup(setup: Setup) -> Result<Position, PositionError> {
        match setup.get(Point::CENTRE) {
            Some(Occupant::Emperor) => {}
            _ => return Err(PositionError::MissingEmperor),
        }
        let mut counts = [[0u8; 10]; 7];
        for point in Point::all() {
            match setup.get(point) {
                Some(Occupant::Emperor) if point != Point::CENTRE => {
                    return Err(PositionError::ExtraEmperor(point));
                }
                Some(Occupant::Piece(p)) => {
                    let n = &mut counts[p.kingdom.index()][p.kind.index()];
                    *n += 1;
                    if *n > p.kind.count_per_army() {
                        return Err(PositionError::TooManyPieces { kingdom: p.kingdom, kind: p.kind });
                    }
                }
                _ => {}
            }
        }
        for kingdom in Kingdom::ALL {
            let record = &setup.records[kingdom.index()];
            let on_board: u32 = counts[kingdom.index()].iter().map(|&n| u32::from(n)).sum();
            if record.is_defeated() {
                if on_board > 0 {
                    return Err(PositionError::DefeatedArmyOnBoard(kingdom));
                }
                continue;
            }
            if on_board + u32::from(record.lost) > u32::from(ARMY_SIZE) {
                return Err(PositionError::ArmyTooLarge(kingdom));
            }
            if record.lost >= LOSSES_THAT_DEFEAT {
                return Err(PositionError::TooManyLosses(kingdom));
            }
            if counts[kingdom.index()][PieceKind::General.index()] == 0 {
                return Err(PositionError::MissingGeneral(kingdom));
            }
        }
        if setup.records.iter().all(KingdomRecord::is_defeated) {
            return Err(PositionError::NoKingdomLeft);
        }
        if setup.records[setup.turn.index()].is_defeated() {
            return Err(PositionError::DefeatedKingdomToMove(setup.turn));
        }
        let mut pos = Position {
            board: setup.board,
            turn: setup.turn,
            seating: setup.seating,
            records: setup.records,
            horseman: setup.horseman,
            end: None,
        };
        pos.refresh_end();
        if pos.end.is_none() && !pos.has_legal_move(pos.turn) {
            pos.pass_turn_from(pos.turn);
        }
        Ok(pos)
    }

    /// The position as plain data.
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board,
            turn: self.turn,
            seating: self.seating,
            records: self.records,
            horseman: self.horseman,
        }
    }

    /// The kingdom to move.
    #[inline]
    pub fn turn(&self) -> Kingdom {
        self.turn
    }

    /// The seat (player) to move.
    #[inline]
    pub fn seat_to_move(&self) -> Seat {
        self.seating.seat_of(self.turn)
    }

    /// Who commands which kingdom.
    #[inline]
    pub fn seating(&self) -> &Seating {
        &self.seating
    }

    /// The horseman rule in force.
    #[inline]
    pub fn horseman_rule(&self) -> HorsemanRule {
        self.horseman
    }

    /// The occupant of `point`.
    #[inline]
    pub fn piece_at(&self, point: Point) -> Option<Occupant> {
        self.board[point.index()]
    }

    /// A kingdom's tally.
    #[inline]
    pub fn record(&self, kingdom: Kingdom) -> &KingdomRecord {
        &self.records[kingdom.index()]
    }

    /// Whether `kingdom` is out of the game.
    #[inline]
    pub fn is_defeated(&self, kingdom: Kingdom) -> bool {
        self.records[kingdom.index()].is_defeated()
    }

    /// Whether `seat` has no kingdom left in play.
    pub fn is_seat_out(&self, seat: Seat) -> bool {
        self.seating.kingdoms_of(seat).all(|k| self.is_defeated(k))
    }

    /// The points holding `kingdom`'s pieces, south-west first.
    pub fn army(&self, kingdom: Kingdom) -> impl Iterator<Item = (Point, PieceKind)> + '_ {
        Point::all().filter_map(move |p| match self.board[p.index()] {
            Some(Occupant::Piece(piece)) if piece.kingdom == kingdom => Some((p, piece.kind)),
            _ => None,
        })
    }

    /// Why the game ended, if it has.
    #[inline]
    pub fn end(&self) -> Option<EndCause> {
        self.end
    }

    /// Whether the game is over.
    #[inline]
    pub fn is_game_over(&self) -> bool {
        self.end.is_some()
    }

    /// The final result per seat, once the game is over.
    pub fn outcome(&self) -> Option<GameOutcome> {
        self.end.map(|cause| GameOutcome::new(cause, self))
    }

    /// The legal moves of the kingdom to move (none once the game is over).
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        if self.end.is_none() {
            self.generate(self.turn, &mut moves);
        }
        moves
    }

    /// The moves `kingdom` could make if it were its turn (ignores whether the game is over).
    pub fn moves_of(&self, kingdom: Kingdom) -> MoveList {
        let mut moves = MoveList::new();
        if !self.is_defeated(kingdom) {
            self.generate(kingdom, &mut moves);
        }
        moves
    }

    /// Whether `mv` is legal for the kingdom to move.
    pub fn is_legal(&self, mv: Move) -> bool {
        match self.board[mv.from.index()] {
            Some(Occupant::Piece(p)) if p.kingdom == self.turn && self.end.is_none() => {
                let mut moves = MoveList::new();
                self.generate_piece(p.kingdom, mv.from, p.kind, &mut moves);
                moves.contains(&mv)
            }
            _ => false,
        }
    }

    /// Plays a legal move and returns the new position.
    ///
    /// # Errors
    ///
    /// [`PlayError`] with the reason when the move is illegal.
    pub fn play(&self, mv: Move) -> Result<Position, PlayError> {
        self.check(mv)?;
        let mut next = self.clone();
        next.play_unchecked(mv);
        Ok(next)
    }

    /// Checks a move, giving the reason when it is illegal.
    ///
    /// # Errors
    ///
    /// [`PlayError`] when the move is illegal.
    pub fn check(&self, mv: Move) -> Result<(), PlayError> {
        if self.is_legal(mv) {
            Ok(())
        } else {
            Err(PlayError { mv, kind: self.classify_illegal(mv) })
        }
    }

    fn classify_illegal(&self, mv: Move) -> IllegalMoveKind {
        if self.end.is_some() {
            return IllegalMoveKind::GameOver;
        }
        let mover = match self.piece_at(mv.from) {
            None => return IllegalMoveKind::EmptyOrigin,
            Some(Occupant::Emperor) => return IllegalMoveKind::EmperorNeverMoves,
            Some(Occupant::Piece(p)) if p.kingdom != self.turn => {
                return IllegalMoveKind::NotYourPiece { turn: self.turn, owner: p.kingdom };
            }
            Some(Occupant::Piece(p)) => p,
        };
        match self.piece_at(mv.to) {
            Some(Occupant::Emperor) => IllegalMoveKind::EmperorIsImmune,
            Some(Occupant::Piece(t)) if t.kingdom == mover.kingdom => IllegalMoveKind::OwnPieceOnTarget,
            Some(Occupant::Piece(t)) if t.kind == PieceKind::Diplomat => IllegalMoveKind::DiplomatIsImmune,
            Some(Occupant::Piece(_)) if mover.kind == PieceKind::Diplomat => {
                IllegalMoveKind::DiplomatNeverCaptures
            }
            _ => IllegalMoveKind::NotAPieceMove,
        }
    }

    /// Plays a move without checking it, and says what it did.
    ///
    /// A capture is credited to the mover and may defeat the victim (general captured, or its
    /// eleventh piece lost); capturing a piece of one's own alliance is not credited and removes
    /// the victim's army instead. The turn then passes to the next kingdom in play.
    ///
    /// # Panics
    ///
    /// When no piece of the kingdom to move stands on `mv.from`. Other illegal moves are not
    /// detected and leave a position the rules cannot reach.
    pub fn play_unchecked(&mut self, mv: Move) -> MoveEffect {
        let mover = match self.board[mv.from.index()] {
            Some(Occupant::Piece(p)) if p.kingdom == self.turn => p,
            other => panic!("play_unchecked: {other:?} on {} is not a piece of {}", mv.from, self.turn),
        };
        let captured = match self.board[mv.to.index()] {
            Some(Occupant::Piece(p)) => Some(p),
            _ => None,
        };
        self.board[mv.to.index()] = Some(Occupant::Piece(mover));
        self.board[mv.from.index()] = None;
        let mut effect =
            MoveEffect { mover: mover.kingdom, kind: mover.kind, captured, credited: false, defeated: None };
        if let Some(victim) = captured {
            let lost = &mut self.records[victim.kingdom.index()].lost;
            *lost = lost.saturating_add(1);
            if self.seating.are_allies(mover.kingdom, victim.kingdom) {
                // seven-kingdoms.md "Players and alliances": a player who attacks a kingdom of
                // their own alliance loses that allied army. Interpretation (ours): the capture
                // earns no credit (no score from one's own armies), and the victim's army leaves
                // the board as defeated.
                let defeat = Defeat::AllyAttack { by: mover.kingdom };
                self.defeat(victim.kingdom, defeat);
                effect.defeated = Some((victim.kingdom, defeat));
            } else {
                // "Defeat of a kingdom and victory": captures are credited to the capturer.
                let credit = &mut self.records[mover.kingdom.index()];
                // Saturating: a setup may carry any tally, and play must never panic on it.
                credit.captured_pieces = credit.captured_pieces.saturating_add(1);
                credit.captured_value = credit.captured_value.saturating_add(victim.kind.historical_value());
                if victim.kind == PieceKind::General {
                    credit.captured_generals = credit.captured_generals.saturating_add(1);
                }
                effect.credited = true;
                // A kingdom is defeated when its general is captured, or when more than ten
                // (eleven or more, Interpretation) of its pieces have been captured.
                let defeat = if victim.kind == PieceKind::General {
                    Some(Defeat::GeneralCaptured { by: mover.kingdom })
                } else if self.records[victim.kingdom.index()].lost >= LOSSES_THAT_DEFEAT {
                    Some(Defeat::PiecesLost { by: mover.kingdom })
                } else {
                    None
                };
                if let Some(defeat) = defeat {
                    self.defeat(victim.kingdom, defeat);
                    effect.defeated = Some((victim.kingdom, defeat));
                }
            }
        }
        self.refresh_end();
        if self.end.is_none() {
            self.pass_turn_from(self.turn.next());
        }
        effect
    }

    /// Takes every kingdom of `seat` out of the game because its player resigned: the armies
    /// leave the board and the game goes on (issue: a player who times out or resigns loses
    /// their kingdoms; the others play on).
    ///
    /// # Errors
    ///
    /// [`SeatError`] for an unknown seat, a seat already out, or a finished game.
    pub fn resign_seat(&mut self, seat: Seat) -> Result<(), SeatError> {
        self.remove_seat(seat, Defeat::Resigned)
    }

    /// Takes every kingdom of `seat` out of the game because its player ran out of time in
    /// correspondence play: the armies leave the board and the game goes on.
    ///
    /// # Errors
    ///
    /// [`SeatError`] for an unknown seat, a seat already out, or a finished game.
    pub fn time_out_seat(&mut self, seat: Seat) -> Result<(), SeatError> {
        self.remove_seat(seat, Defeat::TimedOut)
    }

    fn remove_seat(&mut self, seat: Seat, defeat: Defeat) -> Result<(), SeatError> {
        if seat.0 >= self.seating.players() {
            return Err(SeatError::NoSuchSeat(seat));
        }
        if self.end.is_some() {
            return Err(SeatError::GameOver);
        }
        if self.is_seat_out(seat) {
            return Err(SeatError::AlreadyOut(seat));
        }
        let kingdoms: ArrayVec<Kingdom, 7> = self.seating.kingdoms_of(seat).collect();
        for kingdom in kingdoms {
            if !self.is_defeated(kingdom) {
                self.defeat(kingdom, defeat);
            }
        }
        self.refresh_end();
        if self.end.is_none() {
            // The kingdom to move keeps its turn unless it just left the game.
            self.pass_turn_from(self.turn);
        } else if self.is_defeated(self.turn) {
            // The game is over; still name a kingdom in play, so that the position stays valid.
            if let Some(next) =
                (0..7).map(|i| Kingdom::ALL[(self.turn.index() + i) % 7]).find(|&k| !self.is_defeated(k))
            {
                self.turn = next;
            }
        }
        Ok(())
    }

    /// A 64-bit key of the position (board, turn, defeated kingdoms), for storage and quick
    /// comparison. Computed on demand: the game has no repetition law that needs it per move.
    pub fn position_key(&self) -> u64 {
        let mut key = splitmix(0x5eed_0007 ^ self.turn.index() as u64);
        for (index, occupant) in self.board.iter().enumerate() {
            let code = match occupant {
                None => continue,
                Some(Occupant::Emperor) => 71,
                Some(Occupant::Piece(p)) => 1 + p.kingdom.index() * 10 + p.kind.index(),
            };
            key ^= splitmix((index * 72 + code) as u64);
        }
        for kingdom in Kingdom::ALL {
            if self.is_defeated(kingdom) {
                key ^= splitmix(0xdefe_a7ed_0000 + kingdom.index() as u64);
            }
        }
        key
    }

    fn defeat(&mut self, kingdom: Kingdom, defeat: Defeat) {
        // "Defeat of a kingdom and victory", Interpretation: a defeated kingdom's remaining
        // pieces leave the board (uncredited: nobody captured them) and it no longer moves.
        for cell in self.board.iter_mut() {
            if matches!(cell, Some(Occupant::Piece(p)) if p.kingdom == kingdom) {
                *cell = None;
            }
        }
        self.records[kingdom.index()].defeat = Some(defeat);
    }

    /// Gives the turn to the first kingdom from `start` on, in turn order, that is in play and
    /// has a legal move ("Board, players, pieces": the fixed turn order; defeated kingdoms no
    /// longer take turns). Interpretation (ours): a kingdom with no legal move passes. If no
    /// kingdom can move, the game ends.
    fn pass_turn_from(&mut self, start: Kingdom) {
        let mut kingdom = start;
        for _ in 0..7 {
            if !self.is_defeated(kingdom) && self.has_legal_move(kingdom) {
                self.turn = kingdom;
                return;
            }
            kingdom = kingdom.next();
        }
        self.end = Some(EndCause::NoLegalMoves);
    }

    fn has_legal_move(&self, kingdom: Kingdom) -> bool {
        let mut moves = MoveList::new();
        self.generate(kingdom, &mut moves);
        !moves.is_empty()
    }

    /// A seat's totals over its kingdoms: (captured pieces, captured generals, value score).
    pub(crate) fn seat_totals(&self, seat: Seat) -> (u32, u32, u32) {
        self.seating.kingdoms_of(seat).fold((0, 0, 0), |(p, g, v), k| {
            let r = &self.records[k.index()];
            (
                p.saturating_add(r.captured_pieces),
                g.saturating_add(r.captured_generals),
                v.saturating_add(r.captured_value),
            )
        })
    }

    /// The kind of hegemony `seat` holds, if any ("Defeat of a kingdom and victory": two
    /// generals or thirty pieces captured in all, by all the player's kingdoms together).
    pub fn hegemony(&self, seat: Seat) -> Option<HegemonyKind> {
        let (pieces, generals, _) = self.seat_totals(seat);
        if generals >= HEGEMONY_GENERALS {
            Some(HegemonyKind::TwoGenerals)
        } else if pieces >= HEGEMONY_PIECES {
            Some(HegemonyKind::ThirtyPieces)
        } else {
            None
        }
    }

    fn refresh_end(&mut self) {
        // "Defeat of a kingdom and victory": the game ends when a player becomes hegemon, or
        // when only one alliance (one player's kingdoms) remains.
        if let Some((seat, kind)) = self.seating.seats().find_map(|s| self.hegemony(s).map(|h| (s, h))) {
            self.end = Some(EndCause::Hegemony { seat, kind });
            return;
        }
        let mut remaining = self.seating.seats().filter(|&s| !self.is_seat_out(s));
        match (remaining.next(), remaining.next()) {
            (Some(seat), None) => self.end = Some(EndCause::LastAlliance { seat }),
            (None, _) => self.end = Some(EndCause::NoLegalMoves),
            _ => {}
        }
    }

    fn capturable_by(&self, kingdom: Kingdom, target: Option<Occupant>) -> bool {
        // The emperor cannot be captured; diplomats can never be captured; no army captures
        // its own pieces. Allied kingdoms can be attacked (and the attack is punished).
        matches!(target, Some(Occupant::Piece(p)) if p.kingdom != kingdom && p.kind != PieceKind::Diplomat)
    }

    fn generate(&self, kingdom: Kingdom, moves: &mut MoveList) {
        for from in Point::all() {
            if let Some(Occupant::Piece(p)) = self.board[from.index()] {
                if p.kingdom == kingdom {
                    self.generate_piece(kingdom, from, p.kind, moves);
                }
            }
        }
    }

    fn generate_piece(&self, kingdom: Kingdom, from: Point, kind: PieceKind, moves: &mut MoveList) {
        // seven-kingdoms.md "Board, players, pieces", the table: every move is a slide or a step
        // that never jumps, except the catapult's capture.
        match kind {
            PieceKind::General => self.slide(kingdom, from, &ALL_DIRECTIONS, 18, true, moves),
            PieceKind::Deputy => self.slide(kingdom, from, &ORTHOGONAL, 18, true, moves),
            PieceKind::Officer => self.slide(kingdom, from, &DIAGONAL, 18, true, moves),
            // The diplomat moves like the general but never captures.
            PieceKind::Diplomat => self.slide(kingdom, from, &ALL_DIRECTIONS, 18, false, moves),
            PieceKind::Archer => self.slide(kingdom, from, &ALL_DIRECTIONS, 4, true, moves),
            PieceKind::Crossbow => self.slide(kingdom, from, &ALL_DIRECTIONS, 5, true, moves),
            PieceKind::Sword => self.slide(kingdom, from, &DIAGONAL, 1, true, moves),
            PieceKind::Broadsword => self.slide(kingdom, from, &ORTHOGONAL, 1, true, moves),
            PieceKind::Catapult => self.catapult(kingdom, from, moves),
            PieceKind::Horseman => self.horseman(kingdom, from, moves),
        }
    }

    fn slide(
        &self,
        kingdom: Kingdom,
        from: Point,
        directions: &[(i32, i32)],
        max_steps: i32,
        captures: bool,
        moves: &mut MoveList,
    ) {
        for &(dx, dy) in directions {
            let mut to = from;
            for _ in 0..max_steps {
                to = match to.offset(dx, dy) {
                    Some(p) => p,
                    None => break,
                };
                let target = self.board[to.index()];
                if target.is_none() {
                    moves.push(Move { from, to });
                    continue;
                }
                if captures && self.capturable_by(kingdom, target) {
                    moves.push(Move { from, to });
                }
                break;
            }
        }
    }

    fn catapult(&self, kingdom: Kingdom, from: Point, moves: &mut MoveList) {
        for (dx, dy) in ORTHOGONAL {
            let mut to = from;
            let mut screened = false;
            while let Some(next) = to.offset(dx, dy) {
                to = next;
                let target = self.board[to.index()];
                match (screened, target) {
                    (false, None) => moves.push(Move { from, to }),
                    // The screen may be any piece, the emperor and diplomats included.
                    (false, Some(_)) => screened = true,
                    (true, None) => {}
                    (true, Some(_)) => {
                        if self.capturable_by(kingdom, target) {
                            moves.push(Move { from, to });
                        }
                        break;
                    }
                }
            }
        }
    }

    fn horseman(&self, kingdom: Kingdom, from: Point, moves: &mut MoveList) {
        // seven-kingdoms.md "Board, players, pieces", Interpretation: exactly one straight step
        // and three diagonal steps outward; every point passed must be empty. The ruleset
        // option the Interpretation mentions lets it stop after one to three diagonal steps.
        let shortest = match self.horseman {
            HorsemanRule::ThreeDiagonal => 3,
            HorsemanRule::UpToThreeDiagonal => 1,
        };
        for (dx, dy) in ORTHOGONAL {
            let Some(first) = from.offset(dx, dy) else { continue };
            if self.board[first.index()].is_some() {
                continue;
            }
            for side in [1, -1] {
                let (ddx, ddy) = if dx == 0 { (side, dy) } else { (dx, side) };
                for steps in 1..=3 {
                    let Some(to) = first.offset(steps * ddx, steps * ddy) else { break };
                    let target = self.board[to.index()];
                    if steps >= shortest && (target.is_none() || self.capturable_by(kingdom, target)) {
                        moves.push(Move { from, to });
                    }
                    if target.is_some() {
                        break;
                    }
                }
            }
        }
    }
}

const fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Counts the move sequences of `depth` moves from `pos` (turns pass as in play).
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
        .map(|&mv| {
            let mut next = pos.clone();
            next.play_unchecked(mv);
            perft(&next, depth - 1)
        })
        .sum()
}
