//! What a process keeps to check a person's answers to confirmed writes: confirmation codes
//! (`codes`), the sealed answer states of the 2026-07-28 round trip (`answer_state`), the
//! policy of what may confirm (`policy`) and the confirmation pages (`pages`). `Context` holds
//! one [`Confirmations`]; the path in `confirm` reads it.

pub mod answer_state;
pub mod codes;
pub mod pages;
pub mod policy;

use answer_state::AnswerStates;
use codes::CodeStore;
pub use policy::{ConfirmPolicy, Risk};
use std::time::Duration;

/// The per-process confirmation state: codes, answer states, the policy.
#[derive(Debug)]
pub struct Confirmations {
    pub codes: CodeStore,
    pub states: AnswerStates,
    /// What may confirm a write (`AVENIR_MCP_CONFIRM`, `AVENIR_MCP_REQUIRE_ELICITATION`).
    pub policy: ConfirmPolicy,
    /// Where confirmation pages open: the loopback interface locally, the public URL in the
    /// hosted mode (`None` where no page can be served).
    pub pages: Option<pages::PageHost>,
    /// How long an in-call question waits for the person.
    pub elicitation_timeout: Duration,
}

impl Confirmations {
    pub fn new(policy: ConfirmPolicy) -> Self {
        Confirmations {
            codes: CodeStore::default(),
            states: AnswerStates::default(),
            policy,
            pages: Some(pages::PageHost::Local(std::sync::Arc::default())),
            elicitation_timeout: Duration::from_secs(600),
        }
    }

    /// The same, with codes and answer states on `clock` (tests move it to expire them).
    pub fn with_clock(policy: ConfirmPolicy, clock: codes::ManualClock) -> Self {
        Confirmations {
            codes: CodeStore::new(Box::new(clock.clone())),
            states: AnswerStates::new(Box::new(clock)),
            policy,
            pages: Some(pages::PageHost::Local(std::sync::Arc::default())),
            elicitation_timeout: Duration::from_secs(600),
        }
    }
}
