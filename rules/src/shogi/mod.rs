//! Shogi and MiniShogi, one implementation parameterised by board and rules.
//! Rules: `../shared/rules/shogi.md`, `../shared/rules/minishogi.md`.
