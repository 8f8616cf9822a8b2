//! The store's one error type.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use jiff::civil::Date;

use crate::DraftId;
use zayavka_codes::stable_codes;

/// How long a connection waits for another one holding the write lock before it gives up
/// with [`StoreError::Busy`], whose message names it.
pub(crate) const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// What went wrong with the database.
///
/// The English `Display` text is for logs; [`StoreError::message_ru`] is what a resident reads,
/// and [`StoreError::code`] is a stable machine name for front ends. No variant carries the
/// resident's text.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// The database was written by a newer version of Zayavka, with a schema this version does
    /// not know. Nothing was changed.
    #[error(
        "the database has schema version {found}, newer than the {supported} this version knows"
    )]
    NewerSchema {
        /// The schema version found in the file.
        found: u32,
        /// The newest schema version this code knows.
        supported: u32,
    },
    /// The file is an SQLite database of another program, or not a database at all. Nothing was
    /// changed.
    #[error("{} is not a Zayavka database", path.display())]
    NotOurDatabase {
        /// The file.
        path: PathBuf,
    },
    /// The database file is damaged.
    #[error("the database file is damaged")]
    Corrupt,
    /// The database's schema is not the one its version defines: another program added,
    /// removed or changed a table, index, trigger or view (issue 37). Nothing was written to it
    /// and none of its SQL was run.
    #[error("{} has a schema Zayavka did not create", path.display())]
    ForeignSchema {
        /// The database file.
        path: PathBuf,
        /// What differs, at least one.
        differences: Vec<SchemaDifference>,
    },
    /// A file offered as a backup cannot be put in place (issue 37). Nothing was replaced.
    #[error("{} cannot be restored: {problem:?}", path.display())]
    UnusableBackup {
        /// The file offered.
        path: PathBuf,
        /// Why.
        problem: BackupProblem,
    },
    /// A part of the path that should be a folder is a file.
    #[error("{} is a file where a folder is expected", path.display())]
    NotAFolder {
        /// The file that stands where a folder should be.
        path: PathBuf,
    },
    /// The database path is a folder.
    #[error("{} is a folder where the database file is expected", path.display())]
    NotAFile {
        /// The folder.
        path: PathBuf,
    },
    /// The folder or the database file cannot be written: no permission, or a read-only disk.
    #[error("{} cannot be written (no permission or a read-only disk)", path.display())]
    ReadOnly {
        /// The folder or file that cannot be written.
        path: PathBuf,
    },
    /// The database became read-only while it was open, or between two commands (the disk was
    /// remounted read-only, the file's permissions changed). Nothing was changed.
    #[error("the database cannot be written any more (it became read-only)")]
    WriteRefused,
    /// The disk is full.
    #[error("the disk is full")]
    DiskFull,
    /// The operating system failed a read or write of the database files: most often a disk
    /// with no room left for the shared-memory or log file, or a disk that was removed.
    #[error("a read or write of the database files failed")]
    DiskIo,
    /// Another program held the database for longer than the wait allows.
    #[error("the database stayed busy in another program for longer than the wait allows")]
    Busy,
    /// Some other file-system operation failed.
    #[error("cannot use {}: {source}", path.display())]
    Io {
        /// The file or folder concerned.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// No draft has this id (it may have been deleted).
    #[error("there is no draft {0}")]
    DraftNotFound(DraftId),
    /// The draft already ended; it must be sent again with `begin_retry` before it can end again.
    #[error("draft {id} already ended as {outcome} and is not pending")]
    DraftNotPending {
        /// The draft.
        id: DraftId,
        /// How it ended.
        outcome: &'static str,
    },
    /// No batch has this id.
    #[error("there is no batch {0}")]
    BatchNotFound(String),
    /// The batch has no row with this number.
    #[error("batch {batch_id} has no row {row}")]
    BatchRowNotFound {
        /// The batch.
        batch_id: String,
        /// The row number.
        row: u32,
    },
    /// A batch id is not a lower-case hexadecimal SHA-256 (64 characters).
    #[error("a batch id must be 64 lower-case hexadecimal characters")]
    InvalidBatchId,
    /// A value handed to the store is not valid JSON where a JSON document is expected.
    #[error("the value for {field} is not valid JSON")]
    InvalidJson {
        /// The field, such as `raw_input_json`.
        field: &'static str,
    },
    /// A value stored as a code (such as a version's author) is not `[a-z0-9_]+`.
    #[error("the value for {field} is not a code of lower-case letters, digits and underscores")]
    InvalidCode {
        /// The field, such as `author`.
        field: &'static str,
    },
    /// A number is too large to be stored.
    #[error("the value for {field} is too large to store")]
    ValueTooLarge {
        /// The field.
        field: &'static str,
    },
    /// The backup target already exists; a backup never overwrites a file.
    #[error("{} already exists", path.display())]
    BackupTargetExists {
        /// The target.
        path: PathBuf,
    },
    /// A restore found a database already in place and was not told to set it aside; a restore
    /// never replaces a database silently.
    #[error("{} already exists; a restore does not replace it", path.display())]
    RestoreTargetExists {
        /// The database in place.
        path: PathBuf,
    },
    /// Attaching would give the draft more photos than the limit the caller set. Nothing was
    /// attached.
    #[error(
        "draft {draft_id} has {existing} attachments; {adding} more exceed the limit of {limit}"
    )]
    TooManyAttachments {
        /// The draft.
        draft_id: DraftId,
        /// How many it has.
        existing: u32,
        /// How many were to be added.
        adding: u32,
        /// The most a draft may have.
        limit: u32,
    },
    /// The draft has no attachment with this number.
    #[error("draft {draft_id} has no attachment {number}")]
    AttachmentNotFound {
        /// The draft.
        draft_id: DraftId,
        /// The number asked for.
        number: u32,
    },
    /// Recovery was asked to write into a file that already exists; it never overwrites one.
    #[error("{} already exists; recovery does not write over it", path.display())]
    RecoverTargetExists {
        /// The target.
        path: PathBuf,
    },
    /// There is no database file to recover from.
    #[error("there is no database at {}", path.display())]
    NoDatabase {
        /// Where the database was looked for.
        path: PathBuf,
    },
    /// The draft was filed, so its text and photos no longer change. Nothing was changed.
    #[error("draft {0} is filed and keeps its text")]
    DraftFiled(DraftId),
    /// Only a ready draft can be filed.
    #[error("draft {draft_id} is {outcome}, not ready, and cannot be filed")]
    DraftNotReady {
        /// The draft.
        draft_id: DraftId,
        /// Where it stands.
        outcome: &'static str,
    },
    /// The draft has no filing, so it has no answer or case to change.
    #[error("draft {0} is not filed")]
    NotFiled(DraftId),
    /// A case's dates would go out of order: a delivery, an answer or a closing before the
    /// filing. Nothing was changed.
    #[error(
        "draft {draft_id}: the {later} ({later_on}) would be before the {earlier} ({earlier_on})"
    )]
    CaseDatesOutOfOrder {
        /// The draft.
        draft_id: DraftId,
        /// The date that must come first: `filing`.
        earlier: &'static str,
        /// Its day.
        earlier_on: Date,
        /// The date that must not precede it: `delivery`, `answer` or `closing`.
        later: &'static str,
        /// Its day.
        later_on: Date,
    },
    /// Any other database failure.
    #[error("database error: {0}")]
    Database(#[source] DatabaseError),
}

/// How a database's schema differs from the one its version defines.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SchemaDifference {
    /// An object Zayavka does not create.
    Extra {
        /// `table`, `index`, `trigger` or `view`.
        kind: String,
        /// Its name.
        name: String,
        /// The table it belongs to.
        table: String,
    },
    /// An object Zayavka creates that is not there.
    Missing {
        /// `table`, `index`, `trigger` or `view`.
        kind: String,
        /// Its name.
        name: String,
        /// The table it belongs to.
        table: String,
    },
    /// An object there under its name with other SQL (a column added, a check removed, a
    /// trigger that does something else).
    Changed {
        /// `table`, `index`, `trigger` or `view`.
        kind: String,
        /// Its name.
        name: String,
    },
}

impl SchemaDifference {
    /// The difference in a resident's words: «лишний триггер «x» у таблицы «drafts»».
    pub fn message_ru(&self) -> String {
        match self {
            SchemaDifference::Extra { kind, name, table } => {
                format!(
                    "лишн{} {} «{name}»{}",
                    ending(kind),
                    kind_ru(kind),
                    of_table(kind, name, table)
                )
            }
            SchemaDifference::Missing { kind, name, table } => {
                format!(
                    "нет {} «{name}»{}",
                    kind_genitive_ru(kind),
                    of_table(kind, name, table)
                )
            }
            SchemaDifference::Changed { kind, name } => {
                format!("изменен{} {} «{name}»", changed_ending(kind), kind_ru(kind))
            }
        }
    }
}

fn kind_ru(kind: &str) -> &'static str {
    match kind {
        "table" => "таблица",
        "index" => "индекс",
        "trigger" => "триггер",
        "view" => "представление",
        _ => "объект",
    }
}

fn kind_genitive_ru(kind: &str) -> &'static str {
    match kind {
        "table" => "таблицы",
        "index" => "индекса",
        "trigger" => "триггера",
        "view" => "представления",
        _ => "объекта",
    }
}

/// «лишний триггер», «лишняя таблица», «лишнее представление».
fn ending(kind: &str) -> &'static str {
    match kind {
        "table" => "яя",
        "view" => "ее",
        _ => "ий",
    }
}

/// «изменён триггер», «изменена таблица», «изменено представление».
fn changed_ending(kind: &str) -> &'static str {
    match kind {
        "table" => "а",
        "view" => "о",
        _ => "",
    }
}

fn of_table(kind: &str, name: &str, table: &str) -> String {
    if kind == "table" || kind == "view" || table == name {
        String::new()
    } else {
        format!(" у таблицы «{table}»")
    }
}

/// Why a file offered as a backup cannot be put in place.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum BackupProblem {
    /// Empty, not an SQLite database, or cut short before its first page.
    NotADatabase,
    /// Another program's SQLite database.
    AnotherProgram,
    /// Damaged: SQLite's integrity or foreign-key check fails.
    Damaged,
    /// A Zayavka database another program changed: its schema is not its version's.
    Changed(Vec<SchemaDifference>),
}

/// At most this many differences are named in a message; the rest are counted.
const DIFFERENCES_NAMED: usize = 3;

/// «лишний триггер «x» у таблицы «drafts»; нет триггера «y» и ещё 2».
fn differences_ru(differences: &[SchemaDifference]) -> String {
    let mut text = differences
        .iter()
        .take(DIFFERENCES_NAMED)
        .map(SchemaDifference::message_ru)
        .collect::<Vec<_>>()
        .join("; ");
    if differences.len() > DIFFERENCES_NAMED {
        text.push_str(&format!(" и ещё {}", differences.len() - DIFFERENCES_NAMED));
    }
    text
}

stable_codes! {
    /// The stable code of a [`StoreError`], for front ends and tests.
    pub enum StoreErrorCode {
        /// `newer_schema`.
        NewerSchema => "newer_schema",
        /// `not_our_database`.
        NotOurDatabase => "not_our_database",
        /// `corrupt`.
        Corrupt => "corrupt",
        /// `foreign_schema`.
        ForeignSchema => "foreign_schema",
        /// `unusable_backup`.
        UnusableBackup => "unusable_backup",
        /// `not_a_folder`.
        NotAFolder => "not_a_folder",
        /// `not_a_file`.
        NotAFile => "not_a_file",
        /// `read_only`.
        ReadOnly => "read_only",
        /// `write_refused`.
        WriteRefused => "write_refused",
        /// `disk_full`.
        DiskFull => "disk_full",
        /// `disk_io`.
        DiskIo => "disk_io",
        /// `busy`.
        Busy => "busy",
        /// `io`.
        Io => "io",
        /// `draft_not_found`.
        DraftNotFound => "draft_not_found",
        /// `draft_not_pending`.
        DraftNotPending => "draft_not_pending",
        /// `batch_not_found`.
        BatchNotFound => "batch_not_found",
        /// `batch_row_not_found`.
        BatchRowNotFound => "batch_row_not_found",
        /// `invalid_batch_id`.
        InvalidBatchId => "invalid_batch_id",
        /// `invalid_json`.
        InvalidJson => "invalid_json",
        /// `invalid_code`.
        InvalidCode => "invalid_code",
        /// `value_too_large`.
        ValueTooLarge => "value_too_large",
        /// `backup_target_exists`.
        BackupTargetExists => "backup_target_exists",
        /// `restore_target_exists`.
        RestoreTargetExists => "restore_target_exists",
        /// `too_many_attachments`.
        TooManyAttachments => "too_many_attachments",
        /// `attachment_not_found`.
        AttachmentNotFound => "attachment_not_found",
        /// `recover_target_exists`.
        RecoverTargetExists => "recover_target_exists",
        /// `no_database`.
        NoDatabase => "no_database",
        /// `draft_filed`.
        DraftFiled => "draft_filed",
        /// `draft_not_ready`.
        DraftNotReady => "draft_not_ready",
        /// `not_filed`.
        NotFiled => "not_filed",
        /// `case_dates_out_of_order`.
        CaseDatesOutOfOrder => "case_dates_out_of_order",
        /// `database`.
        Database => "database",
    }
}

impl StoreError {
    /// A stable snake_case name for the kind of failure, for front ends and tests.
    pub fn code(&self) -> StoreErrorCode {
        match self {
            StoreError::NewerSchema { .. } => StoreErrorCode::NewerSchema,
            StoreError::NotOurDatabase { .. } => StoreErrorCode::NotOurDatabase,
            StoreError::Corrupt => StoreErrorCode::Corrupt,
            StoreError::ForeignSchema { .. } => StoreErrorCode::ForeignSchema,
            StoreError::UnusableBackup { .. } => StoreErrorCode::UnusableBackup,
            StoreError::NotAFolder { .. } => StoreErrorCode::NotAFolder,
            StoreError::NotAFile { .. } => StoreErrorCode::NotAFile,
            StoreError::ReadOnly { .. } => StoreErrorCode::ReadOnly,
            StoreError::WriteRefused => StoreErrorCode::WriteRefused,
            StoreError::DiskFull => StoreErrorCode::DiskFull,
            StoreError::DiskIo => StoreErrorCode::DiskIo,
            StoreError::Busy => StoreErrorCode::Busy,
            StoreError::Io { .. } => StoreErrorCode::Io,
            StoreError::DraftNotFound(_) => StoreErrorCode::DraftNotFound,
            StoreError::DraftNotPending { .. } => StoreErrorCode::DraftNotPending,
            StoreError::BatchNotFound(_) => StoreErrorCode::BatchNotFound,
            StoreError::BatchRowNotFound { .. } => StoreErrorCode::BatchRowNotFound,
            StoreError::InvalidBatchId => StoreErrorCode::InvalidBatchId,
            StoreError::InvalidJson { .. } => StoreErrorCode::InvalidJson,
            StoreError::InvalidCode { .. } => StoreErrorCode::InvalidCode,
            StoreError::ValueTooLarge { .. } => StoreErrorCode::ValueTooLarge,
            StoreError::BackupTargetExists { .. } => StoreErrorCode::BackupTargetExists,
            StoreError::RestoreTargetExists { .. } => StoreErrorCode::RestoreTargetExists,
            StoreError::TooManyAttachments { .. } => StoreErrorCode::TooManyAttachments,
            StoreError::AttachmentNotFound { .. } => StoreErrorCode::AttachmentNotFound,
            StoreError::RecoverTargetExists { .. } => StoreErrorCode::RecoverTargetExists,
            StoreError::NoDatabase { .. } => StoreErrorCode::NoDatabase,
            StoreError::DraftFiled(_) => StoreErrorCode::DraftFiled,
            StoreError::DraftNotReady { .. } => StoreErrorCode::DraftNotReady,
            StoreError::NotFiled(_) => StoreErrorCode::NotFiled,
            StoreError::CaseDatesOutOfOrder { .. } => StoreErrorCode::CaseDatesOutOfOrder,
            StoreError::Database(_) => StoreErrorCode::Database,
        }
    }

    /// What happened and what to do next, in Russian, for the resident.
    pub fn message_ru(&self) -> String {
        match self {
            StoreError::NewerSchema { .. } => "Эта база данных создана более новой версией \
                 Заявки, и эта версия не может с ней работать. База не изменена. Обновите \
                 программу до последней версии."
                .to_owned(),
            StoreError::NotOurDatabase { path } => format!(
                "Файл {} не является базой данных Заявки: он повреждён или это файл другой \
                 программы. Файл не изменён. Если это ваша база черновиков, восстановите её из \
                 резервной копии (zayavka drafts restore ФАЙЛ --replace); если вы указали этот \
                 файл сами, укажите другой.",
                path.display()
            ),
            StoreError::Corrupt => "Файл базы черновиков повреждён: часть записей не \
                 читается. Заявка не меняла и не «исправляла» его. Восстановите черновики из \
                 резервной копии (zayavka drafts restore ФАЙЛ --replace) или перенесите всё, что \
                 ещё читается, в новую базу командой zayavka drafts recover; повреждённый файл \
                 при этом сохраняется."
                .to_owned(),
            StoreError::ForeignSchema { path, differences } => format!(
                "В базе черновиков {} есть то, чего Заявка не создаёт: файл изменён другой \
                 программой ({}). Заявка не пишет в такой файл и не выполняет его команды; файл \
                 не изменён. Перенесите черновики в новую базу командой zayavka drafts recover \
                 (переносятся только записи, без чужих команд) и поставьте её на место \
                 командой zayavka drafts restore ФАЙЛ --replace, или восстановите базу из \
                 резервной копии той же командой.",
                path.display(),
                differences_ru(differences)
            ),
            StoreError::UnusableBackup { path, problem } => format!(
                "Файл {} нельзя восстановить: {}. Ничего не заменено и не изменено. Выберите \
                 другую резервную копию.",
                path.display(),
                match problem {
                    BackupProblem::NotADatabase => "это не резервная копия Заявки: файл пуст, \
                         обрезан или вовсе не база данных"
                        .to_owned(),
                    BackupProblem::AnotherProgram =>
                        "это база данных другой программы, а не резервная копия Заявки".to_owned(),
                    BackupProblem::Damaged =>
                        "копия повреждена: часть записей не читается или не сходится".to_owned(),
                    BackupProblem::Changed(differences) => format!(
                        "в файле есть то, чего Заявка не создаёт: файл изменён другой \
                         программой ({})",
                        differences_ru(differences)
                    ),
                }
            ),
            StoreError::NotAFolder { path } => format!(
                "На месте папки {} находится файл. Переименуйте или удалите этот файл либо \
                 укажите другую папку для данных.",
                path.display()
            ),
            StoreError::NotAFile { path } => format!(
                "На месте файла базы данных {} находится папка. Укажите другой путь для \
                 данных.",
                path.display()
            ),
            StoreError::ReadOnly { path } => format!(
                "В {} нельзя записывать: нет прав на запись или диск доступен только для \
                 чтения. Выберите папку, в которую можно записывать, или дайте права на \
                 запись.",
                path.display()
            ),
            StoreError::WriteRefused => "Базу черновиков больше нельзя изменять: диск или папка \
                 с данными стали доступны только для чтения. Ничего не изменено, сохранённые \
                 черновики на месте. Верните права на запись (или подключите диск заново) и \
                 повторите."
                .to_owned(),
            StoreError::DiskFull => "На диске закончилось место, поэтому сохранить данные не \
                 удалось. Уже сохранённые черновики не пострадали. Освободите место на диске и \
                 повторите."
                .to_owned(),
            StoreError::DiskIo => "Не удалось прочитать или записать файлы базы черновиков: на \
                 диске закончилось место, диск отключён или неисправен. Уже сохранённые \
                 черновики не изменены. Освободите место на диске (или подключите его снова) и \
                 повторите."
                .to_owned(),
            StoreError::Busy => format!(
                "База черновиков занята другой программой: другим окном или запуском Заявки \
                 либо программой, которая открыла файл базы. Заявка ждала {} секунд, но база \
                 не освободилась; ничего не изменено. Дождитесь, пока другая программа \
                 закончит, или закройте её, и повторите.",
                BUSY_TIMEOUT.as_secs()
            ),
            StoreError::Io { path, .. } => format!(
                "Не удалось открыть {}. Проверьте, что путь указан верно и диск доступен, и \
                 повторите.",
                path.display()
            ),
            StoreError::DraftNotFound(id) => format!(
                "Черновика с номером {id} нет: возможно, он удалён. Проверьте номер в списке \
                 черновиков."
            ),
            StoreError::DraftNotPending { id, .. } => format!(
                "Черновик {id} уже обработан. Чтобы отправить его снова, используйте повторную \
                 отправку."
            ),
            StoreError::BatchNotFound(id) => {
                format!("Пакета {id} нет. Проверьте номер в списке пакетов.")
            }
            StoreError::BatchRowNotFound { row, .. } => {
                format!("В пакете нет строки {row}. Проверьте номер строки.")
            }
            StoreError::InvalidBatchId => "Номер пакета указан неверно: это 64 знака из цифр \
                 и латинских букв a–f. Скопируйте его из списка пакетов."
                .to_owned(),
            StoreError::InvalidJson { .. }
            | StoreError::InvalidCode { .. }
            | StoreError::ValueTooLarge { .. } => {
                "Не удалось сохранить данные из-за внутренней ошибки программы. Сообщите о ней \
                 разработчикам."
                    .to_owned()
            }
            StoreError::BackupTargetExists { path } => format!(
                "Файл {} уже существует, а резервная копия никогда не записывается поверх \
                 файла. Укажите новое имя файла.",
                path.display()
            ),
            StoreError::RestoreTargetExists { path } => format!(
                "В папке данных уже есть база черновиков {}, и восстановление не записывает \
                 копию поверх неё. Закройте приложение и повторите с --replace: нынешняя база \
                 будет сохранена рядом под другим именем.",
                path.display()
            ),
            StoreError::TooManyAttachments {
                draft_id,
                existing,
                limit,
                ..
            } => format!(
                "К черновику {draft_id} можно приложить не больше {limit} фотографий, а у него \
                 уже {existing}. Ничего не добавлено. Уберите лишние фотографии или выберите \
                 меньше."
            ),
            StoreError::AttachmentNotFound { draft_id, number } => format!(
                "У черновика {draft_id} нет фотографии с номером {number}. Проверьте номер в \
                 списке фотографий черновика."
            ),
            StoreError::RecoverTargetExists { path } => format!(
                "Файл {} уже существует, а спасённые черновики никогда не записываются поверх \
                 файла. Укажите новое имя файла.",
                path.display()
            ),
            StoreError::NoDatabase { path } => format!(
                "Базы черновиков {} нет, поэтому спасать нечего. Проверьте папку данных \
                 (zayavka config path).",
                path.display()
            ),
            StoreError::DraftFiled(id) => format!(
                "Черновик {id} отмечен как поданный: его текст и фотографии уже у адресата и \
                 больше не меняются. Ничего не изменено. Чтобы исправить текст, создайте на \
                 его основе исправленный черновик."
            ),
            StoreError::DraftNotReady { draft_id, .. } => format!(
                "Черновик {draft_id} ещё не готов к подаче: отметить поданным можно только \
                 готовую заявку. Сначала получите текст заявки, проверьте его и подайте."
            ),
            StoreError::NotFiled(id) => format!(
                "Черновик {id} не отмечен как поданный, поэтому записать ответ или закрыть \
                 его нельзя. Сначала отметьте его как поданный."
            ),
            StoreError::CaseDatesOutOfOrder {
                draft_id,
                earlier_on,
                later,
                later_on,
                ..
            } => format!(
                "Даты по черновику {draft_id} не сходятся: {} {} раньше даты подачи {}. Ничего \
                 не изменено. Проверьте даты и повторите.",
                match *later {
                    "delivery" => "дата вручения",
                    "answer" => "дата ответа",
                    _ => "дата закрытия",
                },
                later_on.strftime("%d.%m.%Y"),
                earlier_on.strftime("%d.%m.%Y"),
            ),
            StoreError::Database(_) => "Не удалось выполнить действие с базой данных. \
                 Повторите; если ошибка повторяется, сообщите о ней разработчикам."
                .to_owned(),
        }
    }
}

/// An SQLite failure that fits none of the named kinds. It is opaque so that the SQLite binding
/// is not part of the store's public interface.
#[derive(Debug)]
pub struct DatabaseError(rusqlite::Error);

impl DatabaseError {
    /// SQLite's primary result code, when the failure came from SQLite itself.
    pub(crate) fn sqlite_code(&self) -> Option<rusqlite::ErrorCode> {
        self.0.sqlite_error_code()
    }
}

impl fmt::Display for DatabaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for DatabaseError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

impl From<rusqlite::Error> for StoreError {
    /// Classifies an SQLite failure by its primary result code. Read-only and cannot-open
    /// failures are refined by [`crate::Store::open`], which knows the path.
    fn from(error: rusqlite::Error) -> Self {
        use rusqlite::ErrorCode;
        match error.sqlite_error_code() {
            Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => StoreError::Busy,
            Some(ErrorCode::DiskFull) => StoreError::DiskFull,
            Some(ErrorCode::ReadOnly) => StoreError::WriteRefused,
            Some(ErrorCode::SystemIoFailure) => StoreError::DiskIo,
            Some(ErrorCode::DatabaseCorrupt) => StoreError::Corrupt,
            _ => StoreError::Database(DatabaseError(error)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_codes_pass_the_shared_check() {
        zayavka_codes::check_stable_codes::<StoreErrorCode>().unwrap();
    }

    fn sqlite_failure(code: i32) -> rusqlite::Error {
        rusqlite::Error::SqliteFailure(rusqlite::ffi::Error::new(code), None)
    }

    #[test]
    fn sqlite_codes_map_to_named_kinds() {
        assert_eq!(
            StoreError::from(sqlite_failure(rusqlite::ffi::SQLITE_BUSY)).code(),
            "busy"
        );
        assert_eq!(
            StoreError::from(sqlite_failure(rusqlite::ffi::SQLITE_LOCKED)).code(),
            "busy"
        );
        assert_eq!(
            StoreError::from(sqlite_failure(rusqlite::ffi::SQLITE_FULL)).code(),
            "disk_full"
        );
        assert_eq!(
            StoreError::from(sqlite_failure(rusqlite::ffi::SQLITE_CORRUPT)).code(),
            "corrupt"
        );
        assert_eq!(
            StoreError::from(sqlite_failure(rusqlite::ffi::SQLITE_IOERR_SHMSIZE)).code(),
            "disk_io"
        );
        assert_eq!(
            StoreError::from(sqlite_failure(rusqlite::ffi::SQLITE_READONLY)).code(),
            "write_refused"
        );
        assert_eq!(
            StoreError::from(sqlite_failure(rusqlite::ffi::SQLITE_MISMATCH)).code(),
            "database"
        );
    }

    #[test]
    fn newer_schema_message_says_to_update() {
        let message = StoreError::NewerSchema {
            found: 9,
            supported: 1,
        }
        .message_ru();
        assert!(message.contains("более новой версией Заявки"), "{message}");
        assert!(message.contains("Обновите программу"), "{message}");
        assert!(message.contains("не изменена"), "{message}");
    }

    #[test]
    fn every_message_is_russian_and_ends_with_a_full_stop() {
        let errors = [
            StoreError::NewerSchema {
                found: 2,
                supported: 1,
            },
            StoreError::NotOurDatabase { path: "/x".into() },
            StoreError::Corrupt,
            StoreError::NotAFolder { path: "/x".into() },
            StoreError::NotAFile { path: "/x".into() },
            StoreError::ReadOnly { path: "/x".into() },
            StoreError::WriteRefused,
            StoreError::DiskFull,
            StoreError::DiskIo,
            StoreError::Busy,
            StoreError::Io {
                path: "/x".into(),
                source: std::io::Error::other("x"),
            },
            StoreError::DraftNotFound(DraftId::new(3).unwrap()),
            StoreError::DraftNotPending {
                id: DraftId::new(3).unwrap(),
                outcome: "ready",
            },
            StoreError::BatchNotFound("abc".into()),
            StoreError::BatchRowNotFound {
                batch_id: "abc".into(),
                row: 2,
            },
            StoreError::InvalidBatchId,
            StoreError::InvalidJson { field: "x" },
            StoreError::InvalidCode { field: "x" },
            StoreError::ValueTooLarge { field: "x" },
            StoreError::BackupTargetExists { path: "/x".into() },
            StoreError::RestoreTargetExists { path: "/x".into() },
            StoreError::TooManyAttachments {
                draft_id: DraftId::new(3).unwrap(),
                existing: 9,
                adding: 2,
                limit: 10,
            },
            StoreError::AttachmentNotFound {
                draft_id: DraftId::new(3).unwrap(),
                number: 4,
            },
            StoreError::RecoverTargetExists { path: "/x".into() },
            StoreError::NoDatabase { path: "/x".into() },
            StoreError::from(sqlite_failure(rusqlite::ffi::SQLITE_MISMATCH)),
        ];
        for error in errors {
            let message = error.message_ru();
            assert!(
                message.chars().any(|c| ('а'..='я').contains(&c)),
                "{}: {message}",
                error.code()
            );
            assert!(message.ends_with('.'), "{}: {message}", error.code());
            assert!(!message.contains("  "), "{}: {message}", error.code());
        }
    }
}
