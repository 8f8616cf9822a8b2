//! What one call records: each HTTP attempt for the audit trail, the events a progress display
//! shows while the call runs, and the call's report.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::error::{ErrorKind, LlmError};
use crate::gigachat::TokenExchange;
use crate::response::{Completion, Usage};
use crate::retry::RetryReason;

/// How much of a failed attempt's body [`Attempt::error_body`] keeps: enough for any
/// provider's error object or the start of an HTML error page, small enough that a hostile
/// provider cannot bloat the records.
pub const ERROR_BODY_RECORD_BYTES: usize = 4 * 1024;

/// One HTTP attempt within a call, as the audit trail stores it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attempt {
    /// The attempt's number: its position in the call, counted from 1 by
    /// [`crate::Client::complete`] or from the number given to
    /// [`crate::Client::complete_from`].
    pub number: u32,
    /// When the attempt started, in milliseconds since the Unix epoch.
    pub started_at_unix_ms: u64,
    /// How long the attempt took, up to its answer, failure or timeout.
    pub duration_ms: u64,
    /// The status the provider answered with, if it got that far.
    pub http_status: Option<u16>,
    /// How the attempt failed; `None` for the attempt that succeeded.
    pub error_kind: Option<ErrorKind>,
    /// Why another attempt followed this one, stored as its code, such as `http_503`,
    /// `retry_after`, `connect_error` or `timeout`; `None` when none followed.
    pub retry_reason: Option<RetryReason>,
    /// The token usage the provider reported for this attempt.
    pub usage: Option<Usage>,
    /// The body of a failed attempt's answer, when the provider sent one: an error status's
    /// body, or a success status's body that was not a completion. The API key and any
    /// `Authorization` or `Bearer` value are removed, and it is cut at
    /// [`ERROR_BODY_RECORD_BYTES`] on a character boundary, ending in `…[cut]` when it was.
    /// Absent from the JSON when `None`, so records written before it existed read the same.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_body: Option<String>,
    /// The token exchange this attempt made before sending its request (GigaChat), if it
    /// needed one: its timing and status, never the token. When the exchange failed, the
    /// attempt's status, kind and body are the token endpoint's. Absent from the JSON when
    /// `None`, as for the other optional fields.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_exchange: Option<TokenExchange>,
}

/// What a call reports while it runs, for a progress display: the audit trail is the
/// [`CallReport`], which holds every attempt once the call is over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum CallEvent {
    /// Attempt `number` is being sent.
    Sending {
        /// Its number, as [`Attempt::number`] will record it.
        number: u32,
    },
    /// Attempt `number` failed for a reason another attempt may fix; the next one is sent
    /// after `wait` unless the call is cancelled first.
    Waiting {
        /// The attempt that failed.
        number: u32,
        /// The HTTP status it was answered with, if any: `429` when the provider limits the
        /// rate, whether or not it said how long to wait.
        http_status: Option<u16>,
        /// Why another attempt follows, as [`Attempt::retry_reason`] will record it.
        reason: RetryReason,
        /// The pause before the next attempt.
        wait: Duration,
    },
}

/// Everything one call did: each attempt, and the final result.
#[derive(Debug, Clone)]
pub struct CallReport {
    /// Every attempt in order; empty when the call was cancelled or misconfigured before
    /// anything was sent.
    pub attempts: Vec<Attempt>,
    /// The completion, or the error of the last attempt.
    pub result: Result<Completion, LlmError>,
}

impl CallReport {
    /// The token usage summed over all attempts, or `None` when no attempt reported any.
    pub fn total_usage(&self) -> Option<Usage> {
        self.attempts
            .iter()
            .filter_map(|attempt| attempt.usage)
            .reduce(|total, usage| Usage {
                prompt_tokens: total.prompt_tokens.saturating_add(usage.prompt_tokens),
                completion_tokens: total
                    .completion_tokens
                    .saturating_add(usage.completion_tokens),
                total_tokens: total.total_tokens.saturating_add(usage.total_tokens),
            })
    }
}
