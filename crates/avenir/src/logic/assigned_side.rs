//! One category's assigned amount in a write of a month's budget: what it holds (`from`) and what
//! it is set to (`to`), with what was available before, so a question and an answer can say what
//! becomes available. `move_money` and `apply_budget_plan` write sides; the undo of `budget`,
//! `move`, `budget_plan` and `category_merge` writes them back the other way.

use ynab::models::Milliunits;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssignedSide {
    pub category_id: String,
    /// Safe text; empty when the category is gone (an undo then names it a conflict and sends
    /// nothing for it).
    pub name: String,
    /// The amount it holds now.
    pub from: Milliunits,
    /// The amount it is set to.
    pub to: Milliunits,
    /// Available now; 0 when the category is gone.
    pub available_before: Milliunits,
}

impl AssignedSide {
    /// What is available once `to` is assigned.
    pub fn available_after(&self) -> Milliunits {
        self.available_before + self.to - self.from
    }
}
