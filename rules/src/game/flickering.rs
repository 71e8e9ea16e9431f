//! A Flickering chess game: the start position, the series played, and the laws that
//! end it (flickering-chess.md "End of the game"). The series themselves (what a turn
//! may contain) are the core's, [`crate::chess::Series`]; this is the record and its laws.
//! Also reachable as `tavoliere_rules::chess::Game`.

use std::fmt;

use crate::chess::{search_saving_series, Move, Position, SearchLimits, SearchResult, Series, SeriesError};
use crate::game::ruling::{Citation, Evidence, NoLegalMove, Repetition, Ruling};
use crate::notation::chess::fen;
use crate::{EndReason, Outcome};

/// Why [`Game::play_series`] or [`Game::claim_repetition`] refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The game is already over.
    GameOver(Outcome),
    /// The series is not legal.
    IllegalSeries(SeriesError),
    /// A repetition draw was claimed but the position has not occurred three times.
    NoRepetition,
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::GameOver(o) => write!(f, "the game is over ({})", o.reason()),
            GameError::IllegalSeries(e) => write!(f, "illegal series: {e}"),
            GameError::NoRepetition => f.write_str("the position has not occurred three times"),
        }
    }
}

impl std::error::Error for GameError {}

/// A Flickering chess game record with its current position and outcome.
///
/// The outcome by rule (mate, stalemate) is judged after every series with
/// [`search_saving_series`]. **Interpretation** of "Mate" and "Stalemate": when no series
/// can end with the king free, the game is a stalemate (draw) if the player has no legal
/// move at all and the king is not attacked, and a mate (loss) otherwise, including the
/// rare case of a king not attacked whose every legal series would end attacked (the
/// player must move, and cannot end a series). If the search reaches its node limit the
/// game goes on (no outcome): the player may still find a series, or resign.
///
/// Threefold repetition ("the same position occurs three times with the same player to
/// play a series") is a *claimable* draw: [`Game::can_claim_repetition`],
/// [`Game::claim_repetition`]. Positions are compared by Zobrist key (pieces, player to
/// play, castling rights, en passant targets).
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    series: Vec<Vec<Move>>,
    positions: Vec<Position>,
    limits: SearchLimits,
    outcome: Option<Outcome>,
    /// Why a law or a claim ended the game, once one has.
    ruling: Option<Ruling>,
}

impl Default for Game {
    fn default() -> Game {
        Game::new()
    }
}

impl Game {
    /// A game from the orthodox start position.
    pub fn new() -> Game {
        Game::from_position(Position::new())
    }

    /// A game from `start`, with the default search limits.
    pub fn from_position(start: Position) -> Game {
        Game::with_limits(start, SearchLimits::default())
    }

    /// A game from `start`, judging mate with the given search limits.
    pub fn with_limits(start: Position, limits: SearchLimits) -> Game {
        let outcome = outcome_by_rule(&start, limits);
        Game::judged(start, limits, outcome)
    }

    /// A game from a start someone supplied (a challenge's or an imported record's FEN):
    /// the start is judged within [`SearchLimits::START_POSITION`], every later series with
    /// the default limits. `None` when the start cannot be judged within that bound.
    pub fn from_supplied_start(start: Position) -> Option<Game> {
        let outcome = match search_saving_series(&start, SearchLimits::START_POSITION).0 {
            SearchResult::Undecided => return None,
            result => outcome_of(&start, result),
        };
        Some(Game::judged(start, SearchLimits::default(), outcome))
    }

    /// A game from `start` whose outcome by rule is already known.
    fn judged(start: Position, limits: SearchLimits, outcome: Option<Outcome>) -> Game {
        let mut game =
            Game { positions: vec![start.clone()], start, series: Vec::new(), limits, outcome, ruling: None };
        game.ruling = outcome.map(|o| game.explain(o));
        game
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().unwrap_or(&self.start)
    }

    /// The series played so far.
    pub fn series(&self) -> &[Vec<Move>] {
        &self.series
    }

    /// The positions at the start of every series so far, and the current one last.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// A new, empty series for the player to play.
    pub fn begin_series(&self) -> Series {
        Series::new(self.position().clone())
    }

    /// Plays a whole series.
    ///
    /// # Errors
    ///
    /// [`GameError::GameOver`] after the end of the game, [`GameError::IllegalSeries`] with
    /// the first refused move. The game is unchanged on error.
    pub fn play_series(&mut self, moves: &[Move]) -> Result<(), GameError> {
        if let Some(o) = self.outcome {
            return Err(GameError::GameOver(o));
        }
        let next = Series::play(self.position(), moves).map_err(GameError::IllegalSeries)?;
        self.outcome = outcome_by_rule(&next, self.limits);
        self.positions.push(next);
        self.series.push(moves.to_vec());
        self.ruling = self.outcome.map(|o| self.explain(o));
        Ok(())
    }

    /// How many times the current position occurred (with the same player to play).
    pub fn repetition_count(&self) -> usize {
        let key = self.position().zobrist();
        self.positions.iter().filter(|p| p.zobrist() == key).count()
    }

    /// Whether a draw by threefold repetition may be claimed now.
    pub fn can_claim_repetition(&self) -> bool {
        self.outcome.is_none() && self.repetition_count() >= 3
    }

    /// Claims the draw by threefold repetition and ends the game.
    ///
    /// # Errors
    ///
    /// [`GameError::GameOver`] or [`GameError::NoRepetition`].
    pub fn claim_repetition(&mut self) -> Result<Outcome, GameError> {
        if let Some(o) = self.outcome {
            return Err(GameError::GameOver(o));
        }
        if self.repetition_count() < 3 {
            return Err(GameError::NoRepetition);
        }
        let o = Outcome::draw(EndReason::Repetition);
        self.outcome = Some(o);
        self.ruling = Some(self.explain(o));
        Ok(o)
    }

    /// The end of the game, if reached: mate, stalemate or a claimed repetition.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Why the game ended (mate, stalemate, a claimed repetition), once it has. Plies are
    /// series: ply 3 is the third series of the game.
    pub fn ruling(&self) -> Option<&Ruling> {
        self.ruling.as_ref()
    }

    /// The ruling for `outcome`, reached now (flickering-chess.md "End of the game").
    fn explain(&self, outcome: Outcome) -> Ruling {
        let position = self.position();
        let evidence = match outcome.reason() {
            EndReason::Repetition => {
                let key = position.zobrist();
                Evidence::Repetition(Repetition {
                    position: fen::write(position),
                    occurrences: (0..self.positions.len() as u32)
                        .filter(|&p| self.positions[p as usize].zobrist() == key)
                        .collect(),
                    cycle_started_by: position.turn(),
                    // The Flickering repetition draw does not look at checks.
                    checking_throughout: Vec::new(),
                })
            }
            // Mate or stalemate: no series ends with the king free. The attackers of the
            // king are not listed (the chess core has no attacker list); `in_check` says
            // whether there are any.
            _ => Evidence::NoLegalMove(NoLegalMove {
                side: position.turn(),
                in_check: position.is_check(),
                checkers: Vec::new(),
                legal_moves: position.legal_moves().len() as u32,
            }),
        };
        Ruling {
            law: outcome.reason().as_str(),
            citation: Citation {
                spec: "flickering-chess.md",
                section: "End of the game",
                items: &[],
                interpretation: false,
            },
            ply: self.series.len() as u32,
            against: outcome.winner().map(|winner| !winner),
            evidence,
        }
    }
}

/// Mate or stalemate of the player to play in `pos`, by the exact series search.
fn outcome_by_rule(pos: &Position, limits: SearchLimits) -> Option<Outcome> {
    outcome_of(pos, search_saving_series(pos, limits).0)
}

/// The outcome the series search's `result` gives the player to play in `pos`.
fn outcome_of(pos: &Position, result: SearchResult) -> Option<Outcome> {
    match result {
        SearchResult::Saved(_) | SearchResult::Undecided => None,
        // flickering-chess.md "End of the game": stalemate.
        SearchResult::NoSaving { no_legal_move: true, in_check: false } => {
            Some(Outcome::draw(EndReason::Stalemate))
        }
        // flickering-chess.md "End of the game": mate.
        SearchResult::NoSaving { .. } => Some(Outcome::win(!pos.turn(), EndReason::Checkmate)),
    }
}

impl Position {
    /// Mate or stalemate in Flickering chess, judged by the exact series search with the
    /// default limits (no outcome if the limit is reached).
    pub fn flickering_outcome(&self) -> Option<Outcome> {
        outcome_by_rule(self, SearchLimits::default())
    }
}
