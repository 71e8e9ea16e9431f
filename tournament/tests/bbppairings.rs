//! bbpPairings' own published test cases (`tests/data/bbppairings/`), read with the
//! crate's TRF reader and paired in both editions: the pairing, colours and bye must be
//! the engine's (6.0.0 for the 2025 edition, 5.0.1 for the 2017 one).

use std::collections::BTreeSet;

use tavoliere_tournament::swiss::{pair_swiss, DutchEdition};
use tavoliere_tournament::trf::trf_import;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/bbppairings");

/// `(white, black)` pairs and the bye of an engine's output file.
fn expected(name: &str) -> (BTreeSet<(i64, i64)>, Option<i64>) {
    let text = std::fs::read_to_string(format!("{DATA}/{name}")).expect("the expected output");
    let mut lines = text.split(['\r', '\n']).filter(|l| !l.trim().is_empty());
    let count: usize = lines.next().expect("a count").trim().parse().expect("a number");
    let mut pairs = BTreeSet::new();
    let mut bye = None;
    for line in lines {
        let (white, black) = line.trim().split_once(' ').expect("two numbers");
        let (white, black): (i64, i64) = (white.parse().expect("a number"), black.parse().expect("a number"));
        if black == 0 {
            bye = Some(white);
        } else {
            pairs.insert((white, black));
        }
    }
    assert_eq!(pairs.len() + usize::from(bye.is_some()), count, "{name}");
    (pairs, bye)
}

fn check(case: &str, edition: DutchEdition) {
    let text = std::fs::read_to_string(format!("{DATA}/{case}.trf")).expect("the input");
    let tournament = trf_import(&text).expect("a TRF bbpPairings reads");
    let round =
        pair_swiss(&tournament.entries(), &tournament.games, &tournament.byes, &tournament.options(edition))
            .unwrap_or_else(|e| panic!("{case} ({}): {e}", edition.as_str()));
    let pairs: BTreeSet<(i64, i64)> = round.pairings.iter().map(|p| (p.first.0, p.second.0)).collect();
    assert_eq!(
        (pairs, round.bye.map(|b| b.0)),
        expected(&format!("{case}.{}.expected", edition.as_str())),
        "{case} in the {} edition",
        edition.as_str()
    );
}

#[test]
fn issue_7_the_last_round_of_a_60_player_tournament() {
    check("issue_7", DutchEdition::Fide2025);
    check("issue_7", DutchEdition::Fide2017);
}

#[test]
fn dutch_2025_c5_an_absent_player_and_the_bye() {
    check("dutch_2025_C5", DutchEdition::Fide2025);
    check("dutch_2025_C5", DutchEdition::Fide2017);
}

#[test]
fn dutch_2025_c9_a_player_absent_from_the_first_round() {
    check("dutch_2025_C9", DutchEdition::Fide2025);
    check("dutch_2025_C9", DutchEdition::Fide2017);
}
