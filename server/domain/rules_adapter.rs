//! The few helpers the games domain needs around the rules facade
//! (`tavoliere_rules::variant`, see DEVELOPERS.md "The facade the server uses").
//!
//! The server never decides a rule itself: legality, notation and the end of the game
//! all come from an [`AnyGame`]. Variants are stored by their facade name
//! ([`Variant::name`]) and read back with its `FromStr`.

use tavoliere_rules::game::{Handicap, Ruleset};
pub use tavoliere_rules::variant::Variant;
use tavoliere_rules::variant::{AnyGame, MoveError, MoveErrorKind};

use super::error::DomainError;

/// Reads a variant name (as stored, or as a client sends it).
///
/// # Errors
/// [`DomainError::Invalid`] naming the known variants.
pub fn parse_variant(name: &str) -> Result<Variant, DomainError> {
    name.parse().map_err(|e: tavoliere_rules::variant::UnknownVariant| DomainError::Invalid(e.to_string()))
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
        Err(DomainError::Invalid(format!("{variant} games have more than two players: tournaments pair two")))
    }
}

/// The name of the ruleset `ruleset` (or the variant's default), checked to belong to
/// `variant`.
///
/// # Errors
/// [`DomainError::Invalid`] for an unknown ruleset or one of another variant.
pub fn ruleset_for(variant: Variant, ruleset: Option<&str>) -> Result<String, DomainError> {
    let parsed: Ruleset = match ruleset {
        Some(name) => name.parse().map_err(|e| DomainError::Invalid(format!("{e}")))?,
        None => variant.default_ruleset(),
    };
    if !variant.accepts(parsed) {
        return Err(DomainError::Invalid(format!("ruleset {} is not a {variant} ruleset", parsed.name())));
    }
    Ok(parsed.name().to_owned())
}

/// A game of `variant` for `seats` players under the ruleset named `ruleset`, with an
/// optional `handicap` (a name from the rules crate's catalogue), from `start` (FEN/SFEN;
/// `None` = the standard or the handicap's start, with the standard seating for `seats` in
/// the Seven Kingdoms).
///
/// # Errors
/// The ruleset, handicap, start position or number of seats is not valid for the variant,
/// with the reason.
pub fn new_game(
    variant: Variant,
    ruleset: &str,
    handicap: Option<&str>,
    start: Option<&str>,
    seats: usize,
) -> Result<AnyGame, String> {
    let ruleset: Ruleset = ruleset.parse().map_err(|e| format!("{e}"))?;
    let handicap =
        handicap.map(|name| Handicap::parse(variant.name(), name).map_err(|e| format!("{e}"))).transpose()?;
    let game = if start.is_none() && handicap.is_none() && variant.seat_range().1 > 2 {
        AnyGame::with_seats(variant, seats).map_err(|e| e.to_string())?
    } else {
        AnyGame::with_rules(variant, ruleset, handicap, start).map_err(|e| e.to_string())?
    };
    if game.seat_count() != seats {
        return Err(format!("this {variant} position is for {} players, not {seats}", game.seat_count()));
    }
    // The Seven Kingdoms' standard start has one ruleset: a name that is not it is refused.
    if game.ruleset() != ruleset {
        return Err(format!("ruleset {} is not a {variant} ruleset", ruleset.name()));
    }
    Ok(game)
}

/// A refused move as a domain error (422), with the rules' explanation.
pub fn move_error(error: MoveError) -> DomainError {
    let prefix = match error.kind {
        MoveErrorKind::Unreadable => "unreadable move",
        MoveErrorKind::Ambiguous => "ambiguous move",
        MoveErrorKind::Illegal | MoveErrorKind::GameOver => "illegal move",
    };
    DomainError::Invalid(format!("{prefix}: {}", error.detail))
}
