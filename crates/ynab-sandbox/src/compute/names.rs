//! The `*_name` fields of transactions and scheduled transactions, filled from the plan's
//! accounts, payees and categories, and the lists of both as the API serves them.

use super::*;

/// Name look-ups for transactions and schedules: [`Names::of`] builds maps once, for naming many;
/// [`Names::few`] searches the plan's lists on each look-up, for naming a few (a plan may hold
/// thousands of payees: building their map costs more than a few searches).
pub struct Names<'a> {
    plan: &'a PlanState,
    maps: Option<NameMaps<'a>>,
}

struct NameMaps<'a> {
    accounts: BTreeMap<&'a str, &'a str>,
    payees: BTreeMap<&'a str, &'a str>,
    categories: BTreeMap<&'a str, &'a str>,
}

/// The name of the entity `id` names in `list`: the last one carrying the id, as a map built
/// from the list keeps.
fn name_in<T>(
    list: &[T],
    id: &str,
    id_of: impl Fn(&T) -> &str,
    name_of: impl Fn(&T) -> &str,
) -> Option<String> {
    list.iter()
        .rev()
        .find(|e| id_of(e) == id)
        .map(|e| name_of(e).to_owned())
}

impl<'a> Names<'a> {
    /// The look-ups of `plan`'s accounts, payees and categories, as maps.
    pub fn of(plan: &'a PlanState) -> Self {
        Names {
            plan,
            maps: Some(NameMaps {
                accounts: plan
                    .accounts
                    .iter()
                    .map(|a| (a.id.as_str(), a.name.as_str()))
                    .collect(),
                payees: plan
                    .payees
                    .iter()
                    .map(|p| (p.id.as_str(), p.name.as_str()))
                    .collect(),
                categories: plan
                    .categories
                    .iter()
                    .map(|c| (c.id.as_str(), c.name.as_str()))
                    .collect(),
            }),
        }
    }

    /// The look-ups of `plan`'s accounts, payees and categories, as searches.
    pub fn few(plan: &'a PlanState) -> Self {
        Names { plan, maps: None }
    }

    fn account(&self, id: &str) -> Option<String> {
        match &self.maps {
            Some(maps) => maps.accounts.get(id).map(|s| (*s).to_owned()),
            None => name_in(&self.plan.accounts, id, |a| &a.id, |a| &a.name),
        }
    }
    fn payee(&self, id: Option<&String>) -> Option<String> {
        let id = id?;
        match &self.maps {
            Some(maps) => maps.payees.get(id.as_str()).map(|s| (*s).to_owned()),
            None => name_in(&self.plan.payees, id, |p| &p.id, |p| &p.name),
        }
    }
    fn category(&self, id: Option<&String>) -> Option<String> {
        let id = id?;
        match &self.maps {
            Some(maps) => maps.categories.get(id.as_str()).map(|s| (*s).to_owned()),
            None => name_in(&self.plan.categories, id, |c| &c.id, |c| &c.name),
        }
    }
}

/// One transaction with `account_name`, `payee_name`, `category_name` (`Split` for a split
/// parent) and its lines' names filled, as YNAB's `TransactionDetail` carries them.
pub fn named_transaction(plan: &PlanState, t: &Transaction) -> Transaction {
    name_with(&Names::few(plan), t)
}

fn name_with(names: &Names<'_>, t: &Transaction) -> Transaction {
    names.transaction(t)
}

impl Names<'_> {
    /// `t` named (see [`named_transaction`]).
    pub fn transaction(&self, t: &Transaction) -> Transaction {
        let mut out = t.clone();
        out.account_name = self.account(&t.account_id);
        out.payee_name = self.payee(t.payee_id.as_ref());
        out.category_name = if t.subtransactions.is_empty() {
            self.category(t.category_id.as_ref())
        } else {
            Some("Split".to_owned())
        };
        for s in &mut out.subtransactions {
            self.name_line(s);
        }
        out
    }

    /// A split line with its `payee_name` and `category_name`.
    pub fn line(&self, s: &SubTransaction) -> SubTransaction {
        let mut out = s.clone();
        self.name_line(&mut out);
        out
    }

    fn name_line(&self, s: &mut SubTransaction) {
        s.payee_name = self.payee(s.payee_id.as_ref());
        s.category_name = self.category(s.category_id.as_ref());
    }
}

/// The non-deleted transactions, named (see [`named_transaction`]), in stored order.
pub fn transactions(plan: &PlanState) -> Vec<Transaction> {
    let names = Names::of(plan);
    plan.transactions
        .iter()
        .filter(|t| !t.deleted)
        .map(|t| name_with(&names, t))
        .collect()
}

/// Every transaction, deleted ones included (delta answers serve them), named, in stored order.
pub fn all_transactions(plan: &PlanState) -> Vec<Transaction> {
    let names = Names::of(plan);
    plan.transactions
        .iter()
        .map(|t| name_with(&names, t))
        .collect()
}

/// The non-deleted scheduled transactions with their account, payee and category names.
pub fn scheduled(plan: &PlanState) -> Vec<ScheduledTransaction> {
    all_scheduled(plan)
        .into_iter()
        .filter(|s| !s.deleted)
        .collect()
}

/// Every scheduled transaction, deleted ones included, with its names, in stored order.
pub fn all_scheduled(plan: &PlanState) -> Vec<ScheduledTransaction> {
    let names = Names::of(plan);
    plan.scheduled.iter().map(|s| names.scheduled(s)).collect()
}

impl Names<'_> {
    /// A scheduled transaction with its account, payee and category names and its lines'.
    pub fn scheduled(&self, s: &ScheduledTransaction) -> ScheduledTransaction {
        let mut out = s.clone();
        out.account_name = self.account(&s.account_id);
        out.payee_name = self.payee(s.payee_id.as_ref());
        out.category_name = if s.subtransactions.is_empty() {
            self.category(s.category_id.as_ref())
        } else {
            Some("Split".to_owned())
        };
        for line in &mut out.subtransactions {
            line.payee_name = self.payee(line.payee_id.as_ref());
            line.category_name = self.category(line.category_id.as_ref());
        }
        out
    }
}
