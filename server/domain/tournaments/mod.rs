//! Tournaments: directors create tournaments and their sections, register and seed
//! players, start sections (every game created with its clock running), decide results
//! (adjudication, forfeit, correction, each recorded in the audit trail) and read the
//! tables. The pairings, standings and tables themselves come from the pure
//! `tavoliere_tournament` crate; this module only loads rows and stores decisions. One file per concern.

mod desk;
mod entries;
mod listing;
mod mine;
mod notices;
mod pairing;
mod results;
mod rounds;
mod sections;
mod tables;
mod tournament;

pub use desk::{desk, desk_game_in, DeskDecision, DeskGame, DeskView, DeskWithdrawal, NEARLY_OVERDUE};
pub use entries::{register, set_seed, withdraw, withdrawal_preview, WithdrawalPreview};
pub use listing::{listed, listed_one, place_of_game, GamePlace, ListedSection, ListedTournament};
pub use mine::{for_player, MyGame, MySection};
pub use notices::{
    announce, announcements, follow, follows, note_final_rounds, note_final_rounds_of_game, unfollow,
    Announcement, ANNOUNCEMENTS_PER_DAY, ANNOUNCEMENT_MAX_CHARS,
};
pub(crate) use pairing::{ids_of, round_robin_options, section_byes};
pub use pairing::{
    next_round, pairing_explanation, start, ExplainedPlayer, PairingExplanationView, RoundStarted, Say,
};
pub(crate) use results::{audit, section_games, set_result};
pub use results::{corrections, decide, game_result, result_name, CorrectionView, Decision, GameDecision};
pub use rounds::{rounds, RoundGame, RoundView, RoundsView};
pub use sections::{
    create_section, section, update_section, EntryView, NewSection, PairingSystem, ScoringName, ScoringSpec,
    SectionPatch, SectionView, Seeding,
};
pub(crate) use sections::{load_section, PreparedSection};
pub(crate) use tables::section_data;
pub use tables::{crosstable, grand_prix, standings, trf, StandingView, StandingsView};
pub use tournament::{
    add_director, create, create_with_section, get, list, update, NewTournament, TournamentPatch,
    TournamentQuery, TournamentStatus, TournamentSummary, TournamentView,
};
pub(crate) use tournament::{check_name, ensure_directs, ensure_exists};

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use sqlx::{Postgres, Transaction};
use tavoliere_rules::EndReason;
use tavoliere_tournament::berger::{round_robin, Cycles, RoundRobinOptions, StartPolicy};
use tavoliere_tournament::grand_prix::{compute_grand_prix, GpFormula, GrandPrixConfig, SectionResults};
use tavoliere_tournament::standings::{compute_standings, Standing, StandingsConfig, TieBreak};
use tavoliere_tournament::swiss::{
    explain_swiss, pair_swiss, trf_export, Acceleration, DutchEdition, PairingExplanation, SwissBye,
    SwissEntry, SwissError, SwissOptions,
};
use tavoliere_tournament::tables::{
    build_crosstable, build_grand_prix_table, Crosstable, GrandPrixTable, PlayerInfo, SectionInfo,
};
use tavoliere_tournament::withdrawal::{apply_withdrawal, WithdrawalRule};
use tavoliere_tournament::{ByePoints, GameId, GameRecord, GameResult, PlayerId, Points, Scoring, SectionId};
use time::OffsetDateTime;

use super::accounts::{account_id_by_username, Account, Role};
use super::error::{DomainError, DomainResult, ErrorKind};
use super::games::{self, GameReason, GameResult as BoardResult, GameStatus};
use super::ratings;
use super::rules_adapter::{self, Variant};
use super::time_control::TimeControl;
use super::Domain;
use crate::storage::keyset::{self, After, Page};
use crate::storage::sections::{self as section_store, SectionGame, SectionRow};
use crate::storage::tournaments as store;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_finished_game_counts_its_board_result_and_forfeits_as_forfeits() {
        let finished = |result: BoardResult, reason: EndReason| {
            game_result(GameStatus::Finished, Some(&result), Some(reason.into()), None)
        };
        assert_eq!(finished(BoardResult::FirstWins, EndReason::Checkmate), GameResult::FirstWins);
        assert_eq!(finished(BoardResult::SecondWins, EndReason::Timeout), GameResult::SecondWins);
        assert_eq!(finished(BoardResult::Draw, EndReason::Agreement), GameResult::Draw);
        assert_eq!(finished(BoardResult::SecondWins, EndReason::Forfeit), GameResult::ForfeitSecondWins);
        assert_eq!(finished(BoardResult::DoubleForfeit, EndReason::Forfeit), GameResult::DoubleForfeit);
        assert_eq!(game_result(GameStatus::Active, None, None, None), GameResult::Pending);
        assert_eq!(
            game_result(GameStatus::Aborted, None, Some(EndReason::Aborted.into()), None),
            GameResult::Pending
        );
    }

    #[test]
    fn a_directors_decision_overrides_the_board() {
        let checkmate = Some(EndReason::Checkmate.into());
        assert_eq!(
            game_result(GameStatus::Finished, Some(&BoardResult::FirstWins), checkmate, Some("draw")),
            GameResult::Draw
        );
        assert_eq!(
            game_result(GameStatus::Aborted, None, Some(GameReason::Annulled), Some("annulled")),
            GameResult::Annulled
        );
    }

    #[test]
    fn every_result_name_reads_back() {
        use super::results::parse_result_name;
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
