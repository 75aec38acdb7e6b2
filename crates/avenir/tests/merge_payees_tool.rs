//! `merge_payees` through the protocol (`docs/writes/merge_payees.md`): the demo's raw MARKET
//! FRESH card labels merged into one new payee "Market Fresh" on the three confirmation paths
//! and moved back by `undo_operation`, the sandbox's state asserted before, after and after the
//! undo; a schedule moved with its payee and back; a transaction moved elsewhere since left
//! alone by the undo and named; a stale answer refused with nothing written; every validation
//! error with nothing sent; a journal and intent that hold ids only (D31).

use crate::common;

use common::confirmed;

use common::{
    Asker, E_C4, Era, Harness, Options, Reply, id, journal_lines, start_options, with_code,
    writes_served,
};
use serde_json::json;
use std::collections::BTreeMap;
use std::sync::Arc;
use ynab::models::{Payee, ScheduledTransaction, Transaction};

fn plan() -> String {
    id("demo-budget")
}

async fn payees(h: &Harness) -> Vec<Payee> {
    h.other_app().payees(&plan()).await.expect("payees")
}

async fn transactions(h: &Harness) -> Vec<Transaction> {
    h.other_app()
        .transactions(&plan(), &ynab::TransactionFilter::default())
        .await
        .expect("transactions")
        .0
}

async fn schedules(h: &Harness) -> Vec<ScheduledTransaction> {
    h.other_app()
        .scheduled_transactions(&plan())
        .await
        .expect("schedules")
}

/// The raw MARKET FRESH card labels, one payee per label: (id, name).
async fn market_labels(h: &Harness) -> Vec<(String, String)> {
    payees(h)
        .await
        .into_iter()
        .filter(|p| p.name.starts_with("CB MARKET FRESH FACT "))
        .map(|p| (p.id.to_string(), p.name.to_string()))
        .collect()
}

/// Transaction id → payee id, for the transactions on `payee_ids`.
async fn on_payees(h: &Harness, payee_ids: &[String]) -> BTreeMap<String, String> {
    transactions(h)
        .await
        .into_iter()
        .filter(|t| t.payee_id.as_ref().is_some_and(|p| payee_ids.contains(p)))
        .map(|t| (t.id, t.payee_id.unwrap_or_default()))
        .collect()
}

async fn payee_of(h: &Harness, transaction_id: &str) -> Option<String> {
    transactions(h)
        .await
        .into_iter()
        .find(|t| t.id == transaction_id)
        .and_then(|t| t.payee_id)
}

#[tokio::test]
async fn the_raw_market_fresh_labels_merge_into_one_payee_and_back_on_the_three_paths() {
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

        // Before: the "ten raw labels" are eleven in the demo (June–August on the 5th,
        // 14th and 22nd, then 2026-09-05 and 2026-09-19), on twelve transactions (the
        // duplicate of 2026-09-19 shares its label).
        let labels = market_labels(&h).await;
        assert_eq!(labels.len(), 11, "{label}: {labels:?}");
        let label_ids: Vec<String> = labels.iter().map(|(id, _)| id.clone()).collect();
        let before = on_payees(&h, &label_ids).await;
        assert_eq!(before.len(), 12, "{label}");

        let args = json!({"plan_id": "last-used", "source_payee_ids": label_ids,
                          "target_name": "Market Fresh"});
        let done = confirmed(&h, asking, "merge_payees", args).await;
        assert_eq!(done["status"], "applied", "{label}: {done}");
        let op = done["operation_id"].as_str().expect("op").to_string();
        assert_eq!(
            done["message"],
            format!(
                "Merged: 12 transaction(s) and 0 schedule(s) now on ‘Market Fresh’; the emptied payees remain in YNAB (its API can neither delete nor merge payees). undo_operation with operation_id {op} moves each one back (the payee merged into stays)."
            )
        );
        assert_eq!(done["new_payee"], true);
        assert_eq!(done["moved_transactions"], 12);
        if asking {
            let questions = asker.questions();
            assert_eq!(questions.len(), 1, "{label}");
            let lines: Vec<&str> = questions[0].lines().collect();
            assert_eq!(
                lines[0],
                "Merge 11 payee(s) into a new payee ‘Market Fresh’? 12 transaction(s) and 0 schedule(s) move; the emptied payees remain in YNAB (its API can neither delete nor merge payees)."
            );
            assert_eq!(lines.len(), 12, "one line per label: {lines:?}");
            assert_eq!(
                lines[1],
                "- CB MARKET FRESH FACT 050626 525130******1: 1 transaction(s), 0 schedule(s)"
            );
            assert!(
                lines.contains(
                    &"- CB MARKET FRESH FACT 190926 525130******1: 2 transaction(s), 0 schedule(s)"
                ),
                "{lines:?}"
            );
        }

        // After: every one of those transactions is on the new payee; the labels remain.
        let market = payees(&h)
            .await
            .into_iter()
            .find(|p| p.name == "Market Fresh")
            .expect("the new payee");
        assert_eq!(done["target_payee_id"], json!(market.id));
        for id in before.keys() {
            assert_eq!(
                payee_of(&h, id).await.as_deref(),
                Some(market.id.as_str()),
                "{label}: {id}"
            );
        }
        assert_eq!(
            market_labels(&h).await,
            labels,
            "{label}: the labels remain"
        );

        // The journal holds ids and payee ids only (D31).
        let line = journal_lines(&h).last().cloned().expect("journaled");
        assert_eq!(line["kind"], "merge");
        assert_eq!(line["details"]["target_payee_id"], json!(market.id));
        assert_eq!(
            line["details"]["transactions"].as_array().map(Vec::len),
            Some(12)
        );
        let journal = std::fs::read_to_string(&h.journal).expect("journal");
        let intents = std::fs::read_to_string(common::intents_path(&h)).expect("intents");
        for secret in ["MARKET", "Market Fresh", "-71.86"] {
            assert!(!journal.contains(secret), "{secret} in the journal");
            assert!(!intents.contains(secret), "{secret} in the intents");
        }

        // Undo: every transaction back on its own label; the new payee stays.
        let args = json!({"plan_id": "last-used", "operation_id": op});
        let undone = confirmed(&h, asking, "undo_operation", args).await;
        assert_eq!(undone["status"], "applied", "{label}: {undone}");
        assert_eq!(
            undone["message"],
            "Transactions and schedules moved back to their former payees. The payee they were merged into stays in YNAB (its API cannot delete a payee)."
        );
        if asking {
            let question = asker.questions().last().cloned().unwrap_or_default();
            assert!(
                question.starts_with("Undo: move 12 transaction(s) and 0 schedule(s) back to their former payees? The payee Market Fresh stays in YNAB (its API cannot delete a payee).\n- 1 transaction(s), 0 schedule(s) back to CB MARKET FRESH FACT 050626 525130******1"),
                "{question}"
            );
        }
        assert_eq!(
            on_payees(&h, &label_ids).await,
            before,
            "{label}: each back on its label"
        );
        assert!(
            payees(&h).await.iter().any(|p| p.id == market.id),
            "the new payee stays"
        );
        assert_eq!(journal_lines(&h).last(), Some(&json!({"undone": op})));
    }
}

#[tokio::test]
async fn a_schedule_moves_with_its_payee_and_back_and_a_later_move_is_left_alone() {
    let h = start_options(Options::new(Era::Legacy)).await;
    let telco = payees(&h)
        .await
        .into_iter()
        .find(|p| p.name == "TELCO MOBILE - PRELEV")
        .expect("the phone's payee");
    let rail = payees(&h)
        .await
        .into_iter()
        .find(|p| p.name == "RAIL CO")
        .expect("RAIL CO");
    let schedule_before = schedules(&h)
        .await
        .into_iter()
        .find(|s| s.payee_id.as_deref() == Some(&telco.id))
        .expect("the phone's schedule");
    let moved = on_payees(&h, &[telco.id.to_string()]).await;
    assert_eq!(moved.len(), 4, "June–September");

    // Into an existing payee.
    let args = json!({"plan_id": plan(), "source_payee_ids": [telco.id],
                      "target_payee_id": rail.id});
    let preview = h.ok("merge_payees", args.clone()).await;
    let message = preview["message"].as_str().unwrap_or_default();
    assert!(
        message.contains(
            "Merge 1 payee(s) into ‘RAIL CO’? 4 transaction(s) and 1 schedule(s) move; the emptied payees remain in YNAB (its API can neither delete nor merge payees).\n- TELCO MOBILE - PRELEV: 4 transaction(s), 1 schedule(s)"
        ),
        "{message}"
    );
    let done = h
        .ok("merge_payees", with_code(args, &preview["confirmation"]))
        .await;
    assert_eq!(done["status"], "applied", "{done}");
    let schedule_after = schedules(&h)
        .await
        .into_iter()
        .find(|s| s.id == schedule_before.id)
        .expect("the schedule");
    assert_eq!(schedule_after.payee_id.as_deref(), Some(rail.id.as_str()));
    for (field, a, b) in [
        (
            "amount",
            json!(schedule_after.amount),
            json!(schedule_before.amount),
        ),
        (
            "date_next",
            json!(schedule_after.date_next),
            json!(schedule_before.date_next),
        ),
        (
            "frequency",
            json!(schedule_after.frequency),
            json!(schedule_before.frequency),
        ),
        (
            "category",
            json!(schedule_after.category_id),
            json!(schedule_before.category_id),
        ),
        (
            "account",
            json!(schedule_after.account_id),
            json!(schedule_before.account_id),
        ),
    ] {
        assert_eq!(a, b, "the PUT keeps the schedule's {field}");
    }

    // Another app moves one of them elsewhere: the undo leaves it alone and names it.
    let elsewhere = moved.keys().next().cloned().expect("one");
    let update = ynab::writes::TransactionUpdate {
        id: elsewhere.clone(),
        payee_id: Some(Some(telco.id.to_string())),
        memo: Some(Some("moved by hand".into())),
        ..ynab::writes::TransactionUpdate::default()
    };
    h.other_app()
        .update_transactions(&plan(), &[update])
        .await
        .expect("moved elsewhere");
    let other = payees(&h)
        .await
        .into_iter()
        .find(|p| p.name == "STREAMFLIX")
        .expect("STREAMFLIX");
    let update = ynab::writes::TransactionUpdate {
        id: elsewhere.clone(),
        payee_id: Some(Some(other.id.to_string())),
        ..ynab::writes::TransactionUpdate::default()
    };
    h.other_app()
        .update_transactions(&plan(), &[update])
        .await
        .expect("moved elsewhere");
    let op = done["operation_id"].as_str().expect("op").to_string();
    let args = json!({"plan_id": plan(), "operation_id": op});
    let preview = h.ok("undo_operation", args.clone()).await;
    assert!(
        preview["message"]
            .as_str()
            .unwrap_or_default()
            .contains("Undo: move 3 transaction(s) and 1 schedule(s) back to their former payees? The payee RAIL CO stays in YNAB"),
        "{preview}"
    );
    assert_eq!(preview["conflicts"], json!([elsewhere]), "{preview}");
    let undone = h
        .ok("undo_operation", with_code(args, &preview["confirmation"]))
        .await;
    assert_eq!(undone["status"], "applied", "{undone}");
    for id in moved.keys() {
        let expected = if *id == elsewhere {
            &other.id
        } else {
            &telco.id
        };
        assert_eq!(
            payee_of(&h, id).await.as_deref(),
            Some(expected.as_str()),
            "{id}"
        );
    }
    let schedule_back = schedules(&h)
        .await
        .into_iter()
        .find(|s| s.id == schedule_before.id)
        .expect("the schedule");
    // A PUT keeps date_first (its date is the next one, not earlier): every field as before.
    assert_eq!(schedule_back, schedule_before, "the schedule as it was");
}

#[tokio::test]
async fn a_change_made_elsewhere_while_asking_is_refused_with_nothing_written() {
    for era in [Era::Modern, Era::Legacy] {
        let asker = Asker::new(Reply::Yes);
        let mut options = Options::new(era);
        options.asker = Some(asker.clone());
        let h = start_options(options).await;
        let labels = market_labels(&h).await;
        let label_ids: Vec<String> = labels.iter().map(|(id, _)| id.clone()).collect();
        let before = on_payees(&h, &label_ids).await;
        let first = before.keys().next().cloned().expect("one");
        let other = Arc::new(h.other_app());
        // Another app moves one of the transactions to another label while the person reads.
        let to = label_ids[1].clone();
        let moved = first.clone();
        asker.meddle_with(Arc::new(move || {
            let other = other.clone();
            let (moved, to) = (moved.clone(), to.clone());
            Box::pin(async move {
                let update = ynab::writes::TransactionUpdate {
                    id: moved,
                    payee_id: Some(Some(to)),
                    ..ynab::writes::TransactionUpdate::default()
                };
                let _ = other
                    .update_transactions(&id("demo-budget"), &[update])
                    .await;
            })
        }));
        let args = json!({"plan_id": "last-used", "source_payee_ids": label_ids,
                          "target_name": "Market Fresh"});
        assert_eq!(h.error("merge_payees", args).await, E_C4, "{era:?}");
        assert!(
            !payees(&h).await.iter().any(|p| p.name == "Market Fresh"),
            "{era:?}: no payee created"
        );
        let after = on_payees(&h, &label_ids).await;
        assert_eq!(after.len(), before.len(), "{era:?}: nothing moved");
        assert!(journal_lines(&h).is_empty());
    }
}

#[tokio::test]
async fn every_validation_error_with_nothing_sent() {
    let h = start_options(Options::new(Era::Legacy)).await;
    let labels = market_labels(&h).await;
    let (a, b) = (labels[0].0.clone(), labels[1].0.clone());
    let all = payees(&h).await;
    let transfer = all
        .iter()
        .find(|p| p.transfer_account_id.is_some())
        .expect("a transfer payee")
        .id
        .clone();
    let rail = all
        .iter()
        .find(|p| p.name == "RAIL CO")
        .expect("RAIL CO")
        .id
        .clone();
    let p = plan();
    let many: Vec<String> = (0..101).map(|i| format!("p{i}")).collect();
    let cases = [
        (json!({"plan_id": p, "source_payee_ids": [], "target_name": "X"}),
         "Give at least one payee to merge: source_payee_ids from list_payees.".to_string()),
        (json!({"plan_id": p, "source_payee_ids": many, "target_name": "X"}),
         "101 payees asked: merge at most 100 at a time, then the rest.".to_string()),
        (json!({"plan_id": p, "source_payee_ids": [a, b, a], "target_name": "X"}),
         format!("Payee {a} is named twice in source_payee_ids: name each once.")),
        (json!({"plan_id": p, "source_payee_ids": [a, "nope"], "target_name": "X"}),
         "Payee nope is not in this plan: use a payee_id from list_payees.".to_string()),
        (json!({"plan_id": p, "source_payee_ids": [a, transfer], "target_name": "X"}),
         format!("Payee {transfer} is a transfer's: its transactions move money between accounts and cannot be given another payee this way. Leave it out of source_payee_ids.")),
        (json!({"plan_id": p, "source_payee_ids": [a], "target_payee_id": "nope"}),
         "Payee nope (target_payee_id) is not in this plan: use a payee_id from list_payees, or give target_name to create a new payee.".to_string()),
        (json!({"plan_id": p, "source_payee_ids": [a], "target_payee_id": transfer}),
         format!("Payee {transfer} (target_payee_id) is a transfer's: merging into it would turn purchases into transfers. Choose an ordinary payee, or give target_name.")),
        (json!({"plan_id": p, "source_payee_ids": [a, b], "target_payee_id": b}),
         format!("Payee {b} is both the target and a source: leave it out of source_payee_ids.")),
        (json!({"plan_id": p, "source_payee_ids": [a]}),
         "Give the payee to merge into: target_payee_id from list_payees, or target_name for a new payee.".to_string()),
        (json!({"plan_id": p, "source_payee_ids": [a], "target_payee_id": rail, "target_name": "X"}),
         "Give target_payee_id or target_name, not both: an existing payee, or a new one to create.".to_string()),
        (json!({"plan_id": p, "source_payee_ids": [a], "target_name": "   "}),
         "target_name is empty: give the merchant's name.".to_string()),
        (json!({"plan_id": p, "source_payee_ids": [a], "target_name": "Market\u{2028}Fresh"}),
         "'Market Fresh' contains a line break, control or format character (such as a zero-width or direction mark): give the name on one line, with visible characters only.".to_string()),
        (json!({"plan_id": p, "source_payee_ids": [a], "target_name": " rail co "}),
         format!("'rail co' is already the name of payee {rail}: pass target_payee_id {rail} to merge into it.")),
    ];
    let writes = writes_served(&h);
    for (args, expected) in cases {
        assert_eq!(
            h.error("merge_payees", args.clone()).await,
            expected,
            "{args}"
        );
    }
    assert_eq!(writes_served(&h), writes, "nothing sent");
    assert!(journal_lines(&h).is_empty());
}
