//! GigaChat's OAuth: the authorization key is exchanged for a short-lived access token, which
//! the client keeps in memory and shares between its clones.
//!
//! The exchange is `POST {auth_url}` with `Authorization: Basic <key>`, a fresh uuid4 in
//! `RqUID`, and the form body `scope=<scope>`; the answer is `{access_token, expires_at}` with
//! `expires_at` in milliseconds since the epoch (about 30 minutes ahead). A token is reused
//! until [`REFRESH_MARGIN`] before it expires. The lock is held across an exchange, so that
//! many requests through one client (a batch) that find no valid token wait for a single
//! exchange instead of making one each.

use std::fmt;
use std::time::{Duration, Instant, SystemTime};

use reqwest::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, HeaderValue};
use serde::{Deserialize, Serialize};
use url::Url;

use crate::error::LlmError;
use crate::retry::RetryReason;
use crate::secret::ApiKey;

/// A token is exchanged again this long before it expires, so that a request never goes out
/// with a token that expires on the way.
pub(crate) const REFRESH_MARGIN: Duration = Duration::from_secs(60);

/// How much of the token endpoint's answer is read: its answer is a few hundred bytes.
const TOKEN_BODY_LIMIT: usize = 64 * 1024;

/// How many tokens a client remembers for redaction after they were replaced: a provider
/// could echo an old one, and they cost nothing to keep.
const REMEMBERED_TOKENS: usize = 16;

/// The token exchange an attempt had to make before it could send its request, as the audit
/// trail stores it: when, how long, and the status the token endpoint answered. The token
/// itself is never recorded.
///
/// An attempt that found a valid token in memory made no exchange and carries none. When
/// the exchange failed, the attempt failed with it: its `http_status`, `error_kind` and
/// `error_body` are the token endpoint's, and no request was sent to the API.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenExchange {
    /// When the exchange started, in milliseconds since the Unix epoch.
    pub started_at_unix_ms: u64,
    /// How long it took, up to its answer, failure or the attempt's timeout.
    pub duration_ms: u64,
    /// The status the token endpoint answered with, if it got that far.
    pub http_status: Option<u16>,
}

/// What a failed exchange reports to the attempt.
pub(crate) struct ExchangeFailure {
    pub(crate) error: LlmError,
    pub(crate) cause: RetryReason,
    pub(crate) body: Option<String>,
}

/// The token source one client and its clones share.
pub(crate) struct TokenSource {
    auth_url: Url,
    scope: String,
    basic: HeaderValue,
    current: tokio::sync::Mutex<Option<AccessToken>>,
    /// Every token issued to this client, newest last (at most [`REMEMBERED_TOKENS`]), for
    /// redaction only.
    issued: std::sync::Mutex<Vec<String>>,
}

struct AccessToken {
    header: HeaderValue,
    refresh_after: SystemTime,
}

impl fmt::Debug for TokenSource {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter
            .debug_struct("TokenSource")
            .field("auth_host", &self.auth_url.host_str())
            .field("scope", &self.scope)
            .finish_non_exhaustive()
    }
}

/// A token to send, and the exchange made to get it if one was needed.
pub(crate) struct Granted {
    pub(crate) authorization: HeaderValue,
    pub(crate) exchange: Option<TokenExchange>,
}

impl TokenSource {
    pub(crate) fn new(auth_url: Url, scope: String, key: &ApiKey) -> Result<TokenSource, LlmError> {
        if !matches!(auth_url.scheme(), "http" | "https") {
            return Err(LlmError::BadConfig {
                message: "the token endpoint must start with http:// or https://".to_owned(),
            });
        }
        if scope.trim().is_empty() {
            return Err(LlmError::BadConfig {
                message: "the GigaChat scope is empty".to_owned(),
            });
        }
        let mut basic =
            HeaderValue::from_str(&format!("Basic {}", key.expose())).map_err(|_| {
                LlmError::BadConfig {
                    message:
                        "the authorization key contains characters that an HTTP header cannot \
                          carry"
                            .to_owned(),
                }
            })?;
        basic.set_sensitive(true);
        Ok(TokenSource {
            auth_url,
            scope,
            basic,
            current: tokio::sync::Mutex::new(None),
            issued: std::sync::Mutex::new(Vec::new()),
        })
    }

    /// The tokens to redact: every one this client was issued.
    pub(crate) fn known_tokens(&self) -> Vec<String> {
        self.issued
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    /// Forgets the current token if it is still `rejected`, so that the next request
    /// exchanges again; a token another request has meanwhile replaced is kept.
    pub(crate) async fn invalidate(&self, rejected: &HeaderValue) {
        let mut current = self.current.lock().await;
        if current
            .as_ref()
            .is_some_and(|token| token.header == rejected)
        {
            *current = None;
        }
    }

    /// A valid token, exchanging the key for one first when there is none or it is about to
    /// expire. `exchange` is filled in as soon as the exchange starts, so that an attempt
    /// cut off by its timeout still records it.
    pub(crate) async fn authorization(
        &self,
        http: &reqwest::Client,
        exchange: &mut Option<TokenExchange>,
    ) -> Result<Granted, ExchangeFailure> {
        let mut current = self.current.lock().await;
        if let Some(token) = current.as_ref()
            && SystemTime::now() < token.refresh_after
        {
            return Ok(Granted {
                authorization: token.header.clone(),
                exchange: None,
            });
        }
        *current = None;
        let started = Instant::now();
        *exchange = Some(TokenExchange {
            started_at_unix_ms: crate::http::unix_ms(SystemTime::now()),
            duration_ms: 0,
            http_status: None,
        });
        let result = self.exchange(http, exchange).await;
        if let Some(record) = exchange.as_mut() {
            record.duration_ms = crate::http::duration_ms_of(started.elapsed());
        }
        let token = result?;
        let authorization = token.header.clone();
        *current = Some(token);
        Ok(Granted {
            authorization,
            exchange: *exchange,
        })
    }

    async fn exchange(
        &self,
        http: &reqwest::Client,
        record: &mut Option<TokenExchange>,
    ) -> Result<AccessToken, ExchangeFailure> {
        let form = url::form_urlencoded::Serializer::new(String::new())
            .append_pair("scope", &self.scope)
            .finish();
        let request = http
            .post(self.auth_url.clone())
            .header(AUTHORIZATION, self.basic.clone())
            .header("RqUID", uuid::Uuid::new_v4().to_string())
            .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
            .header(ACCEPT, "application/json")
            .body(form);
        let mut response = request.send().await.map_err(|error| {
            let failed = crate::http::send_failure(error);
            prefixed(failed.error, failed.cause, None)
        })?;
        let status = response.status().as_u16();
        if let Some(record) = record.as_mut() {
            record.http_status = Some(status);
        }
        let bytes = match crate::http::read_body_capped(&mut response, TOKEN_BODY_LIMIT).await {
            Ok(bytes) => bytes,
            Err(error) => {
                let error = LlmError::Unavailable {
                    status: Some(status),
                    message: format!(
                        "the connection broke while reading the body: {}",
                        crate::http::describe_reqwest_error(error)
                    ),
                };
                return Err(prefixed(error, RetryReason::BodyError, None));
            }
        };
        let text = String::from_utf8_lossy(&bytes).into_owned();
        if !response.status().is_success() {
            let error = match status {
                // The key is wrong or revoked: asking again cannot help.
                401 | 403 => LlmError::Auth {
                    status,
                    message: crate::http::error_message(&text),
                },
                _ => {
                    crate::http::error_for_status(
                        status,
                        &text,
                        true,
                        None,
                        crate::ResponseFormatKind::JsonSchema,
                        crate::ResponseFormatKind::JsonObject,
                    )
                    .error
                }
            };
            return Err(prefixed(error, RetryReason::HttpStatus(status), Some(text)));
        }
        // The answer is kept for the audit trail only when it is not a token answer at all: one
        // whose token cannot travel in a header still holds that token.
        let issued = read_token_answer(&text, status).map_err(|(error, token_inside)| {
            let body = (!token_inside).then(|| text.clone());
            prefixed(error, RetryReason::InvalidResponse, body)
        })?;
        let IssuedToken {
            access_token,
            header,
            refresh_after,
        } = issued;
        {
            let mut issued = self
                .issued
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if issued.len() >= REMEMBERED_TOKENS {
                issued.remove(0);
            }
            issued.push(access_token);
        }
        Ok(AccessToken {
            header,
            refresh_after,
        })
    }
}

#[derive(Deserialize)]
struct TokenAnswer {
    access_token: String,
    expires_at: u64,
}

/// An access token read from the token endpoint's answer.
pub struct IssuedToken {
    access_token: String,
    header: HeaderValue,
    refresh_after: SystemTime,
}

impl IssuedToken {
    /// When to exchange again: [`REFRESH_MARGIN`] before the token expires.
    pub fn refresh_after(&self) -> SystemTime {
        self.refresh_after
    }
}

impl fmt::Debug for IssuedToken {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter
            .debug_struct("IssuedToken")
            .field("refresh_after", &self.refresh_after)
            .finish_non_exhaustive()
    }
}

/// Reads the token endpoint's answer (`{access_token, expires_at}`, answered with `status`):
/// the token as a sensitive `Authorization` header and when to exchange it again. Anything
/// else, or a token that cannot travel in a header, is an invalid response whose message
/// never quotes the answer.
pub fn parse_token_answer(body: &str, status: u16) -> Result<IssuedToken, LlmError> {
    read_token_answer(body, status).map_err(|(error, _)| error)
}

/// [`parse_token_answer`], saying with its error whether the answer holds a token.
fn read_token_answer(body: &str, status: u16) -> Result<IssuedToken, (LlmError, bool)> {
    let invalid = |message: &str, token_inside: bool| {
        let error = LlmError::InvalidResponse {
            status: Some(status),
            message: message.to_owned(),
        };
        (error, token_inside)
    };
    let answer: TokenAnswer = serde_json::from_str(body)
        .map_err(|_| invalid("the answer has no `access_token` and `expires_at`", false))?;
    let mut header = HeaderValue::from_str(&format!("Bearer {}", answer.access_token))
        .map_err(|_| invalid("the access token cannot be sent in a header", true))?;
    header.set_sensitive(true);
    Ok(IssuedToken {
        refresh_after: refresh_after(answer.expires_at),
        access_token: answer.access_token,
        header,
    })
}

/// When to exchange again: [`REFRESH_MARGIN`] before `expires_at`. The service sends
/// milliseconds; a value too small to be milliseconds of this century is read as seconds.
fn refresh_after(expires_at: u64) -> SystemTime {
    let expires = if expires_at < 100_000_000_000 {
        Duration::from_secs(expires_at)
    } else {
        Duration::from_millis(expires_at)
    };
    // `checked_add`: a made-up `expires_at` far in the future must not overflow the platform's
    // clock (Windows counts in 100 ns from 1601 and would panic on `+`); such a token is
    // simply exchanged again at once.
    SystemTime::UNIX_EPOCH
        .checked_add(expires)
        .and_then(|expires| expires.checked_sub(REFRESH_MARGIN))
        .unwrap_or(SystemTime::UNIX_EPOCH)
}

/// The error with its message saying that it came from the token exchange.
fn prefixed(mut error: LlmError, cause: RetryReason, body: Option<String>) -> ExchangeFailure {
    if let Some(message) = error.message_mut() {
        *message = format!("token exchange: {message}");
    }
    ExchangeFailure { error, cause, body }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_is_refreshed_a_minute_before_it_expires() {
        let expires_ms = 1_800_000_000_000;
        assert_eq!(
            refresh_after(expires_ms),
            SystemTime::UNIX_EPOCH + Duration::from_millis(expires_ms) - REFRESH_MARGIN
        );
        assert_eq!(
            refresh_after(1_800_000_000),
            SystemTime::UNIX_EPOCH + Duration::from_secs(1_800_000_000) - REFRESH_MARGIN
        );
    }

    #[test]
    fn the_source_prints_neither_key_nor_token() {
        let source = TokenSource::new(
            Url::parse("https://ngw.example:9443/api/v2/oauth").unwrap(),
            "GIGACHAT_API_PERS".to_owned(),
            &ApiKey::new("canary-authorization-key".to_owned()),
        )
        .unwrap();
        let printed = format!("{source:?}");
        assert!(!printed.contains("canary"), "{printed}");
        assert!(printed.contains("GIGACHAT_API_PERS"), "{printed}");
    }

    #[test]
    fn a_token_answer_is_read_without_quoting_the_token() {
        let issued = parse_token_answer(r#"{"access_token":"canary-t","expires_at":5}"#, 200);
        let issued = issued.expect("a token answer");
        assert!(
            issued.refresh_after() < SystemTime::now(),
            "long expired: exchange again"
        );
        assert!(!format!("{issued:?}").contains("canary"));

        // A control character cannot travel in a header; the error never quotes the token.
        let error = parse_token_answer("{\"access_token\":\"canary\\n\",\"expires_at\":1}", 200)
            .expect_err("an unsendable token");
        assert!(!error.to_string().contains("canary"), "{error}");
        assert!(parse_token_answer("[]", 200).is_err());
    }

    #[test]
    fn an_expiry_beyond_the_clock_does_not_panic() {
        // Found by reasoning about the fuzz target: `UNIX_EPOCH + u64::MAX ms` overflows the
        // Windows clock, and `+` panics where `checked_add` does not.
        let answer = format!(r#"{{"access_token":"t","expires_at":{}}}"#, u64::MAX);
        let issued = parse_token_answer(&answer, 200).expect("a token answer");
        // Linux's clock holds that date; Windows' ends in the year 30828, and then the token
        // is exchanged again at once.
        let after = issued.refresh_after();
        assert!(
            after > SystemTime::now() || after == SystemTime::UNIX_EPOCH,
            "{after:?}"
        );
    }
}
