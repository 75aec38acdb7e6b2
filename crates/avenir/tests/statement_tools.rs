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
