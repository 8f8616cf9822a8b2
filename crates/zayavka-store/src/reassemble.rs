//! A ready draft assembled again from its stored model response once the resident has
//! confirmed what the problem concerns: the input gains the confirmed subject and the result
//! is replaced, with no new model call, no new context record and no new attempt.

use rusqlite::params;

use crate::audit::{self, Event};
use crate::drafts::{check_json, outcome_of};
use crate::error::StoreError;
use crate::model::{AuditKind, DraftId, DraftOutcome, FinishedDraft, NewDraft};
use crate::search;
use crate::store::{Store, now_text, sha256_hex};

impl Store {
    /// Replaces a finished draft's input and result in one transaction: the input as the
    /// resident has now confirmed it, and the result assembled again from the stored response.
    /// The audit log gains a `draft_finished` event with the new request's hash, so that it
    /// holds every result the draft has had. A pending draft is refused: it has no result yet.
    pub fn reassemble_draft(
        &self,
        id: DraftId,
        input: &NewDraft,
        finished: &FinishedDraft,
    ) -> Result<(), StoreError> {
        check_json("raw_input_json", &input.raw_input_json)?;
        if let Some(checked) = &input.checked_input_json {
            check_json("checked_input_json", checked)?;
        }
        check_json("warnings_json", &finished.warnings_json)?;
        if let Some(request) = &finished.request_json {
            check_json("request_json", request)?;
        }
        let tx = self.write()?;
        let outcome = outcome_of(&tx, id)?;
        if outcome == DraftOutcome::Pending {
            return Err(StoreError::DraftNotPending {
                id,
                outcome: outcome.as_str(),
            });
        }
        tx.prepare_cached(
            "UPDATE drafts
             SET updated_at = ?2, raw_input_json = ?3, checked_input_json = ?4, outcome = ?5,
                 reason = ?6, retryable = ?7, title = ?8, body = ?9, request_json = ?10,
                 warnings_json = ?11, subject_module = ?12, legal_omission = ?13,
                 model_used = ?14
             WHERE id = ?1",
        )?
        .execute(params![
            id.get(),
            now_text(),
            input.raw_input_json,
            input.checked_input_json,
            finished.outcome.as_str(),
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
        search::refresh(&tx, id)?;
        audit::record(
            &tx,
            AuditKind::DraftFinished,
            Event {
                draft_id: Some(id),
                sha256: finished.request_json.as_deref().map(sha256_hex),
                detail: Some(finished.outcome.as_str()),
                ..Event::default()
            },
        )?;
        tx.commit()?;
        Ok(())
    }
}
