//! The schema this binary knows: its migrations, embedded in the binary, and its version; and
//! the clock rows are stamped with.

/// The migrations this binary knows, in order: (version, PostgreSQL, SQLite).
pub(super) const MIGRATIONS: &[(i64, &str, &str)] = &[
    (
        1,
        include_str!("migrations/postgres/0001_init.sql"),
        include_str!("migrations/sqlite/0001_init.sql"),
    ),
    (
        2,
        include_str!("migrations/postgres/0002_confirmation_pages.sql"),
        include_str!("migrations/sqlite/0002_confirmation_pages.sql"),
    ),
    (
        3,
        include_str!("migrations/postgres/0003_oauth_families_and_sweep.sql"),
        include_str!("migrations/sqlite/0003_oauth_families_and_sweep.sql"),
    ),
];

/// The newest schema version this binary knows.
pub const SCHEMA_VERSION: i64 = 3;

/// UTC seconds now, as rows record it.
pub(super) fn now() -> i64 {
    chrono::Utc::now().timestamp()
}
