//! The Game of the Seven Kingdoms (七國象戲), for up to seven players.
//! Rules: `../shared/rules/seven-kingdoms.md`.
