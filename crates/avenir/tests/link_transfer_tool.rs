//! `link_transfer` through the protocol (`docs/writes/link_transfer.md`), on a fixture plan of
//! its own (the demo's documented figures stay as they are): Checking's 250.00 outflow imported
//! from the bank and Savings' 250.00 inflow entered by hand two days later, linked on the three
//! confirmation paths and separated again by `undo_operation`, the sandbox asserted before, after
//! and after the undo; a stale answer refused with nothing written; each refusal with its message.

use crate::common;

use common::confirmed;

use common::{
    Asker, E_C4, Era, Harness, Options, Reply, id, journal_lines, start_options, writes_served,
};
use serde_json::json;
use std::sync::Arc;
use ynab::models::Transaction;
use ynab_sandbox::PlanState;
use ynab_sandbox::builder::{PlanBuilder, Transfer, Tx, date};

const IMPORT_ID: &str = "YNAB:-250000:2026-09-10:1";

/// Checking and Savings (both on budget); the 250.00 pair to link, and one transaction for each
/// refusal.
fn fixture() -> PlanState {
    let mut b = PlanBuilder::new("link-plan", "Link fixture", date("2026-09-25"));
    b.months(date("2026-09-01"), date("2026-09-01"));
    b.account("acc-checking", "Checking", "checking", true);
    b.account("acc-savings", "Savings", "savings", true);
    b.internal_group("g-internal", "Internal Master Category");
    b.category("cat-rta", "g-internal", "Inflow: Ready to Assign");
    b.group("g-everyday", "Everyday");
    b.category("cat-misc", "g-everyday", "Misc");
    b.transaction(
        Tx::new(
            date("2026-09-10"),
            "acc-checking",
            "VIR EPARGNE 100926",
            -250_000,
        )
        .readable_id("tx-out")
        .category("cat-misc")
        .import_id(IMPORT_ID),
    );
    b.transaction(
        Tx::new(date("2026-09-12"), "acc-savings", "From checking", 250_000)
            .readable_id("tx-in")
            .cleared("uncleared"),
    );
    b.transaction(
        Tx::new(date("2026-09-25"), "acc-savings", "Late", 250_000).readable_id("tx-far"),
    );
    b.transaction(Tx::new(date("2026-09-11"), "acc-savings", "Odd", 249_990).readable_id("tx-odd"));
    b.transaction(
        Tx::new(date("2026-09-11"), "acc-checking", "Same", 250_000).readable_id("tx-same"),
    );
    b.transaction(
        Tx::new(date("2026-09-11"), "acc-savings", "Split", 250_000)
            .readable_id("tx-split")
            .line(100_000, Some("cat-rta"), None)
            .line(150_000, Some("cat-rta"), None),
    );
    b.transfer(Transfer::new(
        date("2026-09-05"),
        "acc-checking",
        "acc-savings",
        100_000,
    ));
    b.build()
}

fn plan() -> String {
    id("link-plan")
}

async fn start(era: Era, asker: Option<Asker>) -> Harness {
    let mut options = Options::new(era);
    options.asker = asker;
    options.plan = Some(fixture());
    start_options(options).await
}

async fn live(h: &Harness) -> Vec<Transaction> {
    common::live_transactions(h, &plan()).await
}

#[tokio::test]
async fn the_imported_outflow_and_the_entered_inflow_become_one_transfer_and_back() {
    let paths = [
        (Era::Modern, true),
        (Era::Legacy, true),
        (Era::Legacy, false),
    ];
    for (era, asking) in paths {
        let label = format!("{era:?}, asking {asking}");
        let asker = Asker::new(Reply::Yes);
        let h = start(era, asking.then(|| asker.clone())).await;
        let (out_id, in_id) = (id("tx-out"), id("tx-in"));
        let before = live(&h).await;
        let out = before
            .iter()
            .find(|t| t.id == out_id)
            .expect("the outflow")
            .clone();
        let inflow = before
            .iter()
            .find(|t| t.id == in_id)
            .expect("the inflow")
            .clone();
        assert_eq!(out.import_id.as_deref(), Some(IMPORT_ID));
        assert_eq!(out.transfer_account_id, None);

        let args = json!({"plan_id": plan(), "transaction_ids": [in_id, out_id]});
        let done = confirmed(&h, asking, "link_transfer", args).await;
        assert_eq!(done["status"], "applied", "{label}: {done}");
        let op = done["operation_id"].as_str().expect("op").to_string();
        assert_eq!(done["kept"]["transaction_id"], json!(out_id));
        assert_eq!(done["deleted"]["transaction_id"], json!(in_id));
        if asking {
            let question = asker.questions()[0].clone();
            assert_eq!(
                question,
                "Link 2 transactions as one transfer of 250.00 from Checking to Savings? (undo_operation separates them again; the deleted one comes back with a new id and no bank-import link.)\n\
- kept: 2026-09-10 VIR EPARGNE 100926 -250.00 on Checking, cleared, from the bank: it becomes the transfer, with its date and cleared state\n\
- deleted: 2026-09-12 From checking 250.00 on Savings, uncleared: YNAB's transfer makes its other side on Savings instead (uncleared copied); its id is gone\n\
- the kept one's category is removed: a transfer between two budget accounts takes none",
                "{label}"
            );
        }

        // After: one transfer pair, cross-linked; the imported side kept as it was.
        let after = live(&h).await;
        assert!(
            after.iter().all(|t| t.id != in_id),
            "{label}: the inflow is gone"
        );
        let kept = after.iter().find(|t| t.id == out_id).expect("kept");
        let mirror_id = kept.transfer_transaction_id.clone().expect("linked");
        assert_eq!(done["mirror_id"], json!(mirror_id));
        let mirror = after
            .iter()
            .find(|t| t.id == mirror_id)
            .expect("the mirror");
        assert_eq!(
            kept.transfer_account_id.as_deref(),
            Some(id("acc-savings").as_str())
        );
        assert_eq!(
            mirror.transfer_account_id.as_deref(),
            Some(id("acc-checking").as_str())
        );
        assert_eq!(mirror.transfer_transaction_id.as_ref(), Some(&out_id));
        assert_eq!((kept.date.as_str(), kept.amount), ("2026-09-10", -250_000));
        assert_eq!(kept.cleared, "cleared");
        assert_eq!(kept.import_id.as_deref(), Some(IMPORT_ID));
        assert_eq!(
            kept.category_id, None,
            "no category between budget accounts"
        );
        assert_eq!(
            (mirror.date.as_str(), mirror.amount),
            ("2026-09-10", 250_000)
        );
        assert_eq!(mirror.account_id, id("acc-savings"));
        assert_eq!(
            mirror.cleared, "uncleared",
            "the deleted side's cleared state"
        );
        assert_eq!(mirror.import_id, None);
        let line = journal_lines(&h).last().cloned().expect("journaled");
        assert_eq!(line["kind"], "link");
        let journal = std::fs::read_to_string(&h.journal).expect("journal");
        for secret in ["EPARGNE", "250000", "From checking"] {
            assert!(!journal.contains(secret), "{secret} in the journal");
        }

        // Undo: two separate transactions again.
        let args = json!({"plan_id": plan(), "operation_id": op});
        let undone = confirmed(&h, asking, "undo_operation", args).await;
        assert_eq!(undone["status"], "applied", "{label}: {undone}");
        let back = live(&h).await;
        let kept = back.iter().find(|t| t.id == out_id).expect("kept");
        assert_eq!(
            kept.transfer_account_id, None,
            "{label}: no longer a transfer"
        );
        assert_eq!(kept.payee_id, out.payee_id);
        assert_eq!(kept.category_id, out.category_id);
        assert_eq!(kept.import_id.as_deref(), Some(IMPORT_ID));
        assert!(
            back.iter().all(|t| t.id != mirror_id),
            "{label}: the mirror is gone"
        );
        let again: Vec<&Transaction> = back
            .iter()
            .filter(|t| {
                t.account_id == id("acc-savings") && t.amount == 250_000 && t.date == "2026-09-12"
            })
            .collect();
        assert_eq!(again.len(), 1, "{label}: the inflow recreated");
        let recreated = again[0];
        assert_ne!(recreated.id, in_id, "a new id");
        assert_eq!(recreated.payee_id, inflow.payee_id);
        assert_eq!(recreated.cleared, inflow.cleared);
        assert_eq!(recreated.transfer_account_id, None);
        assert_eq!(
            back.len(),
            before.len(),
            "{label}: as many transactions as before"
        );
    }
}

#[tokio::test]
async fn a_change_made_elsewhere_while_asking_is_refused_with_nothing_written() {
    for era in [Era::Modern, Era::Legacy] {
        let asker = Asker::new(Reply::Yes);
        let h = start(era, Some(asker.clone())).await;
        let other = Arc::new(h.other_app());
        asker.meddle_with(Arc::new(move || {
            let other = other.clone();
            Box::pin(async move {
                let update = ynab::writes::TransactionUpdate {
                    id: id("tx-in"),
                    memo: Some(Some("moved to savings".into())),
                    ..ynab::writes::TransactionUpdate::default()
                };
                let _ = other.update_transactions(&id("link-plan"), &[update]).await;
            })
        }));
        let before = live(&h).await.len();
        let args = json!({"plan_id": plan(), "transaction_ids": [id("tx-out"), id("tx-in")]});
        assert_eq!(h.error("link_transfer", args).await, E_C4, "{era:?}");
        let after = live(&h).await;
        assert_eq!(after.len(), before, "{era:?}: nothing deleted");
        let out = after.iter().find(|t| t.id == id("tx-out")).expect("out");
        assert_eq!(out.transfer_account_id, None, "{era:?}: not linked");
        assert!(journal_lines(&h).is_empty());
    }
}

#[tokio::test]
async fn each_refusal_names_the_transaction_and_what_is_wrong() {
    let h = start(Era::Legacy, None).await;
    let transfer = live(&h)
        .await
        .into_iter()
        .find(|t| t.transfer_account_id.is_some())
        .expect("a transfer")
        .id;
    let out = id("tx-out");
    let p = plan();
    let cases = [
        (json!([out]), "1 transaction(s) given: name exactly two, the outflow on one account and the inflow on the other.".to_string()),
        (json!([out, out]), format!("Transaction {out} is named twice: name the two sides of the transfer.")),
        (json!([out, "nope"]), "Transaction nope is not in this plan: use a transaction_id from find_transactions.".to_string()),
        (json!([out, transfer]), format!("Transaction {transfer} is already a transfer: only two ordinary transactions can be linked.")),
        (json!([out, id("tx-split")]), format!("Transaction {} is a split: YNAB cannot make a split one side of a transfer between these accounts. Name an unsplit transaction.", id("tx-split"))),
        (json!([out, id("tx-same")]), format!("Transactions {out} and {} are on the same account: a transfer links two accounts.", id("tx-same"))),
        (json!([out, id("tx-odd")]), format!("Transaction {out} is -250.00 and {} is 249.99: a transfer needs an outflow and an inflow of exactly the same amount.", id("tx-odd"))),
        (json!([out, id("tx-far")]), format!("Transaction {out} (2026-09-10) and {} (2026-09-25) are 15 days apart: link only transactions at most 10 days apart.", id("tx-far"))),
    ];
    let writes = writes_served(&h);
    for (ids, expected) in cases {
        let args = json!({"plan_id": p, "transaction_ids": ids});
        assert_eq!(
            h.error("link_transfer", args.clone()).await,
            expected,
            "{args}"
        );
    }
    assert_eq!(writes_served(&h), writes, "nothing sent");
}

/// Someone made the kept side an ordinary transaction again in YNAB after the link: undoing the
/// link would recreate the deleted side beside it and count the money twice, so undo names the
/// kept side as changed and sends nothing.
#[tokio::test]
async fn an_undo_after_the_kept_side_changed_elsewhere_sends_nothing() {
    let h = start(Era::Legacy, None).await;
    let (out_id, in_id) = (id("tx-out"), id("tx-in"));
    let out_payee = live(&h)
        .await
        .into_iter()
        .find(|t| t.id == out_id)
        .and_then(|t| t.payee_id)
        .expect("the outflow's payee");
    let args = json!({"plan_id": plan(), "transaction_ids": [out_id, in_id]});
    let done = confirmed(&h, false, "link_transfer", args).await;
    assert_eq!(done["status"], "applied", "{done}");
    let op = done["operation_id"].as_str().expect("op").to_string();

    let separated = ynab::writes::TransactionUpdate {
        id: out_id.clone(),
        payee_id: Some(Some(out_payee.clone())),
        ..ynab::writes::TransactionUpdate::default()
    };
    h.other_app()
        .update_transactions(&plan(), &[separated])
        .await
        .expect("changed elsewhere");
    let before_undo = live(&h).await;
    let writes = writes_served(&h);

    let answer = h
        .call(
            "undo_operation",
            json!({"plan_id": plan(), "operation_id": op}),
        )
        .await;
    let text = answer.content[0]
        .as_text()
        .map(|t| t.text.clone())
        .unwrap_or_default();
    assert!(
        text.contains(&format!(
            "Nothing to undo: transaction {out_id} changed since; left alone."
        )),
        "{text}"
    );
    assert_eq!(writes_served(&h), writes, "nothing sent");
    let after = live(&h).await;
    assert_eq!(after, before_undo, "the plan as the other app left it");
    assert!(
        after
            .iter()
            .all(|t| !(t.account_id == id("acc-savings") && t.date == "2026-09-12")),
        "the deleted inflow is not recreated beside it"
    );
    let kept = after.iter().find(|t| t.id == out_id).expect("kept");
    assert_eq!(kept.payee_id.as_deref(), Some(out_payee.as_str()));
}
