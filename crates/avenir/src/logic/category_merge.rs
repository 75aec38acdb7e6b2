//! Merging one category into another (`docs/writes/merge_categories.md`): which categories may
//! be merged, and what moves from the source — its transactions, the split transactions with a
//! line in it (recreated with that line's category changed, as `edit_split` recreates a split:
//! [`super::split_edit::recreated`]), its schedules, and its assigned amount in every month where
//! it is not zero — and what cannot move through YNAB's API and is named instead of skipped.
//!
//! Pure: nothing here reads or writes YNAB.

use super::assignable::{CategoryIndex, Role};
use super::split_edit::recreated;
use ynab::models::{
    Category, Milliunits, PlanDetail, ScheduledTransactionSummary, SubTransaction,
    TransactionSummary,
};
use ynab::writes::{NewSubTransaction, NewTransaction, ScheduleSave};

/// One month's assigned amounts before the merge: the source's goes to the target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MonthMove {
    /// `YYYY-MM-01`.
    pub month: String,
    pub source_before: Milliunits,
    pub target_before: Milliunits,
}

impl MonthMove {
    /// The target's assigned amount once the source's is added.
    pub fn target_after(&self) -> Milliunits {
        self.target_before + self.source_before
    }
}

/// A split with at least one line in the source, and how it is created again.
#[derive(Debug, Clone, PartialEq)]
pub struct SplitMove<'p> {
    pub transaction: &'p TransactionSummary,
    pub lines: Vec<&'p SubTransaction>,
    /// How many of its lines are in the source.
    pub moved_lines: usize,
}

impl SplitMove<'_> {
    /// The transaction created again with its source lines in `target`: every other field and
    /// line kept (payee, memo, amount), its id and bank-import link lost.
    pub fn recreation(&self, source: &str, target: &str) -> NewTransaction {
        let lines = self
            .lines
            .iter()
            .map(|l| NewSubTransaction {
                amount: l.amount,
                payee_id: l.payee_id.clone(),
                payee_name: None,
                category_id: if l.category_id.as_deref() == Some(source) {
                    Some(target.to_string())
                } else {
                    l.category_id.clone()
                },
                memo: l.memo.clone().filter(|m| !m.is_empty()),
            })
            .collect();
        recreated(self.transaction, lines)
    }
}

/// A merge that passed every check (names as stored: apply the display rule to show them).
#[derive(Debug, Clone, PartialEq)]
pub struct CategoryMerge<'p> {
    pub source: &'p Category,
    pub target: &'p Category,
    pub transactions: Vec<&'p TransactionSummary>,
    pub splits: Vec<SplitMove<'p>>,
    pub scheduled: Vec<&'p ScheduledTransactionSummary>,
    /// Months where the source has a non-zero assigned amount, oldest first.
    pub months: Vec<MonthMove>,
    /// Split lines in the source that cannot be moved (a transfer split: recreating it would
    /// recreate the transfer).
    pub lines_not_moved: usize,
    /// Schedules in the source a `PUT` cannot save as they are: split schedules or their lines,
    /// and schedules whose next date is not in the future.
    pub scheduled_not_moved: usize,
}

impl CategoryMerge<'_> {
    /// The assigned amount moved, all months together.
    pub fn assigned_total(&self) -> Milliunits {
        self.months.iter().map(|m| m.source_before).sum()
    }

    /// Split lines that move.
    pub fn lines_moved(&self) -> usize {
        self.splits.iter().map(|s| s.moved_lines).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.transactions.is_empty()
            && self.splits.is_empty()
            && self.scheduled.is_empty()
            && self.months.is_empty()
    }
}

/// Why `id` cannot take part in a merge, if it cannot (`side` is `source_category_id` or
/// `target_category_id`).
fn refusal(plan: &PlanDetail, index: &CategoryIndex, id: &str, side: &str) -> Option<String> {
    match plan.categories.iter().find(|c| c.id == id) {
        None => {
            return Some(format!(
                "Category {id} ({side}) is not in this plan: use a category_id from get_category_balances."
            ));
        }
        Some(c) if c.deleted => {
            return Some(format!(
                "Category {id} ({side}) was deleted in YNAB: choose a category still in the plan, from get_category_balances."
            ));
        }
        Some(_) => {}
    }
    match index.role(id) {
        Some(Role::ReadyToAssign | Role::Uncategorized | Role::Internal) => Some(format!(
            "Category {id} ({side}) is one of YNAB's own (such as Inflow: Ready to Assign): it cannot be merged. Choose categories of your own, from get_category_balances."
        )),
        Some(Role::CreditCardPayment) => Some(format!(
            "Category {id} ({side}) pays a credit card: its money follows the card's account, so it cannot be merged. Choose categories of your own, from get_category_balances."
        )),
        _ => None,
    }
}

/// Check merging `source` into `target` against the plan; `months` are the plan's months with
/// their categories (`YYYY-MM-01`, the month's categories); `today` (`YYYY-MM-DD`) tells which
/// schedules YNAB would still save. The first rule broken is the tool's message.
pub fn plan_category_merge<'p>(
    plan: &'p PlanDetail,
    months: &[(String, Vec<Category>)],
    source: &str,
    target: &str,
    today: &str,
) -> Result<CategoryMerge<'p>, String> {
    if source == target {
        return Err(format!(
            "source_category_id and target_category_id are both {source}: choose two different categories."
        ));
    }
    let index = CategoryIndex::new(&plan.category_groups, &plan.categories);
    for (id, side) in [
        (source, "source_category_id"),
        (target, "target_category_id"),
    ] {
        if let Some(message) = refusal(plan, &index, id, side) {
            return Err(message);
        }
    }
    let category = |id: &str| plan.categories.iter().find(|c| c.id == id && !c.deleted);
    let (Some(source_category), Some(target_category)) = (category(source), category(target))
    else {
        return Err(format!(
            "Category {source} or {target} is not in this plan: use a category_id from get_category_balances."
        ));
    };
    let in_source = |c: Option<&str>| c == Some(source);
    let (transactions, splits, lines_not_moved) = transactions_moved(plan, source);
    let is_split = |s: &ScheduledTransactionSummary| {
        plan.scheduled_subtransactions
            .iter()
            .any(|l| !l.deleted && l.scheduled_transaction_id == s.id)
    };
    let (scheduled, unsaveable): (Vec<_>, Vec<_>) = plan
        .scheduled_transactions
        .iter()
        .filter(|s| !s.deleted && in_source(s.category_id.as_deref()))
        .partition(|s| !is_split(s) && s.date_next.as_str() > today);
    let scheduled_lines = plan
        .scheduled_subtransactions
        .iter()
        .filter(|l| !l.deleted && in_source(l.category_id.as_deref()))
        .count();
    let month_moves = month_moves(months, source, target);
    let merge = CategoryMerge {
        source: source_category,
        target: target_category,
        transactions,
        splits,
        scheduled,
        months: month_moves,
        lines_not_moved,
        scheduled_not_moved: unsaveable.len() + scheduled_lines,
    };
    if merge.is_empty() {
        return Err(format!(
            "Category {source} has nothing to move: no transaction, split line, schedule the API can save, or assigned amount is in it. To remove it, hide it in YNAB's app."
        ));
    }
    Ok(merge)
}

/// The transactions in `source`, the splits with lines in it (a split with a transfer line is
/// left alone, its lines counted as not moved) and how many lines are not moved.
fn transactions_moved<'p>(
    plan: &'p PlanDetail,
    source: &str,
) -> (Vec<&'p TransactionSummary>, Vec<SplitMove<'p>>, usize) {
    let in_source = |c: Option<&str>| c == Some(source);
    let split_lines = super::names::SplitLines::new(&plan.subtransactions);
    let mut transactions = Vec::new();
    let mut splits = Vec::new();
    let mut lines_not_moved = 0;
    for t in plan.transactions.iter().filter(|t| !t.deleted) {
        let lines: Vec<&SubTransaction> = split_lines.live(&t.id).collect();
        if lines.is_empty() {
            if in_source(t.category_id.as_deref()) {
                transactions.push(t);
            }
            continue;
        }
        let moved_lines = lines
            .iter()
            .filter(|l| in_source(l.category_id.as_deref()))
            .count();
        if moved_lines == 0 {
            continue;
        }
        if t.transfer_account_id.is_some() || lines.iter().any(|l| l.transfer_account_id.is_some())
        {
            lines_not_moved += moved_lines;
            continue;
        }
        splits.push(SplitMove {
            transaction: t,
            lines,
            moved_lines,
        });
    }
    (transactions, splits, lines_not_moved)
}

/// The months that assign something to `source`, in order, with both categories' amounts.
fn month_moves(months: &[(String, Vec<Category>)], source: &str, target: &str) -> Vec<MonthMove> {
    let mut month_moves: Vec<MonthMove> = months
        .iter()
        .filter_map(|(month, categories)| {
            let budgeted = |id: &str| {
                categories
                    .iter()
                    .find(|c| c.id == id)
                    .map_or(0, |c| c.budgeted)
            };
            let source_before = budgeted(source);
            (source_before != 0).then(|| MonthMove {
                month: month.clone(),
                source_before,
                target_before: budgeted(target),
            })
        })
        .collect();
    month_moves.sort_by(|a, b| a.month.cmp(&b.month));
    month_moves
}

/// A schedule as a `PUT` saves it again with `category_id` (the full object,
/// `docs/contract/server.md` §10.8).
pub fn scheduled_save(s: &ScheduledTransactionSummary, category_id: &str) -> ScheduleSave {
    ScheduleSave {
        category_id: Some(category_id.to_string()),
        ..super::schedules::save_of(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::fixtures::Fixture;

    fn fixture() -> Fixture {
        let mut f = Fixture::new();
        f.account("acc", "Checking", true);
        f.group("g-int", "Internal Master Category");
        f.category("c-rta", "g-int", "Inflow: Ready to Assign");
        f.group("g-day", "Everyday");
        f.category("c-tennis", "g-day", "Tennis");
        f.category("c-sport", "g-day", "Sport");
        f.category("c-food", "g-day", "Groceries");
        f.category("c-empty", "g-day", "Empty");
        f.group("g-cc", "Credit Card Payments");
        f.category("c-visa", "g-cc", "Visa");
        f.tx("t1", "2026-09-12", -1_000, "acc", "Club", Some("c-tennis"));
        f.tx("t2", "2026-09-13", -2_000, "acc", "Shop", Some("c-food"));
        f.tx("sp", "2026-09-14", -3_000, "acc", "Shop", None);
        f.line("sp", -1_000, Some("c-tennis"), false);
        f.line("sp", -2_000, Some("c-food"), false);
        f
    }

    fn months(f: &Fixture) -> Vec<(String, Vec<Category>)> {
        let mut june = f.plan.categories.clone();
        for c in &mut june {
            c.budgeted = match c.id.as_str() {
                "c-tennis" => 22_000,
                "c-sport" => 5_000,
                _ => 0,
            };
        }
        let mut july = june.clone();
        for c in &mut july {
            if c.id == "c-tennis" {
                c.budgeted = 0;
            }
        }
        vec![("2026-07-01".into(), july), ("2026-06-01".into(), june)]
    }

    #[test]
    fn what_moves_is_counted_per_kind() {
        let f = fixture();
        let merge = plan_category_merge(&f.plan, &months(&f), "c-tennis", "c-sport", "2026-09-20")
            .expect("valid");
        assert_eq!(merge.transactions.len(), 1);
        assert_eq!(merge.transactions[0].id, "t1");
        assert_eq!(merge.splits.len(), 1);
        assert_eq!(merge.lines_moved(), 1);
        assert_eq!(
            merge.months,
            vec![MonthMove {
                month: "2026-06-01".into(),
                source_before: 22_000,
                target_before: 5_000
            }]
        );
        assert_eq!(merge.months[0].target_after(), 27_000);
        let new = merge.splits[0].recreation("c-tennis", "c-sport");
        let categories: Vec<_> = new
            .subtransactions
            .iter()
            .map(|l| l.category_id.as_deref())
            .collect();
        assert_eq!(categories, vec![Some("c-sport"), Some("c-food")]);
        assert_eq!(new.amount, -3_000);
        assert_eq!(new.import_id, None);
    }

    #[test]
    fn refusals_run_in_order() {
        let f = fixture();
        let m = months(&f);
        let t = "2026-09-20";
        let refused = |s: &str, g: &str| plan_category_merge(&f.plan, &m, s, g, t).expect_err(s);
        assert!(refused("c-tennis", "c-tennis").starts_with("source_category_id and target"));
        assert!(
            refused("nope", "c-sport").starts_with("Category nope (source_category_id) is not")
        );
        assert!(refused("c-tennis", "nope").starts_with("Category nope (target_category_id)"));
        assert!(refused("c-rta", "c-sport").contains("one of YNAB's own"));
        assert!(refused("c-tennis", "c-visa").contains("pays a credit card"));
        assert!(refused("c-empty", "c-food").contains("has nothing to move"));
    }
}
