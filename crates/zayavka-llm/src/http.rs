//! The HTTP plumbing the model call and GigaChat's token exchange share: reading a body up to a
//! limit, classifying a failed send or an error status, and the attempt's clock.

use std::error::Error as _;
use std::time::{Duration, SystemTime};

use reqwest::header::HeaderValue;

use crate::error::LlmError;
use crate::mode::ResponseFormatKind;
use crate::response::{ProviderError, context_too_small, excerpt};
use crate::retry::RetryReason;

/// Words with which servers say that they do not take a `response_format`, as seen from
/// OpenAI («… is not supported with this model»), Azure («Unrecognized request argument
/// supplied: response_format»), llama.cpp («response_format type must be one of …»),
/// pydantic-based servers («Input should be 'text' or 'json_object'», «Extra inputs are not
/// permitted») and serde-based ones («unknown variant `json_schema`»). Compared in lower case.
const FORMAT_REFUSAL_WORDS: [&str; 9] = [
    "not supported",
    "unsupported",
    "does not support",
    "unrecognized",
    "unrecognised",
    "must be one of",
    "input should be",
    "extra inputs are not permitted",
    "unknown variant",
];

/// Words that blame the schema rather than the mode, such as OpenAI's «Invalid schema for
/// response_format 'x': … is not permitted» or llama.cpp's «JSON schema conversion failed»:
/// the server takes the mode, and switching it would hide a bug in the schema.
const SCHEMA_FAULT_WORDS: [&str; 2] = ["invalid schema", "schema conversion"];

/// A failed attempt, before it is redacted and recorded.
pub(crate) struct Failed {
    pub(crate) error: LlmError,
    pub(crate) cause: RetryReason,
    pub(crate) server_delay: Option<Duration>,
    /// The body the provider answered with, as received.
    pub(crate) body: Option<String>,
    /// The GigaChat token the API answered `401` to, when it came from memory rather than
    /// from an exchange in this attempt: it may have been revoked, and one fresh exchange
    /// is worth a try.
    /// Boxed because it is rare and would make every failure larger.
    pub(crate) rejected_token: Option<Box<HeaderValue>>,
}

impl Failed {
    pub(crate) fn new(error: LlmError, cause: RetryReason) -> Failed {
        Failed {
            error,
            cause,
            server_delay: None,
            body: None,
            rejected_token: None,
        }
    }

    pub(crate) fn with_body(mut self, body: impl Into<String>) -> Failed {
        self.body = Some(body.into());
        self
    }
}

/// A body read up to a limit.
pub(crate) enum BodyRead {
    /// All of it.
    Complete(Vec<u8>),
    /// The bytes read before the limit was passed.
    OverLimit(Vec<u8>),
}

/// The start of a body, at most `limit` bytes; what breaks off is an error.
pub(crate) async fn read_body_capped(
    response: &mut reqwest::Response,
    limit: usize,
) -> Result<Vec<u8>, reqwest::Error> {
    match read_body(response, limit).await? {
        BodyRead::Complete(bytes) | BodyRead::OverLimit(bytes) => Ok(bytes),
    }
}

/// Reads the body chunk by chunk so that a huge or endless body is abandoned at `limit`
/// instead of being buffered whole.
pub(crate) async fn read_body(
    response: &mut reqwest::Response,
    limit: usize,
) -> Result<BodyRead, reqwest::Error> {
    let mut bytes = Vec::new();
    while let Some(chunk) = response.chunk().await? {
        if bytes.len() + chunk.len() > limit {
            let room = limit - bytes.len();
            bytes.extend_from_slice(&chunk[..room]);
            return Ok(BodyRead::OverLimit(bytes));
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(BodyRead::Complete(bytes))
}

/// The provider's explanation in an error body: its error object's summary, or the start
/// of the text.
pub(crate) fn error_message(body: &str) -> String {
    match ProviderError::from_body(body) {
        Some(error) => error.describe(),
        None if body.trim().is_empty() => "empty body".to_owned(),
        None => excerpt(body, 200),
    }
}

/// Whether an error answer says that the server does not take the `response_format` that
/// was sent, rather than that it is down or that the schema is wrong.
///
/// The body must name `response_format`. A `500` or `501` that does is enough: the
/// `llama-cpp-python` server answers `500` to a format it does not know. A `400` or `422`
/// must also use one of the [`FORMAT_REFUSAL_WORDS`], because OpenAI answers `400` naming
/// `response_format` to a schema it finds invalid too; [`SCHEMA_FAULT_WORDS`] rule a refusal
/// out at any status.
pub(crate) fn refuses_response_format(status: u16, body: &str, mode: ResponseFormatKind) -> bool {
    let body = body.to_lowercase();
    // The field that carries the mode: `response_format` in chat completions, `format` (under
    // `text`) in the Responses API, `functions` / `function_call` for function calling.
    let field = match mode {
        ResponseFormatKind::FunctionCall => "function",
        ResponseFormatKind::JsonSchema | ResponseFormatKind::JsonObject => {
            if body.contains("response_format") {
                "response_format"
            } else {
                "text.format"
            }
        }
    };
    if !body.contains(field) || SCHEMA_FAULT_WORDS.iter().any(|w| body.contains(w)) {
        return false;
    }
    match status {
        500 | 501 => true,
        400 | 422 => FORMAT_REFUSAL_WORDS.iter().any(|word| body.contains(word)),
        _ => false,
    }
}

/// Classifies a non-success answer by its status and, for quota and a refused response
/// format, by its body.
pub(crate) fn error_for_status(
    status: u16,
    body: &str,
    has_key: bool,
    location: Option<&str>,
    mode: ResponseFormatKind,
    suggested: ResponseFormatKind,
) -> Failed {
    let provider_error = ProviderError::from_body(body);
    let message = error_message(body);
    let context = context_too_small(body);
    let quota_exhausted = status == 402
        || provider_error
            .as_ref()
            .is_some_and(ProviderError::is_insufficient_quota)
        || (matches!(status, 400 | 403) && crate::error::says_account_unpaid(body));

    let error = match status {
        _ if quota_exhausted && (400..500).contains(&status) => {
            LlmError::InsufficientQuota { status, message }
        }
        // The older llama.cpp server answered 500 to a prompt longer than its context.
        _ if (400..=500).contains(&status) && context.is_some() => {
            let (requested_tokens, context_tokens) = context.unwrap_or_default();
            LlmError::ContextTooSmall {
                status,
                requested_tokens,
                context_tokens,
                message,
            }
        }
        _ if refuses_response_format(status, body, mode) => LlmError::SchemaModeUnsupported {
            status,
            mode,
            suggested,
            message,
        },
        // Without a key, a refusal means the provider wants one, which the resident fixes by
        // setting a key rather than by checking an existing one.
        401 | 403 if !has_key => LlmError::NoApiKey,
        401 | 403 => LlmError::Auth { status, message },
        408 => LlmError::Timeout {
            message: format!("the provider answered HTTP 408: {message}"),
        },
        429 => LlmError::RateLimited { status, message },
        500..=599 => LlmError::Unavailable {
            status: Some(status),
            message,
        },
        300..=399 => LlmError::BadConfig {
            message: format!(
                "the base URL redirects (HTTP {status}) to {}; configure the final URL instead",
                location.unwrap_or("an unnamed location")
            ),
        },
        400..=499 => LlmError::BadRequest { status, message },
        _ => LlmError::InvalidResponse {
            status: Some(status),
            message: format!("unexpected HTTP status: {message}"),
        },
    };
    Failed::new(error, RetryReason::HttpStatus(status))
}

/// Classifies a failure to send the request or receive the response head.
pub(crate) fn send_failure(error: reqwest::Error) -> Failed {
    let is_timeout = error.is_timeout();
    let is_connect = error.is_connect();
    let is_builder = error.is_builder();
    let message = describe_reqwest_error(error);
    match (is_timeout, is_connect, is_builder) {
        (_, _, true) => Failed::new(LlmError::BadConfig { message }, RetryReason::BadConfig),
        (true, true, _) => Failed::new(
            LlmError::Timeout {
                message: format!("connecting took too long: {message}"),
            },
            RetryReason::ConnectTimeout,
        ),
        (true, false, _) => Failed::new(LlmError::Timeout { message }, RetryReason::Timeout),
        (false, true, _) => Failed::new(
            LlmError::Unavailable {
                status: None,
                message,
            },
            RetryReason::ConnectError,
        ),
        (false, false, _) => Failed::new(
            LlmError::Unavailable {
                status: None,
                message,
            },
            RetryReason::ConnectionError,
        ),
    }
}

/// The error with its whole cause chain on one line and without its URL, which may carry
/// credentials in a query string or user info.
pub(crate) fn describe_reqwest_error(error: reqwest::Error) -> String {
    let error = error.without_url();
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.ends_with(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}

pub(crate) fn unix_ms(time: SystemTime) -> u64 {
    time.duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, duration_ms_of)
}

pub(crate) fn duration_ms_of(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}
