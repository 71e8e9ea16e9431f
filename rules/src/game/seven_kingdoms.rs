//! A Seven Kingdoms game record: the start position, every event since (moves, seats
//! leaving), the current position, and the ruling once the game is over. Also reachable
//! as `tavoliere_rules::seven_kingdoms::Game`. The end of the game itself (defeats,
//! hegemony, standings) is part of the position's state and stays in the core
//! ([`crate::seven_kingdoms::Position::outcome`]), since every capture changes it.

use crate::game::ruling::{self, Citation, Evidence, KingdomsStanding, Ruling};
use crate::seven_kingdoms::{
    standings, EndCause, GameOutcome, Kingdom, Move, MoveEffect, PlayError, Position, Seat, SeatError,
    SeatStanding, Seating, HEGEMONY_GENERALS, HEGEMONY_PIECES,
};

/// How a player left the game without being defeated on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SeatExit {
    /// The player resigned.
    Resigned,
    /// The player ran out of time in correspondence play.
    TimedOut,
}

impl SeatExit {
    /// `resign` or `timeout`, as written in game records.
    pub const fn as_str(self) -> &'static str {
        match self {
            SeatExit::Resigned => "resign",
            SeatExit::TimedOut => "timeout",
        }
    }
}

/// One entry of the history.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameEvent {
    /// A move, with the mover and what it did.
    Move {
        /// The player who moved.
        seat: Seat,
        /// The kingdom that moved.
        kingdom: Kingdom,
        /// The move.
        mv: Move,
        /// Capture, credit and defeat caused by the move.
        effect: MoveEffect,
    },
    /// A player left: their kingdoms are defeated and leave the board, the game goes on.
    SeatOut {
        /// The player.
        seat: Seat,
        /// Resignation or timeout.
        exit: SeatExit,
    },
}

/// A game: the initial position, the history (moves with their movers, seats leaving), and
/// the current position. History lives here, not on [`Position`].
///
/// The text methods (`legal_moves_text`, `play_text`, `record_text`, ...) are implemented in
/// [`crate::notation::seven_kingdoms`], so that this core does not depend on the notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    initial: Position,
    events: Vec<GameEvent>,
    current: Position,
}

impl Default for Game {
    fn default() -> Self {
        Game::new(Seating::default())
    }
}

impl Game {
    /// A new game from the start position with the given seating.
    pub fn new(seating: Seating) -> Game {
        Game::from_position(Position::startpos(seating))
    }

    /// A new game from any position.
    pub fn from_position(initial: Position) -> Game {
        Game { current: initial.clone(), initial, events: Vec::new() }
    }

    /// The position the game started from.
    pub fn initial(&self) -> &Position {
        &self.initial
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.current
    }

    /// Everything that happened, in order.
    pub fn events(&self) -> &[GameEvent] {
        &self.events
    }

    /// The moves played, with the kingdom that made each.
    pub fn moves(&self) -> impl Iterator<Item = (Kingdom, Move)> + '_ {
        self.events.iter().filter_map(|e| match e {
            GameEvent::Move { kingdom, mv, .. } => Some((*kingdom, *mv)),
            GameEvent::SeatOut { .. } => None,
        })
    }

    /// The number of moves played.
    pub fn ply(&self) -> usize {
        self.moves().count()
    }

    /// The kingdom to move.
    pub fn turn(&self) -> Kingdom {
        self.current.turn()
    }

    /// The seat to move.
    pub fn seat_to_move(&self) -> Seat {
        self.current.seat_to_move()
    }

    /// Plays a move of the kingdom to move.
    ///
    /// # Errors
    ///
    /// [`PlayError`] when the move is illegal; the game is unchanged.
    pub fn play(&mut self, mv: Move) -> Result<MoveEffect, PlayError> {
        self.current.check(mv)?;
        let seat = self.current.seat_to_move();
        let kingdom = self.current.turn();
        let effect = self.current.play_unchecked(mv);
        self.events.push(GameEvent::Move { seat, kingdom, mv, effect });
        Ok(effect)
    }

    /// A player resigns: their kingdoms leave the board, the game goes on.
    ///
    /// # Errors
    ///
    /// [`SeatError`] for an unknown seat, a seat already out, or a finished game.
    pub fn resign_seat(&mut self, seat: Seat) -> Result<(), SeatError> {
        self.current.resign_seat(seat)?;
        self.events.push(GameEvent::SeatOut { seat, exit: SeatExit::Resigned });
        Ok(())
    }

    /// A player ran out of time: their kingdoms are defeated and leave the board, the game
    /// goes on.
    ///
    /// # Errors
    ///
    /// [`SeatError`] for an unknown seat, a seat already out, or a finished game.
    pub fn time_out_seat(&mut self, seat: Seat) -> Result<(), SeatError> {
        self.current.time_out_seat(seat)?;
        self.events.push(GameEvent::SeatOut { seat, exit: SeatExit::TimedOut });
        Ok(())
    }

    /// Applies a recorded event again (used when replaying a record).
    ///
    /// # Errors
    ///
    /// The move's or the seat's error when the event does not fit the position.
    pub fn apply(&mut self, event: ReplayEvent) -> Result<(), ReplayError> {
        match event {
            ReplayEvent::Move(mv) => self.play(mv).map(|_| ()).map_err(ReplayError::Move),
            ReplayEvent::SeatOut(seat, SeatExit::Resigned) => {
                self.resign_seat(seat).map_err(ReplayError::Seat)
            }
            ReplayEvent::SeatOut(seat, SeatExit::TimedOut) => {
                self.time_out_seat(seat).map_err(ReplayError::Seat)
            }
        }
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.current.is_game_over()
    }

    /// The result per seat, once the game is over.
    pub fn outcome(&self) -> Option<GameOutcome> {
        self.current.outcome()
    }

    /// Every seat's standing now (the final standings once the game is over).
    pub fn standings(&self) -> Vec<SeatStanding> {
        standings(&self.current)
    }

    /// Why the game ended (hegemony, the last alliance, no legal moves), once it has:
    /// the seat that decided it and every seat's captures. `against` is `None`: the
    /// standings say who won. The ply is the number of moves played.
    pub fn ruling(&self) -> Option<Ruling> {
        let outcome = self.outcome()?;
        let seat = match outcome.cause {
            EndCause::Hegemony { seat, .. } | EndCause::LastAlliance { seat } => Some(usize::from(seat.0)),
            EndCause::NoLegalMoves => None,
        };
        let standings = outcome
            .standings
            .iter()
            .map(|s| KingdomsStanding {
                seat: usize::from(s.seat.0),
                kingdoms: s.kingdoms.iter().map(|k| k.name()).collect(),
                captured_pieces: s.captured_pieces,
                captured_generals: s.captured_generals,
                value_score: s.value_score,
                place: u32::from(s.place),
                winner: s.winner,
                out: s.out,
            })
            .collect();
        Some(Ruling {
            law: outcome.cause.as_str(),
            citation: Citation {
                spec: "seven-kingdoms.md",
                section: "Defeat of a kingdom and victory",
                items: &[],
                interpretation: false,
            },
            ply: self.ply() as u32,
            against: None,
            evidence: Evidence::SevenKingdoms(ruling::SevenKingdoms {
                seat,
                generals_needed: HEGEMONY_GENERALS,
                pieces_needed: HEGEMONY_PIECES,
                standings,
            }),
        })
    }
}

/// An event as a record states it, before it is applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReplayEvent {
    /// A move of the kingdom to move.
    Move(Move),
    /// A seat leaves.
    SeatOut(Seat, SeatExit),
}

/// A recorded event that does not fit the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReplayError {
    /// An illegal move.
    Move(PlayError),
    /// A seat that cannot leave.
    Seat(SeatError),
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReplayError::Move(e) => e.fmt(f),
            ReplayError::Seat(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ReplayError {}
