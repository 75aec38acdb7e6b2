//! Plan data for the tools: each read asks YNAB for the plan with one request and resolves
//! `last-used`/`default` to a real plan id once per process (decision D17).
//!
//! Today every read fetches the full plan export (`GET /plans/{id}`, one request); the delta-synced
//! cache that turns later reads into one small delta request replaces the body of [`PlanStore::read`].

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use ynab::Client;
use ynab::models::PlanDetail;

/// A plan as read from YNAB, with the knowledge counter of that read.
#[derive(Debug, Clone)]
pub struct PlanSnapshot {
    pub plan: PlanDetail,
    pub server_knowledge: i64,
}

impl PlanSnapshot {
    /// The resolved plan id.
    pub fn id(&self) -> &str {
        &self.plan.id
    }
}

/// Reads plans through the YNAB client and remembers what `last-used` and `default` named.
#[derive(Debug)]
pub struct PlanStore {
    client: Arc<Client>,
    aliases: Mutex<HashMap<String, String>>,
}

impl PlanStore {
    pub fn new(client: Arc<Client>) -> Self {
        PlanStore {
            client,
            aliases: Mutex::new(HashMap::new()),
        }
    }

    pub fn client(&self) -> &Arc<Client> {
        &self.client
    }

    /// The real id `plan_id` stands for, when already known (an alias met before, or an id).
    pub fn resolved(&self, plan_id: &str) -> String {
        self.aliases
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(plan_id)
            .cloned()
            .unwrap_or_else(|| plan_id.to_string())
    }

    /// The whole plan, read now. `plan_id` is checked as one path segment before anything is sent.
    pub async fn read(&self, plan_id: &str) -> Result<Arc<PlanSnapshot>, ynab::Error> {
        ynab::check_segment(plan_id)?;
        let id = self.resolved(plan_id);
        let (plan, server_knowledge) = self.client.plan(&id, None).await?;
        if plan_id == "last-used" || plan_id == "default" {
            self.aliases
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .entry(plan_id.to_string())
                .or_insert_with(|| plan.id.clone());
        }
        Ok(Arc::new(PlanSnapshot {
            plan,
            server_knowledge,
        }))
    }
}
