//! A mail's two parts from the askama templates `templates/mail/notice.txt` and
//! `notice.html` (auto-escaped), in the reader's language: the sentences come from the
//! mail catalogues `locales/mail/<lang>.json` (`<kind>.subject`, `<kind>.body`,
//! `<kind>.link` with `{name}` placeholders).

use std::collections::HashMap;
use std::sync::OnceLock;

use askama::Template;

use crate::web::i18n::Lang;

/// What a mail says, before the templates: gathered by the sender from the notification
/// and the database.
#[derive(Clone, Debug)]
pub struct Facts {
    /// Catalogue prefix: the notification kind (`your-move`...).
    pub kind: &'static str,
    /// The reader's language.
    pub lang: Lang,
    /// The reader's username.
    pub username: String,
    /// Values of the `{name}` placeholders.
    pub params: Vec<(&'static str, String)>,
    /// Paragraphs after the body (a ruling's explanation), already in `lang`.
    pub extra: Vec<String>,
    /// A list (the digest's games), each line with its link.
    pub lines: Vec<Line>,
    /// The main link (absolute), labelled by the catalogue's `<kind>.link`.
    pub link: Option<String>,
    /// The one-click unsubscribe link (notifications; not account mails).
    pub unsubscribe: Option<String>,
    /// The link is a secret (a password reset): kept out of logs.
    pub secret: bool,
}

/// A line of a mail's list.
#[derive(Clone, Debug)]
pub struct Line {
    /// Its text.
    pub text: String,
    /// Its link, if any.
    pub url: Option<String>,
}

/// A labelled link.
#[derive(Clone, Debug)]
pub struct Link {
    /// The label.
    pub label: String,
    /// The absolute URL.
    pub url: String,
}

/// A composed mail.
#[derive(Clone, Debug)]
pub struct Composed {
    /// Subject line.
    pub subject: String,
    /// The text part.
    pub text: String,
    /// The HTML part.
    pub html: String,
    /// The one-click unsubscribe URL (`List-Unsubscribe`).
    pub unsubscribe: Option<String>,
    secret_link: Option<String>,
}

impl Composed {
    /// The text part with a secret link replaced (for the log and the admin's outbox
    /// page when no relay is configured).
    pub fn loggable_text(&self) -> String {
        match &self.secret_link {
            Some(link) => self.text.replace(link, "[link withheld: it is a secret]"),
            None => self.text.clone(),
        }
    }
}

#[derive(Template)]
#[template(path = "mail/notice.txt")]
struct TextPart<'a> {
    greeting: &'a str,
    paragraphs: &'a [String],
    lines: &'a [Line],
    link: &'a Option<Link>,
    footer: &'a str,
    unsubscribe: &'a Option<Link>,
}

#[derive(Template)]
#[template(path = "mail/notice.html")]
struct HtmlPart<'a> {
    lang: &'a str,
    subject: &'a str,
    greeting: &'a str,
    paragraphs: &'a [String],
    lines: &'a [Line],
    link: &'a Option<Link>,
    footer: &'a str,
    unsubscribe: &'a Option<Link>,
}

type Catalogue = HashMap<String, String>;

fn catalogue(lang: Lang) -> &'static Catalogue {
    static CATALOGUES: OnceLock<[Catalogue; 2]> = OnceLock::new();
    let all = CATALOGUES.get_or_init(|| {
        // A catalogue that does not parse is caught by the tests below.
        let read = |text: &str| serde_json::from_str::<Catalogue>(text).unwrap_or_default();
        [read(include_str!("../../locales/mail/en.json")), read(include_str!("../../locales/mail/it.json"))]
    });
    match lang {
        Lang::En => &all[0],
        Lang::It => &all[1],
    }
}

/// The catalogue's text for `key` in `lang` (English, then the key, when missing).
pub fn text(lang: Lang, key: &str) -> String {
    catalogue(lang)
        .get(key)
        .or_else(|| catalogue(Lang::En).get(key))
        .cloned()
        .unwrap_or_else(|| key.to_owned())
}

fn fill(template: &str, params: &[(&'static str, String)]) -> String {
    let mut text = template.to_owned();
    for (name, value) in params {
        text = text.replace(&format!("{{{name}}}"), value);
    }
    text
}

/// Composes the mail of `facts`.
///
/// # Errors
/// A template fails to render.
pub fn compose(facts: &Facts) -> Result<Composed, askama::Error> {
    let lang = facts.lang;
    let mut params = facts.params.clone();
    params.push(("user", facts.username.clone()));
    let subject = fill(&text(lang, &format!("{}.subject", facts.kind)), &params);
    let greeting = fill(&text(lang, "greeting"), &params);
    let mut paragraphs = vec![fill(&text(lang, &format!("{}.body", facts.kind)), &params)];
    paragraphs.extend(facts.extra.iter().cloned());
    let link = facts.link.as_ref().map(|url| Link {
        label: fill(&text(lang, &format!("{}.link", facts.kind)), &params),
        url: url.clone(),
    });
    let unsubscribe =
        facts.unsubscribe.as_ref().map(|url| Link { label: text(lang, "unsubscribe"), url: url.clone() });
    let footer = text(lang, "footer");
    let text_part = TextPart {
        greeting: &greeting,
        paragraphs: &paragraphs,
        lines: &facts.lines,
        link: &link,
        footer: &footer,
        unsubscribe: &unsubscribe,
    }
    .render()?;
    let html = HtmlPart {
        lang: lang.code(),
        subject: &subject,
        greeting: &greeting,
        paragraphs: &paragraphs,
        lines: &facts.lines,
        link: &link,
        footer: &footer,
        unsubscribe: &unsubscribe,
    }
    .render()?;
    Ok(Composed {
        subject,
        text: text_part,
        html,
        unsubscribe: facts.unsubscribe.clone(),
        secret_link: if facts.secret { facts.link.clone() } else { None },
    })
}

/// Plain text of a paragraph the pages write as HTML (the ruling's explanation): tags
/// dropped, the entities askama and the ruling writer use decoded.
pub fn html_to_text(html: &str) -> String {
    let mut text = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            _ if !in_tag => text.push(c),
            _ => {}
        }
    }
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(lang: Lang) -> Facts {
        Facts {
            kind: "your-move",
            lang,
            username: "bob".into(),
            params: vec![("game", "12".into()), ("opponent", "<alice>".into()), ("move", "h2e2".into())],
            extra: vec![],
            lines: vec![],
            link: Some("http://t.example/games/12".into()),
            unsubscribe: Some("http://t.example/notifications/unsubscribe?x".into()),
            secret: false,
        }
    }

    #[test]
    fn both_catalogues_have_the_same_keys() {
        let en: Vec<_> = catalogue(Lang::En).keys().collect();
        assert!(en.len() > 20, "the English mail catalogue reads");
        for key in en {
            assert!(catalogue(Lang::It).contains_key(key), "Italian lacks {key}");
        }
        assert_eq!(catalogue(Lang::En).len(), catalogue(Lang::It).len());
    }

    #[test]
    fn the_html_part_escapes_and_the_text_part_does_not() {
        let mail = compose(&facts(Lang::En)).unwrap();
        assert!(mail.html.contains("&#60;alice&#62;"), "{}", mail.html);
        assert!(!mail.html.contains("<alice>"));
        assert!(mail.text.contains("<alice>"), "{}", mail.text);
        assert!(mail.text.contains("http://t.example/games/12"));
        assert!(mail.subject.contains("12"), "{}", mail.subject);
    }

    #[test]
    fn italian_readers_get_italian() {
        let en = compose(&facts(Lang::En)).unwrap();
        let it = compose(&facts(Lang::It)).unwrap();
        assert_ne!(en.subject, it.subject);
        assert!(it.text.contains("Ciao"), "{}", it.text);
    }

    #[test]
    fn a_secret_link_is_withheld_from_the_loggable_text() {
        let mut secret = facts(Lang::En);
        secret.secret = true;
        let mail = compose(&secret).unwrap();
        assert!(!mail.loggable_text().contains("/games/12"));
        assert!(mail.text.contains("/games/12"));
    }

    #[test]
    fn html_becomes_text() {
        assert_eq!(html_to_text("<b>R&amp;D</b> &lt;3"), "R&D <3");
    }
}
