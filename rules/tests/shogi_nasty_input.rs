//! Every shogi parser fed a corpus of nasty strings and byte mutations of valid records:
//! each must answer (Ok or a typed error) without panicking.

use tavoliere_rules::notation::shogi::{csa, ki2, kif, parse_any, sfen, usi, western};
use tavoliere_rules::replay::{replay_text, ReplayOptions};
use tavoliere_rules::shogi::{Position, Variant};

fn nasty_strings() -> Vec<String> {
    let mut corpus: Vec<String> = [
        "",
        " ",
        "\n",
        "\r\n\r\n",
        "\u{feff}",
        "-",
        "+",
        "*",
        "#",
        "%",
        "P",
        "P*",
        "P*0a",
        "P*5",
        "K*5e",
        "+P*5e",
        "99999999999999999999999999999999",
        "18446744073709551616",
        "9/9/9/9/9/9/9/9/9 b 99999999999999999999P 1",
        "9/9/9/9/9/9/9/9/9 b - 99999999999999999999",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN b - 1",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL/ b - 1",
        "99/9/9/9/9/9/9/9/9 b - 1",
        "+++/9/9/9/9/9/9/9/9 b - 1",
        "k+/9/9/9/9/9/9/9/9 b - 1",
        "rbsgk/4p/5/P4/KGSBR b 255P 1",
        "rbsgk/4p/5/P4/KGSBR b - 0",
        "7g7",
        "7g7f++",
        "7z7f",
        "0a0b",
        "7g7f+x",
        "G6i-",
        "G6i-5",
        "+K-5h",
        "+G-5h",
        "Sx",
        "S--4d",
        "S4d==",
        "S4d+#",
        "P*5e+",
        "P5e*",
        "ＰＰＰ",
        "７六歩",
        "同",
        "同　",
        "   1 ",
        "   1 ７",
        "   1 ７六",
        "   1 ７六歩(",
        "   1 ７六歩(7",
        "   1 ７六歩(777)",
        "   1 ７六歩(77",
        "   1 同　歩(77)",
        "   1 ５五歩打(55)",
        "   1 ５五玉打",
        "99999999999999999999999 ７六歩(77)",
        "手合割：",
        "手合割：二枚落ち\n|",
        "|v香v桂",
        "| ・ ・ ・ ・ ・|一\n| ・ ・ ・ ・ ・|二",
        "先手の持駒：歩十十",
        "先手の持駒：歩九十九",
        "先手の持駒：王",
        "：",
        "PI",
        "PI82",
        "PI82H",
        "PI82HIX",
        "P1",
        "P1-KY-KE",
        "P+",
        "P+00",
        "P+00OU",
        "P+99",
        "P+0000AL",
        "P-00AL\nP+00AL",
        "+7776",
        "+7776FUX",
        "+7776XX",
        "+0055OU",
        "+0000FU",
        "-\n-3334FU",
        "N+",
        "$",
        "$:",
        "%",
        "%TORY",
        "V2.2\nPI\n+\n+7776FU,,,,",
        "\u{0}\u{1}\u{2}",
        "▲",
        "▲▲△",
        "▲同",
        "▲同　",
        "△７六歩",
        "▲７六歩右左上引寄直",
        "▲７六歩不成打",
        "▲５五角打右",
        "▲1一香",
        "▲９九飛\n変化：",
        "まで",
        "まで99999999999999999999手で先手の勝ち",
        "まで1手で先手の",
        "手合割：その他\n▲７六歩",
        "\u{10FFFF}",
        "a\u{301}\u{301}\u{301}",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    corpus.push("9".repeat(100_000));
    corpus.push("/".repeat(10_000));
    corpus.push("+".repeat(10_000));
    corpus.push("P+00FU".repeat(1000));
    corpus.push("先手の持駒：".to_owned() + &"歩十八　".repeat(100));
    corpus
}

fn feed(text: &str) {
    let positions = [Position::startpos(Variant::Standard), Position::startpos(Variant::Mini)];
    let _ = sfen::parse(text, None);
    let _ = sfen::parse(text, Some(Variant::Standard));
    let _ = sfen::parse(text, Some(Variant::Mini));
    for pos in &positions {
        let _ = usi::parse(pos, text);
        let _ = western::parse(pos, text);
        let _ = parse_any(pos, text, None);
        let _ = parse_any(pos, text, pos.legal_moves().first().copied());
    }
    let _ = kif::read(text);
    let _ = ki2::read(text);
    let _ = csa::read(text);
    for line in text.lines() {
        let _ = kif::read(line);
        let _ = ki2::read(line);
        let _ = csa::read(line);
    }
    if text.len() < 2_000 {
        for variant in
            [tavoliere_rules::variant::Variant::Shogi, tavoliere_rules::variant::Variant::MiniShogi]
        {
            let _ = replay_text(variant, text, &ReplayOptions::default());
        }
    }
}

#[test]
fn no_parser_panics_on_nasty_strings() {
    for text in nasty_strings() {
        feed(&text);
        // Truncations at every character boundary of the short ones.
        if text.len() < 200 {
            for (i, _) in text.char_indices() {
                feed(&text[..i]);
            }
        }
    }
}

#[test]
fn record_readers_survive_invalid_bytes_and_mutations() {
    let kif_text = "手合割：平手\n先手：a\n後手：b\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 同　銀(31)\n   5 ５五角打\n   6 投了\n";
    let csa_text = "V2.2\nN+a\nN-b\nPI\n+\n+7776FU\n-3334FU\n+8822UM\n-3122GI\n+0055KA\n%TORYO\n";
    let ki2_text = "手合割：平手\n▲７六歩    △３四歩    ▲２二角成  △同　銀\n▲５五角打\nまで5手で先手の勝ち\n";
    assert_eq!(ki2::read(ki2_text).map(|r| r.moves.len()), Ok(5));
    assert_eq!(kif::read(kif_text).map(|r| r.moves.len()), Ok(5));
    assert_eq!(csa::read(csa_text).map(|r| r.moves.len()), Ok(5));
    // Invalid UTF-8 and invalid Shift_JIS.
    for bytes in [&b"\xff\xfe\xfd"[..], b"\x81", b"\xe3\x81", b"\xef\xbb\xbf\xff", b"\x82\xa0\x82"] {
        let _ = kif::read_bytes(bytes);
        let _ = csa::read_bytes(bytes);
    }
    let mut state = 0x1234_5678_9abc_def0_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for original in [kif_text.as_bytes(), csa_text.as_bytes(), ki2_text.as_bytes()] {
        for _ in 0..2000 {
            let mut bytes = original.to_vec();
            for _ in 0..1 + next() % 4 {
                let i = (next() % bytes.len() as u64) as usize;
                match next() % 3 {
                    0 => bytes[i] = next() as u8,
                    1 => {
                        bytes.remove(i);
                    }
                    _ => bytes.insert(i, next() as u8),
                }
            }
            // A record that reads is written and read back to the same start and moves.
            if let Ok(record) = kif::read_bytes(&bytes) {
                let again = kif::read(&kif::write(&record)).expect("a written KIF reads");
                assert_eq!((&again.start, &again.moves), (&record.start, &record.moves));
            }
            if let Ok(record) = ki2::read_bytes(&bytes) {
                let again = ki2::read(&ki2::write(&record)).expect("a written KI2 reads");
                assert_eq!((&again.start, &again.moves), (&record.start, &record.moves));
            }
            let _ = csa::read_bytes(&bytes);
        }
    }
}
