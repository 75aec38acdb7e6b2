//! Pure, synchronous functions over plan data: no I/O and no clock ("today" is passed in).
//! Tools call them and shape what they return; every rule with a constant lives here.

pub mod accounts;
pub mod categories;
pub mod merchant;
pub mod payees;
