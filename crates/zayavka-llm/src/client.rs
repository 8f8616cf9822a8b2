//! The client: one call to the provider, in its protocol, carried out under the invocation
//! budget.

use std::error::Error as _;
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use reqwest::header::{
    ACCEPT, AUTHORIZATION, CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue, LOCATION,
};
use serde::{Deserialize, Serialize};
use tokio_util::sync::CancellationToken;
use url::{Host, Url};

use crate::config::{Authentication, Budget, Endpoint, Protocol};
use crate::error::{ErrorKind, LlmError};
use crate::gigachat::{TokenExchange, TokenSource};
use crate::probe::{ModeSupport, SCHEMA_PROBE_MAX_TOKENS, SchemaModeProbe, SchemaModeReport};
use crate::request::{ChatRequest, Message, ResponseFormat, ResponseFormatKind, wire_body};
use crate::response::{
    Completion, ProviderError, Usage, context_too_small, excerpt, parse_chat_completion,
    parse_response,
};
use crate::retry::{Failure, RetryReason, plan_retry, server_requested_delay};
use crate::secret::{ApiKey, cap_body, redact_body};

/// The body of an error answer matters only for its message and the record, so only its
/// start is read.
const ERROR_BODY_PEEK_BYTES: usize = 64 * 1024;

/// How much of a failed attempt's body [`Attempt::error_body`] keeps: enough for any
/// provider's error object or the start of an HTML error page, small enough that a hostile
/// provider cannot bloat the records.
pub const ERROR_BODY_RECORD_BYTES: usize = 4 * 1024;

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

/// One HTTP attempt within a call, as the audit trail stores it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attempt {
    /// The attempt's number: its position in the call, counted from 1 by
    /// [`Client::complete`] or from the number given to [`Client::complete_from`].
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

/// A client bound to one endpoint and one budget.
///
/// Cloning is cheap and shares the connection pool and, for GigaChat, the access token.
#[derive(Clone)]
pub struct Client {
    http: reqwest::Client,
    url: Url,
    models_url: Url,
    protocol: Protocol,
    credentials: Credentials,
    headers: HeaderMap,
    api_key: Option<ApiKey>,
    budget: Budget,
}

/// What goes into the `Authorization` header.
#[derive(Clone)]
enum Credentials {
    None,
    /// A fixed value: `Bearer <key>` or `Api-Key <key>`.
    Fixed(HeaderValue),
    /// GigaChat's access token, exchanged for when needed and shared by clones.
    GigaChat(Arc<TokenSource>),
}

impl fmt::Debug for Client {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter
            .debug_struct("Client")
            .field("url", &self.url.as_str())
            .field("protocol", &self.protocol)
            .field("api_key", &self.api_key)
            .field("budget", &self.budget)
            .finish_non_exhaustive()
    }
}

/// A failed attempt, before it is redacted and recorded.
pub(crate) struct Failed {
    pub(crate) error: LlmError,
    pub(crate) cause: RetryReason,
    server_delay: Option<Duration>,
    /// The body the provider answered with, as received.
    body: Option<String>,
    /// The GigaChat token the API answered `401` to, when it came from memory rather than
    /// from an exchange in this attempt: it may have been revoked, and one fresh exchange
    /// is worth a try.
    /// Boxed because it is rare and would make every failure larger.
    rejected_token: Option<Box<HeaderValue>>,
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

    fn with_body(mut self, body: impl Into<String>) -> Failed {
        self.body = Some(body.into());
        self
    }
}

impl Client {
    /// Builds a client, checking the endpoint and budget up front so that a bad setting
    /// fails here rather than on the first call.
    ///
    /// An empty key is [`LlmError::NoApiKey`]; a key that cannot be an HTTP header value, a
    /// base URL that is not HTTP(S), or an impossible budget is [`LlmError::BadConfig`].
    ///
    /// GigaChat's authentication needs a key (the authorization key); without one the
    /// client is [`LlmError::NoApiKey`]. Extra headers must be valid header names and values,
    /// and may not set `Authorization`.
    pub fn new(endpoint: Endpoint, budget: Budget) -> Result<Client, LlmError> {
        budget.validate()?;
        let url = endpoint.request_url()?;
        let models_url = endpoint.models_url()?;
        let credentials = match (&endpoint.api_key, &endpoint.authentication) {
            (Some(key), _) if key.is_empty() => return Err(LlmError::NoApiKey),
            (None, Authentication::GigaChat { .. }) => return Err(LlmError::NoApiKey),
            (None, _) => Credentials::None,
            (Some(key), Authentication::GigaChat { auth_url, scope }) => Credentials::GigaChat(
                Arc::new(TokenSource::new(auth_url.clone(), scope.clone(), key)?),
            ),
            (Some(key), scheme) => {
                let scheme = match scheme {
                    Authentication::ApiKey => "Api-Key",
                    _ => "Bearer",
                };
                let mut value = HeaderValue::from_str(&format!("{scheme} {}", key.expose()))
                    .map_err(|_| LlmError::BadConfig {
                        message: "the API key contains characters that an HTTP header cannot carry"
                            .to_owned(),
                    })?;
                // Marking the value sensitive keeps it out of the HTTP stack's own debug output.
                value.set_sensitive(true);
                Credentials::Fixed(value)
            }
        };
        let mut headers = HeaderMap::new();
        for (name, value) in &endpoint.headers {
            let bad = |what: &str| LlmError::BadConfig {
                message: format!("the extra header `{name}` has an invalid {what}"),
            };
            let header_name = HeaderName::from_bytes(name.as_bytes()).map_err(|_| bad("name"))?;
            if header_name == AUTHORIZATION {
                return Err(LlmError::BadConfig {
                    message: "an extra header may not set Authorization".to_owned(),
                });
            }
            let header_value = HeaderValue::from_str(value).map_err(|_| bad("value"))?;
            headers.insert(header_name, header_value);
        }

        let mut builder = reqwest::Client::builder()
            .connect_timeout(budget.connect_timeout)
            // A redirect would turn the POST into a GET or carry the key to another host;
            // a base URL that redirects is a configuration error to report instead.
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(concat!("zayavka/", env!("CARGO_PKG_VERSION")));
        for certificate in root_certificates(&endpoint.extra_root_certificates)? {
            builder = builder.add_root_certificate(certificate);
        }
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
            models_url,
            protocol: endpoint.protocol,
            credentials,
            headers,
            api_key: endpoint.api_key,
            budget,
        })
    }

    /// The same client under another budget, sharing this one's connection pool, so that a
    /// run of many calls (a batch, a re-ask) builds its HTTP client once. The connect timeout
    /// stays this client's: it is part of the pool. An impossible budget is
    /// [`LlmError::BadConfig`], as for [`Client::new`].
    pub fn with_budget(&self, budget: Budget) -> Result<Client, LlmError> {
        budget.validate()?;
        Ok(Client {
            budget,
            ..self.clone()
        })
    }

    /// Checks that the provider answers at all, with one `GET {base_url}/models` under the
    /// per-attempt timeout and no retries, for `zayavka doctor`.
    ///
    /// An HTTP answer proves the server is reachable and is returned as its status, with two
    /// exceptions: `404` and `400` say that nothing OpenAI-compatible lives at the base URL
    /// (a wrong path, or another kind of server), so they are [`LlmError::BadRequest`] with
    /// the provider's message. A missing answer is [`LlmError::Timeout`] or
    /// [`LlmError::Unavailable`].
    ///
    /// For GigaChat, the token is exchanged for first if the client has none; a failed
    /// exchange is that failure (an [`LlmError::Auth`] for a rejected key).
    pub async fn probe(&self, cancel: &CancellationToken) -> Result<u16, LlmError> {
        let exchange = async {
            let authorization = match self.authorization(&mut None).await {
                Ok(granted) => granted.map(|(authorization, _)| authorization),
                Err(failed) => return Ok(Err(failed.error)),
            };
            let mut request = self
                .http
                .get(self.models_url.clone())
                .headers(self.headers.clone());
            if let Some(authorization) = authorization {
                request = request.header(AUTHORIZATION, authorization);
            }
            let mut response = request.send().await?;
            let status = response.status().as_u16();
            if !matches!(status, 400 | 404) {
                return Ok(Ok(status));
            }
            // A body that breaks off only shortens the message, as for chat answers.
            let bytes = match read_body(&mut response, ERROR_BODY_PEEK_BYTES).await {
                Ok(BodyRead::Complete(bytes) | BodyRead::OverLimit(bytes)) => bytes,
                Err(_) => Vec::new(),
            };
            Ok::<_, reqwest::Error>(Err(LlmError::BadRequest {
                status,
                message: format!(
                    "the model list at the base URL is not available: {}",
                    error_message(&String::from_utf8_lossy(&bytes))
                ),
            }))
        };
        let result = tokio::select! {
            () = cancel.cancelled() => Err(LlmError::Cancelled),
            timed = tokio::time::timeout(self.budget.attempt_timeout, exchange) => match timed {
                Err(_elapsed) => Err(LlmError::Timeout {
                    message: format!(
                        "no answer within the attempt timeout of {:?}",
                        self.budget.attempt_timeout
                    ),
                }),
                Ok(Ok(answer)) => answer,
                Ok(Err(error)) if error.is_timeout() => Err(LlmError::Timeout {
                    message: describe_reqwest_error(error),
                }),
                Ok(Err(error)) => Err(LlmError::Unavailable {
                    status: None,
                    message: describe_reqwest_error(error),
                }),
            },
        };
        let secrets = self.secrets();
        result.map_err(|error| error.redacted(&as_strs(&secrets)))
    }

    /// Makes sure the client holds credentials it can send, for `zayavka doctor`: for GigaChat,
    /// exchanges the authorization key for an access token unless a valid one is held (once,
    /// under the per-attempt timeout, never retried). `Ok(true)` when an exchange was made now,
    /// `Ok(false)` when none was needed (a token is held, or the endpoint has no token
    /// exchange). A failed exchange is its error: [`LlmError::Auth`] for a rejected key,
    /// [`LlmError::Unavailable`] or [`LlmError::Timeout`] for an unreachable token endpoint.
    pub async fn ensure_credentials(&self, cancel: &CancellationToken) -> Result<bool, LlmError> {
        let Credentials::GigaChat(_) = &self.credentials else {
            return Ok(false);
        };
        let mut exchange = None;
        let result = tokio::select! {
            () = cancel.cancelled() => Err(LlmError::Cancelled),
            timed = tokio::time::timeout(
                self.budget.attempt_timeout,
                self.authorization(&mut exchange),
            ) => match timed {
                Err(_elapsed) => Err(LlmError::Timeout {
                    message: format!(
                        "the token endpoint did not answer within the attempt timeout of {:?}",
                        self.budget.attempt_timeout
                    ),
                }),
                Ok(Ok(_)) => Ok(exchange.is_some()),
                Ok(Err(failed)) => Err(failed.error),
            },
        };
        let secrets = self.secrets();
        result.map_err(|error| error.redacted(&as_strs(&secrets)))
    }

    /// Finds out which response formats the server takes, for `zayavka doctor`: one tiny
    /// request per mode the protocol offers ([`Protocol::schema_modes`]: `json_schema` with
    /// `schema` under `schema_name` and `strict: true`, then `json_object`, or for GigaChat
    /// `function_call`), each a single attempt under the per-attempt timeout, never retried.
    ///
    /// The caller passes a minimal schema of its own, since this crate knows none; a small
    /// one keeps a local model's answer short. Each mode is reported as accepted (a
    /// completion came back, whatever its content), refused
    /// ([`LlmError::SchemaModeUnsupported`]) or failed for another reason, such as an
    /// unreachable server or a rejected key. Once `cancel` fires, the modes not yet tried
    /// are reported as cancelled without a request.
    pub async fn probe_schema_modes(
        &self,
        model: &str,
        schema_name: &str,
        schema: &serde_json::Value,
        cancel: &CancellationToken,
    ) -> SchemaModeReport {
        let budget = Budget {
            max_attempts: 1,
            overall_deadline: self
                .budget
                .attempt_timeout
                .min(self.budget.overall_deadline),
            ..self.budget.clone()
        };
        let modes = self.protocol.schema_modes();
        let mut probes = Vec::with_capacity(modes.len());
        for &mode in modes {
            let response_format = match mode {
                ResponseFormatKind::JsonSchema => ResponseFormat::JsonSchema {
                    name: schema_name.to_owned(),
                    schema: schema.clone(),
                    strict: true,
                },
                ResponseFormatKind::JsonObject => ResponseFormat::JsonObject,
                ResponseFormatKind::FunctionCall => ResponseFormat::FunctionCall {
                    name: schema_name.to_owned(),
                    description: "A connection check: answer with a short object.".to_owned(),
                    parameters: schema.clone(),
                },
            };
            let request = ChatRequest {
                model: model.to_owned(),
                // OpenAI takes `json_object` only when a message says "JSON".
                messages: vec![Message::user(
                    "This is a connection check. Answer with one short JSON object.",
                )],
                temperature: 0.0,
                max_tokens: SCHEMA_PROBE_MAX_TOKENS,
                response_format,
            };
            let mut attempts = Vec::new();
            let result = self
                .run_attempts(&request, &budget, 1, cancel, &mut attempts, &|_| {})
                .await;
            let support = match result {
                Ok(_) => ModeSupport::Accepted,
                Err(error) if error.is_schema_mode_unsupported() => ModeSupport::Refused(error),
                Err(error) => ModeSupport::Failed(error),
            };
            probes.push(SchemaModeProbe {
                mode,
                support,
                attempt: attempts.pop(),
            });
        }
        SchemaModeReport { probes }
    }

    /// The budget every call of this client runs under.
    pub fn budget(&self) -> &Budget {
        &self.budget
    }

    /// Makes the call: attempts, waits and retries within the budget until a completion
    /// arrives, a permanent error occurs, the attempts or the deadline run out, or `cancel`
    /// fires. It never panics and always reports every attempt it made.
    ///
    /// Its attempts are numbered from 1; see [`Client::complete_from`] to continue a
    /// numbering.
    pub async fn complete(&self, request: &ChatRequest, cancel: &CancellationToken) -> CallReport {
        self.complete_from(request, cancel, 1).await
    }

    /// [`Client::complete`] with the attempts numbered from `first_attempt_number` (`0` counts
    /// as `1`), so that a caller making several calls for one task, such as a re-ask after a
    /// malformed answer, keeps every attempt number unique: `1, 2` for the first call, then
    /// `3` for the next. The budget applies to this call alone, whatever its first number.
    pub async fn complete_from(
        &self,
        request: &ChatRequest,
        cancel: &CancellationToken,
        first_attempt_number: u32,
    ) -> CallReport {
        self.complete_observed(request, cancel, first_attempt_number, &|_| {})
            .await
    }

    /// [`Client::complete_from`], telling `observe` as each attempt is sent and before each
    /// wait for the next, so that a caller can show how far the call has got.
    pub async fn complete_observed(
        &self,
        request: &ChatRequest,
        cancel: &CancellationToken,
        first_attempt_number: u32,
        observe: &(dyn Fn(CallEvent) + Send + Sync),
    ) -> CallReport {
        let mut attempts = Vec::new();
        let result = self
            .run_attempts(
                request,
                &self.budget,
                first_attempt_number.max(1),
                cancel,
                &mut attempts,
                observe,
            )
            .await;
        CallReport { attempts, result }
    }

    /// The protocol this client speaks.
    pub fn protocol(&self) -> Protocol {
        self.protocol
    }

    /// Every secret to remove from what leaves the client: the key, and for GigaChat every
    /// access token this client was issued.
    fn secrets(&self) -> Vec<String> {
        let mut secrets: Vec<String> = self
            .api_key
            .iter()
            .map(|key| key.expose().to_owned())
            .collect();
        if let Credentials::GigaChat(source) = &self.credentials {
            secrets.extend(source.known_tokens());
        }
        secrets
    }

    /// The `Authorization` value for the next request, and the token exchange made for it;
    /// `None` when the endpoint needs none.
    async fn authorization(
        &self,
        exchange: &mut Option<TokenExchange>,
    ) -> Result<Option<(HeaderValue, bool)>, Failed> {
        match &self.credentials {
            Credentials::None => Ok(None),
            Credentials::Fixed(value) => Ok(Some((value.clone(), false))),
            Credentials::GigaChat(source) => {
                let granted =
                    source
                        .authorization(&self.http, exchange)
                        .await
                        .map_err(|failure| {
                            let failed = Failed::new(failure.error, failure.cause);
                            match failure.body {
                                Some(body) => failed.with_body(body),
                                None => failed,
                            }
                        })?;
                Ok(Some((granted.authorization, granted.exchange.is_some())))
            }
        }
    }

    async fn run_attempts(
        &self,
        request: &ChatRequest,
        budget: &Budget,
        first_number: u32,
        cancel: &CancellationToken,
        attempts: &mut Vec<Attempt>,
        observe: &(dyn Fn(CallEvent) + Send + Sync),
    ) -> Result<Completion, LlmError> {
        let deadline = Instant::now() + budget.overall_deadline;
        let body = serde_json::to_vec(&wire_body(request, self.protocol)?).map_err(|error| {
            LlmError::BadConfig {
                message: format!("the request cannot be serialised: {error}"),
            }
        })?;
        let mode = request.response_format.kind();
        // A GigaChat token the API rejected is exchanged again once per call, in an extra
        // attempt that does not count against the budget's attempts.
        let mut reauthorised = false;
        let mut number = first_number;
        let mut position = 1;

        while position <= budget.max_attempts {
            if cancel.is_cancelled() {
                return Err(LlmError::Cancelled);
            }
            let remaining = deadline.saturating_duration_since(Instant::now());
            if remaining.is_zero() {
                return Err(overall_deadline_error(budget));
            }
            let limited_by_deadline = remaining <= budget.attempt_timeout;
            let limit = remaining.min(budget.attempt_timeout);

            let started_at_unix_ms = unix_ms(SystemTime::now());
            let started = Instant::now();
            let mut http_status = None;
            let mut token_exchange = None;
            // Only the host is logged: a gateway's query string may carry a credential.
            tracing::debug!(
                attempt = number,
                host = self.url.host_str(),
                "llm attempt started"
            );
            observe(CallEvent::Sending { number });
            let outcome = tokio::select! {
                biased;
                () = cancel.cancelled() => Err(Failed::new(LlmError::Cancelled, RetryReason::Cancelled)),
                timed = tokio::time::timeout(limit, self.attempt(&body, mode, &mut http_status, &mut token_exchange)) => {
                    timed.unwrap_or_else(|_elapsed| Err(Failed::new(
                        if limited_by_deadline {
                            overall_deadline_error(budget)
                        } else {
                            LlmError::Timeout {
                                message: format!(
                                    "no complete answer within the attempt timeout of {:?}",
                                    budget.attempt_timeout
                                ),
                            }
                        },
                        RetryReason::Timeout,
                    )))
                }
            };
            let duration_ms = duration_ms_of(started.elapsed());
            // Read after the attempt, which may have been issued a new token.
            let secrets = self.secrets();
            let secrets = as_strs(&secrets);

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
                        error_body: None,
                        token_exchange,
                    });
                    return Ok(completion.redacted(&secrets));
                }
                Err(failed) => failed,
            };

            let error = failed.error.redacted(&secrets);
            let error_body = failed
                .body
                .map(|body| cap_body(redact_body(&body, &secrets), ERROR_BODY_RECORD_BYTES));
            if let (Some(rejected), Credentials::GigaChat(source), false) =
                (&failed.rejected_token, &self.credentials, reauthorised)
            {
                reauthorised = true;
                source.invalidate(rejected).await;
                tracing::debug!(attempt = number, "llm token rejected, exchanging again");
                attempts.push(Attempt {
                    number,
                    started_at_unix_ms,
                    duration_ms,
                    http_status,
                    error_kind: Some(error.kind()),
                    retry_reason: Some(RetryReason::TokenRejected),
                    usage: None,
                    error_body,
                    token_exchange,
                });
                observe(CallEvent::Waiting {
                    number,
                    http_status,
                    reason: RetryReason::TokenRejected,
                    wait: Duration::ZERO,
                });
                number = number.saturating_add(1);
                continue;
            }
            let plan = plan_retry(
                budget,
                position,
                &Failure {
                    kind: error.kind(),
                    cause: failed.cause,
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
                retry_reason = plan.as_ref().map(|plan| plan.reason.as_str().into_owned()),
                wait_ms = plan.as_ref().map(|plan| duration_ms_of(plan.wait)),
                "llm attempt failed"
            );
            attempts.push(Attempt {
                number,
                started_at_unix_ms,
                duration_ms,
                http_status,
                error_kind: Some(error.kind()),
                retry_reason: plan.as_ref().map(|plan| plan.reason),
                usage: None,
                error_body,
                token_exchange,
            });
            let Some(plan) = plan else {
                return Err(error);
            };
            observe(CallEvent::Waiting {
                number,
                http_status,
                reason: plan.reason,
                wait: plan.wait,
            });
            tokio::select! {
                biased;
                () = cancel.cancelled() => return Err(LlmError::Cancelled),
                () = tokio::time::sleep(plan.wait) => {}
            }
            number = number.saturating_add(1);
            position += 1;
        }
        // The loop returns from its last iteration because `plan_retry` never plans a retry
        // past `max_attempts`; reaching this line would mean the budget allowed no attempt.
        Err(LlmError::BadConfig {
            message: "the budget allows no attempt".to_owned(),
        })
    }

    /// One HTTP exchange: send, read the status, read the body under the size cap, classify.
    async fn attempt(
        &self,
        body: &[u8],
        mode: ResponseFormatKind,
        http_status: &mut Option<u16>,
        token_exchange: &mut Option<TokenExchange>,
    ) -> Result<Completion, Failed> {
        let authorization = self.authorization(token_exchange).await.inspect_err(|_| {
            // The attempt ended at the token endpoint: its status is the attempt's.
            *http_status = token_exchange.and_then(|exchange| exchange.http_status);
        })?;
        let mut request = self
            .http
            .post(self.url.clone())
            .headers(self.headers.clone())
            .header(CONTENT_TYPE, "application/json")
            .header(ACCEPT, "application/json")
            .body(body.to_vec());
        if let Some((authorization, _)) = &authorization {
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
                    RetryReason::ResponseTooLarge,
                ));
            }
            let bytes = match read_body(&mut response, limit).await {
                Ok(BodyRead::Complete(bytes)) => bytes,
                Ok(BodyRead::OverLimit(_)) => {
                    return Err(Failed::new(
                        LlmError::ResponseTooLarge { limit_bytes: limit },
                        RetryReason::ResponseTooLarge,
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
                        RetryReason::BodyError,
                    ));
                }
            };
            let text = String::from_utf8(bytes).map_err(|error| {
                Failed::new(
                    LlmError::InvalidResponse {
                        status: Some(status),
                        message: "the body is not UTF-8".to_owned(),
                    },
                    RetryReason::InvalidResponse,
                )
                .with_body(String::from_utf8_lossy(error.as_bytes()))
            })?;
            let parse = match self.protocol {
                Protocol::Responses => parse_response,
                Protocol::ChatCompletions | Protocol::GigaChat => parse_chat_completion,
            };
            return parse(&text).map_err(|error| {
                let message = match error {
                    LlmError::InvalidResponse { message, .. } => message,
                    other => other.to_string(),
                };
                Failed::new(
                    LlmError::InvalidResponse {
                        status: Some(status),
                        message,
                    },
                    RetryReason::InvalidResponse,
                )
                .with_body(text.as_str())
            });
        }

        // An error answer is classified by its status; a body that breaks off or runs long
        // only shortens the message, so read problems are deliberately ignored here.
        let bytes = match read_body(&mut response, ERROR_BODY_PEEK_BYTES).await {
            Ok(BodyRead::Complete(bytes) | BodyRead::OverLimit(bytes)) => bytes,
            Err(_) => Vec::new(),
        };
        let text = String::from_utf8_lossy(&bytes);
        let mut failed = error_for_status(
            status,
            &text,
            self.api_key.is_some(),
            location.as_deref(),
            mode,
            self.protocol.alternative_mode(mode),
        )
        .with_body(text);
        failed.server_delay = server_delay;
        if status == 401
            && let Some((authorization, false)) = authorization
            && matches!(self.credentials, Credentials::GigaChat(_))
        {
            failed.rejected_token = Some(Box::new(authorization));
        }
        Err(failed)
    }
}

enum BodyRead {
    Complete(Vec<u8>),
    /// The bytes read before the limit was passed.
    OverLimit(Vec<u8>),
}

/// Reads extra root certificates: PEM when the bytes say `-----BEGIN`, DER otherwise.
fn root_certificates(sources: &[Vec<u8>]) -> Result<Vec<reqwest::Certificate>, LlmError> {
    let mut certificates = Vec::new();
    for (index, bytes) in sources.iter().enumerate() {
        let unreadable = |_| LlmError::BadConfig {
            message: format!("extra root certificate {} cannot be read", index + 1),
        };
        let is_pem = bytes
            .windows(b"-----BEGIN".len())
            .any(|window| window == b"-----BEGIN");
        if is_pem {
            let bundle = reqwest::Certificate::from_pem_bundle(bytes).map_err(unreadable)?;
            if bundle.is_empty() {
                return Err(LlmError::BadConfig {
                    message: format!("extra root certificate {} holds none", index + 1),
                });
            }
            certificates.extend(bundle);
        } else {
            certificates.push(reqwest::Certificate::from_der(bytes).map_err(unreadable)?);
        }
    }
    Ok(certificates)
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

fn as_strs(secrets: &[String]) -> Vec<&str> {
    secrets.iter().map(String::as_str).collect()
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
fn refuses_response_format(status: u16, body: &str, mode: ResponseFormatKind) -> bool {
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

fn overall_deadline_error(budget: &Budget) -> LlmError {
    LlmError::Timeout {
        message: format!(
            "the overall deadline of {:?} ran out",
            budget.overall_deadline
        ),
    }
}

fn is_loopback(url: &Url) -> bool {
    match url.host() {
        Some(Host::Ipv4(address)) => address.is_loopback(),
        Some(Host::Ipv6(address)) => address.is_loopback(),
        Some(Host::Domain(domain)) => domain.eq_ignore_ascii_case("localhost"),
        None => false,
    }
}

pub(crate) fn unix_ms(time: SystemTime) -> u64 {
    time.duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, duration_ms_of)
}

pub(crate) fn duration_ms_of(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod provider_tests;
