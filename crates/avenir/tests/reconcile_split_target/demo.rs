//! The demo plan's reconcile task (`docs/contract/server.md` §8.1): the bank shows 3,256.64,
//! Checking 3,328.50; the gap of -71.86 is explained (the MARKET FRESH -71.86 imported twice),
//! nothing is written.

use super::common::id;
use super::{GAP, code_of, gate, harness, writes_sent};
use serde_json::json;

#[tokio::test]
async fn the_demo_plan_s_reconcile_task_finds_the_duplicate() {
    let h = harness(None, None).await;
    let args = json!({"plan_id": id("demo-budget"), "account_id": id("acc-checking"),
                      "bank_balance": 3256.64});
    let found = h.ok("reconcile_account", args.clone()).await;
    assert_eq!(found["status"], "difference_found");
    assert_eq!(
        found["message"],
        format!(
            "YNAB's cleared balance differs from the bank by -71.86. Nothing was changed. {GAP}"
        )
    );
    let analysis = &found["analysis"];
    assert_eq!(analysis["cleared_balance"], json!(3328.5));
    assert_eq!(analysis["working_balance"], json!(3328.5));
    assert_eq!(analysis["difference"], json!(-71.86));
    assert_eq!(analysis["uncleared_count"], 0);
    assert_eq!(analysis["explained_by"], json!([]));
    let (all, _) = h
        .other_app()
        .transactions(&id("demo-budget"), &ynab::TransactionFilter::default())
        .await
        .expect("transactions");
    let twins: Vec<String> = all
        .iter()
        .filter(|t| t.date == "2026-09-19" && t.amount == -71_860)
        .map(|t| t.id.clone())
        .collect();
    assert_eq!(twins.len(), 2);
    let pairs = analysis["possible_duplicates"].as_array().expect("pairs");
    assert!(
        pairs.contains(&json!([twins[0], twins[1]]))
            || pairs.contains(&json!([twins[1], twins[0]])),
        "{pairs:?}"
    );
    assert_eq!(writes_sent(&h), 0);

    // recorded as an adjustment, it is asked first
    let mut adjust = args;
    adjust["adjust"] = json!(true);
    let cleared = all
        .iter()
        .filter(|t| t.account_id == id("acc-checking") && t.cleared == "cleared")
        .count();
    let preview = h.ok("reconcile_account", adjust).await;
    code_of(&preview);
    assert_eq!(
        preview["message"],
        gate(&format!(
            "Reconcile Checking: mark {cleared} cleared transaction(s) reconciled and add a balance adjustment of -71.86?"
        ))
    );
    assert_eq!(writes_sent(&h), 0);
}
