-- Version 5: evaluation runs and their cassettes (issue 17, ADR 28).
--
-- `zayavka eval --run` stores every answer of the model as a cassette the moment it arrives, so
-- that `zayavka eval --replay RUN` checks a past run again, offline, against changed checks or
-- case files. A run is a set of cassettes under one id; nothing here refers to a draft, and the
-- evaluated inputs are the maintainers' corpus, never a resident's text.

CREATE TABLE eval_runs (
    id             TEXT PRIMARY KEY
                   CHECK (length(id) BETWEEN 1 AND 64 AND id NOT GLOB '*[^0-9a-z-]*'),
    created_at     TEXT NOT NULL,
    prompt_version TEXT NOT NULL CHECK (prompt_version <> ''),
    prompt_sha256  TEXT NOT NULL
                   CHECK (length(prompt_sha256) = 64 AND prompt_sha256 NOT GLOB '*[^0-9a-f]*'),
    schema_id      TEXT NOT NULL,
    schema_version INTEGER NOT NULL CHECK (schema_version >= 1),
    -- The profiles' names in the order given, as a JSON array of strings.
    profiles_json  TEXT NOT NULL CHECK (json_valid(profiles_json)),
    -- The plan as the run printed it (cases, repeats, requests, the cost cap), a JSON object.
    plan_json      TEXT NOT NULL CHECK (json_valid(plan_json))
) STRICT;

CREATE INDEX eval_runs_by_time ON eval_runs (created_at);

-- One answer for one case, profile and repeat. `replies_json` is the model's reply as the
-- adapter read it (content, refusal, finish reason), one per response in order when the answer
-- was asked for again; the last one decided the outcome. NULL when no answer came (a technical
-- failure, or an input refused before any call).
CREATE TABLE eval_cassettes (
    run_id            TEXT NOT NULL REFERENCES eval_runs (id) ON DELETE CASCADE,
    case_id           TEXT NOT NULL CHECK (case_id <> ''),
    profile           TEXT NOT NULL CHECK (profile <> ''),
    repeat            INTEGER NOT NULL CHECK (repeat >= 1),
    created_at        TEXT NOT NULL,
    input_json        TEXT NOT NULL CHECK (json_valid(input_json)),
    replies_json      TEXT CHECK (replies_json IS NULL OR json_valid(replies_json)),
    outcome           TEXT NOT NULL CHECK (outcome NOT GLOB '*[^a-z_]*' AND outcome <> ''),
    reason            TEXT CHECK (reason IS NULL OR (reason <> '' AND reason NOT GLOB '*[^a-z0-9_]*')),
    failure_detail    TEXT,
    model             TEXT,
    provider_host     TEXT,
    prompt_tokens     INTEGER CHECK (prompt_tokens IS NULL OR prompt_tokens >= 0),
    completion_tokens INTEGER CHECK (completion_tokens IS NULL OR completion_tokens >= 0),
    latency_ms        INTEGER NOT NULL CHECK (latency_ms >= 0),
    cost              REAL CHECK (cost IS NULL OR cost >= 0),
    currency          TEXT,
    PRIMARY KEY (run_id, case_id, profile, repeat)
) STRICT;
