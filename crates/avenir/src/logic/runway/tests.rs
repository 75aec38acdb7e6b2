//! Tests of the runway: the worked examples of `docs/contract/reads.md` §18 on a small fixture, the
//! essential groups, split lines, and properties of the figures.

use super::*;
use crate::logic::fixtures::Fixture;
use proptest::prelude::*;

fn today() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 9, 25).unwrap_or_default()
}

/// The accounts of the worked examples.
fn accounts() -> Fixture {
    let mut f = Fixture::new();
    let mut add = |id: &str, name: &str, kind: &str, on_budget: bool, balance: Milliunits| {
        let a = f.account(id, name, on_budget);
        a.kind = kind.into();
        a.balance = balance;
    };
    add("checking", "Checking", "checking", true, 2_500_000);
    add("savings", "Savings", "savings", true, 1_000_000);
    add("wallet", "Wallet", "cash", true, 100_000);
    add("card", "Card", "creditCard", true, -600_000);
    add("brokerage", "Brokerage", "otherAsset", false, 20_000_000);
    add("mortgage", "Mortgage", "mortgage", false, -150_000_000);
    add("old", "Old", "checking", true, 0);
    f.plan.accounts.last_mut().expect("pushed").closed = true;
    f.group("grp-bills", "Bills");
    f.category("cat-rent", "grp-bills", "Rent");
    f.group("grp-fun", "Fun");
    f.category("cat-restaurants", "grp-fun", "Restaurants");
    f
}

fn request(months_count: usize, essential: Option<&[&str]>) -> Request {
    Request {
        months_count,
        essential_groups: essential.map(|g| g.iter().map(|s| s.to_string()).collect()),
        include_savings: true,
        savings_tool_listed: true,
    }
}

fn labels(months: &[CalendarMonth]) -> Vec<String> {
    months.iter().map(|m| m.label()).collect()
}

fn run<'a>(f: &'a Fixture, request: &Request) -> Runway<'a> {
    runway(&f.plan, request, today(), &MoneyFormat::default()).expect("a runway")
}

/// Worked example 1.
#[test]
fn rent_and_restaurants_with_bills_as_essential() {
    let mut f = accounts();
    for m in ["06", "07", "08"] {
        f.tx(
            &format!("rent-{m}"),
            &format!("2026-{m}-10"),
            -1_000_000,
            "checking",
            "LANDLORD",
            Some("cat-rent"),
        );
        f.tx(
            &format!("food-{m}"),
            &format!("2026-{m}-20"),
            -500_000,
            "card",
            "BISTRO",
            Some("cat-restaurants"),
        );
    }
    let r = run(&f, &request(3, Some(&["Bills"])));
    assert_eq!((r.liquid, r.owed_on_cards), (3_000_000, -600_000));
    assert_eq!(
        r.spending,
        Coverage {
            monthly_spending: -1_500_000,
            runway_tenths: Some(20)
        }
    );
    assert_eq!(
        r.essential,
        Some(Coverage {
            monthly_spending: -1_000_000,
            runway_tenths: Some(30)
        })
    );
    assert_eq!(r.essential_groups, ["Bills"]);
    assert_eq!(
        labels(&r.months),
        ["2026-06-01", "2026-07-01", "2026-08-01"]
    );
    assert_eq!(r.left_out, ["Brokerage", "Mortgage"]);
    let counted: Vec<&str> = r.accounts.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(counted, ["Checking", "Savings", "Wallet", "Card"]);
    assert_eq!(
        r.message,
        "At the average spending of the last 3 complete months, 1500.00 a month, the 3000.00 available would last 2.0 months. On essential spending alone, 1000.00 a month: 3.0 months."
    );
    assert_eq!(
        r.notes[5],
        "What the credit cards owe (-600.00) is subtracted from the money available: it will have to be paid."
    );
    assert_eq!(r.notes.len(), 6, "{:?}", r.notes);

    let mut without_savings = request(3, None);
    without_savings.include_savings = false;
    let r = run(&f, &without_savings);
    assert_eq!(r.liquid, 2_000_000);
    assert_eq!(r.left_out, ["Savings", "Brokerage", "Mortgage"]);
    assert_eq!(r.essential, None);
    assert!(r.essential_groups.is_empty());
    assert!(
        r.notes.contains(
            &"Savings accounts were left out of the money available, as asked.".to_string()
        )
    );
}

/// Worked example 2: what counts as spending.
#[test]
fn only_money_out_of_the_budget_counts() {
    let mut f = accounts();
    let deleted = f.account("gone", "Gone", true);
    deleted.deleted = true;
    for m in ["06", "07", "08"] {
        f.tx(
            &format!("rent-{m}"),
            &format!("2026-{m}-10"),
            -900_000,
            "checking",
            "LANDLORD",
            Some("cat-rent"),
        );
    }
    f.tx("salary", "2026-07-28", 3_000_000, "checking", "ACME", None);
    f.tx("refund", "2026-07-03", 50_000, "card", "SHOP", None);
    f.tx("to-savings", "2026-07-29", -200_000, "checking", "", None)
        .transfer_account_id = Some("savings".into());
    f.tx("from-checking", "2026-07-29", 200_000, "savings", "", None)
        .transfer_account_id = Some("checking".into());
    f.tx("to-mortgage", "2026-08-05", -300_000, "checking", "", None)
        .transfer_account_id = Some("mortgage".into());
    f.tx(
        "broker",
        "2026-08-06",
        -5_000_000,
        "brokerage",
        "FEES",
        None,
    );
    f.tx("card", "2026-08-07", -45_000, "card", "SHOP", None);
    f.tx("deleted", "2026-08-08", -999_000, "checking", "SHOP", None)
        .deleted = true;
    f.tx(
        "september",
        "2026-09-02",
        -700_000,
        "checking",
        "SHOP",
        None,
    );
    f.tx("gone", "2026-08-09", -1_000_000, "gone", "SHOP", None);
    let r = run(&f, &request(3, None));
    assert_eq!(
        r.spending,
        Coverage {
            monthly_spending: -1_015_000,
            runway_tenths: Some(30)
        },
        "−3045.00 over 3 months; 3000 ÷ 1015 = 2.96"
    );
}

/// Worked example 3: nothing spent, no history, less than nothing, a young plan.
#[test]
fn the_edges_of_example_three() {
    let mut f = accounts();
    f.tx("income", "2026-06-28", 3_000_000, "checking", "ACME", None);
    let r = run(&f, &request(3, None));
    assert_eq!(
        r.spending,
        Coverage {
            monthly_spending: 0,
            runway_tenths: None
        }
    );
    assert!(
        r.message.ends_with("0.00 a month, the 3000.00 available would last with no end in sight, since nothing was spent."),
        "{}",
        r.message
    );

    let f = accounts();
    let r = run(&f, &request(6, Some(&["bills"])));
    assert!(r.months.is_empty());
    assert_eq!(
        r.message,
        "No complete month of spending to average yet: no runway can be given for the 3000.00 available."
    );
    assert_eq!(r.essential.map(|e| e.runway_tenths), Some(None));

    let mut f = Fixture::new();
    f.account("checking", "Checking", true).balance = 100_000;
    let card = f.account("card", "Card", true);
    card.kind = "creditCard".into();
    card.balance = -900_000;
    f.tx("jul", "2026-07-04", -100_000, "checking", "SHOP", None);
    f.tx("aug", "2026-08-04", -100_000, "card", "SHOP", None);
    let r = run(&f, &request(6, None));
    assert_eq!(r.liquid, -800_000);
    assert_eq!(r.spending.runway_tenths, Some(0), "never negative");
    assert_eq!(labels(&r.months), ["2026-07-01", "2026-08-01"]);
    assert!(
        r.notes.contains(
            &"Only the last 2 of the 6 months hold budget transactions: the average is over those."
                .to_string()
        )
    );
    assert_eq!(
        r.notes.last().map(String::as_str),
        Some("The money available is zero or less: nothing to live on without income.")
    );
}

#[test]
fn split_lines_count_on_their_own() {
    let mut f = accounts();
    f.tx("split", "2026-08-10", -1_500_000, "checking", "BANK", None);
    f.line("split", -1_000_000, None, false);
    f.line("split", -300_000, Some("cat-rent"), false);
    f.line("split", -200_000, None, false);
    f.line("split", -700_000, Some("cat-rent"), true);
    f.plan.subtransactions[0].transfer_account_id = Some("brokerage".into());
    f.plan.subtransactions[2].transfer_account_id = Some("mortgage".into());
    let r = run(&f, &request(1, Some(&["grp-bills"])));
    // the line to the brokerage is skipped, the loan payment counts, the deleted line is gone
    assert_eq!(r.spending.monthly_spending, -500_000);
    assert_eq!(r.essential.map(|e| e.monthly_spending), Some(-300_000));
}

#[test]
fn essential_groups_by_id_or_name() {
    let mut f = accounts();
    f.group("grp-bills-2", "  BILLS ").hidden = true;
    f.category("cat-water", "grp-bills-2", "Water").hidden = true;
    f.group("grp-internal", "Internal Master Category");
    f.group("grp-cc", "Credit Card Payments");
    let names = |items: &[&str]| -> Result<Vec<String>, String> {
        let items: Vec<String> = items.iter().map(|s| s.to_string()).collect();
        essential_groups(&f.plan, &items).map(|g| g.iter().map(|g| g.id.clone()).collect())
    };
    assert_eq!(
        names(&["bills"]),
        Ok(vec!["grp-bills".into(), "grp-bills-2".into()])
    );
    assert_eq!(
        names(&[" grp-fun ", "Fun", "grp-bills"]),
        Ok(vec!["grp-fun".into(), "grp-bills".into()])
    );
    assert_eq!(
        names(&["Bills", "Boats", "Internal Master Category", "Boats"]),
        Err("Unknown category group(s) 'Boats', 'Internal Master Category': give names or ids of this plan's groups, as list_category_groups shows them: Bills, Fun, BILLS.".into())
    );
    f.tx(
        "water",
        "2026-08-02",
        -40_000,
        "checking",
        "WATER CO",
        Some("cat-water"),
    );
    let r = run(&f, &request(1, Some(&["bills"])));
    assert_eq!(r.essential_groups, ["Bills", "BILLS"]);
    assert_eq!(
        r.essential.map(|e| e.monthly_spending),
        Some(-40_000),
        "hidden categories count"
    );
}

#[test]
fn the_note_names_get_savings_rate_only_when_listed() {
    let f = accounts();
    let mut asked = request(3, None);
    asked.savings_tool_listed = false;
    let r = run(&f, &asked);
    assert!(!r.notes.iter().any(|n| n.contains("get_savings_rate")));
    let r = run(&f, &request(3, None));
    assert!(r.notes[2].ends_with("as get_savings_rate counts it."));
}

proptest! {
    #[test]
    fn runways_are_never_negative_and_essential_is_part_of_spending(
        amounts in prop::collection::vec((-5_000_000i64..5_000_000, 0usize..3, 1u32..=9, prop::bool::ANY), 0..40),
        balance in -5_000_000i64..5_000_000,
        count in 1usize..=24,
    ) {
        let mut f = accounts();
        f.plan.accounts[0].balance = balance;
        for (i, (amount, account, month, rent)) in amounts.into_iter().enumerate() {
            let account = ["checking", "card", "brokerage"][account];
            let category = if rent { Some("cat-rent") } else { None };
            f.tx(&format!("t{i}"), &format!("2026-{month:02}-15"), amount, account, "X", category);
        }
        let r = run(&f, &request(count, Some(&["Bills"])));
        let essential = r.essential.unwrap_or(r.spending);
        prop_assert!(r.spending.monthly_spending <= 0);
        prop_assert!(r.spending.monthly_spending <= essential.monthly_spending);
        prop_assert!(essential.monthly_spending <= 0);
        for c in [r.spending, essential] {
            prop_assert!(c.runway_tenths.is_none_or(|t| t >= 0));
            prop_assert_eq!(c.runway_tenths.is_none(), c.monthly_spending == 0);
        }
        prop_assert!(r.months.len() <= count);
        prop_assert!(r.months.iter().all(|m| *m < CalendarMonth::of(today())));
    }
}
