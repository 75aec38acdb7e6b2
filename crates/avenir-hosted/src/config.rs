//! What a hosted server is started with: [`HostedConfig`] (read from the environment by
//! [`HostedConfig::from_env`]), the public URL it is reached at ([`PublicUrl`]), and the clock
//! of expiries. Plain settings only: the parts built from them live in `start`, `people` and
//! `serve`, which all depend on this module and never the other way round.

use crate::crypto::{CryptoError, SecretKey};
use crate::db::DbConfig;
pub use crate::limits::Limits;
use crate::oauth::YnabApp;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use ynab::config::BaseUrl;

/// YNAB's OAuth endpoints, under `AVENIR_MCP_YNAB_OAUTH_URL` (default `https://app.ynab.com`).
pub const YNAB_OAUTH_URL: &str = "https://app.ynab.com";

/// The clock of expiries: UTC seconds (tests move it).
pub type Clock = Arc<dyn Fn() -> i64 + Send + Sync>;

/// Why the hosted server's settings cannot be used; each says what to set or fix.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("{name} is not set: {what}")]
    Missing {
        name: &'static str,
        what: &'static str,
    },
    #[error("{name} (or {file_var}, a file holding it) is not set: {what}")]
    MissingSecret {
        name: &'static str,
        file_var: String,
        what: &'static str,
    },
    #[error("{file_var} cannot be read: {source}")]
    SecretUnreadable {
        file_var: String,
        source: std::io::Error,
    },
    #[error("{file_var} is readable by other users: run chmod 600 {path}")]
    SecretExposed { file_var: String, path: String },
    #[error("AVENIR_MCP_PORT must be a port number from 0 to 65535, got {0:?}.")]
    Port(String),
    #[error("AVENIR_MCP_HOST must be an IP address to listen on, got {0:?}.")]
    Host(String),
    #[error("no place for the hosted state: set AVENIR_MCP_DATABASE_URL, or HOME")]
    NoStateDir,
    #[error("AVENIR_MCP_CLIENT_METADATA_CA_FILE cannot be read ({path}): {source}")]
    CaFile {
        path: String,
        source: std::io::Error,
    },
    #[error(transparent)]
    PublicUrl(#[from] PublicUrlError),
    #[error(transparent)]
    Key(#[from] CryptoError),
    /// `AVENIR_MCP_RATE_LIMIT`, as ynab's pacing explains it.
    #[error("{0}")]
    RateLimit(String),
    #[error(transparent)]
    Limits(#[from] crate::limits::LimitError),
}

/// Why `AVENIR_MCP_PUBLIC_URL` is not a public URL this server can be reached at.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PublicUrlError {
    #[error(
        "AVENIR_MCP_PUBLIC_URL must be the server's public https:// URL, got {given:?} ({source})."
    )]
    NotUrl {
        given: String,
        source: url::ParseError,
    },
    #[error("AVENIR_MCP_PUBLIC_URL has no host: give https://your.host.example")]
    NoHost,
    #[error(
        "AVENIR_MCP_PUBLIC_URL must start with https:// (plain http only for localhost), got {0:?}: put the server behind a reverse proxy that terminates TLS."
    )]
    NotHttps(String),
    #[error(
        "AVENIR_MCP_PUBLIC_URL must be the server's origin only (no path or query), got {0:?}: MCP is served at /mcp under it."
    )]
    NotOrigin(String),
}

/// The public URL (`AVENIR_MCP_PUBLIC_URL`), parsed once.
#[derive(Debug, Clone)]
pub struct PublicUrl {
    /// `https://budget.example.org` (no trailing slash).
    pub base: String,
    /// `budget.example.org` or `host:port`, lower-case, default port left out.
    pub authority: String,
    /// `https://budget.example.org`.
    pub origin: String,
}

impl PublicUrl {
    /// `https://…` (plain `http://` only for a loopback host: tests and a first look), with no
    /// path, query or fragment.
    pub fn parse(raw: &str) -> Result<PublicUrl, PublicUrlError> {
        let trimmed = raw.trim().trim_end_matches('/');
        let url = url::Url::parse(trimmed).map_err(|source| PublicUrlError::NotUrl {
            given: trimmed.to_string(),
            source,
        })?;
        let host = url
            .host_str()
            .ok_or(PublicUrlError::NoHost)?
            .to_ascii_lowercase();
        let loopback = host == "localhost"
            || host
                .trim_matches(['[', ']'])
                .parse::<IpAddr>()
                .is_ok_and(|ip| ip.is_loopback());
        match url.scheme() {
            "https" => {}
            "http" if loopback => {}
            _ => return Err(PublicUrlError::NotHttps(trimmed.to_string())),
        }
        if url.path() != "/" && !url.path().is_empty() || url.query().is_some() {
            return Err(PublicUrlError::NotOrigin(trimmed.to_string()));
        }
        let authority = match url.port() {
            Some(port) => format!("{host}:{port}"),
            None => host,
        };
        let origin = format!("{}://{authority}", url.scheme());
        Ok(PublicUrl {
            base: origin.clone(),
            authority,
            origin,
        })
    }

    /// The canonical URI of the MCP resource (RFC 8707): `{base}/mcp`.
    pub fn resource(&self) -> String {
        format!("{}/mcp", self.base)
    }
}

/// Everything a hosted server is started with.
#[derive(Clone)]
pub struct HostedConfig {
    pub listen: SocketAddr,
    pub public: PublicUrl,
    pub database: DbConfig,
    pub key: SecretKey,
    pub ynab: YnabApp,
    /// YNAB's API (`AVENIR_MCP_YNAB_URL`, default `https://api.ynab.com/v1`).
    pub ynab_api: BaseUrl,
    /// The server settings every person's context starts from (`AVENIR_MCP_WRITE`, …).
    pub settings: avenir::Settings,
    /// Requests per hour and person (`AVENIR_MCP_RATE_LIMIT`).
    pub budget: u32,
    /// Origins allowed besides the public URL's (`AVENIR_MCP_ALLOWED_ORIGINS`, comma-separated).
    pub allowed_origins: Vec<String>,
    /// UTC seconds now (tests move it).
    pub clock: Clock,
    /// Seconds an MCP access token lives (3600).
    pub access_ttl: u64,
    /// Extra PEM roots trusted when fetching client metadata documents
    /// (`AVENIR_MCP_CLIENT_METADATA_CA_FILE`).
    pub metadata_roots: Vec<Vec<u8>>,
    /// Client metadata documents may be fetched from loopback and private addresses (tests, a
    /// household's own network): `AVENIR_MCP_ALLOW_PRIVATE_CLIENT_METADATA=1`.
    pub allow_private_metadata_hosts: bool,
    /// The server is behind a reverse proxy that appends the client's address to
    /// `X-Forwarded-For` (`AVENIR_MCP_BEHIND_PROXY=1`): the rate limits read it there. Otherwise
    /// (the default) they key on the connection's peer, and the header is ignored.
    pub behind_proxy: bool,
    /// What one instance holds at most, and how long it waits (`crate::limits`).
    pub limits: Limits,
}

impl std::fmt::Debug for HostedConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HostedConfig")
            .field("listen", &self.listen)
            .field("public", &self.public)
            .field("database", &self.database)
            .field("ynab", &self.ynab)
            .finish_non_exhaustive()
    }
}

fn var(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

fn required(name: &'static str, what: &'static str) -> Result<String, ConfigError> {
    var(name).ok_or(ConfigError::Missing { name, what })
}

/// A secret given directly or in a file (`NAME` or `NAME_FILE`), the file private to its owner.
fn secret(name: &'static str, what: &'static str) -> Result<String, ConfigError> {
    if let Some(value) = var(name) {
        return Ok(value);
    }
    let file_var = format!("{name}_FILE");
    let Some(path) = var(&file_var) else {
        return Err(ConfigError::MissingSecret {
            name,
            file_var,
            what,
        });
    };
    let unreadable = |source| ConfigError::SecretUnreadable {
        file_var: file_var.clone(),
        source,
    };
    let metadata = std::fs::metadata(&path).map_err(unreadable)?;
    {
        use std::os::unix::fs::PermissionsExt;
        if metadata.permissions().mode() & 0o077 != 0 {
            return Err(ConfigError::SecretExposed { file_var, path });
        }
    }
    let text = std::fs::read_to_string(&path).map_err(unreadable)?;
    Ok(text.trim().to_string())
}

/// `AVENIR_MCP_HOST` and `AVENIR_MCP_PORT` (default 127.0.0.1:8103); an IPv6 host may be given
/// with or without brackets.
fn listen_from_env() -> Result<SocketAddr, ConfigError> {
    let host = var("AVENIR_MCP_HOST").unwrap_or_else(|| "127.0.0.1".into());
    let port = match var("AVENIR_MCP_PORT") {
        Some(value) => value
            .trim()
            .parse::<u16>()
            .map_err(|_| ConfigError::Port(value))?,
        None => 8103,
    };
    let bare = host
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(&host);
    let ip = bare
        .parse::<IpAddr>()
        .map_err(|_| ConfigError::Host(host.clone()))?;
    Ok(SocketAddr::new(ip, port))
}

/// YNAB's OAuth application: its endpoints under `AVENIR_MCP_YNAB_OAUTH_URL`, its client id and
/// secret.
fn ynab_app_from_env() -> Result<YnabApp, ConfigError> {
    let oauth_base = var("AVENIR_MCP_YNAB_OAUTH_URL")
        .unwrap_or_else(|| YNAB_OAUTH_URL.into())
        .trim_end_matches('/')
        .to_string();
    Ok(YnabApp {
        authorize_url: format!("{oauth_base}/oauth/authorize"),
        token_url: format!("{oauth_base}/oauth/token"),
        client_id: required(
            "AVENIR_MCP_YNAB_CLIENT_ID",
            "register an OAuth application at YNAB (Account Settings → Developer Settings) and give its client id.",
        )?,
        client_secret: secret(
            "AVENIR_MCP_YNAB_CLIENT_SECRET",
            "give the client secret of your YNAB OAuth application.",
        )?,
    })
}

/// `$XDG_STATE_HOME/avenir-mcp/hosted.sqlite`, else `~/.local/state/avenir-mcp/hosted.sqlite`.
fn default_sqlite() -> Result<PathBuf, ConfigError> {
    ynab::pacing::default_state_dir()
        .map(|dir| dir.join("hosted.sqlite"))
        .ok_or(ConfigError::NoStateDir)
}

fn metadata_roots_from_env() -> Result<Vec<Vec<u8>>, ConfigError> {
    match var("AVENIR_MCP_CLIENT_METADATA_CA_FILE") {
        Some(path) => match std::fs::read(&path) {
            Ok(pem) => Ok(vec![pem]),
            Err(source) => Err(ConfigError::CaFile { path, source }),
        },
        None => Ok(Vec::new()),
    }
}

impl HostedConfig {
    /// `AVENIR_MCP_PUBLIC_URL` (required), `AVENIR_MCP_HOST`/`AVENIR_MCP_PORT` (default
    /// 127.0.0.1:8103: the reverse proxy forwards to it), `AVENIR_MCP_DATABASE_URL` (else a SQLite
    /// file in the state directory), `AVENIR_MCP_SECRET_KEY`/`_FILE`, `AVENIR_MCP_YNAB_CLIENT_ID`,
    /// `AVENIR_MCP_YNAB_CLIENT_SECRET`/`_FILE`, `AVENIR_MCP_YNAB_OAUTH_URL`, and the local
    /// server's own settings.
    pub fn from_env(settings: avenir::Settings) -> Result<HostedConfig, ConfigError> {
        let public = PublicUrl::parse(&required(
            "AVENIR_MCP_PUBLIC_URL",
            "set it to the https:// address people reach the server at (the reverse proxy's).",
        )?)?;
        let listen = listen_from_env()?;
        let database = match var("AVENIR_MCP_DATABASE_URL") {
            Some(url) => DbConfig::Postgres(url),
            None => DbConfig::Sqlite(default_sqlite()?),
        };
        // Read in this order, so that of several mistakes the same one is named first.
        let key = SecretKey::from_env()?;
        let ynab = ynab_app_from_env()?;
        let metadata_roots = metadata_roots_from_env()?;
        Ok(HostedConfig {
            listen,
            public,
            database,
            key,
            ynab,
            ynab_api: BaseUrl::from_env(),
            settings,
            budget: ynab::pacing::budget_from_env().map_err(ConfigError::RateLimit)?,
            allowed_origins: var("AVENIR_MCP_ALLOWED_ORIGINS")
                .map(|v| v.split(',').map(str::to_string).collect())
                .unwrap_or_default(),
            clock: Arc::new(|| chrono::Utc::now().timestamp()),
            access_ttl: 3600,
            metadata_roots,
            allow_private_metadata_hosts: var("AVENIR_MCP_ALLOW_PRIVATE_CLIENT_METADATA")
                .as_deref()
                == Some("1"),
            behind_proxy: var("AVENIR_MCP_BEHIND_PROXY").as_deref() == Some("1"),
            limits: Limits::from_env()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn public_urls() {
        let url = PublicUrl::parse("https://Budget.Example.org/").unwrap();
        assert_eq!(url.base, "https://budget.example.org");
        assert_eq!(url.authority, "budget.example.org");
        assert_eq!(url.resource(), "https://budget.example.org/mcp");
        let local = PublicUrl::parse("http://127.0.0.1:8103").unwrap();
        assert_eq!(local.authority, "127.0.0.1:8103");
        assert!(PublicUrl::parse("http://budget.example.org").is_err());
        assert!(PublicUrl::parse("https://budget.example.org/mcp").is_err());
        assert!(PublicUrl::parse("ftp://x").is_err());
    }
}
