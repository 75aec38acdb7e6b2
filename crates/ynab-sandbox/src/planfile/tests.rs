//! Tests of `plan_from_file`: the demo plan survives a trip through YNAB's export shape, and each
//! kind of bad file gets a sentence naming what is wrong.

use super::*;
use crate::builder::{PlanBuilder, Tx, date};
use crate::compute;
use crate::demo::{DEMO_TODAY, demo_plan};
use crate::ids::id;
use serde_json::json;

/// A file in the temporary directory, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn with(name: &str, content: &str) -> TempFile {
        let path = std::env::temp_dir().join(format!(
            "ynab-sandbox-planfile-{}-{name}.json",
            std::process::id()
        ));
        std::fs::write(&path, content).expect("the temporary file is written");
        TempFile(path)
    }
    fn json(name: &str, value: &Value) -> TempFile {
        TempFile::with(name, &value.to_string())
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn export_of(plan: &PlanState) -> Value {
    serde_json::to_value(crate::server::export(plan)).expect("the export serialises")
}

fn error_of(name: &str, value: &Value) -> String {
    let file = TempFile::json(name, value);
    match plan_from_file(&file.0, DEMO_TODAY) {
        Ok(_) => panic!("{name}: the file was accepted"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn the_demo_plan_survives_the_export_shape() {
    let demo = demo_plan(DEMO_TODAY);
    let answer = json!({"data": {"plan": export_of(&demo), "server_knowledge": 9}});
    let file = TempFile::json("round-trip", &answer);
    let loaded = plan_from_file(&file.0, DEMO_TODAY).expect("the export loads");

    assert_eq!(compute::accounts(&loaded), compute::accounts(&demo));
    for month in ["2026-06-01", "2026-07-01", "2026-08-01", "2026-09-01"] {
        assert_eq!(
            compute::month(&loaded, month),
            compute::month(&demo, month),
            "{month}"
        );
    }
    assert_eq!(loaded.assigned, demo.assigned);
    assert_eq!(compute::transactions(&loaded), compute::transactions(&demo));
    assert_eq!(compute::scheduled(&loaded), compute::scheduled(&demo));
    assert_eq!(loaded.payees, demo.payees);
    assert_eq!(loaded.groups, demo.groups);
    assert_eq!(
        (loaded.id.as_str(), loaded.name.as_str()),
        (demo.id.as_str(), "Demo household")
    );
    assert_eq!(
        (loaded.first_month, loaded.last_month),
        (demo.first_month, demo.last_month)
    );
    assert_eq!(loaded.date_format, demo.date_format);
    assert_eq!(loaded.currency_format, demo.currency_format);
    assert_eq!(loaded.last_modified_on, demo.last_modified_on);
    assert_eq!(loaded.today, DEMO_TODAY);
    // Ages of Money come out the same too (June none, July 17, August 48, September 47).
    assert_eq!(compute::month(&loaded, "2026-08-01").age_of_money, Some(48));
}

#[test]
fn a_changed_plan_survives_the_sandboxs_own_export() {
    // `avenir-mcp call --demo` keeps its plan between calls this way: `Sandbox::export_answer`,
    // saved, then loaded back.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let (answer, changed) = runtime.block_on(async {
        let sandbox = crate::Sandbox::start(demo_plan(DEMO_TODAY), Default::default())
            .await
            .expect("the sandbox starts");
        let changed = sandbox.with_plan(|plan| {
            let category = plan.categories[0].id.to_string();
            plan.assigned
                .insert(("2026-09-01".to_string(), category), 123_450);
            plan.transactions.pop();
            plan.clone()
        });
        let answer = sandbox.export_answer().expect("the export serialises");
        assert_eq!(
            answer["data"]["server_knowledge"],
            json!(sandbox.server_knowledge())
        );
        (answer, changed)
    });
    let file = TempFile::json("changed-round-trip", &answer);
    let loaded = plan_from_file(&file.0, DEMO_TODAY).expect("the export loads");
    assert_eq!(loaded.assigned, changed.assigned);
    assert_eq!(
        compute::transactions(&loaded),
        compute::transactions(&changed)
    );
    assert_eq!(compute::accounts(&loaded), compute::accounts(&changed));
    assert_eq!(
        compute::month(&loaded, "2026-09-01"),
        compute::month(&changed, "2026-09-01")
    );
}

#[test]
fn the_bare_plan_and_the_data_object_are_accepted() {
    let demo = demo_plan(DEMO_TODAY);
    let plan = export_of(&demo);
    for (name, value) in [("bare", plan.clone()), ("data-only", json!({"plan": plan}))] {
        let file = TempFile::json(name, &value);
        let loaded = plan_from_file(&file.0, DEMO_TODAY).expect("loads");
        assert_eq!(
            compute::accounts(&loaded),
            compute::accounts(&demo),
            "{name}"
        );
    }
}

#[test]
fn splits_are_rebuilt_from_flat_lines() {
    let mut b = PlanBuilder::new("p", "Plan", date("2026-09-25"));
    b.account("acc-c", "Checking", "checking", true);
    b.group("grp-e", "Everyday");
    b.category("cat-food", "grp-e", "Food");
    b.category("cat-fun", "grp-e", "Fun");
    b.transaction(
        Tx::new(date("2026-09-09"), "acc-c", "Market", -30_000)
            .line(-20_000, Some("cat-food"), None)
            .line(-10_000, Some("cat-fun"), Some("a game")),
    );
    let plan = b.build();
    let file = TempFile::json("splits", &export_of(&plan));
    let loaded = plan_from_file(&file.0, DEMO_TODAY).expect("loads");
    let t = &loaded.transactions[0];
    assert_eq!(t.subtransactions.len(), 2);
    assert_eq!(t.subtransactions[1].id, id("tx-000/1"));
    assert_eq!(t.subtransactions[1].memo.as_deref(), Some("a game"));
    assert_eq!(
        compute::month_categories(&loaded, "2026-09-01"),
        compute::month_categories(&plan, "2026-09-01")
    );
}

/// A small plan written by hand, as an older export might be: no derived figures, no `internal`.
fn hand_written() -> Value {
    json!({"data": {"plan": {
        "id": "p-1", "name": "Mine",
        "accounts": [
            {"id": "a-1", "name": "Current", "type": "checking", "on_budget": true, "closed": false},
            {"id": "a-2", "name": "Old", "type": "cash", "on_budget": true, "closed": true,
             "deleted": true}
        ],
        "category_groups": [
            {"id": "g-0", "name": "Internal Master Category"},
            {"id": "g-1", "name": "Food"}
        ],
        "categories": [
            {"id": "c-rta", "category_group_id": "g-0", "name": "Inflow: Ready to Assign"},
            {"id": "c-food", "category_group_id": "g-1", "name": "Groceries"}
        ],
        "payees": [{"id": "p-shop", "name": "Shop"}],
        "transactions": [
            {"id": "t-1", "date": "2026-08-01", "amount": 500000, "cleared": "cleared",
             "approved": true, "account_id": "a-1", "category_id": "c-rta"},
            {"id": "t-2", "date": "2026-08-02", "amount": -20000, "cleared": "uncleared",
             "approved": true, "account_id": "a-1", "category_id": "c-food", "payee_id": "p-shop"},
            {"id": "t-3", "date": "2026-08-03", "amount": -1000, "cleared": "cleared",
             "approved": true, "account_id": "a-2", "deleted": true}
        ],
        "months": [
            {"month": "2026-08-01", "categories": [
                {"id": "c-food", "budgeted": 100000},
                {"id": "c-rta", "budgeted": 0},
                {"id": "c-gone", "budgeted": 5000}
            ]},
            {"month": "2026-09-01"}
        ]
    }}})
}

#[test]
fn a_hand_written_plan_loads_with_defaults() {
    let file = TempFile::json("hand", &hand_written());
    let p = plan_from_file(&file.0, DEMO_TODAY).expect("loads");
    assert_eq!(p.accounts.len(), 1, "the deleted account is left out");
    assert_eq!(
        p.transactions.len(),
        2,
        "the deleted transaction is left out"
    );
    assert_eq!(
        p.assigned,
        BTreeMap::from([(("2026-08-01".to_owned(), "c-food".to_owned()), 100_000)])
    );
    assert!(p.groups[0].internal && p.categories[0].internal);
    assert_eq!(p.first_month.to_string(), "2026-08-01");
    assert_eq!(p.last_month.to_string(), "2026-08-01");
    let august = compute::month(&p, "2026-08-01");
    assert_eq!(
        (august.income, august.budgeted, august.to_be_budgeted),
        (500_000, 100_000, 400_000)
    );
    let current = &compute::accounts(&p)[0];
    assert_eq!(
        (current.balance, current.uncleared_balance),
        (480_000, -20_000)
    );
}

#[test]
fn files_that_cannot_be_read_or_hold_no_plan_say_so() {
    let missing = std::env::temp_dir().join("ynab-sandbox-planfile-does-not-exist.json");
    let e = plan_from_file(&missing, DEMO_TODAY).expect_err("missing file");
    let text = e.to_string();
    assert!(text.starts_with("Cannot read the plan file "), "{text}");
    assert!(text.contains("does-not-exist.json"), "{text}");
    assert!(
        text.ends_with("Check the path and that you may read it."),
        "{text}"
    );

    let file = TempFile::with("not-json", "{\"data\": ");
    let text = plan_from_file(&file.0, DEMO_TODAY)
        .expect_err("not JSON")
        .to_string();
    assert!(text.contains("is not JSON ("), "{text}");
    assert!(text.ends_with("GET /plans/{plan_id} as it came."), "{text}");

    for (name, value) in [
        ("no-plan", json!({"data": {"server_knowledge": 3}})),
        ("array", json!([1, 2])),
        ("other", json!({"user": {"id": "u"}})),
    ] {
        let text = error_of(name, &value);
        assert!(
            text.contains("holds no plan: expected YNAB's answer"),
            "{name}: {text}"
        );
    }
}

#[test]
fn an_entity_missing_a_field_is_named() {
    let mut v = hand_written();
    if let Some(t) = v["data"]["plan"]["transactions"][1].as_object_mut() {
        t.remove("cleared");
    }
    let text = error_of("no-cleared", &v);
    assert!(
        text.contains("transaction 2 (id \"t-2\") lacks the required field `cleared`"),
        "{text}"
    );
    assert!(
        text.ends_with("Fix that entry, or export the plan again."),
        "{text}"
    );

    let mut v = hand_written();
    v["data"]["plan"]["accounts"][0]["on_budget"] = json!("yes");
    let text = error_of("bad-kind", &v);
    assert!(
        text.contains("account 1 (id \"a-1\") has a field of the wrong kind"),
        "{text}"
    );

    let mut v = hand_written();
    if let Some(plan) = v["data"]["plan"].as_object_mut() {
        plan.remove("name");
    }
    let text = error_of("no-name", &v);
    assert!(
        text.contains("the plan lacks the required field `name`"),
        "{text}"
    );

    let mut v = hand_written();
    v["data"]["plan"]["transactions"][0]["account_id"] = json!("a-9");
    let text = error_of("unknown-account", &v);
    assert!(
        text.contains("transaction \"t-1\" names the account \"a-9\", which is not among"),
        "{text}"
    );

    let mut v = hand_written();
    v["data"]["plan"]["months"][0]["categories"][0]
        .as_object_mut()
        .map(|c| c.remove("budgeted"));
    let text = error_of("no-budgeted", &v);
    assert!(
        text.contains(
            "category 1 of month 2026-08-01 (id \"c-food\") lacks the required field `budgeted`"
        ),
        "{text}"
    );

    let mut v = hand_written();
    v["data"]["plan"]["transactions"] = json!({"t-1": {}});
    assert!(error_of("not-a-list", &v).contains("`transactions` is not a list"));
}
