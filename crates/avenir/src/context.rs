//! What every tool call can reach: the settings the server started with and the plan store.
//! One `Context` is shared by every session of a process.

use crate::config::Settings;
use crate::confirmations::Confirmations;
use crate::confirmations::answer_state::AnswerStates;
use crate::confirmations::codes::CodeStore;
use crate::confirmations::pages::{PageHost, hosted::HostedPages};
use crate::plan_store::PlanStore;
use crate::store::journal::{Journal, JournalLocation};
use crate::store::plan_cache::PlanCache;
use crate::store::shared::SharedStore;
use std::sync::Arc;

/// The answer states' key was refused by their codec: a hosted context cannot be made.
#[derive(Debug, Clone, Copy, thiserror::Error)]
#[error("the answer states' key was refused by the codec")]
pub struct AnswerKeyRefused;

/// The state shared by all calls.
#[derive(Debug)]
pub struct Context {
    pub settings: Settings,
    pub plans: PlanStore,
    /// Confirmation codes, sealed answer states, the elicitation policy.
    pub confirmations: Confirmations,
    /// The journal; its undo lock (`<journal>.undo.lock`) keeps two undos of one operation
    /// from both writing, across processes (D5).
    pub journal: Journal,
    /// Whom the audit line of each write names (`write applied: who=…`): `local` for the local
    /// server; in the hosted mode a tag of the person that does not reveal their id.
    pub who: String,
}

impl Context {
    pub fn new(settings: Settings, client: Arc<ynab::Client>) -> Self {
        let fresh_for = std::time::Duration::from_secs(settings.fresh_seconds);
        let journal = Journal::new(match &settings.journal {
            Some(path) => JournalLocation::Fixed(path.clone()),
            None => JournalLocation::Environment,
        });
        let mut plans = PlanStore::new(client, fresh_for);
        if let Some(dir) = &settings.cache {
            plans = plans.with_cache(PlanCache::new(dir.clone()));
        }
        Context {
            confirmations: Confirmations::new(settings.confirm),
            journal,
            plans,
            settings,
            who: "local".to_string(),
        }
    }

    /// One person's context in the hosted mode: their journal, intents, confirmation codes and
    /// answer states' nonces in `shared` (the database every instance uses), answer states sealed
    /// under `answer_key` (the same in every instance), confirmation pages under `public_url`,
    /// and no plan cache on disk.
    pub fn hosted(
        mut settings: Settings,
        client: Arc<ynab::Client>,
        shared: Arc<dyn SharedStore>,
        answer_key: [u8; 32],
        public_url: &str,
    ) -> Result<Self, AnswerKeyRefused> {
        settings.cache = None;
        settings.journal = None;
        settings.hosted = true;
        let fresh_for = std::time::Duration::from_secs(settings.fresh_seconds);
        let states = AnswerStates::shared(answer_key, shared.clone()).ok_or(AnswerKeyRefused)?;
        Ok(Context {
            confirmations: Confirmations {
                codes: CodeStore::shared(shared.clone()),
                states,
                pages: Some(PageHost::Hosted(HostedPages::new(
                    shared.clone(),
                    public_url,
                ))),
                ..Confirmations::new(settings.confirm)
            },
            journal: Journal::new(JournalLocation::Shared(shared)),
            plans: PlanStore::new(client, fresh_for),
            settings,
            who: "hosted".to_string(),
        })
    }

    /// The same context, its audit lines naming `who`.
    pub fn with_who(mut self, who: String) -> Self {
        self.who = who;
        self
    }
}
