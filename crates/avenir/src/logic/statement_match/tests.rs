//! Matching checked on hand-made cases and, as a property, on statements made from the demo
//! plan's Checking account with lines removed, added, shifted within the window and reordered.

use super::*;
use proptest::prelude::*;

fn day(text: &str) -> NaiveDate {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap_or(NaiveDate::MIN)
}

fn entry(date: &str, amount: Milliunits, payee: &'static str) -> Entry<'static> {
    Entry {
        date: day(date),
        amount,
        payee,
        import_id: None,
    }
}

const SEPTEMBER: (&str, &str) = ("2026-09-01", "2026-09-30");

fn september() -> (NaiveDate, NaiveDate) {
    (day(SEPTEMBER.0), day(SEPTEMBER.1))
}

#[test]
fn a_duplicate_in_ynab_is_extra_once_and_the_bank_s_other_lines_match() {
    let ledger = [
        entry("2026-09-19", -71_860, "CB MARKET FRESH FACT 190926"),
        entry("2026-09-19", -71_860, "CB MARKET FRESH FACT 190926"),
        entry("2026-09-02", -950_000, "Rent"),
    ];
    let lines = [
        entry("2026-09-01", -950_000, "PRLV SEPA LANDLORD RENT"),
        entry("2026-09-20", -71_860, "CB MARKET FRESH 19/09"),
        entry("2026-09-21", -3_500, "FRAIS TENUE DE COMPTE"),
    ];
    let found = compare(&lines, &ledger, september());
    assert_eq!(found.matched, vec![(0, 2), (1, 0)]);
    assert_eq!(found.extra_in_ynab, vec![1]);
    assert_eq!(found.missing_in_ynab, vec![2]);
    assert!(found.mismatched.is_empty());
}

#[test]
fn the_nearest_date_wins_then_the_likelier_payee() {
    let ledger = [
        entry("2026-09-10", -20_000, "CINEMA"),
        entry("2026-09-12", -20_000, "BAKERY"),
        entry("2026-09-12", -20_000, "PHARMACY"),
    ];
    let lines = [
        entry("2026-09-12", -20_000, "PHARMACIE PHARMACY CENTRE"),
        entry("2026-09-11", -20_000, "BOULANGERIE BAKERY"),
    ];
    let found = compare(&lines, &ledger, september());
    assert_eq!(found.matched, vec![(0, 2), (1, 1)]);
    assert_eq!(found.extra_in_ynab, vec![0]);
}

#[test]
fn an_import_id_pairs_before_any_date_and_a_window_of_ten_days_is_kept() {
    let mut imported = entry("2026-09-25", -15_000, "BOOKSHOP");
    imported.import_id = Some("YNAB:-15000:2026-09-03:1");
    let mut line = entry("2026-09-03", -15_000, "BOOKSHOP");
    line.import_id = Some("YNAB:-15000:2026-09-03:1");
    let ledger = [entry("2026-09-03", -15_000, "BOOKSHOP"), imported];
    let found = compare(&[line], &ledger, september());
    assert_eq!(found.matched, vec![(0, 1)]);
    assert_eq!(found.extra_in_ynab, vec![0]);

    let ledger = [entry("2026-09-14", -9_990, "STREAMING")];
    let ten = compare(
        &[entry("2026-09-04", -9_990, "NETFLIX")],
        &ledger,
        september(),
    );
    assert_eq!(ten.matched, vec![(0, 0)]);
    let eleven = compare(
        &[entry("2026-09-03", -9_990, "NETFLIX")],
        &ledger,
        september(),
    );
    assert!(eleven.matched.is_empty());
    assert_eq!(eleven.missing_in_ynab, vec![0]);
}

#[test]
fn alike_payees_that_disagree_are_mismatched_not_missing_and_extra() {
    let ledger = [
        entry("2026-09-05", -45_000, "ELECTRICITY COMPANY"),
        entry("2026-08-01", -12_000, "GYM CLUB"),
    ];
    let lines = [
        entry("2026-09-06", -54_000, "PRLV ELECTRICITY COMPANY"),
        entry("2026-08-20", -12_000, "GYM CLUB"),
    ];
    let found = compare(&lines, &ledger, (day("2026-08-01"), day("2026-09-30")));
    assert_eq!(
        found.mismatched,
        vec![(0, 0, Disagreement::Amount), (1, 1, Disagreement::Date)]
    );
    assert!(found.matched.is_empty() && found.missing_in_ynab.is_empty());
    assert!(found.extra_in_ynab.is_empty());
}

#[test]
fn a_transaction_outside_the_statement_s_period_is_never_extra() {
    let ledger = [
        entry("2026-10-02", -1_000, "LATER"),
        entry("2026-08-31", -1_000, "EARLIER"),
    ];
    let found = compare(&[], &ledger, september());
    assert!(found.extra_in_ynab.is_empty());
}

#[test]
fn likeness_reads_merchants_not_card_numbers_or_dates() {
    assert_eq!(
        likeness("CB MARKET FRESH FACT 190926 525130******1", "MARKET FRESH"),
        100
    );
    assert_eq!(likeness("RENT", "GROCERIES"), 0);
    assert_eq!(likeness("", "ANYTHING"), 0);
}

/// The demo plan's Checking transactions of September: (date, amount, payee).
fn demo_checking() -> Vec<(NaiveDate, Milliunits, String)> {
    let plan = ynab_sandbox::demo::demo_plan(day("2026-09-25"));
    let checking = plan
        .accounts
        .iter()
        .find(|a| a.name == "Checking")
        .map(|a| a.id.clone())
        .unwrap_or_default();
    plan.transactions
        .iter()
        .filter(|t| t.account_id == checking && !t.deleted)
        .map(|t| {
            (
                day(&t.date),
                t.amount,
                t.payee_name.clone().unwrap_or_default(),
            )
        })
        .filter(|(date, _, _)| (day(SEPTEMBER.0)..=day(SEPTEMBER.1)).contains(date))
        .collect()
}

/// What was done to the statement made from the ledger.
#[derive(Debug, Clone)]
struct Changes {
    removed: Vec<prop::sample::Index>,
    added: Vec<(u32, i64)>,
    shifts: Vec<(prop::sample::Index, i64)>,
    order: Vec<prop::sample::Index>,
}

fn changes() -> impl Strategy<Value = Changes> {
    (
        prop::collection::vec(any::<prop::sample::Index>(), 0..4),
        prop::collection::vec((1u32..=30, 1i64..=99_999), 0..4),
        prop::collection::vec(
            (any::<prop::sample::Index>(), -WINDOW_DAYS..=WINDOW_DAYS),
            0..5,
        ),
        prop::collection::vec(any::<prop::sample::Index>(), 0..8),
    )
        .prop_map(|(removed, added, shifts, order)| Changes {
            removed,
            added,
            shifts,
            order,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Lines removed show as extra, lines added as missing, and shifting within the window or
    /// reordering changes nothing. Added lines have amounts of their own (an added line with a
    /// removed transaction's amount would rightly match it), and only lines whose amount is
    /// unique in the month are shifted (two equal amounts may trade partners, which is as good).
    #[test]
    fn a_statement_made_from_the_ledger_compares_back_to_the_changes(changes in changes()) {
        let ledger_rows = demo_checking();
        prop_assume!(!ledger_rows.is_empty());
        let ledger: Vec<Entry> = ledger_rows
            .iter()
            .map(|(date, amount, payee)| Entry { date: *date, amount: *amount, payee, import_id: None })
            .collect();
        let mut removed: Vec<usize> = changes.removed.iter().map(|i| i.index(ledger.len())).collect();
        removed.sort_unstable();
        removed.dedup();
        let unique = |amount: Milliunits| ledger.iter().filter(|e| e.amount == amount).count() == 1;
        let mut lines: Vec<(Entry, Option<usize>)> = ledger
            .iter()
            .enumerate()
            .filter(|(i, _)| !removed.contains(i))
            .map(|(i, e)| (*e, Some(i)))
            .collect();
        let mut shifted = std::collections::HashSet::new();
        for (index, shift) in &changes.shifts {
            let at = index.index(lines.len().max(1));
            if !shifted.insert(at) {
                continue; // one shift per line: two would leave the window
            }
            if let Some((line, _)) = lines.get_mut(at).filter(|(l, _)| unique(l.amount)) {
                line.date += chrono::Duration::days(*shift);
            }
        }
        for (n, (dom, cents)) in changes.added.iter().enumerate() {
            let amount = -(5_000_000 + cents * 10 + i64::try_from(n).unwrap_or(0));
            let date = day(SEPTEMBER.0) + chrono::Duration::days(i64::from(*dom) - 1);
            lines.push((Entry { date, amount, payee: "FRAIS BANCAIRES", import_id: None }, None));
        }
        for (k, index) in changes.order.iter().enumerate() {
            let (a, b) = (k % lines.len().max(1), index.index(lines.len().max(1)));
            lines.swap(a, b);
        }
        let statement: Vec<Entry> = lines.iter().map(|(l, _)| *l).collect();
        let found = compare(&statement, &ledger, september());
        let extra: Vec<(NaiveDate, Milliunits)> =
            found.extra_in_ynab.iter().map(|&t| (ledger[t].date, ledger[t].amount)).collect();
        let mut expected: Vec<(NaiveDate, Milliunits)> =
            removed.iter().map(|&t| (ledger[t].date, ledger[t].amount)).collect();
        let mut extra_sorted = extra.clone();
        extra_sorted.sort_unstable();
        expected.sort_unstable();
        prop_assert_eq!(extra_sorted, expected);
        let mut missing: Vec<usize> = found.missing_in_ynab.clone();
        missing.sort_unstable();
        let mut added: Vec<usize> =
            lines.iter().enumerate().filter(|(_, (_, from))| from.is_none()).map(|(i, _)| i).collect();
        added.sort_unstable();
        prop_assert_eq!(missing, added);
        prop_assert!(found.mismatched.is_empty(), "{:?}", found.mismatched);
        prop_assert_eq!(found.matched.len(), ledger.len() - removed.len());
    }
}

/// The shape of the server's work for a large statement: 10,000 lines against 9,000
/// transactions, every line matched or missing exactly once.
#[test]
fn ten_thousand_lines_are_each_accounted_for_once() {
    let start = day("2025-01-01");
    let ledger: Vec<Entry> = (0..9_000i64)
        .map(|i| Entry {
            date: start + chrono::Duration::days(i % 365),
            amount: -(i % 700) * 10 - 1_000,
            payee: if i % 3 == 0 { "SHOP ONE" } else { "CAFE TWO" },
            import_id: None,
        })
        .collect();
    let lines: Vec<Entry> = (0..10_000i64)
        .map(|i| Entry {
            date: start + chrono::Duration::days(i % 365),
            amount: -(i % 700) * 10 - 1_000,
            payee: "SHOP ONE",
            import_id: None,
        })
        .collect();
    let found = compare(
        &lines,
        &ledger,
        (start, start + chrono::Duration::days(364)),
    );
    let paired = found.matched.len() + found.mismatched.len();
    assert_eq!(paired + found.missing_in_ynab.len(), lines.len());
    assert_eq!(paired + found.extra_in_ynab.len(), ledger.len());
    assert_eq!(found.matched.len(), 9_000);
}
