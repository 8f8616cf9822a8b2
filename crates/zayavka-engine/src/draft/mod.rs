//! One draft: the resident's input, one model call under the invocation budget (with bounded
//! re-asks for malformed output), the core's validation, policy and assembly, and a context
//! record of everything that happened.
//!
//! - [`model`]: the model loop and the mapping of transport errors to failures;
//! - [`record`]: the context record and each response's verdict;
//! - [`replay`]: a recorded draft evaluated again offline;
//! - [`pending`]: keeping typed input that did not end in a request.

pub mod advice;
mod model;
mod pending;
mod record;
mod replay;
mod save;
mod session;

#[cfg(test)]
mod provider_failures;

use std::path::PathBuf;

use zayavka_core::{
    Failure, FailureReason, Outcome, RawInput, Report, ResidentInput, legal_catalogue,
    offline_request,
};
use zayavka_llm::CancellationToken;

pub use model::{
    DraftEvent, DraftRun, MAX_REASKS, MAX_TOKENS, ModelSettings, chat_request, failure_from,
};
pub(crate) use model::{draft_with_client, draft_with_prompt};
pub use pending::KeepError;
pub(crate) use pending::private_dir;
pub use record::{ContextRecord, RECORD_FORMAT_VERSION, ResponseVerdict};
pub use replay::{Replay, ReplayError, reevaluate, replay};
pub(crate) use save::{finish, finished_draft, finished_run};
pub use session::SessionClients;

/// Where the resident's input of a draft comes from.
#[derive(Debug, Clone)]
pub enum InputSource {
    /// Typed on the command line (or in a form): kept in the pending folder if the draft does
    /// not end ready, so that nothing typed is lost.
    Typed(RawInput),
    /// Read from a file, which already keeps it.
    File {
        /// The file.
        path: PathBuf,
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
    /// The stored draft this run sends again, instead of storing a new one.
    pub retry_of: Option<zayavka_store::DraftId>,
    /// Draft without a model.
    pub offline: bool,
    /// Settings from the command line or the form, above the environment and the file.
    pub overrides: crate::config::ProviderOverrides,
}

/// What became of the resident's input when the draft did not end ready.
#[derive(Debug)]
pub enum KeptInput {
    /// Nothing to keep: the draft is ready.
    NotNeeded,
    /// The input is in the drafts database under this id (every run is stored there).
    Stored(zayavka_store::DraftId),
    /// The input came from this file and stays there.
    InFile(PathBuf),
    /// The typed input was written to this file.
    Kept(PathBuf),
    /// The typed input could not be written anywhere; the front end must show it so that it is
    /// not lost.
    NotKept {
        /// Why.
        error: KeepError,
        /// The input as JSON, to show or copy.
        json: String,
    },
}

/// The result of a draft command.
#[derive(Debug)]
pub struct DraftCommandResult {
    /// The run.
    pub run: DraftRun,
    /// The stored draft, when the database could be used.
    pub draft_id: Option<zayavka_store::DraftId>,
    /// Why the drafts database could not be used, when it could not; the input was then kept
    /// as a file (or shown) instead.
    pub store_error: Option<zayavka_store::StoreError>,
    /// What became of the typed input.
    pub kept_input: KeptInput,
    /// Whether a model was used.
    pub model_used: bool,
    /// The program's own notes on the resident's text (relative dates, a missing place), for
    /// a ready request; empty otherwise.
    pub notes: Vec<zayavka_core::ResidentNote>,
}

/// The machine-readable report of a draft run: the outcome's report and the stored draft's id.
#[derive(Debug, serde::Serialize)]
pub struct DraftReport<'a> {
    /// The outcome, request, errors, next steps, retry verdict and attempts.
    #[serde(flatten)]
    pub report: Report<'a>,
    /// The stored draft's id; null when the drafts database could not be used.
    pub draft_id: Option<i64>,
    /// Whether the draft, as it ended, is in the drafts database: `false` when the database
    /// refused it (the id may still name a draft stored as pending before the refusal).
    pub stored: bool,
    /// Why it is not, as the store's stable error code.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub store_error: Option<zayavka_store::StoreErrorCode>,
    /// The program's own notes on the resident's text, when there are any (issue 36).
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub notes: &'a [zayavka_core::ResidentNote],
}

impl DraftCommandResult {
    /// The machine-readable report of the run, with the attempts made, whether a retry may
    /// help, and the stored draft's id.
    pub fn report(&self) -> DraftReport<'_> {
        let mut report = self.run.outcome.report();
        report.retryable = Some(self.run.retryable());
        report.attempts = Some(self.run.attempt_count());
        DraftReport {
            report,
            draft_id: self.draft_id.map(|id| id.get()),
            stored: self.store_error.is_none(),
            store_error: self
                .store_error
                .as_ref()
                .map(zayavka_store::StoreError::code),
            notes: &self.notes,
        }
    }
}

/// Runs a draft as the command line and the desktop app ask for it, within a front end's
/// session: reads the configuration and the key, drafts with the model or offline, and keeps
/// the typed input when the draft does not end ready. `observe` hears how far the model call has
/// got (nothing, offline). The model client (and GigaChat's access token) of an earlier draft
/// with the same settings and key is used again.
pub async fn run_draft_command_in(
    session: &SessionClients,
    command: DraftCommand,
    paths: &crate::paths::Paths,
    store: &dyn crate::secrets::SecretStore,
    environment: EnvironmentOverrides,
    cancel: &CancellationToken,
    observe: &(dyn Fn(DraftEvent) + Send + Sync),
) -> DraftCommandResult {
    // The input is committed before the model is called: a crash, a timeout, Ctrl-C or a kill
    // during the call leaves a pending draft that can be sent again.
    let json = command.input.json_text();
    let (database, stored, store_error) = match crate::database::open_store(paths) {
        Ok(database) => {
            let checked = ResidentInput::from_json_str(&json).ok();
            let id = match command.retry_of {
                Some(id) => database.begin_retry(id).map(|()| id),
                None => database.create_draft(&crate::database::new_draft(&json, checked.as_ref())),
            };
            match id {
                Ok(id) => (Some(database), Some(id), None),
                Err(error) => (None, None, Some(error)),
            }
        }
        Err(error) => (None, None, Some(error)),
    };
    let (run, model_used, pricing) = draft_for_command(
        &command,
        session,
        paths,
        store,
        environment,
        cancel,
        observe,
    )
    .await;
    let mut store_error = store_error;
    let mut draft_id = stored;
    if let (Some(database), Some(id)) = (&database, stored)
        && let Err(error) = finish(database, id, &run, model_used, pricing.as_ref())
    {
        // The input is stored as pending; only the result could not be added.
        tracing::warn!(
            code = %error.code(),
            "the draft's result could not be stored"
        );
        store_error = Some(error);
        draft_id = Some(id);
    }
    let notes = match (&run.outcome, ResidentInput::from_json_str(&json)) {
        (Outcome::Ready(_), Ok(input)) => crate::notes::notes_today(&input),
        _ => Vec::new(),
    };
    let kept_input = match (&run.outcome, &command.input, draft_id) {
        (Outcome::Ready(_), _, _) => KeptInput::NotNeeded,
        (_, _, Some(id)) => KeptInput::Stored(id),
        (_, InputSource::File { path, .. }, None) => KeptInput::InFile(path.clone()),
        (_, _, None) => match pending::keep_input(&paths.pending_dir(), &json) {
            Ok(path) => KeptInput::Kept(path),
            Err(error) => KeptInput::NotKept { error, json },
        },
    };
    DraftCommandResult {
        run,
        draft_id,
        store_error,
        kept_input,
        model_used,
        notes,
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

/// A Zayavka environment variable holds a value that cannot be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EnvironmentError {
    /// A provider override (`ZAYAVKA_BASE_URL` and the rest).
    #[error("{}", .0.message_ru())]
    Provider(#[from] crate::config::ConfigError),
    /// `ZAYAVKA_API_KEY`.
    #[error("{}", .0.message_ru())]
    ApiKey(#[from] crate::secrets::SecretError),
}

impl crate::error::EngineError for EnvironmentError {
    fn kind(&self) -> crate::error::ErrorKind {
        crate::error::ErrorKind::Config
    }

    fn message_ru(&self) -> String {
        self.to_string()
    }

    fn next_step(&self) -> Option<zayavka_core::NextStep> {
        match self {
            EnvironmentError::Provider(error) => error.next_step(),
            EnvironmentError::ApiKey(_) => None,
        }
    }
}

impl EnvironmentOverrides {
    /// Reads the provider overrides and the key from the environment, once per command. A run
    /// without a model reads neither, so a broken variable cannot stop it.
    pub fn from_env(offline: bool) -> Result<EnvironmentOverrides, EnvironmentError> {
        if offline {
            return Ok(EnvironmentOverrides::default());
        }
        Ok(EnvironmentOverrides {
            provider: crate::config::ProviderOverrides::from_env()?,
            api_key: crate::secrets::api_key_from_env()?,
        })
    }
}

fn technical(reason: FailureReason, detail: String) -> Failure {
    Failure::new(reason, false, detail)
}

/// The provider settings and the key of a model-backed run: the configuration file, the
/// overrides given for this run above the environment's, and the key from the environment or
/// the keyring. Shared by a single draft and a batch, which resolves them once for all rows.
pub(crate) fn model_settings(
    overrides: &crate::config::ProviderOverrides,
    paths: &crate::paths::Paths,
    store: &dyn crate::secrets::SecretStore,
    environment: EnvironmentOverrides,
) -> Result<ModelSettings, Failure> {
    let config = crate::config::Config::load(&paths.config_file())
        .map_err(|error| technical(FailureReason::BadConfig, error.message_ru()))?;
    let overrides = overrides.clone().or(environment.provider);
    let provider = match crate::config::resolve_provider(&config, &overrides) {
        Ok(Some(provider)) => provider,
        Ok(None) => {
            let detail = "сервис модели не выбран: подключите его в мастере подключения \
                          (GigaChat, Yandex AI Studio или модель на этом компьютере) или укажите \
                          адрес сервера и модель"
                .to_owned();
            return Err(technical(FailureReason::BadConfig, detail));
        }
        Err(error) => return Err(technical(FailureReason::BadConfig, error.message_ru())),
    };
    let key = match crate::secrets::resolve_api_key(store, &provider.profile, environment.api_key) {
        Ok(key) => key.map(|(_, key)| key.to_transport()),
        // A local provider needs no key, so an unreachable keyring only matters when one does.
        Err(error) if provider.needs_api_key => {
            return Err(technical(FailureReason::NoApiKey, error.message_ru()));
        }
        Err(_) => None,
    };
    Ok(ModelSettings {
        provider,
        api_key: key,
        max_reasks: MAX_REASKS,
    })
}

async fn draft_for_command(
    command: &DraftCommand,
    session: &SessionClients,
    paths: &crate::paths::Paths,
    store: &dyn crate::secrets::SecretStore,
    environment: EnvironmentOverrides,
    cancel: &CancellationToken,
    observe: &(dyn Fn(DraftEvent) + Send + Sync),
) -> (DraftRun, bool, Option<crate::config::Pricing>) {
    let input = match ResidentInput::from_json_str(&command.input.json_text()) {
        Ok(input) => input,
        Err(errors) => {
            let run = DraftRun {
                outcome: Outcome::InvalidInput(errors),
                record: None,
            };
            return (run, false, None);
        }
    };
    if command.offline {
        let outcome = offline_request(&input, legal_catalogue());
        return (
            DraftRun {
                outcome,
                record: None,
            },
            false,
            None,
        );
    }
    let settings = match model_settings(&command.overrides, paths, store, environment) {
        Ok(settings) => settings,
        Err(failure) => {
            let run = DraftRun {
                outcome: Outcome::Failed(failure),
                record: None,
            };
            return (run, false, None);
        }
    };
    let client = session.client_for(&settings);
    let run = draft_with_client(&input, &settings, client.as_ref(), cancel, observe).await;
    (run, true, settings.provider.pricing)
}
