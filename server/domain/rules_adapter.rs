//! The few helpers the games domain needs around the rules facade
//! (`tavoliere_rules::variant`, see DEVELOPERS.md "The facade the server uses").
//!
//! The server never decides a rule itself: legality, notation and the end of the game
//! all come from an [`AnyGame`]. Variants are stored by their facade name
//! ([`Variant::name`]) and read back with its `FromStr`.

use tavoliere_rules::game::{Handicap, Ruleset};
pub use tavoliere_rules::variant::Variant;
use tavoliere_rules::variant::{AnyGame, MoveError, SetupError};

use super::error::{DomainError, ErrorKind};

/// Reads a variant name (as stored, or as a client sends it).
///
/// # Errors
/// [`DomainError::Invalid`] naming the known variants.
pub fn parse_variant(name: &str) -> Result<Variant, DomainError> {
    name.parse().map_err(|_| {
        DomainError::coded(
            ErrorKind::Invalid,
            "setup.unknown-variant",
            format!("There is no variant named “{name}”: the variants are xiangqi, shogi, minishogi, flickering and seven-kingdoms."),
        )
    })
}

/// The JSON schema of a variant name: one of [`Variant::ALL`]'s names (the API
/// description's `variant` fields, `#[schema(schema_with = ...)]`).
pub fn variant_name_schema() -> utoipa::openapi::Object {
    variant_schema(Variant::ALL.into_iter(), "The variant's name.")
}

/// The JSON schema of a variant name tournaments can pair (see [`pairable`]).
pub fn pairable_variant_schema() -> utoipa::openapi::Object {
    let pairable = Variant::ALL.into_iter().filter(|variant| pairable(*variant).is_ok());
    variant_schema(pairable, "The variant's name; tournaments pair two players.")
}

fn variant_schema(variants: impl Iterator<Item = Variant>, description: &str) -> utoipa::openapi::Object {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .enum_values(Some(variants.map(Variant::name)))
        .description(Some(description))
        .build()
}

/// Whether games of `variant` can be paired in tournaments: two-player games only (a
/// Seven Kingdoms game has 3 to 7 seats; it is played from open challenges).
pub fn pairable(variant: Variant) -> Result<(), DomainError> {
    if variant.seat_range().0 == 2 {
        Ok(())
    } else {
        Err(DomainError::coded(
            ErrorKind::Invalid,
            "setup.not-pairable",
            format!("{variant} games have more than two players: tournaments pair two."),
        ))
    }
}

/// The name of the ruleset `ruleset` (or the variant's default), checked to belong to
/// `variant`.
///
/// # Errors
/// [`DomainError::Invalid`] for an unknown ruleset or one of another variant.
pub fn ruleset_for(variant: Variant, ruleset: Option<&str>) -> Result<String, DomainError> {
    let parsed: Ruleset = match ruleset {
        Some(name) => parse_ruleset(name)?,
        None => variant.default_ruleset(),
    };
    if !variant.accepts(parsed) {
        return Err(SetupError::Ruleset { ruleset: parsed, variant }.into());
    }
    // The stored text keeps any CXQ limits of the event (`cxq(series=4,...)`).
    Ok(parsed.to_string())
}

fn parse_ruleset(name: &str) -> Result<Ruleset, DomainError> {
    name.parse().map_err(|_| {
        DomainError::coded(
            ErrorKind::Invalid,
            "setup.unknown-ruleset",
            format!(
                "There is no ruleset named “{name}”: the rulesets are cxq (or CXQ with other limits, \
                 e.g. cxq(series=4,pieces=3,effective=120,progress=30,length=300)), basic, shogi-24, \
                 shogi-27, aise, aise-tournament, modern, modern-tournament, flickering and seven-kingdoms."
            ),
        )
    })
}

/// The handicap named `name` for `variant`.
///
/// # Errors
/// [`DomainError`] `setup.unknown-handicap` naming the handicap.
pub fn parse_handicap(variant: Variant, name: &str) -> Result<Handicap, DomainError> {
    Handicap::parse(variant.name(), name).map_err(|_| {
        DomainError::coded(
            ErrorKind::Invalid,
            "setup.unknown-handicap",
            format!("{variant} has no handicap named “{name}”."),
        )
    })
}

/// A game of `variant` for `seats` players under the ruleset named `ruleset`, with an
/// optional `handicap` (a name from the rules crate's catalogue), from `start` (FEN/SFEN;
/// `None` = the standard or the handicap's start, with the standard seating for `seats` in
/// the Seven Kingdoms).
///
/// # Errors
/// The ruleset, handicap, start position or number of seats is not valid for the variant:
/// the rules' typed reason ([`DomainError::Setup`]) or an unknown name.
pub fn new_game(
    variant: Variant,
    ruleset: &str,
    handicap: Option<&str>,
    start: Option<&str>,
    seats: usize,
) -> Result<AnyGame, DomainError> {
    let ruleset = parse_ruleset(ruleset)?;
    let handicap = handicap.map(|name| parse_handicap(variant, name)).transpose()?;
    let game = if start.is_none() && handicap.is_none() && variant.seat_range().1 > 2 {
        AnyGame::with_seats(variant, seats)?
    } else {
        AnyGame::with_rules(variant, ruleset, handicap, start)?
    };
    if game.seat_count() != seats {
        return Err(DomainError::coded(
            ErrorKind::Invalid,
            "setup.seats",
            format!("This {variant} position is for {} players, not {seats}.", game.seat_count()),
        ));
    }
    // The Seven Kingdoms' standard start has one ruleset: a name that is not it is refused.
    if game.ruleset() != ruleset {
        return Err(SetupError::Ruleset { ruleset, variant }.into());
    }
    Ok(game)
}

/// [`new_game`] run where its cost belongs: a set-up from a supplied start position is
/// judged in the domain's bounded pool of rules work ([`super::rules_work`]; judging a
/// Flickering chess start searches for mate, up to the rules' start-position budget),
/// the standard start at once.
///
/// # Errors
/// As [`new_game`]; 503 when the pool is too busy.
pub async fn judged_game(
    domain: &super::Domain,
    variant: Variant,
    ruleset: &str,
    handicap: Option<&str>,
    start: Option<&str>,
    seats: usize,
) -> Result<AnyGame, DomainError> {
    let Some(start) = start else { return new_game(variant, ruleset, handicap, None, seats) };
    let (ruleset, handicap, start) = (ruleset.to_owned(), handicap.map(str::to_owned), start.to_owned());
    domain
        .rules_work
        .run(move || new_game(variant, &ruleset, handicap.as_deref(), Some(&start), seats))
        .await?
}

/// A refused move as a domain error (422, or 409 when the game is over), typed.
pub fn move_error(error: MoveError) -> DomainError {
    DomainError::Move(error)
}
