//! Starting a hosted server: its settings from the environment ([`HostedConfig::from_env`]),
//! everything built from them ([`Hosted::build`]), and serving until the process stops.

use crate::crypto::SecretKey;
use crate::db::{Db, DbConfig};
use crate::oauth::{OAuthConfig, OAuthServer, SignInHook, YnabApp, YnabTokens};
use crate::people::{Clock, People};
use crate::serve::{PublicUrl, bracket};
use async_trait::async_trait;
use axum::Router;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use ynab::config::BaseUrl;

/// YNAB's OAuth endpoints, under `AVENIR_MCP_YNAB_OAUTH_URL` (default `https://app.ynab.com`).
pub const YNAB_OAUTH_URL: &str = "https://app.ynab.com";

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

fn required(name: &str, what: &str) -> Result<String, String> {
    var(name).ok_or_else(|| format!("{name} is not set: {what}"))
}

/// A secret given directly or in a file (`NAME` or `NAME_FILE`), the file private to its owner.
fn secret(name: &str, what: &str) -> Result<String, String> {
    if let Some(value) = var(name) {
        return Ok(value);
    }
    let file_var = format!("{name}_FILE");
    let Some(path) = var(&file_var) else {
        return Err(format!(
            "{name} (or {file_var}, a file holding it) is not set: {what}"
        ));
    };
    let metadata =
        std::fs::metadata(&path).map_err(|e| format!("{file_var} cannot be read: {e}"))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if metadata.permissions().mode() & 0o077 != 0 {
            return Err(format!(
                "{file_var} is readable by other users: run chmod 600 {path}"
            ));
        }
    }
    let text =
        std::fs::read_to_string(&path).map_err(|e| format!("{file_var} cannot be read: {e}"))?;
    Ok(text.trim().to_string())
}

impl HostedConfig {
    /// `AVENIR_MCP_PUBLIC_URL` (required), `AVENIR_MCP_HOST`/`AVENIR_MCP_PORT` (default
    /// 127.0.0.1:8103: the reverse proxy forwards to it), `AVENIR_MCP_DATABASE_URL` (else a SQLite
    /// file in the state directory), `AVENIR_MCP_SECRET_KEY`/`_FILE`, `AVENIR_MCP_YNAB_CLIENT_ID`,
    /// `AVENIR_MCP_YNAB_CLIENT_SECRET`/`_FILE`, `AVENIR_MCP_YNAB_OAUTH_URL`, and the local
    /// server's own settings.
    pub fn from_env(settings: avenir::Settings) -> Result<HostedConfig, String> {
        let public = PublicUrl::parse(&required(
            "AVENIR_MCP_PUBLIC_URL",
            "set it to the https:// address people reach the server at (the reverse proxy's).",
        )?)?;
        let host = var("AVENIR_MCP_HOST").unwrap_or_else(|| "127.0.0.1".into());
        let port = match var("AVENIR_MCP_PORT") {
            Some(value) => value.trim().parse::<u16>().map_err(|_| {
                format!("AVENIR_MCP_PORT must be a port number from 0 to 65535, got {value:?}.")
            })?,
            None => 8103,
        };
        let listen = format!("{}:{port}", bracket(&host))
            .parse::<SocketAddr>()
            .map_err(|_| {
                format!("AVENIR_MCP_HOST must be an IP address to listen on, got {host:?}.")
            })?;
        let database = match var("AVENIR_MCP_DATABASE_URL") {
            Some(url) => DbConfig::Postgres(url),
            None => DbConfig::Sqlite(default_sqlite()?),
        };
        let key = SecretKey::from_env().map_err(|e| e.to_string())?;
        let oauth_base = var("AVENIR_MCP_YNAB_OAUTH_URL")
            .unwrap_or_else(|| YNAB_OAUTH_URL.into())
            .trim_end_matches('/')
            .to_string();
        let ynab = YnabApp {
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
        };
        let metadata_roots = match var("AVENIR_MCP_CLIENT_METADATA_CA_FILE") {
            Some(path) => vec![std::fs::read(&path).map_err(|e| {
                format!("AVENIR_MCP_CLIENT_METADATA_CA_FILE cannot be read ({path}): {e}")
            })?],
            None => Vec::new(),
        };
        Ok(HostedConfig {
            listen,
            public,
            database,
            key,
            ynab,
            ynab_api: BaseUrl::from_env(),
            settings,
            budget: ynab::pacing::budget_from_env()?,
            allowed_origins: var("AVENIR_MCP_ALLOWED_ORIGINS")
                .map(|v| v.split(',').map(str::to_string).collect())
                .unwrap_or_default(),
            clock: Arc::new(|| chrono::Utc::now().timestamp()),
            access_ttl: 3600,
            metadata_roots,
            allow_private_metadata_hosts: var("AVENIR_MCP_ALLOW_PRIVATE_CLIENT_METADATA")
                .as_deref()
                == Some("1"),
        })
    }
}

/// `$XDG_STATE_HOME/avenir-mcp/hosted.sqlite`, else `~/.local/state/avenir-mcp/hosted.sqlite`.
fn default_sqlite() -> Result<PathBuf, String> {
    ynab::pacing::default_state_dir()
        .map(|dir| dir.join("hosted.sqlite"))
        .ok_or_else(|| {
            "no place for the hosted state: set AVENIR_MCP_DATABASE_URL, or HOME".to_string()
        })
}

/// A hosted server, built: its router, and the parts tests reach into.
pub struct Hosted {
    pub router: Router,
    pub oauth: Arc<OAuthServer>,
    pub people: Arc<People>,
    pub db: Db,
}

/// The sign-in hook: `People` keeps the person and their YNAB grant.
struct Hook(Arc<People>);

#[async_trait]
impl SignInHook for Hook {
    async fn signed_in(&self, tokens: YnabTokens, read_only: bool) -> Result<String, String> {
        self.0.signed_in(&tokens, read_only).await
    }

    async fn deleted(&self, person_id: &str) {
        self.0.forget(person_id);
    }
}

impl Hosted {
    /// Open the database (applying migrations) and build the router.
    pub async fn build(config: HostedConfig) -> Result<Hosted, String> {
        let db = Db::open(&config.database)
            .await
            .map_err(|e| e.to_string())?;
        let people = Arc::new(People::new(db.clone(), &config)?);
        let mut oauth_config = OAuthConfig::new(config.public.base.clone(), config.ynab.clone());
        oauth_config.clock = config.clock.clone();
        oauth_config.access_ttl = config.access_ttl;
        oauth_config.metadata_roots = config.metadata_roots.clone();
        oauth_config.allow_private_metadata_hosts = config.allow_private_metadata_hosts;
        let oauth = Arc::new(OAuthServer::new(
            oauth_config,
            Arc::new(db.clone()),
            Arc::new(Hook(people.clone())),
        )?);
        let template = Arc::new(avenir::Context::new(
            config.settings.clone(),
            Arc::new(
                ynab::Client::new(
                    config.ynab_api.clone(),
                    ynab::config::TokenSource::Environment,
                )
                .map_err(|e| e.to_string())?,
            ),
        ));
        let router = crate::serve::router(
            template,
            oauth.clone(),
            people.clone(),
            config.public.clone(),
            config.listen.ip().is_loopback(),
            config.allowed_origins.clone(),
        );
        Ok(Hosted {
            router,
            oauth,
            people,
            db,
        })
    }
}

/// Build, listen on `config.listen`, and serve until the process stops.
pub async fn serve(config: HostedConfig) -> anyhow::Result<()> {
    let listen = config.listen;
    let public = config.public.base.clone();
    let hosted = Hosted::build(config)
        .await
        .map_err(|e| anyhow::anyhow!(e))?;
    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .map_err(|e| anyhow::anyhow!("cannot listen on {listen}: {e}"))?;
    let local = listener.local_addr()?;
    tracing::info!("Starting avenir-mcp (hosted) on {local} for {public}");
    eprintln!("avenir-mcp: hosted MCP at {public}/mcp (listening on {local})");
    axum::serve(listener, hosted.router).await?;
    Ok(())
}
