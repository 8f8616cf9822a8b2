//! The new-request form as the resident is typing it, kept on disk after every pause in typing,
//! so that closing the app, a crash or a power cut loses nothing (UI.md).
//!
//! One file, `form.json` in the data folder, replaced atomically: a temporary file in the same
//! folder is written, flushed to disk and renamed over the old one, so a kill at any moment
//! leaves either the previous text or the new one, never half of either. A file that cannot be
//! read back is moved aside (never overwritten) and reported, so that even then nothing typed
//! is destroyed.

use std::path::{Path, PathBuf};

use zayavka_core::RawInput;

use crate::paths::{Paths, io_error_ru};

/// The file's name in the data folder.
pub const FORM_FILE: &str = "form.json";

/// The largest form file read back: far above what anyone types into four fields, so that a
/// text longer than the limits is still kept whole, and small enough that a stray huge file
/// does not stall the start of the app.
pub const FORM_MAX_BYTES: u64 = 4 * 1024 * 1024;

/// The form could not be kept or read back.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FormError {
    /// Writing the file failed.
    #[error(
        "не удалось сохранить набранный текст в папке {}: {}. Не закрывайте приложение: \
         освободите место на диске или проверьте права на папку, и текст сохранится при \
         следующем изменении",
        .dir.display(),
        io_error_ru(.source)
    )]
    Write {
        /// The folder.
        dir: PathBuf,
        /// What the operating system said.
        #[source]
        source: std::io::Error,
    },
    /// Reading the file failed.
    #[error("не удалось прочитать сохранённый текст формы {}: {}", .path.display(), io_error_ru(.source))]
    Read {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        #[source]
        source: std::io::Error,
    },
    /// The form holds more text than is kept (several megabytes: a paste gone wrong).
    #[error(
        "в форме слишком много текста, чтобы его сохранить (больше 4 МБ); сохранена прошлая \
         версия. Удалите лишнее из полей формы"
    )]
    TooLarge,
    /// The file is there but does not hold a form; it was moved aside to `kept`.
    #[error(
        "сохранённый текст формы повреждён, поэтому форма открыта пустой. Файл не удалён: он \
         перенесён в {}, откройте его в текстовом редакторе, чтобы взять оттуда текст",
        .kept.display()
    )]
    Damaged {
        /// Where the damaged file now is.
        kept: PathBuf,
    },
}

impl FormError {
    /// What happened and what to do, in Russian.
    pub fn message_ru(&self) -> String {
        let text = self.to_string();
        let mut chars = text.chars();
        match chars.next() {
            Some(first) => first.to_uppercase().chain(chars).collect::<String>() + ".",
            None => text,
        }
    }
}

fn form_file(paths: &Paths) -> PathBuf {
    paths.data_dir().join(FORM_FILE)
}

/// Keeps the form as it is now, replacing what was kept before.
pub fn save(paths: &Paths, input: &RawInput) -> Result<(), FormError> {
    let dir = paths.data_dir();
    let fail = |source| FormError::Write {
        dir: dir.to_owned(),
        source,
    };
    crate::draft::private_dir(dir).map_err(fail)?;
    let json = serde_json::to_string_pretty(input).expect("a raw input serialises");
    if json.len() as u64 > FORM_MAX_BYTES {
        // Kept, it would not read back; the last text that fits stays kept instead.
        return Err(FormError::TooLarge);
    }
    crate::paths::replace_file(&form_file(paths), format!("{json}\n").as_bytes()).map_err(fail)
}

/// The form as it was last kept, or `None` when nothing was kept or every field was empty.
pub fn restore(paths: &Paths) -> Result<Option<RawInput>, FormError> {
    let path = form_file(paths);
    let bytes = match read_capped(&path) {
        Ok(Some(bytes)) => bytes,
        Ok(None) => return Ok(None),
        Err(source) => return Err(FormError::Read { path, source }),
    };
    match serde_json::from_slice::<RawInput>(&bytes) {
        Ok(input) if is_empty(&input) => Ok(None),
        Ok(input) => Ok(Some(input)),
        Err(_) => Err(move_aside(&path)),
    }
}

fn is_empty(input: &RawInput) -> bool {
    [
        &input.description,
        &input.location,
        &input.consequences,
        &input.desired_actions,
        &input.confirmed_subject,
    ]
    .iter()
    .all(|field| field.is_none())
}

/// The file's bytes; `None` when there is no file. A file larger than [`FORM_MAX_BYTES`] is
/// treated as damaged (read as invalid JSON), so it is moved aside like any other.
fn read_capped(path: &Path) -> std::io::Result<Option<Vec<u8>>> {
    use std::io::Read as _;
    let file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(error),
    };
    let metadata = file.metadata()?;
    if !metadata.is_file() {
        return Err(std::io::Error::other("это не обычный файл"));
    }
    let mut bytes = Vec::new();
    file.take(FORM_MAX_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > FORM_MAX_BYTES {
        bytes.clear();
    }
    Ok(Some(bytes))
}

fn move_aside(path: &Path) -> FormError {
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let kept = path.with_file_name(format!("form-damaged-{stamp}.json"));
    match std::fs::rename(path, &kept) {
        Ok(()) => FormError::Damaged { kept },
        Err(source) => FormError::Read {
            path: path.to_owned(),
            source,
        },
    }
}

impl crate::error::EngineError for FormError {
    fn kind(&self) -> crate::error::ErrorKind {
        crate::error::ErrorKind::Form
    }

    fn message_ru(&self) -> String {
        FormError::message_ru(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typed(description: &str) -> RawInput {
        RawInput {
            description: Some(description.to_owned()),
            location: None,
            consequences: Some("Темно".to_owned()),
            desired_actions: None,
            confirmed_subject: Some("common_area_premises_lighting".to_owned()),
        }
    }

    #[test]
    fn nothing_kept_restores_nothing() {
        let home = tempfile::tempdir().unwrap();
        assert_eq!(restore(&Paths::under(home.path())).unwrap(), None);
    }

    #[test]
    fn the_latest_form_comes_back_exactly() {
        let home = tempfile::tempdir().unwrap();
        let paths = Paths::under(home.path());
        save(&paths, &typed("Первый вариант")).unwrap();
        // Text beyond every limit, invisible characters and line breaks are kept as typed.
        let long = format!("В подъезде\u{200b} не горит свет.\r\n{}", "ё".repeat(5_000));
        save(&paths, &typed(&long)).unwrap();
        assert_eq!(restore(&paths).unwrap(), Some(typed(&long)));
        let names: Vec<String> = std::fs::read_dir(paths.data_dir())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, [FORM_FILE], "no temporary file is left behind");
    }

    #[test]
    fn an_emptied_form_restores_nothing() {
        let home = tempfile::tempdir().unwrap();
        let paths = Paths::under(home.path());
        save(&paths, &typed("Свет")).unwrap();
        save(&paths, &RawInput::default()).unwrap();
        assert_eq!(restore(&paths).unwrap(), None);
    }

    #[test]
    fn a_damaged_file_is_moved_aside_not_destroyed() {
        let home = tempfile::tempdir().unwrap();
        let paths = Paths::under(home.path());
        std::fs::create_dir_all(paths.data_dir()).unwrap();
        std::fs::write(form_file(&paths), "{\"description\": \"обрыв").unwrap();
        let error = restore(&paths).unwrap_err();
        let FormError::Damaged { kept } = &error else {
            panic!("{error:?}");
        };
        assert_eq!(
            std::fs::read_to_string(kept).unwrap(),
            "{\"description\": \"обрыв"
        );
        assert!(
            error
                .message_ru()
                .starts_with("Сохранённый текст формы повреждён")
        );
        // The next save starts a fresh file and the damaged one stays.
        save(&paths, &typed("Новый текст")).unwrap();
        assert!(kept.exists());
        assert_eq!(restore(&paths).unwrap(), Some(typed("Новый текст")));
    }

    #[test]
    fn a_form_too_large_to_read_back_is_not_kept_over_the_last_one() {
        let home = tempfile::tempdir().unwrap();
        let paths = Paths::under(home.path());
        save(&paths, &typed("Было")).unwrap();
        let huge = "я".repeat(FORM_MAX_BYTES as usize / 2 + 1);
        let error = save(&paths, &typed(&huge)).unwrap_err();
        assert!(matches!(error, FormError::TooLarge));
        assert!(
            error
                .message_ru()
                .starts_with("В форме слишком много текста")
        );
        assert_eq!(restore(&paths).unwrap(), Some(typed("Было")));
    }

    #[test]
    fn a_form_with_unknown_fields_is_damaged() {
        let home = tempfile::tempdir().unwrap();
        let paths = Paths::under(home.path());
        std::fs::create_dir_all(paths.data_dir()).unwrap();
        std::fs::write(form_file(&paths), "[1, 2]").unwrap();
        assert!(matches!(restore(&paths), Err(FormError::Damaged { .. })));
    }

    #[cfg(unix)]
    #[test]
    fn a_read_only_folder_is_reported_in_russian() {
        use std::os::unix::fs::PermissionsExt as _;
        let home = tempfile::tempdir().unwrap();
        let paths = Paths::under(home.path());
        save(&paths, &typed("Было")).unwrap();
        std::fs::set_permissions(paths.data_dir(), std::fs::Permissions::from_mode(0o500)).unwrap();
        let result = save(&paths, &typed("Стало"));
        std::fs::set_permissions(paths.data_dir(), std::fs::Permissions::from_mode(0o700)).unwrap();
        // Root ignores permissions; the check only means something for other users.
        if let Err(error) = result {
            let message = error.message_ru();
            assert!(
                message.starts_with("Не удалось сохранить набранный текст"),
                "{message}"
            );
            assert_eq!(restore(&paths).unwrap(), Some(typed("Было")));
        }
    }
}
