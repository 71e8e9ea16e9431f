//! Interface text in Italian and English. Every string shown by the pages lives in the
//! catalogues `locales/<lang>.json` (flat `key -> text`, `{name}` placeholders), compiled
//! into the binary and read once at first use. The language is the account setting if
//! there is one, else the best match of `Accept-Language`, else English.

use std::collections::HashMap;
use std::sync::OnceLock;

/// An interface language; in the configuration (`default_language`) by its tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    /// English (the fallback).
    #[default]
    En,
    /// Italian.
    It,
}

impl Lang {
    /// Every supported language.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::It];

    /// The language tag (`en`, `it`).
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::It => "it",
        }
    }

    /// Reads a tag such as `it`, `it-IT` or `en-GB`.
    pub fn from_tag(tag: &str) -> Option<Lang> {
        let primary = tag.trim().split(['-', '_']).next().unwrap_or("").to_ascii_lowercase();
        match primary.as_str() {
            "en" => Some(Lang::En),
            "it" => Some(Lang::It),
            _ => None,
        }
    }

    /// The account setting first, then the best `Accept-Language` entry, then `fallback`
    /// (the site's default language).
    pub fn negotiate(setting: Option<&str>, accept_language: Option<&str>, fallback: Lang) -> Lang {
        setting
            .and_then(Lang::from_tag)
            .or_else(|| Lang::from_accept_language(accept_language))
            .unwrap_or(fallback)
    }

    /// The best supported entry of an `Accept-Language` header, by q-value (ties in header
    /// order); none when it names no supported language.
    pub fn from_accept_language(header: Option<&str>) -> Option<Lang> {
        let mut best: Option<(f32, Lang)> = None;
        for entry in header.unwrap_or("").split(',') {
            let mut parts = entry.split(';');
            let Some(lang) = parts.next().and_then(Lang::from_tag) else { continue };
            let quality = parts
                .find_map(|p| p.trim().strip_prefix("q=").and_then(|q| q.trim().parse::<f32>().ok()))
                .unwrap_or(1.0);
            if quality > 0.0 && best.is_none_or(|(q, _)| quality > q) {
                best = Some((quality, lang));
            }
        }
        best.map(|(_, lang)| lang)
    }
}

type Catalogue = HashMap<String, String>;

fn catalogues() -> &'static [Catalogue; 2] {
    static CATALOGUES: OnceLock<[Catalogue; 2]> = OnceLock::new();
    CATALOGUES.get_or_init(|| {
        // A catalogue that cannot be read is a build defect caught by the tests below;
        // at run time it degrades to showing the keys.
        let read = |text: &str| serde_json::from_str::<Catalogue>(text).unwrap_or_default();
        [read(include_str!("../../locales/en.json")), read(include_str!("../../locales/it.json"))]
    })
}

/// The interface text of one language.
#[derive(Debug, Clone, Copy)]
pub struct Texts {
    lang: Lang,
}

impl Texts {
    /// The texts of `lang`.
    pub fn new(lang: Lang) -> Texts {
        Texts { lang }
    }

    /// The language.
    pub fn lang(&self) -> Lang {
        self.lang
    }

    /// The text of `key`; English if the language lacks it; the key itself if both do.
    pub fn get<'a>(&self, key: &'a str) -> &'a str
    where
        'static: 'a,
    {
        let [en, it] = catalogues();
        let own = match self.lang {
            Lang::En => en,
            Lang::It => it,
        };
        own.get(key).or_else(|| en.get(key)).map(String::as_str).unwrap_or(key)
    }

    /// The text of `key` in this language or in English, if either catalogue has it.
    pub fn lookup(&self, key: &str) -> Option<&'static str> {
        let [en, it] = catalogues();
        let own = match self.lang {
            Lang::En => en,
            Lang::It => it,
        };
        own.get(key).or_else(|| en.get(key)).map(String::as_str)
    }

    /// The text of `key` with `{name}` placeholders replaced.
    pub fn format(&self, key: &str, args: &[(&str, &str)]) -> String {
        let mut text = self.get(key).to_owned();
        for (name, value) in args {
            text = text.replace(&format!("{{{name}}}"), value);
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalogues_parse_and_have_the_same_keys() {
        let en: Catalogue = serde_json::from_str(include_str!("../../locales/en.json")).unwrap();
        let it: Catalogue = serde_json::from_str(include_str!("../../locales/it.json")).unwrap();
        let mut missing: Vec<_> = en.keys().filter(|k| !it.contains_key(*k)).collect();
        missing.extend(it.keys().filter(|k| !en.contains_key(*k)));
        assert!(missing.is_empty(), "keys in one catalogue only: {missing:?}");
        assert!(en.len() > 20);
    }

    #[test]
    fn every_refusal_of_the_rules_has_a_sentence_in_both_languages() {
        let codes = tavoliere_rules::variant::REFUSAL_CODES.iter().copied();
        let server = ["move.stale-ply", "move.not-your-turn", "move.time-out", "time-control.invalid"];
        for code in codes.chain(server) {
            let key = format!("refusal.{code}");
            for lang in Lang::ALL {
                let own = &catalogues()[usize::from(lang == Lang::It)];
                assert!(own.contains_key(&key), "{key} is missing in {}", lang.code());
            }
        }
        let it = Texts::new(Lang::It);
        assert_eq!(
            it.lookup("refusal.illegal-move.blocked"),
            Some("{move} non è legale: la strada del pezzo è bloccata.")
        );
        assert_eq!(it.lookup("refusal.no-such-code"), None);
    }

    #[test]
    fn account_setting_wins_over_accept_language() {
        assert_eq!(Lang::negotiate(Some("it"), Some("en-GB,en;q=0.9"), Lang::En), Lang::It);
        assert_eq!(Lang::negotiate(Some("en"), Some("it"), Lang::It), Lang::En);
    }

    #[test]
    fn accept_language_by_quality() {
        assert_eq!(Lang::negotiate(None, Some("de-DE,it;q=0.8,en;q=0.5"), Lang::En), Lang::It);
        assert_eq!(Lang::negotiate(None, Some("en;q=0.2, it-IT;q=0.9"), Lang::En), Lang::It);
        assert_eq!(Lang::negotiate(None, Some("it;q=0,en"), Lang::It), Lang::En);
    }

    #[test]
    fn without_a_supported_accept_language_the_site_default() {
        assert_eq!(Lang::negotiate(None, Some("fr"), Lang::En), Lang::En);
        assert_eq!(Lang::negotiate(None, Some("fr"), Lang::It), Lang::It);
        assert_eq!(Lang::negotiate(None, None, Lang::It), Lang::It);
        assert_eq!(Lang::from_accept_language(Some("de, fr;q=0.5")), None);
    }

    #[test]
    fn texts_translate_and_format() {
        let it = Texts::new(Lang::It);
        assert_eq!(it.get("nav.login"), "Accedi");
        assert_eq!(Texts::new(Lang::En).get("nav.login"), "Log in");
        assert_eq!(it.get("no.such.key"), "no.such.key");
        assert_eq!(Texts::new(Lang::En).format("game.title", &[("id", "7")]), "Game 7");
    }
}
