//! The events as the site lists them (issue 38 §1): each tournament with its sections'
//! variants, time controls and entrants, and the dates of its games; and where a
//! tournament game belongs (its game page says so).

use super::*;

/// A section in the list of tournaments.
#[derive(Debug)]
pub struct ListedSection {
    /// Section id.
    pub id: i64,
    /// Name.
    pub name: String,
    /// Variant.
    pub variant: String,
    /// Time control of its games.
    pub time_control: TimeControl,
    /// Active entrants.
    pub entrants: i64,
}

/// A tournament in the list, with its sections and dates.
#[derive(Debug)]
pub struct ListedTournament {
    /// The tournament.
    pub summary: TournamentSummary,
    /// Its sections.
    pub sections: Vec<ListedSection>,
    /// When its first game started (none before the start).
    pub started: Option<OffsetDateTime>,
    /// When its last game ended so far.
    pub last_result: Option<OffsetDateTime>,
}

/// A page of the tournaments of one `status`, newest first, from `cursor` (the keyset
/// cursor of `GET /api/tournaments`), each with its sections and dates.
///
/// # Errors
/// An unknown cursor (422).
pub async fn listed(
    domain: &Domain,
    status: TournamentStatus,
    cursor: Option<String>,
    limit: usize,
) -> DomainResult<Page<ListedTournament>> {
    let query = TournamentQuery {
        status: Some(status.as_str().to_owned()),
        cursor,
        limit: Some(limit),
        ..TournamentQuery::default()
    };
    let page = list(domain, &query).await?;
    Ok(Page { items: with_sections(domain, page.items).await?, next: page.next })
}

/// One tournament as the list shows it (`None`: no such tournament).
///
/// # Errors
/// Database failure.
pub async fn listed_one(domain: &Domain, tournament_id: i64) -> DomainResult<Option<ListedTournament>> {
    let Some(summary) = store::summary(&domain.pool, tournament_id).await? else { return Ok(None) };
    Ok(with_sections(domain, vec![summary]).await?.pop())
}

/// The tournaments with their sections and the dates of their games.
async fn with_sections(
    domain: &Domain,
    summaries: Vec<TournamentSummary>,
) -> DomainResult<Vec<ListedTournament>> {
    let ids: Vec<i64> = summaries.iter().map(|t| t.id).collect();
    let mut sections: HashMap<i64, Vec<ListedSection>> = HashMap::new();
    for row in store::section_summaries(&domain.pool, &ids).await? {
        sections.entry(row.tournament_id).or_default().push(ListedSection {
            id: row.section_id,
            name: row.name,
            variant: row.variant,
            time_control: row.time_control.0,
            entrants: row.entrants,
        });
    }
    let dates: HashMap<i64, (OffsetDateTime, Option<OffsetDateTime>)> = store::game_dates(&domain.pool, &ids)
        .await?
        .into_iter()
        .map(|(id, started, ended)| (id, (started, ended)))
        .collect();
    Ok(summaries
        .into_iter()
        .map(|summary| {
            let dates = dates.get(&summary.id).copied();
            ListedTournament {
                sections: sections.remove(&summary.id).unwrap_or_default(),
                started: dates.map(|(started, _)| started),
                last_result: dates.and_then(|(_, ended)| ended),
                summary,
            }
        })
        .collect())
}

/// Where a tournament game belongs.
#[derive(Debug)]
pub struct GamePlace {
    /// Tournament id.
    pub tournament_id: i64,
    /// Tournament name.
    pub tournament: String,
    /// Section id.
    pub section_id: i64,
    /// Section name.
    pub section: String,
    /// Round.
    pub round: i32,
}

/// The tournament, section and round of a game (`None` for a casual game).
///
/// # Errors
/// Database failure.
pub async fn place_of_game(domain: &Domain, game_id: i64) -> DomainResult<Option<GamePlace>> {
    Ok(store::game_place(&domain.pool, game_id).await?.map(|row| GamePlace {
        tournament_id: row.tournament_id,
        tournament: row.tournament,
        section_id: row.section_id,
        section: row.section,
        round: row.round,
    }))
}
