//! Tables people read: a section's crosstable and the tournament's Grand Prix table, as
//! serde data (JSON), CSV and HTML fragments in Italian or English.
//!
//! The data structures are built from the pure computations ([`build_crosstable`],
//! [`build_grand_prix_table`]); the writers ([`csv`], [`html`]) only format them. Every
//! label comes from a per-language catalogue ([`labels`]), never from the code.

pub mod csv;
pub mod html;
pub mod labels;

mod crosstable;
mod grand_prix_table;

pub(crate) use crosstable::rating_text;
pub use crosstable::{build_crosstable, Cell, CellGame, CellMark, Crosstable, CrosstableRow, PlayerInfo};
pub use grand_prix_table::{build_grand_prix_table, GrandPrixTable, GrandPrixTableRow, SectionInfo};
pub use labels::{Labels, Language};
