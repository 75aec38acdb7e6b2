//! How a category's target settings change when a category save (`POST`/`PATCH
//! /categories`) carries `goal_target`, `goal_target_date`, `goal_frequency` or
//! `goal_needs_whole_amount`, following the OpenAPI `SaveCategory` text; figures are `compute`'s.
//!
//! # Rules (the spec's, with the sandbox's choices marked *chosen*)
//!
//! - `goal_target: null` removes the target: every `goal_*` setting is cleared.
//! - `goal_target: X` on a category without a target creates a monthly `NEED` target of X
//!   ("set aside another", `goal_cadence` 1, `goal_cadence_frequency` 1, `goal_needs_whole_amount`
//!   true), created in the current month; on a category with one it changes only the amount.
//!   A negative X is a 400 (*chosen*).
//! - `goal_target_date: D` makes it a by-date target: `goal_cadence` 0, `goal_target_date` D (and
//!   the deprecated `goal_target_month`), no cadence frequency, `goal_needs_whole_amount` null.
//!   `goal_target_date: null` on a dated target makes it monthly again (*chosen*). A date without
//!   any target (none existing, none sent) is a 400 (*chosen*).
//! - `goal_frequency` (`monthly`/`weekly`/`yearly`) replaces the target with a recurring `NEED`
//!   target of `goal_target`: `goal_cadence` 1, 2 or 13, frequency 1, created this month. It
//!   requires `goal_target` and cannot be combined with `goal_target_date` (400 otherwise).
//!   `goal_frequency: null` counts as omitted (*chosen*: the spec types it as a plain string).
//! - `goal_needs_whole_amount` applies to `NEED` targets only (400 for another kind or none).
//! - Targets of kinds the API cannot create (`TB`, `TBD`, `MF`, `DEBT`, from a loaded plan): a date
//!   turns `TB` into `TBD` and its removal `TBD` into `TB`; a date on `MF` or `DEBT` is a 400.

use crate::body::{Fields, Patch};
use crate::error::{ApiError, ApiResult};
use chrono::NaiveDate;
use ynab::models::Category;

/// `goal_frequency` values and the `goal_cadence` each sets.
pub const FREQUENCIES: &[(&str, i32)] = &[("monthly", 1), ("weekly", 2), ("yearly", 13)];

/// The target fields of a category save.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TargetSave {
    pub goal_target: Patch<i64>,
    pub goal_target_date: Patch<NaiveDate>,
    pub goal_needs_whole_amount: Patch<bool>,
    pub goal_frequency: Option<i32>,
}

impl TargetSave {
    /// Reads the target fields of a `category` object.
    pub fn read(f: &Fields<'_>) -> ApiResult<Self> {
        let names: Vec<&str> = FREQUENCIES.iter().map(|(name, _)| *name).collect();
        let goal_frequency = match f.choice("goal_frequency", &names)? {
            Patch::Set(name) => FREQUENCIES
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, cadence)| *cadence),
            Patch::Null | Patch::Absent => None,
        };
        Ok(TargetSave {
            goal_target: f.int("goal_target")?,
            goal_target_date: f.date("goal_target_date")?,
            goal_needs_whole_amount: f.boolean("goal_needs_whole_amount")?,
            goal_frequency,
        })
    }

    /// Applies the save to `c`'s target settings; `current_month` is `YYYY-MM-01`.
    pub fn apply(&self, c: &mut Category, current_month: &str) -> ApiResult<()> {
        let has_target = c.goal_type.is_some();
        match self.goal_target {
            Patch::Null => {
                if self.goal_frequency.is_some() {
                    return Err(ApiError::bad("goal_frequency requires goal_target"));
                }
                clear(c);
                return Ok(());
            }
            Patch::Set(amount) if amount < 0 => {
                return Err(ApiError::bad("goal_target must not be negative"));
            }
            Patch::Set(_) => {}
            Patch::Absent => {
                if self.goal_frequency.is_some() {
                    return Err(ApiError::bad("goal_frequency requires goal_target"));
                }
                if !has_target {
                    if matches!(self.goal_target_date, Patch::Set(_)) {
                        return Err(ApiError::bad(
                            "goal_target_date needs a target: send goal_target too",
                        ));
                    }
                    if matches!(self.goal_needs_whole_amount, Patch::Set(_)) {
                        return Err(ApiError::bad(
                            "goal_needs_whole_amount is only supported for NEED targets",
                        ));
                    }
                    return Ok(());
                }
            }
        }
        if self.goal_frequency.is_some() && matches!(self.goal_target_date, Patch::Set(_)) {
            return Err(ApiError::bad(
                "goal_frequency cannot be combined with goal_target_date",
            ));
        }
        if let Patch::Set(amount) = self.goal_target {
            if !has_target || self.goal_frequency.is_some() {
                clear(c);
                c.goal_type = Some("NEED".into());
                c.goal_cadence = Some(1);
                c.goal_cadence_frequency = Some(1);
                c.goal_needs_whole_amount = Some(true);
                c.goal_creation_month = Some(current_month.into());
            }
            c.goal_target = Some(amount);
        }
        if let Some(cadence) = self.goal_frequency {
            c.goal_cadence = Some(cadence);
        }
        self.apply_date(c)?;
        self.apply_whole_amount(c)
    }

    /// A target date set (a NEED or TB target becomes dated) or removed.
    fn apply_date(&self, c: &mut Category) -> ApiResult<()> {
        match self.goal_target_date {
            Patch::Set(date) => {
                let kind = c.goal_type.as_deref().unwrap_or("NEED");
                match kind {
                    "NEED" | "TBD" => {}
                    "TB" => c.goal_type = Some("TBD".into()),
                    other => {
                        return Err(ApiError::bad(format!(
                            "goal_target_date is not supported for a {other} target"
                        )));
                    }
                }
                let date = date.format("%Y-%m-%d").to_string();
                c.goal_cadence = Some(0);
                c.goal_cadence_frequency = None;
                c.goal_day = None;
                c.goal_needs_whole_amount = None;
                c.goal_target_month = Some(date.clone().into());
                c.goal_target_date = Some(date.into());
            }
            Patch::Null if c.goal_target_date.is_some() => {
                c.goal_target_date = None;
                c.goal_target_month = None;
                if c.goal_type.as_deref() == Some("TBD") {
                    c.goal_type = Some("TB".into());
                } else {
                    c.goal_cadence = Some(1);
                    c.goal_cadence_frequency = Some(1);
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// `goal_needs_whole_amount`, which only a NEED target takes.
    fn apply_whole_amount(&self, c: &mut Category) -> ApiResult<()> {
        match self.goal_needs_whole_amount {
            Patch::Absent => {}
            _ if c.goal_type.as_deref() != Some("NEED") => {
                return Err(ApiError::bad(
                    "goal_needs_whole_amount is only supported for NEED targets",
                ));
            }
            Patch::Set(whole) => c.goal_needs_whole_amount = Some(whole),
            Patch::Null => c.goal_needs_whole_amount = None,
        }
        Ok(())
    }
}

/// No target at all.
fn clear(c: &mut Category) {
    c.goal_type = None;
    c.goal_target = None;
    c.goal_target_date = None;
    c.goal_target_month = None;
    c.goal_cadence = None;
    c.goal_cadence_frequency = None;
    c.goal_day = None;
    c.goal_needs_whole_amount = None;
    c.goal_creation_month = None;
    c.goal_snoozed_at = None;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::{PlanBuilder, date};

    fn category() -> Category {
        let mut b = PlanBuilder::new("p", "P", date("2026-09-25"));
        b.group("g", "G");
        b.category("c", "g", "C").clone()
    }

    fn save(target: Patch<i64>) -> TargetSave {
        TargetSave {
            goal_target: target,
            ..TargetSave::default()
        }
    }

    #[test]
    fn a_target_is_created_monthly_then_dated_then_removed() {
        let mut c = category();
        save(Patch::Set(150_000))
            .apply(&mut c, "2026-09-01")
            .expect("created");
        assert_eq!(c.goal_type.as_deref(), Some("NEED"));
        assert_eq!(
            (c.goal_cadence, c.goal_cadence_frequency),
            (Some(1), Some(1))
        );
        assert_eq!(c.goal_needs_whole_amount, Some(true));
        assert_eq!(c.goal_creation_month.as_deref(), Some("2026-09-01"));
        let dated = TargetSave {
            goal_target_date: Patch::Set(date("2026-12-01")),
            ..TargetSave::default()
        };
        dated.apply(&mut c, "2026-09-01").expect("dated");
        assert_eq!(c.goal_cadence, Some(0));
        assert_eq!(c.goal_target, Some(150_000));
        assert_eq!(c.goal_target_date.as_deref(), Some("2026-12-01"));
        save(Patch::Null)
            .apply(&mut c, "2026-09-01")
            .expect("removed");
        assert_eq!(c.goal_type, None);
        assert_eq!(c.goal_target, None);
        assert_eq!(c.goal_cadence, None);
    }

    #[test]
    fn frequencies_set_the_cadence_and_need_a_target() {
        let mut c = category();
        let weekly = TargetSave {
            goal_target: Patch::Set(20_000),
            goal_frequency: Some(2),
            ..TargetSave::default()
        };
        weekly.apply(&mut c, "2026-09-01").expect("weekly");
        assert_eq!(c.goal_cadence, Some(2));
        let alone = TargetSave {
            goal_frequency: Some(13),
            ..TargetSave::default()
        };
        assert_eq!(
            alone.apply(&mut c, "2026-09-01"),
            Err(ApiError::bad("goal_frequency requires goal_target"))
        );
        let both = TargetSave {
            goal_target: Patch::Set(1),
            goal_target_date: Patch::Set(date("2026-12-01")),
            goal_frequency: Some(1),
            ..TargetSave::default()
        };
        assert!(both.apply(&mut c, "2026-09-01").is_err());
        let mut bare = category();
        let date_only = TargetSave {
            goal_target_date: Patch::Set(date("2026-12-01")),
            ..TargetSave::default()
        };
        assert!(date_only.apply(&mut bare, "2026-09-01").is_err());
        assert!(save(Patch::Set(-1)).apply(&mut bare, "2026-09-01").is_err());
    }
}
