//! Derived figures.
