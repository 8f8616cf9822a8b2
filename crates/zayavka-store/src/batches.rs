//! Batches and their rows: a batch is the activist's file, run again and again as it is
//! corrected; its rows are recognised by their input, claimed row by row, and resumable.

use std::collections::HashMap;

use rusqlite::{OptionalExtension, Row, Transaction, params};

use crate::audit::{self, Event, unknown_code};
use crate::columns::{input_key, now_text, parse_timestamp, sha256_hex};
use crate::drafts::{check_finished, check_json, finish_in, insert_pending};
use crate::error::StoreError;
use crate::faults;
use crate::model::{
    AuditKind, Batch, BatchFileUpdate, BatchRow, BatchRowResult, BatchStatus, ClaimedRow, DraftId,
    DraftOutcome, EnsuredBatch, FinishedDraft, NewAttempt, NewBatch, NewBatchRow, NewContextRecord,
    NewDraft, RowMatch, RowMatching, RowState,
};
use crate::store::Store;

const BATCH_COLUMNS: &str = "b.id, b.number, b.file_name, b.source_path, \
     coalesce(b.content_sha256, b.id), b.created_at, coalesce(b.updated_at, b.created_at), \
     b.row_count, b.settings_json, \
     (SELECT count(*) FROM batch_rows AS r WHERE r.batch_id = b.id)";

fn batch_from_row(row: &Row<'_>) -> rusqlite::Result<Batch> {
    Ok(Batch {
        id: row.get(0)?,
        number: row.get::<_, Option<u32>>(1)?.unwrap_or(0),
        file_name: row.get(2)?,
        source_path: row.get(3)?,
        content_sha256: row.get(4)?,
        created_at: parse_timestamp(&row.get::<_, String>(5)?)?,
        updated_at: parse_timestamp(&row.get::<_, String>(6)?)?,
        row_count: row.get(7)?,
        settings_json: row.get(8)?,
        stored_rows: row.get(9)?,
    })
}

const ROW_COLUMNS: &str = "r.row_number, r.raw_input_json, r.checked_input_json, r.header_json, \
     r.state, d.id, r.file_row";

/// The rows of a batch with their drafts; the link lives on the draft (its UNIQUE batch row).
const ROWS_FROM: &str = "FROM batch_rows AS r
     LEFT JOIN drafts AS d ON d.batch_id = r.batch_id AND d.batch_row = r.row_number";

fn batch_row_from_row(row: &Row<'_>) -> rusqlite::Result<BatchRow> {
    let state: String = row.get(4)?;
    Ok(BatchRow {
        row_number: row.get(0)?,
        raw_input_json: row.get(1)?,
        checked_input_json: row.get(2)?,
        header_json: row.get(3)?,
        state: RowState::from_code(&state).ok_or_else(|| unknown_code(4, &state))?,
        draft_id: row.get::<_, Option<DraftId>>(5)?,
        file_row: row.get(6)?,
    })
}

/// The key a row is recognised by: the SHA-256 of its input, the checked input when it passed
/// its checks (so a cell re-saved with other spaces around it or in another Unicode form is the
/// same row) and the input as read otherwise. Line ends are compared as `\n`, since Excel and
/// LibreOffice save the line breaks inside a cell differently; the document header («ФИО»,
/// «Квартира», «Телефон») is not part of it.
pub fn row_input_key(row: &NewBatchRow) -> String {
    input_key(
        row.checked_input_json
            .as_deref()
            .unwrap_or(&row.raw_input_json),
    )
}

/// A stored row as the matching sees it.
struct StoredEntry {
    entry: u32,
    key: String,
    header_json: Option<String>,
    file_row: Option<u32>,
    state: RowState,
}

/// Matches a file's rows to a batch's stored rows by their input, each stored row used at most
/// once: first rows whose header is the same too (so two flats with the same words keep their
/// own drafts), then rows with the same input whose header was corrected. Among equals the one
/// at the same place in the file wins. A row left unmatched is `Changed` when the row at its
/// place in the file as last run is no longer in the file, and `New` otherwise.
fn match_entries(stored: &[StoredEntry], rows: &[NewBatchRow]) -> RowMatching {
    let mut by_key: HashMap<&str, Vec<usize>> = HashMap::new();
    for (index, entry) in stored.iter().enumerate() {
        by_key.entry(entry.key.as_str()).or_default().push(index);
    }
    let keys: Vec<String> = rows.iter().map(row_input_key).collect();
    let mut taken = vec![false; stored.len()];
    let mut matched: Vec<Option<usize>> = vec![None; rows.len()];
    for same_header in [true, false] {
        for (position, row) in rows.iter().enumerate() {
            if matched[position].is_some() {
                continue;
            }
            let Some(candidates) = by_key.get(keys[position].as_str()) else {
                continue;
            };
            let fits = |&&index: &&usize| {
                !taken[index] && (!same_header || stored[index].header_json == row.header_json)
            };
            let chosen = candidates
                .iter()
                .filter(fits)
                .find(|&&index| stored[index].file_row == Some(row.row_number))
                .or_else(|| candidates.iter().find(fits))
                .copied();
            if let Some(index) = chosen {
                taken[index] = true;
                matched[position] = Some(index);
            }
        }
    }
    let left_at: HashMap<u32, u32> = stored
        .iter()
        .zip(&taken)
        .filter(|(_, taken)| !**taken)
        .filter_map(|(entry, _)| Some((entry.file_row?, entry.entry)))
        .collect();
    let matches = rows
        .iter()
        .zip(matched)
        .map(|(row, matched)| match matched {
            Some(index) => RowMatch::Same {
                entry: stored[index].entry,
                state: stored[index].state,
                header_changed: stored[index].header_json != row.header_json,
            },
            None => match left_at.get(&row.row_number) {
                Some(&replaces) => RowMatch::Changed { replaces },
                None => RowMatch::New,
            },
        })
        .collect();
    let removed = stored
        .iter()
        .zip(&taken)
        .filter(|(_, taken)| !**taken)
        .map(|(entry, _)| entry.entry)
        .collect();
    RowMatching {
        rows: matches,
        removed,
    }
}

fn stored_entries(tx: &Transaction<'_>, batch_id: &str) -> Result<Vec<StoredEntry>, StoreError> {
    let mut statement = tx.prepare_cached(
        "SELECT row_number, input_key, raw_input_json, checked_input_json, header_json,
                file_row, state
         FROM batch_rows WHERE batch_id = ?1 ORDER BY row_number",
    )?;
    let mut rows = statement.query([batch_id])?;
    let mut entries = Vec::new();
    while let Some(row) = rows.next()? {
        let key: Option<String> = row.get(1)?;
        let key = match key {
            Some(key) => key,
            None => {
                let raw: String = row.get(2)?;
                let checked: Option<String> = row.get(3)?;
                input_key(checked.as_deref().unwrap_or(&raw))
            }
        };
        let state: String = row.get(6)?;
        entries.push(StoredEntry {
            entry: row.get(0)?,
            key,
            header_json: row.get(4)?,
            file_row: row.get(5)?,
            state: RowState::from_code(&state).ok_or_else(|| unknown_code(6, &state))?,
        });
    }
    Ok(entries)
}

fn check_rows(rows: &[NewBatchRow]) -> Result<(), StoreError> {
    for row in rows {
        check_json("raw_input_json", &row.raw_input_json)?;
        if let Some(checked) = &row.checked_input_json {
            check_json("checked_input_json", checked)?;
        }
        if let Some(header) = &row.header_json {
            check_json("header_json", header)?;
        }
    }
    Ok(())
}

fn insert_rows<'a>(
    tx: &Transaction<'_>,
    batch_id: &str,
    rows: impl Iterator<Item = (u32, &'a NewBatchRow)>,
) -> Result<(), StoreError> {
    let mut insert = tx.prepare_cached(
        "INSERT INTO batch_rows
             (batch_id, row_number, raw_input_json, checked_input_json, header_json, file_row,
              input_key)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?;
    for (entry, row) in rows {
        insert.execute(params![
            batch_id,
            entry,
            row.raw_input_json,
            row.checked_input_json,
            row.header_json,
            row.row_number,
            row_input_key(row),
        ])?;
    }
    Ok(())
}

fn check_batch_id(id: &str) -> Result<(), StoreError> {
    let valid = id.len() == 64 && id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    if valid {
        Ok(())
    } else {
        Err(StoreError::InvalidBatchId)
    }
}

fn get_batch(tx: &Transaction<'_>, id: &str) -> Result<Option<Batch>, StoreError> {
    let sql = format!("SELECT {BATCH_COLUMNS} FROM batches AS b WHERE b.id = ?1");
    Ok(tx.query_row(&sql, [id], batch_from_row).optional()?)
}

impl Store {
    /// [`Store::finish_draft`] and [`Store::finish_row`] in one transaction, for a batch row's
    /// draft: the row's state can never lag behind its draft's outcome.
    pub fn finish_draft_and_row(
        &self,
        id: DraftId,
        finished: &FinishedDraft,
        record: Option<&NewContextRecord>,
        attempts: &[NewAttempt],
        row: (&str, u32, RowState),
    ) -> Result<(), StoreError> {
        check_finished(finished, record)?;
        let tx = self.write()?;
        finish_in(&tx, id, finished, record, attempts)?;
        let (batch_id, row, state) = row;
        finish_row_in(&tx, batch_id, row, state)?;
        Store::commit(tx, "batch_finish")?;
        Ok(())
    }

    /// Stores a batch and its rows, giving it the next short number, or, when a batch with this
    /// id is already stored, adds nothing and returns it as it is. A row's key in the batch is
    /// its row number in the file.
    pub fn ensure_batch(
        &self,
        batch: &NewBatch,
        rows: &[NewBatchRow],
    ) -> Result<EnsuredBatch, StoreError> {
        check_batch_id(&batch.id)?;
        check_batch_id(&batch.content_sha256)?;
        check_json("settings_json", &batch.settings_json)?;
        check_rows(rows)?;
        let tx = self.write()?;
        if let Some(existing) = get_batch(&tx, &batch.id)? {
            return Ok(EnsuredBatch {
                batch: existing,
                created: false,
            });
        }
        let now = now_text();
        tx.execute(
            "INSERT INTO batches (id, file_name, created_at, row_count, settings_json, number,
                                  source_path, content_sha256, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5,
                     (SELECT coalesce(max(number), 0) + 1 FROM batches), ?6, ?7, ?3)",
            params![
                batch.id,
                batch.file_name,
                now,
                batch.row_count,
                batch.settings_json,
                batch.source_path,
                batch.content_sha256,
            ],
        )?;
        insert_rows(&tx, &batch.id, rows.iter().map(|row| (row.row_number, row)))?;
        faults::point("batch_create", "rows");
        audit::record(
            &tx,
            AuditKind::BatchCreated,
            Event {
                batch_id: Some(&batch.id),
                sha256: Some(sha256_hex(&batch.settings_json)),
                ..Event::default()
            },
        )?;
        let stored = get_batch(&tx, &batch.id)?
            .ok_or_else(|| StoreError::BatchNotFound(batch.id.clone()))?;
        Store::commit(tx, "batch_create")?;
        Ok(EnsuredBatch {
            batch: stored,
            created: true,
        })
    }

    /// How a file's rows match a stored batch, without changing anything: what a run would
    /// continue, keep and send (see [`RowMatch`]).
    pub fn match_batch_rows(
        &self,
        batch_id: &str,
        rows: &[NewBatchRow],
    ) -> Result<RowMatching, StoreError> {
        let tx = self.read()?;
        if get_batch(&tx, batch_id)?.is_none() {
            return Err(StoreError::BatchNotFound(batch_id.to_owned()));
        }
        Ok(match_entries(&stored_entries(&tx, batch_id)?, rows))
    }

    /// Reads a batch's file again, in one transaction: rows matched by their input keep their
    /// draft and state and take their new place in the file (and their corrected header);
    /// other rows are stored as new rows of the batch; stored rows that matched nothing are
    /// no longer in the file (their drafts stay). The batch takes the file's name, path, hash
    /// and row count.
    pub fn sync_batch(
        &self,
        batch_id: &str,
        file: &BatchFileUpdate,
        rows: &[NewBatchRow],
    ) -> Result<RowMatching, StoreError> {
        check_batch_id(&file.content_sha256)?;
        check_rows(rows)?;
        let tx = self.write()?;
        if get_batch(&tx, batch_id)?.is_none() {
            return Err(StoreError::BatchNotFound(batch_id.to_owned()));
        }
        let stored = stored_entries(&tx, batch_id)?;
        let matching = match_entries(&stored, rows);
        // Places first cleared, then given, so that rows swapping places never meet.
        tx.execute(
            "UPDATE batch_rows SET file_row = NULL WHERE batch_id = ?1",
            [batch_id],
        )?;
        {
            let mut place = tx.prepare_cached(
                "UPDATE batch_rows SET file_row = ?3, header_json = ?4, input_key = ?5
                 WHERE batch_id = ?1 AND row_number = ?2",
            )?;
            for (row, matched) in rows.iter().zip(&matching.rows) {
                if let RowMatch::Same { entry, .. } = matched {
                    place.execute(params![
                        batch_id,
                        entry,
                        row.row_number,
                        row.header_json,
                        row_input_key(row),
                    ])?;
                }
            }
        }
        let next: u32 = tx.query_row(
            "SELECT coalesce(max(row_number), 0) + 1 FROM batch_rows WHERE batch_id = ?1",
            [batch_id],
            |r| r.get(0),
        )?;
        let added = rows
            .iter()
            .zip(&matching.rows)
            .filter(|(_, matched)| !matches!(matched, RowMatch::Same { .. }))
            .map(|(row, _)| row);
        insert_rows(&tx, batch_id, (next..).zip(added))?;
        tx.execute(
            "UPDATE batches SET file_name = ?2, source_path = ?3, content_sha256 = ?4,
                                row_count = ?5, updated_at = ?6
             WHERE id = ?1",
            params![
                batch_id,
                file.file_name,
                file.source_path,
                file.content_sha256,
                file.row_count,
                now_text(),
            ],
        )?;
        audit::record(
            &tx,
            AuditKind::BatchFileRead,
            Event {
                batch_id: Some(batch_id),
                sha256: Some(file.content_sha256.clone()),
                ..Event::default()
            },
        )?;
        Store::commit(tx, "batch_sync")?;
        Ok(matching)
    }

    /// The batch a file continues: the one last run from this path, or else the one last run
    /// from a file with these very bytes (the file was moved or copied).
    pub fn find_batch(
        &self,
        source_path: Option<&str>,
        content_sha256: &str,
    ) -> Result<Option<Batch>, StoreError> {
        let tx = self.read()?;
        if let Some(path) = source_path {
            let sql = format!(
                "SELECT {BATCH_COLUMNS} FROM batches AS b WHERE b.source_path = ?1
                 ORDER BY coalesce(b.updated_at, b.created_at) DESC, b.number DESC LIMIT 1"
            );
            if let Some(batch) = tx.query_row(&sql, [path], batch_from_row).optional()? {
                return Ok(Some(batch));
            }
        }
        let sql = format!(
            "SELECT {BATCH_COLUMNS} FROM batches AS b
             WHERE coalesce(b.content_sha256, b.id) = ?1
             ORDER BY coalesce(b.updated_at, b.created_at) DESC, b.number DESC LIMIT 1"
        );
        Ok(tx
            .query_row(&sql, [content_sha256], batch_from_row)
            .optional()?)
    }

    /// The batch with this short number.
    pub fn batch_by_number(&self, number: u32) -> Result<Option<Batch>, StoreError> {
        let tx = self.read()?;
        let sql = format!("SELECT {BATCH_COLUMNS} FROM batches AS b WHERE b.number = ?1");
        Ok(tx.query_row(&sql, [number], batch_from_row).optional()?)
    }

    /// The batch with this id.
    pub fn batch(&self, batch_id: &str) -> Result<Option<Batch>, StoreError> {
        let tx = self.read()?;
        get_batch(&tx, batch_id)
    }

    /// Every row of the file as last run, with its draft's outcome, reason and title, in file
    /// order: what `batch status` lists.
    pub fn batch_row_results(&self, batch_id: &str) -> Result<Vec<BatchRowResult>, StoreError> {
        let tx = self.read()?;
        if get_batch(&tx, batch_id)?.is_none() {
            return Err(StoreError::BatchNotFound(batch_id.to_owned()));
        }
        let mut statement = tx.prepare_cached(
            "SELECT r.file_row, r.row_number, r.raw_input_json, r.checked_input_json,
                    r.header_json, r.state, d.id, d.outcome, d.reason, d.retryable,
                    coalesce((SELECT v.title FROM draft_versions AS v WHERE v.draft_id = d.id
                              ORDER BY v.version DESC LIMIT 1), d.title)
             FROM batch_rows AS r
             LEFT JOIN drafts AS d ON d.batch_id = r.batch_id AND d.batch_row = r.row_number
             WHERE r.batch_id = ?1 AND r.file_row IS NOT NULL
             ORDER BY r.file_row",
        )?;
        let mut rows = statement.query([batch_id])?;
        let mut results = Vec::new();
        while let Some(row) = rows.next()? {
            let state: String = row.get(5)?;
            let outcome: Option<String> = row.get(7)?;
            results.push(BatchRowResult {
                file_row: row.get(0)?,
                row_number: row.get(1)?,
                raw_input_json: row.get(2)?,
                checked_input_json: row.get(3)?,
                header_json: row.get(4)?,
                state: RowState::from_code(&state).ok_or_else(|| unknown_code(5, &state))?,
                draft_id: row.get::<_, Option<DraftId>>(6)?,
                outcome: outcome
                    .map(|code| {
                        DraftOutcome::from_code(&code).ok_or_else(|| unknown_code(7, &code))
                    })
                    .transpose()?,
                reason: row.get(8)?,
                retryable: row.get::<_, Option<bool>>(9)?,
                title: row.get(10)?,
            });
        }
        Ok(results)
    }

    /// The row's one draft: the existing one, or a new pending draft linked to the row,
    /// created in the same transaction. A row never gets a second draft.
    pub fn claim_row(&self, batch_id: &str, row: u32) -> Result<ClaimedRow, StoreError> {
        let tx = self.write()?;
        let sql = format!(
            "SELECT {ROW_COLUMNS}, d.outcome {ROWS_FROM}
             WHERE r.batch_id = ?1 AND r.row_number = ?2"
        );
        let found = tx
            .query_row(&sql, params![batch_id, row], |r| {
                Ok((batch_row_from_row(r)?, r.get::<_, Option<String>>(7)?))
            })
            .optional()?;
        let Some((stored, outcome)) = found else {
            return Err(StoreError::BatchRowNotFound {
                batch_id: batch_id.to_owned(),
                row,
            });
        };
        if let (Some(draft_id), Some(code)) = (stored.draft_id, outcome) {
            let outcome = DraftOutcome::from_code(&code).ok_or_else(|| unknown_code(7, &code))?;
            return Ok(ClaimedRow {
                draft_id,
                outcome,
                created: false,
            });
        }
        let draft = NewDraft {
            raw_input_json: stored.raw_input_json,
            checked_input_json: stored.checked_input_json,
        };
        let draft_id = insert_pending(&tx, &draft, Some((batch_id, row)))?;
        audit::record(
            &tx,
            AuditKind::BatchRowClaimed,
            Event {
                draft_id: Some(draft_id),
                batch_id: Some(batch_id),
                batch_row: Some(row),
                ..Event::default()
            },
        )?;
        Store::commit(tx, "batch_claim")?;
        Ok(ClaimedRow {
            draft_id,
            outcome: DraftOutcome::Pending,
            created: true,
        })
    }

    /// Records a row's state.
    pub fn finish_row(&self, batch_id: &str, row: u32, state: RowState) -> Result<(), StoreError> {
        let tx = self.write()?;
        finish_row_in(&tx, batch_id, row, state)?;
        Store::commit(tx, "batch_row")?;
        Ok(())
    }

    /// The rows a run must still do: rows of the file as last run, pending or failed with a
    /// retryable failure, in file order.
    pub fn rows_to_run(&self, batch_id: &str) -> Result<Vec<BatchRow>, StoreError> {
        self.rows_where(batch_id, "AND r.state IN ('pending', 'failed_retryable')")
    }

    /// Every row of the file as last run, in file order, for export.
    pub fn batch_rows(&self, batch_id: &str) -> Result<Vec<BatchRow>, StoreError> {
        self.rows_where(batch_id, "")
    }

    fn rows_where(&self, batch_id: &str, condition: &str) -> Result<Vec<BatchRow>, StoreError> {
        let tx = self.read()?;
        if get_batch(&tx, batch_id)?.is_none() {
            return Err(StoreError::BatchNotFound(batch_id.to_owned()));
        }
        let sql = format!(
            "SELECT {ROW_COLUMNS} {ROWS_FROM}
             WHERE r.batch_id = ?1 AND r.file_row IS NOT NULL {condition}
             ORDER BY r.file_row"
        );
        let rows = tx
            .prepare_cached(&sql)?
            .query_map([batch_id], batch_row_from_row)?
            .collect::<Result<_, _>>()?;
        Ok(rows)
    }

    /// Every batch, the most recently created first.
    pub fn list_batches(&self) -> Result<Vec<Batch>, StoreError> {
        let tx = self.read()?;
        let sql = format!("SELECT {BATCH_COLUMNS} FROM batches AS b ORDER BY b.number DESC, b.id");
        let batches = tx
            .prepare_cached(&sql)?
            .query_map([], batch_from_row)?
            .collect::<Result<_, _>>()?;
        Ok(batches)
    }

    /// A batch's totals: rows by state, drafts by outcome, tokens and cost; `None` when there is
    /// no such batch.
    pub fn batch_status(&self, batch_id: &str) -> Result<Option<BatchStatus>, StoreError> {
        let tx = self.read()?;
        if get_batch(&tx, batch_id)?.is_none() {
            return Ok(None);
        }
        let mut status = BatchStatus::default();
        {
            let mut statement = tx.prepare_cached(
                "SELECT r.state, d.outcome, count(*) FROM batch_rows AS r
                 LEFT JOIN drafts AS d ON d.batch_id = r.batch_id AND d.batch_row = r.row_number
                 WHERE r.batch_id = ?1 AND r.file_row IS NOT NULL
                 GROUP BY r.state, d.outcome",
            )?;
            let mut rows = statement.query([batch_id])?;
            while let Some(row) = rows.next()? {
                let state: String = row.get(0)?;
                let outcome: Option<String> = row.get(1)?;
                let count: u32 = row.get(2)?;
                status.rows += count;
                match RowState::from_code(&state).ok_or_else(|| unknown_code(0, &state))? {
                    RowState::Pending => status.pending_rows += count,
                    RowState::Done => status.done_rows += count,
                    RowState::FailedRetryable => status.failed_retryable_rows += count,
                    RowState::Failed => status.failed_rows += count,
                }
                let Some(outcome) = outcome else {
                    status.unclaimed += count;
                    continue;
                };
                match DraftOutcome::from_code(&outcome).ok_or_else(|| unknown_code(1, &outcome))? {
                    DraftOutcome::Pending => status.pending += count,
                    DraftOutcome::Ready => status.ready += count,
                    DraftOutcome::NeedsUser => status.needs_user += count,
                    DraftOutcome::Rejected => status.rejected += count,
                    DraftOutcome::Failed => status.failed += count,
                    DraftOutcome::InvalidInput => status.invalid_input += count,
                }
            }
        }
        let (prompt, completion, total, cost): (i64, i64, i64, Option<f64>) = tx.query_row(
            "SELECT coalesce(sum(a.prompt_tokens), 0), coalesce(sum(a.completion_tokens), 0),
                    coalesce(sum(a.total_tokens), 0), sum(a.cost)
             FROM attempts AS a JOIN drafts AS d ON d.id = a.draft_id
             WHERE d.batch_id = ?1",
            [batch_id],
            |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?)),
        )?;
        // Sums of stored non-negative values are never negative.
        status.prompt_tokens = u64::try_from(prompt).unwrap_or(0);
        status.completion_tokens = u64::try_from(completion).unwrap_or(0);
        status.total_tokens = u64::try_from(total).unwrap_or(0);
        status.cost = cost;
        status.removed_rows = tx.query_row(
            "SELECT count(*) FROM batch_rows WHERE batch_id = ?1 AND file_row IS NULL",
            [batch_id],
            |row| row.get(0),
        )?;
        Ok(Some(status))
    }
}

/// Records a row's state in the caller's transaction, with its audit event.
pub(crate) fn finish_row_in(
    tx: &Transaction<'_>,
    batch_id: &str,
    row: u32,
    state: RowState,
) -> Result<(), StoreError> {
    let changed = tx.execute(
        "UPDATE batch_rows SET state = ?3 WHERE batch_id = ?1 AND row_number = ?2",
        params![batch_id, row, state.code()],
    )?;
    if changed == 0 {
        return Err(StoreError::BatchRowNotFound {
            batch_id: batch_id.to_owned(),
            row,
        });
    }
    let draft_id: Option<DraftId> = tx
        .query_row(
            "SELECT id FROM drafts WHERE batch_id = ?1 AND batch_row = ?2",
            params![batch_id, row],
            |r| r.get(0),
        )
        .optional()?;
    audit::record(
        tx,
        AuditKind::BatchRowFinished,
        Event {
            draft_id,
            batch_id: Some(batch_id),
            batch_row: Some(row),
            detail: Some(state.code()),
            ..Event::default()
        },
    )?;
    Ok(())
}
