//! The vocabulary of the game: kingdoms, piece kinds, pieces, points and moves.

use std::fmt;

/// One of the seven kingdoms, in turn order (`seven-kingdoms.md` "Board, players, pieces":
/// Qin, Chu, Han, Qi, Wei, Zhao, Yan, and round again).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kingdom {
    /// 秦, white, the west.
    Qin,
    /// 楚, red, the south-west.
    Chu,
    /// 韓, orange, the south-east.
    Han,
    /// 齊, blue, the east (southern half).
    Qi,
    /// 魏, green, the east (northern half).
    Wei,
    /// 趙, purple, the north-east.
    Zhao,
    /// 燕, black, the north-west.
    Yan,
}

impl Kingdom {
    /// The seven kingdoms in turn order.
    pub const ALL: [Kingdom; 7] =
        [Kingdom::Qin, Kingdom::Chu, Kingdom::Han, Kingdom::Qi, Kingdom::Wei, Kingdom::Zhao, Kingdom::Yan];

    /// Position in the turn order, 0 (Qin) to 6 (Yan): for indexing per-kingdom arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kingdom at `index` in the turn order, if `index < 7`.
    pub const fn from_index(index: usize) -> Option<Kingdom> {
        if index < 7 {
            Some(Kingdom::ALL[index])
        } else {
            None
        }
    }

    /// The kingdom that follows in the turn order (Yan is followed by Qin).
    #[inline]
    pub const fn next(self) -> Kingdom {
        Kingdom::ALL[(self.index() + 1) % 7]
    }

    /// The English name, e.g. `"Qin"`, as written in the move notation.
    pub const fn name(self) -> &'static str {
        match self {
            Kingdom::Qin => "Qin",
            Kingdom::Chu => "Chu",
            Kingdom::Han => "Han",
            Kingdom::Qi => "Qi",
            Kingdom::Wei => "Wei",
            Kingdom::Zhao => "Zhao",
            Kingdom::Yan => "Yan",
        }
    }

    /// The Chinese character, e.g. `'秦'`.
    pub const fn char(self) -> char {
        match self {
            Kingdom::Qin => '秦',
            Kingdom::Chu => '楚',
            Kingdom::Han => '韓',
            Kingdom::Qi => '齊',
            Kingdom::Wei => '魏',
            Kingdom::Zhao => '趙',
            Kingdom::Yan => '燕',
        }
    }

    /// The kingdom's colour in English (`seven-kingdoms.md` "Board, players, pieces").
    pub const fn colour(self) -> &'static str {
        match self {
            Kingdom::Qin => "white",
            Kingdom::Chu => "red",
            Kingdom::Han => "orange",
            Kingdom::Qi => "blue",
            Kingdom::Wei => "green",
            Kingdom::Zhao => "purple",
            Kingdom::Yan => "black",
        }
    }

    /// Reads an English name (any case) or a Chinese character, traditional or simplified.
    pub fn from_name(text: &str) -> Option<Kingdom> {
        let found = match text {
            "秦" => Kingdom::Qin,
            "楚" => Kingdom::Chu,
            "韓" | "韩" => Kingdom::Han,
            "齊" | "齐" => Kingdom::Qi,
            "魏" => Kingdom::Wei,
            "趙" | "赵" => Kingdom::Zhao,
            "燕" => Kingdom::Yan,
            _ => return Kingdom::ALL.into_iter().find(|k| k.name().eq_ignore_ascii_case(text)),
        };
        Some(found)
    }
}

impl fmt::Display for Kingdom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The ten kinds of piece of an army (`seven-kingdoms.md` "Board, players, pieces", the table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceKind {
    /// 將: any distance orthogonally or diagonally.
    General,
    /// 偏: any distance orthogonally.
    Deputy,
    /// 裨: any distance diagonally.
    Officer,
    /// 行人: like the general, but never captures and can never be captured.
    Diplomat,
    /// 砲: moves any distance orthogonally, captures by jumping exactly one piece.
    Catapult,
    /// 弓: one to four points orthogonally or diagonally.
    Archer,
    /// 弩: one to five points orthogonally or diagonally.
    Crossbow,
    /// 刀: one point diagonally.
    Sword,
    /// 劍: one point orthogonally.
    Broadsword,
    /// 騎: one point orthogonally, then three diagonally outward.
    Horseman,
}

impl PieceKind {
    /// Every kind, in the order of the rules' table.
    pub const ALL: [PieceKind; 10] = [
        PieceKind::General,
        PieceKind::Deputy,
        PieceKind::Officer,
        PieceKind::Diplomat,
        PieceKind::Catapult,
        PieceKind::Archer,
        PieceKind::Crossbow,
        PieceKind::Sword,
        PieceKind::Broadsword,
        PieceKind::Horseman,
    ];

    /// 0..10, the position in [`PieceKind::ALL`].
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// How many of this kind one army has (the table's "count" column; 17 in all).
    pub const fn count_per_army(self) -> u8 {
        match self {
            PieceKind::Sword => 2,
            PieceKind::Broadsword | PieceKind::Horseman => 4,
            _ => 1,
        }
    }

    /// The historical value (`seven-kingdoms.md` "Defeat of a kingdom and victory": horseman 2,
    /// catapult 3, officer 4, deputy 5, the others 1), the secondary score.
    pub const fn historical_value(self) -> u32 {
        match self {
            PieceKind::Horseman => 2,
            PieceKind::Catapult => 3,
            PieceKind::Officer => 4,
            PieceKind::Deputy => 5,
            _ => 1,
        }
    }

    /// The Chinese name as the rules write it: one character, or 行人 for the diplomat.
    pub const fn chinese(self) -> &'static str {
        match self {
            PieceKind::General => "將",
            PieceKind::Deputy => "偏",
            PieceKind::Officer => "裨",
            PieceKind::Diplomat => "行人",
            PieceKind::Catapult => "砲",
            PieceKind::Archer => "弓",
            PieceKind::Crossbow => "弩",
            PieceKind::Sword => "刀",
            PieceKind::Broadsword => "劍",
            PieceKind::Horseman => "騎",
        }
    }

    /// The English name in lower case, e.g. `"horseman"`: the ASCII notation.
    pub const fn english(self) -> &'static str {
        match self {
            PieceKind::General => "general",
            PieceKind::Deputy => "deputy",
            PieceKind::Officer => "officer",
            PieceKind::Diplomat => "diplomat",
            PieceKind::Catapult => "catapult",
            PieceKind::Archer => "archer",
            PieceKind::Crossbow => "crossbow",
            PieceKind::Sword => "sword",
            PieceKind::Broadsword => "broadsword",
            PieceKind::Horseman => "horseman",
        }
    }

    /// Reads a Chinese name (traditional or simplified, 行 alone for the diplomat) or an
    /// English name in any case.
    pub fn from_name(text: &str) -> Option<PieceKind> {
        let found = match text {
            "將" | "将" => PieceKind::General,
            "偏" => PieceKind::Deputy,
            "裨" => PieceKind::Officer,
            "行人" | "行" => PieceKind::Diplomat,
            "砲" | "炮" => PieceKind::Catapult,
            "弓" => PieceKind::Archer,
            "弩" => PieceKind::Crossbow,
            "刀" => PieceKind::Sword,
            "劍" | "剑" => PieceKind::Broadsword,
            "騎" | "骑" => PieceKind::Horseman,
            _ => return PieceKind::ALL.into_iter().find(|k| k.english().eq_ignore_ascii_case(text)),
        };
        Some(found)
    }
}

impl fmt::Display for PieceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.chinese())
    }
}

/// A piece of one kingdom's army.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// The army it belongs to.
    pub kingdom: Kingdom,
    /// What it is.
    pub kind: PieceKind,
}

/// What can stand on a point: the Zhou emperor or an army's piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Occupant {
    /// The Zhou emperor 周: belongs to nobody, never moves, cannot be captured, blocks lines.
    Emperor,
    /// A piece of one of the kingdoms.
    Piece(Piece),
}

/// A point (intersection) of the 19 x 19 board: x = 0..18 west to east, y = 0..18 south to
/// north (`seven-kingdoms.md` "Board, players, pieces"). Always on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    x: u8,
    y: u8,
}

impl Point {
    /// Points per side.
    pub const SIDE: u8 = 19;
    /// Points on the board.
    pub const COUNT: usize = 361;
    /// The emperor's point, (9, 9).
    pub const CENTRE: Point = Point { x: 9, y: 9 };

    /// The point (x, y), if both are in 0..=18.
    pub const fn new(x: u8, y: u8) -> Option<Point> {
        if x < Self::SIDE && y < Self::SIDE {
            Some(Point { x, y })
        } else {
            None
        }
    }

    /// The point (x, y) from signed coordinates, if on the board.
    #[inline]
    pub const fn from_signed(x: i32, y: i32) -> Option<Point> {
        if x >= 0 && y >= 0 && x < Self::SIDE as i32 && y < Self::SIDE as i32 {
            Some(Point { x: x as u8, y: y as u8 })
        } else {
            None
        }
    }

    /// West-to-east coordinate, 0..=18.
    #[inline]
    pub const fn x(self) -> u8 {
        self.x
    }

    /// South-to-north coordinate, 0..=18.
    #[inline]
    pub const fn y(self) -> u8 {
        self.y
    }

    /// `y * 19 + x`, 0..361: for indexing the board.
    #[inline]
    pub const fn index(self) -> usize {
        self.y as usize * Self::SIDE as usize + self.x as usize
    }

    /// The point at `index` (`y * 19 + x`), if `index < 361`.
    pub const fn from_index(index: usize) -> Option<Point> {
        if index < Self::COUNT {
            Some(Point { x: (index % 19) as u8, y: (index / 19) as u8 })
        } else {
            None
        }
    }

    /// Every point, row by row from the south-west corner.
    pub fn all() -> impl Iterator<Item = Point> {
        (0..Self::COUNT).filter_map(Point::from_index)
    }

    /// The point moved by (dx, dy), if still on the board.
    #[inline]
    pub const fn offset(self, dx: i32, dy: i32) -> Option<Point> {
        Point::from_signed(self.x as i32 + dx, self.y as i32 + dy)
    }
}

impl fmt::Display for Point {
    /// The letter-number form of the notation: `a1` is (0, 0), `s19` is (18, 18).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.x) as char, self.y + 1)
    }
}

/// A move of one piece from one point to another (a capture when the target holds a piece).
/// The mover is whatever stands on `from`; the kingdom is the one to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Where the piece stands.
    pub from: Point,
    /// Where it goes.
    pub to: Point,
}

/// How far the horseman goes diagonally after its straight step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum HorsemanRule {
    /// Exactly three diagonal steps (`seven-kingdoms.md` "Board, players, pieces",
    /// Interpretation: "four steps: one straight and three diagonal"). The default.
    #[default]
    ThreeDiagonal,
    /// One to three diagonal steps: the other reading, offered as a ruleset option.
    UpToThreeDiagonal,
}

impl HorsemanRule {
    /// `three-diagonal` or `up-to-three-diagonal`, as the position text writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            HorsemanRule::ThreeDiagonal => "three-diagonal",
            HorsemanRule::UpToThreeDiagonal => "up-to-three-diagonal",
        }
    }

    /// Reads [`HorsemanRule::as_str`]'s names.
    pub fn from_name(text: &str) -> Option<HorsemanRule> {
        [HorsemanRule::ThreeDiagonal, HorsemanRule::UpToThreeDiagonal]
            .into_iter()
            .find(|r| r.as_str() == text)
    }
}
