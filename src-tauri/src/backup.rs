//! «Данные» in «Настройки» (issue 31, item 3): a backup of the drafts database, a backup put
//! back in its place, and a damaged database recovered — the same engine calls as `zayavka
//! drafts backup`, `restore --replace` and `recover` followed by `restore --replace`, with the
//! same guarantees: a backup is whole or not written, nothing is written over a file, and the
//! database that was in place is always kept beside under another name, never deleted.
//!
//! The engine opens the database afresh for every command, so a restore needs no restart; only
//! a draft or a batch running at that moment would still write to the database it opened, and
//! while one runs nothing is replaced.

use std::path::{Path, PathBuf};

use serde::Serialize;
use zayavka_engine::{EngineError, StoreErrorCode};

use crate::error::{CommandError, ErrorKind};
use crate::state::AppState;

/// What a backup wrote.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, ts_rs::TS)]
pub struct BackupView {
    /// The backup file.
    pub file: String,
    /// What happened and where the file is, in Russian.
    pub message: String,
}

/// What a restore or a recovery put in place.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, ts_rs::TS)]
pub struct RestoredView {
    /// The drafts in the database now in place.
    pub drafts: usize,
    /// Where the database that was in place is kept, under its new name; `None` when there was
    /// none.
    pub set_aside: Option<String>,
    /// For a recovery: the new database the readable drafts were first copied into, which
    /// stays where it is as one more copy.
    pub recovered: Option<String>,
    /// For a recovery: whether damaged places were met, so that some records may be missing.
    pub damage_found: bool,
    /// What happened and where the files are, in Russian.
    pub message: String,
}

/// The name the save dialog offers: «Заявка-резервная-копия-ГГГГ-ММ-ДД.sqlite3», dated today.
pub fn backup_file_name(state: &AppState) -> Result<String, CommandError> {
    Ok(format!(
        "Заявка-резервная-копия-{}.sqlite3",
        state.today()?.strftime("%Y-%m-%d")
    ))
}

/// Writes a consistent copy of the whole drafts database to `target`, which must not exist:
/// the copy is whole, or nothing is left at `target`.
pub fn data_backup(state: &AppState, target: &Path) -> Result<BackupView, CommandError> {
    state.engine.backup_drafts(target)?;
    Ok(BackupView {
        file: target.display().to_string(),
        message: format!(
            "Резервная копия черновиков записана в файл {}. Храните её отдельно от компьютера, \
             например на флешке: если база черновиков повредится, её можно будет вернуть \
             кнопкой «Восстановить из резервной копии».",
            target.display()
        ),
    })
}

/// Puts the backup `file` (one the resident chose in this session's open dialog) in place of
/// the drafts database; the database that was there is kept beside it under another name.
pub fn data_restore(state: &AppState, file: &Path) -> Result<RestoredView, CommandError> {
    if !state.was_chosen(file) {
        return Err(CommandError::invalid_argument("файл резервной копии"));
    }
    refuse_while_busy(state)?;
    let restored = state
        .engine
        .restore_drafts(file, true)
        .map_err(|error| backup_not_usable(file, &error).unwrap_or_else(|| error.into()))?;
    let set_aside = restored.set_aside.map(|path| path.display().to_string());
    let mut message = format!(
        "Черновики восстановлены из файла {}: {}.",
        file.display(),
        drafts_count(restored.drafts)
    );
    if let Some(aside) = &set_aside {
        message.push_str(&format!(
            " Прежняя база черновиков не удалена: она сохранена рядом как {aside}."
        ));
    }
    Ok(RestoredView {
        drafts: restored.drafts,
        set_aside,
        recovered: None,
        damage_found: false,
        message,
    })
}

/// Copies whatever can still be read of the drafts database into a new database beside it,
/// then puts that one in place; the damaged database is kept beside, byte for byte, under
/// another name. When no draft could be read, nothing is replaced.
pub fn data_recover(state: &AppState) -> Result<RestoredView, CommandError> {
    refuse_while_busy(state)?;
    let recovered = state.engine.recover_drafts(None)?;
    if recovered.drafts == 0 && recovered.damage_found {
        return Err(CommandError::new(
            ErrorKind::Store,
            "Ни одного черновика из повреждённой базы прочитать не удалось, поэтому она не \
             заменена и не изменена. Если у вас есть резервная копия, нажмите «Восстановить \
             из резервной копии».",
        ));
    }
    let restored = state
        .engine
        .restore_drafts(&recovered.file, true)
        .map_err(|error| {
            CommandError::new(
                ErrorKind::Store,
                format!(
                    "Всё, что удалось прочитать, записано в новую базу {}, но поставить её на \
                     место не удалось; прежняя база не изменена. {}",
                    recovered.file.display(),
                    crate::error::message(&error)
                ),
            )
        })?;
    let set_aside = restored.set_aside.map(|path| path.display().to_string());
    let mut message = format!(
        "Спасено черновиков: {}. Теперь приложение работает с ними.",
        restored.drafts
    );
    if let Some(aside) = &set_aside {
        message.push_str(&format!(
            " Повреждённая база не удалена и не изменена: она сохранена рядом как {aside}."
        ));
    }
    if recovered.damage_found {
        message.push_str(
            " В базе нашлись повреждённые места: записи, которые в них были, прочитать не \
             удалось. Если у вас есть резервная копия, сравните с ней.",
        );
    }
    Ok(RestoredView {
        drafts: restored.drafts,
        set_aside,
        recovered: Some(recovered.file.display().to_string()),
        damage_found: recovered.damage_found,
        message,
    })
}

/// A file chosen as a backup that is not one (another program's file, a damaged copy): the
/// app's own sentence, since the store's speaks of the database in place.
fn backup_not_usable(file: &Path, error: &impl EngineError) -> Option<CommandError> {
    let problem = match error.store_code()? {
        // The store's own sentence names the file and what was wrong with it, in words the app
        // can show as they are (issue 37).
        StoreErrorCode::UnusableBackup => {
            return Some(CommandError::new(
                ErrorKind::Read,
                crate::error::sentence(&error.message_ru()),
            ));
        }
        StoreErrorCode::NotOurDatabase => {
            "это не резервная копия Заявки: файл повреждён или \
                                           принадлежит другой программе"
        }
        StoreErrorCode::Corrupt => "эта резервная копия повреждена: часть записей не читается",
        _ => return None,
    };
    Some(CommandError::new(
        ErrorKind::Read,
        format!(
            "Файл {} не подходит: {problem}. Ничего не заменено, база черновиков прежняя. \
             Выберите другую копию.",
            file.display()
        ),
    ))
}

/// Nothing is replaced while a draft or a batch runs: it would go on writing to the database
/// it opened, which the replacement moves aside.
fn refuse_while_busy(state: &AppState) -> Result<(), CommandError> {
    if state.has_running_tasks() {
        return Err(CommandError::new(
            ErrorKind::Store,
            "Сейчас составляется заявка или обрабатывается пакет, и база черновиков занята. \
             Ничего не заменено. Дождитесь окончания (или остановите его) и повторите.",
        ));
    }
    Ok(())
}

/// «1 черновик», «3 черновика», «5 черновиков».
fn drafts_count(count: usize) -> String {
    let word = match (count % 10, count % 100) {
        (1, 11) | (_, 12..=14) => "черновиков",
        (1, _) => "черновик",
        (2..=4, _) => "черновика",
        _ => "черновиков",
    };
    format!("{count} {word}")
}

/// The file the open dialog gave, as the page will send it back.
pub fn chosen_backup(state: &AppState, path: PathBuf) -> String {
    let shown = path.display().to_string();
    state.remember_chosen(path);
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_take_the_russian_plural() {
        let words: Vec<String> = [0, 1, 2, 5, 11, 12, 21, 22, 25, 111, 1001]
            .into_iter()
            .map(drafts_count)
            .collect();
        assert_eq!(
            words,
            [
                "0 черновиков",
                "1 черновик",
                "2 черновика",
                "5 черновиков",
                "11 черновиков",
                "12 черновиков",
                "21 черновик",
                "22 черновика",
                "25 черновиков",
                "111 черновиков",
                "1001 черновик"
            ]
        );
    }
}
