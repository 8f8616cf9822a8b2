-- Version 6: what happens after a request is filed (issue 30, ADR 34).
--
-- A draft the resident filed has a case: when and how it was filed, the incoming number, the
-- addressee, when a letter was delivered, the answer and its result, and whether the case is
-- closed. The deadline is not stored: it is counted from these dates and the production
-- calendar whenever it is shown, so a corrected calendar corrects every deadline. Dates are
-- days (YYYY-MM-DD), as the resident reads them off a stamp or a notice.

CREATE TABLE cases (
    draft_id     INTEGER PRIMARY KEY REFERENCES drafts (id) ON DELETE CASCADE,
    filed_on     TEXT NOT NULL
                 CHECK (filed_on GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]'),
    method       TEXT NOT NULL
                 CHECK (method IN ('in_person', 'letter', 'email', 'gis', 'site', 'other')),
    -- The incoming number the company gave, as written on the stamp: any characters.
    number       TEXT CHECK (number IS NULL OR number <> ''),
    addressee    TEXT CHECK (addressee IS NULL OR addressee <> ''),
    -- For a letter, the day it was delivered, from the notice or the tracking.
    delivered_on TEXT
                 CHECK (delivered_on IS NULL
                        OR delivered_on GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]'),
    answered_on  TEXT
                 CHECK (answered_on IS NULL
                        OR answered_on GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]'),
    result       TEXT CHECK (result IS NULL OR result IN ('solved', 'partly', 'refused',
                                                          'unaddressed')),
    closed_on    TEXT
                 CHECK (closed_on IS NULL
                        OR closed_on GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]'),
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL,
    CHECK (delivered_on IS NULL OR delivered_on >= filed_on),
    CHECK ((answered_on IS NULL) = (result IS NULL)),
    CHECK (answered_on IS NULL OR answered_on >= filed_on),
    CHECK (closed_on IS NULL OR closed_on >= filed_on)
) STRICT;

CREATE INDEX cases_by_filed ON cases (filed_on, draft_id);

-- A draft written after another: a correction of a filed draft, a repeat request or a
-- complaint to the housing inspectorate. Deleting the first keeps the second, unlinked.
ALTER TABLE drafts ADD COLUMN follows INTEGER REFERENCES drafts (id) ON DELETE SET NULL;
ALTER TABLE drafts ADD COLUMN follow_kind TEXT
    CHECK (follow_kind IS NULL OR follow_kind IN ('correction', 'repeat', 'complaint'));
-- The addressee a letter is written to when it is not the profile's management company (a
-- complaint's housing inspectorate), for the document's «Кому».
ALTER TABLE drafts ADD COLUMN addressee TEXT CHECK (addressee IS NULL OR addressee <> '');

CREATE INDEX drafts_by_follows ON drafts (follows) WHERE follows IS NOT NULL;

-- A photo is evidence of the problem (in the request's appendix), proof of filing (the stamped
-- copy, the postal receipt) or the answer (its pages). Every photo stored so far is evidence.
ALTER TABLE attachments ADD COLUMN role TEXT NOT NULL DEFAULT 'evidence'
    CHECK (role IN ('evidence', 'filing', 'answer'));

-- A filed draft's text is what the company received: it no longer changes. The store refuses
-- first, with a message; these keep any other writer to the same rule.
CREATE TRIGGER filed_drafts_keep_their_text BEFORE INSERT ON draft_versions
WHEN EXISTS (SELECT 1 FROM cases WHERE draft_id = NEW.draft_id)
BEGIN
    SELECT RAISE(ABORT, 'a filed draft keeps its text');
END;

CREATE TRIGGER filed_drafts_keep_their_evidence BEFORE INSERT ON attachments
WHEN NEW.role = 'evidence' AND EXISTS (SELECT 1 FROM cases WHERE draft_id = NEW.draft_id)
BEGIN
    SELECT RAISE(ABORT, 'a filed draft keeps its photos');
END;

-- The audit log learns the case's events. Rebuilt as in version 3.
CREATE TABLE audit_events_v6 (
    seq       INTEGER PRIMARY KEY AUTOINCREMENT,
    at        TEXT NOT NULL,
    kind      TEXT NOT NULL
              CHECK (kind IN ('draft_created', 'draft_finished', 'draft_edited', 'draft_deleted',
                              'draft_retried', 'batch_created', 'batch_row_claimed',
                              'batch_row_finished', 'attachment_added', 'attachment_removed',
                              'batch_file_read', 'draft_filed', 'filing_amended',
                              'filing_withdrawn', 'answer_recorded', 'case_closed',
                              'case_reopened', 'follow_up_created')),
    draft_id  INTEGER,
    batch_id  TEXT,
    batch_row INTEGER,
    sha256    TEXT CHECK (sha256 IS NULL OR (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*')),
    -- A code such as an outcome, a row state or an attachment's id; the GLOB keeps free text out.
    detail    TEXT CHECK (detail IS NULL OR (detail <> '' AND detail NOT GLOB '*[^a-z0-9_]*'))
) STRICT;

INSERT INTO audit_events_v6 (seq, at, kind, draft_id, batch_id, batch_row, sha256, detail)
    SELECT seq, at, kind, draft_id, batch_id, batch_row, sha256, detail FROM audit_events;

DROP TABLE audit_events;
ALTER TABLE audit_events_v6 RENAME TO audit_events;

CREATE INDEX audit_events_by_draft ON audit_events (draft_id) WHERE draft_id IS NOT NULL;

CREATE TRIGGER audit_events_refuse_update BEFORE UPDATE ON audit_events
BEGIN
    SELECT RAISE(ABORT, 'audit_events is append-only');
END;

CREATE TRIGGER audit_events_refuse_delete BEFORE DELETE ON audit_events
BEGIN
    SELECT RAISE(ABORT, 'audit_events is append-only');
END;
