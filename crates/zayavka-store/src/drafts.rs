//! Drafts: storing, finishing, editing, reading, listing, searching and deleting them.

use rusqlite::{OptionalExtension, Row, Transaction, params};

use crate::audit::{self, Event, unknown_code};
use crate::columns::{now_text, parse_timestamp, sha256_hex, timestamp_text};
use crate::error::StoreError;
use crate::faults;
use crate::model::{
    AuditKind, BatchRowRef, DeletedDraft, DraftFilter, DraftId, DraftOutcome, DraftSummary,
    DraftVersion, FinishedDraft, NewAttempt, NewContextRecord, NewDraft, NewVersion,
    StoredContextRecord, StoredDraft,
};
use crate::pieces;
use crate::search;
use crate::store::Store;

/// The columns [`summary_from_row`] reads, in its order, from `drafts AS d`.
pub(crate) const SUMMARY_COLUMNS: &str = "d.id, d.created_at, d.updated_at, d.outcome, d.reason, \
     d.title, d.subject_module, d.batch_id, d.batch_row, d.raw_input_json, d.checked_input_json, \
     (SELECT max(v.version) FROM draft_versions AS v WHERE v.draft_id = d.id)";

pub(crate) fn summary_from_row(row: &Row<'_>) -> rusqlite::Result<DraftSummary> {
    let outcome: String = row.get(3)?;
    let batch_id: Option<String> = row.get(7)?;
    let batch_row: Option<u32> = row.get(8)?;
    Ok(DraftSummary {
        id: row.get(0)?,
        created_at: parse_timestamp(&row.get::<_, String>(1)?)?,
        updated_at: parse_timestamp(&row.get::<_, String>(2)?)?,
        outcome: DraftOutcome::from_code(&outcome).ok_or_else(|| unknown_code(3, &outcome))?,
        reason: row.get(4)?,
        title: row.get(5)?,
        subject_module: row.get(6)?,
        batch: batch_id
            .zip(batch_row)
            .map(|(batch_id, row)| BatchRowRef { batch_id, row }),
        raw_input_json: row.get(9)?,
        checked_input_json: row.get(10)?,
        latest_version: row.get(11)?,
    })
}

/// Refuses a string that is not a JSON document before it reaches a CHECK constraint, so the
/// caller learns which field was wrong.
pub(crate) fn check_json(field: &'static str, text: &str) -> Result<(), StoreError> {
    serde_json::from_str::<serde::de::IgnoredAny>(text)
        .map(|_| ())
        .map_err(|_| StoreError::InvalidJson { field })
}

/// Refuses a code that the audit log could not hold (it takes `[a-z0-9_]+` only).
pub(crate) fn check_code(field: &'static str, code: &str) -> Result<(), StoreError> {
    let valid = !code.is_empty()
        && code
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
    if valid {
        Ok(())
    } else {
        Err(StoreError::InvalidCode { field })
    }
}

fn to_i64(field: &'static str, value: u64) -> Result<i64, StoreError> {
    i64::try_from(value).map_err(|_| StoreError::ValueTooLarge { field })
}

/// Inserts a pending draft in the caller's transaction, with its index row and audit event.
pub(crate) fn insert_pending(
    tx: &Transaction<'_>,
    draft: &NewDraft,
    batch: Option<(&str, u32)>,
) -> Result<DraftId, StoreError> {
    check_json("raw_input_json", &draft.raw_input_json)?;
    if let Some(checked) = &draft.checked_input_json {
        check_json("checked_input_json", checked)?;
    }
    let now = now_text();
    tx.prepare_cached(
        "INSERT INTO drafts (created_at, updated_at, raw_input_json, checked_input_json, outcome,
                             batch_id, batch_row)
         VALUES (?1, ?1, ?2, ?3, 'pending', ?4, ?5)",
    )?
    .execute(params![
        now,
        draft.raw_input_json,
        draft.checked_input_json,
        batch.map(|(id, _)| id),
        batch.map(|(_, row)| row),
    ])?;
    let rowid = tx.last_insert_rowid();
    let id = DraftId::new(rowid).ok_or(rusqlite::Error::IntegralValueOutOfRange(0, rowid))?;
    faults::point("draft_insert", "row");
    search::refresh(tx, id)?;
    faults::point("draft_insert", "index");
    audit::record(
        tx,
        AuditKind::DraftCreated,
        Event {
            draft_id: Some(id),
            batch_id: batch.map(|(id, _)| id),
            batch_row: batch.map(|(_, row)| row),
            sha256: Some(sha256_hex(&draft.raw_input_json)),
            ..Event::default()
        },
    )?;
    Ok(id)
}

/// Whether the draft has been filed (issue 30): its text and evidence then no longer change.
pub(crate) fn is_filed(tx: &Transaction<'_>, draft_id: DraftId) -> Result<bool, StoreError> {
    let filed = tx
        .prepare_cached("SELECT 1 FROM cases WHERE draft_id = ?1")?
        .exists([draft_id.get()])?;
    Ok(filed)
}

/// The stored outcome of a draft, or [`StoreError::DraftNotFound`].
pub(crate) fn outcome_of(tx: &Transaction<'_>, id: DraftId) -> Result<DraftOutcome, StoreError> {
    let code: Option<String> = tx
        .query_row(
            "SELECT outcome FROM drafts WHERE id = ?1",
            [id.get()],
            |row| row.get(0),
        )
        .optional()?;
    let code = code.ok_or(StoreError::DraftNotFound(id))?;
    Ok(DraftOutcome::from_code(&code).ok_or_else(|| unknown_code(0, &code))?)
}

impl Store {
    /// Stores the resident's input as a pending draft and commits it, before anything else
    /// happens, so that nothing typed is lost whatever follows.
    pub fn create_draft(&self, draft: &NewDraft) -> Result<DraftId, StoreError> {
        let tx = self.write()?;
        let id = insert_pending(&tx, draft, None)?;
        Store::commit(tx, "draft_create")?;
        Ok(id)
    }

    /// Records how a pending draft ended, with the context record of its run and its attempts,
    /// all in one transaction. A draft that already ended is refused: send it again with
    /// [`Store::begin_retry`] first.
    pub fn finish_draft(
        &self,
        id: DraftId,
        finished: &FinishedDraft,
        record: Option<&NewContextRecord>,
        attempts: &[NewAttempt],
    ) -> Result<(), StoreError> {
        check_finished(finished, record)?;
        let tx = self.write()?;
        finish_in(&tx, id, finished, record, attempts)?;
        Store::commit(tx, "draft_finish")?;
        Ok(())
    }

    /// Sets a draft back to pending so that it can be sent again; its earlier records and
    /// attempts stay. The previous result is cleared, since a pending draft has none.
    pub fn begin_retry(&self, id: DraftId) -> Result<(), StoreError> {
        let tx = self.write()?;
        let previous = outcome_of(&tx, id)?;
        tx.execute(
            "UPDATE drafts
             SET updated_at = ?2, outcome = 'pending', reason = NULL, retryable = NULL,
                 title = NULL, body = NULL, request_json = NULL, warnings_json = '[]',
                 subject_module = NULL, legal_omission = NULL, model_used = 0
             WHERE id = ?1",
            params![id.get(), now_text()],
        )?;
        search::refresh(&tx, id)?;
        audit::record(
            &tx,
            AuditKind::DraftRetried,
            Event {
                draft_id: Some(id),
                detail: Some(previous.code()),
                ..Event::default()
            },
        )?;
        Store::commit(tx, "draft_retry")?;
        Ok(())
    }

    /// Stores a new version of the draft's request text and returns its number (from 1). The
    /// assembled version stays as it was. The author is a code such as `resident`. A filed
    /// draft keeps its text ([`StoreError::DraftFiled`]).
    pub fn add_version(&self, id: DraftId, version: &NewVersion) -> Result<u32, StoreError> {
        check_code("author", &version.author)?;
        let tx = self.write()?;
        outcome_of(&tx, id)?;
        if is_filed(&tx, id)? {
            return Err(StoreError::DraftFiled(id));
        }
        let number = insert_version(&tx, id, version, "draft_edit")?;
        Store::commit(tx, "draft_edit")?;
        Ok(number)
    }

    /// The whole draft with its versions, records and attempts, or `None` when there is no
    /// such draft.
    pub fn get_draft(&self, id: DraftId) -> Result<Option<StoredDraft>, StoreError> {
        let tx = self.read()?;
        let sql = format!(
            "SELECT {SUMMARY_COLUMNS}, d.body, d.retryable, d.request_json, d.warnings_json,
                    d.legal_omission, d.model_used
             FROM drafts AS d WHERE d.id = ?1"
        );
        let draft = tx
            .query_row(&sql, [id.get()], |row| {
                Ok(StoredDraft {
                    summary: summary_from_row(row)?,
                    body: row.get(12)?,
                    retryable: row.get(13)?,
                    request_json: row.get(14)?,
                    warnings_json: row.get(15)?,
                    legal_omission: row.get(16)?,
                    model_used: row.get(17)?,
                    versions: Vec::new(),
                    records: Vec::new(),
                    attempts: Vec::new(),
                })
            })
            .optional()?;
        let Some(mut draft) = draft else {
            return Ok(None);
        };
        draft.versions = tx
            .prepare_cached(
                "SELECT version, author, title, body, created_at FROM draft_versions
                 WHERE draft_id = ?1 ORDER BY version",
            )?
            .query_map([id.get()], |row| {
                Ok(DraftVersion {
                    version: row.get(0)?,
                    author: row.get(1)?,
                    title: row.get(2)?,
                    body: row.get(3)?,
                    created_at: parse_timestamp(&row.get::<_, String>(4)?)?,
                })
            })?
            .collect::<Result<_, _>>()?;
        draft.records = tx
            .prepare_cached(
                "SELECT id, created_at, format_version, record_json, app_version, prompt_version,
                        prompt_sha256, schema_id, schema_version, schema_sha256,
                        transport_schema_sha256, legal_catalogue_version, provider_profile,
                        provider_host, model
                 FROM context_records WHERE draft_id = ?1 ORDER BY id",
            )?
            .query_map([id.get()], |row| {
                Ok(StoredContextRecord {
                    id: row.get(0)?,
                    created_at: parse_timestamp(&row.get::<_, String>(1)?)?,
                    record: NewContextRecord {
                        format_version: row.get(2)?,
                        record_json: row.get(3)?,
                        app_version: row.get(4)?,
                        prompt_version: row.get(5)?,
                        prompt_sha256: row.get(6)?,
                        schema_id: row.get(7)?,
                        schema_version: row.get(8)?,
                        schema_sha256: row.get(9)?,
                        transport_schema_sha256: row.get(10)?,
                        legal_catalogue_version: row.get(11)?,
                        provider_profile: row.get(12)?,
                        provider_host: row.get(13)?,
                        model: row.get(14)?,
                    },
                })
            })?
            .collect::<Result<_, _>>()?;
        for stored in &mut draft.records {
            let json = std::mem::take(&mut stored.record.record_json);
            stored.record.record_json = pieces::join(&tx, json)?;
        }
        draft.attempts = tx
            .prepare_cached(crate::stats::DRAFT_ATTEMPTS)?
            .query_map([id.get()], crate::stats::attempt_from_row)?
            .collect::<Result<_, _>>()?;
        Ok(Some(draft))
    }

    /// The drafts that match the filter, newest first.
    pub fn list_drafts(&self, filter: &DraftFilter) -> Result<Vec<DraftSummary>, StoreError> {
        let tx = self.read()?;
        let sql = format!(
            "SELECT {SUMMARY_COLUMNS} FROM drafts AS d
             WHERE (?1 IS NULL OR d.outcome = ?1)
               AND (?2 IS NULL OR d.subject_module = ?2
                    OR json_extract(coalesce(d.checked_input_json, d.raw_input_json),
                                    '$.confirmed_subject') = ?2)
               AND (?3 IS NULL OR d.created_at >= ?3)
               AND (?4 IS NULL OR d.batch_id = ?4)
             ORDER BY d.created_at DESC, d.id DESC
             LIMIT ?5"
        );
        let drafts = tx
            .prepare_cached(&sql)?
            .query_map(
                params![
                    filter.outcome.map(DraftOutcome::code),
                    filter.subject,
                    filter.since.map(timestamp_text),
                    filter.batch_id,
                    filter.limit.map_or(-1, i64::from),
                ],
                summary_from_row,
            )?
            .collect::<Result<_, _>>()?;
        Ok(drafts)
    }

    /// The drafts not in a batch that are still pending (interrupted or under way), oldest
    /// first.
    pub fn pending_drafts(&self) -> Result<Vec<DraftSummary>, StoreError> {
        let tx = self.read()?;
        let sql = format!(
            "SELECT {SUMMARY_COLUMNS} FROM drafts AS d
             WHERE d.outcome = 'pending' AND d.batch_id IS NULL
             ORDER BY d.created_at, d.id"
        );
        let drafts = tx
            .prepare_cached(&sql)?
            .query_map([], summary_from_row)?
            .collect::<Result<_, _>>()?;
        Ok(drafts)
    }

    /// Full-text search over the resident's words and the request, best match first (bm25).
    ///
    /// Case does not matter, «е» finds «ё» and back, and each word finds the words it begins
    /// («подъезд» finds «подъезде»). Every word must occur. Any text is safe to pass: a query
    /// with nothing searchable in it finds nothing. When more than [`search::RANK_WINDOW`]
    /// drafts match, they come newest first instead: ranking costs a few microseconds per
    /// match, and a word found in every one of 100,000 drafts must still be answered at once
    /// (ADR 9).
    pub fn search_drafts(&self, text: &str, limit: u32) -> Result<Vec<DraftSummary>, StoreError> {
        self.search_in_window(text, limit, search::RANK_WINDOW)
    }

    /// [`Store::search_drafts`] with the window of ranked matches as a parameter, for tests.
    pub(crate) fn search_in_window(
        &self,
        text: &str,
        limit: u32,
        window: u32,
    ) -> Result<Vec<DraftSummary>, StoreError> {
        let tx = self.read()?;
        let Some(query) = search::expanded_query(&tx, text)? else {
            return Ok(Vec::new());
        };
        // Whether more drafts match than the window holds: FTS5 reads a plain query's matches
        // newest first (ids grow with time) without looking at the rest.
        let beyond_window = tx
            .prepare_cached(
                "SELECT 1 FROM draft_search WHERE draft_search MATCH ?1
                 ORDER BY rowid DESC LIMIT 1 OFFSET ?2",
            )?
            .exists(params![query, window])?;
        // Only the `limit` drafts shown are joined with the drafts table.
        let sql = if beyond_window {
            format!(
                "WITH hits AS (
                     SELECT rowid AS id FROM draft_search WHERE draft_search MATCH ?1
                     ORDER BY rowid DESC LIMIT ?2)
                 SELECT {SUMMARY_COLUMNS} FROM hits JOIN drafts AS d ON d.id = hits.id
                 ORDER BY d.id DESC"
            )
        } else {
            format!(
                "WITH hits AS (
                     SELECT rowid AS id, rank FROM draft_search WHERE draft_search MATCH ?1
                     ORDER BY rank, rowid DESC LIMIT ?2)
                 SELECT {SUMMARY_COLUMNS} FROM hits JOIN drafts AS d ON d.id = hits.id
                 ORDER BY hits.rank, d.id DESC"
            )
        };
        let drafts = tx
            .prepare_cached(&sql)?
            .query_map(params![query, limit], summary_from_row)?
            .collect::<Result<_, _>>()?;
        Ok(drafts)
    }

    /// Deletes a draft for real: the draft, its versions, records, attempts and index entry.
    ///
    /// With `secure_delete` and the index's `secure-delete` option the freed bytes are zeroed,
    /// and the write-ahead log is emptied afterwards, so none of the draft's text is left in
    /// any file of the database. The audit log keeps that the draft with this id was deleted.
    pub fn delete_draft(&self, id: DraftId) -> Result<DeletedDraft, StoreError> {
        let tx = self.write()?;
        outcome_of(&tx, id)?;
        let used = pieces::of_draft(&tx, id.get())?;
        tx.execute("DELETE FROM draft_search WHERE rowid = ?1", [id.get()])?;
        // Versions, records, their links to pieces and attempts go with it through ON DELETE
        // CASCADE; pieces no other record uses go after them.
        tx.execute("DELETE FROM drafts WHERE id = ?1", [id.get()])?;
        pieces::delete_unused(&tx, &used)?;
        audit::record(
            &tx,
            AuditKind::DraftDeleted,
            Event {
                draft_id: Some(id),
                ..Event::default()
            },
        )?;
        Store::commit(tx, "draft_delete")?;
        Ok(DeletedDraft {
            log_cleared: self.checkpoint()?,
        })
    }
}

/// Refuses documents that are not JSON before the transaction, naming the field.
/// Adds `version` to draft `id` within `tx`, with its search entry and audit event, passing
/// the write points `<operation>.version` and `<operation>.index`; returns its number.
pub(crate) fn insert_version(
    tx: &Transaction<'_>,
    id: DraftId,
    version: &NewVersion,
    operation: &str,
) -> Result<u32, StoreError> {
    let number: u32 = tx.query_row(
        "SELECT coalesce(max(version), 0) + 1 FROM draft_versions WHERE draft_id = ?1",
        [id.get()],
        |row| row.get(0),
    )?;
    let now = now_text();
    tx.execute(
        "INSERT INTO draft_versions (draft_id, version, author, title, body, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![
            id.get(),
            number,
            version.author,
            version.title,
            version.body,
            now
        ],
    )?;
    faults::point(operation, "version");
    tx.execute(
        "UPDATE drafts SET updated_at = ?2 WHERE id = ?1",
        params![id.get(), now],
    )?;
    search::refresh(tx, id)?;
    faults::point(operation, "index");
    audit::record(
        tx,
        AuditKind::DraftEdited,
        Event {
            draft_id: Some(id),
            sha256: Some(sha256_hex(&version.body)),
            detail: Some(&version.author),
            ..Event::default()
        },
    )?;
    Ok(number)
}

pub(crate) fn check_finished(
    finished: &FinishedDraft,
    record: Option<&NewContextRecord>,
) -> Result<(), StoreError> {
    check_json("warnings_json", &finished.warnings_json)?;
    if let Some(request) = &finished.request_json {
        check_json("request_json", request)?;
    }
    if let Some(record) = record {
        check_json("record_json", &record.record_json)?;
    }
    Ok(())
}

/// Records how a pending draft ended, in the caller's transaction.
pub(crate) fn finish_in(
    tx: &Transaction<'_>,
    id: DraftId,
    finished: &FinishedDraft,
    record: Option<&NewContextRecord>,
    attempts: &[NewAttempt],
) -> Result<(), StoreError> {
    let outcome = outcome_of(tx, id)?;
    if outcome != DraftOutcome::Pending {
        return Err(StoreError::DraftNotPending {
            id,
            outcome: outcome.code(),
        });
    }
    let now = now_text();
    set_result(tx, id, &now, finished)?;
    faults::point("draft_finish", "result");
    let record_id = match record {
        Some(record) => Some(insert_record(tx, id, &now, record)?),
        None => None,
    };
    faults::point("draft_finish", "record");
    for attempt in attempts {
        insert_attempt(tx, id, record_id, attempt)?;
    }
    faults::point("draft_finish", "attempts");
    result_recorded(tx, id, finished)?;
    faults::point("draft_finish", "indexed");
    Ok(())
}

/// Writes a draft's result columns.
pub(crate) fn set_result(
    tx: &Transaction<'_>,
    id: DraftId,
    now: &str,
    finished: &FinishedDraft,
) -> Result<(), StoreError> {
    tx.prepare_cached(
        "UPDATE drafts
             SET updated_at = ?2, outcome = ?3, reason = ?4, retryable = ?5, title = ?6, body = ?7,
                 request_json = ?8, warnings_json = ?9, subject_module = ?10,
                 legal_omission = ?11, model_used = ?12
             WHERE id = ?1",
    )?
    .execute(params![
        id.get(),
        now,
        finished.outcome.code(),
        finished.reason,
        finished.retryable,
        finished.title,
        finished.body,
        finished.request_json,
        finished.warnings_json,
        finished.subject_module,
        finished.legal_omission,
        finished.model_used,
    ])?;
    Ok(())
}

/// After a draft's result is written: the search index follows it, and the audit log gains a
/// `draft_finished` event with the request's hash.
pub(crate) fn result_recorded(
    tx: &Transaction<'_>,
    id: DraftId,
    finished: &FinishedDraft,
) -> Result<(), StoreError> {
    search::refresh(tx, id)?;
    audit::record(
        tx,
        AuditKind::DraftFinished,
        Event {
            draft_id: Some(id),
            sha256: finished.request_json.as_deref().map(sha256_hex),
            detail: Some(finished.outcome.code()),
            ..Event::default()
        },
    )
}

fn insert_record(
    tx: &Transaction<'_>,
    draft_id: DraftId,
    now: &str,
    record: &NewContextRecord,
) -> Result<i64, StoreError> {
    let split = pieces::split(&record.record_json);
    tx.prepare_cached(
        "INSERT INTO context_records
             (draft_id, created_at, format_version, record_json, app_version, prompt_version,
              prompt_sha256, schema_id, schema_version, schema_sha256, transport_schema_sha256,
              legal_catalogue_version, provider_profile, provider_host, model)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
    )?
    .execute(params![
        draft_id.get(),
        now,
        record.format_version,
        split.stored,
        record.app_version,
        record.prompt_version,
        record.prompt_sha256,
        record.schema_id,
        record.schema_version,
        record.schema_sha256,
        record.transport_schema_sha256,
        record.legal_catalogue_version,
        record.provider_profile,
        record.provider_host,
        record.model,
    ])?;
    let id = tx.last_insert_rowid();
    pieces::store(tx, id, &split.pieces)?;
    Ok(id)
}

fn insert_attempt(
    tx: &Transaction<'_>,
    draft_id: DraftId,
    record_id: Option<i64>,
    attempt: &NewAttempt,
) -> Result<(), StoreError> {
    let tokens = |field, value: Option<u64>| value.map(|v| to_i64(field, v)).transpose();
    tx.prepare_cached(
        "INSERT INTO attempts
             (draft_id, record_id, number, started_at_unix_ms, duration_ms, http_status,
              error_kind, retry_reason, prompt_tokens, completion_tokens, total_tokens, cost)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
    )?
    .execute(params![
        draft_id.get(),
        record_id,
        attempt.number,
        to_i64("started_at_unix_ms", attempt.started_at_unix_ms)?,
        to_i64("duration_ms", attempt.duration_ms)?,
        attempt.http_status,
        attempt.error_kind,
        attempt.retry_reason,
        tokens("prompt_tokens", attempt.prompt_tokens)?,
        tokens("completion_tokens", attempt.completion_tokens)?,
        tokens("total_tokens", attempt.total_tokens)?,
        attempt.cost,
    ])?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::{NewDraft, Store};

    fn input(description: &str) -> NewDraft {
        let raw = serde_json::json!({ "description": description }).to_string();
        NewDraft {
            raw_input_json: raw.clone(),
            checked_input_json: Some(raw),
        }
    }

    #[test]
    fn more_matches_than_the_window_come_newest_first() {
        let folder = tempfile::tempdir().unwrap();
        let store = Store::open(&folder.path().join("z.sqlite3")).unwrap();
        let best_but_old = store
            .create_draft(&input("Протечка, протечка и снова протечка"))
            .unwrap();
        let plain = store
            .create_draft(&input(
                "Протечка в подвале, вода стоит уже неделю, пахнет сыростью",
            ))
            .unwrap();
        let good = store
            .create_draft(&input("Протечка и протечка у лифта"))
            .unwrap();
        let ids = |window| {
            store
                .search_in_window("протечка", 10, window)
                .unwrap()
                .into_iter()
                .map(|d| d.id)
                .collect::<Vec<_>>()
        };
        // Within the window every match is ranked, best first.
        assert_eq!(ids(3), [best_but_old, good, plain]);
        assert_eq!(ids(1_000), [best_but_old, good, plain]);
        // Past it, newest first.
        assert_eq!(ids(2), [good, plain, best_but_old]);
        assert_eq!(ids(1), [good, plain, best_but_old]);
    }
}
