//! `update_transactions` through the protocol on the demo plan: the three ways to ask (the
//! 2026-07-28 round trip, the 2025-11-25 in-call question, a confirmation code), the sandbox's
//! state before, after the write and after the undo, a stale answer refused with nothing written,
//! what YNAB would refuse, the journal and intent privacy, and undo leaving a later change alone.

use crate::common;

use common::{E_C4, ONLY_THE_USER, journal_lines, with_code};

use common::{Asker, Era, Harness, Options, Reply, id, start_options};
use serde_json::{Value, json};
use std::sync::Arc;
use ynab::models::Transaction as TransactionSummary;

fn plan() -> String {
    id("demo-budget")
}

async fn harness(era: Era, asker: Option<Asker>) -> Harness {
    let mut options = Options::new(era);
    options.asker = asker;
    start_options(options).await
}

fn intents_path(h: &Harness) -> std::path::PathBuf {
    let mut name = h.journal.as_os_str().to_os_string();
    name.push(".intents");
    name.into()
}

fn nothing_journaled(h: &Harness) {
    assert!(journal_lines(h).is_empty(), "no operation line");
    assert!(!intents_path(h).exists(), "no intent either");
}

fn updated(op: &str) -> String {
    format!(
        "Updated. undo_operation with operation_id {op} puts back every value not changed since."
    )
}

fn applied(value: &Value) -> String {
    assert_eq!(value["status"], "applied", "{value}");
    let op = value["operation_id"]
        .as_str()
        .expect("an operation id")
        .to_string();
    assert_eq!(value["message"], updated(&op));
    op
}

async fn transaction(h: &Harness, readable: &str) -> TransactionSummary {
    h.other_app()
        .transactions(&plan(), &ynab::TransactionFilter::default())
        .await
        .expect("transactions")
        .0
        .into_iter()
        .find(|t| t.id == id(readable))
        .expect("the transaction")
}

/// Another app gives tx-054 a wrong memo (a typo), as the person would find it.
async fn misspell(h: &Harness) {
    h.other_app()
        .update_transactions(
            &plan(),
            &[ynab::writes::TransactionUpdate {
                id: id("tx-054"),
                memo: Some(Some("Trian to Lyon".into())),
                ..Default::default()
            }],
        )
        .await
        .expect("another app writes a memo");
}

/// Fix tx-054's memo and date, and give it a category (a meal on the train).
fn fix() -> Value {
    json!({"plan_id": "last-used", "updates": [{
        "transaction_id": id("tx-054"), "memo": "Train to Lyon", "date": "2026-09-17",
        "category_id": id("cat-restaurants")}]})
}

const FIX_QUESTION: &str = "Change 1 transaction(s)?\n- 2026-09-18 RAIL CO -45.00 (Checking): date 2026-09-18 → 2026-09-17; category none → Restaurants; memo ‘Trian to Lyon’ → ‘Train to Lyon’";

/// tx-054 as the demo plan holds it once misspelt: (date, category, memo).
async fn state(h: &Harness) -> (String, Option<String>, Option<String>) {
    let t = transaction(h, "tx-054").await;
    (t.date, t.category_id, t.memo)
}

fn before() -> (String, Option<String>, Option<String>) {
    ("2026-09-18".into(), None, Some("Trian to Lyon".into()))
}

fn after() -> (String, Option<String>, Option<String>) {
    (
        "2026-09-17".into(),
        Some(id("cat-restaurants")),
        Some("Train to Lyon".into()),
    )
}

/// Undo `op` with a code (the undo's own question checked), and check what came back.
async fn undo_with_code(h: &Harness, op: &str) -> Value {
    let args = json!({"plan_id": "last-used", "operation_id": op});
    let preview = h.ok("undo_operation", args.clone()).await;
    assert_eq!(preview["status"], "confirmation_required", "{preview}");
    h.ok("undo_operation", with_code(args, &preview["confirmation"]))
        .await
}

fn check_journal(h: &Harness, op: &str) {
    let lines = journal_lines(h);
    assert_eq!(lines.len(), 1, "{lines:?}");
    let line = &lines[0];
    assert_eq!(line["operation_id"], op);
    assert_eq!(line["plan_id"], plan());
    assert_eq!(line["kind"], "update");
    assert_eq!(line["moves"], json!([]));
    let changes = &line["details"]["changes"];
    assert_eq!(
        changes[0]["fields"],
        json!({
            "date": {"from": "2026-09-18", "to": "2026-09-17"},
            "category_id": {"from": null, "to": id("cat-restaurants")},
            "memo": {"from": "Trian to Lyon", "to": "Train to Lyon"}
        })
    );
    // D31: the intent holds the date and memo only as salted digests.
    let intents = std::fs::read_to_string(intents_path(h)).unwrap_or_default();
    assert!(!intents.contains("Lyon"), "{intents}");
    assert!(!intents.contains("2026-09-17"), "{intents}");
    assert!(intents.contains("from_digest"), "{intents}");
    assert!(
        intents.contains(&format!("{{\"outcome\":\"applied\",\"settled\":\"{op}\"}}")),
        "{intents}"
    );
}

#[tokio::test]
async fn a_fix_without_elicitation_takes_a_code_and_undo_puts_it_back() {
    for era in [Era::Modern, Era::Legacy] {
        let h = harness(era, None).await;
        misspell(&h).await;
        assert_eq!(state(&h).await, before());
        let preview = h.ok("update_transactions", fix()).await;
        assert_eq!(preview["status"], "confirmation_required", "{era:?}");
        assert_eq!(
            preview["message"],
            format!(
                "Nothing changed yet. {ONLY_THE_USER} {FIX_QUESTION} If they agree, call again with this code."
            )
        );
        assert_eq!(preview["unchanged_count"], 0);
        assert_eq!(
            preview["changes"],
            json!([{"transaction_id": id("tx-054"), "date": "2026-09-18", "payee": "RAIL CO",
                    "amount": -45.0, "account": "Checking", "fields": [
                        {"field": "date", "from": "2026-09-18", "to": "2026-09-17"},
                        {"field": "category", "from": "none", "to": "Restaurants"},
                        {"field": "memo", "from": "‘Trian to Lyon’", "to": "‘Train to Lyon’"}]}])
        );
        assert_eq!(state(&h).await, before(), "not yet");
        nothing_journaled(&h);

        let done = h
            .ok(
                "update_transactions",
                with_code(fix(), &preview["confirmation"]),
            )
            .await;
        let op = applied(&done);
        assert_eq!(state(&h).await, after());
        check_journal(&h, &op);

        // asked again: already so
        let again = h.ok("update_transactions", fix()).await;
        assert_eq!(again["status"], "nothing_to_do");
        assert_eq!(again["message"], "Every transaction is already as asked.");
        assert_eq!(again["unchanged_count"], 1);

        let undone = undo_with_code(&h, &op).await;
        assert_eq!(undone["status"], "applied", "{undone}");
        assert_eq!(undone["message"], "Previous values restored.");
        assert_eq!(undone["conflicts"], json!([]));
        assert_eq!(state(&h).await, before(), "put back");
        assert_eq!(journal_lines(&h)[1], json!({"undone": op}));
    }
}

#[tokio::test]
async fn a_fix_is_asked_in_the_client_on_both_eras_and_undone() {
    // Modern: the 2026-07-28 input-required round trip; Legacy: the in-call question.
    for era in [Era::Modern, Era::Legacy] {
        let asker = Asker::new(Reply::Yes);
        let h = harness(era, Some(asker.clone())).await;
        misspell(&h).await;
        let done = h.ok("update_transactions", fix()).await;
        let op = applied(&done);
        assert_eq!(asker.questions(), [FIX_QUESTION], "{era:?}");
        assert_eq!(state(&h).await, after());
        check_journal(&h, &op);

        let undone = h
            .ok(
                "undo_operation",
                json!({"plan_id": "last-used", "operation_id": op}),
            )
            .await;
        assert_eq!(undone["status"], "applied", "{undone}");
        assert_eq!(
            asker.questions()[1],
            "Undo: put back 3 value(s) of 1 transaction(s)?\n- 2026-09-17 RAIL CO -45.00: date 2026-09-17 → 2026-09-18; category Restaurants → none; memo ‘Train to Lyon’ → ‘Trian to Lyon’"
        );
        assert_eq!(state(&h).await, before(), "put back");
    }
}

#[tokio::test]
async fn a_change_made_elsewhere_while_asking_is_refused() {
    for era in [Era::Modern, Era::Legacy] {
        let asker = Asker::new(Reply::Yes);
        let h = harness(era, Some(asker.clone())).await;
        misspell(&h).await;
        let other = Arc::new(h.other_app());
        asker.meddle_with(Arc::new(move || {
            let other = other.clone();
            Box::pin(async move {
                let _ = other
                    .update_transactions(
                        &id("demo-budget"),
                        &[ynab::writes::TransactionUpdate {
                            id: id("tx-054"),
                            memo: Some(Some("Train to Paris".into())),
                            ..Default::default()
                        }],
                    )
                    .await;
            })
        }));
        assert_eq!(h.error("update_transactions", fix()).await, E_C4);
        let (date, category, memo) = state(&h).await;
        assert_eq!(
            (date, category, memo.as_deref()),
            ("2026-09-18".into(), None, Some("Train to Paris")),
            "{era:?}: nothing written"
        );
        nothing_journaled(&h);
    }
}

#[tokio::test]
async fn undo_leaves_a_value_changed_since_alone() {
    let h = harness(Era::Modern, Some(Asker::new(Reply::Yes))).await;
    misspell(&h).await;
    let op = applied(&h.ok("update_transactions", fix()).await);
    // the person edits the memo again in YNAB
    h.other_app()
        .update_transactions(
            &plan(),
            &[ynab::writes::TransactionUpdate {
                id: id("tx-054"),
                memo: Some(Some("Train to Lyon (work)".into())),
                ..Default::default()
            }],
        )
        .await
        .expect("another edit");
    let undone = h
        .ok(
            "undo_operation",
            json!({"plan_id": "last-used", "operation_id": op}),
        )
        .await;
    assert_eq!(undone["status"], "applied", "{undone}");
    assert_eq!(
        undone["conflicts"],
        json!([format!("{} memo", id("tx-054"))])
    );
    let (date, category, memo) = state(&h).await;
    assert_eq!(date, "2026-09-18");
    assert_eq!(category, None);
    assert_eq!(memo.as_deref(), Some("Train to Lyon (work)"), "left alone");
}

#[tokio::test]
async fn many_fields_and_a_new_payee_and_their_undo() {
    let h = harness(Era::Modern, Some(Asker::new(Reply::Yes))).await;
    let args = json!({"plan_id": "last-used", "updates": [
        {"transaction_id": id("tx-054"), "amount": -46.5, "payee_name": "Rail Company",
         "flag": "red", "approved": false, "cleared": "uncleared"},
        {"transaction_id": id("tx-008"), "flag": "none"}
    ]});
    let old = transaction(&h, "tx-054").await;
    let done = h.ok("update_transactions", args).await;
    let op = applied(&done);
    assert_eq!(done["unchanged_count"], 1, "tx-008 has no flag");
    let now = transaction(&h, "tx-054").await;
    assert_eq!(now.amount, -46_500);
    assert_eq!(now.flag_color.as_deref(), Some("red"));
    assert!(!now.approved);
    assert_eq!(now.cleared, "uncleared");
    assert_ne!(now.payee_id, old.payee_id);
    let payees = h.other_app().payees(&plan()).await.expect("payees");
    let new_payee = payees
        .iter()
        .find(|p| Some(p.id.as_str()) == now.payee_id.as_deref())
        .expect("the new payee");
    assert_eq!(new_payee.name, "Rail Company");
    let line = &journal_lines(&h)[0];
    assert_eq!(
        line["details"]["changes"][0]["fields"]["payee_id"]["to"],
        json!(new_payee.id),
        "the journal knows the id YNAB gave"
    );
    let undone = h
        .ok(
            "undo_operation",
            json!({"plan_id": "last-used", "operation_id": op}),
        )
        .await;
    assert_eq!(undone["status"], "applied", "{undone}");
    let back = transaction(&h, "tx-054").await;
    assert_eq!(
        (
            back.amount,
            back.payee_id,
            back.flag_color.filter(|c| !c.is_empty()),
            back.approved,
            back.cleared
        ),
        (old.amount, old.payee_id, None, old.approved, old.cleared)
    );
}

#[tokio::test]
async fn what_ynab_would_refuse_is_refused_with_nothing_written() {
    let h = harness(Era::Legacy, None).await;
    let one = |entry: Value| json!({"plan_id": "last-used", "updates": [entry]});
    let cases = [
        (json!({"plan_id": "last-used", "updates": []}), "Give at least one update.".to_string()),
        (
            one(json!({"transaction_id": id("tx-054"), "date": "2026-10-01"})),
            format!("Transaction {}: the date 2026-10-01 is in the future, and YNAB keeps future transactions as scheduled ones: give today (2026-09-25) or earlier.", id("tx-054")),
        ),
        (
            one(json!({"transaction_id": id("tx-054")})),
            format!("The update of transaction {} changes nothing: give at least one of date, amount, payee_id, payee_name, category_id, memo, account_id, cleared, approved or flag.", id("tx-054")),
        ),
        (
            one(json!({"transaction_id": "nope", "approved": true})),
            "Transaction nope is not in this plan: use a transaction_id from find_transactions.".to_string(),
        ),
        (
            one(json!({"transaction_id": id("tx-054"), "payee_id": id("pay-rail-co"), "payee_name": "X"})),
            format!("updates.0: give payee_id or payee_name for transaction {}, not both.", id("tx-054")),
        ),
        (
            one(json!({"transaction_id": id("tx-054"), "cleared": "reconciled"})),
            "updates.0.cleared: reconciled is set by reconcile_account, against the bank's balance; give 'cleared' or 'uncleared'.".to_string(),
        ),
        (
            one(json!({"transaction_id": id("tx-054"), "flag": "pink"})),
            "updates.0.flag must be 'red', 'orange', 'yellow', 'green', 'blue', 'purple' or 'none', got 'pink'.".to_string(),
        ),
        (
            one(json!({"transaction_id": id("tx-054"), "category_id": "nope"})),
            "Category nope is not in this plan: use a category_id from get_category_balances.".to_string(),
        ),
    ];
    for (args, expected) in cases {
        assert_eq!(h.error("update_transactions", args).await, expected);
    }
    let many: Vec<Value> = (0..101)
        .map(|i| json!({"transaction_id": format!("t{i}"), "approved": true}))
        .collect();
    assert!(
        h.error(
            "update_transactions",
            json!({"plan_id": "last-used", "updates": many})
        )
        .await
        .starts_with("Give at most 100 updates in one call")
    );
    nothing_journaled(&h);
}

#[tokio::test]
async fn a_split_s_amount_and_a_budget_transfer_s_category_are_refused_by_name() {
    let h = harness(Era::Legacy, None).await;
    // Split tx-054 first (YNAB keeps a split's amount, date and category).
    let split = json!({"plan_id": "last-used", "transaction_id": id("tx-054"), "lines": [
        {"amount": -20, "category_id": id("cat-transport")},
        {"amount": -25, "category_id": id("cat-restaurants")}]});
    let preview = h.ok("split_transaction", split.clone()).await;
    let done = h
        .ok(
            "split_transaction",
            with_code(split, &preview["confirmation"]),
        )
        .await;
    assert_eq!(done["status"], "applied", "{done}");
    let one = |entry: Value| json!({"plan_id": "last-used", "updates": [entry]});
    assert_eq!(
        h.error(
            "update_transactions",
            one(json!({"transaction_id": id("tx-054"), "amount": -50}))
        )
        .await,
        format!(
            "Transaction {} (2026-09-18 RAIL CO -45.00) is split: YNAB's API cannot change a split's amount; change it in YNAB, or leave amount out.",
            id("tx-054")
        )
    );
    assert!(
        h.error(
            "update_transactions",
            one(json!({"transaction_id": id("tx-054"), "date": "2026-09-17"}))
        )
        .await
        .contains("cannot change a split's date")
    );
    // A split's memo can change.
    let memo = one(json!({"transaction_id": id("tx-054"), "memo": "Lyon"}));
    let preview = h.ok("update_transactions", memo.clone()).await;
    assert_eq!(preview["status"], "confirmation_required", "{preview}");

    // A transfer between two budget accounts takes no category.
    let accounts = h.other_app().accounts(&plan()).await.expect("accounts");
    let on_budget = |a: &str| accounts.iter().any(|x| x.id == a && x.on_budget);
    let transfer = h
        .other_app()
        .transactions(&plan(), &ynab::TransactionFilter::default())
        .await
        .expect("transactions")
        .0
        .into_iter()
        .find(|t| {
            !t.deleted
                && on_budget(&t.account_id)
                && t.transfer_account_id.as_deref().is_some_and(on_budget)
        })
        .expect("a transfer between budget accounts in the demo plan");
    let refused = h
        .error(
            "update_transactions",
            one(json!({"transaction_id": transfer.id, "category_id": id("cat-groceries")})),
        )
        .await;
    assert!(
        refused.starts_with(&format!("Transaction {} (", transfer.id))
            && refused.ends_with("is a transfer between two budget accounts: YNAB gives it no category; leave category_id out."),
        "{refused}"
    );
    assert_eq!(journal_lines(&h).len(), 1, "only the split");
}

#[tokio::test]
async fn a_long_question_shows_twenty_lines_then_a_count() {
    let asker = Asker::new(Reply::Decline);
    let h = harness(Era::Modern, Some(asker.clone())).await;
    let mut ids: Vec<String> = h
        .other_app()
        .transactions(&plan(), &ynab::TransactionFilter::default())
        .await
        .expect("transactions")
        .0
        .into_iter()
        .filter(|t| !t.deleted && t.subtransactions.is_empty())
        .map(|t| t.id)
        .collect();
    ids.truncate(23);
    let updates: Vec<Value> = ids
        .iter()
        .map(|t| json!({"transaction_id": t, "flag": "purple"}))
        .collect();
    let declined = h
        .ok(
            "update_transactions",
            json!({"plan_id": "last-used", "updates": updates}),
        )
        .await;
    assert_eq!(declined["status"], "declined", "{declined}");
    let question = &asker.questions()[0];
    let lines: Vec<&str> = question.lines().collect();
    assert_eq!(lines[0], "Change 23 transaction(s)?");
    assert_eq!(lines.len(), 22, "{question}");
    assert_eq!(lines[21], "- … and 3 more");
    nothing_journaled(&h);
}

#[tokio::test]
async fn an_unfinished_update_is_recovered_field_by_field() {
    use ynab_sandbox::faults::{Fault, FaultKind};
    let h = harness(Era::Legacy, None).await;
    misspell(&h).await;
    let preview = h.ok("update_transactions", fix()).await;
    h.sandbox.inject(Fault::new(
        1,
        Some("PATCH /plans/{plan_id}/transactions"),
        FaultKind::ApplyThenDrop,
    ));
    let lost = h
        .call(
            "update_transactions",
            with_code(fix(), &preview["confirmation"]),
        )
        .await;
    assert_eq!(lost.is_error, Some(true), "YNAB did not confirm it");
    assert_eq!(state(&h).await, after(), "it landed");
    assert!(
        journal_lines(&h).is_empty(),
        "no operation line: unfinished"
    );
    let intents = std::fs::read_to_string(intents_path(&h)).unwrap_or_default();
    assert!(!intents.contains("Lyon"), "D31: {intents}");
    let op = intents
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find_map(|l| l["intent"]["id"].as_str().map(str::to_string))
        .expect("the intent");

    // Named by its id: what the intent knows in clear goes back; the date and memo, known by
    // digest only, are left alone and named.
    let args = json!({"plan_id": "last-used", "operation_id": op});
    let asked = h.ok("undo_operation", args.clone()).await;
    assert_eq!(asked["status"], "confirmation_required", "{asked}");
    let undone = h
        .ok("undo_operation", with_code(args, &asked["confirmation"]))
        .await;
    assert_eq!(undone["status"], "applied", "{undone}");
    assert_eq!(
        undone["conflicts"],
        json!([
            format!("{} date", id("tx-054")),
            format!("{} memo", id("tx-054"))
        ])
    );
    let (date, category, memo) = state(&h).await;
    assert_eq!(category, None, "put back");
    assert_eq!(
        (date.as_str(), memo.as_deref()),
        ("2026-09-17", Some("Train to Lyon"))
    );
}
