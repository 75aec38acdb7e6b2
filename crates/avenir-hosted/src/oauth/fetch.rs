//! Fetching a Client ID Metadata Document without letting a `client_id` aim the server at its
//! own network (SSRF): https only, no redirects, no proxy, a short timeout, at most
//! [`MAX_DOCUMENT_BYTES`], and every address a host name resolves to checked before connecting.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use reqwest::dns::{Addrs, Name, Resolve, Resolving};

use super::errors::{FetchError, MetadataClientError};
use super::logic;

/// The largest metadata document read (the draft suggests 5 KB).
pub const MAX_DOCUMENT_BYTES: usize = 5 * 1024;

/// Resolves with the system resolver, then drops non-public addresses (unless allowed), so
/// that a name pointing at 127.0.0.1 or 169.254.169.254 is never connected to.
struct PublicOnly {
    allow_private: bool,
}

impl Resolve for PublicOnly {
    fn resolve(&self, name: Name) -> Resolving {
        let allow_private = self.allow_private;
        let host = name.as_str().to_string();
        Box::pin(async move {
            let found: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), 0))
                .await?
                .filter(|a| allow_private || logic::ip_is_public(a.ip()))
                .collect();
            if found.is_empty() {
                return Err(format!(
                    "{host} resolves to no public address: a client metadata document must be \
                     on the public internet"
                )
                .into());
            }
            let addrs: Addrs = Box::new(found.into_iter());
            Ok(addrs)
        })
    }
}

/// The HTTP client for metadata documents, trusting `extra_roots` (PEM) besides the platform's.
pub fn metadata_client(
    extra_roots: &[Vec<u8>],
    allow_private: bool,
) -> Result<reqwest::Client, MetadataClientError> {
    let mut builder = ynab::http_client_builder()
        .redirect(reqwest::redirect::Policy::none())
        .no_proxy()
        .timeout(Duration::from_secs(5))
        .connect_timeout(Duration::from_secs(3))
        .https_only(true)
        .user_agent("avenir-mcp (client metadata)")
        .dns_resolver(Arc::new(PublicOnly { allow_private }));
    for pem in extra_roots {
        let certs =
            reqwest::Certificate::from_pem_bundle(pem).map_err(MetadataClientError::NotPem)?;
        for cert in certs {
            builder = builder.add_root_certificate(cert);
        }
    }
    builder.build().map_err(MetadataClientError::Build)
}

/// Fetch and validate the document at `client_id`.
pub async fn fetch_metadata_document(
    client: &reqwest::Client,
    client_id: &str,
    allow_private: bool,
) -> Result<serde_json::Value, FetchError> {
    let url = logic::metadata_document_url(client_id, allow_private)?;
    let mut response = client
        .get(url)
        .header(reqwest::header::ACCEPT, "application/json")
        .send()
        .await
        .map_err(FetchError::Unreachable)?;
    if response.status() != reqwest::StatusCode::OK {
        return Err(FetchError::Status(response.status().as_u16()));
    }
    if response
        .content_length()
        .is_some_and(|n| n > MAX_DOCUMENT_BYTES as u64)
    {
        return Err(FetchError::TooLarge);
    }
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(FetchError::Unreadable)? {
        if body.len() + chunk.len() > MAX_DOCUMENT_BYTES {
            return Err(FetchError::TooLarge);
        }
        body.extend_from_slice(&chunk);
    }
    Ok(logic::validate_metadata_document(client_id, &body)?)
}
