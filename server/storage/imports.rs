//! The statements that store an imported record as a finished game (the reading and
//! judging of the record is `crate::domain::imports`).

use sqlx::types::Json;
use sqlx::{Postgres, Transaction};
use time::OffsetDateTime;

use crate::domain::time_control::TimeControl;
use crate::storage::endings::{GameReason, GameResult, SeatOutcome};

/// A finished game read from a record, to insert.
pub(crate) struct ImportedGameRow<'a> {
    pub(crate) variant: &'a str,
    pub(crate) ruleset: &'a str,
    pub(crate) start_position: Option<&'a str>,
    pub(crate) result: Option<&'a GameResult>,
    pub(crate) reason: Option<GameReason>,
    pub(crate) plies: i32,
    pub(crate) turn_seat: i32,
    pub(crate) imported_by: i64,
    pub(crate) format: &'a str,
    pub(crate) now: OffsetDateTime,
}

/// One seat of an imported game: the name the record gives and how it ended.
pub(crate) struct ImportedSeat<'a> {
    pub(crate) name: &'a str,
    pub(crate) moves_made: i32,
    pub(crate) outcome: Option<SeatOutcome>,
    pub(crate) points: Option<f64>,
    pub(crate) place: Option<i32>,
}

/// One stored move: its seat, turn number, canonical text and the key of the position
/// after it.
pub(crate) struct ImportedMove<'a> {
    pub(crate) seat: i32,
    pub(crate) turn: i32,
    pub(crate) notation: &'a str,
    pub(crate) position_key: i64,
}

/// When each game `uploader` imported since `since` was imported, oldest first; the
/// uploader's account row is locked until the transaction ends, so that parallel imports
/// of one account are counted one after the other.
pub(crate) async fn imported_since(
    connection: &mut sqlx::PgConnection,
    uploader: i64,
    since: OffsetDateTime,
) -> sqlx::Result<Vec<OffsetDateTime>> {
    sqlx::query("select 1 from account where account_id = $1 for no key update")
        .bind(uploader)
        .execute(&mut *connection)
        .await?;
    // Index `game_imported_by_idx` (migration 20261128100004); an imported game's
    // `finished_at` is when it was imported.
    sqlx::query_scalar(
        r#"select finished_at from game where imported_by = $1 and finished_at > $2
           order by finished_at"#,
    )
    .bind(uploader)
    .bind(since)
    .fetch_all(connection)
    .await
}

/// Inserts the game, its seats (no accounts: the record's names) and its moves → its id.
pub(crate) async fn insert_imported(
    tx: &mut Transaction<'_, Postgres>,
    game: &ImportedGameRow<'_>,
    seats: &[ImportedSeat<'_>],
    moves: &[ImportedMove<'_>],
) -> sqlx::Result<i64> {
    let game_id: i64 = sqlx::query_scalar(
        r#"insert into game (variant, ruleset, handicap, start_position, seat_count, status,
               result, reason, current_ply, turn_seat, time_control, vacation_allowed,
               turn_started_at, deadline, finished_at, imported_by, imported_format)
           values ($1, $2, null, $3, $4, 'finished', $5, $6, $7, $8, $9, false, $10, null, $10,
                   $11, $12)
           returning game_id"#,
    )
    .bind(game.variant)
    .bind(game.ruleset)
    .bind(game.start_position)
    // Only two-player games are importable.
    .bind(2_i32)
    .bind(game.result)
    .bind(game.reason)
    .bind(game.plies)
    .bind(game.turn_seat)
    // The record's clock is not known: a nominal correspondence control.
    .bind(Json(TimeControl::days_per_move(1)))
    .bind(game.now)
    .bind(game.imported_by)
    .bind(game.format)
    .fetch_one(&mut **tx)
    .await?;
    for (seat, row) in seats.iter().enumerate() {
        sqlx::query(
            r#"insert into game_seat (game_id, seat, account_id, player_name, remaining_ms,
                   moves_made, outcome, points, place)
               values ($1, $2, null, $3, 0, $4, $5, $6, $7)"#,
        )
        .bind(game_id)
        .bind(seat as i32)
        .bind(row.name)
        .bind(row.moves_made)
        .bind(row.outcome)
        .bind(row.points)
        .bind(row.place)
        .execute(&mut **tx)
        .await?;
    }
    let plies: Vec<i32> = (1..=moves.len() as i32).collect();
    let seats: Vec<i32> = moves.iter().map(|m| m.seat).collect();
    let turns: Vec<i32> = moves.iter().map(|m| m.turn).collect();
    let notations: Vec<&str> = moves.iter().map(|m| m.notation).collect();
    let keys: Vec<i64> = moves.iter().map(|m| m.position_key).collect();
    sqlx::query(
        r#"insert into move (game_id, ply, turn_number, seat, notation, position_key, played_at)
           select $1, m.ply, m.turn, m.seat, m.notation, m.key, $7
           from unnest($2::int[], $3::int[], $4::int[], $5::text[], $6::bigint[])
               as m(ply, turn, seat, notation, key)"#,
    )
    .bind(game_id)
    .bind(&plies)
    .bind(&turns)
    .bind(&seats)
    .bind(&notations)
    .bind(&keys)
    .bind(game.now)
    .execute(&mut **tx)
    .await?;
    Ok(game_id)
}
