-- avenir-mcp hosted state, schema version 1 (SQLite).
--
-- Applied by avenir-hosted's db module inside one BEGIN IMMEDIATE transaction, and recorded
-- in schema_migrations(version, applied_at), which the module makes itself before reading it.
-- Secrets are never stored: codes and tokens by their SHA-256 hex, YNAB's tokens sealed (AES-GCM)
-- by the caller. Times are UTC seconds.

-- The authorization server's clients; metadata is the client's JSON as declared or fetched.
CREATE TABLE oauth_clients (
    client_id  TEXT PRIMARY KEY,
    kind       TEXT NOT NULL CHECK (kind IN ('metadata_document', 'registered')),
    metadata   TEXT NOT NULL,
    updated_at INTEGER NOT NULL
);

-- Sign-ins between our /authorize and YNAB's answer, by the hash of the state sent to YNAB;
-- taken once.
CREATE TABLE oauth_pending_sign_ins (
    key_hash       TEXT PRIMARY KEY,
    client_id      TEXT NOT NULL,
    redirect_uri   TEXT NOT NULL,
    code_challenge TEXT NOT NULL,
    client_state   TEXT,
    scope          TEXT NOT NULL,
    resource       TEXT NOT NULL,
    created_at     INTEGER NOT NULL
);

-- Authorization codes, by hash; taken once at the token endpoint.
CREATE TABLE oauth_codes (
    code_hash      TEXT PRIMARY KEY,
    client_id      TEXT NOT NULL,
    person_id      TEXT NOT NULL,
    redirect_uri   TEXT NOT NULL,
    code_challenge TEXT NOT NULL,
    scope          TEXT NOT NULL,
    resource       TEXT NOT NULL,
    expires_at     INTEGER NOT NULL
);
CREATE INDEX oauth_codes_person ON oauth_codes (person_id);

-- MCP access and refresh tokens, by hash. used: a refresh token already presented once.
CREATE TABLE oauth_tokens (
    token_hash TEXT PRIMARY KEY,
    kind       TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
    person_id  TEXT NOT NULL,
    client_id  TEXT NOT NULL,
    scope      TEXT NOT NULL,
    resource   TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    family     TEXT NOT NULL,
    revoked    INTEGER NOT NULL DEFAULT 0,
    used       INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX oauth_tokens_family ON oauth_tokens (family);
CREATE INDEX oauth_tokens_person ON oauth_tokens (person_id);

-- People: a random id for each YNAB user who signed in.
CREATE TABLE people (
    person_id    TEXT PRIMARY KEY,
    ynab_user_id TEXT NOT NULL UNIQUE,
    created_at   INTEGER NOT NULL
);

-- Each person's YNAB grant: YNAB's tokens sealed together; version grows with every replacement.
CREATE TABLE ynab_grants (
    person_id     TEXT PRIMARY KEY,
    sealed        BLOB NOT NULL,
    expires_at    INTEGER NOT NULL,
    scope         TEXT NOT NULL,
    version       INTEGER NOT NULL,
    needs_sign_in INTEGER NOT NULL
);

-- Each person's journal and intents lines (avenir's journal.jsonl and .intents), seq from 1 per
-- person and stream.
CREATE TABLE journal_lines (
    person_id TEXT NOT NULL,
    stream    TEXT NOT NULL CHECK (stream IN ('journal', 'intents')),
    seq       INTEGER NOT NULL,
    line      TEXT NOT NULL,
    PRIMARY KEY (person_id, stream, seq)
);

-- Confirmation codes, by the SHA-256 hex of the code; taken once.
CREATE TABLE confirmation_codes (
    person_id   TEXT NOT NULL,
    code_digest TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    call_digest TEXT NOT NULL,
    issued_at   INTEGER NOT NULL,
    PRIMARY KEY (person_id, code_digest)
);
CREATE INDEX confirmation_codes_issued ON confirmation_codes (person_id, issued_at);

-- Spent nonces of sealed answer states (global: a nonce is spent once by anyone).
CREATE TABLE spent_nonces (
    nonce    TEXT PRIMARY KEY,
    spent_at INTEGER NOT NULL
);
CREATE INDEX spent_nonces_spent_at ON spent_nonces (spent_at);

-- The pacing ledgers of YNAB's hourly request budget: the ledger file's text under its key.
CREATE TABLE pacing_ledgers (
    key  TEXT PRIMARY KEY,
    text TEXT NOT NULL
);
