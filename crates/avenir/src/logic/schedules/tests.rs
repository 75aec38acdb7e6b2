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
