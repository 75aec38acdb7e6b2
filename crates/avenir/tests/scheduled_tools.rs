//! `update_scheduled_transaction`, `delete_scheduled_transaction` and
//! `create_scheduled_transaction` through the protocol on the demo plan: the three ways to ask
//! (the 2026-07-28 round trip, the 2025-11-25 in-call question, a confirmation code on both
//! eras), the sandbox's schedules before, after the write and after the undo, a stale answer
//! refused with nothing written, and what YNAB would refuse.
//!
//! The demo scenario: the October rent (`sch-rent`, LANDLORD SARL, −950.00 monthly, next
//! 2026-10-03) goes up to 975.00, and undo puts it back at 950.00.

use crate::common;

use common::{Asker, E_C4, Era, Harness, Options, Reply, id, journal_lines, start_options};
use common::{intents_path, with_code};
use serde_json::{Value, json};
use std::sync::Arc;
use ynab::models::ScheduledTransaction;
use ynab::writes::ScheduleSave;

fn plan() -> String {
    id("demo-budget")
}

async fn harness(era: Era, asker: Option<Asker>) -> Harness {
    let mut options = Options::new(era);
    options.asker = asker;
    start_options(options).await
}

/// The three ways to ask, on both eras where a code is concerned.
#[derive(Debug, Clone, Copy)]
enum Way {
    /// No elicitation: a confirmation code (on the era given).
    Code(Era),
    /// 2026-07-28: the input-required round trip.
    RoundTrip,
    /// 2025-11-25: the question asked during the call.
    InCall,
}

const WAYS: [Way; 4] = [
    Way::Code(Era::Modern),
    Way::Code(Era::Legacy),
    Way::RoundTrip,
    Way::InCall,
];

async fn start(way: Way) -> (Harness, Option<Asker>) {
    match way {
        Way::Code(era) => (harness(era, None).await, None),
        Way::RoundTrip => {
            let asker = Asker::new(Reply::Yes);
            (harness(Era::Modern, Some(asker.clone())).await, Some(asker))
        }
        Way::InCall => {
            let asker = Asker::new(Reply::Yes);
            (harness(Era::Legacy, Some(asker.clone())).await, Some(asker))
        }
    }
}

/// Runs `tool` with `args` the way `way` asks, checks the question, and answers the applied
/// result's operation id.
async fn apply(
    h: &Harness,
    asker: Option<&Asker>,
    tool: &'static str,
    args: Value,
    question: &str,
) -> (Value, String) {
    let done = match asker {
        None => {
            let preview = h.ok(tool, args.clone()).await;
            assert_eq!(preview["status"], "confirmation_required", "{preview}");
            let message = preview["message"].as_str().unwrap_or_default();
            assert!(message.contains(question), "{message}\n---\n{question}");
            h.ok(tool, with_code(args, &preview["confirmation"])).await
        }
        Some(asker) => {
            let done = h.ok(tool, args).await;
            assert_eq!(asker.questions().last().map(String::as_str), Some(question));
            done
        }
    };
    assert_eq!(done["status"], "applied", "{done}");
    let op = done["operation_id"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(!op.is_empty(), "{done}");
    (done, op)
}

async fn undo(h: &Harness, asker: Option<&Asker>, op: &str) -> Value {
    let args = json!({"plan_id": "last-used", "operation_id": op});
    let done = match asker {
        None => {
            let preview = h.ok("undo_operation", args.clone()).await;
            assert_eq!(preview["status"], "confirmation_required", "{preview}");
            h.ok("undo_operation", with_code(args, &preview["confirmation"]))
                .await
        }
        Some(_) => h.ok("undo_operation", args).await,
    };
    assert_eq!(done["status"], "applied", "{done}");
    done
}

async fn schedules(h: &Harness) -> Vec<ScheduledTransaction> {
    h.other_app()
        .scheduled_transactions(&plan())
        .await
        .expect("schedules")
}

async fn schedule(h: &Harness, sid: &str) -> Option<ScheduledTransaction> {
    schedules(h).await.into_iter().find(|s| s.id == sid)
}

/// (date_next, frequency, amount, payee, category, memo, account) of a schedule.
type Shape = (
    String,
    String,
    i64,
    Option<String>,
    Option<String>,
    Option<String>,
    String,
);

fn shape(s: &ScheduledTransaction) -> Shape {
    (
        s.date_next.clone(),
        s.frequency.clone(),
        s.amount,
        s.payee_id.clone(),
        s.category_id.clone(),
        s.memo.clone(),
        s.account_id.clone(),
    )
}

async fn rent(h: &Harness) -> Shape {
    shape(
        &schedule(h, &id("sch-rent"))
            .await
            .expect("the rent schedule"),
    )
}

async fn rent_payee(h: &Harness) -> Option<String> {
    schedule(h, &id("sch-rent")).await.and_then(|s| s.payee_id)
}

fn nothing_journaled(h: &Harness) {
    assert!(journal_lines(h).is_empty(), "no operation line");
    assert!(!intents_path(h).exists(), "no intent either");
}

fn raise_rent() -> Value {
    json!({"scheduled_transaction_id": id("sch-rent"), "amount": -975.00})
}

const RAISE_QUESTION: &str = "Change the scheduled transaction 2026-10-03 LANDLORD SARL -950.00 monthly (Checking)?\n- amount -950.00 → -975.00";

#[tokio::test]
async fn the_october_rent_goes_to_975_and_back_on_every_way_to_ask() {
    for way in WAYS {
        let (h, asker) = start(way).await;
        let before = rent(&h).await;
        assert_eq!(
            before,
            (
                "2026-10-03".to_string(),
                "monthly".to_string(),
                -950_000,
                rent_payee(&h).await,
                Some(id("cat-rent")),
                None,
                id("acc-checking")
            ),
            "{way:?}"
        );
        let (done, op) = apply(
            &h,
            asker.as_ref(),
            "update_scheduled_transaction",
            raise_rent(),
            RAISE_QUESTION,
        )
        .await;
        assert_eq!(
            done["message"],
            format!(
                "Updated. undo_operation with operation_id {op} puts back every value not changed since."
            )
        );
        assert_eq!(
            done["changes"],
            json!([{"field": "amount", "from": "-950.00", "to": "-975.00"}])
        );
        let mut after = before.clone();
        after.2 = -975_000;
        assert_eq!(rent(&h).await, after, "{way:?}: only the amount changed");
        let line = &journal_lines(&h)[0];
        assert_eq!(line["kind"], "schedule_update");
        assert_eq!(
            line["details"]["fields"],
            json!({"amount": {"from": -950_000, "to": -975_000}})
        );
        // D31: the intent holds the amount only as a salted digest.
        let intents = std::fs::read_to_string(intents_path(&h)).unwrap_or_default();
        assert!(!intents.contains("975000"), "{intents}");
        assert!(intents.contains("from_digest"), "{intents}");

        let again = h.ok("update_scheduled_transaction", raise_rent()).await;
        assert_eq!(again["status"], "nothing_to_do");
        assert_eq!(
            again["message"],
            "The scheduled transaction is already as asked."
        );

        let undone = undo(&h, asker.as_ref(), &op).await;
        assert_eq!(
            undone["message"],
            "The schedule's previous values are back."
        );
        assert_eq!(undone["conflicts"], json!([]));
        assert_eq!(rent(&h).await, before, "{way:?}: back at 950.00");
        if let Some(asker) = &asker {
            assert_eq!(
                asker.questions()[1],
                "Undo: put back 1 value(s) of the schedule 2026-10-03 LANDLORD SARL -975.00 monthly?\n- amount -975.00 → -950.00"
            );
        }
    }
}

#[tokio::test]
async fn several_fields_and_undo_leaves_a_later_change_alone() {
    let (h, asker) = start(Way::RoundTrip).await;
    let args = json!({"scheduled_transaction_id": id("sch-rent"), "amount": -975.0,
        "memo": "New lease", "flag": "red", "frequency": "every4Weeks", "date": "2026-10-05"});
    let question = "Change the scheduled transaction 2026-10-03 LANDLORD SARL -950.00 monthly (Checking)?\n- date 2026-10-03 → 2026-10-05\n- frequency monthly → every4Weeks\n- amount -950.00 → -975.00\n- memo none → ‘New lease’\n- flag none → red";
    let (_, op) = apply(
        &h,
        asker.as_ref(),
        "update_scheduled_transaction",
        args,
        question,
    )
    .await;
    let s = schedule(&h, &id("sch-rent")).await.expect("rent");
    assert_eq!(
        (
            s.date_next.as_str(),
            s.frequency.as_str(),
            s.amount,
            s.memo.as_deref(),
            s.flag_color.as_deref()
        ),
        (
            "2026-10-05",
            "every4Weeks",
            -975_000,
            Some("New lease"),
            Some("red")
        )
    );
    // the person changes the memo again in YNAB
    let mut save = save_of(&s);
    save.memo = Some("Lease 2027".into());
    h.other_app()
        .update_scheduled_transaction(&plan(), &s.id, &save)
        .await
        .expect("another app");
    let undone = undo(&h, asker.as_ref(), &op).await;
    assert_eq!(
        undone["conflicts"],
        json!([format!("{} memo", id("sch-rent"))])
    );
    let s = schedule(&h, &id("sch-rent")).await.expect("rent");
    assert_eq!(
        (
            s.date_next.as_str(),
            s.frequency.as_str(),
            s.amount,
            s.memo.as_deref(),
            s.flag_color.as_deref()
        ),
        ("2026-10-03", "monthly", -950_000, Some("Lease 2027"), None),
        "every value back but the memo changed since"
    );
}

fn save_of(s: &ScheduledTransaction) -> ScheduleSave {
    ScheduleSave {
        account_id: s.account_id.clone(),
        date: s.date_next.clone(),
        amount: s.amount,
        payee_id: s.payee_id.clone(),
        payee_name: None,
        category_id: s.category_id.clone(),
        memo: s.memo.clone(),
        flag_color: s.flag_color.clone(),
        frequency: s.frequency.clone(),
    }
}

/// Another app changes the rent's memo while the person reads the question.
fn meddle_rent(h: &Harness, asker: &Asker) {
    let other = Arc::new(h.other_app());
    asker.meddle_with(Arc::new(move || {
        let other = other.clone();
        Box::pin(async move {
            let all = other
                .scheduled_transactions(&id("demo-budget"))
                .await
                .unwrap_or_default();
            if let Some(s) = all.into_iter().find(|s| s.id == id("sch-rent")) {
                let mut save = save_of(&s);
                save.memo = Some("changed elsewhere".into());
                let _ = other
                    .update_scheduled_transaction(&id("demo-budget"), &s.id, &save)
                    .await;
            }
        })
    }));
}

#[tokio::test]
async fn a_stale_answer_is_refused_with_nothing_written() {
    for era in [Era::Modern, Era::Legacy] {
        // update
        let asker = Asker::new(Reply::Yes);
        let h = harness(era, Some(asker.clone())).await;
        meddle_rent(&h, &asker);
        assert_eq!(
            h.error("update_scheduled_transaction", raise_rent()).await,
            E_C4
        );
        let s = schedule(&h, &id("sch-rent")).await.expect("rent");
        assert_eq!(
            (s.amount, s.memo.as_deref()),
            (-950_000, Some("changed elsewhere")),
            "{era:?}"
        );
        nothing_journaled(&h);

        // delete
        let asker = Asker::new(Reply::Yes);
        let h = harness(era, Some(asker.clone())).await;
        meddle_rent(&h, &asker);
        let args = json!({"scheduled_transaction_id": id("sch-rent")});
        assert_eq!(h.error("delete_scheduled_transaction", args).await, E_C4);
        assert!(
            schedule(&h, &id("sch-rent")).await.is_some(),
            "{era:?}: not deleted"
        );
        nothing_journaled(&h);

        // create: a payee of the new name appears meanwhile
        let asker = Asker::new(Reply::Yes);
        let h = harness(era, Some(asker.clone())).await;
        let other = Arc::new(h.other_app());
        asker.meddle_with(Arc::new(move || {
            let other = other.clone();
            Box::pin(async move {
                let t = ynab::writes::NewTransaction {
                    account_id: id("acc-checking"),
                    date: "2026-09-20".into(),
                    amount: -1_000,
                    payee_name: Some("GYM CLUB".into()),
                    ..Default::default()
                };
                let _ = other.create_transactions(&id("demo-budget"), &[t]).await;
            })
        }));
        let count = schedules(&h).await.len();
        assert_eq!(h.error("create_scheduled_transaction", gym()).await, E_C4);
        assert_eq!(schedules(&h).await.len(), count, "{era:?}: nothing created");
        nothing_journaled(&h);
    }
}

#[tokio::test]
async fn what_ynab_would_refuse_is_refused_naming_the_schedule_and_the_field() {
    let h = harness(Era::Modern, None).await;
    let rent = id("sch-rent");
    let who = format!("Scheduled transaction {rent} (2026-10-03 LANDLORD SARL -950.00 monthly)");
    let cases = [
        (json!({"scheduled_transaction_id": rent, "date": "2026-09-25"}),
         format!("{who}: the date 2026-09-25 is not in the future, and YNAB schedules only future dates: give a date after today (2026-09-25), at most 2031-09-25.")),
        (json!({"scheduled_transaction_id": rent, "date": "2031-10-01"}),
         format!("{who}: the date 2031-10-01 is more than five years ahead, which YNAB refuses: give a date no later than 2031-09-25.")),
        (json!({"scheduled_transaction_id": rent, "frequency": "fortnightly"}),
         "frequency must be one of 'never', 'daily', 'weekly', 'everyOtherWeek', 'twiceAMonth', 'every4Weeks', 'monthly', 'everyOtherMonth', 'every3Months', 'every4Months', 'twiceAYear', 'yearly', 'everyOtherYear', got 'fortnightly'.".to_string()),
        (json!({"scheduled_transaction_id": rent}),
         format!("The update of scheduled transaction {rent} changes nothing: give at least one of date, frequency, amount, payee_id, payee_name, transfer_account_id, category_id, memo, account_id or flag.")),
        (json!({"scheduled_transaction_id": rent, "payee_id": id("sch-rent"), "payee_name": "X"}),
         "Give one of payee_id, payee_name or transfer_account_id, not several.".to_string()),
        (json!({"scheduled_transaction_id": "nope", "amount": -1}),
         "Scheduled transaction nope is not in this plan: use a scheduled_transaction_id from list_scheduled_transactions.".to_string()),
        (json!({"scheduled_transaction_id": rent, "transfer_account_id": id("acc-checking")}),
         format!("{who} would become a transfer to its own account: choose another payee or account.")),
        (json!({"scheduled_transaction_id": rent, "transfer_account_id": id("acc-savings"), "category_id": id("cat-rent")}),
         format!("{who} is a transfer between two budget accounts: YNAB gives it no category; leave category_id out.")),
        (json!({"scheduled_transaction_id": rent, "category_id": "cat-nope"}),
         "Category cat-nope is not in this plan: use a category_id from get_category_balances.".to_string()),
        (json!({"scheduled_transaction_id": rent, "flag": "pink"}),
         "flag must be 'red', 'orange', 'yellow', 'green', 'blue', 'purple' or 'none', got 'pink'.".to_string()),
    ];
    for (args, message) in cases {
        assert_eq!(
            h.error("update_scheduled_transaction", args.clone()).await,
            message,
            "{args}"
        );
    }
    let refused = h
        .error(
            "delete_scheduled_transaction",
            json!({"scheduled_transaction_id": "nope"}),
        )
        .await;
    assert_eq!(
        refused,
        "Scheduled transaction nope is not in this plan: use a scheduled_transaction_id from list_scheduled_transactions."
    );
    let mut past = gym();
    past["date"] = json!("2026-09-01");
    assert_eq!(
        h.error("create_scheduled_transaction", past).await,
        "The new schedule: the date 2026-09-01 is not in the future, and YNAB schedules only future dates: give a date after today (2026-09-25), at most 2031-09-25."
    );
    let mut tracking = gym();
    tracking["account_id"] = json!(id("acc-joint-savings"));
    tracking["category_id"] = json!(id("cat-tennis"));
    assert_eq!(
        h.error("create_scheduled_transaction", tracking).await,
        "The new schedule is on a tracking account: YNAB gives it no category; leave category_id out."
    );
}

#[tokio::test]
async fn a_transfer_schedule_takes_no_category_and_comes_back() {
    let (h, asker) = start(Way::RoundTrip).await;
    let args = json!({"scheduled_transaction_id": id("sch-rent"), "transfer_account_id": id("acc-savings")});
    let (_, op) = apply(
        &h,
        asker.as_ref(),
        "update_scheduled_transaction",
        args,
        "Change the scheduled transaction 2026-10-03 LANDLORD SARL -950.00 monthly (Checking)?\n- payee ‘LANDLORD SARL’ → ‘Transfer : Savings’\n- category Rent → none",
    )
    .await;
    let s = schedule(&h, &id("sch-rent")).await.expect("rent");
    assert_eq!(s.transfer_account_id, Some(id("acc-savings")));
    assert_eq!(s.category_id, None);
    undo(&h, asker.as_ref(), &op).await;
    let s = schedule(&h, &id("sch-rent")).await.expect("rent");
    assert_eq!(
        (s.transfer_account_id, s.category_id),
        (None, Some(id("cat-rent")))
    );
}

const DELETE_QUESTION: &str = "Delete this scheduled transaction? (undo_operation recreates it with a new id.)\n- next 2026-10-03, monthly, ‘LANDLORD SARL’, -950.00, on Checking, category Rent";

#[tokio::test]
async fn the_rent_is_deleted_and_recreated_with_a_new_id_on_every_way_to_ask() {
    for way in WAYS {
        let (h, asker) = start(way).await;
        let before = rent(&h).await;
        let count = schedules(&h).await.len();
        let args = json!({"scheduled_transaction_id": id("sch-rent")});
        let (done, op) = apply(
            &h,
            asker.as_ref(),
            "delete_scheduled_transaction",
            args,
            DELETE_QUESTION,
        )
        .await;
        assert_eq!(
            done["message"],
            format!("Deleted. undo_operation with operation_id {op} recreates it, with a new id.")
        );
        assert!(
            schedule(&h, &id("sch-rent")).await.is_none(),
            "{way:?}: gone"
        );
        assert_eq!(schedules(&h).await.len(), count - 1);
        let line = &journal_lines(&h)[0];
        assert_eq!(line["kind"], "schedule_delete");
        assert_eq!(line["details"]["scheduled_transaction_id"], id("sch-rent"));

        let undone = undo(&h, asker.as_ref(), &op).await;
        assert_eq!(
            undone["message"],
            "The deleted schedule is recreated, with a new id."
        );
        let all = schedules(&h).await;
        assert_eq!(all.len(), count, "{way:?}: back");
        let back = all
            .iter()
            .find(|s| s.amount == -950_000 && s.category_id == Some(id("cat-rent")))
            .expect("the recreated rent");
        assert_ne!(back.id, id("sch-rent"), "a new id");
        assert_eq!(shape(back), before, "{way:?}: every field back");
    }
}

fn gym() -> Value {
    json!({"account_id": id("acc-checking"), "date": "2026-10-15", "frequency": "monthly",
           "amount": -35.5, "payee_name": "GYM CLUB", "category_id": id("cat-tennis"),
           "memo": "Membership"})
}

const GYM_QUESTION: &str = "Create a scheduled transaction on Checking? (undo_operation deletes it.)\n- from 2026-10-15, monthly, ‘GYM CLUB’ (a new payee), -35.50, category Tennis, memo ‘Membership’";

#[tokio::test]
async fn a_gym_membership_is_scheduled_and_undone_on_every_way_to_ask() {
    for way in WAYS {
        let (h, asker) = start(way).await;
        let count = schedules(&h).await.len();
        let (done, op) = apply(
            &h,
            asker.as_ref(),
            "create_scheduled_transaction",
            gym(),
            GYM_QUESTION,
        )
        .await;
        assert_eq!(
            done["message"],
            format!("Created. undo_operation with operation_id {op} deletes it.")
        );
        let new_id = done["scheduled_transaction_id"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let s = schedule(&h, &new_id).await.expect("created");
        assert_eq!(
            (
                s.date_next.as_str(),
                s.frequency.as_str(),
                s.amount,
                s.category_id.clone(),
                s.memo.as_deref(),
                s.account_id.clone()
            ),
            (
                "2026-10-15",
                "monthly",
                -35_500,
                Some(id("cat-tennis")),
                Some("Membership"),
                id("acc-checking")
            ),
            "{way:?}"
        );
        let payees = h.other_app().payees(&plan()).await.expect("payees");
        assert!(
            payees
                .iter()
                .any(|p| Some(p.id.as_str()) == s.payee_id.as_deref() && p.name == "GYM CLUB")
        );
        assert_eq!(
            journal_lines(&h)[0]["details"],
            json!({"scheduled_transaction_id": new_id})
        );
        let undone = undo(&h, asker.as_ref(), &op).await;
        assert_eq!(undone["message"], "The created schedule is deleted.");
        assert!(schedule(&h, &new_id).await.is_none(), "{way:?}: deleted");
        assert_eq!(schedules(&h).await.len(), count);
    }
}
