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

/// The refusal of a detail the parser reads by hand: missing, or not `expected`.
fn damaged(field: &str, expected: &'static str) -> Result<Details, Refusal> {
    Err(details::damaged(field, expected))
}

/// The refusal of a detail read as its kind's record: `problem` as serde's error says it.
fn damaged_record(field: &str, problem: &str) -> Result<Details, Refusal> {
    Err(Refusal::Damaged {
        field: field.into(),
        problem: problem.into(),
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
    let undo = categorize(&[moves("t1"), moves("t2")], &f.plan, &fmt(), Applied::Fully);
    assert_eq!(undo.conflicts, ["t2"], "t2 is in Fun, not Food");
    assert_eq!(undo.question, "Undo: recategorise 1 transaction(s)?");
    assert_eq!(undo.lines, ["- 2026-09-10 RAIL CO -12.34: Food → Fun"]);
    assert_eq!(
        undo.reverts,
        [json!({"transaction_id": "t1", "category_before": "c-food", "category_after": "c-fun"})]
    );
    assert_eq!(undo.nothing, None);
    let undo = categorize(
        &[moves("t2"), moves("gone")],
        &f.plan,
        &fmt(),
        Applied::Fully,
    );
    assert_eq!(
        undo.nothing.as_deref(),
        Some("Nothing to change. 2 transaction(s) changed since and were left alone.")
    );
    assert_eq!(
        categorize(&[], &f.plan, &fmt(), Applied::Fully)
            .nothing
            .as_deref(),
        Some("Nothing to change.")
    );
}

#[test]
fn an_intents_moves_are_parsed_from_its_details() {
    let details = json!({"moves": [
        {"transaction_id": "t1", "from_category_id": null, "to_category_id": "c-food"}]});
    assert_eq!(
        parse("categorize", &details, Vec::new(), true),
        Ok(Details::Categorize(details::Categorized {
            moves: vec![CategoryMove {
                transaction_id: "t1".into(),
                from_category_id: None,
                to_category_id: Some("c-food".into()),
            }]
        }))
    );
    assert_eq!(
        parse(
            "categorize",
            &json!({"moves": [{"transaction_id": "t1", "to_category_id": "c"}]}),
            Vec::new(),
            true
        ),
        damaged_record("moves.0.from_category_id", "is missing")
    );
    assert_eq!(
        parse("categorize", &json!({}), Vec::new(), true),
        damaged_record("moves", "is missing")
    );
}

#[test]
fn budget_sets_the_amount_back_unless_it_changed() {
    let f = plan();
    let Ok(Details::Budget(budgeted)) = parsed(
        "budget",
        json!({"month": "2026-09-01", "category_id": "c-food", "from": 120_000, "to": 150_000}),
    ) else {
        panic!("a budget operation");
    };
    let (month, change) = (budgeted.month, budgeted.change());
    let undo = budget(month, &change, &f.plan.categories, &fmt(), Applied::Fully);
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
    let undo = budget(month, &later, &f.plan.categories, &fmt(), Applied::Fully);
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
        damaged_record("month", "is missing")
    );
    assert_eq!(
        parsed(
            "budget",
            json!({"month": "2026-09-01", "category_id": "c", "to": 2})
        ),
        damaged_record("from", "is missing")
    );
    assert_eq!(
        parsed(
            "budget",
            json!({"month": "2026-09-01", "category_id": 7, "from": 1, "to": 2})
        ),
        damaged_record("category_id", "is not a string")
    );
    assert_eq!(
        Refusal::Damaged {
            field: "from".into(),
            problem: "is not an integer".into()
        }
        .message("abc", "budget"),
        "Operation abc (budget) cannot be undone here: its journal entry is damaged (from is \
not an integer); fix that line of the journal or change it back in YNAB."
    );
}

fn move_details(source_to: Milliunits) -> (CalendarMonth, AssignedChange, AssignedChange) {
    let details = json!({"month": "2026-09-01", "changes": [
        {"category_id": "c-food", "from": 170_000, "to": source_to},
        {"category_id": "c-fun", "from": 30_000, "to": 50_000}]});
    let Ok(Details::Move(Moved {
        month,
        changes: [source, target],
    })) = parsed("move", details)
    else {
        panic!("a move");
    };
    (month, source, target)
}

#[test]
fn move_sets_both_back_or_leaves_both_alone() {
    let f = plan();
    let (m, source, target) = move_details(150_000);
    let undo = move_money(
        m,
        &source,
        &target,
        &f.plan.categories,
        Applied::Fully,
        &fmt(),
    );
    assert_eq!(
        undo.question,
        "Undo: move 20.00 back from Fun to Food for 2026-09-01?"
    );
    assert_eq!(undo.reverts.len(), 2);
    assert!(undo.nothing.is_none());
    let (m, source, target) = move_details(160_000);
    let undo = move_money(
        m,
        &source,
        &target,
        &f.plan.categories,
        Applied::Fully,
        &fmt(),
    );
    assert_eq!(undo.conflicts, ["c-food"]);
    assert_eq!(
        undo.nothing.as_deref(),
        Some("An amount changed since: both left alone.")
    );
    // an interrupted move that applied its target only: that half goes back (D14)
    let undo = move_money(
        m,
        &source,
        &target,
        &f.plan.categories,
        Applied::Partly,
        &fmt(),
    );
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
        damaged_record("changes", "is not an array of length 2")
    );
    assert_eq!(
        parsed("move", json!({"month": "2026-09-01"})),
        damaged_record("changes", "is missing")
    );
    assert_eq!(
        parsed(
            "move",
            json!({"month": "2026-09-01", "changes": [
                {"category_id": "c", "from": 1, "to": 2}, {"category_id": "d", "from": "1", "to": 2}]})
        ),
        damaged_record("changes.1.from", "is not an integer")
    );
}

#[test]
fn create_deletes_what_is_still_there() {
    let f = plan();
    let undo = create(vec!["t1".into(), "gone".into()], &f.plan, Applied::Fully);
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
    let undo = create(vec!["gone".into()], &f.plan, Applied::Fully);
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
        damaged_record("transaction_ids.1", "is not a string")
    );
    assert_eq!(
        parsed("create", json!({})),
        damaged_record("transaction_ids", "is missing")
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
        damaged_record("digest_salt", "is not a string")
    );
    assert_eq!(
        parse("create", &json!({"account_id": "a"}), Vec::new(), true),
        damaged_record("item_digests", "is missing")
    );
    assert_eq!(
        parse("create", &json!({"item_digests": ["d1"]}), Vec::new(), true),
        damaged_record("account_id", "is missing")
    );
    assert_eq!(
        parse(
            "create",
            &json!({"account_id": "a", "item_digests": [], "server_knowledge": "7"}),
            Vec::new(),
            true
        ),
        damaged_record("server_knowledge", "is not an integer")
    );
}

#[test]
fn flag_puts_back_the_flags_still_as_set() {
    let mut f = plan();
    f.plan.transactions[0].flag_color = Some("red".into());
    f.plan.transactions[1].flag_color = Some("blue".into());
    let Ok(Details::Flag(Flagged { changes })) = parsed(
        "flag",
        json!({"changes": [
            {"transaction_id": "t1", "from": "", "to": "red"},
            {"transaction_id": "t2", "from": null, "to": "red"}]}),
    ) else {
        panic!("a flag operation");
    };
    let undo = flag(&changes, &f.plan, Applied::Fully);
    assert_eq!(
        undo.revert,
        Revert::Flags {
            back: vec![("t1".into(), Some("red".into()), None)]
        }
    );
    assert_eq!(undo.conflicts, ["t2"]);
    let undo = flag(&changes[1..], &f.plan, Applied::Fully);
    assert_eq!(
        undo.nothing.as_deref(),
        Some("Every flag changed since: left alone.")
    );
    assert_eq!(
        parsed(
            "flag",
            json!({"changes": [{"transaction_id": "t1", "to": "red"}]})
        ),
        damaged_record("changes.0.from", "is missing")
    );
    assert_eq!(
        parsed("flag", json!({})),
        damaged_record("changes", "is missing")
    );
}

#[test]
fn payee_is_named_back_unless_renamed_since() {
    let mut f = plan();
    f.plan.payees[0].name = "Rail company".into();
    let undo = payee(
        "payee:RAIL CO",
        "RAIL CO",
        "Rail company",
        &f.plan,
        Applied::Fully,
    );
    assert_eq!(undo.question, "Undo: name the payee ‘RAIL CO’ again?");
    assert!(undo.nothing.is_none());
    let undo = payee(
        "payee:RAIL CO",
        "RAIL CO",
        "Rail Co.",
        &f.plan,
        Applied::Fully,
    );
    assert_eq!(undo.conflicts, ["payee:RAIL CO"]);
    assert_eq!(
        undo.nothing.as_deref(),
        Some("The payee was renamed since: left alone.")
    );
    assert_eq!(
        parsed("payee", json!({"payee_id": "p", "from": "A"})),
        damaged_record("to", "is missing")
    );
}

/// A reconciliation that made a balance adjustment `id`.
fn adjustment(id: &str) -> Made {
    Made {
        adjustment: Some(id.into()),
        ..Made::default()
    }
}

#[test]
fn reconcile_after_an_import_deletes_the_lines_and_puts_uncleared_ones_back() {
    let mut f = plan();
    f.tx("t3", "2026-09-12", -7_000, "a", "BANK FEE", None);
    for t in &mut f.plan.transactions {
        t.cleared = "reconciled".into();
    }
    let made = Made {
        imported: vec!["t3".into(), "gone".into()],
        uncleared: vec!["t2".into()],
        adjustment: None,
    };
    let undo = reconcile(
        vec!["t1".into(), "t2".into()],
        made,
        &f.plan,
        Applied::Fully,
    );
    assert_eq!(
        undo.question,
        "Undo reconciliation: mark 1 transaction(s) back to cleared and 1 back to uncleared and delete the 1 imported transaction(s)?"
    );
    assert_eq!(
        undo.revert,
        Revert::Reconcile {
            to_clear: vec!["t1".into()],
            to_unclear: vec!["t2".into()],
            adjustment: None,
            imported: vec!["t3".into()],
        },
        "a line already gone is not deleted again"
    );
    // Interrupted before the marking: the lines are still deleted, the rest is as it was.
    f.plan.transactions[0].cleared = "cleared".into();
    f.plan.transactions[1].cleared = "uncleared".into();
    let made = Made {
        imported: vec!["t3".into()],
        uncleared: vec!["t2".into()],
        adjustment: None,
    };
    let undo = reconcile(
        vec!["t1".into(), "t2".into()],
        made,
        &f.plan,
        Applied::Partly,
    );
    assert_eq!(undo.untouched, ["t1", "t2"]);
    assert!(undo.conflicts.is_empty() && undo.nothing.is_none());
}

#[test]
fn reconcile_clears_what_is_still_reconciled_and_deletes_the_adjustment() {
    let mut f = plan();
    f.plan.transactions[0].cleared = "reconciled".into();
    let undo = reconcile(
        vec!["t1".into(), "t2".into()],
        adjustment("t2"),
        &f.plan,
        Applied::Fully,
    );
    assert_eq!(
        undo.question,
        "Undo reconciliation: mark 1 transaction(s) back to cleared and delete the balance adjustment?"
    );
    assert_eq!(undo.conflicts, ["t2"]);
    let undo = reconcile(
        vec!["t2".into()],
        adjustment("gone"),
        &f.plan,
        Applied::Fully,
    );
    assert_eq!(
        undo.nothing.as_deref(),
        Some("Every transaction changed since: left alone.")
    );
    assert_eq!(
        parsed("reconcile", json!({"reconciled_ids": ["t1"]})),
        Ok(Details::Reconcile(Reconciliation {
            reconciled_ids: vec!["t1".into()],
            made: Made::default(),
            recognition: None,
            imports: false,
        })),
        "a reconciliation without adjustment"
    );
    // an intent interrupted after its adjustment finds it by digest
    let intent = json!({"account_id": "a", "reconciled_ids": [], "adjustment_id": null,
                        "item_digests": ["d"]});
    assert!(matches!(
        parse("reconcile", &intent, Vec::new(), true),
        Ok(Details::Reconcile(Reconciliation { recognition: Some(ref r), .. }))
            if r.item_digests == ["d"]
    ));
    assert_eq!(
        parsed(
            "reconcile",
            json!({"reconciled_ids": ["t1"], "adjustment_id": 4})
        ),
        damaged_record("adjustment_id", "is not a string")
    );
    assert_eq!(
        parsed("reconcile", json!({"adjustment_id": null})),
        damaged_record("reconciled_ids", "is missing")
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
    let undo = category(&edit, &f.plan, Applied::Fully);
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
        category(&renamed, &f.plan, Applied::Fully)
            .nothing
            .as_deref(),
        Some("The category changed since: left alone.")
    );
    assert_eq!(
        parsed("category", json!({"category_id": "c"})),
        damaged_record("name_before", "is missing")
    );
}

#[test]
fn target_is_restored_unless_changed_and_needs_its_fields() {
    let f = plan();
    let food = &f.plan.categories[0];
    let after = crate::logic::targets::describe(food, &fmt());
    let fields = json!({"goal_target": null});
    let undo = target(
        "c-food",
        (None, &after),
        &fields,
        &f.plan,
        &fmt(),
        Applied::Fully,
    );
    assert_eq!(undo.question, "Undo: set the target of Food back?");
    assert!(undo.nothing.is_none());
    let undo = target(
        "c-food",
        (None, "something else"),
        &fields,
        &f.plan,
        &fmt(),
        Applied::Fully,
    );
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
        damaged_record("after", "is missing")
    );
}

#[test]
fn approve_unapproves_what_is_still_approved() {
    let mut f = plan();
    f.plan.transactions[1].approved = false;
    let undo = approve(vec!["t1".into(), "t2".into()], &f.plan, Applied::Fully);
    assert_eq!(
        undo.revert,
        Revert::Approve {
            transaction_ids: vec!["t1".into()]
        }
    );
    assert_eq!(undo.conflicts, ["t2"]);
    assert_eq!(
        approve(vec!["t2".into()], &f.plan, Applied::Fully)
            .nothing
            .as_deref(),
        Some("Every transaction changed since: left alone.")
    );
    assert_eq!(
        parsed("approve", json!({"transaction_ids": "t1"})),
        damaged_record("transaction_ids", "is not a list")
    );
    assert_eq!(
        parsed("category_create", json!({})),
        Err(Refusal::Kind("category_create".into()))
    );
}

/// Partly applied (an unfinished intent, or an interrupted undo, D14): what holds its before
/// value is untouched — neither reverted nor a conflict — what holds its after value goes back,
/// anything else is a conflict.
#[test]
fn a_partly_applied_operation_reverts_what_landed_and_leaves_the_rest() {
    let mut f = plan();
    // t1 was moved Fun → Food (landed); t2 is still in Fun (never moved); gone never was
    let moves = |t: &str| CategoryMove {
        transaction_id: t.into(),
        from_category_id: Some("c-fun".into()),
        to_category_id: Some("c-food".into()),
    };
    let undo = categorize(
        &[moves("t1"), moves("t2"), moves("gone")],
        &f.plan,
        &fmt(),
        Applied::Partly,
    );
    assert_eq!(undo.untouched, ["t2"]);
    assert_eq!(undo.conflicts, ["gone"], "gone is neither before nor after");
    assert!(matches!(undo.revert, Revert::Categorize { ref changes } if changes.len() == 1));
    let undo = categorize(&[moves("t2")], &f.plan, &fmt(), Applied::Partly);
    assert_eq!(
        (undo.untouched, undo.conflicts, undo.nothing.is_some()),
        (vec!["t2".to_string()], Vec::<String>::new(), true),
        "nothing landed: nothing to revert, nothing changed since"
    );
    let undo = categorize(&[moves("t2")], &f.plan, &fmt(), Applied::Fully);
    assert_eq!(undo.conflicts, ["t2"], "a journal line is read as applied");

    // budget: Food holds 150.00
    let change = |from, to| AssignedChange {
        category_id: "c-food".into(),
        from,
        to,
    };
    let m = CalendarMonth::from_ynab("2026-09-01").unwrap_or_else(|| panic!("a month"));
    let undo = budget(
        m,
        &change(150_000, 170_000),
        &f.plan.categories,
        &fmt(),
        Applied::Partly,
    );
    assert_eq!((undo.untouched.len(), undo.conflicts.len()), (1, 0));
    assert!(undo.nothing.is_some());
    let undo = budget(
        m,
        &change(120_000, 150_000),
        &f.plan.categories,
        &fmt(),
        Applied::Partly,
    );
    assert!(undo.nothing.is_none() && undo.untouched.is_empty());
    let undo = budget(
        m,
        &change(1, 2),
        &f.plan.categories,
        &fmt(),
        Applied::Partly,
    );
    assert_eq!(undo.conflicts, ["c-food"]);

    // move: Food 150.00, Fun 50.00. Neither half landed:
    let food = change(150_000, 130_000);
    let fun = AssignedChange {
        category_id: "c-fun".into(),
        from: 50_000,
        to: 70_000,
    };
    let undo = move_money(m, &food, &fun, &f.plan.categories, Applied::Partly, &fmt());
    assert_eq!(undo.untouched, ["c-food", "c-fun"]);
    assert!(undo.conflicts.is_empty() && undo.nothing.is_some());
    // both landed: both go back
    f.plan.categories[0].budgeted = 130_000;
    f.plan.categories[1].budgeted = 70_000;
    let undo = move_money(m, &food, &fun, &f.plan.categories, Applied::Partly, &fmt());
    assert!(matches!(undo.revert, Revert::Move { .. }) && undo.nothing.is_none());

    // create: what is gone was never created, or already deleted
    let undo = create(vec!["t1".into(), "gone".into()], &f.plan, Applied::Partly);
    assert_eq!(
        (undo.conflicts.len(), undo.untouched.clone()),
        (0, vec!["gone".to_string()])
    );
    assert_eq!(
        undo.revert,
        Revert::Create {
            ids: vec!["t1".into()]
        }
    );

    // flags: t1 red (landed), t2 none (never set)
    f.plan.transactions[0].flag_color = Some("red".into());
    let flags = |t: &str| FlagChange {
        transaction_id: t.into(),
        from: None,
        to: Some("red".into()),
    };
    let undo = flag(&[flags("t1"), flags("t2")], &f.plan, Applied::Partly);
    assert_eq!(undo.untouched, ["t2"]);
    assert!(undo.conflicts.is_empty());
    assert!(matches!(undo.revert, Revert::Flags { ref back } if back.len() == 1));

    // payee still named as before
    let undo = payee(
        "payee:RAIL CO",
        "RAIL CO",
        "Rail company",
        &f.plan,
        Applied::Partly,
    );
    assert_eq!(undo.untouched, ["payee:RAIL CO"]);
    assert!(undo.conflicts.is_empty() && undo.nothing.is_some());

    // reconcile: t1 reconciled (landed), t2 still cleared (not yet)
    f.plan.transactions[0].cleared = "reconciled".into();
    f.plan.transactions[1].cleared = "cleared".into();
    let undo = reconcile(
        vec!["t1".into(), "t2".into()],
        Made::default(),
        &f.plan,
        Applied::Partly,
    );
    assert_eq!(undo.untouched, ["t2"]);
    assert_eq!(
        undo.revert,
        Revert::Reconcile {
            to_clear: vec!["t1".into()],
            to_unclear: Vec::new(),
            adjustment: None,
            imported: Vec::new(),
        }
    );
    // an interrupted undo deleted the adjustment already: not a conflict
    let undo = reconcile(
        vec!["t2".into(), "adj".into()],
        adjustment("adj"),
        &f.plan,
        Applied::Partly,
    );
    assert_eq!(undo.untouched, ["t2", "adj"]);
    assert!(undo.conflicts.is_empty() && undo.nothing.is_some());

    // approve: t2 still unapproved
    f.plan.transactions[1].approved = false;
    let undo = approve(vec!["t1".into(), "t2".into()], &f.plan, Applied::Partly);
    assert_eq!(
        (undo.untouched.clone(), undo.conflicts.len()),
        (vec!["t2".to_string()], 0)
    );

    // category: still as before
    let edit = CategoryEdit {
        category_id: "c-fun".into(),
        name_before: "Fun".into(),
        group_before: "g-fun".into(),
        name_after: "Sport".into(),
        group_after: "g-every".into(),
    };
    let undo = category(&edit, &f.plan, Applied::Partly);
    assert_eq!(undo.untouched, ["c-fun"]);
    assert!(undo.conflicts.is_empty() && undo.nothing.is_some());
    assert_eq!(
        category(&edit, &f.plan, Applied::Fully).conflicts,
        ["c-fun"]
    );

    // target: reads as before (an intent notes it)
    let reads = crate::logic::targets::describe(&f.plan.categories[0], &fmt());
    let fields = json!({"goal_target": null});
    let undo = target(
        "c-food",
        (Some(&reads), "after"),
        &fields,
        &f.plan,
        &fmt(),
        Applied::Partly,
    );
    assert_eq!(undo.untouched, ["c-food"]);
    assert!(undo.conflicts.is_empty() && undo.nothing.is_some());
    let undo = target(
        "c-food",
        (None, "after"),
        &fields,
        &f.plan,
        &fmt(),
        Applied::Partly,
    );
    assert_eq!(
        undo.conflicts,
        ["c-food"],
        "without its before, it cannot be told apart"
    );
}

#[test]
fn an_irreversible_intent_is_read_as_landed_or_not() {
    let mut f = plan();
    let salt = Some("5a17");
    let line = |amount, category: &str, memo: Option<&str>| {
        crate::logic::created::line_digest(salt, amount, Some(category), memo)
    };
    let digests = vec![line(-10_000, "c-food", None), line(-2_340, "c-fun", None)];
    fn split_landing(
        id: &str,
        before: Option<&str>,
        digests: &[String],
        salt: Option<&str>,
        plan: &PlanDetail,
    ) -> Landing {
        let intended = irreversible::SplitIntended {
            transaction_id: id.into(),
            category_before: before.map(Into::into),
            line_digests: digests.to_vec(),
            digest_salt: salt.map(Into::into),
        };
        super::split_landing(&intended, plan)
    }
    fn category_create_landing(
        group: &str,
        digest: Option<&String>,
        salt: Option<&str>,
        plan: &PlanDetail,
    ) -> (Landing, Option<String>) {
        let intended = irreversible::CategoryIntended {
            category_group_id: group.into(),
            name_digest: digest.cloned(),
            digest_salt: salt.map(Into::into),
        };
        super::category_create_landing(&intended, plan)
    }
    assert_eq!(
        split_landing("t1", Some("c-food"), &digests, salt, &f.plan),
        Landing::NotApplied,
        "still one line in its category"
    );
    f.line("t1", -2_340, Some("c-fun"), false);
    f.line("t1", -10_000, Some("c-food"), false);
    f.plan.transactions[0].category_id = None;
    assert_eq!(
        split_landing("t1", Some("c-food"), &digests, salt, &f.plan),
        Landing::Applied,
        "its lines, in any order"
    );
    assert_eq!(
        split_landing("t1", Some("c-food"), &digests[..1], salt, &f.plan),
        Landing::Unknown,
        "split otherwise"
    );
    assert_eq!(
        split_landing("gone", None, &digests, salt, &f.plan),
        Landing::Unknown
    );

    let pets = crate::logic::created::name_digest(salt, "Pets");
    assert_eq!(
        category_create_landing("g-every", Some(&pets), salt, &f.plan),
        (Landing::NotApplied, None)
    );
    f.category("c-pets", "g-every", "Pets");
    assert_eq!(
        category_create_landing("g-every", Some(&pets), salt, &f.plan),
        (Landing::Applied, Some("c-pets".to_string()))
    );
    assert_eq!(
        category_create_landing("g-fun", Some(&pets), salt, &f.plan).0,
        Landing::NotApplied,
        "in its own group only"
    );
    assert_eq!(
        category_create_landing("g-every", None, salt, &f.plan).0,
        Landing::Unknown
    );

    let reads = crate::logic::targets::describe(&f.plan.categories[0], &fmt());
    assert_eq!(
        target_landing("c-food", (Some("before"), &reads), &f.plan, &fmt()),
        Landing::Applied
    );
    assert_eq!(
        target_landing("c-food", (Some(&reads), "after"), &f.plan, &fmt()),
        Landing::NotApplied
    );
    assert_eq!(
        target_landing("c-food", (None, "after"), &f.plan, &fmt()),
        Landing::Unknown
    );
}

#[test]
fn an_intent_of_a_kind_undo_reads_only_for_its_landing_is_parsed() {
    let split =
        json!({"transaction_id": "t1", "category_before": null, "line_digests": ["a", "b"]});
    assert_eq!(
        parse("split", &split, Vec::new(), true),
        Ok(Details::Split(split::SplitDetails::Intended(
            irreversible::SplitIntended {
                transaction_id: "t1".into(),
                category_before: None,
                line_digests: vec!["a".into(), "b".into()],
                digest_salt: None,
            }
        )))
    );
    // A journal line of a split is undone since split undo exists; of a new account, never.
    assert!(matches!(
        parsed("split", split),
        Ok(Details::Split(split::SplitDetails::Done(_)))
    ));
    assert_eq!(
        parsed("account_create", json!({})),
        Err(Refusal::Kind("account_create".into()))
    );
    assert_eq!(
        parse(
            "category_create",
            &json!({"category_group_id": "g", "name_digest": "d"}),
            Vec::new(),
            true
        ),
        Ok(Details::CategoryCreate(irreversible::CategoryIntended {
            category_group_id: "g".into(),
            name_digest: Some("d".into()),
            digest_salt: None,
        }))
    );
    assert_eq!(
        parse("import", &json!({"server_knowledge": 12}), Vec::new(), true),
        Ok(Details::Import(irreversible::ImportDetails::Intended(
            irreversible::ImportIntended {
                server_knowledge: Some(12)
            }
        )))
    );
    assert_eq!(
        parse(
            "import",
            &json!({"server_knowledge": "12"}),
            Vec::new(),
            true
        ),
        damaged_record("server_knowledge", "is not an integer")
    );
    assert_eq!(
        parse(
            "target",
            &json!({"category_id": "c", "undo": null, "after": "x", "before": "y"}),
            Vec::new(),
            true
        ),
        Ok(Details::Target(TargetDetails::Unrestorable {
            category_id: "c".into(),
            before: Some("y".into()),
            after: "x".into(),
        }))
    );
}

/// A deleted transaction as YNAB's delta shows it: its fields and `deleted: true`.
fn tombstone(
    id: &str,
    account: &str,
    mirror: Option<&str>,
    transfer_to: Option<&str>,
) -> Transaction {
    serde_json::from_value(json!({
        "id": id, "date": "2026-09-19", "amount": -71_860, "memo": "twice", "cleared": "cleared",
        "approved": true, "flag_color": "red", "account_id": account, "payee_id": "p-shop",
        "category_id": "c-food", "import_id": "YNAB:-71860:2026-09-19:2", "deleted": true,
        "transfer_transaction_id": mirror, "transfer_account_id": transfer_to,
    }))
    .expect("a transaction")
}

#[test]
fn delete_recreates_what_ynab_shows_deleted_without_the_import_link() {
    let f = plan();
    let asked: Vec<String> = ["x1", "t1", "gone"].iter().map(|s| s.to_string()).collect();
    let deleted = [tombstone("x1", "a", None, None)];
    let undo = delete(&asked, &deleted, (&f.plan, 7), &fmt(), Applied::Fully);
    assert_eq!(undo.conflicts, ["t1", "gone"], "live, or no record");
    assert_eq!(undo.reverts, [json!({"recreate": "x1"})]);
    assert_eq!(
        undo.question,
        "Undo: recreate 1 deleted transaction(s)? They come back with new ids and without their bank-import link."
    );
    let Revert::Recreate {
        items,
        ids,
        knowledge,
    } = &undo.revert
    else {
        panic!("{:?}", undo.revert)
    };
    assert_eq!(
        (ids.as_slice(), *knowledge),
        (["x1".to_string()].as_slice(), 7)
    );
    let item = &items[0];
    assert_eq!(item.import_id, None);
    assert_eq!(
        (
            item.amount,
            item.memo.as_deref(),
            item.flag_color.as_deref()
        ),
        (-71_860, Some("twice"), Some("red"))
    );
    assert_eq!(
        (item.cleared.as_deref(), item.approved),
        (Some("cleared"), Some(true))
    );
    // Partly applied (D14): a live one was never deleted, not a conflict.
    let undo = delete(&asked, &deleted, (&f.plan, 7), &fmt(), Applied::Partly);
    assert_eq!(undo.untouched, ["t1"]);
    assert_eq!(undo.conflicts, ["gone"]);
    // Nothing deleted: nothing to do.
    let undo = delete(
        &["t1".to_string()],
        &[],
        (&f.plan, 7),
        &fmt(),
        Applied::Partly,
    );
    assert!(undo.nothing.is_some());
}

#[test]
fn delete_recreates_one_side_of_a_transfer() {
    let f = plan();
    let ids: Vec<String> = ["s1", "s2"].iter().map(|s| s.to_string()).collect();
    let deleted = [
        tombstone("s1", "a", Some("s2"), Some("b")),
        tombstone("s2", "b", Some("s1"), Some("a")),
    ];
    let undo = delete(&ids, &deleted, (&f.plan, 7), &fmt(), Applied::Fully);
    let Revert::Recreate { items, ids, .. } = &undo.revert else {
        panic!("{:?}", undo.revert)
    };
    assert_eq!(items.len(), 1, "YNAB makes the other side");
    assert_eq!(ids.len(), 2, "both come back");
    assert!(
        undo.lines[0].contains("(a transfer: its other side on"),
        "{:?}",
        undo.lines
    );
}

#[test]
fn an_interrupted_recreation_is_recognised_by_digest() {
    let made = recreation(&tombstone("x1", "a", None, None));
    let digest = recreation_digest("salt", &made);
    let mut live = tombstone("new", "a", None, None);
    live.deleted = false;
    assert!(recreated(
        std::slice::from_ref(&digest),
        "salt",
        std::slice::from_ref(&live)
    ));
    assert!(!recreated(
        std::slice::from_ref(&digest),
        "other salt",
        std::slice::from_ref(&live)
    ));
    let still_deleted = tombstone("x1", "a", None, None);
    assert!(
        !recreated(&[digest], "salt", &[still_deleted]),
        "a tombstone is not a recreation"
    );
}

#[test]
fn delete_details_parse_and_refuse_when_damaged() {
    assert_eq!(
        parsed(
            "delete",
            json!({"transaction_ids": ["a"], "server_knowledge": 3})
        ),
        Ok(Details::Delete(Deleted {
            transaction_ids: vec!["a".into()],
            server_knowledge: 3
        }))
    );
    assert_eq!(
        parsed("delete", json!({"transaction_ids": ["a"]})),
        damaged_record("server_knowledge", "is missing")
    );
    assert_eq!(
        parsed("delete", json!({"server_knowledge": 3})),
        damaged_record("transaction_ids", "is missing")
    );
}

// ---- update ----------------------------------------------------------------------------------

fn update_of(details: Value, from_intent: bool) -> (Vec<TransactionEdit>, Option<String>) {
    match parse("update", &details, Vec::new(), from_intent) {
        Ok(Details::Update(update::UpdateDetails { edits, digest_salt })) => (edits, digest_salt),
        other => panic!("an update: {other:?}"),
    }
}

#[test]
fn update_puts_back_each_field_still_as_set_and_leaves_the_rest() {
    let mut f = plan();
    f.plan.transactions[0].memo = Some("Lunch".into());
    f.plan.transactions[0].date = "2026-09-09".into();
    f.plan.transactions[1].memo = Some("edited since".into());
    let (edits, salt) = update_of(
        json!({"changes": [
            {"transaction_id": "t1", "fields": {
                "memo": {"from": null, "to": "Lunch"},
                "date": {"from": "2026-09-10", "to": "2026-09-09"}}},
            {"transaction_id": "t2", "fields": {"memo": {"from": "a", "to": "b"}}},
            {"transaction_id": "gone", "fields": {"approved": {"from": false, "to": true}}}
        ]}),
        false,
    );
    let undo = update(&edits, salt.as_deref(), &f.plan, &fmt(), Applied::Fully);
    let Revert::Update { back } = &undo.revert else {
        panic!("an update revert");
    };
    assert_eq!(back.len(), 1);
    assert_eq!(
        back[0].fields,
        vec![
            (
                crate::logic::updates::Field::Date,
                json!("2026-09-09"),
                json!("2026-09-10")
            ),
            (
                crate::logic::updates::Field::Memo,
                json!("Lunch"),
                Value::Null
            ),
        ],
        "in the tool's order"
    );
    assert_eq!(undo.conflicts, ["t2 memo", "gone"]);
    assert_eq!(
        undo.question,
        "Undo: put back 2 value(s) of 1 transaction(s)?"
    );
    assert_eq!(
        undo.lines,
        ["- 2026-09-09 RAIL CO -12.34: date 2026-09-09 → 2026-09-10; memo ‘Lunch’ → none"]
    );
    assert_eq!(undo.nothing, None);
}

#[test]
fn an_unfinished_update_knows_private_values_by_digest_only() {
    use crate::logic::updates::{Field, value_digest};
    let mut f = plan();
    let salt = "0123abcd";
    let d = |field: Field, v: Value| value_digest(Some(salt), field, &v);
    let intent = |memo_to: &str| {
        json!({"digest_salt": salt, "changes": [{"transaction_id": "t1", "fields": {
            "memo": {"from_digest": d(Field::Memo, Value::Null), "to_digest": d(Field::Memo, json!(memo_to))},
            "category_id": {"from": "c-food", "to": "c-fun"}}}]})
    };
    // Never written: every field holds its before value — nothing to do, not a conflict.
    let (edits, s) = update_of(intent("Lunch"), true);
    let undo = update(&edits, s.as_deref(), &f.plan, &fmt(), Applied::Partly);
    assert_eq!(undo.untouched, ["t1"]);
    assert!(undo.conflicts.is_empty());
    assert!(undo.nothing.is_some());
    // Landed: the category goes back; the memo is known by digest only and is left alone.
    f.plan.transactions[0].memo = Some("Lunch".into());
    f.plan.transactions[0].category_id = Some("c-fun".into());
    let undo = update(&edits, s.as_deref(), &f.plan, &fmt(), Applied::Partly);
    let Revert::Update { back } = &undo.revert else {
        panic!("an update revert");
    };
    assert_eq!(
        back[0].fields,
        vec![(Field::Category, json!("c-fun"), json!("c-food"))]
    );
    assert_eq!(undo.conflicts, ["t1 memo"]);
}

#[test]
fn a_damaged_update_is_refused_by_field() {
    assert_eq!(
        parsed(
            "update",
            json!({"changes": [{"transaction_id": "t1", "fields": {"colour": {"from": 1, "to": 2}}}]})
        ),
        Err(Refusal::Damaged {
            field: "changes.0.fields.colour".into(),
            problem: "is not a field update_transactions changes".into()
        })
    );
    assert_eq!(
        parsed(
            "update",
            json!({"changes": [{"transaction_id": "t1", "fields": {"memo": {"to": "x"}}}]})
        ),
        damaged("changes.0.fields.memo.from", "a value")
    );
    assert_eq!(
        parsed("update", json!({})),
        Err(Refusal::Damaged {
            field: "changes".into(),
            problem: "is missing".into()
        })
    );
}
