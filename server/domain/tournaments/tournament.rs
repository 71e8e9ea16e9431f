//! Tournaments: creating, reading and directing them.

use super::*;

/// A tournament's life: draft → registration → running → finished (never backwards).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum TournamentStatus {
    /// Being prepared by its directors.
    Draft,
    /// Players may register.
    Registration,
    /// Sections are being played.
    Running,
    /// Over.
    Finished,
}

impl TournamentStatus {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            TournamentStatus::Draft => "draft",
            TournamentStatus::Registration => "registration",
            TournamentStatus::Running => "running",
            TournamentStatus::Finished => "finished",
        }
    }

    pub(crate) fn from_db(text: &str) -> DomainResult<TournamentStatus> {
        Ok(match text {
            "draft" => TournamentStatus::Draft,
            "registration" => TournamentStatus::Registration,
            "running" => TournamentStatus::Running,
            "finished" => TournamentStatus::Finished,
            other => return Err(DomainError::Internal(anyhow::anyhow!("unknown tournament status {other}"))),
        })
    }
}

/// A new tournament as a director sends it.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct NewTournament {
    /// Its name (1 to 200 characters).
    pub name: String,
    /// Free text.
    #[serde(default)]
    pub description: String,
    /// Season label, e.g. "2026".
    pub season: Option<String>,
    /// Grand Prix settings when the sections make one overall table.
    pub grand_prix: Option<GrandPrixConfig>,
}

/// Changes to a tournament; absent fields stay as they are.
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
pub struct TournamentPatch {
    /// New name.
    pub name: Option<String>,
    /// New description.
    pub description: Option<String>,
    /// New season.
    pub season: Option<String>,
    /// Next status (only forwards).
    pub status: Option<TournamentStatus>,
    /// New Grand Prix settings.
    pub grand_prix: Option<GrandPrixConfig>,
}

/// A tournament as shown to clients.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct TournamentView {
    /// Tournament id.
    pub id: i64,
    /// Name.
    pub name: String,
    /// Description.
    pub description: String,
    /// Season.
    pub season: Option<String>,
    /// Status.
    pub status: TournamentStatus,
    /// Grand Prix settings, if the tournament has an overall table.
    pub grand_prix: Option<GrandPrixConfig>,
    /// Usernames of its directors.
    pub directors: Vec<String>,
    /// Its sections.
    pub sections: Vec<SectionView>,
}

pub(crate) fn check_name(name: &str) -> DomainResult<String> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 200 {
        return Err(DomainError::Invalid("a name has 1 to 200 characters".to_owned()));
    }
    Ok(name.to_owned())
}

/// Refuses anyone who is neither a director nor an admin.
pub(crate) fn ensure_director_role(actor: &Account) -> DomainResult<()> {
    match actor.role {
        Role::Director | Role::GlobalDirector | Role::Admin => Ok(()),
        Role::Player => Err(DomainError::Forbidden("only tournament directors may do this".to_owned())),
    }
}

/// Refuses anyone but an admin or one of the tournament's own directors.
pub(crate) async fn ensure_directs(
    executor: impl sqlx::PgExecutor<'_>,
    actor: &Account,
    tournament_id: i64,
) -> DomainResult<()> {
    ensure_director_role(actor)?;
    if actor.role.directs_all() {
        return Ok(());
    }
    if store::directs(executor, tournament_id, actor.id).await? {
        Ok(())
    } else {
        Err(DomainError::Forbidden("you are not a director of this tournament".to_owned()))
    }
}

/// Creates a tournament; its creator becomes its first director.
///
/// # Errors
/// Not a director or admin (403), bad name (422).
pub async fn create(domain: &Domain, actor: &Account, new: NewTournament) -> DomainResult<TournamentView> {
    create_in(domain, actor, new, None).await
}

/// Creates a tournament, and `first` in it, in one transaction; its creator becomes its
/// first director.
async fn create_in(
    domain: &Domain,
    actor: &Account,
    new: NewTournament,
    first: Option<PreparedSection>,
) -> DomainResult<TournamentView> {
    ensure_director_role(actor)?;
    let name = check_name(&new.name)?;
    let now = domain.clock.now();
    let mut tx = domain.pool.begin().await?;
    let row = store::NewTournamentRow {
        name: &name,
        description: &new.description,
        season: new.season.as_deref(),
        grand_prix: new.grand_prix.as_ref(),
        created_by: actor.id,
        created_at: now,
    };
    let id = store::insert(&mut tx, &row).await?;
    store::add_director(&mut *tx, id, actor.id).await?;
    if let Some(section) = first {
        section.insert(&mut *tx, id, now).await?;
    }
    tx.commit().await?;
    get(domain, id).await
}

/// Creates a tournament with its first section in one transaction (the site's form): both
/// are checked before anything is stored, so a refused section leaves no tournament.
///
/// # Errors
/// Not a director or admin (403), a bad name or section setting (422).
pub async fn create_with_section(
    domain: &Domain,
    actor: &Account,
    new: NewTournament,
    first: NewSection,
) -> DomainResult<TournamentView> {
    ensure_director_role(actor)?;
    create_in(domain, actor, new, Some(PreparedSection::check(first)?)).await
}

/// One tournament with its directors and sections.
///
/// # Errors
/// Unknown tournament (404).
pub async fn get(domain: &Domain, tournament_id: i64) -> DomainResult<TournamentView> {
    let row = store::row(&domain.pool, tournament_id)
        .await?
        .ok_or_else(|| DomainError::NotFound(format!("no tournament {tournament_id}")))?;
    let directors = store::directors(&domain.pool, tournament_id).await?;
    let section_ids = store::section_ids(&domain.pool, tournament_id).await?;
    let mut sections = Vec::with_capacity(section_ids.len());
    for id in section_ids {
        sections.push(section(domain, id).await?);
    }
    Ok(TournamentView {
        id: row.tournament_id,
        name: row.name,
        description: row.description,
        season: row.season,
        status: TournamentStatus::from_db(&row.status)?,
        grand_prix: row.grand_prix.map(|j| j.0),
        directors,
        sections,
    })
}

/// A tournament in the list.
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct TournamentSummary {
    /// Tournament id.
    pub id: i64,
    /// Name.
    pub name: String,
    /// Season.
    pub season: Option<String>,
    /// Status.
    pub status: String,
    /// When it was made (the list's order, newest first).
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
}

/// The filters of `GET /api/tournaments`; every field may be left out.
#[derive(Clone, Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TournamentQuery {
    /// Tournaments with this status (`draft`, `registration`, `running`, `finished`).
    #[serde(default)]
    pub status: Option<String>,
    /// Tournaments of this season (as the directors wrote it, e.g. `2026`).
    #[serde(default)]
    pub season: Option<String>,
    /// Tournaments with a section of this variant.
    #[serde(default)]
    pub variant: Option<String>,
    /// Tournaments this player entered (a section of them).
    #[serde(default)]
    pub player: Option<String>,
    /// The `next` cursor of the page before (absent: the newest tournaments).
    #[serde(default)]
    pub cursor: Option<String>,
    /// Tournaments per page (default 50, at most 200).
    #[serde(default)]
    pub limit: Option<usize>,
}

/// A page of the tournaments matching `query`, newest first.
///
/// # Errors
/// An unknown status, variant or cursor (422), an unknown player (404).
pub async fn list(domain: &Domain, query: &TournamentQuery) -> DomainResult<Page<TournamentSummary>> {
    use crate::domain::archive::{given, read_cursor};
    let mut filter = store::TournamentFilter::default();
    if let Some(status) = given(&query.status) {
        filter.status =
            Some(TournamentStatus::from_db(status).map(TournamentStatus::as_str).map_err(|_| {
                DomainError::Invalid(format!(
                    "unknown status {status:?} (draft, registration, running, finished)"
                ))
            })?);
    }
    filter.season = given(&query.season).map(str::to_owned);
    if let Some(variant) = given(&query.variant) {
        filter.variant = Some(rules_adapter::parse_variant(variant)?.name().to_owned());
    }
    if let Some(name) = given(&query.player) {
        filter.player = Some(
            crate::storage::players::public_account(&domain.pool, name)
                .await?
                .ok_or_else(|| DomainError::NotFound(format!("no player named {name}")))?
                .account_id,
        );
    }
    let after = read_cursor(query.cursor.as_deref(), "tournament.invalid-cursor")?;
    let limit = keyset::page_size(query.limit);
    let rows = store::list(&domain.pool, &filter, after, limit as i64 + 1).await?;
    Ok(Page::of(rows, limit, |t| Some(After { at: t.created_at, id: t.id })))
}

/// Edits a tournament (its own directors or an admin).
///
/// # Errors
/// Unknown (404), not its director (403), bad name or a status going backwards (422).
pub async fn update(
    domain: &Domain,
    actor: &Account,
    tournament_id: i64,
    patch: TournamentPatch,
) -> DomainResult<TournamentView> {
    let mut tx = domain.pool.begin().await?;
    let status = store::status(&mut *tx, tournament_id, true)
        .await?
        .ok_or_else(|| DomainError::NotFound(format!("no tournament {tournament_id}")))?;
    ensure_directs(&mut *tx, actor, tournament_id).await?;
    let current = TournamentStatus::from_db(&status)?;
    if let Some(next) = patch.status {
        if next < current {
            return Err(DomainError::Invalid(format!(
                "a tournament goes draft → registration → running → finished; it cannot go from {} back to {}",
                current.as_str(),
                next.as_str()
            )));
        }
    }
    let name = patch.name.as_deref().map(check_name).transpose()?;
    let change = store::TournamentChange {
        name: name.as_deref(),
        description: patch.description.as_deref(),
        season: patch.season.as_deref(),
        status: patch.status.map(TournamentStatus::as_str),
        grand_prix: patch.grand_prix.as_ref(),
    };
    store::update(&mut tx, tournament_id, &change).await?;
    if patch.status == Some(TournamentStatus::Registration) && current < TournamentStatus::Registration {
        // Its followers hear that registration opened, once: the status never goes back.
        store::notify_registration_open(&mut tx, tournament_id, domain.clock.now()).await?;
    }
    tx.commit().await?;
    get(domain, tournament_id).await
}

/// Adds a director to a tournament (its own directors or an admin); the new director's
/// account must have the director or admin role.
///
/// # Errors
/// Unknown tournament or account (404/422), not its director (403).
pub async fn add_director(
    domain: &Domain,
    actor: &Account,
    tournament_id: i64,
    username: &str,
) -> DomainResult<TournamentView> {
    ensure_exists(domain, tournament_id).await?;
    ensure_directs(&domain.pool, actor, tournament_id).await?;
    let id = account_id_by_username(&domain.pool, username)
        .await
        .map_err(|_| DomainError::Invalid(format!("no account named {username}")))?;
    if Role::from_db(&crate::storage::accounts::role_of(&domain.pool, id).await?) == Role::Player {
        return Err(DomainError::Invalid(format!("{username} does not have the director role")));
    }
    store::add_director(&domain.pool, tournament_id, id).await?;
    get(domain, tournament_id).await
}

pub(crate) async fn ensure_exists(domain: &Domain, tournament_id: i64) -> DomainResult<()> {
    if store::exists(&domain.pool, tournament_id).await? {
        Ok(())
    } else {
        Err(DomainError::NotFound(format!("no tournament {tournament_id}")))
    }
}
