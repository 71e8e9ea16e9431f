//! The stored games: the rows of `game`, `game_seat` and `move`, and the statements that
//! read and write them (the decisions are in `crate::domain::games`).

use serde::Serialize;
use sqlx::types::Json;
use sqlx::{Postgres, Transaction};
use time::OffsetDateTime;

use crate::domain::error::{DomainError, DomainResult};
use crate::domain::notifications::{Delivery, Kind};
use crate::domain::time_control::TimeControl;
pub use crate::storage::endings::{GameReason, GameResult, GameStatus, KingdomsEnd, SeatLeave, SeatOutcome};

/// A game row.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct GameRow {
    pub(crate) game_id: i64,
    pub(crate) variant: String,
    pub(crate) ruleset: String,
    pub(crate) handicap: Option<String>,
    pub(crate) start_position: Option<String>,
    pub(crate) seat_count: i32,
    pub(crate) status: GameStatus,
    pub(crate) result: Option<GameResult>,
    pub(crate) reason: Option<GameReason>,
    pub(crate) current_ply: i32,
    pub(crate) turn_seat: i32,
    pub(crate) time_control: Json<TimeControl>,
    pub(crate) vacation_allowed: bool,
    pub(crate) turn_started_at: OffsetDateTime,
    pub(crate) draw_offer_seat: Option<i32>,
    pub(crate) tournament_id: Option<i64>,
    /// Bumped by every change of the row (migration 000800): see [`submit_move`].
    pub(crate) revision: i64,
    /// Whether the game is rated (issue 18 §1).
    pub(crate) rated: bool,
    /// When the game began, and its section's vacation allowance in days (migration
    /// 20261127200002; `None`: any leave counts).
    pub(crate) created_at: OffsetDateTime,
    pub(crate) vacation_days: Option<i32>,
}

pub(crate) const GAME_COLUMNS: &str = r#"game_id, variant, ruleset, handicap, start_position, seat_count, status,
    result, reason, current_ply, turn_seat, time_control, vacation_allowed, turn_started_at,
    draw_offer_seat, tournament_id, revision, rated, created_at, vacation_days"#;

/// A seat row joined with its account.
#[derive(Debug, Clone, sqlx::FromRow, serde::Deserialize)]
pub(crate) struct SeatRow {
    pub(crate) seat: i32,
    pub(crate) account_id: i64,
    pub(crate) username: String,
    pub(crate) remaining_ms: i64,
    pub(crate) moves_made: i32,
    pub(crate) outcome: Option<SeatOutcome>,
    /// `resign` or `timeout` when the seat left a game of more than two seats that went on.
    pub(crate) exit: Option<SeatLeave>,
    pub(crate) exit_after_ply: Option<i32>,
    pub(crate) place: Option<i32>,
    pub(crate) score: Option<i32>,
    pub(crate) secondary_score: Option<i32>,
    /// Whether the account has leave that ends after the current turn began: only then is
    /// the leave itself read (most moves need no vacation query).
    pub(crate) has_leave: bool,
    /// Whether the seat has conditional lines (#17 §3): a move answering them takes the
    /// locked path, which plays the reply in its transaction.
    pub(crate) has_conditional: bool,
    /// A rated game's rating of the seat's player when it ended, the rating after and the
    /// deviation before (null until a rated game ends).
    pub(crate) rating_before: Option<f64>,
    pub(crate) rating_after: Option<f64>,
    pub(crate) deviation_before: Option<f64>,
}

impl SeatRow {
    /// The seat's exit as the rules replay it: after how many stored moves, and whether on
    /// time.
    pub(crate) fn exit_event(&self) -> Option<(i32, bool)> {
        Some((self.exit_after_ply?, self.exit? == SeatLeave::Timeout))
    }
}

/// A stored move.
#[derive(Debug, Clone, sqlx::FromRow)]
pub(crate) struct MoveRow {
    pub(crate) ply: i32,
    pub(crate) turn_number: i32,
    pub(crate) seat: i32,
    pub(crate) notation: String,
    pub(crate) played_at: OffsetDateTime,
}

/// The seat columns ([`SeatRow`]) of game `g`'s seats `s`.
/// An imported game's seat has no account (migration 500001): its `account_id` reads as
/// 0, which is nobody's, and its username is the name the record gave.
pub(crate) const SEAT_COLUMNS: &str = r#"s.seat, coalesce(s.account_id, 0) as account_id,
    coalesce(a.username, s.player_name) as username, s.remaining_ms, s.moves_made,
    s.outcome, s.exit, s.exit_after_ply, s.place, s.score, s.secondary_score,
    exists(select 1 from vacation v
           where v.account_id = s.account_id and v.ends_at > g.turn_started_at) as has_leave,
    exists(select 1 from conditional_line c
           where c.game_id = s.game_id and c.seat = s.seat) as has_conditional,
    s.rating_before, s.rating_after, s.deviation_before"#;

pub(crate) async fn load_seats(
    tx: &mut Transaction<'_, Postgres>,
    game_id: i64,
) -> DomainResult<Vec<SeatRow>> {
    Ok(sqlx::query_as::<_, SeatRow>(&format!(
        r#"select {SEAT_COLUMNS}
           from game_seat s left join account a on a.account_id = s.account_id
               join game g on g.game_id = s.game_id
           where s.game_id = $1 order by s.seat"#
    ))
    .bind(game_id)
    .fetch_all(&mut **tx)
    .await?)
}

/// A game row locked for update, with its seats.
#[derive(sqlx::FromRow)]
pub(crate) struct LockedGame {
    #[sqlx(flatten)]
    pub(crate) row: GameRow,
    pub(crate) seats: Json<Vec<SeatRow>>,
}

/// Locks the game row and reads its seats in one round trip (the start of every move).
pub(crate) async fn lock_game_with_seats(
    tx: &mut Transaction<'_, Postgres>,
    game_id: i64,
) -> DomainResult<(GameRow, Vec<SeatRow>)> {
    let locked = sqlx::query_as::<_, LockedGame>(&format!(
        r#"select {GAME_COLUMNS},
               (select coalesce(json_agg(seat_row order by seat_row.seat), '[]'::json)
                from (select {SEAT_COLUMNS}
                      from game_seat s left join account a on a.account_id = s.account_id
                      where s.game_id = g.game_id) as seat_row) as seats
           from game g where g.game_id = $1 for update of g"#
    ))
    .bind(game_id)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or_else(|| DomainError::NotFound(format!("no game {game_id}")))?;
    Ok((locked.row, locked.seats.0))
}

pub(crate) async fn load_moves(
    tx: &mut Transaction<'_, Postgres>,
    game_id: i64,
) -> DomainResult<Vec<MoveRow>> {
    Ok(sqlx::query_as::<_, MoveRow>(
        r#"select ply, turn_number, seat, notation, played_at from move
           where game_id = $1 order by ply"#,
    )
    .bind(game_id)
    .fetch_all(&mut **tx)
    .await?)
}

pub(crate) async fn load_game(tx: &mut Transaction<'_, Postgres>, game_id: i64) -> DomainResult<GameRow> {
    sqlx::query_as::<_, GameRow>(&format!("select {GAME_COLUMNS} from game where game_id = $1"))
        .bind(game_id)
        .fetch_optional(&mut **tx)
        .await?
        .ok_or_else(|| DomainError::NotFound(format!("no game {game_id}")))
}

/// What a move writes, worked out from the game as read and the rules.
#[derive(Clone, Debug)]
pub(crate) struct MoveWrite {
    /// The stored rows' plies (several for a Flickering series) and their notations.
    pub(crate) plies: Vec<i32>,
    pub(crate) parts: Vec<String>,
    pub(crate) turn_number: i32,
    pub(crate) mover: i32,
    /// The mover's clock after the move.
    pub(crate) remaining_ms: i64,
    pub(crate) next_seat: i32,
    pub(crate) deadline: OffsetDateTime,
    pub(crate) draw_offer: Option<i32>,
    pub(crate) position_key: i64,
    pub(crate) now: OffsetDateTime,
    pub(crate) game_over: bool,
    /// The account told "your move" in the move's own statement (#17: a correspondence
    /// game going on, another player to move), if any.
    pub(crate) notify_account: Option<i64>,
}

/// What [`write_move`] stored.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Written {
    /// The game row's new revision.
    pub(crate) revision: i64,
    /// The account whose "your move" row the statement stored already settled (not to be
    /// mailed: no verified address, delivery off or in the digest), whose sockets no sender
    /// will tell: the move's announcement does (`notify::Announcer::tell_accounts`).
    pub(crate) told: Option<i64>,
}

/// Stores a move (every move of a series), the mover's clock and the game's turn in one
/// statement (announced after the commit: [`after_move`]), if the game row is still at `revision`, active, and
/// none of `leave_guard`'s accounts has leave ending after `turn_started_at`. Returns the
/// row's new revision, `None` (nothing written) when a condition failed. The "your move"
/// row is inserted with its mail already decided by the account's settings
/// (`notification_mail_decision`, migration 20261128000001), so that the senders claim
/// only the rows they mail. The primary key
/// (game_id, ply) backs up the revision: a second row for a ply is a 409. Every row of a
/// series carries the key of the position after it.
pub(crate) async fn write_move(
    connection: &mut sqlx::PgConnection,
    game_id: i64,
    write: &MoveWrite,
    revision: i64,
    leave_guard: &[i64],
    turn_started_at: OffsetDateTime,
) -> DomainResult<Option<Written>> {
    let ply = *write.plies.last().expect("a move stores at least one row");
    let default_off = Kind::YourMove.default_delivery() == Delivery::Off;
    let written: Option<(i64, Option<i64>)> = sqlx::query_as(
        r#"with turned as (
               update game set current_ply = $12, turn_seat = $9, turn_started_at = $7,
                   deadline = $10, draw_offer_seat = $11, revision = revision + 1
               where game_id = $1 and revision = $13 and status = 'active'
                   and not exists (select 1 from vacation v
                                   where v.account_id = any($14) and v.ends_at > $15)
               returning revision
           ), played as (
               insert into move (game_id, ply, turn_number, seat, notation, position_key, played_at)
               select $1, p.ply, $3, $4, p.notation, $6, $7
               from unnest($2::int[], $5::text[]) as p(ply, notation)
               where exists (select 1 from turned)
           ), charged as (
               update game_seat set remaining_ms = $8, moves_made = moves_made + 1
               where game_id = $1 and seat = $4 and exists (select 1 from turned)
           ), notified as (
               -- The outbox row of "your move" (#17 §2): committed with the move or not at all.
               insert into notification (account_id, kind, game_id, details, created_at, mail_state, last_error)
               select $16, 'your-move', $1, jsonb_build_object('ply', $12::int), $7, d.state, d.reason
               from notification_mail_decision($16, 'your-move', false, $17) d
               where $16::bigint is not null and exists (select 1 from turned)
               returning account_id, mail_state
           )
           select revision, (select account_id from notified where mail_state <> 'pending') from turned"#,
    )
    .bind(game_id)
    .bind(&write.plies)
    .bind(write.turn_number)
    .bind(write.mover)
    .bind(&write.parts)
    .bind(write.position_key)
    .bind(write.now)
    .bind(write.remaining_ms)
    .bind(write.next_seat)
    .bind(write.deadline)
    .bind(write.draw_offer)
    .bind(ply)
    .bind(revision)
    .bind(leave_guard)
    .bind(turn_started_at)
    .bind(write.notify_account)
    .bind(default_off)
    .fetch_optional(&mut *connection)
    .await?;
    Ok(written.map(|(revision, told)| Written { revision, told }))
}

/// One move for [`write_moves`]: the arguments of [`write_move`].
#[derive(Clone, Debug)]
pub(crate) struct MoveToWrite {
    pub(crate) game_id: i64,
    pub(crate) write: MoveWrite,
    pub(crate) revision: i64,
    pub(crate) leave_guard: Vec<i64>,
    pub(crate) turn_started_at: OffsetDateTime,
}

/// [`write_move`] for several games in one statement (one commit, one round trip): each
/// move is stored under its own conditions, exactly as [`write_move`] would store it, and
/// the answer has a row for each game whose move was stored (a game missing from it is
/// [`write_move`]'s `None`). Any error stores none of them (one statement).
///
/// The moves must be of distinct games; given in the order of their games' ids, the game
/// rows are locked in that order (the index scan's), so that two such statements of two
/// instances cannot wait for each other.
pub(crate) async fn write_moves(
    connection: &mut sqlx::PgConnection,
    moves: &[MoveToWrite],
) -> DomainResult<Vec<(i64, Written)>> {
    let default_off = Kind::YourMove.default_delivery() == Delivery::Off;
    // One array a column, a move an element.
    fn column<T>(moves: &[MoveToWrite], value: impl Fn(&MoveToWrite) -> T) -> Vec<T> {
        moves.iter().map(value).collect()
    }
    let (mut row_game, mut row_ply, mut row_notation) = (Vec::new(), Vec::new(), Vec::new());
    let (mut guard_game, mut guard_account) = (Vec::new(), Vec::new());
    for m in moves {
        for (ply, notation) in m.write.plies.iter().zip(&m.write.parts) {
            row_game.push(m.game_id);
            row_ply.push(*ply);
            row_notation.push(notation.as_str());
        }
        for account in &m.leave_guard {
            guard_game.push(m.game_id);
            guard_account.push(*account);
        }
    }
    let written: Vec<(i64, i64, Option<i64>)> = sqlx::query_as(
        r#"with input as (
               select * from unnest($1::bigint[], $2::int[], $3::int[], $4::bigint[], $5::timestamptz[],
                                    $6::bigint[], $7::int[], $8::timestamptz[], $9::int[], $10::int[],
                                    $11::bigint[], $12::timestamptz[], $13::bigint[])
                   as i(game_id, turn_number, seat, position_key, played_at, remaining_ms, next_seat,
                        deadline, draw_offer, ply, revision, turn_started_at, notify_account)
           ), turned as (
               update game g set current_ply = i.ply, turn_seat = i.next_seat,
                   turn_started_at = i.played_at, deadline = i.deadline,
                   draw_offer_seat = i.draw_offer, revision = g.revision + 1
               from input i
               -- game_id = any($1): the primary key's index finds the batch's rows, in the
               -- order of their ids, whatever the planner thinks of the join.
               where g.game_id = any($1) and g.game_id = i.game_id and g.revision = i.revision
                   and g.status = 'active'
                   and not exists (select 1 from unnest($14::bigint[], $15::bigint[]) as l(game_id, account_id)
                                   join vacation v on v.account_id = l.account_id
                                   where l.game_id = i.game_id and v.ends_at > i.turn_started_at)
               returning g.game_id, g.revision
           ), played as (
               insert into move (game_id, ply, turn_number, seat, notation, position_key, played_at)
               select r.game_id, r.ply, i.turn_number, i.seat, r.notation, i.position_key, i.played_at
               from unnest($16::bigint[], $17::int[], $18::text[]) as r(game_id, ply, notation)
               join input i on i.game_id = r.game_id
               where r.game_id in (select game_id from turned)
           ), charged as (
               update game_seat s set remaining_ms = i.remaining_ms, moves_made = s.moves_made + 1
               from input i
               where s.game_id = i.game_id and s.seat = i.seat
                   and i.game_id in (select game_id from turned)
           ), notified as (
               -- The outbox rows of "your move" (#17 §2): committed with their moves or not at all.
               insert into notification (account_id, kind, game_id, details, created_at, mail_state, last_error)
               select i.notify_account, 'your-move', i.game_id, jsonb_build_object('ply', i.ply),
                      i.played_at, d.state, d.reason
               from input i
               cross join lateral notification_mail_decision(i.notify_account, 'your-move', false, $19) d
               where i.notify_account is not null and i.game_id in (select game_id from turned)
               returning game_id, account_id, mail_state
           )
           select t.game_id, t.revision,
                  (select n.account_id from notified n where n.game_id = t.game_id and n.mail_state <> 'pending')
           from turned t"#,
    )
    .bind(column(moves, |m| m.game_id))
    .bind(column(moves, |m| m.write.turn_number))
    .bind(column(moves, |m| m.write.mover))
    .bind(column(moves, |m| m.write.position_key))
    .bind(column(moves, |m| m.write.now))
    .bind(column(moves, |m| m.write.remaining_ms))
    .bind(column(moves, |m| m.write.next_seat))
    .bind(column(moves, |m| m.write.deadline))
    .bind(column(moves, |m| m.write.draw_offer))
    .bind(column(moves, |m| *m.write.plies.last().expect("a move stores at least one row")))
    .bind(column(moves, |m| m.revision))
    .bind(column(moves, |m| m.turn_started_at))
    .bind(column(moves, |m| m.write.notify_account))
    .bind(guard_game)
    .bind(guard_account)
    .bind(row_game)
    .bind(row_ply)
    .bind(row_notation)
    .bind(default_off)
    .fetch_all(&mut *connection)
    .await?;
    Ok(written.into_iter().map(|(game, revision, told)| (game, Written { revision, told })).collect())
}

/// One seat's end of the game.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct SeatEnd {
    pub(crate) seat: i32,
    pub(crate) outcome: SeatOutcome,
    pub(crate) points: f64,
    pub(crate) place: i32,
    pub(crate) score: i32,
    pub(crate) secondary_score: i32,
}

/// A game in a player's list.
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct GameSummary {
    /// Game id.
    pub id: i64,
    /// Variant.
    pub variant: String,
    /// Status.
    pub status: GameStatus,
    /// Moves played.
    pub ply: i32,
    /// Whether it is the listed player's turn.
    pub your_turn: bool,
    /// Usernames in seat order.
    pub players: Vec<String>,
    /// Result once over.
    pub result: Option<GameResult>,
    /// Current deadline.
    #[serde(with = "time::serde::rfc3339::option")]
    pub deadline: Option<OffsetDateTime>,
    /// Whether the game is rated.
    pub rated: bool,
    /// Why it ended, once over.
    pub reason: Option<GameReason>,
    /// When it ended, once over.
    #[serde(with = "time::serde::rfc3339::option")]
    pub finished_at: Option<OffsetDateTime>,
}

/// The columns of a [`GameSummary`] of game `g`, for the player whose seat is `mine`
/// (`your_turn` is false without one).
pub(crate) fn summary_columns(your_turn: &str) -> String {
    format!(
        r#"g.game_id as id, g.variant, g.status, g.current_ply as ply, {your_turn} as your_turn,
           array(select coalesce(a.username, s.player_name) from game_seat s
                 left join account a on a.account_id = s.account_id
                 where s.game_id = g.game_id order by s.seat) as players,
           g.result, g.deadline, g.rated, g.reason, g.finished_at"#
    )
}

/// The games of `account_id` (with `status` if given), those where it is their turn first
/// (at most 200).
pub(crate) async fn games_of(
    pool: &sqlx::PgPool,
    account_id: i64,
    status: Option<GameStatus>,
) -> sqlx::Result<Vec<GameSummary>> {
    sqlx::query_as::<_, GameSummary>(&format!(
        r#"select {}
           from game g join game_seat mine on mine.game_id = g.game_id and mine.account_id = $1
           where ($2::text is null or g.status = $2)
           order by your_turn desc, g.deadline asc nulls last, g.game_id desc
           limit 200"#,
        summary_columns("(g.status = 'active' and g.turn_seat = mine.seat)")
    ))
    .bind(account_id)
    .bind(status)
    .fetch_all(pool)
    .await
}

/// The active games where `account_id` is to move.
pub(crate) async fn games_to_move(pool: &sqlx::PgPool, account_id: i64) -> sqlx::Result<Vec<i64>> {
    sqlx::query_scalar(
        r#"select g.game_id from game g
           join game_seat s on s.game_id = g.game_id and s.seat = g.turn_seat
           where g.status = 'active' and s.account_id = $1"#,
    )
    .bind(account_id)
    .fetch_all(pool)
    .await
}

/// The active game other than `except` where `account_id` is to move, the nearest deadline
/// first.
pub(crate) async fn next_game_to_move(
    executor: impl sqlx::PgExecutor<'_>,
    account_id: i64,
    except: i64,
) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar(
        r#"select g.game_id from game_seat s
           join game g on g.game_id = s.game_id and g.turn_seat = s.seat
           where s.account_id = $1 and g.status = 'active' and g.game_id <> $2
           order by g.deadline asc nulls last, g.game_id limit 1"#,
    )
    .bind(account_id)
    .bind(except)
    .fetch_optional(executor)
    .await
}

/// The active games whose deadline is at `now` or before, earliest first (`live_only`:
/// live time controls only), at most `limit`.
pub(crate) async fn games_due(
    pool: &sqlx::PgPool,
    now: OffsetDateTime,
    live_only: bool,
    limit: i64,
) -> sqlx::Result<Vec<i64>> {
    sqlx::query_scalar(
        r#"select game_id from game
           where status = 'active' and deadline <= $1
             and (not $2 or time_control->>'kind' in ('live-fischer', 'byoyomi'))
           order by deadline limit $3"#,
    )
    .bind(now)
    .bind(live_only)
    .bind(limit)
    .fetch_all(pool)
    .await
}

/// A game to insert (its seats apart).
pub(crate) struct NewGame<'a> {
    pub(crate) variant: &'a str,
    pub(crate) ruleset: &'a str,
    pub(crate) handicap: Option<&'a str>,
    pub(crate) start_position: Option<&'a str>,
    pub(crate) turn_seat: i32,
    pub(crate) time_control: TimeControl,
    pub(crate) vacation_allowed: bool,
    pub(crate) turn_started_at: OffsetDateTime,
    pub(crate) deadline: OffsetDateTime,
}

/// Inserts a game and its seats (`(account, clock in ms)` in seat order) → its id. The
/// game begins at its first turn's start, by the domain's clock (a section's vacation
/// allowance counts leave from then).
pub(crate) async fn insert_game(
    tx: &mut Transaction<'_, Postgres>,
    new: &NewGame<'_>,
    seats: &[(i64, i64)],
) -> DomainResult<i64> {
    // The game and its seats in one statement (one round trip, however many seats).
    let (accounts, clocks): (Vec<i64>, Vec<i64>) = seats.iter().copied().unzip();
    let game_id: i64 = sqlx::query_scalar(
        r#"with created as (
               insert into game (variant, ruleset, handicap, start_position, seat_count, turn_seat,
                   time_control, vacation_allowed, turn_started_at, deadline, created_at)
               values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $9)
               returning game_id
           ), seated as (
               insert into game_seat (game_id, seat, account_id, remaining_ms)
               select c.game_id, (s.seat - 1)::int, s.account_id, s.remaining_ms
               from created c,
                    unnest($11::bigint[], $12::bigint[]) with ordinality as s(account_id, remaining_ms, seat)
           )
           select game_id from created"#,
    )
    .bind(new.variant)
    .bind(new.ruleset)
    .bind(new.handicap)
    .bind(new.start_position)
    .bind(seats.len() as i32)
    .bind(new.turn_seat)
    .bind(Json(new.time_control))
    .bind(new.vacation_allowed)
    .bind(new.turn_started_at)
    .bind(new.deadline)
    .bind(accounts)
    .bind(clocks)
    .fetch_one(&mut **tx)
    .await?;
    Ok(game_id)
}

/// Stores the end of an active game: its result, reason and every seat's part. Returns
/// whether it ended (`false`: it was not active).
pub(crate) async fn store_ending(
    tx: &mut Transaction<'_, Postgres>,
    game_id: i64,
    result: &GameResult,
    reason: GameReason,
    ends: &[SeatEnd],
    now: OffsetDateTime,
) -> DomainResult<bool> {
    let ended = sqlx::query(
        r#"update game set status = 'finished', result = $2, reason = $3, deadline = null,
               draw_offer_seat = null, finished_at = $4
           where game_id = $1 and status = 'active'"#,
    )
    .bind(game_id)
    .bind(result)
    .bind(reason)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    if ended.rows_affected() == 0 {
        return Ok(false);
    }
    let seats: Vec<i32> = ends.iter().map(|s| s.seat).collect();
    let outcomes: Vec<SeatOutcome> = ends.iter().map(|s| s.outcome).collect();
    let points: Vec<f64> = ends.iter().map(|s| s.points).collect();
    let places: Vec<i32> = ends.iter().map(|s| s.place).collect();
    let scores: Vec<i32> = ends.iter().map(|s| s.score).collect();
    let secondary: Vec<i32> = ends.iter().map(|s| s.secondary_score).collect();
    sqlx::query(
        r#"update game_seat s set outcome = e.outcome, points = e.points, place = e.place,
               score = e.score, secondary_score = e.secondary_score
           from unnest($2::int[], $3::text[], $4::float8[], $5::int[], $6::int[], $7::int[])
               as e(seat, outcome, points, place, score, secondary_score)
           where s.game_id = $1 and s.seat = e.seat"#,
    )
    .bind(game_id)
    .bind(&seats)
    .bind(&outcomes)
    .bind(&points)
    .bind(&places)
    .bind(&scores)
    .bind(&secondary)
    .execute(&mut **tx)
    .await?;
    Ok(true)
}

/// Stops an active game without a result. Returns whether it stopped.
pub(crate) async fn store_stop(
    tx: &mut Transaction<'_, Postgres>,
    game_id: i64,
    reason: GameReason,
    now: OffsetDateTime,
) -> DomainResult<bool> {
    let stopped = sqlx::query(
        r#"update game set status = 'aborted', reason = $2, deadline = null,
               draw_offer_seat = null, finished_at = $3
           where game_id = $1 and status = 'active'"#,
    )
    .bind(game_id)
    .bind(reason)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(stopped.rows_affected() > 0)
}

/// Stores a seat's exit from a game of more seats after `after_ply` moves (the game row's
/// revision changes too, even when the turn does not pass: a copy of the game made before
/// the exit must not be played on).
pub(crate) async fn store_exit(
    tx: &mut Transaction<'_, Postgres>,
    game_id: i64,
    seat: i32,
    timed_out: bool,
    after_ply: i32,
    at: OffsetDateTime,
) -> DomainResult<()> {
    sqlx::query(
        r#"with gone as (
               update game_seat set exit = $3, exit_after_ply = $4, exited_at = $5,
                   remaining_ms = case when $3 = 'timeout' then 0 else remaining_ms end
               where game_id = $1 and seat = $2
               returning game_id
           )
           update game set revision = revision + 1 where game_id in (select game_id from gone)"#,
    )
    .bind(game_id)
    .bind(seat)
    .bind(if timed_out { SeatLeave::Timeout } else { SeatLeave::Resign })
    .bind(after_ply)
    .bind(at)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Passes the turn to `next_seat` from `at` (its deadline `deadline`); a draw offer lapses.
pub(crate) async fn pass_turn(
    tx: &mut Transaction<'_, Postgres>,
    game_id: i64,
    next_seat: i32,
    at: OffsetDateTime,
    deadline: OffsetDateTime,
) -> DomainResult<()> {
    sqlx::query(
        r#"update game set turn_seat = $2, turn_started_at = $3, deadline = $4, draw_offer_seat = null
           where game_id = $1"#,
    )
    .bind(game_id)
    .bind(next_seat)
    .bind(at)
    .bind(deadline)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Sets (or withdraws, `None`) the seat offering a draw.
pub(crate) async fn set_draw_offer(
    tx: &mut Transaction<'_, Postgres>,
    game_id: i64,
    seat: Option<i32>,
) -> DomainResult<()> {
    sqlx::query(r#"update game set draw_offer_seat = $2 where game_id = $1"#)
        .bind(game_id)
        .bind(seat)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Stores the deadline of the side to move.
pub(crate) async fn set_deadline(
    tx: &mut Transaction<'_, Postgres>,
    game_id: i64,
    deadline: OffsetDateTime,
) -> DomainResult<()> {
    sqlx::query(r#"update game set deadline = $2 where game_id = $1"#)
        .bind(game_id)
        .bind(deadline)
        .execute(&mut **tx)
        .await?;
    Ok(())
}
