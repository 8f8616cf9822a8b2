//! Reading the files a resident hands to Zayavka (`--input`, `--response`, a context record,
//! later batch files) so that an odd file fails fast and clearly instead of hanging, eating
//! memory or producing an English OS message.
//!
//! [`read_text_file`] looks at the file's metadata before opening it, so a FIFO, a socket, a
//! device or a folder is refused without blocking; it reads at most one byte more than the limit,
//! so `/dev/zero` behind a symbolic link or a file that grows while it is read cannot exhaust
//! memory; it strips one leading UTF-8 byte order mark (what Windows Notepad saves); and it tells
//! an encoding problem apart from a permissions problem, each with advice that fits its cause.

use std::fmt;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use zayavka_codes::stable_codes;

/// The UTF-8 byte order mark that Windows Notepad writes at the start of a file.
const UTF8_BOM: [u8; 3] = [0xEF, 0xBB, 0xBF];

/// What a file is for. It names the file in messages and carries the file's size limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FileRole {
    /// The resident's input: a JSON object with the request's fields (`--input`).
    Input,
    /// A saved model response: the model's JSON object or a whole chat-completions body
    /// (`--response`).
    ModelResponse,
    /// A context record written by `--record`.
    ContextRecord,
    /// A file with many requests for batch processing.
    Batch,
    /// A photo to attach to a draft.
    Photo,
    /// The text of a request filed before Zayavka (`drafts add --text-file`, issue 38).
    FiledText,
}

impl FileRole {
    /// The largest input file: the fields' limits in characters, times four bytes per character
    /// at worst, with room for JSON escapes, stay far below it.
    pub const INPUT_MAX_BYTES: u64 = 64 * 1024;
    /// The largest saved model response. A chat-completions body with reasoning text can be
    /// large, but a few megabytes is already far beyond any real answer.
    pub const MODEL_RESPONSE_MAX_BYTES: u64 = 8 * 1024 * 1024;
    /// The largest context record: it holds the prompt, every attempt and its (capped) bodies.
    pub const CONTEXT_RECORD_MAX_BYTES: u64 = 32 * 1024 * 1024;
    /// The largest batch file.
    pub const BATCH_MAX_BYTES: u64 = 256 * 1024 * 1024;
    /// The largest photo file (ADR 18). Phone photos are 2–10 MB; 15 MB leaves room for a
    /// 50-megapixel camera's JPEG and keeps a draft of ten photos within 150 MB of database.
    pub const PHOTO_MAX_BYTES: u64 = 15 * 1024 * 1024;

    /// The size limit for a file in this role, in bytes.
    pub const fn max_bytes(self) -> u64 {
        match self {
            FileRole::Input => Self::INPUT_MAX_BYTES,
            FileRole::ModelResponse => Self::MODEL_RESPONSE_MAX_BYTES,
            FileRole::ContextRecord => Self::CONTEXT_RECORD_MAX_BYTES,
            FileRole::Batch => Self::BATCH_MAX_BYTES,
            FileRole::Photo => Self::PHOTO_MAX_BYTES,
            // A request's text is at most 2000 characters; a file of a few of them is plenty.
            FileRole::FiledText => Self::INPUT_MAX_BYTES,
        }
    }

    /// The file's name in a Russian message, in a form that fits «не удалось прочитать …».
    pub const fn label_ru(self) -> &'static str {
        match self {
            FileRole::Input => "файл с данными заявки",
            FileRole::ModelResponse => "файл с ответом модели",
            FileRole::ContextRecord => "файл записи",
            FileRole::Batch => "файл с пакетом заявок",
            FileRole::Photo => "файл с фотографией",
            FileRole::FiledText => "файл с текстом заявки",
        }
    }
}

/// What kind of thing other than a regular file a path names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum SpecialFileKind {
    /// A named pipe (FIFO); opening it for reading would wait for a writer.
    Fifo,
    /// A Unix domain socket.
    Socket,
    /// A character device such as `/dev/zero` or a terminal.
    CharacterDevice,
    /// A block device such as a disk.
    BlockDevice,
    /// Something else that is neither a file nor a folder.
    Other,
}

impl SpecialFileKind {
    fn of(file_type: std::fs::FileType) -> SpecialFileKind {
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt as _;
            if file_type.is_fifo() {
                return SpecialFileKind::Fifo;
            }
            if file_type.is_socket() {
                return SpecialFileKind::Socket;
            }
            if file_type.is_char_device() {
                return SpecialFileKind::CharacterDevice;
            }
            if file_type.is_block_device() {
                return SpecialFileKind::BlockDevice;
            }
        }
        let _ = file_type;
        SpecialFileKind::Other
    }

    fn description_ru(self) -> &'static str {
        match self {
            SpecialFileKind::Fifo => "это именованный канал (FIFO), а не обычный файл",
            SpecialFileKind::Socket => "это сокет, а не обычный файл",
            SpecialFileKind::CharacterDevice | SpecialFileKind::BlockDevice => {
                "это устройство, а не обычный файл"
            }
            SpecialFileKind::Other => "это не обычный файл",
        }
    }
}

/// Why a file could not be read. Every variant names the file and its role; [`ReadError::message_ru`]
/// says in Russian what happened and what to do.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReadError {
    /// Nothing exists at the path.
    #[error("{}", self.message_ru())]
    NotFound {
        /// The path as given.
        path: PathBuf,
        /// What the file was for.
        role: FileRole,
    },
    /// The operating system refused access to the file or to a folder on its path.
    #[error("{}", self.message_ru())]
    PermissionDenied {
        /// The path as given.
        path: PathBuf,
        /// What the file was for.
        role: FileRole,
    },
    /// The path names a folder.
    #[error("{}", self.message_ru())]
    IsDirectory {
        /// The path as given.
        path: PathBuf,
        /// What the file was for.
        role: FileRole,
    },
    /// The path names a FIFO, a socket, a device or another special file. It is refused before
    /// opening, so reading never blocks.
    #[error("{}", self.message_ru())]
    NotRegularFile {
        /// The path as given.
        path: PathBuf,
        /// What the file was for.
        role: FileRole,
        /// What the path names instead.
        kind: SpecialFileKind,
    },
    /// The file is larger than the role allows.
    #[error("{}", self.message_ru())]
    TooLarge {
        /// The path as given.
        path: PathBuf,
        /// What the file was for.
        role: FileRole,
        /// The limit that applied, in bytes.
        max_bytes: u64,
        /// The file's size as the file system reported it, when that size was over the limit;
        /// `None` when the file only turned out to be larger while it was read.
        actual_bytes: Option<u64>,
    },
    /// The file starts with a UTF-16 byte order mark (Notepad's «Юникод» encoding).
    #[error("{}", self.message_ru())]
    Utf16 {
        /// The path as given.
        path: PathBuf,
        /// What the file was for.
        role: FileRole,
    },
    /// The file's bytes are not valid UTF-8.
    #[error("{}", self.message_ru())]
    NotUtf8 {
        /// The path as given.
        path: PathBuf,
        /// What the file was for.
        role: FileRole,
        /// The offset of the first invalid byte from the start of the file (the byte order mark
        /// included), counting from zero.
        byte_offset: u64,
    },
    /// Another error from the operating system.
    #[error("{}", self.message_ru())]
    Os {
        /// The path as given.
        path: PathBuf,
        /// What the file was for.
        role: FileRole,
        /// The error's kind, which chooses the explanation.
        kind: std::io::ErrorKind,
        /// The operating system's error number, when there is one.
        code: Option<i32>,
    },
}

stable_codes! {
    /// The stable code of a [`ReadError`], for a front end or a test.
    pub enum ReadErrorCode {
        /// `not_found`.
        NotFound => "not_found",
        /// `permission_denied`.
        PermissionDenied => "permission_denied",
        /// `is_directory`.
        IsDirectory => "is_directory",
        /// `not_regular_file`.
        NotRegularFile => "not_regular_file",
        /// `too_large`.
        TooLarge => "too_large",
        /// `utf16`.
        Utf16 => "utf16",
        /// `not_utf8`.
        NotUtf8 => "not_utf8",
        /// `os_error`.
        OsError => "os_error",
    }
}

impl ReadError {
    /// A stable code for this kind of failure, for a front end or a test.
    pub fn code(&self) -> ReadErrorCode {
        match self {
            ReadError::NotFound { .. } => ReadErrorCode::NotFound,
            ReadError::PermissionDenied { .. } => ReadErrorCode::PermissionDenied,
            ReadError::IsDirectory { .. } => ReadErrorCode::IsDirectory,
            ReadError::NotRegularFile { .. } => ReadErrorCode::NotRegularFile,
            ReadError::TooLarge { .. } => ReadErrorCode::TooLarge,
            ReadError::Utf16 { .. } => ReadErrorCode::Utf16,
            ReadError::NotUtf8 { .. } => ReadErrorCode::NotUtf8,
            ReadError::Os { .. } => ReadErrorCode::OsError,
        }
    }

    /// The path the error is about.
    pub fn path(&self) -> &Path {
        match self {
            ReadError::NotFound { path, .. }
            | ReadError::PermissionDenied { path, .. }
            | ReadError::IsDirectory { path, .. }
            | ReadError::NotRegularFile { path, .. }
            | ReadError::TooLarge { path, .. }
            | ReadError::Utf16 { path, .. }
            | ReadError::NotUtf8 { path, .. }
            | ReadError::Os { path, .. } => path,
        }
    }

    /// What the file was for.
    pub fn role(&self) -> FileRole {
        match self {
            ReadError::NotFound { role, .. }
            | ReadError::PermissionDenied { role, .. }
            | ReadError::IsDirectory { role, .. }
            | ReadError::NotRegularFile { role, .. }
            | ReadError::TooLarge { role, .. }
            | ReadError::Utf16 { role, .. }
            | ReadError::NotUtf8 { role, .. }
            | ReadError::Os { role, .. } => *role,
        }
    }

    /// The message in Russian: which file, what happened, what to do. It starts with a lower-case
    /// letter so that a front end can put its own prefix («zayavka: ») before it.
    pub fn message_ru(&self) -> String {
        let file = format!(
            "не удалось прочитать {} «{}»",
            self.role().label_ru(),
            DisplayPath(self.path())
        );
        let reason = match self {
            ReadError::NotFound { .. } => "такого файла нет. Проверьте путь и имя файла; если \
                 файл на флешке, съёмном или сетевом диске, проверьте, что диск подключён"
                .to_owned(),
            ReadError::PermissionDenied { .. } => "нет прав на чтение этого файла. Проверьте \
                 права доступа или скопируйте файл в свою папку"
                .to_owned(),
            ReadError::IsDirectory { .. } => {
                "это папка, а не файл. Укажите путь к самому файлу".to_owned()
            }
            ReadError::NotRegularFile { kind, .. } => {
                format!("{}. Укажите обычный файл", kind.description_ru())
            }
            ReadError::TooLarge {
                max_bytes,
                actual_bytes,
                ..
            } => {
                let size = match actual_bytes {
                    Some(actual) => format!("его размер — {}", approximate_size(*actual)),
                    None => "он оказался больше допустимого".to_owned(),
                };
                format!(
                    "{size}, а можно не больше {}. Проверьте, тот ли это файл",
                    exact_size(*max_bytes)
                )
            }
            ReadError::Utf16 { .. } => {
                format!("файл в кодировке UTF-16 («Юникод»), а нужна UTF-8. {SAVE_AS_UTF8}")
            }
            ReadError::NotUtf8 { byte_offset, .. } => format!(
                "файл не в кодировке UTF-8 (первый неверный байт — на смещении {byte_offset} \
                 от начала файла). {SAVE_AS_UTF8}"
            ),
            ReadError::Os { kind, code, .. } => os_reason_ru(*kind, *code),
        };
        format!("{file}: {reason}.")
    }
}

impl crate::error::EngineError for ReadError {
    fn kind(&self) -> crate::error::ErrorKind {
        crate::error::ErrorKind::Read
    }

    fn message_ru(&self) -> String {
        ReadError::message_ru(self)
    }
}

/// The advice for a file in the wrong encoding; it ends without a full stop, like every reason.
const SAVE_AS_UTF8: &str =
    "Сохраните его как UTF-8: в Блокноте «Файл» → «Сохранить как» → «Кодировка: UTF-8»";

/// `ELOOP`: too many symbolic links on the path, almost always a link that leads back to
/// itself. The standard library has no stable `ErrorKind` for it yet.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(crate) const ELOOP: i32 = 40;
#[cfg(all(unix, not(any(target_os = "linux", target_os = "android"))))]
pub(crate) const ELOOP: i32 = 62;
/// Windows' `ERROR_CANT_RESOLVE_FILENAME`, its answer to a symbolic-link loop.
#[cfg(not(unix))]
pub(crate) const ELOOP: i32 = 1921;

/// Explains an operating-system error that has no variant of its own.
fn os_reason_ru(kind: std::io::ErrorKind, code: Option<i32>) -> String {
    use std::io::ErrorKind;
    if code == Some(ELOOP) {
        return format!(
            "путь ведёт по кругу через символические ссылки (ссылка указывает сама на себя или \
             на другую, которая ведёт обратно). Укажите путь к самому файлу, а не к ссылке \
             (код ошибки системы: {ELOOP})"
        );
    }
    let reason = match kind {
        ErrorKind::NotADirectory => "часть пути — не папка, а файл. Проверьте путь",
        ErrorKind::InvalidFilename | ErrorKind::InvalidInput => {
            "такое имя файла недопустимо (слишком длинное или с недопустимыми символами). \
             Проверьте путь"
        }
        ErrorKind::ResourceBusy | ErrorKind::ExecutableFileBusy => {
            "файл занят другой программой. Закройте её и попробуйте ещё раз"
        }
        ErrorKind::TimedOut | ErrorKind::StaleNetworkFileHandle => {
            "диск с этим файлом не отвечает. Проверьте подключение к сетевой папке или \
             скопируйте файл на свой компьютер"
        }
        ErrorKind::OutOfMemory => {
            "не хватило памяти. Закройте другие программы и попробуйте \
             ещё раз"
        }
        ErrorKind::TooManyLinks => "в пути слишком много ссылок. Укажите путь к самому файлу",
        _ => {
            "ошибка чтения с диска. Попробуйте ещё раз; если ошибка повторится, скопируйте \
             файл в другое место"
        }
    };
    match code {
        Some(code) => format!("{reason} (код ошибки системы: {code})"),
        None => reason.to_owned(),
    }
}

/// Maps an error from the operating system to the variant that explains its cause.
fn from_io_error(path: &Path, role: FileRole, error: &std::io::Error) -> ReadError {
    use std::io::ErrorKind;
    let path = path.to_path_buf();
    match error.kind() {
        // Windows answers «path not found» where Unix says «not a directory».
        ErrorKind::NotFound if runs_through_a_file(&path) => ReadError::Os {
            path,
            role,
            kind: ErrorKind::NotADirectory,
            code: error.raw_os_error(),
        },
        ErrorKind::NotFound => ReadError::NotFound { path, role },
        ErrorKind::PermissionDenied => ReadError::PermissionDenied { path, role },
        ErrorKind::IsADirectory => ReadError::IsDirectory { path, role },
        kind => ReadError::Os {
            path,
            role,
            kind,
            code: error.raw_os_error(),
        },
    }
}

/// Whether a folder on the way to `path` is a file.
fn runs_through_a_file(path: &Path) -> bool {
    path.ancestors().skip(1).any(Path::is_file)
}

/// Refuses anything but a regular file, by its metadata.
fn check_file_type(
    path: &Path,
    role: FileRole,
    metadata: &std::fs::Metadata,
) -> Result<(), ReadError> {
    let file_type = metadata.file_type();
    if file_type.is_dir() {
        return Err(ReadError::IsDirectory {
            path: path.to_path_buf(),
            role,
        });
    }
    if !file_type.is_file() {
        return Err(ReadError::NotRegularFile {
            path: path.to_path_buf(),
            role,
            kind: SpecialFileKind::of(file_type),
        });
    }
    Ok(())
}

/// Reads a text file safely: a regular file of at most `max_bytes` bytes in UTF-8, with one
/// leading byte order mark dropped. Pass `role.max_bytes()` unless a test needs a smaller limit.
///
/// The path's metadata (through symbolic links) is checked before the file is opened, so a
/// folder, a FIFO, a socket or a device is refused at once and reading never blocks; the opened
/// file is checked again in case the path was replaced in between. At most `max_bytes + 1` bytes
/// are read, so a file that lies about its size cannot exhaust memory.
pub fn read_text_file(path: &Path, role: FileRole, max_bytes: u64) -> Result<String, ReadError> {
    let bytes = read_file_bytes(path, role, max_bytes)?;
    decode(path, role, bytes)
}

/// Reads a file's bytes with the same checks as [`read_text_file`] (a regular file, at most
/// `max_bytes` bytes, never blocking) but no decoding, for formats that decide their own
/// encoding, such as batch files (a workbook, or a CSV saved in Windows-1251).
pub fn read_file_bytes(path: &Path, role: FileRole, max_bytes: u64) -> Result<Vec<u8>, ReadError> {
    let io_error = |error: std::io::Error| from_io_error(path, role, &error);
    let metadata = std::fs::metadata(path).map_err(io_error)?;
    check_file_type(path, role, &metadata)?;
    let too_large = |actual_bytes| ReadError::TooLarge {
        path: path.to_path_buf(),
        role,
        max_bytes,
        actual_bytes,
    };
    if metadata.len() > max_bytes {
        return Err(too_large(Some(metadata.len())));
    }
    let file = std::fs::File::open(path).map_err(io_error)?;
    check_file_type(path, role, &file.metadata().map_err(io_error)?)?;
    let mut bytes = Vec::new();
    file.take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(io_error)?;
    if bytes.len() as u64 > max_bytes {
        return Err(too_large(None));
    }
    Ok(bytes)
}

/// Decodes the bytes as UTF-8 after dropping one leading byte order mark.
fn decode(path: &Path, role: FileRole, mut bytes: Vec<u8>) -> Result<String, ReadError> {
    if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
        return Err(ReadError::Utf16 {
            path: path.to_path_buf(),
            role,
        });
    }
    let bom_len = if bytes.starts_with(&UTF8_BOM) {
        bytes.drain(..UTF8_BOM.len());
        UTF8_BOM.len()
    } else {
        0
    };
    String::from_utf8(bytes).map_err(|error| ReadError::NotUtf8 {
        path: path.to_path_buf(),
        role,
        byte_offset: (bom_len + error.utf8_error().valid_up_to()) as u64,
    })
}

/// A path for a message, with control characters escaped so that a hostile file name cannot
/// move the cursor or recolour the terminal.
pub(crate) struct DisplayPath<'a>(pub(crate) &'a Path);

impl fmt::Display for DisplayPath<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.0.to_string_lossy().chars() {
            if c.is_control() {
                write!(f, "{}", c.escape_unicode())?;
            } else {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

/// An exact size: in kilobytes or megabytes when it is a whole number of them, with the number
/// of bytes in brackets, as Windows Explorer's «Свойства» shows it.
fn exact_size(bytes: u64) -> String {
    const KIB: u64 = 1024;
    const MIB: u64 = 1024 * 1024;
    let in_bytes = format!(
        "{} {}",
        zayavka_core::group_digits(bytes),
        bytes_word(bytes)
    );
    if bytes >= MIB && bytes.is_multiple_of(MIB) {
        format!("{} МБ ({in_bytes})", bytes / MIB)
    } else if bytes >= KIB && bytes.is_multiple_of(KIB) {
        format!("{} КБ ({in_bytes})", bytes / KIB)
    } else {
        in_bytes
    }
}

/// A size rounded to one decimal place in the largest fitting unit.
fn approximate_size(bytes: u64) -> String {
    const KIB: f64 = 1024.0;
    let value = bytes as f64;
    let (amount, unit) = if value >= KIB * KIB * KIB {
        (value / (KIB * KIB * KIB), "ГБ")
    } else if value >= KIB * KIB {
        (value / (KIB * KIB), "МБ")
    } else if value >= KIB {
        (value / KIB, "КБ")
    } else {
        return format!("{bytes} {}", bytes_word(bytes));
    };
    format!("{amount:.1} {unit}").replace('.', ",")
}

/// «байт» in the form Russian grammar needs after the number.
fn bytes_word(number: u64) -> &'static str {
    match (number % 10, number % 100) {
        (_, 11..=14) => "байт",
        (1, _) => "байт",
        (2..=4, _) => "байта",
        _ => "байт",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    }

    fn assert_clean_russian(message: &str) {
        assert!(!message.contains(".."), "a doubled full stop: {message}");
        assert!(message.ends_with('.'), "{message}");
        assert!(message.starts_with("не удалось прочитать"), "{message}");
    }

    #[test]
    fn a_regular_utf8_file_is_read_as_it_is() {
        let dir = tempfile::tempdir().unwrap();
        let path = write(
            dir.path(),
            "input.json",
            "{\"description\": \"Течёт кран\"}".as_bytes(),
        );
        let text = read_text_file(&path, FileRole::Input, FileRole::INPUT_MAX_BYTES).unwrap();
        assert_eq!(text, "{\"description\": \"Течёт кран\"}");
    }

    #[test]
    fn one_leading_utf8_bom_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = write(dir.path(), "notepad.json", b"\xEF\xBB\xBF{\"a\": 1}");
        let text = read_text_file(&path, FileRole::Input, 1024).unwrap();
        assert_eq!(text, "{\"a\": 1}");
        // Only one mark is the encoding's; a second one is the file's content.
        let path = write(dir.path(), "twice.json", b"\xEF\xBB\xBF\xEF\xBB\xBFx");
        let text = read_text_file(&path, FileRole::Input, 1024).unwrap();
        assert_eq!(text, "\u{feff}x");
    }

    #[test]
    fn invalid_utf8_is_an_encoding_problem_with_the_byte_offset() {
        let dir = tempfile::tempdir().unwrap();
        // «Течёт» in Windows-1251, as an old Notepad saves it.
        let path = write(
            dir.path(),
            "cp1251.json",
            b"{\"d\": \"\xD2\xE5\xF7\xB8\xF2\"}",
        );
        let error = read_text_file(&path, FileRole::Input, 1024).unwrap_err();
        assert!(
            matches!(error, ReadError::NotUtf8 { byte_offset: 7, .. }),
            "{error:?}"
        );
        assert_eq!(error.code(), "not_utf8");
        let message = error.message_ru();
        assert_clean_russian(&message);
        assert!(message.contains("не в кодировке UTF-8"), "{message}");
        assert!(message.contains("смещении 7"), "{message}");
        assert!(message.contains("Сохранить как"), "{message}");
        assert!(
            !message.contains("прав"),
            "not a permissions problem: {message}"
        );
    }

    #[test]
    fn the_offset_counts_the_bom_too() {
        let dir = tempfile::tempdir().unwrap();
        let path = write(dir.path(), "bom.json", b"\xEF\xBB\xBFab\xFF");
        let error = read_text_file(&path, FileRole::Input, 1024).unwrap_err();
        assert!(
            matches!(error, ReadError::NotUtf8 { byte_offset: 5, .. }),
            "{error:?}"
        );
    }

    #[test]
    fn a_utf16_file_is_named_as_such() {
        let dir = tempfile::tempdir().unwrap();
        let path = write(dir.path(), "unicode.json", b"\xFF\xFE{\x00}\x00");
        let error = read_text_file(&path, FileRole::Input, 1024).unwrap_err();
        assert_eq!(error.code(), "utf16");
        let message = error.message_ru();
        assert_clean_russian(&message);
        assert!(message.contains("UTF-16"), "{message}");
        assert!(message.contains("Кодировка: UTF-8"), "{message}");
    }

    #[test]
    fn a_file_over_the_limit_is_refused_with_the_real_limit() {
        let dir = tempfile::tempdir().unwrap();
        let limit = FileRole::INPUT_MAX_BYTES;
        let exact = write(dir.path(), "exact.json", &vec![b'a'; limit as usize]);
        assert_eq!(
            read_text_file(&exact, FileRole::Input, limit)
                .unwrap()
                .len() as u64,
            limit
        );
        let over = write(dir.path(), "over.json", &vec![b'a'; limit as usize + 1]);
        let error = read_text_file(&over, FileRole::Input, limit).unwrap_err();
        assert!(
            matches!(error, ReadError::TooLarge { max_bytes, actual_bytes: Some(actual), .. }
                if max_bytes == limit && actual == limit + 1),
            "{error:?}"
        );
        let message = error.message_ru();
        assert_clean_russian(&message);
        assert!(
            message.contains("не больше 64 КБ (65\u{a0}536 байт)"),
            "{message}"
        );
        assert!(message.contains("его размер — 64,0 КБ"), "{message}");
    }

    #[test]
    fn a_directory_is_refused_as_a_folder() {
        let dir = tempfile::tempdir().unwrap();
        let error = read_text_file(dir.path(), FileRole::ModelResponse, 1024).unwrap_err();
        assert_eq!(error.code(), "is_directory");
        let message = error.message_ru();
        assert_clean_russian(&message);
        assert!(message.contains("файл с ответом модели"), "{message}");
        assert!(message.contains("это папка"), "{message}");
    }

    #[test]
    fn a_missing_file_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let error = read_text_file(&dir.path().join("nope.json"), FileRole::ContextRecord, 1024)
            .unwrap_err();
        assert_eq!(error.code(), "not_found");
        let message = error.message_ru();
        assert_clean_russian(&message);
        assert!(message.contains("файл записи"), "{message}");
        assert!(message.contains("такого файла нет"), "{message}");
    }

    #[test]
    fn a_path_through_a_file_is_explained() {
        let dir = tempfile::tempdir().unwrap();
        let file = write(dir.path(), "plain", b"x");
        let error = read_text_file(&file.join("inner.json"), FileRole::Input, 1024).unwrap_err();
        let message = error.message_ru();
        assert_clean_russian(&message);
        assert!(message.contains("часть пути — не папка"), "{message}");
    }

    #[test]
    fn permission_and_other_os_errors_are_explained_by_cause() {
        // The tests may run as root, who may read any file, so the mapping is checked directly.
        let path = Path::new("/srv/input.json");
        let denied = from_io_error(
            path,
            FileRole::Input,
            &std::io::Error::from(std::io::ErrorKind::PermissionDenied),
        );
        assert_eq!(denied.code(), "permission_denied");
        let message = denied.message_ru();
        assert_clean_russian(&message);
        assert!(message.contains("нет прав на чтение"), "{message}");
        // An input/output error: EIO on Unix, ERROR_CRC («data error») on Windows.
        let code = if cfg!(windows) { 23 } else { 5 };
        let busy = from_io_error(
            path,
            FileRole::Input,
            &std::io::Error::from_raw_os_error(code),
        );
        assert_eq!(busy.code(), "os_error");
        let message = busy.message_ru();
        assert_clean_russian(&message);
        assert!(
            message.contains(&format!("код ошибки системы: {code}")),
            "{message}"
        );
        assert!(!message.contains("прав"), "{message}");
    }

    #[cfg(unix)]
    #[test]
    fn a_character_device_is_refused_without_reading() {
        let error = read_text_file(Path::new("/dev/zero"), FileRole::Input, 1024).unwrap_err();
        assert!(
            matches!(
                error,
                ReadError::NotRegularFile {
                    kind: SpecialFileKind::CharacterDevice,
                    ..
                }
            ),
            "{error:?}"
        );
        let message = error.message_ru();
        assert_clean_russian(&message);
        assert!(message.contains("это устройство"), "{message}");
    }

    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_to_a_device_is_refused_too() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("input.json");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        let error = read_text_file(&link, FileRole::Input, 1024).unwrap_err();
        assert_eq!(error.code(), "not_regular_file");
    }

    #[cfg(unix)]
    #[test]
    fn issue_19_a_symbolic_link_loop_is_named_as_one() {
        let dir = tempfile::tempdir().unwrap();
        let first = dir.path().join("заявки.csv");
        let second = dir.path().join("копия.csv");
        std::os::unix::fs::symlink(&second, &first).unwrap();
        std::os::unix::fs::symlink(&first, &second).unwrap();
        let error = read_file_bytes(&first, FileRole::Batch, 1024).unwrap_err();
        assert_eq!(error.code(), "os_error");
        let message = error.message_ru();
        assert_clean_russian(&message);
        assert!(message.contains("«"), "{message}");
        assert!(
            message.contains("по кругу через символические ссылки"),
            "{message}"
        );
        assert!(message.contains("Укажите путь к самому файлу"), "{message}");
        assert!(!message.contains("Попробуйте ещё раз"), "{message}");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_fifo_is_refused_before_it_is_opened() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe.json");
        let status = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(status.success());
        // With no writer, opening the FIFO would block for ever; the metadata check returns at
        // once, so this test finishing at all is the proof.
        let error = read_text_file(&fifo, FileRole::Input, 1024).unwrap_err();
        assert!(
            matches!(
                error,
                ReadError::NotRegularFile {
                    kind: SpecialFileKind::Fifo,
                    ..
                }
            ),
            "{error:?}"
        );
        let message = error.message_ru();
        assert_clean_russian(&message);
        assert!(message.contains("именованный канал"), "{message}");
    }

    #[cfg(unix)]
    #[test]
    fn a_socket_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("socket.json");
        let _listener = std::os::unix::net::UnixListener::bind(&path).unwrap();
        let error = read_text_file(&path, FileRole::Input, 1024).unwrap_err();
        assert!(
            matches!(
                error,
                ReadError::NotRegularFile {
                    kind: SpecialFileKind::Socket,
                    ..
                }
            ),
            "{error:?}"
        );
    }

    #[test]
    fn control_characters_in_a_path_are_escaped() {
        let error = ReadError::NotFound {
            path: PathBuf::from("a\u{1b}[31mb.json"),
            role: FileRole::Input,
        };
        let message = error.message_ru();
        assert!(!message.contains('\u{1b}'), "{message}");
        assert!(message.contains("\\u{1b}[31mb.json"), "{message}");
    }

    #[test]
    fn the_role_limits_are_the_documented_ones() {
        assert_eq!(FileRole::Input.max_bytes(), 65_536);
        assert_eq!(FileRole::ModelResponse.max_bytes(), 8 << 20);
        assert_eq!(FileRole::ContextRecord.max_bytes(), 32 << 20);
        assert_eq!(FileRole::Batch.max_bytes(), 256 << 20);
        assert_eq!(exact_size(8 << 20), "8 МБ (8\u{a0}388\u{a0}608 байт)");
        assert_eq!(exact_size(10), "10 байт");
        assert_eq!(exact_size(1000), "1000 байт");
        assert_eq!(approximate_size(1536), "1,5 КБ");
    }

    #[test]
    fn bytes_take_the_right_grammatical_form() {
        let forms: Vec<_> = [1, 2, 5, 11, 12, 21, 22, 25, 111, 1024]
            .into_iter()
            .map(bytes_word)
            .collect();
        assert_eq!(
            forms,
            [
                "байт",
                "байта",
                "байт",
                "байт",
                "байт",
                "байт",
                "байта",
                "байт",
                "байт",
                "байта"
            ]
        );
    }
}
