//! Notifications (#17 §2): what an account is told, and how it wants each kind mailed.
//! The rows are written by the events themselves, in their transactions
//! (`storage::notifications`); the senders (server/mail/sender.rs) mail them.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use time::OffsetDateTime;

use super::error::{DomainError, DomainResult};
use super::Domain;
use crate::storage::notifications as rows;

/// The kinds of notification, by their stored name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// A correspondence game: the opponent moved.
    YourMove,
    /// A challenge names you.
    Challenge,
    /// Your challenge was accepted: the game started.
    ChallengeAccepted,
    /// The opponent offers a draw.
    DrawOffer,
    /// A game of yours ended (with the ruling's explanation where a law ended it).
    GameEnd,
    /// Little time is left for your move (by default at 80% used and 24 h before).
    DeadlineAlarm,
    /// Your leave ends within a day.
    VacationEnding,
    /// A tournament round started: your pairing.
    RoundStarted,
    /// A round of your section (or of an event you follow) has all its results.
    RoundFinished,
    /// An event you follow opened its registration.
    RegistrationOpen,
    /// A director of an event you play in or follow announced something.
    Announcement,
    /// A director decided one of your games.
    DirectorDecision,
    /// The daily digest of the games where it is your move.
    Digest,
    /// Your conditional move was played, or a matching line's reply was not (#17 §3).
    ConditionalMove,
    /// The verification of a new address (account mail: always sent, not in the list).
    VerifyEmail,
    /// A password reset link (account mail: always sent, not in the list).
    PasswordReset,
}

impl Kind {
    /// The kinds an account chooses a delivery for, in the order the settings list them.
    pub const CHOSEN: [Kind; 14] = [
        Kind::YourMove,
        Kind::Challenge,
        Kind::ChallengeAccepted,
        Kind::DrawOffer,
        Kind::GameEnd,
        Kind::DeadlineAlarm,
        Kind::VacationEnding,
        Kind::RoundStarted,
        Kind::RoundFinished,
        Kind::RegistrationOpen,
        Kind::Announcement,
        Kind::DirectorDecision,
        Kind::ConditionalMove,
        Kind::Digest,
    ];

    /// The stored name.
    pub const fn as_str(self) -> &'static str {
        match self {
            Kind::YourMove => "your-move",
            Kind::Challenge => "challenge",
            Kind::ChallengeAccepted => "challenge-accepted",
            Kind::DrawOffer => "draw-offer",
            Kind::GameEnd => "game-end",
            Kind::DeadlineAlarm => "deadline-alarm",
            Kind::VacationEnding => "vacation-ending",
            Kind::RoundStarted => "round-started",
            Kind::RoundFinished => "round-finished",
            Kind::RegistrationOpen => "registration-open",
            Kind::Announcement => "announcement",
            Kind::DirectorDecision => "director-decision",
            Kind::Digest => "digest",
            Kind::ConditionalMove => "conditional-move",
            Kind::VerifyEmail => "verify-email",
            Kind::PasswordReset => "password-reset",
        }
    }

    /// The delivery of an account that chose none. Every event is mailed at once (the
    /// issue: "a verified address receives 'your move' at once"); the daily list of games
    /// is sent only to those who ask for it.
    pub const fn default_delivery(self) -> Delivery {
        match self {
            Kind::Digest => Delivery::Off,
            _ => Delivery::Immediately,
        }
    }

    /// Account mails go to the address they name, whatever the settings.
    pub const fn is_account_mail(self) -> bool {
        matches!(self, Kind::VerifyEmail | Kind::PasswordReset)
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Kind {
    type Err = DomainError;
    fn from_str(text: &str) -> DomainResult<Kind> {
        [Kind::VerifyEmail, Kind::PasswordReset]
            .into_iter()
            .chain(Kind::CHOSEN)
            .find(|k| k.as_str() == text)
            .ok_or_else(|| DomainError::Invalid(format!("unknown notification kind {text:?}")))
    }
}

/// How a kind of notification is mailed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Delivery {
    /// A mail at once.
    Immediately,
    /// A line in the next daily digest.
    Digest,
    /// No mail (the in-app list still has it).
    Off,
}

impl Delivery {
    /// The stored name.
    pub const fn as_str(self) -> &'static str {
        match self {
            Delivery::Immediately => "immediately",
            Delivery::Digest => "digest",
            Delivery::Off => "off",
        }
    }
}

impl FromStr for Delivery {
    type Err = DomainError;
    fn from_str(text: &str) -> DomainResult<Delivery> {
        match text {
            "immediately" => Ok(Delivery::Immediately),
            "digest" => Ok(Delivery::Digest),
            "off" => Ok(Delivery::Off),
            _ => Err(DomainError::Invalid(format!(
                "unknown delivery {text:?} (known: immediately, digest, off)"
            ))),
        }
    }
}

/// An account's mail settings: every chosen kind's delivery, the digest's hour and time
/// zone.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct MailSettings {
    /// Delivery per kind (`your-move`, `challenge`, ..., `digest`).
    pub deliveries: Vec<KindDelivery>,
    /// The hour (0-23) of the daily digest, in `time_zone`.
    pub digest_hour: i16,
    /// The account's time zone (an IANA name, e.g. `Europe/Rome`).
    pub time_zone: String,
}

/// One kind's delivery.
#[derive(Clone, Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct KindDelivery {
    /// The kind.
    pub kind: Kind,
    /// How it is mailed.
    pub delivery: Delivery,
}

/// A change of the mail settings (absent fields stay).
#[derive(Clone, Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MailSettingsChange {
    /// Kinds whose delivery changes.
    #[serde(default)]
    pub deliveries: Vec<KindDelivery>,
    /// The digest's hour, 0 to 23.
    pub digest_hour: Option<i16>,
    /// An IANA time zone name.
    pub time_zone: Option<String>,
}

/// The mail settings of `account_id`.
///
/// # Errors
/// Database failure.
pub async fn settings(domain: &Domain, account_id: i64) -> DomainResult<MailSettings> {
    let (chosen, digest_hour, time_zone) = rows::settings(&domain.pool, account_id).await?;
    let deliveries = Kind::CHOSEN
        .into_iter()
        .map(|kind| {
            let delivery = chosen
                .iter()
                .find(|(k, _)| k == kind.as_str())
                .and_then(|(_, d)| d.parse().ok())
                .unwrap_or(kind.default_delivery());
            KindDelivery { kind, delivery }
        })
        .collect();
    Ok(MailSettings { deliveries, digest_hour, time_zone })
}

/// Changes the mail settings of `account_id` (all or nothing).
///
/// # Errors
/// An account mail kind, an hour outside 0-23 or an unknown time zone (422).
pub async fn change_settings(
    domain: &Domain,
    account_id: i64,
    change: &MailSettingsChange,
) -> DomainResult<MailSettings> {
    if let Some(kind) = change.deliveries.iter().map(|d| d.kind).find(|k| k.is_account_mail()) {
        return Err(DomainError::Invalid(format!("{kind} mails are always sent")));
    }
    if change.digest_hour.is_some_and(|h| !(0..=23).contains(&h)) {
        return Err(DomainError::Invalid("digest_hour is an hour from 0 to 23".to_owned()));
    }
    if let Some(zone) = &change.time_zone {
        if !rows::is_time_zone(&domain.pool, zone).await? {
            return Err(DomainError::Invalid(format!(
                "unknown time zone {zone:?} (an IANA name, e.g. Europe/Rome)"
            )));
        }
    }
    rows::change_settings(&domain.pool, account_id, change).await?;
    settings(domain, account_id).await
}

/// Turns the mails of `kind` off for `account_id` (the one-click unsubscribe).
///
/// # Errors
/// Database failure.
pub async fn unsubscribe(domain: &Domain, account_id: i64, kind: Kind) -> DomainResult<()> {
    let change = MailSettingsChange {
        deliveries: vec![KindDelivery { kind, delivery: Delivery::Off }],
        ..MailSettingsChange::default()
    };
    rows::change_settings(&domain.pool, account_id, &change).await
}

/// A notification of the in-app list.
#[derive(Clone, Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct Notification {
    /// Id.
    pub id: i64,
    /// Kind (`your-move`, ...).
    pub kind: String,
    /// The game it is about, if any.
    pub game_id: Option<i64>,
    /// The challenge it is about, if any.
    pub challenge_id: Option<i64>,
    /// The tournament it is about, if any.
    pub tournament_id: Option<i64>,
    /// What else it says (the opponent, the ply, the result...).
    #[schema(value_type = Object)]
    pub details: serde_json::Value,
    /// When it was made.
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    /// When it was read (`null`: unread).
    #[serde(with = "time::serde::rfc3339::option")]
    pub read_at: Option<OffsetDateTime>,
}

/// The newest notifications of `account_id` (at most `limit`, before id `before` when
/// given) and the unread count.
///
/// # Errors
/// Database failure.
pub async fn list(
    domain: &Domain,
    account_id: i64,
    before: Option<i64>,
    limit: i64,
) -> DomainResult<(Vec<Notification>, i64)> {
    let items = rows::list(&domain.pool, account_id, before, limit.clamp(1, 200)).await?;
    let unread = rows::unread(&domain.pool, account_id).await?;
    Ok((items, unread))
}

/// Marks the notifications of `account_id` up to id `up_to` (all when `None`) read;
/// returns the unread count left.
///
/// # Errors
/// Database failure.
pub async fn mark_read(domain: &Domain, account_id: i64, up_to: Option<i64>) -> DomainResult<i64> {
    rows::mark_read(&domain.pool, account_id, up_to, domain.clock.now()).await?;
    // The account's sockets, on every instance, hear the new count.
    crate::storage::outbox::announce(&domain.pool, rows::NOTIFICATION_CHANNEL, &[account_id]).await?;
    rows::unread(&domain.pool, account_id).await
}
