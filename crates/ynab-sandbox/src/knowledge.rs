//! `server_knowledge` as YNAB keeps it: one counter per plan that grows with every change, and on
//! every entity the knowledge of its last change, so that a delta request returns exactly what
//! changed after the knowledge it sends.
//!
//! # Rules
//!
//! - **One change = one request.** Every successful write request raises the plan's counter by
//!   one and stamps what it changed with the new value; a refused request (4xx) changes nothing.
//!   A change made through [`crate::Sandbox::with_plan`] counts as one change when it altered
//!   anything the API serves.
//! - **What counts as changed.** An entity is changed by a request when the request wrote it (even
//!   to the same values: a save is a save), or when *what the API serves for it* differs after the
//!   request. That second half covers every side effect without listing them: the mirror row of a
//!   transfer, a payee created from `payee_name`, the balance of an account whose transactions
//!   moved (YNAB returns it in the next accounts delta), the current-month figures of a category
//!   whose activity or assigned amount moved, Ready to Assign and carry-over in later months,
//!   and names joined from another entity (renaming a payee changes the `payee_name` served on its
//!   transactions, so those transactions come back in the next transactions delta — YNAB's own
//!   behaviour here is undocumented).
//! - **Entities.** Accounts, category groups, payees, transactions (with their split lines: a line
//!   changes with its transaction), scheduled transactions (with their lines), categories (as
//!   served by `/categories`: current-month figures), months, and each month's category rows. A
//!   month counts as changed when its totals or any of its category rows changed.
//! - **Loaded entities.** An entity that no request has changed counts as changed at knowledge
//!   [`LOADED`] (1): a delta from 0 returns the whole plan, deleted entities included, and a delta
//!   from the knowledge of a first full read returns none of them.
//! - **Delta answers.** Given `last_knowledge_of_server=k`, a list returns the entities stamped
//!   after `k`, deleted ones included (`deleted: true`); without it, the current non-deleted set.

use crate::compute;
use crate::derived::Derived;
use crate::state::PlanState;
use serde::Serialize;
use std::collections::hash_map::DefaultHasher;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::hash::{Hash, Hasher};

/// The knowledge of entities no request has changed yet.
pub const LOADED: i64 = 1;

/// A kind of entity that carries its own knowledge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    Account,
    Group,
    /// A category as `/categories` serves it (current-month figures).
    Category,
    Payee,
    /// A transaction with its split lines.
    Transaction,
    /// A scheduled transaction with its lines.
    Scheduled,
    /// A month (`YYYY-MM-01`): its totals and its category rows.
    Month,
    /// One category's row in one month, keyed by [`month_category`].
    MonthCategory,
}

/// An entity: its kind and its id (a month's label for months).
pub type Key = (Kind, String);

/// The key of a category's row in a month.
pub fn month_category(month: &str, category_id: &str) -> String {
    format!("{month}/{category_id}")
}

/// When each entity last changed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stamps {
    by_kind: BTreeMap<Kind, HashMap<String, i64>>,
}

impl Stamps {
    /// The knowledge of the entity's last change ([`LOADED`] if none was recorded).
    pub fn of(&self, kind: Kind, id: &str) -> i64 {
        self.by_kind
            .get(&kind)
            .and_then(|ids| ids.get(id))
            .copied()
            .unwrap_or(LOADED)
    }

    /// The entities of `kind` changed after `knowledge`, when that can be told from the stamps
    /// alone: `None` when `knowledge` is before [`LOADED`] (every entity counts as changed).
    pub fn changed_after(&self, kind: Kind, knowledge: i64) -> Option<HashSet<&str>> {
        if knowledge < LOADED {
            return None;
        }
        Some(
            self.by_kind
                .get(&kind)
                .into_iter()
                .flatten()
                .filter(|(_, k)| **k > knowledge)
                .map(|(id, _)| id.as_str())
                .collect(),
        )
    }

    /// Records that the entity changed at `knowledge`.
    pub fn stamp(&mut self, kind: Kind, id: &str, knowledge: i64) {
        self.by_kind
            .entry(kind)
            .or_default()
            .insert(id.to_owned(), knowledge);
    }
}

/// The `last_knowledge_of_server` of a list request, if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Since(pub Option<i64>);

impl Since {
    /// Whether a list answer includes the entity: changed after the knowledge sent (deleted or
    /// not), or, without one, not deleted.
    pub fn keeps(&self, plan: &PlanState, kind: Kind, id: &str, deleted: bool) -> bool {
        match self.0 {
            None => !deleted,
            Some(k) => plan.stamps.of(kind, id) > k,
        }
    }

    pub fn is_delta(&self) -> bool {
        self.0.is_some()
    }
}

/// A fingerprint of what the API serves for every entity of a plan.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Snapshot {
    prints: BTreeMap<Key, u64>,
}

fn fingerprint<T: Serialize>(value: &T) -> u64 {
    let mut hasher = DefaultHasher::new();
    match serde_json::to_vec(value) {
        Ok(bytes) => bytes.hash(&mut hasher),
        Err(error) => error.to_string().hash(&mut hasher),
    }
    hasher.finish()
}

/// What the API serves now, entity by entity (deleted entities included).
pub fn snapshot(plan: &PlanState) -> Snapshot {
    snapshot_with(plan, &Derived::compute(plan))
}

/// [`snapshot`] from figures already computed for `plan` (`derived` must be `plan`'s).
pub(crate) fn snapshot_with(plan: &PlanState, derived: &Derived) -> Snapshot {
    let mut prints = BTreeMap::new();
    let mut put = |kind: Kind, id: &str, print: u64| {
        prints.insert((kind, id.to_owned()), print);
    };
    for a in &derived.accounts {
        put(Kind::Account, &a.id, fingerprint(a));
    }
    for g in &plan.groups {
        put(Kind::Group, &g.id, fingerprint(g));
    }
    for p in &plan.payees {
        put(Kind::Payee, &p.id, fingerprint(p));
    }
    // A deleted entity is a tombstone: what other writes change about it (a renamed category's
    // name on it, say) is not a change of it, so its print is the tombstone alone.
    let tombstone = |id: &str| fingerprint(&(id, "deleted"));
    for t in compute::all_transactions(plan) {
        let print = if t.deleted {
            tombstone(&t.id)
        } else {
            fingerprint(&t)
        };
        put(Kind::Transaction, &t.id, print);
    }
    for s in compute::all_scheduled(plan) {
        let print = if s.deleted {
            tombstone(&s.id)
        } else {
            fingerprint(&s)
        };
        put(Kind::Scheduled, &s.id, print);
    }
    let current = &derived.current_month;
    let mut current_seen = false;
    for (m, month) in derived.served.iter().zip(&derived.months) {
        for c in month.categories.iter().flatten() {
            let print = fingerprint(c);
            put(Kind::MonthCategory, &month_category(m, &c.id), print);
            if m == current {
                put(Kind::Category, &c.id, print);
            }
        }
        current_seen |= m == current;
        put(Kind::Month, m, fingerprint(month));
    }
    if !current_seen {
        for c in &derived.current_categories {
            put(Kind::Category, &c.id, fingerprint(c));
        }
    }
    Snapshot { prints }
}

/// Closes one change: when `written` is not empty or anything served differs from `before`,
/// raises the plan's knowledge by one and stamps the written and the differing entities with it.
/// Returns whether it did.
pub fn record(plan: &mut PlanState, before: &Snapshot, written: &[Key]) -> bool {
    let after = snapshot(plan);
    record_between(plan, before, &after, written)
}

/// [`record`] with the plan's snapshot after the change already taken (`after`).
pub(crate) fn record_between(
    plan: &mut PlanState,
    before: &Snapshot,
    after: &Snapshot,
    written: &[Key],
) -> bool {
    let mut changed: Vec<&Key> = written.iter().collect();
    for (key, print) in &after.prints {
        if before.prints.get(key) != Some(print) {
            changed.push(key);
        }
    }
    for key in before.prints.keys() {
        if !after.prints.contains_key(key) {
            changed.push(key);
        }
    }
    if changed.is_empty() {
        return false;
    }
    plan.server_knowledge += 1;
    let knowledge = plan.server_knowledge;
    for (kind, id) in changed {
        plan.stamps.stamp(*kind, id, knowledge);
    }
    true
}

/// Runs one write request on a copy of the plan: on success the copy replaces the plan and the
/// change is recorded (see [`record`]); on failure the plan is left exactly as it was.
pub fn commit<T, E>(
    plan: &mut PlanState,
    apply: impl FnOnce(&mut PlanState) -> Result<(T, Vec<Key>), E>,
) -> Result<T, E> {
    let before = Derived::compute(plan);
    commit_from(plan, &before, apply).map(|(out, _)| out)
}

/// [`commit`] from the plan's present figures (`before`, which must be `plan`'s); on success also
/// answers the figures of the plan it became, for the cache (`crate::derived`).
pub(crate) fn commit_from<T, E>(
    plan: &mut PlanState,
    before: &Derived,
    apply: impl FnOnce(&mut PlanState) -> Result<(T, Vec<Key>), E>,
) -> Result<(T, Derived), E> {
    let before = before.snapshot(plan);
    let mut draft = plan.clone();
    let (out, written) = apply(&mut draft)?;
    let after = Derived::compute(&draft);
    let after_prints = after.snapshot(&draft);
    record_between(&mut draft, before, after_prints, &written);
    *plan = draft;
    Ok((out, after))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::{PlanBuilder, Tx, date};
    use crate::ids::id;

    fn plan() -> PlanState {
        let mut b = PlanBuilder::new("p", "Plan", date("2026-09-25"));
        b.months(date("2026-08-01"), date("2026-09-01"));
        b.account("acc-c", "Checking", "checking", true);
        b.account("acc-s", "Savings", "savings", true);
        b.internal_group("grp-i", "Internal Master Category");
        b.category("cat-in", "grp-i", "Inflow: Ready to Assign");
        b.group("grp-e", "Everyday");
        b.category("cat-food", "grp-e", "Food");
        b.transaction(Tx::new(date("2026-09-01"), "acc-c", "Shop", -5_000).category("cat-food"));
        b.build()
    }

    #[test]
    fn a_write_stamps_what_it_wrote_and_what_it_moved() {
        let mut p = plan();
        let tx = id("tx-000");
        let out: Result<(), ()> = commit(&mut p, |draft| {
            draft.transactions[0].amount = -7_000;
            Ok(((), vec![(Kind::Transaction, tx.clone())]))
        });
        assert_eq!(out, Ok(()));
        assert_eq!(p.server_knowledge, 2);
        assert_eq!(p.stamps.of(Kind::Transaction, &tx), 2);
        assert_eq!(p.stamps.of(Kind::Account, &id("acc-c")), 2, "balance moved");
        assert_eq!(p.stamps.of(Kind::Account, &id("acc-s")), LOADED);
        assert_eq!(p.stamps.of(Kind::Category, &id("cat-food")), 2);
        assert_eq!(p.stamps.of(Kind::Category, &id("cat-in")), LOADED);
        assert_eq!(p.stamps.of(Kind::Month, "2026-09-01"), 2);
        assert_eq!(
            p.stamps.of(Kind::Month, "2026-10-01"),
            2,
            "Ready to Assign moves on"
        );
        assert_eq!(p.stamps.of(Kind::Month, "2026-08-01"), LOADED);
    }

    #[test]
    fn a_refused_write_changes_nothing_and_an_empty_one_counts_nothing() {
        let mut p = plan();
        let out: Result<(), &str> = commit(&mut p, |draft| {
            draft.transactions[0].amount = 0;
            Err("refused")
        });
        assert_eq!(out, Err("refused"));
        assert_eq!(p.transactions[0].amount, -5_000);
        assert_eq!(p.server_knowledge, 1);
        let before = snapshot(&p);
        assert!(!record(&mut p, &before, &[]));
        assert_eq!(p.server_knowledge, 1);
    }

    #[test]
    fn since_keeps_changed_entities_and_drops_deleted_ones_from_full_reads() {
        let mut p = plan();
        p.stamps.stamp(Kind::Payee, "x", 5);
        assert!(Since(Some(4)).keeps(&p, Kind::Payee, "x", true));
        assert!(!Since(Some(5)).keeps(&p, Kind::Payee, "x", false));
        assert!(Since(Some(0)).keeps(&p, Kind::Payee, "never-written", false));
        assert!(!Since(None).keeps(&p, Kind::Payee, "x", true));
        assert!(Since(None).keeps(&p, Kind::Payee, "x", false));
    }
}
