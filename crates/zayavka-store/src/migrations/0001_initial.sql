-- Schema version 1. A released migration never changes: a later change is a new file.
--
-- Every table is STRICT so a wrong type is refused instead of silently stored. JSON documents are
-- TEXT checked with json_valid(); the columns beside them are copies for querying only.

-- "ZAYV" in ASCII, so that another program's SQLite file is recognised and left alone.
PRAGMA application_id = 1514232150;

-- Batches come first because drafts refer to their rows.
CREATE TABLE batches (
    id            TEXT PRIMARY KEY NOT NULL
                  CHECK (length(id) = 64 AND id NOT GLOB '*[^0-9a-f]*'),
    file_name     TEXT NOT NULL,
    created_at    TEXT NOT NULL,
    row_count     INTEGER NOT NULL CHECK (row_count >= 0),
    settings_json TEXT NOT NULL CHECK (json_valid(settings_json))
) STRICT;

CREATE TABLE batch_rows (
    batch_id           TEXT NOT NULL REFERENCES batches (id),
    row_number         INTEGER NOT NULL CHECK (row_number >= 1),
    raw_input_json     TEXT NOT NULL CHECK (json_valid(raw_input_json)),
    checked_input_json TEXT CHECK (checked_input_json IS NULL OR json_valid(checked_input_json)),
    header_json        TEXT CHECK (header_json IS NULL OR json_valid(header_json)),
    state              TEXT NOT NULL DEFAULT 'pending'
                       CHECK (state IN ('pending', 'done', 'failed_retryable', 'failed')),
    PRIMARY KEY (batch_id, row_number)
) STRICT, WITHOUT ROWID;

-- AUTOINCREMENT so that the id of a deleted draft is never given to a new one: the audit log
-- keeps the old id, and it must keep meaning the deleted draft.
CREATE TABLE drafts (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    created_at         TEXT NOT NULL,
    updated_at         TEXT NOT NULL,
    raw_input_json     TEXT NOT NULL CHECK (json_valid(raw_input_json)),
    checked_input_json TEXT CHECK (checked_input_json IS NULL OR json_valid(checked_input_json)),
    outcome            TEXT NOT NULL
                       CHECK (outcome IN ('pending', 'ready', 'needs_user', 'rejected', 'failed',
                                          'invalid_input')),
    reason             TEXT,
    retryable          INTEGER CHECK (retryable IN (0, 1)),
    title              TEXT,
    body               TEXT,
    request_json       TEXT CHECK (request_json IS NULL OR json_valid(request_json)),
    warnings_json      TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(warnings_json)),
    subject_module     TEXT,
    legal_omission     TEXT,
    model_used         INTEGER NOT NULL DEFAULT 0 CHECK (model_used IN (0, 1)),
    batch_id           TEXT,
    batch_row          INTEGER,
    CHECK ((batch_id IS NULL) = (batch_row IS NULL)),
    -- A batch row never has two drafts.
    UNIQUE (batch_id, batch_row),
    FOREIGN KEY (batch_id, batch_row) REFERENCES batch_rows (batch_id, row_number)
) STRICT;

CREATE INDEX drafts_by_created ON drafts (created_at, id);
CREATE INDEX drafts_by_outcome ON drafts (outcome, created_at);
CREATE INDEX drafts_by_subject ON drafts (subject_module) WHERE subject_module IS NOT NULL;

-- The resident's edits. The assembled version stays in drafts.
CREATE TABLE draft_versions (
    draft_id   INTEGER NOT NULL REFERENCES drafts (id) ON DELETE CASCADE,
    version    INTEGER NOT NULL CHECK (version >= 1),
    author     TEXT NOT NULL,
    title      TEXT NOT NULL,
    body       TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (draft_id, version)
) STRICT, WITHOUT ROWID;

-- One per model run of a draft; a retried draft may have several.
CREATE TABLE context_records (
    id                      INTEGER PRIMARY KEY,
    draft_id                INTEGER NOT NULL REFERENCES drafts (id) ON DELETE CASCADE,
    created_at              TEXT NOT NULL,
    format_version          INTEGER NOT NULL CHECK (format_version >= 1),
    record_json             TEXT NOT NULL CHECK (json_valid(record_json)),
    app_version             TEXT NOT NULL,
    prompt_version          TEXT NOT NULL,
    prompt_sha256           TEXT NOT NULL,
    schema_id               TEXT NOT NULL,
    schema_version          INTEGER NOT NULL,
    schema_sha256           TEXT NOT NULL,
    transport_schema_sha256 TEXT,
    legal_catalogue_version TEXT NOT NULL,
    provider_profile        TEXT NOT NULL,
    provider_host           TEXT NOT NULL,
    model                   TEXT NOT NULL
) STRICT;

CREATE INDEX context_records_by_draft ON context_records (draft_id);

-- Each HTTP call. Attempts belong to a draft, and to the record of their run when there is one.
CREATE TABLE attempts (
    id                 INTEGER PRIMARY KEY,
    draft_id           INTEGER NOT NULL REFERENCES drafts (id) ON DELETE CASCADE,
    record_id          INTEGER REFERENCES context_records (id) ON DELETE CASCADE,
    number             INTEGER NOT NULL CHECK (number >= 1),
    started_at_unix_ms INTEGER NOT NULL,
    duration_ms        INTEGER NOT NULL CHECK (duration_ms >= 0),
    http_status        INTEGER,
    error_kind         TEXT,
    retry_reason       TEXT,
    prompt_tokens      INTEGER,
    completion_tokens  INTEGER,
    total_tokens       INTEGER,
    cost               REAL
) STRICT;

CREATE INDEX attempts_by_draft ON attempts (draft_id);
CREATE INDEX attempts_by_record ON attempts (record_id);

-- The append-only audit log: ids, event kinds, codes and hashes, never the resident's text. It has
-- no foreign key to drafts on purpose, so deleting a draft keeps its history.
CREATE TABLE audit_events (
    seq       INTEGER PRIMARY KEY AUTOINCREMENT,
    at        TEXT NOT NULL,
    kind      TEXT NOT NULL
              CHECK (kind IN ('draft_created', 'draft_finished', 'draft_edited', 'draft_deleted',
                              'draft_retried', 'batch_created', 'batch_row_claimed',
                              'batch_row_finished')),
    draft_id  INTEGER,
    batch_id  TEXT,
    batch_row INTEGER,
    sha256    TEXT CHECK (sha256 IS NULL OR (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*')),
    -- A code such as an outcome or a row state; the GLOB keeps free text out.
    detail    TEXT CHECK (detail IS NULL OR (detail <> '' AND detail NOT GLOB '*[^a-z0-9_]*'))
) STRICT;

CREATE INDEX audit_events_by_draft ON audit_events (draft_id) WHERE draft_id IS NOT NULL;

CREATE TRIGGER audit_events_refuse_update BEFORE UPDATE ON audit_events
BEGIN
    SELECT RAISE(ABORT, 'audit_events is append-only');
END;

CREATE TRIGGER audit_events_refuse_delete BEFORE DELETE ON audit_events
BEGIN
    SELECT RAISE(ABORT, 'audit_events is append-only');
END;

-- Full-text search over the resident's words and the request, folded in Rust (lower case, «ё» as
-- «е»). remove_diacritics 0 keeps «й» distinct from «и»; the rowid is the draft's id.
CREATE VIRTUAL TABLE draft_search USING fts5 (
    description,
    location,
    consequences,
    desired_actions,
    title,
    body,
    tokenize = 'unicode61 remove_diacritics 0'
);

-- Deleting a row removes its terms from the index itself, not only behind a delete marker.
INSERT INTO draft_search (draft_search, rank) VALUES ('secure-delete', 1);
