//! The players' other actions: resign, draws, claims, abort; a seat leaving a game of
//! more seats; creating a game.

use super::*;
use crate::domain::challenges::SeatChoice;
use crate::domain::notifications::Kind;
use crate::storage::notifications;

/// The seat `account_id` holds in the game, or why it may not act.
pub(crate) fn seat_of(seats: &[SeatRow], account_id: i64) -> DomainResult<&SeatRow> {
    seats
        .iter()
        .find(|s| s.account_id == account_id)
        .ok_or_else(|| DomainError::Forbidden("you do not play in this game".to_owned()))
}

/// What every player action starts with: a transaction holding the game row locked, the
/// seats, and the caller's seat, in an active game.
pub(crate) struct PlayerAction {
    pub(crate) tx: Transaction<'static, Postgres>,
    pub(crate) row: GameRow,
    pub(crate) seats: Vec<SeatRow>,
    pub(crate) mine: SeatRow,
}

/// Begins a player action on `game_id`.
///
/// # Errors
/// Unknown game (404), not a player (403), game over (409).
pub(crate) async fn begin_player_action(
    domain: &Domain,
    game_id: i64,
    account_id: i64,
) -> DomainResult<PlayerAction> {
    let mut tx = domain.pool.begin().await?;
    let (row, seats) = lock_game_with_seats(&mut tx, game_id).await?;
    let mine = seat_of(&seats, account_id)?.clone();
    ensure_active(&row)?;
    Ok(PlayerAction { tx, row, seats, mine })
}

pub(crate) fn ensure_active(row: &GameRow) -> DomainResult<()> {
    if row.status == GameStatus::Active {
        Ok(())
    } else {
        Err(DomainError::coded(
            ErrorKind::Conflict,
            "game-over",
            format!("The game is over ({}).", row.status),
        ))
    }
}

/// Resigns: the other side wins.
///
/// # Errors
/// Unknown game (404), not a player (403), game over (409).
pub async fn resign(domain: &Domain, game_id: i64, account_id: i64) -> DomainResult<GameView> {
    let PlayerAction { mut tx, row, seats, mine } = begin_player_action(domain, game_id, account_id).await?;
    let now = domain.clock.now();
    if row.seat_count > 2 {
        seat_exit(domain, &mut tx, &row, &seats, mine.seat, false, now).await?;
        return announce_and_commit(domain, tx, game_id).await;
    }
    let winner = seats.iter().map(|s| s.seat).find(|s| *s != mine.seat);
    finish(&mut tx, game_id, &Ending::two_seat(winner, EndReason::Resignation), now).await?;
    announce_and_commit(domain, tx, game_id).await
}

/// A seat leaves a game of more than two seats, by resignation or on time: its kingdoms
/// are defeated and leave the board, and the game goes on (`seven-kingdoms.md`; issue 9:
/// "a player who times out: their kingdoms are defeated and leave the board, the game goes
/// on") — unless that ends it. The exit is stored with the number of moves played, so a
/// replay applies it at the same point. When the seat was to move, the turn passes on at
/// `at` (for a timeout: the deadline that passed).
pub(crate) async fn seat_exit(
    domain: &Domain,
    tx: &mut Transaction<'_, Postgres>,
    row: &GameRow,
    seats: &[SeatRow],
    seat: i32,
    timed_out: bool,
    at: OffsetDateTime,
) -> DomainResult<()> {
    let game_id = row.game_id;
    // The cache entry stays as it is: its key (ply, exits) no longer matches once the
    // exit is stored.
    let mut game = rules_state(domain, tx, row, seats, false).await?.game;
    game.seat_leaves(seat as usize, timed_out)?;
    // The game row changes too (its revision), even when the turn does not pass: a copy
    // of the game made before the exit must not be played on (see `submit_move`).
    store_exit(tx, game_id, seat, timed_out, row.current_ply, at).await?;
    if let Some(ending) = game.is_over().then(|| Ending::from_game(&game)).flatten() {
        finish(tx, game_id, &ending, at).await?;
        return Ok(());
    }
    let next_seat = game.seat_to_move() as i32;
    if next_seat == row.turn_seat {
        return Ok(());
    }
    let Some(next) = seats.iter().find(|s| s.seat == next_seat) else {
        return Err(DomainError::Internal(anyhow::anyhow!("game {game_id}: no seat {next_seat}")));
    };
    let leave = leave_in_game(tx, row, next.account_id, at, &domain.time_zone.zone()).await?;
    let deadline = row.time_control.0.deadline(at, time_control::ms(next.remaining_ms), &leave);
    pass_turn(tx, game_id, next_seat, at, deadline).await?;
    // The next seat is told as after a move (#17 §2), in the exit's transaction.
    if !row.time_control.0.is_live() {
        let details = serde_json::json!({ "ply": row.current_ply });
        let about = notifications::About::game(game_id);
        notifications::notify(tx, next.account_id, Kind::YourMove, &about, details, at).await?;
    }
    Ok(())
}

/// Draw offers are between the two players of a two-seat game.
pub(crate) fn ensure_two_seats(row: &GameRow) -> DomainResult<()> {
    if row.seat_count == 2 {
        Ok(())
    } else {
        Err(DomainError::Invalid(
            "draws by agreement are for two-player games; this game ends by the rules".to_owned(),
        ))
    }
}

/// Offers a draw (stands until the opponent accepts, declines or moves).
///
/// # Errors
/// Unknown game (404), not a player (403), game over or an offer already made (409).
pub async fn offer_draw(domain: &Domain, game_id: i64, account_id: i64) -> DomainResult<GameView> {
    let PlayerAction { mut tx, row, mine, .. } = begin_player_action(domain, game_id, account_id).await?;
    ensure_two_seats(&row)?;
    let mine = mine.seat;
    match row.draw_offer_seat {
        Some(seat) if seat == mine => {
            return Err(DomainError::Conflict("you have already offered a draw".to_owned()))
        }
        Some(_) => {
            return Err(DomainError::Conflict("your opponent offers a draw: accept or decline it".to_owned()))
        }
        None => {}
    }
    set_draw_offer(&mut tx, game_id, Some(mine)).await?;
    let details = serde_json::json!({"ply": row.current_ply});
    let now = domain.clock.now();
    notifications::notify_players(&mut tx, game_id, Kind::DrawOffer, Some(account_id), details, now).await?;
    announce_and_commit(domain, tx, game_id).await
}

/// Accepts the opponent's draw offer: the game is drawn by agreement.
///
/// # Errors
/// Unknown game (404), not a player (403), game over or no offer to accept (409).
pub async fn accept_draw(domain: &Domain, game_id: i64, account_id: i64) -> DomainResult<GameView> {
    let PlayerAction { mut tx, row, mine, .. } = begin_player_action(domain, game_id, account_id).await?;
    let mine = mine.seat;
    ensure_two_seats(&row)?;
    if !matches!(row.draw_offer_seat, Some(seat) if seat != mine) {
        return Err(DomainError::Conflict("there is no draw offer to accept".to_owned()));
    }
    finish(&mut tx, game_id, &Ending::two_seat(None, EndReason::Agreement), domain.clock.now()).await?;
    announce_and_commit(domain, tx, game_id).await
}

/// Declines the opponent's draw offer.
///
/// # Errors
/// Unknown game (404), not a player (403), game over or no offer to decline (409).
pub async fn decline_draw(domain: &Domain, game_id: i64, account_id: i64) -> DomainResult<GameView> {
    let PlayerAction { mut tx, row, mine, .. } = begin_player_action(domain, game_id, account_id).await?;
    let mine = mine.seat;
    if !matches!(row.draw_offer_seat, Some(seat) if seat != mine) {
        return Err(DomainError::Conflict("there is no draw offer to decline".to_owned()));
    }
    set_draw_offer(&mut tx, game_id, None).await?;
    announce_and_commit(domain, tx, game_id).await
}

/// Makes the claim the rules allow: the Shogi impasse count (either player), the impasse
/// declaration (on the caller's turn; shogi.md "Impasse": a declaration that does not
/// meet the conditions loses), the Flickering chess repetition (on the caller's turn).
///
/// # Errors
/// Unknown game (404), not a player (403), game over or not your turn (409), no claim
/// available (422, with the rules' reason).
pub async fn claim(domain: &Domain, game_id: i64, account_id: i64) -> DomainResult<GameView> {
    let PlayerAction { mut tx, row, seats, mine } = begin_player_action(domain, game_id, account_id).await?;
    // shogi.md "Impasse", 24-point rule: either player may ask for the count; the
    // declaration and the repetition claim are made on one's own turn.
    if mine.seat != row.turn_seat && row.ruleset != "shogi-24" {
        return Err(DomainError::Conflict("a claim is made on your own turn".to_owned()));
    }
    let mut game = rules_state(domain, &mut tx, &row, &seats, false).await?.game;
    game.claim()?;
    let ending = Ending::from_game(&game)
        .ok_or_else(|| DomainError::Internal(anyhow::anyhow!("game {game_id}: a claim without an end")))?;
    finish(&mut tx, game_id, &ending, domain.clock.now()).await?;
    announce_and_commit(domain, tx, game_id).await
}

/// Aborts the game: only before every side has moved; no result.
///
/// # Errors
/// Unknown game (404), not a player (403), game over or every side has moved (409).
pub async fn abort(domain: &Domain, game_id: i64, account_id: i64) -> DomainResult<GameView> {
    let PlayerAction { mut tx, row, seats, .. } = begin_player_action(domain, game_id, account_id).await?;
    if row.tournament_id.is_some() {
        // A tournament game is scheduled by the director: it is played, resigned or
        // adjudicated, never aborted by a player (issue 7).
        return Err(DomainError::Conflict(
            "a tournament game cannot be aborted; ask the tournament director".to_owned(),
        ));
    }
    if seats.iter().all(|s| s.moves_made > 0) {
        return Err(DomainError::Conflict(
            "every side has moved: the game can no longer be aborted".to_owned(),
        ));
    }
    stop(&mut tx, game_id, EndReason::Aborted.into(), domain.clock.now()).await?;
    announce_and_commit(domain, tx, game_id).await
}

/// What asking for a rematch did (issue 37 §5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(tag = "status", rename_all = "kebab-case")]
pub enum Rematch {
    /// A challenge to the other player with the game's settings and the colours swapped,
    /// waiting for them (made now, or before).
    Offered {
        /// The challenge (`GET /api/challenges/{id}` says when it is accepted).
        challenge_id: i64,
    },
    /// The other player had offered one: it is accepted, the new game has started (or it
    /// was accepted before).
    Started {
        /// The accepted challenge.
        challenge_id: i64,
        /// The new game.
        game_id: i64,
    },
}

/// The rematch of a finished game of two players, as each player's page shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RematchState {
    /// Nothing asked yet (or the last offer was declined or cancelled).
    None,
    /// The player of seat `by` offers challenge `challenge_id`.
    Offered {
        /// The challenge.
        challenge_id: i64,
        /// Who offers it.
        by: i32,
    },
    /// The rematch has started: game `game_id`.
    Started {
        /// The new game.
        game_id: i64,
    },
}

/// The rematch state of game `game_id` (`view` is its view).
///
/// # Errors
/// Database failure.
pub async fn rematch_state(domain: &Domain, view: &GameView) -> DomainResult<RematchState> {
    let Some(found) = crate::storage::challenges::rematch_of(&domain.pool, view.id).await? else {
        return Ok(RematchState::None);
    };
    let seat = view.seats.iter().find(|s| s.username == found.challenger).map(|s| s.seat);
    Ok(match (found.status.as_str(), found.game_id, seat) {
        ("accepted", Some(game_id), _) => RematchState::Started { game_id },
        ("open", _, Some(by)) => RematchState::Offered { challenge_id: found.challenge_id, by },
        _ => RematchState::None,
    })
}

/// Asks for a rematch of a finished game of two players (issue 37 §5): accepts the other
/// player's offer when there is one, else offers a challenge with the game's settings
/// (variant, ruleset, handicap, start, time control, rated) and the colours swapped,
/// which the other player accepts. A tournament's games are paired by its director.
///
/// # Errors
/// Unknown game (404), not a player (403), a game still going on, a tournament's (409),
/// a game of more seats (422).
pub async fn rematch(domain: &Domain, game_id: i64, account_id: i64) -> DomainResult<Rematch> {
    let mut tx = read_snapshot(domain).await?;
    let row = load_game(&mut tx, game_id).await?;
    let seats = load_seats(&mut tx, game_id).await?;
    let found = crate::storage::challenges::rematch_of(&mut *tx, game_id).await?;
    tx.commit().await?;
    let mine = seat_of(&seats, account_id)?.clone();
    if row.status == GameStatus::Active {
        return Err(DomainError::Conflict("the game goes on: a rematch follows its end".to_owned()));
    }
    if row.tournament_id.is_some() {
        return Err(DomainError::Conflict(
            "a tournament's games are paired by its director: no rematch".to_owned(),
        ));
    }
    let Some(other) = seats.iter().find(|s| s.seat != mine.seat).filter(|_| row.seat_count == 2) else {
        return Err(DomainError::Invalid("a rematch is for games of two players".to_owned()));
    };
    match found {
        Some(offer) if offer.status == "open" && offer.challenger_id == other.account_id => {
            let accepted = crate::domain::challenges::accept(domain, offer.challenge_id, account_id).await?;
            let crate::domain::challenges::Accepted::Game { game_id, .. } = accepted else {
                return Err(DomainError::Internal(anyhow::anyhow!(
                    "rematch {}: no game",
                    offer.challenge_id
                )));
            };
            // The offering player's page hears it at once (its socket's notifications).
            domain.announcer.tell_accounts(vec![other.account_id]);
            return Ok(Rematch::Started { challenge_id: offer.challenge_id, game_id });
        }
        Some(offer) if offer.status == "open" => {
            return Ok(Rematch::Offered { challenge_id: offer.challenge_id })
        }
        Some(offer) if offer.status == "accepted" => {
            if let Some(game_id) = offer.game_id {
                return Ok(Rematch::Started { challenge_id: offer.challenge_id, game_id });
            }
        }
        _ => {}
    }
    let new = crate::domain::challenges::NewChallenge {
        variant: row.variant.clone(),
        ruleset: Some(row.ruleset.clone()),
        handicap: row.handicap.clone(),
        start_position: row.start_position.clone(),
        opponent: Some(other.username.clone()),
        seats: Some(2),
        color: if mine.seat == 0 { SeatChoice::Second } else { SeatChoice::First },
        time_control: row.time_control.0,
        vacation_allowed: row.vacation_allowed,
        rated: row.rated,
    };
    let offer = crate::domain::challenges::create_for(domain, account_id, new, Some(game_id)).await?;
    domain.announcer.tell_accounts(vec![other.account_id]);
    Ok(Rematch::Offered { challenge_id: offer.id })
}

/// Creates a game (from an accepted challenge, or a tournament's pairing: `in_tournament`)
/// inside the caller's transaction. `accounts` are in seat order.
///
/// # Errors
/// The rules refuse the start position.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn create_in(
    domain: &Domain,
    tx: &mut Transaction<'_, Postgres>,
    variant: Variant,
    ruleset: &str,
    handicap: Option<&str>,
    start_position: Option<&str>,
    control: TimeControl,
    vacation_allowed: bool,
    accounts: &[i64],
    in_tournament: bool,
) -> DomainResult<i64> {
    let game = rules_adapter::judged_game(domain, variant, ruleset, handicap, start_position, accounts.len())
        .await?;
    let now = domain.clock.now();
    // ICCF days count the event's zone, else the server's, kept with the game (#17 §4).
    let control = control.with_zone(domain.time_zone);
    let turn_seat = game.seat_to_move() as i32;
    let initial = control.initial_ms();
    let seats: Vec<(i64, i64)> = accounts.iter().map(|&account| (account, initial)).collect();
    let new = NewGame {
        variant: variant.name(),
        ruleset,
        handicap,
        start_position,
        turn_seat,
        time_control: control,
        vacation_allowed,
        turn_started_at: now,
        // The first mover of a live game of two has its first-move time, its clock does not
        // run yet (issue 37 §5, `awaits_first_move`).
        deadline: if control.is_live() && accounts.len() == 2 && !in_tournament {
            now + domain.first_move.0
        } else {
            control.deadline(now, time_control::ms(initial), &[])
        },
    };
    insert_game(tx, &new, &seats).await
}
