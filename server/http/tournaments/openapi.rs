//! The OpenAPI description of the tournament routes, merged into `/api/openapi.json`.

use serde_json::{json, Map, Value};

/// One operation: `params` are the path parameters (`id` integers, `username` strings).
fn operation(
    summary: &str,
    auth: bool,
    params: &[&str],
    body: Option<&str>,
    success: &str,
    content: &[&str],
) -> Value {
    let mut op = Map::new();
    op.insert("summary".into(), json!(summary));
    let parameters: Vec<Value> = params
        .iter()
        .map(|name| {
            let schema = if *name == "username" {
                json!({"type": "string"})
            } else {
                json!({"type": "integer", "format": "int64"})
            };
            json!({"name": name, "in": "path", "required": true, "schema": schema})
        })
        .collect();
    if !parameters.is_empty() {
        op.insert("parameters".into(), Value::Array(parameters));
    }
    if let Some(schema) = body {
        op.insert(
            "requestBody".into(),
            json!({"required": true, "content": {"application/json": {"schema": {"$ref": format!("#/components/schemas/{schema}")}}}}),
        );
    }
    let media: Map<String, Value> = content.iter().map(|c| ((*c).to_owned(), json!({}))).collect();
    op.insert(
        "responses".into(),
        json!({ success: {"description": "OK", "content": media}, "4XX": {"$ref": "#/components/responses/Error"} }),
    );
    if auth {
        op.insert("security".into(), json!([{"bearer": []}, {"session": []}]));
    }
    Value::Object(op)
}

const JSON: &[&str] = &["application/json"];
const TABLE: &[&str] = &["application/json", "text/csv", "text/html"];

fn table_operation(summary: &str, content: &[&str]) -> Value {
    let mut op = operation(summary, false, &["id"], None, "200", content);
    if let Some(Value::Array(parameters)) = op.get_mut("parameters") {
        parameters
            .push(json!({"name": "lang", "in": "query", "schema": {"type": "string", "enum": ["it", "en"]}}));
        if content.len() > 1 {
            parameters.push(
                json!({"name": "format", "in": "query", "schema": {"type": "string", "enum": ["json", "csv", "html"]}}),
            );
        }
    }
    op
}

/// The paths of the tournament routes.
pub fn paths() -> Value {
    json!({
        "/api/tournaments": {
            "get": operation("Every tournament", false, &[], None, "200", JSON),
            "post": operation("Create a tournament (role director or admin); the creator directs it", true, &[], Some("NewTournament"), "201", JSON),
        },
        "/api/tournaments/{id}": {
            "get": operation("A tournament with its directors and sections", false, &["id"], None, "200", JSON),
            "patch": operation("Edit a tournament: name, description, season, status (draft → registration → running → finished), Grand Prix (its directors)", true, &["id"], Some("TournamentPatch"), "200", JSON),
        },
        "/api/tournaments/{id}/directors": {
            "post": operation("Add a director {username} (its directors)", true, &["id"], Some("Username"), "200", JSON),
        },
        "/api/tournaments/{id}/sections": {
            "get": operation("The sections of a tournament", false, &["id"], None, "200", JSON),
            "post": operation("Add a section: variant, ruleset, time control, vacation, pairing, start policy, scoring, tie-breaks, withdrawal rule (its directors)", true, &["id"], Some("NewSection"), "201", JSON),
        },
        "/api/tournaments/{id}/grand-prix": { "get": table_operation("The Grand Prix table (JSON, CSV or printable HTML by ?format= or Accept; ?lang=it|en)", TABLE) },
        "/api/tournaments/{id}/grand-prix.json": { "get": table_operation("The Grand Prix table as JSON", JSON) },
        "/api/tournaments/{id}/grand-prix.csv": { "get": table_operation("The Grand Prix table as CSV", &["text/csv"]) },
        "/api/tournaments/{id}/grand-prix.html": { "get": table_operation("The Grand Prix table as a printable HTML page", &["text/html"]) },
        "/api/sections/{id}": {
            "get": operation("A section with its entries", false, &["id"], None, "200", JSON),
            "patch": operation("Edit a section: name, scoring, tie-break order at any time; ruleset, time control, vacation, start policy, withdrawal rule before the start; status finished (its directors)", true, &["id"], Some("SectionPatch"), "200", JSON),
        },
        "/api/sections/{id}/entries": {
            "post": operation("Register: oneself while the tournament takes registrations, or (directors) anyone with a seed", true, &["id"], Some("Entry"), "201", JSON),
        },
        "/api/sections/{id}/entries/{username}": {
            "patch": operation("Set a seed {seed} before the start (its directors)", true, &["id", "username"], Some("Seed"), "200", JSON),
        },
        "/api/sections/{id}/entries/{username}/withdraw": {
            "post": operation("Withdraw (the player or a director): the section's rule forfeits or annuls the player's games, in the audit trail", true, &["id", "username"], Some("Reason"), "200", JSON),
        },
        "/api/sections/{id}/start": {
            "post": operation("Start: pairings drawn, games created with clocks running (all at once or the first round)", true, &["id"], None, "201", JSON),
        },
        "/api/sections/{id}/next-round": {
            "post": operation("Start the next round (Swiss; round-by-round round-robin)", true, &["id"], None, "201", JSON),
        },
        "/api/sections/{id}/standings": { "get": operation("Standings with tie-breaks and shared places", false, &["id"], None, "200", JSON) },
        "/api/sections/{id}/crosstable": { "get": table_operation("The crosstable (JSON, CSV or printable HTML by ?format= or Accept; ?lang=it|en); cells link to the games", TABLE) },
        "/api/sections/{id}/crosstable.json": { "get": table_operation("The crosstable as JSON", JSON) },
        "/api/sections/{id}/crosstable.csv": { "get": table_operation("The crosstable as CSV", &["text/csv"]) },
        "/api/sections/{id}/crosstable.html": { "get": table_operation("The crosstable as a printable HTML page", &["text/html"]) },
        "/api/sections/{id}/trf": { "get": operation("TRF(x) export of a Swiss section", false, &["id"], None, "200", &["text/plain"]) },
        "/api/games/{id}/adjudicate": {
            "post": operation("Adjudicate an unfinished tournament game {result: 1-0|0-1|1/2-1/2, reason} (its directors)", true, &["id"], Some("Decision"), "200", JSON),
        },
        "/api/games/{id}/forfeit": {
            "post": operation("Record a forfeit {result: forfeit-first-wins|forfeit-second-wins|double-forfeit, reason} (its directors)", true, &["id"], Some("Decision"), "200", JSON),
        },
        "/api/games/{id}/result-corrections": {
            "get": operation("The audit trail of the game's result: who, when, why", false, &["id"], None, "200", JSON),
            "post": operation("Correct a result {result, reason} (its directors); recorded in the audit trail", true, &["id"], Some("Decision"), "200", JSON),
        },
        "/api/accounts/me/tournaments": {
            "get": operation("The caller's sections with their tournament games (dashboard)", true, &[], None, "200", JSON),
        },
    })
}

/// The request schemas of the tournament routes.
pub fn schemas() -> Value {
    let tie_breaks = json!({"type": "array", "items": {"type": "string", "enum": [
        "games-played", "sonneborn-berger", "direct-encounter", "wins", "wins-with-second", "buchholz", "koya"]}});
    let scoring = json!({"oneOf": [
        {"type": "string", "enum": ["1-half-0", "3-2-1-0"]},
        {"type": "object", "required": ["win", "draw", "loss", "forfeit_win", "forfeit_loss"],
         "properties": {"win": {"type": "number"}, "draw": {"type": "number"}, "loss": {"type": "number"},
                        "forfeit_win": {"type": "number"}, "forfeit_loss": {"type": "number"}}}]});
    let (scoring_patch, tie_breaks_patch) = (scoring.clone(), tie_breaks.clone());
    json!({
        "NewTournament": {"type": "object", "required": ["name"], "properties": {
            "name": {"type": "string"}, "description": {"type": "string"}, "season": {"type": "string"},
            "grand_prix": {"type": "object", "description": "formula {kind: sum-of-points | sum-of-percentages | placement-points {table}}, best_sections, tie_breaks"}}},
        "TournamentPatch": {"type": "object", "properties": {
            "name": {"type": "string"}, "description": {"type": "string"}, "season": {"type": "string"},
            "status": {"type": "string", "enum": ["draft", "registration", "running", "finished"]},
            "grand_prix": {"type": "object"}}},
        "NewSection": {"type": "object", "required": ["name", "variant", "time_control", "pairing"], "properties": {
            "name": {"type": "string"},
            "variant": {"type": "string", "enum": ["xiangqi", "shogi", "minishogi"]},
            "ruleset": {"type": "string", "description": "e.g. cxq, aise-tournament, a shogi impasse rule"},
            "time_control": {"$ref": "#/components/schemas/TimeControl"},
            "vacation_allowed": {"type": "boolean"},
            "pairing": {"type": "string", "enum": ["round-robin", "double-round-robin", "swiss"]},
            "start_policy": {"type": "string", "enum": ["all-together", "round-by-round"]},
            "swiss_rounds": {"type": "integer"},
            "scoring": scoring,
            "tie_breaks": tie_breaks,
            "withdrawal_rule": {"type": "string", "enum": ["forfeit-unplayed", "annul-if-fewer-than-half-played"]}}},
        "SectionPatch": {"type": "object", "properties": {
            "name": {"type": "string"}, "ruleset": {"type": "string"},
            "time_control": {"$ref": "#/components/schemas/TimeControl"}, "vacation_allowed": {"type": "boolean"},
            "start_policy": {"type": "string", "enum": ["all-together", "round-by-round"]},
            "swiss_rounds": {"type": "integer"}, "scoring": scoring_patch, "tie_breaks": tie_breaks_patch,
            "withdrawal_rule": {"type": "string", "enum": ["forfeit-unplayed", "annul-if-fewer-than-half-played"]},
            "status": {"type": "string", "enum": ["finished"]}}},
        "Username": {"type": "object", "required": ["username"], "properties": {"username": {"type": "string"}}},
        "Entry": {"type": "object", "properties": {"username": {"type": "string"}, "seed": {"type": "integer"}}},
        "Seed": {"type": "object", "properties": {"seed": {"type": ["integer", "null"]}}},
        "Reason": {"type": "object", "properties": {"reason": {"type": "string"}}},
        "Decision": {"type": "object", "required": ["result", "reason"], "properties": {
            "result": {"type": "string", "description": "1-0, 0-1, 1/2-1/2 or first-wins, second-wins, draw, forfeit-first-wins, forfeit-second-wins, double-forfeit, annulled"},
            "reason": {"type": "string"}}},
    })
}

/// Adds the tournament paths and schemas to an OpenAPI document.
pub fn merge_into(document: &mut Value) {
    for (section, extra) in [("paths", paths()), ("schemas", schemas())] {
        let target = if section == "paths" {
            document.get_mut("paths")
        } else {
            document.get_mut("components").and_then(|c| c.get_mut("schemas"))
        };
        if let (Some(Value::Object(target)), Value::Object(extra)) = (target, extra) {
            target.extend(extra);
        }
    }
}
