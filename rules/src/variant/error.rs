//! The refusals of the facade, typed: a move, a claim, a seat leaving or a game's set-up
//! refused, with the rules' own reason (each game's `IllegalMoveKind`, the notation
//! errors, the handicap bans) as data, not as English text (issue 15 §6).
//!
//! Each refusal has a stable machine-readable [`code`](MoveError::code) (kebab-case,
//! `illegal-move.blocked`, `notation.ambiguous`, `handicap.capture-banned`...), its
//! parameters as fields (the move text, the readings of an ambiguous text...), and an
//! English sentence as its `Display`. The server renders them once per transport: the
//! code and the sentence in JSON, a translated sentence on the pages (by code).
//!
//! Codes are shared between games where the reason is the same (`illegal-move.no-piece`
//! in every game), so that a client needs one text per code.

use std::fmt;

use super::{Notation, Variant};
use crate::game::ruleset::Ruleset;
use crate::notation::chess as chess_notation;
use crate::notation::seven_kingdoms as kingdoms_notation;
use crate::notation::shogi as shogi_notation;
use crate::notation::xiangqi as xiangqi_notation;
use crate::{chess, seven_kingdoms, shogi, xiangqi};

/// Every code a refusal of the facade can have ([`MoveError::code`],
/// [`ClaimError::code`], [`LeaveError::code`], [`SetupError::code`]): clients and the
/// server's message catalogues key their texts by these.
pub const CODES: [&str; 51] = [
    "notation.unreadable",
    "notation.wrong-notation",
    "notation.no-such-move",
    "notation.several-moves-fit",
    "notation.ambiguous",
    "notation.wrong-piece",
    "notation.wrong-player",
    "notation.nothing-to-capture",
    "illegal-move.no-piece",
    "illegal-move.not-your-piece",
    "illegal-move.not-a-move",
    "illegal-move.own-piece-on-target",
    "illegal-move.blocked",
    "illegal-move.leaves-king-in-check",
    "illegal-move.flying-general",
    "illegal-move.off-board",
    "illegal-move.cannot-promote",
    "illegal-move.must-promote",
    "illegal-move.not-in-hand",
    "illegal-move.drop-on-occupied",
    "illegal-move.drop-without-move",
    "illegal-move.nifu",
    "illegal-move.uchifuzume",
    "illegal-move.ignores-check",
    "illegal-move.piece-already-moved",
    "illegal-move.captures-king",
    "illegal-move.king-into-check",
    "illegal-move.empty-series",
    "illegal-move.king-left-attacked",
    "illegal-move.series-too-long",
    "illegal-move.emperor-never-moves",
    "illegal-move.diplomat-immune",
    "illegal-move.emperor-immune",
    "illegal-move.diplomat-never-captures",
    "handicap.capture-banned",
    "handicap.check-banned",
    "handicap.river-restriction",
    "game-over",
    "series.not-available",
    "claim.none-in-variant",
    "claim.kings-not-in-camp",
    "claim.not-allowed",
    "claim.no-repetition",
    "seat.two-seat-game",
    "seat.no-such-seat",
    "seat.already-out",
    "setup.seats",
    "setup.ruleset",
    "setup.handicap",
    "setup.start-position",
    "setup.replay",
];

/// What kind of problem a move text has (the coarse class of a [`MoveRefusal`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveErrorKind {
    /// Not a move in any notation (or in the notation asked for).
    Unreadable,
    /// Several legal moves fit the text.
    Ambiguous,
    /// A move, but not a legal one (by the position or the game's laws).
    Illegal,
    /// The game is over.
    GameOver,
}

/// One reading of an ambiguous move text: the notation and the move it names there, in
/// the variant's canonical notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reading {
    /// The notation that reads the text so.
    pub notation: Notation,
    /// The move it names, canonical (ICCS, USI...).
    pub canonical: String,
}

/// Why a move is illegal, in the terms of the game played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// Xiangqi (`xiangqi.md` "Moves", "Legality").
    Xiangqi(xiangqi::IllegalMoveKind),
    /// Shogi and MiniShogi (`shogi.md` "Moves", "Promotion", "Drops").
    Shogi(shogi::IllegalMoveKind),
    /// Flickering chess: a move of the series (its index in [`chess::SeriesError`]) or
    /// the series' end (`flickering-chess.md` "The series").
    Series(chess::SeriesError),
    /// The Seven Kingdoms (`seven-kingdoms.md` "Board, players, pieces").
    Kingdoms(seven_kingdoms::IllegalMoveKind),
}

impl IllegalMove {
    /// The stable code, `illegal-move.<reason>`.
    pub fn code(self) -> &'static str {
        use chess::SeriesErrorKind as S;
        use seven_kingdoms::IllegalMoveKind as K;
        use shogi::IllegalMoveKind as J;
        use xiangqi::IllegalMoveKind as X;
        match self {
            IllegalMove::Xiangqi(kind) => match kind {
                X::NoPiece => "illegal-move.no-piece",
                X::WrongColor => "illegal-move.not-your-piece",
                X::NotAMove => "illegal-move.not-a-move",
                X::CapturesOwnPiece => "illegal-move.own-piece-on-target",
                X::Blocked => "illegal-move.blocked",
                X::LeavesKingInCheck => "illegal-move.leaves-king-in-check",
                X::FlyingGeneral => "illegal-move.flying-general",
            },
            IllegalMove::Shogi(kind) => match kind {
                J::OffBoard => "illegal-move.off-board",
                J::NoPiece => "illegal-move.no-piece",
                J::OwnPieceOnTarget => "illegal-move.own-piece-on-target",
                J::NotAMove => "illegal-move.not-a-move",
                J::Blocked => "illegal-move.blocked",
                J::CannotPromote => "illegal-move.cannot-promote",
                J::MoveStuck => "illegal-move.must-promote",
                J::NotInHand => "illegal-move.not-in-hand",
                J::DropOnOccupied => "illegal-move.drop-on-occupied",
                J::DropStuck => "illegal-move.drop-without-move",
                J::TwoPawns => "illegal-move.nifu",
                J::DropPawnMate => "illegal-move.uchifuzume",
                J::IgnoredCheck => "illegal-move.ignores-check",
                J::LeavesKingInCheck => "illegal-move.leaves-king-in-check",
            },
            IllegalMove::Series(e) => match e.kind {
                S::NoPieceToMove => "illegal-move.no-piece",
                S::PieceAlreadyMoved => "illegal-move.piece-already-moved",
                S::CapturesKing => "illegal-move.captures-king",
                S::KingIntoCheck => "illegal-move.king-into-check",
                S::NotAMove => "illegal-move.not-a-move",
                S::EmptySeries => "illegal-move.empty-series",
                S::KingLeftAttacked => "illegal-move.king-left-attacked",
                S::TooManyMoves => "illegal-move.series-too-long",
            },
            IllegalMove::Kingdoms(kind) => match kind {
                K::GameOver => "game-over",
                K::EmptyOrigin => "illegal-move.no-piece",
                K::EmperorNeverMoves => "illegal-move.emperor-never-moves",
                K::NotYourPiece { .. } => "illegal-move.not-your-piece",
                K::OwnPieceOnTarget => "illegal-move.own-piece-on-target",
                K::DiplomatIsImmune => "illegal-move.diplomat-immune",
                K::EmperorIsImmune => "illegal-move.emperor-immune",
                K::DiplomatNeverCaptures => "illegal-move.diplomat-never-captures",
                K::NotAPieceMove => "illegal-move.not-a-move",
            },
        }
    }

    /// For Flickering chess, the 1-based number of the move of the series refused (none
    /// for errors about ending the series).
    pub fn series_move(self) -> Option<usize> {
        match self {
            IllegalMove::Series(e) => match e.kind {
                chess::SeriesErrorKind::EmptySeries | chess::SeriesErrorKind::KingLeftAttacked => None,
                _ => Some(e.index + 1),
            },
            _ => None,
        }
    }
}

impl fmt::Display for IllegalMove {
    /// The reason as a clause, lower case, without a full stop.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use chess::SeriesErrorKind as S;
        use seven_kingdoms::IllegalMoveKind as K;
        use shogi::IllegalMoveKind as J;
        use xiangqi::IllegalMoveKind as X;
        let clause = match *self {
            IllegalMove::Xiangqi(kind) => match kind {
                X::NoPiece => "there is no piece on the origin point",
                X::WrongColor => "that piece belongs to the other side",
                X::NotAMove => "that piece cannot move that way",
                X::CapturesOwnPiece => "a piece cannot capture a piece of its own side",
                X::Blocked => "the piece's way is blocked",
                X::LeavesKingInCheck => "it would leave the king in check",
                X::FlyingGeneral => "it would leave the two kings facing each other on an open file",
            },
            IllegalMove::Shogi(kind) => match kind {
                J::OffBoard => "a square is outside the board",
                J::NoPiece => "there is no piece of the side to move on the origin square",
                J::OwnPieceOnTarget => "the destination holds one of the mover's own pieces",
                J::NotAMove => "the piece does not move that way",
                J::Blocked => "the piece's way is blocked",
                J::CannotPromote => "this move cannot promote",
                J::MoveStuck => "the piece must promote there",
                J::NotInHand => "that piece is not in hand",
                J::DropOnOccupied => "a piece cannot be dropped on an occupied square",
                J::DropStuck => "a piece dropped there could never move",
                J::TwoPawns => "a second unpromoted pawn on a file is forbidden (nifu)",
                J::DropPawnMate => "checkmate by a pawn drop is forbidden (uchifuzume)",
                J::IgnoredCheck => "the king is in check and the move does not parry it",
                J::LeavesKingInCheck => "it would expose the king",
            },
            IllegalMove::Series(e) => {
                let n = e.index + 1;
                return match e.kind {
                    S::NoPieceToMove => write!(f, "move {n} of the series: the player has no piece there"),
                    S::PieceAlreadyMoved => {
                        write!(f, "move {n} of the series: this piece already moved in the series")
                    }
                    S::CapturesKing => write!(f, "move {n} of the series: a piece never captures the king"),
                    S::KingIntoCheck => write!(f, "move {n} of the series: the king may not move into check"),
                    S::NotAMove => write!(f, "move {n} of the series: the piece cannot move there"),
                    S::EmptySeries => f.write_str("a series needs at least one move"),
                    S::KingLeftAttacked => f.write_str("the series would end with the king attacked"),
                    S::TooManyMoves => write!(f, "move {n} of the series: a series has at most 31 moves"),
                };
            }
            IllegalMove::Kingdoms(kind) => match kind {
                K::NotYourPiece { turn, owner } => {
                    return write!(f, "that piece belongs to {owner}, and {turn} is to move")
                }
                K::GameOver => "the game is over",
                K::EmptyOrigin => "no piece stands on the origin",
                K::EmperorNeverMoves => "the emperor never moves",
                K::OwnPieceOnTarget => "a piece cannot capture its own army",
                K::DiplomatIsImmune => "a diplomat can never be captured",
                K::EmperorIsImmune => "the emperor cannot be captured",
                K::DiplomatNeverCaptures => "a diplomat never captures",
                K::NotAPieceMove => "the piece cannot move there",
            },
        };
        f.write_str(clause)
    }
}

/// A handicap rule that forbids a move (`xiangqi.md` "Handicap games", `minishogi.md`
/// "Handicaps").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HandicapBan {
    /// The handicap forbids this capture.
    Capture,
    /// The receiver's extra moves may not give check.
    Check,
    /// The receiver's extra moves may not go there (river restriction).
    River,
}

impl HandicapBan {
    /// The stable code, `handicap.<ban>`.
    pub fn code(self) -> &'static str {
        match self {
            HandicapBan::Capture => "handicap.capture-banned",
            HandicapBan::Check => "handicap.check-banned",
            HandicapBan::River => "handicap.river-restriction",
        }
    }
}

impl fmt::Display for HandicapBan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            HandicapBan::Capture => "the handicap forbids this capture",
            HandicapBan::Check => "the handicap's extra moves may not give check",
            HandicapBan::River => "the handicap's extra moves may not go there (river restriction)",
        })
    }
}

/// Why a move text cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveRefusal {
    /// Not a move in any notation of the variant (or in the notation asked for).
    Unreadable,
    /// The notation asked for is not one of the variant's.
    WrongNotation {
        /// The notation asked for.
        notation: Notation,
        /// The variant played.
        variant: Variant,
    },
    /// The text is readable but names no legal move (the notation does not tell why:
    /// a descriptive text fits no legal move).
    NoSuchMove,
    /// Several legal moves fit the text in its notation (an origin, or `+`/`=`, is
    /// missing).
    SeveralMovesFit,
    /// Two notations read the text as two different legal moves; both readings (issue
    /// 15 §4: a text is read one way only).
    Ambiguous([Reading; 2]),
    /// The text names a piece that does not stand on the origin.
    WrongPiece {
        /// The piece named.
        written: String,
        /// What stands there, if anything.
        found: Option<String>,
    },
    /// The text names a side or kingdom that is not to move (a Flickering series label,
    /// a Seven Kingdoms kingdom).
    WrongPlayer {
        /// The side or kingdom named.
        written: String,
        /// The side or kingdom to move.
        to_move: String,
    },
    /// A capture mark on a move that captures nothing.
    NothingToCapture,
    /// The move is illegal in the position.
    Illegal(IllegalMove),
    /// A handicap forbids the move.
    Handicap(HandicapBan),
    /// The game is over.
    GameOver,
    /// A series was asked of a game that has one move a turn.
    NoSeries(Variant),
}

/// A move text that cannot be played: the text and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveError {
    /// The move text as the player wrote it (trimmed).
    pub text: String,
    /// Why it cannot be played.
    pub refusal: MoveRefusal,
}

impl MoveError {
    /// A refusal of `text`.
    pub fn new(text: &str, refusal: MoveRefusal) -> MoveError {
        MoveError { text: text.to_owned(), refusal }
    }

    /// The stable machine-readable code (kebab-case, e.g. `illegal-move.blocked`).
    pub fn code(&self) -> &'static str {
        match &self.refusal {
            MoveRefusal::Unreadable => "notation.unreadable",
            MoveRefusal::WrongNotation { .. } => "notation.wrong-notation",
            MoveRefusal::NoSuchMove => "notation.no-such-move",
            MoveRefusal::SeveralMovesFit => "notation.several-moves-fit",
            MoveRefusal::Ambiguous(_) => "notation.ambiguous",
            MoveRefusal::WrongPiece { .. } => "notation.wrong-piece",
            MoveRefusal::WrongPlayer { .. } => "notation.wrong-player",
            MoveRefusal::NothingToCapture => "notation.nothing-to-capture",
            MoveRefusal::Illegal(illegal) => illegal.code(),
            MoveRefusal::Handicap(ban) => ban.code(),
            MoveRefusal::GameOver => "game-over",
            MoveRefusal::NoSeries(_) => "series.not-available",
        }
    }

    /// The coarse class of the refusal.
    pub fn kind(&self) -> MoveErrorKind {
        match &self.refusal {
            MoveRefusal::Unreadable | MoveRefusal::WrongNotation { .. } => MoveErrorKind::Unreadable,
            MoveRefusal::SeveralMovesFit | MoveRefusal::Ambiguous(_) => MoveErrorKind::Ambiguous,
            MoveRefusal::GameOver
            | MoveRefusal::Illegal(IllegalMove::Kingdoms(seven_kingdoms::IllegalMoveKind::GameOver)) => {
                MoveErrorKind::GameOver
            }
            _ => MoveErrorKind::Illegal,
        }
    }

    /// The parameters of the refusal by name, as text (for messages in other languages):
    /// always `move`; `notation`/`variant` for a wrong notation; `notation1`, `reading1`,
    /// `notation2`, `reading2` for an ambiguous text; `written`/`found` for a wrong piece;
    /// `written`/`to_move` for a wrong player; `n` for a move of a Flickering series;
    /// `owner`/`turn` for a Seven Kingdoms piece of another kingdom.
    pub fn params(&self) -> Vec<(&'static str, String)> {
        let mut params = vec![("move", self.text.clone())];
        match &self.refusal {
            MoveRefusal::WrongNotation { notation, variant } => {
                params.push(("notation", notation.name().to_owned()));
                params.push(("variant", variant.name().to_owned()));
            }
            MoveRefusal::Ambiguous([first, second]) => {
                params.push(("notation1", first.notation.display_name().to_owned()));
                params.push(("reading1", first.canonical.clone()));
                params.push(("notation2", second.notation.display_name().to_owned()));
                params.push(("reading2", second.canonical.clone()));
            }
            MoveRefusal::WrongPiece { written, found } => {
                params.push(("written", written.clone()));
                params.push(("found", found.clone().unwrap_or_default()));
            }
            MoveRefusal::WrongPlayer { written, to_move } => {
                params.push(("written", written.clone()));
                params.push(("to_move", to_move.clone()));
            }
            MoveRefusal::Illegal(illegal) => {
                if let Some(n) = illegal.series_move() {
                    params.push(("n", n.to_string()));
                }
                if let IllegalMove::Kingdoms(seven_kingdoms::IllegalMoveKind::NotYourPiece { turn, owner }) =
                    illegal
                {
                    params.push(("owner", owner.name().to_owned()));
                    params.push(("turn", turn.name().to_owned()));
                }
            }
            MoveRefusal::NoSeries(variant) => params.push(("variant", variant.name().to_owned())),
            _ => {}
        }
        params
    }

    /// The readings of an ambiguous text (empty for other refusals).
    pub fn readings(&self) -> &[Reading] {
        match &self.refusal {
            MoveRefusal::Ambiguous(readings) => readings,
            _ => &[],
        }
    }
}

impl fmt::Display for MoveError {
    /// An English sentence for the player, naming the move text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = &self.text;
        match &self.refusal {
            MoveRefusal::Unreadable => write!(f, "“{text}” is not a move in any notation of this game."),
            MoveRefusal::WrongNotation { notation, variant } => {
                write!(f, "{} is not a notation of {variant}.", notation.display_name())
            }
            MoveRefusal::NoSuchMove => write!(f, "No legal move fits “{text}”."),
            MoveRefusal::SeveralMovesFit => {
                write!(f, "Several legal moves fit “{text}”: name the piece's square of origin.")
            }
            MoveRefusal::Ambiguous([first, second]) => write!(
                f,
                "“{text}” reads as {} in {} and as {} in {}: write the move so that it has one reading.",
                first.canonical,
                first.notation.display_name(),
                second.canonical,
                second.notation.display_name()
            ),
            MoveRefusal::WrongPiece { written, found: Some(found) } => {
                write!(f, "{text} is not legal: the piece there is {found}, not {written}.")
            }
            MoveRefusal::WrongPiece { written, found: None } => {
                write!(f, "{text} is not legal: no {written} stands there.")
            }
            MoveRefusal::WrongPlayer { written, to_move } => {
                write!(f, "{text} names {written}, but {to_move} is to move.")
            }
            MoveRefusal::NothingToCapture => {
                write!(f, "{text} is marked as a capture but captures nothing.")
            }
            MoveRefusal::Illegal(illegal) => write!(f, "{text} is not legal: {illegal}."),
            MoveRefusal::Handicap(ban) => write!(f, "{text} is not allowed: {ban}."),
            MoveRefusal::GameOver => f.write_str("The game is over: no more moves can be played."),
            MoveRefusal::NoSeries(variant) => write!(f, "{variant} has no series: one move a turn."),
        }
    }
}

impl std::error::Error for MoveError {}

// The readers' errors, as refusals (issue 16 §5: one `From` impl each instead of mappers).

impl From<xiangqi_notation::NotationError> for MoveRefusal {
    fn from(e: xiangqi_notation::NotationError) -> MoveRefusal {
        use xiangqi_notation::NotationError as E;
        match e {
            E::Unreadable => MoveRefusal::Unreadable,
            E::Ambiguous => MoveRefusal::SeveralMovesFit,
            E::Illegal(Some(kind)) => MoveRefusal::Illegal(IllegalMove::Xiangqi(kind)),
            E::Illegal(None) => MoveRefusal::NoSuchMove,
            E::TwoReadings(readings) => MoveRefusal::Ambiguous(readings.map(|(notation, m)| Reading {
                notation: Notation::from_xiangqi(notation),
                canonical: m.to_string(),
            })),
        }
    }
}

impl From<shogi_notation::NotationError> for MoveRefusal {
    fn from(e: shogi_notation::NotationError) -> MoveRefusal {
        use shogi_notation::NotationError as E;
        match e {
            E::Unreadable => MoveRefusal::Unreadable,
            E::Ambiguous => MoveRefusal::SeveralMovesFit,
            E::Illegal(Some(kind)) => MoveRefusal::Illegal(IllegalMove::Shogi(kind)),
            E::Illegal(None) => MoveRefusal::NoSuchMove,
            E::TwoReadings(readings) => MoveRefusal::Ambiguous(readings.map(|(notation, m)| Reading {
                notation: match notation {
                    shogi_notation::MoveNotation::Usi => Notation::Usi,
                    shogi_notation::MoveNotation::Western => Notation::Western,
                    shogi_notation::MoveNotation::Japanese => Notation::Japanese,
                },
                canonical: m.to_string(),
            })),
            E::WrongSide(written) => MoveRefusal::WrongPlayer {
                written: shogi_notation::side_name(written).to_owned(),
                to_move: shogi_notation::side_name(!written).to_owned(),
            },
        }
    }
}

impl From<chess_notation::NotationError> for MoveRefusal {
    fn from(e: chess_notation::NotationError) -> MoveRefusal {
        use chess_notation::NotationError as E;
        match e {
            E::Unreadable(_) => MoveRefusal::Unreadable,
            E::Ambiguous(_) => MoveRefusal::SeveralMovesFit,
            E::Illegal(_) => MoveRefusal::NoSuchMove,
            E::WrongPlayer(label) => MoveRefusal::WrongPlayer {
                written: label.trim().chars().next().map(String::from).unwrap_or_default(),
                to_move: String::new(),
            },
            E::Series(e) => MoveRefusal::Illegal(IllegalMove::Series(e)),
        }
    }
}

impl From<chess::GameError> for MoveRefusal {
    fn from(e: chess::GameError) -> MoveRefusal {
        match e {
            chess::GameError::GameOver(_) => MoveRefusal::GameOver,
            chess::GameError::IllegalSeries(e) => MoveRefusal::Illegal(IllegalMove::Series(e)),
            // Not a refusal of a move; a series never meets it.
            chess::GameError::NoRepetition => MoveRefusal::NoSuchMove,
        }
    }
}

impl From<kingdoms_notation::moves::NotationError> for MoveRefusal {
    fn from(e: kingdoms_notation::moves::NotationError) -> MoveRefusal {
        use kingdoms_notation::moves::NotationError as E;
        use seven_kingdoms::Occupant;
        match e {
            E::Unreadable(_) => MoveRefusal::Unreadable,
            E::NotTheirTurn { written, turn } => MoveRefusal::WrongPlayer {
                written: written.name().to_owned(),
                to_move: turn.name().to_owned(),
            },
            E::WrongPiece { written, found } => MoveRefusal::WrongPiece {
                written: written.english().to_owned(),
                found: found.map(|occupant| match occupant {
                    Occupant::Piece(p) => format!("{}'s {}", p.kingdom, p.kind.english()),
                    Occupant::Emperor => "the emperor".to_owned(),
                }),
            },
            E::NothingToCapture => MoveRefusal::NothingToCapture,
            E::Illegal(e) => MoveRefusal::from(e.kind),
        }
    }
}

impl From<seven_kingdoms::IllegalMoveKind> for MoveRefusal {
    fn from(kind: seven_kingdoms::IllegalMoveKind) -> MoveRefusal {
        match kind {
            seven_kingdoms::IllegalMoveKind::GameOver => MoveRefusal::GameOver,
            other => MoveRefusal::Illegal(IllegalMove::Kingdoms(other)),
        }
    }
}

impl From<crate::game::xiangqi::GameError> for MoveRefusal {
    fn from(e: crate::game::xiangqi::GameError) -> MoveRefusal {
        use crate::game::xiangqi::GameError as E;
        match e {
            E::GameOver => MoveRefusal::GameOver,
            E::Illegal(kind) => MoveRefusal::Illegal(IllegalMove::Xiangqi(kind)),
            E::HandicapCapture => MoveRefusal::Handicap(HandicapBan::Capture),
            E::HandicapCheck => MoveRefusal::Handicap(HandicapBan::Check),
            E::HandicapRiver => MoveRefusal::Handicap(HandicapBan::River),
        }
    }
}

impl From<crate::game::shogi::GameError> for MoveRefusal {
    fn from(e: crate::game::shogi::GameError) -> MoveRefusal {
        use crate::game::shogi::GameError as E;
        match e {
            E::GameOver => MoveRefusal::GameOver,
            E::Illegal(kind) => MoveRefusal::Illegal(IllegalMove::Shogi(kind)),
            E::HandicapCapture => MoveRefusal::Handicap(HandicapBan::Capture),
            // A claim's refusal; a move never meets it.
            E::ClaimNotAllowed(_) => MoveRefusal::NoSuchMove,
        }
    }
}

/// Why a claim (Shogi impasse, Flickering threefold repetition) was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClaimError {
    /// The variant has no claims (draws are by agreement).
    NoClaims(Variant),
    /// The 24-point impasse count needs both kings in their promotion zones (`shogi.md`
    /// "Impasse").
    KingsNotInCamp,
    /// The claim's conditions are not met now; the rule's reason.
    NotAllowed(&'static str),
    /// A repetition draw was claimed but the position has not occurred three times.
    NoRepetition,
    /// The game is over.
    GameOver,
}

impl ClaimError {
    /// The stable code: `claim.none-in-variant`, `claim.not-allowed`,
    /// `claim.no-repetition`, `game-over`.
    pub fn code(&self) -> &'static str {
        match self {
            ClaimError::NoClaims(_) => "claim.none-in-variant",
            ClaimError::KingsNotInCamp => "claim.kings-not-in-camp",
            ClaimError::NotAllowed(_) => "claim.not-allowed",
            ClaimError::NoRepetition => "claim.no-repetition",
            ClaimError::GameOver => "game-over",
        }
    }

    /// The parameters by name: `variant` for a variant without claims, `reason` (the
    /// rule's English reason) for a claim whose conditions are not met.
    pub fn params(&self) -> Vec<(&'static str, String)> {
        match self {
            ClaimError::NoClaims(variant) => vec![("variant", variant.name().to_owned())],
            ClaimError::NotAllowed(reason) => vec![("reason", (*reason).to_owned())],
            ClaimError::KingsNotInCamp | ClaimError::NoRepetition | ClaimError::GameOver => Vec::new(),
        }
    }
}

impl fmt::Display for ClaimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClaimError::NoClaims(variant) => write!(f, "{variant} has no claims; draws are by agreement."),
            ClaimError::KingsNotInCamp => {
                f.write_str("The 24-point count needs both kings in their promotion zones.")
            }
            ClaimError::NotAllowed(reason) => write!(f, "The claim is not allowed now: {reason}."),
            ClaimError::NoRepetition => {
                f.write_str("The position has not occurred three times: no draw to claim.")
            }
            ClaimError::GameOver => f.write_str("The game is over: nothing can be claimed."),
        }
    }
}

impl std::error::Error for ClaimError {}

/// The Shogi game's reason for refusing the 24-point count (`crate::game::shogi`); the
/// test `the_shogi_claim_reasons_are_typed` keeps the two in step.
pub(crate) const KINGS_NOT_IN_CAMP: &str = "the 24-point count needs both kings in their promotion zones";

impl From<crate::game::shogi::GameError> for ClaimError {
    fn from(e: crate::game::shogi::GameError) -> ClaimError {
        use crate::game::shogi::GameError as E;
        match e {
            E::GameOver => ClaimError::GameOver,
            E::ClaimNotAllowed(KINGS_NOT_IN_CAMP) => ClaimError::KingsNotInCamp,
            E::ClaimNotAllowed(reason) => ClaimError::NotAllowed(reason),
            // A move's refusals; a claim never meets them.
            E::Illegal(_) | E::HandicapCapture => ClaimError::NotAllowed("the position does not allow it"),
        }
    }
}

impl From<chess::GameError> for ClaimError {
    fn from(e: chess::GameError) -> ClaimError {
        match e {
            chess::GameError::GameOver(_) => ClaimError::GameOver,
            chess::GameError::NoRepetition | chess::GameError::IllegalSeries(_) => ClaimError::NoRepetition,
        }
    }
}

/// Why a seat cannot leave a game ([`super::AnyGame::seat_leaves`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LeaveError {
    /// In a two-seat game the game ends when a player leaves (the server ends it).
    TwoSeatGame(Variant),
    /// No such seat in this game.
    NoSuchSeat(usize),
    /// Every kingdom of the seat is already defeated.
    AlreadyOut(usize),
    /// The game is over.
    GameOver,
}

impl LeaveError {
    /// The stable code: `seat.two-seat-game`, `seat.no-such-seat`, `seat.already-out`,
    /// `game-over`.
    pub fn code(&self) -> &'static str {
        match self {
            LeaveError::TwoSeatGame(_) => "seat.two-seat-game",
            LeaveError::NoSuchSeat(_) => "seat.no-such-seat",
            LeaveError::AlreadyOut(_) => "seat.already-out",
            LeaveError::GameOver => "game-over",
        }
    }
}

impl fmt::Display for LeaveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LeaveError::TwoSeatGame(variant) => write!(f, "In {variant} the game ends when a player leaves."),
            LeaveError::NoSuchSeat(seat) => write!(f, "There is no seat {seat} in this game."),
            LeaveError::AlreadyOut(seat) => write!(f, "Seat {seat} has no kingdom left in play."),
            LeaveError::GameOver => f.write_str("The game is over."),
        }
    }
}

impl std::error::Error for LeaveError {}

impl From<seven_kingdoms::SeatError> for LeaveError {
    fn from(e: seven_kingdoms::SeatError) -> LeaveError {
        match e {
            seven_kingdoms::SeatError::NoSuchSeat(seat) => LeaveError::NoSuchSeat(seat.index()),
            seven_kingdoms::SeatError::AlreadyOut(seat) => LeaveError::AlreadyOut(seat.index()),
            seven_kingdoms::SeatError::GameOver => LeaveError::GameOver,
        }
    }
}

/// Why a start position text cannot be used, in the reader's own terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartPositionError {
    /// A Xiangqi FEN.
    Xiangqi(xiangqi_notation::fen::FenError),
    /// A Shogi or MiniShogi SFEN.
    Shogi(shogi_notation::sfen::SfenError),
    /// A Flickering chess FEN.
    Chess(chess_notation::fen::FenError),
    /// A Seven Kingdoms position text.
    Kingdoms(kingdoms_notation::position_text::PositionTextError),
    /// A Seven Kingdoms seating.
    Seating(seven_kingdoms::SeatingError),
    /// A Flickering chess start whose mate or stalemate the series search cannot decide
    /// within [`chess::SearchLimits::START_POSITION`].
    Undecided,
}

impl fmt::Display for StartPositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartPositionError::Xiangqi(e) => e.fmt(f),
            StartPositionError::Shogi(e) => e.fmt(f),
            StartPositionError::Chess(e) => e.fmt(f),
            StartPositionError::Kingdoms(e) => e.fmt(f),
            StartPositionError::Seating(e) => e.fmt(f),
            StartPositionError::Undecided => {
                f.write_str("whether the player to move is mated cannot be decided quickly in this position")
            }
        }
    }
}

/// A start position or game set-up that cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// The variant is not played by that many players.
    Seats {
        /// The variant.
        variant: Variant,
        /// The seats asked for.
        seats: usize,
    },
    /// The ruleset is not one of the variant's.
    Ruleset {
        /// The ruleset.
        ruleset: Ruleset,
        /// The variant.
        variant: Variant,
    },
    /// The handicap is not one of the variant's.
    Handicap {
        /// The variant.
        variant: Variant,
    },
    /// The start position cannot be read or is not a legal position.
    StartPosition(StartPositionError),
    /// A move of a game being replayed cannot be played (1-based ply).
    Replay {
        /// The ply of the move.
        ply: u32,
        /// Why it was refused.
        error: MoveError,
    },
}

impl SetupError {
    /// The parameters by name: `variant`, `seats`, `min`, `max` for seats; `ruleset` and
    /// `variant` for a ruleset; `variant` for a handicap; `detail` (the reader's English
    /// reason) for a start position; `ply` and the move's parameters for a replay.
    pub fn params(&self) -> Vec<(&'static str, String)> {
        match self {
            SetupError::Seats { variant, seats } => {
                let (min, max) = variant.seat_range();
                vec![
                    ("variant", variant.name().to_owned()),
                    ("seats", seats.to_string()),
                    ("min", min.to_string()),
                    ("max", max.to_string()),
                ]
            }
            SetupError::Ruleset { ruleset, variant } => {
                vec![("ruleset", ruleset.name().to_owned()), ("variant", variant.name().to_owned())]
            }
            SetupError::Handicap { variant } => vec![("variant", variant.name().to_owned())],
            SetupError::StartPosition(e) => vec![("detail", e.to_string())],
            SetupError::Replay { ply, error } => {
                let mut params = error.params();
                params.push(("ply", ply.to_string()));
                params
            }
        }
    }

    /// The stable code: `setup.seats`, `setup.ruleset`, `setup.handicap`,
    /// `setup.start-position`, `setup.replay`.
    pub fn code(&self) -> &'static str {
        match self {
            SetupError::Seats { .. } => "setup.seats",
            SetupError::Ruleset { .. } => "setup.ruleset",
            SetupError::Handicap { .. } => "setup.handicap",
            SetupError::StartPosition(_) => "setup.start-position",
            SetupError::Replay { .. } => "setup.replay",
        }
    }
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Seats { variant, seats } => {
                let (min, max) = variant.seat_range();
                if min == max {
                    write!(f, "{variant} is played by {min} players, not {seats}.")
                } else {
                    write!(f, "{variant} is played by {min} to {max} players, not {seats}.")
                }
            }
            SetupError::Ruleset { ruleset, variant } => {
                write!(f, "Ruleset {ruleset} is not a {variant} ruleset.")
            }
            SetupError::Handicap { variant } => write!(f, "That handicap is not a {variant} handicap."),
            SetupError::StartPosition(e) => write!(f, "The start position cannot be used: {e}."),
            SetupError::Replay { ply, error } => write!(f, "Move {ply} cannot be replayed: {error}"),
        }
    }
}

impl std::error::Error for SetupError {}

impl From<StartPositionError> for SetupError {
    fn from(e: StartPositionError) -> SetupError {
        SetupError::StartPosition(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_refusal_code_is_listed() {
        use chess::SeriesErrorKind as S;
        use seven_kingdoms::{IllegalMoveKind as K, Kingdom};
        use shogi::IllegalMoveKind as J;
        use xiangqi::IllegalMoveKind as X;
        let series = |kind| IllegalMove::Series(chess::SeriesError { kind, index: 0 });
        let mut illegal: Vec<IllegalMove> = [
            X::NoPiece,
            X::WrongColor,
            X::NotAMove,
            X::CapturesOwnPiece,
            X::Blocked,
            X::LeavesKingInCheck,
            X::FlyingGeneral,
        ]
        .map(IllegalMove::Xiangqi)
        .to_vec();
        illegal.extend(
            [
                J::OffBoard,
                J::NoPiece,
                J::OwnPieceOnTarget,
                J::NotAMove,
                J::Blocked,
                J::CannotPromote,
                J::MoveStuck,
                J::NotInHand,
                J::DropOnOccupied,
                J::DropStuck,
                J::TwoPawns,
                J::DropPawnMate,
                J::IgnoredCheck,
                J::LeavesKingInCheck,
            ]
            .map(IllegalMove::Shogi),
        );
        illegal.extend(
            [
                S::NoPieceToMove,
                S::PieceAlreadyMoved,
                S::CapturesKing,
                S::KingIntoCheck,
                S::NotAMove,
                S::EmptySeries,
                S::KingLeftAttacked,
                S::TooManyMoves,
            ]
            .map(series),
        );
        illegal.extend(
            [
                K::GameOver,
                K::EmptyOrigin,
                K::EmperorNeverMoves,
                K::NotYourPiece { turn: Kingdom::Qin, owner: Kingdom::Chu },
                K::OwnPieceOnTarget,
                K::DiplomatIsImmune,
                K::EmperorIsImmune,
                K::DiplomatNeverCaptures,
                K::NotAPieceMove,
            ]
            .map(IllegalMove::Kingdoms),
        );
        let reading = || Reading { notation: Notation::Iccs, canonical: String::new() };
        let mut refusals: Vec<MoveRefusal> = illegal.into_iter().map(MoveRefusal::Illegal).collect();
        refusals.extend([
            MoveRefusal::Unreadable,
            MoveRefusal::WrongNotation { notation: Notation::Usi, variant: Variant::Xiangqi },
            MoveRefusal::NoSuchMove,
            MoveRefusal::SeveralMovesFit,
            MoveRefusal::Ambiguous([reading(), reading()]),
            MoveRefusal::WrongPiece { written: String::new(), found: None },
            MoveRefusal::WrongPlayer { written: String::new(), to_move: String::new() },
            MoveRefusal::NothingToCapture,
            MoveRefusal::Handicap(HandicapBan::Capture),
            MoveRefusal::Handicap(HandicapBan::Check),
            MoveRefusal::Handicap(HandicapBan::River),
            MoveRefusal::GameOver,
            MoveRefusal::NoSeries(Variant::Xiangqi),
        ]);
        let mut codes: Vec<&str> = refusals.into_iter().map(|r| MoveError::new("x", r).code()).collect();
        codes.extend(
            [
                ClaimError::NoClaims(Variant::Xiangqi),
                ClaimError::KingsNotInCamp,
                ClaimError::NotAllowed(""),
                ClaimError::NoRepetition,
                ClaimError::GameOver,
            ]
            .iter()
            .map(ClaimError::code),
        );
        codes.extend(
            [
                LeaveError::TwoSeatGame(Variant::Shogi),
                LeaveError::NoSuchSeat(9),
                LeaveError::AlreadyOut(1),
                LeaveError::GameOver,
            ]
            .iter()
            .map(LeaveError::code),
        );
        let setups = [
            SetupError::Seats { variant: Variant::Shogi, seats: 3 },
            SetupError::Ruleset { ruleset: Ruleset::Flickering, variant: Variant::Shogi },
            SetupError::Handicap { variant: Variant::Shogi },
            SetupError::StartPosition(StartPositionError::Seating(
                seven_kingdoms::SeatingError::SeatsOutOfOrder,
            )),
            SetupError::Replay { ply: 1, error: MoveError::new("x", MoveRefusal::Unreadable) },
        ];
        codes.extend(setups.iter().map(SetupError::code));
        for code in &codes {
            assert!(CODES.contains(code), "{code} is not in CODES");
        }
        for code in CODES {
            assert!(codes.contains(&code), "{code} is listed but never given");
        }
    }
}
