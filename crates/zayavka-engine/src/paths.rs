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
///
/// On Windows a name that Windows would not keep as typed is refused before anything is written
/// ([`windows_name_problem`]), and a file that another program holds open (a document open in
/// Word, say) is reported as busy ([`std::io::ErrorKind::ResourceBusy`]): the old file stays whole
/// and no temporary file is left behind.
pub fn replace_file(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    use std::io::Write as _;
    if cfg!(windows)
        && let Some(problem) = path
            .file_name()
            .and_then(|name| windows_name_problem(&name.to_string_lossy()))
    {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidFilename,
            problem,
        ));
    }
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
    temporary
        .persist(path)
        .map_err(|error| held_by_another_program(path, error.error))?;
    // Windows has no call to flush a folder; its rename is already durable.
    #[cfg(unix)]
    if let Ok(folder) = std::fs::File::open(dir) {
        let _ = folder.sync_all();
    }
    Ok(())
}

/// Windows refuses to replace a file that another program has open without sharing it for
/// deletion (Word, Excel, many PDF viewers) with «access denied», «sharing violation» or «lock
/// violation». The temporary file was just written in the same folder, so the folder itself
/// takes writes: the file is busy, or marked read-only.
fn held_by_another_program(path: &Path, error: std::io::Error) -> std::io::Error {
    const ACCESS_DENIED: i32 = 5;
    const SHARING_VIOLATION: i32 = 32;
    const LOCK_VIOLATION: i32 = 33;
    const USER_MAPPED_FILE: i32 = 1224;
    let held = cfg!(windows)
        && path.exists()
        && matches!(
            error.raw_os_error(),
            Some(ACCESS_DENIED | SHARING_VIOLATION | LOCK_VIOLATION | USER_MAPPED_FILE)
        );
    if !held {
        return error;
    }
    let code = error.raw_os_error().unwrap_or_default();
    std::io::Error::new(
        std::io::ErrorKind::ResourceBusy,
        format!(
            "файл открыт в другой программе (например, в Word или в программе просмотра PDF) \
             или помечен «только для чтения»: закройте его там или снимите этот флажок в его \
             свойствах и повторите; прежний файл не изменён (код ошибки системы: {code})"
        ),
    )
}

/// Why Windows would not keep a file under `name` as typed, in Russian, or `None`: a device
/// name (`CON`, `PRN`, `AUX`, `NUL`, `COM1`–`COM9`, `LPT1`–`LPT9`, with any extension), a
/// character Windows forbids in names (`<>:"/\|?*` and control characters), or a trailing dot or
/// space, which Windows silently drops (the resident would find the file under another name).
pub fn windows_name_problem(name: &str) -> Option<String> {
    const FORBIDDEN: &[char] = &['<', '>', ':', '"', '/', '\\', '|', '?', '*'];
    if let Some(c) = name
        .chars()
        .find(|c| FORBIDDEN.contains(c) || c.is_control())
    {
        let shown = if c.is_control() {
            "управляющий символ".to_owned()
        } else {
            format!("«{c}»")
        };
        return Some(format!(
            "в имени файла «{name}» есть {shown}, а Windows не разрешает в именах символы \
             < > : \" / \\ | ? * — выберите другое имя"
        ));
    }
    if name.ends_with(['.', ' ']) {
        return Some(format!(
            "имя файла «{name}» кончается точкой или пробелом, которые Windows отбрасывает — \
             уберите их или допишите расширение, например .pdf"
        ));
    }
    let stem = name.split('.').next().unwrap_or(name).trim_end();
    let upper = stem.to_uppercase();
    let device = matches!(upper.as_str(), "CON" | "PRN" | "AUX" | "NUL")
        || ((upper.starts_with("COM") || upper.starts_with("LPT"))
            && upper.len() == 4
            && upper[3..].chars().all(|c| ('1'..='9').contains(&c)));
    device.then(|| {
        format!(
            "имя «{name}» Windows оставляет за устройством {upper} и не даёт так назвать файл — \
             выберите другое имя, например «заявка-{stem}»"
        )
    })
}

/// What an operating-system error while creating or writing something means, in Russian, by
/// its cause: a read-only or full disk, missing rights, a file where a folder should be.
pub fn io_error_ru(error: &std::io::Error) -> String {
    use std::io::ErrorKind;
    // An error this module made has its Russian reason inside (a busy file, a Windows name).
    if error.raw_os_error().is_none()
        && matches!(
            error.kind(),
            ErrorKind::ResourceBusy | ErrorKind::InvalidFilename
        )
        && let Some(reason) = error.get_ref()
    {
        return reason.to_string();
    }
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

    #[test]
    fn names_windows_would_not_keep_are_explained() {
        for name in ["CON", "con.pdf", "Nul.txt", "COM1.docx", "lpt9", "aux .pdf"] {
            let problem = windows_name_problem(name).unwrap_or_else(|| panic!("{name}"));
            assert!(problem.contains("устройством"), "{problem}");
        }
        for name in [
            "заявка?.pdf",
            "a<b.txt",
            "двоеточие:.pdf",
            "кавычка\".txt",
            "tab\t.txt",
        ] {
            let problem = windows_name_problem(name).unwrap_or_else(|| panic!("{name}"));
            assert!(problem.contains("не разрешает"), "{problem}");
        }
        for name in ["заявка.", "заявка.pdf ", "заявка..."] {
            let problem = windows_name_problem(name).unwrap_or_else(|| panic!("{name}"));
            assert!(problem.contains("точкой или пробелом"), "{problem}");
        }
        for name in [
            "заявка.pdf",
            "CONSOLE.pdf",
            "COM10.txt",
            "Заявка-12.docx",
            ".config",
            "nul-и-ноль.txt",
        ] {
            assert_eq!(windows_name_problem(name), None, "{name}");
        }
    }

    /// Windows only: a file another program holds open without sharing it for deletion, as
    /// Word does, is reported as busy in Russian; the old file stays whole and no temporary
    /// file is left beside it.
    #[cfg(windows)]
    #[test]
    fn a_file_another_program_holds_open_is_reported_as_busy_and_kept_whole() {
        use std::os::windows::fs::OpenOptionsExt as _;
        const FILE_SHARE_READ: u32 = 1;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("заявка.txt");
        std::fs::write(&path, "прежний текст").unwrap();
        let held = std::fs::OpenOptions::new()
            .read(true)
            .share_mode(FILE_SHARE_READ)
            .open(&path)
            .unwrap();
        let error = replace_file(&path, b"new").unwrap_err();
        assert_eq!(error.kind(), std::io::ErrorKind::ResourceBusy, "{error:?}");
        let message = io_error_ru(&error);
        assert!(message.contains("открыт в другой программе"), "{message}");
        assert!(message.contains("прежний файл не изменён"), "{message}");
        drop(held);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "прежний текст");
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "{left:?}");
        replace_file(&path, b"new").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
    }

    /// Windows only: a device name or a trailing dot is refused before anything is written.
    #[cfg(windows)]
    #[test]
    fn a_name_windows_would_not_keep_is_refused_before_writing() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["CON.txt", "заявка.", "NUL"] {
            let error = replace_file(&dir.path().join(name), b"text").unwrap_err();
            assert_eq!(error.kind(), std::io::ErrorKind::InvalidFilename, "{name}");
            let message = io_error_ru(&error);
            assert!(message.contains(name), "{message}");
        }
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
