//! A throwaway PostgreSQL for tests.
