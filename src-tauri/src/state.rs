//! What the commands share: the installation's folders, the keyring, the environment read once
//! at start, the long tasks that may be cancelled, the batch plans shown this session, and
//! whether the page holds changes the resident has not saved (closing the window then asks).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use zayavka_engine::{
    BatchFile, CancellationToken, Engine, EnvironmentOverrides, Paths, SecretStore,
};

use crate::error::{CommandError, ErrorKind};

pub use zayavka_engine::Environment;

/// The state every command receives.
pub struct AppState {
    /// The engine: the folders, the keyring and the model clients of this run of the app
    /// (drafts and batches with the same settings and key share one, so GigaChat's access token
    /// is exchanged once per lifetime, not once per draft — issue 15). Every command reaches the
    /// drafts database through it.
    pub engine: Engine,
    tasks: Mutex<HashMap<String, CancellationToken>>,
    checks: Mutex<HashMap<String, CheckedBatch>>,
    next_check: std::sync::atomic::AtomicU64,
    chosen: Mutex<std::collections::HashSet<PathBuf>>,
    dropped: Mutex<Vec<PathBuf>>,
    unsaved: AtomicBool,
    today: Mutex<Option<jiff::civil::Date>>,
}

impl AppState {
    /// The state over these folders, this keyring and this environment.
    pub fn new(
        paths: Paths,
        secrets: Arc<dyn SecretStore + Send + Sync>,
        environment: Environment,
    ) -> AppState {
        AppState {
            engine: Engine::new(paths, secrets).with_environment(environment),
            tasks: Mutex::new(HashMap::new()),
            checks: Mutex::new(HashMap::new()),
            next_check: std::sync::atomic::AtomicU64::new(1),
            chosen: Mutex::new(std::collections::HashSet::new()),
            dropped: Mutex::new(Vec::new()),
            unsaved: AtomicBool::new(false),
            today: Mutex::new(None),
        }
    }

    /// The date the app takes as today: `ZAYAVKA_TODAY` when set (for a resident checking a
    /// past case, and for tests), else the system's date — or the date fixed by
    /// [`AppState::fix_today`].
    pub fn today(&self) -> Result<jiff::civil::Date, CommandError> {
        if let Some(today) = *self.today.lock().unwrap_or_else(PoisonError::into_inner) {
            return Ok(today);
        }
        Ok(zayavka_engine::today()?)
    }

    /// Fixes the date [`AppState::today`] gives, as `ZAYAVKA_TODAY` does for a whole process
    /// (tests, which share one process).
    pub fn fix_today(&self, today: jiff::civil::Date) {
        *self.today.lock().unwrap_or_else(PoisonError::into_inner) = Some(today);
    }

    /// The environment's provider overrides and key for one run; a run without a model reads
    /// none.
    pub fn environment(&self, offline: bool) -> Result<EnvironmentOverrides, CommandError> {
        Ok(self.engine.environment(offline)?)
    }

    /// Registers a long task; the guard forgets it when the task ends however it ends.
    pub fn start_task(&self, task_id: &str) -> TaskGuard<'_> {
        let token = CancellationToken::new();
        self.tasks
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(task_id.to_owned(), token.clone());
        TaskGuard {
            state: self,
            task_id: task_id.to_owned(),
            token,
        }
    }

    /// Cancels a running task; a task that already ended is not an error.
    pub fn cancel_task(&self, task_id: &str) {
        if let Some(token) = self
            .tasks
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(task_id)
        {
            token.cancel();
        }
    }

    /// Whether a draft or a batch is running now (a restore waits for it to end).
    pub fn has_running_tasks(&self) -> bool {
        !self
            .tasks
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .is_empty()
    }

    /// Remembers a file the resident chose in the open dialog: only such a file may be read as
    /// a batch, so that the page cannot name any other file on the computer.
    pub fn remember_chosen(&self, path: PathBuf) {
        self.chosen
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(path);
    }

    /// Whether the resident chose this file in the open dialog this session.
    pub fn was_chosen(&self, path: &std::path::Path) -> bool {
        self.chosen
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .contains(path)
    }

    /// Keeps the files the resident last dropped on the window, replacing any dropped before:
    /// the page learns only how many there are and may attach them to a draft, so it never
    /// names a file itself.
    pub fn remember_dropped(&self, paths: Vec<PathBuf>) {
        *self.dropped.lock().unwrap_or_else(PoisonError::into_inner) = paths;
    }

    /// Takes the files last dropped on the window (each drop is used once).
    pub fn take_dropped(&self) -> Vec<PathBuf> {
        std::mem::take(&mut *self.dropped.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// Records whether the page holds changes the resident has not saved (a settings edit): the
    /// page says so each time that changes, and closing the window then asks first.
    pub fn set_unsaved(&self, unsaved: bool) {
        self.unsaved.store(unsaved, Ordering::SeqCst);
    }

    /// Whether the page last said it holds unsaved changes.
    pub fn has_unsaved(&self) -> bool {
        self.unsaved.load(Ordering::SeqCst)
    }

    /// Remembers the plan shown to the resident and returns its token: `batch_run` runs only a
    /// file whose plan the resident saw, and only while its content is the one planned.
    pub fn remember_check(&self, check: CheckedBatch) -> String {
        let number = self
            .next_check
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let token = format!("check-{number}");
        self.checks
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(token.clone(), check);
        token
    }

    /// The plan a token stands for, when it was shown this session.
    fn checked(&self, token: &str) -> Option<CheckedBatch> {
        self.checks
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(token)
            .cloned()
    }

    /// The plan `token` stands for and its file read again, when a run may go ahead: the plan
    /// was shown this session, a run with the model was planned with one and, when it sends
    /// rows, `confirmed`, and the file is still the one planned. Nothing is sent otherwise.
    pub fn planned_file(
        &self,
        token: &str,
        offline: bool,
        confirmed: bool,
    ) -> Result<(CheckedBatch, BatchFile), CommandError> {
        let not_checked = |message: &str| CommandError::new(ErrorKind::BatchNotChecked, message);
        let check = self.checked(token).ok_or_else(|| {
            not_checked(
                "Выберите файл пакета снова или продолжите пакет из списка: перед отправкой \
                 приложение заново проверяет строки.",
            )
        })?;
        if !offline && check.offline_only {
            return Err(not_checked(
                "Сервис модели не был настроен, когда файл проверяли. Проверьте файл снова, \
                 чтобы увидеть план отправки, или составьте заявки без модели.",
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
                "Файл «{}» изменился после проверки, поэтому ничего не отправлено. Проверьте \
                 его снова: план покажет новые и изменённые строки.",
                file.file_name()
            )));
        }
        Ok((check, file))
    }
}

/// What a request to close the window (its close button, Alt+F4, Cmd+W) does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CloseDecision {
    /// The window closes at once, as without this app's say.
    Close,
    /// The window stays open and the page asks the resident whether to close without saving;
    /// only its answer closes the window (`window_close`).
    AskPage,
}

/// Decides what closing the window does: with unsaved changes on a page that listens for close
/// requests, the window stays open and the page asks; otherwise it closes. A page that does not
/// listen (it failed to start) never keeps the window open, so the window can always be closed.
pub fn close_decision(unsaved: bool, page_listens: bool) -> CloseDecision {
    if unsaved && page_listens {
        CloseDecision::AskPage
    } else {
        CloseDecision::Close
    }
}

/// A batch file whose plan the resident was shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckedBatch {
    /// The file, as read.
    pub path: PathBuf,
    /// Its content's SHA-256 when the plan was made: a file changed since is planned again.
    pub content_sha256: String,
    /// The plan was made without a model (none is set up), so only an offline run matches it.
    pub offline_only: bool,
    /// The plan sends rows to the model, so the run needs the resident's confirmation.
    pub needs_confirmation: bool,
    /// The earlier batch the plan continues when the resident chose it from the list (`None`
    /// for a file chosen, which continues the batch last run from it), whether a new batch was
    /// asked for, and the row limit.
    pub choice: zayavka_engine::BatchChoice,
}

/// A running task's cancellation token; dropping it forgets the task.
pub struct TaskGuard<'a> {
    state: &'a AppState,
    task_id: String,
    token: CancellationToken,
}

impl TaskGuard<'_> {
    /// The token the engine watches.
    pub fn token(&self) -> &CancellationToken {
        &self.token
    }
}

impl Drop for TaskGuard<'_> {
    fn drop(&mut self) {
        self.state
            .tasks
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&self.task_id);
    }
}
