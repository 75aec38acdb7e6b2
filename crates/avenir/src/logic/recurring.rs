//! Recurring detection (`docs/contract/reads.md` §1.10) and "covered by a schedule" (§1.12), shared
//! by `forecast_balance` and `find_recurring_charges`: a payee paid in 3 of the last 4 full months
//! with a stable monthly sum is recurring, and a schedule whose payee words it carries covers it.
//!
//! The reference compares amounts in floats; here the same comparisons run on exact integers
//! (twice the median, so an even count's half-milliunit stays exact), which decide identically.

use super::index::PlanIndex;
use super::merchant::merchant;
use super::names::PlanNames;
use crate::months::{CalendarMonth, full_months_before};
use crate::text::safe;
use chrono::{Datelike, NaiveDate};
use std::collections::BTreeMap;
use ynab::models::{Milliunits, PlanDetail, ScheduledTransactionSummary, TransactionSummary};

/// Full months looked at, today's month never among them.
pub const LOOKBACK_MONTHS: usize = 4;
/// Distinct months with a transaction a payee needs to be recurring.
pub const MIN_MONTHS_SEEN: usize = 3;
/// Each month's sum stays within this share of the median: 1/5 (AMOUNT_TOLERANCE 0.2).
const TOLERANCE_DENOMINATOR: i128 = 5;

/// Which way money goes. Inflow sorts before outflow (§1.10 step 7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Direction {
    /// Money in; an amount of exactly 0 counts as an inflow.
    Inflow,
    /// Money out: a negative amount.
    Outflow,
}

impl Direction {
    pub fn of(amount: Milliunits) -> Self {
        if amount < 0 {
            Direction::Outflow
        } else {
            Direction::Inflow
        }
    }
}

/// One transaction as recurring detection reads it: its date, amount, merchant and category.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Flow<'a> {
    pub date: NaiveDate,
    pub amount: Milliunits,
    /// `merchant(payee_name)` (§1.6), `""` without a payee.
    pub merchant: String,
    pub category_id: Option<&'a str>,
}

/// The plan's transactions that `keep` accepts (deleted ones never), as flows; a transaction
/// whose date is not a date is left out. A split counts once, by its parent's amount and payee.
pub fn flows<'a>(
    plan: &'a PlanDetail,
    index: &PlanIndex,
    keep: impl Fn(&TransactionSummary) -> bool,
) -> Vec<Flow<'a>> {
    plan.transactions
        .iter()
        .filter(|t| !t.deleted && keep(t))
        .filter_map(|t| {
            Some(Flow {
                date: t.date.parse::<NaiveDate>().ok()?,
                amount: t.amount,
                merchant: index.merchant(t.payee_id.as_deref()).to_string(),
                category_id: t.category_id.as_deref(),
            })
        })
        .collect()
}

/// A usable transaction (§1.9) for `find_recurring_charges`: not a transfer, whichever account it
/// goes to.
/// The first day (`YYYY-MM-01`) of the earliest of `months`, "" for none: transactions dated
/// before it are in none of them, so a caller that reads only those months skips them before
/// building their flows.
pub fn first_day_of(months: &[CalendarMonth]) -> String {
    // (A month's own label is already `YYYY-MM-01`: ask for its first day, not its text.)
    months
        .iter()
        .min()
        .and_then(|m| m.first_day())
        .map_or_else(String::new, |day| day.to_string())
}

pub fn not_a_transfer(t: &TransactionSummary) -> bool {
    t.transfer_account_id.is_none()
}

/// A payee paid (or paying) about the same every month.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recurring {
    /// The normalised merchant, as YNAB's text gave it (shown through [`Recurring::payee`]).
    pub merchant: String,
    pub direction: Direction,
    /// The median monthly sum, rounded to the milliunit, ties to even.
    pub amount: Milliunits,
    /// The usual day of the month: the median day of every transaction, truncated.
    pub day: u32,
    /// Distinct months with a transaction: 3 or 4.
    pub months_seen: usize,
}

impl Recurring {
    /// The payee as an answer shows it (bank text made safe).
    pub fn payee(&self) -> String {
        safe(&self.merchant)
    }
}

/// Twice the median of `values` (sorted here): exact for an even count too.
fn twice_median(values: &mut [i128]) -> Option<i128> {
    values.sort_unstable();
    let n = values.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(2 * values[n / 2]),
        _ => Some(values[n / 2 - 1] + values[n / 2]),
    }
}

/// `twice / 2` rounded to an integer, ties to even (Python's `round`).
fn half_to_even(twice: i128) -> i128 {
    let floor = twice.div_euclid(2);
    if twice.rem_euclid(2) == 0 || floor % 2 == 0 {
        floor
    } else {
        floor + 1
    }
}

#[derive(Default)]
struct Group {
    by_month: BTreeMap<CalendarMonth, i128>,
    days: Vec<i128>,
}

/// `recurring(transactions, today)` of §1.10 over flows already reduced to the usable ones: the
/// payees seen in at least 3 of the 4 full months before today's, every month's sum within 20 %
/// of the median; sorted by merchant, inflow before outflow.
pub fn recurring(flows: &[Flow<'_>], today: NaiveDate) -> Vec<Recurring> {
    let window = full_months_before(today, LOOKBACK_MONTHS);
    let mut groups: BTreeMap<(&str, Direction), Group> = BTreeMap::new();
    for flow in flows {
        let month = CalendarMonth::of(flow.date);
        if flow.merchant.is_empty() || !window.contains(&month) {
            continue;
        }
        let group = groups
            .entry((flow.merchant.as_str(), Direction::of(flow.amount)))
            .or_default();
        *group.by_month.entry(month).or_default() += i128::from(flow.amount);
        group.days.push(i128::from(flow.date.day()));
    }
    groups
        .into_iter()
        .filter_map(|((merchant, direction), mut group)| {
            let months_seen = group.by_month.len();
            if months_seen < MIN_MONTHS_SEEN {
                return None;
            }
            let mut sums: Vec<i128> = group.by_month.values().copied().collect();
            let median2 = twice_median(&mut sums)?;
            // abs(sum − m) <= abs(m) × 0.2, with both sides doubled and multiplied by 5.
            let stable = sums
                .iter()
                .all(|s| TOLERANCE_DENOMINATOR * (2 * s - median2).abs() <= median2.abs());
            if !stable {
                return None;
            }
            let day = twice_median(&mut group.days)? / 2;
            Some(Recurring {
                merchant: merchant.to_string(),
                direction,
                amount: Milliunits::try_from(half_to_even(median2)).ok()?,
                day: u32::try_from(day).ok()?,
                months_seen,
            })
        })
        .collect()
}

/// The words of a merchant: maximal runs of ASCII `A-Z` and `0-9`.
pub fn words(text: &str) -> Vec<&str> {
    text.split(|c: char| !(c.is_ascii_uppercase() || c.is_ascii_digit()))
        .filter(|w| !w.is_empty())
        .collect()
}

/// The (merchant, direction) pairs of YNAB schedules, which "cover" the payees they name (§1.12).
#[derive(Debug, Clone, Default)]
pub struct Planned {
    /// (name, direction, the name's words), the words split once.
    entries: Vec<(String, Direction, Vec<String>)>,
}

impl Planned {
    /// The pairs of `schedules` (deleted ones never), their payee names looked up in `plan`.
    pub fn new<'a>(
        plan: &'a PlanDetail,
        schedules: impl IntoIterator<Item = &'a ScheduledTransactionSummary>,
    ) -> Self {
        let schedules: Vec<&ScheduledTransactionSummary> =
            schedules.into_iter().filter(|s| !s.deleted).collect();
        let names =
            PlanNames::for_payees(plan, schedules.iter().filter_map(|s| s.payee_id.as_deref()));
        Planned {
            entries: schedules
                .into_iter()
                .map(|s| {
                    (
                        merchant(names.payee(s.payee_id.as_deref())),
                        Direction::of(s.amount),
                    )
                })
                .map(Planned::entry)
                .collect(),
        }
    }

    /// Pairs given directly (tests).
    pub fn of(entries: Vec<(String, Direction)>) -> Self {
        Planned {
            entries: entries.into_iter().map(Planned::entry).collect(),
        }
    }

    fn entry((name, direction): (String, Direction)) -> (String, Direction, Vec<String>) {
        let name_words = words(&name).into_iter().map(str::to_string).collect();
        (name, direction, name_words)
    }

    /// `covered(payee, direction, schedules)`: a schedule of that direction whose name has words,
    /// and equals the payee or has every word in the payee's words.
    pub fn covers(&self, payee: &str, direction: Direction) -> bool {
        let payee_words = words(payee);
        self.entries.iter().any(|(name, d, name_words)| {
            *d == direction
                && !name_words.is_empty()
                && (name == payee || name_words.iter().all(|w| payee_words.contains(&w.as_str())))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn d(text: &str) -> NaiveDate {
        crate::args::parse_date(text).expect("a date")
    }

    #[test]
    fn the_first_day_of_months_is_their_earliest_first_day() {
        let months = full_months_before(d("2026-09-25"), 4);
        assert_eq!(first_day_of(&months), "2026-05-01");
        assert_eq!(first_day_of(&[]), "");
    }

    fn flow(date: &str, amount: Milliunits, label: &str) -> Flow<'static> {
        Flow {
            date: d(date),
            amount,
            merchant: merchant(label),
            category_id: None,
        }
    }

    /// (payee, amount, day, months_seen) of each entry.
    fn found(flows: &[Flow<'_>], today: &str) -> Vec<(String, Milliunits, u32, usize)> {
        recurring(flows, d(today))
            .into_iter()
            .map(|r| (r.payee(), r.amount, r.day, r.months_seen))
            .collect()
    }

    /// The worked examples of §1.10 (today 2026-09-24, window 2026-05 … 2026-08).
    #[test]
    fn worked_examples() {
        let today = "2026-09-24";
        let lease: Vec<_> = ["2026-05-25", "2026-06-25", "2026-08-25"]
            .into_iter()
            .map(|date| flow(date, -364_080, "CAR LEASE"))
            .collect();
        assert_eq!(
            found(&lease, today),
            [("CAR LEASE".to_string(), -364_080, 25, 3)]
        );
        let rare = [
            flow("2026-07-01", -10_000, "RARE"),
            flow("2026-08-01", -10_000, "RARE"),
        ];
        assert!(found(&rare, today).is_empty());
        let restaurant = [
            flow("2026-05-02", -20_000, "RESTAURANT"),
            flow("2026-06-02", -60_000, "RESTAURANT"),
            flow("2026-07-02", -30_000, "RESTAURANT"),
        ];
        assert!(found(&restaurant, today).is_empty());
        let old_new = [
            flow("2026-01-02", -5_000, "OLD"),
            flow("2026-02-02", -5_000, "OLD"),
            flow("2026-03-02", -5_000, "OLD"),
            flow("2026-08-02", -5_000, "NEW"),
            flow("2026-09-02", -5_000, "NEW"),
        ];
        assert!(found(&old_new, today).is_empty());
        let gym = [
            flow("2026-05-03", -10_000, "GYM"),
            flow("2026-06-04", -11_000, "GYM"),
            flow("2026-07-05", -10_500, "GYM"),
            flow("2026-08-20", -11_500, "GYM"),
        ];
        assert_eq!(found(&gym, today), [("GYM".to_string(), -10_750, 4, 4)]);
        let creeping = [
            flow("2026-05-03", -10_000, "GYM"),
            flow("2026-06-03", -10_001, "GYM"),
            flow("2026-07-03", -10_002, "GYM"),
            flow("2026-08-03", -10_003, "GYM"),
        ];
        assert_eq!(found(&creeping, today)[0].1, -10_002);
        let jumpy = [
            flow("2026-05-03", -10_000, "GYM"),
            flow("2026-06-03", -12_000, "GYM"),
            flow("2026-07-03", -15_000, "GYM"),
        ];
        assert!(found(&jumpy, today).is_empty());
        let rent = [
            flow("2025-09-01", -800_000, "RENT"),
            flow("2025-11-01", -800_000, "RENT"),
            flow("2025-12-01", -800_000, "RENT"),
        ];
        assert_eq!(
            found(&rent, "2026-01-15"),
            [("RENT".to_string(), -800_000, 1, 3)]
        );
        let blank = [
            flow("2026-05-01", -1_000, ""),
            flow("2026-06-01", -1_000, ""),
            flow("2026-07-01", -1_000, ""),
        ];
        assert!(found(&blank, today).is_empty());
    }

    #[test]
    fn instalments_add_up_and_directions_stay_apart() {
        let mut list = Vec::new();
        for month in ["05", "06", "07"] {
            list.push(flow(&format!("2026-{month}-02"), -20_000, "SHOP"));
            list.push(flow(&format!("2026-{month}-12"), -10_000, "SHOP"));
            list.push(flow(&format!("2026-{month}-20"), 5_000, "SHOP"));
            list.push(flow(&format!("2026-{month}-21"), 0, "ZERO"));
            list.push(flow(&format!("2026-{month}-03"), -1_000, "ALPHA"));
        }
        assert_eq!(
            found(&list, "2026-09-24"),
            [
                ("ALPHA".to_string(), -1_000, 3, 3),
                ("SHOP".to_string(), 5_000, 20, 3),
                ("SHOP".to_string(), -30_000, 7, 3),
                ("ZERO".to_string(), 0, 21, 3),
            ]
        );
        let shop = recurring(&list, d("2026-09-24"));
        assert_eq!(shop[1].direction, Direction::Inflow);
        assert_eq!(shop[2].direction, Direction::Outflow);
    }

    #[test]
    fn the_tolerance_boundary_is_included() {
        // median −30000: −36000 deviates exactly 20 %, −36001 more.
        let edge = |last| {
            [
                flow("2026-05-03", -30_000, "X"),
                flow("2026-06-03", -30_000, "X"),
                flow("2026-07-03", last, "X"),
            ]
        };
        assert_eq!(found(&edge(-36_000), "2026-09-24").len(), 1);
        assert!(found(&edge(-36_001), "2026-09-24").is_empty());
        // an even count's median is a half milliunit: −10000.5 → −10000 (ties to even)
        let half = [
            flow("2026-05-03", -10_000, "Y"),
            flow("2026-06-03", -10_001, "Y"),
            flow("2026-07-03", -10_000, "Y"),
            flow("2026-08-03", -10_001, "Y"),
        ];
        assert_eq!(found(&half, "2026-09-24")[0].1, -10_000);
    }

    /// The examples of §1.12.
    #[test]
    fn covered_by_a_schedule() {
        let planned = Planned::of(vec![
            ("ACME PAYROLL".into(), Direction::Inflow),
            ("ACME".into(), Direction::Outflow),
            (String::new(), Direction::Inflow),
            ("- -".into(), Direction::Outflow),
        ]);
        assert!(planned.covers(
            "ACME PAYROLL - ACME PAYROLL - REF-FF2608004",
            Direction::Inflow
        ));
        assert!(!planned.covers("ACMEVILLE STORE", Direction::Outflow));
        assert!(planned.covers("ACME SAS - ACME", Direction::Outflow));
        assert!(!planned.covers("ACME", Direction::Inflow));
        assert!(!planned.covers("", Direction::Inflow));
        assert!(!planned.covers("- -", Direction::Outflow));
        assert_eq!(words("TENNIS CLUB - PRELEV"), ["TENNIS", "CLUB", "PRELEV"]);
    }

    fn month_of(k: u32) -> String {
        [
            "2026-05", "2026-06", "2026-07", "2026-08", "2026-09", "2026-04",
        ][k as usize]
            .to_string()
    }

    proptest! {
        /// Every entry was seen in 3 or 4 window months, every month within 20 % of its amount,
        /// on a real day; the list is sorted by merchant then direction.
        #[test]
        fn entries_keep_the_rules(
            txs in proptest::collection::vec((0u32..6, 1u32..29, -50_000i64..50_000, 0usize..3), 0..40)
        ) {
            let merchants = ["A", "B", "C"];
            let list: Vec<Flow<'static>> = txs
                .iter()
                .map(|(m, day, amount, who)| {
                    flow(&format!("{}-{day:02}", month_of(*m)), *amount, merchants[*who])
                })
                .collect();
            let found = recurring(&list, d("2026-09-24"));
            for pair in found.windows(2) {
                prop_assert!((&pair[0].merchant, pair[0].direction) < (&pair[1].merchant, pair[1].direction));
            }
            for r in &found {
                prop_assert!((3..=4).contains(&r.months_seen));
                prop_assert!((1..=28).contains(&r.day));
                let window = full_months_before(d("2026-09-24"), 4);
                let mut sums: BTreeMap<CalendarMonth, i64> = BTreeMap::new();
                for f in list.iter().filter(|f| f.merchant == r.merchant && Direction::of(f.amount) == r.direction) {
                    if window.contains(&CalendarMonth::of(f.date)) {
                        *sums.entry(CalendarMonth::of(f.date)).or_default() += f.amount;
                    }
                }
                prop_assert_eq!(sums.len(), r.months_seen);
                for s in sums.values() {
                    // within 20 % of the rounded median, give or take the rounding
                    prop_assert!(5 * (s - r.amount).abs() <= r.amount.abs() + 5);
                }
            }
        }
    }
}
