//! The SMTP relay from `[mail] smtp_url`.

use lettre::transport::smtp::authentication::Credentials;
use lettre::{AsyncSmtpTransport, Tokio1Executor};
use secrecy::{ExposeSecret, SecretString};

use crate::config::MailSettings;

/// The relay of `url`: `smtp://host:port` plain, `smtps://host:port` TLS from the start,
/// `smtp://host:port?tls=starttls` STARTTLS required (lettre's own spelling
/// `?tls=required` and `?tls=opportunistic` are accepted too); user and password from the
/// URL, or from `smtp_username` / `smtp_password`.
///
/// # Errors
/// A URL lettre cannot read (unknown scheme or `tls` value, no host).
pub fn relay(
    url: &SecretString,
    settings: &MailSettings,
) -> anyhow::Result<AsyncSmtpTransport<Tokio1Executor>> {
    let url = lettre_url(url.expose_secret());
    // The URL may hold a password: never in the error.
    let mut builder = AsyncSmtpTransport::<Tokio1Executor>::from_url(&url)
        .map_err(|e| anyhow::anyhow!("mail.smtp_url cannot be used: {}", without_password(&e.to_string())))?;
    if let (Some(user), Some(password)) = (&settings.smtp_username, &settings.smtp_password) {
        builder = builder.credentials(Credentials::new(user.clone(), password.expose_secret().to_owned()));
    }
    Ok(builder.build())
}

/// The URL as lettre spells it: `tls=starttls` is its `tls=required`.
fn lettre_url(url: &str) -> String {
    url.replace("tls=starttls", "tls=required")
}

fn without_password(text: &str) -> String {
    // lettre's messages name the scheme or the tls value, not the URL; be safe anyway.
    match (text.find("://"), text.find('@')) {
        (Some(start), Some(at)) if at > start => format!("{}://…{}", &text[..start], &text[at..]),
        _ => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> MailSettings {
        MailSettings::default()
    }

    #[tokio::test]
    async fn the_three_spellings_of_the_issue_are_accepted() {
        for url in [
            "smtp://127.0.0.1:2525",
            "smtps://mail.example.org",
            "smtp://u:p@mail.example.org:587?tls=starttls",
        ] {
            assert!(relay(&SecretString::from(url), &settings()).is_ok(), "{url}");
        }
    }

    #[tokio::test]
    async fn an_unknown_scheme_or_tls_value_is_refused() {
        for url in ["http://mail.example.org", "smtp://mail.example.org?tls=maybe"] {
            assert!(relay(&SecretString::from(url), &settings()).is_err(), "{url}");
        }
    }

    #[test]
    fn starttls_is_lettres_required() {
        assert_eq!(lettre_url("smtp://h:587?tls=starttls"), "smtp://h:587?tls=required");
    }
}
