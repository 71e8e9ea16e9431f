//! What issue 38 adds under the site's tournament pages, through the API and the real SMTP
//! sink: a section's rating limits and the coded refusals of an entry, the notices of an
//! event (registration open for its followers, a round's results final for its players
//! and followers, in the app and by mail) and the deadlines of a player's events.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::smtp::{link, SmtpSink};
use crate::support::{TestApp, User};
use crate::tournaments::{create_section, create_tournament, open_registration, patch, start, with_role};

/// Gives `name` a current rating of `rating` in Xiangqi correspondence.
async fn rate(app: &TestApp, name: &str, rating: f64) {
    sqlx::query(
        r#"insert into rating (account_id, variant, pool, rating, deviation, volatility, games, rated_at)
           select account_id, 'xiangqi', 'correspondence', $2, 60, 0.06, 20, now()
           from account where username = $1"#,
    )
    .bind(name)
    .bind(rating)
    .execute(&app.domain.pool)
    .await
    .unwrap();
}

async fn follow(app: &TestApp, name: &str, tournament: i64) {
    sqlx::query(
        r#"insert into tournament_follower (tournament_id, account_id, followed_at)
           select $1, account_id, now() from account where username = $2"#,
    )
    .bind(tournament)
    .bind(name)
    .execute(&app.domain.pool)
    .await
    .unwrap();
}

/// The notifications of `kind` of `user` (in-app list, newest first).
async fn notices(app: &TestApp, user: &User, kind: &str) -> Vec<Value> {
    let listed = app.get("/api/notifications", Some(user)).await;
    listed.expect(StatusCode::OK)["notifications"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["kind"] == kind)
        .cloned()
        .collect()
}

/// Waits until `user` has `count` notifications of `kind` (they are written just after the
/// commit that gave the round its last result).
async fn wait_for_notices(app: &TestApp, user: &User, kind: &str, count: usize) -> Vec<Value> {
    for _ in 0..200 {
        let found = notices(app, user, kind).await;
        if found.len() >= count {
            return found;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("{} never had {count} {kind} notifications", user.name);
}

#[tokio::test]
async fn a_section_takes_entries_within_its_rating_limits_and_says_why_not() {
    let app = TestApp::spawn().await;
    let director = with_role(&app, "director", "director").await;
    let tournament = create_tournament(&app, &director, "Coppa").await;
    let section =
        create_section(&app, &director, tournament, json!({"rating_min": 1600, "rating_max": 2000})).await;
    let shown = app.get(&format!("/api/sections/{section}"), None).await;
    assert_eq!(shown.expect(StatusCode::OK)["rating_min"], 1600);
    assert_eq!(shown.body["rating_max"], 2000);
    let entries = format!("/api/sections/{section}/entries");

    let weak = app.register("weak").await;
    let closed = app.post(&entries, Some(&weak), json!({})).await;
    assert_eq!((closed.status, closed.code()), (StatusCode::CONFLICT, "entry.registration-closed"));
    open_registration(&app, &director, tournament).await;

    let unrated = app.post(&entries, Some(&weak), json!({})).await;
    assert_eq!((unrated.status, unrated.code()), (StatusCode::FORBIDDEN, "entry.unrated"));
    rate(&app, "weak", 1500.4).await;
    let low = app.post(&entries, Some(&weak), json!({})).await;
    assert_eq!((low.status, low.code()), (StatusCode::FORBIDDEN, "entry.rating-too-low"));
    assert!(low.detail().contains("1500") && low.detail().contains("1600"), "{}", low.detail());
    let strong = app.register("strong").await;
    rate(&app, "strong", 2100.0).await;
    let high = app.post(&entries, Some(&strong), json!({})).await;
    assert_eq!((high.status, high.code()), (StatusCode::FORBIDDEN, "entry.rating-too-high"));
    let fit = app.register("fit").await;
    rate(&app, "fit", 1800.0).await;
    app.post(&entries, Some(&fit), json!({})).await.expect(StatusCode::CREATED);
    let again = app.post(&entries, Some(&fit), json!({})).await;
    assert_eq!((again.status, again.code()), (StatusCode::CONFLICT, "entry.already-entered"));
    // The directors may enter anyone.
    app.post(&entries, Some(&director), json!({"username": "weak"})).await.expect(StatusCode::CREATED);

    // Limits are checked as a pair; 0 removes one.
    let section_path = format!("/api/sections/{section}");
    let crossed = patch(&app, &section_path, Some(&director), json!({"rating_min": 2500})).await;
    assert_eq!(crossed.status, StatusCode::UNPROCESSABLE_ENTITY, "{:?}", crossed.body);
    let removed = patch(&app, &section_path, Some(&director), json!({"rating_max": 0})).await;
    assert_eq!(removed.expect(StatusCode::OK)["rating_max"], Value::Null);
    app.post(&entries, Some(&strong), json!({})).await.expect(StatusCode::CREATED);
    let bad = json!({"name": "B", "variant": "xiangqi", "pairing": "round-robin",
                     "time_control": crate::support::three_days(), "rating_min": 0});
    let refused = app.post(&format!("/api/tournaments/{tournament}/sections"), Some(&director), bad).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);

    start(&app, &director, section).await;
    let started = app.post(&entries, Some(&director), json!({"username": "director"})).await;
    assert_eq!((started.status, started.code()), (StatusCode::CONFLICT, "entry.section-started"));
}

#[tokio::test]
async fn a_rounds_players_and_followers_hear_once_when_its_results_are_final() {
    let app = TestApp::spawn().await;
    let director = with_role(&app, "director", "director").await;
    let tournament = create_tournament(&app, &director, "Coppa").await;
    let section =
        create_section(&app, &director, tournament, json!({"start_policy": "round-by-round"})).await;
    let mut players = Vec::new();
    for name in ["player1", "player2", "player3", "player4"] {
        players.push(app.register(name).await);
        let body = json!({"username": name});
        app.post(&format!("/api/sections/{section}/entries"), Some(&director), body)
            .await
            .expect(StatusCode::CREATED);
    }
    let fan = app.register("fan").await;
    follow(&app, "fan", tournament).await;
    let games = start(&app, &director, section).await;
    assert_eq!(games.len(), 2, "round 1 of four players");
    // Paired: both players of each game hear it (the existing round-started notice).
    assert_eq!(notices(&app, &players[0], "round-started").await.len(), 1);

    let seat = |game: &Value, seat: usize| game["seats"][seat]["username"].as_str().unwrap().to_owned();
    let player = |name: String| players.iter().find(|p| p.name == name).unwrap();
    let first = app.game(games[0]).await;
    app.act(Some(player(seat(&first, 1))), games[0], "resign").await.expect(StatusCode::OK);
    // One game of two: the round is not final; nobody hears of it.
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert!(notices(&app, &fan, "round-finished").await.is_empty(), "round 1 still has a game in play");

    let second = app.game(games[1]).await;
    app.act(Some(player(seat(&second, 0))), games[1], "draw/offer").await.expect(StatusCode::OK);
    app.act(Some(player(seat(&second, 1))), games[1], "draw/accept").await.expect(StatusCode::OK);
    let told = wait_for_notices(&app, &fan, "round-finished", 1).await;
    assert_eq!(told[0]["tournament_id"], tournament);
    assert_eq!(told[0]["details"]["round"], 1);
    assert_eq!(told[0]["details"]["tournament"], "Coppa");
    assert_eq!(told[0]["details"]["section"], "Xiangqi A");
    for player in &players {
        assert_eq!(wait_for_notices(&app, player, "round-finished", 1).await.len(), 1, "{}", player.name);
    }
    assert!(notices(&app, &director, "round-finished").await.is_empty(), "the director plays no game");

    // A correction of a final round tells nobody again.
    let corrected = json!({"result": "0-1", "reason": "misreported"});
    app.post(&format!("/api/games/{}/result-corrections", games[0]), Some(&director), corrected)
        .await
        .expect(StatusCode::OK);
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(notices(&app, &fan, "round-finished").await.len(), 1, "one notice per round");

    // The next round is told in its turn; a game decided by a director completes it.
    app.post(&format!("/api/sections/{section}/next-round"), Some(&director), json!({}))
        .await
        .expect(StatusCode::CREATED);
    let round_two: Vec<i64> = app.get(&format!("/api/sections/{section}/rounds"), None).await.body["rounds"]
        [1]["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["game_id"].as_i64().unwrap())
        .collect();
    for game in round_two {
        let body = json!({"result": "1/2-1/2", "reason": "agreed by mail"});
        app.post(&format!("/api/games/{game}/adjudicate"), Some(&director), body)
            .await
            .expect(StatusCode::OK);
    }
    let told = wait_for_notices(&app, &fan, "round-finished", 2).await;
    assert_eq!(told[0]["details"]["round"], 2);
}

#[tokio::test]
async fn followers_are_mailed_when_registration_opens_and_when_a_round_is_final() {
    let sink = SmtpSink::start();
    let url = sink.url();
    let app = TestApp::spawn_with(move |settings| {
        settings.mail.smtp_url = Some(url.into());
        settings.mail.poll_interval_ms = 100;
    })
    .await;
    let fan = app.register("fan").await;
    app.patch("/api/accounts/me", Some(&fan), json!({"email": "fan@example.org"}))
        .await
        .expect(StatusCode::OK);
    let mail = sink.wait_for("fan@example.org", 1).await.remove(0);
    let verify = link(mail["text"].as_str().unwrap(), &format!("{}/email/verify?", app.address));
    assert_eq!(app.client.get(&verify).send().await.unwrap().status(), StatusCode::OK);
    // Italian mails for this reader.
    app.patch("/api/accounts/me/preferences", Some(&fan), json!({"language": "it"}))
        .await
        .expect(StatusCode::OK);

    let director = with_role(&app, "director", "director").await;
    let tournament = create_tournament(&app, &director, "Coppa Italia").await;
    follow(&app, "fan", tournament).await;
    open_registration(&app, &director, tournament).await;
    let mail = sink.wait_for_subject("fan@example.org", "Coppa Italia").await;
    let subject = mail["headers"]["subject"].as_str().unwrap();
    assert!(subject.contains("iscrizioni aperte"), "{subject}");
    let page = format!("{}/tournaments/{tournament}", app.address);
    assert!(mail["text"].as_str().unwrap().contains(&page), "{}", mail["text"]);
    assert_eq!(app.client.get(&page).send().await.unwrap().status(), StatusCode::OK, "the link works");
    // Opening it again (it is open) tells nobody twice.
    open_registration(&app, &director, tournament).await;
    assert_eq!(notices(&app, &fan, "registration-open").await.len(), 1);

    // A round of two players ends: its follower is mailed that its results are final.
    let section = create_section(&app, &director, tournament, json!({})).await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    for user in [&alice, &bob] {
        app.post(&format!("/api/sections/{section}/entries"), Some(user), json!({}))
            .await
            .expect(StatusCode::CREATED);
    }
    let game = start(&app, &director, section).await[0];
    let loser = if app.game(game).await["seats"][0]["username"] == "alice" { &bob } else { &alice };
    app.act(Some(loser), game, "resign").await.expect(StatusCode::OK);
    let mail = sink.wait_for_subject("fan@example.org", "turno 1").await;
    let text = mail["text"].as_str().unwrap();
    assert!(text.contains("definitiv") && text.contains(&page), "{text}");
}

#[tokio::test]
async fn a_players_events_list_the_deadlines_of_their_games_in_play() {
    let app = TestApp::spawn().await;
    let director = with_role(&app, "director", "director").await;
    let tournament = create_tournament(&app, &director, "Coppa").await;
    let section = create_section(&app, &director, tournament, json!({})).await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    for name in ["alice", "bob"] {
        let body = json!({"username": name});
        app.post(&format!("/api/sections/{section}/entries"), Some(&director), body)
            .await
            .expect(StatusCode::CREATED);
    }
    let game = start(&app, &director, section).await[0];
    let mine = app.get("/api/accounts/me/tournaments", Some(&alice)).await;
    let line = &mine.expect(StatusCode::OK)[0]["games"][0];
    assert_eq!(line["game_id"], game);
    assert_eq!(line["deadline"], app.game(game).await["deadline"], "the deadline of the side to move");
    let loser = if app.game(game).await["seats"][0]["username"] == "alice" { &bob } else { &alice };
    app.act(Some(loser), game, "resign").await.expect(StatusCode::OK);
    let mine = app.get("/api/accounts/me/tournaments", Some(&alice)).await;
    assert_eq!(mine.expect(StatusCode::OK)[0]["games"][0]["deadline"], Value::Null, "none once over");
}

#[tokio::test]
async fn a_directors_announcement_is_mailed_to_the_entrants_and_followers_within_its_limits() {
    use tavoliere::domain::accounts::{account_by_id, account_id_by_username};
    use tavoliere::domain::tournaments::{announce, announcements, ANNOUNCEMENTS_PER_DAY};

    let sink = SmtpSink::start();
    let url = sink.url();
    let app = TestApp::spawn_with(move |settings| {
        settings.mail.smtp_url = Some(url.into());
        settings.mail.poll_interval_ms = 100;
    })
    .await;
    let fan = app.register("fan").await;
    app.patch("/api/accounts/me", Some(&fan), json!({"email": "fan@example.org"}))
        .await
        .expect(StatusCode::OK);
    let mail = sink.wait_for("fan@example.org", 1).await.remove(0);
    let verify = link(mail["text"].as_str().unwrap(), &format!("{}/email/verify?", app.address));
    assert_eq!(app.client.get(&verify).send().await.unwrap().status(), StatusCode::OK);
    app.patch("/api/accounts/me/preferences", Some(&fan), json!({"language": "it"}))
        .await
        .expect(StatusCode::OK);

    let director = with_role(&app, "director", "director").await;
    let other = with_role(&app, "other", "director").await;
    let tournament = create_tournament(&app, &director, "Coppa Italia").await;
    let section = create_section(&app, &director, tournament, json!({})).await;
    open_registration(&app, &director, tournament).await;
    follow(&app, "fan", tournament).await;
    // Its director follows it too, and is not told what she announced herself.
    follow(&app, "director", tournament).await;
    let player = app.register("player").await;
    app.post(&format!("/api/sections/{section}/entries"), Some(&player), json!({}))
        .await
        .expect(StatusCode::CREATED);
    let account = |name: &'static str| {
        let pool = app.domain.pool.clone();
        async move { account_by_id(&pool, account_id_by_username(&pool, name).await.unwrap()).await.unwrap() }
    };
    let (dora, stranger) = (account("director").await, account("other").await);

    // Another tournament's director may not speak for this one; an empty text says nothing.
    let refused = announce(&app.domain, &stranger, tournament, "Annullato").await.unwrap_err();
    assert_eq!(refused.kind(), tavoliere::domain::ErrorKind::Forbidden);
    assert_eq!(
        announce(&app.domain, &dora, tournament, " \n ").await.unwrap_err().code(),
        "announcement.empty"
    );
    let long = "é".repeat(2001);
    assert_eq!(
        announce(&app.domain, &dora, tournament, &long).await.unwrap_err().code(),
        "announcement.too-long"
    );
    announce(&app.domain, &dora, tournament, "  Il secondo turno inizia lunedì.  ").await.unwrap();
    let mail = sink.wait_for_subject("fan@example.org", "comunicato").await;
    let subject = mail["headers"]["subject"].as_str().unwrap();
    assert!(subject.contains("Coppa Italia"), "{subject}");
    let text = mail["text"].as_str().unwrap();
    assert!(text.contains("Il secondo turno inizia lunedì.") && text.contains("comunicano"), "{text}");
    assert!(text.contains(&format!("{}/tournaments/{tournament}", app.address)), "{text}");
    let told = notices(&app, &player, "announcement").await;
    assert_eq!(told.len(), 1, "the entrant too: {told:?}");
    assert_eq!(told[0]["details"]["text"], "Il secondo turno inizia lunedì.", "trimmed");
    assert!(notices(&app, &director, "announcement").await.is_empty(), "not its author");
    assert!(notices(&app, &other, "announcement").await.is_empty(), "nor a stranger");
    announce(&app.domain, &dora, tournament, &"é".repeat(2000)).await.expect("2000 characters are enough");
    assert_eq!(notices(&app, &player, "announcement").await.len(), 2);

    // A day's announcements are limited; the next day there is room again.
    for n in 2..ANNOUNCEMENTS_PER_DAY {
        announce(&app.domain, &dora, tournament, &format!("Avviso {n}")).await.unwrap();
    }
    let limited = announce(&app.domain, &dora, tournament, "Uno di troppo").await.unwrap_err();
    assert_eq!(
        (limited.kind(), limited.code()),
        (tavoliere::domain::ErrorKind::RateLimited, "announcement.too-many")
    );
    let shown = announcements(&app.domain, tournament, 100).await.unwrap();
    assert_eq!(shown.len() as i64, ANNOUNCEMENTS_PER_DAY);
    assert_eq!(shown[0].body, format!("Avviso {}", ANNOUNCEMENTS_PER_DAY - 1), "newest first");
    app.clock.advance(time::Duration::hours(25));
    announce(&app.domain, &dora, tournament, "Un giorno dopo").await.expect("a new day");
}
