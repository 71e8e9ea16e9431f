//! The one keyset cursor of every paged collection (issue 18 §3): the archive of games,
//! the challenges, the tournaments and the players are listed newest first by (a time,
//! an id), and a page starts after the last row of the one before — rows added meanwhile
//! never shift or repeat a page. Clients see it as opaque text (`<microseconds>-<id>`).

use sqlx::{Postgres, QueryBuilder};
use time::OffsetDateTime;

/// Where a page starts: after the row of time `at` and id `id` (in the order time
/// descending, id descending).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct After {
    /// The last row's time (a game's end, a challenge's or tournament's creation, an
    /// account's registration).
    pub at: OffsetDateTime,
    /// The last row's id.
    pub id: i64,
}

impl After {
    /// The cursor's text: microseconds since 1970, a hyphen, the id.
    pub fn to_cursor(self) -> String {
        format!("{}-{}", self.at.unix_timestamp_nanos() / 1000, self.id)
    }

    /// Reads a cursor [`After::to_cursor`] wrote (`None` for any other text).
    pub fn from_cursor(text: &str) -> Option<After> {
        let (micros, id) = text.split_once('-')?;
        let micros: i128 = micros.parse().ok()?;
        let at = OffsetDateTime::from_unix_timestamp_nanos(micros.checked_mul(1000)?).ok()?;
        Some(After { at, id: id.parse().ok()? })
    }

    /// Adds ` and (<time>, <id>) < (at, id)` to a query ordered by `<time> desc, <id> desc`.
    pub(crate) fn push_condition(self, query: &mut QueryBuilder<'_, Postgres>, time: &str, id: &str) {
        query.push(format!(" and ({time}, {id}) < ("));
        query.push_bind(self.at).push(", ").push_bind(self.id).push(")");
    }
}

/// Rows per page unless asked otherwise, and at most.
pub const PAGE_SIZE: usize = 50;
/// The most rows a page may ask for.
pub const MAX_PAGE_SIZE: usize = 200;

/// The rows of a page asked for with `limit` (default [`PAGE_SIZE`], within 1 to
/// [`MAX_PAGE_SIZE`]).
pub fn page_size(limit: Option<usize>) -> usize {
    limit.unwrap_or(PAGE_SIZE).clamp(1, MAX_PAGE_SIZE)
}

/// Cuts `rows` (read with one more than `limit`) to the page and says where the next
/// starts: after its last row (`key` gives its time and id), `None` on the last page.
pub fn cut<T>(rows: &mut Vec<T>, limit: usize, key: impl Fn(&T) -> Option<After>) -> Option<After> {
    if rows.len() > limit {
        rows.truncate(limit);
        rows.last().and_then(key)
    } else {
        None
    }
}

/// One page of a collection and the cursor of the next (`None` on the last).
#[derive(Debug)]
pub struct Page<T> {
    /// The rows, newest first.
    pub items: Vec<T>,
    /// The `cursor` of the next page.
    pub next: Option<String>,
}

impl<T> Page<T> {
    /// The page of `rows` read with one more than `limit`: the extra row says there is a
    /// next page, which starts after the page's last row (`key`: its time and id).
    pub fn of(mut rows: Vec<T>, limit: usize, key: impl Fn(&T) -> Option<After>) -> Page<T> {
        let next = cut(&mut rows, limit, key).map(After::to_cursor);
        Page { items: rows, next }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cursor_reads_back_and_a_foreign_one_is_refused() {
        let at = time::macros::datetime!(2026-03-01 12:00:00.123456 UTC);
        let after = After { at, id: 42 };
        assert_eq!(After::from_cursor(&after.to_cursor()), Some(after));
        assert_eq!(after.to_cursor(), format!("{}-42", at.unix_timestamp_nanos() / 1000));
        for bad in ["", "abc", "12", "x-1", "1-x", "99999999999999999999999999999-1"] {
            assert_eq!(After::from_cursor(bad), None, "{bad}");
        }
    }
}
