//! The stored words of a game's state and end: its status, its result, why it ended and
//! each seat's outcome, as enums matching the database's constraints (`game_status_check`,
//! `game_result_check`, `game_reason_check`, `game_seat_outcome_check`; migrations
//! 000001 and 20261125600001). Each is stored, sent in JSON and shown as the same text.

use std::fmt;
use std::str::FromStr;

use tavoliere_rules::EndReason;

/// Text columns read and written through `FromStr` / `Display`, and serialized as that
/// text (so the JSON shows exactly what the database holds).
macro_rules! text_enum {
    ($name:ident) => {
        impl sqlx::Type<sqlx::Postgres> for $name {
            fn type_info() -> sqlx::postgres::PgTypeInfo {
                <String as sqlx::Type<sqlx::Postgres>>::type_info()
            }

            fn compatible(ty: &sqlx::postgres::PgTypeInfo) -> bool {
                <String as sqlx::Type<sqlx::Postgres>>::compatible(ty)
            }
        }

        impl<'r> sqlx::Decode<'r, sqlx::Postgres> for $name {
            fn decode(value: sqlx::postgres::PgValueRef<'r>) -> Result<$name, sqlx::error::BoxDynError> {
                Ok(<&str as sqlx::Decode<sqlx::Postgres>>::decode(value)?.parse()?)
            }
        }

        impl sqlx::Encode<'_, sqlx::Postgres> for $name {
            fn encode_by_ref(
                &self,
                buf: &mut sqlx::postgres::PgArgumentBuffer,
            ) -> Result<sqlx::encode::IsNull, sqlx::error::BoxDynError> {
                <String as sqlx::Encode<sqlx::Postgres>>::encode(self.to_string(), buf)
            }
        }

        impl sqlx::postgres::PgHasArrayType for $name {
            fn array_type_info() -> sqlx::postgres::PgTypeInfo {
                <String as sqlx::postgres::PgHasArrayType>::array_type_info()
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(self)
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<$name, D::Error> {
                let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
                text.parse().map_err(serde::de::Error::custom)
            }
        }

        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                <String as utoipa::PartialSchema>::schema()
            }
        }

        impl utoipa::ToSchema for $name {}
    };
}

/// A game's status, as the database constraint `game_status_check` allows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameStatus {
    /// Being played.
    Active,
    /// Over with a result.
    Finished,
    /// Stopped without a result (aborted by a player, annulled by a director).
    Aborted,
}

impl GameStatus {
    /// The stored (and shown) name.
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Active => "active",
            GameStatus::Finished => "finished",
            GameStatus::Aborted => "aborted",
        }
    }
}

impl fmt::Display for GameStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for GameStatus {
    type Err = String;

    fn from_str(text: &str) -> Result<GameStatus, String> {
        match text {
            "active" => Ok(GameStatus::Active),
            "finished" => Ok(GameStatus::Finished),
            "aborted" => Ok(GameStatus::Aborted),
            other => Err(format!("unknown game status {other:?}")),
        }
    }
}

text_enum!(GameStatus);

/// A seat's outcome, as the database constraint `game_seat_outcome_check` allows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatOutcome {
    /// Won (place 1 of a two-seat game).
    Win,
    /// Lost.
    Loss,
    /// Drawn.
    Draw,
}

impl SeatOutcome {
    /// The stored (and shown) name.
    pub fn as_str(self) -> &'static str {
        match self {
            SeatOutcome::Win => "win",
            SeatOutcome::Loss => "loss",
            SeatOutcome::Draw => "draw",
        }
    }
}

impl fmt::Display for SeatOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for SeatOutcome {
    type Err = String;

    fn from_str(text: &str) -> Result<SeatOutcome, String> {
        match text {
            "win" => Ok(SeatOutcome::Win),
            "loss" => Ok(SeatOutcome::Loss),
            "draw" => Ok(SeatOutcome::Draw),
            other => Err(format!("unknown seat outcome {other:?}")),
        }
    }
}

text_enum!(SeatOutcome);

/// How a seat left a game of more seats that went on, as the database constraint
/// `game_seat_exit_check` allows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatLeave {
    /// `resign`: the player resigned.
    Resign,
    /// `timeout`: the player's time ran out.
    Timeout,
}

impl fmt::Display for SeatLeave {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SeatLeave::Resign => "resign",
            SeatLeave::Timeout => "timeout",
        })
    }
}

impl FromStr for SeatLeave {
    type Err = String;

    fn from_str(text: &str) -> Result<SeatLeave, String> {
        match text {
            "resign" => Ok(SeatLeave::Resign),
            "timeout" => Ok(SeatLeave::Timeout),
            other => Err(format!("unknown seat exit {other:?}")),
        }
    }
}

text_enum!(SeatLeave);

/// A finished game's result (`game.result`, constraint `game_result_check`): `1-0`,
/// `0-1`, `1/2-1/2`, `0-0` (a director's double forfeit), or in games of more than two
/// seats the places in seat order (`2-1-3`: seat 1 won, seat 0 second).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// `1-0`: seat 0 won.
    FirstWins,
    /// `0-1`: seat 1 won.
    SecondWins,
    /// `1/2-1/2`.
    Draw,
    /// `0-0`: both seats forfeited, nobody scores.
    DoubleForfeit,
    /// The places of three to seven seats, in seat order (equal places share).
    Places(Vec<u8>),
}

impl GameResult {
    /// The result of a two-seat game won by `winner_seat` (`None`: drawn).
    pub fn two_seat(winner_seat: Option<i32>) -> GameResult {
        match winner_seat {
            Some(0) => GameResult::FirstWins,
            Some(_) => GameResult::SecondWins,
            None => GameResult::Draw,
        }
    }

    /// The winning seat of a decided two-seat game.
    pub fn winner_seat(&self) -> Option<i32> {
        match self {
            GameResult::FirstWins => Some(0),
            GameResult::SecondWins => Some(1),
            _ => None,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameResult::FirstWins => f.write_str("1-0"),
            GameResult::SecondWins => f.write_str("0-1"),
            GameResult::Draw => f.write_str("1/2-1/2"),
            GameResult::DoubleForfeit => f.write_str("0-0"),
            GameResult::Places(places) => {
                for (index, place) in places.iter().enumerate() {
                    if index > 0 {
                        f.write_str("-")?;
                    }
                    write!(f, "{place}")?;
                }
                Ok(())
            }
        }
    }
}

impl FromStr for GameResult {
    type Err = String;

    fn from_str(text: &str) -> Result<GameResult, String> {
        match text {
            "1-0" => return Ok(GameResult::FirstWins),
            "0-1" => return Ok(GameResult::SecondWins),
            "1/2-1/2" => return Ok(GameResult::Draw),
            "0-0" => return Ok(GameResult::DoubleForfeit),
            _ => {}
        }
        let places: Option<Vec<u8>> =
            text.split('-').map(|p| p.parse::<u8>().ok().filter(|p| (1..=7).contains(p))).collect();
        match places {
            Some(places) if (3..=7).contains(&places.len()) => Ok(GameResult::Places(places)),
            _ => Err(format!("unknown game result {text:?}")),
        }
    }
}

text_enum!(GameResult);

/// The end of a Seven Kingdoms game (the rules' `seven_kingdoms::EndCause` by name).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KingdomsEnd {
    /// `hegemony-generals`: a player's kingdoms captured two generals.
    HegemonyGenerals,
    /// `hegemony-pieces`: a player's kingdoms captured thirty pieces.
    HegemonyPieces,
    /// `last-alliance`: one player's kingdoms remain.
    LastAlliance,
    /// `no-legal-moves`: no kingdom in play can move.
    NoLegalMoves,
}

impl KingdomsEnd {
    const ALL: [KingdomsEnd; 4] = [
        KingdomsEnd::HegemonyGenerals,
        KingdomsEnd::HegemonyPieces,
        KingdomsEnd::LastAlliance,
        KingdomsEnd::NoLegalMoves,
    ];

    fn as_str(self) -> &'static str {
        match self {
            KingdomsEnd::HegemonyGenerals => "hegemony-generals",
            KingdomsEnd::HegemonyPieces => "hegemony-pieces",
            KingdomsEnd::LastAlliance => "last-alliance",
            KingdomsEnd::NoLegalMoves => "no-legal-moves",
        }
    }
}

/// Why a game ended or stopped (`game.reason`, constraint `game_reason_check` through the
/// function `game_reason_known`,
/// kebab-case): a reason of the rules crate, the end of a Seven Kingdoms game, or a
/// director's annulment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameReason {
    /// A reason of the rules (checkmate, resignation, timeout, aborted, forfeit...).
    Rules(EndReason),
    /// How a Seven Kingdoms game ended.
    Kingdoms(KingdomsEnd),
    /// `annulled`: a director annulled the game (it stopped without a result).
    Annulled,
}

impl GameReason {
    /// The stored (and shown) name.
    pub fn as_str(self) -> &'static str {
        match self {
            GameReason::Rules(reason) => reason.as_str(),
            GameReason::Kingdoms(end) => end.as_str(),
            GameReason::Annulled => "annulled",
        }
    }

    /// Every reason, for the database constraint's test.
    pub fn all() -> impl Iterator<Item = GameReason> {
        EndReason::ALL
            .into_iter()
            .map(GameReason::Rules)
            .chain(KingdomsEnd::ALL.into_iter().map(GameReason::Kingdoms))
            .chain([GameReason::Annulled])
    }
}

impl From<EndReason> for GameReason {
    fn from(reason: EndReason) -> GameReason {
        GameReason::Rules(reason)
    }
}

impl PartialEq<EndReason> for GameReason {
    fn eq(&self, other: &EndReason) -> bool {
        *self == GameReason::Rules(*other)
    }
}

impl fmt::Display for GameReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for GameReason {
    type Err = String;

    fn from_str(text: &str) -> Result<GameReason, String> {
        if let Ok(reason) = text.parse::<EndReason>() {
            return Ok(GameReason::Rules(reason));
        }
        GameReason::all().find(|r| r.as_str() == text).ok_or_else(|| format!("unknown end reason {text:?}"))
    }
}

text_enum!(GameReason);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_read_back_as_stored() {
        for text in ["1-0", "0-1", "1/2-1/2", "0-0", "2-1-3", "1-1-3-4", "7-6-5-4-3-2-1"] {
            let result: GameResult = text.parse().unwrap();
            assert_eq!(result.to_string(), text);
            assert_eq!(serde_json::to_string(&result).unwrap(), format!("\"{text}\""));
        }
        assert_eq!("2-1-3".parse(), Ok(GameResult::Places(vec![2, 1, 3])));
        for bad in ["", "*", "1-1", "2-0", "1-8-2", "1/2", "1-2-3-4-5-6-7-1", "½-½"] {
            assert!(bad.parse::<GameResult>().is_err(), "{bad}");
        }
    }

    #[test]
    fn reasons_read_back_as_stored() {
        let all: Vec<GameReason> = GameReason::all().collect();
        assert_eq!(all.len(), EndReason::ALL.len() + 5);
        for reason in all {
            assert_eq!(reason.as_str().parse(), Ok(reason));
            assert_eq!(serde_json::to_string(&reason).unwrap(), format!("\"{reason}\""));
        }
        assert_eq!("perpetual-check".parse(), Ok(GameReason::Rules(EndReason::PerpetualCheck)));
        assert!("perpetual_check".parse::<GameReason>().is_err());
    }

    #[test]
    fn every_seven_kingdoms_end_is_known() {
        use tavoliere_rules::seven_kingdoms::{EndCause, HegemonyKind, Seat};
        let seat = Seat(0);
        for cause in [
            EndCause::Hegemony { seat, kind: HegemonyKind::TwoGenerals },
            EndCause::Hegemony { seat, kind: HegemonyKind::ThirtyPieces },
            EndCause::LastAlliance { seat },
            EndCause::NoLegalMoves,
        ] {
            assert!(matches!(cause.as_str().parse(), Ok(GameReason::Kingdoms(_))), "{cause}");
        }
    }

    #[test]
    fn statuses_and_outcomes_read_back_as_stored() {
        for status in [GameStatus::Active, GameStatus::Finished, GameStatus::Aborted] {
            assert_eq!(status.as_str().parse(), Ok(status));
        }
        for exit in [SeatLeave::Resign, SeatLeave::Timeout] {
            assert_eq!(exit.to_string().parse(), Ok(exit));
        }
        for outcome in [SeatOutcome::Win, SeatOutcome::Loss, SeatOutcome::Draw] {
            assert_eq!(outcome.as_str().parse(), Ok(outcome));
            assert_eq!(serde_json::from_str::<SeatOutcome>(&format!("\"{outcome}\"")).unwrap(), outcome);
        }
    }
}
