//! Tests of each kind of undo: reverted, changed since (left alone), and damaged details.
//! Every plan is a small fixture; details are the journal's JSON, parsed as the tool parses them.

use super::*;
use crate::logic::fixtures::Fixture;

fn fmt() -> MoneyFormat {
    MoneyFormat::default()
}

fn parsed(kind: &str, details: Value) -> Result<Details, Refusal> {
    parse(kind, &details, Vec::new(), false)
}

fn damaged(field: &str, expected: &'static str) -> Result<Details, Refusal> {
    Err(Refusal::Damaged {
        field: field.into(),
        expected,
    })
}

/// Checking with two transactions, categories Food and Fun, a payee RAIL CO.
fn plan() -> Fixture {
    let mut f = Fixture::new();
    f.account("a", "Checking", true);
    f.group("g-every", "Everyday");
    f.group("g-fun", "Fun");
    f.category("c-food", "g-every", "Food").budgeted = 150_000;
    f.category("c-fun", "g-fun", "Fun").budgeted = 50_000;
    f.tx("t1", "2026-09-10", -12_340, "a", "RAIL CO", Some("c-food"));
    f.tx("t2", "2026-09-11", -5_000, "a", "SHOP", Some("c-fun"));
    f
}

#[test]
fn categorize_reverts_what_is_still_as_set_and_leaves_the_rest() {
    let f = plan();
    let moves = |to: &str| CategoryMove {
        transaction_id: to.into(),
        from_category_id: Some("c-fun".into()),
        to_category_id: Some("c-food".into()),
    };
    let undo = categorize(&[moves("t1"), moves("t2")], &f.plan, &fmt());
    assert_eq!(undo.conflicts, ["t2"], "t2 is in Fun, not Food");
    assert_eq!(undo.question, "Undo: recategorise 1 transaction(s)?");
    assert_eq!(undo.lines, ["- 2026-09-10 RAIL CO -12.34: Food → Fun"]);
    assert_eq!(
        undo.reverts,
        [json!({"transaction_id": "t1", "category_before": "c-food", "category_after": "c-fun"})]
    );
    assert_eq!(undo.nothing, None);
    let undo = categorize(&[moves("t2"), moves("gone")], &f.plan, &fmt());
    assert_eq!(
        undo.nothing.as_deref(),
        Some("Nothing to change. 2 transaction(s) changed since and were left alone.")
    );
    assert_eq!(
        categorize(&[], &f.plan, &fmt()).nothing.as_deref(),
        Some("Nothing to change.")
    );
}

#[test]
fn an_intents_moves_are_parsed_from_its_details() {
    let details = json!({"moves": [
        {"transaction_id": "t1", "from_category_id": null, "to_category_id": "c-food"}]});
    assert_eq!(
        parse("categorize", &details, Vec::new(), true),
        Ok(Details::Categorize {
            moves: vec![CategoryMove {
                transaction_id: "t1".into(),
                from_category_id: None,
                to_category_id: Some("c-food".into()),
            }]
        })
    );
    assert_eq!(
        parse(
            "categorize",
            &json!({"moves": [{"transaction_id": "t1", "to_category_id": "c"}]}),
            Vec::new(),
            true
        ),
        damaged("moves.0.from_category_id", "null or a string")
    );
    assert_eq!(
        parse("categorize", &json!({}), Vec::new(), true),
        damaged("moves", "a list of moves")
    );
}

#[test]
fn budget_sets_the_amount_back_unless_it_changed() {
    let f = plan();
    let Ok(Details::Budget { month, change }) = parsed(
        "budget",
        json!({"month": "2026-09-01", "category_id": "c-food", "from": 120_000, "to": 150_000}),
    ) else {
        panic!("a budget operation");
    };
    let undo = budget(month, &change, &f.plan.categories, &fmt());
    assert_eq!(
        undo.question,
        "Undo: set Food for 2026-09-01 back to 120.00?"
    );
    assert_eq!(
        undo.reverts,
        [json!({"category": "c-food", "month": "2026-09-01", "from": 150_000, "to": 120_000})]
    );
    assert!(undo.conflicts.is_empty() && undo.nothing.is_none());
    let later = AssignedChange {
        to: 140_000,
        ..change
    };
    let undo = budget(month, &later, &f.plan.categories, &fmt());
    assert_eq!(undo.conflicts, ["c-food"]);
    assert_eq!(
        undo.nothing.as_deref(),
        Some("The amount changed since: left alone.")
    );
}

#[test]
fn budget_details_missing_or_mistyped_refuse() {
    assert_eq!(
        parsed("budget", json!({"category_id": "c", "from": 1, "to": 2})),
        Err(Refusal::NoMonth)
    );
    assert_eq!(
        parsed(
            "budget",
            json!({"month": "2026-09-01", "category_id": "c", "to": 2})
        ),
        damaged("from", "an amount in milliunits")
    );
    assert_eq!(
        parsed(
            "budget",
            json!({"month": "2026-09-01", "category_id": 7, "from": 1, "to": 2})
        ),
        damaged("category_id", "a string")
    );
    assert_eq!(
        Refusal::NoMonth.message("abc", "budget"),
        "Operation abc names no month."
    );
    assert_eq!(
        Refusal::Damaged {
            field: "from".into(),
            expected: "an amount in milliunits"
        }
        .message("abc", "budget"),
        "Operation abc (budget) cannot be undone here: its journal entry is damaged (from is \
missing or is not an amount in milliunits); fix that line of the journal or change it back in YNAB."
    );
}

fn move_details(source_to: Milliunits) -> (CalendarMonth, AssignedChange, AssignedChange) {
    let details = json!({"month": "2026-09-01", "changes": [
        {"category_id": "c-food", "from": 170_000, "to": source_to},
        {"category_id": "c-fun", "from": 30_000, "to": 50_000}]});
    let Ok(Details::Move {
        month,
        source,
        target,
    }) = parsed("move", details)
    else {
        panic!("a move");
    };
    (month, source, target)
}

#[test]
fn move_sets_both_back_or_leaves_both_alone() {
    let f = plan();
    let (m, source, target) = move_details(150_000);
    let undo = move_money(m, &source, &target, &f.plan.categories, false, &fmt());
    assert_eq!(
        undo.question,
        "Undo: move 20.00 back from Fun to Food for 2026-09-01?"
    );
    assert_eq!(undo.reverts.len(), 2);
    assert!(undo.nothing.is_none());
    let (m, source, target) = move_details(160_000);
    let undo = move_money(m, &source, &target, &f.plan.categories, false, &fmt());
    assert_eq!(undo.conflicts, ["c-food"]);
    assert_eq!(
        undo.nothing.as_deref(),
        Some("An amount changed since: both left alone.")
    );
    // an interrupted move that applied its target only: that half goes back (D14)
    let undo = move_money(m, &source, &target, &f.plan.categories, true, &fmt());
    assert!(undo.nothing.is_none());
    assert_eq!(undo.question, "Undo: set Fun for 2026-09-01 back to 30.00?");
    assert!(matches!(undo.revert, Revert::Budget { ref side, .. } if side.category_id == "c-fun"));
}

#[test]
fn move_details_need_two_whole_sides() {
    assert_eq!(
        parsed(
            "move",
            json!({"month": "2026-09-01", "changes": [{"category_id": "c", "from": 1, "to": 2}]})
        ),
        Err(Refusal::NotTwoSides)
    );
    assert_eq!(
        parsed("move", json!({"month": "2026-09-01"})),
        Err(Refusal::NotTwoSides)
    );
    assert_eq!(
        parsed(
            "move",
            json!({"month": "2026-09-01", "changes": [
                {"category_id": "c", "from": 1, "to": 2}, {"category_id": "d", "from": "1", "to": 2}]})
        ),
        damaged("changes.1.from", "an amount in milliunits")
    );
}

#[test]
fn create_deletes_what_is_still_there() {
    let f = plan();
    let undo = create(vec!["t1".into(), "gone".into()], &f.plan);
    assert_eq!(
        undo.revert,
        Revert::Create {
            ids: vec!["t1".into()]
        }
    );
    assert_eq!(undo.conflicts, ["gone"]);
    assert_eq!(
        undo.question,
        "Undo: delete the 1 transaction(s) this operation created?"
    );
    let undo = create(vec!["gone".into()], &f.plan);
    assert_eq!(
        undo.nothing.as_deref(),
        Some("Already deleted: nothing to undo.")
    );
    assert_eq!(
        parsed("create", json!({"transaction_ids": ["a", "b"]})),
        Ok(Details::Create(Created::Ids(vec!["a".into(), "b".into()])))
    );
    assert_eq!(
        parsed("create", json!({"transaction_ids": ["a", 3]})),
        damaged("transaction_ids", "a list of ids")
    );
    assert_eq!(
        parsed("create", json!({})),
        damaged("transaction_ids", "a list of ids")
    );
    // an intent holds no ids yet: its items are recognised by digest (D31)
    assert_eq!(
        parse(
            "create",
            &json!({"account_id": "a", "item_digests": ["d1"], "digest_salt": "s",
                    "server_knowledge": 7}),
            Vec::new(),
            true
        ),
        Ok(Details::Create(Created::ByDigest(Recognition {
            account_id: "a".into(),
            item_digests: vec!["d1".into()],
            digest_salt: Some("s".into()),
            server_knowledge: Some(7),
        })))
    );
    // an intent written before salts: its digests are of the items alone
    assert_eq!(
        parse(
            "create",
            &json!({"account_id": "a", "item_digests": ["d1"]}),
            Vec::new(),
            true
        ),
        Ok(Details::Create(Created::ByDigest(Recognition {
            account_id: "a".into(),
            item_digests: vec!["d1".into()],
            digest_salt: None,
            server_knowledge: None,
        })))
    );
    assert_eq!(
        parse(
            "create",
            &json!({"account_id": "a", "item_digests": ["d1"], "digest_salt": 5}),
            Vec::new(),
            true
        ),
        damaged("digest_salt", "null or a string")
    );
    assert_eq!(
        parse("create", &json!({"account_id": "a"}), Vec::new(), true),
        damaged("item_digests", "a list of ids")
    );
    assert_eq!(
        parse("create", &json!({"item_digests": ["d1"]}), Vec::new(), true),
        damaged("account_id", "a string")
    );
    assert_eq!(
        parse(
            "create",
            &json!({"account_id": "a", "item_digests": [], "server_knowledge": "7"}),
            Vec::new(),
            true
        ),
        damaged("server_knowledge", "an integer")
    );
}

#[test]
fn flag_puts_back_the_flags_still_as_set() {
    let mut f = plan();
    f.plan.transactions[0].flag_color = Some("red".into());
    f.plan.transactions[1].flag_color = Some("blue".into());
    let Ok(Details::Flag { changes }) = parsed(
        "flag",
        json!({"changes": [
            {"transaction_id": "t1", "from": "", "to": "red"},
            {"transaction_id": "t2", "from": null, "to": "red"}]}),
    ) else {
        panic!("a flag operation");
    };
    let undo = flag(&changes, &f.plan);
    assert_eq!(
        undo.revert,
        Revert::Flags {
            back: vec![("t1".into(), Some("red".into()), None)]
        }
    );
    assert_eq!(undo.conflicts, ["t2"]);
    let undo = flag(&changes[1..], &f.plan);
    assert_eq!(
        undo.nothing.as_deref(),
        Some("Every flag changed since: left alone.")
    );
    assert_eq!(
        parsed(
            "flag",
            json!({"changes": [{"transaction_id": "t1", "to": "red"}]})
        ),
        damaged("changes.0.from", "null or a string")
    );
    assert_eq!(
        parsed("flag", json!({})),
        damaged("changes", "a list of flag changes")
    );
}

#[test]
fn payee_is_named_back_unless_renamed_since() {
    let mut f = plan();
    f.plan.payees[0].name = "Rail company".into();
    let undo = payee("payee:RAIL CO", "RAIL CO", "Rail company", &f.plan);
    assert_eq!(undo.question, "Undo: name the payee ‘RAIL CO’ again?");
    assert!(undo.nothing.is_none());
    let undo = payee("payee:RAIL CO", "RAIL CO", "Rail Co.", &f.plan);
    assert_eq!(undo.conflicts, ["payee:RAIL CO"]);
    assert_eq!(
        undo.nothing.as_deref(),
        Some("The payee was renamed since: left alone.")
    );
    assert_eq!(
        parsed("payee", json!({"payee_id": "p", "from": "A"})),
        damaged("to", "a string")
    );
}

#[test]
fn reconcile_clears_what_is_still_reconciled_and_deletes_the_adjustment() {
    let mut f = plan();
    f.plan.transactions[0].cleared = "reconciled".into();
    let undo = reconcile(vec!["t1".into(), "t2".into()], Some("t2".into()), &f.plan);
    assert_eq!(
        undo.question,
        "Undo reconciliation: mark 1 transaction(s) back to cleared and delete the balance adjustment?"
    );
    assert_eq!(undo.conflicts, ["t2"]);
    let undo = reconcile(vec!["t2".into()], Some("gone".into()), &f.plan);
    assert_eq!(
        undo.nothing.as_deref(),
        Some("Every transaction changed since: left alone.")
    );
    assert_eq!(
        parsed("reconcile", json!({"reconciled_ids": ["t1"]})),
        Ok(Details::Reconcile {
            reconciled_ids: vec!["t1".into()],
            adjustment_id: None,
            recognition: None,
        }),
        "a reconciliation without adjustment"
    );
    // an intent interrupted after its adjustment finds it by digest
    let intent = json!({"account_id": "a", "reconciled_ids": [], "adjustment_id": null,
                        "item_digests": ["d"]});
    assert!(matches!(
        parse("reconcile", &intent, Vec::new(), true),
        Ok(Details::Reconcile { recognition: Some(ref r), .. }) if r.item_digests == ["d"]
    ));
    assert_eq!(
        parsed(
            "reconcile",
            json!({"reconciled_ids": ["t1"], "adjustment_id": 4})
        ),
        damaged("adjustment_id", "null or a string")
    );
    assert_eq!(
        parsed("reconcile", json!({"adjustment_id": null})),
        damaged("reconciled_ids", "a list of ids")
    );
}

#[test]
fn category_gets_its_name_and_group_back_unless_changed() {
    let f = plan();
    let Ok(Details::Category(edit)) = parsed(
        "category",
        json!({"category_id": "c-fun", "name_before": "Tennis", "group_before": "g-every",
               "name_after": "Fun", "group_after": "g-fun"}),
    ) else {
        panic!("a category operation");
    };
    let undo = category(&edit, &f.plan);
    assert_eq!(
        undo.question,
        "Undo: name the category ‘Fun’ ‘Tennis’ in Everyday again?"
    );
    assert!(undo.nothing.is_none());
    let renamed = CategoryEdit {
        name_after: "Sport".into(),
        ..edit
    };
    assert_eq!(
        category(&renamed, &f.plan).nothing.as_deref(),
        Some("The category changed since: left alone.")
    );
    assert_eq!(
        parsed("category", json!({"category_id": "c"})),
        damaged("name_before", "a string")
    );
}

#[test]
fn target_is_restored_unless_changed_and_needs_its_fields() {
    let f = plan();
    let food = &f.plan.categories[0];
    let after = crate::logic::targets::describe(food, &fmt());
    let fields = json!({"goal_target": null});
    let undo = target("c-food", &after, &fields, &f.plan, &fmt());
    assert_eq!(undo.question, "Undo: set the target of Food back?");
    assert!(undo.nothing.is_none());
    let undo = target("c-food", "something else", &fields, &f.plan, &fmt());
    assert_eq!(undo.conflicts, ["c-food"]);
    assert_eq!(
        undo.nothing.as_deref(),
        Some("The target changed since: left alone.")
    );
    assert_eq!(
        parsed("target", json!({"category_id": "c-food", "after": "x"})),
        Err(Refusal::TargetNotRestorable)
    );
    assert_eq!(
        parsed("target", json!({"category_id": "c-food", "undo": {}})),
        damaged("after", "a string")
    );
}

#[test]
fn approve_unapproves_what_is_still_approved() {
    let mut f = plan();
    f.plan.transactions[1].approved = false;
    let undo = approve(vec!["t1".into(), "t2".into()], &f.plan);
    assert_eq!(
        undo.revert,
        Revert::Approve {
            transaction_ids: vec!["t1".into()]
        }
    );
    assert_eq!(undo.conflicts, ["t2"]);
    assert_eq!(
        approve(vec!["t2".into()], &f.plan).nothing.as_deref(),
        Some("Every transaction changed since: left alone.")
    );
    assert_eq!(
        parsed("approve", json!({"transaction_ids": "t1"})),
        damaged("transaction_ids", "a list of ids")
    );
    assert_eq!(
        parsed("import", json!({})),
        Err(Refusal::Kind("import".into()))
    );
}
