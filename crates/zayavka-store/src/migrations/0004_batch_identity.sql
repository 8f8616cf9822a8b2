-- Version 4: a batch is the activist's file, not its bytes (issue 14, ADR 14).
--
-- A batch keeps the path of the file it was run from, so that running the file again continues
-- it after an edit, and a short number people can type. Its rows are recognised by what they
-- hold: `input_key` is the SHA-256 of the row's input (filled in by the migration step in Rust,
-- which the SQL cannot hash), and `file_row` the row's number in the file as last run, or NULL
-- when the row is no longer in the file. `row_number` stays the row's key inside the batch,
-- which its draft refers to; for rows stored by the first run it is also their file row.

ALTER TABLE batches ADD COLUMN number INTEGER CHECK (number IS NULL OR number >= 1);
ALTER TABLE batches ADD COLUMN source_path TEXT;
ALTER TABLE batches ADD COLUMN content_sha256 TEXT
    CHECK (content_sha256 IS NULL OR (length(content_sha256) = 64
           AND content_sha256 NOT GLOB '*[^0-9a-f]*'));
ALTER TABLE batches ADD COLUMN updated_at TEXT;

-- The batches stored so far, numbered in the order they were created; their id was the hash of
-- the file they were read from.
UPDATE batches SET
    number = (SELECT count(*) FROM batches AS earlier
              WHERE earlier.created_at < batches.created_at
                 OR (earlier.created_at = batches.created_at AND earlier.id <= batches.id)),
    content_sha256 = id,
    updated_at = created_at;

CREATE UNIQUE INDEX batches_by_number ON batches (number);
CREATE INDEX batches_by_source ON batches (source_path, updated_at);
CREATE INDEX batches_by_content ON batches (content_sha256, updated_at);

ALTER TABLE batch_rows ADD COLUMN file_row INTEGER CHECK (file_row IS NULL OR file_row >= 1);
ALTER TABLE batch_rows ADD COLUMN input_key TEXT;

UPDATE batch_rows SET file_row = row_number;

CREATE UNIQUE INDEX batch_rows_by_file_row ON batch_rows (batch_id, file_row)
    WHERE file_row IS NOT NULL;

-- The audit log learns one kind of event: a later run read the batch's file again and matched
-- its rows (`batch_file_read`, with the file's hash). Rebuilt as in version 3.
CREATE TABLE audit_events_v4 (
    seq       INTEGER PRIMARY KEY AUTOINCREMENT,
    at        TEXT NOT NULL,
    kind      TEXT NOT NULL
              CHECK (kind IN ('draft_created', 'draft_finished', 'draft_edited', 'draft_deleted',
                              'draft_retried', 'batch_created', 'batch_row_claimed',
                              'batch_row_finished', 'attachment_added', 'attachment_removed',
                              'batch_file_read')),
    draft_id  INTEGER,
    batch_id  TEXT,
    batch_row INTEGER,
    sha256    TEXT CHECK (sha256 IS NULL OR (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*')),
    -- A code such as an outcome, a row state or an attachment's id; the GLOB keeps free text out.
    detail    TEXT CHECK (detail IS NULL OR (detail <> '' AND detail NOT GLOB '*[^a-z0-9_]*'))
) STRICT;

INSERT INTO audit_events_v4 (seq, at, kind, draft_id, batch_id, batch_row, sha256, detail)
    SELECT seq, at, kind, draft_id, batch_id, batch_row, sha256, detail FROM audit_events;

DROP TABLE audit_events;
ALTER TABLE audit_events_v4 RENAME TO audit_events;

CREATE INDEX audit_events_by_draft ON audit_events (draft_id) WHERE draft_id IS NOT NULL;

CREATE TRIGGER audit_events_refuse_update BEFORE UPDATE ON audit_events
BEGIN
    SELECT RAISE(ABORT, 'audit_events is append-only');
END;

CREATE TRIGGER audit_events_refuse_delete BEFORE DELETE ON audit_events
BEGIN
    SELECT RAISE(ABORT, 'audit_events is append-only');
END;
