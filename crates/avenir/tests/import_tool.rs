//! `import_transactions` through the protocol (`docs/contract/writes.md` §9.4, S5, D3, D25):
//! confirmed like every write but `approve_transactions`, journaled as `import` with the ids YNAB
//! imported, which undo deletes. The sandbox's bank holds nothing unless a test gives it lines.

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
async fn an_import_of_nothing_is_confirmed_journaled_and_leaves_undo_nothing_to_do() {
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
    assert_eq!(journal[0].get("undoable"), None);
    assert_eq!(journal[0]["details"], json!({"transaction_ids": []}));

    let undo = h
        .ok(
            "undo_operation",
            json!({"plan_id": "last-used", "operation_id": op}),
        )
        .await;
    assert_eq!(undo["status"], "nothing_to_do", "{undo}");
    assert_eq!(
        undo["message"],
        "Nothing to delete: the import brought nothing in, or it is already deleted."
    );
    assert_eq!(writes_served(&h), 1, "only the import itself");
}

/// Two lines the bank holds, as YNAB's bank feed brings them: unapproved, with an import id.
fn bank_line(day: &str, amount: i64, payee: &str) -> Value {
    json!({"account_id": id("acc-checking"), "date": format!("2026-09-{day}"), "amount": amount,
           "payee_name": payee, "cleared": "cleared", "approved": false,
           "import_id": format!("YNAB:{amount}:2026-09-{day}:1")})
}

#[tokio::test]
async fn what_an_import_brought_in_is_deleted_by_its_undo() {
    let h = start_options(Options::new(Era::Legacy)).await;
    h.sandbox.hold_bank_lines(vec![
        bank_line("24", -12_500, "CORNER BAKERY"),
        bank_line("25", -40_000, "FUEL STATION 12"),
    ]);
    let args = json!({"plan_id": "last-used"});
    let code = code_of(&h.ok("import_transactions", args.clone()).await);
    let applied = h.ok("import_transactions", with_code(args, &code)).await;
    assert_eq!(applied["imported"], 2, "{applied}");
    let op = applied["operation_id"].as_str().expect("op").to_string();
    assert_eq!(
        applied["message"],
        format!(
            "Imported 2 transaction(s). suggest_categories lists those that still need a category. undo_operation with operation_id {op} deletes them."
        )
    );
    let imported: Vec<String> = applied["transaction_ids"]
        .as_array()
        .expect("ids")
        .iter()
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect();
    let plan = id("demo-budget");
    let live = common::live_transactions(&h, &plan).await;
    assert!(imported.iter().all(|i| live.iter().any(|t| &t.id == i)));

    let undo = json!({"plan_id": "last-used", "operation_id": op});
    let asked = h.ok("undo_operation", undo.clone()).await;
    let message = asked["message"].as_str().expect("message");
    assert!(
        message.contains("Undo: delete the 2 transaction(s) this import brought in?\n- 2026-09-24 CORNER BAKERY -12.50 on Checking\n- 2026-09-25 FUEL STATION 12 -40.00 on Checking"),
        "{message}"
    );
    let done = h
        .ok("undo_operation", with_code(undo, &code_of(&asked)))
        .await;
    assert_eq!(done["status"], "applied", "{done}");
    assert_eq!(done["message"], "Imported transactions deleted.");
    let live = common::live_transactions(&h, &plan).await;
    assert!(
        imported.iter().all(|i| live.iter().all(|t| &t.id != i)),
        "both deleted"
    );
    let journal = lines_of(&h.journal);
    assert_eq!(journal.last(), Some(&json!({"undone": op})));
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

/// An import journaled by an earlier version (`undoable: false` with its reason) is undone all
/// the same: its line holds the ids YNAB imported.
#[tokio::test]
async fn an_import_journaled_before_import_undo_existed_is_undone() {
    let h = start_options(Options::new(Era::Legacy)).await;
    h.sandbox
        .hold_bank_lines(vec![bank_line("24", -12_500, "CORNER BAKERY")]);
    let args = json!({"plan_id": "last-used"});
    let code = code_of(&h.ok("import_transactions", args.clone()).await);
    let applied = h.ok("import_transactions", with_code(args, &code)).await;
    let op = applied["operation_id"].as_str().expect("op").to_string();
    let mut line = lines_of(&h.journal).remove(0);
    line["undoable"] = json!(false);
    line["reason"] =
        json!("YNAB's API cannot undo an import: delete the imported transactions in YNAB itself");
    std::fs::write(&h.journal, format!("{line}\n")).expect("journal");
    let undo = json!({"plan_id": "last-used", "operation_id": op});
    let asked = h.ok("undo_operation", undo.clone()).await;
    let done = h
        .ok("undo_operation", with_code(undo, &code_of(&asked)))
        .await;
    assert_eq!(done["message"], "Imported transactions deleted.", "{done}");
    let live = common::live_transactions(&h, &id("demo-budget")).await;
    assert!(
        live.iter()
            .all(|t| t.payee_name.as_deref() != Some("CORNER BAKERY"))
    );
}
