//! Pure, synchronous functions over plan data: no I/O and no clock ("today" is passed in).
//! Tools call them and shape what they return; every rule with a constant lives here.

pub mod accounts;
pub mod assignable;
pub mod budget_month;
pub mod categories;
pub mod classifier;
pub mod cursor;
pub mod merchant;
pub mod names;
pub mod payees;
pub mod pending;
pub mod period;
pub mod schedule;
pub mod search;
pub mod trends;

#[cfg(test)]
mod fixtures;
