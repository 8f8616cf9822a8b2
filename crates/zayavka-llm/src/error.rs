//! The adapter's one error type and the stable kinds it is classified into.

use serde::{Deserialize, Serialize};

/// What went wrong with a call to the provider.
///
/// Messages are in English for logs and diagnostics and never contain the API key or an
/// `Authorization` value; what the resident reads is the engine's business.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LlmError {
    /// The provider did not finish answering within the attempt timeout, the overall deadline
    /// or the connect timeout, or it answered `408 Request Timeout`.
    #[error("the provider did not answer in time: {message}")]
    Timeout {
        /// What ran out, such as "attempt timeout of 60s".
        message: String,
    },
    /// The provider asked to slow down (`429` without a quota error).
    #[error("the provider is rate limiting requests (HTTP {status}): {message}")]
    RateLimited {
        /// The HTTP status, normally 429.
        status: u16,
        /// The provider's explanation, shortened.
        message: String,
    },
    /// The provider could not be reached or failed on its side: a connection error, a reset,
    /// or a `5xx` answer.
    #[error("the provider is unavailable{}: {message}", http_status_suffix(*status))]
    Unavailable {
        /// The HTTP status, if the provider got as far as sending one.
        status: Option<u16>,
        /// What failed, shortened.
        message: String,
    },
    /// The provider rejected the credentials (`401` or `403`).
    #[error("the provider rejected the credentials (HTTP {status}): {message}")]
    Auth {
        /// The HTTP status.
        status: u16,
        /// The provider's explanation, shortened and redacted.
        message: String,
    },
    /// The provider rejected the request itself (`400`, `404`, `422` and other `4xx`), for
    /// example an unknown model or an unsupported `response_format`; repeating it cannot help.
    #[error("the provider rejected the request (HTTP {status}): {message}")]
    BadRequest {
        /// The HTTP status.
        status: u16,
        /// The provider's explanation, shortened.
        message: String,
    },
    /// The account has no quota or credit left (`insufficient_quota`, or `402`).
    #[error("the provider account has no quota left (HTTP {status}): {message}")]
    InsufficientQuota {
        /// The HTTP status.
        status: u16,
        /// The provider's explanation, shortened.
        message: String,
    },
    /// The response body grew beyond the configured size cap and was abandoned.
    #[error("the response exceeded the size cap of {limit_bytes} bytes")]
    ResponseTooLarge {
        /// The cap that was exceeded.
        limit_bytes: usize,
    },
    /// A success status arrived with a body that is not a chat-completions object, such as an
    /// HTML page from a proxy or truncated JSON.
    #[error("the provider sent an invalid response{}: {message}", http_status_suffix(*status))]
    InvalidResponse {
        /// The HTTP status, when the body came from an HTTP response.
        status: Option<u16>,
        /// What is wrong with the body.
        message: String,
    },
    /// The provider requires an API key and none is configured.
    #[error("no API key is configured for this provider")]
    NoApiKey,
    /// The caller cancelled the call.
    #[error("the call was cancelled")]
    Cancelled,
    /// The endpoint or budget cannot work, such as a base URL that is not HTTP(S) or a key
    /// with characters an HTTP header cannot carry.
    #[error("the provider configuration is invalid: {message}")]
    BadConfig {
        /// What is wrong.
        message: String,
    },
}

fn http_status_suffix(status: Option<u16>) -> String {
    status.map_or_else(String::new, |status| format!(" (HTTP {status})"))
}

/// The stable, storable classification of an [`LlmError`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ErrorKind {
    /// See [`LlmError::Timeout`].
    Timeout,
    /// See [`LlmError::RateLimited`].
    RateLimited,
    /// See [`LlmError::Unavailable`].
    Unavailable,
    /// See [`LlmError::Auth`].
    Auth,
    /// See [`LlmError::BadRequest`].
    BadRequest,
    /// See [`LlmError::InsufficientQuota`].
    InsufficientQuota,
    /// See [`LlmError::ResponseTooLarge`].
    ResponseTooLarge,
    /// See [`LlmError::InvalidResponse`].
    InvalidResponse,
    /// See [`LlmError::NoApiKey`].
    NoApiKey,
    /// See [`LlmError::Cancelled`].
    Cancelled,
    /// See [`LlmError::BadConfig`].
    BadConfig,
}

impl ErrorKind {
    /// Every kind, in declaration order.
    pub const ALL: [ErrorKind; 11] = [
        ErrorKind::Timeout,
        ErrorKind::RateLimited,
        ErrorKind::Unavailable,
        ErrorKind::Auth,
        ErrorKind::BadRequest,
        ErrorKind::InsufficientQuota,
        ErrorKind::ResponseTooLarge,
        ErrorKind::InvalidResponse,
        ErrorKind::NoApiKey,
        ErrorKind::Cancelled,
        ErrorKind::BadConfig,
    ];

    /// The stable snake_case code, the same string serde uses.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::Timeout => "timeout",
            ErrorKind::RateLimited => "rate_limited",
            ErrorKind::Unavailable => "unavailable",
            ErrorKind::Auth => "auth",
            ErrorKind::BadRequest => "bad_request",
            ErrorKind::InsufficientQuota => "insufficient_quota",
            ErrorKind::ResponseTooLarge => "response_too_large",
            ErrorKind::InvalidResponse => "invalid_response",
            ErrorKind::NoApiKey => "no_api_key",
            ErrorKind::Cancelled => "cancelled",
            ErrorKind::BadConfig => "bad_config",
        }
    }

    /// Whether the same request may succeed if sent again later.
    pub fn is_retryable(self) -> bool {
        matches!(
            self,
            ErrorKind::Timeout
                | ErrorKind::RateLimited
                | ErrorKind::Unavailable
                | ErrorKind::InvalidResponse
        )
    }
}

impl std::fmt::Display for ErrorKind {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str(self.as_str())
    }
}

impl LlmError {
    /// The stable classification of this error.
    pub fn kind(&self) -> ErrorKind {
        match self {
            LlmError::Timeout { .. } => ErrorKind::Timeout,
            LlmError::RateLimited { .. } => ErrorKind::RateLimited,
            LlmError::Unavailable { .. } => ErrorKind::Unavailable,
            LlmError::Auth { .. } => ErrorKind::Auth,
            LlmError::BadRequest { .. } => ErrorKind::BadRequest,
            LlmError::InsufficientQuota { .. } => ErrorKind::InsufficientQuota,
            LlmError::ResponseTooLarge { .. } => ErrorKind::ResponseTooLarge,
            LlmError::InvalidResponse { .. } => ErrorKind::InvalidResponse,
            LlmError::NoApiKey => ErrorKind::NoApiKey,
            LlmError::Cancelled => ErrorKind::Cancelled,
            LlmError::BadConfig { .. } => ErrorKind::BadConfig,
        }
    }

    /// Whether the same request may succeed if sent again later.
    pub fn is_retryable(&self) -> bool {
        self.kind().is_retryable()
    }

    /// Whether this is [`LlmError::Timeout`].
    pub fn is_timeout(&self) -> bool {
        self.kind() == ErrorKind::Timeout
    }

    /// Whether this is [`LlmError::RateLimited`].
    pub fn is_rate_limited(&self) -> bool {
        self.kind() == ErrorKind::RateLimited
    }

    /// Whether this is [`LlmError::Unavailable`].
    pub fn is_unavailable(&self) -> bool {
        self.kind() == ErrorKind::Unavailable
    }

    /// Whether the credentials are at fault: [`LlmError::Auth`] or [`LlmError::NoApiKey`].
    pub fn is_auth(&self) -> bool {
        matches!(self.kind(), ErrorKind::Auth | ErrorKind::NoApiKey)
    }

    /// Whether this is [`LlmError::Cancelled`].
    pub fn is_cancelled(&self) -> bool {
        self.kind() == ErrorKind::Cancelled
    }

    /// The HTTP status the provider answered with, if it answered at all.
    pub fn status(&self) -> Option<u16> {
        match self {
            LlmError::RateLimited { status, .. }
            | LlmError::Auth { status, .. }
            | LlmError::BadRequest { status, .. }
            | LlmError::InsufficientQuota { status, .. } => Some(*status),
            LlmError::Unavailable { status, .. } | LlmError::InvalidResponse { status, .. } => {
                *status
            }
            _ => None,
        }
    }

    /// The same error with its message passed through [`crate::redact`].
    pub(crate) fn redacted(mut self, secrets: &[&str]) -> LlmError {
        if let Some(message) = self.message_mut() {
            *message = crate::redact(message, secrets);
        }
        self
    }

    /// The free-text message, for the variants that carry one.
    fn message_mut(&mut self) -> Option<&mut String> {
        match self {
            LlmError::Timeout { message }
            | LlmError::RateLimited { message, .. }
            | LlmError::Unavailable { message, .. }
            | LlmError::Auth { message, .. }
            | LlmError::BadRequest { message, .. }
            | LlmError::InsufficientQuota { message, .. }
            | LlmError::InvalidResponse { message, .. }
            | LlmError::BadConfig { message } => Some(message),
            LlmError::ResponseTooLarge { .. } | LlmError::NoApiKey | LlmError::Cancelled => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_serialise_as_their_stable_codes() {
        for kind in ErrorKind::ALL {
            let json = serde_json::to_string(&kind).unwrap();
            assert_eq!(json, format!("\"{}\"", kind.as_str()));
            assert_eq!(serde_json::from_str::<ErrorKind>(&json).unwrap(), kind);
        }
    }

    #[test]
    fn only_transient_kinds_are_retryable() {
        let retryable: Vec<&str> = ErrorKind::ALL
            .into_iter()
            .filter(|kind| kind.is_retryable())
            .map(ErrorKind::as_str)
            .collect();
        assert_eq!(
            retryable,
            ["timeout", "rate_limited", "unavailable", "invalid_response"]
        );
    }

    #[test]
    fn redaction_reaches_every_message() {
        let error = LlmError::Auth {
            status: 401,
            message: "Incorrect API key provided: sk-secret".to_owned(),
        }
        .redacted(&["sk-secret"]);
        assert_eq!(
            error.to_string(),
            "the provider rejected the credentials (HTTP 401): Incorrect API key provided: [redacted]"
        );
        assert_eq!(error.status(), Some(401));
        assert!(error.is_auth());
    }
}
