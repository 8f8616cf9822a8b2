//! A ready draft assembled again from its stored model response once the resident has
//! confirmed what the problem concerns: the input gains the confirmed subject and the result
//! is replaced, with no new model call, no new context record and no new attempt.

use rusqlite::params;

use crate::columns::now_text;
use crate::drafts::{check_json, outcome_of, result_recorded, set_result};
use crate::error::StoreError;
use crate::model::{DraftId, DraftOutcome, FinishedDraft, NewDraft};
use crate::store::Store;

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
                outcome: outcome.code(),
            });
        }
        let now = now_text();
        tx.prepare_cached(
            "UPDATE drafts SET raw_input_json = ?2, checked_input_json = ?3 WHERE id = ?1",
        )?
        .execute(params![
            id.get(),
            input.raw_input_json,
            input.checked_input_json
        ])?;
        set_result(&tx, id, &now, finished)?;
        result_recorded(&tx, id, finished)?;
        tx.commit()?;
        Ok(())
    }
}
