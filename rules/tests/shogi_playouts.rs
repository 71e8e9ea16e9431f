//! Random playouts in both variants: every legal move round-trips through USI and both
//! western styles, `is_legal` agrees with `legal_moves` on every conceivable move, the
//! incremental Zobrist key equals the key computed from scratch, and SFEN round-trips.

use tavoliere_rules::notation::shogi::western::{self, Style};
use tavoliere_rules::notation::shogi::{parse_any, sfen, usi};
use tavoliere_rules::shogi::{Move, Position, Role, Square, Variant};

/// A small deterministic generator (xorshift64*), to keep the test reproducible.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

fn every_conceivable_move(variant: Variant) -> Vec<Move> {
    let squares: Vec<Square> = Square::all().filter(|sq| sq.is_on(variant)).collect();
    let mut all = Vec::new();
    for &from in &squares {
        for &to in &squares {
            if from != to {
                all.push(Move::Normal { from, to, promote: false });
                all.push(Move::Normal { from, to, promote: true });
            }
        }
    }
    for role in Role::HAND {
        for &to in &squares {
            all.push(Move::Drop { role, to });
        }
    }
    all
}

fn playouts(variant: Variant, games: usize, max_plies: usize, seed: u64) {
    let mut rng = Rng(seed);
    let conceivable = every_conceivable_move(variant);
    let mut checked_moves = 0;
    for game in 0..games {
        let mut pos = Position::startpos(variant);
        for ply in 0..max_plies {
            let legal = pos.legal_moves();
            let scratch = Position::from_setup(pos.to_setup()).expect("a played position is legal");
            assert_eq!(pos.zobrist(), scratch.zobrist(), "game {game} ply {ply}: incremental zobrist");
            let text = sfen::write(&pos);
            assert_eq!(sfen::parse(&text, Some(variant)).unwrap(), pos, "{text}");
            if ply % 4 == 0 {
                for &m in &conceivable {
                    assert_eq!(pos.is_legal(m), legal.contains(&m), "{text}: {m} {:?}", pos.check_move(m));
                }
            }
            for &m in &legal {
                for style in [Style::Hyphenated, Style::Aise] {
                    let written = western::write(&pos, m, style);
                    assert_eq!(western::parse(&pos, &written), Ok(m), "{text}: {m} written {written}");
                    assert_eq!(parse_any(&pos, &written, None), Ok(m), "{text}: {written}");
                }
                assert_eq!(usi::parse(&pos, &usi::write(&pos, m)), Ok(m));
                checked_moves += 1;
            }
            if legal.is_empty() {
                assert!(pos.outcome_by_basic_rules().is_some());
                break;
            }
            pos = pos.play(legal[rng.below(legal.len())]).expect("a generated move is legal");
        }
    }
    assert!(checked_moves > 1000, "only {checked_moves} moves checked");
}

#[test]
fn shogi_random_playouts_agree_everywhere() {
    playouts(Variant::Standard, 6, 160, 0x5EED_0001);
}

#[test]
fn minishogi_random_playouts_agree_everywhere() {
    playouts(Variant::Mini, 30, 120, 0x5EED_0002);
}
