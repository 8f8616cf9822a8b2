//! Where Zayavka keeps its configuration, data and logs.
//!
//! Two layouts exist. With `ZAYAVKA_HOME=DIR` everything lives under one folder, which is what
//! tests, portable installs and servers want:
//!
//! ```text
//! DIR/config.toml
//! DIR/data/zayavka.sqlite3
//! DIR/data/pending/
//! DIR/logs/
//! ```
//!
//! Otherwise the operating system's conventions apply through [`directories::ProjectDirs`]
//! (on Linux `~/.config/zayavka`, `~/.local/share/zayavka` and `~/.local/state/zayavka/logs`).
//!
//! Resolving never touches the disk; [`Paths::ensure_dirs`] creates the folders when a caller is
//! about to write. Keeping the two apart lets `zayavka config path` answer on a read-only system.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use zayavka_codes::stable_codes;

/// The environment variable that puts config, data and logs under one folder.
pub const ZAYAVKA_HOME_VARIABLE: &str = "ZAYAVKA_HOME";

/// The configuration file's name inside the configuration folder.
pub const CONFIG_FILE_NAME: &str = "config.toml";

/// The database file's name inside the data folder.
pub const DATABASE_FILE_NAME: &str = "zayavka.sqlite3";

/// How the folders were chosen; shown by `zayavka config show` so a surprise is explainable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PathsOrigin {
    /// `ZAYAVKA_HOME` named the folder.
    Environment,
    /// A caller named the folder with [`Paths::under`].
    Explicit,
    /// The operating system's per-user conventions.
    OperatingSystem,
}

/// The resolved folders and files of one Zayavka installation.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Paths {
    origin: PathsOrigin,
    config_dir: PathBuf,
    data_dir: PathBuf,
    log_dir: PathBuf,
}

impl Paths {
    /// Resolves the folders from `ZAYAVKA_HOME`, falling back to the operating system's
    /// conventions when the variable is unset or empty.
    pub fn resolve() -> Result<Paths, PathsError> {
        Paths::resolve_from(std::env::var_os(ZAYAVKA_HOME_VARIABLE))
    }

    /// Resolves the folders from an explicit value of `ZAYAVKA_HOME`; the testable half of
    /// [`Paths::resolve`].
    pub fn resolve_from(zayavka_home: Option<OsString>) -> Result<Paths, PathsError> {
        match zayavka_home.filter(|value| !value.is_empty()) {
            Some(home) => {
                // A relative folder is anchored now, so a later change of the working directory
                // cannot split one installation across two places.
                let absolute = std::path::absolute(PathBuf::from(&home)).map_err(|error| {
                    PathsError::InvalidHome {
                        path: PathBuf::from(home),
                        detail: error.to_string(),
                    }
                })?;
                Ok(Paths {
                    origin: PathsOrigin::Environment,
                    ..Paths::under(absolute)
                })
            }
            None => Paths::from_operating_system(),
        }
    }

    /// Puts everything under `dir`, exactly as `ZAYAVKA_HOME=dir` would.
    pub fn under(dir: impl Into<PathBuf>) -> Paths {
        let dir = dir.into();
        Paths {
            origin: PathsOrigin::Explicit,
            config_dir: dir.clone(),
            data_dir: dir.join("data"),
            log_dir: dir.join("logs"),
        }
    }

    fn from_operating_system() -> Result<Paths, PathsError> {
        let project = directories::ProjectDirs::from("ru", "Zayavka", "zayavka")
            .ok_or(PathsError::NoHomeDirectory)?;
        // The database lives in the local (non-roaming) folder: Windows would otherwise copy a
        // SQLite file with its write-ahead log between machines at logon.
        let data_dir = project.data_local_dir().to_path_buf();
        // Only Linux has a separate state folder; elsewhere logs sit beside the data.
        let log_dir = project
            .state_dir()
            .unwrap_or(project.data_local_dir())
            .join("logs");
        Ok(Paths {
            origin: PathsOrigin::OperatingSystem,
            config_dir: project.config_dir().to_path_buf(),
            data_dir,
            log_dir,
        })
    }

    /// How these folders were chosen.
    pub fn origin(&self) -> PathsOrigin {
        self.origin
    }

    /// The folder that holds [`Paths::config_file`].
    pub fn config_dir(&self) -> &Path {
        &self.config_dir
    }

    /// The TOML configuration file; it may not exist yet.
    pub fn config_file(&self) -> PathBuf {
        self.config_dir.join(CONFIG_FILE_NAME)
    }

    /// The folder for the database and other resident data.
    pub fn data_dir(&self) -> &Path {
        &self.data_dir
    }

    /// The SQLite database file.
    pub fn database_file(&self) -> PathBuf {
        self.data_dir.join(DATABASE_FILE_NAME)
    }

    /// Where resident inputs that were not sent yet are kept, so a crash loses nothing typed.
    pub fn pending_dir(&self) -> PathBuf {
        self.data_dir.join("pending")
    }

    /// The folder for log files.
    pub fn log_dir(&self) -> &Path {
        &self.log_dir
    }

    /// Creates every folder that does not exist yet.
    ///
    /// On Unix new folders are private to the user (mode 0700) because the pending folder and the
    /// database hold residents' addresses and descriptions. Existing folders keep their mode.
    pub fn ensure_dirs(&self) -> Result<(), PathsError> {
        for dir in [
            self.config_dir.clone(),
            self.data_dir.clone(),
            self.pending_dir(),
            self.log_dir.clone(),
        ] {
            create_private_dir_all(&dir).map_err(|error| PathsError::CreateDir {
                path: dir.clone(),
                detail: io_error_ru(&error),
            })?;
        }
        Ok(())
    }
}

/// Replaces the file at `path` with `contents`, whole or not at all: a temporary file in the same
/// folder (a rename is atomic only within one file system) is written, flushed to disk and
/// renamed over the old one, and the folder is flushed so that the rename survives a power cut.
/// An existing file keeps its permissions; a new one is readable by its owner only. The folder
/// must exist.
pub fn replace_file(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    use std::io::Write as _;
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map_or_else(String::new, |name| name.to_string_lossy().into_owned());
    let mut temporary = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".tmp")
        .tempfile_in(dir)?;
    temporary.write_all(contents)?;
    if let Ok(metadata) = std::fs::metadata(path) {
        std::fs::set_permissions(temporary.path(), metadata.permissions())?;
    }
    temporary.as_file().sync_all()?;
    temporary.persist(path).map_err(|error| error.error)?;
    // Windows has no call to flush a folder; its rename is already durable.
    #[cfg(unix)]
    if let Ok(folder) = std::fs::File::open(dir) {
        let _ = folder.sync_all();
    }
    Ok(())
}

/// What an operating-system error while creating or writing something means, in Russian, by
/// its cause: a read-only or full disk, missing rights, a file where a folder should be.
pub fn io_error_ru(error: &std::io::Error) -> String {
    use std::io::ErrorKind;
    if error.raw_os_error() == Some(crate::read::ELOOP) {
        return format!(
            "путь ведёт по кругу через символические ссылки; укажите саму папку, а не ссылку \
             (код ошибки системы: {})",
            crate::read::ELOOP
        );
    }
    let reason = match error.kind() {
        ErrorKind::PermissionDenied => "нет прав на запись в эту папку",
        ErrorKind::ReadOnlyFilesystem => "диск или папка доступны только для чтения",
        ErrorKind::StorageFull | ErrorKind::QuotaExceeded => "на диске не осталось места",
        ErrorKind::NotADirectory | ErrorKind::AlreadyExists => {
            "на месте нужной папки лежит файл с тем же именем"
        }
        ErrorKind::NotFound => {
            "папка не найдена: если она на флешке или съёмном диске, проверьте, что он подключён"
        }
        ErrorKind::IsADirectory => "на месте файла лежит папка",
        ErrorKind::InvalidFilename | ErrorKind::InvalidInput => "недопустимое имя файла или папки",
        ErrorKind::FileTooLarge => "файл слишком большой для этого диска",
        _ => "ошибка записи на диск",
    };
    match error.raw_os_error() {
        Some(code) => format!("{reason} (код ошибки системы: {code})"),
        None => reason.to_owned(),
    }
}

/// Creates the folder documents are exported into when it is missing — that folder only, never
/// its parents. A path whose parent is gone is most often a removable disk that was pulled
/// out: creating the whole path again would write the resident's documents onto the system
/// disk, under the mount point, and report success.
pub fn create_output_dir(dir: &Path) -> std::io::Result<()> {
    match std::fs::create_dir(dir) {
        // Something is there: a folder is fine; for a link that leads nowhere or in a circle,
        // the reason it cannot be followed says more than «already exists».
        Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => {
            match std::fs::metadata(dir) {
                Ok(metadata) if metadata.is_dir() => Ok(()),
                Ok(_) => Err(error),
                Err(why) => Err(why),
            }
        }
        result => result,
    }
}

fn create_private_dir_all(dir: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder.create(dir)
}

/// Why the folders could not be resolved or created.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PathsError {
    /// The operating system reports no home folder for the user, and `ZAYAVKA_HOME` is unset.
    #[error("{}", self.message_ru())]
    NoHomeDirectory,
    /// `ZAYAVKA_HOME` names a folder that cannot be turned into an absolute path.
    #[error("{}", self.message_ru())]
    InvalidHome {
        /// The value of `ZAYAVKA_HOME`.
        path: PathBuf,
        /// The operating system's explanation.
        detail: String,
    },
    /// A folder could not be created.
    #[error("{}", self.message_ru())]
    CreateDir {
        /// The folder that could not be created.
        path: PathBuf,
        /// The operating system's explanation.
        detail: String,
    },
}

stable_codes! {
    /// The stable code of a [`PathsError`], under the `paths.` prefix.
    pub enum PathsErrorCode {
        /// `paths.no_home_directory`.
        NoHomeDirectory => "paths.no_home_directory",
        /// `paths.invalid_home`.
        InvalidHome => "paths.invalid_home",
        /// `paths.create_dir`.
        CreateDir => "paths.create_dir",
    }
}

impl PathsError {
    /// A stable machine-readable code for this error.
    pub fn code(&self) -> PathsErrorCode {
        match self {
            PathsError::NoHomeDirectory => PathsErrorCode::NoHomeDirectory,
            PathsError::InvalidHome { .. } => PathsErrorCode::InvalidHome,
            PathsError::CreateDir { .. } => PathsErrorCode::CreateDir,
        }
    }

    /// A Russian message for the resident that says what to do.
    pub fn message_ru(&self) -> String {
        match self {
            PathsError::NoHomeDirectory => format!(
                "Не удалось определить домашнюю папку пользователя. Укажите папку для настроек и \
                 данных в переменной окружения {ZAYAVKA_HOME_VARIABLE}."
            ),
            PathsError::InvalidHome { path, detail } => format!(
                "Переменная окружения {ZAYAVKA_HOME_VARIABLE} указывает на папку «{}», которую \
                 не удалось использовать ({detail}). Укажите другую папку.",
                path.display()
            ),
            PathsError::CreateDir { path, detail } => format!(
                "Не удалось создать папку «{}» ({detail}). Проверьте права доступа или укажите \
                 другую папку в переменной окружения {ZAYAVKA_HOME_VARIABLE}.",
                path.display()
            ),
        }
    }
}

impl crate::error::EngineError for PathsError {
    fn kind(&self) -> crate::error::ErrorKind {
        match self {
            // The data folder could not be made: a full or read-only disk, a refused folder.
            PathsError::CreateDir { .. } => crate::error::ErrorKind::Write,
            PathsError::NoHomeDirectory | PathsError::InvalidHome { .. } => {
                crate::error::ErrorKind::Config
            }
        }
    }

    fn message_ru(&self) -> String {
        PathsError::message_ru(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zayavka_home_puts_everything_under_one_folder() {
        let home = tempfile::tempdir().unwrap();
        let paths = Paths::resolve_from(Some(home.path().as_os_str().to_owned())).unwrap();
        assert_eq!(paths.origin(), PathsOrigin::Environment);
        assert_eq!(paths.config_file(), home.path().join("config.toml"));
        assert_eq!(paths.data_dir(), home.path().join("data"));
        assert_eq!(
            paths.database_file(),
            home.path().join("data").join("zayavka.sqlite3")
        );
        assert_eq!(
            paths.pending_dir(),
            home.path().join("data").join("pending")
        );
        assert_eq!(paths.log_dir(), home.path().join("logs"));
    }

    #[test]
    fn relative_zayavka_home_is_anchored_to_the_working_directory() {
        let paths = Paths::resolve_from(Some("relative-home".into())).unwrap();
        assert!(paths.config_dir().is_absolute());
        assert!(paths.config_dir().ends_with("relative-home"));
    }

    #[test]
    fn empty_zayavka_home_means_the_operating_system_folders() {
        // A home folder exists on every machine that runs the test suite.
        let paths = Paths::resolve_from(Some(OsString::new())).unwrap();
        assert_eq!(paths.origin(), PathsOrigin::OperatingSystem);
        assert!(paths.config_file().ends_with("config.toml"));
        assert!(paths.database_file().ends_with("zayavka.sqlite3"));
    }

    #[test]
    fn resolving_does_not_create_folders_but_ensure_dirs_does() {
        let home = tempfile::tempdir().unwrap();
        let paths = Paths::under(home.path().join("nested"));
        assert!(!paths.config_dir().exists());
        paths.ensure_dirs().unwrap();
        assert!(paths.config_dir().is_dir());
        assert!(paths.pending_dir().is_dir());
        assert!(paths.log_dir().is_dir());
        // Running it again on existing folders is harmless.
        paths.ensure_dirs().unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn created_folders_are_private_to_the_user() {
        use std::os::unix::fs::PermissionsExt;
        let home = tempfile::tempdir().unwrap();
        let paths = Paths::under(home.path().join("private"));
        paths.ensure_dirs().unwrap();
        let mode = std::fs::metadata(paths.pending_dir())
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o700);
    }

    #[test]
    fn create_failure_names_the_folder_in_russian() {
        let home = tempfile::tempdir().unwrap();
        let blocker = home.path().join("file");
        std::fs::write(&blocker, "not a folder").unwrap();
        let error = Paths::under(&blocker).ensure_dirs().unwrap_err();
        assert_eq!(error.code(), "paths.create_dir");
        assert!(error.to_string().contains("Не удалось создать папку"));
        assert!(error.to_string().contains(&blocker.display().to_string()));
    }
}
