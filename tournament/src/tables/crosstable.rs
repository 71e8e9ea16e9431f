//! The crosstable of a section.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::model::{Bye, GameId, GameRecord, GameResult, PlayerId, PlayerOutcome};
use crate::scoring::Points;
use crate::standings::{compute_standings, Place, StandingsConfig, StandingsError, TieBreak};

/// A player as the tables show them.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PlayerInfo {
    /// The player.
    pub id: PlayerId,
    /// The name to print (user text: the HTML writer escapes it).
    pub name: String,
    /// The player's rating, if they have one (shown in its own column when any player of
    /// the table has one; the TRF's rating field).
    #[serde(default)]
    pub rating: Option<i32>,
}

/// What a cell shows for one game, from the row player's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "kebab-case")]
pub enum CellMark {
    /// Won over the board.
    Win,
    /// Drawn.
    Draw,
    /// Lost over the board.
    Loss,
    /// Won by forfeit.
    ForfeitWin,
    /// Lost by forfeit.
    ForfeitLoss,
    /// Not finished yet.
    Pending,
    /// Annulled.
    Annulled,
}

impl CellMark {
    fn of(result: GameResult, row_is_first: bool) -> CellMark {
        match result.outcome_for(row_is_first) {
            Some(PlayerOutcome::Win) => CellMark::Win,
            Some(PlayerOutcome::Draw) => CellMark::Draw,
            Some(PlayerOutcome::Loss) => CellMark::Loss,
            Some(PlayerOutcome::ForfeitWin) => CellMark::ForfeitWin,
            Some(PlayerOutcome::ForfeitLoss) => CellMark::ForfeitLoss,
            None if result == GameResult::Annulled => CellMark::Annulled,
            None => CellMark::Pending,
        }
    }
}

/// One game in a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CellGame {
    /// The game (the cell links to `/games/{id}`).
    pub game: GameId,
    /// Its round.
    pub round: u32,
    /// Whether the row player had the first move.
    pub row_is_first: bool,
    /// The result from the row player's side.
    pub mark: CellMark,
}

/// The cell where a row meets a column: every game between the two players by round (two
/// in a double round-robin); empty on the diagonal.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Cell {
    /// The diagonal cell (a player against themself).
    pub own: bool,
    /// The games, in round order.
    pub games: Vec<CellGame>,
}

/// One row of a crosstable.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CrosstableRow {
    /// The row number, also the column heading of this player.
    pub number: u32,
    /// The place (shared when tied).
    pub place: Place,
    /// The player.
    pub player: PlayerInfo,
    /// The cells, one per column, in row order.
    pub cells: Vec<Cell>,
    /// The rounds in which the player had the pairing-allocated bye (Swiss), in order.
    pub byes: Vec<u32>,
    /// The running score.
    pub points: Points,
    /// Games counted so far.
    pub games_counted: u32,
    /// Games in the player's schedule (annulled ones excluded).
    pub games_scheduled: u32,
    /// Tie-break values in the section's order.
    pub tie_breaks: Vec<Option<Points>>,
}

/// A section's crosstable: players in standings order in rows and columns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Crosstable {
    /// The caption (section name, variant...), user text.
    pub title: String,
    /// The tie-breaks, in the order of the values in each row.
    pub tie_breaks: Vec<TieBreak>,
    /// What one bye scores (counted in each row's points).
    pub bye_points: Points,
    /// The rows.
    pub rows: Vec<CrosstableRow>,
}

/// Builds the crosstable of a section: `players` in draw order with their names, `games`
/// every game, `byes` the pairing-allocated byes (Swiss; empty otherwise), `config` the
/// section's scoring, bye points and tie-breaks.
///
/// # Errors
///
/// As [`compute_standings`].
pub fn build_crosstable(
    title: &str,
    players: &[PlayerInfo],
    games: &[GameRecord],
    byes: &[Bye],
    config: &StandingsConfig,
) -> Result<Crosstable, StandingsError> {
    let ids: Vec<PlayerId> = players.iter().map(|p| p.id).collect();
    let standings = compute_standings(&ids, games, byes, config)?;
    let names: HashMap<PlayerId, &PlayerInfo> = players.iter().map(|p| (p.id, p)).collect();
    let column: HashMap<PlayerId, usize> = standings.iter().enumerate().map(|(i, s)| (s.player, i)).collect();
    let size = standings.len();
    let mut cells: Vec<Vec<Cell>> = (0..size)
        .map(|row| (0..size).map(|col| Cell { own: row == col, games: Vec::new() }).collect())
        .collect();
    for game in games {
        // compute_standings has checked that both players are entered.
        if let (Some(&first), Some(&second)) = (column.get(&game.first), column.get(&game.second)) {
            let in_cell = |row_is_first| CellGame {
                game: game.game,
                round: game.round,
                row_is_first,
                mark: CellMark::of(game.result, row_is_first),
            };
            cells[first][second].games.push(in_cell(true));
            cells[second][first].games.push(in_cell(false));
        }
    }
    let rows = standings
        .into_iter()
        .zip(cells)
        .enumerate()
        .map(|(i, (standing, mut row_cells))| {
            for cell in &mut row_cells {
                cell.games.sort_by_key(|g| (g.round, g.game));
            }
            let player = names.get(&standing.player).map_or_else(
                || PlayerInfo { id: standing.player, name: String::new(), rating: None },
                |p| (*p).clone(),
            );
            let mut bye_rounds: Vec<u32> =
                byes.iter().filter(|b| b.player == standing.player).map(|b| b.round).collect();
            bye_rounds.sort_unstable();
            CrosstableRow {
                number: i as u32 + 1,
                place: standing.place,
                player,
                cells: row_cells,
                byes: bye_rounds,
                points: standing.points,
                games_counted: standing.games_counted,
                games_scheduled: standing.games_scheduled,
                tie_breaks: standing.tie_breaks,
            }
        })
        .collect();
    Ok(Crosstable {
        title: title.to_owned(),
        tie_breaks: config.tie_breaks.clone(),
        bye_points: config.bye_points.points(&config.scoring),
        rows,
    })
}

impl Crosstable {
    /// Whether any player had a bye (the writers then add a bye column).
    pub fn has_byes(&self) -> bool {
        self.rows.iter().any(|row| !row.byes.is_empty())
    }

    /// Whether any player has a rating (the writers then add a rating column).
    pub fn has_ratings(&self) -> bool {
        self.rows.iter().any(|row| row.player.rating.is_some())
    }
}

/// A rating as a table cell: empty for a player without one.
pub(crate) fn rating_text(player: &PlayerInfo) -> String {
    player.rating.map(|r| r.to_string()).unwrap_or_default()
}
