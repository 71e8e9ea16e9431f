//! The archive of finished games (issue 18 §3): the search by player, opponent, variant,
//! result, end reason, dates, tournament and rating, a page at a time behind an opaque
//! cursor (`storage::archive`: keyset pagination, stable while games keep finishing).

use serde::Deserialize;
use time::{Date, Time};

use super::error::{DomainError, DomainResult, ErrorKind};
use super::games::{GameReason, GameResult, GameSummary, SeatOutcome};
use super::Domain;
use crate::storage::archive::{self as stored, After, ArchiveFilter, PlayerRef};
use crate::storage::keyset;
use crate::storage::players::public_account;

/// Games per page unless asked otherwise.
pub const PAGE_SIZE: usize = keyset::PAGE_SIZE;

/// The archive's search, as a client sends it (query parameters of `GET /api/games` and
/// of the `/archive` page); every field may be left out or empty.
#[derive(Clone, Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ArchiveQuery {
    /// Games of this player.
    #[serde(default)]
    pub player: Option<String>,
    /// Games against this player (with `player`: their games against each other).
    #[serde(default)]
    pub opponent: Option<String>,
    /// The variant (`xiangqi`, `shogi`, `minishogi`, `flickering`, `seven-kingdoms`).
    #[serde(default)]
    pub variant: Option<String>,
    /// `1-0`, `0-1`, `1/2-1/2` (the game's result), or with `player` that player's
    /// `win`, `draw` or `loss`.
    #[serde(default)]
    pub result: Option<String>,
    /// How it ended (kebab-case, e.g. `perpetual-chase`, `checkmate`, `resignation`).
    #[serde(default)]
    pub reason: Option<String>,
    /// Finished on or after this day (`YYYY-MM-DD`, UTC).
    #[serde(default)]
    pub from: Option<String>,
    /// Finished on or before this day (`YYYY-MM-DD`, UTC).
    #[serde(default)]
    pub to: Option<String>,
    /// Games of this tournament (its id).
    #[serde(default)]
    pub tournament: Option<String>,
    /// `true`: rated games only; `false`: unrated only.
    #[serde(default)]
    pub rated: Option<String>,
    /// The `next` cursor of the page before (absent: the newest games).
    #[serde(default)]
    pub cursor: Option<String>,
    /// Games per page (default 50, at most 200).
    #[serde(default)]
    pub limit: Option<usize>,
}

/// A yes/no filter (`rated=true`): `None` when left out or empty.
///
/// # Errors
/// Anything but true/false, 1/0, yes/no (422 `code`).
pub fn flag(field: &Option<String>, code: &'static str) -> DomainResult<Option<bool>> {
    match given(field) {
        None => Ok(None),
        Some("true" | "1" | "yes") => Ok(Some(true)),
        Some("false" | "0" | "no") => Ok(Some(false)),
        Some(other) => Err(invalid(code, format!("rated is true or false, not {other:?}"))),
    }
}

/// The text of an optional field, `None` when left empty.
pub(crate) fn given(field: &Option<String>) -> Option<&str> {
    field.as_deref().map(str::trim).filter(|t| !t.is_empty())
}

impl ArchiveQuery {
    /// Whether the query asks for anything only the archive answers (a filter beyond the
    /// player, or a cursor).
    pub fn is_search(&self) -> bool {
        [&self.opponent, &self.variant, &self.result, &self.reason, &self.from, &self.to]
            .into_iter()
            .chain([&self.tournament, &self.rated, &self.cursor])
            .any(|f| given(f).is_some())
            || self.limit.is_some()
    }
}

fn invalid(code: &'static str, detail: String) -> DomainError {
    DomainError::coded(ErrorKind::Invalid, code, detail)
}

fn day(text: &str, field: &str) -> DomainResult<Date> {
    let format = time::macros::format_description!("[year]-[month]-[day]");
    Date::parse(text, &format).map_err(|_| {
        invalid("archive.invalid-date", format!("{field} must be a day as YYYY-MM-DD, not {text:?}"))
    })
}

/// A page of the archive.
#[derive(Debug)]
pub struct ArchivePage {
    /// The games, newest first.
    pub games: Vec<GameSummary>,
    /// The cursor of the next page, `None` on the last.
    pub next: Option<String>,
}

/// Where the page after `game` starts: after its end.
fn key(game: &GameSummary) -> Option<After> {
    Some(After { at: game.finished_at?, id: game.id })
}

/// Reads a client's cursor; `code` names the collection's refusal of a foreign one.
///
/// # Errors
/// A text no collection gave as a cursor (422 `code`).
pub fn read_cursor(text: Option<&str>, code: &'static str) -> DomainResult<Option<After>> {
    text.map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| {
            After::from_cursor(t)
                .ok_or_else(|| invalid(code, format!("{t:?} is not a cursor this server gave")))
        })
        .transpose()
}

/// Who `name` is: an account, or a name imported records give; 404 for neither.
async fn player_ref(domain: &Domain, name: &str) -> DomainResult<PlayerRef> {
    if let Some(account) = public_account(&domain.pool, name).await? {
        return Ok(PlayerRef::Account(account.account_id));
    }
    if stored::imported_name_exists(&domain.pool, name).await? {
        return Ok(PlayerRef::Name(name.to_owned()));
    }
    Err(DomainError::NotFound(format!("no player named {name}")))
}

/// The filter a query asks for.
///
/// # Errors
/// An unknown player (404); an unreadable result, reason, date, tournament or rated
/// flag (422).
pub async fn filter_of(domain: &Domain, query: &ArchiveQuery) -> DomainResult<ArchiveFilter> {
    let mut filter = ArchiveFilter::default();
    if let Some(name) = given(&query.player) {
        filter.player = Some(player_ref(domain, name).await?);
    }
    if let Some(name) = given(&query.opponent) {
        filter.opponent = Some(player_ref(domain, name).await?);
    }
    if let Some(variant) = given(&query.variant) {
        filter.variant = Some(super::rules_adapter::parse_variant(variant)?.name().to_owned());
    }
    match given(&query.result) {
        None => {}
        Some(outcome @ ("win" | "draw" | "loss")) => {
            if filter.player.is_none() {
                return Err(invalid("archive.invalid-result", format!("result={outcome} needs a player")));
            }
            filter.outcome = outcome.parse::<SeatOutcome>().ok();
        }
        Some(result) => {
            filter.result = Some(result.parse::<GameResult>().map_err(|_| {
                invalid(
                    "archive.invalid-result",
                    format!("unknown result {result:?} (1-0, 0-1, 1/2-1/2, win, draw, loss)"),
                )
            })?);
        }
    }
    if let Some(reason) = given(&query.reason) {
        filter.reason = Some(
            reason
                .parse::<GameReason>()
                .map_err(|_| invalid("archive.invalid-reason", format!("unknown end reason {reason:?}")))?,
        );
    }
    if let Some(from) = given(&query.from) {
        filter.from = Some(day(from, "from")?.with_time(Time::MIDNIGHT).assume_utc());
    }
    if let Some(to) = given(&query.to) {
        let next_day = day(to, "to")?
            .next_day()
            .ok_or_else(|| invalid("archive.invalid-date", "to is too late".into()))?;
        filter.until = Some(next_day.with_time(Time::MIDNIGHT).assume_utc());
    }
    if let Some(tournament) = given(&query.tournament) {
        filter.tournament = Some(tournament.parse().map_err(|_| {
            invalid("archive.invalid-tournament", format!("{tournament:?} is not a tournament id"))
        })?);
    }
    filter.rated = flag(&query.rated, "archive.invalid-rated")?;
    Ok(filter)
}

/// One page of the finished games matching `query`.
///
/// # Errors
/// As [`filter_of`]; a cursor this archive did not give (422).
pub async fn search(domain: &Domain, query: &ArchiveQuery) -> DomainResult<ArchivePage> {
    let filter = filter_of(domain, query).await?;
    let after = read_cursor(query.cursor.as_deref(), "archive.invalid-cursor")?;
    let limit = keyset::page_size(query.limit);
    page(domain, &filter, after, limit).await
}

/// The page of `limit` games of `filter` after `after`.
///
/// # Errors
/// Database failure.
pub async fn page(
    domain: &Domain,
    filter: &ArchiveFilter,
    after: Option<After>,
    limit: usize,
) -> DomainResult<ArchivePage> {
    // One more than asked says whether there is a next page.
    let mut games = stored::search(&domain.pool, filter, after, limit as i64 + 1).await?;
    let next = keyset::cut(&mut games, limit, key).map(After::to_cursor);
    Ok(ArchivePage { games, next })
}

/// Where the page after `game` starts (for a streamed export going through every page).
pub fn after(game: &GameSummary) -> Option<After> {
    key(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_foreign_cursor_is_refused_with_the_collections_code() {
        assert_eq!(read_cursor(None, "archive.invalid-cursor").unwrap(), None);
        assert_eq!(read_cursor(Some(" "), "archive.invalid-cursor").unwrap(), None);
        let after = After { at: time::macros::datetime!(2026-03-01 12:00:00.123456 UTC), id: 42 };
        assert_eq!(read_cursor(Some(&after.to_cursor()), "x").unwrap(), Some(after));
        for bad in ["abc", "12", "x-1", "1-x"] {
            assert_eq!(
                read_cursor(Some(bad), "archive.invalid-cursor").unwrap_err().code(),
                "archive.invalid-cursor"
            );
        }
    }
}
