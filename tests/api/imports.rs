//! Game import (issue 15 §7): real records uploaded through `POST /api/games/import`,
//! validated move by move, stored as finished games with the record's player names,
//! shown with their ruling, downloadable in every export format; a bad record is a 422
//! naming line, column and token, and stores nothing.

use base64::Engine as _;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{TestApp, User};

const LIU_DAHUA: &str = include_str!("../../rules/tests/data/records/liu-dahua-1125-iccs.pgn");
const LISHOGI: &str = include_str!("../../rules/tests/data/records/lishogi-usi-games.txt");

/// Game `number` (1-based) of the Liu Dahua collection, as its PGN text.
fn liu_dahua(number: usize) -> String {
    format!("[Event {}", LIU_DAHUA.split("[Event ").nth(number).expect("the game"))
}

/// The first game of the lishogi collection, as a line of USI moves.
fn lishogi_game() -> &'static str {
    LISHOGI.lines().find(|l| !l.trim().is_empty() && !l.starts_with('#')).expect("a game")
}

async fn import(app: &TestApp, user: &User, body: Value) -> crate::support::Reply {
    app.post("/api/games/import", Some(user), body).await
}

async fn games_stored(app: &TestApp) -> i64 {
    sqlx::query_scalar("select count(*) from game").fetch_one(&app.domain.pool).await.unwrap()
}

#[tokio::test]
async fn a_liu_dahua_pgn_is_stored_as_a_finished_game_with_the_players_named_in_it() {
    let app = TestApp::spawn().await;
    let director = app.register("director").await;
    // Game 1: Liu Dianzhong - Liu Dahua, 1997, 76 plies, no result tag.
    let pgn = liu_dahua(1);
    let reply = import(&app, &director, json!({ "record": pgn })).await;
    let body = reply.expect(StatusCode::CREATED);
    assert_eq!(body["format"], "pgn");
    assert_eq!(body["ended_at"], Value::Null);
    let game = &body["game"];
    assert_eq!(game["variant"], "xiangqi", "detected");
    assert_eq!(game["status"], "finished");
    assert_eq!(game["ply"], 76);
    assert_eq!(game["seats"][0]["username"], "LIU DianZhong");
    assert_eq!(game["seats"][1]["username"], "LIU DaHua");
    assert_eq!(game["moves"][0]["canonical"], "h2e2");
    assert_eq!(game["moves"][0]["display"], "C2=5");
    assert_eq!(game["ruling"], Value::Null, "no law ended it");
    let id = game["id"].as_i64().unwrap();
    assert_eq!(app.stored_moves(id).await, 76);
    // The same view at its address, and its page.
    let view = app.game(id).await;
    assert_eq!(view["moves"].as_array().unwrap().len(), 76);
    let page = app.get_text(&format!("/games/{id}")).await;
    assert!(page.contains("LIU DaHua"), "the page names the players");
    // The seats hold no account.
    let accounts: Vec<Option<i64>> =
        sqlx::query_scalar("select account_id from game_seat where game_id = $1 order by seat")
            .bind(id)
            .fetch_all(&app.domain.pool)
            .await
            .unwrap();
    assert_eq!(accounts, vec![None, None]);
}

#[tokio::test]
async fn a_record_a_law_ended_shows_its_ruling_over_the_api_and_on_the_page() {
    let app = TestApp::spawn().await;
    let director = app.register("director").await;
    // Game 935 (docs/rulings-audit.md): Black's perpetual chase ends it at ply 92; the
    // record goes on.
    let reply = import(&app, &director, json!({ "record": liu_dahua(935), "variant": "xiangqi" })).await;
    let body = reply.expect(StatusCode::CREATED);
    assert_eq!(body["ended_at"], 92);
    let game = &body["game"];
    assert_eq!(game["ply"], 92, "stored up to the law's end");
    assert_eq!(game["result"], "1-0");
    assert_eq!(game["reason"], "perpetual-chase");
    let ruling = &game["ruling"];
    assert_eq!(ruling["law"], "perpetual-chase");
    assert_eq!(ruling["ply"], 92);
    assert_eq!(ruling["against"], "second");
    assert_eq!(ruling["evidence"]["kind"], "cxq-series");
    assert_eq!(ruling["evidence"]["series"]["kind"], "chase");
    let id = game["id"].as_i64().unwrap();
    assert_eq!(app.game(id).await["ruling"], *ruling, "GET /api/games/{{id}} carries it too");
    // The page explains it in the reader's language.
    let english =
        app.client.get(format!("{}/games/{id}", app.address)).header("accept-language", "en").send();
    let english = english.await.unwrap().text().await.unwrap();
    assert!(english.contains("id=\"ruling\""), "{english}");
    assert!(english.contains("Black loses by perpetual chase at ply 92"), "{english}");
    let italian =
        app.client.get(format!("{}/games/{id}", app.address)).header("accept-language", "it").send();
    let italian = italian.await.unwrap().text().await.unwrap();
    assert!(italian.contains("Nero perde per attacco perpetuo alla semimossa 92"), "{italian}");
}

#[tokio::test]
async fn a_malformed_record_is_a_422_naming_line_column_and_token_and_stores_nothing() {
    let app = TestApp::spawn().await;
    let player = app.register("player").await;
    let before = games_stored(&app).await;
    // Ply 3 names no piece: line 5, column 4.
    let bad = "[Event \"x\"]\n[Red \"A\"]\n\n1. h2e2 h9g7\n2. h2e2 h7h0\n";
    let reply = import(&app, &player, json!({ "record": bad })).await;
    reply.expect(StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(reply.code(), "illegal-move.no-piece");
    let meta = &reply.body["errors"][0]["meta"];
    assert_eq!(meta["line"], 5);
    assert_eq!(meta["column"], 4);
    assert_eq!(meta["token"], "h2e2");
    assert_eq!(meta["ply"], 3);
    assert!(reply.detail().starts_with("Line 5, column 4: "), "{}", reply.detail());
    // Text that is no record at all.
    let junk = import(&app, &player, json!({ "record": "1. h2e2 h9g7 2. banana" })).await;
    junk.expect(StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(junk.body["errors"][0]["meta"]["token"], "banana");
    assert_eq!(junk.body["errors"][0]["meta"]["line"], 1);
    // Nothing sent, an empty record, a variant that cannot be imported.
    import(&app, &player, json!({})).await.expect(StatusCode::UNPROCESSABLE_ENTITY);
    let empty = import(&app, &player, json!({ "record": "  \n" })).await;
    empty.expect(StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(empty.code(), "import.empty");
    let unsupported = import(&app, &player, json!({ "record": "e2e4", "variant": "flickering" })).await;
    unsupported.expect(StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(unsupported.code(), "import.unsupported-variant");
    assert_eq!(games_stored(&app).await, before, "nothing half-stored");
    // Without an account: 401.
    app.post("/api/games/import", None, json!({ "record": liu_dahua(1) }))
        .await
        .expect(StatusCode::UNAUTHORIZED);
    // Over the body limit: 413 in the error shape.
    let huge = "1. h2e2 h9g7\n".repeat(10_000);
    let reply = import(&app, &player, json!({ "record": huge })).await;
    reply.expect(StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(games_stored(&app).await, before);
}

#[tokio::test]
async fn a_shogi_kif_in_utf8_and_shift_jis_imports_and_every_export_reads_back() {
    let app = TestApp::spawn().await;
    let player = app.register("player").await;
    // A real lishogi game as USI moves, imported.
    let line = lishogi_game();
    let reply = import(&app, &player, json!({ "record": line, "variant": "shogi" })).await;
    let first = reply.expect(StatusCode::CREATED).clone();
    let plies = line.split_whitespace().count() as i64;
    assert_eq!(first["game"]["ply"], plies);
    assert_eq!(first["format"], "lines");
    let id = first["game"]["id"].as_i64().unwrap();
    let moves = |game: &Value| -> Vec<Value> {
        game["moves"].as_array().unwrap().iter().map(|m| m["canonical"].clone()).collect()
    };
    // Its KIF export, imported again as a KIF file, UTF-8 and Shift_JIS: the same game.
    let kif = app.get_text(&format!("/games/{id}/record/kif")).await;
    let again = import(&app, &player, json!({ "record": kif })).await;
    let again = again.expect(StatusCode::CREATED);
    assert_eq!(again["format"], "kif");
    assert_eq!(again["game"]["variant"], "shogi", "KIF is Shogi");
    assert_eq!(moves(&again["game"]), moves(&first["game"]));
    let (sjis, _, lossy) = encoding_rs::SHIFT_JIS.encode(&kif);
    assert!(!lossy);
    assert_ne!(sjis.as_ref(), kif.as_bytes(), "the file really is Shift_JIS");
    let encoded = base64::engine::general_purpose::STANDARD.encode(&sjis);
    let from_sjis = import(&app, &player, json!({ "record_base64": encoded })).await;
    let from_sjis = from_sjis.expect(StatusCode::CREATED);
    assert_eq!(from_sjis["format"], "kif");
    assert_eq!(moves(&from_sjis["game"]), moves(&first["game"]));
    // Every other export reads back to the same moves.
    for format in ["csa", "usi"] {
        let text = app.get_text(&format!("/games/{id}/record/{format}")).await;
        let reply = import(&app, &player, json!({ "record": text, "variant": "shogi" })).await;
        assert_eq!(reply.status, StatusCode::CREATED, "{format}: {}\n{text}", reply.body);
        assert_eq!(moves(&reply.body["game"]), moves(&first["game"]), "{format}");
    }
}

#[tokio::test]
async fn an_imported_xiangqi_game_exports_in_every_format_and_reads_back() {
    let app = TestApp::spawn().await;
    let player = app.register("player").await;
    let reply = import(&app, &player, json!({ "record": liu_dahua(2) })).await;
    let first = reply.expect(StatusCode::CREATED).clone();
    let id = first["game"]["id"].as_i64().unwrap();
    let moves = |game: &Value| -> Vec<Value> {
        game["moves"].as_array().unwrap().iter().map(|m| m["canonical"].clone()).collect()
    };
    for format in ["pgn-iccs", "pgn-wxf"] {
        let text = app.get_text(&format!("/games/{id}/record/{format}")).await;
        assert!(text.contains("LIU DaHua"), "{format} names the players: {text}");
        let reply = import(&app, &player, json!({ "record": text })).await;
        assert_eq!(reply.status, StatusCode::CREATED, "{format}: {}\n{text}", reply.body);
        assert_eq!(moves(&reply.body["game"]), moves(&first["game"]), "{format}");
        assert_eq!(reply.body["game"]["seats"][1]["username"], first["game"]["seats"][1]["username"]);
        assert_eq!(reply.body["game"]["result"], first["game"]["result"]);
    }
}

#[tokio::test]
async fn the_openapi_document_describes_the_ruling_and_the_import() {
    let app = TestApp::spawn().await;
    let doc = app.get("/api/openapi.json", None).await.expect(StatusCode::OK).clone();
    let schemas = &doc["components"]["schemas"];
    assert!(schemas["GameView"]["properties"]["ruling"].is_object(), "{}", schemas["GameView"]);
    for field in ["law", "citation", "ply", "against", "evidence"] {
        assert!(schemas["Ruling"]["properties"][field].is_object(), "Ruling.{field}: {}", schemas["Ruling"]);
    }
    assert!(schemas["Evidence"].is_object(), "the evidence's kinds are described");
    let import = &doc["paths"]["/api/games/import"]["post"];
    assert!(import["responses"]["201"].is_object(), "{import}");
    for field in ["variant", "record", "record_base64"] {
        assert!(schemas["ImportRequest"]["properties"][field].is_object(), "{field}");
    }
}

/// Games 1 to `count` of the lishogi collection, as USI move lines.
fn lishogi_games(count: usize) -> Vec<&'static str> {
    LISHOGI.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')).take(count).collect()
}

#[tokio::test]
async fn every_game_of_a_kif_or_csa_file_of_several_is_imported_and_each_bad_one_is_named() {
    let app = TestApp::spawn().await;
    let player = app.register("player").await;
    let canonical = |game: &Value| -> Vec<Value> {
        game["moves"].as_array().unwrap().iter().map(|m| m["canonical"].clone()).collect()
    };
    // Three real games, stored one by one, and their KIF and CSA records as the server
    // writes them.
    let mut originals = Vec::new();
    let (mut kifs, mut csas) = (Vec::new(), Vec::new());
    for line in lishogi_games(3) {
        let reply = import(&app, &player, json!({ "record": line, "variant": "shogi" })).await;
        let game = reply.expect(StatusCode::CREATED)["game"].clone();
        let id = game["id"].as_i64().unwrap();
        kifs.push(app.get_text(&format!("/games/{id}/record/kif")).await);
        csas.push(app.get_text(&format!("/games/{id}/record/csa")).await);
        originals.push(canonical(&game));
    }
    for (format, file) in [("kif", kifs.join("\n")), ("csa", csas.join("/\n"))] {
        let before = games_stored(&app).await;
        let reply = import(&app, &player, json!({ "record": file })).await;
        let body = reply.expect(StatusCode::CREATED).clone();
        assert_eq!(body["format"], format);
        let games = body["games"].as_array().unwrap().clone();
        assert_eq!(games.len(), 3, "{format}: every game, not the first alone");
        assert_eq!(games_stored(&app).await, before + 3);
        assert_eq!(body["game"]["id"], games[0]["id"], "the first game's view as before");
        for (i, entry) in games.iter().enumerate() {
            assert_eq!(entry["number"], i as i64 + 1);
            let stored = app.game(entry["id"].as_i64().unwrap()).await;
            assert_eq!(canonical(&stored), originals[i], "{format} game {}", i + 1);
            assert_eq!(entry["plies"], originals[i].len() as i64);
        }
    }

    // A CSA file whose second and third games have a bad move: one error per game, each
    // with its game and its line in the file, and nothing stored (not even game 1).
    let broken = |csa: &str, bad: &str| {
        let lines: Vec<&str> = csa.lines().collect();
        let at = lines.iter().rposition(|l| l.starts_with('+') || l.starts_with('-')).unwrap();
        let mut lines: Vec<String> = lines.iter().map(|l| (*l).to_owned()).collect();
        lines[at] = bad.to_owned();
        (lines.join("\n") + "\n", at + 1)
    };
    let (second, second_line) = broken(&csas[1], "+9999OU");
    let (third, third_line) = broken(&csas[2], "-1112XX");
    let file = format!("{}/\n{second}/\n{third}", csas[0]);
    let before = games_stored(&app).await;
    let reply = import(&app, &player, json!({ "record": file })).await;
    let errors = reply.expect(StatusCode::UNPROCESSABLE_ENTITY)["errors"].as_array().unwrap().clone();
    assert_eq!(errors.len(), 2, "{errors:?}");
    let first_lines = csas[0].lines().count() + 1;
    let second_lines = second.lines().count() + 1;
    assert_eq!(errors[0]["meta"]["game"], 2);
    assert_eq!(errors[0]["meta"]["line"], (first_lines + second_line) as i64, "{errors:?}");
    assert!(errors[0]["detail"].as_str().unwrap().starts_with("Game 2: Line "), "{errors:?}");
    assert_eq!(errors[1]["meta"]["game"], 3);
    assert_eq!(errors[1]["meta"]["line"], (first_lines + second_lines + third_line) as i64, "{errors:?}");
    assert_eq!(games_stored(&app).await, before, "a bad game stores nothing");
}

#[tokio::test]
async fn a_games_json_fits_the_buffer_the_api_writes_it_into_and_is_what_the_api_answers() {
    // The API writes a game's view into a buffer of `expected_json_size` bytes at once
    // (server/http/extract.rs, `GameJson`): a view larger than its guess would be copied
    // while it grows. Real records, the longest lishogi game, one with a ruling's evidence,
    // and a game in play (its legal moves).
    let app = TestApp::spawn().await;
    let director = app.register("director").await;
    let longest_lishogi = LISHOGI
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .max_by_key(|l| l.split_whitespace().count())
        .expect("a game");
    let records = [
        json!({ "record": liu_dahua(1) }),
        json!({ "record": liu_dahua(935), "variant": "xiangqi" }),
        json!({ "record": longest_lishogi, "variant": "shogi" }),
    ];
    let mut games = Vec::new();
    for record in records {
        let body = import(&app, &director, record).await.expect(StatusCode::CREATED).clone();
        games.push(body["game"]["id"].as_i64().unwrap());
    }
    let (first, second) = (app.register("first").await, app.register("second").await);
    let playing =
        app.start_game("xiangqi", &first, &second, json!({"kind": "days-per-move", "days": 3})).await;
    for (ply, text) in ["h2e2", "h9g7", "h0g2", "i9h9"].into_iter().enumerate() {
        let mover = if ply % 2 == 0 { &first } else { &second };
        app.post_move(mover, playing, text, ply as i64).await.expect(StatusCode::CREATED);
    }
    games.push(playing);
    for id in games {
        let view = tavoliere::domain::games::view(&app.domain, id).await.expect("the view");
        let json = serde_json::to_vec(&view).unwrap();
        assert!(
            json.len() <= view.expected_json_size(),
            "game {id} ({} moves): {} bytes, {} expected",
            view.moves.len(),
            json.len(),
            view.expected_json_size()
        );
        let answer = app.client.get(format!("{}/api/games/{id}", app.address)).send().await.unwrap();
        assert_eq!(answer.status(), StatusCode::OK);
        assert_eq!(answer.headers()["content-type"], "application/json");
        assert_eq!(answer.bytes().await.unwrap(), json, "game {id}: the API's answer is the view");
    }
}
