//! How a game ends and how every change is announced: the one ending function
//! ([`finish`]), the stop without a result ([`stop`]) and the one announcement
//! ([`announce`]).

use super::*;
use crate::domain::notifications::Kind;
use crate::domain::ratings::{self, SeatRating};
use crate::storage::notifications;

/// How a game ends: the result, the reason and every seat's part.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Ending {
    pub(crate) result: GameResult,
    pub(crate) reason: GameReason,
    pub(crate) seats: Vec<SeatEnd>,
}

impl Ending {
    /// The end the rules reached (every variant, any number of seats).
    pub(crate) fn from_game(game: &AnyGame) -> Option<Ending> {
        let standings = game.seat_results()?;
        // Every name the rules give is known (`storage::endings` tests them all).
        let reason = game.end_reason()?.parse().expect("the rules' end reasons are known");
        let mut seats: Vec<SeatEnd> = standings
            .iter()
            .map(|s| {
                let (outcome, points) = match s.result {
                    SeatResult::Win => (SeatOutcome::Win, 1.0),
                    SeatResult::Draw => (SeatOutcome::Draw, 0.5),
                    SeatResult::Loss => (SeatOutcome::Loss, 0.0),
                };
                SeatEnd {
                    seat: s.seat as i32,
                    outcome,
                    points,
                    place: s.place as i32,
                    score: s.score as i32,
                    secondary_score: s.secondary_score as i32,
                }
            })
            .collect();
        seats.sort_by_key(|s| s.seat);
        let result = if seats.len() == 2 {
            GameResult::two_seat(seats.iter().find(|s| s.outcome == SeatOutcome::Win).map(|s| s.seat))
        } else {
            GameResult::Places(seats.iter().map(|s| s.place as u8).collect())
        };
        Some(Ending { result, reason, seats })
    }

    /// A two-seat game won by `winner_seat` (`None`: drawn) for `reason`.
    pub(crate) fn two_seat(winner_seat: Option<i32>, reason: EndReason) -> Ending {
        let seat = |seat: i32| {
            let (outcome, points, place) = match winner_seat {
                None => (SeatOutcome::Draw, 0.5, 1),
                Some(w) if w == seat => (SeatOutcome::Win, 1.0, 1),
                Some(_) => (SeatOutcome::Loss, 0.0, 2),
            };
            SeatEnd { seat, outcome, points, place, score: 0, secondary_score: 0 }
        };
        Ending {
            result: GameResult::two_seat(winner_seat),
            reason: reason.into(),
            seats: vec![seat(0), seat(1)],
        }
    }

    /// A two-seat game both players lost by forfeit (a director's double forfeit:
    /// `0-0`, nobody scores).
    pub(crate) fn double_forfeit() -> Ending {
        let seat = |seat: i32| SeatEnd {
            seat,
            outcome: SeatOutcome::Loss,
            points: 0.0,
            place: 2,
            score: 0,
            secondary_score: 0,
        };
        Ending {
            result: GameResult::DoubleForfeit,
            reason: EndReason::Forfeit.into(),
            seats: vec![seat(0), seat(1)],
        }
    }

    pub(crate) fn of_seat(&self, seat: i32) -> Option<&SeatEnd> {
        self.seats.iter().find(|s| s.seat == seat)
    }
}

/// Ends an active game with `ending` at `now`: THE function through which a game ends
/// with a result (the rules, a resignation, a draw agreed, the clock, a director's
/// decision). Returns whether it ended (`false`: it was over already). The caller
/// commits and then [`announce`]s the change.
pub(crate) async fn finish(
    tx: &mut Transaction<'_, Postgres>,
    game_id: i64,
    ending: &Ending,
    now: OffsetDateTime,
) -> DomainResult<bool> {
    Ok(finish_rated(tx, game_id, ending, now).await?.is_some())
}

/// [`finish`], with the rating changes it made: `None` when the game was over already,
/// the changes of a rated game otherwise (empty for an unrated one). A rated game is rated
/// here, in the transaction that ends it: only the one transaction whose guarded update
/// ends the game rates it, so the ratings change once however many instances race to end
/// it (issue 18 §1).
pub(crate) async fn finish_rated(
    tx: &mut Transaction<'_, Postgres>,
    game_id: i64,
    ending: &Ending,
    now: OffsetDateTime,
) -> DomainResult<Option<Vec<SeatRating>>> {
    if !store_ending(tx, game_id, &ending.result, ending.reason, &ending.seats, now).await? {
        return Ok(None);
    }
    tell_players_it_ended(tx, game_id, ending.reason, now).await?;
    Ok(Some(ratings::rate_ending(tx, game_id, ending, now).await?))
}

/// The players' notifications of a game's end, in the ending's transaction (#17 §2): a
/// director's decision (adjudication, forfeit, annulment) is told as such, every other
/// end as "game ended" (the mail explains the ruling when a law ended it).
async fn tell_players_it_ended(
    tx: &mut Transaction<'_, Postgres>,
    game_id: i64,
    reason: GameReason,
    now: OffsetDateTime,
) -> DomainResult<()> {
    let kind = match reason {
        GameReason::Annulled | GameReason::Rules(EndReason::Adjudication | EndReason::Forfeit) => {
            Kind::DirectorDecision
        }
        _ => Kind::GameEnd,
    };
    let details = serde_json::json!({"reason": reason.as_str()});
    notifications::notify_players(tx, game_id, kind, None, details, now).await
}

/// Stops an active game without a result at `now` (`reason`: `aborted` by a player,
/// `annulled` by a director). Returns whether it stopped (`false`: it was over already).
pub(crate) async fn stop(
    tx: &mut Transaction<'_, Postgres>,
    game_id: i64,
    reason: GameReason,
    now: OffsetDateTime,
) -> DomainResult<bool> {
    let stopped = store_stop(tx, game_id, reason, now).await?;
    if stopped {
        tell_players_it_ended(tx, game_id, reason, now).await?;
    }
    Ok(stopped)
}

/// The one announcement of a committed change of a game, whatever made it (a move, an
/// action, the clock, a director): its view goes to this instance's sockets at once
/// ([`super::LocalRooms`]), and the change to every instance just after
/// ([`notify::Announcer`]; they read it unless they have that revision).
pub(crate) fn announce(domain: &Domain, view: GameView) -> GameView {
    domain.rooms.publish(&view);
    domain.announcer.announce(notify::GameChanged {
        game_id: view.id,
        ply: view.ply,
        revision: view.revision,
    });
    if view.status != GameStatus::Active {
        // A game that ended or stopped may have given its tournament round its last
        // result: the round's players are told once it is final (issue 38 §6).
        let domain = domain.clone();
        let game_id = view.id;
        tokio::spawn(
            async move { crate::domain::tournaments::note_final_rounds_of_game(&domain, game_id).await },
        );
    }
    view
}

/// Reads and [`announce`]s games changed by a committed transaction that did not build
/// their views (a director's decisions). A game that cannot be read is left to the
/// hub's resync.
pub(crate) async fn announce_stored(domain: &Domain, game_ids: &[i64]) {
    for &game_id in game_ids {
        match view(domain, game_id).await {
            Ok(view) => {
                announce(domain, view);
            }
            Err(error) => tracing::warn!(game.id = game_id, %error, "cannot announce a changed game"),
        }
    }
}

/// Reads the game's view as the change left it, commits and [`announce`]s it.
pub(crate) async fn announce_and_commit(
    domain: &Domain,
    mut tx: Transaction<'_, Postgres>,
    game_id: i64,
) -> DomainResult<GameView> {
    let view = view_in(domain, &mut tx, game_id).await?;
    tx.commit().await?;
    Ok(announce(domain, view))
}

/// The rows read before `finish`, as `finish` left them (with the rating changes it made).
pub(crate) fn end_rows(row: &mut GameRow, seats: &mut [SeatRow], ending: &Ending, rated: &[SeatRating]) {
    row.status = GameStatus::Finished;
    row.result = Some(ending.result.clone());
    row.reason = Some(ending.reason);
    row.draw_offer_seat = None;
    for seat in seats.iter_mut() {
        if let Some(end) = ending.of_seat(seat.seat) {
            seat.outcome = Some(end.outcome);
            seat.place = Some(end.place);
            seat.score = Some(end.score);
            seat.secondary_score = Some(end.secondary_score);
        }
        if let Some(change) = rated.iter().find(|r| r.seat == seat.seat) {
            seat.rating_before = Some(change.before.rating);
            seat.rating_after = Some(change.after.rating);
            seat.deviation_before = Some(change.before.deviation);
        }
    }
}
