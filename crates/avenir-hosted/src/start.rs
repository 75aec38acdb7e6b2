//! Starting a hosted server: everything built from its settings ([`Hosted::build`], the
//! settings being `config`'s [`HostedConfig`]), and serving until the process stops.

use crate::confirm_pages::BrowserSessions;
use crate::db::{Db, DbError};
use crate::oauth::limits::{ClientAddress, RateLimits};
use crate::oauth::{
    OAuthConfig, OAuthServer, OAuthSetupError, SignInFailure, SignInHook, YnabTokens,
};
use crate::people::{HttpClientError, People};
use async_trait::async_trait;
use axum::Router;
use std::sync::Arc;

pub use crate::config::HostedConfig;
use crate::limits::Limits;

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
    /// The MCP sessions this instance holds.
    pub sessions: Arc<crate::sessions::Sessions>,
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
        let db = Db::open_within(&config.database, config.limits.storage_timeout).await?;
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
        oauth_config.rate_limits = RateLimits::default().scaled(config.limits.oauth_limit_scale);
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
        let (router, mcp_sessions) = crate::serve::router(
            template,
            oauth.clone(),
            people.clone(),
            crate::serve::Served {
                public: config.public.clone(),
                loopback_listener: config.listen.ip().is_loopback(),
                allowed_origins: config.allowed_origins.clone(),
                limits: config.limits.clone(),
            },
        );
        let router = router.merge(crate::confirm_pages::router(
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
            sessions: mcp_sessions,
        })
    }
}

/// Build, listen on `config.listen`, and serve until the process stops.
pub async fn serve(config: HostedConfig) -> anyhow::Result<()> {
    let listen = config.listen;
    let public = config.public.base.clone();
    let limits = config.limits.clone();
    let hosted = Hosted::build(config).await?;
    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .map_err(|e| anyhow::anyhow!("cannot listen on {listen}: {e}"))?;
    let local = listener.local_addr()?;
    tracing::info!("Starting avenir-mcp (hosted) on {local} for {public}");
    eprintln!("avenir-mcp: hosted MCP at {public}/mcp (listening on {local})");
    serve_on(listener, hosted.router, &limits).await;
    Ok(())
}

/// Serve `router` on `listener` until the task is dropped, HTTP/1 with the bounds of `limits`:
/// a connection that sends no complete request head within `header_timeout` (a new one, or a
/// kept-alive one gone silent) is closed, and a request body must arrive within `body_timeout`.
/// Each request carries its connection's peer (`ConnectInfo`) for the rate limits
/// (`oauth::limits`).
pub async fn serve_on(listener: tokio::net::TcpListener, router: Router, limits: &Limits) {
    use axum::extract::ConnectInfo;
    use hyper_util::rt::{TokioIo, TokioTimer};
    use tower_http::add_extension::AddExtension;
    let router = router.layer(tower_http::timeout::RequestBodyTimeoutLayer::new(
        limits.body_timeout,
    ));
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout);
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                // out of descriptors and the like: wait a little rather than spin
                tracing::warn!("a connection could not be accepted: {e}");
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                continue;
            }
        };
        let router = AddExtension::new(router.clone(), ConnectInfo(peer));
        let service = hyper_util::service::TowerToHyperService::new(router);
        let connection = http.serve_connection(TokioIo::new(stream), service);
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!("a connection ended: {e}");
            }
        });
    }
}
