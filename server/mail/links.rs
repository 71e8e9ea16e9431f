//! Absolute, signed links of the mails: the address verification (expiring) and the
//! one-click unsubscribe (RFC 8058). The signature is HMAC-SHA-256 with the key shared by
//! every instance (table `signing_key`), so a link made by one instance works on all.

use hmac::{Hmac, Mac};
use sha2::Sha256;

type HmacSha256 = Hmac<Sha256>;

/// Makes and checks the signed links.
pub struct Links {
    base_url: String,
    key: Vec<u8>,
}

impl std::fmt::Debug for Links {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Links").field("base_url", &self.base_url).finish_non_exhaustive()
    }
}

impl Links {
    /// Links under `base_url`, signed with `key`.
    pub fn new(base_url: String, key: Vec<u8>) -> Links {
        Links { base_url: base_url.trim_end_matches('/').to_owned(), key }
    }

    /// The site's absolute URL, without a trailing slash.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// The host of the base URL (for message ids).
    pub fn host(&self) -> &str {
        let rest = self.base_url.split("://").nth(1).unwrap_or(&self.base_url);
        let host = rest.split(['/', ':']).next().unwrap_or("localhost");
        if host.is_empty() {
            "localhost"
        } else {
            host
        }
    }

    /// `<base_url><path>`.
    pub fn absolute(&self, path: &str) -> String {
        format!("{}{path}", self.base_url)
    }

    fn sign(&self, parts: &[&str]) -> String {
        let mut mac = HmacSha256::new_from_slice(&self.key).expect("HMAC takes any key length");
        for part in parts {
            mac.update(part.as_bytes());
            // A separator no part contains, so ("ab","c") and ("a","bc") differ.
            mac.update(&[0]);
        }
        hex::encode(mac.finalize().into_bytes())
    }

    fn verify(&self, parts: &[&str], signature: &str) -> bool {
        let Ok(given) = hex::decode(signature) else { return false };
        let mut mac = HmacSha256::new_from_slice(&self.key).expect("HMAC takes any key length");
        for part in parts {
            mac.update(part.as_bytes());
            mac.update(&[0]);
        }
        // Constant-time comparison.
        mac.verify_slice(&given).is_ok()
    }

    /// The link that verifies `email` for `account_id`, valid until `expires` (unix
    /// seconds). The address is signed, not written in the link: a link made for an
    /// address the account has since changed verifies nothing.
    pub fn verify_email(&self, account_id: i64, email: &str, expires: i64) -> String {
        let signature = self.sign(&[
            "verify-email",
            &account_id.to_string(),
            &email.to_lowercase(),
            &expires.to_string(),
        ]);
        self.absolute(&format!("/email/verify?account={account_id}&expires={expires}&sig={signature}"))
    }

    /// Whether `signature` is the one of [`Links::verify_email`] (the caller checks
    /// the expiry).
    pub fn check_verify_email(&self, account_id: i64, email: &str, expires: i64, signature: &str) -> bool {
        self.verify(
            &["verify-email", &account_id.to_string(), &email.to_lowercase(), &expires.to_string()],
            signature,
        )
    }

    /// The one-click unsubscribe link of `kind` for `account_id` (no expiry: an old mail's
    /// link still works).
    pub fn unsubscribe(&self, account_id: i64, kind: &str) -> String {
        let signature = self.sign(&["unsubscribe", &account_id.to_string(), kind]);
        self.absolute(&format!("/notifications/unsubscribe?account={account_id}&kind={kind}&sig={signature}"))
    }

    /// Whether `signature` is the one of [`Links::unsubscribe`].
    pub fn check_unsubscribe(&self, account_id: i64, kind: &str, signature: &str) -> bool {
        self.verify(&["unsubscribe", &account_id.to_string(), kind], signature)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn links() -> Links {
        Links::new("https://t.example/".to_owned(), b"key".to_vec())
    }

    fn signature_of(link: &str) -> &str {
        link.rsplit("sig=").next().unwrap()
    }

    #[test]
    fn a_verification_link_checks_only_for_its_account_address_and_expiry() {
        let link = links().verify_email(7, "A@x.org", 100);
        assert!(link.starts_with("https://t.example/email/verify?account=7&expires=100&sig="), "{link}");
        let sig = signature_of(&link);
        assert!(
            links().check_verify_email(7, "a@x.org", 100, sig),
            "the case of the address does not matter"
        );
        assert!(!links().check_verify_email(8, "a@x.org", 100, sig));
        assert!(!links().check_verify_email(7, "b@x.org", 100, sig));
        assert!(!links().check_verify_email(7, "a@x.org", 101, sig));
        assert!(!Links::new("https://t.example".into(), b"other".to_vec())
            .check_verify_email(7, "a@x.org", 100, sig));
    }

    #[test]
    fn an_unsubscribe_link_names_its_kind() {
        let link = links().unsubscribe(3, "your-move");
        assert!(links().check_unsubscribe(3, "your-move", signature_of(&link)));
        assert!(!links().check_unsubscribe(3, "challenge", signature_of(&link)));
        assert!(!links().check_unsubscribe(3, "your-move", "zz"));
    }

    #[test]
    fn the_host_comes_from_the_base_url() {
        assert_eq!(links().host(), "t.example");
        assert_eq!(Links::new("http://127.0.0.1:8000".into(), vec![]).host(), "127.0.0.1");
    }
}
