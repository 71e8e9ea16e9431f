//! The FIDE Tournament Report File (TRF16) of a section, written and read back.
//!
//! [`trf_export`] writes a `012` name line, a `062` player count, the `XXR` (rounds
//! planned), `XXC` (initial colour) and, when the section does not score 1 / ½ / 0, `XXS`
//! (its point system, in bbpPairings' codes) extensions that pairing programs read, then
//! one `001` line per player in pairing-number order. The points column is in 1 / ½ / 0,
//! as TRF16 expects, whatever the section's own scoring (the `XXS` line says that one, so
//! a reader can recompute the section's points). Each round takes a 10-column block:
//! opponent number (`0000` for the bye), colour (`w` first move, `b` second move, `-`
//! none) and result (`1`, `=`, `0`, `+`/`-` for forfeits, `U` for the pairing-allocated
//! bye). A round a player did not play (withdrawn, an annulled game) carries the absence
//! code `0000 - Z`. Names are cut to 33 characters. Round-robin sections are written the
//! same way.
//!
//! The file is the input a pairing program pairs the next round from, as JaVaFo and
//! bbpPairings read it (`--dutch FILE -p`): after the last finished round, the round to
//! pair carries `0000 - Z` for every player who will not be in it (withdrawn players). A
//! round in play is not finished: its games are no results yet, so it is written as the
//! round to pair (its pairing can be set against what a pairing program makes of the file),
//! the players who are not in it carrying `Z`; its games, finished or not, follow as
//! `###` comment lines, which pairing programs skip. With the Baku acceleration the file
//! says so twice: `192 FIDE_DUTCH_2025_BAKU` (TRF-2026) and the virtual points as `XXA`
//! lines (TRF(x)).
//!
//! [`trf_import`] reads such a file (and the `001` lines of other programs' files) back
//! into players, games, byes and absences.

use std::collections::HashMap;

use crate::model::PlayerOutcome;
use crate::swiss::{
    Acceleration, DutchEdition, SwissBye, SwissEntry, SwissError, SwissOptions, MAX_TRF_ROUNDS,
};
use crate::tables::PlayerInfo;
use crate::{GameId, GameRecord, GameResult, PlayerId, Points, Scoring};

/// The TRF(x) export of a section (see the module documentation): `players` in
/// pairing-number order, `withdrawn` those of them who will not play the next round.
///
/// # Errors
///
/// [`SwissError::UnknownPlayer`] for a game or bye naming a player not in `players`,
/// [`SwissError::TooManyRounds`] beyond [`MAX_TRF_ROUNDS`].
pub fn trf_export(
    title: &str,
    players: &[PlayerInfo],
    withdrawn: &[PlayerId],
    games: &[GameRecord],
    byes: &[SwissBye],
    options: &SwissOptions,
    planned_rounds: Option<u32>,
) -> Result<String, SwissError> {
    let number: HashMap<PlayerId, usize> = players.iter().enumerate().map(|(i, p)| (p.id, i)).collect();
    let last = games.iter().map(|g| g.round).chain(byes.iter().map(|b| b.round)).max().unwrap_or(0);
    if last > MAX_TRF_ROUNDS {
        return Err(SwissError::TooManyRounds(last));
    }
    // The rounds before the first one with a game in play are results; that one (or the one
    // after the last) is the round to pair.
    let in_play = games.iter().filter(|g| g.result == GameResult::Pending).map(|g| g.round).min();
    let rounds = in_play.map_or(last, |r| r - 1);
    let to_pair = rounds + 1;
    let pairs_next = in_play.is_some() || planned_rounds.is_none_or(|planned| to_pair <= planned);
    let width_rounds = if pairs_next { to_pair } else { rounds };
    // TRF16's points are 1 / ½ / 0; the section's own scoring goes in the XXS line.
    let classic = Scoring::default();
    let bye_points = classic_bye(&options.scoring, options.bye_points);
    let width = 91 + 10 * width_rounds as usize;
    let mut lines: Vec<Vec<char>> = players.iter().map(|_| vec![' '; width]).collect();
    let mut points = vec![Points::ZERO; players.len()];
    // Who is in each round written (a game or a bye), to give the others the absence code.
    let mut present = vec![vec![false; width_rounds as usize]; players.len()];
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
        if game.round == 0 || game.round > to_pair {
            continue;
        }
        if game.round == to_pair {
            // In the round to pair: its players are in it, its result is no result yet.
            if let Some(row) = (in_play == Some(game.round)).then_some(game.round as usize - 1) {
                present[first][row] = true;
                present[second][row] = true;
            }
            continue;
        }
        if game.result == GameResult::Annulled {
            continue;
        }
        let column = 92 + 10 * (game.round as usize - 1);
        present[first][game.round as usize - 1] = true;
        present[second][game.round as usize - 1] = true;
        for (me, other, is_first) in [(first, second, true), (second, first, false)] {
            let result = match game.result.outcome_for(is_first) {
                Some(outcome) => {
                    points[me] += classic.points(outcome);
                    match outcome {
                        PlayerOutcome::Win => "1",
                        PlayerOutcome::Draw => "=",
                        PlayerOutcome::Loss => "0",
                        PlayerOutcome::ForfeitWin => "+",
                        PlayerOutcome::ForfeitLoss => "-",
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
        if bye.round == 0 || bye.round > to_pair {
            continue;
        }
        if bye.round == to_pair {
            if in_play == Some(bye.round) {
                present[me][bye.round as usize - 1] = true;
            }
            continue;
        }
        points[me] += bye_points;
        present[me][bye.round as usize - 1] = true;
        put(&mut lines[me], 92 + 10 * (bye.round as usize - 1), "0000 - U");
    }
    // The absence code: every round written that a player was not in, and in the round to
    // pair the players who will not be in it.
    let gone: std::collections::HashSet<usize> =
        withdrawn.iter().filter_map(|p| number.get(p).copied()).collect();
    for (me, line) in lines.iter_mut().enumerate() {
        for round in 1..=width_rounds {
            let absent = if round < to_pair || in_play.is_some() {
                !present[me][round as usize - 1]
            } else {
                gone.contains(&me)
            };
            if absent {
                put(line, 92 + 10 * (round as usize - 1), "0000 - Z");
            }
        }
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
    if options.scoring != classic || options.bye_points != bye_points {
        out.push_str(&xxs_line(&options.scoring, options.bye_points));
    }
    if options.acceleration == Acceleration::Baku {
        out.push_str(match options.edition {
            DutchEdition::Fide2025 => "192 FIDE_DUTCH_2025_BAKU\n",
            DutchEdition::Fide2017 => "192 FIDE_DUTCH_BAKU\n",
        });
        out.push_str(&xxa_lines(players.len(), options, planned_rounds));
    }
    for (i, (player, mut line)) in players.iter().zip(lines).enumerate() {
        put(&mut line, 1, "001");
        put(&mut line, 5, &format!("{:>4}", i + 1));
        let name: String = single_line(&player.name).chars().take(33).collect();
        put(&mut line, 15, &name);
        if let Some(rating) = player.rating {
            // TRF16: the rating in columns 49-52.
            put(&mut line, 49, &format!("{:>4}", rating.clamp(0, 9999)));
        }
        put(&mut line, 81, &format!("{:>4.1}", points[i].as_f64()));
        put(&mut line, 86, &format!("{:>4}", rank[i]));
        let text: String = line.into_iter().collect();
        out.push_str(text.trim_end());
        out.push('\n');
    }
    // The games of the round in play (and of any later round), which are no results yet.
    let mut unfinished: Vec<&GameRecord> =
        games.iter().filter(|g| g.round >= to_pair && in_play.is_some()).collect();
    unfinished.sort_by_key(|g| (g.round, g.game));
    for game in unfinished {
        let (first, second) = (number[&game.first] + 1, number[&game.second] + 1);
        let state = match game.result {
            GameResult::Pending => "in play".to_owned(),
            GameResult::Annulled => "annulled".to_owned(),
            result => {
                let mine = result.outcome_for(true).map(|o| classic.points(o)).unwrap_or_default();
                let theirs = result.outcome_for(false).map(|o| classic.points(o)).unwrap_or_default();
                let forfeit = if result.is_forfeit() { " (forfeit)" } else { "" };
                format!("{}-{}{forfeit}", trf_number(mine), trf_number(theirs))
            }
        };
        out.push_str(&format!("### round {} not finished: {first} w - {second} b {state}\n", game.round));
    }
    if in_play.is_some() {
        let mut later: Vec<&SwissBye> = byes.iter().filter(|b| b.round >= to_pair).collect();
        later.sort_by_key(|b| (b.round, number.get(&b.player)));
        for bye in later {
            if let Some(n) = number.get(&bye.player) {
                out.push_str(&format!(
                    "### round {} not finished: {} pairing-allocated bye\n",
                    bye.round,
                    n + 1
                ));
            }
        }
    }
    Ok(out)
}

/// The Baku acceleration's virtual points as TRF(x) `XXA` lines (one field per round
/// from round 1), as [`crate::swiss::Acceleration::Baku`] counts them.
fn xxa_lines(players: usize, options: &SwissOptions, planned_rounds: Option<u32>) -> String {
    let Some(rounds) = planned_rounds.or(options.rounds) else { return String::new() };
    let last = rounds.saturating_sub(1) / 2;
    let full = last / 2;
    let mut out = String::new();
    for number in 1..=players.div_ceil(2) {
        out.push_str(&format!("XXA {number:>4}"));
        for round in 0..=last {
            let points = if round <= full { options.scoring.win } else { options.scoring.draw };
            out.push_str(&format!(" {:>4.1}", points.as_f64()));
        }
        out.push('\n');
    }
    out
}

/// What the pairing-allocated bye is worth in 1 / ½ / 0: a win's, a draw's or a loss's
/// worth under the section's scoring, as close as it comes.
fn classic_bye(scoring: &Scoring, bye: Points) -> Points {
    if bye >= scoring.win {
        Points::whole(1)
    } else if bye >= scoring.draw && bye > scoring.loss {
        Points::halves(1)
    } else {
        Points::ZERO
    }
}

/// A number as TRF writes it: `3`, `0.5`, `1.333`.
fn trf_number(points: Points) -> String {
    let text = format!("{:.3}", points.as_f64());
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// The `XXS` line of a scoring (bbpPairings' codes: wins, draws and losses with either
/// colour, forfeit win and loss, the pairing-allocated bye).
fn xxs_line(scoring: &Scoring, bye: Points) -> String {
    let n = |p: Points| trf_number(p);
    format!(
        "XXS WW={w} BW={w} WD={d} BD={d} WL={l} BL={l} FW={fw} FL={fl} PAB={bye}\n",
        w = n(scoring.win),
        d = n(scoring.draw),
        l = n(scoring.loss),
        fw = n(scoring.forfeit_win),
        fl = n(scoring.forfeit_loss),
        bye = n(bye)
    )
}

/// User text on one line (control characters become spaces).
fn single_line(text: &str) -> String {
    text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect()
}

/// A tournament as a TRF file gives it. Players are numbered as in the file
/// (`PlayerId(pairing number)`); games are numbered in round order from 1.
#[derive(Clone, Debug, PartialEq)]
pub struct TrfTournament {
    /// The `012` line.
    pub title: String,
    /// The players by pairing number, with the name of their `001` line.
    pub players: Vec<PlayerInfo>,
    /// The points column of each player, in pairing-number order.
    pub points: Vec<Points>,
    /// Every game once (from the first mover's line; a game only one side lists is taken
    /// from that side).
    pub games: Vec<GameRecord>,
    /// The pairing-allocated byes (`0000 - U`).
    pub byes: Vec<SwissBye>,
    /// The rounds players did not play (`0000` with `Z`, `-`, `H` or `F`): withdrawn or
    /// absent players, among them those who will not be in the round to pair.
    pub absences: Vec<SwissBye>,
    /// The Baku acceleration (`192 FIDE_DUTCH_2025_BAKU` or `FIDE_DUTCH_BAKU`).
    pub acceleration: Acceleration,
    /// The rounds planned (`XXR`).
    pub planned_rounds: Option<u32>,
    /// The point system of an `XXS` line (1 / ½ / 0 when there is none) and the bye's.
    pub scoring: Scoring,
    /// The bye's points under [`TrfTournament::scoring`].
    pub bye_points: Points,
    /// Whether pairing number 1 had the first move in round 1 (`XXC`; without it, from the
    /// colours of the first round, as bbpPairings infers it).
    pub initial_first: bool,
}

impl TrfTournament {
    /// The round a pairing program pairs from this file: the one after the last round with
    /// a game or a bye.
    pub fn round_to_pair(&self) -> u32 {
        self.games.iter().map(|g| g.round).chain(self.byes.iter().map(|b| b.round)).max().unwrap_or(0) + 1
    }

    /// The players in pairing-number order, those absent in the round to pair not
    /// available.
    pub fn entries(&self) -> Vec<SwissEntry> {
        let round = self.round_to_pair();
        self.players
            .iter()
            .map(|p| SwissEntry {
                player: p.id,
                available: !self.absences.iter().any(|a| a.round == round && a.player == p.id),
            })
            .collect()
    }

    /// The pairing settings the file gives (the rounds planned, the initial colour, the
    /// point system, the acceleration) for `edition`.
    pub fn options(&self, edition: DutchEdition) -> SwissOptions {
        SwissOptions {
            scoring: self.scoring,
            bye_points: self.bye_points,
            initial_first: self.initial_first,
            rounds: self.planned_rounds,
            edition,
            acceleration: self.acceleration,
        }
    }
}

/// Why a TRF file cannot be read: the line (1-based) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrfError {
    /// The line.
    pub line: usize,
    /// What is wrong with it.
    pub problem: String,
}

impl std::fmt::Display for TrfError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TRF line {}: {}", self.line, self.problem)
    }
}

impl std::error::Error for TrfError {}

fn parse_points(text: &str) -> Option<Points> {
    let value: f64 = text.trim().parse().ok()?;
    Some(Points::from_milli((value * 1000.0).round() as i64))
}

/// Reads a TRF(x) file: the `012`, `XXR`, `XXC`, `XXS` and `001` lines (others are
/// skipped).
///
/// # Errors
///
/// [`TrfError`] for a `001` line whose columns cannot be read, or a game whose two sides
/// disagree.
pub fn trf_import(text: &str) -> Result<TrfTournament, TrfError> {
    let mut tournament = TrfTournament {
        title: String::new(),
        players: Vec::new(),
        points: Vec::new(),
        games: Vec::new(),
        byes: Vec::new(),
        absences: Vec::new(),
        acceleration: Acceleration::None,
        planned_rounds: None,
        scoring: Scoring::default(),
        bye_points: Points::whole(1),
        initial_first: true,
    };
    // (round, first, second) → result, from the first mover's side when it is listed.
    let mut sides: HashMap<(u32, i64, i64), (GameResult, bool)> = HashMap::new();
    let mut numbers = Vec::new();
    let mut colour_given = false;
    let mut bye_given = false;
    // bbpPairings' files end their lines with a carriage return alone.
    for (index, line) in text.split(['\r', '\n']).enumerate() {
        let bad = |problem: &str| TrfError { line: index + 1, problem: problem.to_owned() };
        let chars: Vec<char> = line.chars().collect();
        let field = |from: usize, to: usize| -> String {
            chars.get(from - 1..to.min(chars.len())).map(|c| c.iter().collect()).unwrap_or_default()
        };
        match line.get(..3) {
            Some("012") => tournament.title = line.get(4..).unwrap_or("").trim().to_owned(),
            Some("XXR" | "142") => {
                tournament.planned_rounds =
                    Some(line[3..].trim().parse().map_err(|_| bad("XXR wants a number"))?);
            }
            Some("XXC") => {
                let words: Vec<&str> = line[3..].split_whitespace().collect();
                if words.contains(&"black1") || words.contains(&"white1") {
                    tournament.initial_first = !words.contains(&"black1");
                    colour_given = true;
                }
            }
            Some("152") => {
                tournament.initial_first = line[3..].trim() != "B";
                colour_given = true;
            }
            Some("192") if line[3..].trim().ends_with("_BAKU") => {
                tournament.acceleration = Acceleration::Baku
            }
            Some(code @ ("BBW" | "BBD" | "BBL" | "BBF" | "BBU")) => {
                let value = parse_points(&line[3..]).ok_or_else(|| bad("a point value"))?;
                let s = &mut tournament.scoring;
                match code {
                    "BBW" => {
                        s.win = value;
                        s.forfeit_win = value;
                        if !bye_given {
                            tournament.bye_points = value;
                        }
                    }
                    "BBD" => s.draw = value,
                    "BBL" => s.loss = value,
                    "BBF" => s.forfeit_loss = value,
                    _ => {
                        tournament.bye_points = value;
                        bye_given = true;
                    }
                }
            }
            Some("XXS") => {
                for pair in line[3..].split_whitespace() {
                    let (code, value) = pair.split_once('=').ok_or_else(|| bad("XXS wants CODE=points"))?;
                    let value = parse_points(value).ok_or_else(|| bad("XXS wants CODE=points"))?;
                    let s = &mut tournament.scoring;
                    match code {
                        "W" | "WW" | "BW" => s.win = value,
                        "D" | "WD" | "BD" => s.draw = value,
                        "WL" | "BL" => s.loss = value,
                        "FW" => s.forfeit_win = value,
                        "FL" => s.forfeit_loss = value,
                        "PAB" => tournament.bye_points = value,
                        _ => {}
                    }
                }
            }
            Some("001") => {
                let number: i64 = field(5, 8).trim().parse().map_err(|_| bad("no pairing number"))?;
                numbers.push(number);
                tournament.players.push(PlayerInfo {
                    id: PlayerId(number),
                    name: field(15, 47).trim().to_owned(),
                    rating: field(49, 52).trim().parse().ok().filter(|r| *r > 0),
                });
                tournament.points.push(parse_points(&field(81, 84)).unwrap_or(Points::ZERO));
                let mut round = 0u32;
                let mut column = 92;
                while column <= chars.len() {
                    round += 1;
                    let block = field(column, column + 7);
                    column += 10;
                    let opponent = block.get(0..4).unwrap_or("").trim();
                    let colour = block.chars().nth(5).unwrap_or(' ');
                    let result = block.chars().nth(7).unwrap_or(' ');
                    if opponent.is_empty() {
                        continue;
                    }
                    let opponent: i64 = opponent.parse().map_err(|_| bad("an opponent is not a number"))?;
                    if opponent == 0 {
                        match result {
                            'U' => tournament.byes.push(SwissBye { round, player: PlayerId(number) }),
                            'Z' | 'z' | '-' | 'H' | 'h' | 'F' | 'f' | ' ' => {
                                tournament.absences.push(SwissBye { round, player: PlayerId(number) })
                            }
                            _ => return Err(bad("an unknown result without an opponent")),
                        }
                        continue;
                    }
                    let first = match colour {
                        'w' | 'W' => true,
                        'b' | 'B' => false,
                        _ => return Err(bad("a game without a colour")),
                    };
                    let mine = match result {
                        '1' | 'W' => Some(PlayerOutcome::Win),
                        '=' | 'D' => Some(PlayerOutcome::Draw),
                        '0' | 'L' => Some(PlayerOutcome::Loss),
                        '+' => Some(PlayerOutcome::ForfeitWin),
                        '-' => Some(PlayerOutcome::ForfeitLoss),
                        ' ' => None,
                        _ => return Err(bad("an unknown result")),
                    };
                    let (first_id, second_id) = if first { (number, opponent) } else { (opponent, number) };
                    let result = match (mine, first) {
                        (None, _) => GameResult::Pending,
                        (Some(PlayerOutcome::Draw), _) => GameResult::Draw,
                        (Some(PlayerOutcome::Win), true) | (Some(PlayerOutcome::Loss), false) => {
                            GameResult::FirstWins
                        }
                        (Some(PlayerOutcome::Win), false) | (Some(PlayerOutcome::Loss), true) => {
                            GameResult::SecondWins
                        }
                        (Some(PlayerOutcome::ForfeitWin), true) => GameResult::ForfeitFirstWins,
                        (Some(PlayerOutcome::ForfeitWin), false) => GameResult::ForfeitSecondWins,
                        // A forfeit loss: the other side says whether it was a double forfeit.
                        (Some(PlayerOutcome::ForfeitLoss), _) => {
                            if first {
                                GameResult::ForfeitSecondWins
                            } else {
                                GameResult::ForfeitFirstWins
                            }
                        }
                    };
                    let key = (round, first_id, second_id);
                    match sides.get(&key).copied() {
                        None => {
                            sides.insert(key, (result, first));
                        }
                        Some((seen, _)) if seen == result => {}
                        // Both sides lost by forfeit: a double forfeit.
                        Some((GameResult::ForfeitFirstWins | GameResult::ForfeitSecondWins, _))
                            if mine == Some(PlayerOutcome::ForfeitLoss) =>
                        {
                            sides.insert(key, (GameResult::DoubleForfeit, true));
                        }
                        Some(_) => return Err(bad("the two sides of a game disagree")),
                    }
                }
            }
            _ => {}
        }
    }
    let mut games: Vec<((u32, i64, i64), GameResult)> = sides.into_iter().map(|(k, (r, _))| (k, r)).collect();
    games.sort_by_key(|((round, first, second), _)| (*round, *first.min(second), *first.max(second)));
    tournament.games = games
        .into_iter()
        .enumerate()
        .map(|(i, ((round, first, second), result))| GameRecord {
            game: GameId(i as i64 + 1),
            round,
            first: PlayerId(first),
            second: PlayerId(second),
            result,
        })
        .collect();
    if !colour_given {
        tournament.initial_first = inferred_initial_colour(&tournament).unwrap_or(true);
    }
    Ok(tournament)
}

/// The initial colour of a file without `XXC`, as bbpPairings infers it: in the first round
/// with colours, the colour of the highest pairing number paired by then, reversed for
/// every player above it without one.
fn inferred_initial_colour(t: &TrfTournament) -> Option<bool> {
    let first = t.games.iter().map(|g| g.round).min()?;
    let mut above = 0;
    for player in &t.players {
        let paired_by_then =
            t.games.iter().any(|g| g.round <= first && (g.first == player.id || g.second == player.id))
                || t.byes.iter().any(|b| b.round <= first && b.player == player.id);
        if !paired_by_then {
            continue;
        }
        if let Some(game) =
            t.games.iter().find(|g| g.round == first && (g.first == player.id || g.second == player.id))
        {
            let white = game.first == player.id;
            return Some(white == (above % 2 == 0));
        }
        above += 1;
    }
    None
}
