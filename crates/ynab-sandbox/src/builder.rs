//! A small builder for plans.
