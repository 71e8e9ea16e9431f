//! The unread notification count of each signed-in account with a socket on this
//! instance (#17 §2, "over the live WebSocket"): one broadcast channel per account. The
//! senders announce the accounts whose notifications they claimed, and marking some read
//! announces its account, on [`NOTIFICATION_CHANNEL`]: every instance hears it and tells
//! its sockets of those accounts.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::broadcast;

pub use crate::storage::notifications::NOTIFICATION_CHANNEL;

/// The accounts' channels.
#[derive(Debug, Default)]
pub struct AccountChannels {
    channels: Mutex<HashMap<i64, broadcast::Sender<i64>>>,
}

/// A socket's subscription to its account's unread count; leaves on drop.
#[derive(Debug)]
pub struct AccountSubscription {
    channels: Arc<AccountChannels>,
    account_id: i64,
    receiver: Option<broadcast::Receiver<i64>>,
}

impl AccountSubscription {
    /// The next unread count (a lagging socket gets the latest one).
    pub async fn recv(&mut self) -> Option<i64> {
        let receiver = self.receiver.as_mut()?;
        loop {
            match receiver.recv().await {
                Ok(unread) => return Some(unread),
                Err(broadcast::error::RecvError::Lagged(_)) => continue,
                Err(broadcast::error::RecvError::Closed) => return None,
            }
        }
    }
}

impl Drop for AccountSubscription {
    fn drop(&mut self) {
        self.receiver.take();
        let mut channels = self.channels.lock();
        if channels.get(&self.account_id).is_some_and(|s| s.receiver_count() == 0) {
            channels.remove(&self.account_id);
        }
    }
}

impl AccountChannels {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<i64, broadcast::Sender<i64>>> {
        self.channels.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Subscribes a socket of `account_id`.
    pub fn subscribe(self: &Arc<AccountChannels>, account_id: i64) -> AccountSubscription {
        let receiver = self.lock().entry(account_id).or_insert_with(|| broadcast::channel(4).0).subscribe();
        AccountSubscription { channels: Arc::clone(self), account_id, receiver: Some(receiver) }
    }

    /// Whether a socket here belongs to `account_id`.
    pub fn has(&self, account_id: i64) -> bool {
        self.lock().contains_key(&account_id)
    }

    /// Tells the sockets of `account_id` its unread count.
    pub fn tell(&self, account_id: i64, unread: i64) {
        if let Some(sender) = self.lock().get(&account_id) {
            let _ = sender.send(unread);
        }
    }
}

/// The accounts disabled while this instance runs, told to every signed-in socket here
/// (from [`crate::storage::notify::ACCOUNT_DISABLED_CHANNEL`]): the sockets of a disabled
/// account close, whichever instance the admin disabled it on (issue 20 §1).
#[derive(Debug)]
pub struct DisabledAccounts {
    sender: broadcast::Sender<i64>,
}

impl Default for DisabledAccounts {
    fn default() -> DisabledAccounts {
        // Disabling is rare: a few at once at most; a socket that lags asks the database.
        DisabledAccounts { sender: broadcast::channel(16).0 }
    }
}

impl DisabledAccounts {
    /// Listens for disabled accounts (a signed-in socket).
    pub fn subscribe(&self) -> broadcast::Receiver<i64> {
        self.sender.subscribe()
    }

    /// Tells the sockets here that `account_id` is disabled.
    pub fn disabled(&self, account_id: i64) {
        let _ = self.sender.send(account_id);
    }
}

/// The account ids of a [`NOTIFICATION_CHANNEL`] payload (garbage is skipped).
pub fn parse_accounts(payload: &str) -> Vec<i64> {
    payload.split(',').filter_map(|id| id.trim().parse().ok()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_subscribed_account_hears_its_count_and_leaves_on_drop() {
        let channels = Arc::new(AccountChannels::default());
        let mut subscription = channels.subscribe(7);
        assert!(channels.has(7));
        channels.tell(8, 1);
        channels.tell(7, 3);
        assert_eq!(subscription.recv().await, Some(3));
        drop(subscription);
        assert!(!channels.has(7));
    }

    #[test]
    fn payloads_name_accounts() {
        assert_eq!(parse_accounts("1,2,x,3"), vec![1, 2, 3]);
    }
}
