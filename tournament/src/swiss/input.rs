//! What the pairing needs to know of each player, read from the section's games and byes
//! the way pairing programs read a TRF file: one record per round (a game played, a
//! forfeit, the pairing-allocated bye, or an absence), colours from games actually played.

use std::collections::{HashMap, HashSet};

use super::{Acceleration, DutchEdition, SwissBye, SwissEntry, SwissError, SwissOptions};
use crate::model::{GameRecord, GameResult, PlayerId, PlayerOutcome};

/// A colour: `White` has the first move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Colour {
    White,
    Black,
}

impl Colour {
    pub(crate) fn invert(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// One round of a player's history.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Round {
    /// The opponent (entry index), for games and forfeits.
    pub(crate) opponent: Option<usize>,
    pub(crate) colour: Option<Colour>,
    /// A game played over the board.
    pub(crate) played: bool,
    /// Paired in the round: a game, a forfeit or the pairing-allocated bye.
    pub(crate) participated: bool,
    /// A win (over the board, by forfeit, or the pairing-allocated bye).
    pub(crate) win: bool,
    /// The points the round brought, in thousandths.
    pub(crate) points: i64,
}

impl Round {
    const ABSENT: Round =
        Round { opponent: None, colour: None, played: false, participated: false, win: false, points: 0 };
}

/// A player as the pairing sees them.
#[derive(Debug, Clone)]
pub(crate) struct Player {
    pub(crate) id: PlayerId,
    /// The pairing number, 1-based (the entry's place).
    pub(crate) number: u32,
    /// The effective pairing number, 0-based, counting only the players still in the
    /// tournament (bbpPairings' `rankIndex`): it breaks ties and gives colours (E.5).
    pub(crate) rank: usize,
    /// Points without acceleration, in thousandths.
    pub(crate) points: i64,
    /// Virtual points by round index (0-based).
    pub(crate) accelerations: Vec<i64>,
    pub(crate) rounds: Vec<Round>,
    pub(crate) forbidden: HashSet<usize>,
    pub(crate) played_games: u32,
    pub(crate) imbalance: u32,
    pub(crate) preference: Option<Colour>,
    /// The colour of the last two games played, when they had the same one.
    pub(crate) repeated: Option<Colour>,
    pub(crate) strong: bool,
}

impl Player {
    pub(crate) fn absolute_imbalance(&self) -> bool {
        self.imbalance > 1
    }

    pub(crate) fn absolute(&self) -> bool {
        self.absolute_imbalance() || self.repeated.is_some()
    }
}

/// A round to pair.
#[derive(Debug, Clone)]
pub(crate) struct Prepared {
    pub(crate) players: Vec<Player>,
    /// The players to pair (indices into `players`), by score (with acceleration) and
    /// effective pairing number.
    pub(crate) sorted: Vec<usize>,
    /// Rounds played before this one.
    pub(crate) played: u32,
    pub(crate) expected: Option<u32>,
    pub(crate) win: i64,
    pub(crate) draw: i64,
    pub(crate) loss: i64,
    pub(crate) initial: Colour,
    pub(crate) edition: DutchEdition,
}

impl Prepared {
    /// The score of `player` `back` rounds ago (0: now), with that round's virtual points.
    pub(crate) fn score_back(&self, player: usize, back: u32) -> i64 {
        let p = &self.players[player];
        let round = self.played - back;
        let lost: i64 = p.rounds[round as usize..].iter().map(|r| r.points).sum();
        p.points - lost + p.accelerations.get(round as usize).copied().unwrap_or(0)
    }

    pub(crate) fn score(&self, player: usize) -> i64 {
        self.score_back(player, 0)
    }

    /// Whether `player` may get the pairing-allocated bye (C.2): not after a bye, a forfeit
    /// win or (2025) any round not played that scored a win's points.
    pub(crate) fn eligible_for_bye(&self, player: usize) -> bool {
        let p = &self.players[player];
        p.rounds.iter().all(|r| match self.edition {
            DutchEdition::Fide2025 => {
                r.played || (r.points < self.win && !(r.participated && r.opponent.is_none()))
            }
            DutchEdition::Fide2017 => r.played || !(r.participated && r.win),
        })
    }

    /// Whether this is the last round, where top scorers may meet whatever their colours.
    pub(crate) fn last_round(&self) -> bool {
        self.expected.is_some_and(|rounds| self.played + 1 >= rounds)
    }

    /// The absolute criteria C.1 (not met before) and C.3 (no two players with the same
    /// absolute colour preference, but for top scorers in the last round).
    pub(crate) fn compatible(&self, a: usize, b: usize) -> bool {
        let (pa, pb) = (&self.players[a], &self.players[b]);
        if pa.forbidden.contains(&b) {
            return false;
        }
        if !pa.absolute() || !pb.absolute() || pa.preference != pb.preference {
            return true;
        }
        // Top scorers: more than half the maximum possible score.
        let threshold = i64::from(self.played) * self.win.max(self.draw) / 2;
        self.last_round() && (self.score(a) > threshold || self.score(b) > threshold)
    }
}

/// Reads the section into the players' histories.
pub(crate) fn prepare(
    entries: &[SwissEntry],
    games: &[GameRecord],
    byes: &[SwissBye],
    options: &SwissOptions,
) -> Result<Prepared, SwissError> {
    let mut index: HashMap<PlayerId, usize> = HashMap::with_capacity(entries.len());
    for (i, entry) in entries.iter().enumerate() {
        if index.insert(entry.player, i).is_some() {
            return Err(SwissError::DuplicatePlayer(entry.player));
        }
    }
    let mut played = 0;
    for game in games {
        if game.result == GameResult::Pending {
            return Err(SwissError::RoundNotFinished(game.game));
        }
        played = played.max(game.round);
    }
    for bye in byes {
        played = played.max(bye.round);
    }
    let scoring = &options.scoring;
    let mut rounds = vec![vec![Round::ABSENT; played as usize]; entries.len()];
    for game in games {
        if game.round == 0 {
            continue;
        }
        let r = game.round as usize - 1;
        let (first, second) = (index.get(&game.first).copied(), index.get(&game.second).copied());
        for (me, other, colour, is_first) in
            [(first, second, Colour::White, true), (second, first, Colour::Black, false)]
        {
            let Some(me) = me else { continue };
            let Some(outcome) = game.result.outcome_for(is_first) else { continue };
            let played = game.result.is_played();
            rounds[me][r] = Round {
                opponent: other,
                colour: Some(colour),
                played,
                participated: true,
                win: outcome.is_win(),
                points: scoring.points(outcome).milli(),
            };
            let _ = PlayerOutcome::Win;
        }
    }
    for bye in byes {
        if let (Some(&me), true) = (index.get(&bye.player), bye.round >= 1) {
            rounds[me][bye.round as usize - 1] = Round {
                opponent: None,
                colour: None,
                played: false,
                participated: true,
                win: true,
                points: options.bye_points.milli(),
            };
        }
    }
    let win = scoring.win.milli();
    let draw = scoring.draw.milli();
    let loss = scoring.loss.milli();
    let accelerated = match options.acceleration {
        Acceleration::None => 0,
        Acceleration::Baku => {
            if loss != 0 || 2 * draw != win {
                return Err(SwissError::AccelerationScoring);
            }
            // The first half of the players by pairing number, rounded up.
            if options.rounds.is_some() {
                entries.len().div_ceil(2)
            } else {
                0
            }
        }
    };
    let mut players = Vec::with_capacity(entries.len());
    let mut rank = 0;
    for (i, (entry, history)) in entries.iter().zip(rounds).enumerate() {
        let mut forbidden = HashSet::new();
        let (mut white, mut black, mut consecutive, mut repeated) = (0u32, 0u32, 0u32, None);
        let mut played_games = 0;
        for round in &history {
            if round.played {
                if let Some(o) = round.opponent {
                    forbidden.insert(o);
                }
                played_games += 1;
                let colour = round.colour.expect("a game has colours");
                if colour == Colour::White {
                    white += 1;
                } else {
                    black += 1;
                }
                if consecutive == 0 || Some(colour) != repeated {
                    consecutive = 1;
                } else {
                    consecutive += 1;
                }
                repeated = Some(colour);
            }
        }
        let lower = if white > black { Colour::Black } else { Colour::White };
        let imbalance = white.abs_diff(black);
        let preference = if imbalance > 1 {
            Some(lower)
        } else if consecutive > 1 {
            repeated.map(Colour::invert)
        } else if imbalance > 0 {
            Some(lower)
        } else if consecutive > 0 {
            repeated.map(Colour::invert)
        } else {
            None
        };
        if consecutive <= 1 {
            repeated = None;
        }
        let absolute = imbalance > 1 || repeated.is_some();
        let participated = history.iter().any(|r| r.participated);
        let valid = entry.available || participated;
        let accelerations = if i < accelerated {
            let expected = options.rounds.unwrap_or(0);
            let last = expected.saturating_sub(1) / 2;
            let last_full = last / 2;
            (0..=last.min(played)).map(|r| if r <= last_full { win } else { draw }).collect()
        } else {
            Vec::new()
        };
        players.push(Player {
            id: entry.player,
            number: i as u32 + 1,
            rank,
            points: history.iter().map(|r| r.points).sum(),
            accelerations,
            rounds: history,
            forbidden,
            played_games,
            imbalance,
            preference,
            repeated,
            strong: !absolute && imbalance > 0,
        });
        if valid {
            rank += 1;
        }
    }
    let mut prepared = Prepared {
        players,
        sorted: Vec::new(),
        played,
        expected: options.rounds,
        win,
        draw,
        loss,
        initial: if options.initial_first { Colour::White } else { Colour::Black },
        edition: options.edition,
    };
    let mut sorted: Vec<usize> = (0..entries.len()).filter(|&i| entries[i].available).collect();
    let scores: Vec<i64> = (0..entries.len()).map(|i| prepared.score(i)).collect();
    sorted.sort_by(|&a, &b| {
        scores[b].cmp(&scores[a]).then(prepared.players[a].rank.cmp(&prepared.players[b].rank))
    });
    // A single player to pair gets the bye (if C.2 allows it: see `dutch.rs`).
    if sorted.is_empty() {
        return Err(SwissError::TooFewPlayers);
    }
    prepared.sorted = sorted;
    Ok(prepared)
}
