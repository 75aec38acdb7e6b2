//! Pure, synchronous functions over plan data: no I/O and no clock ("today" is passed in).
//! Tools call them and shape what they return; every rule with a constant lives here.

pub mod accounts;
pub mod age;
pub mod assignable;
pub mod assigned_side;
pub mod budget_month;
pub mod budget_plan;
pub mod categories;
pub mod category_edits;
pub mod category_merge;
pub mod charges;
pub mod chart;
pub mod classifier;
pub mod created;
pub mod cursor;
pub mod deletes;
pub mod exact;
pub mod field_key;
pub mod flags;
pub mod forecast;
pub mod index;
pub mod links;
pub mod merchant;
pub mod merges;
pub mod names;
pub mod net_worth;
pub mod new_account;
pub mod payees;
pub mod payoff;
pub mod pending;
pub mod period;
pub mod projection;
pub mod recategorised;
pub mod reconcile;
pub mod recurring;
pub mod rename;
pub mod runway;
pub mod savings;
pub mod schedule;
pub mod schedules;
pub mod search;
pub mod split;
pub mod split_edit;
pub mod statement_balance;
pub mod statement_match;
pub mod target_change;
pub mod targets;
pub mod trends;
pub mod undo;
pub mod updates;

#[cfg(test)]
pub(crate) mod fixtures;

/// The ids `ids` names more than once, sorted, each once: the writes refuse a request that names
/// one transaction, payee or category twice.
pub fn named_twice<'a>(ids: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    let twice: std::collections::BTreeSet<&str> =
        ids.into_iter().filter(|id| !seen.insert(*id)).collect();
    twice.into_iter().map(str::to_string).collect()
}
