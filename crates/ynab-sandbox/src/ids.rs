//! Ids of the sandbox: UUID v5 of readable names (decision D26).
