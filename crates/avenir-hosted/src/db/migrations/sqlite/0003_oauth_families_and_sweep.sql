-- avenir-mcp hosted state, schema version 3 (SQLite): token families that can be revoked as a
-- whole, authorization codes kept once used, and what the expiry sweep deletes by.
--
-- oauth_families: one row per sign-in (an authorization code and every token rotated from it).
-- A token counts as revoked when its own row or its family's says so: revoking a family is one
-- row, and a token issued into it afterwards (a concurrent refresh losing to a replay) is born
-- revoked (RFC 9700 §4.14.2).
CREATE TABLE oauth_families (
    family  TEXT PRIMARY KEY,
    revoked INTEGER NOT NULL DEFAULT 0
);
INSERT INTO oauth_families (family, revoked)
    SELECT family, MIN(revoked) FROM oauth_tokens GROUP BY family;

-- A code is marked used, with the family its tokens went to, instead of deleted: presented
-- again, that family is revoked (OAuth 2.1 section 4.1.3). The sweep deletes it a day after it expires.
ALTER TABLE oauth_codes ADD COLUMN used INTEGER NOT NULL DEFAULT 0;
ALTER TABLE oauth_codes ADD COLUMN family TEXT;

-- What the sweep deletes by.
CREATE INDEX oauth_codes_expires ON oauth_codes (expires_at);
CREATE INDEX oauth_tokens_expires ON oauth_tokens (expires_at);
CREATE INDEX oauth_tokens_client ON oauth_tokens (client_id);
CREATE INDEX oauth_pending_created ON oauth_pending_sign_ins (created_at);
CREATE INDEX oauth_clients_updated ON oauth_clients (updated_at);
