-- avenir-mcp hosted state, schema version 2 (SQLite): confirmation pages.
--
-- A page shows one write's preview to the person who asked for it, at /confirm/{token}; the
-- write that opened it finds it by its key (a sealed state's nonce, or the digest of a call)
-- and takes the answer. answer: NULL until the person answers, then 1 (yes) or 0 (no).
-- token and form are random; the page routes show and answer a page only in its owner's
-- browser session.
CREATE TABLE confirmation_pages (
    token       TEXT PRIMARY KEY,
    person_id   TEXT NOT NULL,
    page_key    TEXT NOT NULL,
    question    TEXT NOT NULL,
    form        TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    answer      INTEGER CHECK (answer IN (0, 1)),
    opened_at   INTEGER NOT NULL,
    UNIQUE (person_id, page_key)
);
CREATE INDEX confirmation_pages_opened ON confirmation_pages (person_id, opened_at);
