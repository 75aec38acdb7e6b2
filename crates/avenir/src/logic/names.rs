//! The joins a full plan export needs: its flat transactions and schedules carry ids only, so
//! payee and account names, and the lines of split transactions, are looked up here.
//! Names come back as YNAB stores them; the display rule is applied where they are shown.

use std::collections::{HashMap, HashSet};
use ynab::models::{Payee, PlanDetail, SubTransaction};

/// Payee and account names of one plan, by id (deleted ones included: a transaction may still
/// name them).
#[derive(Debug)]
pub struct PlanNames<'a> {
    payees: HashMap<&'a str, &'a str>,
    accounts: HashMap<&'a str, &'a str>,
}

impl<'a> PlanNames<'a> {
    pub fn new(plan: &'a PlanDetail) -> Self {
        PlanNames::keeping(plan, |_| true)
    }

    /// The same, holding only the payees `wanted` names (every account): a plan has thousands
    /// of payees, a page of transactions a few dozen.
    pub fn for_payees<'w>(plan: &'a PlanDetail, wanted: impl IntoIterator<Item = &'w str>) -> Self {
        let wanted: HashSet<&str> = wanted.into_iter().collect();
        PlanNames::keeping(plan, |p| wanted.contains(&*p.id))
    }

    fn keeping(plan: &'a PlanDetail, keep: impl Fn(&Payee) -> bool) -> Self {
        PlanNames {
            payees: plan
                .payees
                .iter()
                .filter(|p| keep(p))
                .map(|p| (p.id.as_str(), p.name.as_str()))
                .collect(),
            accounts: plan
                .accounts
                .iter()
                .map(|a| (a.id.as_str(), a.name.as_str()))
                .collect(),
        }
    }

    /// The payee's name (YNAB's `payee_name`), `""` when there is none.
    pub fn payee(&self, payee_id: Option<&str>) -> &'a str {
        payee_id
            .and_then(|id| self.payees.get(id).copied())
            .unwrap_or("")
    }

    /// The account's name (YNAB's `account_name`), `""` when unknown.
    pub fn account(&self, account_id: &str) -> &'a str {
        self.accounts.get(account_id).copied().unwrap_or("")
    }
}

/// The lines of split transactions, by parent id.
#[derive(Debug)]
pub struct SplitLines<'a> {
    by_parent: HashMap<&'a str, Vec<&'a SubTransaction>>,
}

impl<'a> SplitLines<'a> {
    pub fn new(lines: &'a [SubTransaction]) -> Self {
        let mut by_parent: HashMap<&str, Vec<&SubTransaction>> = HashMap::new();
        for line in lines {
            by_parent
                .entry(line.transaction_id.as_str())
                .or_default()
                .push(line);
        }
        SplitLines { by_parent }
    }

    /// Whether the transaction has any line at all, deleted ones included.
    pub fn has_any(&self, transaction_id: &str) -> bool {
        self.by_parent.contains_key(transaction_id)
    }

    /// The lines not deleted.
    pub fn live(&self, transaction_id: &str) -> impl Iterator<Item = &'a SubTransaction> + '_ {
        self.by_parent
            .get(transaction_id)
            .into_iter()
            .flatten()
            .copied()
            .filter(|l| !l.deleted)
    }

    /// Whether at least one line is not deleted (the transaction is shown as split).
    pub fn is_split(&self, transaction_id: &str) -> bool {
        self.live(transaction_id).next().is_some()
    }
}

/// Ids of schedules with at least one line not deleted.
pub fn split_schedules(plan: &PlanDetail) -> HashSet<&str> {
    plan.scheduled_subtransactions
        .iter()
        .filter(|l| !l.deleted)
        .map(|l| l.scheduled_transaction_id.as_str())
        .collect()
}
