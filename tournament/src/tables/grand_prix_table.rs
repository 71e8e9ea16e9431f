//! The Grand Prix table of a tournament.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::grand_prix::{GpSectionScore, GpTieBreak, GrandPrixRow};
use crate::model::SectionId;
use crate::scoring::Points;
use crate::standings::Place;
use crate::tables::PlayerInfo;

/// A section as a column of the Grand Prix table.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SectionInfo {
    /// The section.
    pub id: SectionId,
    /// Its name (user text), e.g. "Xiangqi A".
    pub name: String,
}

/// One row of the Grand Prix table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GrandPrixTableRow {
    /// The place.
    pub place: Place,
    /// The player.
    pub player: PlayerInfo,
    /// Per section column: what the player made there, if they entered it.
    pub sections: Vec<Option<GpSectionScore>>,
    /// The Grand Prix score.
    pub score: Points,
    /// The Grand Prix tie-break values.
    pub tie_breaks: Vec<Points>,
}

/// The whole Grand Prix table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GrandPrixTable {
    /// The caption (tournament name), user text.
    pub title: String,
    /// The section columns.
    pub sections: Vec<SectionInfo>,
    /// The tie-breaks, in the order of each row's values.
    pub tie_breaks: Vec<GpTieBreak>,
    /// The rows, in place order.
    pub rows: Vec<GrandPrixTableRow>,
}

/// Lays out computed Grand Prix rows as a table with one column per section. A player
/// missing from `players` is printed with an empty name.
pub fn build_grand_prix_table(
    title: &str,
    sections: &[SectionInfo],
    players: &[PlayerInfo],
    tie_breaks: &[GpTieBreak],
    rows: &[GrandPrixRow],
) -> GrandPrixTable {
    let names: HashMap<_, _> = players.iter().map(|p| (p.id, p)).collect();
    let rows = rows
        .iter()
        .map(|row| GrandPrixTableRow {
            place: row.place,
            player: names.get(&row.player).map_or_else(
                || PlayerInfo { id: row.player, name: String::new(), rating: None },
                |p| (*p).clone(),
            ),
            sections: sections
                .iter()
                .map(|section| row.sections.iter().find(|s| s.section == section.id).copied())
                .collect(),
            score: row.score,
            tie_breaks: row.tie_breaks.clone(),
        })
        .collect();
    GrandPrixTable {
        title: title.to_owned(),
        sections: sections.to_vec(),
        tie_breaks: tie_breaks.to_vec(),
        rows,
    }
}

impl GrandPrixTable {
    /// Whether any player has a rating (the writers then add a rating column).
    pub fn has_ratings(&self) -> bool {
        self.rows.iter().any(|row| row.player.rating.is_some())
    }
}
