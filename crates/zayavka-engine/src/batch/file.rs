//! Reading a batch file into checked rows.
//!
//! A batch file is what an activist has at hand: a spreadsheet saved from Excel or LibreOffice as
//! CSV (UTF-8 with or without a byte order mark, or Windows-1251, with `,`, `;` or a tab between
//! cells), the workbook itself (XLSX, first sheet), or JSON Lines with one `zayavka draft --input`
//! object per line. [`BatchFile::read`] detects which by the content and the extension, maps the
//! header row to input fields, and checks every row with [`ResidentInput::parse`] (on first use,
//! so a file refused for its size is not checked row by row), so that the caller knows every
//! invalid row, by the number a spreadsheet shows for it, before anything is sent. The file's
//! path and SHA-256 let a later run find its batch again (ADRs 13 and 14).
//!
//! The file is read once into memory (under [`FileRole::BATCH_MAX_BYTES`]) and decoded at most
//! once more (Windows-1251); rows hold only their own cells.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::path::Path;

use serde::Serialize;
use zayavka_codes::{joined_codes, stable_codes};
use zayavka_core::{InputErrorCode, InputErrors, InputField, RawInput, ResidentInput, SubjectKind};

use crate::read::{FileRole, ReadError, ReadErrorCode, read_file_bytes};

/// The most data rows one batch may have: far more than a building has flats, and few enough
/// that the checked rows of a whole batch stay small in memory.
pub const MAX_ROWS: usize = 100_000;

/// The file format, as detected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum BatchFormat {
    /// Comma-, semicolon- or tab-separated values with a header row.
    Csv,
    /// An Excel workbook; its first sheet is read.
    Xlsx,
    /// JSON Lines: one input object per line.
    Jsonl,
}

/// The text encoding of a CSV or JSONL file, as detected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[non_exhaustive]
pub enum TextEncoding {
    /// UTF-8 without a byte order mark (LibreOffice's default, Excel's «CSV UTF-8» on a Mac).
    #[serde(rename = "utf-8")]
    Utf8,
    /// UTF-8 with a byte order mark (Excel's «CSV UTF-8» on Windows).
    #[serde(rename = "utf-8-bom")]
    Utf8WithBom,
    /// Windows-1251, what Excel on a Russian Windows saves as plain «CSV». It is assumed when the
    /// bytes are not valid UTF-8.
    #[serde(rename = "windows-1251")]
    Windows1251,
}

/// The document header details of one row: kept for the printed document, never part of the
/// input and never shown to a model.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(default)]
pub struct RowHeader {
    /// The resident's name («ФИО»).
    pub full_name: Option<String>,
    /// The flat («Квартира»).
    pub apartment: Option<String>,
    /// The phone number («Телефон»).
    pub phone: Option<String>,
}

/// A row's facts of a filing, as the file wrote them (`batch add`, issue 38): checked only when
/// the rows are requests filed before Zayavka; a batch to draft ignores them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RowFiling {
    /// The day it was filed, as written.
    pub filed: Option<String>,
    /// How, as written (`in_person`, «лично», …).
    pub how: Option<String>,
    /// The incoming number.
    pub number: Option<String>,
    /// To whom.
    pub to: Option<String>,
    /// For a letter, the day it was delivered, as written.
    pub delivered: Option<String>,
}

/// One data row: the input as the file gave it, its header details, and the result of checking
/// the input against the resident input contract.
#[derive(Debug, Clone)]
pub struct BatchRow {
    row_number: u32,
    raw: RawInput,
    header: RowHeader,
    filing: RowFiling,
    /// Checked on first use: a file refused for its number of rows is never checked row by
    /// row (a 50 MB spreadsheet is refused in the time it takes to read it).
    checked: std::sync::OnceLock<Result<ResidentInput, InputErrors>>,
}

impl BatchRow {
    fn new(row_number: u32, raw: RawInput, header: RowHeader, filing: RowFiling) -> BatchRow {
        BatchRow {
            row_number,
            raw,
            header,
            filing,
            checked: std::sync::OnceLock::new(),
        }
    }

    /// The row's facts of a filing, for `batch add` (issue 38).
    pub fn filing(&self) -> &RowFiling {
        &self.filing
    }

    /// The row's number as a spreadsheet shows it (the header is row 1, so the first data row
    /// is row 2), or the line number in a JSONL file.
    pub fn row_number(&self) -> u32 {
        self.row_number
    }

    /// The input as the file gave it. A subject given by its Russian title holds the kind's
    /// machine name; blank cells are absent fields.
    pub fn raw(&self) -> &RawInput {
        &self.raw
    }

    /// The row's document header details.
    pub fn header(&self) -> &RowHeader {
        &self.header
    }

    /// The checked input, or every problem found in it.
    pub fn checked(&self) -> Result<&ResidentInput, &InputErrors> {
        self.checked
            .get_or_init(|| ResidentInput::parse(&self.raw))
            .as_ref()
    }

    /// Whether the row's input passed every check.
    pub fn is_valid(&self) -> bool {
        self.checked().is_ok()
    }
}

/// A row that failed its checks, in the shape front ends print as JSON:
/// `{"row": 3, "errors": [{"field", "code", "message"}]}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct InvalidRow {
    /// The row's number as a spreadsheet shows it (or the JSONL line number).
    pub row: u32,
    /// What is wrong, in field order.
    pub errors: Vec<RowError>,
}

/// One problem with one row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RowError {
    /// The input field's JSON name (empty for the row as a whole).
    pub field: String,
    /// The stable code of the problem, as for a single input.
    pub code: InputErrorCode,
    /// The Russian message that says how to fix it.
    pub message: String,
}

/// A batch file read and checked, row by row.
#[derive(Debug, Clone)]
pub struct BatchFile {
    format: BatchFormat,
    encoding: Option<TextEncoding>,
    delimiter: Option<char>,
    content_sha256: String,
    file_name: String,
    source_path: Option<std::path::PathBuf>,
    rows: Vec<BatchRow>,
    skipped_blank: Vec<u32>,
}

impl BatchFile {
    /// Reads and checks a batch file. The file is read through the same checks as every file a
    /// resident names (no FIFO, device or folder; at most [`FileRole::BATCH_MAX_BYTES`]).
    pub fn read(path: &Path) -> Result<BatchFile, BatchFileError> {
        let bytes = read_file_bytes(path, FileRole::Batch, FileRole::BATCH_MAX_BYTES)?;
        let file_name = path
            .file_name()
            .map_or_else(|| path.to_string_lossy(), |name| name.to_string_lossy())
            .into_owned();
        let mut file = Self::parse(&file_name, &bytes, MAX_ROWS)?;
        // The batch a later run continues is the one last run from the same file; the
        // canonical path makes `дом.csv` and `./дом.csv` one file.
        file.source_path = Some(std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned()));
        Ok(file)
    }

    /// Reads a batch from bytes already in memory (a file dropped on the desktop window); the
    /// name chooses the format when the content does not.
    pub fn from_bytes(file_name: &str, bytes: &[u8]) -> Result<BatchFile, BatchFileError> {
        Self::parse(file_name, bytes, MAX_ROWS)
    }

    fn parse(file_name: &str, bytes: &[u8], max_rows: usize) -> Result<BatchFile, BatchFileError> {
        let failed = |kind| BatchFileError::Content {
            file_name: file_name.to_owned(),
            kind,
        };
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Err(failed(ContentError::Empty));
        }
        let content_sha256 = zayavka_core::sha256_hex(bytes);
        let extension = Path::new(file_name)
            .extension()
            .map(|extension| extension.to_string_lossy().to_lowercase())
            .unwrap_or_default();
        let mut table = Table::new(max_rows);
        let (format, encoding, delimiter) = if let Some(kind) = unsupported(bytes, &extension) {
            return Err(failed(ContentError::UnsupportedSpreadsheet { kind }));
        } else if bytes.starts_with(b"PK\x03\x04") || extension == "xlsx" {
            xlsx::read_xlsx(bytes, &mut table).map_err(failed)?;
            (BatchFormat::Xlsx, None, None)
        } else {
            let (text, encoding) =
                decode_text(bytes).map_err(|offset| BatchFileError::NotText {
                    file_name: file_name.to_owned(),
                    byte_offset: offset.unwrap_or(0),
                    utf16: offset.is_none(),
                })?;
            if text.trim().is_empty() {
                return Err(failed(ContentError::Empty));
            }
            let first = text.trim_start().as_bytes().first().copied();
            if matches!(extension.as_str(), "jsonl" | "ndjson") || first == Some(b'{') {
                read_jsonl(&text, &mut table).map_err(failed)?;
                (BatchFormat::Jsonl, Some(encoding), None)
            } else {
                let delimiter = detect_delimiter(&text);
                read_csv(&text, delimiter, &mut table).map_err(failed)?;
                (
                    BatchFormat::Csv,
                    Some(encoding),
                    Some(char::from(delimiter)),
                )
            }
        };
        let (rows, skipped_blank) = table.finish(format).map_err(failed)?;
        Ok(BatchFile {
            format,
            encoding,
            delimiter,
            content_sha256,
            file_name: file_name.to_owned(),
            source_path: None,
            rows,
            skipped_blank,
        })
    }

    /// The detected format.
    pub fn format(&self) -> BatchFormat {
        self.format
    }

    /// The detected text encoding (`None` for a workbook, whose text is always Unicode).
    pub fn encoding(&self) -> Option<TextEncoding> {
        self.encoding
    }

    /// The detected CSV delimiter (`None` for other formats).
    pub fn delimiter(&self) -> Option<char> {
        self.delimiter
    }

    /// The SHA-256 of the file's bytes, in lower-case hex: with it a batch knows whether its
    /// file changed since the last run, and finds its batch again when the file was moved.
    pub fn content_sha256(&self) -> &str {
        &self.content_sha256
    }

    /// The file's canonical path, when it was read from one: the batch a later run continues
    /// is the one last run from this path (ADR 14).
    pub fn source_path(&self) -> Option<&Path> {
        self.source_path.as_deref()
    }

    /// The file's name, without its folder.
    pub fn file_name(&self) -> &str {
        &self.file_name
    }

    /// Every data row, blank rows aside, in file order.
    pub fn rows(&self) -> &[BatchRow] {
        &self.rows
    }

    /// The rows, for a caller that takes them over.
    pub fn into_rows(self) -> Vec<BatchRow> {
        self.rows
    }

    /// The numbers of the rows that were skipped because every cell was blank (JSONL: blank
    /// lines), so that a report can say so instead of dropping them silently.
    pub fn skipped_blank(&self) -> &[u32] {
        &self.skipped_blank
    }

    /// How many rows passed every check.
    pub fn valid_count(&self) -> usize {
        self.rows.iter().filter(|row| row.is_valid()).count()
    }

    /// Every row that failed its checks, with what is wrong in each.
    pub fn invalid(&self) -> Vec<InvalidRow> {
        self.rows
            .iter()
            .filter_map(|row| {
                let errors = row.checked().err()?;
                Some(InvalidRow {
                    row: row.row_number,
                    errors: errors
                        .iter()
                        .map(|error| RowError {
                            field: error.field_name(),
                            code: error.code(),
                            message: error.message_ru(),
                        })
                        .collect(),
                })
            })
            .collect()
    }
}

/// Why a batch file could not be read. [`BatchFileError::message_ru`] says in Russian what
/// happened and what to do; a single bad row is not an error of the file but an
/// [`InvalidRow`].
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BatchFileError {
    /// The file itself could not be read: missing, a folder, a device, too large and the like.
    #[error("{}", self.message_ru())]
    Read(#[from] ReadError),
    /// The bytes are text in an encoding that cannot be read: UTF-16, or UTF-8 with a byte order
    /// mark and broken bytes after it.
    #[error("{}", self.message_ru())]
    NotText {
        /// The file's name.
        file_name: String,
        /// The offset of the first byte that could not be decoded.
        byte_offset: u64,
        /// Whether the file is UTF-16 (its byte order mark says so).
        utf16: bool,
    },
    /// The content is not a batch that can be used.
    #[error("{}", self.message_ru())]
    Content {
        /// The file's name.
        file_name: String,
        /// What is wrong with it.
        kind: ContentError,
    },
}

/// What is wrong with the content of a batch file.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ContentError {
    /// The file has no content, or only blank lines.
    Empty,
    /// The first row names none of the known columns: it is data, not a header.
    NoHeader {
        /// The first row's cells, as found.
        first_row: Vec<String>,
    },
    /// The header has no description column, which every request needs.
    NoDescriptionColumn {
        /// The header's cells, as found.
        columns: Vec<String>,
    },
    /// The header names columns that are not known.
    UnknownColumns {
        /// The unknown headers, as found.
        unknown: Vec<String>,
    },
    /// Two columns mean the same field.
    DuplicateColumn {
        /// The second header, as found.
        header: String,
        /// The first column's letter.
        first: String,
        /// The second column's letter.
        second: String,
    },
    /// A row has a value in a column without a header, so it is not known what it means.
    ValueWithoutHeader {
        /// The row's number.
        row: u32,
        /// The column's letter.
        column: String,
    },
    /// The file has a header but no row with any value.
    NoRows {
        /// How many blank rows were skipped.
        blank: usize,
    },
    /// More data rows than [`MAX_ROWS`].
    TooManyRows {
        /// The limit.
        max: usize,
    },
    /// A workbook with no sheet.
    NoSheets,
    /// A workbook that unpacks to more than [`xlsx::MAX_UNPACKED_BYTES`] or holds more than
    /// [`xlsx::MAX_ENTRIES`] files: a «zip bomb», or no table of requests.
    WorkbookTooLarge {
        /// How many files the archive holds, when their number was the problem.
        entries: Option<usize>,
    },
    /// The first sheet has more than [`xlsx::MAX_CELLS`] cells with a value.
    TooManyCells {
        /// The limit.
        max: usize,
    },
    /// A workbook that could not be read.
    UnreadableWorkbook {
        /// What the workbook reader said, in English, for a log; the message does not show it.
        detail: String,
    },
    /// A spreadsheet format that is not read: the old binary XLS or OpenDocument's ODS.
    UnsupportedSpreadsheet {
        /// The format's usual name, «XLS» or «ODS».
        kind: &'static str,
    },
    /// The CSV reader failed.
    MalformedCsv {
        /// The row where it failed.
        row: u32,
    },
}

/// The columns a header may name, and how a batch file lists them in a message.
const ACCEPTED_COLUMNS_RU: &str = "«Описание» (обязательный), «Место», «Последствия», \
     «Что сделать», «Предмет», а для документа — «ФИО», «Квартира», «Телефон» (или их \
     английские имена: description, location, consequences, desired_actions, \
     confirmed_subject, full_name, apartment, phone)";

stable_codes! {
    /// The code of a batch file's [`ContentError`].
    pub enum ContentErrorCode {
        /// `empty`.
        Empty => "empty",
        /// `no_header`.
        NoHeader => "no_header",
        /// `no_description_column`.
        NoDescriptionColumn => "no_description_column",
        /// `unknown_columns`.
        UnknownColumns => "unknown_columns",
        /// `duplicate_column`.
        DuplicateColumn => "duplicate_column",
        /// `value_without_header`.
        ValueWithoutHeader => "value_without_header",
        /// `no_rows`.
        NoRows => "no_rows",
        /// `too_many_rows`.
        TooManyRows => "too_many_rows",
        /// `no_sheets`.
        NoSheets => "no_sheets",
        /// `workbook_too_large`.
        WorkbookTooLarge => "workbook_too_large",
        /// `too_many_cells`.
        TooManyCells => "too_many_cells",
        /// `unreadable_workbook`.
        UnreadableWorkbook => "unreadable_workbook",
        /// `unsupported_spreadsheet`.
        UnsupportedSpreadsheet => "unsupported_spreadsheet",
        /// `malformed_csv`.
        MalformedCsv => "malformed_csv",
    }
}

joined_codes! {
    /// The stable code of a [`BatchFileError`], for a front end or a test: a text that is not
    /// UTF-8 or UTF-16 has the same code as a file the reader refused for it.
    pub enum BatchFileErrorCode {
        /// The file could not be read, or its text was not UTF-8.
        Read(ReadErrorCode),
        /// What it holds is not a batch.
        Content(ContentErrorCode),
    }
}

impl BatchFileError {
    /// A stable code for this kind of failure, for a front end or a test.
    pub fn code(&self) -> BatchFileErrorCode {
        let own = match self {
            BatchFileError::Read(error) => return BatchFileErrorCode::Read(error.code()),
            BatchFileError::NotText { utf16: true, .. } => {
                return BatchFileErrorCode::Read(ReadErrorCode::Utf16);
            }
            BatchFileError::NotText { .. } => {
                return BatchFileErrorCode::Read(ReadErrorCode::NotUtf8);
            }
            BatchFileError::Content { kind, .. } => match kind {
                ContentError::Empty => ContentErrorCode::Empty,
                ContentError::NoHeader { .. } => ContentErrorCode::NoHeader,
                ContentError::NoDescriptionColumn { .. } => ContentErrorCode::NoDescriptionColumn,
                ContentError::UnknownColumns { .. } => ContentErrorCode::UnknownColumns,
                ContentError::DuplicateColumn { .. } => ContentErrorCode::DuplicateColumn,
                ContentError::ValueWithoutHeader { .. } => ContentErrorCode::ValueWithoutHeader,
                ContentError::NoRows { .. } => ContentErrorCode::NoRows,
                ContentError::TooManyRows { .. } => ContentErrorCode::TooManyRows,
                ContentError::NoSheets => ContentErrorCode::NoSheets,
                ContentError::WorkbookTooLarge { .. } => ContentErrorCode::WorkbookTooLarge,
                ContentError::TooManyCells { .. } => ContentErrorCode::TooManyCells,
                ContentError::UnreadableWorkbook { .. } => ContentErrorCode::UnreadableWorkbook,
                ContentError::UnsupportedSpreadsheet { .. } => {
                    ContentErrorCode::UnsupportedSpreadsheet
                }
                ContentError::MalformedCsv { .. } => ContentErrorCode::MalformedCsv,
            },
        };
        BatchFileErrorCode::Content(own)
    }

    /// The message in Russian: which file, what happened, what to do. Like [`ReadError`]'s, it
    /// starts with a lower-case letter and ends with a full stop.
    pub fn message_ru(&self) -> String {
        let (file_name, reason) = match self {
            BatchFileError::Read(error) => return error.message_ru(),
            BatchFileError::NotText {
                file_name,
                utf16: true,
                ..
            } => (
                file_name,
                format!("файл в кодировке UTF-16 («Юникод»). {SAVE_AS_CSV_UTF8}"),
            ),
            BatchFileError::NotText {
                file_name,
                byte_offset,
                ..
            } => (
                file_name,
                format!(
                    "после метки UTF-8 в начале файла идут байты не в кодировке UTF-8 (первый \
                     неверный — на смещении {byte_offset}). {SAVE_AS_CSV_UTF8}"
                ),
            ),
            BatchFileError::Content { file_name, kind } => (file_name, content_reason_ru(kind)),
        };
        format!(
            "не удалось прочитать {} «{}»: {reason}.",
            FileRole::Batch.label_ru(),
            shown(file_name)
        )
    }
}

/// The advice for a text file in an encoding that cannot be read; it ends without a full stop.
const SAVE_AS_CSV_UTF8: &str = "Сохраните таблицу заново: в Excel «Файл» → «Сохранить как» → \
     «CSV UTF-8 (разделитель — запятая)», в LibreOffice — «Текст CSV» с кодировкой «Юникод (UTF-8)»";

fn content_reason_ru(kind: &ContentError) -> String {
    match kind {
        ContentError::Empty => "файл пустой. Проверьте, тот ли это файл, и сохраните в нём \
             таблицу с заголовком и хотя бы одной заявкой"
            .to_owned(),
        ContentError::NoHeader { first_row } => format!(
            "в первой строке ({}) нет ни одного известного названия столбца. Первая строка \
             таблицы должна быть заголовком: {ACCEPTED_COLUMNS_RU}",
            shown_list(first_row)
        ),
        ContentError::NoDescriptionColumn { columns } => format!(
            "в заголовке ({}) нет столбца «Описание», а без описания проблемы заявку не \
             составить. Добавьте столбец «Описание» и впишите в него, что случилось",
            shown_list(columns)
        ),
        ContentError::UnknownColumns { unknown } => format!(
            "в заголовке есть неизвестные столбцы: {}. Переименуйте или удалите их; можно \
             использовать только {ACCEPTED_COLUMNS_RU}",
            shown_list(unknown)
        ),
        ContentError::DuplicateColumn {
            header,
            first,
            second,
        } => format!(
            "столбцы {first} и {second} означают одно и то же («{}»). Оставьте только один \
             из них",
            shown(header)
        ),
        ContentError::ValueWithoutHeader { row, column } => format!(
            "в строке {row} заполнена ячейка {column}{row}, но у столбца {column} нет \
             названия в заголовке. Впишите название столбца или очистите ячейку"
        ),
        ContentError::NoRows { blank: 0 } => {
            "в файле есть заголовок, но нет ни одной заявки. Заполните хотя бы одну строку \
             под заголовком"
                .to_owned()
        }
        ContentError::NoRows { blank } => format!(
            "под заголовком нет ни одной заполненной строки (пустых строк: {blank}). \
             Заполните хотя бы одну строку под заголовком"
        ),
        ContentError::TooManyRows { max } => format!(
            "в файле больше {0} заявок, а в одном пакете может быть не больше {0}. \
             Разделите таблицу на несколько файлов",
            zayavka_core::group_digits(*max as u64)
        ),
        ContentError::NoSheets => "в книге Excel нет ни одного листа. Откройте файл в Excel \
             или LibreOffice и проверьте, что заявки на первом листе"
            .to_owned(),
        ContentError::WorkbookTooLarge {
            entries: Some(entries),
        } => format!(
            "внутри книги Excel {} файлов, а в таблице заявок их бывает не больше \
             {}. Похоже, это не таблица заявок или файл испорчен. Откройте его в Excel или \
             LibreOffice и сохраните заявки заново как «Книга Excel (.xlsx)» или как CSV",
            zayavka_core::group_digits(*entries as u64),
            zayavka_core::group_digits(xlsx::MAX_ENTRIES as u64)
        ),
        ContentError::WorkbookTooLarge { entries: None } => format!(
            "в распакованном виде книга Excel заняла бы больше {} МБ — для таблицы заявок это \
             слишком много: файл испорчен или сделан так, чтобы занять всю память. Откройте \
             его в Excel или LibreOffice и сохраните заявки заново как «Книга Excel (.xlsx)» \
             или как CSV",
            xlsx::MAX_UNPACKED_BYTES / (1024 * 1024)
        ),
        ContentError::TooManyCells { max } => format!(
            "на первом листе больше {} заполненных ячеек, а в пакете может быть не больше \
             {} заявок. Оставьте на первом листе только таблицу заявок или разделите \
             её на несколько файлов",
            zayavka_core::group_digits(*max as u64),
            zayavka_core::group_digits(MAX_ROWS as u64)
        ),
        ContentError::UnreadableWorkbook { .. } => "файл похож на книгу Excel (XLSX), но \
             прочитать его не удалось — возможно, он повреждён или это не XLSX. Откройте его \
             в Excel или LibreOffice и сохраните заново как «Книга Excel (.xlsx)» или как CSV"
            .to_owned(),
        ContentError::UnsupportedSpreadsheet { kind } => format!(
            "таблицы в формате {kind} не поддерживаются. Откройте файл в Excel или \
             LibreOffice и сохраните как «Книга Excel (.xlsx)» или как CSV"
        ),
        ContentError::MalformedCsv { row } => format!(
            "строку {row} не удалось разобрать как CSV. Проверьте кавычки в этой строке или \
             сохраните таблицу заново из Excel или LibreOffice"
        ),
    }
}

/// Text from the file for a message: invisible characters escaped and long values shortened, so
/// that a hostile cell cannot recolour a terminal or flood the screen.
fn shown(text: &str) -> String {
    const MAX_CHARS: usize = 60;
    let escaped = zayavka_core::escape_invisible(text);
    if escaped.chars().count() <= MAX_CHARS {
        return escaped;
    }
    let mut short: String = escaped.chars().take(MAX_CHARS).collect();
    short.push('…');
    short
}

fn shown_list(items: &[String]) -> String {
    const MAX_ITEMS: usize = 10;
    let mut list = String::new();
    for (index, item) in items.iter().take(MAX_ITEMS).enumerate() {
        if index > 0 {
            list.push_str(", ");
        }
        let _ = write!(list, "«{}»", shown(item));
    }
    if items.len() > MAX_ITEMS {
        let _ = write!(list, " и ещё {}", items.len() - MAX_ITEMS);
    }
    list
}

/// The old binary spreadsheet formats, recognised so that they get advice instead of a garbled
/// CSV reading.
fn unsupported(bytes: &[u8], extension: &str) -> Option<&'static str> {
    const OLE_MAGIC: &[u8] = b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1";
    const ODS_MIMETYPE: &[u8] = b"application/vnd.oasis.opendocument.spreadsheet";
    if bytes.starts_with(OLE_MAGIC) || extension == "xls" {
        return Some("XLS");
    }
    // An OpenDocument file is a ZIP archive whose first, uncompressed entry is its media type.
    let head = &bytes[..bytes.len().min(128)];
    let is_ods = head
        .windows(ODS_MIMETYPE.len())
        .any(|window| window == ODS_MIMETYPE);
    if is_ods || extension == "ods" {
        return Some("ODS");
    }
    None
}

/// Decodes a text file: UTF-8 with or without a byte order mark, otherwise Windows-1251. The
/// error is the offset of the first byte that cannot be decoded, or `None` for UTF-16.
fn decode_text(bytes: &[u8]) -> Result<(Cow<'_, str>, TextEncoding), Option<u64>> {
    if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
        return Err(None);
    }
    if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        // A byte order mark says UTF-8 outright, so broken bytes after it are not another
        // encoding but damage.
        return match std::str::from_utf8(rest) {
            Ok(text) => Ok((Cow::Borrowed(text), TextEncoding::Utf8WithBom)),
            Err(error) => Err(Some(3 + error.valid_up_to() as u64)),
        };
    }
    if let Ok(text) = std::str::from_utf8(bytes) {
        return Ok((Cow::Borrowed(text), TextEncoding::Utf8));
    }
    // Every byte has a character in Windows-1251, so this decoding cannot fail.
    let (text, _had_errors) = encoding_rs::WINDOWS_1251.decode_without_bom_handling(bytes);
    Ok((text, TextEncoding::Windows1251))
}

/// The delimiter of a CSV file: whichever of `;`, tab and `,` occurs most often outside quotes
/// in the header line. With none at all the file has one column and the choice does not matter.
fn detect_delimiter(text: &str) -> u8 {
    let mut counts = [(b';', 0usize), (b'\t', 0), (b',', 0)];
    let mut quoted = false;
    for byte in text.trim_start_matches(['\r', '\n']).bytes() {
        match byte {
            b'"' => quoted = !quoted,
            b'\n' if !quoted => break,
            _ if !quoted => {
                for (delimiter, count) in &mut counts {
                    if byte == *delimiter {
                        *count += 1;
                    }
                }
            }
            _ => {}
        }
    }
    // `max_by_key` keeps the last of equal counts, so the order above is the preference on a
    // tie, from the least to the most likely.
    counts
        .iter()
        .rev()
        .max_by_key(|(_, count)| *count)
        .map_or(b',', |(delimiter, _)| *delimiter)
}

fn read_csv(text: &str, delimiter: u8, table: &mut Table) -> Result<(), ContentError> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(delimiter)
        .from_reader(text.as_bytes());
    let mut record = csv::StringRecord::new();
    // The csv reader skips empty lines, but a spreadsheet shows each as a row, so they are
    // counted where each record starts: the reader's position there is just after the record
    // before, ahead of any empty lines it skipped.
    let mut row_number = 0u32;
    loop {
        match reader.read_record(&mut record) {
            Ok(true) => {}
            Ok(false) => break,
            Err(_) => {
                return Err(ContentError::MalformedCsv {
                    row: row_number + 1,
                });
            }
        }
        let mut start = record
            .position()
            .map_or(0, |position| position.byte() as usize);
        // After a record that ends in `\r\n` the position may sit between the two bytes; that
        // `\n` ends the record before, not an empty line.
        if start > 0
            && text.as_bytes()[start - 1] == b'\r'
            && text.as_bytes().get(start) == Some(&b'\n')
        {
            start += 1;
        }
        for _ in 0..leading_empty_lines(text.get(start..).unwrap_or("")) {
            row_number += 1;
            table.blank(row_number);
        }
        row_number += 1;
        let cells: Vec<&str> = record.iter().collect();
        table.push(row_number, 0, &cells)?;
    }
    Ok(())
}

/// How many empty lines (`\n`, `\r\n` or `\r`, the line ends the csv reader knows) the text
/// starts with.
fn leading_empty_lines(mut text: &str) -> usize {
    let mut count = 0;
    while let Some(rest) = text
        .strip_prefix("\r\n")
        .or_else(|| text.strip_prefix(['\n', '\r']))
    {
        count += 1;
        text = rest;
    }
    count
}

fn read_jsonl(text: &str, table: &mut Table) -> Result<(), ContentError> {
    table.columns = Some(Vec::new());
    // `lines` ends a line at `\n` or `\r\n` and yields nothing after the last line end, as a
    // text editor numbers lines.
    for (index, line) in text.lines().enumerate() {
        let line_number = index as u32 + 1;
        if line.trim().is_empty() {
            table.blank(line_number);
            continue;
        }
        let row = jsonl_row(line_number, line);
        table.add_row(row)?;
    }
    Ok(())
}

/// One JSONL line: the same object as a single input, checked by the same rules, plus the three
/// optional document header fields, which are taken out before the check.
fn jsonl_row(line_number: u32, line: &str) -> BatchRow {
    let Ok(serde_json::Value::Object(mut object)) = serde_json::from_str(line) else {
        // The core explains what is wrong with a line that is not a JSON object.
        return BatchRow {
            row_number: line_number,
            raw: RawInput::default(),
            header: RowHeader::default(),
            filing: RowFiling::default(),
            checked: ResidentInput::from_json_str(line).into(),
        };
    };
    let mut header = RowHeader::default();
    let mut filing = RowFiling::default();
    // The header's details, and a filing's facts for `batch add` (issue 38).
    for (name, slot) in [
        ("full_name", &mut header.full_name),
        ("apartment", &mut header.apartment),
        ("phone", &mut header.phone),
        ("filed", &mut filing.filed),
        ("how", &mut filing.how),
        ("number", &mut filing.number),
        ("to", &mut filing.to),
        ("delivered", &mut filing.delivered),
    ] {
        let value = match object.get(name) {
            Some(serde_json::Value::String(text)) => Some(header_value(text)),
            // A flat or a phone number written as a JSON number is still that number.
            Some(serde_json::Value::Number(number)) => Some(number.to_string()),
            Some(serde_json::Value::Null) => None,
            // Any other type stays in the object, so the check names the field.
            _ => continue,
        };
        object.remove(name);
        *slot = value.filter(|text| !text.is_empty());
    }
    let text_of = |field: InputField| match object.get(field.code()) {
        Some(serde_json::Value::String(text)) => Some(text.clone()),
        _ => None,
    };
    let raw = RawInput {
        description: text_of(InputField::Description),
        location: text_of(InputField::Location),
        consequences: text_of(InputField::Consequences),
        desired_actions: text_of(InputField::DesiredActions),
        confirmed_subject: text_of(InputField::ConfirmedSubject),
    };
    let rest = serde_json::Value::Object(object).to_string();
    BatchRow {
        row_number: line_number,
        raw,
        header,
        filing,
        // The object read above kept one value of a repeated name; the line as written says
        // which names were repeated.
        checked: ResidentInput::refuse_duplicate_fields(line)
            .and_then(|()| ResidentInput::from_json_str(&rest))
            .into(),
    }
}

/// A document header value: one line with single spaces, and invisible characters shown as
/// `\u{..}`. The core does not check these values, yet they are printed, so they are made safe
/// here rather than trusted.
fn header_value(cell: &str) -> String {
    zayavka_core::escape_invisible(&cell.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// What a header cell names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Column {
    Input(InputField),
    FullName,
    Apartment,
    Phone,
    /// A filing's fact, for `batch add` (issue 38): requests filed before Zayavka.
    Filing(FilingColumn),
}

/// The columns of a request filed before Zayavka (`batch add`, issue 38).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FilingColumn {
    Filed,
    How,
    Number,
    To,
    Delivered,
}

impl Column {
    /// The column a header cell names: the input field's JSON name or a Russian label, compared
    /// without regard to case, spaces, underscores, a trailing colon or asterisk, and «ё».
    fn from_header(header: &str) -> Option<Column> {
        const NAMES: &[(&str, Column)] = &[
            ("description", Column::Input(InputField::Description)),
            ("описание", Column::Input(InputField::Description)),
            ("описаниепроблемы", Column::Input(InputField::Description)),
            ("location", Column::Input(InputField::Location)),
            ("место", Column::Input(InputField::Location)),
            ("consequences", Column::Input(InputField::Consequences)),
            ("последствия", Column::Input(InputField::Consequences)),
            ("desiredactions", Column::Input(InputField::DesiredActions)),
            ("чтосделать", Column::Input(InputField::DesiredActions)),
            (
                "чтовыпроситесделать",
                Column::Input(InputField::DesiredActions),
            ),
            (
                "confirmedsubject",
                Column::Input(InputField::ConfirmedSubject),
            ),
            ("предмет", Column::Input(InputField::ConfirmedSubject)),
            (
                "кчемуотносится",
                Column::Input(InputField::ConfirmedSubject),
            ),
            (
                "кчемуотноситсяпроблема",
                Column::Input(InputField::ConfirmedSubject),
            ),
            ("fullname", Column::FullName),
            ("фио", Column::FullName),
            ("apartment", Column::Apartment),
            ("квартира", Column::Apartment),
            ("phone", Column::Phone),
            ("телефон", Column::Phone),
            ("filed", Column::Filing(FilingColumn::Filed)),
            ("filedon", Column::Filing(FilingColumn::Filed)),
            ("датаподачи", Column::Filing(FilingColumn::Filed)),
            ("how", Column::Filing(FilingColumn::How)),
            ("method", Column::Filing(FilingColumn::How)),
            ("способ", Column::Filing(FilingColumn::How)),
            ("способподачи", Column::Filing(FilingColumn::How)),
            ("каконаподана", Column::Filing(FilingColumn::How)),
            ("number", Column::Filing(FilingColumn::Number)),
            ("входящийномер", Column::Filing(FilingColumn::Number)),
            ("to", Column::Filing(FilingColumn::To)),
            ("addressee", Column::Filing(FilingColumn::To)),
            ("кому", Column::Filing(FilingColumn::To)),
            ("адресат", Column::Filing(FilingColumn::To)),
            ("delivered", Column::Filing(FilingColumn::Delivered)),
            ("deliveredon", Column::Filing(FilingColumn::Delivered)),
            ("датавручения", Column::Filing(FilingColumn::Delivered)),
        ];
        let key: String = fold(header.trim().trim_end_matches([':', '*']))
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '_')
            .collect();
        NAMES
            .iter()
            .find(|(name, _)| *name == key)
            .map(|(_, column)| *column)
    }
}

/// Lower case with «ё» as «е», the way people compare Russian words.
fn fold(text: &str) -> String {
    text.to_lowercase().replace('ё', "е")
}

/// A subject cell: a kind's machine name or its Russian title, in any case, becomes the machine
/// name; anything else is kept as it is, so the check reports it.
fn subject_cell(cell: &str) -> String {
    let key = fold(&cell.split_whitespace().collect::<Vec<_>>().join(" "));
    SubjectKind::ALL
        .iter()
        .copied()
        .find(|kind| key == kind.code() || key == fold(kind.title_ru()))
        .map_or_else(|| cell.to_owned(), |kind| kind.code().to_owned())
}

/// A column's letters as a spreadsheet shows them: A, …, Z, AA, AB, ….
fn column_letters(index: u32) -> String {
    let mut letters = Vec::new();
    let mut rest = index + 1;
    while rest > 0 {
        let digit = (rest - 1) % 26;
        letters.push(char::from(b'A' + digit as u8));
        rest = (rest - 1) / 26;
    }
    letters.iter().rev().collect()
}

/// The rows of a table as they arrive, with the header that gives their columns meaning.
struct Table {
    /// The header's columns, once the header row has been seen (a JSONL file has none).
    columns: Option<Vec<Option<Column>>>,
    rows: Vec<BatchRow>,
    skipped_blank: Vec<u32>,
    max_rows: usize,
}

impl Table {
    fn new(max_rows: usize) -> Table {
        Table {
            columns: None,
            rows: Vec::new(),
            skipped_blank: Vec::new(),
            max_rows,
        }
    }

    /// A row with no value. Blank rows above the header are the sheet's margin, not skipped rows.
    fn blank(&mut self, row_number: u32) {
        if self.columns.is_some() {
            self.skipped_blank.push(row_number);
        }
    }

    fn push(
        &mut self,
        row_number: u32,
        first_column: u32,
        cells: &[&str],
    ) -> Result<(), ContentError> {
        if cells.iter().all(|cell| cell.trim().is_empty()) {
            self.blank(row_number);
            return Ok(());
        }
        let Some(columns) = &self.columns else {
            self.columns = Some(header_columns(cells, first_column)?);
            return Ok(());
        };
        let mut raw = RawInput::default();
        let mut header = RowHeader::default();
        let mut filing = RowFiling::default();
        for (index, cell) in cells.iter().enumerate() {
            // A cell with only spaces looks empty in a spreadsheet, so it is an absent field.
            if cell.trim().is_empty() {
                continue;
            }
            let Some(column) = columns.get(index).copied().flatten() else {
                return Err(ContentError::ValueWithoutHeader {
                    row: row_number,
                    column: column_letters(first_column + index as u32),
                });
            };
            match column {
                Column::Input(InputField::ConfirmedSubject) => {
                    raw.confirmed_subject = Some(subject_cell(cell));
                }
                Column::Input(InputField::Description) => raw.description = Some((*cell).into()),
                Column::Input(InputField::Location) => raw.location = Some((*cell).into()),
                Column::Input(InputField::Consequences) => raw.consequences = Some((*cell).into()),
                Column::Input(InputField::DesiredActions) => {
                    raw.desired_actions = Some((*cell).into());
                }
                Column::FullName => header.full_name = Some(header_value(cell)),
                Column::Apartment => header.apartment = Some(header_value(cell)),
                Column::Phone => header.phone = Some(header_value(cell)),
                Column::Filing(column) => {
                    let value = Some(header_value(cell));
                    match column {
                        FilingColumn::Filed => filing.filed = value,
                        FilingColumn::How => filing.how = value,
                        FilingColumn::Number => filing.number = value,
                        FilingColumn::To => filing.to = value,
                        FilingColumn::Delivered => filing.delivered = value,
                    }
                }
            }
        }
        self.add_row(BatchRow::new(row_number, raw, header, filing))
    }

    fn add_row(&mut self, row: BatchRow) -> Result<(), ContentError> {
        if self.rows.len() == self.max_rows {
            return Err(ContentError::TooManyRows { max: self.max_rows });
        }
        self.rows.push(row);
        Ok(())
    }

    fn finish(self, format: BatchFormat) -> Result<(Vec<BatchRow>, Vec<u32>), ContentError> {
        if self.columns.is_none() {
            return Err(ContentError::Empty);
        }
        if self.rows.is_empty() {
            // A JSONL file of blank lines is as empty as an empty file.
            if format == BatchFormat::Jsonl {
                return Err(ContentError::Empty);
            }
            return Err(ContentError::NoRows {
                blank: self.skipped_blank.len(),
            });
        }
        Ok((self.rows, self.skipped_blank))
    }
}

/// Maps the header row's cells to columns, refusing a header that does not make a batch.
fn header_columns(cells: &[&str], first_column: u32) -> Result<Vec<Option<Column>>, ContentError> {
    let found: Vec<String> = cells
        .iter()
        .filter(|cell| !cell.trim().is_empty())
        .map(|cell| cell.trim().to_owned())
        .collect();
    let columns: Vec<Option<Column>> = cells.iter().map(|cell| Column::from_header(cell)).collect();
    if columns.iter().all(Option::is_none) {
        return Err(ContentError::NoHeader { first_row: found });
    }
    let unknown: Vec<String> = cells
        .iter()
        .zip(&columns)
        .filter(|(cell, column)| column.is_none() && !cell.trim().is_empty())
        .map(|(cell, _)| cell.trim().to_owned())
        .collect();
    if !unknown.is_empty() {
        return Err(ContentError::UnknownColumns { unknown });
    }
    for (second, column) in columns.iter().enumerate() {
        let Some(column) = column else { continue };
        if let Some(first) = columns[..second].iter().position(|c| c == &Some(*column)) {
            return Err(ContentError::DuplicateColumn {
                header: cells[second].trim().to_owned(),
                first: column_letters(first_column + first as u32),
                second: column_letters(first_column + second as u32),
            });
        }
    }
    if !columns.contains(&Some(Column::Input(InputField::Description))) {
        return Err(ContentError::NoDescriptionColumn { columns: found });
    }
    Ok(columns)
}

mod xlsx;

impl crate::error::EngineError for BatchFileError {
    fn kind(&self) -> crate::error::ErrorKind {
        crate::error::ErrorKind::BatchFile
    }

    fn message_ru(&self) -> String {
        BatchFileError::message_ru(self)
    }
}

// The unit tests of every format, encoding, delimiter, header rule and file error (they were
// left out of the build by mistake in 48d9e7e and are back).
#[cfg(test)]
mod tests;

#[cfg(test)]
mod grouping_tests {
    use super::*;

    #[test]
    fn issue_31_large_counts_in_the_messages_are_grouped_by_three() {
        let nbsp = '\u{a0}';
        let cells = content_reason_ru(&ContentError::TooManyCells {
            max: xlsx::MAX_CELLS,
        });
        assert!(
            cells.contains(&format!("800{nbsp}008 заполненных ячеек")),
            "{cells}"
        );
        assert!(cells.contains(&format!("100{nbsp}000 заявок")), "{cells}");
        let rows = content_reason_ru(&ContentError::TooManyRows { max: MAX_ROWS });
        assert!(
            rows.contains(&format!("больше 100{nbsp}000 заявок")),
            "{rows}"
        );
        let batch = crate::batch::run::BatchError::TooManyRows {
            rows: 14692,
            limit: 5000,
        };
        assert!(
            batch
                .to_string()
                .contains(&format!("в файле 14{nbsp}692 строк")),
            "{batch}"
        );
        assert!(batch.to_string().contains("не больше 5000"), "{batch}");
    }
}
