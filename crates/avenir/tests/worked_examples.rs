//! The worked examples of `docs/contract/writes.md` §14.1–14.3, on their own fixture plan
//! (`demo-plan`, D26), through the protocol with a client that cannot ask (so every preview comes
//! with a code), and with an asking client where the question's text is the point.

use crate::common;

use common::ONLY_THE_USER;

use common::{Asker, Era, Harness, Options, Reply, id, start_options};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use ynab_sandbox::PlanState;
use ynab_sandbox::builder::{PlanBuilder, Tx, date};

/// The fixture plan of §14: Checking; Everyday, Fun, the internal and credit-card groups;
/// September 2026 with Restaurants overspent (120.00 assigned, 142.50 spent) and Tennis 80.00.
fn fixture() -> PlanState {
    let mut b = PlanBuilder::new("demo-plan", "Worked examples", date("2026-09-25"));
    b.months(date("2026-09-01"), date("2026-09-01"));
    b.account("acc-checking", "Checking", "checking", true);
    b.internal_group("g-internal", "Internal Master Category");
    b.category("cat-rta", "g-internal", "Inflow: Ready to Assign");
    b.category("cat-uncat", "g-internal", "Uncategorized");
    b.group("g-everyday", "Everyday");
    for (cat, name) in [
        ("cat-groceries", "Groceries"),
        ("cat-restaurants", "Restaurants"),
        ("cat-transport", "Transport"),
        ("cat-household", "Household"),
    ] {
        b.category(cat, "g-everyday", name);
    }
    b.group("g-fun", "Fun");
    b.category("cat-tennis", "g-fun", "Tennis");
    b.group("g-cc", "Credit Card Payments");
    b.category("cat-visa", "g-cc", "Visa");
    b.assign("2026-09-01", "cat-restaurants", 120_000);
    b.assign("2026-09-01", "cat-tennis", 80_000);
    b.transaction(
        Tx::new(date("2026-09-01"), "acc-checking", "ACME SALARY", 3_000_000)
            .readable_id("tx-001")
            .category("cat-rta"),
    );
    b.transaction(
        Tx::new(date("2026-09-10"), "acc-checking", "SUSHI GO", -142_500)
            .readable_id("tx-002")
            .category("cat-restaurants"),
    );
    b.transaction(
        Tx::new(
            date("2026-09-16"),
            "acc-checking",
            "CB BOULANGERIE DU PORT FACT 160926 525130******1",
            -8_400,
        )
        .readable_id("tx-048"),
    );
    b.transaction(
        Tx::new(date("2026-09-18"), "acc-checking", "RAIL CO", -45_000).readable_id("tx-049"),
    );
    b.transaction(
        Tx::new(date("2026-09-19"), "acc-checking", "SUPERMARKT", -23_100)
            .readable_id("tx-050")
            .category("cat-groceries"),
    );
    b.build()
}

async fn harness(asker: Option<Asker>) -> Harness {
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

async fn ok(h: &Harness, tool: &'static str, args: Value) -> Value {
    h.ok(tool, args).await
}

fn code_of(value: &Value) -> String {
    assert_eq!(value["status"], "confirmation_required", "{value}");
    value["confirmation"].as_str().expect("code").to_string()
}

fn with_code(mut args: Value, code: &str) -> Value {
    args["confirmation"] = json!(code);
    args
}

fn journal(h: &Harness) -> Vec<Value> {
    std::fs::read_to_string(&h.journal)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

fn sha256_hex(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

async fn category_of(h: &Harness, tx: &str) -> Option<String> {
    let (list, _) = h
        .other_app()
        .transactions(&plan(), &ynab::TransactionFilter::default())
        .await
        .expect("transactions");
    list.into_iter()
        .find(|t| t.id == id(tx))
        .and_then(|t| t.category_id)
}

async fn assigned(h: &Harness, cat: &str) -> i64 {
    let month = h
        .other_app()
        .month(&plan(), "2026-09-01")
        .await
        .expect("month");
    month
        .categories
        .unwrap_or_default()
        .into_iter()
        .find(|c| c.id == id(cat))
        .map(|c| c.budgeted)
        .expect("category")
}

// ---- 14.1 apply_categories ---------------------------------------------------------------------

fn assignments() -> Value {
    json!({"plan_id": plan(), "assignments": [
        {"transaction_id": id("tx-048"), "category_id": id("cat-groceries")},
        {"transaction_id": id("tx-049"), "category_id": id("cat-transport")},
        {"transaction_id": id("tx-050"), "category_id": id("cat-groceries")}
    ]})
}

#[tokio::test]
async fn example_14_1_apply_categories_and_its_undo() {
    let h = harness(None).await;
    let first = ok(&h, "apply_categories", assignments()).await;
    let code = code_of(&first);
    assert_eq!(
        first["message"],
        format!(
            "Nothing changed yet. {ONLY_THE_USER} Once they agree, call again with the same arguments and this confirmation code (valid 10 minutes)."
        )
    );
    assert_eq!(first["unchanged_count"], 1);
    assert_eq!(first["conflicts"], json!([]));
    assert_eq!(first["operation_id"], Value::Null);
    let changes = first["changes"].as_array().expect("changes");
    assert_eq!(changes.len(), 2);
    assert_eq!(changes[0]["amount"], json!(-8.4));
    assert_eq!(changes[1]["amount"], json!(-45.0));
    assert_eq!(changes[0]["from_category"], Value::Null);
    assert_eq!(changes[0]["to_category"], "Groceries");
    assert_eq!(changes[1]["to_category"], "Transport");
    assert_eq!(category_of(&h, "tx-048").await, None, "no write yet");

    let applied = ok(&h, "apply_categories", with_code(assignments(), &code)).await;
    assert_eq!(applied["status"], "applied");
    let op = applied["operation_id"].as_str().expect("op").to_string();
    assert_eq!(
        applied["message"],
        format!("Applied. undo_operation with operation_id {op} reverts it.")
    );
    assert_eq!(category_of(&h, "tx-048").await, Some(id("cat-groceries")));
    assert_eq!(category_of(&h, "tx-049").await, Some(id("cat-transport")));
    let lines = journal(&h);
    assert_eq!(lines[0]["kind"], "categorize");
    assert_eq!(
        lines[0]["moves"],
        json!([
            {"transaction_id": id("tx-048"), "from_category_id": null, "to_category_id": id("cat-groceries")},
            {"transaction_id": id("tx-049"), "from_category_id": null, "to_category_id": id("cat-transport")}
        ])
    );
    assert_eq!(lines[0]["details"], json!({}));
    // The same call again finds nothing to change: the pipeline returns nothing_to_do before a
    // code is looked at (§4.1 step 5, §4.5), so the spent code is not even consulted.
    let again = ok(&h, "apply_categories", with_code(assignments(), &code)).await;
    assert_eq!(again["status"], "nothing_to_do");
    assert_eq!(again["unchanged_count"], 3);

    // Undo after the user moved tx-049 to Restaurants in YNAB.
    h.other_app()
        .update_transactions(
            &plan(),
            &[ynab::writes::TransactionUpdate {
                id: id("tx-049"),
                category_id: Some(Some(id("cat-restaurants"))),
                ..Default::default()
            }],
        )
        .await
        .expect("the user recategorises in YNAB");
    let undo = ok(&h, "undo_operation", json!({"plan_id": plan()})).await;
    let code = code_of(&undo);
    assert_eq!(undo["conflicts"], json!([id("tx-049")]));
    let undone = ok(
        &h,
        "undo_operation",
        json!({"plan_id": plan(), "confirmation": code}),
    )
    .await;
    assert_eq!(undone["status"], "applied");
    assert_eq!(undone["message"], "Previous categories restored.");
    assert_eq!(undone["operation_id"], Value::Null, "F1");
    assert_eq!(undone["conflicts"], json!([id("tx-049")]));
    assert_eq!(undone["changes"][0]["transaction_id"], id("tx-048"));
    assert_eq!(category_of(&h, "tx-048").await, None, "reverted");
    assert_eq!(
        category_of(&h, "tx-049").await,
        Some(id("cat-restaurants")),
        "left alone"
    );
    let lines = journal(&h);
    assert_eq!(lines.len(), 4, "{lines:?}");
    let reverse = lines[1]["operation_id"]
        .as_str()
        .expect("reverse op")
        .to_string();
    assert_eq!(lines[1]["kind"], "categorize");
    assert_eq!(
        lines[1]["moves"],
        json!([{"transaction_id": id("tx-048"), "from_category_id": id("cat-groceries"), "to_category_id": null}])
    );
    assert_eq!(lines[2], json!({"undone": op}));
    assert_eq!(lines[3], json!({"undone": reverse}));
    // an undo cannot be undone
    assert_eq!(
        h.error(
            "undo_operation",
            json!({"plan_id": plan(), "operation_id": reverse})
        )
        .await,
        format!("Nothing to undo: no operation of this plan is still in effect with id {reverse}.")
    );
}

#[tokio::test]
async fn example_14_1_question_and_subject() {
    let asker = Asker::new(Reply::Decline);
    let h = harness(Some(asker.clone())).await;
    ok(&h, "apply_categories", assignments()).await;
    assert_eq!(
        asker.questions(),
        [
            "Recategorise 2 transaction(s)?\n- 2026-09-16 CB BOULANGERIE DU PORT FACT 160926 525130******1 -8.40: no category → Groceries\n- 2026-09-18 RAIL CO -45.00: no category → Transport"
        ]
    );
    // D15's subject, recomputed by hand: an order-free list, canonical JSON, SHA-256.
    let subject = avenir::tools::apply_categories::subject(&[
        change("tx-049", None, "cat-transport"),
        change("tx-048", None, "cat-groceries"),
    ]);
    let mut entries = [
        format!(
            "{{\"category_after\":\"{}\",\"category_before\":null,\"transaction_id\":\"{}\"}}",
            id("cat-groceries"),
            id("tx-048")
        ),
        format!(
            "{{\"category_after\":\"{}\",\"category_before\":null,\"transaction_id\":\"{}\"}}",
            id("cat-transport"),
            id("tx-049")
        ),
    ];
    entries.sort();
    let payload = format!("[\"{}\",[{}]]", plan(), entries.join(","));
    assert_eq!(
        avenir::confirm::fingerprint::fingerprint(&plan(), &subject),
        sha256_hex(&payload)
    );
}

fn change(
    tx: &str,
    from: Option<&str>,
    to: &str,
) -> avenir::tools::apply_categories::Recategorised {
    avenir::tools::apply_categories::Recategorised {
        transaction_id: id(tx),
        date: String::new(),
        amount: 0,
        payee: String::new(),
        from_category_id: from.map(id),
        from_category: None,
        to_category_id: Some(id(to)),
        to_category: None,
    }
}

// ---- 14.2 set_category_budget ------------------------------------------------------------------

fn budget(amount: f64) -> Value {
    json!({"plan_id": plan(), "month": "current", "category_id": id("cat-restaurants"), "amount": amount})
}

#[tokio::test]
async fn example_14_2_set_category_budget_and_its_undo() {
    let h = harness(None).await;
    let first = ok(&h, "set_category_budget", budget(150.0)).await;
    let code = code_of(&first);
    assert_eq!(
        first["message"],
        format!(
            "Nothing changed yet. {ONLY_THE_USER} Budget Restaurants for 2026-09-01: 120.00 → 150.00 (available -22.50 → +7.50)? If they agree, call again with this code."
        )
    );
    assert_eq!(first["category"], "Restaurants");
    assert_eq!(first["month"], "2026-09-01");
    assert_eq!(first["from_amount"], json!(120.0));
    assert_eq!(first["to_amount"], json!(150.0));
    assert_eq!(first["available_before"], json!(-22.5));
    assert_eq!(first["available_after"], json!(7.5));
    assert_eq!(first["operation_id"], Value::Null);
    let applied = ok(&h, "set_category_budget", with_code(budget(150.0), &code)).await;
    let op = applied["operation_id"].as_str().expect("op").to_string();
    assert_eq!(
        applied["message"],
        format!("Applied. undo_operation with operation_id {op} reverts it.")
    );
    assert_eq!(assigned(&h, "cat-restaurants").await, 150_000);
    let lines = journal(&h);
    assert_eq!(
        lines[0]["details"],
        json!({"month": "2026-09-01", "category_id": id("cat-restaurants"), "from": 120000, "to": 150000})
    );
    let again = ok(&h, "set_category_budget", budget(150.0)).await;
    assert_eq!(again["status"], "nothing_to_do");
    assert_eq!(again["message"], "Nothing to change.");

    let undo = ok(&h, "undo_operation", json!({"plan_id": plan()})).await;
    let code = code_of(&undo);
    assert!(
        undo["message"]
            .as_str()
            .unwrap_or("")
            .contains("Undo: set Restaurants for 2026-09-01 back to 120.00?"),
        "{undo}"
    );
    let undone = ok(
        &h,
        "undo_operation",
        json!({"plan_id": plan(), "confirmation": code}),
    )
    .await;
    assert_eq!(undone["message"], "Budgeted amount restored.");
    assert_eq!(assigned(&h, "cat-restaurants").await, 120_000);
    assert_eq!(journal(&h).last(), Some(&json!({"undone": op})));
}

#[tokio::test]
async fn example_14_2_undo_leaves_a_later_change_alone() {
    let h = harness(None).await;
    let code = code_of(&ok(&h, "set_category_budget", budget(150.0)).await);
    ok(&h, "set_category_budget", with_code(budget(150.0), &code)).await;
    h.other_app()
        .set_assigned(&plan(), "2026-09-01", &id("cat-restaurants"), 160_000)
        .await
        .expect("the user changes it in YNAB");
    let undo = ok(&h, "undo_operation", json!({"plan_id": plan()})).await;
    assert_eq!(undo["status"], "nothing_to_do");
    assert_eq!(undo["message"], "The amount changed since: left alone.");
    assert_eq!(undo["conflicts"], json!([id("cat-restaurants")]));
    assert_eq!(assigned(&h, "cat-restaurants").await, 160_000);
    assert_eq!(journal(&h).len(), 1, "the operation stays in effect");
}

#[test]
fn example_14_2_and_14_3_subjects_hash_as_d15_says() {
    let subject = json!({"available_before": -22500, "category": "cat-restaurants", "from": 120000, "month": "2026-09-01", "to": 150000});
    assert_eq!(
        avenir::confirm::fingerprint::fingerprint("demo-plan", &subject),
        sha256_hex(
            "[\"demo-plan\",{\"available_before\":-22500,\"category\":\"cat-restaurants\",\"from\":120000,\"month\":\"2026-09-01\",\"to\":150000}]"
        )
    );
    let subject = json!({"amount": 30000, "from_available_before": 80000, "from_before": 80000, "from_category": "cat-tennis", "month": "2026-09-01", "to_available_before": -22500, "to_before": 120000, "to_category": "cat-restaurants"});
    assert_eq!(
        avenir::confirm::fingerprint::fingerprint("demo-plan", &subject),
        sha256_hex(
            "[\"demo-plan\",{\"amount\":30000,\"from_available_before\":80000,\"from_before\":80000,\"from_category\":\"cat-tennis\",\"month\":\"2026-09-01\",\"to_available_before\":-22500,\"to_before\":120000,\"to_category\":\"cat-restaurants\"}]"
        )
    );
}

// ---- 14.3 move_money ---------------------------------------------------------------------------

fn move_args() -> Value {
    json!({"plan_id": plan(), "month": "2026-09-01", "from_category_id": id("cat-tennis"),
           "to_category_id": id("cat-restaurants"), "amount": 30})
}

#[tokio::test]
async fn example_14_3_move_money_and_its_undo() {
    let h = harness(None).await;
    let first = ok(&h, "move_money", move_args()).await;
    let code = code_of(&first);
    assert_eq!(
        first["message"],
        format!(
            "Nothing changed yet. {ONLY_THE_USER} Move 30.00 from Tennis to Restaurants for 2026-09-01?\n- Tennis: 80.00 → 50.00\n- Restaurants: 120.00 → 150.00 (available -22.50 → +7.50) If they agree, call again with this code."
        )
    );
    assert_eq!(first["amount"], json!(30.0));
    assert_eq!(
        first["from_category"],
        json!({"category_id": id("cat-tennis"), "name": "Tennis", "from_amount": 80.0, "to_amount": 50.0, "available_before": 80.0, "available_after": 50.0})
    );
    assert_eq!(
        first["to_category"],
        json!({"category_id": id("cat-restaurants"), "name": "Restaurants", "from_amount": 120.0, "to_amount": 150.0, "available_before": -22.5, "available_after": 7.5})
    );
    let applied = ok(&h, "move_money", with_code(move_args(), &code)).await;
    let op = applied["operation_id"].as_str().expect("op").to_string();
    assert_eq!(
        applied["message"],
        format!("Moved. undo_operation with operation_id {op} moves it back.")
    );
    assert_eq!(assigned(&h, "cat-tennis").await, 50_000);
    assert_eq!(assigned(&h, "cat-restaurants").await, 150_000);
    assert_eq!(
        journal(&h)[0]["details"],
        json!({"month": "2026-09-01", "changes": [
            {"category_id": id("cat-tennis"), "from": 80000, "to": 50000},
            {"category_id": id("cat-restaurants"), "from": 120000, "to": 150000}]})
    );
    let undo = ok(&h, "undo_operation", json!({"plan_id": plan()})).await;
    let code = code_of(&undo);
    assert!(
        undo["message"]
            .as_str()
            .unwrap_or("")
            .contains("Undo: move 30.00 back from Restaurants to Tennis for 2026-09-01?"),
        "{undo}"
    );
    let undone = ok(
        &h,
        "undo_operation",
        json!({"plan_id": plan(), "confirmation": code}),
    )
    .await;
    assert_eq!(undone["message"], "Both amounts restored.");
    assert_eq!(assigned(&h, "cat-tennis").await, 80_000);
    assert_eq!(assigned(&h, "cat-restaurants").await, 120_000);
}

#[tokio::test]
async fn example_14_3_undo_leaves_both_alone_when_one_changed() {
    let h = harness(None).await;
    let code = code_of(&ok(&h, "move_money", move_args()).await);
    ok(&h, "move_money", with_code(move_args(), &code)).await;
    h.other_app()
        .set_assigned(&plan(), "2026-09-01", &id("cat-restaurants"), 999_000)
        .await
        .expect("the user changes Restaurants");
    let undo = ok(&h, "undo_operation", json!({"plan_id": plan()})).await;
    assert_eq!(undo["status"], "nothing_to_do");
    assert_eq!(undo["message"], "An amount changed since: both left alone.");
    assert_eq!(undo["conflicts"], json!([id("cat-restaurants")]));
    assert_eq!(assigned(&h, "cat-tennis").await, 50_000);
}

const MONTH_CATEGORY: &str = "PATCH /plans/{plan_id}/months/{month}/categories/{category_id}";

#[tokio::test]
async fn example_14_3_a_refused_second_half_is_put_back() {
    use ynab_sandbox::faults::Fault;
    let h = harness(None).await;
    let code = code_of(&ok(&h, "move_money", move_args()).await);
    // Tennis goes through; YNAB refuses Restaurants
    h.sandbox
        .inject(Fault::status(1, Some(MONTH_CATEGORY), 400).skipping(1));
    let error = h.error("move_money", with_code(move_args(), &code)).await;
    assert_eq!(
        error,
        "YNAB refused to change Restaurants (YNAB 400: Bad Request); Tennis is back to 80.00: nothing was moved."
    );
    assert_eq!(assigned(&h, "cat-tennis").await, 80_000);
    assert_eq!(assigned(&h, "cat-restaurants").await, 120_000);
    assert!(journal(&h).is_empty(), "no operation line");
    let intents =
        std::fs::read_to_string(format!("{}.intents", h.journal.display())).unwrap_or_default();
    assert!(
        intents.contains("\"outcome\":\"failed\""),
        "settled as failed: {intents}"
    );
}

#[tokio::test]
async fn example_14_3_when_putting_back_fails_too_the_user_is_told_what_to_fix() {
    use ynab_sandbox::faults::Fault;
    let h = harness(None).await;
    let code = code_of(&ok(&h, "move_money", move_args()).await);
    h.sandbox
        .inject(Fault::status(2, Some(MONTH_CATEGORY), 400).skipping(1));
    let error = h.error("move_money", with_code(move_args(), &code)).await;
    // The example's sentence, then what was asked and where the unfinished operation is (D14).
    let lines: Vec<&str> = error.lines().collect();
    assert_eq!(
        lines[0],
        "YNAB refused to change Restaurants (YNAB 400: Bad Request), then putting Tennis back failed too (YNAB 400: Bad Request): set Tennis back to 80.00 in YNAB."
    );
    assert!(
        lines[1].starts_with("What was asked: Move 30.00 from Tennis to Restaurants"),
        "{error}"
    );
    assert!(
        lines[lines.len() - 1].starts_with(
            "It stays unfinished in the journal: undo_operation lists it (operation_id "
        ),
        "{error}"
    );
    assert_eq!(
        assigned(&h, "cat-tennis").await,
        50_000,
        "half applied, as the message says"
    );
    assert!(journal(&h).is_empty());
    // the intent stays unfinished: undo_operation names it
    let answer = h.error("undo_operation", json!({"plan_id": plan()})).await;
    assert!(
        answer.starts_with("Nothing to undo: no operation of this plan is still in effect. Unfinished, interrupted before the journal recorded them: "),
        "{answer}"
    );
    assert!(answer.contains("(move)"), "{answer}");
    // named, it is reverted where it was applied (Tennis) and left alone elsewhere (D14)
    let id_start = answer.find("them: ").map(|i| i + 6).unwrap_or(0);
    let intent = answer[id_start..id_start + 12].to_string();
    let undo = ok(
        &h,
        "undo_operation",
        json!({"plan_id": plan(), "operation_id": intent}),
    )
    .await;
    assert!(
        undo["message"]
            .as_str()
            .unwrap_or("")
            .contains("Undo: set Tennis for 2026-09-01 back to 80.00?"),
        "{undo}"
    );
    let undone = ok(
        &h,
        "undo_operation",
        json!({"plan_id": plan(), "operation_id": intent, "confirmation": undo["confirmation"]}),
    )
    .await;
    assert_eq!(undone["message"], "Budgeted amount restored.");
    assert_eq!(assigned(&h, "cat-tennis").await, 80_000);
    assert_eq!(assigned(&h, "cat-restaurants").await, 120_000);
}

#[tokio::test]
async fn undo_of_a_move_puts_its_first_half_back_when_the_second_fails() {
    use ynab_sandbox::faults::Fault;
    let h = harness(None).await;
    let code = code_of(&ok(&h, "move_money", move_args()).await);
    ok(&h, "move_money", with_code(move_args(), &code)).await;
    let undo = ok(&h, "undo_operation", json!({"plan_id": plan()})).await;
    let code = code_of(&undo);
    // the undo restores Restaurants first, then Tennis: Tennis is refused
    h.sandbox
        .inject(Fault::status(1, Some(MONTH_CATEGORY), 400).skipping(1));
    let error = h
        .error(
            "undo_operation",
            json!({"plan_id": plan(), "confirmation": code}),
        )
        .await;
    assert_eq!(
        error,
        "YNAB refused to change Tennis (YNAB 400: Bad Request); Restaurants is back to 150.00: nothing was undone."
    );
    assert_eq!(assigned(&h, "cat-tennis").await, 50_000);
    assert_eq!(assigned(&h, "cat-restaurants").await, 150_000);
    assert_eq!(
        journal(&h).len(),
        1,
        "no undo marker: the move stays in effect"
    );
}
