//! `set_category_target`: a target set, changed, removed; undone with a code and through an
//! asking client; a previous target only YNAB can bring back; every refusal with nothing written.

use super::common::{Asker, Harness, Reply, id};
use super::{code_of, fixture, gate, harness, journal, nothing_written, plan, with_code};
use serde_json::{Value, json};
use ynab::models::Category;

fn target(category: &str, extra: Value) -> Value {
    let mut args = json!({"plan_id": plan(), "category_id": id(category)});
    if let (Value::Object(map), Value::Object(more)) = (&mut args, extra) {
        map.extend(more);
    }
    args
}

async fn category(h: &Harness, readable: &str) -> Category {
    h.other_app()
        .categories(&plan())
        .await
        .expect("categories")
        .into_iter()
        .flat_map(|g| g.categories)
        .find(|c| c.id == id(readable))
        .expect("the category")
}

#[tokio::test]
async fn a_target_set_with_a_code_then_undone() {
    let h = harness(Some(fixture(false)), None).await;
    let args = target("cat-groceries", json!({"amount": 450}));
    let first = h.ok("set_category_target", args.clone()).await;
    let code = code_of(&first);
    assert_eq!(
        first["message"],
        gate("Set the target of Groceries: no target → 450.00 each month?")
    );
    assert_eq!(first["category"], "Groceries");
    assert_eq!(first["before"], "no target");
    assert_eq!(first["after"], "450.00 each month");
    assert_eq!(first["undoable"], true);
    nothing_written(&h);

    let applied = h
        .ok("set_category_target", with_code(args.clone(), &code))
        .await;
    let op = applied["operation_id"].as_str().expect("op").to_string();
    assert_eq!(
        applied["message"],
        format!("Target set. undo_operation with operation_id {op} restores it.")
    );
    let c = category(&h, "cat-groceries").await;
    assert_eq!(
        (c.goal_type.as_deref(), c.goal_target, c.goal_cadence),
        (Some("NEED"), Some(450_000), Some(1))
    );
    let line = &journal(&h)[0];
    assert_eq!(line["kind"], "target");
    assert_eq!(
        line["details"],
        json!({"category_id": id("cat-groceries"), "undo": {"goal_target": null},
               "after": "450.00 each month"})
    );
    assert!(line.get("undoable").is_none());

    let again = h.ok("set_category_target", args).await;
    assert_eq!(again["status"], "nothing_to_do");
    assert_eq!(again["message"], "The target is already that one.");

    let undo = h.ok("undo_operation", json!({"plan_id": plan()})).await;
    let code = code_of(&undo);
    assert_eq!(
        undo["message"],
        gate("Undo: set the target of Groceries back?")
    );
    let undone = h
        .ok(
            "undo_operation",
            json!({"plan_id": plan(), "confirmation": code}),
        )
        .await;
    assert_eq!(undone["message"], "Target restored.");
    let c = category(&h, "cat-groceries").await;
    assert_eq!((c.goal_type, c.goal_target), (None, None));
    assert_eq!(journal(&h).last(), Some(&json!({"undone": op})));
}

#[tokio::test]
async fn a_dated_target_changed_and_restored_through_an_asking_client() {
    let asker = Asker::new(Reply::Yes);
    let h = harness(Some(fixture(false)), Some(asker.clone())).await;
    let applied = h
        .ok(
            "set_category_target",
            target(
                "cat-transport",
                json!({"amount": 20, "frequency": "weekly"}),
            ),
        )
        .await;
    assert_eq!(applied["status"], "applied", "{applied}");
    assert_eq!(
        asker.questions(),
        ["Set the target of Transport: 250.00 by 2026-11-01 → 20.00 each week?"]
    );
    let c = category(&h, "cat-transport").await;
    assert_eq!((c.goal_target, c.goal_cadence), (Some(20_000), Some(2)));
    assert_eq!(
        journal(&h)[0]["details"]["undo"],
        json!({"goal_target": 250_000, "goal_target_date": "2026-11-01",
               "goal_needs_whole_amount": false})
    );
    let undone = h.ok("undo_operation", json!({"plan_id": plan()})).await;
    assert_eq!(undone["message"], "Target restored.", "{undone}");
    assert_eq!(
        asker.questions()[1],
        "Undo: set the target of Transport back?"
    );
    let c = category(&h, "cat-transport").await;
    assert_eq!(c.goal_type.as_deref(), Some("NEED"));
    assert_eq!(c.goal_target, Some(250_000));
    assert_eq!(c.goal_target_date.as_deref(), Some("2026-11-01"));
}

#[tokio::test]
async fn a_target_changed_since_is_left_alone() {
    let h = harness(Some(fixture(false)), None).await;
    let args = target("cat-restaurants", json!({"amount": 200}));
    let first = h.ok("set_category_target", args.clone()).await;
    assert_eq!(
        first["message"],
        gate("Set the target of Restaurants: 150.00 each month → 200.00 each month?")
    );
    h.ok("set_category_target", with_code(args, &code_of(&first)))
        .await;
    assert_eq!(
        journal(&h)[0]["details"]["undo"],
        json!({"goal_target": 150_000})
    );
    h.other_app()
        .update_category(
            &plan(),
            &id("cat-restaurants"),
            &ynab::writes::CategoryChange {
                goal_target: Some(Some(999_000)),
                ..Default::default()
            },
        )
        .await
        .expect("changed in YNAB");
    let undo = h.ok("undo_operation", json!({"plan_id": plan()})).await;
    assert_eq!(undo["status"], "nothing_to_do");
    assert_eq!(undo["message"], "The target changed since: left alone.");
    assert_eq!(undo["conflicts"], json!([id("cat-restaurants")]));
    assert_eq!(
        category(&h, "cat-restaurants").await.goal_target,
        Some(999_000)
    );
    assert_eq!(journal(&h).len(), 1, "still in effect");
}

#[tokio::test]
async fn a_target_only_ynab_can_bring_back_is_said_and_journaled_so() {
    let h = harness(Some(fixture(false)), None).await;
    let args = target("cat-buffer", json!({}));
    let first = h.ok("set_category_target", args.clone()).await;
    let cannot = "undo_operation cannot bring back the previous target (100.00 (target balance)): only YNAB can.";
    assert_eq!(
        first["message"],
        gate(&format!(
            "Set the target of Buffer: 100.00 (target balance) → no target?\n{cannot}"
        ))
    );
    assert_eq!(first["undoable"], false);
    let applied = h
        .ok("set_category_target", with_code(args, &code_of(&first)))
        .await;
    assert_eq!(applied["message"], format!("Target set. {cannot}"));
    let op = applied["operation_id"].as_str().expect("D33").to_string();
    assert_eq!(category(&h, "cat-buffer").await.goal_target, None);
    let line = &journal(&h)[0];
    assert_eq!(line["kind"], "target");
    assert_eq!(line["undoable"], false);
    let reason = "YNAB's API cannot recreate the previous target (100.00 (target balance)); only YNAB can bring it back";
    assert_eq!(line["reason"], reason);
    assert_eq!(
        line["details"],
        json!({"category_id": id("cat-buffer"), "undo": null, "after": "no target"})
    );
    assert_eq!(
        h.error(
            "undo_operation",
            json!({"plan_id": plan(), "operation_id": op})
        )
        .await,
        format!("Operation {op} (target) cannot be undone here: {reason}.")
    );
}

#[tokio::test]
async fn every_target_refusal_writes_nothing() {
    let h = harness(Some(fixture(false)), None).await;
    let cases = [
        (
            json!({"plan_id": plan(), "category_id": "cat-nope", "amount": 10}),
            "Category cat-nope is not in this plan: use a category_id from get_category_balances or list_category_groups.".to_string(),
        ),
        (
            target("cat-old", json!({"amount": 10})),
            format!("Category {} is not in this plan: use a category_id from get_category_balances or list_category_groups.", id("cat-old")),
        ),
        (
            target("cat-groceries", json!({"amount": 10, "by_date": "2027-01-01", "frequency": "monthly"})),
            "Give either a date or a frequency, not both: YNAB refuses the two.".into(),
        ),
        (
            target("cat-groceries", json!({"by_date": "2027-01-01"})),
            "To remove the target, give no amount, no date and no frequency.".into(),
        ),
        (
            target("cat-groceries", json!({"frequency": "weekly"})),
            "To remove the target, give no amount, no date and no frequency.".into(),
        ),
        (
            target("cat-groceries", json!({"amount": 0})),
            "The amount must be greater than 0; to remove the target, give none.".into(),
        ),
        (
            target("cat-groceries", json!({"amount": -5})),
            "The amount must be greater than 0; to remove the target, give none.".into(),
        ),
        (
            target("cat-carloan", json!({"amount": 400, "by_date": "2027-01-01"})),
            "YNAB takes neither a date nor a frequency on a category paired to a loan account: give an amount alone.".into(),
        ),
        (
            target("cat-carloan", json!({"amount": 400, "frequency": "monthly"})),
            "YNAB takes neither a date nor a frequency on a category paired to a loan account: give an amount alone.".into(),
        ),
        (
            target("cat-visa", json!({"amount": 400, "frequency": "monthly"})),
            "YNAB takes no frequency on a credit card payment category: give an amount alone, or a date.".into(),
        ),
    ];
    for (args, message) in cases {
        assert_eq!(h.error("set_category_target", args).await, message);
    }
    for (extra, path) in [
        (json!({"amount": 10, "frequency": "daily"}), "frequency"),
        (json!({"amount": 10, "by_date": "01/02/2027"}), "by_date"),
        (json!({"amount": "10"}), "amount"),
        (json!({"amount": 10, "goal": "x"}), "goal"),
    ] {
        let error = h
            .error("set_category_target", target("cat-groceries", extra))
            .await;
        assert!(error.starts_with(&format!("Argument {path}: ")), "{error}");
    }
    let daily = h
        .error(
            "set_category_target",
            target("cat-groceries", json!({"amount": 10, "frequency": "daily"})),
        )
        .await;
    assert_eq!(
        daily,
        "Argument frequency: must be 'monthly', 'weekly' or 'yearly', got 'daily'."
    );
    nothing_written(&h);
    // a card payment category takes an amount by a date, and a loan's an amount alone
    for (cat, extra) in [
        ("cat-visa", json!({"amount": 400, "by_date": "2027-01-01"})),
        ("cat-carloan", json!({"amount": 450})),
    ] {
        let preview = h.ok("set_category_target", target(cat, extra)).await;
        code_of(&preview);
    }
}
