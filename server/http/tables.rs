//! The tables people read: a section's crosstable and a tournament's Grand Prix table, in
//! JSON, CSV or a printable HTML page, in Italian or English. Eight URLs, one handler:
//! each table at its own URL (the format by `?format=` or the Accept header) and at one URL
//! per format (`.json`, `.csv`, `.html`).

use axum::extract::State;
use axum::http::header::{ACCEPT, ACCEPT_LANGUAGE, CONTENT_TYPE};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::{Deserialize, Serialize};
use tavoliere_tournament::tables::csv::{crosstable_csv, grand_prix_csv};
use tavoliere_tournament::tables::html::{crosstable_html, escape, grand_prix_html};
use tavoliere_tournament::tables::{Crosstable, GrandPrixTable, Language};
use utoipa::openapi::path::{
    HttpMethod, OperationBuilder, ParameterBuilder, ParameterIn, PathItem, Paths, PathsBuilder,
};
use utoipa::openapi::{ContentBuilder, Ref, RefOr, Required, ResponseBuilder, Schema};
use utoipa::{IntoParams, PartialSchema, ToSchema};
use utoipa_axum::router::UtoipaMethodRouter;

use super::error::{ApiError, ApiResult};
use super::extract::{Json, Path, Query};
use super::AppState;
use crate::domain::tournaments;
use crate::domain::Domain;
use crate::web::i18n::Lang;

/// A table of results people read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Table {
    /// A section's crosstable.
    Crosstable,
    /// A tournament's Grand Prix table.
    GrandPrix,
}

impl Table {
    const ALL: [Table; 2] = [Table::Crosstable, Table::GrandPrix];

    /// The URL that negotiates the format; `.json`, `.csv` and `.html` after it fix one.
    fn url(self) -> &'static str {
        match self {
            Table::Crosstable => "/api/sections/{id}/crosstable",
            Table::GrandPrix => "/api/tournaments/{id}/grand-prix",
        }
    }

    /// The name of its operations (`crosstable`, `crosstable_csv`...).
    fn operation(self) -> &'static str {
        match self {
            Table::Crosstable => "crosstable",
            Table::GrandPrix => "grand_prix",
        }
    }

    fn title(self) -> &'static str {
        match self {
            Table::Crosstable => "The crosstable",
            Table::GrandPrix => "The Grand Prix table",
        }
    }

    /// What `{id}` names.
    fn owner(self) -> &'static str {
        match self {
            Table::Crosstable => "Section id",
            Table::GrandPrix => "Tournament id",
        }
    }

    /// A reference to the table's JSON schema.
    fn schema_ref(self) -> RefOr<Schema> {
        let name = match self {
            Table::Crosstable => Crosstable::name(),
            Table::GrandPrix => GrandPrixTable::name(),
        };
        RefOr::Ref(Ref::from_schema_name(name))
    }

    /// The table's JSON schema and every schema it refers to.
    fn schemas(self) -> Vec<(String, RefOr<Schema>)> {
        fn of<T: ToSchema>() -> Vec<(String, RefOr<Schema>)> {
            let mut schemas = vec![(T::name().into_owned(), T::schema())];
            T::schemas(&mut schemas);
            schemas
        }
        match self {
            Table::Crosstable => of::<Crosstable>(),
            Table::GrandPrix => of::<GrandPrixTable>(),
        }
    }

    /// The table of section or tournament `id` in `format`.
    async fn answer(
        self,
        domain: &Domain,
        id: i64,
        format: Format,
        language: Language,
    ) -> ApiResult<Response> {
        Ok(match self {
            Table::Crosstable => format.write(&tournaments::crosstable(domain, id).await?, language),
            Table::GrandPrix => format.write(&tournaments::grand_prix(domain, id).await?, language),
        })
    }
}

/// A table's data as its writers see it.
trait TableData: Serialize {
    fn title(&self) -> &str;
    fn csv(&self, language: Language) -> String;
    fn html(&self, language: Language) -> String;
}

impl TableData for Crosstable {
    fn title(&self) -> &str {
        &self.title
    }
    fn csv(&self, language: Language) -> String {
        crosstable_csv(self, language)
    }
    fn html(&self, language: Language) -> String {
        crosstable_html(self, language)
    }
}

impl TableData for GrandPrixTable {
    fn title(&self) -> &str {
        &self.title
    }
    fn csv(&self, language: Language) -> String {
        grand_prix_csv(self, language)
    }
    fn html(&self, language: Language) -> String {
        grand_prix_html(self, language)
    }
}

/// The format of a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Json,
    Csv,
    Html,
}

impl Format {
    const ALL: [Format; 3] = [Format::Json, Format::Csv, Format::Html];

    /// The name in `?format=` and in the URL's extension.
    fn name(self) -> &'static str {
        match self {
            Format::Json => "json",
            Format::Csv => "csv",
            Format::Html => "html",
        }
    }

    fn media_type(self) -> &'static str {
        match self {
            Format::Json => "application/json",
            Format::Csv => "text/csv",
            Format::Html => "text/html",
        }
    }

    fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|format| format.name() == name)
    }

    /// By the Accept header: HTML or CSV when it names them, else JSON.
    fn from_accept(headers: &HeaderMap) -> Format {
        let accept = headers.get(ACCEPT).and_then(|v| v.to_str().ok()).unwrap_or("");
        if accept.contains("text/html") {
            Format::Html
        } else if accept.contains("text/csv") {
            Format::Csv
        } else {
            Format::Json
        }
    }

    fn write(self, table: &impl TableData, language: Language) -> Response {
        match self {
            Format::Json => Json(table).into_response(),
            Format::Csv => ([(CONTENT_TYPE, "text/csv; charset=utf-8")], table.csv(language)).into_response(),
            Format::Html => html_page(table.title(), language, &table.html(language)),
        }
    }
}

/// `?format=json|csv|html&lang=it|en`.
#[derive(Deserialize, Default, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TableQuery {
    /// `json`, `csv` or `html` (default: by the Accept header, else JSON); ignored where the
    /// URL names the format.
    format: Option<String>,
    /// `it` or `en` (default: by the Accept-Language header, else the site's default
    /// language).
    #[param(value_type = Option<super::openapi::LanguageName>, inline)]
    lang: Option<String>,
}

/// Answers every table URL: the table, in the URL's format (`fixed`) or the negotiated one,
/// in the asked, accepted or site language.
async fn table(
    state: AppState,
    table: Table,
    id: i64,
    fixed: Option<Format>,
    query: TableQuery,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let unknown = |what: &str, value: &str, known: &str| {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, format!("unknown {what} {value:?} ({known})"))
    };
    let language = match query.lang.as_deref() {
        Some(tag) => Lang::from_tag(tag).ok_or_else(|| unknown("lang", tag, "it, en"))?,
        None => {
            let accepted = headers.get(ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok());
            Lang::from_accept_language(accepted).unwrap_or(state.default_language)
        }
    };
    let format = match (fixed, query.format.as_deref()) {
        (Some(format), _) => format,
        (None, Some(name)) => {
            Format::from_name(name).ok_or_else(|| unknown("format", name, "json, csv, html"))?
        }
        (None, None) => Format::from_accept(&headers),
    };
    let language = match language {
        Lang::It => Language::It,
        Lang::En => Language::En,
    };
    table.answer(&state.domain, id, format, language).await
}

/// The routes of the tables with their description, all answered by [`table`]: each
/// table at its own URL (format by `?format=` or the Accept header) and at one URL per
/// format (`.json`, `.csv`, `.html`).
pub fn routes() -> impl Iterator<Item = UtoipaMethodRouter<AppState>> {
    let formats = [None, Some(Format::Json), Some(Format::Csv), Some(Format::Html)];
    Table::ALL.into_iter().flat_map(move |kind| {
        formats.into_iter().map(move |fixed| {
            let handler = move |State(state): State<AppState>,
                                Path(id): Path<i64>,
                                Query(query): Query<TableQuery>,
                                headers: HeaderMap| async move {
                table(state, kind, id, fixed, query, headers).await
            };
            (kind.schemas(), table_description(kind, fixed), get(handler))
        })
    })
}

/// The OpenAPI path item of a table URL.
fn table_description(kind: Table, fixed: Option<Format>) -> Paths {
    let (path, operation_id, summary) = match fixed {
        None => (
            kind.url().to_owned(),
            kind.operation().to_owned(),
            format!("{}: JSON, CSV or HTML by `?format=` or the Accept header.", kind.title()),
        ),
        Some(format) => (
            format!("{}.{}", kind.url(), format.name()),
            format!("{}_{}", kind.operation(), format.name()),
            format!("{} as {}.", kind.title(), format.name().to_uppercase()),
        ),
    };
    let id = ParameterBuilder::new()
        .name("id")
        .parameter_in(ParameterIn::Path)
        .required(Required::True)
        .description(Some(kind.owner()))
        .schema(Some(i64::schema()));
    let mut parameters = vec![id.build()];
    parameters.extend(TableQuery::into_params(|| Some(ParameterIn::Query)));
    let mut response = ResponseBuilder::new().description(kind.title().to_lowercase());
    for format in fixed.map_or(Format::ALL.to_vec(), |format| vec![format]) {
        let schema = if format == Format::Json { kind.schema_ref() } else { String::schema() };
        response = response.content(format.media_type(), ContentBuilder::new().schema(Some(schema)).build());
    }
    let operation = OperationBuilder::new()
        .operation_id(Some(operation_id))
        .summary(Some(summary))
        .tag("tournaments")
        .parameters(Some(parameters))
        .response("200", response.build());
    PathsBuilder::new().path(path, PathItem::new(HttpMethod::Get, operation)).build()
}

/// A printable HTML page around a table fragment. The stylesheet is a file under
/// `static/`: the content security policy forbids inline styles.
fn html_page(title: &str, language: Language, fragment: &str) -> Response {
    let page = format!(
        "<!doctype html>\n<html lang=\"{lang}\">\n<head>\n<meta charset=\"utf-8\">\n<title>{title}</title>\n\
         <link rel=\"stylesheet\" href=\"{stylesheet}\">\n\
         </head>\n<body>\n{fragment}</body>\n</html>\n",
        lang = language.code(),
        title = escape(title),
        stylesheet = super::static_files::url("tables.css"),
    );
    ([(CONTENT_TYPE, "text/html; charset=utf-8")], page).into_response()
}
