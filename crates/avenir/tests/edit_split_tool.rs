//! `edit_split` through the protocol (`docs/writes/edit_split.md`): on the demo plan, a split
//! made first with `split_transaction` has its lines replaced on the three ways to ask, then
//! undone by `undo_operation` — the sandbox asserted before, after (the old id gone, a new
//! transaction with every field kept and the new lines) and after the undo (the old lines back);
//! the question's lines; a stale answer refused with nothing written; every validation error
//! with nothing sent; a failure between the POST and the DELETE reported and repaired.

use crate::common;

use common::confirmed;

use common::{
    Asker, E_C4, Era, Harness, Options, Reply, id, journal_lines, start_options, writes_served,
};
use serde_json::{Value, json};
use std::sync::Arc;
use ynab::models::{Milliunits, Transaction};
use ynab_sandbox::faults::{Fault, FaultKind};

fn plan() -> String {
    id("demo-budget")
}

/// Every transaction, deleted ones included (a delta from 0 shows tombstones).
async fn everything(h: &Harness) -> Vec<Transaction> {
    common::all_transactions(h, &plan()).await
}

async fn live(h: &Harness) -> Vec<Transaction> {
    common::live_transactions(h, &plan()).await
}

/// What the edit keeps: everything but the id, the category (a split has none) and the lines.
fn kept(t: &Transaction) -> Value {
    json!([
        t.account_id,
        t.date,
        t.amount,
        t.payee_id,
        t.memo,
        t.cleared,
        t.approved,
        t.flag_color
    ])
}

/// A transaction's lines, sorted: (amount, category, memo).
fn lines_of(t: &Transaction) -> Vec<Value> {
    let mut lines: Vec<Value> = t
        .subtransactions
        .iter()
        .filter(|s| !s.deleted || t.deleted)
        .map(|s| json!([s.amount, s.category_id, s.memo]))
        .collect();
    lines.sort_by_key(|l| l.to_string());
    lines
}

fn code_of(value: &Value) -> String {
    assert_eq!(value["status"], "confirmation_required", "{value}");
    value["confirmation"].as_str().expect("code").to_string()
}

fn units(m: Milliunits) -> f64 {
    m as f64 / 1000.0
}

fn plain(m: Milliunits) -> String {
    format!("{:.2}", units(m))
}

/// The demo's split (made with split_transaction): the transaction as it is then.
struct Made {
    tx: Transaction,
    groceries: String,
    restaurants: String,
}

async fn make_split(h: &Harness, asking: bool) -> Made {
    let ids = common::demo_ids::ids_of(h).await;
    let split = confirmed(
        h,
        asking,
        "split_transaction",
        common::demo_ids::split(&ids),
    )
    .await;
    assert_eq!(split["status"], "applied", "{split}");
    let tx = live(h)
        .await
        .into_iter()
        .find(|t| t.id == ids.to_split.0)
        .expect("the split");
    assert_eq!(tx.subtransactions.len(), 2);
    Made {
        tx,
        groceries: ids.category("Groceries"),
        restaurants: ids.category("Restaurants"),
    }
}

/// The new lines: Restaurants −1.00 ("edited"), Groceries the rest.
fn new_lines(made: &Made) -> Value {
    json!([
        {"amount": units(made.tx.amount + 1_000), "category_id": made.groceries},
        {"amount": -1.0, "category_id": made.restaurants, "memo": "edited"}
    ])
}

fn expected_new_lines(made: &Made) -> Vec<Value> {
    let mut lines = vec![
        json!([made.tx.amount + 1_000, made.groceries, null]),
        json!([-1_000, made.restaurants, "edited"]),
    ];
    lines.sort_by_key(|l| l.to_string());
    lines
}

#[tokio::test]
async fn a_split_s_lines_are_replaced_and_put_back_on_the_three_ways_to_ask() {
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
        let made = make_split(&h, asking).await;
        let old = made.tx.clone();
        let old_lines = lines_of(&old);
        let live_before = live(&h).await.len();

        let args = json!({"plan_id": "last-used", "transaction_id": old.id,
                          "lines": new_lines(&made)});
        let done = confirmed(&h, asking, "edit_split", args).await;
        assert_eq!(done["status"], "applied", "{label}: {done}");
        let op = done["operation_id"].as_str().expect("op").to_string();
        let new_id = done["new_transaction_id"]
            .as_str()
            .expect("the new id")
            .to_string();
        assert_ne!(new_id, old.id);
        assert_eq!(
            done["message"],
            format!(
                "Lines replaced. The transaction's id is now {new_id}, and its bank-import link is gone. undo_operation with operation_id {op} puts the old lines back (with a new id again)."
            )
        );
        if asking {
            let question = asker.questions().pop().expect("asked");
            let lines: Vec<&str> = question.lines().collect();
            assert!(
                lines[0].starts_with(&format!("Replace the 2 lines of {} ", old.date)),
                "{question}"
            );
            assert!(
                lines[0].ends_with(&format!(
                    " {} on Checking with 2 lines? It is recreated with the new lines: its id changes and its bank-import link is lost; undo_operation puts the old lines back the same way.",
                    plain(old.amount)
                )),
                "{question}"
            );
            let first = old.subtransactions[0].amount;
            assert_eq!(
                lines[1..],
                [
                    format!("- before: {} Groceries", plain(first)),
                    format!("- before: {} Restaurants (half)", plain(old.amount - first)),
                    format!("- after: {} Groceries", plain(old.amount + 1_000)),
                    "- after: -1.00 Restaurants (edited)".to_string(),
                ],
                "{question}"
            );
        }

        // After: the old id gone, a new transaction with every field kept and the new lines.
        let after = everything(&h).await;
        let tombstone = after.iter().find(|t| t.id == old.id).expect("tombstone");
        assert!(tombstone.deleted, "{label}: the old id is gone");
        let new = after
            .iter()
            .find(|t| t.id == new_id && !t.deleted)
            .expect("the new transaction");
        assert_eq!(kept(new), kept(&old), "{label}");
        assert_eq!(new.category_id, None);
        assert_eq!(lines_of(new), expected_new_lines(&made), "{label}");
        assert_eq!(live(&h).await.len(), live_before, "no duplicate");

        // The journal: ids, knowledge and a salted digest (D31).
        let line = journal_lines(&h).pop().expect("journaled");
        assert_eq!(line["kind"], "split_edit");
        assert_eq!(line["details"]["old_id"], json!(old.id));
        assert_eq!(line["details"]["new_id"], json!(new_id));
        let journal = std::fs::read_to_string(&h.journal).expect("journal");
        assert!(!journal.contains("edited"), "no memo in the journal");

        // Undo: the old lines back, on a transaction created again; the edited one gone.
        let args = json!({"plan_id": "last-used", "operation_id": op});
        let undone = confirmed(&h, asking, "undo_operation", args).await;
        assert_eq!(undone["status"], "applied", "{label}: {undone}");
        assert_eq!(
            undone["message"],
            "The old lines are back, on the transaction created again (a new id, no bank-import link)."
        );
        if asking {
            let question = asker.questions().pop().expect("asked");
            assert!(
                question.starts_with(&format!("Undo: put back the 2 old lines of {} ", old.date)),
                "{question}"
            );
            assert_eq!(question.lines().count(), 3, "{question}");
        }
        let back = live(&h).await;
        assert!(
            back.iter().all(|t| t.id != new_id),
            "{label}: the edited one is gone"
        );
        let restored: Vec<&Transaction> = back
            .iter()
            .filter(|t| kept(t) == kept(&old) && t.id != old.id)
            .collect();
        assert_eq!(restored.len(), 1, "{label}: recreated once");
        assert_eq!(lines_of(restored[0]), old_lines, "{label}: the old lines");
        assert_eq!(back.len(), live_before);
    }
}

#[tokio::test]
async fn a_change_made_elsewhere_while_asking_is_refused_with_nothing_written() {
    for era in [Era::Modern, Era::Legacy] {
        let asker = Asker::new(Reply::Yes);
        let mut options = Options::new(era);
        options.asker = Some(asker.clone());
        let h = start_options(options).await;
        let made = make_split(&h, true).await;
        let target = made.tx.id.clone();
        let other = Arc::new(h.other_app());
        let flagged = target.clone();
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
        let live_before = live(&h).await.len();
        let writes = writes_served(&h);
        let args = json!({"plan_id": "last-used", "transaction_id": target,
                          "lines": new_lines(&made)});
        assert_eq!(h.error("edit_split", args).await, E_C4, "{era:?}");
        assert_eq!(writes_served(&h), writes + 1, "only the other app's flag");
        let now = live(&h).await;
        assert_eq!(now.len(), live_before, "nothing created");
        let same = now.iter().find(|t| t.id == target).expect("still there");
        assert_eq!(lines_of(same), lines_of(&made.tx), "its lines unchanged");
    }
}

#[tokio::test]
async fn bad_requests_are_refused_with_nothing_sent() {
    let h = start_options(Options::new(Era::Legacy)).await;
    let made = make_split(&h, false).await;
    let ids = common::demo_ids::ids_of(&h).await;
    let tx = made.tx.id.clone();
    let plain_tx = live(&h)
        .await
        .into_iter()
        .find(|t| t.subtransactions.is_empty() && t.transfer_account_id.is_none())
        .expect("an unsplit transaction")
        .id;
    let writes = writes_served(&h);
    let amount = units(made.tx.amount);
    let cases = [
        (
            json!({"transaction_id": "nope", "lines": new_lines(&made)}),
            "Transaction nope is not in this plan: use a transaction_id from find_transactions."
                .to_string(),
        ),
        (
            json!({"transaction_id": plain_tx, "lines": new_lines(&made)}),
            format!("Transaction {plain_tx} is not split: to split it, use split_transaction."),
        ),
        (
            json!({"transaction_id": tx, "lines": [
                {"amount": amount, "category_id": made.groceries}]}),
            "Give at least two lines: YNAB turns a split of one line into an ordinary transaction, which edit_split does not make. To give the whole transaction one category, change it in YNAB.".to_string(),
        ),
        (
            json!({"transaction_id": tx, "lines": [
                {"amount": units(made.tx.amount + 2_000), "category_id": made.groceries},
                {"amount": -1.0, "category_id": made.restaurants}]}),
            format!(
                "The lines add up to {}, the transaction is {}: they must match to the cent.",
                plain(made.tx.amount + 1_000),
                plain(made.tx.amount)
            ),
        ),
        (
            json!({"transaction_id": tx, "lines": [
                {"amount": units(made.tx.amount + 1_000), "category_id": "nope"},
                {"amount": -1.0, "category_id": made.restaurants}]}),
            "Category nope is not in this plan: use a category_id from suggest_categories or get_category_balances.".to_string(),
        ),
        (
            json!({"transaction_id": tx, "lines": made.tx.subtransactions.iter().map(|s| json!({
                "amount": units(s.amount), "category_id": s.category_id, "memo": s.memo
            })).collect::<Vec<_>>()}),
            format!("These are the lines transaction {tx} has already: nothing to change."),
        ),
    ];
    for (mut args, message) in cases {
        args["plan_id"] = json!(plan());
        assert_eq!(h.error("edit_split", args).await, message);
    }
    let _ = ids;
    assert_eq!(writes_served(&h), writes, "nothing sent");
}

#[tokio::test]
async fn a_failed_delete_leaves_a_named_duplicate_that_undo_removes() {
    let h = start_options(Options::new(Era::Legacy)).await;
    let made = make_split(&h, false).await;
    let old = made.tx.clone();
    let live_before = live(&h).await.len();
    h.sandbox.inject(Fault::new(
        1,
        Some("DELETE /plans/{plan_id}/transactions/{transaction_id}"),
        FaultKind::Status {
            status: 500,
            retry_after: None,
        },
    ));
    let args = json!({"plan_id": plan(), "transaction_id": old.id, "lines": new_lines(&made)});
    let preview = h.ok("edit_split", args.clone()).await;
    let code = json!(code_of(&preview));
    let error = h.error("edit_split", common::with_code(args, &code)).await;
    assert!(error.contains("the new split "), "{error}");
    assert!(
        error.contains(&format!(
            "the old one ({}) may or may not be deleted",
            old.id
        )),
        "{error}"
    );
    assert!(error.contains("undo_operation lists it"), "{error}");
    // Both in the plan: the person sees the duplicate.
    assert_eq!(live(&h).await.len(), live_before + 1);
    // undo_operation names the unfinished edit and deletes the copy only.
    let op = error
        .split("undo_operation lists it (operation_id ")
        .nth(1)
        .and_then(|rest| rest.split(')').next())
        .expect("the unfinished edit named")
        .to_string();
    let undo = json!({"plan_id": plan(), "operation_id": op});
    let undone = confirmed(&h, false, "undo_operation", undo).await;
    assert_eq!(undone["status"], "applied", "{undone}");
    let now = live(&h).await;
    assert_eq!(now.len(), live_before, "the copy is gone");
    let kept_old = now
        .iter()
        .find(|t| t.id == old.id)
        .expect("the original kept");
    assert_eq!(lines_of(kept_old), lines_of(&old));
}

#[tokio::test]
async fn an_undo_whose_delete_failed_finishes_without_recreating_twice() {
    let h = start_options(Options::new(Era::Legacy)).await;
    let made = make_split(&h, false).await;
    let old = made.tx.clone();
    let live_before = live(&h).await.len();
    let args = json!({"plan_id": plan(), "transaction_id": old.id, "lines": new_lines(&made)});
    let done = confirmed(&h, false, "edit_split", args).await;
    let op = done["operation_id"].as_str().expect("op").to_string();
    let new_id = done["new_transaction_id"]
        .as_str()
        .expect("new")
        .to_string();
    // The undo's POST lands; its DELETE of the edited transaction is answered 500.
    h.sandbox.inject(Fault::new(
        1,
        Some("DELETE /plans/{plan_id}/transactions/{transaction_id}"),
        FaultKind::Status {
            status: 500,
            retry_after: None,
        },
    ));
    let undo = json!({"plan_id": plan(), "operation_id": op});
    let preview = h.ok("undo_operation", undo.clone()).await;
    let code = json!(code_of(&preview));
    let error = h
        .error("undo_operation", common::with_code(undo.clone(), &code))
        .await;
    assert!(
        error.contains(&format!(
            "the old lines are back as a new transaction; {new_id}, the edited one, may still be there"
        )),
        "{error}"
    );
    assert_eq!(live(&h).await.len(), live_before + 1, "both there for now");
    // Named again, the undo only deletes the edited one: the old lines are not created twice.
    let finished = confirmed(&h, false, "undo_operation", undo).await;
    assert_eq!(finished["status"], "applied", "{finished}");
    let now = live(&h).await;
    assert_eq!(now.len(), live_before);
    assert!(now.iter().all(|t| t.id != new_id));
    let restored: Vec<&Transaction> = now.iter().filter(|t| kept(t) == kept(&old)).collect();
    assert_eq!(restored.len(), 1, "recreated once");
    assert_eq!(lines_of(restored[0]), lines_of(&old));
}
