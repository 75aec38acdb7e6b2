//! Reconciling an account with the bank (`docs/contract/writes.md` §9.6): the cleared balance
//! against the bank's, the gap, what could explain it, and what reconciling would mark.
//!
//! Pure: the account's transactions and "today" come in, integer milliunits come out; the tool
//! shapes the answer and asks before anything is written.

use super::assignable::{CategoryIndex, INTERNAL_GROUP};
use super::merchant::merchant;
use super::names::PlanNames;
use chrono::NaiveDate;
use ynab::models::{Milliunits, PlanDetail, TransactionSummary};

/// At most this many uncleared transactions are listed (all are counted).
pub const UNCLEARED_SHOWN: usize = 50;
/// The category an adjustment is given, in YNAB's internal group (F3).
const READY_TO_ASSIGN: &str = "Inflow: Ready to Assign";
/// Possible duplicates are looked for among the transactions of the last this many days.
pub const DUPLICATE_WINDOW_DAYS: i64 = 60;
/// Two charges at most this many days apart can be one charge imported twice.
pub const DUPLICATE_GAP_DAYS: i64 = 3;

/// An uncleared transaction (the payee as YNAB stores it: apply the display rule to show it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Uncleared<'a> {
    pub transaction_id: &'a str,
    pub date: &'a str,
    pub amount: Milliunits,
    pub payee: &'a str,
}

/// The account against the bank's balance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analysis<'a> {
    pub bank_balance: Milliunits,
    /// Transactions `cleared` or `reconciled`.
    pub cleared_balance: Milliunits,
    /// Every transaction.
    pub working_balance: Milliunits,
    /// Bank minus cleared: negative when YNAB counts more money than the bank.
    pub difference: Milliunits,
    /// Ids of the transactions exactly `cleared`, sorted: what reconciling marks.
    pub to_reconcile: Vec<String>,
    pub uncleared_count: usize,
    /// The first [`UNCLEARED_SHOWN`] uncleared ones, in the plan's order.
    pub uncleared: Vec<Uncleared<'a>>,
    /// Uncleared transactions whose amount is exactly the difference.
    pub explained_by: Vec<String>,
    /// `[older, newer]` pairs that look like one charge recorded twice.
    pub possible_duplicates: Vec<[String; 2]>,
}

/// What reconciling with that balance comes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// A gap and no adjustment asked: explain it, change nothing.
    DifferenceFound,
    /// No gap, nothing cleared left to mark.
    AlreadyReconciled,
    /// Mark the cleared transactions reconciled, after an adjustment of this amount (0: none).
    Reconcile { adjustment: Milliunits },
}

impl Analysis<'_> {
    /// The outcome of §9.6, first match wins; an adjustment only when asked and a gap remains.
    pub fn verdict(&self, adjust: bool) -> Verdict {
        if self.difference != 0 && !adjust {
            Verdict::DifferenceFound
        } else if self.difference == 0 && self.to_reconcile.is_empty() {
            Verdict::AlreadyReconciled
        } else {
            Verdict::Reconcile {
                adjustment: self.difference,
            }
        }
    }
}

/// The analysis of `account_id` (its non-deleted transactions) against `bank_balance`.
pub fn analyse<'a>(
    plan: &'a PlanDetail,
    account_id: &str,
    bank_balance: Milliunits,
    today: NaiveDate,
) -> Analysis<'a> {
    let names = PlanNames::new(plan);
    let transactions: Vec<_> = plan
        .transactions
        .iter()
        .filter(|t| t.account_id == account_id && !t.deleted)
        .collect();
    let is_cleared = |status: &str| status == "cleared" || status == "reconciled";
    let cleared_balance = transactions
        .iter()
        .filter(|t| is_cleared(&t.cleared))
        .map(|t| t.amount)
        .sum::<Milliunits>();
    let working_balance = transactions.iter().map(|t| t.amount).sum();
    let difference = bank_balance - cleared_balance;
    let mut to_reconcile: Vec<String> = transactions
        .iter()
        .filter(|t| t.cleared == "cleared")
        .map(|t| t.id.to_string())
        .collect();
    to_reconcile.sort();
    let uncleared_all: Vec<_> = transactions
        .iter()
        .filter(|t| !is_cleared(&t.cleared))
        .collect();
    let explained_by = if difference == 0 {
        Vec::new()
    } else {
        uncleared_all
            .iter()
            .filter(|t| t.amount == difference)
            .map(|t| t.id.to_string())
            .collect()
    };
    let uncleared = uncleared_all
        .iter()
        .take(UNCLEARED_SHOWN)
        .map(|t| Uncleared {
            transaction_id: &t.id,
            date: &t.date,
            amount: t.amount,
            payee: names.payee(t.payee_id.as_deref()),
        })
        .collect();
    let possible_duplicates = possible_duplicates(&names, &transactions, today);
    Analysis {
        bank_balance,
        cleared_balance,
        working_balance,
        difference,
        to_reconcile,
        uncleared_count: uncleared_all.len(),
        uncleared,
        explained_by,
        possible_duplicates,
    }
}

/// Pairs of recent transactions with the same amount and merchant a few days apart, oldest
/// first.
fn possible_duplicates(
    names: &PlanNames<'_>,
    transactions: &[&TransactionSummary],
    today: NaiveDate,
) -> Vec<[String; 2]> {
    let since = today - chrono::Duration::days(DUPLICATE_WINDOW_DAYS);
    let mut recent: Vec<(NaiveDate, Milliunits, String, &str)> = transactions
        .iter()
        .filter_map(|t| {
            let day = NaiveDate::parse_from_str(&t.date, "%Y-%m-%d").ok()?;
            (day >= since).then(|| {
                (
                    day,
                    t.amount,
                    merchant(names.payee(t.payee_id.as_deref())),
                    t.id.as_str(),
                )
            })
        })
        .collect();
    recent.sort_by_key(|r| r.0);
    let mut possible_duplicates = Vec::new();
    for (i, older) in recent.iter().enumerate() {
        for newer in &recent[i + 1..] {
            if (newer.0 - older.0).num_days() > DUPLICATE_GAP_DAYS {
                break;
            }
            if newer.1 == older.1 && newer.2 == older.2 {
                possible_duplicates.push([older.3.to_string(), newer.3.to_string()]);
            }
        }
    }
    possible_duplicates
}

/// The id of `Inflow: Ready to Assign` in YNAB's internal group, when visible (F3): where an
/// adjustment goes.
pub fn ready_to_assign(plan: &PlanDetail) -> Option<String> {
    let index = CategoryIndex::new(&plan.category_groups, &plan.categories);
    plan.categories
        .iter()
        .filter(|c| c.name == READY_TO_ASSIGN && index.is_visible(&c.id))
        .find(|c| {
            plan.category_groups
                .iter()
                .find(|g| g.id == c.category_group_id)
                .map(|g| g.name.as_str())
                .or(c.category_group_name.as_deref())
                == Some(INTERNAL_GROUP)
        })
        .map(|c| c.id.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::fixtures::Fixture;

    fn today() -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 9, 25).expect("a date")
    }

    /// The checking account of `docs/contract/writes.md` §14.4.
    fn fixture() -> Fixture {
        let mut f = Fixture::new();
        f.account("acc", "Checking", true);
        f.account("other", "Savings", true);
        f.tx("tx-101", "2026-08-30", 250_000, "acc", "SALARY ACME", None)
            .cleared = "reconciled".into();
        f.tx("tx-102", "2026-09-03", -30_000, "acc", "MARKET FRESH", None);
        f.tx("tx-103", "2026-09-20", -5_000, "acc", "RAIL CO", None)
            .cleared = "uncleared".into();
        f.tx(
            "tx-104",
            "2026-09-21",
            -12_340,
            "acc",
            "CB STREAMFLIX FACT 210926",
            None,
        );
        f.tx(
            "tx-105",
            "2026-09-22",
            -12_340,
            "acc",
            "CB STREAMFLIX FACT 220926",
            None,
        )
        .cleared = "uncleared".into();
        f.tx("tx-900", "2026-09-22", -12_340, "other", "STREAMFLIX", None);
        f.tx("tx-901", "2026-09-22", -5_000, "acc", "GONE", None)
            .deleted = true;
        f
    }

    #[test]
    fn example_14_4_explains_the_gap() {
        let f = fixture();
        let a = analyse(&f.plan, "acc", 202_660, today());
        assert_eq!(a.cleared_balance, 207_660);
        assert_eq!(a.working_balance, 190_320);
        assert_eq!(a.difference, -5_000);
        assert_eq!(a.to_reconcile, ["tx-102", "tx-104"]);
        assert_eq!(a.uncleared_count, 2);
        assert_eq!(
            a.uncleared,
            [
                Uncleared {
                    transaction_id: "tx-103",
                    date: "2026-09-20",
                    amount: -5_000,
                    payee: "RAIL CO"
                },
                Uncleared {
                    transaction_id: "tx-105",
                    date: "2026-09-22",
                    amount: -12_340,
                    payee: "CB STREAMFLIX FACT 220926"
                }
            ]
        );
        assert_eq!(a.explained_by, ["tx-103"]);
        assert_eq!(
            a.possible_duplicates,
            [["tx-104".to_string(), "tx-105".to_string()]]
        );
        assert_eq!(a.verdict(false), Verdict::DifferenceFound);
        assert_eq!(a.verdict(true), Verdict::Reconcile { adjustment: -5_000 });
    }

    #[test]
    fn verdicts() {
        let mut f = fixture();
        for t in &mut f.plan.transactions {
            if t.id == "tx-103" {
                t.cleared = "cleared".into();
            }
            if t.id == "tx-105" {
                t.deleted = true;
            }
        }
        let a = analyse(&f.plan, "acc", 202_660, today());
        assert_eq!(a.difference, 0);
        assert!(a.explained_by.is_empty());
        assert_eq!(a.to_reconcile, ["tx-102", "tx-103", "tx-104"]);
        assert_eq!(a.verdict(false), Verdict::Reconcile { adjustment: 0 });
        assert_eq!(a.verdict(true), Verdict::Reconcile { adjustment: 0 });
        for t in &mut f.plan.transactions {
            if t.cleared == "cleared" {
                t.cleared = "reconciled".into();
            }
        }
        let a = analyse(&f.plan, "acc", 202_660, today());
        assert_eq!(a.verdict(true), Verdict::AlreadyReconciled);
        let a = analyse(&f.plan, "acc", 200_000, today());
        assert_eq!(a.verdict(false), Verdict::DifferenceFound);
        assert_eq!(a.verdict(true), Verdict::Reconcile { adjustment: -2_660 });
    }

    #[test]
    fn duplicates_stay_within_the_window_and_the_gap() {
        let mut f = Fixture::new();
        f.account("acc", "Checking", true);
        f.tx("old-1", "2026-07-01", -1_000, "acc", "SHOP", None);
        f.tx("old-2", "2026-07-01", -1_000, "acc", "SHOP", None);
        f.tx(
            "a",
            "2026-09-01",
            -1_000,
            "acc",
            "CB SHOP FACT 010926",
            None,
        );
        f.tx("b", "2026-09-04", -1_000, "acc", "SHOP", None);
        f.tx("c", "2026-09-08", -1_000, "acc", "SHOP", None);
        f.tx("d", "2026-09-02", -2_000, "acc", "SHOP", None);
        f.tx("e", "2026-09-03", -1_000, "acc", "", None);
        let a = analyse(&f.plan, "acc", 0, today());
        assert_eq!(a.possible_duplicates, [["a".to_string(), "b".to_string()]]);
    }
}
