//! Tests of the forecast's assumptions: the worked examples 4 and 5 of `docs/contract/reads.md` §13
//! on small fixtures, transfers out of the set (D22 #14), given income, one-offs and the horizon.

use super::*;
use crate::logic::fixtures::Fixture;

fn d(text: &str) -> NaiveDate {
    crate::args::parse_date(text).expect("a date")
}

fn month(text: &str) -> CalendarMonth {
    CalendarMonth::of(d(&format!("{text}-01")))
}

fn request(until: &str) -> ForecastRequest<'static> {
    ForecastRequest {
        until: month(until),
        account_ids: None,
        monthly_income: None,
        variable_monthly: None,
        one_offs: &[],
    }
}

fn run(f: &Fixture, today: &str, request: ForecastRequest<'_>) -> Forecast {
    forecast(&f.plan, d(today), request).expect("known accounts")
}

/// (start, inflows, outflows, end, lowest) of each month.
fn rows(forecast: &Forecast) -> Vec<[Milliunits; 5]> {
    forecast
        .months
        .iter()
        .map(|m| [m.start, m.inflows, m.outflows, m.end, m.lowest])
        .collect()
}

/// The plan of worked example 4 (§13).
fn example_4() -> Fixture {
    let mut f = Fixture::new();
    f.account("a-chk", "Checking", true).balance = 2_000_000;
    f.account("a-sav", "Savings", true).balance = 500_000;
    f.account("a-brk", "Brokerage", false).balance = 9_000_000;
    for m in 5..=8 {
        let on = |day: u32| format!("2026-{m:02}-{day:02}");
        f.tx(
            &format!("sf-{m}"),
            &on(15),
            -13_490,
            "a-chk",
            "STREAMFLIX",
            None,
        );
        f.tx(
            &format!("pay-{m}"),
            &on(28),
            3_000_000,
            "a-chk",
            "ACME PAYROLL - REF 12345678",
            None,
        );
    }
    f.tx("cs-6", "2026-06-10", -90_000, "a-chk", "CORNER SHOP", None);
    f.tx("cs-7", "2026-07-10", -120_000, "a-chk", "CORNER SHOP", None);
    f.tx("cs-8", "2026-08-10", -90_000, "a-chk", "CORNER SHOP", None);
    f.tx("cx", "2026-08-05", 60_000, "a-chk", "CLIENT X", None);
    f.tx("cs-9", "2026-09-05", -40_000, "a-chk", "CORNER SHOP", None);
    f.tx(
        "tr-out",
        "2026-09-06",
        -100_000,
        "a-chk",
        "Transfer : Savings",
        None,
    )
    .transfer_account_id = Some("a-sav".into());
    f.tx(
        "tr-in",
        "2026-09-06",
        100_000,
        "a-sav",
        "Transfer : Checking",
        None,
    )
    .transfer_account_id = Some("a-chk".into());
    f.schedule(
        "s-rent",
        "2026-01-03",
        "2026-10-03",
        "monthly",
        -800_000,
        "a-chk",
        "Landlord",
        None,
    );
    f
}

#[test]
fn worked_example_4_whole_tool() {
    let f = example_4();
    let result = run(&f, "2026-09-24", request("2026-11"));
    assert_eq!(result.accounts, ["Checking", "Savings"]);
    assert_eq!(result.start_balance, 2_500_000);
    let recurring: Vec<_> = result
        .recurring
        .iter()
        .map(|r| (r.payee(), r.amount, r.day, r.months_seen))
        .collect();
    assert_eq!(
        recurring,
        [
            ("ACME PAYROLL - REF".to_string(), 3_000_000, 28, 4),
            ("STREAMFLIX".to_string(), -13_490, 15, 4),
        ]
    );
    assert_eq!(result.variable_monthly, -100_000);
    assert_eq!(result.monthly_income, 20_000);
    let scheduled: Vec<_> = result
        .scheduled
        .iter()
        .map(|o| (o.date.to_string(), o.payee.as_str(), o.amount))
        .collect();
    assert_eq!(
        scheduled,
        [
            ("2026-10-03".to_string(), "Landlord", -800_000),
            ("2026-11-03".to_string(), "Landlord", -800_000),
        ]
    );
    assert_eq!(
        rows(&result),
        [
            [2_500_000, 3_020_000, -60_000, 5_460_000, 2_480_010],
            [5_460_000, 3_020_000, -913_490, 7_566_510, 4_576_870],
            [7_566_510, 3_020_000, -913_490, 9_673_020, 6_681_060],
        ]
    );
    assert_eq!(result.first_shortfall, None);
    assert_eq!(
        result.message,
        "The balance stays above zero until 2026-11-01. This rests on the assumptions \
listed: check them with the user."
    );
}

/// Worked example 5: payees a schedule covers stay out of the averages and the month so far.
#[test]
fn worked_example_5_averages_with_schedules() {
    let mut f = Fixture::new();
    f.account("a", "Checking", true);
    f.tx("i-8", "2026-08-10", -300_000, "a", "INSURANCE", None);
    f.tx("s-8", "2026-08-12", -30_000, "a", "SHOP", None);
    f.tx("i-9", "2026-09-02", -120_000, "a", "INSURANCE", None);
    f.tx("c-7", "2026-07-10", 90_000, "a", "CLIENT", None);
    for (id, amount, label) in [
        ("s-ins", -300_000, "Insurance"),
        ("s-cli", 90_000, "Client"),
    ] {
        f.schedule(
            id,
            "2026-01-10",
            "2027-01-10",
            "yearly",
            amount,
            "a",
            label,
            None,
        );
    }
    let result = run(&f, "2026-09-24", request("2026-09"));
    assert_eq!(result.variable_monthly, -10_000);
    assert_eq!(result.monthly_income, 0);
    // nothing spent so far counts: the whole −10.00 is spread over the days left
    assert_eq!(rows(&result), [[0, 0, -10_000, -10_000, -10_000]]);
    assert!(result.scheduled.is_empty());
    assert_eq!(
        result.message,
        "The balance goes below zero in 2026-09-01. This rests on the assumptions listed: \
check them with the user."
    );
}

/// D22 #14: money that regularly leaves for an account outside the set is projected.
#[test]
fn transfers_out_of_the_set_count_as_money_out() {
    let mut f = Fixture::new();
    f.account("a", "Checking", true).balance = 1_000_000;
    f.account("b", "Brokerage", false);
    for m in 5..=8 {
        let on = format!("2026-{m:02}-01");
        f.tx(
            &format!("o-{m}"),
            &on,
            -500_000,
            "a",
            "Transfer : Brokerage",
            None,
        )
        .transfer_account_id = Some("b".into());
        f.tx(
            &format!("i-{m}"),
            &on,
            50_000,
            "a",
            "Transfer : Brokerage",
            None,
        )
        .transfer_account_id = Some("b".into());
    }
    let result = run(&f, "2026-09-24", request("2026-10"));
    let recurring: Vec<_> = result
        .recurring
        .iter()
        .map(|r| (r.payee(), r.amount))
        .collect();
    assert_eq!(recurring, [("TRANSFER : BROKERAGE".to_string(), -500_000)]);
    assert_eq!(
        result.monthly_income, 0,
        "transfers coming in stay left out"
    );
    assert_eq!(result.variable_monthly, 0);
    assert_eq!(result.months[1].outflows, -500_000);
    // a scheduled transfer out is projected, and covers the payee it names
    f.schedule(
        "s-b",
        "2026-01-20",
        "2026-10-20",
        "monthly",
        -70_000,
        "a",
        "Transfer : Brokerage",
        None,
    )
    .transfer_account_id = Some("b".into());
    let result = run(&f, "2026-09-24", request("2026-10"));
    assert!(result.recurring.is_empty());
    assert_eq!(result.scheduled.len(), 1);
    assert_eq!(result.months[1].outflows, -70_000);
    // with Brokerage projected too, the transfers are internal: nothing recurs or is scheduled
    let both = ["a".to_string(), "b".to_string()];
    let mut inside = request("2026-10");
    inside.account_ids = Some(&both);
    let result = run(&f, "2026-09-24", inside);
    assert!(result.recurring.is_empty());
    assert!(result.scheduled.is_empty());
    assert_eq!(result.accounts, ["Checking", "Brokerage"]);
}

#[test]
fn given_income_replaces_recurring_and_scheduled_income() {
    let mut f = Fixture::new();
    f.account("a", "Checking", true);
    for m in 5..=9 {
        let on = format!("2026-{m:02}-05");
        f.tx(&format!("p-{m}"), &on, 2_000_000, "a", "EMPLOYER", None);
    }
    f.schedule(
        "s-bonus",
        "2026-01-28",
        "2026-10-28",
        "monthly",
        100_000,
        "a",
        "BONUS CO",
        None,
    );
    f.schedule(
        "s-gym",
        "2026-01-12",
        "2026-10-12",
        "monthly",
        -30_000,
        "a",
        "GYM",
        None,
    );
    let plain = run(&f, "2026-09-24", request("2026-10"));
    assert_eq!(plain.recurring.len(), 1);
    assert_eq!(plain.scheduled.len(), 2);
    let mut given = request("2026-10");
    given.monthly_income = Some(2_500_000);
    given.variable_monthly = Some(-1_000);
    let result = run(&f, "2026-09-24", given);
    assert!(result.recurring.is_empty());
    assert_eq!(result.monthly_income, 2_500_000);
    assert_eq!(result.variable_monthly, -1_000);
    let payees: Vec<_> = result.scheduled.iter().map(|o| o.payee.as_str()).collect();
    assert_eq!(payees, ["GYM"]);
    // 2000 received this month: 500 left to receive in September, the full 2500 in October
    assert_eq!(result.months[0].inflows, 500_000);
    assert_eq!(result.months[1].inflows, 2_500_000);
}

#[test]
fn one_offs_accounts_and_edges() {
    let mut f = example_4();
    f.account("a-old", "Old\u{202e} bank", true).closed = true;
    f.plan.accounts[3].balance = -5_000;
    let one_offs = [
        OneOff {
            date: d("2026-09-24"),
            amount: -1_000_000,
            label: "today".into(),
        },
        OneOff {
            date: d("2026-10-15"),
            amount: -7_000_000,
            label: "tax".into(),
        },
        OneOff {
            date: d("2026-12-01"),
            amount: -9_000_000,
            label: "after".into(),
        },
    ];
    let mut asked = request("2026-11");
    asked.one_offs = &one_offs;
    let result = run(&f, "2026-09-24", asked);
    assert_eq!(
        result.first_shortfall.map(CalendarMonth::label).as_deref(),
        Some("2026-10-01")
    );
    assert_eq!(result.months[1].outflows, -7_913_490);
    // an empty list projects nothing; closed accounts may be chosen; names are made safe
    let none: [String; 0] = [];
    let mut empty = request("2026-10");
    empty.account_ids = Some(&none);
    let result = run(&f, "2026-09-24", empty);
    assert_eq!(result.start_balance, 0);
    assert!(result.accounts.is_empty() && result.recurring.is_empty());
    assert!(rows(&result).iter().all(|r| *r == [0; 5]));
    let old = ["a-old".to_string()];
    let mut closed = request("2026-09");
    closed.account_ids = Some(&old);
    let result = run(&f, "2026-09-24", closed);
    assert_eq!(result.accounts, ["Old bank"]);
    assert_eq!(result.first_shortfall, Some(month("2026-09")));
    // unknown ids, sorted and once each
    let wrong = [
        "zz".to_string(),
        "a-chk".to_string(),
        "aa".to_string(),
        "zz".to_string(),
    ];
    let mut unknown = request("2026-09");
    unknown.account_ids = Some(&wrong);
    assert_eq!(
        forecast(&f.plan, d("2026-09-24"), unknown),
        Err("Unknown account(s) aa, zz: use ids from list_accounts.".to_string())
    );
}

#[test]
fn the_horizon_is_today_to_24_months_ahead() {
    let today = d("2026-09-25");
    assert_eq!(check_horizon(today, month("2026-09")), Ok(()));
    assert_eq!(check_horizon(today, month("2028-09")), Ok(()));
    assert_eq!(
        check_horizon(today, month("2028-10")),
        Err("until must be at most 24 months ahead.".to_string())
    );
    assert_eq!(
        check_horizon(today, month("2026-08")),
        Err("until must be the current month or later.".to_string())
    );
    assert_eq!(third(-300_000), -100_000);
    assert_eq!(third(-100_000), -33_333);
    assert_eq!(third(-200_000), -66_667);
    assert_eq!(third(200_000), 66_667);
}

#[test]
fn an_empty_plan_projects_zero() {
    let f = Fixture::new();
    let result = run(&f, "2026-12-31", request("2027-02"));
    assert_eq!(rows(&result), [[0; 5]; 3]);
    assert_eq!(result.first_shortfall, None);
}

/// A plan whose only flows are a −50 charge on the 31st of May, July and August, and a starting
/// balance of 100.
fn charged_on_the_31st() -> Fixture {
    let mut f = Fixture::new();
    f.account("a-chk", "Checking", true).balance = 100_000;
    for m in [5, 7, 8] {
        f.tx(
            &format!("c-{m}"),
            &format!("2026-{m:02}-31"),
            -50_000,
            "a-chk",
            "CLUB",
            None,
        );
    }
    f
}

/// D37: on 30 September a charge on day 31 is today's, so September projects nothing; on
/// 31 October it falls on day 31 as usual.
#[test]
fn a_charge_on_the_31st_seen_on_the_last_day_of_september() {
    let result = run(&charged_on_the_31st(), "2026-09-30", request("2026-10"));
    assert_eq!(
        result
            .recurring
            .iter()
            .map(|r| (r.day, r.amount))
            .collect::<Vec<_>>(),
        [(31, -50_000)]
    );
    assert_eq!(
        rows(&result),
        [
            [100_000, 0, 0, 100_000, 100_000],
            [100_000, 0, -50_000, 50_000, 50_000],
        ]
    );
}

/// D37: on 25 September the same charge counts on 30 September, in the outflows and the balance.
#[test]
fn a_charge_on_the_31st_falls_on_30_september() {
    let result = run(&charged_on_the_31st(), "2026-09-25", request("2026-09"));
    assert_eq!(rows(&result), [[100_000, 0, -50_000, 50_000, 50_000]]);
}
