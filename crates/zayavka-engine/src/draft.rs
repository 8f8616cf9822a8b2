//! One draft: the resident's input, one model call under the invocation budget (with bounded
//! re-asks for malformed output), the core's validation, policy and assembly, and a context
//! record of everything that happened.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use zayavka_core::outcome::{Failure, FailureReason, Outcome};
use zayavka_core::prompt::{self, Prompt, SchemaMode};
use zayavka_core::schema::{self, RegisteredSchema};
use zayavka_core::{ModelReply, ResidentInput, evaluate_reply, legal};
use zayavka_llm::{
    ApiKey, Attempt, Budget, CancellationToken, ChatRequest, Client, Endpoint, ErrorKind, LlmError,
    Message, ResponseFormat, Usage,
};

use crate::config::ProviderSettings;

/// The sampling temperature: low, because the task is a faithful restatement.
pub const TEMPERATURE: f32 = 0.2;

/// The cap on generated tokens. A draft that fits the 2,500-character body is far below it;
/// a model that runs past it is truncated and its output rejected.
pub const MAX_TOKENS: u32 = 2_000;

/// How many times a malformed answer (not JSON, or against the schema) is asked for again.
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

/// One model response as received, for the record and for replay.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedResponse {
    /// The messages added to the conversation for this ask: empty for the first; for a re-ask,
    /// the model's previous answer and the message saying what was wrong with it.
    pub reask: Vec<Message>,
    /// The raw response body.
    pub raw_body: String,
    /// What the core evaluated.
    pub reply: ModelReply,
    /// Token usage, if reported.
    pub usage: Option<Usage>,
    /// The outcome this response led to, as a reason code or `ready`.
    pub verdict: String,
}

/// Everything needed to reconstruct and replay a draft offline: what the model saw, what it
/// answered, with which rules. It never holds the API key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ContextRecord {
    /// The version of Zayavka that made the draft.
    pub app_version: String,
    /// The resident's input as checked (normalised), including the confirmed subject, which the
    /// model never saw.
    pub input: zayavka_core::RawInput,
    /// The system prompt's version.
    pub prompt_version: String,
    /// The system prompt's SHA-256.
    pub prompt_sha256: String,
    /// The output schema's `$id`.
    pub schema_id: String,
    /// The output schema's version.
    pub schema_version: u32,
    /// The SHA-256 of the registered schema file.
    pub schema_sha256: String,
    /// The SHA-256 of the transport schema sent in `json_schema` mode.
    pub transport_schema_sha256: Option<String>,
    /// The legal catalogue's version.
    pub legal_catalogue_version: String,
    /// The provider profile's name.
    pub provider_profile: String,
    /// The provider's host (never the key, never the full URL with its query).
    pub provider_host: String,
    /// The model.
    pub model: String,
    /// The sampling temperature.
    pub temperature: f32,
    /// The cap on generated tokens.
    pub max_tokens: u32,
    /// How structured output was requested.
    pub schema_mode: SchemaMode,
    /// The exact messages of the first ask (a re-ask adds the ones in its response's `reask`).
    pub messages: Vec<Message>,
    /// Every response received, in order (more than one after a re-ask).
    pub responses: Vec<RecordedResponse>,
    /// Every HTTP attempt, over all calls.
    pub attempts: Vec<Attempt>,
    /// Token usage over all attempts.
    pub usage: Option<Usage>,
    /// The estimated cost, when the profile has prices.
    pub cost: Option<f64>,
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
        matches!(&self.outcome, Outcome::Failed(failure) if failure.retryable)
    }
}

/// Maps a transport error to the core's technical failure. The detail has passed through the
/// adapter's redaction already.
pub fn failure_from(error: &LlmError) -> Failure {
    let reason = match error.kind() {
        ErrorKind::Timeout => FailureReason::Timeout,
        ErrorKind::RateLimited => FailureReason::RateLimited,
        ErrorKind::Unavailable => FailureReason::Unavailable,
        ErrorKind::Auth => FailureReason::Auth,
        ErrorKind::BadRequest => FailureReason::BadRequest,
        ErrorKind::InsufficientQuota => FailureReason::InsufficientQuota,
        ErrorKind::ResponseTooLarge => FailureReason::ResponseTooLarge,
        ErrorKind::InvalidResponse => FailureReason::InvalidResponse,
        ErrorKind::NoApiKey => FailureReason::NoApiKey,
        ErrorKind::Cancelled => FailureReason::Cancelled,
        ErrorKind::BadConfig => FailureReason::BadConfig,
        _ => FailureReason::Unavailable,
    };
    Failure {
        reason,
        retryable: error.is_retryable(),
        detail: error.to_string(),
    }
}

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
fn budget(settings: &ProviderSettings) -> Budget {
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

/// Drafts a request with the model: one call, re-asked at most `max_reasks` times while the
/// output is malformed, all within one overall deadline.
pub async fn draft_with_model(
    input: &ResidentInput,
    settings: &ModelSettings,
    cancel: &CancellationToken,
) -> DraftRun {
    let schema = schema::request_draft();
    let catalogue = legal::catalogue();
    let provider = &settings.provider;
    let mode = provider.schema_mode;
    let prompt = prompt::render(input, mode, schema);
    let mut request = chat_request(&prompt, &provider.model, mode, schema);
    let mut record = ContextRecord {
        app_version: env!("CARGO_PKG_VERSION").to_owned(),
        input: input.to_raw(),
        prompt_version: prompt.prompt_version.to_owned(),
        prompt_sha256: prompt.prompt_sha256.clone(),
        schema_id: schema.id.to_owned(),
        schema_version: schema.version,
        schema_sha256: schema.sha256().to_owned(),
        transport_schema_sha256: (mode == SchemaMode::JsonSchema)
            .then(|| schema.transport_sha256().to_owned()),
        legal_catalogue_version: catalogue.version().to_owned(),
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
    };
    if provider.needs_api_key && settings.api_key.is_none() {
        let outcome = Outcome::Failed(Failure {
            reason: FailureReason::NoApiKey,
            retryable: false,
            detail: format!(
                "для профиля «{}» не задан ключ доступа",
                provider.profile.as_str()
            ),
        });
        return DraftRun {
            outcome,
            record: Some(record),
        };
    }
    let endpoint = Endpoint::new(provider.base_url.as_url().clone(), settings.api_key.clone());
    let total_budget = budget(provider);
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
        let report = match Client::new(endpoint.clone(), call_budget) {
            Ok(client) => client.complete(&request, cancel).await,
            Err(error) => {
                outcome = Outcome::Failed(failure_from(&error));
                break;
            }
        };
        record.attempts.extend(report.attempts.iter().cloned());
        let completion = match report.result {
            Ok(completion) => completion,
            Err(error) => {
                outcome = Outcome::Failed(failure_from(&error));
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
            verdict: outcome.reason().unwrap_or("ready").to_owned(),
        });
        let rejection = match &outcome {
            Outcome::Rejected(rejection) if rejection.reason.may_reask() => rejection,
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
            Message::user(prompt::reask_message(&rejection.findings)),
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

/// A replayed draft.
#[derive(Debug, Clone)]
pub struct Replay {
    /// The outcome the recorded response leads to today.
    pub outcome: Outcome,
    /// Whether the legal catalogue is the one the draft was made with; if not, a legal
    /// paragraph may read differently from the recorded request.
    pub same_catalogue: bool,
}

/// Why a record cannot be replayed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReplayError {
    /// The record holds no model response (the call failed before one arrived).
    #[error("в записи нет ответа модели: запрос не дошёл до модели, повторять нечего")]
    NoResponse,
    /// The record names a schema this version of Zayavka does not know.
    #[error("запись сделана по схеме ответа версии {0}, которую эта версия программы не знает")]
    UnknownSchema(u32),
    /// The recorded input does not pass today's input contract.
    #[error("данные заявки в записи не проходят проверку: {0}")]
    InvalidInput(String),
}

/// Replays a recorded draft offline: the last recorded response, evaluated again against the
/// recorded input. With the same schema and catalogue it reproduces the recorded request
/// byte for byte.
pub fn replay(record: &ContextRecord) -> Result<Replay, ReplayError> {
    let schema = schema::find("request_draft", record.schema_version)
        .ok_or(ReplayError::UnknownSchema(record.schema_version))?;
    let response = record.responses.last().ok_or(ReplayError::NoResponse)?;
    let input = ResidentInput::parse(&record.input).map_err(|errors| {
        let messages: Vec<String> = errors.0.iter().map(|e| e.message_ru()).collect();
        ReplayError::InvalidInput(messages.join(" "))
    })?;
    let catalogue = legal::catalogue();
    Ok(Replay {
        outcome: evaluate_reply(&input, &response.reply, schema, catalogue),
        same_catalogue: catalogue.version() == record.legal_catalogue_version,
    })
}

/// Where the resident's input of a draft comes from.
#[derive(Debug, Clone)]
pub enum InputSource {
    /// Typed on the command line (or in a form): kept in the pending folder if the draft does
    /// not end ready, so that nothing typed is lost.
    Typed(zayavka_core::RawInput),
    /// Read from a file, which already keeps it.
    File {
        /// The file.
        path: std::path::PathBuf,
        /// Its text.
        text: String,
    },
}

impl InputSource {
    fn json_text(&self) -> String {
        match self {
            InputSource::Typed(raw) => {
                serde_json::to_string_pretty(raw).expect("a raw input serialises")
            }
            InputSource::File { text, .. } => text.clone(),
        }
    }
}

/// What a draft command asks for.
#[derive(Debug, Clone)]
pub struct DraftCommand {
    /// The resident's input.
    pub input: InputSource,
    /// Draft without a model.
    pub offline: bool,
    /// Settings from the command line, above the environment and the configuration file.
    pub overrides: crate::config::ProviderOverrides,
}

/// The result of a draft command.
#[derive(Debug)]
pub struct DraftCommandResult {
    /// The run.
    pub run: DraftRun,
    /// Where the typed input was kept because the draft did not end ready.
    pub kept_input: Option<std::path::PathBuf>,
    /// Whether a model was used.
    pub model_used: bool,
}

/// Runs a draft as the command line and the desktop app ask for it: reads the configuration and
/// the key, drafts with the model or offline, and keeps the typed input when the draft does not
/// end ready.
pub async fn run_draft_command(
    command: DraftCommand,
    paths: &crate::paths::Paths,
    store: &dyn crate::secrets::SecretStore,
    environment: EnvironmentOverrides,
    cancel: &CancellationToken,
) -> DraftCommandResult {
    let (run, model_used) = draft_for_command(&command, paths, store, environment, cancel).await;
    let kept_input = match (&run.outcome, &command.input) {
        (Outcome::Ready(_), _) | (_, InputSource::File { .. }) => None,
        _ => keep_input(paths, &command.input.json_text()),
    };
    DraftCommandResult {
        run,
        kept_input,
        model_used,
    }
}

/// What the environment says, read once by the caller (so that this module stays testable).
#[derive(Debug, Clone, Default)]
pub struct EnvironmentOverrides {
    /// `ZAYAVKA_BASE_URL`, `ZAYAVKA_MODEL` and the rest.
    pub provider: crate::config::ProviderOverrides,
    /// `ZAYAVKA_API_KEY`.
    pub api_key: Option<crate::secrets::ApiKey>,
}

fn technical(reason: FailureReason, detail: String) -> DraftRun {
    DraftRun {
        outcome: Outcome::Failed(Failure {
            reason,
            retryable: false,
            detail,
        }),
        record: None,
    }
}

async fn draft_for_command(
    command: &DraftCommand,
    paths: &crate::paths::Paths,
    store: &dyn crate::secrets::SecretStore,
    environment: EnvironmentOverrides,
    cancel: &CancellationToken,
) -> (DraftRun, bool) {
    let input = match ResidentInput::from_json_str(&command.input.json_text()) {
        Ok(input) => input,
        Err(errors) => {
            let run = DraftRun {
                outcome: Outcome::InvalidInput(errors),
                record: None,
            };
            return (run, false);
        }
    };
    if command.offline {
        let outcome = zayavka_core::offline_request(&input, legal::catalogue());
        return (
            DraftRun {
                outcome,
                record: None,
            },
            false,
        );
    }
    let config = match crate::config::Config::load(&paths.config_file()) {
        Ok(config) => config,
        Err(error) => {
            return (
                technical(FailureReason::BadConfig, error.message_ru()),
                false,
            );
        }
    };
    let overrides = command.overrides.clone().or(environment.provider);
    let provider = match crate::config::resolve_provider(&config, &overrides) {
        Ok(Some(provider)) => provider,
        Ok(None) => {
            let detail = "провайдер модели не настроен: выберите его командой `zayavka config \
                          set active_profile ИМЯ` (например openai или ollama) или укажите \
                          --base-url и --model; без модели заявку можно составить с --offline"
                .to_owned();
            return (technical(FailureReason::BadConfig, detail), false);
        }
        Err(error) => {
            return (
                technical(FailureReason::BadConfig, error.message_ru()),
                false,
            );
        }
    };
    let key = match crate::secrets::resolve_api_key(store, &provider.profile, environment.api_key) {
        Ok(key) => key.map(|(_, key)| key.to_transport()),
        // A local provider needs no key, so an unreachable keyring only matters when one does.
        Err(error) if provider.needs_api_key => {
            return (
                technical(FailureReason::NoApiKey, error.message_ru()),
                false,
            );
        }
        Err(_) => None,
    };
    let settings = ModelSettings {
        provider,
        api_key: key,
        max_reasks: MAX_REASKS,
    };
    (draft_with_model(&input, &settings, cancel).await, true)
}

/// Writes the input into the pending folder and returns the file, or `None` if even that failed
/// (the caller then prints the input itself).
fn keep_input(paths: &crate::paths::Paths, json: &str) -> Option<std::path::PathBuf> {
    let dir = paths.pending_dir();
    std::fs::create_dir_all(&dir).ok()?;
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    for suffix in 0..100 {
        let path = dir.join(format!("input-{stamp}-{suffix}.json"));
        let file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path);
        if let Ok(mut file) = file {
            use std::io::Write as _;
            file.write_all(json.as_bytes()).ok()?;
            file.write_all(b"\n").ok()?;
            return Some(path);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Config, ProviderOverrides, resolve_provider};

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
        }
    }
}
