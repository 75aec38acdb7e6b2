mod common;
use common::*;
use serde_json::json;
#[tokio::test]
async fn heavy_write_cost() {
    let p = ynab_sandbox::heavy::heavy_plan(1, 60, 150, ynab_sandbox::heavy::HEAVY_TODAY);
    let plan_id = p.id.clone();
    let account = p.accounts[0].id.clone();
    let api = Api::over(p);
    let t0 = std::time::Instant::now();
    let snap = { let p = ynab_sandbox::heavy::heavy_plan(1, 60, 150, ynab_sandbox::heavy::HEAVY_TODAY); let t = std::time::Instant::now(); let _ = ynab_sandbox::knowledge::snapshot(&p); t.elapsed() };
    println!("snapshot {snap:?}");
    let t1 = std::time::Instant::now();
    let a = api.call("POST", &format!("/plans/{plan_id}/transactions"), Some(json!({"transaction": {"account_id": account, "date": "2026-09-20", "amount": -1000}}))).await;
    println!("write {:?} status {}", t1.elapsed(), a.status);
    let t2 = std::time::Instant::now();
    let e = api.call("GET", &format!("/plans/{plan_id}"), None).await;
    println!("export {:?} status {} total {:?}", t2.elapsed(), e.status, t0.elapsed());
}
