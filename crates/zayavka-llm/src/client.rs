//! The client: one call to the provider, in its protocol, carried out under the invocation
//! budget.

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use reqwest::header::{
    ACCEPT, AUTHORIZATION, CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue, LOCATION,
};

use tokio_util::sync::CancellationToken;
use url::{Host, Url};

use crate::attempt::{Attempt, CallEvent, CallReport, ERROR_BODY_RECORD_BYTES};
use crate::config::{Authentication, Budget, Endpoint, Protocol};
use crate::error::LlmError;
use crate::gigachat::{TokenExchange, TokenSource};
use crate::http::{
    BodyRead, Failed, describe_reqwest_error, duration_ms_of, error_for_status, error_message,
    read_body, send_failure, unix_ms,
};
use crate::mode::ResponseFormatKind;
use crate::probe::{ModeSupport, SCHEMA_PROBE_MAX_TOKENS, SchemaModeProbe, SchemaModeReport};
use crate::request::{ChatRequest, Message, ResponseFormat, wire_body};
use crate::response::{Completion, parse_chat_completion, parse_response};
use crate::retry::{Failure, RetryReason, plan_retry, server_requested_delay};
use crate::secret::{ApiKey, cap_body, redact_body};

/// The body of an error answer matters only for its message and the record, so only its
/// start is read.
const ERROR_BODY_PEEK_BYTES: usize = 64 * 1024;

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
                kind = error.kind().code(),
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

fn as_strs(secrets: &[String]) -> Vec<&str> {
    secrets.iter().map(String::as_str).collect()
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

#[cfg(test)]
mod tests;

#[cfg(test)]
mod provider_tests;
