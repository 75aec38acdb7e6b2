//! The transactions waiting for a category (`docs/contract/reads.md` §12), newest first, each with
//! the classifier's suggestion and a hint when two of them look like the two halves of one
//! transfer.
//!
//! Pages are cut by offset: on an unchanged plan, following `next_cursor` from the first page
//! lists every pending transaction exactly once.

use super::assignable::{CategoryIndex, Offered};
use super::classifier::{Classifier, Suggestion};
use super::cursor;
use super::index::PlanIndex;
use super::names::{PlanNames, SplitLines};
use crate::text::safe;
use chrono::NaiveDate;
use std::collections::{HashMap, HashSet};
use ynab::models::{Milliunits, PlanDetail, TransactionSummary};

/// Days between the two halves of a transfer imported as two transactions.
pub const TRANSFER_WINDOW_DAYS: i64 = 3;

/// One pending transaction (text made safe).
#[derive(Debug, Clone, PartialEq)]
pub struct PendingItem {
    pub transaction_id: String,
    pub date: String,
    pub amount: Milliunits,
    pub payee: String,
    pub memo: Option<String>,
    pub account: String,
    pub suggestion: Option<Suggestion>,
    /// The id of the other half of a probable transfer imported as two transactions.
    pub possible_transfer_with: Option<String>,
}

/// Which page to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageRequest {
    /// Items skipped (the cursor's offset; 0 without a cursor).
    pub offset: usize,
    pub limit: usize,
    /// True when no cursor was given: only the first page lists the categories.
    pub first: bool,
}

/// One page of pending transactions.
#[derive(Debug, Clone, PartialEq)]
pub struct PendingPage {
    pub pending_count: usize,
    pub suggested_count: usize,
    pub items: Vec<PendingItem>,
    pub categories: Vec<Offered>,
    pub next_cursor: Option<String>,
}

/// The transactions a person still has to give a category: not deleted, no category (or the
/// internal Uncategorized), not a transfer, never split, on an account on budget; newest first.
pub fn pending<'a>(
    plan: &'a PlanDetail,
    categories: &CategoryIndex,
) -> Vec<&'a TransactionSummary> {
    pending_positions(plan, categories)
        .into_iter()
        .filter_map(|i| plan.transactions.get(i))
        .collect()
}

/// The pending transactions of one version of a plan, newest first, as positions in its
/// transaction list, with their probable transfer partners: found once per version (the plan
/// store keeps it), then each page is read off it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PendingList {
    positions: Vec<usize>,
    pairs: Vec<Option<usize>>,
}

impl PendingList {
    /// The list of `plan` (see [`pending`]).
    pub fn build(plan: &PlanDetail, categories: &CategoryIndex) -> Self {
        let positions = pending_positions(plan, categories);
        let list: Vec<&TransactionSummary> = positions
            .iter()
            .filter_map(|&i| plan.transactions.get(i))
            .collect();
        let pairs = transfer_pairs(&list);
        PendingList { positions, pairs }
    }

    /// The pending transactions of `plan` (the plan the list was built from), newest first.
    pub fn transactions<'a>(
        &'a self,
        plan: &'a PlanDetail,
    ) -> impl Iterator<Item = &'a TransactionSummary> + 'a {
        self.positions
            .iter()
            .filter_map(|&i| plan.transactions.get(i))
    }
}

fn pending_positions(plan: &PlanDetail, categories: &CategoryIndex) -> Vec<usize> {
    let off_budget: HashSet<&str> = plan
        .accounts
        .iter()
        .filter(|a| !a.on_budget)
        .map(|a| a.id.as_str())
        .collect();
    let lines = SplitLines::new(&plan.subtransactions);
    let mut list: Vec<(usize, &TransactionSummary)> = plan
        .transactions
        .iter()
        .enumerate()
        .filter(|(_, t)| !t.deleted)
        .filter(|(_, t)| match t.category_id.as_deref() {
            None | Some("") => true,
            Some(id) => categories.is_uncategorized(id),
        })
        .filter(|(_, t)| t.transfer_account_id.is_none())
        .filter(|(_, t)| !lines.has_any(&t.id))
        .filter(|(_, t)| !off_budget.contains(t.account_id.as_str()))
        .collect();
    list.sort_by(|a, b| b.1.date.cmp(&a.1.date));
    list.into_iter().map(|(i, _)| i).collect()
}

/// For each pending transaction (same order), the index of its probable other half: an outflow
/// and the first unpaired inflow of the opposite amount on another account, at most three days
/// apart.
pub fn transfer_pairs(pending: &[&TransactionSummary]) -> Vec<Option<usize>> {
    let dates: Vec<Option<NaiveDate>> = pending
        .iter()
        .map(|t| t.date.parse::<NaiveDate>().ok())
        .collect();
    let mut inflows: HashMap<Milliunits, Vec<usize>> = HashMap::new();
    for (j, t) in pending.iter().enumerate().filter(|(_, t)| t.amount > 0) {
        inflows.entry(t.amount).or_default().push(j);
    }
    let mut partner: Vec<Option<usize>> = vec![None; pending.len()];
    for (i, t) in pending.iter().enumerate() {
        if t.amount >= 0 || partner[i].is_some() {
            continue;
        }
        let Some(candidates) = t.amount.checked_neg().and_then(|a| inflows.get(&a)) else {
            continue;
        };
        let found = candidates.iter().copied().find(|&j| {
            partner[j].is_none()
                && pending[j].account_id != t.account_id
                && match (dates[i], dates[j]) {
                    (Some(a), Some(b)) => (a - b).num_days().abs() <= TRANSFER_WINDOW_DAYS,
                    _ => false,
                }
        });
        if let Some(j) = found {
            partner[i] = Some(j);
            partner[j] = Some(i);
        }
    }
    partner
}

/// The page `request` asks for, suggestions made with `threshold`.
pub fn pending_page(plan: &PlanDetail, threshold: f64, request: PageRequest) -> PendingPage {
    let index = PlanIndex::build(plan);
    let categories = CategoryIndex::new(&plan.category_groups, &plan.categories);
    let classifier = Classifier::learn_indexed(plan, &index, &categories);
    let list = PendingList::build(plan, &categories);
    pending_page_indexed(plan, &index, &classifier, &list, threshold, request)
}

/// [`pending_page`] with the plan's index, classifier and pending list as the plan store keeps
/// them.
pub fn pending_page_indexed(
    plan: &PlanDetail,
    index: &PlanIndex,
    classifier: &Classifier,
    pending: &PendingList,
    threshold: f64,
    request: PageRequest,
) -> PendingPage {
    let categories = CategoryIndex::new(&plan.category_groups, &plan.categories);
    let list: Vec<&TransactionSummary> = pending.transactions(plan).collect();
    let pairs = &pending.pairs;
    // Every pending transaction's suggestion (the count says how many have one); the shown
    // fields only for the page's rows.
    let suggestions: Vec<Option<Suggestion>> = list
        .iter()
        .map(|t| {
            classifier.suggest_for_merchant(
                index.merchant(t.payee_id.as_deref()),
                t.amount,
                &categories,
                threshold,
            )
        })
        .collect();
    let pending_count = list.len();
    let suggested_count = suggestions.iter().filter(|s| s.is_some()).count();
    let end = request.offset.saturating_add(request.limit);
    let next_cursor = (end < pending_count).then(|| cursor::encode(end));
    let rows: Vec<(usize, Option<Suggestion>)> = suggestions
        .into_iter()
        .enumerate()
        .skip(request.offset)
        .take(request.limit)
        .collect();
    let names = PlanNames::for_payees(
        plan,
        rows.iter()
            .filter_map(|(i, _)| list[*i].payee_id.as_deref()),
    );
    let page = rows
        .into_iter()
        .map(|(i, suggestion)| {
            let t = list[i];
            let label = names.payee(t.payee_id.as_deref());
            PendingItem {
                transaction_id: t.id.clone().into(),
                date: t.date.clone().into(),
                amount: t.amount,
                payee: safe(label),
                memo: t.memo.as_deref().filter(|m| !m.is_empty()).map(safe),
                account: safe(names.account(&t.account_id)),
                suggestion,
                possible_transfer_with: pairs[i].map(|j| list[j].id.to_string()),
            }
        })
        .collect();
    PendingPage {
        pending_count,
        suggested_count,
        items: page,
        categories: if request.first {
            categories.offered()
        } else {
            Vec::new()
        },
        next_cursor,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::assignable::INTERNAL_GROUP;
    use crate::logic::fixtures::Fixture;
    use proptest::prelude::*;

    /// The worked example of §12.
    fn fixture() -> Fixture {
        let mut f = Fixture::new();
        f.account("a-chk", "Checking", true);
        f.account("a-sav", "Savings", true);
        f.account("a-trk", "Brokerage", false);
        f.group("g-int", INTERNAL_GROUP);
        f.category("c-inflow", "g-int", "Inflow: Ready to Assign");
        f.category("c-unc", "g-int", "Uncategorized");
        f.group("g-day", "Everyday");
        f.category("c-food", "g-day", "Groceries");
        f.category("c-fun", "g-day", "Leisure");
        for k in 0..10 {
            let category = if k < 9 { "c-food" } else { "c-fun" };
            let label = format!("CB CORNER SHOP FACT {:02}0826 525130******2", k + 1);
            f.tx(
                &format!("h{k}"),
                &format!("2026-08-{:02}", k + 1),
                -10_000,
                "a-chk",
                &label,
                Some(category),
            );
        }
        f.tx(
            "h-rail-1",
            "2026-08-20",
            -4_500,
            "a-chk",
            "RAIL CO",
            Some("c-fun"),
        );
        f.tx(
            "h-rail-2",
            "2026-08-21",
            -4_500,
            "a-chk",
            "RAIL CO",
            Some("c-food"),
        );
        f.tx(
            "p1",
            "2026-09-19",
            -71_860,
            "a-chk",
            "CB CORNER SHOP FACT 190926 525130******2",
            None,
        );
        f.tx(
            "p2",
            "2026-09-18",
            -4_500,
            "a-chk",
            "RAIL CO",
            Some("c-unc"),
        );
        f.tx(
            "p3",
            "2026-09-17",
            -200_000,
            "a-chk",
            "VIR SEPA TO SAVINGS",
            None,
        );
        f.tx(
            "p4",
            "2026-09-15",
            200_000,
            "a-sav",
            "VIR SEPA FROM CHECKING",
            None,
        );
        f.tx("p5", "2026-09-16", -9_990, "a-chk", "Unknown Cafe", None)
            .memo = Some("lunch\nwith Bob".into());
        f.tx("p6", "2026-09-16", -1_000, "a-trk", "Fee", None);
        f.tx(
            "p7",
            "2026-09-16",
            -1_000,
            "a-chk",
            "Transfer : Savings",
            None,
        )
        .transfer_account_id = Some("a-sav".into());
        f
    }

    fn ids(page: &PendingPage) -> Vec<&str> {
        page.items
            .iter()
            .map(|i| i.transaction_id.as_str())
            .collect()
    }

    #[test]
    fn worked_example() {
        let f = fixture();
        let first = pending_page(
            &f.plan,
            0.90,
            PageRequest {
                offset: 0,
                limit: 3,
                first: true,
            },
        );
        assert_eq!((first.pending_count, first.suggested_count), (5, 1));
        assert_eq!(ids(&first), ["p1", "p2", "p3"]);
        let p1 = first.items[0].suggestion.clone().expect("p1 suggested");
        assert_eq!(
            (
                p1.category_id.as_str(),
                p1.category_name.as_str(),
                p1.confidence
            ),
            ("c-food", "Groceries", 0.9)
        );
        assert_eq!(first.items[1].suggestion, None);
        assert_eq!(first.items[2].possible_transfer_with.as_deref(), Some("p4"));
        let offered: Vec<_> = first
            .categories
            .iter()
            .map(|c| c.category_id.as_str())
            .collect();
        assert_eq!(offered, ["c-inflow", "c-food", "c-fun"]);
        assert_eq!(first.next_cursor.as_deref(), Some("b2Zmc2V0OjM="));

        let offset = cursor::decode("b2Zmc2V0OjM=").expect("a cursor");
        let second = pending_page(
            &f.plan,
            0.90,
            PageRequest {
                offset,
                limit: 3,
                first: false,
            },
        );
        assert_eq!(ids(&second), ["p5", "p4"]);
        assert_eq!(second.items[0].memo.as_deref(), Some("lunch with Bob"));
        assert_eq!(second.items[0].suggestion, None);
        assert_eq!(
            second.items[1].possible_transfer_with.as_deref(),
            Some("p3")
        );
        assert!(second.categories.is_empty());
        assert_eq!(second.next_cursor, None);

        let past = pending_page(
            &f.plan,
            0.90,
            PageRequest {
                offset: 100,
                limit: 3,
                first: false,
            },
        );
        assert!(past.items.is_empty());
        assert_eq!((past.pending_count, past.next_cursor), (5, None));
    }

    #[test]
    fn empty_plan_still_offers_categories() {
        let mut f = Fixture::new();
        f.group("g", "Everyday");
        f.category("c", "g", "Groceries");
        let page = pending_page(
            &f.plan,
            0.90,
            PageRequest {
                offset: 0,
                limit: 50,
                first: true,
            },
        );
        assert_eq!(
            (page.pending_count, page.suggested_count, page.items.len()),
            (0, 0, 0)
        );
        assert_eq!(page.categories.len(), 1);
        assert_eq!(page.next_cursor, None);
    }

    #[test]
    fn split_transactions_are_never_pending() {
        let mut f = fixture();
        f.tx("p8", "2026-09-20", -5_000, "a-chk", "SHOP", None);
        f.line("p8", -5_000, None, true);
        let categories = CategoryIndex::new(&f.plan.category_groups, &f.plan.categories);
        assert!(pending(&f.plan, &categories).iter().all(|t| t.id != "p8"));
    }

    #[test]
    fn pairs_need_another_account_and_three_days() {
        let mut f = Fixture::new();
        f.account("a", "A", true);
        f.account("b", "B", true);
        f.tx("out", "2026-09-10", -5_000, "a", "X", None);
        f.tx("same-account", "2026-09-10", 5_000, "a", "X", None);
        f.tx("too-late", "2026-09-14", 5_000, "b", "X", None);
        f.tx("in", "2026-09-07", 5_000, "b", "X", None);
        f.tx("zero-out", "2026-09-07", 0, "a", "X", None);
        f.tx("zero-in", "2026-09-07", 0, "b", "X", None);
        let categories = CategoryIndex::new(&f.plan.category_groups, &f.plan.categories);
        let list = pending(&f.plan, &categories);
        let pairs = transfer_pairs(&list);
        let named: Vec<(&str, Option<&str>)> = list
            .iter()
            .zip(&pairs)
            .map(|(t, p)| (t.id.as_str(), p.map(|j| list[j].id.as_str())))
            .collect();
        assert_eq!(
            named,
            [
                ("too-late", None),
                ("out", Some("in")),
                ("same-account", None),
                ("in", Some("out")),
                ("zero-out", None),
                ("zero-in", None),
            ]
        );
    }

    proptest! {
        /// On an unchanged plan, following next_cursor from the first page lists every pending
        /// transaction exactly once, in order.
        #[test]
        fn cursors_never_skip_or_repeat(
            rows in proptest::collection::vec((1u32..29, -3i64..3, any::<bool>(), any::<bool>()), 0..60),
            limit in 1usize..12,
        ) {
            let mut f = Fixture::new();
            f.account("a", "A", true);
            f.account("t", "Tracking", false);
            f.group("g", "Everyday");
            f.category("c", "g", "Groceries");
            for (k, (day, amount, categorised, tracking)) in rows.iter().enumerate() {
                let account = if *tracking { "t" } else { "a" };
                let category = categorised.then_some("c");
                f.tx(&format!("t{k}"), &format!("2026-09-{day:02}"), amount * 1_000, account, "SHOP", category);
            }
            let categories = CategoryIndex::new(&f.plan.category_groups, &f.plan.categories);
            let expected: Vec<String> = pending(&f.plan, &categories).iter().map(|t| t.id.to_string()).collect();
            let mut seen = Vec::new();
            let mut request = PageRequest { offset: 0, limit, first: true };
            let mut pages = 0;
            loop {
                let page = pending_page(&f.plan, 0.9, request);
                prop_assert_eq!(page.pending_count, expected.len());
                prop_assert!(page.items.len() <= limit);
                seen.extend(page.items.iter().map(|i| i.transaction_id.clone()));
                pages += 1;
                prop_assert!(pages <= expected.len() + 1);
                match page.next_cursor {
                    Some(next) => {
                        let offset = cursor::decode(&next).map_err(|e| TestCaseError::fail(e.to_string()))?;
                        request = PageRequest { offset, limit, first: false };
                    }
                    None => break,
                }
            }
            prop_assert_eq!(seen, expected);
        }
    }
}
