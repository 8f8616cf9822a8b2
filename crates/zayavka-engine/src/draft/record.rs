//! The context record: everything needed to reconstruct and replay a draft offline — what the
//! model saw, what it answered, under which rules — and never the API key.

use serde::{Deserialize, Serialize};
use zayavka_core::{ModelReply, NeedsUserReason, Outcome, RawInput, RejectionReason, SchemaMode};
use zayavka_llm::{Attempt, Message, Usage};

/// The format of the context record this version writes. Records without a version are the
/// first format, written before the field existed; they still read and replay.
pub const RECORD_FORMAT_VERSION: u32 = 2;

fn first_format() -> u32 {
    1
}

/// What one model response led to, with the same stable codes as the outcome's reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResponseVerdict {
    /// A request was assembled.
    Ready,
    /// The resident is asked to change the text.
    NeedsUser(NeedsUserReason),
    /// The output could not be used.
    Rejected(RejectionReason),
}

impl ResponseVerdict {
    /// The verdict of an outcome that came from a model response; `None` for outcomes that
    /// never come from one (a technical failure, invalid input).
    pub fn of(outcome: &Outcome) -> Option<ResponseVerdict> {
        match outcome {
            Outcome::Ready(_) => Some(ResponseVerdict::Ready),
            Outcome::NeedsUser { reason, .. } => Some(ResponseVerdict::NeedsUser(*reason)),
            Outcome::Rejected(rejection) => Some(ResponseVerdict::Rejected(rejection.reason())),
            Outcome::Failed(_) | Outcome::InvalidInput(_) => None,
        }
    }

    /// The stable code: `ready` or the reason code.
    pub fn code(self) -> &'static str {
        match self {
            ResponseVerdict::Ready => "ready",
            ResponseVerdict::NeedsUser(reason) => reason.code(),
            ResponseVerdict::Rejected(reason) => reason.code(),
        }
    }

    /// The verdict with this code.
    pub fn from_code(code: &str) -> Option<ResponseVerdict> {
        if code == "ready" {
            return Some(ResponseVerdict::Ready);
        }
        NeedsUserReason::from_code(code)
            .map(ResponseVerdict::NeedsUser)
            .or_else(|| RejectionReason::from_code(code).map(ResponseVerdict::Rejected))
    }

    /// Every verdict.
    pub fn all() -> Vec<ResponseVerdict> {
        let mut all = vec![ResponseVerdict::Ready];
        all.extend(
            NeedsUserReason::ALL
                .iter()
                .copied()
                .map(ResponseVerdict::NeedsUser),
        );
        all.extend(
            RejectionReason::ALL
                .iter()
                .copied()
                .map(ResponseVerdict::Rejected),
        );
        all
    }
}

impl Serialize for ResponseVerdict {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.code())
    }
}

impl<'de> Deserialize<'de> for ResponseVerdict {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let code = String::deserialize(deserializer)?;
        ResponseVerdict::from_code(&code)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown verdict `{code}`")))
    }
}

/// One model response as received, for the record and for replay.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedResponse {
    /// The messages added to the conversation for this ask: empty for the first; for a re-ask,
    /// the model's previous answer and the message saying what was wrong with it.
    pub reask: Vec<Message>,
    /// The raw response body, with the key removed should the provider have echoed it.
    pub raw_body: String,
    /// What the core evaluated.
    pub reply: ModelReply,
    /// Token usage, if reported.
    pub usage: Option<Usage>,
    /// What this response led to.
    pub verdict: ResponseVerdict,
}

/// Everything needed to reconstruct and replay a draft offline: what the model saw, what it
/// answered, with which rules. It never holds the API key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ContextRecord {
    /// The record's format ([`RECORD_FORMAT_VERSION`] for records this version writes).
    #[serde(default = "first_format")]
    pub format_version: u32,
    /// The version of Zayavka that made the draft.
    pub app_version: String,
    /// The resident's input as checked (normalised), including the confirmed subject, which the
    /// model never saw.
    pub input: RawInput,
    /// The system prompt's version.
    pub prompt_version: String,
    /// The system prompt's SHA-256.
    pub prompt_sha256: String,
    /// The output schema's `$id`.
    pub schema_id: String,
    /// The output schema's version.
    pub schema_version: u32,
    /// The SHA-256 of the registered schema file.
    pub schema_sha256: String,
    /// The SHA-256 of the transport schema sent in `json_schema` mode.
    pub transport_schema_sha256: Option<String>,
    /// The transport schema exactly as sent in `json_schema` mode.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transport_schema: Option<serde_json::Value>,
    /// The legal catalogue's version.
    pub legal_catalogue_version: String,
    /// The provider profile's name.
    pub provider_profile: String,
    /// The provider's host (never the key, never the full URL with its query).
    pub provider_host: String,
    /// The model.
    pub model: String,
    /// The sampling temperature.
    pub temperature: f32,
    /// The cap on generated tokens.
    pub max_tokens: u32,
    /// How structured output was requested.
    pub schema_mode: SchemaMode,
    /// The exact messages of the first ask (a re-ask adds the ones in its response's `reask`).
    pub messages: Vec<Message>,
    /// Every response received, in order (more than one after a re-ask).
    pub responses: Vec<RecordedResponse>,
    /// Every HTTP attempt, over all calls, numbered without repeats.
    pub attempts: Vec<Attempt>,
    /// Token usage over all attempts.
    pub usage: Option<Usage>,
    /// The estimated cost, when the profile has prices.
    pub cost: Option<f64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdict_codes_are_unique_and_round_trip() {
        let mut seen = std::collections::HashSet::new();
        for verdict in ResponseVerdict::all() {
            assert!(seen.insert(verdict.code()), "{verdict:?}");
            assert_eq!(ResponseVerdict::from_code(verdict.code()), Some(verdict));
            let json = serde_json::to_string(&verdict).unwrap();
            assert_eq!(
                serde_json::from_str::<ResponseVerdict>(&json).unwrap(),
                verdict
            );
        }
        assert_eq!(ResponseVerdict::from_code("timeout"), None);
    }
}
