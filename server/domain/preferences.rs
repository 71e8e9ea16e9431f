//! An account's preferences: interface language, piece style, and the move-list notation
//! of each game family. Stored on the account, so they follow the player to any browser;
//! the web pages keep the same [`Preferences`] in the session for visitors who are not
//! signed in.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use sqlx::PgPool;
use tavoliere_rules::variant::{Notation, Variant};

use super::error::{DomainError, DomainResult};
use super::games::GameView;
use super::rules_adapter;
use crate::storage::preferences::{self as storage, PreferencesRow};

/// Defines a setting: a unit enum with its stored names (the same in the database, the
/// API and the forms), `FromStr` with a message that lists the names, and serde as the
/// name (so a bad value in a JSON body is refused with that message).
macro_rules! setting {
    ($(#[$doc:meta])* $name:ident, $what:literal { $($(#[$vdoc:meta])* $variant:ident => $text:literal,)* }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
        #[serde(rename_all = "lowercase")]
        pub enum $name {
            $($(#[$vdoc])* $variant,)*
        }

        impl $name {
            /// Every value, in the order the forms list them.
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];

            /// The stored name.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)*
                }
            }
        }

        /// The first value is the default.
        impl Default for $name {
            fn default() -> $name {
                $name::ALL[0]
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl FromStr for $name {
            type Err = DomainError;
            fn from_str(text: &str) -> DomainResult<$name> {
                $name::ALL.iter().copied().find(|value| value.as_str() == text).ok_or_else(|| {
                    let known: Vec<&str> = $name::ALL.iter().map(|v| v.as_str()).collect();
                    DomainError::Invalid(format!(
                        "unknown {} {text:?} (known: {})",
                        $what,
                        known.join(", ")
                    ))
                })
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<$name, D::Error> {
                let text = String::deserialize(deserializer)?;
                text.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}

setting! {
    /// Interface language.
    Language, "language" {
        /// From the browser's `Accept-Language`.
        Auto => "auto",
        /// English.
        En => "en",
        /// Italian.
        It => "it",
    }
}

setting! {
    /// How the boards draw the pieces.
    PieceStyle, "piece style" {
        /// Traditional characters (帥仕相俥傌炮兵, 王玉飛角金銀桂香歩...).
        Traditional => "traditional",
        /// Westernised letters.
        Western => "western",
    }
}

setting! {
    /// The move-list notation of Xiangqi games.
    XiangqiNotation, "xiangqi notation" {
        /// The usual display notation (WXF).
        Auto => "auto",
        /// WXF, `C2=5`.
        Wxf => "wxf",
        /// ICCS coordinates, `h2e2`.
        Iccs => "iccs",
        /// FIX western algebraic, `Bh3e3`.
        Fix => "fix",
        /// Chinese, `炮二平五`.
        Chinese => "chinese",
    }
}

setting! {
    /// The move-list notation of Shogi and MiniShogi games.
    ShogiNotation, "shogi notation" {
        /// The usual display notation (western for Shogi, AISE for MiniShogi).
        Auto => "auto",
        /// Western with hyphens, `P-7f`.
        Western => "western",
        /// AISE magazine style, `P7f`.
        Aise => "aise",
        /// USI coordinates, `7g7f`.
        Usi => "usi",
    }
}

/// An account's (or a browser session's) preferences.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct Preferences {
    /// Interface language; `auto` follows the browser.
    pub language: Language,
    /// Piece style of the boards.
    pub piece_style: PieceStyle,
    /// Move-list notation of Xiangqi games; `auto` = WXF.
    pub xiangqi_notation: XiangqiNotation,
    /// Move-list notation of Shogi and MiniShogi games; `auto` = western (Shogi), AISE
    /// (MiniShogi).
    pub shogi_notation: ShogiNotation,
}

impl Preferences {
    /// The chosen language tag, if not `auto`.
    pub fn language_tag(&self) -> Option<&'static str> {
        match self.language {
            Language::Auto => None,
            chosen => Some(chosen.as_str()),
        }
    }

    /// The notation moves of `variant` are shown in ([`Notation::Auto`] = the variant's
    /// display notation).
    pub fn notation_for(&self, variant: Variant) -> Notation {
        match variant {
            Variant::Xiangqi => match self.xiangqi_notation {
                XiangqiNotation::Auto => Notation::Auto,
                XiangqiNotation::Wxf => Notation::Wxf,
                XiangqiNotation::Iccs => Notation::Iccs,
                XiangqiNotation::Fix => Notation::Fix,
                XiangqiNotation::Chinese => Notation::Chinese,
            },
            Variant::Shogi | Variant::MiniShogi => match self.shogi_notation {
                ShogiNotation::Auto => Notation::Auto,
                ShogiNotation::Western => Notation::Western,
                ShogiNotation::Aise => Notation::Aise,
                ShogiNotation::Usi => Notation::Usi,
            },
            Variant::Flickering | Variant::SevenKingdoms => Notation::Auto,
        }
    }

    /// These preferences with the fields `patch` sets replaced.
    pub fn apply(self, patch: &PreferencesPatch) -> Preferences {
        Preferences {
            language: patch.language.unwrap_or(self.language),
            piece_style: patch.piece_style.unwrap_or(self.piece_style),
            xiangqi_notation: patch.xiangqi_notation.unwrap_or(self.xiangqi_notation),
            shogi_notation: patch.shogi_notation.unwrap_or(self.shogi_notation),
        }
    }
}

/// Changes to an account's preferences; absent fields stay as they are.
#[derive(Clone, Copy, Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PreferencesPatch {
    /// Interface language.
    pub language: Option<Language>,
    /// Piece style.
    pub piece_style: Option<PieceStyle>,
    /// Move-list notation of Xiangqi games.
    pub xiangqi_notation: Option<XiangqiNotation>,
    /// Move-list notation of Shogi and MiniShogi games.
    pub shogi_notation: Option<ShogiNotation>,
}

impl From<Preferences> for PreferencesPatch {
    fn from(all: Preferences) -> PreferencesPatch {
        PreferencesPatch {
            language: Some(all.language),
            piece_style: Some(all.piece_style),
            xiangqi_notation: Some(all.xiangqi_notation),
            shogi_notation: Some(all.shogi_notation),
        }
    }
}

fn from_row(
    (language, piece_style, xiangqi_notation, shogi_notation): PreferencesRow,
) -> DomainResult<Preferences> {
    // The check constraints keep these columns to the known names.
    let stored = |e: DomainError| DomainError::Internal(anyhow::anyhow!("stored preference: {e}"));
    Ok(Preferences {
        language: language.parse().map_err(stored)?,
        piece_style: piece_style.parse().map_err(stored)?,
        xiangqi_notation: xiangqi_notation.parse().map_err(stored)?,
        shogi_notation: shogi_notation.parse().map_err(stored)?,
    })
}

/// The preferences of `account_id`.
///
/// # Errors
/// Unknown account (404) or database failure.
pub async fn of_account(pool: &PgPool, account_id: i64) -> DomainResult<Preferences> {
    let row = storage::of_account(pool, account_id).await?;
    from_row(row)
}

/// Changes the preferences of `account_id` as `patch` says; returns them all.
///
/// # Errors
/// Unknown account (404) or database failure.
pub async fn update(pool: &PgPool, account_id: i64, patch: &PreferencesPatch) -> DomainResult<Preferences> {
    let names = [
        patch.language.map(Language::as_str),
        patch.piece_style.map(PieceStyle::as_str),
        patch.xiangqi_notation.map(XiangqiNotation::as_str),
        patch.shogi_notation.map(ShogiNotation::as_str),
    ];
    let row = storage::update(pool, account_id, names).await?;
    from_row(row)
}

/// The moves of `view` written in `notation` ([`Notation::Auto`] = the game's display
/// notation). The display and canonical notations are stored with the view; any other is
/// written by replaying the game through the rules.
///
/// # Errors
/// [`DomainError::Internal`] when the stored game does not replay.
pub fn moves_in(view: &GameView, notation: Notation) -> DomainResult<Vec<String>> {
    let variant = rules_adapter::parse_variant(&view.variant)?;
    if notation == variant.canonical_notation() {
        return Ok(view.moves.iter().map(|m| m.canonical.clone()).collect());
    }
    if notation == Notation::Auto || notation == variant.display_notation() {
        return Ok(view
            .moves
            .iter()
            .map(|m| m.display.clone().unwrap_or_else(|| m.canonical.clone()))
            .collect());
    }
    let (game, turns) = view.replay()?;
    Ok(game.display_rows(notation, &turns))
}

/// The notation named `name` (a Xiangqi or Shogi notation setting: `wxf`, `iccs`, `fix`,
/// `chinese`, `western`, `usi`, `aise`, `auto`) for games of `variant`; the variant's own
/// for the games without a choice.
///
/// # Errors
/// A name that is not one of the variant family's settings (422).
pub fn notation_named(variant: Variant, name: &str) -> DomainResult<Notation> {
    let mut chosen = Preferences::default();
    match variant {
        Variant::Xiangqi => chosen.xiangqi_notation = name.parse()?,
        Variant::Shogi | Variant::MiniShogi => chosen.shogi_notation = name.parse()?,
        Variant::Flickering | Variant::SevenKingdoms => {}
    }
    Ok(chosen.notation_for(variant))
}

/// Rewrites the moves' `display` of `view` in `notation` (issue 20 §4: the REST view
/// follows the reader's notation), and names it in `display_notation`.
///
/// # Errors
/// A stored game that cannot be replayed (500).
pub fn show_in(view: &mut GameView, notation: Notation) -> DomainResult<()> {
    let variant = rules_adapter::parse_variant(&view.variant)?;
    if notation == Notation::Auto || notation == variant.display_notation() {
        return Ok(());
    }
    let texts = moves_in(view, notation)?;
    if texts.len() == view.moves.len() {
        for (entry, text) in view.moves.iter_mut().zip(texts) {
            entry.display = Some(text);
        }
        view.display_notation = notation.name();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_read_their_names_and_refuse_others() {
        assert_eq!("chinese".parse::<XiangqiNotation>().unwrap(), XiangqiNotation::Chinese);
        assert_eq!("usi".parse::<ShogiNotation>().unwrap(), ShogiNotation::Usi);
        let refused = "chinese".parse::<ShogiNotation>().unwrap_err().to_string();
        assert!(refused.contains("unknown shogi notation") && refused.contains("aise"), "{refused}");
        assert!("EN".parse::<Language>().is_err(), "names are exact");
        for value in XiangqiNotation::ALL {
            assert_eq!(value.as_str().parse::<XiangqiNotation>().unwrap(), *value);
        }
    }

    #[test]
    fn each_family_has_its_own_notation() {
        let prefs = Preferences {
            xiangqi_notation: XiangqiNotation::Chinese,
            shogi_notation: ShogiNotation::Usi,
            ..Preferences::default()
        };
        assert_eq!(prefs.notation_for(Variant::Xiangqi), Notation::Chinese);
        assert_eq!(prefs.notation_for(Variant::Shogi), Notation::Usi);
        assert_eq!(prefs.notation_for(Variant::MiniShogi), Notation::Usi);
        assert_eq!(Preferences::default().notation_for(Variant::Xiangqi), Notation::Auto);
    }

    #[test]
    fn a_patch_changes_only_its_fields_and_old_sessions_still_read() {
        let patch = PreferencesPatch { piece_style: Some(PieceStyle::Western), ..Default::default() };
        let changed = Preferences::default().apply(&patch);
        assert_eq!(changed, Preferences { piece_style: PieceStyle::Western, ..Preferences::default() });
        let old: Preferences = serde_json::from_str(r#"{"language":"it"}"#).unwrap();
        assert_eq!(old.language, Language::It);
        assert!(serde_json::from_str::<PreferencesPatch>(r#"{"colour":"red"}"#).is_err());
    }
}
