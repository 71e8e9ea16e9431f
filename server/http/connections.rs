//! The HTTP listener and the limits of its connections (issue 36 §1).
//!
//! `axum::serve` keeps a connection for as long as its client likes: one that sends
//! nothing, or half a request line, stays open for ever, and some thousands of them (from
//! as many addresses) used up the process's file descriptors, after which nothing worked,
//! not even reading the cluster's pid file. So connections are served here by hyper
//! directly, with:
//!
//! - a header timeout: a request's head must arrive within
//!   `application.header_timeout_seconds` of the connection's opening or of the previous
//!   answer on it (hyper's `header_read_timeout`, whose timer also runs while a kept-alive
//!   connection waits for its next request: an idle connection is closed as late);
//! - a write timeout: a client that takes nothing of what is written to it (an answer, a
//!   live socket's events) for `application.write_timeout_seconds` loses the connection;
//! - a cap on the connections open at once, live sockets included
//!   (`application.max_connections`; by default the open-file limit less a reserve for
//!   the database connections, files and the cluster's supervision: see [`automatic_cap`]);
//! - a cap per client address (`application.max_connections_per_address`), counted by the
//!   socket's peer, IPv6 by /64 as every limit of the server.
//!
//! At the cap a newcomer is neither refused nor kept waiting while some connection is
//! idle (no request in flight: silent since it opened, or kept alive after its answer):
//! the connection idle longest is closed for it. A flood of silent connections from many
//! addresses therefore cannot shut the other clients out (each newcomer takes the place of
//! the oldest silent one, and the header timeout ends the rest), and it never costs the
//! process its last file descriptors. A connection with a request in flight and a live
//! socket are never closed for a newcomer; when nothing is idle the newcomer is refused
//! (the connection closed at once).

use std::collections::{BTreeSet, HashMap};
use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;
use tower::ServiceExt;

use super::limits::address_group;

/// Descriptors kept out of the automatic cap besides the database connections: the
/// files the server reads and writes (templates are built in; the cluster's pid and log
/// files, the lock files, backups), the pipes of the commands it runs (`pg_ctl`), the SMTP
/// relay's connections, the metrics listener, tokio's own.
const RESERVED_DESCRIPTORS: usize = 256;

/// Connections that were told to close for a newcomer but have not yet closed: beyond
/// this many, newcomers are refused rather than let the count run past the cap.
const MAX_CLOSING: usize = 64;

/// How long the accept loop waits, at most, for connections closing to make room before it
/// refuses a newcomer. A flood's connections, accepted faster than the ones they replace
/// finish closing on a busy machine, would otherwise get the next client (a player)
/// refused although room is being made; the kernel's backlog holds the others meanwhile.
const CLOSING_WAIT: Duration = Duration::from_millis(500);

/// How often a refusal is logged at most (a flood would otherwise flood the log too).
const LOG_REFUSALS_EVERY: Duration = Duration::from_secs(10);

/// The limits of the listener's connections.
#[derive(Clone, Copy, Debug)]
pub struct ConnectionLimits {
    /// Connections open at once.
    pub max_connections: usize,
    /// Connections open at once per client address (IPv6: per /64); `None`: no cap.
    pub max_per_address: Option<usize>,
    /// The time a request's head has to arrive (and an idle connection to stay open).
    pub header_timeout: Duration,
    /// The time a write may stay blocked on a client that reads nothing.
    pub write_timeout: Duration,
}

impl ConnectionLimits {
    /// The limits `settings` give, the automatic cap computed from the process's
    /// open-file limit.
    pub fn from_settings(settings: &crate::config::Settings) -> ConnectionLimits {
        let application = &settings.application;
        let max_connections = match application.max_connections {
            0 => automatic_cap(open_file_limit(), database_descriptors(settings)),
            configured => configured,
        };
        // Behind a proxy every connection comes from the proxy's address.
        let max_per_address =
            match (application.max_connections_per_address, &application.client_address_header) {
                (0, _) => None,
                (_, Some(header)) if !header.trim().is_empty() => None,
                (cap, _) => Some(cap),
            };
        ConnectionLimits {
            max_connections,
            max_per_address,
            header_timeout: Duration::from_secs(application.header_timeout_seconds.max(1)),
            write_timeout: Duration::from_secs(application.write_timeout_seconds.max(1)),
        }
    }
}

/// The process's soft open-file limit (the server raises it to the hard one at start).
pub fn open_file_limit() -> usize {
    match rlimit::getrlimit(rlimit::Resource::NOFILE) {
        Ok((soft, _)) => usize::try_from(soft).unwrap_or(usize::MAX),
        // Unknown: assume the common default.
        Err(_) => 1024,
    }
}

/// The descriptors the database takes: the pool and the move's fast path.
fn database_descriptors(settings: &crate::config::Settings) -> usize {
    settings.database.max_connections as usize + settings.database.move_connections
}

/// The connections allowed at once with `open_files` descriptors of which `database`
/// go to the database: what is left after those and [`RESERVED_DESCRIPTORS`], and never
/// fewer than 16 (a limit so low that nothing is left is the operator's to raise; the
/// start log says what it is).
pub fn automatic_cap(open_files: usize, database: usize) -> usize {
    open_files.saturating_sub(database + RESERVED_DESCRIPTORS).max(16)
}

/// The connections of one listener: how many are open, from where, and which are idle.
#[derive(Debug)]
pub struct Connections {
    limits: ConnectionLimits,
    table: Mutex<Table>,
    last_refusal_logged: AtomicU64,
    started: Instant,
    /// Told when the last served connection closes (the end of a shutdown).
    served_closed: tokio::sync::Notify,
}

#[derive(Debug, Default)]
struct Table {
    /// Connections whose socket is open (served, or upgraded to a live socket).
    open: usize,
    /// Those of `open` told to close for a newcomer and not yet closed.
    closing: usize,
    by_address: HashMap<IpAddr, usize>,
    next_id: u64,
    /// The connections hyper serves (not the upgraded ones), by id.
    served: HashMap<u64, Served>,
    /// The idle ones among `served`, the longest idle first.
    idle: BTreeSet<(Instant, u64)>,
}

#[derive(Debug)]
struct Served {
    /// Requests in flight (their answers not yet written out).
    in_flight: usize,
    /// Since when the connection has had no request in flight (`None` while it has).
    idle_since: Option<Instant>,
    /// Closes the connection for a newcomer.
    close: Option<oneshot::Sender<()>>,
    /// Shared with the connection's [`Slot`]: set once it is told to close.
    closing: Arc<AtomicBool>,
}

/// Why a connection was not taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Its address has as many connections open as allowed.
    Address,
    /// The listener has as many open as allowed and none is idle.
    Full,
    /// The listener is at its cap and [`MAX_CLOSING`] connections are closing to make room:
    /// the newcomer may wait a moment for them (the accept loop does, [`CLOSING_WAIT`]).
    Closing,
}

impl Refusal {
    fn label(self) -> &'static str {
        match self {
            Refusal::Address => "address",
            Refusal::Full | Refusal::Closing => "full",
        }
    }
}

/// A connection counted by [`Connections::admit`].
#[derive(Debug)]
pub struct Admitted {
    /// Held by the socket itself: the connection counts as open until the socket closes,
    /// even after an upgrade to a live socket.
    pub slot: Slot,
    /// Held by the task serving the connection over HTTP.
    pub served: ServedGuard,
    /// Fires when the connection is closed for a newcomer.
    pub closed_for_newcomer: oneshot::Receiver<()>,
}

impl Connections {
    /// No connection yet, under `limits`.
    pub fn new(limits: ConnectionLimits) -> Arc<Connections> {
        Arc::new(Connections {
            limits,
            table: Mutex::new(Table::default()),
            last_refusal_logged: AtomicU64::new(0),
            started: Instant::now(),
            served_closed: tokio::sync::Notify::new(),
        })
    }

    /// The limits in force.
    pub fn limits(&self) -> ConnectionLimits {
        self.limits
    }

    /// The connections open now.
    pub fn open(&self) -> usize {
        self.lock().open
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Returns once no connection is served over HTTP (upgraded ones do not count).
    async fn all_served_closed(&self) {
        loop {
            let closed = self.served_closed.notified();
            if self.lock().served.is_empty() {
                return;
            }
            closed.await;
        }
    }

    /// Counts a new connection from `address`, closing the connection idle longest when
    /// the cap is reached, or refuses it.
    ///
    /// # Errors
    /// The address's cap is reached, or the listener's with no idle connection to close.
    pub fn admit(self: &Arc<Self>, address: IpAddr) -> Result<Admitted, Refusal> {
        let group = address_group(address);
        let now = Instant::now();
        let mut table = self.lock();
        if let Some(cap) = self.limits.max_per_address {
            if table.by_address.get(&group).copied().unwrap_or(0) >= cap {
                return Err(Refusal::Address);
            }
        }
        if table.open - table.closing >= self.limits.max_connections {
            if table.closing >= MAX_CLOSING {
                return Err(Refusal::Closing);
            }
            let Some((_, oldest)) = table.idle.pop_first() else {
                return Err(Refusal::Full);
            };
            if let Some(mut served) = table.served.remove(&oldest) {
                served.closing.store(true, Ordering::Relaxed);
                if let Some(close) = served.close.take() {
                    let _ = close.send(());
                }
                table.closing += 1;
                metrics::counter!("tavoliere_http_connections_closed_total", "reason" => "newcomer")
                    .increment(1);
            }
        }
        table.open += 1;
        *table.by_address.entry(group).or_default() += 1;
        let id = table.next_id;
        table.next_id += 1;
        let (close, closed_for_newcomer) = oneshot::channel();
        let closing = Arc::new(AtomicBool::new(false));
        table.served.insert(
            id,
            Served { in_flight: 0, idle_since: Some(now), close: Some(close), closing: Arc::clone(&closing) },
        );
        table.idle.insert((now, id));
        metrics::gauge!("tavoliere_http_connections").set(table.open as f64);
        drop(table);
        Ok(Admitted {
            slot: Slot { connections: Arc::clone(self), group, closing },
            served: ServedGuard { connections: Arc::clone(self), id },
            closed_for_newcomer,
        })
    }

    /// Counts a refusal and logs it, at most once every [`LOG_REFUSALS_EVERY`].
    fn refused(&self, refusal: Refusal, address: IpAddr) {
        metrics::counter!("tavoliere_http_connections_refused_total", "reason" => refusal.label())
            .increment(1);
        let now = self.started.elapsed().as_secs();
        let last = self.last_refusal_logged.load(Ordering::Relaxed);
        if (last == 0 || now >= last + LOG_REFUSALS_EVERY.as_secs())
            && self
                .last_refusal_logged
                .compare_exchange(last, now.max(1), Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
        {
            match refusal {
                Refusal::Address => tracing::warn!(
                    %address,
                    cap = ?self.limits.max_per_address,
                    "connections refused: too many open from one address (logged once every 10 s at most)"
                ),
                Refusal::Full | Refusal::Closing => tracing::warn!(
                    cap = self.limits.max_connections,
                    "connections refused: the listener's cap is reached and none is idle (logged once every 10 s at most)"
                ),
            }
        }
    }

    /// A request starts on connection `id`: it is no longer idle.
    fn busy(self: &Arc<Self>, id: u64) -> Busy {
        let mut table = self.lock();
        let Table { served, idle, .. } = &mut *table;
        if let Some(entry) = served.get_mut(&id) {
            entry.in_flight += 1;
            if let Some(since) = entry.idle_since.take() {
                idle.remove(&(since, id));
            }
        }
        Busy { connections: Arc::clone(self), id }
    }
}

/// One open socket, counted until it closes.
#[derive(Debug)]
pub struct Slot {
    connections: Arc<Connections>,
    group: IpAddr,
    closing: Arc<AtomicBool>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut table = self.connections.lock();
        table.open -= 1;
        if self.closing.load(Ordering::Relaxed) {
            table.closing -= 1;
        }
        if let Some(open) = table.by_address.get_mut(&self.group) {
            *open -= 1;
            if *open == 0 {
                table.by_address.remove(&self.group);
            }
        }
        metrics::gauge!("tavoliere_http_connections").set(table.open as f64);
    }
}

/// A connection while hyper serves it (it leaves on an upgrade, keeping its [`Slot`]).
#[derive(Debug)]
pub struct ServedGuard {
    connections: Arc<Connections>,
    id: u64,
}

impl Drop for ServedGuard {
    fn drop(&mut self) {
        let mut table = self.connections.lock();
        if let Some(served) = table.served.remove(&self.id) {
            if let Some(since) = served.idle_since {
                table.idle.remove(&(since, self.id));
            }
        }
        if table.served.is_empty() {
            self.connections.served_closed.notify_waiters();
        }
    }
}

/// A request in flight on a connection, until its answer is written out.
#[derive(Debug)]
struct Busy {
    connections: Arc<Connections>,
    id: u64,
}

impl Drop for Busy {
    fn drop(&mut self) {
        let mut table = self.connections.lock();
        let now = Instant::now();
        let Table { served, idle, .. } = &mut *table;
        if let Some(entry) = served.get_mut(&self.id) {
            entry.in_flight -= 1;
            if entry.in_flight == 0 {
                entry.idle_since = Some(now);
                idle.insert((now, self.id));
            }
        }
    }
}

/// An answer's body, holding its connection busy until it is written out (or dropped).
struct UntilWritten {
    body: Body,
    _busy: Busy,
}

impl http_body::Body for UntilWritten {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.body.size_hint()
    }
}

/// A socket counted by its [`Slot`], whose writes fail once they have been blocked for
/// the write timeout (a client that reads nothing would otherwise hold its connection,
/// and the answer's memory, for ever).
pub struct Guarded<S> {
    stream: S,
    _slot: Option<Slot>,
    write_timeout: Duration,
    stalled: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl<S> Guarded<S> {
    /// `stream`, counted by `slot`, its writes timing out after `write_timeout`.
    pub fn new(stream: S, slot: Option<Slot>, write_timeout: Duration) -> Guarded<S> {
        Guarded { stream, _slot: slot, write_timeout, stalled: None }
    }

    /// After a write found the socket full: an error once it has stayed full for the
    /// write timeout (the timer starts at the first such write, and a write that goes
    /// through stops it).
    fn check_stall(&mut self, cx: &mut Context<'_>) -> Poll<io::Error> {
        let write_timeout = self.write_timeout;
        let stalled = self.stalled.get_or_insert_with(|| Box::pin(tokio::time::sleep(write_timeout)));
        match stalled.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client read nothing for the write timeout",
            )),
            Poll::Pending => Poll::Pending,
        }
    }

    fn written<T>(&mut self, cx: &mut Context<'_>, result: Poll<io::Result<T>>) -> Poll<io::Result<T>> {
        match result {
            Poll::Pending => match self.check_stall(cx) {
                Poll::Ready(error) => Poll::Ready(Err(error)),
                Poll::Pending => Poll::Pending,
            },
            ready => {
                self.stalled = None;
                ready
            }
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Guarded<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Guarded<S> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let result = Pin::new(&mut self.stream).poll_write(cx, buf);
        self.written(cx, result)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let result = Pin::new(&mut self.stream).poll_write_vectored(cx, bufs);
        self.written(cx, result)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let result = Pin::new(&mut self.stream).poll_flush(cx);
        self.written(cx, result)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

/// [`Connections::admit`], waiting up to [`CLOSING_WAIT`] while connections closing for
/// earlier newcomers make room.
async fn admit_waiting_for_closings(
    connections: &Arc<Connections>,
    peer: IpAddr,
) -> Result<Admitted, Refusal> {
    let started = Instant::now();
    loop {
        match connections.admit(peer) {
            Err(Refusal::Closing) if started.elapsed() < CLOSING_WAIT => {
                tokio::time::sleep(Duration::from_millis(2)).await;
            }
            other => return other,
        }
    }
}

/// Serves `router` on `listener` under the limits of `connections` until `shutdown`
/// completes; then takes no new connection, lets the open requests finish and closes the
/// idle connections (live sockets, no longer HTTP's, are left to their own shutdown), and
/// returns once every served connection has closed.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    connections: Arc<Connections>,
    shutdown: impl Future<Output = ()>,
) {
    let (stopping, stop) = tokio::sync::watch::channel(false);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new()).header_read_timeout(connections.limits.header_timeout);
    let http = Arc::new(http);
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    accept_failed(&error).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let admitted = match admit_waiting_for_closings(&connections, peer.ip()).await {
            Ok(admitted) => admitted,
            Err(refusal) => {
                // Dropping the stream closes it at once.
                connections.refused(refusal, peer.ip());
                continue;
            }
        };
        // Small writes go out at once (no Nagle delay): a live move's frame, an answer
        // written in parts.
        if let Err(error) = stream.set_nodelay(true) {
            tracing::debug!(%error, "cannot set TCP_NODELAY on a connection");
        }
        tokio::spawn(serve_connection(
            stream,
            peer,
            admitted,
            router.clone(),
            Arc::clone(&connections),
            Arc::clone(&http),
            stop.clone(),
        ));
    }
    drop(listener);
    let _ = stopping.send(true);
    connections.all_served_closed().await;
}

async fn serve_connection(
    stream: TcpStream,
    peer: SocketAddr,
    admitted: Admitted,
    router: Router,
    connections: Arc<Connections>,
    http: Arc<hyper::server::conn::http1::Builder>,
    mut stop: tokio::sync::watch::Receiver<bool>,
) {
    let Admitted { slot, served, closed_for_newcomer } = admitted;
    let id = served.id;
    let io = TokioIo::new(Guarded::new(stream, Some(slot), connections.limits.write_timeout));
    let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
        request.extensions_mut().insert(ConnectInfo(peer));
        let busy = connections.busy(id);
        let router = router.clone();
        async move {
            let response = match router.oneshot(request).await {
                Ok(response) => response,
                Err(never) => match never {},
            };
            Ok::<_, Infallible>(response.map(|body| UntilWritten { body, _busy: busy }))
        }
    });
    let mut connection = std::pin::pin!(http.serve_connection(io, service).with_upgrades());
    let mut closed_for_newcomer = closed_for_newcomer;
    let mut stopping = false;
    loop {
        tokio::select! {
            served = connection.as_mut() => {
                if let Err(error) = served {
                    tracing::debug!(%error, %peer, "connection ended with an error");
                }
                break;
            }
            Ok(()) = &mut closed_for_newcomer => {
                tracing::debug!(%peer, "idle connection closed for a newcomer");
                break;
            }
            // Shutdown: the request in flight is answered, then the connection closes (at
            // once when idle).
            changed = stop.wait_for(|stop| *stop), if !stopping => {
                stopping = true;
                if changed.is_ok() {
                    connection.as_mut().graceful_shutdown();
                }
            }
        }
    }
    drop(served);
}

/// The layer ending a request that takes longer than `limit` (a body sent a byte at a
/// time, say) with 408 in the one error shape. The header timeout covers the head only.
pub async fn within_request_timeout(
    axum::extract::State(limit): axum::extract::State<Duration>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    match tokio::time::timeout(limit, next.run(request)).await {
        Ok(response) => response,
        Err(_) => {
            metrics::counter!("tavoliere_http_request_timeouts_total").increment(1);
            super::error::ApiError::new(
                axum::http::StatusCode::REQUEST_TIMEOUT,
                format!("the request was not complete within {} s", limit.as_secs()),
            )
            .into_response()
        }
    }
}

/// After a failed `accept`: out of descriptors (or memory) needs a pause, or the loop
/// would spin; anything else concerned only the connection being accepted.
async fn accept_failed(error: &io::Error) {
    let exhausted =
        matches!(error.raw_os_error(), Some(libc::EMFILE | libc::ENFILE | libc::ENOBUFS | libc::ENOMEM));
    if exhausted {
        metrics::counter!("tavoliere_http_accept_errors_total").increment(1);
        tracing::error!(%error, "cannot accept a connection: out of descriptors or memory; pausing 100 ms");
        tokio::time::sleep(Duration::from_millis(100)).await;
    } else {
        tracing::debug!(%error, "accepting a connection failed");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    fn limits(max_connections: usize, max_per_address: Option<usize>) -> ConnectionLimits {
        ConnectionLimits {
            max_connections,
            max_per_address,
            header_timeout: Duration::from_secs(10),
            write_timeout: Duration::from_secs(30),
        }
    }

    fn address(last: u8) -> IpAddr {
        IpAddr::from([127, 0, 0, last])
    }

    #[test]
    fn the_automatic_cap_leaves_the_database_and_a_reserve_their_descriptors() {
        assert_eq!(automatic_cap(20_000, 22), 20_000 - 22 - RESERVED_DESCRIPTORS);
        assert_eq!(automatic_cap(1024, 22), 1024 - 22 - RESERVED_DESCRIPTORS);
        assert_eq!(automatic_cap(100, 22), 16);
    }

    #[test]
    fn an_address_at_its_cap_is_refused_and_others_are_not() {
        let connections = Connections::new(limits(100, Some(2)));
        let _first = connections.admit(address(1)).unwrap();
        let _second = connections.admit(address(1)).unwrap();
        assert_eq!(connections.admit(address(1)).unwrap_err(), Refusal::Address);
        let _other = connections.admit(address(2)).unwrap();
        assert_eq!(connections.open(), 3);
    }

    #[tokio::test]
    async fn a_newcomer_waits_for_the_connections_closing_to_make_room_rather_than_being_refused() {
        // At the cap, with MAX_CLOSING connections told to close and not yet closed (their
        // tasks lag on a busy machine), the next newcomer is not refused at once: it is
        // admitted as soon as one of them has closed.
        let connections = Connections::new(limits(MAX_CLOSING, None));
        let mut older: Vec<Admitted> =
            (0..MAX_CLOSING).map(|_| connections.admit(address(1)).unwrap()).collect();
        let newcomers: Vec<Admitted> =
            (0..MAX_CLOSING).map(|_| connections.admit(address(2)).unwrap()).collect();
        assert!(older.iter_mut().all(|old| old.closed_for_newcomer.try_recv().is_ok()), "all told to close");
        assert_eq!(connections.admit(address(3)).unwrap_err(), Refusal::Closing);
        let closing = older.pop().unwrap();
        let waiting = tokio::spawn({
            let connections = Arc::clone(&connections);
            async move { admit_waiting_for_closings(&connections, address(3)).await.map(|_| ()) }
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
        drop(closing);
        assert_eq!(waiting.await.unwrap(), Ok(()), "admitted once room was made");
        drop((older, newcomers));
    }

    #[test]
    fn at_the_cap_the_connection_idle_longest_is_closed_for_a_newcomer() {
        let connections = Connections::new(limits(2, None));
        let mut oldest = connections.admit(address(1)).unwrap();
        let mut second = connections.admit(address(2)).unwrap();
        let newcomer = connections.admit(address(3)).expect("the oldest idle one makes room");
        assert_eq!(oldest.closed_for_newcomer.try_recv(), Ok(()), "the oldest is told to close");
        assert!(second.closed_for_newcomer.try_recv().is_err(), "the other stays");
        // Until its socket closes, the closed one still counts as open.
        assert_eq!(connections.open(), 3);
        drop(oldest);
        assert_eq!(connections.open(), 2);
        drop((second, newcomer));
        assert_eq!(connections.open(), 0);
    }

    #[test]
    fn a_connection_with_a_request_in_flight_is_never_closed_for_a_newcomer() {
        let connections = Connections::new(limits(2, None));
        let mut working = connections.admit(address(1)).unwrap();
        let busy = connections.busy(working.served.id);
        let mut idle = connections.admit(address(2)).unwrap();
        let newcomer = connections.admit(address(3)).unwrap();
        assert!(working.closed_for_newcomer.try_recv().is_err(), "the busy one, though older, stays");
        assert_eq!(idle.closed_for_newcomer.try_recv(), Ok(()));
        drop(idle);
        let _newcomer_busy = connections.busy(newcomer.served.id);
        // Nothing idle is left: the next newcomer is refused.
        assert_eq!(connections.admit(address(4)).unwrap_err(), Refusal::Full);
        // Once its answer is written, the working connection is idle and can make room.
        drop(busy);
        assert!(connections.admit(address(4)).is_ok());
        assert_eq!(working.closed_for_newcomer.try_recv(), Ok(()));
    }

    #[test]
    fn an_upgraded_connection_keeps_its_slot_but_is_never_closed_for_a_newcomer() {
        let connections = Connections::new(limits(1, None));
        let Admitted { slot, served, closed_for_newcomer: _ } = connections.admit(address(1)).unwrap();
        // hyper hands the socket over: the serving task ends, the socket lives on.
        drop(served);
        assert_eq!(connections.open(), 1);
        assert_eq!(connections.admit(address(2)).unwrap_err(), Refusal::Full);
        drop(slot);
        assert!(connections.admit(address(2)).is_ok());
    }

    #[tokio::test]
    async fn a_write_blocked_for_the_write_timeout_fails() {
        let (server, client) = tokio::io::duplex(64);
        let mut guarded = Guarded::new(server, None, Duration::from_millis(100));
        // The client reads nothing: the 64-byte pipe fills and the write blocks, then fails.
        let error = guarded.write_all(&[0u8; 1024]).await.unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::TimedOut);
        // A client that reads keeps the connection: the timer stops at each write that goes through.
        let (server, mut reader) = tokio::io::duplex(64);
        let mut guarded = Guarded::new(server, None, Duration::from_millis(100));
        let reading = tokio::spawn(async move {
            let mut received = Vec::new();
            reader.read_to_end(&mut received).await.unwrap();
            received.len()
        });
        guarded.write_all(&[0u8; 1024]).await.unwrap();
        guarded.shutdown().await.unwrap();
        drop(guarded);
        assert_eq!(reading.await.unwrap(), 1024);
        drop(client);
    }
}
