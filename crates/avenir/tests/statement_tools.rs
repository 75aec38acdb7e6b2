//! `compare_statement` (`docs/contract/reads.md` §21) through the MCP protocol on the demo plan:
//! each sample statement of `samples/statements/` compares exactly as the file implies, given as
//! text or as a path; bad input is answered by its own sentence with nothing written; a hosted
//! server reads no path.

use crate::common;

use common::{Era, Harness, Options, id, start, start_options, writes_served};
use serde_json::{Value, json};

const SAMPLES: [&str; 5] = [
    "checking.csv",
    "checking.ofx",
    "checking-v2.ofx",
    "checking.qif",
    "checking.camt053.xml",
];

fn sample_path(name: &str) -> String {
    format!(
        "{}/../../samples/statements/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn sample_text(name: &str) -> String {
    std::fs::read_to_string(sample_path(name)).unwrap_or_default()
}

fn checking() -> String {
    id("acc-checking")
}

async fn compare(h: &Harness, arguments: Value) -> Value {
    h.ok("compare_statement", arguments).await
}

/// (date, amount, payee) of each entry of `list`; `side` picks the statement or YNAB side of a
/// mismatch.
fn rows(list: &Value) -> Vec<(String, f64, String)> {
    list.as_array()
        .map(|items| {
            items
                .iter()
                .map(|e| {
                    (
                        e["date"].as_str().unwrap_or("").to_string(),
                        e["amount"].as_f64().unwrap_or(f64::NAN),
                        e["payee"].as_str().unwrap_or("").to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test]
async fn every_sample_format_shows_the_two_missing_lines_and_the_duplicate() {
    let h = start(Era::Modern, false).await;
    let checking = checking();
    for name in SAMPLES {
        let answer = compare(
            &h,
            json!({"account_id": checking, "statement": sample_text(name)}),
        )
        .await;
        let counts = &answer["counts"];
        assert_eq!(
            (
                &counts["lines"],
                &counts["matched"],
                &counts["missing_in_ynab"],
                &counts["extra_in_ynab"],
                &counts["mismatched"]
            ),
            (&json!(13), &json!(11), &json!(2), &json!(1), &json!(0)),
            "{name}: {answer}"
        );
        let missing = rows(&answer["missing_in_ynab"]);
        let amounts: Vec<(&str, f64)> = missing.iter().map(|(d, a, _)| (d.as_str(), *a)).collect();
        assert_eq!(
            amounts,
            [("2026-09-22", -12.3), ("2026-09-24", -2.5)],
            "{name}"
        );
        assert!(missing[0].2.contains("PHARMACIE"), "{name}: {missing:?}");
        let extra = rows(&answer["extra_in_ynab"]);
        assert_eq!(extra.len(), 1, "{name}");
        assert_eq!((extra[0].0.as_str(), extra[0].1), ("2026-09-19", -71.86));
        assert!(extra[0].2.contains("MARKET FRESH"), "{name}: {extra:?}");
        assert_eq!(answer["currency"], "EUR");
        assert_eq!(answer["account"], "Checking");
        assert!(answer["matched"].is_null(), "summary by default");
        let balance = &answer["balance"];
        if name == "checking.qif" {
            // QIF carries no balance.
            assert!(balance.is_null(), "{name}: {balance}");
        } else {
            // 3,385.56 at the bank, 3,328.50 cleared in YNAB: the two lines YNAB lacks (−14.80)
            // and the duplicate it holds (+71.86) are the whole gap.
            assert_eq!(balance["statement_closing"], 3385.56, "{name}: {balance}");
            assert_eq!(balance["ynab_cleared"], 3328.5, "{name}");
            assert_eq!(balance["gap"], 57.06, "{name}");
            assert_eq!(balance["missing_in_ynab"], -14.8, "{name}");
            assert_eq!(balance["extra_cleared_in_ynab"], 71.86, "{name}");
            assert_eq!(balance["older"], 0.0, "{name}");
        }
    }
    assert_eq!(writes_served(&h), 0, "a comparison writes nothing");
}

#[tokio::test]
async fn a_path_reads_the_file_and_full_detail_lists_every_pair() {
    let h = start(Era::Legacy, false).await;
    let answer = compare(
        &h,
        json!({"account_id": checking(), "path": sample_path("checking.csv"), "detail": "full"}),
    )
    .await;
    assert_eq!(answer["format"], "CSV");
    assert_eq!(answer["statement_account"], "…0143");
    let pairs = answer["matched"].as_array().cloned().unwrap_or_default();
    assert_eq!(pairs.len(), 11, "{answer}");
    assert!(pairs.iter().all(|p| p["days_apart"].as_i64() == Some(0)));
    // The CSV's header was recognised, not declared: the answer says so, and how to override it.
    let assumptions = answer["assumptions"].to_string();
    assert!(assumptions.contains("columns"), "{assumptions}");
}

#[tokio::test]
async fn a_hosted_server_reads_no_path_and_bad_input_gets_its_own_sentence() {
    let mut options = Options::new(Era::Modern);
    options.settings.hosted = true;
    let h = start_options(options).await;
    let checking = checking();
    let said = h
        .error(
            "compare_statement",
            json!({"account_id": checking, "path": sample_path("checking.csv")}),
        )
        .await;
    assert_eq!(
        said,
        "This server reads no file from its own disk: pass the statement's text as statement instead of path."
    );
    let cases = [
        (json!({"account_id": checking}), "statement"),
        (
            json!({"account_id": checking, "statement": "", "path": "/tmp/x.csv"}),
            "not both",
        ),
        (
            json!({"account_id": checking, "statement": "   \n  \n"}),
            "no",
        ),
        (
            json!({"account_id": "no-such-account", "statement": sample_text("checking.qif")}),
            "list_accounts",
        ),
        (
            json!({"account_id": checking, "statement": "Date;Amount;Payee\n12.09.2026;12,3x;SHOP\n"}),
            "line 2",
        ),
        (
            json!({"account_id": checking, "statement": sample_text("checking.ofx").replace("<CURDEF>EUR", "<CURDEF>USD")}),
            "in USD, the plan in EUR",
        ),
        (
            json!({"account_id": checking, "statement": sample_text("checking.qif"), "date_order": "sideways"}),
            "day_first",
        ),
    ];
    for (arguments, expected) in cases {
        let said = h.error("compare_statement", arguments.clone()).await;
        assert!(said.contains(expected), "{arguments}: {said}");
    }
    assert_eq!(writes_served(&h), 0);
}

#[tokio::test]
async fn a_file_over_the_cap_or_binary_is_refused_before_it_is_read() {
    let h = start(Era::Modern, false).await;
    let dir = std::env::temp_dir().join(format!("avenir-statements-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a directory");
    let big = dir.join("big.csv");
    std::fs::write(&big, vec![b'a'; avenir::statement::MAX_BYTES + 1]).expect("written");
    let binary = dir.join("statement.pdf");
    std::fs::write(&binary, b"%PDF-1.7\n\x00\x01\x02binary").expect("written");
    let said = h
        .error(
            "compare_statement",
            json!({"account_id": checking(), "path": big.to_string_lossy()}),
        )
        .await;
    assert!(said.contains("MiB") || said.contains("bytes"), "{said}");
    let said = h
        .error(
            "compare_statement",
            json!({"account_id": checking(), "path": binary.to_string_lossy()}),
        )
        .await;
    assert!(said.contains("PDF"), "{said}");
    let said = h
        .error(
            "compare_statement",
            json!({"account_id": checking(), "path": dir.to_string_lossy()}),
        )
        .await;
    assert!(said.contains("not a regular file"), "{said}");
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(writes_served(&h), 0);
}

/// The live transactions of the demo's Checking that carry an import id of the statement's form.
async fn imported(h: &Harness) -> Vec<ynab::models::Transaction> {
    common::all_transactions(h, &id("demo-budget"))
        .await
        .into_iter()
        .filter(|t| !t.deleted && t.account_id == checking())
        .filter(|t| {
            t.import_id
                .as_deref()
                .is_some_and(|i| i.starts_with("YNAB:"))
        })
        .collect()
}

#[tokio::test]
async fn the_two_missing_lines_are_imported_on_the_three_paths_once_and_undone() {
    let paths = [
        (Era::Modern, true),
        (Era::Legacy, true),
        (Era::Legacy, false),
    ];
    for (era, asking) in paths {
        let asker = common::Asker::new(common::Reply::Yes);
        let mut options = Options::new(era);
        options.asker = asking.then(|| asker.clone());
        let h = start_options(options).await;
        let label = format!("{era:?}, asking {asking}");
        assert!(imported(&h).await.is_empty(), "{label}: before");
        let args = json!({"plan_id": "last-used", "account_id": checking(), "statement": sample_text("checking.ofx")});

        let done = common::confirmed(&h, asking, "import_statement", args.clone()).await;
        assert_eq!(done["status"], "applied", "{label}: {done}");
        let op = done["operation_id"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        assert_eq!(
            done["message"],
            format!(
                "Imported. suggest_categories lists them for a category; they wait for approval in YNAB. undo_operation with operation_id {op} deletes them."
            )
        );
        if asking {
            let question = asker.questions().last().cloned().unwrap_or_default();
            assert!(
                question.starts_with("Import 2 statement line(s) missing from Checking?\n- 2026-09-22 CB PHARMACIE DU MARCHE"),
                "{label}: {question}"
            );
            assert_eq!(question.lines().count(), 3, "{question}");
        }
        // After: the two lines, as YNAB's own import would have made them.
        let mut after: Vec<_> = imported(&h)
            .await
            .into_iter()
            .map(|t| {
                (
                    t.import_id.unwrap_or_default(),
                    t.amount,
                    t.cleared,
                    t.approved,
                    t.category_id,
                )
            })
            .collect();
        after.sort();
        assert_eq!(
            after,
            [
                (
                    "YNAB:-12300:2026-09-22:1".to_string(),
                    -12_300,
                    "cleared".to_string(),
                    false,
                    None
                ),
                (
                    "YNAB:-2500:2026-09-24:1".to_string(),
                    -2_500,
                    "cleared".to_string(),
                    false,
                    None
                ),
            ],
            "{label}"
        );
        // Compared again: nothing missing; imported again: nothing to do, nothing sent.
        let compared = h
            .ok(
                "compare_statement",
                json!({"account_id": checking(), "statement": sample_text("checking.ofx")}),
            )
            .await;
        assert_eq!(
            compared["counts"]["missing_in_ynab"], 0,
            "{label}: {compared}"
        );
        let writes = writes_served(&h);
        let again = h.ok("import_statement", args.clone()).await;
        assert_eq!(again["status"], "nothing_to_do", "{label}: {again}");
        assert_eq!(
            writes_served(&h),
            writes,
            "{label}: nothing sent the second time"
        );

        // Undo deletes both; the statement's lines are missing again.
        let undo = json!({"plan_id": "last-used", "operation_id": op});
        let undone = common::confirmed(&h, asking, "undo_operation", undo).await;
        assert_eq!(undone["status"], "applied", "{label}: {undone}");
        assert!(imported(&h).await.is_empty(), "{label}: after undo");
    }
}

#[tokio::test]
async fn a_stale_answer_is_refused_and_bad_input_writes_nothing() {
    let asker = common::Asker::new(common::Reply::Yes);
    let mut options = Options::new(Era::Modern);
    options.asker = Some(asker.clone());
    let h = start_options(options).await;
    // While the person is asked, another app enters the pharmacy payment by hand.
    let other = std::sync::Arc::new(h.other_app());
    asker.meddle_with(std::sync::Arc::new(move || {
        let other = other.clone();
        Box::pin(async move {
            let entered = ynab::writes::NewTransaction {
                account_id: id("acc-checking"),
                date: "2026-09-22".into(),
                amount: -12_300,
                payee_name: Some("Pharmacy".into()),
                ..ynab::writes::NewTransaction::default()
            };
            let _ = other
                .create_transactions(&id("demo-budget"), &[entered])
                .await;
        })
    }));
    let args = json!({"plan_id": "last-used", "account_id": checking(), "statement": sample_text("checking.csv")});
    assert_eq!(h.error("import_statement", args).await, common::E_C4);
    assert!(imported(&h).await.is_empty(), "nothing imported");

    let writes = writes_served(&h);
    for (arguments, expected) in [
        (
            json!({"plan_id": "last-used", "account_id": checking(), "statement": "Date;Amount\n12.09.2026;abc\n"}),
            "line 2",
        ),
        (
            json!({"plan_id": "last-used", "account_id": checking(), "statement": sample_text("checking.ofx").replace("<CURDEF>EUR", "<CURDEF>GBP")}),
            "in GBP",
        ),
        (
            json!({"plan_id": "last-used", "account_id": checking(), "statement": "Date,Amount,Payee\n2026-12-01,-5.00,LATER\n"}),
            "after today",
        ),
    ] {
        let said = h.error("import_statement", arguments.clone()).await;
        assert!(said.contains(expected), "{arguments}: {said}");
    }
    assert_eq!(writes_served(&h), writes, "no write served for bad input");
}

/// Each live transaction of the demo's Checking: id → cleared status.
async fn statuses(h: &Harness) -> std::collections::BTreeMap<String, String> {
    common::live_transactions(h, &id("demo-budget"))
        .await
        .into_iter()
        .filter(|t| t.account_id == checking())
        .map(|t| (t.id.to_string(), t.cleared))
        .collect()
}

/// YNAB's cleared balance of the demo's Checking, in milliunits.
async fn cleared_balance(h: &Harness) -> i64 {
    common::live_transactions(h, &id("demo-budget"))
        .await
        .into_iter()
        .filter(|t| t.account_id == checking() && t.cleared != "uncleared")
        .map(|t| t.amount)
        .sum()
}

#[tokio::test]
async fn reconcile_happens_only_when_the_closing_balance_agrees_and_undo_puts_it_all_back() {
    let asker = common::Asker::new(common::Reply::Yes);
    let mut options = Options::new(Era::Modern);
    options.asker = Some(asker.clone());
    let h = start_options(options).await;
    let args = json!({"plan_id": "last-used", "account_id": checking(),
                      "statement": sample_text("checking.camt053.xml"), "reconcile": true});
    let before = statuses(&h).await;

    // QIF carries no closing balance: nothing to reconcile with, refused before anything is sent.
    let qif = json!({"plan_id": "last-used", "account_id": checking(),
                     "statement": sample_text("checking.qif"), "reconcile": true});
    let refused = h.error("import_statement", qif).await;
    assert!(
        refused.starts_with("The statement gives no closing balance, so the account cannot be reconciled with it. Nothing was imported;"),
        "{refused}"
    );
    assert_eq!(writes_served(&h), 0);

    // The duplicate MARKET FRESH −71.86 stays in YNAB: importing the two lines leaves YNAB 71.86
    // short of the bank, so the account is not reconciled, and the person is told before saying yes.
    let done = h.ok("import_statement", args.clone()).await;
    assert_eq!(done["status"], "applied", "{done}");
    let question = asker.questions().last().cloned().unwrap_or_default();
    assert!(
        question.starts_with("Import 2 statement line(s) missing from Checking?\n"),
        "{question}"
    );
    assert!(
        question.ends_with("- the account is NOT reconciled: YNAB would still differ from the bank's closing balance of 3385.56 by 71.86"),
        "{question}"
    );
    assert_eq!(done["reconcile"]["reconciled"], false, "{done}");
    assert_eq!(done["reconcile"]["gap_left"], 71.86);
    assert_eq!(done["reconcile"]["extra_cleared_in_ynab"], 71.86);
    let after = statuses(&h).await;
    assert_eq!(after.len(), before.len() + 2, "the two lines are imported");
    assert!(
        before
            .iter()
            .all(|(id, status)| after.get(id) == Some(status)),
        "nothing reconciled"
    );
    let op = done["operation_id"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let undone = h.ok("undo_operation", json!({"operation_id": op})).await;
    assert_eq!(undone["status"], "applied", "{undone}");
    assert_eq!(statuses(&h).await, before);

    // The person deletes the duplicate: now the closing balance agrees once imported.
    let compared = h
        .ok(
            "compare_statement",
            json!({"account_id": checking(), "statement": sample_text("checking.camt053.xml")}),
        )
        .await;
    let duplicate = compared["extra_in_ynab"][0]["transaction_id"].clone();
    let deleted = h
        .ok(
            "delete_transactions",
            json!({"transaction_ids": [duplicate]}),
        )
        .await;
    assert_eq!(deleted["status"], "applied", "{deleted}");
    let before = statuses(&h).await;
    let done = h.ok("import_statement", args.clone()).await;
    assert_eq!(done["status"], "applied", "{done}");
    let question = asker.questions().last().cloned().unwrap_or_default();
    assert!(
        question.starts_with(
            "Import 2 statement line(s) missing from Checking and reconcile it with the bank?\n"
        ),
        "{question}"
    );
    let op = done["operation_id"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert_eq!(
        done["message"],
        format!(
            "Imported, and the account reconciled at the bank's closing balance of 3385.56. suggest_categories lists the new lines for a category; they wait for approval in YNAB. undo_operation with operation_id {op} deletes them."
        )
    );
    assert_eq!(done["reconcile"]["reconciled"], true, "{done}");
    let after = statuses(&h).await;
    assert_eq!(cleared_balance(&h).await, 3_385_560, "at the bank's figure");
    assert!(
        after.values().all(|s| s != "cleared"),
        "every cleared transaction is reconciled: {after:?}"
    );
    assert_eq!(
        after.values().filter(|s| *s == "reconciled").count(),
        before.values().filter(|s| *s != "uncleared").count() + 2,
        "the imported lines too"
    );
    let journal = common::journal_lines(&h);
    let line = journal
        .iter()
        .rev()
        .find(|l| l["operation_id"] == op.as_str());
    assert_eq!(
        line.map(|l| l["kind"].clone()),
        Some(json!("reconcile")),
        "{journal:?}"
    );

    // Undo deletes the two lines and puts every status back.
    let undone = h.ok("undo_operation", json!({"operation_id": op})).await;
    assert_eq!(undone["status"], "applied", "{undone}");
    assert_eq!(statuses(&h).await, before);
}

#[tokio::test]
async fn an_imported_line_of_a_known_payee_comes_with_its_category_for_apply_categories() {
    let h = start(Era::Modern, true).await;
    // The sample, and a RAIL CO ticket the bank posted that YNAB lacks.
    let statement = format!(
        "{}24.09.2026;24.09.2026;RAIL CO;-12,00;3.373,56\n",
        sample_text("checking.csv")
    );
    let args = json!({"plan_id": "last-used", "account_id": checking(), "statement": statement});
    let preview = h.ok("import_statement", args.clone()).await;
    assert_eq!(preview["status"], "confirmation_required", "{preview}");
    let suggested = preview["suggested_categories"].clone();
    assert_eq!(suggested.as_array().map(Vec::len), Some(1), "{preview}");
    let line = suggested[0]["line"].as_u64().unwrap_or(u64::MAX) as usize;
    assert_eq!(
        preview["transactions"][line]["payee"], "RAIL CO",
        "{preview}"
    );
    assert_eq!(suggested[0]["category_name"], "Transport");
    assert_eq!(suggested[0]["confidence"], 1.0);
    assert!(suggested[0]["transaction_id"].is_null(), "not created yet");
    let done = h
        .ok(
            "import_statement",
            common::with_code(args, &preview["confirmation"]),
        )
        .await;
    assert_eq!(done["status"], "applied", "{done}");
    assert!(
        done["message"]
            .as_str()
            .is_some_and(|m| m.contains(" suggested_categories already names one for 1 of them, for apply_categories (a change of its own, confirmed like any other).")),
        "{done}"
    );
    let suggested = &done["suggested_categories"][0];
    let created = &done["created_ids"][line];
    assert_eq!(&suggested["transaction_id"], created, "{done}");

    // What an agent does with it: apply_categories with the pair, and the line has its category.
    let category = suggested["category_id"].clone();
    let apply = json!({"plan_id": "last-used",
                       "assignments": [{"transaction_id": created, "category_id": category}]});
    let applied = common::confirmed(&h, false, "apply_categories", apply).await;
    assert_eq!(applied["status"], "applied", "{applied}");
    let now = common::live_transactions(&h, &id("demo-budget")).await;
    let line = now.iter().find(|t| Some(t.id.as_str()) == created.as_str());
    assert_eq!(
        line.and_then(|t| t.category_id.clone()).as_deref(),
        category.as_str()
    );
}
