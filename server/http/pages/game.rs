//! The game page: board, players and clocks, the move list in the chosen notation, the
//! result; the move form (any notation, confirmation when the dry run says the move would
//! end the game), draw offer/accept/decline, resign and abort (each confirmed first),
//! claim, rematch. Moves go through [`games::submit_move`], the same function as the REST
//! API.
//!
//! The page shows any earlier position of the game too (issue 37 §1): `?ply=N` draws the
//! board after `N` stored moves, every move of the list links to the position after it,
//! and `?flip=1` turns the board round. `static/game.js` steps through them in place.

use axum::extract::{Query, State};
use axum::http::header::CACHE_CONTROL;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Redirect};
use serde::Deserialize;
use tavoliere_rules::variant::Variant;
use tavoliere_rules::EndReason;

use super::dashboard::{time_left, Deadline};
use super::{refusal_text, render, render_with, Chrome, Ctx, PageError, PageForm, PagePath, PageResult};
use crate::domain::games::{
    self, GameReason, GameResult, GameStatus, GameView, Rematch, RematchState, SeatOutcome,
};
use crate::domain::preferences;
use crate::domain::time_control::TimeControl;
use crate::domain::{Domain, DomainError, ErrorKind};
use crate::web::board::{self as svg_board, BoardOptions};
use crate::web::i18n::Texts;
use crate::web::records::RecordFormat;
use crate::web::ruling::RulingRecord;

/// A player as the page shows them.
pub struct PlayerLine {
    seat: i32,
    username: String,
    color: String,
    clock: String,
    /// Clock time left at the start of the turn (live clocks tick from it in the page).
    remaining_ms: i64,
    to_move: bool,
    /// This seat's clock runs now (a live game's side to move, once it has moved).
    running: bool,
    /// This seat lost on time.
    flagged: bool,
    /// A rated game that ended: the rating before (`?` when provisional), after and the
    /// change, e.g. `1500? → 1662 (+162)`; empty otherwise.
    rating: String,
}

/// One turn of the move list: its text in the viewer's notation, the number of stored
/// moves after it (`?ply=` of the position it leads to), whether it gave check, and where
/// it stands against the position shown.
pub struct MoveCell {
    text: String,
    ply: usize,
    check: bool,
    /// Played after the position shown (listed, not yet on the board).
    ahead: bool,
    /// The move that led to the position shown.
    current: bool,
}

/// One line of the move list: turn number and the moves of both sides (one turn a line
/// in games of more seats).
pub struct MoveLine {
    number: usize,
    cells: Vec<MoveCell>,
}

/// A move waiting for the player's confirmation.
pub struct Pending {
    text: String,
    message: String,
    /// The ply of the position the player saw when they sent it (issue 37 §8).
    ply: i32,
}

/// The earlier or later positions the step links lead to (`None`: already there).
pub struct Steps {
    first: Option<usize>,
    previous: Option<usize>,
    next: Option<usize>,
    last: Option<usize>,
}

/// What the panel of a player shows of the game's rematch (issue 37 §5).
pub enum RematchCard {
    /// The button that offers one.
    Offer,
    /// The viewer's offer, waiting for the other player: challenge id.
    Offered(i64),
    /// The other player offers one: challenge id and the offer in words.
    OfferedToMe(i64, String),
    /// It started: the new game.
    Started(i64),
}

/// An action that cannot be undone, asked twice (issue 37 §3): `resign` or `abort`. The
/// confirmation is shown by `static/game.js`, or without JavaScript by the answer to the
/// first button (`shown`).
pub struct Ask {
    action: &'static str,
    label: String,
    question: String,
    yes: String,
    shown: bool,
}

/// A live game waiting for a side's first move (issue 37 §5): who, and the time left
/// before the game is aborted.
pub struct FirstMove {
    seat: i32,
    text: String,
    left: String,
    deadline: String,
}

/// The game page.
#[derive(askama::Template)]
#[template(path = "game.html")]
pub struct GamePage {
    chrome: Chrome,
    id: i64,
    variant: String,
    variant_code: String,
    /// Whether the game is rated.
    rated: bool,
    board: String,
    players: Vec<PlayerLine>,
    moves: Vec<MoveLine>,
    /// The game's ply (the forms' guard).
    ply: i32,
    /// The ply of the position on the board (`?ply=`; the game's unless earlier).
    shown: usize,
    /// An earlier position than the game's is on the board.
    studying: bool,
    /// Which, in words.
    studying_text: String,
    steps: Steps,
    /// `&flip=1` when the board is turned round by the viewer, for the page's links.
    flip_query: &'static str,
    /// The link that turns the board round (or back).
    flip_link: String,
    active: bool,
    my_turn: bool,
    playing: bool,
    flipped: bool,
    /// The correspondence deadline of the side to move.
    deadline: Option<Deadline>,
    result: Option<String>,
    draw_offered_by_me: bool,
    draw_offered_to_me: bool,
    move_text: String,
    pub(super) move_error: Option<String>,
    pending: Option<Pending>,
    records: Vec<(&'static str, String)>,
    /// A live game in play: the live bar and the running clocks.
    live: bool,
    /// The page follows the game over the live socket (`static/live.js`): a game in play,
    /// live or correspondence, or a player's finished game (its rematch).
    follow: bool,
    /// `active`, `finished` or `aborted`.
    status: String,
    /// What a live event's full state must differ in for the panel to be drawn again:
    /// the ply, the status, the draw offer and the seats' statuses (`static/live.js`).
    state_key: String,
    /// Who is to move (and check), or who won and how.
    status_line: String,
    /// The live time control in words (empty for correspondence games).
    time_control: String,
    /// Byoyomi: the period in milliseconds and the number of periods (the page's clocks
    /// show the periods left).
    byoyomi: Option<(i64, u32)>,
    /// Examples of moves in this variant's notations.
    move_hint: String,
    /// The claim this game's rules offer the players: the button's words and what it
    /// claims (none where nothing can be claimed, issue 23 §3).
    claim: Option<(String, String)>,
    /// Why a game law ended the game, explained in the reader's language (HTML,
    /// [`crate::web::ruling::paragraph`]).
    ruling: Option<String>,
    /// The waiting player's conditional moves (#17 §3), see [`super::conditional`].
    pub(super) conditional: Option<super::conditional::ConditionalCard>,
    /// The player's actions asked twice: abort (before every side has moved, not in a
    /// tournament's game) and resign.
    asks: Vec<Ask>,
    rematch: Option<RematchCard>,
    /// The rematch game once it started (the page goes there).
    rematch_game: Option<i64>,
    /// Another game where the viewer is to move.
    next_game: Option<i64>,
    /// The analysis board of the position shown, where the viewer may open it.
    analysis: Option<String>,
    first_move: Option<FirstMove>,
    /// The catalogue's word for check (the move list's mark).
    check_word: String,
    /// A tournament game's event: its page and "Round 3 of <tournament>, <section>"
    /// (issue 38 §4).
    pub(super) event: Option<(String, String)>,
    /// The computer analysis section (issue 41), [`super::computer_analysis::section`].
    computer_analysis: Option<String>,
}

/// What the game page's address may ask: a position (`?ply=N`, the number of stored
/// moves; clamped to the game, ignored when it is not a number) and the board turned
/// round (`?flip=1`).
#[derive(Debug, Default, Deserialize)]
pub struct ShowQuery {
    #[serde(default)]
    ply: Option<String>,
    #[serde(default)]
    flip: Option<String>,
}

impl ShowQuery {
    /// The ply asked for, if it is a number (negative ones are the start).
    fn ply(&self) -> Option<usize> {
        let n: i64 = self.ply.as_deref()?.trim().parse().ok()?;
        Some(usize::try_from(n.max(0)).unwrap_or(usize::MAX))
    }

    fn flip(&self) -> bool {
        matches!(self.flip.as_deref(), Some("1" | "true"))
    }
}

/// How the board is shown: the position after `shown` stored moves (its FEN) and whether
/// the viewer turned it round.
pub(super) struct Showing {
    shown: Option<(String, usize)>,
    flip: bool,
}

impl Showing {
    /// The game as it stands, from the viewer's side.
    pub(super) fn now() -> Showing {
        Showing { shown: None, flip: false }
    }
}

pub(super) async fn load(domain: &Domain, ctx: &Ctx, id: i64) -> Result<GameView, PageError> {
    match games::view(domain, id).await {
        Ok(view) => Ok(view),
        Err(DomainError::NotFound(_)) => Err(PageError::NotFound(ctx.t)),
        Err(other) => Err(PageError::Internal(other.to_string())),
    }
}

/// The game and what `query` asks to show of it, read in one snapshot.
async fn load_showing(
    domain: &Domain,
    ctx: &Ctx,
    id: i64,
    query: &ShowQuery,
) -> Result<(GameView, Showing), PageError> {
    let flip = query.flip();
    let Some(asked) = query.ply() else {
        return Ok((load(domain, ctx, id).await?, Showing { shown: None, flip }));
    };
    match games::position_at(domain, id, Some(asked)).await {
        Ok((view, fen, shown)) => Ok((view, Showing { shown: Some((fen, shown)), flip })),
        Err(DomainError::NotFound(_)) => Err(PageError::NotFound(ctx.t)),
        Err(other) => Err(PageError::Internal(other.to_string())),
    }
}

fn page(domain: &Domain, ctx: &Ctx, view: &GameView, showing: &Showing) -> Result<GamePage, PageError> {
    let t = ctx.t;
    let me = ctx.user.as_ref().map(|u| u.username.as_str());
    let my_seat = view.seats.iter().find(|s| Some(s.username.as_str()) == me).map(|s| s.seat);
    // The second player of a two-seat game sees the board from their side; the Seven
    // Kingdoms board has no sides. Any viewer may turn it round.
    let flipped = (view.seat_count == 2 && my_seat == Some(1)) != showing.flip;
    let variant: Variant =
        view.variant.parse().map_err(|_| PageError::Internal(format!("variant {}", view.variant)))?;
    let (position, shown) = match &showing.shown {
        Some((fen, shown)) => (fen.as_str(), *shown),
        None => (view.position.as_str(), view.moves.len()),
    };
    let last_turn = view.last_turn(shown);
    let options = BoardOptions { last_move: last_turn.as_deref(), flipped, style: ctx.piece_style() };
    let board = svg_board::render(variant, position, options)
        .map_err(|e| PageError::Internal(format!("board of game {}: {e}", view.id)))?;
    let moves = move_lines(ctx, view, variant, shown)?;
    let active = view.status == GameStatus::Active;
    let live = view.time_control.is_live();
    let now = domain.clock.now();
    let players = view
        .seats
        .iter()
        .map(|s| {
            let to_move = active && view.to_move_seat == Some(s.seat);
            let running = to_move && live && !view.awaits_first_move;
            let flagged = view.reason == Some(GameReason::Rules(EndReason::Timeout))
                && s.outcome == Some(SeatOutcome::Loss);
            PlayerLine {
                seat: s.seat,
                username: s.username.clone(),
                color: if view.seat_count == 2 {
                    t.get(&format!("color.{}.{}", view.variant, s.color)).to_owned()
                } else {
                    // The kingdoms the seat commands, its captures so far and its status.
                    t.format(
                        "game.seat_standing",
                        &[
                            ("kingdoms", &s.color),
                            ("captured", &s.score.to_string()),
                            ("value", &s.secondary_score.to_string()),
                            ("status", t.get(&format!("seat.status.{}", s.status))),
                        ],
                    )
                },
                clock: if flagged {
                    // Its time ran out: nothing is left (issue 37 §5).
                    "0:00".to_owned()
                } else if live {
                    // The running clock as it stands now; the others as they stood when
                    // the turn began.
                    let left = match view.deadline.filter(|_| running) {
                        Some(deadline) => (deadline - now).whole_milliseconds() as i64,
                        None => s.remaining_ms,
                    };
                    clock_text(view.time_control, left)
                } else {
                    time_left(t, s.remaining_seconds)
                },
                remaining_ms: s.remaining_ms,
                to_move,
                running,
                flagged,
                rating: rating_change(domain, s),
            }
        })
        .collect();
    let deadline = Deadline::of(view.deadline.filter(|_| active && !live));
    let result = view.result.as_ref().map(|r| {
        let reason = view.reason.map(|reason| t.get(&format!("reason.{reason}")).to_owned());
        match reason {
            Some(reason) => format!("{r} · {reason}"),
            None => r.to_string(),
        }
    });
    let playing = active && my_seat.is_some();
    let first_move = view.to_move_seat.filter(|_| active && view.awaits_first_move).and_then(|seat| {
        let deadline = view.deadline?;
        let player = view.seats.iter().find(|s| s.seat == seat)?;
        let text = if Some(seat) == my_seat {
            t.get("game.first_move.yours").to_owned()
        } else {
            t.format("game.first_move.theirs", &[("player", &player.username)])
        };
        let left = (deadline - now).whole_milliseconds() as i64;
        Some(FirstMove {
            seat,
            text,
            left: plain(left),
            deadline: deadline.format(&time::format_description::well_known::Rfc3339).ok()?,
        })
    });
    let names: Vec<&str> = view.seats.iter().map(|s| s.username.as_str()).collect();
    let flip_query = if showing.flip { "&flip=1" } else { "" };
    let studying = shown < view.moves.len();
    let ply_query = if studying { format!("ply={shown}&") } else { String::new() };
    let analysis =
        (!active || (playing && !live)).then(|| format!("/games/{}/analysis?ply={shown}", view.id));
    Ok(GamePage {
        chrome: Chrome {
            // The players name the page (issue 18 §4): tabs and bookmarks tell games apart.
            title: t.format(
                "game.title_players",
                &[("players", &names.join(" – ")), ("id", &view.id.to_string())],
            ),
            ..ctx.chrome("game.title")
        },
        id: view.id,
        variant: t.get(&format!("variant.{}", view.variant)).to_owned(),
        variant_code: view.variant.clone(),
        rated: view.rated,
        board,
        players,
        moves,
        ply: view.ply,
        shown,
        studying,
        studying_text: t.format(
            "game.studying",
            &[("shown", &shown.to_string()), ("ply", &view.moves.len().to_string())],
        ),
        steps: steps(view, shown),
        flip_query,
        flip_link: format!("?{ply_query}flip={}", if showing.flip { 0 } else { 1 }),
        active,
        my_turn: active && my_seat.is_some() && my_seat == view.to_move_seat,
        playing,
        flipped,
        deadline,
        result,
        draw_offered_by_me: my_seat.is_some() && view.draw_offer_seat == my_seat,
        draw_offered_to_me: my_seat.is_some()
            && view.draw_offer_seat.is_some()
            && view.draw_offer_seat != my_seat,
        move_text: String::new(),
        move_error: None,
        pending: None,
        records: RecordFormat::for_variant(variant)
            .iter()
            .map(|f| (f.name(), t.get(&record_label_key(variant, *f)).to_owned()))
            .collect(),
        live: active && live,
        follow: active || (my_seat.is_some() && rematch_possible(view)),
        status: view.status.to_string(),
        state_key: format!(
            "{}:{}:{}:{}",
            view.ply,
            view.status,
            view.draw_offer_seat.map(|s| s.to_string()).unwrap_or_default(),
            view.seats.iter().map(|s| s.status).collect::<Vec<_>>().join(",")
        ),
        status_line: status_line(t, view, my_seat),
        time_control: time_control_text(t, view.time_control),
        byoyomi: match view.time_control {
            TimeControl::Byoyomi { period_seconds, periods, .. } => {
                Some((i64::from(period_seconds) * 1000, periods))
            }
            _ => None,
        },
        move_hint: t.get(&format!("game.notation_hint.{}", view.variant)).to_owned(),
        claim: claim_words(t, &view.ruleset),
        ruling: ruling_paragraph(ctx, view, variant)?,
        conditional: None,
        asks: asks(t, playing && view.tournament_id.is_none() && !every_side_moved(view), playing),
        rematch: None,
        rematch_game: None,
        next_game: None,
        analysis,
        first_move,
        check_word: t.get("game.check").to_owned(),
        event: None,
        computer_analysis: None,
    })
}

/// The actions of a player asked twice: abort when `abort`, resign when `playing`.
fn asks(t: Texts, abort: bool, playing: bool) -> Vec<Ask> {
    let ask = |action: &'static str| Ask {
        action,
        label: t.get(&format!("game.{action}")).to_owned(),
        question: t.get(&format!("game.confirm_{action}")).to_owned(),
        yes: t.get(&format!("game.{action}_yes")).to_owned(),
        shown: false,
    };
    let mut asks = Vec::new();
    if abort {
        asks.push(ask("abort"));
    }
    if playing {
        asks.push(ask("resign"));
    }
    asks
}

/// Whether every seat has made a move (a game can be aborted until then).
fn every_side_moved(view: &GameView) -> bool {
    view.seats.iter().all(|s| view.moves.iter().any(|m| m.seat == s.seat))
}

/// A finished game of two players outside tournaments can be played again.
fn rematch_possible(view: &GameView) -> bool {
    view.status != GameStatus::Active && view.seat_count == 2 && view.tournament_id.is_none()
}

/// The positions the step links lead to: the start, the turn before and after the one
/// shown, the game now.
fn steps(view: &GameView, shown: usize) -> Steps {
    let bounds: Vec<usize> = std::iter::once(0).chain(view.turn_rows().into_iter().map(|t| t.end)).collect();
    let last = view.moves.len();
    Steps {
        first: (shown > 0).then_some(0),
        previous: bounds.iter().rev().copied().find(|&b| b < shown),
        next: bounds.iter().copied().find(|&b| b > shown),
        last: (shown < last).then_some(last),
    }
}

/// The page with the viewer's conditional lines (read only for a waiting player), the
/// rematch of a finished game and the next game where the viewer is to move.
pub(super) async fn page_with_lines(
    domain: &Domain,
    ctx: &Ctx,
    view: &GameView,
) -> Result<GamePage, PageError> {
    page_showing(domain, ctx, view, &Showing::now()).await
}

async fn page_showing(
    domain: &Domain,
    ctx: &Ctx,
    view: &GameView,
    showing: &Showing,
) -> Result<GamePage, PageError> {
    let internal = |e: DomainError| PageError::Internal(e.to_string());
    let mut page = page(domain, ctx, view, showing)?;
    page.conditional = super::conditional::card(domain, ctx, view).await?;
    page.event = super::tournaments::event_of_game(domain, ctx.t, view.id).await?;
    let Some(me) = &ctx.user else { return Ok(page) };
    let Some(mine) = view.seats.iter().find(|s| s.username == me.username) else { return Ok(page) };
    if rematch_possible(view) {
        page.rematch = Some(match games::rematch_state(domain, view).await.map_err(internal)? {
            RematchState::None => RematchCard::Offer,
            RematchState::Offered { challenge_id, by } if by == mine.seat => {
                RematchCard::Offered(challenge_id)
            }
            RematchState::Offered { challenge_id, by } => {
                let name = view.seats.iter().find(|s| s.seat == by).map_or("", |s| s.username.as_str());
                RematchCard::OfferedToMe(
                    challenge_id,
                    ctx.t.format("game.rematch_offer", &[("player", name)]),
                )
            }
            RematchState::Started { game_id } => {
                page.rematch_game = Some(game_id);
                RematchCard::Started(game_id)
            }
        });
    }
    // After a correspondence move: the next game where the viewer is to move (issue 37
    // §9); a live player stays at the board.
    if !page.my_turn && !view.time_control.is_live() {
        page.next_game = games::next_to_move(domain, me.id, view.id).await.map_err(internal)?;
    }
    Ok(page)
}

/// A rated seat's rating change as the player line shows it: `1500? → 1662 (+162)` (`?`
/// marks a provisional rating before the game); empty until a rated game ends.
fn rating_change(domain: &Domain, seat: &crate::domain::games::SeatView) -> String {
    let (Some(before), Some(after)) = (seat.rating_before, seat.rating_after) else {
        return String::new();
    };
    let provisional =
        seat.deviation_before.is_some_and(|d| crate::domain::ratings::is_provisional(d, &domain.ratings));
    let mark = if provisional { "?" } else { "" };
    format!("{before}{mark} → {after} ({:+})", after - before)
}

/// The ruling's paragraph, its plies named in the notation of the move list.
fn ruling_paragraph(ctx: &Ctx, view: &GameView, variant: Variant) -> Result<Option<String>, PageError> {
    let Some(ruling) = &view.ruling else { return Ok(None) };
    let texts = preferences::moves_in(view, ctx.prefs.notation_for(variant))
        .map_err(|e| PageError::Internal(e.to_string()))?;
    let record = RulingRecord { variant, moves: &texts };
    Ok(Some(crate::web::ruling::paragraph(ruling, &record, ctx.t.lang())))
}

/// The catalogue key naming a record format on the page: the variant's own record
/// (Flickering chess, the Seven Kingdoms) is named after its variant (issue 23 §1).
pub(crate) fn record_label_key(variant: Variant, format: RecordFormat) -> String {
    match format {
        RecordFormat::Record => format!("record.record.{}", variant.name()),
        other => format!("record.{}", other.name()),
    }
}

/// The rulesets with a claim, by their stored name: the shogi impasse count (shogi.md
/// "Impasse", 24-point rule), the 27-point declaration, and the Flickering chess
/// repetition (flickering-chess.md "End of the game": a draw claimed). Xiangqi, MiniShogi
/// and the Seven Kingdoms end by themselves: nothing to claim (issue 23 §3).
const CLAIMS: [&str; 3] = ["shogi-24", "shogi-27", "flickering"];

/// The claim button's words and what it claims, where the ruleset has a claim.
fn claim_words(t: Texts, ruleset: &str) -> Option<(String, String)> {
    CLAIMS.contains(&ruleset).then(|| {
        (
            t.get(&format!("game.claim.{ruleset}")).to_owned(),
            t.get(&format!("game.claim_help.{ruleset}")).to_owned(),
        )
    })
}

/// Who is to move (the reader, another player, a kingdom's seat) and whether they are in
/// check; once over, who won and how, in words (issue 37 §9: `1-0` means little in a
/// shogi game), the sides named as the variant names them.
fn status_line(t: Texts, view: &GameView, my_seat: Option<i32>) -> String {
    if view.status == GameStatus::Active {
        let turn = match (view.to_move_seat, view.to_move.as_deref()) {
            (Some(seat), _) if Some(seat) == my_seat => t.get("game.status.your_move").to_owned(),
            (_, Some(player)) => t.format("game.status.to_move", &[("player", player)]),
            // Correspondence: the game page shows the deadline instead (empty here).
            _ => String::new(),
        };
        return if view.in_check { format!("{turn} · {}", t.get("game.status.check")) } else { turn };
    }
    let reason = view.reason.map_or_else(String::new, |r| t.get(&format!("reason.{r}")).to_owned());
    let side = |seat: i32| {
        let color = view.seats.iter().find(|s| s.seat == seat).map_or("", |s| s.color.as_str());
        t.get(&format!("color.{}.{color}", view.variant)).to_owned()
    };
    match (&view.result, view.status) {
        (_, GameStatus::Aborted) => t.format("game.status.aborted", &[("reason", &reason)]),
        (Some(GameResult::FirstWins), _) => {
            t.format("game.status.wins", &[("side", &side(0)), ("reason", &reason)])
        }
        (Some(GameResult::SecondWins), _) => {
            t.format("game.status.wins", &[("side", &side(1)), ("reason", &reason)])
        }
        (Some(GameResult::Draw), _) => t.format("game.status.draw", &[("reason", &reason)]),
        (Some(GameResult::Places(places)), _) => {
            let winners: Vec<&str> = view
                .seats
                .iter()
                .zip(places)
                .filter(|(_, place)| **place == 1)
                .map(|(s, _)| s.username.as_str())
                .collect();
            t.format("game.status.player_wins", &[("player", &winners.join(", ")), ("reason", &reason)])
        }
        _ => t.get("game.status.over").to_owned(),
    }
}

/// A time control in words, correspondence ones included (the home page, the lobby).
pub(crate) fn time_control_summary(t: Texts, control: TimeControl) -> String {
    let summary = days_summary(t, control);
    if control.iccf_zone().is_none() {
        return summary;
    }
    // A challenge without an event's zone: the server's counts, named once the game starts.
    let zone = control.event_zone().map_or_else(|| t.get("tc.server_zone").to_owned(), |z| z.to_string());
    format!("{summary}, {}", t.format("tc.iccf_zone", &[("zone", &zone)]))
}

fn days_summary(t: Texts, control: TimeControl) -> String {
    match control {
        TimeControl::DaysPerMove { days, .. } => {
            t.format("tc.summary.days-per-move", &[("days", &days.to_string())])
        }
        TimeControl::MovesInDays { moves, days, .. } => t.format(
            "tc.summary.moves-in-days",
            &[("moves", &moves.to_string()), ("days", &days.to_string())],
        ),
        TimeControl::Fischer { initial_days, increment_days, cap_days, .. } => t.format(
            "tc.summary.fischer",
            &[
                ("initial", &initial_days.to_string()),
                ("increment", &increment_days.to_string()),
                ("cap", &cap_days.to_string()),
            ],
        ),
        live => time_control_text(t, live),
    }
}

/// A live clock: minutes and seconds, tenths under ten seconds; byoyomi shows the main
/// time and the periods, then the current period and the periods left. `static/live.js`
/// writes the ticking clocks the same way (`clockText`).
fn clock_text(control: TimeControl, ms: i64) -> String {
    let ms = ms.max(0);
    match control {
        TimeControl::Byoyomi { period_seconds, periods, .. } => {
            let period = i64::from(period_seconds) * 1000;
            let all_periods = period * i64::from(periods);
            if ms > all_periods {
                format!("{} + {}×{}s", plain(ms - all_periods), periods, period_seconds)
            } else {
                let left = ((ms + period - 1) / period).max(1);
                format!("{} ({}×{}s)", plain(ms - (left - 1) * period), left, period_seconds)
            }
        }
        _ => plain(ms),
    }
}

/// Minutes and seconds, tenths under ten seconds (`static/live.js` `plain`).
fn plain(ms: i64) -> String {
    let ms = ms.max(0);
    if ms < 10_000 {
        format!("{}.{}", ms / 1000, ms % 1000 / 100)
    } else {
        let seconds = (ms + 999) / 1000;
        format!("{}:{:02}", seconds / 60, seconds % 60)
    }
}

/// A live control in words, e.g. "5 min + 5 s"; empty for correspondence controls.
fn time_control_text(t: Texts, control: TimeControl) -> String {
    let minutes = |seconds: u32| {
        if seconds.is_multiple_of(60) {
            (seconds / 60).to_string()
        } else {
            format!("{:.1}", f64::from(seconds) / 60.0)
        }
    };
    match control {
        TimeControl::LiveFischer { base_seconds, increment_seconds } => t.format(
            "tc.summary.live-fischer",
            &[("minutes", &minutes(base_seconds)), ("increment", &increment_seconds.to_string())],
        ),
        TimeControl::Byoyomi { base_seconds, period_seconds, periods } => t.format(
            "tc.summary.byoyomi",
            &[
                ("minutes", &minutes(base_seconds)),
                ("periods", &periods.to_string()),
                ("period", &period_seconds.to_string()),
            ],
        ),
        // ICCF days: the players see whose calendar counts (#17 §4).
        _ => control
            .iccf_zone()
            .map(|zone| t.format("tc.iccf_zone", &[("zone", zone.as_str())]))
            .unwrap_or_default(),
    }
}

/// The lines of the move list, in the notation the viewer chose for the game's family,
/// each turn a link to the position after it and marked against the position after
/// `shown` stored moves.
fn move_lines(
    ctx: &Ctx,
    view: &GameView,
    variant: Variant,
    shown: usize,
) -> Result<Vec<MoveLine>, PageError> {
    let texts = preferences::moves_in(view, ctx.prefs.notation_for(variant))
        .map_err(|e| PageError::Internal(e.to_string()))?;
    if texts.len() != view.moves.len() {
        return Err(PageError::Internal(format!(
            "game {}: {} move texts for {} moves",
            view.id,
            texts.len(),
            view.moves.len()
        )));
    }
    // One text per turn: a Flickering series (and a handicap turn of several moves) is
    // stored one row per move with the turn's number.
    let turns: Vec<MoveCell> = view
        .turn_rows()
        .into_iter()
        .map(|rows| MoveCell {
            text: texts[rows.clone()].join(", "),
            ply: rows.end,
            check: view.moves[rows.clone()].iter().any(|m| m.check),
            ahead: rows.end > shown,
            current: rows.end == shown,
        })
        .collect();
    // Two players: a line per pair of turns; more: a line per turn (the move names the
    // kingdom).
    let per_line = if view.seat_count == 2 { 2 } else { 1 };
    let mut lines = Vec::new();
    let mut turns = turns.into_iter().peekable();
    while turns.peek().is_some() {
        lines.push(MoveLine { number: lines.len() + 1, cells: turns.by_ref().take(per_line).collect() });
    }
    Ok(lines)
}

/// `GET /games/{id}`, `?ply=N` for the position after `N` stored moves, `?flip=1` for the
/// board turned round.
pub async fn show(
    State(domain): State<Domain>,
    State(state): State<crate::http::AppState>,
    ctx: Ctx,
    PagePath(id): PagePath<i64>,
    Query(query): Query<ShowQuery>,
) -> PageResult {
    let (view, showing) = load_showing(&domain, &ctx, id, &query).await?;
    let mut page = page_showing(&domain, &ctx, &view, &showing).await?;
    page.computer_analysis = super::computer_analysis::section(&state, &ctx, &view).await?;
    render(&page)
}

/// The game page's `panel` block alone: the element `#game` (board, players and clocks,
/// status, forms, move list) as the page draws it for this viewer.
#[derive(askama::Template)]
#[template(path = "game.html", block = "panel")]
pub struct GamePanel {
    page: GamePage,
}

impl std::ops::Deref for GamePanel {
    type Target = GamePage;

    fn deref(&self) -> &GamePage {
        &self.page
    }
}

/// `GET /games/{id}/panel` (with the page's `?ply=` and `?flip=`): the element `#game` of
/// the game page, drawn by the same template for this viewer. Live mode
/// (`static/live.js`) swaps it in after every event that changes the game, and
/// `static/game.js` when the viewer steps through the moves, so the board is drawn in one
/// place, by the server (`web/board`), and the forms are enabled for whoever is to move
/// now.
pub async fn panel(
    State(domain): State<Domain>,
    ctx: Ctx,
    PagePath(id): PagePath<i64>,
    Query(query): Query<ShowQuery>,
) -> PageResult {
    let (view, showing) = load_showing(&domain, &ctx, id, &query).await?;
    let mut response = render(&GamePanel { page: page_showing(&domain, &ctx, &view, &showing).await? })?;
    response.headers_mut().insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

/// The items of the game page's move list alone.
#[derive(askama::Template)]
#[template(path = "game_moves.html")]
pub struct MoveList {
    moves: Vec<MoveLine>,
    flip_query: &'static str,
    check_word: String,
}

/// `GET /games/{id}/moves`: the move list's items as the game page shows them to this
/// viewer (the notation of their preferences, one line per pair of turns, each a link to
/// its position).
pub async fn moves(State(domain): State<Domain>, ctx: Ctx, PagePath(id): PagePath<i64>) -> PageResult {
    let view = load(&domain, &ctx, id).await?;
    let variant: Variant =
        view.variant.parse().map_err(|_| PageError::Internal(format!("variant {}", view.variant)))?;
    let moves = move_lines(&ctx, &view, variant, view.moves.len())?;
    let list = MoveList { moves, flip_query: "", check_word: ctx.t.get("game.check").to_owned() };
    let mut response = render(&list)?;
    response.headers_mut().insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

/// What the move form sends.
#[derive(Deserialize)]
pub struct MoveForm {
    #[serde(default)]
    csrf: String,
    #[serde(rename = "move", default)]
    text: String,
    #[serde(default)]
    ply: String,
    #[serde(default)]
    confirm: Option<String>,
}

/// The catalogue's words for a refused move: the rules' reason in the reader's language.
fn move_error_text(ctx: &Ctx, error: &DomainError) -> String {
    match (error.kind(), error.code()) {
        (_, "move.stale-ply") => ctx.t.get("game.error.stale").to_owned(),
        (ErrorKind::Forbidden, _) => ctx.t.get("game.error.not_yours").to_owned(),
        _ => refusal_text(ctx.t, error),
    }
}

/// `POST /games/{id}/move`: the form's ply first — a move meant for another position than
/// the game's is refused as the API refuses it (`move.stale-ply`, 409), before any dry run
/// (issue 37 §8); then the dry run: when the move would end the game (a loss by rule
/// included) the page asks for confirmation, its form carrying the ply the player saw;
/// then [`games::submit_move`]. A form without a readable `ply` is refused: the ply is the
/// guard against a move meant for an earlier position.
pub async fn play(
    State(domain): State<Domain>,
    ctx: Ctx,
    PagePath(id): PagePath<i64>,
    PageForm(form): PageForm<MoveForm>,
) -> PageResult {
    ctx.check_csrf(&form.csrf)?;
    let me = ctx.require_user()?.clone();
    let text = form.text.trim().to_owned();
    let (domain_ref, ctx_ref, typed) = (&domain, &ctx, &form.text);
    let refuse = move |status: StatusCode, message: String| async move {
        let view = load(domain_ref, ctx_ref, id).await?;
        let mut page = page_with_lines(domain_ref, ctx_ref, &view).await?;
        page.move_text = typed.clone();
        page.move_error = Some(message);
        render_with(status, &page)
    };
    let refused = |error: &DomainError| {
        let status = if error.code() == "move.stale-ply" {
            StatusCode::CONFLICT
        } else {
            StatusCode::UNPROCESSABLE_ENTITY
        };
        (status, move_error_text(&ctx, error))
    };
    let Ok(ply) = form.ply.trim().parse::<i32>() else {
        return refuse(StatusCode::UNPROCESSABLE_ENTITY, ctx.t.get("game.error.ply").to_owned()).await;
    };
    if text.is_empty() {
        return refuse(StatusCode::UNPROCESSABLE_ENTITY, ctx.t.get("game.error.empty").to_owned()).await;
    }
    if form.confirm.as_deref() != Some("1") {
        match games::check_move(&domain, id, me.id, &text, Some(ply)).await {
            Ok(check) if check.ends_game => {
                let reason = check
                    .reason
                    .as_deref()
                    .map(|r| ctx.t.get(&format!("reason.{r}")).to_owned())
                    .unwrap_or_default();
                let view = load(&domain, &ctx, id).await?;
                let mut page = page_with_lines(&domain, &ctx, &view).await?;
                page.move_text = text.clone();
                page.pending = Some(Pending {
                    text,
                    message: ctx.t.format(
                        "game.confirm",
                        &[
                            ("move", &check.display),
                            ("result", check.result.as_deref().unwrap_or("")),
                            ("reason", &reason),
                        ],
                    ),
                    ply,
                });
                return render(&page);
            }
            Ok(_) => {}
            Err(DomainError::NotFound(_)) => return Err(PageError::NotFound(ctx.t)),
            Err(DomainError::Internal(e)) => return Err(PageError::Internal(e.to_string())),
            Err(error) => {
                let (status, message) = refused(&error);
                return refuse(status, message).await;
            }
        }
    }
    match games::submit_move(&domain, id, me.id, &text, ply).await {
        Ok(_) => Ok(Redirect::to(&format!("/games/{id}")).into_response()),
        Err(DomainError::NotFound(_)) => Err(PageError::NotFound(ctx.t)),
        Err(DomainError::Internal(e)) => Err(PageError::Internal(e.to_string())),
        Err(error) => {
            let (status, message) = refused(&error);
            refuse(status, message).await
        }
    }
}

/// What the action buttons send.
#[derive(Deserialize)]
pub struct ActionForm {
    #[serde(default)]
    csrf: String,
    action: String,
    /// `yes` once the player confirmed a resignation or an abort.
    #[serde(default)]
    confirm: Option<String>,
}

/// `POST /games/{id}/action`: resign, abort, offer/accept/decline a draw, claim, rematch.
/// A resignation or an abort without `confirm=yes` changes nothing: the page asks first
/// (issue 37 §3), and its confirmation form sends `confirm=yes`.
pub async fn action(
    State(domain): State<Domain>,
    ctx: Ctx,
    PagePath(id): PagePath<i64>,
    PageForm(form): PageForm<ActionForm>,
) -> PageResult {
    ctx.check_csrf(&form.csrf)?;
    let me = ctx.require_user()?.clone();
    let confirmed = form.confirm.as_deref() == Some("yes");
    let asked = match form.action.as_str() {
        "resign" => Some("resign"),
        "abort" => Some("abort"),
        _ => None,
    };
    if let Some(action) = asked.filter(|_| !confirmed) {
        let view = load(&domain, &ctx, id).await?;
        let mut page = page_with_lines(&domain, &ctx, &view).await?;
        if let Some(ask) = page.asks.iter_mut().find(|ask| ask.action == action) {
            ask.shown = true;
            return render(&page);
        }
        page.move_error = Some(ctx.t.get("game.error.unknown_action").to_owned());
        return render_with(StatusCode::UNPROCESSABLE_ENTITY, &page);
    }
    let done = match form.action.as_str() {
        "resign" => games::resign(&domain, id, me.id).await.map(|_| id),
        "abort" => games::abort(&domain, id, me.id).await.map(|_| id),
        "offer-draw" => games::offer_draw(&domain, id, me.id).await.map(|_| id),
        "accept-draw" => games::accept_draw(&domain, id, me.id).await.map(|_| id),
        "decline-draw" => games::decline_draw(&domain, id, me.id).await.map(|_| id),
        "claim" => games::claim(&domain, id, me.id).await.map(|_| id),
        // The rematch, once started, is where both players go.
        "rematch" => games::rematch(&domain, id, me.id).await.map(|rematch| match rematch {
            Rematch::Offered { .. } => id,
            Rematch::Started { game_id, .. } => game_id,
        }),
        _ => Err(DomainError::Invalid(String::new())),
    };
    match done {
        Ok(game) => Ok(Redirect::to(&format!("/games/{game}")).into_response()),
        Err(DomainError::NotFound(_)) => Err(PageError::NotFound(ctx.t)),
        Err(DomainError::Internal(e)) => Err(PageError::Internal(e.to_string())),
        Err(error) => {
            let view = load(&domain, &ctx, id).await?;
            let mut page = page_with_lines(&domain, &ctx, &view).await?;
            page.move_error = Some(match error {
                DomainError::Invalid(detail) if detail.is_empty() => {
                    ctx.t.get("game.error.unknown_action").to_owned()
                }
                error
                    if matches!(
                        error.kind(),
                        ErrorKind::Invalid | ErrorKind::Conflict | ErrorKind::Forbidden
                    ) =>
                {
                    refusal_text(ctx.t, &error)
                }
                _ => ctx.t.get("game.error.unknown_action").to_owned(),
            });
            render_with(StatusCode::UNPROCESSABLE_ENTITY, &page)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_record_format_offered_has_a_label_in_both_languages() {
        for variant in Variant::ALL {
            for &format in RecordFormat::for_variant(variant) {
                let key = record_label_key(variant, format);
                for lang in crate::web::i18n::Lang::ALL {
                    assert!(Texts::new(lang).lookup(&key).is_some(), "{key} in {}", lang.code());
                }
            }
        }
    }

    #[test]
    fn live_clocks_read_minutes_and_seconds_and_tenths_under_ten_seconds() {
        let fischer = TimeControl::LiveFischer { base_seconds: 300, increment_seconds: 5 };
        assert_eq!(clock_text(fischer, 300_000), "5:00");
        assert_eq!(clock_text(fischer, 299_001), "5:00", "a second begun is shown whole");
        assert_eq!(clock_text(fischer, 61_000), "1:01");
        assert_eq!(clock_text(fischer, 10_000), "0:10");
        assert_eq!(clock_text(fischer, 9_950), "9.9");
        assert_eq!(clock_text(fischer, -5), "0.0", "never below zero");
    }

    #[test]
    fn byoyomi_clocks_show_the_periods_left() {
        let byoyomi = TimeControl::Byoyomi { base_seconds: 60, period_seconds: 30, periods: 3 };
        assert_eq!(clock_text(byoyomi, 150_000), "1:00 + 3×30s", "main time, then the periods");
        assert_eq!(clock_text(byoyomi, 90_000), "0:30 (3×30s)", "main time gone: the first period");
        assert_eq!(clock_text(byoyomi, 35_000), "5.0 (2×30s)", "a period lost");
    }
}
