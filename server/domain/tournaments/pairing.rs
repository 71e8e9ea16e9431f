//! Starting a section and pairing its rounds (round-robin batches, Swiss rounds).

use super::*;

/// What starting a section or a round created.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct RoundStarted {
    /// The section after the start.
    pub section: SectionView,
    /// The games created, with their clocks running.
    pub games: Vec<i64>,
}

pub(crate) async fn active_entries(
    tx: &mut Transaction<'_, Postgres>,
    section_id: i64,
    all: bool,
) -> DomainResult<Vec<i64>> {
    Ok(section_store::entered(tx, section_id, all).await?)
}

pub(crate) fn round_robin_options(row: &SectionRow) -> DomainResult<RoundRobinOptions> {
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
pub(crate) async fn create_game(
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
        row.handicap.as_deref(),
        None,
        row.time_control.0,
        row.vacation_allowed,
        &[first, second],
        true,
    )
    .await?;
    section_store::place_game(tx, game_id, row.tournament_id, row.section_id, round as i32, board as i32)
        .await?;
    if let Some(days) = row.vacation_days {
        // The section's vacation allowance, counted by the clocks of this game (§3).
        section_store::set_game_vacation_days(tx, game_id, days).await?;
    }
    if row.rated {
        // Rated by the one ending path (`games::finish`), as a rated challenge's game.
        crate::storage::ratings::mark_game_rated(tx, game_id).await?;
    }
    // The players hear of their pairing with the round (#17 §2).
    crate::storage::notifications::notify_round_started(tx, game_id, domain.clock.now()).await?;
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
    let tournament_status = store::status(&mut *tx, row.tournament_id, true).await?.unwrap_or_default();
    if tournament_status == "finished" {
        return Err(DomainError::Conflict("the tournament is finished".to_owned()));
    }
    if row.seeding() == Seeding::Rating {
        // The draw order is fixed now, from the ratings as they stand at the start.
        section_store::seed_by_rating(&mut tx, section_id, &row.variant, row.pool().as_str()).await?;
    }
    let players = active_entries(&mut tx, section_id, false).await?;
    if players.len() < 2 {
        return Err(DomainError::Invalid("a section needs at least two players".to_owned()));
    }
    let (games, current_round) = match row.pairing()? {
        PairingSystem::Swiss => {
            let entries: Vec<SwissEntry> =
                players.iter().map(|&id| SwissEntry::available(PlayerId(id))).collect();
            let created = pair_swiss_section(domain, &mut tx, &row, &entries, &[], &[]).await?;
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
    section_store::set_round(&mut tx, section_id, current_round).await?;
    store::mark_running(&mut tx, row.tournament_id).await?;
    tx.commit().await?;
    Ok(RoundStarted { section: section(domain, section_id).await?, games })
}

pub(crate) fn ids_of(players: &[i64]) -> Vec<PlayerId> {
    players.iter().copied().map(PlayerId).collect()
}

pub(crate) fn pairing_error(error: impl std::fmt::Display) -> DomainError {
    DomainError::Invalid(format!("The section cannot be paired: {error}."))
}

/// Creates the games of start batch `batch` of a round-robin over `players` (every entry,
/// in draw order). A game of a player who has withdrawn is lost by forfeit at once (both
/// withdrawn: a double forfeit).
pub(crate) async fn create_round_robin_batch(
    domain: &Domain,
    tx: &mut Transaction<'_, Postgres>,
    row: &SectionRow,
    players: &[i64],
    batch: u32,
) -> DomainResult<Vec<i64>> {
    let schedule = round_robin(&ids_of(players), &round_robin_options(row)?).map_err(pairing_error)?;
    let withdrawn = section_store::withdrawn(&mut **tx, row.section_id).await?;
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

/// Pairs the next Swiss round of `entries` (every player in draw order, the withdrawn ones
/// unavailable: they keep their pairing numbers) and creates its games and bye.
pub(crate) async fn pair_swiss_section(
    domain: &Domain,
    tx: &mut Transaction<'_, Postgres>,
    row: &SectionRow,
    entries: &[SwissEntry],
    games: &[GameRecord],
    byes: &[SwissBye],
) -> DomainResult<Vec<i64>> {
    // The Dutch system's search grows fast with a section's size: off the async workers.
    let (entries, games, byes, options) =
        (entries.to_vec(), games.to_vec(), byes.to_vec(), row.swiss_options());
    let paired = domain.rules_work.run(move || pair_swiss(&entries, &games, &byes, &options)).await?;
    let round = paired.map_err(|e| match e {
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
        section_store::insert_bye(tx, row.section_id, round.round as i32, bye.0).await?;
    }
    Ok(created)
}

/// Every entry of a Swiss section in draw order, the withdrawn ones unavailable.
pub(crate) async fn swiss_entries(
    tx: &mut Transaction<'_, Postgres>,
    section_id: i64,
) -> DomainResult<Vec<SwissEntry>> {
    let withdrawn = section_store::withdrawn(&mut **tx, section_id).await?;
    Ok(active_entries(tx, section_id, true)
        .await?
        .into_iter()
        .map(|id| SwissEntry { player: PlayerId(id), available: !withdrawn.contains(&id) })
        .collect())
}

pub(crate) async fn section_byes(
    executor: impl sqlx::PgExecutor<'_>,
    section_id: i64,
) -> DomainResult<Vec<SwissBye>> {
    let rows = section_store::byes(executor, section_id).await?;
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
            let entries = swiss_entries(&mut tx, section_id).await?;
            let records: Vec<GameRecord> =
                section_games(&mut *tx, section_id).await?.iter().map(SectionGame::record).collect();
            let byes = section_byes(&mut *tx, section_id).await?;
            pair_swiss_section(domain, &mut tx, &row, &entries, &records, &byes).await?
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
    section_store::set_round(&mut tx, section_id, next).await?;
    tx.commit().await?;
    Ok(RoundStarted { section: section(domain, section_id).await?, games })
}

/// A player named in a pairing explanation.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ExplainedPlayer {
    /// The player's account id (the ids of the explanation).
    pub id: i64,
    /// The player's username.
    pub username: String,
    /// The pairing number (draw order, from 1).
    pub number: u32,
}

/// Why a Swiss round was paired as it was (issue 42 §4).
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct PairingExplanationView {
    /// The section.
    pub section_id: i64,
    /// The round.
    pub round: u32,
    /// Whether pairing the round again from the rounds before it, by the section's edition
    /// of the FIDE (Dutch) System, gives exactly the games, colours and bye it has.
    pub identical: bool,
    /// The players the explanation names.
    pub players: Vec<ExplainedPlayer>,
    /// The brackets, pairs and bye, with the rule that decided each.
    pub explanation: PairingExplanation,
    /// The same in sentences (English): one per bracket, one per pair, one for the bye.
    pub sentences: Vec<String>,
}

/// Explains round `round` of a Swiss section: pairs it again from the rounds before it
/// (the players in it are those who have a game or the bye in it) and says, per bracket,
/// pair and bye, which rule decided it.
///
/// # Errors
/// Unknown section or a round not paired (404), a section that is not Swiss or whose earlier
/// rounds no longer pair (422), an earlier round with a game in play (409).
pub async fn pairing_explanation(
    domain: &Domain,
    section_id: i64,
    round: u32,
    say: Say<'_>,
) -> DomainResult<PairingExplanationView> {
    let data = section_data(domain, section_id).await?;
    if data.row.pairing()? != PairingSystem::Swiss {
        return Err(DomainError::Invalid("pairing explanations are for Swiss sections".to_owned()));
    }
    if round == 0 || round > u32::try_from(data.row.current_round).unwrap_or(0) {
        return Err(DomainError::NotFound(format!("round {round} of section {section_id} is not paired")));
    }
    let before: Vec<GameRecord> = data.games.iter().filter(|g| g.round < round).copied().collect();
    if let Some(game) = before.iter().find(|g| g.result == GameResult::Pending) {
        return Err(DomainError::Conflict(format!(
            "game {} of round {} has no result yet",
            game.game.0, game.round
        )));
    }
    let byes_before: Vec<SwissBye> = data.byes.iter().filter(|b| b.round < round).copied().collect();
    let in_round = |player: PlayerId| {
        data.games.iter().any(|g| g.round == round && (g.first == player || g.second == player))
            || data.byes.iter().any(|b| b.round == round && b.player == player)
    };
    let entries: Vec<SwissEntry> =
        data.players.iter().map(|p| SwissEntry { player: p.id, available: in_round(p.id) }).collect();
    let (again, explanation) =
        explain_swiss(&entries, &before, &byes_before, &data.row.swiss_options()).map_err(pairing_error)?;
    let mut actual: Vec<(i64, i64)> =
        data.games.iter().filter(|g| g.round == round).map(|g| (g.first.0, g.second.0)).collect();
    let mut paired: Vec<(i64, i64)> = again.pairings.iter().map(|p| (p.first.0, p.second.0)).collect();
    actual.sort_unstable();
    paired.sort_unstable();
    let actual_bye = data.byes.iter().find(|b| b.round == round).map(|b| b.player);
    let identical = actual == paired && actual_bye == again.bye;
    let name: HashMap<PlayerId, &str> = data.players.iter().map(|p| (p.id, p.name.as_str())).collect();
    let sentences =
        explanation_sentences(&explanation, &|p| name.get(&p).copied().unwrap_or("?").to_owned(), say);
    Ok(PairingExplanationView {
        section_id,
        round,
        identical,
        players: data
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| ExplainedPlayer { id: p.id.0, username: p.name.clone(), number: i as u32 + 1 })
            .collect(),
        explanation,
        sentences,
    })
}

/// How the explanation is put in words: a catalogue key with its `{name}` arguments → the
/// sentence (the locales' `pairing.*` texts).
pub type Say<'a> = &'a (dyn Fn(&str, &[(&str, &str)]) -> String + Sync);

/// The explanation in words, for directors to set against the Handbook (C.04.3): one
/// sentence per bracket, per pair and for the bye.
pub(crate) fn explanation_sentences(
    e: &PairingExplanation,
    name: &dyn Fn(PlayerId) -> String,
    say: Say,
) -> Vec<String> {
    use tavoliere_tournament::swiss::{ColourRule, PairRole, PassedOverReason};
    let names = |list: &[PlayerId]| list.iter().map(|&p| name(p)).collect::<Vec<_>>().join(", ");
    let mut out = Vec::new();
    let edition = e.edition.as_str();
    for b in &e.brackets {
        let (number, score) = (b.number.to_string(), b.score.to_string());
        let mut text = say(
            "pairing.bracket",
            &[
                ("number", &number),
                ("score", &score),
                ("edition", edition),
                ("residents", &names(&b.residents)),
            ],
        );
        if !b.moved_down.is_empty() {
            text += &say(
                "pairing.moved_down",
                &[("moved", &names(&b.moved_down)), ("paired", &names(&b.moved_down_paired))],
            );
        }
        if !b.s1.is_empty() {
            text += &say("pairing.s1s2", &[("s1", &names(&b.s1)), ("s2", &names(&b.s2))]);
        }
        if !b.exchanged_out.is_empty() || !b.exchanged_in.is_empty() {
            text += &say(
                "pairing.exchanged",
                &[("out", &names(&b.exchanged_out)), ("in", &names(&b.exchanged_in))],
            );
        }
        if b.collapsed {
            text += &say("pairing.collapsed", &[]);
        }
        if !b.floaters.is_empty() {
            text += &say("pairing.floaters", &[("floaters", &names(&b.floaters))]);
        }
        text += &say("pairing.end", &[]);
        out.push(text);
    }
    for p in &e.pairs {
        let how = say(
            match p.role {
                PairRole::MovedDown => "pairing.role.moved-down",
                PairRole::S1S2 => "pairing.role.s1-s2",
            },
            &[],
        );
        let (board, bracket) = (p.board.to_string(), p.bracket.to_string());
        let mut text = say(
            "pairing.pair",
            &[
                ("board", &board),
                ("first", &name(p.first)),
                ("second", &name(p.second)),
                ("bracket", &bracket),
                ("how", &how),
            ],
        );
        for passed in &p.passed_over {
            let why = say(
                match passed.reason {
                    PassedOverReason::PlayedBefore => "pairing.reason.played-before",
                    PassedOverReason::SameAbsoluteColour => "pairing.reason.same-absolute-colour",
                    PassedOverReason::BothInS1 => "pairing.reason.both-in-s1",
                    PassedOverReason::NeededElsewhere => "pairing.reason.needed-elsewhere",
                },
                &[],
            );
            text += &say(
                "pairing.passed",
                &[("chooser", &name(p.chooser)), ("other", &name(passed.player)), ("why", &why)],
            );
        }
        let rule = say(
            match p.colour {
                ColourRule::BothPreferences => "pairing.colour.both-preferences",
                ColourRule::StrongerPreference => "pairing.colour.stronger-preference",
                ColourRule::Alternation => "pairing.colour.alternation",
                ColourRule::HigherRanked => "pairing.colour.higher-ranked",
                ColourRule::InitialColour => "pairing.colour.initial-colour",
            },
            &[],
        );
        text += &say("pairing.colours", &[("rule", &rule)]);
        out.push(text);
    }
    if let Some(bye) = &e.bye {
        let bracket = bye.bracket.to_string();
        let mut text = say("pairing.bye", &[("player", &name(bye.player)), ("bracket", &bracket)]);
        if !bye.not_eligible_below.is_empty() {
            text += &say("pairing.bye_below", &[("players", &names(&bye.not_eligible_below))]);
        }
        text += &say("pairing.end", &[]);
        out.push(text);
    }
    out
}
