//! Starting a hosted server: everything built from its settings ([`Hosted::build`], the
//! settings being `config`'s [`HostedConfig`]), and serving until the process stops.

use crate::confirm_pages::BrowserSessions;
use crate::db::{Db, DbError};
use crate::oauth::limits::ClientAddress;
use crate::oauth::{
    OAuthConfig, OAuthServer, OAuthSetupError, SignInFailure, SignInHook, YnabTokens,
};
use crate::people::{HttpClientError, People};
use async_trait::async_trait;
use axum::Router;
use std::sync::Arc;

pub use crate::config::HostedConfig;

/// Why a hosted server could not be built.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error(transparent)]
    Database(#[from] DbError),
    #[error(transparent)]
    People(#[from] HttpClientError),
    #[error(transparent)]
    OAuth(#[from] OAuthSetupError),
    #[error(transparent)]
    Ynab(#[from] ynab::Error),
}

/// A hosted server, built: its router, and the parts tests reach into.
pub struct Hosted {
    pub router: Router,
    pub oauth: Arc<OAuthServer>,
    pub people: Arc<People>,
    pub db: Db,
    /// The periodic expiry sweep (`sweeper`), stopped when this is dropped.
    pub sweeper: crate::sweeper::Sweeper,
}

/// The sign-in hook: `People` keeps the person and their YNAB grant; the browser that signed
/// in gets a session for the confirmation pages.
struct Hook(Arc<People>, Arc<BrowserSessions>);

#[async_trait]
impl SignInHook for Hook {
    async fn signed_in(
        &self,
        tokens: YnabTokens,
        read_only: bool,
    ) -> Result<String, SignInFailure> {
        Ok(self.0.signed_in(&tokens, read_only).await?)
    }

    async fn deleted(&self, person_id: &str) {
        self.0.forget(person_id);
    }

    fn browser_cookie(&self, person_id: &str) -> Option<String> {
        Some(self.1.cookie_for(person_id))
    }
}

impl Hosted {
    /// Open the database (applying migrations) and build the router.
    pub async fn build(config: HostedConfig) -> Result<Hosted, StartError> {
        let db = Db::open(&config.database).await?;
        let people = Arc::new(People::new(db.clone(), &config)?);
        let sessions = Arc::new(BrowserSessions::new(
            config.key.derive("avenir-mcp browser sessions"),
            config.clock.clone(),
            &config.public,
        ));
        let mut oauth_config = OAuthConfig::new(config.public.base.clone(), config.ynab.clone());
        oauth_config.clock = config.clock.clone();
        oauth_config.access_ttl = config.access_ttl;
        oauth_config.metadata_roots = config.metadata_roots.clone();
        oauth_config.allow_private_metadata_hosts = config.allow_private_metadata_hosts;
        if config.behind_proxy {
            oauth_config.client_address = ClientAddress::Forwarded;
        }
        let oauth = Arc::new(OAuthServer::new(
            oauth_config,
            Arc::new(db.clone()),
            Arc::new(Hook(people.clone(), sessions.clone())),
        )?);
        let template = Arc::new(avenir::Context::new(
            config.settings.clone(),
            Arc::new(ynab::Client::new(
                config.ynab_api.clone(),
                ynab::config::TokenSource::Environment,
            )?),
        ));
        let router = crate::serve::router(
            template,
            oauth.clone(),
            people.clone(),
            config.public.clone(),
            config.listen.ip().is_loopback(),
            config.allowed_origins.clone(),
        )
        .merge(crate::confirm_pages::router(
            db.clone(),
            sessions,
            &config.public,
            config.clock.clone(),
        ));
        let sweeper = crate::sweeper::start(db.clone(), oauth.clone(), config.clock.clone());
        Ok(Hosted {
            router,
            oauth,
            people,
            db,
            sweeper,
        })
    }
}

/// Build, listen on `config.listen`, and serve until the process stops.
pub async fn serve(config: HostedConfig) -> anyhow::Result<()> {
    let listen = config.listen;
    let public = config.public.base.clone();
    let hosted = Hosted::build(config).await?;
    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .map_err(|e| anyhow::anyhow!("cannot listen on {listen}: {e}"))?;
    let local = listener.local_addr()?;
    tracing::info!("Starting avenir-mcp (hosted) on {local} for {public}");
    eprintln!("avenir-mcp: hosted MCP at {public}/mcp (listening on {local})");
    // The peer's address reaches the rate limits (`oauth::limits`).
    let service = hosted
        .router
        .into_make_service_with_connect_info::<std::net::SocketAddr>();
    axum::serve(listener, service).await?;
    Ok(())
}
