//! The clocks of stored games: deadlines refreshed after leave changes, and the end of a
//! game (or a seat's exit) on time.

use super::*;
use crate::domain::FirstMoveTime;
use jiff::tz::TimeZone;

/// Whether `seat` has yet to make its first move in a game whose clocks wait for it
/// (issue 37 §5, as on lichess): a live game of two players outside tournaments. Its clock
/// does not run meanwhile; the first move must come within the first-move time
/// ([`crate::domain::FirstMoveTime`]) or the game is aborted, not lost. A tournament's game
/// keeps its clocks running from the start: the director scheduled it, and a player who
/// does not come loses on time.
pub(crate) fn awaits_first_move(row: &GameRow, seat: &SeatRow) -> bool {
    row.time_control.0.is_live() && row.seat_count == 2 && row.tournament_id.is_none() && seat.moves_made == 0
}

/// When the turn of `seat`, begun at `start` with `remaining_ms` on its clock, ends: its
/// first-move time while it [`awaits_first_move`], else its clock's deadline (`leave`
/// included).
pub(crate) fn turn_deadline(
    first_move: FirstMoveTime,
    row: &GameRow,
    seat: &SeatRow,
    start: OffsetDateTime,
    remaining_ms: i64,
    leave: &[time_control::Period],
) -> OffsetDateTime {
    if awaits_first_move(row, seat) {
        start + first_move.0
    } else {
        row.time_control.0.deadline(start, time_control::ms(remaining_ms), leave)
    }
}

/// Leave periods of the seat's account that count in this game.
pub(crate) async fn counted_leave(
    tx: &mut Transaction<'_, Postgres>,
    row: &GameRow,
    account_id: i64,
    zone: &TimeZone,
) -> DomainResult<Vec<time_control::Period>> {
    leave_in_game(tx, row, account_id, row.turn_started_at, zone).await
}

/// The leave of `account_id` that stops its clock in game `row` from `since` on: none when
/// the game allows no leave; under the section's vacation allowance (issue 20 §3) only the
/// first `vacation_days` days of leave taken since the game began, whole days of the
/// server's zone `zone` as the leave itself is taken.
pub(crate) async fn leave_in_game(
    tx: &mut Transaction<'_, Postgres>,
    row: &GameRow,
    account_id: i64,
    since: OffsetDateTime,
    zone: &TimeZone,
) -> DomainResult<Vec<time_control::Period>> {
    if !row.vacation_allowed {
        return Ok(Vec::new());
    }
    match allowance(row) {
        None => Ok(leave_after(&mut **tx, account_id, since).await?),
        Some(days) => {
            let taken = leave_after(&mut **tx, account_id, row.created_at).await?;
            Ok(iccf_days::capped(&taken, row.created_at, days, zone))
        }
    }
}

/// The game's vacation allowance in days, if its section set one.
pub(crate) fn allowance(row: &GameRow) -> Option<i64> {
    row.vacation_days.map(i64::from)
}

/// The leave of several seats' accounts (one query), each under the game's allowance.
pub(crate) async fn leave_of_seats(
    tx: &mut Transaction<'_, Postgres>,
    row: &GameRow,
    accounts: &[i64],
    zone: &TimeZone,
) -> DomainResult<Vec<(i64, time_control::Period)>> {
    let Some(days) = allowance(row) else {
        return Ok(leave_of_accounts(tx, accounts, row.turn_started_at).await?);
    };
    let taken = leave_of_accounts(tx, accounts, row.created_at).await?;
    let mut counted = Vec::new();
    for &account in accounts {
        let own: Vec<time_control::Period> =
            taken.iter().filter(|(a, _)| *a == account).map(|(_, period)| *period).collect();
        counted.extend(iccf_days::capped(&own, row.created_at, days, zone).into_iter().map(|p| (account, p)));
    }
    Ok(counted)
}

/// Recomputes the stored deadlines of the active games where `account_id` is to move
/// (after its leave changed).
///
/// # Errors
/// Database failure.
pub async fn refresh_deadlines(domain: &Domain, account_id: i64) -> DomainResult<()> {
    let ids = games_to_move(&domain.pool, account_id).await?;
    for game_id in ids {
        let mut tx = domain.pool.begin().await?;
        let (row, seats) = lock_game_with_seats(&mut tx, game_id).await?;
        if row.status == GameStatus::Active {
            if let Some(seat) = seats.iter().find(|s| s.seat == row.turn_seat) {
                let leave = counted_leave(&mut tx, &row, seat.account_id, &domain.time_zone.zone()).await?;
                let start = row.turn_started_at;
                let deadline = turn_deadline(domain.first_move, &row, seat, start, seat.remaining_ms, &leave);
                set_deadline(&mut tx, game_id, deadline).await?;
            }
        }
        tx.commit().await?;
    }
    Ok(())
}

/// Ends the game on time if its side to move has run out at `now` (leave included):
/// a loss, or a draw when the opponent cannot possibly win. In a game of more seats the
/// seat leaves instead and the next seat's clock starts at that deadline; after a long
/// downtime that one may have run out too, so seats leave until the seat to move has time
/// (one per seat at most). Returns whether anything changed.
///
/// # Errors
/// Database failure.
pub(crate) async fn expire_if_overdue(
    domain: &Domain,
    game_id: i64,
    now: OffsetDateTime,
) -> DomainResult<bool> {
    let mut changed = false;
    for _ in 0..7 {
        if !expire_turn(domain, game_id, now).await? {
            break;
        }
        changed = true;
    }
    Ok(changed)
}

/// One step of [`expire_if_overdue`]: the seat to move, if it has run out.
pub(crate) async fn expire_turn(domain: &Domain, game_id: i64, now: OffsetDateTime) -> DomainResult<bool> {
    let mut tx = domain.pool.begin().await?;
    let (row, seats) = lock_game_with_seats(&mut tx, game_id).await?;
    if row.status != GameStatus::Active {
        return Ok(false);
    }
    let Some(seat) = seats.iter().find(|s| s.seat == row.turn_seat) else {
        return Ok(false);
    };
    let leave = counted_leave(&mut tx, &row, seat.account_id, &domain.time_zone.zone()).await?;
    let start = row.turn_started_at;
    let deadline = turn_deadline(domain.first_move, &row, seat, start, seat.remaining_ms, &leave);
    if deadline > now {
        // Leave moved it: store the real deadline and look again then.
        set_deadline(&mut tx, game_id, deadline).await?;
        tx.commit().await?;
        return Ok(false);
    }
    if awaits_first_move(&row, seat) {
        // No first move in time: the game is aborted at its deadline, nobody loses.
        stop(&mut tx, game_id, EndReason::Aborted.into(), deadline).await?;
        announce_and_commit(domain, tx, game_id).await?;
        tracing::info!(game.id = game_id, seat = seat.seat, "game aborted: no first move in time");
        return Ok(true);
    }
    if row.seat_count > 2 {
        // The seat leaves at its deadline; the game goes on without it.
        seat_exit(domain, &mut tx, &row, &seats, seat.seat, true, deadline).await?;
        announce_and_commit(domain, tx, game_id).await?;
        tracing::info!(game.id = game_id, seat = seat.seat, "seat timed out");
        return Ok(true);
    }
    let game = rules_state(domain, &mut tx, &row, &seats, false).await?.game;
    let winner = seats.iter().map(|s| s.seat).find(|s| *s != seat.seat);
    let opponent_can_win = winner.is_some_and(|w| game.can_possibly_win(w as usize));
    let ending = if opponent_can_win {
        Ending::two_seat(winner, EndReason::Timeout)
    } else {
        Ending::two_seat(None, EndReason::TimeoutInsufficientMaterial)
    };
    // The game ends at the deadline, not at the sweep.
    finish(&mut tx, game_id, &ending, deadline).await?;
    announce_and_commit(domain, tx, game_id).await?;
    tracing::info!(game.id = game_id, reason = %ending.reason, "game ended on time");
    Ok(true)
}
