//! The append-only audit log: writing events inside the operation's transaction, and reading
//! them back.

use rusqlite::{Transaction, params};

use crate::columns::{now_text, parse_timestamp};
use crate::error::StoreError;
use crate::model::{AuditEvent, AuditKind, DraftId};
use crate::store::Store;

/// What one audit event names; never any of the resident's text.
#[derive(Debug, Default)]
pub(crate) struct Event<'a> {
    pub draft_id: Option<DraftId>,
    pub batch_id: Option<&'a str>,
    pub batch_row: Option<u32>,
    pub sha256: Option<String>,
    pub detail: Option<&'a str>,
}

/// Appends an event in the caller's transaction, so that it commits with the change it records.
pub(crate) fn record(
    tx: &Transaction<'_>,
    kind: AuditKind,
    event: Event<'_>,
) -> Result<(), StoreError> {
    tx.prepare_cached(
        "INSERT INTO audit_events (at, kind, draft_id, batch_id, batch_row, sha256, detail)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?
    .execute(params![
        now_text(),
        kind.code(),
        event.draft_id.map(DraftId::get),
        event.batch_id,
        event.batch_row,
        event.sha256,
        event.detail,
    ])?;
    Ok(())
}

impl Store {
    /// The audit log in order, for one draft or for everything.
    pub fn audit_events(&self, draft_id: Option<DraftId>) -> Result<Vec<AuditEvent>, StoreError> {
        let tx = self.read()?;
        let mut statement = tx.prepare_cached(
            "SELECT seq, at, kind, draft_id, batch_id, batch_row, sha256, detail
             FROM audit_events
             WHERE ?1 IS NULL OR draft_id = ?1
             ORDER BY seq",
        )?;
        let events = statement
            .query_map([draft_id.map(DraftId::get)], |row| {
                let kind: String = row.get(2)?;
                Ok(AuditEvent {
                    seq: row.get(0)?,
                    at: parse_timestamp(&row.get::<_, String>(1)?)?,
                    kind: AuditKind::from_code(&kind).ok_or_else(|| unknown_code(2, &kind))?,
                    draft_id: row.get::<_, Option<DraftId>>(3)?,
                    batch_id: row.get(4)?,
                    batch_row: row.get(5)?,
                    sha256: row.get(6)?,
                    detail: row.get(7)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(events)
    }
}

/// A stored code that this version does not know, which the schema's CHECKs rule out.
pub(crate) fn unknown_code(column: usize, code: &str) -> rusqlite::Error {
    rusqlite::Error::FromSqlConversionFailure(
        column,
        rusqlite::types::Type::Text,
        format!("unknown code {code:?}").into(),
    )
}
