//! The integration tests of this crate, one binary: the command line, crash recovery and install
//! files. Each module is one file of `tests/`; a new test file is one more `mod` line here.

mod binary;
mod cli;
mod crash;
mod install;
