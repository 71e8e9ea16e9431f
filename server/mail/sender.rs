//! The outbox senders: every instance runs one; each step claims due notification rows
//! (`storage::outbox::claim`, `FOR UPDATE SKIP LOCKED`), decides from the account's
//! settings whether and how each is mailed, sends, and records the outcome. A mail the
//! relay refuses for now is tried again with exponential backoff.

use std::time::Duration;

use futures_util::StreamExt;
use serde_json::Value;
use time::OffsetDateTime;
use tokio::sync::watch;

use super::compose::{self, Facts, Line};
use super::{Delivered, Mailer, SendError};
use crate::domain::error::DomainResult;
use crate::domain::games::{self, GameView};
use crate::domain::notifications::{Delivery, Kind};
use crate::domain::{preferences, rules_adapter, Domain};
use crate::storage::outbox::{self, Claimed, Outcome};
use crate::web::i18n::Lang;
use crate::web::ruling::RulingRecord;

/// Mails sent at once by one sender (over the relay's pooled connections).
const CONCURRENCY: usize = 8;
/// The first retry's delay; each further one doubles it, up to [`MAX_BACKOFF`].
const FIRST_BACKOFF: time::Duration = time::Duration::seconds(30);
const MAX_BACKOFF: time::Duration = time::Duration::hours(1);
/// How long a verification link works.
pub const VERIFY_HOURS: i64 = 48;

/// One instance's sender.
#[derive(Clone, Debug)]
pub struct Sender {
    domain: Domain,
    mailer: Mailer,
    default_language: Lang,
}

impl Sender {
    /// A sender over `domain`'s database and clock.
    pub fn new(domain: Domain, mailer: Mailer, default_language: Lang) -> Sender {
        Sender { domain, mailer, default_language }
    }

    /// Claims one batch and handles it; returns how many rows it claimed.
    ///
    /// # Errors
    /// The claim fails (the database).
    pub async fn step(&self) -> DomainResult<usize> {
        let now = self.domain.clock.now();
        let until = now + time::Duration::seconds(self.mailer.settings.claim_seconds as i64);
        let kinds: Vec<Kind> =
            Kind::CHOSEN.into_iter().chain([Kind::VerifyEmail, Kind::PasswordReset]).collect();
        let account_kinds: Vec<&str> =
            kinds.iter().filter(|k| k.is_account_mail()).map(|k| k.as_str()).collect();
        let off_kinds: Vec<&str> =
            kinds.iter().filter(|k| k.default_delivery() == Delivery::Off).map(|k| k.as_str()).collect();
        let batch = self.mailer.settings.batch_size;
        let claimed =
            outbox::claim(&self.domain.pool, now, until, batch, (&account_kinds, &off_kinds)).await?;
        let count = claimed.len();
        // Their sockets, on every instance, hear the new unread counts (the announcer's
        // batched NOTIFY, as for the "your move" rows the moves settle themselves).
        self.domain.announcer.tell_accounts(claimed.iter().map(|row| row.account_id).collect());
        // A mail that left is recorded at once (the duplicate window, `outbox::claim`); the
        // others (most: skipped) together after the batch, in one statement.
        let unmailed = std::sync::Mutex::new(Vec::new());
        // Rows the claim settled (skipped, left for the digest) need nothing more.
        let claimed = claimed.into_iter().filter(|row| row.mail_state == "sending");
        futures_util::stream::iter(claimed)
            .for_each_concurrent(CONCURRENCY, |row| {
                let unmailed = &unmailed;
                async move {
                    let id = row.notification_id;
                    let outcome = self.handle(row).await;
                    if !outcome.mailed() {
                        unmailed
                            .lock()
                            .unwrap_or_else(std::sync::PoisonError::into_inner)
                            .push((id, outcome));
                        return;
                    }
                    if let Err(error) =
                        outbox::record(&self.domain.pool, id, &outcome, self.domain.clock.now()).await
                    {
                        // The claim runs out and another step tries again.
                        tracing::warn!(notification.id = id, %error, "recording a mail's outcome failed");
                    }
                }
            })
            .await;
        let unmailed = unmailed.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Err(error) = outbox::record_unmailed(&self.domain.pool, &unmailed).await {
            // The claims run out and another step tries again.
            tracing::warn!(%error, rows = unmailed.len(), "recording the outcomes of unsent mails failed");
        }
        Ok(count)
    }

    /// Steps until a batch is not full (the outbox is drained).
    pub async fn drain(&self) {
        loop {
            match self.step().await {
                Ok(count) if count as i64 >= self.mailer.settings.batch_size => continue,
                Ok(_) => return,
                Err(error) => {
                    tracing::warn!(%error, "claiming mails failed");
                    return;
                }
            }
        }
    }

    /// Decides, sends and says what to record.
    async fn handle(&self, row: Claimed) -> Outcome {
        let Ok(kind) = row.kind.parse::<Kind>() else {
            return Outcome::Failed(format!("unknown kind {}", row.kind));
        };
        let to = if kind.is_account_mail() {
            row.to_address.clone()
        } else {
            let delivery =
                row.delivery.as_deref().and_then(|d| d.parse().ok()).unwrap_or(kind.default_delivery());
            match (delivery, &row.verified_email) {
                (_, None) => return Outcome::Skipped("no verified address".to_owned()),
                (Delivery::Off, _) => return Outcome::Skipped("off in the account's settings".to_owned()),
                (Delivery::Digest, _) if kind != Kind::Digest => return Outcome::Digest,
                _ => row.verified_email.clone(),
            }
        };
        let Some(to) = to else { return Outcome::Failed("no address".to_owned()) };
        let facts = match self.facts(kind, &row).await {
            Ok(Some(facts)) => facts,
            Ok(None) => {
                return Outcome::Skipped("no longer true (the player moved, the game ended)".to_owned())
            }
            Err(error) => return self.retry(&row, error.to_string()),
        };
        let mail = match compose::compose(&facts) {
            Ok(mail) => mail,
            Err(error) => return Outcome::Failed(format!("template: {error}")),
        };
        match self.mailer.send(&to, &mail, &self.mailer.message_id(row.notification_id)).await {
            Ok(delivered) => {
                if kind == Kind::Digest {
                    if let Err(error) = outbox::digested(
                        &self.domain.pool,
                        row.account_id,
                        row.notification_id,
                        self.domain.clock.now(),
                    )
                    .await
                    {
                        tracing::warn!(%error, "marking the digest's notifications failed");
                    }
                }
                match delivered {
                    Delivered::Sent => Outcome::Sent,
                    Delivered::Logged => Outcome::Logged(mail.subject.clone(), mail.loggable_text()),
                }
            }
            Err(SendError::Permanent(error)) => Outcome::Failed(error),
            Err(SendError::Transient(error)) => self.retry(&row, error),
        }
    }

    /// Backoff: 30 s, 1 min, 2 min... up to an hour; failed after the configured attempts.
    fn retry(&self, row: &Claimed, error: String) -> Outcome {
        if row.attempts >= self.mailer.settings.max_attempts {
            return Outcome::Failed(format!("gave up after {} attempts: {error}", row.attempts));
        }
        let doublings = row.attempts.clamp(1, 16) - 1;
        let delay = (FIRST_BACKOFF * 2i32.pow(doublings as u32)).min(MAX_BACKOFF);
        Outcome::Retry(self.domain.clock.now() + delay, error)
    }

    fn lang(&self, row: &Claimed) -> Lang {
        Lang::from_tag(&row.language).unwrap_or(self.default_language)
    }

    /// What the mail of `row` says; `None` when it is no longer true (a "your move" or an
    /// alarm for a turn already played).
    async fn facts(&self, kind: Kind, row: &Claimed) -> DomainResult<Option<Facts>> {
        let lang = self.lang(row);
        let links = &self.mailer.links;
        let mut facts = Facts {
            kind: kind.as_str(),
            lang,
            username: row.username.clone(),
            params: Vec::new(),
            extra: Vec::new(),
            lines: Vec::new(),
            link: None,
            unsubscribe: (!kind.is_account_mail()).then(|| links.unsubscribe(row.account_id, kind.as_str())),
            secret: false,
        };
        let detail = |name: &str| row.details.get(name).map(value_text).unwrap_or_default();
        match kind {
            Kind::VerifyEmail => {
                let email = detail("email");
                let expires = row.details.get("expires").and_then(Value::as_i64).unwrap_or_default();
                facts.params.push(("hours", VERIFY_HOURS.to_string()));
                facts.params.push(("email", email.clone()));
                facts.link = Some(links.verify_email(row.account_id, &email, expires));
            }
            Kind::PasswordReset => {
                facts.params.push(("minutes", detail("minutes")));
                facts.link = Some(links.absolute(&format!("/password/reset?token={}", detail("token"))));
                facts.secret = true;
            }
            Kind::Challenge => {
                facts.params.push(("opponent", detail("from")));
                facts.params.push(("variant", detail("variant")));
                facts.link = Some(links.absolute("/challenges"));
            }
            Kind::VacationEnding => {
                let ends = row.details.get("ends").and_then(Value::as_str).and_then(parse_time);
                let ends = match ends {
                    Some(at) => outbox::local_time(&self.domain.pool, at, &row.time_zone).await?,
                    None => detail("ends"),
                };
                facts.params.push(("ends", ends));
                facts.link = Some(links.absolute("/"));
            }
            Kind::Digest => return self.digest(facts, row).await.map(Some),
            Kind::RoundStarted => {
                facts.params.push(("tournament", detail("tournament")));
                facts.params.push(("round", detail("round")));
                facts.params.push(("pairing", detail("pairing")));
                facts.link = Some(match row.game_id {
                    Some(game) => links.absolute(&format!("/games/{game}")),
                    None => {
                        links.absolute(&format!("/tournaments/{}", row.tournament_id.unwrap_or_default()))
                    }
                });
            }
            Kind::RoundFinished | Kind::RegistrationOpen | Kind::Announcement => {
                let Some(tournament_id) = row.tournament_id else { return Ok(None) };
                facts.params.push(("tournament", detail("tournament")));
                facts.params.push(("section", detail("section")));
                facts.params.push(("round", detail("round")));
                facts.params.push(("text", detail("text")));
                facts.link = Some(links.absolute(&format!("/tournaments/{tournament_id}")));
            }
            Kind::ConditionalMove => {
                let Some(game_id) = row.game_id else { return Ok(None) };
                facts.params.push(("game", game_id.to_string()));
                facts.params.push(("move", detail("opponent_move")));
                facts.params.push(("reply", detail("reply")));
                facts.params.push(("why", detail("why")));
                // One kind, two sentences: the catalogue's `conditional-move.*` for a
                // reply played, `conditional-refused.*` for one that was not.
                if row.details.get("played").and_then(Value::as_bool) == Some(false) {
                    facts.kind = "conditional-refused";
                }
                facts.link = Some(links.absolute(&format!("/games/{game_id}")));
            }
            Kind::YourMove
            | Kind::ChallengeAccepted
            | Kind::DrawOffer
            | Kind::GameEnd
            | Kind::DeadlineAlarm
            | Kind::DirectorDecision => {
                let Some(game_id) = row.game_id else { return Ok(None) };
                let view = games::view(&self.domain, game_id).await?;
                if !self.game_facts(kind, row, &view, &mut facts).await? {
                    return Ok(None);
                }
                facts.link = Some(links.absolute(&format!("/games/{game_id}")));
            }
        }
        Ok(Some(facts))
    }

    /// The placeholders of a game's mail; `false` when the mail is no longer true.
    async fn game_facts(
        &self,
        kind: Kind,
        row: &Claimed,
        view: &GameView,
        facts: &mut Facts,
    ) -> DomainResult<bool> {
        let lang = facts.lang;
        let me = view.seats.iter().find(|s| s.username == row.username).map(|s| s.seat);
        let others: Vec<&str> =
            view.seats.iter().filter(|s| Some(s.seat) != me).map(|s| s.username.as_str()).collect();
        let params = &mut facts.params;
        params.push(("game", view.id.to_string()));
        params.push(("variant", view.variant.clone()));
        params.push(("opponent", others.join(", ")));
        params.push((
            "players",
            view.seats.iter().map(|s| s.username.as_str()).collect::<Vec<_>>().join(" – "),
        ));
        let turn_ply = row.details.get("ply").and_then(Value::as_i64);
        match kind {
            Kind::YourMove | Kind::DeadlineAlarm => {
                // Only while it is still this turn and this player's.
                let still = view.status.as_str() == "active"
                    && turn_ply.is_none_or(|p| p == i64::from(view.ply))
                    && view.to_move.as_deref() == Some(row.username.as_str());
                if !still {
                    return Ok(false);
                }
                let last = view.moves.last();
                if let Some(last) = last {
                    params.retain(|(name, _)| *name != "opponent");
                    let mover =
                        view.seats.iter().find(|s| s.seat == last.seat).map_or("", |s| s.username.as_str());
                    params.push(("opponent", mover.to_owned()));
                }
                let notation = preferences::of_account(&self.domain.pool, row.account_id).await?;
                let variant = rules_adapter::parse_variant(&view.variant)?;
                let shown = preferences::moves_in(view, notation.notation_for(variant))?;
                params.push(("move", shown.last().cloned().unwrap_or_default()));
                if let Some(deadline) = view.deadline {
                    params.push((
                        "deadline",
                        outbox::local_time(&self.domain.pool, deadline, &row.time_zone).await?,
                    ));
                    params.push(("left", time_left(lang, deadline - self.domain.clock.now())));
                }
            }
            Kind::GameEnd | Kind::DirectorDecision => {
                params.push(("result", result_text(lang, view)));
                params.push((
                    "reason",
                    view.reason.map(|r| r.to_string().replace('-', " ")).unwrap_or_default(),
                ));
                if let Some(ruling) = &view.ruling {
                    let notation = preferences::of_account(&self.domain.pool, row.account_id).await?;
                    let variant = rules_adapter::parse_variant(&view.variant)?;
                    let moves = preferences::moves_in(view, notation.notation_for(variant))?;
                    let record = RulingRecord { variant, moves: &moves };
                    facts
                        .extra
                        .push(compose::html_to_text(&crate::web::ruling::paragraph(ruling, &record, lang)));
                }
            }
            _ => {}
        }
        Ok(true)
    }

    /// The digest: the games where it is the reader's move, the most urgent first, and
    /// the notifications left for it since the last one.
    async fn digest(&self, mut facts: Facts, row: &Claimed) -> DomainResult<Facts> {
        let links = &self.mailer.links;
        let now = self.domain.clock.now();
        let waiting = outbox::games_to_move(&self.domain.pool, row.account_id).await?;
        facts.params.push(("count", waiting.len().to_string()));
        for game in &waiting {
            let left = game.deadline.map(|d| time_left(facts.lang, d - now)).unwrap_or_default();
            facts.lines.push(Line {
                text: format!(
                    "{} {} ({}) – {}: {left}",
                    game_word(facts.lang),
                    game.game_id,
                    game.variant,
                    game.opponents
                ),
                url: Some(links.absolute(&format!("/games/{}", game.game_id))),
            });
        }
        let notices = outbox::digest_notices(&self.domain.pool, row.account_id, row.notification_id).await?;
        if !notices.is_empty() {
            facts.extra.push(compose::text(facts.lang, "digest.notices"));
            for (kind, game_id) in notices {
                let kind = compose::text(facts.lang, &format!("kind.{kind}"));
                facts.lines.push(Line {
                    text: match game_id {
                        Some(game) => format!("{kind}: {} {game}", game_word(facts.lang)),
                        None => kind,
                    },
                    url: game_id.map(|game| links.absolute(&format!("/games/{game}"))),
                });
            }
        }
        facts.link = Some(links.absolute("/"));
        Ok(facts)
    }
}

fn game_word(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "Game",
        Lang::It => "Partita",
    }
}

fn value_text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

fn parse_time(text: &str) -> Option<OffsetDateTime> {
    OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339).ok()
}

/// "2 d 3 h" or "5 h 20 min" left (nothing left: "0 h 0 min").
pub fn time_left(lang: Lang, left: time::Duration) -> String {
    let minutes = left.whole_minutes().max(0);
    let (days, hours, minutes) = (minutes / 1440, minutes / 60 % 24, minutes % 60);
    let key = if days > 0 { "left.days" } else { "left.hours" };
    compose::text(lang, key)
        .replace("{days}", &days.to_string())
        .replace("{hours}", &hours.to_string())
        .replace("{minutes}", &minutes.to_string())
}

/// The result in words: who won, a draw, or the places.
fn result_text(lang: Lang, view: &GameView) -> String {
    let winners: Vec<&str> = view
        .seats
        .iter()
        .filter(|s| s.outcome.is_some_and(|o| o.to_string() == "win"))
        .map(|s| s.username.as_str())
        .collect();
    let drawn = view.seats.iter().any(|s| s.outcome.is_some_and(|o| o.to_string() == "draw"));
    match (view.result.as_ref(), winners.as_slice()) {
        (None, _) => compose::text(lang, "result.none"),
        (Some(_), [winner]) if view.seats.len() == 2 => {
            compose::text(lang, "result.won").replace("{name}", winner)
        }
        (Some(_), _) if drawn && view.seats.len() == 2 => compose::text(lang, "result.draw"),
        (Some(result), _) if view.seats.len() > 2 => {
            compose::text(lang, "result.places").replace("{places}", &result.to_string())
        }
        (Some(result), _) => result.to_string(),
    }
}

/// Runs `sender` every `every` until `shutdown` changes: each run drains the outbox.
pub async fn run(sender: Sender, every: Duration, shutdown: watch::Receiver<bool>) {
    crate::tasks::named("mail-sender", every, shutdown, || sender.drain()).await;
}
