//! Why a round was paired as it was: per bracket its players, moved-down players, S1, S2
//! and exchanges; per pair the bracket, the opponents preferred by section D that were
//! passed over and the criterion that ruled each out; the colour rule of section E.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use super::dutch::{choose_colour, Outcome, Role};
use super::input::Prepared;
use super::{DutchEdition, SwissRound};
use crate::model::PlayerId;
use crate::scoring::Points;

/// The explanation of a round's pairing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PairingExplanation {
    /// The round.
    pub round: u32,
    /// The edition of C.04.3 applied.
    pub edition: DutchEdition,
    /// The brackets, top down, as they were paired.
    pub brackets: Vec<BracketExplanation>,
    /// Every pair, by board.
    pub pairs: Vec<PairExplanation>,
    /// The player with the pairing-allocated bye.
    pub bye: Option<ByeExplanation>,
}

/// One pairing bracket.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BracketExplanation {
    /// 1 for the top bracket.
    pub number: u32,
    /// The residents' score (with acceleration, if any).
    #[cfg_attr(feature = "openapi", schema(value_type = f64))]
    pub score: Points,
    /// The residents, by rank.
    pub residents: Vec<PlayerId>,
    /// The moved-down players (MDPs) from the brackets above.
    pub moved_down: Vec<PlayerId>,
    /// The MDPs paired here (the others went on down, the limbo).
    pub moved_down_paired: Vec<PlayerId>,
    /// S1 of the remainder as its number of pairs gives it (D.1).
    pub s1: Vec<PlayerId>,
    /// S2 of the remainder.
    pub s2: Vec<PlayerId>,
    /// Players of S1 exchanged into S2 (D.2).
    pub exchanged_out: Vec<PlayerId>,
    /// Players of S2 exchanged into S1.
    pub exchanged_in: Vec<PlayerId>,
    /// The players who float down to the next bracket (or, in the last one, the bye).
    pub floaters: Vec<PlayerId>,
    /// 2017 edition: the penultimate pairing bracket, paired again with every player below
    /// as its next bracket because its first pairing left the rest unpairable.
    pub collapsed: bool,
}

/// How a pair came about in its bracket.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "kebab-case")]
pub enum PairRole {
    /// A moved-down player paired with a resident (MDP-pairing of a heterogeneous bracket).
    MovedDown,
    /// A player of S1 with a player of S2 (homogeneous bracket, or the remainder).
    S1S2,
}

/// Why an opponent that section D puts first was not given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "kebab-case")]
pub enum PassedOverReason {
    /// C.1: they have played each other.
    PlayedBefore,
    /// C.3: both have the same absolute colour preference (and are not top scorers in the
    /// last round).
    SameAbsoluteColour,
    /// After the exchanges both are in S1.
    BothInS1,
    /// The pairing of the bracket and of the rest of the round by the quality criteria
    /// (completion, then C.5 onwards in their order) needs this player elsewhere.
    NeededElsewhere,
}

/// An opponent passed over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PassedOver {
    /// The player passed over.
    pub player: PlayerId,
    /// Why.
    pub reason: PassedOverReason,
}

/// The colour rule of section E that gave the colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "kebab-case")]
pub enum ColourRule {
    /// E.1: both colour preferences granted (or the only one).
    BothPreferences,
    /// E.2: the stronger preference (absolute over strong over mild; of two absolute ones
    /// the wider colour difference).
    StrongerPreference,
    /// E.3: alternation from the last round in which they had different colours (games
    /// actually played).
    Alternation,
    /// E.4: the higher-ranked player's preference.
    HigherRanked,
    /// E.5: the initial colour, by the higher-ranked player's pairing number.
    InitialColour,
}

/// One pair.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PairExplanation {
    /// The board.
    pub board: u32,
    /// The player with the first move.
    pub first: PlayerId,
    /// The player with the second move.
    pub second: PlayerId,
    /// The bracket (its number) where they were paired.
    pub bracket: u32,
    /// How.
    pub role: PairRole,
    /// The player whose opponent was chosen (the MDP, or the player of S1).
    pub chooser: PlayerId,
    /// The opponents section D puts before the one given, and why each was not.
    pub passed_over: Vec<PassedOver>,
    /// The colour rule.
    pub colour: ColourRule,
}

/// The pairing-allocated bye.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ByeExplanation {
    /// The player.
    pub player: PlayerId,
    /// The (last) bracket where the player was left unpaired.
    pub bracket: u32,
    /// Players ranked below in that bracket, who could not take the bye (C.2: they had
    /// one, or a win without playing).
    pub not_eligible_below: Vec<PlayerId>,
}

pub(crate) fn explain(p: &Prepared, outcome: &Outcome, round: &SwissRound) -> PairingExplanation {
    let id = |i: usize| p.players[i].id;
    let ids = |list: &[usize]| list.iter().map(|&i| id(i)).collect::<Vec<_>>();
    let mut brackets = Vec::new();
    let mut pair_of: Vec<(usize, usize, u32, PairRole, Vec<PassedOver>)> = Vec::new();
    for (number, b) in outcome.brackets.iter().enumerate() {
        let number = number as u32 + 1;
        let s1: HashSet<usize> = b.s1.iter().copied().collect();
        let s1_final: HashSet<usize> = b.s1_final.iter().copied().collect();
        brackets.push(BracketExplanation {
            number,
            score: Points::from_milli(b.score),
            residents: ids(&b.residents),
            moved_down: ids(&b.moved_down),
            moved_down_paired: ids(&b.moved_down_paired),
            s1: ids(&b.s1),
            s2: ids(&b.s2),
            exchanged_out: b.s1.iter().filter(|i| !s1_final.contains(i)).map(|&i| id(i)).collect(),
            exchanged_in: b.s1_final.iter().filter(|i| !s1.contains(i)).map(|&i| id(i)).collect(),
            floaters: ids(&b.floaters),
            collapsed: b.collapsed,
        });
        for (chooser, chosen, role, before) in &b.pairs {
            let passed_over = before
                .iter()
                .map(|&other| PassedOver {
                    player: id(other),
                    reason: if p.players[*chooser].forbidden.contains(&other) {
                        PassedOverReason::PlayedBefore
                    } else if !p.compatible(*chooser, other) {
                        PassedOverReason::SameAbsoluteColour
                    } else if *role == Role::Remainder && s1_final.contains(&other) {
                        PassedOverReason::BothInS1
                    } else {
                        PassedOverReason::NeededElsewhere
                    },
                })
                .collect();
            let role = match role {
                Role::MovedDown => PairRole::MovedDown,
                Role::Remainder => PairRole::S1S2,
            };
            pair_of.push((*chooser, *chosen, number, role, passed_over));
        }
    }
    let pairs = round
        .pairings
        .iter()
        .map(|pairing| {
            let index = |player: PlayerId| p.players.iter().position(|x| x.id == player).expect("entered");
            let (first, second) = (index(pairing.first), index(pairing.second));
            let (chooser, _, bracket, role, passed_over) = pair_of
                .iter()
                .find(|(a, b, ..)| (*a == first && *b == second) || (*a == second && *b == first))
                .cloned()
                .unwrap_or((first, second, 0, PairRole::S1S2, Vec::new()));
            // The rule as bbpPairings applies it from the lower pairing number's side.
            let (x, y) = if p.players[first].number < p.players[second].number {
                (first, second)
            } else {
                (second, first)
            };
            PairExplanation {
                board: pairing.board,
                first: pairing.first,
                second: pairing.second,
                bracket,
                role,
                chooser: id(chooser),
                passed_over,
                colour: choose_colour(p, x, y).1,
            }
        })
        .collect();
    let bye = outcome.bye.map(|player| {
        let bracket = outcome.brackets.len() as u32;
        let last = outcome.brackets.last();
        let position = p.sorted.iter().position(|&x| x == player).unwrap_or(0);
        let not_eligible_below = p.sorted[position + 1..]
            .iter()
            .filter(|&&x| !p.eligible_for_bye(x))
            .filter(|&&x| last.is_none_or(|b| b.residents.contains(&x) || b.moved_down.contains(&x)))
            .map(|&x| id(x))
            .collect();
        ByeExplanation { player: id(player), bracket, not_eligible_below }
    });
    PairingExplanation { round: round.round, edition: p.edition, brackets, pairs, bye }
}
