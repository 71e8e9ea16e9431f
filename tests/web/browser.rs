//! The real-browser end-to-end test (filled in below).
