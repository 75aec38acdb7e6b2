//! The TLS provider of every HTTP client the server makes: rustls with ring's cryptography.
//!
//! reqwest is built without a provider of its own (so that only one crypto library is linked), and
//! one that is asked to build a client before a provider is installed panics: build clients with
//! [`http_client_builder`], or call [`install_tls_provider`] first where a library makes its own.

/// Install ring as the process's rustls provider; later calls (and a provider installed earlier)
/// leave it as it is.
pub fn install_tls_provider() {
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    INSTALLED.call_once(|| {
        // An error means a provider is already installed, which is all this needs.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}

/// reqwest's client builder, the TLS provider installed first.
pub fn http_client_builder() -> reqwest::ClientBuilder {
    install_tls_provider();
    reqwest::Client::builder()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_builds_with_the_provider_installed() {
        assert!(http_client_builder().build().is_ok());
        assert!(rustls::crypto::CryptoProvider::get_default().is_some());
    }
}
