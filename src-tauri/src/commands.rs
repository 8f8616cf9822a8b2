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

use serde::Deserialize;
use zayavka_engine::{
    ApiKey, BatchChoice, BatchFile, BatchProgress, BatchSettings, CoSigners, DocumentFormat,
    DocumentsExport, DraftCommand, DraftEvent, DraftFilter, DraftId, DraftListItem, DraftOutcome,
    ExportFormat, FiledDocument, FilingError, InputSource, KeptInput, Profile, ProfileField,
    ProfileName, ProviderOverrides, RawInput, ScreenSetting, SubjectKind, save_document,
};

use crate::error::{CommandError, ErrorKind};
use crate::state::{AppState, CheckedBatch};
use crate::view::{
    BatchExportView, BatchListView, BatchPlanView, BatchProgressView, BatchRowView,
    BatchSummaryView, DoctorReport, DocumentView, DraftDetail, DraftProgress, DraftResult,
    KeyStatusView, PhotoView, SettingsView,
};

/// The draft the page names: ids are positive, and the page only sends ids it was given.
fn checked_id(id: i64) -> Result<DraftId, CommandError> {
    DraftId::new(id).ok_or_else(|| CommandError::invalid_argument("номер черновика"))
}

fn block_on<F: std::future::Future>(future: F) -> F::Output {
    tauri::async_runtime::block_on(future)
}

// ---------------------------------------------------------------------------------------------
// «Новая заявка»

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
    )
    .with_notes(result.notes.clone());
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
            crate::error::message(error)
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
#[derive(Debug, Clone, Default, Deserialize, ts_rs::TS)]
pub struct ListFilter {
    /// An outcome code; checked here, so the page may send only those.
    #[ts(as = "Option<zayavka_engine::DraftOutcome>")]
    pub outcome: Option<String>,
    /// A subject kind; checked here, so the page may send only those.
    #[ts(as = "Option<zayavka_engine::SubjectKind>")]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, ts_rs::TS)]
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

/// The filed document of a stored draft, dated today ([`AppState::today`]).
fn filed_document(
    state: &AppState,
    id: i64,
    collective: bool,
) -> Result<FiledDocument, CommandError> {
    Ok(state
        .engine
        .filed_document(checked_id(id)?, state.today()?, collective)?)
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

/// Whether `ZAYAVKA_API_KEY` gives a usable key.
fn environment_key(state: &AppState) -> bool {
    matches!(state.environment(false), Ok(overrides) if overrides.api_key.is_some())
}

/// The settings as they are now.
pub fn settings_get(state: &AppState) -> Result<SettingsView, CommandError> {
    Ok(SettingsView::read(
        &state.engine,
        &state.environment(false)?,
    )?)
}

/// Changes one setting of the chosen profile (or chooses the profile, «Свой сервер»
/// included): the engine's rule ([`zayavka_engine::ScreenSetting`]).
pub fn settings_set(
    state: &AppState,
    key: &str,
    value: &str,
) -> Result<SettingsView, CommandError> {
    let setting =
        ScreenSetting::from_code(key).ok_or_else(|| CommandError::invalid_argument("настройка"))?;
    state.engine.change_setting(setting, value)?;
    settings_get(state)
}

fn key_profile(state: &AppState) -> Result<ProfileName, CommandError> {
    Ok(state.engine.key_profile(None)?.0)
}

fn key_view(state: &AppState, profile: &ProfileName) -> KeyStatusView {
    KeyStatusView::read(&state.engine, Some(profile), environment_key(state))
}

/// The key's state.
pub fn key_status(state: &AppState) -> Result<KeyStatusView, CommandError> {
    Ok(key_view(state, &key_profile(state)?))
}

/// Stores the key of the chosen profile in the keyring, replacing any earlier one.
pub fn key_set(state: &AppState, secret: &str) -> Result<KeyStatusView, CommandError> {
    let profile = key_profile(state)?;
    state.engine.set_key(&profile, &ApiKey::new(secret)?)?;
    Ok(key_view(state, &profile))
}

/// Removes the key of the chosen profile from the keyring.
pub fn key_delete(state: &AppState) -> Result<KeyStatusView, CommandError> {
    let profile = key_profile(state)?;
    state.engine.delete_key(&profile)?;
    Ok(key_view(state, &profile))
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

/// Plans a run of the file at `path` ([`Engine::preview_batch`]) and remembers the plan under a
/// new token.
///
/// [`Engine::preview_batch`]: zayavka_engine::Engine::preview_batch
fn plan_file(
    state: &AppState,
    path: &Path,
    choice: BatchChoice,
) -> Result<BatchPlanView, CommandError> {
    let file = BatchFile::read(path)?;
    let preview = state
        .engine
        .preview_batch(&file, choice, state.environment(false)?)?;
    let check_token = state.remember_check(CheckedBatch {
        path: path.to_owned(),
        content_sha256: file.content_sha256().to_owned(),
        offline_only: preview.plan.offline,
        needs_confirmation: preview.plan.needs_confirmation(),
        choice,
    });
    Ok(BatchPlanView::new(check_token, preview))
}

/// What the «Пакет» screen may ask of a check beyond the file (issue 31): a new batch even
/// when the file was run before («Начать новый пакет», the CLI's `--new`), and a row limit
/// above the usual 5,000 when the resident confirmed a large file is the right one (the CLI's
/// `--max-rows`).
#[derive(Debug, Clone, Copy, Default, Deserialize, ts_rs::TS)]
pub struct CheckOptions {
    /// Start a new batch.
    #[serde(default)]
    pub new_batch: bool,
    /// Refuse a file with more rows than this; the usual limit when `None`.
    #[serde(default)]
    pub max_rows: Option<u32>,
}

/// Reads and checks a batch file and plans its run: which batch it continues (or, with
/// `options.new_batch`, a new one), which rows are new, changed, unfinished, done before or
/// refused, and what sending may cost. Nothing is stored or sent.
pub fn batch_check(
    state: &AppState,
    path: &Path,
    options: CheckOptions,
) -> Result<BatchPlanView, CommandError> {
    let max_rows = match options.max_rows {
        None => zayavka_engine::DEFAULT_MAX_ROWS,
        Some(rows @ 1..=MAX_ROWS_ALLOWED) => rows,
        Some(_) => return Err(CommandError::invalid_argument("предел строк")),
    };
    plan_file(
        state,
        path,
        BatchChoice {
            batch_number: None,
            new_batch: options.new_batch,
            max_rows,
        },
    )
}

/// The largest row limit the page may ask for: as many rows as a batch file can hold.
pub const MAX_ROWS_ALLOWED: u32 = zayavka_engine::MAX_ROWS as u32;

/// Plans the next run of an earlier batch from the file it was last run from, so that the
/// resident need not choose it again. A file that is no longer there is said plainly
/// ([`ErrorKind::BatchFileMissing`]); a changed one shows in the plan as new and changed rows.
pub fn batch_continue(state: &AppState, number: u32) -> Result<BatchPlanView, CommandError> {
    let (batch, file) = state.engine.batch_source(number)?;
    let Some(path) = file else {
        return Err(CommandError::new(
            ErrorKind::BatchFileMissing,
            format!(
                "Файла «{}» больше нет там, откуда запускали пакет {number}. Если вы его \
                 переместили или переименовали, выберите его кнопкой «Выбрать файл…»: \
                 составленные строки повторно не отправятся.",
                batch.file_name
            ),
        ));
    };
    // Batch `number` itself, even if a later batch was started from the same file.
    plan_file(
        state,
        &path,
        BatchChoice {
            batch_number: Some(number),
            ..BatchChoice::default()
        },
    )
}

/// Every stored batch, the most recently created first.
pub fn batch_list(state: &AppState) -> Result<Vec<BatchListView>, CommandError> {
    let batches = state.engine.batches()?;
    Ok(batches.into_iter().map(BatchListView::from).collect())
}

/// Every row of a batch's file as last run, in file order, with its «ФИО», «Квартира», title,
/// state and, for a row refused, failed or needing the resident, the reason.
pub fn batch_rows(state: &AppState, number: u32) -> Result<Vec<BatchRowView>, CommandError> {
    let batch = state.engine.find_batch(&number.to_string())?;
    let rows = state.engine.batch_rows(&batch.id)?;
    Ok(rows.into_iter().map(BatchRowView::from).collect())
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
    let (check, file) = state.planned_file(check_token, offline, confirmed)?;
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
        batch_number: check.choice.batch_number,
        new_batch: check.choice.new_batch,
        max_rows: check.choice.max_rows,
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
    Ok(BatchSummaryView::new(last, summary))
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
            Ok(BatchExportView::results(folder, &report))
        }
        BatchExport::Documents(format) => {
            let options = DocumentsExport {
                format,
                date: state.today()?,
                co_signers: collective.then(CoSigners::default),
                replace,
            };
            let profile = state.engine.profile()?;
            let report = state
                .engine
                .export_documents(&batch_id, &profile, &options, folder)?;
            Ok(BatchExportView::documents(&report))
        }
    }
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
