//! Flickering chess game records: PGN-like tags, then labelled series.
//!
//! ```text
//! [White "Ivanov"]
//! [Black "Petrov"]
//! [FEN "..."]            (optional start position)
//! 1. a) e4, Nf3, d4  b) e5, Nc6
//! 2. a) d:e5, N:e5   b) N:e5 {a comment}
//! 0-1
//! ```
//!
//! Tags `[Name "value"]`, comments `{...}` and `;` to the end of the line, move numbers
//! (`12.`) and results (`1-0`, `0-1`, `1/2-1/2`, `½-½`, `*`) are recognised; each series
//! starts at its label `a)` / `b)` (or Russian `а)` / `б)`) and runs to the next label.

use std::fmt;

use crate::chess::{Game, GameError, Move, Position};

use super::algebraic;
use super::fen::{self, FenError};
use super::NotationError;

/// A game record read from text.
#[derive(Clone, Debug)]
pub struct Record {
    /// The tags, in order (`("White", "Ivanov")`).
    pub tags: Vec<(String, String)>,
    /// The start position (the `FEN` tag, or the orthodox start).
    pub start: Position,
    /// The series, in order.
    pub series: Vec<Vec<Move>>,
    /// The result written at the end of the record, if any.
    pub result: Option<String>,
}

impl Record {
    /// Replays the record into a [`Game`].
    ///
    /// # Errors
    ///
    /// [`RecordError`] with the failing series' index (cannot happen for a record built
    /// by [`read`], whose series were all checked).
    pub fn to_game(&self) -> Result<Game, RecordError> {
        let mut game = Game::from_position(self.start.clone());
        for (index, moves) in self.series.iter().enumerate() {
            game.play_series(moves).map_err(|e| RecordError::Game { index, error: e })?;
        }
        Ok(game)
    }
}

/// Why a record could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// The `FEN` tag is not a valid position.
    Fen(FenError),
    /// A tag line is malformed.
    Tag(String),
    /// Text before the first series label that is not a move number.
    Stray(String),
    /// A series could not be read (index from 0).
    Series {
        /// Which series.
        index: usize,
        /// Why.
        error: NotationError,
    },
    /// The game refused a series (e.g. it had already ended by mate).
    Game {
        /// Which series.
        index: usize,
        /// Why.
        error: GameError,
    },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Fen(e) => write!(f, "FEN tag: {e}"),
            RecordError::Tag(t) => write!(f, "malformed tag: {t}"),
            RecordError::Stray(t) => write!(f, "unexpected text: {t:?}"),
            RecordError::Series { index, error } => write!(f, "series {}: {error}", index + 1),
            RecordError::Game { index, error } => write!(f, "series {}: {error}", index + 1),
        }
    }
}

impl std::error::Error for RecordError {}

const RESULTS: [&str; 6] = ["1-0", "0-1", "1/2-1/2", "½-½", "1/2", "*"];

/// Reads a game record and checks every series.
///
/// # Errors
///
/// A [`RecordError`] for the first problem.
pub fn read(text: &str) -> Result<Record, RecordError> {
    let mut tags = Vec::new();
    let mut body = String::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            tags.push(parse_tag(line)?);
        } else {
            // `;` comments run to the end of the line.
            body.push_str(line.split(';').next().unwrap_or(""));
            body.push('\n');
        }
    }
    let body = strip_braces(&body);
    let start = match tags.iter().find(|(k, _)| k.eq_ignore_ascii_case("FEN")) {
        Some((_, f)) => fen::parse(f).map_err(RecordError::Fen)?,
        None => Position::new(),
    };
    let (chunks, result) = split_series(&body)?;
    let mut game = Game::from_position(start.clone());
    let mut series = Vec::with_capacity(chunks.len());
    for (index, chunk) in chunks.iter().enumerate() {
        let s = algebraic::parse_series(game.position(), chunk)
            .map_err(|error| RecordError::Series { index, error })?;
        let moves = s.moves().to_vec();
        game.play_series(&moves).map_err(|error| RecordError::Game { index, error })?;
        series.push(moves);
    }
    Ok(Record { tags, start, series, result })
}

fn parse_tag(line: &str) -> Result<(String, String), RecordError> {
    let bad = || RecordError::Tag(line.to_owned());
    let inner = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')).ok_or_else(bad)?;
    let (name, value) = inner.split_once(char::is_whitespace).ok_or_else(bad)?;
    let value = value.trim().strip_prefix('"').and_then(|v| v.strip_suffix('"')).ok_or_else(bad)?;
    Ok((name.to_owned(), value.replace("\\\"", "\"")))
}

fn strip_braces(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut depth = 0u32;
    for c in text.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            _ if depth == 0 => out.push(c),
            _ => out.push(' '),
        }
    }
    out
}

/// Splits the move text at the series labels; returns each series' text (label
/// included) and the result, if written.
fn split_series(body: &str) -> Result<(Vec<String>, Option<String>), RecordError> {
    let mut chunks: Vec<String> = Vec::new();
    let mut result = None;
    for word in body.split_whitespace() {
        if RESULTS.contains(&word) {
            result = Some(word.to_owned());
            continue;
        }
        if is_move_number(word) {
            continue;
        }
        let mut chars = word.chars();
        let starts_series = matches!((chars.next(), chars.next()), (Some(c), Some(')')) if algebraic::player_of_label(c).is_some());
        if starts_series {
            chunks.push(word.to_owned());
        } else if let Some(last) = chunks.last_mut() {
            last.push(' ');
            last.push_str(word);
        } else {
            return Err(RecordError::Stray(word.to_owned()));
        }
    }
    Ok((chunks, result))
}

fn is_move_number(word: &str) -> bool {
    let digits = word.trim_end_matches('.');
    word.ends_with('.') && !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())
}

/// Writes a game as a record: tags, then numbered series, then the result if the game
/// is over.
pub fn write(game: &Game, tags: &[(String, String)]) -> String {
    let mut out = String::new();
    for (k, v) in tags {
        out.push_str(&format!("[{k} \"{}\"]\n", v.replace('"', "\\\"")));
    }
    if *game.start() != Position::new() {
        out.push_str(&format!("[FEN \"{}\"]\n", fen::write(game.start())));
    }
    if !out.is_empty() {
        out.push('\n');
    }
    let positions = game.positions();
    for (i, moves) in game.series().iter().enumerate() {
        let pos = &positions[i];
        let number = pos.fullmove_number();
        if pos.turn() == crate::Color::First || i == 0 {
            if i > 0 {
                out.push('\n');
            }
            out.push_str(&format!("{number}. "));
        } else {
            out.push(' ');
        }
        out.push_str(&algebraic::write_series(pos, moves).unwrap_or_default());
    }
    if let Some(o) = game.outcome() {
        out.push('\n');
        out.push_str(o.result_str());
    }
    out.push('\n');
    out
}
