//! The WebSocket transport: `GET /api/games/{id}/socket[?since_ply=N]`.
//!
//! One task per socket runs a `select!` over the client's frames (with the idle timeout)
//! and the game's room in the [`Hub`]. Every action goes through the same domain
//! functions as the REST API (`domain::games::submit_move` and friends).
//!
//! Limits: `live.max_sockets_per_address` sockets open at once per client address and
//! `live.max_sockets_per_account` per account (more are refused with 429 before the
//! upgrade), and `live.messages_per_second` client messages a second per socket (after a
//! burst of `live.message_burst`; faster ones get a `rate_limited` error, and a socket
//! that goes on sending a burst's worth of refused messages in a row is closed).

use std::collections::HashMap;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};
use serde::Deserialize;
use tokio::sync::broadcast::error::RecvError;

use super::hub::{Hub, RoomEvent};
use super::protocol::{ClientMessage, ClockState, DrawAction, ServerMessage};
use crate::domain::accounts::Account;
use crate::domain::games::{self, GameStatus, GameView};
use crate::domain::{DomainError, ErrorKind};
use crate::http::auth::MaybeAuthUser;
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::{ClientAddress, Path, Query};
use crate::http::limits::address_group;
use crate::http::AppState;

/// Hard limit of one frame: a longer one closes the socket (the soft limit,
/// `max_message_bytes`, answers with an error event instead).
const HARD_MESSAGE_LIMIT: usize = 64 * 1024;
/// Read buffer of a socket (tungstenite's default, 128 KiB, would make 10,000 idle
/// sockets cost over a gigabyte). tungstenite fills the whole buffer with zeros before each
/// read, so every socket keeps it resident: 1 KiB holds what a client sends (a move, a
/// ping, an offer), and a longer frame, up to [`HARD_MESSAGE_LIMIT`], gets room of its own
/// (tungstenite reserves its full length). 4 KiB cost 100,000 idle sockets 300 MB more.
const READ_BUFFER: usize = 1024;

/// Query of the socket URL.
#[derive(Debug, Deserialize)]
pub struct SocketQuery {
    /// The last ply the client has: the server sends the moves after it instead of the
    /// full state.
    since_ply: Option<i32>,
}

#[utoipa::path(
    get,
    path = "/api/games/{id}/socket",
    tag = "live",
    params(
        ("id" = i64, Path, description = "Game id"),
        ("since_ply" = Option<i32>, Query, description = "The last ply the client has: only later moves are sent")
    ),
    security((), ("bearer" = []), ("session" = [])),
    responses((status = 101, description = "switching to the WebSocket protocol of docs/live-protocol.md"))
)]
/// Upgrades to a live socket on game `id`: anyone may watch, a signed-in player (cookie
/// session or bearer token) may act.
///
/// # Errors
/// Unknown game (404), an invalid bearer token (401), a cross-site handshake with the
/// session cookie (403), too many sockets open from the address or for the account (429),
/// not a WebSocket request (400/426).
pub async fn connect(
    State(state): State<AppState>,
    client: ClientAddress,
    MaybeAuthUser(me): MaybeAuthUser,
    Path(id): Path<i64>,
    Query(query): Query<SocketQuery>,
    upgrade: WebSocketUpgrade,
) -> ApiResult<Response> {
    let permit = state.live.sockets().admit(state.live.settings(), client.0, me.as_ref().map(|m| m.id))?;
    let view = games::view(&state.domain, id).await?;
    let seat = me.as_ref().and_then(|account| seat_of(&view, account));
    let hub = Arc::clone(&state.live);
    let upgrade = upgrade
        .max_message_size(HARD_MESSAGE_LIMIT)
        .max_frame_size(HARD_MESSAGE_LIMIT)
        // Small buffers: an idle socket must cost little (10,000 of them in 300 MB).
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(0)
        .max_write_buffer_size(HARD_MESSAGE_LIMIT * 4);
    let settings = state.live.settings();
    let rate = Quota::per_second(NonZeroU32::new(settings.messages_per_second).unwrap_or(NonZeroU32::MIN))
        .allow_burst(NonZeroU32::new(settings.message_burst).unwrap_or(NonZeroU32::MIN));
    Ok(upgrade.on_upgrade(move |socket| {
        let connection = Connection {
            _permit: permit,
            rate: RateLimiter::direct(rate),
            refused_in_a_row: 0,
            hub,
            game_id: id,
            me,
            seat,
            last_ply: 0,
            draw_offer: None,
            result_sent: false,
            seat_statuses: Vec::new(),
        };
        connection.run(socket, query.since_ply)
    }))
}

fn seat_of(view: &GameView, account: &Account) -> Option<i32> {
    view.seats.iter().find(|s| s.username == account.username).map(|s| s.seat)
}

/// One socket's view of its game: what it has already been sent.
struct Connection {
    /// Its place in the per-address and per-account counts, given back when it closes.
    _permit: SocketPermit,
    /// Its client message rate.
    rate: DefaultDirectRateLimiter,
    /// Messages refused for the rate since the last one accepted.
    refused_in_a_row: u32,
    hub: Arc<Hub>,
    game_id: i64,
    me: Option<Account>,
    seat: Option<i32>,
    last_ply: i32,
    draw_offer: Option<i32>,
    result_sent: bool,
    /// The seats' statuses last sent (games of more than two seats).
    seat_statuses: Vec<&'static str>,
}

impl Connection {
    async fn run(mut self, socket: WebSocket, since_ply: Option<i32>) {
        let (mut sink, mut stream) = socket.split();
        // A signed-in socket closes when an admin disables its account, on any instance
        // (issue 20 §1). Listening starts before the account is looked at once more: a
        // disabling committed since the handshake is seen either way.
        let mut disabled = self.me.as_ref().map(|_| self.hub.disabled_accounts());
        if self.account_disabled().await {
            close_disabled(&mut sink).await;
            return;
        }
        // Join first, then read: a change committed in between arrives as an event.
        let mut subscription = self.hub.join(self.game_id).await;
        let mut out = Vec::new();
        let read = games::view(self.hub.domain(), self.game_id).await;
        if let Ok(view) = &read {
            subscription.seen(view.revision);
        }
        match read {
            Ok(view) => match since_ply {
                Some(since) if (0..=view.ply).contains(&since) => {
                    out.push(
                        ServerMessage::Resume {
                            since_ply: since,
                            ply: view.ply,
                            you: self.seat,
                            watchers: self.hub.watchers(self.game_id),
                        }
                        .to_text(),
                    );
                    self.last_ply = since;
                    // The clocks follow even when nothing was missed: a page that resumes
                    // from the ply it was drawn at ticks from them.
                    if !self.apply(&view, &mut out) {
                        let now = self.hub.domain().clock.now();
                        out.push(ServerMessage::Clock(ClockState::of(&view, now)).to_text());
                    }
                }
                Some(since) => {
                    out.push(error("invalid", format!("since_ply {since} is not a ply of this game")));
                    self.full_state(&view, &mut out);
                }
                None => self.full_state(&view, &mut out),
            },
            Err(error) => {
                tracing::warn!(game.id = self.game_id, %error, "live: cannot read the game");
                return;
            }
        }
        // A signed-in socket hears its unread notification count (#17).
        let mut account = self.me.as_ref().map(|me| self.hub.subscribe_account(me.id));
        if let Some(me) = &self.me {
            if let Ok(unread) = crate::storage::notifications::unread(&self.hub.domain().pool, me.id).await {
                out.push(ServerMessage::Notifications { unread }.to_text());
            }
        }
        let idle = Duration::from_secs(self.hub.settings().idle_timeout_seconds.max(1));
        let mut closing = self.hub.closing();
        loop {
            for text in out.drain(..) {
                if sink.send(Message::Text(text.into())).await.is_err() {
                    return;
                }
            }
            tokio::select! {
                // The server stops: the client reconnects (to another instance behind a
                // load balancer) and resumes from its ply (docs/live-protocol.md).
                Ok(()) = async { closing.wait_for(|closing| *closing).await.map(|_| ()) } => {
                    let close = CloseFrame { code: 1001, reason: "server restarting".into() };
                    let _ = sink.send(Message::Close(Some(close))).await;
                    return;
                }
                frame = tokio::time::timeout(idle, stream.next()) => match frame {
                    Err(_) => {
                        let close = CloseFrame { code: 1001, reason: "idle timeout".into() };
                        let _ = sink.send(Message::Close(Some(close))).await;
                        return;
                    }
                    Ok(None | Some(Err(_)) | Some(Ok(Message::Close(_)))) => return,
                    Ok(Some(Ok(message @ (Message::Text(_) | Message::Binary(_))))) => {
                        if self.rate.check().is_ok() {
                            self.refused_in_a_row = 0;
                            match message {
                                Message::Text(text) => self.handle(text.as_str(), &mut out).await,
                                _ => out.push(error("malformed", "send JSON text frames".to_owned())),
                            }
                        } else {
                            self.refused_in_a_row += 1;
                            if self.refused_in_a_row > self.hub.settings().message_burst {
                                let close = CloseFrame { code: 1008, reason: "too many messages".into() };
                                let _ = sink.send(Message::Close(Some(close))).await;
                                return;
                            }
                            let per_second = self.hub.settings().messages_per_second;
                            out.push(error(
                                "rate_limited",
                                format!("at most {per_second} messages a second: this one was dropped"),
                            ));
                        }
                    }
                    // Pings are answered by the WebSocket layer; they keep the socket alive.
                    Ok(Some(Ok(Message::Ping(_) | Message::Pong(_)))) => {}
                },
                cut = async {
                    match disabled.as_mut() {
                        Some(receiver) => receiver.recv().await,
                        None => std::future::pending().await,
                    }
                } => {
                    let mine = match cut {
                        Ok(account_id) => self.me.as_ref().is_some_and(|me| me.id == account_id),
                        // Too many disabled at once to tell: the database knows.
                        Err(RecvError::Lagged(_)) => self.account_disabled().await,
                        Err(RecvError::Closed) => {
                            disabled = None;
                            false
                        }
                    };
                    if mine {
                        for text in out.drain(..) {
                            let _ = sink.send(Message::Text(text.into())).await;
                        }
                        close_disabled(&mut sink).await;
                        return;
                    }
                }
                Some(unread) = async {
                    match account.as_mut() {
                        Some(account) => account.recv().await,
                        None => std::future::pending().await,
                    }
                } => out.push(ServerMessage::Notifications { unread }.to_text()),
                event = subscription.recv() => match event {
                    Ok(RoomEvent::Changed(view)) => {
                        self.apply(&view, &mut out);
                    }
                    Ok(RoomEvent::Watchers(count)) => {
                        out.push(ServerMessage::Watchers { count }.to_text());
                    }
                    Err(RecvError::Lagged(_)) => {
                        out.push(ServerMessage::Resync { reason: "too far behind" }.to_text());
                        match games::view(self.hub.domain(), self.game_id).await {
                            Ok(view) => self.full_state(&view, &mut out),
                            Err(_) => return,
                        }
                    }
                    Err(RecvError::Closed) => return,
                },
            }
        }
    }

    /// Whether this socket's account is disabled now (never for a spectator).
    async fn account_disabled(&self) -> bool {
        let Some(me) = &self.me else { return false };
        crate::storage::accounts::is_disabled(&self.hub.domain().pool, me.id).await.unwrap_or(false)
    }

    /// The full state; afterwards only changes are sent.
    fn full_state(&mut self, view: &GameView, out: &mut Vec<String>) {
        let now = self.hub.domain().clock.now();
        out.push(
            ServerMessage::State {
                game: view,
                you: self.seat,
                watchers: self.hub.watchers(self.game_id),
                clock: ClockState::of(view, now),
            }
            .to_text(),
        );
        self.last_ply = view.ply;
        self.draw_offer = view.draw_offer_seat;
        self.result_sent = view.status != GameStatus::Active;
        self.seat_statuses = view.seats.iter().map(|s| s.status).collect();
    }

    /// The events this socket has not seen yet in `view` (older states are ignored).
    /// Whether a `clock` event was among them.
    fn apply(&mut self, view: &GameView, out: &mut Vec<String>) -> bool {
        if view.ply < self.last_ply {
            return false;
        }
        let mut clock_changed = false;
        // A view read while another move commits may list a move past its own ply (its
        // statements see different snapshots): that move is sent with the next view,
        // never twice.
        for played in view.moves.iter().filter(|m| m.ply > self.last_ply && m.ply <= view.ply) {
            let latest = played.ply == view.ply;
            out.push(
                ServerMessage::Move {
                    played,
                    position: latest.then_some(view.position.as_str()),
                    legal_moves: latest.then_some(view.legal_moves.as_slice()),
                }
                .to_text(),
            );
            clock_changed = true;
        }
        self.last_ply = view.ply;
        if view.draw_offer_seat != self.draw_offer {
            self.draw_offer = view.draw_offer_seat;
            out.push(ServerMessage::DrawOffer { seat: view.draw_offer_seat }.to_text());
        }
        let statuses: Vec<&'static str> = view.seats.iter().map(|s| s.status).collect();
        if statuses != self.seat_statuses {
            self.seat_statuses = statuses;
            clock_changed = true;
            out.push(ServerMessage::Seats { seats: &view.seats }.to_text());
        }
        let over = view.status != GameStatus::Active;
        if over && !self.result_sent {
            self.result_sent = true;
            clock_changed = true;
            out.push(
                ServerMessage::Result {
                    status: view.status,
                    result: view.result.as_ref(),
                    reason: view.reason,
                    ruling: view.ruling.as_ref(),
                }
                .to_text(),
            );
        }
        if clock_changed {
            out.push(ServerMessage::Clock(ClockState::of(view, self.hub.domain().clock.now())).to_text());
        }
        clock_changed
    }

    /// One client message.
    async fn handle(&mut self, text: &str, out: &mut Vec<String>) {
        let limit = self.hub.settings().max_message_bytes;
        if text.len() > limit {
            out.push(error("too_large", format!("messages are at most {limit} bytes")));
            return;
        }
        let message: ClientMessage = match serde_json::from_str(text) {
            Ok(message) => message,
            Err(e) => {
                out.push(error("malformed", format!("unreadable message: {e}")));
                return;
            }
        };
        // Text here enters as it does through the REST API's bodies: NUL is refused.
        if crate::http::extract::json_holds_nul(text.as_bytes()) {
            out.push(error("malformed", "a message holds no NUL character (\\u0000)".to_owned()));
            return;
        }
        let action = match message {
            ClientMessage::Ping { id } => {
                let server_time = self.hub.domain().clock.now();
                out.push(ServerMessage::Pong { id, server_time }.to_text());
                return;
            }
            ClientMessage::Resync => {
                match games::view(self.hub.domain(), self.game_id).await {
                    Ok(view) => self.full_state(&view, out),
                    Err(e) => out.push(domain_error(&e)),
                }
                return;
            }
            other => other,
        };
        let Some(account_id) = self.me.as_ref().map(|me| me.id) else {
            out.push(error("unauthorized", "sign in to play: spectators may only watch".to_owned()));
            return;
        };
        let domain = self.hub.domain();
        let game_id = self.game_id;
        let done = match action {
            ClientMessage::Move { text, ply } => {
                games::submit_move(domain, game_id, account_id, &text, ply).await
            }
            ClientMessage::Resign => games::resign(domain, game_id, account_id).await,
            ClientMessage::Draw { action: DrawAction::Offer } => {
                games::offer_draw(domain, game_id, account_id).await
            }
            ClientMessage::Draw { action: DrawAction::Accept } => {
                games::accept_draw(domain, game_id, account_id).await
            }
            ClientMessage::Draw { action: DrawAction::Decline } => {
                games::decline_draw(domain, game_id, account_id).await
            }
            ClientMessage::Ping { .. } | ClientMessage::Resync => return,
        };
        // On success the domain handed the new state to the local sockets (this one
        // included) at once, and to the other instances through NOTIFY.
        if let Err(e) = done {
            out.push(domain_error(&e));
        }
    }
}

/// Tells a socket whose account was disabled why it closes (an `error` event, then close
/// code 1008, policy violation), so that no move of the account is taken any more.
async fn close_disabled<S>(sink: &mut S)
where
    S: SinkExt<Message> + Unpin,
{
    let _ = sink
        .send(Message::Text(
            error("account_disabled", "this account has been disabled: it can no longer play".to_owned())
                .into(),
        ))
        .await;
    let _ =
        sink.send(Message::Close(Some(CloseFrame { code: 1008, reason: "account disabled".into() }))).await;
}

/// The sockets open on this instance per client address (IPv6: per /64) and per
/// account.
#[derive(Debug, Default)]
pub struct SocketCounts {
    counts: Mutex<SocketCountMaps>,
}

#[derive(Debug, Default)]
struct SocketCountMaps {
    by_address: HashMap<IpAddr, usize>,
    by_account: HashMap<i64, usize>,
}

/// How long a client refused for too many sockets is told to wait: sockets close at no
/// foreseeable time, so a short while.
const SOCKETS_RETRY_AFTER_SECONDS: u64 = 10;

impl SocketCounts {
    /// The sockets open on this instance.
    pub fn total(&self) -> usize {
        self.lock().by_address.values().sum()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, SocketCountMaps> {
        self.counts.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Counts a socket from `address` (signed in as `account`), or refuses it when either
    /// has as many open as `settings` allow.
    ///
    /// # Errors
    /// 429 with `Retry-After`.
    pub fn admit(
        self: &Arc<Self>,
        settings: &crate::config::LiveSettings,
        address: IpAddr,
        account: Option<i64>,
    ) -> Result<SocketPermit, ApiError> {
        let address = address_group(address);
        let mut counts = self.lock();
        if counts.by_address.get(&address).copied().unwrap_or(0) >= settings.max_sockets_per_address {
            return Err(ApiError::too_many_requests(
                format!("at most {} live sockets at once from one address", settings.max_sockets_per_address),
                SOCKETS_RETRY_AFTER_SECONDS,
            ));
        }
        if let Some(account) = account {
            if counts.by_account.get(&account).copied().unwrap_or(0) >= settings.max_sockets_per_account {
                return Err(ApiError::too_many_requests(
                    format!("at most {} live sockets at once per account", settings.max_sockets_per_account),
                    SOCKETS_RETRY_AFTER_SECONDS,
                ));
            }
            *counts.by_account.entry(account).or_default() += 1;
        }
        *counts.by_address.entry(address).or_default() += 1;
        Ok(SocketPermit { counts: Arc::clone(self), address, account })
    }
}

/// A socket counted by [`SocketCounts::admit`]; uncounted on drop.
#[derive(Debug)]
pub struct SocketPermit {
    counts: Arc<SocketCounts>,
    address: IpAddr,
    account: Option<i64>,
}

impl Drop for SocketPermit {
    fn drop(&mut self) {
        let mut counts = self.counts.lock();
        if let Some(open) = counts.by_address.get_mut(&self.address) {
            *open -= 1;
            if *open == 0 {
                counts.by_address.remove(&self.address);
            }
        }
        if let Some(account) = self.account {
            if let Some(open) = counts.by_account.get_mut(&account) {
                *open -= 1;
                if *open == 0 {
                    counts.by_account.remove(&account);
                }
            }
        }
    }
}

fn error(code: &'static str, message: String) -> String {
    ServerMessage::Error { code, message, errors: None }.to_text()
}

/// A refused action: the protocol's coarse `code` (`conflict`, `invalid`...), the
/// sentence, and the REST error shape's `errors` with the error's own code (issue 15 §6:
/// the same code over every transport).
fn domain_error(e: &DomainError) -> String {
    let code = match e.kind() {
        ErrorKind::Invalid => "invalid",
        ErrorKind::NotFound => "not_found",
        ErrorKind::Unauthenticated => "unauthorized",
        ErrorKind::Forbidden => "forbidden",
        ErrorKind::Conflict => "conflict",
        ErrorKind::RateLimited => "rate_limited",
        ErrorKind::Unavailable => "unavailable",
        ErrorKind::Internal => {
            tracing::error!(error = %e, "live: internal error");
            return error("internal", "internal error".to_owned());
        }
    };
    let described = ApiError::describe(e);
    let errors = described.body()["errors"].take();
    ServerMessage::Error { code, message: described.detail().to_owned(), errors: Some(errors) }.to_text()
}
