//! What statistics over the stored drafts need of each draft: codes, counts, timings, tokens
//! and costs — never the resident's text, the request's text or a photo.
//!
//! [`Store::visit_draft_facts`] hands the drafts of a period to the caller one at a time, so
//! that statistics over any number of drafts hold one draft's facts in memory at once. The
//! engine does the counting; the store only reads.

use jiff::Timestamp;
use rusqlite::params;

use crate::audit::unknown_code;
use crate::columns::{parse_timestamp, timestamp_text};
use crate::error::StoreError;
use crate::model::{DraftId, DraftOutcome, NewAttempt, StoredAttempt};
use crate::store::Store;

/// Which drafts [`Store::visit_draft_facts`] reads: by when they were first stored. Moments,
/// not dates, because the engine knows the resident's time zone and the store does not.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FactsPeriod {
    /// Only drafts stored at or after this moment.
    pub since: Option<Timestamp>,
    /// Only drafts stored before this moment.
    pub before: Option<Timestamp>,
}

/// What statistics need of one stored draft.
#[derive(Debug, Clone, PartialEq)]
pub struct DraftFacts {
    /// The draft.
    pub id: DraftId,
    /// When it was first stored.
    pub created_at: Timestamp,
    /// Where it stands.
    pub outcome: DraftOutcome,
    /// The outcome's reason code.
    pub reason: Option<String>,
    /// Why no subject paragraph was included.
    pub legal_omission: Option<String>,
    /// Whether a model wrote the description.
    pub model_used: bool,
    /// The provider profile of its latest model run; `None` when no run was recorded (a
    /// draft without a model, invalid input, a failure before any call).
    pub profile: Option<String>,
    /// The id of its latest context record, which the latest run's attempts carry.
    pub latest_record: Option<i64>,
    /// How many times, over all runs, the model was asked again after an unusable answer.
    pub reasks: u32,
    /// The `faithfulness` array of the stored request, as JSON text, when the request has
    /// one.
    pub faithfulness_json: Option<String>,
    /// Every HTTP attempt of the draft, in the order they were stored.
    pub attempts: Vec<StoredAttempt>,
}

impl Store {
    /// Hands `visit` the facts of every draft stored in `period`, oldest first, one at a
    /// time, inside one read transaction (so the drafts are one snapshot). An error from
    /// `visit` stops the walk and is returned.
    pub fn visit_draft_facts<E: From<StoreError>>(
        &self,
        period: FactsPeriod,
        mut visit: impl FnMut(DraftFacts) -> Result<(), E>,
    ) -> Result<(), E> {
        let tx = self.read()?;
        // A record's re-asks are its responses that carry re-ask messages; the responses are
        // never split off into pieces, so the stored text holds them as written.
        let mut drafts = tx
            .prepare(
                "SELECT d.id, d.created_at, d.outcome, d.reason, d.legal_omission, d.model_used,
                        (SELECT c.provider_profile FROM context_records AS c
                         WHERE c.draft_id = d.id ORDER BY c.id DESC LIMIT 1),
                        (SELECT max(c.id) FROM context_records AS c WHERE c.draft_id = d.id),
                        (SELECT count(*) FROM context_records AS c,
                                json_each(c.record_json, '$.responses') AS r
                         WHERE c.draft_id = d.id
                           AND json_type(r.value, '$.reask') = 'array'
                           AND json_array_length(r.value, '$.reask') > 0),
                        CASE json_type(d.request_json, '$.faithfulness')
                            WHEN 'array' THEN json_extract(d.request_json, '$.faithfulness')
                        END
                 FROM drafts AS d
                 WHERE (?1 IS NULL OR d.created_at >= ?1) AND (?2 IS NULL OR d.created_at < ?2)
                 ORDER BY d.created_at, d.id",
            )
            .map_err(StoreError::from)?;
        let mut attempts = tx
            .prepare_cached(DRAFT_ATTEMPTS)
            .map_err(StoreError::from)?;
        let mut rows = drafts
            .query(params![
                period.since.map(timestamp_text),
                period.before.map(timestamp_text)
            ])
            .map_err(StoreError::from)?;
        while let Some(row) = rows.next().map_err(StoreError::from)? {
            let mut facts = facts_from_row(row).map_err(StoreError::from)?;
            facts.attempts = attempts
                .query_map([facts.id.get()], attempt_from_row)
                .map_err(StoreError::from)?
                .collect::<Result<_, _>>()
                .map_err(StoreError::from)?;
            visit(facts)?;
        }
        Ok(())
    }
}

fn facts_from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<DraftFacts> {
    let outcome: String = row.get(2)?;
    let count = |index| {
        row.get::<_, i64>(index)
            .map(|v| u32::try_from(v).unwrap_or(0))
    };
    Ok(DraftFacts {
        id: row.get(0)?,
        created_at: parse_timestamp(&row.get::<_, String>(1)?)?,
        outcome: DraftOutcome::from_code(&outcome).ok_or_else(|| unknown_code(2, &outcome))?,
        reason: row.get(3)?,
        legal_omission: row.get(4)?,
        model_used: row.get(5)?,
        profile: row.get(6)?,
        latest_record: row.get(7)?,
        reasks: count(8)?,
        faithfulness_json: row.get(9)?,
        attempts: Vec::new(),
    })
}

/// A draft's attempts in the order they were stored, in the columns [`attempt_from_row`] reads.
pub(crate) const DRAFT_ATTEMPTS: &str =
    "SELECT record_id, number, started_at_unix_ms, duration_ms, http_status, error_kind,
            retry_reason, prompt_tokens, completion_tokens, total_tokens, cost
     FROM attempts WHERE draft_id = ?1 ORDER BY id";

/// One row of [`DRAFT_ATTEMPTS`].
pub(crate) fn attempt_from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<StoredAttempt> {
    let unsigned = |index| row.get::<_, i64>(index).map(|v| v.max(0) as u64);
    let tokens = |index| {
        row.get::<_, Option<i64>>(index)
            .map(|v| v.map(|v| v.max(0) as u64))
    };
    Ok(StoredAttempt {
        record_id: row.get(0)?,
        attempt: NewAttempt {
            number: row.get(1)?,
            started_at_unix_ms: unsigned(2)?,
            duration_ms: unsigned(3)?,
            http_status: row.get(4)?,
            error_kind: row.get(5)?,
            retry_reason: row.get(6)?,
            prompt_tokens: tokens(7)?,
            completion_tokens: tokens(8)?,
            total_tokens: tokens(9)?,
            cost: row.get(10)?,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{FinalOutcome, FinishedDraft, NewContextRecord, NewDraft};

    fn record(profile: &str, responses: serde_json::Value) -> NewContextRecord {
        NewContextRecord {
            format_version: 2,
            record_json: serde_json::json!({"messages": [], "responses": responses}).to_string(),
            app_version: "0.1.0".to_owned(),
            prompt_version: "v1".to_owned(),
            prompt_sha256: "p".to_owned(),
            schema_id: "s".to_owned(),
            schema_version: 1,
            schema_sha256: "s".to_owned(),
            transport_schema_sha256: None,
            legal_catalogue_version: "c".to_owned(),
            provider_profile: profile.to_owned(),
            provider_host: "h".to_owned(),
            model: "m".to_owned(),
        }
    }

    fn attempt(number: u32, retry_reason: Option<&str>) -> NewAttempt {
        NewAttempt {
            number,
            started_at_unix_ms: 1_000 * u64::from(number),
            duration_ms: 500,
            http_status: Some(if retry_reason.is_some() { 503 } else { 200 }),
            error_kind: retry_reason.map(|_| "unavailable".to_owned()),
            retry_reason: retry_reason.map(str::to_owned),
            prompt_tokens: Some(100),
            completion_tokens: Some(50),
            total_tokens: Some(150),
            cost: Some(0.25),
        }
    }

    fn finished(outcome: FinalOutcome, request_json: Option<&str>) -> FinishedDraft {
        FinishedDraft {
            outcome,
            reason: None,
            retryable: None,
            title: None,
            body: None,
            request_json: request_json.map(str::to_owned),
            warnings_json: "[]".to_owned(),
            subject_module: None,
            legal_omission: Some("not_confirmed".to_owned()),
            model_used: true,
        }
    }

    fn open() -> (tempfile::TempDir, Store) {
        let folder = tempfile::tempdir().unwrap();
        let store = Store::open(&folder.path().join("z.sqlite3")).unwrap();
        (folder, store)
    }

    fn all_facts(store: &Store, period: FactsPeriod) -> Vec<DraftFacts> {
        let mut all = Vec::new();
        store
            .visit_draft_facts::<StoreError>(period, |facts| {
                all.push(facts);
                Ok(())
            })
            .unwrap();
        all
    }

    #[test]
    fn facts_carry_the_latest_profile_reasks_attempts_and_the_faithfulness_array() {
        let (_folder, store) = open();
        let new = NewDraft {
            raw_input_json: "{}".to_owned(),
            checked_input_json: None,
        };
        let plain = store.create_draft(&new).unwrap();
        let modelled = store.create_draft(&new).unwrap();
        let request = r#"{"title":"t","faithfulness":[{"kind":"new_cause","certainty":"found"}]}"#;
        let responses = serde_json::json!([
            {"reask": [], "verdict": "schema_violation"},
            {"reask": [{"role": "assistant", "content": "x"}], "verdict": "ready"}
        ]);
        store
            .finish_draft(
                modelled,
                &finished(FinalOutcome::Ready, Some(request)),
                Some(&record("gigachat", responses)),
                &[attempt(1, Some("http_503")), attempt(2, None)],
            )
            .unwrap();

        let facts = all_facts(&store, FactsPeriod::default());
        assert_eq!(facts.len(), 2);
        assert_eq!(facts[0].id, plain);
        assert_eq!(facts[0].outcome, DraftOutcome::Pending);
        assert_eq!(facts[0].profile, None);
        assert_eq!(facts[0].reasks, 0);
        assert!(facts[0].attempts.is_empty());

        let facts = &facts[1];
        assert_eq!(facts.profile.as_deref(), Some("gigachat"));
        assert_eq!(facts.reasks, 1);
        assert_eq!(facts.attempts.len(), 2);
        assert_eq!(
            facts.attempts[0].attempt.retry_reason.as_deref(),
            Some("http_503")
        );
        assert_eq!(facts.attempts[0].record_id, facts.latest_record);
        let findings: serde_json::Value =
            serde_json::from_str(facts.faithfulness_json.as_deref().unwrap()).unwrap();
        assert_eq!(findings[0]["kind"], "new_cause");
        assert_eq!(facts.legal_omission.as_deref(), Some("not_confirmed"));
    }

    #[test]
    fn the_period_bounds_are_since_inclusive_and_before_exclusive() {
        let (_folder, store) = open();
        let id = store
            .create_draft(&NewDraft {
                raw_input_json: "{}".to_owned(),
                checked_input_json: None,
            })
            .unwrap();
        let created = all_facts(&store, FactsPeriod::default())[0].created_at;
        let at = |since, before| all_facts(&store, FactsPeriod { since, before }).len();
        assert_eq!(at(Some(created), None), 1);
        assert_eq!(at(None, Some(created)), 0);
        assert_eq!(
            at(None, Some(created + jiff::SignedDuration::from_millis(1))),
            1
        );
        assert_eq!(
            at(Some(created + jiff::SignedDuration::from_millis(1)), None),
            0
        );
        store.delete_draft(id).unwrap();
        assert_eq!(at(None, None), 0);
    }
}
