//! The facade the server uses: one game type over every variant, speaking text.
//!
//! The server stores moves in a canonical notation (ICCS for Xiangqi, USI for Shogi and
//! MiniShogi), reads moves in any notation a player types, and shows them in a display
//! notation. [`AnyGame`] hides which game is played behind those strings, and judges
//! every move by the game's laws ([`crate::game`]).

use std::fmt;
use std::str::FromStr;

mod error;

pub use error::{
    ClaimError, HandicapBan, IllegalMove, LeaveError, MoveError, MoveErrorKind, MoveRefusal, Reading,
    SetupError, StartPositionError, CODES as REFUSAL_CODES,
};

use crate::game::handicap::Handicap;
use crate::game::ruleset::{CxqLimits, ImpasseRule, MiniRepetitionRule, Ruleset};
use crate::game::ruling::Ruling;
use crate::game::shogi::{Claim, ShogiGame};
use crate::game::xiangqi::XiangqiGame;
use crate::notation::chess as chess_notation;
use crate::notation::seven_kingdoms as kingdoms_notation;
use crate::notation::shogi as shogi_notation;
use crate::notation::xiangqi as xiangqi_notation;
use crate::{chess, seven_kingdoms, shogi, xiangqi, Color, Outcome};

/// The games the server plays through this facade.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Xiangqi (`xiangqi.md`).
    Xiangqi,
    /// Shogi (`shogi.md`).
    Shogi,
    /// MiniShogi (`minishogi.md`).
    MiniShogi,
    /// Flickering chess: a turn is a series of moves (`flickering-chess.md`).
    Flickering,
    /// The Game of the Seven Kingdoms, 3 to 7 players (`seven-kingdoms.md`).
    SevenKingdoms,
}

impl Variant {
    /// Every variant.
    pub const ALL: [Variant; 5] =
        [Variant::Xiangqi, Variant::Shogi, Variant::MiniShogi, Variant::Flickering, Variant::SevenKingdoms];

    /// The variant's name: `xiangqi`, `shogi`, `minishogi`.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Xiangqi => "xiangqi",
            Variant::Shogi => "shogi",
            Variant::MiniShogi => "minishogi",
            Variant::Flickering => "flickering",
            Variant::SevenKingdoms => "seven-kingdoms",
        }
    }

    /// How many seats a game of this variant may have: exactly 2, or 3 to 7 for the
    /// Seven Kingdoms (`seven-kingdoms.md` "Players and alliances").
    pub const fn seat_range(self) -> (usize, usize) {
        match self {
            Variant::SevenKingdoms => (3, 7),
            _ => (2, 2),
        }
    }

    /// The ruleset a game of this variant uses unless another is chosen.
    pub const fn default_ruleset(self) -> Ruleset {
        match self {
            Variant::Xiangqi => Ruleset::Cxq(CxqLimits::STANDARD),
            Variant::Shogi => Ruleset::Shogi(ImpasseRule::TwentyFourPoints),
            Variant::MiniShogi => {
                Ruleset::MiniShogi { repetition: MiniRepetitionRule::Aise, tournament: false }
            }
            Variant::Flickering => Ruleset::Flickering,
            Variant::SevenKingdoms => Ruleset::SevenKingdoms,
        }
    }

    /// Whether `ruleset` is one of this variant's.
    pub const fn accepts(self, ruleset: Ruleset) -> bool {
        matches!(
            (self, ruleset),
            (Variant::Xiangqi, Ruleset::Cxq(_) | Ruleset::XiangqiBasic)
                | (Variant::Shogi, Ruleset::Shogi(_))
                | (Variant::MiniShogi, Ruleset::MiniShogi { .. })
                | (Variant::Flickering, Ruleset::Flickering)
                | (Variant::SevenKingdoms, Ruleset::SevenKingdoms)
        )
    }

    /// The canonical move notation stored by the server.
    pub const fn canonical_notation(self) -> Notation {
        match self {
            Variant::Xiangqi => Notation::Iccs,
            Variant::Shogi | Variant::MiniShogi => Notation::Usi,
            Variant::Flickering => Notation::Coordinates,
            Variant::SevenKingdoms => Notation::Kingdoms,
        }
    }

    /// The notation moves are shown in unless a player chooses another.
    pub const fn display_notation(self) -> Notation {
        match self {
            Variant::Xiangqi => Notation::Wxf,
            Variant::Shogi => Notation::Western,
            Variant::MiniShogi => Notation::Aise,
            Variant::Flickering => Notation::Algebraic,
            Variant::SevenKingdoms => Notation::Kingdoms,
        }
    }

    /// The notations of this variant (besides [`Notation::Auto`]).
    pub const fn notations(self) -> &'static [Notation] {
        match self {
            Variant::Xiangqi => &[Notation::Iccs, Notation::Wxf, Notation::Fix, Notation::Chinese],
            Variant::Shogi | Variant::MiniShogi => &[Notation::Usi, Notation::Western, Notation::Aise],
            Variant::Flickering => &[Notation::Coordinates, Notation::Algebraic],
            Variant::SevenKingdoms => &[Notation::Kingdoms],
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown variant {:?} (known: xiangqi, shogi, minishogi, flickering, seven-kingdoms)",
            self.0
        )
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for Variant {
    type Err = UnknownVariant;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "xiangqi" => Ok(Variant::Xiangqi),
            "shogi" => Ok(Variant::Shogi),
            "minishogi" | "mini-shogi" => Ok(Variant::MiniShogi),
            "flickering" | "flickering-chess" => Ok(Variant::Flickering),
            "seven-kingdoms" | "sevenkingdoms" => Ok(Variant::SevenKingdoms),
            _ => Err(UnknownVariant(s.to_owned())),
        }
    }
}

/// A move notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    /// Whatever notation the text is in.
    Auto,
    /// Xiangqi coordinates, `h2e2`.
    Iccs,
    /// Xiangqi WXF, `C2=5`.
    Wxf,
    /// Xiangqi FIX western algebraic, `Bh3e3`.
    Fix,
    /// Xiangqi Chinese notation, `炮二平五`.
    Chinese,
    /// Shogi USI, `7g7f`.
    Usi,
    /// Shogi western notation with hyphens, `P-7f`.
    Western,
    /// Shogi western notation in the AISE magazine style, `P7f`.
    Aise,
    /// Shogi in Japanese, as KIF and KI2 records write moves, `７六歩`.
    Japanese,
    /// Flickering chess series in coordinates, `e2e4,g1f3` (canonical).
    Coordinates,
    /// Flickering chess series in algebraic notation, `e4, Nf3`.
    Algebraic,
    /// Seven Kingdoms moves, `Qin 騎 a13-e16`.
    Kingdoms,
}

impl Notation {
    /// The notation's name, lower case.
    pub const fn name(self) -> &'static str {
        match self {
            Notation::Auto => "auto",
            Notation::Iccs => "iccs",
            Notation::Wxf => "wxf",
            Notation::Fix => "fix",
            Notation::Chinese => "chinese",
            Notation::Usi => "usi",
            Notation::Western => "western",
            Notation::Aise => "aise",
            Notation::Japanese => "japanese",
            Notation::Coordinates => "coordinates",
            Notation::Algebraic => "algebraic",
            Notation::Kingdoms => "kingdoms",
        }
    }
}

impl Notation {
    /// The notation's name as players write it (`ICCS`, `WXF`, `FIX`, `Chinese`, `USI`...).
    pub const fn display_name(self) -> &'static str {
        match self {
            Notation::Auto => "any notation",
            Notation::Iccs => "ICCS",
            Notation::Wxf => "WXF",
            Notation::Fix => "FIX",
            Notation::Chinese => "Chinese",
            Notation::Usi => "USI",
            Notation::Western => "western",
            Notation::Aise => "AISE",
            Notation::Japanese => "Japanese",
            Notation::Coordinates => "coordinates",
            Notation::Algebraic => "algebraic",
            Notation::Kingdoms => "Seven Kingdoms",
        }
    }

    /// The facade's name of a Xiangqi notation.
    pub const fn from_xiangqi(notation: xiangqi_notation::MoveNotation) -> Notation {
        match notation {
            xiangqi_notation::MoveNotation::Iccs => Notation::Iccs,
            xiangqi_notation::MoveNotation::Wxf => Notation::Wxf,
            xiangqi_notation::MoveNotation::Fix => Notation::Fix,
            xiangqi_notation::MoveNotation::Chinese => Notation::Chinese,
        }
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownNotation(pub String);

impl fmt::Display for UnknownNotation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown notation {:?} (known: auto, iccs, wxf, fix, chinese, usi, western, aise, japanese, coordinates, algebraic, kingdoms)", self.0)
    }
}

impl std::error::Error for UnknownNotation {}

impl FromStr for Notation {
    type Err = UnknownNotation;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s.trim().to_ascii_lowercase().as_str() {
            "auto" => Notation::Auto,
            "iccs" => Notation::Iccs,
            "wxf" => Notation::Wxf,
            "fix" => Notation::Fix,
            "chinese" => Notation::Chinese,
            "usi" => Notation::Usi,
            "western" => Notation::Western,
            "aise" => Notation::Aise,
            "japanese" | "kif" => Notation::Japanese,
            "coordinates" => Notation::Coordinates,
            "algebraic" => Notation::Algebraic,
            "kingdoms" => Notation::Kingdoms,
            _ => return Err(UnknownNotation(s.to_owned())),
        })
    }
}

/// A move that was played (for Flickering chess: a whole series).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// In the canonical notation (ICCS, USI, coordinate series, Seven Kingdoms move).
    pub canonical: String,
    /// In the variant's display notation.
    pub display: String,
    /// The canonical moves this turn is made of: one, or the moves of a Flickering series
    /// in the order played (the server stores one row per move, with one turn number).
    pub parts: Vec<String>,
    /// The Zobrist key of the position after the move.
    pub position_key: u64,
    /// Whether the move gave check.
    pub check: bool,
    /// The game's end, if this move ended a two-seat game.
    pub outcome: Option<Outcome>,
    /// Whether the game is over after this move (every variant, any number of seats).
    pub game_over: bool,
}

/// What a move would do, found without playing it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DryRun {
    /// In the canonical notation.
    pub canonical: String,
    /// In the variant's display notation.
    pub display: String,
    /// Whether the move would give check.
    pub check: bool,
    /// The game's end, if the move would end it.
    pub outcome: Option<Outcome>,
}

impl DryRun {
    /// A sentence for the player about the consequences, e.g. "this move would lose by
    /// perpetual check".
    pub fn summary(&self, mover: Color) -> String {
        match self.outcome {
            None => format!("{} is legal", self.display),
            Some(outcome) => match outcome.winner() {
                Some(winner) if winner == mover => {
                    format!("this move would win by {}", outcome.reason().as_str().replace('-', " "))
                }
                Some(_) => format!("this move would lose by {}", outcome.reason().as_str().replace('-', " ")),
                None => format!("this move would draw by {}", outcome.reason().as_str().replace('-', " ")),
            },
        }
    }
}

/// How one seat finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SeatResult {
    /// Won, alone or sharing the win.
    Win,
    /// Drew.
    Draw,
    /// Lost.
    Loss,
}

/// One seat's result when a game is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SeatStanding {
    /// The seat, 0-based in turn order (0 = the first player).
    pub seat: usize,
    /// Win, draw or loss.
    pub result: SeatResult,
    /// 1 for the winners; equal places share.
    pub place: u32,
    /// The variant's primary score where it has one (Seven Kingdoms: pieces captured).
    pub score: u32,
    /// A secondary score shown beside it (Seven Kingdoms: historical piece values).
    pub secondary_score: u32,
    /// Whether the seat is out of the game (Seven Kingdoms: all its kingdoms defeated or
    /// it left); false in two-seat games.
    pub out: bool,
}

/// One stored move of a game (see [`AnyGame::replay_stored`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoredMove<'a> {
    /// The turn it belongs to (the rows of a Flickering series share it).
    pub turn_number: i32,
    /// The seat that played it.
    pub seat: usize,
    /// The move, canonical.
    pub text: &'a str,
}

impl StoredMove<'_> {
    /// The stored moves grouped into the turns the rules play, as row ranges: one row
    /// each, except that a Flickering chess series (`flickering-chess.md` "The series")
    /// is stored one row per move, all with the turn's number and seat.
    pub fn turns(variant: Variant, rows: &[StoredMove<'_>]) -> Vec<std::ops::Range<usize>> {
        let mut turns: Vec<std::ops::Range<usize>> = Vec::with_capacity(rows.len());
        for (i, row) in rows.iter().enumerate() {
            let continues = variant == Variant::Flickering
                && i > 0
                && rows[i - 1].turn_number == row.turn_number
                && rows[i - 1].seat == row.seat;
            match turns.last_mut() {
                Some(turn) if continues => turn.end = i + 1,
                _ => turns.push(i..i + 1),
            }
        }
        turns
    }
}

/// One display text per stored row of a turn: the turn's display, or for a Flickering
/// series of several rows its moves one by one (`a) e4, Nf3` → `e4`, `Nf3`); the whole
/// text on the first row when the split does not give one per row.
pub fn split_series_display(display: &str, rows: usize) -> Vec<String> {
    if rows <= 1 {
        return vec![display.to_owned()];
    }
    let moves = display.split_once(") ").map_or(display, |(_, moves)| moves);
    let parts: Vec<String> = moves.split(", ").map(str::to_owned).collect();
    if parts.len() == rows {
        return parts;
    }
    let mut whole = vec![String::new(); rows];
    whole[0] = display.to_owned();
    whole
}

/// A seat that left a game of more seats (see [`AnyGame::replay_stored`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatExit {
    /// After how many stored moves it left.
    pub after_rows: usize,
    /// The seat.
    pub seat: usize,
    /// On time (otherwise by resignation).
    pub timed_out: bool,
}

/// Why a stored game does not replay.
#[derive(Clone, Debug)]
pub enum StoredReplayError {
    /// The stored move of this (1-based) row is refused.
    Move {
        /// The row.
        row: usize,
        /// Why.
        error: MoveError,
    },
    /// A seat's exit is refused.
    Exit {
        /// The seat.
        seat: usize,
        /// Why.
        error: LeaveError,
    },
}

impl fmt::Display for StoredReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoredReplayError::Move { row, error } => write!(f, "ply {row}: stored move refused: {error}"),
            StoredReplayError::Exit { seat, error } => write!(f, "seat {seat} exit: {error}"),
        }
    }
}

impl std::error::Error for StoredReplayError {}

#[derive(Clone, Debug)]
enum Inner {
    Xiangqi(Box<XiangqiGame>),
    Shogi(Box<ShogiGame>),
    Flickering(Box<chess::Game>),
    Kingdoms(Box<seven_kingdoms::Game>),
}

/// A game of any variant: the start, the moves, the laws.
#[derive(Clone, Debug)]
pub struct AnyGame {
    variant: Variant,
    handicap: Option<Handicap>,
    canonical_moves: Vec<String>,
    inner: Inner,
}

/// The moves of a Flickering series text played from `start`, in coordinates
/// (`e2e4,g1f3`) or algebraic notation (`a) e4, Nf3`). Both readers are tried: their
/// forms agree where they meet (`e2e4` is the same pawn move in both), and a text the two
/// would read as different series is refused, naming both (issue 15 §4).
fn flickering_series(start: &chess::Position, text: &str) -> Result<Vec<chess::Move>, MoveError> {
    use chess_notation::NotationError as E;
    let coordinates = chess_notation::uci::parse_series(start, text);
    let algebraic = chess_notation::algebraic::parse_series(start, text);
    match (coordinates, algebraic) {
        (Ok(a), Ok(b)) if a.moves() != b.moves() => Err(MoveError::new(
            text,
            MoveRefusal::Ambiguous([
                Reading {
                    notation: Notation::Coordinates,
                    canonical: chess_notation::uci::write_series(a.moves()),
                },
                Reading {
                    notation: Notation::Algebraic,
                    canonical: chess_notation::uci::write_series(b.moves()),
                },
            ]),
        )),
        (Ok(series), _) | (_, Ok(series)) => Ok(series.moves().to_vec()),
        (Err(coordinates), Err(algebraic)) => {
            let error = match (&coordinates, &algebraic) {
                (E::Unreadable(_), _) | (_, E::Ambiguous(_) | E::Series(_) | E::WrongPlayer(_)) => algebraic,
                _ if matches!(algebraic, E::Unreadable(_)) => coordinates,
                _ => algebraic,
            };
            Err(flickering_error(start, text, error))
        }
    }
}

/// A Flickering reader's error as a refusal; a series label naming the wrong player
/// names the player to move too.
fn flickering_error(start: &chess::Position, text: &str, error: chess_notation::NotationError) -> MoveError {
    let mut refusal = MoveRefusal::from(error);
    if let MoveRefusal::WrongPlayer { to_move, .. } = &mut refusal {
        *to_move = chess_notation::algebraic::label(start.turn(), false).to_string();
    }
    MoveError::new(text, refusal)
}

/// MiniShogi has no impasse claim (`minishogi.md`: jishogi is counted, not claimed).
fn claim_error(variant: Variant, e: ClaimError) -> ClaimError {
    match e {
        ClaimError::NotAllowed(_) if variant != Variant::Shogi => ClaimError::NoClaims(variant),
        other => other,
    }
}

impl AnyGame {
    /// A game of `variant` from its standard start position or from `start` (FEN for
    /// Xiangqi and Flickering chess, SFEN for Shogi and MiniShogi, the position text for
    /// the Seven Kingdoms), under the variant's default ruleset. A Seven Kingdoms game
    /// without `start` has seven seats; see [`AnyGame::with_seats`].
    ///
    /// # Errors
    ///
    /// [`SetupError`] when `start` cannot be read or is not a legal position.
    pub fn new(variant: Variant, start: Option<&str>) -> Result<AnyGame, SetupError> {
        AnyGame::with_rules(variant, variant.default_ruleset(), None, start)
    }

    /// A game for `seats` players from the variant's standard start: 2 for every variant
    /// but the Seven Kingdoms, 3 to 7 for the Seven Kingdoms (the alliance seating of
    /// `seven-kingdoms.md` "Players and alliances").
    ///
    /// # Errors
    ///
    /// [`SetupError`] when the variant cannot be played by that many.
    pub fn with_seats(variant: Variant, seats: usize) -> Result<AnyGame, SetupError> {
        let (min, max) = variant.seat_range();
        if !(min..=max).contains(&seats) {
            return Err(SetupError::Seats { variant, seats });
        }
        if variant != Variant::SevenKingdoms {
            return AnyGame::new(variant, None);
        }
        let seating = seven_kingdoms::Seating::standard(seats as u8).map_err(StartPositionError::Seating)?;
        let start = kingdoms_notation::position_text::write(&seven_kingdoms::Position::startpos(seating));
        AnyGame::new(variant, Some(&start))
    }

    /// A game with a chosen ruleset and handicap. The handicap gives the start position
    /// unless `start` is given.
    ///
    /// # Errors
    ///
    /// [`SetupError`] when the ruleset or handicap does not belong to the variant, or the
    /// start position cannot be read or played.
    pub fn with_rules(
        variant: Variant,
        ruleset: Ruleset,
        handicap: Option<Handicap>,
        start: Option<&str>,
    ) -> Result<AnyGame, SetupError> {
        if !variant.accepts(ruleset) {
            return Err(SetupError::Ruleset { ruleset, variant });
        }
        let handicap_fits = matches!(
            (variant, handicap),
            (_, None)
                | (Variant::Xiangqi, Some(Handicap::Xiangqi(_)))
                | (Variant::Shogi, Some(Handicap::Shogi(_)))
                | (Variant::MiniShogi, Some(Handicap::MiniShogi(_)))
        );
        if !handicap_fits {
            return Err(SetupError::Handicap { variant });
        }
        let start = start.or(handicap.as_ref().map(Handicap::start_fen));
        let inner = match variant {
            Variant::Xiangqi => {
                let position = match start {
                    Some(fen) => xiangqi_notation::fen::parse(fen).map_err(StartPositionError::Xiangqi)?,
                    None => xiangqi::Position::new(),
                };
                Inner::Xiangqi(Box::new(XiangqiGame::new(position, ruleset, handicap)))
            }
            Variant::Shogi | Variant::MiniShogi => {
                let board =
                    if variant == Variant::Shogi { shogi::Variant::Standard } else { shogi::Variant::Mini };
                let position = match start {
                    Some(sfen) => {
                        shogi_notation::sfen::parse(sfen, Some(board)).map_err(StartPositionError::Shogi)?
                    }
                    None => shogi::Position::startpos(board),
                };
                Inner::Shogi(Box::new(ShogiGame::new(position, ruleset, handicap)))
            }
            Variant::Flickering => {
                let game = match start {
                    Some(fen) => {
                        let position = chess_notation::fen::parse(fen).map_err(StartPositionError::Chess)?;
                        chess::Game::from_supplied_start(position).ok_or(StartPositionError::Undecided)?
                    }
                    None => chess::Game::new(),
                };
                Inner::Flickering(Box::new(game))
            }
            Variant::SevenKingdoms => Inner::Kingdoms(Box::new(
                seven_kingdoms::Game::from_start_text(start).map_err(StartPositionError::Kingdoms)?,
            )),
        };
        Ok(AnyGame { variant, handicap, canonical_moves: Vec::new(), inner })
    }

    /// A game with its canonical moves replayed (one item per [`AnyGame::play`]).
    ///
    /// # Errors
    ///
    /// [`SetupError`] naming the first move that cannot be replayed.
    pub fn replay<'a>(
        variant: Variant,
        ruleset: Ruleset,
        handicap: Option<Handicap>,
        start: Option<&str>,
        moves: impl IntoIterator<Item = &'a str>,
    ) -> Result<AnyGame, SetupError> {
        let game = AnyGame::with_rules(variant, ruleset, handicap, start)?;
        // One turn per text: each its own turn number.
        let rows: Vec<StoredMove<'_>> = moves
            .into_iter()
            .enumerate()
            .map(|(i, text)| StoredMove { turn_number: i as i32, seat: 0, text })
            .collect();
        match game.replay_stored(&rows, &[], rows.len()) {
            Ok((game, _)) => Ok(game),
            Err(StoredReplayError::Move { row, error }) => Err(SetupError::Replay { ply: row as u32, error }),
            Err(StoredReplayError::Exit { .. }) => unreachable!("no exits to replay"),
        }
    }

    /// Replays a game as a server stores it onto this game (its start): `rows` holds
    /// one item per stored move, a Flickering series (`flickering-chess.md` "The series")
    /// being several rows of one turn (same turn number and seat) played as one text;
    /// `exits` are the seats that left a game of more seats, each applied after its
    /// number of rows (`seven-kingdoms.md`: their kingdoms leave the board, the game goes
    /// on). Plays whole turns within the first `upto` rows; returns the game and the
    /// number of rows it played.
    ///
    /// # Errors
    ///
    /// [`StoredReplayError`] naming the first row or exit the rules refuse.
    pub fn replay_stored(
        mut self,
        rows: &[StoredMove<'_>],
        exits: &[SeatExit],
        upto: usize,
    ) -> Result<(AnyGame, usize), StoredReplayError> {
        let mut exits = exits.to_vec();
        exits.sort_unstable_by_key(|e| (e.after_rows, e.seat));
        let mut exits = exits.into_iter().peekable();
        let mut leave_after = |game: &mut AnyGame, played: usize| -> Result<(), StoredReplayError> {
            while let Some(exit) = exits.next_if(|exit| exit.after_rows <= played) {
                game.seat_leaves(exit.seat, exit.timed_out)
                    .map_err(|error| StoredReplayError::Exit { seat: exit.seat, error })?;
            }
            Ok(())
        };
        leave_after(&mut self, 0)?;
        let mut played = 0usize;
        for turn in StoredMove::turns(self.variant, rows) {
            if turn.end > upto {
                break;
            }
            let text = rows[turn.clone()].iter().map(|row| row.text).collect::<Vec<_>>().join(",");
            self.play(&text).map_err(|error| StoredReplayError::Move { row: turn.start + 1, error })?;
            played = turn.end;
            leave_after(&mut self, played)?;
        }
        Ok((self, played))
    }

    /// The moves played in `notation`, one text per stored row: each turn's text, or for a
    /// Flickering series of several rows (`turns`, as [`StoredMove::turns`] gives them) its
    /// moves one by one (`a) e4, Nf3` → `e4`, `Nf3`).
    pub fn display_rows(&self, notation: Notation, turns: &[std::ops::Range<usize>]) -> Vec<String> {
        self.display_moves(notation)
            .iter()
            .zip(turns)
            .flat_map(|(text, turn)| split_series_display(text, turn.len()))
            .collect()
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The ruleset in force.
    pub fn ruleset(&self) -> Ruleset {
        match &self.inner {
            Inner::Xiangqi(g) => g.ruleset(),
            Inner::Shogi(g) => g.ruleset(),
            Inner::Flickering(_) => Ruleset::Flickering,
            Inner::Kingdoms(_) => Ruleset::SevenKingdoms,
        }
    }

    /// The handicap, if any.
    pub fn handicap(&self) -> Option<Handicap> {
        self.handicap
    }

    /// The start position as FEN, SFEN or position text.
    pub fn start_fen(&self) -> String {
        match &self.inner {
            Inner::Xiangqi(g) => xiangqi_notation::fen::write(g.start()),
            Inner::Shogi(g) => shogi_notation::sfen::write(g.start()),
            Inner::Flickering(g) => chess_notation::fen::write(g.start()),
            Inner::Kingdoms(g) => g.start_text(),
        }
    }

    /// The current position as FEN, SFEN or position text.
    pub fn fen(&self) -> String {
        match &self.inner {
            Inner::Xiangqi(g) => xiangqi_notation::fen::write(g.position()),
            Inner::Shogi(g) => shogi_notation::sfen::write(g.position()),
            Inner::Flickering(g) => chess_notation::fen::write(g.position()),
            Inner::Kingdoms(g) => g.position_text(),
        }
    }

    /// Moves (turns) played so far.
    pub fn ply(&self) -> u32 {
        self.canonical_moves.len() as u32
    }

    /// How many seats (players) the game has.
    pub fn seat_count(&self) -> usize {
        match &self.inner {
            Inner::Kingdoms(g) => usize::from(g.position().seating().players()),
            _ => 2,
        }
    }

    /// The seat that makes the next move, 0-based in turn order.
    pub fn seat_to_move(&self) -> usize {
        match &self.inner {
            Inner::Kingdoms(g) => usize::from(g.seat_to_move().0),
            _ => self.side_to_move().index(),
        }
    }

    /// The side that makes the next move, in a two-seat game ([`Color::First`] for seat 0
    /// of a Seven Kingdoms game too: use [`AnyGame::seat_to_move`] there).
    pub fn side_to_move(&self) -> Color {
        match &self.inner {
            Inner::Xiangqi(g) => g.side_to_move(),
            Inner::Shogi(g) => g.side_to_move(),
            Inner::Flickering(g) => g.position().turn(),
            Inner::Kingdoms(g) => {
                if g.seat_to_move().0 == 0 {
                    Color::First
                } else {
                    Color::Second
                }
            }
        }
    }

    /// Moves the side to move still makes in this turn after the next one (handicap
    /// turns of several moves); 0 in ordinary play.
    pub fn moves_left_in_turn(&self) -> u8 {
        match &self.inner {
            Inner::Xiangqi(g) => g.moves_left_in_turn(),
            Inner::Shogi(g) => g.moves_left_in_turn(),
            Inner::Flickering(_) | Inner::Kingdoms(_) => 0,
        }
    }

    /// The Zobrist key of the current position.
    pub fn position_key(&self) -> u64 {
        match &self.inner {
            Inner::Xiangqi(g) => g.position().zobrist(),
            Inner::Shogi(g) => g.position().zobrist(),
            Inner::Flickering(g) => g.position().zobrist(),
            Inner::Kingdoms(g) => g.position_key(),
        }
    }

    /// Whether the side to move is in check (the Seven Kingdoms has no check).
    pub fn is_check(&self) -> bool {
        match &self.inner {
            Inner::Xiangqi(g) => g.position().is_check(),
            Inner::Shogi(g) => g.position().is_check(),
            Inner::Flickering(g) => g.position().is_check(),
            Inner::Kingdoms(_) => false,
        }
    }

    /// Whether the `index`th move played (0-based; in Xiangqi and Shogi one move a row of
    /// [`AnyGame::moves`]) gave check. Always false in Flickering chess (its algebraic
    /// series mark their checks themselves) and the Seven Kingdoms (no check).
    pub fn gave_check(&self, index: usize) -> bool {
        match &self.inner {
            Inner::Xiangqi(g) => g.was_check(index),
            Inner::Shogi(g) => g.was_check(index),
            Inner::Flickering(_) | Inner::Kingdoms(_) => false,
        }
    }

    /// The legal moves now, canonical; empty when the game is over. For Flickering chess:
    /// the legal first moves of a series.
    pub fn legal_moves(&self) -> Vec<String> {
        if self.is_over() {
            return Vec::new();
        }
        match &self.inner {
            Inner::Xiangqi(g) => g.legal_moves().iter().map(ToString::to_string).collect(),
            Inner::Shogi(g) => g.legal_moves().iter().map(ToString::to_string).collect(),
            Inner::Flickering(g) => {
                g.begin_series().legal_next_moves().iter().map(|&m| chess_notation::uci::write(m)).collect()
            }
            Inner::Kingdoms(g) => g.legal_moves_text(),
        }
    }

    /// The game's end by rule in a two-seat game, once reached (Seven Kingdoms: see
    /// [`AnyGame::seat_results`]).
    pub fn outcome(&self) -> Option<Outcome> {
        match &self.inner {
            Inner::Xiangqi(g) => g.outcome(),
            Inner::Shogi(g) => g.outcome(),
            Inner::Flickering(g) => g.outcome(),
            Inner::Kingdoms(_) => None,
        }
    }

    /// Why a game law (or a claim) ended the game, once one has: the law, its place in
    /// the rule text, the ply, the side ruled against and the evidence
    /// ([`crate::game::ruling`]). `None` while the game goes on, and for endings the
    /// rules do not decide (resignation, agreement, time).
    pub fn ruling(&self) -> Option<Ruling> {
        match &self.inner {
            Inner::Xiangqi(g) => g.ruling().cloned(),
            Inner::Shogi(g) => g.ruling().cloned(),
            Inner::Flickering(g) => g.ruling().cloned(),
            Inner::Kingdoms(g) => g.ruling(),
        }
    }

    /// Whether the game is over by rule.
    pub fn is_over(&self) -> bool {
        match &self.inner {
            Inner::Kingdoms(g) => g.is_over(),
            _ => self.outcome().is_some(),
        }
    }

    /// Every seat's result once the game is over by rule.
    pub fn seat_results(&self) -> Option<Vec<SeatStanding>> {
        if let Inner::Kingdoms(g) = &self.inner {
            let outcome = g.outcome()?;
            let shared = outcome.winners().count() > 1;
            return Some(
                outcome
                    .standings
                    .iter()
                    .map(|s| SeatStanding {
                        seat: usize::from(s.seat.0),
                        result: match (s.winner, shared) {
                            (true, false) => SeatResult::Win,
                            (true, true) => SeatResult::Draw,
                            (false, _) => SeatResult::Loss,
                        },
                        place: u32::from(s.place),
                        score: s.captured_pieces,
                        secondary_score: s.value_score,
                        out: s.out,
                    })
                    .collect(),
            );
        }
        let outcome = self.outcome()?;
        Some(
            Color::ALL
                .iter()
                .map(|&color| {
                    let (result, place) = match outcome.winner() {
                        Some(w) if w == color => (SeatResult::Win, 1),
                        Some(_) => (SeatResult::Loss, 2),
                        None => (SeatResult::Draw, 1),
                    };
                    let score = outcome.details().scores.map_or(0, |s| s[color.index()]);
                    SeatStanding { seat: color.index(), result, place, score, secondary_score: 0, out: false }
                })
                .collect(),
        )
    }

    /// The canonical moves played.
    pub fn moves(&self) -> &[String] {
        &self.canonical_moves
    }

    /// Reads a move in `notation` (any notation of the variant for [`Notation::Auto`])
    /// and returns it canonical. The move must be legal in the position; the game's laws
    /// (handicap bans) are checked by [`AnyGame::play`] and [`AnyGame::dry_run`].
    ///
    /// # Errors
    ///
    /// [`MoveError`] when the text is unreadable, ambiguous or names no legal move.
    pub fn resolve(&self, text: &str, notation: Notation) -> Result<String, MoveError> {
        let text = text.trim();
        match &self.inner {
            Inner::Xiangqi(g) => self.xiangqi_move(g, text, notation).map(|m| m.to_string()),
            Inner::Shogi(g) => self.shogi_move(g, text, notation).map(|m| m.to_string()),
            Inner::Flickering(g) => {
                let moves = match notation {
                    Notation::Auto | Notation::Coordinates | Notation::Algebraic => {
                        flickering_series(g.position(), text)?
                    }
                    _ => return Err(self.wrong_notation(text, notation)),
                };
                Ok(chess_notation::uci::write_series(&moves))
            }
            Inner::Kingdoms(g) => match notation {
                Notation::Auto | Notation::Kingdoms => {
                    g.resolve_text(text).map_err(|e| MoveError::new(text, e.into()))
                }
                _ => Err(self.wrong_notation(text, notation)),
            },
        }
    }

    fn wrong_notation(&self, text: &str, notation: Notation) -> MoveError {
        MoveError::new(text, MoveRefusal::WrongNotation { notation, variant: self.variant })
    }

    fn xiangqi_move(
        &self,
        g: &XiangqiGame,
        text: &str,
        notation: Notation,
    ) -> Result<xiangqi::Move, MoveError> {
        let pos = g.position();
        let parsed = match notation {
            Notation::Auto => xiangqi_notation::parse_any(pos, text),
            Notation::Iccs => xiangqi_notation::iccs::parse(pos, text),
            Notation::Wxf => xiangqi_notation::wxf::parse(pos, text),
            Notation::Fix => xiangqi_notation::fix::parse(pos, text),
            Notation::Chinese => xiangqi_notation::chinese::parse(pos, text),
            _ => return Err(self.wrong_notation(text, notation)),
        };
        parsed.map_err(|e| MoveError::new(text, e.into()))
    }

    fn shogi_move(&self, g: &ShogiGame, text: &str, notation: Notation) -> Result<shogi::Move, MoveError> {
        let pos = g.position();
        let parsed = match notation {
            Notation::Auto => shogi_notation::parse_any(pos, text, g.moves().last().copied()),
            Notation::Usi => shogi_notation::usi::parse(pos, text),
            Notation::Western | Notation::Aise => shogi_notation::western::parse(pos, text),
            Notation::Japanese => shogi_notation::kif::parse_move(pos, text, g.moves().last().copied()),
            _ => return Err(self.wrong_notation(text, notation)),
        };
        parsed.map_err(|e| MoveError::new(text, e.into()))
    }

    fn write_xiangqi(pos: &xiangqi::Position, m: xiangqi::Move, notation: Notation) -> String {
        match notation {
            Notation::Wxf => xiangqi_notation::wxf::write(pos, m),
            Notation::Fix => xiangqi_notation::fix::write(pos, m),
            Notation::Chinese => xiangqi_notation::chinese::write(pos, m),
            _ => xiangqi_notation::iccs::write(pos, m),
        }
    }

    fn write_shogi(pos: &shogi::Position, m: shogi::Move, notation: Notation) -> String {
        match notation {
            Notation::Western => {
                shogi_notation::western::write(pos, m, shogi_notation::western::Style::Hyphenated)
            }
            Notation::Aise => shogi_notation::western::write(pos, m, shogi_notation::western::Style::Aise),
            // Without the move before: the square is named, never 同.
            Notation::Japanese => shogi_notation::kif::write_move(pos, m, None),
            _ => shogi_notation::usi::write(pos, m),
        }
    }

    fn write_series(pos: &chess::Position, moves: &[chess::Move], notation: Notation) -> String {
        match notation {
            Notation::Coordinates => chess_notation::uci::write_series(moves),
            _ => chess_notation::algebraic::write_series(pos, moves)
                .unwrap_or_else(|| chess_notation::uci::write_series(moves)),
        }
    }

    /// What `text` would do if played now, without changing the game.
    ///
    /// # Errors
    ///
    /// [`MoveError`] when the move cannot be played.
    pub fn dry_run(&self, text: &str) -> Result<DryRun, MoveError> {
        let mut probe = self.clone();
        let played = probe.play(text)?;
        Ok(DryRun {
            canonical: played.canonical,
            display: played.display,
            check: played.check,
            outcome: played.outcome,
        })
    }

    /// Plays `text` (any notation of the variant; for Flickering chess a whole series,
    /// its moves separated by commas).
    ///
    /// # Errors
    ///
    /// [`MoveError`] when the move cannot be played; the game is unchanged.
    pub fn play(&mut self, text: &str) -> Result<PlayedMove, MoveError> {
        let text = text.trim();
        let display_notation = self.variant.display_notation();
        let played = match &mut self.inner {
            Inner::Xiangqi(g) => {
                if g.outcome().is_some() {
                    return Err(MoveError::new(text, MoveRefusal::GameOver));
                }
                let m = xiangqi_notation::parse_any(g.position(), text)
                    .map_err(|e| MoveError::new(text, e.into()))?;
                let display = Self::write_xiangqi(g.position(), m, display_notation);
                let outcome = g.play(m).map_err(|e| MoveError::new(text, e.into()))?;
                PlayedMove {
                    canonical: m.to_string(),
                    display,
                    parts: vec![m.to_string()],
                    position_key: g.position().zobrist(),
                    check: g.was_check(g.moves().len() - 1),
                    outcome,
                    game_over: outcome.is_some(),
                }
            }
            Inner::Shogi(g) => {
                if g.outcome().is_some() {
                    return Err(MoveError::new(text, MoveRefusal::GameOver));
                }
                let m = shogi_notation::parse_any(g.position(), text, g.moves().last().copied())
                    .map_err(|e| MoveError::new(text, e.into()))?;
                let display = Self::write_shogi(g.position(), m, display_notation);
                let outcome = g.play(m).map_err(|e| MoveError::new(text, e.into()))?;
                PlayedMove {
                    canonical: m.to_string(),
                    display,
                    parts: vec![m.to_string()],
                    position_key: g.position().zobrist(),
                    check: g.was_check(g.moves().len() - 1),
                    outcome,
                    game_over: outcome.is_some(),
                }
            }
            Inner::Flickering(g) => {
                if g.outcome().is_some() {
                    return Err(MoveError::new(text, MoveRefusal::GameOver));
                }
                let start = g.position().clone();
                let moves = flickering_series(&start, text)?;
                let display = Self::write_series(&start, &moves, display_notation);
                g.play_series(&moves).map_err(|e| MoveError::new(text, e.into()))?;
                let outcome = g.outcome();
                PlayedMove {
                    canonical: chess_notation::uci::write_series(&moves),
                    display,
                    parts: moves.iter().map(|&m| chess_notation::uci::write(m)).collect(),
                    position_key: g.position().zobrist(),
                    check: g.position().is_check(),
                    outcome,
                    game_over: outcome.is_some(),
                }
            }
            Inner::Kingdoms(g) => {
                if g.is_over() {
                    return Err(MoveError::new(text, MoveRefusal::GameOver));
                }
                let played = g.play_text(text).map_err(|e| MoveError::new(text, e.into()))?;
                PlayedMove {
                    display: played.canonical.clone(),
                    parts: vec![played.canonical.clone()],
                    canonical: played.canonical,
                    position_key: g.position_key(),
                    check: false,
                    outcome: None,
                    game_over: g.is_over(),
                }
            }
        };
        self.canonical_moves.push(played.canonical.clone());
        Ok(played)
    }

    /// The moves played, in `notation` ([`Notation::Auto`]: the display notation).
    pub fn display_moves(&self, notation: Notation) -> Vec<String> {
        let notation = if notation == Notation::Auto { self.variant.display_notation() } else { notation };
        match &self.inner {
            Inner::Xiangqi(g) => {
                let mut replay = XiangqiGame::new(g.start().clone(), g.ruleset(), self.handicap);
                g.moves()
                    .iter()
                    .map(|&m| {
                        let text = Self::write_xiangqi(replay.position(), m, notation);
                        let _ = replay.play(m);
                        text
                    })
                    .collect()
            }
            Inner::Shogi(g) => {
                let mut replay = ShogiGame::new(g.start().clone(), g.ruleset(), self.handicap);
                g.moves()
                    .iter()
                    .map(|&m| {
                        let text = Self::write_shogi(replay.position(), m, notation);
                        let _ = replay.play(m);
                        text
                    })
                    .collect()
            }
            Inner::Flickering(g) => g
                .positions()
                .iter()
                .zip(g.series())
                .map(|(position, moves)| Self::write_series(position, moves, notation))
                .collect(),
            Inner::Kingdoms(_) => self.canonical_moves.clone(),
        }
    }

    /// What a claim (Shogi impasse, Flickering threefold repetition) would decide,
    /// without changing the game.
    ///
    /// # Errors
    ///
    /// [`ClaimError`] when no claim is available now.
    pub fn judge_claim(&self) -> Result<Outcome, ClaimError> {
        match &self.inner {
            Inner::Shogi(g) => g.judge_claim(Claim::Impasse).map_err(|e| self.claim_error(e.into())),
            Inner::Flickering(g) => Ok(g.clone().claim_repetition()?),
            Inner::Xiangqi(_) | Inner::Kingdoms(_) => Err(ClaimError::NoClaims(self.variant)),
        }
    }

    /// Makes a claim (Shogi impasse, Flickering threefold repetition); the game ends with
    /// the judged outcome.
    ///
    /// # Errors
    ///
    /// [`ClaimError`] when no claim is available now.
    pub fn claim(&mut self) -> Result<Outcome, ClaimError> {
        let variant = self.variant;
        match &mut self.inner {
            Inner::Shogi(g) => g.claim(Claim::Impasse).map_err(|e| claim_error(variant, e.into())),
            Inner::Flickering(g) => Ok(g.claim_repetition()?),
            Inner::Xiangqi(_) | Inner::Kingdoms(_) => Err(ClaimError::NoClaims(self.variant)),
        }
    }

    fn claim_error(&self, e: ClaimError) -> ClaimError {
        claim_error(self.variant, e)
    }

    /// A short name for `seat`: `first`/`second` in two-seat games, the kingdoms the seat
    /// commands in the Seven Kingdoms (`Qin`, `Qin+Yan`...).
    pub fn seat_label(&self, seat: usize) -> String {
        match &self.inner {
            Inner::Kingdoms(g) => {
                let seating = g.position().seating();
                let seat = seven_kingdoms::Seat(u8::try_from(seat).unwrap_or(u8::MAX));
                seating.kingdoms_of(seat).map(|k| k.name()).collect::<Vec<_>>().join("+")
            }
            _ if seat == 0 => "first".to_owned(),
            _ => "second".to_owned(),
        }
    }

    /// Why the game ended by rule, kebab-case (`checkmate`, `perpetual-check`,
    /// `hegemony-generals`...), once it has.
    pub fn end_reason(&self) -> Option<&'static str> {
        match &self.inner {
            Inner::Kingdoms(g) => g.outcome().map(|o| o.cause.as_str()),
            _ => self.outcome().map(|o| o.reason().as_str()),
        }
    }

    /// Every seat's standing now, in seat order: in the Seven Kingdoms the captures so far
    /// and whether the seat is out; in two-seat games the result once over (places 1 and
    /// scores 0 while the game goes on).
    pub fn standings_now(&self) -> Vec<SeatStanding> {
        if let Inner::Kingdoms(g) = &self.inner {
            let mut standings: Vec<SeatStanding> = g
                .standings()
                .iter()
                .map(|s| SeatStanding {
                    seat: usize::from(s.seat.0),
                    result: if s.winner { SeatResult::Win } else { SeatResult::Loss },
                    place: u32::from(s.place),
                    score: s.captured_pieces,
                    secondary_score: s.value_score,
                    out: s.out,
                })
                .collect();
            standings.sort_by_key(|s| s.seat);
            return standings;
        }
        self.seat_results().unwrap_or_else(|| {
            (0..2)
                .map(|seat| SeatStanding {
                    seat,
                    result: SeatResult::Draw,
                    place: 1,
                    score: 0,
                    secondary_score: 0,
                    out: false,
                })
                .collect()
        })
    }

    /// Whether `seat` has left the game or lost all its kingdoms (Seven Kingdoms); false in
    /// two-seat games.
    pub fn is_seat_out(&self, seat: usize) -> bool {
        match &self.inner {
            Inner::Kingdoms(g) => {
                u8::try_from(seat).is_ok_and(|s| g.position().is_seat_out(seven_kingdoms::Seat(s)))
            }
            _ => false,
        }
    }

    /// The whole game as a record in the variant's own record format, where the facade
    /// writes it: the Flickering chess record (`flickering-chess.md` "Notation": numbered
    /// series) and the Seven Kingdoms record (`seven-kingdoms.md` "Notation": the start
    /// position text, `moves:`, one event a line, seats leaving included). `None` for the
    /// other variants, whose records (PGN, KIF, CSA...) the server writes with tags.
    pub fn record_text(&self, tags: &[(String, String)]) -> Option<String> {
        match &self.inner {
            Inner::Flickering(g) => Some(chess_notation::record::write(g, tags)),
            Inner::Kingdoms(g) => {
                let mut out: String =
                    tags.iter().map(|(k, v)| format!("# {k}: {}\n", v.replace('\n', " "))).collect();
                out.push_str(&g.record_text());
                Some(out)
            }
            Inner::Xiangqi(_) | Inner::Shogi(_) => None,
        }
    }

    /// For Flickering chess: the legal next moves (coordinates) after the first moves
    /// `prefix` of a series (coordinates, separated by commas; empty = the series' first
    /// move), and whether the series may end there. Lets a player build a series move by
    /// move (issue 8: "build it move by move and submit it").
    ///
    /// # Errors
    ///
    /// [`MoveError`] when the prefix cannot be read or played, or the game is not
    /// Flickering chess.
    pub fn series_continuations(&self, prefix: &str) -> Result<(Vec<String>, bool), MoveError> {
        let Inner::Flickering(g) = &self.inner else {
            return Err(MoveError::new(prefix, MoveRefusal::NoSeries(self.variant)));
        };
        let mut series = g.begin_series();
        let prefix = prefix.trim();
        for token in prefix.split(|c: char| c == ',' || c.is_whitespace()).filter(|t| !t.is_empty()) {
            let m = chess_notation::uci::parse_move(&series, token)
                .or_else(|_| chess_notation::algebraic::parse_move(&series, token))
                .map_err(|e| flickering_error(g.position(), token, e))?;
            series
                .push(m)
                .map_err(|e| MoveError::new(token, MoveRefusal::Illegal(IllegalMove::Series(e))))?;
        }
        let next = series.legal_next_moves().iter().map(|&m| chess_notation::uci::write(m)).collect();
        Ok((next, series.can_end()))
    }

    /// Whether `seat` still has material to win with: the side whose opponent's time ran
    /// out wins only then, otherwise the game is drawn (`timeout-insufficient-material`).
    ///
    /// Xiangqi (xiangqi.md "CXQ automatic draws", dead position: a side with no chariot,
    /// horse, cannon or soldier cannot attack): only those pieces can give mate. Shogi and
    /// MiniShogi: captured pieces return as drops, so a player can always still win; so
    /// can a player of Flickering chess or the Seven Kingdoms (no such law there).
    pub fn can_possibly_win(&self, seat: usize) -> bool {
        match &self.inner {
            Inner::Xiangqi(g) => {
                let position = g.position();
                let color = if seat == 0 { Color::First } else { Color::Second };
                position.occupied_by(color).any(|square| {
                    position.piece_at(square).is_some_and(|piece| {
                        matches!(
                            piece.role,
                            xiangqi::Role::Chariot
                                | xiangqi::Role::Horse
                                | xiangqi::Role::Cannon
                                | xiangqi::Role::Soldier
                        )
                    })
                })
            }
            Inner::Shogi(_) | Inner::Flickering(_) | Inner::Kingdoms(_) => true,
        }
    }

    /// A seat leaves a game of more than two seats (timeout or resignation): in the Seven
    /// Kingdoms its kingdoms are defeated and leave the board, and the game goes on
    /// (`seven-kingdoms.md`; issue: "a player who times out: their kingdoms are defeated").
    ///
    /// # Errors
    ///
    /// [`LeaveError`] for a two-seat game (where the server ends the game itself) or a
    /// seat that is not in the game.
    pub fn seat_leaves(&mut self, seat: usize, timed_out: bool) -> Result<(), LeaveError> {
        match &mut self.inner {
            Inner::Kingdoms(g) => {
                let seat =
                    seven_kingdoms::Seat(u8::try_from(seat).map_err(|_| LeaveError::NoSuchSeat(seat))?);
                let left = if timed_out { g.time_out_seat(seat) } else { g.resign_seat(seat) };
                Ok(left?)
            }
            _ => Err(LeaveError::TwoSeatGame(self.variant)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::EndReason;

    #[test]
    fn a_game_reads_any_notation_and_stores_it_canonical() {
        let mut game = AnyGame::new(Variant::Xiangqi, None).unwrap();
        assert_eq!(game.legal_moves().len(), 44);
        let played = game.play("C2=5").unwrap();
        assert_eq!(played.canonical, "h2e2");
        assert_eq!(played.display, "C2=5");
        let played = game.play("h9g7").unwrap();
        assert_eq!(played.canonical, "h9g7");
        assert_eq!(game.ply(), 2);
        assert_eq!(game.side_to_move(), Color::First);
        assert_eq!(game.moves(), ["h2e2", "h9g7"]);
    }

    #[test]
    fn a_xiangqi_side_without_attackers_cannot_win() {
        let bare = AnyGame::new(Variant::Xiangqi, Some("4k4/4a4/9/9/9/9/9/9/4A4/3AK4 w - - 0 1")).unwrap();
        assert!(!bare.can_possibly_win(0));
        assert!(!bare.can_possibly_win(1));
        let with_pawn =
            AnyGame::new(Variant::Xiangqi, Some("4k4/4a4/9/9/9/9/4P4/9/4A4/3AK4 w - - 0 1")).unwrap();
        assert!(with_pawn.can_possibly_win(0));
        assert!(!with_pawn.can_possibly_win(1));
        let start = AnyGame::new(Variant::Xiangqi, None).unwrap();
        assert!(start.can_possibly_win(0) && start.can_possibly_win(1));
    }

    #[test]
    fn a_shogi_player_can_always_still_win() {
        let bare = AnyGame::new(Variant::Shogi, Some("4k4/9/9/9/9/9/9/9/4K4 b - 1")).unwrap();
        assert!(bare.can_possibly_win(0) && bare.can_possibly_win(1), "drops come back");
        assert!(AnyGame::new(Variant::Flickering, None).unwrap().can_possibly_win(0));
    }

    #[test]
    fn a_stored_game_replays_series_as_turns_and_seat_exits_in_place() {
        let row = |turn_number, seat, text| StoredMove { turn_number, seat, text };
        let rows = [row(1, 0, "e2e4"), row(1, 0, "g1f3"), row(2, 1, "e7e5")];
        let start = AnyGame::new(Variant::Flickering, None).unwrap();
        let (game, played) = start.clone().replay_stored(&rows, &[], rows.len()).unwrap();
        assert_eq!((game.ply(), played), (2, 3), "a series of two rows is one turn");
        let (game, played) = start.clone().replay_stored(&rows, &[], 1).unwrap();
        assert_eq!((game.ply(), played), (0, 0), "a series is never cut");
        let (game, played) = start.clone().replay_stored(&rows, &[], 2).unwrap();
        assert_eq!((game.ply(), played), (1, 2));
        let bad = [row(1, 0, "e2e5")];
        let refused = start.replay_stored(&bad, &[], 1).unwrap_err();
        assert!(matches!(refused, StoredReplayError::Move { row: 1, .. }), "{refused}");

        let kingdoms = AnyGame::with_seats(Variant::SevenKingdoms, 3).unwrap();
        let exit = SeatExit { after_rows: 0, seat: 0, timed_out: false };
        let (game, _) = kingdoms.clone().replay_stored(&[], &[exit], 0).unwrap();
        assert!(game.is_seat_out(0) && game.seat_to_move() != 0, "seat 0 left before moving");
        let refused = AnyGame::new(Variant::Xiangqi, None).unwrap().replay_stored(&[], &[exit], 0);
        assert!(matches!(refused, Err(StoredReplayError::Exit { seat: 0, .. })));
    }

    #[test]
    fn a_shogi_game_takes_western_and_usi_moves() {
        let mut game = AnyGame::new(Variant::Shogi, None).unwrap();
        assert_eq!(game.play("P-7f").unwrap().canonical, "7g7f");
        assert_eq!(game.play("3c3d").unwrap().display, "P-3d");
        assert_eq!(game.display_moves(Notation::Usi), ["7g7f", "3c3d"]);
        assert_eq!(game.display_moves(Notation::Western), ["P-7f", "P-3d"]);
    }

    #[test]
    fn a_shogi_game_takes_japanese_moves_and_reads_same_square_from_its_last_move() {
        let mut game = AnyGame::new(Variant::Shogi, None).unwrap();
        for (text, canonical) in [
            ("▲７六歩", "7g7f"),
            ("３四歩", "3c3d"),
            ("２二角成", "8h2b+"),
            ("同銀", "3a2b"),
            ("▲5五角打", "B*5e"),
        ] {
            assert_eq!(game.play(text).unwrap().canonical, canonical, "{text}");
        }
        assert!(!game.gave_check(0) && !game.gave_check(4) && !game.gave_check(99));
        let refused = game.play("▲５二角成").unwrap_err();
        assert_eq!(refused.code(), "notation.wrong-player", "White is to move: {refused}");
        assert!(refused.to_string().contains("▲ (Black)"), "{refused}");
        assert_eq!(game.ply(), 5, "a refused move changes nothing");
        assert_eq!(game.resolve("△８四歩", Notation::Japanese).unwrap(), "8c8d");
    }

    #[test]
    fn bad_moves_are_reported_by_kind_and_change_nothing() {
        let mut game = AnyGame::new(Variant::MiniShogi, None).unwrap();
        let before = game.fen();
        assert_eq!(game.play("zz").unwrap_err().kind(), MoveErrorKind::Unreadable);
        assert_eq!(game.play("5e5a").unwrap_err().kind(), MoveErrorKind::Illegal);
        assert_eq!(game.fen(), before);
        assert_eq!(game.ply(), 0);
    }

    #[test]
    fn a_refused_move_carries_the_rules_reason_as_a_type_and_a_code() {
        let mut game = AnyGame::new(Variant::Xiangqi, None).unwrap();
        let refused = game.play("a0a5").unwrap_err();
        assert_eq!(
            refused.refusal,
            MoveRefusal::Illegal(IllegalMove::Xiangqi(xiangqi::IllegalMoveKind::Blocked))
        );
        assert_eq!(refused.code(), "illegal-move.blocked");
        assert_eq!(refused.to_string(), "a0a5 is not legal: the piece's way is blocked.");
        assert_eq!(game.play("zz9").unwrap_err().code(), "notation.unreadable");
        assert_eq!(game.play("C2+9").unwrap_err().code(), "notation.no-such-move");
        assert_eq!(game.resolve("7g7f", Notation::Usi).unwrap_err().code(), "notation.wrong-notation");
        let mut shogi = AnyGame::new(Variant::Shogi, None).unwrap();
        assert_eq!(shogi.play("P*5e").unwrap_err().code(), "illegal-move.not-in-hand");
        assert_eq!(shogi.play("G-5h").unwrap_err().code(), "notation.several-moves-fit");
        let over = AnyGame::replay(
            Variant::Xiangqi,
            Ruleset::XiangqiBasic,
            None,
            Some("3k5/R8/9/9/9/9/9/9/9/4K3R w - - 0 1"),
            ["i0i9"],
        );
        let refused = over.unwrap().play("e9e8").unwrap_err();
        assert_eq!((refused.code(), refused.kind()), ("game-over", MoveErrorKind::GameOver));
    }

    #[test]
    fn a_handicap_ban_is_its_own_refusal() {
        let chariot = Handicap::parse("xiangqi", "chariot").unwrap();
        let mut game =
            AnyGame::with_rules(Variant::Xiangqi, Variant::Xiangqi.default_ruleset(), Some(chariot), None)
                .unwrap();
        game.play("e3e4").unwrap();
        let refused = game.play("b7b0").unwrap_err();
        assert_eq!(refused.refusal, MoveRefusal::Handicap(HandicapBan::Capture));
        assert_eq!(refused.code(), "handicap.capture-banned");
    }

    #[test]
    fn flickering_and_kingdoms_refusals_name_the_player_to_move() {
        let mut game = AnyGame::new(Variant::Flickering, None).unwrap();
        let refused = game.play("b) e5").unwrap_err();
        assert_eq!(refused.code(), "notation.wrong-player");
        assert!(refused.params().contains(&("to_move", "a".to_owned())), "{:?}", refused.params());
        let refused = game.play("e4, e5").unwrap_err();
        assert_eq!(refused.code(), "illegal-move.piece-already-moved");
        assert!(refused.params().contains(&("n", "2".to_owned())));
        let mut kingdoms = AnyGame::with_seats(Variant::SevenKingdoms, 3).unwrap();
        let chu_move = kingdoms.legal_moves()[0].replace("Qin", "Chu");
        assert_eq!(kingdoms.play(&chu_move).unwrap_err().code(), "notation.wrong-player");
    }

    #[test]
    fn claims_seats_and_setups_refuse_with_codes() {
        let mut xiangqi = AnyGame::new(Variant::Xiangqi, None).unwrap();
        assert_eq!(xiangqi.claim(), Err(ClaimError::NoClaims(Variant::Xiangqi)));
        assert_eq!(ClaimError::NoClaims(Variant::Xiangqi).code(), "claim.none-in-variant");
        let shogi = AnyGame::new(Variant::Shogi, None).unwrap();
        assert_eq!(shogi.judge_claim(), Err(ClaimError::KingsNotInCamp), "the game's reason, typed");
        let mini = AnyGame::new(Variant::MiniShogi, None).unwrap();
        assert_eq!(mini.judge_claim(), Err(ClaimError::NoClaims(Variant::MiniShogi)));
        assert_eq!(
            AnyGame::new(Variant::Flickering, None).unwrap().judge_claim(),
            Err(ClaimError::NoRepetition)
        );
        assert_eq!(xiangqi.seat_leaves(0, true), Err(LeaveError::TwoSeatGame(Variant::Xiangqi)));
        let setup = AnyGame::with_seats(Variant::SevenKingdoms, 2).unwrap_err();
        assert_eq!(setup.code(), "setup.seats");
        assert_eq!(setup.to_string(), "seven-kingdoms is played by 3 to 7 players, not 2.");
        let fen = AnyGame::new(Variant::Xiangqi, Some("not a fen")).unwrap_err();
        assert!(matches!(fen, SetupError::StartPosition(StartPositionError::Xiangqi(_))), "{fen:?}");
        let replay =
            AnyGame::replay(Variant::Shogi, Variant::Shogi.default_ruleset(), None, None, ["7g7f", "7g7f"]);
        let SetupError::Replay { ply, error } = replay.unwrap_err() else { panic!("a replay error") };
        assert_eq!((ply, error.code()), (2, "illegal-move.no-piece"));
    }

    #[test]
    fn a_dry_run_tells_the_outcome_without_playing() {
        let game = AnyGame::new(Variant::Xiangqi, Some("3k5/R8/9/9/9/9/9/9/9/4K3R w - - 0 1")).unwrap();
        let dry = game.dry_run("i0i9").unwrap();
        assert_eq!(dry.outcome, Some(Outcome::win(Color::First, EndReason::Checkmate)));
        assert_eq!(dry.summary(Color::First), "this move would win by checkmate");
        assert_eq!(game.ply(), 0);
    }

    #[test]
    fn rulesets_and_handicaps_must_belong_to_the_variant() {
        assert!(AnyGame::with_rules(Variant::Shogi, Ruleset::XiangqiBasic, None, None).is_err());
        let h = Handicap::parse("xiangqi", "chariot").unwrap();
        assert!(AnyGame::with_rules(Variant::Shogi, Variant::Shogi.default_ruleset(), Some(h), None).is_err());
        let two = Handicap::parse("shogi", "two-pieces").unwrap();
        let game =
            AnyGame::with_rules(Variant::Shogi, Variant::Shogi.default_ruleset(), Some(two), None).unwrap();
        assert_eq!(game.side_to_move(), Color::Second, "the stronger player (White) moves first");
    }

    #[test]
    fn replay_rebuilds_a_game_from_canonical_moves() {
        let game = AnyGame::replay(
            Variant::Shogi,
            Variant::Shogi.default_ruleset(),
            None,
            None,
            ["7g7f", "3c3d", "8h2b+"],
        )
        .unwrap();
        assert_eq!(game.ply(), 3);
        assert!(AnyGame::replay(
            Variant::Shogi,
            Variant::Shogi.default_ruleset(),
            None,
            None,
            ["7g7f", "7g7f"]
        )
        .is_err());
    }

    #[test]
    fn a_flickering_turn_is_a_whole_series_stored_as_its_parts() {
        let mut game = AnyGame::new(Variant::Flickering, None).unwrap();
        let played = game.play("e4, Nf3").unwrap();
        assert_eq!(played.canonical, "e2e4,g1f3");
        assert_eq!(played.parts, ["e2e4", "g1f3"]);
        assert_eq!(game.side_to_move(), Color::Second);
        assert_eq!(game.play("e7e5").unwrap().parts, ["e7e5"]);
        assert_eq!(game.ply(), 2, "a ply is a turn");
        assert_eq!(game.display_moves(Notation::Coordinates), ["e2e4,g1f3", "e7e5"]);
        assert_eq!(game.play("e2e4").unwrap_err().kind(), MoveErrorKind::Illegal);
    }

    #[test]
    fn a_seven_kingdoms_game_has_seats_and_goes_on_when_one_leaves() {
        assert!(AnyGame::with_seats(Variant::SevenKingdoms, 2).is_err(), "3 to 7 players");
        assert!(AnyGame::with_seats(Variant::Xiangqi, 3).is_err());
        let mut game = AnyGame::with_seats(Variant::SevenKingdoms, 3).unwrap();
        assert_eq!(game.seat_count(), 3);
        assert_eq!(game.seat_to_move(), 0, "Qin moves first");
        let first = game.legal_moves()[0].clone();
        let played = game.play(&first).unwrap();
        assert_eq!(played.canonical, first);
        assert_eq!(game.seat_to_move(), 1, "Chu, the second seat with three players");
        game.seat_leaves(2, true).unwrap();
        assert!(!game.is_over(), "the game goes on without the third seat");
        assert_eq!(game.seat_results(), None);
        assert!(game.seat_leaves(7, true).is_err());
    }

    #[test]
    fn two_seat_results_follow_the_outcome() {
        let mut game = AnyGame::new(Variant::Xiangqi, Some("3k5/R8/9/9/9/9/9/9/9/4K3R w - - 0 1")).unwrap();
        assert_eq!(game.seat_results(), None);
        let played = game.play("i0i9").unwrap();
        assert!(played.game_over);
        let results = game.seat_results().unwrap();
        assert_eq!(results[0].result, SeatResult::Win);
        assert_eq!(results[1].result, SeatResult::Loss);
    }

    #[test]
    fn seats_are_labelled_by_colour_or_by_kingdoms() {
        let game = AnyGame::with_seats(Variant::SevenKingdoms, 6).unwrap();
        assert_eq!(game.seat_label(0), "Qin+Yan");
        assert_eq!(game.seat_label(5), "Zhao");
        let xiangqi = AnyGame::new(Variant::Xiangqi, None).unwrap();
        assert_eq!((xiangqi.seat_label(0).as_str(), xiangqi.seat_label(1).as_str()), ("first", "second"));
    }

    #[test]
    fn seven_kingdoms_standings_mark_the_seats_that_left() {
        let mut game = AnyGame::with_seats(Variant::SevenKingdoms, 4).unwrap();
        assert!(!game.is_seat_out(3));
        game.seat_leaves(3, true).unwrap();
        assert!(game.is_seat_out(3));
        let standings = game.standings_now();
        assert_eq!(standings.iter().map(|s| s.seat).collect::<Vec<_>>(), [0, 1, 2, 3]);
        assert!(standings[3].out && !standings[0].out);
        let record = game.record_text(&[("Event".to_owned(), "club".to_owned())]).unwrap();
        assert!(record.starts_with("# Event: club\n"), "{record}");
        assert!(record.contains("timeout seat 3"), "{record}");
    }

    #[test]
    fn a_flickering_series_is_built_move_by_move() {
        let game = AnyGame::new(Variant::Flickering, None).unwrap();
        let (first, can_end) = game.series_continuations("").unwrap();
        assert_eq!(first.len(), 20);
        assert!(!can_end, "a series has at least one move");
        let (next, can_end) = game.series_continuations("e2e4").unwrap();
        assert!(can_end);
        assert!(next.contains(&"f1c4".to_owned()), "the bishop freed by e4 may move");
        assert!(!next.iter().any(|m| m.starts_with("e4")), "the pawn has moved in this series");
        assert_eq!(game.series_continuations("e2e5").unwrap_err().kind(), MoveErrorKind::Illegal);
        let xiangqi = AnyGame::new(Variant::Xiangqi, None).unwrap();
        assert!(xiangqi.series_continuations("").is_err());
    }
}
