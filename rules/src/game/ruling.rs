//! Rulings: why a game law ended a game, as data a director can check against the rule
//! text and a renderer can turn into a sentence in any language (issue 15 §2).
//!
//! Every game of the crate produces a [`Ruling`] when one of its laws ends the game
//! (checkmate, no legal move, perpetual check or chase, automatic draws, sennichite,
//! repetition, jishogi, impasse, the Seven Kingdoms' endings): the law, where the rule
//! text says it, the ply that ended the game, the side ruled against, and the
//! [`Evidence`] the law looked at. The struct holds no prose: codes, numbers, squares in
//! the game's own coordinates (ICCS `e2` for Xiangqi, USI `7g` for Shogi and MiniShogi,
//! algebraic `e4` for Flickering chess, `a13` for the Seven Kingdoms), pieces by kind,
//! moves in the canonical notation (ICCS, USI, coordinate series, the Seven Kingdoms
//! move), plies 1-based (ply 1 is the first move; 0 names the start position).
//!
//! With the `serde` feature the types serialize to JSON with snake_case field names and
//! kebab-case codes; the evidence is an object tagged by `kind`. An example (Red's
//! chariot chases Black's unprotected horse seven times):
//!
//! ```json
//! {"law":"perpetual-chase",
//!  "citation":{"spec":"xiangqi.md","section":"CXQ supplementary rules: perpetual check and perpetual chase","items":[2,3,5],"interpretation":true},
//!  "ply":13,"against":"first",
//!  "evidence":{"kind":"cxq-series",
//!   "series":{"kind":"chase","side":"first","target":{"piece":"horse","side":"second","square":"b7"},
//!             "length":7,"pieces":1,"allowance":6,"perpetual":true,"used_allowance":true,
//!             "plies":[{"ply":1,"move":"a0b0","by":[{"piece":"chariot","side":"first","square":"b0"}],
//!                       "target":{"piece":"horse","side":"second","square":"b7"}}]},
//!   "opponent_check":null,"opponent_chase":null,
//!   "limits":{"per_piece":6,"max_pieces":3}}}
//! ```

use crate::Color;

/// Why a law ended a game.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Ruling {
    /// The law, as the kebab-case code the game's end reason has everywhere else
    /// ([`crate::EndReason::as_str`], or the Seven Kingdoms' `EndCause::as_str`):
    /// `perpetual-chase`, `sennichite`, `jishogi-count`, `hegemony-generals`...
    pub law: &'static str,
    /// Where the rule text states the law.
    pub citation: Citation,
    /// The ply (1-based) whose move ended the game; 0 when the start position was
    /// already decided; for a claim, the ply after which it was made.
    pub ply: u32,
    /// The side ruled against (the loser) in a two-player game; `None` for a draw and
    /// for the Seven Kingdoms (see [`Evidence::SevenKingdoms`]).
    pub against: Option<Color>,
    /// What the law looked at.
    pub evidence: Evidence,
}

/// A place in the specification (`../shared/rules/*.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Citation {
    /// The specification file, e.g. `xiangqi.md`.
    pub spec: &'static str,
    /// The section heading, e.g. `CXQ automatic draws`.
    pub section: &'static str,
    /// The numbered rules of the section that apply (empty when it has none).
    pub items: &'static [u8],
    /// Whether the section's **Interpretation** paragraph decides too.
    pub interpretation: bool,
}

/// A piece as a ruling names it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PieceAt {
    /// The kind, kebab-case: `chariot`, `horse`, `promoted-silver`, `queen`...
    pub piece: &'static str,
    /// The side it belongs to.
    pub side: Color,
    /// Where it stands, in the game's coordinates; `None` for a piece in hand.
    pub square: Option<String>,
}

/// A ply and its move, canonical.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PlyMove {
    /// 1-based ply.
    pub ply: u32,
    /// The move in the canonical notation.
    #[cfg_attr(feature = "serde", serde(rename = "move"))]
    pub mv: String,
}

/// What the law looked at, by kind of law.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(tag = "kind", rename_all = "kebab-case"))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum Evidence {
    /// Checkmate, stalemate, no legal move (Xiangqi, Shogi, MiniShogi), mate and
    /// stalemate over series (Flickering chess).
    NoLegalMove(NoLegalMove),
    /// CXQ perpetual check or chase, alone or mutual (`xiangqi.md` rules 1 to 5).
    CxqSeries(CxqSeries),
    /// CXQ automatic draw 2: 30 moves each without progress.
    NoProgress(NoProgress),
    /// CXQ automatic draw 1: 120 effective moves each.
    EffectiveMoves(EffectiveMoves),
    /// CXQ automatic draw 3: 300 moves each.
    MoveLimit(MoveLimit),
    /// CXQ dead position: the pieces left.
    DeadPosition(DeadPosition),
    /// Sennichite, the MiniShogi repetition laws, the Flickering repetition claim.
    Repetition(Repetition),
    /// Jishogi (friendly or counted) and the Shogi 24-point impasse count.
    PointCount(PointCount),
    /// The Shogi 27-point impasse declaration.
    Declaration(Declaration),
    /// The Seven Kingdoms: hegemony, last alliance, no legal moves.
    SevenKingdoms(SevenKingdoms),
}

/// The side to move had no legal move (or, in Flickering chess, no series ending with
/// its king free).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NoLegalMove {
    /// The side to move, which could not move (or not save its king).
    pub side: Color,
    /// Whether its king was attacked.
    pub in_check: bool,
    /// The enemy pieces attacking its king.
    pub checkers: Vec<PieceAt>,
    /// Its legal moves (Flickering chess: first moves of a series; 0 elsewhere, since
    /// the law is that there are none).
    pub legal_moves: u32,
}

/// A CXQ series ruling (`xiangqi.md` "CXQ supplementary rules").
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CxqSeries {
    /// The series the ending move made perpetual (the mover's).
    pub series: SeriesExplained,
    /// The opponent's check series as it stood, if it had one running (rule 5).
    pub opponent_check: Option<SeriesExplained>,
    /// The opponent's chase series as it stood: one that had used its allowance, else
    /// its longest running one, if any (rule 5).
    pub opponent_chase: Option<SeriesExplained>,
    /// The ruleset's series limits.
    pub limits: SeriesLimits,
}

/// The series limits of the ruleset (`CxqLimits`, rule 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SeriesLimits {
    /// Moves allowed per distinct piece (6).
    pub per_piece: u32,
    /// Distinct pieces that raise the allowance, at most (3).
    pub max_pieces: u32,
}

/// Check or chase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "kebab-case"))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum SeriesKind {
    /// A check series (rule 1).
    Check,
    /// A chase series against one target (rule 2).
    Chase,
}

/// One series, ply by ply.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SeriesExplained {
    /// Check or chase.
    pub kind: SeriesKind,
    /// The side making it.
    pub side: Color,
    /// The piece checked (the king) or chased, where it stands when the game ended.
    pub target: PieceAt,
    /// Its length in moves of that side.
    pub length: u32,
    /// The distinct pieces used in it.
    pub pieces: u32,
    /// The longest series allowed with that many pieces: `per_piece x min(pieces,
    /// max_pieces)`.
    pub allowance: u32,
    /// Whether the series exceeds its allowance.
    pub perpetual: bool,
    /// Whether it has used its whole allowance (how rule 5 counts the opponent's
    /// series as perpetual too).
    pub used_allowance: bool,
    /// Its moves, first to last.
    pub plies: Vec<SeriesPly>,
}

/// One move of a series.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SeriesPly {
    /// 1-based ply.
    pub ply: u32,
    /// The move, canonical.
    #[cfg_attr(feature = "serde", serde(rename = "move"))]
    pub mv: String,
    /// The pieces that checked or attacked with this move, where they stood after it.
    pub by: Vec<PieceAt>,
    /// What they checked or attacked, where it stood after the move.
    pub target: PieceAt,
}

/// CXQ automatic draw 2 (`xiangqi.md` "CXQ automatic draws" 2).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NoProgress {
    /// Moves each side may make without progress (30).
    pub limit_per_side: u32,
    /// Plies counted without progress.
    pub plies: u32,
    /// The first and last plies counted.
    pub from_ply: u32,
    /// The last ply counted (the one that ended the game).
    pub to_ply: u32,
    /// The last progress (a capture or a crossed soldier's forward move) before them;
    /// `None` when the game had none.
    pub last_progress: Option<PlyMove>,
}

/// CXQ automatic draw 1 (`xiangqi.md` "CXQ automatic draws" 1).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EffectiveMoves {
    /// Effective moves each side must have made (120).
    pub limit_per_side: u32,
    /// Each side's count, first player first.
    pub sides: Vec<SideMoves>,
}

/// One side's moves counted by a move-count law.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SideMoves {
    /// The side.
    pub side: Color,
    /// Moves counted.
    pub counted: u32,
    /// The plies counted (for effective moves: the effective ones).
    pub plies: Vec<u32>,
    /// The last move counted.
    pub last: Option<PlyMove>,
}

/// CXQ automatic draw 3 (`xiangqi.md` "CXQ automatic draws" 3).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MoveLimit {
    /// Moves each side must have made (300).
    pub limit_per_side: u32,
    /// Moves made by each side, first player first.
    pub moves: Vec<u32>,
}

/// CXQ dead position (`xiangqi.md` "CXQ automatic draws").
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DeadPosition {
    /// Every piece left on the board.
    pub pieces: Vec<PieceAt>,
}

/// A repeated position.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Repetition {
    /// The position (FEN or SFEN).
    pub position: String,
    /// The plies after which it stood, 0 for the start (Flickering chess: series).
    pub occurrences: Vec<u32>,
    /// The side to move in it, which made the first move of the repeated cycle.
    pub cycle_started_by: Color,
    /// The sides every one of whose moves since the first occurrence was a check.
    pub checking_throughout: Vec<Color>,
}

/// A point count of both sides (jishogi, the 24-point impasse).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PointCount {
    /// Both kings, in the zones that brought the count.
    pub kings: Vec<PieceAt>,
    /// Points a side needs not to lose (11, 24); `None` where nothing is counted
    /// (a friendly MiniShogi jishogi is a draw).
    pub threshold: Option<u32>,
    /// Each side's count, first player first (empty when nothing is counted).
    pub counts: Vec<SideCount>,
}

/// One side's points, piece by piece.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SideCount {
    /// The side.
    pub side: Color,
    /// Its total.
    pub points: u32,
    /// The pieces counted.
    pub pieces: Vec<CountedPiece>,
}

/// A piece counted for points.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CountedPiece {
    /// The kind as it stands (`dragon`, `promoted-pawn`...).
    pub piece: &'static str,
    /// Its square; `None` in hand.
    pub square: Option<String>,
    /// How many (more than 1 only for pieces in hand).
    pub count: u32,
    /// Points for all of them.
    pub points: u32,
}

/// The 27-point declaration (`shogi.md` "End of the game", Impasse).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Declaration {
    /// Who declared.
    pub declarer: Color,
    /// The declarer's king.
    pub king: PieceAt,
    /// Whether the king stands in the enemy camp.
    pub king_in_camp: bool,
    /// Whether the declarer was in check.
    pub in_check: bool,
    /// The declarer's other pieces in the enemy camp.
    pub pieces_in_camp: u32,
    /// How many are needed (10).
    pub pieces_needed: u32,
    /// Points: pieces in the enemy camp plus pieces in hand.
    pub points: u32,
    /// Points needed (28 for Black, 27 for White).
    pub points_needed: u32,
    /// Whether every condition was met (the declarer wins; otherwise loses).
    pub valid: bool,
    /// The pieces counted.
    pub pieces: Vec<CountedPiece>,
}

/// How a Seven Kingdoms game ended (`seven-kingdoms.md` "Defeat of a kingdom and
/// victory").
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SevenKingdoms {
    /// The hegemon, or the seat whose alliance remains; `None` when no kingdom could move.
    pub seat: Option<usize>,
    /// Generals a hegemon captures (2).
    pub generals_needed: u32,
    /// Pieces a hegemon captures (30).
    pub pieces_needed: u32,
    /// Every seat, best first.
    pub standings: Vec<KingdomsStanding>,
}

/// One seat's captures at the end of a Seven Kingdoms game.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct KingdomsStanding {
    /// The seat, 0-based in turn order.
    pub seat: usize,
    /// The kingdoms it commands (`Qin`, `Yan`...).
    pub kingdoms: Vec<&'static str>,
    /// Pieces captured.
    pub captured_pieces: u32,
    /// Generals among them.
    pub captured_generals: u32,
    /// The historical value of the pieces captured.
    pub value_score: u32,
    /// 1 for the winners.
    pub place: u32,
    /// Whether it won (alone or shared).
    pub winner: bool,
    /// Whether all its kingdoms are out.
    pub out: bool,
}
