//! The one error every command rejects with: `{kind, message}`, a stable snake_case kind the
//! page may branch on and a Russian message it shows as it is (docs/desktop-ipc.md).
//!
//! A message says what happened and what to do in the app; it names no command-line command,
//! flag or variable, and a technical failure never reads as a judgement on the resident's
//! problem.

use serde::Serialize;
use zayavka_engine::{EngineError, ErrorKind as EngineErrorKind, StoreErrorCode};

/// The stable kinds of failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// The drafts database could not be opened or used.
    Store,
    /// No draft has the id.
    NotFound,
    /// A stored draft does not read back.
    Damaged,
    /// The draft cannot be assembled again (not a ready model draft).
    NotReassemblable,
    /// An argument the page sent is not one the contract allows.
    InvalidArgument,
    /// A setting was refused; the message goes beside the field.
    InvalidSetting,
    /// The configuration file cannot be read.
    Config,
    /// The keyring refused or cannot be reached, or the key is not acceptable.
    Key,
    /// The typed form could not be kept or read back.
    Form,
    /// A batch file could not be read.
    BatchFile,
    /// The batch file was not checked in this session, or changed after its check.
    BatchNotChecked,
    /// The plan sends rows to the model and the run was not confirmed.
    BatchNotConfirmed,
    /// A batch's file is no longer where it was run from; the resident may choose it again.
    BatchFileMissing,
    /// The file has more rows than a batch may have.
    BatchTooLarge,
    /// A batch could not run.
    Batch,
    /// Writing a file the resident chose failed.
    Write,
    /// A file the resident named could not be read, or is not what it should be.
    Read,
    /// Files with the documents' names and other contents are already in the chosen folder;
    /// nothing was written.
    FilesExist,
    /// The operating system's dialog or clipboard failed.
    System,
    /// The edit was empty.
    EmptyEdit,
    /// A photo was refused (not a JPEG or PNG, damaged, too large, too many); nothing changed.
    Photo,
    /// Something inside the app failed; the message asks for a restart.
    Internal,
}

/// A failed command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error, ts_rs::TS)]
#[error("{message}")]
pub struct CommandError {
    /// What kind of failure.
    pub kind: ErrorKind,
    /// What happened and what to do, in Russian, for the resident.
    pub message: String,
}

impl CommandError {
    /// A failure of this kind with this message.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> CommandError {
        CommandError {
            kind,
            message: message.into(),
        }
    }

    /// An argument outside the contract: the page's own bug, never the resident's.
    pub fn invalid_argument(what: &str) -> CommandError {
        CommandError::new(
            ErrorKind::InvalidArgument,
            format!(
                "Приложение передало неверное значение ({what}). Ваш текст сохранён. \
                 Перезапустите приложение и попробуйте снова."
            ),
        )
    }

    /// A failure inside the app itself.
    pub fn internal(what: &str) -> CommandError {
        tracing::error!(what, "internal failure");
        CommandError::new(
            ErrorKind::Internal,
            "Приложение не смогло выполнить действие из-за внутренней ошибки. Ваш текст \
             сохранён. Перезапустите приложение и попробуйте снова.",
        )
    }
}

/// A sentence from the engine, which is lower-case and unpunctuated in some places, as one
/// the page can show on its own.
pub(crate) use zayavka_engine::full_sentence as sentence;

impl From<EngineErrorKind> for ErrorKind {
    /// The page's kind of an engine failure: one kind each, chosen by the engine's closed set
    /// of kinds, never by an error's variant or text.
    fn from(kind: EngineErrorKind) -> ErrorKind {
        match kind {
            EngineErrorKind::Store => ErrorKind::Store,
            EngineErrorKind::NotFound => ErrorKind::NotFound,
            EngineErrorKind::Damaged => ErrorKind::Damaged,
            EngineErrorKind::NotReassemblable => ErrorKind::NotReassemblable,
            EngineErrorKind::EmptyEdit => ErrorKind::EmptyEdit,
            EngineErrorKind::Config => ErrorKind::Config,
            EngineErrorKind::Key => ErrorKind::Key,
            EngineErrorKind::Form => ErrorKind::Form,
            EngineErrorKind::BatchFile => ErrorKind::BatchFile,
            EngineErrorKind::BatchTooLarge => ErrorKind::BatchTooLarge,
            EngineErrorKind::Batch => ErrorKind::Batch,
            EngineErrorKind::Photo => ErrorKind::Photo,
            EngineErrorKind::FilesExist => ErrorKind::FilesExist,
            EngineErrorKind::Write => ErrorKind::Write,
            EngineErrorKind::Read => ErrorKind::Read,
            EngineErrorKind::InvalidValue => ErrorKind::InvalidSetting,
            EngineErrorKind::InvalidRequest => ErrorKind::InvalidArgument,
            EngineErrorKind::Internal => ErrorKind::Internal,
        }
    }
}

/// Any engine error: its kind, and its Russian sentence as the page shows it.
impl<E: EngineError> From<E> for CommandError {
    fn from(error: E) -> CommandError {
        CommandError::new(error.kind().into(), message(&error))
    }
}

/// An engine error's sentence as the page shows it: the engine's own, except where the drafts
/// database's failure is met with the app's own way back ([`app_store_message`]).
pub fn message(error: &impl EngineError) -> String {
    error
        .store_code()
        .and_then(app_store_message)
        .map_or_else(|| sentence(&error.message_ru()), str::to_owned)
}

/// The app's sentence for a failure of the drafts database whose way back the app offers
/// itself, in «Настройки» → «Данные» (`crate::backup`); the store's own sentence names the
/// command-line tool's commands there, which a resident in the app never types. `None` for
/// every other failure, whose sentence fits the app as it is.
pub fn app_store_message(code: StoreErrorCode) -> Option<&'static str> {
    Some(match code {
        StoreErrorCode::Corrupt => {
            "Файл базы черновиков повреждён: часть записей не читается. Заявка не меняла и \
             не «исправляла» его. Откройте «Настройки» → «Данные» и нажмите «Восстановить \
             повреждённую базу»: всё, что ещё читается, перейдёт в новую базу, а повреждённый \
             файл останется рядом под другим именем. Если у вас есть резервная копия, там же \
             можно «Восстановить из резервной копии»."
        }
        StoreErrorCode::ForeignSchema => {
            "База черновиков изменена другой программой: в ней есть то, чего Заявка не \
             создаёт. Заявка не пишет в такой файл и не выполняет его команды; файл не изменён. \
             Откройте «Настройки» → «Данные» и нажмите «Восстановить повреждённую базу»: \
             черновики перейдут в новую базу без чужих команд, а нынешний файл останется рядом \
             под другим именем. Если у вас есть резервная копия, там же можно «Восстановить из \
             резервной копии»."
        }
        StoreErrorCode::NotOurDatabase => {
            "Файл базы черновиков не является базой данных Заявки: он повреждён или это \
             файл другой программы. Файл не изменён. Откройте «Настройки» → «Данные» и нажмите \
             «Восстановить из резервной копии»: нынешний файл останется рядом под другим \
             именем."
        }
        StoreErrorCode::RestoreTargetExists => {
            "Пока шло восстановление, в папке данных появилась новая база черновиков, \
             поэтому ничего не заменено. Закройте другие окна Заявки и повторите \
             восстановление."
        }
        StoreErrorCode::NoDatabase => {
            "Базы черновиков ещё нет, поэтому спасать нечего: она появится с первым \
             черновиком."
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_is_exactly_kind_and_message() {
        let error = CommandError::new(ErrorKind::NotFound, "Черновика с номером 7 нет.");
        assert_eq!(
            serde_json::to_string(&error).unwrap(),
            r#"{"kind":"not_found","message":"Черновика с номером 7 нет."}"#
        );
    }

    #[test]
    fn every_kind_is_stable_snake_case() {
        let kinds = [
            (ErrorKind::Store, "store"),
            (ErrorKind::NotFound, "not_found"),
            (ErrorKind::Damaged, "damaged"),
            (ErrorKind::NotReassemblable, "not_reassemblable"),
            (ErrorKind::InvalidArgument, "invalid_argument"),
            (ErrorKind::InvalidSetting, "invalid_setting"),
            (ErrorKind::Config, "config"),
            (ErrorKind::Key, "key"),
            (ErrorKind::Form, "form"),
            (ErrorKind::BatchFile, "batch_file"),
            (ErrorKind::BatchNotChecked, "batch_not_checked"),
            (ErrorKind::BatchNotConfirmed, "batch_not_confirmed"),
            (ErrorKind::BatchFileMissing, "batch_file_missing"),
            (ErrorKind::BatchTooLarge, "batch_too_large"),
            (ErrorKind::Batch, "batch"),
            (ErrorKind::Write, "write"),
            (ErrorKind::Read, "read"),
            (ErrorKind::FilesExist, "files_exist"),
            (ErrorKind::System, "system"),
            (ErrorKind::EmptyEdit, "empty_edit"),
            (ErrorKind::Photo, "photo"),
            (ErrorKind::Internal, "internal"),
        ];
        for (kind, code) in kinds {
            assert_eq!(serde_json::to_value(kind).unwrap(), code);
        }
    }

    #[test]
    fn a_draft_error_keeps_its_russian_message() {
        let id = zayavka_engine::DraftId::new(7).unwrap();
        let error = CommandError::from(zayavka_engine::DraftsError::NotFound(id));
        assert_eq!(
            serde_json::to_string(&error).unwrap(),
            r#"{"kind":"not_found","message":"Черновика с номером 7 нет: проверьте номер в списке черновиков."}"#
        );
    }

    #[test]
    fn every_engine_kind_has_one_page_kind_and_a_refused_value_goes_beside_its_field() {
        let mapped: Vec<ErrorKind> = EngineErrorKind::ALL
            .iter()
            .copied()
            .map(ErrorKind::from)
            .collect();
        assert_eq!(mapped.len(), EngineErrorKind::ALL.len());
        assert_eq!(
            ErrorKind::from(EngineErrorKind::InvalidValue),
            ErrorKind::InvalidSetting
        );
        assert_eq!(
            ErrorKind::from(EngineErrorKind::InvalidRequest),
            ErrorKind::InvalidArgument
        );
        // Each engine kind keeps its own name on the page where the page has one.
        for &kind in EngineErrorKind::ALL {
            let engine = serde_json::to_value(kind).unwrap();
            let page = serde_json::to_value(ErrorKind::from(kind)).unwrap();
            if !matches!(
                kind,
                EngineErrorKind::InvalidValue | EngineErrorKind::InvalidRequest
            ) {
                assert_eq!(engine, page, "{kind:?}");
            }
        }
    }

    #[test]
    fn internal_failures_keep_calm_and_name_no_command() {
        for error in [
            CommandError::internal("x"),
            CommandError::invalid_argument("outcome"),
        ] {
            assert!(
                error.message.contains("Ваш текст сохранён"),
                "{}",
                error.message
            );
            assert!(!error.message.contains("zayavka"), "{}", error.message);
        }
    }

    /// Issue 31: a damaged or unreadable database is met in the app with the app's own way
    /// back; no message the page can show for the database names a command-line command or
    /// flag, whichever error carries the database's failure.
    #[test]
    fn issue_31_no_database_message_names_a_command_line_command() {
        use std::path::PathBuf;
        use zayavka_engine::{DraftsError, StoreError};
        let path = || PathBuf::from("/дом/zayavka.sqlite3");
        let failures = || {
            vec![
                StoreError::Corrupt,
                StoreError::NotOurDatabase { path: path() },
                StoreError::ForeignSchema {
                    path: path(),
                    differences: Vec::new(),
                },
                StoreError::UnusableBackup {
                    path: path(),
                    problem: zayavka_engine::BackupProblem::Damaged,
                },
                StoreError::NewerSchema {
                    found: 9,
                    supported: 8,
                },
                StoreError::RestoreTargetExists { path: path() },
                StoreError::RecoverTargetExists { path: path() },
                StoreError::BackupTargetExists { path: path() },
                StoreError::NoDatabase { path: path() },
                StoreError::ReadOnly { path: path() },
                StoreError::NotAFolder { path: path() },
                StoreError::NotAFile { path: path() },
                StoreError::WriteRefused,
                StoreError::DiskFull,
                StoreError::DiskIo,
                StoreError::Busy,
            ]
        };
        let named = |message: &str| {
            message
                .split_whitespace()
                .any(|word| word == "zayavka" || word.starts_with("--") || word == "drafts")
        };
        // The store's own sentences do name them (the CLI shows them), so this test would
        // catch the app showing them as they are.
        assert!(named(&StoreError::Corrupt.message_ru()));
        for (store, wrapped) in failures().into_iter().zip(failures()) {
            for error in [
                CommandError::from(store),
                CommandError::from(DraftsError::Store(wrapped)),
            ] {
                assert_eq!(error.kind, ErrorKind::Store);
                assert!(!named(&error.message), "{}", error.message);
                assert!(!error.message.contains("zayavka "), "{}", error.message);
            }
        }
        for code in [
            StoreErrorCode::Corrupt,
            StoreErrorCode::NotOurDatabase,
            StoreErrorCode::ForeignSchema,
        ] {
            let message = app_store_message(code).unwrap();
            assert!(message.contains("«Настройки» → «Данные»"), "{message}");
            assert!(message.contains("«Восстановить"), "{message}");
        }
    }

    #[test]
    fn sentences_start_upper_case_and_end_with_a_stop() {
        assert_eq!(sentence("файл не найден"), "Файл не найден.");
        assert_eq!(sentence("Готово!"), "Готово!");
        assert_eq!(sentence("  "), "");
    }
}
