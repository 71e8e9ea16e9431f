//! Handicaps: named start positions plus the extra rules some of them carry
//! (`xiangqi.md` "Handicap games (FIX)", `shogi.md` "Handicap games",
//! `minishogi.md` "Handicaps").

use std::fmt;
use std::str::FromStr;

use crate::Color;

/// A handicap of one of the games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Handicap {
    /// A FIX Xiangqi handicap.
    Xiangqi(XiangqiHandicap),
    /// A standard Shogi handicap.
    Shogi(ShogiHandicap),
    /// One of the eight MiniShogi levels.
    MiniShogi(MiniShogiLevel),
}

/// The seven FIX Xiangqi handicaps (`xiangqi.md` "Handicap games (FIX)").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum XiangqiHandicap {
    /// Red plays without the left chariot; Black may not capture Red's leftmost soldier,
    /// left horse or left cannon while they have not moved.
    Chariot,
    /// Red plays without both horses; Red's central soldier may not be captured while it
    /// has not moved, unless the capture gives check.
    TwoHorses,
    /// The giver of a horse plays Black (the receiver, Red, has the first move).
    HorseAndMove,
    /// The giver (Red) plays without one horse.
    OneHorse,
    /// The receiver (Red) makes this many moves (4 or more) before the giver's first move,
    /// without crossing its river bank and bringing only soldiers onto it.
    Moves(u8),
    /// The receiver makes three moves at the start; none of its pieces may cross the river.
    ThreeMoves,
    /// The receiver makes two moves at the start.
    TwoMoves,
}

/// The standard Shogi handicaps; the stronger player is White and moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShogiHandicap {
    /// 香落ち: White's left lance removed.
    Lance,
    /// 角落ち: bishop removed.
    Bishop,
    /// 飛車落ち: rook removed.
    Rook,
    /// 飛香落ち: rook and left lance removed.
    RookLance,
    /// 二枚落ち: rook and bishop removed.
    TwoPieces,
    /// 四枚落ち: rook, bishop and both lances removed.
    FourPieces,
    /// 六枚落ち: rook, bishop, both lances and both knights removed.
    SixPieces,
}

/// The eight MiniShogi handicap levels (`minishogi.md` "Handicaps"), smallest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MiniShogiLevel {
    /// 1: the weaker player chooses colour (the usual start position).
    ChooseColour,
    /// 2: the weaker player makes two moves a turn, none a capture.
    TwoMoves,
    /// 3: the weaker player's rook starts promoted.
    PromotedRook,
    /// 4: the weaker player's bishop starts promoted.
    PromotedBishop,
    /// 5: the stronger player's rook is replaced by a lance.
    RookToLance,
    /// 6: the weaker player makes three moves a turn, none a capture.
    ThreeMoves,
    /// 7: the stronger player's bishop is removed.
    NoBishop,
    /// 8: the stronger player's rook is removed.
    NoRook,
}

/// What a handicap changes beyond the start position: how many moves make a turn, and
/// which moves are banned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct HandicapRules {
    /// The side receiving the odds (the weaker player), if the handicap has extra rules.
    pub receiver: Option<Color>,
    /// Moves the receiver makes per turn; `None`: one.
    pub receiver_moves_per_turn: Option<u8>,
    /// Whether the extra moves apply to the receiver's first turn only (Xiangqi move odds)
    /// or to every turn (MiniShogi levels 2 and 6).
    pub first_turn_only: bool,
    /// The receiver's extra moves may not capture.
    pub extra_moves_no_capture: bool,
    /// The receiver's extra moves may not give check (Xiangqi move odds, interpretation).
    pub extra_moves_no_check: bool,
    /// Xiangqi river restriction on the extra moves.
    pub river: RiverRestriction,
    /// Xiangqi capture bans protecting unmoved pieces of the giver.
    pub capture_ban: CaptureBan,
}

/// Where the receiver's pieces may go during the extra moves of a Xiangqi move handicap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum RiverRestriction {
    /// No restriction.
    #[default]
    None,
    /// No piece may cross the river (three moves).
    NoCrossing,
    /// No piece may cross the river, and only soldiers may stand on the receiver's own
    /// river bank (four or more moves).
    NoCrossingOnlySoldiersOnBank,
}

/// The FIX capture bans of the material handicaps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum CaptureBan {
    /// No ban.
    #[default]
    None,
    /// Chariot odds: Black may not capture Red's a3 soldier, b0 horse or b2 cannon
    /// while they have not moved.
    ChariotOdds,
    /// Two horses: Red's e3 soldier may not be captured while it has not moved, unless
    /// the capturing move gives check.
    TwoHorses,
}

impl Handicap {
    /// The start position (FEN or SFEN) of the handicap game.
    pub fn start_fen(&self) -> &'static str {
        match self {
            Handicap::Xiangqi(h) => match h {
                XiangqiHandicap::Chariot => {
                    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABNR w - - 0 1"
                }
                XiangqiHandicap::TwoHorses => {
                    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/R1BAKAB1R w - - 0 1"
                }
                // Interpretation: the giver (Black) removes the horse on its left, h9.
                XiangqiHandicap::HorseAndMove => {
                    "rnbakab1r/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
                }
                // Interpretation: the giver (Red) removes its left horse, b0.
                XiangqiHandicap::OneHorse => {
                    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/R1BAKABNR w - - 0 1"
                }
                XiangqiHandicap::Moves(_) | XiangqiHandicap::ThreeMoves | XiangqiHandicap::TwoMoves => {
                    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
                }
            },
            Handicap::Shogi(h) => match h {
                ShogiHandicap::Lance => "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
                ShogiHandicap::Bishop => "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
                ShogiHandicap::Rook => "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
                ShogiHandicap::RookLance => "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
                ShogiHandicap::TwoPieces => "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
                ShogiHandicap::FourPieces => "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
                ShogiHandicap::SixPieces => "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            },
            Handicap::MiniShogi(level) => match level {
                // Level 1 only lets the weaker player choose colour: the usual start.
                MiniShogiLevel::ChooseColour => "rbsgk/4p/5/P4/KGSBR b - 1",
                MiniShogiLevel::TwoMoves | MiniShogiLevel::ThreeMoves => "rbsgk/4p/5/P4/KGSBR w - 1",
                MiniShogiLevel::PromotedRook => "rbsgk/4p/5/P4/KGSB+R w - 1",
                MiniShogiLevel::PromotedBishop => "rbsgk/4p/5/P4/KGS+BR w - 1",
                MiniShogiLevel::RookToLance => "lbsgk/4p/5/P4/KGSBR w - 1",
                MiniShogiLevel::NoBishop => "r1sgk/4p/5/P4/KGSBR w - 1",
                MiniShogiLevel::NoRook => "1bsgk/4p/5/P4/KGSBR w - 1",
            },
        }
    }

    /// The extra rules the move validator must enforce.
    pub fn rules(&self) -> HandicapRules {
        let move_odds = |moves: u8, river: RiverRestriction| HandicapRules {
            // xiangqi.md "Handicap games" interpretation: the receiver plays Red and makes
            // its N moves in a row; none may capture or give check.
            receiver: Some(Color::First),
            receiver_moves_per_turn: Some(moves),
            first_turn_only: true,
            extra_moves_no_capture: true,
            extra_moves_no_check: true,
            river,
            capture_ban: CaptureBan::None,
        };
        let every_turn = |moves: u8| HandicapRules {
            // minishogi.md "Handicaps" 2 and 6: the weaker player (Black) makes N moves in
            // each of its turns, none of which may capture.
            receiver: Some(Color::First),
            receiver_moves_per_turn: Some(moves),
            first_turn_only: false,
            extra_moves_no_capture: true,
            ..HandicapRules::default()
        };
        match self {
            Handicap::Xiangqi(XiangqiHandicap::Chariot) => {
                HandicapRules { capture_ban: CaptureBan::ChariotOdds, ..HandicapRules::default() }
            }
            Handicap::Xiangqi(XiangqiHandicap::TwoHorses) => {
                HandicapRules { capture_ban: CaptureBan::TwoHorses, ..HandicapRules::default() }
            }
            Handicap::Xiangqi(XiangqiHandicap::Moves(n)) => {
                move_odds(*n, RiverRestriction::NoCrossingOnlySoldiersOnBank)
            }
            Handicap::Xiangqi(XiangqiHandicap::ThreeMoves) => move_odds(3, RiverRestriction::NoCrossing),
            Handicap::Xiangqi(XiangqiHandicap::TwoMoves) => move_odds(2, RiverRestriction::None),
            Handicap::MiniShogi(MiniShogiLevel::TwoMoves) => every_turn(2),
            Handicap::MiniShogi(MiniShogiLevel::ThreeMoves) => every_turn(3),
            _ => HandicapRules::default(),
        }
    }

    /// The handicap's name as stored and accepted by the API, e.g. `"two-pieces"`,
    /// `"moves-5"`, `"level-6"`.
    pub fn name(&self) -> String {
        match self {
            Handicap::Xiangqi(h) => match h {
                XiangqiHandicap::Chariot => "chariot".into(),
                XiangqiHandicap::TwoHorses => "two-horses".into(),
                XiangqiHandicap::HorseAndMove => "horse-and-move".into(),
                XiangqiHandicap::OneHorse => "one-horse".into(),
                XiangqiHandicap::Moves(n) => format!("moves-{n}"),
                XiangqiHandicap::ThreeMoves => "three-moves".into(),
                XiangqiHandicap::TwoMoves => "two-moves".into(),
            },
            Handicap::Shogi(h) => match h {
                ShogiHandicap::Lance => "lance".into(),
                ShogiHandicap::Bishop => "bishop".into(),
                ShogiHandicap::Rook => "rook".into(),
                ShogiHandicap::RookLance => "rook-lance".into(),
                ShogiHandicap::TwoPieces => "two-pieces".into(),
                ShogiHandicap::FourPieces => "four-pieces".into(),
                ShogiHandicap::SixPieces => "six-pieces".into(),
            },
            Handicap::MiniShogi(level) => format!("level-{}", *level as u8 + 1),
        }
    }

    /// Every handicap of a game (`"xiangqi"`, `"shogi"` or `"minishogi"`; none for the
    /// others), smallest first as the spec lists them: the catalogue the server's
    /// challenge form offers. Xiangqi's "moves" handicap is listed from 2 to 9 moves
    /// (`parse` also reads up to `moves-20`).
    pub fn catalogue(game: &str) -> Vec<Handicap> {
        match game {
            "xiangqi" => [
                XiangqiHandicap::TwoMoves,
                XiangqiHandicap::ThreeMoves,
                XiangqiHandicap::Moves(4),
                XiangqiHandicap::Moves(5),
                XiangqiHandicap::Moves(6),
                XiangqiHandicap::Moves(7),
                XiangqiHandicap::Moves(8),
                XiangqiHandicap::Moves(9),
                XiangqiHandicap::HorseAndMove,
                XiangqiHandicap::OneHorse,
                XiangqiHandicap::Chariot,
                XiangqiHandicap::TwoHorses,
            ]
            .into_iter()
            .map(Handicap::Xiangqi)
            .collect(),
            "shogi" => [
                ShogiHandicap::Lance,
                ShogiHandicap::Bishop,
                ShogiHandicap::Rook,
                ShogiHandicap::RookLance,
                ShogiHandicap::TwoPieces,
                ShogiHandicap::FourPieces,
                ShogiHandicap::SixPieces,
            ]
            .into_iter()
            .map(Handicap::Shogi)
            .collect(),
            "minishogi" => [
                MiniShogiLevel::ChooseColour,
                MiniShogiLevel::TwoMoves,
                MiniShogiLevel::PromotedRook,
                MiniShogiLevel::PromotedBishop,
                MiniShogiLevel::RookToLance,
                MiniShogiLevel::ThreeMoves,
                MiniShogiLevel::NoBishop,
                MiniShogiLevel::NoRook,
            ]
            .into_iter()
            .map(Handicap::MiniShogi)
            .collect(),
            _ => Vec::new(),
        }
    }

    /// Parses a handicap name for a game (`"xiangqi"`, `"shogi"` or `"minishogi"`).
    ///
    /// # Errors
    ///
    /// [`UnknownHandicap`] when the name is not a handicap of that game.
    pub fn parse(game: &str, name: &str) -> Result<Handicap, UnknownHandicap> {
        let name = name.trim().to_ascii_lowercase();
        let unknown = || UnknownHandicap { game: game.to_owned(), name: name.clone() };
        let found = match game {
            "xiangqi" => Handicap::Xiangqi(match name.as_str() {
                "chariot" => XiangqiHandicap::Chariot,
                "two-horses" => XiangqiHandicap::TwoHorses,
                "horse-and-move" => XiangqiHandicap::HorseAndMove,
                "one-horse" => XiangqiHandicap::OneHorse,
                "three-moves" | "moves-3" => XiangqiHandicap::ThreeMoves,
                "two-moves" | "moves-2" => XiangqiHandicap::TwoMoves,
                other => match other.strip_prefix("moves-").and_then(|n| n.parse::<u8>().ok()) {
                    Some(n) if (4..=20).contains(&n) => XiangqiHandicap::Moves(n),
                    _ => return Err(unknown()),
                },
            }),
            "shogi" => Handicap::Shogi(match name.as_str() {
                "lance" => ShogiHandicap::Lance,
                "bishop" => ShogiHandicap::Bishop,
                "rook" => ShogiHandicap::Rook,
                "rook-lance" => ShogiHandicap::RookLance,
                "two-pieces" => ShogiHandicap::TwoPieces,
                "four-pieces" => ShogiHandicap::FourPieces,
                "six-pieces" => ShogiHandicap::SixPieces,
                _ => return Err(unknown()),
            }),
            "minishogi" => Handicap::MiniShogi(match name.as_str() {
                "level-1" => MiniShogiLevel::ChooseColour,
                "level-2" => MiniShogiLevel::TwoMoves,
                "level-3" => MiniShogiLevel::PromotedRook,
                "level-4" => MiniShogiLevel::PromotedBishop,
                "level-5" => MiniShogiLevel::RookToLance,
                "level-6" => MiniShogiLevel::ThreeMoves,
                "level-7" => MiniShogiLevel::NoBishop,
                "level-8" => MiniShogiLevel::NoRook,
                _ => return Err(unknown()),
            }),
            _ => return Err(unknown()),
        };
        Ok(found)
    }
}

impl fmt::Display for Handicap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// A handicap name that the game does not know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownHandicap {
    /// The game.
    pub game: String,
    /// The name given.
    pub name: String,
}

impl fmt::Display for UnknownHandicap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown {} handicap {:?}", self.game, self.name)
    }
}

impl std::error::Error for UnknownHandicap {}

impl FromStr for MiniShogiLevel {
    type Err = UnknownHandicap;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match Handicap::parse("minishogi", s)? {
            Handicap::MiniShogi(level) => Ok(level),
            _ => unreachable!("parse(\"minishogi\") yields MiniShogi levels"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalogue_names_every_kind_of_handicap_once_and_parses_back() {
        for (game, kinds) in [("xiangqi", 12), ("shogi", 7), ("minishogi", 8), ("flickering", 0)] {
            let catalogue = Handicap::catalogue(game);
            assert_eq!(catalogue.len(), kinds, "{game}");
            let names: std::collections::HashSet<String> = catalogue.iter().map(Handicap::name).collect();
            assert_eq!(names.len(), kinds, "{game}: no name twice");
            for handicap in catalogue {
                assert_eq!(Handicap::parse(game, &handicap.name()), Ok(handicap));
            }
        }
    }

    #[test]
    fn every_handicap_name_parses_back() {
        let all = [
            (
                "xiangqi",
                [
                    "chariot",
                    "two-horses",
                    "horse-and-move",
                    "one-horse",
                    "moves-5",
                    "three-moves",
                    "two-moves",
                ]
                .as_slice(),
            ),
            ("shogi", &["lance", "bishop", "rook", "rook-lance", "two-pieces", "four-pieces", "six-pieces"]),
            (
                "minishogi",
                &["level-1", "level-2", "level-3", "level-4", "level-5", "level-6", "level-7", "level-8"],
            ),
        ];
        for (game, names) in all {
            for name in names {
                let h = Handicap::parse(game, name).unwrap_or_else(|e| panic!("{e}"));
                assert_eq!(&h.name(), name);
            }
        }
        assert!(Handicap::parse("shogi", "level-2").is_err());
        assert!(Handicap::parse("xiangqi", "moves-3").is_ok(), "moves-3 is the three-moves handicap");
        assert!(Handicap::parse("xiangqi", "moves-99").is_err());
    }

    #[test]
    fn shogi_handicaps_start_with_white_to_move() {
        for h in [ShogiHandicap::Lance, ShogiHandicap::SixPieces] {
            assert!(Handicap::Shogi(h).start_fen().contains(" w "));
        }
    }

    #[test]
    fn minishogi_levels_two_and_six_give_black_extra_non_capturing_moves() {
        let two = Handicap::MiniShogi(MiniShogiLevel::TwoMoves).rules();
        assert_eq!(two.receiver, Some(Color::First));
        assert_eq!(two.receiver_moves_per_turn, Some(2));
        assert!(two.extra_moves_no_capture && !two.first_turn_only);
        assert_eq!(Handicap::MiniShogi(MiniShogiLevel::ThreeMoves).rules().receiver_moves_per_turn, Some(3));
    }
}
