//! Standings of a section: points, then the section's tie-breaks in its chosen order, then
//! shared places; and the withdrawal rule as a pure function over the results.
//!
//! Interpretations (documented here because the issue leaves them open):
//! * **Games played** ranks the player with *fewer* counted games higher: the same points
//!   from fewer games is the better score (and leaves more games to play).
//! * **Sonneborn-Berger** is the sum, over a player's counted games, of the opponent's
//!   points times the classical fraction of the game won (1, ½ or 0), whatever the
//!   section's scoring; forfeits count like the win or loss they stand for.
//! * **Direct encounter** compares the points scored in the games among the players still
//!   tied; it separates them only when every pair of them has at least one counted game
//!   against each other (FIDE's "all tied players have met"), otherwise it leaves them tied.
//! * **Wins** counts wins over the board and by forfeit; **wins with the second player's
//!   colour** counts only games won over the board with the second move.
//! * **Buchholz** is the sum of the points of the opponents met in counted games.
//! * **Koya** is the points scored against opponents who made at least half the maximum on
//!   their own counted games and byes.
//! * **Byes** (Swiss, pairing-allocated: [`Bye`]) score the section's [`ByePoints`] (a win's
//!   points by default, FIDE C.04.1 (d)) and count in the player's points, so in the
//!   opponents' Buchholz and Sonneborn-Berger. A bye is not a game: it is left out of the
//!   receiver's own opponent-based criteria (Buchholz, Sonneborn-Berger, Koya, direct
//!   encounter), of games played and of wins. This is the simple rule; FIDE's "virtual
//!   opponent" (C.02 13.15, a draw against an opponent with the player's own score) is not
//!   applied.
//!
//! Any criterion but direct encounter is computed for every player (crosstables print
//! them); direct encounter only for the groups it was used on.

use std::collections::HashMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::model::{Bye, GameId, GameRecord, GameResult, PlayerId, PlayerOutcome};
use crate::scoring::{ByePoints, Points, Scoring};

/// A tie-break criterion.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "kebab-case")]
pub enum TieBreak {
    /// Fewer counted games ranks higher.
    GamesPlayed,
    /// Sonneborn-Berger.
    SonnebornBerger,
    /// Points in the games among the tied players.
    DirectEncounter,
    /// Number of wins (over the board and by forfeit).
    Wins,
    /// Number of games won over the board with the second move.
    WinsWithSecond,
    /// Buchholz (sum of the opponents' points), for Swiss sections.
    Buchholz,
    /// Koya (points against opponents on 50% or more).
    Koya,
}

impl TieBreak {
    /// Every tie-break, in a stable order (for catalogues and tests).
    pub const ALL: [TieBreak; 7] = [
        TieBreak::GamesPlayed,
        TieBreak::SonnebornBerger,
        TieBreak::DirectEncounter,
        TieBreak::Wins,
        TieBreak::WinsWithSecond,
        TieBreak::Buchholz,
        TieBreak::Koya,
    ];

    /// Whether a smaller value ranks higher.
    fn lower_is_better(self) -> bool {
        self == TieBreak::GamesPlayed
    }
}

/// How a section ranks its players.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StandingsConfig {
    /// Points per result.
    pub scoring: Scoring,
    /// Tie-breaks applied in this order after points.
    pub tie_breaks: Vec<TieBreak>,
    /// What a pairing-allocated bye scores (Swiss sections; default a win's points).
    #[serde(default)]
    pub bye_points: ByePoints,
}

impl Default for StandingsConfig {
    /// 1/½/0, then Sonneborn-Berger, direct encounter, wins.
    fn default() -> StandingsConfig {
        StandingsConfig {
            scoring: Scoring::default(),
            tie_breaks: vec![TieBreak::SonnebornBerger, TieBreak::DirectEncounter, TieBreak::Wins],
            bye_points: ByePoints::Win,
        }
    }
}

/// A place in a table, shared when `first < last` (written `3-5`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Place {
    /// The best place of the group.
    pub first: u32,
    /// The worst place of the group (equal to `first` when not shared).
    pub last: u32,
}

impl Place {
    /// Whether other players share this place.
    pub fn is_shared(self) -> bool {
        self.first != self.last
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_shared() {
            write!(f, "{}-{}", self.first, self.last)
        } else {
            write!(f, "{}", self.first)
        }
    }
}

/// One player's line in the standings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Standing {
    /// The player.
    pub player: PlayerId,
    /// Place, shared when still tied after every tie-break.
    pub place: Place,
    /// Points so far.
    pub points: Points,
    /// Games with a counted result (finished, forfeits included).
    pub games_counted: u32,
    /// Games not annulled (finished or still to be finished): the player's full schedule.
    pub games_scheduled: u32,
    /// Wins, draws and losses over the board, and forfeit wins and losses.
    pub record: Record,
    /// The most points the player could have made in the games played so far
    /// (`games_counted` times the points of a win, plus the points of each bye).
    pub max_points_so_far: Points,
    /// The tie-break values, in the section's order; `None` for a direct encounter that was
    /// not computed for this player (not tied at that stage) or could not apply.
    pub tie_breaks: Vec<Option<Points>>,
}

/// Counts of outcomes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Record {
    /// Wins over the board.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses over the board.
    pub losses: u32,
    /// Wins by forfeit.
    pub forfeit_wins: u32,
    /// Losses by forfeit (double forfeits included).
    pub forfeit_losses: u32,
    /// Pairing-allocated byes (Swiss).
    pub byes: u32,
}

/// Why standings cannot be computed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StandingsError {
    /// A player is entered twice.
    DuplicatePlayer(PlayerId),
    /// A game names a player who is not entered in the section.
    UnknownPlayer {
        /// The game.
        game: GameId,
        /// The player.
        player: PlayerId,
    },
    /// A game has the same player on both sides.
    PlayerAgainstThemself {
        /// The game.
        game: GameId,
    },
    /// A bye names a player who is not entered in the section.
    UnknownByePlayer {
        /// The round of the bye.
        round: u32,
        /// The player.
        player: PlayerId,
    },
}

impl fmt::Display for StandingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StandingsError::DuplicatePlayer(player) => write!(f, "player {} is entered twice", player.0),
            StandingsError::UnknownPlayer { game, player } => {
                write!(f, "game {} names player {}, who is not in the section", game.0, player.0)
            }
            StandingsError::PlayerAgainstThemself { game } => {
                write!(f, "game {} has the same player on both sides", game.0)
            }
            StandingsError::UnknownByePlayer { round, player } => {
                write!(f, "the bye of round {round} names player {}, who is not in the section", player.0)
            }
        }
    }
}

impl std::error::Error for StandingsError {}

/// A counted game from one player's side, by player index.
#[derive(Debug, Clone, Copy)]
struct Side {
    opponent: usize,
    outcome: PlayerOutcome,
    first: bool,
}

/// Computes the standings of a section: `players` are the entries (in draw order, which
/// also orders players who share a place), `games` every game of the section, `byes` the
/// pairing-allocated byes (Swiss sections; empty otherwise).
///
/// # Errors
///
/// A duplicate entry, a game or bye naming a player not entered, or a game against oneself.
pub fn compute_standings(
    players: &[PlayerId],
    games: &[GameRecord],
    byes: &[Bye],
    config: &StandingsConfig,
) -> Result<Vec<Standing>, StandingsError> {
    let mut index: HashMap<PlayerId, usize> = HashMap::with_capacity(players.len());
    for (i, &player) in players.iter().enumerate() {
        if index.insert(player, i).is_some() {
            return Err(StandingsError::DuplicatePlayer(player));
        }
    }
    let scoring = &config.scoring;
    let count = players.len();
    let mut sides: Vec<Vec<Side>> = vec![Vec::new(); count];
    let mut scheduled = vec![0u32; count];
    for game in games {
        let lookup = |player: PlayerId| {
            index.get(&player).copied().ok_or(StandingsError::UnknownPlayer { game: game.game, player })
        };
        let first = lookup(game.first)?;
        let second = lookup(game.second)?;
        if first == second {
            return Err(StandingsError::PlayerAgainstThemself { game: game.game });
        }
        if game.result != GameResult::Annulled {
            scheduled[first] += 1;
            scheduled[second] += 1;
        }
        if let (Some(a), Some(b)) = (game.result.outcome_for(true), game.result.outcome_for(false)) {
            sides[first].push(Side { opponent: second, outcome: a, first: true });
            sides[second].push(Side { opponent: first, outcome: b, first: false });
        }
    }

    let mut bye_count = vec![0u32; count];
    for bye in byes {
        let player = index
            .get(&bye.player)
            .copied()
            .ok_or(StandingsError::UnknownByePlayer { round: bye.round, player: bye.player })?;
        bye_count[player] += 1;
    }
    let bye_points = config.bye_points.points(scoring);
    let byes_worth =
        |i: usize| Points::from_milli(bye_points.milli().saturating_mul(i64::from(bye_count[i])));
    let points: Vec<Points> = sides
        .iter()
        .enumerate()
        .map(|(i, games)| games.iter().map(|s| scoring.points(s.outcome)).sum::<Points>() + byes_worth(i))
        .collect();
    let max_points: Vec<Points> = (0..count)
        .map(|i| {
            Points::from_milli(scoring.win.milli().saturating_mul(sides[i].len() as i64)) + byes_worth(i)
        })
        .collect();
    let mut standings: Vec<Standing> = players
        .iter()
        .enumerate()
        .map(|(i, &player)| {
            let mut record = Record { byes: bye_count[i], ..Record::default() };
            for side in &sides[i] {
                match side.outcome {
                    PlayerOutcome::Win => record.wins += 1,
                    PlayerOutcome::Draw => record.draws += 1,
                    PlayerOutcome::Loss => record.losses += 1,
                    PlayerOutcome::ForfeitWin => record.forfeit_wins += 1,
                    PlayerOutcome::ForfeitLoss => record.forfeit_losses += 1,
                }
            }
            let games_counted = sides[i].len() as u32;
            Standing {
                player,
                place: Place { first: 0, last: 0 },
                points: points[i],
                games_counted,
                games_scheduled: scheduled[i],
                record,
                max_points_so_far: max_points[i],
                tie_breaks: vec![None; config.tie_breaks.len()],
            }
        })
        .collect();

    // Criteria that do not depend on the tied group, for everyone.
    for (slot, &tie_break) in config.tie_breaks.iter().enumerate() {
        if tie_break == TieBreak::DirectEncounter {
            continue;
        }
        for (i, standing) in standings.iter_mut().enumerate() {
            standing.tie_breaks[slot] =
                Some(absolute_value(tie_break, &sides[i], &points, &max_points, scoring));
        }
    }

    // Rank: points, then each criterion within the groups still tied.
    let mut order: Vec<usize> = (0..count).collect();
    order.sort_by(|&a, &b| points[b].cmp(&points[a]));
    let mut groups: Vec<Vec<usize>> = split_by(&order, |&i| points[i]);
    for (slot, &tie_break) in config.tie_breaks.iter().enumerate() {
        let mut refined = Vec::with_capacity(groups.len());
        for mut group in groups {
            if group.len() < 2 {
                refined.push(group);
                continue;
            }
            if tie_break == TieBreak::DirectEncounter {
                if let Some(values) = direct_encounter(&group, &sides, scoring) {
                    for (&member, value) in group.iter().zip(values) {
                        standings[member].tie_breaks[slot] = Some(value);
                    }
                } else {
                    refined.push(group);
                    continue;
                }
            }
            let key = |i: &usize| standings[*i].tie_breaks[slot].unwrap_or(Points::ZERO);
            if tie_break.lower_is_better() {
                group.sort_by_key(key);
            } else {
                group.sort_by_key(|i| std::cmp::Reverse(key(i)));
            }
            refined.extend(split_by(&group, key));
        }
        groups = refined;
    }

    let mut slots: Vec<Option<Standing>> = standings.into_iter().map(Some).collect();
    let mut next_place = 1u32;
    let mut ranked = Vec::with_capacity(count);
    for group in groups {
        let place = Place { first: next_place, last: next_place + group.len() as u32 - 1 };
        next_place += group.len() as u32;
        for member in group {
            if let Some(mut standing) = slots[member].take() {
                standing.place = place;
                ranked.push(standing);
            }
        }
    }
    Ok(ranked)
}

/// Splits an ordered list into runs of equal keys.
fn split_by<K: PartialEq>(ordered: &[usize], key: impl Fn(&usize) -> K) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut last_key: Option<K> = None;
    for item in ordered {
        let k = key(item);
        match (&last_key, groups.last_mut()) {
            (Some(previous), Some(group)) if *previous == k => group.push(*item),
            _ => groups.push(vec![*item]),
        }
        last_key = Some(k);
    }
    groups
}

/// A criterion that does not depend on the tied group.
fn absolute_value(
    tie_break: TieBreak,
    games: &[Side],
    points: &[Points],
    max_points: &[Points],
    scoring: &Scoring,
) -> Points {
    match tie_break {
        TieBreak::GamesPlayed => Points::whole(games.len() as i64),
        TieBreak::SonnebornBerger => {
            // In halves of the opponent's points, divided once at the end: exact whenever
            // the scoring's values are multiples of 0.002.
            let doubled: i64 = games
                .iter()
                .map(|s| points[s.opponent].milli().saturating_mul(s.outcome.halves()))
                .fold(0, i64::saturating_add);
            Points::div_rounded(doubled, 2)
        }
        TieBreak::Wins => Points::whole(games.iter().filter(|s| s.outcome.is_win()).count() as i64),
        TieBreak::WinsWithSecond => {
            Points::whole(games.iter().filter(|s| !s.first && s.outcome == PlayerOutcome::Win).count() as i64)
        }
        TieBreak::Buchholz => games.iter().map(|s| points[s.opponent]).sum(),
        TieBreak::Koya => games
            .iter()
            .filter(|s| points[s.opponent].milli().saturating_mul(2) >= max_points[s.opponent].milli())
            .map(|s| scoring.points(s.outcome))
            .sum(),
        TieBreak::DirectEncounter => Points::ZERO,
    }
}

/// Points of each member of `group` in the games among them, or `None` when some pair of
/// them has no counted game against each other.
fn direct_encounter(group: &[usize], sides: &[Vec<Side>], scoring: &Scoring) -> Option<Vec<Points>> {
    let mut values = Vec::with_capacity(group.len());
    for &member in group {
        let mut total = Points::ZERO;
        for &other in group {
            if other == member {
                continue;
            }
            let mut met = false;
            for side in sides[member].iter().filter(|s| s.opponent == other) {
                met = true;
                total += scoring.points(side.outcome);
            }
            if !met {
                return None;
            }
        }
        values.push(total);
    }
    Some(values)
}
