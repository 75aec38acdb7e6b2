//! `create_transactions` through the protocol (`docs/contract/writes.md` §9.2, §14.6; D15, D16,
//! D25, D31): the worked example on its fixture plan with codes, the asking client on the demo
//! plan, the 20-line cap, every validation error with nothing written, the journal and intent that
//! keep no payee, memo or amount, undo deleting what was created; and both transaction tools'
//! annotations (`import_transactions` itself is in `import_tool.rs`).

use crate::common;

use common::ONLY_THE_USER;

use common::{intents_path, lines_of, writes_served};

use common::{Asker, Era, Harness, Options, Reply, id, start_options};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use ynab_sandbox::PlanState;
use ynab_sandbox::builder::{PlanBuilder, Tx, date};
use ynab_sandbox::faults::{Fault, FaultKind};

/// The fixture plan of §14 (D26): Checking; Everyday, Fun, the internal and credit-card groups,
/// and a hidden category.
fn fixture() -> PlanState {
    let mut b = PlanBuilder::new("demo-plan", "Worked examples", date("2026-09-25"));
    b.months(date("2026-09-01"), date("2026-09-01"));
    b.account("acc-checking", "Checking", "checking", true);
    b.internal_group("g-internal", "Internal Master Category");
    b.category("cat-rta", "g-internal", "Inflow: Ready to Assign");
    b.category("cat-uncat", "g-internal", "Uncategorized");
    b.group("g-everyday", "Everyday");
    b.category("cat-groceries", "g-everyday", "Groceries");
    b.category("cat-household", "g-everyday", "Household");
    b.category("cat-old", "g-everyday", "Old").hidden = true;
    b.group("g-cc", "Credit Card Payments");
    b.category("cat-visa", "g-cc", "Visa");
    b.transaction(
        Tx::new(date("2026-09-01"), "acc-checking", "ACME SALARY", 3_000_000)
            .readable_id("tx-001")
            .category("cat-rta"),
    );
    b.build()
}

async fn fixture_harness(asker: Option<Asker>) -> Harness {
    let mut options = Options::new(if asker.is_some() {
        Era::Modern
    } else {
        Era::Legacy
    });
    options.plan = Some(fixture());
    options.asker = asker;
    start_options(options).await
}

fn plan() -> String {
    id("demo-plan")
}

/// The call of §14.6.
fn example() -> Value {
    json!({"plan_id": plan(), "account_id": id("acc-checking"), "transactions": [
        {"date": "2026-09-21", "amount": -32.4, "payee_name": "Pharmacie Centrale", "memo": "not imported by the bank"},
        {"date": "2026-09-23", "amount": -12.5, "payee_name": "Corner Shop", "category_id": id("cat-groceries")}
    ]})
}

const QUESTION_14_6: &str = "Create 2 transaction(s) on Checking?\n- 2026-09-21 Pharmacie Centrale -32.40 (no category)\n- 2026-09-23 Corner Shop -12.50 (Groceries)";

fn code_of(value: &Value) -> String {
    assert_eq!(value["status"], "confirmation_required", "{value}");
    value["confirmation"].as_str().expect("code").to_string()
}

fn with_code(mut args: Value, code: &str) -> Value {
    args["confirmation"] = json!(code);
    args
}

fn sha256_hex(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

async fn transactions(h: &Harness, plan_id: &str) -> Vec<ynab::models::Transaction> {
    h.other_app()
        .transactions(plan_id, &ynab::TransactionFilter::default())
        .await
        .expect("transactions")
        .0
}

// ---- §14.6 with codes ---------------------------------------------------------------------------

#[tokio::test]
async fn example_14_6_create_transactions_with_a_code() {
    let h = fixture_harness(None).await;
    let first = h.ok("create_transactions", example()).await;
    let code = code_of(&first);
    assert_eq!(
        first["message"],
        format!(
            "Nothing changed yet. {ONLY_THE_USER} {QUESTION_14_6} If they agree, call again with this code."
        )
    );
    assert_eq!(first["account"], "Checking");
    assert_eq!(
        first["transactions"],
        json!([
            {"date": "2026-09-21", "amount": -32.4, "payee": "Pharmacie Centrale", "category": null, "memo": "not imported by the bank"},
            {"date": "2026-09-23", "amount": -12.5, "payee": "Corner Shop", "category": "Groceries", "memo": null}
        ])
    );
    assert_eq!(first["created_ids"], json!([]));
    assert_eq!(first["duplicate_import_ids"], json!([]));
    assert_eq!(first["operation_id"], Value::Null);
    assert_eq!(writes_served(&h), 0, "nothing sent before the answer");

    let applied = h
        .ok("create_transactions", with_code(example(), &code))
        .await;
    assert_eq!(applied["status"], "applied", "{applied}");
    let op = applied["operation_id"].as_str().expect("op").to_string();
    assert_eq!(
        applied["message"],
        format!("Created. undo_operation with operation_id {op} deletes them.")
    );
    let created: Vec<String> = serde_json::from_value(applied["created_ids"].clone()).expect("ids");
    assert_eq!(created.len(), 2);
    assert_eq!(applied["confirmation"], Value::Null);

    // The sandbox holds them as sent: cleared, unapproved, payee by name, memo, category.
    let all = transactions(&h, &plan()).await;
    let get = |i: usize| all.iter().find(|t| t.id == created[i]).expect("created");
    let (a, b) = (get(0), get(1));
    assert_eq!(
        (a.account_id.as_str(), a.date.as_str(), a.amount),
        (id("acc-checking").as_str(), "2026-09-21", -32_400)
    );
    assert_eq!(a.payee_name.as_deref(), Some("Pharmacie Centrale"));
    assert_eq!(a.memo.as_deref(), Some("not imported by the bank"));
    assert_eq!(a.category_id, None);
    assert_eq!((b.date.as_str(), b.amount), ("2026-09-23", -12_500));
    assert_eq!(b.payee_name.as_deref(), Some("Corner Shop"));
    assert_eq!(b.memo, None);
    assert_eq!(b.category_id, Some(id("cat-groceries")));
    for t in [a, b] {
        assert_eq!(t.cleared, "cleared");
        assert!(!t.approved);
        assert_eq!(t.import_id, None, "no import_id is ever sent");
    }

    // The journal line: the ids YNAB gave, nothing else.
    let journal = lines_of(&h.journal);
    assert_eq!(journal.len(), 1);
    assert_eq!(journal[0]["operation_id"], op);
    assert_eq!(journal[0]["plan_id"], plan());
    assert_eq!(journal[0]["kind"], "create");
    assert_eq!(journal[0]["moves"], json!([]));
    assert_eq!(journal[0]["details"], json!({"transaction_ids": created}));
    // The intent: the account and a digest of each item's canonical JSON (D31), then settled.
    let intents = lines_of(&intents_path(&h));
    let intent = &intents[0]["intent"];
    assert_eq!(intent["id"], op);
    assert_eq!(intent["kind"], "create");
    let groceries = id("cat-groceries");
    // Salted at random per intent, the salt kept with it (D31): no table of likely items
    // computed in advance matches them.
    let salt = intent["details"]["digest_salt"]
        .as_str()
        .unwrap_or_default();
    assert_eq!(salt.len(), 32, "{intent}");
    assert!(salt.chars().all(|c| c.is_ascii_hexdigit()), "{salt}");
    let digests = [
        r#"{"amount":-32400,"category_id":null,"date":"2026-09-21","memo":"not imported by the bank","payee_name":"Pharmacie Centrale"}"#.to_string(),
        format!(r#"{{"amount":-12500,"category_id":"{groceries}","date":"2026-09-23","memo":null,"payee_name":"Corner Shop"}}"#),
    ]
    .map(|canonical| sha256_hex(&format!(r#"{{"item":{canonical},"salt":"{salt}"}}"#)));
    assert_eq!(intent["details"]["item_digests"], json!(digests));
    assert_eq!(intent["details"]["account_id"], id("acc-checking"));
    assert_eq!(intent["details"]["approved"], false);
    assert_eq!(
        intents[1],
        json!({"settled": op, "outcome": "applied"}),
        "{intents:?}"
    );
    // No payee, memo or amount in clear in either file.
    for path in [h.journal.clone(), intents_path(&h)] {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        for private in [
            "Pharmacie",
            "Corner",
            "not imported",
            "32400",
            "12500",
            "32.4",
            "12.5",
        ] {
            assert!(!text.contains(private), "{private} in {path:?}: {text}");
        }
    }

    // The spent code is refused (E-C1) and nothing more is created.
    let again = h
        .error("create_transactions", with_code(example(), &code))
        .await;
    assert!(
        again.starts_with("This confirmation code is unknown"),
        "{again}"
    );
    assert_eq!(transactions(&h, &plan()).await.len(), 3);
}

#[tokio::test]
async fn the_items_are_an_order_free_list() {
    let h = fixture_harness(None).await;
    let code = code_of(&h.ok("create_transactions", example()).await);
    let mut reversed = example();
    if let Some(list) = reversed["transactions"].as_array_mut() {
        list.reverse();
    }
    let applied = h
        .ok("create_transactions", with_code(reversed, &code))
        .await;
    assert_eq!(applied["status"], "applied", "same items, another order");

    // A code for these items does not confirm other ones.
    let code = code_of(&h.ok("create_transactions", example()).await);
    let mut other = example();
    other["transactions"][0]["amount"] = json!(-32.41);
    let refused = h
        .error("create_transactions", with_code(other, &code))
        .await;
    assert!(
        refused.starts_with("This confirmation code is unknown"),
        "{refused}"
    );
    other = example();
    other["approved"] = json!(true);
    let code = code_of(&h.ok("create_transactions", example()).await);
    assert!(
        h.error("create_transactions", with_code(other, &code))
            .await
            .starts_with("This confirmation code is unknown")
    );
    assert_eq!(
        transactions(&h, &plan()).await.len(),
        3,
        "one creation only"
    );
}

// ---- an asking client, on the demo plan -----------------------------------------------------------

#[tokio::test]
async fn an_asking_client_confirms_on_the_demo_plan() {
    for era in [Era::Modern, Era::Legacy] {
        let asker = Asker::new(Reply::Yes);
        let mut options = Options::new(era);
        options.asker = Some(asker.clone());
        let h = start_options(options).await;
        let args = json!({"plan_id": "last-used", "account_id": id("acc-checking"), "approved": true,
            "transactions": [{"date": "2026-09-25", "amount": 1250.5, "payee_name": "Tax refund",
                              "category_id": id("cat-inflow")},
                             {"date": "2026-09-24", "amount": -4, "payee_name": "Bakery\u{202e}\nRun", "memo": ""}]});
        let applied = h.ok("create_transactions", args).await;
        assert_eq!(applied["status"], "applied", "{era:?}: {applied}");
        assert_eq!(
            asker.questions(),
            [
                "Create 2 transaction(s) on Checking?\n- 2026-09-25 Tax refund 1250.50 (Inflow: Ready to Assign)\n- 2026-09-24 Bakery Run -4.00 (no category)"
            ],
            "{era:?}: one question, names through the display rule"
        );
        let created: Vec<String> =
            serde_json::from_value(applied["created_ids"].clone()).expect("ids");
        let all = transactions(&h, &id("demo-budget")).await;
        let refund = all.iter().find(|t| t.id == created[0]).expect("created");
        assert_eq!(refund.amount, 1_250_500);
        assert!(refund.approved, "approved as asked");
        assert_eq!(refund.category_id, Some(id("cat-inflow")));
        let bakery = all.iter().find(|t| t.id == created[1]).expect("created");
        assert_eq!(
            bakery.payee_name.as_deref(),
            Some("Bakery\u{202e}\nRun"),
            "sent as given"
        );
        assert_eq!(bakery.memo, None, "an empty memo is absent");
        let journal = lines_of(&h.journal);
        assert_eq!(journal[0]["plan_id"], id("demo-budget"), "resolved");
        assert_eq!(journal[0]["details"]["transaction_ids"], json!(created));
    }
}

#[tokio::test]
async fn twenty_lines_then_a_count() {
    let asker = Asker::new(Reply::Decline);
    let h = fixture_harness(Some(asker.clone())).await;
    let items: Vec<Value> = (1..=23)
        .map(|i| json!({"date": format!("2026-09-{i:02}"), "amount": -(i as f64), "payee_name": format!("Shop {i}")}))
        .collect();
    let declined = h
        .ok(
            "create_transactions",
            json!({"plan_id": plan(), "account_id": id("acc-checking"), "transactions": items}),
        )
        .await;
    assert_eq!(declined["status"], "declined");
    assert_eq!(declined["message"], "The user declined: nothing changed.");
    assert_eq!(declined["transactions"].as_array().map(Vec::len), Some(23));
    let mut expected = vec!["Create 23 transaction(s) on Checking?".to_string()];
    expected.extend((1..=20).map(|i| format!("- 2026-09-{i:02} Shop {i} -{i}.00 (no category)")));
    expected.push("- … and 3 more".to_string());
    assert_eq!(asker.questions(), [expected.join("\n")]);
    assert_eq!(writes_served(&h), 0);
}

// ---- validation: nothing asked, nothing sent ------------------------------------------------------

#[tokio::test]
async fn every_validation_error_exactly_with_nothing_written() {
    let asker = Asker::new(Reply::Yes);
    let h = fixture_harness(Some(asker.clone())).await;
    let call = |account: String, items: Value| json!({"plan_id": plan(), "account_id": account, "transactions": items});
    let checking = id("acc-checking");
    let one = |item: Value| call(checking.clone(), json!([item]));
    let fine = json!({"date": "2026-09-20", "amount": -5, "payee_name": "Kiosk"});
    let with = |key: &str, value: Value| {
        let mut item = fine.clone();
        item[key] = value;
        item
    };
    let cases: Vec<(Value, String)> = vec![
        (
            call(id("acc-nowhere"), json!([fine.clone()])),
            format!(
                "Account {} is not in this plan: use an id from list_accounts.",
                id("acc-nowhere")
            ),
        ),
        (
            call(checking.clone(), json!([])),
            "Give at least one transaction to create.".into(),
        ),
        (
            call(
                checking.clone(),
                json!([fine.clone(), with("date", json!("2026-09-26"))]),
            ),
            "2026-09-26 is in the future: YNAB only records transactions that happened.".into(),
        ),
        (
            one(with("category_id", json!(id("cat-elsewhere")))),
            format!(
                "Category {} is not in this plan: use a category_id from get_category_balances.",
                id("cat-elsewhere")
            ),
        ),
        (
            one(with("category_id", json!(id("cat-old")))),
            format!(
                "Category {} is not in this plan: use a category_id from get_category_balances.",
                id("cat-old")
            ),
        ),
        (
            one(with("category_id", json!(id("cat-visa")))),
            format!(
                "Category {} pays a credit card: YNAB ignores it on a transaction. Choose the category of what was paid for.",
                id("cat-visa")
            ),
        ),
        (
            call(
                checking.clone(),
                json!([fine.clone(), with("memo", json!("x".repeat(501)))]),
            ),
            "Argument transactions.1.memo: must have at most 500 characters, got 501.".into(),
        ),
        (
            one(with("memo", json!("cash\u{0}"))),
            "Argument transactions.0.memo: contains a NUL character (U+0000), which YNAB refuses: remove it.".into(),
        ),
        (
            one(with("payee_name", json!("Kio\u{0}sk"))),
            "Argument transactions.0.payee_name: contains a NUL character (U+0000), which YNAB refuses: remove it.".into(),
        ),
        (
            one(with("payee_name", json!(""))),
            "Argument transactions.0.payee_name: must have at least 1 character.".into(),
        ),
        (
            one(with("payee_name", json!("é".repeat(201)))),
            "Argument transactions.0.payee_name: must have at most 200 characters, got 201."
                .into(),
        ),
        (
            one(json!({"date": "2026-09-20", "amount": -5})),
            "Argument transactions.0.payee_name: is required: give the payee's name.".into(),
        ),
        (
            one(json!({"date": "2026-09-20", "amount": -5, "payee": "Kiosk"})),
            "Argument transactions.0.payee: is not accepted here: give only date, amount, payee_name, memo and category_id.".into(),
        ),
        (
            one(with("date", json!("2026-9-20"))),
            "Argument transactions.0.date: must be a date as YYYY-MM-DD, got '2026-9-20'.".into(),
        ),
        (
            one(with("amount", json!(2e9))),
            "Argument transactions.0.amount: must be a number in currency units, at most a billion either way, got 2000000000.0.".into(),
        ),
    ];
    for (args, expected) in cases {
        assert_eq!(h.error("create_transactions", args).await, expected);
    }
    assert!(asker.questions().is_empty(), "nothing asked");
    assert_eq!(writes_served(&h), 0, "nothing sent");
    assert_eq!(transactions(&h, &plan()).await.len(), 1);
    assert!(lines_of(&h.journal).is_empty());
    assert!(lines_of(&intents_path(&h)).is_empty());
}

// ---- undo ----------------------------------------------------------------------------------------

/// §14.6's creation, applied with a code; the ids created.
async fn created(h: &Harness) -> (String, Vec<String>) {
    let code = code_of(&h.ok("create_transactions", example()).await);
    let applied = h
        .ok("create_transactions", with_code(example(), &code))
        .await;
    let op = applied["operation_id"].as_str().expect("op").to_string();
    (
        op,
        serde_json::from_value(applied["created_ids"].clone()).expect("ids"),
    )
}

async fn undo(h: &Harness, op: &str) -> Value {
    let args = json!({"plan_id": plan(), "operation_id": op});
    let preview = h.ok("undo_operation", args.clone()).await;
    if preview["status"] != "confirmation_required" {
        return preview;
    }
    h.ok("undo_operation", with_code(args, &code_of(&preview)))
        .await
}

#[tokio::test]
async fn undo_deletes_what_is_left_and_names_what_is_gone() {
    let h = fixture_harness(None).await;
    let (op, ids) = created(&h).await;
    // The user deletes the second one in YNAB.
    h.other_app()
        .delete_transaction(&plan(), &ids[1])
        .await
        .expect("deleted");
    let args = json!({"plan_id": plan(), "operation_id": op});
    let preview = h.ok("undo_operation", args.clone()).await;
    assert_eq!(
        preview["message"],
        format!(
            "Nothing changed yet. {ONLY_THE_USER} Undo: delete the 1 transaction(s) this operation created? If they agree, call again with this code."
        )
    );
    let done = h
        .ok("undo_operation", with_code(args, &code_of(&preview)))
        .await;
    assert_eq!(done["status"], "applied");
    assert_eq!(done["message"], "Created transactions deleted.");
    assert_eq!(done["conflicts"], json!([ids[1]]));
    assert_eq!(done["operation_id"], Value::Null);
    let live: Vec<String> = transactions(&h, &plan())
        .await
        .into_iter()
        .filter(|t| !t.deleted)
        .map(|t| t.id)
        .collect();
    assert!(ids.iter().all(|i| !live.contains(i)), "both gone");
    let journal = lines_of(&h.journal);
    assert_eq!(journal.last(), Some(&json!({"undone": op})));

    // Both deleted by the user: nothing to undo, both named, nothing written.
    let (op, ids) = created(&h).await;
    for i in &ids {
        h.other_app()
            .delete_transaction(&plan(), i)
            .await
            .expect("deleted");
    }
    let before = writes_served(&h);
    let nothing = undo(&h, &op).await;
    assert_eq!(nothing["status"], "nothing_to_do");
    assert_eq!(nothing["message"], "Already deleted: nothing to undo.");
    assert_eq!(nothing["conflicts"], json!(ids));
    assert_eq!(writes_served(&h), before);
}

#[tokio::test]
async fn an_interrupted_creation_is_recognised_by_digest_and_undone() {
    let h = fixture_harness(None).await;
    let code = code_of(&h.ok("create_transactions", example()).await);
    // YNAB applies the POST, but the answer never comes back.
    h.sandbox.inject(Fault::new(
        1,
        Some("POST /plans/{plan_id}/transactions"),
        FaultKind::ApplyThenDrop,
    ));
    let error = h
        .error("create_transactions", with_code(example(), &code))
        .await;
    assert!(
        error.starts_with("The request reached YNAB but no answer came back"),
        "{error}"
    );
    assert!(lines_of(&h.journal).is_empty(), "no operation line");
    let intents = lines_of(&intents_path(&h));
    assert_eq!(intents.len(), 1, "unfinished: {intents:?}");
    let intent_id = intents[0]["intent"]["id"].as_str().expect("id").to_string();
    let made: Vec<String> = transactions(&h, &plan())
        .await
        .into_iter()
        .filter(|t| t.id != id("tx-001"))
        .map(|t| t.id)
        .collect();
    assert_eq!(made.len(), 2, "YNAB created them");

    let listed = h.error("undo_operation", json!({"plan_id": plan()})).await;
    assert!(
        listed.contains(&format!("{intent_id} (create)")),
        "{listed}"
    );
    let args = json!({"plan_id": plan(), "operation_id": intent_id});
    let preview = h.ok("undo_operation", args.clone()).await;
    assert!(
        preview["message"]
            .as_str()
            .unwrap_or_default()
            .contains("Undo: delete the 2 transaction(s) this operation created?"),
        "{preview}"
    );
    let done = h
        .ok("undo_operation", with_code(args, &code_of(&preview)))
        .await;
    assert_eq!(done["message"], "Created transactions deleted.");
    let live = transactions(&h, &plan()).await;
    assert!(
        made.iter()
            .all(|m| live.iter().all(|t| &t.id != m || t.deleted)),
        "deleted"
    );
    assert!(live.iter().any(|t| t.id == id("tx-001")), "the rest stays");
}

#[tokio::test]
async fn annotations() {
    let h = start_options(Options::new(Era::Legacy)).await;
    let tools = h.client.list_all_tools().await.expect("tools");
    for (name, idempotent) in [
        ("create_transactions", false),
        ("import_transactions", true),
    ] {
        let tool = tools.iter().find(|t| t.name == name).expect(name);
        let a = tool.annotations.as_ref().expect("annotations");
        assert_eq!(a.read_only_hint, Some(false), "{name}");
        assert_eq!(a.destructive_hint, Some(false), "{name}");
        assert_eq!(a.idempotent_hint, Some(idempotent), "{name}");
        assert_eq!(a.open_world_hint, Some(true), "{name}");
    }
}
