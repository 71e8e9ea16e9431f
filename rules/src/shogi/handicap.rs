//! Handicap start positions (`shogi.md` "Handicap games", `minishogi.md` "Handicaps").

use crate::Color;

use super::position::Setup;
use super::types::{Piece, Role, Square, Variant};

/// The standard shogi handicaps: the stronger player is White, takes pieces off and moves
/// first (`shogi.md` "Handicap games"). The KIF names are in [`Handicap::kif_name`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Handicap {
    /// 香落ち: White's left lance (1a).
    Lance,
    /// 右香落ち: White's right lance (9a).
    RightLance,
    /// 角落ち: the bishop.
    Bishop,
    /// 飛車落ち: the rook.
    Rook,
    /// 飛香落ち: rook and left lance.
    RookLance,
    /// 二枚落ち: rook and bishop.
    TwoPieces,
    /// 三枚落ち: rook, bishop and left lance.
    ThreePieces,
    /// 四枚落ち: rook, bishop and both lances.
    FourPieces,
    /// 五枚落ち: four pieces and the 8a knight.
    FivePieces,
    /// 左五枚落ち: four pieces and the 2a knight.
    LeftFivePieces,
    /// 六枚落ち: rook, bishop, lances and knights.
    SixPieces,
    /// 八枚落ち: six pieces and the silvers.
    EightPieces,
    /// 十枚落ち: eight pieces and the golds (the king alone).
    TenPieces,
}

impl Handicap {
    /// Every handicap, smallest first.
    pub const ALL: [Handicap; 13] = [
        Handicap::Lance,
        Handicap::RightLance,
        Handicap::Bishop,
        Handicap::Rook,
        Handicap::RookLance,
        Handicap::TwoPieces,
        Handicap::ThreePieces,
        Handicap::FourPieces,
        Handicap::FivePieces,
        Handicap::LeftFivePieces,
        Handicap::SixPieces,
        Handicap::EightPieces,
        Handicap::TenPieces,
    ];

    /// The KIF name (`手合割`).
    pub const fn kif_name(self) -> &'static str {
        match self {
            Handicap::Lance => "香落ち",
            Handicap::RightLance => "右香落ち",
            Handicap::Bishop => "角落ち",
            Handicap::Rook => "飛車落ち",
            Handicap::RookLance => "飛香落ち",
            Handicap::TwoPieces => "二枚落ち",
            Handicap::ThreePieces => "三枚落ち",
            Handicap::FourPieces => "四枚落ち",
            Handicap::FivePieces => "五枚落ち",
            Handicap::LeftFivePieces => "左五枚落ち",
            Handicap::SixPieces => "六枚落ち",
            Handicap::EightPieces => "八枚落ち",
            Handicap::TenPieces => "十枚落ち",
        }
    }

    /// White's squares emptied, as `(file, rank)`.
    fn removed(self) -> &'static [(u8, u8)] {
        const R: (u8, u8) = (8, 2);
        const B: (u8, u8) = (2, 2);
        match self {
            Handicap::Lance => &[(1, 1)],
            Handicap::RightLance => &[(9, 1)],
            Handicap::Bishop => &[B],
            Handicap::Rook => &[R],
            Handicap::RookLance => &[R, (1, 1)],
            Handicap::TwoPieces => &[R, B],
            Handicap::ThreePieces => &[R, B, (1, 1)],
            Handicap::FourPieces => &[R, B, (1, 1), (9, 1)],
            Handicap::FivePieces => &[R, B, (1, 1), (9, 1), (8, 1)],
            Handicap::LeftFivePieces => &[R, B, (1, 1), (9, 1), (2, 1)],
            Handicap::SixPieces => &[R, B, (1, 1), (9, 1), (8, 1), (2, 1)],
            Handicap::EightPieces => &[R, B, (1, 1), (9, 1), (8, 1), (2, 1), (7, 1), (3, 1)],
            Handicap::TenPieces => &[R, B, (1, 1), (9, 1), (8, 1), (2, 1), (7, 1), (3, 1), (6, 1), (4, 1)],
        }
    }
}

/// The MiniShogi handicap levels that change the start position (`minishogi.md`
/// "Handicaps" 3, 4, 7, 8). Levels 1, 2 and 6 keep the start position (colour choice,
/// several moves a turn). Level 5 (the stronger player's rook replaced by a lance) is not
/// offered: the lance is not a MiniShogi piece and positions holding one are rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MiniHandicap {
    /// Level 3: the weaker player's (Black's) rook starts promoted.
    PromotedRook,
    /// Level 4: the weaker player's bishop starts promoted.
    PromotedBishop,
    /// Level 7: the stronger player's (White's) bishop is removed.
    NoBishop,
    /// Level 8: the stronger player's rook is removed.
    NoRook,
}

impl Setup {
    /// A shogi handicap start position: White to move.
    pub fn handicap(handicap: Handicap) -> Setup {
        let mut setup = Setup::startpos(Variant::Standard);
        for &(file, rank) in handicap.removed() {
            if let Some(sq) = Square::new(file, rank) {
                setup.board[sq.index()] = None;
            }
        }
        setup.turn = Color::Second;
        setup
    }

    /// A MiniShogi handicap start position: White (the stronger player) to move.
    pub fn mini_handicap(handicap: MiniHandicap) -> Setup {
        let mut setup = Setup::startpos(Variant::Mini);
        let square = |file, rank| Square::new(file, rank).map(Square::index);
        let (index, piece) = match handicap {
            MiniHandicap::PromotedRook => {
                (square(1, 5), Some(Piece { color: Color::First, role: Role::Dragon }))
            }
            MiniHandicap::PromotedBishop => {
                (square(2, 5), Some(Piece { color: Color::First, role: Role::Horse }))
            }
            MiniHandicap::NoBishop => (square(4, 1), None),
            MiniHandicap::NoRook => (square(5, 1), None),
        };
        if let Some(i) = index {
            setup.board[i] = piece;
        }
        setup.turn = Color::Second;
        setup
    }
}
