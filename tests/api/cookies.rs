//! Cookie sessions: requests that change something and are signed in by the cookie must
//! come from this site (the CSRF token, `Sec-Fetch-Site` or `Origin`); bearer tokens need
//! nothing more; anonymous page views store no session.

use reqwest::header::{COOKIE, SET_COOKIE};
use reqwest::{Method, StatusCode};
use serde_json::json;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use crate::support::{three_days, TestApp, User};

/// A signed-in browser session: its cookie and the CSRF token `POST /api/session` gave.
struct CookieSession {
    cookie: String,
    token: String,
}

async fn log_in(app: &TestApp, user: &User) -> CookieSession {
    let response = app
        .client
        .post(format!("{}/api/session", app.address))
        .json(&json!({"username": user.name, "password": format!("password-of-{}", user.name)}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let cookie = response.headers()[SET_COOKIE].to_str().unwrap().split(';').next().unwrap().to_owned();
    let token = response.headers()["x-csrf-token"].to_str().expect("the CSRF token").to_owned();
    assert_eq!(token.len(), 64);
    CookieSession { cookie, token }
}

/// `method path` with the session's cookie, the extra `headers` and a form-encoded body
/// (what a foreign page's form sends) → the status.
async fn with_cookie(
    app: &TestApp,
    session: &CookieSession,
    method: Method,
    path: &str,
    headers: &[(&str, &str)],
) -> StatusCode {
    let mut request = app
        .client
        .request(method, format!("{}{path}", app.address))
        .header(COOKIE, &session.cookie)
        .header("content-type", "application/x-www-form-urlencoded")
        .body("x=1");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request.send().await.unwrap().status()
}

const FOREIGN_ORIGIN: (&str, &str) = ("origin", "http://evil.example");
const CROSS_SITE: (&str, &str) = ("sec-fetch-site", "cross-site");

#[tokio::test]
async fn cross_site_posts_with_the_session_cookie_change_nothing() {
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let game = app.start_game("xiangqi", &alice, &bob, three_days()).await;
    let challenge = app
        .post(
            "/api/challenges",
            Some(&bob),
            json!({"variant": "xiangqi", "opponent": "alice", "time_control": three_days()}),
        )
        .await
        .expect(StatusCode::CREATED)["id"]
        .as_i64()
        .unwrap();
    let session = log_in(&app, &alice).await;
    let actions = [
        format!("/api/games/{game}/resign"),
        format!("/api/games/{game}/draw/offer"),
        format!("/api/challenges/{challenge}/accept"),
    ];
    let disguises: [&[(&str, &str)]; 5] = [
        &[FOREIGN_ORIGIN],
        &[CROSS_SITE],
        &[("sec-fetch-site", "same-site"), ("origin", "http://sub.127.0.0.1")],
        &[("origin", "null")],
        &[],
    ];
    for path in &actions {
        for headers in disguises {
            let status = with_cookie(&app, &session, Method::POST, path, headers).await;
            assert_eq!(status, StatusCode::FORBIDDEN, "POST {path} with {headers:?}");
        }
        let forged =
            with_cookie(&app, &session, Method::POST, path, &[("x-csrf-token", &"0".repeat(64))]).await;
        assert_eq!(forged, StatusCode::FORBIDDEN, "POST {path} with a wrong token");
    }
    let state = app.game(game).await;
    assert_eq!(state["status"], "active", "not resigned");
    assert!(state["draw_offer_seat"].is_null(), "no draw offered");
    let open = app.get(&format!("/api/challenges/{challenge}"), Some(&bob)).await;
    assert_eq!(open.expect(StatusCode::OK)["status"], "open", "not accepted");
}

#[tokio::test]
async fn requests_from_this_site_with_the_session_cookie_are_accepted() {
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let session = log_in(&app, &alice).await;
    let own_origin = ("origin", app.address.as_str());

    let game = app.start_game("xiangqi", &alice, &bob, three_days()).await;
    let offer =
        with_cookie(&app, &session, Method::POST, &format!("/api/games/{game}/draw/offer"), &[own_origin])
            .await;
    assert_eq!(offer, StatusCode::OK, "same Origin");
    let game = app.start_game("xiangqi", &alice, &bob, three_days()).await;
    let path = format!("/api/games/{game}/draw/offer");
    let offer = with_cookie(&app, &session, Method::POST, &path, &[("sec-fetch-site", "same-origin")]).await;
    assert_eq!(offer, StatusCode::OK, "Sec-Fetch-Site: same-origin");
    let resign = with_cookie(
        &app,
        &session,
        Method::POST,
        &format!("/api/games/{game}/resign"),
        &[FOREIGN_ORIGIN, ("x-csrf-token", &session.token)],
    )
    .await;
    assert_eq!(resign, StatusCode::OK, "the session's token is proof enough");
    assert_eq!(app.game(game).await["status"], "finished");

    // Reading needs no proof.
    let me = with_cookie(&app, &session, Method::GET, "/api/accounts/me", &[FOREIGN_ORIGIN]).await;
    assert_eq!(me, StatusCode::OK);
}

#[tokio::test]
async fn bearer_tokens_need_no_proof_of_origin() {
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let game = app.start_game("xiangqi", &alice, &bob, three_days()).await;
    let response = app
        .client
        .post(format!("{}/api/games/{game}/resign", app.address))
        .bearer_auth(&alice.token)
        .header("origin", "http://evil.example")
        .header("sec-fetch-site", "cross-site")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
}

#[tokio::test]
async fn logging_out_by_cookie_needs_proof_and_a_new_login_rotates_the_token() {
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    let first = log_in(&app, &alice).await;
    let refused = with_cookie(&app, &first, Method::DELETE, "/api/session", &[FOREIGN_ORIGIN]).await;
    assert_eq!(refused, StatusCode::FORBIDDEN);
    assert_eq!(
        with_cookie(&app, &first, Method::GET, "/api/accounts/me", &[]).await,
        StatusCode::OK,
        "still signed in"
    );

    let second = log_in(&app, &alice).await;
    assert_ne!(second.token, first.token, "every login has a new token");
    let stale = CookieSession { cookie: second.cookie.clone(), token: first.token.clone() };
    let out =
        with_cookie(&app, &stale, Method::DELETE, "/api/session", &[("x-csrf-token", &stale.token)]).await;
    assert_eq!(out, StatusCode::FORBIDDEN, "the token of another session is no proof");
    let out =
        with_cookie(&app, &second, Method::DELETE, "/api/session", &[("x-csrf-token", &second.token)]).await;
    assert_eq!(out, StatusCode::NO_CONTENT);
    assert_eq!(
        with_cookie(&app, &second, Method::GET, "/api/accounts/me", &[]).await,
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn a_cross_site_socket_handshake_with_the_session_cookie_is_refused() {
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let game = app.start_game("xiangqi", &alice, &bob, three_days()).await;
    let session = log_in(&app, &alice).await;
    let url = format!("{}/api/games/{game}/socket", app.address.replacen("http://", "ws://", 1));
    let handshake = |origin: String| {
        let mut request = url.as_str().into_client_request().unwrap();
        request.headers_mut().insert("cookie", session.cookie.parse().unwrap());
        request.headers_mut().insert("origin", origin.parse().unwrap());
        tokio_tungstenite::connect_async(request)
    };
    match handshake("http://evil.example".to_owned()).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            assert_eq!(response.status(), StatusCode::FORBIDDEN)
        }
        other => panic!("expected a refused handshake, got {:?}", other.map(|_| ())),
    }
    let (mut ws, _) = handshake(app.address.clone()).await.expect("a same-origin handshake");
    ws.close(None).await.unwrap();
}

/// Rows in the session table.
async fn session_rows(app: &TestApp) -> i64 {
    sqlx::query_scalar("select count(*) from tower_sessions.session")
        .fetch_one(&app.domain.pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn anonymous_page_views_store_no_session_and_a_shown_form_stores_one() {
    let app = TestApp::spawn().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let game = app.start_game("xiangqi", &alice, &bob, three_days()).await;
    let pages = [
        "/".to_owned(),
        "/archive".to_owned(),
        "/challenges".to_owned(),
        format!("/games/{game}"),
        format!("/games/{game}/moves"),
        format!("/games/{game}/board.svg"),
        format!("/api/games/{game}"),
        "/static/site.css".to_owned(),
        "/no/such/page".to_owned(),
        "/healthz".to_owned(),
    ];
    // A visitor reading pages, not following the redirect of `/` to the log-in form.
    let reader = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    for n in 0..1000 {
        let path = &pages[n % pages.len()];
        let response = reader.get(format!("{}{path}", app.address)).send().await.unwrap();
        assert!(!response.headers().contains_key(SET_COOKIE), "GET {path} sets no cookie");
    }
    assert_eq!(session_rows(&app).await, 0, "1,000 anonymous views stored no session");

    // The forms a visitor is shown (issue 36 §5): their token travels in a signed cookie,
    // and still no session is stored.
    let visitor = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    for path in ["/login", "/signup", "/password/forgot", "/settings"] {
        for _ in 0..100 {
            let form = visitor.get(format!("{}{path}", app.address)).send().await.unwrap();
            assert_eq!(form.status(), StatusCode::OK, "GET {path}");
            let set = form.headers()[SET_COOKIE].to_str().unwrap();
            assert!(set.starts_with("tavoliere_form="), "GET {path} sets the form cookie: {set}");
            assert!(set.contains("HttpOnly") && set.contains("SameSite=Lax"), "{set}");
        }
    }
    assert_eq!(session_rows(&app).await, 0, "400 cookieless form views stored no session");

    // The form is sent back with its cookie: the visitor signs in, and only then is a
    // session stored.
    let login = visitor.get(format!("{}/login", app.address)).send().await.unwrap();
    let cookie = login.headers()[SET_COOKIE].to_str().unwrap().split(';').next().unwrap().to_owned();
    let page = login.text().await.unwrap();
    let marker = r#"name="csrf" value=""#;
    let at = page.find(marker).expect("the log-in form") + marker.len();
    let token = page[at..].split('"').next().unwrap().to_owned();
    let sign_in = |cookie: Option<String>, token: String| {
        let form = url::form_urlencoded::Serializer::new(String::new())
            .extend_pairs([
                ("csrf", token.as_str()),
                ("username", "alice"),
                ("password", "password-of-alice"),
            ])
            .finish();
        let mut request = visitor
            .post(format!("{}/login", app.address))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(form);
        if let Some(cookie) = cookie {
            request = request.header(COOKIE, cookie);
        }
        request.send()
    };
    // Without the cookie, with another visitor's token, or with a forged cookie: refused.
    assert_eq!(sign_in(None, token.clone()).await.unwrap().status(), StatusCode::FORBIDDEN);
    let forged = format!("tavoliere_form={token}.99999999999");
    assert_eq!(sign_in(Some(forged), token.clone()).await.unwrap().status(), StatusCode::FORBIDDEN);
    let other = visitor.get(format!("{}/signup", app.address)).send().await.unwrap();
    let other_cookie = other.headers()[SET_COOKIE].to_str().unwrap().split(';').next().unwrap().to_owned();
    assert_eq!(sign_in(Some(other_cookie), token.clone()).await.unwrap().status(), StatusCode::FORBIDDEN);
    assert_eq!(session_rows(&app).await, 0, "refused forms stored nothing");
    let signed_in = sign_in(Some(cookie), token).await.unwrap();
    assert_eq!(signed_in.status(), StatusCode::SEE_OTHER, "signed in");
    assert_eq!(session_rows(&app).await, 1, "the session is stored when the visitor signs in");
}
