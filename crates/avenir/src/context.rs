//! What every tool call can reach: the settings the server started with and the plan store.
//! One `Context` is shared by every session of a process.

use crate::config::Settings;
use crate::plans::PlanStore;
use std::sync::Arc;

/// The state shared by all calls.
#[derive(Debug)]
pub struct Context {
    pub settings: Settings,
    pub plans: PlanStore,
}

impl Context {
    pub fn new(settings: Settings, client: Arc<ynab::Client>) -> Self {
        Context {
            settings,
            plans: PlanStore::new(client),
        }
    }
}
