//! `rename_payee` and `flag_transactions` through the protocol on the demo plan: a code for a
//! client that cannot ask, a question for one that can, the exact questions, the sandbox's state
//! after each step, nothing to do, every validation error with nothing written, the journal line,
//! and `undo_operation` putting things back while leaving a later change alone.

use crate::common;

use common::{E_C4, ONLY_THE_USER, journal_lines, with_code};

use common::intents_path;

use common::{Asker, Era, Harness, Options, Reply, id, start_options};
use serde_json::{Value, json};
use std::sync::Arc;

const RENAME_QUESTION: &str = "Rename payee ‘RAIL CO’ to ‘Rail company’? 4 transaction(s) name it.";

fn plan() -> String {
    id("demo-budget")
}

async fn harness(era: Era, asker: Option<Asker>) -> Harness {
    let mut options = Options::new(era);
    options.asker = asker;
    start_options(options).await
}

/// Nothing was journaled, not even an intent: nothing was sent to be written.
fn nothing_journaled(h: &Harness) {
    assert!(journal_lines(h).is_empty(), "no operation line");
    assert!(!intents_path(h).exists(), "no intent either");
}

/// The operation id of an applied result, checked against its message.
fn applied(value: &Value, message: impl Fn(&str) -> String) -> String {
    assert_eq!(value["status"], "applied", "{value}");
    let op = value["operation_id"]
        .as_str()
        .expect("an operation id")
        .to_string();
    assert_eq!(op.len(), 12);
    assert_eq!(value["message"], message(&op));
    assert_eq!(value["confirmation"], Value::Null);
    op
}

/// Preview with a code, then undo with it: the applied undo.
async fn undo(h: &Harness, operation_id: &str) -> Value {
    let args = json!({"plan_id": "last-used", "operation_id": operation_id});
    let preview = h.ok("undo_operation", args.clone()).await;
    assert_eq!(preview["status"], "confirmation_required", "{preview}");
    h.ok("undo_operation", with_code(args, &preview["confirmation"]))
        .await
}

// ---- rename_payee --------------------------------------------------------------------------

fn rename(name: &str) -> Value {
    json!({"plan_id": "last-used", "payee_id": id("pay-rail-co"), "name": name})
}

async fn payee_name(h: &Harness, readable: &str) -> String {
    h.other_app()
        .payees(&plan())
        .await
        .expect("payees")
        .into_iter()
        .find(|p| p.id == id(readable))
        .map(|p| p.name.to_string())
        .expect("the payee")
}

fn renamed(op: &str) -> String {
    format!("Renamed. undo_operation with operation_id {op} puts the old name back.")
}

#[tokio::test]
async fn a_rename_without_elicitation_takes_a_code() {
    for era in [Era::Modern, Era::Legacy] {
        let h = harness(era, None).await;
        let preview = h.ok("rename_payee", rename("  Rail company ")).await;
        assert_eq!(preview["status"], "confirmation_required", "{era:?}");
        assert_eq!(
            preview["message"],
            format!(
                "Nothing changed yet. {ONLY_THE_USER} {RENAME_QUESTION} If they agree, call again with this code."
            )
        );
        assert_eq!(preview["payee_id"], id("pay-rail-co"));
        assert_eq!(preview["from_name"], "RAIL CO");
        assert_eq!(preview["to_name"], "Rail company");
        assert_eq!(preview["transactions"], 4);
        assert_eq!(preview["operation_id"], Value::Null);
        assert_eq!(payee_name(&h, "pay-rail-co").await, "RAIL CO", "not yet");
        nothing_journaled(&h);

        let done = h
            .ok(
                "rename_payee",
                with_code(rename("  Rail company "), &preview["confirmation"]),
            )
            .await;
        let op = applied(&done, renamed);
        assert_eq!(done["to_name"], "Rail company");
        assert_eq!(payee_name(&h, "pay-rail-co").await, "Rail company");
        let lines = journal_lines(&h);
        assert_eq!(lines.len(), 1, "{lines:?}");
        let line = &lines[0];
        assert_eq!(line["operation_id"], op);
        assert_eq!(line["plan_id"], plan(), "resolved, never last-used");
        assert_eq!(line["kind"], "payee");
        assert_eq!(line["moves"], json!([]));
        assert_eq!(
            line["details"],
            json!({"payee_id": id("pay-rail-co"), "from": "RAIL CO", "to": "Rail company"})
        );
        let intents = std::fs::read_to_string(intents_path(&h)).unwrap_or_default();
        assert!(
            intents.contains(&format!("{{\"outcome\":\"applied\",\"settled\":\"{op}\"}}")),
            "{intents}"
        );
    }
}

#[tokio::test]
async fn a_rename_is_asked_in_the_client() {
    for era in [Era::Modern, Era::Legacy] {
        let asker = Asker::new(Reply::Yes);
        let h = harness(era, Some(asker.clone())).await;
        let done = h.ok("rename_payee", rename("Rail company")).await;
        applied(&done, renamed);
        assert_eq!(asker.questions(), [RENAME_QUESTION], "{era:?}");
        assert_eq!(payee_name(&h, "pay-rail-co").await, "Rail company");
        assert_eq!(journal_lines(&h).len(), 1);
    }
}

#[tokio::test]
async fn a_change_of_case_is_a_rename_and_the_same_name_is_nothing_to_do() {
    let asker = Asker::new(Reply::Yes);
    let h = harness(Era::Modern, Some(asker.clone())).await;
    let same = h.ok("rename_payee", rename(" RAIL CO ")).await;
    assert_eq!(same["status"], "nothing_to_do");
    assert_eq!(
        same["message"],
        "Nothing to change: the payee is already called that."
    );
    assert_eq!(same["from_name"], "RAIL CO");
    assert_eq!(same["operation_id"], Value::Null);
    assert!(asker.questions().is_empty(), "nothing asked");
    nothing_journaled(&h);

    let done = h.ok("rename_payee", rename("Rail Co")).await;
    applied(&done, renamed);
    assert_eq!(
        asker.questions(),
        ["Rename payee ‘RAIL CO’ to ‘Rail Co’? 4 transaction(s) name it."]
    );
    assert_eq!(payee_name(&h, "pay-rail-co").await, "Rail Co");
}

#[tokio::test]
async fn a_rename_refused_writes_nothing() {
    let h = harness(Era::Legacy, None).await;
    let transfer = id("pay-transfer-savings");
    let cases = [
        (
            json!({"plan_id": "last-used", "payee_id": transfer, "name": "Savings"}),
            format!(
                "Payee {transfer} is a transfer's: YNAB names it after the account the money moves to. Rename the account in YNAB itself."
            ),
        ),
        (
            json!({"plan_id": "last-used", "payee_id": "nope", "name": "Shop"}),
            "Payee nope is not in this plan: use a payee_id from list_payees.".to_string(),
        ),
        (
            rename(" \t "),
            "The new name is empty: give the merchant's name.".to_string(),
        ),
        (
            rename("Rail\u{200b}Co"),
            "'RailCo' contains a line break, control or format character (such as a zero-width or direction mark): give the name on one line, with visible characters only.".to_string(),
        ),
        (
            rename("Rail\nCo"),
            "'Rail Co' contains a line break, control or format character (such as a zero-width or direction mark): give the name on one line, with visible characters only.".to_string(),
        ),
        (
            rename(" streamflix "),
            "'streamflix' is already the name of another payee: YNAB's API cannot merge two payees. Merge them in YNAB, or choose another name.".to_string(),
        ),
        (
            rename("transfer : SAVINGS"),
            "'transfer : SAVINGS' is already the name of another payee: YNAB's API cannot merge two payees. Merge them in YNAB, or choose another name.".to_string(),
        ),
        (
            rename(&"x".repeat(501)),
            "Argument name: must be 1 to 500 characters long, got 501.".to_string(),
        ),
        (
            rename("Rail\u{0}Co"),
            "Argument name: contains a NUL character (U+0000), which YNAB refuses: remove it"
                .to_string(),
        ),
        (
            json!({"plan_id": "last-used", "payee_id": id("pay-rail-co")}),
            "Argument name: is required: give the payee's new name.".to_string(),
        ),
    ];
    for (args, message) in cases {
        assert_eq!(
            h.error("rename_payee", args.clone()).await,
            message,
            "{args}"
        );
    }
    assert_eq!(payee_name(&h, "pay-rail-co").await, "RAIL CO");
    assert_eq!(
        payee_name(&h, "pay-transfer-savings").await,
        "Transfer : Savings"
    );
    nothing_journaled(&h);
}

#[tokio::test]
async fn a_rename_made_elsewhere_while_asking_is_refused() {
    for era in [Era::Modern, Era::Legacy] {
        let asker = Asker::new(Reply::Yes);
        let h = harness(era, Some(asker.clone())).await;
        let other = Arc::new(h.other_app());
        asker.meddle_with(Arc::new(move || {
            let other = other.clone();
            Box::pin(async move {
                let _ = other
                    .rename_payee(&id("demo-budget"), &id("pay-rail-co"), "RAIL CO.")
                    .await;
            })
        }));
        assert_eq!(h.error("rename_payee", rename("Rail company")).await, E_C4);
        assert_eq!(payee_name(&h, "pay-rail-co").await, "RAIL CO.", "{era:?}");
        nothing_journaled(&h);
    }
}

#[tokio::test]
async fn undo_puts_the_old_name_back() {
    let asker = Asker::new(Reply::Yes);
    let h = harness(Era::Legacy, Some(asker)).await;
    let h_code = harness(Era::Legacy, None).await;
    let done = h.ok("rename_payee", rename("Rail company")).await;
    let op = applied(&done, renamed);
    // through a client that answers, then through codes
    let undone = h
        .ok(
            "undo_operation",
            json!({"plan_id": "last-used", "operation_id": op}),
        )
        .await;
    assert_eq!(undone["status"], "applied", "{undone}");
    assert_eq!(undone["message"], "The payee's previous name is back.");
    assert_eq!(undone["operation_id"], Value::Null);
    assert_eq!(undone["conflicts"], json!([]));
    assert_eq!(payee_name(&h, "pay-rail-co").await, "RAIL CO");
    let lines = journal_lines(&h);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(lines[1], json!({"undone": op}));

    let done = h_code.ok("rename_payee", rename("Rail company")).await;
    let code = done["confirmation"].clone();
    let done = h_code
        .ok("rename_payee", with_code(rename("Rail company"), &code))
        .await;
    let op = applied(&done, renamed);
    let args = json!({"plan_id": "last-used"});
    let preview = h_code.ok("undo_operation", args.clone()).await;
    assert_eq!(
        preview["message"],
        format!(
            "Nothing changed yet. {ONLY_THE_USER} Undo: name the payee ‘RAIL CO’ again? If they agree, call again with this code."
        )
    );
    let undone = undo(&h_code, &op).await;
    assert_eq!(undone["message"], "The payee's previous name is back.");
    assert_eq!(payee_name(&h_code, "pay-rail-co").await, "RAIL CO");
}

#[tokio::test]
async fn undo_leaves_a_later_rename_alone() {
    let h = harness(Era::Modern, Some(Asker::new(Reply::Yes))).await;
    let done = h.ok("rename_payee", rename("Rail company")).await;
    let op = applied(&done, renamed);
    h.other_app()
        .rename_payee(&plan(), &id("pay-rail-co"), "RAIL COMPANY")
        .await
        .expect("the user renames it again in YNAB");
    let undone = h
        .ok(
            "undo_operation",
            json!({"plan_id": "last-used", "operation_id": op}),
        )
        .await;
    assert_eq!(undone["status"], "nothing_to_do", "{undone}");
    assert_eq!(
        undone["message"],
        "The payee was renamed since: left alone."
    );
    assert_eq!(undone["conflicts"], json!([id("pay-rail-co")]));
    assert_eq!(payee_name(&h, "pay-rail-co").await, "RAIL COMPANY");
    assert_eq!(journal_lines(&h).len(), 1, "no undo marker");
}

// ---- flag_transactions ---------------------------------------------------------------------

fn flags(list: Value) -> Value {
    json!({"plan_id": "last-used", "flags": list})
}

/// tx-054 (RAIL CO, 2026-09-18) red, tx-008 (RAIL CO, 2026-06-18) blue, tx-023 (no flag) none.
fn three_flags() -> Value {
    flags(json!([
        {"transaction_id": id("tx-054"), "color": "red"},
        {"transaction_id": id("tx-008"), "color": "blue"},
        {"transaction_id": id("tx-023")}
    ]))
}

const FLAG_QUESTION: &str = "Change the flag of 2 transaction(s)?\n- 2026-09-18 RAIL CO -45.00: none → red\n- 2026-06-18 RAIL CO -45.00: none → blue";

async fn flag_of(h: &Harness, readable: &str) -> Option<String> {
    h.other_app()
        .transactions(&plan(), &ynab::TransactionFilter::default())
        .await
        .expect("transactions")
        .0
        .into_iter()
        .find(|t| t.id == id(readable))
        .and_then(|t| t.flag_color)
        .filter(|c| !c.is_empty())
}

async fn set_flag(h: &Harness, readable: &str, colour: Option<&str>) {
    h.other_app()
        .update_transactions(
            &plan(),
            &[ynab::writes::TransactionUpdate {
                id: id(readable),
                flag_color: Some(colour.map(str::to_string)),
                ..Default::default()
            }],
        )
        .await
        .expect("another app flags it");
}

fn flagged(op: &str) -> String {
    format!("Flagged. undo_operation with operation_id {op} puts them back.")
}

#[tokio::test]
async fn flags_without_elicitation_take_a_code() {
    for era in [Era::Modern, Era::Legacy] {
        let h = harness(era, None).await;
        let preview = h.ok("flag_transactions", three_flags()).await;
        assert_eq!(preview["status"], "confirmation_required", "{era:?}");
        assert_eq!(
            preview["message"],
            format!(
                "Nothing changed yet. {ONLY_THE_USER} {FLAG_QUESTION} If they agree, call again with this code."
            )
        );
        assert_eq!(preview["unchanged_count"], 1);
        assert_eq!(
            preview["changes"],
            json!([
                {"transaction_id": id("tx-054"), "date": "2026-09-18", "payee": "RAIL CO",
                 "amount": -45.0, "from_color": null, "to_color": "red"},
                {"transaction_id": id("tx-008"), "date": "2026-06-18", "payee": "RAIL CO",
                 "amount": -45.0, "from_color": null, "to_color": "blue"}
            ])
        );
        assert_eq!(flag_of(&h, "tx-054").await, None, "not yet");
        nothing_journaled(&h);

        let done = h
            .ok(
                "flag_transactions",
                with_code(three_flags(), &preview["confirmation"]),
            )
            .await;
        let op = applied(&done, flagged);
        assert_eq!(flag_of(&h, "tx-054").await.as_deref(), Some("red"));
        assert_eq!(flag_of(&h, "tx-008").await.as_deref(), Some("blue"));
        assert_eq!(flag_of(&h, "tx-023").await, None);
        let lines = journal_lines(&h);
        assert_eq!(lines.len(), 1, "{lines:?}");
        let line = &lines[0];
        assert_eq!(line["operation_id"], op);
        assert_eq!(line["plan_id"], plan());
        assert_eq!(line["kind"], "flag");
        assert_eq!(line["moves"], json!([]));
        assert_eq!(
            line["details"],
            json!({"changes": [
                {"transaction_id": id("tx-054"), "from": null, "to": "red"},
                {"transaction_id": id("tx-008"), "from": null, "to": "blue"}]})
        );

        // asked again: every flag is already so
        let again = h.ok("flag_transactions", three_flags()).await;
        assert_eq!(again["status"], "nothing_to_do");
        assert_eq!(again["message"], "Every flag is already as asked.");
        assert_eq!(again["changes"], json!([]));
        assert_eq!(again["unchanged_count"], 3);
        assert_eq!(journal_lines(&h).len(), 1);
    }
}

#[tokio::test]
async fn flags_are_asked_in_the_client() {
    for era in [Era::Modern, Era::Legacy] {
        let asker = Asker::new(Reply::Yes);
        let h = harness(era, Some(asker.clone())).await;
        set_flag(&h, "tx-038", Some("green")).await;
        let args = flags(json!([
            {"transaction_id": id("tx-054"), "color": "red"},
            {"transaction_id": id("tx-008"), "color": "blue"},
            {"transaction_id": id("tx-038"), "color": null}
        ]));
        let done = h.ok("flag_transactions", args).await;
        applied(&done, flagged);
        assert_eq!(
            asker.questions(),
            [
                "Change the flag of 3 transaction(s)?\n- 2026-09-18 RAIL CO -45.00: none → red\n- 2026-06-18 RAIL CO -45.00: none → blue\n- 2026-08-18 RAIL CO -45.00: green → none"
            ],
            "{era:?}"
        );
        assert_eq!(flag_of(&h, "tx-054").await.as_deref(), Some("red"));
        assert_eq!(flag_of(&h, "tx-008").await.as_deref(), Some("blue"));
        assert_eq!(flag_of(&h, "tx-038").await, None, "removed");
    }
}

#[tokio::test]
async fn a_long_flag_question_shows_twenty_lines_then_a_count() {
    let asker = Asker::new(Reply::Decline);
    let h = harness(Era::Modern, Some(asker.clone())).await;
    let list: Vec<Value> = (0..23)
        .map(|i| json!({"transaction_id": id(&format!("tx-{i:03}")), "color": "yellow"}))
        .collect();
    let value = h.ok("flag_transactions", flags(Value::Array(list))).await;
    assert_eq!(value["status"], "declined");
    assert_eq!(value["message"], "The user declined: nothing changed.");
    assert_eq!(value["changes"].as_array().map(Vec::len), Some(23));
    let questions = asker.questions();
    let lines: Vec<&str> = questions[0].lines().collect();
    assert_eq!(lines.len(), 22);
    assert_eq!(lines[0], "Change the flag of 23 transaction(s)?");
    assert_eq!(
        lines[1],
        "- 2026-06-03 LANDLORD SARL -950.00: none → yellow"
    );
    assert_eq!(lines[21], "- … and 3 more");
    assert_eq!(flag_of(&h, "tx-000").await, None);
    nothing_journaled(&h);
}

#[tokio::test]
async fn flags_refused_write_nothing() {
    let h = harness(Era::Legacy, None).await;
    let (a, b) = (id("tx-054"), id("tx-008"));
    let mut twice = [a.clone(), b.clone()];
    twice.sort();
    // the checks that need no plan data send no request at all
    let served = h.served();
    assert_eq!(
        h.error("flag_transactions", flags(json!([]))).await,
        "Give at least one flag."
    );
    assert_eq!(
        h.error(
            "flag_transactions",
            flags(json!([
                {"transaction_id": b, "color": "red"},
                {"transaction_id": a, "color": "red"},
                {"transaction_id": id("tx-023")},
                {"transaction_id": a},
                {"transaction_id": b, "color": "blue"}
            ]))
        )
        .await,
        format!(
            "Transaction {}, {} is named twice: give one flag each.",
            twice[0], twice[1]
        )
    );
    assert_eq!(h.served(), served, "nothing sent to YNAB");

    // a deleted transaction is not in the plan any more
    h.other_app()
        .delete_transaction(&plan(), &id("tx-055"))
        .await
        .expect("deleted elsewhere");
    assert_eq!(
        h.error(
            "flag_transactions",
            flags(json!([
                {"transaction_id": "nope-1", "color": "red"},
                {"transaction_id": a, "color": "red"},
                {"transaction_id": id("tx-055"), "color": "red"}
            ]))
        )
        .await,
        format!(
            "Transaction nope-1, {} is not in this plan: use a transaction_id from find_transactions.",
            id("tx-055")
        )
    );
    let colour = h
        .error(
            "flag_transactions",
            flags(json!([{"transaction_id": a, "color": "pink"}])),
        )
        .await;
    assert!(colour.starts_with("Argument flags.0.color: "), "{colour}");
    assert!(
        colour.contains("'red', 'orange', 'yellow', 'green', 'blue' or 'purple'"),
        "{colour}"
    );
    assert_eq!(
        h.error(
            "flag_transactions",
            flags(json!([{"transaction_id": a, "colour": "red"}]))
        )
        .await,
        "Argument flags.0.colour: is not accepted here: give only transaction_id and color."
    );
    assert_eq!(
        h.error("flag_transactions", flags(json!([{"color": "red"}])))
            .await,
        "Argument flags.0.transaction_id: is required: give a transaction id from find_transactions."
    );
    assert_eq!(
        h.error("flag_transactions", json!({"plan_id": "last-used"}))
            .await,
        "Argument flags: is required: give a list of {transaction_id, color}."
    );
    assert_eq!(flag_of(&h, "tx-054").await, None);
    assert_eq!(flag_of(&h, "tx-008").await, None);
    nothing_journaled(&h);
}

#[tokio::test]
async fn undo_puts_flags_back_and_leaves_a_later_one_alone() {
    let h = harness(Era::Legacy, None).await;
    set_flag(&h, "tx-038", Some("green")).await;
    let args = flags(json!([
        {"transaction_id": id("tx-054"), "color": "red"},
        {"transaction_id": id("tx-008"), "color": "blue"},
        {"transaction_id": id("tx-038")}
    ]));
    let preview = h.ok("flag_transactions", args.clone()).await;
    let done = h
        .ok(
            "flag_transactions",
            with_code(args, &preview["confirmation"]),
        )
        .await;
    let op = applied(&done, flagged);
    // the user re-flags one in YNAB
    set_flag(&h, "tx-008", Some("purple")).await;

    let args = json!({"plan_id": "last-used", "operation_id": op});
    let preview = h.ok("undo_operation", args.clone()).await;
    assert_eq!(
        preview["message"],
        format!(
            "Nothing changed yet. {ONLY_THE_USER} Undo: put back the flag of 2 transaction(s)? If they agree, call again with this code."
        )
    );
    assert_eq!(preview["conflicts"], json!([id("tx-008")]));
    let undone = undo(&h, &op).await;
    assert_eq!(undone["status"], "applied", "{undone}");
    assert_eq!(undone["message"], "Flags restored.");
    assert_eq!(undone["conflicts"], json!([id("tx-008")]));
    assert_eq!(flag_of(&h, "tx-054").await, None, "put back");
    assert_eq!(
        flag_of(&h, "tx-038").await.as_deref(),
        Some("green"),
        "put back"
    );
    assert_eq!(
        flag_of(&h, "tx-008").await.as_deref(),
        Some("purple"),
        "left alone"
    );
    let lines = journal_lines(&h);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(lines[1], json!({"undone": op}));

    // undone once: the operation is no longer in effect
    assert_eq!(
        h.error(
            "undo_operation",
            json!({"plan_id": "last-used", "operation_id": op})
        )
        .await,
        format!("Nothing to undo: no operation of this plan is still in effect with id {op}.")
    );
}

#[tokio::test]
async fn flags_changed_since_on_every_transaction_are_left_alone() {
    let h = harness(Era::Modern, Some(Asker::new(Reply::Yes))).await;
    let done = h.ok("flag_transactions", three_flags()).await;
    let op = applied(&done, flagged);
    set_flag(&h, "tx-054", None).await;
    set_flag(&h, "tx-008", Some("red")).await;
    let undone = h
        .ok(
            "undo_operation",
            json!({"plan_id": "last-used", "operation_id": op}),
        )
        .await;
    assert_eq!(undone["status"], "nothing_to_do", "{undone}");
    assert_eq!(undone["message"], "Every flag changed since: left alone.");
    assert_eq!(undone["conflicts"], json!([id("tx-054"), id("tx-008")]));
    assert_eq!(flag_of(&h, "tx-008").await.as_deref(), Some("red"));
    assert_eq!(journal_lines(&h).len(), 1);
}
