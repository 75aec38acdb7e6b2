//! The hosted state on PostgreSQL or SQLite.
