-- Schema version 3: photos attached to a draft as evidence (ADR 18). The bytes live here, in the
-- database, so that deleting a draft, a backup and two programs writing at once treat them
-- exactly like the draft's text. Only copies with their metadata already removed are stored;
-- the resident's file name is never stored.

-- AUTOINCREMENT so that an attachment's id, which the audit log keeps, is never given to
-- another photo. The bytes are the last column so that listing a draft's photos reads only the
-- first page of each row, never the image.
CREATE TABLE attachments (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    draft_id   INTEGER NOT NULL REFERENCES drafts (id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    media_type TEXT NOT NULL CHECK (media_type IN ('image/jpeg', 'image/png')),
    width      INTEGER NOT NULL CHECK (width > 0),
    height     INTEGER NOT NULL CHECK (height > 0),
    byte_size  INTEGER NOT NULL CHECK (byte_size > 0),
    sha256     TEXT NOT NULL CHECK (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*'),
    bytes      BLOB NOT NULL CHECK (length(bytes) = byte_size)
) STRICT;

CREATE INDEX attachments_by_draft ON attachments (draft_id, id);

-- The audit log learns two kinds of event. SQLite cannot change a CHECK constraint in place, so
-- the table is rebuilt with every event copied, in this migration's transaction. DROP TABLE
-- fires no trigger, so the append-only triggers do not stand in the way; they are created again
-- on the new table. Renaming keeps the AUTOINCREMENT counter (sqlite_sequence follows the name).
CREATE TABLE audit_events_v3 (
    seq       INTEGER PRIMARY KEY AUTOINCREMENT,
    at        TEXT NOT NULL,
    kind      TEXT NOT NULL
              CHECK (kind IN ('draft_created', 'draft_finished', 'draft_edited', 'draft_deleted',
                              'draft_retried', 'batch_created', 'batch_row_claimed',
                              'batch_row_finished', 'attachment_added', 'attachment_removed')),
    draft_id  INTEGER,
    batch_id  TEXT,
    batch_row INTEGER,
    sha256    TEXT CHECK (sha256 IS NULL OR (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*')),
    -- A code such as an outcome, a row state or an attachment's id; the GLOB keeps free text out.
    detail    TEXT CHECK (detail IS NULL OR (detail <> '' AND detail NOT GLOB '*[^a-z0-9_]*'))
) STRICT;

INSERT INTO audit_events_v3 (seq, at, kind, draft_id, batch_id, batch_row, sha256, detail)
    SELECT seq, at, kind, draft_id, batch_id, batch_row, sha256, detail FROM audit_events;

DROP TABLE audit_events;
ALTER TABLE audit_events_v3 RENAME TO audit_events;

CREATE INDEX audit_events_by_draft ON audit_events (draft_id) WHERE draft_id IS NOT NULL;

CREATE TRIGGER audit_events_refuse_update BEFORE UPDATE ON audit_events
BEGIN
    SELECT RAISE(ABORT, 'audit_events is append-only');
END;

CREATE TRIGGER audit_events_refuse_delete BEFORE DELETE ON audit_events
BEGIN
    SELECT RAISE(ABORT, 'audit_events is append-only');
END;
