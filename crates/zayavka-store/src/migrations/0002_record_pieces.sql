-- Schema version 2: the large parts that repeat from one context record to the next (the system
-- prompt, the transport schema) are stored once, by the SHA-256 of their JSON text. A record
-- holds {"$piece":"<sha256>"} in their place and reads back byte for byte as written (ADR 9).
-- The records version 1 stored whole are split by the migration code after this file runs.

CREATE TABLE record_pieces (
    sha256 TEXT PRIMARY KEY NOT NULL
           CHECK (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*'),
    json   TEXT NOT NULL CHECK (json_valid(json))
) STRICT;

-- Which record uses which piece: a piece no record uses is deleted with the last draft using it.
CREATE TABLE context_record_pieces (
    record_id INTEGER NOT NULL REFERENCES context_records (id) ON DELETE CASCADE,
    sha256    TEXT NOT NULL REFERENCES record_pieces (sha256),
    PRIMARY KEY (record_id, sha256)
) STRICT, WITHOUT ROWID;

CREATE INDEX context_record_pieces_by_piece ON context_record_pieces (sha256);
