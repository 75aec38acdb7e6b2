//! Tests of the savings rate: the worked examples of `docs/contract/reads.md` §19 on small
//! fixtures, and properties that hold for any plan (saved = income + spending, tracking accounts
//! never read).

use super::*;
use crate::logic::fixtures::Fixture;
use proptest::prelude::*;

fn today() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 9, 25).unwrap_or_default()
}

/// The accounts and categories of §19's worked examples.
fn plan() -> Fixture {
    let mut f = Fixture::new();
    f.account("checking", "Checking", true);
    f.account("savings", "Savings", true).kind = "savings".into();
    f.account("card", "Card", true).kind = "creditCard".into();
    f.account("brokerage", "Brokerage", false).kind = "otherAsset".into();
    f.account("joint", "Joint", false).kind = "savings".into();
    f.account("mortgage", "Mortgage", false).kind = "mortgage".into();
    f.group("g-internal", INTERNAL_GROUP);
    f.group("g-bills", "Bills");
    f.category("cat-inflow", "g-internal", "Inflow: Ready to Assign");
    f.category("cat-none", "g-internal", "Uncategorized");
    f.category("cat-rent", "g-bills", "Rent");
    f.category("cat-food", "g-bills", "Food");
    f
}

/// A transfer of `amount` from `from` to `to` (both sides, as YNAB records it).
fn transfer(f: &mut Fixture, id: &str, date: &str, amount: Milliunits, from: &str, to: &str) {
    f.tx(id, date, amount, from, "", None).transfer_account_id = Some(to.into());
    f.tx(&format!("{id}-other"), date, -amount, to, "", None)
        .transfer_account_id = Some(from.into());
}

fn salary_and_rent(f: &mut Fixture, months: &[&str]) {
    for m in months {
        let salary = format!("salary-{m}");
        f.tx(
            &salary,
            &format!("2026-{m}-28"),
            3_000_000,
            "checking",
            "ACME",
            Some("cat-inflow"),
        );
        let rent = format!("rent-{m}");
        f.tx(
            &rent,
            &format!("2026-{m}-03"),
            -1_000_000,
            "checking",
            "LANDLORD",
            Some("cat-rent"),
        );
    }
}

fn rates(s: &SavingsRate) -> Vec<(String, Option<i64>)> {
    s.months
        .iter()
        .map(|m| (m.month.label(), m.rate_tenths))
        .collect()
}

/// Worked example 1 of §19.
#[test]
fn three_months_with_a_best_and_a_worst() {
    let mut f = plan();
    salary_and_rent(&mut f, &["06", "07", "08"]);
    let plain = savings_rate(&f.plan, today(), 6);
    assert_eq!(
        rates(&plain),
        [
            ("2026-06-01".to_string(), Some(667)),
            ("2026-07-01".to_string(), Some(667)),
            ("2026-08-01".to_string(), Some(667))
        ]
    );
    assert_eq!(
        (plain.income, plain.spending, plain.saved, plain.rate_tenths),
        (9_000_000, -3_000_000, 6_000_000, Some(667))
    );
    let money = MoneyFormat::default();
    assert_eq!(
        plain.message(&money),
        "Over the last 3 complete months, 9000.00 came in and 3000.00 went out: 6000.00 \
saved, 66.7 % of the income.",
        "all rates equal: best and worst are one month, so no sentence"
    );

    f.tx(
        "card-1",
        "2026-07-15",
        -1_400_000,
        "card",
        "SHOP",
        Some("cat-food"),
    );
    f.tx(
        "bonus",
        "2026-08-20",
        400_000,
        "checking",
        "ACME",
        Some("cat-inflow"),
    );
    let s = savings_rate(&f.plan, today(), 6);
    assert_eq!(
        rates(&s),
        [
            ("2026-06-01".to_string(), Some(667)),
            ("2026-07-01".to_string(), Some(200)),
            ("2026-08-01".to_string(), Some(706))
        ]
    );
    assert_eq!(
        (s.income, s.spending, s.saved, s.rate_tenths),
        (9_400_000, -4_400_000, 5_000_000, Some(532))
    );
    assert_eq!(s.average_saved, 1_666_667);
    assert_eq!(
        s.best.map(|m| m.month.label()).as_deref(),
        Some("2026-08-01")
    );
    assert_eq!(
        s.worst.map(|m| m.month.label()).as_deref(),
        Some("2026-07-01")
    );
    assert_eq!(
        s.message(&money),
        "Over the last 3 complete months, 9400.00 came in and 4400.00 went out: 5000.00 \
saved, 53.2 % of the income. Best month: 2026-08-01 (70.6 %), worst: 2026-07-01 (20.0 %)."
    );
    let notes = s.notes(&money);
    assert_eq!(notes.len(), 5);
    assert_eq!(
        notes[4],
        "Only the last 3 of the 6 months hold budget transactions: the figures are over those."
    );
    assert!(notes[0].starts_with("Income is money in categorised to Ready to Assign"));
}

/// Worked example 2 of §19: transfers, a starting balance, uncategorised inflows, a refund.
#[test]
fn transfers_starting_balances_and_refunds() {
    let mut f = plan();
    salary_and_rent(&mut f, &["08"]);
    transfer(
        &mut f,
        "to-brokerage",
        "2026-08-10",
        -300_000,
        "checking",
        "brokerage",
    );
    if let Some(t) = f
        .plan
        .transactions
        .iter_mut()
        .find(|t| t.id == "to-brokerage")
    {
        t.category_id = Some("cat-food".into());
    }
    transfer(
        &mut f,
        "to-joint",
        "2026-08-11",
        -200_000,
        "checking",
        "joint",
    );
    transfer(
        &mut f,
        "to-mortgage",
        "2026-08-12",
        -400_000,
        "checking",
        "mortgage",
    );
    f.tx(
        "opening",
        "2026-08-01",
        5_000_000,
        "savings",
        STARTING_BALANCE,
        Some("cat-inflow"),
    );
    f.tx("gift", "2026-08-14", 75_000, "checking", "AUNT", None);
    f.tx(
        "odd",
        "2026-08-15",
        25_000,
        "checking",
        "BANK",
        Some("cat-none"),
    );
    f.tx(
        "refund",
        "2026-08-16",
        60_000,
        "card",
        "MARKET",
        Some("cat-food"),
    );
    // tracking accounts are never read: a tax refund into joint savings is not income
    f.tx(
        "tax",
        "2026-08-17",
        1_600_000,
        "joint",
        "TAX OFFICE",
        Some("cat-inflow"),
    );
    let s = savings_rate(&f.plan, today(), 1);
    assert_eq!(
        (s.income, s.spending, s.saved, s.rate_tenths),
        (3_000_000, -1_340_000, 1_660_000, Some(553))
    );
    assert_eq!(s.moved_to_tracking, 500_000);
    assert_eq!((s.uncategorised_count, s.uncategorised_total), (2, 100_000));
    let notes = s.notes(&MoneyFormat::default());
    assert_eq!(
        notes.last().map(String::as_str),
        Some(
            "2 inflows without a category (100.00) are counted neither as income nor as \
refunds: categorise them in YNAB for a true figure."
        )
    );
    assert_eq!(
        notes.len(),
        5,
        "one month of one asked: no 'Only the last' note"
    );
}

/// Worked example 3 of §19: split lines, a negative rate, no income, an empty plan.
#[test]
fn splits_negative_rates_and_no_income() {
    let mut f = plan();
    f.tx("deposit", "2026-08-28", 2_600_000, "checking", "ACME", None);
    f.line("deposit", 2_500_000, Some("cat-inflow"), false);
    f.line("deposit", 100_000, Some("cat-food"), false);
    f.line("deposit", 999_000, Some("cat-inflow"), true);
    f.tx(
        "payment",
        "2026-08-03",
        -1_300_000,
        "checking",
        "LANDLORD",
        None,
    );
    f.line("payment", -1_000_000, Some("cat-rent"), false);
    f.line("payment", -300_000, None, false);
    if let Some(l) = f.plan.subtransactions.last_mut() {
        l.transfer_account_id = Some("brokerage".into());
    }
    let s = savings_rate(&f.plan, today(), 1);
    assert_eq!(
        (s.income, s.spending, s.saved),
        (2_500_000, -900_000, 1_600_000)
    );
    assert_eq!(s.moved_to_tracking, 300_000);

    let mut f = plan();
    f.tx(
        "salary",
        "2026-08-28",
        1_000_000,
        "checking",
        "ACME",
        Some("cat-inflow"),
    );
    f.tx(
        "rent",
        "2026-08-03",
        -1_250_000,
        "checking",
        "LANDLORD",
        Some("cat-rent"),
    );
    let s = savings_rate(&f.plan, today(), 1);
    assert_eq!((s.saved, s.rate_tenths), (-250_000, Some(-250)));
    assert_eq!(rate_text(-250), "-25.0");

    let mut f = plan();
    f.tx(
        "rent",
        "2026-08-03",
        -100_000,
        "checking",
        "LANDLORD",
        Some("cat-rent"),
    );
    let s = savings_rate(&f.plan, today(), 1);
    assert_eq!((s.rate_tenths, s.best, s.worst), (None, None, None));
    let money = MoneyFormat::default();
    assert_eq!(
        s.message(&money),
        "No income was categorised to Ready to Assign over the last 1 complete months: no \
savings rate can be given; 100.00 was spent."
    );
    assert_eq!(
        s.notes(&money).last().map(String::as_str),
        Some("No rate for 2026-08-01: no income was categorised that month.")
    );

    let empty = savings_rate(&plan().plan, today(), 6);
    assert!(empty.months.is_empty());
    assert_eq!((empty.average_saved, empty.rate_tenths), (0, None));
    assert_eq!(
        empty.message(&money),
        "No complete month holds budget transactions yet: no savings rate to give."
    );
    assert_eq!(empty.notes(&money).len(), 4);
}

#[test]
fn nothing_spent_prints_zero_and_refunds_are_worded() {
    let money = MoneyFormat::default();
    let mut f = plan();
    f.tx("gift", "2026-08-14", 75_000, "checking", "AUNT", None);
    let s = savings_rate(&f.plan, today(), 1);
    assert!(
        s.message(&money).ends_with("; 0.00 was spent."),
        "never -0.00"
    );
    f.tx(
        "refund",
        "2026-08-16",
        5_000,
        "card",
        "MARKET",
        Some("cat-food"),
    );
    let s = savings_rate(&f.plan, today(), 1);
    assert_eq!(s.spending, 5_000);
    assert!(
        s.message(&money)
            .ends_with("; refunds exceeded spending by 5.00."),
        "{}",
        s.message(&money)
    );
}

#[test]
fn the_current_month_and_hidden_categories() {
    let mut f = plan();
    salary_and_rent(&mut f, &["08", "09"]);
    f.category("cat-old", "g-internal", "Inflow: Old").hidden = true;
    f.tx(
        "hidden",
        "2026-08-20",
        50_000,
        "checking",
        "SHOP",
        Some("cat-old"),
    );
    let s = savings_rate(&f.plan, today(), 2);
    assert_eq!(
        s.months.iter().map(|m| m.month.label()).collect::<Vec<_>>(),
        ["2026-08-01"],
        "September is current, July holds nothing"
    );
    assert_eq!(
        s.spending, -950_000,
        "an inflow in a hidden category is a refund"
    );
    assert_eq!(average(5, 2), 2);
    assert_eq!(average(7, 2), 4);
    assert_eq!(average(-5, 2), -2);
    assert_eq!(average(1, 0), 0);
}

fn arb_plan() -> impl Strategy<Value = PlanDetail> {
    let accounts = ["checking", "card", "brokerage", "mortgage", "ghost"];
    let categories = [
        None,
        Some("cat-inflow"),
        Some("cat-none"),
        Some("cat-rent"),
        Some("cat-x"),
    ];
    let line = (
        -2_000_000i64..2_000_000,
        0usize..5,
        prop_oneof![Just(None), (0usize..5).prop_map(Some)],
    );
    let tx = (
        0usize..5,
        prop_oneof![
            Just("2026-03"),
            Just("2026-06"),
            Just("2026-08"),
            Just("2026-09")
        ],
        line.clone(),
        prop_oneof![Just(""), Just(STARTING_BALANCE), Just("SHOP")],
        proptest::collection::vec((line, any::<bool>()), 0..3),
    );
    proptest::collection::vec(tx, 0..30).prop_map(move |txs| {
        let mut f = plan();
        for (i, (account, month, (amount, category, to), payee, lines)) in
            txs.into_iter().enumerate()
        {
            let id = format!("t{i}");
            let t = f.tx(
                &id,
                &format!("{month}-1{}", i % 10),
                amount,
                accounts[account],
                payee,
                categories[category],
            );
            t.transfer_account_id = (to.map(|a| accounts[a].to_string())).map(Into::into);
            for ((amount, category, to), deleted) in lines {
                f.line(&id, amount, categories[category], deleted);
                if let Some(l) = f.plan.subtransactions.last_mut() {
                    l.transfer_account_id = to.map(|a| accounts[a].to_string());
                }
            }
        }
        f.plan
    })
}

proptest! {
    /// saved = income + spending in every month and over the period; the totals add the
    /// months up; only complete months are measured, oldest first; rates exist with income.
    #[test]
    fn saved_is_income_plus_spending(plan in arb_plan(), count in 1usize..24) {
        let s = savings_rate(&plan, today(), count);
        let before = full_months_before(today(), count);
        prop_assert!(s.months.len() <= count);
        prop_assert!(s.months.windows(2).all(|w| w[0].month < w[1].month));
        for m in &s.months {
            prop_assert!(before.contains(&m.month));
            prop_assert_eq!(m.saved, m.income + m.spending);
            prop_assert!(m.income >= 0, "income is money in");
            prop_assert_eq!(m.rate_tenths.is_some(), m.income != 0);
        }
        prop_assert_eq!(s.income, s.months.iter().map(|m| m.income).sum::<i64>());
        prop_assert_eq!(s.spending, s.months.iter().map(|m| m.spending).sum::<i64>());
        prop_assert_eq!(s.saved, s.income + s.spending);
        prop_assert!(s.moved_to_tracking >= 0);
        prop_assert!(s.uncategorised_total >= 0);
        let rated: Vec<i64> = s.months.iter().filter_map(|m| m.rate_tenths).collect();
        let best = s.best.and_then(|m| m.rate_tenths);
        let worst = s.worst.and_then(|m| m.rate_tenths);
        prop_assert_eq!(best, rated.iter().copied().max());
        prop_assert_eq!(worst, rated.iter().copied().min());
        let money = MoneyFormat::default();
        prop_assert!(!s.message(&money).contains("-0.00"));
    }

    /// Transactions on tracking accounts never change the figures.
    #[test]
    fn tracking_accounts_are_never_read(plan in arb_plan(), amount in -5_000_000i64..5_000_000) {
        let before = savings_rate(&plan, today(), 6);
        let mut g = Fixture { plan };
        g.tx("extra", "2026-08-15", amount, "joint", "TAX OFFICE", Some("cat-inflow"));
        g.tx("extra2", "2026-08-16", amount, "mortgage", "", Some("cat-rent"));
        let after = savings_rate(&g.plan, today(), 6);
        prop_assert_eq!(before, after);
    }
}
