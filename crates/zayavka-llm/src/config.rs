//! Where to send the call and how much time, how many attempts and how many bytes it may use.

use std::time::Duration;

use url::Url;

use crate::error::LlmError;
use crate::secret::ApiKey;

/// An OpenAI-compatible provider: requests go to `POST {base_url}/chat/completions`.
#[derive(Debug, Clone)]
pub struct Endpoint {
    /// The API root, such as `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1`;
    /// a trailing slash makes no difference.
    pub base_url: Url,
    /// The key sent as `Authorization: Bearer …`; `None` for local servers that need none.
    pub api_key: Option<ApiKey>,
}

impl Endpoint {
    /// An endpoint for `base_url`, with or without a key.
    pub fn new(base_url: Url, api_key: Option<ApiKey>) -> Endpoint {
        Endpoint { base_url, api_key }
    }

    /// The URL requests are posted to.
    ///
    /// The path `chat/completions` is appended to the base URL's path, keeping any query
    /// string (some gateways carry an API version there). A base URL that already ends in
    /// `/chat/completions`, as people copy it from provider docs, is used as it is.
    pub fn chat_completions_url(&self) -> Result<Url, LlmError> {
        let base = &self.base_url;
        if !matches!(base.scheme(), "http" | "https") {
            return Err(LlmError::BadConfig {
                message: format!(
                    "the base URL must start with http:// or https://, not {}://",
                    base.scheme()
                ),
            });
        }
        if base.host_str().is_none_or(str::is_empty) {
            return Err(LlmError::BadConfig {
                message: "the base URL has no host".to_owned(),
            });
        }
        let mut url = base.clone();
        url.set_fragment(None);
        if url
            .path()
            .trim_end_matches('/')
            .ends_with("/chat/completions")
        {
            let trimmed = url.path().trim_end_matches('/').to_owned();
            url.set_path(&trimmed);
            return Ok(url);
        }
        url.path_segments_mut()
            .map_err(|()| LlmError::BadConfig {
                message: "the base URL cannot have a path appended".to_owned(),
            })?
            .pop_if_empty()
            .extend(["chat", "completions"]);
        Ok(url)
    }
}

/// The invocation budget: every limit that bounds one [`crate::Client::complete`] call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Budget {
    /// How long establishing a TCP (and TLS) connection may take.
    pub connect_timeout: Duration,
    /// How long one attempt may take, from sending the request to the last byte of the body.
    pub attempt_timeout: Duration,
    /// How long the whole call may take, across attempts and the waits between them.
    pub overall_deadline: Duration,
    /// How many attempts at most, the first one included; at least 1.
    pub max_attempts: u32,
    /// The backoff before the second attempt; it doubles for each further attempt.
    pub backoff_base: Duration,
    /// The largest backoff between two attempts.
    pub backoff_max: Duration,
    /// The longest wait a provider's `Retry-After` can impose; longer requests are cut to it.
    pub retry_after_cap: Duration,
    /// The largest response body accepted, in bytes.
    pub max_response_bytes: usize,
}

impl Default for Budget {
    /// Limits that suit a hosted model producing a short structured answer: a slow answer
    /// takes tens of seconds, and a resident should not wait more than three minutes.
    fn default() -> Budget {
        Budget {
            connect_timeout: Duration::from_secs(10),
            attempt_timeout: Duration::from_secs(60),
            overall_deadline: Duration::from_secs(180),
            max_attempts: 3,
            backoff_base: Duration::from_millis(500),
            backoff_max: Duration::from_secs(8),
            retry_after_cap: Duration::from_secs(30),
            max_response_bytes: 2 * 1024 * 1024,
        }
    }
}

impl Budget {
    /// Rejects budgets under which no call could ever succeed.
    pub(crate) fn validate(&self) -> Result<(), LlmError> {
        let problem = if self.max_attempts == 0 {
            Some("max_attempts must be at least 1")
        } else if self.connect_timeout.is_zero()
            || self.attempt_timeout.is_zero()
            || self.overall_deadline.is_zero()
        {
            Some("timeouts and the overall deadline must be greater than zero")
        } else if self.max_response_bytes == 0 {
            Some("max_response_bytes must be greater than zero")
        } else {
            None
        };
        match problem {
            Some(message) => Err(LlmError::BadConfig {
                message: message.to_owned(),
            }),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn join(base: &str) -> String {
        Endpoint::new(Url::parse(base).unwrap(), None)
            .chat_completions_url()
            .map(String::from)
            .unwrap_or_else(|error| error.to_string())
    }

    #[test]
    fn appends_the_path_with_or_without_a_trailing_slash() {
        assert_eq!(
            join("http://127.0.0.1:1234/v1"),
            "http://127.0.0.1:1234/v1/chat/completions"
        );
        assert_eq!(
            join("http://127.0.0.1:1234/v1/"),
            "http://127.0.0.1:1234/v1/chat/completions"
        );
        assert_eq!(
            join("https://openrouter.ai/api/v1"),
            "https://openrouter.ai/api/v1/chat/completions"
        );
        assert_eq!(
            join("http://localhost:8080"),
            "http://localhost:8080/chat/completions"
        );
        assert_eq!(
            join("http://localhost:8080/"),
            "http://localhost:8080/chat/completions"
        );
    }

    #[test]
    fn keeps_the_query_and_drops_the_fragment() {
        assert_eq!(
            join("https://gw.example/openai/v1?api-version=2024-10-21#top"),
            "https://gw.example/openai/v1/chat/completions?api-version=2024-10-21"
        );
    }

    #[test]
    fn accepts_a_url_that_already_names_the_endpoint() {
        assert_eq!(
            join("https://api.openai.com/v1/chat/completions/"),
            "https://api.openai.com/v1/chat/completions"
        );
    }

    #[test]
    fn refuses_urls_that_are_not_http() {
        assert!(join("ftp://example.com/v1").contains("http://"));
        assert!(join("mailto:someone@example.com").contains("http://"));
    }

    #[test]
    fn default_budget_is_valid_and_a_zero_attempt_budget_is_not() {
        assert_eq!(Budget::default().validate(), Ok(()));
        let budget = Budget {
            max_attempts: 0,
            ..Budget::default()
        };
        assert!(matches!(budget.validate(), Err(LlmError::BadConfig { .. })));
    }
}
