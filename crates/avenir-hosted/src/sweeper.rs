//! The periodic sweep every instance runs: expired rows deleted from the database
//! ([`Db::sweep`]), and the rate limits' idle client addresses forgotten.

use crate::config::Clock;
use crate::db::{Db, SweepTtls};
use crate::oauth::{METADATA_CACHE_TTL, OAuthServer, PENDING_TTL};
use std::sync::Arc;
use std::time::Duration;

/// How often an instance sweeps.
pub const SWEEP_EVERY: Duration = Duration::from_secs(10 * 60);

/// The lifetimes the sweep deletes by.
pub fn ttls() -> SweepTtls {
    SweepTtls {
        pending: PENDING_TTL,
        metadata: METADATA_CACHE_TTL,
        nonce: i64::try_from(avenir::confirmations::answer_state::STATE_LIFETIME.as_secs())
            .unwrap_or(i64::MAX),
    }
}

/// The sweeping task; it stops when this is dropped.
#[derive(Debug)]
pub struct Sweeper(tokio::task::JoinHandle<()>);

impl Drop for Sweeper {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Sweep every [`SWEEP_EVERY`], the first time one period after the start.
pub fn start(db: Db, oauth: Arc<OAuthServer>, clock: Clock) -> Sweeper {
    Sweeper(tokio::spawn(async move {
        let mut every = tokio::time::interval(SWEEP_EVERY);
        every.tick().await; // the first tick is immediate
        loop {
            every.tick().await;
            sweep_once(&db, &oauth, &clock).await;
        }
    }))
}

async fn sweep_once(db: &Db, oauth: &OAuthServer, clock: &Clock) {
    match db.sweep(clock(), ttls()).await {
        Ok(swept) if swept.total() > 0 => {
            tracing::info!("the expiry sweep deleted {} rows: {swept:?}", swept.total());
        }
        Ok(_) => {}
        Err(e) => tracing::warn!("the expiry sweep failed (tried again later): {e}"),
    }
    let tracked = oauth.forget_idle_addresses();
    tracing::debug!("rate limits track {tracked} client addresses");
}
