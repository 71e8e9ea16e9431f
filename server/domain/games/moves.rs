//! The one move-submission function and its two paths (the copy, the row lock).

use super::*;
use crate::domain::ratings::SeatRating;

/// Submits a move: the ONE function through which every transport plays a move.
///
/// The move is checked against the game as stored: the expected ply, the turn, the
/// clock, then the rules. It is stored with the mover's clock, the new turn and, when
/// the rules end the game, the result, all in one transaction, committed before this
/// returns `Ok`; on any error nothing is stored. Concurrent submissions for one ply are
/// serialised by the game row: the later ones see the new ply and get a conflict.
///
/// Two ways to read "the game as stored", with the same outcome:
/// - the fast path ([`move_on_copy`]): the copy of the game this instance kept after the
///   last move it stored, written by one statement that succeeds only while the game row
///   is still at the revision of the copy (migration 000800 bumps it on every change);
/// - the locked path ([`move_under_lock`]): the game row locked and read with its seats.
///   It answers every case the copy cannot (no copy, another instance or action changed
///   the game, leave to count, a refusal to explain).
///
/// # Errors
/// Unknown game (404), not a player (403), game over / stale ply / not your turn / time
/// ran out (409), unreadable or illegal move (422).
#[tracing::instrument(skip(domain, text), fields(game.id = game_id))]
pub async fn submit_move(
    domain: &Domain,
    game_id: i64,
    account_id: i64,
    text: &str,
    expected_ply: i32,
) -> DomainResult<GameView> {
    let outcome = decide_move(domain, game_id, account_id, text, expected_ply).await;
    crate::telemetry::record_move(&outcome);
    outcome
}

/// [`submit_move`]'s decision: on the kept copy when it can, else under the game's lock.
async fn decide_move(
    domain: &Domain,
    game_id: i64,
    account_id: i64,
    text: &str,
    expected_ply: i32,
) -> DomainResult<GameView> {
    if let Some(copy) = domain.games.take_with_snapshot(game_id) {
        if let Some(view) = move_on_copy(domain, copy, account_id, text, expected_ply).await? {
            crate::telemetry::record_move_path("copy");
            return Ok(view);
        }
    }
    let view = move_under_lock(domain, game_id, account_id, text, expected_ply).await?;
    crate::telemetry::record_move_path("locked");
    Ok(view)
}

/// The fast path of [`submit_move`]: `Ok(None)` when the copy cannot decide (the locked
/// path then does, from the stored game).
pub(crate) async fn move_on_copy(
    domain: &Domain,
    mut state: RulesState,
    account_id: i64,
    text: &str,
    expected_ply: i32,
) -> DomainResult<Option<GameView>> {
    let Some(Snapshot { mut row, mut seats }) = state.snapshot.take() else {
        return Ok(None);
    };
    let game_id = row.game_id;
    let mover = seats.iter().find(|s| s.account_id == account_id && s.seat == row.turn_seat).cloned();
    // Leave to count needs the leave periods, conditional lines may answer the move in
    // its transaction: the locked path does both.
    let plain = row.status == GameStatus::Active
        && row.current_ply == expected_ply
        && !seats.iter().any(|s| s.has_leave || s.has_conditional);
    let (true, Some(mine)) = (plain, mover) else {
        state.snapshot = Some(Snapshot { row, seats });
        domain.games.put(game_id, state);
        return Ok(None);
    };
    let now = domain.clock.now();
    let write = match plan_move(&row, &seats, &mine, &mut state, text, now, &[], domain.first_move) {
        Ok(write) => write,
        // A refusal is explained from the stored game (the copy may be behind it); the
        // copy is unchanged and stays usable.
        Err(_) => {
            state.snapshot = Some(Snapshot { row, seats });
            domain.games.put(game_id, state);
            return Ok(None);
        }
    };
    // Leave taken since the copy was made would change the clocks: the statement checks
    // there is none.
    let leave_guard: Vec<i64> =
        if row.vacation_allowed { seats.iter().map(|s| s.account_id).collect() } else { Vec::new() };
    let ending = write.game_over.then(|| Ending::from_game(&state.game)).flatten();
    let mut rated = Vec::new();
    let revision = match &ending {
        // One autocommitted statement on the fast path's own connections, with the moves of
        // other games arriving at the same moment (`storage::move_writes`).
        None => {
            let to_write = MoveToWrite {
                game_id,
                write: write.clone(),
                revision: row.revision,
                leave_guard,
                turn_started_at: row.turn_started_at,
            };
            domain.moves.write(to_write).await?
        }
        Some(ending) => {
            let mut tx = domain.pool.begin().await?;
            let revision =
                write_move(&mut tx, game_id, &write, row.revision, &leave_guard, row.turn_started_at).await?;
            if revision.is_some() {
                rated = finish_rated(&mut tx, game_id, ending, now).await?.unwrap_or_default();
                tx.commit().await?;
            }
            revision
        }
    };
    // The game changed since the copy was made: the copy (already played on) is dropped.
    let Some(written) = revision else { return Ok(None) };
    let ended = ending.as_ref().map(|e| (e, rated.as_slice()));
    domain.announcer.tell_accounts(written.told.into_iter().collect());
    Ok(Some(after_move(domain, &mut row, &mut seats, state, &write, written.revision, ended)?))
}

/// The locked path of [`submit_move`].
pub(crate) async fn move_under_lock(
    domain: &Domain,
    game_id: i64,
    account_id: i64,
    text: &str,
    expected_ply: i32,
) -> DomainResult<GameView> {
    let PlayerAction { mut tx, mut row, mut seats, mine } =
        begin_player_action(domain, game_id, account_id).await?;
    if expected_ply != row.current_ply {
        return Err(DomainError::stale_ply(expected_ply, row.current_ply));
    }
    if mine.seat != row.turn_seat {
        return Err(DomainError::not_your_turn());
    }
    let now = domain.clock.now();
    // One query for the leave of every seat (the mover's since its turn began, the next
    // seat's from now on).
    let leave = if row.vacation_allowed && seats.iter().any(|s| s.has_leave) {
        let accounts: Vec<i64> = seats.iter().map(|s| s.account_id).collect();
        leave_of_seats(&mut tx, &row, &accounts, &domain.time_zone.zone()).await?
    } else {
        Vec::new()
    };
    let mut state = rules_state(domain, &mut tx, &row, &seats, true).await?;
    let mut write = match plan_move(&row, &seats, &mine, &mut state, text, now, &leave, domain.first_move) {
        Ok(write) => write,
        Err(refused) => {
            domain.games.put(game_id, state);
            return Err(refused);
        }
    };
    // The waiting seat's conditional lines (#17 §3): a matching one's reply is played in
    // this transaction, and its owner is told that instead of "your move".
    let answer = answer(&mut tx, &row, &seats, &state, &write).await?;
    if answer.plays() {
        write.notify_account = None;
    }
    // Under the row lock the revision read is the stored one.
    let changed = || DomainError::Internal(anyhow::anyhow!("game {game_id} changed under its row lock"));
    let written = write_move(&mut tx, game_id, &write, row.revision, &[], row.turn_started_at)
        .await?
        .ok_or_else(changed)?;
    let mut revision = written.revision;
    let mut told: Vec<i64> = written.told.into_iter().collect();
    if let Answer::Reply { owner, text, .. } = &answer {
        // Charged as a move made at this instant (its turn began with the move above).
        apply_write(&mut row, &mut seats, &mut state, &write, revision);
        let owner = seats.iter().find(|s| s.seat == owner.seat).cloned().unwrap_or_else(|| owner.clone());
        write = plan_move(&row, &seats, &owner, &mut state, text, now, &leave, domain.first_move)?;
        let written = write_move(&mut tx, game_id, &write, revision, &[], row.turn_started_at)
            .await?
            .ok_or_else(changed)?;
        revision = written.revision;
        told.extend(written.told);
    }
    let ply = *write.plies.last().expect("a move stores at least one row");
    if let Some((seat, kept)) = settle(&mut tx, game_id, &answer, ply, now).await? {
        for owner in seats.iter_mut().filter(|s| s.seat == seat) {
            owner.has_conditional = kept;
        }
    }
    let ending = write.game_over.then(|| Ending::from_game(&state.game)).flatten();
    let mut rated = Vec::new();
    if let Some(ending) = &ending {
        rated = finish_rated(&mut tx, game_id, ending, now).await?.unwrap_or_default();
    }
    tx.commit().await?;
    let ended = ending.as_ref().map(|e| (e, rated.as_slice()));
    domain.announcer.tell_accounts(told);
    after_move(domain, &mut row, &mut seats, state, &write, revision, ended)
}

/// Charges the mover's clock and plays `text` on `state`; the state is unchanged when
/// this fails (time ran out: 409; the rules refuse: 422). `leave` holds the seats' leave
/// periods that count (by account).
#[allow(clippy::too_many_arguments)]
pub(crate) fn plan_move(
    row: &GameRow,
    seats: &[SeatRow],
    mine: &SeatRow,
    state: &mut RulesState,
    text: &str,
    now: OffsetDateTime,
    leave: &[(i64, time_control::Period)],
    first_move: crate::domain::FirstMoveTime,
) -> DomainResult<MoveWrite> {
    let leave_of = |account: i64| -> Vec<time_control::Period> {
        leave.iter().filter(|(a, _)| *a == account).map(|(_, p)| *p).collect()
    };
    // A side's clock starts with its first move in the games that wait for it (issue 37 §5).
    let charged = if awaits_first_move(row, mine) {
        time::Duration::ZERO
    } else {
        row.time_control.0.charged(row.turn_started_at, now, &leave_of(mine.account_id))
    };
    let remaining_ms = mine.remaining_ms - charged.whole_milliseconds() as i64;
    if remaining_ms < 0 {
        return Err(DomainError::coded(
            ErrorKind::Conflict,
            "move.time-out",
            "Your time has run out: the game is lost on time.",
        ));
    }
    let played: PlayedMove = state.play(text)?;
    let game = &state.game;
    let variant = variant_of(row)?;
    let control = row.time_control.0;
    let moves_made = i64::from(mine.moves_made) + 1;
    let new_remaining = control.after_move(remaining_ms, moves_made);
    let first_ply = row.current_ply + 1;
    let ply = row.current_ply + played.parts.len() as i32;
    // A turn is one move, a whole Flickering series (its moves share the number), or the
    // several moves of a handicap turn (the same seat moving again). In the Seven
    // Kingdoms a seat commanding two kingdoms may move twice in a row: two turns.
    let turn_number = match state.rows.last() {
        Some(last) if last.seat == mine.seat && variant != Variant::SevenKingdoms => last.turn_number,
        Some(last) => last.turn_number + 1,
        None => 1,
    };
    let next_seat = game.seat_to_move() as i32;
    let next = seats.iter().find(|s| s.seat == next_seat).unwrap_or(mine);
    let next_remaining = if next.seat == mine.seat { new_remaining } else { next.remaining_ms };
    // The mover has moved now: only another seat can still await its first move.
    let next_row = if next.seat == mine.seat {
        SeatRow { moves_made: mine.moves_made + 1, ..next.clone() }
    } else {
        next.clone()
    };
    let deadline = turn_deadline(first_move, row, &next_row, now, next_remaining, &leave_of(next.account_id));
    Ok(MoveWrite {
        plies: (first_ply..=ply).collect(),
        parts: played.parts,
        turn_number,
        mover: mine.seat,
        remaining_ms: new_remaining,
        next_seat,
        deadline,
        // A draw offer stands until the opponent moves (declining it by playing on).
        draw_offer: row.draw_offer_seat.filter(|s| *s == mine.seat),
        position_key: played.position_key as i64,
        now,
        game_over: played.game_over,
        // Correspondence players are told by mail; live ones are at the board.
        notify_account: (!control.is_live() && !played.game_over && next.account_id != mine.account_id)
            .then_some(next.account_id),
    })
}

/// The rows as `write` left them (stored at `revision`), and its moves on `state`'s
/// rows.
pub(crate) fn apply_write(
    row: &mut GameRow,
    seats: &mut [SeatRow],
    state: &mut RulesState,
    write: &MoveWrite,
    revision: i64,
) {
    row.current_ply = *write.plies.last().expect("a move stores at least one row");
    row.turn_seat = write.next_seat;
    row.turn_started_at = write.now;
    row.draw_offer_seat = write.draw_offer;
    row.revision = revision;
    for seat in seats.iter_mut().filter(|s| s.seat == write.mover) {
        seat.remaining_ms = write.remaining_ms;
        seat.moves_made += 1;
    }
    for (ply, part) in write.plies.iter().zip(&write.parts) {
        state.rows.push(MoveRow {
            ply: *ply,
            turn_number: write.turn_number,
            seat: write.mover,
            notation: part.clone(),
            played_at: write.now,
        });
    }
}

/// After a stored (committed) move: the announcement to the live sockets of every
/// instance (server/live), the rows as written, the view built from them (no second read
/// or replay), and the game kept for the next move (with its rows, for the fast path,
/// while it goes on).
pub(crate) fn after_move(
    domain: &Domain,
    row: &mut GameRow,
    seats: &mut [SeatRow],
    mut state: RulesState,
    write: &MoveWrite,
    revision: i64,
    ending: Option<(&Ending, &[SeatRating])>,
) -> DomainResult<GameView> {
    apply_write(row, seats, &mut state, write, revision);
    let mut deadline = Some(write.deadline);
    if let Some((ending, rated)) = ending {
        end_rows(row, seats, ending, rated);
        deadline = None;
    }
    let view = assemble(row, seats, &state, deadline)?;
    state.snapshot = ending.is_none().then(|| Snapshot { row: row.clone(), seats: seats.to_vec() });
    domain.games.put(row.game_id, state);
    Ok(announce(domain, view))
}
