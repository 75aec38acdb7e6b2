//! `import_transactions` through the protocol (`docs/contract/writes.md` §9.4, S5, D3, D25):
//! confirmed like every write but `approve_transactions`, journaled as `import` that undo cannot
//! revert. The sandbox has no linked bank, so YNAB's answer imports nothing.

use crate::common;

use common::ONLY_THE_USER;

use common::{lines_of, writes_served};

use common::{Asker, Era, Options, Reply, id, start_options};
use serde_json::{Value, json};

fn code_of(value: &Value) -> String {
    assert_eq!(value["status"], "confirmation_required", "{value}");
    value["confirmation"].as_str().expect("code").to_string()
}

fn with_code(mut args: Value, code: &str) -> Value {
    args["confirmation"] = json!(code);
    args
}

const IMPORT_QUESTION: &str = "Import the latest transactions from the linked bank accounts?";

#[tokio::test]
async fn import_is_confirmed_journaled_and_not_undoable() {
    let h = start_options(Options::new(Era::Legacy)).await;
    let args = json!({"plan_id": "last-used"});
    let first = h.ok("import_transactions", args.clone()).await;
    let code = code_of(&first);
    assert_eq!(
        first["message"],
        format!(
            "Nothing changed yet. {ONLY_THE_USER} {IMPORT_QUESTION} If they agree, call again with this code."
        )
    );
    assert_eq!(first["imported"], 0);
    assert_eq!(first["transaction_ids"], json!([]));
    assert_eq!(writes_served(&h), 0);

    let applied = h
        .ok("import_transactions", with_code(args.clone(), &code))
        .await;
    assert_eq!(applied["status"], "applied");
    assert_eq!(applied["message"], "No new transaction to import.");
    assert_eq!(applied["imported"], 0);
    assert_eq!(applied["transaction_ids"], json!([]));
    let op = applied["operation_id"].as_str().expect("op").to_string();
    let routes = h.sandbox.stats().routes;
    assert_eq!(
        routes.get("POST /v1/plans/{plan_id}/transactions/import"),
        Some(&1),
        "{routes:?}"
    );
    let journal = lines_of(&h.journal);
    assert_eq!(journal.len(), 1);
    assert_eq!(journal[0]["kind"], "import");
    assert_eq!(journal[0]["plan_id"], id("demo-budget"));
    assert_eq!(journal[0]["undoable"], false);
    let reason =
        "YNAB's API cannot undo an import: delete the imported transactions in YNAB itself";
    assert_eq!(journal[0]["reason"], reason);
    assert_eq!(journal[0]["details"], json!({"transaction_ids": []}));

    assert_eq!(
        h.error(
            "undo_operation",
            json!({"plan_id": "last-used", "operation_id": op})
        )
        .await,
        format!("Operation {op} (import) cannot be undone here: {reason}.")
    );
    assert_eq!(
        h.error("undo_operation", json!({"plan_id": "last-used"}))
            .await,
        "Nothing to undo: no operation of this plan is still in effect."
    );
}

#[tokio::test]
async fn import_asks_an_asking_client() {
    for (era, reply) in [
        (Era::Modern, Reply::Yes),
        (Era::Legacy, Reply::Yes),
        (Era::Modern, Reply::Decline),
    ] {
        let asker = Asker::new(reply);
        let mut options = Options::new(era);
        options.asker = Some(asker.clone());
        let h = start_options(options).await;
        let value = h
            .ok("import_transactions", json!({"plan_id": id("demo-budget")}))
            .await;
        assert_eq!(asker.questions(), [IMPORT_QUESTION], "{era:?}");
        if reply == Reply::Yes {
            assert_eq!(value["status"], "applied", "{era:?}");
            assert_eq!(value["message"], "No new transaction to import.");
            assert_eq!(lines_of(&h.journal).len(), 1);
        } else {
            assert_eq!(value["status"], "declined");
            assert_eq!(value["message"], "The user declined: nothing changed.");
            assert_eq!(writes_served(&h), 0);
            assert!(lines_of(&h.journal).is_empty());
        }
    }
}
