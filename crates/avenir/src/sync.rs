//! Merging a delta into a cached plan, as YNAB's `last_knowledge_of_server` protocol asks:
//! a returned entity replaces the cached one (or is added), one marked deleted is removed.
//!
//! Pure functions over the models: the plan store calls them, tests drive them directly.

use ynab::models::{
    Account, Category, CategoryGroup, Month, Payee, PlanDetail, ScheduledSubTransaction,
    ScheduledTransactionSummary, SubTransaction, TransactionSummary,
};

/// An entity a delta can replace or delete.
pub trait Keyed {
    fn key(&self) -> &str;
    fn is_deleted(&self) -> bool;
}

macro_rules! keyed_by_id {
    ($($t:ty),*) => {$(
        impl Keyed for $t {
            fn key(&self) -> &str { &self.id }
            fn is_deleted(&self) -> bool { self.deleted }
        }
    )*};
}

keyed_by_id!(
    Account,
    Category,
    CategoryGroup,
    Payee,
    TransactionSummary,
    SubTransaction,
    ScheduledTransactionSummary,
    ScheduledSubTransaction
);

impl Keyed for Month {
    fn key(&self) -> &str {
        &self.month
    }
    fn is_deleted(&self) -> bool {
        self.deleted
    }
}

impl Keyed for serde_json::Value {
    fn key(&self) -> &str {
        self.get("id").and_then(|v| v.as_str()).unwrap_or("")
    }
    fn is_deleted(&self) -> bool {
        self.get("deleted")
            .and_then(|v| v.as_bool())
            .unwrap_or(false)
    }
}

/// Up to this many entities, a delta's keys are compared one by one rather than hashed.
const FEW: usize = 8;

/// Merge `delta` into `base`: replace in place (keeping first-seen order), append new ones,
/// remove deleted ones. Returns whether anything changed.
pub fn merge_list<T: Keyed>(base: &mut Vec<T>, delta: Vec<T>) -> bool {
    if delta.is_empty() {
        return false;
    }
    // Where the delta's keys sit in `base`, found in one pass that compares each base key with
    // the delta's few keys: no map of every key of the plan is built for a delta of a few
    // entities. (A key held twice in `base` resolves to its last place, as a map would.)
    let wanted: Vec<&str> = delta.iter().map(Keyed::key).collect();
    let few = wanted.len() <= FEW;
    let lookup: std::collections::HashSet<&str> = if few {
        std::collections::HashSet::new()
    } else {
        wanted.iter().copied().collect()
    };
    let mut index: std::collections::HashMap<String, usize> =
        std::collections::HashMap::with_capacity(wanted.len());
    for (i, e) in base.iter().enumerate() {
        let key = e.key();
        let hit = if few {
            wanted.contains(&key)
        } else {
            lookup.contains(key)
        };
        if hit {
            index.insert(key.to_string(), i);
        }
    }
    drop(lookup);
    drop(wanted);
    let mut removed = false;
    for entity in delta {
        let key = entity.key().to_string();
        match index.get(&key) {
            Some(&i) => {
                if entity.is_deleted() {
                    removed = true;
                }
                base[i] = entity;
            }
            None if entity.is_deleted() => {}
            None => {
                index.insert(key, base.len());
                base.push(entity);
            }
        }
    }
    if removed {
        base.retain(|e| !e.is_deleted());
    }
    true
}

/// A delta that carries no entity: merging it changes no list (only the plan's name and
/// settings, which no derived figure reads).
pub fn is_empty(delta: &PlanDetail) -> bool {
    delta.accounts.is_empty()
        && delta.payees.is_empty()
        && delta.payee_locations.is_empty()
        && delta.category_groups.is_empty()
        && delta.categories.is_empty()
        && delta.months.is_empty()
        && delta.transactions.is_empty()
        && delta.subtransactions.is_empty()
        && delta.scheduled_transactions.is_empty()
        && delta.scheduled_subtransactions.is_empty()
}

/// Merge a delta answer of `GET /plans/{id}` into the cached plan.
pub fn merge_plan(base: &mut PlanDetail, delta: PlanDetail) {
    base.name = delta.name;
    base.last_modified_on = delta.last_modified_on.or(base.last_modified_on.take());
    base.first_month = delta.first_month.or(base.first_month.take());
    base.last_month = delta.last_month.or(base.last_month.take());
    base.date_format = delta.date_format.or(base.date_format.take());
    base.currency_format = delta.currency_format.or(base.currency_format.take());
    merge_list(&mut base.accounts, delta.accounts);
    merge_list(&mut base.payees, delta.payees);
    merge_list(&mut base.payee_locations, delta.payee_locations);
    merge_list(&mut base.category_groups, delta.category_groups);
    merge_list(&mut base.categories, delta.categories);
    merge_months(&mut base.months, delta.months);
    // Lines of a parent that is gone go with it. Only a deleted parent or a line the delta brings
    // can leave one without its parent: a delta of a few plain transactions skips the sweep.
    let sweep_lines =
        delta.transactions.iter().any(|t| t.deleted) || !delta.subtransactions.is_empty();
    let sweep_schedule_lines = delta.scheduled_transactions.iter().any(|t| t.deleted)
        || !delta.scheduled_subtransactions.is_empty();
    merge_list(&mut base.transactions, delta.transactions);
    merge_list(&mut base.subtransactions, delta.subtransactions);
    merge_list(
        &mut base.scheduled_transactions,
        delta.scheduled_transactions,
    );
    merge_list(
        &mut base.scheduled_subtransactions,
        delta.scheduled_subtransactions,
    );
    if sweep_lines {
        let parents: std::collections::HashSet<&str> =
            base.transactions.iter().map(|t| &*t.id).collect();
        base.subtransactions
            .retain(|s| parents.contains(&*s.transaction_id));
    }
    if sweep_schedule_lines {
        let scheduled: std::collections::HashSet<&str> =
            base.scheduled_transactions.iter().map(|t| &*t.id).collect();
        base.scheduled_subtransactions
            .retain(|s| scheduled.contains(&*s.scheduled_transaction_id));
    }
}

/// Months merge by month; a month's categories merge by id inside it.
fn merge_months(base: &mut Vec<Month>, delta: Vec<Month>) {
    let mut merged = Vec::with_capacity(delta.len());
    for mut month in delta {
        if let Some(existing) = base.iter().find(|m| m.month == month.month) {
            match (&existing.categories, month.categories.take()) {
                (Some(old), Some(changed)) => {
                    let mut categories = old.clone();
                    merge_list(&mut categories, changed);
                    month.categories = Some(categories);
                }
                (old, None) => month.categories = old.clone(),
                // A month held without its categories (loaded by kind) stays so: a delta
                // carries only the changed rows, and the whole list is fetched when needed.
                (None, Some(_)) => month.categories = None,
            }
        }
        merged.push(month);
    }
    merge_list(base, merged);
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[derive(Debug, Clone, PartialEq)]
    struct Item {
        id: String,
        value: i32,
        deleted: bool,
    }

    impl Keyed for Item {
        fn key(&self) -> &str {
            &self.id
        }
        fn is_deleted(&self) -> bool {
            self.deleted
        }
    }

    fn item(id: &str, value: i32, deleted: bool) -> Item {
        Item {
            id: id.into(),
            value,
            deleted,
        }
    }

    #[test]
    fn replace_append_delete_keep_order() {
        let mut base = vec![
            item("a", 1, false),
            item("b", 2, false),
            item("c", 3, false),
        ];
        merge_list(
            &mut base,
            vec![
                item("b", 20, false),
                item("d", 4, false),
                item("a", 0, true),
            ],
        );
        assert_eq!(
            base,
            vec![
                item("b", 20, false),
                item("c", 3, false),
                item("d", 4, false)
            ]
        );
    }

    #[test]
    fn an_empty_delta_keeps_everything() {
        let mut base = vec![item("a", 1, false)];
        assert!(!merge_list(&mut base, Vec::new()));
        assert_eq!(base, vec![item("a", 1, false)]);
    }

    proptest! {
        /// Whatever the deltas, the merged list equals the "truth" kept by applying the same
        /// changes to a map: no entity lost, none duplicated, none deleted left behind.
        #[test]
        fn merging_deltas_tracks_the_truth(
            start in proptest::collection::vec(0u8..20, 0..15),
            deltas in proptest::collection::vec(
                proptest::collection::vec((0u8..25, -5i32..5, any::<bool>()), 0..8), 0..6),
        ) {
            let mut truth = std::collections::BTreeMap::new();
            let mut base = Vec::new();
            for k in start {
                if truth.insert(k, 0).is_none() {
                    base.push(item(&k.to_string(), 0, false));
                }
            }
            for delta in deltas {
                let mut changes = Vec::new();
                let mut seen = std::collections::HashSet::new();
                for (k, v, deleted) in delta {
                    if !seen.insert(k) { continue; } // YNAB sends each entity once per delta
                    if deleted { truth.remove(&k); } else { truth.insert(k, v); }
                    changes.push(item(&k.to_string(), v, deleted));
                }
                merge_list(&mut base, changes);
            }
            let mut got: Vec<(u8, i32)> = base
                .iter()
                .map(|i| (i.id.parse().unwrap_or(255), i.value))
                .collect();
            got.sort();
            let want: Vec<(u8, i32)> = truth.into_iter().collect();
            prop_assert_eq!(got, want);
            prop_assert!(base.iter().all(|i| !i.deleted));
        }
    }
}
