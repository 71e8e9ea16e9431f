//! Sections: their settings, created and changed by the directors.

use super::*;

/// How a section is paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum PairingSystem {
    /// Everyone meets everyone once (Berger tables).
    RoundRobin,
    /// Everyone meets everyone twice, once with each colour.
    DoubleRoundRobin,
    /// Swiss system (FIDE Dutch, C.04.3), round by round.
    Swiss,
}

impl PairingSystem {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            PairingSystem::RoundRobin => "round-robin",
            PairingSystem::DoubleRoundRobin => "double-round-robin",
            PairingSystem::Swiss => "swiss",
        }
    }

    pub(crate) fn from_db(text: &str) -> DomainResult<PairingSystem> {
        Ok(match text {
            "round-robin" => PairingSystem::RoundRobin,
            "double-round-robin" => PairingSystem::DoubleRoundRobin,
            "swiss" => PairingSystem::Swiss,
            other => return Err(DomainError::Internal(anyhow::anyhow!("unknown pairing system {other}"))),
        })
    }
}

/// How a section's draw order (the seeds the pairings use) is made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Seeding {
    /// The directors' seeds, then the order of registration (the default).
    #[default]
    Registration,
    /// At the start, the players' current ratings in the section's variant and pool, best
    /// first; players without a rating there after them, in order of registration.
    Rating,
}

impl Seeding {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Seeding::Registration => "registration",
            Seeding::Rating => "rating",
        }
    }

    pub(crate) fn from_db(text: &str) -> Seeding {
        if text == "rating" {
            Seeding::Rating
        } else {
            Seeding::Registration
        }
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
    pub(crate) fn scoring(self) -> Scoring {
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
    /// A handicap every game is played with (a name from the rules crate's catalogue,
    /// e.g. `two-pieces` for Shogi); none when absent.
    pub handicap: Option<String>,
    /// Whether leave stops the clocks (default yes).
    #[serde(default = "default_true")]
    pub vacation_allowed: bool,
    /// The section's vacation allowance: at most this many days (1 to 366) of each
    /// player's leave, counted from a game's start, stop that game's clocks; absent: all of
    /// the leave the player's yearly allowance gives.
    pub vacation_days: Option<u32>,
    /// Pairing system.
    pub pairing: PairingSystem,
    /// Round-robin: every game starts with the section (default) or round by round.
    #[serde(default)]
    pub start_policy: StartPolicy,
    /// Swiss: the number of rounds planned.
    pub swiss_rounds: Option<u32>,
    /// Swiss: the edition of the FIDE (Dutch) System, C.04.3 (default `fide-2025`;
    /// `fide-2017` for events begun under the 2017 rules).
    pub dutch_edition: Option<DutchEdition>,
    /// Swiss: the acceleration of the first rounds (default `none`; `baku`, C.04.5.1, needs a
    /// draw worth half a win and a loss worth nothing).
    pub acceleration: Option<Acceleration>,
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
    /// Whether the section's games are rated (default no): only for standard starts
    /// without a handicap; they change the players' ratings in the variant and the pool of
    /// the time control as rated challenges do.
    #[serde(default)]
    pub rated: bool,
    /// How the draw order is made (default `registration`: the directors' seeds, then the
    /// order of registration; `rating`: by the players' ratings at the start).
    #[serde(default)]
    pub seeding: Seeding,
    /// The lowest rating a player may register with (their current rating in the
    /// section's variant and the pool of its time control, rounded; a player without one
    /// there is refused); absent: no minimum. Directors may register anyone.
    pub rating_min: Option<i32>,
    /// The highest rating a player may register with; absent: no maximum (a player
    /// without a rating is admitted).
    pub rating_max: Option<i32>,
}

pub(crate) fn default_true() -> bool {
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
    /// The handicap of every game, if any.
    pub handicap: Option<String>,
    /// Whether leave stops the clocks.
    pub vacation_allowed: bool,
    /// The vacation allowance of each game, in days (`null`: no limit of the section's).
    pub vacation_days: Option<i32>,
    /// Pairing system.
    pub pairing: PairingSystem,
    /// When the round-robin games start.
    pub start_policy: StartPolicy,
    /// Swiss rounds planned.
    pub swiss_rounds: Option<i32>,
    /// Swiss: the edition of the FIDE (Dutch) System (`null` for round-robins).
    pub dutch_edition: Option<DutchEdition>,
    /// Swiss: the acceleration (`null` for round-robins).
    pub acceleration: Option<Acceleration>,
    /// Points per result.
    pub scoring: Scoring,
    /// Swiss: what a pairing-allocated bye scores (`null` for round-robins, whose byes are
    /// rounds without a game).
    pub bye_points: Option<ByePoints>,
    /// Tie-breaks in order.
    pub tie_breaks: Vec<TieBreak>,
    /// Withdrawal rule.
    pub withdrawal_rule: WithdrawalRule,
    /// Whether the section's games are rated.
    pub rated: bool,
    /// How the draw order is made.
    pub seeding: Seeding,
    /// The lowest rating a player may register with (`null`: no minimum).
    pub rating_min: Option<i32>,
    /// The highest rating a player may register with (`null`: no maximum).
    pub rating_max: Option<i32>,
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
    /// Seed (draw order), if given (with rating seeding: given at the start).
    pub seed: Option<i32>,
    /// `active` or `withdrawn`.
    pub status: String,
    /// The player's current rating in the section's variant and pool, rounded; `null`
    /// before their first rated game there.
    pub rating: Option<i32>,
}

impl SectionRow {
    pub(crate) fn pairing(&self) -> DomainResult<PairingSystem> {
        PairingSystem::from_db(&self.pairing)
    }

    pub(crate) fn start_policy(&self) -> StartPolicy {
        if self.start_policy == "round-by-round" {
            StartPolicy::RoundByRound
        } else {
            StartPolicy::AllTogether
        }
    }

    pub(crate) fn seeding(&self) -> Seeding {
        Seeding::from_db(&self.seeding)
    }

    /// The rating pool of the section's games.
    pub(crate) fn pool(&self) -> ratings::Pool {
        ratings::Pool::of(self.time_control.0)
    }

    pub(crate) fn withdrawal_rule(&self) -> WithdrawalRule {
        if self.withdrawal_rule == "annul-if-fewer-than-half-played" {
            WithdrawalRule::AnnulIfFewerThanHalfPlayed
        } else {
            WithdrawalRule::ForfeitUnplayed
        }
    }

    pub(crate) fn standings_config(&self) -> StandingsConfig {
        StandingsConfig {
            scoring: self.scoring.0,
            tie_breaks: self.tie_breaks.0.clone(),
            bye_points: self.bye_points.0,
        }
    }

    /// The Swiss pairing settings: the scoring, the bye's points under it, and the rounds
    /// planned (the last one applies the top-scorer rules).
    pub(crate) fn swiss_options(&self) -> SwissOptions {
        SwissOptions {
            scoring: self.scoring.0,
            bye_points: self.bye_points.0.points(&self.scoring.0),
            rounds: self.swiss_rounds.and_then(|rounds| u32::try_from(rounds).ok()),
            edition: self.dutch_edition(),
            acceleration: self.acceleration(),
            ..SwissOptions::default()
        }
    }

    pub(crate) fn dutch_edition(&self) -> DutchEdition {
        DutchEdition::parse(&self.dutch_edition).unwrap_or_default()
    }

    pub(crate) fn acceleration(&self) -> Acceleration {
        Acceleration::parse(&self.acceleration).unwrap_or_default()
    }
}

/// Checks a section's edition and acceleration: Swiss sections only; the Baku acceleration
/// adds a win's and a draw's points, so the scoring must make a draw half a win and a loss
/// nothing (C.04.5.1).
pub(crate) fn check_swiss_settings(
    pairing: PairingSystem,
    edition: Option<DutchEdition>,
    acceleration: Option<Acceleration>,
    scoring: &Scoring,
) -> DomainResult<()> {
    if pairing != PairingSystem::Swiss && (edition.is_some() || acceleration.is_some()) {
        return Err(DomainError::Invalid("dutch_edition and acceleration are for Swiss sections".to_owned()));
    }
    if acceleration == Some(Acceleration::Baku)
        && (scoring.loss != Points::ZERO || scoring.draw + scoring.draw != scoring.win)
    {
        return Err(DomainError::Invalid(
            "the Baku acceleration needs a draw worth half a win and a loss worth nothing".to_owned(),
        ));
    }
    Ok(())
}

/// Checks a section's bye setting: Swiss sections only, never negative.
pub(crate) fn check_bye_points(pairing: PairingSystem, bye_points: Option<ByePoints>) -> DomainResult<()> {
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

pub(crate) fn start_policy_name(policy: StartPolicy) -> &'static str {
    match policy {
        StartPolicy::AllTogether => "all-together",
        StartPolicy::RoundByRound => "round-by-round",
    }
}

pub(crate) fn withdrawal_rule_name(rule: WithdrawalRule) -> &'static str {
    match rule {
        WithdrawalRule::ForfeitUnplayed => "forfeit-unplayed",
        WithdrawalRule::AnnulIfFewerThanHalfPlayed => "annul-if-fewer-than-half-played",
    }
}

/// The catalogue name of a section's handicap for `variant` (none for an empty name):
/// every game of the section starts from it (issue 20 §3).
pub(crate) fn handicap_for(variant: Variant, name: Option<&str>) -> DomainResult<Option<String>> {
    match name.map(str::trim) {
        None | Some("") => Ok(None),
        Some(name) => Ok(Some(rules_adapter::parse_handicap(variant, name)?.name())),
    }
}

/// Checks that a rated section's games can be rated: two seats (every pairable variant),
/// the standard start, no handicap (issue 18 §1, as for challenges).
pub(crate) fn check_rated(variant: Variant, rated: bool, handicap: Option<&str>) -> DomainResult<()> {
    if rated {
        ratings::check_rateable(variant, handicap, None, 2)?;
    }
    Ok(())
}

/// Checks a section's vacation allowance (issue 20 §3): 1 to 366 days, and only where
/// leave stops the clocks. `None` stays `None`.
pub(crate) fn vacation_days_for(vacation_allowed: bool, days: Option<u32>) -> DomainResult<Option<i32>> {
    match days {
        None => Ok(None),
        Some(_) if !vacation_allowed => Err(DomainError::Invalid(
            "vacation_days needs vacation_allowed: leave does not stop this section's clocks".to_owned(),
        )),
        Some(days @ 1..=366) => Ok(Some(days as i32)),
        Some(days) => Err(DomainError::Invalid(format!("vacation_days ({days}) must be 1 to 366"))),
    }
}

/// Checks a section's rating limits: 1 to 5000 each, the minimum not above the maximum
/// (`0` in a change removes a limit, before this check).
pub(crate) fn check_rating_limits(min: Option<i32>, max: Option<i32>) -> DomainResult<()> {
    for limit in [min, max].into_iter().flatten() {
        if !(1..=5000).contains(&limit) {
            return Err(DomainError::Invalid(format!("a rating limit ({limit}) must be 1 to 5000")));
        }
    }
    if let (Some(min), Some(max)) = (min, max) {
        if min > max {
            return Err(DomainError::Invalid(format!(
                "rating_min ({min}) must not be above rating_max ({max})"
            )));
        }
    }
    Ok(())
}

/// Checks that `ruleset` belongs to `variant` (the rules crate names the rulesets).
pub(crate) fn ruleset_for(variant: Variant, ruleset: Option<&str>) -> DomainResult<String> {
    rules_adapter::pairable(variant)?;
    rules_adapter::ruleset_for(variant, ruleset)
}

pub(crate) async fn load_section(
    executor: impl sqlx::PgExecutor<'_>,
    section_id: i64,
    lock: bool,
) -> DomainResult<SectionRow> {
    section_store::section(executor, section_id, lock)
        .await?
        .ok_or_else(|| DomainError::NotFound(format!("no section {section_id}")))
}

/// A new section's settings, checked and named as stored, before it has a tournament.
pub(crate) struct PreparedSection {
    name: String,
    variant: Variant,
    ruleset: String,
    control: TimeControl,
    vacation_allowed: bool,
    pairing: PairingSystem,
    start_policy: StartPolicy,
    swiss_rounds: Option<i32>,
    scoring: Scoring,
    tie_breaks: Vec<TieBreak>,
    withdrawal_rule: WithdrawalRule,
    bye_points: ByePoints,
    handicap: Option<String>,
    rated: bool,
    seeding: Seeding,
    vacation_days: Option<i32>,
    rating_min: Option<i32>,
    rating_max: Option<i32>,
    dutch_edition: DutchEdition,
    acceleration: Acceleration,
}

impl PreparedSection {
    /// Checks every setting of `new`.
    ///
    /// # Errors
    /// Unknown variant, ruleset or handicap, bad time control, a Swiss section without its
    /// number of rounds, bad rating limits... (422).
    pub(crate) fn check(new: NewSection) -> DomainResult<PreparedSection> {
        let name = check_name(&new.name)?;
        let variant: Variant = rules_adapter::parse_variant(&new.variant)?;
        let ruleset = ruleset_for(variant, new.ruleset.as_deref())?;
        let control = new.time_control.validate()?;
        let handicap = handicap_for(variant, new.handicap.as_deref())?;
        check_rated(variant, new.rated, handicap.as_deref())?;
        let vacation_days = vacation_days_for(new.vacation_allowed, new.vacation_days)?;
        check_rating_limits(new.rating_min, new.rating_max)?;
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
        check_swiss_settings(new.pairing, new.dutch_edition, new.acceleration, &scoring)?;
        let tie_breaks = new.tie_breaks.unwrap_or_else(|| match new.pairing {
            PairingSystem::Swiss => vec![TieBreak::Buchholz, TieBreak::SonnebornBerger, TieBreak::Wins],
            _ => StandingsConfig::default().tie_breaks,
        });
        Ok(PreparedSection {
            name,
            variant,
            ruleset,
            control,
            vacation_allowed: new.vacation_allowed,
            pairing: new.pairing,
            start_policy: new.start_policy,
            swiss_rounds,
            scoring,
            tie_breaks,
            withdrawal_rule: new.withdrawal_rule,
            bye_points: new.bye_points.unwrap_or_default(),
            handicap,
            rated: new.rated,
            seeding: new.seeding,
            vacation_days,
            rating_min: new.rating_min,
            rating_max: new.rating_max,
            dutch_edition: new.dutch_edition.unwrap_or_default(),
            acceleration: new.acceleration.unwrap_or_default(),
        })
    }

    /// Stores the section in `tournament_id` → its id.
    pub(crate) async fn insert(
        &self,
        executor: impl sqlx::PgExecutor<'_>,
        tournament_id: i64,
        now: OffsetDateTime,
    ) -> DomainResult<i64> {
        let row = section_store::NewSectionRow {
            tournament_id,
            name: &self.name,
            variant: self.variant.name(),
            ruleset: &self.ruleset,
            time_control: self.control,
            vacation_allowed: self.vacation_allowed,
            pairing: self.pairing.as_str(),
            start_policy: start_policy_name(self.start_policy),
            swiss_rounds: self.swiss_rounds,
            scoring: self.scoring,
            tie_breaks: &self.tie_breaks,
            withdrawal_rule: withdrawal_rule_name(self.withdrawal_rule),
            created_at: now,
            bye_points: self.bye_points,
            handicap: self.handicap.as_deref(),
            rated: self.rated,
            seeding: self.seeding.as_str(),
            vacation_days: self.vacation_days,
            rating_min: self.rating_min,
            rating_max: self.rating_max,
            dutch_edition: self.dutch_edition.as_str(),
            acceleration: self.acceleration.as_str(),
        };
        Ok(section_store::insert(executor, &row).await?)
    }
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
    let id = PreparedSection::check(new)?.insert(&domain.pool, tournament_id, domain.clock.now()).await?;
    section(domain, id).await
}

/// One section with its entries.
///
/// # Errors
/// Unknown section (404).
pub async fn section(domain: &Domain, section_id: i64) -> DomainResult<SectionView> {
    let row = load_section(&domain.pool, section_id, false).await?;
    let entries = section_store::entries(&domain.pool, section_id, &row.variant, row.pool().as_str()).await?;
    let pairing = row.pairing()?;
    let swiss = pairing == PairingSystem::Swiss;
    Ok(SectionView {
        id: row.section_id,
        tournament_id: row.tournament_id,
        dutch_edition: swiss.then(|| row.dutch_edition()),
        acceleration: swiss.then(|| row.acceleration()),
        pairing,
        bye_points: (pairing == PairingSystem::Swiss).then_some(row.bye_points.0),
        start_policy: row.start_policy(),
        withdrawal_rule: row.withdrawal_rule(),
        seeding: row.seeding(),
        rated: row.rated,
        rating_min: row.rating_min,
        rating_max: row.rating_max,
        name: row.name,
        variant: row.variant,
        ruleset: row.ruleset,
        time_control: row.time_control.0,
        handicap: row.handicap,
        vacation_allowed: row.vacation_allowed,
        vacation_days: row.vacation_days,
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
    /// New handicap of every game (before the start); `""` removes it.
    pub handicap: Option<String>,
    /// Whether leave stops the clocks (before the start).
    pub vacation_allowed: Option<bool>,
    /// The vacation allowance in days (before the start); `0` removes it.
    pub vacation_days: Option<u32>,
    /// Round-robin start policy (before the start).
    pub start_policy: Option<StartPolicy>,
    /// Swiss rounds planned.
    pub swiss_rounds: Option<u32>,
    /// Swiss: the edition of the FIDE (Dutch) System (before the start).
    pub dutch_edition: Option<DutchEdition>,
    /// Swiss: the acceleration (before the start).
    pub acceleration: Option<Acceleration>,
    /// Scoring.
    pub scoring: Option<ScoringSpec>,
    /// Swiss: what a bye scores (the tables follow at once; pairings from the next round).
    pub bye_points: Option<ByePoints>,
    /// Tie-break order.
    pub tie_breaks: Option<Vec<TieBreak>>,
    /// Withdrawal rule (before the start).
    pub withdrawal_rule: Option<WithdrawalRule>,
    /// Whether the games are rated (before the start).
    pub rated: Option<bool>,
    /// How the draw order is made (before the start).
    pub seeding: Option<Seeding>,
    /// The lowest rating a player may register with; `0` removes it.
    pub rating_min: Option<i32>,
    /// The highest rating a player may register with; `0` removes it.
    pub rating_max: Option<i32>,
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
        || patch.handicap.is_some()
        || patch.vacation_allowed.is_some()
        || patch.vacation_days.is_some()
        || patch.start_policy.is_some()
        || patch.withdrawal_rule.is_some()
        || patch.rated.is_some()
        || patch.seeding.is_some()
        || patch.dutch_edition.is_some()
        || patch.acceleration.is_some();
    if started && fixed_once_started {
        return Err(DomainError::Conflict(
            "the section has started: its ruleset, time control, handicap, vacation, start policy, withdrawal rule, rating, seeding, edition and acceleration are fixed"
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
    let scoring_after = patch.scoring.map_or(row.scoring.0, ScoringSpec::scoring);
    let acceleration_after =
        patch.acceleration.or((row.acceleration() == Acceleration::Baku).then_some(Acceleration::Baku));
    check_swiss_settings(row.pairing()?, patch.dutch_edition, patch.acceleration, &scoring_after)?;
    check_swiss_settings(PairingSystem::Swiss, None, acceleration_after, &scoring_after)?;
    let variant: Variant = rules_adapter::parse_variant(&row.variant)?;
    let name = patch.name.as_deref().map(check_name).transpose()?;
    let ruleset = patch.ruleset.as_deref().map(|r| ruleset_for(variant, Some(r))).transpose()?;
    let control = patch.time_control.map(TimeControl::validate).transpose()?;
    let handicap = patch.handicap.as_deref().map(|h| handicap_for(variant, Some(h))).transpose()?;
    let handicap_after = handicap.clone().unwrap_or_else(|| row.handicap.clone());
    check_rated(variant, patch.rated.unwrap_or(row.rated), handicap_after.as_deref())?;
    let vacation_allowed = patch.vacation_allowed.unwrap_or(row.vacation_allowed);
    // `0` removes the allowance; leave no longer stopping the clocks removes it too.
    let vacation_days = match patch.vacation_days {
        Some(0) => Some(None),
        Some(days) => Some(vacation_days_for(vacation_allowed, Some(days))?),
        None if !vacation_allowed && row.vacation_days.is_some() => Some(None),
        None => None,
    };
    // `0` removes a limit; the limits after the change are checked together.
    let limit = |change: Option<i32>| change.map(|value| (value != 0).then_some(value));
    let (rating_min, rating_max) = (limit(patch.rating_min), limit(patch.rating_max));
    check_rating_limits(rating_min.unwrap_or(row.rating_min), rating_max.unwrap_or(row.rating_max))?;
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
    let change = section_store::SectionChange {
        name: name.as_deref(),
        ruleset: ruleset.as_deref(),
        time_control: control,
        vacation_allowed: patch.vacation_allowed,
        start_policy: patch.start_policy.map(start_policy_name),
        swiss_rounds,
        scoring: patch.scoring.map(ScoringSpec::scoring),
        tie_breaks: patch.tie_breaks.as_deref(),
        withdrawal_rule: patch.withdrawal_rule.map(withdrawal_rule_name),
        status: patch.status.as_deref(),
        bye_points: patch.bye_points,
        handicap: handicap.as_ref().map(Option::as_deref),
        rated: patch.rated,
        seeding: patch.seeding.map(Seeding::as_str),
        vacation_days,
        rating_min,
        rating_max,
        dutch_edition: patch.dutch_edition.map(DutchEdition::as_str),
        acceleration: patch.acceleration.map(Acceleration::as_str),
    };
    section_store::update(&mut tx, section_id, &change).await?;
    tx.commit().await?;
    section(domain, section_id).await
}
