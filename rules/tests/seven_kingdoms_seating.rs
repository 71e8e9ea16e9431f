//! `seven-kingdoms.md` "Players and alliances": the seat/alliance table for 3 to 7 players.

use tavoliere_rules::seven_kingdoms::{Game, Kingdom, Seat, Seating, SeatingError};

use Kingdom::*;

fn table(players: u8) -> Vec<Vec<Kingdom>> {
    let seating = Seating::standard(players).expect("3 to 7 players");
    seating.seats().map(|s| seating.kingdoms_of(s).collect()).collect()
}

#[test]
fn players_and_alliances_seven_players_each_play_one_kingdom() {
    assert_eq!(table(7), [vec![Qin], vec![Chu], vec![Han], vec![Qi], vec![Wei], vec![Zhao], vec![Yan]]);
}

#[test]
fn players_and_alliances_six_players_qin_also_commands_one_ally() {
    assert_eq!(table(6), [vec![Qin, Yan], vec![Chu], vec![Han], vec![Qi], vec![Wei], vec![Zhao]]);
}

#[test]
fn players_and_alliances_five_players_as_six_and_chu_also_commands_one() {
    assert_eq!(table(5), [vec![Qin, Yan], vec![Chu, Zhao], vec![Han], vec![Qi], vec![Wei]]);
}

#[test]
fn players_and_alliances_four_players_as_five_and_qi_also_commands_one() {
    assert_eq!(table(4), [vec![Qin, Yan], vec![Chu, Zhao], vec![Han], vec![Qi, Wei]]);
}

#[test]
fn players_and_alliances_three_players_qin_commands_two_allies() {
    assert_eq!(table(3), [vec![Qin, Han, Yan], vec![Chu, Zhao], vec![Qi, Wei]]);
}

#[test]
fn players_and_alliances_every_kingdom_is_played_by_exactly_one_seat() {
    for players in 3..=7 {
        let seating = Seating::standard(players).unwrap();
        assert_eq!(seating.players(), players);
        let mut all: Vec<Kingdom> = seating.seats().flat_map(|s| seating.kingdoms_of(s)).collect();
        all.sort();
        assert_eq!(all, Kingdom::ALL, "{players} players");
        assert!(seating.is_standard());
    }
}

#[test]
fn players_and_alliances_two_or_eight_players_are_rejected() {
    assert_eq!(Seating::standard(2), Err(SeatingError::UnsupportedPlayerCount(2)));
    assert_eq!(Seating::standard(8), Err(SeatingError::UnsupportedPlayerCount(8)));
    assert_eq!(Seating::standard(0), Err(SeatingError::UnsupportedPlayerCount(0)));
}

#[test]
fn players_and_alliances_allies_are_the_kingdoms_of_one_seat() {
    let seating = Seating::standard(4).unwrap();
    assert!(seating.are_allies(Qi, Wei) && seating.are_allies(Qin, Yan));
    assert!(!seating.are_allies(Qin, Chu) && !seating.are_allies(Qin, Qin));
    assert_eq!(seating.seat_of(Zhao), Seat(1));
    assert!(!Seating::standard(7).unwrap().are_allies(Qin, Yan));
}

#[test]
fn players_and_alliances_a_custom_seating_is_checked() {
    let two_blocs = Seating::custom([0, 1, 1, 2, 2, 0, 0]).unwrap();
    assert_eq!(two_blocs.players(), 3);
    assert!(!two_blocs.is_standard());
    assert_eq!(Seating::custom([0, 2, 1, 1, 2, 0, 0]), Err(SeatingError::SeatsOutOfOrder));
    assert_eq!(Seating::custom([0, 0, 0, 0, 1, 1, 1]), Err(SeatingError::UnsupportedPlayerCount(2)));
}

#[test]
fn players_and_alliances_the_seat_to_move_follows_the_kingdoms() {
    let mut game = Game::new(Seating::standard(3).unwrap());
    let seats: Vec<u8> = (0..8)
        .map(|_| {
            let seat = game.seat_to_move().0;
            let first = game.position().legal_moves()[0];
            game.play(first).unwrap();
            seat
        })
        .collect();
    // Qin, Chu, Han, Qi, Wei, Zhao, Yan, Qin.
    assert_eq!(seats, [0, 1, 0, 2, 2, 1, 0, 0]);
}
