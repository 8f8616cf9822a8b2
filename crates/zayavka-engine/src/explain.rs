//! How a stored draft was reached («Как получен результат»), as data that both front ends
//! render (issue 18): the legal decision in one sentence, and, when a model wrote the
//! description, which model under which instruction and schema, every attempt, every verdict on
//! the model's answers, and every message sent, re-asks included. The CLI prints it as lines,
//! the app shows it under the draft; neither decides what it holds.

use jiff::Timestamp;
use serde::Serialize;
use zayavka_core::Request;
use zayavka_llm::{ErrorKind, RetryReason, Role};

use crate::draft::{ContextRecord, ResponseVerdict};

/// How a stored draft was reached.
#[derive(Debug, Clone, Serialize)]
pub struct Explanation {
    /// The legal decision in one plain Russian sentence ([`legal_decision_ru`]).
    pub legal_decision: String,
    /// Whether a model was used for the draft.
    pub model_used: bool,
    /// The model call, when its record is stored: `None` for a draft made from the resident's
    /// words alone, and for a model draft whose record did not survive.
    pub call: Option<ModelCall>,
}

/// One stored model call, as the explanation shows it.
#[derive(Debug, Clone, Serialize)]
pub struct ModelCall {
    /// The model's name.
    pub model: String,
    /// The profile it was called through.
    pub provider_profile: String,
    /// The service's host.
    pub provider_host: String,
    /// The program's version that called it.
    pub app_version: String,
    /// The system instruction's version.
    pub prompt_version: String,
    /// The system instruction's SHA-256, in hex.
    pub prompt_sha256: String,
    /// The answer schema's id.
    pub schema_id: String,
    /// The answer schema's version.
    pub schema_version: u32,
    /// The legal catalogue's version.
    pub legal_catalogue_version: String,
    /// When the first attempt started.
    pub started_at: Option<Timestamp>,
    /// From the first attempt's start to the last one's end, in milliseconds.
    pub duration_ms: Option<u64>,
    /// Every HTTP attempt, in order.
    pub attempts: Vec<AttemptLine>,
    /// The verdict on each answer the model gave, in order.
    pub verdicts: Vec<ResponseVerdict>,
    /// Every message sent to the model, the re-asks after the first request included.
    pub messages: Vec<SentMessage>,
}

/// One HTTP attempt of a call.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct AttemptLine {
    /// Its number in the call, from 1.
    pub number: u32,
    /// The HTTP status, when an answer arrived.
    pub http_status: Option<u16>,
    /// What went wrong, when it did.
    pub error_kind: Option<ErrorKind>,
    /// Why another attempt followed.
    pub retry_reason: Option<RetryReason>,
    /// How long it took.
    pub duration_ms: u64,
}

/// One message sent to the model, exactly as sent.
#[derive(Debug, Clone, Serialize)]
pub struct SentMessage {
    /// Whose words: `system`, `user` or `assistant` (a re-ask repeats the model's answer).
    pub role: Role,
    /// The text.
    pub content: String,
}

/// The explanation of a draft from its stored request and record.
pub fn explanation(
    request: Option<&Request>,
    record: Option<&ContextRecord>,
    model_used: bool,
) -> Explanation {
    Explanation {
        legal_decision: legal_decision_ru(request),
        model_used,
        call: record.map(model_call),
    }
}

fn model_call(record: &ContextRecord) -> ModelCall {
    let first = record.attempts.first();
    let started_at = first.and_then(|attempt| {
        i64::try_from(attempt.started_at_unix_ms)
            .ok()
            .and_then(|ms| Timestamp::from_millisecond(ms).ok())
    });
    let duration_ms = first.zip(record.attempts.last()).map(|(first, last)| {
        last.started_at_unix_ms
            .saturating_add(last.duration_ms)
            .saturating_sub(first.started_at_unix_ms)
    });
    ModelCall {
        model: record.model.clone(),
        provider_profile: record.provider_profile.clone(),
        provider_host: record.provider_host.clone(),
        app_version: record.app_version.clone(),
        prompt_version: record.prompt_version.clone(),
        prompt_sha256: record.prompt_sha256.clone(),
        schema_id: record.schema_id.clone(),
        schema_version: record.schema_version,
        legal_catalogue_version: record.legal_catalogue_version.clone(),
        started_at,
        duration_ms,
        attempts: record
            .attempts
            .iter()
            .map(|attempt| AttemptLine {
                number: attempt.number,
                http_status: attempt.http_status,
                error_kind: attempt.error_kind,
                retry_reason: attempt.retry_reason,
                duration_ms: attempt.duration_ms,
            })
            .collect(),
        verdicts: record
            .responses
            .iter()
            .map(|response| response.verdict)
            .collect(),
        messages: record
            .messages
            .iter()
            .chain(record.responses.iter().flat_map(|response| &response.reask))
            .map(|message| SentMessage {
                role: message.role,
                content: message.content.clone(),
            })
            .collect(),
    }
}

/// The legal decision of a request in one plain sentence, for «Как получен результат»: the
/// request's own status ([`Request::legal_status_ru`]), the same the result shows.
pub fn legal_decision_ru(request: Option<&Request>) -> String {
    match request {
        None => NO_DECISION.to_owned(),
        Some(request) => request.legal_status_ru(),
    }
}

/// The legal decision of a draft that has no request.
const NO_DECISION: &str =
    "Заявка не составлена, поэтому о нормативном абзаце решение не принималось.";

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// A real record (`zayavka draft --record` against the stand-in), with a re-ask and a
    /// second attempt added: one answer rejected, then one ready.
    fn record_with_a_reask() -> ContextRecord {
        let mut record: serde_json::Value = serde_json::from_str(include_str!(
            "../../../fuzz/seeds/replay/lighting-record.json"
        ))
        .unwrap();
        let first = record["responses"][0].clone();
        let mut rejected = first.clone();
        rejected["verdict"] = json!("invalid_json");
        let mut ready = first;
        ready["reask"] = json!([
            {"role": "assistant", "content": "{}"},
            {"role": "user", "content": "ИСПРАВЬТЕ ОТВЕТ"}
        ]);
        record["responses"] = json!([rejected, ready]);
        let mut second = record["attempts"][0].clone();
        second["number"] = json!(2);
        second["started_at_unix_ms"] = json!(
            record["attempts"][0]["started_at_unix_ms"]
                .as_u64()
                .unwrap()
                + 1_000
        );
        second["duration_ms"] = json!(500);
        record["attempts"].as_array_mut().unwrap().push(second);
        serde_json::from_value(record).unwrap()
    }

    #[test]
    fn every_message_sent_is_shown_re_asks_included_and_the_time_spans_every_attempt() {
        let record = record_with_a_reask();
        let explained = explanation(None, Some(&record), true);
        let call = explained.call.expect("a stored call");
        assert_eq!(call.messages.len(), record.messages.len() + 2);
        assert_eq!(call.messages.last().unwrap().content, "ИСПРАВЬТЕ ОТВЕТ");
        assert_eq!(call.messages.last().unwrap().role, Role::User);
        let codes: Vec<&str> = call.verdicts.iter().map(|v| v.code()).collect();
        assert_eq!(codes, ["invalid_json", "ready"]);
        assert_eq!(call.attempts.len(), 2);
        assert_eq!(call.duration_ms, Some(1_500));
        assert_eq!(
            call.started_at.map(|t| t.as_millisecond()),
            i64::try_from(record.attempts[0].started_at_unix_ms).ok()
        );
        assert_eq!(
            explained.legal_decision,
            "Заявка не составлена, поэтому о нормативном абзаце решение не принималось."
        );
    }

    #[test]
    fn a_draft_without_a_record_has_no_call() {
        let explained = explanation(None, None, false);
        assert!(explained.call.is_none());
        assert!(!explained.model_used);
    }
}
