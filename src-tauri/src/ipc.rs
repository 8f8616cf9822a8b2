//! The Tauri commands the page calls (docs/desktop-ipc.md). Each runs its [`crate::commands`]
//! function on Tauri's blocking pool, so no database, keyring or model work ever runs on the
//! thread that draws the window; the native dialogs and the clipboard, which only the shell
//! can reach, are opened here. The page reaches no plugin directly: the capability file grants
//! these commands and nothing else.

use std::path::PathBuf;

use tauri::ipc::Channel;
use tauri::{AppHandle, Manager, WebviewWindow};
use tauri_plugin_clipboard_manager::ClipboardExt;
use tauri_plugin_dialog::{DialogExt, MessageDialogButtons, MessageDialogKind};
use zayavka_engine::RawInput;

use crate::cases;
use crate::commands::{self, ListFilter, SaveFormat};
use crate::error::{CommandError, ErrorKind};
use crate::state::AppState;
use crate::view::{
    BatchExportView, BatchListView, BatchPlanView, BatchProgressView, BatchRowView,
    BatchSummaryView, DoctorReport, DocumentView, DraftDetail, DraftProgress, DraftResult,
    KeyStatusView, PhotoView, SettingsView,
};
use zayavka_engine::{DraftListItem, Profile};

type Answer<T> = Result<T, CommandError>;

/// Runs `work` with the app's state on the blocking pool.
async fn blocking<T: Send + 'static>(
    app: AppHandle,
    work: impl FnOnce(&AppState) -> Answer<T> + Send + 'static,
) -> Answer<T> {
    tauri::async_runtime::spawn_blocking(move || work(&app.state::<AppState>()))
        .await
        .unwrap_or_else(|_| Err(CommandError::internal("a command panicked")))
}

fn dialog_failed() -> CommandError {
    CommandError::new(
        ErrorKind::System,
        "Не удалось открыть окно выбора файла. Перезапустите приложение и попробуйте снова.",
    )
}

fn to_path(file: tauri_plugin_dialog::FilePath) -> Answer<PathBuf> {
    file.into_path().map_err(|_| dialog_failed())
}

#[tauri::command]
pub async fn draft_run(
    app: AppHandle,
    input: RawInput,
    task_id: String,
    on_progress: Channel<DraftProgress>,
) -> Answer<DraftResult> {
    blocking(app, move |state| {
        commands::draft_run(state, input, &task_id, false, &|progress| {
            let _ = on_progress.send(progress);
        })
    })
    .await
}

#[tauri::command]
pub async fn draft_cancel(app: AppHandle, task_id: String) -> Answer<()> {
    app.state::<AppState>().cancel_task(&task_id);
    Ok(())
}

#[tauri::command]
pub async fn draft_offline(app: AppHandle, input: RawInput) -> Answer<DraftResult> {
    blocking(app, move |state| {
        commands::draft_run(state, input, "offline", true, &|_| {})
    })
    .await
}

#[tauri::command]
pub async fn draft_reassemble(
    app: AppHandle,
    draft_id: i64,
    subject: String,
) -> Answer<DraftResult> {
    blocking(app, move |state| {
        commands::draft_reassemble(state, draft_id, &subject)
    })
    .await
}

#[tauri::command]
pub async fn input_autosave(app: AppHandle, input: RawInput) -> Answer<()> {
    blocking(app, move |state| commands::input_autosave(state, &input)).await
}

#[tauri::command]
pub async fn input_restore(app: AppHandle) -> Answer<Option<RawInput>> {
    blocking(app, commands::input_restore).await
}

#[tauri::command]
pub async fn drafts_list(app: AppHandle, filter: ListFilter) -> Answer<Vec<DraftListItem>> {
    blocking(app, move |state| commands::drafts_list(state, filter)).await
}

#[tauri::command]
pub async fn drafts_search(app: AppHandle, text: String) -> Answer<Vec<DraftListItem>> {
    blocking(app, move |state| commands::drafts_search(state, &text)).await
}

#[tauri::command]
pub async fn draft_open(app: AppHandle, id: i64) -> Answer<DraftDetail> {
    blocking(app, move |state| commands::draft_open(state, id)).await
}

#[tauri::command]
pub async fn draft_edit(
    app: AppHandle,
    id: i64,
    title: String,
    body: String,
) -> Answer<DraftDetail> {
    blocking(app, move |state| {
        commands::draft_edit(state, id, &title, &body)
    })
    .await
}

#[tauri::command]
pub async fn draft_delete(app: AppHandle, id: i64) -> Answer<()> {
    blocking(app, move |state| commands::draft_delete(state, id)).await
}

#[tauri::command]
pub async fn draft_save_as(
    app: AppHandle,
    id: i64,
    format: SaveFormat,
    collective: bool,
) -> Answer<Option<String>> {
    let dialogs = app.clone();
    blocking(app, move |state| {
        let (file_name, bytes) = commands::draft_save_prepare(state, id, format, collective)?;
        let Some(chosen) = dialogs
            .dialog()
            .file()
            .set_title("Сохранить заявку")
            .set_file_name(&file_name)
            .add_filter(format.label(), &[format.extension()])
            .blocking_save_file()
        else {
            return Ok(None);
        };
        let path = to_path(chosen)?;
        commands::write_document(&path, &bytes)?;
        Ok(Some(path.display().to_string()))
    })
    .await
}

#[tauri::command]
pub async fn draft_document(app: AppHandle, id: i64, collective: bool) -> Answer<DocumentView> {
    blocking(app, move |state| {
        commands::draft_document(state, id, collective)
    })
    .await
}

/// Opens the system's print dialog for the window; the page has laid out the document it prints
/// (the print-only block) just before. The webview prints from Rust, so the page needs no core
/// permission, on every platform.
#[tauri::command]
pub async fn print_page(window: WebviewWindow) -> Answer<()> {
    window.print().map_err(|_| {
        CommandError::new(
            ErrorKind::System,
            "Не удалось открыть окно печати. Сохраните заявку как PDF и распечатайте файл.",
        )
    })
}

#[tauri::command]
pub async fn draft_photos(app: AppHandle, id: i64) -> Answer<Vec<PhotoView>> {
    blocking(app, move |state| commands::draft_photos(state, id)).await
}

/// Asks for photos in the open dialog (several at once) and attaches them to the draft;
/// `null` when the resident cancelled.
#[tauri::command]
pub async fn draft_attach_chosen(app: AppHandle, id: i64) -> Answer<Option<Vec<PhotoView>>> {
    let dialogs = app.clone();
    blocking(app, move |state| {
        let Some(files) = pick_photos(&dialogs, "Выберите фотографии")? else {
            return Ok(None);
        };
        commands::draft_attach(state, id, &files).map(Some)
    })
    .await
}

/// The photos the resident chose in the open dialog (several at once); `None` when cancelled.
fn pick_photos(dialogs: &AppHandle, title: &str) -> Answer<Option<Vec<PathBuf>>> {
    let Some(chosen) = dialogs
        .dialog()
        .file()
        .set_title(title)
        .add_filter(
            "Фотографии (JPEG, PNG)",
            &["jpg", "jpeg", "png", "JPG", "JPEG", "PNG"],
        )
        .blocking_pick_files()
    else {
        return Ok(None);
    };
    chosen
        .into_iter()
        .map(to_path)
        .collect::<Answer<_>>()
        .map(Some)
}

/// Attaches the files last dropped on the window to the draft.
#[tauri::command]
pub async fn draft_attach_dropped(app: AppHandle, id: i64) -> Answer<Vec<PhotoView>> {
    blocking(app, move |state| {
        let files = state.take_dropped();
        if files.is_empty() {
            return Err(CommandError::new(
                ErrorKind::Photo,
                "Перетащите фотографии в окно ещё раз или выберите их кнопкой «Приложить \
                 фотографии…».",
            ));
        }
        commands::draft_attach(state, id, &files)
    })
    .await
}

#[tauri::command]
pub async fn draft_detach(app: AppHandle, id: i64, number: u32) -> Answer<Vec<PhotoView>> {
    blocking(app, move |state| commands::draft_detach(state, id, number)).await
}

/// Files dragged over or dropped on the window, as the page hears of them: never their paths.
#[derive(Debug, Clone, Copy, serde::Serialize, ts_rs::TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DropEvent {
    /// Files are being dragged over the window.
    Over,
    /// The drag left the window, or was cancelled.
    Left,
    /// Files were dropped; the app keeps them for `draft_attach_dropped`.
    Dropped {
        /// How many.
        files: usize,
    },
}

/// Where the page hears of files dragged onto the window, until it asks again.
#[derive(Default)]
pub struct DropWatch(std::sync::Mutex<Option<Channel<DropEvent>>>);

impl DropWatch {
    /// Tells the page, if it listens.
    pub fn send(&self, event: DropEvent) {
        if let Some(channel) = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .as_ref()
        {
            let _ = channel.send(event);
        }
    }
}

/// The page listens for files dragged onto the window: the window's own drag and drop, so the
/// paths stay in the app.
#[tauri::command]
pub async fn photos_drop_watch(app: AppHandle, on_drop: Channel<DropEvent>) -> Answer<()> {
    *app.state::<DropWatch>()
        .0
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(on_drop);
    Ok(())
}

/// A request to close the window, as the page hears of it.
#[derive(Debug, Clone, Copy, serde::Serialize, ts_rs::TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CloseEvent {
    /// The resident asked to close the window (its close button, Alt+F4, Cmd+W) while the page
    /// holds unsaved changes; the window stays open until the page calls `window_close`.
    Requested,
}

/// Where the page hears of close requests, until it asks again.
#[derive(Default)]
pub struct CloseWatch(std::sync::Mutex<Option<Channel<CloseEvent>>>);

impl CloseWatch {
    /// Whether a page listens.
    pub fn listens(&self) -> bool {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .is_some()
    }

    /// Tells the page; `false` when no page listens or the message could not be delivered.
    pub fn send(&self, event: CloseEvent) -> bool {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .as_ref()
            .is_some_and(|channel| channel.send(event).is_ok())
    }
}

/// The page listens for requests to close the window. A page that starts (again) holds nothing
/// unsaved yet.
#[tauri::command]
pub async fn window_close_watch(app: AppHandle, on_close: Channel<CloseEvent>) -> Answer<()> {
    *app.state::<CloseWatch>()
        .0
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(on_close);
    if let Some(state) = app.try_state::<AppState>() {
        state.set_unsaved(false);
    }
    Ok(())
}

/// The page says whether it holds unsaved changes; closing the window then asks first.
#[tauri::command]
pub async fn window_unsaved(app: AppHandle, unsaved: bool) -> Answer<()> {
    blocking(app, move |state| commands::window_unsaved(state, unsaved)).await
}

/// Closes the window for real, without another close request: the resident chose «Закрыть без
/// сохранения».
#[tauri::command]
pub async fn window_close(app: AppHandle, window: WebviewWindow) -> Answer<()> {
    blocking(app, commands::window_close).await?;
    window.destroy().map_err(|_| {
        CommandError::new(
            ErrorKind::System,
            "Не удалось закрыть окно. Закройте его ещё раз.",
        )
    })
}

#[tauri::command]
pub async fn clipboard_write(app: AppHandle, text: String) -> Answer<()> {
    app.clipboard().write_text(text).map_err(|_| {
        CommandError::new(
            ErrorKind::System,
            "Не удалось скопировать текст в буфер обмена. Выделите текст заявки и скопируйте \
             его сочетанием клавиш Ctrl+C.",
        )
    })
}

#[tauri::command]
pub async fn settings_get(app: AppHandle) -> Answer<SettingsView> {
    blocking(app, commands::settings_get).await
}

#[tauri::command]
pub async fn settings_set(app: AppHandle, key: String, value: String) -> Answer<SettingsView> {
    blocking(app, move |state| {
        commands::settings_set(state, &key, &value)
    })
    .await
}

#[tauri::command]
pub async fn key_status(app: AppHandle) -> Answer<KeyStatusView> {
    blocking(app, commands::key_status).await
}

#[tauri::command]
pub async fn key_set(app: AppHandle, secret: String) -> Answer<KeyStatusView> {
    blocking(app, move |state| commands::key_set(state, &secret)).await
}

#[tauri::command]
pub async fn key_delete(app: AppHandle) -> Answer<KeyStatusView> {
    blocking(app, commands::key_delete).await
}

#[tauri::command]
pub async fn connection_check(app: AppHandle) -> Answer<DoctorReport> {
    blocking(app, commands::connection_check).await
}

#[tauri::command]
pub async fn setup_check(app: AppHandle) -> Answer<crate::setup::SetupCheckView> {
    blocking(app, crate::setup::setup_check).await
}

#[tauri::command]
pub async fn setup_skip(app: AppHandle) -> Answer<()> {
    blocking(app, crate::setup::setup_skip).await
}

#[tauri::command]
pub async fn batch_choose_file(app: AppHandle) -> Answer<Option<String>> {
    let dialogs = app.clone();
    blocking(app, move |state| {
        let Some(chosen) = dialogs
            .dialog()
            .file()
            .set_title("Выберите файл с заявками")
            .add_filter("Таблицы и JSONL", &["csv", "xlsx", "jsonl", "txt", "tsv"])
            .blocking_pick_file()
        else {
            return Ok(None);
        };
        let path = to_path(chosen)?;
        state.remember_chosen(path.clone());
        Ok(Some(path.display().to_string()))
    })
    .await
}

#[tauri::command]
pub async fn batch_check(
    app: AppHandle,
    path: String,
    options: Option<commands::CheckOptions>,
) -> Answer<BatchPlanView> {
    blocking(app, move |state| {
        let path = PathBuf::from(path);
        // Only a file the resident chose in the open dialog is read.
        if !state.was_chosen(&path) {
            return Err(CommandError::new(
                ErrorKind::BatchNotChecked,
                "Выберите файл пакета кнопкой «Выбрать файл…».",
            ));
        }
        commands::batch_check(state, &path, options.unwrap_or_default())
    })
    .await
}

#[tauri::command]
pub async fn batch_list(app: AppHandle) -> Answer<Vec<BatchListView>> {
    blocking(app, commands::batch_list).await
}

#[tauri::command]
pub async fn batch_rows(app: AppHandle, number: u32) -> Answer<Vec<BatchRowView>> {
    blocking(app, move |state| commands::batch_rows(state, number)).await
}

/// Plans the next run of an earlier batch from the file it was last run from; the path comes
/// from the data folder, never from the page.
#[tauri::command]
pub async fn batch_continue(app: AppHandle, number: u32) -> Answer<BatchPlanView> {
    blocking(app, move |state| commands::batch_continue(state, number)).await
}

#[tauri::command]
pub async fn batch_run(
    app: AppHandle,
    check_token: String,
    offline: bool,
    confirmed: bool,
    task_id: String,
    on_progress: Channel<BatchProgressView>,
) -> Answer<BatchSummaryView> {
    blocking(app, move |state| {
        commands::batch_run(
            state,
            &check_token,
            offline,
            confirmed,
            &task_id,
            &|progress| {
                let _ = on_progress.send(progress);
            },
        )
    })
    .await
}

#[tauri::command]
pub async fn batch_cancel(app: AppHandle, task_id: String) -> Answer<()> {
    app.state::<AppState>().cancel_task(&task_id);
    Ok(())
}

/// Asks for a folder, then writes the batch's documents or results into it. When files of the
/// same names with other contents are there, the resident is asked in a native dialog whether
/// to replace them; the folder's path never passes through the page.
#[tauri::command]
pub async fn batch_export(
    app: AppHandle,
    number: u32,
    format: String,
    collective: bool,
) -> Answer<Option<BatchExportView>> {
    let dialogs = app.clone();
    blocking(app, move |state| {
        let export = commands::export_format(&format)?;
        let Some(chosen) = dialogs
            .dialog()
            .file()
            .set_title("Папка для выгрузки заявок")
            .blocking_pick_folder()
        else {
            return Ok(None);
        };
        let folder = to_path(chosen)?;
        match commands::batch_export(state, number, export, collective, false, &folder) {
            Err(error) if error.kind == ErrorKind::FilesExist => {
                let replace = dialogs
                    .dialog()
                    .message(format!("{} Заменить эти файлы?", error.message))
                    .title("Файлы уже есть")
                    .kind(MessageDialogKind::Warning)
                    .buttons(MessageDialogButtons::OkCancelCustom(
                        "Заменить".to_owned(),
                        "Отмена".to_owned(),
                    ))
                    .blocking_show();
                if !replace {
                    return Ok(None);
                }
                commands::batch_export(state, number, export, collective, true, &folder).map(Some)
            }
            other => other.map(Some),
        }
    })
    .await
}

#[tauri::command]
pub async fn profile_get(app: AppHandle) -> Answer<Profile> {
    blocking(app, commands::profile_get).await
}

#[tauri::command]
pub async fn profile_set(app: AppHandle, field: String, value: String) -> Answer<Profile> {
    blocking(app, move |state| {
        commands::profile_set(state, &field, &value)
    })
    .await
}

#[tauri::command]
pub async fn profile_clear(app: AppHandle) -> Answer<Profile> {
    blocking(app, commands::profile_clear).await
}

#[tauri::command]
pub async fn stats_get(
    app: AppHandle,
    request: crate::stats::StatsRequest,
) -> Answer<zayavka_engine::Stats> {
    blocking(app, move |state| crate::stats::stats_get(state, request)).await
}

// ---------------------------------------------------------------------------------------------
// After the request is filed (issue 30): crate::cases.

#[tauri::command]
pub async fn case_get(app: AppHandle, id: i64) -> Answer<cases::CaseDetail> {
    blocking(app, move |state| cases::case_get(state, id)).await
}

#[tauri::command]
pub async fn case_file(
    app: AppHandle,
    id: i64,
    filing: cases::FilingForm,
) -> Answer<cases::CaseDetail> {
    blocking(app, move |state| cases::case_file(state, id, &filing)).await
}

#[tauri::command]
pub async fn case_bring_in(
    app: AppHandle,
    text: String,
    filing: cases::FilingForm,
) -> Answer<cases::CaseDetail> {
    blocking(app, move |state| {
        cases::case_bring_in(state, &text, &filing)
    })
    .await
}

#[tauri::command]
pub async fn case_unfile(app: AppHandle, id: i64) -> Answer<cases::CaseDetail> {
    blocking(app, move |state| cases::case_unfile(state, id)).await
}

#[tauri::command]
pub async fn case_answer(
    app: AppHandle,
    id: i64,
    answer: cases::AnswerForm,
) -> Answer<cases::CaseDetail> {
    blocking(app, move |state| cases::case_answer(state, id, &answer)).await
}

#[tauri::command]
pub async fn case_close(app: AppHandle, id: i64, close: bool) -> Answer<cases::CaseDetail> {
    blocking(app, move |state| cases::case_close(state, id, close)).await
}

/// Asks for photos of the filing (`role` `filing`) or of the answer (`answer`) and attaches
/// them; `null` when the resident cancelled.
#[tauri::command]
pub async fn case_attach_chosen(
    app: AppHandle,
    id: i64,
    role: String,
) -> Answer<Option<cases::CaseDetail>> {
    let dialogs = app.clone();
    blocking(app, move |state| {
        let role = cases::photo_role(&role)?;
        let title = if role == zayavka_engine::AttachmentRole::Answer {
            "Фотографии или скан ответа"
        } else {
            "Фотографии отметки о приёме или почтовой квитанции"
        };
        let Some(files) = pick_photos(&dialogs, title)? else {
            return Ok(None);
        };
        cases::case_attach(state, id, role, &files).map(Some)
    })
    .await
}

#[tauri::command]
pub async fn draft_correct(app: AppHandle, id: i64) -> Answer<i64> {
    blocking(app, move |state| cases::draft_correct(state, id)).await
}

#[tauri::command]
pub async fn follow_up_write(
    app: AppHandle,
    id: i64,
    kind: String,
    addressee: Option<String>,
) -> Answer<i64> {
    blocking(app, move |state| {
        cases::follow_up_write(state, id, &kind, addressee.as_deref())
    })
    .await
}

#[tauri::command]
pub async fn cases_due(app: AppHandle) -> Answer<cases::DueView> {
    blocking(app, cases::cases_due).await
}

/// Saves the deadline of draft `id` as an `.ics` event where the resident chooses; the path,
/// or `null` when they cancelled.
#[tauri::command]
pub async fn case_calendar(app: AppHandle, id: i64) -> Answer<Option<String>> {
    let dialogs = app.clone();
    blocking(app, move |state| {
        let (file_name, event) = cases::case_calendar(state, id)?;
        let Some(chosen) = dialogs
            .dialog()
            .file()
            .set_title("Сохранить срок ответа для календаря")
            .set_file_name(&file_name)
            .add_filter("Событие календаря (iCalendar)", &["ics"])
            .blocking_save_file()
        else {
            return Ok(None);
        };
        let path = to_path(chosen)?;
        commands::write_document(&path, event.as_bytes())?;
        Ok(Some(path.display().to_string()))
    })
    .await
}

#[tauri::command]
pub async fn batch_file(
    app: AppHandle,
    number: u32,
    rows: Vec<u32>,
    filing: cases::FilingForm,
) -> Answer<cases::BatchFilingView> {
    blocking(app, move |state| {
        cases::batch_file(state, number, &rows, &filing)
    })
    .await
}

#[tauri::command]
pub async fn batch_cases(app: AppHandle, number: u32) -> Answer<cases::BatchCasesView> {
    blocking(app, move |state| cases::batch_cases(state, number)).await
}

/// Asks for a folder and writes the batch's repeat requests or complaints into it; `null`
/// when the resident cancelled.
#[tauri::command]
pub async fn batch_follow_up(
    app: AppHandle,
    number: u32,
    kind: String,
    addressee: Option<String>,
    format: String,
) -> Answer<Option<cases::BatchFollowUpView>> {
    let dialogs = app.clone();
    blocking(app, move |state| {
        let format = match commands::export_format(&format)? {
            commands::BatchExport::Documents(format) => format,
            commands::BatchExport::Results(_) => {
                return Err(CommandError::invalid_argument("формат писем"));
            }
        };
        let Some(chosen) = dialogs
            .dialog()
            .file()
            .set_title("Папка для писем")
            .blocking_pick_folder()
        else {
            return Ok(None);
        };
        let folder = to_path(chosen)?;
        cases::batch_follow_up(state, number, &kind, addressee.as_deref(), format, &folder)
            .map(Some)
    })
    .await
}

/// Asks where to save a backup of the drafts database and writes it there, whole or not at
/// all; `null` when the resident cancelled.
#[tauri::command]
pub async fn data_backup(app: AppHandle) -> Answer<Option<crate::backup::BackupView>> {
    let dialogs = app.clone();
    blocking(app, move |state| {
        let file_name = crate::backup::backup_file_name(state)?;
        let Some(chosen) = dialogs
            .dialog()
            .file()
            .set_title("Сохранить резервную копию черновиков")
            .set_file_name(&file_name)
            .add_filter("База черновиков Заявки", &["sqlite3"])
            .blocking_save_file()
        else {
            return Ok(None);
        };
        let path = to_path(chosen)?;
        crate::backup::data_backup(state, &path).map(Some)
    })
    .await
}

/// Asks for a backup to put back; the file, or `null` when the resident cancelled. Only a file
/// chosen here may be restored.
#[tauri::command]
pub async fn data_restore_choose(app: AppHandle) -> Answer<Option<String>> {
    let dialogs = app.clone();
    blocking(app, move |state| {
        let Some(chosen) = dialogs
            .dialog()
            .file()
            .set_title("Выберите резервную копию черновиков")
            .add_filter("База черновиков Заявки", &["sqlite3"])
            .blocking_pick_file()
        else {
            return Ok(None);
        };
        Ok(Some(crate::backup::chosen_backup(state, to_path(chosen)?)))
    })
    .await
}

/// Puts the chosen backup in place of the drafts database, keeping the database that was
/// there beside it.
#[tauri::command]
pub async fn data_restore(app: AppHandle, path: String) -> Answer<crate::backup::RestoredView> {
    blocking(app, move |state| {
        crate::backup::data_restore(state, &PathBuf::from(path))
    })
    .await
}

/// Recovers what can be read of the drafts database into a new one and puts it in place,
/// keeping the damaged database beside it.
#[tauri::command]
pub async fn data_recover(app: AppHandle) -> Answer<crate::backup::RestoredView> {
    blocking(app, crate::backup::data_recover).await
}
