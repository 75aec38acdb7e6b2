//! Tests of the payoff plan: the worked examples of `docs/contract/reads.md` §16 on small fixtures,
//! the demo's car loan, overrides, terms in force and the wording of each conclusion.

use super::simulation::monthly_interest;
use super::*;
use crate::logic::fixtures::Fixture;
use std::collections::BTreeMap;

fn today() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 9, 25).unwrap_or_default()
}

fn month(label: &str) -> Option<CalendarMonth> {
    CalendarMonth::from_ynab(label)
}

/// A debt account owing `owed` milliunits, with YNAB terms dated 2026-01-01 when given.
fn debt(
    f: &mut Fixture,
    name: &str,
    kind: &str,
    owed: Milliunits,
    rate: Option<Rate>,
    minimum: Option<Milliunits>,
) {
    let id = format!("acc-{}", name.to_lowercase());
    let account = f.account(&id, name, kind == "creditCard");
    account.kind = kind.into();
    account.balance = -owed;
    let dated = |v: i64| BTreeMap::from([("2026-01-01".to_string(), v)]);
    account.debt_interest_rates = rate.map(dated);
    account.debt_minimum_payments = minimum.map(dated);
}

fn request(strategies: &[Strategy], budget: Option<Milliunits>) -> Request {
    Request {
        strategies: strategies.to_vec(),
        monthly_budget: budget,
        overrides: Vec::new(),
        max_months: DEFAULT_MONTHS,
    }
}

const BOTH: [Strategy; 2] = [Strategy::Avalanche, Strategy::Snowball];

fn run<'a>(f: &'a Fixture, request: &Request) -> Result<PayoffPlan<'a>, String> {
    payoff_plan(&f.plan, request, today(), &MoneyFormat::default())
}

fn outcome(plan: &StrategyPlan) -> Vec<(&str, Option<String>, Milliunits, Milliunits)> {
    plan.debts
        .iter()
        .map(|d| {
            (
                d.name.as_str(),
                d.payoff_month.map(CalendarMonth::label),
                d.interest,
                d.paid,
            )
        })
        .collect()
}

/// Worked example 1.
#[test]
fn a_loan_at_zero_percent_paid_by_its_minimum() {
    let mut f = Fixture::new();
    debt(
        &mut f,
        "Loan",
        "personalLoan",
        1_200_000,
        Some(0),
        Some(100_000),
    );
    let plan = run(&f, &request(&[Strategy::Avalanche], None)).expect("a plan");
    assert_eq!(plan.monthly_budget, 100_000);
    assert_eq!(plan.budget_from, BudgetFrom::MinimumPayments);
    assert_eq!(plan.first_month.label(), "2026-10-01");
    let avalanche = &plan.plans[0];
    assert_eq!(avalanche.months_to_debt_free, Some(12));
    assert_eq!(avalanche.debt_free_month, month("2027-09-01"));
    assert_eq!(
        (avalanche.total_interest, avalanche.total_paid),
        (0, 1_200_000)
    );
    assert_eq!(plan.interest_saved_by_avalanche, None);
    assert_eq!(plan.months_saved_by_avalanche, None);
    assert_eq!(
        plan.message,
        "At 100.00 a month, the 1200.00 owed on 1 debt is paid off in 12 months, by 2027-09-01, with 0.00 of interest (avalanche)."
    );
    assert_eq!(plan.debts[0].rate_from, Source::Ynab);
    assert_eq!(plan.notes.len(), 3, "{:?}", plan.notes);
    assert!(plan.notes[2].starts_with("monthly_budget was not given: 100.00 is the sum"));
}

/// Worked example 2.
#[test]
fn twelve_percent_with_six_hundred_a_month() {
    let mut f = Fixture::new();
    debt(
        &mut f,
        "Loan",
        "personalLoan",
        1_000_000,
        Some(12_000),
        Some(0),
    );
    let plan = run(&f, &request(&[Strategy::Snowball], Some(600_000))).expect("a plan");
    assert_eq!(plan.budget_from, BudgetFrom::Given);
    let snowball = &plan.plans[0];
    assert_eq!(
        outcome(snowball),
        [("Loan", Some("2026-11-01".to_string()), 14_100, 1_014_100)]
    );
    assert_eq!(snowball.debts[0].months, Some(2));
    assert_eq!(
        (snowball.total_interest, snowball.total_paid),
        (14_100, 1_014_100)
    );
    assert_eq!(
        plan.message,
        "At 600.00 a month, the 1000.00 owed on 1 debt is paid off in 2 months, by 2026-11-01, with 14.10 of interest (snowball)."
    );
    assert_eq!(plan.notes.len(), 2, "a given budget adds no note");
}

/// Worked example 3.
#[test]
fn avalanche_saves_over_snowball() {
    let mut f = Fixture::new();
    debt(
        &mut f,
        "Small",
        "personalLoan",
        600_000,
        Some(0),
        Some(100_000),
    );
    debt(
        &mut f,
        "Dear",
        "personalLoan",
        1_200_000,
        Some(12_000),
        Some(100_000),
    );
    let plan = run(&f, &request(&BOTH, Some(400_000))).expect("a plan");
    let (avalanche, snowball) = (&plan.plans[0], &plan.plans[1]);
    assert_eq!(avalanche.strategy, Strategy::Avalanche);
    assert_eq!(
        outcome(avalanche),
        [
            ("Dear", Some("2027-02-01".to_string()), 30_910, 1_230_910),
            ("Small", Some("2027-02-01".to_string()), 0, 600_000),
        ]
    );
    assert_eq!(avalanche.total_paid, 1_830_910);
    assert_eq!(avalanche.debt_free_month, month("2027-02-01"));
    assert_eq!(
        outcome(snowball),
        [
            ("Small", Some("2026-11-01".to_string()), 0, 600_000),
            ("Dear", Some("2027-02-01".to_string()), 42_080, 1_242_080),
        ]
    );
    assert_eq!(snowball.total_interest, 42_080);
    assert_eq!(snowball.total_paid, 1_842_080);
    assert_eq!(plan.interest_saved_by_avalanche, Some(11_170));
    assert_eq!(plan.months_saved_by_avalanche, Some(0));
    assert_eq!(
        plan.message,
        "At 400.00 a month, the 1800.00 owed on 2 debts is paid off in 5 months, by 2027-02-01, with 30.91 of interest (avalanche). Avalanche saves 11.17 of interest over snowball."
    );
}

/// Dear's interest month by month in example 3: 12.00, 9.12, 6.21, 3.27, 0.31.
#[test]
fn interest_is_a_twelfth_of_the_rate_to_the_cent() {
    assert_eq!(monthly_interest(1_200_000, 12_000), 12_000);
    assert_eq!(monthly_interest(912_000, 12_000), 9_120);
    assert_eq!(monthly_interest(1_000_000, 12_000), 10_000);
    assert_eq!(monthly_interest(410_000, 12_000), 4_100);
    // 1234.56 at 4.5 %: 4.6296 → 4.63
    assert_eq!(monthly_interest(1_234_560, 4_500), 4_630);
    assert_eq!(monthly_interest(0, 24_000), 0);
}

/// The last payment is only what is left: 250 owed at 100 a month → 100, 100, 50.
#[test]
fn the_last_payment_is_what_is_left() {
    let mut f = Fixture::new();
    debt(&mut f, "Loan", "personalLoan", 250_000, Some(0), Some(0));
    let plan = run(&f, &request(&[Strategy::Avalanche], Some(100_000))).expect("a plan");
    let avalanche = &plan.plans[0];
    assert_eq!(avalanche.months_to_debt_free, Some(3));
    assert_eq!(avalanche.total_paid, 250_000);
    assert_eq!(
        plan.notes.len(),
        2,
        "no missing term, a given budget: {:?}",
        plan.notes
    );
}

/// Worked example 4: the debt never shrinks.
#[test]
fn payments_below_the_interest_never_end() {
    let mut f = Fixture::new();
    debt(
        &mut f,
        "Card",
        "creditCard",
        10_000_000,
        Some(24_000),
        Some(150_000),
    );
    let plan = run(&f, &request(&BOTH, None)).expect("a plan");
    assert_eq!(
        plan.message,
        "At 150.00 a month, the payments do not cover the interest charged on the 10000.00 owed: the debt never shrinks. Pay more each month to pay it off."
    );
    for p in &plan.plans {
        assert_eq!(p.months_to_debt_free, None);
        assert_eq!(p.debts[0].months, None);
        assert_eq!(p.total_interest, 200_000, "one month simulated");
    }
    assert_eq!(plan.interest_saved_by_avalanche, None);
    assert!(!plan.notes.iter().any(|n| n.starts_with("The plan stops")));
}

/// Worked example 4: the errors.
#[test]
fn the_errors_of_example_four() {
    let mut f = Fixture::new();
    debt(
        &mut f,
        "One",
        "personalLoan",
        1_000_000,
        Some(5_000),
        Some(100_000),
    );
    debt(
        &mut f,
        "Two",
        "personalLoan",
        2_000_000,
        Some(5_000),
        Some(150_000),
    );
    assert_eq!(
        run(&f, &request(&BOTH, Some(200_000))),
        Err("monthly_budget 200.00 is less than the minimum payments, 250.00: give at least that much.".into())
    );
    let mut f = Fixture::new();
    debt(&mut f, "Card", "creditCard", 1_000_000, None, None);
    assert_eq!(
        run(&f, &request(&BOTH, None)),
        Err("No minimum payment is known and nothing was paid into the debt accounts over the last 3 complete months: give monthly_budget, or minimum_payment in overrides.".into())
    );
    let mut boat = request(&BOTH, None);
    boat.overrides.push(Override {
        account: "Boat".into(),
        interest_rate: None,
        minimum_payment: None,
    });
    assert_eq!(
        run(&f, &boat),
        Err("Unknown debt account(s) 'Boat': give names or ids of the open accounts that owe money: Card.".into())
    );
}

/// Worked example 5: past payments are transfers into the debts over the last complete months.
#[test]
fn past_payments_average_the_transfers_in() {
    let mut f = Fixture::new();
    debt(&mut f, "Card", "creditCard", 1_000_000, None, None);
    debt(
        &mut f,
        "Car",
        "autoLoan",
        2_000_000,
        Some(6_000),
        Some(100_000),
    );
    let plan = run(&f, &request(&BOTH, None)).expect("a plan");
    assert_eq!(
        (plan.monthly_budget, plan.budget_from),
        (100_000, BudgetFrom::MinimumPayments),
        "no history"
    );
    f.account("acc-checking", "Checking", true);
    let transfer = |f: &mut Fixture, id: &str, date: &str, amount: i64, account: &str| {
        f.tx(id, date, amount, account, "", None)
            .transfer_account_id = Some("acc-checking".into());
    };
    transfer(&mut f, "t1", "2026-06-30", 150_000, "acc-card");
    transfer(&mut f, "t2", "2026-07-30", 50_000, "acc-card");
    transfer(&mut f, "t3", "2026-08-05", 250_000, "acc-car");
    transfer(&mut f, "may", "2026-05-30", 500_000, "acc-card");
    transfer(&mut f, "sep", "2026-09-02", 500_000, "acc-car");
    transfer(&mut f, "gone", "2026-07-02", 500_000, "acc-car");
    f.plan.transactions.last_mut().expect("pushed").deleted = true;
    f.tx("refund", "2026-07-12", 80_000, "acc-card", "SHOP", None);
    f.tx("charge", "2026-07-13", -80_000, "acc-card", "SHOP", None);
    let plan = run(&f, &request(&BOTH, None)).expect("a plan");
    assert_eq!(
        (plan.monthly_budget, plan.budget_from),
        (150_000, BudgetFrom::PastPayments)
    );
    assert!(plan.notes.contains(&"monthly_budget was not given: 150.00 is the average paid into the debt accounts over the last 3 complete months.".to_string()));
    assert!(
        plan.notes
            .iter()
            .any(|n| n.starts_with("No interest rate in YNAB for Card:"))
    );
    assert!(
        plan.notes
            .iter()
            .any(|n| n.starts_with("No minimum payment in YNAB for Card:"))
    );
}

/// The demo's car loan (`docs/contract/server.md` §8.1): 19,040.81 at 4.5 %, 400.00 a month.
#[test]
fn the_demo_car_loan() {
    let mut f = Fixture::new();
    debt(
        &mut f,
        "Car loan",
        "autoLoan",
        19_040_810,
        Some(4_500),
        Some(400_000),
    );
    let plan = run(&f, &request(&BOTH, None)).expect("a plan");
    let avalanche = &plan.plans[0];
    assert_eq!(avalanche.months_to_debt_free, Some(53));
    assert_eq!(avalanche.total_interest, 1_972_800);
    assert_eq!(
        plan.message,
        "At 400.00 a month, the 19040.81 owed on 1 debt is paid off in 53 months, by 2031-02-01, with 1972.80 of interest (avalanche). Avalanche and snowball cost the same here."
    );
}

#[test]
fn no_debt_and_which_accounts_are_debts() {
    let mut f = Fixture::new();
    f.account("acc-checking", "Checking", true).balance = 500_000;
    debt(&mut f, "Paid", "studentLoan", 0, Some(2_000), Some(250_000));
    debt(&mut f, "Closed", "autoLoan", 1_000, None, None);
    f.plan.accounts.last_mut().expect("pushed").closed = true;
    debt(&mut f, "Gone", "autoLoan", 1_000, None, None);
    f.plan.accounts.last_mut().expect("pushed").deleted = true;
    f.account("acc-odd", "Overdrawn", true).balance = -5_000;
    let plan = run(&f, &request(&BOTH, Some(300_000))).expect("a plan");
    assert_eq!(
        plan.message,
        "No open debt account owes money: nothing to pay off."
    );
    assert_eq!(
        (plan.monthly_budget, plan.budget_from),
        (300_000, BudgetFrom::Given)
    );
    assert!(plan.debts.is_empty() && plan.plans.is_empty() && plan.notes.is_empty());
    let plan = run(&f, &request(&BOTH, None)).expect("a plan");
    assert_eq!(
        (plan.monthly_budget, plan.budget_from),
        (0, BudgetFrom::MinimumPayments)
    );
    // an override naming a paid-off, closed or non-debt account errs first
    let mut named = request(&BOTH, None);
    for account in ["Paid", "Checking", "Paid"] {
        named.overrides.push(Override {
            account: account.into(),
            interest_rate: None,
            minimum_payment: None,
        });
    }
    assert_eq!(
        run(&f, &named),
        Err("Unknown debt account(s) 'Paid', 'Checking': give names or ids of the open accounts that owe money: .".into())
    );
}

#[test]
fn overrides_match_by_id_or_name_and_the_last_one_wins() {
    let mut f = Fixture::new();
    debt(&mut f, "Visa Card", "creditCard", 500_000, None, None);
    debt(
        &mut f,
        "Car",
        "autoLoan",
        2_000_000,
        Some(6_000),
        Some(100_000),
    );
    let mut asked = request(&[Strategy::Avalanche], None);
    asked.overrides = vec![
        Override {
            account: "  visa card ".into(),
            interest_rate: Some(24_000),
            minimum_payment: Some(10_000),
        },
        Override {
            account: "acc-visa card".into(),
            interest_rate: Some(19_990),
            minimum_payment: None,
        },
        Override {
            account: "CAR".into(),
            interest_rate: None,
            minimum_payment: Some(150_000),
        },
    ];
    let plan = run(&f, &asked).expect("a plan");
    let card = &plan.debts[0];
    assert_eq!((card.rate, card.rate_from), (19_990, Source::Override));
    assert_eq!((card.minimum, card.minimum_from), (0, Source::Missing));
    let car = &plan.debts[1];
    assert_eq!((car.rate, car.rate_from), (6_000, Source::Ynab));
    assert_eq!((car.minimum, car.minimum_from), (150_000, Source::Override));
    assert_eq!(plan.budget_from, BudgetFrom::MinimumPayments);
    assert_eq!(plan.monthly_budget, 150_000);
}

#[test]
fn terms_in_force_today_and_escrow() {
    let mut f = Fixture::new();
    debt(&mut f, "House", "mortgage", 100_000_000, None, None);
    let house = &mut f.plan.accounts[0];
    house.debt_interest_rates = Some(BTreeMap::from([
        ("2025-01-01".to_string(), 3_000),
        ("2026-09-01".to_string(), 3_500),
        ("2026-12-01".to_string(), 9_000),
        ("someday".to_string(), 1),
    ]));
    house.debt_minimum_payments = Some(BTreeMap::from([("2027-01-01".to_string(), 900_000)]));
    house.debt_escrow_amounts = Some(BTreeMap::from([("2025-01-01".to_string(), 200_000)]));
    let plan = run(&f, &request(&BOTH, Some(1_000_000))).expect("a plan");
    let house = &plan.debts[0];
    assert_eq!((house.rate, house.rate_from), (3_500, Source::Ynab));
    assert_eq!(house.minimum_from, Source::Missing, "only a future minimum");
    assert_eq!(house.escrow, 200_000);
    assert!(plan.notes.contains(&"Escrow (House) is paid with the loan but does not reduce it: it is not part of the plan, nor should it be of monthly_budget.".to_string()));
}

#[test]
fn a_capped_plan_and_a_snowball_that_does_not_end() {
    // the reference's quirk (Appendix B #9): avalanche ends in 23 months, snowball does not
    let mut f = Fixture::new();
    debt(
        &mut f,
        "Big",
        "personalLoan",
        5_000_000,
        Some(25_000),
        Some(10_000),
    );
    debt(
        &mut f,
        "Tiny",
        "personalLoan",
        500_000,
        Some(1_000),
        Some(10_000),
    );
    let mut asked = request(&BOTH, Some(300_000));
    asked.max_months = 23;
    let plan = run(&f, &asked).expect("a plan");
    assert_eq!(plan.plans[0].months_to_debt_free, Some(23));
    assert_eq!(plan.plans[1].months_to_debt_free, None);
    assert_eq!(plan.interest_saved_by_avalanche, None);
    assert!(!plan.message.contains("saves"), "{}", plan.message);
    assert!(plan.message.ends_with("(avalanche)."), "{}", plan.message);
    assert_eq!(
        plan.notes.last().map(String::as_str),
        Some("The plan stops after 23 months: max_months.")
    );
    // snowball alone, not ending
    let mut asked = request(&[Strategy::Snowball], Some(300_000));
    asked.max_months = 23;
    let plan = run(&f, &asked).expect("a plan");
    assert!(
        plan.message
            .starts_with("At 300.00 a month, the 5500.00 owed is not paid off within 23 months: "),
        "{}",
        plan.message
    );
    assert_eq!(plan.plans[0].debts[0].name, "Tiny", "paid debts first");
}

#[test]
fn the_order_of_each_strategy() {
    let mut f = Fixture::new();
    debt(&mut f, "b", "personalLoan", 1_000, Some(5_000), Some(0));
    debt(&mut f, "a", "personalLoan", 1_000, Some(5_000), Some(0));
    debt(&mut f, "C", "personalLoan", 500, Some(1_000), Some(0));
    debt(&mut f, "D", "personalLoan", 9_000, Some(9_000), Some(0));
    let debts: Vec<Debt<'_>> = open_debts(&f.plan)
        .into_iter()
        .map(|a| terms(a, None, today()))
        .collect();
    let names = |s| -> Vec<&str> {
        strategy_order(&debts, s)
            .into_iter()
            .map(|i| debts[i].name.as_str())
            .collect()
    };
    assert_eq!(names(Strategy::Avalanche), ["D", "a", "b", "C"]);
    assert_eq!(names(Strategy::Snowball), ["C", "a", "b", "D"]);
}

#[test]
fn the_saving_sentence_for_each_sign() {
    let money = MoneyFormat::default();
    assert_eq!(
        saving_sentence(11_170, &money),
        " Avalanche saves 11.17 of interest over snowball."
    );
    assert_eq!(
        saving_sentence(0, &money),
        " Avalanche and snowball cost the same here."
    );
    assert_eq!(
        saving_sentence(-30, &money),
        " Snowball saves 0.03 of interest over avalanche here."
    );
}
