//! Splitting a transaction across categories (`docs/contract/writes.md` §9.9): whether the
//! transaction can be split, whether each line can be given its category, and whether the lines add
//! up.
//!
//! Pure: the checks run in the spec's order on the plan as read, and the first one broken is the
//! message the tool returns; nothing is written by this module.

use super::assignable::{CategoryIndex, Role};
use super::names::{PlanNames, SplitLines};
use crate::money::MoneyFormat;
use ynab::models::{Milliunits, PlanDetail, TransactionSummary};

/// A line as asked for (`memo` `None` when absent or empty).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineAsked {
    pub amount: Milliunits,
    pub category_id: String,
    pub memo: Option<String>,
}

/// A line checked against the plan, with its category's name as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line<'a> {
    pub amount: Milliunits,
    pub category_id: String,
    pub category: &'a str,
    pub memo: Option<String>,
}

/// A split that passed every check (names as stored: apply the display rule to show them).
#[derive(Debug, Clone, PartialEq)]
pub struct Split<'a> {
    pub transaction: &'a TransactionSummary,
    pub payee: &'a str,
    /// The visible category the transaction has now, if any.
    pub from_category: Option<&'a str>,
    pub lines: Vec<Line<'a>>,
}

/// Check a split of `transaction_id` into `lines` (§9.9, in its order).
pub fn check<'a>(
    plan: &'a PlanDetail,
    transaction_id: &str,
    lines: &[LineAsked],
    fmt: &MoneyFormat,
) -> Result<Split<'a>, String> {
    let tx_id = transaction_id;
    let Some(tx) = plan.transactions.iter().find(|t| t.id == tx_id) else {
        return Err(format!(
            "Transaction {tx_id} is not in this plan: use a transaction_id returned by suggest_categories."
        ));
    };
    if tx.deleted {
        return Err(format!(
            "Transaction {tx_id} was deleted in YNAB: there is nothing to split."
        ));
    }
    if SplitLines::new(&plan.subtransactions).is_split(tx_id) {
        return Err(format!(
            "Transaction {tx_id} is already split: to replace its lines, use edit_split (YNAB recreates it with a new id)."
        ));
    }
    let on_budget = |account_id: &str| {
        plan.accounts
            .iter()
            .find(|a| a.id == account_id)
            .is_some_and(|a| a.on_budget)
    };
    // A transfer can be split only when it leaves the budget for a tracking account.
    if let Some(other) = tx.transfer_account_id.as_deref()
        && (!on_budget(&tx.account_id) || on_budget(other))
    {
        return Err(format!(
            "Transaction {tx_id} is a transfer between accounts: it cannot be split."
        ));
    }
    if !on_budget(&tx.account_id) {
        return Err(format!(
            "Transaction {tx_id} is on an off-budget account: YNAB does not split those."
        ));
    }
    if lines.len() < 2 {
        return Err(
            "Give at least two lines: to give the whole transaction one category, use apply_categories."
                .into(),
        );
    }
    let checked = check_lines(plan, lines, tx.amount, fmt)?;
    let index = CategoryIndex::new(&plan.category_groups, &plan.categories);
    let names = PlanNames::new(plan);
    Ok(Split {
        transaction: tx,
        payee: names.payee(tx.payee_id.as_deref()),
        from_category: tx
            .category_id
            .as_deref()
            .and_then(|id| index.visible_name(id)),
        lines: checked,
    })
}

/// Check the lines of a split of a transaction of `amount` (§9.9's line rules, in order: each
/// line not zero, its category real, visible and not a credit-card payment; then the sum). Shared
/// by `split_transaction` and `edit_split`.
pub fn check_lines<'a>(
    plan: &'a PlanDetail,
    lines: &[LineAsked],
    amount: Milliunits,
    fmt: &MoneyFormat,
) -> Result<Vec<Line<'a>>, String> {
    let index = CategoryIndex::new(&plan.category_groups, &plan.categories);
    let mut checked = Vec::with_capacity(lines.len());
    for line in lines {
        let cat_id = &line.category_id;
        if line.amount == 0 {
            return Err("A line is zero: leave it out.".into());
        }
        if index.is_uncategorized(cat_id) {
            return Err(format!(
                "Category {cat_id} is YNAB's internal Uncategorized: choose a real category."
            ));
        }
        let Some(name) = index.visible_name(cat_id) else {
            return Err(format!(
                "Category {cat_id} is not in this plan: use a category_id from suggest_categories or get_category_balances."
            ));
        };
        if index.role(cat_id) == Some(Role::CreditCardPayment) {
            return Err(format!(
                "Category {cat_id} pays a credit card: YNAB ignores it on a transaction. Choose the category of what was paid for."
            ));
        }
        checked.push(Line {
            amount: line.amount,
            category_id: cat_id.clone(),
            category: name,
            memo: line.memo.clone(),
        });
    }
    let total: Milliunits = lines.iter().map(|l| l.amount).sum();
    if total != amount {
        return Err(format!(
            "The lines add up to {}, the transaction is {}: they must match to the cent.",
            fmt.plain(total),
            fmt.plain(amount)
        ));
    }
    Ok(checked)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::fixtures::Fixture;

    fn fixture() -> Fixture {
        let mut f = Fixture::new();
        f.account("acc", "Checking", true);
        f.account("track", "Brokerage", false);
        f.account("save", "Savings", true);
        f.group("g-int", "Internal Master Category");
        f.category("c-unc", "g-int", "Uncategorized");
        f.group("g-day", "Everyday");
        f.category("c-food", "g-day", "Groceries");
        f.category("c-home", "g-day", "Household");
        f.category("c-old", "g-day", "Old").hidden = true;
        f.group("g-cc", "Credit Card Payments");
        f.category("c-visa", "g-cc", "Visa");
        f.tx("tx", "2026-09-12", -86_400, "acc", "Organic Market", None);
        f.tx("gone", "2026-09-12", -1_000, "acc", "X", None).deleted = true;
        f.tx("split", "2026-09-12", -1_000, "acc", "X", None);
        f.line("split", -1_000, Some("c-food"), false);
        f.tx(
            "was-split",
            "2026-09-12",
            -1_000,
            "acc",
            "X",
            Some("c-food"),
        );
        f.line("was-split", -1_000, Some("c-food"), true);
        f.tx("to-save", "2026-09-12", -1_000, "acc", "", None)
            .transfer_account_id = Some("save".into());
        f.tx("to-track", "2026-09-12", -1_000, "acc", "", None)
            .transfer_account_id = Some("track".into());
        f.tx("tracked", "2026-09-12", -1_000, "track", "X", None);
        f
    }

    fn line(amount: Milliunits, category: &str) -> LineAsked {
        LineAsked {
            amount,
            category_id: category.into(),
            memo: None,
        }
    }

    fn error(tx: &str, lines: &[LineAsked]) -> String {
        let f = fixture();
        check(&f.plan, tx, lines, &MoneyFormat::default()).expect_err("refused")
    }

    #[test]
    fn example_14_5() {
        let f = fixture();
        let lines = [
            line(-81_150, "c-food"),
            LineAsked {
                memo: Some("Dish soap".into()),
                ..line(-5_250, "c-home")
            },
        ];
        let split = check(&f.plan, "tx", &lines, &MoneyFormat::default()).expect("valid");
        assert_eq!(split.payee, "Organic Market");
        assert_eq!(split.from_category, None);
        assert_eq!(split.lines[0].category, "Groceries");
        assert_eq!(split.lines[1].memo.as_deref(), Some("Dish soap"));
        assert_eq!(
            error("tx", &[line(-81_150, "c-food"), line(-4_000, "c-home")]),
            "The lines add up to -85.15, the transaction is -86.40: they must match to the cent."
        );
    }

    #[test]
    fn every_refusal_in_order() {
        let two = [line(-500, "c-food"), line(-500, "c-home")];
        assert_eq!(
            error("nope", &two),
            "Transaction nope is not in this plan: use a transaction_id returned by suggest_categories."
        );
        assert_eq!(
            error("gone", &two),
            "Transaction gone was deleted in YNAB: there is nothing to split."
        );
        assert_eq!(
            error("split", &two),
            "Transaction split is already split: to replace its lines, use edit_split (YNAB recreates it with a new id)."
        );
        assert_eq!(
            error("to-save", &two),
            "Transaction to-save is a transfer between accounts: it cannot be split."
        );
        assert_eq!(
            error("tracked", &two),
            "Transaction tracked is on an off-budget account: YNAB does not split those."
        );
        assert_eq!(
            error("tx", &[line(-86_400, "c-food")]),
            "Give at least two lines: to give the whole transaction one category, use apply_categories."
        );
        assert_eq!(
            error("tx", &[line(-86_400, "c-food"), line(0, "nope")]),
            "A line is zero: leave it out."
        );
        assert_eq!(
            error("tx", &[line(-86_400, "c-unc"), line(1, "c-food")]),
            "Category c-unc is YNAB's internal Uncategorized: choose a real category."
        );
        for unknown in ["nope", "c-old"] {
            assert_eq!(
                error("tx", &[line(-86_400, "c-food"), line(1, unknown)]),
                format!(
                    "Category {unknown} is not in this plan: use a category_id from suggest_categories or get_category_balances."
                )
            );
        }
        assert_eq!(
            error("tx", &[line(-86_400, "c-visa"), line(1, "c-food")]),
            "Category c-visa pays a credit card: YNAB ignores it on a transaction. Choose the category of what was paid for."
        );
    }

    #[test]
    fn what_can_be_split() {
        let f = fixture();
        let fmt = MoneyFormat::default();
        // a deleted line does not make a split; opposite signs are fine
        let lines = [line(-2_000, "c-food"), line(1_000, "c-food")];
        assert!(check(&f.plan, "was-split", &lines, &fmt).is_ok());
        // a transfer to a tracking account is an outflow of the budget: it can be split
        assert!(check(&f.plan, "to-track", &lines, &fmt).is_ok());
    }
}
