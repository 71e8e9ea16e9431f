//! What every renderer is told besides the position.

/// How pieces are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PieceStyle {
    /// Traditional characters (帥仕相俥傌炮兵, 玉飛角金銀桂香歩...).
    #[default]
    Traditional,
    /// Westernised letters for players who do not read the characters.
    Western,
}

impl PieceStyle {
    /// Both styles, in the order the snapshots and forms list them.
    pub const ALL: [PieceStyle; 2] = [PieceStyle::Traditional, PieceStyle::Western];

    /// `traditional` or `western` (the account setting's value).
    pub fn as_str(self) -> &'static str {
        match self {
            PieceStyle::Traditional => "traditional",
            PieceStyle::Western => "western",
        }
    }

    /// Reads an account setting value; anything unknown is traditional.
    pub fn from_setting(value: &str) -> PieceStyle {
        if value == "western" {
            PieceStyle::Western
        } else {
            PieceStyle::Traditional
        }
    }
}

/// What to draw besides the position.
#[derive(Debug, Clone, Copy, Default)]
pub struct BoardOptions<'a> {
    /// The last move in canonical notation (ICCS, USI, a Flickering series `e2e4,g1f3` or a
    /// Seven Kingdoms move `Qin 騎 a13-e16`), marked on the board.
    pub last_move: Option<&'a str>,
    /// Draw from the second player's side (board turned 180°).
    pub flipped: bool,
    /// Piece style.
    pub style: PieceStyle,
}
