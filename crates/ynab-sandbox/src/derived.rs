//! The derived figures of one plan at one `server_knowledge`, computed once and shared by every
//! read at that knowledge, and the cache that holds them for the plans a sandbox serves.
//!
//! # The invariant
//!
//! A [`Derived`] is a pure function of a plan's stored facts (what `compute` reads: entities,
//! assigned amounts, "today", formats), never of its knowledge stamps. [`Figures`] keeps one per
//! plan id under the key (`server_knowledge`, today) the plan had when it was stored, and hands it
//! out only while the plan still has that key. That is sound because every path that changes a
//! served plan's facts either raises its knowledge or replaces the cached figures:
//! - a write request runs on a draft (`knowledge::commit_from`), computes the draft's figures
//!   (they give the change's fingerprints) and stores them for the plan it became;
//! - [`crate::Sandbox::with_plan`] and `POST /__sandbox/reset` drop every cached figure;
//! - a refused write leaves the plan, and so its figures, untouched.
//!
//! Figures that depend on "today" (the current month, Age of Money) are covered by the key's
//! `today`. What is costly and not always needed — every entity's fingerprint (writes need it),
//! the full export's JSON (`GET /plans/{id}` needs it) and where each transaction and payee is
//! stored (a delta visits only the stamped ones) — is computed on first use.

use crate::compute;
use crate::knowledge::{self, Snapshot};
use crate::state::PlanState;
use chrono::NaiveDate;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};
use ynab::models::{Account, Category, Month};

/// A plan's derived figures (see the module doc).
#[derive(Debug)]
pub struct Derived {
    /// The accounts with their balances, in stored order.
    pub accounts: Vec<Account>,
    /// Today's month, `YYYY-MM-01`.
    pub current_month: String,
    /// Every category with its current-month figures (what `/categories` serves).
    pub current_categories: Vec<Category>,
    /// The served months (`compute::served_months`), `YYYY-MM-01`.
    pub served: Vec<String>,
    /// Each served month with every category's figures, in `served`'s order.
    pub months: Vec<Month>,
    prints: OnceLock<Snapshot>,
    export: OnceLock<String>,
    positions: OnceLock<HashMap<String, usize>>,
    payee_positions: OnceLock<HashMap<String, usize>>,
}

impl Derived {
    /// Computes the figures of `plan` (one pass over its transactions and months).
    pub fn compute(plan: &PlanState) -> Derived {
        let served = compute::served_months(plan);
        let months = compute::months(plan, &served);
        let current_month = compute::current_month(plan);
        let current_categories = served
            .iter()
            .position(|m| *m == current_month)
            .and_then(|i| months.get(i))
            .and_then(|m| m.categories.clone())
            .unwrap_or_else(|| compute::month_categories(plan, &current_month));
        Derived {
            accounts: compute::accounts(plan),
            current_month,
            current_categories,
            served,
            months,
            prints: OnceLock::new(),
            export: OnceLock::new(),
            positions: OnceLock::new(),
            payee_positions: OnceLock::new(),
        }
    }

    /// The served month `label` with every category's figures, if it is served.
    pub fn month(&self, label: &str) -> Option<&Month> {
        self.served
            .iter()
            .position(|m| m == label)
            .and_then(|i| self.months.get(i))
    }

    /// What the API serves for each entity, fingerprinted (`knowledge::snapshot`). `plan` must be
    /// the plan these figures were computed from.
    pub fn snapshot(&self, plan: &PlanState) -> &Snapshot {
        self.prints
            .get_or_init(|| knowledge::snapshot_with(plan, self))
    }

    /// Where the transaction `id` is stored in `plan.transactions` (the last row with that id).
    /// `plan` must be the plan these figures were computed from.
    pub fn position(&self, plan: &PlanState, id: &str) -> Option<usize> {
        self.positions
            .get_or_init(|| index(plan.transactions.iter().map(|t| &*t.id)))
            .get(id)
            .copied()
    }

    /// Where the payee `id` is stored in `plan.payees` (the last one with that id). `plan` must
    /// be the plan these figures were computed from.
    pub fn payee_position(&self, plan: &PlanState, id: &str) -> Option<usize> {
        self.payee_positions
            .get_or_init(|| index(plan.payees.iter().map(|p| &*p.id)))
            .get(id)
            .copied()
    }

    /// The full export's `plan` member as JSON, exactly as `GET /plans/{id}` serves it. `plan`
    /// must be the plan these figures were computed from.
    pub fn export_json(&self, plan: &PlanState) -> &str {
        self.export.get_or_init(|| {
            let detail = crate::routes::plans::export_from(plan, self, knowledge::Since(None));
            serde_json::to_string(&crate::routes::to_json(&detail)).unwrap_or_default()
        })
    }
}

/// Each id's position in a list (the last one, for an id listed twice).
fn index<'a>(ids: impl Iterator<Item = &'a str>) -> HashMap<String, usize> {
    ids.enumerate().map(|(i, id)| (id.to_string(), i)).collect()
}

/// The cached figures of the plans a sandbox serves, by plan id (see the module doc).
#[derive(Debug, Default)]
pub(crate) struct Figures {
    by_plan: HashMap<String, Cached>,
}

/// Figures and the key the plan had when they were stored.
#[derive(Debug)]
struct Cached {
    knowledge: i64,
    today: NaiveDate,
    derived: Arc<Derived>,
}

impl Figures {
    /// The figures of `plan` now: the cached ones while the plan keeps their key, else computed
    /// and cached.
    pub(crate) fn of(&mut self, plan: &PlanState) -> Arc<Derived> {
        if let Some(cached) = self.by_plan.get(&plan.id)
            && cached.knowledge == plan.server_knowledge
            && cached.today == plan.today
        {
            return cached.derived.clone();
        }
        let derived = Arc::new(Derived::compute(plan));
        self.store(plan, derived.clone());
        derived
    }

    /// Caches `derived`, which must have been computed from `plan`'s present facts.
    pub(crate) fn store(&mut self, plan: &PlanState, derived: Arc<Derived>) {
        self.by_plan.insert(
            plan.id.clone(),
            Cached {
                knowledge: plan.server_knowledge,
                today: plan.today,
                derived,
            },
        );
    }

    /// Forgets every cached figure (the plans were changed or replaced outside a write).
    pub(crate) fn clear(&mut self) {
        self.by_plan.clear();
    }
}
