//! The app's commands, one per entry of docs/desktop-ipc.md, as plain functions over
//! [`AppState`] so that each can be tested against a temporary data folder and the stand-in
//! provider. Each delegates to the engine; what the operating system must show (a file dialog,
//! the clipboard) stays in [`crate::ipc`], which calls these.
//!
//! They block: `crate::ipc` runs every one of them on Tauri's blocking pool, never on the
//! thread that draws the window. The few engine calls that are asynchronous (a model call, a
//! batch, the connection check) are driven to the end here with the async runtime's
//! `block_on`, which a blocking-pool thread may do.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use zayavka_engine::{
    ApiKey, ApiKeySource, BatchError, BatchFile, BatchProgress, BatchRowReport, BatchSettings,
    CoSigners, Config, ConfigError, DocumentFormat, DocumentsExport, DraftCommand, DraftEvent,
    DraftFilter, DraftId, DraftListItem, DraftOutcome, ExportFormat, FiledDocument, FilingError,
    InputSource, InvalidRow, KeptInput, PlanCost, Profile, ProfileField, ProfileName,
    ProviderField, ProviderKind, ProviderOverrides, RawInput, RowPlan, StopReason, StoredKeyState,
    SubjectKind, save_document,
};

use crate::error::{CommandError, ErrorKind, sentence};
use crate::state::{AppState, CheckedBatch};
use crate::view::{DoctorReport, DocumentView, DraftDetail, DraftResult, PhotoView};

/// The draft the page names: ids are positive, and the page only sends ids it was given.
fn checked_id(id: i64) -> Result<DraftId, CommandError> {
    DraftId::new(id).ok_or_else(|| CommandError::invalid_argument("номер черновика"))
}

fn block_on<F: std::future::Future>(future: F) -> F::Output {
    tauri::async_runtime::block_on(future)
}

// ---------------------------------------------------------------------------------------------
// «Новая заявка»

/// What the page hears while a model call is under way.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct DraftProgress {
    /// The attempt under way, or the one that follows the wait.
    pub attempt: u32,
    /// Since the draft started.
    pub elapsed_ms: u64,
    /// `sending`, `waiting_retry` (the service did not answer; another attempt follows after
    /// `wait_ms`) or `reasking` (the model's answer did not pass the checks and it is asked
    /// again).
    pub state: &'static str,
    /// The pause before the next attempt, while `waiting_retry`.
    pub wait_ms: Option<u64>,
    /// The step in one Russian sentence, the same the command-line tool shows, such as
    /// «Сервис модели занят (HTTP 503), пробуем ещё раз через 2 с…».
    pub message: String,
}

impl DraftProgress {
    /// The message for an engine event; `None` for a kind this page contract does not know,
    /// which the page then does not hear about.
    fn of(event: DraftEvent, elapsed: std::time::Duration) -> Option<DraftProgress> {
        let elapsed_ms = u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX);
        let message = event.message_ru();
        Some(match event {
            DraftEvent::Sending { attempt, reask } => DraftProgress {
                attempt,
                elapsed_ms,
                state: if reask { "reasking" } else { "sending" },
                wait_ms: None,
                message,
            },
            DraftEvent::Waiting { attempt, wait, .. } => DraftProgress {
                attempt: attempt + 1,
                elapsed_ms,
                state: "waiting_retry",
                wait_ms: Some(u64::try_from(wait.as_millis()).unwrap_or(u64::MAX)),
                message,
            },
            _ => return None,
        })
    }
}

/// Drafts with the model (or without, when `offline`), stores the draft, and returns how it
/// came out. A cancelled run resolves as `failed` with reason `cancelled`.
pub fn draft_run(
    state: &AppState,
    input: RawInput,
    task_id: &str,
    offline: bool,
    progress: &(dyn Fn(DraftProgress) + Sync),
) -> Result<DraftResult, CommandError> {
    let environment = state.environment(offline)?;
    let task = state.start_task(task_id);
    let started = std::time::Instant::now();
    let first = DraftEvent::Sending {
        attempt: 1,
        reask: false,
    };
    progress(DraftProgress::of(first, std::time::Duration::ZERO).expect("a known event"));
    let on_event = |event: DraftEvent| {
        // The first attempt was announced above, before the configuration was read.
        if !matches!(event, DraftEvent::Sending { attempt: 1, .. })
            && let Some(message) = DraftProgress::of(event, started.elapsed())
        {
            progress(message);
        }
    };
    let command = DraftCommand {
        input: InputSource::Typed(input),
        retry_of: None,
        offline,
        overrides: ProviderOverrides::default(),
    };
    let result = block_on(
        state
            .engine
            .run_draft(command, environment, task.token(), &on_event),
    );
    let mut view = DraftResult::from_outcome(
        &result.run.outcome,
        result.draft_id.map(DraftId::get),
        result.run.attempt_count(),
        result.run.retryable(),
        result.model_used,
        None,
    );
    if let Some(error) = &result.store_error {
        // The form keeps the text whatever happens; the resident should still know that this
        // draft is not in «Черновики».
        let kept = match &result.kept_input {
            KeptInput::Kept(path) => format!(" Текст сохранён в файле {}.", path.display()),
            _ => String::new(),
        };
        view.message = format!(
            "{} Черновик не попал в список черновиков: {}{kept}",
            view.message,
            sentence(&error.message_ru())
        );
    }
    Ok(view)
}

/// Assembles a ready draft again with the subject the resident confirmed, from its stored
/// response: no model call.
pub fn draft_reassemble(
    state: &AppState,
    draft_id: i64,
    subject: &str,
) -> Result<DraftResult, CommandError> {
    let subject: SubjectKind = subject
        .parse()
        .map_err(|_| CommandError::invalid_argument("вид проблемы"))?;
    let (draft, _) = state
        .engine
        .reassemble_draft(checked_id(draft_id)?, subject)?;
    Ok(DraftResult::from_stored(&draft)?)
}

/// Keeps the form as it is now.
pub fn input_autosave(state: &AppState, input: &RawInput) -> Result<(), CommandError> {
    Ok(state.engine.keep_form(input)?)
}

/// The form as it was last kept.
pub fn input_restore(state: &AppState) -> Result<Option<RawInput>, CommandError> {
    Ok(state.engine.kept_form()?)
}

// ---------------------------------------------------------------------------------------------
// «Черновики»

/// The filter of `drafts_list`.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct ListFilter {
    /// An outcome code.
    pub outcome: Option<String>,
    /// A subject kind.
    pub subject: Option<String>,
    /// A batch id.
    pub batch_id: Option<String>,
    /// At most this many.
    pub limit: Option<u32>,
}

/// The most drafts one list or search returns.
pub const LIST_LIMIT_MAX: u32 = 1_000;

/// The stored drafts, newest first.
pub fn drafts_list(
    state: &AppState,
    filter: ListFilter,
) -> Result<Vec<DraftListItem>, CommandError> {
    let outcome = filter
        .outcome
        .as_deref()
        .map(|code| {
            DraftOutcome::from_code(code).ok_or_else(|| CommandError::invalid_argument("состояние"))
        })
        .transpose()?;
    let subject = filter
        .subject
        .map(|kind| {
            kind.parse::<SubjectKind>()
                .map(|kind| kind.code().to_owned())
                .map_err(|_| CommandError::invalid_argument("вид проблемы"))
        })
        .transpose()?;
    Ok(state.engine.drafts(&DraftFilter {
        outcome,
        subject,
        since: None,
        batch_id: filter.batch_id,
        limit: Some(
            filter
                .limit
                .unwrap_or(LIST_LIMIT_MAX)
                .clamp(1, LIST_LIMIT_MAX),
        ),
    })?)
}

/// The stored drafts whose words match, by the store's full-text search.
pub fn drafts_search(state: &AppState, text: &str) -> Result<Vec<DraftListItem>, CommandError> {
    Ok(state.engine.search_drafts(text, LIST_LIMIT_MAX)?)
}

/// One stored draft in full.
pub fn draft_open(state: &AppState, id: i64) -> Result<DraftDetail, CommandError> {
    Ok(DraftDetail::of(&state.engine.draft(checked_id(id)?)?)?)
}

/// Stores the resident's edit of a request.
pub fn draft_edit(
    state: &AppState,
    id: i64,
    title: &str,
    body: &str,
) -> Result<DraftDetail, CommandError> {
    state.engine.edit_draft(checked_id(id)?, title, body)?;
    Ok(DraftDetail::of(&state.engine.draft(checked_id(id)?)?)?)
}

/// Deletes a draft for good.
pub fn draft_delete(state: &AppState, id: i64) -> Result<(), CommandError> {
    Ok(state.engine.delete_draft(checked_id(id)?)?)
}

/// The document formats of «Сохранить как…».
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SaveFormat {
    /// PDF.
    Pdf,
    /// Word.
    Docx,
    /// Plain text.
    Txt,
}

impl SaveFormat {
    /// The file type's name in the save dialog.
    pub fn label(self) -> &'static str {
        match self {
            SaveFormat::Pdf => "PDF",
            SaveFormat::Docx => "Документ Word",
            SaveFormat::Txt => "Текст",
        }
    }

    /// The file name extension.
    pub fn extension(self) -> &'static str {
        self.document_format().extension()
    }

    /// The engine's format.
    pub fn document_format(self) -> DocumentFormat {
        match self {
            SaveFormat::Pdf => DocumentFormat::Pdf,
            SaveFormat::Docx => DocumentFormat::Docx,
            SaveFormat::Txt => DocumentFormat::Txt,
        }
    }
}

/// The filed document of a stored draft, dated today (`Engine::filed_document`).
fn filed_document(
    state: &AppState,
    id: i64,
    collective: bool,
) -> Result<FiledDocument, CommandError> {
    Ok(state
        .engine
        .filed_document(checked_id(id)?, jiff::Zoned::now().date(), collective)?)
}

/// The document «Печать» prints: the same header, title, body, date and signature line as the
/// saved PDF, as text lines the page lays out for the printer.
pub fn draft_document(
    state: &AppState,
    id: i64,
    collective: bool,
) -> Result<DocumentView, CommandError> {
    Ok(DocumentView::from(&filed_document(state, id, collective)?))
}

/// The photos attached to a draft, in their order.
pub fn draft_photos(state: &AppState, id: i64) -> Result<Vec<PhotoView>, CommandError> {
    Ok(PhotoView::list(state.engine.photos(checked_id(id)?)?))
}

/// Attaches photos to a draft, all or none: a file that is not a JPEG or PNG photo, is damaged
/// or too large changes nothing. Location and camera metadata are removed from the stored copy.
/// Gives every photo of the draft afterwards.
pub fn draft_attach(
    state: &AppState,
    id: i64,
    files: &[PathBuf],
) -> Result<Vec<PhotoView>, CommandError> {
    state.engine.attach_photos(checked_id(id)?, files)?;
    Ok(PhotoView::list(state.engine.photos(checked_id(id)?)?))
}

/// Removes photo `number` from a draft; the ones after it move up. Gives the photos left.
pub fn draft_detach(
    state: &AppState,
    id: i64,
    number: u32,
) -> Result<Vec<PhotoView>, CommandError> {
    Ok(PhotoView::list(
        state
            .engine
            .detach_photo(checked_id(id)?, number)?
            .remaining,
    ))
}

/// What a draft saved as a file holds, made before the dialog opens, so that the resident is
/// not asked for a file name that then cannot be written: a suggested file name and the bytes.
pub fn draft_save_prepare(
    state: &AppState,
    id: i64,
    format: SaveFormat,
    collective: bool,
) -> Result<(String, Vec<u8>), CommandError> {
    let bytes = filed_document(state, id, collective)?
        .render(format.document_format())
        .map_err(FilingError::Render)?;
    Ok((format!("Заявка-{id}.{}", format.extension()), bytes))
}

/// Writes a document the resident chose a path for, whole or not at all.
pub fn write_document(path: &Path, bytes: &[u8]) -> Result<(), CommandError> {
    Ok(save_document(path, bytes)?)
}

// ---------------------------------------------------------------------------------------------
// «Настройки»

/// A provider preset, with one line about privacy and cost, in the engine's order and words.
#[derive(Debug, Serialize)]
pub struct PresetView {
    /// The profile name.
    pub name: &'static str,
    /// The product's name.
    pub label: &'static str,
    /// The default server.
    pub base_url: &'static str,
    /// The default model.
    pub model: &'static str,
    /// Whether a key is needed.
    pub needs_api_key: bool,
    /// Whether the model runs on this computer.
    pub local: bool,
    /// Where the description goes.
    pub privacy_note: &'static str,
    /// What it costs.
    pub cost_note: &'static str,
}

/// The provider in use.
#[derive(Debug, Serialize)]
pub struct EffectiveView {
    /// The profile.
    pub profile: String,
    /// The server.
    pub base_url: String,
    /// The model.
    pub model: String,
    /// `json_schema` or `json_object`.
    pub schema_mode: &'static str,
    /// Per attempt.
    pub timeout_secs: u64,
    /// Attempts per call.
    pub attempts: u32,
}

/// The key, never the key itself.
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct KeyStatusView {
    /// The profile the key belongs to.
    pub profile: Option<String>,
    /// Whether a key is usable.
    pub stored: bool,
    /// `keyring` or `environment`.
    pub source: Option<&'static str>,
    /// Whether the keyring answers.
    pub keyring_available: bool,
    /// For a profile that does not require a key (a local or custom server), what happens to
    /// one: sent when stored or given, and only then (issue 14), in the engine's words. Absent
    /// when the profile requires a key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub optional_note: Option<String>,
}

/// Everything the settings screen shows.
#[derive(Debug, Serialize)]
pub struct SettingsView {
    /// The chosen profile.
    pub active_profile: Option<String>,
    /// Every preset.
    pub presets: Vec<PresetView>,
    /// The provider in use, when it is complete.
    pub effective: Option<EffectiveView>,
    /// Why the chosen provider is not complete.
    pub problem: Option<String>,
    /// The key.
    pub key: KeyStatusView,
    /// The service settings written in the chosen profile (issue 15), `null` where the file
    /// leaves the preset's default: the page shows the default and sends only what changed.
    pub service: ServiceFieldsView,
    /// Whether the page opens on the first-run setup (issue 15): no service chosen, none given
    /// by a `ZAYAVKA_*` variable, and «Пока без модели» not chosen before
    /// ([`crate::setup::first_run`]).
    pub first_run: bool,
}

/// The service settings of the chosen profile as written in the file.
#[derive(Debug, Serialize, Default, PartialEq, Eq)]
pub struct ServiceFieldsView {
    /// The kind of the chosen profile (`gigachat`, `yandex`, …), when known.
    pub kind: Option<&'static str>,
    /// The Yandex Cloud folder (yandex).
    pub folder_id: Option<String>,
    /// Whose GigaChat access the key opens (gigachat).
    pub scope: Option<&'static str>,
    /// `chat_completions` or `responses` (yandex, openai, custom).
    pub protocol: Option<&'static str>,
}

/// The kind of `profile`: the one written, else the built-in profile's own.
fn profile_kind(config: &Config, profile: &ProfileName) -> Option<ProviderKind> {
    config
        .profiles
        .get(profile)
        .and_then(|written| written.kind)
        .or_else(|| ProviderKind::parse(profile.as_str()))
}

fn service_view(state: &AppState, profile: Option<&ProfileName>) -> ServiceFieldsView {
    let (Some(profile), Ok(config)) = (profile, state.engine.config()) else {
        return ServiceFieldsView::default();
    };
    let written = config.profiles.get(profile);
    ServiceFieldsView {
        kind: profile_kind(&config, profile).map(ProviderKind::as_str),
        folder_id: written
            .and_then(|w| w.folder_id.as_ref())
            .map(|folder| folder.as_str().to_owned()),
        scope: written.and_then(|w| w.scope).map(|scope| scope.code()),
        protocol: written
            .and_then(|w| w.protocol)
            .map(|protocol| protocol.code()),
    }
}

fn key_view(state: &AppState, profile: Option<&ProfileName>) -> KeyStatusView {
    let environment_key =
        matches!(state.environment(false), Ok(overrides) if overrides.api_key.is_some());
    let Some(profile) = profile else {
        return KeyStatusView {
            profile: None,
            stored: environment_key,
            source: environment_key.then_some("environment"),
            keyring_available: true,
            optional_note: None,
        };
    };
    let status = state.engine.key_status(profile, environment_key);
    KeyStatusView {
        profile: Some(profile.as_str().to_owned()),
        stored: status.usable_source().is_some(),
        source: status.usable_source().map(|source| match source {
            ApiKeySource::Environment => "environment",
            ApiKeySource::Keyring => "keyring",
        }),
        keyring_available: !matches!(status.stored, StoredKeyState::Unreachable { .. }),
        optional_note: key_optional(state, profile).then(|| {
            zayavka_engine::optional_key_ru(
                status.usable_source(),
                matches!(status.stored, StoredKeyState::Unreachable { .. }),
            )
        }),
    }
}

/// Whether `profile` is complete and does not require a key.
fn key_optional(state: &AppState, profile: &ProfileName) -> bool {
    state
        .engine
        .config()
        .ok()
        .and_then(|config| config.profile_settings(profile).ok())
        .is_some_and(|settings| !settings.needs_api_key)
}

/// The settings as they are now.
pub fn settings_get(state: &AppState) -> Result<SettingsView, CommandError> {
    let environment = state.environment(false)?;
    let overview = state
        .engine
        .settings_overview(&environment.provider, environment.api_key.is_some())?;
    let presets = ProviderKind::ALL
        .into_iter()
        .map(|kind| {
            let preset = kind.preset();
            PresetView {
                name: kind.as_str(),
                label: kind.title(),
                base_url: preset.base_url.unwrap_or(""),
                model: preset.model.unwrap_or(""),
                needs_api_key: preset.needs_api_key,
                local: kind.runs_locally(),
                privacy_note: kind.privacy_note_ru(),
                cost_note: kind.cost_note_ru(),
            }
        })
        .collect();
    let effective = overview.provider.as_ref().map(|provider| EffectiveView {
        profile: provider.profile.as_str().to_owned(),
        base_url: provider.base_url.as_str().to_owned(),
        model: provider.model.clone(),
        schema_mode: provider.schema_mode.code(),
        timeout_secs: provider
            .timeout_secs
            .unwrap_or(zayavka_engine::Budget::default().attempt_timeout.as_secs()),
        attempts: provider
            .attempts
            .unwrap_or(zayavka_engine::Budget::default().max_attempts),
    });
    let key_profile = overview
        .provider
        .as_ref()
        .map(|provider| provider.profile.clone())
        .or_else(|| overview.active_profile.clone());
    Ok(SettingsView {
        active_profile: overview
            .active_profile
            .as_ref()
            .map(|p| p.as_str().to_owned()),
        presets,
        effective,
        problem: overview
            .provider_error
            .as_ref()
            .map(|error| sentence(&error.message_ru())),
        key: key_view(state, key_profile.as_ref()),
        service: service_view(state, overview.active_profile.as_ref()),
        first_run: state
            .engine
            .first_run(overview.active_profile.is_some(), &environment.provider),
    })
}

/// The settings the screen may change.
pub const SETTING_KEYS: [&str; 7] = [
    "active_profile",
    "base_url",
    "model",
    "schema_mode",
    "folder_id",
    "scope",
    "protocol",
];

/// The settings only some services use (issue 15): refused here for a profile whose kind does
/// not use them, as the engine would refuse the profile when it is used.
const SERVICE_KEYS: [&str; 3] = ["folder_id", "scope", "protocol"];

/// Changes one setting of the chosen profile (or chooses the profile).
pub fn settings_set(
    state: &AppState,
    key: &str,
    value: &str,
) -> Result<SettingsView, CommandError> {
    if !SETTING_KEYS.contains(&key) {
        return Err(CommandError::invalid_argument("настройка"));
    }
    let dotted = if key == "active_profile" {
        // «Свой сервер» is a preset on the screen but not a built-in profile: choosing it
        // makes a profile of that kind, whose address the resident then gives.
        let custom = ProviderKind::Custom.as_str();
        if value == custom
            && !state
                .engine
                .config()?
                .profiles
                .keys()
                .any(|p| p.as_str() == custom)
        {
            state
                .engine
                .set_setting(&format!("profiles.{custom}.kind"), custom)
                .map_err(|error| {
                    CommandError::new(ErrorKind::InvalidSetting, sentence(&error.message_ru()))
                })?;
        }
        key.to_owned()
    } else {
        let config = state.engine.config()?;
        let Some(profile) = config.active_profile.clone() else {
            return Err(CommandError::new(
                ErrorKind::InvalidSetting,
                "Сначала выберите сервис модели в списке выше.",
            ));
        };
        if SERVICE_KEYS.contains(&key) {
            let field = ProviderField::parse(key)
                .ok_or_else(|| CommandError::invalid_argument("настройка"))?;
            if !profile_kind(&config, &profile).is_some_and(|kind| kind.accepts(field)) {
                return Err(CommandError::new(
                    ErrorKind::InvalidSetting,
                    "Эта настройка не относится к выбранному сервису модели.",
                ));
            }
        }
        format!("profiles.{profile}.{key}")
    };
    state
        .engine
        .set_setting(&dotted, value)
        .map_err(setting_error)?;
    settings_get(state)
}

/// A refused setting in the resident's words: the page shows it beside the field it names, so a
/// wrong value says only what a right one looks like, never the configuration's dotted path.
fn setting_error(error: ConfigError) -> CommandError {
    let message = match &error {
        ConfigError::InvalidValue { expected, .. } => format!("Ожидается {expected}."),
        other => other.message_ru(),
    };
    CommandError::new(ErrorKind::InvalidSetting, sentence(&message))
}

fn key_profile(state: &AppState) -> Result<ProfileName, CommandError> {
    Ok(state.engine.key_profile(None)?.0)
}

/// The key's state.
pub fn key_status(state: &AppState) -> Result<KeyStatusView, CommandError> {
    Ok(key_view(state, Some(&key_profile(state)?)))
}

/// Stores the key of the chosen profile in the keyring, replacing any earlier one.
pub fn key_set(state: &AppState, secret: &str) -> Result<KeyStatusView, CommandError> {
    let profile = key_profile(state)?;
    let key = ApiKey::new(secret)?;
    state.engine.set_key(&profile, &key)?;
    Ok(key_view(state, Some(&profile)))
}

/// Removes the key of the chosen profile from the keyring.
pub fn key_delete(state: &AppState) -> Result<KeyStatusView, CommandError> {
    let profile = key_profile(state)?;
    state.engine.delete_key(&profile)?;
    Ok(key_view(state, Some(&profile)))
}

/// The engine's connection checks.
pub fn connection_check(state: &AppState) -> Result<DoctorReport, CommandError> {
    let environment = state.environment(false)?;
    let cancel = zayavka_engine::CancellationToken::new();
    let checks = block_on(
        state
            .engine
            .doctor(environment, jiff::Zoned::now().date(), &cancel),
    );
    Ok(DoctorReport {
        checks: checks.into_iter().map(Into::into).collect(),
    })
}

// ---------------------------------------------------------------------------------------------
// «Пакет»

/// What a run of a batch file will do, shown before anything is sent (docs/desktop-ipc.md,
/// `BatchPlan`): the engine's plan, row numbers by what happens to them, and the token
/// `batch_run` takes.
#[derive(Debug, Clone, Serialize)]
pub struct BatchPlanView {
    /// Names this plan for `batch_run`.
    pub check_token: String,
    /// The batch the run continues; `None` when it starts a new one.
    pub batch_number: Option<u32>,
    /// The file's name.
    pub file_name: String,
    /// Data rows, valid or not.
    pub rows: u32,
    /// The plan is made without a model: none is set up (see `model_problem`).
    pub offline: bool,
    /// Why the rows cannot go to a model now, in Russian; `None` when they can.
    pub model_problem: Option<String>,
    /// Rows the batch has not seen: they are sent.
    pub new: Vec<u32>,
    /// Rows changed since the last run: they are sent again.
    pub changed: Vec<u32>,
    /// Rows not finished by an earlier run: they are sent.
    pub unfinished: Vec<u32>,
    /// Rows finished by an earlier run: not sent again.
    pub done_before: Vec<u32>,
    /// Rows refused by the check, with why: never sent.
    pub invalid: Vec<InvalidRow>,
    /// Rows of the last run's file that are no longer in it (their drafts stay).
    pub no_longer_in_file: u32,
    /// Rows the run drafts (with the model or without).
    pub to_draft: u32,
    /// Of them, the rows that go to the model (0 without one).
    pub to_send: u32,
    /// What sending may cost at most.
    pub cost: PlanCost,
}

fn not_checked(message: &str) -> CommandError {
    CommandError::new(ErrorKind::BatchNotChecked, message)
}

/// Plans a run of the file at `path` and remembers the plan under a new token. The plan is the
/// model's when one is set up, and otherwise the plan without a model, with why.
fn plan_file(
    state: &AppState,
    path: &Path,
    batch_number: Option<u32>,
) -> Result<BatchPlanView, CommandError> {
    let file = BatchFile::read(path)?;
    let settings = |offline| BatchSettings {
        batch_number,
        ..BatchSettings::new(offline)
    };
    let online = state
        .engine
        .plan_batch(&file, &settings(false), state.environment(false)?);
    let (plan, model_problem) = match online {
        Ok(plan) => (plan, None),
        Err(BatchError::Settings(problem)) => {
            let offline = settings(true);
            let environment = state.environment(true)?;
            let plan = state.engine.plan_batch(&file, &offline, environment)?;
            (plan, Some(sentence(&problem)))
        }
        Err(error) => return Err(error.into()),
    };
    let check_token = state.remember_check(CheckedBatch {
        path: path.to_owned(),
        content_sha256: file.content_sha256().to_owned(),
        offline_only: plan.offline,
        needs_confirmation: plan.needs_confirmation(),
        batch_number,
    });
    let to_draft = plan
        .row_plans
        .iter()
        .filter(|row| row.plan.is_sent())
        .count() as u32;
    Ok(BatchPlanView {
        check_token,
        batch_number: plan.batch_number,
        file_name: plan.file_name.clone(),
        rows: plan.rows,
        offline: plan.offline,
        model_problem,
        new: plan.rows_with(RowPlan::New),
        changed: plan.rows_with(RowPlan::Changed),
        unfinished: plan.rows_with(RowPlan::Unfinished),
        done_before: plan.rows_with(RowPlan::DoneBefore),
        invalid: plan.invalid.clone(),
        no_longer_in_file: plan.no_longer_in_file,
        to_draft,
        to_send: plan.to_send(),
        cost: plan.cost,
    })
}

/// Reads and checks a batch file and plans its run: which batch it continues, which rows are
/// new, changed, unfinished, done before or refused, and what sending may cost. Nothing is
/// stored or sent.
pub fn batch_check(state: &AppState, path: &Path) -> Result<BatchPlanView, CommandError> {
    plan_file(state, path, None)
}

/// Plans the next run of an earlier batch from the file it was last run from, so that the
/// resident need not choose it again. A file that is no longer there is said plainly
/// ([`ErrorKind::BatchFileMissing`]); a changed one shows in the plan as new and changed rows.
pub fn batch_continue(state: &AppState, number: u32) -> Result<BatchPlanView, CommandError> {
    let batch = state.engine.find_batch(&number.to_string())?;
    let missing = || {
        CommandError::new(
            ErrorKind::BatchFileMissing,
            format!(
                "Файла «{}» больше нет там, откуда запускали пакет {number}. Если вы его \
                 переместили или переименовали, выберите его кнопкой «Выбрать файл…»: \
                 составленные строки повторно не отправятся.",
                batch.file_name
            ),
        )
    };
    let path = batch
        .source_path
        .as_deref()
        .map(PathBuf::from)
        .ok_or_else(missing)?;
    if !path.is_file() {
        return Err(missing());
    }
    // Batch `number` itself, even if a later batch was started from the same file.
    plan_file(state, &path, Some(number))
}

/// One earlier batch, as «Пакет» lists it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct BatchListView {
    /// Its short number: «Пакет 3».
    pub number: u32,
    /// The file's name as last run.
    pub file_name: String,
    /// The file's path as last run, when known.
    pub source_path: Option<String>,
    /// Whether that file is still there, so that the batch can be continued from it.
    pub file_found: bool,
    /// When it was first run, RFC 3339.
    pub created_at: String,
    /// When it was last run, RFC 3339.
    pub updated_at: String,
    /// The file's data rows as last run.
    pub rows: u32,
    /// Rows whose request is ready.
    pub ready: u32,
    /// Rows whose description must be changed, or whose model answer could not be used.
    pub needs_attention: u32,
    /// Rows that failed for a technical reason.
    pub failed: u32,
    /// Valid rows not drafted yet.
    pub unfinished: u32,
    /// Rows refused by the check.
    pub invalid: u32,
    /// Every valid row has an outcome and none failed.
    pub complete: bool,
}

/// Every stored batch, the most recently created first.
pub fn batch_list(state: &AppState) -> Result<Vec<BatchListView>, CommandError> {
    let batches = state.engine.batches()?;
    Ok(batches
        .into_iter()
        .map(|batch| BatchListView {
            complete: batch.complete(),
            file_found: batch
                .source_path
                .as_deref()
                .is_some_and(|path| Path::new(path).is_file()),
            number: batch.number,
            file_name: batch.file_name,
            source_path: batch.source_path,
            created_at: batch.created_at,
            updated_at: batch.updated_at,
            rows: batch.rows,
            ready: batch.ready,
            needs_attention: batch.needs_attention,
            failed: batch.failed,
            unfinished: batch.unfinished,
            invalid: batch.invalid,
        })
        .collect())
}

/// One row of a batch with what became of it, and its state in Russian.
#[derive(Debug, Clone, Serialize)]
pub struct BatchRowView {
    /// The engine's report: row, full_name, apartment, status, title, reason, reason_ru,
    /// retryable, draft_id.
    #[serde(flatten)]
    pub report: BatchRowReport,
    /// The status as a chip shows it.
    pub status_label: &'static str,
}

/// Every row of a batch's file as last run, in file order, with its «ФИО», «Квартира», title,
/// state and, for a row refused, failed or needing the resident, the reason.
pub fn batch_rows(state: &AppState, number: u32) -> Result<Vec<BatchRowView>, CommandError> {
    let batch = state.engine.find_batch(&number.to_string())?;
    Ok(state
        .engine
        .batch_rows(&batch.id)?
        .into_iter()
        .map(|report| BatchRowView {
            status_label: report.status.label_ru(),
            report,
        })
        .collect())
}

/// How far a batch run has got, for the progress bar: this run's rows.
#[derive(Debug, Clone, Copy, Default, Serialize, PartialEq, Eq)]
pub struct BatchProgressView {
    /// Rows of this run finished.
    pub done: u32,
    /// Rows this run will process.
    pub total: u32,
    /// Of the finished rows, ready.
    pub ready: u32,
    /// … needing the resident.
    pub needs_user: u32,
    /// … rejected.
    pub rejected: u32,
    /// … failed.
    pub failed: u32,
}

/// How a batch run ended.
#[derive(Debug, Serialize)]
pub struct BatchSummaryView {
    /// The counts of this run.
    #[serde(flatten)]
    pub progress: BatchProgressView,
    /// The batch's number: «Пакет 3».
    pub batch_number: u32,
    /// HTTP requests sent by this run.
    pub sent: u64,
    /// Tokens over the whole batch.
    pub tokens: u64,
    /// Priced cost of the whole batch.
    pub cost: Option<f64>,
    /// The currency of `cost` as the batch recorded it (`RUB`, `USD`); `None` when it named
    /// none.
    pub currency: Option<String>,
    /// Why the run stopped early: `cancelled`, `provider_refused`, `cost_cap`; `None` when it
    /// went through.
    pub stopped: Option<StopReason>,
    /// Valid rows of the whole batch not drafted yet.
    pub unfinished: u32,
    /// Every valid row of the batch has an outcome and none failed.
    pub complete: bool,
}

impl From<BatchProgress> for BatchProgressView {
    fn from(report: BatchProgress) -> BatchProgressView {
        BatchProgressView {
            done: report.finished,
            total: report.to_run,
            ready: report.ready,
            needs_user: report.needs_user,
            rejected: report.rejected,
            failed: report.failed,
        }
    }
}

/// Runs the file of a plan the resident was shown (`check_token`), with the model or, when
/// `offline`, without one. A plan that sends rows to the model runs only when `confirmed`
/// (the resident pressed «Отправить»), and only while the file is the one planned. Running the
/// same plan again resumes: rows already done are not sent again. Cancelling stops sending and
/// the calls under way (those rows are sent by the next run), and the summary so far comes back.
pub fn batch_run(
    state: &AppState,
    check_token: &str,
    offline: bool,
    confirmed: bool,
    task_id: &str,
    progress: &(dyn Fn(BatchProgressView) + Sync),
) -> Result<BatchSummaryView, CommandError> {
    let check = state.checked(check_token).ok_or_else(|| {
        not_checked(
            "Выберите файл пакета снова или продолжите пакет из списка: перед отправкой \
             приложение заново проверяет строки.",
        )
    })?;
    if !offline && check.offline_only {
        return Err(not_checked(
            "Сервис модели не был настроен, когда файл проверяли. Проверьте файл снова, чтобы \
             увидеть план отправки, или составьте заявки без модели.",
        ));
    }
    if !offline && check.needs_confirmation && !confirmed {
        return Err(CommandError::new(
            ErrorKind::BatchNotConfirmed,
            "Ничего не отправлено: подтвердите отправку кнопкой под планом пакета.",
        ));
    }
    let file = BatchFile::read(&check.path)?;
    if file.content_sha256() != check.content_sha256 {
        return Err(not_checked(&format!(
            "Файл «{}» изменился после проверки, поэтому ничего не отправлено. Проверьте его \
             снова: план покажет новые и изменённые строки.",
            file.file_name()
        )));
    }
    let environment = state.environment(offline)?;
    let task = state.start_task(task_id);
    let last = std::sync::Mutex::new(BatchProgress::default());
    let on_progress = |report: BatchProgress| {
        *last
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = report;
        progress(BatchProgressView::from(report));
    };
    let settings = BatchSettings {
        batch_number: check.batch_number,
        // The session's client: a batch after a draft reuses GigaChat's access token.
        session: state.engine.clients().clone(),
        ..BatchSettings::new(offline)
    };
    let summary = block_on(state.engine.run_batch(
        &file,
        &settings,
        environment,
        task.token(),
        &on_progress,
    ))?;
    let last = *last
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    Ok(BatchSummaryView {
        progress: BatchProgressView::from(last),
        batch_number: summary.batch_number,
        sent: summary.sent,
        tokens: summary.tokens,
        cost: summary.cost,
        currency: summary.currency.clone(),
        stopped: summary.stopped,
        unfinished: summary.unfinished,
        complete: summary.complete(),
    })
}

/// What a batch is exported as: one filed document per row, or one file of every row's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BatchExport {
    /// One document per row with a request (PDF, DOCX or text), under that row's header.
    Documents(DocumentFormat),
    /// One file of every row (CSV or JSONL), for a spreadsheet or a script.
    Results(ExportFormat),
}

/// The export formats of a batch.
pub fn export_format(format: &str) -> Result<BatchExport, CommandError> {
    match format {
        "pdf" => Ok(BatchExport::Documents(DocumentFormat::Pdf)),
        "docx" => Ok(BatchExport::Documents(DocumentFormat::Docx)),
        "txt" => Ok(BatchExport::Documents(DocumentFormat::Txt)),
        "jsonl" => Ok(BatchExport::Results(ExportFormat::Jsonl)),
        "csv" => Ok(BatchExport::Results(ExportFormat::Csv)),
        _ => Err(CommandError::invalid_argument("формат выгрузки")),
    }
}

/// Writes a batch's results into a folder the resident chose: for a document format, one
/// document per row with a request, each under the profile's header with the row's «ФИО»,
/// «Квартира» and «Телефон», dated today; a collective request adds the signatures table.
/// For CSV and JSONL, one file `batch-<number>.csv` / `.jsonl` (the CSV in Russian).
/// A file of the same name with other contents is replaced only when `replace` is set
/// ([`ErrorKind::FilesExist`] otherwise, and nothing is written).
pub fn batch_export(
    state: &AppState,
    number: u32,
    export: BatchExport,
    collective: bool,
    replace: bool,
    folder: &Path,
) -> Result<BatchExportView, CommandError> {
    let batch_id = state.engine.find_batch(&number.to_string())?.id;
    match export {
        BatchExport::Results(format) => {
            let report = state.engine.export_batch(&batch_id, format, folder)?;
            Ok(BatchExportView {
                folder: folder.display().to_string(),
                written: report.files.len(),
                skipped: Vec::new(),
            })
        }
        BatchExport::Documents(format) => {
            let profile = state.engine.profile()?;
            let options = DocumentsExport {
                format,
                date: jiff::Zoned::now().date(),
                co_signers: collective.then(CoSigners::default),
                replace,
            };
            let report = state
                .engine
                .export_documents(&batch_id, &profile, &options, folder)?;
            Ok(BatchExportView {
                folder: report.dir.display().to_string(),
                written: report.written.len(),
                skipped: report
                    .skipped
                    .iter()
                    .map(|skipped| SkippedRowView {
                        row: skipped.row,
                        reason: skipped.reason.message_ru(),
                    })
                    .collect(),
            })
        }
    }
}

/// What a batch export wrote.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct BatchExportView {
    /// The folder written to.
    pub folder: String,
    /// How many files were written (or were already there, identical).
    pub written: usize,
    /// The rows without a document, with the reason in Russian.
    pub skipped: Vec<SkippedRowView>,
}

/// A batch row that has no document.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct SkippedRowView {
    /// The row's number as the spreadsheet shows it.
    pub row: u32,
    /// Why, in Russian.
    pub reason: String,
}

// ---------------------------------------------------------------------------------------------
// The resident's details for the document header («Настройки»)

/// The stored profile (every field null on a fresh install).
pub fn profile_get(state: &AppState) -> Result<Profile, CommandError> {
    Ok(state.engine.profile()?)
}

/// Sets one field; an empty value removes it. A refused value changes nothing.
pub fn profile_set(state: &AppState, field: &str, value: &str) -> Result<Profile, CommandError> {
    let field = ProfileField::from_code(field)
        .ok_or_else(|| CommandError::invalid_argument("поле профиля"))?;
    Ok(state.engine.set_profile_field(field, value)?)
}

/// Removes every field.
pub fn profile_clear(state: &AppState) -> Result<Profile, CommandError> {
    state.engine.clear_profile()?;
    Ok(Profile::default())
}

/// The page says whether it holds changes the resident has not saved (an edit on «Настройки»):
/// while it does, closing the window asks first instead of losing them (issue 14).
pub fn window_unsaved(state: &AppState, unsaved: bool) -> Result<(), CommandError> {
    state.set_unsaved(unsaved);
    Ok(())
}

/// The page heard of a close request and is about to close the window (the resident chose
/// «Закрыть без сохранения», or nothing is unsaved after all): nothing is unsaved any more.
pub fn window_close(state: &AppState) -> Result<(), CommandError> {
    state.set_unsaved(false);
    Ok(())
}
