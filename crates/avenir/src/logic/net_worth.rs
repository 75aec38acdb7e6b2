//! Net worth month by month (`docs/contract/reads.md` §17): every account's balance at the end of
//! each of the last months, rebuilt from today's balance less what was entered after that month.
//!
//! Accounts count by type: the debt types are debts whatever their sign, every other type is an
//! asset; tracking and closed accounts count too. Amounts stay integer milliunits.

use crate::months::{CalendarMonth, full_months_before};
use chrono::NaiveDate;
use ynab::models::{Account, Milliunits, TransactionSummary};

pub use super::accounts::{DEBT_TYPES, is_debt};
/// The figures at the end of one month.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MonthWorth {
    pub month: CalendarMonth,
    /// Sum of the asset accounts' balances.
    pub assets: Milliunits,
    /// Sum of the debt accounts' balances (negative when money is owed).
    pub debts: Milliunits,
    /// assets + debts.
    pub net_worth: Milliunits,
}

/// The trend over the months asked for.
#[derive(Debug, Clone, PartialEq)]
pub struct NetWorthTrend<'a> {
    /// Oldest first, exactly as many as asked, the current month last.
    pub months: Vec<MonthWorth>,
    pub first_net_worth: Milliunits,
    pub last_net_worth: Milliunits,
    /// last − first.
    pub change: Milliunits,
    /// The accounts named: open ones, and closed ones with a balance at one of the month ends,
    /// in YNAB's order.
    pub accounts: Vec<&'a Account>,
}

/// The last `count` calendar months ending with today's month, oldest first, whatever the plan's
/// age.
pub fn months_ending_now(today: NaiveDate, count: usize) -> Vec<CalendarMonth> {
    if count == 0 {
        return Vec::new();
    }
    let mut months = full_months_before(today, count - 1);
    months.push(CalendarMonth::of(today));
    months
}

/// Each non-deleted account's balance at the end of each month of `months` (oldest first): its
/// balance today less its transactions (not deleted) dated on or after the first day of the next
/// month. Dates compare as YNAB's `YYYY-MM-DD` text; a split counts by its parent's amount.
fn month_end_balances(
    accounts: &[Account],
    transactions: &[TransactionSummary],
    months: &[CalendarMonth],
) -> Vec<Vec<Milliunits>> {
    let bounds: Vec<String> = months.iter().map(|m| m.next().label()).collect();
    let live: Vec<&Account> = accounts.iter().filter(|a| !a.deleted).collect();
    // later[a][k]: the account's amounts dated on or after exactly k of the bounds.
    let mut later: Vec<Vec<Milliunits>> = vec![vec![0; bounds.len() + 1]; live.len()];
    for tx in transactions.iter().filter(|t| !t.deleted) {
        let Some(a) = live.iter().position(|a| a.id == tx.account_id) else {
            continue;
        };
        let passed = bounds.partition_point(|b| b.as_str() <= tx.date.as_str());
        if let Some(slot) = later.get_mut(a).and_then(|row| row.get_mut(passed)) {
            *slot = slot.saturating_add(tx.amount);
        }
    }
    live.iter()
        .zip(later)
        .map(|(account, buckets)| {
            // A transaction past k bounds is later than the ends of months 0..k.
            let mut after: Milliunits = 0;
            let mut ends = vec![0; months.len()];
            for i in (0..months.len()).rev() {
                after = after.saturating_add(buckets.get(i + 1).copied().unwrap_or(0));
                if let Some(end) = ends.get_mut(i) {
                    *end = account.balance.saturating_sub(after);
                }
            }
            ends
        })
        .collect()
}

/// Assets, debts and net worth at the end of each of the last `count` months (the current one
/// included), from today's balances of `accounts` and the plan's `transactions`.
pub fn net_worth_trend<'a>(
    accounts: &'a [Account],
    transactions: &[TransactionSummary],
    today: NaiveDate,
    count: usize,
) -> NetWorthTrend<'a> {
    let months = months_ending_now(today, count);
    let live: Vec<&'a Account> = accounts.iter().filter(|a| !a.deleted).collect();
    let balances = month_end_balances(accounts, transactions, &months);
    let rows: Vec<MonthWorth> = months
        .iter()
        .enumerate()
        .map(|(i, &month)| {
            let (mut assets, mut debts): (Milliunits, Milliunits) = (0, 0);
            for (account, ends) in live.iter().zip(&balances) {
                let end = ends.get(i).copied().unwrap_or(0);
                if is_debt(&account.kind) {
                    debts = debts.saturating_add(end);
                } else {
                    assets = assets.saturating_add(end);
                }
            }
            MonthWorth {
                month,
                assets,
                debts,
                net_worth: assets.saturating_add(debts),
            }
        })
        .collect();
    let first_net_worth = rows.first().map_or(0, |r| r.net_worth);
    let last_net_worth = rows.last().map_or(0, |r| r.net_worth);
    let named = live
        .iter()
        .zip(&balances)
        .filter(|(account, ends)| !account.closed || ends.iter().any(|b| *b != 0))
        .map(|(account, _)| *account)
        .collect();
    NetWorthTrend {
        months: rows,
        first_net_worth,
        last_net_worth,
        change: last_net_worth.saturating_sub(first_net_worth),
        accounts: named,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::fixtures::Fixture;
    use proptest::prelude::*;

    fn today() -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 9, 25).unwrap_or_default()
    }

    /// An account of YNAB type `kind` holding `balance` today.
    fn account<'a>(
        plan: &'a mut Fixture,
        id: &str,
        kind: &str,
        balance: Milliunits,
    ) -> &'a mut Account {
        let account = plan.account(id, id, kind == "checking");
        account.kind = kind.into();
        account.balance = balance;
        account
    }

    type Row = (String, Milliunits, Milliunits, Milliunits);

    fn rows(trend: &NetWorthTrend<'_>) -> Vec<Row> {
        trend
            .months
            .iter()
            .map(|m| (m.month.label(), m.assets, m.debts, m.net_worth))
            .collect()
    }

    fn names(trend: &NetWorthTrend<'_>) -> Vec<String> {
        trend.accounts.iter().map(|a| a.name.clone()).collect()
    }

    /// Worked example 1 of §17.
    #[test]
    fn a_salary_lifts_the_month_it_lands_in() {
        let mut plan = Fixture::new();
        account(&mut plan, "Checking", "checking", 3_000_000);
        plan.tx("t1", "2026-08-28", 2_000_000, "Checking", "ACME", None);
        let trend = net_worth_trend(&plan.plan.accounts, &plan.plan.transactions, today(), 3);
        assert_eq!(
            rows(&trend),
            vec![
                ("2026-07-01".into(), 1_000_000, 0, 1_000_000),
                ("2026-08-01".into(), 3_000_000, 0, 3_000_000),
                ("2026-09-01".into(), 3_000_000, 0, 3_000_000),
            ]
        );
    }

    /// Worked example 2 of §17: a loan paid from checking leaves net worth where it was.
    #[test]
    fn paying_a_loan_moves_money_between_assets_and_debts() {
        let mut plan = Fixture::new();
        account(&mut plan, "Checking", "checking", 1_200_000);
        account(&mut plan, "Loan", "autoLoan", -9_400_000);
        account(&mut plan, "Card", "creditCard", -250_500);
        for (n, month) in ["2026-08-10", "2026-09-10"].into_iter().enumerate() {
            plan.tx(&format!("c{n}"), month, -300_000, "Checking", "", None);
            plan.tx(&format!("l{n}"), month, 300_000, "Loan", "", None);
        }
        let trend = net_worth_trend(&plan.plan.accounts, &plan.plan.transactions, today(), 2);
        assert_eq!(
            rows(&trend),
            vec![
                ("2026-08-01".into(), 1_500_000, -9_950_500, -8_450_500),
                ("2026-09-01".into(), 1_200_000, -9_650_500, -8_450_500),
            ]
        );
        assert_eq!(trend.change, 0);
    }

    /// Worked example 3 of §17: a closed account is named while it had a balance.
    #[test]
    fn a_closed_loan_is_named_while_it_had_a_balance() {
        let mut plan = Fixture::new();
        account(&mut plan, "Checking", "checking", 500_000);
        account(&mut plan, "Student", "studentLoan", 0).closed = true;
        plan.tx("s", "2026-08-10", 250_000, "Student", "", None);
        plan.tx("c", "2026-08-10", -250_000, "Checking", "", None);
        let (accounts, txs) = (&plan.plan.accounts, &plan.plan.transactions);
        let three = net_worth_trend(accounts, txs, today(), 3);
        let debts: Vec<Milliunits> = three.months.iter().map(|m| m.debts).collect();
        assert_eq!(debts, [-250_000, 0, 0]);
        assert_eq!(names(&three), ["Checking", "Student"]);
        assert_eq!(
            names(&net_worth_trend(accounts, txs, today(), 1)),
            ["Checking"]
        );

        let mut plan = Fixture::new();
        account(&mut plan, "Checking", "checking", 1_500_000);
        account(&mut plan, "Card", "creditCard", -1_000_000);
        plan.tx("i", "2026-09-05", 1_500_000, "Checking", "ACME", None);
        let trend = net_worth_trend(&plan.plan.accounts, &plan.plan.transactions, today(), 2);
        assert_eq!(
            (trend.first_net_worth, trend.last_net_worth, trend.change),
            (-1_000_000, 500_000, 1_500_000)
        );
    }

    #[test]
    fn deleted_things_and_unknown_accounts_are_ignored() {
        let mut plan = Fixture::new();
        account(&mut plan, "Checking", "checking", 1_000_000);
        account(&mut plan, "Gone", "savings", 9_000_000).deleted = true;
        account(&mut plan, "Overdrawn", "checking", -50_000);
        account(&mut plan, "InCredit", "creditCard", 20_000);
        plan.tx("d", "2026-09-01", 400_000, "Checking", "", None)
            .deleted = true;
        plan.tx("g", "2026-09-01", 400_000, "Gone", "", None);
        plan.tx("u", "2026-09-01", 400_000, "nowhere", "", None);
        let trend = net_worth_trend(&plan.plan.accounts, &plan.plan.transactions, today(), 2);
        assert_eq!(
            rows(&trend),
            vec![
                ("2026-08-01".into(), 950_000, 20_000, 970_000),
                ("2026-09-01".into(), 950_000, 20_000, 970_000),
            ],
            "an overdrawn checking stays an asset, a card in credit a debt"
        );
        assert_eq!(names(&trend), ["Checking", "Overdrawn", "InCredit"]);
    }

    #[test]
    fn no_account_gives_rows_of_zero_and_months_cross_years() {
        let january = NaiveDate::from_ymd_opt(2027, 1, 4).unwrap_or_default();
        let trend = net_worth_trend(&[], &[], january, 3);
        assert_eq!(
            rows(&trend),
            vec![
                ("2026-11-01".into(), 0, 0, 0),
                ("2026-12-01".into(), 0, 0, 0),
                ("2027-01-01".into(), 0, 0, 0),
            ]
        );
        assert!(trend.accounts.is_empty());
        let none = net_worth_trend(&[], &[], january, 0);
        assert!(none.months.is_empty());
        assert_eq!((none.first_net_worth, none.change), (0, 0));
    }

    #[test]
    fn a_transaction_on_the_first_of_next_month_is_later() {
        let mut plan = Fixture::new();
        account(&mut plan, "Checking", "checking", 100_000);
        plan.tx("a", "2026-09-01", 30_000, "Checking", "", None);
        plan.tx("b", "2026-08-31", 20_000, "Checking", "", None);
        plan.tx("c", "2026-10-02", 5_000, "Checking", "", None);
        let trend = net_worth_trend(&plan.plan.accounts, &plan.plan.transactions, today(), 2);
        let worth: Vec<Milliunits> = trend.months.iter().map(|m| m.net_worth).collect();
        assert_eq!(
            worth,
            [65_000, 95_000],
            "dated after today's month counts later"
        );
    }

    const KINDS: [&str; 6] = [
        "checking",
        "savings",
        "otherAsset",
        "creditCard",
        "mortgage",
        "otherDebt",
    ];

    type Input = (
        Vec<(usize, Milliunits, bool, bool)>,
        Vec<(usize, u32, Milliunits, bool)>,
    );

    fn arb_plan() -> impl Strategy<Value = Input> {
        (
            proptest::collection::vec(
                (
                    0..KINDS.len(),
                    -5_000_000i64..5_000_000,
                    any::<bool>(),
                    any::<bool>(),
                ),
                0..6,
            ),
            proptest::collection::vec(
                (
                    0usize..7,
                    0u32..900,
                    -2_000_000i64..2_000_000,
                    any::<bool>(),
                ),
                0..40,
            ),
        )
    }

    fn build((accounts, txs): &Input) -> Fixture {
        let mut plan = Fixture::new();
        for (i, (kind, balance, closed, deleted)) in accounts.iter().enumerate() {
            let a = account(&mut plan, &format!("a{i}"), KINDS[*kind], *balance);
            a.closed = *closed;
            a.deleted = *deleted;
        }
        let start = NaiveDate::from_ymd_opt(2024, 6, 1).unwrap_or_default();
        for (n, (a, day, amount, deleted)) in txs.iter().enumerate() {
            let date = (start + chrono::Duration::days(i64::from(*day))).to_string();
            plan.tx(&format!("t{n}"), &date, *amount, &format!("a{a}"), "", None)
                .deleted = *deleted;
        }
        plan
    }

    proptest! {
        /// Net worth = assets + debts every month; the last month's figures are today's balances
        /// (nothing is dated after today); change = last − first; a month's net worth differs from
        /// the next one's by what was entered in that next month.
        #[test]
        fn figures_add_up(input in arb_plan(), count in 1usize..=24) {
            let plan = build(&input);
            let (accounts, txs) = (&plan.plan.accounts, &plan.plan.transactions);
            let today = NaiveDate::from_ymd_opt(2026, 11, 17).unwrap_or_default();
            let trend = net_worth_trend(accounts, txs, today, count);
            prop_assert_eq!(trend.months.len(), count);
            for m in &trend.months {
                prop_assert_eq!(m.net_worth, m.assets + m.debts);
            }
            let live = accounts.iter().filter(|a| !a.deleted);
            let today_sum: Milliunits = live.clone().map(|a| a.balance).sum();
            let today_debts: Milliunits =
                live.filter(|a| is_debt(&a.kind)).map(|a| a.balance).sum();
            let last = trend.months.last().copied();
            prop_assert_eq!(last.map(|m| m.net_worth), Some(today_sum));
            prop_assert_eq!(last.map(|m| m.debts), Some(today_debts));
            prop_assert_eq!(trend.last_net_worth, today_sum);
            prop_assert_eq!(trend.change, trend.last_net_worth - trend.first_net_worth);
            for pair in trend.months.windows(2) {
                let entered: Milliunits = txs
                    .iter()
                    .filter(|t| !t.deleted)
                    .filter(|t| accounts.iter().any(|a| !a.deleted && a.id == t.account_id))
                    .filter(|t| CalendarMonth::from_ynab(&t.date) == Some(pair[1].month))
                    .map(|t| t.amount)
                    .sum();
                prop_assert_eq!(pair[1].net_worth - pair[0].net_worth, entered);
            }
            for a in accounts.iter().filter(|a| !a.deleted && !a.closed) {
                prop_assert!(trend.accounts.iter().any(|n| n.id == a.id), "open accounts named");
            }
            prop_assert!(trend.accounts.iter().all(|a| !a.deleted));
        }
    }
}
