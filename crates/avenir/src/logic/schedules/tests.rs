//! Unit tests of `logic::schedules`: dates, frequencies, what changes, the whole save a PUT sends.

use super::*;

fn day(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap_or_default()
}

#[test]
fn dates_after_today_and_at_most_five_years_ahead() {
    let today = day("2026-09-25");
    assert!(check_date("S", day("2026-09-26"), today).is_ok());
    assert!(check_date("S", day("2031-09-25"), today).is_ok());
    let past = check_date("S", day("2026-09-25"), today).unwrap_err();
    assert!(past.contains("is not in the future"), "{past}");
    let far = check_date("S", day("2031-09-26"), today).unwrap_err();
    assert_eq!(
        far,
        "S: the date 2031-09-26 is more than five years ahead, which YNAB refuses: give a date no later than 2031-09-25."
    );
}

#[test]
fn the_thirteen_frequencies() {
    assert_eq!(FREQUENCIES.len(), 13);
    assert!(check_frequency("frequency", "every4Weeks").is_ok());
    let e = check_frequency("frequency", "fortnightly").unwrap_err();
    assert!(
        e.starts_with("frequency must be one of 'never', 'daily'"),
        "{e}"
    );
    assert!(e.ends_with("got 'fortnightly'."), "{e}");
}

#[test]
fn field_keys_round_trip() {
    for f in FIELDS {
        assert_eq!(SField::from_key(f.key()), Some(f));
    }
    assert!(SField::Amount.is_private() && !SField::Flag.is_private());
}

#[test]
fn set_field_merges_into_the_whole_save() {
    let mut save = ScheduleSave {
        account_id: "a".into(),
        date: "2026-10-03".into(),
        amount: -950_000,
        payee_id: Some("p".into()),
        frequency: "monthly".into(),
        category_id: Some("c".into()),
        ..ScheduleSave::default()
    };
    set_field(&mut save, SField::Amount, &json!(-975_000), None);
    set_field(&mut save, SField::Payee, &Value::Null, Some("New"));
    assert_eq!(save.amount, -975_000);
    assert_eq!(save.payee_id, None);
    assert_eq!(save.payee_name.as_deref(), Some("New"));
    assert_eq!(save.category_id.as_deref(), Some("c"));
    assert_eq!(save.date, "2026-10-03");
}

#[test]
fn a_save_digest_recognises_its_schedule() {
    let save = ScheduleSave {
        account_id: "a".into(),
        date: "2026-10-03".into(),
        amount: -1,
        frequency: "weekly".into(),
        ..ScheduleSave::default()
    };
    let d = save_digest("salt", &save);
    assert_eq!(d, save_digest("salt", &save));
    assert_ne!(d, save_digest("other", &save));
}

fn fixture() -> crate::logic::fixtures::Fixture {
    let mut f = crate::logic::fixtures::Fixture::new();
    f.account("a", "Checking", true);
    f.account("b", "Savings", true);
    f.account("t", "Joint", false);
    f.group("g", "Bills");
    f.group("cc", "Credit Card Payments");
    f.category("c-rent", "g", "Rent");
    f.category("c-card", "cc", "Visa");
    f.schedule(
        "s",
        "2026-06-03",
        "2026-10-03",
        "monthly",
        -950_000,
        "a",
        "LANDLORD",
        Some("c-rent"),
    );
    f
}

#[test]
fn an_update_lists_only_the_fields_that_change() {
    let f = fixture();
    let s = &f.plan.scheduled_transactions[0];
    let asked = ScheduleAsked {
        amount: Some(-975_000),
        frequency: Some("monthly".into()),
        ..ScheduleAsked::default()
    };
    let changes = plan_update(&asked, s, &f.plan, day("2026-09-25"), "S").unwrap_or_default();
    assert_eq!(
        changes,
        [FieldChange {
            field: SField::Amount,
            from: json!(-950_000),
            to: json!(-975_000),
            new_payee: None
        }]
    );
}

#[test]
fn a_card_payment_category_or_a_split_is_refused() {
    let mut f = fixture();
    let asked = ScheduleAsked {
        category_id: Some(Some("c-card".into())),
        ..ScheduleAsked::default()
    };
    let s = f.plan.scheduled_transactions[0].clone();
    let e = plan_update(&asked, &s, &f.plan, day("2026-09-25"), "S").unwrap_err();
    assert_eq!(
        e,
        "Category c-card pays a credit card, and YNAB refuses it on a schedule: choose the category of what is paid for."
    );
    f.schedule_line("s", -500_000, false);
    let e = plan_update(
        &ScheduleAsked {
            amount: Some(-1),
            ..ScheduleAsked::default()
        },
        &s,
        &f.plan,
        day("2026-09-25"),
        "S",
    )
    .unwrap_err();
    assert!(e.starts_with("S is split"), "{e}");
}

#[test]
fn a_transfer_between_budget_accounts_drops_its_category() {
    let mut g = fixture();
    let payee = g.payee("Transfer : Savings");
    for p in g.plan.payees.iter_mut().filter(|p| p.id == payee) {
        p.transfer_account_id = Some("b".into());
    }
    for a in g.plan.accounts.iter_mut().filter(|a| a.id == "b") {
        a.transfer_payee_id = Some(payee.clone());
    }
    let asked = ScheduleAsked {
        payee: Some(PayeeAsked::TransferTo("b".into())),
        ..ScheduleAsked::default()
    };
    let s = g.plan.scheduled_transactions[0].clone();
    let changes = plan_update(&asked, &s, &g.plan, day("2026-09-25"), "S").unwrap_or_default();
    let fields: Vec<SField> = changes.iter().map(|c| c.field).collect();
    assert_eq!(fields, [SField::Payee, SField::Category]);
    assert_eq!(changes[1].to, Value::Null);
}

#[test]
fn a_creation_needs_a_future_date_and_takes_a_new_payee_by_name() {
    let f = fixture();
    let asked = ScheduleAsked {
        account_id: Some("a".into()),
        date: Some("2026-10-15".into()),
        frequency: Some("weekly".into()),
        amount: Some(-35_500),
        payee: Some(PayeeAsked::Name("GYM".into())),
        ..ScheduleAsked::default()
    };
    let save = plan_create(&asked, &f.plan, day("2026-09-25")).unwrap_or_default();
    assert_eq!(
        (save.payee_id, save.payee_name.as_deref(), save.amount),
        (None, Some("GYM"), -35_500)
    );
    let on_tracking = ScheduleAsked {
        account_id: Some("t".into()),
        category_id: Some(Some("c-rent".into())),
        ..asked
    };
    let e = plan_create(&on_tracking, &f.plan, day("2026-09-25")).unwrap_err();
    assert_eq!(
        e,
        "The new schedule is on a tracking account: YNAB gives it no category; leave category_id out."
    );
}
