//! Game records and the text methods of [`Game`].
//!
//! A record is the position text of the initial position, a line `moves:`, then one event a
//! line in the order played ("Notation": the record lists moves in turn order, one kingdom
//! after another): a move in the canonical notation (`Qin 騎 a13-e16`), or `resign seat N` /
//! `timeout seat N` for a player leaving. Blank lines, `#` comments and move numbers (`12.`)
//! are ignored when reading.

use std::fmt;

use super::moves::{self, MoveStyle, NotationError, PieceNames};
use super::position_text::{self, PositionTextError};
use crate::seven_kingdoms::{
    Game, GameEvent, GameOutcome, Move, MoveEffect, Position, ReplayError, ReplayEvent, Seat, SeatError,
    SeatExit,
};

/// The answer to a move played by text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// The move in the canonical notation.
    pub canonical: String,
    /// The move itself.
    pub mv: Move,
    /// What it captured and whom it defeated.
    pub effect: MoveEffect,
    /// The result per seat, if the move ended the game.
    pub outcome: Option<GameOutcome>,
}

/// Why a record cannot be read or replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// The record has no `moves:` line.
    MissingMovesLine,
    /// The initial position is not valid.
    Position(PositionTextError),
    /// A line is neither a move nor a seat event.
    Unreadable {
        /// 1-based line number.
        line: usize,
        /// The line.
        text: String,
    },
    /// A move does not fit the position reached.
    Move {
        /// 1-based line number.
        line: usize,
        /// Why.
        error: NotationError,
    },
    /// A seat event does not fit the position reached.
    Seat {
        /// 1-based line number.
        line: usize,
        /// Why.
        error: SeatError,
    },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::MissingMovesLine => f.write_str("the record has no \"moves:\" line"),
            RecordError::Position(e) => write!(f, "initial position: {e}"),
            RecordError::Unreadable { line, text } => write!(f, "line {line}: cannot read {text:?}"),
            RecordError::Move { line, error } => write!(f, "line {line}: {error}"),
            RecordError::Seat { line, error } => write!(f, "line {line}: {error}"),
        }
    }
}

impl std::error::Error for RecordError {}

/// Writes one history event: a move in the given style, or `resign seat N` / `timeout seat N`.
pub fn write_event(event: &GameEvent, style: MoveStyle) -> String {
    match *event {
        GameEvent::Move { kingdom, mv, effect, .. } => {
            let piece = match style.pieces {
                PieceNames::Chinese => effect.kind.chinese(),
                PieceNames::English => effect.kind.english(),
            };
            format!(
                "{kingdom} {piece} {}{}{}",
                moves::write_point(mv.from, style.coordinates),
                if effect.captured.is_some() { 'x' } else { '-' },
                moves::write_point(mv.to, style.coordinates)
            )
        }
        GameEvent::SeatOut { seat, exit } => format!("{} seat {}", exit.as_str(), seat.0),
    }
}

/// Writes a whole record: initial position, `moves:`, the events.
pub fn write_record(game: &Game) -> String {
    let mut out = position_text::write(game.initial());
    out.push_str("moves:\n");
    for event in game.events() {
        out.push_str(&write_event(event, MoveStyle::default()));
        out.push('\n');
    }
    out
}

/// Reads a record and replays it.
///
/// # Errors
///
/// [`RecordError`] naming the first line that cannot be read or played.
pub fn parse_record(text: &str) -> Result<Game, RecordError> {
    let mut offset_lines = 0;
    let mut header = String::new();
    let mut found = false;
    for line in text.lines() {
        offset_lines += 1;
        if line.trim() == "moves:" {
            found = true;
            break;
        }
        header.push_str(line);
        header.push('\n');
    }
    if !found {
        return Err(RecordError::MissingMovesLine);
    }
    let initial = position_text::parse(&header).map_err(RecordError::Position)?;
    let mut game = Game::from_position(initial);
    for (number, raw) in text.lines().enumerate().skip(offset_lines) {
        let line_no = number + 1;
        let line = strip_move_number(raw.trim());
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        apply_event_text(&mut game, line, line_no)?;
    }
    Ok(game)
}

/// Applies one event line (a move in any accepted form, or `resign seat N` / `timeout seat N`).
fn apply_event_text(game: &mut Game, line: &str, line_no: usize) -> Result<(), RecordError> {
    if let Some(event) = parse_seat_event(line) {
        return game.apply(event).map_err(|e| match e {
            ReplayError::Seat(error) => RecordError::Seat { line: line_no, error },
            ReplayError::Move(error) => {
                RecordError::Move { line: line_no, error: NotationError::Illegal(error) }
            }
        });
    }
    game.play_text(line).map(|_| ()).map_err(|error| match error {
        NotationError::Unreadable(text) => RecordError::Unreadable { line: line_no, text },
        error => RecordError::Move { line: line_no, error },
    })
}

fn strip_move_number(line: &str) -> &str {
    match line.split_once('.') {
        Some((number, rest)) if !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()) => {
            rest.trim()
        }
        _ => line,
    }
}

fn parse_seat_event(line: &str) -> Option<ReplayEvent> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let exit = match *words.first()? {
        "resign" => SeatExit::Resigned,
        "timeout" => SeatExit::TimedOut,
        _ => return None,
    };
    match words.as_slice() {
        [_, "seat", n] => Some(ReplayEvent::SeatOut(Seat(n.parse().ok()?), exit)),
        _ => None,
    }
}

/// Text methods for the server's facade. They live here, beside the notation, so that the
/// game core does not depend on its notation.
impl Game {
    /// The legal moves of the kingdom to move, in the canonical notation.
    pub fn legal_moves_text(&self) -> Vec<String> {
        let pos = self.position();
        pos.legal_moves().iter().map(|&mv| moves::write(pos, mv)).collect()
    }

    /// Plays a move written in any accepted form (`Qin 騎 a13-e16`, `a13-e16`,
    /// `Qin horseman 0,12-4,15`, ...).
    ///
    /// # Errors
    ///
    /// [`NotationError`] when the text cannot be read, does not match the position, or the
    /// move is illegal; the game is unchanged.
    pub fn play_text(&mut self, text: &str) -> Result<PlayedMove, NotationError> {
        let mv = moves::parse(self.position(), text)?;
        let canonical = moves::write(self.position(), mv);
        let effect = self.play(mv).map_err(NotationError::Illegal)?;
        Ok(PlayedMove { canonical, mv, effect, outcome: self.outcome() })
    }

    /// The canonical text of a move in the current position, without playing it.
    ///
    /// # Errors
    ///
    /// As [`Game::play_text`].
    pub fn resolve_text(&self, text: &str) -> Result<String, NotationError> {
        let mv = moves::parse(self.position(), text)?;
        Ok(moves::write(self.position(), mv))
    }

    /// Every event so far in the given style (moves as `Qin 騎 a13-e16`, seats leaving as
    /// `timeout seat 3`).
    pub fn events_text(&self, style: MoveStyle) -> Vec<String> {
        self.events().iter().map(|e| write_event(e, style)).collect()
    }

    /// What playing `text` would do, without playing it: the canonical move, its effect, and
    /// the outcome if it ended the game.
    ///
    /// # Errors
    ///
    /// As [`Game::play_text`].
    pub fn dry_run_text(&self, text: &str) -> Result<PlayedMove, NotationError> {
        self.clone().play_text(text)
    }

    /// Replays stored events (as [`Game::events_text`] writes them, one per item) from a
    /// position text, or from the seven-player start when `start` is `None`.
    ///
    /// # Errors
    ///
    /// [`RecordError`] for the start position or the first event that does not fit; event
    /// numbers in the error count from 1.
    pub fn replay<'a>(
        start: Option<&str>,
        events: impl IntoIterator<Item = &'a str>,
    ) -> Result<Game, RecordError> {
        let mut game = Game::from_start_text(start).map_err(RecordError::Position)?;
        for (index, event) in events.into_iter().enumerate() {
            apply_event_text(&mut game, event.trim(), index + 1)?;
        }
        Ok(game)
    }

    /// A 64-bit key of the current position (see [`Position::position_key`]).
    pub fn position_key(&self) -> u64 {
        self.position().position_key()
    }

    /// The initial position's text.
    pub fn start_text(&self) -> String {
        position_text::write(self.initial())
    }

    /// The current position's text.
    pub fn position_text(&self) -> String {
        position_text::write(self.position())
    }

    /// The whole record (see [`write_record`]).
    pub fn record_text(&self) -> String {
        write_record(self)
    }

    /// A game from a position text, or from the seven-player start when `start` is `None`.
    ///
    /// # Errors
    ///
    /// [`PositionTextError`] for an unreadable or invalid position.
    pub fn from_start_text(start: Option<&str>) -> Result<Game, PositionTextError> {
        match start {
            None => Ok(Game::from_position(Position::new())),
            Some(text) => Ok(Game::from_position(position_text::parse(text)?)),
        }
    }
}
