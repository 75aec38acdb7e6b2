//! `find_recurring_charges` (`docs/contract/reads.md` §14): the charges paid every month across the
//! whole plan, costliest over a year first, each with its usual category and whether a schedule
//! covers it.
//!
//! Recurring income is listed after the charges only when asked, and never counts in the yearly
//! total; yearly amounts are monthly × 12 rounded to the cent, ties to even, on exact integers.

use super::assignable::CategoryIndex;
use super::index::PlanIndex;
use super::recurring::{
    Direction, Flow, LOOKBACK_MONTHS, Planned, Recurring, first_day_of, flows, not_a_transfer,
    recurring,
};
use super::schedule::to_cents;
use crate::months::{CalendarMonth, full_months_before};
use crate::text::safe;
use chrono::NaiveDate;
use std::collections::HashMap;
use ynab::models::{Milliunits, PlanDetail};

/// One recurring charge (or income) as the answer lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Charge {
    /// The normalised merchant, safe text.
    pub payee: String,
    /// The typical monthly amount (median), negative for a charge.
    pub monthly_amount: Milliunits,
    /// Monthly × 12, rounded to the cent.
    pub yearly_amount: Milliunits,
    pub day: u32,
    pub months_seen: usize,
    /// The most frequent category's name (visible categories only), safe text.
    pub category: Option<String>,
    /// A YNAB schedule already covers it.
    pub scheduled: bool,
}

/// The answer's figures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecurringCharges {
    pub charges: Vec<Charge>,
    /// The charges' yearly amounts together (income never included).
    pub yearly_total: Milliunits,
    /// The full months looked at, oldest first.
    pub months_looked_at: Vec<CalendarMonth>,
}

/// Per payee (safe text of the merchant), the most frequent category id among the window's
/// categorised transactions, both directions together; ties go to the first met.
fn usual_categories<'a>(flows: &[Flow<'a>], window: &[CalendarMonth]) -> HashMap<String, &'a str> {
    // payee → [(category id, count)] in the order first met
    let mut counts: HashMap<String, Vec<(&'a str, usize)>> = HashMap::new();
    for flow in flows {
        let Some(category) = flow.category_id else {
            continue;
        };
        if !window.contains(&CalendarMonth::of(flow.date)) {
            continue;
        }
        let seen = counts.entry(safe(&flow.merchant)).or_default();
        match seen.iter_mut().find(|(id, _)| *id == category) {
            Some((_, n)) => *n += 1,
            None => seen.push((category, 1)),
        }
    }
    counts
        .into_iter()
        .filter_map(|(payee, seen)| {
            let mut best: Option<(&str, usize)> = None;
            for (id, n) in seen {
                if best.is_none_or(|(_, top)| n > top) {
                    best = Some((id, n));
                }
            }
            best.map(|(id, _)| (payee, id))
        })
        .collect()
}

/// The recurring charges of the whole plan (every account, tracking ones included), "today"
/// being `today`; recurring income after them when `include_income`.
pub fn recurring_charges(
    plan: &PlanDetail,
    today: NaiveDate,
    include_income: bool,
) -> RecurringCharges {
    recurring_charges_indexed(plan, &PlanIndex::build(plan), today, include_income)
}

/// [`recurring_charges`] with the plan's index as the plan store keeps it.
pub fn recurring_charges_indexed(
    plan: &PlanDetail,
    index: &PlanIndex,
    today: NaiveDate,
    include_income: bool,
) -> RecurringCharges {
    let window = full_months_before(today, LOOKBACK_MONTHS);
    // Only the window's months are read: older transactions are never turned into flows.
    let since = first_day_of(&window);
    let usable = flows(plan, index, |t| *t.date >= *since && not_a_transfer(t));
    let planned = Planned::new(plan, &plan.scheduled_transactions);
    let categories = CategoryIndex::new(&plan.category_groups, &plan.categories);
    let usual = usual_categories(&usable, &window);
    let entry = |r: &Recurring| {
        let payee = r.payee();
        let category = usual
            .get(&payee)
            .and_then(|id| categories.visible_name(id))
            .map(safe);
        Charge {
            monthly_amount: r.amount,
            yearly_amount: to_cents(r.amount.saturating_mul(12)),
            day: r.day,
            months_seen: r.months_seen,
            category,
            scheduled: planned.covers(&r.merchant, r.direction),
            payee,
        }
    };
    let found: Vec<Recurring> = recurring(&usable, today)
        .into_iter()
        .filter(|r| r.amount != 0)
        .collect();
    let mut charges: Vec<Charge> = found
        .iter()
        .filter(|r| r.direction == Direction::Outflow)
        .map(entry)
        .collect();
    charges.sort_by_key(|c| c.yearly_amount);
    let yearly_total = charges
        .iter()
        .fold(0, |sum: Milliunits, c| sum.saturating_add(c.yearly_amount));
    if include_income {
        let mut income: Vec<Charge> = found
            .iter()
            .filter(|r| r.direction == Direction::Inflow)
            .map(entry)
            .collect();
        income.sort_by_key(|c| std::cmp::Reverse(c.yearly_amount));
        charges.extend(income);
    }
    RecurringCharges {
        charges,
        yearly_total: to_cents(yearly_total),
        months_looked_at: window,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::fixtures::Fixture;

    fn d(text: &str) -> NaiveDate {
        crate::args::parse_date(text).expect("a date")
    }

    /// The fixture of §14's worked examples: May–August, STREAMFLIX, LANDLORD SARL and the
    /// salary every month, CORNER SHOP once.
    fn plan() -> Fixture {
        let mut f = Fixture::new();
        f.account("a", "Checking", true);
        f.group("g-internal", "Internal Master Category");
        f.category("c-inflow", "g-internal", "Inflow: Ready to Assign");
        f.group("g", "Bills");
        f.category("c-subs", "g", "Subscriptions");
        f.category("c-rent", "g", "Rent");
        for m in 5..=8 {
            let on = |day: u32| format!("2026-{m:02}-{day:02}");
            let n = |k: &str| format!("{k}-{m}");
            f.tx(&n("s"), &on(15), -13_490, "a", "STREAMFLIX", Some("c-subs"));
            f.tx(
                &n("r"),
                &on(3),
                -950_000,
                "a",
                "LANDLORD SARL",
                Some("c-rent"),
            );
            f.tx(
                &n("p"),
                &on(28),
                3_200_000,
                "a",
                "ACME EMPLOYER SALAIRE",
                Some("c-inflow"),
            );
        }
        f.tx("shop", "2026-06-11", -12_000, "a", "CORNER SHOP", None);
        f
    }

    fn shown(
        c: &Charge,
    ) -> (
        String,
        Milliunits,
        Milliunits,
        u32,
        usize,
        Option<&str>,
        bool,
    ) {
        (
            c.payee.clone(),
            c.monthly_amount,
            c.yearly_amount,
            c.day,
            c.months_seen,
            c.category.as_deref(),
            c.scheduled,
        )
    }

    #[test]
    fn worked_example_1_no_schedule() {
        let f = plan();
        let found = recurring_charges(&f.plan, d("2026-09-24"), false);
        let rows: Vec<_> = found.charges.iter().map(shown).collect();
        assert_eq!(
            rows,
            [
                (
                    "LANDLORD SARL".to_string(),
                    -950_000,
                    -11_400_000,
                    3,
                    4,
                    Some("Rent"),
                    false
                ),
                (
                    "STREAMFLIX".to_string(),
                    -13_490,
                    -161_880,
                    15,
                    4,
                    Some("Subscriptions"),
                    false
                ),
            ]
        );
        assert_eq!(found.yearly_total, -11_561_880);
        let months: Vec<String> = found.months_looked_at.iter().map(|m| m.label()).collect();
        assert_eq!(
            months,
            ["2026-05-01", "2026-06-01", "2026-07-01", "2026-08-01"]
        );
    }

    #[test]
    fn worked_example_2_income_and_a_schedule() {
        let mut f = plan();
        f.schedule(
            "s-rent",
            "2026-01-03",
            "2026-10-03",
            "monthly",
            -950_000,
            "a",
            "Landlord SARL",
            None,
        );
        f.schedule(
            "s-gone",
            "2026-01-15",
            "2026-10-15",
            "monthly",
            -13_490,
            "a",
            "STREAMFLIX",
            None,
        )
        .deleted = true;
        let found = recurring_charges(&f.plan, d("2026-09-24"), true);
        let rows: Vec<_> = found.charges.iter().map(shown).collect();
        assert_eq!(rows.len(), 3);
        assert!(rows[0].6, "LANDLORD SARL is scheduled");
        assert_eq!(rows[1].0, "STREAMFLIX");
        assert!(!rows[1].6, "a deleted schedule covers nothing");
        assert_eq!(
            rows[2],
            (
                "ACME EMPLOYER SALAIRE".to_string(),
                3_200_000,
                38_400_000,
                28,
                4,
                Some("Inflow: Ready to Assign"),
                false
            )
        );
        assert_eq!(found.yearly_total, -11_561_880);
    }

    #[test]
    fn worked_example_3_most_frequent_category() {
        let mut f = plan();
        if let Some(t) = f.plan.transactions.iter_mut().find(|t| t.id == "s-5") {
            t.category_id = Some("c-rent".into());
        }
        for m in 5..=8 {
            let (id, on) = (format!("gym-{m}"), format!("2026-{m:02}-02"));
            f.tx(&id, &on, -30_000, "a", "GYM CLUB", None);
        }
        let found = recurring_charges(&f.plan, d("2026-09-24"), false);
        let streamflix = found.charges.iter().find(|c| c.payee == "STREAMFLIX");
        assert_eq!(
            streamflix.and_then(|c| c.category.as_deref()),
            Some("Subscriptions")
        );
        let gym = found.charges.iter().find(|c| c.payee == "GYM CLUB");
        assert_eq!(gym.map(|c| c.category.clone()), Some(None));
    }

    #[test]
    fn ties_hidden_categories_transfers_and_tracking_accounts() {
        let mut f = Fixture::new();
        f.account("a", "Checking", true);
        f.account("t", "Brokerage", false);
        f.group("g", "Fun");
        f.category("c-one", "g", "One");
        f.category("c-two", "g", "Two");
        f.category("c-hidden", "g", "Old").hidden = true;
        for (m, category) in [(5, "c-two"), (6, "c-one"), (7, "c-one"), (8, "c-two")] {
            let on = format!("2026-{m:02}-09");
            f.tx(&format!("tie-{m}"), &on, -5_000, "a", "TIE", Some(category));
            f.tx(
                &format!("hid-{m}"),
                &on,
                -7_000,
                "a",
                "HID",
                Some("c-hidden"),
            );
            f.tx(&format!("trk-{m}"), &on, -9_000, "t", "FEE\u{202e}", None);
            f.tx(
                &format!("tr-{m}"),
                &on,
                -100_000,
                "a",
                "Transfer : Brokerage",
                None,
            )
            .transfer_account_id = Some("t".into());
            f.tx(&format!("z-{m}"), &on, 0, "a", "NOTHING", None);
        }
        let found = recurring_charges(&f.plan, d("2026-09-24"), true);
        let names: Vec<(&str, Option<&str>)> = found
            .charges
            .iter()
            .map(|c| (c.payee.as_str(), c.category.as_deref()))
            .collect();
        // costliest first; the tie goes to the first category met; hidden → null;
        // transfers and zero amounts are never charges; tracking accounts count.
        assert_eq!(names, [("FEE", None), ("HID", None), ("TIE", Some("Two"))]);
    }

    #[test]
    fn an_empty_plan_has_no_charge() {
        let found = recurring_charges(&Fixture::new().plan, d("2026-01-10"), true);
        assert!(found.charges.is_empty());
        assert_eq!(found.yearly_total, 0);
        assert_eq!(found.months_looked_at[0].label(), "2025-09-01");
    }
}
