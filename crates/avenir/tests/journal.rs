//! The journal and its intents through the protocol (D5, D14, D25, D31–D33): approvals journaled
//! and undone, unfinished operations listed and reverted, a journal that cannot be written, a
//! damaged one, operations that cannot be undone, and two undos racing for one operation.

use crate::common;

use common::with_code;

use common::intents_path;

use common::{Era, Harness, Options, id, start_options};
use serde_json::{Value, json};

fn plan() -> String {
    id("demo-budget")
}

async fn harness() -> Harness {
    start_options(Options::new(Era::Legacy)).await
}

fn budget(amount: f64) -> Value {
    json!({"plan_id": "last-used", "month": "2026-09-01", "category_id": id("cat-restaurants"), "amount": amount})
}

/// Preview, then apply with the code.
async fn confirmed(h: &Harness, tool: &'static str, args: Value) -> Value {
    let preview = h.ok(tool, args.clone()).await;
    assert_eq!(preview["status"], "confirmation_required", "{preview}");
    h.ok(tool, with_code(args, &preview["confirmation"])).await
}

async fn restaurants(h: &Harness) -> i64 {
    h.other_app()
        .month(&plan(), "2026-09-01")
        .await
        .expect("month")
        .categories
        .unwrap_or_default()
        .into_iter()
        .find(|c| c.id == id("cat-restaurants"))
        .map(|c| c.budgeted)
        .expect("Restaurants")
}

fn append(path: &std::path::Path, line: &Value) {
    use std::io::Write;
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .expect("open");
    writeln!(file, "{line}").expect("write");
}

#[tokio::test]
async fn approvals_are_journaled_and_undone() {
    let h = harness().await;
    let pending = id("tx-055");
    // make one transaction unapproved, as a bank import leaves it
    h.other_app()
        .update_transactions(
            &plan(),
            &[ynab::writes::TransactionUpdate {
                id: pending.clone(),
                approved: Some(false),
                ..Default::default()
            }],
        )
        .await
        .expect("unapprove");
    let approved = h
        .ok(
            "approve_transactions",
            json!({"plan_id": "last-used", "tx_ids": [pending, id("tx-012")]}),
        )
        .await;
    assert_eq!(approved["approved"], 2);
    let op = approved["operation_id"]
        .as_str()
        .expect("D33: an operation id")
        .to_string();
    let journal: Vec<Value> = std::fs::read_to_string(&h.journal)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    assert_eq!(journal[0]["kind"], "approve");
    assert_eq!(
        journal[0]["details"],
        json!({"transaction_ids": [id("tx-055")]}),
        "only the one it turned from unapproved to approved (D25)"
    );
    let undone = confirmed(
        &h,
        "undo_operation",
        json!({"plan_id": "last-used", "operation_id": op}),
    )
    .await;
    assert_eq!(undone["message"], "Approval undone.");
    let (list, _) = h
        .other_app()
        .transactions(&plan(), &ynab::TransactionFilter::default())
        .await
        .expect("transactions");
    let approved_now = |tx: &str| list.iter().find(|t| t.id == id(tx)).map(|t| t.approved);
    assert_eq!(approved_now("tx-055"), Some(false));
    assert_eq!(
        approved_now("tx-012"),
        Some(true),
        "not approved by this call: left alone"
    );
    // nothing to approve: no request at all
    let before = h.served();
    let none = h
        .ok(
            "approve_transactions",
            json!({"plan_id": "last-used", "tx_ids": []}),
        )
        .await;
    assert_eq!(none["approved"], 0);
    assert_eq!(h.served(), before);
}

#[tokio::test]
async fn an_unfinished_operation_is_listed_and_can_be_reverted() {
    let h = harness().await;
    // A crash after YNAB applied the change, before the journal line: the intent is all there is.
    h.ok("list_accounts", json!({"plan_id": "last-used"})).await;
    std::fs::create_dir_all(h.journal.parent().expect("dir")).expect("dir");
    append(
        &intents_path(&h),
        &json!({"intent": {"id": "0123456789ab", "kind": "budget", "plan_id": plan(),
                "details": {"month": "2026-09-01", "category_id": id("cat-restaurants"), "from": 120000, "to": 150000}}}),
    );
    h.other_app()
        .set_assigned(&plan(), "2026-09-01", &id("cat-restaurants"), 150_000)
        .await
        .expect("the write had landed");
    let listing = h
        .ok(
            "undo_operation",
            json!({"plan_id": "last-used", "operation_id": "0123456789ab"}),
        )
        .await;
    assert_eq!(listing["status"], "confirmation_required");
    assert_eq!(
        listing["unfinished"],
        json!([{"operation_id": "0123456789ab", "kind": "budget"}])
    );
    let undone = h
        .ok(
            "undo_operation",
            json!({"plan_id": "last-used", "operation_id": "0123456789ab", "confirmation": listing["confirmation"]}),
        )
        .await;
    assert_eq!(undone["status"], "applied", "{undone}");
    assert_eq!(restaurants(&h).await, 120_000);
    let intents = std::fs::read_to_string(intents_path(&h)).unwrap_or_default();
    assert!(
        intents.contains("\"settled\":\"0123456789ab\""),
        "{intents}"
    );
}

#[tokio::test]
async fn a_journal_that_cannot_be_written_still_reports_the_write() {
    let h = harness().await;
    // the journal's path is a folder: the intent can be written, the operation line cannot
    std::fs::create_dir_all(&h.journal).expect("a folder where the journal should be");
    let applied = confirmed(&h, "set_category_budget", budget(150.0)).await;
    assert_eq!(
        applied["status"], "applied",
        "F4: never an error after YNAB applied it"
    );
    let op = applied["operation_id"]
        .as_str()
        .expect("D32: the intent's id")
        .to_string();
    let message = applied["message"].as_str().unwrap_or("");
    assert!(
        message.starts_with("Applied in YNAB, but the journal could not record it ("),
        "{message}"
    );
    assert!(message.ends_with(&format!(
        "undo_operation lists it as unfinished and can still revert it with operation_id {op}."
    )));
    assert_eq!(restaurants(&h).await, 150_000);
}

#[tokio::test]
async fn no_intent_no_write() {
    let h = harness().await;
    std::fs::create_dir_all(intents_path(&h)).expect("a folder where the intents file should be");
    let preview = h.ok("set_category_budget", budget(150.0)).await;
    let error = h
        .error(
            "set_category_budget",
            with_code(budget(150.0), &preview["confirmation"]),
        )
        .await;
    assert!(
        error.starts_with("The journal could not record what is about to change"),
        "{error}"
    );
    assert!(error.contains("nothing was sent to YNAB"));
    assert_eq!(restaurants(&h).await, 120_000);
}

#[tokio::test]
async fn a_damaged_journal_names_its_line() {
    let h = harness().await;
    confirmed(&h, "set_category_budget", budget(150.0)).await;
    append(&h.journal, &json!("not an operation"));
    let error = h
        .error("undo_operation", json!({"plan_id": "last-used"}))
        .await;
    assert_eq!(
        error,
        format!(
            "{}, line 2, is not a journal entry: fix or remove that line, or move the file aside to start a new journal.",
            h.journal.display()
        )
    );
    assert_eq!(restaurants(&h).await, 150_000);
}

/// A journal line whose details are missing or mistyped for its kind is not a journal entry
/// either: undoing it names its line (E-U3) instead of comparing against a default, and nothing
/// is written.
#[tokio::test]
async fn a_damaged_detail_names_its_line() {
    let h = harness().await;
    reference_line(
        &h,
        "aaaaaaaaaab1",
        "budget",
        json!({"month": "2026-09-01", "category_id": id("cat-restaurants"), "from": 120000}),
    );
    reference_line(
        &h,
        "aaaaaaaaaab2",
        "move",
        json!({"month": "2026-09-01", "changes": [
            {"category_id": id("cat-restaurants"), "from": "150.00", "to": 120000},
            {"category_id": id("cat-groceries"), "from": 0, "to": 30000}]}),
    );
    let e_u3 = |line: usize| {
        format!(
            "{}, line {line}, is not a journal entry: fix or remove that line, or move the file aside to start a new journal.",
            h.journal.display()
        )
    };
    assert_eq!(
        h.error("undo_operation", json!({"plan_id": "last-used"}))
            .await,
        e_u3(2)
    );
    assert_eq!(
        h.error(
            "undo_operation",
            json!({"plan_id": "last-used", "operation_id": "aaaaaaaaaab1"})
        )
        .await,
        e_u3(1)
    );
    assert_eq!(restaurants(&h).await, 120_000, "nothing written");
}

#[tokio::test]
async fn the_latest_change_that_cannot_be_undone_is_named() {
    let h = harness().await;
    let applied = confirmed(&h, "set_category_budget", budget(150.0)).await;
    let op = applied["operation_id"].as_str().expect("op").to_string();
    append(
        &h.journal,
        &json!({"operation_id": "c0ffee000001", "plan_id": plan(), "kind": "category_create",
                "applied_at": "2026-09-25T10:00:00+00:00", "moves": [], "details": {"category_id": "x"},
                "undoable": false, "reason": "YNAB's API cannot delete or hide a category"}),
    );
    let error = h
        .error("undo_operation", json!({"plan_id": "last-used"}))
        .await;
    assert_eq!(
        error,
        format!(
            "The latest change (category_create, c0ffee000001) cannot be undone here: YNAB's API cannot delete or hide a category. The latest one that can is {op} (Undo: set Restaurants for 2026-09-01 back to 120.00?); call undo_operation with that operation_id."
        )
    );
    assert_eq!(restaurants(&h).await, 150_000, "nothing written");
}

#[tokio::test]
async fn nothing_to_undo() {
    let h = harness().await;
    assert_eq!(
        h.error("undo_operation", json!({"plan_id": "last-used"}))
            .await,
        "Nothing to undo: no operation of this plan is still in effect."
    );
    assert_eq!(
        h.error(
            "undo_operation",
            json!({"plan_id": "last-used", "operation_id": "abcdef012345"})
        )
        .await,
        "Nothing to undo: no operation of this plan is still in effect with id abcdef012345."
    );
}

/// Requests that could change something (anything but a GET) the sandbox has served.
fn writes_sent(h: &Harness) -> u64 {
    h.sandbox
        .stats()
        .routes
        .iter()
        .filter(|(route, _)| !route.starts_with("GET "))
        .map(|(_, n)| n)
        .sum()
}

/// How many `{"undone": operation_id}` markers the journal holds.
fn markers(h: &Harness, operation_id: &str) -> usize {
    std::fs::read_to_string(&h.journal)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|line| line["undone"] == operation_id)
        .count()
}

/// Intents never settled.
fn unsettled(h: &Harness) -> Vec<String> {
    let lines: Vec<Value> = std::fs::read_to_string(intents_path(h))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let settled: Vec<&Value> = lines.iter().map(|l| &l["settled"]).collect();
    lines
        .iter()
        .filter_map(|l| l["intent"]["id"].as_str())
        .filter(|id| !settled.contains(&&json!(id)))
        .map(str::to_string)
        .collect()
}

fn e_u2(operation_id: &str) -> String {
    format!("Nothing to undo: no operation of this plan is still in effect with id {operation_id}.")
}

/// The PATCHes of assigned amounts are held back a moment, so concurrent undos are all in
/// flight while the first one writes (it widens the window; nothing asserts on time).
fn slow_assigned_writes(h: &Harness, count: u32) {
    h.sandbox.inject(ynab_sandbox::faults::Fault::new(
        count,
        Some("PATCH"),
        ynab_sandbox::faults::FaultKind::Delay { ms: 150 },
    ));
}

/// Four confirmed undos of one operation at once, on the multi-thread runtime, ten times over:
/// one reverts it (one PATCH, one marker), the three others answer that it is no longer in
/// effect (E-U2), and no intent is left unsettled.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_undos_of_one_operation_never_both_run() {
    let h = harness().await;
    for round in 0..10 {
        let applied = confirmed(&h, "set_category_budget", budget(150.0 + f64::from(round))).await;
        let op = applied["operation_id"].as_str().expect("op").to_string();
        let args = json!({"plan_id": "last-used", "operation_id": op});
        let mut codes = Vec::new();
        for _ in 0..4 {
            let preview = h.ok("undo_operation", args.clone()).await;
            assert_eq!(preview["status"], "confirmation_required", "{preview}");
            codes.push(with_code(args.clone(), &preview["confirmation"]));
        }
        let writes = writes_sent(&h);
        slow_assigned_writes(&h, 4);
        let (a, b, c, d) = tokio::join!(
            h.call("undo_operation", codes[0].clone()),
            h.call("undo_operation", codes[1].clone()),
            h.call("undo_operation", codes[2].clone()),
            h.call("undo_operation", codes[3].clone()),
        );
        h.sandbox.clear_faults();
        let results = [a, b, c, d];
        let applied: Vec<_> = results
            .iter()
            .filter(|r| r.is_error != Some(true))
            .collect();
        assert_eq!(applied.len(), 1, "round {round}: one undo ran: {results:?}");
        assert_eq!(
            applied[0]
                .structured_content
                .as_ref()
                .map(|v| v["message"].clone()),
            Some(json!("Budgeted amount restored."))
        );
        for refused in results.iter().filter(|r| r.is_error == Some(true)) {
            assert_eq!(common::text_of(refused), e_u2(&op), "round {round}");
        }
        assert_eq!(writes_sent(&h), writes + 1, "round {round}: one PATCH");
        assert_eq!(markers(&h, &op), 1, "round {round}");
        assert_eq!(restaurants(&h).await, 120_000, "round {round}");
        assert_eq!(unsettled(&h), Vec::<String>::new(), "round {round}");
    }
}

/// Two undos without an id both preview the latest operation; once one has reverted it, the
/// other reverts nothing, neither that one again nor the one before it, which its user never saw.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_undos_of_the_latest_revert_only_the_latest() {
    let h = harness().await;
    let first = confirmed(&h, "set_category_budget", budget(150.0)).await;
    let latest = confirmed(&h, "set_category_budget", budget(160.0)).await;
    let latest = latest["operation_id"].as_str().expect("op").to_string();
    let args = json!({"plan_id": "last-used"});
    let one = h.ok("undo_operation", args.clone()).await;
    let two = h.ok("undo_operation", args.clone()).await;
    assert_eq!(one["undone_operation_id"], latest.as_str());
    assert_eq!(two["undone_operation_id"], latest.as_str());
    let writes = writes_sent(&h);
    slow_assigned_writes(&h, 2);
    let (a, b) = tokio::join!(
        h.call(
            "undo_operation",
            with_code(args.clone(), &one["confirmation"])
        ),
        h.call(
            "undo_operation",
            with_code(args.clone(), &two["confirmation"])
        ),
    );
    h.sandbox.clear_faults();
    let results = [a, b];
    assert_eq!(
        results.iter().filter(|r| r.is_error != Some(true)).count(),
        1,
        "{results:?}"
    );
    let refusal = results
        .iter()
        .find(|r| r.is_error == Some(true))
        .map(common::text_of)
        .unwrap_or_default();
    // Its code was for the latest: either it finds that one undone (E-U2) or, previewing again,
    // another change than the one its user agreed to (E-C4).
    assert!(
        refusal == e_u2(&latest)
            || refusal
                == "The budget changed between the preview and the answer. Call again without an answer to get a new preview.",
        "{refusal}"
    );
    assert_eq!(writes_sent(&h), writes + 1, "one PATCH");
    assert_eq!(restaurants(&h).await, 150_000, "the first change stays");
    assert_eq!(markers(&h, &latest), 1);
    assert_eq!(markers(&h, first["operation_id"].as_str().unwrap_or("")), 0);
}

/// An operation journaled whose intent was never settled (the settle failed): undone once, its
/// open intent is no second way to undo it, even with two undos at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_operation_and_its_open_intent_are_undone_once() {
    let h = harness().await;
    let op = "0123456789ab";
    let details = json!({"month": "2026-09-01", "category_id": id("cat-restaurants"), "from": 120000, "to": 150000});
    reference_line(&h, op, "budget", details.clone());
    append(
        &intents_path(&h),
        &json!({"intent": {"id": op, "kind": "budget", "plan_id": plan(), "details": details}}),
    );
    h.other_app()
        .set_assigned(&plan(), "2026-09-01", &id("cat-restaurants"), 150_000)
        .await
        .expect("the write had landed");
    let args = json!({"plan_id": "last-used", "operation_id": op});
    let one = h.ok("undo_operation", args.clone()).await;
    let two = h.ok("undo_operation", args.clone()).await;
    let writes = writes_sent(&h);
    slow_assigned_writes(&h, 2);
    let (a, b) = tokio::join!(
        h.call(
            "undo_operation",
            with_code(args.clone(), &one["confirmation"])
        ),
        h.call(
            "undo_operation",
            with_code(args.clone(), &two["confirmation"])
        ),
    );
    h.sandbox.clear_faults();
    let results = [a, b];
    assert_eq!(
        results.iter().filter(|r| r.is_error != Some(true)).count(),
        1,
        "{results:?}"
    );
    assert_eq!(writes_sent(&h), writes + 1, "one PATCH");
    assert_eq!(markers(&h, op), 1);
    assert_eq!(restaurants(&h).await, 120_000);
    // and afterwards, asked again, it is undone: not found, not reverted through the intent
    assert_eq!(h.error("undo_operation", args).await, e_u2(op));
    assert_eq!(writes_sent(&h), writes + 1);
}

/// An undo never takes a write still in flight for an unfinished one: its preview waits until
/// the write is journaled, then offers to revert it.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_undo_waits_for_a_write_in_flight() {
    let h = std::sync::Arc::new(harness().await);
    let preview = h.ok("set_category_budget", budget(150.0)).await;
    h.sandbox.inject(ynab_sandbox::faults::Fault::new(
        1,
        Some("PATCH"),
        ynab_sandbox::faults::FaultKind::Delay { ms: 500 },
    ));
    let writing = {
        let h = h.clone();
        let args = with_code(budget(150.0), &preview["confirmation"]);
        tokio::spawn(async move { h.ok("set_category_budget", args).await })
    };
    // until the write's intent is on disk (the write is then between its intent and its settle,
    // or already past it)
    while !std::fs::read_to_string(intents_path(&h))
        .unwrap_or_default()
        .contains("\"intent\"")
    {
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    let undo = h
        .ok("undo_operation", json!({"plan_id": "last-used"}))
        .await;
    let applied = writing.await.expect("the write's task");
    assert_eq!(applied["status"], "applied", "{applied}");
    assert_eq!(undo["status"], "confirmation_required", "{undo}");
    assert_eq!(undo["undone_operation_id"], applied["operation_id"]);
    assert_eq!(undo["unfinished"], json!([]), "{undo}");
}

/// A journal line in the Python server's format, as a switching person brings it.
fn reference_line(h: &Harness, operation_id: &str, kind: &str, details: Value) {
    std::fs::create_dir_all(h.journal.parent().expect("dir")).expect("dir");
    append(
        &h.journal,
        &json!({"operation_id": operation_id, "plan_id": plan(), "kind": kind,
                "applied_at": "2026-09-24T10:00:00+00:00", "moves": [], "details": details}),
    );
}

async fn transactions(h: &Harness) -> Vec<ynab::models::Transaction> {
    h.other_app()
        .transactions(&plan(), &ynab::TransactionFilter::default())
        .await
        .expect("transactions")
        .0
}

async fn update(h: &Harness, update: ynab::writes::TransactionUpdate) {
    h.other_app()
        .update_transactions(&plan(), &[update])
        .await
        .expect("update");
}

#[tokio::test]
async fn a_reference_create_is_undone_by_deleting_what_is_left() {
    let h = harness().await;
    let created = h
        .other_app()
        .create_transactions(
            &plan(),
            &[ynab::writes::NewTransaction {
                account_id: id("acc-checking"),
                date: "2026-09-20".into(),
                amount: -12_000,
                payee_name: Some("CORNER SHOP".into()),
                ..Default::default()
            }],
        )
        .await
        .expect("created");
    reference_line(
        &h,
        "aaaaaaaaaaa1",
        "create",
        json!({"transaction_ids": created.transaction_ids.clone()}),
    );
    let preview = h
        .ok("undo_operation", json!({"plan_id": "last-used"}))
        .await;
    assert!(
        preview["message"]
            .as_str()
            .unwrap_or("")
            .contains("Undo: delete the 1 transaction(s) this operation created?")
    );
    let done = h
        .ok(
            "undo_operation",
            json!({"plan_id": "last-used", "confirmation": preview["confirmation"]}),
        )
        .await;
    assert_eq!(done["message"], "Created transactions deleted.");
    let id = &created.transaction_ids[0];
    assert!(
        transactions(&h).await.iter().all(|t| &t.id != id),
        "deleted"
    );
}

#[tokio::test]
async fn a_reference_flag_is_put_back_where_unchanged() {
    let h = harness().await;
    for tx in ["tx-012", "tx-013"] {
        update(
            &h,
            ynab::writes::TransactionUpdate {
                id: id(tx),
                flag_color: Some(Some("red".into())),
                ..Default::default()
            },
        )
        .await;
    }
    reference_line(
        &h,
        "aaaaaaaaaaa2",
        "flag",
        json!({"changes": [
            {"transaction_id": id("tx-012"), "from": null, "to": "red"},
            {"transaction_id": id("tx-013"), "from": null, "to": "red"}]}),
    );
    // the user changed one since
    update(
        &h,
        ynab::writes::TransactionUpdate {
            id: id("tx-013"),
            flag_color: Some(Some("blue".into())),
            ..Default::default()
        },
    )
    .await;
    let preview = h
        .ok("undo_operation", json!({"plan_id": "last-used"}))
        .await;
    assert!(
        preview["message"]
            .as_str()
            .unwrap_or("")
            .contains("Undo: put back the flag of 1 transaction(s)?")
    );
    assert_eq!(preview["conflicts"], json!([id("tx-013")]));
    let done = h
        .ok(
            "undo_operation",
            json!({"plan_id": "last-used", "confirmation": preview["confirmation"]}),
        )
        .await;
    assert_eq!(done["message"], "Flags restored.");
    let list = transactions(&h).await;
    let flag = |tx: &str| {
        list.iter()
            .find(|t| t.id == id(tx))
            .and_then(|t| t.flag_color.clone())
            .filter(|c| !c.is_empty())
    };
    assert_eq!(flag("tx-012"), None);
    assert_eq!(flag("tx-013"), Some("blue".into()), "left alone");
}

#[tokio::test]
async fn a_reference_payee_rename_is_undone_unless_renamed_since() {
    let h = harness().await;
    let rail = id("pay-rail-co");
    h.other_app()
        .rename_payee(&plan(), &rail, "Rail company")
        .await
        .expect("renamed");
    reference_line(
        &h,
        "aaaaaaaaaaa3",
        "payee",
        json!({"payee_id": rail, "from": "RAIL CO", "to": "Rail company"}),
    );
    let preview = h
        .ok("undo_operation", json!({"plan_id": "last-used"}))
        .await;
    assert!(
        preview["message"]
            .as_str()
            .unwrap_or("")
            .contains("Undo: name the payee ‘RAIL CO’ again?")
    );
    let done = h
        .ok(
            "undo_operation",
            json!({"plan_id": "last-used", "confirmation": preview["confirmation"]}),
        )
        .await;
    assert_eq!(done["message"], "The payee's previous name is back.");
    let payees = h.other_app().payees(&plan()).await.expect("payees");
    assert_eq!(
        payees
            .iter()
            .find(|p| p.id == rail)
            .map(|p| p.name.as_str()),
        Some("RAIL CO")
    );
}

#[tokio::test]
async fn a_reference_reconciliation_is_undone_where_still_reconciled() {
    let h = harness().await;
    for tx in ["tx-040", "tx-041"] {
        update(
            &h,
            ynab::writes::TransactionUpdate {
                id: id(tx),
                cleared: Some("reconciled".into()),
                ..Default::default()
            },
        )
        .await;
    }
    reference_line(
        &h,
        "aaaaaaaaaaa4",
        "reconcile",
        json!({"account_id": id("acc-checking"), "reconciled_ids": [id("tx-040"), id("tx-041")], "adjustment_id": null}),
    );
    update(
        &h,
        ynab::writes::TransactionUpdate {
            id: id("tx-041"),
            cleared: Some("cleared".into()),
            ..Default::default()
        },
    )
    .await;
    let preview = h
        .ok("undo_operation", json!({"plan_id": "last-used"}))
        .await;
    assert!(
        preview["message"]
            .as_str()
            .unwrap_or("")
            .contains("Undo reconciliation: mark 1 transaction(s) back to cleared?"),
        "{preview}"
    );
    assert_eq!(preview["conflicts"], json!([id("tx-041")]));
    let done = h
        .ok(
            "undo_operation",
            json!({"plan_id": "last-used", "confirmation": preview["confirmation"]}),
        )
        .await;
    assert_eq!(done["message"], "Reconciliation undone.");
    let list = transactions(&h).await;
    let state = |tx: &str| {
        list.iter()
            .find(|t| t.id == id(tx))
            .map(|t| t.cleared.clone())
    };
    assert_eq!(state("tx-040").as_deref(), Some("cleared"));
}
