//! Tournaments: directors create tournaments and their sections, register and seed
//! players, start sections (every game created with its clock running), decide results
//! (adjudication, forfeit, correction, each recorded in the audit trail) and read the
//! tables. The pairings, standings and tables themselves come from the pure
//! `tavoliere_tournament` crate; this module only loads rows and stores decisions.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use sqlx::types::Json;
use sqlx::{Postgres, Transaction};
use tavoliere_rules::EndReason;
use tavoliere_tournament::berger::{round_robin, Cycles, RoundRobinOptions, StartPolicy};
use tavoliere_tournament::grand_prix::{compute_grand_prix, GpFormula, GrandPrixConfig, SectionResults};
use tavoliere_tournament::standings::{compute_standings, Standing, StandingsConfig, TieBreak};
use tavoliere_tournament::swiss::{pair_swiss_round, trf_export, SwissBye, SwissError, SwissOptions};
use tavoliere_tournament::tables::{
    build_crosstable, build_grand_prix_table, Crosstable, GrandPrixTable, PlayerInfo, SectionInfo,
};
use tavoliere_tournament::withdrawal::{apply_withdrawal, WithdrawalRule};
use tavoliere_tournament::{ByePoints, GameId, GameRecord, GameResult, PlayerId, Points, Scoring, SectionId};
use time::OffsetDateTime;

use super::accounts::{account_id_by_username, Account, Role};
use super::error::{DomainError, DomainResult};
use super::games;
use super::rules_adapter::{self, Variant};
use super::time_control::TimeControl;
use super::Domain;

// ---------------------------------------------------------------------------------------
// Tournaments
// ---------------------------------------------------------------------------------------

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

    fn from_db(text: &str) -> DomainResult<TournamentStatus> {
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

#[derive(sqlx::FromRow)]
struct TournamentRow {
    tournament_id: i64,
    name: String,
    description: String,
    season: Option<String>,
    status: String,
    grand_prix: Option<Json<GrandPrixConfig>>,
}

fn check_name(name: &str) -> DomainResult<String> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 200 {
        return Err(DomainError::Invalid("a name has 1 to 200 characters".to_owned()));
    }
    Ok(name.to_owned())
}

/// Refuses anyone who is neither a director nor an admin.
fn ensure_director_role(actor: &Account) -> DomainResult<()> {
    match actor.role {
        Role::Director | Role::Admin => Ok(()),
        Role::Player => Err(DomainError::Forbidden("only tournament directors may do this".to_owned())),
    }
}

/// Refuses anyone but an admin or one of the tournament's own directors.
async fn ensure_directs(
    executor: impl sqlx::PgExecutor<'_>,
    actor: &Account,
    tournament_id: i64,
) -> DomainResult<()> {
    ensure_director_role(actor)?;
    if actor.role == Role::Admin {
        return Ok(());
    }
    let directs: bool = sqlx::query_scalar(
        "select exists (select 1 from tournament_director where tournament_id = $1 and account_id = $2)",
    )
    .bind(tournament_id)
    .bind(actor.id)
    .fetch_one(executor)
    .await?;
    if directs {
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
    ensure_director_role(actor)?;
    let name = check_name(&new.name)?;
    let mut tx = domain.pool.begin().await?;
    let id: i64 = sqlx::query_scalar(
        r#"insert into tournament (name, description, season, grand_prix, created_by, created_at)
           values ($1, $2, $3, $4, $5, $6) returning tournament_id"#,
    )
    .bind(&name)
    .bind(&new.description)
    .bind(&new.season)
    .bind(new.grand_prix.map(Json))
    .bind(actor.id)
    .bind(domain.clock.now())
    .fetch_one(&mut *tx)
    .await?;
    sqlx::query("insert into tournament_director (tournament_id, account_id) values ($1, $2)")
        .bind(id)
        .bind(actor.id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    get(domain, id).await
}

/// One tournament with its directors and sections.
///
/// # Errors
/// Unknown tournament (404).
pub async fn get(domain: &Domain, tournament_id: i64) -> DomainResult<TournamentView> {
    let row = sqlx::query_as::<_, TournamentRow>(
        r#"select tournament_id, name, description, season, status, grand_prix
           from tournament where tournament_id = $1"#,
    )
    .bind(tournament_id)
    .fetch_optional(&domain.pool)
    .await?
    .ok_or_else(|| DomainError::NotFound(format!("no tournament {tournament_id}")))?;
    let directors: Vec<String> = sqlx::query_scalar(
        r#"select a.username from tournament_director d join account a using (account_id)
           where d.tournament_id = $1 order by a.username"#,
    )
    .bind(tournament_id)
    .fetch_all(&domain.pool)
    .await?;
    let section_ids: Vec<i64> =
        sqlx::query_scalar("select section_id from section where tournament_id = $1 order by section_id")
            .bind(tournament_id)
            .fetch_all(&domain.pool)
            .await?;
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
}

/// Every tournament, newest first.
///
/// # Errors
/// Database failure.
pub async fn list(domain: &Domain) -> DomainResult<Vec<TournamentSummary>> {
    Ok(sqlx::query_as::<_, TournamentSummary>(
        r#"select tournament_id as id, name, season, status from tournament
           order by tournament_id desc limit 500"#,
    )
    .fetch_all(&domain.pool)
    .await?)
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
    let status: String =
        sqlx::query_scalar("select status from tournament where tournament_id = $1 for update")
            .bind(tournament_id)
            .fetch_optional(&mut *tx)
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
    sqlx::query(
        r#"update tournament set name = coalesce($2, name), description = coalesce($3, description),
               season = coalesce($4, season), status = coalesce($5, status),
               grand_prix = coalesce($6, grand_prix)
           where tournament_id = $1"#,
    )
    .bind(tournament_id)
    .bind(name)
    .bind(patch.description)
    .bind(patch.season)
    .bind(patch.status.map(TournamentStatus::as_str))
    .bind(patch.grand_prix.map(Json))
    .execute(&mut *tx)
    .await?;
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
    let role: String = sqlx::query_scalar("select role from account where account_id = $1")
        .bind(id)
        .fetch_one(&domain.pool)
        .await?;
    if role == "player" {
        return Err(DomainError::Invalid(format!("{username} does not have the director role")));
    }
    sqlx::query(
        r#"insert into tournament_director (tournament_id, account_id) values ($1, $2)
           on conflict do nothing"#,
    )
    .bind(tournament_id)
    .bind(id)
    .execute(&domain.pool)
    .await?;
    get(domain, tournament_id).await
}

async fn ensure_exists(domain: &Domain, tournament_id: i64) -> DomainResult<()> {
    let exists: bool =
        sqlx::query_scalar("select exists (select 1 from tournament where tournament_id = $1)")
            .bind(tournament_id)
            .fetch_one(&domain.pool)
            .await?;
    if exists {
        Ok(())
    } else {
        Err(DomainError::NotFound(format!("no tournament {tournament_id}")))
    }
}

// ---------------------------------------------------------------------------------------
// Sections
// ---------------------------------------------------------------------------------------

/// How a section is paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum PairingSystem {
    /// Everyone meets everyone once (Berger tables).
    RoundRobin,
    /// Everyone meets everyone twice, once with each colour.
    DoubleRoundRobin,
    /// Swiss system (Dutch subset), round by round.
    Swiss,
}

impl PairingSystem {
    fn as_str(self) -> &'static str {
        match self {
            PairingSystem::RoundRobin => "round-robin",
            PairingSystem::DoubleRoundRobin => "double-round-robin",
            PairingSystem::Swiss => "swiss",
        }
    }

    fn from_db(text: &str) -> DomainResult<PairingSystem> {
        Ok(match text {
            "round-robin" => PairingSystem::RoundRobin,
            "double-round-robin" => PairingSystem::DoubleRoundRobin,
            "swiss" => PairingSystem::Swiss,
            other => return Err(DomainError::Internal(anyhow::anyhow!("unknown pairing system {other}"))),
        })
    }
}

/// A section's scoring: a named system or custom points.
#[derive(Clone, Copy, Debug, Deserialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum ScoringSpec {
    /// `"1-half-0"` (the default) or `"3-2-1-0"`.
    Named(ScoringName),
    /// Any win / draw / loss / forfeit points.
    Custom(Scoring),
}

/// The named scoring systems.
#[derive(Clone, Copy, Debug, Deserialize, utoipa::ToSchema)]
pub enum ScoringName {
    /// 1 / ½ / 0.
    #[serde(rename = "1-half-0")]
    Classic,
    /// 3 / 2 / 1 / 0 (a forfeit loss is worth 0).
    #[serde(rename = "3-2-1-0")]
    ThreeTwoOne,
}

impl ScoringSpec {
    fn scoring(self) -> Scoring {
        match self {
            ScoringSpec::Named(ScoringName::Classic) => Scoring::default(),
            ScoringSpec::Named(ScoringName::ThreeTwoOne) => Scoring::three_two_one(),
            ScoringSpec::Custom(scoring) => scoring,
        }
    }
}

/// A new section as a director sends it.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct NewSection {
    /// Name, e.g. "Xiangqi A".
    pub name: String,
    /// The variant's name; tournaments pair two players (every variant but the Seven
    /// Kingdoms).
    #[schema(schema_with = rules_adapter::pairable_variant_schema)]
    pub variant: String,
    /// Ruleset (`cxq`, `aise-tournament`, a shogi impasse rule...); the variant's default
    /// when absent.
    pub ruleset: Option<String>,
    /// Time control of every game.
    pub time_control: TimeControl,
    /// Whether leave stops the clocks (default yes).
    #[serde(default = "default_true")]
    pub vacation_allowed: bool,
    /// Pairing system.
    pub pairing: PairingSystem,
    /// Round-robin: every game starts with the section (default) or round by round.
    #[serde(default)]
    pub start_policy: StartPolicy,
    /// Swiss: the number of rounds planned.
    pub swiss_rounds: Option<u32>,
    /// Scoring (default 1 / ½ / 0).
    pub scoring: Option<ScoringSpec>,
    /// Swiss: what a pairing-allocated bye scores: `"win"` (the default, FIDE C.04.1),
    /// `"draw"`, `"loss"` or a number of points.
    pub bye_points: Option<ByePoints>,
    /// Tie-break order (default Sonneborn-Berger, direct encounter, wins; Buchholz first
    /// for Swiss).
    pub tie_breaks: Option<Vec<TieBreak>>,
    /// What a withdrawal does to the unplayed games (default: forfeited).
    #[serde(default)]
    pub withdrawal_rule: WithdrawalRule,
}

fn default_true() -> bool {
    true
}

/// A section as shown to clients.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct SectionView {
    /// Section id.
    pub id: i64,
    /// Its tournament.
    pub tournament_id: i64,
    /// Name.
    pub name: String,
    /// Variant.
    #[schema(schema_with = rules_adapter::variant_name_schema)]
    pub variant: String,
    /// Ruleset.
    pub ruleset: String,
    /// Time control.
    pub time_control: TimeControl,
    /// Whether leave stops the clocks.
    pub vacation_allowed: bool,
    /// Pairing system.
    pub pairing: PairingSystem,
    /// When the round-robin games start.
    pub start_policy: StartPolicy,
    /// Swiss rounds planned.
    pub swiss_rounds: Option<i32>,
    /// Points per result.
    pub scoring: Scoring,
    /// Swiss: what a pairing-allocated bye scores (`null` for round-robins, whose byes are
    /// rounds without a game).
    pub bye_points: Option<ByePoints>,
    /// Tie-breaks in order.
    pub tie_breaks: Vec<TieBreak>,
    /// Withdrawal rule.
    pub withdrawal_rule: WithdrawalRule,
    /// `registration`, `running` or `finished`.
    pub status: String,
    /// The last round whose games exist.
    pub current_round: i32,
    /// The entries in draw order.
    pub entries: Vec<EntryView>,
}

/// An entry as shown to clients.
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct EntryView {
    /// The player.
    pub username: String,
    /// Seed (draw order), if given.
    pub seed: Option<i32>,
    /// `active` or `withdrawn`.
    pub status: String,
}

#[derive(sqlx::FromRow)]
struct SectionRow {
    section_id: i64,
    tournament_id: i64,
    name: String,
    variant: String,
    ruleset: String,
    time_control: Json<TimeControl>,
    vacation_allowed: bool,
    pairing: String,
    start_policy: String,
    swiss_rounds: Option<i32>,
    scoring: Json<Scoring>,
    bye_points: Json<ByePoints>,
    tie_breaks: Json<Vec<TieBreak>>,
    withdrawal_rule: String,
    status: String,
    current_round: i32,
}

const SECTION_COLUMNS: &str = r#"section_id, tournament_id, name, variant, ruleset, time_control,
    vacation_allowed, pairing, start_policy, swiss_rounds, scoring, bye_points, tie_breaks, withdrawal_rule,
    status, current_round"#;

impl SectionRow {
    fn pairing(&self) -> DomainResult<PairingSystem> {
        PairingSystem::from_db(&self.pairing)
    }

    fn start_policy(&self) -> StartPolicy {
        if self.start_policy == "round-by-round" {
            StartPolicy::RoundByRound
        } else {
            StartPolicy::AllTogether
        }
    }

    fn withdrawal_rule(&self) -> WithdrawalRule {
        if self.withdrawal_rule == "annul-if-fewer-than-half-played" {
            WithdrawalRule::AnnulIfFewerThanHalfPlayed
        } else {
            WithdrawalRule::ForfeitUnplayed
        }
    }

    fn standings_config(&self) -> StandingsConfig {
        StandingsConfig {
            scoring: self.scoring.0,
            tie_breaks: self.tie_breaks.0.clone(),
            bye_points: self.bye_points.0,
        }
    }

    /// The Swiss pairing settings: the scoring, the bye's points under it, and the rounds
    /// planned (the last one applies the top-scorer rules).
    fn swiss_options(&self) -> SwissOptions {
        SwissOptions {
            scoring: self.scoring.0,
            bye_points: self.bye_points.0.points(&self.scoring.0),
            rounds: self.swiss_rounds.and_then(|rounds| u32::try_from(rounds).ok()),
            ..SwissOptions::default()
        }
    }
}

/// Checks a section's bye setting: Swiss sections only, never negative.
fn check_bye_points(pairing: PairingSystem, bye_points: Option<ByePoints>) -> DomainResult<()> {
    match bye_points {
        Some(_) if pairing != PairingSystem::Swiss => {
            Err(DomainError::Invalid("bye_points is for Swiss sections".to_owned()))
        }
        Some(ByePoints::Fixed(points)) if points < Points::ZERO => {
            Err(DomainError::Invalid(format!("bye_points ({points}) must not be negative")))
        }
        _ => Ok(()),
    }
}

fn start_policy_name(policy: StartPolicy) -> &'static str {
    match policy {
        StartPolicy::AllTogether => "all-together",
        StartPolicy::RoundByRound => "round-by-round",
    }
}

fn withdrawal_rule_name(rule: WithdrawalRule) -> &'static str {
    match rule {
        WithdrawalRule::ForfeitUnplayed => "forfeit-unplayed",
        WithdrawalRule::AnnulIfFewerThanHalfPlayed => "annul-if-fewer-than-half-played",
    }
}

/// Checks that `ruleset` belongs to `variant` (the rules crate names the rulesets).
fn ruleset_for(variant: Variant, ruleset: Option<&str>) -> DomainResult<String> {
    rules_adapter::pairable(variant)?;
    rules_adapter::ruleset_for(variant, ruleset)
}

async fn load_section(
    executor: impl sqlx::PgExecutor<'_>,
    section_id: i64,
    lock: bool,
) -> DomainResult<SectionRow> {
    let lock = if lock { " for update" } else { "" };
    sqlx::query_as::<_, SectionRow>(&format!(
        "select {SECTION_COLUMNS} from section where section_id = $1{lock}"
    ))
    .bind(section_id)
    .fetch_optional(executor)
    .await?
    .ok_or_else(|| DomainError::NotFound(format!("no section {section_id}")))
}

/// Adds a section to a tournament (its own directors or an admin).
///
/// # Errors
/// Unknown tournament (404), not its director (403), unknown variant, ruleset or bad time
/// control, a Swiss section without its number of rounds (422).
pub async fn create_section(
    domain: &Domain,
    actor: &Account,
    tournament_id: i64,
    new: NewSection,
) -> DomainResult<SectionView> {
    ensure_exists(domain, tournament_id).await?;
    ensure_directs(&domain.pool, actor, tournament_id).await?;
    let name = check_name(&new.name)?;
    let variant: Variant = rules_adapter::parse_variant(&new.variant)?;
    let ruleset = ruleset_for(variant, new.ruleset.as_deref())?;
    let control = new.time_control.validate()?;
    let swiss_rounds = match (new.pairing, new.swiss_rounds) {
        (PairingSystem::Swiss, Some(rounds)) if (1..=50).contains(&rounds) => Some(rounds as i32),
        (PairingSystem::Swiss, _) => {
            return Err(DomainError::Invalid(
                "a Swiss section needs swiss_rounds between 1 and 50".to_owned(),
            ))
        }
        (_, _) => None,
    };
    let scoring = new.scoring.map_or_else(Scoring::default, ScoringSpec::scoring);
    check_bye_points(new.pairing, new.bye_points)?;
    let bye_points = new.bye_points.unwrap_or_default();
    let tie_breaks = new.tie_breaks.unwrap_or_else(|| match new.pairing {
        PairingSystem::Swiss => vec![TieBreak::Buchholz, TieBreak::SonnebornBerger, TieBreak::Wins],
        _ => StandingsConfig::default().tie_breaks,
    });
    let id: i64 = sqlx::query_scalar(
        r#"insert into section (tournament_id, name, variant, ruleset, time_control, vacation_allowed,
               pairing, start_policy, swiss_rounds, scoring, tie_breaks, withdrawal_rule, created_at, bye_points)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) returning section_id"#,
    )
    .bind(tournament_id)
    .bind(&name)
    .bind(variant.name())
    .bind(&ruleset)
    .bind(Json(control))
    .bind(new.vacation_allowed)
    .bind(new.pairing.as_str())
    .bind(start_policy_name(new.start_policy))
    .bind(swiss_rounds)
    .bind(Json(scoring))
    .bind(Json(&tie_breaks))
    .bind(withdrawal_rule_name(new.withdrawal_rule))
    .bind(domain.clock.now())
    .bind(Json(bye_points))
    .fetch_one(&domain.pool)
    .await?;
    section(domain, id).await
}

/// One section with its entries.
///
/// # Errors
/// Unknown section (404).
pub async fn section(domain: &Domain, section_id: i64) -> DomainResult<SectionView> {
    let row = load_section(&domain.pool, section_id, false).await?;
    let entries = sqlx::query_as::<_, EntryView>(
        r#"select a.username, e.seed, e.status from entry e join account a using (account_id)
           where e.section_id = $1
           order by e.seed asc nulls last, e.registered_at, e.account_id"#,
    )
    .bind(section_id)
    .fetch_all(&domain.pool)
    .await?;
    let pairing = row.pairing()?;
    Ok(SectionView {
        id: row.section_id,
        tournament_id: row.tournament_id,
        pairing,
        bye_points: (pairing == PairingSystem::Swiss).then_some(row.bye_points.0),
        start_policy: row.start_policy(),
        withdrawal_rule: row.withdrawal_rule(),
        name: row.name,
        variant: row.variant,
        ruleset: row.ruleset,
        time_control: row.time_control.0,
        vacation_allowed: row.vacation_allowed,
        swiss_rounds: row.swiss_rounds,
        scoring: row.scoring.0,
        tie_breaks: row.tie_breaks.0,
        status: row.status,
        current_round: row.current_round,
        entries,
    })
}

/// Changes to a section; absent fields stay as they are. The name, scoring and tie-break
/// order may change at any time (the tables are recomputed); the game settings and the
/// withdrawal rule only before the start; `status: "finished"` closes a running section.
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
pub struct SectionPatch {
    /// New name.
    pub name: Option<String>,
    /// New ruleset (before the start).
    pub ruleset: Option<String>,
    /// New time control (before the start).
    pub time_control: Option<TimeControl>,
    /// Whether leave stops the clocks (before the start).
    pub vacation_allowed: Option<bool>,
    /// Round-robin start policy (before the start).
    pub start_policy: Option<StartPolicy>,
    /// Swiss rounds planned.
    pub swiss_rounds: Option<u32>,
    /// Scoring.
    pub scoring: Option<ScoringSpec>,
    /// Swiss: what a bye scores (the tables follow at once; pairings from the next round).
    pub bye_points: Option<ByePoints>,
    /// Tie-break order.
    pub tie_breaks: Option<Vec<TieBreak>>,
    /// Withdrawal rule (before the start).
    pub withdrawal_rule: Option<WithdrawalRule>,
    /// Only `finished`, for a running section.
    pub status: Option<String>,
}

/// Edits a section (its tournament's directors or an admin).
///
/// # Errors
/// Unknown section (404), not its director (403), invalid values (422), a setting that is
/// fixed once the section runs, or a status change that is not running → finished (409).
pub async fn update_section(
    domain: &Domain,
    actor: &Account,
    section_id: i64,
    patch: SectionPatch,
) -> DomainResult<SectionView> {
    let mut tx = domain.pool.begin().await?;
    let row = load_section(&mut *tx, section_id, true).await?;
    ensure_directs(&mut *tx, actor, row.tournament_id).await?;
    let started = row.status != "registration";
    let fixed_once_started = patch.ruleset.is_some()
        || patch.time_control.is_some()
        || patch.vacation_allowed.is_some()
        || patch.start_policy.is_some()
        || patch.withdrawal_rule.is_some();
    if started && fixed_once_started {
        return Err(DomainError::Conflict(
            "the section has started: its ruleset, time control, vacation, start policy and withdrawal rule are fixed"
                .to_owned(),
        ));
    }
    if let Some(status) = patch.status.as_deref() {
        if status != "finished" || row.status != "running" {
            return Err(DomainError::Conflict(format!(
                "a section goes registration → running (by its start) → finished; not {} → {status}",
                row.status
            )));
        }
    }
    check_bye_points(row.pairing()?, patch.bye_points)?;
    let variant: Variant = rules_adapter::parse_variant(&row.variant)?;
    let name = patch.name.as_deref().map(check_name).transpose()?;
    let ruleset = patch.ruleset.as_deref().map(|r| ruleset_for(variant, Some(r))).transpose()?;
    let control = patch.time_control.map(TimeControl::validate).transpose()?;
    let swiss_rounds = match patch.swiss_rounds {
        Some(rounds) if row.pairing()? != PairingSystem::Swiss => {
            return Err(DomainError::Invalid(format!("swiss_rounds ({rounds}) is for Swiss sections")))
        }
        Some(rounds) if !(1..=50).contains(&rounds) || (rounds as i32) < row.current_round => {
            return Err(DomainError::Invalid(format!(
                "swiss_rounds must be 1 to 50 and at least the rounds already paired ({})",
                row.current_round
            )))
        }
        other => other.map(|r| r as i32),
    };
    sqlx::query(
        r#"update section set name = coalesce($2, name), ruleset = coalesce($3, ruleset),
               time_control = coalesce($4, time_control), vacation_allowed = coalesce($5, vacation_allowed),
               start_policy = coalesce($6, start_policy), swiss_rounds = coalesce($7, swiss_rounds),
               scoring = coalesce($8, scoring), tie_breaks = coalesce($9, tie_breaks),
               withdrawal_rule = coalesce($10, withdrawal_rule), status = coalesce($11, status),
               bye_points = coalesce($12, bye_points)
           where section_id = $1"#,
    )
    .bind(section_id)
    .bind(name)
    .bind(ruleset)
    .bind(control.map(Json))
    .bind(patch.vacation_allowed)
    .bind(patch.start_policy.map(start_policy_name))
    .bind(swiss_rounds)
    .bind(patch.scoring.map(|s| Json(s.scoring())))
    .bind(patch.tie_breaks.map(Json))
    .bind(patch.withdrawal_rule.map(withdrawal_rule_name))
    .bind(patch.status)
    .bind(patch.bye_points.map(Json))
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    section(domain, section_id).await
}

// ---------------------------------------------------------------------------------------
// Entries
// ---------------------------------------------------------------------------------------

/// Registers a player in a section. Without `username` (or with one's own) a player
/// registers themself while the tournament takes registrations; a director may register
/// anyone (with a seed) until the section starts.
///
/// # Errors
/// Unknown section or player (404/422), registering someone else without directing the
/// tournament (403), registration closed or already entered (409).
pub async fn register(
    domain: &Domain,
    actor: &Account,
    section_id: i64,
    username: Option<&str>,
    seed: Option<i32>,
) -> DomainResult<SectionView> {
    let mut tx = domain.pool.begin().await?;
    let row = load_section(&mut *tx, section_id, true).await?;
    let player_id = match username {
        Some(name) if !name.eq_ignore_ascii_case(&actor.username) => {
            account_id_by_username(&domain.pool, name)
                .await
                .map_err(|_| DomainError::Invalid(format!("no account named {name}")))?
        }
        _ => actor.id,
    };
    let is_director = ensure_directs(&mut *tx, actor, row.tournament_id).await.is_ok();
    if player_id != actor.id || seed.is_some() {
        ensure_directs(&mut *tx, actor, row.tournament_id).await?;
    } else if !is_director {
        let status: String = sqlx::query_scalar("select status from tournament where tournament_id = $1")
            .bind(row.tournament_id)
            .fetch_one(&mut *tx)
            .await?;
        if status != "registration" {
            return Err(DomainError::Conflict(format!(
                "the tournament is not taking registrations ({status})"
            )));
        }
    }
    if row.status != "registration" {
        return Err(DomainError::Conflict("the section has started: no more entries".to_owned()));
    }
    let inserted = sqlx::query(
        r#"insert into entry (section_id, account_id, seed, registered_at) values ($1, $2, $3, $4)
           on conflict do nothing"#,
    )
    .bind(section_id)
    .bind(player_id)
    .bind(seed)
    .bind(domain.clock.now())
    .execute(&mut *tx)
    .await?;
    if inserted.rows_affected() == 0 {
        return Err(DomainError::Conflict("already entered in this section".to_owned()));
    }
    tx.commit().await?;
    section(domain, section_id).await
}

/// Sets a player's seed (draw order) before the section starts (directors only).
///
/// # Errors
/// Unknown section or entry (404), not its director (403), section started (409).
pub async fn set_seed(
    domain: &Domain,
    actor: &Account,
    section_id: i64,
    username: &str,
    seed: Option<i32>,
) -> DomainResult<SectionView> {
    let mut tx = domain.pool.begin().await?;
    let row = load_section(&mut *tx, section_id, true).await?;
    ensure_directs(&mut *tx, actor, row.tournament_id).await?;
    if row.status != "registration" {
        return Err(DomainError::Conflict("the section has started: the draw order is fixed".to_owned()));
    }
    let player_id = entry_account(&mut tx, section_id, username).await?;
    sqlx::query("update entry set seed = $3 where section_id = $1 and account_id = $2")
        .bind(section_id)
        .bind(player_id)
        .bind(seed)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    section(domain, section_id).await
}

async fn entry_account(
    tx: &mut Transaction<'_, Postgres>,
    section_id: i64,
    username: &str,
) -> DomainResult<i64> {
    sqlx::query_scalar(
        r#"select e.account_id from entry e join account a using (account_id)
           where e.section_id = $1 and lower(a.username) = lower($2)"#,
    )
    .bind(section_id)
    .bind(username)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or_else(|| DomainError::NotFound(format!("{username} is not entered in this section")))
}

/// Withdraws a player (the player themself or a director). Before the start the entry
/// is removed; once the section runs, the section's withdrawal rule decides the player's
/// games (forfeits, or everything annulled when fewer than half were played), each change
/// recorded in the audit trail.
///
/// # Errors
/// Unknown section or entry (404), someone else's entry without directing (403), already
/// withdrawn (409).
pub async fn withdraw(
    domain: &Domain,
    actor: &Account,
    section_id: i64,
    username: &str,
    reason: Option<&str>,
) -> DomainResult<SectionView> {
    let mut tx = domain.pool.begin().await?;
    let row = load_section(&mut *tx, section_id, true).await?;
    let player_id = entry_account(&mut tx, section_id, username).await?;
    if player_id != actor.id {
        ensure_directs(&mut *tx, actor, row.tournament_id).await?;
    }
    let now = domain.clock.now();
    if row.status == "registration" {
        // Before the draw the entry simply goes: the pairings only ever see who started.
        sqlx::query("delete from entry where section_id = $1 and account_id = $2")
            .bind(section_id)
            .bind(player_id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        return section(domain, section_id).await;
    }
    let updated = sqlx::query(
        r#"update entry set status = 'withdrawn', withdrawn_at = $3
           where section_id = $1 and account_id = $2 and status = 'active'"#,
    )
    .bind(section_id)
    .bind(player_id)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    if updated.rows_affected() == 0 {
        return Err(DomainError::Conflict(format!("{username} has already withdrawn")));
    }
    let games = section_games(&mut *tx, section_id).await?;
    let records: Vec<GameRecord> = games.iter().map(SectionGame::record).collect();
    let reason = reason.map_or_else(|| format!("withdrawal of {username}"), str::to_owned);
    let mut ended = Vec::new();
    for change in apply_withdrawal(PlayerId(player_id), &records, row.withdrawal_rule()) {
        if set_result(&mut tx, change.game.0, change.to, now).await? {
            ended.push(change.game.0);
        }
        audit(&mut tx, change.game.0, actor.id, now, "withdrawal", change.from, change.to, &reason).await?;
    }
    tx.commit().await?;
    games::announce_stored(domain, &ended).await;
    section(domain, section_id).await
}

// ---------------------------------------------------------------------------------------
// Starting and pairing
// ---------------------------------------------------------------------------------------

/// What starting a section or a round created.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct RoundStarted {
    /// The section after the start.
    pub section: SectionView,
    /// The games created, with their clocks running.
    pub games: Vec<i64>,
}

async fn active_entries(
    tx: &mut Transaction<'_, Postgres>,
    section_id: i64,
    all: bool,
) -> DomainResult<Vec<i64>> {
    Ok(sqlx::query_scalar(
        r#"select account_id from entry where section_id = $1 and ($2 or status = 'active')
           order by seed asc nulls last, registered_at, account_id"#,
    )
    .bind(section_id)
    .bind(all)
    .fetch_all(&mut **tx)
    .await?)
}

fn round_robin_options(row: &SectionRow) -> DomainResult<RoundRobinOptions> {
    Ok(RoundRobinOptions {
        cycles: if row.pairing()? == PairingSystem::DoubleRoundRobin {
            Cycles::Double
        } else {
            Cycles::Single
        },
        start: row.start_policy(),
        swap_last_two_rounds_of_first_cycle: false,
    })
}

/// Creates one tournament game with its clock running and links it to its round.
async fn create_game(
    domain: &Domain,
    tx: &mut Transaction<'_, Postgres>,
    row: &SectionRow,
    round: u32,
    board: u32,
    first: i64,
    second: i64,
) -> DomainResult<i64> {
    let variant: Variant = rules_adapter::parse_variant(&row.variant)?;
    let game_id = games::create_in(
        domain,
        tx,
        variant,
        &row.ruleset,
        None,
        None,
        row.time_control.0,
        row.vacation_allowed,
        &[first, second],
    )
    .await?;
    sqlx::query(
        r#"update game set tournament_id = $2, section_id = $3, round = $4, board = $5
           where game_id = $1"#,
    )
    .bind(game_id)
    .bind(row.tournament_id)
    .bind(row.section_id)
    .bind(round as i32)
    .bind(board as i32)
    .execute(&mut **tx)
    .await?;
    Ok(game_id)
}

/// Starts a section (directors only): draws the pairings and creates the games with their
/// clocks running — every game of a round-robin at once with the `all-together` start
/// policy, otherwise the first round (later rounds with [`next_round`]).
///
/// # Errors
/// Unknown section (404), not its director (403), already started or tournament finished
/// (409), too few players (422).
pub async fn start(domain: &Domain, actor: &Account, section_id: i64) -> DomainResult<RoundStarted> {
    let mut tx = domain.pool.begin().await?;
    let row = load_section(&mut *tx, section_id, true).await?;
    ensure_directs(&mut *tx, actor, row.tournament_id).await?;
    if row.status != "registration" {
        return Err(DomainError::Conflict(format!("the section is already {}", row.status)));
    }
    let tournament_status: String =
        sqlx::query_scalar("select status from tournament where tournament_id = $1 for update")
            .bind(row.tournament_id)
            .fetch_one(&mut *tx)
            .await?;
    if tournament_status == "finished" {
        return Err(DomainError::Conflict("the tournament is finished".to_owned()));
    }
    let players = active_entries(&mut tx, section_id, false).await?;
    if players.len() < 2 {
        return Err(DomainError::Invalid("a section needs at least two players".to_owned()));
    }
    let (games, current_round) = match row.pairing()? {
        PairingSystem::Swiss => {
            let ids: Vec<PlayerId> = players.iter().copied().map(PlayerId).collect();
            let created = pair_swiss(domain, &mut tx, &row, &ids, &[], &[]).await?;
            (created, 1)
        }
        _ => {
            // Withdrawals are only possible later; everyone entered is active now.
            let created = create_round_robin_batch(domain, &mut tx, &row, &players, 1).await?;
            let rounds = if row.start_policy() == StartPolicy::AllTogether {
                round_robin(&ids_of(&players), &round_robin_options(&row)?).map_err(pairing_error)?.rounds
            } else {
                1
            };
            (created, rounds as i32)
        }
    };
    sqlx::query("update section set status = 'running', current_round = $2 where section_id = $1")
        .bind(section_id)
        .bind(current_round)
        .execute(&mut *tx)
        .await?;
    sqlx::query(
        "update tournament set status = 'running' where tournament_id = $1 and status in ('draft', 'registration')",
    )
    .bind(row.tournament_id)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(RoundStarted { section: section(domain, section_id).await?, games })
}

fn ids_of(players: &[i64]) -> Vec<PlayerId> {
    players.iter().copied().map(PlayerId).collect()
}

fn pairing_error(error: impl std::fmt::Display) -> DomainError {
    DomainError::Invalid(format!("The section cannot be paired: {error}."))
}

/// Creates the games of start batch `batch` of a round-robin over `players` (every entry,
/// in draw order). A game of a player who has withdrawn is lost by forfeit at once (both
/// withdrawn: a double forfeit).
async fn create_round_robin_batch(
    domain: &Domain,
    tx: &mut Transaction<'_, Postgres>,
    row: &SectionRow,
    players: &[i64],
    batch: u32,
) -> DomainResult<Vec<i64>> {
    let schedule = round_robin(&ids_of(players), &round_robin_options(row)?).map_err(pairing_error)?;
    let withdrawn: Vec<i64> =
        sqlx::query_scalar("select account_id from entry where section_id = $1 and status = 'withdrawn'")
            .bind(row.section_id)
            .fetch_all(&mut **tx)
            .await?;
    let now = domain.clock.now();
    let mut created = Vec::new();
    for pairing in schedule.games.iter().filter(|p| p.start_batch == batch) {
        let game =
            create_game(domain, tx, row, pairing.round, pairing.board, pairing.first.0, pairing.second.0)
                .await?;
        let result = match (withdrawn.contains(&pairing.first.0), withdrawn.contains(&pairing.second.0)) {
            (true, true) => Some(GameResult::DoubleForfeit),
            (true, false) => Some(GameResult::ForfeitSecondWins),
            (false, true) => Some(GameResult::ForfeitFirstWins),
            (false, false) => None,
        };
        if let Some(result) = result {
            set_result(tx, game, result, now).await?;
        }
        created.push(game);
    }
    Ok(created)
}

async fn pair_swiss(
    domain: &Domain,
    tx: &mut Transaction<'_, Postgres>,
    row: &SectionRow,
    players: &[PlayerId],
    games: &[GameRecord],
    byes: &[SwissBye],
) -> DomainResult<Vec<i64>> {
    let round = pair_swiss_round(players, games, byes, &row.swiss_options()).map_err(|e| match e {
        SwissError::RoundNotFinished(game) => {
            DomainError::Conflict(format!("game {} of the last round is not finished", game.0))
        }
        other => pairing_error(other),
    })?;
    let mut created = Vec::new();
    for pairing in &round.pairings {
        created.push(
            create_game(domain, tx, row, round.round, pairing.board, pairing.first.0, pairing.second.0)
                .await?,
        );
    }
    if let Some(bye) = round.bye {
        sqlx::query("insert into section_bye (section_id, round, account_id) values ($1, $2, $3)")
            .bind(row.section_id)
            .bind(round.round as i32)
            .bind(bye.0)
            .execute(&mut **tx)
            .await?;
    }
    Ok(created)
}

async fn section_byes(executor: impl sqlx::PgExecutor<'_>, section_id: i64) -> DomainResult<Vec<SwissBye>> {
    let rows: Vec<(i32, i64)> =
        sqlx::query_as("select round, account_id from section_bye where section_id = $1 order by round")
            .bind(section_id)
            .fetch_all(executor)
            .await?;
    Ok(rows
        .into_iter()
        .map(|(round, player)| SwissBye { round: round as u32, player: PlayerId(player) })
        .collect())
}

/// Starts the next round of a running section (directors only): the next Swiss round once
/// the previous one is finished, or the next round of a round-by-round round-robin.
///
/// # Errors
/// Unknown section (404), not its director (403), not running, every round already started
/// or the last Swiss round unfinished (409).
pub async fn next_round(domain: &Domain, actor: &Account, section_id: i64) -> DomainResult<RoundStarted> {
    let mut tx = domain.pool.begin().await?;
    let row = load_section(&mut *tx, section_id, true).await?;
    ensure_directs(&mut *tx, actor, row.tournament_id).await?;
    if row.status != "running" {
        return Err(DomainError::Conflict(format!("the section is {}", row.status)));
    }
    let next = row.current_round + 1;
    let games = match row.pairing()? {
        PairingSystem::Swiss => {
            if row.swiss_rounds.is_some_and(|planned| next > planned) {
                return Err(DomainError::Conflict("every planned round has been paired".to_owned()));
            }
            let players = ids_of(&active_entries(&mut tx, section_id, false).await?);
            let records: Vec<GameRecord> =
                section_games(&mut *tx, section_id).await?.iter().map(SectionGame::record).collect();
            let byes = section_byes(&mut *tx, section_id).await?;
            pair_swiss(domain, &mut tx, &row, &players, &records, &byes).await?
        }
        _ => {
            let players = active_entries(&mut tx, section_id, true).await?;
            let rounds =
                round_robin(&ids_of(&players), &round_robin_options(&row)?).map_err(pairing_error)?.rounds;
            if next as u32 > rounds {
                return Err(DomainError::Conflict("every round has started".to_owned()));
            }
            create_round_robin_batch(domain, &mut tx, &row, &players, next as u32).await?
        }
    };
    sqlx::query("update section set current_round = $2 where section_id = $1")
        .bind(section_id)
        .bind(next)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(RoundStarted { section: section(domain, section_id).await?, games })
}

// ---------------------------------------------------------------------------------------
// Results
// ---------------------------------------------------------------------------------------

/// A section game as stored.
#[derive(Debug, Clone, sqlx::FromRow)]
struct SectionGame {
    game_id: i64,
    round: i32,
    status: String,
    result: Option<String>,
    reason: Option<String>,
    tournament_result: Option<String>,
    first_id: i64,
    second_id: i64,
}

impl SectionGame {
    fn result(&self) -> GameResult {
        game_result(
            &self.status,
            self.result.as_deref(),
            self.reason.as_deref(),
            self.tournament_result.as_deref(),
        )
    }

    fn record(&self) -> GameRecord {
        GameRecord {
            game: GameId(self.game_id),
            round: self.round.max(0) as u32,
            first: PlayerId(self.first_id),
            second: PlayerId(self.second_id),
            result: self.result(),
        }
    }
}

const SECTION_GAME_COLUMNS: &str = r#"g.game_id, coalesce(g.round, 0) as round, g.status, g.result, g.reason,
    g.tournament_result,
    (select account_id from game_seat where game_id = g.game_id and seat = 0) as first_id,
    (select account_id from game_seat where game_id = g.game_id and seat = 1) as second_id"#;

async fn section_games(
    executor: impl sqlx::PgExecutor<'_>,
    section_id: i64,
) -> DomainResult<Vec<SectionGame>> {
    Ok(sqlx::query_as::<_, SectionGame>(&format!(
        "select {SECTION_GAME_COLUMNS} from game g where g.section_id = $1 order by g.round, g.board, g.game_id"
    ))
    .bind(section_id)
    .fetch_all(executor)
    .await?)
}

/// The stored name of a result (kebab-case, as `GameResult` serializes).
pub fn result_name(result: GameResult) -> &'static str {
    match result {
        GameResult::FirstWins => "first-wins",
        GameResult::SecondWins => "second-wins",
        GameResult::Draw => "draw",
        GameResult::ForfeitFirstWins => "forfeit-first-wins",
        GameResult::ForfeitSecondWins => "forfeit-second-wins",
        GameResult::DoubleForfeit => "double-forfeit",
        GameResult::Pending => "pending",
        GameResult::Annulled => "annulled",
    }
}

fn parse_result_name(text: &str) -> Option<GameResult> {
    serde_json::from_value(serde_json::Value::String(text.to_owned())).ok()
}

/// A result as a director writes it: a score (`1-0`, `0-1`, `1/2-1/2`, `+-`, `-+`, `--`)
/// or a result name.
fn parse_decided_result(text: &str) -> DomainResult<GameResult> {
    let score = match text {
        "1-0" => Some(GameResult::FirstWins),
        "0-1" => Some(GameResult::SecondWins),
        "1/2-1/2" | "½-½" => Some(GameResult::Draw),
        "+-" | "1-0 forfeit" => Some(GameResult::ForfeitFirstWins),
        "-+" | "0-1 forfeit" => Some(GameResult::ForfeitSecondWins),
        "--" => Some(GameResult::DoubleForfeit),
        _ => None,
    };
    score.or_else(|| parse_result_name(text)).ok_or_else(|| {
        DomainError::Invalid(format!(
            "unknown result {text:?} (1-0, 0-1, 1/2-1/2, first-wins, second-wins, draw, \
             forfeit-first-wins, forfeit-second-wins, double-forfeit, annulled)"
        ))
    })
}

/// What a tournament game counts as in the standings: a director's decision when there is
/// one, otherwise the game row (active or aborted: pending; finished: the result, a win
/// given by forfeit counted as a forfeit).
pub fn game_result(
    status: &str,
    result: Option<&str>,
    reason: Option<&str>,
    decided: Option<&str>,
) -> GameResult {
    if let Some(decided) = decided.and_then(parse_result_name) {
        return decided;
    }
    if status != "finished" {
        return GameResult::Pending;
    }
    let forfeit = reason == Some(EndReason::Forfeit.as_str());
    match (result, forfeit) {
        (Some("1-0"), false) => GameResult::FirstWins,
        (Some("0-1"), false) => GameResult::SecondWins,
        (Some("1/2-1/2"), _) => GameResult::Draw,
        (Some("1-0"), true) => GameResult::ForfeitFirstWins,
        (Some("0-1"), true) => GameResult::ForfeitSecondWins,
        (Some("0-0"), _) => GameResult::DoubleForfeit,
        _ => GameResult::Pending,
    }
}

/// Stores a director's result: an active game ends through the games' one ending
/// function (finished with the result, or stopped when annulled) and the decision
/// overrides the board result in the standings. Returns whether the game itself changed
/// (the caller announces it after the commit: [`games::announce_stored`]).
async fn set_result(
    tx: &mut Transaction<'_, Postgres>,
    game_id: i64,
    result: GameResult,
    now: OffsetDateTime,
) -> DomainResult<bool> {
    let ending = match result {
        GameResult::FirstWins => games::Ending::two_seat(Some(0), EndReason::Adjudication),
        GameResult::SecondWins => games::Ending::two_seat(Some(1), EndReason::Adjudication),
        GameResult::Draw => games::Ending::two_seat(None, EndReason::Adjudication),
        GameResult::ForfeitFirstWins => games::Ending::two_seat(Some(0), EndReason::Forfeit),
        GameResult::ForfeitSecondWins => games::Ending::two_seat(Some(1), EndReason::Forfeit),
        GameResult::DoubleForfeit => games::Ending::double_forfeit(),
        GameResult::Annulled => {
            let stopped = games::stop(tx, game_id, "annulled", now).await?;
            store_decision(tx, game_id, result).await?;
            return Ok(stopped);
        }
        GameResult::Pending => {
            return Err(DomainError::Invalid("a game cannot be set back to pending".to_owned()));
        }
    };
    let ended = games::finish(tx, game_id, &ending, now).await?;
    store_decision(tx, game_id, result).await?;
    Ok(ended)
}

async fn store_decision(
    tx: &mut Transaction<'_, Postgres>,
    game_id: i64,
    result: GameResult,
) -> DomainResult<()> {
    sqlx::query("update game set tournament_result = $2 where game_id = $1")
        .bind(game_id)
        .bind(result_name(result))
        .execute(&mut **tx)
        .await?;
    Ok(())
}

#[allow(clippy::too_many_arguments)]
async fn audit(
    tx: &mut Transaction<'_, Postgres>,
    game_id: i64,
    actor_id: i64,
    now: OffsetDateTime,
    kind: &str,
    from: GameResult,
    to: GameResult,
    reason: &str,
) -> DomainResult<()> {
    sqlx::query(
        r#"insert into result_correction (game_id, changed_by, changed_at, kind, old_result, new_result, reason)
           values ($1, $2, $3, $4, $5, $6, $7)"#,
    )
    .bind(game_id)
    .bind(actor_id)
    .bind(now)
    .bind(kind)
    .bind(result_name(from))
    .bind(result_name(to))
    .bind(reason)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// A director's decision on a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Adjudication of an unfinished game: a win or a draw over the board.
    Adjudication,
    /// A forfeit of an unfinished game.
    Forfeit,
    /// A correction of any result.
    Correction,
}

impl Decision {
    fn kind(self) -> &'static str {
        match self {
            Decision::Adjudication => "adjudication",
            Decision::Forfeit => "forfeit",
            Decision::Correction => "correction",
        }
    }
}

/// A tournament game's result after a decision.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct GameDecision {
    /// The game.
    pub game_id: i64,
    /// What it counts as now.
    pub result: GameResult,
}

/// Decides a tournament game's result (its tournament's directors or an admin) and records
/// who, when and why in the audit trail. Adjudications and forfeits apply to unfinished
/// games only; a correction may change any result except back to pending. `result` is a
/// score (`1-0`, `0-1`, `1/2-1/2`, `+-`, `-+`, `--`) or a result name (`first-wins`...).
///
/// Who may decide is settled before what is decided: anyone but an admin or a director of
/// the game's tournament is refused (403) whatever the game and the body; only then are a
/// casual game, the result and the reason checked.
///
/// # Errors
/// Unknown game (404), not a director of its tournament (403; a casual game has none), an
/// admin naming a casual game (422), an empty reason or a result that is unknown or does
/// not fit the decision (422), a finished game adjudicated or forfeited (409).
pub async fn decide(
    domain: &Domain,
    actor: &Account,
    game_id: i64,
    decision: Decision,
    result: &str,
    reason: &str,
) -> DomainResult<GameDecision> {
    let mut tx = domain.pool.begin().await?;
    let game = sqlx::query_as::<_, SectionGame>(&format!(
        "select {SECTION_GAME_COLUMNS} from game g where g.game_id = $1 for update"
    ))
    .bind(game_id)
    .fetch_optional(&mut *tx)
    .await?
    .ok_or_else(|| DomainError::NotFound(format!("no game {game_id}")))?;
    let tournament_id: Option<i64> = sqlx::query_scalar("select tournament_id from game where game_id = $1")
        .bind(game_id)
        .fetch_one(&mut *tx)
        .await?;
    match tournament_id {
        Some(tournament_id) => ensure_directs(&mut *tx, actor, tournament_id).await?,
        // Nobody directs a casual game: only an admin learns that it is one.
        None if actor.role == Role::Admin => {
            return Err(DomainError::Invalid(format!("game {game_id} is not a tournament game")))
        }
        None => {
            return Err(DomainError::Forbidden(
                "only the directors of the game's tournament may decide its result".to_owned(),
            ))
        }
    }
    let result = parse_decided_result(result)?;
    let reason = reason.trim();
    if reason.is_empty() {
        return Err(DomainError::Invalid("say why: a reason is required".to_owned()));
    }
    let fits = match decision {
        Decision::Adjudication => result.is_played(),
        Decision::Forfeit => result.is_forfeit(),
        Decision::Correction => result != GameResult::Pending,
    };
    if !fits {
        return Err(DomainError::Invalid(format!(
            "{} is not a possible {}",
            result_name(result),
            decision.kind()
        )));
    }
    let before = game.result();
    if decision != Decision::Correction && before != GameResult::Pending {
        return Err(DomainError::Conflict(format!(
            "the game already has a result ({}): correct it instead",
            result_name(before)
        )));
    }
    let now = domain.clock.now();
    let ended = set_result(&mut tx, game_id, result, now).await?;
    audit(&mut tx, game_id, actor.id, now, decision.kind(), before, result, reason).await?;
    tx.commit().await?;
    if ended {
        // A watcher sees the director's decision at once, like any other ending.
        games::announce_stored(domain, &[game_id]).await;
    }
    Ok(GameDecision { game_id, result })
}

/// One entry of a game's audit trail.
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct CorrectionView {
    /// Who decided.
    pub changed_by: String,
    /// When.
    #[serde(with = "time::serde::rfc3339")]
    pub changed_at: OffsetDateTime,
    /// `adjudication`, `forfeit`, `correction` or `withdrawal`.
    pub kind: String,
    /// The result before.
    pub old_result: String,
    /// The result after.
    pub new_result: String,
    /// Why.
    pub reason: String,
}

/// The audit trail of a game's result, oldest first.
///
/// # Errors
/// Database failure.
pub async fn corrections(domain: &Domain, game_id: i64) -> DomainResult<Vec<CorrectionView>> {
    Ok(sqlx::query_as::<_, CorrectionView>(
        r#"select a.username as changed_by, c.changed_at, c.kind, c.old_result, c.new_result, c.reason
           from result_correction c join account a on a.account_id = c.changed_by
           where c.game_id = $1 order by c.changed_at, c.result_correction_id"#,
    )
    .bind(game_id)
    .fetch_all(&domain.pool)
    .await?)
}

// ---------------------------------------------------------------------------------------
// Tables
// ---------------------------------------------------------------------------------------

/// Everything a table of one section needs.
struct SectionData {
    row: SectionRow,
    tournament_name: String,
    players: Vec<PlayerInfo>,
    games: Vec<GameRecord>,
    /// Swiss byes (none in a round-robin).
    byes: Vec<SwissBye>,
}

async fn section_data(domain: &Domain, section_id: i64) -> DomainResult<SectionData> {
    let row = load_section(&domain.pool, section_id, false).await?;
    let tournament_name: String = sqlx::query_scalar("select name from tournament where tournament_id = $1")
        .bind(row.tournament_id)
        .fetch_one(&domain.pool)
        .await?;
    let players: Vec<(i64, String)> = sqlx::query_as(
        r#"select e.account_id, a.username from entry e join account a using (account_id)
           where e.section_id = $1 order by e.seed asc nulls last, e.registered_at, e.account_id"#,
    )
    .bind(section_id)
    .fetch_all(&domain.pool)
    .await?;
    let games = section_games(&domain.pool, section_id).await?.iter().map(SectionGame::record).collect();
    let byes = section_byes(&domain.pool, section_id).await?;
    Ok(SectionData {
        row,
        tournament_name,
        players: players.into_iter().map(|(id, name)| PlayerInfo { id: PlayerId(id), name }).collect(),
        games,
        byes,
    })
}

impl SectionData {
    fn title(&self) -> String {
        format!("{} — {}", self.tournament_name, self.row.name)
    }

    fn ids(&self) -> Vec<PlayerId> {
        self.players.iter().map(|p| p.id).collect()
    }

    fn standings(&self) -> DomainResult<Vec<Standing>> {
        compute_standings(&self.ids(), &self.games, &self.byes, &self.row.standings_config())
            .map_err(internal)
    }
}

fn internal(error: impl std::fmt::Debug) -> DomainError {
    DomainError::Internal(anyhow::anyhow!("tournament data: {error:?}"))
}

/// One line of the standings with the player's name.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct StandingView {
    /// The player's username.
    pub username: String,
    /// The computed line.
    #[serde(flatten)]
    pub standing: Standing,
}

/// A section's standings.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct StandingsView {
    /// The section id.
    pub section_id: i64,
    /// The tie-breaks in the order of each line's values.
    pub tie_breaks: Vec<TieBreak>,
    /// The lines, best first.
    pub standings: Vec<StandingView>,
}

/// The section's standings, from the games' current results.
///
/// # Errors
/// Unknown section (404).
pub async fn standings(domain: &Domain, section_id: i64) -> DomainResult<StandingsView> {
    let data = section_data(domain, section_id).await?;
    let names: HashMap<PlayerId, &str> = data.players.iter().map(|p| (p.id, p.name.as_str())).collect();
    let standings = data
        .standings()?
        .into_iter()
        .map(|standing| StandingView {
            username: names.get(&standing.player).copied().unwrap_or_default().to_owned(),
            standing,
        })
        .collect();
    Ok(StandingsView { section_id, tie_breaks: data.row.tie_breaks.0.clone(), standings })
}

/// The section's crosstable.
///
/// # Errors
/// Unknown section (404).
pub async fn crosstable(domain: &Domain, section_id: i64) -> DomainResult<Crosstable> {
    let data = section_data(domain, section_id).await?;
    build_crosstable(&data.title(), &data.players, &data.games, &data.byes, &data.row.standings_config())
        .map_err(internal)
}

/// The TRF(x) export of a Swiss section.
///
/// # Errors
/// Unknown section (404), not a Swiss section (422).
pub async fn trf(domain: &Domain, section_id: i64) -> DomainResult<String> {
    let data = section_data(domain, section_id).await?;
    if data.row.pairing()? != PairingSystem::Swiss {
        return Err(DomainError::Invalid("the TRF export is for Swiss sections".to_owned()));
    }
    trf_export(
        &data.title(),
        &data.players,
        &data.games,
        &data.byes,
        &data.row.swiss_options(),
        data.row.swiss_rounds.map(|r| r.max(0) as u32),
    )
    .map_err(internal)
}

/// The tournament's Grand Prix table over its sections (sum of points when the tournament
/// has no Grand Prix settings).
///
/// # Errors
/// Unknown tournament (404).
pub async fn grand_prix(domain: &Domain, tournament_id: i64) -> DomainResult<GrandPrixTable> {
    let view = get(domain, tournament_id).await?;
    let config = view.grand_prix.clone().unwrap_or(GrandPrixConfig {
        formula: GpFormula::SumOfPoints,
        best_sections: None,
        tie_breaks: Vec::new(),
    });
    let mut results = Vec::new();
    let mut infos = Vec::new();
    let mut players: HashMap<PlayerId, PlayerInfo> = HashMap::new();
    for section in &view.sections {
        let data = section_data(domain, section.id).await?;
        results.push(SectionResults::from_standings(SectionId(section.id), &data.standings()?));
        infos.push(SectionInfo { id: SectionId(section.id), name: section.name.clone() });
        for player in data.players {
            players.insert(player.id, player);
        }
    }
    let rows = compute_grand_prix(&results, &config).map_err(internal)?;
    let players: Vec<PlayerInfo> = players.into_values().collect();
    Ok(build_grand_prix_table(&view.name, &infos, &players, &config.tie_breaks, &rows))
}

// ---------------------------------------------------------------------------------------
// The player's view
// ---------------------------------------------------------------------------------------

/// A tournament game from one player's side.
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct MyGame {
    /// Game id.
    pub game_id: i64,
    /// Round.
    pub round: Option<i32>,
    /// The opponent's username.
    pub opponent: String,
    /// `first` or `second`: the player's side.
    pub color: String,
    /// Game status.
    pub status: String,
    /// Board result once over.
    pub result: Option<String>,
    /// A director's decision, if any.
    pub tournament_result: Option<String>,
    /// Whether it is the player's turn.
    pub your_turn: bool,
}

/// One of a player's sections with their games.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct MySection {
    /// Tournament id.
    pub tournament_id: i64,
    /// Tournament name.
    pub tournament: String,
    /// Section id.
    pub section_id: i64,
    /// Section name.
    pub section: String,
    /// Variant.
    #[schema(schema_with = rules_adapter::variant_name_schema)]
    pub variant: String,
    /// Section status.
    pub status: String,
    /// The player's entry status (`active` or `withdrawn`).
    pub entry_status: String,
    /// The player's games in the section.
    pub games: Vec<MyGame>,
}

#[derive(sqlx::FromRow)]
struct MySectionRow {
    tournament_id: i64,
    tournament: String,
    section_id: i64,
    section: String,
    variant: String,
    status: String,
    entry_status: String,
}

/// The sections a player is entered in, with their games, for the dashboard.
///
/// # Errors
/// Database failure.
pub async fn for_player(domain: &Domain, account_id: i64) -> DomainResult<Vec<MySection>> {
    let rows = sqlx::query_as::<_, MySectionRow>(
        r#"select t.tournament_id, t.name as tournament, s.section_id, s.name as section, s.variant,
                  s.status, e.status as entry_status
           from entry e join section s using (section_id) join tournament t using (tournament_id)
           where e.account_id = $1 order by t.tournament_id desc, s.section_id"#,
    )
    .bind(account_id)
    .fetch_all(&domain.pool)
    .await?;
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        let games = sqlx::query_as::<_, MyGame>(
            r#"select g.game_id, g.round, opp.username as opponent,
                      case when mine.seat = 0 then 'first' else 'second' end as color,
                      g.status, g.result, g.tournament_result,
                      (g.status = 'active' and g.turn_seat = mine.seat) as your_turn
               from game g
               join game_seat mine on mine.game_id = g.game_id and mine.account_id = $2
               join game_seat other on other.game_id = g.game_id and other.seat <> mine.seat
               join account opp on opp.account_id = other.account_id
               where g.section_id = $1 order by g.round, g.board"#,
        )
        .bind(row.section_id)
        .bind(account_id)
        .fetch_all(&domain.pool)
        .await?;
        out.push(MySection {
            tournament_id: row.tournament_id,
            tournament: row.tournament,
            section_id: row.section_id,
            section: row.section,
            variant: row.variant,
            status: row.status,
            entry_status: row.entry_status,
            games,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_finished_game_counts_its_board_result_and_forfeits_as_forfeits() {
        assert_eq!(game_result("finished", Some("1-0"), Some("checkmate"), None), GameResult::FirstWins);
        assert_eq!(game_result("finished", Some("0-1"), Some("timeout"), None), GameResult::SecondWins);
        assert_eq!(game_result("finished", Some("1/2-1/2"), Some("agreement"), None), GameResult::Draw);
        assert_eq!(
            game_result("finished", Some("0-1"), Some("forfeit"), None),
            GameResult::ForfeitSecondWins
        );
        assert_eq!(game_result("active", None, None, None), GameResult::Pending);
        assert_eq!(game_result("aborted", None, Some("aborted"), None), GameResult::Pending);
    }

    #[test]
    fn a_directors_decision_overrides_the_board() {
        assert_eq!(game_result("finished", Some("1-0"), Some("checkmate"), Some("draw")), GameResult::Draw);
        assert_eq!(game_result("aborted", None, None, Some("annulled")), GameResult::Annulled);
    }

    #[test]
    fn every_result_name_reads_back() {
        for result in [
            GameResult::FirstWins,
            GameResult::SecondWins,
            GameResult::Draw,
            GameResult::ForfeitFirstWins,
            GameResult::ForfeitSecondWins,
            GameResult::DoubleForfeit,
            GameResult::Pending,
            GameResult::Annulled,
        ] {
            assert_eq!(parse_result_name(result_name(result)), Some(result));
        }
    }
}
