//! The pairing corpus: every round of thousands of random tournaments, as bbpPairings
//! paired them (6.0.0 for the 2025 edition of the FIDE (Dutch) System, 5.0.1 for the 2017
//! edition, with and without the Baku acceleration), must be paired identically: the same
//! pairs, the same colours, the same bye, and no pairing where the engine found none.
//!
//! The files in `tests/data/pairings/` were written by `scripts/pairing-corpus` (see its
//! documentation for the format and how to make more): each tournament is one block, from
//! which round `k`'s input is rebuilt (the games and byes of the rounds before it, the
//! players absent in it) and its expected pairing read (the games and bye of round `k`).

use std::collections::BTreeSet;

use tavoliere_tournament::swiss::{
    pair_swiss, Acceleration, DutchEdition, SwissBye, SwissEntry, SwissError, SwissOptions,
};
use tavoliere_tournament::{GameId, GameRecord, GameResult, PlayerId, Points, Scoring};

/// One round of a player in a corpus block.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Entry {
    Game { opponent: i64, white: bool, result: char },
    Bye,
    Absent,
    ToPair,
}

struct Tournament {
    header: String,
    options: SwissOptions,
    paired: u32,
    unpairable: Option<u32>,
    history: Vec<Vec<Entry>>,
}

fn points(text: &str) -> Points {
    Points::from_milli((text.parse::<f64>().expect("a number") * 1000.0).round() as i64)
}

fn parse(text: &str) -> Vec<Tournament> {
    let mut tournaments: Vec<Tournament> = Vec::new();
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        if let Some(header) = line.strip_prefix("T ") {
            let field = |name: &str| {
                header.split_whitespace().find_map(|f| f.strip_prefix(&format!("{name}="))).map(str::to_owned)
            };
            let win = points(&field("win").expect("win"));
            let scoring = Scoring {
                win,
                draw: points(&field("draw").expect("draw")),
                loss: points(&field("loss").expect("loss")),
                forfeit_win: win,
                forfeit_loss: Points::ZERO,
            };
            let options = SwissOptions {
                scoring,
                bye_points: points(&field("bye").expect("bye")),
                initial_first: field("initial").as_deref() == Some("white"),
                rounds: Some(field("rounds").expect("rounds").parse().expect("rounds")),
                edition: DutchEdition::parse(&field("edition").expect("edition")).expect("an edition"),
                acceleration: Acceleration::parse(&field("acceleration").expect("acceleration"))
                    .expect("an acceleration"),
            };
            tournaments.push(Tournament {
                header: line.to_owned(),
                options,
                paired: field("paired").expect("paired").parse().expect("paired"),
                unpairable: field("unpairable").map(|r| r.parse().expect("a round")),
                history: Vec::new(),
            });
            continue;
        }
        let (_, rounds) = line.split_once(':').expect("a player line");
        let entries = rounds
            .split_whitespace()
            .map(|token| match token {
                "U" => Entry::Bye,
                "Z" => Entry::Absent,
                "?" => Entry::ToPair,
                game => {
                    let at = game.find(['w', 'b']).expect("a colour");
                    Entry::Game {
                        opponent: game[..at].parse().expect("an opponent"),
                        white: &game[at..=at] == "w",
                        result: game[at + 1..].chars().next().expect("a result"),
                    }
                }
            })
            .collect();
        tournaments.last_mut().expect("a tournament first").history.push(entries);
    }
    tournaments
}

/// Round `round`'s input, and its expected pairs `(first, second)` and bye.
type Expected = (BTreeSet<(i64, i64)>, Option<i64>);

fn round_input(t: &Tournament, round: u32) -> (Vec<SwissEntry>, Vec<GameRecord>, Vec<SwissBye>, Expected) {
    let column = round as usize - 1;
    let entries = (0..t.history.len())
        .map(|p| SwissEntry {
            player: PlayerId(p as i64 + 1),
            available: t.history[p].get(column) != Some(&Entry::Absent),
        })
        .collect();
    let mut games = Vec::new();
    let mut byes = Vec::new();
    let mut expected = (BTreeSet::new(), None);
    for (p, history) in t.history.iter().enumerate() {
        let me = p as i64 + 1;
        for (k, entry) in history.iter().enumerate().take(column + 1) {
            let r = k as u32 + 1;
            match *entry {
                Entry::Bye if k < column => byes.push(SwissBye { round: r, player: PlayerId(me) }),
                Entry::Bye => expected.1 = Some(me),
                Entry::Game { opponent, white: true, result } if k < column => {
                    let theirs = match t.history[opponent as usize - 1][k] {
                        Entry::Game { result, .. } => result,
                        other => panic!("{}: round {r}: {opponent} has {other:?}", t.header),
                    };
                    let result = match (result, theirs) {
                        ('1', _) => GameResult::FirstWins,
                        ('0', _) => GameResult::SecondWins,
                        ('=', _) => GameResult::Draw,
                        ('+', _) => GameResult::ForfeitFirstWins,
                        ('-', '-') => GameResult::DoubleForfeit,
                        ('-', _) => GameResult::ForfeitSecondWins,
                        other => panic!("unknown result {other:?}"),
                    };
                    games.push(GameRecord {
                        game: GameId(games.len() as i64 + 1),
                        round: r,
                        first: PlayerId(me),
                        second: PlayerId(opponent),
                        result,
                    });
                }
                Entry::Game { opponent, white: true, .. } => {
                    expected.0.insert((me, opponent));
                }
                _ => {}
            }
        }
    }
    (entries, games, byes, expected)
}

fn check(file: &str, text: &str) -> (usize, Vec<String>) {
    let mut rounds = 0;
    let mut differences = Vec::new();
    for t in parse(text) {
        let last = t.unpairable.unwrap_or(t.paired);
        for round in 1..=last {
            rounds += 1;
            let (entries, games, byes, expected) = round_input(&t, round);
            let got = pair_swiss(&entries, &games, &byes, &t.options);
            let same = match (&got, Some(round) == t.unpairable) {
                (Err(SwissError::NoPairing), true) => true,
                (Ok(paired), false) => {
                    let pairs: BTreeSet<(i64, i64)> =
                        paired.pairings.iter().map(|p| (p.first.0, p.second.0)).collect();
                    paired.round == round && (pairs, paired.bye.map(|b| b.0)) == expected
                }
                _ => false,
            };
            if !same {
                differences.push(format!(
                    "{file}: {} round {round}: expected {:?}, paired {:?}",
                    t.header,
                    if Some(round) == t.unpairable { None } else { Some(&expected) },
                    got.map(|r| (
                        r.pairings.iter().map(|p| (p.first.0, p.second.0)).collect::<BTreeSet<_>>(),
                        r.bye
                    )),
                ));
            }
        }
    }
    (rounds, differences)
}

#[test]
fn every_round_of_the_corpus_is_paired_as_bbppairings_paired_it() {
    let directory = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/pairings");
    let mut files: Vec<_> = std::fs::read_dir(directory)
        .expect("the corpus")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no corpus in {directory}");
    let mut total = 0;
    let mut differences = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("readable");
        let name = path.file_name().expect("a name").to_string_lossy().into_owned();
        let (rounds, mut different) = check(&name, &text);
        eprintln!("{name}: {} of {rounds} rounds identical", rounds - different.len());
        total += rounds;
        differences.append(&mut different);
    }
    assert!(
        differences.is_empty(),
        "{} of {total} rounds paired differently:\n{}",
        differences.len(),
        differences.iter().take(20).cloned().collect::<Vec<_>>().join("\n")
    );
    assert!(total >= 3000, "several thousand rounds, not {total}");
}
