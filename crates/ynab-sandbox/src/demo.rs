//! The demo plan.
