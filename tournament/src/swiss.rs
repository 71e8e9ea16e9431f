//! Swiss pairings: a documented subset of the FIDE Dutch system (Handbook C.04.3), and a
//! TRF(x)-style export.
//!
//! No Swiss pairing engine exists as a Rust crate, so this one is written here. What it
//! implements, in the Dutch system's own terms:
//!
//! * Players are ranked by score, then by pairing number (their index in the initial
//!   ranking given by the caller, 1-based).
//! * **Absolute criteria**: no two players meet twice (C1); a player gets the pairing-
//!   allocated bye at most once, and not after a forfeit win (C2, C.04.1); two players with
//!   the same absolute colour preference do not meet (C3, applied to everyone: the
//!   top-scorer exception of the last round is *not* implemented).
//! * **Completion** (C4): a bracket's pairing is accepted only if the rest of the round can
//!   still be paired (backtracking over the brackets).
//! * **Brackets** in descending score order; players who cannot be paired float down to the
//!   next bracket. In a bracket the most pairs are made first (fewest downfloaters, C6);
//!   moved-down players are paired first with residents (heterogeneous bracket: S1 = the
//!   moved-down players), the remainder like a homogeneous bracket: S1 the upper half, S2
//!   the lower half, S2 transposed in lexicographic order, then exchanges between S1 and S2
//!   (fewest exchanged players first, then the smallest difference of pairing numbers).
//! * Among the candidates that satisfy the absolute criteria the one with the fewest
//!   unsatisfied colour preferences (C10), then the fewest unsatisfied strong preferences
//!   (C11), wins; on equal quality the first generated wins.
//! * **Colours** by the allocation rules E.1-E.5 (both preferences, the stronger one,
//!   alternation from the last differing round, the higher-ranked player's preference, the
//!   initial colour by pairing-number parity); unplayed games do not count for colours.
//! * The bye goes to the lowest-ranked eligible player for whom the rest can be paired.
//!
//! **Not implemented** (so this is not an endorsed FIDE pairing program): the float
//! criteria C12-C21 (repeated up- and downfloats, score differences of floaters), the
//! top-scorer exceptions, Baku acceleration, and the exact D.1-D.3 order of exchanges in
//! large heterogeneous brackets. A search limit protects against pathological inputs
//! ([`SwissError::SearchLimit`]).

use std::collections::{HashMap, HashSet};
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::model::{Bye, GameRecord, GameResult, PlayerId};
use crate::scoring::{Points, Scoring};

/// The most rounds a TRF export writes (each round is a 10-column block on every line).
pub const MAX_TRF_ROUNDS: u32 = 999;

/// The candidate pairings examined in one bracket, at most.
const MAX_CANDIDATES_PER_BRACKET: usize = 20_000;
/// The candidate pairings examined over the whole round, at most.
const MAX_CANDIDATES_PER_ROUND: usize = 400_000;

/// A bye already given (a round a player sat out with the bye's points): the crate's
/// [`Bye`], under the name this module has always used.
pub type SwissBye = Bye;

/// Settings of a Swiss section.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SwissOptions {
    /// Points per result (the brackets are by points).
    pub scoring: Scoring,
    /// Points for the pairing-allocated bye (usually a win's).
    pub bye_points: Points,
    /// Whether the first pairing number gets the first move in round 1 (the "initial
    /// colour"); `false` gives it the second move.
    pub initial_first: bool,
}

impl Default for SwissOptions {
    fn default() -> SwissOptions {
        SwissOptions { scoring: Scoring::default(), bye_points: Points::whole(1), initial_first: true }
    }
}

/// One game to create.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SwissPairing {
    /// The board, 1-based, in the order of the higher-ranked player of each pair.
    pub board: u32,
    /// The player with the first move.
    pub first: PlayerId,
    /// The player with the second move.
    pub second: PlayerId,
}

/// The pairings of a round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwissRound {
    /// The round paired.
    pub round: u32,
    /// The games.
    pub pairings: Vec<SwissPairing>,
    /// The player who gets the bye, if the number of players is odd.
    pub bye: Option<PlayerId>,
}

/// Why a round cannot be paired.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SwissError {
    /// Fewer than two players to pair.
    TooFewPlayers,
    /// A player is entered twice.
    DuplicatePlayer(PlayerId),
    /// A game or bye names a player who is not entered (TRF export).
    UnknownPlayer(PlayerId),
    /// A game of an earlier round has no result yet.
    RoundNotFinished(crate::model::GameId),
    /// No pairing satisfies the absolute criteria.
    NoPairing,
    /// The search limit was reached before a pairing was found.
    SearchLimit,
    /// A round number beyond [`MAX_TRF_ROUNDS`] (TRF export).
    TooManyRounds(u32),
}

impl fmt::Display for SwissError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SwissError::TooFewPlayers => write!(f, "a Swiss round needs at least 2 players"),
            SwissError::DuplicatePlayer(p) => write!(f, "player {} is entered twice", p.0),
            SwissError::UnknownPlayer(p) => write!(f, "player {} is not entered", p.0),
            SwissError::RoundNotFinished(g) => write!(f, "game {} has no result yet", g.0),
            SwissError::NoPairing => write!(f, "no pairing satisfies the absolute criteria"),
            SwissError::SearchLimit => write!(f, "the pairing search limit was reached"),
            SwissError::TooManyRounds(r) => {
                write!(f, "round {r} is beyond the {MAX_TRF_ROUNDS} a TRF file holds")
            }
        }
    }
}

impl std::error::Error for SwissError {}

/// A side of the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Side {
    First,
    Second,
}

impl Side {
    fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }
}

/// A colour preference (C.04.3 A.6) with its strength.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Preference {
    None,
    Mild(Side),
    Strong(Side),
    Absolute(Side),
}

impl Preference {
    fn side(self) -> Option<Side> {
        match self {
            Preference::None => None,
            Preference::Mild(s) | Preference::Strong(s) | Preference::Absolute(s) => Some(s),
        }
    }

    fn strength(self) -> u8 {
        match self {
            Preference::None => 0,
            Preference::Mild(_) => 1,
            Preference::Strong(_) => 2,
            Preference::Absolute(_) => 3,
        }
    }
}

/// What the pairing needs to know of a player.
#[derive(Debug, Clone)]
struct State {
    id: PlayerId,
    /// Pairing number, 1-based.
    number: u32,
    score: Points,
    opponents: HashSet<usize>,
    /// Colours of the games played over the board, by round.
    colours: Vec<(u32, Side)>,
    bye_eligible: bool,
    /// The colour preference, computed once the history is read.
    preference: Preference,
}

impl State {
    fn compute_preference(&self) -> Preference {
        let firsts = self.colours.iter().filter(|(_, s)| *s == Side::First).count() as i64;
        let difference = 2 * firsts - self.colours.len() as i64;
        let last_two = match self.colours.as_slice() {
            [.., (_, a), (_, b)] if a == b => Some(*a),
            _ => None,
        };
        if difference > 1 || last_two == Some(Side::First) {
            Preference::Absolute(Side::Second)
        } else if difference < -1 || last_two == Some(Side::Second) {
            Preference::Absolute(Side::First)
        } else if difference == 1 {
            Preference::Strong(Side::Second)
        } else if difference == -1 {
            Preference::Strong(Side::First)
        } else {
            match self.colours.last() {
                Some((_, last)) => Preference::Mild(last.other()),
                None => Preference::None,
            }
        }
    }
}

/// Pairs the next round of a Swiss section.
///
/// `players` are the active players in the initial ranking order (the pairing number is
/// the index plus one); withdrawn players are simply left out. `games` are every game of
/// the earlier rounds (all finished; games between players no longer entered are ignored),
/// `byes` the byes given so far.
///
/// # Errors
///
/// See [`SwissError`].
pub fn pair_swiss_round(
    players: &[PlayerId],
    games: &[GameRecord],
    byes: &[SwissBye],
    options: &SwissOptions,
) -> Result<SwissRound, SwissError> {
    if players.len() < 2 {
        return Err(SwissError::TooFewPlayers);
    }
    let mut index: HashMap<PlayerId, usize> = HashMap::with_capacity(players.len());
    let mut states: Vec<State> = Vec::with_capacity(players.len());
    for (i, &id) in players.iter().enumerate() {
        if index.insert(id, i).is_some() {
            return Err(SwissError::DuplicatePlayer(id));
        }
        states.push(State {
            id,
            number: i as u32 + 1,
            score: Points::ZERO,
            opponents: HashSet::new(),
            colours: Vec::new(),
            bye_eligible: true,
            preference: Preference::None,
        });
    }
    let mut last_round = 0;
    let mut sorted_games: Vec<&GameRecord> = games.iter().collect();
    sorted_games.sort_by_key(|g| (g.round, g.game));
    for game in sorted_games {
        last_round = last_round.max(game.round);
        if game.result == GameResult::Pending {
            return Err(SwissError::RoundNotFinished(game.game));
        }
        // Withdrawn players are not in `players`: their games still count for their
        // opponents' scores and histories.
        let first = index.get(&game.first).copied();
        let second = index.get(&game.second).copied();
        for (me, other, side) in [(first, second, Side::First), (second, first, Side::Second)] {
            let Some(me) = me else { continue };
            let state = &mut states[me];
            if let Some(other) = other {
                state.opponents.insert(other);
            }
            if let Some(outcome) = game.result.outcome_for(side == Side::First) {
                state.score += options.scoring.points(outcome);
                if outcome == crate::model::PlayerOutcome::ForfeitWin {
                    state.bye_eligible = false;
                }
            }
            if game.result.is_played() {
                state.colours.push((game.round, side));
            }
        }
    }
    for bye in byes {
        last_round = last_round.max(bye.round);
        if let Some(&i) = index.get(&bye.player) {
            states[i].score += options.bye_points;
            states[i].bye_eligible = false;
        }
    }

    for state in &mut states {
        state.preference = state.compute_preference();
    }
    let mut ranked: Vec<usize> = (0..states.len()).collect();
    ranked.sort_by(|&a, &b| {
        states[b].score.cmp(&states[a].score).then(states[a].number.cmp(&states[b].number))
    });
    let mut search = Search { states: &states, budget: MAX_CANDIDATES_PER_ROUND, exhausted: false };

    let (pairs, bye) = if ranked.len() % 2 == 1 {
        // The lowest-ranked eligible player for whom the rest can be paired.
        let mut found = None;
        for position in (0..ranked.len()).rev() {
            let candidate = ranked[position];
            if !states[candidate].bye_eligible {
                continue;
            }
            let mut rest = ranked.clone();
            rest.remove(position);
            if let Some(pairs) = search.pair_all(&rest) {
                found = Some((pairs, Some(candidate)));
                break;
            }
        }
        found.ok_or(if search.exhausted { SwissError::SearchLimit } else { SwissError::NoPairing })?
    } else {
        let pairs = search.pair_all(&ranked).ok_or(if search.exhausted {
            SwissError::SearchLimit
        } else {
            SwissError::NoPairing
        })?;
        (pairs, None)
    };

    let rank_of: HashMap<usize, usize> = ranked.iter().enumerate().map(|(r, &i)| (i, r)).collect();
    let mut ordered: Vec<(usize, usize)> =
        pairs.into_iter().map(|(a, b)| if rank_of[&a] <= rank_of[&b] { (a, b) } else { (b, a) }).collect();
    ordered.sort_by_key(|&(a, b)| (rank_of[&a], rank_of[&b]));
    let pairings = ordered
        .into_iter()
        .enumerate()
        .map(|(board, (higher, lower))| {
            let higher_side = allocate_colours(&states[higher], &states[lower], options.initial_first);
            let (first, second) = if higher_side == Side::First { (higher, lower) } else { (lower, higher) };
            SwissPairing { board: board as u32 + 1, first: states[first].id, second: states[second].id }
        })
        .collect();
    Ok(SwissRound { round: last_round.saturating_add(1), pairings, bye: bye.map(|i| states[i].id) })
}

/// The side of the higher-ranked player `a` against `b` (C.04.3 E.1-E.5).
fn allocate_colours(a: &State, b: &State, initial_first: bool) -> Side {
    let (pa, pb) = (a.preference, b.preference);
    match (pa.side(), pb.side()) {
        // E.1: both preferences can be granted (or only one player has one).
        (Some(sa), Some(sb)) if sa != sb => return sa,
        (Some(sa), None) => return sa,
        (None, Some(sb)) => return sb.other(),
        (None, None) => {
            // E.5: the initial colour to an odd pairing number.
            let initial = if initial_first { Side::First } else { Side::Second };
            return if a.number % 2 == 1 { initial } else { initial.other() };
        }
        _ => {}
    }
    // Same preferred side. E.2: the stronger preference wins.
    let side = pa.side().unwrap_or(Side::First);
    if pa.strength() != pb.strength() {
        return if pa.strength() > pb.strength() { side } else { side.other() };
    }
    // E.3: alternate from the most recent round in which they had different colours.
    let b_colours: HashMap<u32, Side> = b.colours.iter().copied().collect();
    for &(round, a_side) in a.colours.iter().rev() {
        if let Some(&b_side) = b_colours.get(&round) {
            if a_side != b_side {
                return a_side.other();
            }
        }
    }
    // E.4: the higher-ranked player's preference.
    side
}

/// One way to pair a bracket: the pairs and the players floating down.
struct Candidate {
    pairs: Vec<(usize, usize)>,
    floaters: Vec<usize>,
}

struct Search<'a> {
    states: &'a [State],
    budget: usize,
    exhausted: bool,
}

impl Search<'_> {
    /// Pairs `ranked` (by score, then pairing number) bracket by bracket.
    fn pair_all(&mut self, ranked: &[usize]) -> Option<Vec<(usize, usize)>> {
        let mut brackets: Vec<Vec<usize>> = Vec::new();
        for &player in ranked {
            match brackets.last_mut() {
                Some(bracket) if self.states[bracket[0]].score == self.states[player].score => {
                    bracket.push(player)
                }
                _ => brackets.push(vec![player]),
            }
        }
        self.pair_from(&brackets, 0, Vec::new())
    }

    fn pair_from(
        &mut self,
        brackets: &[Vec<usize>],
        at: usize,
        carried: Vec<usize>,
    ) -> Option<Vec<(usize, usize)>> {
        let Some(residents) = brackets.get(at) else {
            return if carried.is_empty() { Some(Vec::new()) } else { None };
        };
        let last = at + 1 == brackets.len();
        let mut carried = carried;
        let states = self.states;
        carried.sort_by(|&a, &b| {
            states[b].score.cmp(&states[a].score).then(states[a].number.cmp(&states[b].number))
        });
        let mut bracket = carried.clone();
        bracket.extend(residents.iter().copied());
        let most = bracket.len() / 2;
        let fewest = if last { most } else { 0 };
        for pairs in (fewest..=most).rev() {
            // A quick pass stops generating at the first candidate that grants every colour
            // preference (nothing can beat it); only if the rest of the round cannot be
            // paired after it does the full generation run.
            for quick in [true, false] {
                let (mut candidates, stopped_early) = self.candidates(&bracket, carried.len(), pairs, quick);
                // Stable: on equal colour quality the first generated stays first.
                candidates.sort_by_key(|c| self.colour_quality(&c.pairs));
                if stopped_early {
                    // Only the perfect candidate: the others come, in their proper order
                    // behind any later perfect one, in the full pass.
                    candidates.retain(|c| self.colour_quality(&c.pairs) == (0, 0));
                }
                for candidate in candidates {
                    if last && !candidate.floaters.is_empty() {
                        continue;
                    }
                    if let Some(mut rest) = self.pair_from(brackets, at + 1, candidate.floaters) {
                        rest.extend(candidate.pairs);
                        return Some(rest);
                    }
                    if self.exhausted {
                        return None;
                    }
                }
                if !stopped_early {
                    break;
                }
            }
        }
        None
    }

    /// (unsatisfied preferences, unsatisfied strong preferences) over the pairs: a pair
    /// whose players prefer the same side leaves one of them unsatisfied.
    fn colour_quality(&self, pairs: &[(usize, usize)]) -> (u32, u32) {
        let mut all = 0;
        let mut strong = 0;
        for &(a, b) in pairs {
            let (pa, pb) = (self.states[a].preference, self.states[b].preference);
            if pa.side().is_some() && pa.side() == pb.side() {
                all += 1;
                if pa.strength() >= 2 && pb.strength() >= 2 {
                    strong += 1;
                }
            }
        }
        (all, strong)
    }

    fn compatible(&self, a: usize, b: usize) -> bool {
        let (sa, sb) = (&self.states[a], &self.states[b]);
        if sa.opponents.contains(&b) {
            return false; // C1
        }
        !matches!((sa.preference, sb.preference),
            (Preference::Absolute(x), Preference::Absolute(y)) if x == y) // C3
    }

    /// The valid candidates making exactly `pairs` pairs in `bracket` (moved-down players
    /// first, `moved_down` of them), in generation order; with `quick`, generation stops
    /// after the first candidate granting every colour preference (then the flag returned
    /// is true).
    fn candidates(
        &mut self,
        bracket: &[usize],
        moved_down: usize,
        pairs: usize,
        quick: bool,
    ) -> (Vec<Candidate>, bool) {
        let mut out = Vec::new();
        let mut generated = 0usize;
        let residents = bracket.len() - moved_down;
        // C.04.3 A.3: a bracket in which at least half the players were moved down is paired
        // as a homogeneous one.
        if moved_down > 0 && moved_down <= pairs && moved_down < residents {
            // Heterogeneous: the moved-down players with residents, the rest homogeneous.
            let (mdps, resident_list) = bracket.split_at(moved_down);
            for order in Permutations::new(resident_list.len(), moved_down) {
                let partners: Vec<usize> = order[..moved_down].iter().map(|&i| resident_list[i]).collect();
                if mdps.iter().zip(&partners).any(|(&a, &b)| !self.compatible(a, b)) {
                    if !self.spend(&mut generated) {
                        break;
                    }
                    continue;
                }
                let mut remainder: Vec<usize> =
                    order[moved_down..].iter().map(|&i| resident_list[i]).collect();
                remainder.sort_by_key(|&i| self.states[i].number);
                let head: Vec<(usize, usize)> = mdps.iter().copied().zip(partners).collect();
                let head_perfect = self.colour_quality(&head) == (0, 0);
                let (tails, perfect) =
                    self.homogeneous(&remainder, pairs - moved_down, &mut generated, quick && head_perfect);
                for tail in tails {
                    let mut all = head.clone();
                    all.extend(tail.pairs);
                    out.push(Candidate { pairs: all, floaters: tail.floaters });
                }
                if perfect {
                    return (out, true);
                }
                if self.exhausted || generated >= MAX_CANDIDATES_PER_BRACKET {
                    break;
                }
            }
            (out, false)
        } else {
            self.homogeneous(bracket, pairs, &mut generated, quick)
        }
    }

    /// Counts one generated candidate against the limits; false when a limit is reached.
    fn spend(&mut self, generated: &mut usize) -> bool {
        *generated += 1;
        if self.budget == 0 {
            self.exhausted = true;
            return false;
        }
        self.budget -= 1;
        *generated < MAX_CANDIDATES_PER_BRACKET
    }

    /// Homogeneous pairing of `players` (ranked) into exactly `pairs` pairs: S1 = the first
    /// `pairs`, S2 the rest, transpositions of S2, then exchanges.
    /// With `quick`, stops after the first candidate granting every colour preference and
    /// says so.
    fn homogeneous(
        &mut self,
        players: &[usize],
        pairs: usize,
        generated: &mut usize,
        quick: bool,
    ) -> (Vec<Candidate>, bool) {
        let mut out = Vec::new();
        if pairs == 0 {
            out.push(Candidate { pairs: Vec::new(), floaters: players.to_vec() });
            return (out, quick);
        }
        if pairs * 2 > players.len() {
            return (out, false);
        }
        for s1_positions in exchanges(players.len(), pairs) {
            let s1: Vec<usize> = s1_positions.iter().map(|&i| players[i]).collect();
            let s2: Vec<usize> =
                (0..players.len()).filter(|i| !s1_positions.contains(i)).map(|i| players[i]).collect();
            for order in Permutations::new(s2.len(), pairs) {
                if !self.spend(generated) {
                    return (out, false);
                }
                let valid = (0..pairs).all(|i| self.compatible(s1[i], s2[order[i]]));
                if valid {
                    let candidate = Candidate {
                        pairs: (0..pairs).map(|i| (s1[i], s2[order[i]])).collect(),
                        floaters: order[pairs..].iter().map(|&i| s2[i]).collect(),
                    };
                    let perfect = self.colour_quality(&candidate.pairs) == (0, 0);
                    out.push(candidate);
                    if quick && perfect {
                        return (out, true);
                    }
                }
            }
        }
        (out, false)
    }
}

/// The choices of S1 (positions in the bracket) for `size` players and `pairs` pairs: the
/// original upper part first, then exchanges with S2 ordered by the number of players
/// exchanged and the difference of the exchanged positions.
fn exchanges(size: usize, pairs: usize) -> Vec<Vec<usize>> {
    // Brackets are small in practice; beyond 16 players only the original split and single
    // exchanges are tried (documented as part of the subset).
    let mut choices: Vec<(usize, i64, Vec<usize>)> = Vec::new();
    if size <= 16 {
        for mask in 0u32..(1 << size) {
            if mask.count_ones() as usize != pairs {
                continue;
            }
            let positions: Vec<usize> = (0..size).filter(|i| mask & (1 << i) != 0).collect();
            let moved_in: Vec<usize> = positions.iter().copied().filter(|&i| i >= pairs).collect();
            let moved_out: Vec<usize> = (0..pairs).filter(|i| !positions.contains(i)).collect();
            let difference = moved_in.iter().sum::<usize>() as i64 - moved_out.iter().sum::<usize>() as i64;
            choices.push((moved_in.len(), difference, positions));
        }
    } else {
        choices.push((0, 0, (0..pairs).collect()));
        for out in (0..pairs).rev() {
            for into in pairs..size {
                let mut positions: Vec<usize> = (0..pairs).filter(|&i| i != out).collect();
                positions.push(into);
                positions.sort_unstable();
                choices.push((1, into as i64 - out as i64, positions));
            }
        }
    }
    choices.sort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)).then_with(|| b.2.cmp(&a.2)));
    choices.into_iter().map(|(_, _, positions)| positions).collect()
}

/// The arrangements of `k` of `0..n` in lexicographic order, each followed by the unused
/// indices in increasing order (the floaters).
struct Permutations {
    current: Option<Vec<usize>>,
    k: usize,
}

impl Permutations {
    fn new(n: usize, k: usize) -> Permutations {
        Permutations { current: Some((0..n).collect()), k: k.min(n) }
    }
}

impl Iterator for Permutations {
    type Item = Vec<usize>;

    fn next(&mut self) -> Option<Vec<usize>> {
        let current = self.current.take()?;
        let mut next = current.clone();
        // Reversing the (ascending) tail makes it the last arrangement of the tail, so the
        // next full permutation is the next arrangement of the first k, tail ascending.
        next[self.k..].reverse();
        if let Some(i) = (1..next.len()).rev().find(|&i| next[i - 1] < next[i]) {
            let pivot = i - 1;
            if let Some(j) = (i..next.len()).rev().find(|&j| next[j] > next[pivot]) {
                next.swap(pivot, j);
                next[i..].reverse();
                self.current = Some(next);
            }
        }
        Some(current)
    }
}

/// The TRF(x) export of a Swiss section (FIDE Tournament Report File, 2016 layout, with the
/// `XXR`/`XXC` extensions pairing programs read): a `012` name line, a `062` player count,
/// then one `001` line per player in pairing-number order with points, rank (by points, then
/// pairing number; tie-breaks are not applied) and a 10-column block per round: opponent
/// number (`0000` for the bye), colour (`w` first move, `b` second move, `-` none) and
/// result (`1`, `=`, `0`, `+`/`-` for forfeits, `U` for the pairing-allocated bye, blank
/// while pending). Annulled games leave the round blank. Names are cut to 33 characters.
///
/// # Errors
///
/// [`SwissError::UnknownPlayer`] for a game or bye naming a player not in `players`.
pub fn trf_export(
    title: &str,
    players: &[crate::tables::PlayerInfo],
    games: &[GameRecord],
    byes: &[SwissBye],
    options: &SwissOptions,
    planned_rounds: Option<u32>,
) -> Result<String, SwissError> {
    let number: HashMap<PlayerId, usize> = players.iter().enumerate().map(|(i, p)| (p.id, i)).collect();
    let rounds = games.iter().map(|g| g.round).chain(byes.iter().map(|b| b.round)).max().unwrap_or(0);
    if rounds > MAX_TRF_ROUNDS {
        return Err(SwissError::TooManyRounds(rounds));
    }
    let width = 91 + 10 * rounds as usize;
    let mut lines: Vec<Vec<char>> = players.iter().map(|_| vec![' '; width]).collect();
    let mut points = vec![Points::ZERO; players.len()];
    let put = |line: &mut Vec<char>, column: usize, text: &str| {
        for (i, c) in text.chars().enumerate() {
            if let Some(slot) = line.get_mut(column - 1 + i) {
                *slot = c;
            }
        }
    };
    for game in games {
        let first = *number.get(&game.first).ok_or(SwissError::UnknownPlayer(game.first))?;
        let second = *number.get(&game.second).ok_or(SwissError::UnknownPlayer(game.second))?;
        if game.result == GameResult::Annulled || game.round == 0 {
            continue;
        }
        let column = 92 + 10 * (game.round as usize - 1);
        for (me, other, is_first) in [(first, second, true), (second, first, false)] {
            let result = match game.result.outcome_for(is_first) {
                Some(outcome) => {
                    points[me] += options.scoring.points(outcome);
                    match outcome {
                        crate::model::PlayerOutcome::Win => "1",
                        crate::model::PlayerOutcome::Draw => "=",
                        crate::model::PlayerOutcome::Loss => "0",
                        crate::model::PlayerOutcome::ForfeitWin => "+",
                        crate::model::PlayerOutcome::ForfeitLoss => "-",
                    }
                }
                None => " ",
            };
            let colour = if is_first { "w" } else { "b" };
            put(&mut lines[me], column, &format!("{:>4} {colour} {result}", other + 1));
        }
    }
    for bye in byes {
        let me = *number.get(&bye.player).ok_or(SwissError::UnknownPlayer(bye.player))?;
        if bye.round == 0 {
            continue;
        }
        points[me] += options.bye_points;
        put(&mut lines[me], 92 + 10 * (bye.round as usize - 1), "0000 - U");
    }
    let mut order: Vec<usize> = (0..players.len()).collect();
    order.sort_by(|&a, &b| points[b].cmp(&points[a]).then(a.cmp(&b)));
    let mut rank = vec![0usize; players.len()];
    for (r, &i) in order.iter().enumerate() {
        rank[i] = r + 1;
    }
    let mut out = String::new();
    out.push_str(&format!("012 {}\n", single_line(title)));
    out.push_str(&format!("062 {}\n", players.len()));
    if let Some(planned) = planned_rounds {
        out.push_str(&format!("XXR {planned}\n"));
    }
    out.push_str(if options.initial_first { "XXC white1\n" } else { "XXC black1\n" });
    for (i, (player, mut line)) in players.iter().zip(lines).enumerate() {
        put(&mut line, 1, "001");
        put(&mut line, 5, &format!("{:>4}", i + 1));
        let name: String = single_line(&player.name).chars().take(33).collect();
        put(&mut line, 15, &name);
        put(&mut line, 81, &format!("{:>4.1}", points[i].as_f64()));
        put(&mut line, 86, &format!("{:>4}", rank[i]));
        let text: String = line.into_iter().collect();
        out.push_str(text.trim_end());
        out.push('\n');
    }
    Ok(out)
}

/// User text on one line (control characters become spaces).
fn single_line(text: &str) -> String {
    text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect()
}

#[cfg(test)]
mod tests {
    use super::Permutations;

    #[test]
    fn arrangements_come_in_lexicographic_order_with_sorted_floaters() {
        let all: Vec<Vec<usize>> = Permutations::new(3, 1).collect();
        assert_eq!(all, vec![vec![0, 1, 2], vec![1, 0, 2], vec![2, 0, 1]]);
        assert_eq!(Permutations::new(3, 3).count(), 6);
        assert_eq!(Permutations::new(4, 2).count(), 12);
        assert_eq!(Permutations::new(0, 0).count(), 1);
    }
}
