//! Batches and their rows: stored once per file content, claimed row by row, resumable.

use rusqlite::{OptionalExtension, Row, Transaction, params};

use crate::audit::{self, Event, unknown_code};
use crate::drafts::{check_json, insert_pending};
use crate::error::StoreError;
use crate::model::{
    AuditKind, Batch, BatchRow, BatchStatus, ClaimedRow, DraftId, DraftOutcome, EnsuredBatch,
    NewBatch, NewBatchRow, NewDraft, RowState,
};
use crate::store::{Store, now_text, parse_timestamp, sha256_hex};

const BATCH_COLUMNS: &str = "b.id, b.file_name, b.created_at, b.row_count, b.settings_json, \
     (SELECT count(*) FROM batch_rows AS r WHERE r.batch_id = b.id)";

fn batch_from_row(row: &Row<'_>) -> rusqlite::Result<Batch> {
    Ok(Batch {
        id: row.get(0)?,
        file_name: row.get(1)?,
        created_at: parse_timestamp(&row.get::<_, String>(2)?)?,
        row_count: row.get(3)?,
        settings_json: row.get(4)?,
        stored_rows: row.get(5)?,
    })
}

const ROW_COLUMNS: &str = "r.row_number, r.raw_input_json, r.checked_input_json, r.header_json, \
     r.state, d.id";

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
        draft_id: row.get::<_, Option<i64>>(5)?.map(DraftId::new),
    })
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
    /// Stores a batch and its rows, or, when a batch with this id (the same file content) is
    /// already stored, adds nothing and returns it as it is: that is how a batch resumes.
    pub fn ensure_batch(
        &self,
        batch: &NewBatch,
        rows: &[NewBatchRow],
    ) -> Result<EnsuredBatch, StoreError> {
        check_batch_id(&batch.id)?;
        check_json("settings_json", &batch.settings_json)?;
        for row in rows {
            check_json("raw_input_json", &row.raw_input_json)?;
            if let Some(checked) = &row.checked_input_json {
                check_json("checked_input_json", checked)?;
            }
            if let Some(header) = &row.header_json {
                check_json("header_json", header)?;
            }
        }
        let tx = self.write()?;
        if let Some(existing) = get_batch(&tx, &batch.id)? {
            return Ok(EnsuredBatch {
                batch: existing,
                created: false,
            });
        }
        tx.execute(
            "INSERT INTO batches (id, file_name, created_at, row_count, settings_json)
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![
                batch.id,
                batch.file_name,
                now_text(),
                batch.row_count,
                batch.settings_json
            ],
        )?;
        {
            let mut insert = tx.prepare_cached(
                "INSERT INTO batch_rows
                     (batch_id, row_number, raw_input_json, checked_input_json, header_json)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )?;
            for row in rows {
                insert.execute(params![
                    batch.id,
                    row.row_number,
                    row.raw_input_json,
                    row.checked_input_json,
                    row.header_json,
                ])?;
            }
        }
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
        tx.commit()?;
        Ok(EnsuredBatch {
            batch: stored,
            created: true,
        })
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
                Ok((batch_row_from_row(r)?, r.get::<_, Option<String>>(6)?))
            })
            .optional()?;
        let Some((stored, outcome)) = found else {
            return Err(StoreError::BatchRowNotFound {
                batch_id: batch_id.to_owned(),
                row,
            });
        };
        if let (Some(draft_id), Some(code)) = (stored.draft_id, outcome) {
            let outcome = DraftOutcome::from_code(&code).ok_or_else(|| unknown_code(6, &code))?;
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
        tx.commit()?;
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
        tx.commit()?;
        Ok(())
    }

    /// The rows a run must still do: pending or failed with a retryable failure, in row order.
    pub fn rows_to_run(&self, batch_id: &str) -> Result<Vec<BatchRow>, StoreError> {
        self.rows_where(batch_id, "AND r.state IN ('pending', 'failed_retryable')")
    }

    /// Every row of a batch, in row order, for export.
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
             WHERE r.batch_id = ?1 {condition}
             ORDER BY r.row_number"
        );
        let rows = tx
            .prepare_cached(&sql)?
            .query_map([batch_id], batch_row_from_row)?
            .collect::<Result<_, _>>()?;
        Ok(rows)
    }

    /// Every batch, newest first.
    pub fn list_batches(&self) -> Result<Vec<Batch>, StoreError> {
        let tx = self.read()?;
        let sql =
            format!("SELECT {BATCH_COLUMNS} FROM batches AS b ORDER BY b.created_at DESC, b.id");
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
                 WHERE r.batch_id = ?1 GROUP BY r.state, d.outcome",
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
        params![batch_id, row, state.as_str()],
    )?;
    if changed == 0 {
        return Err(StoreError::BatchRowNotFound {
            batch_id: batch_id.to_owned(),
            row,
        });
    }
    let draft_id: Option<i64> = tx
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
            draft_id: draft_id.map(DraftId::new),
            batch_id: Some(batch_id),
            batch_row: Some(row),
            detail: Some(state.as_str()),
            ..Event::default()
        },
    )?;
    Ok(())
}
