//! The label catalogue: every word the tables print, one table per language.

use serde::{Deserialize, Serialize};

use crate::grand_prix::GpTieBreak;
use crate::standings::TieBreak;
use crate::tables::CellMark;

/// A language the tables are printed in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    /// Italian (the associations' language, the default).
    #[default]
    It,
    /// English.
    En,
}

impl Language {
    /// The catalogue of this language.
    pub fn labels(self) -> &'static Labels {
        match self {
            Language::It => &ITALIAN,
            Language::En => &ENGLISH,
        }
    }

    /// The BCP 47 code (`lang` attribute).
    pub fn code(self) -> &'static str {
        match self {
            Language::It => "it",
            Language::En => "en",
        }
    }
}

/// The words of one language. Tie-break arrays follow the order of [`TieBreak::ALL`] and
/// [`GpTieBreak`]'s declaration; result marks follow [`CellMark`]'s declaration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Labels {
    /// Column: place.
    pub place: &'static str,
    /// Column: the row number (also the column heading of the crosstable).
    pub number: &'static str,
    /// Column: player.
    pub player: &'static str,
    /// Column: the player's rating (when any player of the table has one).
    pub rating: &'static str,
    /// Column: points.
    pub points: &'static str,
    /// Column: games counted.
    pub games: &'static str,
    /// Column: the Grand Prix score.
    pub grand_prix_score: &'static str,
    /// Caption prefix of the Grand Prix table.
    pub grand_prix: &'static str,
    /// Tooltip of a link to a game.
    pub game: &'static str,
    /// Tooltip of a round number.
    pub round: &'static str,
    /// Note on a section value that does not count (outside the best N).
    pub not_counted: &'static str,
    /// Column of the pairing-allocated byes (Swiss crosstables): the rounds of each bye.
    pub bye: &'static str,
    /// Short headings of the section tie-breaks, in [`TieBreak::ALL`] order.
    pub tie_break_short: [&'static str; 7],
    /// Full names of the section tie-breaks, in [`TieBreak::ALL`] order.
    pub tie_break_long: [&'static str; 7],
    /// Short headings of the Grand Prix tie-breaks.
    pub gp_tie_break_short: [&'static str; 4],
    /// Full names of the Grand Prix tie-breaks.
    pub gp_tie_break_long: [&'static str; 4],
    /// Result marks: win, draw, loss, forfeit win, forfeit loss, pending, annulled.
    pub marks: [&'static str; 7],
}

impl Labels {
    /// Short heading and full name of a section tie-break.
    pub fn tie_break(&self, tie_break: TieBreak) -> (&'static str, &'static str) {
        let index = TieBreak::ALL.iter().position(|&t| t == tie_break).unwrap_or(0);
        (self.tie_break_short[index], self.tie_break_long[index])
    }

    /// Short heading and full name of a Grand Prix tie-break.
    pub fn gp_tie_break(&self, tie_break: GpTieBreak) -> (&'static str, &'static str) {
        let index = match tie_break {
            GpTieBreak::SectionsPlayed => 0,
            GpTieBreak::BestPlacings => 1,
            GpTieBreak::TotalPoints => 2,
            GpTieBreak::TotalPercentage => 3,
        };
        (self.gp_tie_break_short[index], self.gp_tie_break_long[index])
    }

    /// The mark printed in a crosstable cell.
    pub fn mark(&self, mark: CellMark) -> &'static str {
        let index = match mark {
            CellMark::Win => 0,
            CellMark::Draw => 1,
            CellMark::Loss => 2,
            CellMark::ForfeitWin => 3,
            CellMark::ForfeitLoss => 4,
            CellMark::Pending => 5,
            CellMark::Annulled => 6,
        };
        self.marks[index]
    }
}

/// Marks shared by both languages (the usual crosstable signs).
const MARKS: [&str; 7] = ["1", "½", "0", "+", "-", "*", "x"];

/// Italian.
pub const ITALIAN: Labels = Labels {
    place: "Pos.",
    number: "N.",
    player: "Giocatore",
    rating: "Rating",
    points: "Punti",
    games: "Partite",
    grand_prix_score: "Punti GP",
    grand_prix: "Gran Premio",
    game: "Partita",
    round: "turno",
    not_counted: "non conteggiato",
    bye: "Riposo (turno)",
    tie_break_short: ["PG", "SB", "SD", "V", "VS", "Bu", "Ko"],
    tie_break_long: [
        "Partite giocate",
        "Sonneborn-Berger",
        "Scontro diretto",
        "Vittorie",
        "Vittorie col secondo colore",
        "Buchholz",
        "Koya",
    ],
    gp_tie_break_short: ["Gir.", "Piaz.", "Pt.", "%"],
    gp_tie_break_long: ["Gironi giocati", "Migliori piazzamenti", "Punti totali", "Percentuale totale"],
    marks: MARKS,
};

/// English.
pub const ENGLISH: Labels = Labels {
    place: "Pl.",
    number: "No.",
    player: "Player",
    rating: "Rating",
    points: "Points",
    games: "Games",
    grand_prix_score: "GP points",
    grand_prix: "Grand Prix",
    game: "Game",
    round: "round",
    not_counted: "not counted",
    bye: "Bye (round)",
    tie_break_short: ["Gms", "SB", "DE", "W", "W2", "Bu", "Ko"],
    tie_break_long: [
        "Games played",
        "Sonneborn-Berger",
        "Direct encounter",
        "Wins",
        "Wins with the second colour",
        "Buchholz",
        "Koya",
    ],
    gp_tie_break_short: ["Sec.", "Plc.", "Pts", "%"],
    gp_tie_break_long: ["Sections played", "Best placings", "Total points", "Total percentage"],
    marks: MARKS,
};
