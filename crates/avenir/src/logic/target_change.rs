//! Changing a category's target (`docs/contract/writes.md` §9.11): the checks, the target before
//! and after in words, the fields sent to YNAB, and the fields that would bring the previous target
//! back.
//!
//! Pure: a category and the arguments come in; whether the change can be undone is decided here
//! (a previous target of a kind the API cannot recreate is not restorable).

use super::targets::describe;
use crate::money::MoneyFormat;
use chrono::NaiveDate;
use serde_json::{Map, Value, json};
use ynab::models::{Category, Milliunits};
use ynab::writes::CategoryChange;

/// `goal_frequency` values and the `goal_cadence` YNAB gives each.
pub const FREQUENCIES: [(&str, i32); 3] = [("monthly", 1), ("weekly", 2), ("yearly", 13)];

/// The arguments of a target change.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TargetAsked {
    /// `None`: remove the target.
    pub amount: Option<Milliunits>,
    pub by_date: Option<NaiveDate>,
    /// One of [`FREQUENCIES`].
    pub frequency: Option<String>,
}

/// What the category is paired with, as far as targets go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pairing {
    None,
    /// A credit-card payment category (group `Credit Card Payments`).
    Card,
    /// A category whose target is a loan's (`goal_type` `DEBT`).
    Loan,
}

/// A target change, computed.
#[derive(Debug, Clone, PartialEq)]
pub struct TargetChange {
    /// `describe` of the target now.
    pub before: String,
    /// `describe` of the target once YNAB applied `fields`.
    pub after: String,
    /// What is sent (`{"goal_target": …}` and a date or a frequency).
    pub fields: Value,
    /// The fields that recreate the target now; `None` when the API cannot.
    pub undo: Option<Value>,
}

impl TargetChange {
    pub fn is_nothing(&self) -> bool {
        self.before == self.after
    }
}

/// The checks that need no plan data, in §9.11's order.
pub fn check_arguments(asked: &TargetAsked) -> Result<(), &'static str> {
    if asked.by_date.is_some() && asked.frequency.is_some() {
        return Err("Give either a date or a frequency, not both: YNAB refuses the two.");
    }
    match asked.amount {
        None if asked.by_date.is_some() || asked.frequency.is_some() => {
            Err("To remove the target, give no amount, no date and no frequency.")
        }
        Some(amount) if amount <= 0 => {
            Err("The amount must be greater than 0; to remove the target, give none.")
        }
        _ => Ok(()),
    }
}

/// How `category` is paired; `card` says whether its group pays a credit card.
pub fn pairing(category: &Category, card: bool) -> Pairing {
    if card {
        Pairing::Card
    } else if category.goal_type.as_deref() == Some("DEBT") {
        Pairing::Loan
    } else {
        Pairing::None
    }
}

fn has_target(c: &Category) -> bool {
    c.goal_type.as_deref().is_some_and(|k| !k.is_empty()) && c.goal_target.is_some()
}

fn target_date(c: &Category) -> Option<&str> {
    c.goal_target_date
        .as_deref()
        .filter(|d| !d.is_empty())
        .or_else(|| c.goal_target_month.as_deref().filter(|d| !d.is_empty()))
}

/// The frequency name of a NEED target's rhythm (`goal_cadence` 1/2/13, frequency null or 1).
fn rhythm(c: &Category) -> Option<&'static str> {
    if !matches!(c.goal_cadence_frequency, None | Some(1)) {
        return None;
    }
    FREQUENCIES
        .iter()
        .find(|(_, cadence)| c.goal_cadence == Some(*cadence))
        .map(|(name, _)| *name)
}

/// The target change on `category`, or the pairing check it breaks (after [`check_arguments`]).
pub fn plan(
    category: &Category,
    pairing: Pairing,
    asked: &TargetAsked,
    money: &MoneyFormat,
) -> Result<TargetChange, &'static str> {
    if pairing == Pairing::Loan && (asked.by_date.is_some() || asked.frequency.is_some()) {
        return Err(
            "YNAB takes neither a date nor a frequency on a category paired to a loan account: give an amount alone.",
        );
    }
    if pairing == Pairing::Card && asked.frequency.is_some() {
        return Err(
            "YNAB takes no frequency on a credit card payment category: give an amount alone, or a date.",
        );
    }
    let before = describe(category, money);
    let mut after = category.clone();
    let mut fields = Map::new();
    match asked.amount {
        None => {
            after.goal_type = None;
            after.goal_target = None;
            fields.insert("goal_target".into(), Value::Null);
        }
        Some(amount) => {
            fields.insert("goal_target".into(), json!(amount));
            after.goal_target = Some(amount);
            if let Some(date) = asked.by_date {
                let date = date.format("%Y-%m-%d").to_string();
                fields.insert("goal_target_date".into(), json!(date));
                after.goal_type = Some("NEED".into());
                after.goal_target_date = Some(date.into());
            } else if let Some(frequency) = &asked.frequency {
                fields.insert("goal_frequency".into(), json!(frequency));
                after.goal_type = Some("NEED".into());
                after.goal_target_date = None;
                after.goal_target_month = None;
                after.goal_cadence = FREQUENCIES
                    .iter()
                    .find(|(name, _)| name == frequency)
                    .map(|(_, cadence)| *cadence);
                after.goal_cadence_frequency = Some(1);
            } else if !has_target(category) {
                after.goal_target_date = None;
                after.goal_target_month = None;
                if pairing == Pairing::Card {
                    after.goal_type = Some("MF".into());
                } else {
                    after.goal_type = Some("NEED".into());
                    after.goal_cadence = Some(1);
                    after.goal_cadence_frequency = Some(1);
                }
            }
        }
    }
    let amount_alone =
        asked.amount.is_some() && asked.by_date.is_none() && asked.frequency.is_none();
    Ok(TargetChange {
        before,
        after: describe(&after, money),
        fields: Value::Object(fields),
        undo: restore(category, amount_alone),
    })
}

/// The fields that bring `category`'s target back after the change (`None`: not restorable).
fn restore(category: &Category, amount_alone: bool) -> Option<Value> {
    if !has_target(category) {
        return Some(json!({"goal_target": null}));
    }
    let old = category.goal_target;
    if amount_alone {
        return Some(json!({"goal_target": old}));
    }
    if category.goal_type.as_deref() != Some("NEED") {
        return None;
    }
    let whole = category.goal_needs_whole_amount.unwrap_or(false);
    if let Some(date) = target_date(category) {
        return Some(json!({"goal_target": old, "goal_target_date": date,
                           "goal_needs_whole_amount": whole}));
    }
    rhythm(category).map(|frequency| {
        json!({"goal_target": old, "goal_frequency": frequency, "goal_needs_whole_amount": whole})
    })
}

/// The category save of target fields as [`TargetChange`] writes them (journal `undo` included).
pub fn category_change(fields: &Value) -> CategoryChange {
    let mut change = CategoryChange::default();
    if let Some(target) = fields.get("goal_target") {
        change.goal_target = Some(target.as_i64());
    }
    if let Some(date) = fields.get("goal_target_date") {
        change.goal_target_date = Some(date.as_str().map(str::to_string));
    }
    if let Some(frequency) = fields.get("goal_frequency") {
        change.goal_frequency = Some(frequency.as_str().map(str::to_string));
    }
    if let Some(whole) = fields.get("goal_needs_whole_amount") {
        change.goal_needs_whole_amount = Some(whole.as_bool());
    }
    change
}

#[cfg(test)]
mod tests {
    use super::*;

    fn money() -> MoneyFormat {
        MoneyFormat::default()
    }

    fn category() -> Category {
        Category {
            id: "c".into(),
            name: "Holidays".into(),
            ..Category::default()
        }
    }

    fn monthly(amount: Milliunits) -> Category {
        Category {
            goal_type: Some("NEED".into()),
            goal_target: Some(amount),
            goal_cadence: Some(1),
            goal_cadence_frequency: Some(1),
            goal_needs_whole_amount: Some(true),
            ..category()
        }
    }

    fn dated(amount: Milliunits, date: &str) -> Category {
        Category {
            goal_type: Some("NEED".into()),
            goal_target: Some(amount),
            goal_cadence: Some(0),
            goal_target_date: Some(date.into()),
            ..category()
        }
    }

    fn asked(
        amount: Option<Milliunits>,
        date: Option<&str>,
        frequency: Option<&str>,
    ) -> TargetAsked {
        TargetAsked {
            amount,
            by_date: date.and_then(|d| NaiveDate::parse_from_str(d, "%Y-%m-%d").ok()),
            frequency: frequency.map(str::to_string),
        }
    }

    fn change(c: &Category, pairing: Pairing, a: TargetAsked) -> TargetChange {
        plan(c, pairing, &a, &money()).expect("valid")
    }

    #[test]
    fn argument_checks_in_order() {
        let both = asked(Some(1), Some("2027-01-01"), Some("weekly"));
        assert_eq!(
            check_arguments(&both),
            Err("Give either a date or a frequency, not both: YNAB refuses the two.")
        );
        assert_eq!(
            check_arguments(&asked(None, None, Some("weekly"))),
            Err("To remove the target, give no amount, no date and no frequency.")
        );
        assert_eq!(
            check_arguments(&asked(Some(0), None, None)),
            Err("The amount must be greater than 0; to remove the target, give none.")
        );
        assert!(check_arguments(&asked(None, None, None)).is_ok());
        assert!(check_arguments(&asked(Some(1), Some("2027-01-01"), None)).is_ok());
    }

    #[test]
    fn pairing_checks() {
        let mut loan = monthly(100_000);
        loan.goal_type = Some("DEBT".into());
        assert_eq!(pairing(&loan, false), Pairing::Loan);
        assert_eq!(pairing(&loan, true), Pairing::Card);
        let by_date = asked(Some(1), Some("2027-01-01"), None);
        assert_eq!(
            plan(&loan, Pairing::Loan, &by_date, &money()),
            Err(
                "YNAB takes neither a date nor a frequency on a category paired to a loan account: give an amount alone."
            )
        );
        assert_eq!(
            plan(
                &category(),
                Pairing::Card,
                &asked(Some(1), None, Some("monthly")),
                &money()
            ),
            Err(
                "YNAB takes no frequency on a credit card payment category: give an amount alone, or a date."
            )
        );
        assert!(plan(&category(), Pairing::Card, &by_date, &money()).is_ok());
    }

    #[test]
    fn new_targets_and_their_undo() {
        let c = change(&category(), Pairing::None, asked(Some(150_000), None, None));
        assert_eq!(
            (c.before.as_str(), c.after.as_str()),
            ("no target", "150.00 each month")
        );
        assert_eq!(c.fields, json!({"goal_target": 150_000}));
        assert_eq!(c.undo, Some(json!({"goal_target": null})));
        let c = change(&category(), Pairing::Card, asked(Some(150_000), None, None));
        assert_eq!(c.after, "150.00 (monthly funding)");
        let c = change(
            &category(),
            Pairing::None,
            asked(Some(2_000_000), Some("2027-06-01"), None),
        );
        assert_eq!(c.after, "2000.00 by 2027-06-01");
        assert_eq!(
            c.fields,
            json!({"goal_target": 2_000_000, "goal_target_date": "2027-06-01"})
        );
        let c = change(
            &category(),
            Pairing::None,
            asked(Some(13_490), None, Some("weekly")),
        );
        assert_eq!(c.after, "13.49 each week");
        assert_eq!(
            c.fields,
            json!({"goal_target": 13_490, "goal_frequency": "weekly"})
        );
    }

    #[test]
    fn changed_targets_and_their_undo() {
        // amount alone keeps the kind; undo puts the amount back
        let c = change(
            &dated(250_000, "2026-11-01"),
            Pairing::None,
            asked(Some(300_000), None, None),
        );
        assert_eq!(c.before, "250.00 by 2026-11-01");
        assert_eq!(c.after, "300.00 by 2026-11-01");
        assert_eq!(c.undo, Some(json!({"goal_target": 250_000})));
        // a monthly target turned into a dated one comes back with its rhythm
        let c = change(
            &monthly(450_000),
            Pairing::None,
            asked(Some(500_000), Some("2027-01-01"), None),
        );
        assert_eq!(c.after, "500.00 by 2027-01-01");
        assert_eq!(
            c.undo,
            Some(
                json!({"goal_target": 450_000, "goal_frequency": "monthly", "goal_needs_whole_amount": true})
            )
        );
        // a dated target removed comes back with its date
        let c = change(
            &dated(250_000, "2026-11-01"),
            Pairing::None,
            asked(None, None, None),
        );
        assert_eq!(c.after, "no target");
        assert_eq!(c.fields, json!({"goal_target": null}));
        assert_eq!(
            c.undo,
            Some(
                json!({"goal_target": 250_000, "goal_target_date": "2026-11-01", "goal_needs_whole_amount": false})
            )
        );
        // a kind the API cannot create is not restorable, unless only its amount changes
        let mut tb = monthly(100_000);
        tb.goal_type = Some("TB".into());
        let c = change(&tb, Pairing::None, asked(None, None, None));
        assert_eq!(
            (c.before.as_str(), c.undo),
            ("100.00 (target balance)", None)
        );
        let c = change(&tb, Pairing::None, asked(Some(120_000), None, None));
        assert_eq!(c.after, "120.00 (target balance)");
        assert_eq!(c.undo, Some(json!({"goal_target": 100_000})));
        // a rhythm of every other month is not restorable either
        let mut every_two = monthly(100_000);
        every_two.goal_cadence_frequency = Some(2);
        assert_eq!(
            change(&every_two, Pairing::None, asked(None, None, None)).undo,
            None
        );
    }

    #[test]
    fn nothing_to_change() {
        assert!(change(&category(), Pairing::None, asked(None, None, None)).is_nothing());
        assert!(
            change(
                &monthly(450_000),
                Pairing::None,
                asked(Some(450_000), None, None)
            )
            .is_nothing()
        );
        assert!(
            change(
                &monthly(450_000),
                Pairing::None,
                asked(Some(450_000), None, Some("monthly"))
            )
            .is_nothing()
        );
        assert!(
            !change(
                &monthly(450_000),
                Pairing::None,
                asked(Some(450_000), None, Some("weekly"))
            )
            .is_nothing()
        );
    }

    #[test]
    fn fields_become_a_category_save() {
        let save = category_change(&json!({"goal_target": null}));
        assert_eq!(save.goal_target, Some(None));
        assert_eq!(save.goal_target_date, None);
        let save = category_change(
            &json!({"goal_target": 5, "goal_frequency": "monthly", "goal_needs_whole_amount": true}),
        );
        assert_eq!(save.goal_target, Some(Some(5)));
        assert_eq!(save.goal_frequency, Some(Some("monthly".into())));
        assert_eq!(save.goal_needs_whole_amount, Some(Some(true)));
    }
}
