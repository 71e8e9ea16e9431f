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
mod tests {
    use super::*;
    use tavoliere_rules::game::ruling::{
        Citation, Evidence, MoveLimit, PlyMove, PointCount, SideCount, SideMoves,
    };
    use tavoliere_rules::replay::{replay_text, ReplayOptions};
    use tavoliere_rules::variant::{AnyGame, Notation};

    /// A game replayed from canonical moves, with its ruling and its moves in the
    /// variant's display notation.
    fn replayed(variant: Variant, start: Option<&str>, moves: &str) -> (Ruling, Vec<String>) {
        let mut game = AnyGame::new(variant, start).unwrap();
        for m in moves.split_whitespace() {
            game.play(m).unwrap();
        }
        (game.ruling().expect("a law ended the game"), game.display_moves(Notation::Auto))
    }

    fn both(ruling: &Ruling, variant: Variant, moves: &[String]) -> (String, String) {
        let record = RulingRecord { variant, moves };
        (paragraph(ruling, &record, Lang::En), paragraph(ruling, &record, Lang::It))
    }

    /// No catalogue key is left unreplaced, nor a placeholder.
    fn assert_complete(text: &str) {
        assert!(!text.contains("ruling."), "a key is missing: {text}");
        assert!(!text.contains('{'), "a placeholder is left: {text}");
    }

    /// A game of the Liu Dahua collection (1-based), replayed.
    fn liu_dahua(number: usize) -> (Ruling, Vec<String>) {
        let text = include_str!("../../rules/tests/data/records/liu-dahua-1125-iccs.pgn");
        let game = text.split("[Event ").nth(number).expect("the game");
        let report =
            replay_text(Variant::Xiangqi, &format!("[Event {game}"), &ReplayOptions::default()).remove(0);
        let mut replay = AnyGame::new(Variant::Xiangqi, None).unwrap();
        for m in &report.moves {
            replay.play(m).unwrap();
        }
        (report.ruling.expect("a ruling"), replay.display_moves(Notation::Auto))
    }

    #[test]
    fn a_perpetual_check_names_the_series_ply_by_ply_in_wxf() {
        let (ruling, moves) = replayed(
            Variant::Xiangqi,
            Some("4k4/9/9/9/9/9/9/9/9/3K4R w - - 0 1"),
            "i0i9 e9e8 i9i8 e8e9 i8i9 e9e8 i9i8 e8e9 i8i9 e9e8 i9i8 e8e9 i8i9",
        );
        let (en, it) = both(&ruling, Variant::Xiangqi, &moves);
        assert_complete(&en);
        assert_complete(&it);
        assert!(en.starts_with("Red loses by perpetual check at ply 13"), "{en}");
        assert!(en.contains("xiangqi.md"), "{en}");
        assert!(en.contains("rules 1, 3, 5"), "{en}");
        assert!(en.contains("check series"), "{en}");
        // Ply 1 in WXF with what it checked.
        assert!(en.contains(&format!("ply 1 ({})", moves[0])), "{en}");
        assert!(en.contains("chariot i9 checks the king e9"), "{en}");
        assert!(en.contains("1 distinct piece"), "{en}");
        assert!(en.contains("allowance 6"), "{en}");
        assert!(it.starts_with("Rosso perde per scacco perpetuo alla semimossa 13"), "{it}");
        assert!(it.contains("carro i9 dà scacco al re e9"), "{it}");
        assert!(it.contains(&format!("semimossa 1 ({})", moves[0])), "{it}");
    }

    #[test]
    fn a_perpetual_chase_names_the_target_and_the_limit() {
        // Liu Dahua - Chen Lichun 2006 (docs/rulings-audit.md, game 935): Black's chariot
        // chases Red's cannon, plies 80-92.
        let (ruling, moves) = liu_dahua(935);
        assert_eq!(ruling.law, "perpetual-chase");
        let (en, it) = both(&ruling, Variant::Xiangqi, &moves);
        assert_complete(&en);
        assert_complete(&it);
        assert!(en.starts_with("Black loses by perpetual chase at ply 92"), "{en}");
        assert!(en.contains("chase series"), "{en}");
        assert!(en.contains("attacks the cannon"), "{en}");
        assert!(en.contains(&format!("ply 80 ({})", moves[79])), "{en}");
        assert!(it.starts_with("Nero perde per attacco perpetuo alla semimossa 92"), "{it}");
        assert!(it.contains("attacca cannone"), "{it}");
    }

    #[test]
    fn a_no_progress_draw_names_the_plies_counted_and_the_last_progress() {
        // Liu Dahua - Li Laiqun 1992 (game 95): last progress ply 125, plies 126-185.
        let (ruling, moves) = liu_dahua(95);
        assert_eq!(ruling.law, "no-progress-30");
        let (en, it) = both(&ruling, Variant::Xiangqi, &moves);
        assert_complete(&en);
        assert_complete(&it);
        assert!(en.starts_with("Draw by no progress at ply 185"), "{en}");
        assert!(en.contains("60 plies"), "{en}");
        assert!(en.contains(&format!("ply 126 ({})", moves[125])), "{en}");
        assert!(en.contains(&format!("the last progress was ply 125 ({})", moves[124])), "{en}");
        assert!(it.starts_with("Patta per nessun progresso alla semimossa 185"), "{it}");
        assert!(
            it.contains(&format!("l'ultimo progresso è stato la semimossa 125 ({})", moves[124])),
            "{it}"
        );
    }

    #[test]
    fn sennichite_names_where_the_position_stood_and_who_began() {
        let shuffle = "2h3h 8b7b 3h2h 7b8b ".repeat(3);
        let (ruling, moves) = replayed(Variant::Shogi, None, &shuffle);
        assert_eq!(ruling.law, "sennichite");
        let (en, it) = both(&ruling, Variant::Shogi, &moves);
        assert_complete(&en);
        assert_complete(&it);
        assert!(en.starts_with("Draw by sennichite"), "{en}");
        assert!(en.contains("4 times"), "{en}");
        assert!(en.contains("the start"), "{en}");
        assert!(en.contains(&format!("ply 12 ({})", moves[11])), "{en}");
        assert!(en.contains("No side checked with every move"), "{en}");
        assert!(it.contains("4 volte"), "{it}");
        assert!(it.contains("la posizione iniziale"), "{it}");
    }

    fn citation(section: &'static str) -> Citation {
        Citation { spec: "shogi.md", section, items: &[], interpretation: false }
    }

    #[test]
    fn an_impasse_count_gives_both_counts_piece_by_piece() {
        let side = |side, points, rook: u32| SideCount {
            side,
            points,
            pieces: vec![
                CountedPiece { piece: "rook", square: Some("2c".into()), count: 1, points: 5 * rook },
                CountedPiece { piece: "pawn", square: None, count: 3, points: 3 },
            ],
        };
        let ruling = Ruling {
            law: "impasse-24",
            citation: citation("End of the game"),
            ply: 200,
            against: Some(Color::Second),
            evidence: Evidence::PointCount(PointCount {
                kings: vec![
                    PieceAt { piece: "king", side: Color::First, square: Some("5b".into()) },
                    PieceAt { piece: "king", side: Color::Second, square: Some("5h".into()) },
                ],
                threshold: Some(24),
                counts: vec![side(Color::First, 31, 1), side(Color::Second, 17, 1)],
            }),
        };
        let (en, it) = both(&ruling, Variant::Shogi, &[]);
        assert_complete(&en);
        assert_complete(&it);
        assert!(en.starts_with("Gote (white) loses by impasse (24 points) at ply 200"), "{en}");
        assert!(en.contains("Sente (black): 31 points"), "{en}");
        assert!(en.contains("Gote (white): 17 points"), "{en}");
        assert!(en.contains("1 rook 2c = 5"), "{en}");
        assert!(en.contains("3 pawn in hand = 3"), "{en}");
        assert!(en.contains("24"), "{en}");
        assert!(it.contains("Sente (nero): 31 punti"), "{it}");
        assert!(it.contains("3 pedone in mano = 3"), "{it}");
    }

    #[test]
    fn a_declaration_lists_its_conditions() {
        let ruling = Ruling {
            law: "impasse-declaration",
            citation: citation("End of the game"),
            ply: 150,
            against: Some(Color::Second),
            evidence: Evidence::Declaration(Declaration {
                declarer: Color::First,
                king: PieceAt { piece: "king", side: Color::First, square: Some("5b".into()) },
                king_in_camp: true,
                in_check: false,
                pieces_in_camp: 10,
                pieces_needed: 10,
                points: 28,
                points_needed: 28,
                valid: true,
                pieces: vec![CountedPiece { piece: "gold", square: Some("4b".into()), count: 1, points: 1 }],
            }),
        };
        let (en, it) = both(&ruling, Variant::Shogi, &[]);
        assert_complete(&en);
        assert_complete(&it);
        assert!(en.contains("28 of 28 points"), "{en}");
        assert!(en.contains("the declaration holds"), "{en}");
        assert!(it.contains("28 punti su 28"), "{it}");
    }

    #[test]
    fn move_count_draws_name_the_counts_and_the_last_move() {
        let effective = Ruling {
            law: "move-limit-120",
            citation: Citation {
                spec: "xiangqi.md",
                section: "CXQ automatic draws",
                items: &[1],
                interpretation: false,
            },
            ply: 240,
            against: None,
            evidence: Evidence::EffectiveMoves(EffectiveMoves {
                limit_per_side: 120,
                sides: vec![
                    SideMoves {
                        side: Color::First,
                        counted: 120,
                        plies: (1..=239).step_by(2).collect(),
                        last: Some(PlyMove { ply: 239, mv: "h2e2".into() }),
                    },
                    SideMoves {
                        side: Color::Second,
                        counted: 120,
                        plies: (2..=240).step_by(2).collect(),
                        last: Some(PlyMove { ply: 240, mv: "h9g7".into() }),
                    },
                ],
            }),
        };
        let (en, it) = both(&effective, Variant::Xiangqi, &[]);
        assert_complete(&en);
        assert_complete(&it);
        assert!(en.starts_with("Draw by move limit at ply 240"), "{en}");
        assert!(en.contains("Red: 120 effective moves, the last ply 239 (h2e2)"), "{en}");
        assert!(it.contains("Nero: 120 mosse effettive, l'ultima la semimossa 240 (h9g7)"), "{it}");
        let limit = Ruling {
            law: "move-limit-300",
            citation: Citation {
                spec: "xiangqi.md",
                section: "CXQ automatic draws",
                items: &[3],
                interpretation: false,
            },
            ply: 600,
            against: None,
            evidence: Evidence::MoveLimit(MoveLimit { limit_per_side: 300, moves: vec![300, 300] }),
        };
        let (en, it) = both(&limit, Variant::Xiangqi, &[]);
        assert_complete(&en);
        assert_complete(&it);
        assert!(en.contains("Red made 300 moves and Black 300; the limit is 300 each"), "{en}");
        assert!(it.contains("il limite è 300 a testa"), "{it}");
    }

    #[test]
    fn a_checkmate_names_the_checkers() {
        // Black's king d9; Red's chariot b8 holds rank 8, the chariot a0 mates on rank 9
        // (e9 faces Red's king).
        let (ruling, moves) =
            replayed(Variant::Xiangqi, Some("3k5/1R7/9/9/9/9/9/9/9/R3K4 w - - 0 1"), "a0a9");
        let (en, it) = both(&ruling, Variant::Xiangqi, &moves);
        assert_complete(&en);
        assert_complete(&it);
        assert!(en.starts_with("Black loses by checkmate at ply 1"), "{en}");
        assert!(en.contains("Black had no legal move, its king in check by the chariot a9"), "{en}");
        assert!(it.contains("sotto scacco da: carro a9"), "{it}");
    }

    #[test]
    fn the_ruling_data_is_escaped() {
        let ruling = Ruling {
            law: "dead-position",
            citation: Citation {
                spec: "xiangqi.md",
                section: "CXQ automatic draws",
                items: &[],
                interpretation: false,
            },
            ply: 3,
            against: None,
            evidence: Evidence::DeadPosition(DeadPosition {
                pieces: vec![PieceAt { piece: "king", side: Color::First, square: Some("<b>".into()) }],
            }),
        };
        let (en, it) = both(&ruling, Variant::Xiangqi, &[]);
        assert!(en.contains("&lt;b&gt;") && !en.contains("<b>"), "{en}");
        assert_complete(&en);
        assert_complete(&it);
    }
}
