//! The tournaments on the site (issue 38), as plain HTML without JavaScript, in English
//! and Italian: a visitor finds an event at `/tournaments` (grouped, paged with the keyset
//! cursor) and reads its page inside the site; a player joins by form and withdraws after a
//! confirmation that says what the section's rule does; a started section's pairings link
//! their games, a tournament game's page links its event, the dashboard lists the player's
//! events with their next games; a director creates a tournament and its sections by form
//! and opens its registration, which its followers are told.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::home::Api;
use crate::support::{Browser, Page, TestApp};

/// The part of `page` from the element with `id` to the end of its section (or of the
/// page).
fn part<'a>(page: &'a Page, id: &str) -> &'a str {
    let start = page.body.find(&format!(r#"id="{id}""#)).unwrap_or_else(|| panic!("no #{id}: {}", page.body));
    let end = page.body[start..].find("</section>").map_or(page.body.len(), |end| start + end);
    &page.body[start..end]
}

/// PATCH through the API.
async fn patch(app: &TestApp, path: &str, token: &str, body: Value) {
    let response = reqwest::Client::new()
        .patch(format!("{}{path}", app.address))
        .bearer_auth(token)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert!(response.status().is_success(), "PATCH {path}: {}", response.status());
}

/// Gives `name` the director role (the admin's job).
async fn make_director(app: &TestApp, name: &str) {
    let pool = sqlx::PgPool::connect(&app.database_url).await.unwrap();
    sqlx::query("update account set role = 'director' where username = $1")
        .bind(name)
        .execute(&pool)
        .await
        .unwrap();
}

/// A tournament `name` by a new director "dora" with a Xiangqi section "A" (`extra`
/// fields), its registration open → (dora's token, tournament, section).
async fn open_tournament(app: &TestApp, api: &Api, name: &str, extra: Value) -> (String, i64, i64) {
    let dora = api.register("dora").await;
    make_director(app, "dora").await;
    let body = json!({"name": name, "description": "Per corrispondenza, <b>tre giorni</b> a mossa", "season": "2026"});
    let tournament = api.post("/api/tournaments", Some(&dora), body).await["id"].as_i64().unwrap();
    let mut section = json!({"name": "A", "variant": "xiangqi", "pairing": "round-robin",
                             "time_control": {"kind": "days-per-move", "days": 3}});
    if let (Value::Object(section), Value::Object(extra)) = (&mut section, extra) {
        section.extend(extra);
    }
    let section = api.post(&format!("/api/tournaments/{tournament}/sections"), Some(&dora), section).await
        ["id"]
        .as_i64()
        .unwrap();
    patch(app, &format!("/api/tournaments/{tournament}"), &dora, json!({"status": "registration"})).await;
    (dora, tournament, section)
}

#[tokio::test]
async fn a_visitor_finds_a_tournament_at_tournaments_and_reads_its_sections_and_entrants() {
    let app = TestApp::spawn().await;
    let api = Api::of(&app);
    let alice = api.register("alice").await;
    let bob = api.register("bob").await;
    // Alice wins a rated game: she has a rating in Xiangqi correspondence.
    let game = api.game(&alice, ("bob", &bob)).await;
    api.post(&format!("/api/games/{game}/resign"), Some(&bob), json!({})).await;
    let (dora, tournament, section) = open_tournament(&app, &api, "Coppa <Estate>", json!({})).await;
    let shogi = json!({"name": "Shogi B", "variant": "shogi", "pairing": "swiss", "swiss_rounds": 5,
                       "time_control": {"kind": "days-per-move", "days": 5}});
    api.post(&format!("/api/tournaments/{tournament}/sections"), Some(&dora), shogi).await;
    for user in [&alice, &bob] {
        api.post(&format!("/api/sections/{section}/entries"), Some(user), json!({})).await;
    }
    let entries: Value =
        reqwest::get(format!("{}/api/sections/{section}", app.address)).await.unwrap().json().await.unwrap();
    let rating = entries["entries"].as_array().unwrap().iter().find(|e| e["username"] == "alice").unwrap()
        ["rating"]
        .as_i64()
        .expect("alice's rating");

    let mut visitor = app.browser();
    let home = visitor.get("/").await;
    assert!(home.body.contains(r#"id="nav-tournaments""#), "the header links the tournaments");
    let listed = part(&home, "open-tournaments");
    assert!(listed.contains(&format!(r#"href="/tournaments/{tournament}""#)), "{listed}");
    assert!(listed.contains(&format!(r#"href="/tournaments/{tournament}#section-{section}""#)), "{listed}");
    assert!(!home.body.contains("crosstable.html"), "the home page links the event's page, not a bare table");
    assert!(listed.contains(r#"href="/tournaments""#), "and every tournament");

    let list = visitor.get("/tournaments").await;
    assert_eq!(list.status, StatusCode::OK);
    let open = part(&list, "group-registration");
    assert!(open.contains("Open for registration"), "{open}");
    assert!(
        open.contains(&format!(
            r#"<a href="/tournaments/{tournament}" class="name">Coppa &#60;Estate&#62;</a>"#
        )),
        "{open}"
    );
    assert!(open.contains("A · Xiangqi · 3 days per move · 2 players"), "{open}");
    assert!(open.contains("Shogi B · Shogi · 5 days per move · 0 players"), "{open}");
    assert!(open.contains("announced "), "its dates: {open}");
    assert!(part(&list, "group-running").contains("None."), "no event running yet");

    let page = visitor.get(&format!("/tournaments/{tournament}")).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(
        page.body.contains("<header>") && page.body.contains(r#"id="nav-tournaments""#),
        "inside the site"
    );
    assert!(page.body.contains("<h1>Coppa &#60;Estate&#62;</h1>"), "its name, escaped");
    assert!(page.body.contains("&#60;b&#62;tre giorni&#60;/b&#62;"), "its description, escaped");
    assert!(page.body.contains("Directors: dora"));
    assert!(page.body.contains("taking entries · 2026"), "{}", part(&page, "tournament-meta"));
    let a = part(&page, &format!("section-{section}"));
    assert!(a.contains("Xiangqi · 3 days per move · round-robin"), "{a}");
    assert!(a.contains("Entrants (2)"), "{a}");
    assert!(
        a.contains(&format!(r#"<tr data-player="alice"><td></td><td><a href="/players/alice">alice</a></td><td class="rating">{rating}</td>"#)),
        "alice with her rating: {a}"
    );
    assert!(a.contains(r#"<tr data-player="bob">"#), "{a}");
    assert!(a.contains("Log in to join this section"), "a visitor is asked to log in: {a}");
    assert!(page.body.contains("Swiss system · 5 rounds"), "the Shogi section's pairing");
    assert!(!page.body.contains(r#"action="/sections/"#), "no form for a visitor");

    visitor.language = Some("it");
    let list = visitor.get("/tournaments").await;
    let open = part(&list, "group-registration");
    assert!(
        open.contains("Iscrizioni aperte") && open.contains("A · Xiangqi · 3 giorni per mossa · 2 giocatori"),
        "{open}"
    );
    let page = visitor.get(&format!("/tournaments/{tournament}")).await;
    assert!(page.body.contains(r#"<html lang="it">"#));
    let a = part(&page, &format!("section-{section}"));
    assert!(a.contains("Iscritti (2)") && a.contains("girone all&#39;italiana"), "{a}");
    assert!(a.contains("Accedi per iscriverti a questa sezione"), "{a}");
    assert!(page.body.contains("Direttori: dora"));

    // No such tournament: the site's page, not the API's JSON.
    let missing = visitor.get("/tournaments/999999").await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert!(missing.body.contains("<header>"), "{}", missing.body);
}

#[tokio::test]
async fn the_list_of_tournaments_is_paged_with_the_keyset_cursor() {
    let app = TestApp::spawn().await;
    let api = Api::of(&app);
    let dora = api.register("dora").await;
    make_director(&app, "dora").await;
    for n in 0..12 {
        let id = api.post("/api/tournaments", Some(&dora), json!({"name": format!("Torneo {n:02}")})).await
            ["id"]
            .as_i64()
            .unwrap();
        patch(&app, &format!("/api/tournaments/{id}"), &dora, json!({"status": "registration"})).await;
    }
    let mut visitor = app.browser();
    let list = visitor.get("/tournaments").await;
    let open = part(&list, "group-registration");
    assert_eq!(open.matches("data-tournament=").count(), 10, "the overview shows ten: {open}");
    assert!(open.contains("Torneo 11") && !open.contains("Torneo 01"), "the newest first");
    let more_at = open.find(r#"class="more""#).expect("a link to the next page");
    let href = open[..more_at].rfind(r#"href=""#).unwrap() + 6;
    let more = open[href..href + open[href..].find('"').unwrap()].replace("&#38;", "&");
    assert!(more.starts_with("/tournaments?group=registration&cursor="), "{more}");
    let next = visitor.get(&more).await;
    assert_eq!(next.status, StatusCode::OK);
    let group = part(&next, "group-registration");
    assert_eq!(group.matches("data-tournament=").count(), 2, "{group}");
    assert!(group.contains("Torneo 01") && group.contains("Torneo 00"), "{group}");
    assert!(!group.contains("class=\"more\""), "the last page");
    assert!(next.body.contains(r#"id="all-groups""#));
    assert_eq!(
        visitor.get("/tournaments?group=registration&cursor=nonsense").await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(visitor.get("/tournaments?group=everything").await.status, StatusCode::NOT_FOUND);
    assert_eq!(visitor.get("/tournaments?group=%00").await.status, StatusCode::UNPROCESSABLE_ENTITY, "NUL");
}

/// A new browser of `name` (signed up before), logged in.
async fn log_in(app: &TestApp, name: &str, language: Option<&'static str>) -> Browser {
    let mut browser = app.browser();
    browser.language = language;
    let password = format!("password-of-{name}");
    let done = browser.submit("/login", "/login", &[("username", name), ("password", &password)]).await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.body);
    browser
}

/// `browser` posts the form of `action` found on `page_path` (its token with `fields`).
async fn post_form(browser: &mut Browser, page_path: &str, action: &str, fields: &[(&str, &str)]) -> Page {
    let page = browser.get(page_path).await;
    assert!(page.body.contains(&format!(r#"action="{action}""#)), "no form to {action}: {}", page.body);
    let mut all = vec![("csrf", page.csrf())];
    all.extend(fields.iter().map(|(k, v)| (*k, (*v).to_owned())));
    let all: Vec<(&str, &str)> = all.iter().map(|(k, v)| (*k, v.as_str())).collect();
    browser.post(action, &all).await
}

#[tokio::test]
async fn a_player_joins_by_form_and_withdraws_after_confirming_in_either_language() {
    let app = TestApp::spawn().await;
    let api = Api::of(&app);
    let (dora, tournament, section) = open_tournament(&app, &api, "Coppa", json!({})).await;
    let limited = json!({"name": "Élite", "variant": "xiangqi", "pairing": "round-robin", "rating_min": 1800,
                         "time_control": {"kind": "days-per-move", "days": 3}});
    let elite = api.post(&format!("/api/tournaments/{tournament}/sections"), Some(&dora), limited).await
        ["id"]
        .as_i64()
        .unwrap();
    let page_path = format!("/tournaments/{tournament}");
    let join = format!("/sections/{section}/join");
    let withdraw = format!("/sections/{section}/withdraw");

    for (name, language) in [("carol", None), ("dario", Some("it"))] {
        let it = language.is_some();
        let text = |en: &'static str, it_text: &'static str| if it { it_text } else { en };
        let mut player = app.browser();
        player.language = language;
        player.sign_up(name).await;
        // A form without its token changes nothing.
        assert_eq!(player.post(&join, &[]).await.status, StatusCode::FORBIDDEN);

        let joined = post_form(&mut player, &page_path, &join, &[]).await;
        assert_eq!(
            (joined.status, joined.location()),
            (StatusCode::SEE_OTHER, format!("{page_path}#section-{section}").as_str())
        );
        let page = player.get(&page_path).await;
        let a = part(&page, &format!("section-{section}"));
        assert!(
            a.contains(text("You are entered in this section.", "Sei iscritto a questa sezione.")),
            "{a}"
        );
        assert!(a.contains(&format!(r#"<tr data-player="{name}">"#)), "{a}");
        assert!(a.contains(&format!(r#"action="{withdraw}""#)), "{a}");

        // Refusals come back on the page, in the reader's language.
        let again = player.post(&join, &[("csrf", &page.csrf())]).await;
        assert_eq!(again.status, StatusCode::CONFLICT);
        assert!(
            part(&again, "tournament-error").contains(text(
                "You are already entered in this section.",
                "Sei già iscritto a questa sezione."
            )),
            "{}",
            again.body
        );
        let refused = player.post(&format!("/sections/{elite}/join"), &[("csrf", &page.csrf())]).await;
        assert_eq!(refused.status, StatusCode::FORBIDDEN);
        assert!(
            part(&refused, "tournament-error").contains(text(
                "This section takes players rated 1800 or more, and you have no rating in its variant yet.",
                "Questa sezione accetta giocatori con rating di almeno 1800, e tu non hai ancora un rating in questa variante."
            )),
            "{}",
            refused.body
        );
        assert!(
            page.body.contains(text(
                "Open to players rated 1800 or more in this variant",
                "Aperta ai giocatori con rating di almeno 1800 in questa variante"
            )),
            "the limits are said before"
        );

        // Withdrawing asks first, and says what it does.
        let confirm = post_form(&mut player, &page_path, &withdraw, &[]).await;
        assert_eq!(confirm.status, StatusCode::OK);
        let question = part(&confirm, "withdraw-confirm");
        assert!(
            question.contains(text(
                "The section has not started: your entry is simply removed",
                "la tua iscrizione viene semplicemente tolta"
            )),
            "{question}"
        );
        let still = player.get(&page_path).await;
        assert!(
            part(&still, &format!("section-{section}")).contains(&format!(r#"<tr data-player="{name}">"#)),
            "nothing done yet"
        );
        let done = player.post(&withdraw, &[("csrf", &confirm.csrf()), ("confirm", "yes")]).await;
        assert_eq!(done.status, StatusCode::SEE_OTHER);
        let page = player.get(&page_path).await;
        let a = part(&page, &format!("section-{section}"));
        assert!(!a.contains(&format!(r#"<tr data-player="{name}">"#)), "the entry is gone: {a}");
        assert!(a.contains(&format!(r#"id="join-{section}""#)), "and may join again: {a}");
        // Withdrawing twice: said so.
        let twice = player.post(&withdraw, &[("csrf", &page.csrf()), ("confirm", "yes")]).await;
        assert_eq!(twice.status, StatusCode::CONFLICT);
        assert!(part(&twice, "tournament-error").contains(text("You are not entered", "Non sei iscritto")));
        post_form(&mut player, &page_path, &join, &[]).await;
    }

    // Once the section runs, the confirmation says the section's rule and its forfeits.
    api.register("erin").await;
    api.post(&format!("/api/sections/{section}/entries"), Some(&dora), json!({"username": "erin"})).await;
    api.post(&format!("/api/sections/{section}/start"), Some(&dora), json!({})).await;
    let mut carol = log_in(&app, "carol", None).await;
    let confirm = post_form(&mut carol, &page_path, &withdraw, &[]).await;
    let question = part(&confirm, "withdraw-confirm");
    assert!(question.contains("a player who withdraws loses every unfinished game by forfeit"), "{question}");
    assert!(question.contains("2 unfinished games of yours will be lost by forfeit"), "{question}");
    carol.post(&withdraw, &[("csrf", &confirm.csrf()), ("confirm", "yes")]).await;
    let page = carol.get(&page_path).await;
    let a = part(&page, &format!("section-{section}"));
    assert!(a.contains("You have withdrawn from this section."), "{a}");
    assert_eq!(a.matches("by forfeit").count(), 2, "both of carol's games are forfeits: {a}");

    // A tournament that takes no entries refuses, in Italian too.
    let mut dario = log_in(&app, "dario", Some("it")).await;
    let page = dario.get(&page_path).await;
    assert!(!page.body.contains(&format!(r#"id="join-{elite}""#)), "no join form once it runs");
    let closed = dario.post(&format!("/sections/{elite}/join"), &[("csrf", &page.csrf())]).await;
    assert_eq!(closed.status, StatusCode::CONFLICT, "the tournament runs: {}", closed.body);
    assert!(
        part(&closed, "tournament-error").contains("Il torneo ora non accetta iscrizioni."),
        "{}",
        closed.body
    );
}

#[tokio::test]
async fn a_started_sections_pairings_link_their_games_and_a_games_page_its_tournament() {
    let app = TestApp::spawn().await;
    let api = Api::of(&app);
    let (_, tournament, section) = open_tournament(&app, &api, "Coppa", json!({})).await;
    let alice = api.register("alice").await;
    let bob = api.register("bob").await;
    for user in [&alice, &bob] {
        api.post(&format!("/api/sections/{section}/entries"), Some(user), json!({})).await;
    }
    // Dora starts the section from the tournament page.
    let mut dora = log_in(&app, "dora", None).await;
    let page_path = format!("/tournaments/{tournament}");
    let page = dora.get(&page_path).await;
    assert!(
        page.body.contains(r#"id="director-actions""#)
            && page.body.contains(&format!(r#"href="/tournaments/{tournament}/desk""#))
    );
    let mut alice_browser = log_in(&app, "alice", None).await;
    let csrf = alice_browser.get(&page_path).await.csrf();
    let not_hers = alice_browser.post(&format!("/sections/{section}/start"), &[("csrf", &csrf)]).await;
    assert_eq!(not_hers.status, StatusCode::NOT_FOUND, "only its directors start a section");
    let started = post_form(&mut dora, &page_path, &format!("/sections/{section}/start"), &[]).await;
    assert_eq!(started.status, StatusCode::SEE_OTHER, "{}", started.body);
    let game: i64 = reqwest::get(format!("{}/api/sections/{section}/rounds", app.address))
        .await
        .unwrap()
        .json::<Value>()
        .await
        .unwrap()["rounds"][0]["games"][0]["game_id"]
        .as_i64()
        .unwrap();
    let state: Value =
        reqwest::get(format!("{}/api/games/{game}", app.address)).await.unwrap().json().await.unwrap();
    let first = state["seats"][0]["username"].as_str().unwrap().to_owned();

    let mut visitor = app.browser();
    let page = visitor.get(&page_path).await;
    let a = part(&page, &format!("section-{section}"));
    let row = &a[a.find(&format!(r#"<tr data-game="{game}""#)).expect("the pairing")..];
    let row = &row[..row.find("</tr>").unwrap()];
    assert!(row.contains(&format!(r#"<a href="/games/{game}">in play</a>"#)), "{row}");
    assert!(row.contains(&format!(r#"<td class="to-move">{first}</td>"#)), "the side to move: {row}");
    assert!(
        row.contains("<time datetime=\"") && row.contains(" UTC</time>"),
        "the correspondence deadline: {row}"
    );
    assert!(a.contains(r#"<table class="crosstable""#), "the crosstable inside the page: {a}");
    assert!(a.contains("<dt>SB</dt><dd>Sonneborn-Berger</dd>"), "its tie-breaks named: {a}");
    for download in [
        format!("/api/sections/{section}/crosstable.csv?lang=en"),
        format!("/api/sections/{section}/trf"),
        format!("/api/sections/{section}/games/pgn-iccs"),
    ] {
        assert!(a.contains(&format!(r#"href="{download}""#)), "{download}: {a}");
    }
    visitor.language = Some("it");
    let page = visitor.get(&page_path).await;
    let a = part(&page, &format!("section-{section}"));
    assert!(a.contains(&format!(r#"<a href="/games/{game}">in corso</a>"#)), "{a}");
    assert!(a.contains("/crosstable.csv?lang=it"), "{a}");

    // The game's page says where it belongs, in both languages.
    visitor.language = None;
    let game_page = visitor.get(&format!("/games/{game}")).await;
    let event = part(&game_page, "game-event");
    assert!(
        event.contains(&format!(
            r##"<a href="/tournaments/{tournament}#section-{section}">Round 1 of Coppa, A</a>"##
        )),
        "{event}"
    );
    visitor.language = Some("it");
    let game_page = visitor.get(&format!("/games/{game}")).await;
    assert!(part(&game_page, "game-event").contains("Turno 1 di Coppa, A"));

    // Alice's dashboard lists her event with the game in play and its deadline.
    let dashboard = alice_browser.get("/").await;
    let events = part(&dashboard, "my-events");
    assert!(
        events.contains(&format!(r##"<a href="/tournaments/{tournament}#section-{section}">Coppa · A</a>"##)),
        "{events}"
    );
    assert!(
        events.contains(&format!(r#"<li data-game="{game}"><a href="/games/{game}">Round 1: bob</a>"#)),
        "{events}"
    );
    let turn = if first == "alice" { "<strong>your move</strong>" } else { "their move" };
    assert!(events.contains(turn) && events.contains("<time datetime="), "{events}");

    // Over: the result in words, and no deadline.
    let second = if first == "alice" { &bob } else { &alice };
    api.post(&format!("/api/games/{game}/resign"), Some(second), json!({})).await;
    visitor.language = None;
    let page = visitor.get(&page_path).await;
    // The second player resigned: the first won.
    assert!(
        page.body.contains(&format!(r#"<a href="/games/{game}">1-0 · resignation</a>"#)),
        "{}",
        part(&page, &format!("section-{section}"))
    );
    let dashboard = alice_browser.get("/").await;
    assert!(part(&dashboard, "my-events").contains("No game in play."));

    // A director's action refused says why on the page; the director closes the event.
    let csrf = dora.get(&page_path).await.csrf();
    let again = dora.post(&format!("/sections/{section}/start"), &[("csrf", &csrf)]).await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    assert!(part(&again, "tournament-error").contains("Not done: "), "{}", again.body);
    let closed = post_form(
        &mut dora,
        &page_path,
        &format!("/tournaments/{tournament}/status"),
        &[("status", "finished")],
    )
    .await;
    assert_eq!(closed.status, StatusCode::SEE_OTHER);
    let list = visitor.get("/tournaments").await;
    assert!(part(&list, "group-finished").contains(&format!(r#"href="/tournaments/{tournament}""#)));
}

#[tokio::test]
async fn a_director_creates_a_tournament_by_form_and_its_followers_hear_it_open() {
    let app = TestApp::spawn().await;
    let mut dora = app.browser();
    dora.sign_up("dora").await;
    let mut carol = app.browser();
    carol.sign_up("carol").await;
    // Only directors find the form.
    assert_eq!(dora.get("/tournaments/new").await.status, StatusCode::NOT_FOUND);
    assert!(!dora.get("/tournaments").await.body.contains(r#"id="new-tournament""#));
    make_director(&app, "dora").await;
    let list = dora.get("/tournaments").await;
    assert!(list.body.contains(r#"<a href="/tournaments/new" id="new-tournament">"#));
    let form = dora.get("/tournaments/new").await;
    assert_eq!(form.status, StatusCode::OK);
    assert!(form.body.contains(r#"<option value="cxq""#), "Xiangqi's rulesets by default");
    assert!(!form.body.contains(r#"<option value="seven-kingdoms""#), "tournaments pair two players");

    // Without JavaScript, the form is drawn again for another variant, as typed.
    let base = [
        ("name", "Coppa Autunno"),
        ("description", "Shogi per corrispondenza"),
        ("season", "2026"),
        ("section_name", "Shogi A"),
        ("variant", "shogi"),
        ("pairing", "round-robin"),
        ("scoring", "1-half-0"),
        ("tc_kind", "days-per-move"),
        ("days", "5"),
        ("vacation", "on"),
    ];
    let with = |extra: &[(&'static str, &'static str)]| -> Vec<(&'static str, &'static str)> {
        let mut fields: Vec<(&str, &str)> =
            base.iter().copied().filter(|(k, _)| !extra.iter().any(|(e, _)| e == k)).collect();
        fields.extend_from_slice(extra);
        fields
    };
    let redrawn = dora
        .post("/tournaments", &[&[("csrf", form.csrf().as_str())][..], &with(&[("refresh", "1")])].concat())
        .await;
    assert_eq!(redrawn.status, StatusCode::OK);
    assert!(
        redrawn.body.contains(r#"<option value="shogi-24""#)
            && !redrawn.body.contains(r#"<option value="cxq""#),
        "Shogi's rulesets"
    );
    assert!(redrawn.body.contains(r#"value="Coppa Autunno""#), "kept as typed");
    assert!(redrawn.body.contains("The rulesets and handicaps below are those of Shogi."));

    // Refused fields are explained, nothing is created.
    let csrf = redrawn.csrf();
    let refused = dora
        .post(
            "/tournaments",
            &[
                &[("csrf", csrf.as_str())][..],
                &with(&[("name", " "), ("ruleset", "cxq"), ("pairing", "swiss"), ("days", "0")]),
            ]
            .concat(),
        )
        .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(part(&refused, "name-error").contains("Give the tournament a name"));
    assert!(part(&refused, "ruleset-error").contains("This ruleset is not one of Shogi"));
    assert!(part(&refused, "swiss-rounds-error").contains("A Swiss section needs its number of rounds"));
    assert!(refused.body.contains(r#"id="time-control-error""#));
    dora.language = Some("it");
    let refused =
        dora.post("/tournaments", &[&[("csrf", csrf.as_str())][..], &with(&[("name", "")])].concat()).await;
    assert!(part(&refused, "name-error").contains("Dai un nome al torneo"));
    // A rated section with a handicap: the domain's refusal, in the reader's language.
    let refused = dora
        .post(
            "/tournaments",
            &[&[("csrf", csrf.as_str())][..], &with(&[("rated", "on"), ("handicap", "lance")])].concat(),
        )
        .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", refused.body);
    assert!(refused.body.contains(r#"id="form-error""#), "{}", refused.body);
    dora.language = None;
    let none: Value =
        reqwest::get(format!("{}/api/tournaments", app.address)).await.unwrap().json().await.unwrap();
    assert_eq!(none, json!([]), "nothing was created");

    let created = dora
        .post("/tournaments", &[&[("csrf", csrf.as_str())][..], &with(&[("ruleset", "shogi-27")])].concat())
        .await;
    assert_eq!(created.status, StatusCode::SEE_OTHER, "{}", created.body);
    let page_path = created.location().to_owned();
    let tournament: i64 = page_path.trim_start_matches("/tournaments/").parse().unwrap();
    let made: Value = reqwest::get(format!("{}/api/tournaments/{tournament}", app.address))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(made["status"], "draft");
    assert_eq!(made["directors"], json!(["dora"]));
    assert_eq!(made["sections"][0]["variant"], "shogi");
    assert_eq!(made["sections"][0]["ruleset"], "shogi-27");
    assert_eq!(made["sections"][0]["time_control"]["days"], 5);

    // A second section by form: a Swiss one needs its rounds.
    let add = format!("/tournaments/{tournament}/sections");
    let section_form = dora.get(&format!("{add}/new")).await;
    assert_eq!(section_form.status, StatusCode::OK);
    assert_eq!(carol.get(&format!("{add}/new")).await.status, StatusCode::NOT_FOUND, "its directors only");
    let fields = [
        ("csrf", section_form.csrf()),
        ("section_name", "Open".to_owned()),
        ("variant", "xiangqi".to_owned()),
        ("pairing", "swiss".to_owned()),
        ("tc_kind", "days-per-move".to_owned()),
        ("days", "3".to_owned()),
    ];
    let fields: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let refused = dora.post(&add, &fields).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    let added = dora.post(&add, &[&fields[..], &[("swiss_rounds", "5")]].concat()).await;
    assert_eq!(added.status, StatusCode::SEE_OTHER, "{}", added.body);

    // Carol follows the event in preparation; Dora opens its registration by its button.
    let followed =
        post_form(&mut carol, &page_path, &format!("/tournaments/{tournament}/follow"), &[("follow", "on")])
            .await;
    assert_eq!(followed.status, StatusCode::SEE_OTHER);
    assert!(carol.get(&page_path).await.body.contains(r#"id="following""#));
    assert!(
        !carol.get(&page_path).await.body.contains(r#"id="director-actions""#),
        "no director's actions for her"
    );
    let opened = post_form(
        &mut dora,
        &page_path,
        &format!("/tournaments/{tournament}/status"),
        &[("status", "registration")],
    )
    .await;
    assert_eq!(opened.status, StatusCode::SEE_OTHER, "{}", opened.body);
    let notifications = carol.get("/notifications").await;
    let item = part(&notifications, "notifications");
    assert!(
        item.contains(&format!(
            r#"<a href="/tournaments/{tournament}">Registration opens for an event you follow: Coppa Autunno</a>"#
        )),
        "{item}"
    );
    carol.language = Some("it");
    let notifications = carol.get("/notifications").await;
    assert!(part(&notifications, "notifications").contains("Si aprono le iscrizioni di un torneo che segui"));
    let page = carol.get(&page_path).await;
    assert!(page.body.contains("Iscriviti a questa sezione"), "carol may join now");
}

#[tokio::test]
async fn a_director_announces_by_form_to_the_entrants_and_followers_in_either_language() {
    let app = TestApp::spawn().await;
    let api = Api::of(&app);
    let (_, tournament, section) = open_tournament(&app, &api, "Coppa", json!({})).await;
    let alice = api.register("alice").await;
    api.post(&format!("/api/sections/{section}/entries"), Some(&alice), json!({})).await;
    let page_path = format!("/tournaments/{tournament}");
    let announce = format!("/tournaments/{tournament}/announce");
    let mut fan = app.browser();
    fan.sign_up("fan").await;
    post_form(&mut fan, &page_path, &format!("/tournaments/{tournament}/follow"), &[("follow", "on")]).await;
    let mut bystander = app.browser();
    bystander.sign_up("bystander").await;

    // Only its directors see the form, and a stranger's post is not one of their actions.
    let page = bystander.get(&page_path).await;
    assert!(!page.body.contains(&format!(r#"action="{announce}""#)));
    assert!(!page.body.contains(r#"id="announcements""#), "nothing announced yet");
    let stranger = bystander.post(&announce, &[("csrf", &page.csrf()), ("text", "Falso")]).await;
    assert_eq!(stranger.status, StatusCode::NOT_FOUND);
    let empty = bystander.post(&announce, &[("csrf", &page.csrf()), ("text", "")]).await;
    assert_eq!(empty.status, StatusCode::NOT_FOUND, "not checked for a stranger");

    // Refusals keep the text as typed, in the reader's language.
    let mut dora = log_in(&app, "dora", Some("it")).await;
    let empty = post_form(&mut dora, &page_path, &announce, &[("text", "   ")]).await;
    assert_eq!(empty.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(part(&empty, "tournament-error").contains("Scrivi prima il comunicato."), "{}", empty.body);
    let long = "x".repeat(2001);
    let too_long = post_form(&mut dora, &page_path, &announce, &[("text", &long)]).await;
    assert_eq!(too_long.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(part(&too_long, "tournament-error").contains("al massimo 2000 caratteri"));
    assert!(too_long.body.contains(&format!(">{long}</textarea>")), "the text is kept");
    dora.language = None;
    let empty = post_form(&mut dora, &page_path, &announce, &[("text", "")]).await;
    assert!(part(&empty, "tournament-error").contains("Write the announcement first."));
    let nul = post_form(&mut dora, &page_path, &announce, &[("text", "a\0b")]).await;
    assert_eq!(nul.status, StatusCode::UNPROCESSABLE_ENTITY, "text holding NUL is refused");

    let text = "Round 2 starts on <Monday>.\nGood luck!";
    let done = post_form(&mut dora, &page_path, &announce, &[("text", text)]).await;
    assert_eq!(
        (done.status, done.location()),
        (StatusCode::SEE_OTHER, format!("{page_path}#announcements").as_str())
    );

    // Everyone reads it on the page, escaped, with its author.
    let mut visitor = app.browser();
    let page = visitor.get(&page_path).await;
    let said = part(&page, "announcements");
    assert!(said.contains("<h2>Announcements</h2>"), "{said}");
    assert!(said.contains(r#"<a href="/players/dora">dora</a>"#), "{said}");
    assert!(said.contains("Round 2 starts on &#60;Monday&#62;.\nGood luck!"), "{said}");
    visitor.language = Some("it");
    assert!(part(&visitor.get(&page_path).await, "announcements").contains("<h2>Comunicati</h2>"));

    // The entrant and the follower are told; the bystander and the author are not.
    let mut alice_browser = log_in(&app, "alice", None).await;
    for (who, browser) in [("alice", &mut alice_browser), ("fan", &mut fan)] {
        let listed = browser.get("/notifications").await;
        assert!(
            part(&listed, "notifications").contains(&format!(
                r#"<a href="/tournaments/{tournament}">An announcement of an event you play in or follow: Coppa</a>"#
            )),
            "{who}: {}",
            listed.body
        );
    }
    fan.language = Some("it");
    assert!(part(&fan.get("/notifications").await, "notifications")
        .contains("Un comunicato di un torneo in cui giochi o che segui: Coppa"));
    for browser in [&mut bystander, &mut dora] {
        assert!(!browser.get("/notifications").await.body.contains("/tournaments/"), "not told");
    }
}

#[tokio::test]
async fn a_swiss_sections_standings_next_round_form_and_the_grand_prix_table_are_on_the_page() {
    let app = TestApp::spawn().await;
    let api = Api::of(&app);
    let swiss = json!({"pairing": "swiss", "swiss_rounds": 2});
    let (dora_token, tournament, section) = open_tournament(&app, &api, "Coppa", swiss).await;
    let gp = json!({"formula": {"kind": "placement-points", "table": [10, 6, 4, 2]}, "best_sections": null,
                    "tie_breaks": ["sections-played"]});
    patch(&app, &format!("/api/tournaments/{tournament}"), &dora_token, json!({"grand_prix": gp})).await;
    for name in ["ann", "ben", "cat", "dan"] {
        let token = api.register(name).await;
        api.post(&format!("/api/sections/{section}/entries"), Some(&token), json!({})).await;
    }
    api.post(&format!("/api/sections/{section}/start"), Some(&dora_token), json!({})).await;
    let rounds_of = || async {
        reqwest::get(format!("{}/api/sections/{section}/rounds", app.address))
            .await
            .unwrap()
            .json::<Value>()
            .await
            .unwrap()["rounds"]
            .as_array()
            .unwrap()
            .clone()
    };
    let first = rounds_of().await;
    assert_eq!(first.len(), 1);
    for game in first[0]["games"].as_array().unwrap() {
        let id = game["game_id"].as_i64().unwrap();
        api.post(
            &format!("/api/games/{id}/adjudicate"),
            Some(&dora_token),
            json!({"result": "1-0", "reason": "the first player was winning"}),
        )
        .await;
    }

    // The director pairs round 2 with the page's button; nobody else sees it.
    let page_path = format!("/tournaments/{tournament}");
    let next = format!("/sections/{section}/next-round");
    let mut ann = log_in(&app, "ann", None).await;
    let page = ann.get(&page_path).await;
    assert!(!page.body.contains(&format!(r#"action="{next}""#)), "not for a player");
    assert_eq!(ann.post(&next, &[("csrf", &page.csrf())]).await.status, StatusCode::NOT_FOUND);
    assert_eq!(rounds_of().await.len(), 1, "nothing paired by her");
    let mut dora = log_in(&app, "dora", None).await;
    let paired = post_form(&mut dora, &page_path, &next, &[]).await;
    assert_eq!(paired.status, StatusCode::SEE_OTHER, "{}", paired.body);
    assert_eq!(rounds_of().await.len(), 2, "round 2 paired");

    // Everyone reads the standings with their tie-breaks named, both rounds, and the Grand Prix.
    let mut visitor = app.browser();
    let page = visitor.get(&page_path).await;
    let a = part(&page, &format!("section-{section}"));
    assert!(a.contains("<h3>Standings</h3>") && a.contains(r#"<table class="standings">"#), "{a}");
    assert!(a.contains("<abbr title=") && a.contains(r#"<dl class="tie-breaks">"#), "tie-breaks named: {a}");
    assert!(a.contains(&format!(r#"id="section-{section}-round-2""#)), "{a}");
    let gp = part(&page, "grand-prix");
    assert!(
        gp.contains("<h2>Grand Prix</h2>") && gp.contains(r#"<table class="grand-prix" lang="en">"#),
        "{gp}"
    );
    for name in ["ann", "ben", "cat", "dan"] {
        assert!(gp.contains(name), "{name} in the Grand Prix: {gp}");
    }
    assert!(gp.contains(&format!(r#"href="/api/tournaments/{tournament}/grand-prix.csv?lang=en""#)), "{gp}");
    visitor.language = Some("it");
    let page = visitor.get(&page_path).await;
    assert!(part(&page, &format!("section-{section}")).contains("<h3>Classifica</h3>"));
    assert!(part(&page, "grand-prix").contains(r#"<table class="grand-prix" lang="it">"#));
}
