//! What a finished draft run writes to the database: the outcome, the request with its
//! sections, the context record and every attempt, priced when the profile has prices.

use zayavka_core::{Outcome, Request};
use zayavka_store::{
    DraftId, FinalOutcome, FinishedDraft, NewAttempt, NewContextRecord, Store, StoreError,
};

use super::{ContextRecord, DraftRun};

fn final_outcome(outcome: &Outcome) -> FinalOutcome {
    match outcome {
        Outcome::Ready(_) => FinalOutcome::Ready,
        Outcome::NeedsUser { .. } => FinalOutcome::NeedsUser,
        Outcome::Rejected(_) => FinalOutcome::Rejected,
        Outcome::Failed(_) => FinalOutcome::Failed,
        Outcome::InvalidInput(_) => FinalOutcome::InvalidInput,
    }
}

/// Stores how a draft run ended: the outcome, the assembled request with its sections, the
/// context record and every attempt (priced when the profile has prices), in one transaction.
pub(crate) fn finish(
    store: &Store,
    id: DraftId,
    run: &DraftRun,
    model_used: bool,
    pricing: Option<&crate::config::Pricing>,
) -> Result<(), StoreError> {
    let run = finished_run(run, model_used, pricing);
    store.finish_draft(id, &run.finished, run.record.as_ref(), &run.attempts)
}

/// How a draft run ended, in the store's terms, ready to be written.
pub(crate) struct FinishedRun {
    finished: FinishedDraft,
    record: Option<NewContextRecord>,
    attempts: Vec<NewAttempt>,
}

impl FinishedRun {
    /// Stores it with the state of the batch row the draft belongs to, in one transaction.
    pub(crate) fn store_with_row(
        &self,
        store: &Store,
        id: DraftId,
        row: (&str, u32, zayavka_store::RowState),
    ) -> Result<(), StoreError> {
        store.finish_draft_and_row(
            id,
            &self.finished,
            self.record.as_ref(),
            &self.attempts,
            row,
        )
    }
}

/// Serialises how a run ended: the outcome, the request, the record and the attempts (priced
/// when the profile has prices).
pub(crate) fn finished_run(
    run: &DraftRun,
    model_used: bool,
    pricing: Option<&crate::config::Pricing>,
) -> FinishedRun {
    let attempts: Vec<NewAttempt> = run
        .record
        .as_ref()
        .map(|record| {
            record
                .attempts
                .iter()
                .map(|attempt| new_attempt(attempt, pricing))
                .collect()
        })
        .unwrap_or_default();
    FinishedRun {
        finished: finished_draft(&run.outcome, model_used),
        record: run.record.as_ref().map(new_context_record),
        attempts,
    }
}

pub(crate) fn finished_draft(outcome: &Outcome, model_used: bool) -> FinishedDraft {
    let request = outcome.request();
    FinishedDraft {
        outcome: final_outcome(outcome),
        reason: outcome.reason().map(str::to_owned),
        retryable: matches!(outcome, Outcome::Failed(_)).then(|| outcome.retryable()),
        title: request.map(|r| r.title().to_owned()),
        body: request.map(|r| r.body().to_owned()),
        request_json: request.map(|r| serde_json::to_string(r).expect("a request serialises")),
        warnings_json: serde_json::to_string(&request.map_or(&[][..], |r| r.warnings()))
            .expect("warnings serialise"),
        subject_module: request
            .and_then(Request::subject_module)
            .map(|kind| kind.code().to_owned()),
        legal_omission: request
            .and_then(Request::legal_omission)
            .map(|reason| reason.code().to_owned()),
        model_used,
    }
}

fn new_context_record(record: &ContextRecord) -> NewContextRecord {
    NewContextRecord {
        format_version: record.format_version,
        record_json: serde_json::to_string(record).expect("a record serialises"),
        app_version: record.app_version.clone(),
        prompt_version: record.prompt_version.clone(),
        prompt_sha256: record.prompt_sha256.clone(),
        schema_id: record.schema_id.clone(),
        schema_version: record.schema_version,
        schema_sha256: record.schema_sha256.clone(),
        transport_schema_sha256: record.transport_schema_sha256.clone(),
        legal_catalogue_version: record.legal_catalogue_version.clone(),
        provider_profile: record.provider_profile.clone(),
        provider_host: record.provider_host.clone(),
        model: record.model.clone(),
    }
}

fn new_attempt(
    attempt: &zayavka_llm::Attempt,
    pricing: Option<&crate::config::Pricing>,
) -> NewAttempt {
    NewAttempt {
        number: attempt.number,
        started_at_unix_ms: attempt.started_at_unix_ms,
        duration_ms: attempt.duration_ms,
        http_status: attempt.http_status,
        error_kind: attempt.error_kind.map(|kind| kind.code().to_owned()),
        retry_reason: attempt
            .retry_reason
            .map(|reason| reason.as_str().into_owned()),
        prompt_tokens: attempt.usage.map(|usage| usage.prompt_tokens),
        completion_tokens: attempt.usage.map(|usage| usage.completion_tokens),
        total_tokens: attempt.usage.map(|usage| usage.total_tokens),
        // Priced as the context record's total is, so that the batch's summed cost and the
        // records agree.
        cost: pricing.zip(attempt.usage).map(|(pricing, usage)| {
            usage.prompt_tokens as f64 * pricing.input_per_million / 1e6
                + usage.completion_tokens as f64 * pricing.output_per_million / 1e6
        }),
    }
}
