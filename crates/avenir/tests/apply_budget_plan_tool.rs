//! `apply_budget_plan` through the protocol (`docs/writes/apply_budget_plan.md`): October 2026
//! (the demo's next month, nothing assigned) planned for several categories on the three
//! confirmation paths and undone by `undo_operation`, the sandbox's assigned amounts and Ready to
//! Assign asserted before, after and after the undo; a plan that would leave Ready to Assign
//! negative refused, then accepted with the flag; a stale answer refused; every validation
//! error with nothing sent; a failure on the third PATCH reported per category and undone.

use crate::common;

use common::confirmed;

use common::{
    Asker, E_C4, Era, Harness, Options, Reply, id, intents_path, journal_lines, start_options,
    with_code, writes_served,
};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::Arc;
use ynab_sandbox::faults::{Fault, FaultKind};

const OCTOBER: &str = "2026-10-01";
/// Ready to Assign for October 2026 on the demo: September's 2,192.22 less its overspending.
const READY: i64 = 2_192_220 - 299_230;

fn plan() -> String {
    id("demo-budget")
}

/// The month as another app reads it: each category's assigned amount by name, and Ready to
/// Assign.
async fn october(h: &Harness) -> (HashMap<String, i64>, i64) {
    let month = h
        .other_app()
        .month(&plan(), OCTOBER)
        .await
        .expect("october");
    let assigned = month
        .categories
        .unwrap_or_default()
        .into_iter()
        .map(|c| (c.name.into(), c.budgeted))
        .collect();
    (assigned, month.to_be_budgeted)
}

async fn category_id(h: &Harness, name: &str) -> String {
    let month = h.other_app().month(&plan(), OCTOBER).await.expect("month");
    month
        .categories
        .unwrap_or_default()
        .into_iter()
        .find(|c| c.name == name)
        .map(|c| c.id.into())
        .unwrap_or_else(|| panic!("no category {name}"))
}

async fn args_of(h: &Harness, lines: &[(&str, f64)]) -> Value {
    let mut out = Vec::new();
    for (name, amount) in lines {
        out.push(json!({"category_id": category_id(h, name).await, "amount": amount}));
    }
    json!({"plan_id": "last-used", "month": "2026-10", "lines": out})
}

fn code_of(value: &Value) -> Value {
    assert_eq!(value["status"], "confirmation_required", "{value}");
    value["confirmation"].clone()
}

fn amounts(assigned: &HashMap<String, i64>, names: &[&str]) -> Vec<i64> {
    names.iter().map(|n| assigned[*n]).collect()
}

const PLANNED: [&str; 3] = ["Groceries", "Rent", "Restaurants"];

#[tokio::test]
async fn october_is_planned_and_undone_on_the_three_paths() {
    let paths = [
        (Era::Modern, true),
        (Era::Legacy, true),
        (Era::Legacy, false),
    ];
    for (era, asking) in paths {
        let asker = Asker::new(Reply::Yes);
        let mut options = Options::new(era);
        options.asker = asking.then(|| asker.clone());
        let h = start_options(options).await;
        let label = format!("{era:?}, asking {asking}");
        let (before, ready) = october(&h).await;
        assert_eq!(amounts(&before, &PLANNED), [0, 0, 0], "{label}");
        assert_eq!(ready, READY, "{label}");

        let args = args_of(
            &h,
            &[
                ("Groceries", 450.0),
                ("Rent", 950.0),
                ("Restaurants", 150.0),
                ("Tennis", 0.0),
            ],
        )
        .await;
        let done = confirmed(&h, asking, "apply_budget_plan", args).await;
        assert_eq!(done["status"], "applied", "{label}: {done}");
        let op = done["operation_id"].as_str().expect("op").to_string();
        assert_eq!(
            done["message"],
            format!(
                "Assigned 3 categories for 2026-10-01. undo_operation with operation_id {op} puts back every amount not changed since."
            )
        );
        assert_eq!(done["ready_to_assign_before"], json!(1892.99));
        assert_eq!(done["ready_to_assign_after"], json!(342.99));
        assert_eq!(done["unchanged"], json!(["Tennis"]));
        assert_eq!(done["changes"][0]["category"], "Groceries");
        assert_eq!(done["changes"][0]["to_amount"], json!(450.0));
        if asking {
            assert_eq!(
                asker.questions(),
                vec![
                    "Assign 3 categories for 2026-10-01? Ready to Assign 1892.99 → 342.99\n\
- Groceries: 0.00 → 450.00 (available +1052.02 → +1502.02)\n- Rent: 0.00 → 950.00\n- Restaurants: 0.00 → 150.00\n\
- already as planned, not sent: Tennis"
                        .to_string()
                ],
                "{label}"
            );
        }
        let (after, ready) = october(&h).await;
        assert_eq!(
            amounts(&after, &PLANNED),
            [450_000, 950_000, 150_000],
            "{label}"
        );
        assert_eq!(after["Tennis"], 0);
        assert_eq!(ready, READY - 1_550_000, "{label}");
        let journal = journal_lines(&h);
        assert_eq!(journal.len(), 1, "one operation: {journal:?}");
        assert_eq!(journal[0]["kind"], "budget_plan");
        assert_eq!(
            journal[0]["details"]["changes"].as_array().map(Vec::len),
            Some(3)
        );

        let undo = json!({"plan_id": "last-used", "operation_id": op});
        let undone = confirmed(&h, asking, "undo_operation", undo).await;
        assert_eq!(undone["status"], "applied", "{label}: {undone}");
        assert_eq!(undone["message"], "Assigned amounts restored.");
        if asking {
            assert_eq!(
                asker.questions()[1],
                "Undo: set 3 assigned amount(s) for 2026-10-01 back?\n\
- Groceries: 450.00 → 0.00\n- Rent: 950.00 → 0.00\n- Restaurants: 150.00 → 0.00"
            );
        }
        let (back, ready) = october(&h).await;
        assert_eq!(amounts(&back, &PLANNED), [0, 0, 0], "{label}");
        assert_eq!(ready, READY, "{label}");
    }
}

#[tokio::test]
async fn a_negative_ready_to_assign_is_refused_then_accepted_with_the_flag() {
    let h = start_options(Options::new(Era::Legacy)).await;
    let args = args_of(&h, &[("Rent", 1000.0), ("Groceries", 1000.0)]).await;
    assert_eq!(
        h.error("apply_budget_plan", args.clone()).await,
        "This plan would leave Ready to Assign for 2026-10-01 at -107.01, 107.01 short: lower some amounts, or pass allow_negative_ready_to_assign: true if the person wants to assign more than is ready."
    );
    assert_eq!(writes_served(&h), 0, "nothing sent");
    let mut allowed = args;
    allowed["allow_negative_ready_to_assign"] = json!(true);
    let preview = h.ok("apply_budget_plan", allowed.clone()).await;
    assert!(
        preview["message"]
            .as_str()
            .unwrap_or_default()
            .contains("Assign 2 categories for 2026-10-01? Ready to Assign 1892.99 → -107.01"),
        "{preview}"
    );
    let done = h
        .ok("apply_budget_plan", with_code(allowed, &code_of(&preview)))
        .await;
    assert_eq!(done["status"], "applied", "{done}");
    let (after, ready) = october(&h).await;
    assert_eq!(
        amounts(&after, &["Rent", "Groceries"]),
        [1_000_000, 1_000_000]
    );
    assert_eq!(ready, -107_010);
}

#[tokio::test]
async fn a_change_made_elsewhere_while_asking_is_refused() {
    for era in [Era::Modern, Era::Legacy] {
        let asker = Asker::new(Reply::Yes);
        let mut options = Options::new(era);
        options.asker = Some(asker.clone());
        let h = start_options(options).await;
        let groceries = category_id(&h, "Groceries").await;
        let other = Arc::new(h.other_app());
        asker.meddle_with(Arc::new(move || {
            let other = other.clone();
            let groceries = groceries.clone();
            Box::pin(async move {
                let _ = other
                    .set_assigned(&id("demo-budget"), OCTOBER, &groceries, 10_000)
                    .await;
            })
        }));
        let args = args_of(&h, &[("Groceries", 450.0), ("Rent", 950.0)]).await;
        assert_eq!(h.error("apply_budget_plan", args).await, E_C4, "{era:?}");
        let (after, _) = october(&h).await;
        assert_eq!(
            amounts(&after, &["Groceries", "Rent"]),
            [10_000, 0],
            "{era:?}: only the other app's change"
        );
        assert!(journal_lines(&h).is_empty());
    }
}

#[tokio::test]
async fn every_validation_error_with_nothing_sent() {
    let h = start_options(Options::new(Era::Legacy)).await;
    let rent = category_id(&h, "Rent").await;
    let inflow = category_id(&h, "Inflow: Ready to Assign").await;
    let many: Vec<Value> = (0..51)
        .map(|i| json!({"category_id": format!("c{i}"), "amount": 1}))
        .collect();
    let with = |lines: Value| json!({"plan_id": plan(), "month": "2026-10", "lines": lines});
    let cases = [
        (with(json!([])), "Give at least one line: a category_id and its amount, its target or both.".to_string()),
        (with(json!(many)), "Give at most 50 lines in one plan (51 were given): each is one YNAB request; send the rest in another call.".to_string()),
        (with(json!([{"category_id": rent, "amount": 1}, {"category_id": rent, "amount": 2}])),
            format!("Category {rent} is named twice: give each category once, with its amount.")),
        (with(json!([{"category_id": rent, "amount": 1.005}])),
            "lines.0.amount has more decimals than this plan's currency uses (2): round it to 2 decimal(s).".to_string()),
        (with(json!([{"category_id": "nope", "amount": 1}])),
            "Category nope is not in this plan: use a category_id from get_category_balances.".to_string()),
        (with(json!([{"category_id": inflow, "amount": 1}])),
            format!("Category {inflow} (Inflow: Ready to Assign) is one of YNAB's internal categories: nothing is assigned to it; use a category_id from get_category_balances.")),
        (with(json!([{"category_id": rent}])),
            "lines.0 gives neither an amount nor a target: give the amount to assign, the target amount or both.".to_string()),
        (with(json!([{"category_id": rent, "target": 1.005}])),
            "lines.0.target has more decimals than this plan's currency uses (2): round it to 2 decimal(s).".to_string()),
        (with(json!([{"category_id": rent, "target": 0}])),
            "lines.0.target: The amount must be greater than 0; to remove the target, give none.".to_string()),
        (json!({"plan_id": plan(), "month": "2026-13", "lines": [{"category_id": rent, "amount": 1}]}),
            String::new()),
    ];
    for (args, message) in cases {
        let got = h.error("apply_budget_plan", args.clone()).await;
        if message.is_empty() {
            assert!(got.starts_with("month"), "{got}");
        } else {
            assert_eq!(got, message, "{args}");
        }
    }
    // Nothing to change: said so, nothing asked.
    let same = h
        .ok(
            "apply_budget_plan",
            with(json!([{"category_id": rent, "amount": 0}])),
        )
        .await;
    assert_eq!(same["status"], "nothing_to_do");
    assert_eq!(
        same["message"],
        "Every category is already assigned as planned: nothing to change."
    );
    assert_eq!(writes_served(&h), 0);
    assert!(journal_lines(&h).is_empty());
}

#[tokio::test]
async fn a_failure_on_the_third_patch_is_reported_per_category_and_undone() {
    let h = start_options(Options::new(Era::Legacy)).await;
    let args = args_of(
        &h,
        &[
            ("Groceries", 450.0),
            ("Rent", 950.0),
            ("Restaurants", 150.0),
            ("Tennis", 60.0),
        ],
    )
    .await;
    let code = code_of(&h.ok("apply_budget_plan", args.clone()).await);
    let mut fault = Fault::new(
        1,
        Some("PATCH /plans/{plan_id}/months/{month}/categories/{category_id}"),
        FaultKind::Status {
            status: 500,
            retry_after: None,
        },
    );
    fault.skip = 2;
    h.sandbox.inject(fault);
    let error = h.error("apply_budget_plan", with_code(args, &code)).await;
    assert!(
        error.contains(
            "(set before it: Groceries 0.00 → 450.00, Rent 0.00 → 950.00; Restaurants may or may not be set to 150.00; not sent: Tennis.)"
        ),
        "{error}"
    );
    assert!(
        journal_lines(&h).is_empty(),
        "no operation line: unfinished"
    );
    let (after, _) = october(&h).await;
    assert_eq!(
        amounts(&after, &["Groceries", "Rent", "Restaurants", "Tennis"]),
        [450_000, 950_000, 0, 0]
    );
    let intent = common::lines_of(&intents_path(&h))[0]["intent"].clone();
    let op = intent["id"].as_str().expect("intent").to_string();
    assert_eq!(intent["kind"], "budget_plan");
    let listed = h.error("undo_operation", json!({"plan_id": plan()})).await;
    assert!(listed.contains(&format!("{op} (budget_plan)")), "{listed}");
    let undo = json!({"plan_id": plan(), "operation_id": op});
    let preview = h.ok("undo_operation", undo.clone()).await;
    assert!(
        preview["message"].as_str().unwrap_or_default().contains(
            "Undo: set 2 assigned amount(s) for 2026-10-01 back?\n- Groceries: 450.00 → 0.00\n- Rent: 950.00 → 0.00"
        ),
        "{preview}"
    );
    let undone = h
        .ok("undo_operation", with_code(undo, &code_of(&preview)))
        .await;
    assert_eq!(undone["status"], "applied", "{undone}");
    let (back, ready) = october(&h).await;
    assert_eq!(
        amounts(&back, &["Groceries", "Rent", "Restaurants", "Tennis"]),
        [0, 0, 0, 0]
    );
    assert_eq!(ready, READY);
    let again = h.error("undo_operation", json!({"plan_id": plan()})).await;
    assert!(!again.contains(&op), "settled: {again}");
}

#[tokio::test]
async fn an_amount_changed_since_is_left_alone_and_named() {
    let h = start_options(Options::new(Era::Legacy)).await;
    let args = args_of(&h, &[("Groceries", 450.0), ("Rent", 950.0)]).await;
    let preview = h.ok("apply_budget_plan", args.clone()).await;
    let done = h
        .ok("apply_budget_plan", with_code(args, &code_of(&preview)))
        .await;
    let op = done["operation_id"].as_str().expect("op").to_string();
    let rent = category_id(&h, "Rent").await;
    h.other_app()
        .set_assigned(&plan(), OCTOBER, &rent, 900_000)
        .await
        .expect("other app");
    let undo = json!({"plan_id": plan(), "operation_id": op});
    let preview = h.ok("undo_operation", undo.clone()).await;
    assert_eq!(preview["conflicts"], json!([rent]), "{preview}");
    let undone = h
        .ok("undo_operation", with_code(undo, &code_of(&preview)))
        .await;
    assert_eq!(undone["status"], "applied", "{undone}");
    let (back, _) = october(&h).await;
    assert_eq!(amounts(&back, &["Groceries", "Rent"]), [0, 900_000]);
}

/// Each category's target as another app reads it: (goal_type, goal_target), by name.
async fn goals(h: &Harness) -> HashMap<String, (Option<String>, Option<i64>)> {
    h.other_app()
        .categories(&plan())
        .await
        .expect("categories")
        .into_iter()
        .flat_map(|g| g.categories)
        .map(|c| (c.name.into(), (c.goal_type.map(Into::into), c.goal_target)))
        .collect()
}

/// Groceries: 450.00 assigned and its monthly target raised to 500.00; Holidays (no target): a
/// target of 150.00 alone.
async fn targets_args(h: &Harness) -> Value {
    json!({"plan_id": "last-used", "month": "2026-10", "lines": [
        {"category_id": category_id(h, "Groceries").await, "amount": 450.0, "target": 500.0},
        {"category_id": category_id(h, "Holidays").await, "target": 150.0},
    ]})
}

#[tokio::test]
async fn targets_are_set_with_the_amounts_and_undone_with_them() {
    for (era, asking) in [
        (Era::Modern, true),
        (Era::Legacy, true),
        (Era::Legacy, false),
    ] {
        let asker = Asker::new(Reply::Yes);
        let mut options = Options::new(era);
        options.asker = asking.then(|| asker.clone());
        let h = start_options(options).await;
        let label = format!("{era:?}, asking {asking}");
        let (before, ready) = october(&h).await;
        assert_eq!(
            amounts(&before, &["Groceries", "Holidays"]),
            [0, 0],
            "{label}"
        );
        assert_eq!(ready, READY, "{label}");
        let goals_before = goals(&h).await;
        assert_eq!(
            goals_before["Groceries"],
            (Some("NEED".to_string()), Some(450_000)),
            "{label}"
        );
        assert_eq!(goals_before["Holidays"], (None, None), "{label}");

        let done = confirmed(&h, asking, "apply_budget_plan", targets_args(&h).await).await;
        assert_eq!(done["status"], "applied", "{label}: {done}");
        let op = done["operation_id"].as_str().expect("op").to_string();
        assert_eq!(
            done["message"],
            format!(
                "Assigned 1 category and set 2 targets for 2026-10-01. undo_operation with operation_id {op} puts back every amount and target not changed since."
            )
        );
        assert_eq!(done["targets"][1]["category"], "Holidays");
        assert_eq!(done["targets"][1]["before"], "no target");
        assert_eq!(done["targets"][1]["after"], "150.00 each month");
        if asking {
            assert_eq!(
                asker.questions(),
                vec![
                    "Assign 1 category and set 2 targets for 2026-10-01? Ready to Assign 1892.99 → 1442.99\n\
- Groceries: 0.00 → 450.00 (available +1052.02 → +1502.02); target 450.00 each month → 500.00 each month\n\
- Holidays: target no target → 150.00 each month"
                        .to_string()
                ],
                "{label}"
            );
        }
        let (after, ready_after) = october(&h).await;
        assert_eq!(
            amounts(&after, &["Groceries", "Holidays"]),
            [450_000, 0],
            "{label}"
        );
        assert_eq!(ready_after, READY - 450_000, "{label}");
        let goals_after = goals(&h).await;
        assert_eq!(
            goals_after["Groceries"],
            (Some("NEED".to_string()), Some(500_000)),
            "{label}"
        );
        assert_eq!(
            goals_after["Holidays"],
            (Some("NEED".to_string()), Some(150_000)),
            "{label}"
        );
        let journal = journal_lines(&h);
        assert_eq!(journal.len(), 1, "one operation: {journal:?}");
        assert_eq!(journal[0]["kind"], "budget_plan");
        let targets = &journal[0]["details"]["targets"];
        assert_eq!(targets[0]["undo"], json!({"goal_target": 450_000}));
        assert_eq!(targets[1]["undo"], json!({"goal_target": null}));
        assert_eq!(targets[1]["before"], "no target");

        let undo = json!({"plan_id": "last-used", "operation_id": op});
        let undone = confirmed(&h, asking, "undo_operation", undo).await;
        assert_eq!(undone["status"], "applied", "{label}: {undone}");
        assert_eq!(undone["message"], "Assigned amounts and targets restored.");
        if asking {
            assert_eq!(
                asker.questions()[1],
                "Undo: set 1 assigned amount(s) and 2 target(s) for 2026-10-01 back?\n\
- Groceries: 450.00 → 0.00\n\
- Groceries: target 500.00 each month → 450.00 each month\n\
- Holidays: target 150.00 each month → no target"
            );
        }
        let (back, ready_back) = october(&h).await;
        assert_eq!(
            amounts(&back, &["Groceries", "Holidays"]),
            [0, 0],
            "{label}"
        );
        assert_eq!(ready_back, READY, "{label}");
        let goals_back = goals(&h).await;
        assert_eq!(
            goals_back["Groceries"], goals_before["Groceries"],
            "{label}"
        );
        assert_eq!(
            goals_back["Holidays"].1, None,
            "{label}: {:?}",
            goals_back["Holidays"]
        );
    }
}

#[tokio::test]
async fn a_target_changed_elsewhere_while_asking_is_refused() {
    let asker = Asker::new(Reply::Yes);
    let mut options = Options::new(Era::Modern);
    options.asker = Some(asker.clone());
    let h = start_options(options).await;
    let holidays = category_id(&h, "Holidays").await;
    let other = Arc::new(h.other_app());
    asker.meddle_with(Arc::new(move || {
        let other = other.clone();
        let holidays = holidays.clone();
        Box::pin(async move {
            let change = ynab::writes::CategoryChange {
                goal_target: Some(Some(70_000)),
                ..ynab::writes::CategoryChange::default()
            };
            let _ = other
                .update_category(&id("demo-budget"), &holidays, &change)
                .await;
        })
    }));
    assert_eq!(
        h.error("apply_budget_plan", targets_args(&h).await).await,
        E_C4
    );
    let (after, ready) = october(&h).await;
    assert_eq!(amounts(&after, &["Groceries", "Holidays"]), [0, 0]);
    assert_eq!(ready, READY);
    let goals = goals(&h).await;
    assert_eq!(goals["Groceries"].1, Some(450_000), "nothing written");
    assert_eq!(
        goals["Holidays"].1,
        Some(70_000),
        "only the other app's change"
    );
    assert!(journal_lines(&h).is_empty());
}

#[tokio::test]
async fn a_target_changed_since_is_left_alone_and_named() {
    let h = start_options(Options::new(Era::Legacy)).await;
    let args = targets_args(&h).await;
    let preview = h.ok("apply_budget_plan", args.clone()).await;
    let done = h
        .ok("apply_budget_plan", with_code(args, &code_of(&preview)))
        .await;
    let op = done["operation_id"].as_str().expect("op").to_string();
    let holidays = category_id(&h, "Holidays").await;
    let change = ynab::writes::CategoryChange {
        goal_target: Some(Some(80_000)),
        ..ynab::writes::CategoryChange::default()
    };
    h.other_app()
        .update_category(&plan(), &holidays, &change)
        .await
        .expect("other app");
    let undo = json!({"plan_id": plan(), "operation_id": op});
    let preview = h.ok("undo_operation", undo.clone()).await;
    assert_eq!(preview["conflicts"], json!([holidays]), "{preview}");
    let undone = h
        .ok("undo_operation", with_code(undo, &code_of(&preview)))
        .await;
    assert_eq!(undone["status"], "applied", "{undone}");
    let (back, _) = october(&h).await;
    assert_eq!(amounts(&back, &["Groceries", "Holidays"]), [0, 0]);
    let goals = goals(&h).await;
    assert_eq!(goals["Groceries"].1, Some(450_000));
    assert_eq!(goals["Holidays"].1, Some(80_000), "left alone");
}

#[tokio::test]
async fn a_failure_on_the_first_target_is_reported_per_category_and_undone() {
    let h = start_options(Options::new(Era::Legacy)).await;
    let args = targets_args(&h).await;
    let code = code_of(&h.ok("apply_budget_plan", args.clone()).await);
    h.sandbox.inject(Fault::new(
        1,
        Some("PATCH /plans/{plan_id}/categories/{category_id}"),
        FaultKind::Status {
            status: 500,
            retry_after: None,
        },
    ));
    let error = h.error("apply_budget_plan", with_code(args, &code)).await;
    assert!(
        error.contains(
            "(set before it: Groceries 0.00 → 450.00; the target of Groceries may or may not be set to 500.00 each month; not sent: the target of Holidays.)"
        ),
        "{error}"
    );
    assert!(journal_lines(&h).is_empty(), "unfinished");
    let (after, _) = october(&h).await;
    assert_eq!(amounts(&after, &["Groceries", "Holidays"]), [450_000, 0]);
    let intent = common::lines_of(&intents_path(&h))[0]["intent"].clone();
    let op = intent["id"].as_str().expect("intent").to_string();
    let undo = json!({"plan_id": plan(), "operation_id": op});
    let preview = h.ok("undo_operation", undo.clone()).await;
    assert!(
        preview["message"]
            .as_str()
            .unwrap_or_default()
            .contains("Undo: set 1 assigned amount(s) and 0 target(s) for 2026-10-01 back?\n- Groceries: 450.00 → 0.00"),
        "{preview}"
    );
    let undone = h
        .ok("undo_operation", with_code(undo, &code_of(&preview)))
        .await;
    assert_eq!(undone["status"], "applied", "{undone}");
    let (back, ready) = october(&h).await;
    assert_eq!(amounts(&back, &["Groceries", "Holidays"]), [0, 0]);
    assert_eq!(ready, READY);
    let goals = goals(&h).await;
    assert_eq!(goals["Groceries"].1, Some(450_000));
    assert_eq!(goals["Holidays"], (None, None));
}
