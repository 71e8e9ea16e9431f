//! Judging a move by the change of the mover's winning chances, as lichess does
//! (lila `modules/analyse/src/main/Advice.scala`, `WinPercent.scala`).
//!
//! A score becomes winning chances in [-1, 1] by the logistic curve lichess fitted to its
//! games, `2 / (1 + e^(-0.00368208 · cp)) - 1`, with the centipawns capped at ±1000 and a
//! mate counted as the cap (so a mate lost or allowed counts like a lost position). A
//! move that lowers its mover's chances by at least 0.3 is a blunder (`??`), by 0.2 a
//! mistake (`?`), by 0.1 an inaccuracy (`?!`). Fairy-Stockfish's centipawns are a pawn of
//! each game's own value; the same curve is used for every game.

use serde::Serialize;

use super::uci::Score;

/// Centipawns past which a score counts as won.
const CP_CAP: i32 = 1000;
/// The slope of lichess's winning-chances curve.
const SLOPE: f64 = 0.003_682_08;

/// How bad a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Judgement {
    /// Lost 0.1 of the winning chances (`?!`).
    Inaccuracy,
    /// Lost 0.2 (`?`).
    Mistake,
    /// Lost 0.3 (`??`).
    Blunder,
}

impl Judgement {
    /// The mark of the move list.
    pub fn mark(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }
}

/// The winning chances of a score, from the same point of view, in [-1, 1]. A mate in 0
/// (the side whose view it is has been mated) is -1.
pub fn winning_chances(score: Score) -> f64 {
    let cp = match score {
        Score::Cp(cp) => cp.clamp(-CP_CAP, CP_CAP),
        Score::Mate(n) if n > 0 => CP_CAP,
        Score::Mate(_) => -CP_CAP,
    };
    2.0 / (1.0 + (-SLOPE * f64::from(cp)).exp()) - 1.0
}

/// The judgement of a move from `before` to `after`, both from the mover's point of view.
pub fn judge(before: Score, after: Score) -> Option<Judgement> {
    let lost = winning_chances(before) - winning_chances(after);
    if lost >= 0.3 {
        Some(Judgement::Blunder)
    } else if lost >= 0.2 {
        Some(Judgement::Mistake)
    } else if lost >= 0.1 {
        Some(Judgement::Inaccuracy)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_thresholds_are_lichess_s() {
        assert_eq!(judge(Score::Cp(30), Score::Cp(10)), None, "a fifth of a pawn is nothing");
        assert_eq!(judge(Score::Cp(0), Score::Cp(-60)), Some(Judgement::Inaccuracy));
        assert_eq!(judge(Score::Cp(0), Score::Cp(-120)), Some(Judgement::Mistake));
        assert_eq!(judge(Score::Cp(35), Score::Cp(-460)), Some(Judgement::Blunder));
        assert_eq!(judge(Score::Cp(900), Score::Cp(1200)), None, "a gain is no mistake");
        // In a won position, a few pawns less change little.
        assert_eq!(judge(Score::Cp(1500), Score::Cp(900)), None);
        assert_eq!(judge(Score::Mate(3), Score::Cp(-200)), Some(Judgement::Blunder), "a mate let go");
        assert_eq!(judge(Score::Cp(0), Score::Mate(-2)), Some(Judgement::Blunder), "a mate allowed");
    }

    #[test]
    fn chances_are_symmetric_and_bounded() {
        assert!(winning_chances(Score::Cp(0)).abs() < 1e-9);
        assert!((winning_chances(Score::Cp(300)) + winning_chances(Score::Cp(-300))).abs() < 1e-9);
        assert!(winning_chances(Score::Mate(1)) < 1.0 && winning_chances(Score::Mate(0)) > -1.0);
        assert_eq!(Judgement::Blunder.mark(), "??");
    }
}
