//! `merge_categories` through the protocol (`docs/writes/merge_categories.md`): the demo's
//! Tennis merged into Transport on the three ways to ask — its transactions, a split line (the
//! split made first with `split_transaction`, moved by recreation), a schedule and its assigned
//! amounts of June–September — then moved back by `undo_operation`, the sandbox asserted
//! before, after (Ready to Assign unchanged each month) and after the undo; a stale answer (a
//! transaction or an assigned amount changed while asking) refused with nothing written; every
//! refusal with nothing sent; what changed after the merge left alone by the undo and named.

use crate::common;

use common::confirmed;

use common::{
    Asker, E_C4, Era, Harness, Options, Reply, id, journal_lines, start_options, writes_served,
};
use serde_json::json;
use std::collections::BTreeMap;
use std::sync::Arc;
use ynab::models::{Milliunits, ScheduledTransaction, Transaction};

const MONTHS: [&str; 4] = ["2026-06-01", "2026-07-01", "2026-08-01", "2026-09-01"];

fn plan() -> String {
    id("demo-budget")
}

fn tennis() -> String {
    id("cat-tennis")
}

fn transport() -> String {
    id("cat-transport")
}

async fn live(h: &Harness) -> Vec<Transaction> {
    common::live_transactions(h, &plan()).await
}

/// Live transactions (not split) in `category`, by id.
async fn in_category(h: &Harness, category: &str) -> Vec<String> {
    live(h)
        .await
        .into_iter()
        .filter(|t| t.subtransactions.is_empty() && t.category_id.as_deref() == Some(category))
        .map(|t| t.id)
        .collect()
}

async fn schedule(h: &Harness, schedule_id: &str) -> ScheduledTransaction {
    h.other_app()
        .scheduled_transactions(&plan())
        .await
        .expect("schedules")
        .into_iter()
        .find(|s| s.id == schedule_id)
        .expect("the schedule")
}

/// Per month: (Tennis assigned, Transport assigned, Ready to Assign).
async fn months(h: &Harness) -> BTreeMap<String, (Milliunits, Milliunits, Milliunits)> {
    let mut all = BTreeMap::new();
    for month in MONTHS {
        let m = h.other_app().month(&plan(), month).await.expect("month");
        let categories = m.categories.unwrap_or_default();
        let budgeted = |id: String| {
            categories
                .iter()
                .find(|c| c.id == id)
                .map_or(0, |c| c.budgeted)
        };
        all.insert(
            month.to_string(),
            (budgeted(tennis()), budgeted(transport()), m.to_be_budgeted),
        );
    }
    all
}

/// A split line's categories, sorted, of the live transaction on `date` with `amount`.
async fn split_categories(h: &Harness, date: &str, amount: Milliunits) -> (String, Vec<String>) {
    let t = live(h)
        .await
        .into_iter()
        .find(|t| t.date == date && t.amount == amount && !t.subtransactions.is_empty())
        .expect("the split");
    let mut categories: Vec<String> = t
        .subtransactions
        .iter()
        .filter(|l| !l.deleted)
        .map(|l| l.category_id.clone().unwrap_or_default())
        .collect();
    categories.sort();
    (t.id, categories)
}

/// A split with a Tennis line of −1.00 (made with split_transaction): its date and amount.
async fn make_split(h: &Harness, asking: bool) -> (String, Milliunits) {
    let ids = common::demo_ids::ids_of(h).await;
    let (tx, amount) = ids.to_split.clone();
    let args = json!({"plan_id": plan(), "transaction_id": tx, "lines": [
        {"amount": -1.0, "category_id": tennis(), "memo": "racket grip"},
        {"amount": ((amount + 1.0) * 100.0).round() / 100.0, "category_id": ids.category("Groceries")}
    ]});
    let split = confirmed(h, asking, "split_transaction", args).await;
    assert_eq!(split["status"], "applied", "{split}");
    let t = live(h)
        .await
        .into_iter()
        .find(|t| t.id == tx)
        .expect("the split");
    (t.date, t.amount)
}

/// A monthly Tennis schedule due after the demo's today.
async fn make_schedule(h: &Harness) -> String {
    let rail = live(h)
        .await
        .into_iter()
        .find(|t| t.category_id.as_deref() == Some(tennis().as_str()))
        .expect("a Tennis transaction");
    let save = ynab::writes::ScheduleSave {
        account_id: rail.account_id.clone(),
        date: "2026-10-20".into(),
        amount: -22_000,
        payee_id: rail.payee_id.clone(),
        payee_name: None,
        category_id: Some(tennis()),
        memo: None,
        flag_color: None,
        frequency: "monthly".into(),
    };
    h.other_app()
        .create_scheduled_transaction(&plan(), &save)
        .await
        .expect("a schedule")
        .scheduled_transaction
        .id
}

#[tokio::test]
async fn tennis_merges_into_transport_and_back_on_the_three_ways_to_ask() {
    let paths = [
        (Era::Modern, true),
        (Era::Legacy, true),
        (Era::Legacy, false),
    ];
    for (era, asking) in paths {
        let label = format!("{era:?}, asking {asking}");
        let asker = Asker::new(Reply::Yes);
        let mut options = Options::new(era);
        options.asker = asking.then(|| asker.clone());
        let h = start_options(options).await;
        let (split_date, split_amount) = make_split(&h, asking).await;
        let schedule_id = make_schedule(&h).await;

        // Before: TENNIS CLUB's three charges (June–August), the split's line, the schedule, four months.
        let tennis_before = in_category(&h, &tennis()).await;
        assert_eq!(tennis_before.len(), 3, "{label}");
        let transport_before = in_category(&h, &transport()).await;
        let months_before = months(&h).await;
        assert_eq!(
            months_before
                .values()
                .map(|m| (m.0, m.1))
                .collect::<Vec<_>>(),
            vec![
                (22_000, 45_000),
                (22_000, 45_000),
                (22_000, 45_000),
                (80_000, 90_000)
            ],
            "{label}"
        );
        let (old_split, split_before) = split_categories(&h, &split_date, split_amount).await;
        assert!(split_before.contains(&tennis()), "{label}");

        let args = json!({"plan_id": "last-used", "source_category_id": tennis(),
                          "target_category_id": transport()});
        let done = confirmed(&h, asking, "merge_categories", args).await;
        assert_eq!(done["status"], "applied", "{label}: {done}");
        let op = done["operation_id"].as_str().expect("op").to_string();
        assert_eq!(
            done["message"],
            format!(
                "Merged Tennis into Transport: 3 transaction(s), 1 split line(s), 1 schedule(s) and the assigned amounts of 4 month(s) moved. One step is left, in YNAB's app: Tennis is empty — hide it in YNAB's app if you no longer want it (YNAB's API can neither hide nor delete a category). undo_operation with operation_id {op} moves everything back."
            )
        );
        assert_eq!(done["assigned_moved"], json!(146.0), "{label}");
        if asking {
            let questions = asker.questions();
            let question = questions.last().cloned().unwrap_or_default();
            let lines: Vec<&str> = question.lines().collect();
            assert_eq!(
                lines[0],
                "Merge the category Tennis into Transport? Moving: 3 transaction(s), 1 split line(s), 1 schedule(s), and the assigned amounts of 4 month(s) (146.00 in all; Ready to Assign unchanged). Tennis stays in YNAB, empty, its target as it is: hide it in YNAB's app if you no longer want it (YNAB's API can neither hide nor delete a category).",
                "{label}"
            );
            assert_eq!(
                lines[1],
                "- 2026-06-01: assigned Tennis 22.00 → 0.00, Transport 45.00 → 67.00"
            );
            assert_eq!(
                lines[4],
                "- 2026-09-01: assigned Tennis 80.00 → 0.00, Transport 90.00 → 170.00"
            );
            assert_eq!(
                lines[5],
                "- 1 split transaction(s) are created again with the line(s) in Transport: their ids change and their bank-import link is lost"
            );
        }

        // After: everything in Transport; Tennis empty; Ready to Assign unchanged each month.
        assert!(in_category(&h, &tennis()).await.is_empty(), "{label}");
        let mut transport_after = in_category(&h, &transport()).await;
        let mut expected: Vec<String> = transport_before
            .iter()
            .chain(&tennis_before)
            .cloned()
            .collect();
        transport_after.sort();
        expected.sort();
        assert_eq!(transport_after, expected, "{label}");
        let (new_split, split_after) = split_categories(&h, &split_date, split_amount).await;
        assert_ne!(new_split, old_split, "{label}: recreated");
        assert!(!split_after.contains(&tennis()), "{label}");
        assert!(split_after.contains(&transport()), "{label}");
        assert_eq!(
            schedule(&h, &schedule_id).await.category_id,
            Some(transport())
        );
        for (month, (tennis_was, transport_was, ready)) in &months_before {
            assert_eq!(
                months(&h).await[month],
                (0, tennis_was + transport_was, *ready),
                "{label}: {month}"
            );
        }
        let line = journal_lines(&h).last().cloned().expect("journaled");
        assert_eq!(line["kind"], "category_merge");
        assert_eq!(line["details"]["splits"][0]["old_id"], json!(old_split));
        assert_eq!(line["details"]["splits"][0]["new_id"], json!(new_split));
        let journal = std::fs::read_to_string(&h.journal).expect("journal");
        let intents = std::fs::read_to_string(common::intents_path(&h)).expect("intents");
        for secret in ["TENNIS", "Tennis", "racket"] {
            assert!(!journal.contains(secret), "{secret} in the journal");
            assert!(!intents.contains(secret), "{secret} in the intents");
        }

        // Undo: everything back exactly.
        let args = json!({"plan_id": "last-used", "operation_id": op});
        let undone = confirmed(&h, asking, "undo_operation", args).await;
        assert_eq!(undone["status"], "applied", "{label}: {undone}");
        if asking {
            let question = asker.questions().last().cloned().unwrap_or_default();
            assert!(
                question.starts_with("Undo: move back into Tennis 4 month(s) of assigned amounts, 3 transaction(s), 1 split(s) and 1 schedule(s)?"),
                "{question}"
            );
        }
        let mut tennis_back = in_category(&h, &tennis()).await;
        let mut tennis_was = tennis_before.clone();
        tennis_back.sort();
        tennis_was.sort();
        assert_eq!(tennis_back, tennis_was, "{label}");
        let mut transport_back = in_category(&h, &transport()).await;
        let mut transport_was = transport_before.clone();
        transport_back.sort();
        transport_was.sort();
        assert_eq!(transport_back, transport_was, "{label}");
        assert_eq!(months(&h).await, months_before, "{label}");
        let (_, split_back) = split_categories(&h, &split_date, split_amount).await;
        assert_eq!(split_back, split_before, "{label}: the old lines back");
        assert_eq!(schedule(&h, &schedule_id).await.category_id, Some(tennis()));
        assert_eq!(journal_lines(&h).last(), Some(&json!({"undone": op})));
    }
}

#[tokio::test]
async fn a_change_made_elsewhere_while_asking_is_refused_with_nothing_written() {
    // A Tennis transaction recategorised (both eras), then an assigned amount changed.
    for (era, amount) in [
        (Era::Modern, false),
        (Era::Legacy, false),
        (Era::Legacy, true),
    ] {
        let asker = Asker::new(Reply::Yes);
        let mut options = Options::new(era);
        options.asker = Some(asker.clone());
        let h = start_options(options).await;
        let before = in_category(&h, &tennis()).await;
        let months_before = months(&h).await;
        let other = Arc::new(h.other_app());
        let moved = before[0].clone();
        asker.meddle_with(Arc::new(move || {
            let other = other.clone();
            let moved = moved.clone();
            Box::pin(async move {
                if amount {
                    let _ = other
                        .set_assigned(&id("demo-budget"), "2026-07-01", &id("cat-tennis"), 23_000)
                        .await;
                } else {
                    let update = ynab::writes::TransactionUpdate {
                        id: moved,
                        category_id: Some(Some(id("cat-groceries"))),
                        ..ynab::writes::TransactionUpdate::default()
                    };
                    let _ = other
                        .update_transactions(&id("demo-budget"), &[update])
                        .await;
                }
            })
        }));
        let writes = writes_served(&h);
        let args = json!({"plan_id": "last-used", "source_category_id": tennis(),
                          "target_category_id": transport()});
        assert_eq!(h.error("merge_categories", args).await, E_C4, "{era:?}");
        assert_eq!(writes_served(&h), writes + 1, "{era:?}: only the meddling");
        let after = in_category(&h, &tennis()).await;
        assert_eq!(after.len(), before.len() - usize::from(!amount), "{era:?}");
        let months_after = months(&h).await;
        for month in MONTHS {
            let (t, tr, _) = months_after[month];
            let (t0, tr0, _) = months_before[month];
            assert_eq!(tr, tr0, "{era:?} {month}: Transport unchanged");
            if !(amount && month == "2026-07-01") {
                assert_eq!(t, t0, "{era:?} {month}: Tennis unchanged");
            }
        }
        assert!(journal_lines(&h).is_empty());
    }
}

#[tokio::test]
async fn every_refusal_with_nothing_sent() {
    let h = start_options(Options::new(Era::Legacy)).await;
    let p = plan();
    let (t, tr, inflow) = (tennis(), transport(), id("cat-inflow"));
    let cases = [
        (
            json!({"plan_id": p, "source_category_id": t, "target_category_id": t}),
            format!(
                "source_category_id and target_category_id are both {t}: choose two different categories."
            ),
        ),
        (
            json!({"plan_id": p, "source_category_id": "nope", "target_category_id": tr}),
            "Category nope (source_category_id) is not in this plan: use a category_id from get_category_balances.".to_string(),
        ),
        (
            json!({"plan_id": p, "source_category_id": t, "target_category_id": "nope"}),
            "Category nope (target_category_id) is not in this plan: use a category_id from get_category_balances.".to_string(),
        ),
        (
            json!({"plan_id": p, "source_category_id": inflow, "target_category_id": tr}),
            format!(
                "Category {inflow} (source_category_id) is one of YNAB's own (such as Inflow: Ready to Assign): it cannot be merged. Choose categories of your own, from get_category_balances."
            ),
        ),
        (
            json!({"plan_id": p, "source_category_id": t, "target_category_id": inflow}),
            format!(
                "Category {inflow} (target_category_id) is one of YNAB's own (such as Inflow: Ready to Assign): it cannot be merged. Choose categories of your own, from get_category_balances."
            ),
        ),
    ];
    let writes = writes_served(&h);
    for (args, expected) in cases {
        assert_eq!(
            h.error("merge_categories", args.clone()).await,
            expected,
            "{args}"
        );
    }
    assert_eq!(writes_served(&h), writes, "nothing sent");
    assert!(journal_lines(&h).is_empty());
}

#[tokio::test]
async fn what_changed_after_the_merge_is_left_alone_by_the_undo_and_named() {
    let h = start_options(Options::new(Era::Legacy)).await;
    let tennis_before = in_category(&h, &tennis()).await;
    let months_before = months(&h).await;
    let args = json!({"plan_id": "last-used", "source_category_id": tennis(),
                      "target_category_id": transport()});
    let done = confirmed(&h, false, "merge_categories", args.clone()).await;
    assert_eq!(done["status"], "applied", "{done}");
    let op = done["operation_id"].as_str().expect("op").to_string();

    // Emptied: merging it again is refused, nothing sent.
    let writes = writes_served(&h);
    assert_eq!(
        h.error("merge_categories", args).await,
        format!(
            "Category {} has nothing to move: no transaction, split line, schedule the API can save, or assigned amount is in it. To remove it, hide it in YNAB's app.",
            tennis()
        )
    );
    assert_eq!(writes_served(&h), writes);

    // Another app moves one transaction on to Groceries and changes July's Transport.
    let other = h.other_app();
    let moved = tennis_before[0].clone();
    let update = ynab::writes::TransactionUpdate {
        id: moved.clone(),
        category_id: Some(Some(id("cat-groceries"))),
        ..ynab::writes::TransactionUpdate::default()
    };
    other
        .update_transactions(&plan(), &[update])
        .await
        .expect("moved on");
    other
        .set_assigned(&plan(), "2026-07-01", &transport(), 100_000)
        .await
        .expect("changed");

    let undone = confirmed(
        &h,
        false,
        "undo_operation",
        json!({"plan_id": "last-used", "operation_id": op}),
    )
    .await;
    assert_eq!(undone["status"], "applied", "{undone}");
    let conflicts = undone["conflicts"].to_string();
    assert!(conflicts.contains(&moved), "{undone}");
    assert!(
        conflicts.contains(&format!("{} 2026-07-01", transport())),
        "{undone}"
    );
    // The rest is back; what changed since is as the other app left it.
    let mut back = in_category(&h, &tennis()).await;
    let mut expected: Vec<String> = tennis_before[1..].to_vec();
    back.sort();
    expected.sort();
    assert_eq!(back, expected);
    let groceries = in_category(&h, &id("cat-groceries")).await;
    assert!(groceries.contains(&moved));
    let after = months(&h).await;
    for month in MONTHS {
        let (t, tr, _) = after[month];
        let (t0, tr0, _) = months_before[month];
        assert_eq!(t, t0, "{month}: Tennis back");
        if month == "2026-07-01" {
            assert_eq!(tr, 100_000, "July's Transport left as changed");
        } else {
            assert_eq!(tr, tr0, "{month}: Transport back");
        }
    }
}
