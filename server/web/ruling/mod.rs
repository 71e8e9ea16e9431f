//! The ruling paragraph of the game page (issue 15 §2): a short text, in the reader's
//! language, saying which law ended the game and what it looked at, so that a director
//! can check it against the rule text. Plies are named with their move in the notation
//! the page shows (WXF or ICCS for Xiangqi, western or USI for Shogi...).
//!
//! [`paragraph`] is a pure function from the structured [`Ruling`] (the rules crate's,
//! `rules/src/game/ruling.rs`), the game's moves and the language to HTML: the game page
//! renders it on the server, and the live page can fetch the same text after a move.
//! Every word comes from the catalogues (`ruling.*` keys of `locales/*.json`); the
//! ruling's own data (squares, moves, player names) is escaped.

use tavoliere_rules::game::ruling::{
    CountedPiece, CxqSeries, DeadPosition, Declaration, EffectiveMoves, Evidence, MoveLimit, NoLegalMove,
    NoProgress, PieceAt, PointCount, Repetition, SeriesExplained, SeriesKind, SevenKingdoms,
};
use tavoliere_rules::game::Ruling;
use tavoliere_rules::variant::Variant;
use tavoliere_rules::Color;
use tavoliere_tournament::tables::html::escape;

use super::i18n::{Lang, Texts};

/// The game as the paragraph names it.
#[derive(Clone, Copy, Debug)]
pub struct RulingRecord<'a> {
    /// The game.
    pub variant: Variant,
    /// The moves in the notation the reader sees, one per stored move, first to last
    /// (ply 1 is `moves[0]`). A ply beyond them is named by the ruling's canonical move.
    pub moves: &'a [String],
}

/// The paragraph explaining `ruling` for `record`, in `lang`, as HTML (no enclosing
/// element: the page puts it in its `<p>`).
pub fn paragraph(ruling: &Ruling, record: &RulingRecord<'_>, lang: Lang) -> String {
    let writer = Writer { t: Texts::new(lang), record };
    let mut sentences = vec![writer.lead(ruling)];
    sentences.extend(writer.evidence(ruling));
    sentences.join(" ")
}

struct Writer<'a> {
    t: Texts,
    record: &'a RulingRecord<'a>,
}

impl Writer<'_> {
    /// The catalogue's text of `key` with `args` (already escaped where they need it).
    fn say(&self, key: &str, args: &[(&str, &str)]) -> String {
        self.t.format(key, args)
    }

    /// The game's name of a side (Red, Sente (black)...).
    fn side(&self, side: Color) -> String {
        let side = match side {
            Color::First => "first",
            Color::Second => "second",
        };
        self.t.get(&format!("color.{}.{side}", self.record.variant.name())).to_owned()
    }

    /// The family whose piece names apply.
    fn family(&self) -> &'static str {
        match self.record.variant {
            Variant::Xiangqi => "xiangqi",
            Variant::Shogi | Variant::MiniShogi => "shogi",
            Variant::Flickering => "chess",
            Variant::SevenKingdoms => "kingdoms",
        }
    }

    /// A piece kind in the reader's language (the kind as the ruling writes it when the
    /// catalogue has no name for it).
    fn kind(&self, kind: &str) -> String {
        match self.t.lookup(&format!("ruling.piece.{}.{kind}", self.family())) {
            Some(name) => name.to_owned(),
            None => escape(&kind.replace('-', " ")),
        }
    }

    /// A piece and its square (or "in hand").
    fn piece(&self, piece: &PieceAt) -> String {
        let square = match &piece.square {
            Some(square) => escape(square),
            None => self.t.get("ruling.in_hand").to_owned(),
        };
        self.say("ruling.piece_at", &[("piece", &self.kind(piece.piece)), ("square", &square)])
    }

    /// The move of `ply` as the reader sees it, when the record has it (Flickering series
    /// and Seven Kingdoms turns are not one stored row per ply: none).
    fn shown_move(&self, ply: u32) -> Option<&str> {
        match self.record.variant {
            Variant::Flickering | Variant::SevenKingdoms => None,
            _ => ply.checked_sub(1).and_then(|i| self.record.moves.get(i as usize)).map(String::as_str),
        }
    }

    /// A ply with its move: the reader's notation where the record has it, else the
    /// ruling's canonical move.
    fn ply(&self, ply: u32, canonical: &str) -> String {
        let text = self.shown_move(ply).unwrap_or(canonical);
        self.say("ruling.ply", &[("ply", &ply.to_string()), ("move", &escape(text))])
    }

    /// A ply named by number, with its move when the record has it.
    fn ply_number(&self, ply: u32) -> String {
        match self.shown_move(ply) {
            Some(text) => self.ply(ply, text),
            None => self.say("ruling.ply_bare", &[("ply", &ply.to_string())]),
        }
    }

    /// The opening sentence: who lost (or the draw), the law and where the rule text
    /// states it.
    fn lead(&self, ruling: &Ruling) -> String {
        let law = self
            .t
            .lookup(&format!("reason.{}", ruling.law))
            .map_or_else(|| escape(ruling.law), str::to_owned);
        let citation = &ruling.citation;
        let items: Vec<String> = citation.items.iter().map(u8::to_string).collect();
        let place = if items.is_empty() {
            self.say("ruling.citation", &[("spec", citation.spec), ("section", citation.section)])
        } else {
            self.say(
                "ruling.citation_items",
                &[("spec", citation.spec), ("section", citation.section), ("items", &items.join(", "))],
            )
        };
        let ply = ruling.ply.to_string();
        let args = [("law", law.as_str()), ("citation", place.as_str()), ("ply", ply.as_str())];
        match (ruling.against, &ruling.evidence) {
            (Some(side), _) => {
                let side = self.side(side);
                self.say("ruling.lead.loss", &[args[0], args[1], args[2], ("side", &side)])
            }
            (None, Evidence::SevenKingdoms(_)) => self.say("ruling.lead.end", &args),
            (None, _) => self.say("ruling.lead.draw", &args),
        }
    }

    fn evidence(&self, ruling: &Ruling) -> Vec<String> {
        match &ruling.evidence {
            Evidence::NoLegalMove(e) => vec![self.no_legal_move(e)],
            Evidence::CxqSeries(e) => self.cxq(e),
            Evidence::NoProgress(e) => vec![self.no_progress(e)],
            Evidence::EffectiveMoves(e) => self.effective_moves(e),
            Evidence::MoveLimit(e) => vec![self.move_limit(e)],
            Evidence::DeadPosition(e) => vec![self.dead_position(e)],
            Evidence::Repetition(e) => self.repetition(e),
            Evidence::PointCount(e) => self.point_count(e),
            Evidence::Declaration(e) => vec![self.declaration(e)],
            Evidence::SevenKingdoms(e) => vec![self.seven_kingdoms(e)],
        }
    }

    fn no_legal_move(&self, e: &NoLegalMove) -> String {
        let side = self.side(e.side);
        if e.in_check {
            let checkers: Vec<String> = e.checkers.iter().map(|p| self.piece(p)).collect();
            self.say("ruling.no_move.check", &[("side", &side), ("checkers", &checkers.join(", "))])
        } else {
            self.say("ruling.no_move.free", &[("side", &side)])
        }
    }

    /// `xiangqi.md` "CXQ supplementary rules" 1 to 5: the series, ply by ply, its pieces
    /// and allowance, and the opponent's series (rule 5).
    fn cxq(&self, e: &CxqSeries) -> Vec<String> {
        let mut out = vec![self.series(&e.series, "ruling.cxq.series")];
        let plies: Vec<String> = e.series.plies.iter().map(|p| self.series_ply(e.series.kind, p)).collect();
        out.push(self.say("ruling.cxq.plies", &[("plies", &plies.join("; "))]));
        out.push(self.say(
            "ruling.cxq.limit",
            &[
                ("pieces", &e.series.pieces.to_string()),
                ("allowance", &e.series.allowance.to_string()),
                ("per_piece", &e.limits.per_piece.to_string()),
                ("max_pieces", &e.limits.max_pieces.to_string()),
                ("length", &e.series.length.to_string()),
            ],
        ));
        let opponent: Vec<&SeriesExplained> = e.opponent_check.iter().chain(&e.opponent_chase).collect();
        if opponent.is_empty() {
            out.push(self.t.get("ruling.cxq.no_opponent").to_owned());
        }
        for series in opponent {
            out.push(self.series(series, "ruling.cxq.opponent"));
        }
        out
    }

    /// One series in a sentence: kind, side, length, target and plies.
    fn series(&self, s: &SeriesExplained, key: &str) -> String {
        let kind = self.t.get(match s.kind {
            SeriesKind::Check => "ruling.cxq.kind.check",
            SeriesKind::Chase => "ruling.cxq.kind.chase",
        });
        let (first, last) = (s.plies.first().map_or(0, |p| p.ply), s.plies.last().map_or(0, |p| p.ply));
        let perpetual = self.t.get(if s.perpetual {
            "ruling.cxq.perpetual"
        } else if s.used_allowance {
            "ruling.cxq.used_allowance"
        } else {
            "ruling.cxq.within_allowance"
        });
        self.say(
            key,
            &[
                ("kind", kind),
                ("side", &self.side(s.side)),
                ("length", &s.length.to_string()),
                ("target", &self.piece(&s.target)),
                ("from", &first.to_string()),
                ("to", &last.to_string()),
                ("pieces", &s.pieces.to_string()),
                ("allowance", &s.allowance.to_string()),
                ("perpetual", perpetual),
            ],
        )
    }

    fn series_ply(&self, kind: SeriesKind, p: &tavoliere_rules::game::ruling::SeriesPly) -> String {
        let by: Vec<String> = p.by.iter().map(|piece| self.piece(piece)).collect();
        let key = match kind {
            SeriesKind::Check => "ruling.cxq.ply.check",
            SeriesKind::Chase => "ruling.cxq.ply.chase",
        };
        self.say(
            key,
            &[("ply", &self.ply(p.ply, &p.mv)), ("by", &by.join(", ")), ("target", &self.piece(&p.target))],
        )
    }

    /// `xiangqi.md` "CXQ automatic draws" 2.
    fn no_progress(&self, e: &NoProgress) -> String {
        let last = match &e.last_progress {
            Some(p) => self.say("ruling.no_progress.last", &[("ply", &self.ply(p.ply, &p.mv))]),
            None => self.t.get("ruling.no_progress.none").to_owned(),
        };
        self.say(
            "ruling.no_progress",
            &[
                ("plies", &e.plies.to_string()),
                ("from", &self.ply_number(e.from_ply)),
                ("to", &self.ply_number(e.to_ply)),
                ("limit", &e.limit_per_side.to_string()),
                ("last", &last),
            ],
        )
    }

    /// `xiangqi.md` "CXQ automatic draws" 1.
    fn effective_moves(&self, e: &EffectiveMoves) -> Vec<String> {
        let mut out = vec![self.say("ruling.effective.limit", &[("limit", &e.limit_per_side.to_string())])];
        for side in &e.sides {
            let last = side.last.as_ref().map(|p| self.ply(p.ply, &p.mv)).unwrap_or_else(|| "–".to_owned());
            out.push(self.say(
                "ruling.effective.side",
                &[
                    ("side", &self.side(side.side)),
                    ("counted", &side.counted.to_string()),
                    ("plies", &side.plies.len().to_string()),
                    ("last", &last),
                ],
            ));
        }
        out
    }

    /// `xiangqi.md` "CXQ automatic draws" 3.
    fn move_limit(&self, e: &MoveLimit) -> String {
        let count = |i: usize| e.moves.get(i).copied().unwrap_or(0).to_string();
        self.say(
            "ruling.move_limit",
            &[
                ("first", &self.side(Color::First)),
                ("first_moves", &count(0)),
                ("second", &self.side(Color::Second)),
                ("second_moves", &count(1)),
                ("limit", &e.limit_per_side.to_string()),
            ],
        )
    }

    fn dead_position(&self, e: &DeadPosition) -> String {
        let pieces: Vec<String> = e
            .pieces
            .iter()
            .map(|p| {
                self.say("ruling.side_piece", &[("side", &self.side(p.side)), ("piece", &self.piece(p))])
            })
            .collect();
        self.say("ruling.dead_position", &[("pieces", &pieces.join(", "))])
    }

    /// Sennichite and the other repetition laws: where the position stood, who began the
    /// cycle, who checked throughout.
    fn repetition(&self, e: &Repetition) -> Vec<String> {
        let at: Vec<String> = e
            .occurrences
            .iter()
            .map(|&ply| if ply == 0 { self.t.get("ruling.start").to_owned() } else { self.ply_number(ply) })
            .collect();
        let mut out = vec![
            self.say(
                "ruling.repetition.occurrences",
                &[("times", &e.occurrences.len().to_string()), ("plies", &at.join(", "))],
            ),
            self.say("ruling.repetition.started", &[("side", &self.side(e.cycle_started_by))]),
        ];
        out.push(match e.checking_throughout.as_slice() {
            [] => self.t.get("ruling.repetition.no_checks").to_owned(),
            sides => {
                let sides: Vec<String> = sides.iter().map(|&s| self.side(s)).collect();
                self.say("ruling.repetition.checks", &[("sides", &sides.join(", "))])
            }
        });
        out
    }

    fn counted(&self, pieces: &[CountedPiece]) -> String {
        let list: Vec<String> = pieces
            .iter()
            .map(|p| {
                let square = match &p.square {
                    Some(square) => escape(square),
                    None => self.t.get("ruling.in_hand").to_owned(),
                };
                self.say(
                    "ruling.counted_piece",
                    &[
                        ("count", &p.count.to_string()),
                        ("piece", &self.kind(p.piece)),
                        ("square", &square),
                        ("points", &p.points.to_string()),
                    ],
                )
            })
            .collect();
        list.join(", ")
    }

    /// Jishogi and the 24-point impasse: both kings and both counts, piece by piece.
    fn point_count(&self, e: &PointCount) -> Vec<String> {
        let kings: Vec<String> = e
            .kings
            .iter()
            .map(|k| {
                self.say("ruling.side_piece", &[("side", &self.side(k.side)), ("piece", &self.piece(k))])
            })
            .collect();
        let mut out = vec![self.say("ruling.points.kings", &[("kings", &kings.join(", "))])];
        for side in &e.counts {
            out.push(self.say(
                "ruling.points.side",
                &[
                    ("side", &self.side(side.side)),
                    ("points", &side.points.to_string()),
                    ("pieces", &self.counted(&side.pieces)),
                ],
            ));
        }
        out.push(match e.threshold {
            Some(threshold) => self.say("ruling.points.threshold", &[("threshold", &threshold.to_string())]),
            None => self.t.get("ruling.points.uncounted").to_owned(),
        });
        out
    }

    /// The 27-point declaration: every condition and whether it held.
    fn declaration(&self, e: &Declaration) -> String {
        let yes_no = |held: bool| self.t.get(if held { "ruling.yes" } else { "ruling.no" });
        self.say(
            "ruling.declaration",
            &[
                ("side", &self.side(e.declarer)),
                ("king", &self.piece(&e.king)),
                ("in_camp", yes_no(e.king_in_camp)),
                ("in_check", yes_no(e.in_check)),
                ("pieces", &e.pieces_in_camp.to_string()),
                ("pieces_needed", &e.pieces_needed.to_string()),
                ("points", &e.points.to_string()),
                ("points_needed", &e.points_needed.to_string()),
                (
                    "valid",
                    self.t.get(if e.valid {
                        "ruling.declaration.valid"
                    } else {
                        "ruling.declaration.invalid"
                    }),
                ),
                ("counted", &self.counted(&e.pieces)),
            ],
        )
    }

    fn seven_kingdoms(&self, e: &SevenKingdoms) -> String {
        let standings: Vec<String> = e
            .standings
            .iter()
            .map(|s| {
                self.say(
                    "ruling.kingdoms.standing",
                    &[
                        ("place", &s.place.to_string()),
                        ("kingdoms", &escape(&s.kingdoms.join("+"))),
                        ("pieces", &s.captured_pieces.to_string()),
                        ("generals", &s.captured_generals.to_string()),
                        ("value", &s.value_score.to_string()),
                    ],
                )
            })
            .collect();
        self.say(
            "ruling.kingdoms",
            &[
                ("generals", &e.generals_needed.to_string()),
                ("pieces", &e.pieces_needed.to_string()),
                ("standings", &standings.join("; ")),
            ],
        )
    }
}

#[cfg(test)]
mod tests;
