//! What the plan store derives once per plan, checked on the heavy plan (9,000 transactions):
//! the index built at load and updated by deltas says what is computed from scratch, and the
//! tools that read only some months' flows find what reading the whole history finds.

use avenir::logic::index::PlanIndex;
use avenir::logic::merchant::merchant;
use avenir::logic::recurring::{first_day_of, flows, recurring};
use avenir::months::full_months_before;
use chrono::NaiveDate;

fn today() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 9, 25).unwrap_or_default()
}

fn heavy() -> ynab::models::PlanDetail {
    let state = ynab_sandbox::heavy::heavy_plan(1, 60, 150, today());
    ynab_sandbox::routes::plans::export(&state)
}

#[test]
fn the_index_gives_every_payee_the_merchant_of_its_label() {
    let plan = heavy();
    let index = PlanIndex::build(&plan);
    assert!(plan.payees.len() > 8_000, "{} payees", plan.payees.len());
    for p in &plan.payees {
        assert_eq!(index.merchant(Some(&p.id)), merchant(&p.name), "{}", p.name);
    }
}

#[test]
fn recurring_detection_over_its_window_finds_what_the_whole_history_finds() {
    let plan = heavy();
    let index = PlanIndex::build(&plan);
    let window = full_months_before(today(), avenir::logic::recurring::LOOKBACK_MONTHS);
    let since = first_day_of(&window);
    assert_eq!(since, "2026-05-01");
    let all = flows(&plan, &index, |_| true);
    let windowed = flows(&plan, &index, |t| *t.date >= *since);
    assert!(
        windowed.len() < all.len() / 5,
        "{} of {}",
        windowed.len(),
        all.len()
    );
    let found = recurring(&windowed, today());
    assert_eq!(found, recurring(&all, today()));
    assert!(!found.is_empty());
}
