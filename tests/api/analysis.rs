//! Computer analysis of finished games with the real Fairy-Stockfish (issue 41): the
//! judgements, the coordinates of every game the engine plays, the refusals, the queue
//! across a restart, the page's chart and form.

use std::time::Duration;

use reqwest::header::{COOKIE, LOCATION, SET_COOKIE};
use reqwest::StatusCode;
use serde_json::{json, Value};
use tavoliere_rules::variant::{AnyGame, Variant};

use crate::support::{three_days, TestApp, User};

/// An app whose one worker analyses at a small depth (fast tests).
async fn analysing_app() -> TestApp {
    TestApp::spawn_with(|settings| {
        settings.analysis.poll_interval_ms = 50;
        settings.analysis.depth = 8;
    })
    .await
}

/// A game of `variant` between two new players with `moves`, then resigned by the side to
/// move → (game, first player, second player).
async fn finished_game(app: &TestApp, variant: &str, moves: &[&str]) -> (i64, User, User) {
    let first = app.register(&format!("{}-first", variant.replace('-', ""))).await;
    let second = app.register(&format!("{}-second", variant.replace('-', ""))).await;
    let game = app.start_game(variant, &first, &second, three_days()).await;
    for (i, text) in moves.iter().enumerate() {
        let mover = if i % 2 == 0 { &first } else { &second };
        app.post_move(mover, game, text, i as i64).await.expect(StatusCode::CREATED);
    }
    let resigning = if moves.len().is_multiple_of(2) { &first } else { &second };
    app.act(Some(resigning), game, "resign").await.expect(StatusCode::OK);
    (game, first, second)
}

/// Polls the analysis of `game` until it is done (or failed) → its JSON.
async fn analysed(app: &TestApp, game: i64) -> Value {
    for _ in 0..1200 {
        let reply = app.get(&format!("/api/games/{game}/analysis"), None).await;
        let body = reply.expect(StatusCode::OK).clone();
        match body["status"].as_str() {
            Some("done") | Some("failed") => return body,
            _ => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
    panic!("the analysis of game {game} did not finish");
}

/// Asserts that every ply has a score and a best move legal in the position before it,
/// replaying `moves` with the rules from the standard start of `variant`.
fn assert_scores_and_legal_best_moves(variant: &str, moves: &[&str], analysis: &Value) {
    let variant: Variant = variant.parse().unwrap();
    assert_scores_and_legal_best_moves_from(AnyGame::new(variant, None).unwrap(), moves, analysis);
}

/// The same from the start `game`.
fn assert_scores_and_legal_best_moves_from(mut game: AnyGame, moves: &[&str], analysis: &Value) {
    let plies = analysis["plies"].as_array().expect("plies");
    assert_eq!(plies.len(), moves.len(), "{analysis}");
    for (i, (ply, played)) in plies.iter().zip(moves).enumerate() {
        assert_eq!(ply["ply"], json!(i + 1));
        assert_eq!(ply["move"], json!(played));
        let score = &ply["score"];
        assert!(
            score["cp"].is_i64() ^ score["mate"].is_i64(),
            "ply {}: a score in centipawns or a mate: {score}",
            i + 1
        );
        let best = ply["best"].as_str().unwrap_or_else(|| panic!("ply {}: a best move: {ply}", i + 1));
        assert!(
            game.legal_moves().iter().any(|m| m == best),
            "ply {}: {best} is not legal in {}",
            i + 1,
            game.fen()
        );
        game.play(played).unwrap();
    }
}

#[tokio::test]
async fn the_cannon_left_en_prise_after_the_central_cannon_is_marked_and_the_sound_moves_are_not() {
    let app = analysing_app().await;
    // 1. C2=5 C8-... : Black's cannon to h2 stands where Red's other cannon takes it
    // (about −4.6 pawns for Black); 2. C8.. takes it, the engine's own move.
    let moves = ["h2e2", "h7h2", "b2h2", "b9c7"];
    let (game, first, _) = finished_game(&app, "xiangqi", &moves).await;
    let reply = app.post(&format!("/api/games/{game}/analysis"), Some(&first), json!({})).await;
    let queued = reply.expect(StatusCode::ACCEPTED).clone();
    assert!(["queued", "running", "done"].contains(&queued["status"].as_str().unwrap()), "{queued}");
    let analysis = analysed(&app, game).await;
    assert_eq!(analysis["status"], "done", "{analysis}");
    assert!(analysis["engine"].as_str().unwrap().starts_with("Fairy-Stockfish"), "{analysis}");
    assert_eq!(analysis["depth"], 8);
    assert_scores_and_legal_best_moves("xiangqi", &moves, &analysis);
    let plies = analysis["plies"].as_array().unwrap();
    assert!(
        ["mistake", "blunder"].contains(&plies[1]["judgement"].as_str().unwrap_or("none")),
        "h7h2 is a mistake or a blunder: {}",
        plies[1]
    );
    assert_ne!(plies[1]["best"], "h7h2");
    assert!(plies[1]["score"]["cp"].as_i64().unwrap() > 200, "Red is winning after it: {}", plies[1]);
    for sound in [0, 2] {
        assert_eq!(plies[sound]["judgement"], Value::Null, "ply {} is sound: {}", sound + 1, plies[sound]);
    }
    // Stored: asked again, nothing is computed again.
    let again = app.post(&format!("/api/games/{game}/analysis"), Some(&first), json!({})).await;
    assert_eq!(again.expect(StatusCode::ACCEPTED), &analysis);
    let attempts: i32 = sqlx::query_scalar("select attempts from game_analysis where game_id = $1")
        .bind(game)
        .fetch_one(&app.domain.pool)
        .await
        .unwrap();
    assert_eq!(attempts, 1);
}

#[tokio::test]
async fn shogi_and_minishogi_games_are_analysed_in_their_own_coordinates() {
    let app = analysing_app().await;
    // The bishops are exchanged: a drop is among the moves that follow.
    let shogi = ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"];
    let (shogi_game, first, _) = finished_game(&app, "shogi", &shogi).await;
    let mini = ["2e3d", "4a3b", "3d2c", "3b2c"];
    let (mini_game, _, _) = finished_game(&app, "minishogi", &mini).await;
    for game in [shogi_game, mini_game] {
        app.post(&format!("/api/games/{game}/analysis"), Some(&first), json!({}))
            .await
            .expect(StatusCode::ACCEPTED);
    }
    let analysis = analysed(&app, shogi_game).await;
    assert_eq!(analysis["status"], "done", "{analysis}");
    assert_scores_and_legal_best_moves("shogi", &shogi, &analysis);
    let analysis = analysed(&app, mini_game).await;
    assert_eq!(analysis["status"], "done", "{analysis}");
    assert_scores_and_legal_best_moves("minishogi", &mini, &analysis);
}

#[tokio::test]
async fn an_active_game_and_a_variant_the_engine_cannot_play_are_refused() {
    let app = TestApp::spawn().await;
    let red = app.register("red").await;
    let black = app.register("black").await;
    let game = app.start_game("xiangqi", &red, &black, three_days()).await;
    app.post_move(&red, game, "h2e2", 0).await.expect(StatusCode::CREATED);
    let path = format!("/api/games/{game}/analysis");
    let refused = app.post(&path, Some(&black), json!({})).await;
    refused.expect(StatusCode::CONFLICT);
    assert_eq!(refused.code(), "analysis.game-active");
    app.post(&path, None, json!({})).await.expect(StatusCode::UNAUTHORIZED);
    let none = app.get(&path, None).await;
    none.expect(StatusCode::NOT_FOUND);
    assert_eq!(none.code(), "analysis.not-requested");
    let chess = app
        .start_game_with(&red, &black, json!({"variant": "flickering", "time_control": three_days()}))
        .await;
    app.act(Some(&red), chess, "resign").await.expect(StatusCode::OK);
    let refused = app.post(&format!("/api/games/{chess}/analysis"), Some(&red), json!({})).await;
    refused.expect(StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(refused.code(), "analysis.unsupported-variant");
    app.post("/api/games/999999/analysis", Some(&red), json!({})).await.expect(StatusCode::NOT_FOUND);
    let rows: i64 =
        sqlx::query_scalar("select count(*) from game_analysis").fetch_one(&app.domain.pool).await.unwrap();
    assert_eq!(rows, 0, "no refused request is queued");
}

#[tokio::test]
async fn a_request_for_a_queued_game_is_free_and_the_daily_limit_holds() {
    // No workers: the requests stay queued.
    let app = TestApp::spawn_with(|settings| settings.analysis.requests_per_account_per_day = 1).await;
    let (first_game, first, second) = finished_game(&app, "xiangqi", &["h2e2", "h9g7"]).await;
    let path = |game: i64| format!("/api/games/{game}/analysis");
    let queued = app.post(&path(first_game), Some(&first), json!({})).await;
    assert_eq!(
        queued.expect(StatusCode::ACCEPTED),
        &json!({"status": "queued", "engine": null, "depth": null, "plies": []})
    );
    // The same game again, by anyone: the same state, nothing counted.
    app.post(&path(first_game), Some(&first), json!({})).await.expect(StatusCode::ACCEPTED);
    app.post(&path(first_game), Some(&second), json!({})).await.expect(StatusCode::ACCEPTED);
    let other = app.start_game("xiangqi", &first, &second, three_days()).await;
    app.act(Some(&first), other, "resign").await.expect(StatusCode::OK);
    let limited = app.post(&path(other), Some(&first), json!({})).await;
    limited.expect(StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(limited.code(), "analysis.daily-limit");
    // Another account still may.
    app.post(&path(other), Some(&second), json!({})).await.expect(StatusCode::ACCEPTED);
}

#[tokio::test]
async fn without_an_engine_the_feature_is_off_and_says_so() {
    let app = TestApp::spawn_with(|settings| {
        settings.analysis.engine = Some("/nonexistent/fairy-stockfish".into());
    })
    .await;
    let (game, first, _) = finished_game(&app, "xiangqi", &["h2e2", "h9g7"]).await;
    let refused = app.post(&format!("/api/games/{game}/analysis"), Some(&first), json!({})).await;
    refused.expect(StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(refused.code(), "analysis.unavailable");
    let page = app.get_text(&format!("/games/{game}")).await;
    assert!(!page.contains("id=\"computer-analysis\""), "no analysis section without an engine");
}

#[tokio::test]
async fn a_game_whose_worker_died_mid_analysis_is_analysed_by_the_next_server() {
    use crate::support::process::ServerProcess;
    let database_url = crate::support::Cluster::get().fresh_database().await;
    let env = [
        ("TAVOLIERE_DATABASE__URL", database_url.as_str()),
        ("TAVOLIERE_ANALYSIS__POLL_INTERVAL_MS", "50"),
        ("TAVOLIERE_ANALYSIS__DEPTH", "10"),
        ("TAVOLIERE_ANALYSIS__CLAIM_SECONDS", "2"),
    ];
    let mut first = ServerProcess::start_with(&env);
    let app = TestApp::attach(&first.address, &database_url).await;
    // A game long enough that the first server is still at it when it dies.
    let moves = [
        "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b0c2", "a9b9", "a0b0", "c6c5", "g3g4", "c9e7",
        "c3c4", "f9e8", "f0e1", "h7i7", "b2a2", "b7a7", "i3i4", "a6a5",
    ];
    let (game, first_player, _) = finished_game(&app, "xiangqi", &moves).await;
    app.post(&format!("/api/games/{game}/analysis"), Some(&first_player), json!({}))
        .await
        .expect(StatusCode::ACCEPTED);
    let status = || async {
        sqlx::query_scalar::<_, String>("select status from game_analysis where game_id = $1")
            .bind(game)
            .fetch_one(&app.domain.pool)
            .await
            .unwrap()
    };
    for attempt in 0.. {
        if status().await == "running" {
            break;
        }
        assert!(attempt < 600, "the first server never claimed the game");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    first.kill();
    assert_eq!(status().await, "running", "the first server died in the middle of the analysis");
    let second = ServerProcess::start_with(&env);
    let app = TestApp::attach(&second.address, &database_url).await;
    let analysis = analysed(&app, game).await;
    assert_eq!(analysis["status"], "done", "{analysis}");
    assert_scores_and_legal_best_moves("xiangqi", &moves, &analysis);
    let attempts: i32 = sqlx::query_scalar("select attempts from game_analysis where game_id = $1")
        .bind(game)
        .fetch_one(&app.domain.pool)
        .await
        .unwrap();
    assert_eq!(attempts, 2, "claimed by the dead server, then by the next once its claim ran out");
}

#[tokio::test]
async fn the_page_offers_the_request_by_form_and_shows_the_chart_with_the_marks() {
    let app = analysing_app().await;
    let moves = ["h2e2", "h7h2", "b2h2", "b9c7"];
    let (game, first, _) = finished_game(&app, "xiangqi", &moves).await;
    // Signed in by cookie, as a browser is.
    let login = app
        .client
        .post(format!("{}/api/session", app.address))
        .json(&json!({"username": first.name, "password": format!("password-of-{}", first.name)}))
        .send()
        .await
        .unwrap();
    let cookie = login.headers()[SET_COOKIE].to_str().unwrap().split(';').next().unwrap().to_owned();
    let page = app
        .client
        .get(format!("{}/games/{game}", app.address))
        .header(COOKIE, &cookie)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let form = format!(r#"action="/games/{game}/computer-analysis""#);
    let at = page.find(&form).expect("the request form");
    let marker = r#"name="csrf" value=""#;
    let token_at = page[at..].find(marker).unwrap() + at + marker.len();
    let token = &page[token_at..token_at + page[token_at..].find('"').unwrap()];
    let post = |csrf: String| {
        app.client
            .post(format!("{}/games/{game}/computer-analysis", app.address))
            .header(COOKIE, &cookie)
            .header("content-type", "application/x-www-form-urlencoded")
            .body(format!("csrf={csrf}"))
            .send()
    };
    let forged = post("0".repeat(64)).await.unwrap();
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);
    let rows: i64 =
        sqlx::query_scalar("select count(*) from game_analysis").fetch_one(&app.domain.pool).await.unwrap();
    assert_eq!(rows, 0, "a forged form queues nothing");
    let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let sent = client
        .post(format!("{}/games/{game}/computer-analysis", app.address))
        .header(COOKIE, &cookie)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(format!("csrf={token}"))
        .send()
        .await
        .unwrap();
    assert_eq!(sent.status(), StatusCode::SEE_OTHER);
    assert_eq!(sent.headers()[LOCATION], format!("/games/{game}#computer-analysis").as_str());
    assert_eq!(analysed(&app, game).await["status"], "done");
    // Anyone sees the chart; its points step the board to their ply.
    let page = app.get_text(&format!("/games/{game}")).await;
    assert!(page.contains(r#"<svg class="eval-chart""#), "the chart");
    for ply in 1..=moves.len() {
        assert!(page.contains(&format!(r#"href="/games/{game}?ply={ply}""#)), "ply {ply} has its point");
    }
    assert!(!page.contains(&form), "nothing more to request");
    // A point's link shows the board at its ply (the game page's stepping).
    let stepped = app.get_text(&format!("/games/{game}?ply=2")).await;
    assert!(stepped.contains("board.svg?ply=2"), "the page at ply 2");
    let marks = &page[page.find(r#"id="analysis-marks""#).expect("the marked moves")..];
    let marks = &marks[..marks.find("</ol>").expect("a list of marked moves")];
    assert!(marks.contains(&format!(r#"href="/games/{game}?ply=2""#)), "h7h2 is marked: {marks}");
    assert!(marks.contains("?</a>") || marks.contains("??</a>"), "with ? or ??: {marks}");
    assert!(marks.contains("best-move"), "and the better move: {marks}");
    assert!(
        !marks.contains("?ply=1\"") && !marks.contains("?ply=3\""),
        "the sound moves are not marked: {marks}"
    );
}

#[tokio::test]
async fn handicap_games_are_analysed_from_their_real_start() {
    let app = analysing_app().await;
    let stronger = app.register("stronger").await;
    let weaker = app.register("weaker").await;
    // A Xiangqi move handicap (the receiver's first turn is several moves: no UCI move
    // list can say that) and a Shogi handicap (White, the stronger side, moves first).
    for (variant, ruleset, handicap) in [("xiangqi", "cxq", "two-moves"), ("shogi", "shogi-24", "bishop")] {
        let game = app
            .start_game_with(
                &stronger,
                &weaker,
                json!({"variant": variant, "ruleset": ruleset, "handicap": handicap, "time_control": three_days()}),
            )
            .await;
        // Each side to move plays its first legal move, six moves in all.
        let mut played = Vec::new();
        let mut movers = Vec::new();
        let first_side = app.game(game).await["side_to_move"].clone();
        for _ in 0..6 {
            let view = app.game(game).await;
            let mover = if view["to_move"] == stronger.name.as_str() { &stronger } else { &weaker };
            let text = view["legal_moves"][0].as_str().unwrap().to_owned();
            app.post_move(mover, game, &text, view["ply"].as_i64().unwrap())
                .await
                .expect(StatusCode::CREATED);
            played.push(text);
            movers.push(mover.name.clone());
        }
        if handicap == "two-moves" {
            assert!(movers.windows(2).any(|w| w[0] == w[1]), "a turn of two moves: {movers:?}");
        } else {
            assert_eq!(first_side, "second", "White (gote), the handicap giver, moves first");
        }
        app.act(Some(&weaker), game, "resign").await.expect(StatusCode::OK);
        app.post(&format!("/api/games/{game}/analysis"), Some(&weaker), json!({}))
            .await
            .expect(StatusCode::ACCEPTED);
        let analysis = analysed(&app, game).await;
        assert_eq!(analysis["status"], "done", "{variant} {handicap}: {analysis}");
        let start = tavoliere::domain::rules_adapter::new_game(
            variant.parse().unwrap(),
            ruleset,
            Some(handicap),
            None,
            2,
        )
        .unwrap();
        let moves: Vec<&str> = played.iter().map(String::as_str).collect();
        assert_scores_and_legal_best_moves_from(start, &moves, &analysis);
    }
}

#[tokio::test]
async fn an_engine_that_stops_answering_is_killed_and_the_game_analysed_by_a_new_one() {
    // The engine's first start hangs (it never says `uciok`); later starts are the real one.
    let dir = std::env::temp_dir().join(format!("tavoliere-hung-engine-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mark = dir.join("started-once");
    let _ = std::fs::remove_file(&mark);
    let script = dir.join("engine.sh");
    let engine = tavoliere::analysis::find_engine(None).expect("fairy-stockfish is installed");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nif [ ! -e '{mark}' ]; then touch '{mark}'; exec sleep 600; fi\nexec '{engine}'\n",
            mark = mark.display(),
            engine = engine.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let app = TestApp::spawn_with(|settings| {
        settings.analysis.engine = Some(script.clone());
        settings.analysis.poll_interval_ms = 50;
        settings.analysis.depth = 6;
        settings.analysis.engine_timeout_seconds = 1;
    })
    .await;
    let moves = ["h2e2", "h9g7"];
    let (game, first, _) = finished_game(&app, "xiangqi", &moves).await;
    app.post(&format!("/api/games/{game}/analysis"), Some(&first), json!({}))
        .await
        .expect(StatusCode::ACCEPTED);
    let analysis = analysed(&app, game).await;
    assert!(mark.exists(), "the hung engine was started");
    assert_eq!(analysis["status"], "done", "{analysis}");
    assert_scores_and_legal_best_moves("xiangqi", &moves, &analysis);
    let (attempts, error): (i32, Option<String>) =
        sqlx::query_as("select attempts, last_error from game_analysis where game_id = $1")
            .bind(game)
            .fetch_one(&app.domain.pool)
            .await
            .unwrap();
    assert_eq!(attempts, 2, "the first attempt's engine hung");
    assert_eq!(error, None, "the error is cleared by the success");
    let _ = std::fs::remove_dir_all(&dir);
}
