//! Mail (#17): the SMTP relay, signed links, composing messages from the askama templates
//! (`templates/mail/`), and the outbox senders ([`sender`]).
//!
//! Nothing here decides who is told what: the events insert their notification rows in
//! their own transactions (server/storage/outbox.rs); the senders turn those rows into
//! mails.

pub mod alarms;
pub mod compose;
pub mod links;
pub mod sender;
pub mod transport;

use std::sync::Arc;

use lettre::message::header::{HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use crate::config::MailSettings;
pub use compose::Composed;
pub use links::Links;

/// What sends mail: the relay (none configured: mails are only logged), the sender's
/// address and the links' signer.
#[derive(Clone)]
pub struct Mailer {
    relay: Option<AsyncSmtpTransport<Tokio1Executor>>,
    from: Mailbox,
    /// Signed absolute links (`[application] base_url`).
    pub links: Arc<Links>,
    /// The outbox settings.
    pub settings: MailSettings,
}

impl std::fmt::Debug for Mailer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mailer")
            .field("relay", &self.relay.is_some())
            .field("from", &self.from.to_string())
            .field("base_url", &self.links.base_url())
            .finish()
    }
}

/// Why a mail was not sent.
#[derive(Debug, thiserror::Error)]
pub enum SendError {
    /// The relay refused it for good (5xx) or it cannot be built: do not retry.
    #[error("{0}")]
    Permanent(String),
    /// Anything that may pass later (connection, 4xx): retry with backoff.
    #[error("{0}")]
    Transient(String),
}

/// How a mail left.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delivered {
    /// Handed to the relay.
    Sent,
    /// No relay configured: written to the log only.
    Logged,
}

impl Mailer {
    /// The mailer of `settings`, signing with `key`.
    ///
    /// # Errors
    /// An SMTP URL or sender address that does not parse.
    pub fn new(settings: &MailSettings, base_url: String, key: Vec<u8>) -> anyhow::Result<Mailer> {
        let relay = match &settings.smtp_url {
            Some(url) => Some(transport::relay(url, settings)?),
            None => None,
        };
        let from: Mailbox =
            settings.from.parse().map_err(|e| anyhow::anyhow!("mail.from {:?}: {e}", settings.from))?;
        Ok(Mailer { relay, from, links: Arc::new(Links::new(base_url, key)), settings: settings.clone() })
    }

    /// Whether an SMTP relay is configured.
    pub fn has_relay(&self) -> bool {
        self.relay.is_some()
    }

    /// Sends `mail` to `to` with the stable `message_id` (a resent mail keeps its id, so
    /// a reader's client can tell a duplicate), or logs it when no relay is configured.
    ///
    /// # Errors
    /// [`SendError`]: permanent for a bad address or a 5xx, transient otherwise.
    pub async fn send(&self, to: &str, mail: &Composed, message_id: &str) -> Result<Delivered, SendError> {
        let recipient: Mailbox =
            to.parse().map_err(|e| SendError::Permanent(format!("address {to:?}: {e}")))?;
        let Some(relay) = &self.relay else {
            // A newcomer without SMTP sees what would be sent (the links of account mails
            // are secrets and stay out of the log: compose redacts them).
            tracing::info!(to = %recipient, subject = %mail.subject, text = %mail.loggable_text(), "mail not sent: no SMTP configured ([mail] smtp_url)");
            return Ok(Delivered::Logged);
        };
        let message = self.message(recipient, mail, message_id)?;
        match relay.send(message).await {
            Ok(_) => Ok(Delivered::Sent),
            Err(error) if error.is_permanent() => Err(SendError::Permanent(error.to_string())),
            Err(error) => Err(SendError::Transient(error.to_string())),
        }
    }

    /// The message: text and HTML alternatives, the stable id, and for notifications the
    /// RFC 8058 one-click unsubscribe headers.
    fn message(&self, to: Mailbox, mail: &Composed, message_id: &str) -> Result<Message, SendError> {
        let mut builder = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(mail.subject.clone())
            .message_id(Some(message_id.to_owned()));
        if let Some(url) = &mail.unsubscribe {
            builder = builder
                .raw_header(raw_header("List-Unsubscribe", format!("<{url}>")))
                .raw_header(raw_header("List-Unsubscribe-Post", "List-Unsubscribe=One-Click".to_owned()));
        }
        builder
            .multipart(MultiPart::alternative_plain_html(mail.text.clone(), mail.html.clone()))
            .map_err(|e| SendError::Permanent(format!("building the message: {e}")))
    }

    /// The `Message-ID` of the mail of notification `id`.
    pub fn message_id(&self, id: i64) -> String {
        format!("<notification-{id}@{}>", self.links.host())
    }
}

fn raw_header(name: &'static str, value: String) -> HeaderValue {
    let name = HeaderName::new_from_ascii(name.to_owned()).expect("a valid header name");
    HeaderValue::new(name, value)
}
