//! Tables: standings, crosstables, TRF and the Grand Prix.

use super::*;

/// Everything a table of one section needs.
pub(crate) struct SectionData {
    pub(crate) row: SectionRow,
    pub(crate) tournament_name: String,
    pub(crate) players: Vec<PlayerInfo>,
    pub(crate) games: Vec<GameRecord>,
    /// Swiss byes (none in a round-robin).
    pub(crate) byes: Vec<SwissBye>,
}

pub(crate) async fn section_data(domain: &Domain, section_id: i64) -> DomainResult<SectionData> {
    let row = load_section(&domain.pool, section_id, false).await?;
    let tournament_name = store::name(&domain.pool, row.tournament_id).await?;
    let players = section_store::players(&domain.pool, section_id, &row.variant, row.pool().as_str()).await?;
    let games = section_games(&domain.pool, section_id).await?.iter().map(SectionGame::record).collect();
    let byes = section_byes(&domain.pool, section_id).await?;
    Ok(SectionData {
        row,
        tournament_name,
        players: players
            .into_iter()
            .map(|(id, name, rating)| PlayerInfo { id: PlayerId(id), name, rating })
            .collect(),
        games,
        byes,
    })
}

impl SectionData {
    pub(crate) fn title(&self) -> String {
        format!("{} — {}", self.tournament_name, self.row.name)
    }

    pub(crate) fn ids(&self) -> Vec<PlayerId> {
        self.players.iter().map(|p| p.id).collect()
    }

    pub(crate) fn standings(&self) -> DomainResult<Vec<Standing>> {
        compute_standings(&self.ids(), &self.games, &self.byes, &self.row.standings_config())
            .map_err(internal)
    }
}

pub(crate) fn internal(error: impl std::fmt::Debug) -> DomainError {
    DomainError::Internal(anyhow::anyhow!("tournament data: {error:?}"))
}

/// One line of the standings with the player's name.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct StandingView {
    /// The player's username.
    pub username: String,
    /// The player's current rating in the section's variant and pool, rounded; `null`
    /// before their first rated game there.
    pub rating: Option<i32>,
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
    let players: HashMap<PlayerId, &PlayerInfo> = data.players.iter().map(|p| (p.id, p)).collect();
    let standings = data
        .standings()?
        .into_iter()
        .map(|standing| StandingView {
            username: players.get(&standing.player).map(|p| p.name.clone()).unwrap_or_default(),
            rating: players.get(&standing.player).and_then(|p| p.rating),
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

/// The TRF16 export of a section, Swiss or round-robin: points in 1 / ½ / 0, the
/// section's own scoring in an `XXS` line when it is another
/// (`tavoliere_tournament::trf`).
///
/// # Errors
/// Unknown section (404).
pub async fn trf(domain: &Domain, section_id: i64) -> DomainResult<String> {
    let data = section_data(domain, section_id).await?;
    let planned = match data.row.pairing()? {
        PairingSystem::Swiss => data.row.swiss_rounds.map(|r| r.max(0) as u32),
        // A round-robin's rounds are its schedule's (none before the draw).
        _ => round_robin(&data.ids(), &round_robin_options(&data.row)?).ok().map(|s| s.rounds),
    };
    // Withdrawn players carry the absence code in the round to pair.
    let withdrawn: Vec<PlayerId> =
        section_store::withdrawn(&domain.pool, section_id).await?.into_iter().map(PlayerId).collect();
    trf_export(
        &data.title(),
        &data.players,
        &withdrawn,
        &data.games,
        &data.byes,
        &data.row.swiss_options(),
        planned,
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
        // A player of several sections shows the rating of the first section (in the
        // tournament's order) where they have one.
        for player in data.players {
            let kept = players.entry(player.id).or_insert_with(|| player.clone());
            if kept.rating.is_none() {
                kept.rating = player.rating;
            }
        }
    }
    let rows = compute_grand_prix(&results, &config).map_err(internal)?;
    let players: Vec<PlayerInfo> = players.into_values().collect();
    Ok(build_grand_prix_table(&view.name, &infos, &players, &config.tie_breaks, &rows))
}
