//! Seven Kingdoms notation: the position text, moves (`Qin 騎 a13-e16`) and game records.
//!
//! ```
//! use tavoliere_rules::notation::seven_kingdoms::{moves, position_text};
//! use tavoliere_rules::seven_kingdoms::{Game, Position};
//!
//! let pos = Position::new();
//! let mv = moves::parse(&pos, "Qin 騎 a13-e16").unwrap();
//! assert_eq!(moves::write(&pos, mv), "Qin 騎 a13-e16");
//! assert_eq!(moves::parse(&pos, "Qin horseman 0,12-4,15"), Ok(mv));
//! assert_eq!(position_text::parse(&position_text::write(&pos)), Ok(pos));
//!
//! let mut game = Game::default();
//! let played = game.play_text("a13-e16").unwrap();
//! assert_eq!(played.canonical, "Qin 騎 a13-e16");
//! assert_eq!(game.turn().name(), "Chu");
//! ```

pub mod moves;
pub mod position_text;
pub mod record;

pub use moves::{parse, write, write_with, Coordinates, MoveStyle, MoveText, NotationError, PieceNames};
pub use position_text::PositionTextError;
pub use record::{parse_record, write_record, PlayedMove, RecordError};
