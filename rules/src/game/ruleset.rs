//! Rulesets: the laws a game is judged by, with every limit in one value so that a
//! tournament can change them.

use std::fmt;
use std::str::FromStr;

/// The limits of the CXQ supplementary rules (`xiangqi.md` "CXQ supplementary rules"
/// and "CXQ automatic draws").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CxqLimits {
    /// Consecutive checks or attacks allowed per distinct piece before a series is
    /// perpetual (rule 3: 6 with one piece).
    pub series_per_piece: u32,
    /// At most this many distinct pieces raise the allowance (rule 3: 18 with three pieces).
    pub series_max_pieces: u32,
    /// Efficiency draw: each side has made this many effective moves (120).
    pub effective_moves: u32,
    /// Progress draw: each side has made this many moves since the last progress (30).
    pub moves_without_progress: u32,
    /// Length draw: each side has made this many moves (300).
    pub moves_per_side: u32,
}

impl CxqLimits {
    /// The published CXQ numbers: 6/12/18, 120, 30, 300.
    pub const STANDARD: CxqLimits = CxqLimits {
        series_per_piece: 6,
        series_max_pieces: 3,
        effective_moves: 120,
        moves_without_progress: 30,
        moves_per_side: 300,
    };

    /// The longest series that is not yet perpetual, for a series made with `pieces`
    /// distinct pieces: `6 x min(k, 3)` (`xiangqi.md` "Interpretation").
    pub fn series_allowance(&self, pieces: u32) -> u32 {
        self.series_per_piece * pieces.clamp(1, self.series_max_pieces)
    }
}

impl Default for CxqLimits {
    fn default() -> Self {
        CxqLimits::STANDARD
    }
}

/// How a Shogi impasse is decided (`shogi.md` "End of the game", Impasse).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum ImpasseRule {
    /// The 24-point rule, on a player's claim when both kings are in their zones (default).
    #[default]
    TwentyFourPoints,
    /// The 27-point declaration (28 for Black, 27 for White).
    TwentySevenDeclaration,
}

/// How a MiniShogi fourfold repetition is decided (`minishogi.md` "End of the game").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum MiniRepetitionRule {
    /// AISE: a perpetual checker loses, otherwise the player who started the cycle loses.
    #[default]
    Aise,
    /// Modern Japanese reading: a perpetual checker loses, otherwise the first player loses.
    Modern,
}

/// The laws a game is played under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ruleset {
    /// Xiangqi under the CXQ rules (the default for Xiangqi).
    Cxq(CxqLimits),
    /// Xiangqi by the basic rules only: no repetition law, no automatic draws.
    XiangqiBasic,
    /// Shogi with sennichite and the given impasse rule.
    Shogi(ImpasseRule),
    /// MiniShogi with the given repetition rule; `tournament` selects the 11-point
    /// jishogi count instead of a jishogi draw.
    MiniShogi {
        /// Repetition rule.
        repetition: MiniRepetitionRule,
        /// Tournament mode: jishogi is counted.
        tournament: bool,
    },
    /// Flickering chess: mate and stalemate over series, claimable threefold repetition.
    Flickering,
    /// The Seven Kingdoms: defeat, hegemony and captures.
    SevenKingdoms,
}

impl Ruleset {
    /// Every ruleset, each variant's default first (the catalogue the server's challenge
    /// form offers).
    pub const ALL: [Ruleset; 10] = [
        Ruleset::Cxq(CxqLimits::STANDARD),
        Ruleset::XiangqiBasic,
        Ruleset::Shogi(ImpasseRule::TwentyFourPoints),
        Ruleset::Shogi(ImpasseRule::TwentySevenDeclaration),
        Ruleset::MiniShogi { repetition: MiniRepetitionRule::Aise, tournament: false },
        Ruleset::MiniShogi { repetition: MiniRepetitionRule::Aise, tournament: true },
        Ruleset::MiniShogi { repetition: MiniRepetitionRule::Modern, tournament: false },
        Ruleset::MiniShogi { repetition: MiniRepetitionRule::Modern, tournament: true },
        Ruleset::Flickering,
        Ruleset::SevenKingdoms,
    ];

    /// The canonical name of the ruleset, as stored by the server and read by `--ruleset`.
    pub fn name(&self) -> &'static str {
        match self {
            Ruleset::Cxq(_) => "cxq",
            Ruleset::XiangqiBasic => "basic",
            Ruleset::Shogi(ImpasseRule::TwentyFourPoints) => "shogi-24",
            Ruleset::Shogi(ImpasseRule::TwentySevenDeclaration) => "shogi-27",
            Ruleset::MiniShogi { repetition: MiniRepetitionRule::Aise, tournament: false } => "aise",
            Ruleset::MiniShogi { repetition: MiniRepetitionRule::Aise, tournament: true } => {
                "aise-tournament"
            }
            Ruleset::MiniShogi { repetition: MiniRepetitionRule::Modern, tournament: false } => "modern",
            Ruleset::MiniShogi { repetition: MiniRepetitionRule::Modern, tournament: true } => {
                "modern-tournament"
            }
            Ruleset::Flickering => "flickering",
            Ruleset::SevenKingdoms => "seven-kingdoms",
        }
    }

    /// Whether this is a tournament game where that matters (MiniShogi jishogi count).
    pub fn is_tournament(&self) -> bool {
        matches!(self, Ruleset::MiniShogi { tournament: true, .. })
    }

    /// The same ruleset in tournament mode (only MiniShogi changes).
    pub fn with_tournament(self, tournament: bool) -> Ruleset {
        match self {
            Ruleset::MiniShogi { repetition, .. } => Ruleset::MiniShogi { repetition, tournament },
            other => other,
        }
    }
}

/// A ruleset as stored and shown: its name, and for CXQ limits other than the published
/// ones every limit, `cxq(series=4,pieces=3,effective=120,progress=30,length=300)`, which
/// [`Ruleset::from_str`] reads back. A tournament keeps its rules per event this way
/// (issue 20 §3).
impl fmt::Display for Ruleset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ruleset::Cxq(limits) if *limits != CxqLimits::STANDARD => write!(
                f,
                "cxq(series={},pieces={},effective={},progress={},length={})",
                limits.series_per_piece,
                limits.series_max_pieces,
                limits.effective_moves,
                limits.moves_without_progress,
                limits.moves_per_side
            ),
            other => f.write_str(other.name()),
        }
    }
}

/// The bounds of each CXQ limit a ruleset may set: (name, least, most).
pub const CXQ_LIMIT_BOUNDS: [(&str, u32, u32); 5] = [
    ("series", 1, 60),
    ("pieces", 1, 7),
    ("effective", 10, 1000),
    ("progress", 5, 500),
    ("length", 20, 3000),
];

/// Reads `series=4,effective=100` over the standard limits.
fn cxq_limits(parameters: &str) -> Option<CxqLimits> {
    let mut limits = CxqLimits::STANDARD;
    for pair in parameters.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=')?;
        let value: u32 = value.trim().parse().ok()?;
        let (_, least, most) = CXQ_LIMIT_BOUNDS.iter().find(|(name, _, _)| *name == key.trim())?;
        if !(*least..=*most).contains(&value) {
            return None;
        }
        let slot = match key.trim() {
            "series" => &mut limits.series_per_piece,
            "pieces" => &mut limits.series_max_pieces,
            "effective" => &mut limits.effective_moves,
            "progress" => &mut limits.moves_without_progress,
            _ => &mut limits.moves_per_side,
        };
        *slot = value;
    }
    Some(limits)
}

/// A ruleset name that is not known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownRuleset(pub String);

impl fmt::Display for UnknownRuleset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown ruleset {:?} (known: cxq, cxq(series=6,pieces=3,effective=120,progress=30,length=300), basic, shogi-24, shogi-27, aise, aise-tournament, modern, modern-tournament, flickering, seven-kingdoms)", self.0)
    }
}

impl std::error::Error for UnknownRuleset {}

impl FromStr for Ruleset {
    type Err = UnknownRuleset;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let text = s.trim().to_ascii_lowercase();
        if let Some(parameters) = text.strip_prefix("cxq(").and_then(|rest| rest.strip_suffix(')')) {
            return cxq_limits(parameters).map(Ruleset::Cxq).ok_or_else(|| UnknownRuleset(s.to_owned()));
        }
        Ok(match text.as_str() {
            "cxq" => Ruleset::Cxq(CxqLimits::STANDARD),
            "basic" | "xiangqi-basic" => Ruleset::XiangqiBasic,
            "shogi-24" | "shogi" | "24" => Ruleset::Shogi(ImpasseRule::TwentyFourPoints),
            "shogi-27" | "27" => Ruleset::Shogi(ImpasseRule::TwentySevenDeclaration),
            "aise" | "minishogi" => {
                Ruleset::MiniShogi { repetition: MiniRepetitionRule::Aise, tournament: false }
            }
            "modern" => Ruleset::MiniShogi { repetition: MiniRepetitionRule::Modern, tournament: false },
            // Tournament mode: jishogi is decided by the 11-point count (minishogi.md).
            "aise-tournament" => {
                Ruleset::MiniShogi { repetition: MiniRepetitionRule::Aise, tournament: true }
            }
            "modern-tournament" => {
                Ruleset::MiniShogi { repetition: MiniRepetitionRule::Modern, tournament: true }
            }
            "flickering" => Ruleset::Flickering,
            "seven-kingdoms" => Ruleset::SevenKingdoms,
            _ => return Err(UnknownRuleset(s.to_owned())),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cxq_allowance_is_six_per_piece_up_to_three_pieces() {
        let limits = CxqLimits::STANDARD;
        assert_eq!(limits.series_allowance(1), 6);
        assert_eq!(limits.series_allowance(2), 12);
        assert_eq!(limits.series_allowance(3), 18);
        assert_eq!(limits.series_allowance(5), 18, "more than three pieces still allow 18");
    }

    #[test]
    fn every_ruleset_is_in_the_catalogue_once() {
        let names: std::collections::HashSet<&str> = Ruleset::ALL.iter().map(Ruleset::name).collect();
        assert_eq!(names.len(), Ruleset::ALL.len());
        for ruleset in Ruleset::ALL {
            assert_eq!(ruleset.name().parse::<Ruleset>().map(|r| r.name()), Ok(ruleset.name()));
        }
    }

    #[test]
    fn ruleset_names_round_trip() {
        for name in ["cxq", "basic", "shogi-24", "shogi-27", "aise", "modern", "flickering", "seven-kingdoms"]
        {
            let ruleset: Ruleset = name.parse().unwrap();
            assert_eq!(ruleset.name(), name);
        }
        assert!("chess960".parse::<Ruleset>().is_err());
    }

    #[test]
    fn cxq_limits_other_than_the_published_ones_are_written_and_read_back() {
        let four: Ruleset = "cxq(series=4)".parse().unwrap();
        let Ruleset::Cxq(limits) = four else { panic!("{four:?}") };
        assert_eq!(limits.series_allowance(1), 4);
        assert_eq!(limits.effective_moves, 120, "the others stay the published ones");
        let text = four.to_string();
        assert_eq!(text, "cxq(series=4,pieces=3,effective=120,progress=30,length=300)");
        assert_eq!(text.parse::<Ruleset>().unwrap(), four);
        assert_eq!(
            "cxq(series=6)".parse::<Ruleset>().unwrap().to_string(),
            "cxq",
            "the standard is plain cxq"
        );
        for bad in ["cxq(series=0)", "cxq(series=four)", "cxq(speed=3)", "cxq(length=10)", "cxq(series=4"] {
            assert!(bad.parse::<Ruleset>().is_err(), "{bad}");
        }
    }
}
