//! `/api/openapi.json` is generated from the handlers: every route of the router is in it
//! with its methods, every request body and error answer names a schema.

use reqwest::StatusCode;
use serde_json::Value;

use crate::support::TestApp;

/// The router's source: the routes are read from it, so a new route that is not
/// described fails this test.
const ROUTER_SOURCE: &str = include_str!("../../server/http/router.rs");

const METHODS: [&str; 5] = ["get", "post", "put", "patch", "delete"];

/// The text of the call starting right after an opening parenthesis at `start`, up to
/// its closing parenthesis.
fn call_arguments(source: &str, start: usize) -> &str {
    let mut depth = 1usize;
    for (offset, character) in source[start..].char_indices() {
        match character {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return &source[start..start + offset];
                }
            }
            _ => {}
        }
    }
    panic!("unbalanced parentheses in router.rs");
}

/// `(path, method)` for every `.route("path", get(..).post(..))` of the router.
fn router_routes() -> Vec<(String, String)> {
    let mut routes = Vec::new();
    for (index, _) in ROUTER_SOURCE.match_indices(".route(") {
        let arguments = call_arguments(ROUTER_SOURCE, index + ".route(".len());
        let path = arguments.split('"').nth(1).expect("a route path literal");
        let handlers = &arguments[arguments.find(',').expect("a method router")..];
        let mut methods = Vec::new();
        for method in METHODS {
            for (at, _) in handlers.match_indices(&format!("{method}(")) {
                let before = handlers[..at].chars().next_back();
                if !before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                    methods.push(method);
                }
            }
        }
        assert!(!methods.is_empty(), "no method found for {path} in router.rs");
        routes.extend(methods.into_iter().map(|method| (path.to_owned(), method.to_owned())));
    }
    routes
}

/// Follows a local `$ref` ("#/components/...") in `doc`.
fn resolve<'a>(doc: &'a Value, reference: &str) -> &'a Value {
    let pointer = reference.strip_prefix('#').unwrap_or_else(|| panic!("non-local $ref {reference}"));
    doc.pointer(pointer).unwrap_or_else(|| panic!("dangling $ref {reference}"))
}

#[test]
fn the_router_source_parser_finds_the_routes() {
    let routes = router_routes();
    assert!(routes.contains(&("/api/session".to_owned(), "post".to_owned())));
    assert!(routes.contains(&("/api/session".to_owned(), "delete".to_owned())));
    assert!(routes.contains(&("/api/tokens/current".to_owned(), "delete".to_owned())));
    assert!(routes.contains(&("/api/sections/{id}/entries/{username}".to_owned(), "patch".to_owned())));
    assert!(routes.len() >= 50, "only {} routes parsed", routes.len());
}

#[tokio::test]
async fn the_openapi_document_describes_every_route_of_the_router() {
    let app = TestApp::spawn().await;
    let doc = app.get("/api/openapi.json", None).await.expect(StatusCode::OK).clone();
    let version = doc["openapi"].as_str().expect("an openapi version string");
    assert!(version.starts_with("3."), "openapi {version}");

    let routes = router_routes();
    for (path, method) in &routes {
        let operation = &doc["paths"][path][method];
        assert!(operation.is_object(), "{} {path} is missing from /api/openapi.json", method.to_uppercase());
        assert!(operation["responses"].is_object(), "{method} {path} has no responses");
    }
    // And nothing described that the router does not serve.
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for method in METHODS {
            if item.get(method).is_some() {
                assert!(
                    routes.contains(&(path.clone(), method.to_owned())),
                    "{method} {path} is described but not routed"
                );
            }
        }
    }
}

#[tokio::test]
async fn request_bodies_and_errors_reference_schemas() {
    let app = TestApp::spawn().await;
    let doc = app.get("/api/openapi.json", None).await.expect(StatusCode::OK).clone();
    let errors_schema = &doc["components"]["schemas"]["Errors"];
    assert_eq!(errors_schema["required"], serde_json::json!(["errors"]));
    assert!(errors_schema["properties"]["errors"]["items"]["$ref"].is_string());

    let mut bodies = 0;
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for method in METHODS {
            let Some(operation) = item.get(method) else { continue };
            if let Some(body) = operation.get("requestBody") {
                let schema = &body["content"]["application/json"]["schema"];
                let reference = schema["$ref"]
                    .as_str()
                    .unwrap_or_else(|| panic!("{method} {path}: the JSON body names no schema: {schema}"));
                assert!(reference.starts_with("#/components/schemas/"), "{method} {path}: {reference}");
                assert!(resolve(&doc, reference).is_object());
                bodies += 1;
            }
            for status in ["4XX", "5XX"] {
                let response = &operation["responses"][status];
                let response = match response["$ref"].as_str() {
                    Some(reference) => resolve(&doc, reference),
                    None => response,
                };
                assert_eq!(
                    response["content"]["application/json"]["schema"]["$ref"], "#/components/schemas/Errors",
                    "{method} {path} {status}"
                );
            }
            if let Some(requirements) = operation.get("security").and_then(Value::as_array) {
                for scheme in requirements.iter().filter_map(Value::as_object).flat_map(|r| r.keys()) {
                    assert!(
                        doc["components"]["securitySchemes"][scheme].is_object(),
                        "{method} {path}: unknown security scheme {scheme}"
                    );
                }
            }
        }
    }
    // Registration, token, session, leave, challenge, move, dry run, tournament creation and
    // edit, director, section creation and edit, entry, seed, withdrawal and the three
    // directors' decisions.
    assert!(bodies >= 18, "only {bodies} request bodies described");
    let moves = &doc["paths"]["/api/games/{id}/moves"]["post"];
    assert_eq!(
        moves["requestBody"]["content"]["application/json"]["schema"]["$ref"],
        "#/components/schemas/MoveRequest"
    );
    let move_request = &doc["components"]["schemas"]["MoveRequest"];
    assert!(move_request["properties"]["move"].is_object(), "the move field keeps its serde name");
    assert_eq!(doc["components"]["securitySchemes"]["bearer"]["scheme"], "bearer");
    assert_eq!(doc["components"]["securitySchemes"]["session"]["in"], "cookie");
    assert_eq!(doc["paths"]["/api/accounts/me"]["get"]["security"][0]["bearer"], serde_json::json!([]));
}

#[tokio::test]
async fn game_and_challenge_schemas_describe_their_fields() {
    let app = TestApp::spawn().await;
    let doc = app.get("/api/openapi.json", None).await.expect(StatusCode::OK).clone();
    let schemas = &doc["components"]["schemas"];
    for (schema, fields) in [
        ("GameView", &["id", "variant", "seats", "moves", "legal_moves", "ply", "status", "result"][..]),
        ("SeatView", &["seat", "color", "status", "score", "place", "username", "remaining_ms"][..]),
        ("MoveView", &["ply", "turn_number", "seat", "canonical", "display"][..]),
        ("NewChallenge", &["variant", "seats", "opponent", "color", "time_control", "start_position"][..]),
        ("ChallengeView", &["id", "seat_count", "entrants", "status", "game_id"][..]),
        ("SeriesOptions", &["prefix", "next", "can_end"][..]),
    ] {
        let properties = &schemas[schema]["properties"];
        for field in fields {
            assert!(properties.get(*field).is_some(), "{schema}.{field} is documented: {}", schemas[schema]);
        }
    }
    // The time control is a tagged union of its kinds.
    let kinds = schemas["TimeControl"]["oneOf"].as_array().expect("TimeControl.oneOf");
    assert!(kinds.len() >= 5, "{kinds:?}");
}
