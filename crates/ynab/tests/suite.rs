//! The integration tests of this crate, one binary: the YNAB client against the sandbox and
//! injected faults. Each module is one file of `tests/`; a new test file is one more `mod` line
//! here.

mod bodies;
mod faults;
mod sandbox;
