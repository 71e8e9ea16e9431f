//! Swiss pairings: the FIDE Dutch system (Handbook C.04.3, the 2017 rules), with the
//! simplifications listed below, and a TRF(x)-style export.
//!
//! No Swiss pairing engine exists as a Rust crate, so this one is written here. What it
//! implements, in the Dutch system's own terms:
//!
//! * Players are ranked by score, then by pairing number (their index in the initial
//!   ranking given by the caller, 1-based).
//! * **Absolute criteria**: no two players meet twice (C1; a forfeited or annulled game was
//!   not played and does not count, as in FIDE pairing programs); a player gets the
//!   pairing-allocated bye at most once, and not after a forfeit win (C2, C.04.1); two
//!   players with the same absolute colour preference do not meet unless one is a top
//!   scorer (C3; top scorers, A.7, exist only when the last round is paired:
//!   [`SwissOptions::rounds`]).
//! * **Completion** (C4): a bracket's pairing is accepted only if the rest of the round can
//!   still be paired under C1-C3, which a maximum matching of the remaining players
//!   (Edmonds' blossom algorithm) tells at once; an impossible round is known before any
//!   search. Should the brackets below still fail one by one, the bracket just paired is
//!   the penultimate pairing bracket and everyone below collapses into one last bracket
//!   with its downfloaters (A.9); only if that fails too does the search try the bracket's
//!   next candidate.
//! * **Brackets** in descending score order; players who cannot be paired float down to the
//!   next bracket (A.3). Moved-down players (MDPs) are paired only with residents: S1 = the
//!   MDPs paired (M1 of them, the others in the Limbo, D.3), S2 the residents in
//!   transposition order (D.1); the remainder like a homogeneous bracket: S1 the upper part,
//!   S2 the rest, S2 transposed in lexicographic order, then exchanges between S1 and S2 in
//!   D.2's order (fewest exchanged, smallest difference of the BSN sums, highest BSN moved
//!   out, lowest moved in). Transpositions are walked depth first, skipping every one with
//!   an impossible pair.
//! * **Quality criteria**, in their order of priority: the most pairs (C5); the lowest
//!   pairing score difference (C6, A.8); downfloaters that let the following bracket make
//!   the most pairs and pair the most of them (C7, by maximum matchings, the PSD of the
//!   following bracket approximated by its MDPs paired; not for the last two brackets); the
//!   fewest top scorers or opponents of theirs whose colour difference passes ±2 (C8) or
//!   who get one colour three times in a row (C9); the fewest colour preferences not
//!   granted (C10) and strong ones (C11); the fewest players who downfloat or upfloat as in
//!   the previous round (C12, C13) or as two rounds before (C14, C15); then the smallest
//!   score differences of those players (C16-C19). Floats (A.4.b) come from the scores
//!   before each round; a player who did not play a round (bye, forfeit, absence) has a
//!   downfloat. Among candidates of equal quality the first generated wins (B.8).
//! * **The bye** is part of the pairing of the last bracket (A.9): the player left over
//!   there, judged by the same criteria (a bye is a downfloat).
//! * **Colours** by the allocation rules E.1-E.5 (both preferences; the stronger one, or of
//!   two top scorers the wider colour difference; alternation from the last round with
//!   different colours; the higher-ranked player's preference; the initial colour by
//!   pairing-number parity); unplayed games do not count for colours.
//!
//! Validated against bbpPairings' published test data (`tests/swiss.rs`: a 60-player last
//! round reproduced pair for pair and colour for colour).
//!
//! **Not implemented** (so this is not an endorsed FIDE pairing program): C7's exact PSD of
//! the following bracket, D.3's exact order (MDP subsets are taken in lexicographic order),
//! exchanges of more than one player in brackets beyond 16 players, Baku acceleration, and
//! the "Pairing Guidelines for Programmers" where they refine the rules. Search limits
//! protect against pathological inputs ([`SwissError::SearchLimit`]).

mod blossom;
mod wide;

use std::collections::{HashMap, HashSet};
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::model::{Bye, GameRecord, GameResult, PlayerId};
use crate::scoring::{Points, Scoring};

/// The most rounds a TRF export writes (each round is a 10-column block on every line).
pub const MAX_TRF_ROUNDS: u32 = 999;

/// The candidate pairings examined in one bracket, at most.
const MAX_CANDIDATES_PER_BRACKET: usize = 20_000;
/// The remainder pairings a quick pass (looking for a perfect candidate) generates per
/// MDP-pairing, at most.
const QUICK_TAILS: usize = 64;
/// The pairs tried by one walk over the transpositions of a subgroup, at most.
const MAX_STEPS_PER_WALK: usize = 200_000;
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
    /// The number of rounds planned. When the round paired is the last one, the top-scorer
    /// rules apply (C.04.3 A.7: players above half the maximum score may meet with the same
    /// absolute colour preference, C3; C8, C9 and E.2 limit the damage). `None`: never.
    pub rounds: Option<u32>,
}

impl Default for SwissOptions {
    fn default() -> SwissOptions {
        SwissOptions {
            scoring: Scoring::default(),
            bye_points: Points::whole(1),
            initial_first: true,
            rounds: None,
        }
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

/// The float a player had in a round (C.04.3 A.4.b).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Float {
    /// Played an opponent with the same score.
    None,
    /// Played a lower-scored opponent, or did not play (bye, forfeit, absence).
    Down,
    /// Played a higher-scored opponent.
    Up,
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
    /// The floats of the previous round and of the round before it.
    floats: [Float; 2],
    /// A top scorer (A.7): in the last round, above half the maximum possible score.
    topscorer: bool,
}

impl State {
    /// Games with the first move minus games with the second (A.6).
    fn colour_difference(&self) -> i64 {
        self.colours.iter().map(|(_, side)| if *side == Side::First { 1 } else { -1 }).sum()
    }

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

/// The floats of every entered player in `round` (C.04.3 A.4.b): after two players with
/// different scores have played each other, the higher-ranked one has a downfloat and the
/// other an upfloat; a player who, for whatever reason, did not play in the round (a bye, a
/// forfeit, an annulled game, no game at all) also has a downfloat.
fn floats_in_round(
    round: u32,
    index: &HashMap<PlayerId, usize>,
    games: &[&GameRecord],
    byes: &[Bye],
    options: &SwissOptions,
) -> Vec<Float> {
    // Scores before the round, of everyone who played (withdrawn players included).
    let mut before: HashMap<PlayerId, Points> = HashMap::new();
    for game in games.iter().filter(|g| g.round < round) {
        for (player, first) in [(game.first, true), (game.second, false)] {
            if let Some(outcome) = game.result.outcome_for(first) {
                *before.entry(player).or_default() += options.scoring.points(outcome);
            }
        }
    }
    for bye in byes.iter().filter(|b| b.round < round) {
        *before.entry(bye.player).or_default() += options.bye_points;
    }
    let score = |player: PlayerId| before.get(&player).copied().unwrap_or_default();
    let mut floats = vec![Float::Down; index.len()];
    for game in games.iter().filter(|g| g.round == round && g.result.is_played()) {
        let (first, second) = (score(game.first), score(game.second));
        for (player, mine, theirs) in [(game.first, first, second), (game.second, second, first)] {
            if let Some(&i) = index.get(&player) {
                floats[i] = match mine.cmp(&theirs) {
                    std::cmp::Ordering::Greater => Float::Down,
                    std::cmp::Ordering::Less => Float::Up,
                    std::cmp::Ordering::Equal => Float::None,
                };
            }
        }
    }
    floats
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
            floats: [Float::None; 2],
            topscorer: false,
        });
    }
    let mut last_round = 0;
    let mut sorted_games: Vec<&GameRecord> = games.iter().collect();
    sorted_games.sort_by_key(|g| (g.round, g.game));
    for &game in &sorted_games {
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
            // C1 counts games played: a forfeited (or annulled) game leaves the two free to
            // meet again, as FIDE pairing programs do.
            if let (Some(other), true) = (other, game.result.is_played()) {
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
    for (slot, back) in [(0, 0), (1, 1)] {
        let Some(round) = last_round.checked_sub(back).filter(|&r| r >= 1) else { continue };
        let floats = floats_in_round(round, &index, &sorted_games, byes, options);
        for (state, float) in states.iter_mut().zip(floats) {
            state.floats[slot] = float;
        }
    }

    // A.7: top scorers, when pairing the last round: over half the maximum possible score.
    let round = last_round.saturating_add(1);
    let final_round = options.rounds == Some(round);
    let most_possible = options.scoring.win.milli().saturating_mul(i64::from(round - 1));
    for state in &mut states {
        state.preference = state.compute_preference();
        state.topscorer = final_round && state.score.milli().saturating_mul(2) > most_possible;
    }
    let mut ranked: Vec<usize> = (0..states.len()).collect();
    ranked.sort_by(|&a, &b| {
        states[b].score.cmp(&states[a].score).then(states[a].number.cmp(&states[b].number))
    });
    let mut search = Search {
        states: &states,
        initial_first: options.initial_first,
        exchange_orders: HashMap::new(),
        completable: HashMap::new(),
        look_ahead: HashMap::new(),
        budget: MAX_CANDIDATES_PER_ROUND,
        exhausted: false,
    };
    let (pairs, bye) = search.pair_all(&ranked).ok_or(if search.exhausted {
        SwissError::SearchLimit
    } else {
        SwissError::NoPairing
    })?;

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
    // Same preferred side. E.2: the stronger preference wins; of two absolute ones (top
    // scorers), the wider colour difference.
    let side = pa.side().unwrap_or(Side::First);
    if pa.strength() != pb.strength() {
        return if pa.strength() > pb.strength() { side } else { side.other() };
    }
    if matches!(pa, Preference::Absolute(_)) {
        let (wide_a, wide_b) = (a.colour_difference().abs(), b.colour_difference().abs());
        if wide_a != wide_b {
            return if wide_a > wide_b { side } else { side.other() };
        }
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

/// How a generation of candidates ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Generation {
    /// The quick pass found a perfect candidate, the last one generated.
    Perfect,
    /// Every candidate (up to the limits) was generated.
    Complete,
    /// The quick pass gave up before finding a perfect candidate: only a full pass decides.
    GaveUp,
}

/// One way to pair a bracket: the pairs and the players floating down (in the last
/// bracket: the one who gets the bye).
struct Candidate {
    pairs: Vec<(usize, usize)>,
    floaters: Vec<usize>,
}

/// How well a bracket's candidate meets the quality criteria C6-C19 of C.04.3, in their
/// order of priority: the derived ordering compares them lexicographically, smaller is
/// better. (C5, the number of pairs, is fixed per pass.)
///
/// Score-difference lists are sorted from the highest to the lowest and compared
/// lexicographically, as A.8 defines for the PSD.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Quality {
    /// C6: the pairing score difference (A.8).
    psd: Vec<Points>,
    /// C7, first: the pairs the following bracket could make below its most, with these
    /// downfloaters.
    next_bracket_pairs_short: usize,
    /// C7, then its PSD, approximated: the downfloaters the following bracket could not
    /// pair with its residents (A.8 makes an unpaired MDP weigh most).
    next_bracket_mdps_unpaired: usize,
    /// C8: top scorers or their opponents whose colour difference would pass ±2.
    topscorer_colour_difference: u32,
    /// C9: top scorers or their opponents who would have the same colour three times in a
    /// row.
    topscorer_same_colour_thrice: u32,
    /// C10: players who do not get their colour preference.
    colour: u32,
    /// C11: players who do not get their strong (or absolute) colour preference.
    strong_colour: u32,
    /// C12: players who downfloat as in the previous round.
    downfloats_again: u32,
    /// C13: players who upfloat as in the previous round.
    upfloats_again: u32,
    /// C14: players who downfloat as two rounds before.
    downfloats_as_two_rounds_ago: u32,
    /// C15: players who upfloat as two rounds before.
    upfloats_as_two_rounds_ago: u32,
    /// C16: the score differences of the players counted by C12.
    downfloats_again_differences: Vec<Points>,
    /// C17: the score differences of the players counted by C13.
    upfloats_again_differences: Vec<Points>,
    /// C18: the score differences of the players counted by C14.
    downfloats_as_two_rounds_ago_differences: Vec<Points>,
    /// C19: the score differences of the players counted by C15.
    upfloats_as_two_rounds_ago_differences: Vec<Points>,
}

impl Quality {
    /// The quality that satisfies every criterion once the PSD is `psd` (B.4: "perfect").
    fn perfect(psd: Vec<Points>) -> Quality {
        Quality {
            psd,
            next_bracket_pairs_short: 0,
            next_bracket_mdps_unpaired: 0,
            topscorer_colour_difference: 0,
            topscorer_same_colour_thrice: 0,
            colour: 0,
            strong_colour: 0,
            downfloats_again: 0,
            upfloats_again: 0,
            downfloats_as_two_rounds_ago: 0,
            upfloats_as_two_rounds_ago: 0,
            downfloats_again_differences: Vec::new(),
            upfloats_again_differences: Vec::new(),
            downfloats_as_two_rounds_ago_differences: Vec::new(),
            upfloats_as_two_rounds_ago_differences: Vec::new(),
        }
    }
}

fn descending(mut values: Vec<Points>) -> Vec<Points> {
    values.sort_unstable_by(|a, b| b.cmp(a));
    values
}

/// A whole round by player index: the pairs and the player with the bye, if any.
type RoundPairing = (Vec<(usize, usize)>, Option<usize>);

struct Search<'a> {
    states: &'a [State],
    /// The initial colour (E.5), to foresee the colours of top scorers' games (C8, C9).
    initial_first: bool,
    /// Whether the players left can all be paired, by (first bracket left, its MDPs).
    completable: HashMap<(usize, Vec<usize>), bool>,
    /// C7: (pairs short, MDPs unpaired) of a bracket, by (bracket, its MDPs).
    look_ahead: HashMap<(usize, Vec<usize>), (usize, usize)>,
    /// The D.2 orders of S1 choices already computed, by (players, pairs).
    exchange_orders: HashMap<(usize, usize), std::rc::Rc<Vec<Vec<usize>>>>,
    budget: usize,
    exhausted: bool,
}

impl Search<'_> {
    /// Pairs `ranked` (by score, then pairing number) bracket by bracket; with an odd
    /// number of players the last bracket leaves one player unpaired: the bye.
    fn pair_all(&mut self, ranked: &[usize]) -> Option<RoundPairing> {
        let mut brackets: Vec<Vec<usize>> = Vec::new();
        for &player in ranked {
            match brackets.last_mut() {
                Some(bracket) if self.states[bracket[0]].score == self.states[player].score => {
                    bracket.push(player)
                }
                _ => brackets.push(vec![player]),
            }
        }
        if !self.can_complete(&brackets, 0, &[]) {
            return None; // No pairing satisfies C1-C3 at all (A.9: the arbiter decides).
        }
        self.pair_from(&brackets, 0, Vec::new())
    }

    /// C4: whether `moved_down` and every player of `brackets[from..]` can all be paired
    /// (but one, who must be able to take the bye) under the absolute criteria C1-C3: a
    /// perfect matching of their compatibility graph, with a stand-in for the bye.
    fn can_complete(&mut self, brackets: &[Vec<usize>], from: usize, moved_down: &[usize]) -> bool {
        let mut key_players = moved_down.to_vec();
        key_players.sort_unstable();
        let key = (from, key_players);
        if let Some(&known) = self.completable.get(&key) {
            return known;
        }
        let mut players = key.1.clone();
        players.extend(brackets[from.min(brackets.len())..].iter().flatten().copied());
        let mut adjacency: Vec<Vec<usize>> = (0..players.len())
            .map(|i| (i + 1..players.len()).filter(|&j| self.compatible(players[i], players[j])).collect())
            .collect();
        if players.len() % 2 == 1 {
            // The bye as a vertex of its own, joined to whoever may take it (C2).
            adjacency.push((0..players.len()).filter(|&i| self.states[players[i]].bye_eligible).collect());
        }
        let complete = 2 * crate::matching::maximum_matching(&adjacency) == adjacency.len();
        self.completable.insert(key, complete);
        complete
    }

    fn pair_from(&mut self, brackets: &[Vec<usize>], at: usize, carried: Vec<usize>) -> Option<RoundPairing> {
        let Some(residents) = brackets.get(at) else {
            return match carried.as_slice() {
                [] => Some((Vec::new(), None)),
                _ => None,
            };
        };
        let last = at + 1 == brackets.len();
        let mut carried = carried;
        let states = self.states;
        carried.sort_by(|&a, &b| {
            states[b].score.cmp(&states[a].score).then(states[a].number.cmp(&states[b].number))
        });
        let moved_down = carried.len();
        let mut bracket = carried;
        bracket.extend(residents.iter().copied());
        // B.1: MDPs are only paired with residents.
        let most = (bracket.len() / 2).min(residents.len());
        let fewest = if last { most } else { 0 };
        for pairs in (fewest..=most).rev() {
            if last && bracket.len() - 2 * pairs > 1 {
                return None; // C5 in the last bracket: everyone but the bye is paired.
            }
            // A quick pass stops generating at the first perfect candidate (B.4: nothing can
            // beat it); only if the rest of the round cannot be paired after it does the
            // full generation run, to pick the best by the quality criteria (B.8).
            // C7 looks at the following bracket, unless it is the last one (A.9: not for the
            // penultimate and the last bracket).
            let next = if at + 2 < brackets.len() { Some(at + 1) } else { None };
            for quick in [true, false] {
                let (candidates, generation) =
                    self.candidates(&bracket, moved_down, pairs, quick, brackets, next);
                if generation == Generation::GaveUp {
                    continue; // On to the full pass.
                }
                let stopped_early = generation == Generation::Perfect;
                let mut rated: Vec<(Quality, Candidate)> =
                    candidates.into_iter().map(|c| (self.rate(&bracket, &c, brackets, next), c)).collect();
                // Stable: on equal quality the first generated stays first (B.8).
                rated.sort_by(|a, b| a.0.cmp(&b.0));
                if stopped_early {
                    // Only the perfect candidate: the others come, in their proper order
                    // behind any later perfect one, in the full pass.
                    rated.truncate(1);
                }
                for (_, candidate) in rated {
                    if last {
                        // The one player left over gets the bye (C2: at most once, not after
                        // a forfeit win).
                        let bye = candidate.floaters.first().copied();
                        if bye.is_some_and(|p| !self.states[p].bye_eligible) {
                            continue;
                        }
                        return Some((candidate.pairs, bye));
                    }
                    if !self.can_complete(brackets, at + 1, &candidate.floaters) {
                        continue;
                    }
                    if let Some((mut rest, bye)) =
                        self.pair_from(brackets, at + 1, candidate.floaters.clone())
                    {
                        rest.extend(candidate.pairs);
                        return Some((rest, bye));
                    }
                    if self.exhausted {
                        return None;
                    }
                    // A.9: the brackets below cannot be paired one by one after this one: it is
                    // the penultimate pairing bracket, and its downfloaters with every player
                    // below (the collapsed scoregroup) make the last bracket.
                    if at + 2 < brackets.len() {
                        let collapsed: Vec<usize> = brackets[at + 1..].iter().flatten().copied().collect();
                        if let Some((mut rest, bye)) = self.pair_from(&[collapsed], 0, candidate.floaters) {
                            rest.extend(candidate.pairs);
                            return Some((rest, bye));
                        }
                        if self.exhausted {
                            return None;
                        }
                    }
                }
                if !stopped_early {
                    break;
                }
            }
        }
        None
    }

    /// The quality of a candidate of `bracket`, C7 included when the following bracket
    /// `brackets[next]` counts.
    fn rate(
        &mut self,
        bracket: &[usize],
        candidate: &Candidate,
        brackets: &[Vec<usize>],
        next: Option<usize>,
    ) -> Quality {
        let mut quality = self.quality(bracket, candidate);
        if let Some(next) = next {
            let (short, unpaired) = self.look_ahead(&brackets[next], next, &candidate.floaters);
            quality.next_bracket_pairs_short = short;
            quality.next_bracket_mdps_unpaired = unpaired;
        }
        quality
    }

    /// C7 for the bracket of `residents` (number `index`) receiving `moved_down`: how many
    /// pairs it could make below its most (MDPs pair only with residents), and how many of
    /// the MDPs could not be paired with residents, by maximum matchings under C1-C3.
    fn look_ahead(&mut self, residents: &[usize], index: usize, moved_down: &[usize]) -> (usize, usize) {
        let mut key_players = moved_down.to_vec();
        key_players.sort_unstable();
        let key = (index, key_players);
        if let Some(&known) = self.look_ahead.get(&key) {
            return known;
        }
        let mdps = key.1.len();
        let mut players = key.1.clone();
        players.extend(residents.iter().copied());
        let all: Vec<Vec<usize>> = (0..players.len())
            .map(|i| {
                (mdps.max(i + 1)..players.len())
                    .filter(|&j| self.compatible(players[i], players[j]))
                    .collect()
            })
            .collect();
        let mdp_edges: Vec<Vec<usize>> =
            (0..players.len()).map(|i| if i < mdps { all[i].clone() } else { Vec::new() }).collect();
        let most_pairs = (players.len() / 2).min(residents.len());
        let pairs = crate::matching::maximum_matching(&all);
        let mdps_paired = crate::matching::maximum_matching(&mdp_edges);
        let result = (most_pairs - pairs.min(most_pairs), mdps.min(residents.len()) - mdps_paired.min(mdps));
        self.look_ahead.insert(key, result);
        result
    }

    /// The quality of a candidate of `bracket` without C7.
    fn quality(&self, bracket: &[usize], candidate: &Candidate) -> Quality {
        let states = self.states;
        let score = |p: usize| states[p].score;
        // A.8: a downfloater's difference is to one point below the bracket's lowest score.
        let floor = bracket.iter().map(|&p| score(p)).min().unwrap_or_default() - Points::whole(1);
        let mut quality = Quality::perfect(Vec::new());
        let mut psd = Vec::with_capacity(candidate.pairs.len() + candidate.floaters.len());
        let mut upfloat_lists: [Vec<Points>; 2] = [Vec::new(), Vec::new()];
        let mut downfloat_lists: [Vec<Points>; 2] = [Vec::new(), Vec::new()];
        for &(a, b) in &candidate.pairs {
            let (high, low) = if score(a) >= score(b) { (a, b) } else { (b, a) };
            let difference = score(high) - score(low);
            psd.push(difference);
            if difference > Points::ZERO {
                // The higher-scored player is a moved-down player whose downfloat was
                // counted where it floated; the lower one upfloats now.
                for (back, list) in upfloat_lists.iter_mut().enumerate() {
                    if states[low].floats[back] == Float::Up {
                        list.push(difference);
                    }
                }
            }
            if states[a].topscorer || states[b].topscorer {
                self.rate_topscorer_colours(a, b, &mut quality);
            }
            let (pa, pb) = (states[a].preference, states[b].preference);
            if pa.side().is_some() && pa.side() == pb.side() {
                quality.colour += 1;
                if pa.strength() >= 2 && pb.strength() >= 2 {
                    quality.strong_colour += 1;
                }
            }
        }
        for &floater in &candidate.floaters {
            let difference = score(floater) - floor;
            psd.push(difference);
            for (back, list) in downfloat_lists.iter_mut().enumerate() {
                if states[floater].floats[back] == Float::Down {
                    list.push(difference);
                }
            }
        }
        quality.psd = descending(psd);
        let [down_1, down_2] = downfloat_lists;
        let [up_1, up_2] = upfloat_lists;
        quality.downfloats_again = down_1.len() as u32;
        quality.upfloats_again = up_1.len() as u32;
        quality.downfloats_as_two_rounds_ago = down_2.len() as u32;
        quality.upfloats_as_two_rounds_ago = up_2.len() as u32;
        quality.downfloats_again_differences = descending(down_1);
        quality.upfloats_again_differences = descending(up_1);
        quality.downfloats_as_two_rounds_ago_differences = descending(down_2);
        quality.upfloats_as_two_rounds_ago_differences = descending(up_2);
        quality
    }

    /// C8 and C9 for a pair with a top scorer: the colours E.1-E.5 would give, and what they
    /// do to both players' colour difference and last colours.
    fn rate_topscorer_colours(&self, a: usize, b: usize, quality: &mut Quality) {
        let (sa, sb) = (&self.states[a], &self.states[b]);
        let a_higher = (sb.score, sa.number) < (sa.score, sb.number);
        let (higher, lower) = if a_higher { (sa, sb) } else { (sb, sa) };
        let higher_side = allocate_colours(higher, lower, self.initial_first);
        for (player, side) in [(higher, higher_side), (lower, higher_side.other())] {
            let step = if side == Side::First { 1 } else { -1 };
            if (player.colour_difference() + step).abs() > 2 {
                quality.topscorer_colour_difference += 1;
            }
            if matches!(player.colours.as_slice(), [.., (_, x), (_, y)] if *x == side && *y == side) {
                quality.topscorer_same_colour_thrice += 1;
            }
        }
    }

    /// The lowest PSD a candidate with `pairs` pairs could have: as many MDPs paired as
    /// possible, the highest-scored first, the rest of the residents paired among
    /// themselves (C6's "maximize the number of paired MDPs and pair the highest ones").
    fn psd_bound(&self, bracket: &[usize], moved_down: usize, pairs: usize) -> Vec<Points> {
        let score = |p: usize| self.states[p].score;
        let (mdps, residents) = bracket.split_at(moved_down);
        let resident_score = residents.first().map(|&p| score(p)).unwrap_or_default();
        let floor = bracket.iter().map(|&p| score(p)).min().unwrap_or_default() - Points::whole(1);
        let paired_mdps = moved_down.min(pairs).min(residents.len());
        let mut psd: Vec<Points> = Vec::new();
        for (i, &mdp) in mdps.iter().enumerate() {
            psd.push(if i < paired_mdps { score(mdp) - resident_score } else { score(mdp) - floor });
        }
        let remainder = residents.len() - paired_mdps;
        let remainder_pairs = pairs - paired_mdps;
        psd.extend(std::iter::repeat_n(Points::ZERO, remainder_pairs));
        let floating = remainder.saturating_sub(2 * remainder_pairs);
        psd.extend(std::iter::repeat_n(resident_score - floor, floating));
        descending(psd)
    }

    fn compatible(&self, a: usize, b: usize) -> bool {
        let (sa, sb) = (&self.states[a], &self.states[b]);
        if sa.opponents.contains(&b) {
            return false; // C1
        }
        // C3: only top scorers may meet with the same absolute colour preference.
        sa.topscorer
            || sb.topscorer
            || !matches!((sa.preference, sb.preference),
                (Preference::Absolute(x), Preference::Absolute(y)) if x == y)
    }

    /// The valid candidates making exactly `pairs` pairs in `bracket` (moved-down players
    /// first, `moved_down` of them), in the generation order of B.6-B.7 and D.1-D.3. With
    /// `quick`, generation stops at the first perfect candidate, or gives up when that
    /// would take more than a few remainder pairings per MDP-pairing.
    #[allow(clippy::too_many_arguments)]
    fn candidates(
        &mut self,
        bracket: &[usize],
        moved_down: usize,
        pairs: usize,
        quick: bool,
        brackets: &[Vec<usize>],
        next: Option<usize>,
    ) -> (Vec<Candidate>, Generation) {
        let mut out = Vec::new();
        let mut generated = 0usize;
        let perfect = Quality::perfect(self.psd_bound(bracket, moved_down, pairs));
        let (mdps, residents) = bracket.split_at(moved_down);
        // B.1/B.2: M1, the MDPs paired, is as many as possible; fewer only when needed
        // (their quality then loses on C6).
        let most_mdps = moved_down.min(pairs).min(residents.len());
        for m1 in (0..=most_mdps).rev() {
            let remainder_pairs = pairs - m1;
            if 2 * remainder_pairs > residents.len() - m1 {
                continue;
            }
            // D.3: the MDPs in S1, the rest in the Limbo (bound to float).
            for chosen in Combinations::new(moved_down, m1) {
                let s1: Vec<usize> = chosen.iter().map(|&i| mdps[i]).collect();
                let limbo: Vec<usize> =
                    (0..moved_down).filter(|i| !chosen.contains(i)).map(|i| mdps[i]).collect();
                // D.1: transpositions of S2 (the residents) for the MDP-pairing.
                let limit = MAX_CANDIDATES_PER_BRACKET.saturating_sub(generated);
                for order in self.compatible_arrangements(&s1, residents, limit) {
                    if m1 > 0 && !self.spend(&mut generated) {
                        return (out, Generation::Complete);
                    }
                    let partners: Vec<usize> = order.iter().map(|&i| residents[i]).collect();
                    let remainder: Vec<usize> =
                        (0..residents.len()).filter(|i| !order.contains(i)).map(|i| residents[i]).collect();
                    let head: Vec<(usize, usize)> = s1.iter().copied().zip(partners).collect();
                    // The quick pass hopes for a perfect candidate among the first few.
                    let tail_limit = if quick { QUICK_TAILS } else { usize::MAX };
                    let tails = self.homogeneous(&remainder, remainder_pairs, &mut generated, tail_limit);
                    // Cut short, the quick pass cannot go on to later MDP-pairings without
                    // breaking the generation order (B.8): the full pass takes over.
                    let truncated = tails.len() >= tail_limit;
                    for tail in tails {
                        let mut all = head.clone();
                        all.extend(tail.pairs);
                        let mut floaters = limbo.clone();
                        floaters.extend(tail.floaters);
                        let candidate = Candidate { pairs: all, floaters };
                        let is_perfect = quick && self.rate(bracket, &candidate, brackets, next) == perfect;
                        out.push(candidate);
                        if is_perfect {
                            return (out, Generation::Perfect);
                        }
                    }
                    if truncated {
                        return (out, Generation::GaveUp);
                    }
                    if self.exhausted || generated >= MAX_CANDIDATES_PER_BRACKET {
                        return (out, Generation::Complete);
                    }
                }
            }
        }
        (out, Generation::Complete)
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
    /// `pairs`, S2 the rest, transpositions of S2 (D.1), then exchanges (D.2); the players
    /// left over float.
    fn homogeneous(
        &mut self,
        players: &[usize],
        pairs: usize,
        generated: &mut usize,
        tail_limit: usize,
    ) -> Vec<Candidate> {
        let mut out = Vec::new();
        if pairs == 0 {
            out.push(Candidate { pairs: Vec::new(), floaters: players.to_vec() });
            return out;
        }
        if pairs * 2 > players.len() {
            return out;
        }
        let orders = std::rc::Rc::clone(
            self.exchange_orders
                .entry((players.len(), pairs))
                .or_insert_with(|| std::rc::Rc::new(exchanges(players.len(), pairs))),
        );
        for s1_positions in orders.iter() {
            let s1: Vec<usize> = s1_positions.iter().map(|&i| players[i]).collect();
            let s2: Vec<usize> =
                (0..players.len()).filter(|i| !s1_positions.contains(i)).map(|i| players[i]).collect();
            if out.len() >= tail_limit {
                break;
            }
            let limit = MAX_CANDIDATES_PER_BRACKET.saturating_sub(*generated).min(tail_limit - out.len());
            for order in self.compatible_arrangements(&s1, &s2, limit) {
                if !self.spend(generated) {
                    return out;
                }
                out.push(Candidate {
                    pairs: (0..pairs).map(|i| (s1[i], s2[order[i]])).collect(),
                    floaters: (0..s2.len()).filter(|j| !order.contains(j)).map(|j| s2[j]).collect(),
                });
            }
        }
        out
    }

    /// The transpositions of `s2` against `s1` (D.1: in lexicographic order of the S2
    /// players paired with S1's, the rest unpaired) whose pairs all satisfy C1-C3, at most
    /// `limit` of them; each lists the positions in `s2` paired with `s1[0]`, `s1[1]`...
    /// A depth-first walk skips every transposition with an impossible pair early.
    fn compatible_arrangements(&self, s1: &[usize], s2: &[usize], limit: usize) -> Vec<Vec<usize>> {
        let mut walk = Arrangements {
            out: Vec::new(),
            chosen: Vec::with_capacity(s1.len()),
            used: vec![false; s2.len()],
            limit,
            steps: 0,
        };
        walk.extend(self, s1, s2);
        walk.out
    }
}

/// The state of [`Search::compatible_arrangements`]'s walk.
struct Arrangements {
    out: Vec<Vec<usize>>,
    chosen: Vec<usize>,
    used: Vec<bool>,
    limit: usize,
    /// Pairs tried, against [`MAX_STEPS_PER_WALK`].
    steps: usize,
}

impl Arrangements {
    /// Extends `chosen` in every compatible way; false once a limit is reached.
    fn extend(&mut self, search: &Search<'_>, s1: &[usize], s2: &[usize]) -> bool {
        if self.out.len() >= self.limit || self.steps >= MAX_STEPS_PER_WALK {
            return false;
        }
        let i = self.chosen.len();
        if i == s1.len() {
            self.out.push(self.chosen.clone());
            return true;
        }
        for j in 0..s2.len() {
            if self.used[j] || !search.compatible(s1[i], s2[j]) {
                continue;
            }
            self.steps += 1;
            self.used[j] = true;
            self.chosen.push(j);
            let go_on = self.extend(search, s1, s2);
            self.chosen.pop();
            self.used[j] = false;
            if !go_on {
                return false;
            }
        }
        true
    }
}

/// The `k`-element subsets of `0..n` in lexicographic order (D.3: the MDPs of S1, the
/// highest-ranked first).
struct Combinations {
    current: Option<Vec<usize>>,
    n: usize,
}

impl Combinations {
    fn new(n: usize, k: usize) -> Combinations {
        Combinations { current: (k <= n).then(|| (0..k).collect()), n }
    }
}

impl Iterator for Combinations {
    type Item = Vec<usize>;

    fn next(&mut self) -> Option<Vec<usize>> {
        let current = self.current.take()?;
        let k = current.len();
        let mut next = current.clone();
        if let Some(i) = (0..k).rev().find(|&i| next[i] < self.n - k + i) {
            next[i] += 1;
            for j in i + 1..k {
                next[j] = next[j - 1] + 1;
            }
            self.current = Some(next);
        }
        Some(current)
    }
}

/// The choices of S1 (positions in the bracket) for `size` players and `pairs` pairs: the
/// original upper part first, then the exchanges with S2 in the order of D.2: (a) the
/// fewest players exchanged, (b) the smallest difference between the sums of the positions
/// moved into S1 and out of it, (c) the highest different position moved out of S1, (d) the
/// lowest different position moved into S1.
fn exchanges(size: usize, pairs: usize) -> Vec<Vec<usize>> {
    // (moved in, difference, moved out from the highest, moved in from the lowest, S1)
    type Exchange = (usize, i64, std::cmp::Reverse<Vec<usize>>, Vec<usize>, Vec<usize>);
    let describe = |positions: Vec<usize>| -> Exchange {
        let moved_in: Vec<usize> = positions.iter().copied().filter(|&i| i >= pairs).collect();
        let mut in_s1 = vec![false; size];
        positions.iter().for_each(|&i| in_s1[i] = true);
        let mut moved_out: Vec<usize> = (0..pairs).filter(|&i| !in_s1[i]).collect();
        moved_out.reverse();
        let difference = moved_in.iter().sum::<usize>() as i64 - moved_out.iter().sum::<usize>() as i64;
        (moved_in.len(), difference, std::cmp::Reverse(moved_out), moved_in, positions)
    };
    // Brackets are small in practice; beyond 16 players only the original split and single
    // exchanges are tried (documented as part of the subset).
    let mut choices: Vec<Exchange> = Vec::new();
    if size <= 16 {
        for mask in 0u32..(1 << size) {
            if mask.count_ones() as usize == pairs {
                choices.push(describe((0..size).filter(|i| mask & (1 << i) != 0).collect()));
            }
        }
    } else {
        choices.push(describe((0..pairs).collect()));
        for out in 0..pairs {
            for into in pairs..size {
                let mut positions: Vec<usize> = (0..pairs).filter(|&i| i != out).collect();
                positions.push(into);
                choices.push(describe(positions));
            }
        }
    }
    choices.sort();
    choices.into_iter().map(|(_, _, _, _, positions)| positions).collect()
}

#[cfg(test)]
mod exchange_tests {
    use super::exchanges;

    #[test]
    fn d2_orders_exchanges_by_size_difference_then_highest_out_and_lowest_in() {
        // Eleven players, five pairs: BSNs 1-5 in S1 (positions 0-4), 6-11 in S2.
        let order = exchanges(11, 5);
        assert_eq!(order[0], vec![0, 1, 2, 3, 4], "the original S1 first");
        // One exchange: 5 <-> 6 (difference 1) first, then 4 <-> 6 and 5 <-> 7 (difference
        // 2): moving 5 out beats moving 4 (c).
        assert_eq!(order[1], vec![0, 1, 2, 3, 5]);
        assert_eq!(order[2], vec![0, 1, 2, 3, 6], "5 out, 7 in");
        assert_eq!(order[3], vec![0, 1, 2, 4, 5], "4 out, 6 in");
        // Three exchanged: of {5,6,7} and {4,6,8} for {1,2,3} (same difference), the lowest
        // moved in first (d): 4 before 5 (BSNs 5 and 4 are positions 4 and 3 here).
        let three = exchanges(10, 3);
        let a = three.iter().position(|s| s == &vec![4, 5, 6]).unwrap();
        let b = three.iter().position(|s| s == &vec![3, 5, 7]).unwrap();
        assert!(b < a, "{{4,6,8}} before {{5,6,7}}");
    }
}

pub use crate::trf::trf_export;

#[cfg(test)]
mod tests {
    use super::*;

    /// A player with pairing number `number`, `halves` half-points, a preference and the
    /// floats of the last two rounds.
    fn player(number: u32, halves: i64, preference: Preference, floats: [Float; 2]) -> State {
        State {
            id: PlayerId(i64::from(number)),
            number,
            score: Points::halves(halves),
            opponents: HashSet::new(),
            colours: Vec::new(),
            bye_eligible: true,
            preference,
            floats,
            topscorer: false,
        }
    }

    const CALM: [Float; 2] = [Float::None, Float::None];

    /// The quality of `pairs` with `floaters` in the bracket of every player (by index).
    fn rate(states: &[State], pairs: &[(usize, usize)], floaters: &[usize]) -> Quality {
        let search = Search {
            states,
            initial_first: true,
            exchange_orders: HashMap::new(),
            completable: HashMap::new(),
            look_ahead: HashMap::new(),
            budget: 0,
            exhausted: false,
        };
        let bracket: Vec<usize> = (0..states.len()).collect();
        search.quality(&bracket, &Candidate { pairs: pairs.to_vec(), floaters: floaters.to_vec() })
    }

    #[test]
    fn c6_pairs_the_highest_moved_down_player_first() {
        // MDPs 0 (2 points) and 1 (1½) in the bracket of 2 and 3 (1 point).
        let states = [
            player(1, 4, Preference::None, CALM),
            player(2, 3, Preference::None, CALM),
            player(3, 2, Preference::None, CALM),
            player(4, 2, Preference::None, CALM),
        ];
        let both = rate(&states, &[(0, 2), (1, 3)], &[]);
        let highest = rate(&states, &[(0, 2)], &[1, 3]);
        let lower = rate(&states, &[(1, 2)], &[0, 3]);
        assert_eq!(
            highest.psd,
            vec![Points::halves(3), Points::whole(1), Points::whole(1)],
            "A.8: 2-1, 1½-0, 1-0"
        );
        assert!(both < highest, "every MDP paired is best");
        assert!(highest < lower, "then the highest-scored MDP paired");
    }

    #[test]
    fn c10_and_c11_count_the_colour_preferences_not_granted() {
        use Preference::{Mild, Strong};
        let states = [
            player(1, 2, Mild(Side::First), CALM),
            player(2, 2, Mild(Side::First), CALM),
            player(3, 2, Strong(Side::First), CALM),
            player(4, 2, Strong(Side::Second), CALM),
        ];
        let granted = rate(&states, &[(0, 3), (1, 2)], &[]);
        let one_mild = rate(&states, &[(0, 1), (2, 3)], &[]);
        assert_eq!((granted.colour, granted.strong_colour), (1, 0), "1 and 3 both want the first move");
        assert_eq!((one_mild.colour, one_mild.strong_colour), (1, 0));
        let strong_too = [
            player(1, 2, Strong(Side::First), CALM),
            player(2, 2, Strong(Side::First), CALM),
            player(3, 2, Mild(Side::Second), CALM),
            player(4, 2, Mild(Side::Second), CALM),
        ];
        let strong = rate(&strong_too, &[(0, 1), (2, 3)], &[]);
        let mild = rate(&strong_too, &[(0, 2), (1, 3)], &[]);
        assert_eq!((strong.colour, strong.strong_colour), (2, 1));
        assert_eq!((mild.colour, mild.strong_colour), (0, 0));
        assert!(mild < strong);
        let c11 = [
            player(1, 2, Strong(Side::First), CALM),
            player(2, 2, Strong(Side::First), CALM),
            player(3, 2, Mild(Side::First), CALM),
            player(4, 2, Preference::None, CALM),
        ];
        // Each leaves one player without the first move; only the first leaves a strong one.
        assert!(rate(&c11, &[(0, 2), (1, 3)], &[]) < rate(&c11, &[(0, 1), (2, 3)], &[]));
    }

    #[test]
    fn c12_and_c14_count_repeated_downfloats_last_round_first() {
        let states = [
            player(1, 2, Preference::None, CALM),
            player(2, 2, Preference::None, [Float::Down, Float::None]),
            player(3, 2, Preference::None, [Float::None, Float::Down]),
        ];
        let floats_last_rounds = rate(&states, &[(0, 2)], &[1]);
        let floats_two_rounds_ago = rate(&states, &[(0, 1)], &[2]);
        let floats_fresh = rate(&states, &[(1, 2)], &[0]);
        assert_eq!(floats_last_rounds.downfloats_again, 1);
        assert_eq!(floats_two_rounds_ago.downfloats_as_two_rounds_ago, 1);
        assert!(floats_fresh < floats_two_rounds_ago, "C14");
        assert!(floats_two_rounds_ago < floats_last_rounds, "C12 before C14");
    }

    #[test]
    fn c13_and_c15_count_repeated_upfloats_last_round_first() {
        // MDP 0 (1½) meets a resident (1 point) who upfloated last round, two rounds ago, or
        // never.
        let states = [
            player(1, 3, Preference::None, CALM),
            player(2, 2, Preference::None, [Float::Up, Float::None]),
            player(3, 2, Preference::None, [Float::None, Float::Up]),
            player(4, 2, Preference::None, CALM),
        ];
        let again = rate(&states, &[(0, 1), (2, 3)], &[]);
        let two_ago = rate(&states, &[(0, 2), (1, 3)], &[]);
        let fresh = rate(&states, &[(0, 3), (1, 2)], &[]);
        assert_eq!((again.upfloats_again, two_ago.upfloats_as_two_rounds_ago), (1, 1));
        assert!(fresh < two_ago, "C15");
        assert!(two_ago < again, "C13 before C15");
    }

    #[test]
    fn c16_and_c18_prefer_the_smaller_score_difference_of_a_repeated_downfloat() {
        // Two candidates float a 2-point and a 1-point player (the same PSD); in the first
        // the repeated downfloater is the 2-point one, in the second the 1-point one.
        let last = [Float::Down, Float::None];
        let states = [
            player(1, 4, Preference::None, last),
            player(2, 4, Preference::None, CALM),
            player(3, 2, Preference::None, CALM),
            player(4, 2, Preference::None, last),
            player(5, 2, Preference::None, CALM),
            player(6, 2, Preference::None, CALM),
        ];
        let big = rate(&states, &[(1, 4), (3, 5)], &[0, 2]);
        let small = rate(&states, &[(0, 4), (2, 5)], &[1, 3]);
        assert_eq!(big.psd, small.psd);
        assert_eq!(big.downfloats_again, small.downfloats_again);
        assert!(small < big, "C16");
        let two_ago = [Float::None, Float::Down];
        let mut states = states;
        states[0].floats = two_ago;
        states[3].floats = two_ago;
        let big = rate(&states, &[(1, 4), (3, 5)], &[0, 2]);
        let small = rate(&states, &[(0, 4), (2, 5)], &[1, 3]);
        assert_eq!(big.downfloats_as_two_rounds_ago, 1);
        assert!(small < big, "C18");
    }

    #[test]
    fn c17_and_c19_prefer_the_smaller_score_difference_of_a_repeated_upfloat() {
        // MDPs 0 (2 points) and 1 (1½) meet residents 2 and 3 (1 point); resident 2
        // upfloated before: better against the 1½ MDP (difference ½) than the 2 (1).
        let states = [
            player(1, 4, Preference::None, CALM),
            player(2, 3, Preference::None, CALM),
            player(3, 2, Preference::None, [Float::Up, Float::None]),
            player(4, 2, Preference::None, CALM),
        ];
        let far = rate(&states, &[(0, 2), (1, 3)], &[]);
        let near = rate(&states, &[(0, 3), (1, 2)], &[]);
        assert_eq!(far.psd, near.psd);
        assert!(near < far, "C17");
        let mut states = states;
        states[2].floats = [Float::None, Float::Up];
        assert!(rate(&states, &[(0, 3), (1, 2)], &[]) < rate(&states, &[(0, 2), (1, 3)], &[]), "C19");
    }

    /// A player who had `sides` (true: the first move) in rounds 1, 2...
    fn with_colours(number: u32, halves: i64, sides: &[bool], topscorer: bool) -> State {
        let mut state = player(number, halves, Preference::None, CALM);
        state.colours = sides
            .iter()
            .enumerate()
            .map(|(i, &first)| (i as u32 + 1, if first { Side::First } else { Side::Second }))
            .collect();
        state.preference = state.compute_preference();
        state.topscorer = topscorer;
        state
    }

    #[test]
    fn c8_and_c9_count_top_scorers_pushed_past_the_colour_limits() {
        // Top scorers 0 and 1 both had first, second, first, first (difference +2, the
        // last two alike): when they meet, one gets the first move again: difference +3
        // (C8) and three in a row (C9). Against 2 and 3 both are granted the second move.
        let states = [
            with_colours(1, 6, &[true, false, true, true], true),
            with_colours(2, 6, &[true, false, true, true], true),
            with_colours(3, 6, &[false, false, true, false, false], false),
            with_colours(4, 6, &[false, true, false], false),
        ];
        let clash = rate(&states, &[(0, 1), (2, 3)], &[]);
        assert_eq!((clash.topscorer_colour_difference, clash.topscorer_same_colour_thrice), (1, 1));
        let apart = rate(&states, &[(0, 2), (1, 3)], &[]);
        assert_eq!((apart.topscorer_colour_difference, apart.topscorer_same_colour_thrice), (0, 0));
        assert!(apart < clash);
        let mut colour_only = Quality::perfect(Vec::new());
        colour_only.colour = 2;
        let mut c9 = Quality::perfect(Vec::new());
        c9.topscorer_same_colour_thrice = 1;
        assert!(colour_only < c9, "C9 ranks above C10");
    }

    #[test]
    fn e2_two_absolute_preferences_give_the_wider_colour_difference_its_colour() {
        // Both want the second move absolutely (the last two games with the first): 2's
        // colour difference is +2, 1's only +1. 1 is higher-ranked, but 2's wider
        // difference wins (E.2).
        let one = with_colours(1, 4, &[false, true, true], true);
        let two = with_colours(2, 4, &[true, false, true, true], true);
        assert_eq!((one.colour_difference(), two.colour_difference()), (1, 2));
        assert_eq!(allocate_colours(&one, &two, true), Side::First, "2 gets the second move");
        assert_eq!(allocate_colours(&two, &one, true), Side::Second);
    }

    #[test]
    fn the_criteria_rank_in_the_order_of_c_04_3() {
        // A colour preference not granted (C10) weighs more than a repeated downfloat (C12),
        // which weighs more than a repeated upfloat (C13).
        let mut colour = Quality::perfect(Vec::new());
        colour.colour = 1;
        let mut downfloat = Quality::perfect(Vec::new());
        downfloat.downfloats_again = 1;
        let mut upfloat = Quality::perfect(Vec::new());
        upfloat.upfloats_again = 1;
        assert!(upfloat < downfloat && downfloat < colour);
        let mut psd = Quality::perfect(vec![Points::whole(1)]);
        assert!(colour < psd, "C6 first");
        psd.psd = Vec::new();
        assert!(psd < upfloat);
    }

    #[test]
    fn floats_come_from_the_scores_before_the_round_and_absences() {
        // Round 1: 1-2 1-0, 3 the bye, 4 absent. Round 2: 1 (1) v 3 (1 by the bye) ½-½,
        // 2 (0) v 4 (0) forfeit.
        let games = [
            GameRecord {
                game: crate::GameId(1),
                round: 1,
                first: PlayerId(1),
                second: PlayerId(2),
                result: GameResult::FirstWins,
            },
            GameRecord {
                game: crate::GameId(2),
                round: 2,
                first: PlayerId(1),
                second: PlayerId(3),
                result: GameResult::Draw,
            },
            GameRecord {
                game: crate::GameId(3),
                round: 2,
                first: PlayerId(4),
                second: PlayerId(2),
                result: GameResult::ForfeitFirstWins,
            },
        ];
        let byes = [Bye { round: 1, player: PlayerId(3) }];
        let index: HashMap<PlayerId, usize> = (1..=4).map(|i| (PlayerId(i), i as usize - 1)).collect();
        let refs: Vec<&GameRecord> = games.iter().collect();
        let options = SwissOptions::default();
        assert_eq!(
            floats_in_round(1, &index, &refs, &byes, &options),
            vec![Float::None, Float::None, Float::Down, Float::Down]
        );
        assert_eq!(
            floats_in_round(2, &index, &refs, &byes, &options),
            vec![Float::None, Float::Down, Float::None, Float::Down],
            "equal scores do not float; a forfeit is not a game played"
        );
    }

    #[test]
    fn combinations_come_in_lexicographic_order() {
        let all: Vec<Vec<usize>> = Combinations::new(4, 2).collect();
        assert_eq!(all, vec![vec![0, 1], vec![0, 2], vec![0, 3], vec![1, 2], vec![1, 3], vec![2, 3]]);
        assert_eq!(Combinations::new(3, 0).collect::<Vec<_>>(), vec![Vec::<usize>::new()]);
        assert_eq!(Combinations::new(2, 3).count(), 0);
    }
}
