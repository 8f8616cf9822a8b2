//! The client: one chat-completions call carried out under the invocation budget.

use std::error::Error as _;
use std::fmt;
use std::time::{Duration, Instant, SystemTime};

use reqwest::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, HeaderValue, LOCATION};
use serde::{Deserialize, Serialize};
use tokio_util::sync::CancellationToken;
use url::{Host, Url};

use crate::config::{Budget, Endpoint};
use crate::error::{ErrorKind, LlmError};
use crate::request::ChatRequest;
use crate::response::{Completion, ProviderError, Usage, excerpt, parse_chat_completion};
use crate::retry::{Failure, plan_retry, server_requested_delay};
use crate::secret::ApiKey;

/// The body of an error answer matters only for its message, so only its start is read.
const ERROR_BODY_PEEK_BYTES: usize = 64 * 1024;

/// One HTTP attempt within a call, as the audit trail stores it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attempt {
    /// The attempt's position in the call, starting at 1.
    pub number: u32,
    /// When the attempt started, in milliseconds since the Unix epoch.
    pub started_at_unix_ms: u64,
    /// How long the attempt took, up to its answer, failure or timeout.
    pub duration_ms: u64,
    /// The status the provider answered with, if it got that far.
    pub http_status: Option<u16>,
    /// How the attempt failed; `None` for the attempt that succeeded.
    pub error_kind: Option<ErrorKind>,
    /// Why another attempt followed this one, such as `http_503`, `retry_after`,
    /// `connect_error` or `timeout`; `None` when none followed.
    pub retry_reason: Option<String>,
    /// The token usage the provider reported for this attempt.
    pub usage: Option<Usage>,
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

/// A chat-completions client bound to one endpoint and one budget.
///
/// Cloning is cheap and shares the connection pool.
#[derive(Clone)]
pub struct Client {
    http: reqwest::Client,
    url: Url,
    authorization: Option<HeaderValue>,
    api_key: Option<ApiKey>,
    budget: Budget,
}

impl fmt::Debug for Client {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter
            .debug_struct("Client")
            .field("url", &self.url.as_str())
            .field("api_key", &self.api_key)
            .field("budget", &self.budget)
            .finish_non_exhaustive()
    }
}

/// A failed attempt, before it is redacted and recorded.
struct Failed {
    error: LlmError,
    cause: &'static str,
    server_delay: Option<Duration>,
}

impl Failed {
    fn new(error: LlmError, cause: &'static str) -> Failed {
        Failed {
            error,
            cause,
            server_delay: None,
        }
    }
}

impl Client {
    /// Builds a client, checking the endpoint and budget up front so that a bad setting
    /// fails here rather than on the first call.
    ///
    /// An empty key is [`LlmError::NoApiKey`]; a key that cannot be an HTTP header value, a
    /// base URL that is not HTTP(S), or an impossible budget is [`LlmError::BadConfig`].
    pub fn new(endpoint: Endpoint, budget: Budget) -> Result<Client, LlmError> {
        budget.validate()?;
        let url = endpoint.chat_completions_url()?;
        let authorization = match &endpoint.api_key {
            Some(key) if key.is_empty() => return Err(LlmError::NoApiKey),
            Some(key) => {
                let mut value = HeaderValue::from_str(&format!("Bearer {}", key.expose()))
                    .map_err(|_| LlmError::BadConfig {
                        message: "the API key contains characters that an HTTP header cannot carry"
                            .to_owned(),
                    })?;
                // Marking the value sensitive keeps it out of the HTTP stack's own debug output.
                value.set_sensitive(true);
                Some(value)
            }
            None => None,
        };

        let mut builder = reqwest::Client::builder()
            .connect_timeout(budget.connect_timeout)
            // A redirect would turn the POST into a GET or carry the key to another host;
            // a base URL that redirects is a configuration error to report instead.
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(concat!("zayavka/", env!("CARGO_PKG_VERSION")));
        if is_loopback(&url) {
            // A local model server is reached directly even when a system proxy is set, which
            // would otherwise be asked to connect to its own loopback.
            builder = builder.no_proxy();
        }
        let http = builder.build().map_err(|error| LlmError::BadConfig {
            message: describe_reqwest_error(error),
        })?;

        Ok(Client {
            http,
            url,
            authorization,
            api_key: endpoint.api_key,
            budget,
        })
    }

    /// Checks that the provider answers at all, with one `GET {base_url}/models` under the
    /// per-attempt timeout and no retries, for `zayavka doctor`. Any HTTP answer proves the
    /// server is reachable and is returned as its status; only a missing answer is an error.
    pub async fn probe(&self, cancel: &CancellationToken) -> Result<u16, LlmError> {
        let mut url = self.url.clone();
        let models = format!(
            "{}/models",
            url.path()
                .trim_end_matches('/')
                .trim_end_matches("/chat/completions")
        );
        url.set_path(&models);
        let mut request = self.http.get(url).timeout(self.budget.attempt_timeout);
        if let Some(authorization) = &self.authorization {
            request = request.header(reqwest::header::AUTHORIZATION, authorization.clone());
        }
        let secrets: Vec<&str> = self.api_key.iter().map(ApiKey::expose).collect();
        tokio::select! {
            () = cancel.cancelled() => Err(LlmError::Cancelled),
            result = request.send() => match result {
                Ok(response) => Ok(response.status().as_u16()),
                Err(error) if error.is_timeout() => Err(LlmError::Timeout {
                    message: describe_reqwest_error(error),
                }
                .redacted(&secrets)),
                Err(error) => Err(LlmError::Unavailable {
                    status: None,
                    message: describe_reqwest_error(error),
                }
                .redacted(&secrets)),
            },
        }
    }

    /// The budget every call of this client runs under.
    pub fn budget(&self) -> &Budget {
        &self.budget
    }

    /// Makes the call: attempts, waits and retries within the budget until a completion
    /// arrives, a permanent error occurs, the attempts or the deadline run out, or `cancel`
    /// fires. It never panics and always reports every attempt it made.
    pub async fn complete(&self, request: &ChatRequest, cancel: &CancellationToken) -> CallReport {
        let mut attempts = Vec::new();
        let result = self.run_attempts(request, cancel, &mut attempts).await;
        CallReport { attempts, result }
    }

    async fn run_attempts(
        &self,
        request: &ChatRequest,
        cancel: &CancellationToken,
        attempts: &mut Vec<Attempt>,
    ) -> Result<Completion, LlmError> {
        let deadline = Instant::now() + self.budget.overall_deadline;
        let body = serde_json::to_vec(request).map_err(|error| LlmError::BadConfig {
            message: format!("the request cannot be serialised: {error}"),
        })?;
        let secrets: Vec<&str> = self.api_key.iter().map(ApiKey::expose).collect();

        for number in 1..=self.budget.max_attempts {
            if cancel.is_cancelled() {
                return Err(LlmError::Cancelled);
            }
            let remaining = deadline.saturating_duration_since(Instant::now());
            if remaining.is_zero() {
                return Err(self.overall_deadline_error());
            }
            let limited_by_deadline = remaining <= self.budget.attempt_timeout;
            let limit = remaining.min(self.budget.attempt_timeout);

            let started_at_unix_ms = unix_ms(SystemTime::now());
            let started = Instant::now();
            let mut http_status = None;
            // Only the host is logged: a gateway's query string may carry a credential.
            tracing::debug!(
                attempt = number,
                host = self.url.host_str(),
                "llm attempt started"
            );
            let outcome = tokio::select! {
                biased;
                () = cancel.cancelled() => Err(Failed::new(LlmError::Cancelled, "cancelled")),
                timed = tokio::time::timeout(limit, self.attempt(&body, &mut http_status)) => {
                    timed.unwrap_or_else(|_elapsed| Err(Failed::new(
                        if limited_by_deadline {
                            self.overall_deadline_error()
                        } else {
                            LlmError::Timeout {
                                message: format!(
                                    "no complete answer within the attempt timeout of {:?}",
                                    self.budget.attempt_timeout
                                ),
                            }
                        },
                        "timeout",
                    )))
                }
            };
            let duration_ms = duration_ms_of(started.elapsed());

            let failed = match outcome {
                Ok(completion) => {
                    tracing::debug!(attempt = number, status = ?http_status, duration_ms, "llm attempt succeeded");
                    attempts.push(Attempt {
                        number,
                        started_at_unix_ms,
                        duration_ms,
                        http_status,
                        error_kind: None,
                        retry_reason: None,
                        usage: completion.usage,
                    });
                    return Ok(completion);
                }
                Err(failed) => failed,
            };

            let error = failed.error.redacted(&secrets);
            let plan = plan_retry(
                &self.budget,
                number,
                &Failure {
                    kind: error.kind(),
                    cause: failed.cause,
                    http_status,
                    server_delay: failed.server_delay,
                },
                deadline.saturating_duration_since(Instant::now()),
                fastrand::f64(),
            );
            tracing::debug!(
                attempt = number,
                status = ?http_status,
                duration_ms,
                kind = error.kind().as_str(),
                error = %error,
                retry_reason = plan.as_ref().map(|plan| plan.reason.as_str()),
                wait_ms = plan.as_ref().map(|plan| duration_ms_of(plan.wait)),
                "llm attempt failed"
            );
            attempts.push(Attempt {
                number,
                started_at_unix_ms,
                duration_ms,
                http_status,
                error_kind: Some(error.kind()),
                retry_reason: plan.as_ref().map(|plan| plan.reason.clone()),
                usage: None,
            });
            let Some(plan) = plan else {
                return Err(error);
            };
            tokio::select! {
                biased;
                () = cancel.cancelled() => return Err(LlmError::Cancelled),
                () = tokio::time::sleep(plan.wait) => {}
            }
        }
        // The loop returns from its last iteration because `plan_retry` never plans a retry
        // past `max_attempts`; reaching this line would mean the budget allowed no attempt.
        Err(LlmError::BadConfig {
            message: "the budget allows no attempt".to_owned(),
        })
    }

    fn overall_deadline_error(&self) -> LlmError {
        LlmError::Timeout {
            message: format!(
                "the overall deadline of {:?} ran out",
                self.budget.overall_deadline
            ),
        }
    }

    /// One HTTP exchange: send, read the status, read the body under the size cap, classify.
    async fn attempt(
        &self,
        body: &[u8],
        http_status: &mut Option<u16>,
    ) -> Result<Completion, Failed> {
        let mut request = self
            .http
            .post(self.url.clone())
            .header(CONTENT_TYPE, "application/json")
            .header(ACCEPT, "application/json")
            .body(body.to_vec());
        if let Some(authorization) = &self.authorization {
            request = request.header(AUTHORIZATION, authorization.clone());
        }
        let mut response = request.send().await.map_err(send_failure)?;

        let status = response.status().as_u16();
        *http_status = Some(status);
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .and_then(|value| value.to_str().ok())
        };
        let server_delay = server_requested_delay(
            header("retry-after-ms"),
            header("retry-after"),
            SystemTime::now(),
        );
        let location = header(LOCATION.as_str()).map(str::to_owned);

        if response.status().is_success() {
            let limit = self.budget.max_response_bytes;
            if response
                .content_length()
                .is_some_and(|length| length > limit as u64)
            {
                return Err(Failed::new(
                    LlmError::ResponseTooLarge { limit_bytes: limit },
                    "response_too_large",
                ));
            }
            let bytes = match read_body(&mut response, limit).await {
                Ok(BodyRead::Complete(bytes)) => bytes,
                Ok(BodyRead::OverLimit(_)) => {
                    return Err(Failed::new(
                        LlmError::ResponseTooLarge { limit_bytes: limit },
                        "response_too_large",
                    ));
                }
                Err(error) => {
                    return Err(Failed::new(
                        LlmError::Unavailable {
                            status: Some(status),
                            message: format!(
                                "the connection broke while reading the body: {}",
                                describe_reqwest_error(error)
                            ),
                        },
                        "body_error",
                    ));
                }
            };
            let text = String::from_utf8(bytes).map_err(|_| {
                Failed::new(
                    LlmError::InvalidResponse {
                        status: Some(status),
                        message: "the body is not UTF-8".to_owned(),
                    },
                    "invalid_response",
                )
            })?;
            return parse_chat_completion(&text).map_err(|error| {
                let message = match error {
                    LlmError::InvalidResponse { message, .. } => message,
                    other => other.to_string(),
                };
                Failed::new(
                    LlmError::InvalidResponse {
                        status: Some(status),
                        message,
                    },
                    "invalid_response",
                )
            });
        }

        // An error answer is classified by its status; a body that breaks off or runs long
        // only shortens the message, so read problems are deliberately ignored here.
        let bytes = match read_body(&mut response, ERROR_BODY_PEEK_BYTES).await {
            Ok(BodyRead::Complete(bytes) | BodyRead::OverLimit(bytes)) => bytes,
            Err(_) => Vec::new(),
        };
        let text = String::from_utf8_lossy(&bytes);
        let mut failed =
            error_for_status(status, &text, self.api_key.is_some(), location.as_deref());
        failed.server_delay = server_delay;
        Err(failed)
    }
}

enum BodyRead {
    Complete(Vec<u8>),
    /// The bytes read before the limit was passed.
    OverLimit(Vec<u8>),
}

/// Reads the body chunk by chunk so that a huge or endless body is abandoned at `limit`
/// instead of being buffered whole.
async fn read_body(
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

/// Classifies a non-success answer by its status and, for quota, by its error object.
fn error_for_status(status: u16, body: &str, has_key: bool, location: Option<&str>) -> Failed {
    let provider_error = ProviderError::from_body(body);
    let message = match &provider_error {
        Some(error) => error.describe(),
        None if body.trim().is_empty() => "empty body".to_owned(),
        None => excerpt(body, 200),
    };
    let quota_exhausted = status == 402
        || provider_error
            .as_ref()
            .is_some_and(ProviderError::is_insufficient_quota);

    let error = match status {
        _ if quota_exhausted && (400..500).contains(&status) => {
            LlmError::InsufficientQuota { status, message }
        }
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
    Failed::new(error, "http_status")
}

/// Classifies a failure to send the request or receive the response head.
fn send_failure(error: reqwest::Error) -> Failed {
    let is_timeout = error.is_timeout();
    let is_connect = error.is_connect();
    let is_builder = error.is_builder();
    let message = describe_reqwest_error(error);
    match (is_timeout, is_connect, is_builder) {
        (_, _, true) => Failed::new(LlmError::BadConfig { message }, "bad_config"),
        (true, true, _) => Failed::new(
            LlmError::Timeout {
                message: format!("connecting took too long: {message}"),
            },
            "connect_timeout",
        ),
        (true, false, _) => Failed::new(LlmError::Timeout { message }, "timeout"),
        (false, true, _) => Failed::new(
            LlmError::Unavailable {
                status: None,
                message,
            },
            "connect_error",
        ),
        (false, false, _) => Failed::new(
            LlmError::Unavailable {
                status: None,
                message,
            },
            "connection_error",
        ),
    }
}

/// The error with its whole cause chain on one line and without its URL, which may carry
/// credentials in a query string or user info.
fn describe_reqwest_error(error: reqwest::Error) -> String {
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

fn is_loopback(url: &Url) -> bool {
    match url.host() {
        Some(Host::Ipv4(address)) => address.is_loopback(),
        Some(Host::Ipv6(address)) => address.is_loopback(),
        Some(Host::Domain(domain)) => domain.eq_ignore_ascii_case("localhost"),
        None => false,
    }
}

fn unix_ms(time: SystemTime) -> u64 {
    time.duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, duration_ms_of)
}

fn duration_ms_of(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests;
