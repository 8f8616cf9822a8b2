//! The adapter's one error type and the stable kinds it is classified into.

use crate::mode::ResponseFormatKind;
use zayavka_codes::stable_codes;

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
    /// The server does not take the response format the request asked for, such as the
    /// `llama-cpp-python` server answering `500` to `json_schema`, or a `400`/`422` saying
    /// that `response_format` is unsupported or unrecognised. Sending the same request again
    /// cannot help, and the server is not down: the other mode may work.
    #[error(
        "the provider does not take the response format `{mode}` (HTTP {status}); \
         configure the `{suggested}` mode instead: {message}"
    )]
    SchemaModeUnsupported {
        /// The HTTP status.
        status: u16,
        /// The mode that was sent and refused.
        mode: ResponseFormatKind,
        /// The mode the protocol offers instead ([`crate::Protocol::alternative_mode`]).
        suggested: ResponseFormatKind,
        /// The provider's explanation, shortened.
        message: String,
    },
    /// The prompt and the answer do not fit the model's context window: llama.cpp's «request
    /// (6834 tokens) exceeds the available context size (4096 tokens)», OpenAI's
    /// `context_length_exceeded`, Ollama's «the input length exceeds the context length».
    /// Repeating the request cannot help; the server's context size (or the model) must
    /// change. The numbers are there when the server said them.
    #[error(
        "the request does not fit the model's context{} (HTTP {status}): {message}",
        context_numbers(*requested_tokens, *context_tokens)
    )]
    ContextTooSmall {
        /// The HTTP status, normally 400.
        status: u16,
        /// The tokens the request needed, when the server said.
        requested_tokens: Option<u64>,
        /// The context size the server has, when it said.
        context_tokens: Option<u64>,
        /// The provider's explanation, shortened.
        message: String,
    },
    /// The account has no quota or credit left (`insufficient_quota`, `402`, or a `400`/`403`
    /// that blames the billing account or the balance, as Yandex Cloud's does).
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

/// Words with which a service says that the account, not the request, is at fault: no money
/// or grant left, or the billing account suspended or not linked. Yandex Cloud answers `403
/// PERMISSION_DENIED` when the cloud's billing account is not active (its AI Studio «Error
/// codes» page), and a cloud suspended for debt is deactivated; GigaChat answers `402 Payment
/// Required`, which the status alone already says. Compared in lower case, for `400` and `403`
/// only: a `429` that mentions billing is a rate limit of a free tier.
const UNPAID_ACCOUNT_WORDS: [&str; 9] = [
    "billing",
    "balance",
    "insufficient funds",
    "payment required",
    "not enough money",
    "suspended",
    "deactivated",
    "баланс",
    "задолженност",
];

/// Whether an error body says that the account has no money, grant or active billing left.
pub(crate) fn says_account_unpaid(body: &str) -> bool {
    let body = body.to_lowercase();
    UNPAID_ACCOUNT_WORDS.iter().any(|word| body.contains(word))
}

fn context_numbers(requested: Option<u64>, context: Option<u64>) -> String {
    match (requested, context) {
        (Some(requested), Some(context)) => {
            format!(" ({requested} tokens needed, {context} available)")
        }
        (Some(requested), None) => format!(" ({requested} tokens needed)"),
        (None, Some(context)) => format!(" ({context} tokens available)"),
        (None, None) => String::new(),
    }
}

fn http_status_suffix(status: Option<u16>) -> String {
    status.map_or_else(String::new, |status| format!(" (HTTP {status})"))
}

stable_codes! {
    /// The stable, storable classification of an [`LlmError`].
    // Deliberately exhaustive: the engine maps every kind to a failure reason without a
    // catch-all arm, so a new kind cannot slip through as some other failure.
    pub enum ErrorKind {
        /// See [`LlmError::Timeout`].
        Timeout => "timeout",
        /// See [`LlmError::RateLimited`].
        RateLimited => "rate_limited",
        /// See [`LlmError::Unavailable`].
        Unavailable => "unavailable",
        /// See [`LlmError::Auth`].
        Auth => "auth",
        /// See [`LlmError::BadRequest`].
        BadRequest => "bad_request",
        /// See [`LlmError::InsufficientQuota`].
        InsufficientQuota => "insufficient_quota",
        /// See [`LlmError::ResponseTooLarge`].
        ResponseTooLarge => "response_too_large",
        /// See [`LlmError::InvalidResponse`].
        InvalidResponse => "invalid_response",
        /// See [`LlmError::NoApiKey`].
        NoApiKey => "no_api_key",
        /// See [`LlmError::Cancelled`].
        Cancelled => "cancelled",
        /// See [`LlmError::BadConfig`].
        BadConfig => "bad_config",
        /// See [`LlmError::SchemaModeUnsupported`].
        SchemaModeUnsupported => "schema_mode_unsupported",
        /// See [`LlmError::ContextTooSmall`].
        ContextTooSmall => "context_too_small",
    }
}

impl ErrorKind {
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
            LlmError::SchemaModeUnsupported { .. } => ErrorKind::SchemaModeUnsupported,
            LlmError::ResponseTooLarge { .. } => ErrorKind::ResponseTooLarge,
            LlmError::InvalidResponse { .. } => ErrorKind::InvalidResponse,
            LlmError::NoApiKey => ErrorKind::NoApiKey,
            LlmError::Cancelled => ErrorKind::Cancelled,
            LlmError::BadConfig { .. } => ErrorKind::BadConfig,
            LlmError::ContextTooSmall { .. } => ErrorKind::ContextTooSmall,
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

    /// Whether the server refused the response format: [`LlmError::SchemaModeUnsupported`].
    pub fn is_schema_mode_unsupported(&self) -> bool {
        self.kind() == ErrorKind::SchemaModeUnsupported
    }

    /// The mode to try instead, when the server refused the one that was sent.
    pub fn suggested_mode(&self) -> Option<ResponseFormatKind> {
        match self {
            LlmError::SchemaModeUnsupported { suggested, .. } => Some(*suggested),
            _ => None,
        }
    }

    /// The tokens needed and the context available, `(requested, context)`, when the error is
    /// [`LlmError::ContextTooSmall`].
    pub fn context_size(&self) -> Option<(Option<u64>, Option<u64>)> {
        match self {
            LlmError::ContextTooSmall {
                requested_tokens,
                context_tokens,
                ..
            } => Some((*requested_tokens, *context_tokens)),
            _ => None,
        }
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
            | LlmError::InsufficientQuota { status, .. }
            | LlmError::SchemaModeUnsupported { status, .. }
            | LlmError::ContextTooSmall { status, .. } => Some(*status),
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
    pub(crate) fn message_mut(&mut self) -> Option<&mut String> {
        match self {
            LlmError::Timeout { message }
            | LlmError::RateLimited { message, .. }
            | LlmError::Unavailable { message, .. }
            | LlmError::Auth { message, .. }
            | LlmError::BadRequest { message, .. }
            | LlmError::InsufficientQuota { message, .. }
            | LlmError::SchemaModeUnsupported { message, .. }
            | LlmError::ContextTooSmall { message, .. }
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
    fn every_set_of_codes_passes_the_shared_check() {
        use zayavka_codes::check_stable_codes;
        check_stable_codes::<ErrorKind>().unwrap();
        check_stable_codes::<ResponseFormatKind>().unwrap();
        check_stable_codes::<crate::Protocol>().unwrap();
    }

    #[test]
    fn kinds_serialise_as_their_stable_codes() {
        for &kind in ErrorKind::ALL {
            let json = serde_json::to_string(&kind).unwrap();
            assert_eq!(json, format!("\"{}\"", kind.code()));
            assert_eq!(serde_json::from_str::<ErrorKind>(&json).unwrap(), kind);
        }
    }

    #[test]
    fn kind_codes_are_unique_and_round_trip_through_from_str() {
        let codes: std::collections::HashSet<&str> = ErrorKind::ALL
            .iter()
            .copied()
            .map(ErrorKind::code)
            .collect();
        assert_eq!(codes.len(), ErrorKind::ALL.len());
        for &kind in ErrorKind::ALL {
            assert_eq!(kind.to_string(), kind.code());
            assert_eq!(kind.code().parse::<ErrorKind>(), Ok(kind));
        }
        assert_eq!(
            "Timeout".parse::<ErrorKind>(),
            Err(zayavka_codes::UnknownCode("Timeout".to_owned()))
        );
    }

    /// Every variant, so that a new one cannot be added without a kind being tested for it.
    fn one_error_of_each_kind() -> Vec<LlmError> {
        let message = || "m".to_owned();
        vec![
            LlmError::Timeout { message: message() },
            LlmError::RateLimited {
                status: 429,
                message: message(),
            },
            LlmError::Unavailable {
                status: None,
                message: message(),
            },
            LlmError::Auth {
                status: 401,
                message: message(),
            },
            LlmError::BadRequest {
                status: 400,
                message: message(),
            },
            LlmError::InsufficientQuota {
                status: 402,
                message: message(),
            },
            LlmError::ResponseTooLarge { limit_bytes: 1 },
            LlmError::InvalidResponse {
                status: Some(200),
                message: message(),
            },
            LlmError::NoApiKey,
            LlmError::Cancelled,
            LlmError::BadConfig { message: message() },
            LlmError::SchemaModeUnsupported {
                status: 500,
                mode: ResponseFormatKind::JsonSchema,
                suggested: ResponseFormatKind::JsonObject,
                message: message(),
            },
            LlmError::ContextTooSmall {
                status: 400,
                requested_tokens: Some(6834),
                context_tokens: Some(4096),
                message: message(),
            },
        ]
    }

    #[test]
    fn every_kind_has_an_error_and_every_error_one_kind() {
        let kinds: Vec<ErrorKind> = one_error_of_each_kind()
            .iter()
            .map(LlmError::kind)
            .collect();
        assert_eq!(kinds, ErrorKind::ALL);
    }

    #[test]
    fn a_refused_schema_mode_names_the_other_mode_and_is_not_retried() {
        for (mode, other) in [
            (ResponseFormatKind::JsonSchema, "json_object"),
            (ResponseFormatKind::JsonObject, "json_schema"),
        ] {
            let error = LlmError::SchemaModeUnsupported {
                status: 500,
                mode,
                suggested: mode.other(),
                message: "response_format".to_owned(),
            };
            let text = error.to_string();
            assert!(text.contains(&format!("`{mode}`")), "{text}");
            assert!(text.contains(&format!("`{other}` mode")), "{text}");
            assert!(!error.is_retryable() && !error.is_unavailable());
            assert!(error.is_schema_mode_unsupported());
            assert_eq!(error.suggested_mode(), Some(mode.other()));
            assert_eq!(error.status(), Some(500));
        }
    }

    #[test]
    fn only_transient_kinds_are_retryable() {
        let retryable: Vec<&str> = ErrorKind::ALL
            .iter()
            .copied()
            .filter(|kind| kind.is_retryable())
            .map(ErrorKind::code)
            .collect();
        assert_eq!(
            retryable,
            ["timeout", "rate_limited", "unavailable", "invalid_response"]
        );
    }

    #[test]
    fn issue_15_an_unpaid_account_is_told_apart_from_a_refused_key() {
        assert!(says_account_unpaid(
            r#"{"error":{"grpc_code":7,"http_code":403,"message":"Billing account is not active"}}"#
        ));
        assert!(says_account_unpaid("The cloud is DEACTIVATED"));
        assert!(!says_account_unpaid(
            r#"{"error":{"grpc_code":16,"http_code":401,"message":"Unknown api key"}}"#
        ));
        assert!(!says_account_unpaid("Permission denied to folder b1g"));
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
