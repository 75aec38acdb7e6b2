//! The only code that talks to YNAB: typed models of API v1, one HTTP client with its checks,
//! retries and error messages. It never computes plan figures and never writes plan data to disk.

pub mod client;
pub mod config;
pub mod error;
pub mod models;
pub mod pacing;
pub mod progress;
pub mod quote;
pub mod shared;
pub mod stream;
pub mod tls;
pub mod writes;

pub use client::{Client, TransactionFilter, check_segment, connection_pool, count_requests};
pub use config::{BaseUrl, Token, TokenSource};
pub use error::Error;
pub use pacing::Pacer;
pub use shared::Str;
pub use tls::{http_client_builder, install_tls_provider};

/// The version of YNAB's OpenAPI spec this build targets (vendored at
/// `crates/ynab/openapi/open_api_spec.yaml`; a test checks the two agree).
pub const YNAB_API_VERSION: &str = "1.86.0";
