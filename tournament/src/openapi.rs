//! The JSON schemas of the two types whose serde shape is written by hand (feature
//! `openapi`); every other published type derives its schema next to its serde derive.

use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Schema, Type};
use utoipa::openapi::RefOr;
use utoipa::{PartialSchema, ToSchema};

use crate::scoring::{ByePoints, Points};

/// A number of points: a JSON number with up to three decimals.
fn points_schema() -> ObjectBuilder {
    ObjectBuilder::new().schema_type(Type::Number).description(Some("points, e.g. `2.5`")).examples([2.5])
}

impl PartialSchema for Points {
    fn schema() -> RefOr<Schema> {
        points_schema().into()
    }
}

impl ToSchema for Points {}

impl PartialSchema for ByePoints {
    fn schema() -> RefOr<Schema> {
        let named = ObjectBuilder::new()
            .schema_type(Type::String)
            .enum_values(Some(["win", "draw", "loss"]))
            .description(Some("the points of a win, a draw or a loss under the section's scoring"));
        OneOfBuilder::new()
            .item(named)
            .item(points_schema())
            .description(Some(
                "what a pairing-allocated bye scores: `win` (the default), `draw`, `loss` or points",
            ))
            .into()
    }
}

impl ToSchema for ByePoints {}
