//! The model loop: one call under the invocation budget, re-asked at most a bounded number of
//! times while the output is malformed, all within one overall deadline, with every response
//! and attempt kept for the context record.

use std::time::{Duration, Instant};

use zayavka_core::{
    Failure, FailureReason, ModelReply, Outcome, Prompt, RegisteredSchema, ResidentInput,
    SchemaMode, SystemPrompt, evaluate_reply, legal_catalogue, reask_message, render_prompt_with,
    system_prompt,
};
use zayavka_llm::{
    ApiKey, Attempt, Budget, CallEvent, CancellationToken, ChatRequest, Client, LlmError, Message,
    ResponseFormat, RetryReason, Usage,
};

use super::advice::{detail_ru, failure_reason};
use super::record::{ContextRecord, RECORD_FORMAT_VERSION, RecordedResponse, ResponseVerdict};
use crate::config::ProviderSettings;

/// The sampling temperature: low, because the task is a faithful restatement.
pub const TEMPERATURE: f32 = 0.2;

/// The cap on generated tokens. A draft that fits the 2,500-character body is far below it;
/// a model that runs past it is truncated and its output rejected.
pub const MAX_TOKENS: u32 = 2_000;

/// How many times a malformed answer (not JSON, against the schema, unsafe characters) is
/// asked for again.
pub const MAX_REASKS: u32 = 1;

/// Everything one model-backed draft needs besides the input.
#[derive(Debug, Clone)]
pub struct ModelSettings {
    /// The provider, with presets and overrides applied.
    pub provider: ProviderSettings,
    /// The API key, if there is one.
    pub api_key: Option<ApiKey>,
    /// How many re-asks for malformed output are allowed.
    pub max_reasks: u32,
}

/// The result of one draft.
#[derive(Debug, Clone)]
pub struct DraftRun {
    /// How it ended.
    pub outcome: Outcome,
    /// The context record, when a model was called.
    pub record: Option<ContextRecord>,
}

impl DraftRun {
    /// How many HTTP attempts were made.
    pub fn attempt_count(&self) -> u32 {
        self.record
            .as_ref()
            .map_or(0, |record| record.attempts.len() as u32)
    }

    /// Whether a retry may help: always false for outcomes other than a technical failure.
    pub fn retryable(&self) -> bool {
        self.outcome.retryable()
    }
}

/// Maps a transport error to the core's technical failure, with a detail in Russian. The
/// adapter's own (English, redacted) description stays in the diagnostic log and the
/// context record's attempts; the resident reads what kind of failure it was and the HTTP
/// status, if there was one.
pub fn failure_from(error: &LlmError) -> Failure {
    tracing::debug!(%error, "model call failed");
    Failure::new(
        failure_reason(error.kind()),
        error.is_retryable(),
        detail_ru(error),
    )
}

/// What the one function of the function-call mode is for, as the model reads it.
const FUNCTION_DESCRIPTION: &str =
    "Записать черновик заявки жителя в управляющую компанию по правилам из системного сообщения.";

/// Builds the chat request for an input.
pub fn chat_request(
    prompt: &Prompt,
    model: &str,
    mode: SchemaMode,
    schema: &RegisteredSchema,
) -> ChatRequest {
    let response_format = match mode {
        SchemaMode::JsonSchema => ResponseFormat::JsonSchema {
            name: schema.name.to_owned(),
            schema: schema.transport().clone(),
            strict: true,
        },
        SchemaMode::JsonObject => ResponseFormat::JsonObject,
        // The transport schema, the one strict providers enforce, is also the function's
        // parameters; the arguments are validated locally like any answer (ADR 21).
        SchemaMode::FunctionCall => ResponseFormat::FunctionCall {
            name: schema.name.to_owned(),
            description: FUNCTION_DESCRIPTION.to_owned(),
            parameters: schema.transport().clone(),
        },
    };
    ChatRequest {
        model: model.to_owned(),
        messages: vec![
            Message::system(prompt.system.clone()),
            Message::user(prompt.user.clone()),
        ],
        temperature: TEMPERATURE,
        max_tokens: MAX_TOKENS,
        response_format,
    }
}

/// The budget for one draft: the adapter's defaults with the profile's timeout and attempts.
/// The overall deadline grows when needed so that every attempt the resident allowed can run
/// to its full timeout, with the longest backoff between attempts.
pub(crate) fn budget(settings: &ProviderSettings) -> Budget {
    let mut budget = Budget::default();
    if let Some(secs) = settings.timeout_secs {
        budget.attempt_timeout = Duration::from_secs(secs);
    }
    if let Some(attempts) = settings.attempts {
        budget.max_attempts = attempts;
    }
    let attempts = budget.max_attempts.max(1);
    let needed = budget.attempt_timeout * attempts + budget.backoff_max * (attempts - 1);
    budget.overall_deadline = budget.overall_deadline.max(needed);
    budget
}

/// The record of a draft before the first call: what will be sent and under which rules.
fn new_record(
    input: &ResidentInput,
    provider: &ProviderSettings,
    request: &ChatRequest,
    schema: &RegisteredSchema,
    prompt: &Prompt,
) -> ContextRecord {
    let mode = provider.schema_mode;
    // The transport schema is sent, and so recorded, in every mode but `json_object`.
    let json_schema = mode != SchemaMode::JsonObject;
    ContextRecord {
        format_version: RECORD_FORMAT_VERSION,
        app_version: env!("CARGO_PKG_VERSION").to_owned(),
        input: input.to_raw(),
        prompt_version: prompt.prompt_version.to_owned(),
        prompt_sha256: prompt.prompt_sha256.clone(),
        schema_id: schema.id.to_owned(),
        schema_version: schema.version,
        schema_sha256: schema.sha256().to_owned(),
        transport_schema_sha256: json_schema.then(|| schema.transport_sha256().to_owned()),
        transport_schema: json_schema.then(|| schema.transport().clone()),
        legal_catalogue_version: legal_catalogue().version().to_owned(),
        provider_profile: provider.profile.as_str().to_owned(),
        provider_host: provider.base_url.host().to_owned(),
        model: provider.model.clone(),
        temperature: TEMPERATURE,
        max_tokens: MAX_TOKENS,
        schema_mode: mode,
        messages: request.messages.clone(),
        responses: Vec::new(),
        attempts: Vec::new(),
        usage: None,
        cost: None,
    }
}

/// How far a draft with the model has got, for a progress display; the context record holds
/// the same attempts once the draft is over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum DraftEvent {
    /// An attempt is being sent.
    Sending {
        /// Its number, counted over the whole draft from 1, as the record numbers it.
        attempt: u32,
        /// Whether it asks the model again after an answer that did not pass the checks.
        reask: bool,
    },
    /// An attempt failed for a reason another attempt may fix, such as a busy service; the
    /// next one is sent after `wait` unless the draft is cancelled first.
    Waiting {
        /// The attempt that failed.
        attempt: u32,
        /// Its HTTP status, if it got an answer.
        http_status: Option<u16>,
        /// Why another attempt follows, as the record keeps it.
        reason: RetryReason,
        /// The pause before the next attempt.
        wait: Duration,
    },
}

impl DraftEvent {
    /// The event in a sentence for a progress line, such as «Сервис модели занят (HTTP 503),
    /// пробуем ещё раз через 2 с…».
    pub fn message_ru(&self) -> String {
        match *self {
            DraftEvent::Sending {
                attempt,
                reask: false,
            } if attempt <= 1 => "Модель составляет описание…".to_owned(),
            DraftEvent::Sending {
                attempt,
                reask: false,
            } => format!("Модель составляет описание… Попытка {attempt}."),
            DraftEvent::Sending {
                attempt,
                reask: true,
            } => format!("Ответ модели не подошёл, просим его исправить… Попытка {attempt}."),
            DraftEvent::Waiting {
                http_status,
                reason,
                wait,
                ..
            } => {
                let what = match (http_status, reason) {
                    // GigaChat's access token was refused (it ran out or was revoked): a new
                    // one is asked for at once; the service is not busy.
                    (_, RetryReason::TokenRejected) => {
                        "Токен доступа устарел, получаем новый".to_owned()
                    }
                    (Some(429), _) => "Сервис модели просит подождать (HTTP 429)".to_owned(),
                    (Some(status), _) => format!("Сервис модели занят (HTTP {status})"),
                    (None, RetryReason::Timeout | RetryReason::ConnectTimeout) => {
                        "Сервис модели не ответил вовремя".to_owned()
                    }
                    (None, _) => "Не удалось связаться с сервисом модели".to_owned(),
                };
                let seconds = wait.as_secs_f64().ceil() as u64;
                if seconds == 0 {
                    format!("{what}, пробуем ещё раз…")
                } else {
                    format!("{what}, пробуем ещё раз через {seconds} с…")
                }
            }
        }
    }
}

/// Drafts a request with the model: one call, re-asked at most `max_reasks` times while the
/// output is malformed, all within one overall deadline. `observe` hears each attempt as it
/// is sent and each wait before the next. The engine drafts through [`draft_with_client`] with
/// the session's client; this opens a client of its own, for the provider scenarios' tests.
#[cfg(test)]
pub async fn draft_with_model(
    input: &ResidentInput,
    settings: &ModelSettings,
    cancel: &CancellationToken,
    observe: &(dyn Fn(DraftEvent) + Send + Sync),
) -> DraftRun {
    draft_with_client(input, settings, None, cancel, observe).await
}

/// The HTTP client a run of many drafts with these settings shares (a batch), so that each
/// draft does not build its own: building one costs milliseconds (the TLS roots, the
/// connection pool). `None` when the settings cannot make one; each draft then reports why.
pub(crate) fn shared_client(settings: &ModelSettings) -> Option<Client> {
    let provider = &settings.provider;
    let endpoint = provider.endpoint(settings.api_key.clone());
    Client::new(endpoint, budget(provider)).ok()
}

/// [`draft_with_model`], with a client from [`shared_client`] for the same settings when the
/// caller has one; without it the draft builds its own.
pub(crate) async fn draft_with_client(
    input: &ResidentInput,
    settings: &ModelSettings,
    shared: Option<&Client>,
    cancel: &CancellationToken,
    observe: &(dyn Fn(DraftEvent) + Send + Sync),
) -> DraftRun {
    draft_with_prompt(input, settings, shared, system_prompt(), cancel, observe).await
}

/// [`draft_with_client`] with a given released system prompt instead of the current one: how
/// an evaluation compares prompts through the very loop a resident's draft goes through
/// (issue 17).
pub(crate) async fn draft_with_prompt(
    input: &ResidentInput,
    settings: &ModelSettings,
    shared: Option<&Client>,
    system: &SystemPrompt,
    cancel: &CancellationToken,
    observe: &(dyn Fn(DraftEvent) + Send + Sync),
) -> DraftRun {
    // A prompt is sent with the schema it was released with: an older prompt evaluated today
    // is asked exactly as it was then.
    let schema = system.schema();
    let catalogue = legal_catalogue();
    let provider = &settings.provider;
    let prompt = render_prompt_with(system, input, provider.schema_mode, schema);
    let mut request = chat_request(&prompt, &provider.model, provider.schema_mode, schema);
    let mut record = new_record(input, provider, &request, schema, &prompt);
    if provider.needs_api_key && settings.api_key.is_none() {
        let outcome = Outcome::Failed(Failure::new(
            FailureReason::NoApiKey,
            false,
            format!(
                "для профиля «{}» не задан ключ доступа",
                provider.profile.as_str()
            ),
        ));
        return DraftRun {
            outcome,
            record: Some(record),
        };
    }
    let total_budget = budget(provider);
    // One client for the whole draft, re-asks included: GigaChat's access token is then
    // exchanged once per draft (or once per session, with a shared client), never per call.
    let own_client = match shared {
        Some(client) => Ok(client.clone()),
        None => Client::new(
            provider.endpoint(settings.api_key.clone()),
            total_budget.clone(),
        ),
    };
    let started = Instant::now();
    let mut outcome;
    let mut asks = 0;
    let mut reask = Vec::new();
    loop {
        asks += 1;
        // Every call gets only what is left of the one overall deadline.
        let mut call_budget = total_budget.clone();
        call_budget.overall_deadline = total_budget
            .overall_deadline
            .saturating_sub(started.elapsed());
        // Attempt numbers continue across re-asks, so each is unique in the record.
        let first_number = record.attempts.len() as u32 + 1;
        let client = own_client
            .as_ref()
            .map_err(Clone::clone)
            .and_then(|client| client.with_budget(call_budget));
        let reask_call = asks > 1;
        let on_call = |event: CallEvent| {
            observe(match event {
                CallEvent::Sending { number } => DraftEvent::Sending {
                    attempt: number,
                    reask: reask_call,
                },
                CallEvent::Waiting {
                    number,
                    http_status,
                    reason,
                    wait,
                } => DraftEvent::Waiting {
                    attempt: number,
                    http_status,
                    reason,
                    wait,
                },
                // A kind of event this adapter version does not send yet.
                _ => return,
            });
        };
        let report = match client {
            Ok(client) => {
                client
                    .complete_observed(&request, cancel, first_number, &on_call)
                    .await
            }
            Err(error) => {
                outcome = Outcome::Failed(failure_of_call(&error, settings, &record.attempts));
                break;
            }
        };
        record.attempts.extend(report.attempts.iter().cloned());
        let completion = match report.result {
            Ok(completion) => completion,
            Err(error) => {
                outcome = Outcome::Failed(failure_of_call(&error, settings, &record.attempts));
                break;
            }
        };
        let reply = ModelReply {
            content: completion.content.clone(),
            refusal: completion.refusal.clone(),
            finish_reason: completion.finish_reason.clone(),
        };
        outcome = evaluate_reply(input, &reply, schema, catalogue);
        let answer = reply.content.clone().unwrap_or_default();
        record.responses.push(RecordedResponse {
            reask: std::mem::take(&mut reask),
            raw_body: completion.raw_body,
            reply,
            usage: completion.usage,
            verdict: ResponseVerdict::of(&outcome)
                .expect("a model response leads to ready, needs_user or rejected"),
        });
        let rejection = match &outcome {
            Outcome::Rejected(rejection) if rejection.reason().may_reask() => rejection,
            _ => break,
        };
        if asks > settings.max_reasks || cancel.is_cancelled() {
            break;
        }
        // The model sees its own answer and what was wrong with it: asking the same question
        // again would mostly get the same answer.
        tracing::debug!(
            reason = outcome.reason(),
            "re-asking after malformed output"
        );
        reask = vec![
            Message::assistant(answer),
            Message::user(reask_message(rejection.findings())),
        ];
        request.messages.extend(reask.iter().cloned());
    }
    record.usage = total_usage(&record.attempts);
    record.cost = match (&provider.pricing, &record.usage) {
        (Some(pricing), Some(usage)) => Some(
            usage.prompt_tokens as f64 * pricing.input_per_million / 1e6
                + usage.completion_tokens as f64 * pricing.output_per_million / 1e6,
        ),
        _ => None,
    };
    DraftRun {
        outcome,
        record: Some(record),
    }
}

/// The failure of a call, worded for the service in use, with the server's own reason from
/// the attempts so far (ADR 24).
fn failure_of_call(error: &LlmError, settings: &ModelSettings, attempts: &[Attempt]) -> Failure {
    super::advice::failure_for(
        error,
        settings.provider.kind,
        attempts,
        settings.api_key.as_ref(),
    )
}

fn total_usage(attempts: &[Attempt]) -> Option<Usage> {
    attempts
        .iter()
        .filter_map(|attempt| attempt.usage)
        .reduce(|sum, usage| Usage {
            prompt_tokens: sum.prompt_tokens + usage.prompt_tokens,
            completion_tokens: sum.completion_tokens + usage.completion_tokens,
            total_tokens: sum.total_tokens + usage.total_tokens,
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use zayavka_llm::ErrorKind;

    use crate::config::{Config, ProviderOverrides, resolve_provider};

    #[test]
    fn issue_19_a_body_cut_off_after_a_success_status_is_not_called_a_server_error() {
        let cut = LlmError::Unavailable {
            status: Some(200),
            message: "the connection broke while reading the body".to_owned(),
        };
        assert_eq!(
            detail_ru(&cut),
            "соединение с сервером модели оборвалось, пока он присылал ответ (HTTP 200)"
        );
        let busy = LlmError::Unavailable {
            status: Some(503),
            message: "unavailable".to_owned(),
        };
        assert_eq!(
            detail_ru(&busy),
            "сервер модели ответил ошибкой на своей стороне (HTTP 503)"
        );
    }

    #[test]
    fn each_progress_event_reads_as_a_plain_russian_line() {
        let waiting = |http_status, reason, millis| DraftEvent::Waiting {
            attempt: 1,
            http_status,
            reason,
            wait: Duration::from_millis(millis),
        };
        let lines = [
            DraftEvent::Sending {
                attempt: 1,
                reask: false,
            },
            DraftEvent::Sending {
                attempt: 2,
                reask: false,
            },
            DraftEvent::Sending {
                attempt: 3,
                reask: true,
            },
            waiting(Some(503), RetryReason::HttpStatus(503), 1_500),
            waiting(Some(429), RetryReason::RetryAfter, 0),
            waiting(None, RetryReason::Timeout, 2_000),
            waiting(None, RetryReason::ConnectError, 500),
            waiting(Some(401), RetryReason::TokenRejected, 0),
        ]
        .map(|event| event.message_ru());
        assert_eq!(
            lines,
            [
                "Модель составляет описание…",
                "Модель составляет описание… Попытка 2.",
                "Ответ модели не подошёл, просим его исправить… Попытка 3.",
                "Сервис модели занят (HTTP 503), пробуем ещё раз через 2 с…",
                "Сервис модели просит подождать (HTTP 429), пробуем ещё раз…",
                "Сервис модели не ответил вовремя, пробуем ещё раз через 2 с…",
                "Не удалось связаться с сервисом модели, пробуем ещё раз через 1 с…",
                "Токен доступа устарел, получаем новый, пробуем ещё раз…",
            ]
        );
    }

    fn settings(timeout_secs: Option<u64>, attempts: Option<u32>) -> ProviderSettings {
        let overrides = ProviderOverrides {
            base_url: Some("http://127.0.0.1:9/v1".parse().unwrap()),
            model: Some("m".into()),
            timeout_secs,
            attempts,
            ..ProviderOverrides::default()
        };
        resolve_provider(&Config::default(), &overrides)
            .unwrap()
            .unwrap()
    }

    #[test]
    fn the_deadline_leaves_room_for_every_allowed_attempt() {
        let default = Budget::default();
        let plain = budget(&settings(None, None));
        assert!(
            plain.overall_deadline
                >= plain.attempt_timeout * plain.max_attempts
                    + plain.backoff_max * (plain.max_attempts - 1)
        );
        let long = budget(&settings(Some(120), Some(3)));
        assert_eq!(long.attempt_timeout, Duration::from_secs(120));
        assert_eq!(long.max_attempts, 3);
        assert!(long.overall_deadline >= Duration::from_secs(360) + default.backoff_max * 2);
        let short = budget(&settings(Some(1), Some(2)));
        assert_eq!(short.overall_deadline, default.overall_deadline);
    }

    #[test]
    fn every_adapter_error_kind_maps_to_its_own_failure_reason() {
        let mut seen = std::collections::HashSet::new();
        for &kind in ErrorKind::ALL {
            let reason = failure_reason(kind);
            assert!(seen.insert(reason), "{kind:?} shares {reason}");
            // The adapter's stable code and the core's are the same word.
            assert_eq!(kind.code(), reason.code(), "{kind:?}");
        }
        assert_eq!(seen.len(), FailureReason::ALL.len());
    }

    #[test]
    fn transport_errors_map_to_failures_with_the_same_retry_verdict() {
        let cases = [
            (LlmError::Cancelled, FailureReason::Cancelled, false),
            (LlmError::NoApiKey, FailureReason::NoApiKey, false),
            (
                LlmError::Timeout {
                    message: "slow".into(),
                },
                FailureReason::Timeout,
                true,
            ),
            (
                LlmError::ResponseTooLarge { limit_bytes: 1 },
                FailureReason::ResponseTooLarge,
                false,
            ),
        ];
        for (error, reason, retryable) in cases {
            let failure = failure_from(&error);
            assert_eq!(failure.reason, reason);
            assert_eq!(failure.retryable, retryable);
            assert!(
                failure.detail.chars().any(|c| matches!(c, 'а'..='я')),
                "{}",
                failure.detail
            );
            assert!(!failure.detail.ends_with('.'), "{}", failure.detail);
        }
    }
}
