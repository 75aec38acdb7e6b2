//! The plan the sandbox holds in memory: its stored facts only (no derived figure is stored).
//! Balances, month figures and target figures are computed from these facts by `compute`.

use crate::ids;
use crate::knowledge::Stamps;
use chrono::NaiveDate;
use std::collections::BTreeMap;
use ynab::models::{
    Account, Category, CategoryGroup, CurrencyFormat, DateFormat, Milliunits, Payee,
    ScheduledTransaction, Transaction,
};

/// One plan as the sandbox stores it.
///
/// Entities are kept in YNAB's own model types so that what is served has YNAB's shape, but their
/// derived fields are not trusted: an [`Account`]'s balances, a [`Category`]'s
/// `budgeted`/`activity`/`balance`/`goal_*` figures and a [`Transaction`]'s `*_name` fields are
/// computed by `compute` from the facts (once per `server_knowledge`, then shared by the reads at
/// it: `crate::derived`).
#[derive(Debug, Clone)]
pub struct PlanState {
    pub id: String,
    pub name: String,
    pub last_modified_on: String,
    pub first_month: NaiveDate,
    pub last_month: NaiveDate,
    pub date_format: DateFormat,
    pub currency_format: CurrencyFormat,
    pub accounts: Vec<Account>,
    pub groups: Vec<CategoryGroup>,
    /// Categories in display order; the target *settings* (`goal_type`, `goal_target`,
    /// `goal_target_date`, `goal_cadence`, `goal_cadence_frequency`, `goal_day`,
    /// `goal_needs_whole_amount`, `goal_creation_month`) are stored here, the figures computed.
    pub categories: Vec<Category>,
    pub payees: Vec<Payee>,
    /// Transactions in id order, each transfer as two rows (one per account).
    pub transactions: Vec<Transaction>,
    pub scheduled: Vec<ScheduledTransaction>,
    /// Assigned ("budgeted") amount per (month `YYYY-MM-01`, category id).
    pub assigned: BTreeMap<(String, String), Milliunits>,
    /// "Today" for this plan: decides the current month and the months served.
    pub today: NaiveDate,
    /// The plan's `server_knowledge`: grows with every change.
    pub server_knowledge: i64,
    /// The knowledge of each entity's last change (see `crate::knowledge`); empty when loaded.
    pub stamps: Stamps,
    /// How many ids the API has made for new entities: the next one is the UUID of
    /// `sandbox/<kind>/<serial>` (D26's scheme, deterministic for a given sequence of requests).
    pub serial: u64,
}

impl PlanState {
    /// A fresh id for a new entity of `kind` (`transaction`, `payee`, …): the UUID v5 of
    /// `sandbox/<kind>/<n>`, skipping any the plan already uses.
    pub fn new_id(&mut self, kind: &str) -> String {
        loop {
            let id = ids::id(&format!("sandbox/{kind}/{}", self.serial));
            self.serial += 1;
            if !self.uses_id(&id) {
                return id;
            }
        }
    }

    fn uses_id(&self, id: &str) -> bool {
        self.accounts.iter().any(|a| a.id == id)
            || self.groups.iter().any(|g| g.id == id)
            || self.categories.iter().any(|c| c.id == id)
            || self.payees.iter().any(|p| p.id == id)
            || self
                .transactions
                .iter()
                .any(|t| t.id == id || t.subtransactions.iter().any(|s| s.id == id))
            || self
                .scheduled
                .iter()
                .any(|s| s.id == id || s.subtransactions.iter().any(|l| l.id == id))
    }
}
