//! `create_account` through the protocol (`docs/writes/create_account.md`): a credit card created
//! on the three confirmation paths, the sandbox's accounts (name, type, balance, on budget), its
//! transfer payee and starting-balance transaction asserted before and after; `undo_operation`
//! refusing it with what to do in YNAB's app; a tracking account; an account of the same name
//! appearing while the person reads refused with nothing written; every validation message.

use crate::common;

use common::{
    Asker, Era, Harness, Options, Reply, id, journal_lines, start_options, with_code, writes_served,
};
use serde_json::{Value, json};
use std::sync::Arc;
use ynab::models::Account;

fn plan() -> String {
    id("demo-budget")
}

async fn accounts(h: &Harness) -> Vec<Account> {
    h.other_app().accounts(&plan()).await.expect("accounts")
}

async fn named(h: &Harness, name: &str) -> Vec<Account> {
    accounts(h)
        .await
        .into_iter()
        .filter(|a| a.name.eq_ignore_ascii_case(name) && !a.deleted)
        .collect()
}

fn code_of(value: &Value) -> Value {
    assert_eq!(value["status"], "confirmation_required", "{value}");
    value["confirmation"].clone()
}

async fn confirmed(h: &Harness, asking: bool, args: Value) -> Value {
    if asking {
        return h.ok("create_account", args).await;
    }
    let preview = h.ok("create_account", args.clone()).await;
    h.ok("create_account", with_code(args, &code_of(&preview)))
        .await
}

const QUESTION: &str = "Create the account ‘Visa’ (creditCard, on budget) with a starting balance of -500.00?\n\
- The sign: a card's balance owed is negative: -500.00 means 500.00 owed.\n\
- This cannot be undone here: YNAB's API cannot delete or close an account; to remove it, close it in YNAB's app.";

const CANNOT_UNDO: &str = "cannot be undone here: YNAB's API cannot delete or close an account; the user closes it in YNAB's app (the account's settings, Close Account), or deletes it there if nothing was recorded on it.";

#[tokio::test]
async fn a_credit_card_is_created_on_the_three_paths_and_undo_says_what_to_do() {
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
        let before = accounts(&h).await;
        assert_eq!(before.len(), 6, "{label}");
        assert!(named(&h, "Visa").await.is_empty());

        let args = json!({"plan_id": "last-used", "name": "Visa", "account_type": "creditCard", "balance": -500});
        let done = confirmed(&h, asking, args).await;
        assert_eq!(done["status"], "applied", "{label}: {done}");
        let created = named(&h, "Visa").await;
        assert_eq!(created.len(), 1, "{label}");
        let visa = &created[0];
        assert_eq!(
            (
                visa.kind.as_str(),
                visa.balance,
                visa.on_budget,
                visa.closed
            ),
            ("creditCard", -500_000, true, false),
            "{label}"
        );
        assert_eq!(done["account_id"], json!(visa.id));
        assert_eq!(done["balance"], json!(-500.0));
        assert_eq!(
            done["message"],
            format!(
                "Account ‘Visa’ created ({}). It cannot be undone here: to remove it, close it in YNAB's app.",
                visa.id
            )
        );
        assert_eq!(accounts(&h).await.len(), 7);
        // Its transfer payee, and the starting balance YNAB records.
        let payees = h.other_app().payees(&plan()).await.expect("payees");
        assert!(
            payees.iter().any(|p| p.name == "Transfer : Visa"
                && p.transfer_account_id.as_deref() == Some(visa.id.as_str())),
            "{label}"
        );
        let (txs, _) = h
            .other_app()
            .transactions(&plan(), &ynab::TransactionFilter::default())
            .await
            .expect("transactions");
        let starting: Vec<_> = txs.iter().filter(|t| t.account_id == visa.id).collect();
        assert_eq!(starting.len(), 1);
        assert_eq!(
            (starting[0].amount, starting[0].cleared.as_str()),
            (-500_000, "cleared")
        );
        if asking {
            assert_eq!(asker.questions(), vec![QUESTION.to_string()], "{label}");
        }
        // Journaled not undoable (D25); the undo says why and what to do instead.
        let journal = journal_lines(&h);
        assert_eq!(journal.len(), 1);
        assert_eq!(journal[0]["kind"], "account_create");
        assert_eq!(journal[0]["undoable"], json!(false));
        assert_eq!(journal[0]["details"]["account_id"], json!(visa.id));
        assert!(
            journal[0].to_string().find("Visa").is_none(),
            "no name on disk"
        );
        let op = done["operation_id"].as_str().expect("op").to_string();
        let refused = h
            .error(
                "undo_operation",
                json!({"plan_id": "last-used", "operation_id": op}),
            )
            .await;
        assert_eq!(
            refused,
            format!("Operation {op} (account_create) {CANNOT_UNDO}")
        );
        assert_eq!(named(&h, "Visa").await.len(), 1, "still there");
    }
}

#[tokio::test]
async fn a_tracking_account_and_the_question_by_code() {
    let h = start_options(Options::new(Era::Legacy)).await;
    let args = json!({"plan_id": plan(), "name": "House", "account_type": "otherAsset", "balance": 250000.5});
    let preview = h.ok("create_account", args.clone()).await;
    assert_eq!(preview["on_budget"], json!(false));
    assert!(
        preview["message"].as_str().unwrap_or_default().contains(
            "Create the account ‘House’ (otherAsset, a tracking account, off budget) with a starting balance of 250000.50?\n- The sign: an asset's value is positive.\n- This cannot be undone here"
        ),
        "{preview}"
    );
    assert_eq!(writes_served(&h), 0, "nothing before the answer");
    let done = h
        .ok("create_account", with_code(args, &code_of(&preview)))
        .await;
    assert_eq!(done["status"], "applied");
    let house = &named(&h, "House").await[0];
    assert_eq!((house.balance, house.on_budget), (250_000_500, false));
}

#[tokio::test]
async fn an_account_of_the_same_name_appearing_while_asking_is_refused() {
    for era in [Era::Modern, Era::Legacy] {
        let asker = Asker::new(Reply::Yes);
        let mut options = Options::new(era);
        options.asker = Some(asker.clone());
        let h = start_options(options).await;
        let other = Arc::new(h.other_app());
        asker.meddle_with(Arc::new(move || {
            let other = other.clone();
            Box::pin(async move {
                let _ = other
                    .create_account(&id("demo-budget"), "VISA", "creditCard", 0)
                    .await;
            })
        }));
        let args = json!({"plan_id": plan(), "name": "Visa", "account_type": "creditCard", "balance": -500});
        let error = h.error("create_account", args).await;
        let visa = named(&h, "Visa").await;
        assert_eq!(visa.len(), 1, "{era:?}: only the other app's");
        assert_eq!(visa[0].balance, 0);
        assert_eq!(
            error,
            format!(
                "An open account is already named ‘VISA’ ({}): choose another name, or use that account (list_accounts).",
                visa[0].id
            ),
            "{era:?}"
        );
        assert!(journal_lines(&h).is_empty());
    }
}

#[tokio::test]
async fn every_validation_error_with_nothing_sent() {
    let h = start_options(Options::new(Era::Legacy)).await;
    let checking = id("acc-checking");
    let with = |name: &str, kind: &str, balance: Value| json!({"plan_id": plan(), "name": name, "account_type": kind, "balance": balance});
    let cases = [
        (with("  ", "cash", json!(0)), "Give the account a name: it cannot be empty.".to_string()),
        (with(&"x".repeat(201), "cash", json!(0)), "The name has 201 characters: give at most 200.".to_string()),
        (with("Car", "loan", json!(0)), "account_type must be one of checking, savings, cash, creditCard, otherAsset, otherLiability, got 'loan'.".to_string()),
        (with("Car", "autoLoan", json!(0)), "account_type 'autoLoan': YNAB's API cannot create a autoLoan account (lineOfCredit, mortgage, autoLoan, studentLoan, personalLoan, medicalDebt, otherDebt are made in YNAB's app); give one of checking, savings, cash, creditCard, otherAsset, otherLiability.".to_string()),
        (with("Car", "cash", json!(1.005)), "balance has more decimals than this plan's currency uses (2): round it to 2 decimal(s).".to_string()),
        (with("checking", "savings", json!(0)), format!("An open account is already named ‘Checking’ ({checking}): choose another name, or use that account (list_accounts).")),
        (json!({"plan_id": plan(), "name": "Car", "account_type": "cash"}), "Argument balance: is required: give the starting balance in currency units.".to_string()),
    ];
    for (args, message) in cases {
        assert_eq!(
            h.error("create_account", args.clone()).await,
            message,
            "{args}"
        );
    }
    // A closed account's name is free: the demo's closed "Former bank".
    let ok = h
        .ok("create_account", with("Former bank", "checking", json!(0)))
        .await;
    assert_eq!(ok["status"], "confirmation_required", "{ok}");
    assert_eq!(writes_served(&h), 0);
    assert!(journal_lines(&h).is_empty());
}
