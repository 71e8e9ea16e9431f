//! Fan-out within one instance: one broadcast channel per watched game, fed by the
//! instance's single LISTEN connection; watcher counts over all instances
//! ([`super::presence`]).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{broadcast, watch};

use super::accounts::{
    parse_accounts, AccountChannels, AccountSubscription, DisabledAccounts, NOTIFICATION_CHANNEL,
};
use super::presence::Presence;
use super::socket::SocketCounts;
use crate::config::LiveSettings;
use crate::domain::games::{self, GameView};
use crate::domain::Domain;
use crate::storage::notify::{self, GameChanged, ACCOUNT_DISABLED_CHANNEL, TOKEN_CHANNEL};
use crate::storage::presence::{self, WatchersChanged, WATCHERS_CHANNEL};

/// What a socket hears about its game.
#[derive(Clone, Debug)]
pub enum RoomEvent {
    /// The game changed; this is its state after the change.
    Changed(Arc<GameView>),
    /// The number of sockets watching the game (on every instance) changed.
    Watchers(usize),
}

#[derive(Debug)]
struct Room {
    sender: broadcast::Sender<RoomEvent>,
    /// Serialises the state reads of one game so events go out in commit order.
    fetching: tokio::sync::Mutex<()>,
    /// Sockets on this game at the other instances, as last read.
    others: AtomicUsize,
    /// Serialises the recounts so that the last count sent is the last one read.
    counting: tokio::sync::Mutex<()>,
    /// The latest game revision sent to (or read by) the room's sockets.
    revision: AtomicI64,
    /// A watcher count is scheduled to be sent ([`Hub::announce_watchers`]).
    watchers_due: AtomicBool,
    /// The scheduled count must re-read the other instances' sockets first.
    reread_others: AtomicBool,
    /// When the last watcher count was sent.
    watchers_sent_at: Mutex<Option<tokio::time::Instant>>,
    /// The states read by the sockets that joined before anything was sent to the room
    /// ([`Hub::seen`]).
    first_reads: Mutex<FirstReads>,
}

/// The sockets that joined a room to which nothing was sent yet and did not report the
/// revision they read, and the oldest revision reported meanwhile.
#[derive(Debug, Default)]
struct FirstReads {
    pending: usize,
    oldest: Option<i64>,
}

impl Room {
    fn watchers(&self) -> usize {
        self.others.load(Ordering::Relaxed) + self.sender.receiver_count()
    }

    /// Sends `view` unless the room was sent a later revision (a read that raced a
    /// newer change published meanwhile).
    fn send_newer(&self, view: Arc<GameView>) {
        if self.revision.fetch_max(view.revision, Ordering::Relaxed) <= view.revision {
            let _ = self.sender.send(RoomEvent::Changed(view));
        }
    }
}

impl crate::domain::Watchers for Hub {
    fn watches(&self, game_id: i64) -> bool {
        self.rooms().contains_key(&game_id)
    }

    fn publish(&self, view: Arc<GameView>) {
        Hub::publish(self, view);
    }
}

/// The live games watched on this instance.
#[derive(Debug)]
pub struct Hub {
    domain: Domain,
    rooms: Mutex<HashMap<i64, Arc<Room>>>,
    settings: LiveSettings,
    /// `None` for an instance alone (counts are local).
    presence: Option<Presence>,
    /// The open sockets per client address and per account (their limits).
    sockets: Arc<SocketCounts>,
    /// The signed-in sockets' accounts, told their unread notification count (#17).
    accounts: Arc<AccountChannels>,
    /// The accounts disabled while the sockets run: theirs close.
    disabled: DisabledAccounts,
    /// Bounds the game reads of the catch-up passes ([`Hub::resync_once`],
    /// [`Hub::refresh_all`]), so that a pass finding many games to read leaves the pool's
    /// other connections to the moves.
    catch_up_reads: Arc<tokio::sync::Semaphore>,
    /// Set when the server stops: every socket closes with 1001, so that its client
    /// reconnects (behind a load balancer, to another instance) and resumes.
    closing: tokio::sync::watch::Sender<bool>,
}

/// Game reads a catch-up pass runs at once.
const CATCH_UP_READS: usize = 2;

/// A socket's place in a game's room; leaving happens on drop.
#[derive(Debug)]
pub struct Subscription {
    hub: Arc<Hub>,
    game_id: i64,
    receiver: Option<broadcast::Receiver<RoomEvent>>,
    /// Whether the socket reported the revision it read ([`Subscription::seen`]).
    reported: bool,
}

impl Subscription {
    /// The next event; `Err(Lagged)` when this socket fell more than the queue capacity
    /// behind (it must resync), `Err(Closed)` never happens while subscribed.
    pub async fn recv(&mut self) -> Result<RoomEvent, broadcast::error::RecvError> {
        match self.receiver.as_mut() {
            Some(receiver) => receiver.recv().await,
            None => Err(broadcast::error::RecvError::Closed),
        }
    }

    /// The socket read the game at `revision` itself after joining ([`Hub::seen`]).
    pub fn seen(&mut self, revision: i64) {
        if !std::mem::replace(&mut self.reported, true) {
            self.hub.seen(self.game_id, Some(revision));
        }
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        self.receiver.take();
        if !std::mem::replace(&mut self.reported, true) {
            // Its read failed or never finished: the room cannot count on it.
            self.hub.seen(self.game_id, None);
        }
        self.hub.leave(self.game_id);
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Hub {
    /// A hub whose per-game queues hold `settings.queue_capacity` events per socket and
    /// whose watcher counts are shared with the other instances on the database.
    pub fn new(domain: Domain, settings: LiveSettings) -> Hub {
        let presence = Some(Presence::new(settings.presence_heartbeat_seconds));
        Hub {
            domain,
            rooms: Mutex::new(HashMap::new()),
            settings,
            presence,
            sockets: Arc::default(),
            accounts: Arc::default(),
            disabled: DisabledAccounts::default(),
            catch_up_reads: Arc::new(tokio::sync::Semaphore::new(CATCH_UP_READS)),
            closing: tokio::sync::watch::Sender::new(false),
        }
    }

    /// Closes every socket of this instance (1001, "server restarting"): the server stops.
    pub fn close_sockets(&self) {
        self.closing.send_replace(true);
    }

    /// Tells a socket when to close because the server stops.
    pub fn closing(&self) -> tokio::sync::watch::Receiver<bool> {
        self.closing.subscribe()
    }

    /// A hub that counts only its own sockets and never touches the presence table.
    pub fn alone(domain: Domain, settings: LiveSettings) -> Hub {
        Hub { presence: None, ..Hub::new(domain, settings) }
    }

    /// This instance's part in the shared watcher counts.
    pub fn presence(&self) -> Option<&Presence> {
        self.presence.as_ref()
    }

    /// The limits of the live sockets.
    pub fn settings(&self) -> &LiveSettings {
        &self.settings
    }

    /// The open sockets per address and account.
    pub fn sockets(&self) -> &Arc<SocketCounts> {
        &self.sockets
    }

    /// The domain services.
    pub fn domain(&self) -> &Domain {
        &self.domain
    }

    /// Subscribes a signed-in socket to its account's unread notification count.
    pub fn subscribe_account(&self, account_id: i64) -> AccountSubscription {
        self.accounts.subscribe(account_id)
    }

    /// Listens for accounts disabled from now on (a signed-in socket closes when its own is).
    pub fn disabled_accounts(&self) -> broadcast::Receiver<i64> {
        self.disabled.subscribe()
    }

    /// Reads and tells the unread counts of the accounts announced on
    /// [`NOTIFICATION_CHANNEL`] that have sockets here.
    async fn notifications_changed(&self, accounts: Vec<i64>) {
        for account_id in accounts.into_iter().filter(|a| self.accounts.has(*a)) {
            match crate::storage::notifications::unread(&self.domain.pool, account_id).await {
                Ok(unread) => self.accounts.tell(account_id, unread),
                Err(error) => tracing::warn!(%error, "live: cannot read an unread count"),
            }
        }
    }

    fn rooms(&self) -> std::sync::MutexGuard<'_, HashMap<i64, Arc<Room>>> {
        lock(&self.rooms)
    }

    /// Joins the room of `game_id` (reading the other instances' sockets on it when the
    /// room is new here) and sends everybody in the room the new watcher count, soon.
    pub async fn join(self: &Arc<Hub>, game_id: i64) -> Subscription {
        let (room, receiver, new_room) = {
            let mut rooms = self.rooms();
            let mut new_room = false;
            let room = rooms.entry(game_id).or_insert_with(|| {
                new_room = true;
                Arc::new(Room {
                    sender: broadcast::channel(self.settings.queue_capacity.max(1)).0,
                    fetching: tokio::sync::Mutex::new(()),
                    others: AtomicUsize::new(0),
                    counting: tokio::sync::Mutex::new(()),
                    revision: AtomicI64::new(-1),
                    watchers_due: AtomicBool::new(false),
                    reread_others: AtomicBool::new(false),
                    watchers_sent_at: Mutex::new(None),
                    first_reads: Mutex::new(FirstReads::default()),
                })
            });
            let receiver = room.sender.subscribe();
            lock(&room.first_reads).pending += 1;
            (Arc::clone(room), receiver, new_room)
        };
        let subscription =
            Subscription { hub: Arc::clone(self), game_id, receiver: Some(receiver), reported: false };
        if let Some(presence) = &self.presence {
            presence.touch(game_id);
        }
        if new_room {
            // The joining socket's first state shows the count over every instance.
            let _serial = room.counting.lock().await;
            self.read_others(&room, game_id).await;
        }
        self.announce_watchers(game_id, &room, false);
        subscription
    }

    fn leave(self: &Arc<Hub>, game_id: i64) {
        let mut rooms = self.rooms();
        let remaining = rooms.get(&game_id).map(|room| (room.sender.receiver_count(), Arc::clone(room)));
        match remaining {
            Some((0, _)) => {
                rooms.remove(&game_id);
            }
            Some((_, room)) => {
                drop(rooms);
                self.announce_watchers(game_id, &room, false);
            }
            None => {}
        }
        if let Some(presence) = &self.presence {
            presence.touch(game_id);
        }
    }

    /// Reads the other instances' sockets on `game_id` (nothing to read for an instance
    /// alone).
    async fn read_others(&self, room: &Room, game_id: i64) {
        if let Some(presence) = &self.presence {
            let read =
                presence::others(&self.domain.pool, game_id, presence.instance_id(), presence.ttl_seconds());
            match read.await {
                Ok(others) => room.others.store(others, Ordering::Relaxed),
                Err(error) => tracing::warn!(game.id = game_id, %error, "live: cannot count the watchers"),
            }
        }
    }

    /// Sends the room of `game_id` its watcher count (after re-reading the other
    /// instances' sockets when `reread_others`), at most once per `watchers_interval_ms`:
    /// the first change after a quiet interval goes out at once, the changes during an
    /// interval give one count at its end. So a crowd joining a game costs each of its
    /// sockets a few updates a second, not one per arrival.
    fn announce_watchers(self: &Arc<Hub>, game_id: i64, room: &Arc<Room>, reread_others: bool) {
        if reread_others {
            room.reread_others.store(true, Ordering::SeqCst);
        }
        if room.watchers_due.swap(true, Ordering::SeqCst) {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let interval = Duration::from_millis(self.settings.watchers_interval_ms);
        let hub = Arc::clone(self);
        let room = Arc::clone(room);
        runtime.spawn(async move {
            let _serial = room.counting.lock().await;
            let last = *lock(&room.watchers_sent_at);
            if let Some(last) = last {
                tokio::time::sleep_until(last + interval).await;
            }
            // Changes from now on schedule another count.
            room.watchers_due.store(false, Ordering::SeqCst);
            if room.reread_others.swap(false, Ordering::SeqCst) {
                hub.read_others(&room, game_id).await;
            }
            *lock(&room.watchers_sent_at) = Some(tokio::time::Instant::now());
            let _ = room.sender.send(RoomEvent::Watchers(room.watchers()));
        });
    }

    /// Sockets watching `game_id` on every instance (the others' as last read).
    pub fn watchers(&self, game_id: i64) -> usize {
        self.rooms().get(&game_id).map_or(0, |room| room.watchers())
    }

    /// Sockets watching `game_id` on this instance.
    pub fn local_watchers(&self, game_id: i64) -> usize {
        self.rooms().get(&game_id).map_or(0, |room| room.sender.receiver_count())
    }

    /// Every game watched on this instance with its number of local sockets.
    pub fn local_counts(&self) -> Vec<(i64, usize)> {
        self.rooms()
            .iter()
            .map(|(&game, room)| (game, room.sender.receiver_count()))
            .filter(|&(_, sockets)| sockets > 0)
            .collect()
    }

    /// Another instance's sockets on a game changed (or an instance's counts expired):
    /// if anybody here watches it, count again (soon).
    pub fn watchers_changed(self: &Arc<Hub>, change: WatchersChanged) {
        // Our own changes were sent to our sockets when they happened.
        if self.presence.as_ref().is_some_and(|p| p.instance_id() == change.instance_id) {
            return;
        }
        let Some(room) = self.rooms().get(&change.game_id).cloned() else {
            return;
        };
        self.announce_watchers(change.game_id, &room, true);
    }

    /// Sends a state this instance already has (the view a change made here built) to
    /// the game's local sockets at once, unless they were sent a later one; they ignore
    /// what they have already seen.
    pub fn publish(&self, view: Arc<GameView>) {
        if let Some(room) = self.rooms().get(&view.id) {
            room.send_newer(view);
        }
    }

    /// A socket of the room read the game at `revision` itself when it connected (`None`:
    /// its read failed, or it left before reading). When it is the room's only socket, the
    /// room is at that revision. When the room was sent nothing yet, it is at the oldest
    /// revision its first sockets read, once all of them have read: so the resync does not
    /// read again every game just opened by two sockets at once. Otherwise the room stays
    /// where it was: its earlier sockets may not have been sent what a newcomer read (a
    /// NOTIFY of it must still reach them).
    fn seen(&self, game_id: i64, revision: Option<i64>) {
        let Some(room) = self.rooms().get(&game_id).cloned() else {
            return;
        };
        let oldest_first_read = {
            let mut first = lock(&room.first_reads);
            first.pending = first.pending.saturating_sub(1);
            if let Some(revision) = revision {
                first.oldest = Some(first.oldest.map_or(revision, |oldest| oldest.min(revision)));
            }
            if first.pending == 0 {
                first.oldest.take()
            } else {
                None
            }
        };
        if let Some(oldest) = oldest_first_read {
            // Only while nothing was sent: a room sent a state has its revision.
            let _ = room.revision.compare_exchange(-1, oldest, Ordering::Relaxed, Ordering::Relaxed);
        }
        if let Some(revision) = revision {
            if room.sender.receiver_count() == 1 {
                room.revision.fetch_max(revision, Ordering::Relaxed);
            }
        }
    }

    /// A NOTIFY arrived: if anybody here watches the game and was not sent that revision
    /// yet (a change made on this instance was published to them already), read its
    /// state once and send it to them.
    pub fn changed(self: &Arc<Hub>, change: GameChanged) {
        self.read_if_newer(change, None);
    }

    /// [`Hub::changed`] for a catch-up pass: at most [`CATCH_UP_READS`] such reads at once.
    fn catch_up(self: &Arc<Hub>, change: GameChanged) {
        self.read_if_newer(change, Some(Arc::clone(&self.catch_up_reads)));
    }

    fn read_if_newer(self: &Arc<Hub>, change: GameChanged, bound: Option<Arc<tokio::sync::Semaphore>>) {
        let Some(room) = self.rooms().get(&change.game_id).cloned() else {
            return;
        };
        let current = move |room: &Room| {
            change.revision != GameChanged::UNKNOWN
                && room.revision.load(Ordering::Relaxed) >= change.revision
        };
        if current(&room) {
            return;
        }
        let hub = Arc::clone(self);
        tokio::spawn(async move {
            let _permit = match &bound {
                Some(bound) => Some(bound.acquire().await),
                None => None,
            };
            let _order = room.fetching.lock().await;
            if current(&room) {
                return;
            }
            match games::view(&hub.domain, change.game_id).await {
                Ok(view) => room.send_newer(Arc::new(view)),
                Err(error) => tracing::warn!(game.id = change.game_id, %error, "live: cannot read the game"),
            }
        });
    }

    /// Catches up with what was announced while the LISTEN connection was down (those
    /// notifications are gone): re-reads every watched game and its watcher count, and
    /// forgets the checked bearer tokens (a revocation may have been among them).
    pub fn refresh_all(self: &Arc<Hub>) {
        self.domain.tokens.clear();
        let rooms: Vec<(i64, Arc<Room>)> =
            self.rooms().iter().map(|(&game_id, room)| (game_id, Arc::clone(room))).collect();
        for (game_id, room) in rooms {
            self.catch_up(GameChanged::unknown(game_id));
            self.announce_watchers(game_id, &room, true);
        }
    }
}

/// Every `every`, compares the revision of each game watched here with the one its room
/// last sent, and re-reads the games that changed unannounced: a move whose announcement
/// was lost (the instance that stored it died right after its commit, see
/// [`notify::Announcer`]) reaches the sockets all the same, at most `every` late.
pub async fn resync(hub: Arc<Hub>, every: Duration, shutdown: watch::Receiver<bool>) {
    crate::tasks::named("live-resync", every, shutdown, || hub.resync_once()).await;
}

impl Hub {
    /// One pass of [`resync`].
    pub async fn resync_once(self: &Arc<Hub>) {
        let sent: HashMap<i64, i64> = self
            .rooms()
            .iter()
            .map(|(&game_id, room)| (game_id, room.revision.load(Ordering::Relaxed)))
            .collect();
        if sent.is_empty() {
            return;
        }
        let games: Vec<i64> = sent.keys().copied().collect();
        let stored: Result<Vec<(i64, i64)>, sqlx::Error> =
            sqlx::query_as("select game_id, revision from game where game_id = any($1)")
                .bind(&games)
                .fetch_all(&self.domain.pool)
                .await;
        match stored {
            Ok(stored) => {
                let mut stale = 0;
                for (game_id, revision) in stored {
                    if sent.get(&game_id).is_some_and(|&seen| revision > seen) {
                        tracing::debug!(game.id = game_id, revision, seen = sent[&game_id], "live: resync");
                        self.catch_up(GameChanged::unknown(game_id));
                        stale += 1;
                    }
                }
                // A move committed but not yet announced when the revision was read counts
                // too (one extra read); many at every pass would mean lost announcements.
                if stale > 0 {
                    tracing::debug!(
                        games = sent.len(),
                        stale,
                        "live: resync re-read games changed unannounced"
                    );
                }
            }
            Err(error) => tracing::warn!(%error, "live: cannot resync the watched games"),
        }
    }
}

/// The instance's one LISTEN connection: relays every game change to the hub until
/// `shutdown` changes; reconnects (and refreshes every watched game) after a failure.
pub async fn listen(hub: Arc<Hub>, mut shutdown: watch::Receiver<bool>) {
    loop {
        let mut listener = match notify::listen(&hub.domain.pool).await {
            Ok(listener) => listener,
            Err(error) => {
                tracing::error!(%error, "live: cannot LISTEN; retrying");
                tokio::select! {
                    _ = tokio::time::sleep(Duration::from_secs(1)) => continue,
                    _ = shutdown.changed() => return,
                }
            }
        };
        hub.refresh_all();
        loop {
            tokio::select! {
                received = listener.try_recv() => match received {
                    Ok(Some(notification)) => {
                        if notification.channel() == TOKEN_CHANNEL {
                            hub.domain.tokens.forget_announced(notification.payload());
                        } else if notification.channel() == ACCOUNT_DISABLED_CHANNEL {
                            if let Ok(account_id) = notification.payload().parse() {
                                hub.domain.tokens.forget_account(account_id);
                                hub.disabled.disabled(account_id);
                            }
                        } else if notification.channel() == NOTIFICATION_CHANNEL {
                            hub.notifications_changed(parse_accounts(notification.payload())).await;
                        } else if notification.channel() == WATCHERS_CHANNEL {
                            if let Some(change) = WatchersChanged::parse(notification.payload()) {
                                hub.watchers_changed(change);
                            }
                        } else {
                            for change in GameChanged::parse_all(notification.payload()) {
                                hub.changed(change);
                            }
                        }
                    }
                    // The connection was lost (sqlx reconnects on the next call):
                    // notifications may have been missed.
                    Ok(None) => hub.refresh_all(),
                    Err(error) => {
                        tracing::error!(%error, "live: LISTEN connection failed");
                        break;
                    }
                },
                _ = shutdown.changed() => return,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::clock::SystemClock;

    fn hub(queue_capacity: usize) -> Arc<Hub> {
        // A lazy pool never connects: these tests touch no database.
        let pool = sqlx::postgres::PgPoolOptions::new()
            .connect_lazy("postgres://nobody@127.0.0.1:1/none")
            .expect("a lazy pool");
        let domain = Domain {
            announcer: notify::Announcer::start(&pool),
            moves: crate::storage::move_writes::MoveWriter::new(
                crate::storage::move_connections::MoveConnections::new(&pool, 1, Duration::from_secs(1)),
                1,
                1,
            ),
            pool,
            clock: Arc::new(SystemClock),
            games: Arc::default(),
            tokens: Arc::default(),
            rooms: Arc::default(),
            ratings: Arc::default(),
            time_zone: Default::default(),
            first_move: Default::default(),
            rules_work: Arc::default(),
        };
        Arc::new(Hub::alone(domain, LiveSettings { queue_capacity, ..LiveSettings::default() }))
    }

    #[tokio::test]
    async fn watchers_are_counted_and_a_room_is_removed_when_empty() {
        let hub = hub(8);
        let mut first = hub.join(5).await;
        assert!(matches!(first.recv().await, Ok(RoomEvent::Watchers(1))));
        let second = hub.join(5).await;
        assert!(matches!(first.recv().await, Ok(RoomEvent::Watchers(2))));
        assert_eq!(hub.watchers(5), 2);
        drop(second);
        assert!(matches!(first.recv().await, Ok(RoomEvent::Watchers(1))), "the leave is announced");
        drop(first);
        assert_eq!(hub.watchers(5), 0);
        assert!(hub.rooms().is_empty(), "an empty room is removed");
    }

    fn revision(hub: &Hub, game_id: i64) -> i64 {
        hub.rooms().get(&game_id).expect("the room").revision.load(Ordering::Relaxed)
    }

    #[tokio::test]
    async fn sockets_opening_a_game_together_leave_the_room_at_the_oldest_state_they_read() {
        let hub = hub(8);
        let mut first = hub.join(5).await;
        let mut second = hub.join(5).await;
        first.seen(6);
        assert_eq!(revision(&hub, 5), -1, "the second socket's read is not known yet");
        second.seen(5);
        assert_eq!(revision(&hub, 5), 5, "both read: the room is at the older state");
    }

    #[tokio::test]
    async fn a_newcomers_newer_read_does_not_advance_a_room_whose_sockets_were_not_sent_it() {
        let hub = hub(8);
        let mut first = hub.join(5).await;
        first.seen(5);
        assert_eq!(revision(&hub, 5), 5);
        let mut second = hub.join(5).await;
        // A move committed elsewhere, its NOTIFY not yet here: the first socket has not got it.
        second.seen(6);
        assert_eq!(revision(&hub, 5), 5, "the NOTIFY of revision 6 must still be read");
    }

    #[tokio::test]
    async fn a_socket_gone_before_its_read_does_not_hold_a_new_room_back() {
        let hub = hub(8);
        let mut first = hub.join(5).await;
        let mut second = hub.join(5).await;
        let third = hub.join(5).await;
        drop(third);
        first.seen(4);
        second.seen(4);
        assert_eq!(revision(&hub, 5), 4);
    }

    #[tokio::test]
    async fn a_socket_too_far_behind_is_told_it_lagged_and_nobody_waits_for_it() {
        let hub = hub(2);
        let mut slow = hub.join(9).await;
        let room = hub.rooms().get(&9).cloned().expect("the room");
        for count in 0..5 {
            // Events the slow socket does not read.
            room.sender.send(RoomEvent::Watchers(count)).expect("a receiver");
        }
        assert!(matches!(slow.recv().await, Err(broadcast::error::RecvError::Lagged(_))));
        assert!(slow.recv().await.is_ok(), "after the lag it reads the newest events again");
    }

    #[tokio::test]
    async fn a_crowd_joining_gets_a_few_watcher_counts_not_one_per_arrival() {
        let hub = hub(4096);
        let mut first = hub.join(3).await;
        assert!(
            matches!(first.recv().await, Ok(RoomEvent::Watchers(1))),
            "the first change goes out at once"
        );
        let crowd: Vec<Subscription> = futures_util::future::join_all((0..200).map(|_| hub.join(3))).await;
        let mut counts = Vec::new();
        while let Ok(Ok(RoomEvent::Watchers(count))) =
            tokio::time::timeout(Duration::from_millis(1500), first.recv()).await
        {
            counts.push(count);
            if count == 201 {
                break;
            }
        }
        assert_eq!(counts.last(), Some(&201), "the last count is right: {counts:?}");
        assert!(counts.len() <= 3, "200 arrivals in one interval gave {} counts", counts.len());
        drop(crowd);
    }
}
