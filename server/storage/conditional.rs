//! The conditional lines of players waiting for their opponent (#17 §3; migration
//! 20261127100001). The decisions (validation, matching, the reply) are in
//! `crate::domain::games::conditional`.

use sqlx::PgConnection;
use time::OffsetDateTime;

use crate::domain::error::DomainResult;

/// A stored line: the canonical moves, the opponent's first, alternating.
#[derive(Clone, Debug, sqlx::FromRow)]
pub(crate) struct LineRow {
    pub(crate) conditional_line_id: i64,
    pub(crate) ply: i32,
    pub(crate) moves: Vec<String>,
    pub(crate) display: Vec<String>,
    pub(crate) created_at: OffsetDateTime,
}

/// The lines of `seat` in `game_id`, oldest first.
pub(crate) async fn of_seat(
    connection: &mut PgConnection,
    game_id: i64,
    seat: i32,
) -> DomainResult<Vec<LineRow>> {
    Ok(sqlx::query_as(
        r#"select conditional_line_id, ply, moves, display, created_at from conditional_line
           where game_id = $1 and seat = $2 order by conditional_line_id"#,
    )
    .bind(game_id)
    .bind(seat)
    .fetch_all(connection)
    .await?)
}

/// The lines of `account_id` in `game_id` at `ply`, oldest first.
pub(crate) async fn of_account(
    connection: &mut PgConnection,
    game_id: i64,
    account_id: i64,
    ply: i32,
) -> DomainResult<Vec<LineRow>> {
    Ok(sqlx::query_as(
        r#"select conditional_line_id, ply, moves, display, created_at from conditional_line
           where game_id = $1 and account_id = $2 and ply = $3 order by conditional_line_id"#,
    )
    .bind(game_id)
    .bind(account_id)
    .bind(ply)
    .fetch_all(connection)
    .await?)
}

/// A line to store.
pub(crate) struct NewLine<'a> {
    pub(crate) game_id: i64,
    pub(crate) account_id: i64,
    pub(crate) seat: i32,
    pub(crate) ply: i32,
    pub(crate) moves: &'a [String],
    pub(crate) display: &'a [String],
}

/// Stores a line and bumps the game's revision (a kept copy of the game no longer sees
/// every seat's lines: the next move takes the locked path). Returns the line.
pub(crate) async fn insert(
    connection: &mut PgConnection,
    line: &NewLine<'_>,
    now: OffsetDateTime,
) -> DomainResult<LineRow> {
    let stored = sqlx::query_as(
        r#"insert into conditional_line (game_id, account_id, seat, ply, moves, display, created_at)
           values ($1, $2, $3, $4, $5, $6, $7)
           returning conditional_line_id, ply, moves, display, created_at"#,
    )
    .bind(line.game_id)
    .bind(line.account_id)
    .bind(line.seat)
    .bind(line.ply)
    .bind(line.moves)
    .bind(line.display)
    .bind(now)
    .fetch_one(&mut *connection)
    .await?;
    bump_revision(connection, line.game_id).await?;
    Ok(stored)
}

/// Deletes the lines of `account_id` in `game_id` (only `line_id` when given); returns
/// how many went.
pub(crate) async fn delete(
    connection: &mut PgConnection,
    game_id: i64,
    account_id: i64,
    line_id: Option<i64>,
) -> DomainResult<u64> {
    let deleted = sqlx::query(
        r#"delete from conditional_line
           where game_id = $1 and account_id = $2 and ($3::bigint is null or conditional_line_id = $3)"#,
    )
    .bind(game_id)
    .bind(account_id)
    .bind(line_id)
    .execute(&mut *connection)
    .await?
    .rows_affected();
    if deleted > 0 {
        bump_revision(connection, game_id).await?;
    }
    Ok(deleted)
}

/// After the reply of a matched line: the lines in `advanced` lose their first two moves
/// and apply at `ply`; every other line of `seat` goes (a line played to its end, one that
/// did not match). Runs in the move's transaction, whose statement bumps the revision.
pub(crate) async fn advance(
    connection: &mut PgConnection,
    game_id: i64,
    seat: i32,
    advanced: &[i64],
    ply: i32,
) -> DomainResult<()> {
    sqlx::query(
        r#"with gone as (
               delete from conditional_line
               where game_id = $1 and seat = $2 and not conditional_line_id = any($3)
           )
           update conditional_line set moves = moves[3:], display = display[3:], ply = $4
           where conditional_line_id = any($3)"#,
    )
    .bind(game_id)
    .bind(seat)
    .bind(advanced)
    .bind(ply)
    .execute(connection)
    .await?;
    Ok(())
}

/// Marks the game changed: a new revision, as every writer of what a move reads sets.
async fn bump_revision(connection: &mut PgConnection, game_id: i64) -> DomainResult<()> {
    sqlx::query(r#"update game set revision = revision + 1 where game_id = $1"#)
        .bind(game_id)
        .execute(connection)
        .await?;
    Ok(())
}
