//! The HTML interface's building blocks: SVG boards, interface text catalogues, CSRF
//! tokens. The route handlers are in [`crate::http::pages`].

pub mod board;
pub mod chart;
pub mod eval_chart;
pub mod i18n;
pub mod records;
pub mod ruling;

#[cfg(test)]
mod snapshots;

/// The content security policy of every response: own scripts, styles and images only
/// (board SVGs are inline markup, not styles or scripts), no framing, forms to this site.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
