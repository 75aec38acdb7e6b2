//! `split_transaction`: the worked example of `docs/contract/writes.md` §14.5 with a code and with
//! an asking client, the 20-line cap, every refusal with nothing written, and its undo (the
//! transaction created again on one line, the split one deleted).

use super::common::{Asker, Reply, id};
use super::{
    E_C1, code_of, fixture, gate, harness, journal, nothing_written, plan, transaction, with_code,
};
use serde_json::{Value, json};

const UNDO_NOTE: &str = "undo_operation can put it back on one line: the transaction is then created again, with a new id and without its bank-import link.";
const UNDO_QUESTION: &str = "Undo: put 2026-09-12 Organic Market -86.40 back on one line, in no category? YNAB cannot remove a split's lines, so the transaction is created again without them (a new id, no bank-import link) and the split one is deleted.";

fn split(lines: Value) -> Value {
    json!({"plan_id": plan(), "transaction_id": id("tx-060"), "lines": lines})
}

fn example_lines() -> Value {
    json!([{"amount": -81.15, "category_id": id("cat-groceries")},
           {"amount": -5.25, "category_id": id("cat-household"), "memo": "Dish soap"}])
}

fn example_question() -> String {
    format!(
        "Split 2026-09-12 Organic Market -86.40 into 2 lines?\n- -81.15 Groceries\n- -5.25 Household (Dish soap)\n{UNDO_NOTE}"
    )
}

#[tokio::test]
async fn example_14_5_split_with_a_code() {
    let h = harness(Some(fixture(false)), None).await;
    let first = h.ok("split_transaction", split(example_lines())).await;
    let code = code_of(&first);
    assert_eq!(first["message"], gate(&example_question()));
    assert_eq!(first["transaction_id"], id("tx-060"));
    assert_eq!(first["date"], "2026-09-12");
    assert_eq!(first["payee"], "Organic Market");
    assert_eq!(first["amount"], json!(-86.4));
    assert_eq!(first["from_category"], Value::Null);
    assert_eq!(
        first["lines"],
        json!([{"amount": -81.15, "category": "Groceries", "memo": null},
               {"amount": -5.25, "category": "Household", "memo": "Dish soap"}])
    );
    assert_eq!(first["operation_id"], Value::Null);
    nothing_written(&h);

    // the code confirms these lines and no others
    let other = json!([{"amount": -80.0, "category_id": id("cat-groceries")},
                       {"amount": -6.4, "category_id": id("cat-household")}]);
    assert_eq!(
        h.error("split_transaction", with_code(split(other), &code))
            .await,
        E_C1
    );
    let code = code_of(&h.ok("split_transaction", split(example_lines())).await);
    let applied = h
        .ok(
            "split_transaction",
            with_code(split(example_lines()), &code),
        )
        .await;
    assert_eq!(applied["status"], "applied");
    let op = applied["operation_id"].as_str().expect("D33").to_string();
    assert_eq!(
        applied["message"],
        format!(
            "Split. undo_operation with operation_id {op} puts it back on one line (created again: a new id, no bank-import link)."
        )
    );
    let tx = transaction(&h, "tx-060").await.expect("tx-060");
    let lines: Vec<(i64, Option<String>, Option<String>)> = tx
        .subtransactions
        .iter()
        .filter(|l| !l.deleted)
        .map(|l| (l.amount, l.category_id.clone(), l.memo.clone()))
        .collect();
    assert_eq!(
        lines,
        [
            (-81_150, Some(id("cat-groceries")), None),
            (-5_250, Some(id("cat-household")), Some("Dish soap".into()))
        ]
    );
    let line = &journal(&h)[0];
    assert_eq!(line["operation_id"], op);
    assert_eq!(line["kind"], "split");
    assert_eq!(line.get("undoable"), None, "a split is undoable");
    assert_eq!(line["details"]["transaction_id"], id("tx-060"));
    assert_eq!(line["details"]["category_before"], Value::Null);
    assert_eq!(
        line["details"]["line_digests"].as_array().map(Vec::len),
        Some(2),
        "its lines by digest only"
    );
    let written = std::fs::read_to_string(&h.journal).unwrap_or_default();
    assert!(
        !written.contains("Dish soap") && !written.contains("81150"),
        "no memo or amount in the journal"
    );

    // splitting it again is refused
    assert_eq!(
        h.error("split_transaction", split(example_lines())).await,
        format!(
            "Transaction {} is already split: to replace its lines, use edit_split (YNAB recreates it with a new id).",
            id("tx-060")
        )
    );
    // undo puts it back on one line: created again without its lines, the split one deleted
    let undo = json!({"plan_id": plan(), "operation_id": op});
    let asked = h.ok("undo_operation", undo.clone()).await;
    assert_eq!(asked["status"], "confirmation_required", "{asked}");
    assert!(
        asked["message"]
            .as_str()
            .is_some_and(|m| m.contains(UNDO_QUESTION)),
        "{asked}"
    );
    let undone = h
        .ok("undo_operation", with_code(undo, &code_of(&asked)))
        .await;
    assert_eq!(undone["status"], "applied", "{undone}");
    assert_eq!(
        undone["message"],
        "The transaction is back on one line, in its category before: created again (a new id, no bank-import link), the split one deleted."
    );
    assert!(
        transaction(&h, "tx-060").await.is_none(),
        "the split one is gone"
    );
    let back: Vec<_> = super::transactions(&h)
        .await
        .into_iter()
        .filter(|t| t.date == "2026-09-12" && t.amount == -86_400)
        .collect();
    assert_eq!(back.len(), 1, "one transaction back");
    assert!(back[0].subtransactions.is_empty(), "on one line");
    assert_eq!(back[0].category_id, None, "in its category before");
    assert_eq!(back[0].payee_id, tx.payee_id, "the same payee");
    assert_eq!(back[0].memo, tx.memo);
    assert_eq!(
        h.error(
            "undo_operation",
            json!({"plan_id": plan(), "operation_id": op})
        )
        .await,
        format!("Nothing to undo: no operation of this plan is still in effect with id {op}.")
    );
}

#[tokio::test]
async fn undo_reverts_the_split_then_the_change_before_it() {
    let asker = Asker::new(Reply::Yes);
    let h = harness(Some(fixture(false)), Some(asker.clone())).await;
    let target = h
        .ok(
            "set_category_target",
            json!({"plan_id": plan(), "category_id": id("cat-groceries"), "amount": 450}),
        )
        .await;
    let target_op = target["operation_id"].as_str().expect("op").to_string();
    let applied = h.ok("split_transaction", split(example_lines())).await;
    assert_eq!(applied["status"], "applied", "{applied}");
    assert_eq!(asker.questions()[1], example_question());
    let undone = h.ok("undo_operation", json!({"plan_id": plan()})).await;
    assert_eq!(undone["status"], "applied", "{undone}");
    assert_eq!(asker.questions()[2], UNDO_QUESTION, "the split first");
    let undone = h.ok("undo_operation", json!({"plan_id": plan()})).await;
    assert_eq!(undone["status"], "applied", "{undone}");
    assert_eq!(undone["undone_operation_id"], target_op, "then the target");
}

#[tokio::test]
async fn twenty_lines_are_shown_then_a_count() {
    let asker = Asker::new(Reply::Decline);
    let h = harness(Some(fixture(false)), Some(asker.clone())).await;
    let mut lines: Vec<Value> = (0..21)
        .map(|_| json!({"amount": -1.0, "category_id": id("cat-groceries")}))
        .collect();
    lines.push(json!({"amount": -65.4, "category_id": id("cat-household"), "memo": "Rest\nof it"}));
    let declined = h.ok("split_transaction", split(Value::Array(lines))).await;
    assert_eq!(declined["status"], "declined");
    assert_eq!(declined["message"], "The user declined: nothing changed.");
    assert_eq!(declined["lines"][21]["memo"], "Rest of it", "shown safe");
    let question = &asker.questions()[0];
    let shown: Vec<&str> = question.lines().collect();
    assert_eq!(
        shown[0],
        "Split 2026-09-12 Organic Market -86.40 into 22 lines?"
    );
    assert_eq!(shown.len(), 23);
    assert!(shown[1..21].iter().all(|l| *l == "- -1.00 Groceries"));
    assert_eq!(shown[21], "- … and 2 more");
    assert_eq!(shown[22], UNDO_NOTE);
    nothing_written(&h);
}

#[tokio::test]
async fn every_split_refusal_writes_nothing() {
    let h = harness(Some(fixture(false)), None).await;
    let line = |amount: f64, category: &str| json!({"amount": amount, "category_id": category});
    let two = json!([
        line(-0.5, &id("cat-groceries")),
        line(-0.5, &id("cat-household"))
    ]);
    let on =
        |tx: &str, lines: Value| json!({"plan_id": plan(), "transaction_id": tx, "lines": lines});
    let transfer = super::transactions(&h)
        .await
        .into_iter()
        .find(|t| t.account_id == id("acc-savings") && t.transfer_account_id.is_some())
        .expect("the transfer")
        .id;
    let cases: Vec<(Value, String)> = vec![
        (
            on("tx-nope", two.clone()),
            "Transaction tx-nope is not in this plan: use a transaction_id returned by suggest_categories.".into(),
        ),
        (
            on(&id("tx-061"), two.clone()),
            format!("Transaction {} is already split: to replace its lines, use edit_split (YNAB recreates it with a new id).", id("tx-061")),
        ),
        (
            on(&transfer, two.clone()),
            format!("Transaction {transfer} is a transfer between accounts: it cannot be split."),
        ),
        (
            on(&id("tx-062"), two.clone()),
            format!("Transaction {} is on an off-budget account: YNAB does not split those.", id("tx-062")),
        ),
        (
            split(json!([line(-86.4, &id("cat-groceries"))])),
            "Give at least two lines: to give the whole transaction one category, use apply_categories.".into(),
        ),
        (
            split(json!([line(-86.4, &id("cat-groceries")), line(0.0004, "anything")])),
            "A line is zero: leave it out.".into(),
        ),
        (
            split(json!([line(-86.4, &id("cat-uncat")), line(-1.0, &id("cat-groceries"))])),
            format!("Category {} is YNAB's internal Uncategorized: choose a real category.", id("cat-uncat")),
        ),
        (
            split(json!([line(-86.4, &id("cat-groceries")), line(-1.0, "cat-nope")])),
            "Category cat-nope is not in this plan: use a category_id from suggest_categories or get_category_balances.".into(),
        ),
        (
            split(json!([line(-86.4, &id("cat-groceries")), line(-1.0, &id("cat-old"))])),
            format!("Category {} is not in this plan: use a category_id from suggest_categories or get_category_balances.", id("cat-old")),
        ),
        (
            split(json!([line(-86.4, &id("cat-visa")), line(-1.0, &id("cat-groceries"))])),
            format!("Category {} pays a credit card: YNAB ignores it on a transaction. Choose the category of what was paid for.", id("cat-visa")),
        ),
        (
            split(json!([line(-81.15, &id("cat-groceries")), line(-4.0, &id("cat-household"))])),
            "The lines add up to -85.15, the transaction is -86.40: they must match to the cent.".into(),
        ),
    ];
    for (args, message) in cases {
        assert_eq!(h.error("split_transaction", args).await, message);
    }
    // the arguments' own rules name the field
    for (lines, path) in [
        (
            json!([{"amount": -1, "category": "x"}, line(-1.0, "y")]),
            "lines.0.category",
        ),
        (
            json!([{"category_id": "x"}, line(-1.0, "y")]),
            "lines.0.amount",
        ),
        (
            json!([line(-1.0, "y"), {"amount": -1, "category_id": "x", "memo": "a\u{0}b"}]),
            "lines.1.memo",
        ),
        (
            json!([line(-1.0, "y"), {"amount": -1, "category_id": "x", "memo": "m".repeat(501)}]),
            "lines.1.memo",
        ),
        (json!("two lines"), "lines"),
    ] {
        let error = h.error("split_transaction", split(lines)).await;
        assert!(error.starts_with(&format!("Argument {path}: ")), "{error}");
    }
    let error = h
        .error(
            "split_transaction",
            json!({"plan_id": plan(), "transaction_id": id("tx-060")}),
        )
        .await;
    assert!(error.starts_with("Argument lines: is required"), "{error}");
    nothing_written(&h);
    let tx = transaction(&h, "tx-060").await.expect("tx-060");
    assert!(tx.subtransactions.is_empty());
}

/// A split journaled by an earlier version (`undoable: false` with its reason, no line digests)
/// is undone all the same: its line holds the transaction and its category before.
#[tokio::test]
async fn a_split_journaled_before_split_undo_existed_is_undone() {
    let asker = Asker::new(Reply::Yes);
    let h = harness(Some(fixture(false)), Some(asker.clone())).await;
    let applied = h.ok("split_transaction", split(example_lines())).await;
    let op = applied["operation_id"].as_str().expect("op").to_string();
    let mut line = journal(&h).remove(0);
    line["details"] = json!({"transaction_id": id("tx-060"), "category_before": null});
    line["undoable"] = json!(false);
    line["reason"] = json!(
        "YNAB's API cannot change a split afterwards; only YNAB's app can undo it, by editing the transaction"
    );
    std::fs::write(&h.journal, format!("{line}\n")).expect("journal");
    let undone = h
        .ok(
            "undo_operation",
            json!({"plan_id": plan(), "operation_id": op}),
        )
        .await;
    assert_eq!(undone["status"], "applied", "{undone}");
    assert_eq!(asker.questions()[1], UNDO_QUESTION);
    assert!(transaction(&h, "tx-060").await.is_none());
    let back = super::transactions(&h)
        .await
        .into_iter()
        .filter(|t| t.date == "2026-09-12" && t.amount == -86_400)
        .count();
    assert_eq!(back, 1);
}
