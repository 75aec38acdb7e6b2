//! `delete_transactions` through the protocol (`docs/writes/delete_transactions.md`): the demo's
//! duplicate MARKET FRESH −71.86 of 2026-09-19 deleted on the three confirmation paths and
//! recreated by `undo_operation`, the sandbox's state asserted before, after and after the undo;
//! a transfer's other side going with it and coming back; a stale answer refused; every
//! validation error with nothing sent; a failure in the middle reported and recovered; and a
//! journal and intent that hold ids only (D6, D31).

use crate::common;

use common::confirmed;

use common::E_C4;

use common::{Asker, Era, Harness, Options, Reply, id, start_options};
use serde_json::{Value, json};
use std::sync::Arc;
use ynab::models::Transaction;
use ynab_sandbox::faults::{Fault, FaultKind};

fn plan() -> String {
    id("demo-budget")
}

/// Every transaction, deleted ones included (a delta from 0 shows tombstones).
async fn everything(h: &Harness) -> Vec<Transaction> {
    common::all_transactions(h, &plan()).await
}

/// The live MARKET FRESH −71.86 of 2026-09-19, in the plan's order.
async fn market_fresh(h: &Harness) -> Vec<Transaction> {
    everything(h)
        .await
        .into_iter()
        .filter(|t| !t.deleted && t.date == "2026-09-19" && t.amount == -71_860)
        .collect()
}

fn lines_of(path: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

fn intents_path(h: &Harness) -> std::path::PathBuf {
    let mut name = h.journal.as_os_str().to_os_string();
    name.push(".intents");
    name.into()
}

/// DELETE requests the sandbox served.
fn deletes_served(h: &Harness) -> u64 {
    h.sandbox
        .stats()
        .routes
        .iter()
        .filter(|(route, _)| route.starts_with("DELETE "))
        .map(|(_, n)| n)
        .sum()
}

fn code_of(value: &Value) -> String {
    assert_eq!(value["status"], "confirmation_required", "{value}");
    value["confirmation"].as_str().expect("code").to_string()
}

fn with_code(mut args: Value, code: &str) -> Value {
    args["confirmation"] = json!(code);
    args
}

/// What undo must bring back: everything but the id and the import link.
fn kept(t: &Transaction) -> Value {
    json!([
        t.account_id,
        t.date,
        t.amount,
        t.payee_id,
        t.category_id,
        t.memo,
        t.cleared,
        t.approved,
        t.flag_color,
        t.transfer_account_id
    ])
}

#[tokio::test]
async fn the_duplicate_market_fresh_is_deleted_and_undone_on_the_three_paths() {
    let paths = [
        (Era::Modern, true),
        (Era::Legacy, true),
        (Era::Legacy, false),
    ];
    for (era, asking) in paths {
        let asker = Asker::new(Reply::Yes);
        let mut options = Options::new(era);
        options.asker = asking.then(|| asker.clone());
        let h = start_options(options).await;
        let before = market_fresh(&h).await;
        assert_eq!(before.len(), 2, "the demo's duplicate");
        let (gone, other) = (&before[0], &before[1]);
        let label = format!("{era:?}, asking {asking}");

        let args = json!({"plan_id": "last-used", "transaction_ids": [gone.id]});
        let done = confirmed(&h, asking, "delete_transactions", args).await;
        assert_eq!(done["status"], "applied", "{label}: {done}");
        let op = done["operation_id"].as_str().expect("op").to_string();
        assert_eq!(
            done["message"],
            format!(
                "Deleted. undo_operation with operation_id {op} recreates them, with new ids and without their bank-import link."
            )
        );
        assert_eq!(done["deleted_ids"], json!([gone.id]));
        assert_eq!(done["transactions"][0]["amount"], json!(-71.86));
        if asking {
            let questions = asker.questions();
            assert_eq!(questions.len(), 1, "{label}");
            let question = &questions[0];
            assert!(
                question.starts_with(
                    "Delete 1 transaction(s)? (undo_operation recreates them with new ids and no bank-import link.)\n- 2026-09-19 "
                ),
                "{label}: {question}"
            );
            assert!(question.ends_with(" -71.86 on Checking"), "{question}");
            assert_eq!(
                question.lines().count(),
                2,
                "no bank text on a line of its own"
            );
        }

        // After: one of the two is left, the other is gone.
        let after = market_fresh(&h).await;
        assert_eq!(after.len(), 1, "{label}");
        assert_eq!(after[0].id, other.id);
        let tombstone = everything(&h)
            .await
            .into_iter()
            .find(|t| t.id == gone.id)
            .expect("YNAB keeps its record");
        assert!(tombstone.deleted);

        // The journal and the intent hold ids and knowledge only (D6, D31).
        let journal = lines_of(&h.journal);
        let line = journal.last().expect("journaled");
        assert_eq!(line["kind"], "delete");
        let details = line["details"].as_object().expect("details");
        assert_eq!(details["transaction_ids"], json!([gone.id]));
        assert!(details["server_knowledge"].is_i64());
        assert_eq!(details.len(), 2, "ids and knowledge, nothing else: {line}");
        let intents = std::fs::read_to_string(intents_path(&h)).expect("intents");
        for secret in ["MARKET", "71860", "-71.86", "71.86"] {
            assert!(!intents.contains(secret), "{secret} in the intents");
            assert!(
                !std::fs::read_to_string(&h.journal)
                    .expect("journal")
                    .contains(secret),
                "{secret} in the journal"
            );
        }

        // Undo recreates it with every field but its id and import link.
        let args = json!({"plan_id": "last-used", "operation_id": op});
        let undone = confirmed(&h, asking, "undo_operation", args).await;
        assert_eq!(undone["status"], "applied", "{label}: {undone}");
        assert_eq!(
            undone["message"],
            "Deleted transactions recreated, with new ids and without their bank-import link."
        );
        if asking {
            let question = asker.questions().last().cloned().unwrap_or_default();
            assert!(
                question.starts_with("Undo: recreate 1 deleted transaction(s)? They come back with new ids and without their bank-import link.\n- 2026-09-19 "),
                "{question}"
            );
        }
        let back = market_fresh(&h).await;
        assert_eq!(back.len(), 2, "{label}: two again");
        let new = back
            .iter()
            .find(|t| t.id != other.id)
            .expect("the recreated one");
        assert_ne!(new.id, gone.id, "a new id");
        assert_eq!(kept(new), kept(gone), "{label}: every field back");
        assert_eq!(new.import_id, None, "no bank-import link");
        let journal = lines_of(&h.journal);
        assert_eq!(journal.last(), Some(&json!({"undone": op})));

        // Undone once: a second undo finds nothing.
        let again = h
            .error(
                "undo_operation",
                json!({"plan_id": "last-used", "operation_id": op}),
            )
            .await;
        assert!(
            again.contains("already undone") || again.contains(&op),
            "{again}"
        );
    }
}

#[tokio::test]
async fn a_transfer_goes_with_its_other_side_and_comes_back_as_a_transfer() {
    let h = start_options(Options::new(Era::Legacy)).await;
    let all = everything(&h).await;
    let side = all
        .iter()
        .find(|t| !t.deleted && t.transfer_transaction_id.is_some() && t.amount == -200_000)
        .expect("the 200.00 transfer")
        .clone();
    let mirror = all
        .iter()
        .find(|t| Some(&t.id) == side.transfer_transaction_id.as_ref())
        .expect("its other side")
        .clone();
    // Named by both sides: one DELETE, both gone.
    let args = json!({"plan_id": plan(), "transaction_ids": [side.id, mirror.id]});
    let preview = h.ok("delete_transactions", args.clone()).await;
    assert!(
        preview["message"]
            .as_str()
            .unwrap_or_default()
            .contains("(a transfer: its other side on Savings goes too)"),
        "{preview}"
    );
    let deletes_before = deletes_served(&h);
    let done = h
        .ok("delete_transactions", with_code(args, &code_of(&preview)))
        .await;
    assert_eq!(done["status"], "applied", "{done}");
    assert_eq!(
        deletes_served(&h) - deletes_before,
        1,
        "one DELETE for the pair"
    );
    let now = everything(&h).await;
    for id in [&side.id, &mirror.id] {
        assert!(now.iter().any(|t| &t.id == id && t.deleted), "{id} gone");
    }
    let op = done["operation_id"].as_str().expect("op").to_string();
    let args = json!({"plan_id": plan(), "operation_id": op});
    let preview = h.ok("undo_operation", args.clone()).await;
    let undone = h
        .ok("undo_operation", with_code(args, &code_of(&preview)))
        .await;
    assert_eq!(undone["status"], "applied", "{undone}");
    let live: Vec<Transaction> = everything(&h)
        .await
        .into_iter()
        .filter(|t| !t.deleted && t.date == side.date && t.transfer_transaction_id.is_some())
        .filter(|t| t.amount == side.amount || t.amount == mirror.amount)
        .collect();
    let new_side = live
        .iter()
        .find(|t| t.account_id == side.account_id)
        .expect("side back");
    let new_mirror = live
        .iter()
        .find(|t| t.account_id == mirror.account_id)
        .expect("mirror back");
    assert_eq!(
        new_side.transfer_transaction_id.as_ref(),
        Some(&new_mirror.id),
        "linked again"
    );
    assert_eq!(new_mirror.amount, mirror.amount);
    assert_eq!(kept(new_side), kept(&side));
}

#[tokio::test]
async fn a_change_made_elsewhere_while_asking_is_refused() {
    for era in [Era::Modern, Era::Legacy] {
        let asker = Asker::new(Reply::Yes);
        let mut options = Options::new(era);
        options.asker = Some(asker.clone());
        let h = start_options(options).await;
        let target = market_fresh(&h).await[0].clone();
        let other = Arc::new(h.other_app());
        let flagged = target.id.clone();
        asker.meddle_with(Arc::new(move || {
            let other = other.clone();
            let flagged = flagged.clone();
            Box::pin(async move {
                let update = ynab::writes::TransactionUpdate {
                    id: flagged,
                    flag_color: Some(Some("red".into())),
                    ..ynab::writes::TransactionUpdate::default()
                };
                let _ = other
                    .update_transactions(&id("demo-budget"), &[update])
                    .await;
            })
        }));
        let args = json!({"plan_id": "last-used", "transaction_ids": [target.id]});
        assert_eq!(h.error("delete_transactions", args).await, E_C4, "{era:?}");
        assert_eq!(market_fresh(&h).await.len(), 2, "{era:?}: nothing deleted");
        assert!(lines_of(&h.journal).is_empty());
    }
}

#[tokio::test]
async fn every_validation_error_with_nothing_sent() {
    let h = start_options(Options::new(Era::Legacy)).await;
    let known = market_fresh(&h).await[0].id.clone();
    h.ok("list_accounts", json!({"plan_id": plan()})).await;
    let many: Vec<String> = (0..101).map(|i| format!("t{i}")).collect();
    let cases = [
        (json!({"plan_id": plan(), "transaction_ids": []}), "Give at least one transaction to delete.".to_string()),
        (json!({"plan_id": plan(), "transaction_ids": many}), "101 transactions asked: delete at most 100 at a time, then the rest.".to_string()),
        (json!({"plan_id": plan(), "transaction_ids": [known, "x", known]}), format!("Transaction {known} is named twice: name each once.")),
        (json!({"plan_id": plan(), "transaction_ids": ["nope", known, "gone"]}), "Transaction nope, gone is not in this plan: use a transaction_id from find_transactions.".to_string()),
    ];
    for (args, message) in cases {
        assert_eq!(
            h.error("delete_transactions", args.clone()).await,
            message,
            "{args}"
        );
    }
    assert_eq!(market_fresh(&h).await.len(), 2);
    assert!(lines_of(&h.journal).is_empty());
}

#[tokio::test]
async fn a_failure_in_the_middle_says_what_was_deleted_and_undo_recreates_it() {
    let h = start_options(Options::new(Era::Legacy)).await;
    let both: Vec<String> = market_fresh(&h)
        .await
        .iter()
        .map(|t| t.id.clone())
        .collect();
    let args = json!({"plan_id": plan(), "transaction_ids": both});
    let code = code_of(&h.ok("delete_transactions", args.clone()).await);
    // The first DELETE goes through; the second is answered 500 (unknown: maybe applied).
    let mut fault = Fault::new(
        1,
        Some("DELETE /plans/{plan_id}/transactions/{transaction_id}"),
        FaultKind::Status {
            status: 500,
            retry_after: None,
        },
    );
    fault.skip = 1;
    h.sandbox.inject(fault);
    let error = h.error("delete_transactions", with_code(args, &code)).await;
    assert!(
        error.contains(&format!(
            "deleted before it: {}; {} may or may not be deleted",
            both[0], both[1]
        )),
        "{error}"
    );
    assert!(
        lines_of(&h.journal).is_empty(),
        "no operation line: unfinished"
    );
    let left = market_fresh(&h).await;
    assert_eq!(
        left.len(),
        1,
        "the second was answered 500 without being applied"
    );
    // undo_operation lists the unfinished delete and recreates what YNAB shows deleted.
    let listed = h.error("undo_operation", json!({"plan_id": plan()})).await;
    let intent = lines_of(&intents_path(&h))[0]["intent"].clone();
    let op = intent["id"].as_str().expect("intent").to_string();
    assert!(listed.contains(&format!("{op} (delete)")), "{listed}");
    assert_eq!(
        intent["details"]["transaction_ids"],
        json!(both),
        "ids, nothing else"
    );
    let args = json!({"plan_id": plan(), "operation_id": op});
    let preview = h.ok("undo_operation", args.clone()).await;
    assert!(
        preview["message"]
            .as_str()
            .unwrap_or_default()
            .contains("Undo: recreate 1 deleted transaction(s)?"),
        "{preview}"
    );
    let undone = h
        .ok("undo_operation", with_code(args, &code_of(&preview)))
        .await;
    assert_eq!(undone["status"], "applied", "{undone}");
    assert_eq!(market_fresh(&h).await.len(), 2, "both there again");
    let again = h.error("undo_operation", json!({"plan_id": plan()})).await;
    assert!(!again.contains(&op), "settled: {again}");
}

#[tokio::test]
async fn an_interrupted_undo_never_recreates_twice() {
    // (The fault, whether YNAB applied the POST, the count of MARKET FRESH once recovered.)
    let cases = [
        (FaultKind::ApplyThenDrop, true),
        (
            FaultKind::Status {
                status: 500,
                retry_after: None,
            },
            false,
        ),
    ];
    for (kind, lands) in cases {
        let h = start_options(Options::new(Era::Legacy)).await;
        let gone = market_fresh(&h).await[0].id.clone();
        let args = json!({"plan_id": plan(), "transaction_ids": [gone]});
        let done = confirmed(&h, false, "delete_transactions", args).await;
        let op = done["operation_id"].as_str().expect("op").to_string();
        let undo = json!({"plan_id": plan(), "operation_id": op});
        let code = code_of(&h.ok("undo_operation", undo.clone()).await);
        h.sandbox.inject(Fault::new(
            1,
            Some("POST /plans/{plan_id}/transactions"),
            kind,
        ));
        let error = h
            .error("undo_operation", with_code(undo.clone(), &code))
            .await;
        assert!(error.contains("may or may not be applied"), "{error}");
        assert_eq!(market_fresh(&h).await.len(), if lands { 2 } else { 1 });
        // The intent of the undo holds ids, digests and knowledge: no amount, payee or memo.
        let intents = std::fs::read_to_string(intents_path(&h)).expect("intents");
        assert!(!intents.contains("71860") && !intents.contains("MARKET"));
        // Naming the operation again finishes the interrupted undo, exactly once.
        let again = h.ok("undo_operation", undo.clone()).await;
        if lands {
            assert_eq!(again["status"], "nothing_to_do", "{again}");
        } else {
            assert_eq!(again["status"], "confirmation_required", "{again}");
            let code = code_of(&again);
            let done = h.ok("undo_operation", with_code(undo.clone(), &code)).await;
            assert_eq!(done["status"], "applied", "{done}");
        }
        assert_eq!(
            market_fresh(&h).await.len(),
            2,
            "lands {lands}: recreated once"
        );
        let journal = lines_of(&h.journal);
        assert_eq!(
            journal.last(),
            Some(&json!({"undone": op})),
            "lands {lands}"
        );
        let last = h.error("undo_operation", undo).await;
        assert!(!last.contains("Unfinished"), "every intent settled: {last}");
    }
}

#[tokio::test]
async fn a_split_comes_back_with_its_lines() {
    let h = start_options(Options::new(Era::Legacy)).await;
    let ids = common::demo_ids::ids_of(&h).await;
    let split = confirmed(
        &h,
        false,
        "split_transaction",
        common::demo_ids::split(&ids),
    )
    .await;
    assert_eq!(split["status"], "applied", "{split}");
    let (tx, _) = &ids.to_split;
    let lines_of_tx = |t: &Transaction| {
        let mut lines: Vec<Value> = t
            .subtransactions
            .iter()
            .filter(|s| !s.deleted)
            .map(|s| json!([s.amount, s.category_id, s.memo]))
            .collect();
        lines.sort_by_key(|l| l.to_string());
        lines
    };
    let original = everything(&h)
        .await
        .into_iter()
        .find(|t| &t.id == tx)
        .expect("the split");
    assert_eq!(lines_of_tx(&original).len(), 2);
    let args = json!({"plan_id": plan(), "transaction_ids": [tx]});
    let done = confirmed(&h, false, "delete_transactions", args).await;
    let op = done["operation_id"].as_str().expect("op").to_string();
    let undo = json!({"plan_id": plan(), "operation_id": op});
    let undone = confirmed(&h, false, "undo_operation", undo).await;
    assert_eq!(undone["status"], "applied", "{undone}");
    let back: Vec<Transaction> = everything(&h)
        .await
        .into_iter()
        .filter(|t| !t.deleted && kept(t) == kept(&original))
        .collect();
    assert_eq!(back.len(), 1, "recreated once");
    assert_ne!(back[0].id, original.id);
    assert_eq!(
        lines_of_tx(&back[0]),
        lines_of_tx(&original),
        "its lines back"
    );
}

#[tokio::test]
async fn twenty_lines_then_a_count_and_a_decline_deletes_nothing() {
    let asker = Asker::new(Reply::Decline);
    let mut options = Options::new(Era::Modern);
    options.asker = Some(asker.clone());
    let h = start_options(options).await;
    let chosen: Vec<String> = everything(&h)
        .await
        .into_iter()
        .filter(|t| !t.deleted && t.transfer_transaction_id.is_none())
        .take(23)
        .map(|t| t.id)
        .collect();
    let live_before = everything(&h).await.iter().filter(|t| !t.deleted).count();
    let args = json!({"plan_id": plan(), "transaction_ids": chosen});
    let declined = h.ok("delete_transactions", args).await;
    assert_eq!(declined["status"], "declined", "{declined}");
    let question = asker.questions().pop().expect("asked");
    let lines: Vec<&str> = question.lines().collect();
    assert_eq!(lines.len(), 22, "{question}");
    assert_eq!(lines[21], "- … and 3 more");
    let live_after = everything(&h).await.iter().filter(|t| !t.deleted).count();
    assert_eq!(live_after, live_before, "nothing deleted");
    assert!(lines_of(&h.journal).is_empty());
}
